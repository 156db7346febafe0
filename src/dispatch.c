/* dispatch.c - picks the backend: the best this CPU runs, or the one TOI_BACKEND names.
   The active table is an atomic pointer, NULL until the first call resolves it. Resolving is
   idempotent (every thread computes the same answer), so a race between first calls is
   harmless; toi_set_backend simply stores a new table, and each query loads the pointer once,
   so a query runs wholly on one backend. */
#include "internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Best first. */
static const toi_kernels *const compiled[] = {
#if defined(TOI_HAVE_X86)
    &toi_kernels_avx512,
    &toi_kernels_avx2,
    &toi_kernels_sse,
#endif
#if defined(TOI_HAVE_NEON)
    &toi_kernels_neon,
#endif
    &toi_kernels_scalar,
};
#define NCOMPILED (sizeof compiled / sizeof compiled[0])

static _Atomic(const toi_kernels *) active;
/* initial-exec: one plain TLS store per call, no __tls_get_addr in the shared library */
static _Thread_local toi_backend last_backend __attribute__((tls_model("initial-exec"))) =
    TOI_BACKEND_AUTO;

const toi_kernels *toi_kernels_for(toi_backend b)
{
    unsigned cpu = toi_cpu_backends();
    for (size_t i = 0; i < NCOMPILED; i++)
        if ((b == TOI_BACKEND_AUTO || compiled[i]->id == b) && (cpu >> compiled[i]->id) & 1)
            return compiled[i];
    return NULL;
}

static const toi_kernels *from_environment(void)
{
    const char *want = getenv("TOI_BACKEND");
    if (want)
        for (size_t i = 0; i < NCOMPILED; i++)
            if (strcmp(want, compiled[i]->name) == 0)
                return toi_kernels_for(compiled[i]->id); /* NULL when not available */
    return NULL;
}

const toi_kernels *toi_active_kernels(void)
{
    const toi_kernels *k = atomic_load_explicit(&active, memory_order_acquire);
    if (k)
        return k;
    const toi_kernels *pick = from_environment();
    if (!pick)
        pick = toi_kernels_for(TOI_BACKEND_AUTO);
    /* Keep a table another thread stored meanwhile (toi_set_backend wins over the default). */
    if (!atomic_compare_exchange_strong_explicit(&active, &k, pick, memory_order_acq_rel,
                                                 memory_order_acquire))
        return k;
    return pick;
}

toi_backend toi_get_backend(void)
{
    return toi_active_kernels()->id;
}

int toi_set_backend(toi_backend b)
{
    const toi_kernels *k = toi_kernels_for(b);
    if (!k)
        return TOI_ENOTSUP;
    atomic_store_explicit(&active, k, memory_order_release);
    return TOI_OK;
}

int toi_backend_available(toi_backend b)
{
    return b != TOI_BACKEND_AUTO && toi_kernels_for(b) != NULL;
}

const char *toi_backend_name(toi_backend b)
{
    switch (b) {
    case TOI_BACKEND_AUTO: return "auto";
    case TOI_BACKEND_SCALAR: return "scalar";
    case TOI_BACKEND_SSE: return "sse";
    case TOI_BACKEND_AVX2: return "avx2";
    case TOI_BACKEND_NEON: return "neon";
    case TOI_BACKEND_AVX512: return "avx512";
    }
    return "unknown";
}

void toi_note_backend(toi_backend b)
{
    last_backend = b;
}

toi_backend toi_last_backend(void)
{
    return last_backend;
}
