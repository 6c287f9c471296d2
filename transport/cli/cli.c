/*
 * cli.c: the `semaprax` commands. Each command parses its flags, builds the
 * project through the engine (Phase A), and prints the engine's document as
 * canonical JSON plus one LF, or diagnostics in the text form of outputs.md;
 * run, test and verify call the run operations (spx_op_run.h: the limits,
 * the selection, the envelope) and print their typed results. Usage errors and unreadable inputs go
 * to stderr with exit status 2. serve builds one source and hands it to the
 * v1 session (spx_v1.h). rename runs the engine's rename transaction
 * (spx_rename.h), the same as the daemon's project/rename. On a terminal,
 * check and test print the richer view of cli_view.c instead of their plain
 * lines, and graph and context the outline of cli_view.c instead of their
 * JSON (chosen_format).
 */
#include "spx_cli.h"

#include "spx_allocation.h"
#include "spx_assert.h"
#include "spx_cli_fmt.h"
#include "spx_cli_hooks.h"
#include "spx_canonical.h"
#include "spx_cli_project.h"
#include "spx_cli_view.h"
#include "spx_envelope.h"
#include "spx_exit.h"
#include "spx_limits.h"
#include "spx_operations.h"
#include "spx_platform.h"
#include "spx_project.h"
#include "spx_status.h"
#include "spx_suggest.h"
#include "spx_text.h"
#include "spx_v1.h"

#include <apr_general.h>
#include <apr_file_io.h>
#include <apr_getopt.h>
#include <apr_hash.h>
#include <apr_strings.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage: semaprax COMMAND [OPTIONS]\n"
    "\n"
    "Check, index, query, run and test a Semaprax project (a semaprax.toml manifest\n"
    "and its sources).\n"
    "\n"
    "commands:\n"
    "  check     report every diagnostic of the project (exit 0 admitted, 1 not)\n"
    "  graph     print the project's semantic graph (semaprax.project-semantic-graph.v1)\n"
    "  context   print the bounded context of one module, function, struct, enum,\n"
    "            const or test\n"
    "  run       run the manifest's entry and print its output\n"
    "  test      run every manifest test, or the named ones; optionally write the\n"
    "            execution envelope\n"
    "  verify    check an execution envelope: digest, subject, re-run\n"
    "  serve     answer JSON-RPC requests about one source file on stdin/stdout\n"
    "            (semaprax.agent-transport.v1)\n"
    "  rename    rename an exported function and every call of it (writes sources)\n"
    "  new       create a new project folder that checks, runs and tests at once\n"
    "  fmt       lay out sources in the canonical form (writes sources; or --check)\n"
    "  help      show this text, or `semaprax help COMMAND` for one command\n"
    "\n"
    "options of every command:\n"
    "  --manifest-path PATH   the manifest (default: semaprax.toml in the working\n"
    "                         directory or the nearest folder above it; not for serve\n"
    "                         or new)\n"
    "  -h, --help             show help\n"
    "  --version              show the version\n"
    "\n"
    "Exit status: 0 success, 1 the project has diagnostics, 2 usage or unreadable input,\n"
    "3 out of memory.\n";

static void check_help(void)
{
    fputs("usage: semaprax check [--manifest-path PATH] [--format text|json] [--deny-warnings]\n"
          "\n"
          "Runs Phase A (manifest, parse, resolve, type-check, link) and reports every\n"
          "diagnostic, sorted by path, offset and code. text (the default) prints one\n"
          "line per diagnostic, path:line:column: error[CODE]: message (warning[W06xx]\n"
          "for a warning), then path:line:column: note: message per note; json prints\n"
          "{\"admitted\":...,\"diagnostics\":[...]} as canonical JSON. Warnings do not\n"
          "stop admission; --deny-warnings makes them fail the check as errors do.\n"
          "Exit status: 0 admitted, 1 errors (or warnings, with --deny-warnings), 2 usage\n"
          "or unreadable input.\n",
          stdout);
}

static void graph_help(void)
{
    fputs("usage: semaprax graph [--manifest-path PATH] [--format text|json]\n"
          "\n"
          "Prints the semantic graph of an admitted project: one node per module,\n"
          "function, struct, enum, const, test, the entry and each builtin called; edges\n"
          "imports, contains, calls, uses, reads (these three with sites), tests, enters.\n"
          "json (the default when standard output is not a terminal) prints the document\n"
          "as canonical JSON; text (the default on a terminal) an outline: each module\n"
          "with its path and imports, its items as declared (fn name(params) -> type,\n"
          "struct fields, enum variants, const type and value), and under each item its\n"
          "edges (calls math.add (1 site), called by app.main (2 sites), uses, reads).\n"
          "Exit status: 0 printed, 1 the project has diagnostics (on stderr), 2 usage or\n"
          "unreadable input.\n",
          stdout);
}

static void context_help(void)
{
    printf("usage: semaprax context [--kind module|function|struct|enum|const|test|builtin|data]\n"
           "                        --target NAME [--direction out|in|both] [--depth N]\n"
           "                        [--max-nodes N] [--max-bytes N] [--manifest-path PATH]\n"
           "                        [--format text|json]\n"
           "\n"
           "Prints the bounded neighbourhood of one target (app, app.main, geo.Point,\n"
           "geo.ORIGIN_X, or a test's name; without --kind, a graph node id such as\n"
           "function:app.main or module:app): nodes breadth-first by distance, then by\n"
           "tie (callers and callees, what it uses and reads, tests and the entry, its\n"
           "module and the module's items), then by id, each function, struct and const\n"
           "with its source text, and the edges among them; a cut one counts what it left\n"
           "out by tie (omitted_by_tie). json (the default when standard output is not a\n"
           "terminal) prints the document as canonical JSON; text (the default on a\n"
           "terminal) the same nodes as an outline, the target first, each with its\n"
           "distance, how it was reached (reached from app.main over calls), its\n"
           "declaration and its edges, then what the budget left out. Defaults: direction\n"
           "both, depth %u (at most %u), max-nodes %u (at most %u), max-bytes %u\n"
           "(at most %u).\n"
           "Exit status: 0 printed, 1 the project has diagnostics (on stderr), 2 usage,\n"
           "unreadable input or an unknown target.\n",
           SPX_LIMIT_CONTEXT_DEPTH_DEFAULT, SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM,
           SPX_LIMIT_CONTEXT_NODES_DEFAULT, SPX_LIMIT_CONTEXT_NODES_MAXIMUM,
           SPX_LIMIT_CONTEXT_BYTES_DEFAULT, SPX_LIMIT_RESPONSE_BYTES_DEFAULT);
}

static void run_help(void)
{
    printf("usage: semaprax run [--entry MOD.FN] [--manifest-path PATH] [--max-steps N]\n"
           "                    [--max-bytes N] [--max-memory N] [--max-call-depth N]\n"
           "                    [--envelope FILE] [-- ARG...]\n"
           "\n"
           "Runs the manifest's entry function (or --entry MOD.FN: any function of a\n"
           "declared module that is fn() -> int) with the words after -- as args(), and\n"
           "with --envelope FILE writes the run envelope (semaprax.project-run.v1), and\n"
           "writes what it printed to standard\n"
           "output (at most --max-bytes, default and maximum %u). The value it\n"
           "returned, and a language failure, fuel or depth exhaustion with its span,\n"
           "go to standard error. --max-steps is the fuel (default %" PRIu64 ", at most\n"
           "%" PRIu64 "); --max-memory the bytes of live values (default %" PRIu64 ",\n"
           "at most %" PRIu64 "); --max-call-depth the active calls (default %u,\n"
           "%u..%u).\n"
           "Exit status: 0 the entry returned 0, 1 anything else (or diagnostics), 2 usage\n"
           "or unreadable input.\n",
           SPX_LIMIT_MAX_BYTES_MAXIMUM, (uint64_t)SPX_LIMIT_MAX_STEPS_DEFAULT,
           (uint64_t)SPX_LIMIT_MAX_STEPS_MAXIMUM, (uint64_t)SPX_LIMIT_MAX_MEMORY_DEFAULT,
           (uint64_t)SPX_LIMIT_MAX_MEMORY_MAXIMUM, SPX_LIMIT_CALL_DEPTH_DEFAULT, 1u,
           SPX_LIMIT_CALL_DEPTH_MAXIMUM);
}

static void test_help(void)
{
    printf("usage: semaprax test [NAME...] [--manifest-path PATH] [--max-steps N]\n"
           "                     [--max-bytes N] [--max-memory N] [--max-call-depth N]\n"
           "                     [--envelope FILE]\n"
           "\n"
           "Runs every [[test]] of the manifest, or only the tests NAME... (a test's\n"
           "name, or its function's module.function), in manifest order, each with fresh\n"
           "fuel (--max-steps, default %" PRIu64 ", at most %" PRIu64 "), its own output\n"
           "(--max-bytes kept, default %u, at most %u), its own memory for live\n"
           "values (--max-memory bytes, default %" PRIu64 ", at most %" PRIu64 ") and\n"
           "its own call depth (--max-call-depth, default %u, %u..%u).\n"
           "Prints one line per test, the output of each test that did not pass, and a\n"
           "summary; --envelope writes the execution envelope\n"
           "(semaprax.project-execution.v1, language %s)\n"
           "to FILE as canonical JSON, recording the selection when NAMEs are given.\n"
           "Exit status: 0 every test run passed, 1 a test did not pass (or diagnostics),\n"
           "2 usage (an unknown test name among them), unreadable input or an envelope\n"
           "that cannot be written.\n",
           (uint64_t)SPX_LIMIT_MAX_STEPS_DEFAULT, (uint64_t)SPX_LIMIT_MAX_STEPS_MAXIMUM,
           SPX_LIMIT_MAX_BYTES_DEFAULT, SPX_LIMIT_MAX_BYTES_MAXIMUM,
           (uint64_t)SPX_LIMIT_MAX_MEMORY_DEFAULT, (uint64_t)SPX_LIMIT_MAX_MEMORY_MAXIMUM,
           SPX_LIMIT_CALL_DEPTH_DEFAULT, 1u, SPX_LIMIT_CALL_DEPTH_MAXIMUM, SPX_LANGUAGE_NAME);
}

static void verify_help(void)
{
    printf("usage: semaprax verify ENVELOPE [--manifest-path PATH]\n"
           "\n"
           "Checks an execution envelope three ways: (a) its envelope_digest, (b) its\n"
           "subject against the manifest and sources on disk, (c) a re-run of the test\n"
           "closure (or of the tests its selection names) with the recorded limits,\n"
           "compared byte for byte. Prints one line\n"
           "per check, saying where a failed check differs. An envelope whose\n"
           "engine.language is not %s fails (c) without a re-run: make a\n"
           "new one with 'semaprax test --envelope FILE'.\n"
           "Exit status: 0 verified, 1 a check failed, 2 usage, an unreadable envelope or\n"
           "no manifest found.\n",
           SPX_LANGUAGE_NAME);
}

static void serve_help(void)
{
    printf("usage: semaprax serve SOURCE.spx [--max-request-bytes N] [--max-response-bytes N]\n"
           "\n"
           "Reads, parses and checks one source file once (its module is the file's name\n"
           "without .spx, which must be a module name: [a-z][a-z0-9_]*, at most %u bytes),\n"
           "then answers JSON-RPC 2.0 requests, one per line on standard input, one\n"
           "response per line on standard output (semaprax.agent-transport.v1). Methods:\n"
           "protocol, ping, check, graph, shutdown; none takes params.\n"
           "--max-request-bytes: a request line without its LF (default %u,\n"
           "%u..%u); --max-response-bytes: a response with its LF (default\n"
           "%u, %u..%u).\n"
           "Exit status: 0 after shutdown or end of input, 1 after an oversized request\n"
           "or response was answered, 2 usage or an unreadable source (nothing on stdout).\n",
           SPX_LIMIT_IDENTIFIER_BYTES, SPX_LIMIT_REQUEST_BYTES_DEFAULT,
           SPX_LIMIT_REQUEST_BYTES_MINIMUM, SPX_LIMIT_REQUEST_BYTES_MAXIMUM,
           SPX_LIMIT_RESPONSE_BYTES_DEFAULT, SPX_LIMIT_RESPONSE_BYTES_MINIMUM,
           SPX_LIMIT_RESPONSE_BYTES_MAXIMUM);
}

static void rename_help(void)
{
    fputs("usage: semaprax rename MODULE.NAME NEW_NAME [--dry-run] [--manifest-path PATH]\n"
          "\n"
          "Renames the exported function MODULE.NAME to NEW_NAME: its declaration and\n"
          "every call of it in every module, nothing else (not a local variable, a\n"
          "string or a comment with the same text). The edits are planned from the\n"
          "project's index and checked by building the renamed project in memory; then\n"
          "each changed source is written to a new temporary file beside it, flushed to\n"
          "disk, and put in the original's place atomically. On any failure every file\n"
          "already replaced is restored. Refused: a function that is not exported or\n"
          "does not exist, one the manifest names (entry, tests), and a NEW_NAME that is\n"
          "not an identifier, is a keyword or builtin, or is taken in that module.\n"
          "Prints {\"committed\",\"edits\",\"project_revision\",\"workspace_revision\"}\n"
          "as canonical JSON, the revisions of the project as it now is. --dry-run\n"
          "prints the plan (committed false) and writes nothing.\n"
          "Exit status: 0 renamed (or planned), 1 refused, failed and restored, or the\n"
          "project has diagnostics, 2 usage or unreadable input.\n",
          stdout);
}

static void new_help(void)
{
    printf("usage: semaprax new NAME\n"
           "\n"
           "Creates the folder NAME in the working directory holding a new project:\n"
           "semaprax.toml (project NAME, entry app.main, one test), src/app.spx (the\n"
           "entry) and src/greeting.spx (a module with a test), so that check, run and\n"
           "test pass in it at once. NAME must be a project name ([a-z][a-z0-9_-]*, at\n"
           "most %u bytes) and must not exist. The files are written into a temporary\n"
           "folder beside NAME, which is then renamed to NAME: nothing half-written is\n"
           "left.\n"
           "Exit status: 0 created, 2 usage (a bad or existing NAME) or a write failure.\n",
           SPX_LIMIT_IDENTIFIER_BYTES);
}

enum option_id {
    OPTION_MANIFEST = 256,
    OPTION_FORMAT,
    OPTION_KIND,
    OPTION_TARGET,
    OPTION_DIRECTION,
    OPTION_DEPTH,
    OPTION_MAX_NODES,
    OPTION_MAX_BYTES,
    OPTION_MAX_STEPS,
    OPTION_MAX_MEMORY,
    OPTION_MAX_CALL_DEPTH,
    OPTION_ENVELOPE,
    OPTION_MAX_REQUEST_BYTES,
    OPTION_MAX_RESPONSE_BYTES,
    OPTION_DRY_RUN,
    OPTION_CHECK,
    OPTION_DIFF,
    OPTION_DENY_WARNINGS,
    OPTION_ENTRY,
    OPTION_VERSION,
    OPTION_HELP = 'h'
};

static const apr_getopt_option_t options[] = {
    {"manifest-path", OPTION_MANIFEST, 1, "the manifest"},
    {"format", OPTION_FORMAT, 1, "text or json"},
    {"kind", OPTION_KIND, 1, "module, function, struct, enum, const, test, builtin or data"},
    {"target", OPTION_TARGET, 1, "the target's name"},
    {"direction", OPTION_DIRECTION, 1, "out, in or both"},
    {"depth", OPTION_DEPTH, 1, "breadth-first depth"},
    {"max-nodes", OPTION_MAX_NODES, 1, "node budget"},
    {"max-bytes", OPTION_MAX_BYTES, 1, "byte budget"},
    {"max-steps", OPTION_MAX_STEPS, 1, "fuel of each run"},
    {"max-memory", OPTION_MAX_MEMORY, 1, "live value memory of each run"},
    {"max-call-depth", OPTION_MAX_CALL_DEPTH, 1, "active calls of each run"},
    {"envelope", OPTION_ENVELOPE, 1, "where to write the envelope"},
    {"max-request-bytes", OPTION_MAX_REQUEST_BYTES, 1, "request frame bound"},
    {"max-response-bytes", OPTION_MAX_RESPONSE_BYTES, 1, "response bound"},
    {"dry-run", OPTION_DRY_RUN, 0, "plan only"},
    {"check", OPTION_CHECK, 0, "write nothing, list what would change"},
    {"diff", OPTION_DIFF, 0, "write nothing, print the unified diff of what would change"},
    {"deny-warnings", OPTION_DENY_WARNINGS, 0, "warnings fail the check"},
    {"entry", OPTION_ENTRY, 1, "the function to run, MOD.FN"},
    {"version", OPTION_VERSION, 0, "show the version"},
    {"help", OPTION_HELP, 0, "show help"},
    {NULL, 0, 0, NULL},
};

typedef struct command_t {
    const char *name;
    void (*help)(void);  /* prints the command's help on stdout */
    const int *accepted; /* option ids beyond the common ones, 0-terminated */
    int operands;        /* arguments after the options, exactly; ANY_OPERANDS: any number */
    int no_manifest;     /* refuses --manifest-path (serve) */
    int (*run)(const struct command_t *command, apr_hash_t *values, const char *const *operands,
               apr_pool_t *pool);
} command_t;
#define ANY_OPERANDS (-1)

/* "1 test", "2 tests": a count and its noun, plural unless the count is one. */
static const char *counted(apr_size_t count, const char *noun, apr_pool_t *pool)
{
    return apr_psprintf(pool, "%" APR_SIZE_T_FMT " %s%s", count, noun, spx_plural(count));
}

static int print_usage_error(apr_pool_t *pool, const char *format, const char *detail)
{
    fprintf(stderr, "semaprax: %s\n", apr_psprintf(pool, format, detail));
    fprintf(stderr, "Try 'semaprax --help'.\n");
    return SPX_EXIT_USAGE;
}

/* Write bytes to stdout, binary, flushed. */
static int write_stdout(const char *bytes, apr_size_t length, apr_pool_t *pool)
{
    spx_stdio_t *stdio = NULL;
    if (!bytes || spx_stdio_open(&stdio, pool) != APR_SUCCESS ||
        spx_stdio_write(stdio, bytes, length) != APR_SUCCESS ||
        spx_stdio_flush(stdio) != APR_SUCCESS) {
        fprintf(stderr, "semaprax: cannot write to standard output\n");
        return SPX_EXIT_FAILED;
    }
    return SPX_EXIT_OK;
}

/* Write the document's canonical text and one LF to stdout. */
static int print_document(json_t *document, apr_pool_t *pool)
{
    const char *text = spx_canonical_text(document, pool);
    json_decref(document);
    text = text ? apr_pstrcat(pool, text, "\n", NULL) : NULL;
    return write_stdout(text, text ? strlen(text) : 0, pool);
}

/* Write text (length bytes) and one LF to stdout. */
static int print_text(const char *text, apr_size_t length, apr_pool_t *pool)
{
    char *line = apr_palloc(pool, length + 1);
    memcpy(line, text, length);
    line[length] = '\n';
    return write_stdout(line, length + 1, pool);
}

static apr_status_t write_stdio(void *context, const char *bytes, apr_size_t length)
{
    return spx_stdio_write(context, bytes, length);
}

/* Write the graph document and one LF to stdout, streamed in chunks by
 * the canonical writer, with no tree or whole text of it in memory. */
static int print_graph(const spx_project_t *project, apr_pool_t *pool)
{
    spx_stdio_t *stdio = NULL;
    spx_json_writer_t *writer = NULL;
    if (spx_stdio_open(&stdio, pool) == APR_SUCCESS) {
        writer = spx_json_writer_stream(write_stdio, stdio, (apr_size_t)-1, pool);
        spx_op_graph_write(project, writer);
    }
    if (!writer || spx_json_writer_finish(writer) != SPX_JSON_OK ||
        spx_stdio_write(stdio, "\n", 1) != APR_SUCCESS || spx_stdio_flush(stdio) != APR_SUCCESS) {
        fprintf(stderr, "semaprax: cannot write to standard output\n");
        return SPX_EXIT_FAILED;
    }
    return SPX_EXIT_OK;
}

/* The table's entry for an option id (every id has one). Its optch is the
 * key of the option's value in the values hash. */
static const apr_getopt_option_t *option_entry(int option)
{
    const apr_getopt_option_t *entry = options;
    while (entry->name && entry->optch != option)
        entry++;
    return entry;
}

static const char *value_of(apr_hash_t *values, int option)
{
    return apr_hash_get(values, &option_entry(option)->optch, sizeof(int));
}

/* The manifest: --manifest-path, or semaprax.toml found in the working
 * directory or the nearest folder above it (cli_project.c). APR_SUCCESS, or
 * a failure and *message. */
static apr_status_t manifest_path(apr_hash_t *values, const char **path, const char **message,
                                  apr_pool_t *pool)
{
    *path = value_of(values, OPTION_MANIFEST);
    if (*path)
        return APR_SUCCESS;
    apr_status_t status = spx_cli_find_manifest(path, message, pool);
    if (status != APR_SUCCESS)
        *path = SPX_MANIFEST_FILE_NAME;
    return status;
}

/* The check document of a project that cannot be opened: one E0160
 * diagnostic at the manifest saying why, as the daemon's workspace/open
 * gives it. A new reference. */
static json_t *unavailable_document(const char *path, const char *message)
{
    return json_pack("{s:b,s:[{s:s,s:s,s:s,s:s,s:{s:{s:i,s:i,s:i},s:{s:i,s:i,s:i}}}]}", "admitted",
                     0, "diagnostics", "code", spx_diagnostic_code_name(SPX_E0160), "message",
                     message, "path", path, "severity", "error", "span", "start", "line", 1,
                     "column", 1, "offset", 0, "end", "line", 1, "column", 1, "offset", 0);
}

/* Phase A for the command, or an exit status when it cannot be built (the
 * reason on stderr; with json, also the check document of unavailable_document
 * on stdout). */
static int open_project_as(apr_hash_t *values, spx_project_t **project, int json, apr_pool_t *pool)
{
    const char *manifest = NULL;
    const char *message = NULL;
    apr_status_t status = manifest_path(values, &manifest, &message, pool);
    if (status == APR_SUCCESS)
        status = spx_project_open(project, manifest, pool, &message);
    if (status != APR_SUCCESS) {
        char reason[256];
        if (!message)
            message = apr_pstrdup(pool, spx_strerror(status, reason, sizeof(reason)));
        fprintf(stderr, "semaprax: %s\n", message);
        if (json)
            print_document(unavailable_document(manifest, message), pool);
        return SPX_EXIT_USAGE;
    }
    return SPX_EXIT_OK;
}

static int open_project(apr_hash_t *values, spx_project_t **project, apr_pool_t *pool)
{
    return open_project_as(values, project, 0, pool);
}

static int print_not_admitted(const spx_project_t *project, int text, apr_pool_t *pool);

/* graph, context, run, test and rename need an admitted project: the
 * project, or its diagnostics on stderr (print_not_admitted; text: the
 * command prints text) and an exit status. */
static int open_admitted_project_as(apr_hash_t *values, spx_project_t **opened, int text,
                                    apr_pool_t *pool)
{
    int status = open_project(values, opened, pool);
    if (status != SPX_EXIT_OK)
        return status;
    if (spx_project_admitted(*opened))
        return SPX_EXIT_OK;
    return print_not_admitted(*opened, text, pool);
}

static int open_admitted_project(apr_hash_t *values, spx_project_t **opened, apr_pool_t *pool)
{
    return open_admitted_project_as(values, opened, 0, pool);
}

/* Flush stdout after a text form: an exit status. */
static int flushed_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "semaprax: cannot write to standard output\n");
        return SPX_EXIT_FAILED;
    }
    return SPX_EXIT_OK;
}

/* The form a command prints (--format text or json), *json set: an exit
 * status. Without --format, check prints its text; graph and context
 * (terminal_text) print text on a terminal and JSON elsewhere, the terminal
 * told apart as check's view tells it (spx_view_of): on a file or a pipe
 * their JSON is what it always was. */
static int chosen_format(apr_hash_t *values, int terminal_text, int *json, apr_pool_t *pool)
{
    const char *format = value_of(values, OPTION_FORMAT);
    if (format && strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        return print_usage_error(pool, "unknown format '%s': use text or json", format);
    if (format)
        *json = strcmp(format, "json") == 0;
    else
        *json = terminal_text && !spx_view_of(SPX_STREAM_STDOUT).rich;
    return SPX_EXIT_OK;
}

/* The diagnostics of a project that is not admitted on stderr, as check
 * words them (with the source lines and carets when stderr is a terminal
 * and the command prints text), and the line saying it is not admitted. */
static int print_not_admitted(const spx_project_t *project, int text, apr_pool_t *pool)
{
    spx_view_t view = spx_view_of(SPX_STREAM_STDERR);
    if (text && view.rich)
        spx_view_diagnostics(stderr, &view, project, pool);
    else
        fputs(spx_diagnostics_text(spx_project_diagnostics(project), pool), stderr);
    fprintf(stderr, "semaprax: the project is not admitted (%s)\n",
            counted(spx_diagnostics_count(spx_project_diagnostics(project)), "diagnostic", pool));
    return SPX_EXIT_FAILED;
}

static int run_check(const command_t *command, apr_hash_t *values, const char *const *operands,
                     apr_pool_t *pool)
{
    (void)command;
    (void)operands;
    int json = 0;
    int chosen = chosen_format(values, 0, &json, pool);
    if (chosen != SPX_EXIT_OK)
        return chosen;
    spx_project_t *project = NULL;
    int status = open_project_as(values, &project, json, pool);
    if (status != SPX_EXIT_OK)
        return status;
    spx_check_result_t check;
    spx_op_check(project, value_of(values, OPTION_DENY_WARNINGS) != NULL, &check);
    int verdict = check.succeeded ? SPX_EXIT_OK : SPX_EXIT_FAILED;
    if (json)
        return print_document(spx_project_check_document(project), pool) == SPX_EXIT_OK
                   ? verdict
                   : SPX_EXIT_FAILED;
    spx_view_t view = spx_view_of(SPX_STREAM_STDOUT);
    if (view.rich)
        spx_view_diagnostics(stdout, &view, project, pool);
    else
        fputs(spx_diagnostics_text(check.diagnostics, pool), stdout);
    if (check.admitted)
        printf("semaprax: project '%s' admitted: %s, %s%s%s%s\n", spx_project_name(project),
               counted(check.modules, "module", pool), counted(check.tests, "test", pool),
               check.diagnostic_count ? "; " : "",
               check.diagnostic_count ? counted(check.diagnostic_count, "warning", pool) : "",
               check.denied ? ", denied" : "");
    else
        printf("semaprax: %s\n", counted(check.diagnostic_count, "diagnostic", pool));
    return verdict;
}

static int run_graph(const command_t *command, apr_hash_t *values, const char *const *operands,
                     apr_pool_t *pool)
{
    (void)command;
    (void)operands;
    int json = 0;
    int status = chosen_format(values, 1, &json, pool);
    if (status != SPX_EXIT_OK)
        return status;
    spx_project_t *project = NULL;
    status = open_admitted_project_as(values, &project, !json, pool);
    if (status != SPX_EXIT_OK)
        return status;
    if (json)
        return print_graph(project, pool);
    spx_view_graph_outline(stdout, project);
    return flushed_stdout();
}

/* A decimal count with no sign, no spaces, no trailing bytes. */
int spx_cli_parse_count(const char *text, apr_uint64_t minimum, apr_uint64_t maximum,
                        apr_uint64_t *value)
{
    if (!text || text[0] < '0' || text[0] > '9' || (text[0] == '0' && text[1] != '\0') ||
        strlen(text) > 19)
        return 0;
    apr_uint64_t result = 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9')
            return 0;
        result = result * 10 + (apr_uint64_t)(*c - '0');
    }
    if (result < minimum || result > maximum)
        return 0;
    *value = result;
    return 1;
}

/* The whole number given for a counting option: an exit status, with
 * *given set when the option is given (*present). */
static int given_count(apr_hash_t *values, int option, int *present, apr_uint64_t *given,
                       apr_pool_t *pool)
{
    const char *text = value_of(values, option);
    *present = text != NULL;
    if (text && !spx_cli_parse_count(text, 0, UINT64_MAX, given))
        return print_usage_error(pool, "%s",
                                 apr_psprintf(pool, "--%s takes a whole number, not '%s'",
                                              option_entry(option)->name, text));
    return SPX_EXIT_OK;
}

/* "--NAME N is over the maximum of M" (or under the minimum): exit 2. */
static int out_of_range(int option, apr_uint64_t given, apr_uint64_t minimum, apr_uint64_t maximum,
                        apr_pool_t *pool)
{
    return print_usage_error(
        pool, "%s",
        apr_psprintf(pool, "--%s %" APR_UINT64_T_FMT " is %s the %s of %" APR_UINT64_T_FMT,
                     option_entry(option)->name, given, given > maximum ? "over" : "under",
                     given > maximum ? "maximum" : "minimum", given > maximum ? maximum : minimum));
}

/* The value of a counting option, if given, within minimum..maximum; an
 * exit status. *value is left alone when the option is not given. */
static int bounded_count(apr_hash_t *values, int option, apr_uint64_t minimum, apr_uint64_t maximum,
                         apr_uint64_t *value, apr_pool_t *pool)
{
    int present = 0;
    apr_uint64_t given = 0;
    int status = given_count(values, option, &present, &given, pool);
    if (status != SPX_EXIT_OK || !present)
        return status;
    if (given > maximum || given < minimum)
        return out_of_range(option, given, minimum, maximum, pool);
    *value = given;
    return SPX_EXIT_OK;
}

static int run_context(const command_t *command, apr_hash_t *values, const char *const *operands,
                       apr_pool_t *pool)
{
    (void)command;
    (void)operands;
    spx_context_request_t request =
        spx_op_context_query(SPX_LIMIT_CONTEXT_BYTES_DEFAULT, SPX_LIMIT_RESPONSE_BYTES_DEFAULT);
    request.target_kind = value_of(values, OPTION_KIND);
    request.target = value_of(values, OPTION_TARGET);
    if (!request.target)
        return print_usage_error(pool, "%s",
                                 "context needs --target (and --kind, unless the target is a "
                                 "graph node id such as function:app.main)");
    if (value_of(values, OPTION_DIRECTION))
        request.direction = value_of(values, OPTION_DIRECTION);
    int status = bounded_count(values, OPTION_DEPTH, 0, SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM,
                               &request.depth, pool);
    if (status == SPX_EXIT_OK)
        status = bounded_count(values, OPTION_MAX_NODES, 1, SPX_LIMIT_CONTEXT_NODES_MAXIMUM,
                               &request.max_nodes, pool);
    if (status == SPX_EXIT_OK)
        status = bounded_count(values, OPTION_MAX_BYTES, 1, SPX_LIMIT_RESPONSE_BYTES_DEFAULT,
                               &request.max_bytes, pool);
    int json = 0;
    if (status == SPX_EXIT_OK)
        status = chosen_format(values, 1, &json, pool);
    if (status != SPX_EXIT_OK)
        return status;
    spx_project_t *project = NULL;
    status = open_admitted_project_as(values, &project, !json, pool);
    if (status != SPX_EXIT_OK)
        return status;
    spx_context_result_t context;
    if (spx_op_context_text(project, &request, SPX_LIMIT_RESPONSE_BYTES_DEFAULT, &context, pool) !=
        APR_SUCCESS)
        return print_usage_error(pool, "%s", context.message);
    if (json)
        return print_text(context.text, context.length, pool);
    spx_view_context_outline(stdout, project, &request, &context, pool);
    return flushed_stdout();
}

/* The option id of the long option name (every run limit has one). */
static int option_named(const char *name)
{
    const apr_getopt_option_t *entry = options;
    while (entry->name && strcmp(entry->name, name) != 0)
        entry++;
    SPX_ASSERT(entry->name != NULL);
    return entry->optch;
}

/* The run limits given as options (spx_op_run_limits: --max-steps,
 * --max-bytes, --max-memory, --max-call-depth) over the defaults in
 * limits, each checked by the operation; an exit status. */
static int parse_limits(apr_hash_t *values, spx_run_limits_t *limits, apr_pool_t *pool)
{
    for (apr_size_t i = 0; i < SPX_OP_RUN_LIMIT_COUNT; i++) {
        const spx_op_run_limit_t *limit = &spx_op_run_limits[i];
        int option = option_named(limit->option + 2); /* without its "--" */
        int present = 0;
        apr_uint64_t given = 0;
        int status = given_count(values, option, &present, &given, pool);
        if (status != SPX_EXIT_OK)
            return status;
        if (present && spx_op_run_limit_apply(limits, i, given) != SPX_OP_LIMIT_APPLIED)
            return out_of_range(option, given, limit->minimum, limit->maximum, pool);
    }
    return SPX_EXIT_OK;
}

/* The limits, then an admitted project; an exit status. */
static int prepare_run(apr_hash_t *values, spx_run_limits_t *limits, spx_project_t **project,
                       apr_pool_t *pool)
{
    int status = parse_limits(values, limits, pool);
    if (status == SPX_EXIT_OK)
        status = open_admitted_project(values, project, pool);
    return status;
}

/* "path:line:column: error[CODE]: message" of a run that did not return. */
static const char *failure_line(const spx_failure_t *failure, apr_pool_t *pool)
{
    return apr_psprintf(pool, "%s:%" PRIu32 ":%" PRIu32 ": error[%s]: %s", failure->path,
                        failure->span.start.line, failure->span.start.column, failure->code,
                        failure->message);
}

static int write_document(const char *path, json_t *document, apr_pool_t *pool);

/* The key under which run_command keeps the words after "--" (a
 * NULL-terminated array) among the option values, whose keys are ints. */
#define PROGRAM_ARGUMENTS_KEY "--"

static int run_run(const command_t *command, apr_hash_t *values, const char *const *operands,
                   apr_pool_t *pool)
{
    (void)command;
    if (operands[0])
        return print_usage_error(pool,
                                 "unexpected argument '%s'; give the program's arguments "
                                 "after --",
                                 operands[0]);
    spx_run_limits_t limits = spx_op_entry_limits_default();
    const char *const *arguments =
        apr_hash_get(values, PROGRAM_ARGUMENTS_KEY, sizeof(PROGRAM_ARGUMENTS_KEY) - 1);
    apr_size_t count = 0;
    while (arguments && arguments[count])
        count++;
    limits.arguments = arguments;
    limits.argument_count = count;
    const char *problem = spx_op_run_arguments_problem(arguments, count, pool);
    if (problem)
        return print_usage_error(pool, "%s", problem);
    spx_project_t *project = NULL;
    int status = prepare_run(values, &limits, &project, pool);
    if (status != SPX_EXIT_OK)
        return status;
    spx_op_entry_result_t entry;
    const char *message = NULL;
    const char *envelope_path = value_of(values, OPTION_ENVELOPE);
    json_t *envelope = NULL;
    if (spx_op_run_function(project, value_of(values, OPTION_ENTRY), &limits, &entry,
                            envelope_path ? &envelope : NULL, pool, &message) != APR_SUCCESS)
        return print_usage_error(pool, "%s", message);
    if (envelope) {
        int written = write_document(envelope_path, envelope, pool);
        json_decref(envelope);
        if (written != SPX_EXIT_OK)
            return written;
    }
    const spx_run_result_t *result = &entry.run;
    fflush(stdout);
    if (write_stdout(result->output, result->output_length, pool) != SPX_EXIT_OK)
        return SPX_EXIT_FAILED;
    if (result->output_truncated)
        fprintf(stderr, "semaprax: output cut at %" APR_SIZE_T_FMT " bytes (--max-bytes)\n",
                result->output_length);
    if (result->outcome != SPX_OUTCOME_RETURNED) {
        fprintf(stderr, "%s\n", failure_line(&result->failure, pool));
        const char *hint = spx_op_limit_hint(result, SPX_OP_LIMIT_BY_OPTION, pool);
        fprintf(stderr, "semaprax: entry '%s': %s after %" PRIu64 " steps%s%s\n", entry.entry,
                spx_outcome_words(entry.outcome), result->steps, hint ? "; " : "",
                hint ? hint : "");
        return SPX_EXIT_FAILED;
    }
    if (!entry.succeeded) {
        fprintf(stderr, "semaprax: entry '%s' returned %" PRId64 "\n", entry.entry, result->value);
        return SPX_EXIT_FAILED;
    }
    return SPX_EXIT_OK;
}

/* Write the document's canonical text and one LF to path. */
static int write_document(const char *path, json_t *document, apr_pool_t *pool)
{
    const char *text = spx_canonical_text(document, pool);
    SPX_ASSERT(text != NULL); /* NULL only when memory runs out, which is fatal */
    apr_file_t *file = NULL;
    apr_status_t status = apr_file_open(
        &file, path, APR_FOPEN_WRITE | APR_FOPEN_CREATE | APR_FOPEN_TRUNCATE | APR_FOPEN_BINARY,
        APR_FPROT_OS_DEFAULT, pool);
    if (status == APR_SUCCESS) {
        status = apr_file_write_full(file, text, strlen(text), NULL);
        if (status == APR_SUCCESS)
            status = apr_file_write_full(file, "\n", 1, NULL);
        apr_status_t closed = apr_file_close(file);
        if (status == APR_SUCCESS)
            status = closed;
    }
    if (status != APR_SUCCESS) {
        char reason[256];
        fprintf(stderr, "semaprax: cannot write the envelope to '%s': %s\n", path,
                spx_strerror(status, reason, sizeof(reason)));
        return SPX_EXIT_USAGE;
    }
    return SPX_EXIT_OK;
}

/* The plain line of a test that ran, and its output when it did not pass. */
static void print_test(const spx_view_t *view, const spx_test_run_t *test, apr_pool_t *pool)
{
    const spx_run_result_t *result = &test->result;
    printf("test %s (%s) ... %s, %" PRIu64 " steps", test->name, test->function,
           spx_test_outcome_name(test->outcome), result->steps);
    if (result->outcome == SPX_OUTCOME_RETURNED)
        printf(", returned %" PRId64, result->value);
    else {
        const char *hint = spx_op_limit_hint(result, SPX_OP_LIMIT_BY_OPTION, pool);
        printf(": %s%s%s", failure_line(&result->failure, pool), hint ? "; " : "",
               hint ? hint : "");
    }
    printf("\n");
    spx_view_test_output(stdout, view, test);
}

static int run_test(const command_t *command, apr_hash_t *values, const char *const *operands,
                    apr_pool_t *pool)
{
    (void)command;
    spx_op_test_request_t request = {spx_op_test_limits_default(), NULL, 0, NULL, 0, NULL};
    spx_project_t *project = NULL;
    int status = prepare_run(values, &request.limits, &project, pool);
    if (status != SPX_EXIT_OK)
        return status;
    while (operands[request.name_count])
        request.name_count++;
    request.names = request.name_count > 0 ? operands : NULL;
    spx_view_t view = spx_view_of(SPX_STREAM_STDOUT);
    spx_view_progress_t progress = {stdout, &view, pool};
    spx_envelope_observer_t observer = spx_view_test_observer(&progress);
    request.observer = view.rich ? &observer : NULL;
    spx_op_test_result_t run;
    const char *message = NULL;
    switch (spx_op_test(project, &request, &run, pool, &message)) {
    case SPX_OP_TEST_RAN:
        break;
    case SPX_OP_TEST_TOO_LARGE:
        return print_usage_error(
            pool, "%s (verify reads none larger): lower --max-bytes or name fewer tests", message);
    default:
        return print_usage_error(pool, "%s", message);
    }
    const spx_test_summary_t *summary = &run.summary;
    if (view.rich)
        spx_view_test_summary(stdout, &view, summary);
    else
        for (int i = 0; i < run.tests->nelts; i++)
            print_test(&view, &APR_ARRAY_IDX(run.tests, i, spx_test_run_t), pool);
    printf("semaprax: %s: %" APR_SIZE_T_FMT " passed, %" APR_SIZE_T_FMT
           " failed, %s, %" APR_SIZE_T_FMT " out of fuel, %" APR_SIZE_T_FMT " out of depth\n",
           counted(summary->total, "test", pool), summary->by_outcome[SPX_TEST_PASSED],
           summary->by_outcome[SPX_TEST_FAILED],
           counted(summary->by_outcome[SPX_TEST_LANGUAGE_FAILURE], "language failure", pool),
           summary->by_outcome[SPX_TEST_FUEL_EXHAUSTED],
           summary->by_outcome[SPX_TEST_DEPTH_EXHAUSTED]);
    const char *failures = spx_op_test_failures_sentence(&run, SPX_OP_LIMIT_BY_OPTION, pool);
    if (failures)
        printf("semaprax: %s\n", failures);
    int verdict = run.command_succeeded ? SPX_EXIT_OK : SPX_EXIT_FAILED;
    const char *path = value_of(values, OPTION_ENVELOPE);
    if (path && write_document(path, run.envelope, pool) != SPX_EXIT_OK)
        verdict = SPX_EXIT_USAGE;
    json_decref(run.envelope);
    return verdict;
}

/* "name: ok", or "name: FAILED: why", of one check of verify. */
static void print_check(const char *name, int ok, const char *detail)
{
    printf("%s: %s%s%s\n", name, ok ? "ok" : "FAILED", ok ? "" : ": ", detail);
}

static int run_verify(const command_t *command, apr_hash_t *values, const char *const *operands,
                      apr_pool_t *pool)
{
    (void)command;
    const char *bytes = NULL;
    apr_size_t length = 0;
    apr_status_t read = APR_SUCCESS;
    char reason[256];
    switch (spx_op_envelope_read(operands[0], &bytes, &length, &read, pool)) {
    case SPX_OP_ENVELOPE_TOO_LARGE:
        return print_usage_error(pool, "%s",
                                 apr_psprintf(pool, "envelope '%s' is over the limit of %u bytes",
                                              operands[0], SPX_LIMIT_ENVELOPE_BYTES));
    case SPX_OP_ENVELOPE_UNREADABLE:
        return print_usage_error(pool, "%s",
                                 apr_psprintf(pool, "cannot read envelope '%s': %s", operands[0],
                                              spx_strerror(read, reason, sizeof(reason))));
    default:
        break;
    }
    const char *manifest = NULL;
    const char *message = NULL;
    if (manifest_path(values, &manifest, &message, pool) != APR_SUCCESS)
        return print_usage_error(pool, "%s", message);
    spx_op_verify_result_t verify;
    spx_op_verify(bytes, length, manifest, &verify, pool);
    const spx_verify_report_t *report = &verify.report;
    print_check("digest", report->digest_ok, report->digest_detail);
    print_check("subject", report->subject_ok, report->subject_detail);
    print_check("re-run", report->rerun_ok, report->rerun_detail);
    printf("semaprax: %s\n",
           verify.verified ? "the envelope is verified" : "the envelope is NOT verified");
    return verify.verified ? SPX_EXIT_OK : SPX_EXIT_FAILED;
}

static int run_new(const command_t *command, apr_hash_t *values, const char *const *operands,
                   apr_pool_t *pool)
{
    (void)command;
    (void)values;
    return spx_cli_new_project(operands[0], pool);
}

static int run_serve(const command_t *command, apr_hash_t *values, const char *const *operands,
                     apr_pool_t *pool)
{
    (void)command;
    apr_uint64_t max_request = SPX_LIMIT_REQUEST_BYTES_DEFAULT;
    apr_uint64_t max_response = SPX_LIMIT_RESPONSE_BYTES_DEFAULT;
    int status = bounded_count(values, OPTION_MAX_REQUEST_BYTES, SPX_LIMIT_REQUEST_BYTES_MINIMUM,
                               SPX_LIMIT_REQUEST_BYTES_MAXIMUM, &max_request, pool);
    if (status == SPX_EXIT_OK)
        status = bounded_count(values, OPTION_MAX_RESPONSE_BYTES, SPX_LIMIT_RESPONSE_BYTES_MINIMUM,
                               SPX_LIMIT_RESPONSE_BYTES_MAXIMUM, &max_response, pool);
    if (status != SPX_EXIT_OK)
        return status;
    spx_project_t *project = NULL;
    const char *message = NULL;
    char reason[256];
    apr_status_t opened = spx_project_open_source(&project, operands[0], pool, &message);
    if (opened != APR_SUCCESS) {
        fprintf(stderr, "semaprax: %s\n",
                message ? message : spx_strerror(opened, reason, sizeof(reason)));
        return SPX_EXIT_USAGE;
    }
    spx_v1_limits_t limits = {(apr_size_t)max_request, (apr_size_t)max_response};
    spx_loop_report_t report;
    apr_status_t served = spx_v1_serve_stdio(spx_v1_make(project, &limits, pool), pool, &report);
    if (served != APR_SUCCESS) {
        fprintf(stderr, "semaprax: cannot open the standard streams: %s\n",
                spx_strerror(served, reason, sizeof(reason)));
        return SPX_EXIT_FAILED;
    }
    spx_loop_explain(&report, "semaprax", (apr_size_t)max_request, (apr_size_t)max_response);
    return spx_loop_exit_status(report.end);
}

/* Say on stderr why a rename did not happen, or was undone. */
static int rename_failure(const spx_rename_failure_t *failure)
{
    fprintf(stderr, "semaprax: rename %s at step '%s'%s%s: %s\n",
            failure->step <= SPX_RENAME_VERIFY ? "refused" : "failed",
            spx_rename_step_name(failure->step), failure->operation ? ", " : "",
            failure->operation ? failure->operation : "", failure->reason);
    for (int i = 0; failure->restored && i < failure->restored->nelts; i++)
        fprintf(stderr, "semaprax: restored '%s'\n",
                APR_ARRAY_IDX(failure->restored, i, const char *));
    for (int i = 0; failure->not_restored && i < failure->not_restored->nelts; i++)
        fprintf(stderr, "semaprax: NOT restored '%s'\n",
                APR_ARRAY_IDX(failure->not_restored, i, const char *));
    return SPX_EXIT_FAILED;
}

static int run_rename(const command_t *command, apr_hash_t *values, const char *const *operands,
                      apr_pool_t *pool)
{
    (void)command;
    spx_project_t *project = NULL;
    int status = open_admitted_project(values, &project, pool);
    if (status != SPX_EXIT_OK)
        return status;
    const spx_op_rename_request_t request = {.project = project,
                                             .function = operands[0],
                                             .new_name = operands[1],
                                             .dry_run = value_of(values, OPTION_DRY_RUN) != NULL,
                                             .recheck_at = SPX_OP_RENAME_RECHECK_AFTER_PLAN,
                                             .commit_probe = spx_cli_commit_probe(),
                                             .project_parent = pool};
    spx_op_rename_result_t renamed;
    spx_op_rename(&request, &renamed, pool);
    switch (renamed.outcome) {
    case SPX_OP_RENAME_REFUSED:
    case SPX_OP_RENAME_FAILED:
        return rename_failure(&renamed.failure);
    case SPX_OP_RENAME_DRIFTED:
        /* Step 4: nothing is written over a change made since the project was read. */
        spx_view_drift(stderr, renamed.drift);
        fprintf(stderr, "semaprax: rename failed at step 'recheck': nothing was written\n");
        return SPX_EXIT_FAILED;
    default:
        break;
    }
    /* A dry run or a commit: with no budget, the answer always fits. */
    SPX_ASSERT(renamed.outcome == SPX_OP_RENAME_DRY_RUN ||
               renamed.outcome == SPX_OP_RENAME_COMMITTED);
    return print_document(spx_op_rename_document(&renamed), pool);
}

static int run_fmt(const command_t *command, apr_hash_t *values, const char *const *operands,
                   apr_pool_t *pool)
{
    (void)command;
    return spx_cli_fmt(operands, value_of(values, OPTION_MANIFEST),
                       value_of(values, OPTION_CHECK) != NULL,
                       value_of(values, OPTION_DIFF) != NULL, pool);
}

static const int check_options[] = {OPTION_FORMAT, OPTION_DENY_WARNINGS, 0};
static const int run_options[] = {OPTION_MAX_STEPS,
                                  OPTION_MAX_BYTES,
                                  OPTION_MAX_MEMORY,
                                  OPTION_ENTRY,
                                  OPTION_MAX_CALL_DEPTH,
                                  OPTION_ENVELOPE,
                                  0};
static const int test_options[] = {OPTION_MAX_STEPS,      OPTION_MAX_BYTES, OPTION_MAX_MEMORY,
                                   OPTION_MAX_CALL_DEPTH, OPTION_ENVELOPE,  0};
static const int verify_options[] = {0};
static const int serve_options[] = {OPTION_MAX_REQUEST_BYTES, OPTION_MAX_RESPONSE_BYTES, 0};
static const int graph_options[] = {OPTION_FORMAT, 0};
static const int rename_options[] = {OPTION_DRY_RUN, 0};
static const int new_options[] = {0};
static const int fmt_options[] = {OPTION_CHECK, OPTION_DIFF, 0};
static const int context_options[] = {
    OPTION_KIND,      OPTION_TARGET,    OPTION_DIRECTION, OPTION_DEPTH,
    OPTION_MAX_NODES, OPTION_MAX_BYTES, OPTION_FORMAT,    0};

static const command_t commands[] = {
    {"check", check_help, check_options, 0, 0, run_check},
    {"graph", graph_help, graph_options, 0, 0, run_graph},
    {"context", context_help, context_options, 0, 0, run_context},
    {"run", run_help, run_options, ANY_OPERANDS, 0, run_run},
    {"test", test_help, test_options, ANY_OPERANDS, 0, run_test},
    {"verify", verify_help, verify_options, 1, 0, run_verify},
    {"serve", serve_help, serve_options, 1, 1, run_serve},
    {"rename", rename_help, rename_options, 2, 0, run_rename},
    {"new", new_help, new_options, 1, 1, run_new},
    {"fmt", spx_cli_fmt_help, fmt_options, ANY_OPERANDS, 0, run_fmt},
};
#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

/* "unknown command 'chek'; did you mean 'check'?" on stderr; exit 2. */
static int unknown_command(const char *word, apr_pool_t *pool)
{
    const char *names[COMMAND_COUNT + 1];
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        names[i] = commands[i].name;
    names[COMMAND_COUNT] = "help";
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
    size_t found = spx_suggest_nearest(word, names, COMMAND_COUNT + 1, 1, nearest);
    if (!found)
        return print_usage_error(pool, "unknown command '%s'", word);
    return print_usage_error(
        pool, "%s",
        apr_psprintf(pool, "unknown command '%s'; did you mean '%s'?", word, nearest[0]));
}

/* An option before any command other than --help, -h and --version:
 * "unknown option '--verison'; did you mean '--version'?"; exit 2. */
static int unknown_program_option(const char *word, apr_pool_t *pool)
{
    static const char *const names[] = {"help", "version"};
    const char *nearest[1];
    const char *name = word[1] == '-' ? word + 2 : word + 1;
    if (spx_suggest_nearest(name, names, 2, 1, nearest) == 0)
        return print_usage_error(
            pool, "%s",
            apr_psprintf(pool, "unknown option '%s': give a command first (see --help)", word));
    return print_usage_error(
        pool, "%s",
        apr_psprintf(pool, "unknown option '%s'; did you mean '--%s'?", word, nearest[0]));
}

static const command_t *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int accepts(const command_t *command, int option)
{
    if (option == OPTION_MANIFEST)
        return !command->no_manifest;
    if (option == OPTION_HELP || option == OPTION_VERSION)
        return 1;
    for (const int *accepted = command->accepted; *accepted; accepted++)
        if (*accepted == option)
            return 1;
    return 0;
}

/* "unknown option '--manifst-path'; did you mean '--manifest-path'?" on
 * stderr, among the long options the command takes; exit 2. */
static int unknown_option(const command_t *command, const char *given, apr_pool_t *pool)
{
    const char *names[sizeof(options) / sizeof(options[0])];
    size_t count = 0;
    for (const apr_getopt_option_t *entry = options; entry->name; entry++)
        if (accepts(command, entry->optch))
            names[count++] = entry->name;
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
    size_t found = 0;
    if (strncmp(given, "--", 2) == 0) {
        const char *name = given + 2;
        const char *equals = strchr(name, '=');
        name = equals ? apr_pstrndup(pool, name, (apr_size_t)(equals - name)) : name;
        found = spx_suggest_nearest(name, names, count, 1, nearest);
    }
    if (!found)
        return print_usage_error(pool, "unknown option '%s'", given);
    return print_usage_error(
        pool, "%s",
        apr_psprintf(pool, "unknown option '%s'; did you mean '--%s'?", given, nearest[0]));
}

static int run_command(const command_t *command, int argc, const char *const *argv,
                       apr_pool_t *pool)
{
    /* run: every word after the first "--" is the program's (args()). */
    const char *const *program_arguments = NULL;
    for (int i = 1; strcmp(command->name, "run") == 0 && i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            program_arguments = argv + i + 1;
            argc = i;
            break;
        }
    apr_getopt_t *parser = NULL;
    apr_getopt_init(&parser, pool, argc, argv);
    parser->errfn = NULL;   /* we word the errors ourselves */
    parser->interleave = 1; /* options may follow an operand (verify ENVELOPE --manifest-path P) */
    apr_hash_t *values = apr_hash_make(pool);
    for (;;) {
        int option = 0;
        const char *argument = NULL;
        apr_status_t status = apr_getopt_long(parser, options, &option, &argument);
        if (status == APR_EOF)
            break;
        if (status == APR_BADCH)
            return unknown_option(command, parser->argv[parser->ind - 1], pool);
        if (status == APR_BADARG)
            return print_usage_error(pool, "option '%s' needs a value",
                                     parser->argv[parser->ind - 1]);
        if (option == OPTION_HELP) {
            command->help();
            return SPX_EXIT_OK;
        }
        if (option == OPTION_VERSION) {
            printf("semaprax %s\n", SPX_VERSION);
            return SPX_EXIT_OK;
        }
        const apr_getopt_option_t *entry = option_entry(option);
        if (!accepts(command, option))
            return print_usage_error(
                pool, "%s",
                apr_psprintf(pool, "'%s' takes no option --%s", command->name, entry->name));
        if (value_of(values, option))
            return print_usage_error(pool, "option --%s given twice", entry->name);
        /* A flag without a value is stored as "" (a NULL value would not be). */
        apr_hash_set(values, &entry->optch, sizeof(int), argument ? argument : "");
    }
    if (program_arguments)
        apr_hash_set(values, PROGRAM_ARGUMENTS_KEY, sizeof(PROGRAM_ARGUMENTS_KEY) - 1,
                     program_arguments);
    if (command->operands != ANY_OPERANDS && argc - parser->ind > command->operands)
        return print_usage_error(pool, "unexpected argument '%s'",
                                 parser->argv[parser->ind + command->operands]);
    if (command->operands != ANY_OPERANDS && argc - parser->ind < command->operands)
        return print_usage_error(pool, "'%s' needs an argument: see its --help", command->name);
    return command->run(command, values, parser->argv + parser->ind, pool);
}

int spx_cli_main(int argc, const char *const *argv)
{
    spx_allocation_policy_install("semaprax", 0);
    if (apr_initialize() != APR_SUCCESS) {
        fprintf(stderr, "semaprax: cannot initialise APR\n");
        return SPX_EXIT_USAGE;
    }
    spx_stdio_binary_mode();
    spx_stdio_ignore_broken_pipe();
    apr_pool_t *pool = spx_root_pool(SPX_LIMIT_POOL_FREE_KEPT_BYTES);
    argv = spx_arguments_utf8(argc, argv, pool);
    spx_console_t *console = spx_console_utf8(pool); /* UTF-8 on a console, put back below */
    int status;
    const char *word = argc > 1 ? argv[1] : NULL;
    if (!word) {
        fputs(usage_text, stderr);
        status = SPX_EXIT_USAGE;
    } else if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0) {
        fputs(usage_text, stdout);
        status = SPX_EXIT_OK;
    } else if (strcmp(word, "--version") == 0) {
        printf("semaprax %s\n", SPX_VERSION);
        status = SPX_EXIT_OK;
    } else if (strcmp(word, "help") == 0) {
        const command_t *command = argc > 2 ? find_command(argv[2]) : NULL;
        if (argc > 2 && !command)
            status = unknown_command(argv[2], pool);
        else {
            if (command)
                command->help();
            else
                fputs(usage_text, stdout);
            status = SPX_EXIT_OK;
        }
    } else if (word[0] == '-') {
        status = unknown_program_option(word, pool);
    } else {
        const command_t *command = find_command(word);
        status =
            command ? run_command(command, argc - 1, argv + 1, pool) : unknown_command(word, pool);
    }
    /* The pools are not torn down: the process ends here and the system takes
     * the memory back at once, while Debian's APR would unmap a large
     * project's thousands of pool blocks one system call at a time (a good
     * part of a big check's time, docs/performance.md). They stay reachable
     * from APR's global pool, so leak checkers do not count them. */
    fflush(stdout);
    fflush(stderr);
    spx_console_restore(console);
    return status;
}
