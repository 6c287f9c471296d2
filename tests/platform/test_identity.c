/*
 * test_identity.c: the held-object interface on a real file system: opening
 * relative to held directories without following links, identities (and how
 * workspace_revision renders their object ids), reads through the handle,
 * "what is at this name now", and the rename transaction's temp files.
 */
#include "spx_platform.h"
#include "spx_test.h"

#include <string.h>

typedef struct held_root_t {
    spx_fixture_t *fixture;
    spx_dir_t *root;
} held_root_t;

static held_root_t hold_root(void)
{
    held_root_t held = {spx_fixture_new(), NULL};
    CU_ASSERT_EQUAL_FATAL(
        spx_dir_open_root(&held.root, held.fixture->root, held.fixture->pool, NULL), APR_SUCCESS);
    return held;
}

static spx_identity_t identity_of(spx_file_t *file, apr_pool_t *pool)
{
    spx_identity_t identity;
    CU_ASSERT_EQUAL_FATAL(spx_file_identity(file, &identity, pool, NULL), APR_SUCCESS);
    return identity;
}

static spx_file_t *open_file(held_root_t *held, const char *name)
{
    spx_file_t *file = NULL;
    const char *message = NULL;
    apr_status_t status = spx_file_open(&file, held->root, name, held->fixture->pool, &message);
    if (status != APR_SUCCESS)
        fprintf(stderr, "\n  %s\n", message);
    CU_ASSERT_EQUAL_FATAL(status, APR_SUCCESS);
    return file;
}

static void test_same_file_twice_same_identity(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "a.spx", "one");
    spx_identity_t first = identity_of(open_file(&held, "a.spx"), held.fixture->pool);
    spx_identity_t second = identity_of(open_file(&held, "a.spx"), held.fixture->pool);
    CU_ASSERT_TRUE(spx_identity_same_object(&first, &second));
    CU_ASSERT_EQUAL(first.kind, SPX_OBJECT_FILE);
    CU_ASSERT_EQUAL(first.size, 3);
    CU_ASSERT_EQUAL(first.links, 1);
    spx_fixture_free(held.fixture);
}

static void test_two_files_differ(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "a.spx", "same");
    spx_fixture_write(held.fixture, "b.spx", "same");
    spx_identity_t a = identity_of(open_file(&held, "a.spx"), held.fixture->pool);
    spx_identity_t b = identity_of(open_file(&held, "b.spx"), held.fixture->pool);
    CU_ASSERT_FALSE(spx_identity_same_object(&a, &b));
    CU_ASSERT_EQUAL(a.volume, b.volume);
    spx_fixture_free(held.fixture);
}

static void test_hard_links_share_identity(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "a.spx", "linked");
    spx_fixture_hard_link(held.fixture, "a.spx", "b.spx");
    spx_identity_t a = identity_of(open_file(&held, "a.spx"), held.fixture->pool);
    spx_identity_t b = identity_of(open_file(&held, "b.spx"), held.fixture->pool);
    CU_ASSERT_TRUE(spx_identity_same_object(&a, &b));
    CU_ASSERT_EQUAL(a.links, 2);
    spx_fixture_free(held.fixture);
}

/* Object ids render as lowercase hex without leading zeros: the 64-bit
 * number alone while the high half is 0 (so POSIX's st_ino text is what it
 * always was), up to 32 digits for a 128-bit Windows file id; and the high
 * half takes part in sameness. */
static void test_object_ids_render_up_to_32_digits(void)
{
    spx_identity_t identity = {0};
    char text[SPX_IDENTITY_OBJECT_HEX];
    identity.object = 0x1f2e;
    spx_identity_object_hex(&identity, text);
    CU_ASSERT_STRING_EQUAL(text, "1f2e");
    identity.object = 0;
    spx_identity_object_hex(&identity, text);
    CU_ASSERT_STRING_EQUAL(text, "0");
    identity.object = 0xffffffffffffffffu;
    spx_identity_object_hex(&identity, text);
    CU_ASSERT_STRING_EQUAL(text, "ffffffffffffffff");
    identity.object = 0x1;
    identity.object_high = 0xab;
    spx_identity_object_hex(&identity, text);
    CU_ASSERT_STRING_EQUAL(text, "ab0000000000000001");
    identity.object = 0xffffffffffffffffu;
    identity.object_high = 0xffffffffffffffffu;
    spx_identity_object_hex(&identity, text);
    CU_ASSERT_STRING_EQUAL(text, "ffffffffffffffffffffffffffffffff");
    CU_ASSERT_EQUAL(strlen(text) + 1, SPX_IDENTITY_OBJECT_HEX);

    spx_identity_t a = {0}, b = {0};
    a.kind = b.kind = SPX_OBJECT_FILE;
    a.object = b.object = 7;
    CU_ASSERT_TRUE(spx_identity_same_object(&a, &b));
    b.object_high = 1;
    CU_ASSERT_FALSE(spx_identity_same_object(&a, &b));
}

static void test_directory_identity(void)
{
    held_root_t held = hold_root();
    spx_fixture_mkdir(held.fixture, "src");
    spx_dir_t *first = NULL, *second = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_child(&first, held.root, "src", held.fixture->pool, NULL),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_child(&second, held.root, "src", held.fixture->pool, NULL),
                          APR_SUCCESS);
    spx_identity_t a, b, root;
    CU_ASSERT_EQUAL(spx_dir_identity(first, &a, held.fixture->pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_dir_identity(second, &b, held.fixture->pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_dir_identity(held.root, &root, held.fixture->pool, NULL), APR_SUCCESS);
    CU_ASSERT_TRUE(spx_identity_same_object(&a, &b));
    CU_ASSERT_FALSE(spx_identity_same_object(&a, &root));
    CU_ASSERT_EQUAL(a.kind, SPX_OBJECT_DIR);
    CU_ASSERT_STRING_EQUAL(spx_dir_path(first), "src");
    spx_fixture_free(held.fixture);
}

static void test_links_are_refused(void)
{
    held_root_t held = hold_root();
    if (!spx_fixture_symlinks_possible(held.fixture, "links to files and directories refused")) {
        spx_fixture_free(held.fixture);
        return;
    }
    spx_fixture_write(held.fixture, "real.spx", "x");
    spx_fixture_mkdir(held.fixture, "realdir");
    spx_fixture_symlink(held.fixture, "real.spx", "file-link.spx");
    spx_fixture_symlink(held.fixture, "realdir", "dir-link");
    spx_fixture_symlink(held.fixture, "nowhere", "dangling.spx");
    spx_file_t *file = NULL;
    spx_dir_t *dir = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_file_open(&file, held.root, "file-link.spx", held.fixture->pool, &message),
                    SPX_STATUS_LINK);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "'file-link.spx' is a symbolic link"));
    CU_ASSERT_EQUAL(spx_file_open(&file, held.root, "dangling.spx", held.fixture->pool, NULL),
                    SPX_STATUS_LINK);
    CU_ASSERT_EQUAL(spx_dir_open_child(&dir, held.root, "dir-link", held.fixture->pool, &message),
                    SPX_STATUS_LINK);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "'dir-link' is a symbolic link"));
    /* A link to a directory is not a file either. */
    CU_ASSERT_EQUAL(spx_file_open(&file, held.root, "dir-link", held.fixture->pool, NULL),
                    SPX_STATUS_LINK);
    spx_fixture_free(held.fixture);
}

static void test_wrong_kinds_are_refused(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "file.spx", "x");
    spx_fixture_mkdir(held.fixture, "dir.spx");
    int fifos = spx_fixture_fifos_possible("a fifo is not a regular file, and is not waited on");
    if (fifos)
        spx_fixture_mkfifo(held.fixture, "fifo.spx");
    spx_file_t *file = NULL;
    spx_dir_t *dir = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_file_open(&file, held.root, "dir.spx", held.fixture->pool, &message),
                    SPX_STATUS_NOT_REGULAR);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "not a regular file"));
    /* Opening a fifo must not wait for a writer. */
    if (fifos)
        CU_ASSERT_EQUAL(spx_file_open(&file, held.root, "fifo.spx", held.fixture->pool, NULL),
                        SPX_STATUS_NOT_REGULAR);
    CU_ASSERT_EQUAL(spx_dir_open_child(&dir, held.root, "file.spx", held.fixture->pool, &message),
                    SPX_STATUS_NOT_REGULAR);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "not a directory"));
    CU_ASSERT_EQUAL(spx_dir_open_root(&dir, spx_fixture_path(held.fixture, "file.spx"),
                                      held.fixture->pool, NULL),
                    SPX_STATUS_NOT_REGULAR);
    CU_ASSERT_EQUAL(spx_file_open(&file, held.root, "absent.spx", held.fixture->pool, &message),
                    APR_ENOENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "cannot open 'absent.spx'"));
    spx_fixture_free(held.fixture);
}

static void test_names_must_be_one_component(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "sub/a.spx", "x");
    spx_file_t *file = NULL;
    spx_dir_t *dir = NULL;
    CU_ASSERT_EQUAL(spx_file_open(&file, held.root, "sub/a.spx", held.fixture->pool, NULL),
                    SPX_STATUS_BAD_NAME);
    CU_ASSERT_EQUAL(spx_dir_open_child(&dir, held.root, "..", held.fixture->pool, NULL),
                    SPX_STATUS_BAD_NAME);
    CU_ASSERT_EQUAL(spx_dir_open_child(&dir, held.root, ".", held.fixture->pool, NULL),
                    SPX_STATUS_BAD_NAME);
    CU_ASSERT_EQUAL(spx_dir_open_child(&dir, held.root, "", held.fixture->pool, NULL),
                    SPX_STATUS_BAD_NAME);
    spx_fixture_free(held.fixture);
}

/* Reads go through the held handle: after the name is replaced, the handle
 * still reads the bytes it was opened on. */
static void test_read_through_handle(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "a.spx", "original");
    spx_file_t *file = open_file(&held, "a.spx");
    /* Windows denies the replacement; either way the handle reads the same. */
    spx_fixture_expect_denials(held.fixture);
    spx_fixture_write(held.fixture, "new.spx", "replacement");
    spx_fixture_rename(held.fixture, "new.spx", "a.spx");
    unsigned char *bytes = NULL;
    apr_size_t length = 0;
    CU_ASSERT_EQUAL_FATAL(spx_file_read_all(file, 100, &bytes, &length, held.fixture->pool, NULL),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL(length, 8);
    CU_ASSERT_STRING_EQUAL((const char *)bytes, "original");
    spx_fixture_free(held.fixture);
}

static void test_read_all_limit(void)
{
    held_root_t held = hold_root();
    spx_fixture_write_size(held.fixture, "a.spx", 101);
    spx_file_t *file = open_file(&held, "a.spx");
    unsigned char *bytes = NULL;
    apr_size_t length = 0;
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_file_read_all(file, 100, &bytes, &length, held.fixture->pool, &message),
                    SPX_STATUS_TOO_LARGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "'a.spx' is 101 bytes, over the limit of 100"));
    CU_ASSERT_EQUAL(spx_file_read_all(file, 101, &bytes, &length, held.fixture->pool, NULL),
                    APR_SUCCESS);
    CU_ASSERT_EQUAL(length, 101);
    spx_fixture_free(held.fixture);
}

static void test_lookup_says_what_is_there_now(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "a.spx", "x");
    int links = spx_fixture_symlinks_possible(held.fixture, "a lookup that finds a link");
    if (links)
        spx_fixture_symlink(held.fixture, "a.spx", "link.spx");
    spx_fixture_mkdir(held.fixture, "src");
    spx_identity_t held_identity = identity_of(open_file(&held, "a.spx"), held.fixture->pool);
    spx_name_state_t state;
    spx_identity_t now;
    apr_pool_t *pool = held.fixture->pool;

    CU_ASSERT_EQUAL(spx_dir_lookup(held.root, "a.spx", &state, &now, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(state, SPX_NAME_PRESENT);
    CU_ASSERT_TRUE(spx_identity_same_object(&now, &held_identity));
    if (links) {
        CU_ASSERT_EQUAL(spx_dir_lookup(held.root, "link.spx", &state, &now, pool, NULL),
                        APR_SUCCESS);
        CU_ASSERT_EQUAL(state, SPX_NAME_LINK);
    }
    CU_ASSERT_EQUAL(spx_dir_lookup(held.root, "absent", &state, &now, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(state, SPX_NAME_MISSING);
    CU_ASSERT_EQUAL(spx_dir_lookup(held.root, "src", &state, &now, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(state, SPX_NAME_PRESENT);
    CU_ASSERT_EQUAL(now.kind, SPX_OBJECT_DIR);

    /* Replaced by rename: the name now leads to another object (on Windows
     * the rename over a held file is denied, and it still leads to it). */
    spx_fixture_expect_denials(held.fixture);
    spx_fixture_write(held.fixture, "b.spx", "x");
    spx_fixture_rename(held.fixture, "b.spx", "a.spx");
    CU_ASSERT_EQUAL(spx_dir_lookup(held.root, "a.spx", &state, &now, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(state, SPX_NAME_PRESENT);
    CU_ASSERT_EQUAL(spx_identity_same_object(&now, &held_identity),
                    spx_fixture_denials(held.fixture) > 0);

    spx_identity_t root_now, root_held;
    CU_ASSERT_EQUAL(spx_dir_identity(held.root, &root_held, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_path_lookup(held.fixture->root, &state, &root_now, pool, NULL),
                    APR_SUCCESS);
    CU_ASSERT_EQUAL(state, SPX_NAME_PRESENT);
    CU_ASSERT_TRUE(spx_identity_same_object(&root_now, &root_held));
    spx_fixture_free(held.fixture);
}

static void test_deleted_file_has_no_links(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "a.spx", "x");
    spx_file_t *file = open_file(&held, "a.spx");
    spx_fixture_expect_denials(held.fixture);
    spx_fixture_remove(held.fixture, "a.spx");
    /* POSIX: the name goes and the held file has no links left; Windows
     * denies deleting a held file, and it keeps its link. */
    CU_ASSERT_EQUAL(identity_of(file, held.fixture->pool).links,
                    spx_fixture_denials(held.fixture) > 0 ? 1 : 0);
    spx_fixture_free(held.fixture);
}

static void test_closed_handle_reports(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "a.spx", "x");
    spx_file_t *file = open_file(&held, "a.spx");
    spx_file_close(file);
    spx_file_close(file);
    spx_identity_t identity;
    const char *message = NULL;
    CU_ASSERT_NOT_EQUAL(spx_file_identity(file, &identity, held.fixture->pool, &message),
                        APR_SUCCESS);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "no longer held"));
    spx_fixture_free(held.fixture);
}

/* The rename transaction's temp files: the file a temp is named after must
 * be one component on every platform (nothing is created otherwise), a
 * discarded temp leaves nothing behind, and a placed one has replaced its
 * file. */
static void test_temp_files(void)
{
    held_root_t held = hold_root();
    spx_fixture_write(held.fixture, "sub/a.spx", "old");
    apr_pool_t *pool = held.fixture->pool;
    spx_dir_t *sub = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_child(&sub, held.root, "sub", pool, NULL), APR_SUCCESS);
    const char *before = spx_fixture_inventory(held.fixture);
    spx_temp_t *temp = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_temp_create(&temp, held.root, "sub/a.spx", NULL, 4, pool, &message),
                    SPX_STATUS_BAD_NAME);
    CU_ASSERT_STRING_EQUAL(message, "'sub/a.spx' is not a single path component");
    CU_ASSERT_EQUAL(spx_temp_create(&temp, sub, "..", NULL, 4, pool, &message),
                    SPX_STATUS_BAD_NAME);
    CU_ASSERT_STRING_EQUAL(message, "'sub/..' is not a single path component");
    CU_ASSERT_EQUAL(spx_temp_create(&temp, sub, "", NULL, 4, pool, NULL), SPX_STATUS_BAD_NAME);
    CU_ASSERT_PTR_NULL(temp);
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(held.fixture), before);

    spx_name_state_t state;
    spx_identity_t identity;
    CU_ASSERT_EQUAL_FATAL(spx_temp_create(&temp, sub, "a.spx", NULL, 4, pool, &message),
                          APR_SUCCESS);
    const char *name = spx_temp_path(temp) + strlen("sub/");
    CU_ASSERT_EQUAL(strncmp(spx_temp_path(temp), "sub/.a.spx.", strlen("sub/.a.spx.")), 0);
    CU_ASSERT_EQUAL(strlen(name), strlen(".a.spx.123456789abc.spx-tmp"));
    CU_ASSERT_EQUAL(spx_dir_lookup(sub, name, &state, &identity, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(state, SPX_NAME_PRESENT);
    CU_ASSERT_EQUAL(spx_temp_discard(temp, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_dir_lookup(sub, name, &state, &identity, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(state, SPX_NAME_MISSING);

    spx_replace_retry_t retry = {1, 0};
    CU_ASSERT_EQUAL_FATAL(spx_temp_create(&temp, sub, "a.spx", NULL, 4, pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_temp_write(temp, "new", 3, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_temp_flush(temp, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_temp_replace(temp, "../a.spx", retry, pool, &message), SPX_STATUS_BAD_NAME);
    CU_ASSERT_STRING_EQUAL(message, "'sub/../a.spx' is not a single path component");
    CU_ASSERT_EQUAL(spx_temp_replace(temp, "a.spx", retry, pool, &message), APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(held.fixture, "sub/a.spx"), "new");
    CU_ASSERT_EQUAL(spx_temp_replace(temp, "a.spx", retry, pool, &message), APR_EBADF);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "no longer there"));
    CU_ASSERT_EQUAL(spx_temp_discard(temp, pool, NULL), APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(held.fixture, "sub/a.spx"), "new");
    spx_fixture_free(held.fixture);
}

static void test_handles_reserve(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_handles_reserve(256, pool, &message), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_handles_reserve(UINT64_MAX / 2, pool, &message), SPX_STATUS_HANDLE_LIMIT);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "open-file limit"));
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"same file twice: same identity", test_same_file_twice_same_identity},
        {"two files: different identities", test_two_files_differ},
        {"hard links: same identity", test_hard_links_share_identity},
        {"object ids render up to 32 hex digits", test_object_ids_render_up_to_32_digits},
        {"directories have identities", test_directory_identity},
        {"links are refused", test_links_are_refused},
        {"wrong kinds are refused", test_wrong_kinds_are_refused},
        {"names are one component", test_names_must_be_one_component},
        {"reads go through the handle", test_read_through_handle},
        {"read_all keeps its limit", test_read_all_limit},
        {"lookup says what is there now", test_lookup_says_what_is_there_now},
        {"a deleted held file has no links", test_deleted_file_has_no_links},
        {"a closed handle reports itself", test_closed_handle_reports},
        {"temp files: named after one component, discarded, placed", test_temp_files},
        {"open-file limit", test_handles_reserve},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("platform identity", tests);
}
