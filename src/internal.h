/* internal.h - the kernel table every backend fills, and helpers shared by the library */
#ifndef TOI_INTERNAL_H
#define TOI_INTERNAL_H

#include "toi.h"

#include <stddef.h>
#include <stdint.h>

/* The kernels' per-query and per-block functions are forced inline into their batch loops
   (TOI_VINLINE, TOI_SCALAR_INLINE): in the fast builds a block's `full` flag is then a
   constant and no vector travels through the stack. Instrumented builds (the sanitizers,
   ThreadSanitizer and the fuzz targets: the Makefile's SAN_DEFS) define TOI_NO_FORCE_INLINE
   and leave inlining to the compiler: the same operations under the same checks, only the
   calls differ, while clang compiling the forced bodies with their instrumentation took up to
   11 minutes on one file (avx2/boxes.c, in CodeGenPrepare; 18 s with the compiler's choice). */
#ifdef TOI_NO_FORCE_INLINE
#define TOI_INLINE static inline
#else
#define TOI_INLINE static inline __attribute__((always_inline))
#endif

/* Before a small loop of fixed count over pieces, axes, lanes or vector halves: written as a
   loop, meant as straight-line code (at -O2 GCC would otherwise keep such loops' vectors in
   memory and compute their indices at run time: avx2's vtri_normal as loops cost ~335
   instructions per vector of 8 capsule pairs). */
#define TOI_UNROLL _Pragma("GCC unroll 16")

/* The most queries (or pairs) a kernel is given in one call: the API layer (api.c) hands a
   larger batch over in runs, so kernels may keep query indices in 32 bits. */
#define TOI_RUN ((size_t)1 << 30)

/* One backend: its kernels. The API layer (api.c) has already validated every pointer, flag
   and index when a kernel runs, so kernels only compute. Each returns the number of hits. */
typedef struct toi_kernels {
    toi_backend id;
    const char *name;
    unsigned width; /* lanes per vector */
    size_t run;     /* queries per kernel call at most: 0 (every table) = TOI_RUN; the tests
                       set it lower in a copy of a table to check that runs give one call's
                       bits */
    size_t (*spheres)(size_t n, const toi_spheres *a, const toi_spheres *b, unsigned flags,
                      const toi_hits *out);
    size_t (*sphere_pairs)(size_t n, const uint32_t *ia, const uint32_t *ib,
                           const toi_spheres *bodies, unsigned flags, const toi_hits *out);
    size_t (*spheres_plane)(size_t n, const toi_spheres *s, const toi_plane *plane,
                            unsigned flags, const toi_hits *out);
    size_t (*respond)(size_t n, const toi_motion *m, const toi_hits *hits, float restitution,
                      float friction);
    size_t (*spheres_triangles)(size_t n, const toi_spheres *s, const toi_triangles *tri,
                                unsigned flags, const toi_hits *out);
    size_t (*sphere_triangle_pairs)(size_t n, const uint32_t *is, const uint32_t *it,
                                    const toi_spheres *s, const toi_triangles *tri,
                                    unsigned flags, const toi_hits *out);
    size_t (*spheres_triangle_set)(size_t n, const toi_spheres *s, size_t ntris,
                                   const toi_triangles *tri, unsigned flags,
                                   const toi_hits *out);
    size_t (*spheres_mesh)(size_t n, const toi_spheres *s, const toi_mesh *m, unsigned flags,
                           const toi_hits *out, toi_cost *cost);
    size_t (*capsules_spheres)(size_t n, const toi_capsules *c, const toi_spheres *s,
                               unsigned flags, const toi_hits *out);
    size_t (*capsules_plane)(size_t n, const toi_capsules *c, const toi_plane *plane,
                             unsigned flags, const toi_hits *out);
    size_t (*capsules)(size_t n, const toi_capsules *a, const toi_capsules *b, unsigned flags,
                       const toi_hits *out);
    size_t (*capsule_pairs)(size_t n, const uint32_t *ia, const uint32_t *ib,
                            const toi_capsules *bodies, unsigned flags, const toi_hits *out);
    size_t (*capsules_triangles)(size_t n, const toi_capsules *c, const toi_triangles *tri,
                                 unsigned flags, const toi_hits *out);
    size_t (*capsules_triangle_set)(size_t n, const toi_capsules *c, size_t ntris,
                                    const toi_triangles *tri, unsigned flags,
                                    const toi_hits *out);
    size_t (*capsules_mesh)(size_t n, const toi_capsules *c, const toi_mesh *m, unsigned flags,
                            const toi_hits *out, toi_cost *cost);
    size_t (*boxes)(size_t n, const toi_boxes *a, const toi_boxes *b, unsigned flags,
                    const toi_hits *out);
    size_t (*box_pairs)(size_t n, const uint32_t *ia, const uint32_t *ib,
                        const toi_boxes *bodies, unsigned flags, const toi_hits *out);
} toi_kernels;

extern const toi_kernels toi_kernels_scalar;
#if defined(__x86_64__) || defined(_M_X64)
#define TOI_HAVE_X86 1
extern const toi_kernels toi_kernels_sse;
extern const toi_kernels toi_kernels_avx2;
extern const toi_kernels toi_kernels_avx512;
#endif
#if defined(__aarch64__)
#define TOI_HAVE_NEON 1
extern const toi_kernels toi_kernels_neon;
#endif

/* cpu.c: the backends this CPU can run (bit 1 << toi_backend), scalar always included. */
unsigned toi_cpu_backends(void);

/* dispatch.c: the table in use (resolved on first use), a backend's table (NULL when not
   compiled in or not supported), and the backend the calling thread's last query ran on
   (for tests: they assert the backend they forced is the one that ran). */
const toi_kernels *toi_active_kernels(void);
const toi_kernels *toi_kernels_for(toi_backend b);
void toi_note_backend(toi_backend b);
toi_backend toi_last_backend(void);

/* api.c: the queries on an explicit table, after the same validation as the public calls
   (tests use them to run kernels that dispatch does not offer, such as NEON through SIMDe). */
ptrdiff_t toi_sweep_spheres_on(const toi_kernels *k, size_t n, const toi_spheres *a,
                               const toi_spheres *b, unsigned flags, const toi_hits *out);
ptrdiff_t toi_sweep_sphere_pairs_on(const toi_kernels *k, size_t npairs, const uint32_t *ia,
                                    const uint32_t *ib, size_t nbodies,
                                    const toi_spheres *bodies, unsigned flags,
                                    const toi_hits *out);
ptrdiff_t toi_sweep_spheres_plane_on(const toi_kernels *k, size_t n, const toi_spheres *s,
                                     const toi_plane *plane, unsigned flags,
                                     const toi_hits *out);

ptrdiff_t toi_respond_on(const toi_kernels *k, size_t n, const toi_motion *m,
                         const toi_hits *hits, float restitution, float friction);
ptrdiff_t toi_sweep_spheres_triangles_on(const toi_kernels *k, size_t n, const toi_spheres *s,
                                         const toi_triangles *tri, unsigned flags,
                                         const toi_hits *out);
ptrdiff_t toi_sweep_sphere_triangle_pairs_on(const toi_kernels *k, size_t npairs,
                                             const uint32_t *is, const uint32_t *it,
                                             size_t nspheres, const toi_spheres *s,
                                             size_t ntris, const toi_triangles *tri,
                                             unsigned flags, const toi_hits *out);
ptrdiff_t toi_sweep_spheres_triangle_set_on(const toi_kernels *k, size_t n, const toi_spheres *s,
                                            size_t ntris, const toi_triangles *tri,
                                            unsigned flags, const toi_hits *out);
ptrdiff_t toi_sweep_spheres_mesh_on(const toi_kernels *k, size_t n, const toi_spheres *s,
                                    const toi_mesh *m, unsigned flags, const toi_hits *out,
                                    toi_cost *cost);

ptrdiff_t toi_sweep_capsules_spheres_on(const toi_kernels *k, size_t n, const toi_capsules *c,
                                       const toi_spheres *s, unsigned flags,
                                       const toi_hits *out);
ptrdiff_t toi_sweep_capsules_plane_on(const toi_kernels *k, size_t n, const toi_capsules *c,
                                     const toi_plane *plane, unsigned flags,
                                     const toi_hits *out);
ptrdiff_t toi_sweep_capsules_on(const toi_kernels *k, size_t n, const toi_capsules *a,
                                const toi_capsules *b, unsigned flags, const toi_hits *out);
ptrdiff_t toi_sweep_capsule_pairs_on(const toi_kernels *k, size_t npairs, const uint32_t *ia,
                                     const uint32_t *ib, size_t nbodies,
                                     const toi_capsules *bodies, unsigned flags,
                                     const toi_hits *out);
ptrdiff_t toi_sweep_capsules_triangles_on(const toi_kernels *k, size_t n,
                                          const toi_capsules *c, const toi_triangles *tri,
                                          unsigned flags, const toi_hits *out);
ptrdiff_t toi_sweep_capsules_triangle_set_on(const toi_kernels *k, size_t n,
                                             const toi_capsules *c, size_t ntris,
                                             const toi_triangles *tri, unsigned flags,
                                             const toi_hits *out);
ptrdiff_t toi_sweep_capsules_mesh_on(const toi_kernels *k, size_t n, const toi_capsules *c,
                                     const toi_mesh *m, unsigned flags, const toi_hits *out,
                                     toi_cost *cost);
ptrdiff_t toi_sweep_boxes_on(const toi_kernels *k, size_t n, const toi_boxes *a,
                             const toi_boxes *b, unsigned flags, const toi_hits *out);
ptrdiff_t toi_sweep_box_pairs_on(const toi_kernels *k, size_t npairs, const uint32_t *ia,
                                 const uint32_t *ib, size_t nbodies, const toi_boxes *bodies,
                                 unsigned flags, const toi_hits *out);

/* Whether any output beyond t is wanted (the kernels then compute normal, point, depth). */
static inline int toi_wants_full(const toi_hits *out)
{
    return out->nx || out->ny || out->nz || out->px || out->py || out->pz || out->depth;
}

/* A plane with a non-finite component makes every query against it miss (0 * x is 0 for
   every finite x, NaN otherwise). Evaluated once per call by every backend. */
static inline int toi_plane_ok(const toi_plane *P)
{
    float finite = ((P->nx * 0.0f + P->ny * 0.0f) + P->nz * 0.0f) + P->d * 0.0f;
    return finite == 0.0f;
}

/* Fallback normal for coincident centres (two spheres whose centres meet, reachable only with
   TOI_ALL_OVERLAPS): +x, the same on every backend. */
#define TOI_FALLBACK_NX 1.0f
#define TOI_FALLBACK_NY 0.0f
#define TOI_FALLBACK_NZ 0.0f

/* A direction shorter than this (squared, in the query's scaled units where the geometry
   has size ~1) is far below the accuracy margin 64*FLT_EPSILON: its normal is the fallback. */
#define TOI_MIN_DIR2 0x1p-100f

/* A face whose normal's length |N| = |E0 x E2| is below TOI_THIN_FACE * L^2, L the longest
   edge, is left out: its edges and vertices are still tested. (|N| / L^2 lies between half
   the sine of the smallest angle and that sine, so a kept face's smallest angle is at least
   TOI_THIN_FACE, a dropped one's below twice it.) A dropped face lies within its altitude
   |N| / L < TOI_THIN_FACE * L <= 16 * FLT_EPSILON * size of its longest edge, so the edges'
   r-neighbourhood holds the face's for r shrunk by that much, a quarter of the accuracy
   margin. Kept, such a sliver's inside test is unsound near its acute tip: the half-planes'
   float rounding, ~FLT_EPSILON |X - V_k| each, moves the accepted region ~FLT_EPSILON L /
   alpha past a tip of angle alpha. (With a larger angle, the inside test evaluates each
   edge's half-plane from both its endpoints, so near a tip that error scales with the
   distance to the tip, and a point beyond the tip fails one of the two sides there.) */
#define TOI_THIN_FACE 0x1p-20f /* 8 * FLT_EPSILON */

/* Set queries: a group of triangles is skipped, without computing it, when every one of its
   boxes lies farther than r + TOI_BOX_MARGIN * size from the box of the sphere's path up to
   the best time so far (size: the query's scaled size, as above). The kernels' backward error
   is below 64 * FLT_EPSILON * size, 2^9 times less than this margin, so a skipped triangle
   could never have produced an earlier hit: skipping changes no result bit. */
#define TOI_BOX_MARGIN 0x1p-8f

/* Sphere exit times (toi_hits.t_exit): below this v.v, in the query's scaled units, squares
   and cross products of the relative displacement v would lose precision to underflow, so
   the exit is solved again with v scaled on its own by a power of two (the time scaled back
   by the same exact factor). */
#define TOI_EXIT_MIN_A 0x1p-64f
/* Plane exit times: below this |v|_1 (world units; the plane query is not rescaled), n.v
   would lose precision to underflow, so it is computed again from v scaled by a power of
   two, and the time scaled back. */
#define TOI_EXIT_MIN_V 0x1p-100f

/* Relative geometry whose scaled size sum reaches this is out of range (a miss). */
#define TOI_MAX_SUM 0x1p127f

/* Capsule pairs: the face of the parallelogram a(u) - b(w) (docs/capsules.md) is left out
   when a segment's squared length, or N.N / (ea.ea eb.eb) (N = ea x eb, the squared sine
   of the angle between the segments), is below this (scaled units): its width is then below
   2^-20 of the shorter segment, far inside the accuracy margin, and its edges hold it. */
#define TOI_SEG_FACE_MIN 0x1p-40f

/* ... and also when its narrower width, |N| / max(|ea|, |eb|), is below 2^-17 (scaled units,
   where S is in [1, 2): N.N below this times the longer segment's squared length). Its
   half-plane tests round by a few FLT_EPSILON S, so a narrower face could be judged from the
   wrong side: a segment touching the other at a shared end was then given the far side's
   edge as its nearest pair (found by the accuracy group at 128 times its samples: depth off
   by B's length). Left out, it costs at most half its width, 2^-18, within the margin. */
#define TOI_SEG_FACE_WIDTH2 0x1p-34f

/* Without a face, an end's foot on the other segment ranks as the nearest pair only when the
   pair cannot get nearer by sliding off that end along its own segment e: the slope d.e
   toward the segment's interior is not below -2^-16 |e| (scaled units, squared: g.g against
   this times e.e). The slope rounds by under 40 FLT_EPSILON |e| (|d| and the corners below
   4), and a face narrower than 2^-17 leaves at most 2^-17 |e| (its interior's pull), so only
   a foot that is not the nearest pair fails: a narrow face between segments far from
   parallel (short segments in a large scene) had taken an end's foot 0.0038 farther than
   the corner pair, the normal 4.8e-4 off (docs/capsules.md). */
#define TOI_SEG_SLIDE2 0x1p-32f
/* Boxes (docs/boxes.md). A quaternion is accepted when its squared norm lies in
   [(1 - 1e-3)^2, (1 + 1e-3)^2] (rounded inward); it is used normalized. */
#define TOI_BOX_QQ_LO 0.998002f
#define TOI_BOX_QQ_HI 1.002000f
/* Every axis's projected radius is grown by its rounding-error bound, times the query's
   scaled size: the 6 face axes by TOI_BOX_GROW_FACE, the 9 edge-edge axes (not normalized,
   length |a_i x b_j| <= 1) by TOI_BOX_GROW_EDGE. An axis can then never certify a
   separation rounding invented: near-parallel edges (|a_i x b_j| ~ 0) make their axis
   separate nothing rather than anything. */
#define TOI_BOX_GROW_FACE 0x1p-20f /* 8 * FLT_EPSILON */
#define TOI_BOX_GROW_EDGE 0x1p-19f /* 16 * FLT_EPSILON */
/* The linear box sweep's ball test (box_balls_apart, docs/boxes.md): a pair whose balls of
   radius |h| about the centres stay more than TOI_BOX_BALL_GAP * S apart over the step is a
   miss; decided for sizes S in [TOI_BOX_BALL_MIN, TOI_BOX_BALL_MAX] (no product of the test
   overflows or leaves the normal range there), and by the ends alone when |v|^2 *
   TOI_BOX_BALL_SLOW < S^2 (the path then stays within 2^-9 S of l). */
#define TOI_BOX_BALL_GAP 0x1p-8f
#define TOI_BOX_BALL_MIN 0x1p-20f
#define TOI_BOX_BALL_MAX 0x1p24f
#define TOI_BOX_BALL_SLOW 0x1p18f
/* Contact point: an axis m of the other box counts as parallel to the contact plane (its
   supporting feature extends along it) when h_m |axis_m . n| is at most this times the
   query's scaled size. */
#define TOI_BOX_FLAT 0x1p-12f
/* Touching at t = 0: axes whose penetrations lie within TOI_BOX_TIE times the scaled size of
   the least count as tied with it; the pair approaches only when it closes along each
   (docs/boxes.md, the contract). Half of delta = 64 FLT_EPSILON S; above the difference of two
   exactly touching axes' penetrations (grown radii included) at 1/2 <= |axis| <= 1. */
#define TOI_BOX_TIE 0x1p-18f
/* Edge-edge contact point: edges with |a_i x b_j|^2 below this take their midpoints. */
#define TOI_BOX_MIN_CROSS2 0x1p-40f
/* Edge-edge contact point: supporting edges whose closest points lie farther apart than this
   times the scaled size are not the touching features (an edge lying on a face, the edge
   axis entering last by rounding): the point is then the face's (docs/boxes.md). */
#define TOI_BOX_EDGE_GAP 0x1p-16f

/* Boxes with angular motion (docs/boxes.md, "Angular motion"): conservative advancement on
   the 15-axis separation. A query stops with a hit when the separation, less its error
   bound, is at most TOI_BOX_SPIN_TOL times the query's scaled size, and after
   TOI_BOX_SPIN_BUDGET advances reports a hit at the time reached (never a miss). The
   computed orientation of a box of circumradius r, turned by the half-angle phi (radians) at
   t > 0, is within (TOI_BOX_SPIN_EROT + TOI_BOX_SPIN_EANG * phi) * r of the exact one (the
   sine/cosine polynomials, the reduction of phi by pi, the quaternion product and the axes);
   half-angles beyond TOI_BOX_SPIN_PHI_MAX are clamped there, where that bound exceeds 2 r,
   the most a turn can move a point. */
#define TOI_BOX_SPIN_TOL 0x1p-10f
#define TOI_BOX_SPIN_BUDGET 64
#define TOI_BOX_SPIN_EROT 0x1p-16f /* 128 * FLT_EPSILON */
#define TOI_BOX_SPIN_EANG 0x1p-17f /* 64 * FLT_EPSILON per radian */
#define TOI_BOX_SPIN_PHI_MAX 0x1p21f

#endif /* TOI_INTERNAL_H */
