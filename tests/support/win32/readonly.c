/*
 * readonly.c: a directory in which no name can be created, for the rename
 * transaction's tests, in the Windows test build. The read-only attribute of
 * a Windows folder does not stop files being created in it, and Wine does not
 * enforce access control lists, so this build has no way to make one: the
 * helper says so and the test fails rather than pass without having tried.
 */
#include "spx_test.h"

const char *spx_fixture_read_only_dir(spx_fixture_t *fixture, const char *relative)
{
    (void)fixture;
    (void)relative;
    return "no way to make a folder refuse new files in this Windows build (the read-only "
           "attribute does not, and Wine does not enforce access control lists)";
}

void spx_fixture_writable_dir(spx_fixture_t *fixture, const char *relative)
{
    (void)fixture;
    (void)relative;
}
