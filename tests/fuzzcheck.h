/* fuzzcheck.h - one fuzz input for one query family: decode bytes into a call, run it on every
   kernel table, require bit-identical results and the contract's invariants. Shared by the
   libFuzzer targets (fuzz/) and the test suite, which replays the committed corpus. */
#ifndef TOI_FUZZCHECK_H
#define TOI_FUZZCHECK_H

#include "families.h"

#define T_FUZZ_MAXN 64 /* queries per input */

/* NULL when the input passes; otherwise a description of the first violation in msg. */
const char *t_fuzz_one(const t_family *f, const uint8_t *data, size_t size, char *msg,
                       size_t msglen);

/* The input that decodes into this call (n <= T_FUZZ_MAXN, each set <= 255 members, valid
   indices); returns its length. outmask: bit k-1 requests output k of t nx ny nz px py pz
   depth, bit 7 index and feature, bit 8 t_exit. */
size_t t_fuzz_encode(const t_family *f, const t_args *a, size_t n, unsigned flags,
                     unsigned outmask, uint8_t *buf, size_t cap);

#endif /* TOI_FUZZCHECK_H */
