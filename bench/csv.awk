# RFC 4180 fields for the benchmarks' awk programs (report.awk, drift.awk,
# levels.awk), loaded before them: awk -f bench/csv.awk -f bench/report.awk
# FILE. csv_record(line) joins the lines of a record, csv_split(rec, f)
# splits it into f[1..n], quotes removed and "" read as "; returns n;
# csv_columns() reads a header.
function csv_split(rec, f,    n, i, c, q, fld, len) {
    n = 0; fld = ""; q = 0; len = length(rec)
    for (i = 1; i <= len; i++) {
        c = substr(rec, i, 1)
        if (q) {
            if (c == "\"") {
                if (substr(rec, i + 1, 1) == "\"") { fld = fld c; i++ }
                else q = 0
            } else fld = fld c
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = fld; fld = "" }
        else fld = fld c
    }
    f[++n] = fld
    return n
}
# The quotes in s.
function quotes(s,    t) { t = s; return gsub(/"/, "", t) }
# Take one input line (a CR before its end dropped): 1 with the record it
# completes in csv_rec, 0 while a quoted field goes on on the next line.
function csv_record(line) {
    sub(/\r$/, "", line)
    csv_rec = csv_pending == "" ? line : csv_pending "\n" line
    if (quotes(csv_rec) % 2) { csv_pending = csv_rec; return 0 }
    csv_pending = ""
    return 1
}
# A header: col[name] = its column for each of f[1..nf] (from csv_split());
# returns the first of the space-separated names in need that the header
# lacks, "" when it has them all.
function csv_columns(f, nf, col, need,    i, nm, n) {
    for (i = 1; i <= nf; i++) col[f[i]] = i
    n = split(need, nm, " ")
    for (i = 1; i <= n; i++) if (!(nm[i] in col)) return nm[i]
    return ""
}
