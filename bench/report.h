/* report.h - the benchmark's output: table rows on stdout, CSV, and the issue-10 target table */
#ifndef TOI_BENCH_REPORT_H
#define TOI_BENCH_REPORT_H

#include "bench.h"

#include <stdio.h>

typedef struct measurement {
    bench_query q;
    int full;
    size_t n;
    const char *impl; /* a backend's name, a peer's, or "floor" */
    int peer;
    size_t bytes;       /* bytes read and written per query */
    double med, min;    /* ns per query over the repetitions */
    size_t mismatches;  /* backends: queries not bit-identical to the scalar reference */
    double agree;       /* share of queries whose hit/miss matches the scalar reference */
    int dirty_upper;    /* a toi backend returned with the AVX upper halves in use */
    double index_agree; /* peers on set queries: share of the hits both report whose triangle
                           index matches the reference's (< 0: not applicable) */
} measurement;

/* One batch timed on one thread and split over nt (ns per query, medians). */
typedef struct thread_meas {
    bench_query q;
    int full, nt;
    size_t n;
    double one, split;
} thread_meas;

typedef struct report {
    FILE *csv;
    const char *label; /* non-NULL: figures are labelled with it (emulation) */
    measurement *m;
    size_t count, cap;
    size_t failures;
    size_t dirty; /* cases whose backend left the AVX upper halves in use */
    thread_meas thr[8];
    int nthr;
} report;

void report_open(report *r, const char *csv_path, const char *label);
void report_banner(const report *r);
void report_scene(const report *r, const bench_scene *sc, size_t n, const float *t,
                  const float *depth);
void report_add(report *r, const measurement *m);
void report_threads(report *r, bench_query q, int full, size_t n, int nt, double one,
                    double split);
void report_targets(const report *r, const char *md_path);
int report_close(report *r); /* nonzero when a backend was not bit-identical */

#endif /* TOI_BENCH_REPORT_H */
