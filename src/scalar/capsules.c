/* scalar/capsules.c - reference capsule sweeps (plain C, one query at a time): a capsule
   (segment p0 -> p1 of radius r, translated by v) against a sphere, and against a plane.

   Capsule against sphere. f(t) is the distance from the sphere's centre to the capsule's
   segment, R = rA + rB. In the sphere query's relative coordinates (l0 = p0 - c,
   v = vA - vB, everything scaled by the same exact power of two) the segment at time t is
   l0 + t v + u e, u in [0, 1], e = p1 - p0, and the sphere's centre is the origin. The
   R-neighbourhood of the segment is a ball around each end and a cylinder around the
   segment's line clipped to it, so the first contact from outside is the earliest entry
   into one of the three: the end balls by the sphere query's quadratic (scalar/spheres.c),
   the cylinder by the edge quadratic of the triangle query (scalar/tri_sweep.h), whose
   discriminant is written as e.e (a R^2 - ((v x e).l0)^2) by Lagrange's identity.

   At t = 0 (in contact or not, and approaching or not) and at the reported t, the segment's
   point nearest the centre is found by its Voronoi region: u = 0 where (l0 + t v).e >= 0,
   u = 1 where -(l0 + t v).e >= e.e, else the foot -(l0 + t v).e / e.e. The vector d from
   the centre to that point gives f = |d|, the contact test c = d.d - R^2 <= 0, the approach
   test b = d.v < 0 (f'(0) < 0), the normal d / |d| and the depth R - |d|. f is convex along
   a linear motion, so a pair apart at t = 0 that does not approach never touches later; but
   b carries d's rounding, ~FLT_EPSILON size |v|, which can outweigh |d| |v| cos when the pair
   is near against its size (a long capsule) and the motion nearly tangent: such a pair
   closing in was judged receding, a miss by far more than the margin. So a pair apart at
   t = 0 is dismissed only when it recedes by more than that error (recedes below); the
   pieces decide the others, and a piece entered at t <= 0 (a start inside it by rounding)
   counts only for a pair that approaches.

   A capsule with p0 = p1 is a sphere, and this query then returns bit for bit what
   toi_sweep_spheres returns for that sphere (p0, v, r) against the same sphere, by
   construction: the size is the sphere query's size plus |e|_1 = 0 (exact), e = 0 puts every
   Voronoi region on u = 0, where d is l0 itself (selected, never l0 + 0 e, which could turn
   a -0 into +0), the p0 ball is the sphere query's quadratic with its operations in its
   order, the p1 ball repeats it (a tie, which keeps p0's), and the cylinder of a segment
   shorter than TOI_MIN_DIR2 (squared, scaled units) does not exist.

   Capsule against plane: the signed distance of the segment is the lower of its ends'
   s0 = n.p - d (the segment's distance changes as n.v t, the same at both ends), so the
   query is the sphere-plane query (scalar/plane.c) of the lower end, p1 only when it is
   strictly lower: a capsule parallel to the plane touches along a whole segment and reports
   the point below p0. p0 = p1 is, again, the sphere query bit for bit.

   The SIMD kernels (src/simd/capsules.h) perform exactly these operations in this order. */
#include "mesh_walk.h"
#include "tri_sweep.h"

/* Receding at t = 0 beyond any rounding of b = d0.v: b >= m |v| with m = TOI_BOX_MARGIN
   size_s (size_s: the query's scaled size, ~1), 2^9 times the kernels' error in d0 (below 64
   FLT_EPSILON size_s; internal.h), compared squared: b >= 0 and b^2 >= m^2 a, a = v.v. A pair
   that approaches has b < (its error) < m |v|, so it is never dismissed. */
TOI_SCALAR_INLINE int recedes(float b, float a, float size_s)
{
    float m = TOI_BOX_MARGIN * size_s;
    return (b >= 0.0f) & (b * b >= (m * m) * a);
}

/* Apart at t = 0 and not receding: the earliest piece's t is a hit when entered by t = 1, and
   a start inside a piece (t <= 0, by rounding) only when approaching; then clamped to 0. */
TOI_SCALAR_INLINE int apart_hit(float *t, int approach)
{
    if (!(*t <= 1.0f) || (!(*t > 0.0f) && !approach))
        return 0;
    *t = *t > 0.0f ? *t : 0.0f;
    return 1;
}

/* The one rule at t = 0, from the nearest vector d0 between the obstacle and the segment
   (scaled units; v the relative motion, a = v.v, RR = R^2, size_s the scaled size):
   1, touching and a hit at t = 0 (approaching, or any overlap with TOI_ALL_OVERLAPS); 0, a
   miss (touching otherwise, or apart and receding); -1, apart and not receding: the pieces
   decide (apart_hit, with *approach). */
TOI_SCALAR_INLINE int start_rule(vec3 d0, vec3 v, float a, float RR, float size_s,
                                 unsigned flags, int *approach)
{
    float b = dot3(d0, v);
    *approach = b < 0.0f;
    float c = dot3(d0, d0) - RR;
    if (c <= 0.0f)
        return *approach || (flags & TOI_ALL_OVERLAPS) ? 1 : 0;
    return recedes(b, a, size_s) ? 0 : -1;
}

/* One end ball: the sphere query's first root with its validity (approaching, discriminant
   >= 0, t <= 1); +Inf when not entered. A start inside the ball (c <= 0, possible only by
   rounding when the whole segment is not in contact) gives t <= 0, which the caller clamps
   to 0. */
TOI_SCALAR_INLINE float end_time(vec3 l, vec3 v, float a, float RR)
{
    float b = dot3(l, v);
    float c = dot3(l, l) - RR;
    vec3 cr = cross3(l, v);
    float disc = a * RR - dot3(cr, cr);
    float t = c / (sqrtf(disc) - b);
    return ((b < 0.0f) & (disc >= 0.0f) & (t <= 1.0f)) ? t : INFINITY;
}

/* The cylinder of radius R around the line l0 + u e, entered at a point with u in [0, 1], in
   the frame where the centre moves by w = -v against the segment at rest: cylinder_entry of
   scalar/tri_sweep.h (met in the plane across the segment; a start inside it gives t <= 0,
   which the caller clamps). Through u = w x e, as it once was, a path nearly parallel to a
   long segment lost its distance to the line by more than the margin: a sphere passing
   within R - 1.4 delta of a capsule 41 long was missed (docs/capsules.md). */
TOI_SCALAR_INLINE float cylinder_time(vec3 l0, vec3 e, float ee, vec3 w, float RR)
{
    float c, pe;
    return cylinder_entry(l0, e, ee, w, RR, &c, &pe);
}

/* ---- exit times (toi_hits.t_exit) ----
   The R-neighbourhood of the segment (of the parallelogram, for two capsules) is convex, so
   the path l + t v lies in it over one interval, and that interval ends at the latest exit
   among the pieces the path meets: an end ball's larger root where the path meets the ball
   (discriminant >= 0), a cylinder's larger root where the path leaves it through its side
   (the foot within the segment: else it leaves through a cap, which lies in an end ball),
   and the face slab's exit where the foot there lies inside the face. A piece the path does
   not leave that way counts -inf. Where no piece exists but the balls (segments shorter than
   TOI_MIN_DIR2 and no face: points, up to rounding) each ball's larger root counts as the
   sphere query's (scalar/spheres.c: a discriminant below 0 counts as 0), so p0 = p1 gives the
   sphere query's t_exit bit for bit. Tiny motion (v.v below TOI_EXIT_MIN_A) is solved with v
   scaled by the power of two k that brings |v|_1 to [1, 2), the time multiplied back by k;
   no motion at all never separates (+inf). The exit is at least t. */

/* v rescaled for the exit when v.v is below TOI_EXIT_MIN_A (*k the factor, else 1); 0 when
   there is no motion at all. */
TOI_SCALAR_INLINE int exit_motion(vec3 *v, float *k)
{
    *k = 1.0f;
    if (dot3(*v, *v) >= TOI_EXIT_MIN_A)
        return 1;
    *k = toi_scalar_pow2_scale((fabsf(v->x) + fabsf(v->y)) + fabsf(v->z));
    *v = mul3(*v, *k);
    return dot3(*v, *v) != 0.0f;
}

/* An end ball's exit: the sphere query's larger root (its operations, in its order), -inf
   where the path misses the ball unless every ball counts (any). */
TOI_SCALAR_INLINE float ball_exit(vec3 l, vec3 v, float RR, int any)
{
    float c = dot3(l, l) - RR;
    float a = dot3(v, v);
    float b = dot3(l, v);
    vec3 cr = cross3(l, v);
    float disc = a * RR - dot3(cr, cr);
    float sd = disc > 0.0f ? sqrtf(disc) : 0.0f;
    float te = b <= 0.0f ? (sd - b) / a : c / (-b - sd);
    return (any | (disc >= 0.0f)) ? te : -INFINITY;
}

/* A cylinder's exit (cylinder_entry's frame: axis V0 + u e, the centre moving by w): the
   larger root t2 of its quadratic (the stable form for each sign of b) where the foot there
   lies within the segment; else, where it lies beyond an end the path moves toward, the time
   the path crosses that end's disc (sn = 0 or ee), if it is in the cylinder by then (at or
   after the smaller root t1); -inf otherwise (no segment, motion along the axis, the path
   missing the cylinder, or never alongside the segment inside it). The disc lies in the end's
   ball, so it changes no exact result; but a path grazing the cylinder (its exit poorly
   conditioned) that leaves it just past an end whose ball it grazes too was left by both by
   rounding - the exit fell back to the start's ball, long before (the accuracy group at 32
   times its sample: paths nearly along capsules 143 and 940 long) - and the disc closes that
   gap, as it does for the entry (cylinder_entry). */
TOI_SCALAR_INLINE float cylinder_exit(vec3 V0, vec3 e, float ee, vec3 w, float rr)
{
    int edge_ok = ee >= TOI_MIN_DIR2;
    const cyl_frame f = cylinder_frame(V0, e, ee, w, rr);
    const float aw = f.aw, b = f.b, c = f.c, disc = f.disc;
    float sd = sqrtf(disc);
    float t1 = b >= 0.0f ? c / (sd + b) : (b - sd) / aw;
    float t2 = b >= 0.0f ? (sd + b) / aw : c / (b - sd);
    float sn = t2 * f.ve - f.pe;
    int lo = sn < 0.0f, hi = sn > ee;
    int toward = (lo & (f.ve < 0.0f)) | (hi & (f.ve > 0.0f));
    float tcap = (lo ? f.pe : f.pe + ee) / f.ve;
    int beyond = lo | hi;
    float te = beyond ? tcap : t2;
    int within = (beyond ^ 1) | (toward & (tcap >= t1));
    return (edge_ok & (aw > 0.0f) & (disc >= 0.0f) & within) ? te : -INFINITY;
}

/* The later of te and x (te kept on ties and where x is NaN). */
static inline float later(float te, float x)
{
    return x > te ? x : te;
}

/* A capsule-sphere pair's exit (scaled units; the segment l0 -> l1 = l0 + e, ee = e.e),
   for a hit at t. */
TOI_SCALAR_INLINE float segment_exit(vec3 l0, vec3 l1, vec3 e, float ee, vec3 v, float RR,
                                     float t)
{
    float k;
    if (!exit_motion(&v, &k))
        return INFINITY;
    int any = !(ee >= TOI_MIN_DIR2);
    float te = ball_exit(l0, v, RR, any);
    te = later(te, ball_exit(l1, v, RR, any));
    te = later(te, cylinder_exit(l0, e, ee, (vec3){-v.x, -v.y, -v.z}, RR));
    te = te * k;
    return te > t ? te : t;
}

/* The vector from the centre to the segment's point nearest it, for the segment
   D + u e (D = l0 + t v, D1 = l1 + t v its other end), by the Voronoi region of the centre. */
TOI_SCALAR_INLINE vec3 nearest_on_segment(vec3 D, vec3 D1, vec3 e, float ee)
{
    float num = -dot3(D, e);
    if (num <= 0.0f)
        return D;
    if (num >= ee)
        return D1;
    float u = num / ee;
    return (vec3){D.x + u * e.x, D.y + u * e.y, D.z + u * e.z};
}

typedef struct capsule {
    vec3 p0, p1, v;
    float r;
} capsule;

static inline capsule load_capsule(const toi_capsules *c, size_t i)
{
    return (capsule){{c->x0[i], c->y0[i], c->z0[i]},
                     {c->x1[i], c->y1[i], c->z1[i]},
                     {c->vx[i], c->vy[i], c->vz[i]},
                     c->r[i]};
}

TOI_SCALAR_INLINE int sweep_capsule_sphere(capsule A, sphere B, unsigned flags, int full,
                                           toi_result *res, float *t_exit)
{
    float lx = A.p0.x - B.p.x, ly = A.p0.y - B.p.y, lz = A.p0.z - B.p.z;
    float vx = A.v.x - B.v.x, vy = A.v.y - B.v.y, vz = A.v.z - B.v.z;
    float R = A.r + B.r;
    float ex = A.p1.x - A.p0.x, ey = A.p1.y - A.p0.y, ez = A.p1.z - A.p0.z;

    /* the sphere query's size, then the segment's length (|e|_1 = 0 adds nothing) */
    float size = ((fabsf(lx) + fabsf(ly)) + fabsf(lz)) + ((fabsf(vx) + fabsf(vy)) + fabsf(vz));
    size = size + R;
    size = size + ((fabsf(ex) + fabsf(ey)) + fabsf(ez));
    if (!(size < TOI_MAX_SUM) || !(A.r >= 0.0f) || !(B.r >= 0.0f))
        return 0;
    float s = toi_scalar_pow2_scale(size);
    vec3 l0 = {lx * s, ly * s, lz * s};
    vec3 v = {vx * s, vy * s, vz * s};
    vec3 e = {ex * s, ey * s, ez * s};
    vec3 l1 = {(A.p1.x - B.p.x) * s, (A.p1.y - B.p.y) * s, (A.p1.z - B.p.z) * s};
    R = R * s;
    float S = size * s;
    if (TOI_SCALAR_SUBNORMAL(size)) { /* a subnormal size: on to [1, 2) (scalar.h) */
        float s2 = toi_scalar_pow2_scale_sub(size, s);
        l0 = mul3(l0, s2), v = mul3(v, s2), e = mul3(e, s2), l1 = mul3(l1, s2);
        R = R * s2, S = S * s2;
    }
    float ee = dot3(e, e);

    vec3 d0 = nearest_on_segment(l0, l1, e, ee);
    float RR = R * R;
    float a = dot3(v, v);
    int approach;
    int start = start_rule(d0, v, a, RR, S, flags, &approach);
    if (start == 0)
        return 0;
    int overlap = start > 0;
    float t = 0.0f;
    if (!overlap) {
        t = end_time(l0, v, a, RR);
        float t1 = end_time(l1, v, a, RR);
        t = t1 < t ? t1 : t;
        float tc = cylinder_time(l0, e, ee, (vec3){-v.x, -v.y, -v.z}, RR);
        t = tc < t ? tc : t;
        if (!apart_hit(&t, approach))
            return 0;
    }
    res->t = t;
    if (t_exit)
        *t_exit = segment_exit(l0, l1, e, ee, v, RR, t);
    if (!full)
        return 1;

    /* Normal: from the sphere's centre toward the segment's nearest point at t. */
    vec3 D = {l0.x + t * v.x, l0.y + t * v.y, l0.z + t * v.z};
    vec3 D1 = {l1.x + t * v.x, l1.y + t * v.y, l1.z + t * v.z};
    vec3 d = nearest_on_segment(D, D1, e, ee);
    float dd = dot3(d, d);
    float len = sqrtf(dd);
    float inv = 1.0f / len;
    if (dd >= TOI_MIN_DIR2) {
        res->nx = d.x * inv, res->ny = d.y * inv, res->nz = d.z * inv;
    } else {
        res->nx = TOI_FALLBACK_NX, res->ny = TOI_FALLBACK_NY, res->nz = TOI_FALLBACK_NZ;
    }
    /* Point: on the sphere's surface toward the segment, in world units. */
    res->px = (B.p.x + t * B.v.x) + res->nx * B.r;
    res->py = (B.p.y + t * B.v.y) + res->ny * B.r;
    res->pz = (B.p.z + t * B.v.z) + res->nz * B.r;
    res->depth = 0.0f;
    if (overlap) {
        float depth = toi_scalar_unscale(R - len, size);
        res->depth = depth > 0.0f ? depth : 0.0f;
    }
    return 1;
}

/* The batch loops, with want_exit a constant in each copy (as the sphere queries'). */
static inline size_t capsule_sphere_loop(size_t n, const toi_capsules *C, const toi_spheres *S,
                                         unsigned flags, const toi_hits *out, int want_exit)
{
    int full = toi_wants_full(out);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        toi_result r;
        float te;
        int hit = sweep_capsule_sphere(load_capsule(C, i), load_sphere(S, i), flags, full, &r,
                                       want_exit ? &te : NULL);
        hits += (size_t)hit;
        toi_scalar_store(out, i, hit ? &r : &toi_scalar_no_hit, full);
        if (want_exit)
            out->t_exit[i] = hit ? te : TOI_NO_HIT;
    }
    return hits;
}

size_t toi_scalar_sweep_capsules_spheres(size_t n, const toi_capsules *C, const toi_spheres *S,
                                         unsigned flags, const toi_hits *out)
{
    return out->t_exit ? capsule_sphere_loop(n, C, S, flags, out, 1)
                       : capsule_sphere_loop(n, C, S, flags, out, 0);
}

/* Capsule against the plane: the sphere-plane query (scalar/plane.c) of the segment's lower
   end, p1 only when strictly lower. */
TOI_SCALAR_INLINE int sweep_capsule_plane(capsule A, const toi_plane *P, int plane_ok,
                                          unsigned flags, int full, toi_result *res,
                                          float *t_exit)
{
    float s0 = ((P->nx * A.p0.x + P->ny * A.p0.y) + P->nz * A.p0.z) - P->d;
    float s1 = ((P->nx * A.p1.x + P->ny * A.p1.y) + P->nz * A.p1.z) - P->d;
    float sv = (P->nx * A.v.x + P->ny * A.v.y) + P->nz * A.v.z;
    float r = A.r;
    /* finite only if both ends and the displacement are (scalar/plane.c) */
    float finite = ((s0 - s0) + (sv - sv)) + (r - r);
    finite = finite + (s1 - s1);
    if (!plane_ok || !(finite == 0.0f) || !(r >= 0.0f))
        return 0;
    int low1 = s1 < s0;
    vec3 p = low1 ? A.p1 : A.p0;
    s0 = low1 ? s1 : s0;
    float t;
    int overlap = 0;
    if (s0 <= r) {
        if (!(sv < 0.0f) && !(flags & TOI_ALL_OVERLAPS))
            return 0;
        t = 0.0f;
        overlap = 1;
    } else {
        t = (r - s0) / sv;
        if (!(sv < 0.0f) || !(t <= 1.0f))
            return 0;
    }
    res->t = t;
    if (t_exit) /* the lower end leaves the slab last (both ends move by the same n.v) */
        *t_exit = toi_scalar_plane_exit(A.v.x, A.v.y, A.v.z, r, P, s0, sv);
    if (!full)
        return 1;
    float st = s0 + t * sv;
    res->nx = P->nx, res->ny = P->ny, res->nz = P->nz;
    res->px = (p.x + t * A.v.x) - st * P->nx;
    res->py = (p.y + t * A.v.y) - st * P->ny;
    res->pz = (p.z + t * A.v.z) - st * P->nz;
    res->depth = 0.0f;
    if (overlap) {
        float depth = r - s0;
        res->depth = depth > 0.0f ? depth : 0.0f;
    }
    return 1;
}

static inline size_t capsule_plane_loop(size_t n, const toi_capsules *C, const toi_plane *P,
                                        unsigned flags, const toi_hits *out, int want_exit)
{
    int full = toi_wants_full(out);
    int plane_ok = toi_plane_ok(P);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        toi_result r;
        float te;
        int hit = sweep_capsule_plane(load_capsule(C, i), P, plane_ok, flags, full, &r,
                                      want_exit ? &te : NULL);
        hits += (size_t)hit;
        toi_scalar_store(out, i, hit ? &r : &toi_scalar_no_hit, full);
        if (want_exit)
            out->t_exit[i] = hit ? te : TOI_NO_HIT;
    }
    return hits;
}

size_t toi_scalar_sweep_capsules_plane(size_t n, const toi_capsules *C, const toi_plane *P,
                                       unsigned flags, const toi_hits *out)
{
    return out->t_exit ? capsule_plane_loop(n, C, P, flags, out, 1)
                       : capsule_plane_loop(n, C, P, flags, out, 0);
}

/* Capsule against capsule. In relative coordinates (scaled as above) the set of vectors from
   a point of B's segment to a point of A's, a(u) - b(w) = l + u ea - w eb, is a parallelogram
   with corners C00 = a0 - b0, C10 = a1 - b0, C01 = a0 - b1, C11 = a1 - b1 moving by v, and
   f(t) is its distance from the origin. Its R-neighbourhood is a ball around each corner (end
   against end), a cylinder around each edge (an end of one segment against the other
   segment: edges 0, 1 are A's segment against b0, b1; edges 2, 3 are a0, a1 against B's
   segment) and a slab over its face (the segments' interiors, normal N = ea x eb). Every
   piece is tested; the first contact is the earliest entry.

   The face: N is computed in double from the float edges (tri_normal of the triangle
   (0, ea, eb): exact products, rounded once), so the plane and the edges' half-planes
   describe one parallelogram. A face thinner than TOI_SEG_FACE_MIN (N.N below it times
   ea.ea eb.eb, or a segment with e.e below it) is left out: its width |N| / |e_long| is then
   below 2^-20 of the shorter segment, well inside the margin, and the edges hold it (so
   parallel segments have no face at all); so is a face narrower than 2^-17 (scaled units,
   TOI_SEG_FACE_WIDTH2), whose half-planes' rounding could judge the origin from the wrong
   side (para_has_face). Each half-plane of the face is judged from both
   corners of its edge (as the triangle face is), and the face piece's entry is where the
   origin's distance to the plane, (C00 + t v).N / |N|, reaches R on its side, inside the
   parallelogram there.

   The nearest vectors (at t = 0 and at the reported t): the face's foot N (C.N) / N.N where
   the origin projects inside the face (B's parameter there, -(C.mb) / N.N, cancels where the
   corners are far larger than a near-parallel face's width, by up to eps |C| / (|eb| sin)
   of B's length: it is kept between A's ends projected on B's line, between which the foot
   lies and which are well conditioned, so the point stays alongside A, and then in [0, 1]),
   else the nearest of the edges (each by its Voronoi region as for the capsule and
   sphere). Which edge is chosen by the face's half-planes, not by comparing distances: the
   nearest point of a convex polygon lies on an edge whose half-plane the origin's projection
   is outside of, and it is that edge's foot when the foot lies inside the edge (else a
   corner). Comparing distances alone is unstable there: near a corner, the adjacent edge's
   foot and the corner are ~sqrt(FLT_EPSILON) |d| apart while their distances differ below
   rounding (the normal was 2e-4 off). So each edge ranks 2 when the projection is outside
   its half-plane (judged from either corner) and its foot is inside it, 1 when outside with
   its foot clamped to a corner, 0 otherwise (and every edge 0 without a face), and the
   highest rank wins, then the nearest: edge 0 first and a later edge only when of a higher
   rank or, equal, strictly nearer; edges 2 and 3 count only when B's segment is longer than
   TOI_MIN_DIR2 (else they are the corners C00 and C10, which edge 0 holds). Without a face
   (parallel or nearly parallel segments, B not a point) the half-planes do not exist and
   the same instability holds between a corner and the foot of one of its ends on the other
   segment (the normal was 2.5e-4 off), so there the ranks come from the clamps: an exact
   zero vector ranks 3 (the segments touch: no pair is nearer, and the fallback normal
   stays that of touching segments), an edge
   whose foot lies inside it ranks 2 (that end lies alongside the other segment; between
   nearly parallel segments every such foot is within |e| sin < 2^-20 |e| of the nearest
   pair), a corner 1 when its two ends are each other's clamp (then it is the nearest pair:
   the squared distance is convex over [0, 1]^2 and this is its minimum's condition at a
   corner), else 0. For a contact along a segment (parallel segments, no face) this reports
   the pair at B's p0 if it lies alongside A (edge 0), else at B's p1 (edge 1), else at A's
   p0 (edge 2), else at A's p1 (in floating point: the first of those feet that no later
   one undercuts, so that touching segments keep an exact 0 where one has it).
   B a point (b0 = b1): the capsule-sphere query bit for bit; both points: the sphere query. */

/* The segment's point nearest the origin with its parameter *u (0, 1 or the foot) and
   *foot, whether it is the foot (strictly inside the segment). */
TOI_SCALAR_INLINE vec3 nearest_on_segment_u(vec3 D, vec3 D1, vec3 e, float ee, float *u,
                                            int *foot)
{
    float num = -dot3(D, e);
    *foot = 0;
    if (num <= 0.0f) {
        *u = 0.0f;
        return D;
    }
    if (num >= ee) {
        *u = 1.0f;
        return D1;
    }
    float f = num / ee;
    *u = f;
    *foot = 1;
    return (vec3){D.x + f * e.x, D.y + f * e.y, D.z + f * e.z};
}

typedef struct para {
    vec3 C[4]; /* C00, C10, C01, C11 */
    vec3 ea, eb, nea, N, ma, mb;
    float eea, eeb, NN;
    int face, edges_b;
} para;

static inline vec3 add3t(vec3 a, float t, vec3 v)
{
    return (vec3){a.x + t * v.x, a.y + t * v.y, a.z + t * v.z};
}

/* The parallelogram has a face (TOI_SEG_FACE_MIN, TOI_SEG_FACE_WIDTH2): both segments and
   the angle between them not negligible, and its narrower width at least 2^-17. */
static inline int para_has_face(float NN, float eea, float eeb)
{
    float emax = eea > eeb ? eea : eeb;
    return (eea >= TOI_SEG_FACE_MIN) & (eeb >= TOI_SEG_FACE_MIN) &
           (NN >= TOI_SEG_FACE_MIN * (eea * eeb)) & (NN >= TOI_SEG_FACE_WIDTH2 * emax);
}

/* The face's half-plane values at the corners Ct: h[0..3] = Ct[0..3].ma, h[4..7] =
   Ct[0..3].mb. Inside: Ct.ma <= 0 at C00, C01 (u >= 0), >= 0 at C10, C11 (u <= 1);
   Ct.mb <= 0 at C00, C10 (w >= 0), >= 0 at C01, C11 (w <= 1). */
TOI_SCALAR_INLINE void para_sides(const para *P, const vec3 Ct[4], float h[8])
{
    h[0] = dot3(Ct[0], P->ma), h[2] = dot3(Ct[2], P->ma);
    h[1] = dot3(Ct[1], P->ma), h[3] = dot3(Ct[3], P->ma);
    h[4] = dot3(Ct[0], P->mb), h[5] = dot3(Ct[1], P->mb);
    h[6] = dot3(Ct[2], P->mb), h[7] = dot3(Ct[3], P->mb);
}

/* The origin projects inside the face at time t: each half-plane from both its corners. */
static inline int para_inside_h(const float h[8])
{
    return (h[0] <= 0.0f) & (h[2] <= 0.0f) & (h[1] >= 0.0f) & (h[3] >= 0.0f) &
           (h[4] <= 0.0f) & (h[5] <= 0.0f) & (h[6] >= 0.0f) & (h[7] >= 0.0f);
}

TOI_SCALAR_INLINE int para_inside(const para *P, const vec3 Ct[4])
{
    float h[8];
    para_sides(P, Ct, h);
    return para_inside_h(h);
}

/* An edge's rank (above): outside its half-plane (face only), and its foot inside it. */
static inline float para_rank(int face, int out, int foot)
{
    return (face & out) ? (foot ? 2.0f : 1.0f) : 0.0f;
}

/* Without a face (b's segment not a point): an edge clamped to a corner ranks 1 when the
   corner's other end is clamped to it too (other, the edge of that end: not its foot, its
   parameter at the corner's end c), the corner being then the nearest pair, else 0. */
static inline float para_mutual(int other_foot, float other_param, float c)
{
    return (!other_foot && other_param == c) ? 1.0f : 0.0f;
}

/* Without a face: an end's foot pair (slope g = d.e toward its segment's interior, the
   segment's e.e) gets nearer by sliding off the end, beyond rounding (TOI_SEG_SLIDE2). */
static inline int para_slides(float g, float ee)
{
    return (g < 0.0f) & (g * g > TOI_SEG_SLIDE2 * ee);
}

/* The vector from B's nearest point to A's at time t, and B's parameter *w there. */
TOI_SCALAR_INLINE vec3 para_nearest(const para *P, vec3 v, float t, float *w)
{
    vec3 Ct[4];
    for (int k = 0; k < 4; k++)
        Ct[k] = add3t(P->C[k], t, v);
    float hs[8];
    para_sides(P, Ct, hs);
    if (P->face && para_inside_h(hs)) {
        float h = dot3(Ct[0], P->N) / P->NN;
        float wf = -dot3(Ct[0], P->mb) / P->NN;
        /* within B's stretch alongside A (between A's ends projected on B's line, where
           the foot lies), then within B */
        float wa0 = dot3(Ct[0], P->eb) / P->eeb, wa1 = dot3(Ct[1], P->eb) / P->eeb;
        float lo = wa0 < wa1 ? wa0 : wa1, hi = wa0 < wa1 ? wa1 : wa0;
        wf = wf > lo ? wf : lo;
        wf = wf < hi ? wf : hi;
        wf = wf < 1.0f ? wf : 1.0f;
        *w = wf > 0.0f ? wf : 0.0f;
        return mul3(P->N, h);
    }
    /* outside the half-plane of edge 0 (w >= 0), 1 (w <= 1), 2 (u >= 0), 3 (u <= 1) */
    int out0 = (hs[4] > 0.0f) | (hs[5] > 0.0f), out1 = (hs[6] < 0.0f) | (hs[7] < 0.0f);
    int out2 = (hs[0] > 0.0f) | (hs[2] > 0.0f), out3 = (hs[1] < 0.0f) | (hs[3] < 0.0f);
    float u0, u1, w2 = 0.0f, w3 = 0.0f;
    int f0, f1, f2 = 0, f3 = 0;
    vec3 d = nearest_on_segment_u(Ct[0], Ct[1], P->ea, P->eea, &u0, &f0);
    vec3 d1 = nearest_on_segment_u(Ct[2], Ct[3], P->ea, P->eea, &u1, &f1);
    vec3 d2 = d, d3 = d;
    if (P->edges_b) {
        d2 = nearest_on_segment_u(Ct[0], Ct[2], P->nea, P->eeb, &w2, &f2);
        d3 = nearest_on_segment_u(Ct[1], Ct[3], P->nea, P->eeb, &w3, &f3);
    }
    float r0 = para_rank(P->face, out0, f0), r1 = para_rank(P->face, out1, f1);
    float r2 = para_rank(P->face, out2, f2), r3 = para_rank(P->face, out3, f3);
    float best = dot3(d, d), b1 = dot3(d1, d1), b2 = dot3(d2, d2), b3 = dot3(d3, d3);
    if (!P->face && P->edges_b) {
        /* no face: a zero vector ranks 3 (touching), a foot 2 unless its pair slides
           nearer along its end's segment (then 0), a corner 1 when each of its ends is the
           other's clamp, else 0 */
        float g0 = -dot3(d, P->eb), g1 = dot3(d1, P->eb);
        float g2 = dot3(d2, P->ea), g3 = -dot3(d3, P->ea);
        r0 = f0 ? (para_slides(g0, P->eeb) ? 0.0f : 2.0f)
                : para_mutual(u0 == 0.0f ? f2 : f3, u0 == 0.0f ? w2 : w3, 0.0f);
        r1 = f1 ? (para_slides(g1, P->eeb) ? 0.0f : 2.0f)
                : para_mutual(u1 == 0.0f ? f2 : f3, u1 == 0.0f ? w2 : w3, 1.0f);
        r2 = f2 ? (para_slides(g2, P->eea) ? 0.0f : 2.0f)
                : para_mutual(w2 == 0.0f ? f0 : f1, w2 == 0.0f ? u0 : u1, 0.0f);
        r3 = f3 ? (para_slides(g3, P->eea) ? 0.0f : 2.0f)
                : para_mutual(w3 == 0.0f ? f0 : f1, w3 == 0.0f ? u0 : u1, 1.0f);
        r0 = best == 0.0f ? 3.0f : r0, r1 = b1 == 0.0f ? 3.0f : r1;
        r2 = b2 == 0.0f ? 3.0f : r2, r3 = b3 == 0.0f ? 3.0f : r3;
    }
    float rank = r0;
    *w = 0.0f;
    if ((r1 > rank) | ((r1 == rank) & (b1 < best)))
        d = d1, best = b1, rank = r1, *w = 1.0f;
    if (P->edges_b) {
        if ((r2 > rank) | ((r2 == rank) & (b2 < best)))
            d = d2, best = b2, rank = r2, *w = w2;
        if ((r3 > rank) | ((r3 == rank) & (b3 < best)))
            d = d3, *w = w3;
    }
    return d;
}

/* The separation reject along x, the nearest approach to the origin of the path of the
   parallelogram's centre m = (C00 + C11) / 2: x = m + t v with t = -(m.v) / (v.v) clamped to
   [0, 1] (a NaN quotient, v.v underflowed, gives 0). Any x serves: the parallelogram's
   extent along x is spanned by its corners' projections, its path's by those plus
   min(0, v.x), and a convex set whose projection lies more than g |x| beyond the origin's is
   more than g away. This x, where the pair comes nearest as two balls, rejects nearly every
   pair that keeps apart (the axes alone leave many). The products' rounding, a few
   FLT_EPSILON of size |x| (x.x >= TOI_MIN_DIR2, a normal float whose square root is |x|
   within a rounding), lies far inside the margin in g. */
static inline int para_dir_apart(const vec3 C[4], vec3 v, float g)
{
    vec3 m = {(C[0].x + C[3].x) * 0.5f, (C[0].y + C[3].y) * 0.5f, (C[0].z + C[3].z) * 0.5f};
    float tm = -dot3(m, v) / dot3(v, v);
    tm = tm > 0.0f ? tm : 0.0f;
    tm = tm < 1.0f ? tm : 1.0f;
    vec3 x = add3t(m, tm, v);
    float xx = dot3(x, x);
    float h0 = dot3(C[0], x), h1 = dot3(C[1], x), h2 = dot3(C[2], x), h3 = dot3(C[3], x);
    float lo = h0 < h1 ? h0 : h1;
    lo = h2 < lo ? h2 : lo;
    lo = h3 < lo ? h3 : lo;
    float hv = dot3(v, x);
    float gx = g * sqrtf(xx);
    return (xx >= TOI_MIN_DIR2) & (lo > gx) & (lo + hv > gx);
}

/* The face piece: its entry time, +Inf when not entered in [.., 1] inside the face. */
TOI_SCALAR_INLINE float face_time(const para *P, vec3 v, float R)
{
    float h0 = dot3(P->C[0], P->N);
    float hv = dot3(v, P->N);
    int pos = h0 > 0.0f;
    float H0 = pos ? h0 : -h0, Hv = pos ? hv : -hv;
    float RN = R * sqrtf(P->NN);
    float t = (H0 - RN) / -Hv;
    float tt = t > 0.0f ? t : 0.0f;
    vec3 Ct[4];
    for (int k = 0; k < 4; k++)
        Ct[k] = add3t(P->C[k], tt, v);
    int in = para_inside(P, Ct);
    return (P->face & (Hv < 0.0f) & (t <= 1.0f) & in) ? t : INFINITY;
}

/* The face slab's exit: where (C00 + t v).N / |N| leaves [-R, R] on the side v moves to,
   inside the parallelogram there; -inf without a face or without motion across it. */
TOI_SCALAR_INLINE float face_exit(const para *P, vec3 v, float R)
{
    float h0 = dot3(P->C[0], P->N);
    float hv = dot3(v, P->N);
    float RN = R * sqrtf(P->NN);
    float t = (RN + (hv > 0.0f ? -h0 : h0)) / fabsf(hv);
    vec3 Ct[4];
    for (int k = 0; k < 4; k++)
        Ct[k] = add3t(P->C[k], t, v);
    int in = para_inside(P, Ct);
    return (P->face & (hv != 0.0f) & in) ? t : -INFINITY;
}

/* A capsule pair's exit (scaled units; P the parallelogram, RR = R^2), for a hit at t: the
   pieces in the entry's order. B a point is segment_exit's operations on A's segment. */
TOI_SCALAR_INLINE float para_exit(const para *P, vec3 v, float R, float RR, float t)
{
    float k;
    if (!exit_motion(&v, &k))
        return INFINITY;
    int any = !(P->eea >= TOI_MIN_DIR2) && !P->edges_b && !P->face;
    vec3 nv = {-v.x, -v.y, -v.z};
    float te = ball_exit(P->C[0], v, RR, any);
    for (int c = 1; c < 4; c++)
        te = later(te, ball_exit(P->C[c], v, RR, any));
    te = later(te, cylinder_exit(P->C[0], P->ea, P->eea, nv, RR));
    te = later(te, cylinder_exit(P->C[2], P->ea, P->eea, nv, RR));
    te = later(te, cylinder_exit((vec3){-P->C[0].x, -P->C[0].y, -P->C[0].z}, P->eb, P->eeb, v,
                                 RR));
    te = later(te, cylinder_exit((vec3){-P->C[1].x, -P->C[1].y, -P->C[1].z}, P->eb, P->eeb, v,
                                 RR));
    te = later(te, face_exit(P, v, R));
    te = te * k;
    return te > t ? te : t;
}

TOI_SCALAR_INLINE int sweep_capsule_capsule(capsule A, capsule B, unsigned flags, int full,
                                            toi_result *res, float *t_exit)
{
    float lx = A.p0.x - B.p0.x, ly = A.p0.y - B.p0.y, lz = A.p0.z - B.p0.z;
    float vx = A.v.x - B.v.x, vy = A.v.y - B.v.y, vz = A.v.z - B.v.z;
    float R = A.r + B.r;
    float ex = A.p1.x - A.p0.x, ey = A.p1.y - A.p0.y, ez = A.p1.z - A.p0.z;
    float fx = B.p1.x - B.p0.x, fy = B.p1.y - B.p0.y, fz = B.p1.z - B.p0.z;

    /* the sphere query's size, then both segments' lengths */
    float size = ((fabsf(lx) + fabsf(ly)) + fabsf(lz)) + ((fabsf(vx) + fabsf(vy)) + fabsf(vz));
    size = size + R;
    size = size + ((fabsf(ex) + fabsf(ey)) + fabsf(ez));
    size = size + ((fabsf(fx) + fabsf(fy)) + fabsf(fz));
    if (!(size < TOI_MAX_SUM) || !(A.r >= 0.0f) || !(B.r >= 0.0f))
        return 0;
    float s = toi_scalar_pow2_scale(size);
    para P;
    P.C[0] = (vec3){lx * s, ly * s, lz * s};
    P.C[1] = (vec3){(A.p1.x - B.p0.x) * s, (A.p1.y - B.p0.y) * s, (A.p1.z - B.p0.z) * s};
    P.C[2] = (vec3){(A.p0.x - B.p1.x) * s, (A.p0.y - B.p1.y) * s, (A.p0.z - B.p1.z) * s};
    P.C[3] = (vec3){(A.p1.x - B.p1.x) * s, (A.p1.y - B.p1.y) * s, (A.p1.z - B.p1.z) * s};
    vec3 v = {vx * s, vy * s, vz * s};
    P.ea = (vec3){ex * s, ey * s, ez * s};
    P.eb = (vec3){fx * s, fy * s, fz * s};
    R = R * s;
    float S = size * s;
    if (TOI_SCALAR_SUBNORMAL(size)) { /* a subnormal size: on to [1, 2) (scalar.h) */
        float s2 = toi_scalar_pow2_scale_sub(size, s);
        for (int k = 0; k < 4; k++)
            P.C[k] = mul3(P.C[k], s2);
        v = mul3(v, s2), P.ea = mul3(P.ea, s2), P.eb = mul3(P.eb, s2);
        R = R * s2, S = S * s2;
    }
    P.nea = (vec3){-P.eb.x, -P.eb.y, -P.eb.z};

    /* Separation reject (as the triangle queries'): the swept parallelogram stays farther
       than R + mg from the origin along the direction where the segments' centres come
       nearest, mg = TOI_BOX_MARGIN * size (scaled, ~1): then f(t) > R + mg over [0, 1], 2^9
       times the kernel's error, so no contact the pieces below could report is lost; the
       SIMD kernel skips such pairs by the same test. */
    float g = R + TOI_BOX_MARGIN * S;
    if (para_dir_apart(P.C, v, g))
        return 0;
    P.eea = dot3(P.ea, P.ea);
    P.eeb = dot3(P.eb, P.eb);
    P.edges_b = P.eeb >= TOI_MIN_DIR2;
    const vec3 O = {0.0f, 0.0f, 0.0f};
    P.N = tri_normal((triangle){O, P.ea, P.eb}, 1.0f);
    P.NN = dot3(P.N, P.N);
    P.face = para_has_face(P.NN, P.eea, P.eeb);
    P.ma = cross3(P.eb, P.N);
    P.mb = cross3(P.ea, P.N);

    float w;
    vec3 d0 = para_nearest(&P, v, 0.0f, &w);
    float RR = R * R;
    float a = dot3(v, v);
    int approach;
    int start = start_rule(d0, v, a, RR, S, flags, &approach);
    if (start == 0)
        return 0;
    int overlap = start > 0;
    float t = 0.0f;
    if (!overlap) {
        vec3 nv = {-v.x, -v.y, -v.z};
        t = end_time(P.C[0], v, a, RR);
        for (int k = 1; k < 4; k++) {
            float tk = end_time(P.C[k], v, a, RR);
            t = tk < t ? tk : t;
        }
        float tc = cylinder_time(P.C[0], P.ea, P.eea, nv, RR);
        t = tc < t ? tc : t;
        tc = cylinder_time(P.C[2], P.ea, P.eea, nv, RR);
        t = tc < t ? tc : t;
        tc = cylinder_time((vec3){-P.C[0].x, -P.C[0].y, -P.C[0].z}, P.eb, P.eeb, v, RR);
        t = tc < t ? tc : t;
        tc = cylinder_time((vec3){-P.C[1].x, -P.C[1].y, -P.C[1].z}, P.eb, P.eeb, v, RR);
        t = tc < t ? tc : t;
        tc = face_time(&P, v, R);
        t = tc < t ? tc : t;
        if (!apart_hit(&t, approach))
            return 0;
    }
    res->t = t;
    if (t_exit)
        *t_exit = para_exit(&P, v, R, RR, t);
    if (!full)
        return 1;

    vec3 d = para_nearest(&P, v, t, &w);
    float dd = dot3(d, d);
    float len = sqrtf(dd);
    float inv = 1.0f / len;
    if (dd >= TOI_MIN_DIR2) {
        res->nx = d.x * inv, res->ny = d.y * inv, res->nz = d.z * inv;
    } else {
        res->nx = TOI_FALLBACK_NX, res->ny = TOI_FALLBACK_NY, res->nz = TOI_FALLBACK_NZ;
    }
    /* Point: on B's surface toward A, from B's nearest point b0 + w (b1 - b0), world units */
    vec3 q = w == 0.0f ? B.p0 : w == 1.0f ? B.p1 : (vec3){B.p0.x + w * (B.p1.x - B.p0.x),
                                                         B.p0.y + w * (B.p1.y - B.p0.y),
                                                         B.p0.z + w * (B.p1.z - B.p0.z)};
    res->px = (q.x + t * B.v.x) + res->nx * B.r;
    res->py = (q.y + t * B.v.y) + res->ny * B.r;
    res->pz = (q.z + t * B.v.z) + res->nz * B.r;
    res->depth = 0.0f;
    if (overlap) {
        float depth = toi_scalar_unscale(R - len, size);
        res->depth = depth > 0.0f ? depth : 0.0f;
    }
    return 1;
}

/* Pairs k in [0, n): A[ia[k]] vs B[ib[k]] (ia, ib NULL: A[k] vs B[k]); want_exit a constant
   in each copy. */
static inline size_t capsules_loop_(size_t n, const uint32_t *ia, const uint32_t *ib,
                                    const toi_capsules *A, const toi_capsules *B, unsigned flags,
                                    const toi_hits *out, int want_exit)
{
    int full = toi_wants_full(out);
    size_t hits = 0;
    for (size_t k = 0; k < n; k++) {
        toi_result r;
        float te;
        int hit = sweep_capsule_capsule(load_capsule(A, ia ? ia[k] : k),
                                        load_capsule(B, ib ? ib[k] : k), flags, full, &r,
                                        want_exit ? &te : NULL);
        hits += (size_t)hit;
        toi_scalar_store(out, k, hit ? &r : &toi_scalar_no_hit, full);
        if (want_exit)
            out->t_exit[k] = hit ? te : TOI_NO_HIT;
    }
    return hits;
}

static size_t capsules_loop(size_t n, const uint32_t *ia, const uint32_t *ib,
                            const toi_capsules *A, const toi_capsules *B, unsigned flags,
                            const toi_hits *out)
{
    return out->t_exit ? capsules_loop_(n, ia, ib, A, B, flags, out, 1)
                       : capsules_loop_(n, ia, ib, A, B, flags, out, 0);
}

size_t toi_scalar_sweep_capsules(size_t n, const toi_capsules *A, const toi_capsules *B,
                                 unsigned flags, const toi_hits *out)
{
    return capsules_loop(n, NULL, NULL, A, B, flags, out);
}

size_t toi_scalar_sweep_capsule_pairs(size_t n, const uint32_t *ia, const uint32_t *ib,
                                      const toi_capsules *S, unsigned flags, const toi_hits *out)
{
    return capsules_loop(n, ia, ib, S, S, flags, out);
}

/* ---- capsule against triangle ----

   f(t) is the distance from the capsule's segment to the triangle, R = r. The R-neighbourhood
   of the triangle swept along the segment (their Minkowski sum) is the union of: the end
   balls' pieces against the triangle (the sphere-triangle query's seven pieces for p0 and
   again for p1: the face slab, three edge cylinders, three vertex balls), the triangle's
   vertices against the cylinder around the segment (the capsule-sphere query's cylinder with
   the vertex as the sphere), and each triangle edge against the segment's interior (the face
   of the parallelogram seg(u) - edge(w) of the capsule-capsule query, radius 0 for the
   edge). The first contact from outside is the earliest entry into one of these twenty
   pieces, all computed in the capsule's relative coordinates (origin p0, everything scaled
   by the exact power of two of the size: the sphere-triangle query's size plus |e|_1).

   At t = 0 and at the reported t, the nearest pair is the nearest of: p0's and p1's nearest
   triangle points (the sphere query's Voronoi rule, nearest_point), each edge's nearest pair
   with the segment (the capsule pair's rule, para_nearest) and, when the segment crosses the
   face's plane at a point inside the triangle, that point (distance 0); candidates in this
   order, a later one only when strictly nearer (the crossing point always), except that edge
   k's pair replaces a choice whose triangle point lies on edge k (its edge or either of its
   vertices) whatever the distances: that choice is one of the pairs edge k's is the nearest
   of, so edge k's is never farther, while comparing the two distances is unstable (an end's
   pair and the edge's a ~sqrt(FLT_EPSILON) |d| step along the segment apart, their
   distances within rounding: the end's won and the normal was up to 2.3e-4 off); and,
   conversely, edge k's pair at a vertex never replaces the pair of the other edge ending
   there, which is never farther (the vertex's pair had won by rounding against that edge's
   pair 1.5e-4 from it, the normal 1.005 times the accuracy bound off). At the
   reported t one more rule, by region: an end whose nearest point is its face foot (it
   projects inside the face) is final when the other end lies on the same side of the
   plane and no nearer to it (st of the other end at least as far from 0, same sign):
   every point of the segment is then at least |st| from the plane, so from the triangle,
   and that foot is the nearest pair; no later candidate replaces it (p0's when both are
   final). Comparing distances there was unstable too: an edge's pair beside the foot is
   farther by the square of their separation, below the rounding of either squared
   distance (about FLT_EPSILON size f), and won on about one hit in 7,500 (a probe of the
   test generator's families), the normal tilted by separation / f (up to 3.2 times the
   accuracy bound). The pair at t = 0 that decides contact and approach (hence t) is
   chosen without this rule, as before: applied there too, it changed 158 hit times of a
   probe of 2,000,000 queries (mostly a miss against a hit at t = 0), every one within the
   accuracy group's tangential margin (|d.v| < 2 delta |v| from a touching start), where the
   oracle accepts either: no fix; the outputs at t = 0 follow it. d is
   the vector from the triangle's point q to the segment's point: contact c = d.d - R^2 <= 0,
   approach d.v < 0 (with |d|^2 >= TOI_MIN_DIR2: a segment through the triangle does not
   approach, as a sphere centred on it does not), normal d / |d| (for a face contact of an
   end, the face's unit normal on that side; with d = 0, the face normal against the motion),
   point q, depth R - |d|, feature where q lies.

   A capsule with p0 = p1 is a sphere, and the query then returns bit for bit what
   toi_sweep_spheres_triangles returns for it, by construction: it is that query. */

/* The parallelogram of the segment (origin, e) and triangle edge k (V0 -> V1, E = V1 - V0), in
   the capsule's scaled coordinates: the capsule pair's set-up with a = the segment and b =
   the edge (corners a - b at u, w = 0 / 1). */
TOI_SCALAR_INLINE void edge_para(vec3 e, float ee, vec3 V0, vec3 V1, vec3 E, float eE, para *P)
{
    const vec3 O = {0.0f, 0.0f, 0.0f};
    P->C[0] = sub3(O, V0);
    P->C[1] = sub3(e, V0);
    P->C[2] = sub3(O, V1);
    P->C[3] = sub3(e, V1);
    P->ea = e;
    P->eb = E;
    P->nea = (vec3){-E.x, -E.y, -E.z};
    P->eea = ee;
    P->eeb = eE;
    P->edges_b = eE >= TOI_MIN_DIR2;
    P->N = tri_normal((triangle){O, e, E}, 1.0f);
    P->NN = dot3(P->N, P->N);
    P->face = para_has_face(P->NN, ee, eE);
    P->ma = cross3(E, P->N);
    P->mb = cross3(e, P->N);
}

/* The end ball at X0 (relative start, moving by v) against the triangle V[3]: the earliest of
   the sphere query's seven pieces (vertex_time, edge_entry and its face slab, entered
   through a wall as wall_time states). */
TOI_SCALAR_INLINE float end_ball_time(vec3 X0, const vec3 V[3], const vec3 E[3],
                                      const float ee[3], const vec3 m[3], int face_in, vec3 n,
                                      vec3 v, float a, float r, float rr)
{
    int ov = 0;
    vec3 W[3];
    for (int k = 0; k < 3; k++)
        W[k] = sub3(V[k], X0);
    float t = vertex_time(W[0], v, a, rr, &ov);
    earlier(vertex_time(W[1], v, a, rr, &ov), &t);
    earlier(vertex_time(W[2], v, a, rr, &ov), &t);
    for (int k = 0; k < 3; k++)
        earlier(edge_entry(W[k], E[k], ee[k], v, rr, &ov), &t);
    float s0 = -dot3(W[0], n);
    float dv = dot3(v, n);
    float ad = fabsf(s0);
    float adv = s0 >= 0.0f ? dv : -dv;
    float tf = (r - ad) / adv;
    vec3 P = mul3(v, tf);
    int out[3];
    for (int k = 0; k < 3; k++) {
        int w = edge_side(P, W[k], m[k]) >= 0.0f, x = edge_side(P, W[(k + 1) % 3], m[k]) >= 0.0f;
        out[k] = (w & x) ^ 1;
    }
    float tface = (out[0] | out[1] | out[2]) ? wall_time(v, tf, ad, adv, r, W, E, ee, m, out)
                                             : tf;
    earlier((face_in & (ad > r) & (adv < 0.0f) & (tf <= 1.0f)) ? tface : INFINITY, &t);
    return t;
}

/* An end's nearest point of kind k, at signed distance s from the plane, the other end at o:
   its face foot is the nearest pair when the other end is on its side of the plane and no
   nearer to it (every point of the segment is then at least |s| from the plane, so from the
   triangle). */
TOI_SCALAR_INLINE int face_foot_final(int k, float s, float o)
{
    return (k == TOI_FEATURE_FACE) & (((s >= 0.0f) & (o >= s)) | ((s <= 0.0f) & (o <= s)));
}

/* The nearest pair of the segment (X, X + e) and the triangle (the rule above; final: with
   the final face feet, at the reported t): d from the triangle's point *q to the segment's,
   *best = |d|^2, *kind where q lies, *endface whether the winner is an end's face foot
   (then *st is that end's signed distance). */
TOI_SCALAR_INLINE vec3 seg_tri_nearest(vec3 X, vec3 e, vec3 v, float t, const vec3 V[3],
                                       const vec3 E[3], const float ee[3], const vec3 m[3],
                                       const para Pk[3], int face_in, vec3 n, float s0,
                                       float s1, float dv, int final, vec3 *q, float *best,
                                       int *kind, int *endface, float *st)
{
    float st0 = s0 + t * dv, st1 = s1 + t * dv;
    vec3 X1 = add3t(X, 1.0f, e);
    vec3 q0, q1;
    float b0, b1;
    int k0, k1;
    nearest_point(X, V, E, m, ee, face_in, st0, n, &q0, &b0, &k0);
    nearest_point(X1, V, E, m, ee, face_in, st1, n, &q1, &b1, &k1);
    /* a final face foot stays chosen whatever the distances; one that is not final is never
       the nearest pair (from its end the segment runs toward the plane, over the face or out
       of it, so the other end's point, an edge's pair or the crossing is nearer, or as near
       where the end lies on an edge's line): at the reported t it gives way to them whatever
       the distances (weak: the first edge pair replaces it) */
    int fin0 = final & face_foot_final(k0, st0, st1);
    int fin1 = final & face_foot_final(k1, st1, st0);
    int drop0 = final & (k0 == TOI_FEATURE_FACE) & (fin0 ^ 1);
    int drop1 = final & (k1 == TOI_FEATURE_FACE) & (fin1 ^ 1);
    vec3 d = sub3(X, q0);
    *q = q0, *best = b0, *kind = k0, *endface = k0 == TOI_FEATURE_FACE, *st = st0;
    int weak = drop0;
    if ((fin0 ^ 1) & (fin1 | (drop0 & (drop1 ^ 1)) | ((b1 < *best) & ((drop1 ^ 1) | drop0)))) {
        d = sub3(X1, q1);
        *q = q1, *best = b1, *kind = k1, *endface = k1 == TOI_FEATURE_FACE, *st = st1;
        weak = drop1;
    }
    int fin = fin0 | fin1;
    for (int k = 0; k < 3; k++) {
        float w;
        vec3 dk = para_nearest(&Pk[k], v, t, &w);
        float bk = dot3(dk, dk);
        /* edge k's pair is never farther than a choice whose triangle point lies on edge k
           (that pair is one of the edge's): it replaces it without comparing distances */
        int on_k = (*kind == TOI_FEATURE_EDGE_AB + k) | (*kind == TOI_FEATURE_VERTEX_A + k) |
                   (*kind == TOI_FEATURE_VERTEX_A + (k + 1) % 3);
        /* and the converse: its pair at a vertex never replaces the pair of the other edge
           ending there (which is never farther) */
        int under = ((w == 0.0f) & (*kind == TOI_FEATURE_EDGE_AB + (k + 2) % 3)) |
                    ((w == 1.0f) & (*kind == TOI_FEATURE_EDGE_AB + (k + 1) % 3));
        if ((fin ^ 1) & (on_k | (((bk < *best) | weak) & (under ^ 1)))) {
            d = dk, *best = bk, *endface = 0, weak = 0;
            *q = w == 0.0f ? V[k] : w == 1.0f ? V[(k + 1) % 3] : add3t(V[k], w, E[k]);
            *kind = w == 0.0f   ? TOI_FEATURE_VERTEX_A + k
                  : w == 1.0f   ? TOI_FEATURE_VERTEX_A + (k + 1) % 3
                                : TOI_FEATURE_EDGE_AB + k;
        }
    }
    /* the segment through the face: its crossing of the plane, when inside the triangle */
    int cross = face_in & (((st0 > 0.0f) & (st1 < 0.0f)) | ((st0 < 0.0f) & (st1 > 0.0f)));
    float f = st0 / (st0 - st1);
    vec3 Xc = add3t(X, f, e);
    if (cross && inside(Xc, V[0], V[1], V[2], m[0], m[1], m[2])) {
        d = (vec3){0.0f, 0.0f, 0.0f};
        *q = Xc, *best = 0.0f, *kind = TOI_FEATURE_FACE, *endface = 0;
    }
    return d;
}

/* One capsule against one triangle (world coordinates); want as for sweep_triangle. */
TOI_SCALAR_INLINE void sweep_capsule_triangle(capsule Cp, triangle T, unsigned flags, int want,
                                              toi_result *res, uint8_t *feat)
{
    vec3 e = sub3(Cp.p1, Cp.p0);
    if ((e.x == 0.0f) & (e.y == 0.0f) & (e.z == 0.0f)) { /* a sphere: that query */
        sweep_triangle((sphere){Cp.p0, Cp.v, Cp.r}, T, flags, want, INFINITY, res, feat);
        return;
    }
    vec3 v = Cp.v;
    float r = Cp.r;
    vec3 A = sub3(T.a, Cp.p0), B = sub3(T.b, Cp.p0), C = sub3(T.c, Cp.p0);
    /* the sphere query's size, then the segment's length */
    float sa = (fabsf(A.x) + fabsf(A.y)) + fabsf(A.z);
    float sb = (fabsf(B.x) + fabsf(B.y)) + fabsf(B.z);
    float sc = (fabsf(C.x) + fabsf(C.y)) + fabsf(C.z);
    float size = (sa + sb) + sc;
    size = size + ((fabsf(v.x) + fabsf(v.y)) + fabsf(v.z));
    size = size + r;
    size = size + ((fabsf(e.x) + fabsf(e.y)) + fabsf(e.z));
    if (!(size < TOI_MAX_SUM) || !(r >= 0.0f))
        return;
    float s = toi_scalar_pow2_scale(size);
    A = mul3(A, s), B = mul3(B, s), C = mul3(C, s);
    v = mul3(v, s);
    e = mul3(e, s);
    r = r * s;
    float S = size * s;
    if (TOI_SCALAR_SUBNORMAL(size)) { /* a subnormal size: on to [1, 2) (scalar.h) */
        float s2 = toi_scalar_pow2_scale_sub(size, s);
        A = mul3(A, s2), B = mul3(B, s2), C = mul3(C, s2);
        v = mul3(v, s2), e = mul3(e, s2), r = r * s2, S = S * s2;
    }
    if (flags & TOI_CULL_BACKFACES) {
        vec3 Nw = tri_normal(T, s);
        if (!(dot3(Nw, v) < 0.0f))
            return;
    }
    float rr = r * r;
    float a = dot3(v, v);
    float ees = dot3(e, e);

    /* the triangle as the sphere query sets it up */
    const vec3 V[3] = {A, B, C};
    const vec3 E[3] = {sub3(B, A), sub3(C, B), sub3(A, C)};
    const vec3 O = {0.0f, 0.0f, 0.0f}, nEC = {-E[2].x, -E[2].y, -E[2].z};
    vec3 N = tri_normal((triangle){O, E[0], nEC}, 1.0f);
    float NN = dot3(N, N);
    const float ee[3] = {dot3(E[0], E[0]), dot3(E[1], E[1]), dot3(E[2], E[2])};
    float eemax = ee[0] > ee[1] ? ee[0] : ee[1];
    eemax = ee[2] > eemax ? ee[2] : eemax;
    int face_ok = NN >= TOI_MIN_DIR2;
    float lenN = sqrtf(NN);
    int face_in = face_ok & (lenN >= TOI_THIN_FACE * eemax);
    float ninv = 1.0f / lenN;
    vec3 n = mul3(N, ninv);
    const vec3 m[3] = {cross3(N, E[0]), cross3(N, E[1]), cross3(N, E[2])};
    float s0 = -dot3(A, n);
    float s1 = -dot3(sub3(A, e), n);
    float dv = dot3(v, n);
    para Pk[3];
    for (int k = 0; k < 3; k++)
        edge_para(e, ees, V[k], V[(k + 1) % 3], E[k], ee[k], &Pk[k]);

    /* Apart at t = 0 beyond doubt: both ends of the segment, so all of it, farther than
       g = r + TOI_BOX_MARGIN size_s from the triangle's plane, on one side (s0, s1 carry
       rounding of a few FLT_EPSILON size_s, far below the margin). The start then lies
       outside every piece by more than 2^9 times the kernels' error (internal.h), so no piece
       is entered at t <= 0, and a pair that recedes (f convex along the motion, above r + the
       margin at t = 0) enters none later: the nearest pair at t = 0, whose only use is the
       contact, approach and recede tests, could change nothing, and is not computed. */
    float g = r + TOI_BOX_MARGIN * S;
    int clear = face_ok & (((s0 > g) & (s1 > g)) | ((s0 < -g) & (s1 < -g)));

    /* touching at t = 0, and approaching */
    vec3 q;
    float best, st, b = 0.0f;
    int kind, endface, overlap = 0, approach = 0;
    if (!clear) {
        vec3 d0 = seg_tri_nearest(O, e, v, 0.0f, V, E, ee, m, Pk, face_in, n, s0, s1, dv, 0,
                                  &q, &best, &kind, &endface, &st);
        overlap = best - rr <= 0.0f;
        b = dot3(d0, v);
        approach = (best >= TOI_MIN_DIR2) & (b < 0.0f);
    }

    float t;
    if (overlap) {
        if (!approach && !(flags & TOI_ALL_OVERLAPS))
            return;
        t = 0.0f;
    } else {
        if (!clear && recedes(b, a, S)) /* f is convex along the motion: never closer */
            return;
        /* the twenty pieces: both end balls, the vertices' cylinders, the edges' faces */
        vec3 nv = {-v.x, -v.y, -v.z};
        t = end_ball_time(O, V, E, ee, m, face_in, n, v, a, r, rr);
        earlier(end_ball_time(e, V, E, ee, m, face_in, n, v, a, r, rr), &t);
        for (int k = 0; k < 3; k++)
            earlier(cylinder_time(sub3(O, V[k]), e, ees, nv, rr), &t);
        for (int k = 0; k < 3; k++)
            earlier(face_time(&Pk[k], v, r), &t);
        if (!apart_hit(&t, approach))
            return;
    }
    res->t = t;
    if (!want)
        return;
    vec3 X = overlap ? O : mul3(v, t); /* at t = 0 the start itself, as above */
    vec3 d = seg_tri_nearest(X, e, v, t, V, E, ee, m, Pk, face_in, n, s0, s1, dv, 1, &q, &best,
                             &kind, &endface, &st);
    *feat = (uint8_t)kind;
    if (want < 2)
        return;
    float inv_s = 1.0f / s, inv_s2 = toi_scalar_pow2_unscale_sub(size);
    float len = sqrtf(best);
    float depth = ((r - len) * inv_s2) * inv_s;
    res->depth = overlap && depth > 0.0f ? depth : 0.0f;
    /* Normal: from q toward the segment - an end's face contact, the face's unit normal on
       that end's side; with the segment on the triangle, the face normal against the motion
       (the front normal when it does not move; +x without a face). */
    tri_contact_normal(endface, st, n, d, best, face_ok, dv, res);
    res->px = Cp.p0.x + (q.x * inv_s2) * inv_s;
    res->py = Cp.p0.y + (q.y * inv_s2) * inv_s;
    res->pz = Cp.p0.z + (q.z * inv_s2) * inv_s;
}

size_t toi_scalar_sweep_capsules_triangles(size_t n, const toi_capsules *c,
                                           const toi_triangles *tri, unsigned flags,
                                           const toi_hits *out)
{
    int want = tri_want(out);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        toi_result r;
        uint8_t feat = TOI_FEATURE_NONE;
        toi_scalar_miss(&r);
        sweep_capsule_triangle(load_capsule(c, i), load_triangle(tri, i), flags, want, &r,
                               &feat);
        toi_scalar_store(out, i, &r, want == 2);
        if (out->feature)
            out->feature[i] = feat;
        hits += r.t != TOI_NO_HIT;
    }
    return hits;
}

/* A set's or mesh's winner win (triangle T; UINT32_MAX: none) stored as query i: its full
   result from the pair kernel, the same function, so the same t. */
static size_t capsule_store_winner(capsule C, triangle T, uint32_t win, unsigned flags,
                                   const toi_hits *out, size_t i)
{
    int want = tri_want(out);
    toi_result r;
    uint8_t feat = TOI_FEATURE_NONE;
    toi_scalar_miss(&r);
    if (win != UINT32_MAX)
        sweep_capsule_triangle(C, T, flags, want, &r, &feat);
    toi_scalar_store(out, i, &r, want == 2);
    if (out->feature)
        out->feature[i] = feat;
    if (out->index)
        out->index[i] = win;
    return win != UINT32_MAX;
}

/* The set scan (as the sphere set's): the first triangle with a strictly earlier t wins, the
   scan stops at a hit at t = 0 (no t is below +0); then the winner's full result, the same
   function, so the same t. */
size_t toi_scalar_sweep_capsules_triangle_set(size_t n, const toi_capsules *c, size_t ntris,
                                              const toi_triangles *tri, unsigned flags,
                                              const toi_hits *out)
{
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        capsule C = load_capsule(c, i);
        float best = TOI_NO_HIT;
        uint32_t win = UINT32_MAX;
        for (size_t j = 0; j < ntris && best != 0.0f; j++) {
            toi_result r;
            uint8_t feat;
            r.t = TOI_NO_HIT;
            sweep_capsule_triangle(C, load_triangle(tri, j), flags, 0, &r, &feat);
            if (r.t < best) {
                best = r.t;
                win = (uint32_t)j;
            }
        }
        const triangle none = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
        hits += capsule_store_winner(C, win != UINT32_MAX ? load_triangle(tri, win) : none, win,
                                     flags, out, i);
    }
    return hits;
}

typedef struct capsule_leaf_ctx {
    capsule C;
    unsigned flags;
} capsule_leaf_ctx;

static void capsule_leaf(const void *ctx, const toi_mesh *m, uint32_t ref, uint32_t cnt,
                         toi_mesh_best *b)
{
    const capsule_leaf_ctx *c = ctx;
    for (uint32_t j = 0; j < cnt; j++) {
        triangle T = toi_mesh_triangle(m, ref, cnt, j);
        toi_result r;
        uint8_t feat;
        r.t = TOI_NO_HIT;
        sweep_capsule_triangle(c->C, T, c->flags, 0, &r, &feat);
        toi_mesh_offer(m, ref, cnt, j, r.t, b);
    }
}

/* The sphere mesh's walk (scalar/mesh.c) with the capsule's path (mesh.h,
   toi_mesh_ray_capsule) and this kernel in the leaves: the set query's winner, bit for bit. */
size_t toi_scalar_sweep_capsules_mesh(size_t n, const toi_capsules *c, const toi_mesh *m,
                                      unsigned flags, const toi_hits *out, toi_cost *cost)
{
    uint64_t nv = 0, np = 0;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        capsule_leaf_ctx x = {load_capsule(c, i), flags};
        const capsule C = x.C;
        const float p0[3] = {C.p0.x, C.p0.y, C.p0.z}, p1[3] = {C.p1.x, C.p1.y, C.p1.z};
        const float v[3] = {C.v.x, C.v.y, C.v.z};
        toi_mesh_best b = {TOI_NO_HIT, UINT32_MAX, 0, 0, 0};
        if (toi_mesh_capsule_ok(p0, p1, v, C.r)) {
            const float e[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
            const toi_mesh_ray q = toi_mesh_ray_capsule(p0, e, v, C.r);
            toi_scalar_mesh_walk(&q, m, capsule_leaf, &x, &b, &nv, &np);
        }
        hits += capsule_store_winner(C, toi_mesh_best_triangle(m, &b), b.win, flags, out, i);
    }
    if (cost) {
        cost->nv += nv;
        cost->np += np;
    }
    return hits;
}
