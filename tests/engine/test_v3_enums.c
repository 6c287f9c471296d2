/*
 * test_v3_enums.c: language v3's enums and match (docs/language.md, "Enums
 * and match") through the parser, the checker and the interpreter: every
 * diagnostic of the part with its exact message and span (E0220, E0228,
 * E0230, E0307, E0314, E0318-E0321, E0326, E0327, E0403, E0404, E0410,
 * E0429-E0433, W0602, W0603, W0605), the reading rules (X.Y a variant of a
 * module's enum, m.X.Y, "X.Y {" never a struct literal, the header rule
 * of a match scrutinee, "match" at the start of a statement in a v2
 * program), and runs counted by hand: the step of a match, constructors
 * that cost none, == on enums, the memory measure of enum values (16 + 8k,
 * 0 for a variant without payloads), taking a match's scrutinee apart and
 * the registers that disjoint scopes (match arms, sibling blocks) share;
 * and fmt's layout of enum items and match statements (docs/fmt.md).
 */
#include "spx_format.h"
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"
#include "vm_internal.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* --- diagnostics ------------------------------------------------------------ */

typedef struct source_t {
    const char *module;
    const char *text;
} source_t;

/* Parse and check the sources together; the diagnostics, sorted, as lines
 * "PATH CODE L:C-L:C MESSAGE" (notes as "  note L:C-L:C MESSAGE"). */
static const char *diagnose(const source_t *sources, apr_size_t count, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_module_t **parsed = apr_pcalloc(pool, (count + 1) * sizeof(*parsed));
    spx_arena_t *arena = spx_arena_make(pool);
    for (apr_size_t i = 0; i < count; i++) {
        parsed[i] =
            spx_module_make(sources[i].module, apr_pstrcat(pool, sources[i].module, ".spx", NULL),
                            (const unsigned char *)sources[i].text, strlen(sources[i].text), arena);
        spx_parse_module(parsed[i], arena, arena, pool, diagnostics);
    }
    spx_check_program(parsed, count, pool, diagnostics);
    spx_diagnostics_sort(diagnostics);
    const char *text = "";
    for (apr_size_t i = 0; i < spx_diagnostics_count(diagnostics); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, i);
        text =
            apr_psprintf(pool, "%s%s %s %" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 " %s\n", text,
                         item->path, item->code, item->span.start.line, item->span.start.column,
                         item->span.end.line, item->span.end.column, item->message);
        for (int k = 0; item->notes && k < item->notes->nelts; k++) {
            const spx_diagnostic_note_t *note =
                &APR_ARRAY_IDX(item->notes, k, spx_diagnostic_note_t);
            text =
                apr_psprintf(pool, "%s  note %" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 " %s\n",
                             text, note->span.start.line, note->span.start.column,
                             note->span.end.line, note->span.end.column, note->message);
        }
    }
    return text;
}

/* The one module "app" with text gives exactly expected. */
static void expect_app(const char *text, const char *expected)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    source_t source = {"app", text};
    const char *actual = diagnose(&source, 1, pool);
    if (strcmp(actual, expected) != 0)
        fprintf(stderr, "\n  source:\n%s\n  expected:\n%s  actual:\n%s", text, expected, actual);
    CU_ASSERT_STRING_EQUAL(actual, expected);
    apr_pool_destroy(pool);
}

/* Modules app and geo give exactly expected. */
static void expect_two(const char *app, const char *geo, const char *expected)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    source_t sources[] = {{"app", app}, {"geo", geo}};
    const char *actual = diagnose(sources, 2, pool);
    if (strcmp(actual, expected) != 0)
        fprintf(stderr, "\n  expected:\n%s  actual:\n%s", expected, actual);
    CU_ASSERT_STRING_EQUAL(actual, expected);
    apr_pool_destroy(pool);
}

#define SHAPE "enum Shape { Circle(int), Rect(int, int), Empty }\n"

static void test_valid_program(void)
{
    expect_app(SHAPE "struct Box { s: Shape, all: [Shape] }\n"
                     "enum Expr { Num(int), Add(Expr, Expr), Many([Expr]) }\n"
                     "struct Node { next: Link }\n"
                     "enum Link { End, Next(Node) }\n"
                     "fn area(s: Shape) -> int {\n"
                     "  match s {\n"
                     "    Circle(r) => { return 3 * r * r; }\n"
                     "    Rect(w, _) => { return w; },\n"
                     "    Empty => { return 0; }\n"
                     "  }\n"
                     "}\n"
                     "fn f(b: Box) -> int {\n"
                     "  if b.s == Shape.Empty { return 1; }\n"
                     "  match (Box { s: Shape.Circle(1), all: [] }).s { _ => { } }\n"
                     "  let e = Expr.Add(Expr.Num(1), Expr.Many([]));\n"
                     "  match e { Num(_n) => { } _ => { } }\n"
                     "  return area(b.s) + len(b.all);\n"
                     "}\n",
               "");
}

static void test_items(void)
{
    expect_app("enum E {}\n", "app.spx E0220 1:9-1:10 expected a variant name, found '}'\n");
    expect_app("enum shape { circle, B(int), B }\n",
               "app.spx E0230 1:6-1:11 enum name 'shape' must start with a capital letter (A-Z)\n"
               "app.spx E0230 1:14-1:20 variant name 'circle' must start with a capital letter "
               "(A-Z)\n"
               "app.spx E0327 1:30-1:31 variant 'B' is declared twice in enum app.shape\n"
               "  note 1:22-1:23 first declared here\n");
    expect_app("enum Shape { A }\nfn Shape() { }\nconst X: int = 1;\nenum X { B }\n",
               "app.spx E0314 2:4-2:9 'Shape' is already defined in module 'app' (functions, "
               "structs, enums and consts share one namespace)\n"
               "  note 1:6-1:11 first declared here\n"
               "app.spx E0314 4:6-4:7 'X' is already defined in module 'app' (functions, "
               "structs, enums and consts share one namespace)\n"
               "  note 3:7-3:8 first declared here\n");
    expect_app("enum Shape { A }\nfn f() -> int { let Shape = 1; return Shape; }\n",
               "app.spx E0318 2:21-2:26 'Shape' is an enum of module 'app'; a local cannot take "
               "its name\n"
               "app.spx E0308 2:39-2:44 unknown name 'Shape'\n");
    expect_app("enum Shape { A(Point) }\n",
               "app.spx E0319 1:16-1:21 unknown struct 'Point' in module 'app'\n");
    expect_app("enum Inner { A }\nexport enum Outer { B(Inner) }\nexport fn f(i: Inner) { }\n",
               "app.spx E0321 2:23-2:28 enum 'Outer' is exported, so it cannot mention enum "
               "'Inner', which is not exported\n"
               "app.spx E0321 3:16-3:21 function 'f' is exported, so it cannot mention enum "
               "'Inner', which is not exported\n");
    /* v2's containment rule follows struct fields only: an enum breaks it */
    expect_app("struct A { b: B }\nstruct B { a: A }\nstruct C { d: D }\nenum D { E(C), F }\n",
               "app.spx E0323 1:15-1:16 struct contains itself: app.A -> app.B -> app.A\n");
}

static void test_across_modules(void)
{
    const char *geo = "export enum Shape { Circle(int), Empty }\nenum Hidden { H }\n"
                      "export fn hidden() -> int { return 0; }\n";
    expect_two("import geo;\nfn f(s: geo.Shape) -> int {\n"
               "  let t = geo.Shape.Circle(2);\n  let u = geo.Shape.Empty;\n"
               "  if t == u { return 1; }\n"
               "  match s { Circle(r) => { return r; } Empty => { return 0; } }\n}\n",
               geo, "");
    expect_two("import geo;\nfn f() -> int {\n  let h = geo.Hidden.H;\n  match h { _ => { } }\n"
               "  return 0;\n}\nfn g(x: geo.Hidden) { }\n",
               geo,
               "app.spx E0320 3:15-3:21 enum 'Hidden' of module 'geo' is not exported\n"
               "app.spx E0320 4:9-4:10 enum 'Hidden' of module 'geo' is not exported\n"
               "app.spx E0320 7:13-7:19 enum 'Hidden' of module 'geo' is not exported\n");
}

static void test_constructors(void)
{
    expect_app(SHAPE "fn f() -> int {\n  let a = Shape.Circel(1);\n  let b = Shape.Circle;\n"
                     "  let c = Shape.Empty();\n  let d = Shape.Rect(1);\n"
                     "  let e = Shape.Circle(\"x\");\n  let g: [Shape] = [Shape.Empty];\n"
                     "  return len(g);\n}\n",
               "app.spx E0326 3:17-3:23 enum app.Shape has no variant 'Circel'; did you mean "
               "'Circle'?\n"
               "app.spx E0403 4:11-4:23 variant 'Circle' of app.Shape takes 1 payload, not 0\n"
               "app.spx E0403 5:11-5:24 variant 'Empty' of app.Shape has no payloads: write it "
               "without parentheses\n"
               "app.spx E0403 6:11-6:24 variant 'Rect' of app.Shape takes 2 payloads, not 1\n"
               "app.spx E0404 7:24-7:27 payload 1 of 'Circle' must be 'int', not 'str'\n");
    /* expected types flow into payloads: [] takes its type from the payload */
    expect_app("enum L { Of([int]) }\nfn f() -> L { return L.Of([]); }\n", "");
    /* "X.Y {" never starts a struct literal: the braces are the if's body */
    expect_app(SHAPE "fn f(s: Shape) -> int {\n  if s == Shape.Empty { return 1; }\n"
                     "  while s != Shape.Empty { return 2; }\n  return 0;\n}\n",
               "");
}

static void test_match_rules(void)
{
    expect_app(SHAPE "fn f(x: int) {\n  match x { _ => { } }\n}\n",
               "app.spx E0429 3:9-3:10 match needs an enum value, not int\n");
    expect_app(SHAPE "fn f(s: Shape) {\n  match s { Circle(r) => { print(itos(r)); } }\n"
                     "  match s { }\n}\n",
               "app.spx E0430 3:9-3:10 match on app.Shape does not cover Rect, Empty\n"
               "app.spx E0430 4:9-4:10 match on app.Shape does not cover Circle, Rect, Empty\n");
    expect_app(SHAPE "fn f(s: Shape) {\n"
                     "  match s { Circle(a) => { } Circle(b) => { } _ => { } Empty => { } }\n"
                     "}\n",
               "app.spx E0431 3:30-3:39 variant 'Circle' is already matched\n"
               "  note 3:13-3:22 first matched here\n"
               "app.spx E0432 3:56-3:61 unreachable arm: the '_' arm above matches everything\n");
    /* unused binders are W0602, except '_x' ('_' binds nothing) */
    expect_app(SHAPE "fn f(s: Shape) {\n"
                     "  match s { Rect(w, _h) => { } Circle(_) => { } _ => { } }\n}\n",
               "app.spx W0602 3:18-3:19 local 'w' is never used (a name starting with '_' says it "
               "is on purpose)\n");
    expect_app(SHAPE "fn f(s: Shape) {\n"
                     "  match s { Rect(w) => { } Circle => { } Empty(x) => { } Square => { } }\n"
                     "}\n",
               "app.spx E0433 3:13-3:20 Rect has 2 payloads, but the pattern binds 1\n"
               "app.spx E0433 3:28-3:34 Circle has 1 payload, but the pattern binds 0\n"
               "app.spx E0433 3:42-3:50 Empty has 0 payloads, but the pattern binds 1\n"
               "app.spx E0326 3:58-3:64 enum app.Shape has no variant 'Square'\n");
    expect_app(SHAPE "fn f(s: Shape) {\n"
                     "  match s { Circle(_) => { } Rect(_x, _) => { } Empty => { } _ => { } }\n"
                     "}\n",
               "app.spx W0605 3:62-3:63 the '_' arm is unreachable: every variant of app.Shape is "
               "matched above\n");
    /* binders: immutable locals of their arm */
    expect_app(SHAPE "fn f(s: Shape) -> int {\n  let w = 1;\n"
                     "  match s { Rect(w, h) => { h = 2; return h; } _ => { } }\n  return w;\n}\n",
               "app.spx E0307 4:18-4:19 'w' is already declared in function 'f'\n"
               "  note 3:7-3:8 first declared here\n"
               "app.spx E0312 4:29-4:30 cannot assign to 'h': it is a match binder\n");
    expect_app(SHAPE "fn f(s: Shape) -> int {\n  match s { Circle(Shape) => { } _ => { } }\n"
                     "  return 0;\n}\n",
               "app.spx E0318 3:20-3:25 'Shape' is an enum of module 'app'; a local cannot take "
               "its name\n");
}

static void test_match_returns(void)
{
    /* a covering match whose arms all return counts as returning */
    expect_app(SHAPE "fn f(s: Shape) -> int {\n"
                     "  match s { Circle(r) => { return r; } _ => { return 0; } }\n"
                     "  print(\"never\");\n}\n",
               "app.spx W0603 4:3-4:18 unreachable statement: every path of the 'match' before "
               "it leaves\n"
               "  note 3:3-3:8 every path leaves here\n");
    expect_app(SHAPE "fn f(s: Shape) -> int {\n"
                     "  match s { Circle(r) => { return r; } Rect(w, h) => { } Empty => { return "
                     "0; } }\n}\n",
               "app.spx E0410 2:4-2:5 'f' does not return a value on every path\n");
}

static void test_reading_rules(void)
{
    /* a v2 program's names: one E0228 per declaration; "match(x);" is a call */
    expect_app("fn match(x: int) -> int { return x; }\n"
               "fn f() -> int {\n  match(1);\n  let enum = match (2);\n  return enum;\n}\n",
               "app.spx E0228 1:4-1:9 'match' is a keyword since language v3; it cannot name "
               "anything\n"
               "app.spx E0228 4:7-4:11 'enum' is a keyword since language v3; it cannot name "
               "anything\n");
    /* the header rule: no struct literal starts in a scrutinee outside ( ) */
    expect_app("struct P { x: int }\n" SHAPE
               "fn f(p: P) -> int {\n  match P { x: 1 } { _ => { } }\n  return p.x;\n}\n",
               "app.spx E0220 4:13-4:15 expected a variant name or '_', found 'x:'; a struct "
               "literal in a match scrutinee needs parentheses\n");
    /* each arm is a level of nesting, its block another */
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    const char *deep = "";
    for (unsigned i = 0; i < SPX_LIMIT_PARSE_DEPTH / 2; i++)
        deep = apr_pstrcat(pool, deep, "match s { _ => { ", NULL);
    for (unsigned i = 0; i < SPX_LIMIT_PARSE_DEPTH / 2; i++)
        deep = apr_pstrcat(pool, deep, "} } ", NULL);
    source_t source = {"app", apr_pstrcat(pool, SHAPE "fn f(s: Shape) { ", deep, "}\n", NULL)};
    const char *text = diagnose(&source, 1, pool);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "E0225"));
    apr_pool_destroy(pool);
}

/* --- runs ------------------------------------------------------------------- */

static const char run_source[] =
    "enum Shape { Circle(int), Rect(int, int), Empty }\n"
    "enum Box { Of([int]), Named(str) }\n"
    "fn page(s: Shape) -> int {\n"
    "  match s { Circle(r) => { return r; } _ => { return 0; } }\n"
    "}\n"
    "fn spec() -> int {\n"
    "  return page(Shape.Circle(5)) + page(Shape.Empty);\n"
    "}\n"
    "fn loop() -> int {\n"
    "  var n = 0;\n"
    "  for s in [Shape.Circle(1), Shape.Rect(2, 3), Shape.Empty] {\n"
    "    match s {\n"
    "      Circle(r) => { n = n + r; }\n"
    "      Rect(w, h) => { n = n + w * h; continue; }\n"
    "      Empty => { break; }\n"
    "    }\n"
    "    n = n + 100;\n"
    "  }\n"
    "  return n;\n"
    "}\n"
    "fn equal() -> int {\n"
    "  var n = 0;\n"
    "  if Shape.Rect(1, 2) == Shape.Rect(1, 2) { n = n + 1; }\n"
    "  if Shape.Rect(1, 2) != Shape.Rect(1, 3) { n = n + 2; }\n"
    "  if Shape.Empty != Shape.Circle(0) { n = n + 4; }\n"
    "  if Shape.Empty == Shape.Empty { n = n + 8; }\n"
    "  return n;\n"
    "}\n"
    "fn rect() -> int {\n  let s = Shape.Rect(1, 2);\n  return 0;\n}\n"
    "fn empty() -> int {\n  let s = Shape.Empty;\n  let t = [s, s];\n  return len(t);\n}\n"
    "fn make() -> Box { return Box.Of([1, 2, 3]); }\n"
    "fn apart() -> int {\n"
    "  match make() {\n"
    "    Of(xs) => { let big = [1, 2, 3, 4, 5, 6, 7, 8]; return len(xs) + len(big); }\n"
    "    Named(_) => { return 0; }\n"
    "  }\n"
    "}\n"
    "fn kept() -> int {\n"
    "  let b = make();\n"
    "  match b {\n"
    "    Of(xs) => { let big = [1, 2, 3, 4, 5, 6, 7, 8]; return len(xs) + len(big); }\n"
    "    Named(_) => { return 0; }\n"
    "  }\n"
    "}\n"
    "fn named() -> int {\n"
    "  match Box.Named(\"abc\") { Named(s) => { return len(s); } _ => { return 0; } }\n"
    "}\n"
    "fn leave() -> int {\n"
    "  var n = 0;\n"
    "  for i in 0..2 {\n"
    "    match make() { Of(xs) => { if i == 0 { continue; } break; } Named(_) => { } }\n"
    "  }\n"
    "  return n;\n"
    "}\n";

static void test_runs(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, run_source);
    spx_run_limits_t limits = spx_run_limits_default();
    static const struct {
        const char *function;
        int64_t value;
        uint64_t steps, peak;
    } runs[] = {
        /* the page's match costs 2 (match, return); with each call: 3; spec
         * adds its call and return, two calls, and the constructors cost no
         * step: 1 + 1 + 3 + 3 = 8; Circle(5) is 16 + 8 = 24 bytes, Empty 0 */
        {"spec", 5, 8, 24},
        /* call, var, for, checks before rounds 1-3, round 1: match, n =,
         * n = 100 (3); round 2: match, n =, continue (3); round 3: match,
         * break (2); return: 1 + 1 + 1 + 3 + 3 + 3 + 2 + 1 = 15. The array
         * (32 + 24) and Circle, Rect (24, 32) live together: 136 */
        {"loop", 107, 15, 112},
        /* call, var, four ifs, four assignments, return: 11; == examines 1
         * for the variant and 1 per payload compared; two Rects live */
        {"equal", 15, 11, 64},
        /* call, let, return: 3; Rect(1, 2) is 16 + 2 x 8 = 32 bytes */
        {"rect", 0, 3, 32},
        /* Empty is no block: only the array [s, s] counts, 32 + 16 */
        {"empty", 2, 5, 48},
        /* call, match, make's call and return, the arm's let, return, two
         * len calls: 8. The scrutinee is taken apart before the arm runs:
         * when big (32 + 64) is made, [1, 2, 3] (32 + 24) lives and the
         * Of block (16 + 8) is gone: 152 */
        {"apart", 11, 8, 152},
        /* the same with the block in a variable: one more step (the
         * let). match b is b's last use, so b moves (Move on last use) and
         * the match takes the block apart as for a call's value: 152 */
        {"kept", 11, 9, 152},
        /* call, match, return, len: 4; the literal's block (32) and
         * Named's (16 + 8) */
        {"named", 3, 4, 56},
        /* continue and break leave the arm: its binder and the match's
         * operand are dropped, so each round's [1, 2, 3] (56) and Of block
         * (24) are gone before the next is made: peak 80. Call, var, for, 2
         * checks (before round 1, after round 1's continue), round 1: match,
         * make's call and return, if, continue (5), round 2: match, make's
         * call and return, if, break (5), return: 16 */
        {"leave", 0, 16, 80},
    };
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        spx_run_result_t result = spx_run_fixture_call(fixture, program, runs[i].function, &limits);
        if (result.outcome != SPX_OUTCOME_RETURNED || result.steps != runs[i].steps ||
            result.value != runs[i].value || result.memory_peak != runs[i].peak)
            fprintf(stderr, "\n  in app.%s: value %lld, steps %llu, peak %llu", runs[i].function,
                    (long long)result.value, (unsigned long long)result.steps,
                    (unsigned long long)result.memory_peak);
        spx_run_assert_returned(&result, runs[i].value, runs[i].steps);
        CU_ASSERT_EQUAL(result.memory_peak, runs[i].peak);
    }
    spx_fixture_free(fixture);
}

/* Scopes never open at once share registers (compile.c, place_slots): the
 * variables of a match's arms, of sibling blocks and of a for body take
 * the same registers again, each arm still sees its own values, and a
 * register written in one arm only is released at the return. */
static const char *shared_source =
    "enum E { S(str), A([int]), N(int) }\n"
    "fn pick(e: E) -> int {\n"
    "  match e {\n"
    "    S(s) => { let t = s + \"!\"; let u = t + t; return len(u); }\n"
    "    A(xs) => { let ys = xs; var n = 0; for x in ys { let w = [x, x]; n += len(w) * x; }\n"
    "      return n; }\n"
    "    N(k) => { let v = [k, k, k]; return len(v) + k; }\n"
    "  }\n"
    "}\n"
    "fn siblings() -> int {\n"
    "  var n = 0;\n"
    "  if n == 0 { let a = \"ab\"; n += len(a); }\n"
    "  if n == 2 { let b = \"cde\"; var k = 10; n += len(b) + k; }\n"
    "  if n == 15 { let c = [1, 2, 3, 4]; var j = 100; n += len(c) + j; }\n"
    "  if n == 119 { let d = \"fghij\"; n += len(d); }\n"
    "  return n;\n"
    "}\n"
    "fn one_arm(e: E) -> int {\n"
    "  var n = 0;\n"
    "  match e {\n"
    "    S(s) => { let t = s + s; if len(t) > 2 { return len(t); } n = 1; }\n"
    "    _ => { n = 2; }\n"
    "  }\n"
    "  return n;\n"
    "}\n"
    "fn run() -> int {\n"
    "  var total = 0;\n"
    "  for i in 0..3 {\n"
    "    total += pick(E.S(\"abc\")) * 10000 + pick(E.A([1, 2, 3])) * 100 + pick(E.N(5));\n"
    "    total += one_arm(E.S(\"xyz\")) + one_arm(E.N(i)) + one_arm(E.S(\"\"));\n"
    "  }\n"
    "  return total;\n"
    "}\n";

/* Int payloads read from their own registers (a local, a literal, a
 * const): the values at the constructor, none copied first; the steps as
 * counted by hand. */
static const char *payload_source = "const K: int = 7;\n"
                                    "enum P { Of(int, int, int, bool) }\n"
                                    "fn payloads() -> int {\n"
                                    "  var x = 2;\n"
                                    "  let p = P.Of(x, 40, K, x == 2);\n"
                                    "  x = 100;\n"
                                    "  match p {\n"
                                    "    Of(a, b, k, t) => {\n"
                                    "      if t { return a * 1000 + b * 10 + k + x; }\n"
                                    "      return 0;\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n";

static void test_int_payloads(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, payload_source);
    spx_run_limits_t limits = spx_run_limits_default();
    /* call, var, let, x =, match, if, return: 7; the block is 16 + 4 x 8 */
    spx_run_result_t result = spx_run_fixture_call(fixture, program, "payloads", &limits);
    spx_run_assert_returned(&result, 2000 + 400 + 7 + 100, 7);
    CU_ASSERT_EQUAL(result.memory_peak, 16 + 4 * 8);
    spx_fixture_free(fixture);
}

static uint32_t block_registers_of(const spx_program_t *program, const char *name)
{
    long index = spx_program_find(program, name);
    CU_ASSERT_TRUE_FATAL(index >= 0);
    return program->functions[index]->block_registers;
}

static void test_shared_registers(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, shared_source);
    spx_run_limits_t limits = spx_run_limits_default();
    /* pick: S gives len("abc!abc!") = 8, A gives 2 * (1 + 2 + 3) = 12, N
     * gives 3 + 5 = 8; one_arm gives 6, 2 and 1: three rounds of
     * 81208 + 9 */
    spx_run_result_t result = spx_run_fixture_call(fixture, program, "run", &limits);
    CU_ASSERT_EQUAL(result.outcome, SPX_OUTCOME_RETURNED);
    CU_ASSERT_EQUAL(result.value, 3 * (81208 + 9));
    /* 2 + 13 + 104 + 5 */
    result = spx_run_fixture_call(fixture, program, "siblings", &limits);
    CU_ASSERT_EQUAL(result.outcome, SPX_OUTCOME_RETURNED);
    CU_ASSERT_EQUAL(result.value, 124);
    /* the four sibling blocks' variables share one block register (and
     * no temporary is needed): their six variables would take 4 + 0 */
    CU_ASSERT_EQUAL(block_registers_of(program, "app.siblings"), 1);
    /* pick: e, then at most S's two (s, t, u: three), A's (xs, ys, the
     * for's x is an int, w: three) or N's (v: one) at once, and a
     * temporary or two: far fewer than the seven variables' own */
    CU_ASSERT_TRUE(block_registers_of(program, "app.pick") < 1 + 7);
    spx_fixture_free(fixture);
}

/* The size charges: a constructor's n is its payload count, a match's the
 * chosen variant's (0 for '_'): with 64 payloads, one step each. */
static void test_size_charges(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *types = "int", *values = "0", *binders = "_";
    for (int i = 1; i < 64; i++) {
        types = apr_pstrcat(pool, types, ", int", NULL);
        values = apr_psprintf(pool, "%s, %d", values, i);
        binders = apr_pstrcat(pool, binders, i == 63 ? ", x" : ", _", NULL);
    }
    const char *source = apr_psprintf(pool,
                                      "enum Wide { W(%s), N }\n"
                                      "fn named() -> int {\n  let w = Wide.W(%s);\n"
                                      "  match w { W(%s) => { return x; } N => { return 0; } }\n}\n"
                                      "fn wild() -> int {\n  let w = Wide.W(%s);\n"
                                      "  match w { N => { return 0; } _ => { return 1; } }\n}\n"
                                      "fn equal() -> int {\n"
                                      "  if Wide.W(%s) == Wide.W(%s) { return 1; }\n"
                                      "  return 0;\n}\n",
                                      types, values, binders, values, values, values);
    spx_program_t *program = spx_run_fixture_program(fixture, source);
    spx_run_limits_t limits = spx_run_limits_default();
    /* call, let, the constructor's 64 / 64, match, its 64 / 64, return: 6;
     * the block is 16 + 64 x 8 */
    spx_run_result_t result = spx_run_fixture_call(fixture, program, "named", &limits);
    spx_run_assert_returned(&result, 63, 6);
    CU_ASSERT_EQUAL(result.memory_peak, 16 + 64 * 8);
    /* the '_' arm charges nothing: 5 */
    result = spx_run_fixture_call(fixture, program, "wild", &limits);
    spx_run_assert_returned(&result, 1, 5);
    /* == examines 1 for the variant and 1 per payload: 65, one step; with
     * the call, the if, the two constructors' steps and the return: 6 */
    result = spx_run_fixture_call(fixture, program, "equal", &limits);
    spx_run_assert_returned(&result, 1, 6);
    spx_fixture_free(fixture);
}

static void test_run_limits(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, run_source);
    /* the measure is checked when the constructor makes its block */
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_memory = 31;
    spx_run_result_t result = spx_run_fixture_call(fixture, program, "rect", &limits);
    spx_run_assert_stopped(&result, SPX_OUTCOME_LANGUAGE_FAILURE, "R0521", "30:11-30:27",
                           fixture->pool);
    CU_ASSERT_STRING_EQUAL(result.failure.message,
                           "memory limit exceeded: 32 bytes live, over max_memory 31");
    CU_ASSERT_EQUAL(result.steps, 2);
    limits.max_memory = 32;
    result = spx_run_fixture_call(fixture, program, "rect", &limits);
    spx_run_assert_returned(&result, 0, 3);
    /* the match's step is paid before its scrutinee: 2 steps leave none */
    limits = spx_run_limits_default();
    limits.max_steps = 4;
    result = spx_run_fixture_call(fixture, program, "named", &limits);
    spx_run_assert_returned(&result, 3, 4);
    limits.max_steps = 3;
    result = spx_run_fixture_call(fixture, program, "named", &limits);
    CU_ASSERT_EQUAL(result.outcome, SPX_OUTCOME_FUEL_EXHAUSTED);
    CU_ASSERT_EQUAL(result.steps, 3);
    spx_fixture_free(fixture);
}

/* --- fmt --------------------------------------------------------------------- */

/* source formats to expected, which formats to itself. */
static void expect_layout(const char *source, const char *expected)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, NULL);
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    char *formatted = NULL;
    apr_size_t length = 0;
    CU_ASSERT_EQUAL_FATAL(spx_format_source((const unsigned char *)source, strlen(source),
                                            "app.spx", &formatted, &length, diagnostics, pool),
                          SPX_FORMAT_DONE);
    if (strcmp(formatted, expected) != 0)
        fprintf(stderr, "\n  layout:\n%s", formatted);
    CU_ASSERT_STRING_EQUAL(formatted, expected);
    char *again = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_format_source((const unsigned char *)formatted, length, "app.spx",
                                            &again, &length, diagnostics, pool),
                          SPX_FORMAT_DONE);
    CU_ASSERT_STRING_EQUAL(again, expected);
    apr_pool_destroy(pool);
}

static void test_format(void)
{
    /* one variant per line, each ended by a comma; arms one per line, their
     * blocks as any block, the comma between arms dropped */
    expect_layout("export enum Shape {Circle(int),Rect(int,int),\n  Empty}\n"
                  "enum One { A, }\n"
                  "fn f(s: Shape) -> int {\n"
                  "  match s { Circle(r) => { return r; }, Rect(w, _) => { return w; } _ => {} }\n"
                  "}\n"
                  "fn g(s: Shape) {\n  match s {\n    // the one that counts\n"
                  "    Empty => { print(\"e\"); },\n\n    _ => { }\n  }\n"
                  "  if s == Shape.Circle(-1) { return; }\n}\n",
                  "export enum Shape {\n    Circle(int),\n    Rect(int, int),\n    Empty,\n}\n\n"
                  "enum One {\n    A,\n}\n\n"
                  "fn f(s: Shape) -> int {\n    match s {\n        Circle(r) => {\n"
                  "            return r;\n        }\n        Rect(w, _) => {\n"
                  "            return w;\n        }\n        _ => {}\n    }\n}\n\n"
                  "fn g(s: Shape) {\n    match s {\n        // the one that counts\n"
                  "        Empty => {\n            print(\"e\");\n        }\n\n"
                  "        _ => {}\n    }\n    if s == Shape.Circle(-1) {\n"
                  "        return;\n    }\n}\n");
    /* a scrutinee in parentheses, a struct literal in it */
    expect_layout("struct P { s: Shape }\nenum Shape { A }\n"
                  "fn f(p: P) { match (P { s: p.s }).s { A => { } } }\n",
                  "struct P {\n    s: Shape,\n}\n\nenum Shape {\n    A,\n}\n\n"
                  "fn f(p: P) {\n    match (P { s: p.s }).s {\n        A => {}\n    }\n}\n");
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"a valid program with enums and match", test_valid_program},
        {"enum items: E0220, E0230, E0314, E0318-E0321, E0323, E0327", test_items},
        {"enums across modules: m.E.V, E0320", test_across_modules},
        {"constructors: E0326, E0403, E0404, expected types, X.Y {", test_constructors},
        {"match: E0429-E0433, W0605, binders", test_match_rules},
        {"match: returns, W0603, E0410", test_match_returns},
        {"reading: v2 names, the header rule, nesting", test_reading_rules},
        {"runs: steps, ==, memory, taking apart", test_runs},
        {"runs: size charges of a constructor and a match", test_size_charges},
        {"runs: disjoint scopes share registers", test_shared_registers},
        {"runs: int payloads from their registers", test_int_payloads},
        {"runs: R0521 at a constructor, fuel at a match", test_run_limits},
        {"fmt: enum items and match statements", test_format},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("language v3: enums and match", tests);
}
