/*
 * test_op_run.c: the run operations (transport/operations/spx_op_run.h):
 * the one check of a run limit, the test operation's typed records and
 * summary (which must say what its envelope says, record for record), its
 * selection and observer, the entry's run, and verify.
 */
#include "spx_canonical.h"
#include "spx_limits.h"
#include "spx_operations.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

static const char closure_source[] =
    "fn ok() -> int { var i: int = 0; while i < 3 { i = i + 1; } return i - 3; }\n"
    "fn bad() -> int { print(\"no\"); return 7; }\n"
    "fn crash() -> int {\n  let z = 0;\n  return 1 / z;\n}\n"
    "fn spin() -> int { while true { } return 0; }\n"
    "fn deep() -> int { return deep(); }\n"
    "fn loud() -> int { print(\"abcdefghij\"); return 1; }\n";

static const char *const closure_tests[] = {
    "ok=app.ok",     "bad=app.bad", "crash=app.crash", "spin=app.spin", "deep=app.deep",
    "loud=app.loud", NULL};

static void test_limits_are_checked_once(void)
{
    spx_run_limits_t limits = spx_op_test_limits_default();
    spx_run_limits_t engine = spx_run_limits_default();
    /* field by field: the struct has padding, which memcmp would read */
    CU_ASSERT_EQUAL(limits.max_steps, engine.max_steps);
    CU_ASSERT_EQUAL(limits.max_bytes, engine.max_bytes);
    CU_ASSERT_EQUAL(limits.max_call_depth, engine.max_call_depth);
    CU_ASSERT_EQUAL(limits.max_memory, engine.max_memory);
    CU_ASSERT_EQUAL(spx_op_entry_limits_default().max_bytes, SPX_LIMIT_MAX_BYTES_MAXIMUM);
    CU_ASSERT_STRING_EQUAL(spx_op_run_limits[0].param, "max_steps");
    CU_ASSERT_STRING_EQUAL(spx_op_run_limits[3].option, "--max-call-depth");

    CU_ASSERT_EQUAL(spx_op_run_limit_apply(&limits, 0, 7), SPX_OP_LIMIT_APPLIED);
    CU_ASSERT_EQUAL(limits.max_steps, 7);
    CU_ASSERT_EQUAL(spx_op_run_limit_apply(&limits, 1, 0), SPX_OP_LIMIT_APPLIED);
    CU_ASSERT_EQUAL(limits.max_bytes, 0);
    CU_ASSERT_EQUAL(spx_op_run_limit_apply(&limits, 2, 1024), SPX_OP_LIMIT_APPLIED);
    CU_ASSERT_EQUAL(limits.max_memory, 1024);
    CU_ASSERT_EQUAL(spx_op_run_limit_apply(&limits, 3, 1), SPX_OP_LIMIT_APPLIED);
    CU_ASSERT_EQUAL(limits.max_call_depth, 1);

    /* a refused value leaves the limit as it was */
    CU_ASSERT_EQUAL(spx_op_run_limit_apply(&limits, 3, 0), SPX_OP_LIMIT_UNDER_MINIMUM);
    CU_ASSERT_EQUAL(spx_op_run_limit_apply(&limits, 3, SPX_LIMIT_CALL_DEPTH_MAXIMUM + 1ull),
                    SPX_OP_LIMIT_OVER_MAXIMUM);
    CU_ASSERT_EQUAL(limits.max_call_depth, 1);
    CU_ASSERT_EQUAL(spx_op_run_limit_apply(&limits, 0, SPX_LIMIT_MAX_STEPS_MAXIMUM + 1ull),
                    SPX_OP_LIMIT_OVER_MAXIMUM);
    CU_ASSERT_EQUAL(limits.max_steps, 7);
}

/* What an observer saw: "before NAME" and "after NAME OUTCOME", in order. */
typedef struct seen_t {
    const char *log;
    apr_pool_t *pool;
} seen_t;

static void seen_before(void *context, apr_size_t index, apr_size_t total, const char *name)
{
    seen_t *seen = context;
    seen->log = apr_psprintf(seen->pool, "%s[%lu/%lu] before %s\n", seen->log, (unsigned long)index,
                             (unsigned long)total, name);
}

static void seen_after(void *context, apr_size_t index, apr_size_t total, const spx_test_run_t *run)
{
    seen_t *seen = context;
    seen->log =
        apr_psprintf(seen->pool, "%s[%lu/%lu] after %s %s\n", seen->log, (unsigned long)index,
                     (unsigned long)total, run->name, spx_test_outcome_name(run->outcome));
}

/* The typed record says what the envelope's record says. */
static void assert_record_matches(const spx_test_run_t *run, const json_t *record, apr_pool_t *pool)
{
    const spx_run_result_t *result = &run->result;
    CU_ASSERT_STRING_EQUAL(run->name, json_string_value(json_object_get(record, "name")));
    CU_ASSERT_STRING_EQUAL(run->function, json_string_value(json_object_get(record, "function")));
    CU_ASSERT_STRING_EQUAL(spx_test_outcome_name(run->outcome),
                           json_string_value(json_object_get(record, "outcome")));
    CU_ASSERT_EQUAL((json_int_t)result->steps,
                    json_integer_value(json_object_get(record, "steps")));
    CU_ASSERT_EQUAL(result->output_length, json_string_length(json_object_get(record, "output")));
    CU_ASSERT_EQUAL(memcmp(result->output, json_string_value(json_object_get(record, "output")),
                           result->output_length),
                    0);
    CU_ASSERT_EQUAL(result->output_truncated,
                    json_is_true(json_object_get(record, "output_truncated")));
    if (result->outcome == SPX_OUTCOME_RETURNED) {
        CU_ASSERT_EQUAL((json_int_t)result->value,
                        json_integer_value(json_object_get(record, "value")));
        CU_ASSERT_PTR_NULL(json_object_get(record, "failure"));
    } else {
        CU_ASSERT_PTR_NULL(json_object_get(record, "value"));
        json_t *failure = spx_failure_json(&result->failure);
        CU_ASSERT_STRING_EQUAL(spx_canonical_text(failure, pool),
                               spx_canonical_text(json_object_get(record, "failure"), pool));
        json_decref(failure);
    }
}

static void test_typed_records_say_what_the_envelope_says(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture, closure_source, NULL, closure_tests);
    spx_project_t *project = spx_run_fixture_open(fixture);
    spx_op_test_request_t request = {spx_op_test_limits_default(), NULL, 0, NULL, 0, NULL};
    request.limits.max_steps = 1000;
    request.limits.max_bytes = 4; /* loud's output is cut */
    spx_op_test_result_t run;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_op_test(project, &request, &run, fixture->pool, &message),
                          SPX_OP_TEST_RAN);
    const json_t *records = json_object_get(run.envelope, "tests");
    CU_ASSERT_EQUAL_FATAL((size_t)run.tests->nelts, json_array_size(records));
    CU_ASSERT_EQUAL(run.tests->nelts, 6);
    for (int i = 0; i < run.tests->nelts; i++)
        assert_record_matches(&APR_ARRAY_IDX(run.tests, i, spx_test_run_t),
                              json_array_get(records, (size_t)i), fixture->pool);
    const spx_test_run_t *loud = &APR_ARRAY_IDX(run.tests, 5, spx_test_run_t);
    CU_ASSERT_TRUE(loud->result.output_truncated);
    CU_ASSERT_EQUAL(loud->result.output_length, 4);

    const json_t *summary = json_object_get(run.envelope, "summary");
    CU_ASSERT_EQUAL((json_int_t)run.summary.total,
                    json_integer_value(json_object_get(summary, "total")));
    for (int outcome = 0; outcome < SPX_TEST_OUTCOME_COUNT; outcome++)
        CU_ASSERT_EQUAL((json_int_t)run.summary.by_outcome[outcome],
                        json_integer_value(json_object_get(
                            summary, spx_test_outcome_name((spx_test_outcome_t)outcome))));
    CU_ASSERT_EQUAL(run.summary.by_outcome[SPX_TEST_PASSED], 1);
    CU_ASSERT_EQUAL(run.summary.by_outcome[SPX_TEST_FAILED], 2);
    CU_ASSERT_EQUAL(run.summary.by_outcome[SPX_TEST_LANGUAGE_FAILURE], 1);
    CU_ASSERT_EQUAL(run.summary.by_outcome[SPX_TEST_FUEL_EXHAUSTED], 1);
    CU_ASSERT_EQUAL(run.summary.by_outcome[SPX_TEST_DEPTH_EXHAUSTED], 1);
    CU_ASSERT_FALSE(run.command_succeeded);
    CU_ASSERT_TRUE(json_is_false(json_object_get(run.envelope, "command_succeeded")));

    /* the same envelope, byte for byte, as the engine makes without the operation */
    json_t *direct = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_envelope_build(project, &request.limits, &direct, fixture->pool, &message),
        APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(spx_canonical_text(run.envelope, fixture->pool),
                           spx_canonical_text(direct, fixture->pool));
    json_decref(direct);
    json_decref(run.envelope);
    spx_fixture_free(fixture);
}

static void test_selection_and_observer(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture, closure_source, NULL, closure_tests);
    spx_project_t *project = spx_run_fixture_open(fixture);
    seen_t seen = {"", fixture->pool};
    spx_envelope_observer_t observer = {seen_before, seen_after, &seen};
    const char *const names[] = {"bad", "app.ok"};
    spx_op_test_request_t request = {spx_op_test_limits_default(), names, 2, &observer, 0, NULL};
    spx_op_test_result_t run;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_op_test(project, &request, &run, fixture->pool, &message),
                          SPX_OP_TEST_RAN);
    /* manifest order, whatever the order of the names */
    CU_ASSERT_STRING_EQUAL(seen.log, "[0/2] before ok\n[0/2] after ok passed\n"
                                     "[1/2] before bad\n[1/2] after bad failed\n");
    CU_ASSERT_EQUAL(run.summary.total, 2);
    CU_ASSERT_STRING_EQUAL(
        spx_canonical_text(json_object_get(run.envelope, "selection"), fixture->pool),
        "[\"ok\",\"bad\"]");
    json_decref(run.envelope);

    const char *const unknown[] = {"bda"};
    request.names = unknown;
    request.name_count = 1;
    CU_ASSERT_EQUAL(spx_op_test(project, &request, &run, fixture->pool, &message),
                    SPX_OP_TEST_UNKNOWN_NAME);
    CU_ASSERT_STRING_EQUAL(message, "no test 'bda' in this project; nearest: bad");
    CU_ASSERT_PTR_NULL(run.envelope);
    spx_fixture_free(fixture);
}

static void test_entry(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture, closure_source, "app.bad", closure_tests);
    spx_project_t *project = spx_run_fixture_open(fixture);
    spx_run_limits_t limits = spx_op_entry_limits_default();
    spx_op_entry_result_t entry;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_op_run_entry(project, &limits, &entry, fixture->pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(entry.entry, "app.bad");
    CU_ASSERT_EQUAL(entry.outcome, SPX_TEST_FAILED);
    CU_ASSERT_EQUAL(entry.run.value, 7);
    CU_ASSERT_FALSE(entry.succeeded);
    spx_fixture_free(fixture);
}

static void test_verify(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture, "fn ok() -> int { return 0; }\n", NULL,
                          (const char *const[]){"ok=app.ok", NULL});
    spx_project_t *project = spx_run_fixture_open(fixture);
    spx_op_test_request_t request = {spx_op_test_limits_default(), NULL, 0, NULL, 0, NULL};
    spx_op_test_result_t run;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_op_test(project, &request, &run, fixture->pool, &message),
                          SPX_OP_TEST_RAN);
    CU_ASSERT_TRUE(run.command_succeeded);
    spx_fixture_write(fixture, "envelope.json", spx_canonical_text(run.envelope, fixture->pool));
    json_decref(run.envelope);

    const char *bytes = NULL;
    apr_size_t length = 0;
    apr_status_t status = APR_SUCCESS;
    CU_ASSERT_EQUAL_FATAL(spx_op_envelope_read(spx_fixture_path(fixture, "envelope.json"), &bytes,
                                               &length, &status, fixture->pool),
                          SPX_OP_ENVELOPE_READ);
    spx_op_verify_result_t verified;
    spx_op_verify(bytes, length, spx_fixture_path(fixture, "semaprax.toml"), &verified,
                  fixture->pool);
    CU_ASSERT_TRUE(verified.verified);

    /* a check that fails is a report, not an error */
    spx_op_verify("{}", 2, spx_fixture_path(fixture, "semaprax.toml"), &verified, fixture->pool);
    CU_ASSERT_FALSE(verified.verified);
    CU_ASSERT_STRING_EQUAL(verified.report.digest_detail, "the envelope has no envelope_digest");

    CU_ASSERT_EQUAL(spx_op_envelope_read(spx_fixture_path(fixture, "missing.json"), &bytes, &length,
                                         &status, fixture->pool),
                    SPX_OP_ENVELOPE_UNREADABLE);
    CU_ASSERT_TRUE(APR_STATUS_IS_ENOENT(status));
    spx_fixture_free(fixture);
}

/* The sentence naming the tests that did not pass: the first ten, in the
 * order they ran, then "and N more"; a failure's message cut to its first
 * line's first SPX_LIMIT_FAILING_TEST_MESSAGE_BYTES bytes, on a UTF-8
 * boundary ("é" is two bytes: 197 bytes would split one), marked "...". */
static void test_failures_sentence(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *tests[15] = {"ok=app.t_ok", "long=app.t_long"};
    for (int i = 0; i < 12; i++)
        tests[i + 2] = apr_psprintf(pool, "f%02d=app.t_one", i);
    tests[14] = NULL;
    char accents[301];
    for (int i = 0; i < 150; i++)
        memcpy(accents + 2 * i, "\xc3\xa9", 2);
    accents[300] = '\0';
    spx_run_fixture_write(fixture,
                          apr_pstrcat(pool,
                                      "fn t_ok() -> int { return 0; }\n"
                                      "fn t_one() -> int { return 1; }\n"
                                      "fn t_long() -> int { assert(false, \"a",
                                      accents, "\\nsecond line\"); return 0; }\n", NULL),
                          NULL, tests);
    spx_project_t *project = spx_run_fixture_open(fixture);
    spx_op_test_request_t request = {spx_op_test_limits_default(), NULL, 0, NULL, 0, NULL};
    spx_op_test_result_t run;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_op_test(project, &request, &run, pool, &message), SPX_OP_TEST_RAN);
    json_decref(run.envelope);
    const char *sentence = spx_op_test_failures_sentence(&run, SPX_OP_LIMIT_BY_PARAM, pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sentence);
    /* "assertion failed: a" is 19 bytes: 178 more are 89 accents */
    const char *cut = apr_pstrndup(pool, accents, 178);
    const char *expected = apr_pstrcat(
        pool,
        "13 of 14 tests failed: long (language_failure after 3 steps at app.spx:3:22: R0508 "
        "assertion failed: a",
        cut, "...)", NULL);
    for (int i = 0; i < 9; i++)
        expected = apr_psprintf(pool, "%s, f%02d (failed: returned 1)", expected, i);
    expected = apr_pstrcat(pool, expected, ", and 3 more", NULL);
    if (strcmp(sentence, expected) != 0)
        fprintf(stderr, "\n  got      %s\n  expected %s\n", sentence, expected);
    CU_ASSERT_STRING_EQUAL(sentence, expected);

    /* every test passes: nothing to name */
    spx_op_test_request_t passing = request;
    const char *ok[] = {"ok"};
    passing.names = ok;
    passing.name_count = 1;
    CU_ASSERT_EQUAL_FATAL(spx_op_test(project, &passing, &run, pool, &message), SPX_OP_TEST_RAN);
    json_decref(run.envelope);
    CU_ASSERT_PTR_NULL(spx_op_test_failures_sentence(&run, SPX_OP_LIMIT_BY_PARAM, pool));
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"each run limit is checked by one function, over the table's defaults",
         test_limits_are_checked_once},
        {"the typed records and summary say what the envelope says",
         test_typed_records_say_what_the_envelope_says},
        {"a selection runs in manifest order and the observer sees typed runs",
         test_selection_and_observer},
        {"the entry's run, typed", test_entry},
        {"verify reads an envelope file and reports its three checks", test_verify},
        {"the failing tests named: at most ten, each message cut on a UTF-8 boundary",
         test_failures_sentence},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("run operations", tests);
}
