/* simd/capsules.h - capsule sweeps (against spheres and a plane), the kernel body written
   once over the vector layer. Included by src/<isa>/capsules.c after that backend's vec.h.
   Each lane performs the scalar reference's operations (src/scalar/capsules.c, where the
   method is explained) in the same order, branch-free, so every output bit matches it. */
#include "tri_sweep.h"

/* VW capsules: the ten input streams of toi_capsules. */
typedef struct vcap {
    v3 p0, p1, v;
    vf r;
} vcap;

TOI_VINLINE vcap vcap_load(const toi_capsules *c, size_t i, size_t cnt)
{
    vcap k;
    k.p0 = (v3){vload_n(c->x0 + i, cnt), vload_n(c->y0 + i, cnt), vload_n(c->z0 + i, cnt)};
    k.p1 = (v3){vload_n(c->x1 + i, cnt), vload_n(c->y1 + i, cnt), vload_n(c->z1 + i, cnt)};
    k.v = (v3){vload_n(c->vx + i, cnt), vload_n(c->vy + i, cnt), vload_n(c->vz + i, cnt)};
    k.r = vload_n(c->r + i, cnt);
    return k;
}

/* An end ball (the scalar's end_time). */
TOI_VINLINE vf cap_end_time(v3 l, v3 v, vf a, vf RR)
{
    const vf zero = vzero();
    vf b = v3dot(l, v);
    vf c = vsub(v3dot(l, l), RR);
    v3 cr = v3cross(l, v);
    vf disc = vsub(vmul(a, RR), v3dot(cr, cr));
    vf t = vdiv(c, vsub(vsqrt(disc), b));
    vm ok = mand(mand(vlt(b, zero), vge(disc, zero)), vle(t, vset(1.0f)));
    return vsel(ok, t, vset(INFINITY));
}

/* The cylinder around the segment (the scalar's cylinder_time). */
TOI_VINLINE vf cap_cylinder_time(v3 l0, v3 e, vf ee, v3 w, vf RR)
{
    const vf zero = vzero();
    vm ok = vge(ee, vset(TOI_MIN_DIR2));
    v3 u = v3cross(w, e), x = v3cross(l0, e);
    vf au = v3dot(u, u);
    vf c = vsub(v3dot(x, x), vmul(RR, ee));
    vf b = v3dot(u, x);
    vf g = v3dot(u, l0);
    vf h = vsub(vmul(au, RR), vmul(g, g));
    vf disc = vmul(ee, h);
    vf t = vdiv(c, vadd(vsqrt(disc), b));
    vf sn = v3dot(v3sub(v3scale(t, w), l0), e);
    ok = mand(ok, mand(vgt(b, zero), vge(h, zero)));
    ok = mand(ok, mand(vle(t, vset(1.0f)), mand(vge(sn, zero), vle(sn, ee))));
    return vsel(ok, t, vset(INFINITY));
}

/* From the centre to the segment's nearest point (the scalar's nearest_on_segment). */
TOI_VINLINE v3 cap_nearest(v3 D, v3 D1, v3 e, vf ee)
{
    vf num = vneg(v3dot(D, e));
    vf u = vdiv(num, ee);
    v3 foot = {vadd(D.x, vmul(u, e.x)), vadd(D.y, vmul(u, e.y)), vadd(D.z, vmul(u, e.z))};
    return v3sel(vle(num, vzero()), D, v3sel(vge(num, ee), D1, foot));
}

TOI_VINLINE size_t capsule_sphere_block(const toi_capsules *C, const toi_spheres *S,
                                        vm all_overlaps, const toi_hits *out, size_t i,
                                        size_t cnt, int full)
{
    const vf zero = vzero();
    const vcap A = vcap_load(C, i, cnt);
    const vsph B = vsph_load(S, i, cnt);
    vf lx = vsub(A.p0.x, B.x), ly = vsub(A.p0.y, B.y), lz = vsub(A.p0.z, B.z);
    vf vx = vsub(A.v.x, B.vx), vy = vsub(A.v.y, B.vy), vz = vsub(A.v.z, B.vz);
    vf R = vadd(A.r, B.r);
    vf ex = vsub(A.p1.x, A.p0.x), ey = vsub(A.p1.y, A.p0.y), ez = vsub(A.p1.z, A.p0.z);

    vf size = vadd(vadd(vadd(vabs(lx), vabs(ly)), vabs(lz)),
                   vadd(vadd(vabs(vx), vabs(vy)), vabs(vz)));
    size = vadd(size, R);
    size = vadd(size, vadd(vadd(vabs(ex), vabs(ey)), vabs(ez)));
    vm valid = mand(vlt(size, vset(TOI_MAX_SUM)), mand(vge(A.r, zero), vge(B.r, zero)));
    vf s = vpow2_scale(size);
    v3 l0 = {vmul(lx, s), vmul(ly, s), vmul(lz, s)};
    v3 v = {vmul(vx, s), vmul(vy, s), vmul(vz, s)};
    v3 e = {vmul(ex, s), vmul(ey, s), vmul(ez, s)};
    v3 l1 = {vmul(vsub(A.p1.x, B.x), s), vmul(vsub(A.p1.y, B.y), s),
             vmul(vsub(A.p1.z, B.z), s)};
    R = vmul(R, s);
    vf ee = v3dot(e, e);

    v3 d0 = cap_nearest(l0, l1, e, ee);
    vf b = v3dot(d0, v);
    vm approach = vlt(b, zero);
    vf RR = vmul(R, R);
    vf c = vsub(v3dot(d0, d0), RR);
    vm overlap = vle(c, zero);

    vf a = v3dot(v, v);
    vf t = cap_end_time(l0, v, a, RR);
    vf t1 = cap_end_time(l1, v, a, RR);
    t = vsel(vlt(t1, t), t1, t);
    vf tc = cap_cylinder_time(l0, e, ee, v3neg(v), RR);
    t = vsel(vlt(tc, t), tc, t);
    vm hit_sep = mand(mandnot(approach, overlap), vle(t, vset(1.0f)));
    t = vsel(vgt(t, zero), t, zero);
    vm hit_ov = mand(overlap, mor(approach, all_overlaps));
    vm hit = mand(valid, mor(hit_ov, hit_sep));
    t = vsel(overlap, zero, t);

    vres o;
    o.t = vsel(hit, t, vset(TOI_NO_HIT));
    if (full) {
        v3 D = {vadd(l0.x, vmul(t, v.x)), vadd(l0.y, vmul(t, v.y)), vadd(l0.z, vmul(t, v.z))};
        v3 D1 = {vadd(l1.x, vmul(t, v.x)), vadd(l1.y, vmul(t, v.y)),
                 vadd(l1.z, vmul(t, v.z))};
        v3 d = cap_nearest(D, D1, e, ee);
        vf dd = v3dot(d, d);
        vf len = vsqrt(dd);
        vf inv = vdiv(vset(1.0f), len);
        vm dir = vge(dd, vset(TOI_MIN_DIR2));
        vf nx = vsel(dir, vmul(d.x, inv), vset(TOI_FALLBACK_NX));
        vf ny = vsel(dir, vmul(d.y, inv), vset(TOI_FALLBACK_NY));
        vf nz = vsel(dir, vmul(d.z, inv), vset(TOI_FALLBACK_NZ));
        o.nx = vsel(hit, nx, zero);
        o.ny = vsel(hit, ny, zero);
        o.nz = vsel(hit, nz, zero);
        o.px = vsel(hit, vadd(vadd(B.x, vmul(t, B.vx)), vmul(nx, B.r)), zero);
        o.py = vsel(hit, vadd(vadd(B.y, vmul(t, B.vy)), vmul(ny, B.r)), zero);
        o.pz = vsel(hit, vadd(vadd(B.z, vmul(t, B.vz)), vmul(nz, B.r)), zero);
        vf depth = vmul(vsub(R, len), vpow2_unscale(size));
        depth = vsel(vgt(depth, zero), depth, zero);
        o.depth = vsel(mand(hit, overlap), depth, zero);
    }
    vstore_res(out, i, &o, cnt, full);
    return vcount_n(hit, cnt);
}

size_t TOI_FN(sweep_capsules_spheres)(size_t n, const toi_capsules *C, const toi_spheres *S,
                                      unsigned flags, const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const int full = toi_wants_full(out);
    const toi_capsules c = *C; /* local copies: vector stores may alias anything */
    const toi_spheres s = *S;
    const toi_hits o = *out;
    size_t hits = 0;
#define BLOCK(i, cnt, f) capsule_sphere_block(&c, &s, all_overlaps, &o, i, cnt, f)
    TOI_BATCH(n, full, BLOCK);
#undef BLOCK
    return vdone(hits);
}

/* Capsule against the plane (the scalar's sweep_capsule_plane). */
TOI_VINLINE size_t capsule_plane_block(const toi_capsules *C, const toi_plane *P, vm plane_ok,
                                       vm all_overlaps, const toi_hits *out, size_t i,
                                       size_t cnt, int full)
{
    const vf zero = vzero();
    const vcap A = vcap_load(C, i, cnt);
    const v3 n = {vset(P->nx), vset(P->ny), vset(P->nz)};
    const vf pd = vset(P->d);
    vf s0 = vsub(vadd(vadd(vmul(n.x, A.p0.x), vmul(n.y, A.p0.y)), vmul(n.z, A.p0.z)), pd);
    vf s1 = vsub(vadd(vadd(vmul(n.x, A.p1.x), vmul(n.y, A.p1.y)), vmul(n.z, A.p1.z)), pd);
    vf sv = vadd(vadd(vmul(n.x, A.v.x), vmul(n.y, A.v.y)), vmul(n.z, A.v.z));
    vf r = A.r;
    vf finite = vadd(vadd(vsub(s0, s0), vsub(sv, sv)), vsub(r, r));
    finite = vadd(finite, vsub(s1, s1));
    vm valid = mand(plane_ok, mand(veq(finite, zero), vge(r, zero)));
    vm low1 = vlt(s1, s0);
    v3 p = v3sel(low1, A.p1, A.p0);
    s0 = vsel(low1, s1, s0);
    vm overlap = vle(s0, r);
    vm approach = vlt(sv, zero);
    vf tsep = vdiv(vsub(r, s0), sv);
    vm hit_ov = mand(overlap, mor(approach, all_overlaps));
    vm hit_sep = mand(mandnot(approach, overlap), vle(tsep, vset(1.0f)));
    vm hit = mand(valid, mor(hit_ov, hit_sep));
    vf t = vsel(overlap, zero, tsep);

    vres o;
    o.t = vsel(hit, t, vset(TOI_NO_HIT));
    if (full) {
        vf st = vadd(s0, vmul(t, sv));
        o.nx = vsel(hit, n.x, zero);
        o.ny = vsel(hit, n.y, zero);
        o.nz = vsel(hit, n.z, zero);
        o.px = vsel(hit, vsub(vadd(p.x, vmul(t, A.v.x)), vmul(st, n.x)), zero);
        o.py = vsel(hit, vsub(vadd(p.y, vmul(t, A.v.y)), vmul(st, n.y)), zero);
        o.pz = vsel(hit, vsub(vadd(p.z, vmul(t, A.v.z)), vmul(st, n.z)), zero);
        vf depth = vsub(r, s0);
        depth = vsel(vgt(depth, zero), depth, zero);
        o.depth = vsel(mand(hit, overlap), depth, zero);
    }
    vstore_res(out, i, &o, cnt, full);
    return vcount_n(hit, cnt);
}

size_t TOI_FN(sweep_capsules_plane)(size_t n, const toi_capsules *C, const toi_plane *plane,
                                    unsigned flags, const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const vm plane_ok = mconst(toi_plane_ok(plane));
    const int full = toi_wants_full(out);
    const toi_capsules c = *C; /* local copies: vector stores may alias anything */
    const toi_plane P = *plane;
    const toi_hits o = *out;
    size_t hits = 0;
#define BLOCK(i, cnt, f) capsule_plane_block(&c, &P, plane_ok, all_overlaps, &o, i, cnt, f)
    TOI_BATCH(n, full, BLOCK);
#undef BLOCK
    return vdone(hits);
}

/* ---- capsule against capsule (the scalar's sweep_capsule_capsule) ---- */

/* The segment's point nearest the origin and its parameter (the scalar's
   nearest_on_segment_u). */
TOI_VINLINE v3 cap_nearest_u(v3 D, v3 D1, v3 e, vf ee, vf *u)
{
    const vf zero = vzero();
    vf num = vneg(v3dot(D, e));
    vf f = vdiv(num, ee);
    v3 foot = {vadd(D.x, vmul(f, e.x)), vadd(D.y, vmul(f, e.y)), vadd(D.z, vmul(f, e.z))};
    vm lo = vle(num, zero), hi = vge(num, ee);
    *u = vsel(lo, zero, vsel(hi, vset(1.0f), f));
    return v3sel(lo, D, v3sel(hi, D1, foot));
}

typedef struct vpara {
    v3 C[4];
    v3 ea, eb, nea, N, ma, mb;
    vf eea, eeb, NN;
    vm face, edges_b;
} vpara;

TOI_VINLINE v3 v3addt(v3 a, vf t, v3 v)
{
    return (v3){vadd(a.x, vmul(t, v.x)), vadd(a.y, vmul(t, v.y)), vadd(a.z, vmul(t, v.z))};
}

TOI_VINLINE vm para_inside_vec(const vpara *P, const v3 Ct[4])
{
    const vf zero = vzero();
    vm in = mand(vle(v3dot(Ct[0], P->ma), zero), vle(v3dot(Ct[2], P->ma), zero));
    in = mand(in, mand(vge(v3dot(Ct[1], P->ma), zero), vge(v3dot(Ct[3], P->ma), zero)));
    in = mand(in, mand(vle(v3dot(Ct[0], P->mb), zero), vle(v3dot(Ct[1], P->mb), zero)));
    in = mand(in, mand(vge(v3dot(Ct[2], P->mb), zero), vge(v3dot(Ct[3], P->mb), zero)));
    return in;
}

TOI_VINLINE v3 para_nearest_vec(const vpara *P, v3 v, vf t, vf *w)
{
    const vf zero = vzero();
    v3 Ct[4];
    TOI_UNROLL
    for (int k = 0; k < 4; k++)
        Ct[k] = v3addt(P->C[k], t, v);
    vm face_in = mand(P->face, para_inside_vec(P, Ct));
    vf u;
    v3 d = cap_nearest_u(Ct[0], Ct[1], P->ea, P->eea, &u);
    vf best = v3dot(d, d);
    vf wb = zero;
    v3 d1 = cap_nearest_u(Ct[2], Ct[3], P->ea, P->eea, &u);
    vf b1 = v3dot(d1, d1);
    vm upd = vlt(b1, best);
    d = v3sel(upd, d1, d), best = vsel(upd, b1, best), wb = vsel(upd, vset(1.0f), wb);
    vf w2, w3;
    v3 d2 = cap_nearest_u(Ct[0], Ct[2], P->nea, P->eeb, &w2);
    vf b2 = v3dot(d2, d2);
    upd = mand(P->edges_b, vlt(b2, best));
    d = v3sel(upd, d2, d), best = vsel(upd, b2, best), wb = vsel(upd, w2, wb);
    v3 d3 = cap_nearest_u(Ct[1], Ct[3], P->nea, P->eeb, &w3);
    vf b3 = v3dot(d3, d3);
    upd = mand(P->edges_b, vlt(b3, best));
    d = v3sel(upd, d3, d), wb = vsel(upd, w3, wb);
    /* the face's foot */
    vf h = vdiv(v3dot(Ct[0], P->N), P->NN);
    vf wf = vdiv(vneg(v3dot(Ct[0], P->mb)), P->NN);
    *w = vsel(face_in, wf, wb);
    return v3sel(face_in, v3scale(h, P->N), d);
}

TOI_VINLINE vf para_face_time(const vpara *P, v3 v, vf R)
{
    const vf zero = vzero();
    vf h0 = v3dot(P->C[0], P->N);
    vf hv = v3dot(v, P->N);
    vm pos = vgt(h0, zero);
    vf H0 = vsel(pos, h0, vneg(h0)), Hv = vsel(pos, hv, vneg(hv));
    vf RN = vmul(R, vsqrt(P->NN));
    vf t = vdiv(vsub(H0, RN), vneg(Hv));
    vf tt = vsel(vgt(t, zero), t, zero);
    v3 Ct[4];
    TOI_UNROLL
    for (int k = 0; k < 4; k++)
        Ct[k] = v3addt(P->C[k], tt, v);
    vm ok = mand(mand(P->face, vlt(Hv, zero)), mand(vle(t, vset(1.0f)), para_inside_vec(P, Ct)));
    return vsel(ok, t, vset(INFINITY));
}

TOI_VINLINE size_t capsule_capsule_block(const toi_capsules *CA, const toi_capsules *CB,
                                         vm all_overlaps, const toi_hits *out, size_t i,
                                         size_t cnt, int full)
{
    const vf zero = vzero(), one = vset(1.0f);
    const vcap A = vcap_load(CA, i, cnt);
    const vcap B = vcap_load(CB, i, cnt);
    vf lx = vsub(A.p0.x, B.p0.x), ly = vsub(A.p0.y, B.p0.y), lz = vsub(A.p0.z, B.p0.z);
    vf vx = vsub(A.v.x, B.v.x), vy = vsub(A.v.y, B.v.y), vz = vsub(A.v.z, B.v.z);
    vf R = vadd(A.r, B.r);
    vf ex = vsub(A.p1.x, A.p0.x), ey = vsub(A.p1.y, A.p0.y), ez = vsub(A.p1.z, A.p0.z);
    vf fx = vsub(B.p1.x, B.p0.x), fy = vsub(B.p1.y, B.p0.y), fz = vsub(B.p1.z, B.p0.z);

    vf size = vadd(vadd(vadd(vabs(lx), vabs(ly)), vabs(lz)),
                   vadd(vadd(vabs(vx), vabs(vy)), vabs(vz)));
    size = vadd(size, R);
    size = vadd(size, vadd(vadd(vabs(ex), vabs(ey)), vabs(ez)));
    size = vadd(size, vadd(vadd(vabs(fx), vabs(fy)), vabs(fz)));
    vm valid = mand(vlt(size, vset(TOI_MAX_SUM)), mand(vge(A.r, zero), vge(B.r, zero)));
    vf s = vpow2_scale(size);
    vpara P;
    P.C[0] = (v3){vmul(lx, s), vmul(ly, s), vmul(lz, s)};
    P.C[1] = (v3){vmul(vsub(A.p1.x, B.p0.x), s), vmul(vsub(A.p1.y, B.p0.y), s),
                  vmul(vsub(A.p1.z, B.p0.z), s)};
    P.C[2] = (v3){vmul(vsub(A.p0.x, B.p1.x), s), vmul(vsub(A.p0.y, B.p1.y), s),
                  vmul(vsub(A.p0.z, B.p1.z), s)};
    P.C[3] = (v3){vmul(vsub(A.p1.x, B.p1.x), s), vmul(vsub(A.p1.y, B.p1.y), s),
                  vmul(vsub(A.p1.z, B.p1.z), s)};
    v3 v = {vmul(vx, s), vmul(vy, s), vmul(vz, s)};
    P.ea = (v3){vmul(ex, s), vmul(ey, s), vmul(ez, s)};
    P.eb = (v3){vmul(fx, s), vmul(fy, s), vmul(fz, s)};
    P.nea = v3neg(P.eb);
    R = vmul(R, s);
    P.eea = v3dot(P.ea, P.ea);
    P.eeb = v3dot(P.eb, P.eb);
    P.edges_b = vge(P.eeb, vset(TOI_MIN_DIR2));
    {
        const vf Z[3] = {zero, zero, zero};
        const vf Ea[3] = {P.ea.x, P.ea.y, P.ea.z}, Eb[3] = {P.eb.x, P.eb.y, P.eb.z};
        vf Nf[3];
        vtri_normal(Z, Ea, Eb, one, Nf);
        P.N = (v3){Nf[0], Nf[1], Nf[2]};
    }
    P.NN = v3dot(P.N, P.N);
    const vf fmin = vset(TOI_SEG_FACE_MIN);
    P.face = mand(mand(vge(P.eea, fmin), vge(P.eeb, fmin)),
                  vge(P.NN, vmul(fmin, vmul(P.eea, P.eeb))));
    P.ma = v3cross(P.eb, P.N);
    P.mb = v3cross(P.ea, P.N);

    vf w;
    v3 d0 = para_nearest_vec(&P, v, zero, &w);
    vf b = v3dot(d0, v);
    vm approach = vlt(b, zero);
    vf RR = vmul(R, R);
    vf c = vsub(v3dot(d0, d0), RR);
    vm overlap = vle(c, zero);

    vf a = v3dot(v, v);
    v3 nv = v3neg(v);
    vf t = cap_end_time(P.C[0], v, a, RR);
    TOI_UNROLL
    for (int k = 1; k < 4; k++) {
        vf tk = cap_end_time(P.C[k], v, a, RR);
        t = vsel(vlt(tk, t), tk, t);
    }
    vf tc = cap_cylinder_time(P.C[0], P.ea, P.eea, nv, RR);
    t = vsel(vlt(tc, t), tc, t);
    tc = cap_cylinder_time(P.C[2], P.ea, P.eea, nv, RR);
    t = vsel(vlt(tc, t), tc, t);
    tc = cap_cylinder_time(v3neg(P.C[0]), P.eb, P.eeb, v, RR);
    t = vsel(vlt(tc, t), tc, t);
    tc = cap_cylinder_time(v3neg(P.C[1]), P.eb, P.eeb, v, RR);
    t = vsel(vlt(tc, t), tc, t);
    tc = para_face_time(&P, v, R);
    t = vsel(vlt(tc, t), tc, t);
    vm hit_sep = mand(mandnot(approach, overlap), vle(t, one));
    t = vsel(vgt(t, zero), t, zero);
    vm hit_ov = mand(overlap, mor(approach, all_overlaps));
    vm hit = mand(valid, mor(hit_ov, hit_sep));
    t = vsel(overlap, zero, t);

    vres o;
    o.t = vsel(hit, t, vset(TOI_NO_HIT));
    if (full) {
        v3 d = para_nearest_vec(&P, v, t, &w);
        vf dd = v3dot(d, d);
        vf len = vsqrt(dd);
        vf inv = vdiv(one, len);
        vm dir = vge(dd, vset(TOI_MIN_DIR2));
        vf nx = vsel(dir, vmul(d.x, inv), vset(TOI_FALLBACK_NX));
        vf ny = vsel(dir, vmul(d.y, inv), vset(TOI_FALLBACK_NY));
        vf nz = vsel(dir, vmul(d.z, inv), vset(TOI_FALLBACK_NZ));
        o.nx = vsel(hit, nx, zero);
        o.ny = vsel(hit, ny, zero);
        o.nz = vsel(hit, nz, zero);
        vm w0 = veq(w, zero), w1 = veq(w, one);
        v3 qf = {vadd(B.p0.x, vmul(w, vsub(B.p1.x, B.p0.x))),
                 vadd(B.p0.y, vmul(w, vsub(B.p1.y, B.p0.y))),
                 vadd(B.p0.z, vmul(w, vsub(B.p1.z, B.p0.z)))};
        v3 q = v3sel(w0, B.p0, v3sel(w1, B.p1, qf));
        o.px = vsel(hit, vadd(vadd(q.x, vmul(t, B.v.x)), vmul(nx, B.r)), zero);
        o.py = vsel(hit, vadd(vadd(q.y, vmul(t, B.v.y)), vmul(ny, B.r)), zero);
        o.pz = vsel(hit, vadd(vadd(q.z, vmul(t, B.v.z)), vmul(nz, B.r)), zero);
        vf depth = vmul(vsub(R, len), vpow2_unscale(size));
        depth = vsel(vgt(depth, zero), depth, zero);
        o.depth = vsel(mand(hit, overlap), depth, zero);
    }
    vstore_res(out, i, &o, cnt, full);
    return vcount_n(hit, cnt);
}

size_t TOI_FN(sweep_capsules)(size_t n, const toi_capsules *A, const toi_capsules *B,
                              unsigned flags, const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const int full = toi_wants_full(out);
    const toi_capsules a = *A, b = *B; /* local copies: vector stores may alias anything */
    const toi_hits o = *out;
    size_t hits = 0;
#define BLOCK(i, cnt, f) capsule_capsule_block(&a, &b, all_overlaps, &o, i, cnt, f)
    TOI_BATCH(n, full, BLOCK);
#undef BLOCK
    return vdone(hits);
}
