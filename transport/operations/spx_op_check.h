/*
 * spx_op_check.h: the check operation (`semaprax check`, the daemon's
 * project/check, MCP's check tool): what Phase A said of a project, typed,
 * and the verdict with --deny-warnings.
 */
#ifndef SPX_OP_CHECK_H
#define SPX_OP_CHECK_H

#include "spx_diagnostics.h"
#include "spx_project.h"

typedef struct spx_check_result_t {
    const spx_project_t *project;
    int admitted;                         /* Phase A admitted the project */
    int denied;                           /* admitted with warnings that deny_warnings refuses */
    int succeeded;                        /* admitted and not denied: the command's verdict */
    const spx_diagnostics_t *diagnostics; /* the project's, errors and warnings in order */
    apr_size_t diagnostic_count;          /* errors and warnings */
    apr_size_t modules, tests;            /* of the manifest */
} spx_check_result_t;

/* The check of a project held or just opened; deny_warnings makes an
 * admitted project with warnings fail (`check --deny-warnings`). */
void spx_op_check(const spx_project_t *project, int deny_warnings, spx_check_result_t *result);

/* One diagnostic as one line for a person or an agent:
 * "path:line:column: severity CODE: message" (in pool). */
const char *spx_op_diagnostic_line(const spx_diagnostic_t *diagnostic, apr_pool_t *pool);

/* "N diagnostics" (noun "diagnostic" or "warning"), then at most limit of
 * them one per line, and "(and N more: more_hint)" when some were left
 * out (in pool). */
const char *spx_op_diagnostics_summary(const spx_diagnostics_t *diagnostics, const char *noun,
                                       apr_size_t limit, const char *more_hint, apr_pool_t *pool);

#endif /* SPX_OP_CHECK_H */
