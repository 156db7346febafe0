/* scene.c - generated benchmark scenes: about half hits in random order, a few percent
   already overlapping at t = 0, the rest misses of three kinds (passing by, falling short,
   moving apart) */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bench_query_name[Q_COUNT] = {"spheres", "pairs", "plane"};

/* Share of queries in each class. Hits and misses are drawn independently per query, so the
   outcome of one query says nothing about the next: a branchy kernel mispredicts as it would
   on a real broadphase's output. */
#define P_OVERLAP 0.03f /* touching at t = 0 and approaching: a hit at t = 0 */
#define P_HIT 0.47f     /* first contact inside (0, 1) */
#define WORLD 50.0f     /* scene half-size: queries far from the origin, as in a level */

static void *xmalloc(size_t bytes)
{
    /* 64-byte aligned so every backend sees the same alignment; size rounded up to it */
    void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!p) {
        fprintf(stderr, "toi_bench: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

static void random_dir(bench_rng *g, float d[3])
{
    float z = rng_range(g, -1.0f, 1.0f), phi = rng_range(g, 0.0f, 6.2831853f);
    float s = sqrtf(1.0f - z * z);
    d[0] = s * cosf(phi), d[1] = s * sinf(phi), d[2] = z;
}

/* A random unit vector perpendicular to unit w. */
static void perp_dir(bench_rng *g, const float w[3], float p[3])
{
    for (;;) {
        float d[3];
        random_dir(g, d);
        float k = d[0] * w[0] + d[1] * w[1] + d[2] * w[2];
        for (int i = 0; i < 3; i++)
            p[i] = d[i] - k * w[i];
        float len = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (len > 0.1f) {
            for (int i = 0; i < 3; i++)
                p[i] /= len;
            return;
        }
    }
}

/* Relative geometry of one sphere pair: A starts at l from B and moves v relative to it.
   Along the path the closest approach to B is the impact parameter `bimp`, reached after the
   path distance s; contact begins (s - h) into the path with h the half chord. */
static void gen_pair(bench_rng *g, aos_sphere *A, aos_sphere *B)
{
    float ra = rng_range(g, 0.05f, 1.0f), rb = rng_range(g, 0.05f, 1.0f), R = ra + rb;
    float l[3], v[3], w[3], p[3];
    float u = rng_unit(g);
    random_dir(g, w);
    perp_dir(g, w, p);
    if (u < P_OVERLAP) {
        /* overlapping, moving closer: l along p, motion with a component against it */
        float dist = R * rng_range(g, 0.05f, 0.95f), sp = R * rng_range(g, 0.2f, 2.0f);
        for (int i = 0; i < 3; i++) {
            l[i] = p[i] * dist;
            v[i] = -p[i] * sp + w[i] * sp * rng_range(g, -1.0f, 1.0f);
        }
    } else {
        int hit = u < P_OVERLAP + P_HIT;
        float kind = rng_unit(g);
        int passby = !hit && kind < 0.333f, apart = !hit && kind > 0.667f;
        float bimp = passby ? R * rng_range(g, 1.05f, 3.0f) : R * rng_range(g, 0.0f, 0.95f);
        float h = passby ? 0.0f : sqrtf(R * R - bimp * bimp);
        float s = h + R * rng_range(g, 0.1f, 2.0f);
        float L;
        if (hit)
            L = (s - h) / rng_range(g, 0.05f, 0.95f);
        else if (passby)
            L = s * rng_range(g, 0.5f, 3.0f);
        else if (apart)
            L = -s * rng_range(g, 0.5f, 3.0f);
        else
            L = (s - h) / rng_range(g, 1.1f, 3.0f); /* falls short of contact */
        for (int i = 0; i < 3; i++) {
            l[i] = -w[i] * s + p[i] * bimp;
            v[i] = w[i] * L;
        }
    }
    /* B anywhere in the world with its own motion; A relative to it. */
    float vb[3];
    random_dir(g, vb);
    float speed = rng_range(g, 0.0f, 2.0f);
    for (int i = 0; i < 3; i++) {
        B->c[i] = rng_range(g, -WORLD, WORLD);
        B->v[i] = vb[i] * speed;
        A->c[i] = B->c[i] + l[i];
        A->v[i] = B->v[i] + v[i];
    }
    A->r = ra, B->r = rb;
}

/* One sphere against the plane: signed distance s0 of its centre, normal speed vn. */
static void gen_plane_sphere(bench_rng *g, const toi_plane *P, aos_sphere *S)
{
    const float n[3] = {P->nx, P->ny, P->nz};
    float r = rng_range(g, 0.05f, 1.0f), s0, vn;
    float u = rng_unit(g);
    if (u < P_OVERLAP) {
        s0 = r * rng_range(g, 0.1f, 0.95f);
        vn = -r * rng_range(g, 0.1f, 2.0f);
    } else {
        s0 = r + r * rng_range(g, 0.1f, 3.0f);
        if (u < P_OVERLAP + P_HIT)
            vn = -(s0 - r) / rng_range(g, 0.05f, 0.95f);
        else if (rng_unit(g) < 0.5f)
            vn = r * rng_range(g, 0.01f, 2.0f); /* moving away */
        else
            vn = -(s0 - r) / rng_range(g, 1.1f, 3.0f); /* falls short */
    }
    float t1[3], t2[3];
    perp_dir(g, n, t1);
    t2[0] = n[1] * t1[2] - n[2] * t1[1];
    t2[1] = n[2] * t1[0] - n[0] * t1[2];
    t2[2] = n[0] * t1[1] - n[1] * t1[0];
    float a = rng_range(g, -WORLD, WORLD), b = rng_range(g, -WORLD, WORLD);
    float va = rng_range(g, -2.0f, 2.0f), vb = rng_range(g, -2.0f, 2.0f);
    for (int i = 0; i < 3; i++) {
        S->c[i] = n[i] * (P->d + s0) + t1[i] * a + t2[i] * b;
        S->v[i] = n[i] * vn + t1[i] * va + t2[i] * vb;
    }
    S->r = r;
}

static void soa_alloc(float *f[7], size_t n)
{
    for (int k = 0; k < 7; k++)
        f[k] = xmalloc(n * sizeof(float));
}

static void soa_put(float *f[7], size_t i, const aos_sphere *s)
{
    f[0][i] = s->c[0], f[1][i] = s->c[1], f[2][i] = s->c[2];
    f[3][i] = s->v[0], f[4][i] = s->v[1], f[5][i] = s->v[2];
    f[6][i] = s->r;
}

void scene_generate(bench_scene *sc, bench_query q, size_t pool, uint64_t seed)
{
    memset(sc, 0, sizeof *sc);
    sc->q = q;
    sc->pool = pool;
    bench_rng g = {seed * 0x2545f4914f6cdd1dull + (uint64_t)q};
    switch (q) {
    case Q_SPHERES:
        soa_alloc(sc->a, pool);
        soa_alloc(sc->b, pool);
        sc->naos = 2 * pool;
        sc->aos = xmalloc(sc->naos * sizeof(aos_sphere));
        for (size_t i = 0; i < pool; i++) {
            gen_pair(&g, &sc->aos[2 * i], &sc->aos[2 * i + 1]);
            soa_put(sc->a, i, &sc->aos[2 * i]);
            soa_put(sc->b, i, &sc->aos[2 * i + 1]);
        }
        break;
    case Q_PAIRS: {
        /* Two bodies per pair, placed at random slots of the body array: the kernel gathers
           from random addresses, as a broadphase's pair list makes it. */
        sc->nbodies = 2 * pool;
        soa_alloc(sc->body, sc->nbodies);
        sc->ia = xmalloc(pool * sizeof(uint32_t));
        sc->ib = xmalloc(pool * sizeof(uint32_t));
        sc->naos = sc->nbodies;
        sc->aos = xmalloc(sc->naos * sizeof(aos_sphere));
        uint32_t *perm = xmalloc(sc->nbodies * sizeof(uint32_t));
        for (size_t i = 0; i < sc->nbodies; i++)
            perm[i] = (uint32_t)i;
        for (size_t i = sc->nbodies - 1; i > 0; i--) {
            size_t j = (size_t)(rng_u64(&g) % (i + 1));
            uint32_t tmp = perm[i];
            perm[i] = perm[j], perm[j] = tmp;
        }
        for (size_t k = 0; k < pool; k++) {
            aos_sphere A, B;
            gen_pair(&g, &A, &B);
            sc->ia[k] = perm[2 * k], sc->ib[k] = perm[2 * k + 1];
            sc->aos[sc->ia[k]] = A, sc->aos[sc->ib[k]] = B;
            soa_put(sc->body, sc->ia[k], &A);
            soa_put(sc->body, sc->ib[k], &B);
        }
        free(perm);
        break;
    }
    case Q_PLANE: {
        float n[3];
        random_dir(&g, n);
        sc->plane = (toi_plane){n[0], n[1], n[2], rng_range(&g, -10.0f, 10.0f)};
        soa_alloc(sc->a, pool);
        sc->naos = pool;
        sc->aos = xmalloc(sc->naos * sizeof(aos_sphere));
        for (size_t i = 0; i < pool; i++) {
            gen_plane_sphere(&g, &sc->plane, &sc->aos[i]);
            soa_put(sc->a, i, &sc->aos[i]);
        }
        break;
    }
    default:
        break;
    }
}

void scene_free(bench_scene *sc)
{
    for (int k = 0; k < 7; k++) {
        free(sc->a[k]);
        free(sc->b[k]);
        free(sc->body[k]);
    }
    free(sc->ia);
    free(sc->ib);
    free(sc->aos);
    memset(sc, 0, sizeof *sc);
}

size_t scene_in_bytes(bench_query q)
{
    switch (q) {
    case Q_SPHERES: return 14 * sizeof(float);
    case Q_PAIRS: return 2 * sizeof(uint32_t) + 14 * sizeof(float); /* indices + 2 bodies */
    case Q_PLANE: return 7 * sizeof(float);
    default: return 0;
    }
}

size_t out_bytes(int full)
{
    return (full ? 8 : 1) * sizeof(float); /* t; or t, normal, point, depth */
}
