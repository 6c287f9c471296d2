/*
 * links.c: the fixture operations APR does not offer (symbolic links and
 * fifos), for the POSIX test build.
 */
#define _POSIX_C_SOURCE 200809L

#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void spx_fixture_symlink(spx_fixture_t *fixture, const char *target, const char *relative)
{
    if (spx_fixture_denials(fixture) > 0)
        return; /* a step of a change that was denied */
    CU_ASSERT_EQUAL_FATAL(symlink(target, spx_fixture_path(fixture, relative)), 0);
}

void spx_fixture_mkfifo(spx_fixture_t *fixture, const char *relative)
{
    CU_ASSERT_EQUAL_FATAL(mkfifo(spx_fixture_path(fixture, relative), 0600), 0);
}
