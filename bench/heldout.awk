# Held-out prediction from levels.csv (POSIX awk; bench/run runs it after
# levels.awk): the closed form with l, g and c fitted on the sweep's own
# runs, each point predicted by a fit that leaves its size out.
#
# Why: the probe-first prediction (the closed form on the probe's
# parameters) misses when the machine moved between the probe and the
# sweep, and then says nothing about the formula. Here the sweep prices
# itself: the closed form is linear in l, g and c, so per point it is
#   L + G + W   (L the syncs' terms, 2 l per superstep; G the scatter,
#                gather and exchange terms, bytes times g plus the
#                exchange's l_h; W the work, elements times c)
# summed over the levels of the tree, and the sweep's parameters are the
# probe's scaled by three factors a_l, a_g, a_c. For each point of a
# configuration and algorithm, the factors are fitted (least absolute
# error, by reweighted least squares: fit()) on the relative errors of
# all the cell's other sizes (leave-one-size-out:
# none of the point's repetitions, not even its median, is in its own
# fit), with a ridge of weight `ridge` pulling each factor towards 1 so
# that a direction the data cannot see (the work and the scatter both
# grow as n) keeps the probe's ratio; a factor that comes out negative is
# held at 0 and the others refitted. The fitted closed form then predicts
# the left-out point: heldout_s = a_l L + a_g G + a_c W.
#
# Output (-v out=FILE): one CSV row per point: config, algo, n_elements,
# measured_s (the median repetition), closed_form_s, closed_form_rel_err,
# heldout_s, heldout_rel_err, l_factor, g_factor, c_factor, fit_points and
# fit_sizes (the sizes its fit used, ';'-separated). On stdout, per cell,
# over the points whose measured time is >= min_s (default 1 ms, as
# report.awk's goal): the probe-first and the held-out median |error|,
# their verdicts against the goal (default 10%), the median factors and
# what the fits used. -v ridge= (default 1e-3) and -v irls= (default 10
# reweightings; 0: plain least squares) tune the fit. A cell with fewer
# than min_fit (default 3) other sizes gets no held-out prediction. Bad
# input (no header, a missing
# column, a number that is not one, no row) is refused with exit status 2.
# Load bench/csv.awk and bench/stats.awk first: awk -f bench/csv.awk -f bench/stats.awk -f bench/heldout.awk FILE.
function fail(msg) {
    printf "heldout.awk: %s: %s\n", FILENAME, msg > "/dev/stderr"
    bad = 1; exit 2
}
BEGIN {
    if (min_s == "") min_s = 0.001
    if (goal == "") goal = 0.10
    if (ridge == "") ridge = 1e-3
    if (irls == "") irls = 10
    if (min_fit == "") min_fit = 3
    need = "config algo n_elements closed_form_work_s closed_form_scatter_s " \
           "closed_form_gather_s closed_form_syncs_s closed_form_exchange_s " \
           "closed_form_s measured_s"
}
{
    if (!csv_record($0)) next
    nf = csv_split(csv_rec, f)
    if (!have_header) {
        miss = csv_columns(f, nf, col, need)
        if (miss != "") fail("no column '" miss "' (not a levels.csv?)")
        have_header = 1
        next
    }
    if (csv_rec == "") next
    split(need, names, " ")
    for (i = 3; i <= 10; i++) {
        v = f[col[names[i]]]
        if (!num(v)) fail("row " NR ": " names[i] " '" v "' is not a number")
    }
    key = f[col["config"]] SUBSEP f[col["algo"]]
    if (!(key in ncell)) { cells[++ncells] = key; ncell[key] = 0 }
    p = key SUBSEP f[col["n_elements"]]
    if (!(p in at)) {
        at[p] = ++ncell[key]
        n_of[key, at[p]] = f[col["n_elements"]] + 0
        t_of[key, at[p]] = f[col["measured_s"]] + 0
        cf_of[key, at[p]] = f[col["closed_form_s"]] + 0
    }
    j = at[p]
    L[key, j] += f[col["closed_form_syncs_s"]]
    G[key, j] += f[col["closed_form_scatter_s"]] + f[col["closed_form_gather_s"]] \
                 + f[col["closed_form_exchange_s"]]
    W[key, j] += f[col["closed_form_work_s"]]
    rows++
}
# Solve the 3x3 system A x = b in place by Gaussian elimination with
# partial pivoting (x in x[1..3]); 0 when singular.
function solve3(A, b, x,    i, j, k, piv, t, m) {
    for (k = 1; k <= 3; k++) {
        piv = k
        for (i = k + 1; i <= 3; i++) if (abs(A[i, k]) > abs(A[piv, k])) piv = i
        if (A[piv, k] == 0) return 0
        for (j = 1; j <= 3; j++) { t = A[k, j]; A[k, j] = A[piv, j]; A[piv, j] = t }
        t = b[k]; b[k] = b[piv]; b[piv] = t
        for (i = k + 1; i <= 3; i++) {
            m = A[i, k] / A[k, k]
            for (j = k; j <= 3; j++) A[i, j] -= m * A[k, j]
            b[i] -= m * b[k]
        }
    }
    for (i = 3; i >= 1; i--) {
        t = b[i]
        for (j = i + 1; j <= 3; j++) t -= A[i, j] * x[j]
        x[i] = t / A[i, i]
    }
    return 1
}
# One weighted fit of the factors a[1..3] (l, g, c) of cell `key` on its
# points other than `out`, point j weighing w[j]; a factor that comes out
# negative is held at 0 and the others refitted. 0 when singular.
function fit_once(key, out, a, w,    j, k, m, X, A, b, x, held, it, again) {
    for (k = 1; k <= 3; k++) held[k] = 0
    for (it = 0; it < 3; it++) {
        for (k = 1; k <= 3; k++) {
            b[k] = held[k] ? 0 : ridge
            for (m = 1; m <= 3; m++) A[k, m] = k == m ? ridge : 0
        }
        for (j = 1; j <= ncell[key]; j++) {
            if (j == out || t_of[key, j] <= 0) continue
            # Relative residuals: each point's row divided by its time.
            X[1] = L[key, j] / t_of[key, j]
            X[2] = G[key, j] / t_of[key, j]
            X[3] = W[key, j] / t_of[key, j]
            for (k = 1; k <= 3; k++) {
                if (held[k]) continue
                b[k] += w[j] * X[k]
                for (m = 1; m <= 3; m++) if (!held[m]) A[k, m] += w[j] * X[k] * X[m]
            }
        }
        for (k = 1; k <= 3; k++) if (held[k]) { A[k, k] = 1; b[k] = 0 }
        if (!solve3(A, b, x)) return 0
        again = 0
        for (k = 1; k <= 3; k++) {
            a[k] = held[k] ? 0 : x[k]
            if (a[k] < 0) { held[k] = 1; again = 1 }
        }
        if (!again) break
    }
    for (k = 1; k <= 3; k++) if (a[k] < 0) a[k] = 0
    return 1
}
# Fit the factors of cell `key` on its points other than `out`: least
# absolute relative error by reweighted least squares (weights 1 / max(|r|,
# 1%)), because on a shared box one repetition set in ten is several times
# slow and least squares would follow it. Returns the points used (their
# sizes in fit_list), 0 for too few.
function fit(key, out, a,    j, np, w, it, r) {
    fit_list = ""; np = 0
    for (j = 1; j <= ncell[key]; j++) {
        w[j] = 1
        if (j == out || t_of[key, j] <= 0) continue
        np++
        fit_list = fit_list (fit_list == "" ? "" : ";") n_of[key, j]
    }
    if (np < min_fit) return 0
    for (it = 0; it < irls; it++) {
        if (!fit_once(key, out, a, w)) return 0
        for (j = 1; j <= ncell[key]; j++) {
            if (j == out || t_of[key, j] <= 0) continue
            r = abs((a[1] * L[key, j] + a[2] * G[key, j] + a[3] * W[key, j]) / t_of[key, j] - 1)
            w[j] = 1 / (r > 0.01 ? r : 0.01)
        }
    }
    return fit_once(key, out, a, w) ? np : 0
}
END {
    if (bad) exit 2
    if (!have_header) fail("empty input, no header")
    if (!rows) fail("no row")
    if (out != "")
        print "config,algo,n_elements,measured_s,closed_form_s,closed_form_rel_err," \
              "heldout_s,heldout_rel_err,l_factor,g_factor,c_factor,fit_points,fit_sizes" > out
    printf "== held-out prediction: l, g, c fitted on the sweep's other sizes (leave-one-size-out), the closed form\n"
    printf "   then predicting the size left out; median |predicted - measured| / measured over points >= %g ms\n", min_s * 1000
    printf "   (goal <= %s), next to the probe-first closed form's; factors: the fitted over the probe's l, g, c\n", pct(goal)
    printf "%-22s %-7s %6s %12s %12s %24s  %s\n", "config", "algo", "points", "probe-first",
           "held-out", "factors l / g / c", "fit used"
    for (ci = 1; ci <= ncells; ci++) {
        key = cells[ci]
        split(key, kc, SUBSEP)
        np = 0; nh = 0; nfit = 0; lo = ""; hi = ""
        for (j = 1; j <= ncell[key]; j++) {
            used = fit(key, j, a)
            t = t_of[key, j]; cf = cf_of[key, j]
            e1 = t > 0 ? (cf - t) / t : ""
            h = ""; e2 = ""
            if (used) {
                h = a[1] * L[key, j] + a[2] * G[key, j] + a[3] * W[key, j]
                e2 = t > 0 ? (h - t) / t : ""
                nfit++
                fl[nfit] = a[1]; fg[nfit] = a[2]; fc[nfit] = a[3]
                if (lo == "" || used < lo) lo = used
                if (hi == "" || used > hi) hi = used
            }
            if (out != "")
                printf "%s,%s,%s,%.9g,%.9g,%s,%s,%s,%s,%s,%s,%d,%s\n", kc[1], kc[2],
                       n_of[key, j], t, cf, e1 == "" ? "" : sprintf("%.6g", e1),
                       h == "" ? "" : sprintf("%.9g", h), e2 == "" ? "" : sprintf("%.6g", e2),
                       used ? sprintf("%.6g", a[1]) : "", used ? sprintf("%.6g", a[2]) : "",
                       used ? sprintf("%.6g", a[3]) : "", used, used ? fit_list : "" > out
            if (t < min_s) continue
            np++; pe[np] = abs(e1)
            if (e2 != "") { nh++; he[nh] = abs(e2) }
        }
        pf = np ? median(pe, np) : ""
        ho = nh ? median(he, nh) : ""
        fac = nfit ? sprintf("%.2f / %.2f / %.2f", median(fl, nfit), median(fg, nfit),
                             median(fc, nfit)) : "-"
        what = nfit ? sprintf("%d-%d other sizes of %d each", lo, hi, ncell[key]) \
                    : "too few sizes to fit"
        printf "%-22s %-7s %6d %12s %12s %24s  %s\n", kc[1], kc[2], np,
               np ? pct(pf) (pf <= goal ? " ok" : " miss") : "-",
               nh ? pct(ho) (ho <= goal ? " ok" : " miss") : "-", fac, what
        if (np) { ncount++; if (pf <= goal) pok++ }
        if (nh) { hcount++; if (ho <= goal) hok++ }
    }
    printf "cells with points >= %g ms: %d; probe-first within %s: %d; held-out within %s: %d of %d\n",
           min_s * 1000, ncount, pct(goal), pok + 0, pct(goal), hok + 0, hcount + 0
    if (out != "") close(out)
}
