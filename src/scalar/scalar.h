/* scalar/scalar.h - helpers of the scalar reference kernels (plain C, one query at a time) */
#ifndef TOI_SCALAR_H
#define TOI_SCALAR_H

#include "../internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* The power of two 2^(127 - E) for the exponent field E of m (0 <= m < 2^127): multiplying
   by it brings m into [1, 2) exactly (m normal) or below 2 (m subnormal or 0), so a query's
   geometry can be computed at size ~1 whatever its magnitude, with no overflow or underflow
   of squared and fourth-power terms. */
static inline float toi_scalar_pow2_scale(float m)
{
    uint32_t u;
    memcpy(&u, &m, sizeof u);
    u = 0x7f000000u - (u & 0x7f800000u);
    float s;
    memcpy(&s, &u, sizeof s);
    return s;
}

/* The power of two 2^(E - 127) for the exponent field E of m: exactly 1 / pow2_scale(m)
   (2^-127, a subnormal, when E = 0). Undoes the rescale without a division. */
static inline float toi_scalar_pow2_unscale(float m)
{
    uint32_t u;
    memcpy(&u, &m, sizeof u);
    u &= 0x7f800000u;
    if (u == 0)
        u = 0x00400000u;
    float s;
    memcpy(&s, &u, sizeof s);
    return s;
}

/* The second factor of a rescale by s = toi_scalar_pow2_scale(m): s brings a subnormal m
   only to [2^-22, 2), this brings it on to [1, 2) (applied after s: their product can
   overflow a float), so absolute thresholds in scaled units mean the same at every size.
   1 for a normal m (and for 0), so a normal-sized query's arithmetic is unchanged. */
static inline float toi_scalar_pow2_scale_sub(float m, float s)
{
    return m < FLT_MIN && m > 0.0f ? toi_scalar_pow2_scale(m * s) : 1.0f;
}

/* Whether a query's size m is below FLT_MIN, which only a scene among the denormals has: the
   kernels apply toi_scalar_pow2_scale_sub on that branch alone (marked unlikely, so the
   compiler keeps it a branch rather than computing it for every query). */
#define TOI_SCALAR_SUBNORMAL(m) __builtin_expect((m) < FLT_MIN, 0)

/* 1 / toi_scalar_pow2_scale_sub(m, toi_scalar_pow2_scale(m)), exactly. */
static inline float toi_scalar_pow2_unscale_sub(float m)
{
    return m < FLT_MIN && m > 0.0f ? toi_scalar_pow2_unscale(m * toi_scalar_pow2_scale(m))
                                   : 1.0f;
}

/* x (scaled units of a query of size m) back in world units: both factors of the rescale
   undone, the second first. */
static inline float toi_scalar_unscale(float x, float m)
{
    return (x * toi_scalar_pow2_unscale_sub(m)) * toi_scalar_pow2_unscale(m);
}

/* The per-query functions are inlined into their batch loops (14 float arguments would
   otherwise travel through the stack on every call). */
#define TOI_SCALAR_INLINE TOI_INLINE

/* One query's result before it is stored. A miss is t = TOI_NO_HIT with everything else 0. */
typedef struct toi_result {
    float t, nx, ny, nz, px, py, pz, depth;
} toi_result;

static const toi_result toi_scalar_no_hit = {TOI_NO_HIT, 0, 0, 0, 0, 0, 0, 0};

static inline void toi_scalar_miss(toi_result *r)
{
    r->t = TOI_NO_HIT;
    r->nx = r->ny = r->nz = 0.0f;
    r->px = r->py = r->pz = 0.0f;
    r->depth = 0.0f;
}

/* Store result i into the outputs the caller asked for (full: any beyond t). */
static inline void toi_scalar_store(const toi_hits *out, size_t i, const toi_result *r, int full)
{
    out->t[i] = r->t;
    if (!full)
        return;
    if (out->nx) out->nx[i] = r->nx;
    if (out->ny) out->ny[i] = r->ny;
    if (out->nz) out->nz[i] = r->nz;
    if (out->px) out->px[i] = r->px;
    if (out->py) out->py[i] = r->py;
    if (out->pz) out->pz[i] = r->pz;
    if (out->depth) out->depth[i] = r->depth;
}

size_t toi_scalar_sweep_spheres(size_t n, const toi_spheres *a, const toi_spheres *b,
                                unsigned flags, const toi_hits *out);
size_t toi_scalar_sweep_sphere_pairs(size_t n, const uint32_t *ia, const uint32_t *ib,
                                     const toi_spheres *bodies, unsigned flags,
                                     const toi_hits *out);
size_t toi_scalar_sweep_spheres_plane(size_t n, const toi_spheres *s, const toi_plane *plane,
                                      unsigned flags, const toi_hits *out);
size_t toi_scalar_respond(size_t n, const toi_motion *m, const toi_hits *hits,
                          float restitution, float friction);

size_t toi_scalar_sweep_spheres_triangles(size_t n, const toi_spheres *s,
                                          const toi_triangles *tri, unsigned flags,
                                          const toi_hits *out);
size_t toi_scalar_sweep_sphere_triangle_pairs(size_t n, const uint32_t *is, const uint32_t *it,
                                              const toi_spheres *s, const toi_triangles *tri,
                                              unsigned flags, const toi_hits *out);
size_t toi_scalar_sweep_spheres_triangle_set(size_t n, const toi_spheres *s, size_t ntris,
                                             const toi_triangles *tri, unsigned flags,
                                             const toi_hits *out);
size_t toi_scalar_sweep_spheres_mesh(size_t n, const toi_spheres *s, const toi_mesh *m,
                                     unsigned flags, const toi_hits *out, toi_cost *cost);

size_t toi_scalar_sweep_capsules_spheres(size_t n, const toi_capsules *c, const toi_spheres *s,
                                         unsigned flags, const toi_hits *out);
size_t toi_scalar_sweep_capsules_plane(size_t n, const toi_capsules *c, const toi_plane *plane,
                                       unsigned flags, const toi_hits *out);
size_t toi_scalar_sweep_capsules(size_t n, const toi_capsules *a, const toi_capsules *b,
                                 unsigned flags, const toi_hits *out);
size_t toi_scalar_sweep_capsule_pairs(size_t n, const uint32_t *ia, const uint32_t *ib,
                                      const toi_capsules *bodies, unsigned flags,
                                      const toi_hits *out);
size_t toi_scalar_sweep_capsules_triangles(size_t n, const toi_capsules *c,
                                           const toi_triangles *tri, unsigned flags,
                                           const toi_hits *out);
size_t toi_scalar_sweep_capsules_triangle_set(size_t n, const toi_capsules *c, size_t ntris,
                                              const toi_triangles *tri, unsigned flags,
                                              const toi_hits *out);
size_t toi_scalar_sweep_capsules_mesh(size_t n, const toi_capsules *c, const toi_mesh *m,
                                      unsigned flags, const toi_hits *out, toi_cost *cost);
size_t toi_scalar_sweep_boxes(size_t n, const toi_boxes *a, const toi_boxes *b, unsigned flags,
                              const toi_hits *out);
size_t toi_scalar_sweep_box_pairs(size_t n, const uint32_t *ia, const uint32_t *ib,
                                  const toi_boxes *bodies, unsigned flags, const toi_hits *out);

/* The exit time of a sphere (or a capsule's lower end) of radius r touching the plane P:
   the time its signed distance s0 + t sv rises through r (scalar/plane.c), shared by the
   sphere and capsule plane queries. */
static inline float toi_scalar_plane_exit(float vx, float vy, float vz, float r,
                                         const toi_plane *P, float s0, float sv)
{
    float vs = (fabsf(vx) + fabsf(vy)) + fabsf(vz);
    if (vs >= TOI_EXIT_MIN_V)
        return sv > 0.0f ? (r - s0) / sv : INFINITY;
    float k = toi_scalar_pow2_scale(vs);
    float svk = (P->nx * (vx * k) + P->ny * (vy * k)) + P->nz * (vz * k);
    return svk > 0.0f ? (r - s0) / svk * k : INFINITY;
}

#endif /* TOI_SCALAR_H */
