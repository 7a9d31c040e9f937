#!/bin/sh
# One MPI rank with an environment of its own, set before exec, as a
# user's mistake or a remote host gives it:
#   SGL_TEST_RANK  the rank (OMPI_COMM_WORLD_RANK)
#   SGL_TEST_ENV   NAME=VALUE to export on that rank only
#   rank_env.sh COMMAND [ARG]...
if [ "${OMPI_COMM_WORLD_RANK:-}" = "${SGL_TEST_RANK:-none}" ]; then
    export "$SGL_TEST_ENV"
fi
exec "$@"
