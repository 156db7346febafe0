/* textbook_capsule.c - peer: a plain scalar capsule-triangle sweep, array of structs, one
   branchy query at a time, as a game programmer writes it from the classic sweep tests: the
   capsule (segment p0 -> p1 of radius r, translated by v) against a triangle at rest is the
   ray against the Minkowski sum of the triangle and the capsule, tested piece by piece:
   - each end sphere of the segment against the triangle (the sphere-triangle sweep of
     textbook_tri.c: the face at distance r, then an inside test; the edges' cylinders; the
     vertices' spheres);
   - each triangle vertex against the capsule's cylinder (the vertex moving by -v against
     the segment at rest, the contact inside the segment);
   - each triangle edge against the segment (edge-edge: the lines' distance along their
     common normal reaches r, with the closest points inside both segments; parallel edges
     are left to the other pieces, which hold them);
   - the segment crossing the face, at t = 0 (a segment through the triangle is overlapping).
   At t = 0 the segment-triangle distance is the nearest of its ends against the triangle,
   the triangle's edges against the segment (the textbook segment-segment closest points,
   clamp and recompute) and the crossing; touching, the query hits at t = 0 only when it
   moves closer (the library's rule; a segment through the triangle has no direction and
   does not). It early-outs where plain code would: both ends farther than r from the plane
   on the same side for the whole step. Floats, no SIMD; built only into the capsule
   benchmark, where its agreement with toi is reported (bench/capsules.c). */
#include "peers.h"
#include "textbook_geom.h"

#include <math.h>

/* The closest points of segments p1 + s d1 and p2 + u d2 (the textbook clamp-and-recompute):
   *c1 on the first, *c2 on the second. */
static void closest_segments(vec3 p1, vec3 d1, vec3 p2, vec3 d2, vec3 *c1, vec3 *c2)
{
    vec3 r = sub(p1, p2);
    float a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    float s = 0.0f, u = 0.0f;
    if (a <= 0.0f && e <= 0.0f) {
        s = u = 0.0f;
    } else if (a <= 0.0f) {
        u = clamp01(f / e);
    } else {
        float c = dot(d1, r);
        if (e <= 0.0f) {
            s = clamp01(-c / a);
        } else {
            float b = dot(d1, d2), denom = a * e - b * b;
            s = denom > 0.0f ? clamp01((b * f - c * e) / denom) : 0.0f;
            u = (b * s + f) / e;
            if (u < 0.0f) {
                u = 0.0f;
                s = clamp01(-c / a);
            } else if (u > 1.0f) {
                u = 1.0f;
                s = clamp01((b - c) / a);
            }
        }
    }
    *c1 = add(p1, scale(d1, s));
    *c2 = add(p2, scale(d2, u));
}

/* The first t in [0, tmax] at which the point m + t w (relative to a segment from the origin
   along e) comes within r of the segment's interior: the cylinder's quadratic; INFINITY if
   never, or if it starts inside the cylinder. */
static float cylinder_entry(vec3 m, vec3 w, vec3 e, float r, float tmax)
{
    float ee = dot(e, e), md = dot(m, e), nd = dot(w, e), ww = dot(w, w);
    float a = ee * ww - nd * nd;
    float b = ee * dot(m, w) - nd * md;
    float c = ee * (dot(m, m) - r * r) - md * md;
    if (ee <= 0.0f || a <= 0.0f || c <= 0.0f || b >= 0.0f)
        return INFINITY; /* no segment, parallel, inside the cylinder, or moving away */
    float disc = b * b - a * c;
    if (disc < 0.0f)
        return INFINITY;
    float t = (-b - sqrtf(disc)) / a;
    if (t > tmax)
        return INFINITY;
    float s = md + t * nd;
    return s < 0.0f || s > ee ? INFINITY : t;
}

/* The first t in [0, tmax] at which the point m + t w comes within r of the origin. */
static float sphere_entry(vec3 m, vec3 w, float r, float tmax)
{
    float b = dot(m, w), ww = dot(w, w);
    if (b >= 0.0f || ww <= 0.0f)
        return INFINITY;
    float disc = b * b - ww * (dot(m, m) - r * r);
    if (disc < 0.0f)
        return INFINITY;
    float t = (-b - sqrtf(disc)) / ww;
    return t > tmax ? INFINITY : t;
}

/* An end sphere (centre c, moving by v, radius r) against the triangle: the first contact
   in [0, tmax] (starting apart), INFINITY if none: the face, then edges and vertices. */
static float sphere_sweep(const triangle *T, vec3 c, vec3 v, float r, float tmax)
{
    if (T->has_face) {
        float d0 = dot(T->n, sub(c, T->V[0])), dn = dot(T->n, v);
        if (fabsf(d0) > r && d0 * dn < 0.0f) {
            float side = d0 > 0.0f ? 1.0f : -1.0f;
            float t = (side * r - d0) / dn;
            if (t <= tmax && inside(T, sub(add(c, scale(v, t)), scale(T->n, side * r))))
                return t; /* a face contact: nothing of this sphere comes earlier */
        }
    }
    float best = INFINITY;
    for (int k = 0; k < 3; k++) {
        vec3 m = sub(c, T->V[k]);
        float t = cylinder_entry(m, v, T->E[k], r, tmax);
        best = t < best ? t : best;
        t = sphere_entry(m, v, r, tmax);
        best = t < best ? t : best;
    }
    return best;
}

/* The capsule's segment (p0 + s e) against triangle edge k: the first t in [0, tmax] at which
   the lines' distance along their common normal reaches r from outside, with the closest
   points inside both segments there. */
static float edge_edge(const triangle *T, int k, vec3 p0, vec3 e, vec3 v, float r, float tmax)
{
    vec3 E = T->E[k], n = cross(e, E);
    float nn = dot(n, n);
    if (nn <= 1e-12f * dot(e, e) * dot(E, E))
        return INFINITY; /* parallel: the ends and vertices hold it */
    n = scale(n, 1.0f / sqrtf(nn));
    float h0 = dot(sub(p0, T->V[k]), n), hv = dot(v, n);
    if (!(fabsf(h0) > r) || h0 * hv >= 0.0f)
        return INFINITY;
    float t = ((h0 > 0.0f ? r : -r) - h0) / hv;
    if (t > tmax)
        return INFINITY;
    /* the lines' closest points at t */
    vec3 d = sub(add(p0, scale(v, t)), T->V[k]);
    float a = dot(e, e), b = dot(e, E), c = dot(E, E), d1 = dot(e, d), d2 = dot(E, d);
    float denom = a * c - b * b;
    float s = (b * d2 - c * d1) / denom, u = (a * d2 - b * d1) / denom;
    return s >= 0.0f && s <= 1.0f && u >= 0.0f && u <= 1.0f ? t : INFINITY;
}

static float capsule_triangle(const tb_capsule *C, const tb_tri *tri)
{
    vec3 p0 = {C->p0[0], C->p0[1], C->p0[2]}, p1 = {C->p1[0], C->p1[1], C->p1[2]};
    vec3 v = {C->v[0], C->v[1], C->v[2]}, e = sub(p1, p0);
    float r = C->r;
    triangle T = {.has_face = 0};
    for (int k = 0; k < 3; k++)
        T.V[k] = (vec3){tri->v[k][0], tri->v[k][1], tri->v[k][2]};
    for (int k = 0; k < 3; k++)
        T.E[k] = sub(T.V[(k + 1) % 3], T.V[k]);
    vec3 N = cross(T.E[0], sub(T.V[2], T.V[0]));
    float nn = dot(N, N), s0 = 0.0f, s1 = 0.0f;
    T.has_face = nn > 0.0f;
    if (T.has_face) {
        T.n = scale(N, 1.0f / sqrtf(nn));
        for (int k = 0; k < 3; k++)
            T.m[k] = cross(T.n, T.E[k]);
        /* both ends farther than r on the same side for the whole step: no contact */
        s0 = dot(T.n, sub(p0, T.V[0]));
        s1 = dot(T.n, sub(p1, T.V[0]));
        float dv = dot(T.n, v);
        float lo0 = s0 < s1 ? s0 : s1, hi0 = s0 < s1 ? s1 : s0;
        if ((lo0 > r && lo0 + dv > r) || (hi0 < -r && hi0 + dv < -r))
            return INFINITY;
    }

    /* t = 0: the segment-triangle distance and its direction */
    vec3 q = closest_on_triangle(&T, p0), x = p0;
    vec3 d = sub(x, q);
    float best = dot(d, d);
    vec3 q1 = closest_on_triangle(&T, p1), d1 = sub(p1, q1);
    if (dot(d1, d1) < best)
        d = d1, best = dot(d1, d1);
    for (int k = 0; k < 3; k++) {
        vec3 cs, ct;
        closest_segments(p0, e, T.V[k], T.E[k], &cs, &ct);
        vec3 dk = sub(cs, ct);
        if (dot(dk, dk) < best)
            d = dk, best = dot(dk, dk);
    }
    if (T.has_face && ((s0 > 0.0f && s1 < 0.0f) || (s0 < 0.0f && s1 > 0.0f)) &&
        inside(&T, add(p0, scale(e, s0 / (s0 - s1)))))
        d = (vec3){0.0f, 0.0f, 0.0f}, best = 0.0f; /* the segment through the face */
    if (best <= r * r)
        return best > 0.0f && dot(d, v) < 0.0f ? 0.0f : INFINITY;

    /* the pieces of the Minkowski sum: the earliest entry */
    float t = sphere_sweep(&T, p0, v, r, 1.0f);
    float tk = sphere_sweep(&T, p1, v, r, t < 1.0f ? t : 1.0f);
    t = tk < t ? tk : t;
    vec3 w = scale(v, -1.0f);
    for (int k = 0; k < 3; k++) {
        tk = cylinder_entry(sub(T.V[k], p0), w, e, r, t < 1.0f ? t : 1.0f);
        t = tk < t ? tk : t;
        tk = edge_edge(&T, k, p0, e, v, r, t < 1.0f ? t : 1.0f);
        t = tk < t ? tk : t;
    }
    return t;
}

size_t textbook_capsules_triangles(size_t n, const tb_capsule *c, const tb_tri *tri, float *t)
{
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        t[i] = capsule_triangle(&c[i], &tri[i]);
        hits += t[i] <= 1.0f;
    }
    return hits;
}
