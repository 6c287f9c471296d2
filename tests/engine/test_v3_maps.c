/*
 * test_v3_maps.c: the maps of language v3 (docs/language.md, "Maps";
 * docs/execution.md, "Maps"), every expectation counted by hand from the
 * specification (the count is in the comment beside it): the order of
 * entries under insert, replace and remove; the fuel and size charges of
 * literals, m[k], writes through a map step, the copies writes force, ==,
 * and each method; copy on write and the snapshot of a for loop; the
 * memory measure (a peak M runs with max_memory M and fails with M - 1);
 * R0522 and R0525 with their messages, spans and steps, and the order of
 * checks; the checker's E0434-E0437, E0417, E0418, E0420, E0312; that
 * nothing depends on the hash key; and fmt's layout of map types and
 * literals.
 */
#include "spx_ast.h"
#include "spx_format.h"
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_run_fixture.h"
#include "spx_values.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <string.h>

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static spx_run_limits_t limits_with(uint64_t max_steps, uint64_t max_memory)
{
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = max_steps;
    limits.max_memory = max_memory;
    return limits;
}

/* --- the specification's example, order, fuel ------------------------------- */

static const char spec_source[] = "fn spec() -> int {\n"
                                  "  var m = {\"a\": 1};\n"
                                  "  m[\"b\"] = 2;\n"
                                  "  for k in m { m[k] = m[k] + 1; }\n"
                                  "  return m[\"a\"] * 10 + m[\"b\"];\n"
                                  "}\n";

/* The specification's `var m = {"a": 1}; m["b"] = 2; for k in m { m[k] +=
 * 1; }`, written out with the place twice: 1 + 1 + 1 + 3 + 2 = 8 steps. */
static void test_spec_example(void)
{
    /* call, var, assignment, for, 3 checks, 2 assignments, return: 10.
     * Memory: "a" (32) and the map of capacity 1 (32 + 24 = 56): 88; the
     * literal "b" (32) and the insert that doubles the capacity (+24): 144;
     * the for loop's snapshot holds m, so the first m[k] = ... copies it
     * (32 + 24 x 2 = 80): the peak, 224 */
    static const spx_counted_run_t run = {"spec", 23, 10, 224, NULL};
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, spec_source);
    spx_run_expect_counted(fixture, program, &run, 1);
    /* the peak runs with max_memory 224 and fails with 223, at the copy
     * (call, var, assignment, for, check, and the assignment that copies:
     * 6 steps), the span its place */
    spx_run_limits_t limits = limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, 224);
    spx_run_result_t at_peak = spx_run_fixture_call(fixture, program, "spec", &limits);
    spx_run_assert_returned(&at_peak, 23, 10);
    limits.max_memory = 223;
    spx_stopped_run_t under = {
        "spec",      SPX_OUTCOME_LANGUAGE_FAILURE,
        "R0521",     "memory limit exceeded: 224 bytes live, over max_memory 223",
        "4:16-4:20", 6,
        NULL};
    spx_run_expect_stopped(fixture, program, &under, &limits);
    /* 8 steps stop at the last check, the 9th (the map's span) */
    limits = limits_with(8, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_stopped_run_t fuel = {"spec",      SPX_OUTCOME_FUEL_EXHAUSTED,
                              "R0509",     "fuel exhausted: max_steps 8 reached",
                              "4:12-4:13", 8,
                              NULL};
    spx_run_expect_stopped(fixture, program, &fuel, &limits);
    spx_fixture_free(fixture);
}

/* The specification's own text, with +=: the same 10 steps and peak. */
static void test_spec_example_compound(void)
{
    static const spx_counted_run_t run = {"spec", 23, 10, 224, NULL};
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture,
                           spx_run_fixture_program(fixture, "fn spec() -> int {\n"
                                                            "  var m = {\"a\": 1};\n"
                                                            "  m[\"b\"] = 2;\n"
                                                            "  for k in m { m[k] += 1; }\n"
                                                            "  return m[\"a\"] * 10 + m[\"b\"];\n"
                                                            "}\n"),
                           &run, 1);
    spx_fixture_free(fixture);
}

static const char order_source[] =
    "fn order() -> int {\n"
    "  let a = \"a\";\n"
    "  var m = {\"b\": 1, a: 2, \"c\": 3, \"a\": 4};\n"
    "  m[\"d\"] = 5;\n"
    "  m[\"b\"] = 6;\n"
    "  let r = m.remove(\"a\");\n"
    "  m[\"a\"] = 7;\n"
    "  for k in m { print(k + \"=\" + itos(m[k]) + \" \"); }\n"
    "  return len(m);\n"
    "}\n"
    "fn ints() -> int {\n"
    "  var m: {int: bool} = {};\n"
    "  for i in 0..6 { m[5 - i] = i % 2 == 0; }\n"
    "  let r = m.remove(3);\n"
    "  let s = m.remove(9);\n"
    "  var n = 0;\n"
    "  for k in m { n = n * 10 + k; }\n"
    "  if r && !s && m[4] == false && m.has(5) && !m.has(3) { return n; }\n"
    "  return -1;\n"
    "}\n"
    "fn snapshot() -> int {\n"
    "  var m = {1: 10, 2: 20};\n"
    "  var n = 0;\n"
    "  for k in m { m[k + 10] = k; m.remove(k); n = n + 1; }\n"
    "  return n * 100 + len(m) * 10 + m[11] + m[12];\n"
    "}\n"
    "fn keys_in_order() -> int {\n"
    "  var m = {true: \"t\", false: \"f\"};\n"
    "  m.remove(true);\n"
    "  m[true] = \"T\";\n"
    "  let ks = m.keys();\n"
    "  let vs = m.values();\n"
    "  print(vs[0] + vs[1]);\n"
    "  if ks[0] == false && ks[1] { return len(ks); }\n"
    "  return 0;\n"
    "}\n"
    "fn one(present: bool) -> int {\n"
    "  if present { return 1; }\n"
    "  return 0;\n"
    "}\n"
    "fn removed_by_right() -> int {\n"
    "  var m = {\"a\": 1, \"b\": 2};\n"
    "  m[\"a\"] += one(m.remove(\"a\"));\n"
    "  for k in m { print(k + \"=\" + itos(m[k]) + \" \"); }\n"
    "  return len(m);\n"
    "}\n";

/* Insertion order: a new key last, a replaced value in place, a removed
 * entry's followers moved up; a repeated literal key keeps its first
 * position with the last value; the loop runs over a snapshot. */
static void test_order(void)
{
    static const spx_counted_run_t runs[] = {
        /* b a c (a = 4: replaced in place), d last, b = 6 in place, a
         * removed, a last again. Steps: call, let, var (n = 4 + 4 bytes),
         * 2 assignments, let + remove, assignment, for + 5 checks, 4 rounds
         * of print statement, print and itos (12), return + len: 28 */
        {"order", 4, 28, SPX_ANY_PEAK, "b=6 c=3 d=5 a=7 "},
        /* keys 5 4 3 2 1 0 (values i % 2 == 0 for i = 5 - key), 3 removed:
         * 5 4 2 1 0. Steps: call, var, for + 7 checks, 6 assignments, let +
         * remove, let + remove, var, for + 6 checks, 5 assignments, if + 2
         * has, return: 1 + 1 + 8 + 6 + 2 + 2 + 1 + 7 + 5 + 3 + 1 = 37 */
        {"ints", 54210, 37, SPX_ANY_PEAK, NULL},
        /* the loop sees 1 and 2 only: {11: 1, 12: 2} after. Steps: call,
         * var, var, for + 3 checks, 2 rounds of assignment, statement +
         * remove, assignment (8), return + len: 17 */
        {"snapshot", 200 + 20 + 1 + 2, 17, SPX_ANY_PEAK, NULL},
        /* false then true. Steps: call, var, statement + remove,
         * assignment, let + keys, let + values, print statement + print,
         * if, return + len: 1 + 1 + 2 + 1 + 2 + 2 + 2 + 1 + 2 = 14 */
        {"keys_in_order", 2, 14, SPX_ANY_PEAK, "fT"},
        /* m["a"] += e reads 1, e removes "a" (one(true) is 1), and the
         * write resolves the place again: the key is missing at the last
         * step, so 1 + 1 is inserted last. Steps: call, var, the
         * statement, remove, one (call, if, return), for + 3 checks, 2
         * rounds of print statement, print and itos, return + len: 1 + 1
         * + 2 + 3 + 4 + 6 + 2 = 19 */
        {"removed_by_right", 2, 19, SPX_ANY_PEAK, "b=2 a=2 "},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, order_source), runs,
                           COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- size charges ------------------------------------------------------------- */

/* count copies of c. */
static const char *letters(apr_pool_t *pool, char c, int count)
{
    char *text = apr_palloc(pool, (apr_size_t)count + 1);
    memset(text, c, (apr_size_t)count);
    text[count] = '\0';
    return text;
}

static const char charges_source[] = "fn charges() -> int {\n"
                                     "  let k = \"@K64@\";\n"
                                     "  var m = {k: 1};\n"
                                     "  let v = m[k];\n"
                                     "  m[k] = 2;\n"
                                     "  let h = m.has(k);\n"
                                     "  let g = m.get(k, 0);\n"
                                     "  let r = m.remove(k);\n"
                                     "  let r2 = m.remove(k);\n"
                                     "  if h && r && !r2 { return v + g; }\n"
                                     "  return 0;\n"
                                     "}\n"
                                     "fn small() -> int {\n"
                                     "  let k = \"@K63@\";\n"
                                     "  var m = {k: 1};\n"
                                     "  let v = m[k];\n"
                                     "  m[k] = 2;\n"
                                     "  return v + m.get(k, 0);\n"
                                     "}\n"
                                     "fn copies() -> int {\n"
                                     "  var m: {int: int} = {};\n"
                                     "  for i in 0..64 { m[i] = i; }\n"
                                     "  let c = m;\n"
                                     "  m[0] = 5;\n"
                                     "  return c[0] + m[0];\n"
                                     "}\n"
                                     "fn equal() -> int {\n"
                                     "  var a: {int: int} = {};\n"
                                     "  var b: {int: int} = {};\n"
                                     "  for i in 0..64 { a[i] = i; b[63 - i] = 63 - i; }\n"
                                     "  if a == b { return 1; }\n"
                                     "  return 0;\n"
                                     "}\n"
                                     "fn unequal() -> int {\n"
                                     "  var a: {int: int} = {};\n"
                                     "  var b: {int: int} = {};\n"
                                     "  for i in 0..64 { a[i] = i; b[i] = i; }\n"
                                     "  b[0] = 1;\n"
                                     "  a[64] = 0;\n"
                                     "  var n = 0;\n"
                                     "  if a != b { n = n + 1; }\n"
                                     "  a.remove(64);\n"
                                     "  if a != b { n = n + 1; }\n"
                                     "  return n;\n"
                                     "}\n"
                                     "fn str_equal() -> int {\n"
                                     "  let k = \"@K63@\";\n"
                                     "  let a = {k: \"x\"};\n"
                                     "  let b = {k: \"x\"};\n"
                                     "  if a == b { return 1; }\n"
                                     "  return 0;\n"
                                     "}\n"
                                     "fn removal() -> int {\n"
                                     "  var m: {int: int} = {};\n"
                                     "  for i in 0..65 { m[i] = i; }\n"
                                     "  let r = m.remove(0);\n"
                                     "  return len(m);\n"
                                     "}\n"
                                     "fn removal_last() -> int {\n"
                                     "  var m: {int: int} = {};\n"
                                     "  for i in 0..65 { m[i] = i; }\n"
                                     "  let r = m.remove(64);\n"
                                     "  return len(m);\n"
                                     "}\n"
                                     "fn lists() -> int {\n"
                                     "  var m: {int: int} = {};\n"
                                     "  for i in 0..64 { m[i] = 2 * i; }\n"
                                     "  let ks = m.keys();\n"
                                     "  let vs = m.values();\n"
                                     "  return ks[63] + vs[63];\n"
                                     "}\n"
                                     "fn literal() -> int {\n"
                                     "  let m = {@ENTRIES@};\n"
                                     "  return len(m);\n"
                                     "}\n";

static const char *charges_program_text(apr_pool_t *pool)
{
    const char *text = charges_source;
    /* 64 entries "0: 0, 1: 1, ...": the literal's n is 64 */
    const char *entries = "";
    for (int i = 0; i < 64; i++)
        entries = apr_psprintf(pool, "%s%s%d: %d", entries, i ? ", " : "", i, i);
    const char *pairs[][2] = {{"@K64@", letters(pool, 'k', 64)},
                              {"@K63@", letters(pool, 'k', 63)},
                              {"@ENTRIES@", entries}};
    for (size_t p = 0; p < COUNT(pairs); p++) {
        const char *at;
        while ((at = strstr(text, pairs[p][0])) != NULL)
            text = apr_pstrcat(pool, apr_pstrndup(pool, text, (apr_size_t)(at - text)), pairs[p][1],
                               at + strlen(pairs[p][0]), NULL);
    }
    return text;
}

static void test_size_charges(void)
{
    static const spx_counted_run_t runs[] = {
        /* a 64-byte key: call 1; let 1; var 1 + the literal's n = 1 entry +
         * 64 bytes: 1; let 1 + m[k]'s 64: 1; assignment 1 + the place step's
         * 64: 1; let + has + 64: 3; let + get + 64: 3; let + remove + 64 (no
         * entry after it): 3; let + remove of an absent key, still 64: 3;
         * if 1; return 1: 22. Memory: k (32) and the map (56), which holds
         * k: 88 */
        {"charges", 3, 22, 88, NULL},
        /* a 63-byte key: the literal's n is 1 + 63 = 64, 1 step; its
         * lookups charge 63, nothing: call, let, var + 1, let, assignment,
         * return + get: 8 */
        {"small", 3, 8, 88, NULL},
        /* call, var, for + 65 checks, 64 assignments, let, assignment + the
         * copy of 64 entries: 1, return: 136. Memory: capacities 0, 4, ...,
         * 64 (32 + 24 x 64 = 1568) and the copy (1568): 3136 */
        {"copies", 5, 136, 3136, NULL},
        /* call, var, var, for + 65 checks, 128 assignments, if + == over 64
         * entries in the left's order (1 each): 1, return: 200; the same
         * entries in another order are equal */
        {"equal", 1, 200, 3136, NULL},
        /* different lengths are unequal at once (n 0); same lengths with
         * the first entry different examine 1 (n 1): no size step. call,
         * var, var, for + 65 checks, 128 assignments, 2 assignments, var,
         * if, assignment, statement + remove, if, assignment, return: 1 + 2 +
         * 66 + 128 + 2 + 1 + 2 + 2 + 2 + 1 = 207 */
        {"unequal", 2, 207, SPX_ANY_PEAK, NULL},
        /* one entry of a 63-byte key: 1 + 63 = 64 examined, and the str
         * value "x" (a nested block: 64, v2's rule, and its 1 byte): 129, 2
         * steps. call, let, let + the literal's 64: 1, the same, if + 2,
         * return: 10 */
        {"str_equal", 1, 10, SPX_ANY_PEAK, NULL},
        /* removing the first of 65 entries moves 64: n 64, 1 step. call,
         * var, for + 66 checks, 65 assignments, let + remove + 1, return +
         * len: 139. Memory: capacity 128, 32 + 24 x 128 = 3104 */
        {"removal", 64, 139, 3104, NULL},
        /* the last moves none: 138 */
        {"removal_last", 64, 138, 3104, NULL},
        /* keys() and values() of 64 entries: n 64 each. call, var, for + 65
         * checks, 64 assignments, let + keys + 1, let + values + 1, return:
         * 139. Memory: the map 1568, two arrays of 32 + 8 x 64 = 544: 2656 */
        {"lists", 63 + 126, 139, 2656, NULL},
        /* a literal of 64 int entries: n 64, 1 step. call, let + 1, return +
         * len: 5. Memory: 32 + 24 x 64 = 1568 */
        {"literal", 64, 5, 1568, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture,
                           spx_run_fixture_program(fixture, charges_program_text(fixture->pool)),
                           runs, COUNT(runs));
    spx_fixture_free(fixture);
}

/* The size charge is paid before the memory check, and a run whose
 * measure peaks at M runs with M and fails with M - 1. */
static void test_memory_boundaries(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, charges_program_text(fixture->pool));
    /* the literal "{0: 0, ..., 63: 63}" of line 73, from column 11 */
    apr_size_t literal_length = 2;
    for (int i = 0; i < 64; i++)
        literal_length += (i ? 2 : 0) + 2 * strlen(apr_itoa(fixture->pool, i)) + 2;
    const struct {
        const char *function;
        int64_t value;
        uint64_t steps, peak;
        const char *span;  /* where the last growth fails */
        uint64_t at_steps; /* and after how many steps */
    } cases[] = {
        /* the copy: call, var, for + 65 checks, 64 assignments, let,
         * assignment + its charge (paid before memory): 135 */
        {"copies", 5, 136, 3136, "24:3-24:7", 135},
        /* the literal: call, let + its charge: 3 */
        {"literal", 64, 5, 1568,
         apr_psprintf(fixture->pool, "73:11-73:%u", (unsigned)(11 + literal_length)), 3},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        spx_run_limits_t limits = limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, cases[i].peak);
        spx_run_result_t result =
            spx_run_fixture_call(fixture, program, cases[i].function, &limits);
        spx_run_assert_returned(&result, cases[i].value, cases[i].steps);
        limits.max_memory = cases[i].peak - 1;
        spx_stopped_run_t stop = {cases[i].function,
                                  SPX_OUTCOME_LANGUAGE_FAILURE,
                                  "R0521",
                                  apr_psprintf(fixture->pool,
                                               "memory limit exceeded: %" PRIu64
                                               " bytes live, over max_memory %" PRIu64,
                                               cases[i].peak, cases[i].peak - 1),
                                  cases[i].span,
                                  cases[i].at_steps,
                                  NULL};
        spx_run_expect_stopped(fixture, program, &stop, &limits);
    }
    spx_fixture_free(fixture);
}

/* --- value semantics ------------------------------------------------------------ */

static const char values_source[] =
    "fn touch(m: {str: int}) -> int {\n"
    "  var n = m;\n"
    "  n[\"q\"] = 1;\n"
    "  return len(n);\n"
    "}\n"
    "fn nested() -> int {\n"
    "  var a = {\"x\": [1, 2]};\n"
    "  let b = a;\n"
    "  a[\"x\"].push(3);\n"
    "  var c = a;\n"
    "  c[\"y\"] = [];\n"
    "  c[\"x\"][0] = 9;\n"
    "  return len(a[\"x\"]) * 1000 + len(b[\"x\"]) * 100 + len(a) * 10 + a[\"x\"][0];\n"
    "}\n"
    "fn passed() -> int {\n"
    "  let m = {\"a\": 1};\n"
    "  return touch(m) * 10 + len(m);\n"
    "}\n"
    "struct Box { m: {int: [str]} }\n"
    "fn fields() -> int {\n"
    "  var b = Box { m: {} };\n"
    "  b.m[1] = [\"one\"];\n"
    "  b.m[1].push(\"uno\");\n"
    "  let c = b;\n"
    "  b.m[2] = [];\n"
    "  return len(b.m) * 100 + len(c.m) * 10 + len(b.m[1]);\n"
    "}\n"
    "fn temporaries() -> int {\n"
    "  var m = {\"a\": [\"x\", \"y\"]};\n"
    "  let s = m[\"a\"].pop();\n"
    "  let t = m.get(\"z\" + \"z\", [\"d\" + \"e\"]);\n"
    "  let h = ({\"q\": 1}).has(\"q\" + \"\");\n"
    "  let ks = ({\"k\": s}).values();\n"
    "  m[s + \"!\"] = t;\n"
    "  if h && ks[0] == \"y\" && m[\"y!\"][0] == \"de\" { return len(m); }\n"
    "  return 0;\n"
    "}\n"
    "fn maps_of_maps() -> int {\n"
    "  var m: {str: {str: int}} = {};\n"
    "  m[\"a\"] = {};\n"
    "  m[\"a\"][\"b\"] = 1;\n"
    "  m[\"a\"][\"c\"] = 2;\n"
    "  let n = m;\n"
    "  m[\"a\"][\"b\"] = 5;\n"
    "  if m == n { return 0; }\n"
    "  return m[\"a\"][\"b\"] * 10 + n[\"a\"][\"b\"];\n"
    "}\n";

static void test_value_semantics(void)
{
    static const spx_counted_run_t runs[] = {
        /* a: x = [1, 2, 3] after the push copies the map (b holds it) and
         * the array; c's writes copy again and leave a alone. Steps: call,
         * var, let, statement + push, var, assignment, assignment, return +
         * 3 len: 1 + 1 + 1 + 2 + 1 + 1 + 1 + 4 = 12 */
        {"nested", 3000 + 200 + 10 + 1, 12, SPX_ANY_PEAK, NULL},
        /* touch's copy is its own: call, let, return + touch (call, var,
         * assignment, return + len: 5) + len: 1 + 1 + 1 + 5 + 1 = 9 */
        {"passed", 21, 9, SPX_ANY_PEAK, NULL},
        /* call, var, 3 writes (the push: statement + call), let,
         * assignment, return + 3 len: 1 + 1 + 1 + 2 + 1 + 1 + 4 = 11 */
        {"fields", 200 + 10 + 2, 11, SPX_ANY_PEAK, NULL},
        /* str keys and defaults that are temporaries, released once used
         * (the heap's checks in the sanitizer build): call, var, let + pop,
         * let + get, let + has, let + values, assignment, if, return + len:
         * 1 + 1 + 2 + 2 + 2 + 2 + 1 + 1 + 2 = 14 */
        {"temporaries", 2, 14, SPX_ANY_PEAK, NULL},
        /* call, var, 3 assignments, let, assignment (copying both maps),
         * if + == (entry "a": 1 + 1 byte, its value a nested block: 64,
         * v2's rule, then entry "b": 1 + 1, values 5 and 1 differ: 68, one
         * step), return: 10 */
        {"maps_of_maps", 51, 10, SPX_ANY_PEAK, NULL},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_expect_counted(fixture, spx_run_fixture_program(fixture, values_source), runs,
                           COUNT(runs));
    spx_fixture_free(fixture);
}

/* --- failures --------------------------------------------------------------------- */

static const char failures_source[] = "fn read() -> int {\n"
                                      "  let m = {\"apple\": 1, \"fig\": 2, \"kiwi\": 3};\n"
                                      "  return m[\"pear\"];\n"
                                      "}\n"
                                      "fn read_int() -> int {\n"
                                      "  let m: {int: int} = {};\n"
                                      "  return m[7];\n"
                                      "}\n"
                                      "fn read_bool() -> int {\n"
                                      "  let m = {false: 1};\n"
                                      "  return m[true];\n"
                                      "}\n"
                                      "fn escaped() -> int {\n"
                                      "  let m = {\"a\": 1};\n"
                                      "  return m[\"q\\\"\\\\\\n\\t\\u{1}\"];\n"
                                      "}\n"
                                      "fn long_key() -> int {\n"
                                      "  let m = {\"a\": 1};\n"
                                      "  return m[\"@X300@\"];\n"
                                      "}\n"
                                      "fn nested_push() -> int {\n"
                                      "  var m = {\"a\": [1]};\n"
                                      "  let c = m;\n"
                                      "  m[\"zz\"].push(1);\n"
                                      "  return 0;\n"
                                      "}\n"
                                      "fn nested_write() -> int {\n"
                                      "  var m = {\"a\": [1]};\n"
                                      "  let c = m;\n"
                                      "  m[\"zz\"][9] = 1;\n"
                                      "  return 0;\n"
                                      "}\n"
                                      "fn index_first() -> int {\n"
                                      "  var xs = [{\"a\": 1}];\n"
                                      "  xs[1][\"zz\"] = 1;\n"
                                      "  return 0;\n"
                                      "}\n"
                                      "fn remove_through() -> int {\n"
                                      "  var m = {1: {2: 3}};\n"
                                      "  m[5].remove(2);\n"
                                      "  return 0;\n"
                                      "}\n"
                                      "fn one(present: bool) -> int {\n"
                                      "  if present { return 1; }\n"
                                      "  return 0;\n"
                                      "}\n"
                                      "fn removed_under_write() -> int {\n"
                                      "  var m = {\"a\": [1]};\n"
                                      "  m[\"a\"][0] += one(m.remove(\"a\"));\n"
                                      "  return 0;\n"
                                      "}\n";

static void test_failures(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *x300 = letters(fixture->pool, 'x', 300);
    const char *source = failures_source;
    const char *at = strstr(source, "@X300@");
    source =
        apr_pstrcat(fixture->pool, apr_pstrndup(fixture->pool, source, (apr_size_t)(at - source)),
                    x300, at + 6, NULL);
    spx_program_t *program = spx_run_fixture_program(fixture, source);
    spx_run_limits_t limits = spx_run_limits_default();
    const spx_stopped_run_t stops[] = {
        /* the index expression; call, let, return: 3 (no size charge: a
         * missing key fails before it) */
        {"read", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522", "key \"pear\" not in map of length 3",
         "3:10-3:19", 3, NULL},
        {"read_int", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522", "key 7 not in map of length 0",
         "7:10-7:14", 3, NULL},
        {"read_bool", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522", "key true not in map of length 1",
         "11:10-11:17", 3, NULL},
        /* rendered as assert_eq renders a str */
        {"escaped", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522",
         "key \"q\\\"\\\\\\n\\t\\x01\" not in map of length 1", "15:10-15:29", 3, NULL},
        /* cut after its first 256 bytes ('"' and 255 x), then "..." */
        {"long_key", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522",
         apr_pstrcat(fixture->pool, "key \"", letters(fixture->pool, 'x', 255),
                     "... not in map of length 1", NULL),
         "19:10-19:315", 3, NULL},
        /* only the last step of a place inserts; the key is checked before
         * the shared map is copied: call, var, let, statement, push: 5 */
        {"nested_push", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522", "key \"zz\" not in map of length 1",
         "24:3-24:18", 5, NULL},
        /* the missing key comes before the index along the path: call,
         * var, let, assignment: 4 */
        {"nested_write", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522", "key \"zz\" not in map of length 1",
         "30:3-30:13", 4, NULL},
        {"index_first", SPX_OUTCOME_LANGUAGE_FAILURE, "R0511", "index 1 out of range for length 1",
         "35:3-35:14", 3, NULL},
        /* a place method through a missing key: call, var, statement,
         * remove: 4 */
        {"remove_through", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522", "key 5 not in map of length 1",
         "40:3-40:17", 4, NULL},
        /* the compound's read finds "a", e removes it, and the write
         * resolves the place again: "a" is not its last step, so it does
         * not insert: call, var, statement, remove, one (call, if,
         * return): 7 */
        {"removed_under_write", SPX_OUTCOME_LANGUAGE_FAILURE, "R0522",
         "key \"a\" not in map of length 0", "49:3-49:12", 7, NULL},
    };
    for (size_t i = 0; i < COUNT(stops); i++)
        spx_run_expect_stopped(fixture, program, &stops[i], &limits);
    spx_fixture_free(fixture);
}

/* R0525 through the values' API with the limit lowered (the white-box
 * hook): a real map of 2^24 entries needs 400 MB; the check and its order
 * are the same at any limit. */
static void test_entry_limit(void)
{
    spx_heap_t heap;
    spx_heap_init(&heap, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    CU_ASSERT_EQUAL(heap.map_entries_limit, SPX_LIMIT_MAP_ENTRIES);
    heap.map_entries_limit = 2;
    uint64_t fuel = 1000;
    spx_value_t keys[3] = {{.i = 1}, {.i = 2}, {.i = 1}},
                values[3] = {{.i = 10}, {.i = 20}, {.i = 30}};
    spx_value_block_t *map = NULL;
    /* a repeated key is no entry more: 2 entries, 1 = 30 */
    CU_ASSERT_EQUAL_FATAL(spx_map_make(&heap, &fuel, SPX_MAP_KEYS_INT, 0, keys, values, 3, &map),
                          SPX_HEAP_OK);
    CU_ASSERT_EQUAL(map->length, 2);
    spx_value_t got;
    CU_ASSERT_EQUAL(spx_map_get(&heap, &fuel, map, keys[0], &got), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(got.i, 30);
    /* a third: R0525 after the charge, before memory, changing nothing */
    int64_t step = 3;
    spx_value_t value = {.i = 40};
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &map, &step, 1, value), SPX_HEAP_FAILED);
    CU_ASSERT_EQUAL(heap.code, SPX_R0525);
    CU_ASSERT_STRING_EQUAL(heap.message, "map of 3 entries, over the limit of 2");
    CU_ASSERT_EQUAL(map->length, 2);
    /* a literal of 3 distinct keys */
    spx_value_t three[3] = {{.i = 1}, {.i = 2}, {.i = 3}};
    spx_value_block_t *other = NULL;
    CU_ASSERT_EQUAL(spx_map_make(&heap, &fuel, SPX_MAP_KEYS_INT, 0, three, values, 3, &other),
                    SPX_HEAP_FAILED);
    CU_ASSERT_EQUAL(heap.code, SPX_R0525);
    CU_ASSERT_STRING_EQUAL(heap.message, "map of 3 entries, over the limit of 2");
    /* replacing stays possible */
    step = 2;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &map, &step, 1, value), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(fuel, 1000);
    spx_block_release(&heap, map);
    spx_heap_finish(&heap);
}

/* Two hash keys, the same maps: order, lookups and == never depend on it. */
static void test_hash_key_unobservable(void)
{
    static const uint64_t hash_keys[][2] = {{0, 0}, {1, 2}, {0x0123456789abcdefull, 42}};
    for (size_t h = 0; h < COUNT(hash_keys); h++) {
        spx_heap_t heap;
        spx_heap_init(&heap, SPX_LIMIT_MAX_MEMORY_DEFAULT);
        heap.hash_key[0] = hash_keys[h][0];
        heap.hash_key[1] = hash_keys[h][1];
        uint64_t fuel = 1u << 20;
        spx_value_block_t *map = NULL;
        spx_value_t none[1] = {{.i = 0}};
        CU_ASSERT_EQUAL_FATAL(spx_map_make(&heap, &fuel, SPX_MAP_KEYS_INT, 0, none, none, 0, &map),
                              SPX_HEAP_OK);
        /* 1000 keys in a scrambled order, every third removed */
        for (int64_t i = 0; i < 1000; i++) {
            int64_t key = (i * 7919) % 1000;
            spx_value_t value = {.i = i};
            CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &map, &key, 1, value), SPX_HEAP_OK);
        }
        for (int64_t i = 0; i < 1000; i += 3) {
            int removed = 0;
            spx_value_t key = {.i = (i * 7919) % 1000};
            CU_ASSERT_EQUAL(spx_place_remove_key(&heap, &fuel, &map, NULL, 0, key, &removed),
                            SPX_HEAP_OK);
            CU_ASSERT_TRUE(removed);
        }
        CU_ASSERT_EQUAL(map->length, 666);
        /* the entries left, in insertion order */
        uint32_t position = 0;
        for (int64_t i = 0; i < 1000; i++) {
            if (i % 3 == 0)
                continue;
            spx_value_t key = spx_map_key_at(map, position++);
            CU_ASSERT_EQUAL(key.i, (i * 7919) % 1000);
            int found = 0;
            CU_ASSERT_EQUAL(spx_map_has(&heap, &fuel, map, key, &found), SPX_HEAP_OK);
            CU_ASSERT_TRUE(found);
        }
        /* storage given back under a quarter of the capacity: 1024 entries
         * of room after the growth, 512 once under 256 */
        CU_ASSERT_EQUAL(map->capacity, 1024);
        for (int64_t i = 1; i < 1000; i += 3) {
            int removed = 0;
            spx_value_t key = {.i = (i * 7919) % 1000};
            CU_ASSERT_EQUAL(spx_place_remove_key(&heap, &fuel, &map, NULL, 0, key, &removed),
                            SPX_HEAP_OK);
        }
        CU_ASSERT_EQUAL(map->length, 333);
        CU_ASSERT_EQUAL(map->capacity, 1024);
        CU_ASSERT_EQUAL(heap.live, 32 + 24 * 1024);
        for (int64_t i = 2; i < 1000 && map->length > 200; i += 3) {
            int removed = 0;
            spx_value_t key = {.i = (i * 7919) % 1000};
            CU_ASSERT_EQUAL(spx_place_remove_key(&heap, &fuel, &map, NULL, 0, key, &removed),
                            SPX_HEAP_OK);
        }
        CU_ASSERT_EQUAL(map->capacity, 512);
        CU_ASSERT_EQUAL(heap.live, 32 + 24 * 512);
        spx_block_release(&heap, map);
        spx_heap_finish(&heap);
    }
}

/* A lookup tries the position the map's last lookup or insert found (its
 * hint) first: the answers stay right when removals move the entries under
 * it, shorten the map past it, and after inserts; lookups use other blocks
 * of the same bytes as the keys. */
static spx_value_block_t *str_of(spx_heap_t *heap, const char *text)
{
    spx_value_block_t *s = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_str_make(heap, (const unsigned char *)text, (apr_size_t)strlen(text), &s), SPX_HEAP_OK);
    return s;
}

static int64_t get_of(spx_heap_t *heap, const spx_value_block_t *map, const char *text, int *found)
{
    uint64_t fuel = 1u << 20;
    spx_value_t key = {.b = str_of(heap, text)}, value = {.i = -1};
    CU_ASSERT_EQUAL(spx_map_has(heap, &fuel, map, key, found), SPX_HEAP_OK);
    if (*found)
        CU_ASSERT_EQUAL(spx_map_get(heap, &fuel, map, key, &value), SPX_HEAP_OK);
    spx_block_release(heap, key.b);
    return value.i;
}

static void remove_of(spx_heap_t *heap, spx_value_block_t **map, const char *text)
{
    uint64_t fuel = 1u << 20;
    int removed = 0;
    spx_value_t key = {.b = str_of(heap, text)};
    CU_ASSERT_EQUAL(spx_place_remove_key(heap, &fuel, map, NULL, 0, key, &removed), SPX_HEAP_OK);
    CU_ASSERT_TRUE(removed);
    spx_block_release(heap, key.b);
}

static void test_lookup_hint(void)
{
    spx_heap_t heap;
    spx_heap_init(&heap, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    uint64_t fuel = 1u << 20;
    static const char *const names[] = {"a", "b", "c", "d"};
    spx_value_t keys[4], values[4];
    for (int i = 0; i < 4; i++) {
        keys[i].b = str_of(&heap, names[i]);
        values[i].i = i + 1;
    }
    spx_value_block_t *map = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_map_make(&heap, &fuel, SPX_MAP_KEYS_STR, 0, keys, values, 4, &map),
                          SPX_HEAP_OK);
    int found = 0;
    CU_ASSERT_EQUAL(get_of(&heap, map, "c", &found), 3);
    CU_ASSERT_EQUAL(map->of.hint, 2); /* the hint is c's position */
    remove_of(&heap, &map, "a");      /* c moves to 1, d to 2: under the hint */
    CU_ASSERT_EQUAL(get_of(&heap, map, "c", &found), 3);
    CU_ASSERT_EQUAL(map->of.hint, 1);
    CU_ASSERT_EQUAL(get_of(&heap, map, "d", &found), 4);
    CU_ASSERT_EQUAL(map->of.hint, 2);
    remove_of(&heap, &map, "b"); /* the hint 2 is past the end now */
    remove_of(&heap, &map, "c");
    CU_ASSERT_EQUAL(map->length, 1);
    CU_ASSERT_EQUAL(get_of(&heap, map, "d", &found), 4);
    CU_ASSERT_EQUAL(get_of(&heap, map, "c", &found), -1);
    CU_ASSERT_FALSE(found);
    CU_ASSERT_EQUAL(get_of(&heap, map, "a", &found), -1);
    CU_ASSERT_FALSE(found);
    /* an insert's position is the hint; the others still found */
    spx_value_block_t *e = str_of(&heap, "e");
    int64_t step = (int64_t)(intptr_t)e;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &map, &step, 1, (spx_value_t){.i = 5}),
                    SPX_HEAP_OK);
    spx_block_release(&heap, e);
    CU_ASSERT_EQUAL(map->of.hint, 1);
    CU_ASSERT_EQUAL(get_of(&heap, map, "d", &found), 4);
    CU_ASSERT_EQUAL(get_of(&heap, map, "e", &found), 5);
    CU_ASSERT_EQUAL(get_of(&heap, map, "b", &found), -1);
    CU_ASSERT_FALSE(found);
    spx_block_release(&heap, map);
    /* past SPX_MAP_SCAN_ENTRIES the index is searched, after the hint */
    spx_value_t none[1] = {{.i = 0}};
    CU_ASSERT_EQUAL_FATAL(spx_map_make(&heap, &fuel, SPX_MAP_KEYS_INT, 0, none, none, 0, &map),
                          SPX_HEAP_OK);
    int64_t count = 4 * (int64_t)SPX_MAP_SCAN_ENTRIES;
    for (int64_t k = 0; k < count; k++)
        CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &map, &k, 1, (spx_value_t){.i = 100 + k}),
                        SPX_HEAP_OK);
    spx_value_t key = {.i = count - 1}, value = {.i = -1};
    CU_ASSERT_EQUAL(spx_map_get(&heap, &fuel, map, key, &value), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(value.i, 100 + count - 1);
    CU_ASSERT_EQUAL(map->of.hint, (uint32_t)(count - 1));
    for (int64_t k = 0; k < count - 1; k += 2) { /* the later entries move under the hint */
        int removed = 0;
        CU_ASSERT_EQUAL(
            spx_place_remove_key(&heap, &fuel, &map, NULL, 0, (spx_value_t){.i = k}, &removed),
            SPX_HEAP_OK);
        for (int64_t j = k + 1; j < count; j += 2) {
            CU_ASSERT_EQUAL(spx_map_get(&heap, &fuel, map, (spx_value_t){.i = j}, &value),
                            SPX_HEAP_OK);
            CU_ASSERT_EQUAL(value.i, 100 + j);
        }
        CU_ASSERT_EQUAL(spx_map_has(&heap, &fuel, map, (spx_value_t){.i = k}, &found), SPX_HEAP_OK);
        CU_ASSERT_FALSE(found);
    }
    spx_block_release(&heap, map);
    CU_ASSERT_EQUAL(heap.blocks, 0);
    spx_heap_finish(&heap);
}

/* m[k] = e on a map held once, k present, is done in line by the
 * interpreter: the same value and steps as through spx_place_write (worked
 * out by the general path), every dying key released (the run ends with
 * nothing live, or the heap's check fails), inserts still by the general
 * path, and a map held twice still copied. */
static const char in_line_write_source[] = "fn writes() -> int {\n"
                                           "  var m = {\"a1\": 1, \"b\": 2};\n"
                                           "  var names = {\"x\": \"p\"};\n"
                                           "  var i = 0;\n"
                                           "  while i < 3 {\n"
                                           "    m[\"a\" + itos(1)] = m[\"a1\"] + 10;\n"
                                           "    m[itos(i)] = i;\n"
                                           "    m[itos(i)] = i + 100;\n"
                                           "    names[\"x\"] = names[\"x\"] + itos(i);\n"
                                           "    i += 1;\n"
                                           "  }\n"
                                           "  m[\"b\"] = 5;\n"
                                           "  let n = m;\n"
                                           "  m[\"b\"] = 6;\n"
                                           "  return m[\"a1\"] + m[\"b\"] + len(m) + m[\"2\"] +\n"
                                           "         len(names[\"x\"]) + n[\"b\"];\n"
                                           "}\n";

static void test_in_line_map_write(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, in_line_write_source);
    spx_run_limits_t limits =
        limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_run_result_t result = spx_run_fixture_call(fixture, program, "writes", &limits);
    /* m["a1"] 31, m["b"] 6, 5 entries, m["2"] 102, "p012", n["b"] 5: 153 */
    spx_run_assert_returned(&result, 153, 42);
    spx_fixture_free(fixture);
}

/* A str key's hash is kept in the string's block once a map hashed it; a
 * string that grows in place afterwards (held once, storage of its own) is
 * hashed again: here "k1" is looked up, grows to "k15", and must then be
 * found as "k15" in a map past SPX_MAP_SCAN_ENTRIES (so its index is
 * probed from the hash). */
static const char grown_key_source[] = "fn grown() -> int {\n"
                                       "  var m: {str: int} = {};\n"
                                       "  var i = 0;\n"
                                       "  while i < 40 {\n"
                                       "    m[\"k\" + itos(i)] = i;\n"
                                       "    i += 1;\n"
                                       "  }\n"
                                       "  var s = \"k\" + itos(1);\n"
                                       "  var found = 0;\n"
                                       "  if m.has(s) { found += 1; }\n"
                                       "  s += \"5\";\n"
                                       "  if m.has(s) { found += 10; }\n"
                                       "  found += m.get(s, -1) * 100;\n"
                                       "  s += \"0\";\n"
                                       "  if m.has(s) { found += 1000000; }\n"
                                       "  return found;\n"
                                       "}\n";

static void test_grown_key_hashed_again(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_program_t *program = spx_run_fixture_program(fixture, grown_key_source);
    spx_run_limits_t limits =
        limits_with(SPX_LIMIT_MAX_STEPS_DEFAULT, SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_run_result_t result = spx_run_fixture_call(fixture, program, "grown", &limits);
    CU_ASSERT_EQUAL(result.outcome, SPX_OUTCOME_RETURNED);
    CU_ASSERT_EQUAL(result.value, 1 + 10 + 1500); /* "k150" is not a key */
    spx_fixture_free(fixture);
}

/* --- the checker ------------------------------------------------------------------ */

/* The diagnostics of one module "app" (app.spx) as "CODE L:C-L:C message"
 * lines, sorted. */
static const char *diagnostics_of(const char *text, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_arena_t *arena = spx_arena_make(pool);
    spx_module_t *module =
        spx_module_make("app", "app.spx", (const unsigned char *)text, strlen(text), arena);
    spx_parse_module(module, arena, arena, pool, diagnostics);
    spx_check_program(&module, 1, pool, diagnostics);
    spx_diagnostics_sort(diagnostics);
    const char *lines = "";
    for (apr_size_t i = 0; i < spx_diagnostics_count(diagnostics); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, i);
        lines = apr_psprintf(pool, "%s%s %" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 " %s\n",
                             lines, item->code, item->span.start.line, item->span.start.column,
                             item->span.end.line, item->span.end.column, item->message);
    }
    return lines;
}

static void expect_diagnostics(const char *text, const char *expected)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *got = diagnostics_of(text, pool);
    if (strcmp(got, expected) != 0)
        fprintf(stderr, "\n--- source\n%s--- expected\n%s--- got\n%s---\n", text, expected, got);
    CU_ASSERT_STRING_EQUAL(got, expected);
    apr_pool_destroy(pool);
}

static void test_checker(void)
{
    /* E0434 at the key type, wherever a map type is written */
    expect_diagnostics("struct P { x: int }\n"
                       "fn f(m: {[int]: int}) -> {P: int} { var n: {str: {bool: {int: str}}} = {}; "
                       "return {}; }\n",
                       "E0434 2:10-2:15 map keys are int, str or bool, not [int]\n"
                       "E0434 2:27-2:28 map keys are int, str or bool, not app.P\n");
    /* E0435: {} with nothing expecting a type, or expecting no map */
    expect_diagnostics(
        "fn f() -> int { let m = {}; let n = {1: []}; let k: int = {}; return 0; }\n",
        "E0435 1:25-1:27 this map literal needs its key and value types: nothing "
        "here expects one and it has no entries\n"
        "E0435 1:37-1:44 this map literal needs its key and value types: nothing "
        "here expects one and no entry gives both\n"
        "E0435 1:59-1:61 this map literal needs its key and value types: what "
        "stands here expects int, which is not a map, and it has no entries\n");
    /* the first entry that types itself gives the types; E0436 for the
     * others; an expected type gives them to {} and [] */
    expect_diagnostics(
        "fn f() -> int {\n"
        "  let a = {\"a\": [], \"b\": [1], 3: [2], \"c\": true, \"d\": [\"x\"]};\n"
        "  let b: {str: [int]} = {\"a\": [], \"b\": {}};\n"
        "  let c = {[1]: 2};\n"
        "  return len(a) + len(b) + len(c);\n"
        "}\n",
        "E0436 2:31-2:32 this key is int, but the map's keys are str\n"
        "E0436 2:44-2:48 this value is bool, but the map's values are [int]\n"
        "E0428 2:56-2:59 an element of '[int]' must be 'int', not 'str'\n"
        "E0435 3:40-3:42 this map literal needs its key and value types: what stands here "
        "expects [int], which is not a map, and it has no entries\n"
        "E0434 4:12-4:15 map keys are int, str or bool, not [int]\n");
    /* E0437 for literal keys of equal value, with a note at the first */
    expect_diagnostics("fn f() -> int {\n"
                       "  let k = 1;\n"
                       "  let a = {1: 0, k: 0, -1: 0, 1: 0, -1: 0};\n"
                       "  let b = {\"a\": 0, \"b\": 0, \"a\": 0};\n"
                       "  let c = {true: 0, false: 0, true: 1};\n"
                       "  return len(a) + len(b) + len(c);\n"
                       "}\n",
                       "E0437 3:31-3:32 key 1 appears twice in this map literal\n"
                       "E0437 3:37-3:39 key -1 appears twice in this map literal\n"
                       "E0437 4:28-4:31 key \"a\" appears twice in this map literal\n"
                       "E0437 5:31-5:35 key true appears twice in this map literal\n");
    /* E0437 for const keys too, once consts are evaluated; a literal
     * equal to an earlier literal is reported once */
    expect_diagnostics("const A: str = \"a\";\n"
                       "const ONE: int = 1;\n"
                       "fn f() -> int {\n"
                       "  let m = {A: 1, \"a\": 2};\n"
                       "  let n = {1: 0, ONE: 0, 2: 0};\n"
                       "  let o = {\"b\": 0, \"b\": 1, A: 2, \"a\": 3};\n"
                       "  return len(m) + len(n) + len(o);\n"
                       "}\n",
                       "E0437 4:18-4:21 key \"a\" appears twice in this map literal\n"
                       "E0437 5:18-5:21 key 1 appears twice in this map literal\n"
                       "E0437 6:20-6:23 key \"b\" appears twice in this map literal\n"
                       "E0437 6:34-6:37 key \"a\" appears twice in this map literal\n");
    /* E0418 a key of another type, E0417 a slice, E0420 a method maps do
     * not have (with the nearest), E0312 remove through a let, E0404 an
     * argument of the wrong type, E0403 a wrong count */
    expect_diagnostics(
        "fn f() -> int {\n"
        "  let m = {\"a\": 1};\n"
        "  let x = m[1];\n"
        "  let y = m[0..1];\n"
        "  let z = m.hass(\"a\");\n"
        "  m.remove(\"a\");\n"
        "  let g = m.get(\"a\", \"b\");\n"
        "  let k = m.keys(1);\n"
        "  return 0;\n"
        "}\n",
        "E0418 3:13-3:14 a key of '{str: int}' must be 'str', not 'int'\n"
        "E0417 4:11-4:12 a value of type '{str: int}' cannot be sliced: only str "
        "and arrays can\n"
        "E0420 5:13-5:17 type '{str: int}' has no method 'hass'; did you mean 'has'?\n"
        "E0312 6:5-6:11 cannot change 'm' with 'remove': it is declared with 'let'\n"
        "E0404 7:22-7:25 argument 2 of 'get' must be 'int', not 'str'\n"
        "E0403 8:11-8:20 'keys' takes 0 arguments, not 1\n");
    /* a map literal does not start in an if condition; in parentheses it
     * does; maps iterate their keys; len and == take maps */
    expect_diagnostics("fn f(m: {int: str}) -> int {\n"
                       "  if m == ({}) { return 0; }\n"
                       "  var n = 0;\n"
                       "  for k in m { n = n + k + len(m[k]); }\n"
                       "  return n + len(m);\n"
                       "}\n",
                       "");
    expect_diagnostics("fn f(m: {int: str}) -> int {\n"
                       "  if m == {} { return 0; }\n"
                       "  return 0;\n"
                       "}\n",
                       "E0220 2:11-2:12 expected an expression, found '{'\n");
}

/* --- fmt --------------------------------------------------------------------------- */

/* source formats to expected, and expected to itself. */
static void expect_layout(const char *source, const char *expected)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *text = source;
    for (int round = 0; round < 2; round++) {
        spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
        char *formatted = NULL;
        apr_size_t length = 0;
        spx_format_outcome_t outcome =
            spx_format_source((const unsigned char *)text, strlen(text), "t.spx", &formatted,
                              &length, diagnostics, pool);
        CU_ASSERT_EQUAL(outcome, SPX_FORMAT_DONE);
        CU_ASSERT_PTR_NOT_NULL_FATAL(formatted);
        if (strcmp(formatted, expected) != 0)
            fprintf(stderr, "\n--- source\n%s--- expected\n%s--- got\n%s---\n", text, expected,
                    formatted);
        CU_ASSERT_STRING_EQUAL(formatted, expected);
        text = expected;
    }
    apr_pool_destroy(pool);
}

/* Map types and literals are tight, like arrays ({}, {"a": 1}, {str: [int]},
 * gofmt's composite literals); a struct literal keeps its spaces; a map
 * result type stands before the body's brace; a trailing comma goes. */
static void test_format(void)
{
    expect_layout("struct P{m:{str:[int]},n:int}\n"
                  "fn f(m:{str:int},x:int)->{str:int}{\n"
                  "var a:{int:{int:bool}}={ };\n"
                  "var b={\"x\" : 1, \"y\":2,};\n"
                  "let c=[{1:2},{}];\n"
                  "let p=P{m:{\"a\":[1]},n:1};\n"
                  "if a==({}){return {\"k\":len(b)};}\n"
                  "b[\"z\"]=3;\n"
                  "return m;}\n",
                  "struct P {\n"
                  "    m: {str: [int]},\n"
                  "    n: int,\n"
                  "}\n"
                  "\n"
                  "fn f(m: {str: int}, x: int) -> {str: int} {\n"
                  "    var a: {int: {int: bool}} = {};\n"
                  "    var b = {\"x\": 1, \"y\": 2};\n"
                  "    let c = [{1: 2}, {}];\n"
                  "    let p = P { m: {\"a\": [1]}, n: 1 };\n"
                  "    if a == ({}) {\n"
                  "        return {\"k\": len(b)};\n"
                  "    }\n"
                  "    b[\"z\"] = 3;\n"
                  "    return m;\n"
                  "}\n");
    expect_layout("fn g() -> {int: {int: [str]}} { return {1: {2: [\"a\"]}}; }\n",
                  "fn g() -> {int: {int: [str]}} {\n"
                  "    return {1: {2: [\"a\"]}};\n"
                  "}\n");
}

/* Map types are spelled {K: V} in signatures (the graph's) and field types. */
static void test_signatures(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *text = "export struct P { m: {str: [int]} }\n"
                       "export fn f(_m: {str: [int]}, _p: P) -> {int: {bool: P}} { return {}; }\n";
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_arena_t *arena = spx_arena_make(pool);
    spx_module_t *module =
        spx_module_make("app", "app.spx", (const unsigned char *)text, strlen(text), arena);
    spx_parse_module(module, arena, arena, pool, diagnostics);
    spx_check_program(&module, 1, pool, diagnostics);
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 0);
    CU_ASSERT_STRING_EQUAL(spx_function_signature(module->functions[0], pool),
                           "fn(_m: {str: [int]}, _p: app.P) -> {int: {bool: app.P}}");
    CU_ASSERT_STRING_EQUAL(spx_written_type_name(module->structs[0]->fields[0].type_syntax,
                                                 module->structs[0]->fields[0].type, module, pool),
                           "{str: [int]}");
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"the specification's example: steps, peak, max_memory", test_spec_example},
        {"the specification's example with +=", test_spec_example_compound},
        {"insertion order, replace, remove, the for snapshot", test_order},
        {"size charges of each map operation", test_size_charges},
        {"memory: peaks at and under max_memory", test_memory_boundaries},
        {"copy on write and value semantics", test_value_semantics},
        {"R0522: messages, spans, steps, order of checks", test_failures},
        {"R0525, the map entry limit", test_entry_limit},
        {"nothing depends on the hash key", test_hash_key_unobservable},
        {"the lookup hint after removes and inserts", test_lookup_hint},
        {"m[k] = e in line on a map held once", test_in_line_map_write},
        {"a str key that grows in place is hashed again", test_grown_key_hashed_again},
        {"the checker: E0434-E0437 and the map rules", test_checker},
        {"fmt: map types and literals", test_format},
        {"map types in signatures and fields", test_signatures},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("language v3: maps", tests);
}
