/*
 * checker_internal.h: what the files of the checker share, and nothing
 * outside them reads: the checker's state (spx_checker_t), the scope of the
 * function being checked, the builtins' signatures, and the functions one
 * file of the checker calls in another. The checker's public face, for
 * Phase A and the tests, is in spx_ast.h (spx_checker_make ...
 * spx_check_program).
 *
 * The files, one idea each (checker.c's top comment says how they fit):
 *   checker.c             the state, the entry points, reporting and suggestions
 *   checker_imports.c     imports, import cycles, unused imports
 *   checker_items.c       functions, structs and consts as items: the one
 *                         namespace of a module, written types, struct cycles
 *   checker_consts.c      const evaluation (the check-time interpreter)
 *   checker_expressions.c the types of expressions in function bodies
 *   checker_statements.c  locals, statements, blocks and whole functions
 *   checker_moves.c       move on last use: the liveness pass over a checked body
 */
#ifndef SPX_CHECKER_INTERNAL_H
#define SPX_CHECKER_INTERNAL_H

#include "spx_ast.h"
#include "spx_name_table.h"
#include "spx_suggest.h"

/* ---- state ---------------------------------------------------------------- */

struct spx_checker_t {
    spx_module_t **modules;
    apr_size_t module_count;
    apr_pool_t *pool;        /* the program's pool: the modules' function tables live here */
    apr_pool_t *scratch;     /* everything else; destroyed by spx_checker_finish */
    apr_pool_t *function;    /* one function's names and locals; cleared after it */
    spx_name_table_t *names; /* the names of the function being checked (scope_t.names) */
    spx_diagnostics_t *diagnostics;
    spx_name_table_t *module_index; /* name -> apr_size_t * (index in modules) */
    char **import_is_edge;          /* per module, per import: first import of a real module */
    spx_name_table_t **imports;     /* per module: name -> its first spx_import_t * */
    apr_array_header_t *spine;      /* spx_expr_t *: stack of operator chains being checked */
    spx_name_table_t **consts;      /* v2, per module: name -> its spx_const_t * (the first item) */
    spx_name_table_t **structs; /* v2, per module: name -> its spx_struct_t * (the first item) */
    spx_types_t *types; /* v2: every value type, made once (in pool: expressions keep them) */
    /* The basic types (spx_types_basic of SPX_TYPE_ERROR .. SPX_TYPE_UNIT,
     * one array in spx_type_t's order), for basic_type without a call. */
    const spx_vtype_t *basic;
    apr_hash_t *unknown_structs; /* "module owner.Name" already reported as E0319 */
    spx_name_table_t **enums;    /* v3, per module: name -> its spx_enum_t * (the first item) */
    /* v3: the literal and const keys of map literals with a const key, in
     * scratch, compared once consts are evaluated (checker_map.c); NULL
     * while there is none */
    apr_array_header_t *map_key_groups;
    const spx_data_entry_t *data; /* v3: the entries read_data may name */
    apr_size_t data_count;
};
typedef spx_checker_t checker_t;

/* One parameter or let/var of the function being checked. */
typedef struct local_t {
    int slot;
    const spx_vtype_t *vtype; /* its type; error when its declaration was an error */
    int is_var;
    int is_parameter;
    int is_for;               /* v2: a for variable (immutable, scoped to the loop body) */
    int is_binder;            /* v3: a match binder (immutable, scoped to its arm) */
    int visible;              /* declared and its block not yet closed */
    int used;                 /* named after its declaration (read, written, called on) */
    const spx_name_t *name;   /* as declared (its text NULL when not read) */
    struct local_t *previous; /* an earlier declaration of the same name */
    struct local_t *outer;    /* the innermost local visible where this one was declared */
} local_t;

typedef struct scope_t {
    checker_t *checker;
    spx_module_t *module;
    spx_name_table_t *imports; /* the module's: name -> its first spx_import_t * */
    spx_name_table_t *consts;  /* the module's: name -> spx_const_t * */
    spx_name_table_t *structs; /* the module's: name -> spx_struct_t * */
    spx_name_table_t *enums;   /* v3, the module's: name -> spx_enum_t * */
    apr_size_t module_index;
    spx_function_t *function;
    apr_pool_t *pool;           /* the checker's function pool */
    spx_name_table_t *names;    /* name -> local_t * (the latest declaration); the checker's */
    apr_array_header_t *locals; /* local_t *, indexed by slot */
    local_t *innermost;         /* the latest visible local: its outer chain is every visible one */
    int loop_depth;             /* v2: for and while bodies around the statement being checked */
    /* v2: set just before check_expr of a value whose type is expected
     * (an annotated let, an assignment, a user function's argument, push's
     * argument, return, the right of == and !=): an array literal there may
     * be "[]". check_expr takes it and clears it. */
    int expects;
    const spx_vtype_t *expected; /* with expects: the expected type, or NULL if unknown */
    const spx_vtype_t *result;   /* the function's result type (error when it does not resolve) */
    /* The name being checked as the base of a field access (x.f), or NULL:
     * unknown, it may be a module misspelt, so the imports are suggested. */
    const spx_name_t *field_base;
} scope_t;

/* ---- checker.c: builtins, operators, reporting, suggestions ------------- */

/* Offers search the name of every builtin a call may name (spx_builtins.h's
 * CALL rows, spx_builtin_called). */
void spx_checker_offer_builtins(spx_suggest_t *search);

/* An operator as written: "+", "<<", unary "-" ... */
const char *spx_checker_operator_name(spx_operator_t op);
/* The typing of operators, one table for bodies and consts: a unary
 * operator's type, which its operand must have too (! bool, - and ~ int). */
spx_type_t spx_checker_unary_type(spx_operator_t op);
/* A binary operator on operands of types left and right: *ok when it takes
 * them (== and != two equal types, + two ints or two strs (v3: or two
 * arrays of one type), && and || two bools, v3: < <= > >= two ints or two
 * strs, the rest two ints), and the type it gives (for +, the type of a
 * side that is int or str, an array when the left is one, else error),
 * given even when *ok is 0. */
spx_type_t spx_checker_binary_type(spx_operator_t op, const spx_vtype_t *left,
                                   const spx_vtype_t *right, int *ok);

/* Suggestions, the same way at every unknown name: a search for the names
 * near name (spx_suggest.h) with room for what first_count names leave, and
 * at most SPX_LIMIT_SUGGEST_CANDIDATES candidates examined; the caller
 * offers it the names that could be meant where they lie (the spx_checker_
 * offer_ functions, nearest scope first; an offer past the limit examines
 * nothing), nothing copied, then gives item
 * first[0..first_count) (at most SPX_LIMIT_SUGGESTIONS) and what the search
 * found, each written as prefix + name ("util." for a function of module
 * util). */
void spx_checker_search(spx_suggest_t *search, const char *name, size_t first_count);
void spx_checker_suggest(checker_t *checker, spx_diagnostic_t *item, const char *const *first,
                         size_t first_count, const spx_suggest_t *search, const char *prefix,
                         apr_pool_t *pool);

enum { EXPORTED_FUNCTION, EXPORTED_CONST, EXPORTED_STRUCT };

/* "m.name" for each module m that module imports whose exported function,
 * const or struct (kind) is named name: what a use of name without its
 * module probably meant. Up to SPX_LIMIT_SUGGESTIONS into meant; the count. */
size_t spx_checker_exported_elsewhere(checker_t *checker, const spx_module_t *module,
                                      const char *name, int kind, const char **meant,
                                      apr_pool_t *pool);

/* A note at the first declaration of what item says is declared twice. */
void spx_checker_note_first(checker_t *checker, spx_diagnostic_t *item, const char *path,
                            spx_span_t first);

/* ---- checker_imports.c --------------------------------------------------- */

/* The index in checker->modules of the module called name, or NULL. */
apr_size_t *spx_checker_module_index(checker_t *checker, const char *name);
/* Pass 1 for module index: each import resolved to its module. */
void spx_checker_resolve_imports(checker_t *checker, apr_size_t index);
/* A cycle's text, "PREFIX a -> b -> c -> a" over names[0..length-1]
 * rotated to start at the smallest name (whose index goes to *start):
 * import, const and struct cycles are all reported so. */
const char *spx_checker_cycle_text(const char *prefix, const char *const *names, int length,
                                   int *start, apr_pool_t *pool);
/* E0304 for each cycle of the import graph. */
void spx_checker_find_import_cycles(checker_t *checker);
/* W0601 for each import that nothing of its module names. */
void spx_checker_find_unused_imports(checker_t *checker);
/* Offers search the names of the modules a module imports. */
void spx_checker_offer_imports(const spx_module_t *module, spx_suggest_t *search);

/* ---- checker_items.c ----------------------------------------------------- */

/* Pass 2: a module's table of functions by name (E0305, E0306), then its one
 * namespace of functions, structs and consts (E0314). */
void spx_checker_collect_functions(checker_t *checker, spx_module_t *module);
void spx_checker_collect_items(checker_t *checker, apr_size_t index);
/* Offers search the names of the consts of a module (exported ones only,
 * for another module). */
void spx_checker_offer_consts(const spx_module_t *module, int exported_only, spx_suggest_t *search);
/* 1 when module declared an item named name whose syntax failed. */
int spx_checker_names_unreadable_item(const spx_module_t *module, const char *name);
/* m.X where m names an import of the module: the const X of m, or NULL
 * after reporting why not (E0316; E0317 still returns it). *resolved is 1
 * when the expression was one of a module (so it is not a field). */
const spx_const_t *spx_checker_module_const(checker_t *checker, const spx_module_t *module,
                                            spx_name_table_t *imports, const spx_expr_t *expr,
                                            int *resolved);
/* The struct a type names, or NULL after reporting why not (E0319, E0310;
 * E0320 still returns it). */
spx_struct_t *spx_checker_resolve_struct(checker_t *checker, apr_size_t module_index,
                                         const spx_type_syntax_t *syntax);
/* Checks a type as written; 1 when it is fine (exported_by: see there). */
int spx_checker_check_type_syntax(checker_t *checker, apr_size_t module_index,
                                  const spx_type_syntax_t *syntax, const char *exported_by);
/* A struct declaration: unique fields (E0322), visible field types. */
void spx_checker_check_struct(checker_t *checker, apr_size_t module_index, spx_struct_t *structure);
/* The type of a parameter, result, field or annotation written in module
 * (basic when syntax is NULL; error, silently, when it does not resolve). */
const spx_vtype_t *spx_checker_written_type(checker_t *checker, const spx_module_t *module,
                                            const spx_type_syntax_t *syntax, spx_type_t basic);
/* E0323 for each struct that contains itself by value. */
void spx_checker_find_struct_cycles(checker_t *checker);

/* ---- checker_enums.c (v3: enums and match) -------------------------------- */

/* An enum declaration: unique variants (E0327), visible payload types
 * (E0319 to E0321, as for a struct's fields). */
void spx_checker_check_enum(checker_t *checker, apr_size_t module_index, spx_enum_t *enumeration);
/* The enum a type name names (Name of module_index, or m.Name of an
 * imported m), or NULL: silent. */
spx_enum_t *spx_checker_enum_named(checker_t *checker, apr_size_t module_index,
                                   const char *module_name, const char *name);
/* E.V and m.E.V written as a field: when it is a variant, types it, turns
 * expr into an SPX_EXPR_VARIANT and returns 1 (E0326, E0403, E0320 reported
 * as found); 0 when it is no variant (a field or a module's const). */
int spx_checker_check_variant_field(scope_t *scope, spx_expr_t *expr);
/* E.V(args) and m.E.V(args) written as a call: the same. */
int spx_checker_check_variant_call(scope_t *scope, spx_expr_t *expr);
/* Re-types the payloads of an expr that is already a VARIANT. */
void spx_checker_check_variant(scope_t *scope, spx_expr_t *expr);
/* A match statement (E0429, E0320, E0326, E0430 to E0433, W0605, binders);
 * 1 when it covers every variant and every arm returns. */
int spx_checker_check_match(scope_t *scope, spx_stmt_t *stmt);

/* ---- checker_consts.c ---------------------------------------------------- */

/* Every const of the program evaluated, modules in order (E0315, E0405,
 * E0414, E0415, E0416, E0401). */
void spx_checker_evaluate_consts(checker_t *checker);

/* ---- checker_expressions.c ----------------------------------------------- */

/* Types expr and everything in it (see there). */
void spx_checker_check_expr(scope_t *scope, spx_expr_t *expr);
/* v3: assert_eq(a, b[, message]), a call of the builtin (checker_assert_eq.c):
 * its arguments typed and checked; its type, unit. */
const spx_vtype_t *spx_checker_check_assert_eq(scope_t *scope, spx_expr_t *call);
/* v3: the notes a newcomer needs on an operator that does not take its
 * operands (E0405, item): itos for str + int, a byte literal for s[i]
 * compared with a str (checker_hints.c). */
void spx_checker_hint_operands(scope_t *scope, spx_diagnostic_t *item, const spx_expr_t *operation);
/* v3: type a binary operation whose operands are typed already (a compound
 * assignment's "P op e"), reporting as an operator in an expression does. */
void spx_checker_check_operation(scope_t *scope, spx_expr_t *operation);
/* A unit value where a value is needed ("stored", "an operand", ...): E0402. */
void spx_checker_report_unit(scope_t *scope, const spx_expr_t *expr, const char *use);

/* v3 (checker_input.c): read_data's argument names a declared entry
 * (E0324, E0325); sets the call's data. */
void spx_checker_check_read_data(scope_t *scope, spx_expr_t *call);
/* E0308 for a name that is no visible local (read: a value is read). */
void spx_checker_report_unknown_name(scope_t *scope, const spx_name_t *name, int read);

/* ---- checker_statements.c ------------------------------------------------ */

/* The visible local called name (marked used), or NULL. */
local_t *spx_checker_lookup(scope_t *scope, const char *name);
/* v3, for match arms (checker_enums.c): declare an immutable binder;
 * check a block (1 when it returns on every path); close the scope opened
 * where first locals and outer were. */
int spx_checker_declare_binder(scope_t *scope, const spx_name_t *name, const spx_vtype_t *type);
int spx_checker_check_block(scope_t *scope, spx_block_t *block);
void spx_checker_close_scope(scope_t *scope, int first, local_t *outer);
/* Pass 3 for one function: its parameters, body, returns, unused locals. */
void spx_checker_check_function(checker_t *checker, apr_size_t module_index,
                                spx_function_t *function);

/* ---- checker_moves.c ------------------------------------------------------ */

/* Move on last use: marks the reads of function's body (checked, its
 * local_count set) that move (spx_expr_t's name.moves); scratch in pool. */
void spx_checker_mark_moves(spx_function_t *function, apr_pool_t *pool);
/* ---- checker_methods.c ---------------------------------------------------- */

/* The type of call, a method e.name(args) (receiver e, or a local x of
 * x.name(args)), after checking its receiver, its arguments and the
 * method (E0420, E0421, E0312, E0438, E0403, E0404); sets the call's
 * builtin and, for a writing method, its receiver_slot. */
const spx_vtype_t *spx_checker_check_method(scope_t *scope, spx_expr_t *call);
/* ---- checker_map.c (language v3's maps) ----------------------------------- */

/* {K: V} as written: K int, str or bool (E0434 at the key type), V checked
 * as any written type; 1 when it is fine (exported_by: see
 * spx_checker_check_type_syntax). */
int spx_checker_check_map_type(checker_t *checker, apr_size_t module_index,
                               const spx_type_syntax_t *syntax, const char *exported_by);
/* E0437 for the const keys of map literals, once every const is evaluated
 * (spx_checker_finish). */
void spx_checker_check_map_const_keys(checker_t *checker);
/* The type {K: V} written in module names (error, silently, when a part
 * does not resolve or the key is not int, str or bool). */
const spx_vtype_t *spx_checker_written_map_type(checker_t *checker, const spx_module_t *module,
                                                const spx_type_syntax_t *syntax);
/* 0 for an array literal none of whose elements types itself and a map
 * literal none of whose entries has a key and a value that type
 * themselves ([], [[]], {}, {1: []}): they need an expected type. */
int spx_checker_types_itself(const spx_expr_t *e);
/* {k: v, ...} (expected, type: see scope_t.expects): E0434, E0435, E0436,
 * E0437. */
void spx_checker_check_map_literal(scope_t *scope, spx_expr_t *expr, int expected,
                                   const spx_vtype_t *type);
/* m[k] and m[i..j] once the base m is checked and is a map: E0418, E0417. */
void spx_checker_check_map_index(scope_t *scope, spx_expr_t *expr);

/* ---- small helpers of the bodies' two files ------------------------------- */

static inline spx_diagnostic_t *report(scope_t *scope, spx_diagnostic_code_t code, spx_span_t span,
                                       const char *message)
{
    return spx_diagnostics_add(scope->checker->diagnostics, code, scope->module->path, span, "%s",
                               message);
}

/* Why a local cannot be assigned: "a parameter", ... */
static inline const char *local_kind(const local_t *local)
{
    return local->is_parameter ? "a parameter"
           : local->is_for     ? "a for variable"
           : local->is_binder  ? "a match binder"
                               : "declared with 'let'";
}

static inline spx_type_t type_of(const spx_expr_t *expr)
{
    return expr ? expr->type : SPX_TYPE_ERROR;
}

/* spx_types_basic(scope->checker->types, kind), read from checker->basic. */
static inline const spx_vtype_t *basic_type(scope_t *scope, spx_type_t kind)
{
    return scope->checker->basic + ((unsigned)kind <= SPX_TYPE_UNIT ? kind : SPX_TYPE_ERROR);
}

/* expr's whole type: its kind, or for arrays and structs its vtype. */
static inline const spx_vtype_t *vtype_of(scope_t *scope, const spx_expr_t *expr)
{
    if (expr &&
        (expr->type == SPX_TYPE_ARRAY || expr->type == SPX_TYPE_STRUCT ||
         expr->type == SPX_TYPE_ENUM || expr->type == SPX_TYPE_MAP) &&
        expr->vtype)
        return expr->vtype;
    return basic_type(scope, type_of(expr));
}

/* expr's type as messages name it: "int", "[str]", "geo.Point". */
static inline const char *type_text(scope_t *scope, const spx_expr_t *expr)
{
    return spx_vtype_name(vtype_of(scope, expr), scope->pool);
}

static inline void set_type(spx_expr_t *expr, const spx_vtype_t *type)
{
    expr->type = type->kind;
    expr->vtype = type->kind == SPX_TYPE_ARRAY || type->kind == SPX_TYPE_STRUCT ||
                          type->kind == SPX_TYPE_ENUM || type->kind == SPX_TYPE_MAP
                      ? type
                      : NULL;
}

/* The next check_expr's value is expected to have type (NULL: a type that
 * is not known, because of an earlier diagnostic). */
static inline void expect(scope_t *scope, const spx_vtype_t *type)
{
    scope->expects = 1;
    scope->expected = type && type->kind != SPX_TYPE_ERROR ? type : NULL;
}

#endif /* SPX_CHECKER_INTERNAL_H */
