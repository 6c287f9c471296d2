/*
 * test_format.c: the layout rules of spx_format_source (docs/fmt.md), each
 * on a small source with the exact bytes it must give, and every expected
 * text formatted again to check it comes back unchanged (idempotence); then
 * sources that are not formatted: one that does not parse, one whose layout
 * would pass the source size limit.
 */
#include "spx_corpus.h"
#include "spx_format.h"
#include "spx_limits.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* The layout of source, or NULL with *outcome when it is not formatted. */
static const char *layout(const char *source, apr_size_t length, spx_format_outcome_t *outcome,
                          apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    char *formatted = NULL;
    apr_size_t formatted_length = 0;
    *outcome = spx_format_source((const unsigned char *)source, length, "t.spx", &formatted,
                                 &formatted_length, diagnostics, pool);
    if (*outcome == SPX_FORMAT_DONE) {
        CU_ASSERT_EQUAL(strlen(formatted), formatted_length);
        CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 0);
    }
    return formatted;
}

/* source must format to expected, and expected to itself. */
static void expect(const char *source, const char *expected)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_format_outcome_t outcome;
    const char *got = layout(source, strlen(source), &outcome, pool);
    CU_ASSERT_EQUAL(outcome, SPX_FORMAT_DONE);
    if (!got || strcmp(got, expected) != 0)
        fprintf(stderr, "\n--- source\n%s--- expected\n%s--- got\n%s---\n", source, expected,
                got ? got : "(nothing)");
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, expected);
    const char *again = layout(expected, strlen(expected), &outcome, pool);
    CU_ASSERT_EQUAL(outcome, SPX_FORMAT_DONE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(again);
    if (strcmp(again, expected) != 0)
        fprintf(stderr, "\n--- not idempotent\n%s--- became\n%s---\n", expected, again);
    CU_ASSERT_STRING_EQUAL(again, expected);
    apr_pool_destroy(pool);
}

static void test_blocks_and_statements(void)
{
    expect("fn f(n:int)->int{var s=0;for i in 0..n{s=s+i;}while s>10{s=s-1;}return s;}",
           "fn f(n: int) -> int {\n"
           "    var s = 0;\n"
           "    for i in 0..n {\n"
           "        s = s + i;\n"
           "    }\n"
           "    while s > 10 {\n"
           "        s = s - 1;\n"
           "    }\n"
           "    return s;\n"
           "}\n");
    /* else on the line of }, else if chains, one statement per line */
    expect("fn f(a: int) -> int {\n  if a < 0 { return -1; } else if a == 0 { return 0; }\n"
           "  else { return 1; }\n}\n",
           "fn f(a: int) -> int {\n"
           "    if a < 0 {\n"
           "        return -1;\n"
           "    } else if a == 0 {\n"
           "        return 0;\n"
           "    } else {\n"
           "        return 1;\n"
           "    }\n"
           "}\n");
    /* an empty block stays {}; break, continue, return; */
    expect("fn f() {}\nfn g() { while true { break; } for x in [1] { continue; } return; }",
           "fn f() {}\n"
           "\n"
           "fn g() {\n"
           "    while true {\n"
           "        break;\n"
           "    }\n"
           "    for x in [1] {\n"
           "        continue;\n"
           "    }\n"
           "    return;\n"
           "}\n");
}

static void test_spacing(void)
{
    expect("fn f(a:[int],s:str)->bool{let x=-a[0]*~a[1]+(a[2]-1)<<2;"
           "let y=a[1..len(a)-1];let z=s[0..1]+\"|\";"
           "return !(x>=0)&&x!=-1||len(y)%2==0&&z==\"\";}\n",
           "fn f(a: [int], s: str) -> bool {\n"
           "    let x = -a[0] * ~a[1] + (a[2] - 1) << 2;\n"
           "    let y = a[1..len(a) - 1];\n"
           "    let z = s[0..1] + \"|\";\n"
           "    return !(x >= 0) && x != -1 || len(y) % 2 == 0 && z == \"\";\n"
           "}\n");
    /* calls, fields, methods, qualified names, nested types, a minus after
     * an operand is binary, after an operator unary */
    expect("import geo;\nfn f(p:geo.Point,xs:[[int]])->int{var v:[int]=[];v.push(xs[0][1]-1);"
           "v.push(f(p,xs)- -2);return geo.len(p.x,-p.y)-v.pop()^3&1|2>>1;}\n",
           "import geo;\n"
           "\n"
           "fn f(p: geo.Point, xs: [[int]]) -> int {\n"
           "    var v: [int] = [];\n"
           "    v.push(xs[0][1] - 1);\n"
           "    v.push(f(p, xs) - -2);\n"
           "    return geo.len(p.x, -p.y) - v.pop() ^ 3 & 1 | 2 >> 1;\n"
           "}\n");
    /* literals keep their spelling */
    expect(
        "const A:int=0xff_ff;const B:str=\"a\\n\\u{e9}\";const C:bool=1_000>=A;",
        "const A: int = 0xff_ff;\nconst B: str = \"a\\n\\u{e9}\";\nconst C: bool = 1_000 >= A;\n");
}

static void test_structs_and_literals(void)
{
    /* a declaration has one field per line, each ended by a comma */
    expect("export struct Point{x:int,y:int}\nstruct Bag { items: [Point], name: str, }\n",
           "export struct Point {\n"
           "    x: int,\n"
           "    y: int,\n"
           "}\n"
           "\n"
           "struct Bag {\n"
           "    items: [Point],\n"
           "    name: str,\n"
           "}\n");
    /* literals stay on one line, without a trailing comma */
    expect("fn f() -> P {\n  let xs = [\n    1,\n    2,\n  ];\n"
           "  if xs == [1, 2] { return P{x:xs[0],y:geo.Q { a: 1, },}; }\n"
           "  if (P { x: 1, y: 2 }) == g() { return g(); }\n  return P { x: 0, y: 0 };\n}\n",
           "fn f() -> P {\n"
           "    let xs = [1, 2];\n"
           "    if xs == [1, 2] {\n"
           "        return P { x: xs[0], y: geo.Q { a: 1 } };\n"
           "    }\n"
           "    if (P { x: 1, y: 2 }) == g() {\n"
           "        return g();\n"
           "    }\n"
           "    return P { x: 0, y: 0 };\n"
           "}\n");
}

static void test_blank_lines(void)
{
    /* one blank line between items; runs of imports and of consts keep the
     * source's (at most one); none at the start or end of a block; at most
     * one between statements */
    expect("import a;\n\n\nimport b;\nimport c;\nconst X: int = 1;\nconst Y: int = 2;\n\n\n\n"
           "const Z: int = 3;\nfn f() {\n\n  let a = 1;\n\n\n\n  let b = 2;\n  let c = 3;\n\n}\n"
           "fn g() {}\n\n\n\nstruct S { a: int }\nconst W: int = 4;\n",
           "import a;\n"
           "\n"
           "import b;\n"
           "import c;\n"
           "\n"
           "const X: int = 1;\n"
           "const Y: int = 2;\n"
           "\n"
           "const Z: int = 3;\n"
           "\n"
           "fn f() {\n"
           "    let a = 1;\n"
           "\n"
           "    let b = 2;\n"
           "    let c = 3;\n"
           "}\n"
           "\n"
           "fn g() {}\n"
           "\n"
           "struct S {\n"
           "    a: int,\n"
           "}\n"
           "\n"
           "const W: int = 4;\n");
}

static void test_comments(void)
{
    /* leading comments stay with what follows, trailing ones on their line,
     * a blank line between a comment and an item stays */
    expect("// header\n\n// about f\nfn f() -> int { // opens\n"
           "  // before a\n  let a = 1;   // a  \n\n  // before the end\n}\n"
           "// about g\nfn g() {\n  // only this\n}\n// the end\n",
           "// header\n"
           "\n"
           "// about f\n"
           "fn f() -> int { // opens\n"
           "    // before a\n"
           "    let a = 1; // a\n"
           "\n"
           "    // before the end\n"
           "}\n"
           "\n"
           "// about g\n"
           "fn g() {\n"
           "    // only this\n"
           "}\n"
           "// the end\n");
    /* inside a statement a comment ends the line, and the statement goes on
     * one level in; a comment on a dropped comma is kept */
    expect("fn f() {\n  let t = g(1, // one\n    2);\n  let xs = [1,\n    // two\n    2,];\n"
           "  let ys = [3, // three\n  ];\n}\n",
           "fn f() {\n"
           "    let t = g(1, // one\n"
           "        2);\n"
           "    let xs = [1,\n"
           "        // two\n"
           "        2];\n"
           "    let ys = [3 // three\n"
           "        ];\n"
           "}\n");
    /* fields of a struct declaration carry their comments */
    expect("struct S {\n  // the first\n  a: int, // a\n  b: bool // b\n  // after\n}\n",
           "struct S {\n"
           "    // the first\n"
           "    a: int, // a\n"
           "    b: bool, // b\n"
           "    // after\n"
           "}\n");
    /* comments only; // with nothing after it */
    expect("//\n   // x\n", "//\n// x\n");
}

static void test_bytes_kept(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_format_outcome_t outcome;
    /* CR LF stays CR LF (decided by the first line end), a byte order mark
     * stays, and the file ends with one line end */
    const char *crlf = "\xef\xbb\xbf// c\r\nfn f() -> int { return 1; }";
    const char *got = layout(crlf, strlen(crlf), &outcome, pool);
    CU_ASSERT_EQUAL(outcome, SPX_FORMAT_DONE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, "\xef\xbb\xbf// c\r\nfn f() -> int {\r\n    return 1;\r\n}\r\n");
    /* an empty source stays empty */
    got = layout("", 0, &outcome, pool);
    CU_ASSERT_EQUAL(outcome, SPX_FORMAT_DONE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, "");
    apr_pool_destroy(pool);
    expect("fn f() {}", "fn f() {}\n");
    expect("\n\n\tfn f() {}\n\n\n", "fn f() {}\n");
}

static void test_not_formatted(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    char *formatted = (char *)"x";
    apr_size_t length = 7;
    const char *broken = "fn f( {\n  return 1\n}\n";
    CU_ASSERT_EQUAL(spx_format_source((const unsigned char *)broken, strlen(broken), "b.spx",
                                      &formatted, &length, diagnostics, pool),
                    SPX_FORMAT_SYNTAX);
    CU_ASSERT_PTR_NULL(formatted);
    CU_ASSERT_EQUAL(length, 0);
    CU_ASSERT(spx_diagnostics_count(diagnostics) > 0);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(diagnostics, 0)->path, "b.spx");
    CU_ASSERT_EQUAL(strncmp(spx_diagnostics_get(diagnostics, 0)->code, "E02", 3), 0);

    /* A lexical error (a CR alone) is a syntax outcome too. */
    const char *cr = "fn f() {}\r";
    CU_ASSERT_EQUAL(spx_format_source((const unsigned char *)cr, strlen(cr), "c.spx", &formatted,
                                      &length, diagnostics, pool),
                    SPX_FORMAT_SYNTAX);

    /* 100 nested blocks (the parser allows them) holding 50000 statements:
     * 100 KiB of source whose layout, 400 bytes of indentation a line, would
     * be over the source size limit: refused, not written. */
    const unsigned depth = 100, statements = 50000;
    apr_size_t size = 16 + depth * 10 + statements * 2 + depth + 1;
    char *deep = apr_palloc(pool, size), *at = deep;
    at += sprintf(at, "fn f() {");
    for (unsigned i = 1; i < depth; i++)
        at += sprintf(at, "if true {");
    for (unsigned i = 0; i < statements; i++)
        at += sprintf(at, "x;");
    for (unsigned i = 0; i < depth; i++)
        *at++ = '}';
    *at = '\0';
    CU_ASSERT_EQUAL(spx_format_source((const unsigned char *)deep, (apr_size_t)(at - deep), "d.spx",
                                      &formatted, &length, diagnostics, pool),
                    SPX_FORMAT_TOO_LARGE);
    CU_ASSERT_PTR_NULL(formatted);
    apr_pool_destroy(pool);
}

static void test_nesting_at_the_parser_limit(void)
{
    /* As deep as the parser admits: formatted, indentation and all. */
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_format_outcome_t outcome;
    unsigned depth = 0;
    const char *got = NULL;
    for (depth = 2; depth < SPX_LIMIT_PARSE_DEPTH; depth++) {
        char *source = apr_palloc(pool, depth * 10 + 32), *at = source;
        at += sprintf(at, "fn f() {");
        for (unsigned i = 1; i < depth; i++)
            at += sprintf(at, "if true {");
        for (unsigned i = 0; i < depth; i++)
            *at++ = '}';
        const char *formatted = layout(source, (apr_size_t)(at - source), &outcome, pool);
        if (outcome != SPX_FORMAT_DONE) {
            CU_ASSERT_EQUAL(outcome, SPX_FORMAT_SYNTAX); /* too deep, from here on */
            break;
        }
        got = formatted;
    }
    CU_ASSERT(depth > 100);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    /* The innermost `if true {}` stands (depth - 2) levels in. */
    apr_size_t indentation = 4 * (apr_size_t)(depth - 2);
    char *line = apr_pstrcat(pool, "\n", apr_psprintf(pool, "%*s", (int)indentation, ""),
                             "if true {}\n", NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(got, line));
    apr_pool_destroy(pool);
}

/* The text of the fenced block that follows from in text. */
static char *fenced_block(const char *from, apr_pool_t *pool)
{
    const char *open = strstr(from, "```\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(open);
    open += 4;
    const char *close = strstr(open, "\n```");
    CU_ASSERT_PTR_NOT_NULL_FATAL(close);
    return apr_pstrndup(pool, open, (apr_size_t)(close - open) + 1);
}

static void test_the_example_of_the_docs(void)
{
    /* docs/fmt.md's "Before and after" is what the formatter does. */
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *path = apr_pstrcat(pool, spx_corpus_dir("..", pool), "/docs/fmt.md", NULL);
    const char *text = spx_corpus_read(path, NULL, pool);
    const char *section = strstr(text, "## Before and after");
    CU_ASSERT_PTR_NOT_NULL_FATAL(section);
    char *before = fenced_block(section, pool);
    const char *makes = strstr(section, "makes it:");
    CU_ASSERT_PTR_NOT_NULL_FATAL(makes);
    char *after = fenced_block(makes, pool);
    CU_ASSERT_STRING_NOT_EQUAL(before, after);
    expect(before, after);
    apr_pool_destroy(pool);
}

/* A comma dropped between two trailing comments (issue 28, item 11): the
 * comments stay apart, the second on a line of its own, and nothing merges
 * them into one comment. */
static void test_comments_around_a_dropped_comma(void)
{
    expect("fn f() -> [int] {\n    return [1 // a\n, // b\n];\n}\n", "fn f() -> [int] {\n"
                                                                     "    return [1 // a\n"
                                                                     "        // b\n"
                                                                     "        ];\n"
                                                                     "}\n");
    expect("struct P {\n    x: int,\n}\n\nfn f() -> P {\n    return P { x: 1 // a\n, // b\n};\n}\n",
           "struct P {\n"
           "    x: int,\n"
           "}\n"
           "\n"
           "fn f() -> P {\n"
           "    return P { x: 1 // a\n"
           "        // b\n"
           "        };\n"
           "}\n");
    /* Three in a row, and a comment on its own line between them. */
    expect("const A: [int] = [1 // a\n, // b\n// c\n];\n", "const A: [int] = [1 // a\n"
                                                           "    // b\n"
                                                           "    // c\n"
                                                           "    ];\n");
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"blocks and statements", test_blocks_and_statements},
        {"spacing", test_spacing},
        {"structs and literals", test_structs_and_literals},
        {"blank lines", test_blank_lines},
        {"comments", test_comments},
        {"line ends, byte order mark, empty source", test_bytes_kept},
        {"not formatted: syntax errors, too large", test_not_formatted},
        {"nesting at the parser's limit", test_nesting_at_the_parser_limit},
        {"the example of docs/fmt.md", test_the_example_of_the_docs},
        {"comments around a dropped comma stay apart", test_comments_around_a_dropped_comma},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("format", tests);
}
