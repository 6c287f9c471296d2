/*
 * mcp_tools.c: the tools of `semapraxd --mcp` (docs/agents.md): check,
 * context, test, run, graph_summary, status, fmt, and rename with
 * --allow-project-rename; each one's inputSchema and outputSchema, and what
 * it answers. mcp.c has made the project current before a tool runs and
 * writes its answer; a tool computes from the project held now only. A
 * tool's failure (an unknown target, a bad argument, a project that is not
 * admitted) is a tool error, whose text says why in the engine's words.
 * The output schemas are those of docs/schema (check.json, context.json,
 * execution.json, run.json inside run's, the rename result of v3), loosened
 * where they nest, with the revisions and revision_changed every tool adds;
 * fmt's is its own (per source: changed, written, refused, its layout or
 * diff).
 */
#include "mcp_tools.h"

#include "spx_canonical.h"
#include "spx_detail.h"
#include "spx_envelope.h"
#include "spx_index.h"
#include "spx_limits.h"
#include "spx_operations.h"
#include "spx_params.h"
#include "spx_response.h"
#include "spx_session_hooks.h"
#include "spx_status.h"
#include "spx_text.h"
#include "spx_utf8.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* --- the schemas' shared parts ------------------------------------------------ */

#define REVISIONS_SCHEMA                                                                           \
    "\"project_revision\":{\"type\":[\"string\",\"null\"]},"                                       \
    "\"workspace_revision\":{\"type\":[\"string\",\"null\"]},"                                     \
    "\"revision_changed\":{\"type\":\"object\",\"description\":\"present when the project "        \
    "changed since the previous call and was opened again before this answer\","                   \
    "\"properties\":{\"from\":{\"type\":[\"string\",\"null\"]},\"to\":{\"type\":[\"string\","      \
    "\"null\"]},\"drift\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{"     \
    "\"path\":{\"type\":\"string\"},\"reason\":{\"type\":\"string\"}},\"required\":[\"path\","     \
    "\"reason\"]}},\"drift_omitted\":{\"type\":\"integer\",\"minimum\":1}},\"required\":["         \
    "\"from\",\"to\",\"drift\"]}"

#define SPAN_SCHEMA "{\"type\":\"object\",\"required\":[\"start\",\"end\"]}"

#define DIAGNOSTICS_SCHEMA                                                                         \
    "{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"code\":{\"type\":"       \
    "\"string\"},\"message\":{\"type\":\"string\"},\"path\":{\"type\":\"string\"},\"severity\":"   \
    "{\"type\":\"string\"},\"span\":" SPAN_SCHEMA "},\"required\":[\"code\",\"message\","          \
    "\"path\",\"severity\",\"span\"]}}"

static const char check_output[] =
    "{\"type\":\"object\",\"properties\":{\"admitted\":{\"type\":\"boolean\"},"
    "\"diagnostics\":" DIAGNOSTICS_SCHEMA "," REVISIONS_SCHEMA
    "},\"required\":[\"admitted\",\"diagnostics\","
    "\"project_revision\",\"workspace_revision\"]}";

static const char context_output[] =
    "{\"type\":\"object\",\"properties\":{\"schema\":{\"const\":"
    "\"semaprax.project-semantic-context.v1\"},\"target\":{\"type\":\"string\"},\"direction\":"
    "{\"enum\":[\"out\",\"in\",\"both\"]},\"depth\":{\"type\":\"integer\",\"minimum\":0},"
    "\"edge_kinds\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"nodes\":{\"type\":"
    "\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"},"
    "\"kind\":{\"type\":\"string\"},\"distance\":{\"type\":\"integer\",\"minimum\":0},\"text\":{"
    "\"type\":\"string\"}},\"required\":[\"id\",\"kind\",\"distance\"]}},\"edges\":{\"type\":"
    "\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"from\":{\"type\":\"string\"},"
    "\"kind\":{\"type\":\"string\"},\"to\":{\"type\":\"string\"}},\"required\":[\"from\","
    "\"kind\",\"to\"]}},\"truncated\":{\"type\":\"boolean\"},\"omitted_nodes\":{\"type\":"
    "\"integer\",\"minimum\":0},\"omitted_by_tie\":{\"type\":\"object\",\"properties\":{"
    "\"calls\":{\"type\":\"integer\",\"minimum\":0},\"uses\":{\"type\":\"integer\","
    "\"minimum\":0},\"tests\":{\"type\":\"integer\",\"minimum\":0},\"module\":{\"type\":"
    "\"integer\",\"minimum\":0}},\"required\":[\"calls\",\"uses\",\"tests\",\"module\"]},"
    "\"frontier\":{\"type\":\"array\",\"items\":{\"type\":"
    "\"string\"}},\"limits\":{\"type\":\"object\",\"properties\":{\"max_bytes\":{\"type\":"
    "\"integer\"},\"max_nodes\":{\"type\":\"integer\"}},\"required\":[\"max_bytes\","
    "\"max_nodes\"]}," REVISIONS_SCHEMA "},\"required\":[\"schema\",\"project_revision\","
    "\"workspace_revision\",\"target\",\"direction\",\"depth\",\"nodes\",\"edges\","
    "\"truncated\",\"omitted_nodes\",\"limits\"]}";

static const char test_output[] =
    "{\"type\":\"object\",\"properties\":{\"command_succeeded\":{\"type\":\"boolean\"},"
    "\"envelope\":{\"type\":\"object\",\"description\":\"semaprax.project-execution.v1 "
    "(docs/schema/execution.json)\",\"properties\":{\"schema\":{\"const\":"
    "\"semaprax.project-execution.v1\"},\"command_succeeded\":{\"type\":\"boolean\"},"
    "\"summary\":{\"type\":\"object\",\"properties\":{\"total\":{\"type\":\"integer\"},"
    "\"passed\":{\"type\":\"integer\"},\"failed\":{\"type\":\"integer\"},\"fuel_exhausted\":{"
    "\"type\":\"integer\"},\"depth_exhausted\":{\"type\":\"integer\"},\"language_failure\":{"
    "\"type\":\"integer\"}},\"required\":[\"total\",\"passed\",\"failed\",\"fuel_exhausted\","
    "\"depth_exhausted\",\"language_failure\"]},\"tests\":{\"type\":\"array\",\"items\":{"
    "\"type\":\"object\"}},\"selection\":{\"type\":\"array\",\"items\":{\"type\":"
    "\"string\"},\"description\":\"the tests that ran when the call named "
    "some\"}},\"required\":[\"schema\",\"command_succeeded\",\"summary\","
    "\"tests\"]}," REVISIONS_SCHEMA "},\"required\":[\"command_succeeded\",\"envelope\","
    "\"project_revision\",\"workspace_revision\"]}";

static const char graph_summary_output[] =
    "{\"type\":\"object\",\"properties\":{\"counts\":{\"type\":\"object\",\"properties\":{"
    "\"modules\":{\"type\":\"integer\",\"minimum\":0},\"functions\":{\"type\":\"integer\","
    "\"minimum\":0},\"structs\":{\"type\":\"integer\",\"minimum\":0},\"consts\":{\"type\":"
    "\"integer\",\"minimum\":0},\"tests\":{\"type\":\"integer\",\"minimum\":0},\"nodes\":{"
    "\"type\":\"integer\",\"minimum\":0},\"edges\":{\"type\":\"integer\",\"minimum\":0},"
    "\"imports\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"modules\",\"functions\","
    "\"structs\",\"consts\",\"tests\",\"nodes\",\"edges\",\"imports\"]},\"modules\":{\"type\":"
    "\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},"
    "\"path\":{\"type\":\"string\"},\"imports\":{\"type\":\"array\",\"items\":{\"type\":"
    "\"string\"}}},\"required\":[\"name\",\"imports\"]}},\"truncated\":{\"type\":\"boolean\"},"
    "\"omitted_modules\":{\"type\":\"integer\",\"minimum\":0},\"max_modules\":{\"type\":"
    "\"integer\",\"minimum\":1}," REVISIONS_SCHEMA "},\"required\":[\"counts\",\"modules\","
    "\"truncated\",\"omitted_modules\",\"max_modules\",\"project_revision\","
    "\"workspace_revision\"]}";

static const char status_output[] =
    "{\"type\":\"object\",\"properties\":{\"state\":{\"enum\":[\"open\",\"unavailable\"]},"
    "\"admitted\":{\"type\":\"boolean\"},\"manifest\":{\"type\":\"string\"},"
    "\"protocol_version\":{\"type\":\"string\"},\"unavailable\":{\"type\":\"string\"},"
    "\"counters\":{\"type\":\"object\",\"properties\":{\"phase_a_runs\":{\"type\":\"integer\","
    "\"minimum\":0},\"source_reads\":{\"type\":\"integer\",\"minimum\":0},\"authentications\":{"
    "\"type\":\"integer\",\"minimum\":0},\"requests\":{\"type\":\"integer\",\"minimum\":0}},"
    "\"required\":[\"phase_a_runs\",\"source_reads\",\"authentications\",\"requests\"]}"
    "," REVISIONS_SCHEMA "},\"required\":[\"state\",\"admitted\",\"manifest\",\"counters\","
    "\"project_revision\",\"workspace_revision\"]}";

static const char rename_output[] =
    "{\"type\":\"object\",\"properties\":{\"committed\":{\"type\":\"boolean\"},\"edits\":{"
    "\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":"
    "\"string\"},\"before\":{\"type\":\"string\"},\"after\":{\"type\":\"string\"},\"changes\":{"
    "\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"span\":" SPAN_SCHEMA
    ",\"old\":{\"type\":\"string\"},\"new\":{\"type\":\"string\"}},\"required\":[\"span\","
    "\"old\",\"new\"]}}},\"required\":[\"path\",\"before\",\"after\",\"changes\"]}}"
    "," REVISIONS_SCHEMA "},\"required\":[\"committed\",\"edits\",\"project_revision\","
    "\"workspace_revision\"]}";

#define FAILURE_SCHEMA                                                                             \
    "{\"type\":\"object\",\"properties\":{\"code\":{\"type\":\"string\"},\"message\":{\"type\":"   \
    "\"string\"},\"path\":{\"type\":\"string\"},\"span\":" SPAN_SCHEMA "},\"required\":["          \
    "\"code\",\"message\",\"path\",\"span\"]}"

static const char run_output[] =
    "{\"type\":\"object\",\"properties\":{\"entry\":{\"type\":\"string\",\"description\":\"the "
    "function that ran, module.function\"},\"outcome\":{\"enum\":[\"passed\",\"failed\","
    "\"language_failure\",\"fuel_exhausted\",\"depth_exhausted\"],\"description\":\"passed: it "
    "returned 0; failed: it returned another value\"},\"succeeded\":{\"type\":\"boolean\"},"
    "\"value\":{\"type\":\"integer\",\"description\":\"what it returned (when it returned)\"},"
    "\"steps\":{\"type\":\"integer\",\"minimum\":0},\"output\":{\"type\":\"string\"},"
    "\"output_truncated\":{\"type\":\"boolean\"},\"failure\":" FAILURE_SCHEMA ","
    "\"limit_reached\":{\"enum\":[\"max_steps\",\"max_memory\",\"max_call_depth\"],"
    "\"description\":\"the argument that raises the limit that stopped the run\"},"
    "\"envelope\":{\"type\":\"object\",\"description\":\"semaprax.project-run.v1 "
    "(docs/schema/run.json), what semaprax run --envelope writes\",\"properties\":{\"schema\":{"
    "\"const\":\"semaprax.project-run.v1\"},\"run\":{\"type\":\"object\"},\"command_succeeded\":{"
    "\"type\":\"boolean\"},\"envelope_digest\":{\"type\":\"string\"}},\"required\":[\"schema\","
    "\"run\",\"command_succeeded\",\"envelope_digest\"]}," REVISIONS_SCHEMA "},\"required\":["
    "\"entry\",\"outcome\",\"succeeded\",\"steps\",\"output\",\"output_truncated\",\"envelope\","
    "\"project_revision\",\"workspace_revision\"]}";

static const char fmt_output[] =
    "{\"type\":\"object\",\"properties\":{\"output\":{\"enum\":[\"text\",\"diff\"]},\"write\":{"
    "\"type\":\"boolean\"},\"sources\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
    "\"properties\":{\"path\":{\"type\":\"string\"},\"changed\":{\"type\":\"boolean\","
    "\"description\":\"its layout differs from its bytes\"},\"written\":{\"type\":\"boolean\"},"
    "\"refused\":{\"enum\":[\"syntax\",\"too_large\",\"self_check\",\"unwritable\",\"changed\"],"
    "\"description\":\"why it was not formatted\"},\"diagnostics\":" DIAGNOSTICS_SCHEMA ","
    "\"why\":{\"type\":\"string\"},\"text\":{\"type\":\"string\",\"description\":\"output text: "
    "its layout\"},\"diff\":{\"type\":\"string\",\"description\":\"output diff, a changed "
    "source: the unified diff (diff -u, patch -p1) to its layout\"}},\"required\":[\"path\","
    "\"changed\",\"written\"]}},\"changed\":{\"type\":\"integer\",\"minimum\":0},\"written\":{"
    "\"type\":\"integer\",\"minimum\":0},\"refused\":{\"type\":\"integer\",\"minimum\":0},"
    "\"texts_omitted\":{\"type\":\"boolean\",\"description\":\"some text or diff did not fit "
    "the answer: name fewer paths\"},\"stopped\":{\"type\":\"string\",\"description\":\"a save "
    "made meanwhile stopped the writes there\"}," REVISIONS_SCHEMA "},\"required\":[\"output\","
    "\"write\",\"sources\",\"changed\",\"written\",\"refused\",\"texts_omitted\","
    "\"project_revision\",\"workspace_revision\"]}";

static const char *no_input(const mcp_server_t *server, apr_pool_t *pool)
{
    (void)server;
    (void)pool;
    return "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";
}

/* The context tool's largest max_bytes under this server's
 * --max-response-bytes: half of what a result line to the longest id
 * (SPX_LIMIT_ID_STRING_BYTES control characters, each escaped in six bytes)
 * leaves, for the structured content and its copy in the text, and at most
 * SPX_LIMIT_MCP_CONTEXT_BYTES_MAXIMUM. The same for every call, so the
 * inputSchema says it. */
static apr_uint64_t context_bytes_maximum(const mcp_server_t *server)
{
    char longest[SPX_LIMIT_ID_STRING_BYTES];
    memset(longest, 0x01, sizeof(longest));
    json_t *id = json_stringn(longest, sizeof(longest));
    apr_uint64_t around = spx_response_result_frame_bytes(id);
    json_decref(id);
    apr_uint64_t limit = server->options->max_response_bytes;
    apr_uint64_t half = limit > around ? (limit - around) / 2 : 0;
    return half < SPX_LIMIT_MCP_CONTEXT_BYTES_MAXIMUM ? half : SPX_LIMIT_MCP_CONTEXT_BYTES_MAXIMUM;
}

static const char *context_input(const mcp_server_t *server, apr_pool_t *pool)
{
    return apr_psprintf(
        pool,
        "{\"type\":\"object\",\"properties\":{"
        "\"target\":{\"type\":\"string\",\"description\":\"the target's name: a module (app), a "
        "function (math.fact), a struct (geo.Point), an enum (geo.Shape), a const (geo.ORIGIN_X), "
        "a test (the manifest's test name), a builtin (len) or a data entry (the manifest's name); "
        "or, without target_kind, a graph node id (function:math.fact)\"},"
        "\"target_kind\":{\"enum\":[\"module\",\"function\",\"struct\",\"enum\",\"const\","
        "\"test\",\"builtin\",\"data\"],"
        "\"description\":\"what the target is\"},"
        "\"direction\":{\"enum\":[\"out\",\"in\",\"both\"],\"default\":\"both\",\"description\":"
        "\"follow edges out of a node (what it calls, uses, reads, imports, contains), into it "
        "(who calls, uses, reads it), or both\"},"
        "\"depth\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":%u,\"default\":%u},"
        "\"max_nodes\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":%u,\"default\":%u},"
        "\"max_bytes\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":%" APR_UINT64_T_FMT
        ",\"default\":%u,"
        "\"description\":\"the context document's byte budget: the nearest nodes that fit are "
        "kept\"},"
        "\"edge_kinds\":{\"type\":\"array\",\"items\":{\"enum\":[\"imports\",\"contains\","
        "\"calls\",\"uses\",\"reads\",\"tests\",\"enters\"]},\"minItems\":1,\"maxItems\":%u,"
        "\"description\":\"follow only edges of these kinds (default: every kind)\"}},"
        "\"required\":[\"target\"],\"additionalProperties\":false}",
        SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM, SPX_LIMIT_CONTEXT_DEPTH_DEFAULT,
        SPX_LIMIT_CONTEXT_NODES_MAXIMUM, SPX_LIMIT_CONTEXT_NODES_DEFAULT,
        context_bytes_maximum(server), SPX_LIMIT_MCP_CONTEXT_BYTES_DEFAULT,
        SPX_LIMIT_CONTEXT_EDGE_KINDS);
}

static const char *test_input(const mcp_server_t *server, apr_pool_t *pool)
{
    (void)server;
    return apr_psprintf(
        pool,
        "{\"type\":\"object\",\"properties\":{"
        "\"max_steps\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":%" APR_UINT64_T_FMT
        ",\"default\":%" APR_UINT64_T_FMT ",\"description\":\"fuel of each test, in steps\"},"
        "\"max_bytes\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":%" APR_UINT64_T_FMT
        ",\"default\":%u,\"description\":\"the most bytes a test may print\"},"
        "\"max_memory\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":%" APR_UINT64_T_FMT
        ",\"default\":%" APR_UINT64_T_FMT ",\"description\":\"the most value memory a test may "
        "hold, in bytes\"},"
        "\"max_call_depth\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":%u,\"default\":%u,"
        "\"description\":\"the most active calls a test may have; a test that goes deeper ends "
        "depth_exhausted\"},"
        "\"tests\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1,"
        "\"description\":\"run only these tests (each the manifest's test name, or module.function "
        "when one test runs that function), in manifest order; the envelope names the tests that "
        "ran in selection (default: every test)\"}},\"additionalProperties\":false}",
        (apr_uint64_t)SPX_LIMIT_MAX_STEPS_MAXIMUM, (apr_uint64_t)SPX_LIMIT_MAX_STEPS_DEFAULT,
        (apr_uint64_t)SPX_LIMIT_MAX_BYTES_MAXIMUM, SPX_LIMIT_MAX_BYTES_DEFAULT,
        (apr_uint64_t)SPX_LIMIT_MAX_MEMORY_MAXIMUM, (apr_uint64_t)SPX_LIMIT_MAX_MEMORY_DEFAULT,
        SPX_LIMIT_CALL_DEPTH_MAXIMUM, SPX_LIMIT_CALL_DEPTH_DEFAULT);
}

static const char *run_input(const mcp_server_t *server, apr_pool_t *pool)
{
    (void)server;
    return apr_psprintf(
        pool,
        "{\"type\":\"object\",\"properties\":{"
        "\"entry\":{\"type\":\"string\",\"description\":\"the function to run, module.function, "
        "with the signature fn() -> int (default: the manifest's entry), as semaprax run "
        "--entry\"},"
        "\"arguments\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":%u,"
        "\"description\":\"what args() returns, as the words after -- of semaprax run (at most "
        "%u bytes together)\"},"
        "\"max_steps\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":%" APR_UINT64_T_FMT
        ",\"default\":%" APR_UINT64_T_FMT ",\"description\":\"fuel, in steps (default: the "
        "manifest's [limits], else this)\"},"
        "\"max_bytes\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":%" APR_UINT64_T_FMT
        ",\"default\":%u,\"description\":\"the most bytes of output kept; more sets "
        "output_truncated\"},"
        "\"max_memory\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":%" APR_UINT64_T_FMT
        ",\"default\":%" APR_UINT64_T_FMT ",\"description\":\"the most value memory the run may "
        "hold, in bytes\"},"
        "\"max_call_depth\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":%u,\"default\":%u,"
        "\"description\":\"the most active calls\"}},\"additionalProperties\":false}",
        SPX_LIMIT_RUN_ARGUMENTS, SPX_LIMIT_RUN_ARGUMENT_BYTES,
        (apr_uint64_t)SPX_LIMIT_MAX_STEPS_MAXIMUM, (apr_uint64_t)SPX_LIMIT_MAX_STEPS_DEFAULT,
        (apr_uint64_t)SPX_LIMIT_MAX_BYTES_MAXIMUM, SPX_LIMIT_MAX_BYTES_DEFAULT,
        (apr_uint64_t)SPX_LIMIT_MAX_MEMORY_MAXIMUM, (apr_uint64_t)SPX_LIMIT_MAX_MEMORY_DEFAULT,
        SPX_LIMIT_CALL_DEPTH_MAXIMUM, SPX_LIMIT_CALL_DEPTH_DEFAULT);
}

static const char *fmt_input(const mcp_server_t *server, apr_pool_t *pool)
{
    return apr_psprintf(
        pool,
        "{\"type\":\"object\",\"properties\":{"
        "\"paths\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1,"
        "\"maxItems\":%u,\"description\":\"the sources to lay out, each as the manifest names "
        "it (src/app.spx; default: every source)\"},"
        "\"output\":{\"enum\":[\"text\",\"diff\"],\"default\":\"diff\",\"description\":\"text: "
        "each source's layout; diff: the unified diff of each changed source (--- a/PATH, +++ "
        "b/PATH, 3 lines of context, as diff -u)\"},"
        "\"write\":%s},\"additionalProperties\":false}",
        SPX_LIMIT_SOURCES,
        server->options->allow_fmt_write
            ? "{\"type\":\"boolean\",\"default\":false,\"description\":\"replace each changed "
              "source by its layout, atomically, never over a save made since it was read\"}"
            : "{\"const\":false,\"default\":false,\"description\":\"writing needs semapraxd "
              "--mcp --allow-fmt-write; this server writes nothing\"}");
}

static const char *graph_summary_input(const mcp_server_t *server, apr_pool_t *pool)
{
    (void)server;
    return apr_psprintf(pool,
                        "{\"type\":\"object\",\"properties\":{\"max_modules\":{\"type\":"
                        "\"integer\",\"minimum\":1,\"maximum\":%u,\"default\":%u,\"description\":"
                        "\"the most modules listed with their imports\"}},"
                        "\"additionalProperties\":false}",
                        SPX_LIMIT_MCP_GRAPH_MODULES_MAXIMUM, SPX_LIMIT_MCP_GRAPH_MODULES_DEFAULT);
}

static const char *rename_input(const mcp_server_t *server, apr_pool_t *pool)
{
    (void)server;
    (void)pool;
    return "{\"type\":\"object\",\"properties\":{"
           "\"function\":{\"type\":\"string\",\"description\":\"the exported function to "
           "rename, as module.name (math.fact)\"},"
           "\"new_name\":{\"type\":\"string\",\"description\":\"its new name, without the "
           "module\"},"
           "\"dry_run\":{\"type\":\"boolean\",\"default\":false,\"description\":\"only show the "
           "edits; write nothing\"}},"
           "\"required\":[\"function\",\"new_name\"],\"additionalProperties\":false}";
}

/* --- what the tools share --------------------------------------------------------- */

static void fail(mcp_answer_t *answer, const char *text)
{
    answer->is_error = 1;
    answer->error_text = text;
}

/* fail with a sentence that may carry what the client sent (a target, a
 * test name, a function): cut as --stdio cuts its data.detail
 * (spx_detail_bounded). */
static void fail_bounded(mcp_answer_t *answer, const char *sentence, apr_pool_t *pool)
{
    char cut[SPX_DETAIL_BUFFER_BYTES];
    fail(answer, apr_pstrdup(pool, spx_detail_bounded(sentence, cut)));
}

/* 1 when every argument is one of allowed (NULL-terminated); else the
 * answer is a tool error naming the first unknown one, and 0. */
static int arguments_known(json_t *arguments, const char *const *allowed, mcp_answer_t *answer,
                           apr_pool_t *pool)
{
    const char *key;
    json_t *value;
    json_object_foreach(arguments, key, value)
    {
        const char *const *name = allowed;
        while (*name && strcmp(*name, key) != 0)
            name++;
        if (*name)
            continue;
        const char *list = "";
        for (name = allowed; *name; name++)
            list = apr_pstrcat(pool, list, name == allowed ? "" : ", ", *name, NULL);
        fail(answer,
             apr_psprintf(pool, "unknown argument '%s': %s%s", spx_detail_echo(key, pool),
                          *allowed ? "this tool takes " : "this tool takes no arguments", list));
        return 0;
    }
    return 1;
}

/* The tool error of an integer argument that is not one in [minimum,
 * maximum]: one sentence for every way it can be wrong (out of range,
 * mistyped, beyond 2^63-1). */
static void count_refused(const char *key, apr_uint64_t minimum, apr_uint64_t maximum,
                          mcp_answer_t *answer, apr_pool_t *pool)
{
    fail(answer,
         apr_psprintf(pool, "%s must be an integer in %" APR_UINT64_T_FMT "..%" APR_UINT64_T_FMT,
                      key, minimum, maximum));
}

/* An optional integer argument in [minimum, maximum]: 1 when absent (value
 * untouched) or valid; else a tool error (count_refused) and 0. */
static int optional_count(json_t *arguments, const char *key, apr_uint64_t minimum,
                          apr_uint64_t maximum, apr_uint64_t *value, mcp_answer_t *answer,
                          apr_pool_t *pool)
{
    apr_int64_t given = 0;
    spx_param_found_t found =
        spx_param_optional_count(arguments, key, minimum, maximum, 0, value, &given);
    if (found == SPX_PARAM_ABSENT || found == SPX_PARAM_VALID)
        return 1;
    count_refused(key, minimum, maximum, answer, pool);
    return 0;
}

/* The run limits among the arguments (spx_op_run_limits, in its order)
 * over the defaults in limits: 1 when each is absent or applied; else a
 * tool error, in optional_count's words, and 0. */
static int limit_arguments(json_t *arguments, spx_run_limits_t *limits, mcp_answer_t *answer,
                           apr_pool_t *pool)
{
    for (apr_size_t i = 0; i < SPX_OP_RUN_LIMIT_COUNT; i++) {
        const spx_op_run_limit_t *limit = &spx_op_run_limits[i];
        apr_uint64_t value = 0;
        apr_int64_t given = 0;
        spx_param_found_t found =
            spx_param_optional_count(arguments, limit->param, 0, APR_UINT64_MAX, 0, &value, &given);
        if (found == SPX_PARAM_ABSENT ||
            (found == SPX_PARAM_VALID &&
             spx_op_run_limit_apply(limits, i, value) == SPX_OP_LIMIT_APPLIED))
            continue;
        count_refused(limit->param, limit->minimum, limit->maximum, answer, pool);
        return 0;
    }
    return 1;
}

/* An optional string argument: 1 when absent (NULL) or a string; else a
 * tool error and 0. */
static int optional_string(json_t *arguments, const char *key, const char **value,
                           mcp_answer_t *answer, apr_pool_t *pool)
{
    *value = NULL;
    if (spx_param_optional_string(arguments, key, value) != SPX_PARAM_MISTYPED)
        return 1;
    fail(answer, apr_psprintf(pool, "%s must be a string", key));
    return 0;
}

/* "N diagnostics" (noun: "diagnostic" or "warning"), then the diagnostics
 * one per line, at most SPX_LIMIT_MCP_DIAGNOSTICS_IN_TEXT. */
static const char *diagnostics_text(const spx_project_t *project, const char *noun,
                                    apr_pool_t *pool)
{
    return spx_op_diagnostics_summary(spx_project_diagnostics(project), noun,
                                      SPX_LIMIT_MCP_DIAGNOSTICS_IN_TEXT,
                                      "the check tool lists them all", pool);
}

/* 1 when a project is held; else a tool error saying why not, and 0. */
static int project_held(const mcp_server_t *server, mcp_answer_t *answer, apr_pool_t *pool)
{
    if (server->held.project)
        return 1;
    fail(answer, apr_psprintf(pool, "the project cannot be read: %s",
                              server->held.unavailable ? server->held.unavailable : "not opened"));
    return 0;
}

/* 1 when the project is admitted; else a tool error with its diagnostics,
 * and 0. */
static int admitted(const mcp_server_t *server, mcp_answer_t *answer, apr_pool_t *pool)
{
    if (!project_held(server, answer, pool))
        return 0;
    if (spx_project_admitted(server->held.project))
        return 1;
    fail(answer, apr_pstrcat(pool, "the project is not admitted: ",
                             diagnostics_text(server->held.project, "diagnostic", pool), NULL));
    return 0;
}

/* object with the project's revisions added; object is returned. */
static json_t *with_revisions(const mcp_server_t *server, json_t *object)
{
    json_object_set_new(object, "project_revision", spx_mcp_project_revision(server));
    json_object_set_new(object, "workspace_revision", spx_mcp_workspace_revision(server));
    return object;
}

/* --- the tools ------------------------------------------------------------------------ */

static void run_check(mcp_server_t *server, json_t *arguments, const mcp_budget_t *budget,
                      mcp_answer_t *answer, apr_pool_t *pool)
{
    (void)budget;
    if (!arguments_known(arguments, (const char *const[]){NULL}, answer, pool) ||
        !project_held(server, answer, pool))
        return;
    spx_check_result_t check;
    spx_op_check(server->held.project, 0, &check);
    answer->structured = with_revisions(server, spx_project_check_document(server->held.project));
    /* An admitted project's diagnostics are warnings (they never stop admission). */
    if (!check.admitted)
        answer->summary =
            apr_pstrcat(pool, "The project is not admitted: ",
                        diagnostics_text(server->held.project, "diagnostic", pool), NULL);
    else if (check.diagnostic_count > 0)
        answer->summary =
            apr_pstrcat(pool, "The project is admitted: ",
                        diagnostics_text(server->held.project, "warning", pool), NULL);
    else
        answer->summary = "The project is admitted: no diagnostics.";
}

/* "; 4 more nodes did not fit (by tie: uses 2, tests 1, module 1; see
 * frontier)": what a cut context left out (outputs.md, Context), its ties
 * worded by the operation (spx_op_context_omitted_by_tie). */
static const char *omitted_sentence(const spx_context_facts_t *facts, apr_pool_t *pool)
{
    return apr_psprintf(pool, "; %" APR_SIZE_T_FMT " more node%s did not fit (%s; see frontier)",
                        facts->omitted_nodes, spx_plural(facts->omitted_nodes),
                        spx_op_context_omitted_by_tie(facts, pool));
}

static void run_context(mcp_server_t *server, json_t *arguments, const mcp_budget_t *budget,
                        mcp_answer_t *answer, apr_pool_t *pool)
{
    static const char *const allowed[] = {"target",    "target_kind", "direction",  "depth",
                                          "max_nodes", "max_bytes",   "edge_kinds", NULL};
    (void)budget; /* the document's own budget keeps it within half of it */
    apr_uint64_t limit = context_bytes_maximum(server);
    spx_context_request_t query = spx_op_context_query(SPX_LIMIT_MCP_CONTEXT_BYTES_DEFAULT, limit);
    const char *direction = NULL;
    if (!arguments_known(arguments, allowed, answer, pool) ||
        !optional_string(arguments, "target", &query.target, answer, pool) ||
        !optional_string(arguments, "target_kind", &query.target_kind, answer, pool) ||
        !optional_string(arguments, "direction", &direction, answer, pool) ||
        !optional_count(arguments, "depth", 0, SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM, &query.depth,
                        answer, pool) ||
        !optional_count(arguments, "max_nodes", 1, SPX_LIMIT_CONTEXT_NODES_MAXIMUM,
                        &query.max_nodes, answer, pool) ||
        !optional_count(arguments, "max_bytes", 1, limit, &query.max_bytes, answer, pool))
        return;
    if (direction)
        query.direction = direction;
    if (!query.target) {
        fail(answer, "target is required: the name of a module, function, struct, enum, const, "
                     "test, builtin or data entry, or a graph node id");
        return;
    }
    json_t *kinds = json_object_get(arguments, "edge_kinds");
    if (kinds) {
        if (!json_is_array(kinds) || json_array_size(kinds) == 0 ||
            json_array_size(kinds) > SPX_LIMIT_CONTEXT_EDGE_KINDS) {
            fail(answer, apr_psprintf(pool, "edge_kinds must be an array of 1..%u edge kinds",
                                      SPX_LIMIT_CONTEXT_EDGE_KINDS));
            return;
        }
        const char **names = apr_palloc(pool, json_array_size(kinds) * sizeof(*names));
        for (size_t i = 0; i < json_array_size(kinds); i++) {
            names[i] = json_string_value(json_array_get(kinds, i));
            if (!names[i]) {
                fail(answer, "edge_kinds must hold strings: imports, contains, calls, uses, "
                             "reads, tests, enters");
                return;
            }
        }
        query.edge_kinds = names;
        query.edge_kind_count = json_array_size(kinds);
    }
    if (!admitted(server, answer, pool))
        return;
    spx_context_result_t context;
    if (spx_op_context(server->held.project, &query, limit, &context, pool) != APR_SUCCESS) {
        spx_log_request(&server->log, "context: %s", context.message ? context.message : "failed");
        fail_bounded(answer, context.message ? context.message : "the context could not be made",
                     pool);
        return;
    }
    json_object_set_new(context.document, "workspace_revision", spx_mcp_workspace_revision(server));
    answer->structured = context.document;
    const spx_context_facts_t *facts = &context.facts;
    answer->summary = apr_psprintf(
        pool, "Context of %s (direction %s, depth %" APR_UINT64_T_FMT "): %u node%s, %u edge%s%s",
        facts->target, query.direction, query.depth, (unsigned)facts->nodes,
        spx_plural(facts->nodes), (unsigned)facts->edges, spx_plural(facts->edges),
        facts->truncated ? omitted_sentence(facts, pool) : ".");
}

/* The optional argument tests: 1 when absent (*names NULL) or an array of
 * one or more strings; else a tool error saying why, in v2's words, and 0. */
static int test_names_argument(json_t *arguments, const char ***names, apr_size_t *count,
                               mcp_answer_t *answer, apr_pool_t *pool)
{
    apr_size_t item = 0;
    spx_param_found_t found = spx_param_test_names(arguments, names, count, &item, pool);
    if (found == SPX_PARAM_ABSENT || found == SPX_PARAM_VALID)
        return 1;
    fail(answer, spx_param_test_names_problem(found, item, pool));
    return 0;
}

static void run_test(mcp_server_t *server, json_t *arguments, const mcp_budget_t *budget,
                     mcp_answer_t *answer, apr_pool_t *pool)
{
    (void)budget;
    static const char *const allowed[] = {"max_steps",      "max_bytes", "max_memory",
                                          "max_call_depth", "tests",     NULL};
    spx_op_test_request_t test = {spx_op_test_limits_default(), NULL, 0, NULL, 0, NULL};
    const char **names = NULL;
    if (!arguments_known(arguments, allowed, answer, pool) ||
        !limit_arguments(arguments, &test.limits, answer, pool) ||
        !test_names_argument(arguments, &names, &test.name_count, answer, pool) ||
        !admitted(server, answer, pool))
        return;
    test.names = names;
    /* Nothing is built past what the result can hold. */
    test.max_answer_bytes = budget->result_bytes;
    spx_op_test_result_t run;
    const char *message = NULL;
    test.interrupt = server->call ? spx_call_interrupt(server->call) : NULL;
    switch (spx_op_test(server->held.project, &test, &run, pool, &message)) {
    case SPX_OP_TEST_INTERRUPTED: /* past the deadline; a cancelled call is never answered */
        fail(answer, spx_call_too_long_sentence(server->call, pool));
        return;
    case SPX_OP_TEST_UNKNOWN_NAME:
        /* in the engine's words, with the nearest test names, as v2 refuses it */
        spx_log_request(&server->log, "test: %s", message);
        fail_bounded(answer, message, pool);
        return;
    case SPX_OP_TEST_NOT_RUN:
        fail_bounded(answer, apr_psprintf(pool, "the tests could not be run: %s", message), pool);
        return;
    case SPX_OP_TEST_TOO_LARGE:
        /* Stopped once the envelope could not fit: nothing past it built. */
        spx_log_request(&server->log, "test: %s", message);
        fail(answer, apr_psprintf(pool,
                                  "the answer would need more than %" APR_UINT64_T_FMT
                                  " bytes, over the %" APR_UINT64_T_FMT
                                  " that --max-response-bytes %" APR_SIZE_T_FMT
                                  " leaves: %s; ask for less (max_bytes, tests)",
                                  run.records_bytes, run.answer_bytes,
                                  server->options->max_response_bytes, message));
        return;
    default:
        break;
    }
    const spx_test_summary_t *summary = &run.summary;
    apr_size_t language_failures = summary->by_outcome[SPX_TEST_LANGUAGE_FAILURE];
    answer->summary = apr_psprintf(
        pool,
        "Tests: %u of %u passed, %u failed, %u fuel exhausted, %u depth exhausted, %u language "
        "failure%s; command %s.",
        (unsigned)summary->by_outcome[SPX_TEST_PASSED], (unsigned)summary->total,
        (unsigned)summary->by_outcome[SPX_TEST_FAILED],
        (unsigned)summary->by_outcome[SPX_TEST_FUEL_EXHAUSTED],
        (unsigned)summary->by_outcome[SPX_TEST_DEPTH_EXHAUSTED], (unsigned)language_failures,
        spx_plural(language_failures), run.command_succeeded ? "succeeded" : "failed");
    const char *failures = spx_op_test_failures_sentence(&run, SPX_OP_LIMIT_BY_PARAM, pool);
    if (failures)
        answer->summary = apr_pstrcat(pool, answer->summary, " ", failures, ".", NULL);
    answer->structured =
        with_revisions(server, json_pack("{s:b,s:o}", "command_succeeded", run.command_succeeded,
                                         "envelope", run.envelope));
}

/* The optional argument arguments of run: 1 when absent (*count 0) or an
 * array of strings without NUL; else a tool error and 0. */
static int run_arguments(json_t *arguments, const char ***words, apr_size_t *count,
                         mcp_answer_t *answer, apr_pool_t *pool)
{
    json_t *given = json_object_get(arguments, "arguments");
    *words = NULL;
    *count = 0;
    if (!given)
        return 1;
    if (!json_is_array(given) || json_array_size(given) > SPX_LIMIT_RUN_ARGUMENTS) {
        fail(answer, apr_psprintf(pool, "arguments must be an array of at most %u strings",
                                  SPX_LIMIT_RUN_ARGUMENTS));
        return 0;
    }
    *words = apr_pcalloc(pool, (json_array_size(given) + 1) * sizeof(**words));
    for (size_t i = 0; i < json_array_size(given); i++) {
        json_t *word = json_array_get(given, i);
        const char *text = json_string_value(word);
        if (!text || strlen(text) != json_string_length(word)) {
            fail(answer,
                 apr_psprintf(pool, "arguments[%u] must be a string without NUL", (unsigned)i));
            return 0;
        }
        (*words)[i] = text;
    }
    *count = json_array_size(given);
    return 1;
}

/* What an agent reads of a run: what happened, then what to do next, then
 * the output. */
static const char *run_summary(const spx_op_entry_result_t *entry, apr_pool_t *pool)
{
    const spx_run_result_t *run = &entry->run;
    const char *what;
    if (run->outcome == SPX_OUTCOME_RETURNED)
        what = apr_psprintf(
            pool, "Ran %s: it returned %" APR_INT64_T_FMT " after %" APR_UINT64_T_FMT " step%s%s.",
            entry->entry, (apr_int64_t)run->value, (apr_uint64_t)run->steps, spx_plural(run->steps),
            entry->succeeded ? "" : " (not 0: a failed run, where semaprax run exits 1)");
    else
        what = apr_psprintf(
            pool, "Ran %s: %s after %" APR_UINT64_T_FMT " step%s: %s:%u:%u: error[%s]: %s.",
            entry->entry, spx_outcome_words(entry->outcome), (apr_uint64_t)run->steps,
            spx_plural(run->steps), run->failure.path, (unsigned)run->failure.span.start.line,
            (unsigned)run->failure.span.start.column, run->failure.code, run->failure.message);
    const char *hint = spx_op_limit_hint(run, SPX_OP_LIMIT_BY_PARAM, pool);
    if (hint)
        what = apr_psprintf(pool,
                            "%s To let it go on, call run again and %s; or look for a loop or "
                            "recursion that does not end.",
                            what, hint);
    if (run->output_truncated)
        what = apr_psprintf(pool,
                            "%s The output was cut at %" APR_SIZE_T_FMT
                            " bytes: raise max_bytes (at most %u) to see more.",
                            what, run->output_length, SPX_LIMIT_MAX_BYTES_MAXIMUM);
    if (run->output_length == 0)
        return apr_pstrcat(pool, what, " It printed nothing.", NULL);
    return apr_psprintf(pool, "%s Output (%" APR_SIZE_T_FMT " byte%s):\n%.*s", what,
                        run->output_length, spx_plural(run->output_length), (int)run->output_length,
                        run->output);
}

static void run_run(mcp_server_t *server, json_t *arguments, const mcp_budget_t *budget,
                    mcp_answer_t *answer, apr_pool_t *pool)
{
    (void)budget; /* max_bytes bounds the output; mcp.c refuses what cannot fit */
    static const char *const allowed[] = {"entry",      "arguments",      "max_steps", "max_bytes",
                                          "max_memory", "max_call_depth", NULL};
    /* The entry's limits, with a test's max_bytes: the output is answered
     * three times (the text, output, the envelope). */
    spx_run_limits_t limits = spx_op_entry_limits_default();
    limits.max_bytes = SPX_LIMIT_MAX_BYTES_DEFAULT;
    const char *function = NULL;
    const char **words = NULL;
    if (!arguments_known(arguments, allowed, answer, pool) ||
        !optional_string(arguments, "entry", &function, answer, pool) ||
        !run_arguments(arguments, &words, &limits.argument_count, answer, pool) ||
        !limit_arguments(arguments, &limits, answer, pool) || !admitted(server, answer, pool))
        return;
    limits.arguments = words;
    spx_op_entry_result_t entry;
    json_t *envelope = NULL;
    const char *message = NULL;
    apr_status_t status = spx_op_run_function_interruptible(
        server->held.project, function, &limits,
        server->call ? spx_call_interrupt(server->call) : NULL, &entry, &envelope, pool, &message);
    if (status ==
        SPX_STATUS_INTERRUPTED) { /* past the deadline; a cancelled call is never answered */
        fail(answer, spx_call_too_long_sentence(server->call, pool));
        return;
    }
    if (status != APR_SUCCESS) {
        spx_log_request(&server->log, "run: %s", message ? message : "failed");
        fail_bounded(answer, apr_psprintf(pool, "cannot run: %s", message ? message : "it failed"),
                     pool);
        return;
    }
    const spx_run_result_t *run = &entry.run;
    int limit = spx_op_run_limit_reached(run);
    json_t *result = json_pack("{s:s,s:s,s:b,s:I,s:s%,s:b,s:o}", "entry", entry.entry, "outcome",
                               spx_test_outcome_name(entry.outcome), "succeeded", entry.succeeded,
                               "steps", (json_int_t)run->steps, "output",
                               run->output ? run->output : "", run->output_length,
                               "output_truncated", run->output_truncated, "envelope", envelope);
    if (!result) { /* bytes that are not UTF-8: the envelope refused them first */
        fail(answer, "the run printed bytes that are not UTF-8");
        return;
    }
    if (run->outcome == SPX_OUTCOME_RETURNED)
        json_object_set_new(result, "value", json_integer((json_int_t)run->value));
    else
        json_object_set_new(result, "failure", spx_failure_json(&run->failure));
    if (limit >= 0)
        json_object_set_new(result, "limit_reached", json_string(spx_op_run_limits[limit].param));
    answer->structured = with_revisions(server, result);
    answer->summary = run_summary(&entry, pool);
}

/* The optional argument paths of fmt: 1 when absent (*count 0) or an array
 * of 1..SPX_LIMIT_SOURCES strings; else a tool error and 0. */
static int fmt_paths(json_t *arguments, const char ***paths, apr_size_t *count,
                     mcp_answer_t *answer, apr_pool_t *pool)
{
    json_t *given = json_object_get(arguments, "paths");
    *paths = NULL;
    *count = 0;
    if (!given)
        return 1;
    size_t size = json_is_array(given) ? json_array_size(given) : 0;
    if (size == 0 || size > SPX_LIMIT_SOURCES) {
        fail(answer,
             apr_psprintf(pool, "paths must be an array of 1..%u source paths", SPX_LIMIT_SOURCES));
        return 0;
    }
    *paths = apr_pcalloc(pool, (size + 1) * sizeof(**paths));
    for (size_t i = 0; i < size; i++) {
        (*paths)[i] = json_string_value(json_array_get(given, i));
        if (!(*paths)[i]) {
            fail(answer, "paths must hold strings, each a source's path as the manifest names it");
            return 0;
        }
    }
    *count = size;
    return 1;
}

static const char *const fmt_refusal_names[] = {"",           "syntax",     "too_large",
                                                "self_check", "unwritable", "changed"};

static void run_fmt(mcp_server_t *server, json_t *arguments, const mcp_budget_t *budget,
                    mcp_answer_t *answer, apr_pool_t *pool)
{
    static const char *const allowed[] = {"paths", "output", "write", NULL};
    const char *output = NULL;
    const char **paths = NULL;
    apr_size_t count = 0;
    json_t *write = json_object_get(arguments, "write");
    if (!arguments_known(arguments, allowed, answer, pool) ||
        !fmt_paths(arguments, &paths, &count, answer, pool) ||
        !optional_string(arguments, "output", &output, answer, pool))
        return;
    if (output && strcmp(output, "text") != 0 && strcmp(output, "diff") != 0) {
        fail_bounded(answer, apr_psprintf(pool, "unknown output '%s': use text or diff", output),
                     pool);
        return;
    }
    if (write && !json_is_boolean(write)) {
        fail(answer, "write must be a boolean");
        return;
    }
    int writing = json_is_true(write);
    if (writing && !server->options->allow_fmt_write) {
        fail(answer, "fmt writes nothing on this server: write: true needs semapraxd --mcp "
                     "--allow-fmt-write; without write, fmt answers the layout (output text) or "
                     "the diff (output diff) for you to apply");
        return;
    }
    int text = output && strcmp(output, "text") == 0;
    if (!project_held(server, answer, pool))
        return;
    spx_input_set_t *inputs = spx_project_inputs(server->held.project);
    if (!spx_project_has_manifest(server->held.project) || !inputs) {
        fail(answer, "the manifest has diagnostics (the check tool lists them); nothing was "
                     "formatted");
        return;
    }
    /* The held bytes, which mcp.c re-authenticated before this call: the
     * texts within half the result (the JSON copy in the text is the other
     * half, which mcp.c leaves out when it cannot fit). */
    const spx_fmt_options_t options = {!writing,
                                       text ? SPX_FMT_KEEP_TEXT : SPX_FMT_KEEP_DIFF,
                                       budget->result_bytes / 2 > 0 ? budget->result_bytes / 2 : 1,
                                       NULL,
                                       NULL,
                                       spx_session_hooks()->commit_probe};
    spx_fmt_result_t result;
    spx_op_fmt_held(inputs, paths, count, &options, &result, pool);
    if (result.stopped == SPX_FMT_UNREADABLE) {
        fail_bounded(answer, result.message, pool);
        return;
    }
    json_t *sources = json_array();
    apr_size_t written = 0;
    for (int i = 0; i < result.files->nelts; i++) {
        const spx_fmt_file_t *file = &APR_ARRAY_IDX(result.files, i, spx_fmt_file_t);
        json_t *source = json_pack("{s:s,s:b,s:b}", "path", file->path, "changed", file->changed,
                                   "written", file->written);
        written += file->written != 0;
        if (file->refused) {
            json_object_set_new(source, "refused", json_string(fmt_refusal_names[file->refused]));
            if (file->diagnostics)
                json_object_set_new(source, "diagnostics", spx_diagnostics_json(file->diagnostics));
            if (file->why)
                json_object_set_new(source, "why", json_string(file->why));
        }
        if (file->text && (text || file->changed))
            json_object_set_new(source, text ? "text" : "diff",
                                json_stringn(file->text, file->text_length));
        json_array_append_new(sources, source);
    }
    if (written > 0) {
        /* The files are new: the answer says what was written, not withheld
         * by the second re-authentication, from the project opened again. */
        answer->ungated = 1;
        spx_log_event(&server->log, "fmt wrote %u file%s", (unsigned)written, spx_plural(written));
        spx_mcp_reopen(server);
    }
    json_t *structured = json_pack(
        "{s:s,s:b,s:o,s:I,s:I,s:I,s:b}", "output", text ? "text" : "diff", "write", writing,
        "sources", sources, "changed", (json_int_t)result.changed, "written", (json_int_t)written,
        "refused", (json_int_t)result.refused, "texts_omitted", result.texts_omitted);
    if (result.stopped == SPX_FMT_SAVED_MEANWHILE)
        json_object_set_new(structured, "stopped",
                            json_string("a source was saved by another program after it was "
                                        "read; it was kept, and no source after it was written"));
    answer->structured = with_revisions(server, structured);
    apr_size_t formatted = (apr_size_t)result.files->nelts;
    const char *what =
        writing ? apr_psprintf(pool, "Formatted %u source%s: %u written, %u refused.",
                               (unsigned)formatted, spx_plural(formatted), (unsigned)written,
                               (unsigned)result.refused)
                : apr_psprintf(pool,
                               "Formatted %u source%s: %u would change, %u refused; nothing was "
                               "written.",
                               (unsigned)formatted, spx_plural(formatted), (unsigned)result.changed,
                               (unsigned)result.refused);
    if (result.refused)
        what = apr_pstrcat(pool, what,
                           " A refused source is not formatted: its diagnostics say why (a source "
                           "that does not parse is fixed first, check lists them).",
                           NULL);
    if (result.stopped == SPX_FMT_SAVED_MEANWHILE)
        what = apr_pstrcat(pool, what,
                           " A source was saved by another program meanwhile: it was kept and "
                           "the writes stopped there; call again.",
                           NULL);
    if (result.texts_omitted)
        what = apr_pstrcat(pool, what,
                           " Some texts did not fit the answer (texts_omitted): name fewer "
                           "paths.",
                           NULL);
    else if (!writing && result.changed)
        what = apr_pstrcat(pool, what,
                           text ? " Each source's layout is in its text."
                                : " Each changed source's unified diff is in its diff (patch "
                                  "-p1 applies it).",
                           NULL);
    answer->summary = what;
}

static void run_graph_summary(mcp_server_t *server, json_t *arguments, const mcp_budget_t *budget,
                              mcp_answer_t *answer, apr_pool_t *pool)
{
    (void)budget;
    static const char *const allowed[] = {"max_modules", NULL};
    apr_uint64_t max_modules = SPX_LIMIT_MCP_GRAPH_MODULES_DEFAULT;
    if (!arguments_known(arguments, allowed, answer, pool) ||
        !optional_count(arguments, "max_modules", 1, SPX_LIMIT_MCP_GRAPH_MODULES_MAXIMUM,
                        &max_modules, answer, pool) ||
        !admitted(server, answer, pool))
        return;
    spx_graph_summary_t graph;
    spx_op_graph_summary(server->held.project, max_modules, &graph, pool);
    const spx_graph_shape_t *shape = &graph.shape;
    answer->structured = with_revisions(server, graph.document);
    answer->summary = apr_psprintf(
        pool,
        "%" APR_SIZE_T_FMT " module%s, %" APR_SIZE_T_FMT " function%s, %" APR_SIZE_T_FMT
        " struct%s, %" APR_SIZE_T_FMT " const%s, %" APR_SIZE_T_FMT " test%s; %" APR_SIZE_T_FMT
        " import%s%s",
        shape->modules, spx_plural(shape->modules), shape->functions, spx_plural(shape->functions),
        shape->structs, spx_plural(shape->structs), shape->consts, spx_plural(shape->consts),
        shape->tests, spx_plural(shape->tests), shape->imports, spx_plural(shape->imports),
        graph.truncated ? apr_psprintf(pool, "; %" APR_SIZE_T_FMT " module%s not listed",
                                       graph.omitted_modules, spx_plural(graph.omitted_modules))
                        : ".");
}

static void run_status(mcp_server_t *server, json_t *arguments, const mcp_budget_t *budget,
                       mcp_answer_t *answer, apr_pool_t *pool)
{
    (void)budget;
    if (!arguments_known(arguments, (const char *const[]){NULL}, answer, pool))
        return;
    spx_op_held_work_t work = spx_op_held_work(&server->held);
    int open = server->held.project && spx_project_has_manifest(server->held.project);
    int is_admitted = server->held.project && spx_project_admitted(server->held.project);
    json_t *result =
        json_pack("{s:s,s:b,s:s,s:s,s:{s:I,s:I,s:I,s:I}}", "state", open ? "open" : "unavailable",
                  "admitted", is_admitted, "manifest", server->options->manifest_path,
                  "protocol_version", server->protocol_version ? server->protocol_version : "",
                  "counters", "phase_a_runs", (json_int_t)work.phase_a_runs, "source_reads",
                  (json_int_t)work.source_reads, "authentications",
                  (json_int_t)work.authentications, "requests", (json_int_t)server->requests);
    const char *why = NULL;
    if (!server->held.project)
        why = server->held.unavailable ? server->held.unavailable : "not opened";
    else if (!open)
        why = "the manifest has diagnostics (the check tool lists them)";
    if (why)
        json_object_set_new(result, "unavailable", json_string(why));
    answer->structured = with_revisions(server, result);
    const char *revision = server->held.project ? spx_project_revision(server->held.project) : NULL;
    answer->summary =
        apr_psprintf(pool,
                     "%s, %s, project revision %s; %" APR_UINT64_T_FMT
                     " Phase A run%s, %" APR_UINT64_T_FMT " authentication%s, %" APR_UINT64_T_FMT
                     " source read%s, %" APR_UINT64_T_FMT " request%s%s%s",
                     open ? "Open" : "Unavailable", is_admitted ? "admitted" : "not admitted",
                     revision ? revision : "none", work.phase_a_runs, spx_plural(work.phase_a_runs),
                     work.authentications, spx_plural(work.authentications), work.source_reads,
                     spx_plural(work.source_reads), server->requests, spx_plural(server->requests),
                     why ? ": " : ".", why ? why : "");
}

/* The tool error's text of a failed commit or rebind: where it failed,
 * why (cut to SPX_LIMIT_RENAME_REASON_BYTES), and what was restored. */
static const char *rename_failure_text(const spx_rename_failure_t *failure, apr_pool_t *pool)
{
    json_t *restored = spx_op_rename_file_list(failure->restored);
    json_t *not_restored = spx_op_rename_file_list(failure->not_restored);
    const char *restored_text = spx_canonical_text(restored, pool);
    const char *not_restored_text = spx_canonical_text(not_restored, pool);
    json_decref(restored);
    json_decref(not_restored);
    const char *where = "";
    if (failure->operation)
        where = apr_psprintf(pool, " (%s%s%s)", failure->operation, failure->path ? " of " : "",
                             failure->path ? failure->path : "");
    apr_size_t reason_length = strlen(failure->reason);
    apr_size_t kept = spx_utf8_cut((const unsigned char *)failure->reason, reason_length,
                                   SPX_LIMIT_RENAME_REASON_BYTES);
    return apr_psprintf(pool, "rename failed at %s%s: %.*s%s; restored %s, not restored %s",
                        spx_rename_step_name(failure->step), where, (int)kept, failure->reason,
                        kept < reason_length ? "..." : "", restored_text ? restored_text : "[]",
                        not_restored_text ? not_restored_text : "[]");
}

/* The summary of a committed rename. */
static const char *renamed_summary(const char *function, const char *new_name, apr_size_t files,
                                   apr_pool_t *pool)
{
    return apr_psprintf(pool, "Renamed %s to %s in %u file%s.", function, new_name, (unsigned)files,
                        spx_plural(files));
}

/* The answer check's measures (spx_op_rename_budget_t): the whole result of
 * the answer to a failure and to the commit, as the tool's budget measures
 * it (revision_changed and its sentence included). */
typedef struct rename_measuring_t {
    const mcp_budget_t *budget;
    const char *function, *new_name;
} rename_measuring_t;

static apr_uint64_t rename_failure_bytes(void *context, const spx_rename_failure_t *failure,
                                         apr_pool_t *pool)
{
    const rename_measuring_t *measuring = context;
    mcp_answer_t answer = {0};
    fail(&answer, rename_failure_text(failure, pool));
    return measuring->budget->measure(measuring->budget->context, &answer, pool);
}

static apr_uint64_t rename_committed_bytes(void *context, const json_t *document, apr_pool_t *pool)
{
    const rename_measuring_t *measuring = context;
    mcp_answer_t answer = {0};
    answer.structured = (json_t *)document;
    /* one edit per file changed */
    answer.summary = renamed_summary(measuring->function, measuring->new_name,
                                     json_array_size(json_object_get(document, "edits")), pool);
    return measuring->budget->measure(measuring->budget->context, &answer, pool);
}

static void run_rename(mcp_server_t *server, json_t *arguments, const mcp_budget_t *budget,
                       mcp_answer_t *answer, apr_pool_t *pool)
{
    static const char *const allowed[] = {"function", "new_name", "dry_run", NULL};
    const char *function = NULL, *new_name = NULL;
    json_t *dry_run = json_object_get(arguments, "dry_run");
    if (!arguments_known(arguments, allowed, answer, pool) ||
        !optional_string(arguments, "function", &function, answer, pool) ||
        !optional_string(arguments, "new_name", &new_name, answer, pool))
        return;
    if (!function || !new_name || (dry_run && !json_is_boolean(dry_run))) {
        fail(answer, "rename takes function (module.name) and new_name, strings, and dry_run, a "
                     "boolean");
        return;
    }
    if (!admitted(server, answer, pool))
        return;
    /* The recheck comes last before the commit: mcp.c's second
     * re-authentication guards a dry run's answer. The test-only daemon's
     * probe makes a point of the commit fail on demand
     * (spx_session_hooks.h); semapraxd has none. */
    /* Its whole result, revision_changed and its sentence included, within
     * the structured content's share (half the result: the JSON copy in the
     * text is the other half), so that it is always answered. */
    rename_measuring_t measuring = {budget, function, new_name};
    const spx_op_rename_budget_t answer_budget = {budget->result_bytes / 2, rename_failure_bytes,
                                                  rename_committed_bytes};
    const spx_op_rename_request_t rename = {.project = server->held.project,
                                            .function = function,
                                            .new_name = new_name,
                                            .dry_run = json_is_true(dry_run),
                                            .recheck_at = SPX_OP_RENAME_RECHECK_BEFORE_COMMIT,
                                            .commit_probe = spx_session_hooks()->commit_probe,
                                            .project_parent = server->pool,
                                            .budget = &answer_budget,
                                            .context = &measuring};
    spx_op_rename_result_t renamed;
    spx_op_rename(&rename, &renamed, pool);
    apr_size_t files = renamed.paths ? (apr_size_t)renamed.paths->nelts : 0;
    switch (renamed.outcome) {
    case SPX_OP_RENAME_REFUSED:
        fail_bounded(answer,
                     apr_psprintf(pool, "rename refused at %s: %s",
                                  spx_rename_step_name(renamed.failure.step),
                                  renamed.failure.reason),
                     pool);
        return;
    case SPX_OP_RENAME_DRY_RUN:
        answer->summary = apr_psprintf(pool,
                                       "Renaming %s to %s would change %u file%s; nothing "
                                       "was written (dry run).",
                                       function, new_name, (unsigned)files, spx_plural(files));
        answer->structured = spx_op_rename_document(&renamed);
        return;
    case SPX_OP_RENAME_TOO_LARGE: {
        const char *too_large = apr_psprintf(
            pool,
            "rename refused: its answer would need %" APR_UINT64_T_FMT
            " bytes, over the %" APR_UINT64_T_FMT " that --max-response-bytes %" APR_SIZE_T_FMT
            " leaves for it; nothing was written",
            renamed.needed, answer_budget.bytes, server->options->max_response_bytes);
        spx_log_event(&server->log, "%s", too_large);
        fail(answer, too_large);
        return;
    }
    case SPX_OP_RENAME_DRIFTED:
        fail(answer, "the project changed while the rename was planned; nothing was written: "
                     "call again");
        return;
    case SPX_OP_RENAME_FAILED:
        /* The files were written: the answer says what is on disk and is
         * not withheld by the second re-authentication. */
        answer->ungated = 1;
        spx_log_event(&server->log, "rename failed at %s: %s",
                      spx_rename_step_name(renamed.failure.step), renamed.failure.reason);
        fail(answer, rename_failure_text(&renamed.failure, pool));
        /* A restored file is a new file: the project is opened again. */
        if (renamed.failure.inputs_touched)
            spx_mcp_reopen(server);
        return;
    case SPX_OP_RENAME_COMMITTED:
        answer->ungated = 1;
        answer->structured = spx_op_rename_document(&renamed); /* before the old project goes */
        spx_op_held_adopt(&server->held, renamed.project, renamed.project_pool);
        spx_log_event(&server->log, "renamed %s to %s in %u file%s", function, new_name,
                      (unsigned)files, spx_plural(files));
        answer->summary = renamed_summary(function, new_name, files, pool);
        return;
    }
}

/* --- the list ------------------------------------------------------------------------- */

static const mcp_tool_t tools[] = {
    {"check", "Check the project",
     "Check the project: whether it is admitted (parses, type-checks and links with no "
     "diagnostic), and every diagnostic with its code, path and span. Answers from a project "
     "re-authenticated for this call.",
     1, 0, 0, no_input, check_output, run_check},
    {"context", "Context of one target",
     "The bounded neighbourhood of one module, function, struct, enum, const, test, builtin or "
     "data entry in the semantic graph: the target with its source text, then the nodes reached "
     "breadth-first up to depth (following only edge_kinds when given), each with its text and "
     "the edge that reached it, nearest first and, at one distance, the most closely tied first "
     "(callers and callees, what it uses and reads, tests, its module), as many as fit max_bytes "
     "(default 16 KiB, 16384 "
     "bytes) and max_nodes. An unknown target is a tool error saying why.",
     1, 0, 0, context_input, context_output, run_context},
    {"test", "Run the tests",
     "Run every test the manifest declares, or only those named in tests, each with fresh "
     "fuel, and answer the execution envelope (semaprax.project-execution.v1): each test's "
     "outcome (passed, failed, fuel_exhausted, depth_exhausted, language_failure), output and "
     "steps, and a summary; with tests, its selection. A test that runs out of fuel or call "
     "depth is a result, not an error; an unknown test name is a tool error naming the nearest "
     "tests.",
     1, 0, 0, test_input, test_output, run_test},
    {"run", "Run a function",
     "Run the manifest's entry, or entry (module.function, fn() -> int), with arguments as "
     "args(), as semaprax run does, under max_steps, max_bytes, max_memory and max_call_depth. "
     "Answers the outcome (passed when it returned 0, failed for another value, "
     "language_failure, fuel_exhausted, depth_exhausted), the value, steps, output and the run "
     "envelope (semaprax.project-run.v1). A run that stops at a limit is a result naming the "
     "argument to raise, not an error; writes nothing.",
     1, 0, 0, run_input, run_output, run_run},
    {"graph_summary", "Summary of the semantic graph",
     "Counts of the project's modules, functions, structs, consts, tests, nodes and edges, and "
     "the module import graph: each module (at most max_modules, in name order) with the "
     "modules it imports.",
     1, 0, 0, graph_summary_input, graph_summary_output, run_graph_summary},
    {"status", "Server status",
     "The server's state (open, or unavailable and why), whether the project is admitted, its "
     "revisions, and counters that prove the work done: phase_a_runs (builds of the project), "
     "authentications, source_reads and requests. Without edits phase_a_runs stays the same "
     "across calls.",
     1, 0, 0, no_input, status_output, run_status},
    {"fmt", "Lay out sources",
     "The canonical layout (semaprax fmt) of the project's sources, or of paths (as the "
     "manifest names them), from the bytes the project holds: per source whether it changes, "
     "and its layout (output text) or the unified diff to it (output diff, the default: "
     "--- a/PATH, +++ b/PATH, 3 lines of context, which patch -p1 applies). A source that "
     "does not parse is refused with its diagnostics. Writes nothing, unless the server runs "
     "with --allow-fmt-write and write is true: then each changed source is replaced "
     "atomically, never over a save made since it was read.",
     1, 0, 1, fmt_input, fmt_output, run_fmt},
    {"rename", "Rename an exported function",
     "Rename an exported function (module.name) and every call of it across the project, as "
     "one transaction: the edited project must check and keep its graph, the files are "
     "replaced atomically and restored on any failure. dry_run answers the edits and writes "
     "nothing.",
     0, 1, 0, rename_input, rename_output, run_rename},
};

#define TOOL_COUNT (sizeof(tools) / sizeof(tools[0]))

const mcp_tool_t *spx_mcp_find_tool(const mcp_server_t *server, const char *name)
{
    for (size_t i = 0; i < TOOL_COUNT; i++)
        if (strcmp(tools[i].name, name) == 0 &&
            (!tools[i].needs_rename || server->options->allow_rename))
            return &tools[i];
    return NULL;
}

const char *spx_mcp_tool_names(const mcp_server_t *server, apr_pool_t *pool)
{
    const char *names = "";
    for (size_t i = 0; i < TOOL_COUNT; i++)
        if (!tools[i].needs_rename || server->options->allow_rename)
            names = apr_pstrcat(pool, names, *names ? ", " : "", tools[i].name, NULL);
    return names;
}

json_t *spx_mcp_tool_list(const mcp_server_t *server)
{
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, server->pool);
    json_t *list = json_array();
    for (size_t i = 0; i < TOOL_COUNT; i++) {
        if (tools[i].needs_rename && !server->options->allow_rename)
            continue;
        json_t *input = json_loads(tools[i].input_schema(server, scratch), 0, NULL);
        json_t *output = json_loads(tools[i].output_schema, 0, NULL);
        /* fmt with --allow-fmt-write writes, and writing twice changes
         * nothing more: idempotent, and nothing is lost (never destructive). */
        int writes = tools[i].writes_with_fmt_flag && server->options->allow_fmt_write;
        int read_only = tools[i].read_only && !writes;
        json_array_append_new(list, json_pack("{s:s,s:s,s:s,s:o,s:o,s:{s:b,s:b,s:b,s:b}}", "name",
                                              tools[i].name, "title", tools[i].title, "description",
                                              tools[i].description, "inputSchema", input,
                                              "outputSchema", output, "annotations", "readOnlyHint",
                                              read_only, "destructiveHint", 0, "idempotentHint",
                                              read_only || writes, "openWorldHint", 0));
    }
    apr_pool_destroy(scratch);
    return json_pack("{s:o}", "tools", list);
}
