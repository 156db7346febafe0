/* test_golden.c - group 7: cross-architecture determinism. A fixed seeded input set (every
   query family, special values included, every flag value) is run on every backend and all
   output bits are hashed; the hash must equal the committed golden value on x86-64 (scalar,
   sse, avx2, avx512 where the CPU has it, neon through SIMDe) and on aarch64 (scalar, neon).
   The exit times (toi_hits.t_exit) have a hash of their own, GOLDEN_EXIT: the sphere and
   plane queries' t_exit on the same inputs, then on those inputs with their motion scaled
   down by 2^-k (k up to 130: the rescaled exit solves, and exits beyond the float range). */
#include "gen.h"
#include "tri_gen.h"

#include <math.h>
#include <stdlib.h>

/* Change only with a deliberate change of results, and say so in the commit. */
#define GOLDEN 0x7c364eae7030c2e0ull
#define GOLDEN_EXIT 0x439a2dcb9a3e17edull

#define GN 3000

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t hash_hits(uint64_t h, const t_hits *o, size_t n, ptrdiff_t ret)
{
    for (int k = 0; k < T_NOUT; k++)
        h = fnv(h, o->f[k], n * sizeof(float));
    return fnv(h, &ret, sizeof ret);
}

/* the triangle queries: every output, the feature and (sets) the index too */
static uint64_t hash_tri(uint64_t h, const t_hits *o, size_t n, ptrdiff_t ret, int set)
{
    h = hash_hits(h, o, n, ret);
    h = fnv(h, o->feature, n);
    return set ? fnv(h, o->index, n * sizeof(uint32_t)) : h;
}

/* Triangle pairs, pair lists and sets (sets of 0 to 40 triangles of one family), every flag
   combination. */
static uint64_t golden_triangles(uint64_t h, const t_impl *im, t_sph *s, t_hits *o,
                                 uint32_t *is, uint32_t *it)
{
    t_tri tr;
    t_tri_alloc(&tr, GN);
    for (unsigned flags = 0; flags <= TOI_FLAGS_ALL; flags++) {
        rng r = {0x7217 + flags};
        for (size_t i = 0; i < GN; i++) {
            float S[7], T[9];
            tri_gen(&r, (int)(i % TRI_NFAMILIES), S, T);
            for (int k = 0; k < 7; k++)
                s->f[k][i] = S[k];
            for (int k = 0; k < 9; k++)
                tr.f[k][i] = T[k];
            is[i] = rng_below(&r, GN);
            it[i] = rng_below(&r, 2) ? (uint32_t)i : rng_below(&r, GN);
        }
        h = hash_tri(h, o, GN, t_tris(im, GN, &s->s, &tr.t, flags, &o->h), 0);
        h = hash_tri(h, o, GN, t_tri_pairs(im, GN, is, it, GN, &s->s, GN, &tr.t, flags, &o->h), 0);
        for (size_t j = 0; j < 60; j++) {
            size_t nt = rng_below(&r, 41), ns = 1 + rng_below(&r, 20);
            int fam = (int)(j % TRI_NFAMILIES);
            for (size_t i = 0; i < (ns > nt ? ns : nt); i++) {
                float S[7], T[9];
                tri_gen(&r, fam, S, T);
                for (int k = 0; k < 7; k++)
                    s->f[k][i] = S[k];
                for (int k = 0; k < 9; k++)
                    tr.f[k][i] = T[k];
            }
            h = hash_tri(h, o, ns, t_tri_set(im, ns, &s->s, nt, &tr.t, flags, &o->h), 1);
        }
    }
    t_tri_free(&tr);
    return h;
}

static uint64_t hash_exit(uint64_t h, const t_hits *o, size_t n, ptrdiff_t ret)
{
    h = fnv(h, o->f[0], n * sizeof(float));
    h = fnv(h, o->t_exit, n * sizeof(float));
    return fnv(h, &ret, sizeof ret);
}

/* Scales the displacements of spheres [0, n) by 2^-(i % 131). */
static void shrink_motion(t_sph *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (int k = 3; k < 6; k++)
            s->f[k][i] = ldexpf(s->f[k][i], -(int)(i % 131));
}

static uint64_t golden_run(const t_impl *im, uint64_t *hexit)
{
    uint64_t h = 0xcbf29ce484222325ull, hx = h;
    t_sph a, b;
    t_hits o;
    uint32_t *ia = malloc(GN * sizeof *ia), *ib = malloc(GN * sizeof *ib);
    t_spheres_alloc(&a, GN);
    t_spheres_alloc(&b, GN);
    t_hits_alloc(&o, GN);
    for (unsigned flags = 0; flags <= TOI_ALL_OVERLAPS; flags += TOI_ALL_OVERLAPS) {
        rng r = {0x601D + flags};
        for (size_t i = 0; i < GN; i++) {
            float qa[7], qb[7];
            gen_pair(&r, (int)(i % GEN_NFAMILIES), qa, qb);
            for (int k = 0; k < 7; k++)
                a.f[k][i] = qa[k], b.f[k][i] = qb[k];
            ia[i] = rng_below(&r, GN);
            ib[i] = rng_below(&r, GN);
        }
        h = hash_hits(h, &o, GN, t_spheres(im, GN, &a.s, &b.s, flags, &o.h));
        hx = hash_exit(hx, &o, GN, 0);
        h = hash_hits(h, &o, GN, t_pairs(im, GN, ia, ib, GN, &a.s, flags, &o.h));
        hx = hash_exit(hx, &o, GN, 0);
        shrink_motion(&a, GN);
        shrink_motion(&b, GN);
        hx = hash_exit(hx, &o, GN, t_spheres(im, GN, &a.s, &b.s, flags, &o.h));
        hx = hash_exit(hx, &o, GN, t_pairs(im, GN, ia, ib, GN, &a.s, flags, &o.h));
        toi_plane P;
        for (size_t j = 0; j < 10; j++) {
            gen_plane(&r, &P);
            for (size_t i = 0; i < GN / 10; i++) {
                float q[7];
                gen_plane_sphere(&r, (int)(i % GEN_NFAMILIES), &P, q);
                for (int k = 0; k < 7; k++)
                    a.f[k][i] = q[k];
            }
            h = hash_hits(h, &o, GN / 10, t_plane(im, GN / 10, &a.s, &P, flags, &o.h));
            hx = hash_exit(hx, &o, GN / 10, 0);
            shrink_motion(&a, GN / 10);
            hx = hash_exit(hx, &o, GN / 10, t_plane(im, GN / 10, &a.s, &P, flags, &o.h));
        }
    }
    h = golden_triangles(h, im, &a, &o, ia, ib);
    free(ia);
    free(ib);
    t_spheres_free(&a);
    t_spheres_free(&b);
    t_hits_free(&o);
    *hexit = hx;
    return h;
}

static void case_golden(const void *ctx)
{
    const t_impl *im = ctx;
    uint64_t hx, h = golden_run(im, &hx);
    printf("    %s: 0x%016llx, exit times 0x%016llx\n", im->name, (unsigned long long)h,
           (unsigned long long)hx);
    CHECK(h == GOLDEN, "%s hashes to 0x%016llx, golden 0x%016llx", im->name,
          (unsigned long long)h, (unsigned long long)GOLDEN);
    CHECK(hx == GOLDEN_EXIT, "%s: exit times hash to 0x%016llx, golden 0x%016llx", im->name,
          (unsigned long long)hx, (unsigned long long)GOLDEN_EXIT);
}

void group_golden(void)
{
    char name[96];
    for (int i = 0; i < t_nimpls; i++) {
        snprintf(name, sizeof name, "golden hash/%s", t_impls[i].name);
        t_run(name, case_golden, &t_impls[i]);
    }
}
