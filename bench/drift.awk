# Joins the closed form on re-measured parameters into points.csv
# (POSIX awk; bench/run runs it after the sweep):
#
#   awk -f bench/csv.awk -f bench/drift.awk REPREDICT.csv POINTS.csv \
#       > NEW-POINTS.csv
#
# REPREDICT.csv is bench_main --repredict's output (config, algo,
# n_elements, closed_form_s, closed_form_after_s): per point, the closed
# form on the probe's parameters and on the parameters sgl-probe --drift
# re-measured after the configuration's sweep. POINTS.csv comes out with
# every record as it was (byte for byte) and three columns appended:
#   closed_form_after_s        the closed form on the re-measured parameters
#   closed_form_after_rel_err  (closed_form_after_s - median_s) / median_s
#   prediction_drift_rel       (closed_form_after_s - closed_form_s) /
#                              closed_form_s: how far the prediction itself
#                              moved with the machine over the run
# empty where a point has no re-measure (a configuration whose parameters
# came from a file of no probe of this run). A REPREDICT.csv whose
# closed_form_s differs from points.csv's is refused: the two predictions
# were not made on the same tree, and the drift would be that difference.
# Bad input (a missing column, a field that is not a number, a point twice)
# is said on stderr with its file and line, exit status 2 (stdout is then
# incomplete: bench/run keeps the old points.csv).
function fail(msg) {
    printf "drift.awk: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
    bad = 1
    exit 2
}
# An empty field or a number as bench_csv_num() writes one (%.9g).
function number(s, what) {
    if (s == "") return s
    if (s !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/)
        fail(what " '" s "' is not a number")
    return s + 0
}
function num(x) { return sprintf("%.9g", x) }
FNR == 1 { file++; ncol = 0; csv_pending = "" }
{
    if (!csv_record($0)) next
    nf = csv_split(csv_rec, f)
    if (!ncol) {
        ncol = nf
        split("", col)
        need = file == 1 ? "config algo n_elements closed_form_s closed_form_after_s" \
                         : "config algo n_elements median_s closed_form_s"
        if ((miss = csv_columns(f, nf, col, need)) != "") fail("no column " miss)
        if (file == 2) {
            if ("closed_form_after_s" in col)
                fail("has the drift columns already (joined twice?)")
            print csv_rec ",closed_form_after_s,closed_form_after_rel_err,prediction_drift_rel"
        }
        next
    }
    if (nf != ncol) fail(sprintf("%d fields, the header has %d", nf, ncol))
    k = f[col["config"]] SUBSEP f[col["algo"]] SUBSEP number(f[col["n_elements"]], "n_elements")
    if (file == 1) {
        if (k in after) fail("the point " f[col["config"]] " " f[col["algo"]] " n=" f[col["n_elements"]] " twice")
        before[k] = number(f[col["closed_form_s"]], "closed_form_s")
        after[k] = number(f[col["closed_form_after_s"]], "closed_form_after_s")
        if ((before[k] != "" && before[k] <= 0) || (after[k] != "" && after[k] <= 0))
            fail("a predicted time is not positive")
        nre++
        next
    }
    med = number(f[col["median_s"]], "median_s")
    cf = number(f[col["closed_form_s"]], "closed_form_s")
    if (!(k in after) || after[k] == "" || cf == "" || before[k] == "") {
        print csv_rec ",,,"
        next
    }
    d = before[k] - cf; if (d < 0) d = -d
    if (d > 1e-6 * cf)
        fail("closed_form_s " cf " but the re-prediction on the same parameters gives " before[k] \
             ": not the sweep's prediction tree")
    used++
    print csv_rec "," num(after[k]) "," (med > 0 ? num((after[k] - med) / med) : "") "," num((after[k] - cf) / cf)
}
END {
    if (bad) exit 2
    if (file < 2) {
        print "drift.awk: usage: awk -f drift.awk REPREDICT.csv POINTS.csv" > "/dev/stderr"
        exit 2
    }
}
