/* test_fuzz.c - replays the committed fuzz inputs (seed corpus and regressions) of every query
   family through the fuzz check, on every backend of this build. TOI_TEST_FUZZ_DIR names the
   directory (default "fuzz", relative to the source tree where the tests run). */
#define _DEFAULT_SOURCE /* opendir, readdir */
#include "fuzzcheck.h"
#include "test.h"

#include <dirent.h>
#include <stdlib.h>

static const char *fuzz_dir(void)
{
    const char *d = getenv("TOI_TEST_FUZZ_DIR");
    return d && *d ? d : "fuzz";
}

/* Replays every file of dir/sub/family; returns how many, or -1 if the directory is absent. */
static long replay(const t_family *f, const char *sub)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", fuzz_dir(), sub, f->name);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    static uint8_t buf[1 << 16];
    long count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char file[2048];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        FILE *fp = fopen(file, "rb");
        if (!fp)
            continue;
        size_t len = fread(buf, 1, sizeof buf, fp);
        fclose(fp);
        char msg[512];
        if (t_fuzz_one(f, buf, len, msg, sizeof msg))
            CHECK(0, "%s: %s", file, msg);
        count++;
    }
    closedir(d);
    return count;
}

static void case_replay(const void *ctx)
{
    const t_family *f = ctx;
    long seeds = replay(f, "corpus"), regressions = replay(f, "regressions");
    CHECK(seeds > 0, "no seed corpus in %s/corpus/%s (run from the source tree, or set "
          "TOI_TEST_FUZZ_DIR)", fuzz_dir(), f->name);
    printf("    %ld seeds, %ld regression inputs\n", seeds, regressions < 0 ? 0 : regressions);
}

void group_fuzz_replay(void)
{
    char name[128];
    for (int fi = 0; fi < t_nfamilies; fi++) {
        snprintf(name, sizeof name, "fuzz replay/%s", t_families[fi].name);
        t_run(name, case_replay, &t_families[fi]);
    }
}
