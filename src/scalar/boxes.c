/* scalar/boxes.c - reference oriented-box sweep (linear motion): plain C, one pair at a time.

   Relative coordinates: B's centre is the origin, A's centre moves along D(t) = l + t v with
   l = cA - cB, v = vA - vB, everything scaled by the exact power of two that brings the size
   S = |l|_1 + |v|_1 + sum(hA) + sum(hB) to [1, 2). The boxes touch at t exactly when no one
   of the 15 separating axes L (A's face normals a_i, B's b_j, and the edge directions
   a_i x b_j) separates them: |L.D(t)| <= R_L, R_L = sum_k hA_k |L.a_k| + sum_k hB_k |L.b_k|.
   Each axis is one linear inequality in t, so the contact set is the interval
   [max entry, min exit] over the axes. With C = A^T B (C_ij = a_i.b_j) the edge axis is
   a_i x b_j = C_{i1,j} a_{i2} - C_{i2,j} a_{i1} (i1, i2 = the next indices, cyclic), so its
   projections come from the face axes' (Eberly's table) and its length is
   sqrt(C_{i1,j}^2 + C_{i2,j}^2), computed without cancellation. Every R_L is grown by its
   rounding-error bound (internal.h, TOI_BOX_GROW_*): no axis can certify a separation that
   rounding made up, and an edge axis of near-parallel edges separates nothing instead of
   being skipped. The SIMD kernels (src/simd/boxes.h) perform exactly these operations in
   this order. */
#include "scalar.h"

typedef struct box_in {
    float c[3], v[3], q[4], h[3], w[3];
} box_in;

TOI_SCALAR_INLINE float dot3(const float a[3], const float b[3])
{
    return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
}

/* Axes (columns of the rotation matrix) of the normalized quaternion q / |q|: with
   s = 2 / |q|^2 the homogeneous formula is exact rotation for any nonzero q. */
TOI_SCALAR_INLINE void quat_axes(const float q[4], float qq, float ax[3][3])
{
    float s = 2.0f / qq;
    float w = q[0], x = q[1], y = q[2], z = q[3];
    float xx = x * x, yy = y * y, zz = z * z;
    float xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
    ax[0][0] = 1.0f - s * (yy + zz), ax[0][1] = s * (xy + wz), ax[0][2] = s * (xz - wy);
    ax[1][0] = s * (xy - wz), ax[1][1] = 1.0f - s * (xx + zz), ax[1][2] = s * (yz + wx);
    ax[2][0] = s * (xz + wy), ax[2][1] = s * (yz - wx), ax[2][2] = 1.0f - s * (xx + yy);
}

TOI_SCALAR_INLINE float quat_norm2(const float q[4])
{
    return ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
}

/* The centre of the feature of a box (axes ax, half extents h) that supports it in
   direction sgn * n: per axis, +-h toward n, or 0 where the axis lies within TOI_BOX_FLAT of
   the contact plane. Offsets from the box's centre. */
TOI_SCALAR_INLINE void support(const float ax[3][3], const float h[3], const float n[3],
                               float sgn, float flat, float off[3])
{
    off[0] = off[1] = off[2] = 0.0f;
    for (int m = 0; m < 3; m++) {
        float an = dot3(ax[m], n) * sgn;
        float f = fabsf(an) * h[m] <= flat ? 0.0f : (an > 0.0f ? h[m] : -h[m]);
        off[0] = off[0] + f * ax[m][0];
        off[1] = off[1] + f * ax[m][1];
        off[2] = off[2] + f * ax[m][2];
    }
}

/* u clamped to [-h, h] */
TOI_SCALAR_INLINE float clamp_h(float u, float h)
{
    u = u < -h ? -h : u;
    return u > h ? h : u;
}

/* Face contact: face k of box F (centre fc, axes fa, half extents fh) at coordinate side
   along fa[k]; the other box's supporting feature centre p, clamped into that face. */
TOI_SCALAR_INLINE void face_point(const float fc[3], const float fa[3][3], const float fh[3],
                                  int k, float side, const float p[3], float out[3])
{
    float r[3] = {p[0] - fc[0], p[1] - fc[1], p[2] - fc[2]};
    for (int c = 0; c < 3; c++)
        out[c] = fc[c];
    for (int m = 0; m < 3; m++) {
        float u = m == k ? side : clamp_h(dot3(fa[m], r), fh[m]);
        for (int c = 0; c < 3; c++)
            out[c] = out[c] + u * fa[m][c];
    }
}

/* Normal: the axis kn (0..14) of the boxes with axes a, b (C = A^T B), from B toward A (the
   side A's centre projects to, dlk = the axis's projection of A's centre relative to B's). */
TOI_SCALAR_INLINE float box_normal(const float a[3][3], const float b[3][3], const float C[3][3],
                                   int kn, float dlk, float n[3])
{
    float L[3];
    if (kn < 3) {
        for (int c = 0; c < 3; c++)
            L[c] = a[kn][c];
    } else if (kn < 6) {
        for (int c = 0; c < 3; c++)
            L[c] = b[kn - 3][c];
    } else {
        int i = (kn - 6) / 3, j = (kn - 6) % 3, i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int c = 0; c < 3; c++)
            L[c] = C[i1][j] * a[i2][c] - C[i2][j] * a[i1][c];
    }
    if (!(dlk >= 0.0f))
        L[0] = -L[0], L[1] = -L[1], L[2] = -L[2];
    float nn = dot3(L, L);
    float inv = 1.0f / sqrtf(nn);
    if (nn >= TOI_MIN_DIR2) {
        n[0] = L[0] * inv, n[1] = L[1] * inv, n[2] = L[2] * inv;
    } else {
        n[0] = TOI_FALLBACK_NX, n[1] = TOI_FALLBACK_NY, n[2] = TOI_FALLBACK_NZ;
    }
    return nn; /* below TOI_MIN_DIR2: n is the fallback */
}

/* Point of contact on the face axis kf (0..5) with normal n, its side by dlf's sign: the
   other box's supporting feature clamped into the face. */
TOI_SCALAR_INLINE void box_face_point(const float a[3][3], const float b[3][3], int kf,
                                      float dlf, const float n[3], const float Dt[3],
                                      const float ha[3], const float hb[3], float flat,
                                      float p[3])
{
    const float zero3[3] = {0.0f, 0.0f, 0.0f};
    float off[3];
    if (kf < 3) { /* A's face (outward -n) against B's feature toward +n */
        support(b, hb, n, 1.0f, flat, off);
        float side = dlf >= 0.0f ? -ha[kf] : ha[kf];
        face_point(Dt, a, ha, kf, side, off, p);
    } else { /* B's face (outward +n) against A's feature toward -n */
        support(a, ha, n, -1.0f, flat, off);
        float pa[3] = {Dt[0] + off[0], Dt[1] + off[1], Dt[2] + off[2]};
        float side = dlf >= 0.0f ? hb[kf - 3] : -hb[kf - 3];
        face_point(zero3, b, hb, kf - 3, side, pa, p);
    }
}

/* Closest points of A's edge (centre ea, unit direction ai, half length hai) and B's (eb,
   bj, hbj), c = ai.bj, den = |ai x bj|^2: their midpoint p and parameters *sa_o (along ai),
   *ub_o (along bj); returns their squared distance. */
TOI_SCALAR_INLINE float edge_pair(const float ea[3], const float ai[3], float hai,
                                  const float eb[3], const float bj[3], float hbj, float c,
                                  float den, float p[3], float *sa_o, float *ub_o)
{
    float r[3] = {ea[0] - eb[0], ea[1] - eb[1], ea[2] - eb[2]};
    float d1 = dot3(ai, r), d2 = dot3(bj, r);
    float sa0 = (c * d2 - d1) / den, ub0 = (d2 - c * d1) / den;
    if (!(den >= TOI_BOX_MIN_CROSS2))
        sa0 = 0.0f, ub0 = 0.0f;
    float sa = clamp_h(sa0, hai), ub = clamp_h(ub0, hbj);
    /* The lines' closest points beyond an edge's end: the closest points of the two edges
       are B's parameter from A's clamped one, then A's from B's clamped one (clamping both
       independently put the point off both boxes near a corner). */
    if (sa0 < -hai || sa0 > hai || ub0 < -hbj || ub0 > hbj) {
        ub = clamp_h(d2 + c * sa, hbj);
        sa = clamp_h(c * ub - d1, hai);
    }
    float dd = 0.0f;
    for (int k = 0; k < 3; k++) {
        float pa = ea[k] + sa * ai[k], pb = eb[k] + ub * bj[k];
        p[k] = (pa + pb) * 0.5f;
        dd = dd + (pa - pb) * (pa - pb);
    }
    *sa_o = sa, *ub_o = ub;
    return dd;
}

/* Point of contact on axis kn with normal n, relative to B's centre (scaled units, S the
   scaled size), A's centre at Dt: see docs/boxes.md. LL: the axes' squared lengths. */
TOI_SCALAR_INLINE void box_point(const float a[3][3], const float b[3][3], const float C[3][3],
                                 int kn, float dlk, const float LL[15], const float n[3],
                                 const float Dt[3], const float ha[3], const float hb[3],
                                 float S, float p[3])
{
    float flat = S * TOI_BOX_FLAT;
    if (kn < 6) {
        box_face_point(a, b, kn, dlk, n, Dt, ha, hb, flat, p);
        return;
    }
    /* edge a_i of A against edge b_j of B: midpoint of their closest points */
    int i = (kn - 6) / 3, j = (kn - 6) % 3;
    float oa[3], ob[3], ha2[3] = {ha[0], ha[1], ha[2]}, hb2[3] = {hb[0], hb[1], hb[2]};
    ha2[i] = 0.0f, hb2[j] = 0.0f; /* the edges' centres: no offset along their own axis */
    support(a, ha2, n, -1.0f, -1.0f, oa);
    support(b, hb2, n, 1.0f, -1.0f, ob);
    const float ea[3] = {Dt[0] + oa[0], Dt[1] + oa[1], Dt[2] + oa[2]};
    float sa, ub;
    float dd = edge_pair(ea, a[i], ha[i], ob, b[j], hb[j], C[i][j], LL[6 + 3 * i + j], p, &sa, &ub);
    float gate = S * TOI_BOX_EDGE_GAP;
    if (!(dd > gate * gate))
        return;
    /* Closest points farther apart than TOI_BOX_EDGE_GAP S: these edges are not the touching
       features. Where A's edge ends at a corner (its closest point clamped), the corner's
       other edges against B's edge; where B's ends, B's corner's other edges against A's
       edge (A's axes m, then B's, in increasing m): the pair with the nearest closest points,
       when nearer (a corner's edge rising a fraction of a degree off the contact plane, the
       edge axis of the corner's edge chosen within the margin of the touching one's). */
    float ca[3], cb[3];
    for (int k = 0; k < 3; k++)
        ca[k] = ea[k] + sa * a[i][k], cb[k] = ob[k] + ub * b[j][k];
    for (int m = 0; m < 6; m++) {
        int onA = m < 3, mm = onA ? m : m - 3;
        if (onA ? (mm == i || !(fabsf(sa) == ha[i])) : (mm == j || !(fabsf(ub) == hb[j])))
            continue;
        const float *ax = onA ? a[mm] : b[mm];
        float h = onA ? ha[mm] : hb[mm], e[3], q[3], s2, u2, dd2;
        /* the corner's offset along the edge's axis (support()'s sign), taken back out */
        float f = onA ? (dot3(a[mm], n) < 0.0f ? h : -h) : (dot3(b[mm], n) > 0.0f ? h : -h);
        for (int k = 0; k < 3; k++)
            e[k] = (onA ? ca[k] : cb[k]) - f * ax[k];
        if (onA)
            dd2 = edge_pair(e, ax, h, ob, b[j], hb[j], C[mm][j], LL[6 + 3 * mm + j], q, &s2, &u2);
        else
            dd2 = edge_pair(ea, a[i], ha[i], e, ax, h, C[i][mm], LL[6 + 3 * i + mm], q, &s2, &u2);
        if (dd2 < dd) {
            dd = dd2;
            for (int k = 0; k < 3; k++)
                p[k] = q[k];
        }
    }
    if (!(dd > gate * gate))
        return;
    /* Still too far apart. When an axis of A (else of B) besides the named edge's lies within
       the flat rule of the contact plane, the supporting feature is that box's face, whose
       normal is the third axis: the point is that face axis's (an edge lying on a face;
       rounding let the edge axis enter last). */
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3, kf = -1;
    if (fabsf(dot3(a[i1], n)) * ha[i1] <= flat)
        kf = i2;
    else if (fabsf(dot3(a[i2], n)) * ha[i2] <= flat)
        kf = i1;
    else if (fabsf(dot3(b[j1], n)) * hb[j1] <= flat)
        kf = 3 + j2;
    else if (fabsf(dot3(b[j2], n)) * hb[j2] <= flat)
        kf = 3 + j1;
    if (kf >= 0)
        box_face_point(a, b, kf, dot3(kf < 3 ? a[kf] : b[kf - 3], n), n, Dt, ha, hb, flat, p);
}

/* Touching at t = 0 on an edge axis: the midpoint of the two edges' closest points need not
   lie in either box (a thin box pushed deep into another: the edges' closest points are
   depth apart along n, each beyond the other box). When it does not lie in both boxes, the
   point becomes the middle of the longest chord that an edge of one box cuts from the other
   (ties to the lowest edge: A's 12 edges, then B's; the edges along axis k at the corners
   (-,-) (-,+) (+,-) (+,+) of axes k + 1, k + 2), a point of both boxes; two convex solids
   that meet have an edge of one meeting the other. With no chord (they touch only within
   the radii's rounding growth) the midpoint stays. In B's frame a chord of A's edge comes
   from D.b_m = dl[3 + m] and C, in A's frame one of B's edge from dl[m] and C: no products
   of vectors. The segment u0 + s du (s in [-1, 1]) within |u| <= h: [lo, hi] narrowed. */
TOI_SCALAR_INLINE void chord_clip(float u0, float du, float h, float *lo, float *hi)
{
    float den = du == 0.0f ? 1.0f : du;
    float q1 = (-h - u0) / den, q2 = (h - u0) / den;
    float l = du > 0.0f ? q1 : q2, r = du > 0.0f ? q2 : q1;
    int in = fabsf(u0) <= h;
    l = du == 0.0f ? (in ? -1.0f : 2.0f) : l;
    r = du == 0.0f ? (in ? 1.0f : -2.0f) : r;
    *lo = l > *lo ? l : *lo;
    *hi = r < *hi ? r : *hi;
}

TOI_SCALAR_INLINE void box_overlap_point(const float a[3][3], const float b[3][3],
                                         const float C[3][3], const float dl[6],
                                         const float D[3], const float ha[3], const float hb[3],
                                         float p[3])
{
    float r[3] = {p[0] - D[0], p[1] - D[1], p[2] - D[2]};
    int inside = 1;
    for (int m = 0; m < 3; m++) {
        inside &= fabsf(dot3(a[m], r)) <= ha[m];
        inside &= fabsf(dot3(b[m], p)) <= hb[m];
    }
    if (inside)
        return;
    float best = -1.0f, bx[3] = {0.0f, 0.0f, 0.0f};
    int bbox = -1;
    for (int s = 0; s < 2; s++) { /* s = 0: A's edges in B; 1: B's edges in A */
        const float *h = s ? hb : ha, *ho = s ? ha : hb;
        for (int k = 0; k < 3; k++) {
            int i = (k + 1) % 3, j = (k + 2) % 3;
            for (int c = 0; c < 4; c++) {
                float si = c < 2 ? -h[i] : h[i], sj = (c & 1) ? h[j] : -h[j];
                float lo = -1.0f, hi = 1.0f;
                for (int m = 0; m < 3; m++) {
                    /* A's edge in B's frame: D.b_m + si a_i.b_m + sj a_j.b_m, along h_k a_k.b_m;
                       B's in A's: -D.a_m + si b_i.a_m + sj b_j.a_m, along h_k b_k.a_m */
                    float ci = s ? C[m][i] : C[i][m], cj = s ? C[m][j] : C[j][m];
                    float ck = s ? C[m][k] : C[k][m];
                    float u0 = ((s ? -dl[m] : dl[3 + m]) + si * ci) + sj * cj;
                    chord_clip(u0, h[k] * ck, ho[m], &lo, &hi);
                }
                float len = lo <= hi ? (hi - lo) * h[k] : -1.0f;
                if (len > best) {
                    best = len, bbox = s;
                    bx[k] = ((lo + hi) * 0.5f) * h[k], bx[i] = si, bx[j] = sj;
                }
            }
        }
    }
    if (bbox < 0)
        return;
    for (int c = 0; c < 3; c++) {
        float pa = ((D[c] + bx[0] * a[0][c]) + bx[1] * a[1][c]) + bx[2] * a[2][c];
        float pb = (bx[0] * b[0][c] + bx[1] * b[1][c]) + bx[2] * b[2][c];
        p[c] = bbox ? pb : pa;
    }
}

/* ---- angular motion (docs/boxes.md, "Angular motion") ----

   Conservative advancement on the 15-axis separation. At time t each box is turned exactly
   (q(t) = exp(t w / 2) q, with the polynomials below), and G(t), the largest separation
   (|L.D| - R_L) / |L| over the 15 axes, less the orientation error bound, is a lower bound of
   the distance between the boxes. No point of A moves relative to B's centre faster than
   |v| + |wA| rA, none of B faster than |wB| rB (r = circumradius), so the boxes cannot touch
   before t + G / (|v| + |wA| rA + |wB| rB), and over the rest of the step a turn moves a
   point by at most min(|w| (1 - t), 2) r. Before any of that, the balls of radius r about
   the centres (spin_far, spin_start) rule the pair out or give the time to start from. */

/* sin r and cos r for |r| <= pi/2 (a little beyond after the reduction's rounding): the
   Taylor polynomials of degree 13 and 14, Horner in float. Truncation error below 7e-10 on
   that range; with the rounding within 2 FLT_EPSILON of sin and cos (measured over every
   float of [-pi/2 - 1e-3, pi/2 + 1e-3] against long double: 1.03 FLT_EPSILON). */
TOI_SCALAR_INLINE void spin_sincos(float r, float *s, float *c)
{
    float z = r * r;
    float ps = 1.6059043836821613e-10f;
    ps = ps * z - 2.5052108385441720e-08f;
    ps = ps * z + 2.7557319223985893e-06f;
    ps = ps * z - 1.9841269841269841e-04f;
    ps = ps * z + 8.3333333333333333e-03f;
    ps = ps * z - 1.6666666666666667e-01f;
    *s = r + (r * z) * ps;
    float pc = -1.1470745597729725e-11f;
    pc = pc * z + 2.0876756987868099e-09f;
    pc = pc * z - 2.7557319223985891e-07f;
    pc = pc * z + 2.4801587301587302e-05f;
    pc = pc * z - 1.3888888888888889e-03f;
    pc = pc * z + 4.1666666666666667e-02f;
    pc = pc * z - 0.5f;
    *c = 1.0f + z * pc;
}

/* exp(phi u) q for the half-angle phi >= 0 about the unit axis u (or u = 0): phi is reduced
   by the nearest multiple k pi (pi in three parts, the first two exact in k * part for
   k < 2^13; beyond, the reduction's error stays below the TOI_BOX_SPIN_EANG bound), which
   only flips the quaternion's sign for odd k, the same rotation. */
TOI_SCALAR_INLINE void spin_quat(float phi, const float u[3], const float q[4], float o[4])
{
    phi = phi < TOI_BOX_SPIN_PHI_MAX ? phi : TOI_BOX_SPIN_PHI_MAX;
    float k = (phi * 0x1.45f306p-2f + 0x1.8p23f) - 0x1.8p23f; /* round(phi / pi) */
    float r = ((phi - k * 3.140625f) - k * 9.67502593994140625e-4f) - k * 1.509957990978376432e-7f;
    float s, c;
    spin_sincos(r, &s, &c);
    float sx = s * u[0], sy = s * u[1], sz = s * u[2];
    o[0] = ((c * q[0] - sx * q[1]) - sy * q[2]) - sz * q[3];
    o[1] = ((c * q[1] + sx * q[0]) + sy * q[3]) - sz * q[2];
    o[2] = ((c * q[2] - sx * q[3]) + sy * q[0]) + sz * q[1];
    o[3] = ((c * q[3] + sx * q[2]) - sy * q[1]) + sz * q[0];
}

#define SPIN_UP 1.00000095367431640625f  /* 1 + 2^-20: rounds a bound up */
#define SPIN_DOWN 0.99999904632568359375f /* 1 - 2^-20 */

/* A box's rotation: unit axis u (0 for none), |w| (wn, for the angle; wb rounded up, for the
   bound), circumradius bound r of its scaled half extents h. */
typedef struct spin_box {
    float u[3], wn, wb, r;
} spin_box;

TOI_SCALAR_INLINE void spin_setup(const float w[3], const float h[3], spin_box *o)
{
    float m = (fabsf(w[0]) + fabsf(w[1])) + fabsf(w[2]);
    float sw = toi_scalar_pow2_scale(m), un = toi_scalar_pow2_unscale(m);
    float ws[3] = {w[0] * sw, w[1] * sw, w[2] * sw};
    float ns = sqrtf(dot3(ws, ws));
    for (int c = 0; c < 3; c++)
        o->u[c] = ns > 0.0f ? ws[c] / ns : 0.0f;
    o->wn = ns * un;
    o->wb = (ns * SPIN_UP) * un;
    o->r = sqrtf(dot3(h, h)) * SPIN_UP + 0x1p-70f;
}

/* The boxes at time t: axes, A's centre D relative to B's, the 15 axes' projections of D,
   grown radii and squared lengths, and the largest separation G over them (edge axes
   divided by their length; lowest index on ties), on axis k. */
typedef struct spin_eval {
    float a[3][3], b[3][3], C[3][3], D[3], dl[15], d[15], R[15], LL[15], G;
    int k;
} spin_eval;

TOI_SCALAR_INLINE void spin_at(float t, float phia, float phib, const box_in *A, const box_in *B,
                               const spin_box *sa, const spin_box *sb, const float l[3],
                               const float v[3], const float ha[3], const float hb[3], float eF,
                               float eE, spin_eval *e)
{
    float qa[4], qb[4], AC[3][3];
    spin_quat(phia, sa->u, A->q, qa);
    spin_quat(phib, sb->u, B->q, qb);
    quat_axes(qa, quat_norm2(qa), e->a);
    quat_axes(qb, quat_norm2(qb), e->b);
    for (int c = 0; c < 3; c++)
        e->D[c] = l[c] + t * v[c];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            e->C[i][j] = dot3(e->a[i], e->b[j]);
            AC[i][j] = fabsf(e->C[i][j]);
        }
    for (int i = 0; i < 3; i++) {
        e->dl[i] = dot3(e->a[i], e->D);
        e->R[i] = (ha[i] + ((hb[0] * AC[i][0] + hb[1] * AC[i][1]) + hb[2] * AC[i][2])) + eF;
        e->LL[i] = 1.0f;
    }
    for (int j = 0; j < 3; j++) {
        e->dl[3 + j] = dot3(e->b[j], e->D);
        e->R[3 + j] = (((ha[0] * AC[0][j] + ha[1] * AC[1][j]) + ha[2] * AC[2][j]) + hb[j]) + eF;
        e->LL[3 + j] = 1.0f;
    }
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3, m = 6 + 3 * i + j;
            float c1 = e->C[i1][j], c2 = e->C[i2][j];
            e->dl[m] = c1 * e->dl[i2] - c2 * e->dl[i1];
            e->R[m] = ((ha[i1] * AC[i2][j] + ha[i2] * AC[i1][j]) +
                       (hb[j1] * AC[i][j2] + hb[j2] * AC[i][j1])) + eE;
            e->LL[m] = c1 * c1 + c2 * c2;
        }
    }
    for (int k = 0; k < 15; k++) {
        e->d[k] = fabsf(e->dl[k]);
        float g = e->d[k] - e->R[k];
        if (k >= 6)
            g = g / sqrtf(e->LL[k]);
        if (k == 0 || g > e->G)
            e->G = g, e->k = k;
    }
}

/* Touching at t = 0: whether they approach along n (from B toward A) - some vertex of A's
   deepest feature toward B (-n), or of B's toward A (+n), closes along n: with
   u(p) = v + wA x (p - D) - wB x p the relative velocity of the material points at p,
   u(p).n < 0. (Features as in support(): an axis within flat of the plane counts both
   ways.) Over a vertex p = D + sum_m s_m hA_m a_m, u(p).n = c0 + sum_m s_m hA_m a_m.M with
   M = n x (wA - wB) and c0 = v.n - D.(n x wB); B's vertices likewise with c1 = v.n -
   D.(n x wA). */
TOI_SCALAR_INLINE float spin_least(const float ax[3][3], const float h[3], const float n[3],
                                   float sgn, float flat, const float M[3], float c)
{
    for (int m = 0; m < 3; m++) {
        float an = dot3(ax[m], n) * sgn;
        float al = h[m] * dot3(ax[m], M);
        float term = fabsf(an) * h[m] <= flat ? -fabsf(al) : (an > 0.0f ? al : -al);
        c = c + term;
    }
    return c;
}

TOI_SCALAR_INLINE void cross3(const float a[3], const float b[3], float o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* M = n x (wA - wB), c = (c0, c1) and the deepest features' slowest rates u = (uA, uB). */
TOI_SCALAR_INLINE void spin_rates(const float a[3][3], const float b[3][3], const float ha[3],
                                  const float hb[3], const float wa[3], const float wb[3],
                                  const float v[3], const float D[3], const float n[3],
                                  float flat, float M[3], float c[2], float u[2])
{
    float W[3] = {wa[0] - wb[0], wa[1] - wb[1], wa[2] - wb[2]}, nA[3], nB[3];
    cross3(n, W, M);
    cross3(n, wa, nA);
    cross3(n, wb, nB);
    float vn = dot3(v, n);
    c[0] = vn - dot3(D, nB), c[1] = vn - dot3(D, nA);
    u[0] = spin_least(a, ha, n, -1.0f, flat, M, c[0]);
    u[1] = spin_least(b, hb, n, 1.0f, flat, M, c[1]);
}

TOI_SCALAR_INLINE int spin_approach(const float a[3][3], const float b[3][3], const float ha[3],
                                    const float hb[3], const float wa[3], const float wb[3],
                                    const float v[3], const float D[3], const float n[3],
                                    float flat)
{
    float M[3], c[2], u[2];
    spin_rates(a, b, ha, hb, wa, wb, v, D, n, flat, M, c, u);
    return u[0] < 0.0f || u[1] < 0.0f;
}

/* Touching at t = 0 without approaching, one box's vertices against the other's frame: the
   lower bound at time tau of the separation along n held fixed in the frame of box Y (turning
   with it), Y's support along it constant. X's vertices p, relative to Y's centre, move in
   that frame with rates u(p).n at t = 0 (c + (p - cX).M with sg = +1 for X = A; for X = B
   the same with sg = -1 and c = c1, as in spin_approach) and accelerations at most K, so the
   separation is at least
     h(tau) = base + tau c - sum hX_m |x_m.n + sg tau x_m.M| - sum hY_m |y_m.n| - K tau^2 / 2
   (base = n.D: the lowest vertex of the linearised motion, less the quadratic term), less a
   margin for the rounding and the axes' rotation error erot. Returns h(tau) - margin. */
TOI_SCALAR_INLINE float spin_leave_h(const float x[3][3], const float hx[3], const float y[3][3],
                                     const float hy[3], const float n[3], const float M[3],
                                     float sg, float base, float c, float K, float erot,
                                     float tau)
{
    float s = base + tau * c, mag = fabsf(base) + tau * fabsf(c);
    for (int m = 0; m < 3; m++) {
        float xn = dot3(x[m], n), xm = dot3(x[m], M) * sg;
        s = s - hx[m] * fabsf(xn + tau * xm);
        mag = mag + hx[m] * (fabsf(xn) + tau * fabsf(xm));
    }
    for (int m = 0; m < 3; m++) {
        float yn = hy[m] * fabsf(dot3(y[m], n));
        s = s - yn;
        mag = mag + yn;
    }
    float q = ((K * tau) * tau) * 0.5f;
    float margin = erot + (mag + q) * 0x1p-18f;
    return (s - q) - margin;
}

/* The acceleration bound of box X's points in box Y's turning frame (spin_leave):
   |wX|^2 rX + 2 |wY| (|v| + |wX| rX) + |wY|^2 (|D| + |v| + rX), dv = |D| + |v|, rounded up. */
TOI_SCALAR_INLINE float spin_k(const spin_box *x, const spin_box *y, float vmag, float dv)
{
    float k = ((x->wb * x->wb) * x->r + (2.0f * y->wb) * (vmag + x->wb * x->r)) +
              (y->wb * y->wb) * (dv + x->r);
    return (k * SPIN_UP) * SPIN_UP;
}

/* Touching at t = 0 without approaching (or touching only where they coincide), turning:
   the time t1 in (0, 1] by which they are certified apart again, 0 when that cannot be
   shown (docs/boxes.md, "Touching at t = 0"). For each box X the separation along n held
   fixed in the other's frame (spin_leave_h) at tau = (its rate at t = 0) / K, where its
   vertices' accelerations in that frame are at most
     K = |wX|^2 rX + 2 |wY| (|v| + |wX| rX) + |wY|^2 (|D| + |v| + rX)
   (rounded up); h is concave in tau, so h(tau) > 0 with h(0) <= 0 means apart on (t', tau]
   for a t' at most the time the touching part of the contact takes to open. The latest
   certified of tau = rate / K (h's peak) and 1.75 times it, for either box; 0 when none is
   but a box's vertices move apart (rate > 0), -1 when neither's do. The same holds from any
   time of the step (the frames, D and n then those of that time, tau counted from it, erot
   the axes' rotation error bound there). */
TOI_SCALAR_INLINE float spin_leave(const float a[3][3], const float b[3][3], const float ha[3],
                                   const float hb[3], const spin_box *sa, const spin_box *sb,
                                   const float wa[3], const float wb[3], const float v[3],
                                   float vmag, const float D[3], const float n[3], float flat,
                                   float erot)
{
    float M[3], c[2], u[2];
    spin_rates(a, b, ha, hb, wa, wb, v, D, n, flat, M, c, u);
    float c0 = c[0], c1 = c[1], ua = u[0], ub = u[1];
    float base = dot3(n, D), dmag = sqrtf(dot3(D, D)) * SPIN_UP;
    float dv = dmag + vmag;
    float ka = spin_k(sa, sb, vmag, dv), kb = spin_k(sb, sa, vmag, dv);
    float ta = ua > 0.0f ? ua / ka : 0.0f, tb = ub > 0.0f ? ub / kb : 0.0f;
    ta = ta < 1.0f ? ta : 1.0f;
    tb = tb < 1.0f ? tb : 1.0f;
    float t1 = 0.0f;
    for (int j = 0; j < 2; j++) { /* tau = rate / K, then 1.75 times it (h is 0.22 rate^2 / K) */
        float hA = spin_leave_h(a, ha, b, hb, n, M, 1.0f, base, c0, ka, erot, ta);
        float hB = spin_leave_h(b, hb, a, ha, n, M, -1.0f, base, c1, kb, erot, tb);
        t1 = hA > 0.0f && ta > t1 ? ta : t1;
        t1 = hB > 0.0f && tb > t1 ? tb : t1;
        ta = ta * 1.75f;
        tb = tb * 1.75f;
        ta = ta < 1.0f ? ta : 1.0f;
        tb = tb < 1.0f ? tb : 1.0f;
    }
    return t1 > 0.0f || ua > 0.0f || ub > 0.0f ? t1 : -1.0f;
}

/* Touching at t = 0, the penetration is the least over the 15 axes, so it grows only when it
   grows along every axis that attains that least: an axis tied with the least (its
   penetration pen within TOI_BOX_TIE S of it, its direction not shorter than 1/2, so that
   its rounding lies well inside the tie) along which A's centre does not move toward B
   (d = 0 or w <= 0: separating or sliding) keeps the pair from approaching. Without it,
   two boxes touching along an edge or at a corner (several axes touching at once, as
   between neighbours on a grid) approached whenever the lowest of those axes closed, while
   another opened: a hit at t = 0 for a pair that moves apart. Returns 1 when such an axis
   exists. When the tied axis's penetration was not exactly the least, the pair penetrates
   at most about the tie (half the margin delta = 64 FLT_EPSILON S) further before it
   separates. */
TOI_SCALAR_INLINE int box_ties(const float pen[15], const float d[15], const float w[15],
                               const float LL[15], float best, float S)
{
    float lim = best + S * TOI_BOX_TIE;
    int open = 0;
    for (int k = 0; k < 15; k++)
        open |= pen[k] <= lim && LL[k] >= 0.25f && !(d[k] > 0.0f && w[k] > 0.0f);
    return open;
}

/* box_ties() for a rotation, touching at t = 0 and approaching along the axis of least
   penetration e->k: the first axis tied with it (G - g_k <= TOI_BOX_TIE S, |axis| >= 1/2)
   along which no vertex of the deepest features closes (or A's centre lies on neither side).
   Returns 1 with its normal in n when there is one: the pair does not approach, and the
   sweep's leave test (spin_leave) goes on along that axis. */
TOI_SCALAR_INLINE int spin_open(const spin_eval *e, const float ha[3], const float hb[3],
                                const float wa[3], const float wb[3], const float v[3], float S,
                                float flat, float n[3])
{
    float lim = e->G - S * TOI_BOX_TIE;
    for (int k = 0; k < 15; k++) {
        float g = e->d[k] - e->R[k], nk[3];
        if (k >= 6)
            g = g / sqrtf(e->LL[k]);
        if (!(g >= lim && e->LL[k] >= 0.25f))
            continue;
        box_normal(e->a, e->b, e->C, k, e->dl[k], nk);
        if (!(spin_approach(e->a, e->b, ha, hb, wa, wb, v, e->D, nk, flat) && e->d[k] > 0.0f)) {
            n[0] = nk[0], n[1] = nk[1], n[2] = nk[2];
            return 1;
        }
    }
    return 0;
}

/* The squared radius the bounding-ball tests compare with: rho = (rA + rB) rounded up, plus
   2^-16 for the rounding of the terms compared with it (spin_far, spin_start). */
TOI_SCALAR_INLINE float spin_rr(float ra, float rb)
{
    float rho = (ra + rb) * SPIN_UP + 0x1p-16f;
    return rho * rho + 0x1p-16f;
}

/* The segment l + t v, t in [0, 1], stays outside the ball of squared radius rr about the
   origin, each comparison by more than the margin m: both ends outside, and the segment's
   nearest point an end (l.v >= m: t = 0; l.v + v.v <= -m: t = 1) or the line outside
   (|l x v|^2 > rr |v|^2 + m), or the motion so slow that the ends decide (v.v 2^18 < S2; pass
   S2 = 0 for never). The ball tests of both sweeps (spin_far, box_balls_apart). */
TOI_SCALAR_INLINE int seg_ball_apart(const float l[3], const float v[3], float rr, float m,
                                     float S2)
{
    float e[3] = {l[0] + v[0], l[1] + v[1], l[2] + v[2]}, X[3];
    cross3(l, v, X);
    float a = dot3(v, v), b = dot3(l, v);
    int ends = dot3(l, l) > rr && dot3(e, e) > rr;
    int slow = a * TOI_BOX_BALL_SLOW < S2;
    return ends && (slow || b >= m || b + a <= -m || dot3(X, X) > rr * a + m);
}

/* The bounding spheres never meet: the ball of radius rA about A's centre holds A in every
   orientation (rA >= its circumradius), likewise B's, and A's centre moves along l + t v
   relative to B's, so the boxes cannot touch in [0, 1] when that segment stays farther than
   rA + rB from B's centre. Decided without square roots or divisions, with margins of 2^-16
   (scaled units, S in [1, 2)) that exceed the rounding of every term (at most 2^-20: each is
   bounded by |l|_1 + |v|_1 + sum(h) < 2): both ends outside, and the segment's nearest point
   an end (l.v >= 0: t = 0; l.v + v.v <= 0: t = 1) or the line outside
   (|l x v|^2 > (rA + rB)^2 |v|^2). A pair it rejects is a miss (docs/boxes.md). */
TOI_SCALAR_INLINE int spin_far(const float l[3], const float v[3], float ra, float rb)
{
    return seg_ball_apart(l, v, spin_rr(ra, rb), 0x1p-16f, 0.0f);
}

/* The first time the balls of spin_far() can meet, rounded down: t0 = N / (-l.v +
   sqrt((l.v)^2 - v.v N)) with N = |l|^2 - rho^2 (no cancellation), N rounded down, the
   denominator up; 0 when they meet at t = 0 or move apart (l.v >= 0). The boxes are apart
   before t0, so the sweep starts there (docs/boxes.md). */
TOI_SCALAR_INLINE float spin_start(const float l[3], const float v[3], float ra, float rb)
{
    float rr = spin_rr(ra, rb);
    float c = dot3(l, l), a = dot3(v, v), b = dot3(l, v);
    float N = (c - rr) * SPIN_DOWN, nb = 0x1p-20f - b;
    float disc = ((nb * nb) * SPIN_UP - (a * N) * SPIN_DOWN) * SPIN_UP;
    disc = disc > 0.0f ? disc : 0.0f;
    float t0 = (N / ((nb + sqrtf(disc) * SPIN_UP) * SPIN_UP)) * SPIN_DOWN;
    t0 = t0 < 1.0f ? t0 : 1.0f;
    return c > rr && b < 0.0f ? t0 : 0.0f;
}

/* Overlapping at t, a witness of the overlap lasting: A's point p nearest B's centre (x_m =
   -D.a_m clamped to A), at its coordinates y_j = D.b_j + sum_m x_m C_mj along B's axes, or B's
   point nearest A's centre in A's frame the same way. As a material point of its box it stays
   inside the other while every |y_j| stays below the half extent; y_j moves at u.b_j now (u =
   v + wA x (p - cA) - wB x (p - cB), its velocity in B's turning frame) with an acceleration
   of at most K (spin_k), so it stays inside for tau while
     c_j - |u.b_j| tau - K tau^2 / 2 >= 0,  c_j = hB_j - |y_j| - margin
   (margin: the rotation error and rounding; |u.b_j| grown by uerr, the error the axes' and
   the point's rotation error makes in it). Returns the witness's least such tau over j (0
   when it lies outside), and in *depth its least c_j; spin_stay takes the larger of the two
   witnesses' (the time rounded down). */
TOI_SCALAR_INLINE float spin_stay_one(const float xa[3][3], const float xb[3][3],
                                      const float C[3][3], int tr, const float dlx[3],
                                      const float dly[3], float sg, const float hx[3],
                                      const float hy[3], const float wx[3], const float wy[3],
                                      const float v[3], const float D[3], float K,
                                      float margin, float uerr, float *depth)
{
    float x[3], px[3], py[3], u[3], c1[3], c2[3], tau = 0.0f, dmin = 0.0f;
    for (int m = 0; m < 3; m++)
        x[m] = clamp_h(-dlx[m] * sg, hx[m]);
    for (int c = 0; c < 3; c++) { /* p relative to its own centre, then to the other's */
        px[c] = (x[0] * xa[0][c] + x[1] * xa[1][c]) + x[2] * xa[2][c];
        py[c] = px[c] + sg * D[c];
    }
    cross3(wx, px, c1);
    cross3(wy, py, c2);
    for (int c = 0; c < 3; c++)
        u[c] = (sg * v[c] + c1[c]) - c2[c];
    for (int j = 0; j < 3; j++) {
        float cj = tr ? (x[0] * C[j][0] + x[1] * C[j][1]) + x[2] * C[j][2]
                      : (x[0] * C[0][j] + x[1] * C[1][j]) + x[2] * C[2][j];
        float yj = dly[j] * sg + cj;
        float dj = (hy[j] - fabsf(yj)) - margin;
        float uj = (fabsf(dot3(u, xb[j])) + uerr) * SPIN_UP;
        float tj = (2.0f * dj) / ((uj + sqrtf(uj * uj + (2.0f * K) * dj)) * SPIN_UP);
        tj = dj > 0.0f && tj > 0.0f ? tj : 0.0f;
        tau = j == 0 || tj < tau ? tj : tau;
        dmin = j == 0 || dj < dmin ? dj : dmin;
    }
    *depth = dmin;
    return tau;
}

TOI_SCALAR_INLINE float spin_stay(const spin_eval *e, const float ha[3], const float hb[3],
                                  const float wa[3], const float wb[3], const float v[3],
                                  float ka, float kb, float margin, float uerr, float *depth)
{
    float da, db;
    float ta = spin_stay_one(e->a, e->b, e->C, 0, e->dl, e->dl + 3, 1.0f, ha, hb, wa, wb, v,
                             e->D, ka, margin, uerr, &da);
    float tb = spin_stay_one(e->b, e->a, e->C, 1, e->dl + 3, e->dl, -1.0f, hb, ha, wb, wa, v,
                             e->D, kb, margin, uerr, &db);
    *depth = da > db ? da : db;
    return (ta > tb ? ta : tb) * SPIN_DOWN;
}

/* The query with a rotation (l, v, ha, hb already scaled; S the scaled size). */
TOI_SCALAR_INLINE int sweep_box_spin(const box_in *A, const box_in *B, const float l[3],
                                     const float v[3], const float ha[3], const float hb[3],
                                     float S, float size, unsigned flags, int full,
                                     toi_result *res, float *t_exit)
{
    float eF = S * TOI_BOX_GROW_FACE, eE = S * TOI_BOX_GROW_EDGE;
    spin_box sa, sb;
    spin_setup(A->w, ha, &sa);
    spin_setup(B->w, hb, &sb);
    if (spin_far(l, v, sa.r, sb.r))
        return 0;
    float vn = sqrtf(dot3(v, v)) * SPIN_UP + 0x1p-70f;
    float bound = (vn + sa.wb * sa.r) + sb.wb * sb.r;
    float tol = S * TOI_BOX_SPIN_TOL;
    float eN = S * 0x1p-18f; /* G's normalization: a few FLT_EPSILON of it */
    spin_eval e;
    float t = spin_start(l, v, sa.r, sb.r);
    int overlap = 0, held = 0;
    for (int it = 0;; it++) {
        float phia = (t * sa.wn) * 0.5f, phib = (t * sb.wn) * 0.5f;
        spin_at(t, phia, phib, A, B, &sa, &sb, l, v, ha, hb, eF, eE, &e);
        float err = (TOI_BOX_SPIN_EROT + TOI_BOX_SPIN_EANG * phia) * sa.r +
                    (TOI_BOX_SPIN_EROT + TOI_BOX_SPIN_EANG * phib) * sb.r;
        float gap = (e.G - eN) - (t > 0.0f ? err : 0.0f);
        if (t == 0.0f && e.G <= 0.0f) {
            /* touching at t = 0: a hit when they approach (or every overlap is wanted);
               otherwise the sweep goes on from the time they are certified apart again, a
               miss when that cannot be shown or is past the step */
            float n0[3];
            box_normal(e.a, e.b, e.C, e.k, e.dl[e.k], n0);
            float flat = S * TOI_BOX_FLAT;
            int approach = spin_approach(e.a, e.b, ha, hb, A->w, B->w, v, e.D, n0, flat) &&
                           e.d[e.k] > 0.0f;
            if (approach && !(flags & TOI_ALL_OVERLAPS))
                approach = !spin_open(&e, ha, hb, A->w, B->w, v, S, flat, n0);
            if ((flags & TOI_ALL_OVERLAPS) || approach) {
                overlap = 1;
                break;
            }
            float t1 = spin_leave(e.a, e.b, ha, hb, &sa, &sb, A->w, B->w, v, vn, e.D, n0, flat,
                                  (sa.r + sb.r) * TOI_BOX_SPIN_EROT);
            if (t1 == 0.0f && e.G >= -tol) { /* moving apart, not shown apart: a hit at 0 */
                overlap = 1;
                break;
            }
            if (t1 == 0.0f) /* deeper: held in this first contact until shown apart (below) */
                held = 1;
            else if (!(t1 > 0.0f && t1 < 1.0f))
                return 0;
            else {
                t = t1;
                continue;
            }
        }
        if (held && gap <= 0.0f) {
            /* in the first contact, overlapping at t = 0 and moving apart deeper than the
               tolerance (docs/boxes.md, "Held in the first contact"): on until certified
               apart (gap > 0: the sweep goes on from there), by the time a witness is sure
               to stay inside (spin_stay; at least its depth over the speed bound: in
               contact all along); once it lies within the tolerance, by the time the leave
               test from t shows them apart (at t = 0 it has just failed), at least tol /
               bound (a parting within it stays within tol / 2) */
            if (it == TOI_BOX_SPIN_BUDGET) { /* budget spent, not shown apart: a hit at 0 */
                t = 0.0f;
                spin_at(t, 0.0f, 0.0f, A, B, &sa, &sb, l, v, ha, hb, eF, eE, &e);
                overlap = 1;
                break;
            }
            float bu = bound * SPIN_UP, t1 = 0.0f, c;
            float dv = sqrtf(dot3(e.D, e.D)) * SPIN_UP + vn;
            float uerr = bu * (TOI_BOX_SPIN_EROT + TOI_BOX_SPIN_EANG * (phia + phib)) +
                         (sa.wb + sb.wb) * err;
            float tq = spin_stay(&e, ha, hb, A->w, B->w, v, spin_k(&sa, &sb, vn, dv),
                                 spin_k(&sb, &sa, vn, dv), err + eN, uerr, &c);
            if (!(c > tol) && t > 0.0f) {
                float n[3];
                box_normal(e.a, e.b, e.C, e.k, e.dl[e.k], n);
                t1 = spin_leave(e.a, e.b, ha, hb, &sa, &sb, A->w, B->w, v, vn, e.D, n,
                                S * TOI_BOX_FLAT, err);
            }
            c = c > tol ? c : tol;
            float dt = ((c - (t * 0x1p-22f) * bu) / bu) * SPIN_DOWN;
            tq = tq - t * 0x1p-22f;
            dt = tq > dt ? tq : dt;
            dt = t1 > dt ? t1 : dt;
            t = t + (dt > 0.0f ? dt : 0.0f);
            if (!(t < 1.0f)) /* in contact to the end of the step */
                return 0;
            continue;
        }
        held = 0;
        if (gap <= tol) /* within the tolerance: a hit at t */
            break;
        float rem = 1.0f - t, ra = sa.wb * rem, rb = sb.wb * rem;
        ra = ra < 2.0f ? ra : 2.0f;
        rb = rb < 2.0f ? rb : 2.0f;
        float reach = ((vn * rem + ra * sa.r) + rb * sb.r) * SPIN_UP;
        if (gap > reach) /* cannot close the gap in the rest of the step */
            return 0;
        if (it == TOI_BOX_SPIN_BUDGET) /* budget spent: a hit at the last safe time */
            break;
        /* the directional bound: along the fixed unit axis n of G, the separation falls no
           faster than A's centre closes along n plus |n x w| r for each box's turn */
        float n[3], ca[3], cb[3];
        float nn = box_normal(e.a, e.b, e.C, e.k, e.dl[e.k], n);
        float vnn = dot3(v, n);
        cross3(n, sa.u, ca);
        cross3(n, sb.u, cb);
        float beta = ((vnn < 0.0f ? -vnn : 0.0f) + vn * 0x1p-20f) +
                     (((sqrtf(dot3(ca, ca)) * SPIN_UP + 0x1p-20f) * sa.wb) * sa.r +
                      ((sqrtf(dot3(cb, cb)) * SPIN_UP + 0x1p-20f) * sb.wb) * sb.r);
        beta = beta * SPIN_UP;
        beta = nn >= TOI_MIN_DIR2 ? beta : bound;
        float slack = (t * 0x1p-22f) * beta; /* covers the rounding of t + dt */
        float dt = ((gap - slack) / beta) * SPIN_DOWN;
        if (dt > rem * SPIN_UP) /* safe to the end of the step */
            return 0;
        dt = dt > 0.0f ? dt : 0.0f;
        t = t + dt;
        t = t < 1.0f ? t : 1.0f;
    }
    int kn = e.k; /* at t = 0 also the axis of least penetration: pen_k = -G_k */
    float n[3], p[3];
    box_normal(e.a, e.b, e.C, kn, e.dl[kn], n);
    box_point(e.a, e.b, e.C, kn, e.dl[kn], e.LL, n, e.D, ha, hb, S, p);
    if (overlap && kn >= 6)
        box_overlap_point(e.a, e.b, e.C, e.dl, e.D, ha, hb, p);
    res->t = t;
    if (t_exit)
        *t_exit = t;
    if (!full)
        return 1;
    res->nx = n[0], res->ny = n[1], res->nz = n[2];
    res->px = (B->c[0] + t * B->v[0]) + toi_scalar_unscale(p[0], size);
    res->py = (B->c[1] + t * B->v[1]) + toi_scalar_unscale(p[1], size);
    res->pz = (B->c[2] + t * B->v[2]) + toi_scalar_unscale(p[2], size);
    res->depth = 0.0f;
    if (overlap) {
        float ek = kn < 6 ? eF : eE;
        float depth = toi_scalar_unscale(((e.R[kn] - ek) - e.d[kn]) / sqrtf(e.LL[kn]), size);
        res->depth = depth > 0.0f ? depth : 0.0f;
    }
    return 1;
}

/* The balls about the centres that hold the boxes (radius |h|, in every orientation) stay
   farther apart than 2^-8 S over the step, so the boxes never touch: a miss (docs/boxes.md,
   "Balls"). From the unscaled l = cA - cB, v = vA - vB, half extents and size S: both ends
   outside the radius R = |hA| + |hB| + 2^-8 S, and the segment's nearest point an end
   (l.v >= 0: t = 0; l.v + v.v <= 0: t = 1), or the line outside (|l x v|^2 > R^2 |v|^2),
   or the motion below 2^-9 S (then the ends decide): seg_ball_apart with no margin of its
   own. Every rounding is below 2^-16 S^2 in the squares compared, the margin
   R^2 - (|hA| + |hB|)^2 is at least that, and the test is only made for S in
   [2^-20, 2^24]. */
TOI_SCALAR_INLINE int box_balls_apart(const float l[3], const float v[3], const float ha[3],
                                      const float hb[3], float size)
{
    if (!(size >= TOI_BOX_BALL_MIN && size <= TOI_BOX_BALL_MAX))
        return 0;
    float R = (sqrtf(dot3(ha, ha)) + sqrtf(dot3(hb, hb))) + size * TOI_BOX_BALL_GAP;
    return seg_ball_apart(l, v, R * R, 0.0f, size * size);
}

TOI_SCALAR_INLINE int sweep_box(const box_in *A, const box_in *B, unsigned flags, int full,
                                toi_result *res, float *t_exit)
{
    float l[3], v[3], ha[3], hb[3];
    for (int c = 0; c < 3; c++)
        l[c] = A->c[c] - B->c[c], v[c] = A->v[c] - B->v[c];
    float hsum = ((A->h[0] + A->h[1]) + A->h[2]) + ((B->h[0] + B->h[1]) + B->h[2]);
    float size = ((fabsf(l[0]) + fabsf(l[1])) + fabsf(l[2])) +
                 ((fabsf(v[0]) + fabsf(v[1])) + fabsf(v[2]));
    size = size + hsum;
    float qqa = quat_norm2(A->q), qqb = quat_norm2(B->q);
    /* rotation: |w|_1 finite and below TOI_MAX_SUM; nonzero -> the angular sweep */
    float wma = (fabsf(A->w[0]) + fabsf(A->w[1])) + fabsf(A->w[2]);
    float wmb = (fabsf(B->w[0]) + fabsf(B->w[1])) + fabsf(B->w[2]);
    int hok = (A->h[0] >= 0.0f) & (A->h[1] >= 0.0f) & (A->h[2] >= 0.0f) & (B->h[0] >= 0.0f) &
              (B->h[1] >= 0.0f) & (B->h[2] >= 0.0f);
    int qok = (qqa >= TOI_BOX_QQ_LO) & (qqa <= TOI_BOX_QQ_HI) & (qqb >= TOI_BOX_QQ_LO) &
              (qqb <= TOI_BOX_QQ_HI);
    if (!(size < TOI_MAX_SUM) || !hok || !qok || !(wma < TOI_MAX_SUM) || !(wmb < TOI_MAX_SUM))
        return 0;
    if (!(wma > 0.0f || wmb > 0.0f) && box_balls_apart(l, v, A->h, B->h, size))
        return 0;
    float s = toi_scalar_pow2_scale(size);
    for (int c = 0; c < 3; c++) {
        l[c] = l[c] * s, v[c] = v[c] * s;
        ha[c] = A->h[c] * s, hb[c] = B->h[c] * s;
    }
    float S = size * s;
    if (TOI_SCALAR_SUBNORMAL(size)) { /* a subnormal size: on to [1, 2) (scalar.h) */
        float s2 = toi_scalar_pow2_scale_sub(size, s);
        for (int c = 0; c < 3; c++) {
            l[c] = l[c] * s2, v[c] = v[c] * s2;
            ha[c] = ha[c] * s2, hb[c] = hb[c] * s2;
        }
        S = S * s2;
    }
    if (wma > 0.0f || wmb > 0.0f)
        return sweep_box_spin(A, B, l, v, ha, hb, S, size, flags, full, res, t_exit);
    float eF = S * TOI_BOX_GROW_FACE, eE = S * TOI_BOX_GROW_EDGE;

    float a[3][3], b[3][3], C[3][3], AC[3][3];
    quat_axes(A->q, qqa, a);
    quat_axes(B->q, qqb, b);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            C[i][j] = dot3(a[i], b[j]);
            AC[i][j] = fabsf(C[i][j]);
        }

    /* the 15 axes: projections of l and v, grown radius, growth, squared length */
    float dl[15], dv[15], R[15], e[15], LL[15];
    for (int i = 0; i < 3; i++) {
        dl[i] = dot3(a[i], l);
        dv[i] = dot3(a[i], v);
        R[i] = (ha[i] + ((hb[0] * AC[i][0] + hb[1] * AC[i][1]) + hb[2] * AC[i][2])) + eF;
        e[i] = eF;
        LL[i] = 1.0f;
    }
    for (int j = 0; j < 3; j++) {
        dl[3 + j] = dot3(b[j], l);
        dv[3 + j] = dot3(b[j], v);
        R[3 + j] = (((ha[0] * AC[0][j] + ha[1] * AC[1][j]) + ha[2] * AC[2][j]) + hb[j]) + eF;
        e[3 + j] = eF;
        LL[3 + j] = 1.0f;
    }
    /* per axis: |L.D(t)| <= R for t in [lo, hi]; entry = max lo, exit = min hi */
    float d[15], w[15];
    float tin = 0.0f, tout = 0.0f;
    int kin = 0;
    for (int k = 0; k < 15; k++) {
        if (k == 6) {
            /* The face axes alone already rule out contact in [0, 1] (entry after 1, exit
               before 0, or no common interval): a miss whatever the edge axes say. */
            if (!(tin <= 1.0f) || !(tout >= 0.0f) || !(tin <= tout))
                return 0;
            for (int i = 0; i < 3; i++) {
                int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
                for (int j = 0; j < 3; j++) {
                    int j1 = (j + 1) % 3, j2 = (j + 2) % 3, m = 6 + 3 * i + j;
                    float c1 = C[i1][j], c2 = C[i2][j];
                    dl[m] = c1 * dl[i2] - c2 * dl[i1];
                    dv[m] = c1 * dv[i2] - c2 * dv[i1];
                    R[m] = ((ha[i1] * AC[i2][j] + ha[i2] * AC[i1][j]) +
                            (hb[j1] * AC[i][j2] + hb[j2] * AC[i][j1])) + eE;
                    e[m] = eE;
                    LL[m] = c1 * c1 + c2 * c2;
                }
            }
        }
        d[k] = fabsf(dl[k]);
        w[k] = dl[k] >= 0.0f ? -dv[k] : dv[k]; /* closing speed along the axis */
        float g = d[k] - R[k];
        float q1 = g / w[k], q2 = (d[k] + R[k]) / w[k];
        float lo, hi;
        if (w[k] > 0.0f)
            lo = q1, hi = q2;
        else if (w[k] < 0.0f)
            lo = q2, hi = q1;
        else if (g <= 0.0f)
            lo = -INFINITY, hi = INFINITY;
        else
            lo = INFINITY, hi = -INFINITY;
        if (k == 0 || lo > tin)
            tin = lo, kin = k;
        if (k == 0 || hi < tout)
            tout = hi;
    }

    int overlap = tin <= 0.0f && tout >= 0.0f; /* touching at t = 0 */
    int kn = kin;
    float t;
    if (overlap) {
        /* the axis of least penetration decides the normal; they approach when A's centre
           moves toward B along it and along every axis tied with it (box_ties) */
        float best = 0.0f, pen[15];
        for (int k = 0; k < 15; k++) {
            pen[k] = (R[k] - d[k]) / sqrtf(LL[k]);
            if (k == 0 || pen[k] < best)
                best = pen[k], kn = k;
        }
        int approach = d[kn] > 0.0f && w[kn] > 0.0f && !box_ties(pen, d, w, LL, best, S);
        if (!approach && !(flags & TOI_ALL_OVERLAPS))
            return 0;
        t = 0.0f;
    } else {
        if (!(tin > 0.0f && tin <= tout && tin <= 1.0f))
            return 0;
        t = tin;
    }
    res->t = t;
    if (t_exit)
        *t_exit = tout > t ? tout : t;
    if (!full)
        return 1;

    float n[3], p[3];
    box_normal(a, b, C, kn, dl[kn], n);
    res->nx = n[0], res->ny = n[1], res->nz = n[2];

    /* Point (relative to B's centre at t, scaled units). */
    float Dt[3] = {l[0] + t * v[0], l[1] + t * v[1], l[2] + t * v[2]};
    box_point(a, b, C, kn, dl[kn], LL, n, Dt, ha, hb, S, p);
    if (overlap && kn >= 6)
        box_overlap_point(a, b, C, dl, Dt, ha, hb, p);
    res->px = (B->c[0] + t * B->v[0]) + toi_scalar_unscale(p[0], size);
    res->py = (B->c[1] + t * B->v[1]) + toi_scalar_unscale(p[1], size);
    res->pz = (B->c[2] + t * B->v[2]) + toi_scalar_unscale(p[2], size);
    res->depth = 0.0f;
    if (overlap) {
        float depth = toi_scalar_unscale(((R[kn] - e[kn]) - d[kn]) / sqrtf(LL[kn]), size);
        res->depth = depth > 0.0f ? depth : 0.0f;
    }
    return 1;
}

/* One box of a toi_boxes (w: 0 when the rotation arrays are absent). */
TOI_SCALAR_INLINE void box_get(const toi_boxes *B, size_t i, box_in *o)
{
    o->c[0] = B->x[i], o->c[1] = B->y[i], o->c[2] = B->z[i];
    o->v[0] = B->vx[i], o->v[1] = B->vy[i], o->v[2] = B->vz[i];
    o->q[0] = B->qw[i], o->q[1] = B->qx[i], o->q[2] = B->qy[i], o->q[3] = B->qz[i];
    o->h[0] = B->hx[i], o->h[1] = B->hy[i], o->h[2] = B->hz[i];
    if (B->wx) {
        o->w[0] = B->wx[i], o->w[1] = B->wy[i], o->w[2] = B->wz[i];
    } else {
        o->w[0] = o->w[1] = o->w[2] = 0.0f;
    }
}

TOI_SCALAR_INLINE size_t boxes_loop(size_t n, const uint32_t *ia, const uint32_t *ib,
                                    const toi_boxes *A, const toi_boxes *B, unsigned flags,
                                    const toi_hits *out)
{
    int full = toi_wants_full(out);
    size_t hits = 0;
    for (size_t k = 0; k < n; k++) {
        box_in a, b;
        box_get(A, ia ? ia[k] : k, &a);
        box_get(B, ib ? ib[k] : k, &b);
        toi_result r;
        float te = TOI_NO_HIT;
        int hit = sweep_box(&a, &b, flags, full, &r, out->t_exit ? &te : NULL);
        hits += (size_t)hit;
        toi_scalar_store(out, k, hit ? &r : &toi_scalar_no_hit, full);
        if (out->t_exit)
            out->t_exit[k] = hit ? te : TOI_NO_HIT;
    }
    return hits;
}

size_t toi_scalar_sweep_boxes(size_t n, const toi_boxes *A, const toi_boxes *B, unsigned flags,
                              const toi_hits *out)
{
    return boxes_loop(n, NULL, NULL, A, B, flags, out);
}

size_t toi_scalar_sweep_box_pairs(size_t n, const uint32_t *ia, const uint32_t *ib,
                                  const toi_boxes *S, unsigned flags, const toi_hits *out)
{
    return boxes_loop(n, ia, ib, S, S, flags, out);
}
