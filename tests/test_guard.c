/* test_guard.c - guard pages: every query on every backend with each input and output array
   ending exactly where an inaccessible page begins (and one inaccessible before it), for every
   batch size 0 .. 3 * width + 1 (and every set size 0 .. 3 * width + 1 too for queries that
   traverse a whole set, with the batch sizes at the vectors' edges), every subset of the flags that apply; inputs are read-only pages, so a write to one
   faults as well. toi_respond, which updates its arrays in place, runs with each selection of
   its optional inputs from the same state and must match the scalar reference bit for bit.
   A fault is caught and reported as a failed check naming the query, backend and size. */
#define _DEFAULT_SOURCE /* mmap, mprotect, sigaction, sigsetjmp */
#include "families.h"
#include "test.h"

#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* One array of `bytes` bytes whose last byte is just below a PROT_NONE page, with another
   PROT_NONE page below its first page. */
typedef struct guarded {
    char *map;
    size_t maplen;
    void *p;
} guarded;

static size_t page_size(void)
{
    static size_t ps;
    if (!ps)
        ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}

static void *guard_alloc(guarded *g, size_t bytes)
{
    size_t ps = page_size(), data = (bytes + ps - 1) / ps * ps;
    g->maplen = data + 2 * ps;
    g->map = mmap(NULL, g->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED || mprotect(g->map, ps, PROT_NONE) != 0 ||
        mprotect(g->map + ps + data, ps, PROT_NONE) != 0) {
        fprintf(stderr, "guard pages: mmap/mprotect failed\n");
        exit(2);
    }
    g->p = g->map + ps + data - bytes;
    return g->p;
}

/* The array's pages read-only: an input the call must not write. */
static void guard_seal(guarded *g)
{
    size_t ps = page_size();
    if (g->maplen > 2 * ps && mprotect(g->map + ps, g->maplen - 2 * ps, PROT_READ) != 0) {
        fprintf(stderr, "guard pages: mprotect failed\n");
        exit(2);
    }
}

static void guard_free(guarded *g)
{
    munmap(g->map, g->maplen);
}

static sigjmp_buf fault_jump;
static volatile sig_atomic_t in_call;

static void on_fault(int sig)
{
    if (in_call)
        siglongjmp(fault_jump, sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

#define NGUARD (T_MAXARR + 2 + 2 * T_MAXARR + T_NOUT + 3)

typedef struct guard_case {
    const t_family *fam;
    const t_impl *im;
} guard_case;

/* Output selections: everything, t alone, and t with each other output alone. */
static toi_hits select_outputs(const toi_hits *all, int sel)
{
    if (sel == 0)
        return *all;
    toi_hits o = {all->t, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    switch (sel) {
    case 2: o.nx = all->nx; break;
    case 3: o.ny = all->ny; break;
    case 4: o.nz = all->nz; break;
    case 5: o.px = all->px; break;
    case 6: o.py = all->py; break;
    case 7: o.pz = all->pz; break;
    case 8: o.depth = all->depth; break;
    case 9: o.index = all->index; break;
    case 10: o.feature = all->feature; break;
    case 11: o.t_exit = all->t_exit; break;
    }
    return o;
}
#define NSEL 12

/* A call in the fault-catching frame; -99 and a failed check on a fault. */
static ptrdiff_t guarded_call(const guard_case *gc, size_t n, size_t nset, const t_args *a,
                              unsigned flags, const toi_hits *o, int sel)
{
    const t_family *f = gc->fam;
    ptrdiff_t got = -99;
    int sig = sigsetjmp(fault_jump, 1);
    if (sig == 0) {
        in_call = 1;
        if (gc->im->via_api) {
            toi_set_backend(gc->im->k->id);
            toi_note_backend(TOI_BACKEND_AUTO);
            got = f->call(NULL, n, a, flags, o);
            if (n)
                CHECK(toi_last_backend() == gc->im->k->id, "forced %s but %s ran",
                      gc->im->name, toi_backend_name(toi_last_backend()));
        } else {
            got = f->call(gc->im->k, n, a, flags, o);
        }
        in_call = 0;
    } else {
        in_call = 0;
        CHECK(0, "n %zu (set %zu) flags %u outputs #%d: signal %d (access outside the arrays, "
              "or a write to an input)", n, nset, flags, sel, sig);
    }
    return got;
}

/* A row that updates arrays in place (toi_respond): g[0 .. f->inout) are those arrays, at
   guard pages and writable; the other inputs are sealed read-only. Each selection of the
   optional input groups (present or NULL) runs from the same initial state and must leave
   every array bit-identical to the scalar reference's run. */
static void one_size_inout(const guard_case *gc, size_t n, const t_args *a0, guarded *g,
                           int ng)
{
    const t_family *f = gc->fam;
    float *orig[T_MAXARR], *ref[T_MAXARR];
    for (int k = 0; k < f->inout; k++) {
        orig[k] = malloc(n * sizeof(float) + 1);
        ref[k] = malloc(n * sizeof(float) + 1);
        if (!orig[k] || !ref[k])
            abort();
        memcpy(orig[k], a0->q[k], n * sizeof(float));
    }
    for (int sel = 0; sel < 4; sel++) {
        t_args a = *a0;
        for (int grp = 0; grp < 2; grp++)
            if (sel >> grp & 1)
                for (int k = 0; k < t_nq(f); k++)
                    if (f->optional[grp] >> k & 1)
                        a.q[k] = NULL;
        for (int k = 0; k < f->inout; k++) {
            memcpy((float *)g[k].p, orig[k], n * sizeof(float));
            if (!a.q[k])
                memcpy(ref[k], orig[k], n * sizeof(float)); /* not passed: unchanged */
        }
        ptrdiff_t want = t_call_io(f, t_impls[0].k, n, &a, 0, NULL, ref);
        ptrdiff_t got = guarded_call(gc, n, 0, &a, 0, NULL, sel);
        CHECK(got == want, "n %zu optional inputs #%d: returned %td, scalar %td", n, sel, got,
              want);
        for (int k = 0; k < f->inout; k++)
            for (size_t i = 0; i < n; i++) {
                uint32_t bits = float_bits(((const float *)g[k].p)[i]);
                CHECK(bits == float_bits(ref[k][i]), "n %zu optional inputs #%d: array %d "
                      "[%zu] 0x%08x, scalar 0x%08x", n, sel, k, i, bits, float_bits(ref[k][i]));
            }
    }
    for (int k = 0; k < f->inout; k++) {
        free(orig[k]);
        free(ref[k]);
    }
    while (ng--)
        guard_free(&g[ng]);
}

static void one_size(const guard_case *gc, size_t n, size_t nset, rng *r)
{
    const t_family *f = gc->fam;
    guarded g[NGUARD];
    int ng = 0;
    t_args a;
    memset(&a, 0, sizeof a);
    float *arr[T_MAXARR];
    for (int k = 0; k < t_nq(f); k++)
        a.q[k] = arr[k] = guard_alloc(&g[ng++], n * sizeof(float));
    t_fill(&r->s, f->qkind, arr, n);
    for (int s = 0; s < f->nsets; s++) {
        a.nset[s] = nset;
        for (int k = 0; k < t_nset_arrays(f, s); k++)
            a.set[s][k] = arr[k] = guard_alloc(&g[ng++], nset * sizeof(float));
        t_fill(&r->s, f->skind[s], arr, nset);
    }
    for (int k = 0; k < f->nidx; k++) {
        uint32_t *p = guard_alloc(&g[ng++], n * sizeof(uint32_t));
        /* the last member first and last, so gathers touch the end of every set array */
        for (size_t i = 0; i < n; i++)
            p[i] = (i == 0 || i + 1 == n) ? (uint32_t)nset - 1
                                          : rng_below(r, (uint32_t)nset);
        a.idx[k] = p;
    }
    int nc = 0;
    for (int k = 0; k < t_nparam(f); k++)
        a.param[k] = t_draw(&r->s, f->pkind[k], &nc);
    /* every input read-only, but the arrays updated in place */
    for (int k = f->inout; k < ng; k++)
        guard_seal(&g[k]);
    if (f->inout) {
        one_size_inout(gc, n, &a, g, ng);
        return;
    }

    float *outf[T_NOUT];
    for (int k = 0; k < T_NOUT; k++)
        outf[k] = guard_alloc(&g[ng++], n * sizeof(float));
    uint32_t *index = guard_alloc(&g[ng++], n * sizeof(uint32_t));
    uint8_t *feature = guard_alloc(&g[ng++], n);
    float *t_exit = guard_alloc(&g[ng++], n * sizeof(float));
    const toi_hits all = {outf[0], outf[1], outf[2], outf[3], outf[4], outf[5], outf[6],
                          outf[7], index, feature, t_exit};

    /* The scalar reference's results with every output, to compare each selection against. */
    t_hits ref;
    t_hits_alloc(&ref, n);
    ptrdiff_t want = f->call(t_impls[0].k, n, &a, 0, &ref.h);

    /* every subset of the flags that apply to the query */
    for (unsigned flags = 0; flags <= TOI_FLAGS_ALL; flags++) {
        if (flags & ~f->flags)
            continue;
        if (flags) {
            t_hits_fill(&ref, 0xA5);
            want = f->call(t_impls[0].k, n, &a, flags, &ref.h);
        }
        for (int sel = 0; sel < NSEL; sel++) {
            toi_hits o = select_outputs(&all, sel);
            for (int k = 0; k < T_NOUT; k++)
                memset(outf[k], 0xA5, n * sizeof(float));
            memset(index, 0xA5, n * sizeof(uint32_t));
            memset(feature, 0xA5, n);
            memset(t_exit, 0xA5, n * sizeof(float));
            ptrdiff_t got = guarded_call(gc, n, nset, &a, flags, &o, sel);
            if (got == -99)
                continue;
            CHECK(got == want, "n %zu flags %u outputs #%d: returned %td, scalar %td", n, flags,
                  sel, got, want);
            /* Requested outputs hold the reference's bits; the others are untouched. */
            const float *const of[T_NOUT] = {o.t, o.nx, o.ny, o.nz, o.px, o.py, o.pz, o.depth};
            for (int k = 0; k < T_NOUT; k++)
                for (size_t i = 0; i < n; i++) {
                    uint32_t bits = float_bits(outf[k][i]);
                    if (of[k])
                        CHECK(bits == float_bits(ref.f[k][i]), "n %zu outputs #%d: %s[%zu] "
                              "0x%08x, scalar 0x%08x", n, sel, t_out_names[k], i, bits,
                              float_bits(ref.f[k][i]));
                    else
                        CHECK(bits == 0xA5A5A5A5u, "n %zu outputs #%d: %s[%zu] written though "
                              "not requested", n, sel, t_out_names[k], i);
                }
            for (size_t i = 0; i < n; i++) {
                if (o.index && f->writes_index)
                    CHECK(index[i] == ref.index[i], "n %zu: index[%zu] differs", n, i);
                else
                    CHECK(index[i] == 0xA5A5A5A5u, "n %zu outputs #%d: index[%zu] written", n,
                          sel, i);
                if (o.feature && f->writes_feature)
                    CHECK(feature[i] == ref.feature[i], "n %zu: feature[%zu] differs", n, i);
                else
                    CHECK(feature[i] == 0xA5, "n %zu outputs #%d: feature[%zu] written", n,
                          sel, i);
                if (o.t_exit && f->writes_exit)
                    CHECK(float_bits(t_exit[i]) == float_bits(ref.t_exit[i]),
                          "n %zu: t_exit[%zu] differs", n, i);
                else
                    CHECK(float_bits(t_exit[i]) == 0xA5A5A5A5u, "n %zu outputs #%d: t_exit[%zu] "
                          "written", n, sel, i);
            }
        }
    }
    t_hits_free(&ref);
    while (ng--)
        guard_free(&g[ng]);
}

static void run_guard(const void *ctx)
{
    const guard_case *gc = ctx;
    const size_t maxn = 3 * (size_t)gc->im->k->width + 1;
    struct sigaction sa, old_segv, old_bus;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    rng r = t_rng(0x6a7d);
    for (size_t n = 0; n <= maxn; n++) {
        if (gc->fam->nsets == 0) {
            one_size(gc, n, 0, &r);
        } else if (gc->fam->nidx > 0) {
            one_size(gc, n, n ? n : 1, &r); /* indexed: the set's end is reached by gathers */
        } else {
            /* the whole set is traversed per query: every set size is a tail too. The batch's
               tail and the set's are separate loops, so every set size is tried with the
               batch sizes around one and two vectors, and every batch size with set sizes
               0, 1 and the largest (not every pair: the product took most of the group's
               time with the set families) */
            const size_t w = (size_t)gc->im->k->width;
            int all_m = n <= 1 || n == w || n == w + 1 || n == maxn;
            for (size_t m = 0; m <= maxn; m++)
                if (all_m || m <= 1 || m == maxn)
                    one_size(gc, n, m, &r);
        }
    }
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
}

void group_guard(void)
{
    char name[128];
    for (int fi = 0; fi < t_nfamilies; fi++)
        for (int i = 0; i < t_nimpls; i++) {
            guard_case gc = {&t_families[fi], &t_impls[i]};
            snprintf(name, sizeof name, "guard pages/%s/%s", t_families[fi].name,
                     t_impls[i].name);
            t_run(name, run_guard, &gc);
        }
}
