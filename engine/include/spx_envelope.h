/*
 * spx_envelope.h: running a project: the entry (`semaprax run`), the test
 * closure as the execution envelope semaprax.project-execution.v1
 * (outputs.md), and its independent verification (`semaprax verify`).
 *
 * Everything here works on the compiled program (spx_vm.h) and the held
 * inputs of the project; the syntax tree is read only by the compiler.
 */
#ifndef SPX_ENVELOPE_H
#define SPX_ENVELOPE_H

#include "spx_project.h"
#include "spx_vm.h"

#include <jansson.h>

#define SPX_ENVELOPE_SCHEMA "semaprax.project-execution.v1"
#define SPX_RUN_ENVELOPE_SCHEMA "semaprax.project-run.v1"
#define SPX_LANGUAGE_NAME "semaprax.language.v3"

/* Run the manifest's entry of an admitted project under limits. APR_EINVAL
 * with *message when the project is not admitted, has no entry, or cannot
 * be compiled. */
apr_status_t spx_run_entry(const spx_project_t *project, const spx_run_limits_t *limits,
                           spx_run_result_t *result, apr_pool_t *pool, const char **message);

/* v3: run function ("MOD.FN", any function of a declared module with the
 * signature fn() -> int; NULL: the manifest's entry) of an admitted
 * project under limits (their arguments are args()'s). APR_EINVAL with
 * *message as spx_run_entry's, or spx_run_target_problem's. */
apr_status_t spx_run_function(const spx_project_t *project, const char *function,
                              const spx_run_limits_t *limits, spx_run_result_t *result,
                              apr_pool_t *pool, const char **message);

/* spx_run_function, the run asking interrupt (may be NULL) between steps
 * whether it may go on (spx_vm.h): when it says stop, the run ends with
 * SPX_STATUS_INTERRUPTED, *message, and no result (MCP's run tool, under
 * its call's deadline). */
apr_status_t spx_run_function_interruptible(const spx_project_t *project, const char *function,
                                            const spx_run_limits_t *limits,
                                            const spx_run_interrupt_t *interrupt,
                                            spx_run_result_t *result, apr_pool_t *pool,
                                            const char **message);

/* v3, `semaprax run --envelope FILE`: spx_run_function, then the run
 * envelope (semaprax.project-run.v1: subject, engine, the command's limits,
 * "run":{"function","args","limits","outcome","value"|"failure","steps",
 * "output","output_truncated"}, command_succeeded, envelope_digest; a new
 * reference). *result is the run's. */
apr_status_t spx_run_envelope_build(const spx_project_t *project, const char *function,
                                    const spx_run_limits_t *limits, spx_run_result_t *result,
                                    json_t **envelope, apr_pool_t *pool, const char **message);

/* spx_run_envelope_build with spx_run_function_interruptible's interrupt. */
apr_status_t spx_run_envelope_build_interruptible(const spx_project_t *project,
                                                  const char *function,
                                                  const spx_run_limits_t *limits,
                                                  const spx_run_interrupt_t *interrupt,
                                                  spx_run_result_t *result, json_t **envelope,
                                                  apr_pool_t *pool, const char **message);

/* What keeps function from being run by `semaprax run --entry` in an
 * admitted project: "no function 'app.mian' in this project; nearest:
 * app.main", or "'app.f' is fn(x: int) -> int, not fn() -> int"; NULL when
 * nothing does. */
const char *spx_run_target_problem(const spx_project_t *project, const char *function,
                                   apr_pool_t *pool);

/* Run every manifest test of an admitted project, in manifest order, each
 * with fresh fuel, and make the envelope (a new reference, envelope_digest
 * included). Failures as for spx_run_entry. */
apr_status_t spx_envelope_build(const spx_project_t *project, const spx_run_limits_t *limits,
                                json_t **envelope, apr_pool_t *pool, const char **message);

/* A test's outcome, as the envelope names it in a record's "outcome" and
 * counts it in "summary": returned 0, returned another value, or stopped. */
typedef enum spx_test_outcome_t {
    SPX_TEST_PASSED = 0,
    SPX_TEST_FAILED,
    SPX_TEST_LANGUAGE_FAILURE,
    SPX_TEST_FUEL_EXHAUSTED,
    SPX_TEST_DEPTH_EXHAUSTED
} spx_test_outcome_t;
#define SPX_TEST_OUTCOME_COUNT 5

/* The outcome of a test's run. */
spx_test_outcome_t spx_test_outcome(const spx_run_result_t *result);

/* "passed", "failed", "language_failure", "fuel_exhausted", "depth_exhausted". */
const char *spx_test_outcome_name(spx_test_outcome_t outcome);

/* One test of the closure as it ran: the manifest's names for it and the
 * interpreter's result, typed (the envelope's record is made from it). */
typedef struct spx_test_run_t {
    const char *name;     /* the manifest's test name */
    const char *function; /* the function it runs, module.function */
    spx_test_outcome_t outcome;
    spx_run_result_t result; /* result.value when result.outcome is SPX_OUTCOME_RETURNED,
                              * result.failure otherwise */
} spx_test_run_t;

/* The envelope's "summary": how many tests ran, and how many ended each way. */
typedef struct spx_test_summary_t {
    apr_size_t total;
    apr_size_t by_outcome[SPX_TEST_OUTCOME_COUNT];
} spx_test_summary_t;

/* Count one test that ran. */
void spx_test_summary_add(spx_test_summary_t *summary, spx_test_outcome_t outcome);

/* The envelope's "command_succeeded": every test that ran passed. */
int spx_test_summary_succeeded(const spx_test_summary_t *summary);

/* Told about each test of the closure as it runs (a terminal shows
 * progress with it, transport/cli/cli_view.c; the operations layer keeps
 * the typed runs with it, transport/operations/run.c): before(index, total,
 * name) just before test index runs, after(index, total, run) once it ran
 * and its record went into the envelope's "tests". run and its texts last
 * only until after returns. Either may be NULL. */
typedef struct spx_envelope_observer_t {
    void (*before)(void *context, apr_size_t index, apr_size_t total, const char *name);
    void (*after)(void *context, apr_size_t index, apr_size_t total, const spx_test_run_t *run);
    void *context;
} spx_envelope_observer_t;

/* spx_envelope_build, telling observer (may be NULL) about each test. */
apr_status_t spx_envelope_build_observed(const spx_project_t *project,
                                         const spx_run_limits_t *limits,
                                         const spx_envelope_observer_t *observer, json_t **envelope,
                                         apr_pool_t *pool, const char **message);

/* A part of the closure: which of the manifest's tests run (the whole
 * closure when NULL). selected[i] says whether test i (manifest order) runs;
 * names are those tests' names, in manifest order, as the envelope's
 * "selection" records them. */
typedef struct spx_test_selection_t {
    const unsigned char *selected; /* manifest test count entries */
    json_t *names;                 /* a JSON array of strings, owned by the selection */
} spx_test_selection_t;

/* The selection of the tests named names[0..count) (count at least 1): a
 * test's name, as the envelope names it ("fact"), or its function's
 * qualified name ("app.test_fact") when only one test runs that function.
 * A name given twice runs once; the tests run in manifest order whatever
 * the order of the names. APR_ENOENT with *message for a name that is no
 * test ("no test 'fibb' in this project; nearest: fib, fact") or a function
 * several tests run; APR_EINVAL when the project is not admitted. Release
 * with spx_test_selection_free. */
apr_status_t spx_test_selection_make(const spx_project_t *project, const char *const *names,
                                     apr_size_t count, spx_test_selection_t **selection,
                                     apr_pool_t *pool, const char **message);
void spx_test_selection_free(spx_test_selection_t *selection);

/* What the records of an envelope's "tests" may take while it is built,
 * so that its memory grows with the answer it goes into, never with what
 * the tests print: max_bytes, the most bytes of their canonical text, a
 * comma between two records counted. reached: the bytes they took when the
 * build ended, or when it stopped because they passed max_bytes. */
typedef struct spx_envelope_bound_t {
    apr_uint64_t max_bytes;
    apr_uint64_t reached;
} spx_envelope_bound_t;

/* spx_envelope_build_observed of only the selected tests (all when
 * selection is NULL); the envelope records the selection's names as
 * "selection" and counts only the selected tests in "summary". With bound
 * (NULL: none), the build stops at the first test whose record takes the
 * records past bound->max_bytes: APR_ENOSPC, nothing more run or kept, and
 * *message says so. */
apr_status_t spx_envelope_build_selected(const spx_project_t *project,
                                         const spx_run_limits_t *limits,
                                         const spx_test_selection_t *selection,
                                         const spx_envelope_observer_t *observer,
                                         spx_envelope_bound_t *bound, json_t **envelope,
                                         apr_pool_t *pool, const char **message);

/* spx_envelope_build_selected, each test's run asking interrupt (may be
 * NULL) between steps whether it may go on (spx_vm.h): when it says stop,
 * no more tests run and the build answers SPX_STATUS_INTERRUPTED, with
 * *message, and no envelope. */
apr_status_t
spx_envelope_build_interruptible(const spx_project_t *project, const spx_run_limits_t *limits,
                                 const spx_test_selection_t *selection,
                                 const spx_envelope_observer_t *observer,
                                 spx_envelope_bound_t *bound, const spx_run_interrupt_t *interrupt,
                                 json_t **envelope, apr_pool_t *pool, const char **message);

/* The outcome of a run for a person: "out of fuel" and "out of call depth"
 * for the exhausted limits, the others as spx_test_outcome_name names them. */
const char *spx_outcome_words(spx_test_outcome_t outcome);

/* {"code","message","path","span"} of a run that did not return. A new reference. */
json_t *spx_failure_json(const spx_failure_t *failure);

/* The three checks of outputs.md, each with a verdict and one line saying
 * why it failed ("" when it passed). */
typedef struct spx_verify_report_t {
    int digest_ok;  /* (a) envelope_digest recomputed */
    int subject_ok; /* (b) the subject recomputed from the files on disk */
    int rerun_ok;   /* (c) the closure (or the recorded selection of it) re-run with the
                     * recorded limits; never made for an envelope whose
                     * engine.language is not SPX_LANGUAGE_NAME */
    const char *digest_detail, *subject_detail, *rerun_detail;
} spx_verify_report_t;

/* Verify the envelope given as bytes against the project of manifest_path.
 * Fills report; a check that cannot be made (bytes that are no envelope, a
 * project that cannot be opened) fails there, saying why. Nothing else can
 * go wrong (memory running out is fatal: spx_allocation.h), so it returns
 * APR_SUCCESS, always. */
apr_status_t spx_envelope_verify(const char *bytes, apr_size_t length, const char *manifest_path,
                                 spx_verify_report_t *report, apr_pool_t *pool);

#endif /* SPX_ENVELOPE_H */
