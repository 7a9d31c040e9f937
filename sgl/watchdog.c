/* The watchdog: a superstep that never ends (a task stuck in a loop, a
 * peer that stopped) would otherwise hang the job silently. The thread
 * looks at the pardos this process runs a few times a second; one that
 * has run longer than the limit ends the process with a message, and
 * mpirun then ends the job. It reads only what the masters publish
 * atomically (pardo_start, returned) and the immutable tree, and calls
 * no MPI (the runtime needs only MPI_THREAD_FUNNELED). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "watchdog.h"

struct sgl_watchdog {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop;
};

double sgl__watch_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The first master at or below @c, depth first, whose pardo has run
 * longer than @limit, and for how long; NULL if none has. */
static const struct sgl_ctx *overdue(const struct sgl_ctx *c, double now,
                                     double limit, double *ret_ran)
{
    if (!c || c->node->arity == 0)
        return NULL;
    double start = atomic_load_explicit(&c->pardo_start, memory_order_relaxed);
    if (start > 0 && now - start > limit) {
        *ret_ran = now - start;
        return c;
    }
    for (unsigned i = 0; i < c->node->arity; i++) {
        const struct sgl_ctx *o = overdue(c->child[i], now, limit, ret_ran);
        if (o)
            return o;
    }
    return NULL;
}

static void bark(const struct sgl_runtime *rt, const struct sgl_ctx *m,
                 double ran)
{
    char msg[SGL_ERRMSG_MAX];
    const struct sgl_node *n = m->node;
    int len = snprintf(msg, sizeof msg,
                       "sgl: watchdog: the superstep of %s L#%u at level %u "
                       "(rank %d) has run %.1f s, over the limit of %g s; "
                       "children not returned:",
                       n->type, n->index, n->level, rt->rank, ran,
                       rt->watchdog);
    for (unsigned i = 0; i < n->arity && len < (int)sizeof msg; i++)
        if (!atomic_load_explicit(&m->returned[i], memory_order_relaxed))
            len += snprintf(msg + len, sizeof msg - (size_t)len,
                            " %u (rank %d)", i, n->child[i]->rank);
    /* The library never prints, except here: the process ends next and
     * the message has no other way out. */
    fprintf(stderr, "%s\n", msg);
    fflush(stderr);
    _exit(SGL__WATCHDOG_EXIT);
}

static void *watch(void *arg)
{
    struct sgl_runtime *rt = arg;
    struct sgl_watchdog *d = rt->dog;
    double period = rt->watchdog / 4 < 0.1 ? rt->watchdog / 4 : 0.1;
    pthread_mutex_lock(&d->lock);
    while (!d->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        long ns = until.tv_nsec + (long)(period * 1e9);
        until.tv_sec += ns / 1000000000L;
        until.tv_nsec = ns % 1000000000L;
        pthread_cond_timedwait(&d->wake, &d->lock, &until);
        double ran = 0;
        const struct sgl_ctx *m =
            overdue(rt->entry, sgl__watch_clock(), rt->watchdog, &ran);
        if (m && !d->stop)
            bark(rt, m, ran);
    }
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

int sgl__watchdog_start(struct sgl_runtime *rt)
{
    if (!(rt->watchdog > 0))
        return SGL_OK;
    struct sgl_watchdog *d = calloc(1, sizeof *d);
    if (!d)
        return sgl_error_set(SGL_ENOMEM, "sgl_init: out of memory for the "
                                         "watchdog");
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->wake, NULL);
    rt->dog = d;
    if (pthread_create(&d->thread, NULL, watch, rt) != 0) {
        pthread_mutex_destroy(&d->lock);
        pthread_cond_destroy(&d->wake);
        free(d);
        rt->dog = NULL;
        return sgl_error_set(SGL_ENOMEM, "sgl_init: cannot start the "
                                         "watchdog's thread");
    }
    return SGL_OK;
}

void sgl__watchdog_stop(struct sgl_runtime *rt)
{
    struct sgl_watchdog *d = rt->dog;
    if (!d)
        return;
    pthread_mutex_lock(&d->lock);
    d->stop = 1;
    pthread_cond_signal(&d->wake);
    pthread_mutex_unlock(&d->lock);
    pthread_join(d->thread, NULL);
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->wake);
    free(d);
    rt->dog = NULL;
}
