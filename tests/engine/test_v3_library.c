/*
 * test_v3_library.c: the methods of language v3's standard library, every
 * expectation counted by hand from docs/language.md, "Standard library":
 * each row's result; its step (one per call, after the receiver and the
 * arguments) and its size charge floor(n / 64) at sizes on both sides of
 * the 64 boundaries; the measure of the new blocks; the failures (R0502,
 * R0506, R0511, R0519, R0523, R0524) with their messages, spans and steps
 * and the order of the checks; sort's n = ceil(log2 k) * (k + B) and its
 * stability; writing methods' copies of shared arrays; and adversarial
 * searches that complete with exactly the fuel charged (the work is
 * linear: a quadratic scan would not be bounded by it).
 */
#include "spx_arena.h"
#include "spx_corpus.h"
#include "spx_ast.h"
#include "spx_index.h"
#include "spx_library.h"
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* source with each "@A<k>@" replaced by k bytes 'a', "@I<k>@" by the array
 * literal [0, 1, ..., k - 1] and "@R<k>@" by [k - 1, ..., 1, 0]. */
static const char *expand(apr_pool_t *pool, const char *source)
{
    const char *text = source;
    const char *at;
    while ((at = strchr(text, '@')) != NULL) {
        char kind = at[1];
        int k = atoi(at + 2);
        const char *end = strchr(at + 2, '@');
        SPX_ASSERT(end != NULL);
        const char *piece = "";
        if (kind == 'A') {
            char *bytes = apr_palloc(pool, (apr_size_t)k + 1);
            memset(bytes, 'a', (apr_size_t)k);
            bytes[k] = '\0';
            piece = bytes;
        } else {
            piece = "[";
            for (int i = 0; i < k; i++)
                piece =
                    apr_psprintf(pool, "%s%s%d", piece, i ? ", " : "", kind == 'I' ? i : k - 1 - i);
            piece = apr_pstrcat(pool, piece, "]", NULL);
        }
        text = apr_pstrcat(pool, apr_pstrndup(pool, text, (apr_size_t)(at - text)), piece, end + 1,
                           NULL);
    }
    return text;
}

/* --- str ------------------------------------------------------------------------ */

static const char str_source[] =
    "fn split_pieces() -> int {\n  let p = \"a,,b,\".split(\",\");\n"
    "  return len(p) * 10 + len(p[2]);\n}\n"
    "fn split_empty() -> int {\n  let p = \"\".split(\",\");\n  return len(p) + len(p[0]);\n}\n"
    "fn split_long_separator() -> int {\n  let p = \"a--b---c\".split(\"--\");\n"
    "  if p[0] == \"a\" && p[1] == \"b\" && p[2] == \"-c\" { return len(p); }\n  return 0;\n}\n"
    "fn join_three() -> int {\n  let p = [\"a\", \"b\", \"c\"];\n  let j = p.join(\"--\");\n"
    "  if j == \"a--b--c\" { return len(j); }\n  return 0;\n}\n"
    "fn join_none() -> int {\n  let e: [str] = [];\n  return len(e.join(\",\"));\n}\n"
    "fn finds() -> int {\n"
    "  return \"hello\".find(\"ll\") * 100 + \"hello\".find(\"\") * 10 + "
    "\"hello\".find(\"z\");\n}\n"
    "fn find_overlapping() -> int {\n  return \"aabaabaaab\".find(\"aaab\");\n}\n"
    "fn contains() -> int {\n  var n = 0;\n  if \"hello\".contains(\"ell\") { n = n + 1; }\n"
    "  if \"hello\".contains(\"elo\") { n = n + 10; }\n  if \"\".contains(\"\") { n = n + 100; }\n"
    "  return n;\n}\n"
    "fn affixes() -> int {\n  var n = 0;\n  let s = \"hello\";\n"
    "  if s.starts_with(\"he\") { n = n + 1; }\n  if s.ends_with(\"lo\") { n = n + 10; }\n"
    "  if \"he\".starts_with(s) { n = n + 100; }\n  if s.ends_with(\"\") { n = n + 1000; }\n"
    "  if s.starts_with(\"lo\") { n = n + 10000; }\n  return n;\n}\n"
    "fn trims() -> int {\n  let t = \" \\t\\n a b \\u{d}\\n\".trim();\n"
    "  if t == \"a b\" && \"\\u{c}\".trim() == \"\" && \"x\".trim() == \"x\" { return len(t); }\n"
    "  return 0;\n}\n"
    "fn cases() -> int {\n  let s = \"Hello, World \\u{e9}!\";\n"
    "  if s.lower() == \"hello, world \\u{e9}!\" && s.upper() == \"HELLO, WORLD \\u{e9}!\" {\n"
    "    return 1;\n  }\n  return 0;\n}\n"
    "fn replaces() -> int {\n  var n = 0;\n"
    "  if \"a.b.c\".replace(\".\", \"--\") == \"a--b--c\" { n = n + 1; }\n"
    "  if \"aaaaa\".replace(\"aa\", \"b\") == \"bba\" { n = n + 10; }\n"
    "  if \"abc\".replace(\"x\", \"y\") == \"abc\" { n = n + 100; }\n"
    "  if \"abc\".replace(\"abc\", \"\") == \"\" { n = n + 1000; }\n  return n;\n}\n"
    "fn repeats() -> int {\n  var n = 0;\n  if \"ab\".repeat(3) == \"ababab\" { n = n + 1; }\n"
    "  if \"x\".repeat(0) == \"\" { n = n + 10; }\n"
    "  if \"\".repeat(9223372036854775807) == \"\" { n = n + 100; }\n  return n;\n}\n";

static void test_str_rows(void)
{
    static const spx_counted_run_t runs[] = {
        /* call, let, split, return, len, len: 6; the receiver and separator
         * literals (32 each) while split makes [4] (32 + 32) and its pieces
         * "a" "" "b" "" (33 + 32 + 33 + 32): 64 + 194 */
        {"split_pieces", 41, 6, 258, NULL},
        /* call, let, split, return, len, len: 6; "" and "," (64), [""] (40
         * + 32) */
        {"split_empty", 1, 6, 136, NULL},
        /* call, let, split, if (operators cost no step), return, len: 6 */
        {"split_long_separator", 3, 6, SPX_ANY_PEAK, NULL},
        /* call, let, let, join, if, return, len: 7; the array of three
         * literals (32 + 24 + 3 x 32), "--" (32), "a--b--c" (39), and the
         * literal "a--b--c" compared with (32) */
        {"join_three", 7, 7, 152 + 32 + 39, NULL},
        /* call, let, return, join, len: 5; [] (32), "," (32), "" (32) */
        {"join_none", 0, 5, 96, NULL},
        /* call, return, three finds: 5 */
        {"finds", 199, 5, 64, NULL},
        /* past a partial match: 6 */
        {"find_overlapping", 6, 3, 64, NULL},
        /* call, var, 3 ifs with a contains each, 2 assignments, return: 11 */
        {"contains", 101, 11, 64, NULL},
        /* call, var, let, 5 ifs with a call each, 3 assignments, return: 17 */
        {"affixes", 1011, 17, SPX_ANY_PEAK, NULL},
        /* call, let, trim, if, 2 trims, return, len: 8 */
        {"trims", 3, 8, SPX_ANY_PEAK, NULL},
        /* call, let, if, lower, upper, return: 6 */
        {"cases", 1, 6, SPX_ANY_PEAK, NULL},
        /* call, var, 4 ifs with a replace each, 4 assignments, return: 15 */
        {"replaces", 1111, 15, SPX_ANY_PEAK, NULL},
        /* call, var, 3 ifs with a repeat each, 3 assignments, return:
         * 12; repeat of "" with the largest count makes "" at once */
        {"repeats", 111, 12, SPX_ANY_PEAK, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, str_source), runs,
                           COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- size charges at the 64 boundaries ------------------------------------------------ */

static const char charge_source[] =
    "fn find_64() -> int { return \"@A60@\".find(\"abcd\"); }\n"
    "fn find_63() -> int { return \"@A59@\".find(\"abcd\"); }\n"
    "fn split_64() -> int { return len(\"@A63@\".split(\",\")); }\n"
    "fn split_63() -> int { return len(\"@A62@\".split(\",\")); }\n"
    "fn join_65() -> int { return len([\"@A62@\", \"a\"].join(\"\")); }\n"
    "fn join_64() -> int { return len([\"@A61@\", \"a\"].join(\"\")); }\n"
    "fn join_63() -> int { return len([\"@A60@\", \"a\"].join(\"\")); }\n"
    "fn starts_64() -> int { if \"@A64@\".starts_with(\"@A64@\") { return 1; } return 0; }\n"
    "fn starts_63() -> int { if \"@A8@\".ends_with(\"@A63@\") { return 1; } return 0; }\n"
    "fn trim_64() -> int { return len(\"@A64@\".trim()); }\n"
    "fn trim_63() -> int { return len(\"@A63@\".trim()); }\n"
    "fn lower_128() -> int { return len(\"@A128@\".lower()); }\n"
    "fn upper_127() -> int { return len(\"@A127@\".upper()); }\n"
    "fn replace_91() -> int { return len(\"@A30@\".replace(\"a\", \"bb\")); }\n"
    "fn replace_31() -> int { return len(\"@A30@\".replace(\"a\", \"\")); }\n"
    "fn repeat_64() -> int { return len(\"ab\".repeat(32)); }\n"
    "fn repeat_62() -> int { return len(\"ab\".repeat(31)); }\n"
    "fn sort_16() -> int { var a = @R16@; a.sort(); return a[0] * 100 + a[15]; }\n"
    "fn sort_15() -> int { var a = @R15@; a.sort(); return a[0] * 100 + a[14]; }\n"
    "fn sort_17() -> int { var a = @R17@; a.sort(); return a[0] * 100 + a[16]; }\n"
    "fn sort_one() -> int { var a = [5]; a.sort(); return a[0]; }\n"
    "fn sort_str_65() -> int { var a = [\"@A32@\", \"@A31@\"]; a.sort(); return len(a[0]); }\n"
    "fn sort_str_63() -> int { var a = [\"@A31@\", \"@A30@\"]; a.sort(); return len(a[0]); }\n"
    "fn reverse_64() -> int { var a = @I64@; a.reverse(); return a[0]; }\n"
    "fn reverse_63() -> int { var a = @I63@; a.reverse(); return a[0]; }\n"
    "fn reverse_40() -> int { var a = @I40@; a.reverse(); return a[0]; }\n"
    "fn reverse_shared() -> int {\n  var a = @I40@;\n  let b = a;\n  a.reverse();\n"
    "  return a[0] * 100 + b[0];\n}\n"
    "fn insert_64() -> int { var a = @I64@; a.insert(0, 7); return a[0] + len(a); }\n"
    "fn insert_63() -> int { var a = @I64@; a.insert(1, 7); return a[1] + len(a); }\n"
    "fn remove_64() -> int { var a = @I65@; return a.remove(0) + len(a); }\n"
    "fn remove_63() -> int { var a = @I65@; return a.remove(1) + len(a); }\n"
    "fn index_of_64() -> int { return @I100@.index_of(63); }\n"
    "fn index_of_63() -> int { return @I100@.index_of(62); }\n"
    "fn index_of_missing() -> int { return @I63@.index_of(63); }\n"
    "fn index_of_str_64() -> int { return [\"b\", \"@A63@\"].index_of(\"@A63@\"); }\n"
    "fn index_of_str_63() -> int { return [\"b\", \"@A60@\"].index_of(\"@A60@\"); }\n"
    "fn contains_array() -> int {\n  var n = 0;\n  if [\"x\", \"y\"].contains(\"y\") { n = n + 1; "
    "}\n"
    "  if [[1], [2]].contains([3]) { n = n + 10; }\n  if [true].contains(true) { n = n + 100; }\n"
    "  return n;\n}\n";

static void test_size_charges(void)
{
    static const spx_counted_run_t runs[] = {
        /* find, contains: n = len(s) + len(t); call, return, find: 3 */
        {"find_64", -1, 3 + 1, SPX_ANY_PEAK, NULL},
        {"find_63", -1, 3, SPX_ANY_PEAK, NULL},
        /* split: n = len(s) + len(sep); call, return, split, len: 4 */
        {"split_64", 1, 4 + 1, SPX_ANY_PEAK, NULL},
        {"split_63", 1, 4, SPX_ANY_PEAK, NULL},
        /* join: n = len(result) + len(xs) */
        {"join_65", 63, 4 + 1, SPX_ANY_PEAK, NULL},
        {"join_64", 62, 4 + 1, SPX_ANY_PEAK, NULL},
        {"join_63", 61, 4, SPX_ANY_PEAK, NULL},
        /* starts_with, ends_with: n = len(t) (also when t is longer than s);
         * call, if, the call, return: 4 */
        {"starts_64", 1, 4 + 1, SPX_ANY_PEAK, NULL},
        {"starts_63", 0, 4, SPX_ANY_PEAK, NULL},
        /* trim, lower, upper: n = len(s); call, return, the call, len: 4 */
        {"trim_64", 64, 4 + 1, SPX_ANY_PEAK, NULL},
        {"trim_63", 63, 4, SPX_ANY_PEAK, NULL},
        {"lower_128", 128, 4 + 2, SPX_ANY_PEAK, NULL},
        {"upper_127", 127, 4 + 1, SPX_ANY_PEAK, NULL},
        /* replace: n = len(s) + len(old) + len(result): 30 + 1 + 60, 30 + 1 + 0 */
        {"replace_91", 60, 4 + 1, SPX_ANY_PEAK, NULL},
        {"replace_31", 0, 4, SPX_ANY_PEAK, NULL},
        /* repeat: n = len(s) * c */
        {"repeat_64", 64, 4 + 1, SPX_ANY_PEAK, NULL},
        {"repeat_62", 62, 4, SPX_ANY_PEAK, NULL},
        /* sort: n = ceil(log2 k) * (k + B): 4 x 16, 4 x 15, 5 x 17, 0 x 1;
         * call, var, statement, sort, return: 5 */
        {"sort_16", 15, 5 + 1, SPX_ANY_PEAK, NULL},
        {"sort_15", 14, 5, SPX_ANY_PEAK, NULL},
        {"sort_17", 16, 5 + 1, SPX_ANY_PEAK, NULL},
        {"sort_one", 5, 5, SPX_ANY_PEAK, NULL},
        /* 1 x (2 + 32 + 31) and 1 x (2 + 31 + 30); and len: 6 */
        {"sort_str_65", 31, 6 + 1, SPX_ANY_PEAK, NULL},
        {"sort_str_63", 30, 6, SPX_ANY_PEAK, NULL},
        /* reverse: n = len(a); the literal of 64 is charged 1 too */
        {"reverse_64", 63, 5 + 1 + 1, SPX_ANY_PEAK, NULL},
        {"reverse_63", 62, 5, SPX_ANY_PEAK, NULL},
        {"reverse_40", 39, 5, SPX_ANY_PEAK, NULL},
        /* a shared array is copied first: n = 40 + 40 (the copy) = 80;
         * call, var, let, statement, reverse, return: 6 */
        {"reverse_shared", 3900, 6 + 1, SPX_ANY_PEAK, NULL},
        /* insert: n = len(a) - i: 64 - 0, 64 - 1 (the literal: 1); call,
         * var, statement, insert, return, len: 6 */
        {"insert_64", 72, 6 + 1 + 1, SPX_ANY_PEAK, NULL},
        {"insert_63", 72, 6 + 1, SPX_ANY_PEAK, NULL},
        /* remove: n = len(a) - i - 1: 65 - 0 - 1, 65 - 1 - 1; call, var,
         * return, remove, len: 5 (the literal of 65: 1) */
        {"remove_64", 64, 5 + 1 + 1, SPX_ANY_PEAK, NULL},
        {"remove_63", 65, 5 + 1, SPX_ANY_PEAK, NULL},
        /* index_of: 1 per element compared up to the equal one: 64, 63, and
         * 63 when none is; call, return, index_of: 3 (the literal of 100: 1) */
        {"index_of_64", 63, 3 + 1 + 1, SPX_ANY_PEAK, NULL},
        {"index_of_63", 62, 3 + 1, SPX_ANY_PEAK, NULL},
        /* index_of_missing's literal of 63 elements pays no size charge, so
         * they count as nodes of its return (docs/execution.md, "A
         * statement's nodes"): 63 elements + the call = 64, one step more */
        {"index_of_missing", -1, 3 + 1, SPX_ANY_PEAK, NULL},
        /* elements of str: 1 + 1 ("b" against "a...": one byte), then 1 + 63
         * (all equal): 66; with 60 bytes: 63 */
        {"index_of_str_64", 1, 3 + 1, SPX_ANY_PEAK, NULL},
        {"index_of_str_63", 1, 3, SPX_ANY_PEAK, NULL},
        /* call, var, 3 ifs with a contains each, 2 assignments, return: 11 */
        {"contains_array", 101, 11, SPX_ANY_PEAK, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture,
                           spx_run_fixture_program(fixture, expand(fixture->pool, charge_source)),
                           runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- failures ------------------------------------------------------------------- */

static const char failure_source[] =
    "fn split_empty() -> int {\n  let p = \"abc\".split(\"\");\n  return len(p);\n}\n"
    "fn replace_empty() -> int {\n  return len(\"abc\".replace(\"\", \"x\"));\n}\n"
    "fn repeat_negative() -> int {\n  return len(\"ab\".repeat(-1));\n}\n"
    "fn repeat_long() -> int {\n  return len(\"ab\".repeat(8388609));\n}\n"
    "fn insert_past() -> int {\n  var a = [1, 2, 3];\n  a.insert(4, 0);\n  return 0;\n}\n"
    "fn insert_negative() -> int {\n  var a = [1, 2, 3];\n  a.insert(-1, 0);\n  return 0;\n}\n"
    "fn remove_past() -> int {\n  var a = [1, 2, 3];\n  return a.remove(3);\n}\n"
    "fn abs_min() -> int {\n  let m = -9223372036854775807 - 1;\n  return m.abs();\n}\n"
    "fn place_first() -> int {\n  var a = [[1]];\n  a[1].insert(5, 0);\n  return 0;\n}\n"
    "fn resolved_last() -> int {\n  var a = [[1, 2]];\n  a[0].insert(0, a.pop()[1]);\n"
    "  return 0;\n}\n"
    "fn split_too_many() -> int {\n  let s = \",\".repeat(16777216);\n"
    "  return len(s.split(\",\"));\n}\n"
    "fn join_too_long() -> int {\n  let s = \"a\".repeat(8388609);\n"
    "  return len([s, s].join(\"\"));\n}\n"
    "fn insert_full() -> int {\n  var a = [0];\n  for i in 0..24 { a += a; }\n"
    "  a.insert(0, 1);\n  return 0;\n}\n";

static void test_failures(void)
{
    static const spx_stopped_run_t stops[] = {
        /* call, let, split: 3 */
        {"split_empty", SPX_OUTCOME_LANGUAGE_FAILURE, "R0523", "split with an empty separator",
         "2:11-2:26", 3, NULL},
        /* call, return, replace: 3 */
        {"replace_empty", SPX_OUTCOME_LANGUAGE_FAILURE, "R0523", "replace with an empty pattern",
         "6:14-6:36", 3, NULL},
        {"repeat_negative", SPX_OUTCOME_LANGUAGE_FAILURE, "R0524", "repeat count -1 is negative",
         "9:14-9:29", 3, NULL},
        /* n = 2 x 8388609 = 16777218 is paid (262144 steps), then the length
         * fails: 3 + 262144 */
        {"repeat_long", SPX_OUTCOME_LANGUAGE_FAILURE, "R0506",
         "string too long: 16777218 bytes, over the limit of 16777216", "12:14-12:34", 262147,
         NULL},
        /* call, var, statement, insert: 4 */
        {"insert_past", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511",
         "index 4 out of range for insert into length 3", "16:3-16:17", 4, NULL},
        {"insert_negative", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511",
         "index -1 out of range for insert into length 3", "21:3-21:18", 4, NULL},
        {"remove_past", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511",
         "index 3 out of range for remove from length 3", "26:10-26:21", 4, NULL},
        {"abs_min", SPX_OUTCOME_LANGUAGE_FAILURE, "R0502",
         "integer overflow: abs(-9223372036854775808)", "30:10-30:17", 4, NULL},
        /* the place's index is checked before insert's own */
        {"place_first", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511", "index 1 out of range for length 1",
         "34:3-34:20", 4, NULL},
        /* the place's index, then the argument (which empties a), then the
         * place is resolved: call, var, statement, pop, insert: 5 */
        {"resolved_last", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511",
         "index 0 out of range for length 0", "39:3-39:29", 5, NULL},
        /* 2^24 + 1 pieces: repeat (1 + 2^24 / 64), split's n = 2^24 + 1 paid
         * (1 + 262144), then its length: 1 + 1 + 262145 + 1 + 262145 */
        {"split_too_many", SPX_OUTCOME_LANGUAGE_FAILURE, "R0519",
         "array of 16777217 elements, over the limit of 16777216", "44:14-44:26", 524293, NULL},
        /* n = 2 x 8388609 + 2 paid (262144), then the length: 1 + 1 +
         * (1 + 131072) + 1 + (1 + 262144) */
        {"join_too_long", SPX_OUTCOME_LANGUAGE_FAILURE, "R0506",
         "string too long: 16777218 bytes, over the limit of 16777216", "48:14-48:29", 393221,
         NULL},
        /* 24 doublings to 2^24 elements (n = 2, 4, ..., 2^24: 2^19 - 1
         * steps), then insert's n = 2^24 - 0 paid (262144) before the
         * length fails: call, var, for + 25 checks, 24 statements, the
         * insert's statement and call: 1 + 1 + 26 + 24 + 2 + 524287 +
         * 262144 */
        {"insert_full", SPX_OUTCOME_LANGUAGE_FAILURE, "R0519",
         "array of 16777217 elements, over the limit of 16777216", "53:3-53:17",
         54 + 524287 + 262144, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_stops(fixture, spx_run_fixture_program(fixture, failure_source), stops,
                         COUNT(stops));
    spx_fixture_free(fixture);
}

/* --- sort: order, stability, n ------------------------------------------------------- */

static const char order_source[] =
    "fn strings() -> int {\n  var a = [\"b\", \"a\", \"ab\", \"\", \"ba\", \"\\u{e9}\", \"B\"];\n"
    "  a.sort();\n  if a.join(\",\") == \",B,a,ab,b,ba,\\u{e9}\" { return 1; }\n  return 0;\n}\n"
    "fn ints() -> int {\n  var a = [3, -9223372036854775807 - 1, 0, 3, -1, 9223372036854775807];\n"
    "  a.sort();\n  if a[0] < a[1] && a[1] == -1 && a[2] == 0 && a[3] == 3 && a[4] == 3 {\n"
    "    return a[5];\n  }\n  return 0;\n}\n"
    "fn bools() -> int {\n  var a = [true, false, true, false];\n  a.sort();\n"
    "  if !a[0] && !a[1] && a[2] && a[3] { return 1; }\n  return 0;\n}\n"
    "fn through_place() -> int {\n  var g = [[3, 1, 2], [9, 8]];\n  let h = g;\n"
    "  g[0].sort();\n  g[1].reverse();\n  g[1].insert(1, 5);\n  let r = g[0].remove(0);\n"
    "  return r * 1000 + g[0][0] * 100 + g[1][1] * 10 + h[0][0];\n}\n"
    "fn holders() -> int {\n  var a = [\"x\", \"y\"];\n  let s = \"z\";\n  a.insert(1, s);\n"
    "  a.insert(0, s + s);\n  let r = a.remove(1);\n  let b = a;\n  a.reverse();\n"
    "  if a.join(\"\") + r + b.join(\"\") == \"yzzzxzzzy\" { return len(a); }\n  return 0;\n}\n";

static void test_sort_order(void)
{
    static const spx_counted_run_t runs[] = {
        /* call, var, statement, sort, if, join, return: 7 */
        {"strings", 1, 7, SPX_ANY_PEAK, NULL},
        /* call, var, statement, sort, if, return: 6 */
        {"ints", INT64_MAX, 6, SPX_ANY_PEAK, NULL},
        {"bools", 1, 6, SPX_ANY_PEAK, NULL},
        /* g[0] sorted to [1, 2, 3] and g[1] reversed to [8, 9] then [8, 5,
         * 9] while h keeps [[3, 1, 2], [9, 8]]; r = 1: call, var, let, 3 x
         * (statement, call), let + remove, return: 12 */
        {"through_place", 1000 + 200 + 50 + 3, 12, SPX_ANY_PEAK, NULL},
        /* insert stores a variable's block (a holder of its own) and a
         * temporary's (taken over); remove's result holds its element; b
         * keeps the order reverse changed in a's copy: call, var, let, 2 x
         * (statement, insert), let + remove, let, statement + reverse, if +
         * 2 joins, return + len: 1 + 1 + 1 + 4 + 2 + 1 + 2 + 3 + 2 = 17;
         * every block is freed at the end */
        {"holders", 3, 17, SPX_ANY_PEAK, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, order_source), runs,
                           COUNT(runs));
    spx_fixture_free(fixture);
}

/* White-box: sort is stable (equal strings keep their blocks' order), and
 * charges ceil(log2 k) * (k + B) exactly: 64 one-byte strings, 6 x 128. */
static void test_sort_stable(void)
{
    spx_heap_t heap;
    spx_heap_init(&heap, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_value_t elements[64];
    for (int i = 0; i < 64; i++) {
        const unsigned char byte = (unsigned char)('a' + (63 - i) % 3);
        CU_ASSERT_EQUAL_FATAL(spx_str_make(&heap, &byte, 1, &elements[i].b), SPX_HEAP_OK);
    }
    spx_value_t original[64];
    memcpy(original, elements, sizeof(original));
    uint64_t fuel = 1000;
    spx_value_block_t *array = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_array_make(&heap, &fuel, 1, elements, 64, &array), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(fuel, 999); /* the array's n = 64 */
    uint64_t short_of = 6 * 128 / 64 - 1;
    CU_ASSERT_EQUAL(spx_array_sort(&heap, &short_of, &array, NULL, 0), SPX_HEAP_OUT_OF_FUEL);
    CU_ASSERT_EQUAL(short_of, 6 * 128 / 64 - 1);
    CU_ASSERT_EQUAL(heap.charged_n, 6 * 128);
    CU_ASSERT_EQUAL(array->slots[0].b, original[0].b); /* unchanged */
    CU_ASSERT_EQUAL(spx_array_sort(&heap, &fuel, &array, NULL, 0), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(fuel, 999 - 12);
    /* each byte's blocks in their original order */
    int at = 0;
    for (int byte = 'a'; byte <= 'c'; byte++)
        for (int i = 0; i < 64; i++)
            if (spx_str_bytes(original[i].b)[0] == byte) {
                CU_ASSERT_EQUAL(array->slots[at].b, original[i].b);
                at++;
            }
    CU_ASSERT_EQUAL(at, 64);
    spx_block_release(&heap, array);
    spx_heap_finish(&heap);
}

/* --- adversarial searches -------------------------------------------------------------- */

/* "a" x 100000 searched for "a" x 999 + "b": a naive scan compares about
 * 10^8 bytes; Two-Way about 10^5. Each run completes with exactly the fuel
 * it is charged and stops with one step less: the charge, linear in the
 * sizes, bounds the work. Steps: call, let, repeat (1 + 100000 / 64 =
 * 1562), let, repeat (1 + 999 / 64 = 15), + (1000 / 64 = 15), return, the
 * search (1 + 101000 / 64 = 1578): 3177; split adds len (1); replace is
 * charged len(s) + len(old) + len(result) = 201000 (1 + 3140) instead of
 * the search, and len (1). */
static const char search_source[] =
    "fn find() -> int {\n  let s = \"a\".repeat(100000);\n  let t = \"a\".repeat(999) + \"b\";\n"
    "  return s.find(t);\n}\n"
    "fn contains() -> int {\n  let s = \"a\".repeat(100000);\n  let t = \"a\".repeat(999) + "
    "\"b\";\n"
    "  if s.contains(t) { return 1; }\n  return 0;\n}\n"
    "fn split() -> int {\n  let s = \"a\".repeat(100000);\n  let t = \"a\".repeat(999) + \"b\";\n"
    "  return len(s.split(t));\n}\n"
    "fn replace() -> int {\n  let s = \"a\".repeat(100000);\n  let t = \"a\".repeat(999) + \"b\";\n"
    "  return len(s.replace(t, \"\"));\n}\n";

static void test_adversarial_searches(void)
{
    static const struct {
        const char *function;
        int64_t value;
        uint64_t steps;
    } runs[] = {
        {"find", -1, 3177},
        /* with if instead of return (1 more) */
        {"contains", 0, 3177 + 1},
        {"split", 1, 3177 + 1},
        {"replace", 100000, 3177 - 1579 + 1 + 3140 + 1},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    const spx_program_t *program = spx_run_fixture_program(fixture, search_source);
    for (size_t i = 0; i < COUNT(runs); i++) {
        spx_run_limits_t limits = spx_run_limits_default();
        limits.max_steps = runs[i].steps;
        spx_run_result_t result = spx_run_fixture_call(fixture, program, runs[i].function, &limits);
        spx_run_assert_returned(&result, runs[i].value, runs[i].steps);
        limits.max_steps = runs[i].steps - 1;
        result = spx_run_fixture_call(fixture, program, runs[i].function, &limits);
        CU_ASSERT_EQUAL(result.outcome, SPX_OUTCOME_FUEL_EXHAUSTED);
    }
    spx_fixture_free(fixture);
}

/* --- the measure -------------------------------------------------------------------------- */

/* split checks the measure once, with its array and all its pieces: "a,b"
 * (32) and "," (32) held, then [2] (48) and "a" "b" (33 each): a peak of
 * 178, which passes max_memory 178 and fails under it naming 178. */
static const char measure_source[] =
    "fn pieces() -> int {\n  let p = \"a,b\".split(\",\");\n  return len(p);\n}\n";

static void test_split_measure(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const spx_program_t *program = spx_run_fixture_program(fixture, measure_source);
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_memory = 178;
    spx_run_result_t result = spx_run_fixture_call(fixture, program, "pieces", &limits);
    spx_run_assert_returned(&result, 2, 5);
    CU_ASSERT_EQUAL(result.memory_peak, 178);
    limits.max_memory = 177;
    result = spx_run_fixture_call(fixture, program, "pieces", &limits);
    spx_run_assert_stopped(&result, SPX_OUTCOME_LANGUAGE_FAILURE, "R0521", "2:11-2:27",
                           fixture->pool);
    CU_ASSERT_STRING_EQUAL(result.failure.message,
                           "memory limit exceeded: 178 bytes live, over max_memory 177");
    spx_fixture_free(fixture);
}

/* White-box: join and replace check the part of n known first against the
 * fuel before the work that finds the rest (heap->charged_n is that part). */
static void test_known_part_first(void)
{
    spx_heap_t heap;
    spx_heap_init(&heap, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    static const unsigned char bytes[128] = {0};
    spx_value_t parts[64];
    for (int i = 0; i < 64; i++)
        CU_ASSERT_EQUAL_FATAL(spx_str_make(&heap, bytes, 100, &parts[i].b), SPX_HEAP_OK);
    uint64_t fuel = 1;
    spx_value_block_t *array = NULL, *separator = NULL, *out = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_array_make(&heap, &fuel, 1, parts, 64, &array), SPX_HEAP_OK);
    CU_ASSERT_EQUAL_FATAL(spx_str_make(&heap, bytes, 0, &separator), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(fuel, 0);
    CU_ASSERT_EQUAL(spx_str_join(&heap, &fuel, array, separator, &out), SPX_HEAP_OUT_OF_FUEL);
    CU_ASSERT_EQUAL(heap.charged_n, 64); /* len(xs) alone: the result's length not sought */
    fuel = 101;                          /* (6400 + 64) / 64 */
    CU_ASSERT_EQUAL_FATAL(spx_str_join(&heap, &fuel, array, separator, &out), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.charged_n, 6400 + 64);
    CU_ASSERT_EQUAL(fuel, 0);
    spx_value_block_t *s = out, *old = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_str_make(&heap, bytes, 1, &old), SPX_HEAP_OK);
    fuel = 99;
    CU_ASSERT_EQUAL(spx_str_replace(&heap, &fuel, s, old, separator, &out), SPX_HEAP_OUT_OF_FUEL);
    CU_ASSERT_EQUAL(heap.charged_n, 6401); /* len(s) + len(old) */
    CU_ASSERT_EQUAL(fuel, 99);
    fuel = 101;
    CU_ASSERT_EQUAL_FATAL(spx_str_replace(&heap, &fuel, s, old, separator, &out), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.charged_n, 6401); /* the result is empty */
    CU_ASSERT_EQUAL(fuel, 1);
    CU_ASSERT_EQUAL(out->length, 0);
    spx_block_release(&heap, out);
    spx_block_release(&heap, s);
    spx_block_release(&heap, old);
    spx_block_release(&heap, separator);
    spx_block_release(&heap, array);
    spx_heap_finish(&heap);
}

/* Each new string counts in the measure: "ab".repeat(3) peaks at the
 * literal's header (32) and 32 + 6; max_memory 69 fails naming 70. */
static void test_repeat_measure(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const spx_program_t *program =
        spx_run_fixture_program(fixture, "fn t() -> int {\n  return len(\"ab\".repeat(3));\n}\n");
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_memory = 70;
    spx_run_result_t result = spx_run_fixture_call(fixture, program, "t", &limits);
    spx_run_assert_returned(&result, 6, 4);
    CU_ASSERT_EQUAL(result.memory_peak, 70);
    limits.max_memory = 69;
    result = spx_run_fixture_call(fixture, program, "t", &limits);
    spx_run_assert_stopped(&result, SPX_OUTCOME_LANGUAGE_FAILURE, "R0521", "2:14-2:28",
                           fixture->pool);
    CU_ASSERT_STRING_EQUAL(result.failure.message,
                           "memory limit exceeded: 70 bytes live, over max_memory 69");
    CU_ASSERT_EQUAL(result.steps, 3);
    spx_fixture_free(fixture);
}

/* White-box: find and replace agree with a naive search on many small
 * strings over {a, b} (a fixed pseudo-random sequence), where the search's
 * shifts matter most. */
static int64_t naive_find(const char *s, size_t n, const char *t, size_t m, size_t from)
{
    for (size_t i = from; i + m <= n; i++)
        if (memcmp(s + i, t, m) == 0)
            return (int64_t)i;
    return -1;
}

static void test_search_agrees(void)
{
    spx_heap_t heap;
    spx_heap_init(&heap, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    uint32_t state = 12345;
    for (int round = 0; round < 3000; round++) {
        char s[24], t[8], expected[64];
        size_t n = 0, m = 0;
        state = state * 1103515245u + 12345u;
        n = (state >> 16) % 24;
        state = state * 1103515245u + 12345u;
        m = 1 + (state >> 16) % 6;
        for (size_t i = 0; i < n + m; i++) {
            state = state * 1103515245u + 12345u;
            char byte = (state >> 16) % 3 ? 'a' : 'b';
            if (i < n)
                s[i] = byte;
            else
                t[i - n] = byte;
        }
        /* the replacement of t by "X", naively */
        size_t length = 0;
        for (size_t at = 0;;) {
            int64_t next = naive_find(s, n, t, m, at);
            size_t end = next >= 0 ? (size_t)next : n;
            memcpy(expected + length, s + at, end - at);
            length += end - at;
            if (next < 0)
                break;
            expected[length++] = 'X';
            at = end + m;
        }
        spx_value_block_t *sb = NULL, *tb = NULL, *xb = NULL, *out = NULL;
        spx_str_make(&heap, (const unsigned char *)s, n, &sb);
        spx_str_make(&heap, (const unsigned char *)t, m, &tb);
        spx_str_make(&heap, (const unsigned char *)"X", 1, &xb);
        uint64_t fuel = 1000;
        int64_t found = 0;
        CU_ASSERT_EQUAL(spx_str_find(&heap, &fuel, sb, tb, &found), SPX_HEAP_OK);
        CU_ASSERT_EQUAL(found, naive_find(s, n, t, m, 0));
        CU_ASSERT_EQUAL_FATAL(spx_str_replace(&heap, &fuel, sb, tb, xb, &out), SPX_HEAP_OK);
        CU_ASSERT(out->length == length && memcmp(spx_str_bytes(out), expected, length) == 0);
        spx_block_release(&heap, out);
        spx_block_release(&heap, sb);
        spx_block_release(&heap, tb);
        spx_block_release(&heap, xb);
    }
    spx_heap_finish(&heap);
}

/* find on one case, through spx_str_find and contains (spx_library_call),
 * with its charge: floor((len(s) + len(t)) / 64), whatever the search. */
static void expect_found(spx_heap_t *heap, const char *s, apr_size_t n, const char *t, apr_size_t m,
                         int64_t expected)
{
    spx_value_block_t *sb = NULL, *tb = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_str_make(heap, (const unsigned char *)s, n, &sb), SPX_HEAP_OK);
    CU_ASSERT_EQUAL_FATAL(spx_str_make(heap, (const unsigned char *)t, m, &tb), SPX_HEAP_OK);
    uint64_t fuel = 1000000;
    int64_t found = -2;
    CU_ASSERT_EQUAL(spx_str_find(heap, &fuel, sb, tb, &found), SPX_HEAP_OK);
    if (found != expected)
        fprintf(stderr, "\n  find of %zu bytes in %zu: %" PRId64 ", wanted %" PRId64 "\n",
                (size_t)m, (size_t)n, found, expected);
    CU_ASSERT_EQUAL(found, expected);
    CU_ASSERT_EQUAL(fuel, 1000000 - (n + m) / 64);
    spx_value_t operands[2];
    operands[0].b = sb;
    operands[1].b = tb;
    spx_value_t out;
    out.i = -1;
    CU_ASSERT_EQUAL(spx_library_call(heap, &fuel, SPX_BUILTIN_CONTAINS, NULL, operands, &out),
                    SPX_HEAP_OK);
    CU_ASSERT_EQUAL(out.i, expected >= 0);
    spx_block_release(heap, sb);
    spx_block_release(heap, tb);
}

/* The search's edge cases, each a string pair and the first index:
 * periodic needles (where a shift by less than the needle's length must
 * not skip an occurrence), the empty needle, a needle longer than the
 * haystack, matches at either end, bytes above 0x7f and zero bytes; each
 * also at the end and at the start of a longer text. */
static void test_search_cases(void)
{
    static const struct {
        const char *s, *t;
        int64_t at;
    } cases[] = {
        /* the empty needle: 0, also in the empty string */
        {"", "", 0},
        {"abc", "", 0},
        /* longer than the haystack */
        {"", "a", -1},
        {"ab", "abc", -1},
        {"abc", "abcd", -1},
        /* at the ends, and the whole string */
        {"abc", "abc", 0},
        {"abcxyz", "abc", 0},
        {"xyzabc", "abc", 3},
        {"aaab", "b", 3},
        {"baaa", "b", 0},
        {"xyzab", "abc", -1},
        {"bcxyz", "abc", -1},
        /* periodic needles */
        {"aaaa", "aaa", 0},
        {"aabaaa", "aaa", 3},
        {"ababababc", "ababc", 4},
        {"abababab", "ababc", -1},
        {"abcabcabcabcabd", "abcabcabd", 6},
        {"abcabcabcabcab", "abcabcabd", -1},
        {"aabaabaabaaab", "aabaaab", 6},
        {"abaabaabaababaab", "abaababaab", 6},
        {"aaaaaaaaaaaaaaab", "aaaaaab", 9},
        {"abababababababa", "bababa", 1},
        {"xxabxabxabxabab", "abxabab", 8},
        /* the critical factorization of each byte order */
        {"zzyzzyzzz", "zzz", 6},
        {"cbacbacbcba", "cbcba", 6},
        {"abcdeabcdf", "abcdf", 5},
        {"dcbadcbadcbe", "dcbe", 8},
        /* bytes above 0x7f compare unsigned */
        {"a\x80\xff\x80\xff\x81", "\xff\x81", 4},
        {"\x7f\x80\x7f\x80\x7f", "\x80\x7f\x80\x7f", 1},
    };
    spx_heap_t heap;
    spx_heap_init(&heap, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    /* each case alone, then after and before 300 bytes '#' (in no needle) */
    enum { PAD = 300 };
    char padded[PAD + 32];
    memset(padded, '#', sizeof(padded));
    for (size_t i = 0; i < COUNT(cases); i++) {
        size_t n = strlen(cases[i].s), m = strlen(cases[i].t);
        SPX_ASSERT(n <= 32 && strchr(cases[i].t, '#') == NULL);
        int64_t at = cases[i].at;
        expect_found(&heap, cases[i].s, n, cases[i].t, m, at);
        memcpy(padded + PAD, cases[i].s, n);
        expect_found(&heap, padded, PAD + n, cases[i].t, m, at >= 0 && m ? at + PAD : at);
        memset(padded, '#', sizeof(padded));
        memcpy(padded, cases[i].s, n);
        expect_found(&heap, padded, n + PAD, cases[i].t, m, at);
        memset(padded, '#', sizeof(padded));
    }
    /* zero bytes are bytes like any other */
    expect_found(&heap, "a\0b\0\0c", 6, "\0\0", 2, 3);
    expect_found(&heap, "a\0b\0\0c", 6, "\0c", 2, 4);
    expect_found(&heap, "a\0b\0\0c", 6, "b\0\0c", 4, 2);
    expect_found(&heap, "a\0b\0\0c", 6, "\0\0\0", 3, -1);
    /* and split's later searches, from after an occurrence, see no byte
     * before it: "\0aa\0a" split on "\0a" is "", "a", "" */
    spx_value_block_t *sb = NULL, *tb = NULL, *pieces = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_str_make(&heap, (const unsigned char *)"\0aa\0a", 5, &sb),
                          SPX_HEAP_OK);
    CU_ASSERT_EQUAL_FATAL(spx_str_make(&heap, (const unsigned char *)"\0a", 2, &tb), SPX_HEAP_OK);
    uint64_t fuel = 1000;
    CU_ASSERT_EQUAL_FATAL(spx_str_split(&heap, &fuel, sb, tb, &pieces), SPX_HEAP_OK);
    CU_ASSERT_EQUAL_FATAL(pieces->length, 3);
    CU_ASSERT(pieces->slots[0].b->length == 0 && pieces->slots[2].b->length == 0);
    CU_ASSERT(pieces->slots[1].b->length == 1 && spx_str_bytes(pieces->slots[1].b)[0] == 'a');
    spx_block_release(&heap, pieces);
    spx_block_release(&heap, sb);
    spx_block_release(&heap, tb);
    spx_heap_finish(&heap);
}

/* A pseudo-random byte below alphabet. */
static unsigned char next_byte(uint32_t *state, unsigned alphabet)
{
    *state = *state * 1103515245u + 12345u;
    return (unsigned char)('a' + (*state >> 16) % alphabet);
}

/* find, split and replace agree with a naive search on longer strings made
 * of a repeated word with changes, so that needles are periodic or nearly
 * so and partial matches are long: the needle is a run of the word (with
 * its last byte changed half of the time), taken from the haystack or not. */
static void test_search_periodic(void)
{
    spx_heap_t heap;
    spx_heap_init(&heap, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    uint32_t state = 2026;
    enum { HAYSTACK = 600, NEEDLE = 80 };
    for (int round = 0; round < 2000; round++) {
        char s[HAYSTACK], t[NEEDLE], word[8];
        unsigned alphabet = 2 + (unsigned)round % 3;
        size_t w = 1 + (size_t)next_byte(&state, 7) - 'a';
        for (size_t i = 0; i < w; i++)
            word[i] = (char)next_byte(&state, alphabet);
        size_t n = (size_t)round % HAYSTACK, m = 1 + (size_t)(next_byte(&state, 26) - 'a') * 3;
        for (size_t i = 0; i < n; i++) /* the word repeated, one byte in 16 changed */
            s[i] = next_byte(&state, 16) == 'a' ? (char)next_byte(&state, alphabet) : word[i % w];
        if (n >= m && next_byte(&state, 2) == 'a') {
            size_t at = (size_t)(next_byte(&state, 26) - 'a') * n / 26;
            at = at + m <= n ? at : n - m;
            memcpy(t, s + at, m);
        } else {
            for (size_t i = 0; i < m; i++)
                t[i] = word[i % w];
            if (next_byte(&state, 2) == 'a')
                t[m - 1] = (char)next_byte(&state, alphabet + 1);
        }
        expect_found(&heap, s, n, t, m, naive_find(s, n, t, m, 0));

        /* split: the pieces between the occurrences, found naively */
        spx_value_block_t *sb = NULL, *tb = NULL, *pieces = NULL, *xb = NULL, *out = NULL;
        spx_str_make(&heap, (const unsigned char *)s, n, &sb);
        spx_str_make(&heap, (const unsigned char *)t, m, &tb);
        spx_str_make(&heap, (const unsigned char *)"X", 1, &xb);
        uint64_t fuel = 1000000;
        CU_ASSERT_EQUAL_FATAL(spx_str_split(&heap, &fuel, sb, tb, &pieces), SPX_HEAP_OK);
        CU_ASSERT_EQUAL_FATAL(spx_str_replace(&heap, &fuel, sb, tb, xb, &out), SPX_HEAP_OK);
        uint32_t k = 0;
        size_t length = 0;
        int agrees = 1;
        for (size_t at = 0;; k++) {
            int64_t next = naive_find(s, n, t, m, at);
            size_t end = next >= 0 ? (size_t)next : n;
            const spx_value_block_t *piece = k < pieces->length ? pieces->slots[k].b : NULL;
            agrees = agrees && piece != NULL && piece->length == end - at &&
                     memcmp(spx_str_bytes(piece), s + at, end - at) == 0;
            agrees = agrees && length + (end - at) <= out->length &&
                     memcmp(spx_str_bytes(out) + length, s + at, end - at) == 0;
            length += end - at;
            if (next < 0)
                break;
            agrees = agrees && length < out->length && spx_str_bytes(out)[length] == 'X';
            length++;
            at = end + m;
        }
        CU_ASSERT(agrees && k + 1 == pieces->length && length == out->length);
        spx_block_release(&heap, out);
        spx_block_release(&heap, pieces);
        spx_block_release(&heap, sb);
        spx_block_release(&heap, tb);
        spx_block_release(&heap, xb);
    }
    spx_heap_finish(&heap);
}

/* The searches that defeat a scan for the first byte and a compare (billions
 * of byte comparisons here) finish at once: a^(2^20) for a^4095 b, also
 * with the needle at the very end, then for b a^4095; (ab)^(2^19) for
 * (ab)^2047 b, also with the needle at the very end. */
static void test_search_linear(void)
{
    enum { HAYSTACK = 1 << 20, NEEDLE = 4096 };
    spx_heap_t heap;
    spx_heap_init(&heap, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    char *s = malloc(HAYSTACK), *t = malloc(NEEDLE);
    SPX_ASSERT(s != NULL && t != NULL);
    memset(s, 'a', HAYSTACK);
    memset(t, 'a', NEEDLE);
    t[NEEDLE - 1] = 'b';
    expect_found(&heap, s, HAYSTACK, t, NEEDLE, -1);
    s[HAYSTACK - 1] = 'b';
    expect_found(&heap, s, HAYSTACK, t, NEEDLE, HAYSTACK - NEEDLE);
    t[0] = 'b';
    t[NEEDLE - 1] = 'a';
    expect_found(&heap, s, HAYSTACK, t, NEEDLE, -1);
    for (size_t i = 0; i < HAYSTACK; i++)
        s[i] = i % 2 ? 'b' : 'a';
    for (size_t i = 0; i < NEEDLE; i++)
        t[i] = i % 2 ? 'b' : 'a';
    t[NEEDLE - 2] = 'b';
    expect_found(&heap, s, HAYSTACK, t, NEEDLE - 1, -1);
    memcpy(s + HAYSTACK - (NEEDLE - 1), t, NEEDLE - 1);
    expect_found(&heap, s, HAYSTACK, t, NEEDLE - 1, HAYSTACK - (NEEDLE - 1));
    free(s);
    free(t);
    spx_heap_finish(&heap);
}

/* --- the checker ------------------------------------------------------------------------- */

/* The diagnostics of one module app of text, as "CODE message" lines. */
static const char *checked(const char *text, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_arena_t *arena = spx_arena_make(pool);
    spx_module_t *module =
        spx_module_make("app", "app.spx", (const unsigned char *)text, strlen(text), arena);
    spx_parse_module(module, arena, arena, pool, diagnostics);
    spx_module_t *modules[] = {module};
    spx_check_program(modules, 1, pool, diagnostics);
    spx_diagnostics_sort(diagnostics);
    const char *lines = "";
    for (apr_size_t i = 0; i < spx_diagnostics_count(diagnostics); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, i);
        lines = apr_psprintf(pool, "%s%s %s\n", lines, item->code, item->message);
    }
    return lines;
}

static void expect_checked(const char *text, const char *expected)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *actual = checked(text, pool);
    if (strcmp(actual, expected) != 0)
        fprintf(stderr, "\n  %s  wanted:\n%s  got:\n%s", text, expected, actual);
    CU_ASSERT_STRING_EQUAL(actual, expected);
    apr_pool_destroy(pool);
}

static void test_checker(void)
{
    /* nearest methods of the receiver's type */
    expect_checked("fn f(s: str) -> int { return s.fnd(\"a\"); }\n",
                   "E0420 type 'str' has no method 'fnd'; did you mean 'find'?\n");
    expect_checked("fn f(a: [int]) { a.revers(); }\n",
                   "E0420 type '[int]' has no method 'revers'; did you mean 'reverse'?\n");
    /* a method of another type */
    expect_checked("fn f(n: int) -> int { return n.find(\"a\"); }\n",
                   "E0420 'find' is a method of str, not of 'int'\n");
    expect_checked("fn f(b: bool) -> bool { return b.contains(true); }\n",
                   "E0420 'contains' is a method of str and arrays, not of 'bool'\n");
    expect_checked("fn f(a: [int]) -> str { return a.join(\",\"); }\n",
                   "E0420 'join' is a method of [str], not of '[int]'\n");
    /* s.len(): the builtin */
    expect_checked("fn f(s: str) -> int { return s.len(); }\n",
                   "E0420 type 'str' has no method 'len': a length is the builtin len(s); did "
                   "you mean 'len(s)'?\n");
    /* sort's element types */
    expect_checked("struct P { x: int }\nfn f(a: [P]) { var b = a; b.sort(); }\n",
                   "E0438 sort needs [int], [str] or [bool], not [app.P]\n");
    expect_checked("fn f(a: [[int]]) { var b = a; b.sort(); }\n",
                   "E0438 sort needs [int], [str] or [bool], not [[int]]\n");
    /* writing methods: a var's place only */
    expect_checked("fn f(a: [int]) { a.reverse(); }\n",
                   "E0312 cannot change 'a' with 'reverse': it is a parameter\n");
    expect_checked("fn g() -> [int] { return []; }\nfn f() { g().sort(); }\n",
                   "E0421 'sort' changes its array, so it needs a variable or an element or "
                   "field of one\n");
    /* arguments */
    expect_checked("fn f(s: str) -> [str] { return s.split(1); }\n",
                   "E0404 argument 1 of 'split' must be 'str', not 'int'\n");
    expect_checked("fn f(s: str) -> str { return s.replace(\"a\"); }\n",
                   "E0403 'replace' takes 2 arguments, not 1\n");
    expect_checked("fn f() { var a = [1]; a.insert(0, \"x\"); }\n",
                   "E0404 argument 2 of 'insert' must be 'int', not 'str'\n");
    /* insert's value expects the element type: [] is a [int] here */
    expect_checked("fn f() -> int { var a = [[1]]; a.insert(0, []); return a.index_of([]); }\n",
                   "");
    /* a const's name is a receiver, not a module's */
    expect_checked("const S: str = \"a,b\";\nfn f() -> int { return len(S.split(\",\")); }\n", "");
    expect_checked("const N: int = 3;\nfn f() -> int { return N.fnd(); }\n",
                   "E0420 type 'int' has no method 'fnd'\n");
    /* a function may take a method's name; -3.abs() is -(3.abs()) */
    expect_checked("fn abs(x: int) -> int { return x; }\n"
                   "fn f() -> int { return abs(-3) + -3.abs() + (-3).abs(); }\n",
                   "");
}

/* -3.abs() is -(3.abs()): -3 + 3 */
static void test_negation_binds_looser(void)
{
    /* f: -3 + 3; g: a const receiver, call, return, 2 x (split, len), max: 7 */
    static const spx_counted_run_t runs[] = {{"f", 0, 4, 0, NULL},
                                             {"g", 2 + 2, 7, SPX_ANY_PEAK, NULL}};
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture,
                           spx_run_fixture_program(
                               fixture,
                               "fn f() -> int {\n  return -3.abs() + (-3).abs();\n}\n"
                               "const S: str = \"a,b\";\nconst N: int = 2;\n"
                               "fn g() -> int {\n"
                               "  return len(S.split(\",\")) + N.max(len((S).split(\",\")));\n}\n"),
                           runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- the graph ------------------------------------------------------------------------- */

/* Each method called is a builtin node with the page's signature, and each
 * call one site of a calls edge (contains serves str and arrays; a local
 * x's x.sort() is a method too). */
static void test_graph(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture,
                          "fn f(s: str) -> int {\n  var a = s.split(\",\");\n  a.sort();\n"
                          "  if s.contains(\"x\") || a.contains(\"y\") { return 1; }\n"
                          "  return a.remove(0).find(\"z\") + 3.abs();\n}\n",
                          NULL, NULL);
    json_t *graph = spx_corpus_graph(spx_run_fixture_open(fixture));
    const char *lines = "";
    size_t index;
    json_t *item;
    json_array_foreach(json_object_get(graph, "nodes"), index, item)
    {
        if (strcmp(json_string_value(json_object_get(item, "kind")), "builtin") == 0)
            lines = apr_psprintf(fixture->pool, "%s%s %s\n", lines,
                                 json_string_value(json_object_get(item, "id")),
                                 json_string_value(json_object_get(item, "signature")));
    }
    json_array_foreach(json_object_get(graph, "edges"), index, item)
    {
        if (strcmp(json_string_value(json_object_get(item, "kind")), "calls") == 0)
            lines = apr_psprintf(fixture->pool, "%s%s %" APR_INT64_T_FMT "\n", lines,
                                 json_string_value(json_object_get(item, "to")),
                                 (apr_int64_t)json_integer_value(json_object_get(item, "sites")));
    }
    const char *expected = "builtin:abs fn(x: int) -> int\n"
                           "builtin:contains fn(x: str | [T], v: str | T) -> bool\n"
                           "builtin:find fn(s: str, t: str) -> int\n"
                           "builtin:remove fn(x: [T] | {K: V}, at: int | K) -> T | bool\n"
                           "builtin:sort fn(a: [T])\n"
                           "builtin:split fn(s: str, sep: str) -> [str]\n"
                           "builtin:abs 1\nbuiltin:contains 2\nbuiltin:find 1\nbuiltin:remove 1\n"
                           "builtin:sort 1\nbuiltin:split 1\n";
    if (strcmp(lines, expected) != 0)
        fprintf(stderr, "\n  got:\n%s", lines);
    CU_ASSERT_STRING_EQUAL(lines, expected);
    json_decref(graph);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"str methods: results, steps, the measure", test_str_rows},
        {"size charges at the 64 boundaries", test_size_charges},
        {"failures: messages, spans, steps", test_failures},
        {"sort: order of ints, strs and bools; writes through places", test_sort_order},
        {"sort: stable, n = ceil(log2 k) * (k + B)", test_sort_stable},
        {"adversarial searches run within their charge", test_adversarial_searches},
        {"split checks the measure once", test_split_measure},
        {"repeat's string in the measure", test_repeat_measure},
        {"join and replace: the known part of n first", test_known_part_first},
        {"find and replace agree with a naive search", test_search_agrees},
        {"find: periodic needles, the empty needle, the ends", test_search_cases},
        {"find, split and replace on nearly periodic strings", test_search_periodic},
        {"searches that defeat a naive scan stay linear", test_search_linear},
        {"the checker: E0420, E0438, E0312, E0421, E0403, E0404", test_checker},
        {"-3.abs() is -(3.abs()); a const as the receiver", test_negation_binds_looser},
        {"the graph: builtin nodes and calls edges", test_graph},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("the standard library of language v3", tests);
}
