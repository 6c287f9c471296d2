/*
 * assert.c: what a failed SPX_ASSERT does (spx_assert.h).
 */
#include "spx_assert.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn void spx_assert_failed(const char *file, int line, const char *condition)
{
    fprintf(stderr, "%s:%d: assertion failed: %s\n", file, line, condition);
    fflush(stderr);
    abort();
}
