/*
 * test_suggest.c: spx_suggest.h on its own: the optimal string alignment
 * distance on known pairs (each edit kind, the adjacent swap counted once,
 * the alignment that may not edit a part twice), its bound and early stop,
 * the nearest names in order with ties broken bytewise, repeats and the name
 * itself left out, and the cap on hostile lengths; then every pair of short
 * strings over a small alphabet against a plain recursive definition written
 * here.
 */
#include "spx_limits.h"
#include "spx_suggest.h"
#include "spx_test.h"

#include <stdio.h>
#include <string.h>

static size_t distance(const char *a, const char *b, size_t bound)
{
    return spx_suggest_distance(a, strlen(a), b, strlen(b), bound);
}

static void test_known_distances(void)
{
    CU_ASSERT_EQUAL(distance("", "", 3), 0);
    CU_ASSERT_EQUAL(distance("fib", "fib", 3), 0);
    CU_ASSERT_EQUAL(distance("fib", "fibb", 3), 1);  /* insertion */
    CU_ASSERT_EQUAL(distance("fibb", "fib", 3), 1);  /* deletion */
    CU_ASSERT_EQUAL(distance("fib", "fob", 3), 1);   /* substitution */
    CU_ASSERT_EQUAL(distance("fact", "fcat", 3), 1); /* adjacent swap */
    CU_ASSERT_EQUAL(distance("math.fibb", "math.fact", 3), 3);
    CU_ASSERT_EQUAL(distance("kitten", "sitting", 3), 3);
    /* Optimal string alignment, not full Damerau: "ca" -> "abc" is 3, since
     * the swapped pair may not be edited again (full Damerau says 2). */
    CU_ASSERT_EQUAL(distance("ca", "abc", 3), 3);
    /* Bytes, not characters: é is two bytes. */
    CU_ASSERT_EQUAL(distance("caf\xc3\xa9", "cafe", 3), 2);
}

static void test_bound_stops_early(void)
{
    CU_ASSERT_EQUAL(distance("abcdef", "uvwxyz", 2), 3); /* over the bound: bound + 1 */
    CU_ASSERT_EQUAL(distance("a", "abcdefgh", 3), 4);    /* the lengths alone say so */
    CU_ASSERT_EQUAL(distance("abcdef", "uvwxyz", 6), 6);
    CU_ASSERT_EQUAL(spx_suggest_bound(0), 1);
    CU_ASSERT_EQUAL(spx_suggest_bound(5), 1);
    CU_ASSERT_EQUAL(spx_suggest_bound(6), 2);
    CU_ASSERT_EQUAL(spx_suggest_bound(9), 3);
    CU_ASSERT_EQUAL(spx_suggest_bound(1000), SPX_LIMIT_SUGGEST_DISTANCE);
}

static void test_nearest_in_order(void)
{
    const char *const names[] = {"math.fact", "app.main",  "math.fib",
                                 "math.fact", "math.fibb", "math.gcd"};
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
    size_t found = spx_suggest_nearest("math.fibb", names, 6, 3, nearest);
    /* the name itself and the repeated math.fact are left out */
    CU_ASSERT_EQUAL_FATAL(found, 2);
    CU_ASSERT_STRING_EQUAL(nearest[0], "math.fib");
    CU_ASSERT_STRING_EQUAL(nearest[1], "math.fact");
    CU_ASSERT_EQUAL(spx_suggest_nearest("math.fibb", names, 6, 1, nearest), 1);
    CU_ASSERT_STRING_EQUAL(nearest[0], "math.fib");
    CU_ASSERT_EQUAL(spx_suggest_nearest("math.fibb", names, 6, 0, nearest), 0);
    CU_ASSERT_EQUAL(spx_suggest_nearest("zzzzzzzz", names, 6, 3, nearest), 0);
}

static void test_ties_are_bytewise(void)
{
    const char *const names[] = {"cb", "ab", "bb", "Ab", "xyz"};
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
    /* every two-letter name is one edit from "db"; at most three kept */
    CU_ASSERT_EQUAL_FATAL(spx_suggest_nearest("db", names, 5, 3, nearest), 3);
    CU_ASSERT_STRING_EQUAL(nearest[0], "Ab");
    CU_ASSERT_STRING_EQUAL(nearest[1], "ab");
    CU_ASSERT_STRING_EQUAL(nearest[2], "bb");
    /* a nearer name comes first whatever its bytes */
    const char *const more[] = {"aaaaaa", "zzzzzz", "zzzzzy"};
    CU_ASSERT_EQUAL_FATAL(spx_suggest_nearest("zzzzzz_", more, 3, 3, nearest), 2);
    CU_ASSERT_STRING_EQUAL(nearest[0], "zzzzzz");
    CU_ASSERT_STRING_EQUAL(nearest[1], "zzzzzy");
}

static void test_hostile_lengths(void)
{
    char over[SPX_LIMIT_SUGGEST_NAME_BYTES + 2]; /* one byte over the cap */
    char at_cap[SPX_LIMIT_SUGGEST_NAME_BYTES + 1];
    char near_cap[SPX_LIMIT_SUGGEST_NAME_BYTES + 1];
    memset(over, 'a', sizeof(over) - 1);
    over[sizeof(over) - 1] = '\0';
    memset(at_cap, 'a', sizeof(at_cap) - 1);
    at_cap[sizeof(at_cap) - 1] = '\0';
    memcpy(near_cap, at_cap, sizeof(at_cap));
    near_cap[0] = 'b';
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
    /* a name over the cap is never matched... */
    const char *const capped[] = {at_cap};
    CU_ASSERT_EQUAL(spx_suggest_nearest(over, capped, 1, 3, nearest), 0);
    CU_ASSERT_EQUAL(distance(over, at_cap, 3), 4);
    /* ...and never suggested, though one edit away */
    const char *const candidates[] = {over, near_cap};
    CU_ASSERT_EQUAL_FATAL(spx_suggest_nearest(at_cap, candidates, 2, 3, nearest), 1);
    CU_ASSERT_PTR_EQUAL(nearest[0], near_cap);
}

/* The definition, recursively, for short strings. */
static size_t reference(const char *a, size_t i, const char *b, size_t j)
{
    if (i == 0)
        return j;
    if (j == 0)
        return i;
    size_t best = reference(a, i - 1, b, j) + 1;
    size_t other = reference(a, i, b, j - 1) + 1;
    if (other < best)
        best = other;
    other = reference(a, i - 1, b, j - 1) + (a[i - 1] != b[j - 1]);
    if (other < best)
        best = other;
    if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        other = reference(a, i - 2, b, j - 2) + 1;
        if (other < best)
            best = other;
    }
    return best;
}

/* Every string of up to 4 letters over "abc" against every other. */
static void test_matches_the_definition(void)
{
    char strings[121][5];
    size_t count = 0;
    for (size_t length = 0; length <= 4; length++) {
        size_t total = 1;
        for (size_t k = 0; k < length; k++)
            total *= 3;
        for (size_t n = 0; n < total; n++) {
            size_t v = n;
            for (size_t k = 0; k < length; k++, v /= 3)
                strings[count][k] = (char)('a' + v % 3);
            strings[count][length] = '\0';
            count++;
        }
    }
    CU_ASSERT_EQUAL_FATAL(count, 121);
    size_t wrong = 0;
    for (size_t x = 0; x < count; x++)
        for (size_t y = 0; y < count; y++) {
            const char *a = strings[x], *b = strings[y];
            size_t want = reference(a, strlen(a), b, strlen(b));
            for (size_t bound = 0; bound <= 4; bound++) {
                size_t got = distance(a, b, bound);
                size_t expected = want > bound ? bound + 1 : want;
                if (got != expected && wrong++ < 5)
                    fprintf(stderr, "\n  '%s' '%s' bound %lu: %lu, wanted %lu\n", a, b,
                            (unsigned long)bound, (unsigned long)got, (unsigned long)expected);
            }
        }
    CU_ASSERT_EQUAL(wrong, 0);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"known distances", test_known_distances},
        {"the bound stops the work early", test_bound_stops_early},
        {"nearest names in order", test_nearest_in_order},
        {"ties are broken bytewise", test_ties_are_bytewise},
        {"hostile lengths are capped", test_hostile_lengths},
        {"every short pair matches the definition", test_matches_the_definition},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("suggest", tests);
}
