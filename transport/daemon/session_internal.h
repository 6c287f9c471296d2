/*
 * session_internal.h: what the files of the daemon's session share, and
 * nothing outside them sees (spx_session.h is the session's public face).
 * session.c is the state machine, the request loop, the revision checks and
 * the dispatch by method table; session_v2.c holds the methods of
 * semaprax.agent-transport.v2 and their table, session_v3.c project/rename,
 * the one method v3 adds. A profile is what one schema routes and claims:
 * v2's, or v3's (v2's table and v3's).
 */
#ifndef SPX_SESSION_INTERNAL_H
#define SPX_SESSION_INTERNAL_H

#include "spx_session.h"

#include "spx_inputs.h"
#include "spx_log.h"
#include "spx_loop.h"
#include "spx_project.h"
#include "spx_request.h"
#include "spx_session_hooks.h"

#include "spx_compiler.h"

#include <jansson.h>

typedef enum session_state_t {
    STATE_CONFIGURED,
    STATE_OPEN,
    STATE_INVALIDATED,
    STATE_SHUTDOWN
} session_state_t;

typedef struct session_profile_t session_profile_t;

typedef struct session_t {
    const spx_session_options_t *options;
    const session_profile_t *profile; /* v2's, or v3's with --allow-project-rename */
    const spx_session_hooks_t *hooks; /* the program's (spx_session_hooks.h) */
    session_state_t state;
    spx_project_t *project;          /* NULL when startup authentication failed */
    json_t *unavailable;             /* the diagnostics of -32011; NULL when healthy */
    const char *unavailable_message; /* the first one's message, for data.detail, or NULL */
    json_t *drift;                   /* data.drift of -32013 once invalidated */
    const char *drift_detail;        /* its data.detail, made once (in pool) */
    const char *project_revision, *workspace_revision; /* last authenticated, or NULL */
    apr_uint64_t requests;
    spx_log_t log;            /* stderr: bounded unless --verbose (spx_log.h) */
    apr_pool_t *pool;         /* the session's, for what is kept across requests */
    apr_pool_t *project_pool; /* the project's, replaced after a rename */
    /* The counters of the input sets the session held before the current
     * one (a rename holds the project afresh). */
    spx_input_counters_t earlier;
} session_t;

/* A method's answer (spx_loop.h): a result (or its text, already rendered),
 * or an error code with optional data; a semantic one is gated by the
 * second re-authentication. */
typedef spx_answer_t reply_t;

/* One method: its name, whether it is semantic (needs an open session and
 * the revisions, and its answer is gated), the params it takes beyond the
 * revisions (NULL-terminated), and what it does. */
typedef struct session_method_t {
    const char *name;
    int semantic;
    const char *const *extra;
    void (*run)(session_t *session, const spx_request_t *request, reply_t *reply, apr_pool_t *pool);
} session_method_t;

typedef struct session_methods_t {
    const session_method_t *methods;
    size_t count;
} session_methods_t;

/* The most method tables a profile routes. */
#define SESSION_PROFILE_TABLES 2

struct session_profile_t {
    const char *schema;
    const char *const *nonclaims; /* what it does not claim, sorted bytewise */
    size_t nonclaim_count;
    /* The methods it routes; NULL after the last table. */
    const session_methods_t *tables[SESSION_PROFILE_TABLES];
};

/* The profiles (session_v2.c, session_v3.c), and v2's methods, which v3's
 * profile routes too. */
extern const session_profile_t spx_session_v2_profile;
extern const session_profile_t spx_session_v3_profile;
extern const session_methods_t spx_session_v2_methods;

/* A method with no params beyond the revisions. */
extern const char *const spx_session_no_params[];

/* --- session.c, for the methods ------------------------------------------- */

/* Set the reply to the error code, with data (NULL for none) and why:
 * reason, a stable code of docs/protocol.md's table, and detail, one
 * sentence (both static or in the request's pool). */
void spx_session_refuse(reply_t *reply, int code, json_t *data, const char *reason,
                        const char *detail);

/* -32602 with reason and a detail made from format. */
void spx_session_invalid_params(reply_t *reply, apr_pool_t *pool, const char *reason,
                                const char *format, ...) SPX_PRINTF_FORMAT(4, 5);

/* The reply of an invalidated session: -32013 with its drift. */
void spx_session_invalidated(session_t *session, reply_t *reply);

/* Re-authenticate every held input. 1 when nothing changed; otherwise the
 * session is invalidated for good, its drift recorded, and 0. */
int spx_session_reauthenticate(session_t *session, apr_pool_t *pool);

/* graph, context, test and project/rename need an admitted project: 1, or
 * the reply is -32014 and 0. */
int spx_session_admitted(const session_t *session, reply_t *reply, apr_pool_t *pool);

/* The largest result, in canonical bytes, that a response line to request
 * can hold: --max-response-bytes less {"id":ID,"jsonrpc":"2.0","result":}
 * and the LF. */
apr_uint64_t spx_session_largest_result(const session_t *session, const spx_request_t *request);

/* The session's state: "configured", "open", "invalidated" or "shutdown". */
const char *spx_session_state_name(const session_t *session);

/* The names of the methods the session's profile routes, sorted bytewise. */
json_t *spx_session_method_names(const session_t *session);

/* A string param; NULL when absent or not a string. */
const char *spx_session_string_param(json_t *params, const char *key);

/* Give the program's hooks their say at point (spx_session_hooks.h). */
void spx_session_pause(const session_t *session, spx_session_pause_t point, apr_pool_t *pool);

#endif /* SPX_SESSION_INTERNAL_H */
