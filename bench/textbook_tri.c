/* textbook_tri.c - peer: a plain scalar sphere-triangle sweep, array of structs, one branchy
   query at a time, in the classic decomposition collision-detection textbooks present: the
   swept sphere against the triangle's face (the plane at distance r, then an inside test),
   then its three edges (cylinders of radius r clipped to the segment) and its three vertices
   (spheres of radius r). Every edge and vertex is tested, not only the one nearest where the
   path meets the plane. It early-outs wherever plain code would: a triangle whose plane the
   sphere never comes within r of, a face contact (nothing can come earlier), pieces the
   sphere moves away from, and in a set every time later than the best so far. Built only into
   the benchmark; its hit/miss agreement with toi is reported. */
#include "bench.h"
#include "textbook_geom.h"

#include <math.h>

static vec3 v3(const float p[3])
{
    return (vec3){p[0], p[1], p[2]};
}

static void store(aos_hit *h, int full, float t, vec3 centre, vec3 q, vec3 fallback_n,
                  float depth)
{
    h->t = t;
    if (!full)
        return;
    vec3 d = sub(centre, q);
    float len = sqrtf(dot(d, d));
    vec3 n = len > 0.0f ? scale(d, 1.0f / len) : fallback_n;
    h->n[0] = n.x, h->n[1] = n.y, h->n[2] = n.z;
    h->p[0] = q.x, h->p[1] = q.y, h->p[2] = q.z;
    h->depth = depth;
}

/* Sphere S against triangle tri: the first contact at t in [0, tmax] (the library's rule at
   t = 0: a sphere already touching hits only if it moves closer). Returns 1 and fills *h on a
   hit, 0 on a miss (h untouched). */
static int sweep_tri(const aos_sphere *S, const aos_tri *tri, float tmax, int full, aos_hit *h)
{
    vec3 c = v3(S->c), v = v3(S->v);
    float r = S->r;
    triangle T = {.has_face = 0};
    T.V[0] = v3(tri->a), T.V[1] = v3(tri->b), T.V[2] = v3(tri->c);
    for (int k = 0; k < 3; k++)
        T.E[k] = sub(T.V[(k + 1) % 3], T.V[k]);
    vec3 N = cross(T.E[0], sub(T.V[2], T.V[0]));
    float nn = dot(N, N);
    T.has_face = nn > 0.0f;
    float d0 = 0.0f, dn = 0.0f;
    if (T.has_face) {
        T.n = scale(N, 1.0f / sqrtf(nn));
        d0 = dot(T.n, sub(c, T.V[0])); /* signed distance of the centre from the plane */
        dn = dot(T.n, v);
        /* never within r of the plane before tmax: no contact at all */
        if ((d0 > r && d0 + tmax * dn > r) || (d0 < -r && d0 + tmax * dn < -r))
            return 0;
        for (int k = 0; k < 3; k++)
            T.m[k] = cross(T.n, T.E[k]);
    }
    vec3 side_n = d0 >= 0.0f ? T.n : scale(T.n, -1.0f); /* toward the start's side */

    /* Touching at t = 0: a hit only when moving closer. */
    vec3 q0 = closest_on_triangle(&T, c);
    vec3 d = sub(c, q0);
    float dist2 = dot(d, d);
    if (dist2 <= r * r) {
        if (!(dot(d, v) < 0.0f))
            return 0;
        store(h, full, 0.0f, c, q0, side_n, r - sqrtf(dist2));
        return 1;
    }

    /* Face: the centre reaches distance r from the plane at t; a contact there inside the
       triangle is the first. */
    if (T.has_face && fabsf(d0) > r && d0 * dn < 0.0f) {
        float side = d0 > 0.0f ? 1.0f : -1.0f;
        float t = (side * r - d0) / dn;
        if (t <= tmax) {
            vec3 p = add(c, scale(v, t));
            vec3 x = sub(p, scale(T.n, side * r));
            if (inside(&T, x)) {
                store(h, full, t, p, x, side_n, 0.0f);
                return 1;
            }
        }
    }

    /* Edges: |(m + t v) x e|^2 = r^2 |e|^2 with m = c - V, the contact inside the segment. */
    float best = tmax, vv = dot(v, v);
    int found = 0;
    vec3 q = c;
    for (int k = 0; k < 3; k++) {
        vec3 e = T.E[k], m = sub(c, T.V[k]);
        float ee = dot(e, e), md = dot(m, e), nd = dot(v, e);
        float a = ee * vv - nd * nd;
        float b = ee * dot(m, v) - nd * md;
        float cc = ee * (dot(m, m) - r * r) - md * md;
        if (ee <= 0.0f || a <= 0.0f || cc <= 0.0f || b >= 0.0f)
            continue; /* no edge, parallel, inside the cylinder, or moving away */
        float disc = b * b - a * cc;
        if (disc < 0.0f)
            continue;
        float t = (-b - sqrtf(disc)) / a;
        if (t > best)
            continue;
        float s = md + t * nd;
        if (s < 0.0f || s > ee)
            continue;
        best = t, found = 1;
        q = add(T.V[k], scale(e, s / ee));
    }
    /* Vertices: |m + t v| = r; on a tie a vertex beats an edge. */
    for (int k = 0; k < 3; k++) {
        vec3 m = sub(c, T.V[k]);
        float b = dot(m, v);
        if (b >= 0.0f)
            continue;
        float disc = b * b - vv * (dot(m, m) - r * r);
        if (disc < 0.0f)
            continue;
        float t = (-b - sqrtf(disc)) / vv;
        if (t > best)
            continue;
        best = t, found = 1;
        q = T.V[k];
    }
    if (!found)
        return 0;
    store(h, full, best, add(c, scale(v, best)), q, side_n, 0.0f);
    return 1;
}

static void miss(aos_hit *h, int full)
{
    h->t = INFINITY;
    h->index = UINT32_MAX;
    if (full) {
        h->n[0] = h->n[1] = h->n[2] = 0.0f;
        h->p[0] = h->p[1] = h->p[2] = 0.0f;
        h->depth = 0.0f;
    }
}

/* Pairs: sphere i against triangle i. Sets: each sphere against every triangle of the set,
   keeping the earliest (the lowest index on ties). */
size_t textbook_tri(const bench_scene *sc, size_t first, size_t n, int full,
                    const bench_out *o)
{
    const aos_sphere *s = sc->aos + first;
    aos_hit *h = o->aos + first;
    size_t hits = 0;
    if (sc->q == Q_TRI_PAIRS) {
        const aos_tri *tri = sc->aost + first;
        for (size_t i = 0; i < n; i++) {
            if (sweep_tri(&s[i], &tri[i], 1.0f, full, &h[i])) {
                h[i].index = (uint32_t)(first + i);
                hits++;
            } else {
                miss(&h[i], full);
            }
        }
        return hits;
    }
    for (size_t i = 0; i < n; i++) {
        aos_hit cand;
        miss(&h[i], full);
        for (size_t k = 0; k < sc->ntris; k++)
            if (sweep_tri(&s[i], &sc->aost[k], h[i].t < 1.0f ? h[i].t : 1.0f, full, &cand) &&
                cand.t < h[i].t) {
                h[i] = cand;
                h[i].index = (uint32_t)k;
            }
        hits += h[i].t <= 1.0f;
    }
    return hits;
}
