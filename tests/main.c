/* main.c - test runner: every group, then a line "N passed, N failed".
   Environment: TOI_TEST_SCALE scales the random query counts (qemu runs use less);
   TOI_TEST_EXPECT names the backend dispatch must pick on this CPU; TOI_TEST_GROUPS and
   TOI_TEST_SKIP pick groups by name; TOI_TEST_TIMES prints each group's wall time;
   TOI_TEST_SEED (an integer, 0 by default) draws other random inputs (test.h, t_rng). */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

double t_scale = 1.0;
uint64_t t_seed;
static unsigned long long seed_arg;
extern toi_backend t_initial_backend;
static int passed, failed, case_failures;
static const char *case_name;

void t_fail(const char *file, int line, const char *fmt, ...)
{
    if (case_failures++ < 5) {
        va_list ap;
        va_start(ap, fmt);
        printf("  FAIL %s (%s:%d): ", case_name, file, line);
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
    }
}

void t_run(const char *name, void (*fn)(const void *ctx), const void *ctx)
{
    case_name = name;
    case_failures = 0;
    fn(ctx);
    if (case_failures) {
        failed++;
        printf("FAIL %s (%d failed checks)\n", name, case_failures);
    } else {
        passed++;
        printf("ok   %s\n", name);
    }
    fflush(stdout);
}

void t_run_impls(const char *what, void (*fn)(const void *impl))
{
    char name[160];
    for (int i = 0; i < t_nimpls; i++) {
        snprintf(name, sizeof name, "%s/%s", what, t_impls[i].name);
        t_run(name, fn, &t_impls[i]);
    }
}

static double t_now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

size_t t_count(size_t n)
{
    double c = (double)n * t_scale;
    return c < 1 ? 1 : (size_t)c;
}

size_t t_acc_count(size_t n)
{
    size_t total = t_count(n);
    const char *sc = getenv("TOI_TEST_ACCURACY_SCALE");
    return sc ? (size_t)((double)total * atof(sc)) + 1 : total;
}

int main(void)
{
    const char *sc = getenv("TOI_TEST_SCALE");
    if (sc)
        t_scale = atof(sc);
    /* TOI_TEST_SEED=n: every seed but the golden groups' and the fuzz corpus's mixed with n
       (a soak run: docs/testing.md); 0 keeps the suite's own inputs */
    const char *sd = getenv("TOI_TEST_SEED");
    if (sd)
        seed_arg = strtoull(sd, NULL, 0);
    if (seed_arg) { /* hashed: seeds n and m must not start the generators' streams
                       (splitmix64, which steps by a constant) a few steps apart */
        rng m = {(uint64_t)seed_arg};
        t_seed = rng_u64(&m);
    }
    /* TOI_TEST_GROUPS: a comma-separated subset, e.g. "dispatch" (default: all) */
    const char *only = getenv("TOI_TEST_GROUPS");
    /* TOI_TEST_SKIP: groups left out (test-sanitize leaves out "guard": docs/testing.md) */
    const char *skip = getenv("TOI_TEST_SKIP");
    /* Threads race to make the process's first toi call, before anything else resolves the
       backend; afterwards toi_get_backend() returns what dispatch settled on. */
    if (!only || strstr(only, "threads"))
        group_threads_first();
    t_initial_backend = toi_get_backend(); /* dispatch has resolved by here */
    t_init_impls();
    printf("toi %s tests: dispatch picked %s; testing", toi_version(),
           toi_backend_name(toi_get_backend()));
    for (int i = 0; i < t_nimpls; i++)
        printf(" %s", t_impls[i].name);
    printf(" (scale %g", t_scale);
    if (seed_arg)
        printf(", seed %llu", seed_arg);
    printf(")\n");
#if defined(__x86_64__)
    /* every group runs each backend this CPU has; one it lacks is skipped, not failed */
    static const toi_backend x86[] = {TOI_BACKEND_SSE, TOI_BACKEND_AVX2, TOI_BACKEND_AVX512};
    for (size_t i = 0; i < sizeof x86 / sizeof x86[0]; i++)
        if (!toi_backend_available(x86[i]))
            printf("skipped backend %s: not supported by this CPU and OS\n",
                   toi_backend_name(x86[i]));
#endif

    static const struct {
        const char *name;
        void (*fn)(void);
    } groups[] = {{"dispatch", group_dispatch},
                  {"contract", group_contract},
                  {"contract", group_tri_contract},
                  {"contract", group_mesh_contract},
                  {"differential", group_differential},
                  {"differential", group_runs},
                  {"differential", group_tri_differential},
                  {"differential", group_mesh_differential},
                  {"accuracy", group_accuracy},
                  {"accuracy", group_tri_accuracy},
                  {"accuracy", group_mesh_accuracy},
                  {"golden", group_golden},
                  {"golden", group_mesh_golden},
                  {"respond", group_respond},
                  {"particles", group_particles},
                  {"guard", group_guard},
                  {"threads", group_threads},
                  {"threads", group_mesh_threads},
                  {"magnitude", group_magnitude},
                  {"fuzz", group_fuzz_replay},
                  {"contract", group_capsule_contract},
                  {"differential", group_capsule_differential},
                  {"accuracy", group_capsule_accuracy},
                  {"golden", group_capsule_golden},
                  {"contract", group_capsule_tri_contract},
                  {"differential", group_capsule_tri_differential},
                  {"accuracy", group_capsule_tri_accuracy},
                  {"golden", group_capsule_tri_golden},
                  {"contract", group_box_contract},
                  {"differential", group_box_differential},
                  {"accuracy", group_box_accuracy},
                  {"golden", group_box_golden},
                  {"contract", group_box_spin_contract},
                  {"differential", group_box_spin_differential},
                  {"accuracy", group_box_spin_accuracy},
                  {"golden", group_box_spin_golden}};
    /* TOI_TEST_TIMES=1: the wall time of each group (to keep make test inside CI's budget) */
    const int times = getenv("TOI_TEST_TIMES") != NULL;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        if ((!only || strstr(only, groups[g].name)) && !(skip && strstr(skip, groups[g].name))) {
            const double t0 = t_now();
            groups[g].fn();
            if (times)
                printf("time: group %zu (%s) %.2f s\n", g, groups[g].name, t_now() - t0);
        }

    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
