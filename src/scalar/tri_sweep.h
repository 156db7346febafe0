/* scalar/tri_sweep.h - the reference sphere-triangle sweep of one sphere against one
   triangle (plain C), shared by the pair, set and mesh queries of the scalar backend */
#ifndef TOI_SCALAR_TRI_SWEEP_H
#define TOI_SCALAR_TRI_SWEEP_H

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
     at a point whose projection lies inside the triangle (three edge half-planes, each
     judged from both endpoints of its edge: inside()); a sliver whose smallest angle is
     below a few FLT_EPSILON has no face piece (internal.h, TOI_THIN_FACE);
   - edge V0 + s e: the vertex quadratic in the plane across the edge, of V0 and v less
     their parts along e (edge_entry); the contact must project inside the segment, or,
     entered beyond an end while moving toward the segment, the path must reach that end's
     disc while still in the cylinder;
   - vertex V: the sphere-sphere quadratic of scalar/spheres.c.
   A piece whose value c at t = 0 is <= 0 contains the start: the sphere already touches. Then
   the closest point q0 of the triangle (nearest_point: found by the Voronoi region the
   centre lies in) gives the depth r - |q0|, and the sphere
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
   The reported t is the earliest piece's; point, normal and feature then describe the
   centre p(t) at that t - the triangle's point nearest it (nearest_point) - whichever piece
   gave t (a sphere sliding at exactly r enters an edge's cylinder with its centre over the
   face, and the face is what it touches there).
   The SIMD kernels (src/simd/triangles.h) perform exactly these operations in this order. */

/* A 3-vector: the helpers below are the operations of the SIMD kernels, in their order. */
typedef struct vec3 {
    float x, y, z;
} vec3;

static inline vec3 sub3(vec3 a, vec3 b)
{
    return (vec3){a.x - b.x, a.y - b.y, a.z - b.z};
}
static inline vec3 mul3(vec3 a, float k) /* a k; multiplication commutes exactly */
{
    return (vec3){a.x * k, a.y * k, a.z * k};
}
static inline float dot3(vec3 a, vec3 b)
{
    return (a.x * b.x + a.y * b.y) + a.z * b.z;
}
static inline vec3 cross3(vec3 a, vec3 b)
{
    return (vec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/* One query's inputs, loaded straight into registers (through arrays on the stack, the
   first loads of every query would wait for stores to be forwarded). */
typedef struct sphere {
    vec3 p, v;
    float r;
} sphere;
typedef struct triangle {
    vec3 a, b, c;
} triangle;

static inline sphere load_sphere(const toi_spheres *s, size_t i)
{
    return (sphere){{s->x[i], s->y[i], s->z[i]}, {s->vx[i], s->vy[i], s->vz[i]}, s->r[i]};
}

static inline triangle load_triangle(const toi_triangles *t, size_t i)
{
    return (triangle){{t->ax[i], t->ay[i], t->az[i]},
                      {t->bx[i], t->by[i], t->bz[i]},
                      {t->cx[i], t->cy[i], t->cz[i]}};
}

/* The front normal (b - a) x (c - a) of the triangle T scaled by k^2 (k a power of two),
   in double: differences of floats and their products are exact there (or, for wildly
   different magnitudes, rounded far below float precision), so each component is the exact
   normal rounded about once. Computed in float, a sliver's normal could point anywhere. */
static inline vec3 tri_normal(triangle T, float k)
{
    double ex = (double)T.b.x - (double)T.a.x, ey = (double)T.b.y - (double)T.a.y,
           ez = (double)T.b.z - (double)T.a.z;
    double fx = (double)T.c.x - (double)T.a.x, fy = (double)T.c.y - (double)T.a.y,
           fz = (double)T.c.z - (double)T.a.z;
    double kk = (double)k;
    return (vec3){(float)((ey * fz - ez * fy) * kk * kk), (float)((ez * fx - ex * fz) * kk * kk),
                  (float)((ex * fy - ey * fx) * kk * kk)};
}

/* (X - V0).m: X's side of an edge (V0, its in-plane normal m = N x e); >= 0 inside. */
static inline float edge_side(vec3 X, vec3 V0, vec3 m)
{
    return dot3(sub3(X, V0), m);
}

/* X projects inside the triangle A B C: on the inner side of each edge's half-plane, judged
   from both of the edge's endpoints ((X - V_k).m_k >= 0 and (X - V_{k+1}).m_k >= 0), so that
   near a vertex the rounding scales with the distance to that vertex (from the far endpoint
   alone, it would move a thin tip's accepted region far past the tip; internal.h,
   TOI_THIN_FACE). */
static inline int inside(vec3 X, vec3 A, vec3 B, vec3 C, vec3 mA, vec3 mB, vec3 mC)
{
    float wA = edge_side(X, A, mA), wB = edge_side(X, B, mB), wC = edge_side(X, C, mC);
    float xA = edge_side(X, B, mA), xB = edge_side(X, C, mB), xC = edge_side(X, A, mC);
    return (wA >= 0.0f) & (xA >= 0.0f) & (wB >= 0.0f) & (xB >= 0.0f) & (wC >= 0.0f) &
           (xC >= 0.0f);
}

/* The face entered through a wall. A path whose slab entry (time t, where its signed distance
   from the plane, ad + t adv seen from the start's side, falls to r) projects outside exactly
   one edge's wall k (out[k]: (P - V_k).m_k or (P - V_k+1).m_k not >= 0 there) reaches the
   face region when it crosses that wall, at tk = V_k.m_k / v.m_k if it moves inward (judged
   from both endpoints, as the inside test judges it: the later of the two times); if it is
   then still within the slab (ad + tk adv >= -r) and its foot, on the wall's line, projects
   within the edge ((P - V_k).e_k in [0, e_k.e_k]), the sphere touches edge k at tk, at
   distance |s| <= r, at the latest. Its exact first contact, the edge cylinder's entry, is
   no later; but for a path nearly parallel to the face, crossing the wall near its slab
   entry, both tests can fail by rounding (the slab entry moves far along such a path with a
   rounding of ad, and the cylinder is met tangentially), and the path that then travels
   over the face within r would be missed. tk closes that gap: the face piece's time when
   the inside test fails at t (max(tk, t), the crossing being after the entry exactly).
   The foot is judged along the edge, not by the other two walls: near a sliver's tip those
   walls are nearly parallel and a point beyond the tip lies inside both within rounding. */
static inline float wall_time(vec3 v, float t, float ad, float adv, float r, const vec3 V[3],
                              const vec3 E[3], const float ee[3], const vec3 m[3],
                              const int out[3])
{
    int k = out[0] ? 0 : out[1] ? 1 : 2;
    float vm = dot3(v, m[k]);
    float s0 = dot3(V[k], m[k]), s1 = dot3(V[(k + 1) % 3], m[k]);
    float tk = (s0 > s1 ? s0 : s1) / vm;
    float tw = tk > t ? tk : t;
    float sn = dot3(sub3(mul3(v, tw), V[k]), E[k]);
    int one = out[0] + out[1] + out[2] == 1;
    return (one & (vm > 0.0f) & (tw <= 1.0f) & (ad + tw * adv >= -r) & (sn >= 0.0f) &
            (sn <= ee[k])) ? tw : INFINITY;
}

/* The early-outs below skip work, never change it: every value that is computed is computed
   by the same operations in the same order as in the SIMD kernels, so a result that is
   produced is bit for bit the same. They are of two kinds (inside a piece nothing is
   skipped: whether a piece is entered is unpredictable, and a mispredicted branch costs
   more than the square root and division it would save).

   Separation rejects: the whole triangle is a miss (or, in a set, cannot hit at a time
   earlier than the best so far) when the path up to tb = min(tmax, 1) stays farther than
   r + mg from it, mg = TOI_BOX_MARGIN * size. internal.h explains the margin: the kernel's
   backward error is below 64 * FLT_EPSILON * size, 2^9 times less, so any contact the
   kernel could compute at a time t <= tb would put p(t) within r + 64 * FLT_EPSILON * size
   of the triangle - which the reject has excluded. The separation is shown along a
   direction d (the coordinate axes, then the unit face normal): the triangle's extent along
   d is the interval spanned by its vertices' coordinates, the path's the one spanned by 0
   and tb v.d, and two convex sets whose projections onto a unit vector lie more than g
   apart are more than g apart. The rounding of these few sums is ~FLT_EPSILON * size, also
   far below the margin. (This is the box test of the SIMD set kernel, done per triangle,
   plus the same test along the face normal.)

   Face-first skips: edges and vertices that provably cannot be touched before a face
   contact (see sweep_triangle). The set scan adds two more: it asks each triangle only
   for a hit before the best so far, and stops at a hit at t = 0. */
static inline int apart(float x0, float x1, float x2, float p, float g)
{
    /* Written without branches (min / max forms, & and | of comparisons): the orders and
       signs compared here are random, so a branch on them would often be mispredicted. The
       path's interval is [min(0, p), max(0, p)]: lo - max(0, p) > g is lo > g and
       lo - p > g, and min(0, p) - hi > g is -hi > g and p - hi > g. */
    float lo = x0 < x1 ? x0 : x1, hi = x0 > x1 ? x0 : x1;
    lo = x2 < lo ? x2 : lo;
    hi = x2 > hi ? x2 : hi;
    return ((lo > g) & (lo - p > g)) | ((-hi > g) & (p - hi > g));
}

/* Vertex P: the sphere-sphere quadratic. Its candidate time (+Inf when not entered in
   (0, 1]); *overlap set when the start touches it. Computed whole, then selected: whether
   a piece is entered is unpredictable, and a mispredicted branch costs more than the few
   operations it would skip. */
static inline float vertex_time(vec3 P, vec3 v, float a, float rr, int *overlap)
{
    float b = dot3(P, v);
    float c = dot3(P, P) - rr;
    vec3 cr = cross3(P, v);
    float disc = a * rr - dot3(cr, cr);
    float t = c / (sqrtf(disc) + b);
    *overlap |= c <= 0.0f;
    return ((c > 0.0f) & (b > 0.0f) & (disc >= 0.0f) & (t <= 1.0f)) ? t : INFINITY;
}

/* The cylinder of radius sqrt(rr) around the segment V0 + s e (relative to the moving centre,
   which moves by v), met within the segment: its entry time, +Inf when not entered in [.., 1]
   (a start inside the infinite cylinder gives t <= 0; *cp = c, the start's squared distance
   from the line less rr, *pep = V0.e). For the sweep's edges (edge_entry below, also the
   capsule sweeps' end balls) and the capsules' own cylinder (cylinder_time, scalar/capsules.c).
   Computed whole, then selected, like a vertex. The cylinder is met in the plane
   across the edge: P, the edge line's point nearest the start (relative to it), and w, the
   motion across the edge, are V0 and v less their parts along e, and the vertex quadratic
   of P and w gives the entry t1 = c / q into the infinite cylinder. (Through u = v x e, as
   this test and the capsules' cylinder test once did, a path nearly parallel to the edge
   loses its distance to the line: the rounding of u along e, ~FLT_EPSILON |v| |e|, is multiplied by V0's long component along
   e, and a path grazing the cylinder by far more than the margin was judged inside it.
   Here the parts along e that rounding leaves in P and w add to the squares and cross
   product only at second order.) The entry then projects at sn(t1) = t1 ve - pe along
   the edge, tested within [0, ee] after the division (not as sn(t1) q = c ve - pe q within
   [0, ee q], which needs no division but underflows: for a sphere and a path within ~1e-20
   of the size of the line, c and q are subnormal, the products vanish, and a path far
   beyond an end was judged within the segment). Entered beyond an end while
   moving toward the segment, the path meets the end's disc (sn = 0, or ee) at t = pe / ve,
   or (pe + ee) / ve, and is in contact there if it is still in the cylinder (t <= t2 =
   q / aw). That contact is also the end vertex's, whose ball holds the disc, so it changes
   no exact result; but the entry time of a path grazing the cylinder is poorly conditioned
   (a rounding of c or q moves it far along the path), and when rounding puts it just past
   an end whose ball is grazed too, neither piece would hit: the disc closes that gap. */
typedef struct cyl_frame {
    float pe, ve;          /* V0.e, v.e */
    float aw, b, c, disc;  /* the quadratic of P and w: w.w, P.w, P.P - rr, aw rr - |P x w|^2 */
} cyl_frame;

/* The plane across the cylinder (below): P and w, V0 and v less their parts along e, and
   their quadratic; shared by the entry and the capsules' exit (scalar/capsules.c). */
static inline cyl_frame cylinder_frame(vec3 V0, vec3 e, float ee, vec3 v, float rr)
{
    cyl_frame f;
    f.pe = dot3(V0, e), f.ve = dot3(v, e);
    float k = 1.0f / ee;
    vec3 P = sub3(V0, mul3(e, f.pe * k)), w = sub3(v, mul3(e, f.ve * k));
    f.aw = dot3(w, w);
    f.b = dot3(P, w);
    f.c = dot3(P, P) - rr;
    vec3 cr = cross3(P, w);
    f.disc = f.aw * rr - dot3(cr, cr);
    return f;
}

static inline float cylinder_entry(vec3 V0, vec3 e, float ee, vec3 v, float rr, float *cp,
                                   float *pep)
{
    int edge_ok = ee >= TOI_MIN_DIR2; /* else no edge: neither a time nor an overlap */
    const cyl_frame f = cylinder_frame(V0, e, ee, v, rr);
    const float pe = f.pe, ve = f.ve, aw = f.aw, b = f.b, c = f.c, disc = f.disc;
    float q = sqrtf(disc) + b;
    float t1 = c / q;
    float sn1 = t1 * ve - pe;
    int lo = sn1 < 0.0f, hi = sn1 > ee; /* the entry beyond V0, or beyond V0 + e */
    int end = (lo & (ve > 0.0f)) | (hi & (ve < 0.0f));
    float tend = (lo ? pe : pe + ee) / ve;
    float t = (lo | hi) ? tend : t1;
    int in = (sn1 >= 0.0f) & (sn1 <= ee); /* not (lo | hi), but false for a NaN sn1 */
    int within = in | (end & (t * aw <= q));
    *cp = c;
    *pep = pe;
    return (edge_ok & (b > 0.0f) & (disc >= 0.0f) & (t <= 1.0f) & within) ? t : INFINITY;
}

/* The sweep's edge: the cylinder entered from outside (c > 0), the start touching the segment
   otherwise. */
static inline float edge_entry(vec3 V0, vec3 e, float ee, vec3 v, float rr, int *overlap)
{
    float c, pe;
    float t = cylinder_entry(V0, e, ee, v, rr, &c, &pe);
    int edge_ok = ee >= TOI_MIN_DIR2;
    float sn0 = -pe;
    *overlap |= edge_ok & (c <= 0.0f) & (sn0 >= 0.0f) & (sn0 <= ee);
    return c > 0.0f ? t : INFINITY;
}

/* The triangle's point nearest X (*q, its squared distance *best, its feature *kind), found
   by the region of the triangle's Voronoi partition X lies in, decided by signs of linear
   functions of X (never by comparing nearly equal distances: near a grazing contact two
   candidates' distances differ by the square of their separation, so rounding would pick
   points far apart). With a face (face_in): the face foot X - st n when X projects strictly
   inside (the inside test's six sides all positive; st: X's signed distance from the
   plane); else the clamped projection onto an edge X lies outside of or on (judged from
   either endpoint) - one whose projection falls strictly within the edge when there is one
   (it is nearer than any vertex), else the nearest such edge's clamped endpoint. Without a
   face (degenerate, or a sliver within TOI_THIN_FACE of its longest edge): the clamped
   projection onto the longest edge (the first one on ties), which holds the whole triangle
   up to that width. The feature is where q lies: a vertex where the projection is clamped,
   an edge where X lies on its boundary with the face. The same function
   gives the closest point at t = 0 (whether the sphere approaches) and every output at
   the reported t, so point, normal and feature describe the centre's position at that t. */
static inline void nearest_point(vec3 X, const vec3 V[3], const vec3 E[3], const vec3 m[3],
                                 const float ee[3], int face_in, float st, vec3 n, vec3 *q,
                                 float *best, int *kind)
{
    vec3 qk[3];
    float d2[3];
    int kk[3], out[3], unc[3];
    for (int k = 0; k < 3; k++) {
        float sn = dot3(sub3(X, V[k]), E[k]);
        float sk = sn > 0.0f ? (sn < ee[k] ? sn / ee[k] : 1.0f) : 0.0f;
        qk[k] = (vec3){V[k].x + sk * E[k].x, V[k].y + sk * E[k].y, V[k].z + sk * E[k].z};
        vec3 d = sub3(X, qk[k]);
        d2[k] = dot3(d, d);
        kk[k] = sk == 0.0f ? TOI_FEATURE_VERTEX_A + k
              : sk == 1.0f ? TOI_FEATURE_VERTEX_A + (k + 1) % 3
                           : TOI_FEATURE_EDGE_AB + k;
        float w = edge_side(X, V[k], m[k]), x = edge_side(X, V[(k + 1) % 3], m[k]);
        out[k] = (w <= 0.0f) | (x <= 0.0f);
        unc[k] = (sn > 0.0f) & (sn < ee[k]);
    }
    int any_unc = (out[0] & unc[0]) | (out[1] & unc[1]) | (out[2] & unc[2]);
    int clamped_only = any_unc ^ 1, projects_in = (out[0] | out[1] | out[2]) ^ 1;
    int longest = ee[0] >= ee[1] && ee[0] >= ee[2] ? 0 : ee[1] >= ee[2] ? 1 : 2;
    *best = INFINITY;
    *kind = TOI_FEATURE_FACE;
    *q = X;
    for (int k = 0; k < 3; k++) {
        int cand = face_in ? out[k] & (unc[k] | clamped_only) : k == longest;
        if (cand && d2[k] < *best) {
            *best = d2[k];
            *q = qk[k];
            *kind = kk[k];
        }
    }
    if (face_in && projects_in) {
        *best = st * st;
        *q = sub3(X, mul3(n, st));
        *kind = TOI_FEATURE_FACE;
    }
}

/* The contact normal from the triangle's nearest point toward the centre (dir, best = |dir|^2):
   for a face contact (on_face, st the centre's signed distance) the face's unit normal n on
   the centre's side; else dir / |dir|; with the centre on the triangle, the face normal against
   the motion (dv = v.n; the front normal when it does not move); +x without a face. */
static inline void tri_contact_normal(int on_face, float st, vec3 n, vec3 dir, float best,
                                      int face_ok, float dv, toi_result *res)
{
    if (on_face && (st > 0.0f || st < 0.0f)) {
        res->nx = st > 0.0f ? n.x : -n.x;
        res->ny = st > 0.0f ? n.y : -n.y;
        res->nz = st > 0.0f ? n.z : -n.z;
    } else if (best >= TOI_MIN_DIR2) {
        float inv = 1.0f / sqrtf(best);
        res->nx = dir.x * inv, res->ny = dir.y * inv, res->nz = dir.z * inv;
    } else if (face_ok) {
        int back = dv > 0.0f;
        res->nx = back ? -n.x : n.x;
        res->ny = back ? -n.y : n.y;
        res->nz = back ? -n.z : n.z;
    } else {
        res->nx = TOI_FALLBACK_NX, res->ny = TOI_FALLBACK_NY, res->nz = TOI_FALLBACK_NZ;
    }
}

/* The earliest candidate time so far replaced by a strictly earlier one (a select, not a
   branch: which piece wins is unpredictable). */
static inline void earlier(float tk, float *t)
{
    *t = tk < *t ? tk : *t;
}

/* One sphere against one triangle (world coordinates). want: 0 for t alone, 1 for t and the
   feature, 2 for every output. On a hit res->t (and *feat when want >= 1, the rest of res
   when want = 2) are set; on a miss they are left alone.
   tmax: only a hit at t < tmax is wanted (a set's best so far; INFINITY for the exact
   result): a triangle that certainly cannot hit before min(tmax, 1) may be left a miss. */
TOI_SCALAR_INLINE void sweep_triangle(sphere S, triangle T, unsigned flags, int want,
                                      float tmax, toi_result *res, uint8_t *feat)
{
    vec3 v = S.v;
    float r = S.r;
    vec3 A = sub3(T.a, S.p), B = sub3(T.b, S.p), C = sub3(T.c, S.p);

    /* Size of the relative geometry; NaN or Inf anywhere makes it NaN or Inf. */
    float sa = (fabsf(A.x) + fabsf(A.y)) + fabsf(A.z);
    float sb = (fabsf(B.x) + fabsf(B.y)) + fabsf(B.z);
    float sc = (fabsf(C.x) + fabsf(C.y)) + fabsf(C.z);
    float size = (sa + sb) + sc;
    size = size + ((fabsf(v.x) + fabsf(v.y)) + fabsf(v.z));
    size = size + r;
    if (!(size < TOI_MAX_SUM) || !(r >= 0.0f))
        return;
    float s = toi_scalar_pow2_scale(size);
    A = mul3(A, s), B = mul3(B, s), C = mul3(C, s);
    v = mul3(v, s);
    r = r * s;
    float Ss = size * s; /* the size in scaled units */
    if (TOI_SCALAR_SUBNORMAL(size)) { /* a subnormal size: on to [1, 2) (scalar.h) */
        float s2 = toi_scalar_pow2_scale_sub(size, s);
        A = mul3(A, s2), B = mul3(B, s2), C = mul3(C, s2);
        v = mul3(v, s2), r = r * s2, Ss = Ss * s2;
    }

    /* Separation reject along the axes, in the scaled units (Ss, exact, is in [1, 2), so the
       margin never underflows and the test's own rounding stays ~FLT_EPSILON). */
    float tb = tmax < 1.0f ? tmax : 1.0f;
    float mg = TOI_BOX_MARGIN * Ss;
    float g = r + mg;
    if (apart(A.x, B.x, C.x, tb * v.x, g) | apart(A.y, B.y, C.y, tb * v.y, g) |
        apart(A.z, B.z, C.z, tb * v.z, g))
        return;

    float rr = r * r;
    float a = dot3(v, v);

    /* Culling: the world triangle's front normal (b - a) x (c - a), scaled like the rest. */
    if (flags & TOI_CULL_BACKFACES) {
        vec3 Nw = tri_normal(T, s);
        if (!(dot3(Nw, v) < 0.0f))
            return;
    }

    /* Edges AB, BC, CA; the face normal N = EA x -EC of these float edges, exact products in
       double and one rounding (tri_normal on 0, EA, -EC), so plane and edge half-planes
       describe one triangle. */
    vec3 EA = sub3(B, A), EB = sub3(C, B), EC = sub3(A, C);
    const vec3 O3 = {0.0f, 0.0f, 0.0f}, nEC = {-EC.x, -EC.y, -EC.z};
    vec3 N = tri_normal((triangle){O3, EA, nEC}, 1.0f);
    float NN = dot3(N, N);
    float eeA = dot3(EA, EA), eeB = dot3(EB, EB), eeC = dot3(EC, EC);
    float eemax = eeA > eeB ? eeA : eeB;
    eemax = eeC > eemax ? eeC : eemax;

    /* Face: unit normal n, signed distance s0 of the start, rate dv; ad, adv seen from the
       start's side. A triangle without area has no face (its edges and vertices remain);
       nor, though it keeps its normal (face_ok), has a sliver whose smallest angle is below
       a few FLT_EPSILON (face_in; internal.h, TOI_THIN_FACE). */
    int face_ok = NN >= TOI_MIN_DIR2;
    float lenN = sqrtf(NN);
    int face_in = face_ok & (lenN >= TOI_THIN_FACE * eemax);
    /* Separation reject along the normal: the vertices' and the path's coordinates along N
       against g |N| (the same test as along the unit normal, without waiting for the
       division). With a face, NN is a normal float and sqrt(NN) is |N| within a rounding;
       the test needs nothing else of N (not even that it is the triangle's exact normal). */
    float ha = dot3(A, N), hb = dot3(B, N), hc = dot3(C, N); /* heights along N */
    if (face_ok && apart(ha, hb, hc, tb * dot3(v, N), g * lenN))
        return;
    float ninv = 1.0f / lenN;
    vec3 n = mul3(N, ninv);
    float s0 = -dot3(A, n);
    float dv = dot3(v, n);
    int pos = s0 >= 0.0f;
    float ad = fabsf(s0);
    float adv = pos ? dv : -dv;
    vec3 mA = cross3(N, EA), mB = cross3(N, EB), mC = cross3(N, EC);

    /* The seven candidate times, +Inf where a piece is not entered in (0, 1]; and whether a
       piece contains the start. Order: vertices A B C, edges AB BC CA, face. The face comes
       first here (it is independent of the others) for the face-first skips. */
    float tf = INFINITY;
    int face_at_entry = 0; /* tf is the slab entry itself (not through a wall, wall_time) */
    /* the contact's sides of the edges, from each edge's first and second endpoint */
    float wA = 0.0f, wB = 0.0f, wC = 0.0f, xA = 0.0f, xB = 0.0f, xC = 0.0f;
    if (face_in && ad > r && adv < 0.0f) {
        float t = (r - ad) / adv;
        if (t <= 1.0f) {
            vec3 P = mul3(v, t);
            wA = edge_side(P, A, mA), wB = edge_side(P, B, mB), wC = edge_side(P, C, mC);
            xA = edge_side(P, B, mA), xB = edge_side(P, C, mB), xC = edge_side(P, A, mC);
            const int out[3] = {((wA >= 0.0f) & (xA >= 0.0f)) ^ 1,
                                ((wB >= 0.0f) & (xB >= 0.0f)) ^ 1,
                                ((wC >= 0.0f) & (xC >= 0.0f)) ^ 1};
            face_at_entry = (out[0] | out[1] | out[2]) ^ 1;
            if (face_at_entry) {
                tf = t;
            } else {
                const vec3 Vw[3] = {A, B, C}, Ew[3] = {EA, EB, EC}, mw[3] = {mA, mB, mC};
                const float eew[3] = {eeA, eeB, eeC};
                tf = wall_time(v, t, ad, adv, r, Vw, Ew, eew, mw, out);
            }
        }
    }

    /* Face-first skips: an edge far enough inside from a face contact, and its two vertices,
       cannot be touched at or before it - not even at t = 0 - so their pieces, which could
       only lose to the face (or be +Inf), are left out. With h the height of p(t) above the
       face's plane along n and beta_k its distance from the plane through edge k normal to
       the face (beta_k = (p - V_k).m_k / |m_k|), the distance from p(t) to any point of edge
       k's line is at least sqrt(h^2 + beta_k^2), less the triangle's thickness along n.
       Before t1, where the path enters the slab of half-width r + mg, h > r + mg; from t1 to
       the face contact, h >= r, and beta_k >= D at both ends (so all along: beta_k is linear
       in t) with D^2 = (r + 2 mg)^2 - r^2. With the triangle flat within mg / 2 along n,
       every point of the path up to the contact is then farther than r + mg / 2 from edge k
       and its vertices, which, as for the rejects, no contact time (nor overlap at t = 0)
       the kernel computes for them can be. The contact's side of edge k must show this from
       both of the edge's endpoints (the inside test computes both; requiring more only
       skips less). A skipped piece's time would thus be later than
       the face's, which then (or an earlier piece still computed) is the minimum: the choice
       and its outputs are those of the full computation. */
    int deepA = 0, deepB = 0, deepC = 0;
    if (face_at_entry) {
        float lo = ha < hb ? ha : hb, hi = ha > hb ? ha : hb;
        lo = hc < lo ? hc : lo;
        hi = hc > hi ? hc : hi;
        if (hi - lo <= 0.5f * mg * lenN) { /* thickness along n, times |N| */
            float t1 = ad > g ? (g - ad) / adv : 0.0f;
            vec3 P1 = mul3(v, t1);
            float w1A = edge_side(P1, A, mA), w1B = edge_side(P1, B, mB);
            float w1C = edge_side(P1, C, mC);
            /* beta_k >= D as (P - V_k).m_k >= D |m_k|, with |m_k|^2 at least TOI_MIN_DIR2 (a
               normal float) so that nothing here underflows: for a tiny edge, |m_k|^2 and
               the squares of these sides would, and a test passed by 0 >= 0 proves nothing */
            float D = sqrtf(mg * (4.0f * r + 4.0f * mg));
            float mmA = dot3(mA, mA), mmB = dot3(mB, mB), mmC = dot3(mC, mC);
            float DA = D * sqrtf(mmA), DB = D * sqrtf(mmB), DC = D * sqrtf(mmC);
            deepA = (mmA >= TOI_MIN_DIR2) & (wA >= DA) & (xA >= DA) & (w1A >= DA);
            deepB = (mmB >= TOI_MIN_DIR2) & (wB >= DB) & (xB >= DB) & (w1B >= DB);
            deepC = (mmC >= TOI_MIN_DIR2) & (wC >= DC) & (xC >= DC) & (w1C >= DC);
        }
    }

    int overlap = 0;
    float tA = INFINITY, tB = INFINITY, tC = INFINITY; /* vertices */
    if (!(deepA || deepC)) /* A is on edges AB and CA */
        tA = vertex_time(A, v, a, rr, &overlap);
    if (!(deepA || deepB))
        tB = vertex_time(B, v, a, rr, &overlap);
    if (!(deepB || deepC))
        tC = vertex_time(C, v, a, rr, &overlap);
    float tAB = deepA ? INFINITY : edge_entry(A, EA, eeA, v, rr, &overlap);
    float tBC = deepB ? INFINITY : edge_entry(B, EB, eeB, v, rr, &overlap);
    float tCA = deepC ? INFINITY : edge_entry(C, EC, eeC, v, rr, &overlap);
    const vec3 O = {0.0f, 0.0f, 0.0f};
    if (face_in && ad <= r) /* the start over the face within r: touching if inside */
        overlap |= inside(O, A, B, C, mA, mB, mC);

    float inv_s = 1.0f / s, inv_s2 = toi_scalar_pow2_unscale_sub(size);
    const vec3 V[3] = {A, B, C}, E[3] = {EA, EB, EC}, m[3] = {mA, mB, mC};
    const float ee[3] = {eeA, eeB, eeC};
    vec3 X, q;  /* the centre at the reported t; the triangle's point nearest it */
    float best; /* |X - q|^2 */
    float t, st; /* st: X's signed distance from the face's plane */
    int kind;   /* where q lies */
    if (overlap) {
        /* Closest point at t = 0; approaching: f'(0) < 0, i.e. q0.v > 0 (a centre on the
           triangle never is). */
        t = 0.0f;
        X = O;
        st = s0 + t * dv;
        nearest_point(X, V, E, m, ee, face_in, st, n, &q, &best, &kind);
        int approach = best >= TOI_MIN_DIR2 && dot3(q, v) > 0.0f;
        if (!approach && !(flags & TOI_ALL_OVERLAPS))
            return;
        res->t = t;
        if (!want)
            return;
    } else {
        t = tA;
        earlier(tB, &t);
        earlier(tC, &t);
        earlier(tAB, &t);
        earlier(tBC, &t);
        earlier(tCA, &t);
        earlier(tf, &t);
        if (!(t <= 1.0f))
            return;
        res->t = t;
        if (!want)
            return;
        /* The outputs describe the centre at t, whichever piece gave t: a sphere sliding at
           exactly r can enter an edge's cylinder while its centre is over the face. */
        X = mul3(v, t);
        st = s0 + t * dv;
        nearest_point(X, V, E, m, ee, face_in, st, n, &q, &best, &kind);
    }
    *feat = (uint8_t)kind;
    if (want < 2)
        return;
    float depth = ((r - sqrtf(best)) * inv_s2) * inv_s;
    res->depth = overlap && depth > 0.0f ? depth : 0.0f;

    /* Normal: from q toward the centre - for the face, its unit normal on the centre's side;
       when the centre is on the triangle (only at t = 0), the face normal against the
       motion (the front normal when it does not move; +x without a face). */
    tri_contact_normal(kind == TOI_FEATURE_FACE, st, n, sub3(X, q), best, face_ok, dv, res);
    /* Point: q back in world units. */
    res->px = S.p.x + (q.x * inv_s2) * inv_s;
    res->py = S.p.y + (q.y * inv_s2) * inv_s;
    res->pz = S.p.z + (q.z * inv_s2) * inv_s;
}

/* What a triangle query computes beyond t: 2 every output, 1 the feature alone, 0 nothing. */
static inline int tri_want(const toi_hits *out)
{
    return toi_wants_full(out) ? 2 : out->feature != NULL;
}

/* Sphere i's result in a set or mesh query: the winning triangle T (its index win) recomputed
   for the outputs asked for (the same function as the scan, so the same t), or a miss when
   win is UINT32_MAX. Returns whether it hit. */
TOI_SCALAR_INLINE size_t store_winner(sphere S, triangle T, uint32_t win, unsigned flags,
                                      const toi_hits *out, size_t i)
{
    toi_result r;
    uint8_t feat = TOI_FEATURE_NONE;
    toi_scalar_miss(&r);
    if (win != UINT32_MAX)
        sweep_triangle(S, T, flags, tri_want(out), INFINITY, &r, &feat);
    toi_scalar_store(out, i, &r, toi_wants_full(out));
    if (out->feature)
        out->feature[i] = feat;
    if (out->index)
        out->index[i] = win;
    return win != UINT32_MAX;
}

#endif /* TOI_SCALAR_TRI_SWEEP_H */
