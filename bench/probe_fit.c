/* sgl-probe's fits and the clamping of negative ones (probe_fit.h). */
#include "probe_fit.h"

#include <math.h>
#include <string.h>

struct probe_fit probe_fit_points(const double *x, const double *t, size_t n,
                                  double lo, double hi)
{
    double sw = 0, sk = 0, st = 0, skk = 0, skt = 0;
    struct probe_fit f = {0, 0, 0, 0, 0};
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
    return f;
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
    /* The note lists every clamp; one that no longer fits ends it with
     * "..." rather than being dropped silently. */
    size_t len = strlen(c->note), room = sizeof c->note - len;
    int n = snprintf(c->note + len, room, "%slevel %u %s %.4g %s",
                     c->count ? ", "
                              : "sgl-probe clamped negative fits "
                                "to 0: ",
                     level, what, shown, u);
    if (n < 0 || (size_t)n >= room)
        memcpy(c->note + sizeof c->note - 4, "...", 4);
    c->count++;
    return 0;
}
