/*
 * fixture.c: a fresh temporary directory per test, and the file operations
 * the tests perform on it, written with APR so they read the same on every
 * platform. Any failure here fails the running test at once, except the
 * denials a test says it expects (spx_fixture_expect_denials).
 */
#include "spx_digest.h"
#include "spx_test.h"

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_general.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <apr_thread_proc.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_APR(call)                                                                            \
    do {                                                                                           \
        apr_status_t check_status_ = (call);                                                       \
        CU_ASSERT_EQUAL_FATAL(check_status_, APR_SUCCESS);                                         \
    } while (0)

spx_fixture_t *spx_fixture_new(void)
{
    apr_pool_t *pool = NULL;
    CHECK_APR(apr_pool_create(&pool, NULL));
    spx_fixture_t *fixture = apr_pcalloc(pool, sizeof(*fixture));
    fixture->pool = pool;
    CHECK_APR(apr_pool_create(&fixture->session, pool));
    const char *temp = NULL;
    CHECK_APR(apr_temp_dir_get(&temp, pool));
    for (int attempt = 0; attempt < 16; attempt++) {
        unsigned char random[8];
        CHECK_APR(apr_generate_random_bytes(random, sizeof(random)));
        char name[32];
        apr_snprintf(name, sizeof(name), "spx-test-%02x%02x%02x%02x%02x%02x%02x%02x", random[0],
                     random[1], random[2], random[3], random[4], random[5], random[6], random[7]);
        char *path = NULL;
        CHECK_APR(apr_filepath_merge(&path, temp, name, APR_FILEPATH_NATIVE, pool));
        if (apr_dir_make(path, APR_FPROT_OS_DEFAULT, pool) == APR_SUCCESS) {
            fixture->root = path;
            return fixture;
        }
    }
    CU_FAIL_FATAL("cannot create a temporary directory");
    return NULL;
}

const char *spx_fixture_path(spx_fixture_t *fixture, const char *relative)
{
    return apr_pstrcat(fixture->pool, fixture->root, "/", relative, NULL);
}

static void remove_tree(const char *path, apr_pool_t *pool)
{
    apr_finfo_t info;
    if (apr_stat(&info, path, APR_FINFO_LINK | APR_FINFO_TYPE, pool) != APR_SUCCESS)
        return;
    if (info.filetype == APR_DIR) {
        apr_file_perms_set(path, APR_FPROT_OS_DEFAULT);
        apr_dir_t *dir = NULL;
        if (apr_dir_open(&dir, path, pool) == APR_SUCCESS) {
            apr_finfo_t entry;
            while (apr_dir_read(&entry, APR_FINFO_NAME, dir) == APR_SUCCESS) {
                if (strcmp(entry.name, ".") == 0 || strcmp(entry.name, "..") == 0)
                    continue;
                remove_tree(apr_pstrcat(pool, path, "/", entry.name, NULL), pool);
            }
            apr_dir_close(dir);
        }
        apr_dir_remove(path, pool);
    } else {
        apr_file_attrs_set(path, 0, APR_FILE_ATTR_READONLY, pool); /* Windows */
        apr_file_remove(path, pool);
    }
}

void spx_fixture_expect_denials(spx_fixture_t *fixture)
{
    fixture->expect_denials = spx_held_inputs_locked();
    fixture->denials = 0;
}

int spx_fixture_denials(const spx_fixture_t *fixture)
{
    return fixture->denials;
}

/* Whether a change may go on: not after one of its steps was denied. */
static int may_change(const spx_fixture_t *fixture)
{
    return fixture->denials == 0;
}

/* The outcome of one step of a change: 1 when it happened; 0 when the
 * system denied it and denials are expected (counted); otherwise the test
 * fails. */
static int changed(spx_fixture_t *fixture, apr_status_t status)
{
    if (status == APR_SUCCESS)
        return 1;
    if (fixture->expect_denials && APR_STATUS_IS_EACCES(status)) {
        fixture->denials++;
        return 0;
    }
    CU_ASSERT_EQUAL_FATAL(status, APR_SUCCESS);
    return 0;
}

void spx_fixture_end_session(spx_fixture_t *fixture)
{
    fixture->expect_denials = 0;
    fixture->denials = 0;
    apr_pool_destroy(fixture->session);
    CHECK_APR(apr_pool_create(&fixture->session, fixture->pool));
}

/* The pool goes first: what a test still holds in it (Windows denies
 * deleting a held file) is released before the tree is removed. */
void spx_fixture_free(spx_fixture_t *fixture)
{
    apr_pool_t *pool = NULL;
    CHECK_APR(apr_pool_create(&pool, NULL));
    const char *root = apr_pstrdup(pool, fixture->root);
    apr_pool_destroy(fixture->pool);
    remove_tree(root, pool);
    apr_pool_destroy(pool);
}

static int make_parents(spx_fixture_t *fixture, const char *relative)
{
    const char *slash = strrchr(relative, '/');
    if (!slash)
        return 1;
    return changed(fixture,
                   apr_dir_make_recursive(
                       spx_fixture_path(fixture, apr_pstrndup(fixture->pool, relative,
                                                              (apr_size_t)(slash - relative))),
                       APR_FPROT_OS_DEFAULT, fixture->pool));
}

static void write_bytes(spx_fixture_t *fixture, const char *relative, apr_int32_t flags,
                        apr_off_t offset, const void *bytes, apr_size_t length)
{
    apr_file_t *file = NULL;
    if (!may_change(fixture) ||
        !changed(fixture, apr_file_open(&file, spx_fixture_path(fixture, relative), flags,
                                        APR_FPROT_OS_DEFAULT, fixture->pool)))
        return;
    if (offset > 0)
        CHECK_APR(apr_file_seek(file, APR_SET, &offset));
    CHECK_APR(apr_file_write_full(file, bytes, length, NULL));
    CHECK_APR(apr_file_close(file));
}

void spx_fixture_write(spx_fixture_t *fixture, const char *relative, const char *text)
{
    if (may_change(fixture) && make_parents(fixture, relative))
        write_bytes(fixture, relative, APR_FOPEN_WRITE | APR_FOPEN_CREATE | APR_FOPEN_TRUNCATE, 0,
                    text, strlen(text));
}

void spx_fixture_write_size(spx_fixture_t *fixture, const char *relative, apr_size_t size)
{
    if (!may_change(fixture) || !make_parents(fixture, relative))
        return;
    char *bytes = malloc(size ? size : 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    memset(bytes, 'x', size);
    write_bytes(fixture, relative, APR_FOPEN_WRITE | APR_FOPEN_CREATE | APR_FOPEN_TRUNCATE, 0,
                bytes, size);
    free(bytes);
}

void spx_fixture_patch(spx_fixture_t *fixture, const char *relative, apr_off_t offset,
                       const char *text)
{
    write_bytes(fixture, relative, APR_FOPEN_WRITE, offset, text, strlen(text));
}

void spx_fixture_append(spx_fixture_t *fixture, const char *relative, const char *text)
{
    write_bytes(fixture, relative, APR_FOPEN_WRITE | APR_FOPEN_APPEND, 0, text, strlen(text));
}

void spx_fixture_truncate(spx_fixture_t *fixture, const char *relative, apr_off_t size)
{
    apr_file_t *file = NULL;
    if (!may_change(fixture) ||
        !changed(fixture, apr_file_open(&file, spx_fixture_path(fixture, relative), APR_FOPEN_WRITE,
                                        APR_FPROT_OS_DEFAULT, fixture->pool)))
        return;
    CHECK_APR(apr_file_trunc(file, size));
    CHECK_APR(apr_file_close(file));
}

void spx_fixture_mkdir(spx_fixture_t *fixture, const char *relative)
{
    if (may_change(fixture))
        changed(fixture, apr_dir_make_recursive(spx_fixture_path(fixture, relative),
                                                APR_FPROT_OS_DEFAULT, fixture->pool));
}

void spx_fixture_rename(spx_fixture_t *fixture, const char *from, const char *to)
{
    if (may_change(fixture))
        changed(fixture, apr_file_rename(spx_fixture_path(fixture, from),
                                         spx_fixture_path(fixture, to), fixture->pool));
}

void spx_fixture_remove(spx_fixture_t *fixture, const char *relative)
{
    if (may_change(fixture))
        changed(fixture, apr_file_remove(spx_fixture_path(fixture, relative), fixture->pool));
}

void spx_fixture_hard_link(spx_fixture_t *fixture, const char *existing, const char *link)
{
    if (may_change(fixture) && make_parents(fixture, link))
        changed(fixture, apr_file_link(spx_fixture_path(fixture, existing),
                                       spx_fixture_path(fixture, link)));
}

/* Windows has no permission bits (APR_ENOTIMPL): there the nearest change is
 * the read-only attribute, set when perms lack the owner's write bit. */
void spx_fixture_chmod(spx_fixture_t *fixture, const char *relative, apr_fileperms_t perms)
{
    const char *path = spx_fixture_path(fixture, relative);
    apr_status_t status = apr_file_perms_set(path, perms);
    if (APR_STATUS_IS_ENOTIMPL(status))
        status = apr_file_attrs_set(path, (perms & APR_FPROT_UWRITE) ? 0 : APR_FILE_ATTR_READONLY,
                                    APR_FILE_ATTR_READONLY, fixture->pool);
    CHECK_APR(status);
}

apr_time_t spx_fixture_mtime(spx_fixture_t *fixture, const char *relative)
{
    apr_finfo_t info;
    CHECK_APR(apr_stat(&info, spx_fixture_path(fixture, relative), APR_FINFO_MTIME, fixture->pool));
    return info.mtime;
}

const char *spx_fixture_read(spx_fixture_t *fixture, const char *relative)
{
    apr_file_t *file = NULL;
    apr_finfo_t info;
    CHECK_APR(apr_file_open(&file, spx_fixture_path(fixture, relative), APR_FOPEN_READ,
                            APR_FPROT_OS_DEFAULT, fixture->pool));
    CHECK_APR(apr_file_info_get(&info, APR_FINFO_SIZE, file));
    char *bytes = apr_palloc(fixture->pool, (apr_size_t)info.size + 1);
    apr_size_t got = 0;
    if (info.size > 0)
        CHECK_APR(apr_file_read_full(file, bytes, (apr_size_t)info.size, &got));
    bytes[got] = '\0';
    CHECK_APR(apr_file_close(file));
    return bytes;
}

static int compare_lines(const void *left, const void *right)
{
    return strcmp(*(const char *const *)left, *(const char *const *)right);
}

static void inventory_tree(spx_fixture_t *fixture, const char *relative, apr_array_header_t *lines)
{
    apr_pool_t *pool = fixture->pool;
    const char *path = relative[0] ? spx_fixture_path(fixture, relative) : fixture->root;
    apr_finfo_t info;
    /* Windows has neither inode numbers nor permission bits: APR says
     * APR_INCOMPLETE, and those two are left out of the line. */
    apr_status_t status =
        apr_stat(&info, path,
                 APR_FINFO_LINK | APR_FINFO_TYPE | APR_FINFO_SIZE | APR_FINFO_MTIME |
                     APR_FINFO_CTIME | APR_FINFO_INODE | APR_FINFO_PROT,
                 pool);
    if (!APR_STATUS_IS_INCOMPLETE(status))
        CHECK_APR(status);
    CU_ASSERT_FATAL(
        (info.valid & (APR_FINFO_TYPE | APR_FINFO_SIZE | APR_FINFO_MTIME | APR_FINFO_CTIME)) ==
        (APR_FINFO_TYPE | APR_FINFO_SIZE | APR_FINFO_MTIME | APR_FINFO_CTIME));
    if (!(info.valid & APR_FINFO_INODE))
        info.inode = 0;
    if (!(info.valid & APR_FINFO_PROT))
        info.protection = 0;
    const char *digest = "-";
    if (info.filetype == APR_REG) {
        const char *bytes = spx_fixture_read(fixture, relative);
        spx_sha256_t sha;
        spx_sha256(bytes, (apr_size_t)info.size, &sha);
        digest = spx_digest_text(&sha, pool);
    }
    APR_ARRAY_PUSH(lines, const char *) =
        apr_psprintf(pool,
                     "%s type=%d size=%" APR_OFF_T_FMT " mtime=%" APR_TIME_T_FMT
                     " ctime=%" APR_TIME_T_FMT " inode=%" APR_UINT64_T_FMT " perms=%x %s",
                     relative[0] ? relative : ".", (int)info.filetype, info.size, info.mtime,
                     info.ctime, (apr_uint64_t)info.inode, (unsigned)info.protection, digest);
    if (info.filetype != APR_DIR)
        return;
    apr_dir_t *dir = NULL;
    CHECK_APR(apr_dir_open(&dir, path, pool));
    apr_finfo_t entry;
    while (apr_dir_read(&entry, APR_FINFO_NAME, dir) == APR_SUCCESS) {
        if (strcmp(entry.name, ".") == 0 || strcmp(entry.name, "..") == 0)
            continue;
        inventory_tree(fixture,
                       relative[0] ? apr_pstrcat(pool, relative, "/", entry.name, NULL)
                                   : apr_pstrdup(pool, entry.name),
                       lines);
    }
    apr_dir_close(dir);
}

const char *spx_fixture_inventory(spx_fixture_t *fixture)
{
    apr_array_header_t *lines = apr_array_make(fixture->pool, 16, sizeof(const char *));
    inventory_tree(fixture, "", lines);
    qsort(lines->elts, (size_t)lines->nelts, sizeof(const char *), compare_lines);
    return apr_array_pstrcat(fixture->pool, lines, '\n');
}

typedef struct stack_run_t {
    void (*body)(void *data);
    void *data;
} stack_run_t;

/* Returns instead of calling apr_thread_exit(): pthread_exit() on a small
 * stack trips AddressSanitizer's own thread teardown. */
static void *APR_THREAD_FUNC run_body(apr_thread_t *thread, void *data)
{
    (void)thread;
    stack_run_t *run = data;
    run->body(run->data);
    return NULL;
}

void spx_test_with_stack(apr_size_t stack_bytes, void (*body)(void *data), void *data,
                         apr_pool_t *pool)
{
    stack_run_t run = {body, data};
    apr_threadattr_t *attributes = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_threadattr_create(&attributes, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_threadattr_stacksize_set(attributes, stack_bytes), APR_SUCCESS);
    apr_thread_t *thread = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_thread_create(&thread, attributes, run_body, &run, pool),
                          APR_SUCCESS);
    apr_status_t exit_status = APR_SUCCESS;
    apr_thread_join(&exit_status, thread);
}
