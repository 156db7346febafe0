/* toi.h - batched time-of-impact (sweep) queries on SIMD backends: the public API */
#ifndef TOI_H
#define TOI_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#define TOI_RESTRICT
#else
#define TOI_RESTRICT restrict
#endif

#if defined(_WIN32)
#define TOI_API
#else
#define TOI_API __attribute__((visibility("default")))
#endif

#define TOI_VERSION_STRING "0.1.0"

#define TOI_NO_HIT INFINITY /* t of a query that never touches */

typedef enum toi_backend {
    TOI_BACKEND_AUTO = 0,
    TOI_BACKEND_SCALAR,
    TOI_BACKEND_SSE,  /* x86-64 with SSE4.1, 4 lanes */
    TOI_BACKEND_AVX2, /* x86-64 with AVX2 and OS support for YMM state, 8 lanes */
    TOI_BACKEND_NEON, /* aarch64 Advanced SIMD, 4 lanes */
    TOI_BACKEND_AVX512 /* x86-64 with AVX-512F and OS support for ZMM and opmask state,
                          16 lanes */
} toi_backend;

enum { TOI_OK = 0, TOI_EINVAL = -1, TOI_ENOTSUP = -2 };

/* n moving spheres, structure of arrays. Centre at time t in [0,1] is (x,y,z) + t*(vx,vy,vz):
   v is the displacement over the step (velocity * dt). No array needs any alignment. */
typedef struct toi_spheres {
    const float *x, *y, *z, *vx, *vy, *vz, *r;
} toi_spheres;

/* Per-query results, structure of arrays. t is required; any other pointer may be NULL, and
   then that output is neither computed nor written. Output arrays must not overlap each other
   or any input array. On a miss: t = TOI_NO_HIT, normal, point and depth 0, t_exit
   TOI_NO_HIT. */
typedef struct toi_hits {
    float *TOI_RESTRICT t;          /* first contact time in [0,1], or TOI_NO_HIT */
    float *TOI_RESTRICT nx;         /* unit contact normal: from the obstacle toward the sphere */
    float *TOI_RESTRICT ny;
    float *TOI_RESTRICT nz;
    float *TOI_RESTRICT px;         /* contact point: the obstacle's point nearest the centre */
    float *TOI_RESTRICT py;
    float *TOI_RESTRICT pz;
    float *TOI_RESTRICT depth;      /* penetration depth if touching at t = 0, else 0 */
    uint32_t *TOI_RESTRICT index;   /* written by queries against a set (obstacle hit) */
    uint8_t *TOI_RESTRICT feature;  /* written by triangle queries (face / edge / vertex hit) */
    /* Exit time, written by the sphere-sphere queries (pairs and pair lists), the
       sphere-plane query, the box queries (docs/boxes.md) and the capsule-sphere,
       capsule-plane and capsule pair queries (docs/capsules.md); the triangle, set and mesh
       queries leave this array untouched. For a hit: the end
       of the contact interval that contains t along the (extended) linear motion, i.e. the
       time the pair stops touching: two spheres, the later time |relative centre| = R (the
       larger root); a sphere and a plane, the time it rises through n.x = d + r, leaving the
       plane's r-slab toward the front side; a capsule, the time its segment's distance rises
       back through R. Always >= t, possibly > 1, +INFINITY when the
       pair never separates (no relative motion; a sphere moving into the plane's solid side
       or parallel to the plane). A hit at t = 0 with TOI_ALL_OVERLAPS reports the same: the
       time the touching pair separates, 0 when it touches at t = 0 only and moves apart.
       TOI_NO_HIT for a miss (t == TOI_NO_HIT tells a miss from "never separates"). Same
       accuracy contract as t (docs/contract.md). */
    float *TOI_RESTRICT t_exit;
} toi_hits;

/* Plane n.x = d with unit n; the solid side is n.x < d. */
typedef struct toi_plane {
    float nx, ny, nz, d;
} toi_plane;

/* Flags. Every query accepts every defined flag and ignores those that do not apply to it;
   any other bit -> TOI_EINVAL. */
#define TOI_CULL_BACKFACES 1u /* triangle queries: ignore triangles the sphere does not move
                                 against (front normal N with N.v >= 0) */
#define TOI_ALL_OVERLAPS 2u /* report every pair already touching at t = 0 (docs/contract.md) */
#define TOI_FLAGS_ALL (TOI_CULL_BACKFACES | TOI_ALL_OVERLAPS)

/* Each query returns the number of queries that hit (>= 0), or TOI_EINVAL for a NULL
   required pointer or an undefined flag bit (then nothing is written). n = 0 returns 0. */

/* pair i: sphere a[i] vs sphere b[i] */
TOI_API ptrdiff_t toi_sweep_spheres(size_t n, const toi_spheres *a, const toi_spheres *b,
                                    unsigned flags, const toi_hits *out);

/* broadphase pair list: pair k is bodies[ia[k]] vs bodies[ib[k]]; an index >= nbodies ->
   TOI_EINVAL and nothing is written. Indices may repeat; ia[k] == ib[k] is a sphere against
   itself (always touching, never approaching: a hit only with TOI_ALL_OVERLAPS). */
TOI_API ptrdiff_t toi_sweep_sphere_pairs(size_t npairs, const uint32_t *ia, const uint32_t *ib,
                                         size_t nbodies, const toi_spheres *bodies,
                                         unsigned flags, const toi_hits *out);

/* sphere i vs one plane */
TOI_API ptrdiff_t toi_sweep_spheres_plane(size_t n, const toi_spheres *s, const toi_plane *plane,
                                          unsigned flags, const toi_hits *out);

/* Sphere states that toi_respond updates in place, structure of arrays: the centre (x, y, z),
   the displacement still to travel in this step (vx, vy, vz; the same arrays can serve as a
   toi_spheres for the next sweep) and, optionally, the velocity (ux, uy, uz: all three or all
   NULL), which is reflected like the displacement so it carries into the next step. The arrays
   must not overlap each other or the hits. */
typedef struct toi_motion {
    float *TOI_RESTRICT x, *TOI_RESTRICT y, *TOI_RESTRICT z;
    float *TOI_RESTRICT vx, *TOI_RESTRICT vy, *TOI_RESTRICT vz;
    float *TOI_RESTRICT ux, *TOI_RESTRICT uy, *TOI_RESTRICT uz;
} toi_motion;

/* Collision response, sphere i from hits result i (hits->t, nx, ny, nz required; depth may be
   NULL for 0). Restitution e and friction f must lie in [0,1]. Sphere i hit when
   0 <= t <= 1 (TOI_NO_HIT, NaN or anything else is a miss):
     miss:  x += vx (likewise y, z); v = 0 (the step is used up); u unchanged.
     hit:   x = (x + t*vx) + d*nx  with d = depth (0 when NULL or < 0): the contact position,
                                   pushed out of an initial overlap along the normal;
            v = (1 - t) * v        the displacement left after the contact, then reflected:
            reflect(w): wn = (wx*nx + wy*ny) + wz*nz; if wn < 0 (moving into the obstacle)
                        w = (w - wn*n) * (1 - f) - (e*wn) * n, componentwise in that order
                        (normal part reversed and scaled by e, tangential part by 1 - f);
                        otherwise w is unchanged.
            v = reflect(v), u = reflect(u).
   The normal is used as given (unit, from a query). If any result of a sphere would not be
   finite (a non-finite input, or overflow), that sphere is left entirely unchanged and does
   not count. Returns the number of spheres that hit and were updated, or TOI_EINVAL (NULL
   required pointer, only some of ux, uy, uz, e or f outside [0,1] or NaN; nothing written).
   n = 0 returns 0. Sweep from the new state and respond again, until no sphere hits or an
   iteration cap is reached, to use up a step (examples/particles.c). */
TOI_API ptrdiff_t toi_respond(size_t n, const toi_motion *m, const toi_hits *hits,
                              float restitution, float friction);

/* n static triangles (a, b, c), structure of arrays. The front face is counter-clockwise:
   its normal is (b - a) x (c - a). A triangle is the closed set of its face, edges and
   vertices, two-sided unless TOI_CULL_BACKFACES; a degenerate one (collinear or coincident
   vertices) is its segment or point. */
typedef struct toi_triangles {
    const float *ax, *ay, *az, *bx, *by, *bz, *cx, *cy, *cz;
} toi_triangles;

enum toi_feature {              /* what of the triangle was touched (toi_hits.feature) */
    TOI_FEATURE_FACE = 0,
    TOI_FEATURE_EDGE_AB, TOI_FEATURE_EDGE_BC, TOI_FEATURE_EDGE_CA,
    TOI_FEATURE_VERTEX_A, TOI_FEATURE_VERTEX_B, TOI_FEATURE_VERTEX_C,
    TOI_FEATURE_NONE = 255      /* written for a miss */
};

/* Triangle queries. Point, normal and feature describe the sphere's centre p(t) at the
   reported t: the point is the triangle's point nearest p(t), the normal the unit vector
   from it toward p(t) (the face's own normal for the face), and the feature where the point
   lies - the face when p(t) projects strictly inside the triangle, else the edge, or the
   vertex where the nearest point is an edge's end (on the face's boundary, the edge; a
   triangle without a face, degenerate or a sliver, is its longest edge). When the centre
   lies on the triangle (only with TOI_ALL_OVERLAPS) the normal is the face normal against
   the sphere's motion (the front normal when it does not move). A miss writes t =
   TOI_NO_HIT, normal, point and depth 0, feature TOI_FEATURE_NONE and, in set queries,
   index UINT32_MAX. */

/* pair i: sphere i vs triangle i */
TOI_API ptrdiff_t toi_sweep_spheres_triangles(size_t n, const toi_spheres *s,
                                              const toi_triangles *tri, unsigned flags,
                                              const toi_hits *out);

/* pair list: pair k is sphere is[k] vs triangle it[k]; an index out of range -> TOI_EINVAL,
   nothing written */
TOI_API ptrdiff_t toi_sweep_sphere_triangle_pairs(size_t npairs, const uint32_t *is,
                                                  const uint32_t *it, size_t nspheres,
                                                  const toi_spheres *s, size_t ntris,
                                                  const toi_triangles *tri, unsigned flags,
                                                  const toi_hits *out);

/* each of n spheres against the whole set of ntris triangles: the earliest hit, ties to the
   lowest triangle index; out->index[i] = the triangle hit (UINT32_MAX when none). A triangle
   with a non-finite coordinate is skipped. ntris = 0: every sphere misses. */
TOI_API ptrdiff_t toi_sweep_spheres_triangle_set(size_t n, const toi_spheres *s, size_t ntris,
                                                 const toi_triangles *tri, unsigned flags,
                                                 const toi_hits *out);

/* Triangle meshes: a bounding-volume hierarchy over ntris triangles (8-wide nodes over
   leaves of up to 8 triangles, binned surface-area heuristic), built once and queried by
   batches of spheres; the mesh keeps its own copy of the triangles. */
typedef struct toi_mesh toi_mesh; /* opaque; immutable while queried */

/* Work counters of the hierarchy's cost model t = nv cv + np cp + nu cu: nv bounding-volume
   tests, np triangle tests, nu bounding-volume updates. Functions that take one add to it. */
typedef struct toi_cost {
    uint64_t nv, np, nu;
} toi_cost;

/* A mesh of triangles 0 .. ntris - 1 of tri (copied), or NULL for ntris = 0,
   ntris >= UINT32_MAX, a NULL array, or no memory. Non-finite triangles are kept (a refit
   may make them finite) but never hit, as in sets. */
TOI_API toi_mesh *toi_mesh_build(size_t ntris, const toi_triangles *tri);

/* New vertices for the same triangles (ntris must be the count given to build), the same
   hierarchy with every box recomputed: cost->nu (cost may be NULL) gains the boxes updated.
   TOI_OK, or TOI_EINVAL (NULL mesh or array, another count; nothing changed). Not while the
   mesh is queried. Queries stay exact after any refit; they slow down as the mesh deforms
   away from the shape it was built for (docs/meshes.md: when to rebuild). */
TOI_API int toi_mesh_refit(toi_mesh *m, size_t ntris, const toi_triangles *tri, toi_cost *cost);

TOI_API void toi_mesh_free(toi_mesh *m);           /* NULL: nothing */
TOI_API size_t toi_mesh_bytes(const toi_mesh *m);  /* all the memory it holds; NULL: 0 */

/* Each of n spheres against the mesh: bit for bit what toi_sweep_spheres_triangle_set
   returns for the same triangles (the arrays given to build, as refitted) - every output,
   flag and backend; index = the triangle's index in those arrays. cost (may be NULL) gains
   the bounding-volume tests (nv) and triangle tests (np) of the batch; the counts are the
   same on every backend. The mesh may be queried from any number of threads at once; a
   query takes up to about 32 KB of the calling thread's stack (the traversal stacks of the
   walks it runs at once and the kernels it calls; docs/meshes.md). */
TOI_API ptrdiff_t toi_sweep_spheres_mesh(size_t n, const toi_spheres *s, const toi_mesh *m,
                                         unsigned flags, const toi_hits *out, toi_cost *cost);

/* Capsules (docs/capsules.md): n capsules, structure of arrays. Capsule i is the segment
   p0 -> p1 at t = 0, of radius r, translated by (vx, vy, vz) over the step (no rotation).
   p0 = p1 is a sphere, r = 0 a segment. */
typedef struct toi_capsules {
    const float *x0, *y0, *z0, *x1, *y1, *z1;
    const float *vx, *vy, *vz; /* displacement over the step (translation only) */
    const float *r;
} toi_capsules;

/* Capsule queries follow the one rule with f(t) = the distance from the capsule's segment to
   the obstacle and R = the sum of radii. Normal: unit vector from the obstacle's nearest point
   toward the capsule's segment at t; point: the obstacle's point nearest the segment; depth
   at t = 0. A capsule with p0 = p1 returns bit for bit what the sphere query returns for the
   sphere (p0, v, r). The capsule-sphere, capsule-plane and capsule pair queries below write
   t_exit (the time f rises back through R, as for spheres; against the plane, the lower
   end's); index and feature are left untouched. */

/* pair i: capsule c[i] vs sphere s[i] */
TOI_API ptrdiff_t toi_sweep_capsules_spheres(size_t n, const toi_capsules *c,
                                             const toi_spheres *s, unsigned flags,
                                             const toi_hits *out);

/* capsule i vs one plane: the plane query of the segment's lower end (p0 when both ends are
   equally low: a capsule parallel to the plane reports the point below p0) */
TOI_API ptrdiff_t toi_sweep_capsules_plane(size_t n, const toi_capsules *c,
                                           const toi_plane *plane, unsigned flags,
                                           const toi_hits *out);

/* pair i: capsule a[i] vs capsule b[i] (b is the obstacle: the normal points from b's
   nearest point toward a's segment; the point is on b's surface). A contact along a segment
   (parallel segments) reports the pair at b's p0 if it lies alongside a, else at b's p1 if
   it does, else at a's p0, else at a's p1 (docs/capsules.md). b a point: the capsule-sphere
   query bit for bit; both points: the sphere query. */
TOI_API ptrdiff_t toi_sweep_capsules(size_t n, const toi_capsules *a, const toi_capsules *b,
                                     unsigned flags, const toi_hits *out);

/* capsule pair list (a broadphase's pairs): pair k is bodies[ia[k]] vs bodies[ib[k]], with
   bodies[ib[k]] the obstacle; exactly toi_sweep_capsules on those two capsules, bit for bit.
   An index >= nbodies -> TOI_EINVAL. */
TOI_API ptrdiff_t toi_sweep_capsule_pairs(size_t npairs, const uint32_t *ia, const uint32_t *ib,
                                          size_t nbodies, const toi_capsules *bodies,
                                          unsigned flags, const toi_hits *out);

/* pair i: capsule c[i] vs triangle tri[i] - the ray against the Minkowski sum of the triangle
   and the segment (docs/capsules.md). Outputs as the triangle queries (feature included,
   TOI_CULL_BACKFACES as there; t_exit untouched): point = the triangle's point nearest the
   segment, normal from it toward the segment. p0 = p1: toi_sweep_spheres_triangles bit for
   bit. */
TOI_API ptrdiff_t toi_sweep_capsules_triangles(size_t n, const toi_capsules *c,
                                               const toi_triangles *tri, unsigned flags,
                                               const toi_hits *out);

/* each of n capsules against the whole set of ntris triangles: the earliest hit, ties to the
   lowest triangle index, out->index[i] the triangle hit (UINT32_MAX when none), every output
   that triangle's pair query gives; ntris = 0: every capsule misses. p0 = p1:
   toi_sweep_spheres_triangle_set bit for bit. */
TOI_API ptrdiff_t toi_sweep_capsules_triangle_set(size_t n, const toi_capsules *c, size_t ntris,
                                                  const toi_triangles *tri, unsigned flags,
                                                  const toi_hits *out);

/* each of n capsules against the mesh (toi_mesh_build): bit for bit what
   toi_sweep_capsules_triangle_set returns for the same triangles (the arrays given to build, as
   refitted) - every output, flag and backend; index = the triangle's index in those arrays;
   cost as for toi_sweep_spheres_mesh; it takes up to about 60 KB of the calling thread's
   stack (docs/meshes.md). p0 = p1: toi_sweep_spheres_mesh bit for bit. */
TOI_API ptrdiff_t toi_sweep_capsules_mesh(size_t n, const toi_capsules *c, const toi_mesh *m,
                                          unsigned flags, const toi_hits *out, toi_cost *cost);

/* Backends. The first call of any toi function picks the best backend this CPU supports,
   unless the environment variable TOI_BACKEND names one (scalar, sse, avx2, avx512, neon) that is
   available. Every function is thread-safe; toi_set_backend affects calls that start after it
   returns. Every backend returns bit-identical results. */
TOI_API toi_backend toi_get_backend(void);
TOI_API int toi_set_backend(toi_backend b);       /* TOI_OK, or TOI_ENOTSUP; AUTO = best */
TOI_API int toi_backend_available(toi_backend b); /* compiled in and supported by this CPU */
TOI_API const char *toi_backend_name(toi_backend b); /* "scalar", ...; "auto"; "unknown" */
TOI_API const char *toi_strerror(int code);
TOI_API const char *toi_version(void);

/* Oriented boxes, structure of arrays (docs/boxes.md). Centre at time t in [0,1] is
   (x,y,z) + t*(vx,vy,vz); orientation q(t) = exp(t*w/2) (x) q, a constant angular velocity
   about the centre. The quaternion must be unit within 1e-3 (it is used normalized); half
   extents >= 0 (0: a flat box, a segment or a point). wx, wy, wz: all NULL for no rotation. */
typedef struct toi_boxes {
    const float *x, *y, *z;          /* centre at t = 0 */
    const float *vx, *vy, *vz;       /* displacement of the centre over the step */
    const float *qw, *qx, *qy, *qz;  /* orientation at t = 0, unit quaternion (box frame -> world) */
    const float *hx, *hy, *hz;       /* half extents, >= 0 (0 = flat box, segment or point) */
    const float *wx, *wy, *wz;       /* rotation over the step: axis * angle in radians (rotation
                                        vector, world frame, about the centre); all NULL = none */
} toi_boxes;

/* Box sweeps: the same rule as every query with f(t) = the distance between the two closed
   boxes and R = 0 (docs/boxes.md). normal: unit separating axis at contact, from B toward A;
   point: see docs/boxes.md; depth: the penetration along the axis of least overlap at t = 0;
   t_exit: the end of the contact interval (linear motion; a rotating query writes t).
   Non-finite input, a negative half extent, a quaternion whose norm is not 1 within 1e-3 or
   a rotation with |wx| + |wy| + |wz| >= 2^127: a miss for that query. A nonzero rotation is
   swept conservatively (never a miss, never later than the contact; up to 2^-10 of the
   query's size early, except where its budget of 64 advances ends first - a very fast spin -
   and it reports a hit at the safe time reached): docs/boxes.md, "Angular motion". */
TOI_API ptrdiff_t toi_sweep_boxes(size_t n, const toi_boxes *a, const toi_boxes *b,
                                  unsigned flags, const toi_hits *out);

/* pair k: bodies[ia[k]] vs bodies[ib[k]]; an index >= nbodies -> TOI_EINVAL */
TOI_API ptrdiff_t toi_sweep_box_pairs(size_t npairs, const uint32_t *ia, const uint32_t *ib,
                                      size_t nbodies, const toi_boxes *bodies,
                                      unsigned flags, const toi_hits *out);

#ifdef __cplusplus
}
#endif
#endif /* TOI_H */
