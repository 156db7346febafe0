/* sim.c - a particle system on toi: sweep against a floor plane and a triangle mesh (a
   container, or a model read from a file) through a toi_mesh, respond, repeat; or, for
   comparison, the discrete overlap test that fast particles tunnel through */
#include "sim.h"
#include "meshload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLANE_KEY 0u            /* hit keys: the floor, then triangle i as i + 1 */
#define NO_KEY UINT32_MAX

sim_params sim_default_params(void)
{
    sim_params p = {
        .n = 100000,
        .radius = 0.004f,
        .speed = 4.0f,
        .dt = 0.01f,
        .gravity = 9.81f,
        .restitution = 0.9f,
        .friction = 0.02f,
        .iterations = 4,
        .subdiv = 4,
        .seed = 1,
        .model_up = 2,
    };
    return p;
}

/* ---- random numbers: integer arithmetic only, so every machine draws the same ---- */
static uint64_t rnd_u64(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static float rnd_range(uint64_t *s, float lo, float hi)
{
    return lo + (hi - lo) * ((float)(rnd_u64(s) >> 40) * 0x1p-24f);
}

static void *xcalloc(size_t n, size_t size)
{
    return calloc(n ? n : 1, size);
}

/* ---- the container ---- */
typedef struct v3 {
    float x, y, z;
} v3;

static v3 v3_unit(v3 a)
{
    float l = sqrtf((a.x * a.x + a.y * a.y) + a.z * a.z);
    return (v3){a.x / l, a.y / l, a.z / l};
}

/* An edge's midpoint pushed out to the sphere. a + b == b + a bit for bit, so the two
   triangles sharing an edge compute the same vertex and the mesh stays watertight. */
static v3 mid_on_sphere(v3 a, v3 b)
{
    return v3_unit((v3){a.x + b.x, a.y + b.y, a.z + b.z});
}

static void emit(sim_mesh *m, size_t *k, v3 a, v3 b, v3 c, int level)
{
    if (level > 0) {
        v3 ab = mid_on_sphere(a, b), bc = mid_on_sphere(b, c), ca = mid_on_sphere(c, a);
        emit(m, k, a, ab, ca, level - 1);
        emit(m, k, ab, b, bc, level - 1);
        emit(m, k, ca, bc, c, level - 1);
        emit(m, k, ab, bc, ca, level - 1);
        return;
    }
    const float R = m->radius;
    /* outward-wound icosahedron faces, stored as (a, c, b): counter-clockwise seen from
       inside, so the front faces the particles */
    const v3 p[3] = {a, c, b};
    for (int j = 0; j < 3; j++) {
        m->f[3 * j][*k] = R * p[j].x;
        m->f[3 * j + 1][*k] = R * p[j].y;
        m->f[3 * j + 2][*k] = R * p[j].z;
    }
    (*k)++;
}

static int mesh_build(sim_mesh *m, float R, int subdiv, float floor_z)
{
    static const int face[20][3] = {
        {0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
        {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
        {3, 8, 9},  {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    const float g = 1.6180339887f; /* the golden ratio */
    const v3 ico[12] = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0},
                        {0, -1, g}, {0, 1, g}, {0, -1, -g}, {0, 1, -g},
                        {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
    memset(m, 0, sizeof *m);
    m->radius = R;
    m->ntris = (size_t)20 << (2 * subdiv);
    for (int k = 0; k < 9; k++)
        if (!(m->f[k] = xcalloc(m->ntris, sizeof(float))))
            return -1;
    for (int k = 0; k < 4; k++)
        if (!(m->pn[k] = xcalloc(m->ntris, sizeof(float))))
            return -1;
    size_t k = 0;
    for (int i = 0; i < 20; i++)
        emit(m, &k, v3_unit(ico[face[i][0]]), v3_unit(ico[face[i][1]]),
             v3_unit(ico[face[i][2]]), subdiv);
    m->tri = (toi_triangles){m->f[0], m->f[1], m->f[2], m->f[3], m->f[4],
                             m->f[5], m->f[6], m->f[7], m->f[8]};
    /* face planes, outward: the front normal (b - a) x (c - a) points inward */
    m->inradius = R;
    for (size_t i = 0; i < m->ntris; i++) {
        v3 a = {m->f[0][i], m->f[1][i], m->f[2][i]};
        v3 e1 = {m->f[3][i] - a.x, m->f[4][i] - a.y, m->f[5][i] - a.z};
        v3 e2 = {m->f[6][i] - a.x, m->f[7][i] - a.y, m->f[8][i] - a.z};
        v3 n = v3_unit((v3){-(e1.y * e2.z - e1.z * e2.y), -(e1.z * e2.x - e1.x * e2.z),
                            -(e1.x * e2.y - e1.y * e2.x)});
        float d = (n.x * a.x + n.y * a.y) + n.z * a.z;
        m->pn[0][i] = n.x, m->pn[1][i] = n.y, m->pn[2][i] = n.z, m->pn[3][i] = d;
        if (d < m->inradius)
            m->inradius = d;
    }
    m->floor = (toi_plane){0.0f, 0.0f, 1.0f, floor_z};
    return 0;
}

/* A model from a file: turned so that its axis `up` (0 x, 1 y, 2 z) points up, centred
   over the origin, scaled so its largest extent is 1.2, resting on the floor. */
static int model_load(sim_mesh *m, const char *path, int up, float floor_z)
{
    char err[256];
    memset(m, 0, sizeof *m);
    if (mesh_load(path, m->f, &m->ntris, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (up != 2) /* a rotation by a quarter turn: the up axis to z, z to the other side */
        for (size_t i = 0; i < m->ntris; i++)
            for (int v = 0; v < 3; v++) {
                float *c[3] = {&m->f[3 * v][i], &m->f[3 * v + 1][i], &m->f[3 * v + 2][i]};
                float u = *c[up], z = *c[2];
                *c[up] = -z, *c[2] = u;
            }
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < m->ntris; i++)
        for (int k = 0; k < 9; k++) {
            float x = m->f[k][i];
            lo[k % 3] = x < lo[k % 3] ? x : lo[k % 3];
            hi[k % 3] = x > hi[k % 3] ? x : hi[k % 3];
        }
    float ext = hi[0] - lo[0];
    ext = hi[1] - lo[1] > ext ? hi[1] - lo[1] : ext;
    ext = hi[2] - lo[2] > ext ? hi[2] - lo[2] : ext;
    if (!(ext > 0.0f && ext < INFINITY)) {
        fprintf(stderr, "%s: no extent\n", path);
        return -1;
    }
    const float k1 = 1.2f / ext, c[3] = {(lo[0] + hi[0]) * 0.5f, (lo[1] + hi[1]) * 0.5f, lo[2]};
    for (size_t i = 0; i < m->ntris; i++)
        for (int k = 0; k < 9; k++)
            m->f[k][i] = (m->f[k][i] - c[k % 3]) * k1 + (k % 3 == 2 ? floor_z : 0.0f);
    m->tri = (toi_triangles){m->f[0], m->f[1], m->f[2], m->f[3], m->f[4],
                             m->f[5], m->f[6], m->f[7], m->f[8]};
    m->floor = (toi_plane){0.0f, 0.0f, 1.0f, floor_z};
    return 0;
}

static void mesh_free(sim_mesh *m)
{
    toi_mesh_free(m->bvh);
    for (int k = 0; k < 9; k++)
        free(m->f[k]);
    for (int k = 0; k < 4; k++)
        free(m->pn[k]);
}

/* ---- state ---- */
int sim_init(sim *s, const sim_params *prm)
{
    memset(s, 0, sizeof *s);
    s->prm = *prm;
    const size_t n = prm->n;
    const float R = 1.0f, floor_z = -0.5f, r = prm->radius;
    if (prm->model ? model_load(&s->mesh, prm->model, prm->model_up, floor_z)
                   : mesh_build(&s->mesh, R, prm->subdiv, floor_z))
        return -1;
    sim_mesh *m = &s->mesh;
    for (int a = 0; a < 3; a++)
        m->lo[a] = INFINITY, m->hi[a] = -INFINITY;
    for (size_t i = 0; i < m->ntris; i++)
        for (int k = 0; k < 9; k++) {
            m->lo[k % 3] = m->f[k][i] < m->lo[k % 3] ? m->f[k][i] : m->lo[k % 3];
            m->hi[k % 3] = m->f[k][i] > m->hi[k % 3] ? m->f[k][i] : m->hi[k % 3];
        }
    if (!(m->bvh = toi_mesh_build(m->ntris, &m->tri)))
        return -1;
    float **arrays[] = {&s->x,   &s->y,   &s->z,   &s->ux,  &s->uy,     &s->uz,  &s->r,
                        &s->ax,  &s->ay,  &s->az,  &s->avx, &s->avy,    &s->avz, &s->aux,
                        &s->auy, &s->auz, &s->ht,  &s->hnx, &s->hny,    &s->hnz, &s->hdepth,
                        &s->bt,  &s->bnx, &s->bny, &s->bnz, &s->bdepth, &s->mt,  &s->mnx,
                        &s->mny, &s->mnz, &s->mdepth, &s->px0, &s->py0, &s->pz0};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        if (!(*arrays[k] = xcalloc(n, sizeof(float))))
            return -1;
    s->escaped = xcalloc(n, 1);
    s->act = xcalloc(n, sizeof *s->act);
    s->bidx = xcalloc(n, sizeof *s->bidx);
    s->midx = xcalloc(n, sizeof *s->midx);
    if (!s->escaped || !s->act || !s->bidx || !s->midx)
        return -1;
    uint64_t seed = prm->seed;
    if (prm->model) {
        /* poured: a column over the model's middle half, falling at speed (the column rises
           2 above it, so it keeps pouring for a while) */
        for (size_t i = 0; i < n; i++) {
            float cx = (m->lo[0] + m->hi[0]) * 0.5f, cy = (m->lo[1] + m->hi[1]) * 0.5f;
            float hx = (m->hi[0] - m->lo[0]) * 0.25f, hy = (m->hi[1] - m->lo[1]) * 0.25f;
            s->x[i] = cx + rnd_range(&seed, -hx, hx);
            s->y[i] = cy + rnd_range(&seed, -hy, hy);
            s->z[i] = m->hi[2] + rnd_range(&seed, 0.05f, 2.0f);
            s->ux[i] = rnd_range(&seed, -0.05f, 0.05f) * prm->speed;
            s->uy[i] = rnd_range(&seed, -0.05f, 0.05f) * prm->speed;
            s->uz[i] = -rnd_range(&seed, 0.75f, 1.0f) * prm->speed;
            s->r[i] = r;
        }
        return 0;
    }
    /* uniformly inside the container, clear of the walls; random directions */
    const float reach = s->mesh.inradius - 2.0f * r;
    for (size_t i = 0; i < n; i++) {
        float x, y, z, l2;
        do {
            x = rnd_range(&seed, -reach, reach);
            y = rnd_range(&seed, -reach, reach);
            z = rnd_range(&seed, -reach, reach);
            l2 = (x * x + y * y) + z * z;
        } while (l2 > reach * reach || z < floor_z + 2.0f * r);
        float dx, dy, dz, d2;
        do {
            dx = rnd_range(&seed, -1, 1);
            dy = rnd_range(&seed, -1, 1);
            dz = rnd_range(&seed, -1, 1);
            d2 = (dx * dx + dy * dy) + dz * dz;
        } while (d2 > 1.0f || d2 < 0.01f);
        float speed = prm->speed * rnd_range(&seed, 0.5f, 1.0f) / sqrtf(d2);
        s->x[i] = x, s->y[i] = y, s->z[i] = z;
        s->ux[i] = dx * speed, s->uy[i] = dy * speed, s->uz[i] = dz * speed;
        s->r[i] = r;
    }
    return 0;
}

void sim_free(sim *s)
{
    mesh_free(&s->mesh);
    float *arrays[] = {s->x,   s->y,   s->z,   s->ux,  s->uy,     s->uz,  s->r,   s->ax,
                       s->ay,  s->az,  s->avx, s->avy, s->avz,    s->aux, s->auy, s->auz,
                       s->ht,  s->hnx, s->hny, s->hnz, s->hdepth, s->bt,  s->bnx, s->bny,
                       s->bnz, s->bdepth, s->mt, s->mnx, s->mny, s->mnz, s->mdepth, s->px0,
                       s->py0, s->pz0};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        free(arrays[k]);
    free(s->escaped);
    free(s->act);
    free(s->bidx);
    free(s->midx);
}

/* Keep hit (t, key) for active k if it is earlier, or as early with a lower key: the same
   choice on every backend whatever order the hits come in. */
static void take(sim *s, size_t k, float t, uint32_t key, float nx, float ny, float nz,
                 float depth)
{
    if (t < s->bt[k] || (t == s->bt[k] && key < s->bidx[k])) {
        s->bt[k] = t, s->bidx[k] = key;
        s->bnx[k] = nx, s->bny[k] = ny, s->bnz[k] = nz, s->bdepth[k] = depth;
    }
}

/* The earliest hit of every active sphere against the floor and the mesh (the floor first
   on equal times, then the lowest triangle index: the mesh query's own tie rule). */
static void earliest_hits(sim *s, size_t nact, unsigned flags)
{
    const toi_spheres S = {s->ax, s->ay, s->az, s->avx, s->avy, s->avz, s->r};
    toi_hits h = {s->ht, s->hnx, s->hny, s->hnz, NULL, NULL, NULL, s->hdepth, NULL, NULL, NULL};
    toi_sweep_spheres_plane(nact, &S, &s->mesh.floor, flags, &h);
    s->plane_queries += nact;
    for (size_t k = 0; k < nact; k++) {
        s->bt[k] = TOI_NO_HIT, s->bidx[k] = NO_KEY;
        s->bnx[k] = s->bny[k] = s->bnz[k] = s->bdepth[k] = 0.0f;
        if (s->ht[k] != TOI_NO_HIT)
            take(s, k, s->ht[k], PLANE_KEY, s->hnx[k], s->hny[k], s->hnz[k], s->hdepth[k]);
    }
    toi_hits mh = {s->mt, s->mnx, s->mny, s->mnz, NULL, NULL, NULL, s->mdepth, s->midx, NULL,
                   NULL};
    toi_sweep_spheres_mesh(nact, &S, s->mesh.bvh, flags, &mh, &s->cost);
    s->mesh_queries += nact;
    for (size_t k = 0; k < nact; k++)
        if (s->mt[k] != TOI_NO_HIT)
            take(s, k, s->mt[k], s->midx[k] + 1, s->mnx[k], s->mny[k], s->mnz[k], s->mdepth[k]);
}

static void put_back(sim *s, size_t k)
{
    uint32_t i = s->act[k];
    s->x[i] = s->ax[k], s->y[i] = s->ay[k], s->z[i] = s->az[k];
    s->ux[i] = s->aux[k], s->uy[i] = s->auy[k], s->uz[i] = s->auz[k];
}

void sim_step(sim *s, int swept)
{
    const size_t n = s->prm.n;
    const float dt = s->prm.dt, dv = s->prm.gravity * dt;
    /* gather every particle: velocity after gravity, displacement over the step */
    for (size_t i = 0; i < n; i++) {
        s->px0[i] = s->x[i], s->py0[i] = s->y[i], s->pz0[i] = s->z[i];
        s->act[i] = (uint32_t)i;
        float uz = s->uz[i] - dv;
        s->ax[i] = s->x[i], s->ay[i] = s->y[i], s->az[i] = s->z[i];
        s->aux[i] = s->ux[i], s->auy[i] = s->uy[i], s->auz[i] = uz;
        s->avx[i] = s->ux[i] * dt, s->avy[i] = s->uy[i] * dt, s->avz[i] = uz * dt;
    }
    const toi_motion M = {s->ax, s->ay, s->az, s->avx, s->avy, s->avz, s->aux, s->auy, s->auz};
    const toi_hits B = {s->bt, s->bnx, s->bny, s->bnz, NULL, NULL, NULL, s->bdepth,
                        NULL, NULL, NULL};
    size_t nact = n;
    if (!swept) {
        /* discrete: move the whole step, then push out of whatever the sphere overlaps */
        for (size_t k = 0; k < nact; k++) {
            s->ax[k] += s->avx[k], s->ay[k] += s->avy[k], s->az[k] += s->avz[k];
            s->avx[k] = s->avy[k] = s->avz[k] = 0.0f;
        }
        earliest_hits(s, nact, TOI_ALL_OVERLAPS);
        s->responses += (uint64_t)toi_respond(nact, &M, &B, s->prm.restitution,
                                              s->prm.friction);
    } else {
        for (int pass = 0; pass < s->prm.iterations && nact > 0; pass++) {
            earliest_hits(s, nact, 0);
            s->responses += (uint64_t)toi_respond(nact, &M, &B, s->prm.restitution,
                                                  s->prm.friction);
            /* spheres that missed have used up their step; the others go again from their
               contact with what is left of it */
            size_t keep = 0;
            for (size_t k = 0; k < nact; k++) {
                if (!(s->bt[k] <= 1.0f)) {
                    put_back(s, k);
                    continue;
                }
                s->act[keep] = s->act[k];
                s->ax[keep] = s->ax[k], s->ay[keep] = s->ay[k], s->az[keep] = s->az[k];
                s->avx[keep] = s->avx[k], s->avy[keep] = s->avy[k];
                s->avz[keep] = s->avz[k];
                s->aux[keep] = s->aux[k], s->auy[keep] = s->auy[k];
                s->auz[keep] = s->auz[k];
                keep++;
            }
            nact = keep;
        }
    }
    /* at the cap, what is left of the step is dropped: the sphere rests at its contact */
    for (size_t k = 0; k < nact; k++)
        put_back(s, k);
    s->steps++;
}

/* Model scene: the particles whose centre, swept as a point from where it started the step
   to where it ended, touched a triangle (a swept sphere stops r short of every triangle, so
   its centre never does; a tunnelling one passes through). */
static size_t crossings(sim *s)
{
    const size_t n = s->prm.n;
    float *vx = s->avx, *vy = s->avy, *vz = s->avz, *r0 = s->hdepth, *t = s->ht;
    for (size_t i = 0; i < n; i++) {
        vx[i] = s->x[i] - s->px0[i], vy[i] = s->y[i] - s->py0[i], vz[i] = s->z[i] - s->pz0[i];
        r0[i] = 0.0f;
    }
    const toi_spheres P = {s->px0, s->py0, s->pz0, vx, vy, vz, r0};
    const toi_hits h = {.t = t};
    toi_sweep_spheres_mesh(n, &P, s->mesh.bvh, 0, &h, NULL);
    for (size_t i = 0; i < n; i++)
        if (t[i] != TOI_NO_HIT && !s->escaped[i]) {
            s->escaped[i] = 1;
            s->nescaped++;
        }
    return s->nescaped;
}

size_t sim_check_escapes(sim *s)
{
    if (s->prm.model)
        return crossings(s);
    const sim_mesh *m = &s->mesh;
    const float in2 = m->inradius * m->inradius;
    for (size_t i = 0; i < s->prm.n; i++) {
        if (s->escaped[i])
            continue;
        float x = s->x[i], y = s->y[i], z = s->z[i];
        int out = !(z >= m->floor.d) || !((x * x + y * y) + z * z <= in2);
        if (out && z >= m->floor.d && (x * x + y * y) + z * z <= m->radius * m->radius) {
            /* between the inner and outer sphere: outside only past some face's plane */
            out = 0;
            for (size_t f = 0; f < m->ntris && !out; f++)
                out = (m->pn[0][f] * x + m->pn[1][f] * y) + m->pn[2][f] * z > m->pn[3][f];
        }
        if (out) {
            s->escaped[i] = 1;
            s->nescaped++;
        }
    }
    return s->nescaped;
}

uint64_t sim_hash(const sim *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const float *arrays[6] = {s->x, s->y, s->z, s->ux, s->uy, s->uz};
    for (int k = 0; k < 6; k++)
        for (size_t i = 0; i < s->prm.n; i++) {
            uint32_t u;
            memcpy(&u, &arrays[k][i], sizeof u);
            for (int b = 0; b < 4; b++) {
                h ^= (u >> (8 * b)) & 0xffu;
                h *= 0x100000001b3ull;
            }
        }
    return h;
}
