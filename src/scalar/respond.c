/* scalar/respond.c - reference collision response: plain C, one sphere at a time */
#include "scalar.h"

/* Reflect w about the unit normal n if it moves into the obstacle (w.n < 0): the normal part
   reversed and scaled by e, the tangential part scaled by kt = 1 - friction. A w that slides
   along or leaves the surface is kept, so responding to a separating contact never pulls a
   sphere back in. */
static void reflect(float *wx, float *wy, float *wz, float nx, float ny, float nz, float e,
                    float kt)
{
    float wn = (*wx * nx + *wy * ny) + *wz * nz;
    if (!(wn < 0.0f))
        return;
    float en = e * wn;
    *wx = (*wx - wn * nx) * kt - en * nx;
    *wy = (*wy - wn * ny) * kt - en * ny;
    *wz = (*wz - wn * nz) * kt - en * nz;
}

/* 0 * a is 0 for every finite a and NaN otherwise. */
static int finite3(float a, float b, float c)
{
    return ((a * 0.0f + b * 0.0f) + c * 0.0f) == 0.0f;
}

size_t toi_scalar_respond(size_t n, const toi_motion *m, const toi_hits *hits, float e,
                          float friction)
{
    const float kt = 1.0f - friction;
    const int vel = m->ux != NULL;
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        float x = m->x[i], y = m->y[i], z = m->z[i];
        float vx = m->vx[i], vy = m->vy[i], vz = m->vz[i];
        float ux = 0.0f, uy = 0.0f, uz = 0.0f;
        if (vel)
            ux = m->ux[i], uy = m->uy[i], uz = m->uz[i];
        float t = hits->t[i];
        int hit = t >= 0.0f && t <= 1.0f;
        if (hit) {
            float nx = hits->nx[i], ny = hits->ny[i], nz = hits->nz[i];
            float d = hits->depth ? hits->depth[i] : 0.0f;
            if (d < 0.0f)
                d = 0.0f;
            x = (x + t * vx) + d * nx;
            y = (y + t * vy) + d * ny;
            z = (z + t * vz) + d * nz;
            float s = 1.0f - t;
            vx = s * vx, vy = s * vy, vz = s * vz;
            reflect(&vx, &vy, &vz, nx, ny, nz, e, kt);
            if (vel)
                reflect(&ux, &uy, &uz, nx, ny, nz, e, kt);
        } else {
            x = x + vx, y = y + vy, z = z + vz;
            vx = vy = vz = 0.0f;
        }
        /* a sphere with any non-finite result keeps its state */
        if (!finite3(x, y, z) || !finite3(vx, vy, vz) || !finite3(ux, uy, uz))
            continue;
        m->x[i] = x, m->y[i] = y, m->z[i] = z;
        m->vx[i] = vx, m->vy[i] = vy, m->vz[i] = vz;
        if (vel)
            m->ux[i] = ux, m->uy[i] = uy, m->uz[i] = uz;
        count += hit;
    }
    return count;
}
