/*
 * links.c: the fixture operations that differ between platforms (symbolic
 * links, fifos, a directory's modification time, permission bits), for the
 * POSIX test build.
 */
#define _POSIX_C_SOURCE 200809L

#include "spx_test.h"

#include <apr_file_io.h>
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

int spx_fixture_symlinks_possible(spx_fixture_t *fixture, const char *checks)
{
    (void)fixture;
    (void)checks;
    return 1;
}

int spx_fixture_fifos_possible(const char *checks)
{
    (void)checks;
    return 1;
}

void spx_fixture_set_mtime(spx_fixture_t *fixture, const char *relative, apr_time_t mtime)
{
    CU_ASSERT_EQUAL_FATAL(
        apr_file_mtime_set(spx_fixture_path(fixture, relative), mtime, fixture->pool), APR_SUCCESS);
}

int spx_fixture_modes_possible(const char *checks)
{
    (void)checks;
    return 1;
}

void spx_fixture_set_mode(spx_fixture_t *fixture, const char *relative, unsigned mode)
{
    umask(022);
    CU_ASSERT_EQUAL_FATAL(chmod(spx_fixture_path(fixture, relative), (mode_t)mode), 0);
}

unsigned spx_fixture_mode(spx_fixture_t *fixture, const char *relative)
{
    struct stat info;
    CU_ASSERT_EQUAL_FATAL(stat(spx_fixture_path(fixture, relative), &info), 0);
    return (unsigned)(info.st_mode & 07777);
}
