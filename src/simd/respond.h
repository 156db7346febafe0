/* simd/respond.h - collision response kernel body, written once over the vector layer.
   Included by src/<isa>/respond.c after that backend's vec.h; the same operations in the same
   order as the scalar reference (src/scalar/respond.c), with both branches of each choice
   computed and the result selected per lane. */
#include "common.h"

typedef struct vec3 {
    vf x, y, z;
} vec3;

/* w reflected about n where w.n < 0 (normal part reversed and scaled by e, tangential part
   scaled by kt); unchanged elsewhere, as in the reference. */
TOI_VINLINE vec3 reflect(vec3 w, vec3 n, vf e, vf kt)
{
    vf wn = vadd(vadd(vmul(w.x, n.x), vmul(w.y, n.y)), vmul(w.z, n.z));
    vm into = vlt(wn, vzero());
    vf en = vmul(e, wn);
    vec3 r;
    r.x = vsel(into, vsub(vmul(vsub(w.x, vmul(wn, n.x)), kt), vmul(en, n.x)), w.x);
    r.y = vsel(into, vsub(vmul(vsub(w.y, vmul(wn, n.y)), kt), vmul(en, n.y)), w.y);
    r.z = vsel(into, vsub(vmul(vsub(w.z, vmul(wn, n.z)), kt), vmul(en, n.z)), w.z);
    return r;
}

/* 0 * a is 0 for every finite a and NaN otherwise. */
TOI_VINLINE vm finite3(vec3 a)
{
    const vf zero = vzero();
    vf s = vadd(vadd(vmul(a.x, zero), vmul(a.y, zero)), vmul(a.z, zero));
    return veq(s, zero);
}

TOI_VINLINE size_t respond_block(const toi_motion *m, const toi_hits *h, vf e, vf kt,
                                 size_t i, size_t cnt, int vel)
{
    const vf zero = vzero(), one = vset(1.0f);
    vec3 p = {vload_n(m->x + i, cnt), vload_n(m->y + i, cnt), vload_n(m->z + i, cnt)};
    vec3 v = {vload_n(m->vx + i, cnt), vload_n(m->vy + i, cnt), vload_n(m->vz + i, cnt)};
    vec3 u = {zero, zero, zero};
    if (vel)
        u = (vec3){vload_n(m->ux + i, cnt), vload_n(m->uy + i, cnt), vload_n(m->uz + i, cnt)};
    vf t = vload_n(h->t + i, cnt);
    vm hit = mand(vge(t, zero), vle(t, one));
    vec3 n = {vload_n(h->nx + i, cnt), vload_n(h->ny + i, cnt), vload_n(h->nz + i, cnt)};
    vf d = h->depth ? vload_n(h->depth + i, cnt) : zero;
    d = vsel(vlt(d, zero), zero, d); /* NaN stays NaN: that sphere is then left unchanged */

    /* hit: the contact position pushed out along the normal, the rest of the step reflected */
    vec3 ph = {vadd(vadd(p.x, vmul(t, v.x)), vmul(d, n.x)),
               vadd(vadd(p.y, vmul(t, v.y)), vmul(d, n.y)),
               vadd(vadd(p.z, vmul(t, v.z)), vmul(d, n.z))};
    vf s = vsub(one, t);
    vec3 vh = reflect((vec3){vmul(s, v.x), vmul(s, v.y), vmul(s, v.z)}, n, e, kt);
    /* miss: the whole displacement, none left */
    vec3 np = {vsel(hit, ph.x, vadd(p.x, v.x)), vsel(hit, ph.y, vadd(p.y, v.y)),
               vsel(hit, ph.z, vadd(p.z, v.z))};
    vec3 nv = {vsel(hit, vh.x, zero), vsel(hit, vh.y, zero), vsel(hit, vh.z, zero)};
    vec3 nu = u;
    if (vel) {
        vec3 uh = reflect(u, n, e, kt);
        nu = (vec3){vsel(hit, uh.x, u.x), vsel(hit, uh.y, u.y), vsel(hit, uh.z, u.z)};
    }

    /* a sphere with any non-finite result keeps its state */
    vm ok = mand(mand(finite3(np), finite3(nv)), finite3(nu));
    vstore_n(m->x + i, vsel(ok, np.x, p.x), cnt);
    vstore_n(m->y + i, vsel(ok, np.y, p.y), cnt);
    vstore_n(m->z + i, vsel(ok, np.z, p.z), cnt);
    vstore_n(m->vx + i, vsel(ok, nv.x, v.x), cnt);
    vstore_n(m->vy + i, vsel(ok, nv.y, v.y), cnt);
    vstore_n(m->vz + i, vsel(ok, nv.z, v.z), cnt);
    if (vel) {
        vstore_n(m->ux + i, vsel(ok, nu.x, u.x), cnt);
        vstore_n(m->uy + i, vsel(ok, nu.y, u.y), cnt);
        vstore_n(m->uz + i, vsel(ok, nu.z, u.z), cnt);
    }
    return vcount_n(mand(ok, hit), cnt);
}

size_t TOI_FN(respond)(size_t n, const toi_motion *m, const toi_hits *h, float restitution,
                       float friction)
{
    const vf e = vset(restitution), kt = vset(1.0f - friction);
    const int vel = m->ux != NULL;
    size_t hits = 0;
#define BLOCK(i, cnt, f) respond_block(m, h, e, kt, i, cnt, f)
    TOI_BATCH(n, vel, BLOCK);
#undef BLOCK
    return vdone(hits);
}
