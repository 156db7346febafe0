/* families.c - the query families: one row per public query (see families.h) */
#include "families.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static toi_triangles tris_at(const float *const *f)
{
    return (toi_triangles){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]};
}

static ptrdiff_t call_tris(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                           const toi_hits *out)
{
    toi_spheres s = spheres_at(a->q);
    toi_triangles t = tris_at(a->q + 7);
    return k ? toi_sweep_spheres_triangles_on(k, n, &s, &t, flags, out)
             : toi_sweep_spheres_triangles(n, &s, &t, flags, out);
}

static ptrdiff_t call_tri_pairs(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                                const toi_hits *out)
{
    toi_spheres s = spheres_at(a->set[0]);
    toi_triangles t = tris_at(a->set[1]);
    return k ? toi_sweep_sphere_triangle_pairs_on(k, n, a->idx[0], a->idx[1], a->nset[0], &s,
                                                  a->nset[1], &t, flags, out)
             : toi_sweep_sphere_triangle_pairs(n, a->idx[0], a->idx[1], a->nset[0], &s,
                                               a->nset[1], &t, flags, out);
}

static ptrdiff_t call_tri_set(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                              const toi_hits *out)
{
    toi_spheres s = spheres_at(a->q);
    toi_triangles t = tris_at(a->set[0]);
    return k ? toi_sweep_spheres_triangle_set_on(k, n, &s, a->nset[0], &t, flags, out)
             : toi_sweep_spheres_triangle_set(n, &s, a->nset[0], &t, flags, out);
}

/* The set's triangles as a mesh, built for the call and refitted from the same arrays (so
   the harnesses see the build and the refit read them), for the mesh rows to query (an empty
   set: a mesh of one NaN triangle, which nothing hits - what an empty set answers). */
static toi_mesh *mesh_of_set(const t_args *a)
{
    static const float nan1[1] = {__builtin_nanf("")};
    toi_triangles t = tris_at(a->set[0]);
    if (a->nset[0] == 0)
        t = (toi_triangles){nan1, nan1, nan1, nan1, nan1, nan1, nan1, nan1, nan1};
    size_t nt = a->nset[0] ? a->nset[0] : 1;
    toi_mesh *m = toi_mesh_build(nt, &t);
    if (!m || toi_mesh_refit(m, nt, &t, NULL) != TOI_OK)
        abort();
    return m;
}

static ptrdiff_t call_mesh(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                           const toi_hits *out)
{
    toi_spheres s = spheres_at(a->q);
    toi_mesh *m = mesh_of_set(a);
    ptrdiff_t r = k ? toi_sweep_spheres_mesh_on(k, n, &s, m, flags, out, NULL)
                    : toi_sweep_spheres_mesh(n, &s, m, flags, out, NULL);
    toi_mesh_free(m);
    return r;
}

/* toi_respond: q[0..8] the motion (x y z vx vy vz ux uy uz, updated in place), q[9..13] the
   hits it reads (t nx ny nz depth), param[0..1] restitution and friction. */
static ptrdiff_t call_respond(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                              const toi_hits *out)
{
    (void)flags;
    (void)out;
    float *w[9];
    for (int j = 0; j < 9; j++)
        w[j] = (float *)(uintptr_t)a->q[j];
    toi_motion m = {w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8]};
    toi_hits h = {(float *)(uintptr_t)a->q[9], (float *)(uintptr_t)a->q[10],
                  (float *)(uintptr_t)a->q[11], (float *)(uintptr_t)a->q[12], 0, 0, 0,
                  (float *)(uintptr_t)a->q[13], 0, 0, 0};
    return k ? toi_respond_on(k, n, &m, &h, a->param[0], a->param[1])
             : toi_respond(n, &m, &h, a->param[0], a->param[1]);
}

static int respond_invalid(const t_args *a)
{
    return !(a->param[0] >= 0.0f && a->param[0] <= 1.0f) ||
           !(a->param[1] >= 0.0f && a->param[1] <= 1.0f);
}

/* Unit as a float vector can be: each component within [-1, 1], length 1 to about 1e-3. */
static int unit_plane(const t_args *a)
{
    double nx = a->param[0], ny = a->param[1], nz = a->param[2], nn = nx * nx + ny * ny + nz * nz;
    return nx >= -1 && nx <= 1 && ny >= -1 && ny <= 1 && nz >= -1 && nz <= 1 && nn >= 0.999 &&
           nn <= 1.001;
}

static toi_capsules capsules_at(const float *const *f)
{
    return (toi_capsules){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]};
}

static ptrdiff_t call_capsules_spheres(const toi_kernels *k, size_t n, const t_args *a,
                                       unsigned flags, const toi_hits *out)
{
    toi_capsules c = capsules_at(a->q);
    toi_spheres s = spheres_at(a->q + 10);
    return k ? toi_sweep_capsules_spheres_on(k, n, &c, &s, flags, out)
             : toi_sweep_capsules_spheres(n, &c, &s, flags, out);
}

static ptrdiff_t call_capsules_plane(const toi_kernels *k, size_t n, const t_args *a,
                                     unsigned flags, const toi_hits *out)
{
    toi_capsules c = capsules_at(a->q);
    toi_plane p = {a->param[0], a->param[1], a->param[2], a->param[3]};
    return k ? toi_sweep_capsules_plane_on(k, n, &c, &p, flags, out)
             : toi_sweep_capsules_plane(n, &c, &p, flags, out);
}

static ptrdiff_t call_capsules(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                              const toi_hits *out)
{
    toi_capsules ca = capsules_at(a->q), cb = capsules_at(a->q + 10);
    return k ? toi_sweep_capsules_on(k, n, &ca, &cb, flags, out)
             : toi_sweep_capsules(n, &ca, &cb, flags, out);
}

static ptrdiff_t call_capsule_pairs(const toi_kernels *k, size_t n, const t_args *a,
                                   unsigned flags, const toi_hits *out)
{
    toi_capsules s = capsules_at(a->set[0]);
    return k ? toi_sweep_capsule_pairs_on(k, n, a->idx[0], a->idx[1], a->nset[0], &s, flags,
                                          out)
             : toi_sweep_capsule_pairs(n, a->idx[0], a->idx[1], a->nset[0], &s, flags, out);
}

static ptrdiff_t call_capsules_triangles(const toi_kernels *k, size_t n, const t_args *a,
                                         unsigned flags, const toi_hits *out)
{
    toi_capsules c = capsules_at(a->q);
    toi_triangles t = tris_at(a->q + 10);
    return k ? toi_sweep_capsules_triangles_on(k, n, &c, &t, flags, out)
             : toi_sweep_capsules_triangles(n, &c, &t, flags, out);
}

static ptrdiff_t call_capsules_tri_set(const toi_kernels *k, size_t n, const t_args *a,
                                      unsigned flags, const toi_hits *out)
{
    toi_capsules c = capsules_at(a->q);
    toi_triangles t = tris_at(a->set[0]);
    return k ? toi_sweep_capsules_triangle_set_on(k, n, &c, a->nset[0], &t, flags, out)
             : toi_sweep_capsules_triangle_set(n, &c, a->nset[0], &t, flags, out);
}

/* As call_mesh, with capsules. */
static ptrdiff_t call_capsules_mesh(const toi_kernels *k, size_t n, const t_args *a,
                                    unsigned flags, const toi_hits *out)
{
    toi_capsules c = capsules_at(a->q);
    toi_mesh *m = mesh_of_set(a);
    ptrdiff_t r = k ? toi_sweep_capsules_mesh_on(k, n, &c, m, flags, out, NULL)
                    : toi_sweep_capsules_mesh(n, &c, m, flags, out, NULL);
    toi_mesh_free(m);
    return r;
}

static toi_boxes boxes_at(const float *const *f)
{
    return (toi_boxes){f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7],
                       f[8], f[9], f[10], f[11], f[12], NULL, NULL, NULL};
}

static ptrdiff_t call_boxes(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                            const toi_hits *out)
{
    toi_boxes ba = boxes_at(a->q), bb = boxes_at(a->q + 13);
    return k ? toi_sweep_boxes_on(k, n, &ba, &bb, flags, out)
             : toi_sweep_boxes(n, &ba, &bb, flags, out);
}

/* the same with the rotation arrays (angular motion) */
static toi_boxes boxes_w_at(const float *const *f)
{
    return (toi_boxes){f[0], f[1], f[2],  f[3],  f[4],  f[5],  f[6],  f[7],
                       f[8], f[9], f[10], f[11], f[12], f[13], f[14], f[15]};
}

static ptrdiff_t call_boxes_spin(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                                 const toi_hits *out)
{
    toi_boxes ba = boxes_w_at(a->q), bb = boxes_w_at(a->q + 16);
    return k ? toi_sweep_boxes_on(k, n, &ba, &bb, flags, out)
             : toi_sweep_boxes(n, &ba, &bb, flags, out);
}

static ptrdiff_t call_box_pairs_spin(const toi_kernels *k, size_t n, const t_args *a,
                                     unsigned flags, const toi_hits *out)
{
    toi_boxes s = boxes_w_at(a->set[0]);
    return k ? toi_sweep_box_pairs_on(k, n, a->idx[0], a->idx[1], a->nset[0], &s, flags, out)
             : toi_sweep_box_pairs(n, a->idx[0], a->idx[1], a->nset[0], &s, flags, out);
}

static ptrdiff_t call_box_pairs(const toi_kernels *k, size_t n, const t_args *a, unsigned flags,
                                const toi_hits *out)
{
    toi_boxes s = boxes_at(a->set[0]);
    return k ? toi_sweep_box_pairs_on(k, n, a->idx[0], a->idx[1], a->nset[0], &s, flags, out)
             : toi_sweep_box_pairs(n, a->idx[0], a->idx[1], a->nset[0], &s, flags, out);
}

const t_family t_families[] = {
    {.name = "spheres", .qkind = "pppvvvrpppvvvr", .normal_param = -1, .writes_exit = 1,
     .flags = TOI_ALL_OVERLAPS, .call = call_spheres},
    {.name = "pairs", .qkind = "", .nidx = 2, .nsets = 1, .skind = {"pppvvvr"},
     .normal_param = -1, .writes_exit = 1, .flags = TOI_ALL_OVERLAPS, .call = call_pairs},
    {.name = "plane", .qkind = "pppvvvr", .pkind = "nnnd", .normal_param = 0, .writes_exit = 1,
     .precondition = unit_plane, .flags = TOI_ALL_OVERLAPS, .world_units = 1,
     .call = call_plane},
    {.name = "triangles", .qkind = "pppvvvr" "pppoooooo", .normal_param = -1,
     .writes_feature = 1, .feature_limit = TOI_FEATURE_VERTEX_C + 1, .flags = TOI_FLAGS_ALL,
     .call = call_tris},
    {.name = "tri_pairs", .qkind = "", .nidx = 2, .idx_set = {0, 1}, .nsets = 2,
     .skind = {"pppvvvr", "pppoooooo"}, .normal_param = -1, .writes_feature = 1,
     .feature_limit = TOI_FEATURE_VERTEX_C + 1, .flags = TOI_FLAGS_ALL,
     .call = call_tri_pairs},
    {.name = "tri_set", .qkind = "pppvvvr", .nsets = 1, .skind = {"pppoooooo"},
     .normal_param = -1, .writes_index = 1, .index_set = 0, .writes_feature = 1,
     .feature_limit = TOI_FEATURE_VERTEX_C + 1, .flags = TOI_FLAGS_ALL, .call = call_tri_set},
    {.name = "respond", .qkind = "pppvvvvvv" "tnnnd", .pkind = "ee", .normal_param = -1,
     .invalid = respond_invalid, .inout = 9, .optional = {0x1c0u, 0x2000u},
     .world_units = 1, .call = call_respond},
    {.name = "mesh", .qkind = "pppvvvr", .nsets = 1, .skind = {"pppoooooo"},
     .normal_param = -1, .writes_index = 1, .index_set = 0, .writes_feature = 1,
     .feature_limit = TOI_FEATURE_VERTEX_C + 1, .flags = TOI_FLAGS_ALL, .equals = "tri_set",
     .call = call_mesh},
    {.name = "capsules_spheres", .qkind = "pppooovvvr" "pppvvvr", .normal_param = -1,
     .writes_exit = 1, .flags = TOI_ALL_OVERLAPS, .call = call_capsules_spheres},
    {.name = "capsules_plane", .qkind = "pppooovvvr", .pkind = "nnnd", .normal_param = 0,
     .writes_exit = 1, .precondition = unit_plane, .flags = TOI_ALL_OVERLAPS,
     .world_units = 1, .call = call_capsules_plane},
    {.name = "capsules", .qkind = "pppooovvvr" "pppooovvvr", .normal_param = -1,
     .writes_exit = 1, .flags = TOI_ALL_OVERLAPS, .call = call_capsules},
    {.name = "capsule_pairs", .qkind = "", .nidx = 2, .nsets = 1, .skind = {"pppooovvvr"},
     .normal_param = -1, .writes_exit = 1, .flags = TOI_ALL_OVERLAPS,
     .call = call_capsule_pairs},
    {.name = "capsules_triangles", .qkind = "pppooovvvr" "pppoooooo", .normal_param = -1,
     .writes_feature = 1, .feature_limit = TOI_FEATURE_VERTEX_C + 1, .flags = TOI_FLAGS_ALL,
     .call = call_capsules_triangles},
    {.name = "capsules_tri_set", .qkind = "pppooovvvr", .nsets = 1, .skind = {"pppoooooo"},
     .normal_param = -1, .writes_index = 1, .index_set = 0, .writes_feature = 1,
     .feature_limit = TOI_FEATURE_VERTEX_C + 1, .flags = TOI_FLAGS_ALL,
     .call = call_capsules_tri_set},
    {.name = "capsules_mesh", .qkind = "pppooovvvr", .nsets = 1, .skind = {"pppoooooo"},
     .normal_param = -1, .writes_index = 1, .index_set = 0, .writes_feature = 1,
     .feature_limit = TOI_FEATURE_VERTEX_C + 1, .flags = TOI_FLAGS_ALL,
     .equals = "capsules_tri_set", .call = call_capsules_mesh},
    {.name = "boxes", .qkind = "pppvvvqqqqhhh" "pppvvvqqqqhhh", .normal_param = -1,
     .writes_exit = 1, .flags = TOI_ALL_OVERLAPS, .call = call_boxes},
    {.name = "box_pairs", .qkind = "", .nidx = 2, .nsets = 1, .skind = {"pppvvvqqqqhhh"},
     .normal_param = -1, .writes_exit = 1, .flags = TOI_ALL_OVERLAPS,
     .call = call_box_pairs},
    {.name = "boxes_spin", .qkind = "pppvvvqqqqhhhwww" "pppvvvqqqqhhhwww", .normal_param = -1,
     .writes_exit = 1, .flags = TOI_ALL_OVERLAPS, .call = call_boxes_spin},
    {.name = "box_pairs_spin", .qkind = "", .nidx = 2, .nsets = 1,
     .skind = {"pppvvvqqqqhhhwww"}, .normal_param = -1, .writes_exit = 1,
     .flags = TOI_ALL_OVERLAPS, .call = call_box_pairs_spin},
};
const int t_nfamilies = (int)(sizeof t_families / sizeof t_families[0]);

uint64_t t_family_seed(const t_family *f)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const char *c = f->name; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3u;
    return h;
}

const t_family *t_family_named(const char *name)
{
    for (int i = 0; i < t_nfamilies; i++)
        if (strcmp(t_families[i].name, name) == 0)
            return &t_families[i];
    return NULL;
}

/* families.h */
int t_impl_wanted(const char *name)
{
    const char *list = getenv("TOI_TEST_IMPLS");
    if (!list)
        return 1;
    const size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, len) == 0)
            return 1;
        p += n + (end != NULL);
    }
    return 0;
}

int t_kernel_tables(const toi_kernels **k, int max)
{
    static const toi_backend all[] = {TOI_BACKEND_SCALAR, TOI_BACKEND_SSE, TOI_BACKEND_AVX2,
                                      TOI_BACKEND_AVX512, TOI_BACKEND_NEON};
    int n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0] && n < max; i++)
        if (toi_kernels_for(all[i]) && (i == 0 || t_impl_wanted(toi_backend_name(all[i]))))
            k[n++] = toi_kernels_for(all[i]);
#if defined(TOI_TEST_SIMDE_NEON)
    if (n < max && t_impl_wanted("neon-simde"))
        k[n++] = &toi_kernels_neon;
#endif
    if (n < max && &toi_kernels_avx512simde != NULL && t_impl_wanted("avx512-simde"))
        k[n++] = &toi_kernels_avx512simde;
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
    case 'o': return -1.0f + 2.0f * u;
    case 't': return u < 0.25f ? TOI_NO_HIT : (u - 0.25f) * (4.0f / 3.0f);
    case 'e': return u;
    case 'q': return -1.0f + 2.0f * u;
    case 'h': return 0.05f + 1.2f * u;
    case 'w': return -4.0f + 8.0f * u;
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

void t_fill(uint64_t *s, const char *kinds, float *const *arr, size_t n)
{
    int na = (int)strlen(kinds);
    for (int k = 0; k < na; k++) {
        int nc = 0;
        for (size_t i = 0; i < n; i++)
            arr[k][i] = t_draw(s, kinds[k] == 'n' ? 'o' : kinds[k], &nc);
    }
    for (int k = 0; k < na; k++) {
        if (kinds[k] == 'o') {
            int base = k - 3;
            while (base >= 0 && kinds[base] != 'p')
                base -= 3;
            if (base >= 0)
                for (size_t i = 0; i < n; i++)
                    arr[k][i] += arr[base][i];
        }
        if (kinds[k] == 'n' && k + 2 < na && kinds[k + 1] == 'n' && kinds[k + 2] == 'n' &&
            (k == 0 || kinds[k - 1] != 'n')) {
            for (size_t i = 0; i < n; i++) {
                float x = arr[k][i], y = arr[k + 1][i], z = arr[k + 2][i];
                float l = sqrtf((x * x + y * y) + z * z);
                if (!(l > 0.125f))
                    x = 0.0f, y = 0.0f, z = 1.0f, l = 1.0f;
                arr[k][i] = x / l, arr[k + 1][i] = y / l, arr[k + 2][i] = z / l;
            }
        }
        if (kinds[k] == 'q' && k + 3 < na && kinds[k + 3] == 'q' && (k == 0 || kinds[k - 1] != 'q')) {
            for (size_t i = 0; i < n; i++) {
                float w = arr[k][i], x = arr[k + 1][i], y = arr[k + 2][i], z = arr[k + 3][i];
                float l = sqrtf(((w * w + x * x) + y * y) + z * z);
                if (!(l > 0.125f))
                    w = 1.0f, x = 0.0f, y = 0.0f, z = 0.0f, l = 1.0f;
                arr[k][i] = w / l, arr[k + 1][i] = x / l, arr[k + 2][i] = y / l;
                arr[k + 3][i] = z / l;
            }
        }
    }
}

ptrdiff_t t_call_io(const t_family *f, const toi_kernels *k, size_t n, const t_args *a,
                    unsigned flags, const toi_hits *out, float *const *io)
{
    if (!f->inout)
        return f->call(k, n, a, flags, out);
    t_args c = *a;
    for (int j = 0; j < f->inout; j++)
        if (a->q[j]) {
            memcpy(io[j], a->q[j], n * sizeof(float));
            c.q[j] = io[j];
        }
    return f->call(k, n, &c, flags, NULL);
}

void t_batch_make(t_batch *b, const t_family *f, size_t n, size_t nset, uint64_t seed)
{
    memset(b, 0, sizeof *b);
    float *arr[T_MAXARR];
    for (int k = 0; k < t_nq(f); k++)
        b->a.q[k] = arr[k] = batch_array(b, n * sizeof(float));
    t_fill(&seed, f->qkind, arr, n);
    for (int s = 0; s < f->nsets; s++) {
        b->a.nset[s] = nset;
        for (int k = 0; k < t_nset_arrays(f, s); k++)
            b->a.set[s][k] = arr[k] = batch_array(b, nset * sizeof(float));
        t_fill(&seed, f->skind[s], arr, nset);
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
