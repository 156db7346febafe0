/* util.c - implementations under test, query wrappers that force and verify the backend,
   and batch buffers. */
#include "test.h"
#include "families.h"

#include <stdlib.h>

t_impl t_impls[8];
int t_nimpls;

void t_init_impls(void)
{
    static const toi_backend all[] = {TOI_BACKEND_SCALAR, TOI_BACKEND_SSE, TOI_BACKEND_AVX2,
                                      TOI_BACKEND_AVX512, TOI_BACKEND_NEON};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (toi_backend_available(all[i]))
            t_impls[t_nimpls++] = (t_impl){toi_backend_name(all[i]), toi_kernels_for(all[i]), 1};
#if defined(TOI_TEST_SIMDE_NEON)
    t_impls[t_nimpls++] = (t_impl){"neon-simde", &toi_kernels_neon, 0};
#endif
    if (&toi_kernels_avx512simde != NULL)
        t_impls[t_nimpls++] = (t_impl){"avx512-simde", &toi_kernels_avx512simde, 0};
    /* TOI_TEST_IMPLS=name,...: only those, beside the scalar reference (t_impls[0]) */
    int kept = 1;
    for (int i = 1; i < t_nimpls; i++)
        if (t_impl_wanted(t_impls[i].name))
            t_impls[kept++] = t_impls[i];
    t_nimpls = kept;
}

/* Force the backend through the public API and check that it is the one that ran. */
static void force(const t_impl *im)
{
    if (im->via_api)
        CHECK(toi_set_backend(im->k->id) == TOI_OK, "cannot force %s", im->name);
}
static void verify(const t_impl *im);

/* One query on im: through the public API after forcing its backend (then checking that it is
   the one that ran), or straight on its kernel table (NEON through SIMDe). */
#define T_QUERY(im, api_call, on_call)                                                   \
    do {                                                                                 \
        force(im);                                                                       \
        toi_note_backend(TOI_BACKEND_AUTO);                                              \
        ptrdiff_t r_ = (im)->via_api ? (api_call) : (on_call);                           \
        if (r_ > 0)                                                                      \
            verify(im);                                                                  \
        return r_;                                                                       \
    } while (0)

static void verify(const t_impl *im)
{
    if (im->via_api)
        CHECK(toi_last_backend() == im->k->id, "forced %s but %s ran", im->name,
              toi_backend_name(toi_last_backend()));
}

ptrdiff_t t_spheres(const t_impl *im, size_t n, const toi_spheres *a, const toi_spheres *b,
                    unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_spheres(n, a, b, flags, out),
            toi_sweep_spheres_on(im->k, n, a, b, flags, out));
}

ptrdiff_t t_pairs(const t_impl *im, size_t n, const uint32_t *ia, const uint32_t *ib,
                  size_t nb, const toi_spheres *s, unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_sphere_pairs(n, ia, ib, nb, s, flags, out),
            toi_sweep_sphere_pairs_on(im->k, n, ia, ib, nb, s, flags, out));
}

ptrdiff_t t_plane(const t_impl *im, size_t n, const toi_spheres *s, const toi_plane *p,
                  unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_spheres_plane(n, s, p, flags, out),
            toi_sweep_spheres_plane_on(im->k, n, s, p, flags, out));
}

ptrdiff_t t_respond(const t_impl *im, size_t n, const toi_motion *m, const toi_hits *hits,
                    float restitution, float friction)
{
    T_QUERY(im, toi_respond(n, m, hits, restitution, friction),
            toi_respond_on(im->k, n, m, hits, restitution, friction));
}

ptrdiff_t t_tris(const t_impl *im, size_t n, const toi_spheres *s, const toi_triangles *tri,
                 unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_spheres_triangles(n, s, tri, flags, out),
            toi_sweep_spheres_triangles_on(im->k, n, s, tri, flags, out));
}

ptrdiff_t t_tri_pairs(const t_impl *im, size_t n, const uint32_t *is, const uint32_t *it,
                      size_t ns, const toi_spheres *s, size_t nt, const toi_triangles *tri,
                      unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_sphere_triangle_pairs(n, is, it, ns, s, nt, tri, flags, out),
            toi_sweep_sphere_triangle_pairs_on(im->k, n, is, it, ns, s, nt, tri, flags, out));
}

ptrdiff_t t_tri_set(const t_impl *im, size_t n, const toi_spheres *s, size_t nt,
                    const toi_triangles *tri, unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_spheres_triangle_set(n, s, nt, tri, flags, out),
            toi_sweep_spheres_triangle_set_on(im->k, n, s, nt, tri, flags, out));
}

ptrdiff_t t_mesh(const t_impl *im, size_t n, const toi_spheres *s, const toi_mesh *m,
                 unsigned flags, const toi_hits *out, toi_cost *cost)
{
    T_QUERY(im, toi_sweep_spheres_mesh(n, s, m, flags, out, cost),
            toi_sweep_spheres_mesh_on(im->k, n, s, m, flags, out, cost));
}

/* Arrays start one float past an aligned address: no kernel may assume alignment. */
static void *alloc_unaligned(size_t bytes)
{
    char *p = malloc(bytes + 64);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p + 4;
}
static void free_unaligned(void *p)
{
    if (p)
        free((char *)p - 4);
}

float *t_crowded(int k, size_t off, float **streams)
{
    float *blk = aligned_alloc(4096, (size_t)k * 4096);
    if (!blk)
        abort();
    memset(blk, 0, (size_t)k * 4096);
    for (int j = 0; j < k; j++)
        streams[j] = blk + (size_t)j * 1024 + off;
    return blk;
}

void t_crowded_pairs(const t_impl *im, int k, uint64_t seed, t_crowd_gen gen,
                     t_crowd_call call)
{
    enum { MAXN = 600 };
    float *f[32];
    rng r = t_rng(seed);
    float *blk = t_crowded(k, 1 + rng_below(&r, 20), f);
    t_hits ref, got;
    t_hits_alloc(&ref, MAXN);
    t_hits_alloc(&got, MAXN);
    size_t done = 0, target = t_count(40000);
    int bad = 0;
    while (done < target && !bad) {
        size_t n = rng_below(&r, 3) == 0 ? 64 * (1 + rng_below(&r, 9)) : 1 + rng_below(&r, MAXN);
        unsigned flags = rng_below(&r, 2) ? TOI_ALL_OVERLAPS : 0;
        for (size_t i = 0; i < n; i++) {
            float v[32];
            gen(&r, v);
            for (int j = 0; j < k; j++)
                f[j][i] = v[j];
        }
        t_hits_fill(&ref, 0x5A);
        t_hits_fill(&got, 0x5A);
        ptrdiff_t want = call(&t_impls[0], n, f, flags, &ref.h);
        ptrdiff_t have = call(im, n, f, flags, &got.h);
        size_t at;
        int o = t_hits_diff(&ref, &got, MAXN, &at);
        if (o >= 0 || have != want) {
            bad = 1;
            CHECK(0, "n %zu flags %u: %s[%zu] differs from the scalar's (count %td vs %td)", n,
                  flags, o >= 0 ? t_out_name(o) : "-", o >= 0 ? at : 0, have, want);
        }
        done += n;
    }
    printf("    %zu pairs on crowded streams, bit for bit the scalar's\n", done);
    free(blk);
    t_hits_free(&ref);
    t_hits_free(&got);
}

void t_spheres_alloc(t_sph *b, size_t n)
{
    for (int k = 0; k < 7; k++) {
        b->f[k] = alloc_unaligned((n + 1) * sizeof(float));
        memset(b->f[k], 0, (n + 1) * sizeof(float));
    }
    b->s = (toi_spheres){b->f[0], b->f[1], b->f[2], b->f[3], b->f[4], b->f[5], b->f[6]};
}

void t_spheres_free(t_sph *b)
{
    for (int k = 0; k < 7; k++)
        free_unaligned(b->f[k]);
}

void t_tri_alloc(t_tri *b, size_t n)
{
    for (int k = 0; k < 9; k++) {
        b->f[k] = alloc_unaligned((n + 1) * sizeof(float));
        memset(b->f[k], 0, (n + 1) * sizeof(float));
    }
    b->t = (toi_triangles){b->f[0], b->f[1], b->f[2], b->f[3], b->f[4],
                           b->f[5], b->f[6], b->f[7], b->f[8]};
}

void t_tri_free(t_tri *b)
{
    for (int k = 0; k < 9; k++)
        free_unaligned(b->f[k]);
}

const char *const t_out_names[T_NOUT] = {"t", "nx", "ny", "nz", "px", "py", "pz", "depth"};

void t_hits_fill(t_hits *h, uint8_t byte)
{
    for (int k = 0; k < T_NOUT; k++)
        memset(h->f[k], byte, (h->n + 1) * sizeof(float));
    memset(h->index, byte, (h->n + 1) * sizeof(uint32_t));
    memset(h->feature, byte, h->n + 1);
    memset(h->t_exit, byte, (h->n + 1) * sizeof(float));
}

void t_hits_alloc(t_hits *h, size_t n)
{
    h->n = n;
    for (int k = 0; k < T_NOUT; k++)
        h->f[k] = alloc_unaligned((n + 1) * sizeof(float));
    h->index = alloc_unaligned((n + 1) * sizeof(uint32_t));
    h->feature = alloc_unaligned(n + 1);
    h->t_exit = alloc_unaligned((n + 1) * sizeof(float));
    h->h = (toi_hits){h->f[0], h->f[1], h->f[2], h->f[3], h->f[4], h->f[5], h->f[6], h->f[7],
                      h->index, h->feature, h->t_exit};
    t_hits_fill(h, 0xA5);
}

void t_hits_free(t_hits *h)
{
    for (int k = 0; k < T_NOUT; k++)
        free_unaligned(h->f[k]);
    free_unaligned(h->index);
    free_unaligned(h->feature);
    free_unaligned(h->t_exit);
}

const char *t_out_name(int k)
{
    return k < T_NOUT ? t_out_names[k] : k == T_NOUT ? "index" : k == T_NOUT + 1 ? "feature"
                                                                                : "t_exit";
}

int t_hits_diff(const t_hits *a, const t_hits *b, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < T_NOUT; k++)
            if (float_bits(a->f[k][i]) != float_bits(b->f[k][i])) {
                *at = i;
                return k;
            }
        if (a->index[i] != b->index[i]) {
            *at = i;
            return T_NOUT;
        }
        if (a->feature[i] != b->feature[i]) {
            *at = i;
            return T_NOUT + 1;
        }
        if (float_bits(a->t_exit[i]) != float_bits(b->t_exit[i])) {
            *at = i;
            return T_OUT_EXIT;
        }
    }
    return -1;
}

ptrdiff_t t_capsules_spheres(const t_impl *im, size_t n, const toi_capsules *c,
                             const toi_spheres *s, unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_capsules_spheres(n, c, s, flags, out),
            toi_sweep_capsules_spheres_on(im->k, n, c, s, flags, out));
}

ptrdiff_t t_capsules_plane(const t_impl *im, size_t n, const toi_capsules *c,
                           const toi_plane *p, unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_capsules_plane(n, c, p, flags, out),
            toi_sweep_capsules_plane_on(im->k, n, c, p, flags, out));
}

ptrdiff_t t_capsules(const t_impl *im, size_t n, const toi_capsules *a, const toi_capsules *b,
                     unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_capsules(n, a, b, flags, out),
            toi_sweep_capsules_on(im->k, n, a, b, flags, out));
}

ptrdiff_t t_capsule_pairs(const t_impl *im, size_t n, const uint32_t *ia, const uint32_t *ib,
                          size_t nbodies, const toi_capsules *bodies, unsigned flags,
                          const toi_hits *out)
{
    T_QUERY(im, toi_sweep_capsule_pairs(n, ia, ib, nbodies, bodies, flags, out),
            toi_sweep_capsule_pairs_on(im->k, n, ia, ib, nbodies, bodies, flags, out));
}

ptrdiff_t t_capsules_tri_set(const t_impl *im, size_t n, const toi_capsules *c, size_t ntris,
                             const toi_triangles *tri, unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_capsules_triangle_set(n, c, ntris, tri, flags, out),
            toi_sweep_capsules_triangle_set_on(im->k, n, c, ntris, tri, flags, out));
}

ptrdiff_t t_capsules_mesh(const t_impl *im, size_t n, const toi_capsules *c, const toi_mesh *m,
                          unsigned flags, const toi_hits *out, toi_cost *cost)
{
    T_QUERY(im, toi_sweep_capsules_mesh(n, c, m, flags, out, cost),
            toi_sweep_capsules_mesh_on(im->k, n, c, m, flags, out, cost));
}

ptrdiff_t t_capsules_tris(const t_impl *im, size_t n, const toi_capsules *c,
                          const toi_triangles *tri, unsigned flags, const toi_hits *out)
{
    T_QUERY(im, toi_sweep_capsules_triangles(n, c, tri, flags, out),
            toi_sweep_capsules_triangles_on(im->k, n, c, tri, flags, out));
}
