/*
 * checker_methods.c: the methods of the standard library (docs/language.md,
 * "Standard library"): e.name(args), where e is not an imported module's
 * name, is a method of e's type. One table keyed by receiver type (str,
 * arrays, int; a map's rows slot in the same way) gives each method's
 * builtin row (spx_builtins.h), its argument and result types, and whether
 * it writes its receiver. Checked here: a method the type lacks (E0420,
 * with the nearest methods of that type), a writing method on what is not
 * a place (E0421) or on a place not rooted at a var (E0312), sort's element
 * types (E0438), the argument count and types (E0403, E0404), and the
 * expected types the arguments get (insert's and push's value).
 *
 * A receiver type's rows slot in as a map's did: a receiver_t for the type
 * (receiver_of maps the type to it), method_type_t values for what its
 * arguments and results are in terms of the receiver (a map's key and
 * value types), and its rows in methods[], each naming its builtin row.
 * A call on a map is marked on_map: the compiler gives maps' methods their
 * own instructions (compile.c, values_map.c).
 */
#include "checker_internal.h"

#include <apr_strings.h>
#include <string.h>

/* The types a method's receiver may have. */
typedef enum receiver_t { RECEIVER_STR, RECEIVER_ARRAY, RECEIVER_INT, RECEIVER_MAP } receiver_t;

/* An argument's or result's type, relative to the receiver's. */
typedef enum method_type_t {
    METHOD_UNIT,
    METHOD_INT,
    METHOD_BOOL,
    METHOD_STR,
    METHOD_STR_ARRAY, /* [str] */
    METHOD_ELEMENT,   /* the receiver array's element type, or a map's value type */
    METHOD_KEY,       /* the receiver map's key type */
    METHOD_KEYS,      /* [K] of a map {K: V} */
    METHOD_VALUES     /* [V] of a map {K: V} */
} method_type_t;

/* What a row needs of an array receiver's element type beyond being an
 * array. */
typedef enum method_need_t {
    NEED_NOTHING,
    NEED_STR_ELEMENTS, /* join: [str], else E0420 */
    NEED_SORTABLE      /* sort: [int], [str] or [bool], else E0438 */
} method_need_t;

typedef struct method_row_t {
    receiver_t receiver;
    spx_builtin_t builtin; /* its name and argument count are the builtin row's */
    int writes;            /* a place method: the receiver is written */
    method_need_t need;
    method_type_t parameters[2];
    method_type_t result;
} method_row_t;

static const method_row_t methods[] = {
    {RECEIVER_STR, SPX_BUILTIN_SPLIT, 0, NEED_NOTHING, {METHOD_STR}, METHOD_STR_ARRAY},
    {RECEIVER_STR, SPX_BUILTIN_FIND, 0, NEED_NOTHING, {METHOD_STR}, METHOD_INT},
    {RECEIVER_STR, SPX_BUILTIN_CONTAINS, 0, NEED_NOTHING, {METHOD_STR}, METHOD_BOOL},
    {RECEIVER_STR, SPX_BUILTIN_STARTS_WITH, 0, NEED_NOTHING, {METHOD_STR}, METHOD_BOOL},
    {RECEIVER_STR, SPX_BUILTIN_ENDS_WITH, 0, NEED_NOTHING, {METHOD_STR}, METHOD_BOOL},
    {RECEIVER_STR, SPX_BUILTIN_TRIM, 0, NEED_NOTHING, {METHOD_UNIT}, METHOD_STR},
    {RECEIVER_STR, SPX_BUILTIN_LOWER, 0, NEED_NOTHING, {METHOD_UNIT}, METHOD_STR},
    {RECEIVER_STR, SPX_BUILTIN_UPPER, 0, NEED_NOTHING, {METHOD_UNIT}, METHOD_STR},
    {RECEIVER_STR, SPX_BUILTIN_REPLACE, 0, NEED_NOTHING, {METHOD_STR, METHOD_STR}, METHOD_STR},
    {RECEIVER_STR, SPX_BUILTIN_REPEAT, 0, NEED_NOTHING, {METHOD_INT}, METHOD_STR},
    {RECEIVER_ARRAY, SPX_BUILTIN_PUSH, 1, NEED_NOTHING, {METHOD_ELEMENT}, METHOD_UNIT},
    {RECEIVER_ARRAY, SPX_BUILTIN_POP, 1, NEED_NOTHING, {METHOD_UNIT}, METHOD_ELEMENT},
    {RECEIVER_ARRAY, SPX_BUILTIN_JOIN, 0, NEED_STR_ELEMENTS, {METHOD_STR}, METHOD_STR},
    {RECEIVER_ARRAY, SPX_BUILTIN_CONTAINS, 0, NEED_NOTHING, {METHOD_ELEMENT}, METHOD_BOOL},
    {RECEIVER_ARRAY, SPX_BUILTIN_SORT, 1, NEED_SORTABLE, {METHOD_UNIT}, METHOD_UNIT},
    {RECEIVER_ARRAY, SPX_BUILTIN_REVERSE, 1, NEED_NOTHING, {METHOD_UNIT}, METHOD_UNIT},
    {RECEIVER_ARRAY,
     SPX_BUILTIN_INSERT,
     1,
     NEED_NOTHING,
     {METHOD_INT, METHOD_ELEMENT},
     METHOD_UNIT},
    {RECEIVER_ARRAY, SPX_BUILTIN_REMOVE, 1, NEED_NOTHING, {METHOD_INT}, METHOD_ELEMENT},
    {RECEIVER_ARRAY, SPX_BUILTIN_INDEX_OF, 0, NEED_NOTHING, {METHOD_ELEMENT}, METHOD_INT},
    {RECEIVER_INT, SPX_BUILTIN_ABS, 0, NEED_NOTHING, {METHOD_UNIT}, METHOD_INT},
    {RECEIVER_INT, SPX_BUILTIN_MIN, 0, NEED_NOTHING, {METHOD_INT}, METHOD_INT},
    {RECEIVER_INT, SPX_BUILTIN_MAX, 0, NEED_NOTHING, {METHOD_INT}, METHOD_INT},
    {RECEIVER_MAP, SPX_BUILTIN_HAS, 0, NEED_NOTHING, {METHOD_KEY}, METHOD_BOOL},
    {RECEIVER_MAP, SPX_BUILTIN_GET, 0, NEED_NOTHING, {METHOD_KEY, METHOD_ELEMENT}, METHOD_ELEMENT},
    {RECEIVER_MAP, SPX_BUILTIN_REMOVE, 1, NEED_NOTHING, {METHOD_KEY}, METHOD_BOOL},
    {RECEIVER_MAP, SPX_BUILTIN_KEYS, 0, NEED_NOTHING, {METHOD_UNIT}, METHOD_KEYS},
    {RECEIVER_MAP, SPX_BUILTIN_VALUES, 0, NEED_NOTHING, {METHOD_UNIT}, METHOD_VALUES},
};

#define METHOD_COUNT (sizeof(methods) / sizeof(methods[0]))

static const char *method_name(const method_row_t *row)
{
    return spx_builtin_info(row->builtin)->name;
}

/* find_row's receiver for a name's first row, whatever its receiver. */
#define ANY_RECEIVER (-2)

/* The receiver kind of a type, or -1 when no method takes it. */
static int receiver_of(const spx_vtype_t *type)
{
    switch (type->kind) {
    case SPX_TYPE_STR:
        return RECEIVER_STR;
    case SPX_TYPE_ARRAY:
        return RECEIVER_ARRAY;
    case SPX_TYPE_INT:
        return RECEIVER_INT;
    case SPX_TYPE_MAP:
        return RECEIVER_MAP;
    default:
        return -1;
    }
}

/* The row of name for receiver kind (ANY_RECEIVER: the first row of name),
 * or NULL. */
static const method_row_t *find_row(int receiver, const char *name)
{
    for (size_t i = 0; i < METHOD_COUNT; i++)
        if ((receiver == ANY_RECEIVER || (int)methods[i].receiver == receiver) &&
            strcmp(method_name(&methods[i]), name) == 0)
            return &methods[i];
    return NULL;
}

/* The receivers that have a method name, as a message names them ("str",
 * "arrays", "str and arrays", "[str]" for join), or NULL when none has. */
static const char *receivers_named(const char *name, apr_pool_t *pool)
{
    static const char *const kinds[] = {"str", "arrays", "int", "maps"};
    const char *listed = NULL;
    for (int receiver = RECEIVER_STR; receiver <= RECEIVER_MAP; receiver++) {
        const method_row_t *row = find_row(receiver, name);
        const char *kind = !row ? NULL : row->need == NEED_STR_ELEMENTS ? "[str]" : kinds[receiver];
        if (kind)
            listed = listed ? apr_pstrcat(pool, listed, " and ", kind, NULL) : kind;
    }
    return listed;
}

/* Whether any type's method name writes its receiver. */
static int writes_somewhere(const char *name)
{
    for (size_t i = 0; i < METHOD_COUNT; i++)
        if (methods[i].writes && strcmp(method_name(&methods[i]), name) == 0)
            return 1;
    return 0;
}

static const spx_vtype_t *method_type(scope_t *scope, method_type_t type,
                                      const spx_vtype_t *receiver)
{
    switch (type) {
    case METHOD_UNIT:
        return basic_type(scope, SPX_TYPE_UNIT);
    case METHOD_INT:
        return basic_type(scope, SPX_TYPE_INT);
    case METHOD_BOOL:
        return basic_type(scope, SPX_TYPE_BOOL);
    case METHOD_STR:
        return basic_type(scope, SPX_TYPE_STR);
    case METHOD_STR_ARRAY:
        return spx_types_array(scope->checker->types, basic_type(scope, SPX_TYPE_STR));
    case METHOD_KEY:
        return receiver->key;
    case METHOD_KEYS:
        return spx_types_array(scope->checker->types, receiver->key);
    case METHOD_VALUES:
        return spx_types_array(scope->checker->types, receiver->element);
    case METHOD_ELEMENT:
        break;
    }
    return receiver->element;
}

/* The variable a place (x, x[i], x.f, ... chains) is rooted at, or NULL
 * when it is rooted at something else (a call, a literal). */
static const spx_expr_t *place_root(const spx_expr_t *place)
{
    while (place && (place->kind == SPX_EXPR_INDEX || place->kind == SPX_EXPR_FIELD))
        place = place->kind == SPX_EXPR_INDEX ? place->as.index.base : place->as.field.base;
    return place && place->kind == SPX_EXPR_NAME ? place : NULL;
}

/* E0420: type (receiver) has no method name. The message says which types
 * have it, if any; the suggestions are type's nearest methods, and for len
 * the builtin. */
static void report_no_method(scope_t *scope, const spx_call_t *c, const spx_vtype_t *type,
                             const char *name, const char *receiver_text)
{
    const char *type_name = spx_vtype_name(type, scope->pool);
    const char *others = receivers_named(name, scope->pool);
    int length =
        strcmp(name, "len") == 0 && (type->kind == SPX_TYPE_STR || type->kind == SPX_TYPE_ARRAY);
    const char *message =
        others   ? apr_psprintf(scope->pool, "'%s' is a method of %s, not of '%s'", name, others,
                                type_name)
        : length ? apr_psprintf(scope->pool,
                                "type '%s' has no method 'len': a length is the builtin len(%s)",
                                type_name, receiver_text)
                 : apr_psprintf(scope->pool, "type '%s' has no method '%s'", type_name, name);
    spx_diagnostic_t *item = report(scope, SPX_E0420, c->function.span, message);
    const char *meant = apr_psprintf(scope->pool, "len(%s)", receiver_text);
    spx_suggest_t search;
    spx_checker_search(&search, name, length ? 1 : 0);
    int receiver = receiver_of(type);
    for (size_t i = 0; i < METHOD_COUNT; i++)
        if ((int)methods[i].receiver == receiver &&
            !spx_suggest_offer(&search, method_name(&methods[i])))
            break;
    spx_checker_suggest(scope->checker, item, length ? &meant : NULL, length ? 1 : 0, &search, "",
                        scope->pool);
}

/* The row of the method call names on a receiver of type, or NULL after
 * reporting why there is none (nothing when type is an error). Sets the
 * call's builtin even then, when a type has a method of that name (the
 * graph's calls edge). */
static const method_row_t *method_row(scope_t *scope, spx_expr_t *call, const spx_vtype_t *type,
                                      const char *receiver_text)
{
    spx_call_t *c = call->as.call;
    const char *name = c->function.text ? c->function.text : "";
    const method_row_t *any = find_row(ANY_RECEIVER, name);
    if (type->kind == SPX_TYPE_ERROR) {
        c->builtin = any ? any->builtin : SPX_BUILTIN_NONE;
        return NULL;
    }
    if (any && c->receiver && writes_somewhere(name) && !place_root(c->receiver)) {
        report(scope, SPX_E0421, c->receiver->span,
               apr_psprintf(scope->pool,
                            "'%s' changes its %s, so it needs a variable or an element or "
                            "field of one",
                            name, type->kind == SPX_TYPE_MAP ? "map" : "array"));
        return NULL;
    }
    const method_row_t *row = find_row(receiver_of(type), name);
    if (!row || (row->need == NEED_STR_ELEMENTS && type->element->kind != SPX_TYPE_STR)) {
        report_no_method(scope, c, type, name, receiver_text);
        return NULL;
    }
    c->builtin = row->builtin;
    spx_type_t element = type->kind == SPX_TYPE_ARRAY ? type->element->kind : SPX_TYPE_ERROR;
    if (row->need == NEED_SORTABLE && element != SPX_TYPE_INT && element != SPX_TYPE_STR &&
        element != SPX_TYPE_BOOL && element != SPX_TYPE_ERROR)
        report(scope, SPX_E0438, c->function.span,
               apr_psprintf(scope->pool, "sort needs [int], [str] or [bool], not %s",
                            spx_vtype_name(type, scope->pool)));
    return row;
}

const spx_vtype_t *spx_checker_check_method(scope_t *scope, spx_expr_t *call)
{
    spx_call_t *c = call->as.call;
    const spx_vtype_t *error = basic_type(scope, SPX_TYPE_ERROR);
    const spx_vtype_t *type = error;
    const local_t *root = NULL;
    const char *root_name = NULL;
    if (c->receiver) {
        spx_checker_check_expr(scope, c->receiver);
        if (type_of(c->receiver) == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, c->receiver, "a receiver");
        else
            type = vtype_of(scope, c->receiver);
        const spx_expr_t *name = place_root(c->receiver);
        root_name = name ? name->as.name.name.text : NULL;
        root = root_name ? spx_checker_lookup(scope, root_name) : NULL;
    } else {
        root_name = c->module.text;
        root = spx_checker_lookup(scope, root_name);
        type = root ? root->vtype : error;
    }
    const char *receiver_text =
        c->receiver && c->receiver->kind != SPX_EXPR_NAME ? "..." : root_name;
    const method_row_t *row = method_row(scope, call, type, receiver_text);
    const spx_builtin_info_t *info = row ? spx_builtin_info(row->builtin) : NULL;
    if (row)
        c->receiver_slot = root ? root->slot : -1;
    c->on_map = row && type->kind == SPX_TYPE_MAP;
    if (row && row->writes) {
        if (root && !root->is_var && root->vtype->kind != SPX_TYPE_ERROR)
            report(scope, SPX_E0312, c->function.span,
                   apr_psprintf(scope->pool, "cannot change '%s' with '%s': it is %s", root_name,
                                info->name, local_kind(root)));
    }
    /* The arguments, each expecting its parameter's type (known once the
     * row is), even when the method is unknown. */
    apr_size_t count = c->argument_count;
    for (apr_size_t i = 0; i < count; i++) {
        int known = row && i < info->arity;
        expect(scope, known ? method_type(scope, row->parameters[i], type) : NULL);
        spx_checker_check_expr(scope, c->arguments[i]);
        if (type_of(c->arguments[i]) == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, c->arguments[i], "an argument");
    }
    if (!row)
        return error;
    const spx_vtype_t *result = method_type(scope, row->result, type);
    if (count != info->arity) {
        report(scope, SPX_E0403, call->span,
               apr_psprintf(scope->pool,
                            "'%s' takes %" APR_SIZE_T_FMT " argument%s, not %" APR_SIZE_T_FMT,
                            info->name, info->arity, info->arity == 1 ? "" : "s", count));
        return result;
    }
    for (apr_size_t i = 0; i < count; i++) {
        spx_expr_t *argument = c->arguments[i];
        const spx_vtype_t *wanted = method_type(scope, row->parameters[i], type);
        spx_type_t kind = type_of(argument);
        if (kind != SPX_TYPE_ERROR && kind != SPX_TYPE_UNIT && wanted->kind != SPX_TYPE_ERROR &&
            vtype_of(scope, argument) != wanted)
            report(scope, SPX_E0404, argument->span,
                   apr_psprintf(scope->pool,
                                "argument %" APR_SIZE_T_FMT " of '%s' must be '%s', not '%s'",
                                i + 1, info->name, spx_vtype_name(wanted, scope->pool),
                                type_text(scope, argument)));
    }
    return result;
}
