/* floor.c - the memory-bandwidth floor: stream exactly the bytes a query batch reads and
   writes, with no arithmetic to speak of, so a kernel's time can be set against it */
#include "bench.h"

#include <string.h>

/* Each array is streamed once, on its own, in the way hardware streams fastest: reads folded
   into a few independent xor accumulators (vectorised by the compiler), writes as plain
   stores (not memset, whose non-temporal stores for large arrays would skip the
   read-for-ownership every ordinary store pays, the kernels' included). */
static uint32_t read_stream(const unsigned char *p, size_t bytes)
{
    const uint32_t *src = (const uint32_t *)(const void *)p; /* arrays are 64-byte aligned */
    size_t n = bytes / 4;
    uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a0 ^= src[i], a1 ^= src[i + 1], a2 ^= src[i + 2], a3 ^= src[i + 3];
    }
    for (; i < n; i++)
        a0 ^= src[i];
    for (size_t k = 4 * n; k < bytes; k++)
        a1 ^= p[k];
    return (a0 ^ a1) ^ (a2 ^ a3);
}

static void write_stream(unsigned char *p, size_t bytes, uint32_t v)
{
    uint32_t *dst = (uint32_t *)(void *)p;
    size_t n = bytes / 4;
    for (size_t i = 0; i < n; i++)
        dst[i] = v;
    for (size_t k = 4 * n; k < bytes; k++)
        p[k] = (unsigned char)v;
}

void floor_stream(const bench_stream *in, size_t nin, const bench_stream *out, size_t nout)
{
    uint32_t acc = 0;
    for (size_t k = 0; k < nin; k++)
        acc ^= read_stream(in[k].p, in[k].bytes);
    /* the value written depends on every read, so no read can be optimised away */
    for (size_t k = 0; k < nout; k++)
        write_stream(out[k].p, out[k].bytes, acc | 1u);
}
