# sim/sweep's plan (sourced): the points in the order they run, each with
# its planned cost, and the budget's arithmetic (step k of N, the ETA,
# what no longer fits).
#
# points[k]: PLATFORM|ALGOS|N|PLANNED|WHY-NOT (ALGOS comma-separated,
# PLANNED in quiet wall seconds, WHY-NOT empty for a point that runs).

# Quiet wall seconds of one run (sgl-sim-sweep's start of the cluster,
# then the algorithm's part). From runs on the 2-core VM (user + sys of
# smpirun, docs/results/2026-12-07-sim-sweep.md and 2026-12-simulation.md):
# reduce, scan and scan-rts together at 1024 hosts 12.3 CPU-s (fat tree)
# and 13.3 (flat), 16 hosts under 1 s; routed PSRS of 1e7 at 1024 hosts
# 10.7 CPU-s; Heat 2D about 35 CPU-s per run at 128 hosts (37 for one of
# 512^2, 68 for two of 1024^2; two of 256^2 did not finish in 49 s at load
# 6: the plan's set-up, not the grid, costs), 0.3 at 32.
planned_cost() { # planned_cost HOSTS SHAPE ALGOS N
    awk -v h="$1" -v shape="$2" -v algos="$3" -v n="$4" -v reps="$reps" 'BEGIN {
        start = h >= 1024 ? (shape == "rank:1024" ? 13 : 12) : h >= 128 ? 3 : 1
        rep = 0
        if (algos == "heat")
            rep = h >= 1024 ? 600 : h >= 128 ? 40 : 0.3
        else if (algos ~ /psrs/)
            rep = (h >= 128 ? 2 : 1) * n / 3e6
        printf "%d\n", start + rep * reps + 0.5 }'
}

# Adds a point; why: empty, or why it is not run.
plan_add() { # plan_add PLATFORM HOSTS SHAPE ALGOS N WHY
    points+=("$1|$4|$5|$(planned_cost "$2" "$3" "$4" "$5")|$6")
}

has_algo() { [[ " $algos " == *" $1 "* ]]; }

# Why ALGO is left out on HOSTS unless named in --algos (empty: it runs).
left_out() { # left_out ALGO HOSTS PLATFORM
    if [ "$work" = 1 ]; then
        case $1 in
        psrs*) echo "no --work price: PSRS declares its elements and the model prices n log n sorting and merging"; return ;;
        heat) echo "no --work price: the machine files have no c for Heat's kernel"; return ;;
        esac
    fi
    [ "$algos_given" = 0 ] || return 0
    if [ "$3" = fattree-1024-flat ] && [ "$1" != heat ]; then
        case $1 in psrs*)
            echo "left out on the flat 1024-host tree (reduce and the scans show its fan-out): routed PSRS of 1e7 on it took 63.9 s wall (name it in --algos to run it)"
            return ;;
        esac
    fi
    case $1 in
    psrs) [ "$2" -lt 128 ] || echo "left out at $2 hosts: the direct exchange's P^2 flows at once took 200 CPU-s at 128 hosts (name psrs in --algos to run it)" ;;
    psrs-levels) [ "$2" -lt 128 ] || echo "left out at $2 hosts: by level on the 1024-host fat tree had not finished after 8 minutes at n = 1e6 nor after 180 s at 1e5 (name psrs-levels in --algos to run it)" ;;
    heat) [ "$2" -lt 1024 ] || echo "left out at $2 hosts: the plan's set-up took 37 CPU-s at 128 hosts and 2 at 64 (name heat in --algos to run it)" ;;
    esac
}

plan_points() {
    local i p xml hosts shape machine small a n side
    local -a vs=(${sizes//,/ }) hs=(${heat_sizes//,/ })
    local nmax=$((${#vs[@]} > ${#hs[@]} ? ${#vs[@]} : ${#hs[@]}))
    points=()
    for ((i = 0; i < nmax; i++)); do
        n=${vs[i]:-} side=${hs[i]:-} small=""
        for a in reduce scan scan-rts; do
            has_algo "$a" && small+=${small:+,}$a
        done
        for p in $platforms; do
            [ -n "$n" ] || break
            read -r xml hosts shape machine <<< "$(platform_of "$p")"
            [ -z "$small" ] || plan_add "$p" "$hosts" "$shape" "$small" "$n" ""
            for a in psrs psrs-routed psrs-levels; do
                has_algo "$a" || continue
                plan_add "$p" "$hosts" "$shape" "$a" "$n" "$(left_out "$a" "$hosts" "$p")"
            done
        done
        for p in $platforms; do
            [ -n "$side" ] && has_algo heat || break
            read -r xml hosts shape machine <<< "$(platform_of "$p")"
            plan_add "$p" "$hosts" "$shape" heat "$side" "$(left_out heat "$hosts" "$p")"
        done
    done
}

# The planned seconds of the points FROM..TO that run.
plan_sum() { # plan_sum FROM TO
    local k t=0
    for ((k = $1; k <= $2; k++)); do
        IFS='|' read -r _ _ _ c why <<< "${points[k]}"
        [ -n "$why" ] || t=$((t + c))
    done
    echo $t
}

# Seconds taken per planned second: the runs so far, or before the first
# the load per core (a box at load 8 on 2 cores ran them 2.7x slow).
pace() { # pace SPENT PLANNED-DONE
    awk -v s="$1" -v d="$2" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
        -v cores="$(nproc)" 'BEGIN {
        p = d > 0 ? s / d : load / cores
        printf "%.2f\n", p < 1 ? 1 : p }'
}
