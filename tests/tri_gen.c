/* tri_gen.c - seeded random sphere-triangle queries (exact float operations and sqrt only, so
   every architecture draws the same inputs) */
#include "tri_gen.h"
#include "gen.h"

#include <math.h>

const char *const tri_family_names[TRI_NFAMILIES] = {
    "scale 1e-3", "scale 1", "scale 1e3", "far from origin", "grazing",
    "tiny motion", "overlap", "needle, sliver, degenerate", "sliding", "special values"};

static void rvec(rng *r, float s, float v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = rng_range(r, -s, s);
}

static float dot(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const float a[3], const float b[3], float o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static int unit(float d[3])
{
    float l = sqrtf(dot(d, d));
    if (!(l > 1e-20f))
        return 0;
    for (int k = 0; k < 3; k++)
        d[k] /= l;
    return 1;
}

static void rdir(rng *r, float d[3])
{
    do
        rvec(r, 1, d);
    while (dot(d, d) < 0.01f || dot(d, d) > 1.0f || !unit(d));
}

/* a unit vector perpendicular to the unit d */
static void perp(rng *r, const float d[3], float w[3])
{
    float u[3];
    do {
        rdir(r, u);
        cross(d, u, w);
    } while (!unit(w));
}

/* A random point of the triangle (barycentric), or on edge / vertex when asked. */
static void tri_point(rng *r, const float T[9], int where, float q[3])
{
    float b0 = rng_unit(r), b1 = rng_unit(r);
    if (b0 + b1 > 1)
        b0 = 1 - b0, b1 = 1 - b1;
    if (where == 1) { /* an edge */
        int e = (int)rng_below(r, 3);
        float s = rng_unit(r);
        b0 = e == 0 ? 1 - s : e == 1 ? 0 : s;
        b1 = e == 0 ? s : e == 1 ? 1 - s : 0;
    } else if (where == 2) { /* a vertex */
        int v = (int)rng_below(r, 3);
        b0 = v == 0, b1 = v == 1;
    }
    for (int k = 0; k < 3; k++)
        q[k] = T[k] + b0 * (T[3 + k] - T[k]) + b1 * (T[6 + k] - T[k]);
    (void)b1;
}

void tri_gen(rng *r, int fam, float S[7], float T[9])
{
    if (fam < 0)
        fam = (int)rng_below(r, TRI_NFAMILIES);
    static const float scales[3] = {1e-3f, 1.0f, 1e3f};
    float s = fam <= 2 ? scales[fam] : scales[rng_below(r, 3)];
    float rad = rng_below(r, 16) == 0 ? 0.0f : rng_range(r, 0, 0.5f * s);
    float p0[3], v[3], q[3];
    for (int k = 0; k < 9; k++)
        T[k] = rng_range(r, -s, s);
    rvec(r, 2 * s, p0);
    /* default: aimed near a random point of the triangle, arriving around t ~ 0.3..1.5 */
    tri_point(r, T, (int)rng_below(r, 3), q);
    float k0 = rng_range(r, 0.6f, 3.0f);
    for (int k = 0; k < 3; k++)
        v[k] = (q[k] - p0[k]) * k0 + rng_range(r, -0.3f, 0.3f) * s;
    switch (fam) {
    case 3: { /* far from the origin: the whole query moved by ~1e5 */
        for (int k = 0; k < 3; k++) {
            float off = (rng_below(r, 2) ? 1e5f : -1e5f) * rng_range(r, 0.5f, 1.0f);
            p0[k] += off;
            T[k] += off, T[3 + k] += off, T[6 + k] += off;
        }
        break;
    }
    case 4: { /* grazing an edge or a vertex: tangent to the ball of radius r(1 +- 1e-6) */
        tri_point(r, T, 1 + (int)rng_below(r, 2), q);
        float d[3], w[3];
        rdir(r, d);
        perp(r, d, w);
        float miss = rad * (1.0f + rng_range(r, -2e-6f, 2e-6f));
        float speed = rng_range(r, 0.5f, 4.0f) * s, tc = rng_range(r, 0.05f, 1.1f);
        for (int k = 0; k < 3; k++) {
            p0[k] = q[k] + d[k] * miss - w[k] * speed * tc;
            v[k] = w[k] * speed;
        }
        break;
    }
    case 5: { /* tiny motion near contact */
        tri_point(r, T, (int)rng_below(r, 3), q);
        float d[3];
        rdir(r, d);
        float dist = rad + rng_range(r, -1e-5f, 1e-5f) * s;
        for (int k = 0; k < 3; k++) {
            p0[k] = q[k] + d[k] * dist;
            v[k] = rng_range(r, -1e-6f, 1e-6f) * s;
        }
        break;
    }
    case 6: { /* overlapping at t = 0 (sometimes exactly on the triangle) */
        tri_point(r, T, (int)rng_below(r, 3), q);
        float d[3];
        rdir(r, d);
        float dist = rng_below(r, 8) == 0 ? 0.0f : rad * rng_unit(r);
        for (int k = 0; k < 3; k++)
            p0[k] = q[k] + d[k] * dist;
        if (rng_below(r, 4) == 0)
            rvec(r, 2 * s, v);
        break;
    }
    case 7: { /* needle, sliver, degenerate: c near (or on) the line ab, or coincident */
        int kind = (int)rng_below(r, 5);
        float lam = rng_range(r, -0.5f, 1.5f), eps = kind == 0 ? 0.0f : kind == 1 ? 1e-6f
                                                   : kind == 2 ? 1e-3f : 0.0f;
        float off[3];
        rvec(r, s, off);
        for (int k = 0; k < 3; k++)
            T[6 + k] = T[k] + lam * (T[3 + k] - T[k]) + eps * off[k];
        if (kind == 3) /* two coincident vertices */
            for (int k = 0; k < 3; k++)
                T[3 + (k)] = T[k];
        if (kind == 4) /* a point */
            for (int k = 0; k < 3; k++)
                T[3 + k] = T[6 + k] = T[k];
        if (rng_below(r, 2)) { /* re-aim at the degenerate triangle */
            tri_point(r, T, (int)rng_below(r, 3), q);
            for (int k = 0; k < 3; k++)
                v[k] = (q[k] - p0[k]) * k0 + rng_range(r, -0.05f, 0.05f) * s;
        }
        break;
    }
    case 8: { /* sliding: parallel to the face at distance r, or along an edge at distance r */
        float e1[3], e2[3], n[3];
        for (int k = 0; k < 3; k++)
            e1[k] = T[3 + k] - T[k], e2[k] = T[6 + k] - T[k];
        cross(e1, e2, n);
        if (!unit(n))
            break;
        float side = rng_below(r, 2) ? 1.0f : -1.0f;
        float h = rad * (rng_below(r, 2) ? 1.0f : 1.0f + rng_range(r, -1e-6f, 1e-6f));
        float w[3];
        if (rng_below(r, 2)) { /* along the face */
            tri_point(r, T, 0, q);
            perp(r, n, w);
            for (int k = 0; k < 3; k++)
                w[k] = w[k];
        } else { /* along edge ab, at distance h from its line, any side */
            tri_point(r, T, 1, q);
            for (int k = 0; k < 3; k++)
                q[k] = T[k] + rng_unit(r) * e1[k], w[k] = e1[k];
            if (!unit(w))
                break;
            float d[3];
            perp(r, w, d);
            for (int k = 0; k < 3; k++)
                n[k] = d[k];
        }
        float speed = rng_range(r, 0.2f, 3.0f) * s, tc = rng_range(r, -0.5f, 1.5f);
        for (int k = 0; k < 3; k++) {
            p0[k] = q[k] + side * h * n[k] - w[k] * speed * tc;
            v[k] = w[k] * speed;
        }
        break;
    }
    default:
        break;
    }
    for (int k = 0; k < 3; k++)
        S[k] = p0[k], S[3 + k] = v[k];
    S[6] = rad;
    if (fam == TRI_FAM_SPECIAL) {
        float all[16];
        for (int k = 0; k < 7; k++)
            all[k] = S[k];
        for (int k = 0; k < 9; k++)
            all[7 + k] = T[k];
        gen_specials(r, all, 16, 6);
        for (int k = 0; k < 7; k++)
            S[k] = all[k];
        for (int k = 0; k < 9; k++)
            T[k] = all[7 + k];
    }
}
