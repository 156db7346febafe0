/* clock.h - what every benchmark program needs (clock.c): a monotonic clock, float arrays */
#ifndef TOI_BENCH_CLOCK_H
#define TOI_BENCH_CLOCK_H

#include <stddef.h>

double bench_now_ns(void);     /* CLOCK_MONOTONIC, in ns */
float *bench_falloc(size_t n); /* n floats (malloc); exits when out of memory */

#endif
