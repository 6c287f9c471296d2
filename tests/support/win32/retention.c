/*
 * retention.c: what holding an input means on Windows, for the tests: it is
 * authority; the session's handles share reading only, so other programs'
 * writes, deletes and renames of held files and directories are denied.
 * Windows test build.
 */
#include "spx_test.h"

int spx_held_inputs_locked(void)
{
    return 1;
}
