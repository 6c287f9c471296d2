/*
 * fuzz_show_program.c: the programs of fuzz_interpreter's inputs, for
 * people and for the test suite (docs/reliability.md).
 *
 *   fuzz_show_program FILE...   print the program each input generates,
 *                               after a comment with its limits (to turn a
 *                               crash or a regression input into a .spx),
 *                               and after it how each test runs once
 *                               (FILE... --no-run: only the programs)
 *   fuzz_show_program --check N generate the programs of N fixed
 *                               pseudo-random inputs and parse and check
 *                               each (the compiler is fuzz_interpreter's);
 *                               exit 1 with the first program the checker
 *                               refuses (a generator or checker bug), 0
 *                               when all are admitted
 *   fuzz_show_program --stats N build the programs of the same N inputs
 *                               and run their tests as fuzz_interpreter
 *                               does once: how the runs end (by failure
 *                               code), their mean steps and memory_peak
 */
#include "fuzz_generator.h"
#include "spx_arena.h"
#include "spx_ast.h" /* white-box: the parser and the checker alone */
#include "spx_program.h"
#include "spx_project.h"

#include <apr_file_io.h>
#include <apr_general.h>
#include <apr_strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Between the two modules of a program printed. */
#define LIB_MARK "// ---- lib.spx\n"

static int show(const char *path, int run, apr_pool_t *pool)
{
    apr_file_t *file = NULL;
    apr_finfo_t info;
    if (apr_file_open(&file, path, APR_FOPEN_READ | APR_FOPEN_BINARY, 0, pool) != APR_SUCCESS ||
        apr_file_info_get(&info, APR_FINFO_SIZE, file) != APR_SUCCESS) {
        fprintf(stderr, "fuzz_show_program: cannot read %s\n", path);
        return 0;
    }
    apr_size_t size = (apr_size_t)info.size, got = 0;
    uint8_t *data = apr_palloc(pool, size ? size : 1);
    if (size && apr_file_read_full(file, data, size, &got) != APR_SUCCESS) {
        fprintf(stderr, "fuzz_show_program: cannot read %s\n", path);
        return 0;
    }
    apr_file_close(file);
    spx_run_limits_t limits;
    spx_fuzz_program_t program;
    if (!spx_fuzz_interpreter_input(data, size, pool, &limits, &program)) {
        printf("// %s: too short, no program\n", path);
        return 1;
    }
    printf("// %s: max_steps %llu, max_bytes %lu, max_call_depth %u, max_memory %llu; tests", path,
           (unsigned long long)limits.max_steps, (unsigned long)limits.max_bytes,
           limits.max_call_depth, (unsigned long long)limits.max_memory);
    for (int i = 0; i < program.test_count; i++)
        printf(" %s", program.tests[i]);
    printf("\n%s" LIB_MARK "%s", program.text, program.lib_text);
    if (!run)
        return 1;
    spx_project_t *project = spx_fuzz_build(&program, pool);
    if (!project->admitted) {
        printf("// not admitted:\n%s", spx_diagnostics_text(project->diagnostics, pool));
        return 1;
    }
    for (int t = 0; t < program.test_count; t++) {
        spx_run_result_t result;
        spx_vm_run(project->program, spx_program_find(project->program, program.tests[t]), &limits,
                   &result, pool);
        printf("// %s: ", program.tests[t]);
        if (result.outcome == SPX_OUTCOME_RETURNED)
            printf("returned %lld", (long long)result.value);
        else
            printf("%s at %u:%u: %s", result.failure.code, result.failure.span.start.line,
                   result.failure.span.start.column, result.failure.message);
        printf("; %llu steps, memory_peak %llu, %lu output bytes\n",
               (unsigned long long)result.steps, (unsigned long long)result.memory_peak,
               (unsigned long)result.output_length);
    }
    return 1;
}

/* The program and limits of the n-th fixed pseudo-random input, in a new
 * pool of parent's (returned). */
static apr_pool_t *fixed_program(unsigned long n, spx_run_limits_t *limits,
                                 spx_fuzz_program_t *program, apr_pool_t *parent)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, parent);
    uint64_t state = 0x5eed5eed5eedULL + n * 0x9e3779b97f4a7c15ULL;
    size_t size = 64 + (size_t)(n * 37 % 2048);
    uint8_t *data = apr_palloc(pool, size);
    for (size_t i = 0; i < size; i++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        data[i] = (uint8_t)(state >> 56);
    }
    spx_fuzz_interpreter_input(data, size, pool, limits, program);
    return pool;
}

static int check(unsigned long count, apr_pool_t *parent)
{
    for (unsigned long n = 0; n < count; n++) {
        spx_run_limits_t limits;
        spx_fuzz_program_t program;
        apr_pool_t *pool = fixed_program(n, &limits, &program, parent);
        spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
        spx_arena_t *arena = spx_arena_make(pool);
        spx_module_t *modules[2] = {
            spx_module_make("app", "app.spx", (const unsigned char *)program.text,
                            strlen(program.text), arena),
            spx_module_make("lib", "lib.spx", (const unsigned char *)program.lib_text,
                            strlen(program.lib_text), arena)};
        for (int m = 0; m < 2; m++)
            spx_parse_module(modules[m], arena, arena, pool, diagnostics);
        spx_check_program(modules, 2, pool, diagnostics);
        spx_diagnostics_sort(diagnostics);
        if (spx_diagnostics_error_count(diagnostics) > 0) { /* warnings do not refuse it */
            printf("%s" LIB_MARK "%s\n%s", program.text, program.lib_text,
                   spx_diagnostics_text(diagnostics, pool));
            printf("fuzz_show_program: input %lu of %lu: the program above is refused\n", n + 1,
                   count);
            return 0;
        }
        apr_pool_destroy(pool);
    }
    printf("fuzz_show_program: %lu programs admitted\n", count);
    return 1;
}

static int stats(unsigned long count, apr_pool_t *parent)
{
    unsigned long ends[27] = {0}, runs = 0, refused = 0;
    uint64_t steps = 0, peaks = 0;
    for (unsigned long n = 0; n < count; n++) {
        spx_run_limits_t limits;
        spx_fuzz_program_t program;
        apr_pool_t *pool = fixed_program(n, &limits, &program, parent);
        spx_project_t *project = spx_fuzz_build(&program, pool);
        refused += project->admitted ? 0 : 1;
        for (int t = 0; project->admitted && t < program.test_count; t++) {
            spx_run_result_t result;
            spx_vm_run(project->program, spx_program_find(project->program, program.tests[t]),
                       &limits, &result, pool);
            runs++;
            steps += result.steps;
            peaks += result.memory_peak;
            int code = result.outcome == SPX_OUTCOME_RETURNED || !result.failure.code
                           ? 0
                           : atoi(result.failure.code + 3);
            ends[code >= 0 && code <= 25 ? code : 26]++;
        }
        apr_pool_destroy(pool);
    }
    printf("fuzz_show_program: %lu programs (%lu not admitted), %lu runs, mean steps %.0f, "
           "mean memory_peak %.0f\n",
           count, refused, runs, runs ? (double)steps / (double)runs : 0.0,
           runs ? (double)peaks / (double)runs : 0.0);
    for (int code = 0; code <= 26; code++)
        if (ends[code])
            printf("  %-8s %lu\n",
                   code == 0    ? "returned"
                   : code == 26 ? "other"
                                : apr_psprintf(parent, "R05%02d", code),
                   ends[code]);
    return 1;
}

int main(int argc, char **argv)
{
    if (apr_initialize() != APR_SUCCESS)
        return 2;
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    int ok = 1;
    if (argc == 3 && strcmp(argv[1], "--check") == 0)
        ok = check(strtoul(argv[2], NULL, 10), pool);
    else if (argc == 3 && strcmp(argv[1], "--stats") == 0)
        ok = stats(strtoul(argv[2], NULL, 10), pool);
    else if (argc < 2) {
        fprintf(stderr, "usage: fuzz_show_program FILE... | --check N | --stats N\n");
        ok = 0;
    } else {
        int run = strcmp(argv[argc - 1], "--no-run") != 0;
        for (int i = 1; i < argc - (run ? 0 : 1); i++)
            ok &= show(argv[i], run, pool);
    }
    apr_pool_destroy(pool);
    apr_terminate();
    return ok ? 0 : 1;
}
