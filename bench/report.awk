# Summary of bench_main's points.csv (POSIX awk: mawk, gawk, busybox;
# bench/run runs it):
#  1. prediction error per configuration and algorithm: median
#     |predicted - measured| / measured over the points whose measured
#     median is >= 1 ms (goal <= 10%), for the closed form and the replay;
#  2. speed-up and efficiency at the largest size every configuration ran
#     (as the SGL paper's Tables 4-5), measured and predicted side by side;
#     measured speed-up = T(1x1) / T, predicted = closed form on one worker
#     / closed form (the predictor's own sequential time);
#  3. ratios to the peers (peer time / SGL time) at that size.
#  4. where points.csv has the drift columns (bench/drift.awk), the
#     machine's drift over the run per configuration and algorithm: the
#     median |error| of the closed form on the probe's parameters and on
#     the parameters re-measured after the sweep, the median drift of the
#     prediction itself (closed_form_after_s against closed_form_s), and
#     the verdict of a miss (median |error| > 10%): "miss within drift"
#     when the error is no larger than the prediction's own drift (the
#     machine moved as much as the model missed by), else "miss beyond
#     drift (model)" (the machine held still, the model or the probe's
#     conditions are off);
#  5. where points.csv has closed_form_lo_s and closed_form_hi_s (the
#     closed form on the probe's parameters at the ends of their 95%
#     intervals), per configuration and algorithm how many points >= 1 ms
#     lie inside and the interval's median relative width;
#  6. with -v drift=FILE (sgl-probe --drift-csv rows), each re-measure's
#     largest parameter changes.
# With -v cells=FILE it also writes section 4 as CSV (RFC 4180): config,
# algo, points, median_rel_err, median_rel_err_after (signed),
# median_prediction_drift_rel (signed), median_abs_rel_err,
# median_abs_prediction_drift, median_abs_rel_err_beyond_drift, verdict
# (ok, miss within drift, miss within drift (state), miss beyond drift
# (model), no point >= 1 ms,
# drift not measured), median_iqr_rel (the sweep's own (q3 - q1) /
# median: above 10% the summary adds "noisy sweep" to a miss),
# interval_points (points >= 1 ms with an interval), points_in_interval,
# median_interval_width_rel ((hi - lo) / closed form),
# median_state_drift_rel (state_drift_rel of bench_main: c(sum) sensed
# right before each repetition over the c(sum) the sweep was priced by,
# - 1; a miss is "within drift (state)" when only the prediction scaled
# by it comes within 10%, or the measurement lies between the two).
# With -v list=configs it prints only the configurations' names, in their
# order, separated by spaces (bench/run hands them to plot.gp).
# The file is RFC 4180 CSV (tools/bench_csv.h): quoted fields may hold
# commas, doubled quotes and line breaks, so records are split by
# csv_split() (bench/csv.awk, loaded first: awk -f bench/csv.awk -f
# bench/report.awk points.csv), not by FS. Columns are found by their names in the
# header (points_header in bench/bench_main.c), not by position; a peer is
# every column named <peer>_median_s, and a row's peers are those with a
# value.
{
    if (!csv_record($0)) next
    nf = csv_split(csv_rec, f)
    if (!ncol) {
        ncol = nf
        need = "config algo n_elements workers oversubscribed median_s min_s max_s closed_form_s closed_form_rel_err replay_s replay_rel_err closed_form_one_worker_s"
        if ((miss = csv_columns(f, nf, col, need)) != "") {
            printf "report.awk: %s has no column %s\n", FILENAME, miss > "/dev/stderr"
            bad = 1; exit 2
        }
        for (i = 1; i <= nf; i++)
            if (f[i] ~ /_median_s$/ && f[i] != "median_s")
                peer_col[++npeer] = i
        hasband = ("closed_form_lo_s" in col) && ("closed_form_hi_s" in col)
        hasdrift = ("closed_form_after_s" in col) && ("closed_form_after_rel_err" in col) && ("prediction_drift_rel" in col)
        hasstate = ("state_drift_rel" in col)
        next
    }
    cfg = f[col["config"]]; algo = f[col["algo"]]; n = f[col["n_elements"]] + 0
    if (!(cfg in seen_cfg)) { seen_cfg[cfg] = 1; cfgs[++ncfg] = cfg }
    if (!(algo in seen_algo)) { seen_algo[algo] = 1; algos[++nalgo] = algo }
    k = cfg SUBSEP algo SUBSEP n
    # Numbers as numbers (+ 0): csv_split's fields are strings, and awk
    # compares a string with a number as strings. An empty field (no
    # prediction) becomes 0, which the tables below read as "none".
    med[k] = f[col["median_s"]] + 0; closed[k] = f[col["closed_form_s"]] + 0
    replay[k] = f[col["replay_s"]] + 0; seq[k] = f[col["closed_form_one_worker_s"]] + 0
    np = 0
    for (i = 1; i <= npeer; i++)
        if (f[peer_col[i]] != "") {
            np++
            pname[algo, np] = peer_name(peer_col[i])
            pval[k, np] = f[peer_col[i]] + 0
        }
    if (np > npeers[algo]) npeers[algo] = np
    workers[cfg] = f[col["workers"]] + 0; over[cfg] = f[col["oversubscribed"]] + 0
    have[k] = 1
    if (med[k] >= 1e-3) {
        ka = cfg SUBSEP algo
        e = f[col["closed_form_rel_err"]]; if (e != "") ce[ka, ++nce[ka]] = abs(e + 0)
        e = f[col["replay_rel_err"]]; if (e != "") re[ka, ++nre[ka]] = abs(e + 0)
        if (hasband && f[col["closed_form_lo_s"]] != "" && f[col["closed_form_hi_s"]] != "" && closed[k] > 0) {
            blo = f[col["closed_form_lo_s"]] + 0; bhi = f[col["closed_form_hi_s"]] + 0
            nb[ka]++
            inb[ka] += blo <= med[k] && med[k] <= bhi
            bw[ka, nb[ka]] = (bhi - blo) / closed[k]
        }
        if (hasdrift && f[col["prediction_drift_rel"]] != "" && f[col["closed_form_rel_err"]] != "") {
            nd[ka]++
            eb = f[col["closed_form_rel_err"]] + 0; ea = f[col["closed_form_after_rel_err"]] + 0
            de[ka, nd[ka]] = eb; da[ka, nd[ka]] = ea; daa[ka, nd[ka]] = abs(ea)
            # the error left once the drift is granted: the smallest
            # |error| of a prediction between the probe's parameters and
            # the re-measured ones (0 if the measurement lies between)
            dr[ka, nd[ka]] = eb * ea <= 0 ? 0 : (abs(eb) < abs(ea) ? abs(eb) : abs(ea))
            drm[ka, nd[ka]] = dr[ka, nd[ka]]
            # the machine's state during the point (c(sum) sensed before
            # each repetition against its price): granted the same way,
            # the whole prediction scaled by it
            if (hasstate && f[col["state_drift_rel"]] != "") {
                sd = f[col["state_drift_rel"]] + 0
                es = (1 + eb) * (1 + sd) - 1
                rs = eb * es <= 0 ? 0 : (abs(eb) < abs(es) ? abs(eb) : abs(es))
                if (rs < dr[ka, nd[ka]]) dr[ka, nd[ka]] = rs
                dst[ka, ++nst[ka]] = sd
            }
            # the sweep's own spread: the machine during the repetitions
            if (("q1_s" in col) && ("q3_s" in col) && med[k] > 0)
                dq[ka, ++ndq[ka]] = (f[col["q3_s"]] - f[col["q1_s"]]) / med[k]
            dd[ka, nd[ka]] = abs(f[col["prediction_drift_rel"]] + 0)
            ds[ka, nd[ka]] = f[col["prediction_drift_rel"]] + 0
        }
    }
    if (n > maxn[cfg, algo]) maxn[cfg, algo] = n
}
function peer_name(i,    s) {
    for (s in col) if (col[s] == i) break
    sub(/_median_s$/, "", s)
    return s
}
function abs(x) { return x < 0 ? -x : x }
function median(arr, key, cnt,    i, j, t, v) {
    if (cnt == 0) return -1
    for (i = 1; i <= cnt; i++) v[i] = arr[key, i]
    for (i = 2; i <= cnt; i++) {
        t = v[i]
        for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
        v[j + 1] = t
    }
    return cnt % 2 ? v[(cnt + 1) / 2] : (v[cnt / 2] + v[cnt / 2 + 1]) / 2
}
function pct(x) { return x < 0 ? "      -" : sprintf("%6.1f%%", 100 * x) }
function spct(x) { return sprintf("%+6.1f%%", 100 * x) }
function cpct(x, sign) { return x < 0 && !sign ? "-" : sprintf(sign ? "%+.1f%%" : "%.1f%%", 100 * x) }
# The drift verdict of a cell: E the median |error| on the probe's
# parameters, RM the median error left once the re-measure's drift is
# granted, R once the state sensed during the sweep is granted too. A
# miss only the state accounts for is "within drift (state)": the sum ran
# at another speed in the sweep than priced, by the machine's state or by
# the sweep's conditions against the probe's.
function drift_verdict(cnt, e, rm, r) {
    if (cnt == 0) return "drift not measured"
    if (e <= 0.10) return "ok"
    if (rm <= 0.10) return "miss within drift"
    return r <= 0.10 ? "miss within drift (state)" : "miss beyond drift (model)"
}
function g6(cnt, x) { return cnt ? sprintf("%.6g", x) : "" }
function csvq(s) { if (s ~ /[",\n]/) { gsub(/"/, "\"\"", s); s = "\"" s "\"" } return s }
function dfail(msg) {
    printf "report.awk: %s:%d: %s\n", drift, dline, msg > "/dev/stderr"
    bad = 1; exit 2
}
# sgl-probe --drift-csv rows: checked, then each label's largest changes.
function drift_params(    rec, nf, g, i, dc, need, miss, lab, r, x, nl, labs, seen, top, j, t, h, w) {
    dline = 0
    while ((r = (getline rec < drift)) > 0) {
        dline++
        sub(/\r$/, "", rec)
        nf = csv_split(rec, g)
        if (dline == 1) {
            dn = nf
            need = "label base_file base_date date parameter level kernel n_elements busy before after rel_change"
            if ((miss = csv_columns(g, nf, dc, need)) != "")
                dfail("no column " miss " (not a sgl-probe --drift-csv file)")
            continue
        }
        if (nf != dn) dfail(sprintf("%d fields, the header has %d", nf, dn))
        for (i = 1; i <= 3; i++) {
            x = g[dc[i == 1 ? "before" : i == 2 ? "after" : "rel_change"]]
            if (x != "" && x !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/)
                dfail("'" x "' is not a number")
        }
        # one re-measure: a label (the configuration after which it ran)
        # and the probe it repeated
        x = g[dc["base_file"]]; sub(/.*\//, "", x)
        lab = g[dc["label"]] SUBSEP x
        if (!(lab in seen)) { seen[lab] = ++nl; labs[nl] = lab; dlabel[lab] = g[dc["label"]]; dbase[lab] = x; dbdate[lab] = g[dc["base_date"]]; dadate[lab] = g[dc["date"]] }
        if (g[dc["rel_change"]] == "") continue
        x = g[dc["rel_change"]] + 0
        w = g[dc["parameter"]] == "c" ? "c " g[dc["kernel"]] (g[dc["n_elements"]] != "" ? sprintf(" n %g busy %s", g[dc["n_elements"]], g[dc["busy"]]) : "") \
                                       : "level " g[dc["level"]] " " g[dc["parameter"]]
        # keep the three largest |change| per label
        for (j = 1; j <= 3; j++)
            if (!((lab, j) in topv) || abs(x) > abs(topv[lab, j])) {
                for (h = 3; h > j; h--) if ((lab, h - 1) in topv) { topv[lab, h] = topv[lab, h - 1]; topw[lab, h] = topw[lab, h - 1] }
                topv[lab, j] = x; topw[lab, j] = w
                break
            }
        if (g[dc["parameter"]] == "c") kc[lab, ++nkc[lab]] = abs(x)
        else lc[lab, ++nlc[lab]] = abs(x)
    }
    if (r < 0) { printf "report.awk: cannot read %s\n", drift > "/dev/stderr"; bad = 1; exit 2 }
    close(drift)
    if (dline < 1) dfail("empty")
    print "\n== the machine's drift: each re-measure (sgl-probe --drift) against its probe"
    for (i = 1; i <= nl; i++) {
        lab = labs[i]
        printf "after %s: %s (probed %s, re-measured %s): median |change| of kernels' c %s, of l and g %s\n", dlabel[lab], dbase[lab], dbdate[lab], dadate[lab], cpct(median(kc, lab, nkc[lab])), cpct(median(lc, lab, nlc[lab]))
        t = "  largest:"
        for (j = 1; j <= 3 && (lab, j) in topv; j++) t = t (j > 1 ? ";" : "") " " topw[lab, j] " " cpct(topv[lab, j], 1)
        print t
    }
}
function verdict(x) { return x < 0 ? "no point >= 1 ms" : (x <= 0.10 ? "ok" : "MISSED") }
END {
    if (bad) exit 2
    if (list == "configs") {
        for (c = 1; c <= ncfg; c++) printf "%s%s", cfgs[c], c < ncfg ? " " : "\n"
        exit 0
    }
    print "== prediction error: median |predicted - measured| / measured over points >= 1 ms (goal <= 10%)"
    printf "%-22s %-7s %7s %12s %-8s %12s %-8s %s\n", "config", "algo", "points", "closed form", "", "replay", "", "note"
    for (c = 1; c <= ncfg; c++)
        for (a = 1; a <= nalgo; a++) {
            ka = cfgs[c] SUBSEP algos[a]
            if (!(ka in maxn)) continue
            mc = median(ce, ka, nce[ka]); mr = median(re, ka, nre[ka])
            printf "%-22s %-7s %7d %12s %-8s %12s %-8s %s\n", cfgs[c], algos[a], nce[ka] + 0, pct(mc), verdict(mc), pct(mr), verdict(mr), over[cfgs[c]] == 1 ? "oversubscribed: not meaningful for speed" : ""
        }
    if (hasdrift || hasband || cells != "") {
      if (hasdrift) {
        print "\n== drift: median |error| of the closed form on the probe's parameters (error) and on those re-measured after"
        print "   the sweep (error after), the prediction's own drift (after / probe - 1), the machine's state during the"
        print "   sweep (state: c(sum) sensed right before each repetition, over the c(sum) the sweep was priced by, - 1),"
        print "   the |error| left at the best prediction between the probe's and the re-measured parameters, or between"
        print "   the probe's prediction and that prediction scaled by the state (beyond drift); medians over points"
        print "   >= 1 ms; a miss (error > 10%) is within drift when beyond drift <= 10% (\"(state)\": only with the state"
        print "   granted: the sum ran at another speed in the sweep than priced, by the machine's state or the sweep's"
        print "   conditions), else the model's (or the probe's conditions'); spread: the sweep's own (q3 - q1) / median"
        print "   (noisy above 10%: the verdict says so)"
        printf "%-22s %-7s %7s %12s %12s %12s %8s %13s %8s  %s\n", "config", "algo", "points", "error", "error after", "pred. drift", "state", "beyond drift", "spread", "verdict"
      }
        if (cells != "") print "config,algo,points,median_rel_err,median_rel_err_after,median_prediction_drift_rel,median_abs_rel_err,median_abs_prediction_drift,median_abs_rel_err_beyond_drift,verdict,median_iqr_rel,interval_points,points_in_interval,median_interval_width_rel,median_state_drift_rel" > cells
        for (c = 1; c <= ncfg; c++)
            for (a = 1; a <= nalgo; a++) {
                ka = cfgs[c] SUBSEP algos[a]
                if (!(ka in maxn)) continue
                cnt = nd[ka] + 0
                me = median(de, ka, cnt); ma = median(da, ka, cnt); md = median(dd, ka, cnt); ms = median(ds, ka, cnt)
                mr = median(dr, ka, cnt); maa = median(daa, ka, cnt); mq = median(dq, ka, ndq[ka] + 0)
                nsk = nst[ka] + 0; mst = nsk ? median(dst, ka, nsk) : 0
                sst = nsk ? ", state " cpct(mst, 1) : ""
                # |error| as the main table has it (ce: every point >= 1 ms)
                mabs = median(ce, ka, nce[ka])
                v = nce[ka] + 0 == 0 ? "no point >= 1 ms" : drift_verdict(cnt, mabs, median(drm, ka, cnt), mr)
                nbk = nb[ka] + 0; mw = median(bw, ka, nbk)
                if (v == "ok") t_ok++
                noisy = (cnt && mq > 0.10) ? ", noisy" : ""
                if (v ~ /^miss within/) { t_in++; l_in = l_in sprintf("%s %s %s (%s off, drift %s%s%s)", t_in > 1 ? ";" : "", cfgs[c], algos[a], cpct(mabs), cpct(ms, 1), sst, noisy) }
                else if (v ~ /^miss beyond/) { t_out++; l_out = l_out sprintf("%s %s %s (%s off, drift %s%s%s)", t_out > 1 ? ";" : "", cfgs[c], algos[a], cpct(mabs), cpct(ms, 1), sst, noisy) }
                if (hasdrift)
                printf "%-22s %-7s %7d %12s %12s %12s %8s %13s %8s  %s%s\n", cfgs[c], algos[a], cnt, pct(nce[ka] + 0 ? mabs : -1), pct(cnt ? maa : -1), cnt ? spct(ms) : "      -", nsk ? spct(mst) : "      -", pct(cnt ? mr : -1), pct(cnt ? mq : -1), v, (cnt && mq > 0.10 && v != "ok") ? "; noisy sweep" : ""
                if (cells != "")
                    printf "%s,%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%d,%s,%s,%s\n", csvq(cfgs[c]), csvq(algos[a]), cnt, g6(cnt, me), g6(cnt, ma), g6(cnt, ms), g6(nce[ka] + 0, mabs), g6(cnt, md), g6(cnt, mr), v, g6(cnt, mq), nbk, nbk ? inb[ka] + 0 : "", g6(nbk, mw), g6(nsk, mst) > cells
            }
        if (cells != "") close(cells)
        if (hasdrift) {
            printf "cells with points >= 1 ms and a re-measure: %d; goal met: %d; misses within drift: %d%s; beyond drift (model): %d%s\n", t_ok + t_in + t_out, t_ok, t_in, t_in ? " (" substr(l_in, 2) ")" : "", t_out, t_out ? " (" substr(l_out, 2) ")" : ""
        }
        if (hasband) {
            print "\n== prediction interval: the closed form with every probed parameter at the low and at the high end of its"
            print "   95% interval (sgl-probe --intervals); points >= 1 ms whose measured median lies inside, median width"
            print "   (high - low) / closed form"
            printf "%-22s %-7s %7s %12s %12s\n", "config", "algo", "points", "inside", "width"
            for (c = 1; c <= ncfg; c++)
                for (a = 1; a <= nalgo; a++) {
                    ka = cfgs[c] SUBSEP algos[a]
                    if (!(ka in maxn)) continue
                    nbk = nb[ka] + 0
                    printf "%-22s %-7s %7d %12s %12s\n", cfgs[c], algos[a], nbk, nbk ? (inb[ka] + 0) " of " nbk : "-", pct(nbk ? median(bw, ka, nbk) : -1)
                }
        }
    }
    if (drift != "") drift_params()
    for (a = 1; a <= nalgo; a++) {
        al = algos[a]
        # the largest n every configuration has
        nn = -1
        for (c = 1; c <= ncfg; c++) {
            m = maxn[cfgs[c], al] + 0
            if (m > 0 && (nn < 0 || m < nn)) nn = m
        }
        if (nn < 0) continue
        base = cfgs[1] SUBSEP al SUBSEP nn
        printf "\n== %s, n = %d: speed-up and efficiency (measured | predicted, closed form)\n", al, nn
        printf "%-22s %7s %11s %9s %8s | %11s %9s %8s | %11s\n", "config", "workers", "measured", "speed-up", "effic.", "closed", "speed-up", "effic.", "replay"
        printf "%-22s %7s %11s %9s %8s | %11s %9s %8s | %11s\n", "", "", "[ms]", "[x]", "[%]", "[ms]", "[x]", "[%]", "[ms]"
        for (c = 1; c <= ncfg; c++) {
            k = cfgs[c] SUBSEP al SUBSEP nn
            if (!(k in have)) continue
            w = workers[cfgs[c]]
            sm = have[base] && med[k] > 0 ? med[base] / med[k] : 0
            sp = closed[k] > 0 ? seq[k] / closed[k] : 0
            printf "%-22s %7d %11.3f %9.2f %7.0f%% | %11.3f %9.2f %7.0f%% | %11.3f%s\n", cfgs[c], w, 1e3 * med[k], sm, 100 * sm / w, 1e3 * closed[k], sp, 100 * sp / w, 1e3 * replay[k], over[cfgs[c]] == 1 ? "  (oversubscribed)" : ""
        }
        printf "peers at n = %d (peer time / SGL time; > 1: SGL faster):\n", nn
        for (c = 1; c <= ncfg; c++) {
            k = cfgs[c] SUBSEP al SUBSEP nn
            if (!(k in have) || med[k] <= 0) continue
            printf "  %-22s", cfgs[c]
            for (i = 1; i <= npeers[al]; i++)
                if ((k, i) in pval) printf "%s%s %.3f", (i > 1 ? "   " : " "), pname[al, i], pval[k, i] / med[k]
            printf "\n"
        }
    }
}
