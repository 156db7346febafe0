/* test_threads.c - threads: many threads making the process's first toi call at once (run
   before anything else in main), and threads querying while another switches the backend.
   Every result must equal the single-threaded one bit for bit; `make test-tsan` runs this
   under ThreadSanitizer. */
#define _DEFAULT_SOURCE /* pthread_barrier_t */
#include "families.h"
#include "test.h"

#include <pthread.h>
#include <stdlib.h>

#define NTHREADS 8
#define BATCH 37 /* not a multiple of any width: every backend runs a tail */
#define T_MAXFAM 24

/* Results of one call: the count and every output's bits. */
typedef struct snap {
    ptrdiff_t ret;
    t_hits h;
    float io[T_MAXARR][BATCH]; /* a row updating arrays in place: this thread's copies */
} snap;

static void snap_run(snap *s, const t_family *f, const toi_kernels *k, const t_args *a)
{
    float *io[T_MAXARR];
    for (int j = 0; j < T_MAXARR; j++)
        io[j] = s->io[j];
    t_hits_fill(&s->h, 0xA5);
    s->ret = t_call_io(f, k, BATCH, a, f->flags, f->inout ? NULL : &s->h.h, io);
}

static int snap_same(const snap *x, const snap *y)
{
    size_t at;
    return x->ret == y->ret && t_hits_diff(&x->h, &y->h, BATCH, &at) < 0 &&
           memcmp(x->io, y->io, sizeof x->io) == 0;
}

typedef struct shared {
    t_batch batch[T_MAXFAM]; /* one per family */
    pthread_barrier_t start;
    snap got[NTHREADS][T_MAXFAM];
    toi_backend first_seen[NTHREADS];
    _Atomic int stop;
    int rounds;
    _Atomic int mismatches;
} shared;

typedef struct worker {
    shared *sh;
    int id;
} worker;

static void *first_call_thread(void *p)
{
    worker *w = p;
    shared *sh = w->sh;
    /* Threads start with different families, so different entry points race to resolve. */
    pthread_barrier_wait(&sh->start);
    for (int j = 0; j < t_nfamilies; j++) {
        int fi = (w->id + j) % t_nfamilies;
        snap_run(&sh->got[w->id][fi], &t_families[fi], NULL, &sh->batch[fi].a);
    }
    sh->first_seen[w->id] = toi_get_backend();
    return NULL;
}

static void make_batches(shared *sh)
{
    for (int fi = 0; fi < t_nfamilies; fi++)
        t_batch_make(&sh->batch[fi], &t_families[fi], BATCH, BATCH,
                     0x7e4d + t_family_seed(&t_families[fi]));
}

static void free_batches(shared *sh)
{
    for (int fi = 0; fi < t_nfamilies; fi++)
        t_batch_free(&sh->batch[fi]);
}

static void alloc_snaps(snap *s, int n)
{
    for (int i = 0; i < n; i++)
        t_hits_alloc(&s[i].h, BATCH);
}

static void free_snaps(snap *s, int n)
{
    for (int i = 0; i < n; i++)
        t_hits_free(&s[i].h);
}

/* Must run before any other toi call of the process. */
/* The per-family arrays have T_MAXFAM rows: a longer family table fails the case cleanly. */
static int families_fit(void)
{
    CHECK(t_nfamilies <= T_MAXFAM, "%d query families, room for %d", t_nfamilies, T_MAXFAM);
    return t_nfamilies <= T_MAXFAM;
}

static void case_first_call(const void *ctx)
{
    (void)ctx;
    static shared sh;
    worker w[NTHREADS];
    pthread_t th[NTHREADS];
    if (!families_fit())
        return;
    make_batches(&sh);
    for (int i = 0; i < NTHREADS; i++)
        alloc_snaps(sh.got[i], t_nfamilies);
    pthread_barrier_init(&sh.start, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++) {
        w[i] = (worker){&sh, i};
        CHECK(pthread_create(&th[i], NULL, first_call_thread, &w[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&sh.start);

    /* Every thread saw the backend the process settled on, and the single-threaded results
       (on the scalar reference: every backend's bits are the same). */
    toi_backend chosen = toi_get_backend();
    static snap ref[T_MAXFAM];
    alloc_snaps(ref, t_nfamilies);
    for (int fi = 0; fi < t_nfamilies; fi++)
        snap_run(&ref[fi], &t_families[fi], toi_kernels_for(TOI_BACKEND_SCALAR),
                 &sh.batch[fi].a);
    for (int i = 0; i < NTHREADS; i++) {
        CHECK(sh.first_seen[i] == chosen, "thread %d saw %s, process %s", i,
              toi_backend_name(sh.first_seen[i]), toi_backend_name(chosen));
        for (int fi = 0; fi < t_nfamilies; fi++)
            CHECK(snap_same(&sh.got[i][fi], &ref[fi]), "thread %d: %s differs from the "
                  "single-threaded result", i, t_families[fi].name);
    }
    for (int fi = 0; fi < t_nfamilies; fi++)
        CHECK(ref[fi].ret > 0 && ref[fi].ret < BATCH, "%s: the batch should mix hits and "
              "misses (%td hits)", t_families[fi].name, ref[fi].ret);
    free_snaps(ref, t_nfamilies);
    for (int i = 0; i < NTHREADS; i++)
        free_snaps(sh.got[i], t_nfamilies);
    free_batches(&sh);
}

void group_threads_first(void)
{
    t_run("threads/first calls at once", case_first_call, NULL);
}

/* ---- queries while another thread switches the backend ---- */

static snap switch_ref[T_MAXFAM];

static void *query_thread(void *p)
{
    worker *w = p;
    shared *sh = w->sh;
    snap *mine = sh->got[w->id];
    pthread_barrier_wait(&sh->start);
    for (int round = 0; round < sh->rounds; round++)
        for (int fi = 0; fi < t_nfamilies; fi++) {
            snap_run(&mine[fi], &t_families[fi], NULL, &sh->batch[fi].a);
            if (!snap_same(&mine[fi], &switch_ref[fi]))
                sh->mismatches++;
        }
    return NULL;
}

static void *switch_thread(void *p)
{
    shared *sh = p;
    unsigned i = 0;
    pthread_barrier_wait(&sh->start);
    while (!sh->stop) {
        const t_impl *im = &t_impls[i++ % (unsigned)t_nimpls];
        if (im->via_api)
            toi_set_backend(im->k->id);
    }
    return NULL;
}

static void case_switching(const void *ctx)
{
    (void)ctx;
    static shared sh;
    const int nq = NTHREADS - 1;
    worker w[NTHREADS];
    pthread_t th[NTHREADS], sw;
    toi_backend before = toi_get_backend();
    if (!families_fit())
        return;
    make_batches(&sh);
    sh.rounds = (int)t_count(400);
    sh.stop = 0;
    sh.mismatches = 0;
    alloc_snaps(switch_ref, t_nfamilies);
    for (int fi = 0; fi < t_nfamilies; fi++)
        snap_run(&switch_ref[fi], &t_families[fi], toi_kernels_for(TOI_BACKEND_SCALAR),
                 &sh.batch[fi].a);
    for (int i = 0; i < nq; i++)
        alloc_snaps(sh.got[i], t_nfamilies);
    pthread_barrier_init(&sh.start, NULL, (unsigned)nq + 1);
    CHECK(pthread_create(&sw, NULL, switch_thread, &sh) == 0, "pthread_create");
    for (int i = 0; i < nq; i++) {
        w[i] = (worker){&sh, i};
        CHECK(pthread_create(&th[i], NULL, query_thread, &w[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < nq; i++)
        pthread_join(th[i], NULL);
    sh.stop = 1;
    pthread_join(sw, NULL);
    pthread_barrier_destroy(&sh.start);
    CHECK(sh.mismatches == 0, "%d of %d results differ from the single-threaded ones",
          (int)sh.mismatches, nq * sh.rounds * t_nfamilies);
    CHECK(toi_set_backend(before) == TOI_OK, "cannot restore %s", toi_backend_name(before));
    free_snaps(switch_ref, t_nfamilies);
    for (int i = 0; i < nq; i++)
        free_snaps(sh.got[i], t_nfamilies);
    free_batches(&sh);
}

void group_threads(void)
{
    t_run("threads/queries while the backend switches", case_switching, NULL);
}
