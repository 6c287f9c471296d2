/*
 * v1.c: the session of transport v1 (spx_v1.h): the five methods of
 * `semaprax serve` and what each answers, from the project built at startup.
 * Nothing here reads a file: the source was read once, before the first
 * request.
 */
#include "spx_v1.h"

#include "spx_index.h"
#include "spx_limits.h"
#include "spx_rpc.h"

#include <string.h>

struct spx_v1_t {
    const spx_project_t *project;
    spx_v1_limits_t limits;
};

/* Sorted bytewise, as the protocol result lists them. */
static const char *const methods[] = {"check", "graph", "ping", "protocol", "shutdown"};
#define METHOD_COUNT (sizeof(methods) / sizeof(methods[0]))

/* What v1 does not do (docs/transport-v1.md), sorted bytewise. */
static const char *const nonclaims[] = {
    "no batch, concurrent or out-of-order requests",
    "no context, test, run or workspace methods (transport v2 has them)",
    "no drift detection: the source is read once at startup and never again",
    "no file system writes",
    "no imports: the source is the only module",
    "no manifest and no revisions",
    "no network, socket or peer authentication",
};
#define NONCLAIM_COUNT (sizeof(nonclaims) / sizeof(nonclaims[0]))

spx_v1_t *spx_v1_make(const spx_project_t *project, const spx_v1_limits_t *limits, apr_pool_t *pool)
{
    spx_v1_t *session = apr_pcalloc(pool, sizeof(*session));
    session->project = project;
    session->limits = *limits;
    return session;
}

static json_t *string_array(const char *const *strings, size_t count)
{
    json_t *array = json_array();
    for (size_t i = 0; i < count; i++)
        json_array_append_new(array, json_string(strings[i]));
    return array;
}

static json_t *protocol_result(const spx_v1_t *session)
{
    return json_pack("{s:s, s:s, s:o, s:{s:I, s:I, s:I, s:I, s:I}, s:o, s:o}", "schema",
                     SPX_TRANSPORT_V1_SCHEMA, "state", "open", "methods",
                     string_array(methods, METHOD_COUNT), "limits", "max_request_bytes",
                     (json_int_t)session->limits.max_request_bytes, "max_response_bytes",
                     (json_int_t)session->limits.max_response_bytes, "max_source_bytes",
                     (json_int_t)SPX_LIMIT_SOURCE_BYTES, "max_id_string_bytes",
                     (json_int_t)SPX_LIMIT_ID_STRING_BYTES, "max_request_json_depth",
                     (json_int_t)SPX_LIMIT_REQUEST_JSON_DEPTH, "source",
                     spx_project_source_document(session->project), "nonclaims",
                     string_array(nonclaims, NONCLAIM_COUNT));
}

static void answer_error(spx_answer_t *answer, int code, json_t *data)
{
    answer->result = NULL;
    answer->error_code = code;
    answer->error_data = data;
}

/* The source graph, written from the index straight into the response
 * line (v1's bytes are frozen: the same bytes as its Jansson document). */
static void write_source_graph(void *context, spx_json_writer_t *writer)
{
    spx_source_graph_write_value(context, writer);
}

void spx_v1_dispatch(void *context, const spx_request_t *request, spx_answer_t *answer,
                     apr_pool_t *pool)
{
    (void)pool;
    const spx_v1_t *session = context;
    const spx_project_t *project = session->project;
    static const char *const no_params[] = {NULL};
    const char *method = request->method;
    size_t known = 0;
    while (known < METHOD_COUNT && strcmp(methods[known], method) != 0)
        known++;
    if (known == METHOD_COUNT)
        answer_error(answer, SPX_RPC_METHOD_NOT_FOUND, NULL);
    else if (!spx_request_params_known(request, no_params, NULL))
        answer_error(answer, SPX_RPC_INVALID_PARAMS, NULL);
    else if (strcmp(method, "protocol") == 0)
        answer->result = protocol_result(session);
    else if (strcmp(method, "ping") == 0)
        answer->result = json_pack("{s:s}", "state", "open");
    else if (strcmp(method, "check") == 0)
        answer->result = spx_project_check_document_plain(project); /* v1 is byte-frozen */
    else if (strcmp(method, "graph") == 0 && spx_project_admitted(project)) {
        answer->result_stream = write_source_graph;
        answer->result_context = (void *)project;
    } else if (strcmp(method, "graph") == 0)
        answer_error(answer, SPX_RPC_PROJECT_NOT_ADMITTED,
                     json_pack("{s:o}", "diagnostics",
                               spx_diagnostics_json_plain(spx_project_diagnostics(project))));
    else { /* shutdown; a result that could not be made (no memory) stays -32603 */
        answer->result = json_pack("{s:s}", "state", "shutdown");
        answer->stop = 1;
    }
}

apr_status_t spx_v1_serve_stdio(spx_v1_t *session, apr_pool_t *pool, spx_loop_report_t *report)
{
    /* The reader's and writer's buffers are released with this pool, here,
     * not whenever (if ever) the caller's pool goes. */
    apr_pool_t *streams = NULL;
    spx_stdio_t *stdio = NULL;
    spx_frame_reader_t *reader = NULL;
    spx_response_writer_t *writer = NULL;
    apr_pool_create(&streams, pool);
    apr_status_t status = spx_stdio_open(&stdio, streams);
    if (status == APR_SUCCESS)
        status = spx_frame_reader_create_stdio(&reader, stdio, session->limits.max_request_bytes,
                                               streams);
    if (status == APR_SUCCESS)
        status = spx_response_writer_create_stdio(&writer, stdio,
                                                  session->limits.max_response_bytes, streams);
    if (status == APR_SUCCESS)
        spx_loop_run(reader, writer, spx_v1_dispatch, session, streams, report);
    apr_pool_destroy(streams);
    return status;
}
