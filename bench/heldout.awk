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
# configuration and algorithm, the factors are fitted on the cell's other
# sizes (leave-one-size-out: none of the point's repetitions, not even its
# median, is in its own fit), and the fitted closed form then predicts the
# left-out point: heldout_s = a_l L + a_g G + a_c W.
#
# The default fit (-v method=ts) is Theil-Sen-like: every set of k other
# points (k the terms the data can see) gives the factors that price them
# exactly, and each factor is the median of those exact fits. Why: on a
# shared box a slow minute makes a few sizes 1.5-3x slow (the scan on one
# worker: 14.0 ms at 3e6, 8.2 ms at 5e6, 19.1 ms at 7e6,
# docs/results/2026-12-budget.md), and least squares, even reweighted,
# let those points set the factors (l 8.05, g 16.2, c 0.00 in one cell);
# here a factor moves only when most of the sets do. A term that is under
# 0.1% of every fitted point's time is not seen: its factor stays 1 (the
# probe's). A set whose terms are nearly dependent (its column-scaled
# determinant under 1e-4: the work and the scatter both grow as n) is
# left out; where no set is left, the scatter and gather take the work's
# factor (one term fewer) and the sets are formed again. The Theil-Sen
# fit takes the -v near= (default 8; 0: all) other sizes nearest the
# left-out one in log n: the probe's kernel tables carry their own noise
# over n (c(sum) on one worker 0.28 ns at 3e6 elements and 0.69 ns at
# 1e7 in one probe at load 6-15, where the sweep measured 0.30 and 0.32),
# which one factor for all sizes cannot undo; over the 9 cells near=8
# cut the summed held-out error from 267 to 198 points in that run (1x1
# reduce 60% -> 14%) and from 261 to 251 in the next, where 2x1 reduce
# went from 42% to 62% (docs/results/2026-12-07-budget.md). -v method=lsq is
# the earlier fit: least absolute relative error by reweighted least
# squares with a ridge pulling each factor towards 1 (fit_lsq()).
#
# Output (-v out=FILE): one CSV row per point: config, algo, n_elements,
# measured_s (the median repetition), closed_form_s, closed_form_rel_err,
# heldout_s, heldout_rel_err, l_factor, g_factor, c_factor, fit_points,
# fit_sizes (the sizes its fit used, ';'-separated; each size's median
# repetition), fit_terms (the terms fitted: "l g c", "l g=c" where the
# scatter took the work's factor, ...; the others stay at 1) and
# fit_sets (the exact fits the medians were taken over). On stdout, per cell,
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
    if (method == "") method = "ts"
    if (near == "") near = 8
    if (method != "ts" && method != "lsq") {
        printf "heldout.awk: -v method='%s': ts or lsq\n", method > "/dev/stderr"
        bad = 1; exit 2
    }
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
function fit_lsq(key, out, a,    j, np, w, it, r) {
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
# The factors of cell `key` without point `out`: fit_ts() or fit_lsq() as
# -v method says. Returns the points used (sizes in fit_list), 0 for too
# few; fit_terms and fit_sets say what the fit took.
function fit(key, out, a) {
    if (method == "lsq") { fit_terms = "l g c"; fit_sets = 0; return fit_lsq(key, out, a) }
    return fit_ts(key, out, a)
}
# Theil-Sen-like fit (see the header): the medians over every well-posed
# set of k fitted points of the factors that price the set exactly.
function fit_ts(key, out, a,    j, np, k, m, idx, seen, merged, c, d, q, t) {
    fit_list = ""; np = 0
    for (j = 1; j <= ncell[key]; j++) {
        if (j == out || t_of[key, j] <= 0) continue
        idx[++np] = j
        dist[np] = abs(log(n_of[key, j] / n_of[key, out]))
    }
    fit_sets = 0; fit_terms = ""
    if (np < min_fit) return 0
    # -v near=K: the K other sizes nearest the left-out one (in log n).
    if (near > 0 && np > near) {
        for (m = 2; m <= np; m++) {
            d = dist[m]; q = idx[m]
            for (t = m - 1; t >= 1 && dist[t] > d; t--) { dist[t + 1] = dist[t]; idx[t + 1] = idx[t] }
            dist[t + 1] = d; idx[t + 1] = q
        }
        np = near
    }
    for (m = 1; m <= np; m++)
        fit_list = fit_list (fit_list == "" ? "" : ";") n_of[key, idx[m]]
    for (merged = 0; merged <= 1; merged++) {
        # The terms of each point (relative to its time), G into W when merged.
        for (m = 1; m <= np; m++) {
            j = idx[m]
            R[m, 1] = L[key, j] / t_of[key, j]
            R[m, 2] = merged ? 0 : G[key, j] / t_of[key, j]
            R[m, 3] = (W[key, j] + (merged ? G[key, j] : 0)) / t_of[key, j]
        }
        k = 0
        for (c = 1; c <= 3; c++) {
            seen = 0
            for (m = 1; m <= np; m++) if (R[m, c] >= 1e-3) seen = 1
            if (seen) term[++k] = c
        }
        if (k == 0) return 0
        ns = 0
        subsets(np, k, 1, 0)
        if (nsol > 0 && (merged || !lost_term(k))) break
        if (k < 2) return 0
    }
    if (nsol == 0) return 0
    for (c = 1; c <= 3; c++) a[c] = 1
    for (c = 1; c <= k; c++) {
        for (m = 1; m <= nsol; m++) fcol[m] = sol[m, c]
        a[term[c]] = median(fcol, nsol)
        if (a[term[c]] < 0) a[term[c]] = 0
    }
    if (merged) a[2] = a[3]
    fit_sets = nsol
    fit_terms = ""
    for (c = 1; c <= k; c++)
        fit_terms = fit_terms (c > 1 ? " " : "") (term[c] == 1 ? "l" : term[c] == 2 ? "g" : merged ? "g=c" : "c")
    return np
}
# Whether a fit of g and c apart lost one of them: its median factor at
# or below 0. Both grow as n does (the bytes moved and the elements
# worked), so a sweep over n may not tell them apart (PSRS on 1x2, a
# quiet run: g 156x, c 0); their sum is then fitted as one term (g=c).
function lost_term(k,    c, m, both) {
    both = 0
    for (c = 1; c <= k; c++) if (term[c] >= 2) both++
    if (both < 2) return 0
    for (c = 1; c <= k; c++) {
        if (term[c] < 2) continue
        for (m = 1; m <= nsol; m++) fcol[m] = sol[m, c]
        if (median(fcol, nsol) <= 0) return 1
    }
    return 0
}
# Every set of k of the np points (chosen in pick[1..depth]) solved
# exactly; well-posed solutions into sol[1..nsol]. Called with depth 0.
function subsets(np, k, from, depth,    m) {
    if (depth == 0) nsol = 0
    if (depth == k) { solve_set(k); return }
    for (m = from; m <= np - (k - depth - 1); m++) {
        pick[depth + 1] = m
        subsets(np, k, m + 1, depth + 1)
    }
}
# The factors that price the picked set exactly (rows: its points'
# relative terms, right side 1), kept when its column-scaled determinant
# is at least 1e-4.
function solve_set(k,    r, c, A, b, x, sc, det, ok, i, p2, t, mm) {
    for (c = 1; c <= k; c++) {
        sc[c] = 0
        for (r = 1; r <= k; r++) if (R[pick[r], term[c]] > sc[c]) sc[c] = R[pick[r], term[c]]
        if (sc[c] <= 0) return
    }
    for (r = 1; r <= 3; r++) {
        b[r] = r <= k ? 1 : 0
        for (c = 1; c <= 3; c++)
            A[r, c] = r <= k && c <= k ? R[pick[r], term[c]] / sc[c] : (r == c ? 1 : 0)
    }
    # The determinant of the scaled matrix (k <= 3, identity padded).
    det = A[1, 1] * (A[2, 2] * A[3, 3] - A[2, 3] * A[3, 2]) \
        - A[1, 2] * (A[2, 1] * A[3, 3] - A[2, 3] * A[3, 1]) \
        + A[1, 3] * (A[2, 1] * A[3, 2] - A[2, 2] * A[3, 1])
    if (abs(det) < 1e-4) return
    if (!solve3(A, b, x)) return
    nsol++
    for (c = 1; c <= k; c++) sol[nsol, c] = x[c] / sc[c]
}
END {
    if (bad) exit 2
    if (!have_header) fail("empty input, no header")
    if (!rows) fail("no row")
    if (out != "")
        print "config,algo,n_elements,measured_s,closed_form_s,closed_form_rel_err," \
              "heldout_s,heldout_rel_err,l_factor,g_factor,c_factor,fit_points,fit_sizes," \
              "fit_terms,fit_sets" > out
    printf "== held-out prediction: l, g, c fitted on the sweep's other sizes (leave-one-size-out), the closed form\n"
    printf "   then predicting the size left out; median |predicted - measured| / measured over points >= %g ms\n", min_s * 1000
    printf "   (goal <= %s), next to the probe-first closed form's; factors: the fitted over the probe's l, g, c\n", pct(goal)
    printf "   (fit: %s)\n", method == "ts" ? "Theil-Sen, the median of the exact fits of every set of other sizes" \
                                            : "least absolute relative error, reweighted least squares"
    printf "%-22s %-7s %6s %12s %12s %24s  %s\n", "config", "algo", "points", "probe-first",
           "held-out", "factors l / g / c", "fit used"
    for (ci = 1; ci <= ncells; ci++) {
        key = cells[ci]
        split(key, kc, SUBSEP)
        np = 0; nh = 0; nfit = 0; lo = ""; hi = ""; terms_seen = ""
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
                nset[nfit] = fit_sets
                if (index(terms_seen, "[" fit_terms "]") == 0)
                    terms_seen = terms_seen "[" fit_terms "]"
            }
            if (out != "")
                printf "%s,%s,%s,%.9g,%.9g,%s,%s,%s,%s,%s,%s,%d,%s,%s,%s\n", kc[1], kc[2],
                       n_of[key, j], t, cf, e1 == "" ? "" : sprintf("%.6g", e1),
                       h == "" ? "" : sprintf("%.9g", h), e2 == "" ? "" : sprintf("%.6g", e2),
                       used ? sprintf("%.6g", a[1]) : "", used ? sprintf("%.6g", a[2]) : "",
                       used ? sprintf("%.6g", a[3]) : "", used, used ? fit_list : "",
                       used ? fit_terms : "", used ? fit_sets : "" > out
            if (t < min_s) continue
            np++; pe[np] = abs(e1)
            if (e2 != "") { nh++; he[nh] = abs(e2) }
        }
        pf = np ? median(pe, np) : ""
        ho = nh ? median(he, nh) : ""
        fac = nfit ? sprintf("%.2f / %.2f / %.2f", median(fl, nfit), median(fg, nfit),
                             median(fc, nfit)) : "-"
        what = "too few sizes to fit"
        if (nfit && method == "lsq")
            what = sprintf("lsq: %d-%d other sizes of %d each (median repetition)", lo, hi, ncell[key])
        else if (nfit)
            what = sprintf("Theil-Sen: terms %s, medians of %d exact fits, the %d-%d other sizes %sof %d (median repetition)",
                           terms_seen, median(nset, nfit), lo, hi, near > 0 ? "nearest in log n " : "", ncell[key])
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
