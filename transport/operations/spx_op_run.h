/*
 * spx_op_run.h: running a project, written once for `semaprax run`, `test`
 * and `verify`, the daemon's test method and MCP's test tool: the run
 * limits (one table: each limit's param, option, range and default, and
 * the one check of a given value), the test operation (limits, selection by
 * name, progress, the envelope) with its typed result, the entry's run, and
 * the verification of an envelope. The front ends parse their requests,
 * call these and render the typed results; the envelope document is the
 * one rendering of a test run that --envelope, v2's result and MCP's
 * structuredContent share.
 */
#ifndef SPX_OP_RUN_H
#define SPX_OP_RUN_H

#include "spx_envelope.h"
#include "spx_project.h"
#include "spx_vm.h"

#include <apr_tables.h>
#include <jansson.h>

/* --- the run limits ---------------------------------------------------------- */

/* One limit of a run: how each front end names it, and its range and
 * default (spx_limits.h). */
typedef struct spx_op_run_limit_t {
    const char *param;  /* "max_steps": v2's param, MCP's argument, the envelope's key */
    const char *option; /* "--max-steps": the CLI's option */
    apr_uint64_t minimum, maximum;
    apr_uint64_t default_value; /* of a test; the entry's max_bytes is its maximum */
} spx_op_run_limit_t;

/* The limits in the order every front end reads them: max_steps,
 * max_bytes, max_memory, max_call_depth. */
#define SPX_OP_RUN_LIMIT_COUNT 4
extern const spx_op_run_limit_t spx_op_run_limits[SPX_OP_RUN_LIMIT_COUNT];

/* What became of a value given for a limit. */
typedef enum spx_op_limit_verdict_t {
    SPX_OP_LIMIT_APPLIED = 0,   /* in range: it is the limit now */
    SPX_OP_LIMIT_UNDER_MINIMUM, /* refused: under spx_op_run_limits[which].minimum */
    SPX_OP_LIMIT_OVER_MAXIMUM   /* refused: over spx_op_run_limits[which].maximum */
} spx_op_limit_verdict_t;

/* Apply value to the limit spx_op_run_limits[which] of limits, or say why
 * it is refused (limits untouched then). The front ends word the refusal. */
spx_op_limit_verdict_t spx_op_run_limit_apply(spx_run_limits_t *limits, apr_size_t which,
                                              apr_uint64_t value);

/* How a front end names a limit: by its param (v2, MCP: "max_steps") or
 * by its option (the CLI: "--max-steps"). */
typedef enum spx_op_limit_naming_t {
    SPX_OP_LIMIT_BY_PARAM = 0,
    SPX_OP_LIMIT_BY_OPTION
} spx_op_limit_naming_t;

/* What to do about the limit that stopped a run (spx_run_stopped_by), in
 * the front end's naming: "raise max_steps (now 1000000)", or when it is
 * already at its maximum, "max_steps is at its maximum (10000000000)";
 * NULL when no limit stopped it. The one wording of it that the CLI's
 * lines and MCP's sentences share (in pool). */
const char *spx_op_limit_hint(const spx_run_result_t *result, spx_op_limit_naming_t naming,
                              apr_pool_t *pool);

/* The limits a test runs with when none is given (the table's defaults). */
spx_run_limits_t spx_op_test_limits_default(void);

/* The limits the entry runs with when none is given: a test's, but a
 * program may print up to the maximum of max_bytes. */
spx_run_limits_t spx_op_entry_limits_default(void);

/* --- the test operation -------------------------------------------------------- */

typedef struct spx_op_test_request_t {
    spx_run_limits_t limits;
    const char *const *names; /* run only these tests (spx_test_selection_make); NULL: all */
    apr_size_t name_count;
    const spx_envelope_observer_t *observer; /* told about each test as it runs; may be NULL */
    /* The most bytes the envelope's test records may take (canonical JSON,
     * spx_envelope_bound_t): what the front end's answer can hold, so that
     * nothing past it is built; 0: SPX_LIMIT_ENVELOPE_BYTES, the most that
     * verify reads. */
    apr_uint64_t max_answer_bytes;
    /* Asked between steps whether the runs may go on (a daemon call's
     * deadline or cancellation, spx_vm.h); NULL: never stopped. */
    const spx_run_interrupt_t *interrupt;
} spx_op_test_request_t;

typedef struct spx_op_test_result_t {
    apr_array_header_t *tests;  /* spx_test_run_t, in the order they ran, texts in the pool */
    spx_test_summary_t summary; /* the envelope's "summary" */
    int command_succeeded;      /* every test that ran passed */
    json_t *envelope;           /* semaprax.project-execution.v1: a reference the caller
                                 * releases or hands on */
    /* The bytes the test records took; SPX_OP_TEST_TOO_LARGE: when the
     * run stopped, over max_answer_bytes (answer_bytes). */
    apr_uint64_t records_bytes;
    apr_uint64_t answer_bytes; /* the bound in force */
} spx_op_test_result_t;

/* Why a test operation did not run. */
typedef enum spx_op_test_problem_t {
    SPX_OP_TEST_RAN = 0,
    SPX_OP_TEST_UNKNOWN_NAME, /* a name is no test, or a function several tests run */
    SPX_OP_TEST_NOT_RUN,      /* the project is not admitted, a function is too large to
                               * run, or the limits are refused */
    SPX_OP_TEST_INTERRUPTED,  /* the interrupt stopped a run (request->interrupt) */
    SPX_OP_TEST_TOO_LARGE     /* the records passed max_answer_bytes: the run stopped there,
                               * nothing kept (records_bytes, answer_bytes say how far) */
} spx_op_test_problem_t;

/* Run the tests of request on an admitted project and make the envelope.
 * SPX_OP_TEST_RAN with result filled, whatever the tests did; otherwise
 * *message says why in the engine's words ("no test 'fibb' in this
 * project; nearest: fib, fact") and nothing ran, or (INTERRUPTED) the run
 * in progress was stopped and there is no envelope, or (TOO_LARGE) the run
 * stopped once the envelope could no longer fit the answer. */
spx_op_test_problem_t spx_op_test(const spx_project_t *project,
                                  const spx_op_test_request_t *request,
                                  spx_op_test_result_t *result, apr_pool_t *pool,
                                  const char **message);

/* The sentence naming the tests of run that did not pass, NULL when all
 * passed: "2 of 5 tests failed: fact (failed: returned 1), loop
 * (fuel_exhausted after 1000000 steps at src/app.spx:3:5: R0509 fuel
 * exhausted: max_steps 1000000 reached; raise max_steps (now 1000000))".
 * At most
 * SPX_LIMIT_FAILING_TESTS_NAMED tests, then "and N more"; of each, the
 * first line of its failure's message, cut to
 * SPX_LIMIT_FAILING_TEST_MESSAGE_BYTES, and spx_op_limit_hint in naming.
 * MCP's test summary and the last line of `semaprax test` (in pool). */
const char *spx_op_test_failures_sentence(const spx_op_test_result_t *run,
                                          spx_op_limit_naming_t naming, apr_pool_t *pool);

/* --- the entry ---------------------------------------------------------------- */

typedef struct spx_op_entry_result_t {
    const char *entry;          /* the manifest's entry, module.function */
    spx_test_outcome_t outcome; /* passed when it returned 0, failed when another value */
    spx_run_result_t run;
    int succeeded; /* it returned 0 */
} spx_op_entry_result_t;

/* Run the manifest's entry of an admitted project under limits: APR_SUCCESS
 * with result filled, whatever the program did; APR_EINVAL with *message
 * when the project is not admitted, has no entry, or cannot run it. */
apr_status_t spx_op_run_entry(const spx_project_t *project, const spx_run_limits_t *limits,
                              spx_op_entry_result_t *result, apr_pool_t *pool,
                              const char **message);

/* v3, `semaprax run --entry MOD.FN`: the same for function (NULL: the
 * manifest's entry), any function of a declared module with the signature
 * fn() -> int; *message names the nearest functions for an unknown one, the
 * signature for another. limits->arguments are args()'s, checked first
 * (spx_op_run_arguments_problem). With envelope (may be NULL), the run
 * envelope too (semaprax.project-run.v1, a reference the caller releases). */
apr_status_t spx_op_run_function(const spx_project_t *project, const char *function,
                                 const spx_run_limits_t *limits, spx_op_entry_result_t *result,
                                 json_t **envelope, apr_pool_t *pool, const char **message);

/* spx_op_run_function, the run asking interrupt (may be NULL) between
 * steps whether it may go on: SPX_STATUS_INTERRUPTED when it said stop
 * (MCP's run tool, under its call's deadline and cancellation). */
apr_status_t spx_op_run_function_interruptible(const spx_project_t *project, const char *function,
                                               const spx_run_limits_t *limits,
                                               const spx_run_interrupt_t *interrupt,
                                               spx_op_entry_result_t *result, json_t **envelope,
                                               apr_pool_t *pool, const char **message);

/* Which limit stopped a run (spx_run_stopped_by), as its index in
 * spx_op_run_limits, for the front end to name its own way (--max-steps,
 * max_steps): max_steps after fuel_exhausted, max_call_depth after
 * depth_exhausted at the call-depth limit, max_memory after R0521; -1 when
 * no limit a caller can raise did. spx_op_limit_hint words it. */
int spx_op_run_limit_reached(const spx_run_result_t *run);

/* What is wrong with a run's arguments: more than SPX_LIMIT_RUN_ARGUMENTS,
 * more than SPX_LIMIT_RUN_ARGUMENT_BYTES together, or one not valid UTF-8;
 * NULL when nothing. */
const char *spx_op_run_arguments_problem(const char *const *arguments, apr_size_t count,
                                         apr_pool_t *pool);

/* --- verify ---------------------------------------------------------------------- */

/* Why an envelope file could not be read. */
typedef enum spx_op_envelope_problem_t {
    SPX_OP_ENVELOPE_READ = 0,  /* read whole */
    SPX_OP_ENVELOPE_TOO_LARGE, /* over SPX_LIMIT_ENVELOPE_BYTES */
    SPX_OP_ENVELOPE_UNREADABLE /* cannot be opened or read: *status says why */
} spx_op_envelope_problem_t;

/* The envelope file at path, whole (*bytes, *length, in pool), at most
 * SPX_LIMIT_ENVELOPE_BYTES. */
spx_op_envelope_problem_t spx_op_envelope_read(const char *path, const char **bytes,
                                               apr_size_t *length, apr_status_t *status,
                                               apr_pool_t *pool);

typedef struct spx_op_verify_result_t {
    spx_verify_report_t report; /* the three checks, each with why it failed */
    int verified;               /* all three passed */
} spx_op_verify_result_t;

/* Verify the envelope bytes[0..length) against the project of
 * manifest_path. It cannot fail: a check that cannot be made fails in the
 * report, saying why. */
void spx_op_verify(const char *bytes, apr_size_t length, const char *manifest_path,
                   spx_op_verify_result_t *result, apr_pool_t *pool);

#endif /* SPX_OP_RUN_H */
