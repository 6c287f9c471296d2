/*
 * test_v3_moves.c: move on last use (language v3, Execution: "Holders,
 * exactly" and "Move on last use"; docs/language.md and docs/execution.md).
 * Every count is by hand from the specification (the sum is in the comment
 * beside it): the quadratic-to-linear example at 1,000 and 4,000 pushes and
 * the same program where the move cannot happen (v2's counts); a struct
 * updated by s = step(s); one program per transfer position, where the move
 * shows as a missing copy charge and a lower memory peak; one program per
 * reason a read is not a last use, where the copy is still made; value
 * semantics (a moved variable is never read again, a copy never observed);
 * the measure, which never exceeds what the run without the move reaches,
 * at max_memory and one byte under it; the constructs v3 adds beside it (a
 * move into a map literal's value, a variant's payload, insert's value and
 * a match's scrutinee, which the match then takes apart; a state enum
 * updated by s = step(s); compound assignment, which never moves its root
 * nor its right side; match arms as alternatives; binders moved); and,
 * white-box, which reads the checker marks as moves
 * (engine/checker_moves.c) on every kind of path.
 */
#include "spx_ast.h"
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <string.h>

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* run returns as counted with max_memory at its peak, and with one byte
 * less fails with R0521 at span (of app.spx) after steps. */
static void expect_peak_exact(spx_fixture_t *fixture, const spx_program_t *program,
                              const spx_counted_run_t *run, const char *span, uint64_t steps)
{
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_memory = run->peak;
    spx_run_result_t at_peak = spx_run_fixture_call(fixture, program, run->function, &limits);
    spx_run_assert_returned(&at_peak, run->value, run->steps);
    CU_ASSERT_EQUAL(at_peak.memory_peak, run->peak);
    limits.max_memory = run->peak - 1;
    spx_run_result_t under = spx_run_fixture_call(fixture, program, run->function, &limits);
    if (under.outcome == SPX_OUTCOME_RETURNED)
        fprintf(stderr, "\n  app.%s returned under its peak", run->function);
    else if (under.steps != steps)
        fprintf(stderr, "\n  app.%s: %s after %llu steps", run->function, under.failure.message,
                (unsigned long long)under.steps);
    CU_ASSERT_EQUAL_FATAL(under.outcome == SPX_OUTCOME_RETURNED, 0);
    spx_run_assert_stopped(&under, SPX_OUTCOME_LANGUAGE_FAILURE, "R0521", span, fixture->pool);
    CU_ASSERT_STRING_EQUAL(under.failure.message,
                           apr_psprintf(fixture->pool,
                                        "memory limit exceeded: %" APR_UINT64_T_FMT
                                        " bytes live, over max_memory %" APR_UINT64_T_FMT,
                                        (apr_uint64_t)run->peak, (apr_uint64_t)(run->peak - 1)));
    CU_ASSERT_EQUAL(under.steps, steps);
}

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

/* --- the specification's example ------------------------------------------ */

static const char quadratic_source[] =
    "fn add(b: [int], v: int) -> [int] { var c = b; c.push(v); return c; }\n"
    "fn add_kept(b: [int], v: int, _e: [int]) -> [int] { var c = b; c.push(v); return c; }\n"
    "fn t1000() -> int {\n  var b: [int] = [];\n  for i in 0..1000 { b = add(b, i); }\n"
    "  return len(b) - 1000;\n}\n"
    "fn t4000() -> int {\n  var b: [int] = [];\n  for i in 0..4000 { b = add(b, i); }\n"
    "  return len(b) - 4000;\n}\n"
    "fn kept1000() -> int {\n  var b: [int] = [];\n"
    "  for i in 0..1000 { b = add_kept(b, i, b[0..0]); }\n  return len(b) - 1000;\n}\n"
    "fn kept4000() -> int {\n  var b: [int] = [];\n"
    "  for i in 0..4000 { b = add_kept(b, i, b[0..0]); }\n  return len(b) - 4000;\n}\n";

static void test_quadratic_to_linear(void)
{
    static const spx_counted_run_t runs[] = {
        /* 1 (call) + 1 (var) + 1 (for) + 1001 (checks) + 1000 x 6
         * (assignment, call, var, push statement, push call, return) + 1
         * (return) + 1 (len) = 7,006: b in add(b, i) and in var c = b are
         * last uses, so the array has one holder at every push and nothing
         * is copied. b alone: 32 + 8 x 1024 slots (4, 8, ... doubling) */
        {"t1000", 0, 7006, 32 + 8 * 1024, NULL},
        /* 7 x 4000 + 6 = 28,006; 32 + 8 x 4096 */
        {"t4000", 0, 28006, 32 + 8 * 4096, NULL},
        /* b is used after its read (b[0..0], a slice of 0 elements: no
         * step), so it is no last use: the caller's b and c hold the array
         * at each push, which copies i elements: 7,006 + the sum of
         * floor(i / 64) for i < 1000 (64 x (0 + ... + 14) + 40 x 15 =
         * 7,320) = 14,326, v2's count. Peak at the last push (i = 999): b
         * (999 elements in 2 x 998 slots: 32 + 15968), the copy grown to
         * 1998 slots (32 + 15984) and the empty slice (32): 32,048 */
        {"kept1000", 0, 14326, 32048, NULL},
        /* 28,006 + 64 x (0 + ... + 61) + 32 x 62 = 28,006 + 123,008 =
         * 151,014; at i = 3999: 32 + 8 x 7996 + 32 + 8 x 7998 + 32 */
        {"kept4000", 0, 151014, 96 + 8 * (7996 + 7998), NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, quadratic_source);
    spx_run_expect_counted(fixture, program, runs, COUNT(runs));
    /* The measure at its exact peak: with one byte less, the push that
     * grows b to 1024 slots (the 513th, i = 512) fails after 1 + 1 + 1 +
     * 513 checks + 512 x 6 + 5 (assignment, call, var, push statement,
     * push call) = 3,593 steps */
    expect_peak_exact(fixture, program, &runs[0], "1:48-1:57", 3593);
    spx_fixture_free(fixture);
}

/* The same for a struct: step starts var t = s. */
static const char state_source[] =
    "struct State { log: [int], n: int }\n"
    "fn step(s: State) -> State {\n  var t = s;\n  t.log.push(t.n);\n  t.n = t.n + 1;\n"
    "  return t;\n}\n"
    "fn step_kept(s: State, _n: int) -> State {\n  var t = s;\n  t.log.push(t.n);\n"
    "  t.n = t.n + 1;\n  return t;\n}\n"
    "fn states() -> int {\n  var s = State { log: [], n: 0 };\n"
    "  for i in 0..100 { s = step(s); }\n  return len(s.log) + s.n;\n}\n"
    "fn states_kept() -> int {\n  var s = State { log: [], n: 0 };\n"
    "  for i in 0..100 { s = step_kept(s, s.n); }\n  return len(s.log) + s.n;\n}\n";

static void test_struct_step(void)
{
    static const spx_counted_run_t runs[] = {
        /* call, var, for, 101 checks, 100 x 7 (assignment, call, var, push
         * statement, push call, assignment, return), return, len: 806; the
         * struct (32 + 16) and its log grown to 128 slots (32 + 1024) */
        {"states", 200, 806, 48 + 1056, NULL},
        /* s.n after the read of s: no move, so the caller's s and t hold
         * the struct at each push, which copies it (2 fields) and then its
         * log (i elements): floor((2 + i) / 64) is 1 for i = 62..99: 806 +
         * 38 = 844. Peak at i = 99: the caller's struct and log (99 in 2 x
         * 98 slots), t's struct and the log's copy grown to 198 slots */
        {"states_kept", 200, 844, 48 + 32 + 8 * 196 + 48 + 32 + 8 * 198, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, state_source), runs,
                           COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- transfer positions ------------------------------------------------------ */

/* A is 1056 bytes (2 steps to make); grown by a push, 2080. */
static const char positions_source[] =
    "struct Box { xs: [int] }\n"
    "fn grown(xs: [int]) -> int {\n  var ys = xs;\n  ys.push(1);\n  return len(ys);\n}\n"
    "fn made() -> [int] {\n  let a = @A@;\n  return a;\n}\n"
    "fn pos_let() -> int {\n  let a = @A@;\n  var c = a;\n  c.push(1);\n  return len(c);\n}\n"
    "fn pos_assign() -> int {\n  let a = @A@;\n  var c: [int] = [];\n  c = a;\n  c.push(1);\n"
    "  return len(c);\n}\n"
    "fn pos_place() -> int {\n  let a = @A@;\n  var p = Box { xs: [] };\n  p.xs = a;\n"
    "  p.xs.push(1);\n  return len(p.xs);\n}\n"
    "fn pos_argument() -> int {\n  let a = @A@;\n  return grown(a);\n}\n"
    "fn pos_return() -> int {\n  var c = made();\n  c.push(1);\n  return len(c);\n}\n"
    "fn pos_element() -> int {\n  let a = @A@;\n  var rows = [a];\n  rows[0].push(1);\n"
    "  return len(rows[0]);\n}\n"
    "fn pos_field() -> int {\n  let a = @A@;\n  var p = Box { xs: a };\n  p.xs.push(1);\n"
    "  return len(p.xs);\n}\n"
    "fn pos_push() -> int {\n  let a = @A@;\n  var rows: [[int]] = [];\n  rows.push(a);\n"
    "  rows[0].push(1);\n  return len(rows[0]);\n}\n";

static void test_transfer_positions(void)
{
    static const spx_counted_run_t runs[] = {
        /* call, let + 2, var, push statement and call, return, len: 9 (no
         * copy); a's block, moved to c and grown: 2080 */
        {"pos_let", 129, 9, 2080, NULL},
        /* call, let + 2, var, assignment, push (2), return, len: 10; a and
         * [] (32) before the assignment frees [], then a's block grown */
        {"pos_assign", 129, 10, 2080, NULL},
        /* call, let + 2, var, assignment to p.xs, push (2), return, len: 10;
         * p (32 + 8) and a's block grown in its slot */
        {"pos_place", 129, 10, 40 + 2080, NULL},
        /* call, let + 2, return, grown (call, var, push (2), return, len):
         * 11; both a (the argument) and xs (var ys = xs) are last uses */
        {"pos_argument", 129, 11, 2080, NULL},
        /* call, var, made (call, let + 2, return), push (2), return, len:
         * 11. The move of return a is not observable: the frame is left at
         * once, and a's holder would go with it */
        {"pos_return", 129, 11, 2080, NULL},
        /* call, let + 2, var ([a]: 1 element, no step), push (2), return,
         * len: 9; rows (32 + 8) and a's block in its slot, grown */
        {"pos_element", 129, 9, 40 + 2080, NULL},
        /* the same with a struct literal's field: 9 */
        {"pos_field", 129, 9, 40 + 2080, NULL},
        /* call, let + 2, var, push (2), push (2), return, len: 11; rows
         * grown to 4 slots (64) and a's block in its slot, grown */
        {"pos_push", 129, 11, 64 + 2080, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program =
        spx_run_fixture_program(fixture, with_ints128(fixture->pool, positions_source));
    spx_run_expect_counted(fixture, program, runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- reads that are not last uses ------------------------------------------------ */

static const char not_last_source[] =
    "struct Box { xs: [int] }\n"
    "fn grown(xs: [int]) -> int {\n  var ys = xs;\n  ys.push(1);\n  return len(ys);\n}\n"
    "fn grown_array(xs: [int]) -> [int] {\n  var ys = xs;\n  ys.push(1);\n  return ys;\n}\n"
    "fn same_statement() -> int {\n  let a = @A@;\n  return grown(a) + len(a);\n}\n"
    "fn later_statement() -> int {\n  let a = @A@;\n  var c = a;\n  c.push(1);\n"
    "  return len(c) + len(a);\n}\n"
    "fn next_round() -> int {\n  let a = @A@;\n  var n = 0;\n"
    "  for i in 0..2 { n = n + grown(a); }\n  return n;\n}\n"
    "fn assigned_each_round() -> int {\n  var a = @A@;\n  var n = 0;\n"
    "  for i in 0..2 { n = n + grown(a); a = @A@; }\n  return n;\n}\n"
    "fn join(flag: bool) -> int {\n  let a = @A@;\n  var n = 0;\n"
    "  if flag { n = grown(a); } else { n = 1; }\n  return n + len(a);\n}\n"
    "fn other(flag: bool) -> int {\n  let a = @A@;\n  if flag { return grown(a); }\n"
    "  return len(a);\n}\n"
    "fn branch_join() -> int {\n  return join(true);\n}\n"
    "fn other_branch() -> int {\n  return other(true);\n}\n"
    "fn root_after() -> int {\n  var x = @A@;\n  x[0] = grown(x);\n  return x[0] + len(x);\n}\n"
    "fn root_after_push() -> int {\n  var x = @A@;\n  x.push(grown(x));\n  return len(x);\n}\n"
    "fn appended() -> int {\n  var s = \"ab\" + \"cd\";\n  s = s + echo(s);\n  return len(s);\n}\n"
    "fn echo(s: str) -> str {\n  return s;\n}\n"
    "fn operators_keep() -> int {\n  let a = @A@;\n  let b = @A@;\n  var n = len(a);\n"
    "  if a == b { n = n + 1; }\n  let c = @A@;\n  return n + len(b) + len(c);\n}\n"
    "fn concat_keeps() -> int {\n  let t = \"abc\" + \"def\";\n  let u = t + \"g\";\n"
    "  let w = \"hij\" + \"klm\";\n  return len(u) + len(w);\n}\n"
    "fn field_update() -> int {\n  var p = Box { xs: @A@ };\n  p.xs = grown_array(p.xs);\n"
    "  return len(p.xs);\n}\n"
    "fn field_taken() -> int {\n  var p = Box { xs: @A@ };\n  var t = p.xs;\n  p.xs = [];\n"
    "  t = grown_array(t);\n  p.xs = t;\n  return len(p.xs);\n}\n"
    "fn pop_shared() -> int {\n  var a = @A@;\n  var c = a;\n  let p = c.pop();\n"
    "  return len(a) + len(c) + p;\n}\n";

static void test_not_last_uses(void)
{
    static const spx_counted_run_t runs[] = {
        /* a is read again later in the statement: call, let + 2, return,
         * grown (call, var, push statement, push call + the copy of 128: 2,
         * return, len), len: 14; a and ys's copy grown: 1056 + 2080 */
        {"same_statement", 257, 14, 3136, NULL},
        /* a is read in a later statement: call, let + 2, var, push (2) + 2,
         * return, 2 len: 12 */
        {"later_statement", 257, 12, 3136, NULL},
        /* the next round reads a: call, let + 2, var, for, 3 checks, 2 x
         * (assignment, grown: call, var, push (2) + 2, return, len = 9),
         * return: 28 */
        {"next_round", 258, 28, 3136, NULL},
        /* assigned before the next round reads it, a moves: each round
         * assignment, grown (call, var, push (2), return, len), assignment
         * + 2: 10; call, var + 2, var, for, 3 checks, 20, return: 30. The
         * moved block is freed when grown returns, before the new one is
         * made: 2080 */
        {"assigned_each_round", 258, 30, 2080, NULL},
        /* a is read after the if: call, return, join (call, let + 2, var,
         * if, assignment, grown with its copy (8), return, len): 19 */
        {"branch_join", 257, 19, 3136, NULL},
        /* a is read only in the other path: call, return, other (call, let
         * + 2, if, return, grown without a copy (6)): 14 */
        {"other_branch", 129, 14, 2080, NULL},
        /* x is resolved after its value: call, var + 2, assignment, grown
         * with its copy (8), return, len: 15 (the write itself copies
         * nothing: ys is gone) */
        {"root_after", 257, 15, 3136, NULL},
        /* the same with push: call, var + 2, push statement, grown with its
         * copy (8), push call, return, len: 16; x and ys's copy (1056 +
         * 2080), ys gone before x grows to 256 slots (2080) */
        {"root_after_push", 129, 16, 3136, NULL},
        /* s = s + echo(s) is the statement s += echo(s): s is resolved
         * after echo(s), so that read is no last use and s still holds its
         * block when the append comes. call, var (concatenation), the
         * assignment, echo (call, return), return, len: 7; "ab" and "cd"
         * (32 each) and s (36), then s grown to 8 bytes in a capacity of 8
         * (36 -> 40) */
        {"appended", 8, 7, 32 + 32 + 36, NULL},
        /* len(a) and a == b read a without moving it, even as its last
         * use: a holds its block to the return. call, let + 2, let + 2, var
         * + len, if + a == b (128 examined: 2), assignment, let + 2,
         * return, 2 len: 19; a, b and c: 3 x 1056 */
        {"operators_keep", 385, 19, 3 * 1056, NULL},
        /* t + "g" neither: t (38) lives on beside u (39) while "hij" and
         * "klm" (32 each) make w (38): 179; call, 3 let, return, 2 len: 7 */
        {"concat_keeps", 13, 7, 38 + 39 + 32 + 32 + 38, NULL},
        /* moves never reach into places: p.xs is read with a holder, so
         * grown_array's push copies: call, var + 2, assignment, grown_array
         * (call, var, push (2) + 2, return), return, len: 14; p, A and the
         * copy grown: 40 + 1056 + 2080 */
        {"field_update", 129, 14, 40 + 1056 + 2080, NULL},
        /* the field taken into a local: t alone holds A once p.xs = [], and
         * t moves in and out: call, var + 2, var, assignment, assignment,
         * grown_array (call, var, push (2), return), assignment, return,
         * len: 15; p, [] and A grown: 40 + 32 + 2080 */
        {"field_taken", 129, 15, 40 + 32 + 2080, NULL},
        /* a is read after var c = a: c's pop copies (128: 2): call, var +
         * 2, var, let + pop + 2, return, 2 len: 12; a and c's copy: 2 x
         * 1056 */
        {"pop_shared", 128 + 127 + 127, 12, 2 * 1056, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program =
        spx_run_fixture_program(fixture, with_ints128(fixture->pool, not_last_source));
    spx_run_expect_counted(fixture, program, runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- value semantics ----------------------------------------------------------- */

static const char values_source[] =
    "fn took(xs: [int]) -> bool {\n  return len(xs) > 0;\n}\n"
    "fn moved_then_assigned() -> int {\n  var a = [1, 2];\n  var rows: [[int]] = [];\n"
    "  for i in 0..3 {\n    rows.push(a);\n    a = [i];\n  }\n  rows[0][0] = 7;\n"
    "  return rows[0][0] * 1000 + rows[1][0] * 100 + rows[2][0] * 10 + a[0];\n}\n"
    "fn break_path() -> int {\n  var a = [1];\n  var keep: [[int]] = [];\n  var i = 0;\n"
    "  while true {\n    keep.push(a);\n    if i == 1 { break; }\n    a = [2, 3];\n"
    "    i = i + 1;\n  }\n  return len(a) * 10 + len(keep);\n}\n"
    "fn continue_path() -> int {\n  var a = [1];\n  var keep: [[int]] = [];\n"
    "  for i in 0..3 {\n    keep.push(a);\n    if i < 2 { continue; }\n    a = [5];\n  }\n"
    "  keep[0][0] = 9;\n  return len(keep) * 100 + keep[1][0] * 10 + a[0];\n}\n"
    "fn right_operand() -> int {\n  let a = [1];\n  var n = 0;\n"
    "  if took(a) || took(a) { n = n + 1; }\n  if took(a) && took(a) { n = n + 10; }\n"
    "  return n;\n}\n"
    "fn copied_not_seen() -> int {\n  var a = [1, 2];\n  var b = a;\n  b.push(3);\n  a[0] = 9;\n"
    "  return a[0] * 100 + len(a) * 10 + len(b) + b[0] * 1000;\n}\n"
    "fn count(xs: [int]) -> int {\n  return len(xs);\n}\n"
    "fn same(xs: [int]) -> [int] {\n  return xs;\n}\n"
    "fn echo(s: str) -> str {\n  return s;\n}\n"
    "fn index_then_move() -> int {\n  let xs = [5, 6, 7];\n  return xs[count(xs) - 1];\n}\n"
    "fn compare_then_move() -> int {\n  let a = [1, 2];\n  if a == same(a) { return 1; }\n"
    "  return 0;\n}\n"
    "fn concat_then_move() -> int {\n  let s = \"ab\" + \"\";\n  let t = s + echo(s);\n"
    "  return len(t);\n}\n"
    "fn for_variable() -> int {\n  let rows = [[1], [2]];\n  var out: [[int]] = [];\n"
    "  for r in rows { out.push(r); }\n  out[0][0] = 5;\n"
    "  return rows[0][0] * 100 + out[0][0] * 10 + out[1][0];\n}\n";

static void test_value_semantics(void)
{
    static const spx_counted_run_t runs[] = {
        /* a is moved into rows each round and assigned anew: rows holds
         * [1, 2], [0], [1]; nothing is copied, and rows[0][0] = 7 changes
         * only rows (its blocks each held once). call, var, var, for, 4
         * checks, 3 x (push (2), assignment), assignment, return: 19;
         * a's [1, 2] (48) in rows (4 slots: 64), the three [i] (40 each) */
        {"moved_then_assigned", 7012, 19, 48 + 64 + 40 + 40 + 40, NULL},
        /* the break path reaches len(a): a is not moved by keep.push(a), and
         * reads [2, 3] after the loop. call, 3 var, while, condition,
         * push (2), if, assignment, assignment, condition, push (2), if,
         * break, return, 2 len: 19 */
        {"break_path", 22, 19, 40 + 64 + 48, NULL},
        /* the continue path reaches the next round's read: keep holds a's
         * block three times and the write keep[0][0] = 9 copies it (3
         * holders). call, var, var, for, 4 checks, rounds 0 and 1: push (2),
         * if, continue; round 2: push (2), if, assignment; assignment + its
         * copy (no step: 1 element), return + len: 1 + 1 + 1 + 1 + 4 + 8 +
         * 4 + 1 + 2 = 23; a's [1] (40) in keep (64), [5] and the copy */
        {"continue_path", 315, 23, 40 + 64 + 40 + 40, NULL},
        /* the a of took(a) in a left operand is no last use (the right
         * operand may be taken); the last one, of the right operand of &&,
         * is. call, let, var, if, took (call, return, len: 3; || skips the
         * second), assignment, if, 2 took, assignment, return: 17 */
        {"right_operand", 11, 17, 40, NULL},
        /* a is read after var b = a: b's push copies (2 elements: no
         * step), a's write does not (b holds the copy): a is [9, 2], b [1,
         * 2, 3]. call, 2 var, push (2), assignment, return, 2 len: 9; a
         * (48) and b's copy grown to 4 slots (64) */
        {"copied_not_seen", 1000 + 900 + 20 + 3, 9, 48 + 64, NULL},
        /* r moves into out each round (its scope ends with the round); the
         * snapshot and rows still hold [1] and [2], so out[0][0] = 5 copies
         * [1] and rows keeps it. call, let, var, for, 3 checks, 2 push (2),
         * assignment, return: 13 */
        {"for_variable", 152, 13, 40 + 40 + 48 + 64 + 40, NULL},
        /* an operand read before a read that moves the same variable keeps
         * a holder of its own (the base of xs[count(xs) - 1], the left of
         * a == same(a) and of s + echo(s)), so the move empties the
         * variable, never the operand. call, let, return, count (call,
         * return, len): 6 */
        {"index_then_move", 7, 6, 56, NULL},
        /* call, let, if, same (call, return), == (2 examined), return: 6 */
        {"compare_then_move", 1, 6, 48, NULL},
        /* call, let, let, echo (call, return), return, len: 7; "ab" and ""
         * (32 each) with s (34) */
        {"concat_then_move", 4, 7, 32 + 32 + 34, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, values_source), runs,
                           COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- holders, exactly ----------------------------------------------------------- */

static const char holders_source[] =
    "fn keeps(a: [int]) -> int {\n  let _c = a;\n  return len(a);\n}\n"
    "fn overwritten() -> int {\n  var a = @A@;\n  a = @A@;\n  return len(a);\n}\n"
    "fn block_end() -> int {\n  var a = @A@;\n  if true { let _b = a; }\n  a.push(1);\n"
    "  return len(a);\n}\n"
    "fn break_leaves() -> int {\n  var a = @A@;\n  while true { let _b = a; break; }\n"
    "  a.push(1);\n  return len(a);\n}\n"
    "fn continue_leaves() -> int {\n  var a = @A@;\n  for i in 0..1 { let _b = a; continue; }\n"
    "  a.push(1);\n  return len(a);\n}\n"
    "fn loop_ends() -> int {\n  var rows = [@A@];\n  var n = 0;\n"
    "  for r in rows { n = n + len(r); }\n  rows[0].push(1);\n  return n + len(rows[0]);\n}\n"
    "fn at_return() -> int {\n  var a = @A@;\n  let n = keeps(a);\n  a.push(1);\n"
    "  return n + len(a);\n}\n";

/* Holders (language v3, Execution): a variable drops its holder when it is
 * overwritten (after the new value is made), at the end of its block, when
 * break or continue leaves its block, at return; a for variable and its
 * snapshot when the loop ends. Each program below pushes into a block some
 * variable held before: the push copies nothing (no size charge, no second
 * block) only because that holder is gone. */
static void test_holders(void)
{
    static const spx_counted_run_t runs[] = {
        /* the old block is dropped after the new one is made: call, var +
         * 2, assignment + 2, return, len: 9; both blocks at once: 2 x 1056 */
        {"overwritten", 128, 9, 2 * 1056, NULL},
        /* _b goes at the end of the if's block: call, var + 2, if, let,
         * push (2), return, len: 10 */
        {"block_end", 129, 10, 2080, NULL},
        /* break leaves the body: call, var + 2, while, condition, let,
         * break, push (2), return, len: 12 */
        {"break_leaves", 129, 12, 2080, NULL},
        /* continue leaves it: call, var + 2, for, 2 checks, let, continue,
         * push (2), return, len: 13 */
        {"continue_leaves", 129, 13, 2080, NULL},
        /* r and the snapshot go when the loop ends: call, var + 2, var, for,
         * 2 checks, assignment + len, push (2), return, len: 14; rows (40)
         * and A grown in its slot */
        {"loop_ends", 257, 14, 40 + 2080, NULL},
        /* keeps's a and _c go at its return (a is no last use in keeps(a):
         * a.push follows): call, var + 2, let, keeps (call, let, return,
         * len), push (2), return, len: 13 */
        {"at_return", 257, 13, 2080, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program =
        spx_run_fixture_program(fixture, with_ints128(fixture->pool, holders_source));
    spx_run_expect_counted(fixture, program, runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- transfer positions of language v3 ------------------------------------------ */

static const char v3_positions_source[] =
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

static void test_v3_transfer_positions(void)
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
        spx_run_fixture_program(fixture, with_ints128(fixture->pool, v3_positions_source));
    spx_run_expect_counted(fixture, program, runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- a state enum taken apart by a match ----------------------------------------- */

static const char enum_state_source[] =
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
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, enum_state_source), runs,
                           COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- compound assignment and match arms --------------------------------------------- */

static const char compound_arms_source[] =
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
        spx_run_fixture_program(fixture, with_ints128(fixture->pool, compound_arms_source));
    spx_run_expect_counted(fixture, program, runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- the checker's marks ---------------------------------------------------------- */

/* The reads of block-typed locals (str, arrays, structs, enums, maps) of
 * one function, in source order, each name followed by "*" when the
 * checker marked it as a move. */
typedef struct reads_t {
    apr_pool_t *pool;
    const char *text;
} reads_t;

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
    spx_expr_visit_children(e, collect_reads, reads);
}

static const char marks_source[] =
    "fn g(xs: [int]) -> int {\n  return len(xs);\n}\n"
    "fn example(b: [int], v: int) -> [int] { var c = b; c.push(v); return c; }\n"
    "fn same_statement(a: [int]) -> int {\n  return g(a) + len(a);\n}\n"
    "fn later_statement(a: [int]) -> int {\n  var c = a;\n  c.push(1);\n"
    "  return len(c) + len(a);\n}\n"
    "fn next_round(a: [int]) -> int {\n  var n = 0;\n  for i in 0..2 { n = n + g(a); }\n"
    "  return n + i0();\n}\n"
    "fn i0() -> int {\n  return 0;\n}\n"
    "fn assigned_first(x: [int]) -> int {\n  var a = x;\n  var n = 0;\n"
    "  for i in 0..2 { n = n + g(a); a = [i]; }\n  return n + len(a);\n}\n"
    "fn joined(flag: bool, a: [int]) -> int {\n  var n = 0;\n"
    "  if flag { n = g(a); } else { n = 1; }\n  return n + len(a);\n}\n"
    "fn other_branch(flag: bool, a: [int]) -> int {\n"
    "  if flag { return g(a); } else if len(a) > 3 { return g(a); }\n  return len(a);\n}\n"
    "fn root_after(x: [int]) -> int {\n  var y = x;\n  y[0] = g(y);\n  y.push(g(y));\n"
    "  return len(y);\n}\n"
    "fn operators(a: [int], b: [int], s: str) -> int {\n  if a == b { return len(s + s); }\n"
    "  return 0;\n}\n"
    "struct Box { xs: [int] }\n"
    "fn field(p: Box) -> int {\n  var q = p;\n  q.xs = [g(q.xs)];\n  return len(q.xs);\n}\n"
    "fn condition(a: [int]) -> int {\n  var n = 0;\n  while g(a) > n { n = n + 1; }\n"
    "  return n;\n}\n"
    "fn break_path(x: [int]) -> int {\n  var a = x;\n  while true {\n    g(a);\n"
    "    if len(a) > 1 { break; }\n    a = [1, 2];\n  }\n  return len(a);\n}\n"
    "fn continue_path(x: [int]) -> int {\n  var a = x;\n  for i in 0..3 {\n    g(a);\n"
    "    if i < 2 { continue; }\n    a = [5];\n  }\n  return 0;\n}\n"
    "fn right_operand(a: [int]) -> int {\n  if g(a) > 0 || g(a) > 1 { return 1; }\n"
    "  return 0;\n}\n"
    "fn for_variable(rows: [[int]]) -> int {\n  var out: [[int]] = [];\n"
    "  for r in rows { out.push(r); }\n  for r in rows { out.push(r); out.push(r); }\n"
    "  return len(out);\n}\n"
    "fn appended(t: str) -> int {\n  var s = t;\n  s = s + echo(s);\n  return len(s);\n}\n"
    "fn echo(s: str) -> str {\n  return s;\n}\n"
    "fn nested(ys: [int]) -> int {\n  var y = ys;\n  var n = 0;\n  for i in 0..2 {\n"
    "    for j in 0..2 { n = n + g(y); }\n    y = [i];\n  }\n  for i in 0..2 {\n"
    "    for j in 0..2 { n = n + g(y); break; }\n    y = [i];\n  }\n  for i in 0..2 {\n"
    "    n = n + g(y);\n    for j in 0..2 { n = n + j; }\n  }\n  return n;\n}\n"
    "fn header(a: [int]) -> int {\n  var n = 0;\n  for i in 0..g(a) { n = n + i; }\n"
    "  for x in id(a) { n = n + x; }\n  return n;\n}\n"
    "fn id(xs: [int]) -> [int] {\n  return xs;\n}\n"
    "fn operand_first(xs: [int], s: str) -> int {\n  let t = s + echo(s);\n"
    "  return xs[g(xs) - 1] + len(t);\n}\n";

typedef struct marks_t {
    const char *function;
    const char *reads;
} marks_t;

/* Checks source and, for each case, the reads of its function as
 * collect_reads shows them. */
static void expect_marks(const char *source, const marks_t *cases, size_t count)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_arena_t *arena = spx_arena_make(pool);
    spx_module_t *module =
        spx_module_make("app", "app.spx", (const unsigned char *)source, strlen(source), arena);
    spx_parse_module(module, arena, arena, pool, diagnostics);
    spx_check_program(&module, 1, pool, diagnostics);
    if (spx_diagnostics_error_count(diagnostics) != 0)
        fprintf(stderr, "\n  %s", spx_diagnostics_get(diagnostics, 0)->message);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_error_count(diagnostics), 0);
    for (size_t i = 0; i < count; i++) {
        spx_function_t *function = spx_module_function(module, cases[i].function);
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

static void test_checker_marks(void)
{
    static const marks_t cases[] = {
        {"example", "b* c*"},
        /* later in the same statement, or in a later statement: no move */
        {"same_statement", "a a"},
        {"later_statement", "a c a"},
        /* the next round reads a, unless an assignment comes first */
        {"next_round", "a"},
        {"assigned_first", "x* a* a"},
        /* a path through either branch to a later use; the other branch's
         * own reads are not on it */
        {"joined", "a a"},
        {"other_branch", "a* a a* a"},
        /* the place's root is resolved after its value */
        {"root_after", "x* y y y y"},
        /* operators, len and conditions never move */
        {"operators", "a b s s"},
        /* nor do places: q.xs is a field; q the root of the place */
        {"field", "p* q q q"},
        /* the condition runs before each round */
        {"condition", "a"},
        /* break reaches the return's read; continue the next round's */
        {"break_path", "x* a a a"},
        {"continue_path", "x* a"},
        /* the left operand of || is followed by the right one, which may
         * be skipped: only the right operand's read is a last use */
        {"right_operand", "a a*"},
        /* a for variable's scope ends with each round */
        {"for_variable", "rows r* rows r r* out"},
        /* s = s + e is s += e: s is resolved after echo(s) */
        {"appended", "t* s s s"},
        /* an inner loop's next round; a break out of it; the outer loop's
         * next round past an inner loop */
        {"nested", "ys* y y* y"},
        /* a for header is evaluated once, before the loop */
        {"header", "a a*"},
        /* an operand read earlier is no later use */
        {"operand_first", "s s* xs xs* t"},
    };
    expect_marks(marks_source, cases, COUNT(cases));
}

static const char v3_marks_source[] =
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

static void test_v3_checker_marks(void)
{
    static const marks_t cases[] = {
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
    expect_marks(v3_marks_source, cases, COUNT(cases));
}

/* More than 32 locals: the candidates are found first and walked 32 at a
 * time (three chunks here), each chunk with its own loop summaries (more
 * loops than the table of summaries first holds). 70 str locals: the last
 * 20 read each in its own loop only (no move: the loop's next round reads
 * it again), the others once after the loops (a move). Reads as
 * collect_reads shows them. */
static void test_marks_past_32_locals(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    enum { LOCALS = 70, LOOPS = 20 };
    const char *source = "fn k(s: str) -> int {\n  return len(s);\n}\n"
                         "fn many(t: str) -> int {\n  var n = 0;\n";
    const char *reads = "";
    for (int i = 0; i < LOCALS; i++) {
        source = apr_psprintf(pool, "%s  let a%d = t + \"%d\";\n", source, i, i);
        reads = apr_pstrcat(pool, reads, i ? " " : "", "t", NULL);
    }
    for (int i = 0; i < LOOPS; i++) { /* the last locals first: those of the second chunk */
        int local = LOCALS - 1 - i;
        source = apr_psprintf(pool, "%s  while n < %d { n = n + k(a%d); }\n", source, i, local);
        reads = apr_psprintf(pool, "%s a%d", reads, local);
    }
    for (int i = 0; i < LOCALS - LOOPS; i++) {
        source = apr_psprintf(pool, "%s  n = n + k(a%d);\n", source, i);
        reads = apr_psprintf(pool, "%s a%d*", reads, i);
    }
    source = apr_pstrcat(pool, source, "  return n;\n}\n", NULL);
    const marks_t cases[] = {{"many", reads}};
    expect_marks(source, cases, COUNT(cases));
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"the quadratic example becomes linear; v2's counts without the move",
         test_quadratic_to_linear},
        {"s = step(s) on a struct", test_struct_step},
        {"a move at each transfer position", test_transfer_positions},
        {"reads that are not last uses still copy", test_not_last_uses},
        {"value semantics with moves", test_value_semantics},
        {"holders dropped as the specification says", test_holders},
        {"the checker's marks on every kind of path", test_checker_marks},
        {"a move into a map value, insert's value, a payload and a scrutinee",
         test_v3_transfer_positions},
        {"s = step(s) on a state enum taken apart by a match", test_state_enum},
        {"compound assignment does not move; match arms are alternatives", test_compound_and_arms},
        {"the checker's marks with maps, variants, insert, compound assignment and match",
         test_v3_checker_marks},
        {"the checker's marks past 32 locals, 32 candidates at a time", test_marks_past_32_locals},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("interpreter, language v3: move on last use", tests);
}
