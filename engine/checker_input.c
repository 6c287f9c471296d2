/*
 * checker_input.c: the checker's part of language v3's input: the data
 * entries a project gives it, and read_data's argument, which must be a
 * string literal (E0324) naming a declared entry (E0325, with the nearest
 * names), so that the graph's reads edges are exact and the compiler can
 * make the call a block over the entry's retained bytes.
 */
#include "checker_internal.h"

#include "spx_limits.h"

#include <apr_strings.h>
#include <string.h>

void spx_checker_set_data(spx_checker_t *checker, const spx_data_entry_t *entries, apr_size_t count)
{
    checker->data = entries;
    checker->data_count = count;
}

void spx_checker_check_read_data(scope_t *scope, spx_expr_t *call)
{
    spx_call_t *c = call->as.call;
    c->data = NULL;
    if (c->argument_count != 1)
        return; /* E0403 said so */
    const spx_expr_t *argument = c->arguments[0];
    checker_t *checker = scope->checker;
    if (argument->kind != SPX_EXPR_STRING) {
        if (argument->type == SPX_TYPE_STR) /* else E0404 or an earlier error said it */
            spx_diagnostics_add(checker->diagnostics, SPX_E0324, scope->module->path,
                                argument->span,
                                "read_data takes a string literal naming a [[data]] entry");
        return;
    }
    const char *name = argument->as.string.bytes;
    apr_size_t length = argument->as.string.length;
    for (apr_size_t i = 0; i < checker->data_count; i++)
        if (strlen(checker->data[i].name) == length &&
            memcmp(checker->data[i].name, name, length) == 0) {
            c->data = &checker->data[i];
            return;
        }
    const char *text = apr_pstrndup(scope->pool, name, length);
    spx_diagnostic_t *item =
        spx_diagnostics_add(checker->diagnostics, SPX_E0325, scope->module->path, argument->span,
                            "no data '%s' in the manifest", text);
    const char **names = apr_palloc(scope->pool, (checker->data_count + 1) * sizeof(*names));
    for (apr_size_t i = 0; i < checker->data_count; i++)
        names[i] = checker->data[i].name;
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
    size_t found =
        spx_suggest_nearest(text, names, checker->data_count, SPX_LIMIT_SUGGESTIONS, nearest);
    spx_diagnostic_suggest(checker->diagnostics, item, nearest, found);
}
