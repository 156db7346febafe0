/* scalar/triangles.c - reference sphere-triangle sweeps: plain C, one query at a time */
#include "scalar.h"

/* The method. Everything is relative to the sphere's start centre (the origin here) and
   scaled by an exact power of two so the query has size ~1, as in scalar/spheres.c: a mesh
   far from the origin is computed as accurately as one at it, and no square or fourth power
   over- or underflows. The path is p(t) = t v, the triangle A B C, the radius r.

   The r-neighbourhood of a triangle is the union of a slab over its face, a cylinder around
   each edge (clipped to the segment) and a ball around each vertex, so the first contact
   from outside is the earliest entry into any of the seven pieces, and every one is tested
   (never "the edge nearest where the path meets the plane", which misses hits):
   - face: the plane at distance r on the side of the start, entered while moving toward it,
     at a point whose projection lies inside the triangle (three edge half-planes);
   - edge V0 + s e: |t (v x e) - V0 x e|^2 = r^2 e.e, the quadratic a t^2 - 2 b t + c = 0 with
     a = |v x e|^2, b = (v x e).(V0 x e), c = |V0 x e|^2 - r^2 e.e, whose discriminant is,
     by Lagrange's identity, e.e (a r^2 - ((v x e).V0)^2) (no cancellation when the path
     passes near the edge's line); first root c / (sqrt(disc) + b), stable for b > 0
     (approaching); the contact must project inside the segment;
   - vertex V: the sphere-sphere quadratic of scalar/spheres.c.
   A piece whose value c at t = 0 is <= 0 contains the start: the sphere already touches. Then
   the closest point q0 of the triangle (the face foot when it projects inside, else the
   nearest of the three clamped edge points) gives the depth r - |q0|, and the sphere
   approaches when (p0 - q0).v < 0, i.e. q0.v > 0 (a centre on the triangle never does).
   The face is that of the triangle the edges and vertices use - the relative vertices
   rounded to float, within the accuracy margin of the true one: its normal is the cross
   product of the float edges E[0] x -E[2], exact in double and rounded once (tri_normal),
   so the plane holds all three vertices to about FLT_EPSILON |e| and the half-planes
   N x e stand across it. (The true triangle's normal with the rounded edges does not
   work: when rounding moves a vertex across a sliver's width, an edge can lie along that
   normal and its half-plane turns anywhere, so the inside test accepted a point ~2^75 from
   the triangle.) Culling alone uses the true triangle's normal (tri_normal on the world
   coordinates), since a sliver's rounded triangle can face anywhere.
   Ties between pieces go to vertices, then edges, then the face, in index order.
   The SIMD kernels (src/simd/triangles.h) perform exactly these operations in this order. */

/* The front normal (b - a) x (c - a) of the triangle T scaled by k^2 (k a power of two),
   in double: differences of floats and their products are exact there (or, for wildly
   different magnitudes, rounded far below float precision), so each component is the exact
   normal rounded about once. Computed in float, a sliver's normal could point anywhere. */
static void tri_normal(const float T[9], float k, float N[3])
{
    double e[3], f[3];
    for (int j = 0; j < 3; j++) {
        e[j] = (double)T[3 + j] - (double)T[j];
        f[j] = (double)T[6 + j] - (double)T[j];
    }
    for (int j = 0; j < 3; j++) {
        int y = (j + 1) % 3, z = (j + 2) % 3;
        double n = e[y] * f[z] - e[z] * f[y];
        N[j] = (float)(n * (double)k * (double)k);
    }
}

static float dot3(const float a[3], const float b[3])
{
    return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
}

static void cross3(const float a[3], const float b[3], float o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* (X - V0).m >= 0 for the three edge normals m = N x e: X projects inside the triangle. */
static int inside(const float X[3], float V[3][3], float m[3][3])
{
    int in = 1;
    for (int k = 0; k < 3; k++) {
        float d[3] = {X[0] - V[k][0], X[1] - V[k][1], X[2] - V[k][2]};
        in &= dot3(d, m[k]) >= 0.0f;
    }
    return in;
}

/* The early-outs below skip work, never change it: every value that is computed is computed
   by the same operations in the same order as in the SIMD kernels, so a result that is
   produced is bit for bit the same. They are of two kinds.

   Exact skips: a piece's candidate time is +Inf as soon as one of its conditions (c > 0,
   b > 0, disc >= 0, ...) fails, and those conditions are tested on the very values the full
   computation would test, so the square root and division after them can be left out.

   Separation rejects: the whole triangle is a miss (or, in a set, cannot hit at a time
   earlier than the best so far) when the path up to tb = min(tmax, 1) stays farther than
   r + TOI_BOX_MARGIN * size from it. internal.h explains the margin: the kernel's backward
   error is below 64 * FLT_EPSILON * size, 2^9 times less, so any contact the kernel could
   compute at a time t <= tb would put p(t) within r + 64 * FLT_EPSILON * size of the
   triangle - which the reject has excluded. The separation is shown along a direction d
   (the coordinate axes, then the unit face normal): the triangle's extent along d is the
   interval spanned by its vertices' coordinates, the path's the one spanned by 0 and tb v.d,
   and two convex sets whose projections onto a unit vector lie more than g apart are more
   than g apart. The rounding of these few sums is ~FLT_EPSILON * size, also far below the
   margin. (This is the box test of the SIMD set kernel, done per triangle, plus the same
   test along the face normal.) */
static int apart(float x0, float x1, float x2, float p, float g)
{
    float lo = x0 < x1 ? x0 : x1, hi = x0 < x1 ? x1 : x0;
    lo = x2 < lo ? x2 : lo;
    hi = x2 > hi ? x2 : hi;
    float plo = p < 0.0f ? p : 0.0f, phi = p < 0.0f ? 0.0f : p;
    return lo - phi > g || plo - hi > g;
}

/* The three edge normals m[k] = N x E[k] of the inside test, computed once when needed. */
static void edge_normals(const float N[3], float E[3][3], float m[3][3], int *have)
{
    if (*have)
        return;
    for (int k = 0; k < 3; k++)
        cross3(N, E[k], m[k]);
    *have = 1;
}

/* One sphere (S: x y z vx vy vz r) against one triangle (T: ax ay az bx by bz cx cy cz).
   On a hit res and *feat are set (res->t only unless full); on a miss they are left alone.
   tmax: only a hit at t < tmax is wanted (a set's best so far; INFINITY for the exact
   result): a triangle that certainly cannot hit before min(tmax, 1) may be left a miss. */
void toi_scalar_sweep_triangle(const float S[7], const float T[9], unsigned flags, int full,
                               float tmax, toi_result *res, uint8_t *feat)
{
    float V[3][3], v[3] = {S[3], S[4], S[5]}, r = S[6];
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            V[k][j] = T[3 * k + j] - S[j];

    /* Size of the relative geometry; NaN or Inf anywhere makes it NaN or Inf. */
    float sz[3];
    for (int k = 0; k < 3; k++)
        sz[k] = (fabsf(V[k][0]) + fabsf(V[k][1])) + fabsf(V[k][2]);
    float size = (sz[0] + sz[1]) + sz[2];
    size = size + ((fabsf(v[0]) + fabsf(v[1])) + fabsf(v[2]));
    size = size + r;
    if (!(size < TOI_MAX_SUM) || !(r >= 0.0f))
        return;

    float s = toi_scalar_pow2_scale(size);
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            V[k][j] = V[k][j] * s;
    for (int j = 0; j < 3; j++)
        v[j] = v[j] * s;
    r = r * s;

    /* Separation reject along the axes, in the scaled units (size * s, exact, is ~1, so
       the margin never underflows and the test's own rounding stays ~FLT_EPSILON). */
    float tb = tmax < 1.0f ? tmax : 1.0f;
    float g = r + TOI_BOX_MARGIN * (size * s);
    for (int j = 0; j < 3; j++)
        if (apart(V[0][j], V[1][j], V[2][j], tb * v[j], g))
            return;
    float rr = r * r;
    float a = dot3(v, v);

    /* Culling: the world triangle's front normal (b - a) x (c - a), scaled like the rest. */
    if (flags & TOI_CULL_BACKFACES) {
        float Nw[3];
        tri_normal(T, s, Nw);
        if (!(dot3(Nw, v) < 0.0f))
            return;
    }

    /* Edges k: V[k] -> V[k+1]; the face normal N = E[0] x -E[2] of these float edges,
       exact products in double and one rounding (tri_normal on 0, E[0], -E[2]), so plane
       and edge half-planes describe one triangle. */
    float E[3][3], N[3];
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
            E[k][j] = V[(k + 1) % 3][j] - V[k][j];
    {
        const float F[9] = {0.0f,     0.0f,     0.0f,     E[0][0], E[0][1], E[0][2],
                            -E[2][0], -E[2][1], -E[2][2]};
        tri_normal(F, 1.0f, N);
    }
    float NN = dot3(N, N);

    /* Face: unit normal n, signed distance s0 of the start, rate dv; ad, adv seen from the
       start's side. A triangle without area has no face (its edges and vertices remain). */
    int face_ok = NN >= TOI_MIN_DIR2;
    float ninv = 1.0f / sqrtf(NN);
    float n[3] = {N[0] * ninv, N[1] * ninv, N[2] * ninv};
    float s0 = -dot3(V[0], n);
    float dv = dot3(v, n);
    /* Separation reject along the unit normal. With a
       face, NN is a normal float and n is a unit vector within a few roundings; the test
       needs nothing else of n (not even that it is the triangle's exact normal). */
    if (face_ok && apart(-s0, dot3(V[1], n), dot3(V[2], n), tb * dv, g))
        return;
    int pos = s0 >= 0.0f;
    float ad = fabsf(s0);
    float adv = pos ? dv : -dv;
    float m[3][3];
    int have_m = 0;

    /* The seven candidate times, +Inf where a piece is not entered in (0, 1]; and whether a
       piece contains the start. Order: vertices A B C, edges AB BC CA, face. Each piece stops
       at the first of its conditions that fails (an exact skip). */
    float tc[7], sn[3], ee[3];
    int overlap = 0;
    for (int k = 0; k < 3; k++) {
        float *P = V[k];
        float b = dot3(P, v);
        float c = dot3(P, P) - rr;
        overlap |= c <= 0.0f;
        tc[k] = INFINITY;
        if (!(c > 0.0f && b > 0.0f))
            continue;
        float cr[3];
        cross3(P, v, cr);
        float disc = a * rr - dot3(cr, cr);
        if (!(disc >= 0.0f))
            continue;
        float t = c / (sqrtf(disc) + b);
        if (t <= 1.0f)
            tc[k] = t;
    }
    for (int k = 0; k < 3; k++) {
        const float *V0 = V[k], *e = E[k];
        ee[k] = dot3(e, e);
        tc[3 + k] = INFINITY;
        sn[k] = 0.0f; /* read only for the edge entered, whose sn is set */
        if (!(ee[k] >= TOI_MIN_DIR2))
            continue; /* no edge: neither a time nor an overlap */
        float u[3], w[3];
        cross3(v, e, u);
        cross3(V0, e, w);
        float c = dot3(w, w) - rr * ee[k];
        if (!(c > 0.0f)) {
            /* inside the infinite cylinder at t = 0: an overlap when within the segment */
            float d0[3] = {0.0f - V0[0], 0.0f - V0[1], 0.0f - V0[2]};
            float sn0 = dot3(d0, e);
            overlap |= c <= 0.0f && sn0 >= 0.0f && sn0 <= ee[k];
            continue;
        }
        float b = dot3(u, w);
        if (!(b > 0.0f))
            continue;
        float au = dot3(u, u);
        float gg = dot3(u, V0);
        /* The sign of the discriminant is h's: the product with ee can underflow to -0 for
           an edge far smaller than the query, which must not pass for a touching path. */
        float h = au * rr - gg * gg;
        float disc = ee[k] * h;
        if (!(h >= 0.0f))
            continue;
        float t = c / (sqrtf(disc) + b);
        if (!(t <= 1.0f))
            continue;
        const float P[3] = {t * v[0], t * v[1], t * v[2]};
        float d[3] = {P[0] - V0[0], P[1] - V0[1], P[2] - V0[2]};
        sn[k] = dot3(d, e);
        if (sn[k] >= 0.0f && sn[k] <= ee[k])
            tc[3 + k] = t;
    }
    tc[6] = INFINITY;
    if (face_ok && ad > r && adv < 0.0f) {
        float t = (r - ad) / adv;
        if (t <= 1.0f) {
            const float P[3] = {t * v[0], t * v[1], t * v[2]};
            edge_normals(N, E, m, &have_m);
            if (inside(P, V, m))
                tc[6] = t;
        }
    }
    int in0 = 0; /* the start projects inside; needed only for a face overlap */
    if (face_ok && ad <= r) {
        const float O[3] = {0.0f, 0.0f, 0.0f};
        edge_normals(N, E, m, &have_m);
        in0 = inside(O, V, m);
        overlap |= in0;
    }

    float inv_s = 1.0f / s;
    float q[3] = {0.0f, 0.0f, 0.0f}, dir[3], dd;
    int kind; /* the feature */
    float t;
    if (overlap) {
        /* Closest point at t = 0: the nearest clamped edge point (lowest edge on ties), or
           the face foot when the start projects inside and it is strictly nearer. */
        float best = INFINITY;
        kind = TOI_FEATURE_FACE; /* replaced by the first edge: d2 < Inf */
        for (int k = 0; k < 3; k++) {
            const float *V0 = V[k], *e = E[k];
            float d0[3] = {0.0f - V0[0], 0.0f - V0[1], 0.0f - V0[2]};
            float sn0 = dot3(d0, e);
            float sk = sn0 > 0.0f ? (sn0 < ee[k] ? sn0 / ee[k] : 1.0f) : 0.0f;
            float qk[3] = {V0[0] + sk * e[0], V0[1] + sk * e[1], V0[2] + sk * e[2]};
            float d2 = dot3(qk, qk);
            int kk = sk == 0.0f ? TOI_FEATURE_VERTEX_A + k
                   : sk == 1.0f ? TOI_FEATURE_VERTEX_A + (k + 1) % 3
                                : TOI_FEATURE_EDGE_AB + k;
            /* nearer, or as near and a vertex where an edge was held (a degenerate
               triangle's vertex inside another edge) */
            if (d2 < best || (d2 == best && kk >= TOI_FEATURE_VERTEX_A &&
                              kind < TOI_FEATURE_VERTEX_A)) {
                best = d2;
                q[0] = qk[0], q[1] = qk[1], q[2] = qk[2];
                kind = kk;
            }
        }
        float d2f = s0 * s0;
        if (face_ok && !(ad <= r)) { /* in0 not computed above */
            const float O[3] = {0.0f, 0.0f, 0.0f};
            edge_normals(N, E, m, &have_m);
            in0 = inside(O, V, m);
        }
        if (face_ok && in0 && d2f < best) {
            best = d2f;
            q[0] = 0.0f - s0 * n[0], q[1] = 0.0f - s0 * n[1], q[2] = 0.0f - s0 * n[2];
            kind = TOI_FEATURE_FACE;
        }
        /* Approaching: f'(0) < 0, i.e. q0.v > 0; a centre on the triangle never is. */
        int approach = best >= TOI_MIN_DIR2 && dot3(q, v) > 0.0f;
        if (!approach && !(flags & TOI_ALL_OVERLAPS))
            return;
        t = 0.0f;
        res->t = t;
        *feat = (uint8_t)kind;
        if (!full)
            return;
        dir[0] = 0.0f - q[0], dir[1] = 0.0f - q[1], dir[2] = 0.0f - q[2];
        dd = best;
        float depth = (r - sqrtf(best)) * inv_s;
        res->depth = depth > 0.0f ? depth : 0.0f;
    } else {
        t = tc[0];
        kind = TOI_FEATURE_VERTEX_A;
        for (int k = 1; k < 7; k++)
            if (tc[k] < t) {
                t = tc[k];
                kind = k < 3 ? TOI_FEATURE_VERTEX_A + k
                     : k < 6 ? TOI_FEATURE_EDGE_AB + (k - 3)
                             : TOI_FEATURE_FACE;
            }
        if (!(t <= 1.0f))
            return;
        res->t = t;
        *feat = (uint8_t)kind;
        if (!full)
            return;
        const float P[3] = {t * v[0], t * v[1], t * v[2]};
        if (kind == TOI_FEATURE_FACE) {
            float st = s0 + t * dv; /* signed distance of P from the plane */
            q[0] = P[0] - st * n[0], q[1] = P[1] - st * n[1], q[2] = P[2] - st * n[2];
        } else if (kind >= TOI_FEATURE_VERTEX_A) {
            int k = kind - TOI_FEATURE_VERTEX_A;
            q[0] = V[k][0], q[1] = V[k][1], q[2] = V[k][2];
        } else {
            int k = kind - TOI_FEATURE_EDGE_AB;
            float sk = sn[k] / ee[k];
            q[0] = V[k][0] + sk * E[k][0];
            q[1] = V[k][1] + sk * E[k][1];
            q[2] = V[k][2] + sk * E[k][2];
        }
        dir[0] = P[0] - q[0], dir[1] = P[1] - q[1], dir[2] = P[2] - q[2];
        dd = dot3(dir, dir);
        res->depth = 0.0f;
    }

    /* Normal: from q toward the centre; the face's own normal for a face contact; the face
       normal against the motion when the centre is on the triangle (+x without a face). */
    if (kind == TOI_FEATURE_FACE && !overlap) {
        res->nx = pos ? n[0] : -n[0];
        res->ny = pos ? n[1] : -n[1];
        res->nz = pos ? n[2] : -n[2];
    } else if (dd >= TOI_MIN_DIR2) {
        float inv = 1.0f / sqrtf(dd);
        res->nx = dir[0] * inv, res->ny = dir[1] * inv, res->nz = dir[2] * inv;
    } else if (face_ok) {
        int back = dv > 0.0f;
        res->nx = back ? -n[0] : n[0];
        res->ny = back ? -n[1] : n[1];
        res->nz = back ? -n[2] : n[2];
    } else {
        res->nx = TOI_FALLBACK_NX, res->ny = TOI_FALLBACK_NY, res->nz = TOI_FALLBACK_NZ;
    }
    /* Point: q back in world units. */
    res->px = S[0] + q[0] * inv_s;
    res->py = S[1] + q[1] * inv_s;
    res->pz = S[2] + q[2] * inv_s;
}

static void load_sphere(const toi_spheres *s, size_t i, float S[7])
{
    S[0] = s->x[i], S[1] = s->y[i], S[2] = s->z[i];
    S[3] = s->vx[i], S[4] = s->vy[i], S[5] = s->vz[i], S[6] = s->r[i];
}

static void load_triangle(const toi_triangles *t, size_t i, float T[9])
{
    T[0] = t->ax[i], T[1] = t->ay[i], T[2] = t->az[i];
    T[3] = t->bx[i], T[4] = t->by[i], T[5] = t->bz[i];
    T[6] = t->cx[i], T[7] = t->cy[i], T[8] = t->cz[i];
}

static size_t one_pair(const float S[7], const float T[9], unsigned flags, int full,
                       const toi_hits *out, size_t k)
{
    toi_result r;
    uint8_t feat = TOI_FEATURE_NONE;
    toi_scalar_miss(&r);
    toi_scalar_sweep_triangle(S, T, flags, full, INFINITY, &r, &feat);
    toi_scalar_store(out, k, &r, full);
    if (out->feature)
        out->feature[k] = feat;
    return r.t != TOI_NO_HIT;
}

size_t toi_scalar_sweep_spheres_triangles(size_t n, const toi_spheres *s,
                                          const toi_triangles *tri, unsigned flags,
                                          const toi_hits *out)
{
    int full = toi_wants_full(out);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        float S[7], T[9];
        load_sphere(s, i, S);
        load_triangle(tri, i, T);
        hits += one_pair(S, T, flags, full, out, i);
    }
    return hits;
}

size_t toi_scalar_sweep_sphere_triangle_pairs(size_t n, const uint32_t *is, const uint32_t *it,
                                              const toi_spheres *s, const toi_triangles *tri,
                                              unsigned flags, const toi_hits *out)
{
    int full = toi_wants_full(out);
    size_t hits = 0;
    for (size_t k = 0; k < n; k++) {
        float S[7], T[9];
        load_sphere(s, is[k], S);
        load_triangle(tri, it[k], T);
        hits += one_pair(S, T, flags, full, out, k);
    }
    return hits;
}

/* The plain loop: the first triangle with a strictly earlier t wins; then the winner's
   full result (the same function, so the same t). Each triangle is asked only for a hit
   before the best so far (tmax = best: it may skip a triangle that cannot beat it), and the
   scan stops at a hit at t = 0: no t is below +0 (every candidate time is a quotient of two
   numbers of the same sign, or 0), so no later triangle could replace it. */
size_t toi_scalar_sweep_spheres_triangle_set(size_t n, const toi_spheres *s, size_t ntris,
                                             const toi_triangles *tri, unsigned flags,
                                             const toi_hits *out)
{
    int full = toi_wants_full(out);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        float S[7], T[9];
        load_sphere(s, i, S);
        float best = TOI_NO_HIT;
        uint32_t win = UINT32_MAX;
        for (size_t j = 0; j < ntris && best != 0.0f; j++) {
            toi_result r;
            uint8_t feat;
            r.t = TOI_NO_HIT;
            load_triangle(tri, j, T);
            toi_scalar_sweep_triangle(S, T, flags, 0, best, &r, &feat);
            if (r.t < best) {
                best = r.t;
                win = (uint32_t)j;
            }
        }
        toi_result r;
        uint8_t feat = TOI_FEATURE_NONE;
        toi_scalar_miss(&r);
        if (win != UINT32_MAX) {
            load_triangle(tri, win, T);
            toi_scalar_sweep_triangle(S, T, flags, full, INFINITY, &r, &feat);
            hits++;
        }
        toi_scalar_store(out, i, &r, full);
        if (out->feature)
            out->feature[i] = feat;
        if (out->index)
            out->index[i] = win;
    }
    return hits;
}
