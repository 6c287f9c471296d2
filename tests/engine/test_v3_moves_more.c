/*
 * test_v3_moves_more.c: move on last use with the constructs language v3
 * adds beside it (Execution: "Holders, exactly", "Move on last use",
 * "Taking apart"; docs/language.md and docs/execution.md): a move into a
 * map literal's value, a variant's payload, insert's value and a match's
 * scrutinee, which the match then takes apart; a state enum updated by
 * s = step(s), linear; a compound assignment, which never moves its root
 * nor its right side; match arms as alternatives; binders moved. Every
 * count is by hand (the sum beside it); a twin where the move cannot happen
 * shows the copy (its size charge, its memory) that the move removes. And,
 * white-box, which reads the checker marks (engine/checker_moves.c).
 */
#include "spx_ast.h"
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <string.h>

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* source with every "@A@" replaced by the array literal [0, 1, ..., 127]:
 * 128 elements, a size charge of 2 steps, 32 + 8 x 128 = 1056 bytes; a
 * push into it grows it to 256 slots, 2080 bytes. */
static const char *with_ints128(apr_pool_t *pool, const char *source)
{
    const char *literal = "[0";
    for (int i = 1; i < 128; i++)
        literal = apr_psprintf(pool, "%s, %d", literal, i);
    literal = apr_pstrcat(pool, literal, "]", NULL);
    const char *text = source;
    const char *at;
    while ((at = strstr(text, "@A@")) != NULL)
        text = apr_pstrcat(pool, apr_pstrndup(pool, text, (apr_size_t)(at - text)), literal, at + 3,
                           NULL);
    return text;
}

/* --- transfer positions of language v3 ------------------------------------------ */

static const char positions_source[] =
    "enum Bag { Of([int]), Nothing }\n"
    "fn map_value() -> int {\n  let a = @A@;\n  var m = {1: a};\n  m[1].push(1);\n"
    "  return len(m[1]);\n}\n"
    "fn map_value_kept() -> int {\n  let a = @A@;\n  var m = {1: a};\n  m[1].push(1);\n"
    "  return len(m[1]) + len(a);\n}\n"
    "fn inserted() -> int {\n  let a = @A@;\n  var rows: [[int]] = [];\n  rows.insert(0, a);\n"
    "  rows[0].push(1);\n  return len(rows[0]);\n}\n"
    "fn inserted_kept() -> int {\n  let a = @A@;\n  var rows: [[int]] = [];\n"
    "  rows.insert(0, a);\n  rows[0].push(1);\n  return len(rows[0]) + len(a);\n}\n"
    "fn payload() -> int {\n  let a = @A@;\n  let b = Bag.Of(a);\n  match b {\n"
    "    Of(xs) => { var ys = xs; ys.push(1); return len(ys); }\n"
    "    Nothing => { return 0; }\n  }\n}\n"
    "fn payload_kept() -> int {\n  let a = @A@;\n  let b = Bag.Of(a);\n  match b {\n"
    "    Of(xs) => { var ys = xs; ys.push(1); return len(ys) + len(a); }\n"
    "    Nothing => { return 0; }\n  }\n}\n"
    "fn scrutinee_kept() -> int {\n  let a = @A@;\n  let b = Bag.Of(a);\n  match b {\n"
    "    Of(xs) => { var ys = xs; ys.push(1); return len(ys) + used(b); }\n"
    "    Nothing => { return 0; }\n  }\n}\n"
    "fn used(_b: Bag) -> int {\n  return 0;\n}\n";

static void test_transfer_positions(void)
{
    static const spx_counted_run_t runs[] = {
        /* a moves into the map's value: its block has one holder when the
         * push comes and grows in place. call, let + 2, var (a literal of
         * 1 entry and int keys: no step, no charge), push statement and
         * call, return, len: 9; the map (as values_map.c measures one
         * entry: 32 + 24) and a's block grown */
        {"map_value", 129, 9, 56 + 2080, NULL},
        /* a is read after: the map's value and a hold the block, so the
         * push copies its 128 elements (2): 9 + 2 + the second len = 12,
         * 257; A, the map and the copy grown */
        {"map_value_kept", 257, 12, 1056 + 56 + 2080, NULL},
        /* insert's value: call, let + 2, var, insert statement and call
         * (len(a) - i = 0), push (2), return, len: 11; rows (32 + 8 x 4
         * slots) and a's block grown in its slot */
        {"inserted", 129, 11, 64 + 2080, NULL},
        /* the twin copies at the push (2) and reads len(a): 14 */
        {"inserted_kept", 257, 14, 1056 + 64 + 2080, NULL},
        /* a moves into the payload and b into the match, which is then its
         * block's only holder: the match takes it apart (xs holds A alone,
         * the Of block, 16 + 8, is freed) and xs moves into ys. call, let +
         * 2, let (no step, 1 payload: no charge), match (1 payload: no
         * charge), var, push (2), return, len: 11; A grown */
        {"payload", 129, 11, 2080, NULL},
        /* a still holds A: the push copies it (2): 14 with the second len;
         * A, the copy grown, the Of block gone */
        {"payload_kept", 257, 14, 1056 + 2080, NULL},
        /* b is read in the arm, so the scrutinee does not move: the match
         * keeps its block (16 + 8) and the payload holds A beside ys, whose
         * push copies (2). call, let + 2, let, match, var, push (2) + 2,
         * return, len, used (call, return): 1 + 3 + 1 + 1 + 1 + 4 + 1 + 1
         * + 2 = 15 */
        {"scrutinee_kept", 129, 15, 1056 + 24 + 2080, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program =
        spx_run_fixture_program(fixture, with_ints128(fixture->pool, positions_source));
    spx_run_expect_counted(fixture, program, runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- a state enum taken apart by a match ----------------------------------------- */

static const char state_source[] =
    "enum St { Run([int], int), Done }\n"
    "fn step(s: St) -> St {\n  match s {\n"
    "    Run(log, n) => { var l = log; l.push(n); return St.Run(l, n + 1); }\n"
    "    Done => { return St.Done; }\n  }\n}\n"
    "fn step_kept(s: St, _k: St) -> St {\n  match s {\n"
    "    Run(log, n) => { var l = log; l.push(n); return St.Run(l, n + 1); }\n"
    "    Done => { return St.Done; }\n  }\n}\n"
    "fn total(s: St) -> int {\n  match s {\n    Run(log, n) => { return len(log) + n; }\n"
    "    Done => { return 0; }\n  }\n}\n"
    "fn states(n: int) -> int {\n  var s = St.Run([], 0);\n"
    "  for i in 0..n { s = step(s); }\n  return total(s);\n}\n"
    "fn states100() -> int {\n  return states(100);\n}\n"
    "fn states1000() -> int {\n  return states(1000);\n}\n"
    "fn states_kept() -> int {\n  var s = St.Run([], 0);\n"
    "  for i in 0..100 { s = step_kept(s, s); }\n  return total(s);\n}\n"
    "fn toggled() -> int {\n  var s = St.Run([7], 0);\n  var n = 0;\n  for i in 0..3 {\n"
    "    match s {\n      Run(log, k) => { s = St.Run(log, k + 1); n = n + k; }\n"
    "      Done => { s = St.Done; n = n + 100; }\n    }\n  }\n"
    "  return n * 10 + total(s);\n}\n";

static void test_state_enum(void)
{
    static const spx_counted_run_t runs[] = {
        /* s in step(s) moves (the statement assigns s), and so does s in
         * step's match: the operand is the block's only holder, so the
         * match takes it apart; log holds the array alone, moves into l,
         * and l into the new Run: no push copies. call, return, states
         * (call, var, for, n + 1 checks, n x 7 (assignment, call, match,
         * var, push statement, push call, return), return, total (call,
         * match, return, len)) = 2 + 3 + 101 + 700 + 1 + 4 = 811; s's Run
         * block (16 + 16) and its log in 128 slots (32 + 1024) */
        {"states100", 200, 811, 32 + 1056, NULL},
        /* 2 + 3 + 1001 + 7,000 + 5 = 8,011: linear; log in 1024 slots */
        {"states1000", 2000, 8011, 32 + 32 + 8 * 1024, NULL},
        /* the first s of step_kept(s, s) is no last use, the second moves:
         * _k holds the Run block, the match keeps it (two holders), log is
         * bound with a holder of its own beside the payload's, and each
         * push copies i elements: floor(i / 64) is 1 for i = 64..99:
         * call, var, for, 101 checks, 700, return, total (4): 809 + 36 =
         * 845. Peak at i = 99, when the new Run is made: the old Run (kept
         * by _k and the match to the return) and its log (99 elements in 2
         * x 98 slots: 32 + 1568), l, the copy grown to 198 slots (32 +
         * 1584), and the new Run (32) */
        {"states_kept", 200, 845, 32 + 32 + 1568 + 32 + 1584 + 32, NULL},
        /* s moves into the match each round and each arm assigns s anew:
         * the operand is apart from the variable, whose new value outlives
         * the statement (were the variable the operand, the match's end
         * would drop it, and the next round match nothing). call, 2 var,
         * for, 4 checks, 3 x (match, assignment, assignment), total (call,
         * match, return, len), return: 1 + 2 + 1 + 4 + 9 + 4 + 1 = 22; n =
         * 0 + 1 + 2, s is Run([7], 3): 30 + 4. The old Run is taken apart
         * before the arm makes the new one (log moves into it): [7] (32 +
         * 8) and one Run (32) */
        {"toggled", 34, 22, 40 + 32, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, state_source), runs,
                           COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- compound assignment and match arms --------------------------------------------- */

static const char compound_source[] =
    "enum Bag { Of([int]), Nothing }\n"
    "fn grown(xs: [int]) -> [int] {\n  var ys = xs;\n  ys.push(7);\n  return ys;\n}\n"
    "fn count(xs: [int]) -> int {\n  var ys = xs;\n  ys.push(7);\n  return len(ys);\n}\n"
    "fn compound() -> int {\n  var x = @A@;\n  x += grown(x);\n  return len(x);\n}\n"
    "fn compound_place() -> int {\n  var x = @A@;\n  x[0] += count(x);\n  return x[0];\n}\n"
    "fn one_arm(b: Bag) -> int {\n  let a = @A@;\n  var n = count(a);\n  match b {\n"
    "    Of(_xs) => { n = n + count(a); }\n    Nothing => { n = n + 1; }\n  }\n"
    "  return n;\n}\n"
    "fn one_arm_taken() -> int {\n  return one_arm(Bag.Of([]));\n}\n"
    "fn one_arm_other() -> int {\n  return one_arm(Bag.Nothing);\n}\n";

static void test_compound_and_arms(void)
{
    static const spx_counted_run_t runs[] = {
        /* x += grown(x) uses x after grown(x): that read is no last use,
         * so grown's push copies (2). call, var + 2, the statement, grown
         * (call, var, push (2) + 2, return: 7), the append in place (x
         * held once: n = len(e) = 129, 2), return, len: 1 + 3 + 1 + 7 + 2 +
         * 2 = 16; x (1056), grown's copy grown (2080), then x grown in place
         * to 512 slots (32 + 4096) while the copy lives */
        {"compound", 257, 16, 32 + 4096 + 2080, NULL},
        /* the same for a place rooted at x: x[0] is read, count(x) copies
         * (2), x[0] written without a copy (x held once again). call, var
         * + 2, the statement, count (call, var, push (2) + 2, return, len:
         * 8), return: 1 + 3 + 1 + 8 + 1 = 14 */
        {"compound_place", 129, 14, 1056 + 2080, NULL},
        /* the Of arm reads a: the read before the match is no last use
         * (count copies, 2); the arm's is (no copy). call, return, Bag.Of
         * ([]: no step), one_arm (call, let + 2, var, count with its copy
         * (8), match, assignment, count (6), return): 1 + 1 + 1 + 3 + 1 +
         * 8 + 1 + 1 + 6 + 1 = 24; n = 129 + 129. Peak in the first count:
         * [] (32), Of (24), A and the copy grown */
        {"one_arm_taken", 258, 24, 32 + 24 + 1056 + 2080, NULL},
        /* the other arm: the first count still copies (a is live into the
         * Of arm). call, return, one_arm (call, let + 2, var, count (8),
         * match, assignment, return): 18 */
        {"one_arm_other", 130, 18, 1056 + 2080, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program =
        spx_run_fixture_program(fixture, with_ints128(fixture->pool, compound_source));
    spx_run_expect_counted(fixture, program, runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- the checker's marks ------------------------------------------------------------ */

typedef struct reads_t {
    apr_pool_t *pool;
    const char *text;
} reads_t;

/* The reads of block-typed locals (str, arrays, structs, enums, maps), in
 * source order, each followed by "*" when the checker marked it a move. */
static void collect_reads(void *context, const spx_expr_t *e)
{
    reads_t *reads = context;
    if (!e)
        return;
    if (e->kind == SPX_EXPR_NAME && !e->as.name.constant && e->as.name.slot >= 0 &&
        (e->type == SPX_TYPE_STR || e->type == SPX_TYPE_ARRAY || e->type == SPX_TYPE_STRUCT ||
         e->type == SPX_TYPE_ENUM || e->type == SPX_TYPE_MAP))
        reads->text = apr_pstrcat(reads->pool, reads->text, *reads->text ? " " : "",
                                  e->as.name.name.text, e->as.name.moves ? "*" : "", NULL);
    if (e->kind == SPX_EXPR_VARIANT) {
        for (apr_size_t i = 0; i < e->as.variant.count; i++)
            collect_reads(context, e->as.variant.payloads[i]);
    } else if (e->kind == SPX_EXPR_MAP) {
        for (apr_size_t i = 0; i < e->as.map.count; i++) {
            collect_reads(context, e->as.map.keys[i]);
            collect_reads(context, e->as.map.values[i]);
        }
    } else {
        spx_expr_visit_children(e, collect_reads, reads);
    }
}

static const char marks_source[] =
    "enum Bag { Of([int]), Pair(str, [int]), Nothing }\n"
    "fn g(xs: [int]) -> int {\n  return len(xs);\n}\n"
    "fn h(b: Bag) -> int {\n  return 0;\n}\n"
    "fn map_literal(k: str, v: [int], w: [int]) -> int {\n"
    "  let m = {k: v, \"x\": w};\n  return len(m) + len(w);\n}\n"
    "fn map_moved(m: {str: [int]}) -> int {\n  let n = m;\n  return len(n);\n}\n"
    "fn variant(s: str, v: [int]) -> int {\n  let b = Bag.Pair(s, v);\n  return h(b);\n}\n"
    "fn inserted(v: [int], w: [int]) -> int {\n  var rows = [w];\n  rows.insert(0, v);\n"
    "  rows.insert(0, w);\n  return len(rows);\n}\n"
    "fn writing(x: [int]) -> int {\n  var y = x;\n  y.insert(0, g(y));\n  y.sort();\n"
    "  y.remove(g(y));\n  y.reverse();\n  return len(y);\n}\n"
    "fn compound(a: [int], b: [int]) -> int {\n  var x = a;\n  x += b;\n  x += [g(x)];\n"
    "  return len(x);\n}\n"
    "fn compound_str(t: str, u: str) -> int {\n  var s = t;\n  s += u;\n  return len(s);\n}\n"
    "fn scrutinee(b: Bag) -> int {\n  match b {\n    Of(xs) => { return g(xs); }\n"
    "    Pair(_s, ys) => { return g(ys) + g(ys); }\n    Nothing => { return 0; }\n  }\n}\n"
    "fn scrutinee_used(b: Bag) -> int {\n  match b {\n    Of(xs) => { return g(xs) + h(b); }\n"
    "    _ => { return 0; }\n  }\n}\n"
    "fn one_arm(b: Bag, a: [int]) -> int {\n  var n = g(a);\n  match b {\n"
    "    Of(_xs) => { n = n + g(a); }\n    _ => { n = n + 1; }\n  }\n  return n;\n}\n"
    "fn after_match(b: Bag, a: [int]) -> int {\n  var n = 0;\n  match b {\n"
    "    Of(_xs) => { n = g(a); }\n    _ => { n = 1; }\n  }\n  return n + g(a);\n}\n"
    "fn in_loop(b: Bag) -> int {\n  var n = 0;\n  var c = b;\n  for i in 0..2 {\n"
    "    match c {\n      Of(xs) => { n = n + g(xs); c = Bag.Nothing; }\n"
    "      _ => { break; }\n    }\n  }\n  return n;\n}\n";

static void test_checker_marks(void)
{
    static const struct {
        const char *function;
        const char *reads;
    } cases[] = {
        /* a map literal's keys and values are transfer positions */
        {"map_literal", "k* v* w m w"},
        /* maps are block types */
        {"map_moved", "m* n"},
        /* a variant's payloads; an enum is a block type */
        {"variant", "s* v* b*"},
        /* insert's value (w read again later is not moved by [w]) */
        {"inserted", "w v* w* rows"},
        /* writing methods resolve their place after their arguments */
        {"writing", "x* y y y"},
        /* the right side of a compound assignment is no transfer position;
         * its root is used after that side */
        {"compound", "a* b x x"},
        {"compound_str", "t* u s"},
        /* the scrutinee and binders; each arm its own path */
        {"scrutinee", "b* xs* ys ys*"},
        {"scrutinee_used", "b xs* b*"},
        /* a variable read in one arm is live into that arm */
        {"one_arm", "a b* a*"},
        {"after_match", "b* a a*"},
        /* the next round reads c unless the arm assigns it first: the
         * break arm leaves the loop */
        {"in_loop", "b* c* xs*"},
    };
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_arena_t *arena = spx_arena_make(pool);
    spx_module_t *module = spx_module_make("app", "app.spx", (const unsigned char *)marks_source,
                                           strlen(marks_source), arena);
    spx_parse_module(module, arena, arena, pool, diagnostics);
    spx_check_program(&module, 1, pool, diagnostics);
    if (spx_diagnostics_error_count(diagnostics) != 0)
        fprintf(stderr, "\n  %s", spx_diagnostics_get(diagnostics, 0)->message);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_error_count(diagnostics), 0);
    for (size_t i = 0; i < COUNT(cases); i++) {
        spx_function_t *function =
            apr_hash_get(module->functions_by_name, cases[i].function, APR_HASH_KEY_STRING);
        CU_ASSERT_PTR_NOT_NULL_FATAL(function);
        reads_t reads = {pool, ""};
        spx_block_visit_expressions(&function->body, collect_reads, &reads);
        if (strcmp(reads.text, cases[i].reads) != 0)
            fprintf(stderr, "\n  %s: \"%s\", wanted \"%s\"", cases[i].function, reads.text,
                    cases[i].reads);
        CU_ASSERT_STRING_EQUAL(reads.text, cases[i].reads);
    }
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"a move into a map value, insert's value, a payload and a scrutinee",
         test_transfer_positions},
        {"s = step(s) on a state enum taken apart by a match", test_state_enum},
        {"compound assignment does not move; match arms are alternatives", test_compound_and_arms},
        {"the checker's marks with maps, variants, insert, compound assignment and match",
         test_checker_marks},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("interpreter, language v3: moves with maps, enums and match", tests);
}
