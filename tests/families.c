/* families.c - the query families: one row per public query (see families.h) */
#include "families.h"

#include <stdlib.h>
#include <string.h>

#if defined(TOI_TEST_SIMDE_NEON)
extern const toi_kernels toi_kernels_neon; /* src/neon built through SIMDe (tests only) */
#endif

static toi_spheres spheres_at(const float *const *f)
{
    return (toi_spheres){f[0], f[1], f[2], f[3], f[4], f[5], f[6]};
}

static ptrdiff_t call_spheres(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                              const toi_hits *out)
{
    toi_spheres sa = spheres_at(a->q), sb = spheres_at(a->q + 7);
    return k ? toi_sweep_spheres_on(k, n, &sa, &sb, flags, out)
             : toi_sweep_spheres(n, &sa, &sb, flags, out);
}

static ptrdiff_t call_pairs(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                            const toi_hits *out)
{
    toi_spheres s = spheres_at(a->set[0]);
    return k ? toi_sweep_sphere_pairs_on(k, n, a->idx[0], a->idx[1], a->nset[0], &s, flags, out)
             : toi_sweep_sphere_pairs(n, a->idx[0], a->idx[1], a->nset[0], &s, flags, out);
}

static ptrdiff_t call_plane(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                            const toi_hits *out)
{
    toi_spheres s = spheres_at(a->q);
    toi_plane p = {a->param[0], a->param[1], a->param[2], a->param[3]};
    return k ? toi_sweep_spheres_plane_on(k, n, &s, &p, flags, out)
             : toi_sweep_spheres_plane(n, &s, &p, flags, out);
}

/* Unit as a float vector can be: each component within [-1, 1], length 1 to about 1e-3. */
static int unit_plane(const t_args *a)
{
    double nx = a->param[0], ny = a->param[1], nz = a->param[2], nn = nx * nx + ny * ny + nz * nz;
    return nx >= -1 && nx <= 1 && ny >= -1 && ny <= 1 && nz >= -1 && nz <= 1 && nn >= 0.999 &&
           nn <= 1.001;
}

const t_family t_families[] = {
    {.name = "spheres", .qkind = "pppvvvrpppvvvr", .normal_param = -1, .call = call_spheres},
    {.name = "pairs", .qkind = "", .nidx = 2, .nsets = 1, .skind = {"pppvvvr"},
     .normal_param = -1, .call = call_pairs},
    {.name = "plane", .qkind = "pppvvvr", .pkind = "nnnd", .normal_param = 0,
     .precondition = unit_plane, .call = call_plane},
};
const int t_nfamilies = (int)(sizeof t_families / sizeof t_families[0]);

const t_family *t_family_named(const char *name)
{
    for (int i = 0; i < t_nfamilies; i++)
        if (strcmp(t_families[i].name, name) == 0)
            return &t_families[i];
    return NULL;
}

int t_kernel_tables(const toi_kernels **k, int max)
{
    static const toi_backend all[] = {TOI_BACKEND_SCALAR, TOI_BACKEND_SSE, TOI_BACKEND_AVX2,
                                      TOI_BACKEND_NEON};
    int n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0] && n < max; i++)
        if (toi_kernels_for(all[i]))
            k[n++] = toi_kernels_for(all[i]);
#if defined(TOI_TEST_SIMDE_NEON)
    if (n < max)
        k[n++] = &toi_kernels_neon;
#endif
    return n;
}

float t_draw(uint64_t *s, char kind, int *ncomp)
{
    static const float unit[3] = {0.6f, 0.0f, -0.8f};
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull); /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    float u = (float)(z >> 40) * 0x1p-24f; /* [0, 1): exact */
    switch (kind) {
    case 'p': return -3.0f + 6.0f * u;
    case 'v': return -6.0f + 12.0f * u;
    case 'r': return 0.2f + 1.3f * u;
    case 'n': return unit[(*ncomp)++ % 3];
    case 'd': return -1.0f + 2.0f * u;
    }
    return 0.0f;
}

static void *batch_array(t_batch *b, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        abort();
    b->mem[b->nmem++] = p;
    return p;
}

void t_batch_make(t_batch *b, const t_family *f, size_t n, size_t nset, uint64_t seed)
{
    memset(b, 0, sizeof *b);
    for (int k = 0; k < t_nq(f); k++) {
        float *p = batch_array(b, n * sizeof(float));
        int nc = 0;
        for (size_t i = 0; i < n; i++)
            p[i] = t_draw(&seed, f->qkind[k], &nc);
        b->a.q[k] = p;
    }
    for (int s = 0; s < f->nsets; s++) {
        b->a.nset[s] = nset;
        for (int k = 0; k < t_nset_arrays(f, s); k++) {
            float *p = batch_array(b, nset * sizeof(float));
            int nc = 0;
            for (size_t i = 0; i < nset; i++)
                p[i] = t_draw(&seed, f->skind[s][k], &nc);
            b->a.set[s][k] = p;
        }
    }
    for (int k = 0; k < f->nidx; k++) {
        uint32_t *p = batch_array(b, n * sizeof(uint32_t));
        size_t m = b->a.nset[f->idx_set[k]];
        for (size_t i = 0; i < n; i++)
            p[i] = m ? (uint32_t)((seed = seed * 6364136223846793005ull + 1442695040888963407ull)
                                  >> 33) % (uint32_t)m
                     : 0;
        b->a.idx[k] = p;
    }
    int nc = 0;
    for (int k = 0; k < t_nparam(f); k++)
        b->a.param[k] = t_draw(&seed, f->pkind[k], &nc);
}

void t_batch_free(t_batch *b)
{
    while (b->nmem--)
        free(b->mem[b->nmem]);
}
