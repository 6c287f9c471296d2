/*
 * spx_operations.h: the operations layer, the one place each workflow of
 * Semaprax is written (docs/architecture.md, "Operations"). The CLI, the
 * daemon's session and the MCP server parse a request, call one operation
 * here and render its typed result; none of them repeats a policy (limits
 * and their defaults, test selection, re-authentication, the rename's
 * transaction and its answer-size check) or reads an engine document back
 * by key.
 *
 * Each operation has its own header, included below; its result is a C
 * struct whose documents (the JSON the engine makes, where a result has
 * one) are rendered once and shared by `--format json`, the daemon and
 * MCP's structuredContent. Everything a result holds lives in the pool the
 * caller gives.
 */
#ifndef SPX_OPERATIONS_H
#define SPX_OPERATIONS_H

#include "spx_op_check.h"
#include "spx_op_fmt.h"
#include "spx_op_held.h"
#include "spx_op_query.h"
#include "spx_op_rename.h"
#include "spx_op_run.h"

#endif /* SPX_OPERATIONS_H */
