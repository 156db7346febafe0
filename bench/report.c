/* report.c - prints each measurement as it is taken (with speedup over the scalar backend
   and the ratio to the bandwidth floor of the same case), writes the CSV, and sums the run
   up against the issue-10 targets (and issues 3 and 4: the scalar reference against the
   textbook peer) */
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

static double med(const report *r, bench_query q, int full, size_t n, const char *impl)
{
    const measurement *m = find(r, q, full, n, impl);
    return m ? m->med : 0.0;
}

static double ratio(double a, double b)
{
    return a > 0.0 && b > 0.0 ? a / b : 0.0;
}

static void cell(char *buf, size_t len, const char *fmt, double v)
{
    if (v > 0.0)
        snprintf(buf, len, fmt, v);
    else
        snprintf(buf, len, "-");
}

/* One table row: query, backend, target, measured (fmt of value), the ratios of the peers'
   time to this one's (0: not measured), met (value against limit; upper: value <= limit). */
static void row(const row_out *o, const char *query, const char *backend, const char *target,
                const char *fmt, double value, double limit, int upper, double xs, double xt,
                double xb)
{
    char measured[64], met[32], cs[24], ct[24], cb[24];
    if (value > 0.0) {
        snprintf(measured, sizeof measured, fmt, value);
        if (o->emulated)
            snprintf(met, sizeof met, "n/a (emulated)");
        else if (limit <= 0.0)
            snprintf(met, sizeof met, "-");
        else
            snprintf(met, sizeof met, "%s", (upper ? value <= limit : value >= limit)
                                                ? "yes"
                                                : "**no**");
    } else {
        snprintf(measured, sizeof measured, "not measured");
        snprintf(met, sizeof met, "-");
    }
    cell(cs, sizeof cs, "%.1fx", xs);
    cell(ct, sizeof ct, "%.1fx", xt);
    cell(cb, sizeof cb, "%.0fx", xb);
    for (int k = 0; k < 2; k++)
        if (o->f[k])
            fprintf(o->f[k], "| %s | %s | %s | %s | %s | %s | %s | %s |\n", query, backend,
                    target, measured, cs, ct, cb, met);
}

/* The issue-10 targets for the avx2 and avx512 backends (each where this CPU has it), with
   each figure's ratio to the scalar reference, the textbook peer and Bullet of the same run
   (their time / this time). */
void report_targets(const report *r, const char *md_path)
{
    /* DRAM: a batch far beyond any last-level cache, or the row is not measured */
    size_t nc = nearest(r, 8192), nd = largest(r) >= ((size_t)1 << 20) ? largest(r) : 0;
    size_t n8 = nearest(r, 8);
    row_out o = {{stdout, NULL}, r->label != NULL};
    if (md_path) {
        o.f[1] = fopen(md_path, "w");
        if (!o.f[1])
            perror(md_path);
    }
    char dram[48] = "not measured";
    if (nd)
        snprintf(dram, sizeof dram, "batch %zu", nd);
    for (int k = 0; k < 2; k++) {
        if (!o.f[k])
            continue;
        fprintf(o.f[k], "%sIssue-10 targets (medians; in cache = batch %zu, DRAM = %s; x scalar, "
                        "x textbook, x Bullet: their time over this one, same run)%s%s\n\n",
                k ? "" : "\n", nc, dram, r->label ? "; " : "", r->label ? r->label : "");
        fprintf(o.f[k], "| query | backend | target | measured | x scalar | x textbook | "
                        "x Bullet | met |\n|---|---|---|---|---|---|---|---|\n");
    }
    static const struct {
        toi_backend b;
        const char *name;
    } be[2] = {{TOI_BACKEND_AVX2, "avx2"}, {TOI_BACKEND_AVX512, "avx512"}};
    char q[160], t[96];
    for (int bi = 0; bi < 2; bi++) {
        if (!toi_backend_available(be[bi].b))
            continue;
        const char *b = be[bi].name;
        int w = bi == 1; /* avx512's goals */
        for (int full = 1; full >= 0; full--) {
            double v = med(r, Q_SPHERES, full, nc, b);
            snprintf(q, sizeof q, "sphere-sphere, %s, in cache", full ? "all outputs" : "t only");
            double goal = full ? (w ? 1.0 : 1.8) : (w ? 0.5 : 0.9);
            snprintf(t, sizeof t, "<= %.1f ns/pair%s", goal,
                     full && w ? " (>= 8x textbook, >= 350x Bullet)" : "");
            row(&o, q, b, t, "%.2f ns", v, goal, 1,
                ratio(med(r, Q_SPHERES, full, nc, "scalar"), v),
                ratio(med(r, Q_SPHERES, full, nc, "textbook"), v),
                ratio(med(r, Q_SPHERES, full, nc, "bullet"), v));
        }
        for (int full = 1; full >= 0; full--) {
            double v = med(r, Q_PAIRS, full, nc, b);
            snprintf(q, sizeof q, "pair list (random indices, bodies in cache), %s",
                     full ? "all outputs" : "t only");
            row(&o, q, b, "<= 2x contiguous pairs", "%.2fx",
                ratio(v, med(r, Q_SPHERES, full, nc, b)), 2.0, 1,
                ratio(med(r, Q_PAIRS, full, nc, "scalar"), v),
                ratio(med(r, Q_PAIRS, full, nc, "textbook"), v), 0.0);
        }
        {
            double v = med(r, Q_PLANE, 1, nc, b), goal = w ? 0.4 : 0.6;
            snprintf(t, sizeof t, "<= %.1f ns/sphere", goal);
            row(&o, "sphere-plane, all outputs, in cache", b, t, "%.2f ns", v, goal, 1,
                ratio(med(r, Q_PLANE, 1, nc, "scalar"), v),
                ratio(med(r, Q_PLANE, 1, nc, "textbook"), v), 0.0);
        }
        for (int far = 0; far < 2; far++) {
            bench_query sq = far ? Q_TRI_FAR : Q_TRI_NEAR;
            double vq = med(r, sq, 0, nc, b), v = vq / SET_TRIS;
            double goal = far ? (w ? 2.0 : 3.0) : (w ? 3.5 : 6.0);
            snprintf(q, sizeof q, "triangle set, 64 %s, t only, in cache",
                     far ? "mostly distant" : "near");
            snprintf(t, sizeof t, "<= %.1f ns per triangle", goal);
            row(&o, q, b, t, "%.2f ns", v, goal, 1, ratio(med(r, sq, 0, nc, "scalar"), vq),
                ratio(med(r, sq, 0, nc, "textbook"), vq), ratio(med(r, sq, 0, nc, "bullet"), vq));
        }
        for (int full = 1; full >= 0; full--) {
            snprintf(q, sizeof q, "batch of %zu through the API (sphere-sphere, %s)", n8,
                     full ? "all outputs" : "t only");
            snprintf(t, sizeof t, "<= 2x per query of a batch of %zu", nc);
            row(&o, q, b, t, "%.2fx",
                ratio(med(r, Q_SPHERES, full, n8, b), med(r, Q_SPHERES, full, nc, b)), 2.0, 1,
                0.0, 0.0, 0.0);
        }
        for (int full = 1; full >= 0; full--) {
            const measurement *fl = find(r, Q_SPHERES, full, nd, "floor");
            snprintf(q, sizeof q, "sphere-sphere, %s, batch in DRAM",
                     full ? "all outputs" : "t only");
            snprintf(t, sizeof t, "<= 1.25x floor (floor %.2f ns)", fl ? fl->med : 0.0);
            row(&o, q, b, t, "%.2fx", ratio(med(r, Q_SPHERES, full, nd, b), fl ? fl->med : 0.0),
                1.25, 1, 0.0, 0.0, 0.0);
        }
    }
    for (int i = 0; i < r->nthr; i++) {
        const thread_meas *m = &r->thr[i];
        toi_set_backend(TOI_BACKEND_AUTO);
        snprintf(q, sizeof q, "%s, %s, batch %zu split over %d threads",
                 m->q == Q_SPHERES ? "sphere-sphere" : query_is_set(m->q) ? bench_query_name[m->q]
                                                                          : "query",
                 m->full ? "all outputs" : "t only", m->n, m->nt);
        snprintf(t, sizeof t, ">= %.1fx one thread", m->nt == 2 ? 1.8 : 0.9 * m->nt);
        row(&o, q, toi_backend_name(toi_get_backend()), t, "%.2fx", ratio(m->one, m->split),
            m->nt == 2 ? 1.8 : 0.9 * m->nt, 0, 0.0, 0.0, 0.0);
    }
    /* issues 3 and 4: the scalar reference within 1.5x (spheres) / 1.2x (triangles) of the
       plain scalar peer */
    static const bench_query tq[4] = {Q_SPHERES, Q_TRI_PAIRS, Q_TRI_NEAR, Q_TRI_FAR};
    static const char *const tq_name[4] = {"sphere-sphere", "sphere-triangle pairs",
                                           "triangle set, 64 near",
                                           "triangle set, 64 mostly distant"};
    for (int k = 0; k < 4; k++)
        for (int full = 0; full < 2; full++) {
            snprintf(q, sizeof q, "scalar reference vs textbook (%s, %s, in cache)", tq_name[k],
                     full ? "all outputs" : "t only");
            row(&o, q, "scalar", k ? "<= 1.2x textbook time" : "<= 1.5x textbook time", "%.2fx",
                ratio(med(r, tq[k], full, nc, "scalar"), med(r, tq[k], full, nc, "textbook")),
                k ? 1.2 : 1.5, 1, 0.0, 0.0, 0.0);
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
