/* seeds.c - writes the seed corpus fuzz/corpus/<family>/ for every query family: batches of
   partly hitting queries at several sizes, flags and output selections, and the same batches
   with special values (NaN, Inf, denormals, huge, tiny, -0) planted in them. */
#define _DEFAULT_SOURCE /* mkdir */
#include "fuzzcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const uint32_t special[] = {
    0x7fc00000u, /* NaN */
    0x7f800000u, /* +Inf */
    0xff800000u, /* -Inf */
    0x00000001u, /* smallest denormal */
    0x007fffffu, /* largest denormal */
    0x7f7fffffu, /* FLT_MAX */
    0xff7fffffu, /* -FLT_MAX */
    0x80000000u, /* -0 */
    0x7e800000u, /* 2^126 */
    0x00800000u, /* FLT_MIN */
};
#define NSPECIAL (sizeof special / sizeof special[0])

static void write_seed(const char *dir, const char *fam, int k, const uint8_t *buf, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/seed-%03d", dir, fam, k);
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(buf, 1, len, fp) != len || fclose(fp) != 0) {
        fprintf(stderr, "cannot write %s (does the directory exist?)\n", path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "fuzz/corpus";
    static uint8_t buf[1 << 16];
    static const size_t sizes[] = {1, 3, 4, 5, 8, 9, 17};
    for (int fi = 0; fi < t_nfamilies; fi++) {
        const t_family *f = &t_families[fi];
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, f->name);
        mkdir(dir, 0777); /* either may exist */
        mkdir(path, 0777);
        int k = 0;
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            t_batch b;
            t_batch_make(&b, f, n, n, 0x5eed + (uint64_t)si * 131 + t_family_seed(f));
            unsigned flags = si & 1 ? TOI_ALL_OVERLAPS : 0;
            if ((f->flags & TOI_CULL_BACKFACES) && si % 4 >= 2)
                flags |= TOI_CULL_BACKFACES;
            unsigned outmask = si % 3 == 0 ? 0x1ff : si % 3 == 1 ? 0x00 : 0x47;
            if (f->inout) /* which optional input groups are given */
                outmask = (unsigned)(si + 3) % 4;
            size_t len = t_fuzz_encode(f, &b.a, n, flags, outmask, buf, sizeof buf);
            if (len)
                write_seed(dir, f->name, k++, buf, len);
            /* the same batch with one special value in each float array in turn */
            for (int a = 0; a < t_nq(f); a++) {
                float *q = (float *)(uintptr_t)b.a.q[a];
                float keep = q[n / 2];
                uint32_t bits = special[(size_t)(a + k) % NSPECIAL];
                memcpy(&q[n / 2], &bits, 4);
                len = t_fuzz_encode(f, &b.a, n, TOI_ALL_OVERLAPS, 0x1ff, buf, sizeof buf);
                if (len && si == 2)
                    write_seed(dir, f->name, k++, buf, len);
                q[n / 2] = keep;
            }
            for (int s = 0; s < f->nsets && si == 2; s++)
                for (int a = 0; a < t_nset_arrays(f, s); a++) {
                    float *q = (float *)(uintptr_t)b.a.set[s][a];
                    uint32_t bits = special[(size_t)(a + k) % NSPECIAL];
                    memcpy(&q[0], &bits, 4);
                    len = t_fuzz_encode(f, &b.a, n, TOI_ALL_OVERLAPS, 0x1ff, buf, sizeof buf);
                    if (len)
                        write_seed(dir, f->name, k++, buf, len);
                }
            /* each per-call value special in turn (for toi_respond: an invalid call) */
            for (int a = 0; a < t_nparam(f) && si == 2 && f->pkind[a] != 'n'; a++) {
                float keep = b.a.param[a];
                uint32_t bits = special[(size_t)(a + k) % NSPECIAL];
                memcpy(&b.a.param[a], &bits, 4);
                len = t_fuzz_encode(f, &b.a, n, flags, 0xff, buf, sizeof buf);
                if (len)
                    write_seed(dir, f->name, k++, buf, len);
                b.a.param[a] = keep;
            }
            t_batch_free(&b);
        }
        printf("%s: %d seeds\n", f->name, k);
    }
    return 0;
}
