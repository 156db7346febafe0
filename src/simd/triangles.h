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

/* One sphere against every triangle: groups of VW triangles, the earliest t per lane (a lane
   keeps its first strictly earlier t, so its lowest index on ties), then the lowest index
   among the lanes' earliest. A group is skipped when the box test (internal.h,
   TOI_BOX_MARGIN) shows none of its triangles can hit before the best time so far, or when
   a hit at t = 0 is already held (nothing is earlier). The winner is then recomputed alone
   in full: the same lane operations, so the same t. */
TOI_VINLINE size_t set_one(const toi_spheres *S, size_t i, size_t ntris, const toi_triangles *T,
                           vm all_overlaps, vm cull_on, const toi_hits *out, int full)
{
    const float *const ts[9] = TOI_TRI_FIELDS(T);
    const float sx = S->x[i], sy = S->y[i], sz = S->z[i];
    const float svx = S->vx[i], svy = S->vy[i], svz = S->vz[i], sr = S->r[i];
    const v3 p0 = {vset(sx), vset(sy), vset(sz)}, vin = {vset(svx), vset(svy), vset(svz)};
    const vf rin = vset(sr);

    vf lane_best = vset(INFINITY);
    uint32_t lane_idx[VW];
    for (size_t k = 0; k < VW; k++)
        lane_idx[k] = UINT32_MAX;
    float best = INFINITY;
    for (size_t j = 0; j < ntris && best != 0.0f; j += VW) {
        size_t cnt = ntris - j < VW ? ntris - j : VW;
        vf Tv[9];
        if (cnt == VW) {
            TOI_UNROLL
            for (int k = 0; k < 9; k++)
                Tv[k] = vload(ts[k] + j);
        } else {
            for (int k = 0; k < 9; k++)
                Tv[k] = vload_n(ts[k] + j, cnt);
        }
        v3 Vr[3];
        vf size = tri_relative(p0, vin, rin, Tv, Vr);
        vm lane_ok = vlt(lane_ids(), vset((float)cnt));
        float tb = best < 1.0f ? best : 1.0f;
        vm live = tri_box_live(Vr, size, rin, tb, svx, svy, svz, NULL, lane_ok);
        if (!mbits(live))
            continue;

        vres r;
        vf feat = vset((float)TOI_FEATURE_NONE);
        vm hit = tri_sweep_vec(p0, vin, rin, Tv, Vr, size, live, all_overlaps, cull_on, 0, &r,
                               &feat);
        set_lanes_keep(mand(hit, vlt(r.t, lane_best)), r.t, j, &lane_best, lane_idx, &best);
    }

    /* the earliest, lowest index on ties */
    float bt;
    uint32_t win = set_lanes_winner(lane_best, lane_idx, &bt);
    float Tw[9] = {0};
    if (win != UINT32_MAX)
        for (int k = 0; k < 9; k++)
            Tw[k] = ts[k][win];
    return tri_store_winner(p0, vin, rin, Tw, win, bt, all_overlaps, cull_on, out, i, full);
}

size_t TOI_FN(sweep_spheres_triangle_set)(size_t n, const toi_spheres *S, size_t ntris,
                                          const toi_triangles *T, unsigned flags,
                                          const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const vm cull_on = mconst((flags & TOI_CULL_BACKFACES) != 0);
    const int full = toi_wants_full(out);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += set_one(S, i, ntris, T, all_overlaps, cull_on, out, full);
    return vdone(hits);
}
