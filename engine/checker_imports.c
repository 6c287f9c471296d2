/*
 * checker_imports.c: the checker's imports (docs/language.md, "Files and
 * modules"): pass 1 resolves each import of a module to the module it names
 * (E0301 undeclared, E0302 twice, E0303 itself); once every module is
 * declared, the import graph is searched for cycles (E0304) and the imports
 * that nothing of their module names are reported (W0601). Also the cycle
 * text that import, struct and const cycles share.
 */
#include "checker_internal.h"
#include "spx_assert.h"

#include <apr_strings.h>
#include <string.h>

/* Module names are unique (the manifest checks it); the first one has the
 * index (spx_checker_make). */
apr_size_t *spx_checker_module_index(checker_t *checker, const char *name)
{
    return name ? spx_name_table_get(checker->module_index, name) : NULL;
}

void spx_checker_resolve_imports(checker_t *checker, apr_size_t index)
{
    spx_module_t *module = checker->modules[index];
    spx_name_table_t *seen = spx_name_table_make(checker->scratch); /* name -> first import */
    checker->imports[index] = seen;
    checker->import_is_edge[index] = apr_pcalloc(checker->scratch, module->import_count + 1);
    for (apr_size_t i = 0; i < module->import_count; i++) {
        spx_import_t *import = &module->imports[i];
        const char *name = import->module.text;
        import->target = NULL;
        if (!name)
            continue;
        spx_import_t *first = spx_name_table_get(seen, name);
        apr_size_t *target = spx_checker_module_index(checker, name);
        if (first) {
            /* Same resolution as the first import, one diagnostic for the repeat. */
            import->target = first->target;
            spx_checker_note_first(checker,
                                   spx_diagnostics_add(checker->diagnostics, SPX_E0302,
                                                       module->path, import->module.span,
                                                       "module '%s' is imported twice", name),
                                   module->path, first->module.span);
            continue;
        }
        spx_name_table_put(seen, name, spx_name_hash(name), import);
        if (strcmp(name, module->name) == 0) {
            /* target stays NULL: calls through it are not reported again. */
            spx_diagnostics_add(checker->diagnostics, SPX_E0303, module->path, import->module.span,
                                "module '%s' imports itself", name);
        } else if (!target) {
            spx_suggest_t search;
            spx_checker_search(&search, name, 0);
            for (apr_size_t m = 0; m < checker->module_count; m++)
                if (!spx_suggest_offer(&search, m != index ? checker->modules[m]->name : NULL))
                    break;
            spx_checker_suggest(checker,
                                spx_diagnostics_add(checker->diagnostics, SPX_E0301, module->path,
                                                    import->module.span,
                                                    "module '%s' is not declared", name),
                                NULL, 0, &search, "", checker->scratch);
        } else {
            import->target = checker->modules[*target];
            checker->import_is_edge[index][i] = 1;
        }
    }
}

/* A cycle's text, "PREFIX a -> b -> c -> a" over names[0..length-1]
 * rotated to start at the smallest name (whose index goes to *start):
 * import, const and struct cycles are all reported so. */
const char *spx_checker_cycle_text(const char *prefix, const char *const *names, int length,
                                   int *start, apr_pool_t *pool)
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
    const char *message =
        spx_checker_cycle_text("import cycle: ", names, length, &start, checker->scratch);
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
void spx_checker_find_import_cycles(checker_t *checker)
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
            /* an edge is an import that resolved to a declared module */
            const apr_size_t *found =
                spx_checker_module_index(checker, module->imports[i].module.text);
            SPX_ASSERT(found != NULL);
            apr_size_t target = *found;
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

void spx_checker_offer_imports(const spx_module_t *module, spx_suggest_t *search)
{
    for (apr_size_t i = 0; i < module->import_count; i++)
        if (!spx_suggest_offer(search, module->imports[i].module.text))
            return;
}

/* W0601: an import that no call, const or type of its module names (once
 * the consts, which may name one, are evaluated). */
void spx_checker_find_unused_imports(checker_t *checker)
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
