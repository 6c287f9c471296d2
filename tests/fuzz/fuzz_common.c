/*
 * fuzz_common.c: the part every fuzz target shares (spx_fuzz.h): APR is
 * started once per process, and a broken invariant aborts with its rule.
 */
#include "spx_fuzz.h"

#include <apr_general.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (apr_initialize() != APR_SUCCESS) {
        fprintf(stderr, "fuzz: cannot initialise APR\n");
        abort();
    }
    return 0;
}

void spx_fuzz_fail(const char *file, int line, const char *rule)
{
    fprintf(stderr, "\n%s:%d: invariant broken: %s\n", file, line, rule);
    abort();
}
