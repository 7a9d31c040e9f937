#!/bin/sh
# One MPI rank with its own shape, set before exec, as a user's mistake
# gives it:
#   SGL_TEST_RANK   the rank (OMPI_COMM_WORLD_RANK)
#   SGL_TEST_SHAPE  its SGL_SHAPE
#   rank_env.sh COMMAND [ARG]...
if [ "${OMPI_COMM_WORLD_RANK:-}" = "${SGL_TEST_RANK:-none}" ]; then
    export SGL_SHAPE="$SGL_TEST_SHAPE"
fi
exec "$@"
