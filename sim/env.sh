# Shared by sim/probe, sim/sweep and tests/sim: the smpirun settings a
# simulated SGL program needs (docs/simulation.md). Sourced, not run.
#   smpi/allgather:rdb, smpi/allgatherv:mpich_rdb
#                             sgl_init's MPI_Allgather (issue 46: 72 s of
#                             real time at 128 ranks) and discovery's
#                             MPI_Allgatherv (6.5 min of real time for a
#                             128-rank reduction, at load 15) under SMPI's
#                             default algorithms; recursive doubling:
#                             3.3 s for the whole run.
#   smpi/simulate-computation:no
#                             local work costs no simulated time: this box's
#                             noisy CPU would otherwise be timed into it;
#                             the comparison is of the communication model.
#   smpi/privatization:1      each rank its own copy of the program's and
#                             libsgl's globals (smpirun's default, stated).
sgl_sim_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SGL_SIM_BUILD=${SGL_SIM_BUILD:-$sgl_sim_root/build-sim}
sgl_sim_opts=(--cfg=smpi/allgather:rdb --cfg=smpi/allgatherv:mpich_rdb
              --cfg=smpi/simulate-computation:no
              --cfg=smpi/privatization:1 --log=root.thresh:warning)

# sgl_sim_hostfile FILE FIRST LAST [STEP]: hosts node-FIRST..node-LAST in
# rank order (smpirun without a hostfile orders them by name: node-10
# before node-2, which would split the racks of the fat tree).
sgl_sim_hostfile() {
    seq -f 'node-%.0f' "$2" "${4:-1}" "$3" > "$1"
}

# sgl_sim_run PLATFORM HOSTFILE NP PROGRAM [ARGS...]
sgl_sim_run() {
    local platform=$1 hosts=$2 np=$3
    shift 3
    smpirun -np "$np" -hostfile "$hosts" \
        -platform "$sgl_sim_root/sim/platforms/$platform.xml" \
        "${sgl_sim_opts[@]}" "$@"
}

# The simulation build, configured and brought up to date.
sgl_sim_build() {
    if [ ! -f "$SGL_SIM_BUILD/build.ninja" ]; then
        meson setup "$SGL_SIM_BUILD" "$sgl_sim_root" -Dmpi=smpi \
            -Dtests=disabled -Dbench=disabled -Ddocs=disabled --werror >&2
    fi
    meson compile -C "$SGL_SIM_BUILD" >&2
}
