/*
 * test_arena.c: the Phase A arena (engine/spx_arena.h): every allocation,
 * small, large or after a clear, is aligned for any object
 * (_Alignof(max_align_t)) and holds its bytes apart from the others;
 * interned text is the same pointer for the same bytes, and packed.
 */
#include "spx_arena.h"
#include "spx_limits.h"
#include "spx_test.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static int aligned(const void *memory)
{
    return (uintptr_t)memory % _Alignof(max_align_t) == 0;
}

/* Sizes that leave every remainder modulo 16, a large request and some
 * that fill chunks, twice: before and after a clear. */
static void test_allocations_are_aligned(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_arena_t *arena = spx_arena_make(pool);
    for (int round = 0; round < 2; round++) {
        unsigned misaligned = 0;
        char *previous = NULL;
        apr_size_t previous_size = 0;
        for (apr_size_t i = 0; i < 3000; i++) {
            apr_size_t size = i % 40 == 39 ? SPX_ARENA_CHUNK_BYTES / 4 + 1 + i
                              : i % 7 == 6 ? 4096 + i
                                           : i % 17;
            char *memory = spx_arena_alloc(arena, size);
            if (!aligned(memory))
                misaligned++;
            memset(memory, (int)(i & 0xff), size);
            if (previous && previous_size > 0) /* not overwritten by the next one */
                CU_ASSERT_EQUAL((unsigned char)previous[previous_size - 1],
                                (unsigned char)((i - 1) & 0xff));
            previous = memory;
            previous_size = size;
        }
        CU_ASSERT_EQUAL(misaligned, 0);
        CU_ASSERT_TRUE(aligned(spx_arena_calloc(arena, 3)));
        CU_ASSERT_TRUE(aligned(spx_arena_copy(arena, "x", 1)));
        spx_arena_clear(arena);
    }
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
    CU_ASSERT_TRUE(aligned(spx_arena_alloc(arena, 1)));
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"allocations are aligned for any object", test_allocations_are_aligned},
        {"interned text: one copy per spelling, packed", test_interned_text},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("arena", tests);
}
