/* test_triangles_acc.c - group 3 for the triangle queries: the scalar reference against the
   long-double oracle (tests/oracle.h: golden-section search and bisection on the convex
   distance f(t) = dist(p(t), triangle), here computed as the nearest of the face foot and
   three clamped segment points, in long double). With delta = 64 * FLT_EPSILON * S, S the
   largest of the vertices' distances from the start centre, |v| and r: no miss where the
   query with r shrunk by delta touches, no hit where the grown one does not, t between the
   grown and the shrunk first contact, and normal, point, depth and feature at the reported t
   within the margin. Where the motion is within the margin of tangential at t = 0, either
   answer is accepted (as for the spheres), and culling is not judged where N.v is within
   rounding of 0. */
#include "tri_judge.h"
#include "tri_gen.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#define EPS ((ld)FLT_EPSILON)

static ld dot(const ld a[3], const ld b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void cross(const ld a[3], const ld b[3], ld o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

/* The triangle's point nearest x (long double): the plane foot when it falls inside (signs
   of the three sub-triangle normals against N), else the nearest clamped segment point. */
void tri_closest_ld(const ld V[3][3], const ld x[3], ld out[3])
{
    ld e1[3], e2[3], N[3];
    for (int k = 0; k < 3; k++) /* what a non-finite x gets (no edge point is nearer) */
        out[k] = NAN;
    for (int k = 0; k < 3; k++)
        e1[k] = V[1][k] - V[0][k], e2[k] = V[2][k] - V[0][k];
    cross(e1, e2, N);
    ld NN = dot(N, N);
    if (NN > 0) {
        ld d[3];
        for (int k = 0; k < 3; k++)
            d[k] = x[k] - V[0][k];
        ld h = dot(d, N) / NN, f[3];
        for (int k = 0; k < 3; k++)
            f[k] = x[k] - h * N[k];
        int in = 1;
        for (int k = 0; k < 3; k++) {
            const ld *a = V[k], *b = V[(k + 1) % 3];
            ld ab[3], af[3], c[3];
            for (int j = 0; j < 3; j++)
                ab[j] = b[j] - a[j], af[j] = f[j] - a[j];
            cross(ab, af, c);
            in &= dot(c, N) >= 0;
        }
        if (in) {
            for (int k = 0; k < 3; k++)
                out[k] = f[k];
            return;
        }
    }
    ld best = INFINITY;
    for (int k = 0; k < 3; k++) {
        const ld *a = V[k], *b = V[(k + 1) % 3];
        ld ab[3], ax[3];
        for (int j = 0; j < 3; j++)
            ab[j] = b[j] - a[j], ax[j] = x[j] - a[j];
        ld L = dot(ab, ab), s = L > 0 ? dot(ax, ab) / L : 0;
        s = s < 0 ? 0 : s > 1 ? 1 : s;
        ld c[3], d[3];
        for (int j = 0; j < 3; j++)
            c[j] = a[j] + s * ab[j], d[j] = x[j] - c[j];
        ld d2 = dot(d, d);
        if (d2 < best) {
            best = d2;
            for (int j = 0; j < 3; j++)
                out[j] = c[j];
        }
    }
}

static void closest(const tri_q *q, const ld x[3], ld out[3])
{
    tri_closest_ld(q->V, x, out);
}

static void at(const tri_q *q, ld t, ld x[3])
{
    for (int k = 0; k < 3; k++)
        x[k] = q->p[k] + t * q->v[k];
}

static ld tri_f(const void *qq, ld t)
{
    const tri_q *q = qq;
    ld x[3], c[3];
    at(q, t, x);
    closest(q, x, c);
    return ld_norm3(x[0] - c[0], x[1] - c[1], x[2] - c[2]);
}

/* distance from x to the reported feature */
static ld feature_dist(const tri_q *q, int feat, const ld x[3])
{
    if (feat >= TOI_FEATURE_VERTEX_A) {
        const ld *V = q->V[feat - TOI_FEATURE_VERTEX_A];
        return ld_norm3(x[0] - V[0], x[1] - V[1], x[2] - V[2]);
    }
    if (feat >= TOI_FEATURE_EDGE_AB) {
        tri_q seg = *q; /* a degenerate triangle: the segment alone */
        int k = feat - TOI_FEATURE_EDGE_AB;
        for (int j = 0; j < 3; j++)
            seg.V[0][j] = q->V[k][j], seg.V[1][j] = seg.V[2][j] = q->V[(k + 1) % 3][j];
        ld c[3];
        closest(&seg, x, c);
        return ld_norm3(x[0] - c[0], x[1] - c[1], x[2] - c[2]);
    }
    ld c[3];
    closest(q, x, c);
    return ld_norm3(x[0] - c[0], x[1] - c[1], x[2] - c[2]);
}

/* the largest |reported point - q*| seen, in units of the margin (printed: a figure for the
   docs, and a sign of how much room the check leaves) */
ld acc_worst_q;

static void fcross(const float a[3], const float b[3], float o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

static void rdir_acc(rng *r, float d[3]) /* a random unit direction */
{
    float l;
    do {
        for (int k = 0; k < 3; k++)
            d[k] = rng_range(r, -1, 1);
        l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    } while (!(l > 0.1f && l <= 1));
    for (int k = 0; k < 3; k++)
        d[k] /= l;
}

/* A sliver whose acute tip (angle 2^-24 .. 2^-3, at a random one of the three vertices) the
   path passes near: the inside test's rounding is worst there (internal.h, TOI_THIN_FACE). */
static void sliver_tip(rng *r, float S[7], float T[9])
{
    float tip[3], u[3], w[3], nz[3], x[3];
    for (int k = 0; k < 3; k++)
        tip[k] = rng_range(r, -1, 1);
    float l = 0;
    do {
        for (int k = 0; k < 3; k++)
            u[k] = rng_range(r, -1, 1), x[k] = rng_range(r, -1, 1);
        fcross(u, x, nz);
        fcross(nz, u, w);
        l = sqrtf(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    } while (!(l > 0.1f && sqrtf(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) > 0.01f));
    float lw = sqrtf(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    float ln = sqrtf(nz[0] * nz[0] + nz[1] * nz[1] + nz[2] * nz[2]);
    for (int k = 0; k < 3; k++)
        u[k] /= l, w[k] /= lw, nz[k] /= ln;
    float len = rng_range(r, 0.5f, 2), alpha = ldexpf(1 + rng_unit(r), -3 - (int)rng_below(r, 22));
    float rad = rng_below(r, 8) == 0 ? 0.0f : ldexpf(rng_unit(r), -(int)rng_below(r, 12));
    float P1[3], P2[3], q[3], d[3];
    float a1 = rng_range(r, -0.02f, 0.02f) * len, b1 = rng_range(r, -2, 2) * rad,
          b2 = rng_range(r, -2, 2) * rad, dist = rng_range(r, 1.5f * rad + 0.01f, 2);
    float k0 = rng_range(r, 1, 2);
    rdir_acc(r, d);
    for (int k = 0; k < 3; k++) {
        P1[k] = tip[k] + len * u[k];
        P2[k] = tip[k] + len * (u[k] + alpha * w[k]);
        q[k] = tip[k] + a1 * u[k] + b1 * w[k] + b2 * nz[k];
        S[k] = q[k] + dist * d[k];
        S[3 + k] = (q[k] - S[k]) * k0;
    }
    S[6] = rad;
    int at = (int)rng_below(r, 3), flip = (int)rng_below(r, 2);
    const float *v3[3];
    v3[at] = tip, v3[(at + 1) % 3] = flip ? P2 : P1, v3[(at + 2) % 3] = flip ? P1 : P2;
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            T[3 * j + k] = v3[j][k];
}

/* A path nearly parallel to an edge (angle 2^-1 .. 2^-12), passing the edge's line at a
   distance within 2^-4 .. 2^-22 of r (either side) near one of its ends (closest approach
   between 2 r before and 3 r past that end, moving into the edge): the edge's cylinder is
   then entered at a poorly conditioned time close to where its segment ends, and the end
   vertex's ball is grazed. A rounding of that time across the end must not leave both the
   cylinder (its contact outside the segment) and the ball (missed) without a hit. */
static void edge_end_graze(rng *r, float S[7], float T[9])
{
    float V[3][3];
    float e[3], w1[3], w2[3], x[3], el;
    do {
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                V[j][k] = rng_range(r, -1, 1);
        for (int k = 0; k < 3; k++)
            e[k] = V[1][k] - V[0][k];
        el = sqrtf(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    } while (!(el > 0.2f));
    for (int k = 0; k < 3; k++)
        e[k] /= el;
    float l1, l2;
    do {
        rdir_acc(r, x);
        fcross(e, x, w1);
        l1 = sqrtf(w1[0] * w1[0] + w1[1] * w1[1] + w1[2] * w1[2]);
    } while (!(l1 > 0.1f));
    for (int k = 0; k < 3; k++)
        w1[k] /= l1;
    fcross(e, w1, w2);
    l2 = sqrtf(w2[0] * w2[0] + w2[1] * w2[1] + w2[2] * w2[2]);
    for (int k = 0; k < 3; k++)
        w2[k] /= l2;
    float rad = ldexpf(1 + rng_unit(r), -1 - (int)rng_below(r, 8));
    float xi = ldexpf(1 + rng_unit(r), -4 - (int)rng_below(r, 19));
    float d = rad * (rng_below(r, 2) ? 1 + xi : 1 - xi);
    float th = ldexpf(1 + rng_unit(r), -2 - (int)rng_below(r, 11));
    float sig = rng_range(r, -2, 3) * rad, len = rng_range(r, 0.5f, 4), tm = rng_range(r, 0.2f, 1);
    int end = (int)rng_below(r, 2); /* 0: enter at V0 moving along e; 1: at V1 against e */
    float sgn = end ? -1.0f : 1.0f;
    float ct = cosf(th), stt = sinf(th), ph = rng_range(r, 0, 6.2831853f);
    for (int k = 0; k < 3; k++) {
        float base = end ? V[1][k] : V[0][k];
        float perp = cosf(ph) * w1[k] + sinf(ph) * w2[k], side = -sinf(ph) * w1[k] + cosf(ph) * w2[k];
        float closest = base + sgn * sig * e[k] + d * perp;
        float vk = len * (sgn * ct * e[k] + stt * side);
        S[3 + k] = vk;
        S[k] = closest - tm * vk;
    }
    S[6] = rad;
    for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
            T[3 * j + k] = V[j][k];
}

/* The oracle's view of one sphere S (x y z vx vy vz r) against one triangle T. */
tri_judge tri_judge_make(const float Sf[7], const float Tf[9], unsigned flags)
{
    tri_judge j;
    tri_q *q = &j.q;
    ld R = Sf[6], S = R;
    for (int k = 0; k < 3; k++) {
        q->p[k] = Sf[k], q->v[k] = Sf[3 + k];
        for (int v = 0; v < 3; v++)
            q->V[v][k] = Tf[3 * v + k];
    }
    ld vl = ld_norm3(q->v[0], q->v[1], q->v[2]);
    S = S > vl ? S : vl;
    for (int v = 0; v < 3; v++) {
        ld d = ld_norm3(q->V[v][0] - q->p[0], q->V[v][1] - q->p[1], q->V[v][2] - q->p[2]);
        S = S > d ? S : d;
    }
    j.R = R, j.S = S;
    j.delta = 64 * EPS * S;
    ld c0[3];
    j.f0 = tri_f(q, 0);
    closest(q, q->p, c0);
    ld d0[3] = {q->p[0] - c0[0], q->p[1] - c0[1], q->p[2] - c0[2]};
    j.slope0 = dot(d0, q->v);
    j.amb = ld_abs(j.slope0) < 2 * j.delta * vl && j.f0 <= R + j.delta;
    /* culling: N.v >= 0 ignores the triangle; not judged within rounding of 0 */
    ld e1[3], e2[3], Nn[3];
    for (int k = 0; k < 3; k++)
        e1[k] = q->V[1][k] - q->V[0][k], e2[k] = q->V[2][k] - q->V[0][k];
    cross(e1, e2, Nn);
    ld Nv = dot(Nn, q->v), Nl = ld_norm3(Nn[0], Nn[1], Nn[2]);
    j.culled = (flags & TOI_CULL_BACKFACES) && Nv >= 0;
    if ((flags & TOI_CULL_BACKFACES) && ld_abs(Nv) <= 64 * EPS * Nl * vl)
        j.amb = 1;
    j.hs = j.hg = (oracle_hit){0, 0};
    if (!j.culled) {
        j.hs = oracle_first_contact(tri_f, q, R - j.delta, j.slope0, flags & TOI_ALL_OVERLAPS);
        j.hg = oracle_first_contact(tri_f, q, R + j.delta, j.slope0, flags & TOI_ALL_OVERLAPS);
    }
    return j;
}

/* Point, feature, normal and depth of a hit at o[0] = t against the judged triangle (o: t nx
   ny nz px py pz depth), within the margin; 0 (and CHECK failures naming query id) if not. */
int tri_judge_outputs(const tri_judge *j, const float o[8], unsigned feature, size_t id)
{
    const tri_q *q = &j->q;
    int ok = 1;
    ld delta = j->delta, S = j->S, R = j->R;
    float t = o[0];
    /* The nearest point is ill-conditioned over a face (moving it by x along the face changes
       the distance by only x^2 / 2r), so the reported point q must be a nearest point
       within the margin: on its feature, no farther from p(t) than f(t) + 2 delta; and the
       normal must point from q to p(t). */
    ld x[3], pl[3], d[3];
    at(q, t, x);
    for (int k = 0; k < 3; k++)
        pl[k] = o[4 + k], d[k] = x[k] - pl[k];
    ld world = ld_abs(q->p[0]) + ld_abs(q->p[1]) + ld_abs(q->p[2]);
    ld tol_p = 4 * delta + 8 * EPS * (world + S);
    ld dl = ld_norm3(d[0], d[1], d[2]), ft = tri_f(q, t);
    if (!(dl <= ft + tol_p)) {
        CHECK(0, "query %zu: point %.9Lg from the centre, nearest %.9Lg", id, dl, ft);
        ok = 0;
    }
    ld fd = feature_dist(q, (int)feature, pl);
    if (feature > TOI_FEATURE_VERTEX_C || !(fd <= tol_p)) {
        CHECK(0, "query %zu: point %.3Lg from its feature %u", id, fd, feature);
        ok = 0;
    }
    /* Point, feature and normal describe the centre at the reported t: the point is the
       triangle's nearest point q* to x = p(t) (well conditioned in x, unlike the distance),
       the feature holds q*, and the normal points from q* to x - each within the margin,
       whichever piece gave t. */
    ld qs[3], dq[3];
    closest(q, x, qs);
    for (int k = 0; k < 3; k++)
        dq[k] = pl[k] - qs[k];
    ld tol_q = delta + 8 * EPS * (world + S);
    ld qerr = ld_norm3(dq[0], dq[1], dq[2]);
    acc_worst_q = qerr / tol_q > acc_worst_q ? qerr / tol_q : acc_worst_q;
    if (!(qerr <= tol_q)) {
        CHECK(0, "query %zu: point %.3Lg from the nearest point at t (margin %.3Lg)", id, qerr,
              delta);
        ok = 0;
    }
    ld fq = feature_dist(q, (int)feature, qs);
    if (!(fq <= tol_q)) {
        CHECK(0, "query %zu: nearest point at t %.3Lg from feature %u", id, fq, feature);
        ok = 0;
    }
    ld ds[3];
    for (int k = 0; k < 3; k++)
        ds[k] = x[k] - qs[k];
    ld dsl = ld_norm3(ds[0], ds[1], ds[2]);
    ld tol_n = dsl > 4 * tol_q ? 2 * tol_q / dsl + 1e-6L : 2.001L; /* any unit one */
    ld nerr = 0;
    for (int k = 0; k < 3; k++) {
        ld nk = dsl > 0 ? ds[k] / dsl : 0;
        nerr += (o[1 + k] - nk) * (o[1 + k] - nk);
    }
    ld nl = ld_norm3(o[1], o[2], o[3]);
    nerr = ld_sqrt(nerr);
    if (!(ld_abs(nl - 1) <= 1e-6L) || !(nerr <= tol_n)) {
        CHECK(0, "query %zu: normal (%g %g %g), error %.3Lg > %.3Lg", id, o[1], o[2], o[3],
              nerr, tol_n);
        ok = 0;
    }
    ld want_depth = t == 0 && R - j->f0 > 0 ? R - j->f0 : 0;
    if (!(ld_abs(o[7] - want_depth) <= 2 * delta) || !(o[7] >= 0)) {
        CHECK(0, "query %zu: depth %.9g, want %.9Lg", id, o[7], want_depth);
        ok = 0;
    }
    return ok;
}

void tri_judge_print(const tri_judge *j, const float S[7], const float T[9], const float o[8],
                     unsigned feature, unsigned flags)
{
    /* the oracle's nearest point at the reported t; for a miss, at the first contact of
       the shrunk query (else the grown one's) */
    ld tq = o[0] != TOI_NO_HIT ? (ld)o[0] : j->hs.hit ? j->hs.t : j->hg.hit ? j->hg.t : 0;
    ld x[3], c[3];
    at(&j->q, tq, x);
    closest(&j->q, x, c);
    printf("    t %.9g feature %u point %.9g %.9g %.9g; oracle at t = %.9Lg: nearest %.9Lg "
           "%.9Lg %.9Lg at distance %.9Lg; first contact %.9Lg (r - delta) %.9Lg (r + delta)\n",
           o[0], feature, o[4], o[5], o[6], tq, c[0], c[1], c[2], tri_f(&j->q, tq),
           j->hs.hit ? j->hs.t : -1, j->hg.hit ? j->hg.t : -1);
    printf("    flags %u, sphere:", flags);
    for (int k = 0; k < 7; k++)
        printf(" %.9g", S[k]);
    printf("\n    triangle:");
    for (int k = 0; k < 9; k++)
        printf(" %.9g", T[k]);
    printf("\n");
}

/* ctx NULL: the families of tri_gen; else ACC_SLIVER: slivers passed near their tip
   (sliver_tip), or ACC_EDGE_END: paths grazing an edge's end (edge_end_graze). */
enum { ACC_SLIVER = 1, ACC_EDGE_END = 2 };
static void acc_triangles(const void *ctx)
{
    const int kind = ctx ? *(const int *)ctx : 0;
    acc_worst_q = 0;
    const size_t N = 2048;
    size_t total = t_acc_count(kind ? 20000 : 60000), done = 0, fails = 0, hits = 0, amb_n = 0;
    t_sph s;
    t_tri tr;
    t_hits h;
    t_spheres_alloc(&s, N);
    t_tri_alloc(&tr, N);
    t_hits_alloc(&h, N);
    rng r = t_rng(kind == ACC_SLIVER ? 0x511BE7 : kind == ACC_EDGE_END ? 0xED6E5 : 0xACC3);
    while (done < total && fails < 5) {
        const size_t nb = total - done < N ? total - done : N; /* the last batch: what is left */
        unsigned flags = rng_below(&r, 4);
        for (size_t i = 0; i < nb; i++) {
            float S[7], T[9];
            if (kind == ACC_SLIVER)
                sliver_tip(&r, S, T);
            else if (kind == ACC_EDGE_END)
                edge_end_graze(&r, S, T);
            else
                tri_gen(&r, (int)rng_below(&r, TRI_NFAMILIES - 1), S, T); /* no specials */
            for (int k = 0; k < 7; k++)
                s.f[k][i] = S[k];
            for (int k = 0; k < 9; k++)
                tr.f[k][i] = T[k];
        }
        t_tris(&t_impls[0], nb, &s.s, &tr.t, flags, &h.h);
        for (size_t i = 0; i < nb && fails < 5; i++) {
            float S[7], T[9], o[8];
            for (int k = 0; k < 7; k++)
                S[k] = s.f[k][i];
            for (int k = 0; k < 9; k++)
                T[k] = tr.f[k][i];
            for (int k = 0; k < 8; k++)
                o[k] = h.f[k][i];
            tri_judge j = tri_judge_make(S, T, flags);
            amb_n += j.amb;
            float t = o[0];
            int hit = t != TOI_NO_HIT, ok = 1;
            if (!j.amb && j.hs.hit && !hit) {
                CHECK(0, "query %zu: false miss (shrunk query hits at t = %.9Lg)", done + i,
                      j.hs.t);
                ok = 0;
            }
            if (!j.amb && !j.hg.hit && hit) {
                CHECK(0, "query %zu: false hit at t = %.9g (grown query misses)", done + i, t);
                ok = 0;
            }
            if (hit && j.hg.hit) {
                ld hi = j.hs.hit ? j.hs.t : 1, slack = 2 * EPS;
                if (!(t >= j.hg.t - slack && t <= hi + slack)) {
                    CHECK(0, "query %zu: t = %.9g outside [%.9Lg, %.9Lg]", done + i, t, j.hg.t,
                          hi);
                    ok = 0;
                }
            }
            if (ok && hit) {
                hits++;
                ok = tri_judge_outputs(&j, o, h.feature[i], done + i);
            }
            if (!ok) {
                tri_judge_print(&j, S, T, o, h.feature[i], flags);
                fails++;
            }
        }
        done += nb;
    }
    printf("    %zu queries (%zu hits, %zu within the tangential margin) against the oracle; "
           "point error at most %.3Lg of its bound\n", done, hits, amb_n, acc_worst_q);
    t_hits_free(&h);
    t_tri_free(&tr);
    t_spheres_free(&s);
}

void group_tri_accuracy(void)
{
    t_run("accuracy/triangles: scalar vs long-double oracle", acc_triangles, NULL);
    static const int sliver = ACC_SLIVER, edge_end = ACC_EDGE_END;
    t_run("accuracy/triangles, sliver tips: scalar vs long-double oracle", acc_triangles,
          &sliver);
    t_run("accuracy/triangles, grazing an edge's end: scalar vs long-double oracle",
          acc_triangles, &edge_end);
}
