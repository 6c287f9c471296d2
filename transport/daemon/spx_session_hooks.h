/*
 * spx_session_hooks.h: the points at which the daemon's session lets a test
 * build step in. The session (transport/daemon/session*.c) is built once; each
 * program links one implementation of spx_session_hooks(): semapraxd
 * session_hooks_none.c (no hooks at all), the test-only semapraxd_test
 * session_hooks_test.c (pauses that let a process test change a file at a
 * chosen moment, and failures of the rename's commit on demand, both named
 * by environment variables: docs/protocol-v2.md and protocol-v3.md).
 */
#ifndef SPX_SESSION_HOOKS_H
#define SPX_SESSION_HOOKS_H

#include "spx_rename.h"

#include <apr_pools.h>

/* Where the session may pause. */
typedef enum spx_session_pause_t {
    SPX_SESSION_PAUSE_STARTUP,          /* every input authenticated, before Phase A */
    SPX_SESSION_PAUSE_SECOND_CHECK,     /* a semantic answer rendered, before its second
                                         * re-authentication */
    SPX_SESSION_PAUSE_RENAME_PLANNED,   /* a rename planned, before the re-check of its step 4 */
    SPX_SESSION_PAUSE_RENAME_COMMITTED, /* a rename committed, before its step 6 */
} spx_session_pause_t;

typedef struct spx_session_hooks_t {
    /* Called at every point, with the pool of the moment; NULL: the
     * session goes straight on. */
    void (*pause)(spx_session_pause_t point, apr_pool_t *pool);
    /* Handed to the rename's commit (spx_rename_commit, context NULL);
     * NULL: no point of the commit fails on purpose. */
    spx_commit_probe_fn commit_probe;
} spx_session_hooks_t;

/* This program's hooks. */
const spx_session_hooks_t *spx_session_hooks(void);

#endif /* SPX_SESSION_HOOKS_H */
