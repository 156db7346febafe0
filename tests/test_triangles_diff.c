/* test_triangles_diff.c - group 2 for the triangle queries: every backend against the scalar
   reference, bit for bit (every output, index and feature included), on at least 1,000,000
   seeded random queries per kernel (TOI_TEST_SCALE = 1): random batch sizes, misaligned
   arrays, random flags, random subsets of outputs. Set queries count their sphere-triangle
   queries (a sphere against 0 to 40 triangles drawn near the spheres' paths, so the box test
   and the pruning by the best time are exercised). Each batch is drawn and run on the
   reference once, then on every backend. The first mismatch of each backend is printed with
   its inputs. */
#include "tri_gen.h"

#include <stdlib.h>

#define MAXN 700
#define MAXSET 40
#define TARGET 1000000

enum { TK_PAIRS, TK_LIST, TK_SET };


static toi_hits pick(rng *r, const t_hits *h, size_t off)
{
    toi_hits o = {h->f[0] + off, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t mode = rng_below(r, 4), mask = mode == 0 ? 0 : mode == 1 ? rng_below(r, 512) : 511;
    float *f[T_NOUT];
    for (int k = 1; k < T_NOUT; k++)
        f[k] = (mask >> (k - 1) & 1) ? h->f[k] + off : NULL;
    o.nx = f[1], o.ny = f[2], o.nz = f[3], o.px = f[4], o.py = f[5], o.pz = f[6], o.depth = f[7];
    o.index = (mask >> 7 & 1) ? h->index + off : NULL;
    o.t_exit = (mask >> 7 & 1) ? h->t_exit + off : NULL; /* never written: stays the sentinel */
    o.feature = (mask >> 8 & 1) ? h->feature + off : NULL;
    return o;
}

static void print_floats(const char *what, const float *v, int n)
{
    printf("    %s:", what);
    for (int k = 0; k < n; k++)
        printf(" %.9g(0x%08x)", v[k], float_bits(v[k]));
    printf("\n");
}

static float out_val(const t_hits *h, int k, size_t at)
{
    return k < T_NOUT ? h->f[k][at] : k == T_NOUT ? (float)h->index[at]
                      : k == T_NOUT + 1 ? h->feature[at] : h->t_exit[at];
}

static ptrdiff_t call(int kernel, const t_impl *im, size_t n, const uint32_t *is,
                      const uint32_t *it, const toi_spheres *ss, size_t nt,
                      const toi_triangles *tt, unsigned flags, const toi_hits *o)
{
    switch (kernel) {
    case TK_PAIRS: return t_tris(im, n, ss, tt, flags, o);
    case TK_LIST: return t_tri_pairs(im, n, is, it, n, ss, n, tt, flags, o);
    default: return t_tri_set(im, n, ss, nt, tt, flags, o);
    }
}

static void run_tdiff(const void *ctx)
{
    const int kernel = *(const int *)ctx;
    const t_impl *scalar = &t_impls[0];
    t_sph sp;
    t_tri tr;
    t_hits ref, got;
    uint32_t *is = malloc((MAXN + 4) * sizeof *is), *it = malloc((MAXN + 4) * sizeof *it);
    t_spheres_alloc(&sp, MAXN + 4);
    t_tri_alloc(&tr, MAXN + 4);
    t_hits_alloc(&ref, MAXN + 4);
    t_hits_alloc(&got, MAXN + 4);
    rng r = t_rng(0x7A1 + (uint64_t)kernel * 7919);
    size_t done = 0, target = t_count(TARGET), hits = 0, spheres = 0;
    int failed[8] = {0}, left = t_nimpls - 1;
    while (done < target && left > 0) {
        size_t n = rng_below(&r, 8) == 0 ? 1 + rng_below(&r, MAXN) : 1 + rng_below(&r, 40);
        size_t off = rng_below(&r, 4);
        unsigned flags = rng_below(&r, 4);
        size_t nt = n;
        if (kernel == TK_SET) {
            n = 1 + rng_below(&r, 24);
            nt = rng_below(&r, MAXSET + 1);
        }
        size_t ngen = n > nt ? n : nt;
        /* one family per batch for sets (so the triangles lie near the spheres' paths) */
        int fam = (int)rng_below(&r, TRI_NFAMILIES);
        for (size_t i = 0; i < ngen; i++) {
            float S[7], T[9];
            tri_gen(&r, kernel == TK_SET ? fam : -1, S, T);
            for (int k = 0; k < 7; k++)
                sp.f[k][off + i] = S[k];
            for (int k = 0; k < 9; k++)
                tr.f[k][off + i] = T[k];
        }
        if (kernel == TK_LIST)
            for (size_t i = 0; i < n; i++) {
                is[off + i] = rng_below(&r, (uint32_t)n);
                it[off + i] = rng_below(&r, 2) == 0 ? (uint32_t)i : rng_below(&r, (uint32_t)n);
            }
        toi_spheres ss = sp.s;
        toi_triangles tt = tr.t;
        for (int k = 0; k < 7; k++)
            ((const float **)&ss)[k] += off;
        for (int k = 0; k < 9; k++)
            ((const float **)&tt)[k] += off;
        rng rsel = r;
        toi_hits oref = pick(&rsel, &ref, off);
        t_hits_fill(&ref, 0x5A);
        ptrdiff_t want = call(kernel, scalar, n, is + off, it + off, &ss, nt, &tt, flags, &oref);
        hits += want > 0 ? (size_t)want : 0;
        for (int b = 1; b < t_nimpls; b++) {
            if (failed[b])
                continue;
            const t_impl *im = &t_impls[b];
            rng rgot = r;
            toi_hits ogot = pick(&rgot, &got, off);
            t_hits_fill(&got, 0x5A);
            ptrdiff_t have = call(kernel, im, n, is + off, it + off, &ss, nt, &tt, flags, &ogot);
            size_t at;
            int k = t_hits_diff(&ref, &got, n + off + 1, &at);
            if (k < 0 && have == want)
                continue;
            failed[b] = 1;
            left--;
            if (k < 0) {
                CHECK(0, "%s: hit count %td, scalar %td (n %zu)", im->name, have, want, n);
                continue;
            }
            size_t i = at - off;
            CHECK(0, "%s: query %zu of %zu (flags %u%s): %s = %.9g (0x%08x), scalar %.9g "
                  "(0x%08x)", im->name, i, n, flags, kernel == TK_SET ? ", set" : "",
                  t_out_name(k), out_val(&got, k, at), float_bits(out_val(&got, k, at)),
                  out_val(&ref, k, at), float_bits(out_val(&ref, k, at)));
            size_t si = kernel == TK_LIST ? off + is[at] : at;
            float S[7], T[9];
            for (int c = 0; c < 7; c++)
                S[c] = sp.f[c][si];
            print_floats("sphere", S, 7);
            if (kernel == TK_SET) {
                printf("    set of %zu triangles, scalar picked %u, %s picked %u\n", nt,
                       ref.index[at], im->name, got.index[at]);
                for (size_t j = 0; j < nt && j < 64; j++) {
                    for (int c = 0; c < 9; c++)
                        T[c] = tr.f[c][off + j];
                    print_floats("triangle", T, 9);
                }
            } else {
                size_t ti = kernel == TK_LIST ? off + it[at] : at;
                for (int c = 0; c < 9; c++)
                    T[c] = tr.f[c][ti];
                print_floats("triangle", T, 9);
            }
        }
        r = rsel;
        /* a set query counts its sphere-triangle queries (at least one per sphere) */
        done += kernel == TK_SET ? n * (nt ? nt : 1) : n;
        spheres += n;
    }
    for (int b = 1; b < t_nimpls; b++)
        if (!failed[b])
            printf("    %s: %zu queries bit-identical (%zu hits%s%zu spheres)\n", t_impls[b].name,
                   done, hits, kernel == TK_SET ? ", sets against " : ", ", spheres);
    free(is);
    free(it);
    t_spheres_free(&sp);
    t_tri_free(&tr);
    t_hits_free(&ref);
    t_hits_free(&got);
}

void group_tri_differential(void)
{
    static const char *const names[3] = {"triangle pairs", "triangle pair lists",
                                         "triangle sets"};
    char name[128];
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "differential/%s/every backend vs scalar", names[k]);
        t_run(name, run_tdiff, &k);
    }
}
