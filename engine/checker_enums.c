/*
 * checker_enums.c: language v3's enums and match in the checker
 * (docs/language.md, "Enums and match"): enum declarations (E0327, payload
 * types checked as a struct's fields are: E0319 to E0321), the variant
 * constructors E.V, E.V(e, ...) and m.E.V(...) that the parser reads as
 * field and call chains (resolved here by name and turned into
 * SPX_EXPR_VARIANT: E0326, E0403, E0404, E0320), and the match statement
 * (E0429, E0320, E0326, E0430 to E0433, W0605, its binders as immutable
 * locals of their arm, and whether it returns on every path).
 */
#include "checker_internal.h"
#include "spx_limits.h"

#include <apr_strings.h>
#include <string.h>

/* An identifier that starts with an ASCII capital letter. */
static int is_typename(const char *text)
{
    return text && text[0] >= 'A' && text[0] <= 'Z';
}

spx_enum_t *spx_checker_enum_named(checker_t *checker, apr_size_t module_index,
                                   const char *module_name, const char *name)
{
    apr_size_t index = module_index;
    if (module_name) {
        const spx_import_t *import =
            spx_name_table_get(checker->imports[module_index], module_name);
        apr_size_t *target = import && import->target
                                 ? spx_checker_module_index(checker, import->target->name)
                                 : NULL;
        if (!target)
            return NULL;
        index = *target;
    }
    return checker->enums[index] ? spx_name_table_get(checker->enums[index], name) : NULL;
}

void spx_checker_check_enum(checker_t *checker, apr_size_t module_index, spx_enum_t *enumeration)
{
    spx_module_t *module = checker->modules[module_index];
    apr_pool_t *pool = checker->function;
    spx_name_table_t *variants = spx_name_table_make(pool);
    const char *exported_by =
        enumeration->exported ? apr_psprintf(pool, "enum '%s'", enumeration->name.text) : NULL;
    for (apr_size_t i = 0; i < enumeration->variant_count; i++) {
        const spx_variant_t *variant = &enumeration->variants[i];
        if (variant->name.text) {
            const spx_variant_t *first = spx_name_table_get(variants, variant->name.text);
            if (first)
                spx_checker_note_first(
                    checker,
                    spx_diagnostics_add(checker->diagnostics, SPX_E0327, module->path,
                                        variant->name.span,
                                        "variant '%s' is declared twice in enum %s",
                                        variant->name.text, spx_enum_full_name(enumeration, pool)),
                    module->path, first->name.span);
            else
                spx_name_table_put(variants, variant->name.text, spx_name_hash(variant->name.text),
                                   variant);
        }
        for (apr_size_t j = 0; j < variant->payload_count; j++)
            spx_checker_check_type_syntax(checker, module_index, variant->payloads[j].type_syntax,
                                          exported_by);
    }
    apr_pool_clear(pool);
}

/* ---- constructors ------------------------------------------------------- */

/* The index of enumeration's variant called name, or -1. */
static int find_variant(const spx_enum_t *enumeration, const char *name)
{
    for (apr_size_t i = 0; name && i < enumeration->variant_count; i++)
        if (enumeration->variants[i].name.text &&
            strcmp(enumeration->variants[i].name.text, name) == 0)
            return (int)i;
    return -1;
}

/* E0326 at span: enumeration has no variant name; the nearest are offered. */
static void report_no_variant(scope_t *scope, const spx_enum_t *enumeration, spx_span_t span,
                              const char *name)
{
    spx_suggest_t search;
    spx_checker_search(&search, name, 0);
    for (apr_size_t i = 0; i < enumeration->variant_count; i++)
        if (!spx_suggest_offer(&search, enumeration->variants[i].name.text))
            break;
    spx_checker_suggest(scope->checker,
                        report(scope, SPX_E0326, span,
                               apr_psprintf(scope->pool, "enum %s has no variant '%s'",
                                            spx_enum_full_name(enumeration, scope->pool), name)),
                        NULL, 0, &search, "", scope->pool);
}

/* The enum that E (base a bare name) or m.E (base m.E with m an import)
 * names as the left of a variant, or NULL when it names none; *span is
 * where it is written. Another module's enum that is not exported is E0320
 * (reported here) and still returned. */
static const spx_enum_t *enum_of(scope_t *scope, const spx_name_t *module_name,
                                 const spx_expr_t *base, spx_span_t *span)
{
    const spx_name_t *module = module_name, *name = NULL;
    if (base && base->kind == SPX_EXPR_NAME) {
        name = &base->as.name.name;
    } else if (base && base->kind == SPX_EXPR_FIELD && base->as.field.base &&
               base->as.field.base->kind == SPX_EXPR_NAME) {
        module = &base->as.field.base->as.name.name;
        name = &base->as.field.name;
    }
    if (module && !module->text)
        return NULL;
    if (!name || !is_typename(name->text))
        return NULL;
    if (module) {
        spx_import_t *import = spx_name_table_get(scope->imports, module->text);
        if (!import)
            return NULL;
    }
    const spx_enum_t *enumeration = spx_checker_enum_named(
        scope->checker, scope->module_index, module ? module->text : NULL, name->text);
    if (!enumeration)
        return NULL;
    if (module) {
        spx_import_t *import = spx_name_table_get(scope->imports, module->text);
        import->used = 1;
        if (!enumeration->exported)
            report(scope, SPX_E0320, name->span,
                   apr_psprintf(scope->pool, "enum '%s' of module '%s' is not exported", name->text,
                                module->text));
    }
    span->start = module ? module->span.start : name->span.start;
    span->end = name->span.end;
    return enumeration;
}

/* Types a VARIANT's payloads against its variant (E0403, E0404); parens:
 * the constructor was written with "( )". */
static void check_payloads(scope_t *scope, spx_expr_t *expr, int parens)
{
    const spx_enum_t *enumeration = expr->as.variant.enumeration;
    const spx_variant_t *variant = expr->as.variant.variant < enumeration->variant_count
                                       ? &enumeration->variants[expr->as.variant.variant]
                                       : NULL;
    apr_size_t count = expr->as.variant.count;
    for (apr_size_t i = 0; i < count; i++) {
        spx_expr_t *payload = expr->as.variant.payloads[i];
        const spx_vtype_t *wanted =
            variant && i < variant->payload_count
                ? spx_checker_written_type(scope->checker, enumeration->module,
                                           variant->payloads[i].type_syntax,
                                           variant->payloads[i].type)
                : NULL;
        expect(scope, wanted);
        spx_checker_check_expr(scope, payload);
        spx_type_t type = type_of(payload);
        if (type == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, payload, "stored");
        else if (wanted && wanted->kind != SPX_TYPE_ERROR && type != SPX_TYPE_ERROR &&
                 vtype_of(scope, payload) != wanted)
            report(scope, SPX_E0404, payload->span,
                   apr_psprintf(scope->pool,
                                "payload %" APR_SIZE_T_FMT " of '%s' must be '%s', "
                                "not '%s'",
                                i + 1, variant->name.text, spx_vtype_name(wanted, scope->pool),
                                type_text(scope, payload)));
    }
    if (!variant)
        return;
    const char *full = spx_enum_full_name(enumeration, scope->pool);
    if (variant->payload_count == 0 && parens)
        report(scope, SPX_E0403, expr->span,
               apr_psprintf(scope->pool,
                            "variant '%s' of %s has no payloads: write it without parentheses",
                            variant->name.text, full));
    else if (variant->payload_count != count)
        report(scope, SPX_E0403, expr->span,
               apr_psprintf(scope->pool,
                            "variant '%s' of %s takes %" APR_SIZE_T_FMT " payload%s, not "
                            "%" APR_SIZE_T_FMT,
                            variant->name.text, full, variant->payload_count,
                            variant->payload_count == 1 ? "" : "s", count));
}

/* Turns expr into the VARIANT name of enumeration with the given payloads,
 * and types it. */
static void make_variant(scope_t *scope, spx_expr_t *expr, const spx_enum_t *enumeration,
                         const spx_name_t *name, spx_span_t enum_span, spx_expr_t **payloads,
                         apr_size_t count, int parens)
{
    int index = find_variant(enumeration, name->text);
    if (index < 0 && name->text)
        report_no_variant(scope, enumeration, name->span, name->text);
    expr->kind = SPX_EXPR_VARIANT;
    expr->as.variant.payloads = payloads;
    expr->as.variant.count = count;
    expr->as.variant.enumeration = enumeration;
    expr->as.variant.variant = index < 0 ? UINT32_MAX : (uint32_t)index;
    expr->as.variant.name_span = name->span;
    expr->as.variant.enum_span = enum_span;
    check_payloads(scope, expr, parens);
    set_type(expr, spx_types_enum(scope->checker->types, enumeration));
}

int spx_checker_check_variant_field(scope_t *scope, spx_expr_t *expr)
{
    spx_span_t span;
    const spx_expr_t *base = expr->as.field.base;
    if (base && base->kind == SPX_EXPR_NAME && spx_checker_lookup(scope, base->as.name.name.text))
        return 0; /* a local's field */
    const spx_enum_t *enumeration = enum_of(scope, NULL, base, &span);
    if (!enumeration)
        return 0;
    spx_name_t name = expr->as.field.name;
    make_variant(scope, expr, enumeration, &name, span, NULL, 0, 0);
    return 1;
}

int spx_checker_check_variant_call(scope_t *scope, spx_expr_t *expr)
{
    spx_call_t *call = expr->as.call;
    spx_span_t span;
    const spx_enum_t *enumeration = NULL;
    if (call->receiver) {
        enumeration = enum_of(scope, NULL, call->receiver, &span);
    } else if (call->module.text && is_typename(call->module.text) &&
               !spx_checker_lookup(scope, call->module.text)) {
        spx_expr_t name_expr;
        memset(&name_expr, 0, sizeof(name_expr));
        name_expr.kind = SPX_EXPR_NAME;
        name_expr.as.name.name = call->module;
        enumeration = enum_of(scope, NULL, &name_expr, &span);
    }
    if (!enumeration)
        return 0;
    spx_name_t name = call->function;
    make_variant(scope, expr, enumeration, &name, span, call->arguments, call->argument_count, 1);
    return 1;
}

void spx_checker_check_variant(scope_t *scope, spx_expr_t *expr)
{
    check_payloads(scope, expr, 0);
    set_type(expr, spx_types_enum(scope->checker->types, expr->as.variant.enumeration));
}

/* ---- match --------------------------------------------------------------- */

/* The arm's binders declared as immutable locals of the payloads' types
 * (error types when the pattern is wrong); "_" binds nothing. */
static void declare_binders(scope_t *scope, spx_match_arm_t *arm, const spx_enum_t *enumeration,
                            int fits)
{
    const spx_variant_t *variant =
        enumeration && arm->variant >= 0 ? &enumeration->variants[arm->variant] : NULL;
    for (apr_size_t i = 0; i < arm->binder_count; i++) {
        spx_binder_t *binder = &arm->binders[i];
        binder->slot = -1;
        if (!binder->name.text || strcmp(binder->name.text, "_") == 0)
            continue;
        const spx_vtype_t *type =
            variant && fits ? spx_checker_written_type(scope->checker, enumeration->module,
                                                       variant->payloads[i].type_syntax,
                                                       variant->payloads[i].type)
                            : basic_type(scope, SPX_TYPE_ERROR);
        binder->slot = spx_checker_declare_binder(scope, &binder->name, type);
    }
}

/* One arm's pattern against the enum (NULL: the scrutinee's type is not an
 * enum, already reported): E0432 after a "_", W0605 for a "_" after every
 * variant, E0326, E0431, E0433. *first holds the first arm of each
 * variant. Returns whether the binders fit the payloads. */
static int check_pattern(scope_t *scope, spx_match_arm_t *arm, const spx_enum_t *enumeration,
                         spx_match_arm_t **first, const spx_match_arm_t *wildcard,
                         apr_size_t matched, int *unknown)
{
    arm->variant = -1;
    if (wildcard) {
        report(scope, SPX_E0432, arm->span,
               "unreachable arm: the '_' arm above matches everything");
        return 0;
    }
    if (arm->wildcard) {
        if (arm->has_parens)
            report(scope, SPX_E0433, arm->span, "the '_' pattern binds nothing: write '_'");
        else if (enumeration && matched == enumeration->variant_count)
            report(scope, SPX_W0605, arm->pattern.span,
                   apr_psprintf(scope->pool,
                                "the '_' arm is unreachable: every variant of %s is matched above",
                                spx_enum_full_name(enumeration, scope->pool)));
        return 0;
    }
    if (!enumeration || !arm->pattern.text)
        return 0;
    int index = find_variant(enumeration, arm->pattern.text);
    if (index < 0) {
        *unknown = 1;
        report_no_variant(scope, enumeration, arm->pattern.span, arm->pattern.text);
        return 0;
    }
    arm->variant = index;
    if (first[index]) {
        spx_diagnostic_note(
            scope->checker->diagnostics,
            report(scope, SPX_E0431, arm->span,
                   apr_psprintf(scope->pool, "variant '%s' is already matched", arm->pattern.text)),
            scope->module->path, first[index]->span, "first matched here");
    } else {
        first[index] = arm;
    }
    apr_size_t payloads = enumeration->variants[index].payload_count;
    if (payloads != arm->binder_count) {
        report(scope, SPX_E0433, arm->span,
               apr_psprintf(scope->pool,
                            "%s has %" APR_SIZE_T_FMT " payload%s, but the pattern binds "
                            "%" APR_SIZE_T_FMT,
                            arm->pattern.text, payloads, payloads == 1 ? "" : "s",
                            arm->binder_count));
        return 0;
    }
    return 1;
}

int spx_checker_check_match(scope_t *scope, spx_stmt_t *stmt)
{
    spx_expr_t *scrutinee = stmt->as.match_stmt.scrutinee;
    spx_checker_check_expr(scope, scrutinee);
    spx_type_t type = type_of(scrutinee);
    const spx_enum_t *enumeration = NULL;
    if (type == SPX_TYPE_UNIT) {
        spx_checker_report_unit(scope, scrutinee, "matched");
    } else if (type == SPX_TYPE_ENUM) {
        enumeration = vtype_of(scope, scrutinee)->enumeration;
        if (enumeration->module != scope->module && !enumeration->exported)
            report(scope, SPX_E0320, scrutinee->span,
                   apr_psprintf(scope->pool, "enum '%s' of module '%s' is not exported",
                                enumeration->name.text, enumeration->module->name));
    } else if (type != SPX_TYPE_ERROR) {
        report(scope, SPX_E0429, scrutinee->span,
               apr_psprintf(scope->pool, "match needs an enum value, not %s",
                            type_text(scope, scrutinee)));
    }
    stmt->as.match_stmt.enumeration = enumeration;
    apr_size_t variants = enumeration ? enumeration->variant_count : 0;
    spx_match_arm_t **first = apr_pcalloc(scope->pool, (variants + 1) * sizeof(*first));
    const spx_match_arm_t *wildcard = NULL;
    apr_size_t matched = 0;
    int all_return = 1, unknown = 0;
    for (apr_size_t i = 0; i < stmt->as.match_stmt.arm_count; i++) {
        spx_match_arm_t *arm = &stmt->as.match_stmt.arms[i];
        int fits = check_pattern(scope, arm, enumeration, first, wildcard, matched, &unknown);
        if (arm->variant >= 0 && first[arm->variant] == arm)
            matched++;
        if (arm->wildcard && !wildcard)
            wildcard = arm;
        int first_local = scope->locals->nelts;
        local_t *outer = scope->innermost;
        declare_binders(scope, arm, enumeration, fits);
        if (!spx_checker_check_block(scope, &arm->body))
            all_return = 0;
        spx_checker_close_scope(scope, first_local, outer);
    }
    int covers = wildcard != NULL || (enumeration && matched == variants);
    if (enumeration && !covers && !unknown) {
        apr_array_header_t *missing = apr_array_make(scope->pool, 4, sizeof(char *));
        for (apr_size_t j = 0; j < variants; j++)
            if (!first[j] && enumeration->variants[j].name.text) {
                if (missing->nelts > 0)
                    APR_ARRAY_PUSH(missing, const char *) = ", ";
                APR_ARRAY_PUSH(missing, const char *) = enumeration->variants[j].name.text;
            }
        report(scope, SPX_E0430, scrutinee->span,
               apr_psprintf(scope->pool, "match on %s does not cover %s",
                            spx_enum_full_name(enumeration, scope->pool),
                            apr_array_pstrcat(scope->pool, missing, 0)));
    }
    return enumeration && covers && stmt->as.match_stmt.arm_count > 0 && all_return;
}
