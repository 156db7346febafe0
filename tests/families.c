/* families.c - the query families: one row per public query (see families.h) */
#include "families.h"

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

const t_family t_families[] = {
    {"spheres", "pppvvvrpppvvvr", 0, {0, 0}, 0, {NULL, NULL}, NULL, 0, 0, 0, call_spheres},
    {"pairs", "", 2, {0, 0}, 1, {"pppvvvr", NULL}, NULL, 0, 0, 0, call_pairs},
    {"plane", "pppvvvr", 0, {0, 0}, 0, {NULL, NULL}, "nnnd", 0, 0, 0, call_plane},
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
