/* simd/tri_sweep.h - the sphere-triangle sweep of VW queries at a time, written once over
   the vector layer, and what the set and mesh kernels share (the box test of a group of
   triangles, the winner's outputs). Each lane performs the scalar reference's operations
   (src/scalar/tri_sweep.h, where the method is explained) in the same order, branch-free,
   so every output bit - feature and index included - matches it. */
#ifndef TOI_SIMD_TRI_SWEEP_H
#define TOI_SIMD_TRI_SWEEP_H

#include "common.h"

#define T_SET_NOUT 8 /* t nx ny nz px py pz depth */

typedef struct v3 {
    vf x, y, z;
} v3;

TOI_VINLINE v3 v3sub(v3 a, v3 b) { return (v3){vsub(a.x, b.x), vsub(a.y, b.y), vsub(a.z, b.z)}; }
TOI_VINLINE v3 v3scale(vf k, v3 a) { return (v3){vmul(k, a.x), vmul(k, a.y), vmul(k, a.z)}; }
TOI_VINLINE v3 v3neg(v3 a) { return (v3){vneg(a.x), vneg(a.y), vneg(a.z)}; }
TOI_VINLINE v3 v3sel(vm m, v3 a, v3 b)
{
    return (v3){vsel(m, a.x, b.x), vsel(m, a.y, b.y), vsel(m, a.z, b.z)};
}
TOI_VINLINE vf v3dot(v3 a, v3 b) /* (ax bx + ay by) + az bz */
{
    return vadd(vadd(vmul(a.x, b.x), vmul(a.y, b.y)), vmul(a.z, b.z));
}
TOI_VINLINE v3 v3cross(v3 a, v3 b)
{
    return (v3){vsub(vmul(a.y, b.z), vmul(a.z, b.y)), vsub(vmul(a.z, b.x), vmul(a.x, b.z)),
                vsub(vmul(a.x, b.y), vmul(a.y, b.x))};
}

/* (X - V[k]).m[k] >= 0 and (X - V[k + 1]).m[k] >= 0 for the three edges: each half-plane
   judged from both of its edge's endpoints (the scalar's inside()) */
TOI_VINLINE vm tri_inside(v3 X, const v3 V[3], const v3 m[3])
{
    vm in = mconst(1);
    TOI_UNROLL
    for (int k = 0; k < 3; k++) {
        in = mand(in, vge(v3dot(v3sub(X, V[k]), m[k]), vzero()));
        in = mand(in, vge(v3dot(v3sub(X, V[(k + 1) % 3]), m[k]), vzero()));
    }
    return in;
}

/* The lanes of X projecting outside each edge's wall: out[k] unless (X - V[k]).m[k] >= 0 and
   (X - V[k + 1]).m[k] >= 0 (tri_inside's sides); returns the lanes inside all three. */
TOI_VINLINE vm tri_walls_out(v3 X, const v3 V[3], const v3 m[3], vm out[3])
{
    TOI_UNROLL
    for (int k = 0; k < 3; k++) {
        vm in = mand(vge(v3dot(v3sub(X, V[k]), m[k]), vzero()),
                     vge(v3dot(v3sub(X, V[(k + 1) % 3]), m[k]), vzero()));
        out[k] = mandnot(mconst(1), in);
    }
    return mandnot(mconst(1), mor(mor(out[0], out[1]), out[2]));
}

/* The face entered through a wall (the scalar's wall_time, where the rule is explained): the
   slab entry at t outside exactly one wall k, crossed (judged from both of its endpoints) at
   max(V[k].m[k], V[k + 1].m[k]) / v.m[k] within the slab, the foot projecting within edge k. */
TOI_VINLINE vf tri_wall_time(v3 v, vf t, vf ad, vf adv, vf r, const v3 V[3], const v3 E[3],
                             const vf ee[3], const v3 m[3], const vm out[3])
{
    const vf zero = vzero();
    v3 mk = v3sel(out[0], m[0], v3sel(out[1], m[1], m[2]));
    v3 Vk = v3sel(out[0], V[0], v3sel(out[1], V[1], V[2]));
    v3 Vk1 = v3sel(out[0], V[1], v3sel(out[1], V[2], V[0]));
    v3 Ek = v3sel(out[0], E[0], v3sel(out[1], E[1], E[2]));
    vf eek = vsel(out[0], ee[0], vsel(out[1], ee[1], ee[2]));
    vf vm_ = v3dot(v, mk);
    vf s0 = v3dot(Vk, mk), s1 = v3dot(Vk1, mk);
    vf tk = vdiv(vsel(vgt(s0, s1), s0, s1), vm_);
    vf tw = vsel(vgt(tk, t), tk, t);
    v3 P = {vmul(v.x, tw), vmul(v.y, tw), vmul(v.z, tw)};
    vf sn = v3dot(v3sub(P, Vk), Ek);
    vm two = mor(mor(mand(out[0], out[1]), mand(out[1], out[2])), mand(out[0], out[2]));
    vm one = mandnot(mor(mor(out[0], out[1]), out[2]), two);
    vm ok = mand(mand(one, vgt(vm_, zero)), vle(tw, vset(1.0f)));
    ok = mand(ok, vge(vadd(ad, vmul(tw, adv)), vneg(r)));
    ok = mand(ok, mand(vge(sn, zero), vle(sn, eek)));
    return vsel(ok, tw, vset(INFINITY));
}

/* The triangle's point nearest X per lane (*q, its squared distance *best, its feature as
   a float *kind), by the region of the Voronoi partition X lies in (the scalar's
   nearest_point, where the rule is explained). */
TOI_VINLINE void tri_nearest(v3 X, const v3 V[3], const v3 E[3], const v3 m[3], const vf ee[3],
                             vm face_in, vf st, v3 n, v3 *q, vf *best, vf *kind)
{
    const vf zero = vzero(), one = vset(1.0f);
    v3 qk[3];
    vf d2[3], kk[3];
    vm out[3], unc[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++) {
        const v3 V0 = V[k], e = E[k];
        vf sn = v3dot(v3sub(X, V0), e);
        vf sk = vsel(vgt(sn, zero), vsel(vlt(sn, ee[k]), vdiv(sn, ee[k]), one), zero);
        qk[k] = (v3){vadd(V0.x, vmul(sk, e.x)), vadd(V0.y, vmul(sk, e.y)),
                     vadd(V0.z, vmul(sk, e.z))};
        v3 d = v3sub(X, qk[k]);
        d2[k] = v3dot(d, d);
        kk[k] = vsel(veq(sk, zero), vset((float)(TOI_FEATURE_VERTEX_A + k)),
                     vsel(veq(sk, one), vset((float)(TOI_FEATURE_VERTEX_A + (k + 1) % 3)),
                          vset((float)(TOI_FEATURE_EDGE_AB + k))));
        out[k] = mor(vle(v3dot(v3sub(X, V0), m[k]), zero),
                     vle(v3dot(v3sub(X, V[(k + 1) % 3]), m[k]), zero));
        unc[k] = mand(vgt(sn, zero), vlt(sn, ee[k]));
    }
    vm any_unc = mor(mor(mand(out[0], unc[0]), mand(out[1], unc[1])), mand(out[2], unc[2]));
    vm l0 = mand(vge(ee[0], ee[1]), vge(ee[0], ee[2]));
    vm l1 = mandnot(vge(ee[1], ee[2]), l0);
    const vm longest[3] = {l0, l1, mandnot(mandnot(mconst(1), l0), l1)};
    *best = vset(INFINITY);
    *kind = vset((float)TOI_FEATURE_FACE);
    *q = X;
    TOI_UNROLL
    for (int k = 0; k < 3; k++) {
        vm with_face = mand(out[k], mor(unc[k], mandnot(mconst(1), any_unc)));
        vm cand = mor(mand(face_in, with_face), mandnot(longest[k], face_in));
        vm upd = mand(cand, vlt(d2[k], *best));
        *best = vsel(upd, d2[k], *best);
        *q = v3sel(upd, qk[k], *q);
        *kind = vsel(upd, kk[k], *kind);
    }
    vm face = mandnot(face_in, mor(mor(out[0], out[1]), out[2]));
    *best = vsel(face, vmul(st, st), *best);
    v3 qf = {vsub(X.x, vmul(n.x, st)), vsub(X.y, vmul(n.y, st)), vsub(X.z, vmul(n.z, st))};
    *q = v3sel(face, qf, *q);
    *kind = vsel(face, vset((float)TOI_FEATURE_FACE), *kind);
}

/* A vertex's ball (the scalar's vertex_time): its candidate time, +Inf when not entered in
   (0, 1]; *overlap gains the lanes whose start touches it. */
TOI_VINLINE vf tri_vertex_time(v3 P, v3 v, vf a, vf rr, vm *overlap)
{
    const vf zero = vzero();
    vf b = v3dot(P, v);
    vf c = vsub(v3dot(P, P), rr);
    v3 cr = v3cross(P, v);
    vf disc = vsub(vmul(a, rr), v3dot(cr, cr));
    vf t = vdiv(c, vadd(vsqrt(disc), b));
    vm ok = mand(mand(vgt(c, zero), vgt(b, zero)), mand(vge(disc, zero), vle(t, vset(1.0f))));
    *overlap = mor(*overlap, vle(c, zero));
    return vsel(ok, t, vset(INFINITY));
}

/* The cylinder around the segment V0 + s e, met in the plane across it (the scalar's
   cylinder_entry, where the method is explained): its entry time, +Inf when not entered in
   [.., 1]; *cp = c, *pep = V0.e. */
/* The plane across the cylinder (the scalar's cylinder_frame). */
typedef struct vcyl_frame {
    vf pe, ve, aw, b, c, disc;
} vcyl_frame;

TOI_VINLINE vcyl_frame tri_cyl_frame(v3 V0, v3 e, vf ee, v3 v, vf rr)
{
    vcyl_frame f;
    f.pe = v3dot(V0, e), f.ve = v3dot(v, e);
    vf k = vdiv(vset(1.0f), ee);
    v3 P = v3sub(V0, v3scale(vmul(f.pe, k), e)), w = v3sub(v, v3scale(vmul(f.ve, k), e));
    f.aw = v3dot(w, w);
    f.b = v3dot(P, w);
    f.c = vsub(v3dot(P, P), rr);
    v3 cr = v3cross(P, w);
    f.disc = vsub(vmul(f.aw, rr), v3dot(cr, cr));
    return f;
}

TOI_VINLINE vf tri_cyl_entry(v3 V0, v3 e, vf ee, v3 v, vf rr, vf *cp, vf *pep)
{
    const vf zero = vzero();
    vm edge_ok = vge(ee, vset(TOI_MIN_DIR2));
    const vcyl_frame f = tri_cyl_frame(V0, e, ee, v, rr);
    const vf pe = f.pe, ve = f.ve, aw = f.aw, b = f.b, c = f.c, disc = f.disc;
    vf q = vadd(vsqrt(disc), b);
    vf t1 = vdiv(c, q);
    vf sn1 = vsub(vmul(t1, ve), pe);
    vm lo = vlt(sn1, zero), hi = vgt(sn1, ee);
    vm beyond = mor(lo, hi);
    vm end = mor(mand(lo, vgt(ve, zero)), mand(hi, vlt(ve, zero)));
    vf tend = vdiv(vsel(lo, pe, vadd(pe, ee)), ve);
    vf t = vsel(beyond, tend, t1);
    vm in = mand(vge(sn1, zero), vle(sn1, ee)); /* the scalar's: false for a NaN sn1 */
    vm within = mor(in, mand(end, vle(vmul(t, aw), q)));
    *cp = c;
    *pep = pe;
    vm ok = mand(mand(edge_ok, vgt(b, zero)),
                 mand(mand(vge(disc, zero), vle(t, vset(1.0f))), within));
    return vsel(ok, t, vset(INFINITY));
}

/* An edge of the sweep (the scalar's edge_entry; also the capsule sweeps' end balls'): the
   cylinder entered from outside; *overlap gains the lanes whose start touches the segment. */
TOI_VINLINE vf tri_edge_entry(v3 V0, v3 e, vf ee, v3 v, vf rr, vm *overlap)
{
    const vf zero = vzero();
    vf c, pe;
    vf t = tri_cyl_entry(V0, e, ee, v, rr, &c, &pe);
    vm edge_ok = vge(ee, vset(TOI_MIN_DIR2));
    vf sn0 = vneg(pe);
    *overlap = mor(*overlap, mand(mand(edge_ok, vle(c, zero)), mand(vge(sn0, zero), vle(sn0, ee))));
    return vsel(vgt(c, zero), t, vset(INFINITY));
}

/* One query per lane. p0, vin, rin: the sphere (world units); T: the triangle (world
   units, a b c); Vr: the vertices relative to
   its start centre; size: the scalar's size of that relative geometry; lane_ok: lanes to
   compute at all. want: 0 for t alone, 1 for t and the feature, 2 for every output. Sets o->t
   (and the rest when want = 2) and, when want >= 1, *feat (the feature as a float,
   TOI_FEATURE_NONE on a miss); returns the hit mask. */
TOI_VINLINE vm tri_sweep_vec(const v3 p0, const v3 vin, vf rin, const vf T[9], const v3 Vr[3],
                             vf size,
                             vm lane_ok, vm all_overlaps, vm cull_on, int want, vres *o,
                             vf *feat)
{
    const vf zero = vzero(), one = vset(1.0f), inf = vset(INFINITY);
    const vf min_dir2 = vset(TOI_MIN_DIR2);
    vm valid = mand(lane_ok, mand(vlt(size, vset(TOI_MAX_SUM)), vge(rin, zero)));
    vf s = vpow2_scale(size); /* exact rescale to size ~1 */
    v3 V[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        V[k] = v3scale(s, Vr[k]);
    /* v * s and r * s, the operand order of the scalar (multiplication commutes exactly) */
    v3 v = v3scale(s, vin);
    vf r = vmul(rin, s);
    if (vany_sub(size)) {
        vf s2 = vpow2_scale_sub(size, s);
        TOI_UNROLL
        for (int k = 0; k < 3; k++)
            V[k] = v3scale(s2, V[k]);
        v = v3scale(s2, v), r = vmul(r, s2);
    }
    vf rr = vmul(r, r);
    vf a = v3dot(v, v);

    if (mbits(cull_on)) { /* culled: the world triangle's N.v >= 0 */
        vf Nw[3];
        vtri_normal(T, T + 3, T + 6, s, Nw);
        const v3 Nc = {Nw[0], Nw[1], Nw[2]};
        valid = mand(valid, vlt(v3dot(Nc, v), zero));
    }

    v3 E[3] = {v3sub(V[1], V[0]), v3sub(V[2], V[1]), v3sub(V[0], V[2])};
    /* the face normal E[0] x -E[2] of the float edges, as the scalar's */
    vf Nf[3];
    {
        const vf Z[3] = {zero, zero, zero}, Eb[3] = {E[0].x, E[0].y, E[0].z},
                 Ec[3] = {vneg(E[2].x), vneg(E[2].y), vneg(E[2].z)};
        vtri_normal(Z, Eb, Ec, one, Nf);
    }
    v3 N = {Nf[0], Nf[1], Nf[2]};
    vf NN = v3dot(N, N);
    vf ee[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        ee[k] = v3dot(E[k], E[k]);
    vf eemax = vsel(vgt(ee[0], ee[1]), ee[0], ee[1]);
    eemax = vsel(vgt(ee[2], eemax), ee[2], eemax);

    /* face_ok: a normal; face_in: a face tested (not a sliver, internal.h TOI_THIN_FACE) */
    vm face_ok = vge(NN, min_dir2);
    vf lenN = vsqrt(NN);
    vm face_in = mand(face_ok, vge(lenN, vmul(vset(TOI_THIN_FACE), eemax)));
    vf ninv = vdiv(one, lenN);
    v3 n = {vmul(N.x, ninv), vmul(N.y, ninv), vmul(N.z, ninv)};
    vf s0 = vneg(v3dot(V[0], n));
    vf dv = v3dot(v, n);
    vm pos = vge(s0, zero);
    vf ad = vabs(s0);
    vf adv = vsel(pos, dv, vneg(dv));
    v3 m[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        m[k] = v3cross(N, E[k]);
    const v3 O = {zero, zero, zero};
    /* the start over the face within r: only such lanes need the inside test at t = 0 (a
       branch on the whole vector: most queries start away from the triangle) */
    vm face_near = mand(face_in, vle(ad, r));
    vm in0 = mconst(0);
    if (mbits(mand(face_near, valid)))
        in0 = tri_inside(O, V, m);

    vf tc[7];
    vm overlap = mconst(0);
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        tc[k] = tri_vertex_time(V[k], v, a, rr, &overlap);
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        tc[3 + k] = tri_edge_entry(V[k], E[k], ee[k], v, rr, &overlap);
    {
        vf t = vdiv(vsub(r, ad), adv);
        v3 P = {vmul(t, v.x), vmul(t, v.y), vmul(t, v.z)};
        vm out[3];
        vm in = tri_walls_out(P, V, m, out);
        vm ok = mand(mand(face_in, vgt(ad, r)), mand(vlt(adv, zero), vle(t, one)));
        vf tw = inf; /* through a wall: computed when some lane needs it */
        if (mbits(mandnot(mand(ok, valid), in)))
            tw = tri_wall_time(v, t, ad, adv, r, V, E, ee, m, out);
        tc[6] = vsel(ok, vsel(in, t, tw), inf);
        overlap = mor(overlap, mand(face_near, in0));
    }

    /* Touching at t = 0: the closest point q0, whether the sphere approaches (computed when
       some lane touches) */
    const v3 E3[3] = {E[0], E[1], E[2]};
    vf best;
    v3 q;
    vf kind;
    vm approach = mconst(0);
    if (mbits(mand(overlap, valid))) {
        tri_nearest(O, V, E3, m, ee, face_in, vadd(s0, vmul(zero, dv)), n, &q, &best, &kind);
        approach = mand(vge(best, min_dir2), vgt(v3dot(q, v), zero));
    }
    vm hit_ov = mand(overlap, mor(approach, all_overlaps));

    /* Not touching: the earliest piece entered. */
    vf tsep = tc[0];
    TOI_UNROLL
    for (int k = 1; k < 7; k++)
        tsep = vsel(vlt(tc[k], tsep), tc[k], tsep);
    vm hit_sep = mandnot(vle(tsep, one), overlap);
    vm hit = mand(valid, mor(hit_ov, hit_sep));
    vf t = vsel(overlap, zero, tsep);
    o->t = vsel(hit, t, inf);
    if (!want)
        return hit;

    /* Every other output describes the centre X at t (for the lanes touching at t = 0 the
       same values again), whichever piece gave t. */
    v3 X = {vmul(t, v.x), vmul(t, v.y), vmul(t, v.z)};
    X = v3sel(overlap, O, X);
    vf st = vadd(s0, vmul(t, dv));
    tri_nearest(X, V, E3, m, ee, face_in, st, n, &q, &best, &kind);
    *feat = vsel(hit, kind, vset((float)TOI_FEATURE_NONE));
    if (want < 2)
        return hit;

    vf inv_s = vdiv(one, s);
    vf dep = vsub(r, vsqrt(best));
    v3 dir = v3sub(X, q);
    if (vany_sub(size)) { /* the second factor of the rescale, undone first */
        vf inv_s2 = vpow2_unscale_sub(size);
        dep = vmul(dep, inv_s2), q = v3scale(inv_s2, q);
    }
    /* normal: the face's unit normal on the centre's side; else q toward the centre; else
       (the centre on the triangle) the face normal against the motion; else +x */
    vm back = vgt(dv, zero);
    v3 nb = v3sel(back, v3neg(n), n);
    v3 nrm = v3sel(face_ok, nb, (v3){vset(TOI_FALLBACK_NX), vset(TOI_FALLBACK_NY),
                                     vset(TOI_FALLBACK_NZ)});
    vf inv = vdiv(one, vsqrt(best));
    nrm = v3sel(vge(best, min_dir2),
                (v3){vmul(dir.x, inv), vmul(dir.y, inv), vmul(dir.z, inv)}, nrm);
    vm face = mand(veq(kind, zero), mor(vgt(st, zero), vlt(st, zero)));
    nrm = v3sel(face, v3sel(vgt(st, zero), n, v3neg(n)), nrm);
    o->nx = vsel(hit, nrm.x, zero);
    o->ny = vsel(hit, nrm.y, zero);
    o->nz = vsel(hit, nrm.z, zero);
    o->px = vsel(hit, vadd(p0.x, vmul(q.x, inv_s)), zero);
    o->py = vsel(hit, vadd(p0.y, vmul(q.y, inv_s)), zero);
    o->pz = vsel(hit, vadd(p0.z, vmul(q.z, inv_s)), zero);
    vf depth = vmul(dep, inv_s);
    depth = vsel(vgt(depth, zero), depth, zero);
    o->depth = vsel(mand(hit, overlap), depth, zero);
    return hit;
}

/* The relative vertices and the scalar's size of one query per lane. */
TOI_VINLINE vf tri_relative(const v3 p0, const v3 vin, vf rin, const vf T[9], v3 Vr[3])
{
    vf sz[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++) {
        Vr[k] = (v3){vsub(T[3 * k], p0.x), vsub(T[3 * k + 1], p0.y), vsub(T[3 * k + 2], p0.z)};
        sz[k] = vadd(vadd(vabs(Vr[k].x), vabs(Vr[k].y)), vabs(Vr[k].z));
    }
    vf size = vadd(vadd(sz[0], sz[1]), sz[2]);
    size = vadd(size, vadd(vadd(vabs(vin.x), vabs(vin.y)), vabs(vin.z)));
    return vadd(size, rin);
}

/* Store the feature lanes [0, cnt) as bytes. */
TOI_VINLINE void store_feature(uint8_t *p, vf feat, size_t cnt)
{
    float tmp[VW];
    vstore(tmp, feat);
    for (size_t k = 0; k < cnt; k++)
        p[k] = (uint8_t)tmp[k];
}

/* compare-and-select minimum and maximum (NaN lanes are never rejected by the box test
   below: they are computed, and invalid) */
TOI_VINLINE vf vmin_sel(vf a, vf b) { return vsel(vlt(a, b), a, b); }
TOI_VINLINE vf vmax_sel(vf a, vf b) { return vsel(vgt(a, b), a, b); }

/* The times t of the lanes of hit stored in tt (when there are any); returns their bits. */
TOI_VINLINE unsigned hit_lanes(vm hit, vf t, float tt[VW])
{
    const unsigned bits = mbits(hit);
    if (bits)
        vstore(tt, t);
    return bits;
}

/* The lane numbers 0, 1, ..., VW - 1. */
TOI_VINLINE vf lane_ids(void)
{
    static const float ids[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    return vload(ids);
}

/* The lanes of lane_ok whose triangle (relative vertices Vr, size) the box test cannot
   reject: its box against the box of the path over [0, tb], grown by r + TOI_BOX_MARGIN *
   size (internal.h: a rejected triangle cannot hit at a time <= tb). (sv: the displacement
   in world units.) e: a capsule's segment p1 - p0 (world units), whose path's box is the
   centre's stretched by it and whose size includes |e|_1; NULL for a sphere. */
TOI_VINLINE vm tri_box_live(const v3 Vr[3], vf size, vf rin, float tb, float svx, float svy,
                            float svz, const float *e, vm lane_ok)
{
    const vf zero = vzero();
    const float pv[3] = {tb * svx, tb * svy, tb * svz};
    const vf pvv[3] = {vset(pv[0]), vset(pv[1]), vset(pv[2])};
    vf grow = vadd(rin, vmul(vset(TOI_BOX_MARGIN), size));
    const vf cx[3][3] = {{Vr[0].x, Vr[1].x, Vr[2].x}, {Vr[0].y, Vr[1].y, Vr[2].y},
                         {Vr[0].z, Vr[1].z, Vr[2].z}};
    vm far = mconst(0);
    TOI_UNROLL
    for (int d = 0; d < 3; d++) {
        vf tmin = vmin_sel(vmin_sel(cx[d][0], cx[d][1]), cx[d][2]);
        vf tmax = vmax_sel(vmax_sel(cx[d][0], cx[d][1]), cx[d][2]);
        vf lo = vmin_sel(zero, pvv[d]), hi = vmax_sel(zero, pvv[d]);
        if (e) {
            const vf ed = vset(e[d]);
            lo = vadd(lo, vmin_sel(zero, ed));
            hi = vadd(hi, vmax_sel(zero, ed));
        }
        lo = vsub(lo, grow);
        hi = vadd(hi, grow);
        far = mor(far, mor(vgt(tmin, hi), vlt(tmax, lo)));
    }
    return mandnot(lane_ok, far);
}

/* The lanes of `live` whose triangle (relative vertices Vr, size) is not apart from the
   path over [0, tb] along the direction d = (V1 - V0) x (V2 - V0) of the float vertices
   rescaled like the kernel's (size ~1, so no square over- or underflows): the triangle's and
   the path's projections onto d more than (r + TOI_BOX_MARGIN size) |d| apart (the scalar
   reference's separation reject along the face normal; any direction separates, so the
   float cross product serves, and the projections' rounding, a few FLT_EPSILON |d| in these
   units, is far inside the margin). A d shorter than TOI_MIN_DIR2 (a degenerate triangle,
   whose products would lose that precision) keeps its lane, as does anything non-finite.
   e: as for tri_box_live (the segment's projection stretches the path's). */
TOI_VINLINE vm tri_plane_live(const v3 Vr[3], vf size, vf rin, float tb, float svx, float svy,
                              float svz, const float *e, vm live)
{
    const vf zero = vzero();
    vf s = vpow2_scale(size);
    v3 V[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        V[k] = v3scale(s, Vr[k]);
    v3 d = v3cross(v3sub(V[1], V[0]), v3sub(V[2], V[0]));
    vf h0 = v3dot(V[0], d), h1 = v3dot(V[1], d), h2 = v3dot(V[2], d);
    const v3 pv = v3scale(s, (v3){vset(tb * svx), vset(tb * svy), vset(tb * svz)});
    vf hp = v3dot(pv, d);
    vf lo = vmin_sel(vmin_sel(h0, h1), h2), hi = vmax_sel(vmax_sel(h0, h1), h2);
    vf dd = v3dot(d, d);
    vf g = vmul(vmul(vadd(rin, vmul(vset(TOI_BOX_MARGIN), size)), s), vsqrt(dd));
    vf plo = vmin_sel(zero, hp), phi = vmax_sel(zero, hp);
    if (e) {
        vf he = v3dot(v3scale(s, (v3){vset(e[0]), vset(e[1]), vset(e[2])}), d);
        plo = vadd(plo, vmin_sel(zero, he));
        phi = vadd(phi, vmax_sel(zero, he));
    }
    vf above = vsub(lo, phi), below = vsub(plo, hi);
    vm apart = mand(vge(dd, vset(TOI_MIN_DIR2)), mor(vgt(above, g), vgt(below, g)));
    return mandnot(live, apart);
}

/* A set scan's triangles [j, j + cnt) of the nine streams ts: a whole vector loaded whole
   (unrolled; nine vload_n calls each testing cnt stayed a loop), the tail through vload_n. */
TOI_VINLINE void tri_set_load(const float *const ts[9], size_t j, size_t cnt, vf Tv[9])
{
    if (cnt == VW) {
        TOI_UNROLL
        for (int k = 0; k < 9; k++)
            Tv[k] = vload(ts[k] + j);
    } else {
        for (int k = 0; k < 9; k++)
            Tv[k] = vload_n(ts[k] + j, cnt);
    }
}

/* A packed vector's triangles idx[0 .. cnt) of the streams ts, gathered (lanes past cnt
   repeat idx[0]); g, the lanes' indices. */
TOI_VINLINE void tri_set_gather(const float *const ts[9], const uint32_t *idx, size_t cnt,
                                uint32_t g[VW], vf Tv[9])
{
    for (size_t k = 0; k < VW; k++)
        g[k] = idx[k < cnt ? k : 0];
    for (int k = 0; k < 9; k++)
        Tv[k] = vgather(ts[k], g);
}

/* A set scan's winner so far (the sphere and capsule set scans): each lane's earliest t and
   its triangle's index, and the earliest of all. */
typedef struct set_best {
    vf lane_best;
    uint32_t lane_idx[VW];
    float best;
} set_best;

TOI_VINLINE void set_best_init(set_best *sb)
{
    sb->lane_best = vset(INFINITY);
    for (size_t k = 0; k < VW; k++)
        sb->lane_idx[k] = UINT32_MAX;
    sb->best = INFINITY;
}

/* Lanes hit (t, triangles g[lane]): each lane keeps its first strictly earlier t with its
   index, so the lowest index on ties when a lane meets its triangles in increasing index. */
TOI_VINLINE void set_best_keep(set_best *sb, vm hit, vf t, const uint32_t g[VW])
{
    vm upd = mand(hit, vlt(t, sb->lane_best));
    unsigned bits = mbits(upd);
    if (!bits)
        return;
    sb->lane_best = vsel(upd, t, sb->lane_best);
    for (size_t k = 0; k < VW; k++)
        if (bits >> k & 1)
            sb->lane_idx[k] = g[k];
    float lb[VW];
    vstore(lb, sb->lane_best);
    for (size_t k = 0; k < VW; k++)
        sb->best = lb[k] < sb->best ? lb[k] : sb->best;
}

/* The earliest of the lanes, the lowest index on ties (*bt its time); UINT32_MAX for none. */
TOI_VINLINE uint32_t set_lanes_winner(vf lane_best, const uint32_t lane_idx[VW], float *bt)
{
    float lb[VW];
    vstore(lb, lane_best);
    uint32_t win = UINT32_MAX;
    *bt = INFINITY;
    for (size_t k = 0; k < VW; k++)
        if (lb[k] < *bt || (lb[k] == *bt && lane_idx[k] < win)) {
            *bt = lb[k];
            win = lane_idx[k];
        }
    return *bt == INFINITY ? UINT32_MAX : win;
}

/* Finished set and mesh queries whose winners are recomputed for the outputs beyond t VW
   at a time: entry k is query q[k], its winner win[k] and that triangle's coordinates
   tri[.][k]. A winner recomputed alone took a whole vector's latency for one lane (on the
   mesh bench, all outputs cost a third more than t alone); VW of them share one. Each lane
   is its own query's operations, so the outputs are the ones a lone recompute gave, t
   included. (Output arrays never overlap inputs, toi.h: storing a query's outputs a few
   queries later reads nothing they change. A kernel call has at most TOI_RUN queries, api.c:
   q holds their indices in 32 bits.) */
typedef struct win_queue {
    uint32_t q[VW], win[VW];
    float tri[9][VW];
    size_t n;
} win_queue;

/* A query's recompute of a queue: its inputs in (toi_spheres, toi_capsules), the flags,
   the outputs. */
typedef void (*win_flush_fn)(win_queue *w, const void *in, vm all_overlaps, vm cull_on,
                             const toi_hits *out, int full);

/* Query i's outputs from its winner win (time bt; UINT32_MAX: none): stored now when it
   missed or only t is wanted (t = bt), else queued; returns 1 when the queue is full then
   (the caller recomputes it, win_queue_load and win_queue_store). */
TOI_VINLINE int win_queue_add(win_queue *w, const toi_hits *out, size_t i, uint32_t win,
                              float bt, const float Tw[9], int full)
{
    if (win != UINT32_MAX && (full || out->feature)) {
        const size_t n = w->n++;
        w->q[n] = (uint32_t)i;
        w->win[n] = win;
        for (int k = 0; k < 9; k++)
            w->tri[k][n] = Tw[k];
        return w->n == VW;
    }
    out->t[i] = win != UINT32_MAX ? bt : TOI_NO_HIT;
    if (full) {
        float *const dst[7] = {out->nx, out->ny, out->nz, out->px, out->py, out->pz, out->depth};
        for (int k = 0; k < 7; k++)
            if (dst[k])
                dst[k][i] = 0.0f;
    }
    if (out->feature)
        out->feature[i] = TOI_FEATURE_NONE;
    if (out->index)
        out->index[i] = win;
    return 0;
}

/* The queue's triangles, and its query indices for gathering their inputs, with the unused
   lanes copies of entry 0 (so every lane computes a real query: no lane reads beyond the
   queue, and the whole vector runs as a lone recompute's did). */
TOI_VINLINE void win_queue_load(win_queue *w, vf Tv[9])
{
    for (size_t k = w->n; k < VW; k++) {
        w->q[k] = w->q[0];
        for (int c = 0; c < 9; c++)
            w->tri[c][k] = w->tri[c][0];
    }
    for (int c = 0; c < 9; c++)
        Tv[c] = vload(w->tri[c]);
}

/* The queue's recomputed outputs r and feature stored at their queries; the queue empties. */
TOI_VINLINE void win_queue_store(win_queue *w, const toi_hits *out, const vres *r, vf feat,
                                 int full)
{
    float res[T_SET_NOUT][VW], ft[VW];
    const vf *src[T_SET_NOUT] = {&r->t, &r->nx, &r->ny, &r->nz, &r->px, &r->py, &r->pz,
                                 &r->depth};
    for (int c = 0; c < (full ? T_SET_NOUT : 1); c++)
        vstore(res[c], *src[c]);
    vstore(ft, feat);
    float *const dst[T_SET_NOUT] = {out->t,  out->nx, out->ny, out->nz,
                                    out->px, out->py, out->pz, out->depth};
    for (size_t k = 0; k < w->n; k++) {
        const size_t i = w->q[k];
        out->t[i] = res[0][k];
        if (full)
            for (int c = 1; c < T_SET_NOUT; c++)
                if (dst[c])
                    dst[c][i] = res[c][k];
        if (out->feature)
            out->feature[i] = (uint8_t)ft[k];
        if (out->index)
            out->index[i] = w->win[k];
    }
    w->n = 0;
}

/* Query i's winner offered to the queue (win_queue_add), and the queue recomputed by flush
   (its queries' inputs in) when that fills it; returns 1 for a hit. */
TOI_VINLINE size_t win_queue_offer(win_queue *w, win_flush_fn flush, const void *in, size_t i,
                                   uint32_t win, float bt, const float Tw[9], vm all_overlaps,
                                   vm cull_on, const toi_hits *out, int full)
{
    if (win_queue_add(w, out, i, win, bt, Tw, full))
        flush(w, in, all_overlaps, cull_on, out, full);
    return win != UINT32_MAX;
}

/* A set query's two steps (its query q, the caller's): which of VW triangles Tv (lanes
   lane_ok) its cheap tests cannot reject by the best time tb (a rejected triangle cannot hit
   by then), and its kernel on a packed vector of triangles idx[0 .. cnt) (increasing) kept by
   the best time tq (the loosest of those times): tested again when the best time is now
   earlier, each lane keeping its first strictly earlier t with its index (set_best_keep). */
typedef vm (*set_live_fn)(const void *q, const vf Tv[9], float tb, vm lane_ok);
typedef void (*set_packed_fn)(const void *q, const float *const ts[9], const uint32_t *idx,
                              size_t cnt, float tq, set_best *sb);

/* One query against every triangle of a set (the scalar's set scan), its lanes' earliest hits
   in *sb: VW triangles at a time against the query broadcast, the ones live cannot reject by
   the best time so far queued in increasing index, and the kernel (packed) run on VW queued
   triangles at a time (whole vectors of them, not one or two live lanes a vector). Each lane
   keeps its first strictly earlier t, so the lowest index on ties (its triangles come in
   increasing index), then set_end takes the lowest index among the lanes' earliest. The scan
   stops once a hit at t = 0 is held: every triangle left, queued or not, has a higher index.
   No triangle that can hit by the best time is dropped, and each lane's t is its own query's,
   so the winner is the scalar's. This part runs the whole vectors and returns how many queued
   triangles are left (fewer than VW, in queue[0 ..) with their times of test in qtb; 0 once a
   hit at t = 0 is held); set_scan runs them as one more vector, the capsule set shares them
   with the next capsules' (simd/capsules.h, cap_tail). */
TOI_VINLINE size_t set_scan_whole(const void *q, const float *const ts[9], size_t ntris,
                                  set_live_fn live, set_packed_fn packed, set_best *sb,
                                  uint32_t queue[2 * VW], float qtb[2 * VW])
{
    set_best_init(sb);
    /* the queue (fewer than VW left after each packed vector, VW more a scan) and each
       entry's time of test, the earliest entries' the loosest */
    size_t nq = 0, j = 0;
    while (j < ntris && sb->best != 0.0f) {
        /* the scan until a vector is queued, by one best time (the tests' terms in it are
           then computed once) */
        const float tb = sb->best < 1.0f ? sb->best : 1.0f;
        for (; j < ntris && nq < VW; j += VW) {
            size_t cnt = ntris - j < VW ? ntris - j : VW;
            vf Tv[9];
            tri_set_load(ts, j, cnt, Tv);
            vm lane_ok = vlt(lane_ids(), vset((float)cnt));
            for (unsigned bits = mbits(live(q, Tv, tb, lane_ok)); bits; bits &= bits - 1) {
                qtb[nq] = tb;
                queue[nq++] = (uint32_t)(j + (size_t)__builtin_ctz(bits));
            }
        }
        if (nq < VW)
            break;
        packed(q, ts, queue, VW, qtb[0], sb);
        nq -= VW;
        for (size_t k = 0; k < nq; k++) {
            queue[k] = queue[VW + k];
            qtb[k] = qtb[VW + k];
        }
    }
    return sb->best != 0.0f ? nq : 0;
}

/* The scan (set_scan_whole) and its queued triangles left, as one vector. */
TOI_VINLINE void set_scan(const void *q, const float *const ts[9], size_t ntris,
                          set_live_fn live, set_packed_fn packed, set_best *sb)
{
    uint32_t queue[2 * VW];
    float qtb[2 * VW];
    size_t nq = set_scan_whole(q, ts, ntris, live, packed, sb, queue, qtb);
    if (nq)
        packed(q, ts, queue, nq, qtb[0], sb);
}

/* Set query i's winner win (time bt; UINT32_MAX: none) offered to the queue wq; returns 1 for
   a hit. */
TOI_VINLINE size_t set_offer(uint32_t win, float bt, const float *const ts[9], size_t i,
                             win_queue *wq, win_flush_fn flush, const void *in,
                             vm all_overlaps, vm cull_on, const toi_hits *out, int full)
{
    float Tw[9] = {0};
    if (win != UINT32_MAX)
        for (int k = 0; k < 9; k++)
            Tw[k] = ts[k][win];
    return win_queue_offer(wq, flush, in, i, win, bt, Tw, all_overlaps, cull_on, out, full);
}

/* Set query i's end: its winner (the earliest of the lanes, the lowest index on ties) offered
   to the queue wq, to be recomputed with others for the outputs beyond t (the same lane
   operations, so the same t); returns 1 for a hit. */
TOI_VINLINE size_t set_end(const set_best *sb, const float *const ts[9], size_t i,
                           win_queue *wq, win_flush_fn flush, const void *in, vm all_overlaps,
                           vm cull_on, const toi_hits *out, int full)
{
    float bt;
    uint32_t win = set_lanes_winner(sb->lane_best, sb->lane_idx, &bt);
    return set_offer(win, bt, ts, i, wq, flush, in, all_overlaps, cull_on, out, full);
}

/* The sphere queries' queue (spheres in) recomputed and stored. */
static inline void sphere_win_flush(win_queue *w, const void *in, vm all_overlaps, vm cull_on,
                                    const toi_hits *out, int full)
{
    const toi_spheres *S = in;
    if (!w->n)
        return;
    vf Tv[9];
    win_queue_load(w, Tv);
    const v3 p0 = {vgather(S->x, w->q), vgather(S->y, w->q), vgather(S->z, w->q)};
    const v3 vin = {vgather(S->vx, w->q), vgather(S->vy, w->q), vgather(S->vz, w->q)};
    const vf rin = vgather(S->r, w->q);
    v3 Vr[3];
    vf size = tri_relative(p0, vin, rin, Tv, Vr);
    vres r;
    vf feat = vset((float)TOI_FEATURE_NONE);
    tri_sweep_vec(p0, vin, rin, Tv, Vr, size, mconst(1), all_overlaps, cull_on, full ? 2 : 1,
                  &r, &feat);
    win_queue_store(w, out, &r, feat, full);
}

#define TOI_TRI_FIELDS(T) \
    { T->ax, T->ay, T->az, T->bx, T->by, T->bz, T->cx, T->cy, T->cz }
#define TOI_SPH_FIELDS(S) \
    { S->x, S->y, S->z, S->vx, S->vy, S->vz, S->r }

#endif /* TOI_SIMD_TRI_SWEEP_H */
