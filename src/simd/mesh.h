/* simd/mesh.h - sphere-mesh sweep kernel body, written once over the vector layer: each
   sphere down the mesh's hierarchy, a node's children boxes VW at a time and a leaf's
   triangles as one (or, at 4 lanes, two) kernel steps. Included by src/<isa>/mesh.c after
   that backend's vec.h. The node test performs the scalar reference's operations
   (src/scalar/mesh.c) in the same order, so the visit - and the cost counters - are the
   same on every backend; the triangles are the set kernel's (simd/tri_sweep.h). */
#include "../mesh.h"
#include "tri_sweep.h"

/* The node test (mesh.h) of children [k0, k0 + VW) of nd (lanes past child 7 are off):
   returns the bit mask of the children that pass (bit k for child k0 + k) and stores their
   entry times in t_in[k0 ..]. */
TOI_VINLINE unsigned node_test(const toi_mesh_node *nd, int k0, const vm negm[3], const vf P[3],
                               const vf I[3], vf base, vf r, vf tb, float *t_in)
{
    vf L[3], H[3], e[3];
    vm nonempty = vlt(lane_ids(), vset((float)(TOI_MESH_W - k0)));
    TOI_UNROLL
    for (int a = 0; a < 3; a++) {
        vf ql = vload_u8(nd->q[a] + k0), qh = vload_u8(nd->q[3 + a] + k0);
        const vf org = vset(nd->org[a]), scl = vset(nd->scl[a]);
        nonempty = mand(nonempty, vle(ql, qh));
        L[a] = vsub(vadd(org, vmul(ql, scl)), P[a]);
        H[a] = vsub(vadd(org, vmul(qh, scl)), P[a]);
        vf al = vabs(L[a]), ah = vabs(H[a]);
        e[a] = vsel(vgt(al, ah), al, ah);
    }
    vf sn = vadd(vmul(vset(3.0f), vadd(vadd(e[0], e[1]), e[2])), base);
    vf g = vadd(r, vmul(vset(TOI_BOX_MARGIN), sn));
    vf ti = vzero(), to = tb;
    /* the near and far planes by the sign of 1 / v: selects, not branches (a new sphere's
       direction is unpredictable) */
    TOI_UNROLL
    for (int a = 0; a < 3; a++) {
        vf ta = vmul(vsub(L[a], g), I[a]), tb_ = vmul(vadd(H[a], g), I[a]);
        vf tin = vsel(negm[a], tb_, ta), tout = vsel(negm[a], ta, tb_);
        ti = vsel(vgt(tin, ti), tin, ti);
        to = vsel(vlt(tout, to), tout, to);
    }
    vstore(t_in + k0, ti);
    return mbits(mand(nonempty, vle(ti, to)));
}

TOI_VINLINE size_t mesh_one(const toi_spheres *S, size_t i, const toi_mesh *m,
                            vm all_overlaps, vm cull_on, const toi_hits *out, int full,
                            uint64_t *nv, uint64_t *np)
{
    const float sx = S->x[i], sy = S->y[i], sz = S->z[i];
    const float svx = S->vx[i], svy = S->vy[i], svz = S->vz[i], sr = S->r[i];
    const v3 p0 = {vset(sx), vset(sy), vset(sz)}, vin = {vset(svx), vset(svy), vset(svz)};
    const vf rin = vset(sr);
    float best = INFINITY;
    uint32_t win = UINT32_MAX;
    float Tw[9] = {0};
    if (toi_mesh_sphere_ok(sx, sy, sz, svx, svy, svz, sr)) {
        const toi_mesh_ray q = toi_mesh_ray_make(sx, sy, sz, svx, svy, svz, sr);
        const vm negm[3] = {mconst(q.negx), mconst(q.negy), mconst(q.negz)};
        const vf P[3] = {p0.x, p0.y, p0.z}, I[3] = {vset(q.ix), vset(q.iy), vset(q.iz)};
        const vf base = vset(q.base);
        toi_mesh_entry stack[TOI_MESH_STACK];
        float t_in[16]; /* room for a whole vector's store at lane k0 (VW <= 16) */
        toi_mesh_entry cur = {0, TOI_MESH_INNER, 0.0f};
        size_t sp = 0;
        for (;;) {
            if (cur.count == TOI_MESH_INNER) {
                const toi_mesh_node *nd = &m->nodes[cur.ref];
                toi_mesh_prefetch_children(m, nd);
                const vf tb = vset(best < 1.0f ? best : 1.0f);
                unsigned hit = 0;
                TOI_UNROLL
                for (int k0 = 0; k0 < TOI_MESH_W; k0 += VW)
                    hit |= node_test(nd, k0, negm, P, I, base, rin, tb, t_in) << k0;
                *nv += nd->nchild;
                if (toi_mesh_descend(stack, &sp, nd, hit & ((1u << TOI_MESH_W) - 1), t_in, &cur))
                    continue;
            } else {
                const uint32_t cnt = cur.count;
                *np += cnt;
                for (uint32_t j = 0; j < cnt; j += VW) {
                    vf Tv[9];
                    TOI_UNROLL
                    for (int k = 0; k < 9; k++) /* padded: whole vectors stay in bounds */
                        Tv[k] = vload(toi_mesh_row(m, cur.ref, cnt, k) + j);
                    v3 Vr[3];
                    vf size = tri_relative(p0, vin, rin, Tv, Vr);
                    vm lane_ok = vlt(lane_ids(), vset((float)(cnt - j)));
                    const float tb = best < 1.0f ? best : 1.0f;
                    vm live = tri_box_live(Vr, size, rin, tb, svx, svy, svz, lane_ok);
                    if (mbits(live))
                        live = tri_plane_live(Vr, size, rin, tb, svx, svy, svz, live);
                    if (!mbits(live))
                        continue;
                    vres r;
                    vf feat = vset((float)TOI_FEATURE_NONE);
                    unsigned bits = mbits(tri_sweep_vec(p0, vin, rin, Tv, Vr, size, live,
                                                        all_overlaps, cull_on, 0, &r, &feat));
                    if (!bits)
                        continue;
                    float tt[VW];
                    vstore(tt, r.t);
                    for (; bits; bits &= bits - 1) {
                        uint32_t k = (uint32_t)__builtin_ctz(bits);
                        uint32_t idx = toi_mesh_index(m, cur.ref, cnt, j + k);
                        if (tt[k] < best || (tt[k] == best && idx < win)) {
                            best = tt[k];
                            win = idx;
                            TOI_UNROLL
                            for (int c = 0; c < 9; c++)
                                Tw[c] = toi_mesh_row(m, cur.ref, cnt, c)[j + k];
                        }
                    }
                }
            }
            if (!toi_mesh_pop(stack, &sp, best, &cur))
                break;
        }
    }
    return tri_store_winner(p0, vin, rin, Tw, win, best, all_overlaps, cull_on, out, i, full);
}

size_t TOI_FN(sweep_spheres_mesh)(size_t n, const toi_spheres *S, const toi_mesh *m,
                                  unsigned flags, const toi_hits *out, toi_cost *cost)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const vm cull_on = mconst((flags & TOI_CULL_BACKFACES) != 0);
    const int full = toi_wants_full(out);
    uint64_t nv = 0, np = 0;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += mesh_one(S, i, m, all_overlaps, cull_on, out, full, &nv, &np);
    if (cost) {
        cost->nv += nv;
        cost->np += np;
    }
    return vdone(hits);
}
