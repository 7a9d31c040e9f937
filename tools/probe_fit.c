/* sgl-probe's fits and the clamping of negative ones (probe_fit.h). */
#include "probe_fit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct probe_fit probe_fit_points(const double *x, const double *t, size_t n,
                                  double lo, double hi)
{
    double sw = 0, sk = 0, st = 0, skk = 0, skt = 0;
    struct probe_fit f = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        double k = x[i];
        if (k < lo || k > hi || !(t[i] > 0))
            continue;
        double w = 1 / (t[i] * t[i]);
        sw += w, sk += w * k, st += w * t[i], skk += w * k * k,
            skt += w * k * t[i];
        f.points++;
    }
    double det = sw * skk - sk * sk;
    if (f.points < 2 || det == 0)
        return f;
    f.b = (sw * skt - sk * st) / det;
    f.a = (st - f.b * sk) / sw;
    double mean = st / sw, ss_res = 0, ss_tot = 0;
    for (size_t i = 0; i < n; i++) {
        double k = x[i];
        if (k < lo || k > hi || !(t[i] > 0))
            continue;
        double w = 1 / (t[i] * t[i]), e = t[i] - (f.a + f.b * k);
        ss_res += w * e * e;
        ss_tot += w * (t[i] - mean) * (t[i] - mean);
        if (fabs(e) / t[i] > f.worst)
            f.worst = fabs(e) / t[i];
    }
    f.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
    f.a_lo = f.a_hi = f.a;
    f.b_lo = f.b_hi = f.b;
    return f;
}

#define BOOT_RESAMPLES 400
#define BOOT_MAX_POINTS 64

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A small xorshift generator: the same intervals on every run of the same
 * measurements. */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

void probe_fit_interval(const double *x, const double *t, size_t n,
                        double lo, double hi, struct probe_fit *f)
{
    double px[BOOT_MAX_POINTS], pt[BOOT_MAX_POINTS];
    size_t m = 0;
    for (size_t i = 0; i < n && m < BOOT_MAX_POINTS; i++)
        if (x[i] >= lo && x[i] <= hi && t[i] > 0) {
            px[m] = x[i];
            pt[m++] = t[i];
        }
    if (m < 3 || f->points < 2)
        return;
    static double as[BOOT_RESAMPLES], bs[BOOT_RESAMPLES];
    double rx[BOOT_MAX_POINTS], rt[BOOT_MAX_POINTS];
    uint64_t seed = 0x9e3779b97f4a7c15u;
    int got = 0;
    for (int r = 0, tries = 0; r < BOOT_RESAMPLES && tries < 20 * BOOT_RESAMPLES;
         tries++) {
        int distinct = 0;
        for (size_t i = 0; i < m; i++) {
            size_t j = (size_t)(next_rand(&seed) % m);
            rx[i] = px[j];
            rt[i] = pt[j];
            distinct |= rx[i] != rx[0];
        }
        if (!distinct)
            continue;
        struct probe_fit g = probe_fit_points(rx, rt, m, lo, hi);
        if (g.points < 2 || !isfinite(g.a) || !isfinite(g.b) ||
            (g.a == 0 && g.b == 0))
            continue;
        as[r] = g.a;
        bs[r] = g.b;
        r++;
        got = r;
    }
    if (got < 10)
        return;
    qsort(as, (size_t)got, sizeof *as, cmp_double);
    qsort(bs, (size_t)got, sizeof *bs, cmp_double);
    size_t ilo = (size_t)(0.025 * (got - 1)), ihi = (size_t)(0.975 * (got - 1) + 0.5);
    f->a_lo = fmin(as[ilo], f->a);
    f->a_hi = fmax(as[ihi], f->a);
    f->b_lo = fmin(bs[ilo], f->b);
    f->b_hi = fmax(bs[ihi], f->b);
}

void probe_median_interval(const double *sorted, int n, double *ret_lo,
                           double *ret_hi)
{
    /* The largest k with P(Binomial(n, 1/2) <= k - 1) <= 2.5%: then
     * [x(k), x(n + 1 - k)] (1-based) holds the median with >= 95%. */
    int k = 1;
    double cdf = 0, term = ldexp(1.0, -n); /* P(X = 0) */
    for (int j = 0; j < n / 2; j++) {
        cdf += term;                      /* P(X <= j) */
        if (cdf > 0.025)
            break;
        k = j + 1;
        term = term * (n - j) / (j + 1);  /* P(X = j + 1) */
    }
    *ret_lo = sorted[k - 1];
    *ret_hi = sorted[n - k];
}

int probe_median(const double *sorted, int n, double *ret_c, double *ret_lo,
                 double *ret_hi)
{
    if (n < 1)
        return -1;
    *ret_c = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    probe_median_interval(sorted, n, ret_lo, ret_hi);
    return 0;
}

/* Add "level L what v unit" to @p c's note, which a machine file keeps
 * in its provenance; one that no longer fits ends it with "..." rather
 * than being dropped silently. */
static void note_add(struct probe_clamps *c, unsigned level, const char *what,
                     double shown, const char *u)
{
    size_t len = strlen(c->note), room = sizeof c->note - len;
    int n = snprintf(c->note + len, room, "%slevel %u %s %.4g %s",
                     c->count ? ", "
                              : "sgl-probe clamped negative fits "
                                "to 0: ",
                     level, what, shown, u);
    if (n < 0 || (size_t)n >= room)
        memcpy(c->note + sizeof c->note - 4, "...", 4);
    c->count++;
}

double probe_clamp(struct probe_clamps *c, FILE *warn, unsigned level,
                   const char *what, double v, enum probe_unit unit)
{
    if (!(v < 0))
        return v;
    int per_byte = unit == PROBE_SECONDS_PER_BYTE;
    double shown = per_byte ? 1e9 * v : 1e6 * v;
    const char *u = per_byte ? "ns/B" : "us";
    fprintf(warn,
            "sgl-probe: warning: level %u: the fitted %s came out negative "
            "(%.4g %s); clamped to 0\n",
            level, what, shown, u);
    note_add(c, level, what, shown, u);
    return 0;
}

int probe_note_negative(struct probe_clamps *c, FILE *out, unsigned level,
                        const char *what, double v, enum probe_unit unit)
{
    if (!(v < 0))
        return 0;
    int per_byte = unit == PROBE_SECONDS_PER_BYTE;
    double shown = per_byte ? 1e9 * v : 1e6 * v;
    const char *u = per_byte ? "ns/B" : "us";
    fprintf(out,
            "    warning: the %s fitted negative (%.4g %s): noise; 0 where "
            "the machine file uses it\n",
            what, shown, u);
    note_add(c, level, what, shown, u);
    return 1;
}
