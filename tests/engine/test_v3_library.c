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
#include "spx_library.h"
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <string.h>

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* Not checked: a run whose memory peak the test does not count. */
#define ANY_PEAK UINT64_MAX

/* One hand-counted run: app.FUNCTION returns value after exactly steps,
 * and live memory peaks at peak bytes (unless ANY_PEAK). */
typedef struct counted_t {
    const char *function;
    int64_t value;
    uint64_t steps;
    uint64_t peak;
} counted_t;

static void expect_counted(spx_fixture_t *fixture, const spx_program_t *program,
                           const counted_t *runs, size_t count)
{
    spx_run_limits_t limits = spx_run_limits_default();
    for (size_t i = 0; i < count; i++) {
        const counted_t *run = &runs[i];
        spx_run_result_t result = spx_run_fixture_call(fixture, program, run->function, &limits);
        if (result.outcome != SPX_OUTCOME_RETURNED || result.steps != run->steps ||
            result.value != run->value || (run->peak != ANY_PEAK && result.memory_peak != run->peak))
            fprintf(stderr, "\n  in app.%s: value %lld, steps %llu, peak %llu (%s)", run->function,
                    (long long)result.value, (unsigned long long)result.steps,
                    (unsigned long long)result.memory_peak,
                    result.outcome == SPX_OUTCOME_RETURNED ? "returned" : result.failure.message);
        spx_run_assert_returned(&result, run->value, run->steps);
        if (run->peak != ANY_PEAK)
            CU_ASSERT_EQUAL(result.memory_peak, run->peak);
    }
}

/* A run that stops: app.FUNCTION with outcome, code, message, span
 * "L:C-L:C" of app.spx, after exactly steps, under max_steps (0: the
 * default). */
typedef struct stop_t {
    const char *function;
    spx_outcome_t outcome;
    const char *code;
    const char *message;
    const char *span;
    uint64_t steps;
    uint64_t max_steps;
} stop_t;

static void expect_stops(spx_fixture_t *fixture, const spx_program_t *program, const stop_t *stops,
                         size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const stop_t *stop = &stops[i];
        spx_run_limits_t limits = spx_run_limits_default();
        if (stop->max_steps)
            limits.max_steps = stop->max_steps;
        spx_run_result_t result = spx_run_fixture_call(fixture, program, stop->function, &limits);
        if (result.outcome == SPX_OUTCOME_RETURNED)
            fprintf(stderr, "\n  app.%s returned %lld after %llu steps", stop->function,
                    (long long)result.value, (unsigned long long)result.steps);
        else if (result.steps != stop->steps || strcmp(result.failure.message, stop->message) != 0)
            fprintf(stderr, "\n  app.%s: %s after %llu steps", stop->function,
                    result.failure.message, (unsigned long long)result.steps);
        CU_ASSERT_EQUAL_FATAL(result.outcome == SPX_OUTCOME_RETURNED, 0);
        spx_run_assert_stopped(&result, stop->outcome, stop->code, stop->span, fixture->pool);
        CU_ASSERT_STRING_EQUAL(result.failure.message, stop->message);
        CU_ASSERT_EQUAL(result.steps, stop->steps);
    }
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
    "  return \"hello\".find(\"ll\") * 100 + \"hello\".find(\"\") * 10 + \"hello\".find(\"z\");\n}\n"
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
    static const counted_t runs[] = {
        /* call, let, split, return, len, len: 6; the receiver and separator
         * literals (32 each) while split makes [4] (32 + 32) and its pieces
         * "a" "" "b" "" (33 + 32 + 33 + 32): 64 + 194 */
        {"split_pieces", 41, 6, 258},
        /* call, let, split, return, len, len: 6; "" and "," (64), [""] (40
         * + 32) */
        {"split_empty", 1, 6, 136},
        /* call, let, split, if (operators cost no step), return, len: 6 */
        {"split_long_separator", 3, 6, ANY_PEAK},
        /* call, let, let, join, if, return, len: 7; the array of three
         * literals (32 + 24 + 3 x 32), "--" (32), "a--b--c" (39), and the
         * literal "a--b--c" compared with (32) */
        {"join_three", 7, 7, 152 + 32 + 39},
        /* call, let, return, join, len: 5; [] (32), "," (32), "" (32) */
        {"join_none", 0, 5, 96},
        /* call, return, three finds: 5 */
        {"finds", 199, 5, 64},
        /* KMP past a partial match: 6 */
        {"find_overlapping", 6, 3, 64},
        /* call, var, 3 ifs with a contains each, 2 assignments, return: 11 */
        {"contains", 101, 11, 64},
        /* call, var, let, 5 ifs with a call each, 3 assignments, return: 17 */
        {"affixes", 1011, 17, ANY_PEAK},
        /* call, let, trim, if, 2 trims, return, len: 8 */
        {"trims", 3, 8, ANY_PEAK},
        /* call, let, if, lower, upper, return: 6 */
        {"cases", 1, 6, ANY_PEAK},
        /* call, var, 4 ifs with a replace each, 4 assignments, return: 15 */
        {"replaces", 1111, 15, ANY_PEAK},
        /* call, var, 3 ifs with a repeat each, 3 assignments, return:
         * 12; repeat of "" with the largest count makes "" at once */
        {"repeats", 111, 12, ANY_PEAK},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    expect_counted(fixture, spx_run_fixture_program(fixture, str_source), runs, COUNT(runs));
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
    "fn place_first() -> int {\n  var a = [[1]];\n  a[1].insert(5, 0);\n  return 0;\n}\n";

static void test_failures(void)
{
    static const stop_t stops[] = {
        /* call, let, split: 3 */
        {"split_empty", SPX_OUTCOME_LANGUAGE_FAILURE, "R0523", "split with an empty separator",
         "2:11-2:26", 3, 0},
        /* call, return, replace: 3 */
        {"replace_empty", SPX_OUTCOME_LANGUAGE_FAILURE, "R0523", "replace with an empty pattern",
         "6:14-6:36", 3, 0},
        {"repeat_negative", SPX_OUTCOME_LANGUAGE_FAILURE, "R0524", "repeat count -1 is negative",
         "9:14-9:29", 3, 0},
        /* n = 2 x 8388609 = 16777218 is paid (262144 steps), then the length
         * fails: 3 + 262144 */
        {"repeat_long", SPX_OUTCOME_LANGUAGE_FAILURE, "R0506",
         "string too long: 16777218 bytes, over the limit of 16777216", "12:14-12:34", 262147, 0},
        /* call, var, statement, insert: 4 */
        {"insert_past", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511",
         "index 4 out of range for insert into length 3", "16:3-16:17", 4, 0},
        {"insert_negative", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511",
         "index -1 out of range for insert into length 3", "21:3-21:18", 4, 0},
        {"remove_past", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511",
         "index 3 out of range for remove from length 3", "26:10-26:21", 4, 0},
        {"abs_min", SPX_OUTCOME_LANGUAGE_FAILURE, "R0502",
         "integer overflow: abs(-9223372036854775808)", "30:10-30:17", 4, 0},
        /* the place's index is checked before insert's own */
        {"place_first", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511", "index 1 out of range for length 1",
         "34:3-34:20", 4, 0},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    expect_stops(fixture, spx_run_fixture_program(fixture, failure_source), stops, COUNT(stops));
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"str methods: results, steps, the measure", test_str_rows},
        {"failures: messages, spans, steps", test_failures},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("the standard library of language v3", tests);
}
