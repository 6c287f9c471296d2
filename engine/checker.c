/*
 * checker.c: the semantic checker of Semaprax (docs/language.md, "Files and
 * modules", "Types and rules", "Builtins"): its state, its entry points,
 * the builtins' names, and the reporting and suggestion helpers every pass
 * shares. The passes live in the files that checker_internal.h lists.
 *
 * The checker takes the parsed modules of one program and turns the syntax
 * trees into the linked HIR of spx_ast.h. Passes 1 and 2 run per module as
 * soon as it is parsed (spx_checker_declare), pass 3 per module once the
 * modules it imports are declared (spx_checker_check_bodies), and what needs
 * every module at the end (spx_checker_finish):
 *   1. imports (checker_imports.c): each import is resolved to its module
 *      (undeclared, twice, itself);
 *   2. items (checker_items.c): every module's table of functions by name (duplicates,
 *      builtin names) and its one namespace of functions, structs and consts,
 *      so that pass 3 can resolve calls, types and consts across modules;
 *   3. bodies (checker_statements.c, checker_expressions.c): each struct's
 *      fields, then every function walked once, in source order, resolving
 *      names to local slots, calls to their targets or builtins, typing every
 *      expression and finding the paths that do not return; then the reads
 *      that move are marked (checker_moves.c);
 *   finish: import cycles, struct containment cycles, the consts evaluated
 *      (checker_consts.c), unused imports (warnings are dropped beside errors by
 *      whoever drives the checker: Phase A, spx_check_program).
 * Codes E03xx are names and imports, E04xx types, W06xx warnings
 * (docs/diagnostics-checker.md lists each one with a program that triggers
 * it).
 *
 * No cascades: an expression whose type is SPX_TYPE_ERROR was already
 * reported (or depends on something that was), so nothing above it reports
 * again. Diagnostics are emitted in source order, modules in the given order;
 * hashes are used for lookups only, never iterated.
 *
 * Recursion: blocks, parentheses, unary operators and call arguments nest in
 * the tree only as deep as the parser recursed, which spx_parse_module bounds
 * by SPX_LIMIT_PARSE_DEPTH (256); the checker recurses once per such level,
 * so its stack depth is bounded too. The two shapes a parser may build by
 * iteration, and so without a depth bound, are walked iteratively: left-deep
 * operator chains ("1 + 1 + ... + 1") go through an explicit stack
 * (checker->spine), and "else if" chains through a loop. The import, struct
 * and const graphs are searched with explicit stacks as well.
 *
 * Language v2 (docs/language.md), construct by construct. Checked: struct
 * declarations (fields, types naming visible structs, the export rule,
 * containment cycles), consts (evaluated at check time), one namespace per
 * module, locals that take an item's name, bitwise operators, for over a
 * range, break and continue, chr, stoi and assert with a message, for
 * variables' scope, and the types of array and struct values (spx_vtype_t,
 * interned in checker->types: parameters, results and lets of such types,
 * index, slice, len, fields, array and struct literals, ==, for over an
 * array, arguments, returns, assignments to variables and places, push and
 * pop).
 */
#include "checker_internal.h"
#include "spx_assert.h"
#include "spx_limits.h"
#include "spx_suggest.h"

#include <apr_strings.h>
#include <string.h>

/* ---- constant tables ------------------------------------------------------ */

void spx_checker_offer_builtins(spx_suggest_t *search)
{
    for (int b = SPX_BUILTIN_NONE + 1; b <= SPX_BUILTIN_COUNT; b++)
        if (!spx_suggest_offer(search,
                               spx_builtin_info((spx_builtin_t)b)->form == SPX_BUILTIN_FORM_CALL
                                   ? spx_builtin_info((spx_builtin_t)b)->name
                                   : NULL))
            return;
}

/* What an operator takes and gives, the one typing of operators for
 * function bodies (checker_expressions.c) and const expressions
 * (checker_consts.c). */
typedef enum operands_t {
    OPERANDS_INT,        /* two ints (one for a unary operator) */
    OPERANDS_BOOL,       /* two bools (one for a unary operator) */
    OPERANDS_SAME,       /* == and !=: two values of one type, any */
    OPERANDS_INT_OR_STR, /* +: two ints or two strs, and gives that type (v3: or two arrays of
                            one type) */
    OPERANDS_ORDERED,    /* v3: < <= > >=: two ints or two strs, and gives bool */
} operands_t;

typedef struct operator_info_t {
    const char *text; /* as written */
    int unary;
    operands_t operands;
    spx_type_t result; /* for OPERANDS_INT_OR_STR, the operands' type instead */
} operator_info_t;

/* Indexed by spx_operator_t. */
static const operator_info_t operators[] = {
    {"||", 0, OPERANDS_BOOL, SPX_TYPE_BOOL},       {"&&", 0, OPERANDS_BOOL, SPX_TYPE_BOOL},
    {"==", 0, OPERANDS_SAME, SPX_TYPE_BOOL},       {"!=", 0, OPERANDS_SAME, SPX_TYPE_BOOL},
    {"<", 0, OPERANDS_ORDERED, SPX_TYPE_BOOL},     {"<=", 0, OPERANDS_ORDERED, SPX_TYPE_BOOL},
    {">", 0, OPERANDS_ORDERED, SPX_TYPE_BOOL},     {">=", 0, OPERANDS_ORDERED, SPX_TYPE_BOOL},
    {"+", 0, OPERANDS_INT_OR_STR, SPX_TYPE_ERROR}, {"-", 0, OPERANDS_INT, SPX_TYPE_INT},
    {"*", 0, OPERANDS_INT, SPX_TYPE_INT},          {"/", 0, OPERANDS_INT, SPX_TYPE_INT},
    {"%", 0, OPERANDS_INT, SPX_TYPE_INT},          {"-", 1, OPERANDS_INT, SPX_TYPE_INT},
    {"!", 1, OPERANDS_BOOL, SPX_TYPE_BOOL},        {"|", 0, OPERANDS_INT, SPX_TYPE_INT},
    {"^", 0, OPERANDS_INT, SPX_TYPE_INT},          {"&", 0, OPERANDS_INT, SPX_TYPE_INT},
    {"<<", 0, OPERANDS_INT, SPX_TYPE_INT},         {">>", 0, OPERANDS_INT, SPX_TYPE_INT},
    {"~", 1, OPERANDS_INT, SPX_TYPE_INT},
};

const char *spx_checker_operator_name(spx_operator_t op)
{
    if ((size_t)op < sizeof(operators) / sizeof(operators[0]))
        return operators[op].text;
    return "?";
}

spx_type_t spx_checker_unary_type(spx_operator_t op)
{
    SPX_ASSERT((size_t)op < sizeof(operators) / sizeof(operators[0]) && operators[op].unary);
    return operators[op].result;
}

spx_type_t spx_checker_binary_type(spx_operator_t op, const spx_vtype_t *left,
                                   const spx_vtype_t *right, int *ok)
{
    SPX_ASSERT((size_t)op < sizeof(operators) / sizeof(operators[0]));
    const operator_info_t *info = &operators[op];
    spx_type_t a = left->kind, b = right->kind;
    if (info->unary) {
        SPX_ASSERT(!info->unary); /* not binary operators: the parser never builds this */
        *ok = 1;
        return SPX_TYPE_ERROR;
    }
    switch (info->operands) {
    case OPERANDS_INT:
        *ok = a == SPX_TYPE_INT && b == SPX_TYPE_INT;
        return info->result;
    case OPERANDS_BOOL:
        *ok = a == SPX_TYPE_BOOL && b == SPX_TYPE_BOOL;
        return info->result;
    case OPERANDS_SAME:
        *ok = left == right;
        return info->result;
    case OPERANDS_ORDERED:
        *ok = a == b && (a == SPX_TYPE_INT || a == SPX_TYPE_STR);
        return info->result;
    case OPERANDS_INT_OR_STR:
        break;
    }
    if (a == SPX_TYPE_ARRAY) { /* v3: two arrays of one element type */
        *ok = left == right;
        return SPX_TYPE_ARRAY;
    }
    *ok = a == b && (a == SPX_TYPE_INT || a == SPX_TYPE_STR);
    /* whichever side is known decides, so "x + 1" with an unknown x is
     * still int upstream */
    spx_type_t result = a == SPX_TYPE_INT || a == SPX_TYPE_STR ? a : b;
    return result == SPX_TYPE_INT || result == SPX_TYPE_STR ? result : SPX_TYPE_ERROR;
}

void spx_checker_search(spx_suggest_t *search, const char *name, size_t first_count)
{
    size_t room = first_count < SPX_LIMIT_SUGGESTIONS ? SPX_LIMIT_SUGGESTIONS - first_count : 0;
    spx_suggest_start(search, name, room, SPX_LIMIT_SUGGEST_CANDIDATES);
}

void spx_checker_suggest(checker_t *checker, spx_diagnostic_t *item, const char *const *first,
                         size_t first_count, const spx_suggest_t *search, const char *prefix,
                         apr_pool_t *pool)
{
    if (!item || !search->name)
        return;
    const char *meant[SPX_LIMIT_SUGGESTIONS];
    size_t count = 0;
    for (; count < first_count && count < SPX_LIMIT_SUGGESTIONS; count++)
        meant[count] = first[count];
    for (size_t k = 0; k < search->kept && count < SPX_LIMIT_SUGGESTIONS; k++)
        meant[count++] =
            *prefix ? apr_pstrcat(pool, prefix, search->nearest[k], NULL) : search->nearest[k];
    spx_diagnostic_suggest(checker->diagnostics, item, meant, count);
}

/* "m.name" for each module m that module imports whose exported function,
 * const or struct (kind) is named name: what a use of name without its
 * module probably meant. Up to SPX_LIMIT_SUGGESTIONS into meant; the count. */
size_t spx_checker_exported_elsewhere(checker_t *checker, const spx_module_t *module,
                                      const char *name, int kind, const char **meant,
                                      apr_pool_t *pool)
{
    size_t count = 0;
    for (apr_size_t i = 0; name && i < module->import_count && count < SPX_LIMIT_SUGGESTIONS; i++) {
        const spx_module_t *target = module->imports[i].target;
        apr_size_t *index = target ? spx_checker_module_index(checker, target->name) : NULL;
        int exported = 0;
        if (index && kind == EXPORTED_FUNCTION && target->function_slots) {
            const spx_function_t *function = spx_module_function(target, name);
            exported = function && function->exported;
        } else if (index && kind == EXPORTED_CONST && checker->consts[*index]) {
            const spx_const_t *constant = spx_name_table_get(checker->consts[*index], name);
            exported = constant && constant->exported;
        } else if (index && kind == EXPORTED_STRUCT && checker->structs[*index]) {
            const spx_struct_t *structure = spx_name_table_get(checker->structs[*index], name);
            exported = structure && structure->exported;
        }
        if (exported)
            meant[count++] = apr_pstrcat(pool, target->name, ".", name, NULL);
    }
    return count;
}

/* A note at the first declaration of what item says is declared twice. */
void spx_checker_note_first(checker_t *checker, spx_diagnostic_t *item, const char *path,
                            spx_span_t first)
{
    spx_diagnostic_note(checker->diagnostics, item, path, first, "first declared here");
}

/* ---- entry ---------------------------------------------------------------- */

spx_checker_t *spx_checker_make(spx_module_t **modules, apr_size_t module_count, apr_pool_t *pool,
                                spx_diagnostics_t *diagnostics)
{
    checker_t *checker = apr_pcalloc(pool, sizeof(*checker));
    checker->modules = modules;
    checker->module_count = module_count;
    checker->pool = pool;
    checker->types = spx_types_make(pool);
    checker->basic = spx_types_basic(checker->types, SPX_TYPE_ERROR);
    for (int kind = SPX_TYPE_ERROR; kind <= SPX_TYPE_UNIT; kind++)
        SPX_ASSERT(checker->basic + kind == spx_types_basic(checker->types, (spx_type_t)kind));
    checker->diagnostics = diagnostics;
    checker->unknown_structs = apr_hash_make(pool);
    apr_pool_create(&checker->scratch, pool);
    apr_pool_create(&checker->function, checker->scratch);
    checker->names = spx_name_table_make(checker->scratch); /* cleared for each function */
    checker->module_index = spx_name_table_make(checker->scratch);
    checker->import_is_edge = apr_pcalloc(checker->scratch, (module_count + 1) * sizeof(char *));
    checker->imports =
        apr_pcalloc(checker->scratch, (module_count + 1) * sizeof(spx_name_table_t *));
    checker->spine = apr_array_make(checker->scratch, 64, sizeof(spx_expr_t *));
    checker->consts =
        apr_pcalloc(checker->scratch, (module_count + 1) * sizeof(spx_name_table_t *));
    checker->structs =
        apr_pcalloc(checker->scratch, (module_count + 1) * sizeof(spx_name_table_t *));
    checker->enums = apr_pcalloc(checker->scratch, (module_count + 1) * sizeof(spx_name_table_t *));

    /* Module names are unique (the manifest checks it); the first one wins. */
    for (apr_size_t i = 0; i < module_count; i++) {
        if (spx_name_table_get(checker->module_index, modules[i]->name))
            continue;
        apr_size_t *index = apr_palloc(checker->scratch, sizeof(*index));
        *index = i;
        spx_name_table_put(checker->module_index, modules[i]->name, spx_name_hash(modules[i]->name),
                           index);
    }
    return checker;
}

void spx_checker_declare(spx_checker_t *checker, apr_size_t module_index)
{
    spx_checker_resolve_imports(checker, module_index);
    spx_checker_collect_functions(checker, checker->modules[module_index]);
    spx_checker_collect_items(checker, module_index);
}

void spx_checker_check_items(spx_checker_t *checker, apr_size_t module_index)
{
    spx_module_t *module = checker->modules[module_index];
    for (apr_size_t j = 0; j < module->struct_count; j++)
        spx_checker_check_struct(checker, module_index, module->structs[j]);
    for (apr_size_t j = 0; j < module->enum_count; j++)
        spx_checker_check_enum(checker, module_index, module->enums[j]);
}

void spx_checker_check_functions(spx_checker_t *checker, apr_size_t module_index)
{
    spx_module_t *module = checker->modules[module_index];
    for (apr_size_t j = 0; j < module->function_count; j++)
        spx_checker_check_function(checker, module_index, module->functions[j]);
}

void spx_checker_check_bodies(spx_checker_t *checker, apr_size_t module_index)
{
    spx_checker_check_items(checker, module_index);
    spx_checker_check_functions(checker, module_index);
}

/* What needs every module declared (and, for W0601, every body checked):
 * import cycles (E0304), struct containment cycles (E0323), every const
 * evaluated (E0315, E0401, E0405, E0414 to E0416), unused imports (W0601);
 * then the checker's scratch memory is given back. The warnings stay
 * (spx_ast.h says who drops them). */
void spx_checker_finish(spx_checker_t *checker)
{
    spx_checker_find_import_cycles(checker);
    spx_checker_find_struct_cycles(checker);
    spx_checker_evaluate_consts(checker);
    spx_checker_check_map_const_keys(checker);
    spx_checker_find_unused_imports(checker);
    apr_pool_destroy(checker->scratch);
}

void spx_check_program(spx_module_t **modules, apr_size_t module_count, apr_pool_t *pool,
                       spx_diagnostics_t *diagnostics)
{
    spx_checker_t *checker = spx_checker_make(modules, module_count, pool, diagnostics);
    for (apr_size_t i = 0; i < module_count; i++)
        spx_checker_declare(checker, i);
    for (apr_size_t i = 0; i < module_count; i++)
        spx_checker_check_bodies(checker, i);
    spx_checker_finish(checker);
    /* Warnings speak of a program that is otherwise right: beside an
     * error they would often be its echo (a local whose use did not
     * parse), so only the errors are kept. */
    if (spx_diagnostics_error_count(diagnostics) > 0)
        spx_diagnostics_drop_warnings(diagnostics);
}
