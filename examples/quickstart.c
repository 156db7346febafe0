/* quickstart.c - the README's example: sweep a batch of moving sphere pairs */
#include <stdio.h>
#include <toi.h>

int main(void)
{
    /* Two pairs: A moves 10 units along +x toward a resting B; the second A passes wide. */
    const float ax[] = {-5, -5}, ay[] = {0, 2.5f}, az[] = {0, 0};
    const float avx[] = {10, 10}, avy[] = {0, 0}, avz[] = {0, 0}, ar[] = {1, 1};
    const float bx[] = {0, 0}, by[] = {0, 0}, bz[] = {0, 0};
    const float bvx[] = {0, 0}, bvy[] = {0, 0}, bvz[] = {0, 0}, br[] = {1, 1};
    toi_spheres a = {ax, ay, az, avx, avy, avz, ar};
    toi_spheres b = {bx, by, bz, bvx, bvy, bvz, br};

    float t[2], nx[2], ny[2], nz[2];
    toi_hits out = {.t = t, .nx = nx, .ny = ny, .nz = nz}; /* other outputs not wanted */

    ptrdiff_t hits = toi_sweep_spheres(2, &a, &b, 0, &out);
    if (hits < 0) {
        fprintf(stderr, "toi: %s\n", toi_strerror((int)hits));
        return 1;
    }
    printf("backend %s: %td of 2 pairs hit\n", toi_backend_name(toi_get_backend()), hits);
    for (int i = 0; i < 2; i++) {
        if (t[i] == TOI_NO_HIT)
            printf("pair %d: no contact\n", i);
        else
            printf("pair %d: contact at t = %g, normal (%g, %g, %g)\n", i, t[i], nx[i], ny[i],
                   nz[i]);
    }
    return hits == 1 && t[0] > 0.29f && t[0] < 0.31f ? 0 : 1;
}
