# Small statistics shared by the awk scripts that summarise runs
# (bench/heldout.awk, bench/runs.awk): load it after bench/csv.awk,
#   awk -f bench/csv.awk -f bench/stats.awk -f bench/runs.awk FILE...
# num(s): whether s is a decimal number (the CSV files' empty cells and
# words are not).
function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function abs(x) { return x < 0 ? -x : x }
# The median of v[1..n] (sorted in place; insertion sort: few points).
function median(v, n,    i, j, t) {
    for (i = 2; i <= n; i++) {
        t = v[i]
        for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
        v[j + 1] = t
    }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function pct(x) { return sprintf("%.1f%%", 100 * x) }
