/*
 * fuzz_interpreter.c: libFuzzer target of the compiler and the metered
 * interpreter, on language v3. The first five input bytes choose the
 * limits, the rest drive the generator (fuzz_generator.h,
 * spx_fuzz_interpreter_input), whose well-typed programs use the constructs
 * of language v3 (maps, enums and matches, the library, compound
 * assignment, moves) and check themselves (value semantics, moves, for
 * snapshots, == agreeing with the values, the library against the
 * generator's model: SPX_FUZZ_INVARIANT). The program goes through Phase A
 * (spx_project_build_texts), which must admit it, and each test function
 * runs.
 *
 * Checked for each run: it completes (no crash, no hang: fuel bounds it);
 * the step count is within the fuel and equals it on fuel exhaustion; the
 * kept output is within max_bytes and valid UTF-8; the outcome and the
 * failure code agree (R0509 fuel, R0510 depth, another of R0501..R0525,
 * never the retired R0507), with a span in the module; no self-check of
 * the program fails; memory_peak is within max_memory; the same run again,
 * and the run of the program built a second time, give the same outcome,
 * value, failure, steps, output bytes and memory_peak; a run that returned
 * after S steps returns alike
 * with fuel S and runs out of fuel with S - 1 (steps are counted exactly);
 * and a run that did not fail with R0521 and peaked at M > 0 bytes runs
 * alike with max_memory M and fails with R0521 with M - 1 (memory is
 * counted exactly); with a max_memory well below what the run needs (half,
 * three quarters and an eighth of M, or of its own limit when it failed
 * with R0521) it fails with R0521 and nothing else, within that limit, in
 * no more steps and with a prefix of the output; with M + 4096 it runs
 * alike.
 */
#include "fuzz_generator.h"
#include "spx_fuzz.h"
#include "project_internal.h" /* white-box: the project's own fields */
#include "spx_limits.h"
#include "spx_project.h"
#include "spx_program.h"
#include "spx_vm.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* A broken invariant: the program and the run, then abort. */
static void broken(const char *rule, const char *text, const char *test,
                   const spx_run_result_t *result)
{
    fprintf(stderr, "\n%s\n%s: outcome %d, steps %llu, memory_peak %llu, failure %s %s\n", text,
            test, (int)result->outcome, (unsigned long long)result->steps,
            (unsigned long long)result->memory_peak,
            result->failure.code ? result->failure.code : "-",
            result->failure.message ? result->failure.message : "-");
    spx_fuzz_fail(__FILE__, __LINE__, rule);
}

static int valid_utf8(const char *bytes, apr_size_t length)
{
    for (apr_size_t i = 0; i < length;) {
        unsigned char c = (unsigned char)bytes[i];
        apr_size_t extra = c < 0x80 ? 0 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 ? 1 : 9;
        if (extra == 9 || length - i <= extra)
            return extra == 0;
        for (apr_size_t k = 1; k <= extra; k++)
            if (((unsigned char)bytes[i + k] & 0xC0) != 0x80)
                return 0;
        i += extra + 1;
    }
    return 1;
}

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int same_run(const spx_run_result_t *a, const spx_run_result_t *b)
{
    return a->outcome == b->outcome && a->steps == b->steps &&
           (a->outcome != SPX_OUTCOME_RETURNED || a->value == b->value) &&
           a->output_length == b->output_length && a->output_truncated == b->output_truncated &&
           memcmp(a->output, b->output, a->output_length) == 0 &&
           a->memory_peak == b->memory_peak &&
           (a->outcome == SPX_OUTCOME_RETURNED ||
            (same_text(a->failure.code, b->failure.code) &&
             same_text(a->failure.message, b->failure.message) &&
             a->failure.span.start.offset == b->failure.span.start.offset &&
             a->failure.span.end.offset == b->failure.span.end.offset));
}

static int failed_with(const spx_run_result_t *result, const char *code)
{
    return result->outcome == SPX_OUTCOME_LANGUAGE_FAILURE && result->failure.code &&
           strcmp(result->failure.code, code) == 0;
}

/* The outcome and the failure code agree; the code is one the language
 * defines: R0501..R0525 but the retired R0507 (R0522 a missing map key,
 * R0523 an empty separator or pattern, R0524 a negative repeat count,
 * R0525 a map over the entry limit). */
static int known_failure(const spx_run_result_t *result)
{
    const char *code = result->failure.code;
    if (!code || strlen(code) != 5 || strncmp(code, "R05", 3) != 0)
        return 0;
    int number = (code[3] - '0') * 10 + (code[4] - '0');
    if (result->outcome == SPX_OUTCOME_FUEL_EXHAUSTED)
        return number == 9;
    if (result->outcome == SPX_OUTCOME_DEPTH_EXHAUSTED)
        return number == 10;
    return number >= 1 && number <= 25 && number != 7 && number != 9 && number != 10;
}

static void run(const spx_project_t *project, long function, const spx_run_limits_t *limits,
                spx_run_result_t *result, apr_pool_t *pool)
{
    SPX_FUZZ_CHECK(spx_vm_run(project->program, function, limits, result, pool) == APR_SUCCESS);
}

/* b's output is a prefix of a's. */
static int output_prefix(const spx_run_result_t *a, const spx_run_result_t *b)
{
    return b->output_length <= a->output_length &&
           memcmp(a->output, b->output, b->output_length) == 0;
}

static void run_checked(const spx_project_t *project, const spx_project_t *rebuilt,
                        const char *text, const char *test, spx_run_limits_t limits,
                        apr_pool_t *pool)
{
    long function = spx_program_find(project->program, test);
    SPX_FUZZ_CHECK(function >= 0);
    apr_size_t source_length = strlen(text);
    spx_run_result_t result, again;
    run(project, function, &limits, &result, pool);
#define RUN_CHECK(condition)                                                                       \
    do {                                                                                           \
        if (!(condition))                                                                          \
            broken(#condition, text, test, &result);                                               \
    } while (0)
    RUN_CHECK(result.steps <= limits.max_steps);
    RUN_CHECK(result.outcome != SPX_OUTCOME_FUEL_EXHAUSTED || result.steps == limits.max_steps);
    RUN_CHECK(result.output_length <= limits.max_bytes);
    RUN_CHECK(valid_utf8(result.output, result.output_length));
    RUN_CHECK(result.memory_peak <= limits.max_memory);
    if (result.outcome != SPX_OUTCOME_RETURNED) {
        RUN_CHECK(known_failure(&result));
        RUN_CHECK(result.failure.message != NULL);
        RUN_CHECK(result.failure.path && strcmp(result.failure.path, "app.spx") == 0);
        RUN_CHECK(result.failure.span.end.offset <= source_length);
        RUN_CHECK(!failed_with(&result, "R0508") ||
                  strstr(result.failure.message, SPX_FUZZ_INVARIANT) == NULL);
    }
    run(project, function, &limits, &again, pool);
    RUN_CHECK(same_run(&result, &again));
    /* determinism: the program built a second time runs alike */
    long rebuilt_function = spx_program_find(rebuilt->program, test);
    RUN_CHECK(rebuilt_function == function);
    run(rebuilt, rebuilt_function, &limits, &again, pool);
    RUN_CHECK(same_run(&result, &again));
    spx_run_limits_t exact = limits, short_of = limits;
    if (result.outcome == SPX_OUTCOME_RETURNED && result.steps > 0) {
        exact.max_steps = result.steps;
        short_of.max_steps = result.steps - 1;
        run(project, function, &exact, &again, pool);
        RUN_CHECK(same_run(&result, &again));
        run(project, function, &short_of, &again, pool);
        RUN_CHECK(again.outcome == SPX_OUTCOME_FUEL_EXHAUSTED);
        RUN_CHECK(again.steps == short_of.max_steps);
    }
    if (!failed_with(&result, "R0521") && result.memory_peak > 0) {
        exact = limits;
        short_of = limits;
        exact.max_memory = result.memory_peak;
        short_of.max_memory = result.memory_peak - 1;
        run(project, function, &exact, &again, pool);
        RUN_CHECK(same_run(&result, &again));
        run(project, function, &short_of, &again, pool);
        RUN_CHECK(failed_with(&again, "R0521"));
        RUN_CHECK(again.memory_peak <= short_of.max_memory);
    }
    /* the memory measure at the limit: under a max_memory L below what the
     * run needs (its peak M, or, when it failed with R0521, its own limit)
     * it is the same run up to where its measure passes L, and fails there
     * with R0521 (its output a prefix, its steps no more); with L above M
     * (the run not failing with R0521) it is the same run */
    int out_of_memory = failed_with(&result, "R0521");
    uint64_t need = out_of_memory ? limits.max_memory : result.memory_peak;
    uint64_t tight[4] = {need / 2, need - need / 4, need / 8, result.memory_peak + 4096};
    for (int i = 0; i < 4; i++) {
        if ((i < 3 && (need == 0 || tight[i] >= need)) ||
            (i == 3 && (out_of_memory || tight[i] > SPX_LIMIT_MAX_MEMORY_MAXIMUM)))
            continue;
        spx_run_limits_t limited = limits;
        limited.max_memory = tight[i];
        run(project, function, &limited, &again, pool);
        if (i == 3) {
            RUN_CHECK(same_run(&result, &again));
            continue;
        }
        RUN_CHECK(failed_with(&again, "R0521"));
        RUN_CHECK(again.memory_peak <= limited.max_memory);
        RUN_CHECK(again.steps <= result.steps);
        RUN_CHECK(output_prefix(&result, &again));
    }
#undef RUN_CHECK
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *pool = NULL;
    SPX_FUZZ_CHECK(apr_pool_create(&pool, NULL) == APR_SUCCESS);
    spx_run_limits_t limits;
    spx_fuzz_program_t program;
    if (!spx_fuzz_interpreter_input(data, size, pool, &limits, &program)) {
        apr_pool_destroy(pool);
        return 0;
    }
    spx_project_t *project = spx_fuzz_build(&program, pool);
    spx_project_t *rebuilt = spx_fuzz_build(&program, pool);
    if (!project->admitted) {
        fprintf(stderr, "\ngenerated program not admitted:\n%s\n// lib.spx\n%s\n%s", program.text,
                program.lib_text, spx_diagnostics_text(project->diagnostics, pool));
        SPX_FUZZ_CHECK(project->admitted);
    }
    SPX_FUZZ_CHECK(rebuilt->admitted);
    for (int i = 0; i < program.test_count; i++)
        run_checked(project, rebuilt, program.text, program.tests[i], limits, pool);
    apr_pool_destroy(pool);
    return 0;
}
