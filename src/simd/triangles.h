/* simd/triangles.h - sphere-triangle sweep kernels (pairs, pair lists, sets), written once
   over the vector layer; the per-lane sweep is simd/tri_sweep.h. Included by
   src/<isa>/triangles.c after that backend's vec.h. */
#include "tri_sweep.h"

/* Pairs: sphere in[0..6] (x y z vx vy vz r) against triangle in[7..15]. */
TOI_VINLINE size_t tri_pairs_block(const vf in[16], vm all_overlaps, vm cull_on,
                                   const toi_hits *out, size_t i, size_t cnt, int full)
{
    const v3 p0 = {in[0], in[1], in[2]}, vin = {in[3], in[4], in[5]};
    v3 Vr[3];
    vf size = tri_relative(p0, vin, in[6], in + 7, Vr);
    vres r;
    vf feat = vset((float)TOI_FEATURE_NONE); /* written when a feature is wanted */
    const int want = full ? 2 : out->feature != NULL;
    vm hit = tri_sweep_vec(p0, vin, in[6], in + 7, Vr, size, mconst(1), all_overlaps, cull_on,
                           want, &r, &feat);
    vstore_res(out, i, &r, cnt, full);
    if (out->feature)
        store_feature(out->feature + i, feat, cnt);
    return vcount_n(hit, cnt);
}

TOI_VINLINE size_t spheres_triangles_block(const toi_spheres *S, const toi_triangles *T,
                                           vm all_overlaps, vm cull_on, const toi_hits *out,
                                           size_t i, size_t cnt, int full)
{
    const float *const ss[7] = TOI_SPH_FIELDS(S);
    const float *const ts[9] = TOI_TRI_FIELDS(T);
    vf in[16];
    for (int k = 0; k < 7; k++)
        in[k] = vload_n(ss[k] + i, cnt);
    for (int k = 0; k < 9; k++)
        in[7 + k] = vload_n(ts[k] + i, cnt);
    return tri_pairs_block(in, all_overlaps, cull_on, out, i, cnt, full);
}

size_t TOI_FN(sweep_spheres_triangles)(size_t n, const toi_spheres *S, const toi_triangles *T,
                                       unsigned flags, const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const vm cull_on = mconst((flags & TOI_CULL_BACKFACES) != 0);
    const int full = toi_wants_full(out);
    size_t hits = 0;
#define BLOCK(i, cnt, f) spheres_triangles_block(S, T, all_overlaps, cull_on, out, i, cnt, f)
    TOI_BATCH(n, full, BLOCK);
#undef BLOCK
    return vdone(hits);
}

TOI_VINLINE size_t tri_list_block(const uint32_t *is, const uint32_t *it, const toi_spheres *S,
                                  const toi_triangles *T, vm all_overlaps, vm cull_on,
                                  const toi_hits *out, size_t i, size_t cnt, int full)
{
    const float *const ss[7] = TOI_SPH_FIELDS(S);
    const float *const ts[9] = TOI_TRI_FIELDS(T);
    vf in[16];
    for (int k = 0; k < 7; k++)
        in[k] = vgather_n(ss[k], is + i, cnt);
    for (int k = 0; k < 9; k++)
        in[7 + k] = vgather_n(ts[k], it + i, cnt);
    return tri_pairs_block(in, all_overlaps, cull_on, out, i, cnt, full);
}

size_t TOI_FN(sweep_sphere_triangle_pairs)(size_t n, const uint32_t *is, const uint32_t *it,
                                           const toi_spheres *S, const toi_triangles *T,
                                           unsigned flags, const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const vm cull_on = mconst((flags & TOI_CULL_BACKFACES) != 0);
    const int full = toi_wants_full(out);
    size_t hits = 0;
#define BLOCK(i, cnt, f) tri_list_block(is, it, S, T, all_overlaps, cull_on, out, i, cnt, f)
    TOI_BATCH(n, full, BLOCK);
#undef BLOCK
    return vdone(hits);
}

/* A sphere set scan's query: the sphere broadcast (p0, vin, rin; sv its displacement) and
   the flags. */
typedef struct sphere_set_q {
    v3 p0, vin;
    vf rin;
    float sv[3];
    vm all_overlaps, cull_on;
} sphere_set_q;

/* The lanes of lane_ok whose triangle (relative vertices Vr, size) the box test
   (tri_box_live) cannot reject by tb: a rejected triangle cannot hit by then. (The plane
   test as well costs the bench's near set more than it saves.) */
TOI_VINLINE vm sphere_set_live(const sphere_set_q *q, const v3 Vr[3], vf size, float tb,
                               vm lane_ok)
{
    return tri_box_live(Vr, size, q->rin, tb, q->sv[0], q->sv[1], q->sv[2], NULL, lane_ok);
}

/* The set scan's live test (set_live_fn; q a sphere_set_q). */
TOI_VINLINE vm sphere_scan_live(const void *qv, const vf Tv[9], float tb, vm lane_ok)
{
    const sphere_set_q *q = qv;
    v3 Vr[3];
    vf size = tri_relative(q->p0, q->vin, q->rin, Tv, Vr);
    return sphere_set_live(q, Vr, size, tb, lane_ok);
}

/* The set scan's packed vector (set_packed_fn; q a sphere_set_q). Out of line: the scan's
   loop stays small, and the kernel has one copy. */
static __attribute__((noinline)) void sphere_set_packed(const void *qv, const float *const ts[9],
                                                        const uint32_t *idx, size_t cnt,
                                                        float tq, set_best *sb)
{
    const sphere_set_q *q = qv;
    uint32_t g[VW];
    vf Tv[9];
    tri_set_gather(ts, idx, cnt, g, Tv);
    v3 Vr[3];
    vf size = tri_relative(q->p0, q->vin, q->rin, Tv, Vr);
    vm live = vlt(lane_ids(), vset((float)cnt));
    float tb = sb->best < 1.0f ? sb->best : 1.0f;
    if (tb < tq) {
        live = sphere_set_live(q, Vr, size, tb, live);
        if (!mbits(live))
            return;
    }
    vres r;
    vf feat = vset((float)TOI_FEATURE_NONE);
    vm hit = tri_sweep_vec(q->p0, q->vin, q->rin, Tv, Vr, size, live, q->all_overlaps,
                           q->cull_on, 0, &r, &feat);
    set_best_keep(sb, hit, r.t, g);
}

/* One sphere against every triangle (set_scan: its live test is the box test, internal.h,
   TOI_BOX_MARGIN), its winner queued (set_end). */
TOI_VINLINE size_t set_one(const toi_spheres *S, size_t i, size_t ntris, const toi_triangles *T,
                           vm all_overlaps, vm cull_on, const toi_hits *out, int full,
                           win_queue *wq)
{
    const float *const ts[9] = TOI_TRI_FIELDS(T);
    const float sx = S->x[i], sy = S->y[i], sz = S->z[i];
    const float svx = S->vx[i], svy = S->vy[i], svz = S->vz[i], sr = S->r[i];
    const sphere_set_q q = {{vset(sx), vset(sy), vset(sz)},
                            {vset(svx), vset(svy), vset(svz)},
                            vset(sr),
                            {svx, svy, svz},
                            all_overlaps,
                            cull_on};
    set_best sb;
    set_scan(&q, ts, ntris, sphere_scan_live, sphere_set_packed, &sb);
    return set_end(&sb, ts, i, wq, sphere_win_flush, S, all_overlaps, cull_on, out, full);
}

size_t TOI_FN(sweep_spheres_triangle_set)(size_t n, const toi_spheres *S, size_t ntris,
                                          const toi_triangles *T, unsigned flags,
                                          const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const vm cull_on = mconst((flags & TOI_CULL_BACKFACES) != 0);
    const int full = toi_wants_full(out);
    size_t hits = 0;
    win_queue wq = {.n = 0};
    for (size_t i = 0; i < n; i++)
        hits += set_one(S, i, ntris, T, all_overlaps, cull_on, out, full, &wq);
    sphere_win_flush(&wq, S, all_overlaps, cull_on, out, full);
    return vdone(hits);
}
