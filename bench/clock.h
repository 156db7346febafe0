/* clock.h - what every benchmark program needs (clock.c): a monotonic clock, float arrays,
   target tables */
#ifndef TOI_BENCH_CLOCK_H
#define TOI_BENCH_CLOCK_H

#include <stddef.h>
#include <stdio.h>

double bench_now_ns(void);     /* CLOCK_MONOTONIC, in ns */
float *bench_falloc(size_t n); /* n floats (malloc); exits when out of memory */

/* The options of toi_bench_capsules and toi_bench_boxes: [--quick] [--targets FILE.md] into
   *quick and *targets; 0, or 2 after printing the usage of prog. */
int bench_options(int argc, char **argv, const char *prog, int *quick, const char **targets);

/* An issue's target table, appended to the markdown file a program is given with --targets
   (`make bench`: targets.md, after toi_bench's issue-10 table): bench_targets_open opens it
   (path NULL: no table, and the rows are dropped) and writes the title and header;
   bench_target adds a row: the measured figure and whether it meets the goal. */
FILE *bench_targets_open(const char *path, const char *title);
void bench_target(FILE *md, const char *what, const char *backend, const char *goal,
                  double measured, const char *unit, int met);

#endif
