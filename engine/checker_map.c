/*
 * checker_map.c: the checker's part of language v3's maps (docs/language.md,
 * "Maps"): the map type as written ({K: V}, E0434 for a key type other
 * than int, str and bool), map literals (their types from what stands
 * around them or from their first entry that types itself, E0435, E0436,
 * E0437 for a literal key given twice), m[k] (E0418 for a key of another
 * type, E0417 for a slice). The methods of maps (has, get, remove, keys,
 * values) are rows of the one method table (checker_methods.c).
 */
#include "checker_internal.h"
#include "render.h"
#include "spx_assert.h"

#include <apr_strings.h>
#include <string.h>

static int is_key_kind(spx_type_t kind)
{
    return kind == SPX_TYPE_INT || kind == SPX_TYPE_STR || kind == SPX_TYPE_BOOL;
}

int spx_checker_check_map_type(checker_t *checker, apr_size_t module_index,
                               const spx_type_syntax_t *syntax, const char *exported_by)
{
    SPX_ASSERT(syntax->kind == SPX_TYPE_SYNTAX_MAP);
    const spx_type_syntax_t *key = syntax->key;
    int ok = 1;
    if (key && !(key->kind == SPX_TYPE_SYNTAX_BASIC && is_key_kind(key->basic))) {
        spx_module_t *module = checker->modules[module_index];
        if (key->kind != SPX_TYPE_SYNTAX_BASIC || key->basic != SPX_TYPE_ERROR)
            spx_diagnostics_add(
                checker->diagnostics, SPX_E0434, module->path, key->span,
                "map keys are int, str or bool, not %s",
                spx_written_type_name(key, SPX_TYPE_ERROR, module, checker->function));
        ok = 0;
    }
    /* the value type: any type but unit, which cannot be written */
    return spx_checker_check_type_syntax(checker, module_index, syntax->element, exported_by) && ok;
}

const spx_vtype_t *spx_checker_written_map_type(checker_t *checker, const spx_module_t *module,
                                                const spx_type_syntax_t *syntax)
{
    const spx_vtype_t *key = spx_checker_written_type(checker, module, syntax->key, SPX_TYPE_ERROR);
    const spx_vtype_t *value =
        spx_checker_written_type(checker, module, syntax->element, SPX_TYPE_ERROR);
    if (!is_key_kind(key->kind) || value->kind == SPX_TYPE_ERROR)
        return spx_types_basic(checker->types, SPX_TYPE_ERROR);
    return spx_types_map(checker->types, key, value);
}

int spx_checker_types_itself(const spx_expr_t *e)
{
    if (!e)
        return 1; /* left out after a syntax error: nothing to wait for */
    if (e->kind == SPX_EXPR_ARRAY) {
        for (apr_size_t i = 0; i < e->as.array.count; i++)
            if (spx_checker_types_itself(e->as.array.elements[i]))
                return 1;
        return 0;
    }
    if (e->kind == SPX_EXPR_MAP) {
        for (apr_size_t i = 0; i < e->as.map.count; i++)
            if (spx_checker_types_itself(e->as.map.keys[i]) &&
                spx_checker_types_itself(e->as.map.values[i]))
                return 1;
        return 0;
    }
    return 1;
}

/* The key as written, when it is a literal (an int, possibly negated, a
 * str or a bool): its kind and value; 0 otherwise. */
static int literal_key(const spx_expr_t *e, spx_type_t *kind, int64_t *integer, const char **bytes,
                       apr_size_t *length)
{
    if (!e)
        return 0;
    switch (e->kind) {
    case SPX_EXPR_INT:
        *kind = SPX_TYPE_INT;
        *integer = e->as.integer;
        return 1;
    case SPX_EXPR_BOOL:
        *kind = SPX_TYPE_BOOL;
        *integer = e->as.boolean ? 1 : 0;
        return 1;
    case SPX_EXPR_STRING:
        *kind = SPX_TYPE_STR;
        *bytes = e->as.string.bytes;
        *length = e->as.string.length;
        return 1;
    case SPX_EXPR_UNARY:
        if (e->as.unary.op == SPX_OP_NEG && e->as.unary.operand &&
            e->as.unary.operand->kind == SPX_EXPR_INT &&
            e->as.unary.operand->as.integer != INT64_MIN) {
            *kind = SPX_TYPE_INT;
            *integer = -e->as.unary.operand->as.integer;
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

/* A key of a map literal that is a literal or a const: its value (for a
 * const, filled once consts are evaluated). */
typedef struct fixed_key_t {
    const spx_const_t *constant; /* NULL for a literal */
    spx_type_t kind;
    int64_t integer; /* an int's value, a bool's 0 or 1 */
    const char *bytes;
    apr_size_t length;
    spx_span_t span;
} fixed_key_t;

/* The fixed keys of one map literal with a const key among them, kept for
 * spx_checker_check_map_const_keys. */
typedef struct fixed_key_group_t {
    const char *path;
    fixed_key_t *keys;
    apr_size_t count;
} fixed_key_group_t;

static int same_key(const fixed_key_t *a, const fixed_key_t *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind != SPX_TYPE_STR)
        return a->integer == b->integer;
    return a->length == b->length && (a->length == 0 || memcmp(a->bytes, b->bytes, a->length) == 0);
}

/* E0437 at second, with a note at first. */
static void report_repeated_key(checker_t *checker, const char *path, const fixed_key_t *second,
                                const fixed_key_t *first)
{
    spx_render_text_t shown;
    spx_render_scalar(second->kind == SPX_TYPE_STR    ? SPX_RENDER_STR
                      : second->kind == SPX_TYPE_BOOL ? SPX_RENDER_BOOL
                                                      : SPX_RENDER_INT,
                      second->integer, (const unsigned char *)second->bytes, second->length,
                      &shown);
    spx_diagnostic_note(checker->diagnostics,
                        spx_diagnostics_add(checker->diagnostics, SPX_E0437, path, second->span,
                                            "key %s appears twice in this map literal",
                                            shown.bytes),
                        path, first->span, "first given here");
}

/* The first of keys[0..i) equal to keys[i], or NULL. */
static const fixed_key_t *earlier_equal(const fixed_key_t *keys, apr_size_t i)
{
    for (apr_size_t j = 0; j < i; j++)
        if (same_key(&keys[j], &keys[i]))
            return &keys[j];
    return NULL;
}

/* E0437: a key that is a literal equal to an earlier literal key, now; a
 * map literal with a const key is kept for when consts are evaluated
 * (spx_checker_check_map_const_keys). */
static void report_repeated_keys(scope_t *scope, const spx_expr_t *expr)
{
    apr_size_t count = 0, consts = 0;
    fixed_key_t *keys = apr_pcalloc(scope->pool, (expr->as.map.count + 1) * sizeof(*keys));
    for (apr_size_t i = 0; i < expr->as.map.count; i++) {
        const spx_expr_t *key = expr->as.map.keys[i];
        fixed_key_t *fixed = &keys[count];
        const spx_const_t *constant = !key                          ? NULL
                                      : key->kind == SPX_EXPR_NAME  ? key->as.name.constant
                                      : key->kind == SPX_EXPR_FIELD ? key->as.field.constant
                                                                    : NULL;
        if (constant) {
            fixed->constant = constant;
            consts++;
        } else if (!literal_key(key, &fixed->kind, &fixed->integer, &fixed->bytes,
                                &fixed->length)) {
            continue;
        }
        fixed->span = key->span;
        count++;
    }
    for (apr_size_t i = 0; i < count; i++) {
        const fixed_key_t *first = keys[i].constant ? NULL : earlier_equal(keys, i);
        if (first)
            report_repeated_key(scope->checker, scope->module->path, &keys[i], first);
    }
    if (!consts || count < 2)
        return;
    checker_t *checker = scope->checker;
    if (!checker->map_key_groups)
        checker->map_key_groups = apr_array_make(checker->scratch, 4, sizeof(fixed_key_group_t));
    fixed_key_group_t *group = &APR_ARRAY_PUSH(checker->map_key_groups, fixed_key_group_t);
    group->path = scope->module->path;
    group->count = count;
    group->keys = apr_pmemdup(checker->scratch, keys, count * sizeof(*keys));
    for (apr_size_t i = 0; i < count; i++)
        if (!keys[i].constant && keys[i].kind == SPX_TYPE_STR)
            group->keys[i].bytes =
                apr_pmemdup(checker->scratch, keys[i].bytes, keys[i].length ? keys[i].length : 1);
}

void spx_checker_check_map_const_keys(checker_t *checker)
{
    if (!checker->map_key_groups)
        return;
    for (int g = 0; g < checker->map_key_groups->nelts; g++) {
        fixed_key_group_t *group = &APR_ARRAY_IDX(checker->map_key_groups, g, fixed_key_group_t);
        for (apr_size_t i = 0; i < group->count; i++) {
            fixed_key_t *key = &group->keys[i];
            const spx_const_t *constant = key->constant;
            if (!constant)
                continue;
            key->kind = constant->state == 2 ? constant->value_type : SPX_TYPE_ERROR;
            key->integer = key->kind == SPX_TYPE_BOOL ? constant->boolean : constant->integer;
            key->bytes = constant->bytes;
            key->length = constant->length;
        }
        /* a key equal to an earlier one, but for a literal equal to an
         * earlier literal: that was reported with the body */
        for (apr_size_t i = 0; i < group->count; i++) {
            const fixed_key_t *key = &group->keys[i];
            const fixed_key_t *first =
                key->kind == SPX_TYPE_ERROR ? NULL : earlier_equal(group->keys, i);
            int reported = 0;
            for (apr_size_t j = 0; !key->constant && j < i && !reported; j++)
                reported = !group->keys[j].constant && same_key(&group->keys[j], key);
            if (first && !reported)
                report_repeated_key(checker, group->path, key, first);
        }
    }
}

/* One key or value of a literal whose map type is known (wanted NULL:
 * unknown after an earlier diagnostic): it expects that type (E0436). */
static void check_entry_part(scope_t *scope, spx_expr_t *part, const spx_vtype_t *wanted,
                             const char *what)
{
    if (!part)
        return;
    expect(scope, wanted);
    spx_checker_check_expr(scope, part);
    spx_type_t kind = type_of(part);
    if (kind == SPX_TYPE_UNIT)
        spx_checker_report_unit(scope, part, "stored");
    else if (wanted && kind != SPX_TYPE_ERROR && vtype_of(scope, part) != wanted)
        report(scope, SPX_E0436, part->span,
               apr_psprintf(scope->pool, "this %s is %s, but the map's %ss are %s", what,
                            type_text(scope, part), what, spx_vtype_name(wanted, scope->pool)));
}

void spx_checker_check_map_literal(scope_t *scope, spx_expr_t *expr, int expected,
                                   const spx_vtype_t *type)
{
    expr->type = SPX_TYPE_ERROR;
    apr_size_t count = expr->as.map.count, first = count;
    const spx_vtype_t *key = NULL, *value = NULL;
    if (type && type->kind == SPX_TYPE_MAP) {
        key = type->key;
        value = type->element;
    } else {
        for (apr_size_t i = 0; i < count && first == count; i++)
            if (spx_checker_types_itself(expr->as.map.keys[i]) &&
                spx_checker_types_itself(expr->as.map.values[i]))
                first = i;
        if (first == count) {
            if (expected && !type)
                return; /* what it expects is unknown after an earlier diagnostic */
            report(scope, SPX_E0435, expr->span,
                   apr_psprintf(scope->pool,
                                "this map literal needs its key and value types: %s and %s",
                                type ? apr_psprintf(scope->pool,
                                                    "what stands here expects %s, which is "
                                                    "not a map,",
                                                    spx_vtype_name(type, scope->pool))
                                     : "nothing here expects one",
                                count ? "no entry gives both" : "it has no entries"));
            return;
        }
    }
    if (first < count) {
        /* the first entry that types itself gives the types */
        spx_expr_t *first_key = expr->as.map.keys[first];
        spx_expr_t *first_value = expr->as.map.values[first];
        spx_checker_check_expr(scope, first_key);
        spx_checker_check_expr(scope, first_value);
        spx_type_t kind = type_of(first_key);
        if (kind == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, first_key, "stored");
        else if (kind != SPX_TYPE_ERROR && !is_key_kind(kind))
            report(scope, SPX_E0434, first_key->span,
                   apr_psprintf(scope->pool, "map keys are int, str or bool, not %s",
                                type_text(scope, first_key)));
        else if (kind != SPX_TYPE_ERROR)
            key = vtype_of(scope, first_key);
        kind = type_of(first_value);
        if (kind == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, first_value, "stored");
        else if (kind != SPX_TYPE_ERROR)
            value = vtype_of(scope, first_value);
    }
    int typed = key && value;
    for (apr_size_t i = 0; i < count; i++) {
        if (i == first)
            continue;
        check_entry_part(scope, expr->as.map.keys[i], key, "key");
        check_entry_part(scope, expr->as.map.values[i], value, "value");
    }
    report_repeated_keys(scope, expr);
    if (typed)
        set_type(expr, spx_types_map(scope->checker->types, key, value));
}

void spx_checker_check_map_index(scope_t *scope, spx_expr_t *expr)
{
    const spx_vtype_t *map = vtype_of(scope, expr->as.index.base);
    SPX_ASSERT(map->kind == SPX_TYPE_MAP);
    spx_expr_t *index = expr->as.index.index;
    if (expr->kind == SPX_EXPR_SLICE) {
        report(scope, SPX_E0417, expr->as.index.base->span,
               apr_psprintf(scope->pool,
                            "a value of type '%s' cannot be sliced: only str and arrays can",
                            spx_vtype_name(map, scope->pool)));
        if (index)
            spx_checker_check_expr(scope, index);
        if (expr->as.index.to)
            spx_checker_check_expr(scope, expr->as.index.to);
        return;
    }
    if (index) {
        expect(scope, map->key);
        spx_checker_check_expr(scope, index);
        spx_type_t kind = type_of(index);
        if (kind == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, index, "a key");
        else if (kind != SPX_TYPE_ERROR && vtype_of(scope, index) != map->key)
            report(scope, SPX_E0418, index->span,
                   apr_psprintf(scope->pool, "a key of '%s' must be '%s', not '%s'",
                                spx_vtype_name(map, scope->pool),
                                spx_vtype_name(map->key, scope->pool), type_text(scope, index)));
    }
    set_type(expr, map->element);
}
