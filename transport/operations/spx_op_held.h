/*
 * spx_op_held.h: a long-lived front end's project, held and kept current
 * (the MCP server, the language server): opened from its manifest, its
 * inputs re-authenticated before an answer, opened again when one drifted,
 * and replaced by the project a writing transaction opened after it wrote
 * (rename, fmt). The language server excuses the drift of the sources its
 * open buffers overlay; MCP excuses none. The `--stdio` daemon does not
 * hold its project this way: drift ends its session (docs/protocol-v2.md).
 *
 * The work of every project held so far is counted (Phase A runs, input
 * authentications, source reads), for a status answer.
 */
#ifndef SPX_OP_HELD_H
#define SPX_OP_HELD_H

#include "spx_inputs.h"
#include "spx_project.h"

#include <apr_pools.h>
#include <apr_tables.h>

typedef struct spx_op_held_t {
    const char *manifest_path;
    apr_pool_t *parent;       /* the project pools are made in it */
    spx_project_t *project;   /* NULL: none opened yet, or it could not be */
    apr_pool_t *project_pool; /* the project's; replaced at each opening */
    const char *unavailable;  /* why project is NULL after an opening (in project_pool) */
    /* The work of the projects held before the current one. */
    apr_uint64_t earlier_phase_a_runs, earlier_authentications, earlier_source_reads;
} spx_op_held_t;

/* The work of every project held so far, the current one's included. */
typedef struct spx_op_held_work_t {
    apr_uint64_t phase_a_runs, authentications, source_reads;
} spx_op_held_work_t;

spx_op_held_work_t spx_op_held_work(const spx_op_held_t *held);

/* Hold nothing yet, for the manifest at manifest_path (copied into parent). */
void spx_op_held_init(spx_op_held_t *held, const char *manifest_path, apr_pool_t *parent);

/* Let the current project go (its work counted) and open the manifest
 * afresh: authentication and Phase A. On failure project is NULL and
 * unavailable says why (the manifest's path and what is wrong). */
void spx_op_held_open(spx_op_held_t *held);

/* Hold fresh (in fresh_pool, a pool of parent's) from now on: the current
 * project's work is counted and it goes. */
void spx_op_held_adopt(spx_op_held_t *held, spx_project_t *fresh, apr_pool_t *fresh_pool);

/* What spx_op_held_check found. */
typedef enum spx_op_held_state_t {
    SPX_OP_HELD_CURRENT = 0,  /* every input as held, or its drift excused */
    SPX_OP_HELD_DRIFTED,      /* *drift lists what changed */
    SPX_OP_HELD_UNVERIFIABLE, /* the inputs could not be checked: count them changed */
    SPX_OP_HELD_NONE          /* no project is held (none opened, or its opening failed) */
} spx_op_held_state_t;

/* Whether the drift of the input at path is not a change for the caller
 * (the language server: a source open in the editor). */
typedef int (*spx_op_held_excuse_t)(void *context, const char *path);

/* Re-authenticate the held inputs. *drift (in pool) is every drift record
 * that excuse (NULL: none) did not excuse, sorted by path, for
 * SPX_OP_HELD_DRIFTED; an empty list otherwise. */
spx_op_held_state_t spx_op_held_check(spx_op_held_t *held, spx_op_held_excuse_t excuse,
                                      void *context, apr_array_header_t **drift, apr_pool_t *pool);

#endif /* SPX_OP_HELD_H */
