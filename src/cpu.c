/* cpu.c - which backends this CPU can run: cpuid and xgetbv on x86-64, the auxiliary vector
   on aarch64 Linux. Built for the baseline CPU, like everything outside src/<isa>/. */
#include "internal.h"

#if defined(TOI_HAVE_X86)
#include <cpuid.h>

/* XCR0: which register state the OS saves on a context switch (needs OSXSAVE). */
static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

unsigned toi_cpu_backends(void)
{
    unsigned set = 1u << TOI_BACKEND_SCALAR;
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return set;
    int sse41 = (c >> 19) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    if (sse41)
        set |= 1u << TOI_BACKEND_SSE;
    if (!avx || !osxsave || !__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return set;
    uint64_t xcr0 = read_xcr0();
    /* AVX2 needs the CPU feature and the OS saving XMM and YMM state (XCR0 bits 1 and 2). */
    int avx2 = (b >> 5) & 1 && (xcr0 & 0x6) == 0x6;
    if (avx2)
        set |= 1u << TOI_BACKEND_AVX2;
    /* AVX-512F (leaf 7 EBX bit 16) needs, besides, the opmask registers, the upper halves of
       ZMM0-15 and ZMM16-31 saved (XCR0 bits 5, 6, 7). The compiler may also emit AVX2 in
       the avx512 files, so AVX2 is required too (every AVX-512 CPU has it). */
    if (avx2 && (b >> 16) & 1 && (xcr0 & 0xe6) == 0xe6)
        set |= 1u << TOI_BACKEND_AVX512;
    return set;
}

#elif defined(TOI_HAVE_NEON)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif

unsigned toi_cpu_backends(void)
{
    unsigned set = 1u << TOI_BACKEND_SCALAR;
    if (getauxval(AT_HWCAP) & HWCAP_ASIMD)
        set |= 1u << TOI_BACKEND_NEON;
    return set;
}

#else
unsigned toi_cpu_backends(void)
{
    return 1u << TOI_BACKEND_SCALAR;
}
#endif
