/*
 * test_vm_interrupt.c: the time a run takes is bounded by its steps, and a
 * run can be stopped between them. == on a deep chain (struct Node { kids:
 * [Node] }) charges a step per nested block it compares, so a comparison
 * that fuel cannot pay stops after a bounded number of blocks, where it
 * used to compare 64 positions a step; a run asks its interrupt
 * (spx_vm_run_interruptible) before its first step and whenever the steps
 * the interrupt allowed are spent, and stops when told, a long comparison
 * asking in its middle too; and an interrupt that never says stop changes
 * nothing: the same outcome, value, steps, output, failure and memory peak
 * as a run without one, however small the slices it allows. The
 * interrupts here count their questions: no clock is read.
 */
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <string.h>

static const char source[] =
    "struct Node { kids: [Node] }\n"
    "fn chain(depth: int) -> Node {\n  var n = Node { kids: [] };\n"
    "  for i in 0..depth { n = Node { kids: [n] }; }\n  return n;\n}\n"
    "fn deep_equal() -> int {\n  let a = chain(20000);\n  let b = chain(20000);\n"
    "  if a == b { return 1; }\n  return 0;\n}\n"
    "fn deeper_equal() -> int {\n  let a = chain(70000);\n  let b = chain(70000);\n"
    "  if a == b { return 1; }\n  return 0;\n}\n"
    "fn spin() -> int {\n  var i = 0;\n  while true { i = i + 1; }\n  return 0;\n}\n"
    "fn mixed() -> int {\n  var s = \"\";\n  var rows: [[int]] = [];\n"
    "  for i in 0..300 {\n    s = s + itos(i) + \"........................................\";\n"
    "    var row: [int] = [];\n    for k in 0..70 { row.push(i * k); }\n"
    "    let kept = rows;\n    rows.push(row);\n    rows[0][0] = i;\n"
    "    if rows == kept { print(\"same\"); }\n    print(s[0..3]);\n  }\n"
    "  return len(s) + len(rows);\n}\n"
    "fn failing() -> int {\n  var a: [str] = [];\n  for i in 0..1000 { a.push(itos(i)); }\n"
    "  let b = a;\n  return stoi(b[999] + \"x\");\n}\n"
    "fn recurse(n: int) -> int {\n  return recurse(n + 1);\n}\n"
    "fn deep_call() -> int {\n  return recurse(0);\n}\n";

/* An interrupt that answers answers[k] to its k-th question, then its last
 * answer again and again (0 stops the run), and counts the questions. */
typedef struct counted_t {
    const uint64_t *answers;
    size_t count;
    uint64_t asked;
} counted_t;

static uint64_t answer(void *context)
{
    counted_t *counted = context;
    size_t k = counted->asked < counted->count ? (size_t)counted->asked : counted->count - 1;
    counted->asked++;
    return counted->answers[k];
}

/* Run app.function of program, asking counted: its status, the result in *result. */
static apr_status_t run_asking(spx_fixture_t *fixture, const spx_program_t *program,
                               const char *function, const spx_run_limits_t *limits,
                               counted_t *counted, spx_run_result_t *result)
{
    long index = spx_program_find(program, apr_pstrcat(fixture->pool, "app.", function, NULL));
    CU_ASSERT_TRUE_FATAL(index >= 0);
    spx_run_interrupt_t interrupt = {answer, counted};
    return spx_vm_run_interruptible(program, index, limits, &interrupt, result, fixture->pool);
}

static spx_run_limits_t limits_with_steps(uint64_t max_steps)
{
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = max_steps;
    return limits;
}

/* chain(20000): call, var, for, 20001 checks, 20000 assignments, return:
 * 40005. deep_equal: call, let + chain, let + chain, if + the comparison,
 * return. The comparison examines 2 positions a level, each holding a
 * nested block (64 each, one step), and the innermost Node 1 + 64 (its
 * kids are two empty arrays): (20000 x 130 + 65) / 64 = 40626 steps, at
 * least one per nested block compared (40001); by the old charge, 64
 * positions a step, it was 625. */
#define CHAIN_STEPS 40005u
#define SETUP_STEPS (1u + 1u + CHAIN_STEPS + 1u + CHAIN_STEPS + 1u)
#define COMPARE_STEPS 40626u

static void test_deep_equality_charges_a_step_per_block(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, source);
    spx_run_limits_t limits = spx_run_limits_default();
    spx_run_result_t whole = spx_run_fixture_call(fixture, program, "deep_equal", &limits);
    spx_run_assert_returned(&whole, 1, SETUP_STEPS + COMPARE_STEPS + 1);
    CU_ASSERT_TRUE(COMPARE_STEPS >= 2 * 20000 + 1);

    /* Fuel for the setup and 1000 steps more: the comparison cannot be
     * paid, and the run ends at exactly max_steps, on the comparison. */
    limits.max_steps = SETUP_STEPS + 1000;
    spx_run_result_t short_of = spx_run_fixture_call(fixture, program, "deep_equal", &limits);
    spx_run_assert_stopped(&short_of, SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "10:6-10:12",
                           fixture->pool);
    CU_ASSERT_EQUAL(short_of.steps, SETUP_STEPS + 1000);
    spx_fixture_free(fixture);
}

static void test_run_stops_when_told(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, source);
    spx_run_limits_t limits = limits_with_steps(SPX_LIMIT_MAX_STEPS_MAXIMUM);

    /* 1000 steps a slice, stop at the 50th question. */
    uint64_t answers[50];
    for (size_t k = 0; k < 49; k++)
        answers[k] = 1000;
    answers[49] = 0;
    counted_t counted = {answers, 50, 0};
    spx_run_result_t result;
    CU_ASSERT_EQUAL(run_asking(fixture, program, "spin", &limits, &counted, &result),
                    SPX_STATUS_INTERRUPTED);
    CU_ASSERT_EQUAL(counted.asked, 50);

    /* Told to stop at the first question, before the first step. */
    static const uint64_t stop[] = {0};
    counted_t at_once = {stop, 1, 0};
    CU_ASSERT_EQUAL(run_asking(fixture, program, "spin", &limits, &at_once, &result),
                    SPX_STATUS_INTERRUPTED);
    CU_ASSERT_EQUAL(at_once.asked, 1);
    spx_fixture_free(fixture);
}

/* deeper_equal compares 2 x 70000 + 1 positions: past
 * SPX_COMPARE_POLL_POSITIONS, the comparison asks the interrupt itself,
 * which has allowed more steps than the whole run takes. */
static void test_comparison_asks_in_its_middle(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, source);
    spx_run_limits_t limits = limits_with_steps(SPX_LIMIT_MAX_STEPS_MAXIMUM);
    CU_ASSERT_TRUE_FATAL(2 * 70000 + 1 > SPX_COMPARE_POLL_POSITIONS);
    static const uint64_t answers[] = {SPX_LIMIT_MAX_STEPS_MAXIMUM, 0};
    counted_t counted = {answers, 2, 0};
    spx_run_result_t result;
    CU_ASSERT_EQUAL(run_asking(fixture, program, "deeper_equal", &limits, &counted, &result),
                    SPX_STATUS_INTERRUPTED);
    CU_ASSERT_EQUAL(counted.asked, 2);

    /* Never told to stop, the comparison asks twice (at 65536 and 131072
     * positions) and the run returns as without an interrupt. */
    static const uint64_t going[] = {SPX_LIMIT_MAX_STEPS_MAXIMUM};
    counted_t asked = {going, 1, 0};
    CU_ASSERT_EQUAL(run_asking(fixture, program, "deeper_equal", &limits, &asked, &result),
                    APR_SUCCESS);
    CU_ASSERT_EQUAL(result.outcome, SPX_OUTCOME_RETURNED);
    CU_ASSERT_EQUAL(result.value, 1);
    CU_ASSERT_EQUAL(asked.asked, 3);
    spx_fixture_free(fixture);
}

static void assert_same_run(const spx_run_result_t *with, const spx_run_result_t *without)
{
    CU_ASSERT_EQUAL(with->outcome, without->outcome);
    CU_ASSERT_EQUAL(with->value, without->value);
    CU_ASSERT_EQUAL(with->steps, without->steps);
    CU_ASSERT_EQUAL(with->output_length, without->output_length);
    CU_ASSERT_EQUAL(memcmp(with->output, without->output, without->output_length), 0);
    CU_ASSERT_EQUAL(with->output_truncated, without->output_truncated);
    CU_ASSERT_EQUAL(with->memory_peak, without->memory_peak);
    if (without->outcome == SPX_OUTCOME_RETURNED)
        return;
    CU_ASSERT_STRING_EQUAL(with->failure.code, without->failure.code);
    CU_ASSERT_STRING_EQUAL(with->failure.message, without->failure.message);
    CU_ASSERT_EQUAL(memcmp(&with->failure.span, &without->failure.span, sizeof(spx_span_t)), 0);
}

static void test_going_on_changes_nothing(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, source);
    static const struct {
        const char *function;
        uint64_t max_steps;
    } runs[] = {
        {"mixed", SPX_LIMIT_MAX_STEPS_DEFAULT}, /* returns, size charges and copies */
        {"mixed", 20000},                       /* out of fuel in the middle */
        {"mixed", 30011},
        {"deep_equal", SPX_LIMIT_MAX_STEPS_DEFAULT},
        {"deep_equal", SETUP_STEPS + 1000},         /* out of fuel in the comparison */
        {"spin", 100000},                           /* out of fuel */
        {"failing", SPX_LIMIT_MAX_STEPS_DEFAULT},   /* R0516 */
        {"deep_call", SPX_LIMIT_MAX_STEPS_DEFAULT}, /* out of call depth */
    };
    /* Slices of 1 to 7 steps, and one of many. */
    static const uint64_t small[] = {1, 2, 3, 5, 7, 1, 4, 6, 2, 1000, 1, 3, 2, 7, 5, 1};
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        spx_run_limits_t limits = limits_with_steps(runs[i].max_steps);
        spx_run_result_t without =
            spx_run_fixture_call(fixture, program, runs[i].function, &limits);
        uint64_t answers[4096];
        for (size_t k = 0; k < 4096; k++)
            answers[k] = small[k % (sizeof(small) / sizeof(small[0]))];
        counted_t counted = {answers, 4096, 0};
        spx_run_result_t with;
        CU_ASSERT_EQUAL(run_asking(fixture, program, runs[i].function, &limits, &counted, &with),
                        APR_SUCCESS);
        CU_ASSERT_TRUE(counted.asked > 1);
        assert_same_run(&with, &without);
        if (with.steps != without.steps)
            fprintf(stderr, "  %s, max_steps %llu: %llu steps, without an interrupt %llu\n",
                    runs[i].function, (unsigned long long)runs[i].max_steps,
                    (unsigned long long)with.steps, (unsigned long long)without.steps);
    }
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"== on a deep chain charges a step per nested block, and stops at the fuel",
         test_deep_equality_charges_a_step_per_block},
        {"a run asks its interrupt between steps and stops when told", test_run_stops_when_told},
        {"a long comparison asks the interrupt in its middle", test_comparison_asks_in_its_middle},
        {"an interrupt that never stops a run changes nothing of it",
         test_going_on_changes_nothing},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("runs bounded in time: charges and interrupts", tests);
}
