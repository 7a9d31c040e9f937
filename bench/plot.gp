# Time vs size for one algorithm, two panels on one x axis:
#  top     measured medians (points, bars from min to max), closed-form
#          predictions (solid lines) and trace-replay predictions (dashed
#          lines), one colour per configuration;
#  bottom  predicted / measured per point (closed form: solid with filled
#          points, replay: dashed with open points), a line at 1 and a grey
#          band at 0.9..1.1 (the 10% goal).
# With band=1 (points.csv has closed_form_lo_s and closed_form_hi_s: the
# closed form with every probed parameter at the ends of its 95% interval)
# the top panel shades each configuration's prediction interval and the
# bottom one gives each closed-form ratio a bar from low / measured to
# high / measured.
# The legend sits right of the data; both axes are fitted to the data.
# gnuplot -e "csv='points.csv'; algo='reduce'; configs='1x1 1x2'; term='png'; outfile='reduce.png'; host='vm'; band=1" bench/plot.gp
# points.csv is RFC 4180 (tools/bench_csv.h); columns are read by their
# names in the header (points_header in bench/bench_main.c). gnuplot 5.4
# splits quoted fields at the right commas, but strcol() of a quoted field
# stops at its first comma or quote: configuration labels (selected by
# strcol) must hold no spaces, commas or quotes, as bench/run's do. The
# shape column, quoted, is never read here.
if (!exists("host")) host = ""
if (!exists("band")) band = 0
if (term eq "svg") {
    set terminal svg size 1100,760 dynamic enhanced font "sans,12"
} else {
    set terminal pngcairo size 1100,760 enhanced font "sans,11"
}
set output outfile
# One colour per configuration, distinct on white and for colour-blind
# readers (Okabe-Ito without its yellow, then brown and grey); black is
# left for the legend's style entries.
colours = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #8C564B #7F7F7F"
do for [i = 1:8] { set linetype i lc rgb word(colours, i) }
set linetype cycle 8
set datafile separator comma
set datafile columnheaders
set datafile missing "nan"

# The rows of this algorithm and of one of the configurations.
N = words(configs)
mine = '(strcol("algo") eq algo && strstrt(" " . configs . " ", " " . strcol("config") . " ") > 0)'
inrow(v) = @mine ? v : NaN
sel(name) = (strcol("config") eq cfg && strcol("algo") eq algo) ? column(name) : NaN
ratio(name) = (strcol("config") eq cfg && strcol("algo") eq algo && column("median_s") > 0) ? column(name) / column("median_s") : NaN

# Ranges from the data: a fifth of a decade of room on each side of the
# sizes (no point on the border, no empty decade), and the times from the
# smallest minimum or prediction to the largest maximum or prediction.
# A stats call that finds no valid point warns and leaves STATS_records
# undefined: ask have(0), not STATS_records.
have(dummy) = exists("STATS_records") && STATS_records > 0
stats csv using (inrow(column("n_elements"))) nooutput
if (!have(0)) {
    print sprintf("plot.gp: %s has no %s points of %s", csv, algo, configs)
    set label 1 sprintf("no %s points", algo) at graph 0.5, graph 0.5 center
    set xrange [1 : 10]; set yrange [1 : 10]
    plot NaN notitle
    exit
}
xlo = STATS_min; xhi = STATS_max
ylo = 1e300; yhi = 0
do for [c in "min_s max_s closed_form_s replay_s"] {
    stats csv using (inrow(column(c)) > 0 ? inrow(column(c)) : NaN) nooutput
    if (have(0)) {
        ylo = STATS_min < ylo ? STATS_min : ylo
        yhi = STATS_max > yhi ? STATS_max : yhi
    }
}
rlo = 1; rhi = 1
do for [c in "closed_form_s replay_s"] {
    stats csv using (inrow(column("median_s")) > 0 && column(c) > 0 ? column(c) / column("median_s") : NaN) nooutput
    if (have(0)) {
        rlo = STATS_min < rlo ? STATS_min : rlo
        rhi = STATS_max > rhi ? STATS_max : rhi
    }
}
pad(lo, hi, f) = (hi / lo) ** f > 1.25 ? (hi / lo) ** f : 1.25
xpad = pad(xlo, xhi, 0.05)
ypad = pad(ylo, yhi, 0.06)
# At least a factor of 5 from bottom to top, so that two labelled ticks
# (1, 2, 5 of a decade, below) fall inside.
ypad = ypad ** 2 * yhi / ylo < 5 ? sqrt(5 * ylo / yhi) : ypad
set xrange [xlo / xpad : xhi * xpad]

set lmargin at screen 0.10
set rmargin at screen 0.70
set multiplot title sprintf("%s on %s: measured vs predicted", algo, host) noenhanced

# ---- top: time [ms]
set tmargin at screen 0.92
set bmargin at screen 0.40
set logscale xy
set format x ""
set format y "%g"
set mytics 10
set ylabel "time [ms]"
set yrange [1e3 * ylo / ypad : 1e3 * yhi * ypad]
# Under two decades the powers of ten alone leave the axis nearly bare:
# label 2 and 5 of every decade too.
if (yhi / ylo < 100) {
    do for [e = -9:6] { set ytics add (2 * 10.0 ** e, 5 * 10.0 ** e) }
}
set grid xtics ytics mytics lw 0.5, lw 0.2
# The legends start right of the data, at fixed places: "outside" alone
# lets a wide legend reach back over the plot when the margins are fixed.
set key at screen 0.72, screen 0.92 left top vertical Left reverse noenhanced \
    samplen 3 spacing 1.1 title "configuration (colour)" left
if (band) {
    set style fill transparent solid 0.18 noborder
    plot for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(1e3 * sel("closed_form_lo_s")):(1e3 * sel("closed_form_hi_s")) \
             with filledcurves lc i notitle, \
         for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(1e3 * sel("median_s")):(1e3 * sel("min_s")):(1e3 * sel("max_s")) \
             with yerrorbars lc i pt 7 ps 0.9 title word(configs, i), \
         for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(1e3 * sel("closed_form_s")) \
             with lines lc i lw 2 dt 1 notitle, \
         for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(1e3 * sel("replay_s")) \
             with lines lc i lw 1.5 dt 2 notitle, \
         keyentry with points lc "black" pt 7 title "measured median (bar: min..max)", \
         keyentry with lines lc "black" lw 2 dt 1 title "closed form", \
         keyentry with filledcurves lc "black" title "its 95% interval", \
         keyentry with lines lc "black" lw 1.5 dt 2 title "trace replay"
} else {
plot for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(1e3 * sel("median_s")):(1e3 * sel("min_s")):(1e3 * sel("max_s")) \
         with yerrorbars lc i pt 7 ps 0.9 title word(configs, i), \
     for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(1e3 * sel("closed_form_s")) \
         with lines lc i lw 2 dt 1 notitle, \
     for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(1e3 * sel("replay_s")) \
         with lines lc i lw 1.5 dt 2 notitle, \
     keyentry with points lc "black" pt 7 title "measured median (bar: min..max)", \
     keyentry with lines lc "black" lw 2 dt 1 title "closed form", \
     keyentry with lines lc "black" lw 1.5 dt 2 title "trace replay"
}

# ---- bottom: predicted / measured
set tmargin at screen 0.37
set bmargin at screen 0.09
unset logscale y
unset mytics
set format x "10^{%L}"
set xlabel "n [elements]"
set ylabel "predicted / measured"
# Linear while the ratios stay within 0.5..2, else logarithmic (a ratio
# and its inverse then lie as far from 1).
rlo = rlo < 0.85 ? rlo : 0.85
rhi = rhi > 1.15 ? rhi : 1.15
if (rlo < 0.5 || rhi > 2) {
    set logscale y
    set yrange [rlo / 1.15 : rhi * 1.15]
    set ytics add (0.02, 0.05, 0.2, 0.5, 2, 5, 20, 50)
    set mytics 10
} else {
    set yrange [rlo - 0.05 * (rhi - rlo) : rhi + 0.05 * (rhi - rlo)]
}
set object 1 rectangle from graph 0, first 0.9 to graph 1, first 1.1 \
    fillcolor rgb "#e0e0e0" fillstyle solid 1.0 noborder behind
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc "black" lw 1 front
set key at screen 0.72, screen 0.37 left top vertical Left reverse noenhanced \
    samplen 3 spacing 1.1 title "" left
if (band) {
plot for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(ratio("closed_form_s")):(ratio("closed_form_lo_s")):(ratio("closed_form_hi_s")) \
         with yerrorbars lc i pt 7 ps 0.8 notitle, \
     for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(ratio("closed_form_s")) \
         with lines lc i lw 2 dt 1 notitle, \
     for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(ratio("replay_s")) \
         with linespoints lc i lw 1.5 dt 2 pt 6 ps 0.8 notitle, \
     keyentry with linespoints lc "black" lw 2 dt 1 pt 7 title "closed form / measured (bar: 95%)", \
     keyentry with linespoints lc "black" lw 1.5 dt 2 pt 6 title "replay / measured", \
     keyentry with boxes fillcolor rgb "#e0e0e0" fillstyle solid 1.0 noborder title "within 10%"
} else {
plot for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(ratio("closed_form_s")) \
         with linespoints lc i lw 2 dt 1 pt 7 ps 0.8 notitle, \
     for [i = 1:N] csv using (cfg = word(configs, i), column("n_elements")):(ratio("replay_s")) \
         with linespoints lc i lw 1.5 dt 2 pt 6 ps 0.8 notitle, \
     keyentry with linespoints lc "black" lw 2 dt 1 pt 7 title "closed form / measured", \
     keyentry with linespoints lc "black" lw 1.5 dt 2 pt 6 title "replay / measured", \
     keyentry with boxes fillcolor rgb "#e0e0e0" fillstyle solid 1.0 noborder title "within 10%"
}
unset multiplot
