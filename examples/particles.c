/* particles.c - the particle example: fast spheres in a triangle-mesh container (or poured
   onto a model read from an STL or OBJ file), swept and responded with toi (none escapes)
   beside a discrete overlap test (many do), drawn as a PNG */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#endif
#include "image.h"
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NTRACK 6

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(const char *argv0)
{
    sim_params d = sim_default_params();
    fprintf(stderr,
            "usage: %s [-n particles] [-r radius] [-s speed] [-t steps] [-i iterations]\n"
            "          [-e restitution] [-f friction] [-d subdivisions] [-m model [-u x|y|z]]\n"
            "          [-o out.png]\n"
            "A container of radius 1 (an icosphere of 20*4^d triangles cut by a floor), gravity\n"
            "9.81, steps of %g s; or, with -m, particles poured onto the model of an STL or OBJ\n"
            "file (-u: its up axis, default z; scaled to 1.2 across, resting on the floor).\n"
            "Defaults: -n %zu -r %g -s %g -t 300\n"
            "-i %d -e %g -f %g -d %d -o particles.png. TOI_BACKEND=scalar|sse|avx2|avx512|neon\n"
            "forces a backend.\n",
            argv0, (double)d.dt, d.n, (double)d.radius, (double)d.speed, d.iterations,
            (double)d.restitution, (double)d.friction, d.subdiv);
    exit(2);
}

/* ---- drawing ---- */
typedef struct panel {
    int x0, size; /* a square of the image */
} panel;

static void to_px(const panel *p, float x, float z, float *px, float *py)
{
    const float span = 1.1f; /* world [-span, span] across the panel */
    *px = (float)p->x0 + (x + span) / (2.0f * span) * (float)p->size;
    *py = (1.0f - (z + span) / (2.0f * span)) * (float)p->size;
}

static void blend(image *im, const panel *p, int x, int y, const float c[3], float a)
{
    if (x < p->x0 || y < 0 || x >= p->x0 + p->size || y >= p->size || y >= im->h)
        return;
    float *q = im->rgb + 3 * ((size_t)y * im->w + x);
    for (int k = 0; k < 3; k++)
        q[k] = q[k] * (1.0f - a) + c[k] * a;
}

static void line(image *im, const panel *p, float x0, float z0, float x1, float z1,
                 const float c[3], float a)
{
    float ax, ay, bx, by;
    to_px(p, x0, z0, &ax, &ay);
    to_px(p, x1, z1, &bx, &by);
    float dx = bx - ax, dy = by - ay;
    float len = dx * dx + dy * dy > 1.0f ? sqrtf(dx * dx + dy * dy) : 1.0f;
    int steps = (int)(len * 2.0f) + 1;
    for (int i = 0; i <= steps; i++) {
        float t = (float)i / (float)steps;
        blend(im, p, (int)(ax + t * dx), (int)(ay + t * dy), c, a);
    }
}

/* The container as the viewer sees it in the slice y = 0: each triangle the slice crosses
   contributes one segment; and the floor. */
static void draw_container(image *im, const panel *p, const sim_mesh *m)
{
    const float wall[3] = {0.85f, 0.85f, 0.9f};
    for (size_t i = 0; i < m->ntris; i++) {
        float pt[2][2];
        int n = 0;
        for (int e = 0; e < 3 && n < 2; e++) {
            int a = e, b = (e + 1) % 3;
            float ya = m->f[3 * a + 1][i], yb = m->f[3 * b + 1][i];
            if ((ya < 0.0f) == (yb < 0.0f))
                continue;
            float t = ya / (ya - yb);
            pt[n][0] = m->f[3 * a][i] + t * (m->f[3 * b][i] - m->f[3 * a][i]);
            pt[n][1] = m->f[3 * a + 2][i] + t * (m->f[3 * b + 2][i] - m->f[3 * a + 2][i]);
            n++;
        }
        if (n == 2)
            line(im, p, pt[0][0], pt[0][1], pt[1][0], pt[1][1], wall, 0.9f);
    }
    line(im, p, -1.1f, m->floor.d, 1.1f, m->floor.d, wall, 0.5f);
}

/* A model seen along y: every triangle's edges, faint, so the surface shows as a shaded
   silhouette; and the floor. */
static void draw_model(image *im, const panel *p, const sim_mesh *m)
{
    const float wall[3] = {0.85f, 0.85f, 0.9f};
    for (size_t i = 0; i < m->ntris; i++)
        for (int e = 0; e < 3; e++) {
            int a = e, b = (e + 1) % 3;
            line(im, p, m->f[3 * a][i], m->f[3 * a + 2][i], m->f[3 * b][i], m->f[3 * b + 2][i],
                 wall, 0.12f);
        }
    line(im, p, -1.1f, m->floor.d, 1.1f, m->floor.d, wall, 0.5f);
}

/* Particles projected along y, coloured by speed (blue slow, orange fast); escaped ones red. */
static void draw_particles(image *im, const panel *p, const sim *s)
{
    for (size_t i = 0; i < s->prm.n; i++) {
        float px, py;
        to_px(p, s->x[i], s->z[i], &px, &py);
        float sp2 = (s->ux[i] * s->ux[i] + s->uy[i] * s->uy[i]) + s->uz[i] * s->uz[i];
        float k = sqrtf(sp2) / (2.0f * s->prm.speed);
        k = k > 1.0f ? 1.0f : k;
        float c[3] = {0.2f + 0.8f * k, 0.45f + 0.2f * k, 1.0f - 0.8f * k};
        float a = 0.3f;
        if (s->escaped[i]) {
            c[0] = 1.0f, c[1] = 0.15f, c[2] = 0.1f;
            a = 0.8f;
        }
        for (int d = 0; d < 4; d++) /* 2 x 2 pixels, about a particle's size */
            blend(im, p, (int)px + (d & 1), (int)py + (d >> 1), c, a);
    }
}

static void draw_tracks(image *im, const panel *p, const float *track, int nsteps)
{
    if (nsteps > 120) /* the first 1.2 s: a few bounces each, still readable */
        nsteps = 120;
    static const float colour[NTRACK][3] = {{1, 1, 0.2f}, {0.3f, 1, 0.3f}, {1, 0.4f, 1},
                                            {0.3f, 1, 1},  {1, 1, 1},      {1, 0.6f, 0.2f}};
    for (int j = 0; j < NTRACK; j++)
        for (int s = 1; s < nsteps; s++) {
            const float *a = track + 3 * ((size_t)(s - 1) * NTRACK + j);
            const float *b = track + 3 * ((size_t)s * NTRACK + j);
            line(im, p, a[0], a[2], b[0], b[2], colour[j], 0.9f);
        }
}

int main(int argc, char **argv)
{
    sim_params prm = sim_default_params();
    int nsteps = 300;
    const char *out = "particles.png";
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] != '-' || argv[i][1] == '\0' || argv[i][2] != '\0' || i + 1 >= argc)
            usage(argv[0]);
        const char *v = argv[++i];
        switch (argv[i - 1][1]) {
        case 'n': prm.n = (size_t)strtoull(v, NULL, 10); break;
        case 'r': prm.radius = strtof(v, NULL); break;
        case 's': prm.speed = strtof(v, NULL); break;
        case 't': nsteps = atoi(v); break;
        case 'i': prm.iterations = atoi(v); break;
        case 'e': prm.restitution = strtof(v, NULL); break;
        case 'f': prm.friction = strtof(v, NULL); break;
        case 'd': prm.subdiv = atoi(v); break;
        case 'm': prm.model = v; break;
        case 'u': prm.model_up = v[0] == 'x' ? 0 : v[0] == 'y' ? 1 : 2; break;
        case 'o': out = v; break;
        default: usage(argv[0]);
        }
    }
    if (prm.n < NTRACK || !(prm.radius > 0.0f && prm.radius < 0.1f) || !(prm.speed >= 0.0f) ||
        nsteps < 1 || prm.iterations < 1 || prm.subdiv < 0 || prm.subdiv > 6 ||
        !(prm.restitution >= 0.0f && prm.restitution <= 1.0f) ||
        !(prm.friction >= 0.0f && prm.friction <= 1.0f))
        usage(argv[0]);

    sim sw, ds;
    if (sim_init(&sw, &prm) || sim_init(&ds, &prm)) {
        fprintf(stderr, "cannot set the scene up\n");
        return 2;
    }
    printf("toi %s particles, backend %s: %zu spheres of radius %g, %s of %zu triangles (a "
           "toi_mesh of %zu bytes) and a floor, %d steps of %g s, up to %d sweep-and-respond "
           "passes a step\n", toi_version(), toi_backend_name(toi_get_backend()), prm.n,
           (double)prm.radius, prm.model ? prm.model : "a container", sw.mesh.ntris,
           toi_mesh_bytes(sw.mesh.bvh), nsteps, (double)prm.dt, prm.iterations);

    float *track = malloc(sizeof(float) * 3 * NTRACK * (size_t)nsteps);
    if (!track)
        return 2;
    double t_swept = 0.0, t_discrete = 0.0, travel_sum = 0.0, travel_max = 0.0;
    for (int step = 0; step < nsteps; step++) {
        double t0 = now();
        sim_step(&sw, 1);
        double t1 = now();
        sim_step(&ds, 0);
        t_discrete += now() - t1;
        t_swept += t1 - t0;
        sim_check_escapes(&sw);
        sim_check_escapes(&ds);
        for (int j = 0; j < NTRACK; j++) {
            size_t i = (size_t)j * (prm.n / NTRACK);
            float *q = track + 3 * ((size_t)step * NTRACK + j);
            q[0] = sw.x[i], q[1] = sw.y[i], q[2] = sw.z[i];
        }
        /* distance a particle travels in a step, in diameters */
        for (size_t i = 0; i < prm.n; i += 97) {
            float u2 = (sw.ux[i] * sw.ux[i] + sw.uy[i] * sw.uy[i]) + sw.uz[i] * sw.uz[i];
            double d = sqrt((double)u2) * prm.dt / (2.0 * prm.radius);
            travel_sum += d;
            travel_max = d > travel_max ? d : travel_max;
        }
    }
    size_t samples = (size_t)nsteps * ((prm.n + 96) / 97);
    double queries = (double)(sw.plane_queries + sw.mesh_queries);
    printf("travel per step: mean %.1f, max %.1f particle diameters\n", travel_sum / samples,
           travel_max);
    const char *escaped = prm.model ? "tunnelled" : "escaped";
    printf("swept:    %zu %s; %.1f steps/s, %.1f M queries/s (%llu sphere-plane, %llu "
           "sphere-mesh: %.1f box and %.1f triangle tests each), %llu responses; final state "
           "hash %016llx\n", sw.nescaped, escaped, nsteps / t_swept, queries / t_swept * 1e-6,
           (unsigned long long)sw.plane_queries, (unsigned long long)sw.mesh_queries,
           (double)sw.cost.nv / (double)sw.mesh_queries,
           (double)sw.cost.np / (double)sw.mesh_queries, (unsigned long long)sw.responses,
           (unsigned long long)sim_hash(&sw));
    printf("discrete: %zu %s (overlap test after each whole step); %.1f steps/s\n",
           ds.nescaped, escaped, nsteps / t_discrete);

    image im = {1600, 800, NULL};
    im.rgb = calloc((size_t)im.w * im.h * 3, sizeof(float));
    if (!im.rgb)
        return 2;
    for (size_t k = 0; k < (size_t)im.w * im.h * 3; k++)
        im.rgb[k] = k % 3 == 2 ? 0.09f : 0.06f;
    const panel left = {0, 800}, right = {800, 800};
    void (*draw_scene)(image *, const panel *, const sim_mesh *) =
        prm.model ? draw_model : draw_container;
    draw_particles(&im, &left, &sw);
    draw_scene(&im, &left, &sw.mesh);
    draw_tracks(&im, &left, track, nsteps);
    draw_particles(&im, &right, &ds);
    draw_scene(&im, &right, &ds.mesh);
    if (image_write_png(out, &im)) {
        fprintf(stderr, "cannot write %s\n", out);
        return 2;
    }
    printf("wrote %s (left: swept, with %d trajectories; right: discrete, %s in red)\n", out,
           NTRACK, escaped);
    int rc = sw.nescaped == 0 ? 0 : 1;
    free(im.rgb);
    free(track);
    sim_free(&sw);
    sim_free(&ds);
    return rc;
}
