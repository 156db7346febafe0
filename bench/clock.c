/* clock.c - what every benchmark program needs: a monotonic clock and float arrays */
#define _POSIX_C_SOURCE 200809L
#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

float *bench_falloc(size_t n)
{
    float *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) {
        fprintf(stderr, "toi benchmark: out of memory\n");
        exit(2);
    }
    return p;
}
