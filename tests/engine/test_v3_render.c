/*
 * test_v3_render.c: the one renderer of values (engine/render.c) on what
 * language v3 added to it, every expectation exact: assert_eq's message on
 * maps ({"a": 1} in the map's order, {} when empty, int, bool and str
 * keys) and on enums (app.Shape.Circle(3), app.Shape.Empty, nested: an
 * enum holding a map holding an array; an enum as a struct's field and a
 * map's value, typed as written; geo.Shape.Circle(3) and a struct of
 * module app whose field is geo's enum), R0522's key rendered by the same code
 * (escapes, a key over 256 bytes cut with "..."), E0437's key (the
 * checker's, with escapes), and values too deep or too long to write that
 * stay cut after 256 bytes.
 */
#include "spx_arena.h"
#include "spx_ast.h"
#include "spx_diagnostics.h"
#include "spx_program.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <string.h>

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* source with every "@NAME@" marker replaced by by. */
static const char *expand(apr_pool_t *pool, const char *text, const char *marker, const char *by)
{
    const char *at;
    while ((at = strstr(text, marker)) != NULL)
        text = apr_pstrcat(pool, apr_pstrndup(pool, text, (apr_size_t)(at - text)), by,
                           at + strlen(marker), NULL);
    return text;
}

static const char *repeated(apr_pool_t *pool, const char *piece, int times)
{
    const char *text = "";
    for (int i = 0; i < times; i++)
        text = apr_pstrcat(pool, text, piece, NULL);
    return text;
}

/* --- assert_eq on maps -------------------------------------------------------------------- */

static const char map_source[] =
    "fn small() -> int { assert_eq({\"a\": 1}, {\"a\": 2}); return 0; }\n"
    "fn empty() -> int { assert_eq({1: true, -2: false}, {}); return 0; }\n"
    "fn ordered() -> int {\n"
    "    var m = {\"b\": [1], \"a\": [2, 3]};\n"
    "    m[\"c\"] = [];\n"
    "    m.remove(\"b\");\n"
    "    m[\"a\"] = [5];\n"
    "    assert_eq(m, {\"c\": [], \"a\": [6]}, \"order\");\n"
    "    return 0;\n"
    "}\n"
    "fn keys() -> int { assert_eq({true: \"t\\n\"}, {false: \"\\\"\"}); return 0; }\n";

static void test_maps(void)
{
    static const spx_stopped_run_t stops[] = {
        /* call, the statement, the call; each literal n = 1 + 1 key byte:
         * nothing; {"a": 1} == {"a": 2} examines little: 3 */
        {"small", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: {\"a\": 1} != {\"a\": 2}", "1:21-1:50", 3, NULL},
        {"empty", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: {1: true, -2: false} != {}", "2:21-2:56", 3, NULL},
        /* the map's order: a new key last, a removed one's followers move
         * up, a replaced value keeps its place (== looks the left's keys
         * up in the right, whatever its order). Call, var, the write, the
         * remove (statement and call), the write, the statement and the
         * call: 8; == examines "a" (1, its value a block: 64, 1 element):
         * 66, one step: 9 */
        {"ordered", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: order: {\"a\": [5], \"c\": []} != {\"c\": [], \"a\": [6]}", "8:5-8:47",
         9, NULL},
        {"keys", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: {true: \"t\\n\"} != {false: \"\\\"\"}", "11:20-11:59", 3, NULL},
    };
    spx_run_source_expect_stops(map_source, stops, COUNT(stops));
}

/* --- assert_eq on enums ------------------------------------------------------------------- */

static const char enum_source[] =
    "enum Shape { Circle(int), Rect(int, int), Empty }\n"
    "enum Box { Holds({str: [int]}), Pair(Shape, str), Nothing }\n"
    "struct Item { shape: Shape, tags: {str: Shape} }\n"
    "enum Expr { Num(int), Add(Expr, Expr) }\n"
    "fn payloads() -> int { assert_eq(Shape.Circle(3), Shape.Rect(1, -2)); return 0; }\n"
    "fn constants() -> int { assert_eq(Shape.Empty, Shape.Circle(0), \"e\"); return 0; }\n"
    "fn nested() -> int {\n"
    "    let b = Box.Holds({\"xs\": [1, 2], \"none\": []});\n"
    "    assert_eq([b, Box.Nothing], [Box.Pair(Shape.Empty, \"s\")]);\n"
    "    return 0;\n"
    "}\n"
    "fn fields() -> int {\n"
    "    let i = Item { shape: Shape.Rect(2, 3), tags: {\"c\": Shape.Circle(1), \"e\": "
    "Shape.Empty} };\n"
    "    assert_eq(i, Item { shape: Shape.Empty, tags: {} });\n"
    "    return 0;\n"
    "}\n"
    "fn recursive() -> int {\n"
    "    assert_eq(Expr.Add(Expr.Num(1), Expr.Add(Expr.Num(2), Expr.Num(3))), Expr.Num(6));\n"
    "    return 0;\n"
    "}\n";

static void test_enums(void)
{
    static const spx_stopped_run_t stops[] = {
        {"payloads", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: app.Shape.Circle(3) != app.Shape.Rect(1, -2)", "5:24-5:69", 3, NULL},
        {"constants", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: e: app.Shape.Empty != app.Shape.Circle(0)", "6:25-6:69", 3, NULL},
        {"nested", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: [app.Box.Holds({\"xs\": [1, 2], \"none\": []}), app.Box.Nothing] != "
         "[app.Box.Pair(app.Shape.Empty, \"s\")]",
         "9:5-9:62", 4, NULL},
        /* the fields typed as written: an enum, a map of enums */
        {"fields", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: app.Item { shape: app.Shape.Rect(2, 3), tags: {\"c\": "
         "app.Shape.Circle(1), \"e\": app.Shape.Empty} } != app.Item { shape: app.Shape.Empty, "
         "tags: {} }",
         "14:5-14:56", 5, NULL},
        {"recursive", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         "assertion failed: app.Expr.Add(app.Expr.Num(1), app.Expr.Add(app.Expr.Num(2), "
         "app.Expr.Num(3))) != app.Expr.Num(6)",
         "18:5-18:86", 3, NULL},
    };
    spx_run_source_expect_stops(enum_source, stops, COUNT(stops));
}

/* --- enums of another module ------------------------------------------------------------ */

static const char geo_source[] = "export enum Shape { Circle(int), Empty }\n";
static const char app_source[] = "import geo;\n"
                                 "struct Tile { s: geo.Shape }\n"
                                 "fn f() -> int {\n"
                                 "    assert_eq([Tile { s: geo.Shape.Circle(3) }], [Tile { s: "
                                 "geo.Shape.Empty }]);\n"
                                 "    return 0;\n"
                                 "}\n";

static void test_other_module(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_arena_t *arena = spx_arena_make(pool);
    const char *names[] = {"geo", "app"}, *texts[] = {geo_source, app_source};
    spx_module_t *modules[2];
    for (int i = 0; i < 2; i++) {
        modules[i] = spx_module_make(names[i], apr_pstrcat(pool, names[i], ".spx", NULL),
                                     (const unsigned char *)texts[i], strlen(texts[i]), arena);
        spx_parse_module(modules[i], arena, arena, pool, diagnostics);
    }
    spx_check_program(modules, 2, pool, diagnostics);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 0);
    spx_program_builder_t *builder = spx_program_builder_make(pool, arena);
    for (int i = 0; i < 2; i++)
        spx_program_add_module(builder, modules[i]);
    spx_program_t *program = spx_program_finish(builder);
    spx_run_limits_t limits = spx_run_limits_default();
    spx_run_result_t result;
    CU_ASSERT_EQUAL_FATAL(
        spx_vm_run(program, spx_program_find(program, "app.f"), &limits, &result, pool),
        APR_SUCCESS);
    CU_ASSERT_EQUAL(result.outcome, SPX_OUTCOME_LANGUAGE_FAILURE);
    CU_ASSERT_STRING_EQUAL(result.failure.code, "R0508");
    CU_ASSERT_STRING_EQUAL(result.failure.message,
                           "assertion failed: [app.Tile { s: geo.Shape.Circle(3) }] != [app.Tile "
                           "{ s: geo.Shape.Empty }]");
    apr_pool_destroy(pool);
}

/* --- R0522: the missing key as the renderer writes it ------------------------------------- */

static const char missing_source[] = "fn escaped() -> int {\n"
                                     "    var m = {\"a\": [1]};\n"
                                     "    m[\"\\u{7f}\\\\\\t\\\"\"][0] = 1;\n"
                                     "    return 0;\n"
                                     "}\n"
                                     "fn long() -> int {\n"
                                     "    let m = {\"a\": 1, \"b\": 2};\n"
                                     "    let k = \"@K@\" + \"@K@\";\n"
                                     "    return m[k];\n"
                                     "}\n"
                                     "fn split() -> int {\n"
                                     "    let m = {\"a\": 1};\n"
                                     "    return m[\"@S@\"];\n"
                                     "}\n";

static void test_missing_key(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *k150 = repeated(pool, "k", 150);
    /* '"', 254 x, then an e-acute across bytes 256 and 257: cut before it */
    const char *s = apr_pstrcat(pool, repeated(pool, "x", 254), "\xc3\xa9", NULL);
    const char *source = expand(pool, expand(pool, missing_source, "@K@", k150), "@S@", s);
    const spx_stopped_run_t stops[] = {
        /* the place written through; call, var, the write: 3 */
        {"escaped", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522",
         "key \"\\x7f\\\\\\t\\\"\" not in map of length 1", "3:5-3:25", 3, NULL},
        /* a key of 300 bytes: '"' and its first 255, then "..."; call, let,
         * let, k's concatenation (n = 300: 4), return: 8 */
        {"long", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522",
         apr_pstrcat(pool, "key \"", repeated(pool, "k", 255), "... not in map of length 2", NULL),
         "9:12-9:16", 8, NULL},
        {"split", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522",
         apr_pstrcat(pool, "key \"", repeated(pool, "x", 254), "... not in map of length 1", NULL),
         "13:12-13:273", 3, NULL},
    };
    spx_run_source_expect_stops(source, stops, COUNT(stops));
    apr_pool_destroy(pool);
}

/* --- E0437: the checker's key as the renderer writes it ---------------------------------- */

static const char *diagnostics_of(const char *source, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_arena_t *arena = spx_arena_make(pool);
    spx_module_t *module =
        spx_module_make("app", "app.spx", (const unsigned char *)source, strlen(source), arena);
    spx_parse_module(module, arena, arena, pool, diagnostics);
    spx_check_program(&module, 1, pool, diagnostics);
    spx_diagnostics_sort(diagnostics);
    const char *lines = "";
    for (apr_size_t i = 0; i < spx_diagnostics_count(diagnostics); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, i);
        lines = apr_psprintf(pool, "%s%s %" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 " %s\n",
                             lines, item->code, item->span.start.line, item->span.start.column,
                             item->span.end.line, item->span.end.column, item->message);
        for (int n = 0; item->notes && n < item->notes->nelts; n++) {
            const spx_diagnostic_note_t *note =
                &APR_ARRAY_IDX(item->notes, n, spx_diagnostic_note_t);
            lines =
                apr_psprintf(pool, "%s  note %" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 " %s\n",
                             lines, note->span.start.line, note->span.start.column,
                             note->span.end.line, note->span.end.column, note->message);
        }
    }
    return lines;
}

static void test_repeated_key(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *source = "const K: str = \"a\\n\\u{1}\\\"\";\n"
                         "fn f() -> int {\n"
                         "  let m = {\"a\\n\\u{1}\\\"\": 1, \"b\": 2, K: 3};\n"
                         "  let n = {\"@L@\": 1, \"@L@\": 2};\n"
                         "  return 0;\n"
                         "}\n";
    source = expand(pool, source, "@L@", repeated(pool, "\xc3\xa9", 200));
    const char *expected =
        apr_pstrcat(pool,
                    "E0437 3:37-3:38 key \"a\\n\\x01\\\"\" appears twice in this map literal\n"
                    "  note 3:12-3:24 first given here\n"
                    "E0437 4:419-4:821 key \"",
                    repeated(pool, "\xc3\xa9", 127), "... appears twice in this map literal\n",
                    "  note 4:12-4:414 first given here\n", NULL);
    const char *got = diagnostics_of(source, pool);
    if (strcmp(got, expected) != 0)
        fprintf(stderr, "\n--- expected\n%s--- got\n%s---\n", expected, got);
    CU_ASSERT_STRING_EQUAL(got, expected);
    apr_pool_destroy(pool);
}

/* --- values too deep or too long stay cut ------------------------------------------------ */

static const char cut_source[] = "enum Tree { Leaf, Node([Tree]) }\n"
                                 "fn deep() -> int {\n"
                                 "    var t = Tree.Leaf;\n"
                                 "    for i in 0..2000 { t = Tree.Node([t]); }\n"
                                 "    assert_eq(t, Tree.Leaf);\n"
                                 "    return 0;\n"
                                 "}\n"
                                 "fn wide() -> int {\n"
                                 "    var m: {int: {str: [int]}} = {};\n"
                                 "    for i in 0..3000 { m[i] = {\"k\": [i, i]}; }\n"
                                 "    assert_eq(m, {});\n"
                                 "    return 0;\n"
                                 "}\n";

static void test_cut(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *deep = repeated(pool, "app.Tree.Node([", 20);
    const char *wide = "{";
    for (int i = 0; strlen(wide) < 300; i++)
        wide = apr_psprintf(pool, "%s%s%d: {\"k\": [%d, %d]}", wide, i ? ", " : "", i, i, i);
    const spx_stopped_run_t stops[] = {
        {"deep", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         apr_pstrcat(pool, "assertion failed: ", apr_pstrndup(pool, deep, 256),
                     "... != app.Tree.Leaf", NULL),
         "5:5-5:28", 4006, NULL},
        {"wide", SPX_OUTCOME_LANGUAGE_FAILURE, "R0508",
         apr_pstrcat(pool, "assertion failed: ", apr_pstrndup(pool, wide, 256), "... != {}", NULL),
         "11:5-11:21", 6006, NULL},
    };
    spx_run_source_expect_stops(cut_source, stops, COUNT(stops));
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"assert_eq on maps", test_maps},
        {"assert_eq on enums", test_enums},
        {"enums of another module", test_other_module},
        {"R0522's key", test_missing_key},
        {"E0437's key", test_repeated_key},
        {"deep and long values stay cut", test_cut},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("language v3: the value renderer", tests);
}
