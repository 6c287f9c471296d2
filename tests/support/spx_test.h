/*
 * spx_test.h: what every CUnit suite of Semaprax shares: running a suite,
 * and a fresh temporary directory per test with helpers to build, change
 * and inventory a file tree in it.
 */
#ifndef SPX_TEST_H
#define SPX_TEST_H

#include <CUnit/CUnit.h>
#include <apr_file_info.h>
#include <apr_pools.h>

/* Run the tests of one suite with CUnit's basic interface; the exit status
 * for main(): 0 when every test passed. */
int spx_test_run_suite(const char *suite_name, CU_TestInfo *tests);

/* A fresh, empty temporary directory and a pool that lives as long as it. */
typedef struct spx_fixture_t {
    apr_pool_t *pool;
    const char *root;    /* absolute path of the directory */
    apr_pool_t *session; /* projects opened by spx_fixture_project live here */
    int expect_denials;  /* see spx_fixture_expect_denials */
    int denials;
} spx_fixture_t;

spx_fixture_t *spx_fixture_new(void);
/* Remove the directory and everything in it, and the pool. */
void spx_fixture_free(spx_fixture_t *fixture);

/* Release everything opened in the session pool (a project holds its inputs
 * open for its pool's life, and Windows denies changing a held file) and
 * start a new one: tests call it before changing the files of a project they
 * opened and are done with. */
void spx_fixture_end_session(spx_fixture_t *fixture);

/* Whether this platform's retention is authority (platform.md): on Windows a
 * held file or directory cannot be written, deleted or renamed by anyone else
 * while a session holds it; on POSIX holding only observes. (posix/ or
 * win32/ test support) */
int spx_held_inputs_locked(void);

/* Tests that change held inputs say what they expect on both platforms: on
 * POSIX the change happens and is drift; on Windows the system denies it and
 * the inputs stay valid. After this call, where held inputs are locked, a
 * change (write, patch, append, truncate, rename, remove, mkdir, link) that
 * fails with "access denied" or "sharing violation" is counted as a denial
 * instead of failing the test, and once one is denied the change's later
 * steps (which depend on it) are skipped. Where held inputs are not locked
 * it changes nothing. spx_fixture_end_session() ends it. */
void spx_fixture_expect_denials(spx_fixture_t *fixture);
/* How many changes were denied since spx_fixture_expect_denials(). */
int spx_fixture_denials(const spx_fixture_t *fixture);

/* The absolute path of relative inside the fixture. */
const char *spx_fixture_path(spx_fixture_t *fixture, const char *relative);

/* Write text to relative (creating parent directories), replacing it. */
void spx_fixture_write(spx_fixture_t *fixture, const char *relative, const char *text);
/* Write size bytes of 'x' (used for size limits). */
void spx_fixture_write_size(spx_fixture_t *fixture, const char *relative, apr_size_t size);
/* Overwrite in place from offset, without truncating or replacing the file. */
void spx_fixture_patch(spx_fixture_t *fixture, const char *relative, apr_off_t offset,
                       const char *text);
void spx_fixture_append(spx_fixture_t *fixture, const char *relative, const char *text);
void spx_fixture_truncate(spx_fixture_t *fixture, const char *relative, apr_off_t size);
void spx_fixture_mkdir(spx_fixture_t *fixture, const char *relative);
void spx_fixture_rename(spx_fixture_t *fixture, const char *from, const char *to);
void spx_fixture_remove(spx_fixture_t *fixture, const char *relative);
void spx_fixture_hard_link(spx_fixture_t *fixture, const char *existing, const char *link);
void spx_fixture_chmod(spx_fixture_t *fixture, const char *relative, apr_fileperms_t perms);
/* Modification time of relative, in microseconds since the epoch. */
apr_time_t spx_fixture_mtime(spx_fixture_t *fixture, const char *relative);
void spx_fixture_set_mtime(spx_fixture_t *fixture, const char *relative, apr_time_t mtime);
/* Read a whole file into the fixture's pool. */
const char *spx_fixture_read(spx_fixture_t *fixture, const char *relative);

/* Every name below the fixture's root with its type, size, times and (for
 * files) digest, one line each, sorted: two equal inventories mean nothing
 * was created, removed, written or had its metadata changed. */
const char *spx_fixture_inventory(spx_fixture_t *fixture);

/* POSIX only (tests/support/posix/): a symbolic link at relative pointing to
 * target, and a fifo at relative. */
void spx_fixture_symlink(spx_fixture_t *fixture, const char *target, const char *relative);
void spx_fixture_mkfifo(spx_fixture_t *fixture, const char *relative);
/* Whether this system can make what the two above make. Symbolic links: on
 * POSIX always; on Windows when the account may make them, and never under
 * Wine 8, which says it made one and makes nothing. Fifos: never on Windows,
 * which has none in the file system. When not, each prints "not run here:
 * CHECKS (why)" with the caller's description of the checks it leaves out:
 * tests run their link and fifo checks only where these say yes. */
int spx_fixture_symlinks_possible(spx_fixture_t *fixture, const char *checks);
int spx_fixture_fifos_possible(const char *checks);

/* Run body(data) on a thread whose stack is stack_bytes, and wait for it:
 * how a test shows that something does not recurse once per element. */
void spx_test_with_stack(apr_size_t stack_bytes, void (*body)(void *data), void *data,
                         apr_pool_t *pool);

/* Permission bits, where files have them (POSIX): spx_fixture_set_mode
 * sets relative's and makes the process's umask 022, so that what a child
 * process creates has a known mode; spx_fixture_mode reads them back.
 * spx_fixture_modes_possible says whether the system has them (on Windows it
 * prints "not run here: CHECKS (why)" and says no). */
int spx_fixture_modes_possible(const char *checks);
void spx_fixture_set_mode(spx_fixture_t *fixture, const char *relative, unsigned mode);
unsigned spx_fixture_mode(spx_fixture_t *fixture, const char *relative);

/* Make the directory relative refuse new names, even to root where the
 * system allows it (tests/support/posix/ and win32/readonly.c): NULL when
 * done and checked, otherwise why it cannot be done here.
 * spx_fixture_writable_dir undoes it (before the fixture is freed). */
const char *spx_fixture_read_only_dir(spx_fixture_t *fixture, const char *relative);
void spx_fixture_writable_dir(spx_fixture_t *fixture, const char *relative);

#endif /* SPX_TEST_H */
