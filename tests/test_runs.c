/* test_runs.c - batches in runs. The API layer hands a kernel at most TOI_RUN (2^30) queries
   per call, its per-query inputs and outputs offset to the run's first query (api.c), so the
   SIMD kernels may keep query indices in 32 bits. A batch that large cannot be tested here
   (about 150 GB of arrays), so the run length is lowered in a copy of each kernel table: every
   query, on every backend, with runs of 1 to 64 queries must give the bits of one call - the
   count, every output and the mesh queries' cost counters. A run that offsets an array wrongly,
   or a kernel whose answer depends on its batch's other queries, fails it. */
#include "families.h"
#include "test.h"

#include <stdlib.h>

#define N 67 /* queries (and set members) per batch: not a multiple of any width */

/* Run lengths: at a reduced TOI_TEST_SCALE (valgrind, qemu) the first three only. */
static const size_t run_lengths[] = {1, 7, 33, 2, 3, 16, 64};
static size_t nruns(void)
{
    return t_scale < 0.5 ? 3 : sizeof run_lengths / sizeof run_lengths[0];
}

/* One call's results: the count, every output and a row's in-place arrays. */
typedef struct res {
    ptrdiff_t ret;
    t_hits h;
    float io[T_MAXARR][N];
} res;

static void res_run(res *r, const t_family *f, const toi_kernels *k, const t_args *a,
                    unsigned flags)
{
    float *io[T_MAXARR];
    for (int j = 0; j < T_MAXARR; j++)
        io[j] = r->io[j];
    memset(r->io, 0, sizeof r->io);
    t_hits_fill(&r->h, 0xA5);
    r->ret = t_call_io(f, k, N, a, flags, f->inout ? NULL : &r->h.h, io);
}

/* The mesh rows' cost counters (the family rows pass none): the batch's set as a mesh, the
   queries as spheres or capsules. */
static toi_cost mesh_cost(const t_family *f, const toi_kernels *k, const t_args *a,
                          toi_hits *out)
{
    toi_cost c = {0, 0, 0};
    const float *const *t = a->set[0];
    toi_triangles tri = {t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8]};
    toi_mesh *m = toi_mesh_build(a->nset[0], &tri);
    CHECK(m != NULL, "%s: mesh build", f->name);
    if (!m)
        return c;
    const float *const *q = a->q;
    ptrdiff_t r;
    if (t_nq(f) == 7) {
        toi_spheres s = {q[0], q[1], q[2], q[3], q[4], q[5], q[6]};
        r = toi_sweep_spheres_mesh_on(k, N, &s, m, f->flags, out, &c);
    } else {
        toi_capsules s = {q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9]};
        r = toi_sweep_capsules_mesh_on(k, N, &s, m, f->flags, out, &c);
    }
    CHECK(r >= 0, "%s: mesh query %td", f->name, r);
    toi_mesh_free(m);
    return c;
}

static void case_runs(const void *ctx)
{
    (void)ctx;
    const toi_kernels *tables[8];
    const int nt = t_kernel_tables(tables, 8);
    res *ref = calloc(1, sizeof *ref), *got = calloc(1, sizeof *got);
    t_hits_alloc(&ref->h, N);
    t_hits_alloc(&got->h, N);
    int calls = 0;
    for (int fi = 0; fi < t_nfamilies; fi++) {
        const t_family *f = &t_families[fi];
        t_batch b;
        t_batch_make(&b, f, N, N, t_seed ^ (0x52a1 + t_family_seed(f)));
        for (int ti = 0; ti < nt; ti++) {
            const toi_kernels *k = tables[ti];
            toi_kernels kr = *k;
            for (unsigned fl = 0; fl < 2; fl++) {
                const unsigned flags = fl ? f->flags : 0;
                res_run(ref, f, k, &b.a, flags);
                for (size_t ri = 0; ri < nruns(); ri++) {
                    kr.run = run_lengths[ri];
                    res_run(got, f, &kr, &b.a, flags);
                    size_t at = 0;
                    int o = t_hits_diff(&ref->h, &got->h, N, &at);
                    CHECK(got->ret == ref->ret && o < 0 &&
                              memcmp(ref->io, got->io, sizeof ref->io) == 0,
                          "%s on %s, flags %u, runs of %zu: count %td (one call %td), %s "
                          "differs at query %zu", f->name, k->name, flags, run_lengths[ri],
                          got->ret, ref->ret, o < 0 ? "no output" : t_out_name(o), at);
                    calls++;
                }
            }
            if (f->equals && f->nsets == 1) { /* the mesh rows: their cost counters too */
                kr.run = 0;
                toi_cost one = mesh_cost(f, &kr, &b.a, &ref->h.h);
                for (size_t ri = 0; ri < nruns(); ri++) {
                    kr.run = run_lengths[ri];
                    toi_cost c = mesh_cost(f, &kr, &b.a, &got->h.h);
                    CHECK(c.nv == one.nv && c.np == one.np && c.nu == one.nu,
                          "%s on %s, runs of %zu: cost %llu/%llu, one call %llu/%llu",
                          f->name, k->name, run_lengths[ri], (unsigned long long)c.nv,
                          (unsigned long long)c.np, (unsigned long long)one.nv,
                          (unsigned long long)one.np);
                }
                CHECK(one.nv > 0 && one.np > 0, "%s: the mesh query should test boxes and "
                      "triangles", f->name);
            }
        }
        t_batch_free(&b);
    }
    printf("    %d families, %d tables, %d calls in runs of %zu lengths equal to one call\n",
           t_nfamilies, nt, calls, nruns());
    t_hits_free(&ref->h);
    t_hits_free(&got->h);
    free(ref);
    free(got);
}

void group_runs(void)
{
    t_run("differential/runs: every query in runs of 1 to 64 queries gives one call's bits",
          case_runs, NULL);
}
