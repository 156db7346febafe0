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
    CHECK(strcmp(toi_backend_name(TOI_BACKEND_AVX512), "avx512") == 0, "avx512 name");
    CHECK(TOI_BACKEND_AVX512 == TOI_BACKEND_NEON + 1, "avx512 appended after neon");
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
    static const toi_backend order[] = {TOI_BACKEND_AVX512, TOI_BACKEND_AVX2, TOI_BACKEND_SSE,
                                        TOI_BACKEND_NEON, TOI_BACKEND_SCALAR};
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
    for (toi_backend b = TOI_BACKEND_SCALAR; b <= TOI_BACKEND_AVX512; b++)
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
    CHECK(!toi_backend_available(TOI_BACKEND_SSE) && !toi_backend_available(TOI_BACKEND_AVX2) &&
              !toi_backend_available(TOI_BACKEND_AVX512),
          "no x86 backends on aarch64");
    CHECK(toi_set_backend(TOI_BACKEND_AVX512) == TOI_ENOTSUP, "forcing AVX-512 on aarch64");
    CHECK(toi_set_backend(TOI_BACKEND_AVX2) == TOI_ENOTSUP, "forcing AVX2 on aarch64");
#endif
    CHECK(toi_set_backend((toi_backend)42) == TOI_ENOTSUP, "unknown backend");
    for (toi_backend b = TOI_BACKEND_SCALAR; b <= TOI_BACKEND_AVX512; b++) {
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

void group_dispatch_abi(void);

void group_dispatch(void)
{
    t_run("dispatch/names, versions, errors", case_names, NULL);
    t_run("dispatch/first-call pick", case_pick, NULL);
    t_run("dispatch/forcing backends", case_force, NULL);
    group_dispatch_abi();
}

/* ---- the AVX upper state ----
   A function that used 256- or 512-bit registers must return with the upper parts of
   XMM0-15 zeroed (vzeroupper), or every legacy-SSE instruction the caller runs afterwards
   pays a state transition (or, on some CPUs, a false dependency on the whole register).
   XGETBV with ECX = 1 reports the state in use (XINUSE), where CPUID leaf 0xD, sub-leaf 1
   says it is supported: bit 2 the YMM upper halves of registers 0-15, bit 7 the ZMM upper
   halves of registers 0-15, bit 6 ZMM16-31. CPUs may report a bit as in use when it is not
   (AMD Zen 5 keeps bits 5 and 7 set even after vzeroall, and clears bit 6 on vzeroupper),
   so the check is relative: a kernel's return state must not change when the test itself
   then runs vzeroupper, i.e. the kernel left nothing that vzeroupper would clear. (What
   vzeroupper leaves alone - ZMM16-31 on Intel, the opmask registers - costs legacy SSE
   nothing.) */
#if defined(__x86_64__)
#include <cpuid.h>

static int xinuse_supported(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) /* OSXSAVE */
        return 0;
    if (__get_cpuid_max(0, NULL) < 0xd)
        return 0;
    __cpuid_count(0xd, 1, a, b, c, d);
    return (a >> 2) & 1;
}

static unsigned xinuse(void)
{
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    return lo;
}

static void case_upper_state(const void *ctx)
{
    const toi_backend be = *(const toi_backend *)ctx;
    if (!toi_backend_available(be) || !xinuse_supported()) {
        printf("    no %s backend or no XINUSE on this CPU: skipped\n", toi_backend_name(be));
        return;
    }
    enum { N = 2 * T_MAXW + 3 }; /* whole vectors and a tail on every backend */
    float f[16][N];
    for (int k = 0; k < 16; k++)
        for (int i = 0; i < N; i++)
            f[k][i] = (float)((i * 7 + k * 3) % 11) - 5.0f;
    for (int i = 0; i < N; i++)
        f[6][i] = f[15][i] = 0.5f; /* radii */
    toi_spheres s = {f[0], f[1], f[2], f[3], f[4], f[5], f[6]};
    toi_spheres s2 = {f[9], f[10], f[11], f[12], f[13], f[14], f[15]};
    toi_triangles tri = {f[0], f[1], f[2], f[7], f[8], f[9], f[10], f[11], f[12]};
    float o[8][N];
    uint32_t idx[N], index[N];
    uint8_t feature[N];
    for (int i = 0; i < N; i++)
        idx[i] = (uint32_t)(N - 1 - i);
    toi_hits h = {o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], index, feature, 0};
    toi_plane pl = {0, 0, 1, 0};
    float mx[N], my[N], mz[N], mvx[N], mvy[N], mvz[N];
    toi_motion m = {mx, my, mz, mvx, mvy, mvz, NULL, NULL, NULL};
    CHECK(toi_set_backend(be) == TOI_OK, "force %s", toi_backend_name(be));
    static const char *const names[] = {"toi_sweep_spheres", "toi_sweep_sphere_pairs",
                                        "toi_sweep_spheres_plane", "toi_sweep_spheres_triangles",
                                        "toi_sweep_sphere_triangle_pairs",
                                        "toi_sweep_spheres_triangle_set", "toi_respond"};
    for (int q = 0; q < 7; q++) {
        ptrdiff_t r = 0;
        for (int i = 0; i < N; i++)
            mx[i] = f[0][i], my[i] = f[1][i], mz[i] = f[2][i], mvx[i] = f[3][i],
            mvy[i] = f[4][i], mvz[i] = f[5][i];
        switch (q) {
        case 0: r = toi_sweep_spheres(N, &s, &s2, 0, &h); break;
        case 1: r = toi_sweep_sphere_pairs(N, idx, idx, N, &s, TOI_ALL_OVERLAPS, &h); break;
        case 2: r = toi_sweep_spheres_plane(N, &s, &pl, 0, &h); break;
        case 3: r = toi_sweep_spheres_triangles(N, &s2, &tri, 0, &h); break;
        case 4: r = toi_sweep_sphere_triangle_pairs(N, idx, idx, N, &s2, N, &tri, 0, &h); break;
        case 5: r = toi_sweep_spheres_triangle_set(N, &s2, N, &tri, 0, &h); break;
        default: r = toi_respond(N, &m, &h, 0.5f, 0.0f); break;
        }
        unsigned in_use = xinuse();
        __asm__ volatile("vzeroupper"); /* AVX is there: the backend runs */
        unsigned clean = xinuse();
        CHECK(r >= 0, "%s failed: %td", names[q], r);
        CHECK((in_use & 0xc4u) == (clean & 0xc4u),
              "%s (%s) returned with upper register state in use (XINUSE %#x, %#x after "
              "vzeroupper)", names[q], toi_backend_name(be), in_use, clean);
        CHECK(toi_last_backend() == be, "%s ran on %s", names[q],
              toi_backend_name(toi_last_backend()));
    }
    toi_set_backend(TOI_BACKEND_AUTO);
}
#endif

void group_dispatch_abi(void)
{
#if defined(__x86_64__)
    static const toi_backend avx2 = TOI_BACKEND_AVX2, avx512 = TOI_BACKEND_AVX512;
    t_run("dispatch/avx2 kernels return with clean YMM upper state", case_upper_state, &avx2);
    t_run("dispatch/avx512 kernels return with clean YMM/ZMM upper state", case_upper_state,
          &avx512);
#endif
}
