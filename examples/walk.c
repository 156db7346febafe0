/* walk.c - capsule characters on a triangle mesh (walk.h): sweep and slide, in batches */
#include "walk.h"

#include "meshload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

walk_params walk_default_params(void)
{
    walk_params p = {.n = 3000,
                     .radius = 0.3f,
                     .height = 1.8f,
                     .speed = 3.0f,
                     .dt = 1.0f / 20,
                     .gravity = 9.81f,
                     .max_slope = 0.6f, /* about 53 degrees */
                     .skin = 0.01f,
                     .iterations = 4,
                     .size = 256.0f,
                     .seed = 0x57A1C,
                     .model = NULL};
    return p;
}

static float urand(uint64_t *s) /* [0, 1) */
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (float)(*s >> 40) * 0x1p-24f;
}

static float *falloc(size_t n) { return malloc((n ? n : 1) * sizeof(float)); }

/* The active characters' capsules (feet at x, y, z: the segment from r to height - r above
   them) with motions d, queried in one batch; results in ht, hn*, hdepth. */
static void sweep_active(walk *w, size_t na, unsigned flags)
{
    const float r = w->prm.radius, top = w->prm.height - w->prm.radius;
    for (size_t k = 0; k < na; k++) {
        uint32_t i = w->act[k];
        w->c[0][k] = w->x[i], w->c[1][k] = w->y[i], w->c[2][k] = w->z[i] + r;
        w->c[3][k] = w->x[i], w->c[4][k] = w->y[i], w->c[5][k] = w->z[i] + top;
        w->c[6][k] = w->dx[k], w->c[7][k] = w->dy[k], w->c[8][k] = w->dz[k];
        w->c[9][k] = r;
    }
    const toi_capsules caps = {w->c[0], w->c[1], w->c[2], w->c[3], w->c[4],
                               w->c[5], w->c[6], w->c[7], w->c[8], w->c[9]};
    const toi_hits out = {.t = w->ht, .nx = w->hnx, .ny = w->hny, .nz = w->hnz,
                          .depth = w->hdepth};
    ptrdiff_t h = toi_sweep_capsules_mesh(na, &caps, w->mesh, flags, &out, &w->cost);
    w->queries += na;
    w->hits += h > 0 ? (uint64_t)h : 0;
}

int walk_init(walk *w, const walk_params *prm)
{
    memset(w, 0, sizeof *w);
    w->prm = *prm;
    char err[256];
    if (!prm->model || mesh_load(prm->model, w->tf, &w->ntris, err, sizeof err)) {
        fprintf(stderr, "%s\n", prm->model ? err : "no model given");
        return -1;
    }
    /* scaled (uniformly: slopes kept) to prm->size across, its lower corner at the origin */
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t j = 0; j < w->ntris; j++)
        for (int k = 0; k < 9; k++) {
            float v = w->tf[k][j];
            lo[k % 3] = v < lo[k % 3] ? v : lo[k % 3];
            hi[k % 3] = v > hi[k % 3] ? v : hi[k % 3];
        }
    float span = hi[0] - lo[0] > hi[1] - lo[1] ? hi[0] - lo[0] : hi[1] - lo[1];
    float s = prm->size > 0 && span > 0 ? prm->size / span : 1.0f;
    for (size_t j = 0; j < w->ntris; j++)
        for (int k = 0; k < 9; k++)
            w->tf[k][j] = (w->tf[k][j] - lo[k % 3]) * s;
    for (int a = 0; a < 3; a++)
        w->lo[a] = 0.0f, w->hi[a] = (hi[a] - lo[a]) * s;
    /* walls around it, as a game level has: two triangles a side, from below the lowest
       point to above the highest (a character slid to the edge stays on the map) */
    size_t nt = w->ntris + 8;
    for (int k = 0; k < 9; k++) {
        float *q = realloc(w->tf[k], nt * sizeof(float));
        if (!q) {
            fprintf(stderr, "out of memory\n");
            return -1;
        }
        w->tf[k] = q;
    }
    const float X = w->hi[0], Y = w->hi[1], Z0 = -1.0f, Z1 = w->hi[2] + 2.0f * prm->height;
    const float corner[5][2] = {{0, 0}, {X, 0}, {X, Y}, {0, Y}, {0, 0}};
    for (int side = 0; side < 4; side++) {
        const float *a = corner[side], *b = corner[side + 1];
        const float q[2][9] = {{a[0], a[1], Z0, b[0], b[1], Z0, b[0], b[1], Z1},
                               {a[0], a[1], Z0, b[0], b[1], Z1, a[0], a[1], Z1}};
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < 9; k++)
                w->tf[k][w->ntris + 2 * (size_t)side + (size_t)h] = q[h][k];
    }
    w->ntris = nt;
    w->tri = (toi_triangles){w->tf[0], w->tf[1], w->tf[2], w->tf[3], w->tf[4],
                             w->tf[5], w->tf[6], w->tf[7], w->tf[8]};
    w->mesh = toi_mesh_build(w->ntris, &w->tri);
    size_t n = prm->n;
    float **arr[] = {&w->x, &w->y, &w->z, &w->vz, &w->hx, &w->hy, &w->turn, &w->dx, &w->dy,
                     &w->dz, &w->ht, &w->hnx, &w->hny, &w->hnz, &w->hdepth};
    int ok = w->mesh != NULL;
    for (size_t k = 0; k < sizeof arr / sizeof arr[0]; k++)
        ok &= (*arr[k] = falloc(n)) != NULL;
    for (int k = 0; k < 10; k++)
        ok &= (w->c[k] = falloc(n)) != NULL;
    ok &= (w->act = malloc((n ? n : 1) * sizeof *w->act)) != NULL;
    ok &= (w->grounded = calloc(n ? n : 1, 1)) != NULL;
    if (!ok) {
        fprintf(stderr, "out of memory\n");
        walk_free(w);
        return -1;
    }
    /* random points away from the edges; each dropped from above the mesh onto it */
    uint64_t seed = prm->seed;
    const float margin = 4.0f * prm->radius + 2.0f, drop = w->hi[2] - w->lo[2] + 2.0f;
    for (size_t i = 0; i < n; i++) {
        w->x[i] = margin + urand(&seed) * (w->hi[0] - 2 * margin);
        w->y[i] = margin + urand(&seed) * (w->hi[1] - 2 * margin);
        w->z[i] = w->hi[2] + 1.0f;
        float a = 6.2831853f * urand(&seed);
        w->hx[i] = cosf(a), w->hy[i] = sinf(a);
        w->turn[i] = 0.6f * (urand(&seed) - 0.5f);
        w->vz[i] = 0.0f;
        w->act[i] = (uint32_t)i;
        w->dx[i] = w->dy[i] = 0.0f, w->dz[i] = -drop;
    }
    sweep_active(w, n, 0);
    for (size_t i = 0; i < n; i++)
        if (w->ht[i] <= 1.0f) {
            w->z[i] += w->ht[i] * -drop + prm->skin;
            w->grounded[i] = 1;
        }
    return 0;
}

void walk_free(walk *w)
{
    float *arr[] = {w->x, w->y, w->z, w->vz, w->hx, w->hy, w->turn, w->dx, w->dy,
                    w->dz, w->ht, w->hnx, w->hny, w->hnz, w->hdepth};
    for (size_t k = 0; k < sizeof arr / sizeof arr[0]; k++)
        free(arr[k]);
    for (int k = 0; k < 10; k++)
        free(w->c[k]);
    for (int k = 0; k < 9; k++)
        free(w->tf[k]);
    free(w->act);
    free(w->grounded);
    toi_mesh_free(w->mesh);
    memset(w, 0, sizeof *w);
}

void walk_step(walk *w)
{
    const walk_params *p = &w->prm;
    const float margin = 2.0f * p->radius + 1.0f;
    size_t na = p->n;
    /* the wanted motion: walk (turning slowly, turned back at the edges), and fall - or,
       on the ground, press down at the walking speed so the feet follow a slope down */
    for (size_t i = 0; i < p->n; i++) {
        float a = w->turn[i] * p->dt, c = cosf(a), s = sinf(a);
        float hx = w->hx[i] * c - w->hy[i] * s, hy = w->hx[i] * s + w->hy[i] * c;
        if (w->x[i] < w->lo[0] + margin)
            hx = fabsf(hx);
        if (w->x[i] > w->hi[0] - margin)
            hx = -fabsf(hx);
        if (w->y[i] < w->lo[1] + margin)
            hy = fabsf(hy);
        if (w->y[i] > w->hi[1] - margin)
            hy = -fabsf(hy);
        w->hx[i] = hx, w->hy[i] = hy;
        w->vz[i] = w->grounded[i] ? -p->speed : w->vz[i] - p->gravity * p->dt;
        w->grounded[i] = 0;
        w->act[i] = (uint32_t)i;
        w->dx[i] = hx * p->speed * p->dt, w->dy[i] = hy * p->speed * p->dt;
        w->dz[i] = w->vz[i] * p->dt;
    }
    for (int it = 0; it < p->iterations && na > 0; it++) {
        sweep_active(w, na, 0);
        size_t next = 0;
        for (size_t k = 0; k < na; k++) {
            uint32_t i = w->act[k];
            float dx = w->dx[k], dy = w->dy[k], dz = w->dz[k], t = w->ht[k];
            if (!(t <= 1.0f)) { /* free: the whole motion */
                w->x[i] += dx, w->y[i] += dy, w->z[i] += dz;
                continue;
            }
            /* to the contact less the skin, backed off along the motion: the path before
               the first contact touches nothing, so this never moves into another surface
               (pushing out along the normal would, in a crease); an overlap found at t = 0
               is pushed out along the normal by its depth */
            float nx = w->hnx[k], ny = w->hny[k], nz = w->hnz[k];
            float len = sqrtf(dx * dx + dy * dy + dz * dz);
            float tb = len > 0.0f ? t - p->skin / len : 0.0f;
            tb = tb > 0.0f ? tb : 0.0f;
            float out = w->hdepth[k] > 0.0f ? w->hdepth[k] + p->skin : 0.0f;
            w->x[i] += dx * tb + nx * out, w->y[i] += dy * tb + ny * out;
            w->z[i] += dz * tb + nz * out;
            if (nz >= p->max_slope) {
                w->grounded[i] = 1;
                w->vz[i] = 0.0f;
            } else if (nz < 0.0f && w->vz[i] > 0.0f) {
                w->vz[i] = 0.0f; /* a ceiling */
            }
            /* the rest of the motion, slid along the surface */
            float rx = dx * (1 - t), ry = dy * (1 - t), rz = dz * (1 - t);
            float into = rx * nx + ry * ny + rz * nz;
            if (into < 0.0f)
                rx -= into * nx, ry -= into * ny, rz -= into * nz;
            if (w->grounded[i] && rz < 0.0f)
                rz = 0.0f; /* standing: the press-down has done its work */
            if (rx * rx + ry * ry + rz * rz <= 1e-10f)
                continue;
            w->act[next] = i;
            w->dx[next] = rx, w->dy[next] = ry, w->dz[next] = rz;
            next++;
        }
        na = next;
    }
    w->steps++;
}

size_t walk_overlaps(walk *w, float tol, float *worst)
{
    size_t n = w->prm.n, bad = 0;
    for (size_t i = 0; i < n; i++) {
        w->act[i] = (uint32_t)i;
        w->dx[i] = w->dy[i] = w->dz[i] = 0.0f;
    }
    sweep_active(w, n, TOI_ALL_OVERLAPS);
    float deepest = 0.0f;
    for (size_t i = 0; i < n; i++)
        if (w->ht[i] <= 1.0f) {
            deepest = w->hdepth[i] > deepest ? w->hdepth[i] : deepest;
            bad += w->hdepth[i] > tol;
        }
    *worst = deepest;
    return bad;
}
