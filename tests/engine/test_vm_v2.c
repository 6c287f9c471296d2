/*
 * test_vm_v2.c: the interpreter on language v2 programs, every expectation
 * counted by hand from the specification's Execution section (the count is
 * in the comment beside it): fuel of for, break, continue and the v2
 * builtins; size charges (n / 64) of concatenation, append, slices,
 * literals, stoi, == and != and of the copies writes force; copy on write
 * and value semantics; the exact memory measure, its peak and max_memory
 * at the peak and one byte under it; every failure R0511-R0521 with its
 * message, span and steps, and the order of the checks when an operation
 * could fail several ways; shifts, stoi, chr, string indexing and slicing;
 * and a v1 program whose step count is unchanged.
 */
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <string.h>

/* --- building sources ------------------------------------------------------ */

/* count copies of piece, separated by separator. */
static const char *repeated(apr_pool_t *pool, const char *piece, int count, const char *separator)
{
    apr_array_header_t *parts = apr_array_make(pool, 2 * count + 1, sizeof(const char *));
    for (int i = 0; i < count; i++) {
        if (i)
            APR_ARRAY_PUSH(parts, const char *) = separator;
        APR_ARRAY_PUSH(parts, const char *) = piece;
    }
    return apr_array_pstrcat(pool, parts, 0);
}

/* The array literal [0, 1, ..., count - 1], its element at position
 * changed to value when position is in range. */
static const char *ints(apr_pool_t *pool, int count, int position, int value)
{
    apr_array_header_t *parts = apr_array_make(pool, count + 2, sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = "[";
    for (int i = 0; i < count; i++)
        APR_ARRAY_PUSH(parts, const char *) =
            apr_psprintf(pool, "%s%d", i ? ", " : "", i == position ? value : i);
    APR_ARRAY_PUSH(parts, const char *) = "]";
    return apr_array_pstrcat(pool, parts, 0);
}

/* struct Wide { f0: int, ..., f63: int }, and a literal of it whose fields
 * are 0, ..., 63 but f0, which is first. */
static const char *wide_struct(apr_pool_t *pool)
{
    const char *text = "struct Wide {";
    for (int i = 0; i < 64; i++)
        text = apr_psprintf(pool, "%s%s f%d: int", text, i ? "," : "", i);
    return apr_pstrcat(pool, text, " }\n", NULL);
}

static const char *wide_literal(apr_pool_t *pool, int first)
{
    const char *text = apr_psprintf(pool, "Wide { f0: %d", first);
    for (int i = 1; i < 64; i++)
        text = apr_psprintf(pool, "%s, f%d: %d", text, i, i);
    return apr_pstrcat(pool, text, " }", NULL);
}

/* Replace every "@NAME@" of template by the text pairs[k + 1] for
 * pairs[k] == NAME (NULL-terminated pairs). */
static const char *expand(apr_pool_t *pool, const char *template, const char *const *pairs)
{
    const char *text = template;
    for (const char *const *pair = pairs; *pair; pair += 2) {
        const char *marker = apr_pstrcat(pool, "@", pair[0], "@", NULL);
        const char *at;
        while ((at = strstr(text, marker)) != NULL)
            text = apr_pstrcat(pool, apr_pstrndup(pool, text, (apr_size_t)(at - text)), pair[1],
                               at + strlen(marker), NULL);
    }
    return text;
}

static spx_run_limits_t limits_with(uint64_t max_steps, uint64_t max_memory)
{
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = max_steps;
    limits.max_memory = max_memory;
    return limits;
}

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

/* --- fuel -------------------------------------------------------------------- */

static const char loop_source[] =
    "fn spec_for() -> int {\n  var s = 0;\n  for i in 0..3 { s = s + i; }\n  return s;\n}\n"
    "fn spec_break() -> int {\n  for i in 0..10 { if i == 2 { break; } }\n  return 0;\n}\n"
    "fn skip() -> int {\n  var s = 0;\n  for i in 0..5 {\n    if i % 2 == 0 { continue; }\n"
    "    s = s + i;\n  }\n  return s;\n}\n"
    "fn empty() -> int {\n  for i in 5..5 { print(\"x\"); }\n  for j in 3..1 { print(\"y\"); }\n"
    "  return 0;\n}\n"
    "fn f(x: int) -> int { print(itos(x)); return x; }\n"
    "fn bounds() -> int {\n  var n = 0;\n  for i in f(1)..f(3) { n = n + i; }\n  return n;\n}\n"
    "fn wloop() -> int {\n  var i = 0;\n  while true {\n    i = i + 1;\n"
    "    if i == 3 { continue; }\n    if i == 5 { break; }\n  }\n  return i;\n}\n"
    "fn over() -> int {\n  let xs = [10, 20, 30];\n  var s = 0;\n  for x in xs { s = s + x; }\n"
    "  return s;\n}\n"
    "fn strings() -> int {\n  var s = \"\";\n  for w in [\"a\", \"bc\"] { s = s + w; }\n"
    "  return len(s);\n}\n"
    "fn calls() -> int {\n  var a = [1];\n  a.push(2);\n  let p = a.pop();\n  let c = chr(65);\n"
    "  let n = stoi(\"42\");\n  return p + n + len(a) + len(c);\n}\n"
    "fn nested() -> int {\n  var n = 0;\n  for i in 0..3 {\n    for j in 0..i { n = n + 1; }\n"
    "  }\n  return n;\n}\n"
    "fn nested_break() -> int {\n  var n = 0;\n  for i in 0..3 {\n    for j in 0..10 {\n"
    "      if j == i { break; }\n      n = n + 1;\n    }\n  }\n  return n;\n}\n"
    "fn nested_continue() -> int {\n  var n = 0;\n  for i in 0..2 {\n    var j = 0;\n"
    "    while j < 3 {\n      j = j + 1;\n      if j == 2 { continue; }\n      n = n + 1;\n"
    "    }\n    if i == 0 { continue; }\n    n = n + 10;\n  }\n  return n;\n}\n";

static void test_loop_steps(void)
{
    static const spx_counted_run_t runs[] = {
        /* the specification's 1 (var) + 1 (for) + 4 (checks) + 3 (assignments),
         * with the call and the return: 11 */
        {"spec_for", 3, 11, 0, NULL},
        /* the specification's 1 (for) + 3 (checks) + 3 (ifs) + 1 (break), with
         * the call and the return: 10 */
        {"spec_break", 0, 10, 0, NULL},
        /* call, var, for, 6 checks (before the first round and after each of
         * the 5, continue or not), 5 ifs, 3 continues (i = 0, 2, 4), 2
         * assignments, return: 20 */
        {"skip", 4, 20, 0, NULL},
        /* call, for + 1 check, for + 1 check, return: 6 (no round runs) */
        {"empty", 0, 6, 0, NULL},
        /* call, var, for, f(1) and f(3) once each, left first (call,
         * statement, print, itos, return: 5 each), 3 checks, 2 assignments,
         * return: 19; each itos result (33 bytes) is freed once printed */
        {"bounds", 3, 19, 33, "13"},
        /* call, var, while, 5 conditions (before rounds 1-5; the break of
         * round 5 skips the sixth), rounds 1, 2, 4: assignment, if, if (3
         * each); round 3: assignment, if, continue; round 5: assignment, if,
         * if, break; return: 1 + 1 + 1 + 5 + 9 + 3 + 4 + 1 = 25 */
        {"wloop", 5, 25, 0, NULL},
        /* call, let, var, for, 4 checks, 3 assignments, return: 12; the
         * array [10, 20, 30] is 32 + 3 x 8 = 56 bytes */
        {"over", 60, 12, 56, NULL},
        /* call, var, for, 3 checks, 2 appends, return, len: 10; the array of
         * two literals 32 + 16 = 48 bytes and their headers (64), s the
         * literal "" (32): 144; the first append gives s a block of its own,
         * "a" (33), while its literal's header still counts: 177 */
        {"strings", 3, 10, 177, NULL},
        /* call, var, push (statement + call), let + pop, let + chr, let +
         * stoi, return + 2 len: 1 + 1 + 2 + 2 + 2 + 2 + 3 = 13; memory: [1]
         * 40, pushed 48 (capacity 2), popped 48 (the capacity stays),
         * chr(65) 33, the literal "42" 32: 113 */
        {"calls", 2 + 42 + 1 + 1, 13, 113, NULL},
        /* call, var, for, 4 checks; round i: for, i + 1 checks, i
         * assignments (2, 4, 6); return: 1 + 1 + 1 + 4 + 12 + 1 = 20 */
        {"nested", 3, 20, 0, NULL},
        /* call, var, for, 4 checks; round i: for, then for j < i: check, if,
         * assignment, and at j = i: check, if, break (no check after it): 1 +
         * 3i + 3, so 4 + 7 + 10; return: 1 + 1 + 1 + 4 + 21 + 1 = 29 */
        {"nested_break", 3, 29, 0, NULL},
        /* call, var, for, 3 checks (the continue of round 0 is followed by
         * one); each round: var, while, 4 conditions (the continue at j = 2
         * reaches one too), 3 assignments, 3 ifs, 1 continue, 2 assignments,
         * if: 16; then round 0: continue (1), round 1: assignment (1);
         * return: 1 + 1 + 1 + 3 + 16 + 1 + 16 + 1 + 1 = 41 */
        {"nested_continue", 2 + 2 + 10, 41, 0, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, loop_source), runs,
                           COUNT(runs));
    spx_fixture_free(fixture);
}

/* The specification's first example at the boundary: 11 steps pass, 10
 * stop at the return, 9 at the last check (the range's span), 3 at the
 * first check. */
static void test_loop_fuel_boundary(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, loop_source);
    static const struct {
        uint64_t max_steps;
        const char *span;
    } cases[] = {{10, "4:3-4:12"}, {9, "3:12-3:16"}, {3, "3:12-3:16"}, {2, "3:3-3:31"}};
    spx_run_limits_t limits = limits_with(11, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_run_result_t whole = spx_run_fixture_call(fixture, program, "spec_for", &limits);
    spx_run_assert_returned(&whole, 3, 11);
    for (size_t i = 0; i < COUNT(cases); i++) {
        limits.max_steps = cases[i].max_steps;
        spx_stopped_run_t stop = {"spec_for",
                                  SPX_OUTCOME_FUEL_EXHAUSTED,
                                  "R0509",
                                  apr_psprintf(fixture->pool,
                                               "fuel exhausted: max_steps %u reached",
                                               (unsigned)cases[i].max_steps),
                                  cases[i].span,
                                  cases[i].max_steps,
                                  NULL};
        spx_run_expect_stopped(fixture, program, &stop, &limits);
    }
    /* spec_break: the break is step 9 (call 1, for 2, check 3, if 4, check
     * 5, if 6, check 7, if 8, break 9); no check follows it, so the return
     * is step 10 */
    limits.max_steps = 8;
    spx_stopped_run_t at_break = {"spec_break", SPX_OUTCOME_FUEL_EXHAUSTED,
                                  "R0509",      "fuel exhausted: max_steps 8 reached",
                                  "7:32-7:38",  8,
                                  NULL};
    spx_run_expect_stopped(fixture, program, &at_break, &limits);
    limits.max_steps = 9;
    spx_stopped_run_t at_return = {"spec_break", SPX_OUTCOME_FUEL_EXHAUSTED,
                                   "R0509",      "fuel exhausted: max_steps 9 reached",
                                   "8:3-8:12",   9,
                                   NULL};
    spx_run_expect_stopped(fixture, program, &at_return, &limits);
    /* over (lines 38-43): call, let, var, for; the first check of a for over
     * an array is the 5th step, at the array's span */
    limits.max_steps = 4;
    spx_stopped_run_t at_array = {"over",        SPX_OUTCOME_FUEL_EXHAUSTED,
                                  "R0509",       "fuel exhausted: max_steps 4 reached",
                                  "41:12-41:14", 4,
                                  NULL};
    spx_run_expect_stopped(fixture, program, &at_array, &limits);
    spx_fixture_free(fixture);
}

/* --- size charges ---------------------------------------------------------------- */

/* K100 and K200 are 100 and 200 x's, D130 129 zeros and a 1, XQ and XR 130
 * x's and a q or an r; INTS130 is [0, ..., 129], INTS130_64 the same with
 * 999 at position 64, INTS100 [0, ..., 99], INTS100_50 the same with 7 at
 * position 50, ROWS100 [row, row, ...] 100 times, WIDE0 and WIDE99 Wide
 * literals whose f0 is 0 or 99. */
static const char *size_source(apr_pool_t *pool)
{
    const char *const pairs[] = {
        "K100",        repeated(pool, "x", 100, ""),
        "K200",        repeated(pool, "x", 200, ""),
        "D130",        apr_pstrcat(pool, repeated(pool, "0", 129, ""), "1", NULL),
        "X130",        repeated(pool, "x", 130, ""),
        "WIDE_STRUCT", wide_struct(pool),
        "INTS130_64",  ints(pool, 130, 64, 999),
        "INTS130",     ints(pool, 130, -1, 0),
        "INTS100_50",  ints(pool, 100, 50, 7),
        "INTS100",     ints(pool, 100, -1, 0),
        "ROWS100",     apr_pstrcat(pool, "[", repeated(pool, "row", 100, ", "), "]", NULL),
        "WIDE0",       wide_literal(pool, 0),
        "WIDE99",      wide_literal(pool, 99),
        NULL};
    return expand(
        pool,
        "const K100: str = \"@K100@\";\nconst K200: str = \"@K200@\";\n"
        "const D130: str = \"@D130@\";\nconst XQ: str = \"@X130@q\";\n"
        "const XR: str = \"@X130@r\";\n@WIDE_STRUCT@"
        "fn concat() -> int {\n  let s = K100 + K200;\n  return len(s);\n}\n"
        "fn append() -> int {\n  var x = K100 + \"\";\n  x = x + K200;\n  return len(x);\n}\n"
        "fn append_literal() -> int {\n  var x = K100;\n  x = x + K200;\n  return len(x);\n}\n"
        "fn shared() -> int {\n  var x = K100 + \"\";\n  let y = x;\n  x = x + K200;\n"
        "  return len(x) + len(y);\n}\n"
        "fn self_concat() -> int {\n  var x = K100 + \"\";\n  x = x + x;\n  return len(x);\n}\n"
        "fn slices() -> int {\n  let s = K200[10..150];\n  let a = @INTS130@;\n"
        "  let b = a[1..129];\n  let e = a[5..5];\n  return len(s) + len(b) + len(e);\n}\n"
        "fn literals() -> int {\n  let w = @WIDE0@;\n  let a = @INTS130@;\n"
        "  return w.f63 + len(a);\n}\n"
        "fn digits() -> int {\n  return stoi(D130);\n}\n"
        "fn compare_strings() -> int {\n  let a = K200 + \"\";\n  let b = K200 + \"\";\n"
        "  var n = 0;\n  if a == b { n = n + 1; }\n  if a != K200 + \"z\" { n = n + 10; }\n"
        "  if a == K100 { n = n + 100; }\n  if XQ == XR { n = n + 1000; }\n  return n;\n}\n"
        "fn compare_arrays() -> int {\n  let a = @INTS130@;\n  let b = @INTS130@;\n"
        "  let c = @INTS130_64@;\n  var n = 0;\n  if a == b { n = n + 1; }\n"
        "  if a == b[0..129] { n = n + 10; }\n  if a == a { n = n + 100; }\n"
        "  if a != c { n = n + 1000; }\n  return n;\n}\n"
        "fn compare_structs() -> int {\n  let w = @WIDE0@;\n  let v = @WIDE0@;\n"
        "  let u = @WIDE99@;\n  var n = 0;\n  if w == v { n = n + 1; }\n"
        "  if w == u { n = n + 10; }\n  return n;\n}\n"
        "fn compare_nested() -> int {\n  let r = @INTS100@;\n  let q = @INTS100_50@;\n"
        "  let xs = [r, r];\n  let ys = [r, q];\n  var n = 0;\n  if xs == ys { n = n + 1; }\n"
        "  if xs == xs { n = n + 10; }\n  return n;\n}\n"
        "fn copy_once() -> int {\n  var a = @INTS130@;\n  let b = a;\n  a[0] = 9;\n  a[1] = 8;\n"
        "  return a[0] + b[0] + a[1] * 10;\n}\n"
        "fn copy_each() -> int {\n  let row = @INTS100@;\n  var m = @ROWS100@;\n  let k = m;\n"
        "  m[0][0] = 5;\n  return m[0][0] + k[0][0] + m[1][0];\n}\n"
        "fn push_pop_copy() -> int {\n  var a = @INTS130@;\n  let b = a;\n  a.push(1);\n"
        "  var c = b;\n  let p = c.pop();\n  return len(a) * 1000 + len(c) + p;\n}\n"
        "fn compare_lengths() -> int {\n  let row = @INTS100@;\n  let s = row[0..99];\n"
        "  let xs = @ROWS100@;\n  var ys = xs;\n  ys[99] = s;\n  if xs == ys { return 1; }\n"
        "  return 0;\n}\n",
        pairs);
}

static void test_size_charges(void)
{
    static const spx_counted_run_t runs[] = {
        /* call, let + (100 + 200) / 64 = 4, return, len: 8; the two literals'
         * headers and 32 + 300 bytes */
        {"concat", 300, 8, 2 * 32 + 32 + 300, NULL},
        /* call, var + 100 / 64 = 1, assignment + an append: n = len(e) = 200,
         * 3, return, len: 9; the block of 32 + 100 grows to 32 + 300 in place
         * (the literal's header still counted) */
        {"append", 300, 9, 32 + 300 + 32, NULL},
        /* call, var (a const: nothing), append + 300 / 64 = 4 (the const's
         * block is made as it first grows: both parts count, a project
         * decision), return, len: 9; the const's block counts its header, then
         * 32 + 300 once grown, with both literals' headers still counted */
        {"append_literal", 300, 9, 32 + 300 + 2 * 32, NULL},
        /* y holds x's block too: a concatenation, n = 300, 4 steps: call, var
         * + 1, let, assignment + 4, return + 2 len: 12; both blocks live:
         * 132 + 332, and a literal's header */
        {"shared", 400, 12, 132 + 332 + 32, NULL},
        /* x = x + x reads x as the right operand: a concatenation, n = 200:
         * call, var + 1, assignment + 3, return, len: 9; 132 + 232 */
        {"self_concat", 200, 9, 132 + 232, NULL},
        /* call; let + 140 / 64 = 2; let + 130 / 64 = 2; let + 128 / 64 = 2;
         * let + 0; return + 3 len: 15; 172 + 1072 + 1056 + 32 bytes */
        {"slices", 268, 15, 172 + 1072 + 1056 + 32, NULL},
        /* call, let + 64 / 64 = 1 (a struct literal: its field count), let +
         * 130 / 64 = 2, return, len: 8; (32 + 64 x 8) + (32 + 130 x 8) */
        {"literals", 193, 8, (32 + 64 * 8) + (32 + 130 * 8), NULL},
        /* call, return, stoi + 130 / 64 = 2: 5; the literal's header */
        {"digits", 1, 5, 32, NULL},
        /* call; 2 lets + 200 / 64 = 3 each; var; if + 200 examined (3) +
         * assignment; if + the concatenation of 201 (3) + 200 examined, the
         * shorter length (3) + assignment; if + 100 examined (1); if + 131
         * examined, up to the q (2); return: 1 + 4 + 4 + 1 + 5 + 8 + 2 + 3 +
         * 1 = 29; a, b and the temporary of 217: 232 + 232 + 233, and two
         * literals' headers */
        {"compare_strings", 11, 29, 232 + 232 + 233 + 2 * 32, NULL},
        /* call; 3 lets + 130 / 64 = 2 each; var; if + 130 examined (2) +
         * assignment; if + the slice of 129 (2), different lengths examine
         * nothing; if + a == a examines all 130 (2) + assignment; if + up to
         * position 64, 65 examined (1) + assignment; return: 1 + 9 + 1 + 4 +
         * 3 + 4 + 3 + 1 = 26; 3 x 1072 and the slice's 32 + 129 x 8 */
        {"compare_arrays", 1101, 26, 3 * 1072 + 1064, NULL},
        /* call; 3 lets + 64 / 64 = 1 each; var; if + 64 fields examined (1)
         * + assignment; if + f0 differs, 1 examined (0); return: 1 + 6 + 1 +
         * 3 + 1 + 1 = 13; 3 x (32 + 512) */
        {"compare_structs", 1, 13, 3 * 544, NULL},
        /* call; 2 lets + 100 / 64 = 1 each; 2 lets of [r, r] and [r, q];
         * var; if + (1 + 64 + 100) + (1 + 64 + 51) = 281 examined (4), each
         * nested block 64; if + xs == xs: (1 + 64 + 100) x 2 = 330 (5) +
         * assignment; return: 1 + 4 + 2 + 1 + 5 + 7 + 1 = 21; 2 x 832 + 2 x
         * 48 */
        {"compare_nested", 10, 21, 2 * 832 + 2 * 48, NULL},
        /* call, var + 2, let, a[0] = 9 + the copy of 130 (2), a[1] = 8 (a's
         * block has one holder now: no copy), return: 10; two blocks of
         * 1072 */
        {"copy_once", 89, 10, 2 * 1072, NULL},
        /* call, let + 1, var + 100 / 64 = 1, let, m[0][0] = 5 copying m (k
         * holds it too; its 100 elements are blocks, 8 each: 800) and then
         * row (row and the 100 slots hold it: 100), the write one
         * operation: 900 / 64 = 14, return: 1 + 2 + 2 + 1 + 15 + 1 = 22;
         * row, m and the two copies: 4 x 832 */
        {"copy_each", 5, 22, 4 * 832, NULL},
        /* call, var + 2, let, push (statement, call, copy of 130: 2), var
         * (b's last use: a move since language v3), let + pop (call; c alone
         * holds b's block, so nothing is copied), return + 2 len: 1 + 3 + 1
         * + 4 + 1 + 2 + 3 = 15; a and its copy grown to 260 slots: 1072 +
         * 2112. (v2, without the move: 17 steps, and c's copy, 1072 more;
         * test_v3_moves.c keeps a pop that copies.) */
        {"push_pop_copy", 131000 + 129 + 129, 15, 1072 + 2112, NULL},
        /* call; let + 100 / 64 = 1; let + the slice of 99 (1); let + 100
         * (1); var; ys[99] = s + the copy of ys (100 elements that are
         * blocks, 8 each: 800 / 64 = 12); if + 99 x (1 + 64 + 100) at
         * positions 0-98, 1 + 64 at 99 where [0..99] and [0..98] differ in
         * length (examining nothing inside): 16400 / 64 = 256; return: 279;
         * row 832, s 32 + 792, xs and its copy 832 each */
        {"compare_lengths", 0, 279, 832 + 824 + 832 + 832, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, size_source(fixture->pool)),
                           runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* max_steps at each total returns; one under it stops at the step that
 * could not be paid, a size charge included (paid whole or not at all). */
static void test_size_charge_fuel_boundary(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *const pairs[] = {
        "K100",    repeated(pool, "x", 100, ""), "K200", repeated(pool, "x", 200, ""),
        "INTS130", ints(pool, 130, -1, 0),       NULL};
    spx_program_t *program = spx_run_fixture_program(
        fixture, expand(pool,
                        "const K100: str = \"@K100@\";\nconst K200: str = \"@K200@\";\n"
                        "fn t() -> int {\n  let s = K100 + K200;\n  return len(s);\n}\n"
                        "fn c() -> int {\n  var a = @INTS130@;\n  let b = a;\n  a[0] = 9;\n"
                        "  return a[0] + b[0];\n}\n"
                        "fn e() -> int {\n  let a = K200 + \"\";\n  if a == K200 { return 1; }\n"
                        "  return 0;\n}\n",
                        pairs));
    static const struct {
        const char *function;
        int64_t value;
        uint64_t total;
    } totals[] = {
        /* call 1, let 2, its charge of 4: 6, return 7, len 8 */
        {"t", 300, 8},
        /* call 1, var 2 + 2: 4, let 5, a[0] = 9: 6 + the copy's 2: 8,
         * return 9 */
        {"c", 9, 9},
        /* call 1, let 2 + 3: 5, if 6 + 200 examined: 9, return 10 */
        {"e", 1, 10},
    };
    for (size_t i = 0; i < COUNT(totals); i++) {
        spx_run_limits_t limits = limits_with(totals[i].total, SPX_LIMIT_MAX_MEMORY_DEFAULT);
        spx_run_result_t whole =
            spx_run_fixture_call(fixture, program, totals[i].function, &limits);
        spx_run_assert_returned(&whole, totals[i].value, totals[i].total);
    }
    static const spx_stopped_run_t stops[] = {
        /* the 8th step, len */
        {"t", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "fuel exhausted: max_steps 7 reached",
         "5:10-5:16", 7, NULL},
        /* the 7th, the return */
        {"t", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "fuel exhausted: max_steps 6 reached",
         "5:3-5:17", 6, NULL},
        /* 2 paid, the charge of 4 is not: the concatenation */
        {"t", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "fuel exhausted: max_steps 5 reached",
         "4:11-4:22", 5, NULL},
        {"t", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "fuel exhausted: max_steps 3 reached",
         "4:11-4:22", 3, NULL},
        /* the return, then the copy's charge (at the place) */
        {"c", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "fuel exhausted: max_steps 8 reached",
         "11:3-11:22", 8, NULL},
        {"c", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "fuel exhausted: max_steps 7 reached",
         "10:3-10:7", 7, NULL},
        /* the return, then the comparison's charge */
        {"e", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "fuel exhausted: max_steps 9 reached",
         "15:18-15:27", 9, NULL},
        {"e", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "fuel exhausted: max_steps 8 reached",
         "15:6-15:15", 8, NULL},
    };
    for (size_t i = 0; i < COUNT(stops); i++) {
        spx_run_limits_t limits = limits_with(stops[i].steps, SPX_LIMIT_MAX_MEMORY_DEFAULT);
        spx_run_expect_stopped(fixture, program, &stops[i], &limits);
    }
    spx_fixture_free(fixture);
}

/* --- copy on write and value semantics --------------------------------------------- */

static void test_value_semantics(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *const pairs[] = {"INTS100", ints(pool, 100, -1, 0), "D130",
                                 apr_pstrcat(pool, "\"", repeated(pool, "0", 129, ""), "1\"", NULL),
                                 NULL};
    spx_program_t *program = spx_run_fixture_program(
        fixture,
        expand(pool,
               "fn alias() -> int {\n  var a = [1, 2, 3];\n  let b = a;\n  a[0] = 9;\n"
               "  assert(b[0] == 1 && a[0] == 9);\n  return b[0] * 10 + a[0];\n}\n"
               "fn f() -> int { print(\"f\"); return 5; }\n"
               "fn late() -> int {\n  var a = [1, 2, 3];\n  a[9] = f();\n  return 0;\n}\n"
               "fn msg() -> str { print(\"m\"); return \"never shown\"; }\n"
               "fn asserts() -> int { assert(true, msg()); return 0; }\n"
               "fn pushpop() -> int {\n  var a = @INTS100@;\n  a.push(a.pop());\n"
               "  return len(a) * 1000 + a[99];\n}\n"
               "fn eq_pop() -> int {\n  var a = [7];\n  if a == [a.pop()] { return len(a) + 10; }\n"
               "  return len(a);\n}\n"
               "fn first_len(xs: [int], v: int) -> int { return len(xs) * 10 + v; }\n"
               "fn call_pop() -> int {\n  var a = [4, 5];\n"
               "  return first_len(a, a.pop()) * 10 + len(a);\n}\n"
               "fn index_pop() -> int {\n  var a = [1, 2, 3];\n  return a[a.pop() - 1];\n}\n"
               "struct P { x: int, tags: [str] }\n"
               "fn structs() -> int {\n  var p = P { x: 1, tags: [\"a\"] };\n  var q = p;\n"
               "  q.x = 2;\n  q.tags.push(\"b\");\n  p.tags[0] = \"z\";\n"
               "  assert(q.tags[0] == \"a\" && p.tags[0] == \"z\" && len(p.tags) == 1);\n"
               "  return p.x * 1000 + q.x * 100 + len(q.tags);\n}\n"
               "fn rows() -> int {\n  var m = [[1], [2]];\n  m[0] = m[1];\n  m[0][0] = 7;\n"
               "  return m[0][0] * 10 + m[1][0];\n}\n"
               "fn g() -> int { print(\"g\"); return 0; }\n"
               "fn h() -> int { print(\"h\"); return 5; }\n"
               "fn order() -> int {\n  var a = [1, 2];\n  a[g()] = h();\n  return a[0];\n}\n"
               "struct Box { items: [int] }\n"
               "fn field_loop() -> int {\n  var b = Box { items: [1, 2, 3] };\n"
               "  for x in b.items { b.items.push(x * 10); }\n"
               "  return len(b.items) * 100 + b.items[5];\n}\n"
               "fn id(xs: [int]) -> [int] { return xs; }\n"
               "fn returned_copy() -> int {\n  let a = [1, 2];\n  var b = id(a);\n  b[0] = 9;\n"
               "  return a[0] * 10 + b[0];\n}\n"
               "fn bad_digits() -> int {\n  return stoi(@D130@ + \"x\");\n}\n"
               "fn strs() -> int {\n  var a = [\"x\", \"y\"];\n  let b = a;\n  a[1] = \"z\";\n"
               "  assert(b[1] == \"y\" && a[1] == \"z\");\n  return len(a) + len(b);\n}\n",
               pairs));
    static const spx_counted_run_t runs[] = {
        /* call, var, let, write, assert (statement, call), return: 7; a's
         * block is shared with b, so the write copies it: 2 x 56 bytes */
        {"alias", 19, 7, 112, NULL},
        /* call, statement, msg (call, statement, print, return), assert's
         * call, return: 8; the message is evaluated though c is true (its
         * literal's header: 32) */
        {"asserts", 0, 8, 32, "m"},
        /* call, var + 100 / 64 = 1, statement, pop, push, return, len: 8;
         * the pop leaves a unshared (no copy, no charge) and its capacity
         * as it was: 832 throughout */
        {"pushpop", 100099, 8, 832, NULL},
        /* call, var, if, pop, return, len: 6; the left operand holds a's
         * block, so the pop copies it ([7] == [7]), a ends empty; [7] 24,
         * its copy 40 (its capacity stays when popped), the literal [7]
         * 40: 120 */
        {"eq_pop", 10, 6, 120, NULL},
        /* call, var, return, pop, first_len (call, return, len), len: 8;
         * the first argument sees [4, 5]: (2 x 10 + 5) x 10 + 1 */
        {"call_pop", 251, 8, 96, NULL},
        /* call, var, return, pop: 4; the indexed value is the old [1, 2, 3]
         * (its block held before the pop, which copies): a[2] = 3 */
        {"index_pop", 3, 4, 112, NULL},
        /* call, var, var, q.x = 2, push (statement, call), p.tags[0] = "z",
         * assert (statement, len, call), return, len: 12; ["a"] 40 with the
         * literal's header and P 48; q.x copies P (48), the push copies tags
         * (40) and doubles its capacity, and p.tags[0] writes p's own, now
         * unshared, blocks, its literals' headers counted too: 312 */
        {"structs", 1202, 12, 312, NULL},
        /* call, var, 2 writes, return: 5; m[0] = m[1] stores [2] in two
         * slots ([1] is freed: 128 - 40), so m[0][0] = 7 copies it: 128 */
        {"rows", 72, 5, 128, NULL},
        /* the place's index (g) before the value (h): call, var, assignment,
         * g and h (call, statement, print, return: 4 each), return: 12 */
        {"order", 5, 12, 80, "gh"},
        /* call, var, for, 4 checks, 3 x (statement, push), return, len: 15;
         * [1, 2, 3] 56 and the Box 40; the first push copies items (the
         * snapshot holds it) 56 and doubles its capacity to 6 (24): 176; the
         * snapshot is freed at the loop's end */
        {"field_loop", 630, 15, 176, NULL},
        /* call, let, var, id (call, return), write, return: 7; a returned
         * value is held by a and b: the write copies it */
        {"returned_copy", 19, 7, 96, NULL},
        /* call, var, let, a[1] = "z" (a copy: b holds a's block), assert
         * (statement, call), return + 2 len: 9; 2 x (32 + 2 x 8) and four
         * literals' headers (4 x 32) */
        {"strs", 4, 9, 224, NULL},
    };
    spx_run_expect_counted(fixture, program, runs, COUNT(runs));
    /* a[9] = f(): call, var, assignment, f (call, statement, print, return)
     * run before the place is resolved: 7 steps, "f" printed */
    static const spx_stopped_run_t late = {"late",      SPX_OUTCOME_LANGUAGE_FAILURE,
                                           "R0511",     "index 9 out of range for length 3",
                                           "11:3-11:7", 7,
                                           "f"};
    spx_run_limits_t limits = spx_run_limits_default();
    spx_run_expect_stopped(fixture, program, &late, &limits);
    /* stoi's charge is paid before the text is read: call, return, the
     * concatenation of 131 (2), stoi + 131 / 64 = 2: 7; the message shows
     * the first 32 bytes of the text; the call spans "stoi(", the 132
     * bytes of the literal, " + \"x\")" on line 72 */
    static const spx_stopped_run_t bad_digits = {
        "bad_digits",
        SPX_OUTCOME_LANGUAGE_FAILURE,
        "R0516",
        "stoi(\"00000000000000000000000000000000...\"): not a decimal integer",
        "72:10-72:154",
        7,
        NULL};
    spx_run_expect_stopped(fixture, program, &bad_digits, &limits);
    spx_fixture_free(fixture);
}

/* A struct that holds itself through an array: pushing n into its own
 * kids copies n first (the pushed value holds it too), so no value ever
 * contains itself. */
static void test_recursive_struct(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    static const spx_counted_run_t run = {
        /* call, var, 2 x push (statement, call), return + 2 len: 9. [] 32
         * and n0 40: 72; the first push copies n0 (40) and its kids (32)
         * and grows them to 4 slots (32): 176; the second copies n1 (40)
         * and its kids of one (40) and grows them to 2 (8): 264. n2.kids
         * = [n0, n1], n1.kids = [n0] */
        "tree", 2 * 10 + 1, 9, 264, NULL};
    spx_run_expect_counted(
        fixture,
        spx_run_fixture_program(fixture, "struct Node { kids: [Node] }\n"
                                         "fn tree() -> int {\n  var n = Node { kids: [] };\n"
                                         "  n.kids.push(n);\n  n.kids.push(n);\n"
                                         "  return len(n.kids) * 10 + len(n.kids[1].kids);\n}\n"),
        &run, 1);
    spx_fixture_free(fixture);
}

/* Two values nested 100000 deep are made, compared and freed on a thread
 * with a 256 KiB stack: nothing recurses in C over a value. chain: call,
 * var, for, 100001 checks, 100000 assignments, return: 200005; deep_chain:
 * call, let + chain, let + chain, if + the comparison, return. Each level
 * examines 2 (the kids field, the array's one position), each with a nested
 * block (64), the innermost Node 1 + 64 (its kids are two empty arrays):
 * 13000065 / 64 = 203126, a step per nested block. Memory:
 * each chain is [] 32 + Node 40, then 100000 x ([n] 40 + Node 40). */
static void test_deep_values(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "struct Node { kids: [Node] }\n"
                 "fn chain(depth: int) -> Node {\n  var n = Node { kids: [] };\n"
                 "  for i in 0..depth { n = Node { kids: [n] }; }\n  return n;\n}\n"
                 "fn deep_chain() -> int {\n  let a = chain(100000);\n  let b = chain(100000);\n"
                 "  if a == b { return 1; }\n  return 0;\n}\n");
    spx_run_limits_t limits = spx_run_limits_default();
    spx_run_result_t deep =
        spx_run_fixture_call_on_stack(fixture, program, "deep_chain", &limits, 256 * 1024);
    spx_run_assert_returned(&deep, 1, 1 + 1 + 200005 + 1 + 200005 + 1 + 203126 + 1);
    CU_ASSERT_EQUAL(deep.memory_peak, 2 * (72 + 80 * 100000));
    spx_fixture_free(fixture);
}

/* --- memory -------------------------------------------------------------------------- */

static const char memory_template[] =
    "const K100: str = \"@K100@\";\n"                                 /* 1 */
    "const K200: str = \"@K200@\";\n"                                 /* 2 */
    "struct Bag { items: [int], name: str }\n"                        /* 3 */
    "fn deep() -> int {\n"                                            /* 4 */
    "  var bags = [Bag { items: [1, 2], name: \"a\" }];\n"            /* 5 */
    "  let saved = bags;\n"                                           /* 6 */
    "  bags[0].items[1] = 20;\n"                                      /* 7 */
    "  bags[0].items.push(3);\n"                                      /* 8 */
    "  assert(saved[0].items[1] == 2 && len(saved[0].items) == 2);\n" /* 9 */
    "  return bags[0].items[1] + len(bags[0].items);\n"               /* 10 */
    "}\n"                                                             /* 11 */
    "fn doubling() -> int {\n"                                        /* 12 */
    "  var xs = @INTS100@;\n"                                         /* 13 */
    "  for x in xs { xs.push(x); }\n"                                 /* 14 */
    "  return len(xs) * 1000 + xs[150];\n"                            /* 15 */
    "}\n"                                                             /* 16 */
    "fn shared() -> int {\n"                                          /* 17 */
    "  var x = K100 + \"\";\n"                                        /* 18 */
    "  let y = x;\n"                                                  /* 19 */
    "  x = x + K200;\n"                                               /* 20 */
    "  return len(x) + len(y);\n"                                     /* 21 */
    "}\n"                                                             /* 22 */
    "fn scopes() -> int {\n"                                          /* 23 */
    "  var n = 0;\n"                                                  /* 24 */
    "  for i in 0..3 {\n"                                             /* 25 */
    "    let s = K100 + K100;\n"                                      /* 26 */
    "    n = n + len(s);\n"                                           /* 27 */
    "  }\n"                                                           /* 28 */
    "  let t = K100 + \"\";\n"                                        /* 29 */
    "  return n + len(t);\n"                                          /* 30 */
    "}\n"                                                             /* 31 */
    "fn leave_early() -> int {\n"                                     /* 32 */
    "  var n = 0;\n"                                                  /* 33 */
    "  for i in 0..4 {\n"                                             /* 34 */
    "    let s = K100 + K100;\n"                                      /* 35 */
    "    if i == 1 { continue; }\n"                                   /* 36 */
    "    if i == 2 { break; }\n"                                      /* 37 */
    "    n = n + 1;\n"                                                /* 38 */
    "  }\n"                                                           /* 39 */
    "  let t = K100 + K100;\n"                                        /* 40 */
    "  return n + len(t);\n"                                          /* 41 */
    "}\n"                                                             /* 42 */
    "fn snap() -> int {\n"                                            /* 43 */
    "  var xs = @INTS100@;\n"                                         /* 44 */
    "  for x in xs {\n"                                               /* 45 */
    "    if x == 0 { xs[0] = 7; }\n"                                  /* 46 */
    "  }\n"                                                           /* 47 */
    "  let ys = @INTS100@;\n"                                         /* 48 */
    "  return len(xs) + len(ys) + xs[0];\n"                           /* 49 */
    "}\n"                                                             /* 50 */
    "fn inner() -> int {\n"                                           /* 51 */
    "  for i in 0..3 {\n"                                             /* 52 */
    "    let s = K100 + K100;\n"                                      /* 53 */
    "    if i == 0 { return len(s); }\n"                              /* 54 */
    "  }\n"                                                           /* 55 */
    "  return 0;\n"                                                   /* 56 */
    "}\n"                                                             /* 57 */
    "fn returned() -> int {\n"                                        /* 58 */
    "  let a = inner();\n"                                            /* 59 */
    "  let b = K100 + K100;\n"                                        /* 60 */
    "  return a + len(b);\n"                                          /* 61 */
    "}\n"                                                             /* 62 */
    "fn mutate(xs: [int]) -> int {\n"                                 /* 63 */
    "  var ys = xs;\n"                                                /* 64 */
    "  ys.push(7);\n"                                                 /* 65 */
    "  ys[0] = 100;\n"                                                /* 66 */
    "  return len(ys) + ys[0];\n"                                     /* 67 */
    "}\n"                                                             /* 68 */
    "fn pass() -> int {\n"                                            /* 69 */
    "  var a = [1, 2];\n"                                             /* 70 */
    "  let r = mutate(a);\n"                                          /* 71 */
    "  return r * 100 + len(a) * 10 + a[0];\n"                        /* 72 */
    "}\n"                                                             /* 73 */
    "fn zero() -> int {\n"                                            /* 74 */
    "  let s = K200;\n"                                               /* 75 */
    "  let t = \"abc\";\n"                                            /* 76 */
    "  var u = s;\n"                                                  /* 77 */
    "  return len(s) + len(t) + len(u);\n"                            /* 78 */
    "}\n";                                                            /* 79 */

/* A program whose live memory peaks at peak bytes: with max_memory peak it
 * runs as with the default; with peak - 1 the operation that reaches the
 * peak fails (R0521, naming peak and peak - 1) at span after steps. */
typedef struct peak_case_t {
    spx_counted_run_t run;
    const char *span;
    uint64_t steps;
} peak_case_t;

static void test_memory_peaks(void)
{
    static const peak_case_t cases[] = {
        /* call, var, let, write, push (statement, call), assert (statement,
         * len, call), return, len: 11. [1, 2] 48, the Bag 48, "a"'s header
         * 32, [Bag] 40: 168; the write copies all three (saved holds the
         * array, then each copy's slot and the original's hold the next):
         * 304; the push doubles items' capacity (16): 320. One byte less: the push fails after
         * call, var, let, write, push statement, push call: 6 */
        {{"deep", 23, 11, 320, NULL}, "8:3-8:24", 6},
        /* call, var + 1, for, 101 checks, 100 x (statement, push), the one
         * copy of xs (the snapshot holds it) + 1, return, len: 308; xs 832,
         * its copy doubled to 200 slots by the first push: 832 + 1632 =
         * 2464. One less: the first push, after 1 + 2 + 1 + 1 + 1 + 2 = 8 */
        {{"doubling", 200050, 308, 2464, NULL}, "14:17-14:27", 8},
        /* (test_size_charges) 132 + 332 and K200's header; the concatenation fails after call,
         * var + 1, let, assignment + 4: 9 (its charge is paid first) */
        {{"shared", 400, 12, 496, NULL}, "20:7-20:15", 9},
        /* call, var, for, 4 checks, 3 x (let + 3, assignment, len), let + 1,
         * return, len: 29; each round's s (232, made while both K100 headers
         * count, 64) is freed at the end of the round, t is 132: 296. One less: the first
         * concatenation, after call, var, for, check, let + 3: 8 */
        {{"scopes", 700, 29, 296, NULL}, "26:13-26:24", 8},
        /* call, var, for, 3 checks (none after the break); round 0: let + 3,
         * if, if, assignment: 7; round 1: let + 3, if, continue: 6; round 2:
         * let + 3, if, if, break: 7; let + 3, return, len: 32; continue and
         * break free s: 232 and two headers at most */
        {{"leave_early", 201, 32, 296, NULL}, "35:13-35:24", 8},
        /* call, var + 1, for, 101 checks, 100 ifs, the write + its copy (1),
         * let + 1, return + 2 len: 212; xs 832, its copy 832; the snapshot
         * is freed at the loop's end (832), then ys: 1664. One less: the
         * copy, after call, var + 1, for, check, if, write + 1: 8 */
        {{"snap", 207, 212, 1664, NULL}, "46:17-46:22", 8},
        /* returned: call, let, inner (call, for, check, let + 3, if, return,
         * len: 10), let + 3, return, len: 18; inner's s is freed by its
         * return: 232 and two headers. One less: inner's concatenation after 9 */
        {{"returned", 400, 18, 296, NULL}, "53:13-53:24", 9},
        /* call, var, let, mutate (call, var, push statement and call, write,
         * return, len: 7), return, len: 12; a 48, the push copies it (a, the
         * parameter and ys hold it) 48 and doubles the copy's capacity (16):
         * 112. One less: the push, after 7 */
        {{"pass", 10321, 12, 112, NULL}, "65:3-65:13", 7},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *const pairs[] = {
        "K100",    repeated(pool, "x", 100, ""), "K200", repeated(pool, "x", 200, ""),
        "INTS100", ints(pool, 100, -1, 0),       NULL};
    spx_program_t *program = spx_run_fixture_program(fixture, expand(pool, memory_template, pairs));
    for (size_t i = 0; i < COUNT(cases); i++) {
        const spx_counted_run_t *run = &cases[i].run;
        spx_run_expect_counted(fixture, program, run, 1);
        spx_run_limits_t limits = limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, run->peak);
        spx_run_result_t at_peak = spx_run_fixture_call(fixture, program, run->function, &limits);
        spx_run_assert_returned(&at_peak, run->value, run->steps);
        CU_ASSERT_EQUAL(at_peak.memory_peak, run->peak);
        limits.max_memory = run->peak - 1;
        spx_stopped_run_t stop = {
            run->function,
            SPX_OUTCOME_LANGUAGE_FAILURE,
            "R0521",
            apr_psprintf(pool, "memory limit exceeded: %u bytes live, over max_memory %u",
                         (unsigned)run->peak, (unsigned)run->peak - 1),
            cases[i].span,
            cases[i].steps,
            NULL};
        spx_run_expect_stopped(fixture, program, &stop, &limits);
    }
    /* Literals and consts count their headers (32) and nothing for their
     * bytes until grown: call, 3 bindings, return + 3 len: 8 steps; u shares
     * s's block, so two headers live: 64, and with 63 the literal "abc"
     * fails (call, let, let: 3). */
    static const spx_counted_run_t zero = {"zero", 200 + 3 + 200, 8, 64, NULL};
    spx_run_expect_counted(fixture, program, &zero, 1);
    spx_run_limits_t headers = limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, 64);
    spx_run_result_t two = spx_run_fixture_call(fixture, program, "zero", &headers);
    spx_run_assert_returned(&two, 403, 8);
    headers.max_memory = 63;
    const spx_stopped_run_t literal = {
        "zero",        SPX_OUTCOME_LANGUAGE_FAILURE,
        "R0521",       "memory limit exceeded: 64 bytes live, over max_memory 63",
        "76:11-76:16", 3,
        NULL};
    spx_run_expect_stopped(fixture, program, &literal, &headers);
    spx_fixture_free(fixture);
}

/* R0521 at each operation that makes or grows a block, at its span: the
 * first block that does not fit under max_memory (its size named). */
static void test_memory_at_each_operation(void)
{
    static const struct {
        const char *body;
        uint64_t max_memory;
        const char *span;
        uint64_t live; /* the measure the operation would reach */
        uint64_t steps;
    } cases[] = {
        /* an array literal: 32 + 8; call, return */
        {"  return len([1]);\n", 0, "2:14-2:17", 40, 2},
        /* a struct literal: 32 + 8; call, let */
        {"  let p = P { x: 1 };\n  return p.x;\n", 0, "2:11-2:21", 40, 2},
        /* a string literal: its header, 32; call, let */
        {"  let s = \"abc\";\n  return len(s);\n", 31, "2:11-2:16", 32, 2},
        /* a slice of a literal: 32 + 2 beside the literal's 32; call, return */
        {"  return len(\"abc\"[0..2]);\n", 65, "2:14-2:25", 66, 2},
        /* itos and chr: 32 + 1; call, return, the call */
        {"  return len(itos(5));\n", 0, "2:14-2:21", 33, 3},
        {"  return len(chr(65));\n", 0, "2:14-2:21", 33, 3},
        /* an append to a literal gives it storage, 32 + 3, while both
         * literals' headers count (64); call, var, assignment */
        {"  var s = \"ab\";\n  s = s + \"c\";\n  return len(s);\n", 98, "3:7-3:14", 99, 3},
        /* [] is 32; its slice 32 more; call, let, return */
        {"  let a: [int] = [];\n  return len(a[0..0]);\n", 63, "3:14-3:21", 64, 3},
        /* the copy a push forces (32), at the push; call, var, let,
         * statement, push */
        {"  var a: [int] = [];\n  let b = a;\n  a.push(1);\n  return len(b);\n", 63, "4:3-4:12", 64,
         5},
        /* a push's growth (4 slots: 32); call, var, statement, push */
        {"  var a: [int] = [];\n  a.push(1);\n  return len(a);\n", 63, "3:3-3:12", 64, 4},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        spx_fixture_t *fixture = spx_fixture_new();
        spx_program_t *program = spx_run_fixture_program(
            fixture, apr_pstrcat(fixture->pool, "fn t() -> int {\n", cases[i].body,
                                 "}\nstruct P { x: int }\n", NULL));
        spx_stopped_run_t stop = {
            "t",
            SPX_OUTCOME_LANGUAGE_FAILURE,
            "R0521",
            apr_psprintf(fixture->pool, "memory limit exceeded: %u bytes live, over max_memory %u",
                         (unsigned)cases[i].live, (unsigned)cases[i].max_memory),
            cases[i].span,
            cases[i].steps,
            NULL};
        spx_run_limits_t limits = limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, cases[i].max_memory);
        spx_run_expect_stopped(fixture, program, &stop, &limits);
        spx_fixture_free(fixture);
    }
}

/* --- failures -------------------------------------------------------------------------- */

/* fn t() -> int {\n BODY }\n: the failure at span after steps. */
typedef struct body_case_t {
    const char *body;
    const char *code;
    const char *span;
    const char *message;
    uint64_t steps;
} body_case_t;

static void expect_body_stops(const body_case_t *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        spx_fixture_t *fixture = spx_fixture_new();
        spx_program_t *program = spx_run_fixture_program(
            fixture, apr_pstrcat(fixture->pool, "fn t() -> int {\n", cases[i].body,
                                 "}\nstruct P { x: int }\n", NULL));
        spx_stopped_run_t stop = {"t",           SPX_OUTCOME_LANGUAGE_FAILURE,
                                  cases[i].code, cases[i].message,
                                  cases[i].span, cases[i].steps,
                                  NULL};
        spx_run_limits_t limits = spx_run_limits_default();
        spx_run_expect_stopped(fixture, program, &stop, &limits);
        spx_fixture_free(fixture);
    }
}

/* Every failure of the specification's table with its example message
 * (R0519 and R0521: test_array_limit_and_order, test_memory_peaks). The
 * steps: the call, the statements reached, and the calls made before the
 * failing one; an operation that fails is not charged for a call it
 * would have made after it (len of a failed slice). */
static void test_failures(void)
{
    static const body_case_t cases[] = {
        /* call, let, return */
        {"  let a = [1, 2, 3];\n  return a[7];\n", "R0511", "3:10-3:14",
         "index 7 out of range for length 3", 3},
        {"  let a = [1, 2, 3];\n  return a[-1];\n", "R0511", "3:10-3:15",
         "index -1 out of range for length 3", 3},
        {"  let s = \"abc\";\n  return s[3];\n", "R0511", "3:10-3:14",
         "index 3 out of range for length 3", 3},
        /* a[i + k], a[i - k] and a[i].f of variables: the index's span;
         * call, let, let, return */
        {"  let a = [1, 2, 3];\n  let i = 2;\n  return a[i + 1];\n", "R0511", "4:10-4:18",
         "index 3 out of range for length 3", 4},
        {"  let a = [1, 2, 3];\n  let i = 0;\n  return a[i - 1];\n", "R0511", "4:10-4:18",
         "index -1 out of range for length 3", 4},
        {"  let ps = [P { x: 1 }];\n  let i = 1;\n  return ps[i].x;\n", "R0511", "4:10-4:15",
         "index 1 out of range for length 1", 4},
        /* the sum overflows first, at its own span */
        {"  let a = [1, 2, 3];\n  let i = 9223372036854775807;\n  return a[i + 1];\n", "R0501",
         "4:12-4:17", "integer overflow: 9223372036854775807 + 1", 4},
        {"  let a = [1, 2, 3];\n  let i = -9223372036854775807 - 1;\n  return a[i - 1];\n", "R0501",
         "4:12-4:17", "integer overflow: -9223372036854775808 - 1", 4},
        /* a[i] = e of a str array: call, var, let, assignment */
        {"  var a = [\"x\"];\n  let i = 3;\n  a[i] = \"y\";\n  return 0;\n", "R0511", "4:3-4:7",
         "index 3 out of range for length 1", 4},
        /* a write checks its indexes: call, var, assignment */
        {"  var a = [[1, 2]];\n  a[0][5] = 1;\n  return 0;\n", "R0511", "3:3-3:10",
         "index 5 out of range for length 2", 3},
        /* before any copy (b shares a): call, var, let, statement, push */
        {"  var a = [[1]];\n  let b = a;\n  a[-1].push(1);\n  return len(b);\n", "R0511",
         "4:3-4:16", "index -1 out of range for length 1", 5},
        {"  let a = [1, 2, 3];\n  return len(a[2..9]);\n", "R0512", "3:14-3:21",
         "slice 2..9 out of range for length 3", 3},
        {"  let s = \"abc\";\n  return len(s[2..1]);\n", "R0512", "3:14-3:21",
         "slice 2..1 out of range for length 3", 3},
        {"  let s = \"\\u{e9}\";\n  return len(s[0..1]);\n", "R0513", "3:14-3:21",
         "slice 0..1 cuts the character at byte 0", 3},
        /* call, var, return, pop */
        {"  var a: [int] = [];\n  return a.pop();\n", "R0514", "3:10-3:17", "pop of an empty array",
         4},
        /* call, var, statement + pop, return + pop */
        {"  var a = [[1]];\n  a[0].pop();\n  return a[0].pop();\n", "R0514", "4:10-4:20",
         "pop of an empty array", 6},
        /* call, let, return, chr */
        {"  let c = 55296;\n  return len(chr(c));\n", "R0515", "3:14-3:20",
         "chr(55296) is not a Unicode scalar value", 4},
        /* call, let, return, stoi */
        {"  let s = \"12x\";\n  return stoi(s);\n", "R0516", "3:10-3:17",
         "stoi(\"12x\"): not a decimal integer", 4},
        {"  let n = 64;\n  return 1 << n;\n", "R0517", "3:10-3:16",
         "shift count 64 out of range 0..63", 3},
        {"  let n = 63;\n  return 1 << n;\n", "R0518", "3:10-3:16", "integer overflow: 1 << 63", 3},
        {"  let s = \"99999999999999999999\";\n  return stoi(s);\n", "R0520", "3:10-3:17",
         "stoi(\"99999999999999999999\"): out of range", 4},
        /* call, let, statement, assert; the message's concatenation is
         * made (9 bytes: no charge) */
        {"  let ok = false;\n  assert(ok, \"bad \" + \"thing\");\n  return 0;\n", "R0508",
         "3:3-3:31", "assertion failed: bad thing", 4},
    };
    expect_body_stops(cases, COUNT(cases));
}

/* One function t per case: TEMPLATE with @X@ replaced by the case's text;
 * it returns value after steps, or fails with code and message at span
 * after steps (code NULL: it returns). */
typedef struct text_case_t {
    const char *text;
    int64_t value;
    uint64_t steps;
    const char *code;
    const char *message;
    const char *span;
} text_case_t;

static void expect_text_cases(const char *template, const text_case_t *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        spx_fixture_t *fixture = spx_fixture_new();
        const char *const pairs[] = {"X", cases[i].text, NULL};
        spx_program_t *program =
            spx_run_fixture_program(fixture, expand(fixture->pool, template, pairs));
        spx_run_limits_t limits = spx_run_limits_default();
        if (!cases[i].code) {
            spx_run_result_t result = spx_run_fixture_call(fixture, program, "t", &limits);
            if (result.outcome != SPX_OUTCOME_RETURNED || result.value != cases[i].value)
                fprintf(stderr, "\n  case %s", cases[i].text);
            spx_run_assert_returned(&result, cases[i].value, cases[i].steps);
        } else {
            spx_stopped_run_t stop = {"t",           SPX_OUTCOME_LANGUAGE_FAILURE,
                                      cases[i].code, cases[i].message,
                                      cases[i].span, cases[i].steps,
                                      NULL};
            spx_run_expect_stopped(fixture, program, &stop, &limits);
        }
        spx_fixture_free(fixture);
    }
}

#define MIN_TEXT "-9223372036854775807 - 1"

/* "fn t() -> int {\n  let a = A;\n  let n = N;\n  return a OP n;\n}\n" */
#define SHIFT(a, op, n) a ";\n  let n = " n ";\n  return a " op " n"

static void test_shifts(void)
{
    /* call, let, let, return: 4 steps each; a failure is at "a OP n" */
    static const text_case_t cases[] = {
        {SHIFT("1", "<<", "0"), 1, 4, NULL, NULL, NULL},
        {SHIFT("-5", ">>", "0"), -5, 4, NULL, NULL, NULL},
        {SHIFT("-1", "<<", "63"), INT64_MIN, 4, NULL, NULL, NULL},
        {SHIFT("-2", "<<", "62"), INT64_MIN, 4, NULL, NULL, NULL},
        {SHIFT("0", "<<", "63"), 0, 4, NULL, NULL, NULL},
        {SHIFT("1", "<<", "62"), INT64_C(4611686018427387904), 4, NULL, NULL, NULL},
        {SHIFT("-7", "<<", "2"), -28, 4, NULL, NULL, NULL},
        {SHIFT("-1", ">>", "63"), -1, 4, NULL, NULL, NULL},
        {SHIFT(MIN_TEXT, ">>", "1"), -INT64_C(4611686018427387904), 4, NULL, NULL, NULL},
        {SHIFT(MIN_TEXT, ">>", "63"), -1, 4, NULL, NULL, NULL},
        {SHIFT("1", ">>", "63"), 0, 4, NULL, NULL, NULL},
        {SHIFT("9223372036854775807", ">>", "62"), 1, 4, NULL, NULL, NULL},
        {SHIFT("-7", ">>", "1"), -4, 4, NULL, NULL, NULL},
        {SHIFT("7", ">>", "1"), 3, 4, NULL, NULL, NULL},
        {SHIFT("1", "<<", "63"), 0, 4, "R0518", "integer overflow: 1 << 63", "4:10-4:16"},
        {SHIFT("2", "<<", "62"), 0, 4, "R0518", "integer overflow: 2 << 62", "4:10-4:16"},
        {SHIFT("-3", "<<", "62"), 0, 4, "R0518", "integer overflow: -3 << 62", "4:10-4:16"},
        {SHIFT("9223372036854775807", "<<", "1"), 0, 4, "R0518",
         "integer overflow: 9223372036854775807 << 1", "4:10-4:16"},
        {SHIFT(MIN_TEXT, "<<", "1"), 0, 4, "R0518", "integer overflow: -9223372036854775808 << 1",
         "4:10-4:16"},
        {SHIFT("1", "<<", "64"), 0, 4, "R0517", "shift count 64 out of range 0..63", "4:10-4:16"},
        {SHIFT("1", ">>", "64"), 0, 4, "R0517", "shift count 64 out of range 0..63", "4:10-4:16"},
        {SHIFT("1", "<<", "-1"), 0, 4, "R0517", "shift count -1 out of range 0..63", "4:10-4:16"},
        {SHIFT("8", ">>", "-1"), 0, 4, "R0517", "shift count -1 out of range 0..63", "4:10-4:16"},
        {SHIFT("0", "<<", MIN_TEXT), 0, 4, "R0517",
         "shift count -9223372036854775808 out of range 0..63", "4:10-4:16"},
    };
    expect_text_cases("fn t() -> int {\n  let a = @X@;\n}\n", cases, COUNT(cases));
}

static void test_stoi(void)
{
    /* call, return, stoi: 3 steps; "stoi(\"TEXT\")" spans columns 10 to
     * 18 + len(TEXT) of line 2 */
    static const text_case_t cases[] = {
        {"-0", 0, 3, NULL, NULL, NULL},
        {"007", 7, 3, NULL, NULL, NULL},
        {"-9223372036854775808", INT64_MIN, 3, NULL, NULL, NULL},
        {"9223372036854775807", INT64_MAX, 3, NULL, NULL, NULL},
        {"00000000000000000000000000000000000000000000000000000000000042", 42, 3, NULL, NULL,
         NULL}, /* 62 bytes: no charge yet */
        {"9223372036854775808", 0, 3, "R0520", "stoi(\"9223372036854775808\"): out of range",
         "2:10-2:37"},
        {"-9223372036854775809", 0, 3, "R0520", "stoi(\"-9223372036854775809\"): out of range",
         "2:10-2:38"},
        {"", 0, 3, "R0516", "stoi(\"\"): not a decimal integer", "2:10-2:18"},
        {"-", 0, 3, "R0516", "stoi(\"-\"): not a decimal integer", "2:10-2:19"},
        {"+1", 0, 3, "R0516", "stoi(\"+1\"): not a decimal integer", "2:10-2:20"},
        {" 1", 0, 3, "R0516", "stoi(\" 1\"): not a decimal integer", "2:10-2:20"},
        {"1 ", 0, 3, "R0516", "stoi(\"1 \"): not a decimal integer", "2:10-2:20"},
        {"--1", 0, 3, "R0516", "stoi(\"--1\"): not a decimal integer", "2:10-2:21"},
        {"0x10", 0, 3, "R0516", "stoi(\"0x10\"): not a decimal integer", "2:10-2:22"},
    };
    expect_text_cases("fn t() -> int {\n  return stoi(\"@X@\");\n}\n", cases, COUNT(cases));
}

/* pack(s) is len(s) followed by the bytes of s in base 256; it costs 7 +
 * 2 len(s) steps (call, var, len, for, len, len(s) + 1 checks, len(s)
 * assignments, return). */
#define PACK                                                                                       \
    "fn pack(s: str) -> int { var v = len(s); for i in 0..len(s) { v = v * 256 + s[i]; } "         \
    "return v; }\n"

static void test_chr(void)
{
    /* call, return, chr, pack: 10 + 2 len steps; a failure after 3, at
     * "chr(C)": columns 15 to 20 + len(C) of line 3 */
    static const text_case_t cases[] = {
        {"0", 256 + 0x00, 12, NULL, NULL, NULL},
        {"0x7f", 256 + 0x7f, 12, NULL, NULL, NULL},
        {"0x80", (2 * 256 + 0xC2) * 256 + 0x80, 14, NULL, NULL, NULL},
        {"0xe9", (2 * 256 + 0xC3) * 256 + 0xA9, 14, NULL, NULL, NULL},
        {"0x7FF", (2 * 256 + 0xDF) * 256 + 0xBF, 14, NULL, NULL, NULL},
        {"0x800", ((3 * 256 + 0xE0) * 256 + 0xA0) * 256 + 0x80, 16, NULL, NULL, NULL},
        {"0xD7FF", ((3 * 256 + 0xED) * 256 + 0x9F) * 256 + 0xBF, 16, NULL, NULL, NULL},
        {"0xE000", ((3 * 256 + 0xEE) * 256 + 0x80) * 256 + 0x80, 16, NULL, NULL, NULL},
        {"0x10000", (((INT64_C(4) * 256 + 0xF0) * 256 + 0x90) * 256 + 0x80) * 256 + 0x80, 18, NULL,
         NULL, NULL},
        {"0x10FFFF", (((INT64_C(4) * 256 + 0xF4) * 256 + 0x8F) * 256 + 0xBF) * 256 + 0xBF, 18, NULL,
         NULL, NULL},
        {"0x110000", 0, 3, "R0515", "chr(1114112) is not a Unicode scalar value", "3:15-3:28"},
        {"0xD800", 0, 3, "R0515", "chr(55296) is not a Unicode scalar value", "3:15-3:26"},
        {"0xDFFF", 0, 3, "R0515", "chr(57343) is not a Unicode scalar value", "3:15-3:26"},
        {"-1", 0, 3, "R0515", "chr(-1) is not a Unicode scalar value", "3:15-3:22"},
    };
    expect_text_cases(PACK "fn t() -> int {\n  return pack(chr(@X@));\n}\n", cases, COUNT(cases));
}

static void test_string_slices(void)
{
    /* s = "a\u{e9}b" is the bytes 61 C3 A9 62. call, let, return, pack:
     * 10 + 2 len steps; a failure after 3, at "s[I..J]": columns 15 to 18 +
     * len("I..J") of line 4 */
    static const text_case_t cases[] = {
        {"0..1", 256 + 0x61, 12, NULL, NULL, NULL},
        {"1..3", (2 * 256 + 0xC3) * 256 + 0xA9, 14, NULL, NULL, NULL},
        {"0..4", (((INT64_C(4) * 256 + 0x61) * 256 + 0xC3) * 256 + 0xA9) * 256 + 0x62, 18, NULL,
         NULL, NULL},
        {"3..4", 256 + 0x62, 12, NULL, NULL, NULL},
        {"4..4", 0, 10, NULL, NULL, NULL},
        {"1..1", 0, 10, NULL, NULL, NULL},
        {"0..2", 0, 3, "R0513", "slice 0..2 cuts the character at byte 1", "4:15-4:22"},
        {"2..4", 0, 3, "R0513", "slice 2..4 cuts the character at byte 1", "4:15-4:22"},
        {"2..3", 0, 3, "R0513", "slice 2..3 cuts the character at byte 1", "4:15-4:22"},
        {"2..2", 0, 3, "R0513", "slice 2..2 cuts the character at byte 1", "4:15-4:22"},
        {"3..2", 0, 3, "R0512", "slice 3..2 out of range for length 4", "4:15-4:22"},
        {"0..5", 0, 3, "R0512", "slice 0..5 out of range for length 4", "4:15-4:22"},
        {"-1..2", 0, 3, "R0512", "slice -1..2 out of range for length 4", "4:15-4:23"},
    };
    expect_text_cases(PACK "fn t() -> int {\n  let s = \"a\\u{e9}b\";\n  return pack(s[@X@]);\n}\n",
                      cases, COUNT(cases));
}

/* --- the order of the checks ----------------------------------------------------------- */

/* "The size charge comes first, then the length limit, then memory": a
 * concatenation past the string limit. s doubles 24 times (a concatenation
 * each: s = s + s reads s twice), charged 2^k / 64 for 2^k bytes: 2^0 +
 * ... + 2^18 = 524287 steps; with call, var, for, 25 checks and 24
 * assignments, 524339 steps before line 4; its let + (2^24 + 1) / 64 =
 * 262144: 786484. Memory peaks at the last doubling: 2^23 + 32 + 2^24 + 32
 * = 25165888. */
static void test_string_limit_and_order(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn big() -> int {\n  var s = \"x\";\n  for i in 0..24 { s = s + s; }\n"
                 "  let t = s + \"x\";\n  return len(t);\n}\n");
    static const char too_long[] = "string too long: 16777217 bytes, over the limit of 16777216";
    static const spx_stopped_run_t stops[] = {
        /* the default limits: the length limit */
        {"big", SPX_OUTCOME_LANGUAGE_FAILURE, "R0506", too_long, "4:11-4:18", 786484, NULL},
        /* max_memory at the peak: the concatenation would pass it too, but
         * the length limit comes first */
        {"big", SPX_OUTCOME_LANGUAGE_FAILURE, "R0506", too_long, "4:11-4:18", 786484, NULL},
        /* the charge comes before both */
        {"big", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509", "fuel exhausted: max_steps 786483 reached",
         "4:11-4:18", 786483, NULL},
        /* one byte under the peak: the 24th doubling, its charge paid: 1 + 1
         * + 1 + 24 + 24 + 524287 */
        {"big", SPX_OUTCOME_LANGUAGE_FAILURE, "R0521",
         "memory limit exceeded: 25165888 bytes live, over max_memory 25165887", "3:24-3:29",
         524338, NULL},
    };
    const spx_run_limits_t limits[] = {
        limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, SPX_LIMIT_MAX_MEMORY_DEFAULT),
        limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, 25165888),
        limits_with(786483, 25165888),
        limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, 25165887),
    };
    for (size_t i = 0; i < COUNT(stops); i++)
        spx_run_expect_stopped(fixture, program, &stops[i], &limits[i]);
    spx_fixture_free(fixture);
}

/* A push past the array limit (R0519, the specification's message), on
 * an array of 2^24 elements (16 + 2^27 = 134217744 bytes: the default
 * max_memory holds one, not two). full: call, var, for, 2^24 + 1 checks,
 * 2^24 x (statement, push), statement, push: 50331654. full_shared: b
 * holds the array too, so the push must first copy it; the write is one
 * operation, checked as the specification orders one operation's
 * failures: the copy's charge (2^24 / 64 = 262144), then the length limit,
 * then memory (the copy's, 2 x 134217744 = 268435488 > 256 MiB, is never
 * reached): let, statement, push, the copy's charge: 50593799 steps at the
 * failure, the charge paid. One step less, the charge cannot be paid. */
static void test_array_limit_and_order(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(
        fixture, "fn full() -> int {\n  var a: [int] = [];\n"
                 "  for i in 0..16777216 { a.push(i); }\n  a.push(0);\n  return 0;\n}\n"
                 "fn full_shared() -> int {\n  var a: [int] = [];\n"
                 "  for i in 0..16777216 { a.push(i); }\n  let b = a;\n  a.push(0);\n"
                 "  return len(b);\n}\n");
    static const char over[] = "array of 16777217 elements, over the limit of 16777216";
    static const spx_stopped_run_t stops[] = {
        {"full_shared", SPX_OUTCOME_LANGUAGE_FAILURE, "R0519", over, "11:3-11:12", 50593799, NULL},
        /* the copy's charge before the length limit */
        {"full_shared", SPX_OUTCOME_FUEL_EXHAUSTED, "R0509",
         "fuel exhausted: max_steps 50593798 reached", "11:3-11:12", 50593798, NULL},
    };
    const spx_run_limits_t limits[] = {
        limits_with(100000000, SPX_LIMIT_MAX_MEMORY_DEFAULT),
        limits_with(50593798, SPX_LIMIT_MAX_MEMORY_DEFAULT),
    };
    for (size_t i = 0; i < COUNT(stops); i++)
        spx_run_expect_stopped(fixture, program, &stops[i], &limits[i]);
    spx_run_result_t full = spx_run_fixture_call(fixture, program, "full", &limits[0]);
    spx_run_assert_stopped(&full, SPX_OUTCOME_LANGUAGE_FAILURE, "R0519", "4:3-4:12", fixture->pool);
    CU_ASSERT_STRING_EQUAL(full.failure.message, over);
    CU_ASSERT_EQUAL(full.steps, 50331654);
    CU_ASSERT_EQUAL(full.memory_peak, 32 + 8 * (UINT64_C(1) << 24));
    spx_fixture_free(fixture);
}

/* --- language v1 ------------------------------------------------------------------------- */

/* A v1 program whose strings stay under 64 bytes: no size charge, so its
 * steps are v1's: call, var, var, while, 11 conditions, 10 x 2
 * assignments, let, if, print (statement, call), return, len: 41. */
static void test_v1_steps_unchanged(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    static const spx_counted_run_t run = {
        "t", 63, 41,
        /* s grown from "" to 60 bytes in a capacity of 96 (128), u and the
         * temporary s + "abc" (95 each), and the literal "abc"'s header */
        128 + 95 + 95 + 32, "abcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabc"};
    spx_run_expect_counted(
        fixture,
        spx_run_fixture_program(fixture,
                                "fn t() -> int {\n  var s = \"\";\n  var i = 0;\n"
                                "  while i < 10 { s = s + \"abcdef\"; i = i + 1; }\n"
                                "  let u = s + \"abc\";\n  if u == s + \"abc\" { print(u); }\n"
                                "  return len(u);\n}\n"),
        &run, 1);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"fuel: for, break, continue, v2 builtins, nested loops", test_loop_steps},
        {"fuel: the specification's loop at the boundary", test_loop_fuel_boundary},
        {"size charges: n / 64 of each operation", test_size_charges},
        {"size charges at the fuel boundary", test_size_charge_fuel_boundary},
        {"copy on write and value semantics", test_value_semantics},
        {"a struct that holds itself through an array", test_recursive_struct},
        {"values nested 100000 deep, on a 256 KiB stack", test_deep_values},
        {"memory: exact peaks, max_memory at and under them", test_memory_peaks},
        {"memory: R0521 at each operation that makes a block", test_memory_at_each_operation},
        {"failures R0508, R0511-R0520: messages, spans, steps", test_failures},
        {"shifts", test_shifts},
        {"stoi", test_stoi},
        {"chr", test_chr},
        {"string slices and character boundaries", test_string_slices},
        {"charge, then string length, then memory", test_string_limit_and_order},
        {"the array limit (R0519) and a copy before it", test_array_limit_and_order},
        {"a v1 program keeps its steps", test_v1_steps_unchanged},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("interpreter, language v2", tests);
}
