/*
 * retention.c: what holding an input means on POSIX, for the tests: it only
 * observes; other programs may still write, delete and rename held files
 * (the session finds that as drift). POSIX test build.
 */
#include "spx_test.h"

int spx_held_inputs_locked(void)
{
    return 0;
}
