/*
 * check.c: the check operation (spx_op_check.h): the verdict of Phase A on
 * a project, with --deny-warnings, and the one wording of a diagnostic as
 * a line that the MCP tools' sentences share.
 */
#include "spx_op_check.h"

#include <apr_strings.h>
#include <inttypes.h>

void spx_op_check(const spx_project_t *project, int deny_warnings, spx_check_result_t *result)
{
    const spx_diagnostics_t *diagnostics = spx_project_diagnostics(project);
    result->project = project;
    result->admitted = spx_project_admitted(project);
    result->diagnostics = diagnostics;
    result->diagnostic_count = spx_diagnostics_count(diagnostics);
    result->denied = result->admitted && deny_warnings && result->diagnostic_count > 0;
    result->succeeded = result->admitted && !result->denied;
    result->modules = spx_project_module_count(project);
    result->tests = spx_project_test_count(project);
}

const char *spx_op_diagnostic_line(const spx_diagnostic_t *diagnostic, apr_pool_t *pool)
{
    return apr_psprintf(pool, "%s:%" PRIu32 ":%" PRIu32 ": %s %s: %s", diagnostic->path,
                        diagnostic->span.start.line, diagnostic->span.start.column,
                        spx_diagnostic_severity(diagnostic), diagnostic->code, diagnostic->message);
}

const char *spx_op_diagnostics_summary(const spx_diagnostics_t *diagnostics, const char *noun,
                                       apr_size_t limit, const char *more_hint, apr_pool_t *pool)
{
    apr_size_t count = spx_diagnostics_count(diagnostics);
    const char *text =
        apr_psprintf(pool, "%" APR_SIZE_T_FMT " %s%s", count, noun, count == 1 ? "" : "s");
    for (apr_size_t i = 0; i < count; i++) {
        if (i == limit) {
            text = apr_psprintf(pool, "%s\n(and %" APR_SIZE_T_FMT " more: %s)", text, count - i,
                                more_hint);
            break;
        }
        const spx_diagnostic_t *diagnostic =
            &APR_ARRAY_IDX(diagnostics->items, (int)i, spx_diagnostic_t);
        text = apr_pstrcat(pool, text, "\n", spx_op_diagnostic_line(diagnostic, pool), NULL);
    }
    return text;
}
