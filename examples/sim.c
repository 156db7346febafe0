/* sim.c - a particle system on toi: sweep against a floor plane and a triangle-mesh
   container found through a uniform grid, respond, repeat; or, for comparison, the discrete
   overlap test that fast particles tunnel through */
#include "sim.h"

#include <math.h>
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

static void mesh_free(sim_mesh *m)
{
    for (int k = 0; k < 9; k++)
        free(m->f[k]);
    for (int k = 0; k < 4; k++)
        free(m->pn[k]);
}

/* ---- the grid ---- */

/* Cell range [c0, c1] covering [lo, hi] on one axis, clamped to the grid; 0 when the range
   misses the grid entirely. A small margin makes rounding in the division harmless. */
static int cell_range(const sim_grid *g, int axis, float lo, float hi, int *c0, int *c1)
{
    const float margin = g->cell * 0x1p-10f;
    float q0 = (lo - margin - g->lo[axis]) / g->cell;
    float q1 = (hi + margin - g->lo[axis]) / g->cell;
    if (!(q1 >= 0.0f) || !(q0 < (float)g->dim))
        return 0;
    *c0 = q0 > 0.0f ? (int)q0 : 0;
    *c1 = q1 < (float)(g->dim - 1) ? (int)q1 : g->dim - 1;
    return 1;
}

static int grid_build(sim_grid *g, const sim_mesh *m, int dim)
{
    const float half = m->radius * 1.03125f;
    g->dim = dim;
    g->cell = 2.0f * half / (float)dim;
    g->lo[0] = g->lo[1] = g->lo[2] = -half;
    size_t ncell = (size_t)dim * dim * dim;
    g->start = xcalloc(ncell + 1, sizeof *g->start);
    if (!g->start)
        return -1;
    /* two passes: count the triangles per cell, then fill */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < m->ntris; i++) {
            float lo[3], hi[3];
            int c0[3], c1[3], in = 1;
            for (int a = 0; a < 3; a++) {
                float p = m->f[a][i], q = m->f[3 + a][i], r = m->f[6 + a][i];
                lo[a] = p < q ? (p < r ? p : r) : (q < r ? q : r);
                hi[a] = p > q ? (p > r ? p : r) : (q > r ? q : r);
                in &= cell_range(g, a, lo[a], hi[a], &c0[a], &c1[a]);
            }
            if (!in)
                continue;
            for (int cz = c0[2]; cz <= c1[2]; cz++)
                for (int cy = c0[1]; cy <= c1[1]; cy++)
                    for (int cx = c0[0]; cx <= c1[0]; cx++) {
                        size_t c = ((size_t)cz * dim + cy) * dim + cx;
                        if (pass == 0)
                            g->start[c + 1]++;
                        else
                            g->tris[g->start[c]++] = (uint32_t)i;
                    }
        }
        if (pass == 0) {
            for (size_t c = 0; c < ncell; c++)
                g->start[c + 1] += g->start[c];
            g->tris = xcalloc(g->start[ncell], sizeof *g->tris);
            if (!g->tris)
                return -1;
        } else { /* filling advanced each start to the next cell's: shift back */
            memmove(g->start + 1, g->start, ncell * sizeof *g->start);
            g->start[0] = 0;
        }
    }
    return 0;
}

/* ---- state ---- */
int sim_init(sim *s, const sim_params *prm)
{
    memset(s, 0, sizeof *s);
    s->prm = *prm;
    const size_t n = prm->n;
    const float R = 1.0f, floor_z = -0.5f, r = prm->radius;
    if (mesh_build(&s->mesh, R, prm->subdiv, floor_z))
        return -1;
    /* the grid spans 2R and an icosphere's edge is about R / 2^subdiv: cells about one
       triangle across, so a sphere near the wall meets a handful of triangles */
    int dim = 2 << (prm->subdiv < 5 ? prm->subdiv : 5);
    if (grid_build(&s->grid, &s->mesh, dim))
        return -1;
    float **arrays[] = {&s->x,  &s->y,  &s->z,   &s->ux,  &s->uy,  &s->uz,     &s->r,
                        &s->ax, &s->ay, &s->az,  &s->avx, &s->avy, &s->avz,    &s->aux,
                        &s->auy, &s->auz, &s->ht, &s->hnx, &s->hny, &s->hnz,  &s->hdepth,
                        &s->bt, &s->bnx, &s->bny, &s->bnz, &s->bdepth};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        if (!(*arrays[k] = xcalloc(n, sizeof(float))))
            return -1;
    s->escaped = xcalloc(n, 1);
    s->act = xcalloc(n, sizeof *s->act);
    s->bidx = xcalloc(n, sizeof *s->bidx);
    s->stamp = xcalloc(s->mesh.ntris, sizeof *s->stamp);
    if (!s->escaped || !s->act || !s->bidx || !s->stamp)
        return -1;
    /* uniformly inside the container, clear of the walls; random directions */
    uint64_t seed = prm->seed;
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
    free(s->grid.start);
    free(s->grid.tris);
    float *arrays[] = {s->x,   s->y,   s->z,   s->ux,  s->uy,  s->uz,  s->r,      s->ax,
                       s->ay,  s->az,  s->avx, s->avy, s->avz, s->aux, s->auy,    s->auz,
                       s->ht,  s->hnx, s->hny, s->hnz, s->hdepth, s->bt, s->bnx, s->bny,
                       s->bnz, s->bdepth, s->pt, s->pnx, s->pny, s->pnz, s->pdepth};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        free(arrays[k]);
    free(s->escaped);
    free(s->act);
    free(s->bidx);
    free(s->stamp);
    free(s->is);
    free(s->it);
}

static int reserve_pairs(sim *s, size_t need)
{
    if (need <= s->npairs_cap)
        return 0;
    size_t cap = s->npairs_cap ? s->npairs_cap : 4096;
    while (cap < need)
        cap *= 2;
    uint32_t *is = realloc(s->is, cap * sizeof *is), *it = NULL;
    if (is)
        s->is = is;
    if (!is || !(it = realloc(s->it, cap * sizeof *it)))
        return -1;
    s->it = it;
    float **f[] = {&s->pt, &s->pnx, &s->pny, &s->pnz, &s->pdepth};
    for (size_t k = 0; k < 5; k++) {
        float *p = realloc(*f[k], cap * sizeof *p);
        if (!p)
            return -1;
        *f[k] = p;
    }
    s->npairs_cap = cap;
    return 0;
}

/* Candidate pairs (active k, triangle) for every triangle in the cells the swept sphere's
   box overlaps, each triangle once per sphere. Returns the number of pairs. */
static size_t broadphase(sim *s, size_t nact)
{
    const sim_grid *g = &s->grid;
    const float r = s->prm.radius;
    size_t np = 0;
    for (size_t k = 0; k < nact; k++) {
        float p[3] = {s->ax[k], s->ay[k], s->az[k]};
        float v[3] = {s->avx[k], s->avy[k], s->avz[k]};
        int c0[3], c1[3], in = 1;
        for (int a = 0; a < 3; a++) {
            float e = p[a] + v[a];
            float lo = (p[a] < e ? p[a] : e) - r, hi = (p[a] > e ? p[a] : e) + r;
            in &= cell_range(g, a, lo, hi, &c0[a], &c1[a]);
        }
        if (!in)
            continue;
        if (++s->stamp_now == 0) { /* wrapped: forget every old stamp */
            memset(s->stamp, 0, s->mesh.ntris * sizeof *s->stamp);
            s->stamp_now = 1;
        }
        for (int cz = c0[2]; cz <= c1[2]; cz++)
            for (int cy = c0[1]; cy <= c1[1]; cy++)
                for (int cx = c0[0]; cx <= c1[0]; cx++) {
                    size_t c = ((size_t)cz * g->dim + cy) * g->dim + cx;
                    uint32_t b = g->start[c], e = g->start[c + 1];
                    if (b == e)
                        continue;
                    if (reserve_pairs(s, np + (e - b)))
                        abort();
                    for (uint32_t j = b; j < e; j++) {
                        uint32_t t = g->tris[j];
                        if (s->stamp[t] == s->stamp_now)
                            continue;
                        s->stamp[t] = s->stamp_now;
                        s->is[np] = (uint32_t)k;
                        s->it[np] = t;
                        np++;
                    }
                }
    }
    return np;
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

/* The earliest hit of every active sphere against the floor and its candidate triangles. */
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
    size_t np = broadphase(s, nact);
    if (np == 0)
        return;
    toi_hits ph = {s->pt, s->pnx, s->pny, s->pnz, NULL, NULL, NULL, s->pdepth, NULL, NULL, NULL};
    toi_sweep_sphere_triangle_pairs(np, s->is, s->it, nact, &S, s->mesh.ntris, &s->mesh.tri,
                                    flags, &ph);
    s->tri_queries += np;
    for (size_t j = 0; j < np; j++)
        if (s->pt[j] != TOI_NO_HIT)
            take(s, s->is[j], s->pt[j], s->it[j] + 1, s->pnx[j], s->pny[j], s->pnz[j],
                 s->pdepth[j]);
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

size_t sim_check_escapes(sim *s)
{
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
