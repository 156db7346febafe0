/* test_differential.c - group 2: every backend against the scalar reference, bit for bit, on
   at least 1,000,000 seeded random queries per kernel (TOI_TEST_SCALE = 1): random batch
   sizes (every tail), misaligned arrays, random flags and random subsets of outputs. Each
   batch is drawn and run on the reference once, then on every backend. The first mismatch of
   each backend is printed with its inputs. */
#include "gen.h"

#include <math.h>
#include <stdlib.h>

#define MAXN 1100
#define TARGET 1000000

typedef struct diff_state {
    t_sph a, b;      /* pair inputs; pair lists use a as the bodies */
    uint32_t *ia, *ib;
    t_hits ref, got;
    toi_plane plane;
} diff_state;

/* Random output selection: mostly everything, sometimes t only, sometimes a random subset
   (the exit time among them). */
static toi_hits pick_outputs(rng *r, const t_hits *h, size_t off)
{
    toi_hits o = {h->f[0] + off, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    uint32_t mode = rng_below(r, 4), mask = mode == 0 ? 0 : mode == 1 ? rng_below(r, 256) : 255;
    float *f[T_NOUT];
    for (int k = 1; k < T_NOUT; k++)
        f[k] = (mask >> (k - 1) & 1) ? h->f[k] + off : NULL;
    o.nx = f[1], o.ny = f[2], o.nz = f[3], o.px = f[4], o.py = f[5], o.pz = f[6], o.depth = f[7];
    o.t_exit = (mask >> 7 & 1) ? h->t_exit + off : NULL;
    return o;
}

static float out_val(const t_hits *h, int k, size_t at)
{
    return k < T_NOUT ? h->f[k][at] : h->t_exit[at]; /* index and feature: not written here */
}

static void print_inputs(const char *what, const float *v, int n)
{
    printf("    %s:", what);
    for (int k = 0; k < n; k++)
        printf(" %.9g(0x%08x)", v[k], float_bits(v[k]));
    printf("\n");
}

enum { K_SPHERES, K_PAIRS, K_PLANE };

static ptrdiff_t call(int kernel, const t_impl *im, diff_state *st, size_t n, size_t off,
                      size_t nb, const toi_spheres *sa, const toi_spheres *sb, unsigned flags,
                      const toi_hits *o)
{
    switch (kernel) {
    case K_SPHERES: return t_spheres(im, n, sa, sb, flags, o);
    case K_PAIRS: return t_pairs(im, n, st->ia + off, st->ib + off, nb, sa, flags, o);
    default: return t_plane(im, n, sa, &st->plane, flags, o);
    }
}

static void run_diff(const void *ctx)
{
    const int kernel = *(const int *)ctx;
    const t_impl *scalar = &t_impls[0];
    diff_state st;
    t_spheres_alloc(&st.a, MAXN + 4);
    t_spheres_alloc(&st.b, MAXN + 4);
    st.ia = malloc((MAXN + 4) * sizeof(uint32_t));
    st.ib = malloc((MAXN + 4) * sizeof(uint32_t));
    t_hits_alloc(&st.ref, MAXN + 4);
    t_hits_alloc(&st.got, MAXN + 4);
    rng r = t_rng(0x7013 + (uint64_t)kernel * 977);
    size_t done = 0, target = t_count(TARGET);
    int failed[8] = {0}, left = t_nimpls - 1;
    while (done < target && left > 0) {
        size_t n = rng_below(&r, 8) == 0 ? 1 + rng_below(&r, MAXN) : 1 + rng_below(&r, 40);
        size_t off = rng_below(&r, 4);
        unsigned flags = rng_below(&r, 2) ? TOI_ALL_OVERLAPS : 0;
        size_t nb = n; /* bodies for pair lists */
        if (kernel == K_PLANE)
            gen_plane(&r, &st.plane);
        /* one batch in 8: motions scaled down by 2^-k, k up to 130 (the exit times' rescaled
           solves for tiny motion, and exits beyond the float range) */
        int tiny = rng_below(&r, 8) == 0;
        for (size_t i = 0; i < n; i++) {
            float a[7], b[7];
            if (kernel == K_PLANE)
                gen_plane_sphere(&r, -1, &st.plane, a);
            else
                gen_pair(&r, -1, a, b);
            if (tiny) {
                int e = -(int)rng_below(&r, 131);
                for (int k = 3; k < 6; k++)
                    a[k] = ldexpf(a[k], e), b[k] = ldexpf(b[k], e);
            }
            for (int k = 0; k < 7; k++) {
                st.a.f[k][off + i] = a[k];
                st.b.f[k][off + i] = b[k];
            }
        }
        if (kernel == K_PAIRS) { /* bodies = the a spheres; random, repeated, self pairs */
            for (size_t i = 0; i < n; i++) {
                st.ia[off + i] = rng_below(&r, (uint32_t)nb);
                st.ib[off + i] = rng_below(&r, 8) == 0 ? st.ia[off + i]
                                                       : rng_below(&r, (uint32_t)nb);
            }
        }
        toi_spheres sa = st.a.s, sb = st.b.s;
        for (int k = 0; k < 7; k++) {
            ((const float **)&sa)[k] += off;
            ((const float **)&sb)[k] += off;
        }
        rng rsel = r;
        toi_hits oref = pick_outputs(&rsel, &st.ref, off);
        t_hits_fill(&st.ref, 0x5A);
        ptrdiff_t want = call(kernel, scalar, &st, n, off, nb, &sa, &sb, flags, &oref);
        for (int b = 1; b < t_nimpls; b++) {
            if (failed[b])
                continue;
            const t_impl *im = &t_impls[b];
            rng rgot = r;
            toi_hits ogot = pick_outputs(&rgot, &st.got, off);
            t_hits_fill(&st.got, 0x5A);
            ptrdiff_t got = call(kernel, im, &st, n, off, nb, &sa, &sb, flags, &ogot);
            size_t at;
            int k = t_hits_diff(&st.ref, &st.got, n + off + 1, &at);
            if (k < 0 && got == want)
                continue;
            failed[b] = 1;
            left--;
            if (k < 0) {
                CHECK(0, "%s: hit count %td, scalar %td (n %zu)", im->name, got, want, n);
                continue;
            }
            size_t i = at - off;
            float g = out_val(&st.got, k, at), w = out_val(&st.ref, k, at);
            CHECK(0, "%s: query %zu of a batch of %zu (flags %u): %s = %.9g (0x%08x), scalar "
                  "%.9g (0x%08x)", im->name, i, n, flags, t_out_name(k), g, float_bits(g), w,
                  float_bits(w));
            float in[14];
            if (kernel == K_PAIRS) {
                printf("    pair %u vs %u\n", st.ia[at], st.ib[at]);
                for (int c = 0; c < 7; c++) {
                    in[c] = st.a.f[c][off + st.ia[at]];
                    in[7 + c] = st.a.f[c][off + st.ib[at]];
                }
            } else {
                for (int c = 0; c < 7; c++) {
                    in[c] = st.a.f[c][at];
                    in[7 + c] = st.b.f[c][at];
                }
            }
            print_inputs(kernel == K_PLANE ? "sphere" : "A", in, 7);
            if (kernel == K_PLANE)
                print_inputs("plane", &st.plane.nx, 4);
            else
                print_inputs("B", in + 7, 7);
        }
        r = rsel;
        done += n;
    }
    for (int b = 1; b < t_nimpls; b++)
        if (!failed[b])
            printf("    %s: %zu queries bit-identical\n", t_impls[b].name, done);
    t_spheres_free(&st.a);
    t_spheres_free(&st.b);
    free(st.ia);
    free(st.ib);
    t_hits_free(&st.ref);
    t_hits_free(&st.got);
}

void group_differential(void)
{
    static const char *const names[3] = {"sphere pairs", "pair lists", "plane"};
    char name[128];
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "differential/%s/every backend vs scalar", names[k]);
        t_run(name, run_diff, &k);
    }
}
