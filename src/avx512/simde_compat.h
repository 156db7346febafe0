/* avx512/simde_compat.h - AVX-512F intrinsics the avx512 layer uses that Debian 12's SIMDe
   (0.7.4) lacks, for the x86 test build of the avx512 kernels through SIMDe only
   (TOI_AVX512_SIMDE). Each is what the instruction computes, lane by lane: exact conversions
   (and the one rounding of a double to float, to nearest as the instruction does by default),
   and masked loads and stores that touch only the lanes of their mask. */
#ifndef TOI_AVX512_SIMDE_COMPAT_H
#define TOI_AVX512_SIMDE_COMPAT_H

#include <stdint.h>
#include <string.h>

/* SIMDe's SVML part includes <complex.h>, whose I the kernels use as a name */
#undef I

static inline void toi_simde_mm256_zeroupper(void) {}

/* name(a): the n lanes of a (type Tin, stored as from_t by store) converted to to_t one by
   one, loaded back as Tout */
#define TOI_SIMDE_CONVERT(name, Tout, Tin, n, from_t, to_t, store, load)                      \
    static inline Tout name(Tin a)                                                          \
    {                                                                                       \
        from_t x[n];                                                                        \
        to_t y[n];                                                                          \
        store((void *)x, a);                                                                \
        for (int i = 0; i < n; i++)                                                         \
            y[i] = (to_t)x[i];                                                              \
        return load((const void *)y);                                                       \
    }
TOI_SIMDE_CONVERT(toi_simde_mm512_cvtepi32_ps, simde__m512, simde__m512i, 16, int32_t, float,
                  simde_mm512_storeu_si512, simde_mm512_loadu_ps)
TOI_SIMDE_CONVERT(toi_simde_mm512_cvtepu8_epi32, simde__m512i, simde__m128i, 16, uint8_t,
                  int32_t, simde_mm_storeu_si128, simde_mm512_loadu_si512)
TOI_SIMDE_CONVERT(toi_simde_mm512_cvtpd_ps, simde__m256, simde__m512d, 8, double, float,
                  simde_mm512_storeu_pd, simde_mm256_loadu_ps)
TOI_SIMDE_CONVERT(toi_simde_mm512_cvtps_pd, simde__m512d, simde__m256, 8, float, double,
                  simde_mm256_storeu_ps, simde_mm512_loadu_pd)

static inline void toi_simde_mm512_mask_storeu_ps(void *p, simde__mmask16 k, simde__m512 a)
{
    float x[16];
    simde_mm512_storeu_ps(x, a);
    for (int i = 0; i < 16; i++)
        if ((k >> i) & 1)
            memcpy((char *)p + 4 * i, &x[i], 4);
}

static inline simde__m512 toi_simde_mm512_maskz_loadu_ps(simde__mmask16 k, const void *p)
{
    float x[16] = {0};
    for (int i = 0; i < 16; i++)
        if ((k >> i) & 1)
            memcpy(&x[i], (const char *)p + 4 * i, 4);
    return simde_mm512_loadu_ps(x);
}

#define _mm256_zeroupper toi_simde_mm256_zeroupper
#define _mm512_cvtepi32_ps toi_simde_mm512_cvtepi32_ps
#define _mm512_cvtepu8_epi32 toi_simde_mm512_cvtepu8_epi32
#define _mm512_cvtpd_ps toi_simde_mm512_cvtpd_ps
#define _mm512_cvtps_pd toi_simde_mm512_cvtps_pd
#define _mm512_mask_storeu_ps toi_simde_mm512_mask_storeu_ps
#define _mm512_maskz_loadu_ps toi_simde_mm512_maskz_loadu_ps

#endif
