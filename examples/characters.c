/* characters.c - the character example: a few thousand capsule characters walking over a
   real terrain (or any STL / OBJ model) with sweep and slide, every contact found by one
   batched toi_sweep_capsules_mesh call per pass; checks that no character ever sinks into the
   surface, and draws their tracks over the shaded terrain as a PNG */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#endif
#include "image.h"
#include "walk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRACK_EVERY 4 /* steps between the points of a drawn track */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(const char *argv0)
{
    walk_params d = walk_default_params();
    fprintf(stderr,
            "usage: %s -m model [-n characters] [-t steps] [-s size] [-v speed] [-r radius]\n"
            "          [-i iterations] [-o out.png]\n"
            "Capsule characters (radius %g, %g tall) walking at %g m/s over a model read from\n"
            "an STL, OBJ or Terragen (.ter) file, scaled to `size` metres across (z up), in\n"
            "steps of %g s with gravity %g. Defaults: -n %zu -t 600 -s %g -i %d\n"
            "-o characters.png. TOI_BACKEND=scalar|sse|avx2|avx512|neon forces a backend.\n",
            argv0, (double)d.radius, (double)d.height, (double)d.speed, (double)d.dt,
            (double)d.gravity, d.n, (double)d.size, d.iterations);
    exit(2);
}

/* ---- drawing: the view from above ---- */

static void px_of(const walk *w, const image *im, float x, float y, float *px, float *py)
{
    float s = (float)im->w / (w->hi[0] > w->hi[1] ? w->hi[0] : w->hi[1]);
    *px = x * s;
    *py = (float)im->h - y * s;
}

static void blend(image *im, int x, int y, const float c[3], float a)
{
    if (x < 0 || y < 0 || x >= im->w || y >= im->h)
        return;
    float *q = im->rgb + 3 * ((size_t)y * im->w + x);
    for (int k = 0; k < 3; k++)
        q[k] = q[k] * (1.0f - a) + c[k] * a;
}

/* Each triangle filled with its colour: height from green to brown, lit from the north-west. */
static void draw_terrain(image *im, const walk *w)
{
    const float L[3] = {-0.4082f, 0.4082f, 0.8165f};
    for (size_t j = 0; j < w->ntris; j++) {
        float v[9];
        for (int k = 0; k < 9; k++)
            v[k] = w->tf[k][j];
        float e1[3] = {v[3] - v[0], v[4] - v[1], v[5] - v[2]};
        float e2[3] = {v[6] - v[0], v[7] - v[1], v[8] - v[2]};
        float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                      e1[0] * e2[1] - e1[1] * e2[0]};
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (!(len > 0.0f))
            continue;
        float lit = fabsf(n[0] * L[0] + n[1] * L[1] + n[2] * L[2]) / len;
        float h = ((v[2] + v[5] + v[8]) / 3 - w->lo[2]) / (w->hi[2] - w->lo[2] + 1e-6f);
        float c[3] = {(0.25f + 0.45f * h) * (0.3f + 0.7f * lit),
                      (0.45f + 0.05f * h) * (0.3f + 0.7f * lit),
                      (0.2f + 0.2f * h) * (0.3f + 0.7f * lit)};
        float P[3][2];
        for (int k = 0; k < 3; k++)
            px_of(w, im, v[3 * k], v[3 * k + 1], &P[k][0], &P[k][1]);
        int x0 = (int)floorf(fminf(P[0][0], fminf(P[1][0], P[2][0])));
        int x1 = (int)ceilf(fmaxf(P[0][0], fmaxf(P[1][0], P[2][0])));
        int y0 = (int)floorf(fminf(P[0][1], fminf(P[1][1], P[2][1])));
        int y1 = (int)ceilf(fmaxf(P[0][1], fmaxf(P[1][1], P[2][1])));
        float area = (P[1][0] - P[0][0]) * (P[2][1] - P[0][1]) -
                     (P[2][0] - P[0][0]) * (P[1][1] - P[0][1]);
        if (area == 0.0f)
            continue;
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                float qx = (float)x + 0.5f, qy = (float)y + 0.5f, in = 1;
                for (int k = 0; k < 3 && in; k++) {
                    const float *a = P[k], *b = P[(k + 1) % 3];
                    float e = (b[0] - a[0]) * (qy - a[1]) - (qx - a[0]) * (b[1] - a[1]);
                    in = e * area >= 0.0f;
                }
                if (in)
                    blend(im, x, y, c, 1.0f);
            }
    }
}

static void line(image *im, float ax, float ay, float bx, float by, const float c[3], float a)
{
    float dx = bx - ax, dy = by - ay;
    int steps = (int)(sqrtf(dx * dx + dy * dy) * 2.0f) + 1;
    for (int i = 0; i <= steps; i++) {
        float t = (float)i / (float)steps;
        blend(im, (int)(ax + t * dx), (int)(ay + t * dy), c, a);
    }
}

int main(int argc, char **argv)
{
    walk_params prm = walk_default_params();
    int nsteps = 600;
    const char *out = "characters.png";
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-' || argv[i][1] == '\0' || argv[i][2] != '\0' || i + 1 >= argc)
            usage(argv[0]);
        const char *v = argv[++i];
        switch (argv[i - 1][1]) {
        case 'n': prm.n = (size_t)strtoull(v, NULL, 10); break;
        case 't': nsteps = atoi(v); break;
        case 's': prm.size = strtof(v, NULL); break;
        case 'v': prm.speed = strtof(v, NULL); break;
        case 'r': prm.radius = strtof(v, NULL); break;
        case 'i': prm.iterations = atoi(v); break;
        case 'm': prm.model = v; break;
        case 'o': out = v; break;
        default: usage(argv[0]);
        }
    }
    if (!prm.model || prm.n < 1 || nsteps < 1 || prm.iterations < 1 || !(prm.size >= 0.0f) ||
        !(prm.speed >= 0.0f) || !(prm.radius > 0.0f && 2.0f * prm.radius < prm.height))
        usage(argv[0]);
    walk w;
    if (walk_init(&w, &prm))
        return 2;
    printf("toi %s characters, backend %s: %zu capsules (radius %g, %g tall) walking at %g m/s "
           "over %s (%zu triangles, %.0f x %.0f x %.0f m; a toi_mesh of %zu bytes), %d steps "
           "of %g s, up to %d sweep-and-slide passes a step\n",
           toi_version(), toi_backend_name(toi_get_backend()), prm.n, (double)prm.radius,
           (double)prm.height, (double)prm.speed, prm.model, w.ntris, (double)w.hi[0],
           (double)w.hi[1], (double)(w.hi[2] - w.lo[2]), toi_mesh_bytes(w.mesh), nsteps,
           (double)prm.dt, prm.iterations);
    int npts = nsteps / TRACK_EVERY + 1;
    float *track = malloc(sizeof(float) * 2 * prm.n * (size_t)npts);
    if (!track)
        return 2;
    double t_sweep = 0.0, climb = 0.0;
    size_t worst_overlaps = 0;
    float deepest = 0.0f;
    float *z0 = malloc(sizeof(float) * prm.n);
    if (!z0)
        return 2;
    memcpy(z0, w.z, sizeof(float) * prm.n);
    for (int step = 0; step <= nsteps; step++) {
        if (step % TRACK_EVERY == 0)
            for (size_t i = 0; i < prm.n; i++) {
                float *q = track + 2 * ((size_t)(step / TRACK_EVERY) * prm.n + i);
                q[0] = w.x[i], q[1] = w.y[i];
            }
        float d;
        size_t bad = walk_overlaps(&w, 0.5f * prm.skin, &d);
        worst_overlaps = bad > worst_overlaps ? bad : worst_overlaps;
        deepest = d > deepest ? d : deepest;
        if (step == nsteps)
            break;
        double t0 = now();
        walk_step(&w);
        t_sweep += now() - t0;
    }
    for (size_t i = 0; i < prm.n; i++)
        climb += fabs((double)(w.z[i] - z0[i]));
    double q = (double)w.queries;
    printf("sweep and slide: %.1f steps/s, %.2f M capsule-mesh queries/s (%.0f ns each; %.2f "
           "passes per character a step, %.0f%% of queries hit), %.1f box and %.1f triangle "
           "tests per query\n",
           nsteps / t_sweep, q / t_sweep * 1e-6, t_sweep / q * 1e9,
           q / ((double)nsteps * (double)prm.n), 100.0 * (double)w.hits / q,
           (double)w.cost.nv / q, (double)w.cost.np / q);
    printf("height change per character: mean %.1f m; overlapping the surface by more than "
           "%g m at any step: %zu characters (deepest overlap %.2g m)\n",
           climb / (double)prm.n, 0.5 * (double)prm.skin, worst_overlaps, (double)deepest);
    image im = {800, 800, NULL};
    im.h = (int)((float)im.w * w.hi[1] / (w.hi[0] > w.hi[1] ? w.hi[0] : w.hi[1]));
    im.rgb = calloc((size_t)im.w * (size_t)im.h * 3, sizeof(float));
    if (!im.rgb)
        return 2;
    draw_terrain(&im, &w);
    int drawn = nsteps / TRACK_EVERY + 1;
    for (size_t i = 0; i < prm.n; i++) {
        float hue = (float)i / (float)prm.n;
        float c[3] = {0.6f + 0.4f * sinf(6.283f * hue), 0.6f + 0.4f * sinf(6.283f * hue + 2.1f),
                      0.6f + 0.4f * sinf(6.283f * hue + 4.2f)};
        for (int s = 1; s < drawn; s++) {
            const float *a = track + 2 * ((size_t)(s - 1) * prm.n + i);
            const float *b = track + 2 * ((size_t)s * prm.n + i);
            float ax, ay, bx, by;
            px_of(&w, &im, a[0], a[1], &ax, &ay);
            px_of(&w, &im, b[0], b[1], &bx, &by);
            line(&im, ax, ay, bx, by, c, 0.35f);
        }
        float fx, fy;
        px_of(&w, &im, w.x[i], w.y[i], &fx, &fy);
        const float white[3] = {1, 1, 1};
        for (int k = 0; k < 4; k++)
            blend(&im, (int)fx + (k & 1), (int)fy + (k >> 1), white, 0.9f);
    }
    if (image_write_png(out, &im)) {
        fprintf(stderr, "cannot write %s\n", out);
        return 2;
    }
    printf("wrote %s\n", out);
    free(im.rgb);
    free(track);
    free(z0);
    walk_free(&w);
    return worst_overlaps ? 1 : 0;
}
