/* Algorithms 3 and 4 of the SGL paper: parallel sorting by regular
 * sampling (PSRS, Shi and Schaeffer 1992) in the paper's five steps, each
 * a program of its own (one sgl_run); what a step leaves on a node for
 * the next one is kept in the node's state, as scan.c keeps mid.
 *
 *  Algorithm 3                          Algorithm 4
 *  Step0                                Step4(IN blk, OUT stay, OUT move)
 *   1 pid := 1 in each worker            1 if master then
 *   2 scan the pids (Algorithm 2)        2   par do
 *   3 set lowerPid, upperPid, maxPid     3     Step4(blk, stay, move)
 *  Step1(IN arr, OUT sam)                4   end par
 *   4 if master then                     5   for i from 1 to maxPid do
 *   5   par do                           6     gather move[i] to tmp
 *   6     Step1(arr, sam)                7     if i < lowerPid or i > upperPid
 *   7   end par                          8       move[i] := Concatenate(tmp)
 *   8   gather sam to tmp                9     else
 *   9   sam := Concatenate(tmp)         10       stay[i] := Concatenate(tmp)
 *  10 else                              11 else
 *  11   QuickSort(arr)                  12   for i from 1 to maxPid do
 *  12   SelectSamples(arr, sam)         13     if i = pid then
 *  Step2(IN sam, OUT pvt), at the root  14       stay[pid] := blk[pid]
 *  13 QuickSort(sam)                    15     else
 *  14 PickPivots(sam, pvt)              16       move[i] := blk[i]
 *  Step3(IN arr, IN pvt, OUT blk)       Step5(IN stay, IN move, OUT arr)
 *  15 if master then                    17 if master then
 *  16   for i from 1 to numChd do       18   scatter Bundle(move) to arr
 *  17     tmp[i] := pvt                 19   par do
 *  18   scatter tmp to pvt              20     tmp := Unbundle(arr)
 *  19   par do                          21     for i from lowerPid to upperPid
 *  20     Step3(arr, pvt, blk)          22       move[i] :=
 *  21   end par                                    Concatenate(tmp[i], stay[i])
 *  22 else                              23     Step5(stay, move, arr)
 *  23   BuildPartitions(arr, pvt, blk)  24   end par
 *                                       25 else
 *                                       26   arr := MergeSort(move[pid])
 *
 * Comments "3:11" and "4:6" cite line 11 of Algorithm 3 and line 6 of
 * Algorithm 4. The steps as supersteps:
 *   step1_sort_sample      local sort, regular samples up to the root
 *   step2_pick_pivots      the root sorts the samples, picks P-1 pivots
 *   step3_partition        pivots broadcast down, every worker cuts its
 *                          block into P buckets
 *   step4_route_up         buckets go up to the lowest master above both
 *                          their source and their destination worker
 *   step5_route_down_merge and down to their worker, which merges them
 *
 * Where this differs from the paper's text:
 *   - Step0 needs no superstep: the runtime knows each worker's
 *     depth-first index (pid, from 0 here) and the range below a master.
 *   - The data starts at the root (the first run's argument) and Step1
 *     splits it over the workers, as reduction.c does.
 *   - Lines 4:5-6 gather move[i] once per pid; here the buckets name
 *     their destination (struct run), so one gather carries all of them.
 *   - Lines 4:20-22 run on every node at the start of its Step5 (in the
 *     paper they run on the child, inside its master's par do), the root
 *     included: the buckets that stayed at the root, between two of its
 *     children, go down too.
 *   - Equal keys are ordered by their element's place (worker, position
 *     in its sorted block): samples and pivots carry it, so that many
 *     duplicates, or all-equal keys, split into buckets as evenly as
 *     distinct keys do.
 *
 * Run: [mpirun -n 2] ./psrs [n] [random|dups|equal] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sgl/sgl.h>
#include <sgl/blocks.h>

/* ---- message layouts ---- */

/* A regular sample (Step 1) or a pivot (Step 2): a key and the place of
 * its element, its worker's pid and its position in that worker's sorted
 * block. Samples and pivots are ordered by (key, pid, pos). */
struct sample {
    uint64_t key, pid, pos;
};

/* A run: the keys of one worker's bucket for worker dest (Step 3),
 * sorted. The paper's blk, move and stay are bundles: runs back to back
 * in an array of 64-bit words, sent as such (elem_size 8). */
struct run {
    uint64_t dest, count;
    uint64_t keys[];
};

struct bundle {
    uint64_t *w;
    size_t len, cap; /* words */
};

/* The runs of a bundle of @len words @w, one after another:
 *   for (r = run_first(w, len); r; r = run_next(r, w, len)) */
static const struct run *run_first(const uint64_t *w, size_t len)
{
    return len ? (const struct run *)w : NULL;
}

static const struct run *run_next(const struct run *r, const uint64_t *w,
                                  size_t len)
{
    const uint64_t *next = r->keys + r->count;
    return next < w + len ? (const struct run *)next : NULL;
}

static int bundle_add(struct bundle *b, uint64_t dest, const uint64_t *keys,
                      size_t count)
{
    size_t need = b->len + 2 + count;
    if (need > b->cap) {
        size_t cap = need > 2 * b->cap ? need : 2 * b->cap;
        uint64_t *w = realloc(b->w, cap * sizeof *w);
        if (!w)
            return sgl_error_set(SGL_ENOMEM, "psrs: no memory for a bundle "
                                             "of %zu words", cap);
        b->w = w;
        b->cap = cap;
    }
    struct run *r = (struct run *)(b->w + b->len);
    r->dest = dest;
    r->count = count;
    if (count)
        memcpy(r->keys, keys, count * sizeof *keys);
    b->len = need;
    return SGL_OK;
}

static void bundle_free(struct bundle *b)
{
    free(b->w);
    *b = (struct bundle){0};
}

/* ---- what a node keeps between the steps ---- */

struct node {
    uint64_t pid;          /* a worker's index, from 0 (3:1-2) */
    uint64_t lower, upper; /* the pids below a node, both included (3:3) */
    uint64_t maxpid;       /* P, the number of workers (3:3) */
    uint64_t *arr;         /* a worker's block: sorted in Step 1, then
                              its share of the result after Step 5 */
    size_t n;
    struct sample *sam, *pvt; /* at the root: Step 1's and Step 2's OUT */
    size_t nsam, npvt;
    struct bundle blk;  /* a worker's buckets (3:23) */
    struct bundle stay; /* runs for pids below the node (4:10, 4:14) */
};

static void node_free(void *p)
{
    struct node *nd = p;
    free(nd->arr);
    free(nd->sam);
    free(nd->pvt);
    bundle_free(&nd->blk);
    bundle_free(&nd->stay);
    free(nd);
}

/* Step0 (3:1-3): the runtime numbers the workers depth-first, so a
 * node's pids are a range and no scan is needed. */
static int step0(sgl_ctx_t *ctx, struct node **ret)
{
    struct node *nd = calloc(1, sizeof *nd);
    if (!nd)
        return sgl_error_set(SGL_ENOMEM, "psrs: no memory for a node");
    nd->pid = nd->lower = sgl_ctx_first_worker(ctx);
    nd->upper = nd->lower + sgl_ctx_workers(ctx) - 1;
    nd->maxpid = sgl_machine_workers(sgl_ctx_machine(ctx));
    sgl_ctx_set_state(ctx, nd, node_free);
    *ret = nd;
    return SGL_OK;
}

/* ---- sequential parts ---- */

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_sample(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* SelectSamples (3:12): min(P, n) samples at regular positions of the
 * sorted block. */
static size_t select_samples(const struct node *nd, struct sample *sam)
{
    size_t s = nd->n < nd->maxpid ? nd->n : (size_t)nd->maxpid;
    for (size_t i = 0; i < s; i++) {
        size_t pos = i * nd->n / s;
        sam[i] = (struct sample){nd->arr[pos], nd->pid, pos};
    }
    return s;
}

/* PickPivots (3:14): P-1 pivots at regular positions of the m sorted
 * samples. With no sample there is no key to cut, and any pivot will do. */
static void pick_pivots(const struct sample *sam, size_t m, size_t p,
                        struct sample *pvt)
{
    for (size_t i = 1; i < p; i++)
        pvt[i - 1] = m ? sam[i * m / p] : (struct sample){0, 0, 0};
}

/* First position of the sorted a[0..n) whose key is >= k, or > k with
 * @above. */
static size_t bound(const uint64_t *a, size_t n, uint64_t k, int above)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < k || (above && a[mid] == k))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many elements of worker @pid's sorted block come before pivot @pv
 * in (key, pid, pos) order: those of smaller keys, and of its key those
 * of an earlier place. */
static size_t below(const uint64_t *a, size_t n, uint64_t pid,
                    const struct sample *pv)
{
    size_t lo = bound(a, n, pv->key, 0), hi = bound(a, n, pv->key, 1);
    if (pid != pv->pid)
        return pid < pv->pid ? hi : lo;
    return pv->pos < lo ? lo : pv->pos > hi ? hi : (size_t)pv->pos;
}

/* BuildPartitions (3:23): bucket i, the keys between pivots i-1 and i,
 * for worker i; empty buckets are left out. */
static int build_partitions(struct node *nd, const struct sample *pvt)
{
    size_t start = 0;
    for (uint64_t i = 0; i < nd->maxpid; i++) {
        size_t end = i + 1 < nd->maxpid ? below(nd->arr, nd->n, nd->pid,
                                                &pvt[i])
                                        : nd->n;
        if (end > start)
            SGL_TRY(bundle_add(&nd->blk, i, nd->arr + start, end - start));
        start = end;
    }
    return SGL_OK;
}

static void merge(const uint64_t *x, size_t nx, const uint64_t *y, size_t ny,
                  uint64_t *out)
{
    size_t i = 0, j = 0;
    while (i < nx && j < ny)
        *out++ = y[j] < x[i] ? y[j++] : x[i++];
    memcpy(out, x + i, (nx - i) * sizeof *x);
    memcpy(out + (nx - i), y + j, (ny - j) * sizeof *y);
}

/* MergeSort (4:26) of the sorted runs in @a, run r at a[at[r]..at[r+1]):
 * merged two by two, pass after pass, until one is left. */
static int merge_runs(uint64_t **a, size_t n, size_t *at, size_t k)
{
    uint64_t *b = malloc((n ? n : 1) * sizeof *b);
    if (!b)
        return sgl_error_set(SGL_ENOMEM, "psrs: no memory to merge %zu keys",
                             n);
    while (k > 1) {
        size_t m = 0;
        for (size_t r = 0; r < k; r += 2) {
            size_t lo = at[r], mid = at[r + 1];
            size_t hi = r + 2 <= k ? at[r + 2] : mid;
            merge(*a + lo, mid - lo, *a + mid, hi - mid, b + lo);
            at[m++] = lo;
        }
        at[m] = n;
        k = m;
        uint64_t *t = *a;
        *a = b;
        b = t;
    }
    free(b);
    return SGL_OK;
}

/* ---- the steps ---- */

/* The root keeps its OUT for the next step; every other node hands it
 * up to its master. */
static int keep_or_put(sgl_ctx_t *ctx, struct node *nd, struct sample *sam,
                       size_t m)
{
    if (sgl_ctx_is_root(ctx)) {
        nd->sam = sam;
        nd->nsam = m;
        return SGL_OK;
    }
    int rc = sgl_put(ctx, sam, sizeof *sam, m);
    free(sam);
    return rc;
}

/* Superstep 1: local sort and regular samples. */
static int step1_sort_sample(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    struct node *nd = NULL;
    uint64_t *arr;
    struct sample *sam;
    size_t n, m;
    SGL_TRY(step0(ctx, &nd));
    SGL_TRY(sgl_recv(ctx, sizeof *arr, (void **)&arr, &n));     /* IN arr */
    if (sgl_ctx_is_master(ctx)) {                           /* 3:4 */
        SGL_TRY(sgl_scatter_split(ctx, arr, sizeof *arr, n, NULL));
        SGL_TRY(sgl_pardo(ctx, step1_sort_sample, NULL, 0));    /* 3:5-7 */
        SGL_TRY(sgl_gather_alloc(ctx, sizeof *sam, (void **)&sam, &m,
                             NULL));                        /* 3:8-9 */
    } else {                                                /* 3:10 */
        nd->arr = malloc((n ? n : 1) * sizeof *arr);
        sam = malloc((nd->maxpid ? nd->maxpid : 1) * sizeof *sam);
        if (!nd->arr || !sam) {
            free(sam);
            return sgl_error_set(SGL_ENOMEM, "psrs: no memory for %zu keys",
                                 n);
        }
        nd->n = n;
        if (n)
            memcpy(nd->arr, arr, n * sizeof *arr);
        qsort(nd->arr, n, sizeof *arr, cmp_key);            /* 3:11 */
        m = select_samples(nd, sam);                        /* 3:12 */
    }
    return keep_or_put(ctx, nd, sam, m);                    /* OUT sam */
}

/* Superstep 2, at the root master alone: the pivots. */
static int step2_pick_pivots(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    struct node *nd = sgl_ctx_state(ctx);
    size_t p = nd->maxpid;
    if (nd->nsam)
        qsort(nd->sam, nd->nsam, sizeof *nd->sam, cmp_sample); /* 3:13 */
    nd->pvt = malloc((p > 1 ? p - 1 : 1) * sizeof *nd->pvt);
    if (!nd->pvt)
        return sgl_error_set(SGL_ENOMEM, "psrs: no memory for pivots");
    nd->npvt = p - 1;
    pick_pivots(nd->sam, nd->nsam, p, nd->pvt);             /* 3:14 */
    return SGL_OK;
}

/* Superstep 3: the pivots go down to every worker, which cuts its block
 * into P buckets. */
static int step3_partition(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    struct node *nd = sgl_ctx_state(ctx);
    struct sample *pvt = nd->pvt;                           /* the root's */
    size_t npvt = nd->npvt;
    if (!sgl_ctx_is_root(ctx))                              /* IN pvt */
        SGL_TRY(sgl_recv(ctx, sizeof *pvt, (void **)&pvt, &npvt));
    if (npvt + 1 != nd->maxpid)
        return sgl_error_set(SGL_ETASK, "psrs: %zu pivots for %llu workers",
                             npvt, (unsigned long long)nd->maxpid);
    if (sgl_ctx_is_master(ctx)) {                           /* 3:15 */
        SGL_TRY(sgl_bcast(ctx, pvt, sizeof *pvt, npvt));        /* 3:16-18 */
        return sgl_pardo(ctx, step3_partition, NULL, 0);    /* 3:19-21 */
    }
    SGL_TRY(build_partitions(nd, pvt));                         /* 3:22-23 */
    free(nd->arr);                                          /* in blk now */
    nd->arr = NULL;
    nd->n = 0;
    return SGL_OK;
}

/* Superstep 4: every bucket goes up to the lowest master whose workers
 * include its destination, where it stays; the rest moves on up. */
static int step4_route_up(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    struct node *nd = sgl_ctx_state(ctx);
    struct bundle move = {0};
    uint64_t *tmp = NULL;
    size_t len = 0;
    int rc = SGL_OK;
    if (sgl_ctx_is_master(ctx)) {                           /* 4:1 */
        SGL_TRY(sgl_pardo(ctx, step4_route_up, NULL, 0));       /* 4:2-4 */
        SGL_TRY(sgl_gather_alloc(ctx, sizeof *tmp, (void **)&tmp, &len,
                             NULL));                        /* 4:5-6 */
    } else {                                                /* 4:11 */
        tmp = nd->blk.w;
        len = nd->blk.len;
        nd->blk = (struct bundle){0};
    }
    /* The master's test (4:7) is the worker's (4:13) too: a worker's
     * range is its own pid. */
    for (const struct run *r = run_first(tmp, len); r && !rc;
         r = run_next(r, tmp, len))
        rc = r->dest < nd->lower || r->dest > nd->upper
                 ? bundle_add(&move, r->dest, r->keys, r->count) /* 4:8,16 */
                 : bundle_add(&nd->stay, r->dest, r->keys,
                              r->count);                    /* 4:10,14 */
    free(tmp);
    if (!rc)
        rc = sgl_put(ctx, move.w, sizeof *move.w, move.len); /* OUT move */
    bundle_free(&move);
    return rc;
}

/* The child of a master whose workers include worker @pid. */
static unsigned child_of(sgl_ctx_t *ctx, uint64_t pid)
{
    uint64_t first = sgl_ctx_first_worker(ctx);
    unsigned c = 0, last = sgl_ctx_children(ctx) - 1;
    while (c < last && pid >= first + sgl_ctx_child_workers(ctx, c))
        first += sgl_ctx_child_workers(ctx, c++);
    return c;
}

/* Bundle(move) (4:18): each child's runs, staged for the next pardo. */
static int scatter_bundles(sgl_ctx_t *ctx, const struct bundle *move)
{
    unsigned k = sgl_ctx_children(ctx);
    struct bundle *down = calloc(k, sizeof *down);
    int rc = down ? SGL_OK
                  : sgl_error_set(SGL_ENOMEM, "psrs: no memory for %u "
                                              "bundles", k);
    for (const struct run *r = run_first(move->w, move->len); r && !rc;
         r = run_next(r, move->w, move->len))
        rc = bundle_add(&down[child_of(ctx, r->dest)], r->dest, r->keys,
                        r->count);
    for (unsigned c = 0; c < k && !rc; c++) {
        uint64_t *buf;
        if (down[c].len &&
            !(rc = sgl_scatter_buffer(ctx, c, sizeof *buf, down[c].len,
                                      (void **)&buf)))
            memcpy(buf, down[c].w, down[c].len * sizeof *buf);
    }
    for (unsigned c = 0; down && c < k; c++)
        bundle_free(&down[c]);
    free(down);
    return rc;
}

/* MergeSort (4:26) of the runs a worker received: into its arr. */
static int merge_bundle(struct node *nd, const struct bundle *move)
{
    size_t n = 0, k = 0;
    for (const struct run *r = run_first(move->w, move->len); r;
         r = run_next(r, move->w, move->len))
        n += r->count, k++;
    uint64_t *a = malloc((n ? n : 1) * sizeof *a);
    size_t *at = malloc((k + 1) * sizeof *at);
    if (!a || !at) {
        free(a);
        free(at);
        return sgl_error_set(SGL_ENOMEM, "psrs: no memory for %zu keys", n);
    }
    at[0] = 0;
    k = 0;
    for (const struct run *r = run_first(move->w, move->len); r;
         r = run_next(r, move->w, move->len)) {
        memcpy(a + at[k], r->keys, r->count * sizeof *a);
        at[k + 1] = at[k] + r->count;
        k++;
    }
    int rc = merge_runs(&a, n, at, k);
    free(at);
    if (rc) {
        free(a);
        return rc;
    }
    nd->arr = a;
    nd->n = n;
    return SGL_OK;
}

/* Superstep 5: the runs go down to their workers, which merge them. */
static int step5_route_down_merge(sgl_ctx_t *ctx, const void *arg,
                                  size_t arg_size)
{
    (void)arg, (void)arg_size;
    struct node *nd = sgl_ctx_state(ctx);
    struct bundle move = {0};
    uint64_t *tmp;
    size_t len;
    SGL_TRY(sgl_recv(ctx, sizeof *tmp, (void **)&tmp, &len));   /* IN arr */
    /* 4:20-22: what came from above joins what stayed here. */
    int rc = SGL_OK;
    for (const struct run *r = run_first(tmp, len); r && !rc;
         r = run_next(r, tmp, len))
        rc = bundle_add(&move, r->dest, r->keys, r->count);
    for (const struct run *r = run_first(nd->stay.w, nd->stay.len);
         r && !rc; r = run_next(r, nd->stay.w, nd->stay.len))
        rc = bundle_add(&move, r->dest, r->keys, r->count);
    bundle_free(&nd->stay);
    if (!rc && sgl_ctx_is_master(ctx)) {                    /* 4:17 */
        rc = scatter_bundles(ctx, &move);                   /* 4:18 */
        bundle_free(&move);
        return rc ? rc : sgl_pardo(ctx, step5_route_down_merge, NULL,
                                   0);                      /* 4:19-24 */
    }
    if (!rc)                                                /* 4:25 */
        rc = merge_bundle(nd, &move);                       /* 4:26 */
    bundle_free(&move);
    return rc;
}

/* Not in the paper: the workers' arr back to the root, in pid order,
 * to check it. */
static int collect(sgl_ctx_t *ctx, const void *arg, size_t arg_size)
{
    (void)arg, (void)arg_size;
    const struct node *nd = sgl_ctx_state(ctx);
    if (!sgl_ctx_is_master(ctx))
        return sgl_put(ctx, nd->arr, sizeof *nd->arr, nd->n);
    uint64_t *res;
    size_t n;
    SGL_TRY(sgl_pardo(ctx, collect, NULL, 0));
    SGL_TRY(sgl_gather_alloc(ctx, sizeof *res, (void **)&res, &n, NULL));
    int rc = sgl_put(ctx, res, sizeof *res, n);
    free(res);
    return rc;
}

/* ---- the program ---- */

/* Keys from a fixed seed (splitmix64): "random" 64-bit keys, "dups"
 * (16 values, each many times), or "equal" (one value). */
static int make_keys(uint64_t *x, size_t n, const char *kind)
{
    int dups = !strcmp(kind, "dups"), equal = !strcmp(kind, "equal");
    if (!dups && !equal && strcmp(kind, "random"))
        return sgl_error_set(SGL_EINVAL, "unknown kind of keys '%s' (random, "
                                         "dups or equal)", kind);
    uint64_t s = 43;
    for (size_t i = 0; i < n; i++) {
        uint64_t z = (s += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        x[i] = equal ? 42 : dups ? z % 16 : z;
    }
    return SGL_OK;
}

/* The sorted keys at the root checked against qsort of the same input. */
static int check(sgl_runtime_t *rt, const uint64_t *x, size_t n,
                 const char *kind)
{
    const uint64_t *res;
    size_t count;
    SGL_TRY(sgl_run_result(rt, sizeof *res, (const void **)&res, &count));
    if (count != n)
        return sgl_error_set(SGL_ETASK, "%zu keys came back, not %zu", count,
                             n);
    uint64_t *ref = malloc((n ? n : 1) * sizeof *ref);
    if (!ref)
        return sgl_error_set(SGL_ENOMEM, "no memory to check %zu keys", n);
    memcpy(ref, x, n * sizeof *x);
    qsort(ref, n, sizeof *ref, cmp_key);
    size_t i = 0;
    while (i < n && res[i] == ref[i])
        i++;
    int rc = i < n ? sgl_error_set(SGL_ETASK, "key %zu is %llu, qsort's %llu",
                                   i, (unsigned long long)res[i],
                                   (unsigned long long)ref[i])
                   : SGL_OK;
    free(ref);
    if (!rc)
        printf("psrs sorted %zu %s keys on %zu workers, as qsort does\n", n,
               kind, sgl_machine_workers(sgl_runtime_machine(rt)));
    return rc;
}

static const struct {
    sgl_task_fn fn;
    const char *name;
} tasks[] = {
    {step1_sort_sample, "step1_sort_sample"},
    {step2_pick_pivots, "step2_pick_pivots"},
    {step3_partition, "step3_partition"},
    {step4_route_up, "step4_route_up"},
    {step5_route_down_merge, "step5_route_down_merge"},
    {collect, "collect"},
};

int main(int argc, char **argv)
{
    sgl_runtime_t *rt = NULL;
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    const char *kind = argc > 2 ? argv[2] : "random";
    uint64_t *x = malloc((n ? n : 1) * sizeof *x);
    int rc = x ? make_keys(x, n, kind)
               : sgl_error_set(SGL_ENOMEM, "no memory for %zu keys", n);
    if (!rc)
        rc = sgl_init(&argc, &argv, NULL, &rt);
    for (size_t t = 0; !rc && t < sizeof tasks / sizeof tasks[0]; t++)
        rc = sgl_task_register(rt, tasks[t].fn, tasks[t].name);
    /* The steps in order, each a program; the keys are Step 1's IN at
     * the root, the other steps find their IN on the nodes. */
    for (size_t t = 0; !rc && t < sizeof tasks / sizeof tasks[0]; t++)
        rc = t == 0 ? sgl_run(rt, tasks[t].fn, x, n * sizeof *x)
                    : sgl_run(rt, tasks[t].fn, NULL, 0);
    if (!rc && sgl_runtime_rank(rt) == 0)
        rc = check(rt, x, n, kind);
    if (rc)
        fprintf(stderr, "psrs: %s\n", sgl_error_last());
    free(x);
    return sgl_finalize(rt) || rc ? 1 : 0;
}
