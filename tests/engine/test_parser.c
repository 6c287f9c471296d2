/*
 * test_parser.c: the lexer and parser of Semaprax v1 (lexer.c, parser.c),
 * and the tree helpers of ast.c.
 *
 * Two halves. The corpus (tests/corpus/syntax/NAME.spx beside
 * NAME.expected) holds, for each lexical and syntax rule, programs that
 * keep it and programs that break it, with the exact codes and spans they
 * must produce. The tree tests below parse small programs and assert the
 * shape, values and spans of what comes back, and drive the limits with
 * inputs too big for corpus files: nesting 100000 deep, more functions than
 * a module may hold, more errors than a file may report, an oversized file.
 */
#include "spx_ast.h"
#include "spx_corpus.h"
#include "spx_limits.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

typedef struct parsed_t {
    apr_pool_t *pool;
    spx_module_t *module;
    spx_diagnostics_t *diagnostics;
} parsed_t;

static parsed_t parse_bytes(const char *text, apr_size_t length)
{
    parsed_t parsed;
    apr_pool_create(&parsed.pool, NULL);
    parsed.diagnostics = spx_diagnostics_make(parsed.pool);
    spx_arena_t *arena = spx_arena_make(parsed.pool);
    parsed.module = spx_module_make("m", "src/m.spx", (const unsigned char *)text, length, arena);
    spx_parse_module(parsed.module, arena, arena, parsed.pool, parsed.diagnostics);
    spx_diagnostics_sort(parsed.diagnostics);
    return parsed;
}

static parsed_t parse(const char *text)
{
    return parse_bytes(text, strlen(text));
}

static const char *summary(const parsed_t *parsed)
{
    return spx_corpus_summary(parsed->diagnostics, parsed->pool);
}

/* The diagnostics of text are exactly expected (in .expected form). */
static void expect_diagnostics(const char *text, const char *expected)
{
    parsed_t parsed = parse(text);
    const char *actual = summary(&parsed);
    if (strcmp(actual, expected) != 0)
        fprintf(stderr, "\n  %s\n  expected:\n%s  actual:\n%s", text, expected, actual);
    CU_ASSERT_STRING_EQUAL(actual, expected);
    apr_pool_destroy(parsed.pool);
}

/* Every position the parser reports is the one spx_position_at computes:
 * the lexer's incremental line and column agree with the reference. */
static void check_positions(const char *text, apr_size_t length, const spx_diagnostics_t *list)
{
    for (apr_size_t i = 0; i < spx_diagnostics_count(list); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(list, i);
        spx_span_t reference = spx_span_between((const unsigned char *)text, length,
                                                item->span.start.offset, item->span.end.offset);
        CU_ASSERT_EQUAL(item->span.start.line, reference.start.line);
        CU_ASSERT_EQUAL(item->span.start.column, reference.start.column);
        CU_ASSERT_EQUAL(item->span.end.line, reference.end.line);
        CU_ASSERT_EQUAL(item->span.end.column, reference.end.column);
        CU_ASSERT_STRING_EQUAL(item->path, "src/m.spx");
    }
}

static void test_corpus(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    const char *dir = spx_corpus_dir("corpus/syntax", pool);
    apr_array_header_t *names = spx_corpus_list(dir, ".spx", pool);
    CU_ASSERT_TRUE(names->nelts >= 60);
    for (int i = 0; i < names->nelts; i++) {
        const char *file = apr_pstrcat(pool, dir, "/", APR_ARRAY_IDX(names, i, const char *), NULL);
        apr_size_t length;
        const char *text = spx_corpus_read(file, &length, pool);
        parsed_t parsed = parse_bytes(text, length);
        spx_corpus_expect(file, summary(&parsed), pool);
        check_positions(text, length, parsed.diagnostics);
        apr_pool_destroy(parsed.pool);
    }
    apr_pool_destroy(pool);
}

/* ---- tree shape -------------------------------------------------------- */

/* The expression of "fn f() { return EXPR; }" (the program must be valid). */
static const spx_expr_t *returned(const parsed_t *parsed)
{
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(parsed->diagnostics), 0);
    CU_ASSERT_EQUAL_FATAL(parsed->module->function_count, 1);
    const spx_block_t *body = &parsed->module->functions[0]->body;
    CU_ASSERT_EQUAL_FATAL(body->count, 1);
    CU_ASSERT_EQUAL_FATAL(body->statements[0]->kind, SPX_STMT_RETURN);
    CU_ASSERT_PTR_NOT_NULL_FATAL(body->statements[0]->as.return_stmt.value);
    return body->statements[0]->as.return_stmt.value;
}

/* A compact rendering of an expression: (op left right), [op operand],
 * names, integers, calls as m.f(args) or {receiver}.f(args), {base}[i],
 * {base}[i..j], {base}.f, arrays as [a, b], struct literals as
 * m.Name{f: e}. */
static const char *render(const spx_expr_t *expr, apr_pool_t *pool)
{
    static const char *const ops[] = {"||", "&&", "==", "!=", "<", "<=", ">",
                                      ">=", "+",  "-",  "*",  "/", "%",  "-",
                                      "!",  "|",  "^",  "&",  "<<", ">>", "~"};
    switch (expr->kind) {
    case SPX_EXPR_INT:
        return apr_psprintf(pool, "%" PRId64, expr->as.integer);
    case SPX_EXPR_STRING:
        return "\"...\"";
    case SPX_EXPR_BOOL:
        return expr->as.boolean ? "true" : "false";
    case SPX_EXPR_NAME:
        return expr->as.name.name.text;
    case SPX_EXPR_CALL: {
        const char *text = expr->as.call->module.text
                               ? apr_pstrcat(pool, expr->as.call->module.text, ".", NULL)
                               : "";
        if (expr->as.call->receiver)
            text = apr_pstrcat(pool, "{", render(expr->as.call->receiver, pool), "}.", NULL);
        text = apr_pstrcat(pool, text, expr->as.call->function.text, "(", NULL);
        for (apr_size_t i = 0; i < expr->as.call->argument_count; i++)
            text = apr_pstrcat(pool, text, i ? ", " : "", render(expr->as.call->arguments[i], pool),
                               NULL);
        return apr_pstrcat(pool, text, ")", NULL);
    }
    case SPX_EXPR_UNARY:
        return apr_psprintf(pool, "[%s %s]", ops[expr->as.unary.op],
                            render(expr->as.unary.operand, pool));
    case SPX_EXPR_BINARY:
        return apr_psprintf(pool, "(%s %s %s)", ops[expr->as.binary.op],
                            render(expr->as.binary.left, pool),
                            render(expr->as.binary.right, pool));
    case SPX_EXPR_INDEX:
        return apr_psprintf(pool, "{%s}[%s]", render(expr->as.index.base, pool),
                            render(expr->as.index.index, pool));
    case SPX_EXPR_SLICE:
        return apr_psprintf(pool, "{%s}[%s..%s]", render(expr->as.index.base, pool),
                            render(expr->as.index.index, pool), render(expr->as.index.to, pool));
    case SPX_EXPR_FIELD:
        return apr_psprintf(pool, "{%s}.%s", render(expr->as.field.base, pool),
                            expr->as.field.name.text);
    case SPX_EXPR_ARRAY: {
        const char *text = "[";
        for (apr_size_t i = 0; i < expr->as.array.count; i++)
            text = apr_pstrcat(pool, text, i ? ", " : "", render(expr->as.array.elements[i], pool),
                               NULL);
        return apr_pstrcat(pool, text, "]", NULL);
    }
    case SPX_EXPR_STRUCT_LITERAL: {
        const spx_struct_literal_t *literal = expr->as.literal;
        const char *text = literal->module.text
                               ? apr_pstrcat(pool, literal->module.text, ".", NULL)
                               : "";
        text = apr_pstrcat(pool, text, literal->name.text, "{", NULL);
        for (apr_size_t i = 0; i < literal->field_count; i++)
            text = apr_pstrcat(pool, text, i ? ", " : "", literal->fields[i].name.text, ": ",
                               render(literal->fields[i].value, pool), NULL);
        return apr_pstrcat(pool, text, "}", NULL);
    }
    }
    return "?";
}

static void expect_shape(const char *expression, const char *shape)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    parsed_t parsed = parse(apr_pstrcat(pool, "fn f() { return ", expression, "; }", NULL));
    const char *actual = render(returned(&parsed), pool);
    if (strcmp(actual, shape) != 0)
        fprintf(stderr, "\n  %s: got %s, wanted %s\n", expression, actual, shape);
    CU_ASSERT_STRING_EQUAL(actual, shape);
    apr_pool_destroy(parsed.pool);
    apr_pool_destroy(pool);
}

static void test_precedence_and_associativity(void)
{
    expect_shape("1 - 2 - 3", "(- (- 1 2) 3)");
    expect_shape("8 / 4 / 2", "(/ (/ 8 4) 2)");
    expect_shape("1 + 2 * 3", "(+ 1 (* 2 3))");
    expect_shape("1 * 2 + 3 % 4", "(+ (* 1 2) (% 3 4))");
    expect_shape("a || b && c", "(|| a (&& b c))");
    expect_shape("a && b || c", "(|| (&& a b) c)");
    expect_shape("a || b || c", "(|| (|| a b) c)");
    expect_shape("a == b < c", "(== a (< b c))");
    expect_shape("a < b == c >= d", "(== (< a b) (>= c d))");
    expect_shape("a != b && c", "(&& (!= a b) c)");
    expect_shape("1 + 2 < 3 * 4", "(< (+ 1 2) (* 3 4))");
    expect_shape("(1 - 2) - 3", "(- (- 1 2) 3)");
    expect_shape("1 - (2 - 3)", "(- 1 (- 2 3))");
}

static void test_unary_binding(void)
{
    expect_shape("-a * b", "(* [- a] b)");
    expect_shape("!a == b", "(== [! a] b)");
    expect_shape("- -1", "[- [- 1]]");
    expect_shape("--1", "[- [- 1]]");
    expect_shape("!!true", "[! [! true]]");
    expect_shape("a - -b", "(- a [- b])");
    expect_shape("-f(1)", "[- f(1)]");
    expect_shape("-(1 + 2)", "[- (+ 1 2)]");
}

static void test_calls(void)
{
    expect_shape("f()", "f()");
    expect_shape("f(1, g(2), -3)", "f(1, g(2), [- 3])");
    expect_shape("math.add(1, 2) + 3", "(+ math.add(1, 2) 3)");
    expect_shape("itos(len(\"abc\"))", "itos(len(\"...\"))");
}

static void test_integer_literals(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    parsed_t parsed = parse("fn f() { return 9223372036854775807; }");
    const spx_expr_t *expr = returned(&parsed);
    CU_ASSERT_EQUAL(expr->kind, SPX_EXPR_INT);
    CU_ASSERT_EQUAL(expr->as.integer, INT64_MAX);
    apr_pool_destroy(parsed.pool);

    parsed = parse("fn f() { return -9223372036854775807 - 1; }");
    expr = returned(&parsed);
    CU_ASSERT_STRING_EQUAL(render(expr, pool), "(- [- 9223372036854775807] 1)");
    apr_pool_destroy(parsed.pool);

    parsed = parse("fn f() { return 0; }");
    CU_ASSERT_EQUAL(returned(&parsed)->as.integer, 0);
    apr_pool_destroy(parsed.pool);

    expect_diagnostics("fn f() { return 9223372036854775808; }", "E0209 1:17-1:36\n");
    expect_diagnostics("fn f() { return 99999999999999999999999999; }", "E0209 1:17-1:43\n");
    expect_diagnostics("fn f() { return 00; }", "E0208 1:17-1:19\n");
    apr_pool_destroy(pool);
}

static void test_string_escapes(void)
{
    parsed_t parsed = parse("fn f() { return \"a\\n\\t\\\\\\\"\\u{1F600}\\u{0}\\u{e9}z\"; }");
    const spx_expr_t *expr = returned(&parsed);
    static const char wanted[] = "a\n\t\\\"\xf0\x9f\x98\x80\0\xc3\xa9z";
    CU_ASSERT_EQUAL(expr->kind, SPX_EXPR_STRING);
    CU_ASSERT_EQUAL(expr->as.string.length, sizeof(wanted) - 1);
    CU_ASSERT_EQUAL(memcmp(expr->as.string.bytes, wanted, sizeof(wanted) - 1), 0);
    apr_pool_destroy(parsed.pool);

    parsed = parse("fn f() { return \"\\u{10FFFF}\\u{7F}\\u{800}\\u{FFFF}\"; }");
    expr = returned(&parsed);
    static const char edges[] = "\xf4\x8f\xbf\xbf\x7f\xe0\xa0\x80\xef\xbf\xbf";
    CU_ASSERT_EQUAL(expr->as.string.length, sizeof(edges) - 1);
    CU_ASSERT_EQUAL(memcmp(expr->as.string.bytes, edges, sizeof(edges) - 1), 0);
    apr_pool_destroy(parsed.pool);

    parsed = parse("fn f() { return \"\"; }");
    CU_ASSERT_EQUAL(returned(&parsed)->as.string.length, 0);
    apr_pool_destroy(parsed.pool);
}

static void expect_span(spx_span_t span, apr_size_t start_line, apr_size_t start_column,
                        apr_size_t end_line, apr_size_t end_column)
{
    CU_ASSERT_EQUAL(span.start.line, start_line);
    CU_ASSERT_EQUAL(span.start.column, start_column);
    CU_ASSERT_EQUAL(span.end.line, end_line);
    CU_ASSERT_EQUAL(span.end.column, end_column);
}

static void test_spans(void)
{
    const char *text = "import math;\n"
                       "\n"
                       "export fn main(a: int) -> int {\n"
                       "  let x: int = math.add(a, 2) * (a + 1);\n"
                       "  return x;\n"
                       "}\n"
                       "fn g() { }\n";
    parsed_t parsed = parse(text);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(parsed.diagnostics), 0);
    const spx_module_t *module = parsed.module;
    CU_ASSERT_STRING_EQUAL(module->name, "m");
    CU_ASSERT_STRING_EQUAL(module->path, "src/m.spx");
    CU_ASSERT_EQUAL_FATAL(module->import_count, 1);
    CU_ASSERT_STRING_EQUAL(module->imports[0].module.text, "math");
    expect_span(module->imports[0].span, 1, 1, 1, 13);
    expect_span(module->imports[0].module.span, 1, 8, 1, 12);
    CU_ASSERT_PTR_NULL(module->imports[0].target);

    CU_ASSERT_EQUAL_FATAL(module->function_count, 2);
    const spx_function_t *main_fn = module->functions[0];
    CU_ASSERT_STRING_EQUAL(main_fn->name.text, "main");
    CU_ASSERT_TRUE(main_fn->exported);
    CU_ASSERT_PTR_EQUAL(main_fn->module, module);
    expect_span(main_fn->span, 3, 1, 6, 2); /* from "export" to "}" */
    expect_span(main_fn->name.span, 3, 11, 3, 15);
    CU_ASSERT_EQUAL(main_fn->span.start.offset, 14);
    CU_ASSERT_EQUAL(main_fn->span.end.offset, 100);
    CU_ASSERT_EQUAL(main_fn->param_count, 1);
    CU_ASSERT_STRING_EQUAL(main_fn->params[0].name.text, "a");
    CU_ASSERT_EQUAL(main_fn->params[0].type, SPX_TYPE_INT);
    expect_span(main_fn->params[0].type_span, 3, 19, 3, 22);
    CU_ASSERT_EQUAL(main_fn->result, SPX_TYPE_INT);
    expect_span(main_fn->result_span, 3, 27, 3, 30);
    expect_span(main_fn->body.span, 3, 31, 6, 2);
    CU_ASSERT_FALSE(main_fn->incomplete);

    CU_ASSERT_EQUAL_FATAL(main_fn->body.count, 2);
    const spx_stmt_t *let = main_fn->body.statements[0];
    CU_ASSERT_EQUAL(let->kind, SPX_STMT_LET);
    expect_span(let->span, 4, 3, 4, 41);
    CU_ASSERT_TRUE(let->as.binding.has_type);
    CU_ASSERT_EQUAL(let->as.binding.declared, SPX_TYPE_INT);
    expect_span(let->as.binding.type_span, 4, 10, 4, 13);
    const spx_expr_t *product = let->as.binding.value;
    CU_ASSERT_EQUAL_FATAL(product->kind, SPX_EXPR_BINARY);
    expect_span(product->span, 4, 16, 4, 40);
    expect_span(product->as.binary.op_span, 4, 31, 4, 32);
    const spx_expr_t *call = product->as.binary.left;
    CU_ASSERT_EQUAL_FATAL(call->kind, SPX_EXPR_CALL);
    expect_span(call->span, 4, 16, 4, 30);
    CU_ASSERT_STRING_EQUAL(call->as.call->module.text, "math");
    CU_ASSERT_STRING_EQUAL(call->as.call->function.text, "add");
    expect_span(call->as.call->function.span, 4, 21, 4, 24);
    CU_ASSERT_EQUAL(call->as.call->argument_count, 2);
    CU_ASSERT_PTR_NULL(call->as.call->target);
    CU_ASSERT_EQUAL(call->as.call->builtin, SPX_BUILTIN_NONE);
    const spx_expr_t *sum = product->as.binary.right;
    expect_span(sum->span, 4, 33, 4, 40); /* parentheses included */
    expect_span(sum->as.binary.left->span, 4, 34, 4, 35);
    CU_ASSERT_EQUAL(sum->as.binary.left->as.name.slot, -1);

    const spx_function_t *g = module->functions[1];
    CU_ASSERT_FALSE(g->exported);
    CU_ASSERT_EQUAL(g->result, SPX_TYPE_UNIT);
    expect_span(g->result_span, 7, 4, 7, 5); /* the name's span when unit */
    expect_span(g->span, 7, 1, 7, 11);
    CU_ASSERT_EQUAL(g->body.count, 0);
    apr_pool_destroy(parsed.pool);
}

/* CR LF ends a line and a leading byte order mark is skipped; both keep
 * their bytes in columns and offsets. */
static void test_line_ends_and_byte_order_mark(void)
{
    parsed_t parsed = parse("\xef\xbb\xbf"
                            "fn f() -> str {\r\n"
                            "  return \"a\";\r\n"
                            "}\r\n"
                            "export fn g() {}\r\n");
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(parsed.diagnostics), 0);
    CU_ASSERT_EQUAL_FATAL(parsed.module->function_count, 2);
    const spx_function_t *f = parsed.module->functions[0], *g = parsed.module->functions[1];
    expect_span(f->span, 1, 4, 3, 2); /* "fn" after the mark's three bytes */
    CU_ASSERT_EQUAL(f->span.start.offset, 3);
    expect_span(f->name.span, 1, 7, 1, 8);
    CU_ASSERT_EQUAL_FATAL(f->body.count, 1);
    expect_span(f->body.statements[0]->span, 2, 3, 2, 14); /* the CR is no part of it */
    CU_ASSERT_EQUAL(f->body.statements[0]->span.start.offset, 22);
    expect_span(g->span, 4, 1, 4, 17);
    CU_ASSERT_EQUAL(g->span.start.offset, 38);
    apr_pool_destroy(parsed.pool);

    /* A mark anywhere else, a lone CR: at their own bytes. */
    expect_diagnostics("fn f() {}\r\n\xef\xbb\xbf\r\n", "E0215 2:1-2:4\n");
    expect_diagnostics("fn f() {\r\n}\r\r\n", "E0204 2:2-2:3\n");
    expect_diagnostics("\r", "E0204 1:1-1:2\n");
    expect_diagnostics("fn f() {}\r\n\r", "E0204 2:1-2:2\n");
    expect_diagnostics("\xef\xbb", "E0203 1:1-1:3\n"); /* a truncated mark is no mark */
    expect_diagnostics("\xef\xbb\xbf", "");
}

static void test_statements(void)
{
    parsed_t parsed = parse("fn f() {\n"
                            "  var i = 0;\n"
                            "  i = i + 1;\n"
                            "  if a { } else if b { return; } else { g(); }\n"
                            "  while i < 3 { i = i + 1; }\n"
                            "  return;\n"
                            "}\n");
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(parsed.diagnostics), 0);
    const spx_block_t *body = &parsed.module->functions[0]->body;
    CU_ASSERT_EQUAL_FATAL(body->count, 5);
    CU_ASSERT_EQUAL(body->statements[0]->kind, SPX_STMT_VAR);
    CU_ASSERT_FALSE(body->statements[0]->as.binding.has_type);
    CU_ASSERT_EQUAL(body->statements[1]->kind, SPX_STMT_ASSIGN);
    CU_ASSERT_STRING_EQUAL(body->statements[1]->as.assign.name.text, "i");
    const spx_stmt_t *if_stmt = body->statements[2];
    CU_ASSERT_EQUAL_FATAL(if_stmt->kind, SPX_STMT_IF);
    expect_span(if_stmt->span, 4, 3, 4, 47);
    CU_ASSERT_PTR_NULL(if_stmt->as.if_stmt.else_block);
    const spx_stmt_t *else_if = if_stmt->as.if_stmt.else_if;
    CU_ASSERT_PTR_NOT_NULL_FATAL(else_if);
    expect_span(else_if->span, 4, 17, 4, 47);
    CU_ASSERT_EQUAL(else_if->as.if_stmt.then_block.count, 1);
    CU_ASSERT_PTR_NULL(else_if->as.if_stmt.then_block.statements[0]->as.return_stmt.value);
    CU_ASSERT_PTR_NOT_NULL_FATAL(else_if->as.if_stmt.else_block);
    CU_ASSERT_EQUAL(else_if->as.if_stmt.else_block->count, 1);
    CU_ASSERT_EQUAL(else_if->as.if_stmt.else_block->statements[0]->kind, SPX_STMT_EXPR);
    expect_span(else_if->as.if_stmt.else_block->span, 4, 39, 4, 47);
    const spx_stmt_t *while_stmt = body->statements[3];
    CU_ASSERT_EQUAL(while_stmt->kind, SPX_STMT_WHILE);
    CU_ASSERT_EQUAL(while_stmt->as.while_stmt.body.count, 1);
    expect_span(while_stmt->span, 5, 3, 5, 29);
    CU_ASSERT_EQUAL(body->statements[4]->kind, SPX_STMT_RETURN);
    apr_pool_destroy(parsed.pool);
}

static void test_signatures(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    parsed_t parsed = parse("fn a(a: int, s: str) -> bool { return true; }\n"
                            "fn b() {}\n"
                            "fn c() -> int { return 0; }\n"
                            "fn d(s: str) {}\n"
                            "fn e(b: bool) -> str { return \"\"; }\n");
    CU_ASSERT_EQUAL_FATAL(parsed.module->function_count, 5);
    spx_function_t **f = parsed.module->functions;
    CU_ASSERT_STRING_EQUAL(spx_function_signature(f[0], pool), "fn(a: int, s: str) -> bool");
    CU_ASSERT_STRING_EQUAL(spx_function_signature(f[1], pool), "fn()");
    CU_ASSERT_STRING_EQUAL(spx_function_signature(f[2], pool), "fn() -> int");
    CU_ASSERT_STRING_EQUAL(spx_function_signature(f[3], pool), "fn(s: str)");
    CU_ASSERT_STRING_EQUAL(spx_function_signature(f[4], pool), "fn(b: bool) -> str");
    CU_ASSERT_STRING_EQUAL(spx_type_name(SPX_TYPE_INT), "int");
    CU_ASSERT_STRING_EQUAL(spx_type_name(SPX_TYPE_BOOL), "bool");
    CU_ASSERT_STRING_EQUAL(spx_type_name(SPX_TYPE_STR), "str");
    CU_ASSERT_STRING_EQUAL(spx_type_name(SPX_TYPE_UNIT), "unit");
    CU_ASSERT_STRING_EQUAL(spx_type_name(SPX_TYPE_ERROR), "<error>");
    apr_pool_destroy(parsed.pool);
    apr_pool_destroy(pool);
}

/* ---- recovery ---------------------------------------------------------- */

static void test_recovery_keeps_later_items(void)
{
    parsed_t parsed = parse("fn a() { let x = ; }\n"
                            "fn b( { }\n"
                            "fn c() -> int { let y = 1 return y; }\n"
                            "fn d() {}\n");
    CU_ASSERT_STRING_EQUAL(summary(&parsed), "E0220 1:18-1:19\nE0220 2:7-2:8\nE0220 3:27-3:33\n");
    CU_ASSERT_EQUAL_FATAL(parsed.module->function_count, 3); /* b's header failed */
    CU_ASSERT_STRING_EQUAL(parsed.module->functions[0]->name.text, "a");
    CU_ASSERT_TRUE(parsed.module->functions[0]->incomplete);
    CU_ASSERT_EQUAL(parsed.module->functions[0]->body.count, 0);
    const spx_function_t *c = parsed.module->functions[1];
    CU_ASSERT_STRING_EQUAL(c->name.text, "c");
    CU_ASSERT_FALSE(c->incomplete); /* only the ";" was missing: both statements kept */
    CU_ASSERT_EQUAL(c->body.count, 2);
    CU_ASSERT_STRING_EQUAL(parsed.module->functions[2]->name.text, "d");
    apr_pool_destroy(parsed.pool);
}

static void test_one_diagnostic_per_mistake(void)
{
    expect_diagnostics("fn f() { if x + { y(); } return 0; }\nfn g() {}\n", "E0220 1:17-1:18\n");
    expect_diagnostics("fn f() {\n  let x = (1;\n}\nfn g() {}\n", "E0220 2:13-2:14\n");
    expect_diagnostics("fn f() { let s = \"abc\n}\nfn g() {}\n", "E0211 1:18-1:22\n");
    expect_diagnostics("fn f() { return 1 @ 2; }\n", "E0206 1:19-1:20\n");
    expect_diagnostics("fn f() {\n", "E0220 2:1-2:1\n");
    expect_diagnostics("fn f() { if a < b < c { x(); } else { y(); } }\n", "E0221 1:13-1:22\n");
    expect_diagnostics("}}}\nfn f() {}\n", "E0220 1:1-1:2\n");
    expect_diagnostics("import\n", "E0220 2:1-2:1\n");
    expect_diagnostics("import a\nimport b;\n", "E0220 2:1-2:7\n");
}

/* ---- limits ------------------------------------------------------------ */

static char *append(char *at, const char *text)
{
    apr_size_t length = strlen(text);
    memcpy(at, text, length);
    return at + length;
}

/* prefix + inner repeated count times + middle + outer repeated count times
 * + suffix, in pool. */
static const char *nested(apr_pool_t *pool, const char *prefix, const char *inner, apr_size_t count,
                          const char *middle, const char *outer, const char *suffix)
{
    apr_size_t a = strlen(inner), b = strlen(outer);
    apr_size_t size = strlen(prefix) + count * (a + b) + strlen(middle) + strlen(suffix) + 1;
    char *text = apr_palloc(pool, size), *at = text;
    at = append(at, prefix);
    for (apr_size_t i = 0; i < count; i++)
        at = append(at, inner);
    at = append(at, middle);
    for (apr_size_t i = 0; i < count; i++)
        at = append(at, outer);
    *append(at, suffix) = '\0';
    return text;
}

/* One E0225, and the function after the deep one still parsed. */
static void expect_one_depth_error(const char *text)
{
    parsed_t parsed = parse(text);
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 1);
    if (spx_diagnostics_count(parsed.diagnostics) == 1)
        CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(parsed.diagnostics, 0)->code, "E0225");
    CU_ASSERT_EQUAL_FATAL(parsed.module->function_count, 2);
    CU_ASSERT_TRUE(parsed.module->functions[0]->incomplete);
    CU_ASSERT_STRING_EQUAL(parsed.module->functions[1]->name.text, "after");
    CU_ASSERT_EQUAL(parsed.module->functions[1]->body.count, 1);
    apr_pool_destroy(parsed.pool);
}

static void test_deep_nesting_is_one_diagnostic(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    const apr_size_t n = 100000;
    const char *after = "; }\nfn after() { return; }\n";
    expect_one_depth_error(nested(pool, "fn f() -> int { return ", "(", n, "1", ")", after));
    expect_one_depth_error(nested(pool, "fn f() -> int { return ", "-", n, "1", "", after));
    expect_one_depth_error(nested(pool, "fn f() -> int { return ", "!", n, "true", "", after));
    expect_one_depth_error(nested(pool, "fn f() { ", "f(", n, "", ")", after));
    expect_one_depth_error(nested(pool, "fn f() -> int { return 1+", "(1+", n, "1", ")", after));
    expect_one_depth_error(
        nested(pool, "fn f() { ", "if a {", n, "", "}", " }\nfn after() { return; }\n"));
    expect_one_depth_error(
        nested(pool, "fn f() { ", "while a {", n, "", "}", " }\nfn after() { return; }\n"));
    expect_one_depth_error(nested(pool, "fn f() { if a {}", " else if a {}", n, "", "",
                                  " }\nfn after() { return; }\n"));
    apr_pool_destroy(pool);
}

static void test_depth_boundaries(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    /* The body is level 1 and every parenthesis one more: 254 of them put
     * the literal at level 256, the limit. */
    parsed_t parsed =
        parse(nested(pool, "fn f() { return ", "(", SPX_LIMIT_PARSE_DEPTH - 2, "1", ")", "; }"));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    apr_pool_destroy(parsed.pool);
    expect_diagnostics(
        nested(pool, "fn f() { return ", "(", SPX_LIMIT_PARSE_DEPTH - 1, "1", ")", "; }"),
        "E0225 1:272-1:273\n");
    /* A flat chain is not nesting: 100000 operators, no diagnostic. Its
     * right operands are one level below the chain, so inside 253
     * parentheses it fits and inside 254 its first right operand is E0225. */
    parsed = parse(nested(pool, "fn f() { return 1", "+1", 100000, "", "", "; }"));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    apr_pool_destroy(parsed.pool);
    parsed = parse(apr_pstrcat(
        pool, nested(pool, "fn f() { return ", "(", SPX_LIMIT_PARSE_DEPTH - 3, "1", "", ""),
        nested(pool, "", "+1", 1000, "", "", ""),
        nested(pool, "", ")", SPX_LIMIT_PARSE_DEPTH - 3, "", "", "; }"), NULL));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    apr_pool_destroy(parsed.pool);
    expect_diagnostics(
        apr_pstrcat(pool,
                    nested(pool, "fn f() { return ", "(", SPX_LIMIT_PARSE_DEPTH - 2, "1", "", ""),
                    nested(pool, "", "+1", 1000, "", "", ""),
                    nested(pool, "", ")", SPX_LIMIT_PARSE_DEPTH - 2, "", "", "; }"), NULL),
        "E0225 1:273-1:274\n");
    /* Unary operators: 255 minuses put the literal at 257. */
    parsed =
        parse(nested(pool, "fn f() { return ", "-", SPX_LIMIT_PARSE_DEPTH - 2, "1", "", "; }"));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    apr_pool_destroy(parsed.pool);
    expect_diagnostics(
        nested(pool, "fn f() { return ", "-", SPX_LIMIT_PARSE_DEPTH - 1, "1", "", "; }"),
        "E0225 1:272-1:273\n");
    apr_pool_destroy(pool);
}

static void test_too_many_functions(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    const char *text = nested(pool, "", "fn f() {}\n", SPX_LIMIT_FUNCTIONS_PER_MODULE, "", "",
                              "fn g() {}\nfn h() {}\n");
    parsed_t parsed = parse(text);
    char *expected = apr_psprintf(pool, "E0226 %u:4-%u:5\n", SPX_LIMIT_FUNCTIONS_PER_MODULE + 1,
                                  SPX_LIMIT_FUNCTIONS_PER_MODULE + 1);
    CU_ASSERT_STRING_EQUAL(summary(&parsed), expected);
    CU_ASSERT_EQUAL(parsed.module->function_count, SPX_LIMIT_FUNCTIONS_PER_MODULE);
    apr_pool_destroy(parsed.pool);
    /* At the limit exactly: no diagnostic. */
    parsed = parse(nested(pool, "", "fn f() {}\n", SPX_LIMIT_FUNCTIONS_PER_MODULE, "", "", ""));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    CU_ASSERT_EQUAL(parsed.module->function_count, SPX_LIMIT_FUNCTIONS_PER_MODULE);
    apr_pool_destroy(parsed.pool);
    apr_pool_destroy(pool);
}

static void test_too_many_errors(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    /* One lone CR per line of a long file: the budget, then one E0227. */
    parsed_t parsed = parse(nested(pool, "", "fn f() {}\r\r\n", 1000, "", "", ""));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), SPX_LIMIT_SYNTAX_DIAGNOSTICS + 1);
    const spx_diagnostic_t *last =
        spx_diagnostics_get(parsed.diagnostics, spx_diagnostics_count(parsed.diagnostics) - 1);
    CU_ASSERT_STRING_EQUAL(last->code, "E0227");
    CU_ASSERT_EQUAL(last->span.start.line, SPX_LIMIT_SYNTAX_DIAGNOSTICS + 1);
    CU_ASSERT_EQUAL(parsed.module->function_count, SPX_LIMIT_SYNTAX_DIAGNOSTICS + 1);
    apr_pool_destroy(parsed.pool);
    /* Exactly the budget: no E0227. */
    parsed = parse(nested(pool, "", "fn f() {}\r\r\n", SPX_LIMIT_SYNTAX_DIAGNOSTICS, "", "", ""));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), SPX_LIMIT_SYNTAX_DIAGNOSTICS);
    apr_pool_destroy(parsed.pool);
    apr_pool_destroy(pool);
}

static void test_source_size_limit(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    apr_size_t length = SPX_LIMIT_SOURCE_BYTES + 1;
    char *text = apr_palloc(pool, length);
    memset(text, ' ', length);
    memcpy(text, "fn f() {}", 9);
    parsed_t parsed = parse_bytes(text, length);
    CU_ASSERT_STRING_EQUAL(summary(&parsed), "E0201 1:1-1:1\n");
    CU_ASSERT_EQUAL(parsed.module->function_count, 0);
    apr_pool_destroy(parsed.pool);
    parsed = parse_bytes(text, length - 1); /* the limit itself is fine */
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    CU_ASSERT_EQUAL(parsed.module->function_count, 1);
    apr_pool_destroy(parsed.pool);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"corpus: every lexical and syntax rule", test_corpus},
        {"precedence and associativity", test_precedence_and_associativity},
        {"unary operators bind tighter than binary", test_unary_binding},
        {"calls, plain and qualified", test_calls},
        {"integer literals up to 2^63-1", test_integer_literals},
        {"string escapes decoded exactly", test_string_escapes},
        {"spans of items, statements and expressions", test_spans},
        {"CR LF line ends and a leading byte order mark", test_line_ends_and_byte_order_mark},
        {"statements", test_statements},
        {"signatures and type names", test_signatures},
        {"recovery keeps later items", test_recovery_keeps_later_items},
        {"one diagnostic per mistake", test_one_diagnostic_per_mistake},
        {"100000-deep nesting is one diagnostic", test_deep_nesting_is_one_diagnostic},
        {"depth limit boundaries", test_depth_boundaries},
        {"too many functions", test_too_many_functions},
        {"too many errors", test_too_many_errors},
        {"source size limit", test_source_size_limit},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("parser", tests);
}
