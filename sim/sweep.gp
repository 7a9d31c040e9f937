# sim/sweep's plot: predicted over simulated time against the workers,
# one line per algorithm and size (1 = exact; the band is +-15%, the
# goal of issue 46). gnuplot -e "csv='...'; out='...'" sim/sweep.gp
set terminal pngcairo size 1000,600
set output out
set datafile separator ","
set logscale x 2
set xlabel "simulated hosts (workers)"
set ylabel "predicted / simulated"
set key outside right
set grid
set yrange [0:*]
set xrange [10:1600]
set object 1 rect from graph 0, first 0.85 to graph 1, first 1.15 fc rgb "#e0f0e0" behind
algos = "reduce scan scan-rts psrs psrs-levels"
plot for [a in algos] csv using ($3):(strcol(4) eq a && $7 > 0 ? $7/$6 : NaN) \
     every ::1 with points pointsize 1.5 title a
