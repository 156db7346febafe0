/* gen.c - seeded random query generators shared by the differential, accuracy and golden
   groups. Only exact float operations and sqrt are used, so every architecture draws the same
   inputs. */
#include "gen.h"

#include <math.h>

const char *const gen_family_names[GEN_NFAMILIES] = {
    "scale 1e-3", "scale 1", "scale 1e3", "far from origin", "grazing",
    "tiny motion", "overlap", "aligned or coincident", "special values"};

static float scale_of(rng *r)
{
    static const float scales[3] = {1e-3f, 1.0f, 1e3f};
    return scales[rng_below(r, 3)];
}

static void rand_vec(rng *r, float s, float v[3])
{
    for (int k = 0; k < 3; k++)
        v[k] = rng_range(r, -s, s);
}

/* A random unit vector (up to float rounding). */
static void rand_dir(rng *r, float d[3])
{
    float l2;
    do {
        rand_vec(r, 1, d);
        l2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    } while (l2 < 0.01f || l2 > 1.0f);
    float l = sqrtf(l2);
    for (int k = 0; k < 3; k++)
        d[k] /= l;
}

void gen_specials(rng *r, float *v, int n, int radius_index)
{
    static const uint32_t specials[] = {
        0x7fc00000u, /* NaN */        0xffc00001u, /* -NaN with payload */
        0x7f800000u, /* +Inf */       0xff800000u, /* -Inf */
        0x00000001u, /* denormal */   0x80400000u, /* -denormal */
        0x7f7fffffu, /* FLT_MAX */    0x5e800000u, /* 2^62 */
        0x00000000u, /* 0 */          0x80000000u, /* -0 */
        0x1e800000u, /* 2^-66 */      0xbf800000u, /* -1 */
    };
    int count = 1 + (int)rng_below(r, 2);
    for (int c = 0; c < count; c++) {
        int i = (int)rng_below(r, (uint32_t)n);
        v[i] = bits_float(specials[rng_below(r, sizeof specials / sizeof specials[0])]);
    }
    if (rng_below(r, 4) == 0)
        v[radius_index] = -rng_unit(r);
}

void gen_pair(rng *r, int fam, float a[7], float b[7])
{
    if (fam < 0)
        fam = (int)rng_below(r, GEN_NFAMILIES);
    float s = fam <= 2 ? (fam == 0 ? 1e-3f : fam == 1 ? 1.0f : 1e3f) : scale_of(r);
    float off[3] = {0, 0, 0};
    if (fam == 3) /* far from the origin, moving a little */
        for (int k = 0; k < 3; k++)
            off[k] = (rng_below(r, 2) ? 1e5f : -1e5f) * rng_range(r, 0.5f, 1.0f);
    float ra = rng_range(r, 0, s * 0.5f), rb = rng_range(r, 0, s * 0.5f);
    if (rng_below(r, 16) == 0)
        ra = 0;
    float R = ra + rb;
    float ca[3], cb[3], va[3], vb[3];
    rand_vec(r, s, cb);
    rand_vec(r, 2 * s, va);
    rand_vec(r, s, vb);
    rand_vec(r, 2 * s, ca);
    switch (fam) {
    case 4: { /* grazing: the relative path passes at distance R (1 +- 1e-6) from B */
        float d[3], u[3], w[3];
        rand_dir(r, d);
        rand_dir(r, u);
        /* w = unit(u - (u.d) d), perpendicular to d */
        float ud = u[0] * d[0] + u[1] * d[1] + u[2] * d[2];
        for (int k = 0; k < 3; k++)
            w[k] = u[k] - ud * d[k];
        float wl = sqrtf(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        float miss = R * (1.0f + rng_range(r, -2e-6f, 2e-6f));
        float speed = rng_range(r, 0.5f, 4.0f) * s;
        float back = speed * rng_range(r, 0.1f, 0.9f); /* tangent point at t ~ 0.1..0.9 */
        for (int k = 0; k < 3; k++) {
            float rel = w[k] / wl * miss - d[k] * back; /* A relative to B at t = 0 */
            ca[k] = cb[k] + rel;
            va[k] = vb[k] + d[k] * speed;
        }
        break;
    }
    case 5: /* tiny motion near contact */
        for (int k = 0; k < 3; k++) {
            va[k] = vb[k] + rng_range(r, -1e-6f, 1e-6f) * s;
            ca[k] = cb[k] + rng_range(r, -R, R) * 1.2f;
        }
        break;
    case 6: { /* overlapping at t = 0 */
        float d[3];
        rand_dir(r, d);
        float dist = R * rng_unit(r);
        for (int k = 0; k < 3; k++)
            ca[k] = cb[k] + d[k] * dist;
        break;
    }
    case 7: { /* aligned paths and coincident centres */
        float d[3];
        rand_dir(r, d);
        float dist = rng_below(r, 4) == 0 ? 0.0f : rng_range(r, 0, 3 * s);
        float sp = rng_range(r, -4 * s, 4 * s);
        for (int k = 0; k < 3; k++) {
            ca[k] = cb[k] + d[k] * dist;
            va[k] = vb[k] + d[k] * sp;
        }
        if (rng_below(r, 3) == 0)
            ra = rb = 0;
        break;
    }
    default:
        break;
    }
    for (int k = 0; k < 3; k++) {
        a[k] = off[k] + ca[k];
        b[k] = off[k] + cb[k];
        a[3 + k] = va[k];
        b[3 + k] = vb[k];
    }
    a[6] = ra;
    b[6] = rb;
    if (fam == 8) {
        float both[14];
        memcpy(both, a, 7 * sizeof(float));
        memcpy(both + 7, b, 7 * sizeof(float));
        gen_specials(r, both, 14, rng_below(r, 2) ? 6 : 13);
        memcpy(a, both, 7 * sizeof(float));
        memcpy(b, both + 7, 7 * sizeof(float));
    }
}

void gen_plane(rng *r, toi_plane *p)
{
    float d[3];
    if (rng_below(r, 4) == 0) { /* an axis plane */
        d[0] = d[1] = d[2] = 0;
        d[rng_below(r, 3)] = rng_below(r, 2) ? 1.0f : -1.0f;
    } else {
        rand_dir(r, d);
    }
    p->nx = d[0], p->ny = d[1], p->nz = d[2];
    p->d = rng_range(r, -10, 10) * scale_of(r);
}

void gen_plane_sphere(rng *r, int fam, const toi_plane *p, float s[7])
{
    if (fam < 0)
        fam = (int)rng_below(r, GEN_NFAMILIES);
    float sc = fam <= 2 ? (fam == 0 ? 1e-3f : fam == 1 ? 1.0f : 1e3f) : scale_of(r);
    float rad = rng_below(r, 16) == 0 ? 0.0f : rng_range(r, 0, sc * 0.5f);
    /* a point on the plane, then offset along the normal */
    float base[3], v[3];
    rand_vec(r, 4 * sc, base);
    if (fam == 3)
        for (int k = 0; k < 3; k++)
            base[k] += rng_below(r, 2) ? 1e5f : -1e5f;
    float bn = base[0] * p->nx + base[1] * p->ny + base[2] * p->nz - p->d;
    float h = rng_range(r, -1.0f, 3.0f) * sc;
    rand_vec(r, 3 * sc, v);
    switch (fam) {
    case 4: { /* grazing: ends exactly at distance r (+- tiny) at some t */
        float tt = rng_unit(r) * 1.2f;
        float vn = -rng_range(r, 0.1f, 3.0f) * sc;
        h = rad * (1.0f + rng_range(r, -1e-6f, 1e-6f)) - vn * tt;
        float vv = v[0] * p->nx + v[1] * p->ny + v[2] * p->nz;
        for (int k = 0; k < 3; k++)
            v[k] += (vn - vv) * (&p->nx)[k];
        break;
    }
    case 5: /* tiny motion */
        for (int k = 0; k < 3; k++)
            v[k] *= 1e-6f;
        h = rad + rng_range(r, -1e-5f, 1e-5f) * sc;
        break;
    case 6: /* overlapping */
        h = rng_range(r, -rad, rad);
        break;
    case 7: { /* motion parallel to the plane */
        float vv = v[0] * p->nx + v[1] * p->ny + v[2] * p->nz;
        for (int k = 0; k < 3; k++)
            v[k] -= vv * (&p->nx)[k];
        break;
    }
    default:
        break;
    }
    for (int k = 0; k < 3; k++) {
        s[k] = base[k] + (h - bn) * (&p->nx)[k];
        s[3 + k] = v[k];
    }
    s[6] = rad;
    if (fam == 8)
        gen_specials(r, s, 7, 6);
}
