/*
 * fuzz_interpreter.c: libFuzzer target of the compiler and the metered
 * interpreter. The input bytes drive a small generator of well-typed
 * Semaprax programs (one module "app": helper functions over int, str and
 * bool, unit functions, and test functions fn() -> int, with locals,
 * assignments, if/else, while, recursion, every operator and builtin, and
 * literals near the integer limits); the program goes through Phase A
 * (spx_project_build_texts), which must admit it, and each test function
 * runs with small fuel, a small output budget and a chosen call depth.
 *
 * Checked for each run: it completes (no crash, no hang: fuel bounds it);
 * the step count is within the fuel and equals it on fuel exhaustion; the
 * kept output is within max_bytes and valid UTF-8; a failure has an R05xx
 * code and a span in the module; the same run again gives the same outcome,
 * value, steps and output bytes; and a run that returned after S steps
 * returns alike with fuel S and runs out of fuel with S - 1 (steps are
 * counted exactly).
 */
#include "spx_fuzz.h"
#include "project_internal.h" /* white-box: the project's own fields */
#include "spx_project.h"
#include "spx_program.h"
#include "spx_vm.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

#define MAX_FUNCTIONS 6
#define MAX_LOCALS 24
#define MAX_EXPRESSION_DEPTH 4
#define MAX_BLOCK_DEPTH 3
#define MAX_STATEMENTS 5
#define MAX_FUEL 20000u

typedef enum type_t { T_INT, T_STR, T_BOOL, T_UNIT } type_t;

typedef struct function_t {
    type_t result;
    type_t params[2];
    int param_count;
} function_t;

typedef struct local_t {
    int number;
    type_t type;
    int mutable;
} local_t;

typedef struct generator_t {
    const uint8_t *data;
    size_t size, at;
    char *text; /* the program, grown in pool */
    apr_pool_t *pool;
    function_t functions[MAX_FUNCTIONS];
    int function_count;
    local_t locals[MAX_LOCALS];
    int local_count; /* in scope now */
    int next_local;  /* names are unique in a function */
    int block_depth;
} generator_t;

static unsigned take(generator_t *g, unsigned choices)
{
    if (g->at >= g->size)
        return 0;
    return g->data[g->at++] % choices;
}

static void emit(generator_t *g, const char *text)
{
    g->text = apr_pstrcat(g->pool, g->text, text, NULL);
}

static const char *const type_names[] = {"int", "str", "bool"};

static void expression(generator_t *g, type_t type, int depth);

static void arguments(generator_t *g, const function_t *f, int depth)
{
    emit(g, "(");
    for (int i = 0; i < f->param_count; i++) {
        if (i)
            emit(g, ", ");
        expression(g, f->params[i], depth + 1);
    }
    emit(g, ")");
}

/* A call of a function returning type, if there is one (at any index:
 * recursion and mutual recursion are allowed); 0 when none. */
static int call(generator_t *g, type_t type, int depth)
{
    int candidates[MAX_FUNCTIONS], count = 0;
    for (int i = 0; i < g->function_count; i++)
        if (g->functions[i].result == type)
            candidates[count++] = i;
    if (!count)
        return 0;
    int chosen = candidates[take(g, (unsigned)count)];
    emit(g, apr_psprintf(g->pool, "f%d", chosen));
    arguments(g, &g->functions[chosen], depth);
    return 1;
}

static int local_of(generator_t *g, type_t type, int want_mutable)
{
    int candidates[MAX_LOCALS], count = 0;
    for (int i = 0; i < g->local_count; i++)
        if (g->locals[i].type == type && (!want_mutable || g->locals[i].mutable))
            candidates[count++] = i;
    return count ? candidates[take(g, (unsigned)count)] : -1;
}

static void int_literal(generator_t *g)
{
    static const char *const literals[] = {"0",
                                           "1",
                                           "2",
                                           "3",
                                           "7",
                                           "10",
                                           "255",
                                           "65536",
                                           "2147483647",
                                           "4294967296",
                                           "9223372036854775807",
                                           "(-9223372036854775807 - 1)",
                                           "(-1)",
                                           "1000000007"};
    emit(g, literals[take(g, sizeof(literals) / sizeof(literals[0]))]);
}

static void str_literal(generator_t *g)
{
    static const char *const literals[] = {"\"\"",           "\"a\"",          "\"hello\"",
                                           "\"\\n\"",        "\"\\t\\\\\"",    "\"\\\"q\\\"\"",
                                           "\"\\u{e9}\"",    "\"\\u{1F600}\"", "\"\\u{10FFFF}x\"",
                                           "\"caf\\u{E9}\"", "\"\\u{0}\""};
    emit(g, literals[take(g, sizeof(literals) / sizeof(literals[0]))]);
}

static void expression(generator_t *g, type_t type, int depth)
{
    unsigned choice = depth >= MAX_EXPRESSION_DEPTH ? take(g, 2) : take(g, 8);
    if (choice == 1) { /* a local, when there is one */
        int local = local_of(g, type, 0);
        if (local >= 0) {
            emit(g, apr_psprintf(g->pool, "v%d", g->locals[local].number));
            return;
        }
        choice = 0;
    }
    if (choice == 7 && call(g, type, depth))
        return;
    if (choice == 0 || choice == 7) {
        if (type == T_INT)
            int_literal(g);
        else if (type == T_STR)
            str_literal(g);
        else
            emit(g, take(g, 2) ? "true" : "false");
        return;
    }
    emit(g, "(");
    if (type == T_INT) {
        static const char *const operators[] = {" + ", " - ", " * ", " / ", " % "};
        switch (choice) {
        case 2:
            emit(g, "-");
            expression(g, T_INT, depth + 1);
            break;
        case 3:
            emit(g, "len(");
            expression(g, T_STR, depth + 1);
            emit(g, ")");
            break;
        default:
            expression(g, T_INT, depth + 1);
            emit(g, operators[take(g, 5)]);
            expression(g, T_INT, depth + 1);
            break;
        }
    } else if (type == T_STR) {
        if (choice <= 3) {
            emit(g, "itos(");
            expression(g, T_INT, depth + 1);
            emit(g, ")");
        } else {
            expression(g, T_STR, depth + 1);
            emit(g, " + ");
            expression(g, T_STR, depth + 1);
        }
    } else {
        switch (choice) {
        case 2: {
            static const char *const comparisons[] = {" < ", " <= ", " > ", " >= ", " == ", " != "};
            expression(g, T_INT, depth + 1);
            emit(g, comparisons[take(g, 6)]);
            expression(g, T_INT, depth + 1);
            break;
        }
        case 3: {
            type_t operand = take(g, 3) == 0 ? T_BOOL : T_STR;
            expression(g, operand, depth + 1);
            emit(g, take(g, 2) ? " == " : " != ");
            expression(g, operand, depth + 1);
            break;
        }
        case 4:
            emit(g, "!");
            expression(g, T_BOOL, depth + 1);
            break;
        default:
            expression(g, T_BOOL, depth + 1);
            emit(g, take(g, 2) ? " && " : " || ");
            expression(g, T_BOOL, depth + 1);
            break;
        }
    }
    emit(g, ")");
}

static void indent(generator_t *g)
{
    for (int i = 0; i <= g->block_depth; i++)
        emit(g, "  ");
}

static void block(generator_t *g, type_t result);

static void statement(generator_t *g, type_t result)
{
    indent(g);
    unsigned choice = take(g, 9);
    if (choice >= 6 && g->block_depth >= MAX_BLOCK_DEPTH)
        choice = 0;
    switch (choice) {
    case 0: /* let or var */
    case 1: {
        if (g->local_count >= MAX_LOCALS) {
            emit(g, "print(\"\");\n");
            return;
        }
        type_t type = (type_t)take(g, 3);
        int mutable = take(g, 2);
        int number = g->next_local++;
        emit(g, apr_psprintf(g->pool, "%s v%d", mutable ? "var" : "let", number));
        if (take(g, 2))
            emit(g, apr_psprintf(g->pool, ": %s", type_names[type]));
        emit(g, " = ");
        expression(g, type, 0);
        emit(g, ";\n");
        g->locals[g->local_count++] = (local_t){number, type, mutable};
        return;
    }
    case 2: { /* assignment */
        type_t type = (type_t)take(g, 3);
        int local = local_of(g, type, 1);
        if (local < 0) {
            emit(g, "assert(true);\n");
            return;
        }
        emit(g, apr_psprintf(g->pool, "v%d = ", g->locals[local].number));
        expression(g, type, 0);
        emit(g, ";\n");
        return;
    }
    case 3:
        emit(g, "print(");
        expression(g, T_STR, 0);
        emit(g, ");\n");
        return;
    case 4:
        emit(g, "assert(");
        expression(g, T_BOOL, 0);
        emit(g, ");\n");
        return;
    case 5: /* return, or a call of a unit function */
        if (take(g, 2)) {
            emit(g, "return");
            if (result != T_UNIT) {
                emit(g, " ");
                expression(g, result, 0);
            }
            emit(g, ";\n");
        } else if (!call(g, T_UNIT, 0)) {
            emit(g, "print(itos(0));\n");
        } else {
            emit(g, ";\n");
        }
        return;
    case 6:
    case 7:
        emit(g, "if ");
        expression(g, T_BOOL, 0);
        emit(g, " ");
        block(g, result);
        if (take(g, 2)) {
            emit(g, " else ");
            block(g, result);
        }
        emit(g, "\n");
        return;
    default:
        emit(g, "while ");
        expression(g, T_BOOL, 0);
        emit(g, " ");
        block(g, result);
        emit(g, "\n");
        return;
    }
}

static void block(generator_t *g, type_t result)
{
    int scope = g->local_count;
    emit(g, "{\n");
    g->block_depth++;
    unsigned count = take(g, MAX_STATEMENTS + 1);
    for (unsigned i = 0; i < count; i++)
        statement(g, result);
    g->block_depth--;
    indent(g);
    emit(g, "}");
    g->local_count = scope;
}

static void function(generator_t *g, int index)
{
    const function_t *f = &g->functions[index];
    g->local_count = 0;
    g->next_local = 0;
    g->block_depth = 0;
    emit(g, apr_psprintf(g->pool, "fn f%d(", index));
    for (int i = 0; i < f->param_count; i++) {
        int number = g->next_local++;
        emit(g,
             apr_psprintf(g->pool, "%sv%d: %s", i ? ", " : "", number, type_names[f->params[i]]));
        g->locals[g->local_count++] = (local_t){number, f->params[i], 0};
    }
    emit(g, ")");
    if (f->result != T_UNIT)
        emit(g, apr_psprintf(g->pool, " -> %s", type_names[f->result]));
    emit(g, " {\n");
    unsigned count = take(g, MAX_STATEMENTS + 1);
    for (unsigned i = 0; i < count; i++)
        statement(g, f->result);
    if (f->result != T_UNIT) { /* every path returns */
        emit(g, "  return ");
        expression(g, f->result, 0);
        emit(g, ";\n");
    }
    emit(g, "}\n\n");
}

/* The program text; function 0 is always a test, fn f0() -> int. */
static const char *generate(generator_t *g)
{
    g->text = "// generated\n";
    g->function_count = 1 + (int)take(g, MAX_FUNCTIONS);
    for (int i = 0; i < g->function_count; i++) {
        function_t *f = &g->functions[i];
        if (i == 0 || take(g, 3) == 0) {
            *f = (function_t){T_INT, {T_INT, T_INT}, 0};
            continue;
        }
        f->result = (type_t)take(g, 4);
        f->param_count = (int)take(g, 3);
        for (int p = 0; p < f->param_count; p++)
            f->params[p] = (type_t)take(g, 3);
    }
    for (int i = 0; i < g->function_count; i++)
        function(g, i);
    return g->text;
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

static int same_run(const spx_run_result_t *a, const spx_run_result_t *b)
{
    return a->outcome == b->outcome && a->steps == b->steps &&
           (a->outcome != SPX_OUTCOME_RETURNED || a->value == b->value) &&
           a->output_length == b->output_length && a->output_truncated == b->output_truncated &&
           memcmp(a->output, b->output, a->output_length) == 0 &&
           (a->outcome == SPX_OUTCOME_RETURNED || strcmp(a->failure.code, b->failure.code) == 0);
}

static void run_checked(const spx_project_t *project, long function, spx_run_limits_t limits,
                        apr_size_t source_length, apr_pool_t *pool)
{
    spx_run_result_t result, again;
    SPX_FUZZ_CHECK(spx_vm_run(project->program, function, &limits, &result, pool) == APR_SUCCESS);
    SPX_FUZZ_CHECK(result.steps <= limits.max_steps);
    SPX_FUZZ_CHECK(result.outcome != SPX_OUTCOME_FUEL_EXHAUSTED ||
                   result.steps == limits.max_steps);
    SPX_FUZZ_CHECK(result.output_length <= limits.max_bytes);
    SPX_FUZZ_CHECK(valid_utf8(result.output, result.output_length));
    if (result.outcome != SPX_OUTCOME_RETURNED) {
        SPX_FUZZ_CHECK(result.failure.code && strncmp(result.failure.code, "R05", 3) == 0);
        SPX_FUZZ_CHECK(result.failure.span.end.offset <= source_length);
    }
    SPX_FUZZ_CHECK(spx_vm_run(project->program, function, &limits, &again, pool) == APR_SUCCESS);
    SPX_FUZZ_CHECK(same_run(&result, &again));
    if (result.outcome == SPX_OUTCOME_RETURNED && result.steps > 0) {
        spx_run_limits_t exact = limits, short_of = limits;
        exact.max_steps = result.steps;
        short_of.max_steps = result.steps - 1;
        SPX_FUZZ_CHECK(spx_vm_run(project->program, function, &exact, &again, pool) == APR_SUCCESS);
        SPX_FUZZ_CHECK(same_run(&result, &again));
        SPX_FUZZ_CHECK(spx_vm_run(project->program, function, &short_of, &again, pool) ==
                       APR_SUCCESS);
        SPX_FUZZ_CHECK(again.outcome == SPX_OUTCOME_FUEL_EXHAUSTED);
        SPX_FUZZ_CHECK(again.steps == short_of.max_steps);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    apr_pool_t *pool = NULL;
    SPX_FUZZ_CHECK(apr_pool_create(&pool, NULL) == APR_SUCCESS);
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = 1 + ((unsigned)data[0] << 8 | data[1]) % MAX_FUEL;
    limits.max_bytes = data[2];
    limits.max_call_depth = 1 + data[3] % 64;
    generator_t g = {.data = data, .size = size, .at = 4, .pool = pool};
    const char *text = generate(&g);
    spx_source_text_t source = {"app", "app.spx", (const unsigned char *)text, strlen(text)};
    spx_project_t *project = spx_project_build_texts(&source, 1, pool);
    if (!project->admitted) {
        fprintf(stderr, "\ngenerated program not admitted:\n%s\n%s", text,
                spx_diagnostics_text(project->diagnostics, pool));
        SPX_FUZZ_CHECK(project->admitted);
    }
    for (int i = 0; i < g.function_count; i++) {
        const function_t *f = &g.functions[i];
        if (f->result != T_INT || f->param_count != 0)
            continue;
        long index = spx_program_find(project->program, apr_psprintf(pool, "app.f%d", i));
        SPX_FUZZ_CHECK(index >= 0);
        run_checked(project, index, limits, source.length, pool);
    }
    apr_pool_destroy(pool);
    return 0;
}
