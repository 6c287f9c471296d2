/*
 * test_vm.c: the interpreter as language.md specifies it: step counts
 * counted by hand and asserted exactly, fuel at max_steps - 1, max_steps and
 * max_steps + 1, every language failure with its code, message and span,
 * the call-depth limit at exactly 256 (also on a 256 KiB thread stack),
 * output kept up to max_bytes, and string values; the instructions that
 * carry an int literal as an immediate (x + K, x - K, x compared with K) at
 * the bounds of int and of the immediate.
 */
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"
#include "vm_internal.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static spx_run_limits_t limits_with_steps(uint64_t max_steps)
{
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = max_steps;
    return limits;
}

/* Run app.FUNCTION of source with the default limits. */
static spx_run_result_t run(spx_fixture_t *fixture, const char *source, const char *function)
{
    spx_run_limits_t limits = spx_run_limits_default();
    return spx_run_fixture_call(fixture, spx_run_fixture_program(fixture, source), function,
                                &limits);
}

/* Run app.FUNCTION of program under limits; it must return value after
 * exactly steps. */
static spx_run_result_t expect_call(spx_fixture_t *fixture, const spx_program_t *program,
                                    const char *function, const spx_run_limits_t *limits,
                                    int64_t value, uint64_t steps)
{
    spx_run_result_t result = spx_run_fixture_call(fixture, program, function, limits);
    spx_run_assert_returned(&result, value, steps);
    return result;
}

/* --- step counts ------------------------------------------------------------ */

/* One hand-counted run: app.FUNCTION returns value after exactly steps and
 * prints output. */
typedef struct counted_t {
    const char *function;
    int64_t value;
    uint64_t steps;
    const char *output;
} counted_t;

/* A program and the runs counted on it, the count of each in its comment. */
typedef struct step_case_t {
    const char *source;
    counted_t runs[5]; /* ended by one with no function */
} step_case_t;

static const step_case_t step_cases[] = {
    /* straight line: call, let, var, assignment, return */
    {"fn t() -> int {\n  let a = 1;\n  var b = a + 2;\n  b = b * 3;\n  return b - 9;\n}\n",
     {{"t", 0, 5, ""}}},
    /* if/else: call, return, then twice: call pick, if, return */
    {"fn pick(x: int) -> int {\n  if x > 3 { return 1; } else { return 2; }\n}\n"
     "fn grade(x: int) -> int {\n"
     "  if x < 0 { return 1; } else if x < 3 { return 2; } else { return 3; }\n}\n"
     "fn both() -> int { return pick(5) * 10 + pick(1); }\n"
     "fn last() -> int { return grade(5); }\n"
     "fn first() -> int { return grade(-1); }\n"
     "fn none() -> int { if false { return 1; } return 0; }\n",
     {{"both", 12, 8, ""},
      /* call, return, call grade, if, else-if (an if statement too), return */
      {"last", 3, 6, ""},
      {"first", 1, 5, ""},
      /* call, if, return: a block that does not run costs nothing */
      {"none", 0, 3, ""}}},
    /* while: call, return, call count, var, while, n + 1 conditions,
     * n assignments, return: 2n + 7 */
    {"fn count(n: int) -> int {\n  var i = 0;\n  while i < n { i = i + 1; }\n  return i;\n}\n"
     "fn zero() -> int { return count(0); }\n"
     "fn three() -> int { return count(3); }\n"
     "fn thousand() -> int { return count(1000); }\n"
     "fn spec() -> int { var i: int = 0; while i < 3 { i = i + 1; } return i - 3; }\n",
     {{"zero", 0, 7, ""},
      {"three", 3, 13, ""},
      {"thousand", 1000, 2007, ""},
      /* language.md's own example */
      {"spec", 0, 11, ""}}},
    /* nested calls: t: call, return; add(1, 2): call, return; twice: call,
     * return; add(x, x) inside twice: call, return */
    {"fn add(a: int, b: int) -> int { return a + b; }\n"
     "fn twice(x: int) -> int { return add(x, x); }\n"
     "fn t() -> int { return twice(add(1, 2)) - 6; }\n",
     {{"t", 0, 8, ""}}},
    /* builtins: call, statement, print, itos, len, statement, assert, return;
     * units: call; statement, call u, statement, print (u ends without a
     * step); statement, call v, statement, print, return; return */
    {"fn b() -> int { print(itos(len(\"abc\"))); assert(true); return 0; }\n"
     "fn u() { print(\"x\"); }\n"
     "fn v() { print(\"y\"); return; }\n"
     "fn units() -> int { u(); v(); return 0; }\n",
     {{"b", 0, 8, "3"}, {"units", 0, 11, "xy"}}},
    /* && and || that do not evaluate their right operand: call, let, let, if,
     * return; one that does: call, let, call f, statement, print, return, if,
     * return */
    {"fn f() -> bool { print(\"f\"); return true; }\n"
     "fn short() -> int { let a = false && f(); let b = true || f();\n"
     "  if a || b { return 0; } return 1; }\n"
     "fn long() -> int { let c = true && f(); if c { return 0; } return 1; }\n",
     {{"short", 0, 5, ""}, {"long", 0, 8, "f"}}},
    /* immediates (n < 2, n - 1, n - 2) charge what registers did: each of
     * fib(10)'s 177 calls is call, if, return; t: call, return */
    {"fn fib(n: int) -> int {\n  if n < 2 { return n; }\n  return fib(n - 1) + fib(n - 2);\n}\n"
     "fn t() -> int { return fib(10); }\n",
     {{"t", 55, 177 * 3 + 2, ""}}},
};

static void test_hand_counted_steps(void)
{
    spx_run_limits_t limits = spx_run_limits_default();
    for (size_t i = 0; i < sizeof(step_cases) / sizeof(step_cases[0]); i++) {
        spx_fixture_t *fixture = spx_fixture_new();
        spx_program_t *program = spx_run_fixture_program(fixture, step_cases[i].source);
        for (const counted_t *run = step_cases[i].runs; run->function; run++) {
            spx_run_result_t result =
                expect_call(fixture, program, run->function, &limits, run->value, run->steps);
            CU_ASSERT_STRING_EQUAL(result.output, run->output);
        }
        spx_fixture_free(fixture);
    }
}

/* --- fuel --------------------------------------------------------------------- */

static void test_fuel_at_the_boundary(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn t() -> int {\n  var i: int = 0;\n  while i < 3 {\n    i = i + 1;\n  }\n"
                 "  return i - 3;\n}\n");
    /* 11 steps: max_steps 12 and 11 pass, 10 stops at the return with 10 */
    spx_run_limits_t limits = limits_with_steps(12);
    expect_call(fixture, program, "t", &limits, 0, 11);
    limits.max_steps = 11;
    expect_call(fixture, program, "t", &limits, 0, 11);
    limits.max_steps = 10;
    spx_run_result_t below = spx_run_fixture_call(fixture, program, "t", &limits);
    spx_run_assert_stopped(&below, SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "6:3-6:16", fixture->pool);
    CU_ASSERT_EQUAL(below.steps, 10);
    CU_ASSERT_STRING_EQUAL(below.failure.message, "fuel exhausted: max_steps 10 reached");
    /* the 10th step is the last evaluation of the condition */
    limits.max_steps = 9;
    spx_run_result_t condition = spx_run_fixture_call(fixture, program, "t", &limits);
    spx_run_assert_stopped(&condition, SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "3:9-3:14",
                           fixture->pool);
    CU_ASSERT_EQUAL(condition.steps, 9);
    /* no fuel at all: the call of the test function itself is refused */
    limits.max_steps = 0;
    spx_run_result_t none = spx_run_fixture_call(fixture, program, "t", &limits);
    spx_run_assert_stopped(&none, SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "1:4-1:5", fixture->pool);
    CU_ASSERT_EQUAL(none.steps, 0);
    spx_fixture_free(fixture);
}

/* Two steps paid by one instruction (the return statement and the call in
 * it): the stop names the step that could not be paid. */
static void test_fuel_names_the_unpaid_step(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn f() -> int { return 0; }\nfn t() -> int {\n  return f();\n}\n");
    spx_run_limits_t limits = limits_with_steps(1);
    spx_run_result_t statement = spx_run_fixture_call(fixture, program, "t", &limits);
    spx_run_assert_stopped(&statement, SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "3:3-3:14",
                           fixture->pool);
    CU_ASSERT_EQUAL(statement.steps, 1);
    limits.max_steps = 2;
    spx_run_result_t call = spx_run_fixture_call(fixture, program, "t", &limits);
    spx_run_assert_stopped(&call, SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "3:10-3:13", fixture->pool);
    CU_ASSERT_EQUAL(call.steps, 2);
    limits.max_steps = 4;
    expect_call(fixture, program, "t", &limits, 0, 4);
    spx_fixture_free(fixture);
}

static void test_fuel_stops_an_endless_loop(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn t() -> int {\n  var i = 0;\n  while true { i = i + 1; print(\"z\"); }\n"
                 "  return i;\n}\n");
    spx_run_limits_t limits = limits_with_steps(1000);
    spx_run_result_t r = spx_run_fixture_call(fixture, program, "t", &limits);
    CU_ASSERT_EQUAL(r.outcome, SPX_OUTCOME_FUEL_EXHAUSTED);
    CU_ASSERT_EQUAL(r.steps, 1000);
    /* call, var, while; then per round: condition, assignment, statement,
     * print: 249 whole rounds fit in 1000 steps */
    CU_ASSERT_EQUAL(r.output_length, (1000 - 3) / 4);
    spx_fixture_free(fixture);
}

/* --- language failures ----------------------------------------------------------- */

typedef struct failure_case_t {
    const char *body; /* the second and third lines of fn t() */
    const char *code;
    const char *span;
    const char *message;
    uint64_t steps;
} failure_case_t;

static void test_integer_failures(void)
{
    static const failure_case_t cases[] = {
        {"  let m = 9223372036854775807;\n  return m + 1;\n", "R0501", "3:10-3:15",
         "integer overflow: 9223372036854775807 + 1", 3},
        {"  let m = -9223372036854775807 - 1;\n  return m - 1;\n", "R0501", "3:10-3:15",
         "integer overflow: -9223372036854775808 - 1", 3},
        {"  let m = 4611686018427387904;\n  return m * 2;\n", "R0501", "3:10-3:15",
         "integer overflow: 4611686018427387904 * 2", 3},
        {"  let m = -9223372036854775807 - 1;\n  return -m;\n", "R0502", "3:10-3:12",
         "integer overflow: -(-9223372036854775808)", 3},
        {"  let z = 0;\n  return 7 / z;\n", "R0503", "3:10-3:15", "division by zero: 7 / 0", 3},
        {"  let z = 0;\n  return 7 % z;\n", "R0504", "3:10-3:15", "remainder by zero: 7 % 0", 3},
        {"  let m = -9223372036854775807 - 1;\n  return m / -1;\n", "R0505", "3:10-3:16",
         "integer overflow: -9223372036854775808 / -1", 3},
        {"  let ok = true;\n  assert(ok && 1 == 2);\n  return 0;\n", "R0508", "3:3-3:23",
         "assertion failed", 4},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        spx_fixture_t *fixture = spx_fixture_new();
        spx_run_result_t r =
            run(fixture,
                apr_pstrcat(fixture->pool, "fn t() -> int {\n", cases[i].body, "}\n", NULL), "t");
        spx_run_assert_stopped(&r, SPX_OUTCOME_LANGUAGE_FAILURE, cases[i].code, cases[i].span,
                               fixture->pool);
        CU_ASSERT_STRING_EQUAL(r.failure.message, cases[i].message);
        /* call, first statement, second statement (and assert's call) */
        CU_ASSERT_EQUAL(r.steps, cases[i].steps);
        spx_fixture_free(fixture);
    }
}

/* The destination register of an arithmetic instruction can be one of its
 * operands (a call's result register, a variable assigned its own sum): the
 * overflow message still names both operands as they were. */
static void test_overflow_names_the_operands(void)
{
    static const struct {
        const char *statements;
        const char *message;
    } cases[] = {
        {"  return mx() + 1;\n", "integer overflow: 9223372036854775807 + 1"},
        {"  return 1 + mx();\n", "integer overflow: 1 + 9223372036854775807"},
        {"  return (0 - mx() - 1) - 1;\n", "integer overflow: -9223372036854775808 - 1"},
        {"  return mx() * 2;\n", "integer overflow: 9223372036854775807 * 2"},
        {"  var m = mx();\n  m = m + m;\n  return m;\n",
         "integer overflow: 9223372036854775807 + 9223372036854775807"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        spx_fixture_t *fixture = spx_fixture_new();
        spx_run_result_t r = run(fixture,
                                 apr_pstrcat(fixture->pool,
                                             "fn mx() -> int {\n  return 9223372036854775807;\n}\n"
                                             "fn t() -> int {\n",
                                             cases[i].statements, "}\n", NULL),
                                 "t");
        CU_ASSERT_EQUAL(r.outcome, SPX_OUTCOME_LANGUAGE_FAILURE);
        CU_ASSERT_STRING_EQUAL(r.failure.code, "R0501");
        CU_ASSERT_STRING_EQUAL(r.failure.message, cases[i].message);
        spx_fixture_free(fixture);
    }
}

/* x + K and x - K (K an int literal below 2^31 - 1, carried in the
 * instruction) at the bounds of int: the largest immediate reaching
 * exactly the bound and one past it, the first literal that takes a
 * register again, and a variable assigned its own sum. */
static void test_immediate_overflow(void)
{
    static const struct {
        const char *body; /* the second and third lines of fn t() */
        const char *span;
        const char *message; /* NULL: returns value */
        int64_t value;
    } cases[] = {
        {"  let m = 9223372036854775807 - 2147483646;\n  return m + 2147483646;\n", NULL, NULL,
         INT64_MAX},
        {"  let m = 9223372036854775807 - 2147483645;\n  return m + 2147483646;\n", "3:10-3:24",
         "integer overflow: 9223372034707292162 + 2147483646", 0},
        {"  let m = 9223372036854775807 - 1;\n  return m + 1;\n", NULL, NULL, INT64_MAX},
        {"  let m = 9223372036854775807;\n  return m + 0;\n", NULL, NULL, INT64_MAX},
        {"  let m = -9223372036854775807 + 2147483645;\n  return m - 2147483646;\n", NULL, NULL,
         INT64_MIN},
        {"  let m = -9223372036854775807 + 2147483644;\n  return m - 2147483646;\n", "3:10-3:24",
         "integer overflow: -9223372034707292163 - 2147483646", 0},
        {"  let m = -9223372036854775807;\n  return m - 1;\n", NULL, NULL, INT64_MIN},
        {"  let m = -9223372036854775807 - 1;\n  return m - 0;\n", NULL, NULL, INT64_MIN},
        /* 2^31 - 1 and 2^63 - 1 are operands in registers */
        {"  let m = 9223372036854775807 - 2147483646;\n  return m + 2147483647;\n", "3:10-3:24",
         "integer overflow: 9223372034707292161 + 2147483647", 0},
        {"  let m = -2;\n  return m - 9223372036854775807;\n", "3:10-3:33",
         "integer overflow: -2 - 9223372036854775807", 0},
        {"  var m = 9223372036854775807;\n  m = m + 1;\n  return m;\n", "3:7-3:12",
         "integer overflow: 9223372036854775807 + 1", 0},
        {"  var m = -9223372036854775807 - 1;\n  m = m - 1;\n  return m;\n", "3:7-3:12",
         "integer overflow: -9223372036854775808 - 1", 0},
        /* compound assignments carry it too, to a variable and to a place */
        {"  var m = 9223372036854775807;\n  m += 1;\n  return m;\n", "3:3-3:9",
         "integer overflow: 9223372036854775807 + 1", 0},
        {"  var a = [-9223372036854775807];\n  a[0] -= 2;\n  return a[0];\n", "3:3-3:12",
         "integer overflow: -9223372036854775807 - 2", 0},
        {"  var a = [9223372036854775806];\n  a[0] += 1;\n  return a[0];\n", NULL, NULL, INT64_MAX},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        spx_fixture_t *fixture = spx_fixture_new();
        spx_run_result_t r =
            run(fixture,
                apr_pstrcat(fixture->pool, "fn t() -> int {\n", cases[i].body, "}\n", NULL), "t");
        if (!cases[i].message) {
            uint64_t statements = 0; /* one a line */
            for (const char *at = cases[i].body; *at; at++)
                statements += *at == '\n';
            spx_run_assert_returned(&r, cases[i].value, 1 + statements); /* the call, each line */
        } else {
            spx_run_assert_stopped(&r, SPX_OUTCOME_LANGUAGE_FAILURE, "R0501", cases[i].span,
                                   fixture->pool);
            CU_ASSERT_STRING_EQUAL(r.failure.message, cases[i].message);
            CU_ASSERT_EQUAL(r.steps, 3); /* call, first statement, second statement */
        }
        spx_fixture_free(fixture);
    }
}

/* x == K, !=, <, <=, >, >= (K an int literal) as values and as conditions
 * that jump when false (if) and when true (the left of ||), for x on each
 * side of K and at the bounds of int; K 0, 2, the largest immediate
 * (2^31 - 2) and the first literal in a register (2^31 - 1). Each result
 * is a bit: the function returns their sum, compared with C's. */
static void test_immediate_comparisons(void)
{
    static const char *const ks[] = {"0", "2", "2147483646", "2147483647"};
    static const char *const operators[] = {"==", "!=", "<", "<=", ">", ">="};
    for (size_t k = 0; k < sizeof(ks) / sizeof(ks[0]); k++) {
        spx_fixture_t *fixture = spx_fixture_new();
        apr_pool_t *pool = fixture->pool;
        const char *K = ks[k];
        const char *body = "";
        for (size_t o = 0; o < 6; o++) {
            const char *test = apr_psprintf(pool, "x %s %s", operators[o], K);
            int bit = 1 << (3 * o);
            body = apr_psprintf(pool,
                                "%s  let v%d = %s;\n  if v%d { r = r + %d; }\n"
                                "  if %s { r = r + %d; }\n  if %s || x != x { r = r + %d; }\n",
                                body, (int)o, test, (int)o, bit, test, bit * 2, test, bit * 4);
        }
        const char *source = apr_psprintf(pool,
                                          "fn c(x: int) -> int {\n  var r = 0;\n%s  return r;\n}\n"
                                          "fn t0() -> int { return c(%s - 1); }\n"
                                          "fn t1() -> int { return c(%s); }\n"
                                          "fn t2() -> int { return c(%s + 1); }\n"
                                          "fn t3() -> int { return c(-9223372036854775807 - 1); }\n"
                                          "fn t4() -> int { return c(9223372036854775807); }\n",
                                          body, K, K, K);
        spx_program_t *program = spx_run_fixture_program(fixture, source);
        int64_t value = apr_atoi64(K);
        const int64_t xs[] = {value - 1, value, value + 1, INT64_MIN, INT64_MAX};
        for (size_t x = 0; x < 5; x++) {
            int64_t expected = 0;
            const int results[] = {xs[x] == value, xs[x] != value,
                                   xs[x]<value, xs[x] <= value, xs[x]> value, xs[x] >= value};
            for (size_t o = 0; o < 6; o++)
                if (results[o])
                    expected += 7 << (3 * o);
            spx_run_limits_t limits = spx_run_limits_default();
            spx_run_result_t r =
                spx_run_fixture_call(fixture, program, apr_psprintf(pool, "t%d", (int)x), &limits);
            CU_ASSERT_EQUAL(r.outcome, SPX_OUTCOME_RETURNED);
            CU_ASSERT_EQUAL(r.value, expected);
            if (r.value != expected)
                fprintf(stderr, "K %s, x %" PRId64 ": %" PRId64 ", not %" PRId64 "\n", K, xs[x],
                        r.value, expected);
        }
        spx_fixture_free(fixture);
    }
}

static void test_division_rules(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    /* truncation toward zero, remainder with the dividend's sign, MIN % -1 = 0 */
    spx_run_result_t r = run(fixture,
                             "fn t() -> int {\n  let m = -9223372036854775807 - 1;\n"
                             "  if m % -1 != 0 { return 1; }\n"
                             "  return (0 - 7) / 2 * 1000 + (0 - 7) % 2 * 100 + 7 % (0 - 2) * 10 "
                             "+ 7 / (0 - 2);\n}\n",
                             "t");
    spx_run_assert_returned(&r, -3000 - 100 + 10 - 3, 4);
    spx_fixture_free(fixture);
}

static void test_string_too_long(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn t() -> int {\n  var s = \"x\";\n  while true {\n    s = s + s;\n"
                 "  }\n  return 0;\n}\n");
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = 2000000;
    spx_run_result_t r = spx_run_fixture_call(fixture, program, "t", &limits);
    spx_run_assert_stopped(&r, SPX_OUTCOME_LANGUAGE_FAILURE, "R0506", "4:9-4:14", fixture->pool);
    CU_ASSERT_STRING_EQUAL(r.failure.message,
                           "string too long: 33554432 bytes, over the limit of 16777216");
    /* call, var, while, then 24 doublings (condition, assignment), then the
     * 25th condition and assignment; s = s + s is a concatenation, charged
     * 2^k / 64 for a result of 2^k bytes: 2^0 + ... + 2^18 for the 24
     * doublings and 2^19 for the 25th, paid before the length limit fails */
    CU_ASSERT_EQUAL(r.steps, 3 + 24 * 2 + 2 + ((1u << 19) - 1) + (1u << 19));
    spx_fixture_free(fixture);
}

static void test_memory_limit(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    /* Each 16 MiB string counts 16 MiB + 32 bytes, and the literal "" its
     * header (32) while it is an operand: with s, 15 copies pass the default
     * max_memory of 256 MiB by 16 x 32 + 32 = 544 bytes, so a15 is refused;
     * the peak is a14's, s and 14 copies with a literal's header. */
    const char *source = "fn big() -> str {\n  var s = \"x\";\n  var i = 0;\n"
                         "  while i < 24 { s = s + s; i = i + 1; }\n  return s;\n}\n"
                         "fn t() -> int {\n  let s = big();\n";
    for (int i = 1; i <= 16; i++)
        source = apr_psprintf(fixture->pool, "%s  let a%d = s + \"\";\n", source, i);
    source = apr_pstrcat(fixture->pool, source, "  return 0;\n}\n", NULL);
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = 10000000; /* each copy is charged 2^24 / 64 steps */
    spx_run_result_t r =
        spx_run_fixture_call(fixture, spx_run_fixture_program(fixture, source), "t", &limits);
    spx_run_assert_stopped(&r, SPX_OUTCOME_LANGUAGE_FAILURE, "R0521", "23:13-23:19", fixture->pool);
    CU_ASSERT_STRING_EQUAL(
        r.failure.message,
        "memory limit exceeded: 268436000 bytes live, over max_memory 268435456");
    CU_ASSERT_EQUAL(r.memory_peak, 15ull * (16777216 + 32) + 32);
    spx_fixture_free(fixture);
}

/* --- call depth -------------------------------------------------------------------- */

static void test_depth_at_exactly_the_limit(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn d(n: int) -> int {\n  if n == 0 { return 0; }\n  return d(n - 1);\n}\n"
                 "fn ok() -> int { return d(254); }\n"
                 "fn over() -> int { return d(255); }\n");
    spx_run_limits_t limits = spx_run_limits_default();
    CU_ASSERT_EQUAL(limits.max_call_depth, 256);
    /* ok at depth 1, d(254) at 2, ..., d(0) at 256 */
    spx_run_result_t ok = spx_run_fixture_call(fixture, program, "ok", &limits);
    CU_ASSERT_EQUAL(ok.outcome, SPX_OUTCOME_RETURNED);
    spx_run_result_t over = spx_run_fixture_call(fixture, program, "over", &limits);
    spx_run_assert_stopped(&over, SPX_OUTCOME_DEPTH_EXHAUSTED, "R0510", "3:10-3:18", fixture->pool);
    CU_ASSERT_STRING_EQUAL(over.failure.message,
                           "call depth exhausted: calling 'app.d' would exceed the call-depth "
                           "limit of 256");
    /* a smaller recorded limit is honoured the same way */
    limits.max_call_depth = 2;
    spx_run_result_t two = spx_run_fixture_call(fixture, program, "ok", &limits);
    CU_ASSERT_EQUAL(two.outcome, SPX_OUTCOME_DEPTH_EXHAUSTED);
    spx_fixture_free(fixture);
}

/* A program that would recurse 10^6 times stops at depth 256, on a thread
 * whose stack is only 256 KiB: the interpreter does not recurse in C. */
static void test_depth_without_the_c_stack(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn r(n: int) -> int {\n  if n == 1000000 { return 0; }\n  return r(n + 1);\n}\n"
                 "fn t() -> int { return r(1); }\n");
    spx_run_limits_t limits = limits_with_steps(10000000);
    spx_run_result_t deep =
        spx_run_fixture_call_on_stack(fixture, program, "t", &limits, 256 * 1024);
    spx_run_assert_stopped(&deep, SPX_OUTCOME_DEPTH_EXHAUSTED, "R0510", "3:10-3:18", fixture->pool);
    /* t: call, return, call r; r at depths 2..256: if, return, call */
    CU_ASSERT_EQUAL(deep.steps, 3 + 255 * 3);
    spx_fixture_free(fixture);
}

/* At the largest --max-call-depth the interpreter still keeps its frames
 * on the heap: 65536 active calls on a 256 KiB stack. */
static void test_depth_maximum_without_the_c_stack(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn r(n: int) -> int {\n  if n == 1000000 { return 0; }\n  return r(n + 1);\n}\n"
                 "fn t() -> int { return r(1); }\n");
    spx_run_limits_t limits = limits_with_steps(10000000);
    limits.max_call_depth = SPX_LIMIT_CALL_DEPTH_MAXIMUM;
    spx_run_result_t deep =
        spx_run_fixture_call_on_stack(fixture, program, "t", &limits, 256 * 1024);
    spx_run_assert_stopped(&deep, SPX_OUTCOME_DEPTH_EXHAUSTED, "R0510", "3:10-3:18", fixture->pool);
    CU_ASSERT_EQUAL(deep.steps, 3 + (SPX_LIMIT_CALL_DEPTH_MAXIMUM - 1) * 3);
    CU_ASSERT_STRING_EQUAL(deep.failure.message,
                           "call depth exhausted: calling 'app.r' would exceed the call-depth "
                           "limit of 65536");
    spx_fixture_free(fixture);
}

/* Frames of a function with thousands of registers: whatever the depth
 * allows, all frames together hold at most SPX_LIMIT_FRAME_REGISTERS in
 * each file, and a call past that stops the run as depth_exhausted saying
 * the frames are full (which --max-call-depth cannot raise). */
static void test_frame_registers_bounded(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    enum { LOCALS = 8000 };
    apr_size_t capacity = 64 + LOCALS * 24 + 128, used = 0;
    char *source = apr_palloc(fixture->pool, capacity);
    used += (apr_size_t)snprintf(source + used, capacity - used, "fn f(n: int) -> int {\n");
    for (int i = 0; i < LOCALS; i++)
        used += (apr_size_t)snprintf(source + used, capacity - used, "  let a%d = n;\n", i);
    snprintf(source + used, capacity - used,
             "  if n == 0 { return 0; }\n  return f(n - 1);\n}\n"
             "fn t() -> int { return f(1000); }\n");
    spx_program_t *program = spx_run_fixture_program(fixture, source);
    spx_run_limits_t limits = limits_with_steps(100000000);
    limits.max_call_depth = 2000;
    spx_run_result_t full = spx_run_fixture_call(fixture, program, "t", &limits);
    CU_ASSERT_EQUAL(full.outcome, SPX_OUTCOME_DEPTH_EXHAUSTED);
    CU_ASSERT_STRING_EQUAL(full.failure.code, "R0510");
    unsigned depth = 0;
    CU_ASSERT_EQUAL(sscanf(full.failure.message,
                           "call depth exhausted: calling 'app.f' at depth %u would need", &depth),
                    1);
    /* each frame holds thousands of registers: far fewer than 2000 frames
     * fit, and more than the default depth (526 here) */
    CU_ASSERT_TRUE(depth > 256 && depth < 600);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(full.failure.message, "more than the 4194304 registers all frames may hold"));
    /* at the default depth the depth limit comes first */
    limits.max_call_depth = SPX_LIMIT_CALL_DEPTH_DEFAULT;
    spx_run_result_t shallow = spx_run_fixture_call(fixture, program, "t", &limits);
    CU_ASSERT_STRING_EQUAL(shallow.failure.message,
                           "call depth exhausted: calling 'app.f' would exceed the call-depth "
                           "limit of 256");
    spx_fixture_free(fixture);
}

/* --- output and strings -------------------------------------------------------------- */

static void test_output_truncation(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn t() -> int { print(\"abc\"); print(\"defg\"); print(\"h\"); return 0; }\n"
                 "fn u() -> int { print(\"a\\u{e9}\"); return 0; }\n");
    spx_run_limits_t limits = spx_run_limits_default();
    spx_run_result_t whole = spx_run_fixture_call(fixture, program, "t", &limits);
    CU_ASSERT_STRING_EQUAL(whole.output, "abcdefgh");
    CU_ASSERT_FALSE(whole.output_truncated);
    limits.max_bytes = 8;
    spx_run_result_t fits = spx_run_fixture_call(fixture, program, "t", &limits);
    CU_ASSERT_STRING_EQUAL(fits.output, "abcdefgh");
    CU_ASSERT_FALSE(fits.output_truncated);
    limits.max_bytes = 5;
    /* truncation is not a failure */
    spx_run_result_t cut = expect_call(fixture, program, "t", &limits, 0, 8);
    CU_ASSERT_EQUAL(cut.output_length, 5);
    CU_ASSERT_STRING_EQUAL(cut.output, "abcde");
    CU_ASSERT_TRUE(cut.output_truncated);
    /* a cut never splits a UTF-8 sequence: "a\xc3\xa9" kept in 2 bytes is "a" */
    limits.max_bytes = 2;
    spx_run_result_t utf8 = spx_run_fixture_call(fixture, program, "u", &limits);
    CU_ASSERT_STRING_EQUAL(utf8.output, "a");
    CU_ASSERT_TRUE(utf8.output_truncated);
    limits.max_bytes = 0;
    spx_run_result_t none = spx_run_fixture_call(fixture, program, "t", &limits);
    CU_ASSERT_EQUAL(none.output_length, 0);
    CU_ASSERT_TRUE(none.output_truncated);
    spx_fixture_free(fixture);
}

static void test_strings(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_result_t r =
        run(fixture,
            "fn wrap(s: str, n: int) -> str { return \"<\" + s + itos(n) + \">\"; }\n"
            "fn t() -> int {\n  var s = \"ab\";\n  s = s + s;\n  s = \"x\" + s;\n"
            "  let t = s + \"-\" + itos(-9223372036854775807 - 1);\n"
            "  var u = \"\";\n  var i = 0;\n  while i < 100 { u = u + \"y\"; i = i + 1; }\n"
            "  if len(u) != 100 { return 1; }\n"
            "  if t != \"xabab--9223372036854775808\" { return 2; }\n"
            "  if s == t { return 3; }\n"
            "  if wrap(s, 7) != \"<xabab7>\" { return 4; }\n"
            "  let held = u;\n  u = u + \"z\";\n"
            "  if len(held) != 100 || len(u) != 101 { return 5; }\n"
            "  if \"a\\u{0}b\" == \"a\" || len(\"a\\u{0}b\") != 3 { return 6; }\n"
            "  s + \"unused\";\n"
            "  print(t + \"\\n\");\n  return 0;\n}\n",
            "t");
    CU_ASSERT_EQUAL(r.outcome, SPX_OUTCOME_RETURNED);
    CU_ASSERT_EQUAL(r.value, 0);
    CU_ASSERT_STRING_EQUAL(r.output, "xabab--9223372036854775808\n");
    spx_fixture_free(fixture);
}

/* A function's string literals are numbered once per distinct bytes, both
 * while it has few (compared in turn) and past that (looked up by hash):
 * 24 distinct literals, each written twice and once more after all of
 * them, load 24 literal numbers, each number's bytes its literal's, and the
 * run sees every one. */
static void test_literals_numbered_once(void)
{
    enum { DISTINCT = 24 };
    spx_fixture_t *fixture = spx_fixture_new();
    char *source = apr_pstrdup(fixture->pool, "fn t() -> int {\n  var s = \"\";\n");
    for (int round = 0; round < 3; round++)
        for (int k = 0; k < DISTINCT; k++)
            if (round < 2 || k % 5 == 0)
                source = apr_psprintf(fixture->pool, "%s  s = s + \"<lit%d>\";\n", source, k);
    source = apr_pstrcat(fixture->pool, source, "  print(s);\n  return len(s);\n}\n", NULL);
    spx_program_t *program = spx_run_fixture_program(fixture, source);
    long index = spx_program_find(program, "app.t");
    CU_ASSERT_FATAL(index >= 0);
    const spx_vm_function_t *function = program->functions[index];
    /* each literal's number (the first load of it), and its loads */
    int number_of[DISTINCT], uses[DISTINCT] = {0}, loads = 0, strangers = 0;
    for (int k = 0; k < DISTINCT; k++)
        number_of[k] = -1;
    for (uint32_t pc = 0; pc < function->code_length; pc++) {
        const spx_instr_t *ins = &function->code[pc];
        if (ins->op != SPX_I_LITERAL)
            continue;
        const spx_literal_t *literal = &function->literals[ins->b];
        if (literal->length == 0) /* var s = "" */
            continue;
        int k = -1;
        char text[16] = {0};
        if (literal->length < sizeof(text))
            memcpy(text, literal->bytes, literal->length);
        if (sscanf(text, "<lit%d>", &k) != 1 || k < 0 || k >= DISTINCT) {
            strangers++;
            continue;
        }
        loads++;
        uses[k]++;
        if (number_of[k] < 0)
            number_of[k] = ins->b;
        CU_ASSERT_EQUAL(ins->b, number_of[k]); /* the same bytes, the same number */
    }
    CU_ASSERT_EQUAL(strangers, 0);
    CU_ASSERT_EQUAL(loads, 2 * DISTINCT + (DISTINCT + 4) / 5);
    for (int k = 0; k < DISTINCT; k++) {
        CU_ASSERT_EQUAL(uses[k], k % 5 == 0 ? 3 : 2);
        for (int other = 0; other < k; other++) /* distinct bytes, distinct numbers */
            CU_ASSERT_NOT_EQUAL(number_of[other], number_of[k]);
    }
    spx_run_limits_t limits = spx_run_limits_default();
    spx_run_result_t result = spx_run_fixture_call(fixture, program, "t", &limits);
    CU_ASSERT_EQUAL(result.outcome, SPX_OUTCOME_RETURNED);
    CU_ASSERT_EQUAL(result.value, (int64_t)strlen(result.output));
    CU_ASSERT_PTR_NOT_NULL(strstr(result.output, "<lit0><lit1>"));
    CU_ASSERT_PTR_NOT_NULL(strstr(result.output, "<lit23><lit0><lit1>"));
    spx_fixture_free(fixture);
}

/* Chains of operators as long as the parse depth allows compile and run
 * (the compiler walks left chains without recursion, like the checker). */
static void test_long_operator_chains(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    /* Chains of one level's operators are not nesting (no E0225) and are
     * compiled without recursing per term; a run of "!" is nesting, so it
     * stays under the parse depth. */
    enum { TERMS = 100000, NOTS = 200 };
    apr_array_header_t *parts = apr_array_make(fixture->pool, 4 * TERMS, sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = "fn sum() -> int { let one = 1; return 0";
    for (int i = 0; i < TERMS; i++)
        APR_ARRAY_PUSH(parts, const char *) = " + one";
    APR_ARRAY_PUSH(parts, const char *) = "; }\nfn all() -> int { let t = true; if t";
    for (int i = 0; i < TERMS; i++)
        APR_ARRAY_PUSH(parts, const char *) = " && t";
    APR_ARRAY_PUSH(parts, const char *) = " { return 1; } return 0; }\nfn nots() -> int { if ";
    for (int i = 0; i < NOTS; i++)
        APR_ARRAY_PUSH(parts, const char *) = "!";
    APR_ARRAY_PUSH(parts, const char *) = "false { return 0; } return 1; }\n";
    spx_program_t *program =
        spx_run_fixture_program(fixture, apr_array_pstrcat(fixture->pool, parts, 0));
    spx_run_limits_t limits = spx_run_limits_default();
    /* A statement pays one more step per 64 of its operators
     * (docs/execution.md, "A statement's nodes"): sum's return has 100000
     * "+", 1562 more steps than call, let and return; all's if has 100000
     * "&&", 1562 more than call, let, if and return; nots' if has 200 "!",
     * 3 more. */
    expect_call(fixture, program, "sum", &limits, TERMS, 3 + TERMS / 64);
    expect_call(fixture, program, "all", &limits, 1, 4 + TERMS / 64);
    expect_call(fixture, program, "nots", &limits, 1, 3 + NOTS / 64); /* an even count of ! */
    spx_fixture_free(fixture);
}

/* A statement's nodes (docs/execution.md): a statement, or a while loop's
 * check, pays one more step per 64 of its operators and of the elements of
 * its constructors that have fewer than 64 (a bigger one pays its size
 * charge for them instead). Hand-counted from the text. */
static void test_statement_nodes(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *plus63 = "x", *plus64, *plus128, *cond = "i";
    for (int k = 0; k < 63; k++) {
        plus63 = apr_pstrcat(pool, plus63, " + x", NULL);
        cond = apr_pstrcat(pool, cond, " + 0", NULL);
    }
    plus64 = apr_pstrcat(pool, plus63, " + x", NULL);
    plus128 = plus64;
    for (int k = 0; k < 64; k++)
        plus128 = apr_pstrcat(pool, plus128, " + x", NULL);
    const char *inner = "[x, x, x, x, x, x, x]", *nested = "[", *wide = "[";
    for (int k = 0; k < 8; k++)
        nested = apr_pstrcat(pool, nested, k ? ", " : "", inner, NULL);
    for (int k = 0; k < 64; k++)
        wide = apr_pstrcat(pool, wide, k ? ", " : "", "[x]", NULL);
    const char *source = apr_pstrcat(
        pool, "fn ops63() -> int {\n  let x = 1;\n  return ", plus63, ";\n}\n",
        "fn ops64() -> int {\n  let x = 1;\n  return ", plus64, ";\n}\n",
        "fn ops128() -> int {\n  let x = 1;\n  return ", plus128, ";\n}\n",
        "fn check() -> int {\n  var i = 0;\n  while ", cond,
        " < 2 { i = i + 1; }\n  return i;\n}\n",
        "fn nested() -> int {\n  let x = 1;\n  let a = ", nested, "];\n  return len(a);\n}\n",
        "fn wide() -> int {\n  let x = 1;\n  let a = ", wide, "];\n  return len(a);\n}\n", NULL);
    spx_program_t *program = spx_run_fixture_program(fixture, source);
    spx_run_limits_t limits = spx_run_limits_default();
    /* call, let, return: 63 "+" are under 64, nothing more */
    expect_call(fixture, program, "ops63", &limits, 64, 3);
    /* 64 "+": the return pays 1 + 1 */
    expect_call(fixture, program, "ops64", &limits, 65, 4);
    /* 128 "+": 1 + 2 */
    expect_call(fixture, program, "ops128", &limits, 129, 5);
    /* call, var, while, 3 checks of 63 "+" and a "<" (64 nodes: 2 steps
     * each), 2 assignments, return: 1 + 1 + 1 + 6 + 2 + 1 */
    expect_call(fixture, program, "check", &limits, 2, 12);
    /* 8 literals of 7 elements in one of 8: 56 + 8 = 64 nodes, the let
     * pays 2; call, let, let, return, len: 6 (no literal has 64 elements,
     * no size charge) */
    expect_call(fixture, program, "nested", &limits, 8, 6);
    /* a literal of 64 literals of 1: the outer one's 64 elements pay its
     * size charge (1) and count no node, the 64 inner elements count 64
     * (1); call, let, let, return, len: 5, + 2 */
    expect_call(fixture, program, "wide", &limits, 64, 7);
    /* the step that cannot be paid is the statement's, its node steps too */
    limits.max_steps = 3;
    spx_run_result_t last = spx_run_fixture_call(fixture, program, "ops64", &limits);
    spx_run_assert_stopped(&last, SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "7:3-7:268", pool);
    CU_ASSERT_EQUAL(last.steps, 3);
    spx_fixture_free(fixture);
}

/* Holding elements that are blocks (docs/execution.md): in a slice, a
 * concatenation and the copy a write forces, an element that is a block
 * counts SPX_LIMIT_HELD_ELEMENT_N (8), an int 1. Hand-counted. */
static void test_held_elements(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture,
        "fn slice_strs() -> int {\n  let a = [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", "
        "\"h\"];\n  let b = a[0..8];\n  return len(b);\n}\n"
        "fn slice_ints() -> int {\n  let a = [1, 2, 3, 4, 5, 6, 7, 8];\n  let b = a[0..8];\n"
        "  return len(b);\n}\n"
        "fn slice_seven() -> int {\n  let a = [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", "
        "\"h\"];\n  let b = a[1..8];\n  return len(b);\n}\n"
        "fn concat_strs() -> int {\n  let a = [\"a\", \"b\", \"c\", \"d\"];\n  let b = a + a;\n"
        "  return len(b);\n}\n"
        "fn copy_strs() -> int {\n  var a = [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", "
        "\"h\"];\n  let k = a;\n  a[0] = \"z\";\n  return len(k);\n}\n");
    spx_run_limits_t limits = spx_run_limits_default();
    /* call, let, let + the slice of 8 strings (8 x 8 = 64: 1), return, len */
    expect_call(fixture, program, "slice_strs", &limits, 8, 6);
    /* the same slice of 8 ints: 8, nothing */
    expect_call(fixture, program, "slice_ints", &limits, 8, 5);
    /* 7 strings: 56, nothing */
    expect_call(fixture, program, "slice_seven", &limits, 7, 5);
    /* a + a: 8 strings, 64: 1 */
    expect_call(fixture, program, "concat_strs", &limits, 8, 6);
    /* call, var, let, the write + the copy of a (k holds it): 8 strings,
     * 64: 1, return, len */
    expect_call(fixture, program, "copy_strs", &limits, 8, 7);
    spx_fixture_free(fixture);
}

static void test_bad_arguments(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, "fn f(x: int) -> int { return x; }\n"
                                                              "fn t() -> int { return 0; }\n");
    spx_run_limits_t limits = spx_run_limits_default();
    spx_run_result_t result;
    /* a function with parameters, an unknown index, limits out of range */
    CU_ASSERT_EQUAL(
        spx_vm_run(program, spx_program_find(program, "app.f"), &limits, &result, fixture->pool),
        APR_EINVAL);
    CU_ASSERT_EQUAL(spx_vm_run(program, 99, &limits, &result, fixture->pool), APR_EINVAL);
    CU_ASSERT_EQUAL(spx_program_find(program, "app.nope"), -1);
    limits.max_call_depth = SPX_LIMIT_CALL_DEPTH_MAXIMUM + 1;
    CU_ASSERT_EQUAL(
        spx_vm_run(program, spx_program_find(program, "app.t"), &limits, &result, fixture->pool),
        APR_EINVAL);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"steps: straight line, if/else, while, calls, builtins", test_hand_counted_steps},
        {"fuel at max_steps - 1, max_steps, max_steps + 1", test_fuel_at_the_boundary},
        {"fuel names the step it could not pay", test_fuel_names_the_unpaid_step},
        {"fuel stops an endless loop", test_fuel_stops_an_endless_loop},
        {"integer failures and assert, with spans", test_integer_failures},
        {"an overflow names its operands as they were", test_overflow_names_the_operands},
        {"x + K and x - K at the bounds of int", test_immediate_overflow},
        {"x compared with K, as a value and as a condition", test_immediate_comparisons},
        {"division truncates, remainder has the dividend's sign", test_division_rules},
        {"a string over the limit", test_string_too_long},
        {"string literals numbered once per distinct bytes", test_literals_numbered_once},
        {"memory limit (max_memory, R0521)", test_memory_limit},
        {"call depth at exactly the limit", test_depth_at_exactly_the_limit},
        {"10^6 recursion stops at 256 on a 256 KiB stack", test_depth_without_the_c_stack},
        {"65536 active calls on a 256 KiB stack", test_depth_maximum_without_the_c_stack},
        {"the frames' registers are bounded whatever the depth", test_frame_registers_bounded},
        {"output kept up to max_bytes", test_output_truncation},
        {"strings", test_strings},
        {"long operator chains", test_long_operator_chains},
        {"a statement's nodes: one more step per 64", test_statement_nodes},
        {"elements that are blocks count 8 when held", test_held_elements},
        {"bad arguments", test_bad_arguments},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("interpreter", tests);
}
