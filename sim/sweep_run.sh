# sim/sweep's runs and tables (sourced after sweep_plan.sh): each point
# under smpirun, its rows in sweep.csv, progress on stderr.
csv="$out/sweep.csv"

# A row per algorithm of a point that gave no time (skipped or failed).
csv_empty() { # csv_empty PLATFORM SHAPE HOSTS ALGOS N NOTE
    local a note=${6//,/;} n
    n=$(awk -v n="$5" 'BEGIN { printf "%.0f", n }')
    for a in ${4//,/ }; do
        echo "$1,$2,$3,$a,$n,,,,,,,\"$note\"" >> "$csv"
    done
}

# The CSV rows of sgl-sim-sweep's lines ("sweep ALGO n N P W sim S min
# MIN max MAX pred PRED"), with the run's wall time and resources (the
# "rss" line of /usr/bin/time's file: after a failure or a stop at the
# budget's end it is preceded by "Command exited with non-zero status",
# which once split a row in two).
csv_rows() { # csv_rows PLATFORM SHAPE ALGO-LABEL WALL [NOTE] < LINES
    awk -v name="$1" -v shape="$2" -v label="$3" -v wall="$4" -v extra="${5:-}" \
        -v rss="$(awk '$1 == "rss" { print $2 }' "$out/time")" \
        -v cpu="$(awk '$1 == "rss" { print $3 + $4 }' "$out/time")" '
        { sim = $8; pred = $14; algo = $2 == "psrs" ? label : $2
          err = pred == "nan" ? "" : sprintf("%.1f", 100 * (pred - sim) / sim)
          note = pred == "nan" ? "no price" : ""
          if (algo == "heat")
              note = (note == "" ? "" : note "; ") "n: grid side; time per step"
          if (sim != $12)
              note = (note == "" ? "" : note "; ") "runs differ: max " $12
          if (extra != "")
              note = (note == "" ? "" : note "; ") extra
          printf "%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%s,%.1f,\"%s\"\n", name, shape, $6,
                 algo, $4, sim, pred == "nan" ? "" : pred, err, wall, rss, cpu, note }' >> "$csv"
}

run_one() { # run_one NAME ALGOS N LIMIT
    local name=$1 algos_run=$2 n=$3 limit=$4 xml hosts shape machine
    read -r xml hosts shape machine <<< "$(platform_of "$name")"
    shape=${shape//_/ }
    local a=${algos_run/psrs-routed/psrs} x=direct
    [ "$algos_run" != psrs-routed ] || x=routed
    # Local work: free in the simulation and priced at c = 0, or (--work)
    # charged at the file's c of "sum" and priced at the file's kernels.
    local mfile=$out/$machine.comm.sgl simwork=""
    if [ "$work" = 1 ]; then
        mfile=$sgl_sim_root/sim/machines/$machine.sgl
        simwork=$(awk '$1 == "kernel" && $2 == "sum" { print $3 }' "$mfile")
    else
        sed 's/^kernel \([A-Za-z0-9_]*\) [^ #]*/kernel \1 0/' \
            "$sgl_sim_root/sim/machines/$machine.sgl" > "$mfile"
    fi
    sgl_sim_hostfile "$out/hosts" 0 $((hosts - 1))
    local lines t0 t1 st=0
    t0=$(date +%s.%N)
    lines=$(SGL_SHAPE=$shape SGL_EXCHANGE=$x SGL_SIM_WORK=$simwork /usr/bin/time -f 'rss %M %U %S' \
           -o "$out/time" timeout -k 5 "$limit" bash -c '. "$1"; shift; sgl_sim_run "$@"' _ \
           "$sgl_sim_root/sim/env.sh" "$xml" "$out/hosts" "$hosts" \
           "$SGL_SIM_BUILD/sim/sgl-sim-sweep" --algo "$a" --n "$n" --reps "$reps" \
           --machine "$mfile" 2>> "$out/stderr") || st=$?
    t1=$(date +%s.%N)
    lines=$(grep '^sweep ' <<< "$lines" || true)
    local why="" partial=""
    if [ "$st" != 0 ] || [ "$(grep -c . <<< "$lines")" != "$(tr ',' '\n' <<< "$algos_run" | grep -c .)" ]; then
        why="failed (exit $st; see $out/stderr)"
        [ "$st" != 124 ] && [ "$st" != 137 ] || why="stopped at the budget's end ($limit s)"
        partial="then the run $why: wall; CPU and RSS of the part that ran"
    fi
    if [ -n "$lines" ]; then
        csv_rows "$name" "$shape" "$algos_run" "$(echo "$t1 - $t0" | bc)" "$partial" <<< "$lines"
    fi
    if [ -n "$why" ]; then
        echo "sim/sweep: $name $algos_run n=$n $why" >&2
        # The algorithms that printed no line.
        for a in ${algos_run//,/ }; do
            grep -q "^sweep ${a/psrs-routed/psrs} " <<< "$lines" ||
                csv_empty "$name" "$shape" "$hosts" "$a" "$n" "$why"
        done
    fi
}

run_points() {
    echo "platform,shape,workers,algo,n,simulated_s,predicted_s,error_pct,wall_s,maxrss_kb,cpu_s,note" > "$csv"
    local k nk=${#points[@]} t_start now spent done_plan p left eta
    local name algos_run n cost why xml hosts shape machine
    t_start=$(date +%s)
    for ((k = 0; k < nk; k++)); do
        IFS='|' read -r name algos_run n cost why <<< "${points[k]}"
        read -r xml hosts shape machine <<< "$(platform_of "$name")"
        shape=${shape//_/ }
        now=$(date +%s) spent=$((now - t_start))
        done_plan=$(plan_sum 0 $((k - 1)))
        p=$(pace "$spent" "$done_plan")
        eta=$(awk -v p="$p" -v r="$(plan_sum "$k" $((nk - 1)))" 'BEGIN { printf "%d", p * r }')
        left=""
        [ -z "$budget" ] || left=$((budget - spent))
        if [ -z "$why" ] && [ -n "$left" ] &&
            awk -v p="$p" -v c="$cost" -v l="$left" 'BEGIN { exit !(p * c > l) }'; then
            why="skipped: planned ${cost} s x pace $p > $left s left of the budget"
            # Planned cost no longer counts: the ETA is of what runs.
            points[k]="$name|$algos_run|$n|$cost|$why"
        fi
        echo "== sim step $((k + 1)) of $nk, $spent s in${left:+, $left s left of $budget}, ETA $eta s: $name ($shape) $algos_run n=$n${why:+: $why}" >&2
        if [ -n "$why" ]; then
            csv_empty "$name" "$shape" "$hosts" "$algos_run" "$n" "$why"
            continue
        fi
        run_one "$name" "$algos_run" "$n" "${left:-86400}"
        tail -n "$(tr ',' '\n' <<< "$algos_run" | grep -c .)" "$csv" | sed 's/^/   /' >&2
    done
    echo "sim/sweep: $(($(date +%s) - t_start)) s of runs${budget:+ (budget $budget s)}, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
}

# The tables: one row per point, the error of the closed form against
# the simulation (positive: over-predicted); aligned text on stdout and
# in table.txt, Markdown in table.md.
write_tables() {
    local rows='
        function ms(s) { return s == "" ? "-" : sprintf("%.4g ms", 1e3 * s) }
        function cell(i) { return $i == "" ? "-" : $i }
        NR > 1 {
            pred = $7 == "" ? ($6 == "" ? "-" : "no price") : ms($7)
            err = $8 == "" ? "-" : sprintf("%+.1f%%", $8)
            note = $12; gsub(/"/, "", note)
            row($1, $2, $3, $4, $5, ms($6), pred, err, cell(9), cell(11),
                $10 == "" ? "-" : sprintf("%.0f", $10 / 1024), note) }'
    # The notes hold no commas (csv_empty), so a plain split reads them.
    local split='BEGIN { FS = "," }'
    {
        echo "| platform | shape | P | algo | n | simulated | predicted | error | wall s | CPU s | RSS MB | note |"
        echo "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"
        awk "$split"'
            function row(a, b, c, d, e, f, g, h, i, j, k, l) {
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                       a, b, c, d, e, f, g, h, i, j, k, l }'"$rows" "$csv"
    } > "$out/table.md"
    awk "$split"'
        function row(a, b, c, d, e, f, g, h, i, j, k, l) {
            printf "%-18s %-16s %5s %-12s %7s %12s %12s %8s %7s %6s %6s  %s\n",
                   a, b, c, d, e, f, g, h, i, j, k, l }
        BEGIN { row("platform", "shape", "P", "algo", "n", "simulated", "predicted",
                    "error", "wall s", "CPU s", "RSS MB", "note") }'"$rows" "$csv" |
        tee "$out/table.txt"
    if [ "$work" = 1 ]; then
        echo "(error = (predicted - simulated) / simulated; simulated: SimGrid SMPI, every declared element at the machine file's c of sum (SGL_SIM_WORK); predicted: the closed form with the machine file's kernels)"
    else
        echo "(error = (predicted - simulated) / simulated; simulated: SimGrid SMPI, local work at no cost; predicted: the closed form with the kernels at c = 0)"
    fi | tee -a "$out/table.txt"
}
