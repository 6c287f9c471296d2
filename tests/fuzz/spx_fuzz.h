/*
 * spx_fuzz.h: what the fuzz targets of tests/fuzz/ share. Each target
 * defines LLVMFuzzerTestOneInput (libFuzzer's entry) and checks its own
 * invariants with SPX_FUZZ_CHECK, which reports the broken rule and aborts,
 * so libFuzzer (and the replay suites of the normal build, replay.c) count a
 * broken invariant as a crash. LLVMFuzzerInitialize (fuzz_common.c) starts
 * APR once per process.
 */
#ifndef SPX_FUZZ_H
#define SPX_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Report the rule that failed (file, line, text) on stderr and abort. */
void spx_fuzz_fail(const char *file, int line, const char *rule);

#define SPX_FUZZ_CHECK(condition)                                                                  \
    do {                                                                                           \
        if (!(condition))                                                                          \
            spx_fuzz_fail(__FILE__, __LINE__, #condition);                                         \
    } while (0)

#endif /* SPX_FUZZ_H */
