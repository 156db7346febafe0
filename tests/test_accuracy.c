/* test_accuracy.c - group 3: the scalar reference against the long-double oracle, with the
   contract's backward-error margin delta = 64 * FLT_EPSILON * S: no miss where the pair with
   its contact radius shrunk by delta touches, no hit where the grown pair does not, t between
   the grown and the shrunk pair's first contact, and normal, point and depth at the reported t
   within the same margin. Where the motion is within the margin of tangential at t = 0 either
   answer is accepted (the contract says so). The exit time of a hit lies between the shrunk
   and the grown pair's exits, which the oracle finds on its own (a doubling step, then
   bisection on f - R from the far side; never the quadratic's roots); a miss has
   t_exit = TOI_NO_HIT. A last case draws relative motion from 1 down to 2^-120 of the
   geometry (the kernels' rescaled exit solve) and beyond the float range of exit times. */
#include "gen.h"
#include "oracle.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#define EPS ((ld)FLT_EPSILON)

typedef struct sphere_q {
    ld l[3], v[3];
} sphere_q;

static ld sphere_f(const void *q, ld t)
{
    const sphere_q *s = q;
    return ld_norm3(s->l[0] + t * s->v[0], s->l[1] + t * s->v[1], s->l[2] + t * s->v[2]);
}

typedef struct plane_q {
    ld s0, sv;
} plane_q;

static ld plane_f(const void *q, ld t)
{
    const plane_q *p = q;
    return p->s0 + t * p->sv;
}

typedef struct acc_stats {
    size_t queries, hits, ambiguous;
} acc_stats;

/* Hit/miss and t against the shrunk and grown contact radii (their first contacts: *phs,
   *phg). */
static int check_t(oracle_fn f, const void *q, ld R, ld delta, ld slope0, int amb,
                   unsigned flags, float t, const char *what, size_t i, oracle_hit *phs,
                   oracle_hit *phg)
{
    oracle_hit hs = oracle_first_contact(f, q, R - delta, slope0, flags & TOI_ALL_OVERLAPS);
    oracle_hit hg = oracle_first_contact(f, q, R + delta, slope0, flags & TOI_ALL_OVERLAPS);
    *phs = hs, *phg = hg;
    int hit = t != TOI_NO_HIT;
    int ok = 1;
    if (!amb) {
        if (hs.hit && !hit) {
            CHECK(0, "%s %zu: false miss (shrunk pair hits at t = %.9Lg)", what, i, hs.t);
            ok = 0;
        }
        if (!hg.hit && hit) {
            CHECK(0, "%s %zu: false hit at t = %.9g (grown pair misses)", what, i, t);
            ok = 0;
        }
    }
    if (hit && hg.hit) {
        ld hi = hs.hit ? hs.t : 1;
        ld slack = 2 * EPS;
        if (!(t >= hg.t - slack && t <= hi + slack)) {
            CHECK(0, "%s %zu: t = %.9g outside [%.9Lg, %.9Lg]", what, i, t, hg.t, hi);
            ok = 0;
        }
    }
    if (!(hit ? (t >= 0 && t <= 1) : 1)) {
        CHECK(0, "%s %zu: t = %.9g outside [0,1]", what, i, t);
        ok = 0;
    }
    return ok;
}

static void print_q(const float *v, int n)
{
    printf("    inputs:");
    for (int k = 0; k < n; k++)
        printf(" %.9g", v[k]);
    printf("\n");
}

static ld max4(ld a, ld b, ld c, ld d)
{
    ld m = a > b ? a : b;
    m = m > c ? m : c;
    return m > d ? m : d;
}

static void acc_spheres(const void *ctx)
{
    (void)ctx;
    const size_t N = 4096;
    size_t total = t_acc_count(200000), done = 0, fails = 0;
    t_sph a, b;
    t_hits h;
    t_spheres_alloc(&a, N);
    t_spheres_alloc(&b, N);
    t_hits_alloc(&h, N);
    rng r = t_rng(0xACC1);
    acc_stats st = {0, 0, 0};
    while (done < total && fails < 5) {
        unsigned flags = rng_below(&r, 2) ? TOI_ALL_OVERLAPS : 0;
        for (size_t i = 0; i < N; i++) {
            float qa[7], qb[7];
            gen_pair(&r, (int)rng_below(&r, GEN_NFAMILIES - 1), qa, qb); /* no specials */
            for (int k = 0; k < 7; k++)
                a.f[k][i] = qa[k], b.f[k][i] = qb[k];
        }
        t_spheres(&t_impls[0], N, &a.s, &b.s, flags, &h.h);
        for (size_t i = 0; i < N && fails < 5; i++) {
            sphere_q q;
            for (int k = 0; k < 3; k++) {
                q.l[k] = (ld)a.f[k][i] - (ld)b.f[k][i];
                q.v[k] = (ld)a.f[3 + k][i] - (ld)b.f[3 + k][i];
            }
            ld R = (ld)a.f[6][i] + (ld)b.f[6][i];
            ld ll = ld_norm3(q.l[0], q.l[1], q.l[2]), vl = ld_norm3(q.v[0], q.v[1], q.v[2]);
            ld S = max4(ll, vl, R, 0), delta = 64 * EPS * S;
            ld lv = q.l[0] * q.v[0] + q.l[1] * q.v[1] + q.l[2] * q.v[2];
            int amb = ld_abs(lv) < 2 * delta * vl && sphere_f(&q, 0) <= R + delta;
            st.ambiguous += amb;
            float t = h.f[0][i];
            oracle_hit hs, hg;
            int ok = check_t(sphere_f, &q, R, delta, lv, amb, flags, t, "pair", done + i, &hs,
                             &hg);
            ok = ok && oracle_exit_check(sphere_f, &q, &q, R, delta, hs, hg, t, h.t_exit[i],
                                         "pair", done + i);
            if (ok && t != TOI_NO_HIT) {
                st.hits++;
                ld tt = t, d[3];
                for (int k = 0; k < 3; k++)
                    d[k] = q.l[k] + tt * q.v[k];
                const float nv[3] = {h.f[1][i], h.f[2][i], h.f[3][i]};
                oracle_normal on = oracle_normal_check(nv, d, delta, 2);
                const ld *n = on.n, tol_n = on.tol;
                if (!on.ok) {
                    CHECK(0, "pair %zu: normal (%g %g %g) |n| = %.9Lg, error %.3Lg > %.3Lg",
                          done + i, nv[0], nv[1], nv[2], on.len, on.err, tol_n);
                    ok = 0;
                }
                ld rb = b.f[6][i], world = 0, perr = 0;
                for (int k = 0; k < 3; k++) {
                    ld pk = (ld)b.f[k][i] + tt * (ld)b.f[3 + k][i] + n[k] * rb;
                    perr += (h.f[4 + k][i] - pk) * (h.f[4 + k][i] - pk);
                    world += ld_abs(b.f[k][i]) + ld_abs(b.f[3 + k][i]);
                }
                perr = ld_sqrt(perr);
                ld tol_p = 2 * delta + rb * (tol_n < 2 ? tol_n : 2) + 8 * EPS * (world + rb);
                if (!(perr <= tol_p)) {
                    CHECK(0, "pair %zu: point error %.3Lg > %.3Lg", done + i, perr, tol_p);
                    ok = 0;
                }
                ld want_depth = t == 0 && R - ll > 0 ? R - ll : 0;
                if (!(ld_abs(h.f[7][i] - want_depth) <= delta + 4 * EPS * R) ||
                    !(h.f[7][i] >= 0)) {
                    CHECK(0, "pair %zu: depth %.9g, want %.9Lg", done + i, h.f[7][i],
                          want_depth);
                    ok = 0;
                }
            }
            if (!ok) {
                float in[14];
                for (int k = 0; k < 7; k++)
                    in[k] = a.f[k][i], in[7 + k] = b.f[k][i];
                print_q(in, 14);
                fails++;
            }
        }
        done += N;
    }
    st.queries = done;
    printf("    %zu pairs (%zu hits, %zu within the tangential margin) against the oracle\n",
           st.queries, st.hits, st.ambiguous);
    t_hits_free(&h);
    t_spheres_free(&a);
    t_spheres_free(&b);
}

static void acc_plane(const void *ctx)
{
    (void)ctx;
    const size_t N = 4096;
    size_t total = t_acc_count(200000), done = 0, fails = 0, hits = 0;
    t_sph s;
    t_hits h;
    t_spheres_alloc(&s, N);
    t_hits_alloc(&h, N);
    rng r = t_rng(0xACC2);
    while (done < total && fails < 5) {
        unsigned flags = rng_below(&r, 2) ? TOI_ALL_OVERLAPS : 0;
        toi_plane P;
        gen_plane(&r, &P);
        for (size_t i = 0; i < N; i++) {
            float q[7];
            gen_plane_sphere(&r, (int)rng_below(&r, GEN_NFAMILIES - 1), &P, q);
            for (int k = 0; k < 7; k++)
                s.f[k][i] = q[k];
        }
        t_plane(&t_impls[0], N, &s.s, &P, flags, &h.h);
        for (size_t i = 0; i < N && fails < 5; i++) {
            const ld n[3] = {P.nx, P.ny, P.nz};
            ld c[3], v[3];
            for (int k = 0; k < 3; k++)
                c[k] = s.f[k][i], v[k] = s.f[3 + k][i];
            plane_q q = {n[0] * c[0] + n[1] * c[1] + n[2] * c[2] - P.d,
                         n[0] * v[0] + n[1] * v[1] + n[2] * v[2]};
            ld r0 = s.f[6][i], vl = ld_norm3(v[0], v[1], v[2]);
            ld S = max4(ld_norm3(c[0], c[1], c[2]), ld_abs(P.d), vl, r0);
            ld delta = 64 * EPS * S;
            int amb = ld_abs(q.sv) < 2 * 64 * EPS * vl && q.s0 <= r0 + delta;
            float t = h.f[0][i];
            oracle_hit hs, hg;
            int ok = check_t(plane_f, &q, r0, delta, q.sv, amb, flags, t, "sphere", done + i,
                             &hs, &hg);
            /* near-tangential motion: the exit, unlike t in [0, 1], moves with the error in
               n.v (FLT_EPSILON |v|), so the bounds also change n.v by the tangential margin */
            plane_q qs = {q.s0, q.sv + 2 * 64 * EPS * vl}, qg = {q.s0, q.sv - 2 * 64 * EPS * vl};
            ok = ok && oracle_exit_check(plane_f, &qs, &qg, r0, delta, hs, hg, t, h.t_exit[i],
                                         "sphere", done + i);
            if (ok && t != TOI_NO_HIT) {
                hits++;
                ld tt = t, st = q.s0 + tt * q.sv, perr = 0;
                for (int k = 0; k < 3; k++) {
                    ld pk = c[k] + tt * v[k] - st * n[k];
                    perr += (h.f[4 + k][i] - pk) * (h.f[4 + k][i] - pk);
                    if (h.f[1 + k][i] != (&P.nx)[k]) {
                        CHECK(0, "sphere %zu: normal is not the plane's", done + i);
                        ok = 0;
                    }
                }
                perr = ld_sqrt(perr);
                ld tol_p = 2 * delta + 8 * EPS * (S + ld_abs(st));
                if (!(perr <= tol_p)) {
                    CHECK(0, "sphere %zu: point error %.3Lg > %.3Lg", done + i, perr, tol_p);
                    ok = 0;
                }
                ld want_depth = t == 0 && r0 - q.s0 > 0 ? r0 - q.s0 : 0;
                if (!(ld_abs(h.f[7][i] - want_depth) <= delta)) {
                    CHECK(0, "sphere %zu: depth %.9g, want %.9Lg", done + i, h.f[7][i],
                          want_depth);
                    ok = 0;
                }
            }
            if (!ok) {
                float in[11];
                for (int k = 0; k < 7; k++)
                    in[k] = s.f[k][i];
                in[7] = P.nx, in[8] = P.ny, in[9] = P.nz, in[10] = P.d;
                print_q(in, 11);
                fails++;
            }
        }
        done += N;
    }
    printf("    %zu spheres (%zu hits) against the oracle\n", done, hits);
    t_hits_free(&h);
    t_spheres_free(&s);
}

/* A random unit vector (float, rounded). */
static void unit3(rng *r, float d[3])
{
    float l2;
    do {
        for (int k = 0; k < 3; k++)
            d[k] = rng_range(r, -1, 1);
        l2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    } while (l2 < 0.01f || l2 > 1.0f);
    float l = sqrtf(l2);
    for (int k = 0; k < 3; k++)
        d[k] /= l;
}

/* Exit times across the magnitude of the relative motion: pairs and plane spheres near or in
   contact whose motion is 2^-k of the geometry, k in 0 .. 130 (v.v below TOI_EXIT_MIN_A from
   k ~ 32: the rescaled solve; exits beyond the float range from k ~ 127), with every overlap
   wanted, against the oracle: hit/miss, t and the exit. */
static void acc_exit_magnitudes(const void *ctx)
{
    (void)ctx;
    const size_t N = 1024;
    size_t total = t_acc_count(40000), done = 0, fails = 0, hits = 0, beyond = 0;
    t_sph a, b, c;
    t_hits h, hp;
    t_spheres_alloc(&a, N);
    t_spheres_alloc(&b, N);
    t_spheres_alloc(&c, N);
    t_hits_alloc(&h, N);
    t_hits_alloc(&hp, N);
    rng r = t_rng(0xE417);
    const unsigned flags = TOI_ALL_OVERLAPS;
    while (done < total && fails < 5) {
        toi_plane P;
        gen_plane(&r, &P);
        const float pn[3] = {P.nx, P.ny, P.nz};
        for (size_t i = 0; i < N; i++) {
            static const float scales[3] = {1e-3f, 1.0f, 1e3f};
            float s = scales[rng_below(&r, 3)], d[3], u[3];
            float R = rng_range(&r, 0.1f, 1.0f) * s;
            float dist = R * rng_range(&r, 0.0f, 1.2f);
            float speed = ldexpf(rng_range(&r, 0.5f, 1.0f) * s, -(int)rng_below(&r, 131));
            int still_b = (int)rng_below(&r, 2), flip = (int)rng_below(&r, 2);
            unit3(&r, d);
            unit3(&r, u);
            for (int k = 0; k < 3; k++) {
                b.f[k][i] = rng_range(&r, -s, s);
                a.f[k][i] = b.f[k][i] + d[k] * dist;
                b.f[3 + k][i] = still_b ? 0.0f : u[k] * speed;
                a.f[3 + k][i] = b.f[3 + k][i] + (flip ? -u[k] : u[k]) * speed;
            }
            a.f[6][i] = R * 0.5f, b.f[6][i] = R * 0.5f;
            /* the plane's sphere: rising or sinking at 2^-k, sometimes also sliding */
            float s0 = R * rng_range(&r, -1.0f, 1.2f);
            float sv = rng_below(&r, 2) ? speed : -speed;
            float tang = rng_below(&r, 2) ? 0.0f : speed * rng_range(&r, 0, 4);
            for (int k = 0; k < 3; k++) {
                c.f[k][i] = pn[k] * (P.d + s0) + u[k] * s;
                c.f[3 + k][i] = pn[k] * sv + d[k] * tang;
            }
            c.f[6][i] = R;
        }
        t_spheres(&t_impls[0], N, &a.s, &b.s, flags, &h.h);
        t_plane(&t_impls[0], N, &c.s, &P, flags, &hp.h);
        for (size_t i = 0; i < N && fails < 5; i++) {
            sphere_q q;
            for (int k = 0; k < 3; k++) {
                q.l[k] = (ld)a.f[k][i] - (ld)b.f[k][i];
                q.v[k] = (ld)a.f[3 + k][i] - (ld)b.f[3 + k][i];
            }
            ld R = (ld)a.f[6][i] + (ld)b.f[6][i];
            ld ll = ld_norm3(q.l[0], q.l[1], q.l[2]), vl = ld_norm3(q.v[0], q.v[1], q.v[2]);
            ld delta = 64 * EPS * max4(ll, vl, R, 0);
            ld lv = q.l[0] * q.v[0] + q.l[1] * q.v[1] + q.l[2] * q.v[2];
            int amb = ld_abs(lv) < 2 * delta * vl && sphere_f(&q, 0) <= R + delta;
            float t = h.f[0][i];
            oracle_hit hs, hg;
            int ok = check_t(sphere_f, &q, R, delta, lv, amb, flags, t, "pair", done + i, &hs,
                             &hg) &&
                     oracle_exit_check(sphere_f, &q, &q, R, delta, hs, hg, t, h.t_exit[i],
                                       "pair", done + i);
            hits += t != TOI_NO_HIT;
            beyond += h.t_exit[i] == INFINITY && t != TOI_NO_HIT;
            if (!ok) {
                float in[14];
                for (int k = 0; k < 7; k++)
                    in[k] = a.f[k][i], in[7 + k] = b.f[k][i];
                print_q(in, 14);
                fails++;
                continue;
            }
            const ld n[3] = {P.nx, P.ny, P.nz};
            ld cc[3], v[3];
            for (int k = 0; k < 3; k++)
                cc[k] = c.f[k][i], v[k] = c.f[3 + k][i];
            plane_q pq = {n[0] * cc[0] + n[1] * cc[1] + n[2] * cc[2] - P.d,
                          n[0] * v[0] + n[1] * v[1] + n[2] * v[2]};
            ld r0 = c.f[6][i];
            vl = ld_norm3(v[0], v[1], v[2]);
            delta = 64 * EPS * max4(ld_norm3(cc[0], cc[1], cc[2]), ld_abs(P.d), vl, r0);
            amb = ld_abs(pq.sv) < 2 * 64 * EPS * vl && pq.s0 <= r0 + delta;
            t = hp.f[0][i];
            plane_q qs = {pq.s0, pq.sv + 2 * 64 * EPS * vl};
            plane_q qg = {pq.s0, pq.sv - 2 * 64 * EPS * vl};
            ok = check_t(plane_f, &pq, r0, delta, pq.sv, amb, flags, t, "sphere", done + i, &hs,
                         &hg) &&
                 oracle_exit_check(plane_f, &qs, &qg, r0, delta, hs, hg, t, hp.t_exit[i],
                                   "sphere", done + i);
            hits += t != TOI_NO_HIT;
            beyond += hp.t_exit[i] == INFINITY && t != TOI_NO_HIT;
            if (!ok) {
                float in[11];
                for (int k = 0; k < 7; k++)
                    in[k] = c.f[k][i];
                in[7] = P.nx, in[8] = P.ny, in[9] = P.nz, in[10] = P.d;
                print_q(in, 11);
                fails++;
            }
        }
        done += N;
    }
    printf("    %zu pairs and %zu plane spheres (%zu hits, %zu never separating) against the "
           "oracle\n", done, done, hits, beyond);
    t_hits_free(&h);
    t_hits_free(&hp);
    t_spheres_free(&a);
    t_spheres_free(&b);
    t_spheres_free(&c);
}

void group_accuracy(void)
{
    t_run("accuracy/sphere pairs: scalar vs long-double oracle", acc_spheres, NULL);
    t_run("accuracy/plane: scalar vs long-double oracle", acc_plane, NULL);
    t_run("accuracy/exit times, relative motion 1 to 2^-130: scalar vs long-double oracle",
          acc_exit_magnitudes, NULL);
}
