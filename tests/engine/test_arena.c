/*
 * test_arena.c: the Phase A arena (engine/spx_arena.h): every allocation,
 * small, large or after a clear, in an arena small at first or told it
 * will be large, is aligned as asked (up to any object's alignment,
 * _Alignof(max_align_t)) and holds its bytes apart from the others; a
 * typed allocation costs no padding beyond its type's; interned text is
 * the same pointer for the same bytes, and packed, also when its hash was
 * computed by the caller (spx_arena_intern_hashed).
 */
#include "spx_arena.h"
#include "spx_limits.h"
#include "spx_test.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int aligned(const void *memory)
{
    return (uintptr_t)memory % _Alignof(max_align_t) == 0;
}

/* One allocation's place and the byte it was filled with. */
typedef struct filled_t {
    unsigned char *memory;
    apr_size_t size;
    unsigned char byte;
} filled_t;

#define FILLS 3000

/* Sizes that leave every remainder modulo 16, requests over a quarter of a
 * small chunk and of a large one, and many that fill chunks, twice: before
 * and after a clear. Every allocation is aligned and keeps its bytes until
 * the clear (its first and last byte are checked once all are made). */
static void fill_and_check(spx_arena_t *arena, filled_t *fills)
{
    for (int round = 0; round < 2; round++) {
        unsigned misaligned = 0, overwritten = 0;
        for (apr_size_t i = 0; i < FILLS; i++) {
            apr_size_t size = i % 500 == 499 ? SPX_ARENA_LARGE_CHUNK_BYTES / 4 + 1 + i
                              : i % 97 == 96 ? SPX_ARENA_LARGE_CHUNK_BYTES / 16 + i
                              : i % 40 == 39 ? SPX_ARENA_CHUNK_BYTES / 4 + 1 + i
                              : i % 7 == 6   ? 4096 + i
                                             : i % 17 + 1;
            unsigned char *memory = spx_arena_alloc(arena, size, SPX_ARENA_ANY_ALIGNMENT);
            if (!aligned(memory))
                misaligned++;
            fills[i] = (filled_t){memory, size, (unsigned char)(i & 0xff)};
            memset(memory, fills[i].byte, size);
        }
        for (apr_size_t i = 0; i < FILLS; i++)
            if (fills[i].memory[0] != fills[i].byte ||
                fills[i].memory[fills[i].size - 1] != fills[i].byte)
                overwritten++;
        CU_ASSERT_EQUAL(misaligned, 0);
        CU_ASSERT_EQUAL(overwritten, 0);
        CU_ASSERT_TRUE(aligned(spx_arena_calloc(arena, 3, SPX_ARENA_ANY_ALIGNMENT)));
        CU_ASSERT_TRUE(aligned(spx_arena_copy(arena, "x", 1, SPX_ARENA_ANY_ALIGNMENT)));
        spx_arena_clear(arena);
    }
}

static void test_allocations_are_aligned(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    filled_t *fills = apr_palloc(pool, FILLS * sizeof(*fills));
    fill_and_check(spx_arena_make(pool), fills);
    apr_pool_destroy(pool);
}

/* The same of an arena told it will be large, which takes bulk memory from
 * its first chunk: its large requests are bulk memory too. */
static void test_expected_large_arena(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    filled_t *fills = apr_palloc(pool, FILLS * sizeof(*fills));
    spx_arena_t *arena = spx_arena_make(pool);
    spx_arena_expect(arena, 8 * SPX_ARENA_LARGE_CHUNK_BYTES);
    fill_and_check(arena, fills);
    apr_pool_destroy(pool);
}

static void test_interned_text(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_arena_t *arena = spx_arena_make(pool);
    const char *a = spx_arena_intern(arena, "ab", 2);
    const char *b = spx_arena_intern(arena, "abc", 2); /* the same two bytes */
    const char *c = spx_arena_intern(arena, "abc", 3);
    CU_ASSERT_PTR_EQUAL(a, b);
    CU_ASSERT_STRING_EQUAL(a, "ab");
    CU_ASSERT_STRING_EQUAL(c, "abc");
    CU_ASSERT_PTR_NOT_EQUAL(a, c);
    CU_ASSERT_EQUAL(c - a, 3); /* packed after "ab" and its NUL */
    CU_ASSERT_TRUE(aligned(spx_arena_alloc(arena, 1, SPX_ARENA_ANY_ALIGNMENT)));
    apr_pool_destroy(pool);
}

/* A short name interned by its word, read in place from a longer buffer
 * as a lexer reads it, is the same pointer as by spx_arena_intern,
 * whichever comes first, across the table's growth (thousands of names)
 * and after a clear; names that differ only in their last byte, or only
 * past their eighth, and a name and its prefix stay apart. */
static void test_interned_by_word(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_arena_t *arena = spx_arena_make(pool);
    /* a source line: every name is followed by more bytes, as in a lexer's
     * buffer, and the bytes past a name must not count */
    const char *line = "acc = acc + n12(x);      ";
    for (int round = 0; round < 2; round++) {
        const char *first = spx_arena_intern_word(arena, line, 3, spx_intern_word(line, 3));
        CU_ASSERT_PTR_EQUAL(spx_arena_intern(arena, "acc", 3), first);
        CU_ASSERT_PTR_EQUAL(spx_arena_intern_word(arena, line + 6, 3, spx_intern_word(line + 6, 3)),
                            first);
        CU_ASSERT_STRING_EQUAL(first, "acc");
        unsigned different = 0;
        for (int i = 0; i < 5000; i++) {
            char name[32];
            int size = snprintf(name, sizeof(name), "n%d", i);
            /* the name in a buffer that goes on with other bytes */
            char buffer[32];
            memset(buffer, 'z', sizeof(buffer));
            memcpy(buffer, name, (size_t)size);
            const char *plain = i % 2 ? spx_arena_intern(arena, name, (apr_size_t)size) : NULL;
            const char *by_word = spx_arena_intern_word(arena, buffer, (apr_size_t)size,
                                                        spx_intern_word(buffer, (apr_size_t)size));
            if (!plain)
                plain = spx_arena_intern(arena, name, (apr_size_t)size);
            if (plain != by_word || strcmp(by_word, name) != 0)
                different++;
        }
        CU_ASSERT_EQUAL(different, 0);
        /* a prefix and a longer name are not taken for each other */
        CU_ASSERT_PTR_NOT_EQUAL(
            spx_arena_intern_word(arena, "n12", 2, spx_intern_word("n12xxxxx", 2)),
            spx_arena_intern(arena, "n12", 3));
        /* eight bytes: the whole word; names differing in the last byte */
        const char *eight = spx_arena_intern(arena, "abcdefgh", 8);
        CU_ASSERT_PTR_EQUAL(
            spx_arena_intern_word(arena, "abcdefgh!", 8, spx_intern_word("abcdefgh!", 8)), eight);
        CU_ASSERT_PTR_NOT_EQUAL(spx_arena_intern(arena, "abcdefgi", 8), eight);
        /* longer names that share their first eight bytes stay apart */
        const char *long_a = spx_arena_intern(arena, "abcdefgh_one", 12);
        const char *long_b = spx_arena_intern(arena, "abcdefgh_two", 12);
        CU_ASSERT_PTR_NOT_EQUAL(long_a, long_b);
        CU_ASSERT_PTR_NOT_EQUAL(long_a, eight);
        CU_ASSERT_STRING_EQUAL(long_b, "abcdefgh_two");
        CU_ASSERT_PTR_EQUAL(spx_arena_intern(arena, "abcdefgh_one", 12), long_a);
        /* the empty name */
        const char *empty = spx_arena_intern(arena, "", 0);
        CU_ASSERT_STRING_EQUAL(empty, "");
        CU_ASSERT_PTR_EQUAL(
            spx_arena_intern_word(arena, "zzzzzzzz", 0, spx_intern_word("zzzzzzzz", 0)), empty);
        CU_ASSERT_PTR_EQUAL(spx_arena_intern_word(arena, line, 3, spx_intern_word(line, 3)), first);
        spx_arena_clear(arena);
    }
    apr_pool_destroy(pool);
}

/* A typed allocation is aligned as its type needs and no more: after a
 * one-byte object, an int64_t starts at the next multiple of its
 * alignment, not of any object's; every kind of typed allocation is
 * aligned for its type, zeroed or copied as the macro says. */
typedef struct typed_pair_t {
    int64_t number;
    const char *name;
} typed_pair_t;

static void test_typed_allocations(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_arena_t *arena = spx_arena_make(pool);
    char *byte = SPX_ARENA_ARRAY(arena, char, 1);
    int64_t *number = SPX_ARENA_ARRAY(arena, int64_t, 1);
    CU_ASSERT_EQUAL((uintptr_t)number % _Alignof(int64_t), 0);
    uintptr_t after_byte = (uintptr_t)byte + 1, int64_alignment = _Alignof(int64_t);
    CU_ASSERT_EQUAL((uintptr_t)number, (after_byte + int64_alignment - 1) & ~(int64_alignment - 1));
    for (int i = 0; i < 100; i++) {
        (void)SPX_ARENA_ARRAY(arena, char, i % 7 + 1);
        typed_pair_t *pair = SPX_ARENA_NEW(arena, typed_pair_t);
        CU_ASSERT_EQUAL((uintptr_t)pair % _Alignof(typed_pair_t), 0);
        CU_ASSERT_EQUAL(pair->number, 0);
        CU_ASSERT_PTR_NULL(pair->name);
        typed_pair_t source[2] = {{1, "a"}, {2, "b"}};
        typed_pair_t *copy = SPX_ARENA_COPY(arena, typed_pair_t, source, 2);
        CU_ASSERT_EQUAL((uintptr_t)copy % _Alignof(typed_pair_t), 0);
        CU_ASSERT_EQUAL(copy[1].number, 2);
        CU_ASSERT_STRING_EQUAL(copy[1].name, "b");
    }
    CU_ASSERT_PTR_NOT_NULL(SPX_ARENA_COPY(arena, typed_pair_t, NULL, 0));
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"allocations are aligned for any object", test_allocations_are_aligned},
        {"an arena told it will be large: the same", test_expected_large_arena},
        {"interned text: one copy per spelling, packed", test_interned_text},
        {"interned by a word read in place: the same copy", test_interned_by_word},
        {"typed allocations: aligned as their type needs, no more", test_typed_allocations},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("arena", tests);
}
