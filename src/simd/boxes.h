/* simd/boxes.h - oriented-box sweep kernel body (linear motion), written once over the vector
   layer. Included by src/<isa>/boxes.c after that backend's vec.h. It performs the scalar
   reference's operations (src/scalar/boxes.c, where the method is explained) in the same
   order, branch-free across VW pairs, so every lane's result is bit-identical to it. */
#include "common.h"

typedef struct vbox {
    vf c[3], v[3], q[4], h[3], w[3];
} vbox;

TOI_VINLINE vf vbox_get(const float *p, const uint32_t *idx, size_t i, size_t cnt)
{
    return idx ? vgather_n(p, idx + i, cnt) : vload_n(p + i, cnt);
}

/* One load per array, written out (a loop over a table of the arrays kept the vectors in
   memory and cost a fifth of the linear kernel's instructions). */
TOI_VINLINE vbox vbox_load(const toi_boxes *B, const uint32_t *idx, size_t i, size_t cnt)
{
    vbox o;
    o.c[0] = vbox_get(B->x, idx, i, cnt), o.c[1] = vbox_get(B->y, idx, i, cnt);
    o.c[2] = vbox_get(B->z, idx, i, cnt);
    o.v[0] = vbox_get(B->vx, idx, i, cnt), o.v[1] = vbox_get(B->vy, idx, i, cnt);
    o.v[2] = vbox_get(B->vz, idx, i, cnt);
    o.q[0] = vbox_get(B->qw, idx, i, cnt), o.q[1] = vbox_get(B->qx, idx, i, cnt);
    o.q[2] = vbox_get(B->qy, idx, i, cnt), o.q[3] = vbox_get(B->qz, idx, i, cnt);
    o.h[0] = vbox_get(B->hx, idx, i, cnt), o.h[1] = vbox_get(B->hy, idx, i, cnt);
    o.h[2] = vbox_get(B->hz, idx, i, cnt);
    if (B->wx) {
        o.w[0] = vbox_get(B->wx, idx, i, cnt), o.w[1] = vbox_get(B->wy, idx, i, cnt);
        o.w[2] = vbox_get(B->wz, idx, i, cnt);
    } else {
        o.w[0] = o.w[1] = o.w[2] = vzero();
    }
    return o;
}

TOI_VINLINE vf vdot3(const vf a[3], const vf b[3])
{
    return vadd(vadd(vmul(a[0], b[0]), vmul(a[1], b[1])), vmul(a[2], b[2]));
}

TOI_VINLINE void vcross3(const vf a[3], const vf b[3], vf o[3])
{
    o[0] = vsub(vmul(a[1], b[2]), vmul(a[2], b[1]));
    o[1] = vsub(vmul(a[2], b[0]), vmul(a[0], b[2]));
    o[2] = vsub(vmul(a[0], b[1]), vmul(a[1], b[0]));
}

/* The scalar's seg_ball_apart(): the lanes whose segment l + t v stays outside the ball of
   squared radius rr about the origin by the margin m (the ends alone when v.v 2^18 < S2). */
TOI_VINLINE vm vseg_ball_apart(const vf l[3], const vf v[3], vf rr, vf m, vf S2)
{
    vf e[3], X[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++)
        e[k] = vadd(l[k], v[k]);
    vcross3(l, v, X);
    vf a = vdot3(v, v), b = vdot3(l, v);
    vm ends = mand(vgt(vdot3(l, l), rr), vgt(vdot3(e, e), rr));
    vm slow = vlt(vmul(a, vset(TOI_BOX_BALL_SLOW)), S2);
    vm path = mor(mor(mor(slow, vge(b, m)), vle(vadd(b, a), vneg(m))),
                  vgt(vdot3(X, X), vadd(vmul(rr, a), m)));
    return mand(ends, path);
}

/* The scalar's box_balls_apart(): the lanes whose balls about the centres holding the boxes
   (radius |h|) stay farther apart than 2^-8 S over the step, from the unscaled l, v, half
   extents and size S. */
TOI_VINLINE vm vballs_apart(const vf l[3], const vf v[3], const vf ha[3], const vf hb[3],
                            vf size)
{
    vm ok = mand(vge(size, vset(TOI_BOX_BALL_MIN)), vle(size, vset(TOI_BOX_BALL_MAX)));
    vf R = vadd(vadd(vsqrt(vdot3(ha, ha)), vsqrt(vdot3(hb, hb))),
                vmul(size, vset(TOI_BOX_BALL_GAP)));
    return mand(ok, vseg_ball_apart(l, v, vmul(R, R), vzero(), vmul(size, size)));
}

/* vballs_apart for a whole query's boxes (unscaled coordinates; size as vbox_rel's). */
TOI_VINLINE vm vbox_balls_apart(const vbox *A, const vbox *B, vf size)
{
    vf l[3], v[3];
    TOI_UNROLL
    for (int c = 0; c < 3; c++)
        l[c] = vsub(A->c[c], B->c[c]), v[c] = vsub(A->v[c], B->v[c]);
    return vballs_apart(l, v, A->h, B->h, size);
}

TOI_VINLINE void vquat_axes(const vf q[4], vf qq, vf ax[3][3])
{
    const vf one = vset(1.0f);
    vf s = vdiv(vset(2.0f), qq);
    vf w = q[0], x = q[1], y = q[2], z = q[3];
    vf xx = vmul(x, x), yy = vmul(y, y), zz = vmul(z, z);
    vf xy = vmul(x, y), xz = vmul(x, z), yz = vmul(y, z);
    vf wx = vmul(w, x), wy = vmul(w, y), wz = vmul(w, z);
    ax[0][0] = vsub(one, vmul(s, vadd(yy, zz)));
    ax[0][1] = vmul(s, vadd(xy, wz));
    ax[0][2] = vmul(s, vsub(xz, wy));
    ax[1][0] = vmul(s, vsub(xy, wz));
    ax[1][1] = vsub(one, vmul(s, vadd(xx, zz)));
    ax[1][2] = vmul(s, vadd(yz, wx));
    ax[2][0] = vmul(s, vadd(xz, wy));
    ax[2][1] = vmul(s, vsub(yz, wx));
    ax[2][2] = vsub(one, vmul(s, vadd(xx, yy)));
}

TOI_VINLINE vf vquat_norm2(const vf q[4])
{
    return vadd(vadd(vadd(vmul(q[0], q[0]), vmul(q[1], q[1])), vmul(q[2], q[2])),
                vmul(q[3], q[3]));
}

TOI_VINLINE vf vclamp(vf u, vf h)
{
    vf nh = vneg(h);
    u = vsel(vlt(u, nh), nh, u);
    return vsel(vgt(u, h), h, u);
}

/* The scalar's support(): h per axis (already zeroed where it must be), never flat when
   flat is negative. */
TOI_VINLINE void vsupport(const vf ax[3][3], const vf h[3], const vf n[3], float sgn, vf flat,
                          vf off[3])
{
    const vf zero = vzero();
    off[0] = off[1] = off[2] = zero;
    TOI_UNROLL
    for (int m = 0; m < 3; m++) {
        vf an = vmul(vdot3(ax[m], n), vset(sgn));
        vf f = vsel(vgt(an, zero), h[m], vneg(h[m]));
        f = vsel(vle(vmul(vabs(an), h[m]), flat), zero, f);
        TOI_UNROLL
        for (int c = 0; c < 3; c++)
            off[c] = vadd(off[c], vmul(f, ax[m][c]));
    }
}

/* The scalar's face_point() with the face index kf (a float 0..2 per lane). */
TOI_VINLINE void vface_point(const vf fc[3], const vf fa[3][3], const vf fh[3], vf kf, vf side,
                             const vf p[3], vf o[3])
{
    vf r[3] = {vsub(p[0], fc[0]), vsub(p[1], fc[1]), vsub(p[2], fc[2])};
    o[0] = fc[0], o[1] = fc[1], o[2] = fc[2];
    TOI_UNROLL
    for (int m = 0; m < 3; m++) {
        vf u = vclamp(vdot3(fa[m], r), fh[m]);
        u = vsel(veq(kf, vset((float)m)), side, u);
        TOI_UNROLL
        for (int c = 0; c < 3; c++)
            o[c] = vadd(o[c], vmul(u, fa[m][c]));
    }
}

/* The scalar's edge_pair(): closest points of A's edge (centre ea, direction ai, half length
   hai) and B's (eb, bj, hbj), c = ai.bj, den = |ai x bj|^2; their midpoint p, parameters
   *sa_o, *ub_o; returns their squared distance. */
TOI_VINLINE vf vedge_pair(const vf ea[3], const vf ai[3], vf hai, const vf eb[3], const vf bj[3],
                          vf hbj, vf c, vf den, vf p[3], vf *sa_o, vf *ub_o)
{
    const vf zero = vzero(), half = vset(0.5f);
    vf r[3] = {vsub(ea[0], eb[0]), vsub(ea[1], eb[1]), vsub(ea[2], eb[2])};
    vf d1 = vdot3(ai, r), d2 = vdot3(bj, r);
    vf sa0 = vdiv(vsub(vmul(c, d2), d1), den), ub0 = vdiv(vsub(d2, vmul(c, d1)), den);
    vm ok = vge(den, vset(TOI_BOX_MIN_CROSS2));
    sa0 = vsel(ok, sa0, zero), ub0 = vsel(ok, ub0, zero);
    vf sa = vclamp(sa0, hai), ub = vclamp(ub0, hbj);
    /* beyond an edge's end: the edges' closest points, as the scalar's */
    vm out = mor(mor(vlt(sa0, vneg(hai)), vgt(sa0, hai)), mor(vlt(ub0, vneg(hbj)), vgt(ub0, hbj)));
    vf ub2 = vclamp(vadd(d2, vmul(c, sa)), hbj);
    vf sa2 = vclamp(vsub(vmul(c, ub2), d1), hai);
    sa = vsel(out, sa2, sa), ub = vsel(out, ub2, ub);
    vf dif[3];
    TOI_UNROLL
    for (int k = 0; k < 3; k++) {
        vf pa = vadd(ea[k], vmul(sa, ai[k])), pb = vadd(eb[k], vmul(ub, bj[k]));
        p[k] = vmul(vadd(pa, pb), half);
        dif[k] = vsub(pa, pb);
    }
    *sa_o = sa, *ub_o = ub;
    return vdot3(dif, dif);
}

/* The normal (axis kn, a float 0..14 per lane, from B toward A) and the point (relative to
   B's centre, A's centre at Dt) of the scalar's box_normal() and box_point(); also the
   chosen axis's d, R, growth and squared length for the depth. live: the lanes whose point
   is used (the others' may differ from the scalar's). */
TOI_VINLINE void vbox_normal_point(const vf a[3][3], const vf b[3][3], const vf C[3][3],
                                   const vf dl[15], const vf d[15], const vf R[15],
                                   const vf LL[15], vf eF, vf eE, vf kn, vm live,
                                   const vf Dt[3], const vf ha[3], const vf hb[3], vf S,
                                   vf nv[3], vf p[3],
                                   vf *dk_o, vf *Rk_o, vf *ek_o, vf *LLk_o)
{
    /* the chosen axis's quantities, per lane */
    const vf zero = vzero(), one = vset(1.0f);
    vf L[3] = {zero, zero, zero}, dlk = zero, dk = zero, Rk = zero, ek = zero, LLk = zero;
    TOI_UNROLL
    for (int k = 0; k < 15; k++) {
        vf Lk[3];
        if (k < 3) {
            Lk[0] = a[k][0], Lk[1] = a[k][1], Lk[2] = a[k][2];
        } else if (k < 6) {
            Lk[0] = b[k - 3][0], Lk[1] = b[k - 3][1], Lk[2] = b[k - 3][2];
        } else {
            const int i = (k - 6) / 3, j = (k - 6) % 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3;
            TOI_UNROLL
            for (int c = 0; c < 3; c++)
                Lk[c] = vsub(vmul(C[i1][j], a[i2][c]), vmul(C[i2][j], a[i1][c]));
        }
        vm m = veq(kn, vset((float)k));
        L[0] = vsel(m, Lk[0], L[0]), L[1] = vsel(m, Lk[1], L[1]), L[2] = vsel(m, Lk[2], L[2]);
        dlk = vsel(m, dl[k], dlk);
        dk = vsel(m, d[k], dk);
        Rk = vsel(m, R[k], Rk);
        ek = vsel(m, k < 6 ? eF : eE, ek);
        LLk = vsel(m, LL[k], LLk);
    }
    vm pos = vge(dlk, zero);
    TOI_UNROLL
    for (int c = 0; c < 3; c++)
        L[c] = vsel(pos, L[c], vneg(L[c]));
    vf nn = vdot3(L, L);
    vf inv = vdiv(one, vsqrt(nn));
    vm dir = vge(nn, vset(TOI_MIN_DIR2));
    nv[0] = vsel(dir, vmul(L[0], inv), vset(TOI_FALLBACK_NX));
    nv[1] = vsel(dir, vmul(L[1], inv), vset(TOI_FALLBACK_NY));
    nv[2] = vsel(dir, vmul(L[2], inv), vset(TOI_FALLBACK_NZ));

    vf flat = vmul(S, vset(TOI_BOX_FLAT)), pE[3], dd;
    const vf gate = vmul(S, vset(TOI_BOX_EDGE_GAP)), gate2 = vmul(gate, gate);
    /* the axes' projections on n and which are flat to the contact plane (support()'s rule),
       and the face an edge point re-routes to (below): kA from A's axes besides a_i, kB from
       B's besides b_j, -1 for none */
    const vf none = vset(-1.0f);
    vf an[3], bn[3], kA = none, kB = none;
    vm fa[3], fb[3];
    TOI_UNROLL
    for (int m = 0; m < 3; m++) {
        an[m] = vdot3(a[m], nv), bn[m] = vdot3(b[m], nv);
        fa[m] = vle(vmul(vabs(an[m]), ha[m]), flat);
        fb[m] = vle(vmul(vabs(bn[m]), hb[m]), flat);
    }
    /* edge a_i against edge b_j, i = (kn - 6) / 3, j = (kn - 6) % 3 */
    {
        vf ai[3] = {zero, zero, zero}, bj[3] = {zero, zero, zero}, cij = zero, hai = zero,
           hbj = zero;
        vf ha2[3] = {ha[0], ha[1], ha[2]}, hb2[3] = {hb[0], hb[1], hb[2]}, ki = none, kj = none;
        TOI_UNROLL
        for (int i = 0; i < 3; i++) {
            vm mi = mand(vge(kn, vset((float)(6 + 3 * i))), vlt(kn, vset((float)(9 + 3 * i))));
            TOI_UNROLL
            for (int c = 0; c < 3; c++)
                ai[c] = vsel(mi, a[i][c], ai[c]);
            hai = vsel(mi, ha[i], hai);
            ki = vsel(mi, vset((float)i), ki);
            ha2[i] = vsel(mi, zero, ha2[i]);
            const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
            kA = vsel(mi, vsel(fa[i1], vset((float)i2), vsel(fa[i2], vset((float)i1), none)), kA);
            TOI_UNROLL
            for (int j = 0; j < 3; j++)
                cij = vsel(veq(kn, vset((float)(6 + 3 * i + j))), C[i][j], cij);
        }
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            vm mj = mor(mor(veq(kn, vset((float)(6 + j))), veq(kn, vset((float)(9 + j)))),
                        veq(kn, vset((float)(12 + j))));
            TOI_UNROLL
            for (int c = 0; c < 3; c++)
                bj[c] = vsel(mj, b[j][c], bj[c]);
            hbj = vsel(mj, hb[j], hbj);
            kj = vsel(mj, vset((float)j), kj);
            hb2[j] = vsel(mj, zero, hb2[j]);
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            vf cb = vsel(fb[j1], vset((float)(3 + j2)), vsel(fb[j2], vset((float)(3 + j1)), none));
            kB = vsel(mj, cb, kB);
        }
        vf oa[3], ob[3];
        const vf never = vset(-1.0f);
        vsupport(a, ha2, nv, -1.0f, never, oa);
        vsupport(b, hb2, nv, 1.0f, never, ob);
        vf ea[3] = {vadd(Dt[0], oa[0]), vadd(Dt[1], oa[1]), vadd(Dt[2], oa[2])}, sa, ub;
        dd = vedge_pair(ea, ai, hai, ob, bj, hbj, cij, LLk, pE, &sa, &ub);
        /* the scalar's other edges at a clamped end's corner (lanes whose closest points lie
           too far apart; a branch only when some lane has them, the same bits per lane) */
        vm far = mand(mand(live, vge(kn, vset(6.0f))), vgt(dd, gate2));
        if (mbits(far)) {
            vm endA = mand(far, veq(vabs(sa), hai)), endB = mand(far, veq(vabs(ub), hbj));
            vf ca[3], cb[3];
            TOI_UNROLL
            for (int c = 0; c < 3; c++)
                ca[c] = vadd(ea[c], vmul(sa, ai[c])), cb[c] = vadd(ob[c], vmul(ub, bj[c]));
            const int anyA = mbits(endA) != 0, anyB = mbits(endB) != 0;
            TOI_UNROLL
            for (int m = 0; m < 6; m++) {
                const int onA = m < 3, mm = onA ? m : m - 3;
                if (!(onA ? anyA : anyB))
                    continue;
                const vf *ax = onA ? a[mm] : b[mm];
                vf h = onA ? ha[mm] : hb[mm], e[3], q[3], s2, u2, dd2, cm = zero, den = zero;
                vf f = onA ? vsel(vlt(an[mm], zero), h, vneg(h))
                           : vsel(vgt(bn[mm], zero), h, vneg(h));
                TOI_UNROLL
                for (int c = 0; c < 3; c++)
                    e[c] = vsub(onA ? ca[c] : cb[c], vmul(f, ax[c]));
                TOI_UNROLL
                for (int o = 0; o < 3; o++) { /* B's edge j (for A's axis), else A's edge i */
                    vm mo = veq(onA ? kj : ki, vset((float)o));
                    cm = vsel(mo, onA ? C[mm][o] : C[o][mm], cm);
                    den = vsel(mo, onA ? LL[6 + 3 * mm + o] : LL[6 + 3 * o + mm], den);
                }
                if (onA)
                    dd2 = vedge_pair(e, ax, h, ob, bj, hbj, cm, den, q, &s2, &u2);
                else
                    dd2 = vedge_pair(ea, ai, hai, e, ax, h, cm, den, q, &s2, &u2);
                vm use = onA ? mandnot(endA, veq(ki, vset((float)mm)))
                             : mandnot(endB, veq(kj, vset((float)mm)));
                vm take = mand(use, vlt(dd2, dd));
                dd = vsel(take, dd2, dd);
                TOI_UNROLL
                for (int c = 0; c < 3; c++)
                    pE[c] = vsel(take, q[c], pE[c]);
            }
        }
    }
    /* the scalar's re-routing of an edge point to a face (closest points too far apart, an
       axis of A, else of B, besides the edge's flat): the face index kf, its side's sign */
    vf kf, dlf = dlk;
    {
        vf kr = vsel(vge(kA, zero), kA, kB);
        vm re = mand(mand(vge(kn, vset(6.0f)), vgt(dd, gate2)), vge(kr, zero));
        kf = vsel(re, kr, kn);
        TOI_UNROLL
        for (int m = 0; m < 3; m++) {
            dlf = vsel(mand(re, veq(kr, vset((float)m))), an[m], dlf);
            dlf = vsel(mand(re, veq(kr, vset((float)(3 + m)))), bn[m], dlf);
        }
    }
    vm posf = vge(dlf, zero);
    const vf zero3[3] = {zero, zero, zero};
    vf pA[3], pB[3], off[3];
    /* A's face kf (0..2) against B's feature */
    vsupport(b, hb, nv, 1.0f, flat, off);
    vf haf = vsel(veq(kf, vset(0.0f)), ha[0], vsel(veq(kf, one), ha[1], ha[2]));
    vface_point(Dt, a, ha, kf, vsel(posf, vneg(haf), haf), off, pA);
    /* B's face kf - 3 against A's feature */
    vf kb = vsub(kf, vset(3.0f));
    vsupport(a, ha, nv, -1.0f, flat, off);
    vf pa[3] = {vadd(Dt[0], off[0]), vadd(Dt[1], off[1]), vadd(Dt[2], off[2])};
    vf hbf = vsel(veq(kb, vset(0.0f)), hb[0], vsel(veq(kb, one), hb[1], hb[2]));
    vface_point(zero3, b, hb, kb, vsel(posf, hbf, vneg(hbf)), pa, pB);
    vm isA = vlt(kf, vset(3.0f)), isB = vlt(kf, vset(6.0f));
    TOI_UNROLL
    for (int c = 0; c < 3; c++)
        p[c] = vsel(isA, pA[c], vsel(isB, pB[c], pE[c]));
    *dk_o = dk, *Rk_o = Rk, *ek_o = ek, *LLk_o = LLk;
}

/* The scalar's chord_clip() and box_overlap_point(): for the lanes in lanes (touching at
   t = 0 on an edge axis) whose point p does not lie in both boxes, the middle of the longest
   chord an edge of one box cuts from the other (when there is one). */
TOI_VINLINE void vchord_clip(vf u0, vf du, vf h, vf *lo, vf *hi)
{
    const vf zero = vzero(), one = vset(1.0f), two = vset(2.0f);
    vm z = veq(du, zero), pos = vgt(du, zero), in = vle(vabs(u0), h);
    vf den = vsel(z, one, du);
    vf q1 = vdiv(vsub(vneg(h), u0), den), q2 = vdiv(vsub(h, u0), den);
    vf l = vsel(pos, q1, q2), r = vsel(pos, q2, q1);
    l = vsel(z, vsel(in, vneg(one), two), l);
    r = vsel(z, vsel(in, one, vneg(two)), r);
    *lo = vsel(vgt(l, *lo), l, *lo);
    *hi = vsel(vlt(r, *hi), r, *hi);
}

TOI_VINLINE void vbox_overlap_point(const vf a[3][3], const vf b[3][3], const vf C[3][3],
                                    const vf dl[6], const vf D[3], const vf ha[3],
                                    const vf hb[3], vm lanes, vf p[3])
{
    if (!mbits(lanes))
        return;
    const vf zero = vzero(), one = vset(1.0f), half = vset(0.5f);
    vf r[3] = {vsub(p[0], D[0]), vsub(p[1], D[1]), vsub(p[2], D[2])};
    vm inside = mconst(1);
    TOI_UNROLL
    for (int m = 0; m < 3; m++) {
        inside = mand(inside, vle(vabs(vdot3(a[m], r)), ha[m]));
        inside = mand(inside, vle(vabs(vdot3(b[m], p)), hb[m]));
    }
    lanes = mandnot(lanes, inside);
    if (!mbits(lanes))
        return;
    vf best = vneg(one), bx[3] = {zero, zero, zero};
    vm bbox = mconst(0); /* B's edge won */
    TOI_UNROLL
    for (int s = 0; s < 2; s++) {
        const vf *h = s ? hb : ha, *ho = s ? ha : hb;
        TOI_UNROLL
        for (int k = 0; k < 3; k++) {
            const int i = (k + 1) % 3, j = (k + 2) % 3;
            TOI_UNROLL
            for (int c = 0; c < 4; c++) {
                vf si = c < 2 ? vneg(h[i]) : h[i], sj = (c & 1) ? h[j] : vneg(h[j]);
                vf lo = vneg(one), hi = one;
                TOI_UNROLL
                for (int m = 0; m < 3; m++) {
                    vf ci = s ? C[m][i] : C[i][m], cj = s ? C[m][j] : C[j][m];
                    vf ck = s ? C[m][k] : C[k][m];
                    vf u0 = vadd(vadd(s ? vneg(dl[m]) : dl[3 + m], vmul(si, ci)),
                                 vmul(sj, cj));
                    vchord_clip(u0, vmul(h[k], ck), ho[m], &lo, &hi);
                }
                vf len = vsel(vle(lo, hi), vmul(vsub(hi, lo), h[k]), vneg(one));
                vm up = vgt(len, best);
                best = vsel(up, len, best);
                bbox = s ? mor(bbox, up) : mandnot(bbox, up);
                bx[k] = vsel(up, vmul(vmul(vadd(lo, hi), half), h[k]), bx[k]);
                bx[i] = vsel(up, si, bx[i]);
                bx[j] = vsel(up, sj, bx[j]);
            }
        }
    }
    lanes = mand(lanes, vge(best, zero));
    TOI_UNROLL
    for (int c = 0; c < 3; c++) {
        vf pa = vadd(vadd(vadd(D[c], vmul(bx[0], a[0][c])), vmul(bx[1], a[1][c])),
                     vmul(bx[2], a[2][c]));
        vf pb = vadd(vadd(vmul(bx[0], b[0][c]), vmul(bx[1], b[1][c])),
                     vmul(bx[2], b[2][c]));
        p[c] = vsel(lanes, vsel(bbox, pb, pa), p[c]);
    }
}

/* Axis k (0..14: a_i, b_j, a_i x b_j at 6 + 3i + j) of the linear sweep: its projections of
   A's centre and motion relative to B's (dl, dv; from the face axes' fdl, fdv) and its grown
   radius R, in the scalar's order (the edge axes as in scalar/boxes.c). */
TOI_VINLINE void vbox_axis(int k, const vf C[3][3], const vf AC[3][3], const vf fdl[6],
                           const vf fdv[6], const vf ha[3], const vf hb[3], vf eF, vf eE,
                           vf *dl, vf *dv, vf *R)
{
    if (k < 3) {
        const int i = k;
        *dl = fdl[i], *dv = fdv[i];
        *R = vadd(vadd(ha[i], vadd(vadd(vmul(hb[0], AC[i][0]), vmul(hb[1], AC[i][1])),
                                   vmul(hb[2], AC[i][2]))), eF);
    } else if (k < 6) {
        const int j = k - 3;
        *dl = fdl[k], *dv = fdv[k];
        *R = vadd(vadd(vadd(vadd(vmul(ha[0], AC[0][j]), vmul(ha[1], AC[1][j])),
                            vmul(ha[2], AC[2][j])), hb[j]), eF);
    } else {
        const int i = (k - 6) / 3, j = (k - 6) % 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        vf c1 = C[i1][j], c2 = C[i2][j];
        *dl = vsub(vmul(c1, fdl[i2]), vmul(c2, fdl[i1]));
        *dv = vsub(vmul(c1, fdv[i2]), vmul(c2, fdv[i1]));
        *R = vadd(vadd(vadd(vmul(ha[i1], AC[i2][j]), vmul(ha[i2], AC[i1][j])),
                       vadd(vmul(hb[j1], AC[i][j2]), vmul(hb[j2], AC[i][j1]))), eE);
    }
}

/* Axis k's squared length: 1 for the face axes, C_{i1,j}^2 + C_{i2,j}^2 for a_i x b_j. */
TOI_VINLINE vf vbox_axis_len2(int k, const vf C[3][3])
{
    if (k < 6)
        return vset(1.0f);
    const int i = (k - 6) / 3, j = (k - 6) % 3;
    vf c1 = C[(i + 1) % 3][j], c2 = C[(i + 2) % 3][j];
    return vadd(vmul(c1, c1), vmul(c2, c2));
}

/* The second factor of the rescale (a size below FLT_MIN: common.h, vpow2_scale_sub) on the
   scaled l, v and half extents; returns the scaled size S times it. */
TOI_VINLINE vf vbox_rescale_sub(vf size, vf s, vf S, vf l[3], vf v[3], vf ha[3], vf hb[3])
{
    vf s2 = vpow2_scale_sub(size, s);
    TOI_UNROLL
    for (int c = 0; c < 3; c++) {
        l[c] = vmul(l[c], s2), v[c] = vmul(v[c], s2);
        ha[c] = vmul(ha[c], s2), hb[c] = vmul(hb[c], s2);
    }
    return vmul(S, s2);
}

/* Undoes that second factor on a point p and a depth (scaled units), before the first
   factor's unscale. */
TOI_VINLINE void vbox_unscale_sub(vf size, vf p[3], vf *depth)
{
    vf un2 = vpow2_unscale_sub(size);
    p[0] = vmul(p[0], un2), p[1] = vmul(p[1], un2), p[2] = vmul(p[2], un2);
    *depth = vmul(*depth, un2);
}

/* A hit's outputs beyond t (linear and rotating queries alike), from the contact axis's
   terms at t: the normal nv; the point B's centre at t plus p (scaled units) and the depth
   ((Rk - ek) - dk) / |axis|, both back in world units (the second rescale factor undone
   first); every output 0 off the hit lanes, the depth off the overlapping ones too. */
TOI_VINLINE void vbox_contact_out(const vbox *B, vf t, vm hit, vm overlap, const vf nv[3],
                                  vf p[3], vf dk, vf Rk, vf ek, vf LLk, vf size, vres *o)
{
    const vf zero = vzero();
    vf depth = vdiv(vsub(vsub(Rk, ek), dk), vsqrt(LLk));
    if (vany_sub(size))
        vbox_unscale_sub(size, p, &depth);
    vf un = vpow2_unscale(size);
    o->nx = vsel(hit, nv[0], zero);
    o->ny = vsel(hit, nv[1], zero);
    o->nz = vsel(hit, nv[2], zero);
    o->px = vsel(hit, vadd(vadd(B->c[0], vmul(t, B->v[0])), vmul(p[0], un)), zero);
    o->py = vsel(hit, vadd(vadd(B->c[1], vmul(t, B->v[1])), vmul(p[1], un)), zero);
    o->pz = vsel(hit, vadd(vadd(B->c[2], vmul(t, B->v[2])), vmul(p[2], un)), zero);
    depth = vmul(depth, un);
    depth = vsel(vgt(depth, zero), depth, zero);
    o->depth = vsel(mand(hit, overlap), depth, zero);
}

/* The pair in relative coordinates, scaled by an exact power of two (the opening of the
   scalar's sweep_box): l = A.c - B.c and v = A.v - B.v, the half extents, the size (*size as
   given, *S scaled), the grow margins, the quaternions' squared norms. Returns the lanes whose
   input is valid; *turning: the valid lanes with a rotation (queued by the batch driver,
   answered by vspin_run, boxes_spin.h). */
TOI_VINLINE vm vbox_rel(const vbox *A, const vbox *B, vf l[3], vf v[3], vf ha[3], vf hb[3],
                        vf *sizep, vf *Sp, vf *eF, vf *eE, vf *qqap, vf *qqbp, vm *turning)
{
    const vf zero = vzero();
    TOI_UNROLL
    for (int c = 0; c < 3; c++)
        l[c] = vsub(A->c[c], B->c[c]), v[c] = vsub(A->v[c], B->v[c]);
    vf hsum = vadd(vadd(vadd(A->h[0], A->h[1]), A->h[2]), vadd(vadd(B->h[0], B->h[1]), B->h[2]));
    vf size = vadd(vadd(vadd(vabs(l[0]), vabs(l[1])), vabs(l[2])),
                   vadd(vadd(vabs(v[0]), vabs(v[1])), vabs(v[2])));
    size = vadd(size, hsum);
    vf qqa = vquat_norm2(A->q), qqb = vquat_norm2(B->q);
    vf wma = vadd(vadd(vabs(A->w[0]), vabs(A->w[1])), vabs(A->w[2]));
    vf wmb = vadd(vadd(vabs(B->w[0]), vabs(B->w[1])), vabs(B->w[2]));
    vm valid = vlt(size, vset(TOI_MAX_SUM));
    TOI_UNROLL
    for (int c = 0; c < 3; c++)
        valid = mand(valid, mand(vge(A->h[c], zero), vge(B->h[c], zero)));
    valid = mand(valid, mand(vge(qqa, vset(TOI_BOX_QQ_LO)), vle(qqa, vset(TOI_BOX_QQ_HI))));
    valid = mand(valid, mand(vge(qqb, vset(TOI_BOX_QQ_LO)), vle(qqb, vset(TOI_BOX_QQ_HI))));
    valid = mand(valid, mand(vlt(wma, vset(TOI_MAX_SUM)), vlt(wmb, vset(TOI_MAX_SUM))));
    *turning = mand(valid, mor(vgt(wma, zero), vgt(wmb, zero)));

    vf s = vpow2_scale(size);
    TOI_UNROLL
    for (int c = 0; c < 3; c++) {
        l[c] = vmul(l[c], s), v[c] = vmul(v[c], s);
        ha[c] = vmul(A->h[c], s), hb[c] = vmul(B->h[c], s);
    }
    vf S = vmul(size, s);
    if (vany_sub(size))
        S = vbox_rescale_sub(size, s, S, l, v, ha, hb);
    *eF = vmul(S, vset(TOI_BOX_GROW_FACE)), *eE = vmul(S, vset(TOI_BOX_GROW_EDGE));
    *sizep = size, *Sp = S, *qqap = qqa, *qqbp = qqb;
    return valid;
}

/* Axis k's interval [lo, hi] of t from its projections dlk, dvk and grown radius Rk: with
   w = the closing speed, w > 0: [q1, q2]; w < 0: [q2, q1]; w = 0: all t or none as g <= 0
   (w is finite in a valid lane, so these are the scalar's cases). */
TOI_VINLINE void vbox_interval(vf dlk, vf dvk, vf Rk, vf *lo, vf *hi)
{
    const vf zero = vzero(), inf = vset(INFINITY);
    vf dk = vabs(dlk);
    vf wk = vsel(vge(dlk, zero), vneg(dvk), dvk);
    vf g = vsub(dk, Rk);
    vf q1 = vdiv(g, wk), q2 = vdiv(vadd(dk, Rk), wk);
    vm wn = vlt(wk, zero), wz = veq(wk, zero);
    vf lo0 = vsel(vle(g, zero), vneg(inf), inf);
    *lo = vsel(wz, lo0, vsel(wn, q2, q1));
    *hi = vsel(wz, vneg(lo0), vsel(wn, q1, q2));
}

TOI_VINLINE vm sweep_box_vec(const vbox *A, const vbox *B, vm all_overlaps, int full, vres *o,
                             vf *texit, vm *spin, int balls)
{
    const vf zero = vzero();
    vf l[3], v[3], ha[3], hb[3], size, S, eF, eE, qqa, qqb;
    vm valid = vbox_rel(A, B, l, v, ha, hb, &size, &S, &eF, &eE, &qqa, &qqb, spin);
    if (balls) /* the scalar's box_balls_apart (not for lanes that passed it already) */
        valid = mandnot(valid, mandnot(vbox_balls_apart(A, B, size), *spin));

    vf a[3][3], b[3][3], C[3][3], AC[3][3];
    vquat_axes(A->q, qqa, a);
    vquat_axes(B->q, qqb, b);
    TOI_UNROLL
    for (int i = 0; i < 3; i++)
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            C[i][j] = vdot3(a[i], b[j]);
            AC[i][j] = vabs(C[i][j]);
        }

    /* the face axes' projections of l and v (the edge axes' come from them) */
    vf fdl[6], fdv[6];
    const vf one = vset(1.0f);
    TOI_UNROLL
    for (int i = 0; i < 3; i++)
        fdl[i] = vdot3(a[i], l), fdv[i] = vdot3(a[i], v);
    vf tin = zero, tout = zero, kin = zero;
    TOI_UNROLL
    for (int k = 0; k < 15; k++) {
        if (k == 3 || k == 6) {
            /* k = 6: the scalar's early miss, the face axes alone rule out contact in every
               lane; k = 3: A's face axes already do (the entry time only grows and the exit
               time only falls over the later axes, so these lanes are missed at k = 6 too) */
            vm alive = mand(valid, mand(mand(vle(tin, one), vge(tout, zero)), vle(tin, tout)));
            if (!mbits(alive)) {
                o->t = vset(TOI_NO_HIT);
                if (texit)
                    *texit = vset(TOI_NO_HIT);
                if (full)
                    o->nx = o->ny = o->nz = o->px = o->py = o->pz = o->depth = zero;
                return mconst(0);
            }
        }
        if (k == 3) {
            TOI_UNROLL
            for (int j = 0; j < 3; j++)
                fdl[3 + j] = vdot3(b[j], l), fdv[3 + j] = vdot3(b[j], v);
        }
        vf dlk, dvk, Rk;
        vbox_axis(k, C, AC, fdl, fdv, ha, hb, eF, eE, &dlk, &dvk, &Rk);
        vf lo, hi;
        vbox_interval(dlk, dvk, Rk, &lo, &hi);
        if (k == 0) {
            tin = lo, tout = hi;
        } else {
            vm up = vgt(lo, tin);
            tin = vsel(up, lo, tin);
            kin = vsel(up, vset((float)k), kin);
            tout = vsel(vlt(hi, tout), hi, tout);
        }
    }

    vm overlap = mand(vle(tin, zero), vge(tout, zero));
    vf kn = kin;
    vm approach = mconst(0);
    if (mbits(mand(valid, overlap))) {
        /* the axis of least penetration, and the scalar's box_ties() over its ties */
        vf best = zero, kp = zero, pen[15], LL[15];
        vm closes[15];
        TOI_UNROLL
        for (int k = 0; k < 15; k++) {
            vf dlk, dvk, Rk;
            vbox_axis(k, C, AC, fdl, fdv, ha, hb, eF, eE, &dlk, &dvk, &Rk);
            vf d = vabs(dlk), w = vsel(vge(dlk, zero), vneg(dvk), dvk);
            LL[k] = vbox_axis_len2(k, C);
            pen[k] = vdiv(vsub(Rk, d), vsqrt(LL[k]));
            closes[k] = mand(vgt(d, zero), vgt(w, zero));
            if (k == 0) {
                best = pen[k], approach = closes[k];
            } else {
                vm lt = vlt(pen[k], best);
                best = vsel(lt, pen[k], best);
                kp = vsel(lt, vset((float)k), kp);
                approach = mor(mand(lt, closes[k]), mandnot(approach, lt));
            }
        }
        const vf lim = vadd(best, vmul(S, vset(TOI_BOX_TIE))), quarter = vset(0.25f);
        vm open = mconst(0);
        TOI_UNROLL
        for (int k = 0; k < 15; k++)
            open = mor(open, mandnot(mand(vle(pen[k], lim), vge(LL[k], quarter)), closes[k]));
        kn = vsel(overlap, kp, kin);
        approach = mandnot(approach, open);
    }
    vm hit_ov = mand(overlap, mor(approach, all_overlaps));
    vm hit_sep = mand(mandnot(vgt(tin, zero), overlap), mand(vle(tin, tout), vle(tin, one)));
    vm hit = mand(valid, mor(hit_ov, hit_sep));
    vf t = vsel(overlap, zero, tin);
    o->t = vsel(hit, t, vset(TOI_NO_HIT));
    if (texit)
        *texit = vsel(hit, vsel(vgt(tout, t), tout, t), vset(TOI_NO_HIT));
    if (!full)
        return hit;
    if (!mbits(hit)) { /* every output of a missing lane is zero */
        o->nx = o->ny = o->nz = o->px = o->py = o->pz = o->depth = zero;
        return hit;
    }

    vf dl[15], d[15], R[15], LL[15];
    TOI_UNROLL
    for (int k = 0; k < 15; k++) {
        vf dvk;
        vbox_axis(k, C, AC, fdl, fdv, ha, hb, eF, eE, &dl[k], &dvk, &R[k]);
        d[k] = vabs(dl[k]);
        LL[k] = vbox_axis_len2(k, C);
    }
    vf Dt[3] = {vadd(l[0], vmul(t, v[0])), vadd(l[1], vmul(t, v[1])), vadd(l[2], vmul(t, v[2]))};
    vf nv[3], p[3], dk, Rk, ek, LLk;
    vbox_normal_point(a, b, C, dl, d, R, LL, eF, eE, kn, hit, Dt, ha, hb, S, nv, p, &dk, &Rk,
                      &ek, &LLk);
    vbox_overlap_point(a, b, C, dl, Dt, ha, hb, mand(mand(hit, overlap), vge(kn, vset(6.0f))),
                       p);
    vbox_contact_out(B, t, hit, overlap, nv, p, dk, Rk, ek, LLk, size, o);
    return hit;
}

/* sweep_box_vec out of line for the whole query (the batch blocks and the live pairs of the
   two-pass path): one copy serves every block shape; the face pass inlines its own. */
static __attribute__((noinline)) vm sweep_box_call(const vbox *A, const vbox *B,
                                                  vm all_overlaps, int full, vres *o,
                                                  vf *texit, vm *spin, int balls)
{
    return sweep_box_vec(A, B, all_overlaps, full, o, texit, spin, balls);
}

#include "boxes_spin.h"

/* A block of the batch with rotation arrays: the linear lanes answered (sweep_box_call),
   the rotating ones queued (vspin_push). */
TOI_VINLINE size_t boxes_block(const toi_boxes *A, const toi_boxes *B, const uint32_t *ia,
                               const uint32_t *ib, vm all_overlaps, const toi_hits *out,
                               size_t i, size_t cnt, int full, vspin_queue *sq)
{
    vres r;
    vf te;
    vbox a = vbox_load(A, ia, i, cnt), b = vbox_load(B, ib, i, cnt);
    /* every lane rotating: all queued (vspin_run checks their input), no linear sweep */
    const unsigned lanes = (unsigned)((1ull << cnt) - 1);
    if ((mbits(vspin_turning(&a, &b)) & lanes) == lanes)
        return vspin_push(sq, mconst(1), &a, &b, i, cnt);
    vm spin;
    vm hit = sweep_box_call(&a, &b, all_overlaps, full, &r, out->t_exit ? &te : NULL, &spin, 1);
    vstore_res(out, i, &r, cnt, full);
    if (out->t_exit)
        vstore_n(out->t_exit + i, te, cnt);
    size_t hits = vcount_n(mandnot(hit, spin), cnt);
    /* lanes with a rotation: queued, answered by vspin_run (boxes_spin.h) */
    if (mbits(spin))
        hits += vspin_push(sq, spin, &a, &b, i, cnt);
    return hits;
}

/* Pairs [0, n) of a batch with rotation arrays, a block at a time: A[k] vs B[k], or (a pair
   list: ia, ib not NULL) A[ia[k]] vs B[ib[k]]. Out of line, one copy for the contiguous pairs
   and one for the pair list (whole vectors, then the tail), each serving t alone and every
   output: TOI_BATCH's four block shapes in both entry points had been most of their code
   (avx2: 13,019 and 10,697 instructions, against 3,641 and 5,998 now), and the rotating pairs
   they serve take tens of nanoseconds each. (One call per block instead cost 52 instructions
   more a block, 1.4 % of the rotating query's; with the tail's block shape too, 133.) */
TOI_VINLINE size_t boxes_blocks(size_t n, const toi_boxes *A, const toi_boxes *B,
                                const uint32_t *ia, const uint32_t *ib, vm all_overlaps,
                                const toi_hits *out, int full, vspin_queue *sq)
{
    size_t hits = 0, i = 0;
    for (; i + VW <= n; i += VW)
        hits += boxes_block(A, B, ia, ib, all_overlaps, out, i, VW, full, sq);
    if (i < n)
        hits += boxes_block(A, B, ia, ib, all_overlaps, out, i, n - i, full, sq);
    return hits;
}

static __attribute__((noinline)) size_t boxes_blocks_contig(size_t n, const toi_boxes *A,
                                                            const toi_boxes *B,
                                                            vm all_overlaps,
                                                            const toi_hits *out, int full,
                                                            vspin_queue *sq)
{
    return boxes_blocks(n, A, B, NULL, NULL, all_overlaps, out, full, sq);
}

static __attribute__((noinline)) size_t boxes_blocks_list(size_t n, const toi_boxes *S,
                                                          const uint32_t *ia,
                                                          const uint32_t *ib, vm all_overlaps,
                                                          const toi_hits *out, int full,
                                                          vspin_queue *sq)
{
    return boxes_blocks(n, S, S, ia, ib, all_overlaps, out, full, sq);
}

/* Linear motion only (no rotation arrays): pairs a chunk at a time (boxes_chunk_linear). */
#define BOX_CHUNK (64 * VW)

/* A vector of pairs' linear inputs as the balls' test and the face pass read them: l = cA -
   cB and v = vA - vB (the first operations of every pass), the half extents and the
   quaternions. */
typedef struct vlin {
    vf l[3], v[3], ha[3], hb[3], qa[4], qb[4];
} vlin;

TOI_VINLINE vlin vlin_load(const toi_boxes *A, const toi_boxes *B, const uint32_t *ia,
                           const uint32_t *ib, size_t i, size_t cnt)
{
    const vbox a = vbox_load(A, ia, i, cnt), b = vbox_load(B, ib, i, cnt);
    vlin p;
    TOI_UNROLL
    for (int c = 0; c < 3; c++) {
        p.l[c] = vsub(a.c[c], b.c[c]), p.v[c] = vsub(a.v[c], b.v[c]);
        p.ha[c] = a.h[c], p.hb[c] = b.h[c];
    }
    TOI_UNROLL
    for (int c = 0; c < 4; c++)
        p.qa[c] = a.q[c], p.qb[c] = b.q[c];
    return p;
}

/* The size S = |l|_1 + |v|_1 + sum(h) of each pair, as vbox_rel's. */
TOI_VINLINE vf vlin_size(const vlin *p)
{
    const vf *l = p->l, *v = p->v, *ha = p->ha, *hb = p->hb;
    vf hsum = vadd(vadd(vadd(ha[0], ha[1]), ha[2]), vadd(vadd(hb[0], hb[1]), hb[2]));
    vf size = vadd(vadd(vadd(vabs(l[0]), vabs(l[1])), vabs(l[2])),
                   vadd(vadd(vabs(v[0]), vabs(v[1])), vabs(v[2])));
    return vadd(size, hsum);
}

/* The scalar's relative coordinates in scaled units (vbox_rel's, without its checks): l, v
   and the half extents times the power of two that brings the size S to [1, 2); returns S. */
TOI_VINLINE vf vlin_scale(const vlin *p, vf l[3], vf v[3], vf ha[3], vf hb[3])
{
    TOI_UNROLL
    for (int c = 0; c < 3; c++)
        l[c] = p->l[c], v[c] = p->v[c], ha[c] = p->ha[c], hb[c] = p->hb[c];
    vf size = vlin_size(p), s = vpow2_scale(size);
    TOI_UNROLL
    for (int c = 0; c < 3; c++) {
        l[c] = vmul(l[c], s), v[c] = vmul(v[c], s);
        ha[c] = vmul(ha[c], s), hb[c] = vmul(hb[c], s);
    }
    vf S = vmul(size, s);
    if (vany_sub(size))
        S = vbox_rescale_sub(size, s, S, l, v, ha, hb);
    return S;
}

/* The face pass of the linear path for one vector of pairs: the lanes the six face axes do
   not rule out (entry after 1, exit before 0, or empty), with exactly the scalar's
   operations up to its early miss. No validity check: a lane it rules out is a miss whether
   its input is valid (the scalar's early miss) or not (bad input), and a lane it keeps goes
   through the whole query. */
TOI_VINLINE vm vbox_faces(const vlin *p)
{
    const vf one = vset(1.0f), zero = vzero();
    vf l[3], v[3], ha[3], hb[3];
    vf eF = vmul(vlin_scale(p, l, v, ha, hb), vset(TOI_BOX_GROW_FACE));

    vf a[3][3], b[3][3], AC[3][3];
    vquat_axes(p->qa, vquat_norm2(p->qa), a);
    vquat_axes(p->qb, vquat_norm2(p->qb), b);
    TOI_UNROLL
    for (int r = 0; r < 3; r++)
        TOI_UNROLL
        for (int c = 0; c < 3; c++)
            AC[r][c] = vabs(vdot3(a[r], b[c]));

    vf tin = zero, tout = zero;
    TOI_UNROLL
    for (int k = 0; k < 6; k++) {
        if (k == 3) { /* A's face axes already rule out every lane: so do all six */
            vm alive = mand(mand(vle(tin, one), vge(tout, zero)), vle(tin, tout));
            if (!mbits(alive))
                return alive;
        }
        vf dlk, dvk, Rk, lo, hi;
        if (k < 3) {
            dlk = vdot3(a[k], l), dvk = vdot3(a[k], v);
            Rk = vadd(vadd(ha[k], vadd(vadd(vmul(hb[0], AC[k][0]), vmul(hb[1], AC[k][1])),
                                       vmul(hb[2], AC[k][2]))), eF);
        } else {
            const int j = k - 3;
            dlk = vdot3(b[j], l), dvk = vdot3(b[j], v);
            Rk = vadd(vadd(vadd(vadd(vmul(ha[0], AC[0][j]), vmul(ha[1], AC[1][j])),
                                vmul(ha[2], AC[2][j])), hb[j]), eF);
        }
        vbox_interval(dlk, dvk, Rk, &lo, &hi);
        if (k == 0) {
            tin = lo, tout = hi;
        } else {
            tin = vsel(vgt(lo, tin), lo, tin);
            tout = vsel(vlt(hi, tout), hi, tout);
        }
    }
    return mand(mand(vle(tin, one), vge(tout, zero)), vle(tin, tout));
}

/* A first pass's bookkeeping for pairs [i, i + cnt): the miss stored for every pair, the
   indices of those set in bits (still to answer) added to keep[*nk]. */
TOI_VINLINE void boxes_miss_keep(const toi_hits *out, size_t i, size_t cnt, int full,
                                 unsigned bits, uint32_t *keep, size_t *nk)
{
    const vres miss = vres_miss();
    vstore_res(out, i, &miss, cnt, full);
    if (out->t_exit)
        vstore_n(out->t_exit + i, miss.t, cnt);
    size_t m = *nk;
    for (; bits; bits &= bits - 1) /* the set bits only: most lanes are ruled out */
        keep[m++] = (uint32_t)(i + (size_t)__builtin_ctz(bits));
    *nk = m;
}

/* The balls' pass over pairs [i, i + cnt): the miss stored for every pair, the indices of
   those the balls' test (the whole query's, on the same inputs: the same bits) does not
   rule out added to cand[*nc]. */
TOI_VINLINE void boxes_balls_pass(const toi_boxes *A, const toi_boxes *B, const uint32_t *ia,
                                  const uint32_t *ib, const toi_hits *out, size_t i, size_t cnt,
                                  int full, uint32_t *cand, size_t *nc)
{
    vlin p = vlin_load(A, B, ia, ib, i, cnt);
    unsigned bits = ~mbits(vballs_apart(p.l, p.v, p.ha, p.hb, vlin_size(&p))) &
                    (unsigned)((1ull << cnt) - 1);
    boxes_miss_keep(out, i, cnt, full, bits, cand, nc);
}

/* The boxes' indices in A and B of the queued pairs q[0 .. cnt) (positions in the batch;
   a pair list's through ia, ib), the lanes past cnt repeating the first. */
TOI_VINLINE void boxes_queue_idx(const uint32_t *ia, const uint32_t *ib, const uint32_t *q,
                                 size_t cnt, uint32_t xa[VW], uint32_t xb[VW])
{
    for (size_t k = 0; k < VW; k++) {
        uint32_t e = q[k < cnt ? k : 0];
        xa[k] = ia ? ia[e] : e;
        xb[k] = ib ? ib[e] : e;
    }
}

/* The face pass on candidates c[0 .. cnt) (their misses already stored, their inputs
   gathered): the live ones added to live[*nl]. */
TOI_VINLINE void boxes_faces_cand(const toi_boxes *A, const toi_boxes *B, const uint32_t *ia,
                                  const uint32_t *ib, const uint32_t *c, size_t cnt,
                                  uint32_t *live, size_t *nl)
{
    uint32_t xa[VW], xb[VW];
    boxes_queue_idx(ia, ib, c, cnt, xa, xb);
    vlin p = vlin_load(A, B, xa, xb, 0, VW);
    unsigned bits = mbits(vbox_faces(&p)) & (unsigned)((1ull << cnt) - 1);
    size_t m = *nl;
    for (; bits; bits &= bits - 1)
        live[m++] = c[__builtin_ctz(bits)];
    *nl = m;
}

/* The face pass over every pair of [i, i + cnt) (a chunk without the balls' pass), read at
   [j, j + cnt) of A and B (a stage's copy or the arrays themselves): the misses stored, the
   live pairs' indices added to live[*nl]. */
TOI_VINLINE void boxes_faces_pass(const toi_boxes *A, const toi_boxes *B, const uint32_t *ia,
                                  const uint32_t *ib, size_t j, const toi_hits *out, size_t i,
                                  size_t cnt, int full, uint32_t *live, size_t *nl)
{
    vlin p = vlin_load(A, B, ia, ib, j, cnt);
    boxes_miss_keep(out, i, cnt, full, mbits(vbox_faces(&p)) & (unsigned)((1ull << cnt) - 1),
                    live, nl);
}

/* The last pass: the whole query for the live pairs q[0 .. cnt), stored at their places (with
   the balls' test unless they passed it already). */
TOI_VINLINE size_t boxes_live_pass(const toi_boxes *A, const toi_boxes *B, const uint32_t *ia,
                                   const uint32_t *ib, vm all_overlaps, const toi_hits *out,
                                   const uint32_t *q, size_t cnt, int full, int balls)
{
    uint32_t xa[VW], xb[VW];
    boxes_queue_idx(ia, ib, q, cnt, xa, xb);
    vbox a = vbox_load(A, xa, 0, VW), b = vbox_load(B, xb, 0, VW);
    vres r;
    vf te = vzero();
    vm spin;
    vm hit = sweep_box_call(&a, &b, all_overlaps, full, &r, out->t_exit ? &te : NULL, &spin,
                              balls);
    float f[9][VW];
    vstore(f[0], r.t);
    vstore(f[8], te);
    if (full) {
        vstore(f[1], r.nx), vstore(f[2], r.ny), vstore(f[3], r.nz);
        vstore(f[4], r.px), vstore(f[5], r.py), vstore(f[6], r.pz);
        vstore(f[7], r.depth);
    }
    for (size_t k = 0; k < cnt; k++) {
        const uint32_t e = q[k];
        out->t[e] = f[0][k];
        if (out->t_exit)
            out->t_exit[e] = f[8][k];
        if (full) {
            if (out->nx) out->nx[e] = f[1][k];
            if (out->ny) out->ny[e] = f[2][k];
            if (out->nz) out->nz[e] = f[3][k];
            if (out->px) out->px[e] = f[4][k];
            if (out->py) out->py[e] = f[5][k];
            if (out->pz) out->pz[e] = f[6][k];
            if (out->depth) out->depth[e] = f[7][k];
        }
    }
    return vcount_n(hit, cnt);
}

/* The thirteen input streams of each box of TOI_STAGE contiguous pairs, copied out a stream
   at a time for the face pass when they crowd an L1 set (toi_set_crowd): streams allocated
   apart (large allocations are page-aligned) often lie at one offset modulo 4 KiB, so that
   element i of all 26 falls in one L1 set, and read a vector at a time across all of them,
   26 lines compete for that set's ways at once (linear boxes, avx2, Zen 3: 17.8 against
   11.2 ns per pair with the streams staggered); a stream's lines read together, they do
   not. */
TOI_VINLINE void box_streams(const toi_boxes *A, const toi_boxes *B, const float *src[26])
{
    const float *s[26] = {A->x,  A->y,  A->z,  A->vx, A->vy, A->vz, A->qw, A->qx, A->qy,
                          A->qz, A->hx, A->hy, A->hz, B->x,  B->y,  B->z,  B->vx, B->vy,
                          B->vz, B->qw, B->qx, B->qy, B->qz, B->hx, B->hy, B->hz};
    memcpy(src, s, sizeof s);
}

/* Pairs [i, i + TOI_STAGE) of A and B copied into f; *sa and *sb read them there. */
TOI_VINLINE void box_stage_fill(float f[26][TOI_STAGE], const toi_boxes *A, const toi_boxes *B,
                                size_t i, toi_boxes *sa, toi_boxes *sb)
{
    const float *src[26];
    box_streams(A, B, src);
    vstage_copy(f, src, 26, i);
    *sa = (toi_boxes){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11],
                      f[12], NULL, NULL, NULL};
    *sb = (toi_boxes){f[13], f[14], f[15], f[16], f[17], f[18], f[19], f[20], f[21], f[22],
                      f[23], f[24], f[25], NULL, NULL, NULL};
}

/* The face pass of the TOI_STAGE contiguous pairs from i through a stage; returns nl. Out of
   line, so that the stage's frame is there only when used (inlined, it slowed the unstaged
   calls by about 4 %). */
static __attribute__((noinline)) size_t boxes_faces_staged(const toi_boxes *A,
                                                           const toi_boxes *B,
                                                           const toi_hits *out, size_t i,
                                                           int full, uint32_t *live, size_t nl)
{
    float f[26][TOI_STAGE];
    toi_boxes sa, sb;
    box_stage_fill(f, A, B, i, &sa, &sb);
    for (size_t h = 0; h < TOI_STAGE; h += VW) /* (not unrolled: one copy of the body) */
        boxes_faces_pass(&sa, &sb, NULL, NULL, h, out, i + h, VW, full, live, &nl);
    return nl;
}

/* Linear motion only (no rotation arrays): pairs [i0, i0 + n), n <= BOX_CHUNK, in passes that
   each leave fewer pairs to the next. The balls' test of every pair first (the scalar's
   box_balls_apart: on the bench's pairs it rules out about four in five, at a third of the
   face pass's cost), then the face axes of those it keeps, gathered into full vectors; or,
   where the balls kept more than half of a chunk's pairs (then the gathers cost more than
   the balls save) and for the next BOX_SKIP chunks, or when the streams crowd an L1 set
   (read through a stage), the face axes of every pair. The pairs they rule out get the miss;
   the rest, packed into full vectors, are answered by the whole kernel (which makes the
   balls' test too), so that the edge axes run on live pairs only. Every lane performs the
   same operations as in boxes_block: same bits, whichever passes ran. */
#define BOX_SKIP 7
TOI_VINLINE size_t boxes_chunk_linear(const toi_boxes *A, const toi_boxes *B,
                                      const uint32_t *ia, const uint32_t *ib, vm all_overlaps,
                                      const toi_hits *out, size_t i0, size_t n, int full,
                                      int staged, int *skip)
{
    uint32_t live[BOX_CHUNK]; /* pair indices: a call has at most TOI_RUN pairs (api.c) */
    size_t nl = 0, i = 0, j = 0, hits = 0;
    const int balls = staged || *skip; /* the whole query's test still to make */
    if (!balls) {
        uint32_t cand[BOX_CHUNK];
        size_t nc = 0;
        for (; i + VW <= n; i += VW)
            boxes_balls_pass(A, B, ia, ib, out, i0 + i, VW, full, cand, &nc);
        if (i < n)
            boxes_balls_pass(A, B, ia, ib, out, i0 + i, n - i, full, cand, &nc);
        for (; j + VW <= nc; j += VW)
            boxes_faces_cand(A, B, ia, ib, cand + j, VW, live, &nl);
        if (j < nc)
            boxes_faces_cand(A, B, ia, ib, cand + j, nc - j, live, &nl);
        if (2 * nc > n)
            *skip = BOX_SKIP;
    } else {
        if (staged)
            for (; i + TOI_STAGE <= n; i += TOI_STAGE)
                nl = full ? boxes_faces_staged(A, B, out, i0 + i, 1, live, nl)
                          : boxes_faces_staged(A, B, out, i0 + i, 0, live, nl);
        for (; i + VW <= n; i += VW)
            boxes_faces_pass(A, B, ia, ib, i0 + i, out, i0 + i, VW, full, live, &nl);
        if (i < n)
            boxes_faces_pass(A, B, ia, ib, i0 + i, out, i0 + i, n - i, full, live, &nl);
        if (*skip)
            --*skip;
    }
    for (j = 0; j + VW <= nl; j += VW)
        hits += boxes_live_pass(A, B, ia, ib, all_overlaps, out, live + j, VW, full, balls);
    if (j < nl)
        hits += boxes_live_pass(A, B, ia, ib, all_overlaps, out, live + j, nl - j, full,
                                balls);
    return hits;
}

/* Pairs [0, n) of the linear path, a chunk at a time. */
TOI_VINLINE size_t boxes_chunks(size_t n, const toi_boxes *A, const toi_boxes *B,
                                const uint32_t *ia, const uint32_t *ib, vm all_overlaps,
                                const toi_hits *out, int full, int staged)
{
    size_t hits = 0;
    int skip = 0;
    for (size_t i = 0; i < n; i += BOX_CHUNK)
        hits += boxes_chunk_linear(A, B, ia, ib, all_overlaps, out, i,
                                   n - i < BOX_CHUNK ? n - i : BOX_CHUNK, full, staged, &skip);
    return hits;
}

/* The contiguous pairs' linear path: a copy for t alone and one for every output (the face
   pass is their hot loop: with one copy for both they ran 8 to 21 % slower). */
TOI_VINLINE size_t boxes_linear(size_t n, const toi_boxes *A, const toi_boxes *B,
                                vm all_overlaps, const toi_hits *out, int full)
{
    const float *src[26];
    box_streams(A, B, src);
    const int staged = toi_set_crowd(src, 26) > TOI_CROWDED;
    return full ? boxes_chunks(n, A, B, NULL, NULL, all_overlaps, out, 1, staged)
                : boxes_chunks(n, A, B, NULL, NULL, all_overlaps, out, 0, staged);
}

/* The pair list's linear path: one copy for t alone and every output (its gathers, not the
   arithmetic, are what its face pass waits on), out of line; no stage (its bodies are
   gathered, not read as streams). */
static __attribute__((noinline)) size_t boxes_linear_list(size_t n, const toi_boxes *S,
                                                          const uint32_t *ia,
                                                          const uint32_t *ib, vm all_overlaps,
                                                          const toi_hits *out, int full)
{
    return boxes_chunks(n, S, S, ia, ib, all_overlaps, out, full, 0);
}

size_t TOI_FN(sweep_boxes)(size_t n, const toi_boxes *A, const toi_boxes *B, unsigned flags,
                           const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const int full = toi_wants_full(out);
    const toi_boxes a = *A, b = *B;
    const toi_hits o = *out;
    if (!a.wx && !b.wx)
        return vdone(boxes_linear(n, &a, &b, all_overlaps, &o, full));
    size_t hits = 0;
    vspin_queue sq;
    vspin_init(&sq, &a, &b, NULL, NULL, &o, all_overlaps, full);
    hits += boxes_blocks_contig(n, &a, &b, all_overlaps, &o, full, &sq);
    hits += vspin_run(&sq, 1);
    return vdone(hits);
}

size_t TOI_FN(sweep_box_pairs)(size_t n, const uint32_t *ia, const uint32_t *ib,
                               const toi_boxes *S, unsigned flags, const toi_hits *out)
{
    const vm all_overlaps = mconst((flags & TOI_ALL_OVERLAPS) != 0);
    const int full = toi_wants_full(out);
    const toi_boxes s = *S;
    const toi_hits o = *out;
    if (!s.wx)
        return vdone(boxes_linear_list(n, &s, ia, ib, all_overlaps, &o, full));
    size_t hits = 0;
    vspin_queue sq;
    vspin_init(&sq, &s, &s, ia, ib, &o, all_overlaps, full);
    hits += boxes_blocks_list(n, &s, ia, ib, all_overlaps, &o, full, &sq);
    hits += vspin_run(&sq, 1);
    return vdone(hits);
}
