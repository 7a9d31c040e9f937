/* Checks of the vertex-centric layer against sequential references,
 * shared by the Criterion tests (thread levels) and the multi-rank driver
 * (MPI levels, simulated hosts). The verdict is reached inside each SGL
 * program, so every process agrees. */
#ifndef SGL_TEST_PREGEL_CHECKS_H
#define SGL_TEST_PREGEL_CHECKS_H

#include <sgl/pregel.h>

int pregel_test_register(sgl_runtime_t *rt);

/* PageRank and BFS hops on a hand-made graph (dangling vertices, a
 * self-loop, duplicate edges, an isolated vertex) and on Kronecker graphs
 * of scale 8 and 10, against sequential power iteration and BFS. */
int pregel_check_programs(sgl_runtime_t *rt);
/* The same Kronecker parameters give the same graph on every tree; the
 * combiner leaves at most one message per (worker, target). */
int pregel_check_graphs(sgl_runtime_t *rt);
/* A memory budget: rounds with bitwise the same results, each within
 * the budget; a budget no rounds meet refused. */
int pregel_check_budget(sgl_runtime_t *rt);
/* Balance by edges on a hub-heavy graph: the heaviest worker nearer the
 * mean, the reference's results, checkpoints of either cut resumed. */
int pregel_check_balance(sgl_runtime_t *rt);
/* Bad input: vertices out of range, a send to a vertex that does not
 * exist, bad parameters. */
int pregel_check_errors(sgl_runtime_t *rt);
/* A program's compute_block against its per-vertex compute (hops with
 * halting, message flags, send-all slots, a send from the handle, an
 * aggregator), with and without a budget: the same hops as BFS and the
 * same statistics; a program with neither function is refused. */
int pregel_check_blocks(sgl_runtime_t *rt);
/* Counts beyond what a graph can index refused with the number (vertices,
 * edges, generator sizes); PageRank's iteration limit exact, never
 * wrapping, its convergence reported; BFS's too. */
int pregel_check_limits(sgl_runtime_t *rt);
/* Edge values: SSSP on a hand-made weighted graph (duplicates, balance),
 * a negative weight failing the run with sgl_vertex_fail()'s message. */
int pregel_check_weights(sgl_runtime_t *rt);
/* Checkpoints prove what they hold: a resume bitwise the uninterrupted
 * run; a byte of each class altered (a file's header, a value, NaN bits,
 * a flag; the manifest's step, agg, graph, program, params, files) and a
 * truncated header refused; another graph of the same vertex count and
 * other parameters refused. */
int pregel_check_checkpoints(sgl_runtime_t *rt);

#endif
