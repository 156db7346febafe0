/* main.c - toi_bench: every query on every backend and peer, batch sizes from cache to DRAM,
   against the memory-bandwidth floor measured in the same run; table, CSV and target summary */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "report.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif

#define SET_MAX_N 8192 /* largest batch of a set query */

/* ---- the AVX upper state ----
   A function that uses 256-bit registers must return with their upper halves zeroed
   (vzeroupper); otherwise every non-VEX SSE instruction after it - in the caller's code, in
   the scalar and SSE backends, in the peers - runs slower (about 3x for the scalar reference
   on the Zen 5 this was measured on). The benchmark checks each toi backend right after a call
   (XINUSE, xgetbv with ecx = 1, bit 2: the upper halves are in use), reports a backend that
   leaves them dirty, and then clears them so every implementation is timed from a clean
   state. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
static int upper_probe(void) /* 1: xgetbv(1) reports XINUSE; -1: no AVX at all */
{
    static int probe = -2;
    if (probe == -2) {
        unsigned a, b, c, d;
        probe = -1;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) && (c & bit_AVX))
            probe = __get_cpuid_count(0xd, 1, &a, &b, &c, &d) && (a & (1u << 2)) ? 1 : 0;
    }
    return probe;
}
static int upper_dirty(void)
{
    if (upper_probe() != 1)
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    (void)hi;
    return (lo >> 2) & 1;
}
static void upper_clear(void)
{
    if (upper_probe() >= 0)
        __asm__ volatile("vzeroupper" ::: "memory");
}
#else
static int upper_dirty(void)
{
    return 0;
}
static void upper_clear(void)
{
}
#endif

static const size_t default_sizes[] = {8, 64, 512, 8192, 65536, 524288, 2097152};

typedef struct options {
    unsigned impl_mask, query_mask, output_mask;
    size_t sizes[32], nsizes;
    int reps;
    size_t min_queries; /* queries timed per repetition, at least */
    int min_queries_set; /* given on the command line: slow peers follow it too */
    size_t min_pool;    /* queries in a scene, at least: small batches cycle through it */
    size_t peer_max_n;  /* overrides the slow peers' default largest batch when set */
    const char *csv, *targets, *label;
    int instructions;
    int threads; /* the thread-scaling part: 0 skips it */
    uint64_t seed;
} options;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int impl_available(const bench_impl *im)
{
    return im->backend == TOI_BACKEND_AUTO || toi_backend_available(im->backend);
}

static unsigned parse_names(const char *list, const char *const *names, size_t count,
                            const char *what)
{
    unsigned mask = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        size_t i = 0;
        while (i < count && strcmp(tok, names[i]) != 0)
            i++;
        if (i == count) {
            fprintf(stderr, "toi_bench: unknown %s '%s'\n", what, tok);
            exit(2);
        }
        mask |= 1u << i;
    }
    return mask;
}

static void usage(void)
{
    puts("usage: toi_bench [options]\n"
         "  --impl LIST     scalar,sse,avx2,avx512,neon,textbook,bullet (default: all\n"
         "                  available)\n"
         "  --query LIST    spheres,pairs,plane,tri,set-near,set-far (default: all\n"
         "                  the library has; a set query is one sphere against 64\n"
         "                  triangles, in batches of at most 8192)\n"
         "  --output LIST   t,all (default: both)\n"
         "  --sizes LIST    batch sizes (default: 8,64,512,8192,65536,524288,2097152)\n"
         "  --reps N        timed repetitions per case (default 11)\n"
         "  --min-queries N queries per repetition, at least (default 65536; slow peers\n"
         "                  make one pass over the scene unless this is given)\n"
         "  --pool N        queries per scene, at least: small batches cycle through it\n"
         "                  (default 8192)\n"
         "  --peer-max-n N  largest batch for slow peers (default: Bullet up to 65536)\n"
         "  --csv FILE      write every measurement as CSV\n"
         "  --targets FILE  write the issue-10 target table as markdown\n"
         "  --label TEXT    label for the figures (e.g. 'emulated: qemu-aarch64')\n"
         "  --threads N     also time the sphere-sphere and triangle-set batches split\n"
         "                  over N of the caller's threads (default 2; 0: skip)\n"
         "  --list          print the implementations available here and exit\n"
         "  --instructions  one batch per case between callgrind client requests\n"
         "                  (run under valgrind --tool=callgrind --collect-atstart=no)");
}

static void parse_args(int argc, char **argv, options *o)
{
    const char *impl_names[16], *out_names[2] = {"t", "all"};
    for (size_t i = 0; i < bench_nimpls; i++)
        impl_names[i] = bench_impls[i].name;
    o->impl_mask = ~0u, o->query_mask = ~0u, o->output_mask = 3;
    o->nsizes = sizeof default_sizes / sizeof default_sizes[0];
    memcpy(o->sizes, default_sizes, sizeof default_sizes);
    o->reps = 11, o->min_queries = 65536, o->min_pool = 8192, o->seed = 1, o->threads = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        if (!strcmp(a, "--impl") && v)
            o->impl_mask = parse_names(v, impl_names, bench_nimpls, "implementation");
        else if (!strcmp(a, "--query") && v)
            o->query_mask = parse_names(v, bench_query_name, Q_COUNT, "query");
        else if (!strcmp(a, "--output") && v)
            o->output_mask = parse_names(v, out_names, 2, "output");
        else if (!strcmp(a, "--sizes") && v) {
            char buf[512];
            snprintf(buf, sizeof buf, "%s", v);
            o->nsizes = 0;
            for (char *tok = strtok(buf, ","); tok && o->nsizes < 32; tok = strtok(NULL, ","))
                if (strtoull(tok, NULL, 10) > 0)
                    o->sizes[o->nsizes++] = (size_t)strtoull(tok, NULL, 10);
        } else if (!strcmp(a, "--reps") && v)
            o->reps = atoi(v) > 0 ? atoi(v) : 1;
        else if (!strcmp(a, "--min-queries") && v)
            o->min_queries = (size_t)strtoull(v, NULL, 10), o->min_queries_set = 1;
        else if (!strcmp(a, "--pool") && v)
            o->min_pool = (size_t)strtoull(v, NULL, 10);
        else if (!strcmp(a, "--peer-max-n") && v)
            o->peer_max_n = (size_t)strtoull(v, NULL, 10);
        else if (!strcmp(a, "--csv") && v)
            o->csv = v;
        else if (!strcmp(a, "--targets") && v)
            o->targets = v;
        else if (!strcmp(a, "--label") && v)
            o->label = v;
        else if (!strcmp(a, "--threads") && v)
            o->threads = atoi(v) > 0 ? (atoi(v) < 64 ? atoi(v) : 64) : 0;
        else if (!strcmp(a, "--seed") && v)
            o->seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--list")) {
            /* the implementations this machine runs, for scripts */
            for (size_t k = 0; k < bench_nimpls; k++)
                if (impl_available(&bench_impls[k]))
                    puts(bench_impls[k].name);
            exit(0);
        } else if (!strcmp(a, "--instructions"))
            o->instructions = 1, takes = 0;
        else {
            usage();
            exit(strcmp(a, "--help") && strcmp(a, "-h") ? 2 : 0);
        }
        i += takes;
    }
}

static float *falloc(size_t n)
{
    float *p = aligned_alloc(64, (n * sizeof(float) + 63) & ~(size_t)63);
    if (!p) {
        fprintf(stderr, "toi_bench: out of memory\n");
        exit(1);
    }
    return p;
}

static void out_alloc(bench_out *o, size_t n)
{
    float **f[8] = {&o->t, &o->nx, &o->ny, &o->nz, &o->px, &o->py, &o->pz, &o->depth};
    for (int k = 0; k < 8; k++) {
        *f[k] = falloc(n);
        memset(*f[k], 0, n * sizeof(float)); /* touch every page before timing */
    }
    o->index = aligned_alloc(64, (n * sizeof(uint32_t) + 63) & ~(size_t)63);
    o->feature = aligned_alloc(64, (n + 63) & ~(size_t)63);
    o->aos = aligned_alloc(64, (n * sizeof(aos_hit) + 63) & ~(size_t)63);
    if (!o->aos || !o->index || !o->feature) {
        fprintf(stderr, "toi_bench: out of memory\n");
        exit(1);
    }
    memset(o->aos, 0, n * sizeof(aos_hit));
    memset(o->index, 0, n * sizeof(uint32_t));
    memset(o->feature, 0, n);
}

static void out_free(bench_out *o)
{
    float *f[8] = {o->t, o->nx, o->ny, o->nz, o->px, o->py, o->pz, o->depth};
    for (int k = 0; k < 8; k++)
        free(f[k]);
    free(o->index);
    free(o->feature);
    free(o->aos);
}

/* The arrays a query reads and writes, for the bandwidth floor: the pair list's indices and
   bodies; a triangle set's spheres (the set itself stays in cache). */
static size_t floor_streams(const bench_scene *sc, const bench_out *o, int full,
                            bench_stream *in, bench_stream *out, size_t *nout)
{
    size_t nin = 0, n = sc->pool, fb = n * sizeof(float);
    switch (sc->q) {
    case Q_SPHERES:
        for (int k = 0; k < 7; k++) {
            in[nin++] = (bench_stream){sc->a[k], fb};
            in[nin++] = (bench_stream){sc->b[k], fb};
        }
        break;
    case Q_PAIRS:
        in[nin++] = (bench_stream){sc->ia, n * sizeof(uint32_t)};
        in[nin++] = (bench_stream){sc->ib, n * sizeof(uint32_t)};
        for (int k = 0; k < 7; k++)
            in[nin++] = (bench_stream){sc->body[k], sc->nbodies * sizeof(float)};
        break;
    default:
        for (int k = 0; k < 7; k++)
            in[nin++] = (bench_stream){sc->a[k], fb};
        if (sc->q == Q_TRI_PAIRS)
            for (int k = 0; k < 9; k++)
                in[nin++] = (bench_stream){sc->tri[k], fb};
        break;
    }
    float *f[8] = {o->t, o->nx, o->ny, o->nz, o->px, o->py, o->pz, o->depth};
    *nout = 0;
    for (int k = 0; k < (full ? 8 : 1); k++)
        out[(*nout)++] = (bench_stream){f[k], fb};
    if (full && query_is_tri(sc->q))
        out[(*nout)++] = (bench_stream){o->feature, n};
    if (full && query_is_set(sc->q))
        out[(*nout)++] = (bench_stream){o->index, n * sizeof(uint32_t)};
    return nin;
}

/* Times one implementation: each repetition runs every batch of the pool in turn, `cycles`
   times over; ns per query from the whole repetition. The pool (8192 queries at least, drawn
   at random) is what keeps a branchy kernel's predictor from learning the outcomes. */
static void time_impl(const bench_impl *im, const bench_scene *sc, size_t n, int full,
                      const bench_out *o, int reps, size_t cycles, double *med, double *min)
{
    size_t nb = sc->pool / n;
    double *ns = malloc((size_t)reps * sizeof *ns);
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up, not counted */
        double t0 = bench_now_ns();
        for (size_t c = 0; c < cycles; c++)
            for (size_t b = 0; b < nb; b++)
                im->run[sc->q](sc, b * n, n, full, o);
        double t1 = bench_now_ns();
        if (r >= 0)
            ns[r] = (t1 - t0) / (double)(cycles * sc->pool);
    }
    qsort(ns, (size_t)reps, sizeof *ns, cmp_double);
    *med = ns[reps / 2], *min = ns[0];
    free(ns);
}

static void time_floor(const bench_scene *sc, const bench_out *o, int full, int reps,
                       size_t cycles, double *med, double *min)
{
    bench_stream in[32], out[16];
    size_t nout, nin = floor_streams(sc, o, full, in, out, &nout);
    double *ns = malloc((size_t)reps * sizeof *ns);
    for (int r = -1; r < reps; r++) {
        double t0 = bench_now_ns();
        for (size_t c = 0; c < cycles; c++)
            floor_stream(in, nin, out, nout);
        double t1 = bench_now_ns();
        if (r >= 0)
            ns[r] = (t1 - t0) / (double)(cycles * sc->pool);
    }
    qsort(ns, (size_t)reps, sizeof *ns, cmp_double);
    *med = ns[reps / 2], *min = ns[0];
    free(ns);
}

/* The scalar reference's results for the whole pool, all outputs. */
static void reference(const bench_scene *sc, bench_out *ref)
{
    toi_set_backend(TOI_BACKEND_SCALAR);
    run_toi(sc, 0, sc->pool, 1, ref);
}

static int is_hit(float t)
{
    return t <= 1.0f;
}

/* A toi backend must match the reference bit for bit (returns the mismatches); a peer's
   hit/miss agreement is returned as a count of agreeing queries in *agree and, on set
   queries, the share of common hits naming the same triangle in *index_agree (-1 otherwise;
   a hit on an edge or vertex two triangles share may go either way by rounding). */
static size_t check(const bench_impl *im, const bench_scene *sc, int full, const bench_out *o,
                    const bench_out *ref, size_t *agree, double *index_agree)
{
    size_t bad = 0, same = 0, both = 0, same_index = 0;
    for (size_t i = 0; i < sc->pool; i++) {
        float t = im->backend != TOI_BACKEND_AUTO ? o->t[i] : o->aos[i].t;
        same += is_hit(t) == is_hit(ref->t[i]);
        if (im->backend == TOI_BACKEND_AUTO) {
            if (query_is_set(sc->q) && is_hit(t) && is_hit(ref->t[i])) {
                both++;
                same_index += o->aos[i].index == ref->index[i];
            }
            continue;
        }
        int differ = memcmp(&o->t[i], &ref->t[i], sizeof(float)) != 0;
        if (full) {
            const float *a[7] = {o->nx, o->ny, o->nz, o->px, o->py, o->pz, o->depth};
            const float *b[7] = {ref->nx, ref->ny, ref->nz, ref->px, ref->py, ref->pz,
                                 ref->depth};
            for (int k = 0; k < 7; k++)
                differ |= memcmp(&a[k][i], &b[k][i], sizeof(float)) != 0;
            if (query_is_tri(sc->q))
                differ |= o->feature[i] != ref->feature[i];
            if (query_is_set(sc->q))
                differ |= o->index[i] != ref->index[i];
        }
        bad += differ;
    }
    *agree = same;
    *index_agree = both ? (double)same_index / (double)both : -1.0;
    return bad;
}

/* A set query does SET_TRIS sphere-triangle tests per sphere: an eighth of the pool keeps
   as many outcomes in play without making a repetition slow. */
static size_t round_pool(bench_query q, size_t n, size_t min_pool)
{
    if (query_is_set(q))
        min_pool = min_pool / 8 ? min_pool / 8 : 1;
    return n >= min_pool ? n : n * ((min_pool + n - 1) / n);
}

/* ---- thread scaling ----
   One batch split into equal parts over nt threads, each calling the query on its own part
   (the library has no threads of its own: a caller that wants more cores hands each one a
   slice). The threads persist across repetitions and meet at a barrier before and after
   each, so thread creation is not timed; the caller's thread is worker 0. Scaling = time of
   the whole batch on one thread / time split over nt. */
typedef struct thr_job {
    const bench_impl *im;
    const bench_scene *sc;
    const bench_out *o;
    size_t n, cycles;
    int full, nt, reps;
    pthread_barrier_t *bar;
} thr_job;

typedef struct thr_arg {
    const thr_job *job;
    int id;
} thr_arg;

static void thr_part(const thr_job *j, int id)
{
    size_t per = (j->n + (size_t)j->nt - 1) / (size_t)j->nt;
    size_t first = (size_t)id * per, cnt = first < j->n ? j->n - first : 0;
    cnt = cnt < per ? cnt : per;
    for (size_t c = 0; c < j->cycles && cnt; c++)
        j->im->run[j->sc->q](j->sc, first, cnt, j->full, j->o);
}

static void *thr_worker(void *p)
{
    const thr_arg *a = p;
    for (int r = -1; r < a->job->reps; r++) {
        pthread_barrier_wait(a->job->bar);
        thr_part(a->job, a->id);
        pthread_barrier_wait(a->job->bar);
    }
    return NULL;
}

/* Median ns per query of the batch split over nt threads (nt = 1: the caller alone). */
static double time_split(const bench_impl *im, const bench_scene *sc, const bench_out *o,
                         size_t n, int full, int nt, int reps, size_t cycles)
{
    pthread_barrier_t bar;
    pthread_barrier_init(&bar, NULL, (unsigned)nt);
    thr_job job = {im, sc, o, n, cycles, full, nt, reps, &bar};
    pthread_t tid[64];
    thr_arg args[64];
    for (int k = 1; k < nt; k++) {
        args[k] = (thr_arg){&job, k};
        if (pthread_create(&tid[k], NULL, thr_worker, &args[k]) != 0) {
            fprintf(stderr, "toi_bench: cannot start a thread\n");
            exit(1);
        }
    }
    double *ns = malloc((size_t)reps * sizeof *ns);
    for (int r = -1; r < reps; r++) {
        pthread_barrier_wait(&bar);
        double t0 = bench_now_ns();
        thr_part(&job, 0);
        pthread_barrier_wait(&bar);
        double t1 = bench_now_ns();
        if (r >= 0)
            ns[r] = (t1 - t0) / (double)(cycles * n);
    }
    for (int k = 1; k < nt; k++)
        pthread_join(tid[k], NULL);
    pthread_barrier_destroy(&bar);
    qsort(ns, (size_t)reps, sizeof *ns, cmp_double);
    double med = ns[reps / 2];
    free(ns);
    return med;
}

static void run_thread_scaling(const options *opt, report *rep)
{
    static const struct {
        bench_query q;
        int full;
        size_t n;
    } cases[] = {{Q_SPHERES, 1, 65536}, {Q_SPHERES, 0, 65536}, {Q_TRI_NEAR, 0, 2048},
                 {Q_TRI_FAR, 0, 2048}};
    const int nt = opt->threads;
    toi_set_backend(TOI_BACKEND_AUTO);
    const char *best = toi_backend_name(toi_get_backend());
    const bench_impl *im = NULL;
    for (size_t i = 0; i < bench_nimpls; i++)
        if (!strcmp(bench_impls[i].name, best))
            im = &bench_impls[i];
    if (!im)
        return;
    printf("\nthread scaling, backend %s: one batch split over %d of the caller's threads "
           "(ns per query, medians)\n", best, nt);
    printf("%-8s %-3s %8s %12s %12s %9s\n", "query", "out", "n", "1 thread", "split", "scaling");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        bench_query q = cases[c].q;
        if (!query_available(q) || !((opt->query_mask >> q) & 1))
            continue;
        bench_scene sc;
        bench_out o;
        size_t n = cases[c].n;
        scene_generate(&sc, q, n, opt->seed);
        out_alloc(&o, sc.pool);
        size_t tests = query_is_set(q) ? n * SET_TRIS : n;
        size_t cycles = (size_t)(16 * opt->min_queries + tests - 1) / tests;
        double one = time_split(im, &sc, &o, n, cases[c].full, 1, opt->reps, cycles);
        double split = time_split(im, &sc, &o, n, cases[c].full, nt, opt->reps, cycles);
        printf("%-8s %-3s %8zu %12.3f %12.3f %8.2fx\n", bench_query_name[q],
               cases[c].full ? "all" : "t", n, one, split, one / split);
        report_threads(rep, q, cases[c].full, n, nt, one, split);
        out_free(&o);
        scene_free(&sc);
    }
}

#ifdef HAVE_CALLGRIND
/* One batch of n per case between client requests: callgrind counts exactly its
   instructions (Ir) and dumps them under the case's name; bench/instructions.sh divides. */
static int run_instructions(const options *opt)
{
    size_t n = opt->nsizes ? opt->sizes[0] : 8192;
    for (int q = 0; q < Q_COUNT; q++) {
        if (!((opt->query_mask >> q) & 1) || !query_available((bench_query)q))
            continue;
        bench_scene sc;
        bench_out o;
        scene_generate(&sc, (bench_query)q, n, opt->seed);
        out_alloc(&o, n);
        for (int full = 0; full < 2; full++) {
            if (!((opt->output_mask >> full) & 1))
                continue;
            for (size_t i = 0; i < bench_nimpls; i++) {
                const bench_impl *im = &bench_impls[i];
                if (!((opt->impl_mask >> i) & 1) || !impl_available(im) || !im->run[q])
                    continue;
                if (im->backend != TOI_BACKEND_AUTO)
                    toi_set_backend(im->backend);
                im->run[q](&sc, 0, n, full, &o); /* warm: lazy initialisation */
                char label[128];
                snprintf(label, sizeof label, "%s/%s/%s/%zu", bench_query_name[q],
                         full ? "all" : "t", im->name, n);
                CALLGRIND_TOGGLE_COLLECT;
                im->run[q](&sc, 0, n, full, &o);
                CALLGRIND_TOGGLE_COLLECT;
                CALLGRIND_DUMP_STATS_AT(label);
            }
        }
        out_free(&o);
        scene_free(&sc);
    }
    return 0;
}
#endif

int main(int argc, char **argv)
{
    options opt = {0};
    parse_args(argc, argv, &opt);
    if (opt.instructions) {
#ifdef HAVE_CALLGRIND
        return run_instructions(&opt);
#else
        fprintf(stderr, "toi_bench: built without valgrind/callgrind.h\n");
        return 1;
#endif
    }

    report rep;
    report_open(&rep, opt.csv, opt.label);
    report_banner(&rep);

    for (int q = 0; q < Q_COUNT; q++) {
        if (!((opt.query_mask >> q) & 1) || !query_available((bench_query)q))
            continue;
        for (size_t si = 0; si < opt.nsizes; si++) {
            size_t n = opt.sizes[si];
            /* set queries are compute-bound (the set stays in cache, a sphere is 28 bytes):
               batches beyond the last-level-cache sizes would only take minutes */
            if (query_is_set((bench_query)q) && n > SET_MAX_N)
                continue;
            bench_scene sc;
            bench_out o, ref;
            scene_generate(&sc, (bench_query)q, round_pool((bench_query)q, n, opt.min_pool), opt.seed);
            out_alloc(&o, sc.pool);
            out_alloc(&ref, sc.pool);
            reference(&sc, &ref);
            report_scene(&rep, &sc, n, ref.t, ref.depth);
            /* a set query is SET_TRIS tests: as many tests per repetition, not queries */
            size_t minq = query_is_set((bench_query)q) ? opt.min_queries / SET_TRIS
                                                       : opt.min_queries;
            size_t cycles = (minq + sc.pool - 1) / sc.pool;
            for (int full = 0; full < 2; full++) {
                if (!((opt.output_mask >> full) & 1))
                    continue;
                measurement m = {.q = (bench_query)q, .full = full, .n = n, .impl = "floor",
                                 .bytes = scene_in_bytes((bench_query)q) +
                                          out_bytes((bench_query)q, full)};
                time_floor(&sc, &o, full, opt.reps, cycles, &m.med, &m.min);
                report_add(&rep, &m);
                for (size_t i = 0; i < bench_nimpls; i++) {
                    const bench_impl *im = &bench_impls[i];
                    if (!((opt.impl_mask >> i) & 1) || !impl_available(im) || !im->run[q])
                        continue;
                    size_t max_n = opt.peer_max_n ? opt.peer_max_n : im->max_n;
                    if (query_is_set((bench_query)q)) /* SET_TRIS tests per query */
                        max_n /= SET_TRIS;
                    if (im->max_n && n > max_n)
                        continue;
                    if (im->backend != TOI_BACKEND_AUTO)
                        toi_set_backend(im->backend);
                    /* slow peers: by default one pass over the pool, fewer repetitions */
                    int slow = im->max_n && !opt.min_queries_set;
                    int reps = slow ? (opt.reps + 1) / 2 : opt.reps;
                    size_t cyc = slow ? 1 : cycles;
                    m.impl = im->name;
                    m.peer = im->backend == TOI_BACKEND_AUTO;
                    time_impl(im, &sc, n, full, &o, reps, cyc, &m.med, &m.min);
                    /* one more call, then straight to the probe (nothing between them may
                       clear the state: glibc's AVX string functions would) */
                    upper_clear();
                    im->run[q](&sc, 0, n, full, &o);
                    m.dirty_upper = im->backend != TOI_BACKEND_AUTO && upper_dirty();
                    upper_clear();
                    size_t agree;
                    m.mismatches = check(im, &sc, full, &o, &ref, &agree, &m.index_agree);
                    m.agree = (double)agree / (double)sc.pool;
                    report_add(&rep, &m);
                }
            }
            out_free(&o);
            out_free(&ref);
            scene_free(&sc);
        }
    }
    if (opt.threads > 1)
        run_thread_scaling(&opt, &rep);
    report_targets(&rep, opt.targets);
    int failed = report_close(&rep);
    return failed ? 1 : 0;
}
