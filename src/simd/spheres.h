/* simd/spheres.h - sphere-sphere sweep kernel body, written once over the vector layer.
   Included by src/<isa>/spheres.c after that backend's vec.h. It performs the scalar
   reference's operations (src/scalar/spheres.c, where the method is explained) in the same
   order, branch-free across VW pairs, so every lane's result is bit-identical to it. */
#include "common.h"

/* The larger root of a t^2 + 2 b t + c = 0, stable for each sign of b (the scalar's
   larger_root); sq = sqrt(disc). */
TOI_VINLINE vf larger_root_vec(vf a, vf b, vf c, vf disc, vf sq)
{
    const vf zero = vzero();
    vf sd = vsel(vgt(disc, zero), sq, zero);
    vm bneg = vle(b, zero);
    return vdiv(vsel(bneg, vsub(sd, b), c), vsel(bneg, a, vsub(vneg(b), sd)));
}

/* Exit times of the hit lanes (the scalar's sphere_exit), TOI_NO_HIT elsewhere. The rescaled
   solve for tiny relative motion runs only when a hit lane needs it. */
TOI_VINLINE vf sphere_exit_vec(vf lx, vf ly, vf lz, vf vx, vf vy, vf vz, vf a, vf b, vf c,
                               vf RR, vf disc, vf sq, vf t, vm hit)
{
    const vf zero = vzero();
    vm big = vge(a, vset(TOI_EXIT_MIN_A));
    vf te = larger_root_vec(a, b, c, disc, sq);
    if (mbits(mandnot(hit, big))) {
        vf k = vpow2_scale(vadd(vadd(vabs(vx), vabs(vy)), vabs(vz)));
        vf wx = vmul(vx, k), wy = vmul(vy, k), wz = vmul(vz, k);
        vf a2 = vadd(vadd(vmul(wx, wx), vmul(wy, wy)), vmul(wz, wz));
        vf b2 = vadd(vadd(vmul(lx, wx), vmul(ly, wy)), vmul(lz, wz));
        vf cx = vsub(vmul(ly, wz), vmul(lz, wy));
        vf cy = vsub(vmul(lz, wx), vmul(lx, wz));
        vf cz = vsub(vmul(lx, wy), vmul(ly, wx));
        vf disc2 = vsub(vmul(a2, RR), vadd(vadd(vmul(cx, cx), vmul(cy, cy)), vmul(cz, cz)));
        vf te2 = vmul(larger_root_vec(a2, b2, c, disc2, vsqrt(disc2)), k);
        te2 = vsel(veq(a2, zero), vset(INFINITY), te2);
        te = vsel(big, te, te2);
    }
    te = vsel(vgt(te, t), te, t);
    return vsel(hit, te, vset(TOI_NO_HIT));
}

/* VW pairs: sphere A against sphere B. With texit, also the exit times. */
TOI_VINLINE vm sweep_pair_vec(vsph A, vsph B, vm all_overlaps, int full, vres *o, vf *texit)
{
    const vf zero = vzero();
    vf lx = vsub(A.x, B.x), ly = vsub(A.y, B.y), lz = vsub(A.z, B.z);
    vf vx = vsub(A.vx, B.vx), vy = vsub(A.vy, B.vy), vz = vsub(A.vz, B.vz);
    vf R = vadd(A.r, B.r);

    /* size = ((|lx| + |ly|) + |lz|) + ((|vx| + |vy|) + |vz|) + R; non-finite -> invalid */
    vf size = vadd(vadd(vadd(vabs(lx), vabs(ly)), vabs(lz)),
                   vadd(vadd(vabs(vx), vabs(vy)), vabs(vz)));
    size = vadd(size, R);
    vm valid = mand(vlt(size, vset(TOI_MAX_SUM)), mand(vge(A.r, zero), vge(B.r, zero)));

    vf s = vpow2_scale(size); /* exact rescale to size ~1 */
    lx = vmul(lx, s), ly = vmul(ly, s), lz = vmul(lz, s);
    vx = vmul(vx, s), vy = vmul(vy, s), vz = vmul(vz, s);
    R = vmul(R, s);
    if (vany_sub(size)) { /* a size below FLT_MIN: on to [1, 2) */
        vf s2 = vpow2_scale_sub(size, s);
        lx = vmul(lx, s2), ly = vmul(ly, s2), lz = vmul(lz, s2);
        vx = vmul(vx, s2), vy = vmul(vy, s2), vz = vmul(vz, s2);
        R = vmul(R, s2);
    }

    vf a = vadd(vadd(vmul(vx, vx), vmul(vy, vy)), vmul(vz, vz));    /* v.v */
    vf b = vadd(vadd(vmul(lx, vx), vmul(ly, vy)), vmul(lz, vz));    /* l.v */
    vf ll = vadd(vadd(vmul(lx, lx), vmul(ly, ly)), vmul(lz, lz));   /* l.l */
    vf RR = vmul(R, R);
    vf c = vsub(ll, RR);
    vf cx = vsub(vmul(ly, vz), vmul(lz, vy));                       /* l x v */
    vf cy = vsub(vmul(lz, vx), vmul(lx, vz));
    vf cz = vsub(vmul(lx, vy), vmul(ly, vx));
    vf disc = vsub(vmul(a, RR), vadd(vadd(vmul(cx, cx), vmul(cy, cy)), vmul(cz, cz)));

    vm overlap = vle(c, zero);         /* touching at t = 0 */
    vm approach = vlt(b, zero);        /* f'(0) < 0 */
    vf sq = vsqrt(disc);
    vf q = vsub(sq, b);
    vf tsep = vdiv(c, q);              /* first root, stable form */
    vm hit_ov = mand(overlap, mor(approach, all_overlaps));
    vm hit_sep = mand(mandnot(approach, overlap), mand(vge(disc, zero), vle(tsep, vset(1.0f))));
    vm hit = mand(valid, mor(hit_ov, hit_sep));
    vf t = vsel(overlap, zero, tsep);
    o->t = vsel(hit, t, vset(TOI_NO_HIT));
    if (texit)
        *texit = sphere_exit_vec(lx, ly, lz, vx, vy, vz, a, b, c, RR, disc, sq, t, hit);
    if (!full)
        return hit;

    /* Normal: from B's centre toward A's at time t (scaled units), fallback if coincident. */
    vf dx = vadd(lx, vmul(t, vx)), dy = vadd(ly, vmul(t, vy)), dz = vadd(lz, vmul(t, vz));
    vf dd = vadd(vadd(vmul(dx, dx), vmul(dy, dy)), vmul(dz, dz));
    vf len = vsqrt(dd);
    vf inv = vdiv(vset(1.0f), len);
    vm dir = vge(dd, vset(TOI_MIN_DIR2));
    vf nx = vsel(dir, vmul(dx, inv), vset(TOI_FALLBACK_NX));
    vf ny = vsel(dir, vmul(dy, inv), vset(TOI_FALLBACK_NY));
    vf nz = vsel(dir, vmul(dz, inv), vset(TOI_FALLBACK_NZ));
    o->nx = vsel(hit, nx, zero);
    o->ny = vsel(hit, ny, zero);
    o->nz = vsel(hit, nz, zero);
    /* Point: on B's surface toward A, in world units. */
    o->px = vsel(hit, vadd(vadd(B.x, vmul(t, B.vx)), vmul(nx, B.r)), zero);
    o->py = vsel(hit, vadd(vadd(B.y, vmul(t, B.vy)), vmul(ny, B.r)), zero);
    o->pz = vsel(hit, vadd(vadd(B.z, vmul(t, B.vz)), vmul(nz, B.r)), zero);
    /* Depth: R - |l| back in world units, never negative. */
    vf depth = vunscale(vsub(R, len), size);
    depth = vsel(vgt(depth, zero), depth, zero);
    o->depth = vsel(mand(hit, overlap), depth, zero);
    return hit;
}

/* want_exit, like full, is a compile-time constant in each copy of the batch loop. */
TOI_VINLINE size_t spheres_block(const toi_spheres *A, const toi_spheres *B, vm all_overlaps,
                                 const toi_hits *out, size_t i, size_t cnt, int full,
                                 int want_exit)
{
    vres r;
    vf te;
    vm hit = sweep_pair_vec(vsph_load(A, i, cnt), vsph_load(B, i, cnt), all_overlaps, full, &r,
                            want_exit ? &te : NULL);
    vstore_res(out, i, &r, cnt, full);
    if (want_exit)
        vstore_n(out->t_exit + i, te, cnt);
    return vcount_n(hit, cnt);
}

size_t TOI_FN(sweep_spheres)(size_t n, const toi_spheres *A, const toi_spheres *B,
                             unsigned flags, const toi_hits *out)
{
#if defined(TOI_NARROW_MAX) /* small batches on narrower vectors (the layer says why) */
    if (n <= TOI_NARROW_MAX)
        return TOI_NARROW(sweep_spheres)(n, A, B, flags, out);
#endif
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const int full = toi_wants_full(out);
    /* local copies: the vector stores may alias anything, so the pointers would otherwise be
       reloaded from the caller's structs after every store */
    const toi_spheres a = *A, b = *B;
    const toi_hits o = *out;
    size_t hits = 0;
#define BLOCK(i, cnt, f, x) spheres_block(&a, &b, all_overlaps, &o, i, cnt, f, x)
    TOI_BATCH_EXIT(n, full, o.t_exit != NULL, BLOCK);
#undef BLOCK
    return vdone(hits);
}

TOI_VINLINE size_t pairs_block(const uint32_t *ia, const uint32_t *ib, const toi_spheres *S,
                               vm all_overlaps, const toi_hits *out, size_t i, size_t cnt,
                               int full, int want_exit)
{
    vres r;
    vf te;
    vm hit = sweep_pair_vec(vsph_gather(S, ia + i, cnt), vsph_gather(S, ib + i, cnt),
                            all_overlaps, full, &r, want_exit ? &te : NULL);
    vstore_res(out, i, &r, cnt, full);
    if (want_exit)
        vstore_n(out->t_exit + i, te, cnt);
    return vcount_n(hit, cnt);
}

size_t TOI_FN(sweep_sphere_pairs)(size_t n, const uint32_t *ia, const uint32_t *ib,
                                  const toi_spheres *S, unsigned flags, const toi_hits *out)
{
#if defined(TOI_NARROW_MAX)
    if (n <= TOI_NARROW_MAX)
        return TOI_NARROW(sweep_sphere_pairs)(n, ia, ib, S, flags, out);
#endif
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const int full = toi_wants_full(out);
    const toi_spheres s = *S; /* local copies, as above */
    const toi_hits o = *out;
    size_t hits = 0;
#define BLOCK(i, cnt, f, x) pairs_block(ia, ib, &s, all_overlaps, &o, i, cnt, f, x)
    TOI_BATCH_EXIT(n, full, o.t_exit != NULL, BLOCK);
#undef BLOCK
    return vdone(hits);
}
