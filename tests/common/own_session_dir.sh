#!/usr/bin/env bash
# The default test setup's wrapper: runs one test with an Open MPI
# session directory base of its own, removed when it ends.
# Open MPI 4.1's isolated singletons (OMPI_MCA_ess_singleton_isolated, the
# tests' fast start-up) all take one session directory,
# <base>/ompi.<host>.<uid>/jf.0/1, and two starting at the same moment can
# race on creating it: MPI_Init fails with "mkdir ... File exists". Tests
# run in parallel, so each gets its own base; own_session_dir.c does the
# same for the processes of one Criterion program.
set -uo pipefail
dir=$(mktemp -d "${TMPDIR:-/tmp}/sgl-test.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
export OMPI_MCA_orte_tmpdir_base=$dir SGL_TEST_SESSION_BASE=$dir
"$@"
