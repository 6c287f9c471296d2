/*
 * checker_expressions.c: the types of the expressions of function bodies
 * (pass 3; docs/language.md, "Types and rules", "Builtins"): names
 * resolved to locals or consts (E0308), calls to their functions or
 * builtins with their arguments (E0309 to E0311, E0403, E0404), methods
 * (checker_methods.c's), fields and m.X consts
 * (E0419, E0424), indexes and slices (E0417, E0418), array and struct
 * literals (E0423, E0425 to E0428), and operators (E0405), each expression
 * getting its type (and for arrays and structs its spx_vtype_t). A unit
 * value where a value is needed is E0402. An operator chain is walked over
 * an explicit stack (checker->spine). The statements around the
 * expressions are checker_statements.c's.
 */
#include "checker_internal.h"
#include "spx_array.h"
#include "spx_assert.h"
#include "spx_limits.h"

#include <apr_strings.h>
#include <string.h>

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
void spx_checker_report_unit(scope_t *scope, const spx_expr_t *expr, const char *use)
{
    const char *what = expr->kind == SPX_EXPR_CALL ? callee_text(expr, scope->pool) : "?";
    report(scope, SPX_E0402, expr->span,
           apr_psprintf(scope->pool, "'%s' returns unit, which cannot be %s", what, use));
}

/* A call to name in module that no declaration answers: unknown (E0309),
 * unless a function of that name was declared with a header that did not
 * parse, whose syntax error already stands for it. */
static void report_unknown_function(scope_t *scope, const spx_module_t *module, spx_span_t span,
                                    const char *name)
{
    if (module->unreadable_by_name &&
        apr_hash_get(module->unreadable_by_name, name, APR_HASH_KEY_STRING))
        return;
    /* f() where an imported m exports f: m.f first (the call lacks its
     * module), then the nearest of the module's own. */
    int own = module == scope->module;
    const char *meant[SPX_LIMIT_SUGGESTIONS];
    size_t count = own ? spx_checker_exported_elsewhere(scope->checker, scope->module, name,
                                                        EXPORTED_FUNCTION, meant, scope->pool)
                       : 0;
    /* The functions that could be meant: the module's own and the builtins
     * from inside it, the exported ones (as m.f) from another. */
    spx_suggest_t search;
    spx_checker_search(&search, name, count);
    for (apr_size_t i = 0; i < module->function_count; i++) {
        const spx_function_t *function = module->functions[i];
        if (!spx_suggest_offer(&search, own || function->exported ? function->name.text : NULL))
            break;
    }
    if (own)
        spx_checker_offer_builtins(&search);
    spx_diagnostic_t *item = report(
        scope, SPX_E0309, span,
        apr_psprintf(scope->pool, "unknown function '%s' in module '%s'", name, module->name));
    spx_checker_suggest(scope->checker, item, meant, count, &search,
                        own ? "" : apr_pstrcat(scope->pool, module->name, ".", NULL), scope->pool);
}

/* The type a use of constant has: its declared type; error when that is
 * not int, bool or str (E0414, reported with the const). */
static spx_type_t const_type(const spx_const_t *constant)
{
    return constant->type_syntax ? SPX_TYPE_ERROR : constant->type;
}

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
        const spx_builtin_info_t *builtin = spx_builtin_called(name);
        if (builtin) {
            call->as.call->builtin = builtin->builtin;
            const spx_vtype_t **types =
                apr_palloc(scope->pool, (builtin->arity + 1) * sizeof(*types));
            for (apr_size_t i = 0; i < builtin->arity; i++)
                types[i] = basic_type(scope, builtin->parameters[i]);
            *parameters = types;
            /* All its arguments, or all but the optional last ones (assert's
             * message, language v2) */
            *parameter_count = call->as.call->argument_count == builtin->arity
                                   ? builtin->arity
                                   : builtin->arity - builtin->optional;
            *result = builtin->builtin == SPX_BUILTIN_ARGS
                          ? spx_types_array(scope->checker->types, basic_type(scope, SPX_TYPE_STR))
                          : basic_type(scope, builtin->result);
            return 1;
        }
        target = spx_module_function(scope->module, name);
        if (!target) {
            report_unknown_function(scope, scope->module, call->as.call->function.span, name);
            return 0;
        }
    } else {
        spx_import_t *import = spx_name_table_get(scope->imports, module_name);
        if (!import) {
            spx_suggest_t search;
            spx_checker_search(&search, module_name, 0);
            spx_checker_offer_imports(scope->module, &search);
            spx_checker_suggest(
                scope->checker,
                report(scope, SPX_E0310, call->as.call->module.span,
                       apr_psprintf(scope->pool, "module '%s' is not imported", module_name)),
                NULL, 0, &search, "", scope->pool);
            return 0;
        }
        import->used = 1;
        if (!import->target)
            return 0; /* the import itself was reported */
        target = spx_module_function(import->target, name);
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
        types[i] = spx_checker_written_type(scope->checker, target->module,
                                            target->params[i].type_syntax, target->params[i].type);
    call->as.call->target = target;
    if (target != scope->function)
        target->called = 1; /* a call from itself does not make it used */
    *parameters = types;
    *parameter_count = target->param_count;
    *result = spx_checker_written_type(scope->checker, target->module, target->result_syntax,
                                       target->result);
    return 1;
}

static const spx_vtype_t *check_call(scope_t *scope, spx_expr_t *call)
{
    const spx_vtype_t **parameters = NULL;
    apr_size_t parameter_count = 0;
    const spx_vtype_t *result = basic_type(scope, SPX_TYPE_ERROR);
    call->as.call->target = NULL;
    call->as.call->builtin = SPX_BUILTIN_NONE;
    if (!call->as.call->receiver && !call->as.call->module.text && call->as.call->function.text &&
        call->as.call->function.text[0] == 'a' &&
        strcmp(call->as.call->function.text, "assert_eq") == 0)
        return spx_checker_check_assert_eq(scope, call); /* v3: typed by its first argument */
    /* e.name(...) where e is not an imported module's name: a method of
     * e's type (checker_methods.c); C.name(...) for a const C reads C as
     * the receiver. */
    const char *module = call->as.call->module.text;
    int imported = module && spx_name_table_get(scope->imports, module);
    if (module && !imported && !spx_checker_lookup(scope, module) &&
        spx_name_table_get(scope->consts, module)) {
        spx_expr_t *receiver = apr_pcalloc(scope->checker->pool, sizeof(*receiver));
        receiver->kind = SPX_EXPR_NAME;
        receiver->span = call->as.call->module.span;
        receiver->as.name.name = call->as.call->module;
        receiver->as.name.slot = -1;
        call->as.call->receiver = receiver;
        call->as.call->module = (spx_name_t){0};
    }
    if (call->as.call->receiver || (module && !imported && spx_checker_lookup(scope, module)))
        return spx_checker_check_method(scope, call);
    int known = resolve_call(scope, call, &parameters, &parameter_count, &result);
    /* A user function's parameters give their arguments a type. */
    int expecting = call->as.call->target != NULL;
    apr_size_t count = call->as.call->argument_count;
    /* Arguments are checked even when the callee is unknown. */
    for (apr_size_t i = 0; i < count; i++) {
        spx_expr_t *argument = call->as.call->arguments[i];
        if (expecting)
            expect(scope, i < parameter_count ? parameters[i] : NULL);
        spx_checker_check_expr(scope, argument);
        if (type_of(argument) == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, argument, "an argument");
    }
    if (!known)
        return basic_type(scope, SPX_TYPE_ERROR);
    if (count != parameter_count) {
        report(scope, SPX_E0403, call->span,
               apr_psprintf(scope->pool,
                            "'%s' takes %" APR_SIZE_T_FMT " argument%s, not %" APR_SIZE_T_FMT,
                            callee_text(call, scope->pool), parameter_count,
                            parameter_count == 1 ? "" : "s", count));
        return result;
    }
    /* A builtin whose first argument may be an array instead (len, language
     * v2). */
    int array_first = call->as.call->builtin != SPX_BUILTIN_NONE &&
                      spx_builtin_info(call->as.call->builtin)->arrays;
    for (apr_size_t i = 0; i < count; i++) {
        spx_expr_t *argument = call->as.call->arguments[i];
        spx_type_t type = type_of(argument);
        int array_too = array_first && i == 0;
        if (type != SPX_TYPE_ERROR && type != SPX_TYPE_UNIT &&
            parameters[i]->kind != SPX_TYPE_ERROR && vtype_of(scope, argument) != parameters[i] &&
            !(array_too && (type == SPX_TYPE_ARRAY || type == SPX_TYPE_MAP)))
            report(scope, SPX_E0404, argument->span,
                   apr_psprintf(scope->pool,
                                "argument %" APR_SIZE_T_FMT " of '%s' must be '%s'%s, not '%s'",
                                i + 1, callee_text(call, scope->pool),
                                spx_vtype_name(parameters[i], scope->pool),
                                array_too ? " or an array" : "", type_text(scope, argument)));
    }
    if (call->as.call->builtin == SPX_BUILTIN_READ_DATA)
        spx_checker_check_read_data(scope, call);
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
    spx_suggest_t search;
    spx_checker_search(&search, name, 0);
    for (apr_size_t j = 0; j < structure->field_count; j++)
        if (!spx_suggest_offer(&search, structure->fields[j].name.text))
            break;
    spx_checker_suggest(
        scope->checker,
        report(scope, SPX_E0424, span,
               apr_psprintf(scope->pool, "struct '%s' has no field '%s' (its fields: %s)",
                            structure->name.text, name, listed)),
        NULL, 0, &search, "", scope->pool);
}

/* The type of structure's field. */
static const spx_vtype_t *field_type(scope_t *scope, const spx_struct_t *structure,
                                     const spx_param_t *field)
{
    return spx_checker_written_type(scope->checker, structure->module, field->type_syntax,
                                    field->type);
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
        spx_checker_module_const(scope->checker, scope->module, scope->imports, expr, &resolved);
    if (resolved) {
        expr->type = constant ? const_type(constant) : SPX_TYPE_ERROR;
        expr->as.field.constant = constant;
        return;
    }
    spx_expr_t *base = expr->as.field.base;
    if (base && base->kind == SPX_EXPR_NAME && base->as.name.name.text &&
        !spx_checker_lookup(scope, base->as.name.name.text) &&
        !spx_name_table_get(scope->consts, base->as.name.name.text) &&
        spx_checker_module_index(scope->checker, base->as.name.name.text)) {
        report(scope, SPX_E0310, base->span,
               apr_psprintf(scope->pool, "module '%s' is not imported", base->as.name.name.text));
        return;
    }
    scope->field_base = base && base->kind == SPX_EXPR_NAME ? &base->as.name.name : NULL;
    spx_checker_check_expr(scope, base);
    scope->field_base = NULL;
    spx_type_t type = type_of(base);
    if (type == SPX_TYPE_UNIT)
        spx_checker_report_unit(scope, base, "read");
    else if (type == SPX_TYPE_STRUCT) {
        const spx_struct_t *structure = vtype_of(scope, base)->structure;
        SPX_ASSERT(structure != NULL); /* set_type gives a struct its vtype */
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
    spx_checker_check_expr(scope, bound);
    spx_type_t type = type_of(bound);
    if (type == SPX_TYPE_UNIT)
        spx_checker_report_unit(scope, bound, what);
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
    spx_checker_check_expr(scope, base);
    if (type_of(base) == SPX_TYPE_MAP) {
        spx_checker_check_map_index(scope, expr);
        return;
    }
    check_bound(scope, expr->as.index.index, slice ? "a slice bound" : "an index");
    if (slice)
        check_bound(scope, expr->as.index.to, "a slice bound");
    spx_type_t type = type_of(base);
    if (type == SPX_TYPE_UNIT) {
        spx_checker_report_unit(scope, base, slice ? "sliced" : "indexed");
    } else if (type == SPX_TYPE_STR) {
        expr->type = slice ? SPX_TYPE_STR : SPX_TYPE_INT;
    } else if (type == SPX_TYPE_ARRAY) {
        const spx_vtype_t *array = vtype_of(scope, base);
        SPX_ASSERT(array->kind == SPX_TYPE_ARRAY && array->element); /* set_type's vtype */
        set_type(expr, slice ? array : array->element);
    } else if (type != SPX_TYPE_ERROR) {
        report(scope, SPX_E0417, base->span,
               apr_psprintf(scope->pool,
                            "a value of type '%s' cannot be %s: only str and arrays can",
                            type_text(scope, base), slice ? "sliced" : "indexed"));
    }
}

/* 1 when an array literal has an element whose type needs no expected
 * type: not an array literal itself, or one that has such an element. */
static int literal_types_itself(const spx_expr_t *literal)
{
    for (apr_size_t i = 0; i < literal->as.array.count; i++) {
        const spx_expr_t *element = literal->as.array.elements[i];
        if (spx_checker_types_itself(element))
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
            if (item && spx_checker_types_itself(item))
                first = i;
        }
        if (first < expr->as.array.count) {
            spx_expr_t *item = expr->as.array.elements[first];
            spx_checker_check_expr(scope, item);
            if (type_of(item) == SPX_TYPE_UNIT)
                spx_checker_report_unit(scope, item, "an element");
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
        spx_checker_check_expr(scope, item);
        spx_type_t kind = type_of(item);
        if (kind == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, item, "an element");
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
    spx_struct_t *structure =
        spx_checker_resolve_struct(scope->checker, scope->module_index, &syntax);
    spx_name_table_t *given = spx_name_table_make(scope->pool); /* field name -> its first init */
    for (apr_size_t i = 0; i < literal->field_count; i++) {
        spx_field_init_t *init = &literal->fields[i];
        const char *name = init->name.text;
        const spx_param_t *field = structure ? find_field(structure, name) : NULL;
        if (structure && name) {
            if (!field) {
                report_no_field(scope, structure, init->name.span, name);
            } else if (spx_name_table_get(given, name)) {
                const spx_field_init_t *first = spx_name_table_get(given, name);
                spx_diagnostic_note(
                    scope->checker->diagnostics,
                    report(scope, SPX_E0425, init->name.span,
                           apr_psprintf(scope->pool, "field '%s' is given twice", name)),
                    scope->module->path, first->name.span, "first given here");
            } else {
                spx_name_table_put(given, name, spx_name_hash(name), init);
            }
        }
        const spx_vtype_t *wanted = field ? field_type(scope, structure, field) : NULL;
        expect(scope, wanted); /* the field's type */
        spx_checker_check_expr(scope, init->value);
        spx_type_t type = type_of(init->value);
        if (type == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, init->value, "stored");
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
            if (name && !spx_name_table_get(given, name))
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

/* E0308: name is no visible parameter or local; the visible ones, innermost
 * first (and, where a value is read, the module's consts; before a '.', the
 * modules it imports) are suggested. */
void spx_checker_report_unknown_name(scope_t *scope, const spx_name_t *name, int read)
{
    const char *meant[SPX_LIMIT_SUGGESTIONS];
    size_t count = read ? spx_checker_exported_elsewhere(scope->checker, scope->module, name->text,
                                                         EXPORTED_CONST, meant, scope->pool)
                        : 0;
    spx_suggest_t search;
    spx_checker_search(&search, name->text, count);
    for (const local_t *local = scope->innermost; local; local = local->outer)
        if (!spx_suggest_offer(&search, local->name->text))
            break;
    if (name == scope->field_base)
        spx_checker_offer_imports(scope->module, &search);
    if (read)
        spx_checker_offer_consts(scope->module, 0, &search);
    spx_checker_suggest(scope->checker,
                        report(scope, SPX_E0308, name->span,
                               apr_psprintf(scope->pool, "unknown name '%s'", name->text)),
                        meant, count, &search, "", scope->pool);
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
        local_t *local = spx_checker_lookup(scope, name);
        const spx_const_t *constant =
            local || !name ? NULL : spx_name_table_get(scope->consts, name);
        expr->as.name.slot = local ? local->slot : -1;
        expr->as.name.constant = constant;
        set_type(expr, local ? local->vtype : basic_type(scope, SPX_TYPE_ERROR));
        if (constant) {
            expr->type = const_type(constant);
        } else if (!local && name && spx_checker_names_unreadable_item(scope->module, name)) {
            /* an item whose syntax failed: its error stands for this use */
        } else if (!local && !scope->function->incomplete)
            spx_checker_report_unknown_name(scope, &expr->as.name.name, 1);
        break;
    }
    case SPX_EXPR_CALL:
        if (!spx_checker_check_variant_call(scope, expr))
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
        if (!spx_checker_check_variant_field(scope, expr))
            check_field(scope, expr);
        break;
    case SPX_EXPR_VARIANT:
        spx_checker_check_variant(scope, expr);
        break;
    case SPX_EXPR_ARRAY:
        check_array_literal(scope, expr, expected, expected_type);
        break;
    case SPX_EXPR_STRUCT_LITERAL:
        check_struct_literal(scope, expr);
        break;
    case SPX_EXPR_MAP:
        spx_checker_check_map_literal(scope, expr, expected, expected_type);
        break;
    }
}

static spx_type_t unary_type(scope_t *scope, spx_expr_t *expr)
{
    spx_operator_t op = expr->as.unary.op;
    spx_expr_t *operand = expr->as.unary.operand;
    spx_type_t wanted = spx_checker_unary_type(op);
    spx_type_t type = type_of(operand);
    if (type == SPX_TYPE_UNIT)
        spx_checker_report_unit(scope, operand, "an operand");
    else if (type != SPX_TYPE_ERROR && type != wanted)
        report(scope, SPX_E0405, expr->as.unary.op_span,
               apr_psprintf(scope->pool, "operator '%s' cannot take '%s'",
                            spx_checker_operator_name(op), type_text(scope, operand)));
    return wanted; /* the only type it can have, so nothing above cascades */
}

/* hints: add the newcomer's notes to an E0405 (not for a compound
 * assignment, whose left operand is its target). */
static spx_type_t binary_type(scope_t *scope, spx_expr_t *expr, int hints)
{
    spx_operator_t op = expr->as.binary.op;
    spx_expr_t *left_expr = expr->as.binary.left, *right_expr = expr->as.binary.right;
    spx_type_t left = type_of(left_expr), right = type_of(right_expr);
    int ok = 0;
    spx_type_t result =
        spx_checker_binary_type(op, vtype_of(scope, left_expr), vtype_of(scope, right_expr), &ok);
    int unit = 0;
    if (left == SPX_TYPE_UNIT) {
        spx_checker_report_unit(scope, left_expr, "an operand");
        unit = 1;
    }
    if (right == SPX_TYPE_UNIT) {
        spx_checker_report_unit(scope, right_expr, "an operand");
        unit = 1;
    }
    if (unit || left == SPX_TYPE_ERROR || right == SPX_TYPE_ERROR)
        return result;
    if (!ok) {
        spx_diagnostic_t *item =
            report(scope, SPX_E0405, expr->as.binary.op_span,
                   apr_psprintf(scope->pool, "operator '%s' cannot take '%s' and '%s'",
                                spx_checker_operator_name(op), type_text(scope, left_expr),
                                type_text(scope, right_expr)));
        if (hints)
            spx_checker_hint_operands(scope, item, expr);
        return op == SPX_OP_ADD ? SPX_TYPE_ERROR : result;
    }
    if (result == SPX_TYPE_ARRAY) /* v3: array + array, of the left's type */
        expr->vtype = vtype_of(scope, left_expr);
    return result;
}

void spx_checker_check_operation(scope_t *scope, spx_expr_t *operation)
{
    operation->type = binary_type(scope, operation, 0);
}

/* Types expr and everything in it. The chain of unary operators and left
 * operands below expr is unrolled onto checker->spine (bottom first), so a
 * long "a + b + c + ..." costs no C stack; right operands recurse, which the
 * parse depth bounds (see the top of checker.c). */
void spx_checker_check_expr(scope_t *scope, spx_expr_t *expr)
{
    int expected = scope->expects;
    const spx_vtype_t *expected_type = expected ? scope->expected : NULL;
    scope->expects = 0;
    scope->expected = NULL;
    apr_array_header_t *spine = scope->checker->spine;
    int base = spine->nelts;
    spx_expr_t *node = expr;
    while (node && (node->kind == SPX_EXPR_UNARY || node->kind == SPX_EXPR_BINARY)) {
        SPX_ARRAY_PUSH(spine, spx_expr_t *) = node;
        node = node->kind == SPX_EXPR_UNARY ? node->as.unary.operand : node->as.binary.left;
    }
    check_leaf(scope, node, node == expr && expected, node == expr ? expected_type : NULL);
    while (spine->nelts > base) {
        spx_expr_t *top = APR_ARRAY_IDX(spine, spine->nelts - 1, spx_expr_t *);
        spine->nelts--; /* popped before recursing: the recursion reuses the slots */
        if (top->kind == SPX_EXPR_UNARY) {
            top->type = unary_type(scope, top);
        } else {
            /* the left operand of == and != gives the right one its type
             * (v3: and of + on arrays, so that "xs + []" is typed) */
            if (top->as.binary.op == SPX_OP_EQ || top->as.binary.op == SPX_OP_NE ||
                (top->as.binary.op == SPX_OP_ADD && type_of(top->as.binary.left) == SPX_TYPE_ARRAY))
                expect(scope, vtype_of(scope, top->as.binary.left));
            spx_checker_check_expr(scope, top->as.binary.right);
            top->type = binary_type(scope, top, 1);
        }
    }
}
