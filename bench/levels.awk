# Per-level attribution from bench_main's levels.csv (POSIX awk; bench/run
# runs it after report.awk): for each configuration and algorithm, over the
# points whose measured time is >= min_s (default 1 ms, as report.awk's
# error goal), the median of
#   err       (closed form - measured) / measured of the whole point
#   per level of the tree, (closed form - measured) / the point's measured
#   time for the level's work, its communication (closed form: scatter +
#   gather + syncs; measured: its supersteps' time outside their slowest
#   child), its exchange and the level as a whole, with the level's own
#   closed-form and measured times;
# then the term that is off most ("off: level L (children) TERM +x%").
# Per point the level terms add up to the point's error, so the largest
# one is where the model and the run part. A level whose masters recorded
# no superstep (in_trace 0) is reported on stderr and left out of its
# medians. Bad input (no header, a missing column, a number that is not
# one, no row) is refused with exit status 2.
# Load bench/csv.awk first: awk -f bench/csv.awk -f bench/levels.awk FILE.
function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function fail(msg) {
    printf "levels.awk: %s: %s\n", FILENAME, msg > "/dev/stderr"
    bad = 1; exit 2
}
# The median of v[1..n] (sorted in place; insertion sort: few points).
function median(v, n,    i, j, t) {
    for (i = 2; i <= n; i++) {
        t = v[i]
        for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
        v[j + 1] = t
    }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function abs(x) { return x < 0 ? -x : x }
BEGIN { if (min_s == "") min_s = 1e-3 }
{
    if (!csv_record($0)) next
    nf = csv_split(csv_rec, f)
    if (!ncol) {
        ncol = nf
        need = "config algo n_elements level link children closed_form_level_s measured_level_s in_trace closed_form_s measured_s level_diff_rel work_diff_rel comm_diff_rel exchange_diff_rel"
        if ((miss = csv_columns(f, nf, col, need)) != "")
            fail("no column " miss " (not a levels.csv?)")
        next
    }
    if (nf != ncol) fail("record " NR " has " nf " fields, the header " ncol)
    nums = "n_elements level closed_form_level_s in_trace closed_form_s measured_s"
    k = split(nums, nm2, " ")
    for (i = 1; i <= k; i++)
        if (!num(f[col[nm2[i]]])) fail("record " NR ": " nm2[i] " '" f[col[nm2[i]]] "' is not a number")
    rows++
    cfg = f[col["config"]]; alg = f[col["algo"]]; n = f[col["n_elements"]] + 0
    lv = f[col["level"]] + 0
    cell = cfg SUBSEP alg
    if (!(cell in seen)) { seen[cell] = 1; cells[++ncells] = cell }
    if (!((cell, lv) in lname)) {
        lname[cell, lv] = lv " " f[col["link"]] (f[col["children"]] != "" ? "/" f[col["children"]] : "")
        if (lv + 1 > nlv[cell]) nlv[cell] = lv + 1
    }
    if (f[col["in_trace"]] + 0 == 0) {
        printf "levels.awk: %s %s n=%d: level %d (%s) is not in the trace\n", cfg, alg, n, lv, f[col["link"]] > "/dev/stderr"
        missing++
        next
    }
    for (i = 1; i <= 4; i++) {
        nm3 = i == 1 ? "work_diff_rel" : i == 2 ? "comm_diff_rel" : i == 3 ? "exchange_diff_rel" : "level_diff_rel"
        if (!num(f[col[nm3]])) fail("record " NR ": " nm3 " '" f[col[nm3]] "' is not a number")
    }
    if (f[col["measured_s"]] + 0 < min_s) next
    key = cell SUBSEP n
    if (!(key in pseen)) {
        pseen[key] = 1
        np[cell]++
        perr[cell, np[cell]] = (f[col["closed_form_s"]] - f[col["measured_s"]]) / f[col["measured_s"]]
    }
    j = ++nl[cell, lv]
    d[cell, lv, 1, j] = f[col["work_diff_rel"]] + 0
    d[cell, lv, 2, j] = f[col["comm_diff_rel"]] + 0
    d[cell, lv, 3, j] = f[col["exchange_diff_rel"]] + 0
    d[cell, lv, 4, j] = f[col["level_diff_rel"]] + 0
    d[cell, lv, 5, j] = f[col["closed_form_level_s"]] + 0
    d[cell, lv, 6, j] = f[col["measured_level_s"]] + 0
}
END {
    if (bad) exit 2
    if (!ncol) fail("empty: no header")
    if (!rows) fail("no rows")
    print "== Per-level attribution (levels.csv): closed form - measured, % of the point's measured time"
    printf "   (median over the points >= %g ms; the level terms of a point add up to its err)\n", min_s * 1e3
    printf "%-10s %-7s %4s %8s  %-18s %8s %8s %8s %8s %11s %11s\n", "config", "algo", "pts", "err", "level", "work", "comm", "exch", "level", "closed", "measured"
    printf "%-10s %-7s %4s %8s  %-18s %8s %8s %8s %8s %11s %11s\n", "", "", "", "[%]", "", "[%]", "[%]", "[%]", "[%]", "[ms]", "[ms]"
    term[1] = "work"; term[2] = "comm"; term[3] = "exchange"
    for (c = 1; c <= ncells; c++) {
        cell = cells[c]
        split(cell, cf, SUBSEP)
        if (!np[cell]) {
            printf "%-10s %-7s %4d %8s  no point >= %g ms\n", cf[1], cf[2], 0, "", min_s * 1e3
            continue
        }
        for (i = 1; i <= np[cell]; i++) v[i] = perr[cell, i]
        e = median(v, np[cell])
        worst = 0; wl = ""
        for (lv = 0; lv < nlv[cell]; lv++) {
            m = nl[cell, lv]
            for (t = 1; t <= 6; t++) {
                for (i = 1; i <= m; i++) v[i] = d[cell, lv, t, i]
                med[t] = m ? median(v, m) : 0
            }
            for (t = 1; t <= 3; t++)
                if (m && abs(med[t]) > abs(worst)) { worst = med[t]; wl = "level " lname[cell, lv] " " term[t] }
            if (m)
                printf "%-10s %-7s %4s %8s  %-18s %+8.1f %+8.1f %+8.1f %+8.1f %11.4f %11.4f\n",
                    lv ? "" : cf[1], lv ? "" : cf[2], lv ? "" : np[cell], lv ? "" : sprintf("%+.1f", 100 * e),
                    lname[cell, lv], 100 * med[1], 100 * med[2], 100 * med[3], 100 * med[4], 1e3 * med[5], 1e3 * med[6]
            else
                printf "%-10s %-7s %4s %8s  %-18s not in the trace\n", lv ? "" : cf[1], lv ? "" : cf[2],
                    lv ? "" : np[cell], lv ? "" : sprintf("%+.1f", 100 * e), lname[cell, lv]
        }
        if (wl != "")
            printf "%-10s %-7s off most: %s, %+.1f%% of the measured time\n", "", "", wl, 100 * worst
    }
    if (missing)
        printf "(%d level row(s) not in the trace: see stderr)\n", missing
}
