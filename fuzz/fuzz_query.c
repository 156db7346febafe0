/* fuzz_query.c - libFuzzer target for one query family (TOI_FUZZ_FAMILY, e.g. "spheres"):
   every backend against the scalar reference and the contract's invariants (fuzzcheck.c). */
#include "fuzzcheck.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const t_family *fam;
    char msg[512];
    if (!fam && !(fam = t_family_named(TOI_FUZZ_FAMILY))) {
        fprintf(stderr, "no query family named %s\n", TOI_FUZZ_FAMILY);
        abort();
    }
    if (t_fuzz_one(fam, data, size, msg, sizeof msg)) {
        fprintf(stderr, "%s: %s\n", TOI_FUZZ_FAMILY, msg);
        abort();
    }
    return 0;
}
