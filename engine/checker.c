/*
 * checker.c: the semantic checker of Semaprax (language.md, "Files and
 * modules", "Types and rules", "Builtins").
 *
 * The checker takes the parsed modules of one program and, in three passes,
 * turns the syntax trees into the linked HIR of spx_ast.h. Passes 1 and 2
 * run per module as soon as it is parsed (spx_checker_declare), pass 3 per
 * module once the modules it imports are declared
 * (spx_checker_check_bodies), and the cycle search at the end
 * (spx_checker_finish):
 *   1. imports: each import is resolved to its module (undeclared, twice,
 *      itself), then the import graph is searched for cycles;
 *   2. functions: every module's functions_by_name is built (duplicates,
 *      builtin names), so that pass 3 can resolve calls across modules;
 *   3. bodies: every function is walked once, in source order, resolving
 *      names to local slots, calls to their targets or builtins, typing every
 *      expression and finding the paths that do not return.
 * Codes E03xx are names and imports, E04xx types (docs/diagnostics-checker.md
 * lists each one with a program that triggers it).
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
 * iteration, and so without a depth bound, are walked iteratively here: left-
 * deep operator chains ("1 + 1 + ... + 1") go through an explicit stack, and
 * "else if" chains through a loop. The import graph is searched with an
 * explicit stack as well.
 *
 * Language v2 (language-v2.md), construct by construct. Checked: struct
 * declarations (fields, types naming visible structs, the export rule,
 * containment cycles), consts (evaluated at check time), one namespace per
 * module, locals that take an item's name,
 * bitwise operators, for over a range, break and continue, chr, stoi and
 * assert with a message, for variables' scope, and the types of array and
 * struct values (spx_vtype_t, interned in checker->types: parameters,
 * results and lets of such types, index, slice, len, fields, array and
 * struct literals, ==, for over an array, arguments, returns,
 * assignments to variables and places, push and pop). Consts and struct cycles are checked in
 * spx_checker_finish, when every module is declared.
 */
#include "spx_assert.h"
#include "spx_ast.h"

#include "spx_limits.h"
#include "spx_suggest.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- constant tables ------------------------------------------------------ */

typedef struct builtin_info_t {
    const char *name;
    spx_builtin_t builtin;
    spx_type_t parameter; /* one argument; assert takes a second, the message (str) */
    spx_type_t result;
    int since_v2; /* chr and stoi: language v2 */
} builtin_info_t;

static const builtin_info_t builtins[] = {
    {"print", SPX_BUILTIN_PRINT, SPX_TYPE_STR, SPX_TYPE_UNIT, 0},
    {"itos", SPX_BUILTIN_ITOS, SPX_TYPE_INT, SPX_TYPE_STR, 0},
    {"len", SPX_BUILTIN_LEN, SPX_TYPE_STR, SPX_TYPE_INT, 0},
    {"assert", SPX_BUILTIN_ASSERT, SPX_TYPE_BOOL, SPX_TYPE_UNIT, 0},
    {"chr", SPX_BUILTIN_CHR, SPX_TYPE_INT, SPX_TYPE_STR, 1},
    {"stoi", SPX_BUILTIN_STOI, SPX_TYPE_STR, SPX_TYPE_INT, 1},
};

static const builtin_info_t *find_builtin(const char *name)
{
    for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
        if (strcmp(builtins[i].name, name) == 0)
            return &builtins[i];
    return NULL;
}

/* Indexed by spx_operator_t. */
static const char *const operator_text[] = {"||", "&&", "==", "!=", "<",  "<=", ">",
                                            ">=", "+",  "-",  "*",  "/",  "%",  "-",
                                            "!",  "|",  "^",  "&",  "<<", ">>", "~"};

static const char *operator_name(spx_operator_t op)
{
    if ((size_t)op < sizeof(operator_text) / sizeof(operator_text[0]))
        return operator_text[op];
    return "?";
}

/* ---- state ---------------------------------------------------------------- */

struct spx_checker_t {
    spx_module_t **modules;
    apr_size_t module_count;
    apr_pool_t *pool;     /* the program's pool: functions_by_name lives here */
    apr_pool_t *scratch;  /* everything else; destroyed by spx_checker_finish */
    apr_pool_t *function; /* one function's names and locals; cleared after it */
    spx_diagnostics_t *diagnostics;
    apr_hash_t *module_index;  /* name -> apr_size_t * (index in modules) */
    char **import_is_edge;     /* per module, per import: first import of a real module */
    apr_hash_t **imports;      /* per module: name -> its first spx_import_t * */
    apr_array_header_t *spine; /* spx_expr_t *: stack of operator chains being checked */
    apr_hash_t **consts;       /* v2, per module: name -> its spx_const_t * (the first item) */
    apr_hash_t **structs;      /* v2, per module: name -> its spx_struct_t * (the first item) */
    spx_types_t *types; /* v2: every value type, made once (in pool: expressions keep them) */
    apr_hash_t *unknown_structs; /* "module owner.Name" already reported as E0319 */
};
typedef spx_checker_t checker_t;

/* One parameter or let/var of the function being checked. */
typedef struct local_t {
    int slot;
    spx_type_t type;          /* SPX_TYPE_ERROR when its declaration was an error */
    const spx_vtype_t *vtype; /* the whole type (its kind is type) */
    int is_var;
    int is_parameter;
    int is_for;               /* v2: a for variable (immutable, scoped to the loop body) */
    int visible;              /* declared and its block not yet closed */
    int used;                 /* named after its declaration (read, written, called on) */
    const spx_name_t *name;   /* as declared (its text NULL when not read) */
    struct local_t *previous; /* an earlier declaration of the same name */
} local_t;

typedef struct scope_t {
    checker_t *checker;
    spx_module_t *module;
    apr_hash_t *imports; /* the module's: name -> its first spx_import_t * */
    apr_hash_t *consts;  /* the module's: name -> spx_const_t * */
    apr_hash_t *structs; /* the module's: name -> spx_struct_t * */
    apr_size_t module_index;
    spx_function_t *function;
    apr_pool_t *pool;           /* the checker's function pool */
    apr_hash_t *names;          /* name -> local_t * (the latest declaration) */
    apr_array_header_t *locals; /* local_t *, indexed by slot */
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

/* Why a local cannot be assigned: "a parameter", ... */
static const char *local_kind(const local_t *local)
{
    return local->is_parameter ? "a parameter"
           : local->is_for     ? "a for variable"
                               : "declared with 'let'";
}

static spx_diagnostic_t *report(scope_t *scope, spx_diagnostic_code_t code, spx_span_t span,
                                const char *message)
{
    return spx_diagnostics_add(scope->checker->diagnostics, code, scope->module->path, span, "%s",
                               message);
}

/* Give item first[0..first_count) (at most SPX_LIMIT_SUGGESTIONS), then the
 * names among candidates (const char *) nearest to name, each written as
 * prefix + name ("util." for a function of module util). */
static void suggest_after(checker_t *checker, spx_diagnostic_t *item, const char *const *first,
                          size_t first_count, const char *name,
                          const apr_array_header_t *candidates, const char *prefix,
                          apr_pool_t *pool)
{
    if (!item || !name)
        return;
    const char *meant[SPX_LIMIT_SUGGESTIONS];
    size_t count = 0;
    for (; count < first_count && count < SPX_LIMIT_SUGGESTIONS; count++)
        meant[count] = first[count];
    size_t nearest_count =
        spx_suggest_nearest(name, (const char *const *)candidates->elts, (size_t)candidates->nelts,
                            SPX_LIMIT_SUGGESTIONS - count, meant + count);
    for (size_t i = count; i < count + nearest_count; i++)
        meant[i] = apr_pstrcat(pool, prefix, meant[i], NULL);
    spx_diagnostic_suggest(checker->diagnostics, item, meant, count + nearest_count);
}

/* The same without names to put first. */
static void suggest(checker_t *checker, spx_diagnostic_t *item, const char *name,
                    const apr_array_header_t *candidates, const char *prefix, apr_pool_t *pool)
{
    suggest_after(checker, item, NULL, 0, name, candidates, prefix, pool);
}

static apr_size_t *module_index_of(checker_t *checker, const char *name);

enum { EXPORTED_FUNCTION, EXPORTED_CONST, EXPORTED_STRUCT };

/* "m.name" for each module m that module imports whose exported function,
 * const or struct (kind) is named name: what a use of name without its
 * module probably meant. Up to SPX_LIMIT_SUGGESTIONS into meant; the count. */
static size_t exported_elsewhere(checker_t *checker, const spx_module_t *module, const char *name,
                                 int kind, const char **meant, apr_pool_t *pool)
{
    size_t count = 0;
    for (apr_size_t i = 0; name && i < module->import_count && count < SPX_LIMIT_SUGGESTIONS; i++) {
        const spx_module_t *target = module->imports[i].target;
        apr_size_t *index = target ? module_index_of(checker, target->name) : NULL;
        int exported = 0;
        if (index && kind == EXPORTED_FUNCTION && target->functions_by_name) {
            const spx_function_t *function =
                apr_hash_get(target->functions_by_name, name, APR_HASH_KEY_STRING);
            exported = function && function->exported;
        } else if (index && kind == EXPORTED_CONST && checker->consts[*index]) {
            const spx_const_t *constant =
                apr_hash_get(checker->consts[*index], name, APR_HASH_KEY_STRING);
            exported = constant && constant->exported;
        } else if (index && kind == EXPORTED_STRUCT && checker->structs[*index]) {
            const spx_struct_t *structure =
                apr_hash_get(checker->structs[*index], name, APR_HASH_KEY_STRING);
            exported = structure && structure->exported;
        }
        if (exported)
            meant[count++] = apr_pstrcat(pool, target->name, ".", name, NULL);
    }
    return count;
}

/* A note at the first declaration of what item says is declared twice. */
static void note_first(checker_t *checker, spx_diagnostic_t *item, const char *path,
                       spx_span_t first)
{
    spx_diagnostic_note(checker->diagnostics, item, path, first, "first declared here");
}

/* The span of a keyword of size bytes at start (on one line). */
static spx_span_t keyword_span(spx_position_t start, uint32_t size)
{
    spx_span_t span = {start, start};
    span.end.column += size;
    span.end.offset += size;
    return span;
}

static spx_type_t type_of(const spx_expr_t *expr)
{
    return expr ? expr->type : SPX_TYPE_ERROR;
}

static const spx_vtype_t *basic_type(scope_t *scope, spx_type_t kind)
{
    return spx_types_basic(scope->checker->types, kind);
}

/* expr's whole type: its kind, or for arrays and structs its vtype. */
static const spx_vtype_t *vtype_of(scope_t *scope, const spx_expr_t *expr)
{
    if (expr && (expr->type == SPX_TYPE_ARRAY || expr->type == SPX_TYPE_STRUCT) && expr->vtype)
        return expr->vtype;
    return basic_type(scope, type_of(expr));
}

/* expr's type as messages name it: "int", "[str]", "geo.Point". */
static const char *type_text(scope_t *scope, const spx_expr_t *expr)
{
    return spx_vtype_name(vtype_of(scope, expr), scope->pool);
}

static void set_type(spx_expr_t *expr, const spx_vtype_t *type)
{
    expr->type = type->kind;
    expr->vtype = type->kind == SPX_TYPE_ARRAY || type->kind == SPX_TYPE_STRUCT ? type : NULL;
}

/* The next check_expr's value is expected to have type (NULL: a type that
 * is not known, because of an earlier diagnostic). */
static void expect(scope_t *scope, const spx_vtype_t *type)
{
    scope->expects = 1;
    scope->expected = type && type->kind != SPX_TYPE_ERROR ? type : NULL;
}

/* The callee as written: "f" or "m.f". */
static const char *callee_text(const spx_expr_t *call, apr_pool_t *pool)
{
    if (call->as.call->module.text)
        return apr_pstrcat(pool, call->as.call->module.text, ".", call->as.call->function.text,
                           NULL);
    return call->as.call->function.text;
}

/* A unit value where a value is needed ("stored", "an operand", ...): only a
 * call can have type unit, so the message names the function. */
static void report_unit(scope_t *scope, const spx_expr_t *expr, const char *use)
{
    const char *what = expr->kind == SPX_EXPR_CALL ? callee_text(expr, scope->pool) : "?";
    report(scope, SPX_E0402, expr->span,
           apr_psprintf(scope->pool, "'%s' returns unit, which cannot be %s", what, use));
}

/* ---- pass 1: imports ------------------------------------------------------ */

static apr_size_t *module_index_of(checker_t *checker, const char *name)
{
    return name ? apr_hash_get(checker->module_index, name, APR_HASH_KEY_STRING) : NULL;
}

static void resolve_imports(checker_t *checker, apr_size_t index)
{
    spx_module_t *module = checker->modules[index];
    apr_hash_t *seen = apr_hash_make(checker->scratch); /* name -> first import */
    checker->imports[index] = seen;
    checker->import_is_edge[index] = apr_pcalloc(checker->scratch, module->import_count + 1);
    for (apr_size_t i = 0; i < module->import_count; i++) {
        spx_import_t *import = &module->imports[i];
        const char *name = import->module.text;
        import->target = NULL;
        if (!name)
            continue;
        spx_import_t *first = apr_hash_get(seen, name, APR_HASH_KEY_STRING);
        apr_size_t *target = module_index_of(checker, name);
        if (first) {
            /* Same resolution as the first import, one diagnostic for the repeat. */
            import->target = first->target;
            note_first(checker,
                       spx_diagnostics_add(checker->diagnostics, SPX_E0302, module->path,
                                           import->module.span, "module '%s' is imported twice",
                                           name),
                       module->path, first->module.span);
            continue;
        }
        apr_hash_set(seen, name, APR_HASH_KEY_STRING, import);
        if (strcmp(name, module->name) == 0) {
            /* target stays NULL: calls through it are not reported again. */
            spx_diagnostics_add(checker->diagnostics, SPX_E0303, module->path, import->module.span,
                                "module '%s' imports itself", name);
        } else if (!target) {
            apr_array_header_t *names =
                apr_array_make(checker->scratch, (int)checker->module_count, sizeof(char *));
            for (apr_size_t m = 0; m < checker->module_count; m++)
                if (m != index)
                    APR_ARRAY_PUSH(names, const char *) = checker->modules[m]->name;
            suggest(checker,
                    spx_diagnostics_add(checker->diagnostics, SPX_E0301, module->path,
                                        import->module.span, "module '%s' is not declared", name),
                    name, names, "", checker->scratch);
        } else {
            import->target = checker->modules[*target];
            checker->import_is_edge[index][i] = 1;
        }
    }
}

/* A cycle's text, "PREFIX a -> b -> c -> a" over names[0..length-1]
 * rotated to start at the smallest name (whose index goes to *start):
 * import, const and struct cycles are all reported so. */
static const char *cycle_text(const char *prefix, const char *const *names, int length, int *start,
                              apr_pool_t *pool)
{
    int first = 0;
    for (int i = 1; i < length; i++)
        if (strcmp(names[i], names[first]) < 0)
            first = i;
    apr_array_header_t *parts = apr_array_make(pool, 2 * length + 2, sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = prefix;
    for (int i = 0; i <= length; i++) {
        if (i > 0)
            APR_ARRAY_PUSH(parts, const char *) = " -> ";
        APR_ARRAY_PUSH(parts, const char *) = names[(first + i) % length];
    }
    *start = first;
    return apr_array_pstrcat(pool, parts, 0);
}

/* The cycle is stack[from..count-1], closed by an edge back to stack[from].
 * It is reported once, rotated to start at its smallest module name, at the
 * import of that module that leads to the next one. */
static void report_cycle(checker_t *checker, const apr_size_t *stack, apr_size_t from,
                         apr_size_t count)
{
    int length = (int)(count - from);
    const apr_size_t *cycle = stack + from;
    const char **names = apr_palloc(checker->scratch, (size_t)length * sizeof(*names));
    for (int i = 0; i < length; i++)
        names[i] = checker->modules[cycle[i]]->name;
    int start = 0;
    const char *message = cycle_text("import cycle: ", names, length, &start, checker->scratch);
    apr_size_t site_index = cycle[start];
    spx_module_t *site = checker->modules[site_index];
    spx_module_t *next = checker->modules[cycle[(start + 1) % length]];
    for (apr_size_t i = 0; i < site->import_count; i++) {
        if (checker->import_is_edge[site_index][i] && site->imports[i].target == next) {
            spx_diagnostics_add(checker->diagnostics, SPX_E0304, site->path,
                                site->imports[i].module.span, "%s", message);
            return;
        }
    }
}

/* Depth-first search over the import graph, roots and edges in source order,
 * with an explicit stack (a program may declare thousands of modules). Every
 * edge is looked at once; each edge that closes a cycle reports it. */
static void find_import_cycles(checker_t *checker)
{
    apr_size_t count = checker->module_count;
    if (count == 0)
        return;
    char *state = apr_pcalloc(checker->scratch, count); /* 0 new, 1 on the stack, 2 done */
    apr_size_t *depth_of = apr_pcalloc(checker->scratch, count * sizeof(apr_size_t));
    apr_size_t *stack = apr_pcalloc(checker->scratch, count * sizeof(apr_size_t));
    apr_size_t *next_import = apr_pcalloc(checker->scratch, count * sizeof(apr_size_t));
    for (apr_size_t root = 0; root < count; root++) {
        if (state[root] != 0)
            continue;
        apr_size_t depth = 0;
        stack[depth] = root;
        next_import[depth] = 0;
        depth_of[root] = depth++;
        state[root] = 1;
        while (depth > 0) {
            apr_size_t current = stack[depth - 1];
            spx_module_t *module = checker->modules[current];
            if (next_import[depth - 1] >= module->import_count) {
                state[current] = 2;
                depth--;
                continue;
            }
            apr_size_t i = next_import[depth - 1]++;
            if (!checker->import_is_edge[current][i])
                continue;
            apr_size_t target = *module_index_of(checker, module->imports[i].module.text);
            if (state[target] == 0) {
                state[target] = 1;
                stack[depth] = target;
                next_import[depth] = 0;
                depth_of[target] = depth++;
            } else if (state[target] == 1) {
                report_cycle(checker, stack, depth_of[target], depth);
            }
        }
    }
}

/* ---- pass 2: functions ---------------------------------------------------- */

static void collect_functions(checker_t *checker, spx_module_t *module)
{
    module->functions_by_name = apr_hash_make(checker->pool);
    for (apr_size_t i = 0; i < module->function_count; i++) {
        spx_function_t *function = module->functions[i];
        function->local_count = 0;
        const char *name = function->name.text;
        if (!name)
            continue;
        int taken = apr_hash_get(module->functions_by_name, name, APR_HASH_KEY_STRING) != NULL;
        const builtin_info_t *builtin = find_builtin(name);
        if (builtin && builtin->since_v2) {
            spx_diagnostics_add(checker->diagnostics, SPX_E0306, module->path, function->name.span,
                                "'%s' is a builtin since language v2 and cannot be defined", name);
        } else if (builtin) {
            spx_diagnostics_add(checker->diagnostics, SPX_E0306, module->path, function->name.span,
                                "'%s' is a builtin and cannot be defined", name);
        } else if (taken) {
            const spx_function_t *first =
                apr_hash_get(module->functions_by_name, name, APR_HASH_KEY_STRING);
            note_first(checker,
                       spx_diagnostics_add(
                           checker->diagnostics, SPX_E0305, module->path, function->name.span,
                           "function '%s' is already defined in module '%s'", name, module->name),
                       module->path, first->name.span);
        }
        /* Calls resolve to the first declaration, so a repeat adds nothing. */
        if (!taken)
            apr_hash_set(module->functions_by_name, name, APR_HASH_KEY_STRING, function);
    }
    module->unreadable_by_name = apr_hash_make(checker->pool);
    for (apr_size_t i = 0; i < module->unreadable_function_count; i++)
        apr_hash_set(module->unreadable_by_name, module->unreadable_functions[i],
                     APR_HASH_KEY_STRING, module);
}

/* One item's name, for the module's one namespace of functions, structs and
 * consts (language v2). */
typedef struct item_name_t {
    const char *name;
    spx_span_t span;
    int is_function;
    spx_const_t *constant;
    spx_struct_t *structure;
} item_name_t;

static int compare_items(const void *left, const void *right)
{
    const item_name_t *a = left, *b = right;
    if (a->span.start.offset != b->span.start.offset)
        return a->span.start.offset < b->span.start.offset ? -1 : 1;
    return 0;
}

/* Functions, structs and consts of a module share one namespace: a struct
 * or const whose name an earlier item took is E0314 (two functions are
 * E0305, above). The consts and structs are named for later lookups. */
static void collect_items(checker_t *checker, apr_size_t index)
{
    spx_module_t *module = checker->modules[index];
    checker->consts[index] = apr_hash_make(checker->scratch);
    checker->structs[index] = apr_hash_make(checker->scratch);
    apr_size_t count = module->function_count + module->struct_count + module->const_count;
    if (module->struct_count + module->const_count == 0)
        return;
    item_name_t *items = apr_pcalloc(checker->scratch, (count + 1) * sizeof(*items));
    apr_size_t n = 0;
    for (apr_size_t i = 0; i < module->function_count; i++)
        if (module->functions[i]->name.text)
            items[n++] = (item_name_t){module->functions[i]->name.text,
                                       module->functions[i]->name.span, 1, NULL, NULL};
    for (apr_size_t i = 0; i < module->struct_count; i++)
        if (module->structs[i]->name.text)
            items[n++] = (item_name_t){module->structs[i]->name.text, module->structs[i]->name.span,
                                       0, NULL, module->structs[i]};
    for (apr_size_t i = 0; i < module->const_count; i++)
        if (module->consts[i]->name.text)
            items[n++] = (item_name_t){module->consts[i]->name.text, module->consts[i]->name.span,
                                       0, module->consts[i], NULL};
    qsort(items, n, sizeof(*items), compare_items);
    apr_hash_t *first = apr_hash_make(checker->scratch);
    for (apr_size_t i = 0; i < n; i++) {
        item_name_t *earlier = apr_hash_get(first, items[i].name, APR_HASH_KEY_STRING);
        if (!earlier) {
            apr_hash_set(first, items[i].name, APR_HASH_KEY_STRING, &items[i]);
            if (items[i].constant)
                apr_hash_set(checker->consts[index], items[i].name, APR_HASH_KEY_STRING,
                             items[i].constant);
            if (items[i].structure)
                apr_hash_set(checker->structs[index], items[i].name, APR_HASH_KEY_STRING,
                             items[i].structure);
        } else if (!(earlier->is_function && items[i].is_function)) {
            note_first(checker,
                       spx_diagnostics_add(checker->diagnostics, SPX_E0314, module->path,
                                           items[i].span,
                                           "'%s' is already defined in module '%s' (functions, "
                                           "structs and consts share one namespace)",
                                           items[i].name, module->name),
                       module->path, earlier->span);
        }
    }
}

/* A call to name in module that no declaration answers: unknown (E0309),
 * unless a function of that name was declared with a header that did not
 * parse, whose syntax error already stands for it. */
static void report_unknown_function(scope_t *scope, const spx_module_t *module, spx_span_t span,
                                    const char *name)
{
    if (apr_hash_get(module->unreadable_by_name, name, APR_HASH_KEY_STRING))
        return;
    /* The functions that could be meant: the module's own and the builtins
     * from inside it, the exported ones (as m.f) from another. */
    int own = module == scope->module;
    apr_array_header_t *names =
        apr_array_make(scope->pool, (int)module->function_count + 8, sizeof(char *));
    for (apr_size_t i = 0; i < module->function_count; i++)
        if (module->functions[i]->name.text && (own || module->functions[i]->exported))
            APR_ARRAY_PUSH(names, const char *) = module->functions[i]->name.text;
    for (size_t i = 0; own && i < sizeof(builtins) / sizeof(builtins[0]); i++)
        APR_ARRAY_PUSH(names, const char *) = builtins[i].name;
    spx_diagnostic_t *item = report(
        scope, SPX_E0309, span,
        apr_psprintf(scope->pool, "unknown function '%s' in module '%s'", name, module->name));
    if (!own) {
        suggest(scope->checker, item, name, names,
                apr_pstrcat(scope->pool, module->name, ".", NULL), scope->pool);
        return;
    }
    /* f() where an imported m exports f: m.f first (the call lacks its
     * module), then the nearest of the module's own. */
    const char *meant[SPX_LIMIT_SUGGESTIONS];
    size_t count = exported_elsewhere(scope->checker, scope->module, name, EXPORTED_FUNCTION, meant,
                                      scope->pool);
    suggest_after(scope->checker, item, meant, count, name, names, "", scope->pool);
}

/* The names of the consts of a module (exported ones only, for another
 * module), for suggestions. */
static apr_array_header_t *const_names(const spx_module_t *module, int exported_only,
                                       apr_pool_t *pool)
{
    apr_array_header_t *names = apr_array_make(pool, (int)module->const_count + 1, sizeof(char *));
    for (apr_size_t i = 0; i < module->const_count; i++)
        if (module->consts[i]->name.text && (!exported_only || module->consts[i]->exported))
            APR_ARRAY_PUSH(names, const char *) = module->consts[i]->name.text;
    return names;
}

/* The names of the structs of a module (exported ones only, for another
 * module), for suggestions. */
static apr_array_header_t *struct_names(const spx_module_t *module, int exported_only,
                                        apr_pool_t *pool)
{
    apr_array_header_t *names = apr_array_make(pool, (int)module->struct_count + 1, sizeof(char *));
    for (apr_size_t i = 0; i < module->struct_count; i++)
        if (module->structs[i]->name.text && (!exported_only || module->structs[i]->exported))
            APR_ARRAY_PUSH(names, const char *) = module->structs[i]->name.text;
    return names;
}

/* The names of the modules a module imports, for suggestions. */
static apr_array_header_t *import_names(const spx_module_t *module, apr_pool_t *pool)
{
    apr_array_header_t *names = apr_array_make(pool, (int)module->import_count + 1, sizeof(char *));
    for (apr_size_t i = 0; i < module->import_count; i++)
        if (module->imports[i].module.text)
            APR_ARRAY_PUSH(names, const char *) = module->imports[i].module.text;
    return names;
}

/* The type a use of constant has: its declared type; error when that is
 * not int, bool or str (E0414, reported with the const). */
static spx_type_t const_type(const spx_const_t *constant)
{
    return constant->type_syntax ? SPX_TYPE_ERROR : constant->type;
}

/* 1 when module declared an item named name whose syntax failed. */
static int names_unreadable_item(const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; i < module->unreadable_item_count; i++)
        if (strcmp(module->unreadable_items[i], name) == 0)
            return 1;
    return 0;
}

/* m.X where m names an import of the module: the const X of m, or NULL
 * after reporting why not (unknown, E0316; it is still typed when it is
 * only not exported, E0317). *resolved is 1 when the expression was one of
 * a module (so it is not a field). */
static const spx_const_t *module_const(checker_t *checker, const spx_module_t *module,
                                       apr_hash_t *imports, const spx_expr_t *expr, int *resolved)
{
    *resolved = 0;
    const spx_expr_t *base = expr->as.field.base;
    if (!base || base->kind != SPX_EXPR_NAME || !base->as.name.name.text)
        return NULL;
    spx_import_t *import = apr_hash_get(imports, base->as.name.name.text, APR_HASH_KEY_STRING);
    if (!import)
        return NULL;
    *resolved = 1;
    import->used = 1;
    if (!import->target)
        return NULL; /* the import was reported */
    const char *name = expr->as.field.name.text;
    apr_size_t *target_index = module_index_of(checker, import->target->name);
    spx_const_t *constant =
        target_index && checker->consts[*target_index]
            ? apr_hash_get(checker->consts[*target_index], name, APR_HASH_KEY_STRING)
            : NULL;
    if (!constant) {
        if (!names_unreadable_item(import->target, name))
            suggest(checker,
                    spx_diagnostics_add(
                        checker->diagnostics, SPX_E0316, module->path, expr->as.field.name.span,
                        "unknown const '%s' in module '%s'", name, import->target->name),
                    name, const_names(import->target, 1, checker->function),
                    apr_pstrcat(checker->function, import->target->name, ".", NULL),
                    checker->function);
        return NULL;
    }
    if (!constant->exported)
        spx_diagnostics_add(checker->diagnostics, SPX_E0317, module->path, expr->as.field.name.span,
                            "const '%s' of module '%s' is not exported", name,
                            import->target->name);
    return constant;
}

/* ---- types (language v2): [T], Name and m.Name -------------------------- */

/* The struct a type names (Name of module_index, or m.Name of an imported
 * m), or NULL after reporting why not: an unknown struct (E0319), a module
 * not imported (E0310). A struct of another module that is not exported is
 * reported (E0320) and still returned. */
static spx_struct_t *resolve_struct(checker_t *checker, apr_size_t module_index,
                                    const spx_type_syntax_t *syntax)
{
    spx_module_t *module = checker->modules[module_index];
    const char *name = syntax->name.text;
    if (!name)
        return NULL;
    spx_module_t *owner = module;
    apr_hash_t *structs = checker->structs[module_index];
    if (syntax->module.text) {
        spx_import_t *import =
            apr_hash_get(checker->imports[module_index], syntax->module.text, APR_HASH_KEY_STRING);
        if (!import) {
            suggest(checker,
                    spx_diagnostics_add(checker->diagnostics, SPX_E0310, module->path,
                                        syntax->module.span, "module '%s' is not imported",
                                        syntax->module.text),
                    syntax->module.text, import_names(module, checker->function), "",
                    checker->function);
            return NULL;
        }
        import->used = 1;
        if (!import->target)
            return NULL; /* the import was reported */
        owner = import->target;
        apr_size_t *index = module_index_of(checker, owner->name);
        structs = index ? checker->structs[*index] : NULL;
        if (!structs)
            return NULL; /* not declared: cannot happen once its importer's bodies are checked */
    }
    spx_struct_t *found = apr_hash_get(structs, name, APR_HASH_KEY_STRING);
    if (!found) {
        /* One diagnostic per unknown struct in a module, not one per use. */
        const char *key = apr_psprintf(checker->pool, "%s %s.%s", module->name, owner->name, name);
        if (!names_unreadable_item(owner, name) &&
            !apr_hash_get(checker->unknown_structs, key, APR_HASH_KEY_STRING)) {
            apr_hash_set(checker->unknown_structs, key, APR_HASH_KEY_STRING, "");
            const char *meant[SPX_LIMIT_SUGGESTIONS];
            size_t count = owner == module
                               ? exported_elsewhere(checker, module, name, EXPORTED_STRUCT, meant,
                                                    checker->function)
                               : 0;
            suggest_after(
                checker,
                spx_diagnostics_add(checker->diagnostics, SPX_E0319, module->path,
                                    syntax->name.span, "unknown struct '%s' in module '%s'", name,
                                    owner->name),
                meant, count, name, struct_names(owner, owner != module, checker->function),
                owner != module ? apr_pstrcat(checker->function, owner->name, ".", NULL) : "",
                checker->function);
        }
        return NULL;
    }
    if (owner != module && !found->exported)
        spx_diagnostics_add(checker->diagnostics, SPX_E0320, module->path, syntax->name.span,
                            "struct '%s' of module '%s' is not exported", name, owner->name);
    return found;
}

/* Checks a type as written ([T], Name, m.Name: every struct it names must
 * exist and be visible); 1 when it is fine. exported_by, when set, names
 * the exported item ("function 'f'", "struct 'P'") whose signature or fields
 * it is part of: the structs it names must then be exported too (E0321).
 * Arrays nest only as deep as the parser allowed: walked as a loop. */
static int check_type_syntax(checker_t *checker, apr_size_t module_index,
                             const spx_type_syntax_t *syntax, const char *exported_by)
{
    while (syntax && syntax->kind == SPX_TYPE_SYNTAX_ARRAY)
        syntax = syntax->element;
    if (!syntax || syntax->kind != SPX_TYPE_SYNTAX_STRUCT)
        return 1;
    size_t before = spx_diagnostics_count(checker->diagnostics);
    spx_struct_t *found = resolve_struct(checker, module_index, syntax);
    if (!found)
        return 0;
    if (exported_by && !found->exported && found->module == checker->modules[module_index])
        spx_diagnostics_add(checker->diagnostics, SPX_E0321, checker->modules[module_index]->path,
                            syntax->span,
                            "%s is exported, so it cannot mention struct '%s', which is not "
                            "exported",
                            exported_by, found->name.text);
    return spx_diagnostics_count(checker->diagnostics) == before;
}

/* A struct declaration: unique fields (E0322) and field types that name
 * visible structs (exported ones, for an exported struct). Containment
 * cycles are found once every module is declared (find_struct_cycles). */
static void check_struct(checker_t *checker, apr_size_t module_index, spx_struct_t *structure)
{
    spx_module_t *module = checker->modules[module_index];
    apr_pool_t *pool = checker->function;
    apr_hash_t *fields = apr_hash_make(pool);
    const char *exported_by =
        structure->exported ? apr_psprintf(pool, "struct '%s'", structure->name.text) : NULL;
    for (apr_size_t i = 0; i < structure->field_count; i++) {
        const spx_param_t *field = &structure->fields[i];
        if (field->name.text) {
            const spx_param_t *first = apr_hash_get(fields, field->name.text, APR_HASH_KEY_STRING);
            if (first)
                note_first(checker,
                           spx_diagnostics_add(checker->diagnostics, SPX_E0322, module->path,
                                               field->name.span,
                                               "field '%s' is declared twice in struct '%s'",
                                               field->name.text, structure->name.text),
                           module->path, first->name.span);
            else
                apr_hash_set(fields, field->name.text, APR_HASH_KEY_STRING, field);
        }
        check_type_syntax(checker, module_index, field->type_syntax, exported_by);
    }
    apr_pool_clear(pool);
}

/* The struct that syntax (Name or m.Name, written in module) names, or
 * NULL; silent (check_type_syntax reports what does not resolve where the
 * type is written). */
static spx_struct_t *written_struct(checker_t *checker, const spx_module_t *module,
                                    const spx_type_syntax_t *syntax)
{
    if (!syntax || syntax->kind != SPX_TYPE_SYNTAX_STRUCT || !syntax->name.text)
        return NULL;
    apr_size_t *index = module_index_of(checker, module->name);
    if (!index)
        return NULL;
    apr_hash_t *structs = checker->structs[*index];
    if (syntax->module.text) {
        const spx_import_t *import =
            apr_hash_get(checker->imports[*index], syntax->module.text, APR_HASH_KEY_STRING);
        apr_size_t *target =
            import && import->target ? module_index_of(checker, import->target->name) : NULL;
        structs = target ? checker->structs[*target] : NULL;
    }
    return structs ? apr_hash_get(structs, syntax->name.text, APR_HASH_KEY_STRING) : NULL;
}

/* The struct a field holds by value (not through an array), or NULL. */
static spx_struct_t *field_struct(checker_t *checker, const spx_struct_t *structure,
                                  const spx_param_t *field)
{
    return written_struct(checker, structure->module, field->type_syntax);
}

/* The type of a parameter, result, field or annotation written in module:
 * basic when there is no syntax (int, bool, str, unit); error when a struct
 * it names does not resolve (silent, as written_struct). Arrays nest only
 * as deep as the parser allowed, but are walked as a loop. */
static const spx_vtype_t *written_type(checker_t *checker, const spx_module_t *module,
                                       const spx_type_syntax_t *syntax, spx_type_t basic)
{
    if (!syntax)
        return spx_types_basic(checker->types, basic);
    size_t depth = 0;
    while (syntax && syntax->kind == SPX_TYPE_SYNTAX_ARRAY) {
        depth++;
        syntax = syntax->element;
    }
    const spx_vtype_t *type = spx_types_basic(checker->types, SPX_TYPE_ERROR);
    if (syntax && syntax->kind == SPX_TYPE_SYNTAX_BASIC) {
        type = spx_types_basic(checker->types, syntax->basic);
    } else {
        const spx_struct_t *structure = written_struct(checker, module, syntax);
        if (!structure)
            return type;
        type = spx_types_struct(checker->types, structure);
    }
    if (type->kind == SPX_TYPE_ERROR)
        return type;
    for (; depth > 0; depth--)
        type = spx_types_array(checker->types, type);
    return type;
}

typedef struct struct_frame_t {
    spx_struct_t *structure;
    apr_size_t next;  /* the next field to follow */
    apr_size_t field; /* the field followed to the frame above */
} struct_frame_t;

/* A struct that contains itself by value: the cycle frames[from..] is
 * reported once, rotated to start at its smallest MOD.Name, at that
 * struct's field that holds the next one (E0323). */
static void report_struct_cycle(checker_t *checker, apr_array_header_t *frames, int from,
                                apr_pool_t *pool)
{
    int length = frames->nelts - from;
    struct_frame_t *cycle = &APR_ARRAY_IDX(frames, from, struct_frame_t);
    const char **names = apr_palloc(pool, (size_t)length * sizeof(*names));
    for (int i = 0; i < length; i++)
        names[i] = spx_struct_full_name(cycle[i].structure, pool);
    int start = 0;
    const char *message = cycle_text("struct contains itself: ", names, length, &start, pool);
    const struct_frame_t *site = &cycle[start];
    const spx_param_t *field = &site->structure->fields[site->field];
    spx_diagnostics_add(checker->diagnostics, SPX_E0323, site->structure->module->path,
                        field->type_span, "%s", message);
}

/* Depth-first search over "holds by value" between structs, roots and
 * fields in order, with an explicit stack; each field that closes a cycle
 * reports it. */
static void find_struct_cycles(checker_t *checker)
{
    apr_pool_t *pool;
    apr_pool_create(&pool, checker->scratch);
    apr_hash_t *state = apr_hash_make(pool); /* spx_struct_t * -> 1 on the stack, 2 done */
    static const int on_stack = 1, done = 2;
    apr_array_header_t *frames = apr_array_make(pool, 8, sizeof(struct_frame_t));
    for (apr_size_t m = 0; m < checker->module_count; m++) {
        spx_module_t *module = checker->modules[m];
        if (!checker->structs[m])
            continue;
        for (apr_size_t j = 0; j < module->struct_count; j++) {
            spx_struct_t *root = module->structs[j];
            if (apr_hash_get(state, &root, sizeof(root)))
                continue;
            struct_frame_t *first = apr_array_push(frames);
            *first = (struct_frame_t){root, 0, 0};
            apr_hash_set(state, apr_pmemdup(pool, &root, sizeof(root)), sizeof(root), &on_stack);
            while (frames->nelts > 0) {
                struct_frame_t *top = &APR_ARRAY_IDX(frames, frames->nelts - 1, struct_frame_t);
                if (top->next >= top->structure->field_count) {
                    apr_hash_set(state, apr_pmemdup(pool, &top->structure, sizeof(top->structure)),
                                 sizeof(top->structure), &done);
                    frames->nelts--;
                    continue;
                }
                top->field = top->next++;
                spx_struct_t *held =
                    field_struct(checker, top->structure, &top->structure->fields[top->field]);
                if (!held)
                    continue;
                const int *seen = apr_hash_get(state, &held, sizeof(held));
                if (!seen) {
                    apr_hash_set(state, apr_pmemdup(pool, &held, sizeof(held)), sizeof(held),
                                 &on_stack);
                    struct_frame_t *pushed = apr_array_push(frames);
                    *pushed = (struct_frame_t){held, 0, 0};
                } else if (*seen == on_stack) {
                    int from = frames->nelts - 1;
                    while (APR_ARRAY_IDX(frames, from, struct_frame_t).structure != held)
                        from--;
                    report_struct_cycle(checker, frames, from, pool);
                }
            }
        }
    }
    apr_pool_destroy(pool);
}

/* ---- consts (language v2): evaluated at check time ------------------------ */

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
    apr_hash_t *imports;
    apr_hash_t *consts;
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
        const spx_const_t *constant =
            name ? apr_hash_get(ev->consts, name, APR_HASH_KEY_STRING) : NULL;
        if (!constant && report && name && !names_unreadable_item(ev->module, name))
            suggest(ev->checker,
                    report_const(ev, SPX_E0316, expr->as.name.name.span,
                                 apr_psprintf(ev->pool, "unknown const '%s' in module '%s'", name,
                                              ev->module->name)),
                    name, const_names(ev->module, 0, ev->pool), "", ev->pool);
        return constant;
    }
    if (expr->kind != SPX_EXPR_FIELD)
        return NULL;
    if (!report) {
        /* the same resolution, silent: only a dependency is wanted */
        const spx_expr_t *base = expr->as.field.base;
        if (!base || base->kind != SPX_EXPR_NAME || !base->as.name.name.text)
            return NULL;
        const spx_import_t *import =
            apr_hash_get(ev->imports, base->as.name.name.text, APR_HASH_KEY_STRING);
        apr_size_t *index =
            import && import->target ? module_index_of(ev->checker, import->target->name) : NULL;
        if (!index || !ev->checker->consts[*index])
            return NULL;
        return apr_hash_get(ev->checker->consts[*index], expr->as.field.name.text,
                            APR_HASH_KEY_STRING);
    }
    int resolved = 0;
    const spx_const_t *constant =
        module_const(ev->checker, ev->module, ev->imports, expr, &resolved);
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
    case SPX_EXPR_UNARY:
    case SPX_EXPR_BINARY:
        return value; /* never reached: const_eval unrolls these */
    }
    report_const(ev, SPX_E0416, expr->span,
                 apr_psprintf(ev->pool,
                              "a const expression cannot hold %s: only literals, consts, "
                              "parentheses and operators",
                              what));
    return value;
}

/* floor(a / 2^n) for 0 <= n <= 63, without relying on how C shifts a
 * negative number. */
static int64_t shift_right(int64_t a, int n)
{
    return a >= 0 ? (int64_t)((uint64_t)a >> n) : (int64_t) ~(~(uint64_t)a >> n);
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

/* a op b on ints that are both known: the value, or a check-time failure
 * (E0415) at the operator. */
static value_t int_operation(evaluation_t *ev, const spx_expr_t *expr, int64_t a, int64_t b)
{
    spx_operator_t op = expr->as.binary.op;
    spx_span_t at = expr->as.binary.op_span;
    const char *failure = NULL;
    int64_t r = 0;
    switch (op) {
    case SPX_OP_ADD:
        if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
            failure = "integer overflow";
        else
            r = a + b;
        break;
    case SPX_OP_SUB:
        if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
            failure = "integer overflow";
        else
            r = a - b;
        break;
    case SPX_OP_MUL:
        if (a != 0 && b != 0) {
            int64_t p = (int64_t)((uint64_t)a * (uint64_t)b);
            if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN) || p / b != a)
                failure = "integer overflow";
            else
                r = p;
        }
        break;
    case SPX_OP_DIV:
    case SPX_OP_REM:
        if (b == 0) {
            report_const(ev, SPX_E0415, at,
                         apr_psprintf(ev->pool, "%s by zero: %" PRId64 " %s 0",
                                      op == SPX_OP_DIV ? "division" : "remainder", a,
                                      operator_name(op)));
            return error_value();
        }
        if (b == -1 && a == INT64_MIN) {
            if (op == SPX_OP_DIV)
                failure = "integer overflow";
            /* MIN % -1 is 0 (C leaves it undefined, so it is not computed) */
        } else {
            r = op == SPX_OP_DIV ? a / b : a % b;
        }
        break;
    case SPX_OP_BIT_OR:
        r = a | b;
        break;
    case SPX_OP_BIT_XOR:
        r = a ^ b;
        break;
    case SPX_OP_BIT_AND:
        r = a & b;
        break;
    case SPX_OP_SHL:
    case SPX_OP_SHR:
        if (b < 0 || b > 63) {
            report_const(ev, SPX_E0415, at,
                         apr_psprintf(ev->pool, "shift count %" PRId64 " out of range 0..63", b));
            return error_value();
        }
        if (op == SPX_OP_SHR) {
            r = shift_right(a, (int)b);
        } else {
            r = (int64_t)((uint64_t)a << b);
            if (shift_right(r, (int)b) != a)
                failure = "integer overflow";
        }
        break;
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
        return error_value();
    }
    if (failure) {
        report_const(ev, SPX_E0415, at,
                     apr_psprintf(ev->pool, "%s: %" PRId64 " %s %" PRId64, failure, a,
                                  operator_name(op), b));
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
    spx_type_t result = SPX_TYPE_BOOL;
    int ok = 0;
    switch (op) {
    case SPX_OP_ADD:
        result = a == SPX_TYPE_INT || a == SPX_TYPE_STR ? a : b;
        ok = a == b && (a == SPX_TYPE_INT || a == SPX_TYPE_STR);
        break;
    case SPX_OP_EQ:
    case SPX_OP_NE:
        ok = a == b;
        break;
    case SPX_OP_AND:
    case SPX_OP_OR:
        ok = a == SPX_TYPE_BOOL && b == SPX_TYPE_BOOL;
        break;
    case SPX_OP_LT:
    case SPX_OP_LE:
    case SPX_OP_GT:
    case SPX_OP_GE:
        ok = a == SPX_TYPE_INT && b == SPX_TYPE_INT;
        break;
    default:
        result = SPX_TYPE_INT;
        ok = a == SPX_TYPE_INT && b == SPX_TYPE_INT;
        break;
    }
    if (a == SPX_TYPE_ERROR || b == SPX_TYPE_ERROR) {
        /* A value unknown (reported, or not evaluated): the type is still
         * checked where both sides are typed. Nothing more is said. */
        return error_value();
    }
    if (!ok) {
        report_const(ev, SPX_E0405, expr->as.binary.op_span,
                     apr_psprintf(ev->pool, "operator '%s' cannot take '%s' and '%s'",
                                  operator_name(op), spx_type_name(a), spx_type_name(b)));
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
    int same = left.length == right.length && memcmp(left.bytes, right.bytes, left.length) == 0;
    return bool_value(op == SPX_OP_EQ ? same : !same);
}

static value_t const_unary(evaluation_t *ev, const spx_expr_t *expr, value_t operand, int live)
{
    spx_operator_t op = expr->as.unary.op;
    spx_type_t wanted = op == SPX_OP_NOT ? SPX_TYPE_BOOL : SPX_TYPE_INT;
    if (operand.type == SPX_TYPE_ERROR)
        return error_value();
    if (operand.type != wanted) {
        report_const(ev, SPX_E0405, expr->as.unary.op_span,
                     apr_psprintf(ev->pool, "operator '%s' cannot take '%s'", operator_name(op),
                                  spx_type_name(operand.type)));
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
    if (operand.integer == INT64_MIN) {
        report_const(ev, SPX_E0415, expr->as.unary.op_span,
                     "integer overflow: -(-9223372036854775808)");
        return error_value();
    }
    return int_value(-operand.integer);
}

/* Evaluates (live) or only types (not live) a const expression. Its chain
 * of unary operators and left operands is walked as a loop over an explicit
 * stack (see check_expr); right operands recurse, bounded by the parse
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
    const char *message = cycle_text("const cycle: ", names, length, &start, pool);
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
                apr_size_t *index = module_index_of(checker, next->module->name);
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
static void evaluate_consts(checker_t *checker)
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

/* ---- pass 3: bodies ------------------------------------------------------- */

static local_t *lookup(scope_t *scope, const char *name)
{
    if (!name)
        return NULL;
    for (local_t *local = apr_hash_get(scope->names, name, APR_HASH_KEY_STRING); local;
         local = local->previous)
        if (local->visible) {
            local->used = 1;
            return local;
        }
    return NULL;
}

/* Declare a parameter, let/var or for variable, visible from here to the
 * end of its block; a name already in scope is an error, and the repeat gets
 * type error so that its uses are not reported again. */
static int declare(scope_t *scope, const spx_name_t *name, const spx_vtype_t *type, int is_var,
                   int is_parameter, int is_for)
{
    local_t *local = apr_pcalloc(scope->pool, sizeof(*local));
    local->slot = scope->locals->nelts;
    local->type = type->kind;
    local->vtype = type;
    local->is_var = is_var;
    local->is_parameter = is_parameter;
    local->is_for = is_for;
    local->visible = 1;
    local->name = name;
    APR_ARRAY_PUSH(scope->locals, local_t *) = local;
    if (!name->text)
        return local->slot;
    if (apr_hash_get(scope->consts, name->text, APR_HASH_KEY_STRING) ||
        apr_hash_get(scope->structs, name->text, APR_HASH_KEY_STRING)) {
        /* The name stays the item's: uses of it are not the local's. */
        local->type = SPX_TYPE_ERROR;
        local->vtype = basic_type(scope, SPX_TYPE_ERROR);
        report(scope, SPX_E0318, name->span,
               apr_psprintf(scope->pool,
                            "'%s' is a %s of module '%s'; a local cannot take its name", name->text,
                            apr_hash_get(scope->consts, name->text, APR_HASH_KEY_STRING) ? "const"
                                                                                         : "struct",
                            scope->module->name));
        return local->slot;
    }
    local->previous = apr_hash_get(scope->names, name->text, APR_HASH_KEY_STRING);
    /* A name in scope may not be declared again (E0307); out of scope (a
     * sibling block, an earlier loop) it conflicts with nothing. */
    const local_t *conflict = NULL;
    for (const local_t *earlier = local->previous; earlier && !conflict;
         earlier = earlier->previous)
        if (earlier->visible)
            conflict = earlier;
    if (conflict) {
        local->type = SPX_TYPE_ERROR;
        local->vtype = basic_type(scope, SPX_TYPE_ERROR);
        note_first(scope->checker,
                   report(scope, SPX_E0307, name->span,
                          apr_psprintf(scope->pool, "'%s' is already declared in function '%s'",
                                       name->text, scope->function->name.text)),
                   scope->module->path, conflict->name->span);
    }
    apr_hash_set(scope->names, name->text, APR_HASH_KEY_STRING, local);
    return local->slot;
}

static void check_expr(scope_t *scope, spx_expr_t *expr);
static void check_method(scope_t *scope, spx_expr_t *call);

/* Resolve the callee of call: returns 1 and fills the signature when it is
 * known, 0 after reporting why not (or silently, when an earlier diagnostic
 * already covers it). */
static int resolve_call(scope_t *scope, spx_expr_t *call, const spx_vtype_t ***parameters,
                        apr_size_t *parameter_count, const spx_vtype_t **result)
{
    const char *name = call->as.call->function.text;
    const char *module_name = call->as.call->module.text;
    spx_function_t *target = NULL;
    if (!name)
        return 0;
    if (!module_name) {
        /* Builtins win: a function may not take a builtin's name (E0306). */
        const builtin_info_t *builtin = find_builtin(name);
        if (builtin) {
            call->as.call->builtin = builtin->builtin;
            const spx_vtype_t **types = apr_palloc(scope->pool, 2 * sizeof(*types));
            types[0] = basic_type(scope, builtin->parameter);
            types[1] = basic_type(scope, SPX_TYPE_STR); /* assert(c, message): v2 */
            *parameters = types;
            *parameter_count = 1;
            *result = basic_type(scope, builtin->result);
            if (builtin->builtin == SPX_BUILTIN_ASSERT && call->as.call->argument_count == 2) {
                *parameter_count = 2;
            }
            return 1;
        }
        target = apr_hash_get(scope->module->functions_by_name, name, APR_HASH_KEY_STRING);
        if (!target) {
            report_unknown_function(scope, scope->module, call->as.call->function.span, name);
            return 0;
        }
    } else {
        spx_import_t *import = apr_hash_get(scope->imports, module_name, APR_HASH_KEY_STRING);
        if (!import && lookup(scope, module_name)) {
            check_method(scope, call);
            return 0;
        }
        if (!import) {
            suggest(scope->checker,
                    report(scope, SPX_E0310, call->as.call->module.span,
                           apr_psprintf(scope->pool, "module '%s' is not imported", module_name)),
                    module_name, import_names(scope->module, scope->pool), "", scope->pool);
            return 0;
        }
        import->used = 1;
        if (!import->target)
            return 0; /* the import itself was reported */
        target = apr_hash_get(import->target->functions_by_name, name, APR_HASH_KEY_STRING);
        if (!target) {
            report_unknown_function(scope, import->target, call->as.call->function.span, name);
            return 0;
        }
        if (!target->exported)
            /* Still resolved: the call is typed by its signature, and the
             * index sees the reference. */
            report(scope, SPX_E0311, call->as.call->function.span,
                   apr_psprintf(scope->pool, "function '%s' of module '%s' is not exported", name,
                                module_name));
    }
    const spx_vtype_t **types = apr_palloc(scope->pool, (target->param_count + 1) * sizeof(*types));
    for (apr_size_t i = 0; i < target->param_count; i++)
        types[i] = written_type(scope->checker, target->module, target->params[i].type_syntax,
                                target->params[i].type);
    call->as.call->target = target;
    if (target != scope->function)
        target->called = 1; /* a call from itself does not make it used */
    *parameters = types;
    *parameter_count = target->param_count;
    *result = written_type(scope->checker, target->module, target->result_syntax, target->result);
    return 1;
}

/* The type of push or pop on an array whose element type is element (NULL
 * when the receiver is not an array: check_method reported it, or an
 * earlier diagnostic did): push takes one argument of the element type
 * and gives unit, pop takes none and gives an element. */
static const spx_vtype_t *method_type(scope_t *scope, spx_expr_t *call, const spx_vtype_t *element)
{
    const char *method = call->as.call->function.text;
    int push = method && strcmp(method, "push") == 0;
    if (!element || !method || (!push && strcmp(method, "pop") != 0))
        return basic_type(scope, SPX_TYPE_ERROR);
    const spx_vtype_t *result = push ? basic_type(scope, SPX_TYPE_UNIT) : element;
    apr_size_t count = call->as.call->argument_count, wanted = push ? 1 : 0;
    if (count != wanted) {
        report(scope, SPX_E0403, call->span,
               apr_psprintf(scope->pool,
                            "'%s' takes %" APR_SIZE_T_FMT " argument%s, not %" APR_SIZE_T_FMT,
                            method, wanted, wanted == 1 ? "" : "s", count));
        return result;
    }
    if (push) {
        spx_expr_t *argument = call->as.call->arguments[0];
        spx_type_t type = type_of(argument);
        if (type != SPX_TYPE_ERROR && type != SPX_TYPE_UNIT && vtype_of(scope, argument) != element)
            report(scope, SPX_E0404, argument->span,
                   apr_psprintf(scope->pool, "argument 1 of 'push' must be '%s', not '%s'",
                                spx_vtype_name(element, scope->pool), type_text(scope, argument)));
    }
    return result;
}

static const spx_vtype_t *check_call(scope_t *scope, spx_expr_t *call)
{
    const spx_vtype_t **parameters = NULL;
    apr_size_t parameter_count = 0;
    const spx_vtype_t *result = basic_type(scope, SPX_TYPE_ERROR);
    call->as.call->target = NULL;
    call->as.call->builtin = SPX_BUILTIN_NONE;
    int known = 0;
    int method = call->as.call->receiver != NULL;
    if (method)
        check_method(scope, call);
    else
        known = resolve_call(scope, call, &parameters, &parameter_count, &result);
    if (!method && !known && call->as.call->module.text &&
        !apr_hash_get(scope->imports, call->as.call->module.text, APR_HASH_KEY_STRING) &&
        lookup(scope, call->as.call->module.text))
        method = 1; /* x.push(v): resolve_call checked it as a method */
    /* A user function's parameters and push's element give their
     * arguments a type. */
    int expecting = method || call->as.call->target != NULL;
    const spx_vtype_t *element = NULL;
    if (method) {
        const local_t *local =
            call->as.call->receiver ? NULL : lookup(scope, call->as.call->module.text);
        const spx_vtype_t *array = call->as.call->receiver
                                       ? vtype_of(scope, call->as.call->receiver)
                                   : local ? local->vtype
                                           : NULL;
        element = array && array->kind == SPX_TYPE_ARRAY ? array->element : NULL;
    }
    apr_size_t count = call->as.call->argument_count;
    /* Arguments are checked even when the callee is unknown. */
    for (apr_size_t i = 0; i < count; i++) {
        spx_expr_t *argument = call->as.call->arguments[i];
        if (expecting)
            expect(scope, method ? element : i < parameter_count ? parameters[i] : NULL);
        check_expr(scope, argument);
        if (type_of(argument) == SPX_TYPE_UNIT)
            report_unit(scope, argument, "an argument");
    }
    if (method)
        return method_type(scope, call, element);
    if (!known)
        return basic_type(scope, SPX_TYPE_ERROR);
    const char *callee = callee_text(call, scope->pool);
    if (count != parameter_count) {
        report(scope, SPX_E0403, call->span,
               apr_psprintf(scope->pool,
                            "'%s' takes %" APR_SIZE_T_FMT " argument%s, not %" APR_SIZE_T_FMT,
                            callee, parameter_count, parameter_count == 1 ? "" : "s", count));
        return result;
    }
    for (apr_size_t i = 0; i < count; i++) {
        spx_expr_t *argument = call->as.call->arguments[i];
        spx_type_t type = type_of(argument);
        int len_of_array = call->as.call->builtin == SPX_BUILTIN_LEN && type == SPX_TYPE_ARRAY;
        if (type != SPX_TYPE_ERROR && type != SPX_TYPE_UNIT &&
            parameters[i]->kind != SPX_TYPE_ERROR && vtype_of(scope, argument) != parameters[i] &&
            !len_of_array)
            report(scope, SPX_E0404, argument->span,
                   apr_psprintf(scope->pool,
                                "argument %" APR_SIZE_T_FMT " of '%s' must be '%s'%s, not '%s'",
                                i + 1, callee, spx_vtype_name(parameters[i], scope->pool),
                                /* len takes an array too (language v2) */
                                call->as.call->builtin == SPX_BUILTIN_LEN ? " or an array" : "",
                                type_text(scope, argument)));
    }
    return result;
}

/* structure's field named name, or NULL. */
static const spx_param_t *find_field(const spx_struct_t *structure, const char *name)
{
    for (apr_size_t j = 0; name && j < structure->field_count; j++)
        if (structure->fields[j].name.text && strcmp(structure->fields[j].name.text, name) == 0)
            return &structure->fields[j];
    return NULL;
}

static const char *join_names(const apr_array_header_t *names, apr_pool_t *pool);

/* E0424: structure has no field name (at span); the message lists its fields. */
static void report_no_field(scope_t *scope, const spx_struct_t *structure, spx_span_t span,
                            const char *name)
{
    apr_array_header_t *names =
        apr_array_make(scope->pool, (int)structure->field_count, sizeof(char *));
    for (apr_size_t j = 0; j < structure->field_count; j++)
        if (structure->fields[j].name.text)
            APR_ARRAY_PUSH(names, const char *) = structure->fields[j].name.text;
    const char *listed = join_names(names, scope->pool);
    suggest(scope->checker,
            report(scope, SPX_E0424, span,
                   apr_psprintf(scope->pool, "struct '%s' has no field '%s' (its fields: %s)",
                                structure->name.text, name, listed)),
            name, names, "", scope->pool);
}

/* The type of structure's field. */
static const spx_vtype_t *field_type(scope_t *scope, const spx_struct_t *structure,
                                     const spx_param_t *field)
{
    return written_type(scope->checker, structure->module, field->type_syntax, field->type);
}

/* x.f, and m.X a const of an imported module m. Fields exist only on
 * structs, whose values the checker does not type yet: a base of type int,
 * bool or str has none (E0419); one of unknown type was reported. */
static void check_field(scope_t *scope, spx_expr_t *expr)
{
    int resolved = 0;
    expr->as.field.constant = NULL;
    expr->type = SPX_TYPE_ERROR;
    const spx_const_t *constant =
        module_const(scope->checker, scope->module, scope->imports, expr, &resolved);
    if (resolved) {
        expr->type = constant ? const_type(constant) : SPX_TYPE_ERROR;
        expr->as.field.constant = constant;
        return;
    }
    spx_expr_t *base = expr->as.field.base;
    if (base && base->kind == SPX_EXPR_NAME && base->as.name.name.text &&
        !lookup(scope, base->as.name.name.text) &&
        !apr_hash_get(scope->consts, base->as.name.name.text, APR_HASH_KEY_STRING) &&
        module_index_of(scope->checker, base->as.name.name.text)) {
        report(scope, SPX_E0310, base->span,
               apr_psprintf(scope->pool, "module '%s' is not imported", base->as.name.name.text));
        return;
    }
    scope->field_base = base && base->kind == SPX_EXPR_NAME ? &base->as.name.name : NULL;
    check_expr(scope, base);
    scope->field_base = NULL;
    spx_type_t type = type_of(base);
    if (type == SPX_TYPE_UNIT)
        report_unit(scope, base, "read");
    else if (type == SPX_TYPE_STRUCT) {
        const spx_struct_t *structure = vtype_of(scope, base)->structure;
        const char *name = expr->as.field.name.text;
        const spx_param_t *field = find_field(structure, name);
        if (field)
            set_type(expr, field_type(scope, structure, field));
        else if (name)
            report_no_field(scope, structure, expr->as.field.name.span, name);
    } else if (type != SPX_TYPE_ERROR)
        report(scope, SPX_E0419, expr->as.field.name.span,
               apr_psprintf(scope->pool, "a value of type '%s' has no fields (no '%s')",
                            type_text(scope, base), expr->as.field.name.text));
}

/* An index or a slice bound: an int. */
static void check_bound(scope_t *scope, spx_expr_t *bound, const char *what)
{
    if (!bound)
        return;
    check_expr(scope, bound);
    spx_type_t type = type_of(bound);
    if (type == SPX_TYPE_UNIT)
        report_unit(scope, bound, what);
    else if (type != SPX_TYPE_ERROR && type != SPX_TYPE_INT)
        report(
            scope, SPX_E0418, bound->span,
            apr_psprintf(scope->pool, "%s must be 'int', not '%s'", what, type_text(scope, bound)));
}

/* e[i] and e[i..j]: a str gives its byte (int) or a str; an array (not
 * typed by the checker yet, so already reported) its element or an array;
 * nothing else can be indexed (E0417). */
static void check_index(scope_t *scope, spx_expr_t *expr)
{
    int slice = expr->kind == SPX_EXPR_SLICE;
    spx_expr_t *base = expr->as.index.base;
    expr->type = SPX_TYPE_ERROR;
    check_expr(scope, base);
    check_bound(scope, expr->as.index.index, slice ? "a slice bound" : "an index");
    if (slice)
        check_bound(scope, expr->as.index.to, "a slice bound");
    spx_type_t type = type_of(base);
    if (type == SPX_TYPE_UNIT) {
        report_unit(scope, base, slice ? "sliced" : "indexed");
    } else if (type == SPX_TYPE_STR) {
        expr->type = slice ? SPX_TYPE_STR : SPX_TYPE_INT;
    } else if (type == SPX_TYPE_ARRAY) {
        const spx_vtype_t *array = vtype_of(scope, base);
        set_type(expr, slice ? array : array->element);
    } else if (type != SPX_TYPE_ERROR) {
        report(scope, SPX_E0417, base->span,
               apr_psprintf(scope->pool,
                            "a value of type '%s' cannot be %s: only str and arrays can",
                            type_text(scope, base), slice ? "sliced" : "indexed"));
    }
}

/* The variable a place (x, x[i], x.f, ... chains) is rooted at, or NULL
 * when it is rooted at something else (a call, a literal). */
static const spx_expr_t *place_root(const spx_expr_t *place)
{
    while (place && (place->kind == SPX_EXPR_INDEX || place->kind == SPX_EXPR_FIELD))
        place = place->kind == SPX_EXPR_INDEX ? place->as.index.base : place->as.field.base;
    return place && place->kind == SPX_EXPR_NAME ? place : NULL;
}

/* e.push(v), e.pop() and x.push(v) for a local x: methods of arrays (E0420
 * otherwise), on a place rooted at a var (E0421, E0312). Arrays are not
 * typed by the checker yet: an array receiver was already reported, so
 * the call is typed error. */
static void check_method(scope_t *scope, spx_expr_t *call)
{
    spx_call_t *c = call->as.call;
    const char *method = c->function.text ? c->function.text : "";
    spx_type_t type = SPX_TYPE_ERROR;
    const spx_vtype_t *whole = basic_type(scope, SPX_TYPE_ERROR);
    const local_t *root = NULL;
    const spx_expr_t *receiver = c->receiver;
    if (receiver) {
        check_expr(scope, c->receiver);
        type = type_of(receiver);
        whole = vtype_of(scope, receiver);
        const spx_expr_t *name = place_root(receiver);
        root = name ? lookup(scope, name->as.name.name.text) : NULL;
        if (type == SPX_TYPE_UNIT) {
            report_unit(scope, receiver, "a receiver");
            return;
        }
    } else {
        root = lookup(scope, c->module.text);
        type = root ? root->type : SPX_TYPE_ERROR;
        whole = root ? root->vtype : whole;
    }
    int known = strcmp(method, "push") == 0 || strcmp(method, "pop") == 0;
    if (!known) {
        report(scope, SPX_E0420, c->function.span,
               apr_psprintf(scope->pool, "unknown method '%s': arrays have only 'push' and 'pop'",
                            method));
        return;
    }
    if (receiver && !place_root(receiver)) {
        report(scope, SPX_E0421, receiver->span,
               apr_psprintf(scope->pool,
                            "'%s' changes its array, so it needs a variable or an element or "
                            "field of one",
                            method));
        return;
    }
    if (type != SPX_TYPE_ERROR && type != SPX_TYPE_ARRAY) {
        report(scope, SPX_E0420, c->function.span,
               apr_psprintf(scope->pool, "'%s' is a method of arrays, not of '%s'", method,
                            spx_vtype_name(whole, scope->pool)));
        return;
    }
    c->builtin = strcmp(method, "push") == 0 ? SPX_BUILTIN_PUSH : SPX_BUILTIN_POP;
    c->receiver_slot = root ? root->slot : -1;
    if (root && !root->is_var && root->type != SPX_TYPE_ERROR)
        report(scope, SPX_E0312, c->function.span,
               apr_psprintf(scope->pool, "cannot change '%s' with '%s': it is %s",
                            receiver ? place_root(receiver)->as.name.name.text : c->module.text,
                            method, local_kind(root)));
}

/* 1 when an array literal has an element whose type needs no expected
 * type: not an array literal itself, or one that has such an element. */
static int literal_types_itself(const spx_expr_t *literal)
{
    for (apr_size_t i = 0; i < literal->as.array.count; i++) {
        const spx_expr_t *element = literal->as.array.elements[i];
        if (!element || element->kind != SPX_EXPR_ARRAY || literal_types_itself(element))
            return 1;
    }
    return 0;
}

/* [e, ...]: with an expected array type, its elements expect that type's
 * element type; else its element type is that of its first element that
 * types without one, and with none it is an error (E0423: "[]", "[[]]").
 * Every element must have the element type (E0428). Nested literals
 * recurse through check_expr, as deep as the parser allowed. */
static void check_array_literal(scope_t *scope, spx_expr_t *expr, int expected,
                                const spx_vtype_t *type)
{
    expr->type = SPX_TYPE_ERROR;
    if (!expected && !literal_types_itself(expr)) {
        report(scope, SPX_E0423, expr->span,
               "an element type is needed: nothing here expects a type and no element gives "
               "one (write it where the value goes, as in 'let xs: [int] = [];')");
        return;
    }
    if (type && type->kind != SPX_TYPE_ARRAY && !literal_types_itself(expr)) {
        report(scope, SPX_E0423, expr->span,
               apr_psprintf(scope->pool,
                            "an element type is needed: what stands here expects '%s', which is "
                            "not an array, and no element gives one",
                            spx_vtype_name(type, scope->pool)));
        return;
    }
    const spx_vtype_t *element = type && type->kind == SPX_TYPE_ARRAY ? type->element : NULL;
    apr_size_t first = expr->as.array.count;
    if (!element) {
        /* the first element that types itself gives the type */
        for (apr_size_t i = 0; i < expr->as.array.count && first == expr->as.array.count; i++) {
            spx_expr_t *item = expr->as.array.elements[i];
            if (item && (item->kind != SPX_EXPR_ARRAY || literal_types_itself(item)))
                first = i;
        }
        if (first < expr->as.array.count) {
            spx_expr_t *item = expr->as.array.elements[first];
            check_expr(scope, item);
            if (type_of(item) == SPX_TYPE_UNIT)
                report_unit(scope, item, "an element");
            else if (type_of(item) != SPX_TYPE_ERROR)
                element = vtype_of(scope, item);
        }
    }
    int known = element != NULL;
    for (apr_size_t i = 0; i < expr->as.array.count; i++) {
        spx_expr_t *item = expr->as.array.elements[i];
        if (i == first || !item)
            continue;
        expect(scope, element);
        check_expr(scope, item);
        spx_type_t kind = type_of(item);
        if (kind == SPX_TYPE_UNIT)
            report_unit(scope, item, "an element");
        else if (element && kind != SPX_TYPE_ERROR && vtype_of(scope, item) != element)
            report(scope, SPX_E0428, item->span,
                   apr_psprintf(scope->pool, "an element of '[%s]' must be '%s', not '%s'",
                                spx_vtype_name(element, scope->pool),
                                spx_vtype_name(element, scope->pool), type_text(scope, item)));
    }
    if (known)
        set_type(expr, spx_types_array(scope->checker->types, element));
}

/* The strings of names joined by ", ". */
static const char *join_names(const apr_array_header_t *names, apr_pool_t *pool)
{
    apr_array_header_t *parts = apr_array_make(pool, 2 * names->nelts + 1, sizeof(char *));
    for (int i = 0; i < names->nelts; i++) {
        if (i > 0)
            APR_ARRAY_PUSH(parts, const char *) = ", ";
        APR_ARRAY_PUSH(parts, const char *) = APR_ARRAY_IDX(names, i, const char *);
    }
    return apr_array_pstrcat(pool, parts, 0);
}

/* Name { f: e, ... } and m.Name { ... }: a visible struct (E0319, E0320,
 * E0310), each of its fields exactly once (E0424 names the struct's fields
 * when one does not exist, E0425 a repeat, E0426 what is missing). Field
 * values expect their field's type and must have it (E0427). Its type is
 * the struct's, also after an error in its fields. */
static void check_struct_literal(scope_t *scope, spx_expr_t *expr)
{
    spx_struct_literal_t *literal = expr->as.literal;
    expr->type = SPX_TYPE_ERROR;
    spx_type_syntax_t syntax;
    memset(&syntax, 0, sizeof(syntax));
    syntax.kind = SPX_TYPE_SYNTAX_STRUCT;
    syntax.span = expr->span;
    syntax.module = literal->module;
    syntax.name = literal->name;
    spx_struct_t *structure = resolve_struct(scope->checker, scope->module_index, &syntax);
    apr_hash_t *given = apr_hash_make(scope->pool); /* field name -> its first init */
    for (apr_size_t i = 0; i < literal->field_count; i++) {
        spx_field_init_t *init = &literal->fields[i];
        const char *name = init->name.text;
        const spx_param_t *field = structure ? find_field(structure, name) : NULL;
        if (structure && name) {
            if (!field) {
                report_no_field(scope, structure, init->name.span, name);
            } else if (apr_hash_get(given, name, APR_HASH_KEY_STRING)) {
                const spx_field_init_t *first = apr_hash_get(given, name, APR_HASH_KEY_STRING);
                spx_diagnostic_note(
                    scope->checker->diagnostics,
                    report(scope, SPX_E0425, init->name.span,
                           apr_psprintf(scope->pool, "field '%s' is given twice", name)),
                    scope->module->path, first->name.span, "first given here");
            } else {
                apr_hash_set(given, name, APR_HASH_KEY_STRING, init);
            }
        }
        const spx_vtype_t *wanted = field ? field_type(scope, structure, field) : NULL;
        expect(scope, wanted); /* the field's type */
        check_expr(scope, init->value);
        spx_type_t type = type_of(init->value);
        if (type == SPX_TYPE_UNIT)
            report_unit(scope, init->value, "stored");
        else if (wanted && wanted->kind != SPX_TYPE_ERROR && type != SPX_TYPE_ERROR &&
                 vtype_of(scope, init->value) != wanted)
            report(scope, SPX_E0427, init->value->span,
                   apr_psprintf(scope->pool, "field '%s' of struct '%s' is '%s', not '%s'", name,
                                structure->name.text, spx_vtype_name(wanted, scope->pool),
                                type_text(scope, init->value)));
    }
    if (structure) {
        apr_array_header_t *missing = apr_array_make(scope->pool, 4, sizeof(char *));
        for (apr_size_t j = 0; j < structure->field_count; j++) {
            const char *name = structure->fields[j].name.text;
            if (name && !apr_hash_get(given, name, APR_HASH_KEY_STRING))
                APR_ARRAY_PUSH(missing, const char *) = apr_psprintf(scope->pool, "'%s'", name);
        }
        if (missing->nelts > 0)
            report(scope, SPX_E0426, literal->name.span,
                   apr_psprintf(scope->pool, "struct literal of '%s' lacks field%s %s",
                                structure->name.text, missing->nelts == 1 ? "" : "s",
                                join_names(missing, scope->pool)));
    }
    if (structure)
        set_type(expr, spx_types_struct(scope->checker->types, structure));
}

/* E0308: name is no visible parameter or local; the visible ones (and, where
 * a value is read, the module's consts; before a '.', the modules it
 * imports) are suggested. */
static void report_unknown_name(scope_t *scope, const spx_name_t *name, int read)
{
    apr_array_header_t *names = read ? const_names(scope->module, 0, scope->pool)
                                     : apr_array_make(scope->pool, 8, sizeof(char *));
    if (name == scope->field_base)
        apr_array_cat(names, import_names(scope->module, scope->pool));
    for (int i = 0; i < scope->locals->nelts; i++) {
        const local_t *local = APR_ARRAY_IDX(scope->locals, i, local_t *);
        if (local->visible && local->name->text)
            APR_ARRAY_PUSH(names, const char *) = local->name->text;
    }
    const char *meant[SPX_LIMIT_SUGGESTIONS];
    size_t count = read ? exported_elsewhere(scope->checker, scope->module, name->text,
                                             EXPORTED_CONST, meant, scope->pool)
                        : 0;
    suggest_after(scope->checker,
                  report(scope, SPX_E0308, name->span,
                         apr_psprintf(scope->pool, "unknown name '%s'", name->text)),
                  meant, count, name->text, names, "", scope->pool);
}

/* Leaves of an operator chain: literals, names and calls; expected: see
 * scope_t.expects. */
static void check_leaf(scope_t *scope, spx_expr_t *expr, int expected,
                       const spx_vtype_t *expected_type)
{
    if (!expr)
        return;
    switch (expr->kind) {
    case SPX_EXPR_INT:
        expr->type = SPX_TYPE_INT;
        break;
    case SPX_EXPR_STRING:
        expr->type = SPX_TYPE_STR;
        break;
    case SPX_EXPR_BOOL:
        expr->type = SPX_TYPE_BOOL;
        break;
    case SPX_EXPR_NAME: {
        const char *name = expr->as.name.name.text;
        local_t *local = lookup(scope, name);
        const spx_const_t *constant =
            local || !name ? NULL : apr_hash_get(scope->consts, name, APR_HASH_KEY_STRING);
        expr->as.name.slot = local ? local->slot : -1;
        expr->as.name.constant = constant;
        set_type(expr, local ? local->vtype : basic_type(scope, SPX_TYPE_ERROR));
        if (constant) {
            expr->type = const_type(constant);
        } else if (!local && name && names_unreadable_item(scope->module, name)) {
            /* an item whose syntax failed: its error stands for this use */
        } else if (!local && !scope->function->incomplete)
            report_unknown_name(scope, &expr->as.name.name, 1);
        break;
    }
    case SPX_EXPR_CALL:
        set_type(expr, check_call(scope, expr));
        break;
    case SPX_EXPR_UNARY:
    case SPX_EXPR_BINARY:
        SPX_ASSERT(expr->kind != SPX_EXPR_UNARY && expr->kind != SPX_EXPR_BINARY);
        expr->type = SPX_TYPE_ERROR; /* never reached: check_expr unrolls these */
        break;
    case SPX_EXPR_INDEX:
    case SPX_EXPR_SLICE:
        check_index(scope, expr);
        break;
    case SPX_EXPR_FIELD:
        check_field(scope, expr);
        break;
    case SPX_EXPR_ARRAY:
        check_array_literal(scope, expr, expected, expected_type);
        break;
    case SPX_EXPR_STRUCT_LITERAL:
        check_struct_literal(scope, expr);
        break;
    }
}

static spx_type_t unary_type(scope_t *scope, spx_expr_t *expr)
{
    spx_operator_t op = expr->as.unary.op;
    spx_expr_t *operand = expr->as.unary.operand;
    spx_type_t wanted = op == SPX_OP_NOT ? SPX_TYPE_BOOL : SPX_TYPE_INT;
    spx_type_t type = type_of(operand);
    if (type == SPX_TYPE_UNIT)
        report_unit(scope, operand, "an operand");
    else if (type != SPX_TYPE_ERROR && type != wanted)
        report(scope, SPX_E0405, expr->as.unary.op_span,
               apr_psprintf(scope->pool, "operator '%s' cannot take '%s'", operator_name(op),
                            type_text(scope, operand)));
    return wanted; /* the only type it can have, so nothing above cascades */
}

static spx_type_t binary_type(scope_t *scope, spx_expr_t *expr)
{
    spx_operator_t op = expr->as.binary.op;
    spx_expr_t *left_expr = expr->as.binary.left, *right_expr = expr->as.binary.right;
    spx_type_t left = type_of(left_expr), right = type_of(right_expr);
    spx_type_t result = SPX_TYPE_BOOL;
    int ok = 0;
    switch (op) {
    case SPX_OP_ADD:
        /* int or str: whichever side is known decides, so "x + 1" with an
         * unknown x is still int upstream. */
        result = left == SPX_TYPE_INT || left == SPX_TYPE_STR ? left : right;
        if (result != SPX_TYPE_INT && result != SPX_TYPE_STR)
            result = SPX_TYPE_ERROR;
        ok = left == right && (left == SPX_TYPE_INT || left == SPX_TYPE_STR);
        break;
    case SPX_OP_SUB:
    case SPX_OP_MUL:
    case SPX_OP_DIV:
    case SPX_OP_REM:
        result = SPX_TYPE_INT;
        ok = left == SPX_TYPE_INT && right == SPX_TYPE_INT;
        break;
    case SPX_OP_LT:
    case SPX_OP_LE:
    case SPX_OP_GT:
    case SPX_OP_GE:
        ok = left == SPX_TYPE_INT && right == SPX_TYPE_INT;
        break;
    case SPX_OP_EQ:
    case SPX_OP_NE:
        ok = vtype_of(scope, left_expr) == vtype_of(scope, right_expr);
        break;
    case SPX_OP_AND:
    case SPX_OP_OR:
        ok = left == SPX_TYPE_BOOL && right == SPX_TYPE_BOOL;
        break;
    case SPX_OP_NEG:
    case SPX_OP_NOT:
    case SPX_OP_BIT_NOT:
        SPX_ASSERT(op != SPX_OP_NEG && op != SPX_OP_NOT && op != SPX_OP_BIT_NOT);
        result = SPX_TYPE_ERROR; /* not binary operators: the parser never builds this */
        ok = 1;
        break;
    case SPX_OP_BIT_OR:
    case SPX_OP_BIT_XOR:
    case SPX_OP_BIT_AND:
    case SPX_OP_SHL:
    case SPX_OP_SHR:
        result = SPX_TYPE_INT;
        ok = left == SPX_TYPE_INT && right == SPX_TYPE_INT;
        break;
    }
    int unit = 0;
    if (left == SPX_TYPE_UNIT) {
        report_unit(scope, left_expr, "an operand");
        unit = 1;
    }
    if (right == SPX_TYPE_UNIT) {
        report_unit(scope, right_expr, "an operand");
        unit = 1;
    }
    if (unit || left == SPX_TYPE_ERROR || right == SPX_TYPE_ERROR)
        return result;
    if (!ok) {
        report(scope, SPX_E0405, expr->as.binary.op_span,
               apr_psprintf(scope->pool, "operator '%s' cannot take '%s' and '%s'",
                            operator_name(op), type_text(scope, left_expr),
                            type_text(scope, right_expr)));
        return op == SPX_OP_ADD ? SPX_TYPE_ERROR : result;
    }
    return result;
}

/* Types expr and everything in it. The chain of unary operators and left
 * operands below expr is unrolled onto checker->spine (bottom first), so a
 * long "a + b + c + ..." costs no C stack; right operands recurse, which the
 * parse depth bounds (see the top of the file). */
static void check_expr(scope_t *scope, spx_expr_t *expr)
{
    int expected = scope->expects;
    const spx_vtype_t *expected_type = expected ? scope->expected : NULL;
    scope->expects = 0;
    scope->expected = NULL;
    apr_array_header_t *spine = scope->checker->spine;
    int base = spine->nelts;
    spx_expr_t *node = expr;
    while (node && (node->kind == SPX_EXPR_UNARY || node->kind == SPX_EXPR_BINARY)) {
        APR_ARRAY_PUSH(spine, spx_expr_t *) = node;
        node = node->kind == SPX_EXPR_UNARY ? node->as.unary.operand : node->as.binary.left;
    }
    check_leaf(scope, node, node == expr && expected, node == expr ? expected_type : NULL);
    while (spine->nelts > base) {
        spx_expr_t *top = APR_ARRAY_IDX(spine, spine->nelts - 1, spx_expr_t *);
        spine->nelts--; /* popped before recursing: the recursion reuses the slots */
        if (top->kind == SPX_EXPR_UNARY) {
            top->type = unary_type(scope, top);
        } else {
            /* the left operand of == and != gives the right one its type */
            if (top->as.binary.op == SPX_OP_EQ || top->as.binary.op == SPX_OP_NE)
                expect(scope, vtype_of(scope, top->as.binary.left));
            check_expr(scope, top->as.binary.right);
            top->type = binary_type(scope, top);
        }
    }
}

static void check_condition(scope_t *scope, spx_expr_t *condition)
{
    check_expr(scope, condition);
    spx_type_t type = type_of(condition);
    if (type == SPX_TYPE_UNIT)
        report_unit(scope, condition, "a condition");
    else if (type != SPX_TYPE_ERROR && type != SPX_TYPE_BOOL)
        report(scope, SPX_E0406, condition->span,
               apr_psprintf(scope->pool, "condition must be 'bool', not '%s'",
                            type_text(scope, condition)));
}

static int check_block(scope_t *scope, spx_block_t *block);

static void check_binding(scope_t *scope, spx_stmt_t *stmt)
{
    spx_expr_t *value = stmt->as.binding.value;
    if (stmt->as.binding.type_syntax)
        expect(scope, written_type(scope->checker, scope->module, stmt->as.binding.type_syntax,
                                   SPX_TYPE_ERROR));
    else if (stmt->as.binding.has_type)
        expect(scope, basic_type(scope, stmt->as.binding.declared));
    check_expr(scope, value); /* before the declaration: "let x = x;" is not itself */
    spx_type_t type = type_of(value);
    const spx_vtype_t *local_type = vtype_of(scope, value);
    if (type == SPX_TYPE_UNIT) {
        report_unit(scope, value, "stored");
        local_type = basic_type(scope, SPX_TYPE_ERROR);
    }
    int annotated = stmt->as.binding.has_type;
    if (stmt->as.binding.type_syntax) {
        annotated = check_type_syntax(scope->checker, scope->module_index,
                                      stmt->as.binding.type_syntax, NULL);
        local_type = basic_type(scope, SPX_TYPE_ERROR);
        if (annotated) {
            local_type = written_type(scope->checker, scope->module, stmt->as.binding.type_syntax,
                                      SPX_TYPE_ERROR);
        }
    } else if (annotated) {
        local_type = basic_type(scope, stmt->as.binding.declared);
    }
    if (annotated && type != SPX_TYPE_UNIT && type != SPX_TYPE_ERROR &&
        local_type->kind != SPX_TYPE_ERROR && vtype_of(scope, value) != local_type)
        report(scope, SPX_E0401, value->span,
               apr_psprintf(scope->pool, "'%s' is declared '%s' but its value is '%s'",
                            stmt->as.binding.name.text, spx_vtype_name(local_type, scope->pool),
                            type_text(scope, value)));
    stmt->as.binding.slot =
        declare(scope, &stmt->as.binding.name, local_type, stmt->kind == SPX_STMT_VAR, 0, 0);
}

/* place = e; where place is x[i]..., x.f...: rooted at a var, never
 * through a str (E0422). The index expressions are checked before e. Array
 * and struct values are not typed yet: a place through one was already
 * reported, so nothing more is said about it. */
static void check_place_assign(scope_t *scope, spx_stmt_t *stmt)
{
    spx_expr_t *place = stmt->as.assign.place;
    const spx_name_t *name = &stmt->as.assign.name;
    size_t before = spx_diagnostics_count(scope->checker->diagnostics);
    check_expr(scope, place);
    local_t *local = lookup(scope, name->text);
    stmt->as.assign.slot = local ? local->slot : -1;
    int through_str = 0;
    for (const spx_expr_t *step = place; step && step->kind != SPX_EXPR_NAME;) {
        const spx_expr_t *base =
            step->kind == SPX_EXPR_INDEX ? step->as.index.base : step->as.field.base;
        if (step->kind == SPX_EXPR_INDEX && type_of(base) == SPX_TYPE_STR)
            through_str = 1;
        if (step->kind != SPX_EXPR_INDEX && step->kind != SPX_EXPR_FIELD)
            break;
        step = base;
    }
    if (through_str)
        report(scope, SPX_E0422, place->span,
               "a str cannot be assigned through: its bytes are read with s[i], never written");
    else if (local && !local->is_var && local->type != SPX_TYPE_ERROR &&
             spx_diagnostics_count(scope->checker->diagnostics) == before)
        report(scope, SPX_E0312, name->span,
               apr_psprintf(scope->pool, "cannot assign to '%s': it is %s", name->text,
                            local_kind(local)));
    const spx_vtype_t *wanted = vtype_of(scope, place);
    spx_expr_t *value = stmt->as.assign.value;
    expect(scope, wanted); /* the place's type */
    check_expr(scope, value);
    spx_type_t type = type_of(value);
    if (type == SPX_TYPE_UNIT)
        report_unit(scope, value, "stored");
    else if (type != SPX_TYPE_ERROR && wanted->kind != SPX_TYPE_ERROR &&
             vtype_of(scope, value) != wanted)
        report(scope, SPX_E0411, value->span,
               apr_psprintf(
                   scope->pool, "cannot assign '%s' to '%s' of type '%s'", type_text(scope, value),
                   apr_pstrndup(scope->pool,
                                (const char *)scope->module->text + place->span.start.offset,
                                place->span.end.offset - place->span.start.offset),
                   spx_vtype_name(wanted, scope->pool)));
}

static void check_assign(scope_t *scope, spx_stmt_t *stmt)
{
    spx_expr_t *value = stmt->as.assign.value;
    const spx_name_t *name = &stmt->as.assign.name;
    if (stmt->as.assign.place) {
        check_place_assign(scope, stmt);
        return;
    }
    local_t *local = lookup(scope, name->text);
    expect(scope, local ? local->vtype : NULL); /* the variable's type */
    check_expr(scope, value);
    spx_type_t type = type_of(value);
    if (type == SPX_TYPE_UNIT)
        report_unit(scope, value, "stored");
    stmt->as.assign.slot = local ? local->slot : -1;
    if (!local) {
        if (!scope->function->incomplete)
            report_unknown_name(scope, name, 0);
        return;
    }
    if (local->type == SPX_TYPE_ERROR)
        return;
    if (!local->is_var) {
        /* The assignment as a whole is wrong; its value's type is not reported too. */
        report(scope, SPX_E0312, name->span,
               apr_psprintf(scope->pool, "cannot assign to '%s': it is %s", name->text,
                            local_kind(local)));
        return;
    }
    if (type != SPX_TYPE_UNIT && type != SPX_TYPE_ERROR && vtype_of(scope, value) != local->vtype)
        report(scope, SPX_E0411, value->span,
               apr_psprintf(scope->pool, "cannot assign '%s' to '%s' of type '%s'",
                            type_text(scope, value), name->text,
                            spx_vtype_name(local->vtype, scope->pool)));
}

static void check_return(scope_t *scope, spx_stmt_t *stmt)
{
    spx_expr_t *value = stmt->as.return_stmt.value;
    spx_function_t *function = scope->function;
    spx_type_t wanted = scope->result->kind;
    if (wanted != SPX_TYPE_UNIT)
        expect(scope, scope->result); /* the result type; a unit function's has none */
    if (value)
        check_expr(scope, value);
    scope->expects = 0;
    if (wanted == SPX_TYPE_ERROR)
        return; /* a result type that does not resolve: reported */
    spx_type_t type = type_of(value);
    if (wanted == SPX_TYPE_UNIT) {
        if (value && type != SPX_TYPE_ERROR)
            report(scope, SPX_E0409, value->span,
                   apr_psprintf(scope->pool, "'%s' returns unit, so 'return' takes no value",
                                function->name.text));
    } else if (!value) {
        report(scope, SPX_E0408, stmt->span,
               apr_psprintf(scope->pool, "'%s' must return a value of type '%s'",
                            function->name.text, spx_vtype_name(scope->result, scope->pool)));
    } else if (type == SPX_TYPE_UNIT) {
        report_unit(scope, value, "returned");
    } else if (type != SPX_TYPE_ERROR && vtype_of(scope, value) != scope->result) {
        report(scope, SPX_E0407, value->span,
               apr_psprintf(scope->pool, "'%s' must return '%s', not '%s'", function->name.text,
                            spx_vtype_name(scope->result, scope->pool), type_text(scope, value)));
    }
}

/* An if with its else-if chain, walked as a loop; 1 when every branch
 * returns (which needs a final else). */
static int check_if(scope_t *scope, spx_stmt_t *stmt)
{
    int all_return = 1;
    for (;;) {
        check_condition(scope, stmt->as.if_stmt.condition);
        if (!check_block(scope, &stmt->as.if_stmt.then_block))
            all_return = 0;
        spx_stmt_t *next = stmt->as.if_stmt.else_if;
        if (next && next->kind == SPX_STMT_IF) {
            stmt = next;
            continue;
        }
        if (stmt->as.if_stmt.else_block) {
            if (!check_block(scope, stmt->as.if_stmt.else_block))
                all_return = 0;
        } else {
            all_return = 0;
        }
        return all_return;
    }
}

/* A bound of "for i in a..b": an int. */
static void check_range_bound(scope_t *scope, spx_expr_t *bound)
{
    check_expr(scope, bound);
    spx_type_t type = type_of(bound);
    if (type == SPX_TYPE_UNIT)
        report_unit(scope, bound, "a range bound");
    else if (type != SPX_TYPE_ERROR && type != SPX_TYPE_INT)
        report(scope, SPX_E0412, bound->span,
               apr_psprintf(scope->pool, "a range bound must be 'int', not '%s'",
                            type_text(scope, bound)));
}

/* "for i in a..b { }" (i an immutable int) and "for x in xs { }" (xs an
 * array; x an immutable element). The variable's scope is the body; the
 * body never counts as returning. */
static void check_for(scope_t *scope, spx_stmt_t *stmt)
{
    const spx_vtype_t *variable_type = basic_type(scope, SPX_TYPE_INT);
    if (stmt->as.for_stmt.to) {
        check_range_bound(scope, stmt->as.for_stmt.from);
        check_range_bound(scope, stmt->as.for_stmt.to);
    } else {
        spx_expr_t *array = stmt->as.for_stmt.from;
        check_expr(scope, array);
        spx_type_t type = type_of(array);
        variable_type = basic_type(scope, SPX_TYPE_ERROR);
        if (type == SPX_TYPE_UNIT)
            report_unit(scope, array, "iterated over");
        else if (type == SPX_TYPE_ARRAY)
            variable_type = vtype_of(scope, array)->element;
        else if (type != SPX_TYPE_ERROR)
            report(scope, SPX_E0413, array->span,
                   apr_psprintf(scope->pool,
                                "'for %s in' needs an array or a range 'a..b', not '%s'",
                                stmt->as.for_stmt.variable.text, type_text(scope, array)));
        /* else: the array's type is unknown because of an earlier diagnostic */
    }
    int first = scope->locals->nelts;
    stmt->as.for_stmt.slot = declare(scope, &stmt->as.for_stmt.variable, variable_type, 0, 0, 1);
    scope->loop_depth++;
    check_block(scope, &stmt->as.for_stmt.body);
    scope->loop_depth--;
    for (int i = first; i < scope->locals->nelts; i++)
        APR_ARRAY_IDX(scope->locals, i, local_t *)->visible = 0;
}

/* break and continue: inside a for or while body only. */
static void check_jump(scope_t *scope, spx_stmt_t *stmt, const char *keyword)
{
    spx_span_t span = keyword_span(stmt->span.start, (uint32_t)strlen(keyword));
    if (scope->loop_depth == 0)
        report(scope, SPX_E0313, span,
               apr_psprintf(scope->pool,
                            "'%s' outside a loop: it must be inside a 'for' or "
                            "'while' body",
                            keyword));
}

/* Checks stmt; 1 when every path through it ends in a return. */
static int check_stmt(scope_t *scope, spx_stmt_t *stmt)
{
    if (!stmt)
        return 0;
    switch (stmt->kind) {
    case SPX_STMT_LET:
    case SPX_STMT_VAR:
        check_binding(scope, stmt);
        return 0;
    case SPX_STMT_ASSIGN:
        check_assign(scope, stmt);
        return 0;
    case SPX_STMT_IF:
        return check_if(scope, stmt);
    case SPX_STMT_WHILE:
        check_condition(scope, stmt->as.while_stmt.condition);
        scope->loop_depth++;
        check_block(scope, &stmt->as.while_stmt.body);
        scope->loop_depth--;
        return 0; /* the body may run zero times */
    case SPX_STMT_RETURN:
        check_return(scope, stmt);
        return 1;
    case SPX_STMT_EXPR:
        check_expr(scope, stmt->as.expr_stmt.expression); /* any type, unit included */
        return 0;
    case SPX_STMT_FOR:
        check_for(scope, stmt);
        return 0; /* the body may run zero times */
    case SPX_STMT_BREAK:
        check_jump(scope, stmt, "break");
        return 0;
    case SPX_STMT_CONTINUE:
        check_jump(scope, stmt, "continue");
        return 0;
    }
    return 0;
}

/* The keyword of a statement that leaves its block on every path, for
 * W0603; NULL for one after which the block goes on. */
static const char *leaving_keyword(const spx_stmt_t *stmt, int returns)
{
    if (stmt->kind == SPX_STMT_RETURN)
        return "return";
    if (stmt->kind == SPX_STMT_BREAK)
        return "break";
    if (stmt->kind == SPX_STMT_CONTINUE)
        return "continue";
    return returns ? "if" : NULL;
}

/* Checks block; 1 when it returns on every path. Statements after a return,
 * break or continue are still checked; the first of them is W0603 (unreachable
 * code is a warning, not an error). */
static int check_block(scope_t *scope, spx_block_t *block)
{
    int first = scope->locals->nelts;
    int returns = 0;
    const spx_stmt_t *left = NULL; /* the statement after which nothing runs */
    const char *keyword = NULL;
    int warned = 0;
    for (apr_size_t i = 0; i < block->count; i++) {
        spx_stmt_t *stmt = block->statements[i];
        if (!stmt)
            continue;
        if (left && !warned && !scope->function->incomplete) {
            warned = 1;
            spx_diagnostic_t *item =
                report(scope, SPX_W0603, stmt->span,
                       strcmp(keyword, "if") == 0
                           ? "unreachable statement: every path of the 'if' before it leaves"
                           : apr_psprintf(scope->pool, "unreachable statement: it follows a '%s'",
                                          keyword));
            spx_diagnostic_note(scope->checker->diagnostics, item, scope->module->path,
                                keyword_span(left->span.start, (uint32_t)strlen(keyword)),
                                "every path leaves here");
        }
        int stmt_returns = check_stmt(scope, stmt);
        if (stmt_returns)
            returns = 1;
        if (!left && leaving_keyword(stmt, stmt_returns)) {
            left = stmt;
            keyword = leaving_keyword(stmt, stmt_returns);
        }
    }
    /* The block's locals (and its inner blocks') go out of sight. */
    for (int i = first; i < scope->locals->nelts; i++)
        APR_ARRAY_IDX(scope->locals, i, local_t *)->visible = 0;
    return returns;
}

static void check_function(checker_t *checker, apr_size_t module_index, spx_function_t *function)
{
    spx_module_t *module = checker->modules[module_index];
    scope_t scope = {0};
    scope.checker = checker;
    scope.module = module;
    scope.imports = checker->imports[module_index];
    scope.consts = checker->consts[module_index];
    scope.structs = checker->structs[module_index];
    scope.function = function;
    scope.pool = checker->function;
    scope.module_index = module_index;
    const char *exported_by =
        function->exported ? apr_psprintf(scope.pool, "function '%s'", function->name.text) : NULL;
    scope.names = apr_hash_make(scope.pool);
    scope.locals = apr_array_make(scope.pool, 16, sizeof(local_t *));
    for (apr_size_t i = 0; i < function->param_count; i++) {
        const spx_param_t *param = &function->params[i];
        const spx_vtype_t *type = written_type(checker, module, param->type_syntax, param->type);
        if (param->type_syntax) {
            if (!check_type_syntax(checker, module_index, param->type_syntax, exported_by))
                type = basic_type(&scope, SPX_TYPE_ERROR);
        }
        declare(&scope, &param->name, type, 0, 1, 0);
    }
    scope.result = written_type(checker, module, function->result_syntax, function->result);
    if (function->result_syntax) {
        if (!check_type_syntax(checker, module_index, function->result_syntax, exported_by))
            scope.result = basic_type(&scope, SPX_TYPE_ERROR);
    }
    /* A body that did not parse (incomplete: a syntax error, already
     * reported, left statements out) gets no semantic diagnostic at all:
     * what it lost may be what its errors are about. It is still walked,
     * into a list that is dropped, with a set of its own for the structs
     * reported unknown, so that a struct first named there is still reported
     * where a whole function names it. */
    spx_diagnostics_t *reported = checker->diagnostics;
    apr_hash_t *unknown_structs = checker->unknown_structs;
    if (function->incomplete) {
        checker->diagnostics = spx_diagnostics_make(scope.pool);
        checker->unknown_structs = apr_hash_make(scope.pool);
    }
    int returns = check_block(&scope, &function->body);
    checker->diagnostics = reported;
    checker->unknown_structs = unknown_structs;
    /* An incomplete body lost statements to a syntax error (already
     * reported): its missing names and returns may be among them. */
    if (function->result != SPX_TYPE_UNIT && !returns && !function->incomplete &&
        scope.result->kind != SPX_TYPE_ERROR)
        report(&scope, SPX_E0410, function->name.span,
               apr_psprintf(scope.pool, "'%s' does not return a value on every path",
                            function->name.text));
    /* W0602: a parameter or local never named after its declaration. In an
     * incomplete body its uses may have been lost, and a name starting
     * with '_' says that it is unused on purpose. */
    for (int i = 0; i < scope.locals->nelts && !function->incomplete; i++) {
        const local_t *local = APR_ARRAY_IDX(scope.locals, i, local_t *);
        if (local->used || !local->name->text || local->name->text[0] == '_' ||
            local->type == SPX_TYPE_ERROR)
            continue;
        report(&scope, SPX_W0602, local->name->span,
               apr_psprintf(scope.pool,
                            "%s '%s' is never used (a name starting with '_' says it is on "
                            "purpose)",
                            local->is_parameter ? "parameter" : "local", local->name->text));
    }
    function->local_count = (apr_size_t)scope.locals->nelts;
    apr_pool_clear(scope.pool);
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
    checker->diagnostics = diagnostics;
    checker->unknown_structs = apr_hash_make(pool);
    apr_pool_create(&checker->scratch, pool);
    apr_pool_create(&checker->function, checker->scratch);
    checker->module_index = apr_hash_make(checker->scratch);
    checker->import_is_edge = apr_pcalloc(checker->scratch, (module_count + 1) * sizeof(char *));
    checker->imports = apr_pcalloc(checker->scratch, (module_count + 1) * sizeof(apr_hash_t *));
    checker->spine = apr_array_make(checker->scratch, 64, sizeof(spx_expr_t *));
    checker->consts = apr_pcalloc(checker->scratch, (module_count + 1) * sizeof(apr_hash_t *));
    checker->structs = apr_pcalloc(checker->scratch, (module_count + 1) * sizeof(apr_hash_t *));

    /* Module names are unique (the manifest checks it); the first one wins. */
    for (apr_size_t i = 0; i < module_count; i++) {
        if (apr_hash_get(checker->module_index, modules[i]->name, APR_HASH_KEY_STRING))
            continue;
        apr_size_t *index = apr_palloc(checker->scratch, sizeof(*index));
        *index = i;
        apr_hash_set(checker->module_index, modules[i]->name, APR_HASH_KEY_STRING, index);
    }
    return checker;
}

void spx_checker_declare(spx_checker_t *checker, apr_size_t module_index)
{
    resolve_imports(checker, module_index);
    collect_functions(checker, checker->modules[module_index]);
    collect_items(checker, module_index);
}

void spx_checker_check_bodies(spx_checker_t *checker, apr_size_t module_index)
{
    spx_module_t *module = checker->modules[module_index];
    for (apr_size_t j = 0; j < module->struct_count; j++)
        check_struct(checker, module_index, module->structs[j]);
    for (apr_size_t j = 0; j < module->function_count; j++)
        check_function(checker, module_index, module->functions[j]);
}

/* W0601: an import that no call, const or type of its module names (once
 * the consts, which may name one, are evaluated). */
static void find_unused_imports(checker_t *checker)
{
    for (apr_size_t m = 0; m < checker->module_count; m++) {
        const spx_module_t *module = checker->modules[m];
        for (apr_size_t i = 0; checker->import_is_edge[m] && i < module->import_count; i++) {
            const spx_import_t *import = &module->imports[i];
            if (import->target && !import->used && checker->import_is_edge[m][i])
                spx_diagnostics_add(
                    checker->diagnostics, SPX_W0601, module->path, import->module.span,
                    "module '%s' is imported but nothing of it is used", import->module.text);
        }
    }
}

void spx_checker_finish(spx_checker_t *checker)
{
    find_import_cycles(checker);
    find_struct_cycles(checker);
    evaluate_consts(checker);
    find_unused_imports(checker);
    apr_pool_destroy(checker->scratch);
    /* Warnings speak of a program that is otherwise right: beside an
     * error they would often be its echo (a local whose use did not
     * parse), so only the errors are kept. */
    if (spx_diagnostics_error_count(checker->diagnostics) > 0)
        spx_diagnostics_drop_warnings(checker->diagnostics);
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
}
