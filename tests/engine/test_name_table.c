/*
 * test_name_table.c: the engine's name and word tables
 * (engine/spx_name_table.h): every entry put is found again, by its bytes
 * whatever the name's pointer, and nothing else is; a later put replaces a
 * value; names of one hash are told apart by their bytes; a clear forgets
 * everything, keeps the slots and survives its generation count wrapping;
 * a table stays at most half full and at most four slots an entry.
 */
#include "spx_limits.h"
#include "spx_name_table.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdint.h>
#include <string.h>

#define NAMES 3000

static size_t name_slots(const spx_name_table_t *table)
{
    return table->slots ? (size_t)table->mask + 1 : 0;
}

static size_t word_slots(const spx_word_table_t *table)
{
    return table->slots ? (size_t)table->mask + 1 : 0;
}

static void test_names_found_by_bytes(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_name_table_t *table = spx_name_table_make(pool);
    CU_ASSERT_PTR_NULL(spx_name_table_get(table, "x"));
    CU_ASSERT_EQUAL(name_slots(table), 0); /* nothing taken before the first entry */
    const char **names = apr_pcalloc(pool, NAMES * sizeof(*names));
    unsigned too_full = 0;
    for (int i = 0; i < NAMES; i++) {
        names[i] = apr_psprintf(pool, "n%d", i);
        spx_name_table_put(table, names[i], spx_name_hash(names[i]), (void *)names[i]);
        if (2 * table->count > name_slots(table) ||
            name_slots(table) > 4 * (size_t)table->count + SPX_NAME_TABLE_FIRST_SLOTS)
            too_full++;
    }
    CU_ASSERT_EQUAL(too_full, 0);
    CU_ASSERT_EQUAL(table->count, NAMES);
    unsigned wrong = 0;
    for (int i = 0; i < NAMES; i++) {
        /* the same bytes at another address: found all the same */
        char copy[16];
        strcpy(copy, names[i]);
        if (spx_name_table_get(table, copy) != names[i] ||
            spx_name_table_get(table, names[i]) != names[i])
            wrong++;
        char absent[24];
        snprintf(absent, sizeof(absent), "m%d", i);
        if (spx_name_table_get(table, absent))
            wrong++;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_PTR_NULL(spx_name_table_get(table, ""));
    CU_ASSERT_PTR_NULL(spx_name_table_get(table, "n"));
    /* a later put replaces the value, and counts once */
    spx_name_table_put(table, "n7", spx_name_hash("n7"), "seven");
    CU_ASSERT_STRING_EQUAL(spx_name_table_get(table, names[7]), "seven");
    CU_ASSERT_EQUAL(table->count, NAMES);
    apr_pool_destroy(pool);
}

/* Names given one hash: each found by its bytes, none for another name. */
static void test_names_of_one_hash(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_name_table_t *table = spx_name_table_make(pool);
    const char *names[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"};
    for (int i = 0; i < 7; i++)
        spx_name_table_put(table, names[i], 42, (void *)names[i]);
    for (int i = 0; i < 7; i++) {
        char copy[16];
        strcpy(copy, names[i]);
        CU_ASSERT_PTR_EQUAL(spx_name_table_find(table, copy, 42), names[i]);
    }
    CU_ASSERT_PTR_NULL(spx_name_table_find(table, "theta", 42));
    CU_ASSERT_PTR_NULL(spx_name_table_find(table, "alpha", 43));
    apr_pool_destroy(pool);
}

static void test_names_cleared(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_name_table_t *table = spx_name_table_make(pool);
    spx_name_table_clear(table); /* before any slot: nothing to forget */
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 100; i++) {
            const char *name = apr_psprintf(pool, "r%d_%d", round, i);
            spx_name_table_put(table, name, spx_name_hash(name), (void *)name);
        }
        size_t slots = name_slots(table);
        spx_name_table_clear(table);
        CU_ASSERT_EQUAL(table->count, 0);
        CU_ASSERT_EQUAL(name_slots(table), slots); /* kept for the next round */
        CU_ASSERT_PTR_NULL(spx_name_table_get(table, apr_psprintf(pool, "r%d_5", round)));
    }
    /* the generation count wraps: the slots are emptied instead */
    table->generation = UINT32_MAX;
    spx_name_table_put(table, "old", spx_name_hash("old"), "old");
    CU_ASSERT_STRING_EQUAL(spx_name_table_get(table, "old"), "old");
    spx_name_table_clear(table);
    CU_ASSERT_EQUAL(table->generation, 1);
    CU_ASSERT_PTR_NULL(spx_name_table_get(table, "old"));
    spx_name_table_put(table, "new", spx_name_hash("new"), "new");
    CU_ASSERT_STRING_EQUAL(spx_name_table_get(table, "new"), "new");
    CU_ASSERT_PTR_NULL(spx_name_table_get(table, "old"));
    apr_pool_destroy(pool);
}

/* Addresses (aligned, so their low bits are zero), small integers and
 * zero are keys alike. */
static void test_words(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_word_table_t *table = spx_word_table_make(pool);
    CU_ASSERT_PTR_NULL(spx_word_table_get(table, 0));
    int64_t *cells = apr_pcalloc(pool, NAMES * sizeof(*cells));
    unsigned too_full = 0;
    for (int i = 0; i < NAMES; i++) {
        spx_word_table_put(table, SPX_WORD_OF(&cells[i]), &cells[i]);
        spx_word_table_put(table, (uint64_t)i, &cells[i]);
        if (2 * table->count > word_slots(table) ||
            word_slots(table) > 4 * (size_t)table->count + SPX_NAME_TABLE_FIRST_SLOTS)
            too_full++;
    }
    CU_ASSERT_EQUAL(too_full, 0);
    CU_ASSERT_EQUAL(table->count, 2 * NAMES);
    unsigned wrong = 0;
    for (int i = 0; i < NAMES; i++) {
        if (spx_word_table_get(table, SPX_WORD_OF(&cells[i])) != &cells[i] ||
            spx_word_table_get(table, (uint64_t)i) != &cells[i])
            wrong++;
        if (spx_word_table_get(table, (uint64_t)(NAMES + i)) ||
            spx_word_table_get(table, (uint64_t)-1 - (uint64_t)i))
            wrong++;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    spx_word_table_put(table, 5, "five");
    CU_ASSERT_STRING_EQUAL(spx_word_table_get(table, 5), "five");
    CU_ASSERT_EQUAL(table->count, 2 * NAMES);
    size_t slots = word_slots(table);
    spx_word_table_clear(table);
    CU_ASSERT_EQUAL(word_slots(table), slots);
    CU_ASSERT_PTR_NULL(spx_word_table_get(table, 5));
    CU_ASSERT_PTR_NULL(spx_word_table_get(table, SPX_WORD_OF(&cells[0])));
    spx_word_table_put(table, 0, "zero");
    CU_ASSERT_STRING_EQUAL(spx_word_table_get(table, 0), "zero");
    table->generation = UINT32_MAX;
    spx_word_table_put(table, 9, "nine");
    spx_word_table_clear(table);
    CU_ASSERT_PTR_NULL(spx_word_table_get(table, 9));
    CU_ASSERT_PTR_NULL(spx_word_table_get(table, 0));
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"names: found by their bytes, at most half full", test_names_found_by_bytes},
        {"names of one hash told apart by their bytes", test_names_of_one_hash},
        {"names: a clear forgets all, keeps the slots, wraps", test_names_cleared},
        {"words: addresses and integers, cleared", test_words},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("name_table", tests);
}
