/*
 * checker_statements.c: pass 3 over whole functions (docs/language.md,
 * "Types and rules"): parameters and locals declared in their scopes
 * (E0307, E0318) and looked up, the statements of a body (let and var with
 * their annotations, E0401; assignments to variables and places, E0312,
 * E0411, E0422; conditions, E0406; returns, E0407 to E0409; for over a range
 * or an array, E0412, E0413; break and continue outside a loop, E0313), the
 * paths that do not return (E0410), unreachable statements (W0603) and
 * locals never used (W0602). The expressions inside the statements are
 * checker_expressions.c's.
 */
#include "checker_internal.h"

#include <apr_strings.h>
#include <string.h>

/* The span of a keyword of size bytes at start (on one line). */
static spx_span_t keyword_span(spx_position_t start, uint32_t size)
{
    spx_span_t span = {start, start};
    span.end.column += size;
    span.end.offset += size;
    return span;
}

local_t *spx_checker_lookup(scope_t *scope, const char *name)
{
    if (!name)
        return NULL;
    for (local_t *local = spx_name_table_get(scope->names, name); local; local = local->previous)
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
    local->vtype = type;
    local->is_var = is_var;
    local->is_parameter = is_parameter;
    local->is_for = is_for;
    local->visible = 1;
    local->name = name;
    local->outer = scope->innermost;
    scope->innermost = local;
    APR_ARRAY_PUSH(scope->locals, local_t *) = local;
    if (!name->text)
        return local->slot;
    uint32_t hash = spx_name_hash(name->text); /* once for the four tables */
    if (spx_name_table_find(scope->consts, name->text, hash) ||
        spx_name_table_find(scope->structs, name->text, hash) ||
        spx_name_table_find(scope->enums, name->text, hash)) {
        /* The name stays the item's: uses of it are not the local's. */
        local->vtype = basic_type(scope, SPX_TYPE_ERROR);
        report(scope, SPX_E0318, name->span,
               apr_psprintf(scope->pool, "'%s' is %s of module '%s'; a local cannot take its name",
                            name->text,
                            spx_name_table_get(scope->consts, name->text)  ? "a const"
                            : spx_name_table_get(scope->enums, name->text) ? "an enum"
                                                                           : "a struct",
                            scope->module->name));
        return local->slot;
    }
    local->previous = spx_name_table_find(scope->names, name->text, hash);
    /* A name in scope may not be declared again (E0307); out of scope (a
     * sibling block, an earlier loop) it conflicts with nothing. */
    const local_t *conflict = NULL;
    for (const local_t *earlier = local->previous; earlier && !conflict;
         earlier = earlier->previous)
        if (earlier->visible)
            conflict = earlier;
    if (conflict) {
        local->vtype = basic_type(scope, SPX_TYPE_ERROR);
        spx_checker_note_first(
            scope->checker,
            report(scope, SPX_E0307, name->span,
                   apr_psprintf(scope->pool, "'%s' is already declared in function '%s'",
                                name->text, scope->function->name.text)),
            scope->module->path, conflict->name->span);
    }
    spx_name_table_put(scope->names, name->text, hash, local);
    return local->slot;
}

/* A block or a for loop ends: the locals declared in it from slot first on
 * (its inner blocks' too) go out of sight, and outer, the innermost local
 * visible where it began, is again. */
static void close_scope(scope_t *scope, int first, local_t *outer)
{
    for (int i = first; i < scope->locals->nelts; i++)
        APR_ARRAY_IDX(scope->locals, i, local_t *)->visible = 0;
    scope->innermost = outer;
}

static void check_condition(scope_t *scope, spx_expr_t *condition)
{
    spx_checker_check_expr(scope, condition);
    spx_type_t type = type_of(condition);
    if (type == SPX_TYPE_UNIT)
        spx_checker_report_unit(scope, condition, "a condition");
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
        expect(scope, spx_checker_written_type(scope->checker, scope->module,
                                               stmt->as.binding.type_syntax, SPX_TYPE_ERROR));
    else if (stmt->as.binding.has_type)
        expect(scope, basic_type(scope, stmt->as.binding.declared));
    spx_checker_check_expr(scope, value); /* before the declaration: "let x = x;" is not itself */
    spx_type_t type = type_of(value);
    const spx_vtype_t *local_type = vtype_of(scope, value);
    if (type == SPX_TYPE_UNIT) {
        spx_checker_report_unit(scope, value, "stored");
        local_type = basic_type(scope, SPX_TYPE_ERROR);
    }
    int annotated = stmt->as.binding.has_type;
    if (stmt->as.binding.type_syntax) {
        annotated = spx_checker_check_type_syntax(scope->checker, scope->module_index,
                                                  stmt->as.binding.type_syntax, NULL);
        local_type = basic_type(scope, SPX_TYPE_ERROR);
        if (annotated) {
            local_type = spx_checker_written_type(scope->checker, scope->module,
                                                  stmt->as.binding.type_syntax, SPX_TYPE_ERROR);
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
static const spx_vtype_t *check_place_target(scope_t *scope, spx_stmt_t *stmt);

static void check_place_assign(scope_t *scope, spx_stmt_t *stmt)
{
    spx_expr_t *place = stmt->as.assign.place;
    const spx_vtype_t *wanted = check_place_target(scope, stmt);
    spx_expr_t *value = stmt->as.assign.value;
    expect(scope, wanted); /* the place's type */
    spx_checker_check_expr(scope, value);
    spx_type_t type = type_of(value);
    if (type == SPX_TYPE_UNIT)
        spx_checker_report_unit(scope, value, "stored");
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

/* The place of "place = e;" or "place op= e;" (its indexes checked, its
 * root resolved, E0422 and E0312 reported): its type. */
static const spx_vtype_t *check_place_target(scope_t *scope, spx_stmt_t *stmt)
{
    spx_expr_t *place = stmt->as.assign.place;
    const spx_name_t *name = &stmt->as.assign.name;
    size_t before = spx_diagnostics_count(scope->checker->diagnostics);
    spx_checker_check_expr(scope, place);
    local_t *local = spx_checker_lookup(scope, name->text);
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
    else if (local && !local->is_var && local->vtype->kind != SPX_TYPE_ERROR &&
             spx_diagnostics_count(scope->checker->diagnostics) == before)
        report(scope, SPX_E0312, name->span,
               apr_psprintf(scope->pool, "cannot assign to '%s': it is %s", name->text,
                            local_kind(local)));
    return vtype_of(scope, place);
}

/* v3: "P op= e;", typed as "P = P op e;" with P checked once: P (the
 * place's indexes, or the variable), then e expecting P's type, then the
 * operator (E0405; E0312 and E0422 from P). The operator's result is P's
 * type whenever it takes its operands. */
static void check_compound(scope_t *scope, spx_stmt_t *stmt)
{
    spx_expr_t *operation = stmt->as.assign.compound;
    spx_expr_t *target = operation->as.binary.left;
    const spx_vtype_t *wanted;
    if (stmt->as.assign.place) {
        wanted = check_place_target(scope, stmt);
    } else {
        const spx_name_t *name = &stmt->as.assign.name;
        local_t *local = spx_checker_lookup(scope, name->text);
        stmt->as.assign.slot = local ? local->slot : -1;
        spx_checker_check_expr(scope, target); /* unknown names are reported here */
        if (local && !local->is_var && local->vtype->kind != SPX_TYPE_ERROR)
            report(scope, SPX_E0312, name->span,
                   apr_psprintf(scope->pool, "cannot assign to '%s': it is %s", name->text,
                                local_kind(local)));
        wanted = vtype_of(scope, target);
    }
    expect(scope, wanted); /* the right side expects P's type */
    spx_checker_check_expr(scope, stmt->as.assign.value);
    spx_checker_check_operation(scope, operation);
}

static void check_assign(scope_t *scope, spx_stmt_t *stmt)
{
    spx_expr_t *value = stmt->as.assign.value;
    const spx_name_t *name = &stmt->as.assign.name;
    if (stmt->as.assign.compound) {
        check_compound(scope, stmt);
        return;
    }
    if (stmt->as.assign.place) {
        check_place_assign(scope, stmt);
        return;
    }
    local_t *local = spx_checker_lookup(scope, name->text);
    expect(scope, local ? local->vtype : NULL); /* the variable's type */
    spx_checker_check_expr(scope, value);
    spx_type_t type = type_of(value);
    if (type == SPX_TYPE_UNIT)
        spx_checker_report_unit(scope, value, "stored");
    stmt->as.assign.slot = local ? local->slot : -1;
    if (!local) {
        if (!scope->function->incomplete)
            spx_checker_report_unknown_name(scope, name, 0);
        return;
    }
    if (local->vtype->kind == SPX_TYPE_ERROR)
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
        spx_checker_check_expr(scope, value);
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
        spx_checker_report_unit(scope, value, "returned");
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
    spx_checker_check_expr(scope, bound);
    spx_type_t type = type_of(bound);
    if (type == SPX_TYPE_UNIT)
        spx_checker_report_unit(scope, bound, "a range bound");
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
        spx_checker_check_expr(scope, array);
        spx_type_t type = type_of(array);
        variable_type = basic_type(scope, SPX_TYPE_ERROR);
        if (type == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, array, "iterated over");
        else if (type == SPX_TYPE_ARRAY)
            variable_type = vtype_of(scope, array)->element;
        else if (type == SPX_TYPE_MAP) /* v3: its keys, in order */
            variable_type = vtype_of(scope, array)->key;
        else if (type != SPX_TYPE_ERROR)
            report(scope, SPX_E0413, array->span,
                   apr_psprintf(scope->pool,
                                "'for %s in' needs an array or a range 'a..b', not '%s'",
                                stmt->as.for_stmt.variable.text, type_text(scope, array)));
        /* else: the array's type is unknown because of an earlier diagnostic */
    }
    int first = scope->locals->nelts;
    local_t *outer = scope->innermost;
    stmt->as.for_stmt.slot = declare(scope, &stmt->as.for_stmt.variable, variable_type, 0, 0, 1);
    scope->loop_depth++;
    check_block(scope, &stmt->as.for_stmt.body);
    scope->loop_depth--;
    close_scope(scope, first, outer);
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
        spx_checker_check_expr(scope, stmt->as.expr_stmt.expression); /* any type, unit included */
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
    case SPX_STMT_MATCH:
        return spx_checker_check_match(scope, stmt);
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
    if (returns)
        return stmt->kind == SPX_STMT_MATCH ? "match" : "if";
    return NULL;
}

/* Checks block; 1 when it returns on every path. Statements after a return,
 * break or continue are still checked; the first of them is W0603 (unreachable
 * code is a warning, not an error). */
static int check_block(scope_t *scope, spx_block_t *block)
{
    int first = scope->locals->nelts;
    local_t *outer = scope->innermost;
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
                       strcmp(keyword, "if") == 0 || strcmp(keyword, "match") == 0
                           ? apr_psprintf(scope->pool,
                                          "unreachable statement: every path of the '%s' before "
                                          "it leaves",
                                          keyword)
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
    close_scope(scope, first, outer);
    return returns;
}

void spx_checker_check_function(checker_t *checker, apr_size_t module_index,
                                spx_function_t *function)
{
    spx_module_t *module = checker->modules[module_index];
    scope_t scope = {0};
    scope.checker = checker;
    scope.module = module;
    scope.imports = checker->imports[module_index];
    scope.consts = checker->consts[module_index];
    scope.structs = checker->structs[module_index];
    scope.enums = checker->enums[module_index];
    scope.function = function;
    scope.pool = checker->function;
    scope.module_index = module_index;
    /* What an exported function's written types name must be exported for:
     * made when the first of them is checked (most are basic: none is). */
    const char *exported_by = NULL;
    scope.names = checker->names;
    spx_name_table_clear(scope.names);
    scope.locals = apr_array_make(scope.pool, 16, sizeof(local_t *));
    for (apr_size_t i = 0; i < function->param_count; i++) {
        const spx_param_t *param = &function->params[i];
        const spx_vtype_t *type =
            spx_checker_written_type(checker, module, param->type_syntax, param->type);
        if (param->type_syntax) {
            if (function->exported && !exported_by)
                exported_by = apr_psprintf(scope.pool, "function '%s'", function->name.text);
            if (!spx_checker_check_type_syntax(checker, module_index, param->type_syntax,
                                               exported_by))
                type = basic_type(&scope, SPX_TYPE_ERROR);
        }
        declare(&scope, &param->name, type, 0, 1, 0);
    }
    scope.result =
        spx_checker_written_type(checker, module, function->result_syntax, function->result);
    if (function->result_syntax) {
        if (function->exported && !exported_by)
            exported_by = apr_psprintf(scope.pool, "function '%s'", function->name.text);
        if (!spx_checker_check_type_syntax(checker, module_index, function->result_syntax,
                                           exported_by))
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
            local->vtype->kind == SPX_TYPE_ERROR)
            continue;
        report(&scope, SPX_W0602, local->name->span,
               apr_psprintf(scope.pool,
                            "%s '%s' is never used (a name starting with '_' says it is on "
                            "purpose)",
                            local->is_parameter ? "parameter" : "local", local->name->text));
    }
    function->local_count = (apr_size_t)scope.locals->nelts;
    spx_checker_mark_moves(function, scope.pool);
    apr_pool_clear(scope.pool);
}

int spx_checker_declare_binder(scope_t *scope, const spx_name_t *name, const spx_vtype_t *type)
{
    int slot = declare(scope, name, type, 0, 0, 0);
    APR_ARRAY_IDX(scope->locals, slot, local_t *)->is_binder = 1;
    return slot;
}

int spx_checker_check_block(scope_t *scope, spx_block_t *block)
{
    return check_block(scope, block);
}

void spx_checker_close_scope(scope_t *scope, int first, local_t *outer)
{
    close_scope(scope, first, outer);
}
