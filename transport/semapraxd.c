/*
 * semapraxd.c: the daemon's main: parses `semapraxd --stdio [--manifest-path
 * P] [--max-request-bytes N] [--max-response-bytes N] [--max-call-seconds N]
 * [--allow-project-rename] [--verbose]`, then runs the session (spx_session.h) over
 * binary stdio: v2, or v3 with the flag; or, with --mcp instead of --stdio,
 * the MCP server (spx_mcp.h), whose fmt tool writes only with
 * --allow-fmt-write; or, with --lsp, the Language Server Protocol server
 * (spx_lsp.h, docs/editors.md). Usage errors: a message on stderr, nothing on
 * stdout, exit 2.
 */
#include "spx_allocation.h"
#include "spx_cli.h"
#include "spx_exit.h"
#include "spx_limits.h"
#include "spx_lsp.h"
#include "spx_mcp.h"
#include "spx_platform.h"
#include "spx_session.h"

#include <apr_general.h>
#include <apr_getopt.h>
#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* The help, with the ranges of spx_limits.h. */
static void usage(void)
{
    printf("usage: semapraxd --stdio [--manifest-path PATH] [--max-request-bytes N]\n"
           "                 [--max-response-bytes N] [--max-call-seconds N]\n"
           "                 [--allow-project-rename] [--verbose]\n"
           "       semapraxd --mcp [--manifest-path PATH] [--max-request-bytes N]\n"
           "                 [--max-response-bytes N] [--max-call-seconds N]\n"
           "                 [--allow-project-rename] [--allow-fmt-write] [--verbose]\n"
           "       semapraxd --lsp [--manifest-path PATH] [--max-request-bytes N] [--verbose]\n"
           "\n"
           "Holds one Semaprax project (the manifest, default semaprax.toml, and its\n"
           "sources), authenticates it and builds its semantic state once, then answers\n"
           "JSON-RPC 2.0 requests of semaprax.agent-transport.v2, one per LF-delimited\n"
           "line on standard input, one response line each on standard output.\n"
           "v2 is read-only: it never writes a file.\n"
           "\n"
           "options:\n"
           "  --stdio                  serve on standard input and output (this or --mcp\n"
           "                           is required)\n"
           "  --mcp                    serve the Model Context Protocol (%s, or %s)\n"
           "                           on standard input and output instead: the tools\n"
           "                           check, context, test, run, graph_summary, status and\n"
           "                           fmt, and rename with --allow-project-rename; each call\n"
           "                           answers from the files as they are (docs/agents.md)\n"
           "  --lsp                    serve the Language Server Protocol 3.17 to an editor\n"
           "                           on standard input and output instead (Content-Length\n"
           "                           framing): diagnostics, formatting, quick fixes and\n"
           "                           document symbols, open buffers overlaying their\n"
           "                           files; it never writes a file (docs/editors.md)\n"
           "  --manifest-path PATH     the manifest (default: semaprax.toml; with --lsp, the\n"
           "                           semaprax.toml of the workspace folder the client names)\n"
           "  --max-request-bytes N    largest request line, LF excluded\n"
           "                           (default %u, %u..%u; with --lsp, a message's body,\n"
           "                           default %u)\n"
           "  --max-response-bytes N   largest response line, LF included\n"
           "                           (default %u, %u..%u; with --mcp %u, %u..)\n"
           "  --max-call-seconds N     longest a call may take, in seconds of wall-clock\n"
           "                           time: a test run past it is stopped and the call\n"
           "                           answered with an error (default %u, %u..%u)\n"
           "  --allow-project-rename   speak semaprax.agent-transport.v3 instead: v2 plus\n"
           "                           project/rename, which renames an exported function\n"
           "                           and its call sites and writes the changed sources\n"
           "                           (with --mcp: the rename tool)\n"
           "  --allow-fmt-write        with --mcp: the fmt tool takes write: true and then\n"
           "                           replaces each changed source by its layout, as\n"
           "                           semaprax fmt does (without it fmt writes nothing)\n"
           "  --verbose                also say on standard error why each refused\n"
           "                           request was refused (by default only the\n"
           "                           session's own events, at most %u lines)\n"
           "  -h, --help               show this text\n"
           "  --version                show the version\n"
           "\n"
           "Exit status: 0 after shutdown or end of input, 1 after an oversized request\n"
           "or response or when standard input or output fails (a client that closes\n"
           "the daemon's output ends the session this way), 2 usage, 3 out of memory.\n"
           "With --lsp: 0 at exit or end of input after shutdown, else 1.\n",
           SPX_MCP_PROTOCOL_LATEST, SPX_MCP_PROTOCOL_PREVIOUS, SPX_LIMIT_REQUEST_BYTES_DEFAULT,
           SPX_LIMIT_REQUEST_BYTES_MINIMUM, SPX_LIMIT_REQUEST_BYTES_MAXIMUM,
           SPX_LIMIT_LSP_BODY_BYTES_DEFAULT, SPX_LIMIT_RESPONSE_BYTES_DEFAULT,
           SPX_LIMIT_SESSION_RESPONSE_BYTES_MINIMUM, SPX_LIMIT_RESPONSE_BYTES_MAXIMUM,
           SPX_LIMIT_MCP_RESPONSE_BYTES_DEFAULT, SPX_LIMIT_MCP_RESPONSE_BYTES_MINIMUM,
           SPX_LIMIT_CALL_SECONDS_DEFAULT, SPX_LIMIT_CALL_SECONDS_MINIMUM,
           SPX_LIMIT_CALL_SECONDS_MAXIMUM, SPX_LIMIT_LOG_LINES);
}

enum option_id {
    OPTION_STDIO = 256,
    OPTION_MANIFEST,
    OPTION_MAX_REQUEST,
    OPTION_MAX_RESPONSE,
    OPTION_ALLOW_RENAME,
    OPTION_VERBOSE,
    OPTION_MCP,
    OPTION_MAX_CALL,
    OPTION_ALLOW_FMT_WRITE,
    OPTION_LSP,
    OPTION_VERSION,
    OPTION_HELP = 'h'
};

static const apr_getopt_option_t options[] = {
    {"stdio", OPTION_STDIO, 0, "serve on stdio"},
    {"manifest-path", OPTION_MANIFEST, 1, "the manifest"},
    {"max-request-bytes", OPTION_MAX_REQUEST, 1, "largest request"},
    {"max-response-bytes", OPTION_MAX_RESPONSE, 1, "largest response"},
    {"allow-project-rename", OPTION_ALLOW_RENAME, 0, "the v3 profile"},
    {"verbose", OPTION_VERBOSE, 0, "a line per refused request"},
    {"mcp", OPTION_MCP, 0, "serve MCP on stdio"},
    {"max-call-seconds", OPTION_MAX_CALL, 1, "longest call"},
    {"allow-fmt-write", OPTION_ALLOW_FMT_WRITE, 0, "MCP's fmt may write"},
    {"lsp", OPTION_LSP, 0, "serve LSP on stdio"},
    {"version", OPTION_VERSION, 0, "show the version"},
    {"help", OPTION_HELP, 0, "show help"},
    {NULL, 0, 0, NULL},
};

static const char *option_name(int id)
{
    for (const apr_getopt_option_t *entry = options; entry->name; entry++)
        if (entry->optch == id)
            return entry->name;
    return "?";
}

static int usage_error(const char *what, const char *detail)
{
    fprintf(stderr, "semapraxd: %s%s\nTry 'semapraxd --help'.\n", what, detail ? detail : "");
    return SPX_EXIT_USAGE;
}

/* A --max-* value in [minimum, maximum]: 1, or the usage error that names
 * the range and 0. */
static int parse_count(int option, const char *text, apr_uint64_t minimum, apr_uint64_t maximum,
                       apr_uint64_t *value, apr_pool_t *pool)
{
    if (!spx_cli_parse_count(text, minimum, maximum, value)) {
        usage_error(apr_psprintf(pool,
                                 "--%s must be %" APR_UINT64_T_FMT "..%" APR_UINT64_T_FMT ", not ",
                                 option_name(option), minimum, maximum),
                    text);
        return 0;
    }
    return 1;
}

/* A --max-*-bytes value in [minimum, maximum], as parse_count. */
static int parse_bound(int option, const char *text, apr_size_t minimum, apr_size_t maximum,
                       apr_size_t *value, apr_pool_t *pool)
{
    apr_uint64_t count = 0;
    if (!parse_count(option, text, minimum, maximum, &count, pool))
        return 0;
    *value = (apr_size_t)count;
    return 1;
}

static int run(int argc, const char *const *argv, apr_pool_t *pool)
{
    spx_session_options_t settings = {"semaprax.toml",
                                      SPX_LIMIT_REQUEST_BYTES_DEFAULT,
                                      SPX_LIMIT_RESPONSE_BYTES_DEFAULT,
                                      0,
                                      0,
                                      SPX_LIMIT_CALL_SECONDS_DEFAULT,
                                      0};
    int stdio_given = 0, mcp_given = 0, lsp_given = 0, response_given = 0, manifest_given = 0,
        request_given = 0;
    unsigned seen = 0; /* one bit per option id above OPTION_STDIO */
    apr_getopt_t *parser = NULL;
    apr_getopt_init(&parser, pool, argc, argv);
    parser->errfn = NULL;
    for (;;) {
        int option = 0;
        const char *argument = NULL;
        apr_status_t status = apr_getopt_long(parser, options, &option, &argument);
        if (status == APR_EOF)
            break;
        if (status == APR_BADCH)
            return usage_error("unknown option ", parser->argv[parser->ind - 1]);
        if (status == APR_BADARG)
            return usage_error("option needs a value: ", parser->argv[parser->ind - 1]);
        if (option >= OPTION_STDIO && option <= OPTION_LSP) {
            unsigned bit = 1u << (option - OPTION_STDIO);
            if (seen & bit)
                return usage_error("option given twice: --", option_name(option));
            seen |= bit;
        }
        switch (option) {
        case OPTION_HELP:
            usage();
            return SPX_EXIT_OK;
        case OPTION_VERSION:
            printf("semapraxd %s\n", SPX_VERSION);
            return SPX_EXIT_OK;
        case OPTION_STDIO:
            stdio_given = 1;
            break;
        case OPTION_MCP:
            mcp_given = 1;
            break;
        case OPTION_LSP:
            lsp_given = 1;
            break;
        case OPTION_MANIFEST:
            manifest_given = 1;
            settings.manifest_path = argument;
            break;
        case OPTION_ALLOW_RENAME:
            settings.allow_rename = 1;
            break;
        case OPTION_VERBOSE:
            settings.verbose = 1;
            break;
        case OPTION_ALLOW_FMT_WRITE:
            settings.allow_fmt_write = 1;
            break;
        case OPTION_MAX_CALL:
            if (!parse_count(option, argument, SPX_LIMIT_CALL_SECONDS_MINIMUM,
                             SPX_LIMIT_CALL_SECONDS_MAXIMUM, &settings.max_call_seconds, pool))
                return SPX_EXIT_USAGE;
            break;
        case OPTION_MAX_REQUEST:
            request_given = 1;
            if (!parse_bound(option, argument, SPX_LIMIT_REQUEST_BYTES_MINIMUM,
                             SPX_LIMIT_REQUEST_BYTES_MAXIMUM, &settings.max_request_bytes, pool))
                return SPX_EXIT_USAGE;
            break;
        default: /* OPTION_MAX_RESPONSE */
            response_given = 1;
            if (!parse_bound(option, argument, SPX_LIMIT_SESSION_RESPONSE_BYTES_MINIMUM,
                             SPX_LIMIT_RESPONSE_BYTES_MAXIMUM, &settings.max_response_bytes, pool))
                return SPX_EXIT_USAGE;
            break;
        }
    }
    if (parser->ind < argc)
        return usage_error("unexpected argument ", parser->argv[parser->ind]);
    if (stdio_given && mcp_given)
        return usage_error("--stdio and --mcp cannot be given together: choose one", NULL);
    if (lsp_given && (stdio_given || mcp_given))
        return usage_error("--lsp cannot be given with --stdio or --mcp: choose one", NULL);
    if (!stdio_given && !mcp_given && !lsp_given)
        return usage_error("--stdio is required (or --mcp or --lsp, the other transports)", NULL);
    if (lsp_given && (settings.allow_rename || response_given ||
                      seen & (1u << (OPTION_MAX_CALL - OPTION_STDIO))))
        return usage_error("--lsp takes only --manifest-path, --max-request-bytes and --verbose",
                           NULL);
    if (settings.allow_fmt_write && !mcp_given)
        return usage_error("--allow-fmt-write is for --mcp (its fmt tool); --stdio has no fmt",
                           NULL);
    if (mcp_given && !response_given)
        settings.max_response_bytes = SPX_LIMIT_MCP_RESPONSE_BYTES_DEFAULT;
    if (mcp_given && settings.max_response_bytes < SPX_LIMIT_MCP_RESPONSE_BYTES_MINIMUM)
        return usage_error(
            apr_psprintf(pool,
                         "--max-response-bytes must be %u..%u with --mcp, not %" APR_SIZE_T_FMT,
                         SPX_LIMIT_MCP_RESPONSE_BYTES_MINIMUM, SPX_LIMIT_RESPONSE_BYTES_MAXIMUM,
                         settings.max_response_bytes),
            NULL);
    spx_stdio_t *stdio = NULL;
    if (spx_stdio_open(&stdio, pool) != APR_SUCCESS)
        return usage_error("cannot open standard input and output", NULL);
    if (mcp_given)
        return (int)spx_mcp_run(&settings, stdio, pool);
    if (lsp_given) {
        if (!manifest_given)
            settings.manifest_path = NULL; /* the workspace's, from initialize */
        if (!request_given)
            settings.max_request_bytes = SPX_LIMIT_LSP_BODY_BYTES_DEFAULT;
        return (int)spx_lsp_run(&settings, stdio, pool);
    }
    return (int)spx_session_run(&settings, stdio, pool);
}

/* The allocation gate (spx_allocation.h) is read only by the test-only
 * daemon, built with SPX_ALLOCATION_GATE=1. */
#ifndef SPX_ALLOCATION_GATE
#define SPX_ALLOCATION_GATE 0
#endif

int main(int argc, const char *const *argv)
{
    spx_allocation_policy_install("semapraxd", SPX_ALLOCATION_GATE);
    if (apr_initialize() != APR_SUCCESS) {
        fprintf(stderr, "semapraxd: cannot initialise APR\n");
        return SPX_EXIT_USAGE;
    }
    spx_stdio_binary_mode();
    spx_stdio_ignore_broken_pipe();
    apr_pool_t *pool = spx_root_pool(SPX_LIMIT_POOL_FREE_KEPT_BYTES);
    argv = spx_arguments_utf8(argc, argv, pool);
    spx_console_utf8(pool); /* UTF-8 on a console; the old code page comes back with the pool */
    int status = run(argc, argv, pool);
    fflush(stdout);
    apr_pool_destroy(pool);
    apr_terminate();
    return status;
}
