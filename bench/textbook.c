/* textbook.c - peer: the classic quadratic sweep, scalar, array of structs, one branchy query
   at a time, as game-physics textbooks present it. Built only into the benchmark. */
#include "bench.h"

#include <math.h>

/* Moving sphere A against moving sphere B: solve |s + t v| = R for the relative start s and
   motion v, taking the smaller root. Overlap at t = 0 is reported only when approaching (the
   library's rule), so the two agree wherever the geometry is not within rounding of a touch. */
static int sweep_pair(const aos_sphere *A, const aos_sphere *B, int full, aos_hit *h)
{
    float s[3], v[3];
    for (int i = 0; i < 3; i++)
        s[i] = A->c[i] - B->c[i], v[i] = A->v[i] - B->v[i];
    float R = A->r + B->r;
    float c = s[0] * s[0] + s[1] * s[1] + s[2] * s[2] - R * R;
    float b = s[0] * v[0] + s[1] * v[1] + s[2] * v[2];
    float t;
    if (b >= 0.0f)
        return 0; /* not approaching */
    if (c <= 0.0f) {
        t = 0.0f;
    } else {
        float a = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        float d = b * b - a * c;
        if (d < 0.0f)
            return 0;
        t = (-b - sqrtf(d)) / a;
        if (t > 1.0f)
            return 0;
    }
    h->t = t;
    if (full) {
        float d[3];
        for (int i = 0; i < 3; i++)
            d[i] = s[i] + t * v[i];
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        float inv = len > 0.0f ? 1.0f / len : 0.0f;
        for (int i = 0; i < 3; i++) {
            h->n[i] = d[i] * inv;
            h->p[i] = B->c[i] + t * B->v[i] + h->n[i] * B->r;
        }
        h->depth = c <= 0.0f ? R - len : 0.0f;
    }
    return 1;
}

static void miss(aos_hit *h, int full)
{
    h->t = INFINITY;
    if (full) {
        h->n[0] = h->n[1] = h->n[2] = 0.0f;
        h->p[0] = h->p[1] = h->p[2] = 0.0f;
        h->depth = 0.0f;
    }
}

size_t textbook_spheres(const bench_scene *sc, size_t first, size_t n, int full,
                        const bench_out *o)
{
    const aos_sphere *p = sc->aos + 2 * first;
    aos_hit *h = o->aos + first;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        if (sweep_pair(&p[2 * i], &p[2 * i + 1], full, &h[i]))
            hits++;
        else
            miss(&h[i], full);
    }
    return hits;
}

size_t textbook_pairs(const bench_scene *sc, size_t first, size_t n, int full,
                      const bench_out *o)
{
    const uint32_t *ia = sc->ia + first, *ib = sc->ib + first;
    aos_hit *h = o->aos + first;
    size_t hits = 0;
    for (size_t k = 0; k < n; k++) {
        if (sweep_pair(&sc->aos[ia[k]], &sc->aos[ib[k]], full, &h[k]))
            hits++;
        else
            miss(&h[k], full);
    }
    return hits;
}

/* Sphere against the plane n.x = d (solid below): signed distance s0 = n.c - d, contact when
   s0 + t n.v = r while approaching. */
size_t textbook_plane(const bench_scene *sc, size_t first, size_t n, int full,
                      const bench_out *o)
{
    const toi_plane P = sc->plane;
    const aos_sphere *s = sc->aos + first;
    aos_hit *h = o->aos + first;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        const aos_sphere *S = &s[i];
        float s0 = P.nx * S->c[0] + P.ny * S->c[1] + P.nz * S->c[2] - P.d;
        float vn = P.nx * S->v[0] + P.ny * S->v[1] + P.nz * S->v[2];
        float t;
        if (vn >= 0.0f) {
            miss(&h[i], full);
            continue;
        }
        if (s0 <= S->r) {
            t = 0.0f;
        } else {
            t = (S->r - s0) / vn;
            if (t > 1.0f) {
                miss(&h[i], full);
                continue;
            }
        }
        h[i].t = t;
        if (full) {
            float st = s0 + t * vn;
            h[i].n[0] = P.nx, h[i].n[1] = P.ny, h[i].n[2] = P.nz;
            h[i].p[0] = S->c[0] + t * S->v[0] - st * P.nx;
            h[i].p[1] = S->c[1] + t * S->v[1] - st * P.ny;
            h[i].p[2] = S->c[2] + t * S->v[2] - st * P.nz;
            h[i].depth = t == 0.0f ? S->r - s0 : 0.0f;
        }
        hits++;
    }
    return hits;
}
