/* simd/boxes_spin.h - oriented-box sweep with angular motion (conservative advancement),
   written once over the vector layer; included by simd/boxes.h. It performs the scalar
   reference's operations (src/scalar/boxes.c, sweep_box_spin, where the method is explained)
   in the same order, branch-free across VW queries, so every lane's result is bit-identical
   to the scalar's. The batch driver queues the rotating queries and vspin_run answers them
   with lane refill (a decided lane takes the next pending query). */

#define VSPIN_UP 1.00000095367431640625f
#define VSPIN_DOWN 0.99999904632568359375f

TOI_VINLINE void vspin_sincos(vf r, vf *s, vf *c)
{
    vf z = vmul(r, r);
    vf ps = vset(1.6059043836821613e-10f);
    ps = vsub(vmul(ps, z), vset(2.5052108385441720e-08f));
    ps = vadd(vmul(ps, z), vset(2.7557319223985893e-06f));
    ps = vsub(vmul(ps, z), vset(1.9841269841269841e-04f));
    ps = vadd(vmul(ps, z), vset(8.3333333333333333e-03f));
    ps = vsub(vmul(ps, z), vset(1.6666666666666667e-01f));
    *s = vadd(r, vmul(vmul(r, z), ps));
    vf pc = vset(-1.1470745597729725e-11f);
    pc = vadd(vmul(pc, z), vset(2.0876756987868099e-09f));
    pc = vsub(vmul(pc, z), vset(2.7557319223985891e-07f));
    pc = vadd(vmul(pc, z), vset(2.4801587301587302e-05f));
    pc = vsub(vmul(pc, z), vset(1.3888888888888889e-03f));
    pc = vadd(vmul(pc, z), vset(4.1666666666666667e-02f));
    pc = vsub(vmul(pc, z), vset(0.5f));
    *c = vadd(vset(1.0f), vmul(z, pc));
}

TOI_VINLINE void vspin_quat(vf phi, const vf u[3], const vf q[4], vf o[4])
{
    const vf pmax = vset(TOI_BOX_SPIN_PHI_MAX), magic = vset(0x1.8p23f);
    phi = vsel(vlt(phi, pmax), phi, pmax);
    vf k = vsub(vadd(vmul(phi, vset(0x1.45f306p-2f)), magic), magic);
    vf r = vsub(vsub(vsub(phi, vmul(k, vset(3.140625f))), vmul(k, vset(9.67502593994140625e-4f))),
                vmul(k, vset(1.509957990978376432e-7f)));
    vf s, c;
    vspin_sincos(r, &s, &c);
    vf sx = vmul(s, u[0]), sy = vmul(s, u[1]), sz = vmul(s, u[2]);
    o[0] = vsub(vsub(vsub(vmul(c, q[0]), vmul(sx, q[1])), vmul(sy, q[2])), vmul(sz, q[3]));
    o[1] = vsub(vadd(vadd(vmul(c, q[1]), vmul(sx, q[0])), vmul(sy, q[3])), vmul(sz, q[2]));
    o[2] = vadd(vadd(vsub(vmul(c, q[2]), vmul(sx, q[3])), vmul(sy, q[0])), vmul(sz, q[1]));
    o[3] = vadd(vsub(vadd(vmul(c, q[3]), vmul(sx, q[2])), vmul(sy, q[1])), vmul(sz, q[0]));
}

typedef struct vspin_box {
    vf u[3], wn, wb, r;
} vspin_box;

TOI_VINLINE void vspin_setup(const vf w[3], const vf h[3], vspin_box *o)
{
    const vf zero = vzero();
    vf m = vadd(vadd(vabs(w[0]), vabs(w[1])), vabs(w[2]));
    vf sw = vpow2_scale(m), un = vpow2_unscale(m);
    vf ws[3] = {vmul(w[0], sw), vmul(w[1], sw), vmul(w[2], sw)};
    vf ns = vsqrt(vdot3(ws, ws));
    vm nz = vgt(ns, zero);
    TOI_UNROLL
    for (int c = 0; c < 3; c++)
        o->u[c] = vsel(nz, vdiv(ws[c], ns), zero);
    o->wn = vmul(ns, un);
    o->wb = vmul(vmul(ns, vset(VSPIN_UP)), un);
    o->r = vadd(vmul(vsqrt(vdot3(h, h)), vset(VSPIN_UP)), vset(0x1p-70f));
}

/* The scalar's spin_at(): the boxes at time t, the 15 axes, the largest separation G and
   its axis kf (a float 0..14). */
typedef struct vspin_eval {
    vf a[3][3], b[3][3], C[3][3], D[3], dl[15], d[15], R[15], LL[15], G, kf;
} vspin_eval;

TOI_VINLINE void vspin_at(vf t, vf phia, vf phib, const vbox *A, const vbox *B,
                          const vspin_box *sa, const vspin_box *sb, const vf l[3], const vf v[3],
                          const vf ha[3], const vf hb[3], vf eF, vf eE, vspin_eval *e)
{
    vf qa[4], qb[4], AC[3][3];
    const vf one = vset(1.0f);
    vspin_quat(phia, sa->u, A->q, qa);
    vspin_quat(phib, sb->u, B->q, qb);
    vquat_axes(qa, vquat_norm2(qa), e->a);
    vquat_axes(qb, vquat_norm2(qb), e->b);
    TOI_UNROLL
    for (int c = 0; c < 3; c++)
        e->D[c] = vadd(l[c], vmul(t, v[c]));
    TOI_UNROLL
    for (int i = 0; i < 3; i++)
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            e->C[i][j] = vdot3(e->a[i], e->b[j]);
            AC[i][j] = vabs(e->C[i][j]);
        }
    TOI_UNROLL
    for (int i = 0; i < 3; i++) {
        e->dl[i] = vdot3(e->a[i], e->D);
        e->R[i] = vadd(vadd(ha[i], vadd(vadd(vmul(hb[0], AC[i][0]), vmul(hb[1], AC[i][1])),
                                        vmul(hb[2], AC[i][2]))), eF);
        e->LL[i] = one;
    }
    TOI_UNROLL
    for (int j = 0; j < 3; j++) {
        e->dl[3 + j] = vdot3(e->b[j], e->D);
        e->R[3 + j] = vadd(vadd(vadd(vadd(vmul(ha[0], AC[0][j]), vmul(ha[1], AC[1][j])),
                                     vmul(ha[2], AC[2][j])), hb[j]), eF);
        e->LL[3 + j] = one;
    }
    TOI_UNROLL
    for (int i = 0; i < 3; i++) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        TOI_UNROLL
        for (int j = 0; j < 3; j++) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3, m = 6 + 3 * i + j;
            vf c1 = e->C[i1][j], c2 = e->C[i2][j];
            e->dl[m] = vsub(vmul(c1, e->dl[i2]), vmul(c2, e->dl[i1]));
            e->R[m] = vadd(vadd(vadd(vmul(ha[i1], AC[i2][j]), vmul(ha[i2], AC[i1][j])),
                                vadd(vmul(hb[j1], AC[i][j2]), vmul(hb[j2], AC[i][j1]))), eE);
            e->LL[m] = vadd(vmul(c1, c1), vmul(c2, c2));
        }
    }
    TOI_UNROLL
    for (int k = 0; k < 15; k++) {
        e->d[k] = vabs(e->dl[k]);
        vf g = vsub(e->d[k], e->R[k]);
        if (k >= 6)
            g = vdiv(g, vsqrt(e->LL[k]));
        if (k == 0) {
            e->G = g, e->kf = vzero();
        } else {
            vm up = vgt(g, e->G);
            e->G = vsel(up, g, e->G);
            e->kf = vsel(up, vset((float)k), e->kf);
        }
    }
}

/* The scalar's spin_approach(): touching at t = 0, whether a vertex of either box's deepest
   feature closes along n. */
TOI_VINLINE vf vspin_least(const vf ax[3][3], const vf h[3], const vf n[3], float sgn, vf flat,
                           const vf M[3], vf c)
{
    const vf zero = vzero();
    TOI_UNROLL
    for (int m = 0; m < 3; m++) {
        vf an = vmul(vdot3(ax[m], n), vset(sgn));
        vf al = vmul(h[m], vdot3(ax[m], M));
        vf term = vsel(vgt(an, zero), al, vneg(al));
        term = vsel(vle(vmul(vabs(an), h[m]), flat), vneg(vabs(al)), term);
        c = vadd(c, term);
    }
    return c;
}

/* The scalar's spin_rates(). */
TOI_VINLINE void vspin_rates(const vf a[3][3], const vf b[3][3], const vf ha[3], const vf hb[3],
                             const vf wa[3], const vf wb[3], const vf v[3], const vf D[3],
                             const vf n[3], vf flat, vf M[3], vf c[2], vf u[2])
{
    vf W[3] = {vsub(wa[0], wb[0]), vsub(wa[1], wb[1]), vsub(wa[2], wb[2])}, nA[3], nB[3];
    vcross3(n, W, M);
    vcross3(n, wa, nA);
    vcross3(n, wb, nB);
    vf vn = vdot3(v, n);
    c[0] = vsub(vn, vdot3(D, nB)), c[1] = vsub(vn, vdot3(D, nA));
    u[0] = vspin_least(a, ha, n, -1.0f, flat, M, c[0]);
    u[1] = vspin_least(b, hb, n, 1.0f, flat, M, c[1]);
}

TOI_VINLINE vm vspin_approach(const vf a[3][3], const vf b[3][3], const vf ha[3], const vf hb[3],
                              const vf wa[3], const vf wb[3], const vf v[3], const vf D[3],
                              const vf n[3], vf flat)
{
    vf M[3], c[2], u[2];
    vspin_rates(a, b, ha, hb, wa, wb, v, D, n, flat, M, c, u);
    return mor(vlt(u[0], vzero()), vlt(u[1], vzero()));
}

/* The scalar's spin_leave_h(). */
TOI_VINLINE vf vspin_leave_h(const vf x[3][3], const vf hx[3], const vf y[3][3], const vf hy[3],
                             const vf n[3], const vf M[3], float sg, vf base, vf c, vf K,
                             vf erot, vf tau)
{
    vf s = vadd(base, vmul(tau, c)), mag = vadd(vabs(base), vmul(tau, vabs(c)));
    TOI_UNROLL
    for (int m = 0; m < 3; m++) {
        vf xn = vdot3(x[m], n), xm = vmul(vdot3(x[m], M), vset(sg));
        s = vsub(s, vmul(hx[m], vabs(vadd(xn, vmul(tau, xm)))));
        mag = vadd(mag, vmul(hx[m], vadd(vabs(xn), vmul(tau, vabs(xm)))));
    }
    TOI_UNROLL
    for (int m = 0; m < 3; m++) {
        vf yn = vmul(hy[m], vabs(vdot3(y[m], n)));
        s = vsub(s, yn);
        mag = vadd(mag, yn);
    }
    vf q = vmul(vmul(vmul(K, tau), tau), vset(0.5f));
    vf margin = vadd(erot, vmul(vadd(mag, q), vset(0x1p-18f)));
    return vsub(vsub(s, q), margin);
}

/* The scalar's spin_k(). */
TOI_VINLINE vf vspin_k(const vspin_box *x, const vspin_box *y, vf vmag, vf dv)
{
    const vf up = vset(VSPIN_UP);
    vf k = vadd(vadd(vmul(vmul(x->wb, x->wb), x->r),
                     vmul(vmul(vset(2.0f), y->wb), vadd(vmag, vmul(x->wb, x->r)))),
                vmul(vmul(y->wb, y->wb), vadd(dv, x->r)));
    return vmul(vmul(k, up), up);
}

/* The scalar's spin_leave(): touching at t = 0 (or held in that contact at a later t)
   without approaching, the time by which the boxes are certified apart again, counted from
   then (0: not shown while a box's vertices move apart; -1: no vertex moves apart). */
TOI_VINLINE vf vspin_leave(const vf a[3][3], const vf b[3][3], const vf ha[3], const vf hb[3],
                           const vspin_box *sa, const vspin_box *sb, const vf wa[3],
                           const vf wb[3], const vf v[3], vf vmag, const vf D[3], const vf n[3],
                           vf flat, vf erot)
{
    const vf zero = vzero(), one = vset(1.0f), up = vset(VSPIN_UP);
    vf M[3], c[2], u[2];
    vspin_rates(a, b, ha, hb, wa, wb, v, D, n, flat, M, c, u);
    vf c0 = c[0], c1 = c[1], ua = u[0], ub = u[1];
    vf base = vdot3(n, D), dmag = vmul(vsqrt(vdot3(D, D)), up);
    vf dv = vadd(dmag, vmag);
    vf ka = vspin_k(sa, sb, vmag, dv), kb = vspin_k(sb, sa, vmag, dv);
    vf ta = vsel(vgt(ua, zero), vdiv(ua, ka), zero), tb = vsel(vgt(ub, zero), vdiv(ub, kb), zero);
    ta = vsel(vlt(ta, one), ta, one);
    tb = vsel(vlt(tb, one), tb, one);
    vf t1 = zero;
    TOI_UNROLL
    for (int j = 0; j < 2; j++) {
        vf hA = vspin_leave_h(a, ha, b, hb, n, M, 1.0f, base, c0, ka, erot, ta);
        vf hB = vspin_leave_h(b, hb, a, ha, n, M, -1.0f, base, c1, kb, erot, tb);
        t1 = vsel(mand(vgt(hA, zero), vgt(ta, t1)), ta, t1);
        t1 = vsel(mand(vgt(hB, zero), vgt(tb, t1)), tb, t1);
        ta = vmul(ta, vset(1.75f));
        tb = vmul(tb, vset(1.75f));
        ta = vsel(vlt(ta, one), ta, one);
        tb = vsel(vlt(tb, one), tb, one);
    }
    return vsel(mor(vgt(t1, zero), mor(vgt(ua, zero), vgt(ub, zero))), t1, vset(-1.0f));
}

/* The scalar's box_normal() for the axis kf (a float 0..14 per lane); returns L.L. The
   operands are selected first, then the edge axis C_{i1,j} a_{i2} - C_{i2,j} a_{i1} is
   computed once (the same operations on the same values as the scalar's). */
TOI_VINLINE vf vspin_normal(const vf a[3][3], const vf b[3][3], const vf C[3][3],
                            const vf dl[15], vf kf, vf n[3], vf *dl_k)
{
    const vf zero = vzero();
    vf F[3] = {a[0][0], a[0][1], a[0][2]}, dlk = dl[0], c1 = zero, c2 = zero;
    TOI_UNROLL
    for (int k = 1; k < 15; k++) {
        vm m = veq(kf, vset((float)k));
        dlk = vsel(m, dl[k], dlk);
        if (k < 3) {
            TOI_UNROLL
            for (int c = 0; c < 3; c++)
                F[c] = vsel(m, a[k][c], F[c]);
        } else if (k < 6) {
            TOI_UNROLL
            for (int c = 0; c < 3; c++)
                F[c] = vsel(m, b[k - 3][c], F[c]);
        } else {
            const int i = (k - 6) / 3, j = (k - 6) % 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3;
            c1 = vsel(m, C[i1][j], c1);
            c2 = vsel(m, C[i2][j], c2);
        }
    }
    /* edge axes: i = 0 (kf 6..8) a_2, a_1; i = 1 (9..11) a_0, a_2; i = 2 (12..14) a_1, a_0 */
    vm i1m = vge(kf, vset(9.0f)), i2m = vge(kf, vset(12.0f)), face = vlt(kf, vset(6.0f));
    vm pos = vge(dlk, zero);
    vf L[3];
    TOI_UNROLL
    for (int c = 0; c < 3; c++) {
        vf P = vsel(i2m, a[1][c], vsel(i1m, a[0][c], a[2][c]));
        vf Q = vsel(i2m, a[0][c], vsel(i1m, a[2][c], a[1][c]));
        L[c] = vsel(face, F[c], vsub(vmul(c1, P), vmul(c2, Q)));
        L[c] = vsel(pos, L[c], vneg(L[c]));
    }
    vf nn = vdot3(L, L);
    vf inv = vdiv(vset(1.0f), vsqrt(nn));
    vm dir = vge(nn, vset(TOI_MIN_DIR2));
    n[0] = vsel(dir, vmul(L[0], inv), vset(TOI_FALLBACK_NX));
    n[1] = vsel(dir, vmul(L[1], inv), vset(TOI_FALLBACK_NY));
    n[2] = vsel(dir, vmul(L[2], inv), vset(TOI_FALLBACK_NZ));
    *dl_k = dlk;
    return nn;
}

/* The scalar's spin_rr(). */
TOI_VINLINE vf vspin_rr(vf ra, vf rb)
{
    const vf m = vset(0x1p-16f);
    vf rho = vadd(vmul(vadd(ra, rb), vset(VSPIN_UP)), m);
    return vadd(vmul(rho, rho), m);
}

/* The scalar's spin_start(): the first time the bounding spheres can meet, rounded down. */
TOI_VINLINE vf vspin_start(const vf l[3], const vf v[3], vf ra, vf rb)
{
    const vf up = vset(VSPIN_UP), down = vset(VSPIN_DOWN), zero = vzero();
    vf rr = vspin_rr(ra, rb);
    vf c = vdot3(l, l), a = vdot3(v, v), b = vdot3(l, v);
    vf N = vmul(vsub(c, rr), down), nb = vsub(vset(0x1p-20f), b);
    vf disc = vmul(vsub(vmul(vmul(nb, nb), up), vmul(vmul(a, N), down)), up);
    disc = vsel(vgt(disc, zero), disc, zero);
    vf t0 = vmul(vdiv(N, vmul(vadd(nb, vmul(vsqrt(disc), up)), up)), down);
    t0 = vsel(vlt(t0, vset(1.0f)), t0, vset(1.0f));
    return vsel(mand(vgt(c, rr), vlt(b, zero)), t0, zero);
}

/* A rotating query's inputs and its per-query constants (the scalar's sweep_box_spin before
   its loop), one query per lane. */
typedef struct vspin_q {
    vbox A, B;
    vf l[3], v[3], ha[3], hb[3], size, S, eF, eE, vn, bound, tol, eN, t0;
    vspin_box sa, sb;
} vspin_q;

/* Lanes with a rotation: |wA|_1 > 0 or |wB|_1 > 0 (sweep_box_vec's test, before validity). */
TOI_VINLINE vm vspin_turning(const vbox *A, const vbox *B)
{
    const vf zero = vzero();
    vf wma = vadd(vadd(vabs(A->w[0]), vabs(A->w[1])), vabs(A->w[2]));
    vf wmb = vadd(vadd(vabs(B->w[0]), vabs(B->w[1])), vabs(B->w[2]));
    return mor(vgt(wma, zero), vgt(wmb, zero));
}

/* Returns the lanes whose input is valid (the scalar's sweep_box checks). */
TOI_VINLINE vm vspin_prep(vspin_q *Q)
{
    const vbox *A = &Q->A, *B = &Q->B;
    vf qqa, qqb;
    vm turning;
    vm valid = vbox_rel(A, B, Q->l, Q->v, Q->ha, Q->hb, &Q->size, &Q->S, &Q->eF, &Q->eE, &qqa,
                        &qqb, &turning);
    vspin_setup(A->w, Q->ha, &Q->sa);
    vspin_setup(B->w, Q->hb, &Q->sb);
    Q->vn = vadd(vmul(vsqrt(vdot3(Q->v, Q->v)), vset(VSPIN_UP)), vset(0x1p-70f));
    Q->bound = vadd(vadd(Q->vn, vmul(Q->sa.wb, Q->sa.r)), vmul(Q->sb.wb, Q->sb.r));
    Q->tol = vmul(Q->S, vset(TOI_BOX_SPIN_TOL));
    Q->eN = vmul(Q->S, vset(0x1p-18f));
    Q->t0 = vspin_start(Q->l, Q->v, Q->sa.r, Q->sb.r);
    return valid;
}

/* vspin_iter's lanes ov touching at t = 0 (rare: out of line): those that neither approach
   nor are wanted with every overlap nor move apart uncertified within the tolerance
   (returned: a miss or on); of them, those certified apart again before t = 1 in *go, from
   *t1 on. */
static __attribute__((noinline)) vm vspin_touching(const vspin_q *Q, const vspin_eval *e,
                                                   const vf n[3], vf dlk, vm ov,
                                                   vm all_overlaps, vf *t1, vm *go)
{
    const vf zero = vzero();
    vf flat = vmul(Q->S, vset(TOI_BOX_FLAT));
    vm approach = mand(vspin_approach(e->a, e->b, Q->ha, Q->hb, Q->A.w, Q->B.w, Q->v, e->D, n,
                                      flat),
                       vgt(vabs(dlk), zero));
    /* the scalar's spin_open(): the first tied axis along which they do not approach */
    vm cand = mandnot(mand(ov, approach), all_overlaps), open = mconst(0);
    vf nl[3] = {n[0], n[1], n[2]};
    if (mbits(cand)) {
        const vf lim = vsub(e->G, vmul(Q->S, vset(TOI_BOX_TIE))), quarter = vset(0.25f);
        for (int k = 0; k < 15; k++) {
            vf g = vsub(e->d[k], e->R[k]);
            if (k >= 6)
                g = vdiv(g, vsqrt(e->LL[k]));
            vm tied = mandnot(mand(cand, mand(vge(g, lim), vge(e->LL[k], quarter))), open);
            if (!mbits(tied))
                continue;
            vf nk[3], dk;
            vspin_normal(e->a, e->b, e->C, e->dl, vset((float)k), nk, &dk);
            vm op = mandnot(tied, mand(vspin_approach(e->a, e->b, Q->ha, Q->hb, Q->A.w, Q->B.w,
                                                      Q->v, e->D, nk, flat),
                                       vgt(e->d[k], zero)));
            for (int c = 0; c < 3; c++)
                nl[c] = vsel(op, nk[c], nl[c]);
            open = mor(open, op);
        }
        approach = mandnot(approach, open);
    }
    vm leave = mandnot(ov, mor(approach, all_overlaps));
    if (mbits(leave)) {
        *t1 = vspin_leave(e->a, e->b, Q->ha, Q->hb, &Q->sa, &Q->sb, Q->A.w, Q->B.w, Q->v, Q->vn,
                          e->D, nl, flat,
                          vmul(vadd(Q->sa.r, Q->sb.r), vset(TOI_BOX_SPIN_EROT)));
        /* moving apart but not shown apart, touching within the tolerance: a hit at t = 0 */
        leave = mandnot(leave, mand(veq(*t1, zero), vge(e->G, vneg(Q->tol))));
        *go = mand(leave, mand(vgt(*t1, zero), vlt(*t1, vset(1.0f))));
    }
    return leave;
}

/* The scalar's spin_stay_one(). */
TOI_VINLINE vf vspin_stay_one(const vf xa[3][3], const vf xb[3][3], const vf C[3][3], int tr,
                              const vf dlx[3], const vf dly[3], float sg, const vf hx[3],
                              const vf hy[3], const vf wx[3], const vf wy[3], const vf v[3],
                              const vf D[3], vf K, vf margin, vf uerr, vf *depth)
{
    const vf zero = vzero(), up = vset(VSPIN_UP), two = vset(2.0f), s = vset(sg);
    vf x[3], px[3], py[3], u[3], c1[3], c2[3], tau = zero, dmin = zero;
    TOI_UNROLL
    for (int m = 0; m < 3; m++)
        x[m] = vclamp(vmul(vneg(dlx[m]), s), hx[m]);
    TOI_UNROLL
    for (int c = 0; c < 3; c++) {
        px[c] = vadd(vadd(vmul(x[0], xa[0][c]), vmul(x[1], xa[1][c])), vmul(x[2], xa[2][c]));
        py[c] = vadd(px[c], vmul(s, D[c]));
    }
    vcross3(wx, px, c1);
    vcross3(wy, py, c2);
    TOI_UNROLL
    for (int c = 0; c < 3; c++)
        u[c] = vsub(vadd(vmul(s, v[c]), c1[c]), c2[c]);
    TOI_UNROLL
    for (int j = 0; j < 3; j++) {
        vf cj = tr ? vadd(vadd(vmul(x[0], C[j][0]), vmul(x[1], C[j][1])), vmul(x[2], C[j][2]))
                   : vadd(vadd(vmul(x[0], C[0][j]), vmul(x[1], C[1][j])), vmul(x[2], C[2][j]));
        vf yj = vadd(vmul(dly[j], s), cj);
        vf dj = vsub(vsub(hy[j], vabs(yj)), margin);
        vf uj = vmul(vadd(vabs(vdot3(u, xb[j])), uerr), up);
        vf tj = vdiv(vmul(two, dj),
                     vmul(vadd(uj, vsqrt(vadd(vmul(uj, uj), vmul(vmul(two, K), dj)))), up));
        tj = vsel(mand(vgt(dj, zero), vgt(tj, zero)), tj, zero);
        tau = j == 0 ? tj : vsel(vlt(tj, tau), tj, tau);
        dmin = j == 0 ? dj : vsel(vlt(dj, dmin), dj, dmin);
    }
    *depth = dmin;
    return tau;
}

/* The scalar's step for a query held in its first contact (rare: out of line): the next t of
   the lanes in hm, at t with the evaluation e, the rotation error bound err, phia + phib
   (phis) and the normal n of e's axis. */
static __attribute__((noinline)) vf vspin_hold(const vspin_q *Q, const vspin_eval *e, vf t,
                                               vf err, vf phis, const vf n[3], vm hm)
{
    const vf zero = vzero(), up = vset(VSPIN_UP);
    vf bu = vmul(Q->bound, up), t1 = zero, da, db;
    vf dv = vadd(vmul(vsqrt(vdot3(e->D, e->D)), up), Q->vn);
    vf uerr = vadd(vmul(bu, vadd(vset(TOI_BOX_SPIN_EROT), vmul(vset(TOI_BOX_SPIN_EANG), phis))),
                   vmul(vadd(Q->sa.wb, Q->sb.wb), err));
    vf margin = vadd(err, Q->eN);
    vf ta = vspin_stay_one(e->a, e->b, e->C, 0, e->dl, e->dl + 3, 1.0f, Q->ha, Q->hb, Q->A.w,
                           Q->B.w, Q->v, e->D, vspin_k(&Q->sa, &Q->sb, Q->vn, dv), margin,
                           uerr, &da);
    vf tb = vspin_stay_one(e->b, e->a, e->C, 1, e->dl + 3, e->dl, -1.0f, Q->hb, Q->ha, Q->B.w,
                           Q->A.w, Q->v, e->D, vspin_k(&Q->sb, &Q->sa, Q->vn, dv), margin,
                           uerr, &db);
    vf c = vsel(vgt(da, db), da, db);
    vf tq = vmul(vsel(vgt(ta, tb), ta, tb), vset(VSPIN_DOWN));
    vm lv = mand(hm, mandnot(vgt(t, zero), vgt(c, Q->tol)));
    if (mbits(lv))
        t1 = vsel(lv,
                  vspin_leave(e->a, e->b, Q->ha, Q->hb, &Q->sa, &Q->sb, Q->A.w, Q->B.w, Q->v,
                              Q->vn, e->D, n, vmul(Q->S, vset(TOI_BOX_FLAT)), err),
                  zero);
    c = vsel(vgt(c, Q->tol), c, Q->tol);
    vf dt = vmul(vdiv(vsub(c, vmul(vmul(t, vset(0x1p-22f)), bu)), bu), vset(VSPIN_DOWN));
    tq = vsub(tq, vmul(t, vset(0x1p-22f)));
    dt = vsel(vgt(tq, dt), tq, dt);
    dt = vsel(vgt(t1, dt), t1, dt);
    return vadd(t, vsel(vgt(dt, zero), dt, zero));
}

/* One pass of the scalar's loop for the lanes in live, lane by lane at its own time t and
   iteration count it (a float): the lanes it decides in *dec, of them the hits (overlap at
   t = 0 approaching or with every overlap wanted, within the tolerance, budget spent) in
   *hit, the overlaps in *ov; the other live lanes' t advanced (an overlap at t = 0 that does
   not approach to the time vspin_leave certifies, or decided as a miss). *held: the lanes
   held in their first contact (the scalar's held), in and out. */
TOI_VINLINE void vspin_iter(const vspin_q *Q, vf *tp, vf it, vm live, vm all_overlaps, vm *dec,
                            vm *hit, vm *ov, vm *held)
{
    const vf zero = vzero(), one = vset(1.0f), two = vset(2.0f), half = vset(0.5f);
    const vf erot = vset(TOI_BOX_SPIN_EROT), eang = vset(TOI_BOX_SPIN_EANG);
    const vf up = vset(VSPIN_UP), e20 = vset(0x1p-20f);
    const vspin_box *sa = &Q->sa, *sb = &Q->sb;
    const vf *v = Q->v, vn = Q->vn;
    vf t = *tp;
    vspin_eval e;
    vf phia = vmul(vmul(t, sa->wn), half), phib = vmul(vmul(t, sb->wn), half);
    vspin_at(t, phia, phib, &Q->A, &Q->B, sa, sb, Q->l, v, Q->ha, Q->hb, Q->eF, Q->eE, &e);
    vf err = vadd(vmul(vadd(erot, vmul(eang, phia)), sa->r),
                  vmul(vadd(erot, vmul(eang, phib)), sb->r));
    vf gap = vsub(vsub(e.G, Q->eN), vsel(vgt(t, zero), err, zero));
    vm ov_now = mand(live, mand(veq(t, zero), vle(e.G, zero)));
    vf n[3], dlk;
    vf nn = vspin_normal(e.a, e.b, e.C, e.dl, e.kf, n, &dlk);
    /* touching at t = 0: a hit when they approach (or every overlap is wanted); otherwise on
       from the time they are certified apart again (t1), a miss when not shown */
    vm ov_go = mconst(0), live0 = live, hold = *held;
    vf t1 = zero;
    if (mbits(ov_now)) {
        vm ov_leave = vspin_touching(Q, &e, n, dlk, ov_now, all_overlaps, &t1, &ov_go);
        /* not shown apart, deeper than the tolerance: held in the first contact */
        vm newheld = mand(ov_leave, veq(t1, zero));
        ov_now = mandnot(ov_now, ov_leave);
        live = mandnot(live, mandnot(ov_leave, newheld));
        hold = mor(hold, newheld);
    }
    vm rest = mandnot(live, ov_now);
    /* held: on until certified apart (gap > 0, then as any other lane), a hit at t = 0 with
       the overlap when the budget is spent, a miss when in contact to the end of the step */
    hold = mand(rest, mand(hold, vle(gap, zero)));
    rest = mandnot(rest, hold);
    vm hold_budget = mand(hold, veq(it, vset((float)TOI_BOX_SPIN_BUDGET)));
    vm hmove = mandnot(hold, hold_budget);
    vf th = t;
    if (mbits(hmove)) {
        th = vspin_hold(Q, &e, t, err, vadd(phia, phib), n, hmove);
        hmove = mand(hmove, vlt(th, one));
    }
    *held = hmove;
    vm hit_now = mand(rest, vle(gap, Q->tol));
    rest = mandnot(rest, hit_now);
    vf rem = vsub(one, t), ra = vmul(sa->wb, rem), rb = vmul(sb->wb, rem);
    ra = vsel(vlt(ra, two), ra, two);
    rb = vsel(vlt(rb, two), rb, two);
    vf reach = vmul(vadd(vadd(vmul(vn, rem), vmul(ra, sa->r)), vmul(rb, sb->r)), up);
    vm miss_now = mand(rest, vgt(gap, reach));
    rest = mandnot(rest, miss_now);
    vm budget_now = mand(rest, veq(it, vset((float)TOI_BOX_SPIN_BUDGET)));
    rest = mandnot(rest, budget_now);
    *ov = mor(ov_now, hold_budget);
    *hit = mor(mor(mor(ov_now, hit_now), budget_now), hold_budget);
    vf ca[3], cb[3];
    vf vnn = vdot3(v, n);
    vcross3(n, sa->u, ca);
    vcross3(n, sb->u, cb);
    vf beta = vadd(vadd(vsel(vlt(vnn, zero), vneg(vnn), zero), vmul(vn, e20)),
                   vadd(vmul(vmul(vadd(vmul(vsqrt(vdot3(ca, ca)), up), e20), sa->wb), sa->r),
                        vmul(vmul(vadd(vmul(vsqrt(vdot3(cb, cb)), up), e20), sb->wb), sb->r)));
    beta = vmul(beta, up);
    beta = vsel(vge(nn, vset(TOI_MIN_DIR2)), beta, Q->bound);
    vf slack = vmul(vmul(t, vset(0x1p-22f)), beta);
    vf dt = vmul(vdiv(vsub(gap, slack), beta), vset(VSPIN_DOWN));
    vm clear = mand(rest, vgt(dt, vmul(rem, up)));
    rest = mandnot(rest, clear);
    *dec = mandnot(mandnot(mandnot(live0, rest), ov_go), hmove);
    dt = vsel(vgt(dt, zero), dt, zero);
    vf tn = vadd(t, dt);
    tn = vsel(vlt(tn, one), tn, one);
    *tp = vsel(rest, tn, vsel(ov_go, t1, vsel(hmove, th, vsel(hold_budget, zero, t))));
}

/* The lanes in hitm (decided as hits at their t; ov: touching at t = 0, approaching or every
   overlap wanted), of those in active: the evaluation that decided them again, the normal,
   point and depth. */
TOI_VINLINE vm vspin_tail(const vspin_q *Q, vf t, vm active, vm hitm, vm ov, int full, vres *o,
                          vf *texit)
{
    const vf half = vset(0.5f);
    const vbox *A = &Q->A, *B = &Q->B;
    const vf *ha = Q->ha, *hb = Q->hb, S = Q->S;
    vspin_eval e;
    vf phia = vmul(vmul(t, Q->sa.wn), half), phib = vmul(vmul(t, Q->sb.wn), half);
    vspin_at(t, phia, phib, A, B, &Q->sa, &Q->sb, Q->l, Q->v, ha, hb, Q->eF, Q->eE, &e);
    vf nv[3], p[3], dk, Rk, ek, LLk;
    vbox_normal_point(e.a, e.b, e.C, e.dl, e.d, e.R, e.LL, Q->eF, Q->eE, e.kf,
                      mand(active, hitm), e.D, ha, hb, S, nv, p, &dk, &Rk, &ek, &LLk);
    vm hit = mand(active, hitm);
    o->t = vsel(hit, t, vset(TOI_NO_HIT));
    *texit = o->t;
    if (!full)
        return hit;
    vbox_overlap_point(e.a, e.b, e.C, e.dl, e.D, ha, hb,
                       mand(mand(hit, ov), vge(e.kf, vset(6.0f))), p);
    vbox_contact_out(B, t, hit, ov, nv, p, dk, Rk, ek, LLk, Q->size, o);
    return hit;
}

/* Lane refill. In a block every lane iterates until the block's slowest is decided (on the
   bench's spin scene 5.3 evaluations a lane for avx2 against 2.3 a query), so the batch
   driver queues the rotating queries (positions k in the batch) and answers them here: a
   lane whose query is decided takes the next pending one, and the decided hits are
   finished (the tail) in blocks of their own afterwards (with t only, a hit not touching at
   t = 0 needs no tail: the tail's t would be its own). A query held in its first contact
   (vspin_hold, out of line: one call runs for the whole vector) is parked with its t and
   iteration count until the call's last run has no other query pending (up to VSPIN_PARK
   of them; past that it stays in its lane): the held queries then share their calls. A
   query's operations do not depend on its lane or on when it runs, so every result stays
   the scalar's. */
#define VSPIN_QUEUE 256
#define VSPIN_PARK 256
#ifndef VSPIN_REFILL
#define VSPIN_REFILL (VW / 4 > 1 ? VW / 4 : 1) /* free lanes that trigger a refill */
#endif

typedef struct vspin_queue {
    const toi_boxes *A, *B;
    const uint32_t *ia, *ib;
    const toi_hits *out;
    vm all_overlaps;
    int full;
    size_t n;
    uint32_t k[VSPIN_QUEUE]; /* pair indices: a call has at most TOI_RUN pairs (api.c) */
    size_t np;               /* parked held queries: position, t, iteration count */
    uint32_t pk[VSPIN_PARK];
    float pt[VSPIN_PARK], pit[VSPIN_PARK];
} vspin_queue;

/* An empty queue for a call (its arrays are written before they are read). */
TOI_VINLINE void vspin_init(vspin_queue *sq, const toi_boxes *A, const toi_boxes *B,
                            const uint32_t *ia, const uint32_t *ib, const toi_hits *out,
                            vm all_overlaps, int full)
{
    sq->A = A, sq->B = B, sq->ia = ia, sq->ib = ib, sq->out = out;
    sq->all_overlaps = all_overlaps, sq->full = full, sq->n = 0, sq->np = 0;
}

/* Lane j of the staging area raw (A's 16 fields, then B's) takes the query at position k. */
TOI_VINLINE void vspin_stage(const vspin_queue *sq, float raw[32][VW], int j, uint32_t k)
{
    const toi_boxes *const bx[2] = {sq->A, sq->B};
    const uint32_t ix[2] = {sq->ia ? sq->ia[k] : k, sq->ib ? sq->ib[k] : k};
    for (int s = 0; s < 2; s++) {
        const toi_boxes *B = bx[s];
        const size_t i = ix[s];
        raw[16 * s + 0][j] = B->x[i], raw[16 * s + 1][j] = B->y[i], raw[16 * s + 2][j] = B->z[i];
        raw[16 * s + 3][j] = B->vx[i], raw[16 * s + 4][j] = B->vy[i];
        raw[16 * s + 5][j] = B->vz[i];
        raw[16 * s + 6][j] = B->qw[i], raw[16 * s + 7][j] = B->qx[i];
        raw[16 * s + 8][j] = B->qy[i], raw[16 * s + 9][j] = B->qz[i];
        raw[16 * s + 10][j] = B->hx[i], raw[16 * s + 11][j] = B->hy[i];
        raw[16 * s + 12][j] = B->hz[i];
        raw[16 * s + 13][j] = B->wx ? B->wx[i] : 0.0f;
        raw[16 * s + 14][j] = B->wx ? B->wy[i] : 0.0f;
        raw[16 * s + 15][j] = B->wx ? B->wz[i] : 0.0f;
    }
}

/* The lanes' queries from the staging area, and their constants: a lane whose query is
   unchanged gets the same values again. */
TOI_VINLINE vm vspin_load(float raw[32][VW], vspin_q *Q)
{
    vf *const a = (vf *)(void *)&Q->A, *const b = (vf *)(void *)&Q->B;
    for (int f = 0; f < 16; f++)
        a[f] = vload(raw[f]), b[f] = vload(raw[16 + f]);
    return vspin_prep(Q);
}

TOI_VINLINE void vspin_store_miss(const toi_hits *out, size_t k, int full)
{
    out->t[k] = TOI_NO_HIT;
    if (out->t_exit)
        out->t_exit[k] = TOI_NO_HIT;
    if (!full)
        return;
    if (out->nx) out->nx[k] = 0.0f;
    if (out->ny) out->ny[k] = 0.0f;
    if (out->nz) out->nz[k] = 0.0f;
    if (out->px) out->px[k] = 0.0f;
    if (out->py) out->py[k] = 0.0f;
    if (out->pz) out->pz[k] = 0.0f;
    if (out->depth) out->depth[k] = 0.0f;
}

/* The decided hits (positions hk, times ht, overlap flags hov as 0 / 1): their tail, VW at a
   time, and their outputs. Returns the hits that stand. */
static inline size_t vspin_finish(const vspin_queue *sq, const uint32_t *hk, const float *ht,
                                  const float *hov, size_t nh, float raw[32][VW])
{
    const toi_hits *out = sq->out;
    const vf zero = vzero();
    size_t hits = 0;
    vspin_q Q;
    for (size_t i = 0, cnt = VW; i < nh; i += cnt) {
        if (nh - i < VW)
            cnt = nh - i;
        uint32_t kk[VW];
        float act[VW];
        for (size_t j = 0; j < VW; j++) {
            kk[j] = hk[i + (j < cnt ? j : 0)], act[j] = j < cnt ? 1.0f : 0.0f;
            vspin_stage(sq, raw, (int)j, kk[j]);
        }
        (void)vspin_load(raw, &Q);
        vf th = vload_n(ht + i, cnt);
        vm ovm = vgt(vload_n(hov + i, cnt), zero);
        vm active = vgt(vload(act), zero);
        vres r;
        vf te;
        vm h = vspin_tail(&Q, th, active, active, ovm, sq->full, &r, &te);
        hits += vcount_n(h, cnt);
        float buf[8][VW];
        vf *rv[8] = {&r.t, &r.nx, &r.ny, &r.nz, &r.px, &r.py, &r.pz, &r.depth};
        float *dst[8] = {out->t, out->nx, out->ny, out->nz, out->px, out->py, out->pz,
                         out->depth};
        int nf = sq->full ? 8 : 1;
        for (int f = 0; f < nf; f++)
            vstore(buf[f], *rv[f]);
        for (size_t j = 0; j < cnt; j++) {
            for (int f = 0; f < nf; f++)
                if (dst[f])
                    dst[f][kk[j]] = buf[f][j];
            if (out->t_exit)
                out->t_exit[kk[j]] = buf[0][j];
        }
    }
    return hits;
}

/* Answers the queued queries; the call's last run (last) also the parked ones. */
static inline size_t vspin_run(vspin_queue *sq, int last)
{
    const size_t n = sq->n;
    const toi_hits *out = sq->out;
    const vf zero = vzero(), one = vset(1.0f);
    const unsigned all = mbits(mconst(1));
    if (!n && !(last && sq->np))
        return 0;
    uint32_t hk[VSPIN_QUEUE + VSPIN_PARK], lk[VW];
    float ht[VSPIN_QUEUE + VSPIN_PARK], hov[VSPIN_QUEUE + VSPIN_PARK], raw[32][VW];
    size_t nh = 0, next = 0, hits = 0, pnext = 0;
    vspin_q Q;
    vf t = zero, it = zero;
    vm held = mconst(0);
    unsigned busy = 0; /* lanes holding a query */
    for (int j = 0; j < VW; j++)
        vspin_stage(sq, raw, j, n ? sq->k[0] : sq->pk[0]);
    for (;;) {
        unsigned idle = all & ~busy;
        int nidle = 0;
        const size_t np = last ? sq->np : 0; /* parked queries to take up, after the queue */
        for (int j = 0; j < VW; j++)
            nidle += (idle >> j) & 1u;
        if ((next < n || pnext < np) && (nidle >= VSPIN_REFILL || !busy)) {
            float f[VW], fp[VW], tp[VW], itp[VW];
            for (int j = 0; j < VW; j++) {
                f[j] = fp[j] = tp[j] = itp[j] = 0.0f;
                if (!((idle >> j) & 1u))
                    continue;
                if (next < n)
                    lk[j] = sq->k[next++];
                else if (pnext < np)
                    lk[j] = sq->pk[pnext], tp[j] = sq->pt[pnext], itp[j] = sq->pit[pnext],
                    fp[j] = 1.0f, pnext++;
                else
                    continue;
                f[j] = 1.0f, busy |= 1u << j;
                vspin_stage(sq, raw, j, lk[j]);
            }
            vm m = vgt(vload(f), zero), mp = vgt(vload(fp), zero);
            /* a refilled lane with invalid input: a miss (queued from an all-rotating block
               without sweep_box_vec's checks; a parked query was valid) */
            unsigned bad = mbits(mandnot(m, vspin_load(raw, &Q)));
            for (int j = 0; j < VW; j++)
                if ((bad >> j) & 1u)
                    vspin_store_miss(out, lk[j], sq->full), busy &= ~(1u << j);
            t = vsel(mp, vload(tp), vsel(m, Q.t0, t));
            it = vsel(mp, vload(itp), vsel(m, zero, it));
            held = mor(mandnot(held, m), mp);
        }
        if (!busy) {
            if (next < n || pnext < np)
                continue; /* every refilled lane was invalid: refill again */
            break;
        }
        float f[VW];
        for (int j = 0; j < VW; j++)
            f[j] = ((busy >> j) & 1u) ? 1.0f : 0.0f;
        vm live = vgt(vload(f), zero);
        vm dec, hm, ov;
        vspin_iter(&Q, &t, it, live, sq->all_overlaps, &dec, &hm, &ov, &held);
        it = vadd(it, one);
        /* held lanes parked: not in the last run once it has nothing else pending */
        unsigned park = (next < n || !last) ? mbits(held) : 0u;
        if (park) {
            float tt[VW], ii[VW];
            vstore(tt, t);
            vstore(ii, it);
            for (; park && sq->np < VSPIN_PARK; park &= park - 1) {
                int j = __builtin_ctz(park);
                sq->pk[sq->np] = lk[j], sq->pt[sq->np] = tt[j], sq->pit[sq->np] = ii[j];
                sq->np++;
                busy &= ~(1u << j); /* its held bit: not live, reset at the refill */
            }
        }
        unsigned db = mbits(dec);
        if (db) {
            unsigned hb = mbits(hm), ob = mbits(ov);
            float tt[VW];
            vstore(tt, t);
            for (int j = 0; j < VW; j++) {
                if (!((db >> j) & 1u))
                    continue;
                busy &= ~(1u << j);
                if ((hb >> j) & 1u && !sq->full && !((ob >> j) & 1u)) {
                    /* t only, not touching at t = 0: the tail would give t itself */
                    out->t[lk[j]] = tt[j];
                    if (out->t_exit)
                        out->t_exit[lk[j]] = tt[j];
                    hits++;
                } else if ((hb >> j) & 1u) {
                    hk[nh] = lk[j];
                    ht[nh] = tt[j];
                    hov[nh] = (float)((ob >> j) & 1u);
                    nh++;
                } else
                    vspin_store_miss(out, lk[j], sq->full);
            }
        }
    }
    hits += vspin_finish(sq, hk, ht, hov, nh, raw);
    sq->n = 0;
    return hits;
}

/* The scalar's spin_far(): the lanes whose bounding spheres never meet (a miss), from the
   pair's scaled relative coordinates (vbox_rel, the scalar's sweep_box). No validity check:
   a lane it rejects is a miss whether its input is valid or not. */
TOI_VINLINE vm vspin_far(const vbox *A, const vbox *B)
{
    vf l[3], v[3], ha[3], hb[3], size, S, eF, eE, qqa, qqb;
    vm turning;
    (void)vbox_rel(A, B, l, v, ha, hb, &size, &S, &eF, &eE, &qqa, &qqb, &turning);
    const vf up = vset(VSPIN_UP), tiny = vset(0x1p-70f);
    vf ra = vadd(vmul(vsqrt(vdot3(ha, ha)), up), tiny);
    vf rb = vadd(vmul(vsqrt(vdot3(hb, hb)), up), tiny);
    return vseg_ball_apart(l, v, vspin_rr(ra, rb), vset(0x1p-16f), vzero());
}

/* The driver's hook: of the lanes in spin of the block at i (cnt lanes, loaded as A, B),
   those whose bounding spheres never meet get the miss, the others are queued; answers the
   queue when it is full. Returns the hits answered. */
TOI_VINLINE size_t vspin_push(vspin_queue *sq, vm spin, const vbox *A, const vbox *B, size_t i,
                              size_t cnt)
{
    const unsigned lanes = (unsigned)((1ull << cnt) - 1);
    vm far = vspin_far(A, B);
    unsigned b = mbits(mandnot(spin, far)) & lanes, f = mbits(mand(spin, far)) & lanes;
    if (f && (mbits(spin) & lanes) == lanes) {
        /* every lane rotates: the block's outputs are the queue's alone, so the miss goes to
           every lane at once (a queued lane's is overwritten when it is answered) */
        const vf zero = vzero(), none = vset(TOI_NO_HIT);
        const vres miss = {none, zero, zero, zero, zero, zero, zero, zero};
        vstore_res(sq->out, i, &miss, cnt, sq->full);
        if (sq->out->t_exit)
            vstore_n(sq->out->t_exit + i, none, cnt);
        f = 0;
    }
    for (; f; f &= f - 1)
        vspin_store_miss(sq->out, i + (size_t)__builtin_ctz(f), sq->full);
    for (; b; b &= b - 1)
        sq->k[sq->n++] = (uint32_t)(i + (size_t)__builtin_ctz(b));
    return sq->n + VW > VSPIN_QUEUE ? vspin_run(sq, 0) : 0;
}
