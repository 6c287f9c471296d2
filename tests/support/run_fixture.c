/*
 * run_fixture.c: runnable one-module projects for the execution suites
 * (spx_run_fixture.h).
 */
#include "spx_run_fixture.h"

#include "project_internal.h" /* the compiled program of a project */
#include "spx_program.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

void spx_run_fixture_write(spx_fixture_t *fixture, const char *source, const char *entry,
                           const char *const *tests)
{
    const char *manifest = apr_pstrcat(
        fixture->pool, "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"p\"\n",
        "version = \"1.0.0\"\n",
        entry ? apr_psprintf(fixture->pool, "entry = \"%s\"\n", entry) : "",
        "\n[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n", NULL);
    for (const char *const *test = tests; test && *test; test++) {
        const char *equals = strchr(*test, '=');
        CU_ASSERT_PTR_NOT_NULL_FATAL(equals);
        manifest = apr_psprintf(fixture->pool, "%s\n[[test]]\nname = \"%.*s\"\nfunction = \"%s\"\n",
                                manifest, (int)(equals - *test), *test, equals + 1);
    }
    spx_fixture_write(fixture, "semaprax.toml", manifest);
    spx_fixture_write(fixture, "app.spx", source);
}

spx_project_t *spx_fixture_project(spx_fixture_t *fixture)
{
    spx_project_t *project = NULL;
    const char *message = NULL;
    apr_status_t status = spx_project_open(&project, spx_fixture_path(fixture, "semaprax.toml"),
                                           fixture->session, &message);
    if (status != APR_SUCCESS)
        fprintf(stderr, "\n  %s\n", message);
    CU_ASSERT_EQUAL_FATAL(status, APR_SUCCESS);
    return project;
}

spx_project_t *spx_run_fixture_open(spx_fixture_t *fixture)
{
    spx_project_t *project = spx_fixture_project(fixture);
    if (!spx_project_admitted(project))
        fprintf(stderr, "\n%s",
                spx_diagnostics_text(spx_project_diagnostics(project), fixture->pool));
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(project));
    return project;
}

spx_program_t *spx_run_fixture_program(spx_fixture_t *fixture, const char *source)
{
    spx_run_fixture_write(fixture, source, NULL, NULL);
    spx_project_t *project = spx_run_fixture_open(fixture);
    CU_ASSERT_PTR_NOT_NULL_FATAL(project->program);
    return project->program;
}

spx_run_result_t spx_run_fixture_call(spx_fixture_t *fixture, const spx_program_t *program,
                                      const char *function, const spx_run_limits_t *limits)
{
    long index = spx_program_find(program, apr_pstrcat(fixture->pool, "app.", function, NULL));
    CU_ASSERT_TRUE_FATAL(index >= 0);
    spx_run_result_t result;
    CU_ASSERT_EQUAL_FATAL(spx_vm_run(program, index, limits, &result, fixture->pool), APR_SUCCESS);
    return result;
}

typedef struct stack_run_t {
    const spx_program_t *program;
    long index;
    const spx_run_limits_t *limits;
    apr_pool_t *pool;
    apr_status_t status;
    spx_run_result_t result;
} stack_run_t;

/* On the small thread: no CUnit assertion here (they may jump). */
static void run_on_stack(void *data)
{
    stack_run_t *run = data;
    run->status = spx_vm_run(run->program, run->index, run->limits, &run->result, run->pool);
}

spx_run_result_t spx_run_fixture_call_on_stack(spx_fixture_t *fixture, const spx_program_t *program,
                                               const char *function, const spx_run_limits_t *limits,
                                               apr_size_t stack_bytes)
{
    stack_run_t run = {program, 0, limits, fixture->pool, APR_EGENERAL, {0}};
    run.index = spx_program_find(program, apr_pstrcat(fixture->pool, "app.", function, NULL));
    CU_ASSERT_TRUE_FATAL(run.index >= 0);
    spx_test_with_stack(stack_bytes, run_on_stack, &run, fixture->pool);
    CU_ASSERT_EQUAL_FATAL(run.status, APR_SUCCESS);
    return run.result;
}

void spx_run_assert_returned(const spx_run_result_t *result, int64_t value, uint64_t steps)
{
    if (result->outcome != SPX_OUTCOME_RETURNED)
        fprintf(stderr, "\n  stopped: %s %s\n", result->failure.code, result->failure.message);
    CU_ASSERT_EQUAL(result->outcome, SPX_OUTCOME_RETURNED);
    if (result->value != value)
        fprintf(stderr, "\n  value %lld, wanted %lld\n", (long long)result->value,
                (long long)value);
    CU_ASSERT_EQUAL(result->value, value);
    if (result->steps != steps)
        fprintf(stderr, "\n  steps %lu, wanted %lu\n", (unsigned long)result->steps,
                (unsigned long)steps);
    CU_ASSERT_EQUAL(result->steps, steps);
}

void spx_run_assert_stopped(const spx_run_result_t *result, spx_outcome_t outcome, const char *code,
                            const char *span, apr_pool_t *pool)
{
    CU_ASSERT_EQUAL(result->outcome, outcome);
    CU_ASSERT_PTR_NOT_NULL_FATAL(result->failure.code);
    if (strcmp(result->failure.code, code) != 0)
        fprintf(stderr, "\n  stopped with %s (%s), wanted %s\n", result->failure.code,
                result->failure.message, code);
    CU_ASSERT_STRING_EQUAL(result->failure.code, code);
    CU_ASSERT_STRING_EQUAL(result->failure.path, "app.spx");
    const spx_span_t *s = &result->failure.span;
    const char *actual = apr_psprintf(pool, "%d:%d-%d:%d", (int)s->start.line, (int)s->start.column,
                                      (int)s->end.line, (int)s->end.column);
    if (strcmp(actual, span) != 0)
        fprintf(stderr, "\n  %s span %s, wanted %s\n", code, actual, span);
    CU_ASSERT_STRING_EQUAL(actual, span);
}

void spx_run_expect_counted(spx_fixture_t *fixture, const spx_program_t *program,
                            const spx_counted_run_t *runs, size_t count)
{
    spx_run_limits_t limits = spx_run_limits_default();
    for (size_t i = 0; i < count; i++) {
        const spx_counted_run_t *run = &runs[i];
        spx_run_result_t result = spx_run_fixture_call(fixture, program, run->function, &limits);
        const char *output = run->output ? run->output : "";
        if (result.outcome != SPX_OUTCOME_RETURNED || result.steps != run->steps ||
            result.value != run->value ||
            (run->peak != SPX_ANY_PEAK && result.memory_peak != run->peak) ||
            strcmp(result.output, output) != 0)
            fprintf(stderr, "\n  in app.%s: value %lld, steps %llu, peak %llu, %s", run->function,
                    (long long)result.value, (unsigned long long)result.steps,
                    (unsigned long long)result.memory_peak,
                    result.outcome == SPX_OUTCOME_RETURNED ? "returned" : result.failure.message);
        spx_run_assert_returned(&result, run->value, run->steps);
        if (run->peak != SPX_ANY_PEAK)
            CU_ASSERT_EQUAL(result.memory_peak, run->peak);
        CU_ASSERT_STRING_EQUAL(result.output, output);
    }
}

void spx_run_expect_stopped(spx_fixture_t *fixture, const spx_program_t *program,
                            const spx_stopped_run_t *stop, const spx_run_limits_t *limits)
{
    spx_run_result_t result = spx_run_fixture_call(fixture, program, stop->function, limits);
    if (result.outcome == SPX_OUTCOME_RETURNED)
        fprintf(stderr, "\n  app.%s returned %lld after %llu steps", stop->function,
                (long long)result.value, (unsigned long long)result.steps);
    else if (result.steps != stop->steps || strcmp(result.failure.message, stop->message) != 0)
        fprintf(stderr, "\n  app.%s: %s after %llu steps", stop->function, result.failure.message,
                (unsigned long long)result.steps);
    CU_ASSERT_EQUAL_FATAL(result.outcome == SPX_OUTCOME_RETURNED, 0);
    spx_run_assert_stopped(&result, stop->outcome, stop->code, stop->span, fixture->pool);
    CU_ASSERT_STRING_EQUAL(result.failure.message, stop->message);
    CU_ASSERT_EQUAL(result.steps, stop->steps);
    CU_ASSERT_STRING_EQUAL(result.output, stop->output ? stop->output : "");
}

void spx_run_expect_stops(spx_fixture_t *fixture, const spx_program_t *program,
                          const spx_stopped_run_t *stops, size_t count)
{
    spx_run_limits_t limits = spx_run_limits_default();
    for (size_t i = 0; i < count; i++)
        spx_run_expect_stopped(fixture, program, &stops[i], &limits);
}

void spx_run_source_expect_counted(const char *source, const spx_counted_run_t *runs, size_t count)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, source), runs, count);
    spx_fixture_free(fixture);
}

void spx_run_source_expect_stops(const char *source, const spx_stopped_run_t *stops, size_t count)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_stops(fixture, spx_run_fixture_program(fixture, source), stops, count);
    spx_fixture_free(fixture);
}
