/* simd/common.h - what every SIMD kernel body shares: naming, partial loads and stores for
   the batch tail, and storing a block of results. Included after a backend's vec.h. */
#ifndef TOI_SIMD_COMMON_H
#define TOI_SIMD_COMMON_H

#include "../internal.h"

#include <float.h>
#include <string.h>

#define TOI_FN__(isa, name) toi_##isa##_##name
#define TOI_FN_(isa, name) TOI_FN__(isa, name)
#define TOI_FN(name) TOI_FN_(TOI_ISA, name) /* toi_sse_name, toi_avx2_name, ... */

/* The kernels of this backend (defined by src/<isa>/<kernel>.c, collected by kernels.c). */
size_t TOI_FN(sweep_spheres)(size_t n, const toi_spheres *a, const toi_spheres *b,
                             unsigned flags, const toi_hits *out);
size_t TOI_FN(sweep_sphere_pairs)(size_t n, const uint32_t *ia, const uint32_t *ib,
                                  const toi_spheres *bodies, unsigned flags,
                                  const toi_hits *out);
size_t TOI_FN(sweep_spheres_plane)(size_t n, const toi_spheres *s, const toi_plane *plane,
                                   unsigned flags, const toi_hits *out);
size_t TOI_FN(respond)(size_t n, const toi_motion *m, const toi_hits *hits, float restitution,
                       float friction);
size_t TOI_FN(sweep_spheres_triangles)(size_t n, const toi_spheres *s, const toi_triangles *tri,
                                       unsigned flags, const toi_hits *out);
size_t TOI_FN(sweep_sphere_triangle_pairs)(size_t n, const uint32_t *is, const uint32_t *it,
                                           const toi_spheres *s, const toi_triangles *tri,
                                           unsigned flags, const toi_hits *out);
size_t TOI_FN(sweep_spheres_triangle_set)(size_t n, const toi_spheres *s, size_t ntris,
                                          const toi_triangles *tri, unsigned flags,
                                          const toi_hits *out);
size_t TOI_FN(sweep_spheres_mesh)(size_t n, const toi_spheres *s, const toi_mesh *m,
                                  unsigned flags, const toi_hits *out, toi_cost *cost);
size_t TOI_FN(sweep_capsules_spheres)(size_t n, const toi_capsules *c, const toi_spheres *s,
                                      unsigned flags, const toi_hits *out);
size_t TOI_FN(sweep_capsules_plane)(size_t n, const toi_capsules *c, const toi_plane *plane,
                                    unsigned flags, const toi_hits *out);
size_t TOI_FN(sweep_capsules)(size_t n, const toi_capsules *a, const toi_capsules *b,
                              unsigned flags, const toi_hits *out);
size_t TOI_FN(sweep_capsule_pairs)(size_t n, const uint32_t *ia, const uint32_t *ib,
                                   const toi_capsules *bodies, unsigned flags,
                                   const toi_hits *out);
size_t TOI_FN(sweep_capsules_triangles)(size_t n, const toi_capsules *c,
                                        const toi_triangles *tri, unsigned flags,
                                        const toi_hits *out);
size_t TOI_FN(sweep_capsules_triangle_set)(size_t n, const toi_capsules *c, size_t ntris,
                                           const toi_triangles *tri, unsigned flags,
                                           const toi_hits *out);
size_t TOI_FN(sweep_capsules_mesh)(size_t n, const toi_capsules *c, const toi_mesh *m,
                                   unsigned flags, const toi_hits *out, toi_cost *cost);
size_t TOI_FN(sweep_boxes)(size_t n, const toi_boxes *a, const toi_boxes *b, unsigned flags,
                           const toi_hits *out);
size_t TOI_FN(sweep_box_pairs)(size_t n, const uint32_t *ia, const uint32_t *ib,
                               const toi_boxes *bodies, unsigned flags, const toi_hits *out);

/* Whether some lane's size m is below FLT_MIN: only then does vpow2_scale_sub differ from 1,
   so a kernel skips its multiplications by 1 (exact no-ops) on every other vector. */
TOI_VINLINE int vany_sub(vf m) { return mbits(vlt(m, vset(FLT_MIN))) != 0; }

/* The second factor of a rescale by s = vpow2_scale(m), per lane: 1 unless m is subnormal,
   then the power of two that brings m * s on to [1, 2) (scalar.h, toi_scalar_pow2_scale_sub). */
TOI_VINLINE vf vpow2_scale_sub(vf m, vf s)
{
    vm sub = mand(vlt(m, vset(FLT_MIN)), vgt(m, vzero()));
    return vsel(sub, vpow2_scale(vmul(m, s)), vset(1.0f));
}

/* 1 / vpow2_scale_sub(m, vpow2_scale(m)), exactly. */
TOI_VINLINE vf vpow2_unscale_sub(vf m)
{
    vm sub = mand(vlt(m, vset(FLT_MIN)), vgt(m, vzero()));
    return vsel(sub, vpow2_unscale(vmul(m, vpow2_scale(m))), vset(1.0f));
}

/* x (scaled units of queries of size m) back in world units: both factors of the rescale
   undone, the second first (toi_scalar_unscale), the second only on a vector that has it. */
TOI_VINLINE vf vunscale(vf x, vf m)
{
    if (vany_sub(m))
        x = vmul(x, vpow2_unscale_sub(m));
    return vmul(x, vpow2_unscale(m));
}

/* A block of VW results; lanes that miss hold t = TOI_NO_HIT and 0 elsewhere. */
typedef struct vres {
    vf t, nx, ny, nz, px, py, pz, depth;
} vres;

/* Partial loads and stores. A layer with masked memory operations (TOI_VEC_MASKED_TAIL)
   defines vload_n, vstore_n and vgather_n itself, with the same meaning. */
#if !defined(TOI_VEC_MASKED_TAIL)
/* Lanes [0, cnt) of p, the rest 0. With cnt == VW (the whole batch but its tail) this is one
   unaligned load; the tail goes through a small buffer, so nothing past p[cnt - 1] is read. */
TOI_VINLINE vf vload_n(const float *p, size_t cnt)
{
    if (cnt == VW)
        return vload(p);
    float tmp[VW] = {0};
    memcpy(tmp, p, cnt * sizeof *p);
    return vload(tmp);
}

TOI_VINLINE void vstore_n(float *p, vf a, size_t cnt)
{
    if (cnt == VW) {
        vstore(p, a);
        return;
    }
    float tmp[VW];
    vstore(tmp, a);
    memcpy(p, tmp, cnt * sizeof *p);
}

/* base[idx[k]] for lanes [0, cnt); the tail's missing lanes read base[idx[0]]. */
TOI_VINLINE vf vgather_n(const float *base, const uint32_t *idx, size_t cnt)
{
    if (cnt == VW)
        return vgather(base, idx);
    uint32_t tmp[VW];
    for (size_t k = 0; k < VW; k++)
        tmp[k] = idx[k < cnt ? k : 0];
    return vgather(base, tmp);
}
#endif

/* VW spheres: the seven input streams of toi_spheres, one vector each. */
typedef struct vsph {
    vf x, y, z, vx, vy, vz, r;
} vsph;

/* Spheres [i, i + cnt) of s, loaded stream by stream (named, not looped, so they stay in
   registers). */
TOI_VINLINE vsph vsph_load(const toi_spheres *s, size_t i, size_t cnt)
{
    vsph v;
    v.x = vload_n(s->x + i, cnt);
    v.y = vload_n(s->y + i, cnt);
    v.z = vload_n(s->z + i, cnt);
    v.vx = vload_n(s->vx + i, cnt);
    v.vy = vload_n(s->vy + i, cnt);
    v.vz = vload_n(s->vz + i, cnt);
    v.r = vload_n(s->r + i, cnt);
    return v;
}

/* Spheres s[idx[k]] for lanes [0, cnt). */
TOI_VINLINE vsph vsph_gather(const toi_spheres *s, const uint32_t *idx, size_t cnt)
{
    vsph v;
    v.x = vgather_n(s->x, idx, cnt);
    v.y = vgather_n(s->y, idx, cnt);
    v.z = vgather_n(s->z, idx, cnt);
    v.vx = vgather_n(s->vx, idx, cnt);
    v.vy = vgather_n(s->vy, idx, cnt);
    v.vz = vgather_n(s->vz, idx, cnt);
    v.r = vgather_n(s->r, idx, cnt);
    return v;
}

/* Number of hits among lanes [0, cnt). */
TOI_VINLINE size_t vcount_n(vm hit, size_t cnt)
{
    unsigned bits = mbits(hit) & (unsigned)((1ull << cnt) - 1);
    return (size_t)__builtin_popcount(bits);
}

/* The block of a missing query: t = TOI_NO_HIT, 0 elsewhere. */
TOI_VINLINE vres vres_miss(void)
{
    const vf zero = vzero();
    return (vres){vset(TOI_NO_HIT), zero, zero, zero, zero, zero, zero, zero};
}

/* Store the outputs the caller asked for (t always; the rest only in full mode). */
TOI_VINLINE void vstore_res(const toi_hits *out, size_t i, const vres *r, size_t cnt, int full)
{
    vstore_n(out->t + i, r->t, cnt);
    if (!full)
        return;
    if (out->nx) vstore_n(out->nx + i, r->nx, cnt);
    if (out->ny) vstore_n(out->ny + i, r->ny, cnt);
    if (out->nz) vstore_n(out->nz + i, r->nz, cnt);
    if (out->px) vstore_n(out->px + i, r->px, cnt);
    if (out->py) vstore_n(out->py + i, r->py, cnt);
    if (out->pz) vstore_n(out->pz + i, r->pz, cnt);
    if (out->depth) vstore_n(out->depth + i, r->depth, cnt);
}

/* The most of k input streams whose element i falls in one L1 set (the set from address bits
   6 to 11, alike for every i). Streams allocated apart at one offset modulo 4 KiB (large
   allocations are page-aligned) crowd one set, and read a vector at a time across all of
   them their lines evict each other before use; past TOI_CROWDED, the kernels with many
   streams read them through a stage (copied out a stream at a time, a few lines each). */
#define TOI_CROWDED 8
static inline int toi_set_crowd(const float *const *p, int k)
{
    unsigned char cnt[64] = {0};
    int most = 0;
    for (int j = 0; j < k; j++) {
        unsigned set = (unsigned)((uintptr_t)p[j] >> 6) & 63u;
        if (++cnt[set] > most)
            most = cnt[set];
    }
    return most;
}

/* Pairs in a stage: TOI_STAGE contiguous elements of each crowded stream copied out a stream
   at a time (a few lines each, read together), the kernel then run on the copy. */
#define TOI_STAGE 64
TOI_VINLINE void vstage_copy(float (*f)[TOI_STAGE], const float *const *src, int k, size_t i)
{
    _Pragma("GCC unroll 26")
    for (int j = 0; j < k; j++) {
        TOI_UNROLL
        for (size_t h = 0; h < TOI_STAGE; h += VW)
            vstore(&f[j][h], vload(src[j] + i + h));
    }
}

/* The exit times of the hit lanes of a sphere (or a capsule's lower end) of radius r against
   the plane (normal nx, ny, nz): the scalar's toi_scalar_plane_exit, rising through r where
   n.v > 0 (tsep = (r - s0) / sv, the entry's division), never elsewhere; n.v of a tiny v
   rescaled, computed when a hit lane needs it. TOI_NO_HIT on the other lanes. */
TOI_VINLINE vf plane_exit_vec(vf nx, vf ny, vf nz, vf vx, vf vy, vf vz, vf r, vf s0, vf sv,
                              vf tsep, vm hit)
{
    const vf zero = vzero(), inf = vset(INFINITY);
    vf te = vsel(vgt(sv, zero), tsep, inf);
    vf vs = vadd(vadd(vabs(vx), vabs(vy)), vabs(vz));
    vm big = vge(vs, vset(TOI_EXIT_MIN_V));
    if (mbits(mandnot(hit, big))) {
        vf k = vpow2_scale(vs);
        vf svk = vadd(vadd(vmul(nx, vmul(vx, k)), vmul(ny, vmul(vy, k))), vmul(nz, vmul(vz, k)));
        vf te2 = vsel(vgt(svk, zero), vmul(vdiv(vsub(r, s0), svk), k), inf);
        te = vsel(big, te, te2);
    }
    return vsel(hit, te, vset(TOI_NO_HIT));
}

/* Runs BLOCK(i, cnt, full) over the batch: whole vectors, then the tail as one partial vector,
   with `full` a compile-time constant in each copy of the loop. BLOCK returns its hit count. */
#define TOI_BATCH(n, full, BLOCK)                                                    \
    do {                                                                             \
        size_t i_ = 0;                                                               \
        if (full) {                                                                  \
            for (; i_ + VW <= (n); i_ += VW) hits += BLOCK(i_, VW, 1);               \
            if (i_ < (n)) hits += BLOCK(i_, (n) - i_, 1);                            \
        } else {                                                                     \
            for (; i_ + VW <= (n); i_ += VW) hits += BLOCK(i_, VW, 0);               \
            if (i_ < (n)) hits += BLOCK(i_, (n) - i_, 0);                            \
        }                                                                            \
    } while (0)

/* TOI_BATCH for the queries that also write t_exit: BLOCK(i, cnt, full, want_exit), with
   want_exit, like full, a compile-time constant in each copy of the loop (a test per vector
   or per query cost the light queries 5 to 18 % of their instructions). */
#define TOI_BATCH_X_(n, full, x, BLOCK)                                              \
    do {                                                                             \
        size_t i_ = 0;                                                               \
        if (full) {                                                                  \
            for (; i_ + VW <= (n); i_ += VW) hits += BLOCK(i_, VW, 1, x);            \
            if (i_ < (n)) hits += BLOCK(i_, (n) - i_, 1, x);                         \
        } else {                                                                     \
            for (; i_ + VW <= (n); i_ += VW) hits += BLOCK(i_, VW, 0, x);            \
            if (i_ < (n)) hits += BLOCK(i_, (n) - i_, 0, x);                         \
        }                                                                            \
    } while (0)
#define TOI_BATCH_EXIT(n, full, want_exit, BLOCK)                                    \
    do {                                                                             \
        if (want_exit)                                                               \
            TOI_BATCH_X_(n, full, 1, BLOCK);                                         \
        else                                                                         \
            TOI_BATCH_X_(n, full, 0, BLOCK);                                         \
    } while (0)

#endif /* TOI_SIMD_COMMON_H */
