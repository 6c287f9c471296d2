/*
 * test_swap.c: spx_temp_swap_in, the write that cannot lose a concurrent
 * save (spx_platform.h): a temp file takes the place of a file only while
 * that file still holds the bytes the caller planned against; a save made
 * meanwhile (written in place, renamed over it, or the file deleted) is
 * kept, the call says SPX_STATUS_CHANGED, and no temp file is left once it
 * is discarded. Each case runs both ways: by the system's exchange of two
 * names (where it has one) and by the fallback (compare, then replace).
 */
#include "spx_platform.h"
#include "spx_test.h"

#include <string.h>

typedef struct swap_case_t {
    spx_fixture_t *fixture;
    spx_dir_t *root;
    spx_temp_t *temp;
} swap_case_t;

/* a.spx holding "planned", and a temp file beside it holding "new bytes". */
static swap_case_t prepare(void)
{
    swap_case_t c = {spx_fixture_new(), NULL, NULL};
    spx_fixture_write(c.fixture, "a.spx", "planned");
    apr_pool_t *pool = c.fixture->pool;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_root(&c.root, c.fixture->root, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_temp_create(&c.temp, c.root, "a.spx", NULL, 4, pool, NULL),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_temp_write(c.temp, "new bytes", 9, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_temp_flush(c.temp, pool, NULL), APR_SUCCESS);
    return c;
}

static spx_swap_t swap_of(int without_exchange)
{
    spx_swap_t swap = {.expected = (const unsigned char *)"planned",
                       .expected_length = 7,
                       .retry = {1, 0},
                       .without_exchange = without_exchange};
    return swap;
}

/* Whether the temp file's name is still there. */
static int temp_left(swap_case_t *c)
{
    spx_name_state_t state = SPX_NAME_MISSING;
    spx_identity_t identity;
    CU_ASSERT_EQUAL(
        spx_dir_lookup(c->root, spx_temp_path(c->temp), &state, &identity, c->fixture->pool, NULL),
        APR_SUCCESS);
    return state != SPX_NAME_MISSING;
}

/* The temp file discarded: nothing is left of it. */
static void finish(swap_case_t *c)
{
    CU_ASSERT_EQUAL(spx_temp_discard(c->temp, c->fixture->pool, NULL), APR_SUCCESS);
    CU_ASSERT_FALSE(temp_left(c));
    spx_dir_close(c->root);
    spx_fixture_free(c->fixture);
}

static void swap_in_over_planned(int without_exchange)
{
    swap_case_t c = prepare();
    spx_swap_t swap = swap_of(without_exchange);
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_temp_swap_in(c.temp, "a.spx", &swap, c.fixture->pool, &message),
                    APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(c.fixture, "a.spx"), "new bytes");
    if (without_exchange)
        CU_ASSERT_EQUAL(swap.exchanged, 0);
    /* The bytes swapped out went with the temp file's name. */
    CU_ASSERT_FALSE(temp_left(&c));
    finish(&c);
}

static void test_exchange_over_planned(void)
{
    swap_in_over_planned(0);
}

static void test_fallback_over_planned(void)
{
    swap_in_over_planned(1);
}

/* What another program does to a.spx before the swap. */
typedef enum save_t { SAVE_IN_PLACE, SAVE_BY_RENAME, SAVE_LONGER, SAVE_DELETE } save_t;

static void save_meanwhile(spx_fixture_t *fixture, save_t save)
{
    switch (save) {
    case SAVE_IN_PLACE:
        spx_fixture_write(fixture, "a.spx", "saved!!"); /* as long as planned */
        break;
    case SAVE_BY_RENAME:
        spx_fixture_write(fixture, "a.spx.saving", "saved!!");
        spx_fixture_rename(fixture, "a.spx.saving", "a.spx");
        break;
    case SAVE_LONGER:
        spx_fixture_write(fixture, "a.spx", "planned, then saved");
        break;
    case SAVE_DELETE:
        spx_fixture_remove(fixture, "a.spx");
        break;
    }
}

static void save_is_kept(int without_exchange, save_t save)
{
    swap_case_t c = prepare();
    save_meanwhile(c.fixture, save);
    spx_swap_t swap = swap_of(without_exchange);
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_temp_swap_in(c.temp, "a.spx", &swap, c.fixture->pool, &message),
                    SPX_STATUS_CHANGED);
    CU_ASSERT_PTR_NOT_NULL(message);
    if (message)
        CU_ASSERT_PTR_NOT_NULL(strstr(message, "'a.spx' changed since it was read"));
    /* The new bytes wait in the temp file until it is discarded. */
    CU_ASSERT_TRUE(temp_left(&c));
    /* What the other program left: its bytes, or no file. */
    spx_name_state_t state = SPX_NAME_PRESENT;
    spx_identity_t identity;
    CU_ASSERT_EQUAL(spx_dir_lookup(c.root, "a.spx", &state, &identity, c.fixture->pool, NULL),
                    APR_SUCCESS);
    CU_ASSERT_EQUAL(state, save == SAVE_DELETE ? SPX_NAME_MISSING : SPX_NAME_PRESENT);
    if (save != SAVE_DELETE)
        CU_ASSERT_STRING_EQUAL(spx_fixture_read(c.fixture, "a.spx"),
                               save == SAVE_LONGER ? "planned, then saved" : "saved!!");
    finish(&c);
}

static void test_exchange_keeps_save_in_place(void)
{
    save_is_kept(0, SAVE_IN_PLACE);
}

static void test_exchange_keeps_save_by_rename(void)
{
    save_is_kept(0, SAVE_BY_RENAME);
}

static void test_exchange_keeps_longer_save(void)
{
    save_is_kept(0, SAVE_LONGER);
}

static void test_exchange_keeps_deletion(void)
{
    save_is_kept(0, SAVE_DELETE);
}

static void test_fallback_keeps_save_in_place(void)
{
    save_is_kept(1, SAVE_IN_PLACE);
}

static void test_fallback_keeps_save_by_rename(void)
{
    save_is_kept(1, SAVE_BY_RENAME);
}

static void test_fallback_keeps_longer_save(void)
{
    save_is_kept(1, SAVE_LONGER);
}

static void test_fallback_keeps_deletion(void)
{
    save_is_kept(1, SAVE_DELETE);
}

/* Where the system exchanges two names, the exchange is what ran (Linux
 * ext4, tmpfs, btrfs, xfs; macOS APFS; Windows ReplaceFileW); elsewhere the
 * suite says so. */
static void test_exchange_is_used(void)
{
    swap_case_t c = prepare();
    spx_swap_t swap = swap_of(0);
    CU_ASSERT_EQUAL(spx_temp_swap_in(c.temp, "a.spx", &swap, c.fixture->pool, NULL), APR_SUCCESS);
    if (!swap.exchanged)
        printf("\n  not run here: this system or file system exchanges no names "
               "(the fallback ran) ");
    finish(&c);
}

/* An empty file planned against, and an empty save: equal bytes, so the
 * swap goes ahead. */
static void test_empty_planned(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "e.spx", "");
    apr_pool_t *pool = fixture->pool;
    spx_dir_t *root = NULL;
    spx_temp_t *temp = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_root(&root, fixture->root, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_temp_create(&temp, root, "e.spx", NULL, 4, pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_temp_write(temp, "x", 1, pool, NULL), APR_SUCCESS);
    spx_swap_t swap = {.expected = NULL, .expected_length = 0, .retry = {1, 0}};
    CU_ASSERT_EQUAL(spx_temp_swap_in(temp, "e.spx", &swap, pool, NULL), APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "e.spx"), "x");
    CU_ASSERT_EQUAL(spx_temp_discard(temp, pool, NULL), APR_SUCCESS);
    spx_dir_close(root);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"exchange: swapped in over the planned bytes", test_exchange_over_planned},
        {"fallback: replaced over the planned bytes", test_fallback_over_planned},
        {"exchange: a save in place is kept", test_exchange_keeps_save_in_place},
        {"exchange: a save by rename is kept", test_exchange_keeps_save_by_rename},
        {"exchange: a longer save is kept", test_exchange_keeps_longer_save},
        {"exchange: a deletion is kept", test_exchange_keeps_deletion},
        {"fallback: a save in place is kept", test_fallback_keeps_save_in_place},
        {"fallback: a save by rename is kept", test_fallback_keeps_save_by_rename},
        {"fallback: a longer save is kept", test_fallback_keeps_longer_save},
        {"fallback: a deletion is kept", test_fallback_keeps_deletion},
        {"the exchange is used where there is one", test_exchange_is_used},
        {"an empty file planned against", test_empty_planned},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("platform swap", tests);
}
