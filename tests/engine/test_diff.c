/*
 * test_diff.c: spx_diff.h, the unified line diff: the exact bytes of
 * `diff -u` for the usual shapes (a change in the middle, an addition at the
 * start, a deletion at the end, two changes that share a hunk and two that
 * do not, a last line without LF), then, for many pseudo-random pairs of
 * texts, that applying the diff (an applier written here) gives the new
 * text and that the search's deleted and added lines are as few as the
 * longest common subsequence (computed here by dynamic programming) allows;
 * and the fallback past each bound: one hunk over the changed middle, which
 * still applies; and the same diff's changes as byte ranges
 * (spx_diff_changes), which give the new text when applied.
 */
#include "spx_diff.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static apr_pool_t *pool_make(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

static void check_diff(const char *old, const char *new_text, const char *wanted)
{
    apr_pool_t *pool = pool_make();
    char *diff = NULL;
    apr_size_t length = 0;
    spx_diff_unified("src/a.spx", old, strlen(old), new_text, strlen(new_text), &diff, &length,
                     pool);
    if (strcmp(diff, wanted) != 0)
        fprintf(stderr, "\n--- got:\n%s--- wanted:\n%s", diff, wanted);
    CU_ASSERT_STRING_EQUAL(diff, wanted);
    CU_ASSERT_EQUAL(length, strlen(wanted));
    apr_pool_destroy(pool);
}

static void test_equal_texts_have_no_diff(void)
{
    apr_pool_t *pool = pool_make();
    char *diff = NULL;
    apr_size_t length = 1;
    CU_ASSERT_EQUAL(spx_diff_unified("a", "x\ny\n", 4, "x\ny\n", 4, &diff, &length, pool),
                    SPX_DIFF_SAME);
    CU_ASSERT_STRING_EQUAL(diff, "");
    CU_ASSERT_EQUAL(length, 0);
    apr_pool_destroy(pool);
}

static void test_change_in_the_middle(void)
{
    check_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
               "--- a/src/a.spx\n+++ b/src/a.spx\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n"
               " 7\n 8\n");
}

static void test_addition_at_the_start_and_deletion_at_the_end(void)
{
    check_diff("a\nb\n", "x\na\nb\n",
               "--- a/src/a.spx\n+++ b/src/a.spx\n@@ -1,2 +1,3 @@\n+x\n a\n b\n");
    check_diff("a\nb\nc\nd\ne\n", "a\nb\nc\nd\n",
               "--- a/src/a.spx\n+++ b/src/a.spx\n@@ -2,4 +2,3 @@\n b\n c\n d\n-e\n");
    check_diff("", "a\n", "--- a/src/a.spx\n+++ b/src/a.spx\n@@ -0,0 +1 @@\n+a\n");
    check_diff("a\n", "", "--- a/src/a.spx\n+++ b/src/a.spx\n@@ -1 +0,0 @@\n-a\n");
}

static void test_hunks_join_within_twice_the_context(void)
{
    /* six kept lines between the changes: one hunk */
    check_diff("a\n1\n2\n3\n4\n5\n6\nb\n", "A\n1\n2\n3\n4\n5\n6\nB\n",
               "--- a/src/a.spx\n+++ b/src/a.spx\n@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n"
               " 6\n-b\n+B\n");
    /* seven: two hunks */
    check_diff("a\n1\n2\n3\n4\n5\n6\n7\nb\n", "A\n1\n2\n3\n4\n5\n6\n7\nB\n",
               "--- a/src/a.spx\n+++ b/src/a.spx\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n"
               "@@ -6,4 +6,4 @@\n 5\n 6\n 7\n-b\n+B\n");
}

static void test_last_line_without_newline(void)
{
    check_diff("a\nb", "a\nb\n",
               "--- a/src/a.spx\n+++ b/src/a.spx\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of "
               "file\n+b\n");
    check_diff("a\n", "a\nb",
               "--- a/src/a.spx\n+++ b/src/a.spx\n@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of "
               "file\n");
}

/* --- applying a diff, written here ------------------------------------------------ */

/* The lines of text (each with its LF, the last perhaps without). */
static char **lines_of(const char *text, apr_size_t *count, apr_pool_t *pool)
{
    char **lines = apr_palloc(pool, (strlen(text) + 2) * sizeof(char *));
    *count = 0;
    while (*text) {
        const char *end = strchr(text, '\n');
        apr_size_t length = end ? (apr_size_t)(end - text) + 1 : strlen(text);
        lines[(*count)++] = apr_pstrndup(pool, text, length);
        text += length;
    }
    return lines;
}

/* old patched by diff, or NULL when the diff does not apply to it. */
static const char *apply(const char *old, const char *diff, apr_pool_t *pool)
{
    apr_size_t old_count = 0, diff_count = 0;
    char **old_lines = lines_of(old, &old_count, pool);
    char **diff_lines = lines_of(diff, &diff_count, pool);
    const char *out = "";
    apr_size_t at = 0; /* the next old line not yet copied */
    apr_size_t d = 2;  /* after the two headers */
    if (diff_count == 0)
        return old;
    while (d < diff_count) {
        unsigned long old_start = 0, old_length = 1;
        const char *header = diff_lines[d++];
        if (strncmp(header, "@@ -", 4) != 0)
            return NULL;
        char *rest = NULL;
        old_start = strtoul(header + 4, &rest, 10);
        if (*rest == ',')
            old_length = strtoul(rest + 1, &rest, 10);
        apr_size_t first = old_length ? old_start - 1 : old_start;
        if (first < at || first > old_count)
            return NULL;
        while (at < first)
            out = apr_pstrcat(pool, out, old_lines[at++], NULL);
        while (d < diff_count && diff_lines[d][0] != '@') {
            const char *line = diff_lines[d++];
            int no_newline = d < diff_count && diff_lines[d][0] == '\\';
            if (no_newline)
                d++;
            const char *body = line + 1;
            if (no_newline)
                body = apr_pstrndup(pool, body, strlen(body) - 1);
            if (line[0] == '+') {
                out = apr_pstrcat(pool, out, body, NULL);
                continue;
            }
            if (at >= old_count || strcmp(old_lines[at], body) != 0)
                return NULL;
            if (line[0] == ' ')
                out = apr_pstrcat(pool, out, body, NULL);
            at++;
        }
    }
    while (at < old_count)
        out = apr_pstrcat(pool, out, old_lines[at++], NULL);
    return out;
}

/* The deleted and added lines of a diff. */
static apr_size_t edits_of(const char *diff)
{
    apr_size_t edits = 0;
    for (const char *line = diff; *line; line = strchr(line, '\n') + 1) {
        if ((line[0] == '-' && line[1] != '-') || (line[0] == '+' && line[1] != '+'))
            edits++;
        if (!strchr(line, '\n'))
            break;
    }
    return edits;
}

/* The length of the longest common subsequence of the lines. */
static apr_size_t common_lines(char **a, apr_size_t n, char **b, apr_size_t m, apr_pool_t *pool)
{
    apr_size_t *row = apr_pcalloc(pool, (m + 1) * sizeof(*row));
    apr_size_t *next = apr_pcalloc(pool, (m + 1) * sizeof(*next));
    for (apr_size_t i = 1; i <= n; i++) {
        for (apr_size_t j = 1; j <= m; j++)
            next[j] = strcmp(a[i - 1], b[j - 1]) == 0
                          ? row[j - 1] + 1
                          : (row[j] > next[j - 1] ? row[j] : next[j - 1]);
        apr_size_t *swap = row;
        row = next;
        next = swap;
    }
    return row[m];
}

/* A text of up to 30 lines drawn from a few, the last perhaps without LF. */
static const char *random_text(unsigned *seed, apr_pool_t *pool)
{
    static const char *const words[] = {"a", "b", "c", "fn f() {", "}", "", "  x"};
    unsigned lines = (*seed = *seed * 1103515245u + 12345u) >> 16 & 31;
    const char *text = "";
    for (unsigned i = 0; i < lines; i++) {
        *seed = *seed * 1103515245u + 12345u;
        text = apr_pstrcat(pool, text, words[(*seed >> 16) % 7], "\n", NULL);
    }
    *seed = *seed * 1103515245u + 12345u;
    if ((*seed >> 16) % 4 == 0 && *text)
        text = apr_pstrndup(pool, text, strlen(text) - 1);
    return text;
}

static void test_random_pairs_apply_and_are_shortest(void)
{
    unsigned seed = 7, wrong_apply = 0, wrong_length = 0, pairs = 3000;
    for (unsigned i = 0; i < pairs; i++) {
        apr_pool_t *pool = pool_make();
        const char *old = random_text(&seed, pool), *new_text = random_text(&seed, pool);
        char *diff = NULL;
        apr_size_t length = 0;
        spx_diff_search_t search = spx_diff_unified("p", old, strlen(old), new_text,
                                                    strlen(new_text), &diff, &length, pool);
        const char *patched = apply(old, diff, pool);
        wrong_apply += !patched || strcmp(patched, new_text) != 0;
        apr_size_t n = 0, m = 0;
        char **a = lines_of(old, &n, pool), **b = lines_of(new_text, &m, pool);
        wrong_length += search != SPX_DIFF_SAME &&
                        (search != SPX_DIFF_SHORTEST ||
                         edits_of(diff) != n + m - 2 * common_lines(a, n, b, m, pool));
        apr_pool_destroy(pool);
    }
    CU_ASSERT_EQUAL(wrong_apply, 0);
    CU_ASSERT_EQUAL(wrong_length, 0);
}

/* old with changes (spx_diff_changes) applied, in pool; NULL when they are
 * out of order, overlap or leave a text. */
static const char *apply_changes(const char *old, const char *new_text,
                                 const apr_array_header_t *changes, apr_pool_t *pool)
{
    const char *result = "";
    apr_size_t at = 0, old_length = strlen(old), new_length = strlen(new_text);
    for (int i = 0; i < changes->nelts; i++) {
        const spx_diff_change_t *change = &APR_ARRAY_IDX(changes, i, spx_diff_change_t);
        if (change->old_start < at || change->old_end < change->old_start ||
            change->old_end > old_length || change->new_end < change->new_start ||
            change->new_end > new_length)
            return NULL;
        result = apr_pstrcat(
            pool, result, apr_pstrndup(pool, old + at, change->old_start - at),
            apr_pstrndup(pool, new_text + change->new_start, change->new_end - change->new_start),
            NULL);
        at = change->old_end;
    }
    return apr_pstrcat(pool, result, old + at, NULL);
}

static void test_changes_apply(void)
{
    apr_pool_t *pool = pool_make();
    apr_array_header_t *changes = NULL;
    const char *old = "keep\n1\n2\n3\nsame\n4\n5\nend",
               *new_text = "keep\nA\n2\nsame\n4\n5\nX\nend";
    CU_ASSERT_EQUAL(spx_diff_changes(old, strlen(old), new_text, strlen(new_text), &changes, pool),
                    SPX_DIFF_SHORTEST);
    CU_ASSERT_EQUAL(changes->nelts, 3); /* 1 -> A, 3 deleted, X added */
    const spx_diff_change_t *first = &APR_ARRAY_IDX(changes, 0, spx_diff_change_t);
    CU_ASSERT_EQUAL(first->old_start, 5);
    CU_ASSERT_EQUAL(first->old_end, 7);
    CU_ASSERT_EQUAL(first->new_start, 5);
    CU_ASSERT_EQUAL(first->new_end, 7);
    const spx_diff_change_t *added = &APR_ARRAY_IDX(changes, 2, spx_diff_change_t);
    CU_ASSERT_EQUAL(added->old_start, added->old_end); /* an insertion */
    CU_ASSERT_STRING_EQUAL(apply_changes(old, new_text, changes, pool), new_text);
    CU_ASSERT_EQUAL(spx_diff_changes(old, strlen(old), old, strlen(old), &changes, pool),
                    SPX_DIFF_SAME);
    CU_ASSERT_EQUAL(changes->nelts, 0);
    unsigned seed = 11, wrong = 0;
    for (unsigned i = 0; i < 3000; i++) {
        apr_pool_t *pair = pool_make();
        const char *a = random_text(&seed, pair), *b = random_text(&seed, pair);
        spx_diff_changes(a, strlen(a), b, strlen(b), &changes, pair);
        const char *applied = apply_changes(a, b, changes, pair);
        wrong += !applied || strcmp(applied, b) != 0;
        apr_pool_destroy(pair);
    }
    CU_ASSERT_EQUAL(wrong, 0);
    apr_pool_destroy(pool);
}

static void test_past_a_bound_the_middle_is_one_hunk(void)
{
    apr_pool_t *pool = pool_make();
    const char *old = "keep\n1\n2\n3\nsame\n4\n5\nend\n";
    const char *new_text = "keep\nA\n2\nB\nsame\n4\nC\nend\n";
    char *diff = NULL;
    apr_size_t length = 0;
    /* one row of trace only */
    CU_ASSERT_EQUAL(spx_diff_unified_bounded("p", old, strlen(old), new_text, strlen(new_text), 4,
                                             1000, &diff, &length, pool),
                    SPX_DIFF_WHOLE_MIDDLE);
    CU_ASSERT_STRING_EQUAL(diff, "--- a/p\n+++ b/p\n@@ -1,8 +1,8 @@\n keep\n-1\n-2\n-3\n-same\n-4\n"
                                 "-5\n+A\n+2\n+B\n+same\n+4\n+C\n end\n");
    CU_ASSERT_STRING_EQUAL(apply(old, diff, pool), new_text);
    /* two comparisons only */
    CU_ASSERT_EQUAL(spx_diff_unified_bounded("p", old, strlen(old), new_text, strlen(new_text),
                                             1u << 20, 2, &diff, &length, pool),
                    SPX_DIFF_WHOLE_MIDDLE);
    CU_ASSERT_STRING_EQUAL(apply(old, diff, pool), new_text);
    /* the default bounds: the shortest */
    CU_ASSERT_EQUAL(
        spx_diff_unified("p", old, strlen(old), new_text, strlen(new_text), &diff, &length, pool),
        SPX_DIFF_SHORTEST);
    CU_ASSERT_EQUAL(edits_of(diff), 6);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"equal texts have no diff", test_equal_texts_have_no_diff},
        {"a change in the middle", test_change_in_the_middle},
        {"an addition at the start, a deletion at the end",
         test_addition_at_the_start_and_deletion_at_the_end},
        {"hunks join within twice the context", test_hunks_join_within_twice_the_context},
        {"a last line without LF", test_last_line_without_newline},
        {"random pairs apply and are shortest", test_random_pairs_apply_and_are_shortest},
        {"past a bound the middle is one hunk", test_past_a_bound_the_middle_is_one_hunk},
        {"the changes as byte ranges apply", test_changes_apply},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("diff", tests);
}
