/*
 * spx_run_fixture.h: small runnable projects for the execution suites: one
 * module "app" (app.spx) with the given source, an optional entry, and the
 * given tests, written into a fixture; and running one function of it.
 */
#ifndef SPX_RUN_FIXTURE_H
#define SPX_RUN_FIXTURE_H

#include "spx_project.h"
#include "spx_test.h"
#include "spx_vm.h"

/* Write semaprax.toml and app.spx. entry is "app.NAME" or NULL; tests is a
 * NULL-terminated list of "NAME=FUNCTION" pairs, e.g. "a=app.test_a". */
void spx_run_fixture_write(spx_fixture_t *fixture, const char *source, const char *entry,
                           const char *const *tests);

/* Open the project of the fixture's semaprax.toml; its inputs must be
 * readable (it may have diagnostics). */
spx_project_t *spx_fixture_project(spx_fixture_t *fixture);

/* Open the fixture's project; it must be admitted. */
spx_project_t *spx_run_fixture_open(spx_fixture_t *fixture);

/* Write a project of source (no entry, no tests) and compile it. */
spx_program_t *spx_run_fixture_program(spx_fixture_t *fixture, const char *source);

/* Run app.FUNCTION of program under limits; the run must succeed as a call
 * (whatever the program does). */
spx_run_result_t spx_run_fixture_call(spx_fixture_t *fixture, const spx_program_t *program,
                                      const char *function, const spx_run_limits_t *limits);

/* spx_run_fixture_call on a thread whose stack is stack_bytes
 * (spx_test_with_stack): a run that recursed in C would overflow it. */
spx_run_result_t spx_run_fixture_call_on_stack(spx_fixture_t *fixture, const spx_program_t *program,
                                               const char *function, const spx_run_limits_t *limits,
                                               apr_size_t stack_bytes);

/* The run returned value after exactly steps (what stopped it is printed
 * when it did not return). */
void spx_run_assert_returned(const spx_run_result_t *result, int64_t value, uint64_t steps);

/* The run stopped with outcome, code, and a failure span "L:C-L:C" in
 * app.spx. */
void spx_run_assert_stopped(const spx_run_result_t *result, spx_outcome_t outcome, const char *code,
                            const char *span, apr_pool_t *pool);

/* Not checked: a counted run whose memory peak the test does not count. */
#define SPX_ANY_PEAK UINT64_MAX

/* One hand-counted run: app.FUNCTION returns value after exactly steps,
 * prints output (NULL: nothing), and live memory peaks at peak bytes
 * (unless SPX_ANY_PEAK). */
typedef struct spx_counted_run_t {
    const char *function;
    int64_t value;
    uint64_t steps;
    uint64_t peak;
    const char *output;
} spx_counted_run_t;

/* Run every counted run of program with the default limits, printing what
 * a run did when it differs. */
void spx_run_expect_counted(spx_fixture_t *fixture, const spx_program_t *program,
                            const spx_counted_run_t *runs, size_t count);

/* A run that stops: app.FUNCTION with outcome, code, message, span
 * "L:C-L:C" of app.spx, after exactly steps, having printed output (NULL:
 * nothing). */
typedef struct spx_stopped_run_t {
    const char *function;
    spx_outcome_t outcome;
    const char *code;
    const char *message;
    const char *span;
    uint64_t steps;
    const char *output;
} spx_stopped_run_t;

/* Run stop's function of program under limits and check it stopped so. */
void spx_run_expect_stopped(spx_fixture_t *fixture, const spx_program_t *program,
                            const spx_stopped_run_t *stop, const spx_run_limits_t *limits);

/* spx_run_expect_stopped for every stop of stops, under the default limits. */
void spx_run_expect_stops(spx_fixture_t *fixture, const spx_program_t *program,
                          const spx_stopped_run_t *stops, size_t count);

/* The source-driven forms: source compiled in a fixture of their own, then
 * spx_run_expect_counted or spx_run_expect_stops. */
void spx_run_source_expect_counted(const char *source, const spx_counted_run_t *runs, size_t count);
void spx_run_source_expect_stops(const char *source, const spx_stopped_run_t *stops, size_t count);

#endif /* SPX_RUN_FIXTURE_H */
