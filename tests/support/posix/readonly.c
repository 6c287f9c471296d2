/*
 * readonly.c: a directory in which no name can be created, removed or
 * replaced, for the rename transaction's tests (POSIX test build). Mode 0555
 * stops an ordinary user; root ignores permissions, so for root the
 * directory is also made immutable (Linux's FS_IMMUTABLE_FL, what `chattr +i`
 * sets, which stops root too on file systems that support it: ext4, xfs,
 * btrfs, tmpfs since Linux 6.0; macOS's UF_IMMUTABLE, what `chflags uchg`
 * sets, which stops root until it is cleared). Where neither holds, the
 * helper says so and the test fails rather than pass without having tried.
 */
#define _DEFAULT_SOURCE

#include "spx_test.h"

#include <apr_strings.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/fs.h>
#include <sys/ioctl.h>
#endif

#ifdef __linux__
/* ioctl's request parameter is an unsigned long in glibc and an int in musl;
 * FS_IOC_GETFLAGS (0x80086601) does not fit an int, and passing the constant
 * straight to musl's ioctl is an -Werror=overflow. Through this parameter it
 * is an ordinary conversion on musl (the kernel reads the request as 32 bits)
 * and none at all on glibc. */
static int flags_ioctl(int fd, unsigned long request, int *flags)
{
    return ioctl(fd, request, flags);
}
#endif

/* Set or clear the immutable attribute of path; 1 when done. */
static int set_immutable(const char *path, int on)
{
#ifdef __linux__
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int flags = 0;
    int done = flags_ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    if (done) {
        flags = on ? (flags | FS_IMMUTABLE_FL) : (flags & ~FS_IMMUTABLE_FL);
        done = flags_ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
    }
    close(fd);
    return done;
#elif defined(__APPLE__)
    struct stat status;
    if (stat(path, &status) != 0)
        return 0;
    unsigned flags = on ? (status.st_flags | UF_IMMUTABLE) : (status.st_flags & ~UF_IMMUTABLE);
    return chflags(path, flags) == 0;
#else
    (void)path;
    (void)on;
    return 0;
#endif
}

const char *spx_fixture_read_only_dir(spx_fixture_t *fixture, const char *relative)
{
    const char *path = spx_fixture_path(fixture, relative);
    if (chmod(path, 0555) != 0)
        return "chmod failed";
    if (geteuid() == 0 && !set_immutable(path, 1))
        return "running as root, and this file system or kernel cannot make a directory "
               "immutable (FS_IMMUTABLE_FL, UF_IMMUTABLE), so nothing here can make one read-only "
               "for root";
    /* Proof that it holds: creating a name in it must fail. */
    int fd = open(apr_pstrcat(fixture->pool, path, "/probe", NULL),
                  O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        close(fd);
        unlink(apr_pstrcat(fixture->pool, path, "/probe", NULL));
        return "the directory still accepts new files";
    }
    return NULL;
}

void spx_fixture_writable_dir(spx_fixture_t *fixture, const char *relative)
{
    const char *path = spx_fixture_path(fixture, relative);
    if (geteuid() == 0)
        set_immutable(path, 0);
    chmod(path, 0755);
}
