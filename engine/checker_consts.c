/*
 * checker_consts.c: const evaluation, the checker's interpreter of const
 * expressions (docs/language.md, "Consts"). Once every module is declared,
 * each const is evaluated, the consts it reads first (depth first, with an
 * explicit stack; a reference back to a const on the stack is a cycle,
 * E0315), from literals, other consts, parentheses and operators (anything
 * else is E0416). Operators are typed as in function bodies (E0405); what
 * fails at run time fails here at the operator (E0415: overflow, division
 * by zero, a bad shift, a str const over its limit); a const whose value
 * does not have its declared type is E0401, one of a type other than int,
 * bool or str E0414. The values go to the spx_const_t (value_type, integer,
 * boolean, bytes), where the index and the compiler read them.
 */
#include "checker_internal.h"
#include "spx_assert.h"
#include "spx_int_arith.h"
#include "spx_limits.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <string.h>

/* A const expression's value; type SPX_TYPE_ERROR when it has none (a
 * diagnostic was given, or it is not evaluated: the right side of a
 * short-circuit). A str's bytes may be a buffer of capacity bytes that this
 * evaluation owns and may grow (a chain "a" + b + c appends in place). */
typedef struct value_t {
    spx_type_t type;
    int64_t integer;
    int boolean;
    const char *bytes;
    apr_size_t length;
    char *owned; /* bytes, when this evaluation may append to it */
    apr_size_t capacity;
} value_t;

typedef struct evaluation_t {
    checker_t *checker;
    const spx_module_t *module; /* of the const being evaluated */
    spx_name_table_t *imports;
    spx_name_table_t *consts;
    apr_pool_t *pool; /* the intermediate strings */
} evaluation_t;

static spx_diagnostic_t *report_const(evaluation_t *ev, spx_diagnostic_code_t code, spx_span_t span,
                                      const char *message)
{
    return spx_diagnostics_add(ev->checker->diagnostics, code, ev->module->path, span, "%s",
                               message);
}

/* The const a NAME or m.X of a const expression names, or NULL (reported
 * when report is set). */
static const spx_const_t *const_reference(evaluation_t *ev, const spx_expr_t *expr, int report)
{
    if (expr->kind == SPX_EXPR_NAME) {
        const char *name = expr->as.name.name.text;
        const spx_const_t *constant = name ? spx_name_table_get(ev->consts, name) : NULL;
        if (!constant && report && name && !spx_checker_names_unreadable_item(ev->module, name)) {
            spx_suggest_t search;
            spx_checker_search(&search, name, 0);
            spx_checker_offer_consts(ev->module, 0, &search);
            spx_checker_suggest(
                ev->checker,
                report_const(ev, SPX_E0316, expr->as.name.name.span,
                             apr_psprintf(ev->pool, "unknown const '%s' in module '%s'", name,
                                          ev->module->name)),
                NULL, 0, &search, "", ev->pool);
        }
        return constant;
    }
    if (expr->kind != SPX_EXPR_FIELD)
        return NULL;
    if (!report) {
        /* the same resolution, silent: only a dependency is wanted */
        const spx_expr_t *base = expr->as.field.base;
        if (!base || base->kind != SPX_EXPR_NAME || !base->as.name.name.text)
            return NULL;
        const spx_import_t *import = spx_name_table_get(ev->imports, base->as.name.name.text);
        apr_size_t *index = import && import->target
                                ? spx_checker_module_index(ev->checker, import->target->name)
                                : NULL;
        if (!index || !ev->checker->consts[*index])
            return NULL;
        return spx_name_table_get(ev->checker->consts[*index], expr->as.field.name.text);
    }
    int resolved = 0;
    const spx_const_t *constant =
        spx_checker_module_const(ev->checker, ev->module, ev->imports, expr, &resolved);
    if (!resolved)
        report_const(ev, SPX_E0416, expr->span,
                     "a const expression cannot read a field: only literals, consts, "
                     "parentheses and operators");
    return constant;
}

static value_t error_value(void)
{
    value_t value = {SPX_TYPE_ERROR, 0, 0, NULL, 0, NULL, 0};
    return value;
}

/* A leaf of a const expression: a literal, a const, or something a const
 * expression may not hold (E0416). */
static value_t const_leaf(evaluation_t *ev, const spx_expr_t *expr)
{
    value_t value = error_value();
    const char *what = NULL;
    switch (expr->kind) {
    case SPX_EXPR_INT:
        value.type = SPX_TYPE_INT;
        value.integer = expr->as.integer;
        return value;
    case SPX_EXPR_STRING:
        value.type = SPX_TYPE_STR;
        value.bytes = expr->as.string.bytes;
        value.length = expr->as.string.length;
        return value;
    case SPX_EXPR_BOOL:
        value.type = SPX_TYPE_BOOL;
        value.boolean = expr->as.boolean;
        return value;
    case SPX_EXPR_NAME:
    case SPX_EXPR_FIELD: {
        const spx_const_t *constant = const_reference(ev, expr, 1);
        /* state 1: on a cycle (reported once, as E0315) */
        if (!constant || constant->state != 2 || constant->value_type == SPX_TYPE_ERROR ||
            constant->type_syntax || constant->value_type != constant->type)
            return value;
        value.type = constant->type;
        value.integer = constant->integer;
        value.boolean = constant->boolean;
        value.bytes = constant->bytes;
        value.length = constant->length;
        return value;
    }
    case SPX_EXPR_CALL:
        what = "a call";
        break;
    case SPX_EXPR_INDEX:
        what = "an index";
        break;
    case SPX_EXPR_SLICE:
        what = "a slice";
        break;
    case SPX_EXPR_ARRAY:
        what = "an array literal";
        break;
    case SPX_EXPR_STRUCT_LITERAL:
        what = "a struct literal";
        break;
    case SPX_EXPR_VARIANT:
        what = "a variant";
        break;
    case SPX_EXPR_MAP:
        what = "a map literal";
        break;
    case SPX_EXPR_UNARY:
    case SPX_EXPR_BINARY:
        SPX_ASSERT(expr->kind != SPX_EXPR_UNARY && expr->kind != SPX_EXPR_BINARY);
        return value; /* never reached: const_eval unrolls these */
    }
    report_const(ev, SPX_E0416, expr->span,
                 apr_psprintf(ev->pool,
                              "a const expression cannot hold %s: only literals, consts, "
                              "parentheses and operators",
                              what));
    return value;
}

static value_t int_value(int64_t integer)
{
    value_t value = error_value();
    value.type = SPX_TYPE_INT;
    value.integer = integer;
    return value;
}

static value_t bool_value(int boolean)
{
    value_t value = error_value();
    value.type = SPX_TYPE_BOOL;
    value.boolean = boolean != 0;
    return value;
}

/* a op b on ints that are both known: the value (spx_int_arith.h, as at run
 * time), or a check-time failure (E0415) at the operator, worded as the
 * run-time one. */
static value_t int_operation(evaluation_t *ev, const spx_expr_t *expr, int64_t a, int64_t b)
{
    spx_operator_t op = expr->as.binary.op;
    switch (op) {
    case SPX_OP_LT:
        return bool_value(a < b);
    case SPX_OP_LE:
        return bool_value(a <= b);
    case SPX_OP_GT:
        return bool_value(a > b);
    case SPX_OP_GE:
        return bool_value(a >= b);
    case SPX_OP_EQ:
        return bool_value(a == b);
    case SPX_OP_NE:
        return bool_value(a != b);
    default:
        break;
    }
    int64_t r = 0;
    spx_int_status_t status = spx_int_apply(op, a, b, &r);
    if (status != SPX_INT_OK) {
        report_const(
            ev, SPX_E0415, expr->as.binary.op_span,
            spx_int_failure_message(status, spx_checker_operator_name(op), a, b, ev->pool));
        return error_value();
    }
    return int_value(r);
}

/* a + b on strs: appended in place when a is this evaluation's own buffer
 * and has room, so a long chain costs its final length, not its square. */
static value_t concatenate(evaluation_t *ev, const spx_expr_t *expr, value_t a, value_t b)
{
    apr_size_t length = a.length + b.length;
    if (length > SPX_LIMIT_STR_CONST_BYTES) {
        report_const(
            ev, SPX_E0415, expr->as.binary.op_span,
            apr_psprintf(ev->pool,
                         "a str const is at most %u bytes; this value would have %" APR_SIZE_T_FMT,
                         SPX_LIMIT_STR_CONST_BYTES, length));
        return error_value();
    }
    if (b.length == 0)
        return a;
    if (a.length == 0)
        return b;
    if (!a.owned || a.capacity < length) {
        apr_size_t capacity = length < 64 ? 64 : 2 * length;
        char *buffer = apr_palloc(ev->pool, capacity);
        memcpy(buffer, a.bytes, a.length);
        a.owned = buffer;
        a.capacity = capacity;
        a.bytes = buffer;
    }
    memcpy(a.owned + a.length, b.bytes, b.length);
    a.length = length;
    return a;
}

static value_t const_eval(evaluation_t *ev, const spx_expr_t *expr, int live);

/* The binary operator expr on left (known or not) and its right operand,
 * which is evaluated here (not at all when && or || short-circuits: then
 * it is only typed). Types are checked as in function bodies (E0405). */
static value_t const_binary(evaluation_t *ev, const spx_expr_t *expr, value_t left, int live)
{
    spx_operator_t op = expr->as.binary.op;
    int right_live = live;
    if (live && left.type == SPX_TYPE_BOOL &&
        ((op == SPX_OP_AND && !left.boolean) || (op == SPX_OP_OR && left.boolean)))
        right_live = 0;
    value_t right = const_eval(ev, expr->as.binary.right, right_live);
    spx_type_t a = left.type, b = right.type;
    int ok = 0;
    spx_type_t result = spx_checker_binary_type(op, spx_types_basic(ev->checker->types, a),
                                                spx_types_basic(ev->checker->types, b), &ok);
    if (a == SPX_TYPE_ERROR || b == SPX_TYPE_ERROR) {
        /* A value unknown (reported, or not evaluated): the type is still
         * checked where both sides are typed. Nothing more is said. */
        return error_value();
    }
    if (!ok) {
        report_const(ev, SPX_E0405, expr->as.binary.op_span,
                     apr_psprintf(ev->pool, "operator '%s' cannot take '%s' and '%s'",
                                  spx_checker_operator_name(op), spx_type_name(a),
                                  spx_type_name(b)));
        return error_value();
    }
    if (!live) {
        value_t typed = error_value(); /* typed, not evaluated */
        typed.type = result;
        return typed;
    }
    if (op == SPX_OP_AND || op == SPX_OP_OR)
        return right_live ? right : left;
    if (a == SPX_TYPE_INT)
        return int_operation(ev, expr, left.integer, right.integer);
    if (a == SPX_TYPE_BOOL)
        return bool_value(op == SPX_OP_EQ ? left.boolean == right.boolean
                                          : left.boolean != right.boolean);
    if (op == SPX_OP_ADD)
        return concatenate(ev, expr, left, right);
    if (op >= SPX_OP_LT && op <= SPX_OP_GE) { /* v3: strings bytewise */
        apr_size_t shorter = left.length < right.length ? left.length : right.length;
        int order = shorter ? memcmp(left.bytes, right.bytes, shorter) : 0;
        if (order == 0)
            order = (left.length > right.length) - (left.length < right.length);
        return bool_value(op == SPX_OP_LT   ? order < 0
                          : op == SPX_OP_LE ? order <= 0
                          : op == SPX_OP_GT ? order > 0
                                            : order >= 0);
    }
    int same = left.length == right.length && memcmp(left.bytes, right.bytes, left.length) == 0;
    return bool_value(op == SPX_OP_EQ ? same : !same);
}

static value_t const_unary(evaluation_t *ev, const spx_expr_t *expr, value_t operand, int live)
{
    spx_operator_t op = expr->as.unary.op;
    spx_type_t wanted = spx_checker_unary_type(op);
    if (operand.type == SPX_TYPE_ERROR)
        return error_value();
    if (operand.type != wanted) {
        report_const(ev, SPX_E0405, expr->as.unary.op_span,
                     apr_psprintf(ev->pool, "operator '%s' cannot take '%s'",
                                  spx_checker_operator_name(op), spx_type_name(operand.type)));
        return error_value();
    }
    if (!live) {
        value_t typed = error_value(); /* typed, not evaluated */
        typed.type = wanted;
        return typed;
    }
    if (op == SPX_OP_NOT)
        return bool_value(!operand.boolean);
    if (op == SPX_OP_BIT_NOT)
        return int_value(~operand.integer);
    int64_t negated = 0;
    if (spx_int_neg(operand.integer, &negated) != SPX_INT_OK) {
        report_const(ev, SPX_E0415, expr->as.unary.op_span, SPX_INT_NEGATION_OVERFLOW);
        return error_value();
    }
    return int_value(negated);
}

/* Evaluates (live) or only types (not live) a const expression. Its chain
 * of unary operators and left operands is walked as a loop over an explicit
 * stack (see spx_checker_check_expr); right operands recurse, bounded by the parse
 * depth. A value that is not live has type error: the caller only needs
 * its diagnostics. */
static value_t const_eval(evaluation_t *ev, const spx_expr_t *expr, int live)
{
    if (!expr)
        return error_value();
    apr_array_header_t *spine = ev->checker->spine;
    int base = spine->nelts;
    const spx_expr_t *node = expr;
    while (node && (node->kind == SPX_EXPR_UNARY || node->kind == SPX_EXPR_BINARY)) {
        APR_ARRAY_PUSH(spine, const spx_expr_t *) = node;
        node = node->kind == SPX_EXPR_UNARY ? node->as.unary.operand : node->as.binary.left;
    }
    value_t value = node ? const_leaf(ev, node) : error_value();
    /* A typed but unevaluated leaf keeps its type, so that operators above
     * it are still type-checked; values are only read when live. */
    while (spine->nelts > base) {
        const spx_expr_t *top = APR_ARRAY_IDX(spine, spine->nelts - 1, const spx_expr_t *);
        spine->nelts--;
        if (top->kind == SPX_EXPR_UNARY)
            value = const_unary(ev, top, value, live);
        else
            value = const_binary(ev, top, value, live);
    }
    return value;
}

/* A const that another one's expression names, with its first reference. */
typedef struct dependency_t {
    spx_const_t *constant;
    spx_span_t span;
} dependency_t;

typedef struct const_frame_t {
    spx_const_t *constant;
    apr_size_t module_index;
    apr_array_header_t *dependencies; /* dependency_t, each const once, in source order */
    int next;
} const_frame_t;

static evaluation_t evaluation_in(checker_t *checker, apr_size_t module_index, apr_pool_t *pool)
{
    evaluation_t ev = {checker, checker->modules[module_index], checker->imports[module_index],
                       checker->consts[module_index], pool};
    return ev;
}

/* The consts expr reads where it will be evaluated (not inside what a
 * const expression cannot hold), walked with an explicit stack; each name
 * and m.X on the way gets its const (as.name.constant, as.field.constant). */
static apr_array_header_t *dependencies_of(evaluation_t *ev, const spx_expr_t *expr)
{
    apr_array_header_t *found = apr_array_make(ev->pool, 4, sizeof(dependency_t));
    apr_array_header_t *stack = apr_array_make(ev->pool, 16, sizeof(const spx_expr_t *));
    apr_hash_t *seen = apr_hash_make(ev->pool);
    if (expr)
        APR_ARRAY_PUSH(stack, const spx_expr_t *) = expr;
    while (stack->nelts > 0) {
        const spx_expr_t *node = APR_ARRAY_IDX(stack, --stack->nelts, const spx_expr_t *);
        if (node->kind == SPX_EXPR_UNARY) {
            APR_ARRAY_PUSH(stack, const spx_expr_t *) = node->as.unary.operand;
        } else if (node->kind == SPX_EXPR_BINARY) {
            /* right first, so the left is taken first (source order) */
            APR_ARRAY_PUSH(stack, const spx_expr_t *) = node->as.binary.right;
            APR_ARRAY_PUSH(stack, const spx_expr_t *) = node->as.binary.left;
        } else if (node->kind == SPX_EXPR_NAME || node->kind == SPX_EXPR_FIELD) {
            spx_const_t *constant = (spx_const_t *)const_reference(ev, node, 0);
            /* the HIR's annotation, as in bodies (the index reads it) */
            if (node->kind == SPX_EXPR_NAME)
                ((spx_expr_t *)node)->as.name.constant = constant;
            else
                ((spx_expr_t *)node)->as.field.constant = constant;
            if (!constant || apr_hash_get(seen, &constant, sizeof(constant)))
                continue;
            apr_hash_set(seen, apr_pmemdup(ev->pool, &constant, sizeof(constant)), sizeof(constant),
                         constant);
            dependency_t *dependency = apr_array_push(found);
            dependency->constant = constant;
            dependency->span = node->span;
        }
    }
    return found;
}

static const char *const_full_name(const spx_const_t *constant, apr_pool_t *pool)
{
    return apr_pstrcat(pool, constant->module->name, ".", constant->name.text, NULL);
}

/* The cycle is frames[from..] closed by the top frame's reference back to
 * frames[from]: reported once, rotated to start at its smallest MOD.NAME,
 * at that const's reference to the next one (as import cycles are). */
static void report_const_cycle(checker_t *checker, apr_array_header_t *frames, int from,
                               apr_pool_t *pool)
{
    int length = frames->nelts - from;
    const_frame_t *cycle = &APR_ARRAY_IDX(frames, from, const_frame_t);
    const char **names = apr_palloc(pool, (size_t)length * sizeof(*names));
    for (int i = 0; i < length; i++)
        names[i] = const_full_name(cycle[i].constant, pool);
    int start = 0;
    const char *message = spx_checker_cycle_text("const cycle: ", names, length, &start, pool);
    const_frame_t *site = &cycle[start];
    const dependency_t *edge = &APR_ARRAY_IDX(site->dependencies, site->next - 1, dependency_t);
    spx_diagnostics_add(checker->diagnostics, SPX_E0315, site->constant->module->path, edge->span,
                        "%s", message);
}

/* The value of top's const, once every const it reads is evaluated. */
static void evaluate_frame(checker_t *checker, const_frame_t *top, apr_pool_t *pool)
{
    spx_const_t *constant = top->constant;
    evaluation_t ev = evaluation_in(checker, top->module_index, pool);
    if (constant->type_syntax)
        report_const(&ev, SPX_E0414, constant->type_span,
                     apr_psprintf(pool, "const '%s' must have type 'int', 'bool' or 'str'",
                                  constant->name.text));
    value_t value = const_eval(&ev, constant->value, 1);
    constant->state = 2;
    constant->value_type = SPX_TYPE_ERROR;
    if (value.type == SPX_TYPE_ERROR || constant->type_syntax)
        return;
    if (value.type != constant->type) {
        report_const(&ev, SPX_E0401, constant->value->span,
                     apr_psprintf(pool, "'%s' is declared '%s' but its value is '%s'",
                                  constant->name.text, spx_type_name(constant->type),
                                  spx_type_name(value.type)));
        return;
    }
    if (value.type == SPX_TYPE_STR && value.length > SPX_LIMIT_STR_CONST_BYTES) {
        report_const(
            &ev, SPX_E0415, constant->value->span,
            apr_psprintf(pool, "a str const is at most %u bytes; this value has %" APR_SIZE_T_FMT,
                         SPX_LIMIT_STR_CONST_BYTES, value.length));
        return;
    }
    constant->value_type = value.type;
    constant->integer = value.integer;
    constant->boolean = value.boolean;
    constant->bytes =
        value.type == SPX_TYPE_STR
            ? apr_pmemdup(checker->pool, value.length ? value.bytes : "", value.length + 1)
            : NULL;
    if (constant->bytes)
        ((char *)constant->bytes)[value.length] = '\0';
    constant->length = value.length;
}

/* Evaluates constant and, first, every const it reads, depth first with an
 * explicit stack (a chain of consts may be as long as a module is); each
 * reference back to a const on the stack closes a cycle (E0315). */
static void evaluate_const(checker_t *checker, spx_const_t *constant, apr_size_t module_index)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, checker->scratch);
    apr_array_header_t *frames = apr_array_make(pool, 8, sizeof(const_frame_t));
    const_frame_t *first = apr_array_push(frames);
    evaluation_t ev = evaluation_in(checker, module_index, pool);
    *first = (const_frame_t){constant, module_index, dependencies_of(&ev, constant->value), 0};
    constant->state = 1;
    while (frames->nelts > 0) {
        const_frame_t *top = &APR_ARRAY_IDX(frames, frames->nelts - 1, const_frame_t);
        if (top->next < top->dependencies->nelts) {
            spx_const_t *next =
                APR_ARRAY_IDX(top->dependencies, top->next++, dependency_t).constant;
            if (next->state == 1) {
                int from = frames->nelts - 1;
                while (APR_ARRAY_IDX(frames, from, const_frame_t).constant != next)
                    from--;
                report_const_cycle(checker, frames, from, pool);
            } else if (next->state == 0) {
                apr_size_t *index = spx_checker_module_index(checker, next->module->name);
                if (!index || !checker->consts[*index]) {
                    next->state = 2; /* its module was never declared: no value */
                    next->value_type = SPX_TYPE_ERROR;
                    continue;
                }
                evaluation_t next_ev = evaluation_in(checker, *index, pool);
                apr_array_header_t *dependencies = dependencies_of(&next_ev, next->value);
                next->state = 1;
                const_frame_t *pushed = apr_array_push(frames);
                *pushed = (const_frame_t){next, *index, dependencies, 0};
            }
            continue;
        }
        evaluate_frame(checker, top, pool);
        frames->nelts--;
    }
    apr_pool_destroy(pool);
}

/* Every const of the program, modules in order. */
void spx_checker_evaluate_consts(checker_t *checker)
{
    for (apr_size_t i = 0; i < checker->module_count; i++) {
        spx_module_t *module = checker->modules[i];
        if (!checker->consts[i])
            continue;
        for (apr_size_t j = 0; j < module->const_count; j++) {
            if (module->consts[j]->state == 0)
                evaluate_const(checker, module->consts[j], i);
        }
    }
}
