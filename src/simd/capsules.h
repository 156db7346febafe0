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
