# sim/sweep's plot, two panels on one x axis (simulated hosts, log 2), as
# bench/plot.gp draws the measured sweep:
#  top     simulated time (filled points) and the closed form's prediction
#          (open points), one colour per algorithm, one point shape per
#          size (circle, square, triangle, diamond: the sizes in order);
#  bottom  predicted / simulated per point, a line at 1 and a grey band
#          at 0.85..1.15 (issue 46's goal: within 15%).
# The platforms of 1024 hosts (fat tree and flat) share the x position;
# their shape is in the table. Rows without a simulated time (skipped,
# failed) are left out.
# gnuplot -e "csv='sweep.csv'; out='sweep.png'; series='reduce:100000 heat:512'; lts='1 2'; shapes='1 1'" sim/sweep.gp
# series: the ALGO:N pairs to draw, lts: each one's colour (its
# algorithm's), shapes: each one's size index (sim/sweep lists them from
# the CSV).
set terminal pngcairo size 1100,760 enhanced font "sans,11"
set output out
colours = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #8C564B #7F7F7F"
do for [i = 1:8] { set linetype i lc rgb word(colours, i) }
set linetype cycle 8
set datafile separator comma
filled(i) = word("7 5 9 13", (int(word(shapes, i)) - 1) % 4 + 1) + 0
open(i) = filled(i) - 1
algo_of(s) = s[1:strstrt(s, ":") - 1]
n_of(s) = s[strstrt(s, ":") + 1:]
is(s) = strcol(4) eq algo_of(s) && strcol(5) eq n_of(s) && strcol(6) ne ""
set multiplot layout 2,1 title "Simulated (SimGrid SMPI) against predicted (closed form, c = 0)"
set logscale xy
set xrange [10:1600]
set format y "%g"
set ylabel "time (s; heat: per step)"
set key outside right
set grid
unset xlabel
plot for [i = 1:words(series)] csv every ::1 \
         using ($3):(is(word(series, i)) ? $6 : NaN) \
         with points pt filled(i) lt word(lts, i) title word(series, i), \
     for [i = 1:words(series)] csv every ::1 \
         using ($3):(is(word(series, i)) && strcol(7) ne "" ? $7 : NaN) \
         with points pt open(i) ps 1.6 lt word(lts, i) notitle
unset logscale y
set xlabel "simulated hosts (workers)"
set ylabel "predicted / simulated"
set yrange [0:*]
set object 1 rect from graph 0, first 0.85 to graph 1, first 1.15 fc rgb "#e0e0e0" behind
plot for [i = 1:words(series)] csv every ::1 \
         using ($3):(is(word(series, i)) && strcol(7) ne "" ? $7 / $6 : NaN) \
         with points pt filled(i) lt word(lts, i) title word(series, i), \
     1 with lines lc rgb "black" notitle
unset multiplot
