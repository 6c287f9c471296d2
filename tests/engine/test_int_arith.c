/*
 * test_int_arith.c: the integer semantics of docs/language.md ("Integers")
 * computed twice, by the checker's const evaluation (a program of consts
 * built with spx_project_build_texts, each const's value or its E0415
 * message read back) and by the interpreter (the same operations on
 * parameters, so nothing is known before the run), over the edge values
 * MIN, MAX, -1, 0 and 1, every shift count 0..63 and the counts just out of
 * range. Both must agree with each other and with a reference written here
 * another way (overflow from the signs of a wrapped result, shifts as
 * repeated doubling and halving); a few results are also spelled out.
 * White-box: spx_int_arith.h, the one module both sides compute with, and
 * the project's own fields (project_internal.h).
 */
#include "project_internal.h"
#include "spx_int_arith.h"
#include "spx_program.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <string.h>

static const int64_t edges[] = {INT64_MIN, INT64_MAX, -1, 0, 1};
#define EDGE_COUNT (sizeof(edges) / sizeof(edges[0]))

/* An int as a Semaprax expression: MIN has no literal of its own. */
static const char *literal(int64_t value, apr_pool_t *pool)
{
    if (value == INT64_MIN)
        return "(-9223372036854775807 - 1)";
    return apr_psprintf(pool, "(%" PRId64 ")", value);
}

/* --- the reference --------------------------------------------------------- */

typedef struct expected_t {
    int ok;
    int64_t value;       /* when ok */
    const char *message; /* when not */
} expected_t;

static int64_t wrapped(uint64_t bits)
{
    int64_t value;
    memcpy(&value, &bits, sizeof(value));
    return value;
}

static expected_t fails(const char *message)
{
    expected_t e = {0, 0, message};
    return e;
}

static expected_t gives(int64_t value)
{
    expected_t e = {1, value, NULL};
    return e;
}

static const char *overflow_text(int64_t a, const char *op, int64_t b, apr_pool_t *pool)
{
    return apr_psprintf(pool, "integer overflow: %" PRId64 " %s %" PRId64, a, op, b);
}

/* a + b by the signs: it overflowed when both operands have a sign that the
 * wrapped sum has not. */
static int add_overflows(int64_t a, int64_t b, int64_t *sum)
{
    *sum = wrapped((uint64_t)a + (uint64_t)b);
    return (a < 0) == (b < 0) && (*sum < 0) != (a < 0);
}

/* a * 2^n as n doublings, each checked. */
static int doubled(int64_t a, int n, int64_t *result)
{
    int64_t value = a;
    for (int i = 0; i < n; i++)
        if (add_overflows(value, value, &value))
            return 0;
    *result = value;
    return 1;
}

/* floor(a / 2^n) as n floor halvings. */
static int64_t halved(int64_t a, int n)
{
    for (int i = 0; i < n; i++)
        a = a / 2 - (a < 0 && a % 2 != 0);
    return a;
}

static expected_t reference(const char *op, int64_t a, int64_t b, apr_pool_t *pool)
{
    int64_t r;
    if (strcmp(op, "+") == 0)
        return add_overflows(a, b, &r) ? fails(overflow_text(a, op, b, pool)) : gives(r);
    if (strcmp(op, "-") == 0) {
        r = wrapped((uint64_t)a - (uint64_t)b);
        int overflow = (a < 0) != (b < 0) && (r < 0) != (a < 0);
        return overflow ? fails(overflow_text(a, op, b, pool)) : gives(r);
    }
    if (strcmp(op, "*") == 0) {
        r = wrapped((uint64_t)a * (uint64_t)b);
        int overflow = a != 0 && ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN) ||
                                  (a != -1 && r / a != b));
        return overflow ? fails(overflow_text(a, op, b, pool)) : gives(r);
    }
    if (strcmp(op, "/") == 0 || strcmp(op, "%") == 0) {
        int division = strcmp(op, "/") == 0;
        if (b == 0)
            return fails(apr_psprintf(pool, "%s by zero: %" PRId64 " %s 0",
                                      division ? "division" : "remainder", a, op));
        if (a == INT64_MIN && b == -1)
            return division ? fails(overflow_text(a, op, b, pool)) : gives(0);
        return gives(division ? a / b : a % b);
    }
    if (strcmp(op, "|") == 0)
        return gives(a | b);
    if (strcmp(op, "^") == 0)
        return gives(a ^ b);
    if (strcmp(op, "&") == 0)
        return gives(a & b);
    /* << and >> */
    if (b < 0 || b > 63)
        return fails(apr_psprintf(pool, "shift count %" PRId64 " out of range 0..63", b));
    if (strcmp(op, ">>") == 0)
        return gives(halved(a, (int)b));
    return doubled(a, (int)b, &r) ? gives(r) : fails(overflow_text(a, op, b, pool));
}

/* --- the cases --------------------------------------------------------------- */

typedef struct case_t {
    const char *op; /* binary, or "neg" and "~" with b unused */
    int64_t a, b;
    expected_t expected;
} case_t;

static const char *const binary_ops[] = {"+", "-", "*", "/", "%", "|", "^", "&"};
static const char *const binary_names[] = {"add", "sub", "mul", "div", "rem", "or", "xor", "and"};

static apr_array_header_t *all_cases(apr_pool_t *pool)
{
    apr_array_header_t *cases = apr_array_make(pool, 1024, sizeof(case_t));
    for (size_t o = 0; o < sizeof(binary_ops) / sizeof(binary_ops[0]); o++)
        for (size_t i = 0; i < EDGE_COUNT; i++)
            for (size_t j = 0; j < EDGE_COUNT; j++)
                *(case_t *)apr_array_push(cases) =
                    (case_t){binary_ops[o], edges[i], edges[j],
                             reference(binary_ops[o], edges[i], edges[j], pool)};
    static const int64_t out_of_range[] = {-1, 64, INT64_MIN, INT64_MAX};
    for (int shl = 0; shl < 2; shl++) {
        const char *op = shl ? "<<" : ">>";
        for (size_t i = 0; i < EDGE_COUNT; i++) {
            for (int64_t n = 0; n <= 63; n++)
                *(case_t *)apr_array_push(cases) =
                    (case_t){op, edges[i], n, reference(op, edges[i], n, pool)};
            for (size_t k = 0; k < 4; k++)
                *(case_t *)apr_array_push(cases) = (case_t){
                    op, edges[i], out_of_range[k], reference(op, edges[i], out_of_range[k], pool)};
        }
    }
    for (size_t i = 0; i < EDGE_COUNT; i++) {
        int64_t a = edges[i];
        *(case_t *)apr_array_push(cases) = (case_t){
            "neg", a, 0,
            a == INT64_MIN ? fails("integer overflow: -(-9223372036854775808)") : gives(-a)};
        *(case_t *)apr_array_push(cases) = (case_t){"~", a, 0, gives(~a)};
    }
    return cases;
}

/* The expression of case c over operands a and b, as Semaprax writes it. */
static const char *expression(const case_t *c, const char *a, const char *b, apr_pool_t *pool)
{
    if (strcmp(c->op, "neg") == 0)
        return apr_pstrcat(pool, "-", a, NULL);
    if (strcmp(c->op, "~") == 0)
        return apr_pstrcat(pool, "~", a, NULL);
    return apr_pstrcat(pool, a, " ", c->op, " ", b, NULL);
}

/* The name of the interpreter's function that applies c's operator. */
static const char *apply_name(const case_t *c)
{
    for (size_t o = 0; o < sizeof(binary_ops) / sizeof(binary_ops[0]); o++)
        if (strcmp(c->op, binary_ops[o]) == 0)
            return binary_names[o];
    return strcmp(c->op, "<<") == 0   ? "shl"
           : strcmp(c->op, ">>") == 0 ? "shr"
           : c->op[0] == '~'          ? "bit_not"
                                      : "neg";
}

static const char *describe(const case_t *c, apr_pool_t *pool)
{
    return apr_psprintf(pool, "%s(%" PRId64 ", %" PRId64 ")", c->op, c->a, c->b);
}

/* --- the checks ----------------------------------------------------------------- */

/* The const's E0415 message, or NULL. */
static const char *const_failure(const spx_project_t *project, const spx_const_t *constant)
{
    const apr_array_header_t *items = project->diagnostics->items;
    for (int i = 0; i < items->nelts; i++) {
        const spx_diagnostic_t *item = &APR_ARRAY_IDX(items, i, spx_diagnostic_t);
        if (item->span.start.offset >= constant->span.start.offset &&
            item->span.end.offset <= constant->span.end.offset)
            return strcmp(item->code, "E0415") == 0 ? item->message : "(another diagnostic)";
    }
    return NULL;
}

static void test_edges_agree(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    apr_array_header_t *cases = all_cases(pool);

    /* One const per case, and one function per case that hands the
     * operands to a function of parameters. */
    apr_array_header_t *consts = apr_array_make(pool, cases->nelts, sizeof(char *));
    apr_array_header_t *code = apr_array_make(pool, cases->nelts + 16, sizeof(char *));
    for (size_t o = 0; o < sizeof(binary_ops) / sizeof(binary_ops[0]); o++)
        APR_ARRAY_PUSH(code, const char *) =
            apr_psprintf(pool, "fn %s(a: int, b: int) -> int { return a %s b; }\n", binary_names[o],
                         binary_ops[o]);
    APR_ARRAY_PUSH(code, const char *) = "fn shl(a: int, b: int) -> int { return a << b; }\n"
                                         "fn shr(a: int, b: int) -> int { return a >> b; }\n"
                                         "fn neg(a: int) -> int { return -a; }\n"
                                         "fn bit_not(a: int) -> int { return ~a; }\n";
    for (int i = 0; i < cases->nelts; i++) {
        const case_t *c = &APR_ARRAY_IDX(cases, i, case_t);
        const char *a = literal(c->a, pool), *b = literal(c->b, pool);
        APR_ARRAY_PUSH(consts, const char *) =
            apr_psprintf(pool, "const C%d: int = %s;\n", i, expression(c, a, b, pool));
        int unary = strcmp(c->op, "neg") == 0 || c->op[0] == '~';
        APR_ARRAY_PUSH(code, const char *) =
            apr_psprintf(pool, "export fn case%d() -> int { return %s(%s%s%s); }\n", i,
                         apply_name(c), a, unary ? "" : ", ", unary ? "" : b);
    }

    const char *const_text = apr_array_pstrcat(pool, consts, 0);
    spx_source_text_t source = {"consts", "consts.spx", (const unsigned char *)const_text,
                                strlen(const_text)};
    spx_project_t *evaluated = spx_project_build_texts(&source, 1, pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(evaluated);
    const spx_module_t *module = evaluated->modules[0];
    CU_ASSERT_EQUAL_FATAL(module->const_count, (apr_size_t)cases->nelts);

    spx_program_t *program = spx_run_fixture_program(fixture, apr_array_pstrcat(pool, code, 0));
    spx_run_limits_t limits = spx_run_limits_default();

    int disagreements = 0;
    for (int i = 0; i < cases->nelts; i++) {
        const case_t *c = &APR_ARRAY_IDX(cases, i, case_t);
        const spx_const_t *constant = module->consts[i];
        const char *failure = const_failure(evaluated, constant);
        int const_ok = constant->value_type == SPX_TYPE_INT && !failure;
        spx_run_result_t run =
            spx_run_fixture_call(fixture, program, apr_psprintf(pool, "case%d", i), &limits);
        int run_ok = run.outcome == SPX_OUTCOME_RETURNED;
        int agree = const_ok == c->expected.ok && run_ok == c->expected.ok;
        if (agree && c->expected.ok)
            agree = constant->integer == c->expected.value && run.value == c->expected.value;
        else if (agree)
            agree = failure && strcmp(failure, c->expected.message) == 0 &&
                    strcmp(run.failure.message, c->expected.message) == 0;
        if (!agree && disagreements++ < 10)
            fprintf(stderr, "\n  %s: expected %s, const %s, run %s", describe(c, pool),
                    c->expected.ok ? apr_psprintf(pool, "%" PRId64, c->expected.value)
                                   : c->expected.message,
                    const_ok ? apr_psprintf(pool, "%" PRId64, constant->integer)
                             : (failure ? failure : "(no value)"),
                    run_ok ? apr_psprintf(pool, "%" PRId64, run.value) : run.failure.message);
    }
    CU_ASSERT_EQUAL(disagreements, 0);
    spx_fixture_free(fixture);
}

/* The rules the reference could get wrong the same way as the code: spelled
 * out (docs/language.md, "Integers"). */
static void test_spelled_out(void)
{
    int64_t r = 0;
    CU_ASSERT_EQUAL(spx_int_shl(1, 63, &r), SPX_INT_OVERFLOW);
    CU_ASSERT_EQUAL(spx_int_shl(-1, 63, &r), SPX_INT_OK);
    CU_ASSERT_EQUAL(r, INT64_MIN);
    CU_ASSERT_EQUAL(spx_int_shr(-1, 63, &r), SPX_INT_OK);
    CU_ASSERT_EQUAL(r, -1);
    CU_ASSERT_EQUAL(spx_int_shr(INT64_MIN, 63, &r), SPX_INT_OK);
    CU_ASSERT_EQUAL(r, -1);
    CU_ASSERT_EQUAL(spx_int_shr(-7, 1, &r), SPX_INT_OK);
    CU_ASSERT_EQUAL(r, -4);
    CU_ASSERT_EQUAL(spx_int_shl(1, 64, &r), SPX_INT_SHIFT_COUNT);
    CU_ASSERT_EQUAL(spx_int_shr(1, -1, &r), SPX_INT_SHIFT_COUNT);
    CU_ASSERT_EQUAL(spx_int_div(7, -2, &r), SPX_INT_OK);
    CU_ASSERT_EQUAL(r, -3);
    CU_ASSERT_EQUAL(spx_int_rem(-7, 2, &r), SPX_INT_OK);
    CU_ASSERT_EQUAL(r, -1);
    CU_ASSERT_EQUAL(spx_int_div(INT64_MIN, -1, &r), SPX_INT_OVERFLOW);
    CU_ASSERT_EQUAL(spx_int_rem(INT64_MIN, -1, &r), SPX_INT_OK);
    CU_ASSERT_EQUAL(r, 0);
    CU_ASSERT_EQUAL(spx_int_div(1, 0, &r), SPX_INT_DIVISION_BY_ZERO);
    CU_ASSERT_EQUAL(spx_int_neg(INT64_MIN, &r), SPX_INT_OVERFLOW);
    CU_ASSERT_EQUAL(spx_int_apply(SPX_OP_BIT_XOR, -1, 5, &r), SPX_INT_OK);
    CU_ASSERT_EQUAL(r, -6);
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    CU_ASSERT_STRING_EQUAL(spx_int_failure_message(SPX_INT_OVERFLOW, "<<", 1, 63, pool),
                           "integer overflow: 1 << 63");
    CU_ASSERT_STRING_EQUAL(spx_int_failure_message(SPX_INT_DIVISION_BY_ZERO, "%", 7, 0, pool),
                           "remainder by zero: 7 % 0");
    CU_ASSERT_STRING_EQUAL(spx_int_failure_message(SPX_INT_SHIFT_COUNT, ">>", 7, 64, pool),
                           "shift count 64 out of range 0..63");
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"consts and runs agree on the edge values and every shift", test_edges_agree},
        {"the rules spelled out", test_spelled_out},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("integer arithmetic", tests);
}
