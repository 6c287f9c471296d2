/*
 * checker_items.c: functions, structs and consts as the items of a module
 * (docs/language.md, "Types and rules"): pass 2 names a module's functions
 * (E0305 twice, E0306 a builtin's name) and its one namespace of functions,
 * structs and consts (E0314); the lookups of items across modules (m.X
 * consts, E0316 and E0317; structs, E0319 and E0320); types as written
 * ([T], Name, m.Name: resolved, checked against the export rule E0321, and
 * made into the checker's spx_vtype_t); struct declarations (E0322); and,
 * once every module is declared, the structs that contain themselves by
 * value (E0323).
 */
#include "checker_internal.h"
#include "spx_assert.h"
#include "spx_limits.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

/* ---- pass 2: a module's items ---------------------------------------------- */

void spx_checker_collect_functions(checker_t *checker, spx_module_t *module)
{
    spx_module_collect_functions(module, checker->pool);
    for (apr_size_t i = 0; i < module->function_count; i++) {
        spx_function_t *function = module->functions[i];
        function->local_count = 0;
        const char *name = function->name.text;
        if (!name)
            continue;
        const spx_function_t *first = spx_module_function(module, name);
        const spx_builtin_info_t *builtin = spx_builtin_called(name);
        if (builtin && builtin->since > 1) {
            spx_diagnostics_add(checker->diagnostics, SPX_E0306, module->path, function->name.span,
                                "'%s' is a builtin since language v%d and cannot be defined", name,
                                builtin->since);
        } else if (builtin) {
            spx_diagnostics_add(checker->diagnostics, SPX_E0306, module->path, function->name.span,
                                "'%s' is a builtin and cannot be defined", name);
        } else if (first != function) {
            spx_checker_note_first(
                checker,
                spx_diagnostics_add(
                    checker->diagnostics, SPX_E0305, module->path, function->name.span,
                    "function '%s' is already defined in module '%s'", name, module->name),
                module->path, first->name.span);
        }
    }
    module->unreadable_by_name = NULL;
    if (module->unreadable_function_count)
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
    spx_enum_t *enumeration; /* v3 */
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
void spx_checker_collect_items(checker_t *checker, apr_size_t index)
{
    spx_module_t *module = checker->modules[index];
    checker->consts[index] = spx_name_table_make(checker->scratch);
    checker->structs[index] = spx_name_table_make(checker->scratch);
    checker->enums[index] = spx_name_table_make(checker->scratch);
    apr_size_t count =
        module->function_count + module->struct_count + module->const_count + module->enum_count;
    if (module->struct_count + module->const_count + module->enum_count == 0)
        return;
    item_name_t *items = apr_pcalloc(checker->scratch, (count + 1) * sizeof(*items));
    apr_size_t n = 0;
    for (apr_size_t i = 0; i < module->function_count; i++)
        if (module->functions[i]->name.text)
            items[n++] = (item_name_t){module->functions[i]->name.text,
                                       module->functions[i]->name.span,
                                       1,
                                       NULL,
                                       NULL,
                                       NULL};
    for (apr_size_t i = 0; i < module->struct_count; i++)
        if (module->structs[i]->name.text)
            items[n++] = (item_name_t){module->structs[i]->name.text,
                                       module->structs[i]->name.span,
                                       0,
                                       NULL,
                                       module->structs[i],
                                       NULL};
    for (apr_size_t i = 0; i < module->const_count; i++)
        if (module->consts[i]->name.text)
            items[n++] = (item_name_t){module->consts[i]->name.text,
                                       module->consts[i]->name.span,
                                       0,
                                       module->consts[i],
                                       NULL,
                                       NULL};
    for (apr_size_t i = 0; i < module->enum_count; i++)
        if (module->enums[i]->name.text)
            items[n++] = (item_name_t){module->enums[i]->name.text,
                                       module->enums[i]->name.span,
                                       0,
                                       NULL,
                                       NULL,
                                       module->enums[i]};
    qsort(items, n, sizeof(*items), compare_items);
    spx_name_table_t *first = spx_name_table_make(checker->scratch);
    for (apr_size_t i = 0; i < n; i++) {
        uint32_t hash = spx_name_hash(items[i].name);
        item_name_t *earlier = spx_name_table_find(first, items[i].name, hash);
        if (!earlier) {
            spx_name_table_put(first, items[i].name, hash, &items[i]);
            if (items[i].constant)
                spx_name_table_put(checker->consts[index], items[i].name, hash, items[i].constant);
            if (items[i].structure)
                spx_name_table_put(checker->structs[index], items[i].name, hash,
                                   items[i].structure);
            if (items[i].enumeration)
                spx_name_table_put(checker->enums[index], items[i].name, hash,
                                   items[i].enumeration);
        } else if (!(earlier->is_function && items[i].is_function)) {
            spx_checker_note_first(
                checker,
                spx_diagnostics_add(checker->diagnostics, SPX_E0314, module->path, items[i].span,
                                    "'%s' is already defined in module '%s' (functions, "
                                    "structs%s and consts share one namespace)",
                                    items[i].name, module->name,
                                    earlier->enumeration || items[i].enumeration ? ", enums" : ""),
                module->path, earlier->span);
        }
    }
}

void spx_checker_offer_consts(const spx_module_t *module, int exported_only, spx_suggest_t *search)
{
    for (apr_size_t i = 0; i < module->const_count; i++) {
        const spx_const_t *constant = module->consts[i];
        if (!spx_suggest_offer(search,
                               !exported_only || constant->exported ? constant->name.text : NULL))
            return;
    }
}

/* Offers search the names of the structs of a module (exported ones only,
 * for another module). */
static void offer_structs(const spx_module_t *module, int exported_only, spx_suggest_t *search)
{
    for (apr_size_t i = 0; i < module->struct_count; i++) {
        const spx_struct_t *structure = module->structs[i];
        if (!spx_suggest_offer(search,
                               !exported_only || structure->exported ? structure->name.text : NULL))
            return;
    }
}

/* 1 when module declared an item named name whose syntax failed. */
int spx_checker_names_unreadable_item(const spx_module_t *module, const char *name)
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
const spx_const_t *spx_checker_module_const(checker_t *checker, const spx_module_t *module,
                                            spx_name_table_t *imports, const spx_expr_t *expr,
                                            int *resolved)
{
    *resolved = 0;
    const spx_expr_t *base = expr->as.field.base;
    if (!base || base->kind != SPX_EXPR_NAME || !base->as.name.name.text)
        return NULL;
    spx_import_t *import = spx_name_table_get(imports, base->as.name.name.text);
    if (!import)
        return NULL;
    *resolved = 1;
    import->used = 1;
    if (!import->target)
        return NULL; /* the import was reported */
    const char *name = expr->as.field.name.text;
    apr_size_t *target_index = spx_checker_module_index(checker, import->target->name);
    spx_const_t *constant = target_index && checker->consts[*target_index]
                                ? spx_name_table_get(checker->consts[*target_index], name)
                                : NULL;
    if (!constant) {
        if (!spx_checker_names_unreadable_item(import->target, name)) {
            spx_suggest_t search;
            spx_checker_search(&search, name, 0);
            spx_checker_offer_consts(import->target, 1, &search);
            spx_checker_suggest(
                checker,
                spx_diagnostics_add(checker->diagnostics, SPX_E0316, module->path,
                                    expr->as.field.name.span, "unknown const '%s' in module '%s'",
                                    name, import->target->name),
                NULL, 0, &search, apr_pstrcat(checker->function, import->target->name, ".", NULL),
                checker->function);
        }
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
static spx_struct_t *resolve_type_name(checker_t *checker, apr_size_t module_index,
                                       const spx_type_syntax_t *syntax, spx_enum_t **enumeration);

spx_struct_t *spx_checker_resolve_struct(checker_t *checker, apr_size_t module_index,
                                         const spx_type_syntax_t *syntax)
{
    return resolve_type_name(checker, module_index, syntax, NULL);
}

/* The struct a type names, as above; or, when enumeration is not NULL and
 * the name is an enum's (v3), NULL with the enum in *enumeration (E0320
 * when it is another module's and not exported). */
static spx_struct_t *resolve_type_name(checker_t *checker, apr_size_t module_index,
                                       const spx_type_syntax_t *syntax, spx_enum_t **enumeration)
{
    spx_module_t *module = checker->modules[module_index];
    const char *name = syntax->name.text;
    if (!name)
        return NULL;
    spx_module_t *owner = module;
    spx_name_table_t *structs = checker->structs[module_index];
    spx_name_table_t *enums = checker->enums[module_index];
    if (syntax->module.text) {
        spx_import_t *import =
            spx_name_table_get(checker->imports[module_index], syntax->module.text);
        if (!import) {
            spx_suggest_t search;
            spx_checker_search(&search, syntax->module.text, 0);
            spx_checker_offer_imports(module, &search);
            spx_checker_suggest(checker,
                                spx_diagnostics_add(checker->diagnostics, SPX_E0310, module->path,
                                                    syntax->module.span,
                                                    "module '%s' is not imported",
                                                    syntax->module.text),
                                NULL, 0, &search, "", checker->function);
            return NULL;
        }
        import->used = 1;
        if (!import->target)
            return NULL; /* the import was reported */
        owner = import->target;
        apr_size_t *index = spx_checker_module_index(checker, owner->name);
        structs = index ? checker->structs[*index] : NULL;
        enums = index ? checker->enums[*index] : NULL;
        /* declared: its importer's bodies are checked only after it is */
        SPX_ASSERT(structs != NULL);
        if (!structs)
            return NULL;
    }
    spx_struct_t *found = spx_name_table_get(structs, name);
    spx_enum_t *enum_found =
        !found && enumeration && enums ? spx_name_table_get(enums, name) : NULL;
    if (enum_found) {
        *enumeration = enum_found;
        if (owner != module && !enum_found->exported)
            spx_diagnostics_add(checker->diagnostics, SPX_E0320, module->path, syntax->name.span,
                                "enum '%s' of module '%s' is not exported", name, owner->name);
        return NULL;
    }
    if (!found) {
        /* One diagnostic per unknown struct in a module, not one per use. */
        const char *key = apr_psprintf(checker->pool, "%s %s.%s", module->name, owner->name, name);
        if (!spx_checker_names_unreadable_item(owner, name) &&
            !apr_hash_get(checker->unknown_structs, key, APR_HASH_KEY_STRING)) {
            apr_hash_set(checker->unknown_structs, key, APR_HASH_KEY_STRING, "");
            const char *meant[SPX_LIMIT_SUGGESTIONS];
            size_t count = owner == module ? spx_checker_exported_elsewhere(checker, module, name,
                                                                            EXPORTED_STRUCT, meant,
                                                                            checker->function)
                                           : 0;
            spx_suggest_t search;
            spx_checker_search(&search, name, count);
            offer_structs(owner, owner != module, &search);
            spx_checker_suggest(
                checker,
                spx_diagnostics_add(checker->diagnostics, SPX_E0319, module->path,
                                    syntax->name.span, "unknown struct '%s' in module '%s'", name,
                                    owner->name),
                meant, count, &search,
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
int spx_checker_check_type_syntax(checker_t *checker, apr_size_t module_index,
                                  const spx_type_syntax_t *syntax, const char *exported_by)
{
    while (syntax && syntax->kind == SPX_TYPE_SYNTAX_ARRAY)
        syntax = syntax->element;
    if (syntax && syntax->kind == SPX_TYPE_SYNTAX_MAP)
        return spx_checker_check_map_type(checker, module_index, syntax, exported_by);
    if (!syntax || syntax->kind != SPX_TYPE_SYNTAX_STRUCT)
        return 1;
    size_t before = spx_diagnostics_count(checker->diagnostics);
    spx_enum_t *enumeration = NULL;
    spx_struct_t *found = resolve_type_name(checker, module_index, syntax, &enumeration);
    if (enumeration) {
        if (exported_by && !enumeration->exported &&
            enumeration->module == checker->modules[module_index])
            spx_diagnostics_add(checker->diagnostics, SPX_E0321,
                                checker->modules[module_index]->path, syntax->span,
                                "%s is exported, so it cannot mention enum '%s', which is not "
                                "exported",
                                exported_by, enumeration->name.text);
        return spx_diagnostics_count(checker->diagnostics) == before;
    }
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
void spx_checker_check_struct(checker_t *checker, apr_size_t module_index, spx_struct_t *structure)
{
    spx_module_t *module = checker->modules[module_index];
    apr_pool_t *pool = checker->function;
    spx_name_table_t *fields = spx_name_table_make(pool);
    const char *exported_by =
        structure->exported ? apr_psprintf(pool, "struct '%s'", structure->name.text) : NULL;
    for (apr_size_t i = 0; i < structure->field_count; i++) {
        const spx_param_t *field = &structure->fields[i];
        if (field->name.text) {
            const spx_param_t *first = spx_name_table_get(fields, field->name.text);
            if (first)
                spx_checker_note_first(
                    checker,
                    spx_diagnostics_add(checker->diagnostics, SPX_E0322, module->path,
                                        field->name.span,
                                        "field '%s' is declared twice in struct '%s'",
                                        field->name.text, structure->name.text),
                    module->path, first->name.span);
            else
                spx_name_table_put(fields, field->name.text, spx_name_hash(field->name.text),
                                   field);
        }
        spx_checker_check_type_syntax(checker, module_index, field->type_syntax, exported_by);
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
    apr_size_t *index = spx_checker_module_index(checker, module->name);
    if (!index)
        return NULL;
    spx_name_table_t *structs = checker->structs[*index];
    if (syntax->module.text) {
        const spx_import_t *import =
            spx_name_table_get(checker->imports[*index], syntax->module.text);
        apr_size_t *target = import && import->target
                                 ? spx_checker_module_index(checker, import->target->name)
                                 : NULL;
        structs = target ? checker->structs[*target] : NULL;
    }
    return structs ? spx_name_table_get(structs, syntax->name.text) : NULL;
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
const spx_vtype_t *spx_checker_written_type(checker_t *checker, const spx_module_t *module,
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
    } else if (syntax && syntax->kind == SPX_TYPE_SYNTAX_MAP) {
        type = spx_checker_written_map_type(checker, module, syntax);
    } else {
        const spx_struct_t *structure = written_struct(checker, module, syntax);
        apr_size_t *index = spx_checker_module_index(checker, module->name);
        const spx_enum_t *enumeration =
            !structure && index && syntax && syntax->name.text
                ? spx_checker_enum_named(checker, *index, syntax->module.text, syntax->name.text)
                : NULL;
        if (structure)
            type = spx_types_struct(checker->types, structure);
        else if (enumeration)
            type = spx_types_enum(checker->types, enumeration);
        else
            return type;
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
    const char *message =
        spx_checker_cycle_text("struct contains itself: ", names, length, &start, pool);
    const struct_frame_t *site = &cycle[start];
    const spx_param_t *field = &site->structure->fields[site->field];
    spx_diagnostics_add(checker->diagnostics, SPX_E0323, site->structure->module->path,
                        field->type_span, "%s", message);
}

/* Depth-first search over "holds by value" between structs, roots and
 * fields in order, with an explicit stack; each field that closes a cycle
 * reports it. */
void spx_checker_find_struct_cycles(checker_t *checker)
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
