# The README's result table from several bench/run results folders (POSIX
# awk): per configuration and algorithm, each run's probe-first and
# held-out median |error| over the points >= min_s (default 1 ms), then
# the median over the runs and their spread (max - min), and what the
# held-out fits used (the terms fitted, the factors' medians over every
# point of every run, the other sizes); a line per run with its
# duration, budget and load (elapsed.txt beside each heldout.csv) and
# where the time went (phases.txt). Markdown on stdout.
#   awk -f bench/csv.awk -f bench/stats.awk -f bench/runs.awk R1/heldout.csv R2/heldout.csv ...
# A file without heldout.csv's columns is refused with exit status 2.
function fail(msg) {
    printf "runs.awk: %s: %s\n", FILENAME, msg > "/dev/stderr"
    bad = 1; exit 2
}
# "median (spread)" of the runs' values of cell c, kind k.
function over_runs(c, k,    r, n, v, lo, hi) {
    n = 0
    for (r = 1; r <= nruns; r++)
        if ((c, k, r) in cellv) {
            v[++n] = cellv[c, k, r]
            if (n == 1 || v[n] < lo) lo = v[n]
            if (n == 1 || v[n] > hi) hi = v[n]
        }
    return n ? pct(median(v, n)) " (" pct(hi - lo) ")" : "-"
}
BEGIN { if (min_s == "") min_s = 0.001 }
# What cell c's held-out fits used, over every run.
function fit_used(c,    k, n, v, m) {
    if (fitp[c] == "") return "none"
    m = ""
    for (k = 1; k <= 3 && nfac[c]; k++) {
        for (n = 1; n <= nfac[c]; n++) v[n] = fac[c, k, n]
        m = m (k > 1 ? " / " : "") sprintf("%.2f", median(v, nfac[c]))
    }
    return "terms " terms[c] (m == "" ? "" : ", factors l / g / c " m) ", on the other " \
           (fitp[c] == fitq[c] ? fitp[c] : fitp[c] "-" fitq[c]) " sizes (median repetition each), leave-one-size-out"
}
# The lines of FILE joined by sep, "" when it cannot be read.
function joined(file, sep,    l, s) {
    s = ""
    while ((getline l < file) > 0) s = s (s == "" ? "" : sep) l
    close(file)
    return s
}
FNR == 1 {
    nruns++
    run_file[nruns] = FILENAME
    have_header = 0
    split("", col)
}
{
    if (!csv_record($0)) next
    nf = csv_split(csv_rec, f)
    if (!have_header) {
        miss = csv_columns(f, nf, col, "config algo n_elements measured_s " \
                           "closed_form_rel_err heldout_rel_err fit_points")
        if (miss != "") fail("no column '" miss "' (not a heldout.csv?)")
        have_header = 1
        next
    }
    if (csv_rec == "") next
    c = f[col["config"]] SUBSEP f[col["algo"]]
    if (!(c in seen)) { seen[c] = 1; cells[++ncells] = c }
    if (!num(f[col["measured_s"]]) || f[col["measured_s"]] + 0 < min_s) next
    np[c, nruns]++
    pe[c, nruns, np[c, nruns]] = abs(f[col["closed_form_rel_err"]])
    if (num(f[col["heldout_rel_err"]])) {
        nh[c, nruns]++
        he[c, nruns, nh[c, nruns]] = abs(f[col["heldout_rel_err"]])
        fitp[c] = fitp[c] == "" || f[col["fit_points"]] + 0 < fitp[c] ? f[col["fit_points"]] + 0 : fitp[c]
        fitq[c] = fitq[c] == "" || f[col["fit_points"]] + 0 > fitq[c] ? f[col["fit_points"]] + 0 : fitq[c]
        # The factors of every fit, and its terms where heldout.csv says
        # (heldout.awk since its Theil-Sen fit).
        if ("l_factor" in col && num(f[col["l_factor"]])) {
            nfac[c]++
            fac[c, 1, nfac[c]] = f[col["l_factor"]]
            fac[c, 2, nfac[c]] = f[col["g_factor"]]
            fac[c, 3, nfac[c]] = f[col["c_factor"]]
        }
        tm = "fit_terms" in col ? f[col["fit_terms"]] : "l g c (least squares)"
        if (index(terms[c], "[" tm "]") == 0) terms[c] = terms[c] "[" tm "]"
    }
    if (!((c, nruns) in nsz)) nsz[c, nruns] = 0
    nsz[c, nruns]++
}
END {
    if (bad) exit 2
    for (ci = 1; ci <= ncells; ci++)
        for (r = 1; r <= nruns; r++) {
            c = cells[ci]
            for (k = 1; k <= np[c, r]; k++) v1[k] = pe[c, r, k]
            if (np[c, r]) cellv[c, "p", r] = median(v1, np[c, r])
            for (k = 1; k <= nh[c, r]; k++) v2[k] = he[c, r, k]
            if (nh[c, r]) cellv[c, "h", r] = median(v2, nh[c, r])
        }
    printf "| config | algo | points >= %g ms |", min_s * 1000
    for (r = 1; r <= nruns; r++) printf " run %d probe-first / held-out |", r
    printf " probe-first: median (spread) | held-out: median (spread) | held-out fit |\n|---|---|---|"
    for (r = 1; r <= nruns; r++) printf "---|"
    printf "---|---|---|\n"
    for (ci = 1; ci <= ncells; ci++) {
        c = cells[ci]
        split(c, kc, SUBSEP)
        pts = ""
        for (r = 1; r <= nruns; r++) pts = pts (r > 1 ? ", " : "") (np[c, r] + 0)
        printf "| %s | %s | %s |", kc[1], kc[2], pts
        for (r = 1; r <= nruns; r++)
            printf " %s / %s |", (c, "p", r) in cellv ? pct(cellv[c, "p", r]) : "-",
                   (c, "h", r) in cellv ? pct(cellv[c, "h", r]) : "-"
        printf " %s | %s | %s |\n", over_runs(c, "p"), over_runs(c, "h"), fit_used(c)
    }
    print ""
    for (r = 1; r <= nruns; r++) {
        d = run_file[r]
        sub(/[^\/]*$/, "", d)
        line = joined(d "elapsed.txt", ", ")
        ph = joined(d "phases.txt", "; ")
        ok1 = 0; ok2 = 0; n1 = 0; n2 = 0
        for (ci = 1; ci <= ncells; ci++) {
            c = cells[ci]
            if ((c, "p", r) in cellv) { n1++; ok1 += cellv[c, "p", r] <= 0.10 }
            if ((c, "h", r) in cellv) { n2++; ok2 += cellv[c, "h", r] <= 0.10 }
        }
        printf "- run %d (%s): probe-first within 10%% in %d of %d cells, held-out in %d of %d; %s%s\n",
               r, run_file[r], ok1, n1, ok2, n2, line == "" ? "no elapsed.txt" : line,
               ph == "" ? "" : "; phases (s): " ph
    }
}
