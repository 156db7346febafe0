/* report.c - prints each measurement as it is taken (with speedup over the scalar backend
   and the ratio to the bandwidth floor of the same case), writes the CSV, and sums the run
   up against the issue-4 targets (and issue 3's scalar-reference ratio for triangles) */
#include "report.h"

#include <stdlib.h>
#include <string.h>

static const char *const out_name[2] = {"t", "all"};

void report_open(report *r, const char *csv_path, const char *label)
{
    memset(r, 0, sizeof *r);
    r->label = label;
    if (csv_path) {
        r->csv = fopen(csv_path, "w");
        if (!r->csv) {
            perror(csv_path);
            exit(1);
        }
        fprintf(r->csv, "label,query,output,n,impl,bytes_per_query,median_ns,min_ns,"
                        "mqueries_per_s,speedup_vs_scalar,x_floor,mismatches,hit_agreement,"
                        "index_agreement\n");
    }
}

void report_banner(const report *r)
{
    toi_set_backend(TOI_BACKEND_AUTO);
    printf("toi %s benchmark; backends:", toi_version());
    for (int b = TOI_BACKEND_SCALAR; b <= TOI_BACKEND_AVX512; b++)
        if (toi_backend_available((toi_backend)b))
            printf(" %s", toi_backend_name((toi_backend)b));
    printf(" (auto: %s)\n", toi_backend_name(toi_get_backend()));
    if (r->label)
        printf("*** %s: these figures are NOT performance figures ***\n", r->label);
    printf("ns per query, median and min over repetitions; x scalar = speedup over the scalar\n"
           "backend (medians); x floor = median / median of streaming the same bytes\n"
           "(1.00 = at the memory-bandwidth floor); bytes/q = input read + output written.\n"
           "Set queries (set-near, set-far): per sphere, i.e. per 64 sphere-triangle tests.\n");
}

void report_scene(const report *r, const bench_scene *sc, size_t n, const float *t,
                  const float *depth)
{
    (void)r;
    size_t hits = 0, zero = 0;
    for (size_t i = 0; i < sc->pool; i++) {
        hits += t[i] <= 1.0f;
        zero += t[i] == 0.0f && depth[i] > 0.0f;
    }
    printf("\n%s, batch %zu (scene of %zu queries, cut in batches run in turn): %.1f%% hit, "
           "%.1f%% overlapping at t = 0\n",
           bench_query_name[sc->q], n, sc->pool, 100.0 * (double)hits / (double)sc->pool,
           100.0 * (double)zero / (double)sc->pool);
    printf("%-8s %-3s %8s %-9s %7s %9s %9s %9s %9s %8s  %s\n", "query", "out", "n", "impl",
           "bytes/q", "med ns/q", "min ns/q", "Mq/s", "x scalar", "x floor", "check");
}

static const measurement *find(const report *r, bench_query q, int full, size_t n,
                               const char *impl)
{
    for (size_t i = 0; i < r->count; i++) {
        const measurement *m = &r->m[i];
        if (m->q == q && m->full == full && m->n == n && !strcmp(m->impl, impl))
            return m;
    }
    return NULL;
}

void report_add(report *r, const measurement *m)
{
    if (r->count == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        r->m = realloc(r->m, r->cap * sizeof *r->m);
        if (!r->m)
            exit(1);
    }
    r->m[r->count++] = *m;
    const measurement *scalar = find(r, m->q, m->full, m->n, "scalar");
    const measurement *fl = find(r, m->q, m->full, m->n, "floor");
    int is_floor = !strcmp(m->impl, "floor");
    char sp[16] = "-", xf[16] = "-", chk[64] = "-";
    double speedup = scalar ? scalar->med / m->med : 0.0;
    double xfloor = fl ? m->med / fl->med : 0.0;
    if (scalar && !is_floor)
        snprintf(sp, sizeof sp, "%.2f", speedup);
    if (fl)
        snprintf(xf, sizeof xf, "%.2f", xfloor);
    if (!is_floor && !m->peer) {
        if (m->mismatches) {
            snprintf(chk, sizeof chk, "MISMATCH %zu", m->mismatches);
            r->failures++;
        } else {
            snprintf(chk, sizeof chk, "bit-exact");
        }
        if (m->dirty_upper) {
            size_t len = strlen(chk);
            snprintf(chk + len, sizeof chk - len, "; returns with YMM upper dirty");
            r->dirty++;
        }
    } else if (m->peer) {
        if (m->index_agree >= 0.0)
            snprintf(chk, sizeof chk, "hit/miss agree %.2f%%, index %.2f%%", 100.0 * m->agree,
                     100.0 * m->index_agree);
        else
            snprintf(chk, sizeof chk, "hit/miss agree %.2f%%", 100.0 * m->agree);
    }
    printf("%-8s %-3s %8zu %-9s %7zu %9.3f %9.3f %9.1f %9s %8s  %s\n",
           bench_query_name[m->q], out_name[m->full], m->n, m->impl, m->bytes, m->med, m->min,
           1e3 / m->med, sp, xf, chk);
    fflush(stdout);
    if (r->csv)
        fprintf(r->csv, "%s,%s,%s,%zu,%s,%zu,%.4f,%.4f,%.2f,%.3f,%.3f,%zu,%.5f,%.5f\n",
                r->label ? r->label : "native", bench_query_name[m->q], out_name[m->full],
                m->n, m->impl, m->bytes, m->med, m->min, 1e3 / m->med,
                is_floor || !scalar ? 0.0 : speedup, xfloor, m->mismatches,
                is_floor ? 1.0 : m->agree,
                m->peer && m->index_agree >= 0.0 ? m->index_agree : 1.0);
}

void report_threads(report *r, bench_query q, int full, size_t n, int nt, double one,
                    double split)
{
    if (r->nthr < (int)(sizeof r->thr / sizeof r->thr[0]))
        r->thr[r->nthr++] = (thread_meas){q, full, nt, n, one, split};
}

/* ---- the target table ---- */

/* The measured size nearest `want` (the run's sizes are configurable). */
static size_t nearest(const report *r, size_t want)
{
    size_t best = 0;
    for (size_t i = 0; i < r->count; i++) {
        size_t n = r->m[i].n;
        double d = n > want ? (double)n / (double)want : (double)want / (double)n;
        double db = best == 0 ? 1e300
                    : best > want ? (double)best / (double)want
                                  : (double)want / (double)best;
        if (d < db)
            best = n;
    }
    return best;
}

static size_t largest(const report *r)
{
    size_t best = 0;
    for (size_t i = 0; i < r->count; i++)
        if (r->m[i].n > best)
            best = r->m[i].n;
    return best;
}

typedef struct row_out {
    FILE *f[2];
    int emulated;
} row_out;

static void row(const row_out *o, const char *query, const char *target, const char *fmt,
                double value, double limit, int upper)
{
    char measured[64], met[32];
    if (value > 0.0) {
        snprintf(measured, sizeof measured, fmt, value);
        if (o->emulated)
            snprintf(met, sizeof met, "n/a (emulated)");
        else
            snprintf(met, sizeof met, "%s", (upper ? value <= limit : value >= limit)
                                                ? "yes"
                                                : "**no**");
    } else {
        snprintf(measured, sizeof measured, "not measured");
        snprintf(met, sizeof met, "-");
    }
    for (int k = 0; k < 2; k++)
        if (o->f[k])
            fprintf(o->f[k], "| %s | %s | %s | %s |\n", query, target, measured, met);
}

static double med(const report *r, bench_query q, int full, size_t n, const char *impl)
{
    const measurement *m = find(r, q, full, n, impl);
    return m ? m->med : 0.0;
}

static double ratio(double a, double b)
{
    return a > 0.0 && b > 0.0 ? a / b : 0.0;
}

void report_targets(const report *r, const char *md_path)
{
    toi_set_backend(TOI_BACKEND_AUTO);
    const char *best = toi_backend_name(toi_get_backend());
    /* DRAM: a batch far beyond any last-level cache, or the row is not measured */
    size_t nc = nearest(r, 8192), nd = largest(r) >= ((size_t)1 << 20) ? largest(r) : 0;
    size_t n8 = nearest(r, 8);
    row_out o = {{stdout, NULL}, r->label != NULL};
    if (md_path) {
        o.f[1] = fopen(md_path, "w");
        if (!o.f[1])
            perror(md_path);
    }
    char q[160], t[96];
    for (int k = 0; k < 2; k++) {
        if (!o.f[k])
            continue;
        char dram[48] = "not measured";
        if (nd)
            snprintf(dram, sizeof dram, "batch %zu", nd);
        fprintf(o.f[k], "%sIssue-4 targets, backend %s (medians; in cache = batch %zu, DRAM = "
                        "%s)%s%s\n\n",
                k ? "" : "\n", best, nc, dram, r->label ? "; " : "", r->label ? r->label : "");
        fprintf(o.f[k], "| query | target | measured | met |\n|---|---|---|---|\n");
    }
    double ss_all = med(r, Q_SPHERES, 1, nc, best), ss_t = med(r, Q_SPHERES, 0, nc, best);
    row(&o, "sphere-sphere, all outputs, in cache", "<= 1.5 ns/pair", "%.2f ns", ss_all, 1.5, 1);
    row(&o, "", ">= 8x scalar reference", "%.1fx",
        ratio(med(r, Q_SPHERES, 1, nc, "scalar"), ss_all), 8.0, 0);
    row(&o, "", ">= 250x Bullet", "%.0fx", ratio(med(r, Q_SPHERES, 1, nc, "bullet"), ss_all),
        250.0, 0);
    row(&o, "sphere-sphere, t only, in cache", "<= 0.6 ns/pair", "%.2f ns", ss_t, 0.6, 1);
    for (int full = 0; full < 2; full++) {
        const measurement *fl = find(r, Q_SPHERES, full, nd, "floor");
        snprintf(q, sizeof q, "sphere-sphere, %s, batch in DRAM", full ? "all outputs" : "t only");
        snprintf(t, sizeof t, "<= 1.25x floor (floor %.2f ns)", fl ? fl->med : 0.0);
        row(&o, q, t, "%.2fx", ratio(med(r, Q_SPHERES, full, nd, best), fl ? fl->med : 0.0),
            1.25, 1);
    }
    for (int full = 0; full < 2; full++) {
        snprintf(q, sizeof q, "indexed pair list, %s, random indices, in cache",
                 full ? "all outputs" : "t only");
        row(&o, q, "<= 2x contiguous pairs", "%.2fx",
            ratio(med(r, Q_PAIRS, full, nc, best), med(r, Q_SPHERES, full, nc, best)), 2.0, 1);
    }
    row(&o, "sphere-plane, all outputs, in cache", "<= 0.5 ns/sphere", "%.2f ns",
        med(r, Q_PLANE, 1, nc, best), 0.5, 1);
    for (int full = 0; full < 2; full++) {
        snprintf(q, sizeof q, "triangle set, 64 near, %s, in cache", full ? "all outputs" : "t only");
        row(&o, q, "<= 6 ns per triangle", "%.2f ns", med(r, Q_TRI_NEAR, full, nc, best) / SET_TRIS,
            6.0, 1);
        snprintf(q, sizeof q, "triangle set, 64 mostly distant, %s, in cache",
                 full ? "all outputs" : "t only");
        row(&o, q, "<= 3 ns per triangle", "%.2f ns", med(r, Q_TRI_FAR, full, nc, best) / SET_TRIS,
            3.0, 1);
    }
    for (int full = 0; full < 2; full++) {
        snprintf(q, sizeof q, "batch of %zu through the API (sphere-sphere, %s)", n8,
                 full ? "all outputs" : "t only");
        snprintf(t, sizeof t, "<= 2x per query of a batch of %zu", nc);
        row(&o, q, t, "%.2fx",
            ratio(med(r, Q_SPHERES, full, n8, best), med(r, Q_SPHERES, full, nc, best)), 2.0,
            1);
    }
    for (int full = 0; full < 2; full++) {
        snprintf(q, sizeof q, "scalar reference vs textbook AoS (sphere-sphere, %s, in cache)",
                 full ? "all outputs" : "t only");
        row(&o, q, "<= 1.5x textbook time", "%.2fx",
            ratio(med(r, Q_SPHERES, full, nc, "scalar"), med(r, Q_SPHERES, full, nc, "textbook")),
            1.5, 1);
    }
    /* issue 3 (triangles): the scalar reference within 1.2x of a plain scalar sweep */
    static const bench_query tq[3] = {Q_TRI_PAIRS, Q_TRI_NEAR, Q_TRI_FAR};
    static const char *const tq_name[3] = {"sphere-triangle pairs", "triangle set, 64 near",
                                           "triangle set, 64 mostly distant"};
    for (int k = 0; k < 3; k++)
        for (int full = 0; full < 2; full++) {
            snprintf(q, sizeof q, "scalar reference vs textbook AoS (%s, %s, in cache; issue 3)",
                     tq_name[k], full ? "all outputs" : "t only");
            row(&o, q, "<= 1.2x textbook time", "%.2fx",
                ratio(med(r, tq[k], full, nc, "scalar"), med(r, tq[k], full, nc, "textbook")),
                1.2, 1);
        }
    if (o.f[1])
        fclose(o.f[1]);
}

int report_close(report *r)
{
    if (r->csv)
        fclose(r->csv);
    if (r->failures)
        printf("\n%zu case(s) NOT bit-identical to the scalar reference\n", r->failures);
    if (r->dirty)
        printf("\n%zu case(s) where a backend returned with the AVX upper halves in use (no\n"
               "vzeroupper): non-VEX code after it runs slower; the benchmark clears them\n"
               "between implementations\n", r->dirty);
    free(r->m);
    return r->failures != 0;
}
