# Time vs size for one algorithm: measured medians (min..max bars) as
# points, closed-form predictions as solid lines and trace-replay
# predictions as dashed lines, one colour per configuration.
# gnuplot -e "csv='points.csv'; algo='reduce'; configs='1x1 1x2'; term='png'; outfile='reduce.png'; host='vm'" bench/plot.gp
# Columns of points.csv: see csv_header in bench/bench_main.c.
if (!exists("host")) host = ""
if (term eq "svg") {
    set terminal svg size 900,600 dynamic enhanced font "sans,12"
} else {
    set terminal pngcairo size 900,600 enhanced font "sans,11"
}
set output outfile
set datafile separator ","
set datafile missing "nan"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "n [elements]"
set ylabel "time [ms]"
set title sprintf("%s on %s: measured (points, min..max) vs predicted (solid: closed form, dashed: trace replay)", algo, host) noenhanced
set key top left noenhanced
set grid
sel(col) = (strcol(1) eq cfg && strcol(7) eq algo) ? column(col) * 1e3 : NaN
N = words(configs)
plot for [i = 1:N] csv using (cfg = word(configs, i), $8):(sel(10)):(sel(11)):(sel(12)) \
         with yerrorbars lc i pt 7 ps 0.8 title word(configs, i) . " measured", \
     for [i = 1:N] csv using (cfg = word(configs, i), $8):(sel(15)) \
         with lines lc i lw 2 dt 1 title word(configs, i) . " closed form", \
     for [i = 1:N] csv using (cfg = word(configs, i), $8):(sel(17)) \
         with lines lc i lw 1.5 dt 2 title word(configs, i) . " replay"
