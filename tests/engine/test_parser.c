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
    static const char *const ops[] = {"||", "&&", "==", "!=", "<", "<=", ">", ">=", "+",  "-", "*",
                                      "/",  "%",  "-",  "!",  "|", "^",  "&", "<<", ">>", "~"};
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
        const char *text =
            literal->module.text ? apr_pstrcat(pool, literal->module.text, ".", NULL) : "";
        text = apr_pstrcat(pool, text, literal->name.text, "{", NULL);
        for (apr_size_t i = 0; i < literal->field_count; i++)
            text = apr_pstrcat(pool, text, i ? ", " : "", literal->fields[i].name.text, ": ",
                               render(literal->fields[i].value, pool), NULL);
        return apr_pstrcat(pool, text, "}", NULL);
    }
    case SPX_EXPR_VARIANT: /* made by the checker, never by the parser */
        break;
    case SPX_EXPR_MAP: {
        const char *text = "{";
        for (apr_size_t i = 0; i < expr->as.map.count; i++)
            text = apr_pstrcat(pool, text, i ? ", " : "", render(expr->as.map.keys[i], pool), ": ",
                               render(expr->as.map.values[i], pool), NULL);
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
    /* Language v2: each postfix operator is a level, and so is each "[" of a
     * type. */
    expect_one_depth_error(nested(pool, "fn f() -> int { return a", "[0]", n, "", "", after));
    expect_one_depth_error(nested(pool, "fn f() -> int { return a", ".b", n, "", "", after));
    expect_one_depth_error(nested(pool, "fn f() -> int { return a", ".pop()", n, "", "", after));
    expect_one_depth_error(nested(pool, "fn f() -> int { return ", "[", n, "1", "]", after));
    expect_one_depth_error(nested(pool, "fn f() -> int { return ", "a[", n, "1", "]", after));
    expect_one_depth_error(nested(pool, "fn f() -> int { return ", "P { x: ", n, "1", " }", after));
    expect_one_depth_error(
        nested(pool, "fn f() { ", "for i in 0..3 {", n, "", "}", " }\nfn after() { return; }\n"));
    expect_one_depth_error(
        nested(pool, "fn f() { let a: ", "[", n, "int", "]", " = 1; }\nfn after() { return; }\n"));
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

/* ---- language v2 ------------------------------------------------------- */

/* The single statement of "fn f() { STATEMENT }" (the program must be valid). */
static const spx_stmt_t *only_statement(const parsed_t *parsed)
{
    if (spx_diagnostics_count(parsed->diagnostics) != 0)
        fprintf(stderr, "\n  unexpected:\n%s",
                spx_corpus_summary(parsed->diagnostics, parsed->pool));
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(parsed->diagnostics), 0);
    CU_ASSERT_EQUAL_FATAL(parsed->module->function_count, 1);
    const spx_block_t *body = &parsed->module->functions[0]->body;
    CU_ASSERT_EQUAL_FATAL(body->count, 1);
    return body->statements[0];
}

static void test_v2_precedence(void)
{
    /* Rust's table: || && (== !=) (< <= > >=) | ^ & (<< >>) (+ -) (* / %). */
    expect_shape("x & 1 == 0", "(== (& x 1) 0)");
    expect_shape("0 == x & 1", "(== 0 (& x 1))");
    expect_shape("a | b ^ c & d", "(| a (^ b (& c d)))");
    expect_shape("a & b ^ c | d", "(| (^ (& a b) c) d)");
    expect_shape("a << 1 + 2", "(<< a (+ 1 2))");
    expect_shape("a + b << c", "(<< (+ a b) c)");
    expect_shape("1 << 2 * 3", "(<< 1 (* 2 3))");
    expect_shape("a & b << c", "(& a (<< b c))");
    expect_shape("a < b | c", "(< a (| b c))");
    expect_shape("a | b < c", "(< (| a b) c)");
    expect_shape("a == b | c", "(== a (| b c))");
    expect_shape("a && b | c", "(&& a (| b c))");
    expect_shape("a || b ^ c", "(|| a (^ b c))");
    expect_shape("a >> 2 >> 1", "(>> (>> a 2) 1)");
    expect_shape("a ^ b ^ c", "(^ (^ a b) c)");
    expect_shape("a | b | c", "(| (| a b) c)");
    expect_shape("a<<b>>c", "(>> (<< a b) c)");
    expect_shape("a <= b", "(<= a b)");
    /* Unary operators bind looser than postfix ones, tighter than binary. */
    expect_shape("~a & b", "(& [~ a] b)");
    expect_shape("~~a", "[~ [~ a]]");
    expect_shape("-a[0]", "[- {a}[0]]");
    expect_shape("!p.ok", "[! {p}.ok]");
    expect_shape("-x.y * 2", "(* [- {x}.y] 2)");
    expect_shape("~xs[1..2][0]", "[~ {{xs}[1..2]}[0]]");
    /* Comparisons still do not chain, bitwise operators between them or not. */
    expect_diagnostics("fn f() { return a < b | c < d; }", "E0221 1:17-1:30\n");
    expect_diagnostics("fn f() { return a == b & c == d; }", "E0222 1:17-1:32\n");
}

static void test_v2_postfix_and_literals(void)
{
    expect_shape("a[0][1]", "{{a}[0]}[1]");
    expect_shape("a.b.c", "{{a}.b}.c");
    expect_shape("a[i + 1]", "{a}[(+ i 1)]");
    expect_shape("s[1..len(s)]", "{s}[1..len(s)]");
    expect_shape("\"abc\"[0]", "{\"...\"}[0]");
    expect_shape("f()[0].x", "{{f()}[0]}.x");
    expect_shape("m.f(1).x", "{m.f(1)}.x");
    expect_shape("m.X", "{m}.X");
    expect_shape("m.X + 1", "(+ {m}.X 1)");
    expect_shape("(a).b", "{a}.b");
    /* IDENT.IDENT( is a call with a first name (a module or a local); any
     * other receiver is kept as an expression. */
    expect_shape("xs.push(1)", "xs.push(1)");
    expect_shape("xs.pop()", "xs.pop()");
    expect_shape("a[0].push(1)", "{{a}[0]}.push(1)");
    expect_shape("a.b.pop()", "{{a}.b}.pop()");
    expect_shape("(a).pop()", "{a}.pop()");
    expect_shape("[1, 2][0]", "{[1, 2]}[0]");
    expect_shape("[]", "[]");
    expect_shape("[1]", "[1]");
    expect_shape("[1, 2,]", "[1, 2]");
    expect_shape("[[1], [], [a[0]]]", "[[1], [], [{a}[0]]]");
    expect_shape("P { x: 1, y: 2 }", "P{x: 1, y: 2}");
    expect_shape("P { x: 1, }", "P{x: 1}");
    expect_shape("geo.P { x: 1 }", "geo.P{x: 1}");
    expect_shape("P { x: [1], y: Q { z: -1 } }", "P{x: [1], y: Q{z: [- 1]}}");
    expect_shape("P { x: 1 }.x", "{P{x: 1}}.x");
    expect_shape("P", "P");
    expect_shape("geo.P", "{geo}.P");
    /* A struct literal's span is from the name to "}". */
    parsed_t parsed = parse("fn f() { return geo.P { x: 1 }[0]; }");
    const spx_expr_t *index = returned(&parsed);
    CU_ASSERT_EQUAL_FATAL(index->kind, SPX_EXPR_INDEX);
    expect_span(index->span, 1, 17, 1, 34);
    const spx_expr_t *literal = index->as.index.base;
    CU_ASSERT_EQUAL_FATAL(literal->kind, SPX_EXPR_STRUCT_LITERAL);
    expect_span(literal->span, 1, 17, 1, 31);
    expect_span(literal->as.literal->module.span, 1, 17, 1, 20);
    expect_span(literal->as.literal->name.span, 1, 21, 1, 22);
    expect_span(literal->as.literal->fields[0].name.span, 1, 25, 1, 26);
    apr_pool_destroy(parsed.pool);
    parsed = parse("fn f() { return (xs)[1..2]; }");
    const spx_expr_t *slice = returned(&parsed);
    CU_ASSERT_EQUAL_FATAL(slice->kind, SPX_EXPR_SLICE);
    expect_span(slice->span, 1, 17, 1, 27);
    expect_span(slice->as.index.to->span, 1, 25, 1, 26);
    apr_pool_destroy(parsed.pool);
}

static void test_v2_integer_literals(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    static const struct {
        const char *text;
        int64_t value;
    } good[] = {
        {"0x1F", 31},
        {"0xff", 255},
        {"0x0", 0},
        {"0xffff_ffff", 4294967295},
        {"1_000", 1000},
        {"1_2_3", 123},
        {"0x7fff_ffff_ffff_ffff", INT64_MAX},
        {"9_223_372_036_854_775_807", INT64_MAX},
    };
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        parsed_t parsed = parse(apr_pstrcat(pool, "fn f() { return ", good[i].text, "; }", NULL));
        const spx_expr_t *expr = returned(&parsed);
        CU_ASSERT_EQUAL(expr->kind, SPX_EXPR_INT);
        CU_ASSERT_EQUAL(expr->as.integer, good[i].value);
        apr_pool_destroy(parsed.pool);
    }
    /* A literal directly followed by a letter, digit or "_" is one E0216
     * over the whole run. */
    expect_diagnostics("fn f() { return 12ab; }", "E0216 1:17-1:21\n");
    expect_diagnostics("fn f() { return 0x1g; }", "E0216 1:17-1:21\n");
    expect_diagnostics("fn f() { return 1__0; }", "E0216 1:17-1:21\n");
    expect_diagnostics("fn f() { return 1_; }", "E0216 1:17-1:19\n");
    expect_diagnostics("fn f() { return 0x; }", "E0216 1:17-1:19\n");
    expect_diagnostics("fn f() { return 0x_1; }", "E0216 1:17-1:21\n");
    expect_diagnostics("fn f() { return 0X1; }", "E0216 1:17-1:20\n");
    expect_diagnostics("fn f() { return 0_1; }", "E0216 1:17-1:20\n");
    expect_diagnostics("fn f() { return 0a; }", "E0216 1:17-1:19\n");
    expect_diagnostics("fn f() { return 1e5; }", "E0216 1:17-1:20\n");
    expect_diagnostics("fn f() { return 0x8000000000000000; }", "E0209 1:17-1:35\n");
    expect_diagnostics("fn f() { return 9_223_372_036_854_775_808; }", "E0209 1:17-1:42\n");
    expect_diagnostics("fn f() { return 007; }", "E0208 1:17-1:20\n");
    expect_diagnostics("fn f() { return 1.5; }", "E0220 1:19-1:20\n");
    /* ".." after a literal is the range, not part of it. */
    parsed_t parsed = parse("fn f() { for i in 0..10 { } }");
    const spx_stmt_t *loop = only_statement(&parsed);
    CU_ASSERT_EQUAL(loop->as.for_stmt.from->as.integer, 0);
    CU_ASSERT_EQUAL(loop->as.for_stmt.to->as.integer, 10);
    apr_pool_destroy(parsed.pool);
    apr_pool_destroy(pool);
}

static void test_v2_statements(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    parsed_t parsed = parse("fn f() {\n"
                            "  for i in 0..n { continue; }\n"
                            "  for x in xs { break; }\n"
                            "  a[i].f[j] = 3;\n"
                            "  x = 1;\n"
                            "  xs.push(x);\n"
                            "}\n");
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(parsed.diagnostics), 0);
    const spx_block_t *body = &parsed.module->functions[0]->body;
    CU_ASSERT_EQUAL_FATAL(body->count, 5);
    const spx_stmt_t *range = body->statements[0];
    CU_ASSERT_EQUAL_FATAL(range->kind, SPX_STMT_FOR);
    CU_ASSERT_STRING_EQUAL(range->as.for_stmt.variable.text, "i");
    expect_span(range->as.for_stmt.variable.span, 2, 7, 2, 8);
    CU_ASSERT_STRING_EQUAL(render(range->as.for_stmt.to, pool), "n");
    expect_span(range->span, 2, 3, 2, 30);
    CU_ASSERT_EQUAL_FATAL(range->as.for_stmt.body.count, 1);
    CU_ASSERT_EQUAL(range->as.for_stmt.body.statements[0]->kind, SPX_STMT_CONTINUE);
    expect_span(range->as.for_stmt.body.statements[0]->span, 2, 19, 2, 28);
    const spx_stmt_t *each = body->statements[1];
    CU_ASSERT_EQUAL_FATAL(each->kind, SPX_STMT_FOR);
    CU_ASSERT_PTR_NULL(each->as.for_stmt.to);
    CU_ASSERT_STRING_EQUAL(render(each->as.for_stmt.from, pool), "xs");
    CU_ASSERT_EQUAL(each->as.for_stmt.body.statements[0]->kind, SPX_STMT_BREAK);
    const spx_stmt_t *place = body->statements[2];
    CU_ASSERT_EQUAL_FATAL(place->kind, SPX_STMT_ASSIGN);
    CU_ASSERT_STRING_EQUAL(place->as.assign.name.text, "a");
    expect_span(place->as.assign.name.span, 4, 3, 4, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(place->as.assign.place);
    CU_ASSERT_STRING_EQUAL(render(place->as.assign.place, pool), "{{{a}[i]}.f}[j]");
    expect_span(place->span, 4, 3, 4, 17);
    CU_ASSERT_EQUAL(body->statements[3]->kind, SPX_STMT_ASSIGN);
    CU_ASSERT_PTR_NULL(body->statements[3]->as.assign.place);
    CU_ASSERT_EQUAL(body->statements[4]->kind, SPX_STMT_EXPR);
    apr_pool_destroy(parsed.pool);

    /* Struct literals in headers: "Name {" there is a name and the body. */
    parsed = parse("fn f() { while i < LIMIT { i = i + 1; } }");
    const spx_stmt_t *loop = only_statement(&parsed);
    CU_ASSERT_STRING_EQUAL(render(loop->as.while_stmt.condition, pool), "(< i LIMIT)");
    CU_ASSERT_EQUAL(loop->as.while_stmt.body.count, 1);
    apr_pool_destroy(parsed.pool);
    parsed = parse("fn f() { for i in 0..LIMIT { } }");
    CU_ASSERT_STRING_EQUAL(render(only_statement(&parsed)->as.for_stmt.to, pool), "LIMIT");
    apr_pool_destroy(parsed.pool);
    parsed = parse("fn f() { for p in geo.Points { } }");
    CU_ASSERT_STRING_EQUAL(render(only_statement(&parsed)->as.for_stmt.from, pool), "{geo}.Points");
    apr_pool_destroy(parsed.pool);
    parsed = parse("fn f() { if x == P { } }");
    CU_ASSERT_STRING_EQUAL(render(only_statement(&parsed)->as.if_stmt.condition, pool), "(== x P)");
    apr_pool_destroy(parsed.pool);
    /* ... but inside ( ), [ ] or call arguments a literal is one again. */
    static const struct {
        const char *program;
        const char *condition;
    } enclosed[] = {
        {"fn f() { if p == (P { x: 1 }) { } }", "(== p P{x: 1})"},
        {"fn f() { if g(P { x: 1 }) { } }", "g(P{x: 1})"},
        {"fn f() { if xs == [geo.P { x: 1 }] { } }", "(== xs [geo.P{x: 1}])"},
        {"fn f() { while a[P { x: 1 }.x] { } }", "{a}[{P{x: 1}}.x]"},
        {"fn f() { while m.g(P { x: 1 }) { } }", "m.g(P{x: 1})"},
    };
    for (size_t i = 0; i < sizeof(enclosed) / sizeof(enclosed[0]); i++) {
        parsed = parse(enclosed[i].program);
        const spx_stmt_t *stmt = only_statement(&parsed);
        const spx_expr_t *condition =
            stmt->kind == SPX_STMT_IF ? stmt->as.if_stmt.condition : stmt->as.while_stmt.condition;
        CU_ASSERT_STRING_EQUAL(render(condition, pool), enclosed[i].condition);
        apr_pool_destroy(parsed.pool);
    }
    parsed = parse("fn f() { for x in [P { x: 1 }] { } }");
    CU_ASSERT_STRING_EQUAL(render(only_statement(&parsed)->as.for_stmt.from, pool), "[P{x: 1}]");
    apr_pool_destroy(parsed.pool);
    /* Outside a header a literal may follow a comparison. */
    parsed = parse("fn f() { let b = p == P { x: 1 }; }");
    CU_ASSERT_STRING_EQUAL(render(only_statement(&parsed)->as.binding.value, pool),
                           "(== p P{x: 1})");
    apr_pool_destroy(parsed.pool);
    /* In a header, the would-be literal's "{" opens the body: one E0220 at
     * "x:", saying to use parentheses, and the block after it is the body. */
    expect_diagnostics("fn f() { if p == P { x: 1 } { } }", "E0220 1:22-1:24\n");
    expect_diagnostics("fn f() { while p != geo.P { x: 1, y: 2 } { g(); } }\nfn h() {}\n",
                       "E0220 1:29-1:31\n");
    expect_diagnostics("fn f() { for q in P { x: 1 } { } }", "E0220 1:23-1:25\n");
    parsed = parse("fn f() { if p == P { x: 1 } { g(); h(); } }");
    const spx_stmt_t *stmt = parsed.module->functions[0]->body.statements[0];
    CU_ASSERT_EQUAL(stmt->as.if_stmt.then_block.count, 2);
    apr_pool_destroy(parsed.pool);
    /* "x:" elsewhere is the usual E0220. */
    expect_diagnostics("fn f() { g(); x: 1; }", "E0220 1:16-1:17\n");
    apr_pool_destroy(pool);
}

/* ast.c's walk: the expressions a v2 statement holds, in source order. */
static void collect_rendered(void *context, const spx_expr_t *expression)
{
    apr_array_header_t *list = context;
    APR_ARRAY_PUSH(list, const char *) = render(expression, list->pool);
}

static void test_v2_visit_expressions(void)
{
    parsed_t parsed = parse("fn f() {\n"
                            "  for i in a..b { x[i].f = g(i); break; }\n"
                            "  for y in ys { continue; }\n"
                            "}\n");
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(parsed.diagnostics), 0);
    apr_array_header_t *list = apr_array_make(parsed.pool, 8, sizeof(const char *));
    spx_block_visit_expressions(&parsed.module->functions[0]->body, collect_rendered, list);
    CU_ASSERT_STRING_EQUAL(apr_array_pstrcat(parsed.pool, list, ' '), "a b {{x}[i]}.f g(i) ys");
    apr_pool_destroy(parsed.pool);
}

static void test_v2_items(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    parsed_t parsed = parse("import geo;\n"
                            "export struct P { x: int, ys: [[str]], q: geo.Q, }\n"
                            "struct Node { kids: [Node] }\n"
                            "const N: int = 1 << 3;\n"
                            "export const S: str = \"x\";\n"
                            "fn f(p: P, xs: [int]) -> [P] { let q: geo.Q = p; return []; }\n");
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(parsed.diagnostics), 0);
    const spx_module_t *module = parsed.module;
    CU_ASSERT_EQUAL_FATAL(module->struct_count, 2);
    const spx_struct_t *p = module->structs[0];
    CU_ASSERT_STRING_EQUAL(p->name.text, "P");
    CU_ASSERT_TRUE(p->exported);
    CU_ASSERT_PTR_EQUAL(p->module, module);
    expect_span(p->span, 2, 1, 2, 51);
    CU_ASSERT_EQUAL_FATAL(p->field_count, 3);
    CU_ASSERT_STRING_EQUAL(p->fields[0].name.text, "x");
    CU_ASSERT_EQUAL(p->fields[0].type, SPX_TYPE_INT);
    CU_ASSERT_PTR_NULL(p->fields[0].type_syntax);
    const spx_type_syntax_t *ys = p->fields[1].type_syntax;
    CU_ASSERT_PTR_NOT_NULL_FATAL(ys);
    CU_ASSERT_EQUAL(p->fields[1].type, SPX_TYPE_ERROR);
    CU_ASSERT_EQUAL(ys->kind, SPX_TYPE_SYNTAX_ARRAY);
    expect_span(ys->span, 2, 31, 2, 38);
    expect_span(p->fields[1].type_span, 2, 31, 2, 38);
    CU_ASSERT_EQUAL_FATAL(ys->element->kind, SPX_TYPE_SYNTAX_ARRAY);
    CU_ASSERT_EQUAL_FATAL(ys->element->element->kind, SPX_TYPE_SYNTAX_BASIC);
    CU_ASSERT_EQUAL(ys->element->element->basic, SPX_TYPE_STR);
    expect_span(ys->element->element->span, 2, 33, 2, 36);
    const spx_type_syntax_t *q = p->fields[2].type_syntax;
    CU_ASSERT_EQUAL_FATAL(q->kind, SPX_TYPE_SYNTAX_STRUCT);
    CU_ASSERT_STRING_EQUAL(q->module.text, "geo");
    CU_ASSERT_STRING_EQUAL(q->name.text, "Q");
    expect_span(q->span, 2, 43, 2, 48);
    const spx_struct_t *node = module->structs[1];
    CU_ASSERT_FALSE(node->exported);
    CU_ASSERT_EQUAL_FATAL(node->fields[0].type_syntax->kind, SPX_TYPE_SYNTAX_ARRAY);
    CU_ASSERT_EQUAL(node->fields[0].type_syntax->element->kind, SPX_TYPE_SYNTAX_STRUCT);
    CU_ASSERT_PTR_NULL(node->fields[0].type_syntax->element->module.text);
    CU_ASSERT_STRING_EQUAL(node->fields[0].type_syntax->element->name.text, "Node");
    CU_ASSERT_EQUAL_FATAL(module->const_count, 2);
    const spx_const_t *n = module->consts[0];
    CU_ASSERT_STRING_EQUAL(n->name.text, "N");
    CU_ASSERT_FALSE(n->exported);
    CU_ASSERT_EQUAL(n->type, SPX_TYPE_INT);
    CU_ASSERT_STRING_EQUAL(render(n->value, pool), "(<< 1 3)");
    expect_span(n->span, 4, 1, 4, 23);
    const spx_const_t *str = module->consts[1];
    CU_ASSERT_TRUE(str->exported);
    CU_ASSERT_EQUAL(str->value->kind, SPX_EXPR_STRING);
    CU_ASSERT_EQUAL(str->value->as.string.length, 1);
    expect_span(str->span, 5, 1, 5, 27);
    CU_ASSERT_EQUAL_FATAL(module->function_count, 1);
    const spx_function_t *f = module->functions[0];
    CU_ASSERT_EQUAL(f->params[0].type_syntax->kind, SPX_TYPE_SYNTAX_STRUCT);
    CU_ASSERT_EQUAL(f->params[1].type_syntax->kind, SPX_TYPE_SYNTAX_ARRAY);
    CU_ASSERT_EQUAL(f->result, SPX_TYPE_ERROR);
    CU_ASSERT_EQUAL(f->result_syntax->kind, SPX_TYPE_SYNTAX_ARRAY);
    expect_span(f->result_span, 6, 26, 6, 29);
    const spx_stmt_t *let = f->body.statements[0];
    CU_ASSERT_EQUAL(let->as.binding.type_syntax->kind, SPX_TYPE_SYNTAX_STRUCT);
    expect_span(let->as.binding.type_span, 6, 39, 6, 44);
    apr_pool_destroy(parsed.pool);

    /* The value of a const lives with the declarations when bodies are
     * parsed into an arena of their own. */
    apr_pool_t *own;
    apr_pool_create(&own, NULL);
    spx_arena_t *arena = spx_arena_make(own), *bodies = spx_arena_make(own);
    const char *text = "const S: str = \"abc\";\nfn f() { let t = \"de\"; }\n";
    spx_module_t *module2 =
        spx_module_make("m", "src/m.spx", (const unsigned char *)text, strlen(text), arena);
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(own);
    spx_parse_module(module2, arena, bodies, own, diagnostics);
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 0);
    CU_ASSERT_EQUAL_FATAL(module2->const_count, 1);
    spx_arena_clear(bodies);
    CU_ASSERT_EQUAL(memcmp(module2->consts[0]->value->as.string.bytes, "abc", 3), 0);
    apr_pool_destroy(own);
    apr_pool_destroy(pool);
}

static void test_v2_syntax_errors(void)
{
    /* Items. */
    expect_diagnostics("struct P {}\n", "E0220 1:11-1:12\n");
    expect_diagnostics("struct p { x: int }\n", "E0230 1:8-1:9\n");
    expect_diagnostics("struct P { x int }\nfn g() {}\n", "E0220 1:14-1:17\n");
    expect_diagnostics("struct P { x: int y: int }\n", "E0220 1:19-1:20\n");
    expect_diagnostics("const N = 1;\n", "E0220 1:9-1:10\n");
    expect_diagnostics("const N: int 1;\n", "E0220 1:14-1:15\n");
    expect_diagnostics("const N: int = 1\nfn g() {}\n", "E0220 2:1-2:3\n");
    expect_diagnostics("const N: int = ;\n", "E0220 1:16-1:17\n");
    expect_diagnostics("export let x = 1;\n", "E0220 1:8-1:11\n");
    expect_diagnostics("let x = 1;\nfn g() {}\n", "E0220 1:1-1:4\n");
    /* Items that fail are left out, their names remembered. */
    parsed_t parsed = parse("struct P { x int }\nconst N: int = ;\nstruct Q { x: int }\n"
                            "const M: int = 1;\nstruct {}\n");
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 3);
    CU_ASSERT_EQUAL_FATAL(parsed.module->struct_count, 1);
    CU_ASSERT_STRING_EQUAL(parsed.module->structs[0]->name.text, "Q");
    CU_ASSERT_EQUAL_FATAL(parsed.module->const_count, 1);
    CU_ASSERT_STRING_EQUAL(parsed.module->consts[0]->name.text, "M");
    CU_ASSERT_EQUAL_FATAL(parsed.module->unreadable_item_count, 2);
    CU_ASSERT_STRING_EQUAL(parsed.module->unreadable_items[0], "P");
    CU_ASSERT_STRING_EQUAL(parsed.module->unreadable_items[1], "N");
    CU_ASSERT_EQUAL(parsed.module->unreadable_function_count, 0);
    apr_pool_destroy(parsed.pool);
    /* Types. */
    expect_diagnostics("fn f(a: [int) {}\n", "E0220 1:13-1:14\n");
    expect_diagnostics("fn f(a: []) {}\n", "E0224 1:10-1:11\n");
    expect_diagnostics("fn f(a: geo.p) {}\n", "E0224 1:13-1:14\n");
    expect_diagnostics("fn f(a: [unit]) {}\n", "E0224 1:10-1:14\n");
    expect_diagnostics("fn f(a: string) {}\n", "E0224 1:9-1:15\n");
    /* Statements. */
    expect_diagnostics("fn f() { g() = 1; }\n", "E0229 1:10-1:13\n");
    expect_diagnostics("fn f() { (a) = 1; }\n", "E0229 1:10-1:13\n");
    expect_diagnostics("fn f() { (a[0]) = 1; }\n", "E0229 1:10-1:16\n");
    expect_diagnostics("fn f() { (a).x = 1; }\n", "E0229 1:10-1:15\n");
    expect_diagnostics("fn f() { a[0..1] = x; }\n", "E0229 1:10-1:17\n");
    expect_diagnostics("fn f() { a + b = c; }\n", "E0229 1:10-1:15\n");
    expect_diagnostics("fn f() { 1 = 2; }\n", "E0229 1:10-1:11\n");
    expect_diagnostics("fn f() { f().x = 2; }\n", "E0229 1:10-1:15\n");
    expect_diagnostics("fn f() { for in xs { } }\n", "E0220 1:14-1:16\n");
    expect_diagnostics("fn f() { for i 0..3 { } }\n", "E0220 1:16-1:17\n");
    expect_diagnostics("fn f() { for i in 0.. { } }\n", "E0220 1:23-1:24\n");
    expect_diagnostics("fn f() { for i in 0..3; }\n", "E0220 1:23-1:24\n");
    expect_diagnostics("fn f() { while true { break } }\n", "E0220 1:29-1:30\n");
    expect_diagnostics("fn f() { while true { continue 1; } }\n", "E0220 1:32-1:33\n");
    /* Expressions. */
    expect_diagnostics("fn f() { return a[1; }\n", "E0220 1:20-1:21\n");
    expect_diagnostics("fn f() { return a[]; }\n", "E0220 1:19-1:20\n");
    expect_diagnostics("fn f() { return a[1..]; }\n", "E0220 1:22-1:23\n");
    expect_diagnostics("fn f() { return a[..1]; }\n", "E0220 1:19-1:21\n");
    expect_diagnostics("fn f() { return x.1; }\n", "E0220 1:19-1:20\n");
    expect_diagnostics("fn f() { return P { x 1 }; }\n", "E0220 1:23-1:24\n");
    expect_diagnostics("fn f() { return P { }; }\n", "E0220 1:21-1:22\n");
    expect_diagnostics("fn f() { return P { x: 1,, }; }\n", "E0220 1:26-1:27\n");
    expect_diagnostics("fn f() { return [1 2]; }\n", "E0220 1:20-1:21\n");
    expect_diagnostics("fn f() { return [,]; }\n", "E0220 1:18-1:19\n");
    expect_diagnostics("fn f() { return f(1,); }\n", "E0220 1:21-1:22\n");
    expect_diagnostics("fn f() { return 1 .. 2; }\n", "E0220 1:19-1:21\n");
    expect_diagnostics("fn f() { return a ~ b; }\n", "E0220 1:19-1:20\n");
    /* Characters that still start no token. */
    expect_diagnostics("fn f() { return a @ b; }\n", "E0206 1:19-1:20\n");
    expect_diagnostics("fn f() { return a # b; }\n", "E0206 1:19-1:20\n");
}

static void test_v2_keywords_as_names(void)
{
    /* One diagnostic per name: at its declaration; its uses read on. */
    expect_diagnostics("fn f() -> int { let in = 1; return in; }\n", "E0228 1:21-1:23\n");
    expect_diagnostics("fn for() {}\nfn g() { for(); }\n", "E0228 1:4-1:7\n");
    expect_diagnostics("fn f(break: int) -> int { return break + 1; }\n", "E0228 1:6-1:11\n");
    expect_diagnostics(
        "fn f() -> int { var continue = 0; continue = continue + 1; return continue; }\n",
        "E0228 1:21-1:29\n");
    expect_diagnostics("fn f() { var struct = 1; struct = 2; let const = struct; }\n",
                       "E0228 1:14-1:20\nE0228 1:42-1:47\n");
    expect_diagnostics("import in;\nfn f() { in.g(); }\n", "E0228 1:8-1:10\n");
    /* A use without a declaration: once per word and module. */
    expect_diagnostics("fn f() { break = 1; break = 2; }\n", "E0228 1:10-1:15\n");
    expect_diagnostics("fn f() -> int { return in + in; }\n", "E0228 1:24-1:26\n");
    /* Two declarations, two diagnostics. */
    expect_diagnostics("fn f(in: int) {}\nfn g(in: int) {}\n", "E0228 1:6-1:8\nE0228 2:6-2:8\n");
    /* The v2 statements themselves are no names. */
    parsed_t parsed = parse("fn f() { while true { break; continue; } for in_x in xs { } }");
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    apr_pool_destroy(parsed.pool);
}

static void test_v2_depth(void)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    const apr_size_t n = 100000;
    /* A type in a signature: one diagnostic, the function left out. */
    parsed_t parsed = parse(nested(pool, "fn f(a: ", "[", n, "int", "]", ") {}\nfn after() {}\n"));
    CU_ASSERT_STRING_EQUAL(summary(&parsed), "E0225 1:265-1:266\n");
    CU_ASSERT_EQUAL_FATAL(parsed.module->function_count, 1);
    CU_ASSERT_STRING_EQUAL(parsed.module->functions[0]->name.text, "after");
    apr_pool_destroy(parsed.pool);
    /* Boundaries: the body is level 1, "a" level 2 and leaves it; after k
     * postfix operators the k-th index's literal is at level k + 2. */
    parsed =
        parse(nested(pool, "fn f() { return a", "[0]", SPX_LIMIT_PARSE_DEPTH - 2, "", "", "; }"));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    apr_pool_destroy(parsed.pool);
    parsed =
        parse(nested(pool, "fn f() { return a", "[0]", SPX_LIMIT_PARSE_DEPTH - 1, "", "", "; }"));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 1);
    apr_pool_destroy(parsed.pool);
    /* A signature's types start at level 0: 256 brackets fit. */
    parsed = parse(nested(pool, "fn f(a: ", "[", SPX_LIMIT_PARSE_DEPTH, "int", "]", ") {}"));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    apr_pool_destroy(parsed.pool);
    /* A chain of binary operators, bitwise ones included, is no nesting. */
    parsed = parse(nested(pool, "fn f() { return 1", "|1&1<<1^1", 20000, "", "", "; }"));
    CU_ASSERT_EQUAL(spx_diagnostics_count(parsed.diagnostics), 0);
    apr_pool_destroy(parsed.pool);
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
        {"v2: precedence of the bitwise operators, unary below postfix", test_v2_precedence},
        {"v2: postfix operators, array and struct literals", test_v2_postfix_and_literals},
        {"v2: hex and underscored integer literals", test_v2_integer_literals},
        {"v2: for, break, continue, places, literals in headers", test_v2_statements},
        {"v2: struct and const items, array and struct types", test_v2_items},
        {"v2: the expressions of v2 statements, walked", test_v2_visit_expressions},
        {"v2: every new syntax error with its span", test_v2_syntax_errors},
        {"v2: keywords since v2 as v1 names", test_v2_keywords_as_names},
        {"v2: depth of postfix operators and types", test_v2_depth},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("parser", tests);
}
