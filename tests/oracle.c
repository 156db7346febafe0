/* oracle.c - long-double contact oracle: golden-section search for the minimum of a convex f
   on [0,1], then bisection for the first crossing of R; for the exit, a doubling step past
   the contact interval, then bisection for the last crossing. */
#include "oracle.h"
#include "test.h"

#include <float.h>
#include <math.h>

ld ld_abs(ld x) { return x < 0 ? -x : x; }
ld ld_sqrt(ld x) { return sqrtl(x); }
ld ld_norm3(ld x, ld y, ld z)
{
    /* scaled, so no intermediate over- or underflows */
    ld m = ld_abs(x);
    if (ld_abs(y) > m) m = ld_abs(y);
    if (ld_abs(z) > m) m = ld_abs(z);
    if (m == 0) return 0;
    x /= m, y /= m, z /= m;
    return m * sqrtl(x * x + y * y + z * z);
}

oracle_normal oracle_normal_check(const float nv[3], const ld d[3], ld delta, ld any)
{
    oracle_normal o;
    ld dl = ld_norm3(d[0], d[1], d[2]), e = 0;
    o.tol = dl > 4 * delta ? 4 * delta / dl + 1e-6L : any;
    for (int k = 0; k < 3; k++) {
        o.n[k] = dl > 0 ? d[k] / dl : (k == 0);
        e += (nv[k] - o.n[k]) * (nv[k] - o.n[k]);
    }
    o.err = ld_sqrt(e);
    o.len = ld_norm3(nv[0], nv[1], nv[2]);
    o.ok = ld_abs(o.len - 1) <= 1e-6L && o.err <= o.tol;
    return o;
}

oracle_hit oracle_first_contact(oracle_fn f, const void *q, ld R, ld slope0, int all_overlaps)
{
    oracle_hit none = {0, 0};
    ld f0 = f(q, 0);
    if (f0 <= R) {
        if (slope0 < 0 || all_overlaps)
            return (oracle_hit){1, 0};
        return none; /* convex and not decreasing at 0: never closer later */
    }
    /* minimum of the convex f on [0,1] */
    const ld g = 0.6180339887498948482045868343656381L;
    ld lo = 0, hi = 1, x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    ld f1 = f(q, x1), f2 = f(q, x2);
    for (int i = 0; i < 120; i++) {
        if (f1 <= f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = f(q, x1);
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = f(q, x2);
        }
    }
    ld tmin = f1 <= f2 ? x1 : x2, fmin = f1 <= f2 ? f1 : f2;
    ld fe = f(q, 1); /* the end point, which the search may only approach */
    if (fe <= fmin)
        tmin = 1, fmin = fe;
    if (fmin > R)
        return none;
    /* f(0) > R >= f(tmin), f decreasing on [0, tmin]: bisect for the crossing */
    lo = 0, hi = tmin;
    for (int i = 0; i < 200 && lo < hi; i++) {
        ld mid = (lo + hi) / 2;
        if (mid <= lo || mid >= hi)
            break;
        if (f(q, mid) > R)
            lo = mid;
        else
            hi = mid;
    }
    return (oracle_hit){1, hi};
}

ld oracle_last_contact(oracle_fn f, const void *q, ld R, ld t_in)
{
    const ld cap = 0x1p140L;
    ld lo = t_in, step = 1, hi = t_in + step;
    while (f(q, hi) <= R) {
        lo = hi;
        step *= 2;
        hi = t_in + step;
        if (hi > cap)
            return INFINITY;
    }
    /* f(lo) <= R < f(hi): one crossing between them (f is convex and f(t_in) <= R) */
    for (int i = 0; i < 400; i++) {
        ld mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi)
            break;
        if (f(q, mid) <= R)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The exit time te of the result t: TOI_NO_HIT for a miss; for a hit at least t, and
   between the shrunk pair's exit (from its first contact hs; t when it has none) and the
   grown pair's, each widened by the float rounding of the result. An exit beyond the float
   range reads +inf. qs and qg: the query for the shrunk and the grown bound (the plane's
   exit also allows its normal speed changed by the margin; two spheres: both q). */
int oracle_exit_check(oracle_fn f, const void *qs, const void *qg, ld R, ld delta, oracle_hit hs,
                      oracle_hit hg, float t, float te, const char *what, size_t i)
{
    if (t == TOI_NO_HIT) {
        if (te != TOI_NO_HIT)
            CHECK(0, "%s %zu: miss but t_exit = %.9g", what, i, te);
        return te == TOI_NO_HIT;
    }
    if (!(te >= t)) {
        CHECK(0, "%s %zu: t_exit = %.9g before t = %.9g", what, i, te, t);
        return 0;
    }
    if (!hg.hit)
        return 1; /* an accepted tangential hit: no exit to compare with */
    ld hi = oracle_last_contact(f, qg, R + delta, hg.t);
    ld lo = hs.hit && f(qs, hs.t) <= R - delta ? oracle_last_contact(f, qs, R - delta, hs.t)
                                               : (ld)t;
    ld fmax = (ld)FLT_MAX, eps = (ld)FLT_EPSILON;
    if (hi > fmax)
        hi = INFINITY;
    int ok = lo > fmax ? te == INFINITY
                       : te >= lo - 2 * eps * (lo > 1 ? lo : 1) &&
                             te <= hi + 2 * eps * (hi > 1 ? hi : 1);
    if (!ok)
        CHECK(0, "%s %zu: t_exit = %.9g outside [%.9Lg, %.9Lg] (t = %.9g)", what, i, te, lo, hi,
              t);
    return ok;
}
