/* simd/capsules.h - capsule sweeps (against spheres, a plane, capsules, triangles, triangle
   sets and meshes), the kernel bodies written once over the vector layer. Included by src/<isa>/capsules.c after that backend's vec.h.
   Each lane performs the scalar reference's operations (src/scalar/capsules.c, where the
   method is explained) in the same order, branch-free, so every output bit matches it. */
#include "mesh_walk.h"
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

/* Receding at t = 0 beyond any rounding of b = d0.v (the scalar's recedes). */
TOI_VINLINE vm cap_recedes(vf b, vf a, vf size_s)
{
    vf m = vmul(vset(TOI_BOX_MARGIN), size_s);
    return mand(vge(b, vzero()), vge(vmul(b, b), vmul(vmul(m, m), a)));
}

/* The scalar's apart_hit, per lane: entered by t = 1, and a start inside a piece (t <= 0)
   only when approaching; *t clamped to 0. */
TOI_VINLINE vm cap_apart_hit(vf *t, vm approach)
{
    vm tpos = vgt(*t, vzero());
    vm hit = mand(vle(*t, vset(1.0f)), mor(tpos, approach));
    *t = vsel(tpos, *t, vzero());
    return hit;
}

/* The cylinder around the segment (the scalar's cylinder_time). */
TOI_VINLINE vf cap_cylinder_time(v3 l0, v3 e, vf ee, v3 w, vf RR)
{
    vf c, pe;
    return tri_cyl_entry(l0, e, ee, w, RR, &c, &pe);
}

/* From the centre to the segment's nearest point (the scalar's nearest_on_segment). */
TOI_VINLINE v3 cap_nearest(v3 D, v3 D1, v3 e, vf ee)
{
    vf num = vneg(v3dot(D, e));
    vf u = vdiv(num, ee);
    v3 foot = {vadd(D.x, vmul(u, e.x)), vadd(D.y, vmul(u, e.y)), vadd(D.z, vmul(u, e.z))};
    return v3sel(vle(num, vzero()), D, v3sel(vge(num, ee), D1, foot));
}

/* ---- exit times (toi_hits.t_exit): the scalar's (src/scalar/capsules.c, which explains
   them), each piece per lane with its validity as a select ---- */

/* The exit's motion (the scalar's exit_motion), for the lanes of hit: *v rescaled where v.v
   is below TOI_EXIT_MIN_A, *k the factor (else 1), computed when a hit lane needs it;
   returns the rescaled lanes with no motion at all (they never separate). */
TOI_VINLINE vm cap_exit_motion(v3 *v, vf *k, vm hit)
{
    const vf one = vset(1.0f);
    vm big = vge(v3dot(*v, *v), vset(TOI_EXIT_MIN_A));
    *k = one;
    if (!mbits(mandnot(hit, big)))
        return mconst(0);
    vf kk = vpow2_scale(vadd(vadd(vabs(v->x), vabs(v->y)), vabs(v->z)));
    *v = v3sel(big, *v, (v3){vmul(v->x, kk), vmul(v->y, kk), vmul(v->z, kk)});
    *k = vsel(big, one, kk);
    return mandnot(veq(v3dot(*v, *v), vzero()), big);
}

/* An end ball's exit (the scalar's ball_exit). */
TOI_VINLINE vf cap_ball_exit(v3 l, v3 v, vf RR, vm any)
{
    const vf zero = vzero();
    vf c = vsub(v3dot(l, l), RR);
    vf a = v3dot(v, v);
    vf b = v3dot(l, v);
    v3 cr = v3cross(l, v);
    vf disc = vsub(vmul(a, RR), v3dot(cr, cr));
    vf sd = vsel(vgt(disc, zero), vsqrt(disc), zero);
    vf te = vsel(vle(b, zero), vdiv(vsub(sd, b), a), vdiv(c, vsub(vneg(b), sd)));
    return vsel(mor(any, vge(disc, zero)), te, vset(-INFINITY));
}

/* A cylinder's exit (the scalar's cylinder_exit). */
TOI_VINLINE vf cap_cylinder_exit(v3 V0, v3 e, vf ee, v3 w, vf rr)
{
    const vf zero = vzero();
    vm edge_ok = vge(ee, vset(TOI_MIN_DIR2));
    const vcyl_frame f = tri_cyl_frame(V0, e, ee, w, rr);
    const vf aw = f.aw, b = f.b, c = f.c, disc = f.disc;
    vf sd = vsqrt(disc);
    vm bpos = vge(b, zero);
    vf t1 = vsel(bpos, vdiv(c, vadd(sd, b)), vdiv(vsub(b, sd), aw));
    vf t2 = vsel(bpos, vdiv(vadd(sd, b), aw), vdiv(c, vsub(b, sd)));
    vf sn = vsub(vmul(t2, f.ve), f.pe);
    vm lo = vlt(sn, zero), hi = vgt(sn, ee);
    vm toward = mor(mand(lo, vlt(f.ve, zero)), mand(hi, vgt(f.ve, zero)));
    vf tcap = vdiv(vsel(lo, f.pe, vadd(f.pe, ee)), f.ve);
    vm beyond = mor(lo, hi);
    vf te = vsel(beyond, tcap, t2);
    vm within = mor(mandnot(mconst(1), beyond), mand(toward, vge(tcap, t1)));
    vm ok = mand(mand(edge_ok, vgt(aw, zero)), mand(vge(disc, zero), within));
    return vsel(ok, te, vset(-INFINITY));
}

/* The later of te and x (the scalar's later: te kept on ties and where x is NaN). */
TOI_VINLINE vf cap_later(vf te, vf x)
{
    return vsel(vgt(x, te), x, te);
}

/* The exit of the hit lanes from the pieces' latest (te, world-scaled by k), at least t;
   +inf where there is no motion (none), TOI_NO_HIT off the hit lanes. */
TOI_VINLINE vf cap_exit_final(vf te, vf k, vf t, vm none, vm hit)
{
    te = vmul(te, k);
    te = vsel(vgt(te, t), te, t);
    te = vsel(none, vset(INFINITY), te);
    return vsel(hit, te, vset(TOI_NO_HIT));
}

/* A capsule-sphere pair's exit (the scalar's segment_exit) on the hit lanes. Out of line:
   one copy for the batch loop's copies that want it. */
static __attribute__((noinline)) vf cap_segment_exit(const v3 *pl0, const v3 *pl1, const v3 *pe,
                                                     vf ee, v3 v, vf RR, vf t, vm hit)
{
    const v3 l0 = *pl0, l1 = *pl1, e = *pe;
    vf k;
    vm none = cap_exit_motion(&v, &k, hit);
    vm any = mandnot(mconst(1), vge(ee, vset(TOI_MIN_DIR2)));
    vf te = cap_ball_exit(l0, v, RR, any);
    te = cap_later(te, cap_ball_exit(l1, v, RR, any));
    te = cap_later(te, cap_cylinder_exit(l0, e, ee, v3neg(v), RR));
    return cap_exit_final(te, k, t, none, hit);
}

/* want_exit, like full, is a compile-time constant in each copy of the batch loop (a test
   per vector cost the capsule-sphere query 10 % more instructions, t alone, the plane 18 %). */
TOI_VINLINE size_t capsule_sphere_block(const toi_capsules *C, const toi_spheres *S,
                                        vm all_overlaps, const toi_hits *out, size_t i,
                                        size_t cnt, int full, int want_exit)
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
    vf Ss = vmul(size, s); /* the size in scaled units */
    if (vany_sub(size)) {
        vf s2 = vpow2_scale_sub(size, s);
        l0 = v3scale(s2, l0), v = v3scale(s2, v), e = v3scale(s2, e), l1 = v3scale(s2, l1);
        R = vmul(R, s2), Ss = vmul(Ss, s2);
    }
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
    /* apart at t = 0: not receding beyond rounding, entered by t = 1, and a start inside a
       piece (t <= 0) only when approaching */
    vm hit_sep = mandnot(mandnot(cap_apart_hit(&t, approach),
                                 cap_recedes(b, a, Ss)),
                         overlap);
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
        vf depth = vunscale(vsub(R, len), size);
        depth = vsel(vgt(depth, zero), depth, zero);
        o.depth = vsel(mand(hit, overlap), depth, zero);
    }
    vstore_res(out, i, &o, cnt, full);
    if (want_exit)
        vstore_n(out->t_exit + i, cap_segment_exit(&l0, &l1, &e, ee, v, RR, t, hit), cnt);
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
#define BLOCK(i, cnt, f, x) capsule_sphere_block(&c, &s, all_overlaps, &o, i, cnt, f, x)
    TOI_BATCH_EXIT(n, full, o.t_exit != NULL, BLOCK);
#undef BLOCK
    return vdone(hits);
}

/* Capsule against the plane (the scalar's sweep_capsule_plane). */
TOI_VINLINE size_t capsule_plane_block(const toi_capsules *C, const toi_plane *P, vm plane_ok,
                                       vm all_overlaps, const toi_hits *out, size_t i,
                                       size_t cnt, int full, int want_exit)
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
    if (want_exit) /* the lower end's (the scalar's) */
        vstore_n(out->t_exit + i,
                 plane_exit_vec(n.x, n.y, n.z, A.v.x, A.v.y, A.v.z, r, s0, sv, tsep, hit), cnt);
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
#define BLOCK(i, cnt, f, x)                                                                    \
    capsule_plane_block(&c, &P, plane_ok, all_overlaps, &o, i, cnt, f, x)
    TOI_BATCH_EXIT(n, full, o.t_exit != NULL, BLOCK);
#undef BLOCK
    return vdone(hits);
}

/* ---- capsule against capsule (the scalar's sweep_capsule_capsule) ---- */

/* The segment's point nearest the origin, its parameter and whether it is the foot (the
   scalar's nearest_on_segment_u). */
TOI_VINLINE v3 cap_nearest_u(v3 D, v3 D1, v3 e, vf ee, vf *u, vm *foot)
{
    const vf zero = vzero();
    vf num = vneg(v3dot(D, e));
    vf f = vdiv(num, ee);
    v3 foot_p = {vadd(D.x, vmul(f, e.x)), vadd(D.y, vmul(f, e.y)), vadd(D.z, vmul(f, e.z))};
    vm lo = vle(num, zero), hi = vge(num, ee);
    *u = vsel(lo, zero, vsel(hi, vset(1.0f), f));
    *foot = mandnot(mconst(1), mor(lo, hi));
    return v3sel(lo, D, v3sel(hi, D1, foot_p));
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

/* The face's half-plane values at the corners (the scalar's para_sides). */
TOI_VINLINE void para_sides_vec(const vpara *P, const v3 Ct[4], vf h[8])
{
    h[0] = v3dot(Ct[0], P->ma), h[2] = v3dot(Ct[2], P->ma);
    h[1] = v3dot(Ct[1], P->ma), h[3] = v3dot(Ct[3], P->ma);
    h[4] = v3dot(Ct[0], P->mb), h[5] = v3dot(Ct[1], P->mb);
    h[6] = v3dot(Ct[2], P->mb), h[7] = v3dot(Ct[3], P->mb);
}

TOI_VINLINE vm para_inside_h(const vf h[8])
{
    const vf zero = vzero();
    vm in = mand(vle(h[0], zero), vle(h[2], zero));
    in = mand(in, mand(vge(h[1], zero), vge(h[3], zero)));
    in = mand(in, mand(vle(h[4], zero), vle(h[5], zero)));
    in = mand(in, mand(vge(h[6], zero), vge(h[7], zero)));
    return in;
}

TOI_VINLINE vm para_inside_vec(const vpara *P, const v3 Ct[4])
{
    vf h[8];
    para_sides_vec(P, Ct, h);
    return para_inside_h(h);
}

/* An edge's rank (the scalar's para_rank): 2 outside its half-plane with its foot inside
   it, 1 outside with its foot clamped, 0 otherwise or without a face. */
TOI_VINLINE vf para_rank_vec(vm face, vm out, vm foot)
{
    return vsel(mand(face, out), vsel(foot, vset(2.0f), vset(1.0f)), vzero());
}

/* Edge k replaces the current choice: a higher rank or, equal, strictly nearer. */
TOI_VINLINE vm para_better(vf rk, vf bk, vf rank, vf best)
{
    return mor(vgt(rk, rank), mand(veq(rk, rank), vlt(bk, best)));
}

/* A corner's rank without a face (the scalar's para_mutual). */
TOI_VINLINE vf para_mutual_vec(vm other_foot, vf other_param, vf c)
{
    return vsel(mandnot(veq(other_param, c), other_foot), vset(1.0f), vzero());
}

/* The scalar's para_slides: a foot pair gets nearer off its end, beyond rounding. */
TOI_VINLINE vm para_slides_vec(vf g, vf ee)
{
    return mand(vlt(g, vzero()), vgt(vmul(g, g), vmul(vset(TOI_SEG_SLIDE2), ee)));
}

/* The mask a where c, else b. */
TOI_VINLINE vm cap_msel(vm c, vm a, vm b)
{
    return mor(mand(c, a), mandnot(b, c));
}

TOI_VINLINE v3 para_nearest_vec(const vpara *P, v3 v, vf t, vf *w)
{
    const vf zero = vzero();
    v3 Ct[4];
    TOI_UNROLL
    for (int k = 0; k < 4; k++)
        Ct[k] = v3addt(P->C[k], t, v);
    vf hs[8];
    para_sides_vec(P, Ct, hs);
    vm face_in = mand(P->face, para_inside_h(hs));
    vm out0 = mor(vgt(hs[4], zero), vgt(hs[5], zero));
    vm out1 = mor(vlt(hs[6], zero), vlt(hs[7], zero));
    vm out2 = mor(vgt(hs[0], zero), vgt(hs[2], zero));
    vm out3 = mor(vlt(hs[1], zero), vlt(hs[3], zero));
    vf u0, u1, w2, w3;
    vm f0, f1, f2, f3;
    v3 d = cap_nearest_u(Ct[0], Ct[1], P->ea, P->eea, &u0, &f0);
    v3 d1 = cap_nearest_u(Ct[2], Ct[3], P->ea, P->eea, &u1, &f1);
    v3 d2 = cap_nearest_u(Ct[0], Ct[2], P->nea, P->eeb, &w2, &f2);
    v3 d3 = cap_nearest_u(Ct[1], Ct[3], P->nea, P->eeb, &w3, &f3);
    vf r0 = para_rank_vec(P->face, out0, f0), r1 = para_rank_vec(P->face, out1, f1);
    vf r2 = para_rank_vec(P->face, out2, f2), r3 = para_rank_vec(P->face, out3, f3);
    vf best = v3dot(d, d), b1 = v3dot(d1, d1), bb2 = v3dot(d2, d2), bb3 = v3dot(d3, d3);
    /* no face (b's segment not a point): the scalar's zero vectors, feet and mutual corners */
    const vm noface = mandnot(P->edges_b, P->face);
    if (mbits(noface)) {
        const vf two = vset(2.0f), one = vset(1.0f), three = vset(3.0f);
        vm a0 = veq(u0, zero), a1 = veq(u1, zero), b2 = veq(w2, zero), b3 = veq(w3, zero);
        vf s0 = vsel(para_slides_vec(vneg(v3dot(d, P->eb)), P->eeb), zero, two);
        vf s1 = vsel(para_slides_vec(v3dot(d1, P->eb), P->eeb), zero, two);
        vf s2 = vsel(para_slides_vec(v3dot(d2, P->ea), P->eea), zero, two);
        vf s3 = vsel(para_slides_vec(vneg(v3dot(d3, P->ea)), P->eea), zero, two);
        vf n0 = vsel(f0, s0, para_mutual_vec(cap_msel(a0, f2, f3), vsel(a0, w2, w3), zero));
        vf n1 = vsel(f1, s1, para_mutual_vec(cap_msel(a1, f2, f3), vsel(a1, w2, w3), one));
        vf n2 = vsel(f2, s2, para_mutual_vec(cap_msel(b2, f0, f1), vsel(b2, u0, u1), zero));
        vf n3 = vsel(f3, s3, para_mutual_vec(cap_msel(b3, f0, f1), vsel(b3, u0, u1), one));
        n0 = vsel(veq(best, zero), three, n0), n1 = vsel(veq(b1, zero), three, n1);
        n2 = vsel(veq(bb2, zero), three, n2), n3 = vsel(veq(bb3, zero), three, n3);
        r0 = vsel(noface, n0, r0), r1 = vsel(noface, n1, r1);
        r2 = vsel(noface, n2, r2), r3 = vsel(noface, n3, r3);
    }
    vf rank = r0;
    vf wb = zero;
    vm upd = para_better(r1, b1, rank, best);
    d = v3sel(upd, d1, d), best = vsel(upd, b1, best), rank = vsel(upd, r1, rank);
    wb = vsel(upd, vset(1.0f), wb);
    upd = mand(P->edges_b, para_better(r2, bb2, rank, best));
    d = v3sel(upd, d2, d), best = vsel(upd, bb2, best), rank = vsel(upd, r2, rank);
    wb = vsel(upd, w2, wb);
    upd = mand(P->edges_b, para_better(r3, bb3, rank, best));
    d = v3sel(upd, d3, d), wb = vsel(upd, w3, wb);
    /* the face's foot; B's parameter within B's stretch alongside A, then within B */
    vf h = vdiv(v3dot(Ct[0], P->N), P->NN);
    vf wf = vdiv(vneg(v3dot(Ct[0], P->mb)), P->NN);
    vf wa0 = vdiv(v3dot(Ct[0], P->eb), P->eeb), wa1 = vdiv(v3dot(Ct[1], P->eb), P->eeb);
    vm a01 = vlt(wa0, wa1);
    vf lo = vsel(a01, wa0, wa1), hi = vsel(a01, wa1, wa0);
    wf = vsel(vgt(wf, lo), wf, lo);
    wf = vsel(vlt(wf, hi), wf, hi);
    wf = vsel(vlt(wf, vset(1.0f)), wf, vset(1.0f));
    wf = vsel(vgt(wf, zero), wf, zero);
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

/* A capsule pair's relative geometry in the scaled units of its size (the scalar's set-up):
   the corner vectors C = p0 - q0, p1 - q0, p0 - q1, p1 - q1 (A's ends less B's), the relative
   motion v, the segments ea (A's) and eb (B's), R = rA + rB; size and whether the pair is
   valid (finite, below TOI_MAX_SUM, radii non-negative). */
typedef struct vcc_rel {
    v3 C[4], v, ea, eb;
    vf R, size, S; /* S: the size in scaled units */
    vm valid;
} vcc_rel;

TOI_VINLINE vcc_rel vcc_rel_make(const vcap *pA, const vcap *pB)
{
    const vcap A = *pA, B = *pB;
    const vf zero = vzero();
    vcc_rel G;
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
    G.valid = mand(vlt(size, vset(TOI_MAX_SUM)), mand(vge(A.r, zero), vge(B.r, zero)));
    vf s = vpow2_scale(size);
    G.C[0] = (v3){vmul(lx, s), vmul(ly, s), vmul(lz, s)};
    G.C[1] = (v3){vmul(vsub(A.p1.x, B.p0.x), s), vmul(vsub(A.p1.y, B.p0.y), s),
                  vmul(vsub(A.p1.z, B.p0.z), s)};
    G.C[2] = (v3){vmul(vsub(A.p0.x, B.p1.x), s), vmul(vsub(A.p0.y, B.p1.y), s),
                  vmul(vsub(A.p0.z, B.p1.z), s)};
    G.C[3] = (v3){vmul(vsub(A.p1.x, B.p1.x), s), vmul(vsub(A.p1.y, B.p1.y), s),
                  vmul(vsub(A.p1.z, B.p1.z), s)};
    G.v = (v3){vmul(vx, s), vmul(vy, s), vmul(vz, s)};
    G.ea = (v3){vmul(ex, s), vmul(ey, s), vmul(ez, s)};
    G.eb = (v3){vmul(fx, s), vmul(fy, s), vmul(fz, s)};
    G.R = vmul(R, s);
    G.S = vmul(size, s);
    if (vany_sub(size)) {
        vf s2 = vpow2_scale_sub(size, s);
        TOI_UNROLL
        for (int k = 0; k < 4; k++)
            G.C[k] = v3scale(s2, G.C[k]);
        G.v = v3scale(s2, G.v), G.ea = v3scale(s2, G.ea), G.eb = v3scale(s2, G.eb);
        G.R = vmul(G.R, s2), G.S = vmul(G.S, s2);
    }
    G.size = size;
    return G;
}

/* The face slab's exit (the scalar's face_exit). */
TOI_VINLINE vf para_face_exit(const vpara *P, v3 v, vf R)
{
    const vf zero = vzero();
    vf h0 = v3dot(P->C[0], P->N);
    vf hv = v3dot(v, P->N);
    vf RN = vmul(R, vsqrt(P->NN));
    vf t = vdiv(vadd(RN, vsel(vgt(hv, zero), vneg(h0), h0)), vabs(hv));
    v3 Ct[4];
    TOI_UNROLL
    for (int k = 0; k < 4; k++)
        Ct[k] = v3addt(P->C[k], t, v);
    vm in = para_inside_vec(P, Ct);
    return vsel(mandnot(mand(P->face, in), veq(hv, zero)), t, vset(-INFINITY));
}

/* A capsule pair's exit (the scalar's para_exit) on the hit lanes. */
TOI_VINLINE vf para_exit_vec(const vpara *P, v3 v, vf R, vf RR, vf t, vm hit)
{
    vf k;
    vm none = cap_exit_motion(&v, &k, hit);
    vm any = mandnot(mandnot(mandnot(mconst(1), vge(P->eea, vset(TOI_MIN_DIR2))), P->edges_b),
                     P->face);
    v3 nv = v3neg(v);
    vf te = cap_ball_exit(P->C[0], v, RR, any);
    TOI_UNROLL
    for (int c = 1; c < 4; c++)
        te = cap_later(te, cap_ball_exit(P->C[c], v, RR, any));
    te = cap_later(te, cap_cylinder_exit(P->C[0], P->ea, P->eea, nv, RR));
    te = cap_later(te, cap_cylinder_exit(P->C[2], P->ea, P->eea, nv, RR));
    te = cap_later(te, cap_cylinder_exit(v3neg(P->C[0]), P->eb, P->eeb, v, RR));
    te = cap_later(te, cap_cylinder_exit(v3neg(P->C[1]), P->eb, P->eeb, v, RR));
    te = cap_later(te, para_face_exit(P, v, R));
    return cap_exit_final(te, k, t, none, hit);
}

/* The scalar's para_has_face, per lane. */
TOI_VINLINE vm para_has_face_vec(vf NN, vf eea, vf eeb)
{
    const vf fmin = vset(TOI_SEG_FACE_MIN);
    vf emax = vsel(vgt(eea, eeb), eea, eeb);
    return mand(mand(mand(vge(eea, fmin), vge(eeb, fmin)), vge(NN, vmul(fmin, vmul(eea, eeb)))),
                vge(NN, vmul(vset(TOI_SEG_FACE_WIDTH2), emax)));
}

/* The parallelogram of the pairs (the scalar's, in sweep_capsule_capsule). */
TOI_VINLINE vpara cc_para(const vcc_rel *G)
{
    const vf zero = vzero(), one = vset(1.0f);
    vpara P;
    TOI_UNROLL
    for (int k = 0; k < 4; k++)
        P.C[k] = G->C[k];
    P.ea = G->ea;
    P.eb = G->eb;
    P.nea = v3neg(P.eb);
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
    P.face = para_has_face_vec(P.NN, P.eea, P.eeb);
    P.ma = v3cross(P.eb, P.N);
    P.mb = v3cross(P.ea, P.N);
    return P;
}

/* VW capsule pairs (A, B): the scalar's sweep_capsule_capsule per lane into *o (t always, the
   rest when full); returns the hit lanes. */
TOI_VINLINE vm capsule_capsule_vec(const vcap *pA, const vcap *pB, vm all_overlaps, int full,
                                   vres *po)
{
    const vcap B = *pB;
    const vf zero = vzero(), one = vset(1.0f);
    vcc_rel G = vcc_rel_make(pA, pB);
    vf size = G.size, R = G.R;
    vm valid = G.valid;
    vpara P = cc_para(&G);
    v3 v = G.v;

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
    vm hit_sep = mandnot(mandnot(cap_apart_hit(&t, approach),
                                 cap_recedes(b, a, G.S)),
                         overlap);
    vm hit_ov = mand(overlap, mor(approach, all_overlaps));
    vm hit = mand(valid, mor(hit_ov, hit_sep));
    t = vsel(overlap, zero, t);

    vres o;
    o.nx = o.ny = o.nz = o.px = o.py = o.pz = o.depth = zero;
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
        vf depth = vunscale(vsub(R, len), size);
        depth = vsel(vgt(depth, zero), depth, zero);
        o.depth = vsel(mand(hit, overlap), depth, zero);
    }
    *po = o;
    return hit;
}

/* The lanes of VW pairs that are valid and pass the scalar's separation reject (the same
   operations as its set-up): the others are misses on every backend. */
TOI_VINLINE vm capsule_capsule_live(const vcap *pA, const vcap *pB)
{
    const vf zero = vzero(), one = vset(1.0f), half = vset(0.5f);
    vcc_rel G = vcc_rel_make(pA, pB);
    const v3 C0 = G.C[0], C1 = G.C[1], C2 = G.C[2], C3 = G.C[3], v = G.v;
    vf R = G.R;
    vm valid = G.valid;
    vf g = vadd(R, vmul(vset(TOI_BOX_MARGIN), G.S));
    /* the direction where the centres' path comes nearest (the scalar's para_dir_apart) */
    v3 m = {vmul(vadd(C0.x, C3.x), half), vmul(vadd(C0.y, C3.y), half),
            vmul(vadd(C0.z, C3.z), half)};
    vf tm = vdiv(vneg(v3dot(m, v)), v3dot(v, v));
    tm = vsel(vgt(tm, zero), tm, zero);
    tm = vsel(vlt(tm, one), tm, one);
    v3 x = v3addt(m, tm, v);
    vf xx = v3dot(x, x);
    vf h0 = v3dot(C0, x), h1 = v3dot(C1, x), h2 = v3dot(C2, x), h3 = v3dot(C3, x);
    vf lo = vsel(vlt(h0, h1), h0, h1);
    lo = vsel(vlt(h2, lo), h2, lo);
    lo = vsel(vlt(h3, lo), h3, lo);
    vf hv = v3dot(v, x);
    vf gx = vmul(g, vsqrt(xx));
    vm dir = mand(vge(xx, vset(TOI_MIN_DIR2)), mand(vgt(lo, gx), vgt(vadd(lo, hv), gx)));
    return mandnot(valid, dir);
}

/* Capsules c[idx[k]] for lanes [0, cnt). */
TOI_VINLINE vcap vcap_gather(const toi_capsules *c, const uint32_t *idx, size_t cnt)
{
    vcap k;
    k.p0 = (v3){vgather_n(c->x0, idx, cnt), vgather_n(c->y0, idx, cnt),
                vgather_n(c->z0, idx, cnt)};
    k.p1 = (v3){vgather_n(c->x1, idx, cnt), vgather_n(c->y1, idx, cnt),
                vgather_n(c->z1, idx, cnt)};
    k.v = (v3){vgather_n(c->vx, idx, cnt), vgather_n(c->vy, idx, cnt),
               vgather_n(c->vz, idx, cnt)};
    k.r = vgather_n(c->r, idx, cnt);
    return k;
}

/* Lanes [0, cnt) of one output stream stored at p[idx[k]]. */
TOI_VINLINE void cap_scatter_n(float *p, const uint32_t *idx, vf a, size_t cnt)
{
    float tmp[VW];
    vstore(tmp, a);
    if (cnt == VW) { /* the queue's full vectors: unrolled */
        TOI_UNROLL
        for (size_t k = 0; k < VW; k++)
            p[idx[k]] = tmp[k];
        return;
    }
    for (size_t k = 0; k < cnt; k++)
        p[idx[k]] = tmp[k];
}

/* Pairs [i, i + cnt): a's and b's capsules at those positions, or (a pair list: ia, ib not
   NULL) at ia[i + k] and ib[i + k]. */
TOI_VINLINE void vcap_pair_load(const toi_capsules *a, const toi_capsules *b, const uint32_t *ia,
                                const uint32_t *ib, size_t i, size_t cnt, vcap *A, vcap *B)
{
    if (ia) {
        *A = vcap_gather(a, ia + i, cnt), *B = vcap_gather(b, ib + i, cnt);
    } else {
        *A = vcap_load(a, i, cnt), *B = vcap_load(b, i, cnt);
    }
}

/* The capsules of the queued pairs at positions idx[0 .. cnt) (a pair list's through ia, ib). */
TOI_VINLINE void cc_queue_load(const toi_capsules *CA, const toi_capsules *CB,
                               const uint32_t *ia, const uint32_t *ib, const uint32_t *idx,
                               size_t cnt, vcap *A, vcap *B)
{
    uint32_t xa[VW] = {0}, xb[VW] = {0}; /* (zeroed: GCC cannot see the gathers read only
                                            the first cnt) */
    const uint32_t *pa = idx, *pb = idx;
    if (ia) {
        for (size_t k = 0; k < cnt; k++)
            xa[k] = ia[idx[k]], xb[k] = ib[idx[k]];
        pa = xa, pb = xb;
    }
    *A = vcap_gather(CA, pa, cnt), *B = vcap_gather(CB, pb, cnt);
}

/* The exit times (para_exit_vec) of pairs A, B whose results t the kernel has stored (ot:
   TOI_NO_HIT off the hit lanes), the set-up computed again. The exits are a pass of their own
   after the kernel's, from the inputs and the stored t, so that a query without t_exit runs
   the kernel as before: with the exit in the kernel's function (inlined, or out of line and
   handed the kernel's parallelogram, its capsules or only its t), avx2 ran 8, 5, 3 and 3 %
   more instructions, t alone. */
static __attribute__((noinline)) vf cc_exit(const vcap *A, const vcap *B, vf ot)
{
    vcc_rel G = vcc_rel_make(A, B);
    vpara P = cc_para(&G);
    return para_exit_vec(&P, G.v, G.R, vmul(G.R, G.R), ot, vlt(ot, vset(TOI_NO_HIT)));
}

/* The exits of the pairs at positions idx[0 .. cnt) (as cc_gathered's). */
static __attribute__((noinline)) void cc_exit_gathered(const toi_capsules *CA,
                                                       const toi_capsules *CB,
                                                       const uint32_t *ia, const uint32_t *ib,
                                                       const toi_hits *out, const uint32_t *idx,
                                                       size_t cnt)
{
    vcap A, B;
    cc_queue_load(CA, CB, ia, ib, idx, cnt, &A, &B);
    cap_scatter_n(out->t_exit, idx, cc_exit(&A, &B, vgather_n(out->t, idx, cnt)), cnt);
}

/* The exits of pairs [i, i + cnt) (as capsule_capsule_block's). */
static __attribute__((noinline)) void cc_exit_block(const toi_capsules *a, const toi_capsules *b,
                                                    const uint32_t *ia, const uint32_t *ib,
                                                    const toi_hits *o, size_t i, size_t cnt)
{
    vcap A, B;
    vcap_pair_load(a, b, ia, ib, i, cnt, &A, &B);
    vstore_n(o->t_exit + i, cc_exit(&A, &B, vload_n(o->t + i, cnt)), cnt);
}

/* The pairs at positions idx[0..cnt) computed together (their capsules as vcap_pair_load's),
   their outputs stored at their own positions. */
TOI_VINLINE size_t cc_gathered(const toi_capsules *CA, const toi_capsules *CB,
                               const uint32_t *ia, const uint32_t *ib, vm all_overlaps,
                               const toi_hits *out, const uint32_t *idx, size_t cnt, int full)
{
    vcap A, B;
    cc_queue_load(CA, CB, ia, ib, idx, cnt, &A, &B);
    vres o;
    vm hit = capsule_capsule_vec(&A, &B, all_overlaps, full, &o);
    cap_scatter_n(out->t, idx, o.t, cnt);
    if (full) {
        if (out->nx) cap_scatter_n(out->nx, idx, o.nx, cnt);
        if (out->ny) cap_scatter_n(out->ny, idx, o.ny, cnt);
        if (out->nz) cap_scatter_n(out->nz, idx, o.nz, cnt);
        if (out->px) cap_scatter_n(out->px, idx, o.px, cnt);
        if (out->py) cap_scatter_n(out->py, idx, o.py, cnt);
        if (out->pz) cap_scatter_n(out->pz, idx, o.pz, cnt);
        if (out->depth) cap_scatter_n(out->depth, idx, o.depth, cnt);
    }
    return vcount_n(hit, cnt);
}

/* The gathered vectors out of line, one copy for t alone and one for every output, and the
   in-place vectors (capsule_capsule_block) one more: inlined, the contiguous and pair-list
   paths compiled the kernel body eight times over, most of the file's compile time (avx2:
   18.9 s and 432 KB of code; now 10.1 s and 300 KB). The gathered vectors are the hot ones
   (a vector of pairs that all pass the reject is rare), hence their two specialised copies:
   with one copy for both, t alone ran 2 to 4 % slower. */
static __attribute__((noinline)) size_t cc_gathered_t(
    const toi_capsules *CA, const toi_capsules *CB, const uint32_t *ia, const uint32_t *ib,
    vm all_overlaps, const toi_hits *out, const uint32_t *idx, size_t cnt)
{
    return cc_gathered(CA, CB, ia, ib, all_overlaps, out, idx, cnt, 0);
}

static __attribute__((noinline)) size_t cc_gathered_full(
    const toi_capsules *CA, const toi_capsules *CB, const uint32_t *ia, const uint32_t *ib,
    vm all_overlaps, const toi_hits *out, const uint32_t *idx, size_t cnt)
{
    return cc_gathered(CA, CB, ia, ib, all_overlaps, out, idx, cnt, 1);
}

TOI_VINLINE size_t capsule_capsule_gathered(const toi_capsules *CA, const toi_capsules *CB,
                                            const uint32_t *ia, const uint32_t *ib,
                                            vm all_overlaps, const toi_hits *out,
                                            const uint32_t *idx, size_t cnt, int full)
{
    size_t hits = full ? cc_gathered_full(CA, CB, ia, ib, all_overlaps, out, idx, cnt)
                       : cc_gathered_t(CA, CB, ia, ib, all_overlaps, out, idx, cnt);
    if (out->t_exit)
        cc_exit_gathered(CA, CB, ia, ib, out, idx, cnt);
    return hits;
}

/* Pairs [i, i + cnt) computed together in place (their capsules as vcap_pair_load's), out of
   line (above). */
static __attribute__((noinline)) size_t capsule_capsule_block(
    const toi_capsules *a, const toi_capsules *b, const uint32_t *ia, const uint32_t *ib,
    vm all_overlaps, const toi_hits *o, size_t i, size_t cnt, int full)
{
    vcap A, B;
    vcap_pair_load(a, b, ia, ib, i, cnt, &A, &B);
    vres r;
    vm hit = capsule_capsule_vec(&A, &B, all_overlaps, full, &r);
    vstore_res(o, i, &r, cnt, full);
    return vcount_n(hit, cnt);
}

/* The twenty input streams of TOI_STAGE contiguous pairs, copied out a stream at a time.
   Streams allocated apart (large allocations are page-aligned) often lie at one offset
   modulo 4 KiB, so that element i of all twenty falls in one L1 set: read a vector at a time
   across all of them, twenty lines compete for that set's ways at once, and the reject pass
   ran at about half speed (capsule-capsule, avx2, Zen 3: 9.3 against 4.2 ns per pair with the
   streams staggered); a stream's lines read together, they do not. */
TOI_VINLINE void cc_streams(const toi_capsules *a, const toi_capsules *b, const float *src[20])
{
    const float *s[20] = {a->x0, a->y0, a->z0, a->x1, a->y1, a->z1, a->vx, a->vy, a->vz, a->r,
                          b->x0, b->y0, b->z0, b->x1, b->y1, b->z1, b->vx, b->vy, b->vz, b->r};
    memcpy(src, s, sizeof s);
}

/* Pairs [i, i + TOI_STAGE) of a and b copied into f; *sa and *sb read them there. */
TOI_VINLINE void cc_stage_fill(float f[20][TOI_STAGE], const toi_capsules *a,
                               const toi_capsules *b, size_t i, toi_capsules *sa,
                               toi_capsules *sb)
{
    const float *src[20];
    cc_streams(a, b, src);
    vstage_copy(f, src, 20, i);
    *sa = (toi_capsules){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]};
    *sb = (toi_capsules){f[10], f[11], f[12], f[13], f[14], f[15], f[16], f[17], f[18], f[19]};
}

/* The separation reject of pairs [i, i + cnt) (cnt <= VW), their lanes stored as misses:
   the passing lanes. */
TOI_VINLINE unsigned cc_reject(const toi_capsules *a, const toi_capsules *b, const uint32_t *ia,
                               const uint32_t *ib, size_t j, size_t cnt, const toi_hits *o,
                               size_t i, const vres *miss, int full)
{
    vcap A, B;
    vcap_pair_load(a, b, ia, ib, j, cnt, &A, &B);
    unsigned bits = mbits(capsule_capsule_live(&A, &B)) & (unsigned)((1ull << cnt) - 1);
    vstore_res(o, i, miss, cnt, full);
    return bits;
}

/* The reject of the TOI_STAGE contiguous pairs from i through a stage, into pass[]. Out of
   line, so that the stage's frame is there only when used. */
static __attribute__((noinline)) void cc_reject_staged(const toi_capsules *a,
                                                       const toi_capsules *b,
                                                       const toi_hits *o, size_t i, int full,
                                                       unsigned *pass)
{
    const vres miss = vres_miss();
    float f[20][TOI_STAGE];
    toi_capsules sa, sb;
    cc_stage_fill(f, a, b, i, &sa, &sb);
    for (size_t h = 0; h < TOI_STAGE; h += VW) /* (not unrolled: one copy) */
        pass[h / VW] = cc_reject(&sa, &sb, NULL, NULL, h, VW, o, i + h, &miss, full);
}

/* Pairs [0, n) (n <= TOI_RUN; a pair list when ia, ib are not NULL) in blocks of CC_BLOCK pairs.
   First the separation reject of the whole block (its lanes stored as misses; contiguous
   pairs whose streams crowd an L1 set read through a stage), then each vector of it: one
   whose lanes all pass is computed in place, the passing lanes of the others queued, and the
   queue computed VW pairs at a time (gathered, so the vectors run full), the last partial
   queue at the end. (Rejecting the
   block first means the branches test masks already computed: branching on the reject's
   result straight away, each misprediction waited for its long dependency chain.) */
#define CC_BLOCK (4 * TOI_STAGE)
TOI_VINLINE size_t capsule_capsule_run(const toi_capsules *a, const toi_capsules *b,
                                       const uint32_t *ia, const uint32_t *ib, vm all_overlaps,
                                       const toi_hits *o, size_t n, int full)
{
    const vres miss = vres_miss();
    uint32_t idx[2 * VW + 1];
    unsigned pass[CC_BLOCK / VW];
    size_t live = 0, hits = 0;
    const float *src[20];
    cc_streams(a, b, src);
    const int staged = !ia && toi_set_crowd(src, 20) > TOI_CROWDED;
    for (size_t i0 = 0; i0 < n; i0 += CC_BLOCK) {
        size_t nb = n - i0;
        if (nb > CC_BLOCK)
            nb = CC_BLOCK;
        size_t j = 0;
        if (staged)
            for (; j + TOI_STAGE <= nb; j += TOI_STAGE)
                cc_reject_staged(a, b, o, i0 + j, full, pass + j / VW);
        for (; j + VW <= nb; j += VW)
            pass[j / VW] = cc_reject(a, b, ia, ib, i0 + j, VW, o, i0 + j, &miss, full);
        if (j < nb)
            pass[j / VW] = cc_reject(a, b, ia, ib, i0 + j, nb - j, o, i0 + j, &miss, full);
        if (o->t_exit) /* the misses' (the kernel's pairs are stored over them below) */
            for (j = 0; j < nb; j++)
                o->t_exit[i0 + j] = TOI_NO_HIT;
        for (j = 0; j < nb; j += VW) {
            const size_t i = i0 + j, cnt = nb - j < VW ? nb - j : VW;
            const unsigned lanes = (unsigned)((1ull << cnt) - 1), bits = pass[j / VW];
            if (bits == lanes) {
                hits += capsule_capsule_block(a, b, ia, ib, all_overlaps, o, i, cnt, full);
                if (o->t_exit)
                    cc_exit_block(a, b, ia, ib, o, i, cnt);
                continue;
            }
            /* queued without branches (how many lanes pass is unpredictable) */
            TOI_UNROLL
            for (unsigned k = 0; k < VW; k++) {
                idx[live] = (uint32_t)(i + k);
                live += (bits >> k) & 1u;
            }
            if (live >= VW) {
                hits += capsule_capsule_gathered(a, b, ia, ib, all_overlaps, o, idx, VW, full);
                live -= VW;
                for (size_t k = 0; k < live; k++)
                    idx[k] = idx[VW + k];
            }
        }
    }
    if (live)
        hits += capsule_capsule_gathered(a, b, ia, ib, all_overlaps, o, idx, live, full);
    return hits;
}

/* Pairs [0, n): A[k] vs B[k], or (a pair list: ia, ib not NULL) A[ia[k]] vs B[ib[k]]. (n is
   at most TOI_RUN, api.c: the queue's indices fit 32 bits.) */
TOI_VINLINE size_t capsule_capsule_pairs(size_t n, const toi_capsules *A, const toi_capsules *B,
                                         const uint32_t *ia, const uint32_t *ib, unsigned flags,
                                         const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    /* local copies: vector stores may alias anything */
    const toi_capsules a = *A, b = *B;
    const toi_hits o = *out;
    size_t hits = toi_wants_full(out) ? capsule_capsule_run(&a, &b, ia, ib, all_overlaps, &o, n, 1)
                                      : capsule_capsule_run(&a, &b, ia, ib, all_overlaps, &o, n, 0);
    return vdone(hits);
}

size_t TOI_FN(sweep_capsules)(size_t n, const toi_capsules *A, const toi_capsules *B,
                              unsigned flags, const toi_hits *out)
{
    return capsule_capsule_pairs(n, A, B, NULL, NULL, flags, out);
}

/* The pair list: the same, each vector's capsules gathered from the bodies. */
size_t TOI_FN(sweep_capsule_pairs)(size_t n, const uint32_t *ia, const uint32_t *ib,
                                   const toi_capsules *S, unsigned flags, const toi_hits *out)
{
    if (!ia || !ib) /* (checked by the API; tells the compiler this is the list's path) */
        return vdone(0);
    return capsule_capsule_pairs(n, S, S, ia, ib, flags, out);
}

/* ---- capsule against triangle (the scalar's sweep_capsule_triangle) ---- */

/* The triangle in the capsule's scaled coordinates, as the sphere query sets it up. */
typedef struct vctri {
    v3 V[3], E[3], m[3], n;
    vf ee[3];
    vm face_ok, face_in;
} vctri;

/* The end ball at X0 against the triangle (the scalar's end_ball_time). */
TOI_VINLINE vf ct_end_ball_time(v3 X0, const vctri *T, v3 v, vf a, vf r, vf rr)
{
    const vf zero = vzero();
    v3 W[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        W[k] = v3sub(T->V[k], X0);
    vm ov = mconst(0); /* (the end's overlap is the nearest pair's, not the pieces') */
    vf t = tri_vertex_time(W[0], v, a, rr, &ov);
    TOI_UNROLL
    for (int k = 1; k < 3; k++) {
        vf tk = tri_vertex_time(W[k], v, a, rr, &ov);
        t = vsel(vlt(tk, t), tk, t);
    }
    TOI_UNROLL
    for (int k = 0; k < 3; k++) {
        vf tk = tri_edge_entry(W[k], T->E[k], T->ee[k], v, rr, &ov);
        t = vsel(vlt(tk, t), tk, t);
    }
    vf s0 = vneg(v3dot(W[0], T->n));
    vf dv = v3dot(v, T->n);
    vf ad = vabs(s0);
    vf adv = vsel(vge(s0, zero), dv, vneg(dv));
    vf tf = vdiv(vsub(r, ad), adv);
    v3 P = {vmul(tf, v.x), vmul(tf, v.y), vmul(tf, v.z)};
    vm out[3];
    vm in = tri_walls_out(P, W, T->m, out);
    vm ok = mand(mand(T->face_in, vgt(ad, r)), mand(vlt(adv, zero), vle(tf, vset(1.0f))));
    vf tw = vset(INFINITY); /* through a wall: computed when some lane needs it */
    if (mbits(mandnot(ok, in)))
        tw = tri_wall_time(v, tf, ad, adv, r, W, T->E, T->ee, T->m, out);
    tf = vsel(ok, vsel(in, tf, tw), vset(INFINITY));
    return vsel(vlt(tf, t), tf, t);
}

/* The scalar's face_foot_final, per lane. */
TOI_VINLINE vm ct_face_final(vf k, vf s, vf o)
{
    const vf zero = vzero();
    return mand(veq(k, vset((float)TOI_FEATURE_FACE)),
                mor(mand(vge(s, zero), vge(o, s)), mand(vle(s, zero), vle(o, s))));
}

/* The nearest pair of the segment (X, X + e) and the triangle (the scalar's seg_tri_nearest,
   final as there): d from the triangle's point *q to the segment's; *best, *kind, *endface,
   *st as there. */
TOI_VINLINE v3 ct_nearest(v3 X, v3 e, v3 v, vf t, const vctri *T, const vpara Pk[3], vf s0,
                          vf s1, vf dv, int final, v3 *q, vf *best, vf *kind, vm *endface,
                          vf *st)
{
    const vf zero = vzero(), one = vset(1.0f), face = vset((float)TOI_FEATURE_FACE);
    vf st0 = vadd(s0, vmul(t, dv)), st1 = vadd(s1, vmul(t, dv));
    v3 X1 = v3addt(X, one, e);
    v3 q0, q1;
    vf b0, b1, k0, k1;
    tri_nearest(X, T->V, T->E, T->m, T->ee, T->face_in, st0, T->n, &q0, &b0, &k0);
    tri_nearest(X1, T->V, T->E, T->m, T->ee, T->face_in, st1, T->n, &q1, &b1, &k1);
    /* the scalar's final face feet, and its dropped ones (not final: weak) */
    vm fin0 = mand(mconst(final), ct_face_final(k0, st0, st1));
    vm fin1 = mand(mconst(final), ct_face_final(k1, st1, st0));
    vm drop0 = mandnot(mand(mconst(final), veq(k0, face)), fin0);
    vm drop1 = mandnot(mand(mconst(final), veq(k1, face)), fin1);
    vm lt = vlt(b1, b0);
    vm upd = mandnot(mor(mor(fin1, mandnot(drop0, drop1)),
                         mor(mandnot(lt, drop1), mand(lt, drop0))),
                     fin0);
    vm weak = mor(mand(upd, drop1), mandnot(drop0, upd));
    vm fin = mor(fin0, fin1);
    v3 d = v3sel(upd, v3sub(X1, q1), v3sub(X, q0));
    *q = v3sel(upd, q1, q0);
    *best = vsel(upd, b1, b0);
    *kind = vsel(upd, k1, k0);
    *endface = veq(*kind, face);
    *st = vsel(upd, st1, st0);
    TOI_UNROLL
    for (int k = 0; k < 3; k++) {
        vf w;
        v3 dk = para_nearest_vec(&Pk[k], v, t, &w);
        vf bk = v3dot(dk, dk);
        /* the scalar's: replaces a choice on edge k, else when strictly nearer unless it
           is a vertex ending the chosen edge; never a final face foot */
        vm on_k = mor(veq(*kind, vset((float)(TOI_FEATURE_EDGE_AB + k))),
                      mor(veq(*kind, vset((float)(TOI_FEATURE_VERTEX_A + k))),
                          veq(*kind, vset((float)(TOI_FEATURE_VERTEX_A + (k + 1) % 3)))));
        vm w0 = veq(w, zero), w1 = veq(w, one);
        vm under = mor(mand(w0, veq(*kind, vset((float)(TOI_FEATURE_EDGE_AB + (k + 2) % 3)))),
                       mand(w1, veq(*kind, vset((float)(TOI_FEATURE_EDGE_AB + (k + 1) % 3)))));
        upd = mandnot(mor(on_k, mandnot(mor(vlt(bk, *best), weak), under)), fin);
        weak = mandnot(weak, upd);
        v3 qk = v3sel(w0, T->V[k], v3sel(w1, T->V[(k + 1) % 3], v3addt(T->V[k], w, T->E[k])));
        vf kk = vsel(w0, vset((float)(TOI_FEATURE_VERTEX_A + k)),
                     vsel(w1, vset((float)(TOI_FEATURE_VERTEX_A + (k + 1) % 3)),
                          vset((float)(TOI_FEATURE_EDGE_AB + k))));
        d = v3sel(upd, dk, d);
        *best = vsel(upd, bk, *best);
        *q = v3sel(upd, qk, *q);
        *kind = vsel(upd, kk, *kind);
        *endface = mandnot(*endface, upd);
    }
    vm cross = mand(T->face_in, mor(mand(vgt(st0, zero), vlt(st1, zero)),
                                    mand(vlt(st0, zero), vgt(st1, zero))));
    vf f = vdiv(st0, vsub(st0, st1));
    v3 Xc = v3addt(X, f, e);
    cross = mand(cross, tri_inside(Xc, T->V, T->m));
    d = v3sel(cross, (v3){zero, zero, zero}, d);
    *q = v3sel(cross, Xc, *q);
    *best = vsel(cross, zero, *best);
    *kind = vsel(cross, face, *kind);
    *endface = mandnot(*endface, cross);
    return d;
}

/* One capsule-triangle query per lane (capsule Cp, triangle Tw in world units) for the lanes
   of lane_ok; want as for tri_sweep_vec. Sets *c (t, and the rest when want = 2) and *cfeat
   (when want >= 1); returns the hit mask. */
TOI_VINLINE vm ct_sweep_vec(const vcap *Cpp, const vf Tw[9], vm lane_ok, vm all_overlaps,
                            vm cull_on, int want, vres *c, vf *cfeat)
{
    const vf zero = vzero(), one = vset(1.0f), inf = vset(INFINITY);
    const vf min_dir2 = vset(TOI_MIN_DIR2);
    const vcap Cp = *Cpp;
    v3 Vr[3];
    vf size = tri_relative(Cp.p0, Cp.v, Cp.r, Tw, Vr);
    v3 e = v3sub(Cp.p1, Cp.p0);
    vm point = mand(lane_ok, mand(mand(veq(e.x, zero), veq(e.y, zero)), veq(e.z, zero)));

    /* p0 = p1: the sphere query itself (computed when some lane is a point) */
    vres o;
    o.t = inf;
    o.nx = o.ny = o.nz = o.px = o.py = o.pz = o.depth = zero;
    vf feat = vset((float)TOI_FEATURE_NONE);
    vm hit = mconst(0);
    if (mbits(point))
        hit = tri_sweep_vec(Cp.p0, Cp.v, Cp.r, Tw, Vr, size, point, all_overlaps, cull_on, want,
                            &o, &feat);

    size = vadd(size, vadd(vadd(vabs(e.x), vabs(e.y)), vabs(e.z)));
    vm valid = mandnot(mand(lane_ok, mand(vlt(size, vset(TOI_MAX_SUM)), vge(Cp.r, zero))), point);
    vf s = vpow2_scale(size);
    vctri T;
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        T.V[k] = v3scale(s, Vr[k]);
    v3 v = v3scale(s, Cp.v);
    e = v3scale(s, e);
    vf r = vmul(Cp.r, s);
    vf S = vmul(size, s);
    if (vany_sub(size)) {
        vf s2 = vpow2_scale_sub(size, s);
        TOI_UNROLL
        for (int k = 0; k < 3; k++)
            T.V[k] = v3scale(s2, T.V[k]);
        v = v3scale(s2, v), e = v3scale(s2, e), r = vmul(r, s2), S = vmul(S, s2);
    }
    if (mbits(cull_on)) {
        vf Nw[3];
        vtri_normal(Tw, Tw + 3, Tw + 6, s, Nw);
        const v3 Nc = {Nw[0], Nw[1], Nw[2]};
        valid = mand(valid, vlt(v3dot(Nc, v), zero));
    }
    vf rr = vmul(r, r);
    vf a = v3dot(v, v);
    vf ees = v3dot(e, e);
    T.E[0] = v3sub(T.V[1], T.V[0]);
    T.E[1] = v3sub(T.V[2], T.V[1]);
    T.E[2] = v3sub(T.V[0], T.V[2]);
    vf Nf[3];
    {
        const vf Z[3] = {zero, zero, zero}, Eb[3] = {T.E[0].x, T.E[0].y, T.E[0].z},
                 Ec[3] = {vneg(T.E[2].x), vneg(T.E[2].y), vneg(T.E[2].z)};
        vtri_normal(Z, Eb, Ec, one, Nf);
    }
    v3 N = {Nf[0], Nf[1], Nf[2]};
    vf NN = v3dot(N, N);
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        T.ee[k] = v3dot(T.E[k], T.E[k]);
    vf eemax = vsel(vgt(T.ee[0], T.ee[1]), T.ee[0], T.ee[1]);
    eemax = vsel(vgt(T.ee[2], eemax), T.ee[2], eemax);
    T.face_ok = vge(NN, min_dir2);
    vf lenN = vsqrt(NN);
    T.face_in = mand(T.face_ok, vge(lenN, vmul(vset(TOI_THIN_FACE), eemax)));
    vf ninv = vdiv(one, lenN);
    T.n = (v3){vmul(N.x, ninv), vmul(N.y, ninv), vmul(N.z, ninv)};
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        T.m[k] = v3cross(N, T.E[k]);
    vf s0 = vneg(v3dot(T.V[0], T.n));
    vf s1 = vneg(v3dot(v3sub(T.V[0], e), T.n));
    vf dv = v3dot(v, T.n);
    const v3 O = {zero, zero, zero};
    vpara Pk[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++) { /* the scalar's edge_para */
        vpara *P = &Pk[k];
        const v3 V0 = T.V[k], V1 = T.V[(k + 1) % 3], E = T.E[k];
        P->C[0] = v3sub(O, V0);
        P->C[1] = v3sub(e, V0);
        P->C[2] = v3sub(O, V1);
        P->C[3] = v3sub(e, V1);
        P->ea = e;
        P->eb = E;
        P->nea = v3neg(E);
        P->eea = ees;
        P->eeb = T.ee[k];
        P->edges_b = vge(T.ee[k], min_dir2);
        const vf Ea[3] = {e.x, e.y, e.z}, Eb[3] = {E.x, E.y, E.z};
        vf Np[3];
        vtri_normal((const vf[3]){zero, zero, zero}, Ea, Eb, one, Np);
        P->N = (v3){Np[0], Np[1], Np[2]};
        P->NN = v3dot(P->N, P->N);
        P->face = para_has_face_vec(P->NN, ees, T.ee[k]);
        P->ma = v3cross(E, P->N);
        P->mb = v3cross(e, P->N);
    }

    /* apart at t = 0 beyond doubt (the scalar's clear): those lanes skip the t = 0 pair, and
       a vector whose valid lanes are all clear does not compute it */
    vf g = vadd(r, vmul(vset(TOI_BOX_MARGIN), S));
    vf ng = vneg(g);
    vm clear = mand(T.face_ok, mor(mand(vgt(s0, g), vgt(s1, g)), mand(vlt(s0, ng), vlt(s1, ng))));

    /* touching at t = 0, and approaching */
    v3 q;
    vf best, kind, st, b = zero;
    vm endface, overlap = mconst(0), approach = mconst(0);
    if (mbits(mandnot(valid, clear))) {
        v3 d0 = ct_nearest(O, e, v, zero, &T, Pk, s0, s1, dv, 0, &q, &best, &kind, &endface,
                           &st);
        overlap = mandnot(vle(vsub(best, rr), zero), clear);
        b = v3dot(d0, v);
        approach = mandnot(mand(vge(best, min_dir2), vlt(b, zero)), clear);
    }
    vm recede = mandnot(cap_recedes(b, a, S), clear);
    vm sep = mandnot(mandnot(valid, recede), overlap);

    /* the twenty pieces, for the blocks with a valid lane apart and not receding (no other
       lane's outputs depend on them) */
    vf tsep = inf;
    if (mbits(sep)) {
        v3 nv = v3neg(v);
        tsep = ct_end_ball_time(O, &T, v, a, r, rr);
        vf tk = ct_end_ball_time(e, &T, v, a, r, rr);
        tsep = vsel(vlt(tk, tsep), tk, tsep);
        TOI_UNROLL
        for (int k = 0; k < 3; k++) {
            tk = cap_cylinder_time(v3sub(O, T.V[k]), e, ees, nv, rr);
            tsep = vsel(vlt(tk, tsep), tk, tsep);
        }
        TOI_UNROLL
        for (int k = 0; k < 3; k++) {
            tk = para_face_time(&Pk[k], v, r);
            tsep = vsel(vlt(tk, tsep), tk, tsep);
        }
    }
    vm hit_ov = mand(overlap, mor(approach, all_overlaps));
    vm hit_sep = mand(sep, cap_apart_hit(&tsep, approach));
    vm chit = mand(valid, mor(hit_ov, hit_sep));
    vf t = vsel(overlap, zero, tsep);
    c->t = vsel(chit, t, inf);
    c->nx = c->ny = c->nz = c->px = c->py = c->pz = c->depth = zero;
    *cfeat = vset((float)TOI_FEATURE_NONE);
    if (want && mbits(chit)) {
        v3 X = {vmul(t, v.x), vmul(t, v.y), vmul(t, v.z)};
        X = v3sel(overlap, O, X); /* the scalar's origin at t = 0 */
        v3 d = ct_nearest(X, e, v, t, &T, Pk, s0, s1, dv, 1, &q, &best, &kind, &endface, &st);
        *cfeat = vsel(chit, kind, *cfeat);
        if (want == 2) {
            vf inv_s = vdiv(one, s);
            vf len = vsqrt(best);
            vf depth = vsub(r, len);
            if (vany_sub(size)) { /* the second factor of the rescale, undone first */
                vf inv_s2 = vpow2_unscale_sub(size);
                depth = vmul(depth, inv_s2), q = v3scale(inv_s2, q);
            }
            depth = vmul(depth, inv_s);
            depth = vsel(vgt(depth, zero), depth, zero);
            c->depth = vsel(mand(chit, overlap), depth, zero);
            vm back = vgt(dv, zero);
            v3 nrm = v3sel(T.face_ok, v3sel(back, v3neg(T.n), T.n),
                           (v3){vset(TOI_FALLBACK_NX), vset(TOI_FALLBACK_NY),
                                vset(TOI_FALLBACK_NZ)});
            vf inv = vdiv(one, len);
            nrm = v3sel(vge(best, min_dir2), (v3){vmul(d.x, inv), vmul(d.y, inv), vmul(d.z, inv)},
                        nrm);
            vm fc = mand(endface, mor(vgt(st, zero), vlt(st, zero)));
            nrm = v3sel(fc, v3sel(vgt(st, zero), T.n, v3neg(T.n)), nrm);
            c->nx = vsel(chit, nrm.x, zero);
            c->ny = vsel(chit, nrm.y, zero);
            c->nz = vsel(chit, nrm.z, zero);
            c->px = vsel(chit, vadd(Cp.p0.x, vmul(q.x, inv_s)), zero);
            c->py = vsel(chit, vadd(Cp.p0.y, vmul(q.y, inv_s)), zero);
            c->pz = vsel(chit, vadd(Cp.p0.z, vmul(q.z, inv_s)), zero);
        }
    }
    /* the point lanes from the sphere query, the others from the capsule's */
    if (mbits(point)) {
        c->t = vsel(point, o.t, c->t);
        if (want == 2) {
            c->nx = vsel(point, o.nx, c->nx);
            c->ny = vsel(point, o.ny, c->ny);
            c->nz = vsel(point, o.nz, c->nz);
            c->px = vsel(point, o.px, c->px);
            c->py = vsel(point, o.py, c->py);
            c->pz = vsel(point, o.pz, c->pz);
            c->depth = vsel(point, o.depth, c->depth);
        }
        *cfeat = vsel(point, feat, *cfeat);
    }
    return mor(mand(point, hit), chit);
}

/* ct_sweep_vec out of line, for the per-query batch blocks and the set and mesh winners'
   outputs: one copy serves every block shape, where inlining made eight copies of its body
   (avx2: half a megabyte of code, and most of the library's compile time, under sanitizers
   minutes per file). The set scan and the mesh leaves, the hot loops, inline it with want = 0. */
static __attribute__((noinline)) vm ct_sweep_call(const vcap *Cp, const vf Tw[9], vm lane_ok,
                                                 vm all_overlaps, vm cull_on, int want,
                                                 vres *c, vf *cfeat)
{
    return ct_sweep_vec(Cp, Tw, lane_ok, all_overlaps, cull_on, want, c, cfeat);
}

TOI_VINLINE size_t capsule_triangle_block(const toi_capsules *Cs, const toi_triangles *Ts,
                                          vm all_overlaps, vm cull_on, const toi_hits *out,
                                          size_t i, size_t cnt, int full)
{
    const int want = full ? 2 : out->feature != NULL;
    const vcap Cp = vcap_load(Cs, i, cnt);
    const float *const ts[9] = TOI_TRI_FIELDS(Ts);
    vf Tw[9];
    for (int k = 0; k < 9; k++)
        Tw[k] = vload_n(ts[k] + i, cnt);
    vres c;
    vf feat;
    vm hit = ct_sweep_call(&Cp, Tw, mconst(1), all_overlaps, cull_on, want, &c, &feat);
    vstore_res(out, i, &c, cnt, full);
    if (out->feature)
        store_feature(out->feature + i, feat, cnt);
    return vcount_n(hit, cnt);
}

size_t TOI_FN(sweep_capsules_triangles)(size_t n, const toi_capsules *C,
                                        const toi_triangles *T, unsigned flags,
                                        const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const vm cull_on = mconst((flags & TOI_CULL_BACKFACES) != 0);
    const int full = toi_wants_full(out);
    const toi_capsules c = *C; /* local copies: vector stores may alias anything */
    const toi_triangles tri = *T;
    const toi_hits o = *out;
    size_t hits = 0;
#define BLOCK(i, cnt, f) capsule_triangle_block(&c, &tri, all_overlaps, cull_on, &o, i, cnt, f)
    TOI_BATCH(n, full, BLOCK);
#undef BLOCK
    return vdone(hits);
}

/* One capsule as floats: p0, p1, r, and its displacement and segment p1 - p0 in world units
   (a mesh walk keeps its capsule so, broadcast at each leaf: eight walks' vectors would take a
   few KB more of the stack). */
typedef struct capsule_floats {
    float p0[3], p1[3], r, v[3], e[3];
} capsule_floats;

/* Capsule i's floats. */
TOI_VINLINE capsule_floats capsule_floats_of(const toi_capsules *C, size_t i)
{
    return (capsule_floats){{C->x0[i], C->y0[i], C->z0[i]},
                            {C->x1[i], C->y1[i], C->z1[i]},
                            C->r[i],
                            {C->vx[i], C->vy[i], C->vz[i]},
                            {C->x1[i] - C->x0[i], C->y1[i] - C->y0[i], C->z1[i] - C->z0[i]}};
}

/* The capsule broadcast to every lane. */
TOI_VINLINE vcap capsule_broadcast(const capsule_floats *c)
{
    return (vcap){{vset(c->p0[0]), vset(c->p0[1]), vset(c->p0[2])},
                  {vset(c->p1[0]), vset(c->p1[1]), vset(c->p1[2])},
                  {vset(c->v[0]), vset(c->v[1]), vset(c->v[2])},
                  vset(c->r)};
}

/* A capsule set query: the capsule broadcast, the flags, and its displacement and
   segment p1 - p0 in world units. */
typedef struct capsule_q {
    vcap Cp;
    vm all_overlaps, cull_on;
    float v[3], e[3];
} capsule_q;

/* Capsule i's query. */
TOI_VINLINE capsule_q capsule_q_make(const toi_capsules *C, size_t i, vm all_overlaps,
                                     vm cull_on)
{
    const capsule_floats c = capsule_floats_of(C, i);
    return (capsule_q){capsule_broadcast(&c),
                       all_overlaps,
                       cull_on,
                       {c.v[0], c.v[1], c.v[2]},
                       {c.e[0], c.e[1], c.e[2]}};
}

/* The lanes of lane_ok whose triangle (Tv) the capsule Cp (displacement v and segment
   e = p1 - p0 in world units, as floats) could hit at a time <= tb: the sphere set's box and
   plane tests (tri_box_live, tri_plane_live) with the path stretched by the segment and the
   capsule kernel's size (ct_sweep_vec's: the sphere's plus |e|_1), so a rejected triangle is
   one the kernel could not find a hit with by then. */
TOI_VINLINE vm capsule_live(const vcap *Cp, const float v[3], const float e[3], const vf Tv[9],
                            float tb, vm lane_ok)
{
    v3 Vr[3];
    vf size = tri_relative(Cp->p0, Cp->v, Cp->r, Tv, Vr);
    const v3 ev = v3sub(Cp->p1, Cp->p0);
    size = vadd(size, vadd(vadd(vabs(ev.x), vabs(ev.y)), vabs(ev.z)));
    vm live = tri_box_live(Vr, size, Cp->r, tb, v[0], v[1], v[2], e, lane_ok);
    if (mbits(live))
        live = tri_plane_live(Vr, size, Cp->r, tb, v[0], v[1], v[2], e, live);
    return live;
}

/* The capsule queries' queue (capsules in; tri_sweep.h) recomputed and stored. */
static inline void capsule_win_flush(win_queue *w, const void *in, vm all_overlaps,
                                     vm cull_on, const toi_hits *out, int full)
{
    const toi_capsules *C = in;
    if (!w->n)
        return;
    vf Tv[9];
    win_queue_load(w, Tv);
    const vcap Cp = vcap_gather(C, w->q, VW);
    vres r;
    vf feat = vset((float)TOI_FEATURE_NONE);
    ct_sweep_call(&Cp, Tv, mconst(1), all_overlaps, cull_on, full ? 2 : 1, &r, &feat);
    win_queue_store(w, out, &r, feat, full);
}

/* The set scan's kernel, t alone, on lanes live (capsules Cp against triangles Tv): one copy
   out of line for the scan's whole vectors (capsule_set_packed: the capsule broadcast) and
   the shared tail's (cap_tail_run: each lane's own capsule). */
static __attribute__((noinline)) vm capsule_set_kernel(const vcap *Cp, const vf Tv[9], vm live,
                                                      vm all_overlaps, vm cull_on, vf *t)
{
    vres r;
    vf feat;
    vm hit = ct_sweep_vec(Cp, Tv, live, all_overlaps, cull_on, 0, &r, &feat);
    *t = r.t;
    return hit;
}

/* The set scan's packed vector: triangles idx[0 .. cnt) (increasing) that capsule_live kept
   by the best time then (tq: the loosest of those times), tested again when the best time is
   now earlier; each lane keeps its first strictly earlier t with its index (set_best_keep).
   Out of line: the scan's loop stays small, and the kernel has one copy. */
static __attribute__((noinline)) void capsule_set_packed(const void *qv,
                                                         const float *const ts[9],
                                                         const uint32_t *idx, size_t cnt,
                                                         float tq, set_best *sb)
{
    const capsule_q *q = qv;
    const vcap *Cp = &q->Cp;
    uint32_t g[VW];
    vf Tv[9];
    tri_set_gather(ts, idx, cnt, g, Tv);
    vm live = vlt(lane_ids(), vset((float)cnt));
    float tb = sb->best < 1.0f ? sb->best : 1.0f;
    if (tb < tq) {
        live = capsule_live(Cp, q->v, q->e, Tv, tb, live);
        if (!mbits(live))
            return;
    }
    vf t;
    vm hit = capsule_set_kernel(Cp, Tv, live, q->all_overlaps, q->cull_on, &t);
    set_best_keep(sb, hit, t, g);
}

/* The set scan's live test (set_live_fn; q a capsule_q). */
TOI_VINLINE vm capsule_scan_live(const void *qv, const vf Tv[9], float tb, vm lane_ok)
{
    const capsule_q *q = qv;
    return capsule_live(&q->Cp, q->v, q->e, Tv, tb, lane_ok);
}

/* The capsule set's shared tail. A capsule's scan runs whole vectors of kept triangles; the
   fewer than VW it keeps after the last of them go here, behind the previous capsules' own,
   and are computed VW at a time, each lane with its own capsule, where each capsule ran them
   alone in a part-empty vector (on the bench's set, avx2: 1.29 kernel vectors a capsule for
   8.0 kept triangles). A capsule is pending from the end of its scan until its last entry is
   computed, with its winner so far (win, bt); an entry's hit replaces it when earlier, or as
   early with a lower index. So the winner is the least (t, index) of its triangles' hits, the
   one its scan's lanes would have found (set_lanes_winner), and each lane's t is the one its
   capsule broadcast gave: the scalar's winner. */
typedef struct cap_tail {
    uint32_t slot[2 * VW], tri[2 * VW]; /* entries: pending capsule, triangle */
    size_t n;
    uint32_t q[VW];   /* pending capsules: index (a call has at most TOI_RUN, api.c), */
    uint32_t win[VW]; /* its winner so far and that winner's time */
    float bt[VW];
    size_t np;
} cap_tail;

/* The tail's first cnt entries computed (lanes past cnt repeat entry 0, left out), each hit
   offered to its capsule's winner. Out of line: the scan's loop stays small. */
static __attribute__((noinline)) void cap_tail_run(cap_tail *tl, size_t cnt,
                                                   const toi_capsules *C,
                                                   const float *const ts[9], vm all_overlaps,
                                                   vm cull_on)
{
    uint32_t cs[VW], g[VW];
    for (size_t k = 0; k < VW; k++) {
        const size_t e = k < cnt ? k : 0;
        cs[k] = tl->q[tl->slot[e]];
        g[k] = tl->tri[e];
    }
    const vcap Cp = vcap_gather(C, cs, VW);
    vf Tv[9];
    for (int k = 0; k < 9; k++)
        Tv[k] = vgather(ts[k], g);
    vf t;
    vm hit = capsule_set_kernel(&Cp, Tv, vlt(lane_ids(), vset((float)cnt)), all_overlaps, cull_on,
                                &t);
    float tt[VW];
    for (unsigned bits = hit_lanes(hit, t, tt); bits; bits &= bits - 1) {
        const unsigned k = (unsigned)__builtin_ctz(bits);
        const uint32_t s = tl->slot[k];
        if (tt[k] < tl->bt[s] || (tt[k] == tl->bt[s] && g[k] < tl->win[s])) {
            tl->bt[s] = tt[k];
            tl->win[s] = g[k];
        }
    }
}

/* The tail's first np pending capsules finished: their winners offered (set_offer). */
static inline size_t cap_tail_end(const cap_tail *tl, size_t np, const toi_capsules *C,
                                  const float *const ts[9], vm all_overlaps, vm cull_on,
                                  const toi_hits *out, int full, win_queue *wq)
{
    size_t hits = 0;
    for (size_t s = 0; s < np; s++)
        hits += set_offer(tl->win[s], tl->bt[s], ts, tl->q[s], wq, capsule_win_flush, C,
                          all_overlaps, cull_on, out, full);
    return hits;
}

/* Capsule i, its scan done with winner win (time bt), pending with its cnt (> 0, < VW) kept
   triangles tri; a whole vector of entries computed when there is one, and the capsules it
   finishes offered. At most VW capsules pend: each has an entry among the fewer than VW. */
static inline size_t cap_tail_add(cap_tail *tl, size_t i, uint32_t win, float bt,
                                  const uint32_t *tri, size_t cnt, const toi_capsules *C,
                                  const float *const ts[9], vm all_overlaps, vm cull_on,
                                  const toi_hits *out, int full, win_queue *wq)
{
    const uint32_t s = (uint32_t)tl->np++;
    tl->q[s] = (uint32_t)i;
    tl->win[s] = win;
    tl->bt[s] = bt;
    for (size_t k = 0; k < cnt; k++) {
        tl->slot[tl->n] = s;
        tl->tri[tl->n++] = tri[k];
    }
    if (tl->n < VW)
        return 0;
    cap_tail_run(tl, VW, C, ts, all_overlaps, cull_on);
    /* the entries left are capsule i's: it stays pending, the others are done */
    const size_t left = tl->n - VW;
    size_t hits = cap_tail_end(tl, left ? s : tl->np, C, ts, all_overlaps, cull_on, out, full,
                               wq);
    tl->np = 0;
    if (left) {
        tl->q[0] = tl->q[s];
        tl->win[0] = tl->win[s];
        tl->bt[0] = tl->bt[s];
        tl->np = 1;
        for (size_t k = 0; k < left; k++) {
            tl->slot[k] = 0;
            tl->tri[k] = tl->tri[VW + k];
        }
    }
    tl->n = left;
    return hits;
}

/* Capsule i against the whole set: the scan's whole vectors (set_scan_whole: its live test
   is capsule_live; on the bench's set about one triangle in nine is kept), then the kept
   triangles left, tested again when the best time is earlier than when they were kept (as
   capsule_set_packed does), to the shared tail; its winner offered (set_offer) now when none
   are left, else when the tail has computed them. */
TOI_VINLINE size_t capsule_set_one(const toi_capsules *C, size_t i, size_t ntris,
                                   const float *const ts[9], vm all_overlaps, vm cull_on,
                                   const toi_hits *out, int full, win_queue *wq, cap_tail *tl)
{
    const capsule_q q = capsule_q_make(C, i, all_overlaps, cull_on);
    set_best sb;
    uint32_t queue[2 * VW];
    float qtb[2 * VW];
    size_t nq = set_scan_whole(&q, ts, ntris, capsule_scan_live, capsule_set_packed, &sb, queue,
                               qtb);
    const float tb = sb.best < 1.0f ? sb.best : 1.0f;
    if (nq && tb < qtb[0]) {
        uint32_t g[VW];
        vf Tv[9];
        tri_set_gather(ts, queue, nq, g, Tv);
        unsigned bits = mbits(capsule_live(&q.Cp, q.v, q.e, Tv, tb,
                                           vlt(lane_ids(), vset((float)nq))));
        for (nq = 0; bits; bits &= bits - 1)
            queue[nq++] = g[__builtin_ctz(bits)];
    }
    float bt;
    const uint32_t win = set_lanes_winner(sb.lane_best, sb.lane_idx, &bt);
    if (!nq)
        return set_offer(win, bt, ts, i, wq, capsule_win_flush, C, all_overlaps, cull_on, out,
                         full);
    return cap_tail_add(tl, i, win, bt, queue, nq, C, ts, all_overlaps, cull_on, out, full, wq);
}

size_t TOI_FN(sweep_capsules_triangle_set)(size_t n, const toi_capsules *C, size_t ntris,
                                           const toi_triangles *T, unsigned flags,
                                           const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const vm cull_on = mconst((flags & TOI_CULL_BACKFACES) != 0);
    const int full = toi_wants_full(out);
    const float *const ts[9] = TOI_TRI_FIELDS(T);
    size_t hits = 0;
    win_queue wq = {.n = 0};
    cap_tail tl = {.n = 0, .np = 0};
    for (size_t i = 0; i < n; i++)
        hits += capsule_set_one(C, i, ntris, ts, all_overlaps, cull_on, out, full, &wq, &tl);
    if (tl.n)
        cap_tail_run(&tl, tl.n, C, ts, all_overlaps, cull_on);
    hits += cap_tail_end(&tl, tl.np, C, ts, all_overlaps, cull_on, out, full, &wq);
    capsule_win_flush(&wq, C, all_overlaps, cull_on, out, full);
    return vdone(hits);
}

/* Which triangles of a leaf the capsule (ctx) could hit by tb: the set scan's tests
   (capsule_live), VW triangles at a time. */
static unsigned capsule_leaf_live(const void *ctx, const toi_mesh *m, uint32_t ref, uint32_t cnt,
                                  float tb)
{
    const capsule_floats *c = ctx;
    const vcap Cp = capsule_broadcast(c);
    unsigned bits = 0;
    for (uint32_t j = 0; j < cnt; j += VW) {
        vf Tv[9];
        vm lane_ok = mesh_leaf_load(m, ref, cnt, j, Tv);
        bits |= mbits(capsule_live(&Cp, c->v, c->e, Tv, tb, lane_ok)) << j;
    }
    return bits;
}

/* The kernel on a packed vector of the walks' kept triangles, each lane's own capsule. */
static vm capsule_leaf_kernel(const mesh_batch *Q, const uint32_t query[VW], const vf Tv[9],
                              vm live, vf *t)
{
    const vcap Cp = vcap_gather(Q->in, query, VW);
    return capsule_set_kernel(&Cp, Tv, live, Q->all_overlaps, Q->cull_on, t);
}

/* Capsule i's stretched path (mesh.h, toi_mesh_ray_capsule) and leaf context; 0 when it
   walks no mesh (toi_mesh_capsule_ok). */
static inline int capsule_mesh_begin(const mesh_batch *Q, size_t i, toi_mesh_ray *q,
                                     void *ctx)
{
    const toi_capsules *C = Q->in;
    capsule_floats *c = ctx;
    *c = capsule_floats_of(C, i);
    if (!toi_mesh_capsule_ok(c->p0, c->p1, c->v, c->r))
        return 0;
    *q = toi_mesh_ray_capsule(c->p0, c->e, c->v, c->r);
    return 1;
}

/* Each capsule down the mesh (simd/mesh_walk.h) with its stretched path and this kernel in
   the leaves: the set query's winner, bit for bit, and the scalar's visit. */
size_t TOI_FN(sweep_capsules_mesh)(size_t n, const toi_capsules *C, const toi_mesh *m,
                                   unsigned flags, const toi_hits *out, toi_cost *cost)
{
    win_queue wq;
    const mesh_batch Q = mesh_batch_make(C, m, flags, out, &wq, capsule_win_flush);
    capsule_floats ctx[TOI_MESH_PACK_WALKS];
    return vdone(mesh_walk_packed(n, &Q, 1, ctx, sizeof ctx[0], capsule_mesh_begin,
                                  capsule_leaf_live, capsule_leaf_kernel, cost));
}
