/* test_dispatch.c - group 6 (in-process part): backend names, availability, forcing, and the
   backend dispatch picked at the first call. TOI_TEST_EXPECT names the backend dispatch must
   have picked on this CPU (tests/run.sh sets it for each qemu CPU model and for TOI_BACKEND
   overrides); without it the pick must be the best available. */
#include "test.h"

#include <stdlib.h>

toi_backend t_initial_backend;

static void case_names(const void *ctx)
{
    (void)ctx;
    CHECK(strcmp(toi_backend_name(TOI_BACKEND_SCALAR), "scalar") == 0, "scalar name");
    CHECK(strcmp(toi_backend_name(TOI_BACKEND_SSE), "sse") == 0, "sse name");
    CHECK(strcmp(toi_backend_name(TOI_BACKEND_AVX2), "avx2") == 0, "avx2 name");
    CHECK(strcmp(toi_backend_name(TOI_BACKEND_NEON), "neon") == 0, "neon name");
    CHECK(strcmp(toi_backend_name(TOI_BACKEND_AUTO), "auto") == 0, "auto name");
    CHECK(strcmp(toi_backend_name((toi_backend)42), "unknown") == 0, "unknown name");
    CHECK(toi_version() && strcmp(toi_version(), TOI_VERSION_STRING) == 0, "version");
    CHECK(toi_strerror(TOI_OK) && toi_strerror(TOI_EINVAL) && toi_strerror(TOI_ENOTSUP) &&
              toi_strerror(-77),
          "strerror");
    CHECK(strcmp(toi_strerror(TOI_EINVAL), toi_strerror(TOI_ENOTSUP)) != 0, "distinct errors");
}

static toi_backend best(void)
{
    static const toi_backend order[] = {TOI_BACKEND_AVX2, TOI_BACKEND_SSE, TOI_BACKEND_NEON,
                                        TOI_BACKEND_SCALAR};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (toi_backend_available(order[i]))
            return order[i];
    return TOI_BACKEND_AUTO;
}

static void case_pick(const void *ctx)
{
    (void)ctx;
    const char *expect = getenv("TOI_TEST_EXPECT");
    const char *env = getenv("TOI_BACKEND");
    if (expect) {
        CHECK(strcmp(toi_backend_name(t_initial_backend), expect) == 0,
              "dispatch picked %s, expected %s", toi_backend_name(t_initial_backend), expect);
    } else if (!env) {
        CHECK(t_initial_backend == best(), "dispatch picked %s, the best available is %s",
              toi_backend_name(t_initial_backend), toi_backend_name(best()));
    }
    printf("    dispatch picked %s (TOI_BACKEND=%s); available:", toi_backend_name(t_initial_backend),
           env ? env : "unset");
    for (toi_backend b = TOI_BACKEND_SCALAR; b <= TOI_BACKEND_NEON; b++)
        if (toi_backend_available(b))
            printf(" %s", toi_backend_name(b));
    printf("\n");
}

static void case_force(const void *ctx)
{
    (void)ctx;
    CHECK(!toi_backend_available(TOI_BACKEND_AUTO), "AUTO is not a backend");
    CHECK(toi_backend_available(TOI_BACKEND_SCALAR), "scalar always available");
#if defined(__x86_64__)
    CHECK(!toi_backend_available(TOI_BACKEND_NEON), "no NEON on x86");
    CHECK(toi_set_backend(TOI_BACKEND_NEON) == TOI_ENOTSUP, "forcing NEON on x86");
#elif defined(__aarch64__)
    CHECK(!toi_backend_available(TOI_BACKEND_SSE) && !toi_backend_available(TOI_BACKEND_AVX2),
          "no x86 backends on aarch64");
    CHECK(toi_set_backend(TOI_BACKEND_AVX2) == TOI_ENOTSUP, "forcing AVX2 on aarch64");
#endif
    CHECK(toi_set_backend((toi_backend)42) == TOI_ENOTSUP, "unknown backend");
    for (toi_backend b = TOI_BACKEND_SCALAR; b <= TOI_BACKEND_NEON; b++) {
        if (!toi_backend_available(b))
            continue;
        CHECK(toi_set_backend(b) == TOI_OK, "set %s", toi_backend_name(b));
        CHECK(toi_get_backend() == b, "get after set %s", toi_backend_name(b));
    }
    CHECK(toi_set_backend(TOI_BACKEND_AUTO) == TOI_OK, "set auto");
    CHECK(toi_get_backend() == best(), "auto is the best: %s",
          toi_backend_name(toi_get_backend()));
    /* a rejected set leaves the backend alone */
    toi_set_backend(TOI_BACKEND_SCALAR);
    toi_set_backend((toi_backend)42);
    CHECK(toi_get_backend() == TOI_BACKEND_SCALAR, "rejected set changed the backend");
}

void group_dispatch(void)
{
    t_run("dispatch/names, versions, errors", case_names, NULL);
    t_run("dispatch/first-call pick", case_pick, NULL);
    t_run("dispatch/forcing backends", case_force, NULL);
}
