/*
 * run_target.c: the function `semaprax run --entry MOD.FN` names (language
 * v3): any function of a declared module, exported or not, with the
 * signature fn() -> int, found through the project's graph; otherwise the
 * message the usage error gives, with the nearest function names.
 */
#include "index_internal.h"
#include "project_internal.h"
#include "spx_envelope.h"
#include "spx_limits.h"
#include "spx_suggest.h"

#include <apr_strings.h>
#include <string.h>

const char *spx_run_target_problem(const spx_project_t *project, const char *function,
                                   apr_pool_t *pool)
{
    const spx_index_t *index = project->index;
    if (!index)
        return project->diagnostics_only
                   ? "the project was built for its diagnostics only: it has no graph"
                   : "the project is not admitted";
    static const char prefix[] = "function:";
    int found = spx_index_find(index, apr_pstrcat(pool, prefix, function, NULL));
    if (found >= 0) {
        const char *signature = index->nodes[found].signature;
        if (strcmp(signature, "fn() -> int") == 0)
            return NULL;
        return apr_psprintf(pool, "'%s' is %s, not fn() -> int", function, signature);
    }
    const char **names = apr_palloc(pool, ((size_t)index->node_count + 1) * sizeof(*names));
    size_t count = 0;
    for (int i = 0; i < index->node_count; i++)
        if (strcmp(index->nodes[i].kind, "function") == 0)
            names[count++] = index->nodes[i].id + sizeof(prefix) - 1;
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
    size_t suggested = spx_suggest_nearest(function, names, count, SPX_LIMIT_SUGGESTIONS, nearest);
    const char *text = apr_psprintf(pool, "no function '%s' in this project", function);
    for (size_t i = 0; i < suggested; i++)
        text = apr_pstrcat(pool, text, i == 0 ? "; nearest: " : ", ", nearest[i], NULL);
    return text;
}
