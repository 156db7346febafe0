/* clock.c - what every benchmark program needs: a monotonic clock and float arrays */
#define _POSIX_C_SOURCE 200809L
#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int bench_options(int argc, char **argv, const char *prog, int *quick, const char **targets)
{
    *quick = 0, *targets = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            *quick = 1;
        else if (!strcmp(argv[i], "--targets") && i + 1 < argc)
            *targets = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--quick] [--targets FILE.md]\n", prog);
            return 2;
        }
    }
    return 0;
}

FILE *bench_targets_open(const char *path, const char *title)
{
    if (!path)
        return NULL;
    FILE *md = fopen(path, "a");
    if (!md) {
        fprintf(stderr, "toi benchmark: cannot write %s\n", path);
        exit(2);
    }
    fprintf(md, "\n%s\n\n| query | backend | target | measured | met |\n|---|---|---|---|---|\n",
            title);
    return md;
}

void bench_target(FILE *md, const char *what, const char *backend, const char *goal,
                  double measured, const char *unit, int met)
{
    if (md)
        fprintf(md, "| %s | %s | %s | %.2f %s | %s |\n", what, backend, goal, measured, unit,
                met ? "yes" : "**no**");
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
