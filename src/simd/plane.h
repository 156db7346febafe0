/* simd/plane.h - sphere-plane sweep kernel body, written once over the vector layer.
   Included by src/<isa>/plane.c after that backend's vec.h; the same operations in the same
   order as the scalar reference (src/scalar/plane.c), branch-free across VW spheres. */
#include "common.h"

typedef struct plane_vec {
    vf nx, ny, nz, d;
    vm ok; /* the plane is finite */
} plane_vec;

TOI_VINLINE size_t plane_block(const toi_spheres *S, const plane_vec *P, vm all_overlaps,
                               const toi_hits *out, size_t i, size_t cnt, int full,
                               int want_exit)
{
    const vf zero = vzero();
    const vsph s = vsph_load(S, i, cnt);
    const vf x = s.x, y = s.y, z = s.z, vx = s.vx, vy = s.vy, vz = s.vz, r = s.r;

    vf s0 = vsub(vadd(vadd(vmul(P->nx, x), vmul(P->ny, y)), vmul(P->nz, z)), P->d);
    vf sv = vadd(vadd(vmul(P->nx, vx), vmul(P->ny, vy)), vmul(P->nz, vz));
    /* x - x is 0 for finite x, NaN otherwise; s0 and sv are finite only if c and v are */
    vf finite = vadd(vadd(vsub(s0, s0), vsub(sv, sv)), vsub(r, r));
    vm valid = mand(P->ok, mand(veq(finite, zero), vge(r, zero)));
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
        vf st = vadd(s0, vmul(t, sv)); /* signed distance at t */
        o.nx = vsel(hit, P->nx, zero);
        o.ny = vsel(hit, P->ny, zero);
        o.nz = vsel(hit, P->nz, zero);
        o.px = vsel(hit, vsub(vadd(x, vmul(t, vx)), vmul(st, P->nx)), zero);
        o.py = vsel(hit, vsub(vadd(y, vmul(t, vy)), vmul(st, P->ny)), zero);
        o.pz = vsel(hit, vsub(vadd(z, vmul(t, vz)), vmul(st, P->nz)), zero);
        vf depth = vsub(r, s0);
        depth = vsel(vgt(depth, zero), depth, zero);
        o.depth = vsel(mand(hit, overlap), depth, zero);
    }
    vstore_res(out, i, &o, cnt, full);
    if (want_exit)
        vstore_n(out->t_exit + i,
                 plane_exit_vec(P->nx, P->ny, P->nz, vx, vy, vz, r, s0, sv, tsep, hit), cnt);
    return vcount_n(hit, cnt);
}

size_t TOI_FN(sweep_spheres_plane)(size_t n, const toi_spheres *S, const toi_plane *plane,
                                   unsigned flags, const toi_hits *out)
{
#if defined(TOI_NARROW_MAX) /* small batches on narrower vectors (the layer says why) */
    if (n <= TOI_NARROW_MAX)
        return TOI_NARROW(sweep_spheres_plane)(n, S, plane, flags, out);
#endif
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const int full = toi_wants_full(out);
    const plane_vec P = {vset(plane->nx), vset(plane->ny), vset(plane->nz), vset(plane->d),
                         mconst(toi_plane_ok(plane))};
    const toi_spheres s = *S; /* local copies: vector stores may alias anything */
    const toi_hits o = *out;
    size_t hits = 0;
#define BLOCK(i, cnt, f, x) plane_block(&s, &P, all_overlaps, &o, i, cnt, f, x)
    TOI_BATCH_EXIT(n, full, o.t_exit != NULL, BLOCK);
#undef BLOCK
    return vdone(hits);
}
