/*
 * test_v3_syntax.c: language v3's syntax part, every expectation exact:
 * byte literals (values, escapes, consts, each malformed case one E0231
 * with its span and message), the compound assignment operators (one token
 * each, `a < <= b` still an error), `P op= e` (P evaluated once, the order
 * of its read, e, the operator and the write; its errors), the append rule
 * for `P += e` and the written-out `P = P + e` on every place (in place,
 * the slot test, a literal's first growth), `<` on strings and `+` on
 * arrays with their size charges, assert_eq (its typing, charge and the
 * rendered failure message, cut after 256 bytes), the newcomer's hints,
 * the missing `;` reported where the statement ends, and the canonical
 * layout of the new constructs. Step counts are counted by hand in the
 * comment beside each.
 */
#include "spx_ast.h"
#include "spx_corpus.h"
#include "spx_format.h"
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <string.h>

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* --- front end: diagnostics of one module "app" ---------------------------- */

/* The diagnostics of source (parsed and checked as module app, app.spx) as
 * "CODE L:C-L:C message\n" lines, each note as "  note L:C-L:C message\n". */
static const char *diagnostics_of(const char *source, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_arena_t *arena = spx_arena_make(pool);
    spx_module_t *module =
        spx_module_make("app", "app.spx", (const unsigned char *)source, strlen(source), arena);
    spx_parse_module(module, arena, arena, pool, diagnostics);
    if (spx_diagnostics_count(diagnostics) == 0)
        spx_check_program(&module, 1, pool, diagnostics);
    spx_diagnostics_sort(diagnostics);
    apr_array_header_t *lines = apr_array_make(pool, 4, sizeof(const char *));
    for (apr_size_t i = 0; i < spx_diagnostics_count(diagnostics); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, i);
        APR_ARRAY_PUSH(lines, const char *) =
            apr_psprintf(pool, "%s %" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 " %s\n",
                         item->code, item->span.start.line, item->span.start.column,
                         item->span.end.line, item->span.end.column, item->message);
        for (int n = 0; item->notes && n < item->notes->nelts; n++) {
            const spx_diagnostic_note_t *note =
                &APR_ARRAY_IDX(item->notes, n, spx_diagnostic_note_t);
            APR_ARRAY_PUSH(lines, const char *) =
                apr_psprintf(pool, "  note %" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 " %s\n",
                             note->span.start.line, note->span.start.column, note->span.end.line,
                             note->span.end.column, note->message);
        }
    }
    return apr_array_pstrcat(pool, lines, 0);
}

static void expect_diagnostics(const char *source, const char *expected)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *actual = diagnostics_of(source, pool);
    if (strcmp(actual, expected) != 0)
        fprintf(stderr, "\n  %s\n  expected:\n%s  actual:\n%s", source, expected, actual);
    CU_ASSERT_STRING_EQUAL(actual, expected);
    apr_pool_destroy(pool);
}

/* --- byte literals ------------------------------------------------------------ */

static void test_byte_literal_errors(void)
{
    static const struct {
        const char *source, *expected;
    } cases[] = {
        {"fn f() -> int { return ''; }\n", "E0231 1:24-1:26 empty byte literal\n"},
        {"fn f() -> int { return 'ab'; }\n",
         "E0231 1:24-1:28 'ab' holds 2 characters; a byte literal holds one\n"},
        {"fn f() -> int { return '\\n\\t!'; }\n",
         "E0231 1:24-1:31 '\\n\\t!' holds 3 characters; a byte literal holds one\n"},
        {"fn f() -> int { return '\xc3\xa9'; }\n",
         "E0231 1:24-1:28 '\xc3\xa9' is not one ASCII byte\n"},
        {"fn f() -> int { return '\t'; }\n",
         "E0231 1:24-1:27 a raw tab in a byte literal; write '\\t'\n"},
        {"fn f() -> int { return '\x01'; }\n",
         "E0231 1:24-1:27 control character 0x01 in a byte literal; write '\\x01'\n"},
        {"fn f() -> int { return '\\q'; }\n",
         "E0231 1:24-1:28 unknown escape '\\q' (only \\n \\t \\r \\0 \\\\ \\' \\\" \\xHH)\n"},
        {"fn f() -> int { return '\\u{41}'; }\n",
         "E0231 1:24-1:32 unknown escape '\\u' (only \\n \\t \\r \\0 \\\\ \\' \\\" \\xHH)\n"},
        {"fn f() -> int { return '\\x4'; }\n",
         "E0231 1:24-1:29 escape '\\x4' needs exactly two hex digits (\\x00 to \\xff)\n"},
        /* to the end of its line: the ";" and "}" went with it, one diagnostic */
        {"fn f() -> int { return 'a; }\nfn g() {}\n",
         "E0231 1:24-1:29 byte literal not closed on its line\n"},
        {"fn f() -> int { return '\\'; }\n",
         "E0231 1:24-1:30 byte literal not closed on its line\n"},
        {"fn f() -> int { return 'a", "E0231 1:24-1:26 byte literal not closed on its line\n"},
        /* a malformed literal reads as 0: nothing more is said */
        {"fn f() -> str { return 'ab'; }\n",
         "E0231 1:24-1:28 'ab' holds 2 characters; a byte literal holds one\n"},
        /* v2's strings are unchanged; a quote inside a string is a byte */
        {"fn f() -> int { return len(\"'\"); }\n", ""},
    };
    for (size_t i = 0; i < COUNT(cases); i++)
        expect_diagnostics(cases[i].source, cases[i].expected);
}

static const char byte_source[] =
    "const A: int = 'a';\n"
    "const NL: int = '\\n' + 0;\n"
    "fn values() -> int {\n"
    "    let all = [' ', '~', '\"', '\\'', '\\\\', '\\0', '\\t', '\\r', '\\x41', '\\xfF'];\n"
    "    assert_eq(all, [32, 126, 34, 39, 92, 0, 9, 13, 65, 255]);\n"
    "    return A * 1000 + NL;\n"
    "}\n"
    "fn bytes() -> int {\n"
    "    let name = \"abc\";\n"
    "    if name[0] == 'a' && name[2] - 'a' == 2 { return 1; }\n"
    "    return 0;\n"
    "}\n";

static void test_byte_literal_values(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const spx_program_t *program = spx_run_fixture_program(fixture, byte_source);
    spx_run_limits_t limits = spx_run_limits_default();
    /* call, let (the literal's n = 10: 0), assert_eq's statement and call
     * (ints: the arrays examine 10: 0), return: 5. A byte literal is a
     * literal: no step of its own. */
    spx_run_result_t values = spx_run_fixture_call(fixture, program, "values", &limits);
    spx_run_assert_returned(&values, 97010, 5);
    /* call, let, if, return: 4 */
    spx_run_result_t bytes = spx_run_fixture_call(fixture, program, "bytes", &limits);
    spx_run_assert_returned(&bytes, 1, 4);
    spx_fixture_free(fixture);
}

/* --- compound tokens and statements: the front end ---------------------------- */

static void test_compound_front_end(void)
{
    static const struct {
        const char *source, *expected;
    } cases[] = {
        /* every operator is one token and a statement */
        {"fn f() -> int {\n    var x = 1;\n    x += 1; x -= 1; x *= 3; x /= 2; x %= 5;\n"
         "    x &= 7; x |= 8; x ^= 1; x <<= 2; x >>= 1;\n    return x;\n}\n",
         ""},
        /* still an error: '<' then '<=' */
        {"fn f(a: int, b: int) -> bool { return a < <= b; }\n",
         "E0220 1:43-1:45 expected an expression, found '<='\n"},
        /* E0229: not a place */
        {"fn g() -> int { return 1; }\nfn f() { g() += 1; }\n",
         "E0229 2:10-2:13 only a variable, an element a[i] or a field p.f can take '+='\n"},
        {"fn f() { var x = 1; (x) -= 1; }\n",
         "E0229 1:21-1:24 only a variable, an element a[i] or a field p.f can take '-='\n"},
        /* E0312: not a var; E0422: through a str */
        {"fn f() { let x = 1; x += 1; }\n",
         "E0312 1:21-1:22 cannot assign to 'x': it is declared with 'let'\n"},
        {"fn f(s: [int]) { s[0] += 1; }\n",
         "E0312 1:18-1:19 cannot assign to 's': it is a parameter\n"},
        {"fn f() { var s = \"ab\"; s[0] += 1; }\n",
         "E0422 1:24-1:28 a str cannot be assigned through: its bytes are read with s[i], never "
         "written\n"},
        /* E0405: the types of P = P op e */
        {"fn f() { var x = 1; x += \"a\"; }\n",
         "E0405 1:23-1:25 operator '+' cannot take 'int' and 'str'\n"},
        {"fn f() { var s = \"a\"; s -= \"a\"; }\n",
         "E0405 1:25-1:27 operator '-' cannot take 'str' and 'str'\n"},
        {"fn f() { var xs = [1]; xs += [\"a\"]; }\n",
         "E0428 1:31-1:34 an element of '[int]' must be 'int', not 'str'\n"},
        {"fn f(ys: [str]) { var xs = [1]; xs += ys; }\n",
         "E0405 1:36-1:38 operator '+' cannot take '[int]' and '[str]'\n"},
        {"fn f() { var b = true; b &= false; }\n",
         "E0405 1:26-1:28 operator '&' cannot take 'bool' and 'bool'\n"},
        /* unknown names: the target read, and e */
        {"fn f() { y += 1; }\n", "E0308 1:10-1:11 unknown name 'y'\n"},
        /* the right side expects P's type: [] and nested literals */
        {"struct S { xs: [[int]] }\nfn f() -> int {\n    var s = S { xs: [] };\n"
         "    s.xs += [];\n    s.xs += [[]];\n    var ys: [[str]] = [];\n    ys += [[], [\"a\"]];\n"
         "    return len(s.xs) + len(ys);\n}\n",
         ""},
        /* < on strs, + on arrays (the right expects the left's type) */
        {"fn f(a: str, xs: [int]) -> bool { return a < \"b\" && a >= a && len(xs + []) > 0; }\n",
         ""},
        {"fn f(a: str, b: int) -> bool { return a < b; }\n",
         "E0405 1:41-1:42 operator '<' cannot take 'str' and 'int'\n"},
        {"fn f(a: bool) -> bool { return a < a; }\n",
         "E0405 1:34-1:35 operator '<' cannot take 'bool' and 'bool'\n"},
        /* a str const compares too */
        {"const A: bool = \"ab\" < \"b\";\nfn f() -> bool { return A; }\n", ""},
    };
    for (size_t i = 0; i < COUNT(cases); i++)
        expect_diagnostics(cases[i].source, cases[i].expected);
}

/* --- the newcomer's frictions ---------------------------------------------------- */

static void test_hints(void)
{
    static const struct {
        const char *source, *expected;
    } cases[] = {
        {"fn f(name: str, count: int) -> str { return name + count; }\n",
         "E0405 1:50-1:51 operator '+' cannot take 'str' and 'int'\n"
         "  note 1:52-1:57 use itos(count) to make a str of an int\n"},
        {"fn f(n: int) -> str { return n * 2 + \"x\"; }\n",
         "E0405 1:36-1:37 operator '+' cannot take 'int' and 'str'\n"
         "  note 1:30-1:35 use itos(n * 2) to make a str of an int\n"},
        {"fn f(name: str) -> bool { return name[0] == \"a\"; }\n",
         "E0405 1:42-1:44 operator '==' cannot take 'int' and 'str'\n"
         "  note 1:34-1:41 name[0] is a byte (an int); compare it with a byte literal: 'a'\n"},
        {"fn f(name: str, t: str) -> bool { return t != name[1]; }\n",
         "E0405 1:44-1:46 operator '!=' cannot take 'str' and 'int'\n"
         "  note 1:47-1:54 name[1] is a byte (an int); compare it with a byte literal such as "
         "'a'\n"},
        /* the fixes */
        {"fn f(name: str, count: int) -> bool {\n    var x = 0;\n    x += 1;\n"
         "    return name[0] == 'a' && len(name + itos(count)) > x;\n}\n",
         ""},
        /* a missing ";" at the end of the statement it ends */
        {"fn f() {\n    let x = 1\n    let y = x;\n}\n",
         "E0220 2:14-2:14 expected ';' at the end of this statement (found 'let' on line 3)\n"},
        {"fn f() -> int {\n    var x = 1;\n    x += 2\n    return x;\n}\n",
         "E0220 3:11-3:11 expected ';' at the end of this statement (found 'return' on line 4)\n"},
        /* on the same line, at the token found, as in v2 */
        {"fn f() { let x = 1 let y = x; }\n", "E0220 1:20-1:23 expected ';', found 'let'\n"},
    };
    for (size_t i = 0; i < COUNT(cases); i++)
        expect_diagnostics(cases[i].source, cases[i].expected);
}

/* --- assert_eq: the front end ------------------------------------------------------- */

static void test_assert_eq_front_end(void)
{
    static const struct {
        const char *source, *expected;
    } cases[] = {
        {"fn f(xs: [int]) { assert_eq(xs, []); assert_eq(1, 2, \"m\"); assert_eq(\"a\", \"a\"); "
         "}\n",
         ""},
        {"fn f() { assert_eq(1, \"a\"); }\n",
         "E0404 1:23-1:26 argument 2 of 'assert_eq' must be 'int' like argument 1, not 'str'\n"},
        {"fn g() {}\nfn f() { assert_eq(g(), g()); }\n",
         "E0404 2:20-2:23 argument 1 of 'assert_eq' must be a value, not unit\n"
         "E0404 2:25-2:28 argument 2 of 'assert_eq' must be a value, not unit\n"},
        {"fn f() { assert_eq(1, 1, 2); }\n",
         "E0404 1:26-1:27 argument 3 of 'assert_eq' must be 'str', not 'int'\n"},
        {"fn f() { assert_eq(1); }\n",
         "E0403 1:10-1:22 'assert_eq' takes 2 or 3 arguments, not 1\n"},
        {"fn f() { assert_eq(1, 1, \"a\", \"b\"); }\n",
         "E0403 1:10-1:35 'assert_eq' takes 2 or 3 arguments, not 4\n"},
        {"fn assert_eq() {}\n",
         "E0306 1:4-1:13 'assert_eq' is a builtin since language v3 and cannot be defined\n"},
        /* a local may take the name, as it may be named len */
        {"fn f() -> int { let assert_eq = 1; return assert_eq; }\n", ""},
    };
    for (size_t i = 0; i < COUNT(cases); i++)
        expect_diagnostics(cases[i].source, cases[i].expected);
}

/* --- running: compound assignment and the append rule ------------------------------- */

/* 64 bytes, one step of size charge */
#define CHUNK "abcdefghabcdefghabcdefghabcdefghabcdefghabcdefghabcdefghabcdefgh"

static const char compound_source[] =
    "struct St { out: str, xs: [int] }\n"
    "fn ints() -> int {\n"
    "    var x = 5;\n"
    "    x += 2;\n"
    "    x *= 3;\n"
    "    x -= 4 - 1;\n" /* the whole of e: 21 - 3 */
    "    x <<= 1;\n"
    "    x %= 7;\n"
    "    return x;\n"
    "}\n"
    "fn element() -> int {\n"
    "    var a = [1, 2];\n"
    "    a[1] += 10;\n"
    "    var i = 0;\n"
    "    a[i] -= a[1];\n"
    "    return a[0] * 100 + a[1];\n"
    "}\n"
    "fn say(x: int) -> int { print(itos(x)); return x; }\n"
    "fn once() -> int {\n"
    "    var a = [1, 2, 3];\n"
    "    a[say(1)] += say(5);\n" /* the index evaluated once, before e */
    "    return a[1];\n"
    "}\n"
    "fn field() -> int {\n"
    "    var st = St { out: \"\", xs: [] };\n"
    "    var i = 0;\n"
    "    while i < 10 {\n"
    "        st.out += \"" CHUNK "\";\n"
    "        i += 1;\n"
    "    }\n"
    "    st.out = st.out + \"x\";\n"
    "    return len(st.out);\n"
    "}\n"
    "fn written() -> int {\n"
    "    var st = St { out: \"\", xs: [] };\n"
    "    var i = 0;\n"
    "    while i < 10 {\n"
    "        st.out = \"" CHUNK "\" + st.out;\n"
    "        i += 1;\n"
    "    }\n"
    "    return len(st.out);\n"
    "}\n"
    "fn arrays() -> int {\n"
    "    var xs = [1, 2, 3];\n"
    "    xs += [xs.pop()];\n"
    "    return len(xs) * 10 + xs[3];\n"
    "}\n"
    "fn shared() -> int {\n"
    "    var st = St { out: \"ab\", xs: [1] };\n"
    "    let keep = st;\n"
    "    st.xs += [2, 3];\n"
    "    st.out += \"c\";\n"
    "    return len(keep.xs) * 100 + len(st.xs) * 10 + len(st.out);\n"
    "}\n"
    "fn nested() -> int {\n"
    "    var grid = [[1], [2, 3]];\n"
    "    let k = 1;\n"
    "    grid[k] += grid[0];\n"
    "    grid[k] = grid[k] + [4];\n"
    "    grid[0][0] += 10;\n"
    "    return len(grid[1]) * 100 + grid[1][3] * 10 + grid[0][0];\n"
    "}\n"
    "fn leaf() -> int {\n"
    "    var a = [\"\", \"\"];\n"
    "    let k = 1;\n"
    "    var i = 0;\n"
    "    while i < 10 {\n"
    "        a[k] = a[k] + \"" CHUNK "\";\n"
    "        i += 1;\n"
    "    }\n"
    "    return len(a[1]);\n"
    "}\n"
    "fn computed() -> int {\n"
    "    var a = [\"\", \"\"];\n"
    "    var i = 0;\n"
    "    while i < 10 {\n"
    "        a[0 + 1] = a[0 + 1] + \"" CHUNK "\";\n"
    "        i += 1;\n"
    "    }\n"
    "    return len(a[1]);\n"
    "}\n"
    "fn doubled() -> int {\n"
    "    var s = \"" CHUNK "\";\n"
    "    s = s + s;\n"
    "    s += s;\n"
    "    return len(s);\n"
    "}\n";

static void test_compound_runs(void)
{
    static const spx_counted_run_t runs[] = {
        /* call, var, 5 compound statements, return: 8; ((5 + 2) * 3 - 3) << 1 = 36, % 7 */
        {"ints", 1, 8, SPX_ANY_PEAK, NULL},
        /* call, var, compound, var, compound, return: 6; a = [2 - 12, 12] */
        {"element", -1088, 6, SPX_ANY_PEAK, NULL},
        /* call, var, compound, say(1) (call, print statement and call, itos,
         * return: 5), say(5) (5), return: 14; "1" printed before "5" */
        {"once", 7, 14, SPX_ANY_PEAK, "15"},
        /* call, var, var, while, 11 checks, 10 x (append statement,
         * compound i), the written-out append, return, len: 38; each append
         * in place n = 64: 1 step each, the first one the literal's first
         * growth n = 0 + 64: 48 (v2's concatenations: 55 more than 38) */
        {"field", 641, 48, SPX_ANY_PEAK, NULL},
        /* the same loop, but e + P concatenates: n = 64, 128, ..., 640
         * (1 + 2 + ... + 10 = 55): call, var, var, while, 11 checks, 20,
         * return, len = 37, and 55 */
        {"written", 640, 92, SPX_ANY_PEAK, NULL},
        /* call, var, the compound, pop (a call: the read holds xs, so pop
         * copies it, n = 3), return, len: 6; the slot test fails (xs holds
         * the copy), so [1, 2, 3] + [3] */
        {"arrays", 43, 6, SPX_ANY_PEAK, NULL},
        /* call, var, let, 2 compounds, return, 3 lens: 9; st shared with
         * keep: the write copies st (n = 2) and appends by concatenation */
        {"shared", 133, 9, SPX_ANY_PEAK, NULL},
        /* call, var, let, 3 compound-or-append statements, return, len: 8;
         * grid[1] grows in place to [2, 3, 1, 4], grid[0][0] is 11 */
        {"nested", 451, 8, SPX_ANY_PEAK, NULL},
        /* call, var, s + s (a concatenation, n = 128: 2), s += s (x == e:
         * a concatenation, n = 256: 4), return, len: 6 + 6 = 12 */
        {"doubled", 256, 12, SPX_ANY_PEAK, NULL},
        /* the written-out append through a[k] (k a variable): call, var,
         * let, var, while, 11 checks, 20 statements, return, len: 38, + 10
         * appends in place (n = 64, the first the literal's first growth) */
        {"leaf", 640, 48, SPX_ANY_PEAK, NULL},
        /* a[0 + 1]: an index that is no literal, const or variable, so the
         * written-out form concatenates (n = 64, ..., 640: 55): 37 + 55 */
        {"computed", 640, 92, SPX_ANY_PEAK, NULL},
    };
    spx_run_source_expect_counted(compound_source, runs, COUNT(runs));
}

static const char stop_source[] = "fn say(x: int) -> int { print(itos(x)); return x; }\n"
                                  "fn late() -> int {\n"
                                  "    var a = [1, 2];\n"
                                  "    a[9] += say(1);\n"
                                  "    return 0;\n"
                                  "}\n"
                                  "fn overflow() -> int {\n"
                                  "    var a = [9223372036854775807];\n"
                                  "    a[0] += 1;\n"
                                  "    return 0;\n"
                                  "}\n"
                                  "fn zero() -> int {\n"
                                  "    var x = 1;\n"
                                  "    x /= 0;\n"
                                  "    return 0;\n"
                                  "}\n"
                                  "fn moved() -> int {\n"
                                  "    var grid = [[1], [2]];\n"
                                  "    grid[1] += [grid.pop()[0]];\n"
                                  "    return 0;\n"
                                  "}\n"
                                  "fn long() -> int {\n"
                                  "    var a = [0];\n"
                                  "    for i in 0..23 { a += a; }\n"
                                  "    a += [1];\n"
                                  "    a += a;\n"
                                  "    return 0;\n"
                                  "}\n"
                                  "fn unequal() -> int {\n"
                                  "    assert_eq(1 + 1, 3);\n"
                                  "    return 0;\n"
                                  "}\n"
                                  "struct Box { s: str }\n"
                                  "fn text_long() -> int {\n"
                                  "    var b = Box { s: \"x\" };\n"
                                  "    for i in 0..24 { b.s += b.s; }\n"
                                  "    b.s += \"y\";\n"
                                  "    return 0;\n"
                                  "}\n";

static void test_compound_failures(void)
{
    static const spx_stopped_run_t stops[] = {
        /* the read fails before e runs: call, var, the statement: 3 */
        {"late", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511", "index 9 out of range for length 2",
         "4:5-4:9", 3, NULL},
        /* the operator's own failure, at the statement's operation */
        {"overflow", SPX_OUTCOME_LANGUAGE_FAILURE, "R0501",
         "integer overflow: 9223372036854775807 + 1", "9:5-9:14", 3, NULL},
        {"zero", SPX_OUTCOME_LANGUAGE_FAILURE, "R0503", "division by zero: 1 / 0", "14:5-14:11", 3,
         NULL},
        /* e pops grid's last element: P (grid[1]) does not resolve any more,
         * so [2] + [2] is written by an ordinary write, which fails its range
         * check: call, var, the statement, pop: 4 */
        {"moved", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511", "index 1 out of range for length 1",
         "19:5-19:31", 4, NULL},
        /* the statement and the call: 2 steps before it fails */
        /* a += a is a concatenation (x == e): 23 of them make 2^23
         * elements (charged n = 2, 4, ..., 2^23: 2^18 - 1 steps), [1] is
         * appended in place (n = 1), and the last a + a is charged n = 2^24
         * + 2 (262144 steps) before its length fails: call, var, for, 24
         * checks, 23 appends, 2 statements: 52, + 262143 + 262144 */
        {"long", SPX_OUTCOME_LANGUAGE_FAILURE, "R0519",
         "array of 16777218 elements, over the limit of 16777216", "26:5-26:11",
         52 + 262143 + 262144, NULL},
        {"unequal", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508", "assertion failed: 2 != 3", "30:5-30:24",
         3, NULL},
        /* b.s += b.s concatenates (x == e): n = 2, 4, ..., 2^24 (2^19 - 1
         * steps); then "y" is appended in place to the field, and its
         * length fails before the append: call, var, for + 25 checks, 24
         * statements, the last statement: 53 + 524287 */
        {"text_long", SPX_OUTCOME_LANGUAGE_FAILURE, "R0506",
         "string too long: 16777217 bytes, over the limit of 16777216", "37:5-37:15", 53 + 524287,
         NULL},
    };
    spx_run_source_expect_stops(stop_source, stops, COUNT(stops));
}

/* --- < on strings, + on arrays --------------------------------------------------------- */

static const char order_source[] =
    "fn order() -> int {\n"
    "    var n = 0;\n"
    "    if \"abc\" < \"abd\" { n += 1; }\n"
    "    if \"ab\" < \"abc\" { n += 10; }\n"
    "    if \"abc\" <= \"abc\" && \"abc\" >= \"abc\" { n += 100; }\n"
    "    if \"b\" > \"abc\" && !(\"b\" < \"b\") { n += 1000; }\n"
    "    if \"\xc3\xa9\" > \"z\" { n += 10000; }\n" /* UTF-8 bytes: code point order */
    "    return n;\n"
    "}\n"
    "fn examined() -> int {\n"
    "    let a = \"@A@\";\n"
    "    let b = a + \"b\";\n"
    "    if a < b { return 1; }\n"
    "    return 0;\n"
    "}\n"
    "fn differ() -> int {\n"
    "    let a = \"@A@x\";\n"
    "    let b = \"@A@y@A@\";\n"
    "    if a > b { return 0; }\n"
    "    return 1;\n"
    "}\n"
    "fn joined() -> int {\n"
    "    let a = [@I@];\n"
    "    var b = a + a;\n"
    "    b = b + [];\n"
    "    let c = [\"x\"] + [\"y\", \"z\"];\n"
    "    return len(b) * 10 + len(c);\n"
    "}\n";

static const char *expand(apr_pool_t *pool, const char *text, const char *marker, const char *by)
{
    const char *at;
    while ((at = strstr(text, marker)) != NULL)
        text = apr_pstrcat(pool, apr_pstrndup(pool, text, (apr_size_t)(at - text)), by,
                           at + strlen(marker), NULL);
    return text;
}

static void test_order_and_array_plus(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *a128 = "";
    for (int i = 0; i < 128; i++)
        a128 = apr_pstrcat(pool, a128, "a", NULL);
    const char *ints = "0";
    for (int i = 1; i < 64; i++)
        ints = apr_psprintf(pool, "%s, %d", ints, i);
    const char *source = expand(pool, expand(pool, order_source, "@A@", a128), "@I@", ints);
    const spx_counted_run_t runs[] = {
        /* call, var, 5 ifs, 5 compounds, return: 13; each comparison
         * examines at most 3 bytes: no size charge */
        {"order", 11111, 13, SPX_ANY_PEAK, NULL},
        /* call, let, let (a + "b": n = 129, 2), if (a proper prefix: n =
         * 128, 2), return: 5 + 4 = 9 */
        {"examined", 1, 9, SPX_ANY_PEAK, NULL},
        /* call, let, let, if (the first difference at byte 129: n = 129,
         * 2), return: 5 + 2 = 7 */
        {"differ", 1, 7, SPX_ANY_PEAK, NULL},
        /* call, let (n = 64: 1), var (a + a: n = 128, 2), the append of []
         * (in place: n = 0), let (["x"] 0, ["y", "z"] 0, + n = 3: 0),
         * return, 2 lens: 8 + 3 = 11 */
        {"joined", 1283, 11, SPX_ANY_PEAK, NULL},
    };
    spx_run_source_expect_counted(source, runs, COUNT(runs));
    apr_pool_destroy(pool);
}

/* --- assert_eq: runs, charges and messages ------------------------------------------------ */

static const char assert_source[] =
    "export struct Point { x: int, y: int }\n"
    "struct Node { name: str, on: bool, kids: [Node] }\n"
    "fn passes() -> int {\n"
    "    assert_eq(1 + 1, 2);\n"
    "    assert_eq(true, 1 < 2, \"always \" + \"evaluated\");\n"
    "    let a = \"@A@\";\n"
    "    assert_eq(a, a + \"\");\n"
    "    assert_eq([Point { x: 1, y: 2 }], [Point { x: 1, y: 2 }]);\n"
    "    return 0;\n"
    "}\n"
    "fn ints() -> int { assert_eq(-3, 4); return 0; }\n"
    "fn bools() -> int { assert_eq(true, 1 > 2, \"why\"); return 0; }\n"
    "fn strings() -> int { assert_eq(\"a\\\"\\\\\\n\\t\\u{1}\\u{7f}\xc3\xa9\", \"\"); return 0; }\n"
    "fn arrays() -> int { assert_eq([[1], [], [2, 3]], [[1]]); return 0; }\n"
    "fn structs() -> int {\n"
    "    let n = Node { name: \"r\", on: true, kids: [Node { name: \"k\", on: false, kids: [] }] "
    "};\n"
    "    assert_eq(n, Node { name: \"r\", on: true, kids: [] }, \"the tree\");\n"
    "    return 0;\n"
    "}\n"
    "fn points() -> int { assert_eq([Point { x: 1, y: 2 }], []); return 0; }\n"
    "fn long() -> int {\n"
    "    let a = \"@E@\";\n"
    "    assert_eq(a, a + \"!\");\n"
    "    return 0;\n"
    "}\n"
    "fn many() -> int {\n"
    "    var xs: [int] = [];\n"
    "    for i in 0..100 { xs.push(i); }\n"
    "    assert_eq(xs, []);\n"
    "    return 0;\n"
    "}\n"
    "fn split() -> int {\n"
    "    assert_eq(\"@S@\", \"\");\n"
    "    return 0;\n"
    "}\n";

static void test_assert_eq_runs(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *a128 = "", *e254 = "", *s255 = "", *numbers = "[0";
    for (int i = 0; i < 128; i++)
        a128 = apr_pstrcat(pool, a128, "a", NULL);
    /* 85 e-acutes (2 bytes each) and 84 x: 254 bytes */
    for (int i = 0; i < 85; i++)
        e254 = apr_pstrcat(pool, e254, "\xc3\xa9", NULL);
    for (int i = 0; i < 84; i++)
        e254 = apr_pstrcat(pool, e254, "x", NULL);
    /* 254 x, then an e-acute across bytes 256 and 257 of the text */
    for (int i = 0; i < 254; i++)
        s255 = apr_pstrcat(pool, s255, "x", NULL);
    s255 = apr_pstrcat(pool, s255, "\xc3\xa9z", NULL);
    for (int i = 1; i < 100; i++)
        numbers = apr_psprintf(pool, "%s, %d", numbers, i);
    const char *source = expand(
        pool, expand(pool, expand(pool, assert_source, "@A@", a128), "@E@", e254), "@S@", s255);
    static const spx_counted_run_t passes[] = {
        /* call; 4 statements and calls (8); let; a + "" (n = 128: 2) and
         * the comparison (n = 128: 2); [Point] == [Point] examines 1 + 64
         * (a nested block, v2's rule) + 2 = 67: 1; return: 1 + 8 + 1 + 4 +
         * 1 + 1 = 16. The message is evaluated though the values are equal. */
        {"passes", 0, 16, SPX_ANY_PEAK, NULL},
    };
    spx_run_source_expect_counted(source, passes, COUNT(passes));
    const spx_stopped_run_t stops[] = {
        /* call, the statement, the call: 3 */
        {"ints", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508", "assertion failed: -3 != 4", "11:20-11:36",
         3, NULL},
        {"bools", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508", "assertion failed: why: true != false",
         "12:21-12:50", 3, NULL},
        {"strings", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: \"a\\\"\\\\\\n\\t\\x01\\x7f\xc3\xa9\" != \"\"", "13:23-13:62", 3, NULL},
        {"arrays", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: [[1], [], [2, 3]] != [[1]]", "14:22-14:57", 3, NULL},
        /* call, let, the statement, the call: 4; the comparison examines
         * name (1, 64 for the nested block, 1 byte), on (1) and kids (1, 64;
         * lengths differ): 132, 2 more: 6 */
        {"structs", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: the tree: app.Node { name: \"r\", on: true, kids: [app.Node { name: "
         "\"k\", on: false, kids: [] }] } != app.Node { name: \"r\", on: true, kids: [] }",
         "17:5-17:69", 6, NULL},
        {"points", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: [app.Point { x: 1, y: 2 }] != []", "20:22-20:59", 3, NULL},
        /* the left is 256 bytes of text: whole; the right 257: cut after
         * its "!"; call, let, the statement, a + "!" (n = 255: 3), the call,
         * the comparison (n = 254: 3): 10 */
        {"long", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         apr_pstrcat(pool, "assertion failed: \"", e254, "\" != \"", e254, "!...", NULL),
         "23:5-23:26", 10, NULL},
        /* call, var, for, 101 checks, 100 pushes (statement and call), the
         * statement and the call (arrays of different lengths examine
         * nothing): 306; the text cut after 256 bytes */
        {"many", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         apr_pstrcat(pool, "assertion failed: ", apr_pstrndup(pool, numbers, 256), "... != []",
                     NULL),
         "29:5-29:22", 306, NULL},
        /* byte 256 is inside the e-acute: the cut goes back to its start */
        {"split", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         apr_pstrcat(pool, "assertion failed: \"", apr_pstrndup(pool, s255, 254), "... != \"\"",
                     NULL),
         "33:5-33:279", 3, NULL},
    };
    spx_run_source_expect_stops(source, stops, COUNT(stops));
    apr_pool_destroy(pool);
}

/* --- the memory measure of an append in place ----------------------------------------- */

static void test_append_memory(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const spx_program_t *program = spx_run_fixture_program(fixture, "fn grow() -> int {\n"
                                                                    "    var xs = [1, 2, 3];\n"
                                                                    "    xs += [4];\n"
                                                                    "    return len(xs);\n"
                                                                    "}\n"
                                                                    "fn joined() -> int {\n"
                                                                    "    let xs = [1, 2, 3];\n"
                                                                    "    let ys = xs + [4];\n"
                                                                    "    return len(ys);\n"
                                                                    "}\n");
    spx_run_limits_t limits = spx_run_limits_default();
    /* [1, 2, 3] (32 + 3 x 8 = 56) and [4] (40) live when xs grows in place
     * from 3 slots to 6 (the push's doubling: 24 more): 120 at the peak;
     * call, var, the append, return, len: 5 */
    spx_run_result_t grow = spx_run_fixture_call(fixture, program, "grow", &limits);
    spx_run_assert_returned(&grow, 4, 5);
    CU_ASSERT_EQUAL(grow.memory_peak, 120);
    /* a new array of 4 (64) beside both operands: 56 + 40 + 64 = 160 */
    spx_run_result_t joined = spx_run_fixture_call(fixture, program, "joined", &limits);
    spx_run_assert_returned(&joined, 4, 5);
    CU_ASSERT_EQUAL(joined.memory_peak, 160);
    /* max_memory at the peak runs, one byte under fails at the growth */
    limits.max_memory = 120;
    grow = spx_run_fixture_call(fixture, program, "grow", &limits);
    spx_run_assert_returned(&grow, 4, 5);
    limits.max_memory = 119;
    grow = spx_run_fixture_call(fixture, program, "grow", &limits);
    spx_run_assert_stopped(&grow, SPX_OUTCOME_LANGUAGE_FAILURE, "R0521", "3:5-3:14", fixture->pool);
    CU_ASSERT_STRING_EQUAL(grow.failure.message,
                           "memory limit exceeded: 120 bytes live, over max_memory 119");
    spx_fixture_free(fixture);
}

/* --- the canonical layout ---------------------------------------------------------------- */

static void test_format(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    /* byte literals keep their spelling; compound operators are spaced as
     * binary operators; assert_eq is a call */
    static const char source[] = "fn f()->int{var x='a';x+=-'\\x41';x<<=1;x>>= 2;\n"
                                 "var s=\"a\";s+=\"b\";assert_eq(x,'\\n'+0,\"m\");return x;}\n";
    static const char expected[] = "fn f() -> int {\n"
                                   "    var x = 'a';\n"
                                   "    x += -'\\x41';\n"
                                   "    x <<= 1;\n"
                                   "    x >>= 2;\n"
                                   "    var s = \"a\";\n"
                                   "    s += \"b\";\n"
                                   "    assert_eq(x, '\\n' + 0, \"m\");\n"
                                   "    return x;\n"
                                   "}\n";
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    char *formatted = NULL;
    apr_size_t length = 0;
    CU_ASSERT_EQUAL(spx_format_source((const unsigned char *)source, strlen(source), "t.spx",
                                      &formatted, &length, diagnostics, pool),
                    SPX_FORMAT_DONE);
    CU_ASSERT_STRING_EQUAL(formatted, expected);
    char *again = NULL;
    CU_ASSERT_EQUAL(spx_format_source((const unsigned char *)expected, strlen(expected), "t.spx",
                                      &again, &length, diagnostics, pool),
                    SPX_FORMAT_DONE);
    CU_ASSERT_STRING_EQUAL(again, expected);
    apr_pool_destroy(pool);
}

/* --- a v2 program keeps its behaviour ------------------------------------------------------ */

static const char v2_source[] = "fn build() -> int {\n"
                                "    var s = \"\";\n"
                                "    var i = 0;\n"
                                "    while i < 10 { s = s + \"" CHUNK "\"; i = i + 1; }\n"
                                "    let t = s;\n"
                                "    s = s + \"x\";\n"
                                "    return len(s) * 1000 + len(t);\n"
                                "}\n";

static void test_v2_unchanged(void)
{
    /* v2's append of a str variable, counted as v2 counted it: call, var,
     * var, while, 11 checks, 20 statements, let, the shared append (a
     * concatenation, n = 641: 10), return, len, len: 40, + 10 appends in
     * place (n = 64: 1 each, the first the literal's first growth) + 10 = 60 */
    static const spx_counted_run_t runs[] = {{"build", 641640, 60, SPX_ANY_PEAK, NULL}};
    spx_run_source_expect_counted(v2_source, runs, COUNT(runs));
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"byte literals: each malformed case is one E0231", test_byte_literal_errors},
        {"byte literals: values, escapes, consts", test_byte_literal_values},
        {"compound assignment and v3 operators: the front end", test_compound_front_end},
        {"the newcomer's hints and the missing ';'", test_hints},
        {"assert_eq: typing", test_assert_eq_front_end},
        {"compound assignment and the append rule: steps", test_compound_runs},
        {"compound assignment: failures and their order", test_compound_failures},
        {"< on strings and + on arrays: values and charges", test_order_and_array_plus},
        {"assert_eq: charges and rendered messages", test_assert_eq_runs},
        {"the memory measure of an append in place", test_append_memory},
        {"fmt: the new constructs' layout", test_format},
        {"a v2 program keeps its steps", test_v2_unchanged},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("language v3: syntax", tests);
}
