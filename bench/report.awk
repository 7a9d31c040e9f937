# Summary of bench_main's points.csv (POSIX awk; bench/run runs it):
#  1. prediction error per configuration and algorithm: median
#     |predicted - measured| / measured over the points whose measured
#     median is >= 1 ms (goal <= 10%), for the closed form and the replay;
#  2. speed-up and efficiency at the largest size every configuration ran
#     (as the SGL paper's Tables 4-5), measured and predicted side by side;
#     measured speed-up = T(1x1) / T, predicted = closed form on one worker
#     / closed form (the predictor's own sequential time);
#  3. ratios to the peers (peer time / SGL time) at that size.
# Columns: see csv_header in bench/bench_main.c.
BEGIN { FS = "," }
NR == 1 { next }
{
    cfg = $1; algo = $7; n = $8 + 0
    if (!(cfg in seen_cfg)) { seen_cfg[cfg] = 1; cfgs[++ncfg] = cfg }
    if (!(algo in seen_algo)) { seen_algo[algo] = 1; algos[++nalgo] = algo }
    k = cfg SUBSEP algo SUBSEP n
    med[k] = $10; lo[k] = $11; hi[k] = $12; closed[k] = $15; replay[k] = $17
    seq[k] = $19; p1n[algo] = $20; p1[k] = $21; p2n[algo] = $22; p2[k] = $23
    workers[cfg] = $3; ranks[cfg] = $4; over[cfg] = $6
    have[k] = 1
    if ($10 + 0 >= 1e-3) {
        ka = cfg SUBSEP algo
        if ($16 != "nan" && $16 != "-nan") ce[ka, ++nce[ka]] = abs($16)
        if ($18 != "nan" && $18 != "-nan") re[ka, ++nre[ka]] = abs($18)
    }
    if (n > maxn[cfg, algo]) maxn[cfg, algo] = n
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
function verdict(x) { return x < 0 ? "no point >= 1 ms" : (x <= 0.10 ? "ok" : "MISSED") }
END {
    print "== prediction error: median |predicted - measured| / measured over points >= 1 ms (goal <= 10%)"
    printf "%-22s %-7s %7s %12s %-8s %12s %-8s %s\n", "config", "algo", "points", "closed form", "", "replay", "", "note"
    for (c = 1; c <= ncfg; c++)
        for (a = 1; a <= nalgo; a++) {
            ka = cfgs[c] SUBSEP algos[a]
            if (!(ka in maxn)) continue
            mc = median(ce, ka, nce[ka]); mr = median(re, ka, nre[ka])
            printf "%-22s %-7s %7d %12s %-8s %12s %-8s %s\n", cfgs[c], algos[a], nce[ka] + 0, pct(mc), verdict(mc), pct(mr), verdict(mr), over[cfgs[c]] == 1 ? "oversubscribed: not meaningful for speed" : ""
        }
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
            printf "  %-22s %s%s %.3f   %s %.3f\n", cfgs[c], p1n[al], ((ranks[cfgs[c]] > 1 && al != "psrs") ? "+MPI" : ""), p1[k] / med[k], p2n[al], p2[k] / med[k]
        }
    }
}
