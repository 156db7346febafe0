/* tri_gen.c - seeded random sphere-triangle queries (exact float operations and sqrt only, so
   every architecture draws the same inputs) */
#include "tri_gen.h"
#include "gen.h"

#include <math.h>

const char *const tri_family_names[TRI_NFAMILIES] = {
    "scale 1e-3", "scale 1", "scale 1e3", "far from origin", "grazing",
    "tiny motion", "overlap", "needle, sliver, degenerate", "sliding", "floor slide",
    "exact edge and vertex grazing", "special values"};

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

/* A dyadic value k / 64 for k in [lo, hi]: exact, and so are sums of a few of them. */
static float dyadic(rng *r, int lo, int hi)
{
    return (float)(lo + (int)rng_below(r, (uint32_t)(hi - lo + 1))) * 0x1p-6f;
}

/* The whole query (sphere and triangle) mapped by an exact isometry and scale: the axes
   permuted and their signs flipped, everything scaled by 2^e; axis-aligned constructions
   then take every orientation of the axes without rounding. */
static void exact_transform(rng *r, float S[7], float T[9])
{
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1},
                                    {2, 1, 0}};
    const int *pm = perms[rng_below(r, 6)];
    float sg[3], sc = ldexpf(1.0f, (int)rng_below(r, 21) - 10);
    for (int k = 0; k < 3; k++)
        sg[k] = rng_below(r, 2) ? sc : -sc;
    float *vecs[5] = {S, S + 3, T, T + 3, T + 6};
    for (int j = 0; j < 5; j++) {
        float w[3];
        for (int k = 0; k < 3; k++)
            w[k] = vecs[j][pm[k]] * sg[k];
        for (int k = 0; k < 3; k++)
            vecs[j][k] = w[k];
    }
    S[6] *= sc;
}

/* Family "floor slide" (issue: a sphere sliding on a triangulated floor at exactly its
   radius): a floor triangle at height h (a quarter of them collinear, a segment), the centre
   at exactly h +- r and moving parallel to the floor across the triangle, its edges and
   vertices; a quarter of the paths tilt or sit off the exact height by a few ulps. */
static void floor_slide(rng *r, float S[7], float T[9])
{
    float h = dyadic(r, -64, 64), rad = dyadic(r, 1, 48);
    for (int j = 0; j < 3; j++) {
        T[3 * j] = dyadic(r, -128, 128);
        T[3 * j + 1] = dyadic(r, -128, 128);
        T[3 * j + 2] = h;
    }
    if (rng_below(r, 4) == 0) { /* collinear: c on the line ab (exact: quarter steps) */
        float lam = (float)((int)rng_below(r, 13) - 4) * 0.25f;
        for (int k = 0; k < 2; k++)
            T[6 + k] = T[k] + lam * (T[3 + k] - T[k]);
    }
    float side = rng_below(r, 2) ? 1.0f : -1.0f;
    float q[3];
    tri_point(r, T, (int)rng_below(r, 3), q);
    S[0] = dyadic(r, -192, 192), S[1] = dyadic(r, -192, 192), S[2] = h + side * rad;
    float k0 = rng_range(r, 0.5f, 3.0f);
    S[3] = (q[0] - S[0]) * k0, S[4] = (q[1] - S[1]) * k0, S[5] = 0.0f;
    S[6] = rad;
    switch (rng_below(r, 8)) {
    case 0: { /* a slight tilt toward or away from the floor (draws sequenced: argument
                 evaluation order differs between compilers) */
        float tilt = rng_range(r, -1, 1);
        S[5] = ldexpf(tilt, -(int)rng_below(r, 24));
        break;
    }
    case 1: /* a few ulps off the exact height */
        S[2] = nextafterf(S[2], rng_below(r, 2) ? INFINITY : -INFINITY);
        break;
    default:
        break;
    }
    exact_transform(r, S, T);
}

/* Family "exact edge and vertex grazing": an axis-aligned edge ab (along x), the path
   parallel to it or crossing past a vertex at exactly distance r from the edge's line or
   the vertex (offset along y or z), so the cylinder or ball is touched tangentially. */
static void axis_graze(rng *r, float S[7], float T[9])
{
    float y0 = dyadic(r, -64, 64), z0 = dyadic(r, -64, 64), rad = dyadic(r, 0, 48);
    T[0] = dyadic(r, -128, 0), T[1] = y0, T[2] = z0;
    T[3] = dyadic(r, 1, 128), T[4] = y0, T[5] = z0;
    for (int k = 6; k < 9; k++)
        T[k] = dyadic(r, -128, 128);
    if (rng_below(r, 8) == 0) /* collinear with the edge */
        T[7] = y0, T[8] = z0;
    int axis = 1 + (int)rng_below(r, 2); /* offset along y or z */
    float side = rng_below(r, 2) ? 1.0f : -1.0f;
    S[0] = dyadic(r, -256, 256), S[1] = y0, S[2] = z0;
    S[axis] += side * rad;
    float speed = dyadic(r, 16, 512);
    S[3] = rng_below(r, 2) ? speed : -speed, S[4] = 0.0f, S[5] = 0.0f;
    if (rng_below(r, 2)) { /* past vertex a: move along the other offset axis instead */
        int other = 3 - axis;
        S[0] = T[0];
        S[other] = T[other] + dyadic(r, -256, 256);
        S[3] = 0.0f;
        S[3 + other] = T[other] - S[other] > 0 ? speed : -speed;
        S[axis] = T[axis] + side * rad;
    }
    S[6] = rad;
    exact_transform(r, S, T);
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
    case 9:
        floor_slide(r, S, T);
        return;
    case 10:
        axis_graze(r, S, T);
        return;
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
