/*
 * fuzz_generator.c: the generator of fuzz_generator.h. One module "app":
 * up to three structs (fields of scalars, earlier structs, arrays of any of
 * them, arrays of the struct itself), up to two enums (up to three variants
 * Pa, Pb, Pc of up to two payloads of scalars or earlier types), maps
 * (often {str: int}, and others of int, str or bool keys and any values),
 * up to four consts, up to six functions over any of these types, and a
 * "show" function per type that turns a value into a text that determines
 * it (lengths before contents; a map's entries in its order, an enum by a
 * match).
 *
 * Bodies use every construct of language v2: array and struct literals,
 * index, slice (of arrays and strings, on and off character boundaries),
 * field reads, writes through places (`a[i].f[j] = e;`), push and pop on
 * locals and on places (pop inside expressions too), `for` over ranges and
 * arrays, `break`/`continue`, consts, string indexing, chr and stoi (on good
 * and bad text), the bitwise operators and shifts (with counts in and out of
 * range), `==`/`!=` on every type. And those of language v3: map literals
 * (distinct literal keys), m[k] reads, writes that insert or replace
 * (`m[k] = v` as a place's last step), remove, has, get, keys, values, len
 * and `for k in m`; enum constructors and exhaustive matches (every
 * variant in any order, or some and `_`; `_` binders; trailing commas);
 * the library (split, join, find, contains, starts_with, ends_with, trim,
 * lower, upper, replace, repeat, sort, reverse, insert, remove, index_of,
 * abs, min, max); compound assignment (every operator on ints, += on
 * strings and arrays, through places); moves; assert_eq. Every R05xx
 * failure but R0506, R0519 and R0525 (16 MiB, 2^24 elements or entries do
 * not fit in the fuzz fuel) can happen.
 *
 * The self-checks (assertions with SPX_FUZZ_INVARIANT):
 * - value semantics: `let s = shT(a); let c = a;` and, at the end of the
 *   block, after whatever the block did to `a`, `shT(c) == s`;
 * - `for x in a` sees a snapshot: each x is the element of a copy taken
 *   before the loop, and the loop runs len(copy) rounds, whatever the body
 *   does to `a`;
 * - `a == b` and `a != b` agree with shT(a) == shT(b);
 * - a write is seen through its place (`p = t; assert(p == t)`, `p.push(t)`
 *   then the last element is t), and `p.push(p.pop())` changes nothing;
 * - an operand keeps its value: in `spT(a, a.pop())` the first argument is
 *   `a` as it was before the pop;
 * - moves: a block-typed local read for its last use in a transfer position
 *   (`var d = c;`, a call's argument) and then changed or assigned again:
 *   the value moved is the value read, a copy taken before never sees the
 *   change, the caller never sees a callee's change, a variable assigned
 *   after its move holds the new value, and a variable the generator moved
 *   is never read again;
 * - values the generator knows: `var a: [int] = [...]; var c = a;`, changes
 *   to c by the library, element writes and compound assignment that the
 *   generator follows in a model (model_t), then assert_eq(a, the literal),
 *   assert_eq(c, the model), and a map's keys() in the model's order.
 */
#include "fuzz_generator.h"

#include <apr_strings.h>
#include <stdarg.h>
#include <string.h>

#define MAX_TYPES 24
#define MAX_STRUCTS 3
#define MAX_ENUMS 2
#define MAX_VARIANTS 3
#define MAX_PAYLOADS 2
#define MAX_MODEL 8
#define MAX_FIELDS 3
#define MAX_CONSTS 4
#define MAX_PARAMS 2
#define MAX_LOCALS 40
#define MAX_EXPRESSION_DEPTH 4
#define MAX_BLOCK_DEPTH 3
#define MAX_STATEMENTS 6
#define MAX_TYPE_LEVEL 3
#define MAX_LOOPS 8
#define GEN_MAX_STEPS 3
#define GEN_MAX_PLACES 64
#define MAX_PENDING 8
#define STATEMENT_BUDGET 120

/* The fixed type numbers; arrays and structs follow. */
enum { T_INT, T_BOOL, T_STR, T_UNIT, T_FIRST_COMPOSITE };

typedef enum kind_t { K_INT, K_BOOL, K_STR, K_UNIT, K_ARRAY, K_STRUCT, K_MAP, K_ENUM } kind_t;

typedef struct type_t {
    kind_t kind;
    int of;    /* K_ARRAY: the element type; K_STRUCT, K_ENUM: its number; K_MAP: the value type */
    int key;   /* K_MAP: the key type (int, str or bool) */
    int level; /* how deeply arrays, structs, maps and enums nest in it */
    int has_map; /* a map is part of it: == ignores a map's order, shT does not */
} type_t;

/* enum E<n> { Pa(...), Pb(...), Pc(...) } */
typedef struct enum_t {
    int type;
    int variant_count;
    int payload_count[MAX_VARIANTS];
    int payloads[MAX_VARIANTS][MAX_PAYLOADS];
} enum_t;

typedef struct struct_t {
    int type;
    int field_count;
    int fields[MAX_FIELDS]; /* field i is named "abc"[i] */
} struct_t;

typedef struct function_t {
    int result;
    int params[MAX_PARAMS];
    int param_count;
} function_t;

typedef struct local_t {
    int number; /* named v<number> */
    int type;
    int mutable;
    int reserved; /* a self-check's counter: never written by other statements */
} local_t;

/* A place: a var local and up to GEN_MAX_STEPS steps (-1 an index, -2 a
 * map's key, else a field's number). */
typedef struct path_t {
    int root;
    int steps[GEN_MAX_STEPS];
    int length;
    int type;
} path_t;

/* Self-checks to write at the end of the current block. */
typedef struct pending_t {
    const char *checks[MAX_PENDING];
    int count;
} pending_t;

typedef struct generator_t {
    const uint8_t *data;
    size_t size, at;
    apr_pool_t *pool;
    char *text;
    size_t length, capacity;
    type_t types[MAX_TYPES];
    int type_count;
    struct_t structs[MAX_STRUCTS];
    int struct_count;
    int structs_exported; /* 1: structs and enums are exported */
    enum_t enums[MAX_ENUMS];
    int enum_count;
    int consts[MAX_CONSTS];       /* their types */
    int const_in_lib[MAX_CONSTS]; /* 1: declared in module lib, read as lib.C<n> */
    int const_count;
    const char *lib_text;
    function_t functions[SPX_FUZZ_MAX_TESTS];
    int function_count;
    local_t locals[MAX_LOCALS];
    int local_count; /* in scope now */
    int next_local;  /* names are unique in a function */
    int block_depth;
    int loops[MAX_LOOPS]; /* 1: a counted loop, where break would skip its check */
    int loop_depth;
    pending_t *pending;
    int budget;      /* statements left in the program */
    int range_local; /* the number of the innermost for i in a..b's i, or -1 */
    int risk;        /* 1: choices that may fail are common; 0: rare, so runs go deeper */
} generator_t;

static unsigned take(generator_t *g, unsigned choices)
{
    if (g->at >= g->size)
        return 0;
    return g->data[g->at++] % choices;
}

static void emit(generator_t *g, const char *text)
{
    size_t length = strlen(text);
    if (g->length + length + 1 > g->capacity) {
        size_t capacity = g->capacity ? g->capacity : 1024;
        while (g->length + length + 1 > capacity)
            capacity *= 2;
        char *grown = apr_palloc(g->pool, capacity);
        if (g->length)
            memcpy(grown, g->text, g->length);
        g->text = grown;
        g->capacity = capacity;
    }
    memcpy(g->text + g->length, text, length + 1);
    g->length += length;
}

static void emitf(generator_t *g, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    emit(g, apr_pvsprintf(g->pool, format, arguments));
    va_end(arguments);
}

#define PICK(g, list) ((list)[take((g), sizeof(list) / sizeof((list)[0]))])

/* Whether to take a choice that may fail (an index out of range, a bad
 * text for stoi...): often in a risky program, seldom in the others. */
static int risky(generator_t *g)
{
    return g->risk ? take(g, 3) == 0 : take(g, 16) == 0;
}

/* ---- types ----------------------------------------------------------------- */

static int find_type(generator_t *g, kind_t kind, int of, int key)
{
    for (int i = 0; i < g->type_count; i++)
        if (g->types[i].kind == kind && g->types[i].of == of &&
            (kind != K_MAP || g->types[i].key == key))
            return i;
    return -1;
}

static int add_type(generator_t *g, kind_t kind, int of, int key, int level)
{
    int found = find_type(g, kind, of, key);
    if (found >= 0)
        return found;
    if (g->type_count >= MAX_TYPES)
        return -1;
    int has_map = kind == K_MAP || (kind == K_ARRAY && g->types[of].has_map);
    g->types[g->type_count] = (type_t){kind, of, key, level, has_map};
    return g->type_count++;
}

/* [element], or int when the table is full or it would nest too deeply. */
static int array_of(generator_t *g, int element)
{
    int level = g->types[element].level + 1;
    if (level > MAX_TYPE_LEVEL)
        return T_INT;
    int type = add_type(g, K_ARRAY, element, 0, level);
    return type < 0 ? T_INT : type;
}

/* {key: value}, or -1 when the table is full or it would nest too deeply. */
static int map_of(generator_t *g, int key, int value)
{
    int level = g->types[value].level + 1;
    return level > MAX_TYPE_LEVEL ? -1 : add_type(g, K_MAP, value, key, level);
}

static const char *type_name(generator_t *g, int type)
{
    switch (g->types[type].kind) {
    case K_INT:
        return "int";
    case K_BOOL:
        return "bool";
    case K_STR:
        return "str";
    case K_UNIT:
        return "unit";
    case K_ARRAY:
        return apr_pstrcat(g->pool, "[", type_name(g, g->types[type].of), "]", NULL);
    case K_MAP:
        return apr_pstrcat(g->pool, "{", type_name(g, g->types[type].key), ": ",
                           type_name(g, g->types[type].of), "}", NULL);
    case K_ENUM:
        return apr_psprintf(g->pool, "E%d", g->types[type].of);
    default:
        return apr_psprintf(g->pool, "S%d", g->types[type].of);
    }
}

static int is_map(generator_t *g, int type)
{
    return g->types[type].kind == K_MAP;
}

static const enum_t *enum_of(generator_t *g, int type)
{
    return &g->enums[g->types[type].of];
}

static const char *const variant_names[MAX_VARIANTS] = {"Pa", "Pb", "Pc"};

/* sort takes [int], [str] and [bool] only. */
static int sortable(generator_t *g, int array)
{
    int element = g->types[array].of;
    return element == T_INT || element == T_STR || element == T_BOOL;
}

static int is_array(generator_t *g, int type)
{
    return g->types[type].kind == K_ARRAY;
}

static int is_struct(generator_t *g, int type)
{
    return g->types[type].kind == K_STRUCT;
}

static const struct_t *struct_of(generator_t *g, int type)
{
    return &g->structs[g->types[type].of];
}

static const char *const field_names[MAX_FIELDS] = {"a", "b", "c"};

/* A type for a value: mostly scalars, else any array or struct there is. */
static int value_type(generator_t *g)
{
    unsigned choice = take(g, 10);
    if (choice <= 2 || g->type_count <= T_FIRST_COMPOSITE)
        return T_INT;
    if (choice == 3)
        return T_BOOL;
    if (choice <= 5)
        return T_STR;
    return T_FIRST_COMPOSITE + (int)take(g, (unsigned)(g->type_count - T_FIRST_COMPOSITE));
}

static void declare_types(generator_t *g)
{
    g->types[T_INT] = (type_t){K_INT, 0, 0, 0, 0};
    g->types[T_BOOL] = (type_t){K_BOOL, 0, 0, 0, 0};
    g->types[T_STR] = (type_t){K_STR, 0, 0, 0, 0};
    g->types[T_UNIT] = (type_t){K_UNIT, 0, 0, 0, 0};
    g->type_count = T_FIRST_COMPOSITE;
    array_of(g, T_INT);
    array_of(g, T_STR);
    g->struct_count = (int)take(g, MAX_STRUCTS + 1);
    for (int s = 0; s < g->struct_count; s++) {
        struct_t *st = &g->structs[s];
        st->type = add_type(g, K_STRUCT, s, 0, 1);
        st->field_count = 1 + (int)take(g, MAX_FIELDS);
        int level = 1;
        for (int f = 0; f < st->field_count; f++) {
            int field;
            switch (take(g, 8)) {
            case 0:
            case 1:
                field = T_INT;
                break;
            case 2:
                field = T_BOOL;
                break;
            case 3:
                field = T_STR;
                break;
            case 4: /* an earlier struct, by value */
                field = s ? g->structs[take(g, (unsigned)s)].type : T_INT;
                break;
            case 5: /* an array of itself */
                field = array_of(g, st->type);
                break;
            case 6:
                field = array_of(g, T_INT);
                break;
            default: { /* an array of anything declared so far */
                int element = (int)take(g, (unsigned)g->type_count);
                field = array_of(g, element == T_UNIT ? T_BOOL : element);
                break;
            }
            }
            if (field != st->type && g->types[field].level + 1 > level)
                level = g->types[field].level + 1;
            st->fields[f] = field;
        }
        g->types[st->type].level = level > MAX_TYPE_LEVEL ? MAX_TYPE_LEVEL : level;
    }
    /* enums: payloads of scalars and of anything declared before */
    g->enum_count = (int)take(g, MAX_ENUMS + 1);
    for (int e = 0; e < g->enum_count; e++) {
        enum_t *en = &g->enums[e];
        int earlier = g->type_count;
        en->type = add_type(g, K_ENUM, e, 0, 1);
        if (en->type < 0) { /* the table is full */
            g->enum_count = e;
            break;
        }
        en->variant_count = 1 + (int)take(g, MAX_VARIANTS);
        int level = 1;
        for (int v = 0; v < en->variant_count; v++) {
            en->payload_count[v] = (int)take(g, MAX_PAYLOADS + 1);
            for (int p = 0; p < en->payload_count[v]; p++) {
                int payload;
                switch (take(g, 5)) {
                case 0:
                    payload = T_INT;
                    break;
                case 1:
                    payload = T_STR;
                    break;
                case 2:
                    payload = T_BOOL;
                    break;
                case 3:
                    payload =
                        T_FIRST_COMPOSITE + (int)take(g, (unsigned)(earlier - T_FIRST_COMPOSITE));
                    break;
                default:
                    payload = T_FIRST_COMPOSITE; /* [int] */
                    break;
                }
                if (g->types[payload].level + 1 > MAX_TYPE_LEVEL)
                    payload = T_INT;
                if (g->types[payload].level + 1 > level)
                    level = g->types[payload].level + 1;
                en->payloads[v][p] = payload;
            }
        }
        g->types[en->type].level = level;
    }
    /* maps: often {str: int}, and others of any key and value */
    if (take(g, 3))
        map_of(g, T_STR, T_INT);
    for (unsigned maps = take(g, 3); maps > 0; maps--) {
        static const int keys[] = {T_INT, T_STR, T_BOOL, T_STR};
        int key = PICK(g, keys), value = value_type(g);
        if (value != T_UNIT)
            map_of(g, key, value);
    }
    for (unsigned extra = take(g, 3); extra > 0; extra--) {
        int element = value_type(g);
        if (element != T_UNIT)
            array_of(g, element);
    }
}

/* ---- names in scope ---------------------------------------------------------- */

static int local_of(generator_t *g, int type, int want_mutable)
{
    int candidates[MAX_LOCALS], count = 0;
    for (int i = 0; i < g->local_count; i++)
        if (g->locals[i].type == type && !g->locals[i].reserved &&
            (!want_mutable || g->locals[i].mutable))
            candidates[count++] = i;
    return count ? candidates[take(g, (unsigned)count)] : -1;
}

static int declare_local(generator_t *g, int type, int mutable)
{
    int number = g->next_local++;
    if (g->local_count < MAX_LOCALS)
        g->locals[g->local_count++] = (local_t){number, type, mutable, 0};
    return number;
}

static int const_of(generator_t *g, int type)
{
    int candidates[MAX_CONSTS], count = 0;
    for (int i = 0; i < g->const_count; i++)
        if (g->consts[i] == type)
            candidates[count++] = i;
    return count ? candidates[take(g, (unsigned)count)] : -1;
}

/* How a place may step through a map's key: never; as its last step only
 * (m[k] = v inserts a missing key); anywhere (a missing key fails, R0522). */
enum { KEYED_NO, KEYED_LAST, KEYED_ANY };

/* Every place of type want (any type when want < 0) rooted at a var in
 * scope, up to GEN_MAX_STEPS steps. */
static void collect_paths(generator_t *g, path_t *current, int want, int keyed, path_t *out,
                          int *count)
{
    if ((want < 0 || current->type == want) && *count < GEN_MAX_PLACES)
        out[(*count)++] = *current;
    if (current->length >= GEN_MAX_STEPS)
        return;
    const type_t *type = &g->types[current->type];
    path_t next = *current;
    next.length++;
    if (type->kind == K_ARRAY) {
        next.steps[current->length] = -1;
        next.type = type->of;
        collect_paths(g, &next, want, keyed, out, count);
    } else if (type->kind == K_MAP && keyed != KEYED_NO) {
        next.steps[current->length] = -2;
        next.type = type->of;
        if (keyed == KEYED_ANY)
            collect_paths(g, &next, want, keyed, out, count);
        else if ((want < 0 || next.type == want) && *count < GEN_MAX_PLACES)
            out[(*count)++] = next;
    } else if (type->kind == K_STRUCT) {
        const struct_t *st = &g->structs[type->of];
        for (int f = 0; f < st->field_count; f++) {
            next.steps[current->length] = f;
            next.type = st->fields[f];
            collect_paths(g, &next, want, keyed, out, count);
        }
    }
}

static int choose_path(generator_t *g, int want, int keyed, path_t *chosen)
{
    path_t paths[GEN_MAX_PLACES];
    int count = 0;
    for (int i = 0; i < g->local_count && count < GEN_MAX_PLACES; i++) {
        if (!g->locals[i].mutable || g->locals[i].reserved)
            continue;
        path_t root = {i, {0, 0, 0}, 0, g->locals[i].type};
        collect_paths(g, &root, want, keyed, paths, &count);
    }
    if (!count)
        return 0;
    *chosen = paths[take(g, (unsigned)count)];
    return 1;
}

/* ---- expressions --------------------------------------------------------------- */

static void expression(generator_t *g, int type, int depth, int expected);

static void int_literal(generator_t *g)
{
    static const char *const literals[] = {"1",    "0",          "2",    "3",     "7",
                                           "10",   "255",        "0xff", "65536", "1_000_000",
                                           "(-1)", "1000000007", "(-7)"};
    static const char *const limits[] = {"2147483647", "4294967296", "9223372036854775807",
                                         "0x7fff_ffff_ffff_ffff", "(-9223372036854775807 - 1)"};
    if (risky(g))
        emit(g, PICK(g, limits));
    else
        emit(g, PICK(g, literals));
}

static void str_literal(generator_t *g)
{
    static const char *const literals[] = {"\"\"",
                                           "\"a\"",
                                           "\"hello\"",
                                           "\"\\n\"",
                                           "\"\\t\\\\\"",
                                           "\"\\\"q\\\"\"",
                                           "\"\\u{e9}\"",
                                           "\"\\u{1F600}\"",
                                           "\"\\u{10FFFF}x\"",
                                           "\"caf\\u{E9}\"",
                                           "\"a\\u{e9}b\\u{20AC}c\"",
                                           "\"\\u{0}\""};
    emit(g, PICK(g, literals));
}

/* An index or slice bound: mostly 0 or 1, sometimes out of range or
 * anything (simple: no call, no pop, so it can be evaluated twice). */
static void index_expression(generator_t *g, int depth, int simple)
{
    static const char *const outside[] = {"2", "3", "4", "(-1)", "5"};
    if (risky(g)) {
        emit(g, PICK(g, outside));
        return;
    }
    unsigned choice = take(g, 9);
    if (choice == 7) { /* a local (mostly a range's), or one plus or minus a literal */
        static const char *const offsets[] = {"", "", " + 1", " - 1", " + 2", " - 0"};
        int local = local_of(g, T_INT, 0);
        if (g->range_local >= 0 && take(g, 3)) {
            emitf(g, "v%d%s", g->range_local, PICK(g, offsets));
            return;
        }
        if (local >= 0) {
            emitf(g, "v%d%s", g->locals[local].number, PICK(g, offsets));
            return;
        }
    }
    if (choice == 8 && !simple) {
        expression(g, T_INT, depth + 1, 1);
        return;
    }
    emit(g, choice <= 5 ? "0" : "1");
}

/* i..j of a slice: mostly within a short value, sometimes anything. */
static void slice_bounds(generator_t *g, int depth)
{
    static const char *const bounds[] = {"0..0", "0..1", "1..1", "0..1", "1..2", "0..2"};
    if (risky(g)) {
        index_expression(g, depth, 0);
        emit(g, "..");
        index_expression(g, depth, 0);
    } else {
        emit(g, PICK(g, bounds));
    }
}

/* The literal keys of a map of key type key: distinct values, so that a
 * map literal never repeats one (E0437). */
static const char *const *key_literals(int key, unsigned *count)
{
    static const char *const ints[] = {"0", "1", "2", "3", "7", "(-1)"};
    static const char *const strs[] = {"\"a\"", "\"b\"", "\"\"", "\"k\"", "\"\\u{e9}\""};
    static const char *const bools[] = {"true", "false"};
    if (key == T_INT) {
        *count = sizeof(ints) / sizeof(ints[0]);
        return ints;
    }
    if (key == T_STR) {
        *count = sizeof(strs) / sizeof(strs[0]);
        return strs;
    }
    *count = sizeof(bools) / sizeof(bools[0]);
    return bools;
}

/* A key of a map: mostly a literal, sometimes (not simple) any expression. */
static void key_expression(generator_t *g, int key, int depth, int simple)
{
    unsigned count;
    const char *const *keys = key_literals(key, &count);
    if (!simple && depth < MAX_EXPRESSION_DEPTH && take(g, 6) == 5)
        expression(g, key, depth + 1, 1);
    else
        emit(g, keys[take(g, count)]);
}

static void arguments(generator_t *g, const function_t *f, int depth)
{
    emit(g, "(");
    for (int i = 0; i < f->param_count; i++) {
        if (i)
            emit(g, ", ");
        expression(g, f->params[i], depth + 1, 1);
    }
    emit(g, ")");
}

/* A call of a function returning type; 0 when there is none. */
static int call(generator_t *g, int type, int depth)
{
    int candidates[SPX_FUZZ_MAX_TESTS], count = 0;
    for (int i = 0; i < g->function_count; i++)
        if (g->functions[i].result == type)
            candidates[count++] = i;
    if (!count)
        return 0;
    int chosen = candidates[take(g, (unsigned)count)];
    emitf(g, "f%d", chosen);
    arguments(g, &g->functions[chosen], depth);
    return 1;
}

static void emit_path(generator_t *g, const path_t *path, int depth, int simple)
{
    emitf(g, "v%d", g->locals[path->root].number);
    int type = g->locals[path->root].type;
    for (int i = 0; i < path->length; i++) {
        if (path->steps[i] == -2) {
            emit(g, "[");
            key_expression(g, g->types[type].key, depth, simple);
            emit(g, "]");
            type = g->types[type].of;
        } else if (path->steps[i] < 0) {
            emit(g, "[");
            index_expression(g, depth, simple);
            emit(g, "]");
            type = g->types[type].of;
        } else {
            emitf(g, ".%s", field_names[path->steps[i]]);
            type = struct_of(g, type)->fields[path->steps[i]];
        }
    }
}

/* What was written since mark, taken out of the text. */
static const char *cut(generator_t *g, size_t mark)
{
    const char *text = apr_pstrdup(g->pool, g->text + mark);
    g->length = mark;
    g->text[mark] = '\0';
    return text;
}

/* The text of a place whose indices are literals and locals, so that it
 * can be written twice and mean the same place. */
static const char *place_text(generator_t *g, const path_t *path)
{
    size_t mark = g->length;
    emit_path(g, path, 0, 1);
    return cut(g, mark);
}

/* place.pop() of a place of type [type]; 0 when there is none. */
static int pop_expression(generator_t *g, int type, int depth)
{
    int array = -1;
    for (int i = T_FIRST_COMPOSITE; i < g->type_count; i++)
        if (is_array(g, i) && g->types[i].of == type)
            array = i;
    path_t path;
    if (array < 0 || !choose_path(g, array, risky(g) ? KEYED_ANY : KEYED_NO, &path))
        return 0;
    emit_path(g, &path, depth, 0);
    emit(g, ".pop()");
    return 1;
}

/* (container)[i] or (container).f of the given type; 0 when no type holds
 * one. */
static int projection(generator_t *g, int type, int depth)
{
    int containers[MAX_TYPES], count = 0;
    for (int i = T_FIRST_COMPOSITE; i < g->type_count; i++) {
        if (is_array(g, i) && g->types[i].of == type)
            containers[count++] = i;
        if (is_struct(g, i))
            for (int f = 0; f < struct_of(g, i)->field_count; f++)
                if (struct_of(g, i)->fields[f] == type) {
                    containers[count++] = i;
                    break;
                }
    }
    if (!count)
        return 0;
    int container = containers[take(g, (unsigned)count)];
    int local = local_of(g, container, 0);
    int elements = -1; /* a local array of the container: v[i].f */
    for (int i = T_FIRST_COMPOSITE; i < g->type_count && is_struct(g, container); i++)
        if (is_array(g, i) && g->types[i].of == container)
            elements = local_of(g, i, 0);
    if (elements >= 0 && take(g, 2)) {
        emitf(g, "v%d[", g->locals[elements].number);
        index_expression(g, depth, 0);
        emit(g, "]");
    } else if (local >= 0 && take(g, 2)) {
        emitf(g, "v%d", g->locals[local].number);
    } else {
        emit(g, "(");
        expression(g, container, depth + 1, 0);
        emit(g, ")");
    }
    if (is_array(g, container)) {
        emit(g, "[");
        index_expression(g, depth, 0);
        emit(g, "]");
        return 1;
    }
    const struct_t *st = struct_of(g, container);
    int fields[MAX_FIELDS], matching = 0;
    for (int f = 0; f < st->field_count; f++)
        if (st->fields[f] == type)
            fields[matching++] = f;
    emitf(g, ".%s", field_names[fields[take(g, (unsigned)matching)]]);
    return 1;
}

/* The shared leaves and forms of every type: a local, a const, a call, a
 * projection, a pop. 1 when one was written. */
static int common_form(generator_t *g, int type, unsigned choice, int depth)
{
    switch (choice) {
    case 0: {
        int local = local_of(g, type, 0);
        if (local < 0)
            return 0;
        emitf(g, "v%d", g->locals[local].number);
        return 1;
    }
    case 1: {
        int c = const_of(g, type);
        if (c < 0)
            return 0;
        emitf(g, "%sC%d", g->const_in_lib[c] ? "lib." : "", c);
        return 1;
    }
    case 2:
        return depth < MAX_EXPRESSION_DEPTH && call(g, type, depth);
    case 3:
        return depth < MAX_EXPRESSION_DEPTH && projection(g, type, depth);
    default:
        return depth < MAX_EXPRESSION_DEPTH && pop_expression(g, type, depth);
    }
}

#define FORM_WRITTEN 1000u

/* A choice among count for an expression of type (among leaves at the
 * depth limit, where 0..leaves-1 end the expression). Choices 1..5 are the
 * shared forms of common_form: FORM_WRITTEN when one was written, 0 (the
 * type's literal) when it has nothing to offer. */
static unsigned choose(generator_t *g, int type, int depth, unsigned leaves, unsigned count)
{
    unsigned choice = depth >= MAX_EXPRESSION_DEPTH ? take(g, leaves) : take(g, count);
    if (choice >= 1 && choice <= 5)
        return common_form(g, type, choice - 1, depth) ? FORM_WRITTEN : 0;
    return choice;
}

static void int_expression(generator_t *g, int depth)
{
    unsigned choice = choose(g, T_INT, depth, 3, 22);
    if (choice == FORM_WRITTEN)
        return;
    if (choice == 0 || choice >= 20) {
        int_literal(g);
        return;
    }
    emit(g, "(");
    switch (choice) {
    case 7:
        emit(g, take(g, 2) ? "-" : "~");
        expression(g, T_INT, depth + 1, 1);
        break;
    case 8:
    case 9: {
        static const char *const operators[] = {" + ", " - ", " * ", " / ", " % "};
        expression(g, T_INT, depth + 1, 1);
        emit(g, PICK(g, operators));
        expression(g, T_INT, depth + 1, 1);
        break;
    }
    case 10: {
        static const char *const operators[] = {" & ", " | ", " ^ "};
        expression(g, T_INT, depth + 1, 1);
        emit(g, PICK(g, operators));
        expression(g, T_INT, depth + 1, 1);
        break;
    }
    case 11: {
        static const char *const counts[] = {"0", "1", "3", "7"};
        static const char *const out_of_range[] = {"31", "62", "63", "64", "(-1)", "0x40"};
        expression(g, T_INT, depth + 1, 1);
        emit(g, take(g, 2) ? " << " : " >> ");
        if (!risky(g))
            emit(g, PICK(g, counts));
        else if (take(g, 2))
            emit(g, PICK(g, out_of_range));
        else
            expression(g, T_INT, depth + 1, 1);
        break;
    }
    case 12:
        emit(g, "len(");
        expression(g, T_STR, depth + 1, 1);
        emit(g, ")");
        break;
    case 13: {
        int array = T_FIRST_COMPOSITE;
        while (array < g->type_count && !is_array(g, array))
            array++;
        for (unsigned skip = take(g, 4); skip > 0; skip--)
            for (int next = array + 1; next < g->type_count; next++)
                if (is_array(g, next)) {
                    array = next;
                    break;
                }
        emit(g, "len(");
        expression(g, array, depth + 1, 0);
        emit(g, ")");
        break;
    }
    case 14:
    case 15: /* a byte of a string */
        emit(g, "(");
        expression(g, T_STR, depth + 1, 1);
        emit(g, ")[");
        index_expression(g, depth, 0);
        emit(g, "]");
        break;
    case 16:
    case 17: {
        static const char *const good[] = {"\"12\"", "\"-0\"", "\"007\"",
                                           "\"-9223372036854775808\"", "\"9223372036854775807\""};
        static const char *const texts[] = {"\"12x\"",
                                            "\"\"",
                                            "\"-\"",
                                            "\"99999999999999999999\"",
                                            "\"9223372036854775808\"",
                                            "\"-9223372036854775809\"",
                                            "\" 1\"",
                                            "\"+1\"",
                                            "\"\\u{e9}\""};
        emit(g, "stoi(");
        if (risky(g)) {
            if (take(g, 3))
                emit(g, PICK(g, texts));
            else
                expression(g, T_STR, depth + 1, 1);
        } else if (take(g, 2)) {
            emit(g, PICK(g, good));
        } else {
            emit(g, "itos(");
            expression(g, T_INT, depth + 1, 1);
            emit(g, ")");
        }
        emit(g, ")");
        break;
    }
    default: /* 18, 19: a const-like mix of literals */
        int_literal(g);
        emit(g, " + ");
        int_literal(g);
        break;
    }
    emit(g, ")");
}

static void bool_expression(generator_t *g, int depth)
{
    unsigned choice = choose(g, T_BOOL, depth, 3, 16);
    if (choice == FORM_WRITTEN)
        return;
    if (choice == 0 || choice >= 14) {
        emit(g, take(g, 2) ? "true" : "false");
        return;
    }
    emit(g, "(");
    switch (choice) {
    case 6:
    case 7: {
        static const char *const comparisons[] = {" < ", " <= ", " > ", " >= ", " == ", " != "};
        expression(g, T_INT, depth + 1, 1);
        emit(g, PICK(g, comparisons));
        expression(g, T_INT, depth + 1, 1);
        break;
    }
    case 8:
    case 9: { /* == and != on any type; the left operand gives the right its type */
        int type = take(g, 3) ? value_type(g) : T_STR;
        expression(g, type, depth + 1, 0);
        emit(g, take(g, 2) ? " == " : " != ");
        expression(g, type, depth + 1, 1);
        break;
    }
    case 10:
        emit(g, "!");
        expression(g, T_BOOL, depth + 1, 1);
        break;
    default:
        expression(g, T_BOOL, depth + 1, 1);
        emit(g, take(g, 2) ? " && " : " || ");
        expression(g, T_BOOL, depth + 1, 1);
        break;
    }
    emit(g, ")");
}

static void str_expression(generator_t *g, int depth)
{
    unsigned choice = choose(g, T_STR, depth, 3, 16);
    if (choice == FORM_WRITTEN)
        return;
    if (choice == 0 || choice >= 14) {
        str_literal(g);
        return;
    }
    switch (choice) {
    case 6:
        emit(g, "itos(");
        expression(g, T_INT, depth + 1, 1);
        emit(g, ")");
        return;
    case 7:
    case 8: {
        static const char *const scalars[] = {"65",     "0xe9",   "0x1F600", "0x10FFFF", "0xD7FF",
                                              "0xE000", "0",      "127",     "128",      "0x7ff",
                                              "0x800",  "0xffff", "0x10000"};
        static const char *const others[] = {"55296", "0xDFFF", "(-1)", "0x110000",
                                             "9223372036854775807"};
        emit(g, "chr(");
        if (!risky(g))
            emit(g, PICK(g, scalars));
        else if (take(g, 3))
            emit(g, PICK(g, others));
        else
            expression(g, T_INT, depth + 1, 1);
        emit(g, ")");
        return;
    }
    case 9:
    case 10: /* a slice: on or off a character boundary, in or out of range */
        emit(g, "(");
        expression(g, T_STR, depth + 1, 1);
        emit(g, ")[");
        slice_bounds(g, depth);
        emit(g, "]");
        return;
    default:
        emit(g, "(");
        expression(g, T_STR, depth + 1, 1);
        emit(g, " + ");
        expression(g, T_STR, depth + 1, 1);
        emit(g, ")");
        return;
    }
}

/* An array literal of type; expected says whether the context gives its
 * type (else the literal has at least one element, the first typing itself). */
static void array_literal(generator_t *g, int type, int depth, int expected)
{
    int element = g->types[type].of;
    unsigned count = depth >= MAX_EXPRESSION_DEPTH ? 0 : take(g, 4);
    if (!expected && count == 0)
        count = 1;
    emit(g, "[");
    for (unsigned i = 0; i < count; i++) {
        if (i)
            emit(g, ", ");
        expression(g, element, depth + 1, expected || i > 0);
    }
    if (count && take(g, 4) == 0)
        emit(g, ",");
    emit(g, "]");
}

static void array_expression(generator_t *g, int type, int depth, int expected)
{
    unsigned choice = choose(g, type, depth, 2, 12);
    if (choice == FORM_WRITTEN)
        return;
    if (choice == 6 || choice == 7) { /* a slice */
        emit(g, "(");
        expression(g, type, depth + 1, 0);
        emit(g, ")[");
        slice_bounds(g, depth);
        emit(g, "]");
        return;
    }
    array_literal(g, type, depth, expected);
}

static void struct_literal(generator_t *g, int type, int depth)
{
    const struct_t *st = struct_of(g, type);
    int order[MAX_FIELDS];
    for (int f = 0; f < st->field_count; f++)
        order[f] = f;
    for (int f = st->field_count - 1; f > 0; f--) { /* fields in any order */
        int other = (int)take(g, (unsigned)f + 1), kept = order[f];
        order[f] = order[other];
        order[other] = kept;
    }
    emitf(g, "(S%d { ", g->types[type].of);
    for (int i = 0; i < st->field_count; i++) {
        emitf(g, "%s%s: ", i ? ", " : "", field_names[order[i]]);
        expression(g, st->fields[order[i]], depth + 1, 1);
    }
    emit(g, " })");
}

static void struct_expression(generator_t *g, int type, int depth)
{
    if (choose(g, type, depth, 2, 8) != FORM_WRITTEN)
        struct_literal(g, type, depth);
}

/* ({k: v, ...}) of type: distinct literal keys; expected as for arrays. */
static void map_literal(generator_t *g, int type, int depth, int expected)
{
    unsigned n;
    const char *const *keys = key_literals(g->types[type].key, &n);
    unsigned count = depth >= MAX_EXPRESSION_DEPTH ? 0 : take(g, 4);
    if (count > n)
        count = n;
    if (!expected && count == 0)
        count = 1;
    unsigned start = take(g, n);
    emit(g, "({");
    for (unsigned i = 0; i < count; i++) {
        emitf(g, "%s%s: ", i ? ", " : "", keys[(start + i) % n]);
        expression(g, g->types[type].of, depth + 1, expected || i > 0);
    }
    emit(g, "})");
}

static void map_expression(generator_t *g, int type, int depth, int expected)
{
    if (choose(g, type, depth, 2, 8) != FORM_WRITTEN)
        map_literal(g, type, depth, expected);
}

/* E<n>.Pa(payloads...) or E<n>.Pb. */
static void enum_expression(generator_t *g, int type, int depth)
{
    if (choose(g, type, depth, 2, 8) == FORM_WRITTEN)
        return;
    const enum_t *en = enum_of(g, type);
    int v = (int)take(g, (unsigned)en->variant_count);
    emitf(g, "E%d.%s", g->types[type].of, variant_names[v]);
    if (!en->payload_count[v])
        return;
    emit(g, "(");
    for (int p = 0; p < en->payload_count[v]; p++) {
        if (p)
            emit(g, ", ");
        expression(g, en->payloads[v][p], depth + 1, 1);
    }
    emit(g, ")");
}

/* A receiver of a method: a local of type, or (an expression). */
static void receiver(generator_t *g, int type, int depth)
{
    int local = local_of(g, type, 0);
    if (local >= 0 && take(g, 2)) {
        emitf(g, "v%d", g->locals[local].number);
        return;
    }
    emit(g, "(");
    expression(g, type, depth + 1, 0);
    emit(g, ")");
}

/* A short text for a library argument: a separator, a pattern. */
static void pattern_text(generator_t *g, int depth)
{
    static const char *const texts[] = {"\",\"", "\" \"",       "\"a\"",
                                        "\"l\"", "\"\\u{e9}\"", "\"ab\""};
    if (take(g, 5) == 4)
        expression(g, T_STR, depth + 1, 1);
    else
        emit(g, PICK(g, texts));
}

/* An array type of maps whose keys (keys()) or values (values()) are
 * [type]'s elements: the map type, or -1. */
static int map_giving(generator_t *g, int array, int values)
{
    int element = g->types[array].of, found = -1;
    for (int i = T_FIRST_COMPOSITE; i < g->type_count; i++)
        if (is_map(g, i) && (values ? g->types[i].of : g->types[i].key) == element &&
            (found < 0 || take(g, 2)))
            found = i;
    return found;
}

/* A call of the standard library whose result is of type; 0 when none was
 * written. */
static int library_form(generator_t *g, int type, int depth)
{
    int str_array = T_FIRST_COMPOSITE + 1; /* [str], declared first with [int] */
    switch (g->types[type].kind) {
    case K_INT:
        switch (take(g, 5)) {
        case 0:
            receiver(g, T_STR, depth);
            emit(g, ".find(");
            pattern_text(g, depth);
            emit(g, ")");
            return 1;
        case 1: { /* a.index_of(v) on any array */
            int array =
                T_FIRST_COMPOSITE + (int)take(g, (unsigned)(g->type_count - T_FIRST_COMPOSITE));
            if (!is_array(g, array))
                array = T_FIRST_COMPOSITE;
            receiver(g, array, depth);
            emit(g, ".index_of(");
            expression(g, g->types[array].of, depth + 1, 1);
            emit(g, ")");
            return 1;
        }
        case 2: { /* len of a map */
            for (int i = T_FIRST_COMPOSITE; i < g->type_count; i++)
                if (is_map(g, i)) {
                    emit(g, "len(");
                    receiver(g, i, depth);
                    emit(g, ")");
                    return 1;
                }
            return 0;
        }
        case 3:
            emit(g, "(");
            expression(g, T_INT, depth + 1, 1);
            emit(g, ").abs()");
            return 1;
        default:
            emit(g, "(");
            expression(g, T_INT, depth + 1, 1);
            emit(g, take(g, 2) ? ").min(" : ").max(");
            expression(g, T_INT, depth + 1, 1);
            emit(g, ")");
            return 1;
        }
    case K_BOOL:
        switch (take(g, 3)) {
        case 0: {
            static const char *const methods[] = {".contains(", ".starts_with(", ".ends_with("};
            receiver(g, T_STR, depth);
            emit(g, PICK(g, methods));
            pattern_text(g, depth);
            emit(g, ")");
            return 1;
        }
        case 1: { /* a.contains(v) */
            int array =
                T_FIRST_COMPOSITE + (int)take(g, (unsigned)(g->type_count - T_FIRST_COMPOSITE));
            if (!is_array(g, array))
                array = T_FIRST_COMPOSITE + 1;
            receiver(g, array, depth);
            emit(g, ".contains(");
            expression(g, g->types[array].of, depth + 1, 1);
            emit(g, ")");
            return 1;
        }
        default: /* m.has(k) */
            for (int i = T_FIRST_COMPOSITE; i < g->type_count; i++)
                if (is_map(g, i) && take(g, 2)) {
                    receiver(g, i, depth);
                    emit(g, ".has(");
                    key_expression(g, g->types[i].key, depth, 0);
                    emit(g, ")");
                    return 1;
                }
            return 0;
        }
    case K_STR:
        switch (take(g, 5)) {
        case 0: {
            static const char *const methods[] = {".trim()", ".lower()", ".upper()"};
            receiver(g, T_STR, depth);
            emit(g, PICK(g, methods));
            return 1;
        }
        case 1: /* replace: an empty pattern fails (R0523) */
            receiver(g, T_STR, depth);
            emit(g, ".replace(");
            if (risky(g))
                emit(g, "\"\"");
            else
                pattern_text(g, depth);
            emit(g, ", ");
            expression(g, T_STR, depth + 1, 1);
            emit(g, ")");
            return 1;
        case 2: { /* repeat: a negative count fails (R0524) */
            static const char *const counts[] = {"0", "1", "2", "3"};
            receiver(g, T_STR, depth);
            emit(g, ".repeat(");
            if (!risky(g))
                emit(g, PICK(g, counts));
            else if (take(g, 2))
                emit(g, "(-1)");
            else
                expression(g, T_INT, depth + 1, 1);
            emit(g, ")");
            return 1;
        }
        default:
            receiver(g, str_array, depth);
            emit(g, ".join(");
            pattern_text(g, depth);
            emit(g, ")");
            return 1;
        }
    case K_ARRAY: {
        unsigned choice = take(g, 3);
        if (choice == 0 && type == str_array) { /* split: an empty separator fails (R0523) */
            receiver(g, T_STR, depth);
            emit(g, ".split(");
            if (risky(g))
                emit(g, "\"\"");
            else
                pattern_text(g, depth);
            emit(g, ")");
            return 1;
        }
        int map = map_giving(g, type, choice == 2);
        if (map < 0)
            return 0;
        receiver(g, map, depth);
        emit(g, choice == 2 ? ".values()" : ".keys()");
        return 1;
    }
    default:
        break;
    }
    /* m.get(k, d) of a map whose values are of type; m[k] in a risky choice */
    for (int i = T_FIRST_COMPOSITE; i < g->type_count; i++)
        if (is_map(g, i) && g->types[i].of == type) {
            receiver(g, i, depth);
            if (risky(g)) {
                emit(g, "[");
                key_expression(g, g->types[i].key, depth, 0);
                emit(g, "]");
                return 1;
            }
            emit(g, ".get(");
            key_expression(g, g->types[i].key, depth, 0);
            emit(g, ", ");
            expression(g, type, depth + 1, 1);
            emit(g, ")");
            return 1;
        }
    return 0;
}

static void expression(generator_t *g, int type, int depth, int expected)
{
    /* one expression in six, where there is room, a call of the library */
    if (depth < MAX_EXPRESSION_DEPTH && take(g, 6) == 5 && library_form(g, type, depth + 1))
        return;
    switch (g->types[type].kind) {
    case K_INT:
        int_expression(g, depth);
        return;
    case K_BOOL:
        bool_expression(g, depth);
        return;
    case K_STR:
        str_expression(g, depth);
        return;
    case K_ARRAY:
        array_expression(g, type, depth, expected);
        return;
    case K_STRUCT:
        struct_expression(g, type, depth);
        return;
    case K_MAP:
        map_expression(g, type, depth, expected);
        return;
    case K_ENUM:
        enum_expression(g, type, depth);
        return;
    default:
        emit(g, "0");
        return;
    }
}

/* ---- statements ----------------------------------------------------------------- */

static void indent(generator_t *g)
{
    for (int i = 0; i <= g->block_depth; i++)
        emit(g, "  ");
}

static void block(generator_t *g, int result);
static void statements(generator_t *g, int result, unsigned count);

static void add_check(generator_t *g, const char *check)
{
    if (g->pending && g->pending->count < MAX_PENDING)
        g->pending->checks[g->pending->count++] = check;
}

static void let_statement(generator_t *g)
{
    int type = value_type(g);
    int mutable = take(g, 3) != 0;
    int annotated = take(g, 2);
    int number = g->next_local++;
    emitf(g, "%s v%d", mutable ? "var" : "let", number);
    if (annotated)
        emitf(g, ": %s", type_name(g, type));
    emit(g, " = ");
    expression(g, type, 0, annotated);
    emit(g, ";\n");
    if (g->local_count < MAX_LOCALS)
        g->locals[g->local_count++] = (local_t){number, type, mutable, 0};
}

/* for x in a, whose x is the element of a copy taken before the loop, and
 * which runs len(copy) rounds whatever its body does. */
static void counted_loop(generator_t *g, int local, int result)
{
    int array = g->locals[local].type;
    int copy = g->next_local++, counter = g->next_local++, element = g->next_local++;
    emitf(g, "let v%d = v%d;\n", copy, g->locals[local].number);
    indent(g);
    emitf(g, "var v%d = 0;\n", counter);
    indent(g);
    emitf(g, "for v%d in v%d {\n", element, g->locals[local].number);
    int scope = g->local_count;
    if (g->local_count + 3 <= MAX_LOCALS) {
        g->locals[g->local_count++] = (local_t){copy, array, 0, 0};
        g->locals[g->local_count++] = (local_t){counter, T_INT, 1, 1};
        g->locals[g->local_count++] = (local_t){element, g->types[array].of, 0, 0};
    }
    g->block_depth++;
    indent(g);
    emitf(g, "assert(v%d == v%d[v%d], \"" SPX_FUZZ_INVARIANT ": for sees a snapshot\");\n", element,
          copy, counter);
    indent(g);
    emitf(g, "v%d = v%d + 1;\n", counter, counter);
    g->loops[g->loop_depth++] = 1;
    pending_t pending = {{0}, 0}, *outer = g->pending;
    g->pending = &pending;
    statements(g, result, take(g, MAX_STATEMENTS + 1));
    for (int i = 0; i < pending.count; i++) {
        indent(g);
        emit(g, pending.checks[i]);
    }
    g->pending = outer;
    g->loop_depth--;
    g->block_depth--;
    indent(g);
    emit(g, "}\n");
    /* the copy and the counter stay in scope (declared before the loop) */
    g->local_count = scope;
    if (g->local_count + 2 <= MAX_LOCALS) {
        g->locals[g->local_count++] = (local_t){copy, array, 0, 0};
        g->locals[g->local_count++] = (local_t){counter, T_INT, 1, 1};
    }
    indent(g);
    emitf(g, "assert(v%d == len(v%d), \"" SPX_FUZZ_INVARIANT ": for runs once per element\");\n",
          counter, copy);
}

/* The self-checks of value semantics and of writes. */
static void check_statement(generator_t *g, int result)
{
    unsigned choice = take(g, 6);
    if (choice == 0 || choice == 1) { /* a snapshot checked at the end of the block */
        int local = -1;
        for (int tries = 0; tries < 3 && local < 0; tries++)
            local = local_of(g, value_type(g), 1);
        if (local < 0) {
            emit(g, "print(\"\");\n");
            return;
        }
        int type = g->locals[local].type;
        if (choice == 1 && is_array(g, type) && g->loop_depth < MAX_LOOPS &&
            g->block_depth < MAX_BLOCK_DEPTH) {
            counted_loop(g, local, result);
            return;
        }
        int text = g->next_local++, copy = g->next_local++;
        emitf(g, "let v%d = sh%d(v%d);\n", text, type, g->locals[local].number);
        indent(g);
        emitf(g, "let v%d = v%d;\n", copy, g->locals[local].number);
        if (g->local_count + 2 <= MAX_LOCALS) {
            g->locals[g->local_count++] = (local_t){text, T_STR, 0, 0};
            g->locals[g->local_count++] = (local_t){copy, type, 0, 0};
        }
        add_check(g, apr_psprintf(g->pool,
                                  "assert(sh%d(v%d) == v%d, \"" SPX_FUZZ_INVARIANT
                                  ": a change through one name is seen through another\");\n",
                                  type, copy, text));
        return;
    }
    if (choice == 2) { /* == and != agree with the values (shT shows a map's order) */
        int type = value_type(g);
        int a = local_of(g, type, 0), b = local_of(g, type, 0);
        if (a < 0 || g->types[type].has_map) {
            emit(g, "print(\"\");\n");
            return;
        }
        int na = g->locals[a].number, nb = g->locals[b].number;
        emitf(g,
              "assert((v%d == v%d) == (sh%d(v%d) == sh%d(v%d)) && (v%d != v%d) != (v%d == v%d), "
              "\"" SPX_FUZZ_INVARIANT ": == agrees with the values\");\n",
              na, nb, type, na, type, nb, na, nb, na, nb);
        return;
    }
    path_t path;
    if (!choose_path(g, -1, choice == 3 ? KEYED_LAST : KEYED_NO, &path)) {
        emit(g, "print(\"\");\n");
        return;
    }
    int type = path.type;
    if (choice == 3) { /* a write is seen through its place */
        int value = g->next_local++;
        emitf(g, "let v%d: %s = ", value, type_name(g, type));
        expression(g, type, 0, 1);
        emit(g, ";\n");
        if (g->local_count < MAX_LOCALS)
            g->locals[g->local_count++] = (local_t){value, type, 0, 0};
        indent(g);
        const char *place = place_text(g, &path);
        emitf(g, "%s = v%d;\n", place, value);
        indent(g);
        emitf(g,
              "assert(%s == v%d, \"" SPX_FUZZ_INVARIANT ": a write is seen through its place\");\n",
              place, value);
        return;
    }
    if (!is_array(g, type)) {
        emit(g, "print(\"\");\n");
        return;
    }
    int root = g->locals[path.root].number, root_type = g->locals[path.root].type;
    int text = g->next_local++;
    emitf(g, "let v%d = sh%d(v%d);\n", text, root_type, root);
    if (g->local_count < MAX_LOCALS)
        g->locals[g->local_count++] = (local_t){text, T_STR, 0, 0};
    indent(g);
    const char *place = place_text(g, &path);
    if (choice == 4) { /* p.push(p.pop()) changes nothing */
        emitf(g, "%s.push(%s.pop());\n", place, place);
        indent(g);
        emitf(g,
              "assert(sh%d(v%d) == v%d, \"" SPX_FUZZ_INVARIANT
              ": push(pop()) changes nothing\");\n",
              root_type, root, text);
        return;
    }
    /* an operand keeps its value: in spR(a, shE(p.pop())), spR's first
     * argument is a as it was before the pop */
    emitf(g,
          "assert(sp%d(v%d, sh%d(%s.pop())) == v%d, \"" SPX_FUZZ_INVARIANT
          ": an operand keeps its value\");\n",
          root_type, root, g->types[type].of, place, text);
}

/* ---- language v3 statements ------------------------------------------------------ */

/* P op= e: every operator on an int place, += on strings and arrays. */
static void compound_statement(generator_t *g)
{
    path_t path;
    if (!choose_path(g, -1, risky(g) ? KEYED_ANY : KEYED_NO, &path)) {
        emit(g, "print(\"\");\n");
        return;
    }
    int type = path.type;
    kind_t kind = g->types[type].kind;
    if (kind != K_INT && kind != K_STR && kind != K_ARRAY) {
        emit(g, "print(\"\");\n");
        return;
    }
    emit_path(g, &path, 0, 0);
    if (kind == K_INT) {
        static const char *const operators[] = {
            " += ", " -= ", " *= ", " /= ", " %= ", " &= ", " |= ", " ^= ", " <<= ", " >>= "};
        static const char *const counts[] = {"0", "1", "3"};
        static const char *const divisors[] = {"1", "2", "3", "(-1)", "7"};
        unsigned op = take(g, sizeof(operators) / sizeof(operators[0]));
        emit(g, operators[op]);
        if (op >= 8 && !risky(g))
            emit(g, PICK(g, counts));
        else if ((op == 3 || op == 4) && !risky(g))
            emit(g, PICK(g, divisors));
        else
            expression(g, T_INT, 1, 1);
    } else {
        emit(g, " += ");
        expression(g, type, 1, 1);
    }
    emit(g, ";\n");
}

/* A type chosen among the composites, of kind when one of three tries
 * finds it; -1 otherwise. */
static int composite_of_kind(generator_t *g, kind_t kind)
{
    for (int tries = 0; tries < 3; tries++) {
        int type = T_FIRST_COMPOSITE + (int)take(g, (unsigned)(g->type_count - T_FIRST_COMPOSITE));
        if (g->types[type].kind == kind)
            return type;
    }
    return -1;
}

/* place.remove(k) on a map, or for k in m { ... }. */
static void map_statement(generator_t *g, int result)
{
    int map = composite_of_kind(g, K_MAP);
    path_t path;
    if (map < 0) {
        emit(g, "print(\"\");\n");
        return;
    }
    if (take(g, 2) && choose_path(g, map, risky(g) ? KEYED_ANY : KEYED_NO, &path)) {
        emit_path(g, &path, 0, 0);
        emit(g, ".remove(");
        key_expression(g, g->types[map].key, 0, 0);
        emit(g, ");\n");
        return;
    }
    if (g->loop_depth >= MAX_LOOPS || g->block_depth >= MAX_BLOCK_DEPTH || g->budget <= 0) {
        emit(g, "print(\"\");\n");
        return;
    }
    int number = g->next_local++;
    emitf(g, "for v%d in ", number);
    receiver(g, map, 1);
    emit(g, " ");
    int scope = g->local_count;
    if (g->local_count < MAX_LOCALS)
        g->locals[g->local_count++] = (local_t){number, g->types[map].key, 0, 0};
    g->loops[g->loop_depth++] = 0;
    block(g, result);
    g->loop_depth--;
    g->local_count = scope;
    emit(g, "\n");
}

/* sort, reverse, insert and remove on an array place. */
static void array_library_statement(generator_t *g)
{
    int array = composite_of_kind(g, K_ARRAY);
    path_t path;
    if (array < 0 || !choose_path(g, array, risky(g) ? KEYED_ANY : KEYED_NO, &path)) {
        emit(g, "print(\"\");\n");
        return;
    }
    const char *place = place_text(g, &path);
    switch (take(g, 4)) {
    case 0:
        emitf(g, "%s.%s();\n", place, sortable(g, array) ? "sort" : "reverse");
        return;
    case 1:
        emitf(g, "%s.reverse();\n", place);
        return;
    case 2:
        emitf(g, "%s.insert(", place);
        if (risky(g))
            index_expression(g, 0, 0);
        else
            emitf(g, take(g, 2) ? "0" : "len(%s)", place);
        emit(g, ", ");
        expression(g, g->types[array].of, 1, 1);
        emit(g, ");\n");
        return;
    default:
        if (risky(g)) { /* out of range: R0511 */
            emitf(g, "%s.remove(", place);
            index_expression(g, 0, 0);
            emit(g, ");\n");
        } else {
            emitf(g, "if len(%s) > 0 { %s.remove(len(%s) - 1); }\n", place, place, place);
        }
        return;
    }
}

/* match on an enum: every variant in any order, or some and `_`; binders of
 * the payloads (some `_`) in scope in their arm. */
static void match_statement(generator_t *g, int result)
{
    if (!g->enum_count || g->block_depth + 1 >= MAX_BLOCK_DEPTH || g->budget <= 0) {
        emit(g, "print(\"\");\n");
        return;
    }
    const enum_t *en = &g->enums[take(g, (unsigned)g->enum_count)];
    int n = en->variant_count, order[MAX_VARIANTS];
    for (int v = 0; v < n; v++)
        order[v] = v;
    for (int v = n - 1; v > 0; v--) {
        int other = (int)take(g, (unsigned)v + 1), kept = order[v];
        order[v] = order[other];
        order[other] = kept;
    }
    int wild = take(g, 3) == 0, arms = wild ? (int)take(g, (unsigned)n) : n;
    emit(g, "match ");
    receiver(g, en->type, 1);
    emit(g, " {\n");
    g->block_depth++;
    for (int a = 0; a < arms; a++) {
        int v = order[a], scope = g->local_count;
        indent(g);
        emit(g, variant_names[v]);
        if (en->payload_count[v]) {
            emit(g, "(");
            for (int p = 0; p < en->payload_count[v]; p++) {
                if (p)
                    emit(g, ", ");
                if (take(g, 5) == 4) {
                    emit(g, "_");
                    continue;
                }
                int number = g->next_local++;
                emitf(g, "v%d", number);
                if (g->local_count < MAX_LOCALS)
                    g->locals[g->local_count++] = (local_t){number, en->payloads[v][p], 0, 0};
            }
            emit(g, ")");
        }
        emit(g, " => ");
        block(g, result);
        g->local_count = scope;
        emit(g, take(g, 4) == 3 ? ",\n" : "\n");
    }
    if (wild) {
        indent(g);
        emit(g, "_ => ");
        block(g, result);
        emit(g, "\n");
    }
    g->block_depth--;
    indent(g);
    emit(g, "}\n");
}

static int block_type(generator_t *g, int type)
{
    kind_t kind = g->types[type].kind;
    return kind != K_INT && kind != K_BOOL && kind != K_UNIT;
}

static void add_local(generator_t *g, int number, int type, int mutable)
{
    if (g->local_count < MAX_LOCALS)
        g->locals[g->local_count++] = (local_t){number, type, mutable, 0};
}

/* One change to the var v<number> of type, and the end of the line. */
static void mutate(generator_t *g, int number, int type)
{
    switch (g->types[type].kind) {
    case K_STR:
        emitf(g, "v%d += ", number);
        expression(g, T_STR, 1, 1);
        break;
    case K_ARRAY:
        emitf(g, "v%d.push(", number);
        expression(g, g->types[type].of, 1, 1);
        emit(g, ")");
        break;
    case K_MAP:
        emitf(g, "v%d[", number);
        key_expression(g, g->types[type].key, 1, 1);
        emit(g, "] = ");
        expression(g, g->types[type].of, 1, 1);
        break;
    case K_STRUCT:
        emitf(g, "v%d.%s = ", number, field_names[0]);
        expression(g, struct_of(g, type)->fields[0], 1, 1);
        break;
    default:
        emitf(g, "v%d = ", number);
        expression(g, type, 1, 1);
        break;
    }
    emit(g, ";\n");
}

/* Moves: a local of a block type read for the last time in a transfer
 * position (let, var, a call's argument), then checked: the value moved is
 * the value read, a change made after the move is not seen through a copy
 * taken before, a variable assigned after its move holds the new value, and
 * a variable moved is never read again (the generator forgets it). */
static void move_statement(generator_t *g)
{
    int local = -1;
    for (int tries = 0; tries < 4 && local < 0; tries++) {
        int type = value_type(g);
        if (block_type(g, type))
            local = local_of(g, type, 0);
    }
    if (local < 0) {
        emit(g, "print(\"\");\n");
        return;
    }
    int type = g->locals[local].type, from = g->locals[local].number;
    int text = g->next_local++;
    emitf(g, "let v%d = sh%d(v%d);\n", text, type, from);
    /* no expression of the statement may change it (a pop through a place
     * rooted at it) */
    g->locals[local].reserved = 1;
    unsigned choice = take(g, 4);
    int callee = -1, param = 0;
    for (int i = 0; i < g->function_count && choice == 1; i++)
        for (int p = 0; p < g->functions[i].param_count; p++)
            if (g->functions[i].params[p] == type && (callee < 0 || take(g, 2))) {
                callee = i;
                param = p;
            }
    if (choice == 1 && callee < 0)
        choice = 0;
    if (choice == 0) { /* copy, then move the copy on and change it */
        int copy = g->next_local++, moved = g->next_local++;
        indent(g);
        emitf(g, "let v%d = v%d;\n", copy, from);
        indent(g);
        emitf(g, "var v%d = v%d;\n", moved, copy);
        indent(g);
        mutate(g, moved, type);
        indent(g);
        emitf(g,
              "assert(sh%d(v%d) == v%d, \"" SPX_FUZZ_INVARIANT
              ": a change after a move is not seen through a copy\");\n",
              type, from, text);
        add_local(g, moved, type, 1);
    } else if (choice == 1) { /* a copy moved into a call, which may change it */
        const function_t *f = &g->functions[callee];
        int copy = g->next_local++;
        indent(g);
        emitf(g, "let v%d = v%d;\n", copy, from);
        indent(g);
        int value = -1;
        if (f->result != T_UNIT) {
            value = g->next_local++;
            emitf(g, "let v%d = ", value);
        }
        emitf(g, "f%d(", callee);
        for (int p = 0; p < f->param_count; p++) {
            if (p)
                emit(g, ", ");
            if (p == param)
                emitf(g, "v%d", copy);
            else
                expression(g, f->params[p], 1, 1);
        }
        emit(g, ");\n");
        indent(g);
        emitf(g,
              "assert(sh%d(v%d) == v%d, \"" SPX_FUZZ_INVARIANT
              ": a call's argument moved is not seen by its caller\");\n",
              type, from, text);
        if (value >= 0)
            add_local(g, value, f->result, 0);
    } else if (choice == 2) { /* moved, then assigned again */
        int var = g->next_local++, moved = g->next_local++, fresh = g->next_local++;
        indent(g);
        emitf(g, "var v%d = v%d;\n", var, from);
        indent(g);
        emitf(g, "let v%d = v%d;\n", moved, var);
        indent(g);
        emitf(g, "let v%d: %s = ", fresh, type_name(g, type));
        expression(g, type, 0, 1);
        emit(g, ";\n");
        indent(g);
        emitf(g, "v%d = v%d;\n", var, fresh);
        indent(g);
        emitf(g,
              "assert(v%d == v%d && sh%d(v%d) == v%d, \"" SPX_FUZZ_INVARIANT
              ": a moved variable holds what it is assigned next\");\n",
              var, fresh, type, moved, text);
        add_local(g, var, type, 1);
        add_local(g, moved, type, 0);
        add_local(g, fresh, type, 0);
    } else { /* the variable itself moved: never read again */
        int moved = g->next_local++;
        indent(g);
        emitf(g, "var v%d = v%d;\n", moved, from);
        indent(g);
        emitf(g, "assert(sh%d(v%d) == v%d, \"" SPX_FUZZ_INVARIANT ": a move keeps the value\");\n",
              type, moved, text);
        indent(g);
        mutate(g, moved, type);
        add_local(g, moved, type, 1);
        add_local(g, text, T_STR, 0);
        return; /* never read again */
    }
    g->locals[local].reserved = 0;
    add_local(g, text, T_STR, 0);
}

/* ---- values the generator knows ---------------------------------------------------- */

/* A [int], [str] or {str: int} whose every value the generator follows. */
typedef struct model_t {
    int kind; /* 0 [int], 1 [str], 2 {str: int} */
    int count;
    int values[MAX_MODEL]; /* ints; indexes of model_strs for [str] */
    int keys[MAX_MODEL];   /* {str: int}: indexes of model_keys */
} model_t;

static const int model_ints[] = {0, 1, 2, 3, 5, 7, -4, 100};
static const char *const model_strs[] = {"b", "B", "a", "ab", "", "z", "\\u{e9}"};
static const char *const model_bytes[] = {"b", "B", "a", "ab", "", "z", "\xc3\xa9"};
static const char *const model_keys[] = {"a", "b", "c", "d"};

#define MODEL_INTS (int)(sizeof(model_ints) / sizeof(model_ints[0]))
#define MODEL_STRS (int)(sizeof(model_strs) / sizeof(model_strs[0]))
#define MODEL_KEYS (int)(sizeof(model_keys) / sizeof(model_keys[0]))

static const char *model_element(generator_t *g, const model_t *m, int value)
{
    if (m->kind == 1)
        return apr_psprintf(g->pool, "\"%s\"", model_strs[value]);
    return apr_psprintf(g->pool, "%d", value);
}

/* The literal of the model's value. */
static const char *model_literal(generator_t *g, const model_t *m)
{
    const char *text = m->kind == 2 ? "({" : "[";
    for (int i = 0; i < m->count; i++) {
        const char *element = model_element(g, m, m->values[i]);
        if (m->kind == 2)
            element = apr_psprintf(g->pool, "\"%s\": %s", model_keys[m->keys[i]], element);
        text = apr_pstrcat(g->pool, text, i ? ", " : "", element, NULL);
    }
    return apr_pstrcat(g->pool, text, m->kind == 2 ? "})" : "]", NULL);
}

static int model_before(const model_t *m, int a, int b)
{
    if (m->kind == 1)
        return strcmp(model_bytes[a], model_bytes[b]) < 0;
    return a < b;
}

static int model_find(const model_t *m, int key)
{
    for (int i = 0; i < m->count; i++)
        if (m->keys[i] == key)
            return i;
    return -1;
}

/* One change to the var v<number> the model follows: a library method,
 * an element write, a compound assignment, a map's insert, replace and
 * remove. */
static void model_change(generator_t *g, model_t *m, int number)
{
    unsigned choice = take(g, 9);
    if (m->kind == 2) {
        int key = (int)take(g, MODEL_KEYS), value = model_ints[take(g, MODEL_INTS)];
        int at = model_find(m, key);
        if (choice < 4 || (choice < 7 && at < 0)) { /* insert or replace */
            emitf(g, "v%d[\"%s\"] = %d;\n", number, model_keys[key], value);
            if (at >= 0) {
                m->values[at] = value;
            } else { /* at most MODEL_KEYS entries */
                m->keys[m->count] = key;
                m->values[m->count++] = value;
            }
        } else if (choice < 7) { /* += on a present key */
            emitf(g, "v%d[\"%s\"] += %d;\n", number, model_keys[key], value);
            m->values[at] += value;
        } else { /* remove, present or not */
            emitf(g,
                  "assert(v%d.remove(\"%s\") == %s, \"" SPX_FUZZ_INVARIANT
                  ": remove says whether the key was there\");\n",
                  number, model_keys[key], at >= 0 ? "true" : "false");
            if (at >= 0) {
                for (int i = at; i + 1 < m->count; i++) {
                    m->keys[i] = m->keys[i + 1];
                    m->values[i] = m->values[i + 1];
                }
                m->count--;
            }
        }
        return;
    }
    int value = m->kind == 1 ? (int)take(g, MODEL_STRS) : model_ints[take(g, MODEL_INTS)];
    if (m->count == 0 && choice != 2 && choice != 7)
        choice = 0;
    if (m->count >= MAX_MODEL && (choice == 0 || choice == 2 || choice == 7))
        choice = 4;
    switch (choice) {
    case 0:
        emitf(g, "v%d.push(%s);\n", number, model_element(g, m, value));
        m->values[m->count++] = value;
        return;
    case 1:
        emitf(g, "assert(v%d.pop() == %s, \"" SPX_FUZZ_INVARIANT ": pop gives the last\");\n",
              number, model_element(g, m, m->values[m->count - 1]));
        m->count--;
        return;
    case 2: {
        int at = (int)take(g, (unsigned)m->count + 1);
        emitf(g, "v%d.insert(%d, %s);\n", number, at, model_element(g, m, value));
        for (int i = m->count; i > at; i--)
            m->values[i] = m->values[i - 1];
        m->values[at] = value;
        m->count++;
        return;
    }
    case 3: {
        int at = (int)take(g, (unsigned)m->count);
        emitf(g, "assert(v%d.remove(%d) == %s, \"" SPX_FUZZ_INVARIANT ": remove gives it\");\n",
              number, at, model_element(g, m, m->values[at]));
        for (int i = at; i + 1 < m->count; i++)
            m->values[i] = m->values[i + 1];
        m->count--;
        return;
    }
    case 4: /* a stable sort: equal elements are equal values */
        emitf(g, "v%d.sort();\n", number);
        for (int i = 1; i < m->count; i++)
            for (int j = i; j > 0 && model_before(m, m->values[j], m->values[j - 1]); j--) {
                int kept = m->values[j];
                m->values[j] = m->values[j - 1];
                m->values[j - 1] = kept;
            }
        return;
    case 5:
        emitf(g, "v%d.reverse();\n", number);
        for (int i = 0, j = m->count - 1; i < j; i++, j--) {
            int kept = m->values[i];
            m->values[i] = m->values[j];
            m->values[j] = kept;
        }
        return;
    case 6: {
        int at = (int)take(g, (unsigned)m->count);
        if (m->kind == 0 && take(g, 2)) {
            emitf(g, "v%d[%d] += %d;\n", number, at, value);
            m->values[at] += value;
        } else {
            emitf(g, "v%d[%d] = %s;\n", number, at, model_element(g, m, value));
            m->values[at] = value;
        }
        return;
    }
    default:
        emitf(g, "v%d += [%s];\n", number, model_element(g, m, value));
        m->values[m->count++] = value;
        return;
    }
}

/* var a = literal; var c = a; changes to c the generator follows; then
 * assert_eq(a, the literal) (a copy's change is never seen through the
 * original) and assert_eq(c, the model) (and its keys() in order). */
static void model_statement(generator_t *g)
{
    model_t m = {(int)take(g, 3), 0, {0}, {0}};
    static const char *const types[] = {"[int]", "[str]", "{str: int}"};
    int count = (int)take(g, 5);
    for (int i = 0; i < count; i++) {
        if (m.kind == 2) {
            int key = (int)take(g, MODEL_KEYS);
            if (model_find(&m, key) >= 0)
                continue;
            m.keys[m.count] = key;
            m.values[m.count++] = model_ints[take(g, MODEL_INTS)];
        } else {
            m.values[m.count++] =
                m.kind == 1 ? (int)take(g, MODEL_STRS) : model_ints[take(g, MODEL_INTS)];
        }
    }
    const char *original = model_literal(g, &m);
    int a = g->next_local++, c = g->next_local++;
    emitf(g, "var v%d: %s = %s;\n", a, types[m.kind], original);
    indent(g);
    emitf(g, "var v%d = v%d;\n", c, a);
    for (unsigned changes = 1 + take(g, 4); changes > 0; changes--) {
        indent(g);
        model_change(g, &m, c);
    }
    indent(g);
    emitf(g, "assert_eq(v%d, %s, \"" SPX_FUZZ_INVARIANT ": a copy's change is not seen\");\n", a,
          original);
    indent(g);
    emitf(g, "assert_eq(v%d, %s, \"" SPX_FUZZ_INVARIANT ": the library does what it says\");\n", c,
          model_literal(g, &m));
    if (m.kind == 2) {
        const char *keys = "[";
        for (int i = 0; i < m.count; i++)
            keys = apr_psprintf(g->pool, "%s%s\"%s\"", keys, i ? ", " : "", model_keys[m.keys[i]]);
        indent(g);
        emitf(g, "assert_eq(v%d.keys(), %s], \"" SPX_FUZZ_INVARIANT ": a map keeps its order\");\n",
              c, keys);
    } else if (m.kind == 1) {
        const char *joined = "";
        for (int i = 0; i < m.count; i++)
            joined = apr_pstrcat(g->pool, joined, i ? "," : "", model_strs[m.values[i]], NULL);
        indent(g);
        emitf(g, "assert_eq(v%d.join(\",\"), \"%s\", \"" SPX_FUZZ_INVARIANT ": join\");\n", c,
              joined);
    }
    int type = m.kind == 0   ? T_FIRST_COMPOSITE
               : m.kind == 1 ? T_FIRST_COMPOSITE + 1
                             : find_type(g, K_MAP, T_INT, T_STR);
    if (type >= 0) {
        add_local(g, a, type, 1);
        add_local(g, c, type, 1);
    }
}

static void statement(generator_t *g, int result)
{
    indent(g);
    g->budget--;
    unsigned choice = take(g, 25);
    if (choice >= 11 && choice <= 15 && (g->block_depth >= MAX_BLOCK_DEPTH || g->budget <= 0))
        choice = 0;
    switch (choice) {
    case 19:
        compound_statement(g);
        return;
    case 20:
        map_statement(g, result);
        return;
    case 21:
        array_library_statement(g);
        return;
    case 22:
        match_statement(g, result);
        return;
    case 23:
        move_statement(g);
        return;
    case 24:
        model_statement(g);
        return;
    case 0:
    case 1:
        if (g->local_count >= MAX_LOCALS) {
            emit(g, "print(\"\");\n");
            return;
        }
        let_statement(g);
        return;
    case 2:
    case 3: { /* place = e; and x = x + e; (an append) */
        path_t path;
        if (!choose_path(g, -1, KEYED_LAST, &path)) {
            emit(g, "assert(true);\n");
            return;
        }
        emit_path(g, &path, 0, 0);
        emit(g, " = ");
        if (choice == 3 && path.length == 0 && path.type == T_STR) {
            emitf(g, "v%d + ", g->locals[path.root].number);
            expression(g, T_STR, 1, 1);
        } else {
            expression(g, path.type, 0, 1);
        }
        emit(g, ";\n");
        return;
    }
    case 4: { /* push or pop on a place */
        path_t path;
        int array = -1;
        for (int tries = 0; tries < 3 && array < 0; tries++) {
            int type = value_type(g);
            if (is_array(g, type))
                array = type;
        }
        if (array < 0 || !choose_path(g, array, KEYED_NO, &path)) {
            emit(g, "print(itos(1));\n");
            return;
        }
        emit_path(g, &path, 0, 0);
        if (take(g, 3)) {
            emit(g, ".push(");
            expression(g, g->types[array].of, 0, 1);
            emit(g, ");\n");
        } else {
            emit(g, ".pop();\n");
        }
        return;
    }
    case 5:
        emit(g, "print(");
        expression(g, T_STR, 0, 1);
        emit(g, ");\n");
        return;
    case 6:
        emit(g, "assert(");
        expression(g, T_BOOL, 0, 1);
        if (!risky(g))
            emit(g, " || true");
        if (take(g, 2)) {
            emit(g, ", ");
            expression(g, T_STR, 1, 1);
        }
        emit(g, ");\n");
        return;
    case 7: /* return (seldom: the rest of the block would not run), or a call */
        if (take(g, 4) == 0) {
            emit(g, "return");
            if (result != T_UNIT) {
                emit(g, " ");
                expression(g, result, 0, 1);
            }
            emit(g, ";\n");
        } else if (!call(g, T_UNIT, 0)) {
            emit(g, "print(itos(0));\n");
        } else {
            emit(g, ";\n");
        }
        return;
    case 8:
    case 9:
    case 10:
        check_statement(g, result);
        return;
    case 11:
    case 12:
        emit(g, "if ");
        for (;;) {
            expression(g, T_BOOL, 0, 1);
            emit(g, " ");
            block(g, result);
            unsigned next = take(g, 3); /* 0: no else, 1: else, 2: else if */
            if (next == 0)
                break;
            emit(g, next == 1 ? " else " : " else if ");
            if (next == 1) {
                block(g, result);
                break;
            }
        }
        emit(g, "\n");
        return;
    case 13:
        if (g->loop_depth >= MAX_LOOPS) {
            emit(g, "print(\"\");\n");
            return;
        }
        emit(g, "while ");
        expression(g, T_BOOL, 0, 1);
        emit(g, " ");
        g->loops[g->loop_depth++] = 0;
        block(g, result);
        g->loop_depth--;
        emit(g, "\n");
        return;
    case 14:
    case 15: { /* for over a range or over an array */
        if (g->loop_depth >= MAX_LOOPS) {
            emit(g, "print(\"\");\n");
            return;
        }
        int number = g->next_local++, element;
        emitf(g, "for v%d in ", number);
        int outer_range = g->range_local;
        if (choice == 14) {
            static const char *const bounds[] = {"0", "1", "2", "(-2)", "5"};
            int array = -1; /* for i in 0..len(a): i indexes a */
            for (int i = g->local_count - 1; i >= 0 && array < 0; i--)
                if (is_array(g, g->locals[i].type) && take(g, 2))
                    array = i;
            if (array >= 0) {
                emitf(g, "0..len(v%d)", g->locals[array].number);
            } else {
                if (take(g, 3))
                    emit(g, PICK(g, bounds));
                else
                    expression(g, T_INT, 2, 1);
                emit(g, "..");
                if (take(g, 3))
                    emit(g, PICK(g, bounds));
                else
                    expression(g, T_INT, 2, 1);
            }
            element = T_INT;
            g->range_local = number;
        } else {
            int array = -1;
            for (int tries = 0; tries < 4 && array < 0; tries++) {
                int type = value_type(g);
                if (is_array(g, type))
                    array = type;
            }
            if (array < 0)
                array = T_FIRST_COMPOSITE; /* [int] */
            expression(g, array, 1, 0);
            element = g->types[array].of;
        }
        emit(g, " ");
        int scope = g->local_count;
        if (g->local_count < MAX_LOCALS)
            g->locals[g->local_count++] = (local_t){number, element, 0, 0};
        g->loops[g->loop_depth++] = 0;
        block(g, result);
        g->loop_depth--;
        g->local_count = scope;
        g->range_local = outer_range;
        emit(g, "\n");
        return;
    }
    case 16: /* growth: long arrays and strings, for size charges and the memory limit */
        if (g->loop_depth < MAX_LOOPS) {
            static const char *const rounds[] = {"4", "16", "70", "200"};
            path_t path;
            int number = g->next_local++;
            if (!choose_path(g, -1, KEYED_NO, &path) ||
                (!is_array(g, path.type) && path.type != T_STR)) {
                emit(g, "print(\"\");\n");
                return;
            }
            const char *place = place_text(g, &path);
            emitf(g, "for v%d in 0..%s {\n", number, PICK(g, rounds));
            g->block_depth++;
            indent(g);
            int scope = g->local_count;
            if (g->local_count < MAX_LOCALS)
                g->locals[g->local_count++] = (local_t){number, T_INT, 0, 0};
            if (path.type == T_STR) {
                emitf(g, "%s = %s + ", place, place);
                expression(g, T_STR, 2, 1);
                emit(g, ";\n");
            } else {
                emitf(g, "%s.push(", place);
                expression(g, g->types[path.type].of, 2, 1);
                emit(g, ");\n");
            }
            g->local_count = scope;
            g->block_depth--;
            indent(g);
            emit(g, "}\n");
            return;
        }
        /* fall through */
    default: /* break or continue in a loop; else a length */
        if (g->loop_depth > 0) {
            int counted = g->loops[g->loop_depth - 1];
            emit(g, counted || take(g, 2) ? "continue;\n" : "break;\n");
            return;
        }
        emit(g, "print(itos(len(");
        expression(g, T_STR, 1, 1);
        emit(g, ")));\n");
        return;
    }
}

static void statements(generator_t *g, int result, unsigned count)
{
    for (unsigned i = 0; i < count && g->budget > 0; i++)
        statement(g, result);
}

static void block(generator_t *g, int result)
{
    int scope = g->local_count;
    pending_t pending = {{0}, 0}, *outer = g->pending;
    g->pending = &pending;
    emit(g, "{\n");
    g->block_depth++;
    statements(g, result, take(g, MAX_STATEMENTS + 1));
    for (int i = 0; i < pending.count; i++) {
        indent(g);
        emit(g, pending.checks[i]);
    }
    g->block_depth--;
    indent(g);
    emit(g, "}");
    g->local_count = scope;
    g->pending = outer;
}

/* ---- items ---------------------------------------------------------------------- */

/* The consts, each in app or in lib (exported there, so app reads it as
 * lib.C<n>); one may read an earlier one of its module, or app one of lib.
 * lib's declarations go to g->lib_text. */
static void declare_consts(generator_t *g)
{
    int64_t values[MAX_CONSTS] = {0};
    const char *lib = "// generated\n";
    g->const_count = (int)take(g, MAX_CONSTS + 1);
    for (int c = 0; c < g->const_count; c++) {
        size_t mark = g->length;
        unsigned kind = take(g, 3);
        int type = kind == 0 ? T_INT : kind == 1 ? T_BOOL : T_STR;
        int in_lib = take(g, 2);
        g->consts[c] = type;
        g->const_in_lib[c] = in_lib;
        emitf(g, "%sconst C%d: %s = ", in_lib || take(g, 2) ? "export " : "", c,
              type_name(g, type));
        int earlier = -1;
        for (int e = 0; e < c; e++)
            if (g->consts[e] == type && (!in_lib || g->const_in_lib[e]) &&
                (type != T_INT || (values[e] > -(1 << 20) && values[e] < (1 << 20))))
                earlier = e;
        const char *module = earlier >= 0 && !in_lib && g->const_in_lib[earlier] ? "lib." : "";
        if (earlier >= 0 && take(g, 2)) {
            if (type == T_INT) {
                emitf(g, "%sC%d * 2 + 0x1_0", module, earlier);
                values[c] = values[earlier] * 2 + 16;
            } else if (type == T_BOOL)
                emitf(g, "!%sC%d || false && 1 / 0 == 0", module, earlier);
            else
                emitf(g, "%sC%d + \"\\u{e9}\"", module, earlier);
        } else if (type == T_INT) {
            static const char *const texts[] = {"0x7f",     "1_000",    "1 << 10",
                                                "~0",       "-5 >> 1",  "(3 ^ 5) & 0xff",
                                                "0x10 | 3", "-1 << 63", "7 % -3"};
            static const int64_t known[] = {127, 1000, 1024, -1, -3, 6, 19, INT64_MIN, 1};
            unsigned which = take(g, sizeof(texts) / sizeof(texts[0]));
            emit(g, texts[which]);
            values[c] = known[which];
        } else if (type == T_BOOL) {
            static const char *const texts[] = {"true", "1 < 2", "false && 1 / 0 == 0",
                                                "0xff & 1 == 1"};
            emit(g, PICK(g, texts));
        } else {
            static const char *const texts[] = {"\"k\"", "\"caf\" + \"\\u{e9}\"", "\"\\u{1F600}\"",
                                                "\"\""};
            emit(g, PICK(g, texts));
        }
        emit(g, ";\n");
        if (in_lib)
            lib = apr_pstrcat(g->pool, lib, cut(g, mark), NULL);
    }
    g->lib_text = lib;
    emit(g, "\n");
}

static void declare_structs(generator_t *g)
{
    /* all exported or none: an exported struct's fields may name only
     * exported structs */
    g->structs_exported = (int)take(g, 2);
    const char *exported = g->structs_exported ? "export " : "";
    for (int s = 0; s < g->struct_count; s++) {
        const struct_t *st = &g->structs[s];
        emitf(g, "%sstruct S%d { ", exported, s);
        for (int f = 0; f < st->field_count; f++)
            emitf(g, "%s%s: %s", f ? ", " : "", field_names[f], type_name(g, st->fields[f]));
        emit(g, " }\n");
    }
    if (g->struct_count)
        emit(g, "\n");
}

/* Exported when the structs are: an exported enum's payloads name exported
 * types only. */
static void declare_enums(generator_t *g)
{
    for (int e = 0; e < g->enum_count; e++) {
        const enum_t *en = &g->enums[e];
        emitf(g, "%senum E%d { ", g->structs_exported ? "export " : "", e);
        for (int v = 0; v < en->variant_count; v++) {
            emitf(g, "%s%s", v ? ", " : "", variant_names[v]);
            for (int p = 0; p < en->payload_count[v]; p++)
                emitf(g, "%s%s", p ? ", " : "(", type_name(g, en->payloads[v][p]));
            if (en->payload_count[v])
                emit(g, ")");
        }
        emit(g, take(g, 3) == 2 ? ", }\n" : " }\n");
    }
    if (g->enum_count)
        emit(g, "\n");
}

static void function(generator_t *g, int index)
{
    const function_t *f = &g->functions[index];
    g->local_count = 0;
    g->next_local = 0;
    g->block_depth = 0;
    g->loop_depth = 0;
    g->range_local = -1;
    emitf(g, "fn f%d(", index);
    for (int i = 0; i < f->param_count; i++) {
        int number = declare_local(g, f->params[i], 0);
        emitf(g, "%sv%d: %s", i ? ", " : "", number, type_name(g, f->params[i]));
    }
    emit(g, ")");
    if (f->result != T_UNIT)
        emitf(g, " -> %s", type_name(g, f->result));
    emit(g, " {\n");
    pending_t pending = {{0}, 0};
    g->pending = &pending;
    statements(g, f->result, take(g, MAX_STATEMENTS + 3));
    for (int i = 0; i < pending.count; i++) {
        indent(g);
        emit(g, pending.checks[i]);
    }
    g->pending = NULL;
    if (f->result != T_UNIT) { /* every path returns */
        emit(g, "  return ");
        expression(g, f->result, 0, 1);
        emit(g, ";\n");
    }
    emit(g, "}\n\n");
}

/* shT for every type: a text that determines the value; spT(v, x): shT(v)
 * (x is evaluated while v is held as an argument). */
static void show_functions(generator_t *g)
{
    for (int t = 0; t < g->type_count; t++) {
        if (t == T_UNIT)
            continue;
        const char *name = type_name(g, t);
        emitf(g, "fn sh%d(v: %s) -> str {\n", t, name);
        switch (g->types[t].kind) {
        case K_INT:
            emit(g, "  return itos(v);\n");
            break;
        case K_BOOL:
            emit(g, "  if v { return \"t\"; }\n  return \"f\";\n");
            break;
        case K_STR:
            emit(g, "  return itos(len(v)) + \"'\" + v;\n");
            break;
        case K_ARRAY:
            emit(g, "  var s = \"[\" + itos(len(v)) + \":\";\n");
            emitf(g, "  for x in v {\n    s = s + (sh%d(x) + \",\");\n  }\n", g->types[t].of);
            emit(g, "  return s + \"]\";\n");
            break;
        case K_MAP:
            emit(g, "  var s = \"{\" + itos(len(v)) + \":\";\n");
            emitf(g, "  for k in v {\n    s += sh%d(k) + \"=\" + sh%d(v[k]) + \",\";\n  }\n",
                  g->types[t].key, g->types[t].of);
            emit(g, "  return s + \"}\";\n");
            break;
        case K_ENUM: {
            const enum_t *en = enum_of(g, t);
            emit(g, "  match v {\n");
            for (int v = 0; v < en->variant_count; v++) {
                emitf(g, "    %s", variant_names[v]);
                for (int p = 0; p < en->payload_count[v]; p++)
                    emitf(g, "%sx%d", p ? ", " : "(", p);
                emitf(g, "%s => {\n      return \"%s\"", en->payload_count[v] ? ")" : "",
                      variant_names[v]);
                for (int p = 0; p < en->payload_count[v]; p++)
                    emitf(g, " + \"%s\" + sh%d(x%d)", p ? "," : "(", en->payloads[v][p], p);
                emitf(g, "%s;\n    }\n", en->payload_count[v] ? " + \")\"" : "");
            }
            emit(g, "  }\n");
            break;
        }
        default: {
            const struct_t *st = struct_of(g, t);
            emit(g, "  return \"{\"");
            for (int f = 0; f < st->field_count; f++)
                emitf(g, " + sh%d(v.%s) + \",\"", st->fields[f], field_names[f]);
            emit(g, " + \"}\";\n");
            break;
        }
        }
        emit(g, "}\n\n");
        emitf(g, "fn sp%d(v: %s, x: str) -> str {\n  return sh%d(v);\n}\n\n", t, name, t);
    }
}

void spx_fuzz_generate(const uint8_t *data, size_t size, apr_pool_t *pool,
                       spx_fuzz_program_t *program)
{
    generator_t g = {.data = data, .size = size, .pool = pool, .budget = STATEMENT_BUDGET};
    emit(&g, "// generated\nimport lib;\n\n");
    g.risk = take(&g, 4) == 0;
    declare_types(&g);
    declare_structs(&g);
    declare_enums(&g);
    declare_consts(&g);
    g.function_count = 1 + (int)take(&g, SPX_FUZZ_MAX_TESTS);
    for (int i = 0; i < g.function_count; i++) {
        function_t *f = &g.functions[i];
        *f = (function_t){T_INT, {T_INT, T_INT}, 0};
        if (i == 0 || take(&g, 3) == 0)
            continue; /* a test: fn() -> int */
        f->result = take(&g, 4) == 0 ? T_UNIT : value_type(&g);
        f->param_count = (int)take(&g, MAX_PARAMS + 1);
        for (int p = 0; p < f->param_count; p++)
            f->params[p] = value_type(&g);
    }
    for (int i = 0; i < g.function_count; i++)
        function(&g, i);
    show_functions(&g);
    program->text = g.text;
    program->lib_text = g.lib_text;
    program->test_count = 0;
    for (int i = 0; i < g.function_count; i++)
        if (g.functions[i].result == T_INT && g.functions[i].param_count == 0)
            program->tests[program->test_count++] = apr_psprintf(pool, "app.f%d", i);
}

int spx_fuzz_interpreter_input(const uint8_t *data, size_t size, apr_pool_t *pool,
                               spx_run_limits_t *limits, spx_fuzz_program_t *program)
{
    if (size < 5)
        return 0;
    *limits = spx_run_limits_default();
    limits->max_steps = 1 + ((unsigned)data[0] << 8 | data[1]) % 20000u;
    limits->max_bytes = data[2];
    limits->max_call_depth = 1 + data[3] % 64u;
    if (data[4] >= 128)
        limits->max_memory = 64 + (uint64_t)(data[4] - 128) * 48;
    spx_fuzz_generate(data + 5, size - 5, pool, program);
    return 1;
}

spx_project_t *spx_fuzz_build(const spx_fuzz_program_t *program, apr_pool_t *pool)
{
    spx_source_text_t sources[2] = {
        {"app", "app.spx", (const unsigned char *)program->text, strlen(program->text)},
        {"lib", "lib.spx", (const unsigned char *)program->lib_text, strlen(program->lib_text)}};
    return spx_project_build_texts(sources, 2, pool);
}
