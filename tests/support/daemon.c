/*
 * daemon.c: starts the real daemon over pipes with APR and talks to it one
 * line at a time (spx_daemon.h); its standard error goes to a file, or to a
 * pipe that the test reads only when it wants to. When the environment names a transcript
 * folder (SPX_TRANSCRIPT_DIR, set by tests/CMakeLists.txt), every session's
 * arguments, request bytes and response lines are recorded there for the
 * schema test (tests/schema/validate.py).
 */
#include "spx_daemon.h"

#include "spx_corpus.h"
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_rpc.h"
#include "spx_test.h"

#include <apr_env.h>
#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_strings.h>
#include <apr_thread_mutex.h>
#include <apr_thread_proc.h>
#include <apr_time.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct spx_daemon_t {
    apr_pool_t *pool;
    apr_proc_t process;
    int input_open;
    int finished;
    int exit_code;
    char *pending; /* bytes read and not yet handed out */
    apr_size_t pending_length, pending_capacity;
    int output_ended;
    int output_closed; /* our end of its stdout is closed */
    int waited;        /* it has exited and exit_code is known */
    const char *rest;
    apr_file_t *err;      /* a file, or the read end of the pipe */
    const char *err_name; /* the file's name; NULL when err is a pipe */
    const char *err_text;
    char *err_pending; /* piped stderr read and not yet handed out */
    apr_size_t err_pending_length, err_pending_capacity;
    int err_ended;
    apr_file_t *transcript;              /* NULL when not recording */
    apr_thread_mutex_t *transcript_lock; /* a test may send from a thread of its own */
};

/* Requests larger than this are recorded by their length only (the 64 MiB
 * oversized request of test_daemon_limits would otherwise be copied). */
#define TRANSCRIPT_REQUEST_BYTES (1024 * 1024)

/* One record of the transcript: KIND, a space, the length in decimal, LF,
 * the bytes, LF. Kinds: A the arguments (one per line), S bytes sent, X the
 * length of bytes sent but not recorded, R a response line (LF excluded),
 * T what the daemon wrote after the last line read. */
static void record(spx_daemon_t *daemon, char kind, const void *bytes, apr_size_t length)
{
    if (!daemon->transcript)
        return;
    char header[64];
    apr_snprintf(header, sizeof(header), "%c %" APR_SIZE_T_FMT "\n", kind, length);
    apr_thread_mutex_lock(daemon->transcript_lock);
    apr_file_write_full(daemon->transcript, header, strlen(header), NULL);
    if (kind != 'X') {
        apr_file_write_full(daemon->transcript, bytes, length, NULL);
        apr_file_write_full(daemon->transcript, "\n", 1, NULL);
    }
    apr_thread_mutex_unlock(daemon->transcript_lock);
}

/* Open a new transcript file in SPX_TRANSCRIPT_DIR, if set, and record the
 * daemon's arguments. */
static void start_transcript(spx_daemon_t *daemon, const char *variable,
                             const char *const *arguments)
{
    const char *folder = getenv("SPX_TRANSCRIPT_DIR");
    if (!folder)
        return;
    CU_ASSERT_EQUAL_FATAL(
        apr_thread_mutex_create(&daemon->transcript_lock, APR_THREAD_MUTEX_DEFAULT, daemon->pool),
        APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_dir_make_recursive(folder, APR_FPROT_OS_DEFAULT, daemon->pool),
                          APR_SUCCESS);
    char *name = apr_pstrcat(daemon->pool, folder, "/session-XXXXXX", NULL);
    CU_ASSERT_EQUAL_FATAL(
        apr_file_mktemp(&daemon->transcript, name,
                        APR_FOPEN_CREATE | APR_FOPEN_WRITE | APR_FOPEN_EXCL | APR_FOPEN_BINARY,
                        daemon->pool),
        APR_SUCCESS);
    const char *text = apr_pstrcat(daemon->pool, variable, "\n", NULL);
    for (const char *const *argument = arguments; *argument; argument++)
        text = apr_pstrcat(daemon->pool, text, *argument, "\n", NULL);
    record(daemon, 'A', text, strlen(text));
}

spx_daemon_t *spx_daemon_start(const char *variable, const char *const *arguments,
                               const char *working_dir, apr_pool_t *pool)
{
    static const spx_daemon_options_t defaults = {0, 0};
    return spx_daemon_start_with(variable, arguments, working_dir, &defaults, pool);
}

spx_daemon_t *spx_daemon_start_with(const char *variable, const char *const *arguments,
                                    const char *working_dir, const spx_daemon_options_t *options,
                                    apr_pool_t *pool)
{
    spx_daemon_t *daemon = apr_pcalloc(pool, sizeof(*daemon));
    daemon->pool = pool;
    const char *program = spx_program_path(variable);
    spx_process_ignore_broken_pipes();
    if (!options->stderr_piped) {
        const char *temp = NULL;
        CU_ASSERT_EQUAL_FATAL(apr_temp_dir_get(&temp, pool), APR_SUCCESS);
        char *err_name = apr_pstrcat(pool, temp, "/spx-daemon-err-XXXXXX", NULL);
        CU_ASSERT_EQUAL_FATAL(apr_file_mktemp(&daemon->err, err_name, 0, pool), APR_SUCCESS);
        daemon->err_name = err_name;
    }

    const char **argv = spx_process_argv(&program, arguments, pool);

    apr_procattr_t *attributes = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_procattr_create(&attributes, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_procattr_io_set(attributes, APR_FULL_BLOCK, APR_FULL_BLOCK,
                                              options->stderr_piped ? APR_FULL_BLOCK : APR_NO_PIPE),
                          APR_SUCCESS);
    if (!options->stderr_piped)
        apr_procattr_child_err_set(attributes, daemon->err, NULL);
    apr_procattr_cmdtype_set(attributes, APR_PROGRAM_ENV);
    if (working_dir)
        apr_procattr_dir_set(attributes, working_dir);
    /* The daemon starts with SIGPIPE's default action, as from a shell (an
     * ignored signal would be inherited and hide a daemon that dies of it). */
    spx_process_default_broken_pipes();
    /* A failed start says why; it is tried again twice, 200 ms apart: once,
     * under Wine on a loaded CI machine, one start of many failed at once. */
    apr_status_t started = APR_EGENERAL;
    for (int attempt = 1; attempt <= 3 && started != APR_SUCCESS; attempt++) {
        if (attempt > 1)
            apr_sleep(apr_time_from_msec(200));
        started = apr_proc_create(&daemon->process, program, argv, NULL, attributes, pool);
        if (started != APR_SUCCESS) {
            char reason[256];
            fprintf(stderr, "\n  start %d of %s in %s failed: %s\n", attempt, program,
                    working_dir ? working_dir : "the current folder",
                    apr_strerror(started, reason, sizeof(reason)));
        }
    }
    spx_process_ignore_broken_pipes();
    CU_ASSERT_EQUAL_FATAL(started, APR_SUCCESS);
    if (options->stderr_piped) {
        daemon->err = daemon->process.err;
        daemon->err_pending_capacity = 4096;
        daemon->err_pending = apr_palloc(pool, daemon->err_pending_capacity);
    }
    daemon->input_open = 1;
    if (!options->unrecorded)
        start_transcript(daemon, variable, arguments);
    daemon->pending_capacity = 64 * 1024;
    daemon->pending = apr_palloc(pool, daemon->pending_capacity);
    return daemon;
}

void spx_daemon_kill(spx_daemon_t *daemon)
{
    apr_proc_kill(&daemon->process, SIGTERM);
}

int spx_daemon_pid(const spx_daemon_t *daemon)
{
    return (int)daemon->process.pid;
}

apr_status_t spx_daemon_send(spx_daemon_t *daemon, const void *bytes, apr_size_t length)
{
    if (!daemon->input_open)
        return APR_EOF;
    if (length > TRANSCRIPT_REQUEST_BYTES)
        record(daemon, 'X', NULL, length);
    else
        record(daemon, 'S', bytes, length);
    return apr_file_write_full(daemon->process.in, bytes, length, NULL);
}

/* Read more of the daemon's output into pending; 0 at its end. */
static int read_more(spx_daemon_t *daemon)
{
    if (daemon->output_ended)
        return 0;
    if (daemon->pending_capacity - daemon->pending_length < 4096) {
        apr_size_t capacity = daemon->pending_capacity * 2;
        char *grown = apr_palloc(daemon->pool, capacity);
        memcpy(grown, daemon->pending, daemon->pending_length);
        daemon->pending = grown;
        daemon->pending_capacity = capacity;
    }
    apr_size_t got = daemon->pending_capacity - daemon->pending_length;
    apr_status_t status =
        apr_file_read(daemon->process.out, daemon->pending + daemon->pending_length, &got);
    if (status != APR_SUCCESS || got == 0) {
        daemon->output_ended = 1;
        return 0;
    }
    daemon->pending_length += got;
    return 1;
}

const char *spx_daemon_read_line(spx_daemon_t *daemon)
{
    apr_size_t scanned = 0;
    for (;;) {
        char *lf = memchr(daemon->pending + scanned, '\n', daemon->pending_length - scanned);
        if (lf) {
            apr_size_t length = (apr_size_t)(lf - daemon->pending);
            char *line = apr_pstrndup(daemon->pool, daemon->pending, length);
            memmove(daemon->pending, lf + 1, daemon->pending_length - length - 1);
            daemon->pending_length -= length + 1;
            record(daemon, 'R', line, length);
            return line;
        }
        scanned = daemon->pending_length;
        if (!read_more(daemon))
            return NULL;
    }
}

/* Read more of the daemon's piped stderr into err_pending; 0 at its end. */
static int read_more_stderr(spx_daemon_t *daemon)
{
    if (daemon->err_ended)
        return 0;
    if (daemon->err_pending_capacity - daemon->err_pending_length < 1024) {
        apr_size_t capacity = daemon->err_pending_capacity * 2;
        char *grown = apr_palloc(daemon->pool, capacity);
        memcpy(grown, daemon->err_pending, daemon->err_pending_length);
        daemon->err_pending = grown;
        daemon->err_pending_capacity = capacity;
    }
    apr_size_t got = daemon->err_pending_capacity - daemon->err_pending_length;
    apr_status_t status =
        apr_file_read(daemon->err, daemon->err_pending + daemon->err_pending_length, &got);
    if (status != APR_SUCCESS || got == 0) {
        daemon->err_ended = 1;
        return 0;
    }
    daemon->err_pending_length += got;
    return 1;
}

const char *spx_daemon_read_stderr_line(spx_daemon_t *daemon)
{
    CU_ASSERT_PTR_NULL_FATAL(daemon->err_name); /* started with stderr_piped */
    apr_size_t scanned = 0;
    for (;;) {
        char *lf =
            memchr(daemon->err_pending + scanned, '\n', daemon->err_pending_length - scanned);
        if (lf) {
            apr_size_t length = (apr_size_t)(lf - daemon->err_pending);
            char *line = apr_pstrndup(daemon->pool, daemon->err_pending, length);
            memmove(daemon->err_pending, lf + 1, daemon->err_pending_length - length - 1);
            daemon->err_pending_length -= length + 1;
            return line;
        }
        scanned = daemon->err_pending_length;
        if (!read_more_stderr(daemon))
            return NULL;
    }
}

const char *spx_daemon_call(spx_daemon_t *daemon, const char *line)
{
    const char *framed = apr_pstrcat(daemon->pool, line, "\n", NULL);
    if (spx_daemon_send(daemon, framed, strlen(framed)) != APR_SUCCESS)
        return NULL;
    return spx_daemon_read_line(daemon);
}

json_t *spx_daemon_call_json(spx_daemon_t *daemon, const char *line)
{
    const char *response = spx_daemon_call(daemon, line);
    CU_ASSERT_PTR_NOT_NULL_FATAL(response);
    json_t *decoded = json_loads(response, 0, NULL);
    if (!decoded)
        fprintf(stderr, "\n  not JSON: %s\n", response);
    CU_ASSERT_PTR_NOT_NULL_FATAL(decoded);
    return decoded;
}

void spx_daemon_close_output(spx_daemon_t *daemon)
{
    if (daemon->output_closed)
        return;
    apr_file_close(daemon->process.out);
    daemon->output_closed = 1;
    daemon->output_ended = 1;
}

void spx_daemon_close_input(spx_daemon_t *daemon)
{
    if (daemon->input_open) {
        apr_file_close(daemon->process.in);
        daemon->input_open = 0;
    }
}

int spx_daemon_exited_within(spx_daemon_t *daemon, int seconds)
{
    for (int tick = 0; tick <= seconds * 10 && !daemon->waited; tick++) {
        int code = 0;
        apr_exit_why_e why;
        if (apr_proc_wait(&daemon->process, &code, &why, APR_NOWAIT) == APR_CHILD_DONE) {
            daemon->waited = 1;
            daemon->exit_code = why == APR_PROC_EXIT ? code : -1;
        } else {
            apr_sleep(apr_time_from_msec(100));
        }
    }
    return daemon->waited;
}

int spx_daemon_finish(spx_daemon_t *daemon)
{
    if (daemon->finished)
        return daemon->exit_code;
    spx_daemon_close_input(daemon);
    while (read_more(daemon))
        ;
    daemon->rest = apr_pstrndup(daemon->pool, daemon->pending, daemon->pending_length);
    record(daemon, 'T', daemon->pending, daemon->pending_length);
    if (daemon->transcript) {
        apr_file_close(daemon->transcript);
        daemon->transcript = NULL;
    }
    daemon->pending_length = 0;
    spx_daemon_close_output(daemon);
    if (!daemon->waited) {
        int code = 0;
        apr_exit_why_e why;
        apr_proc_wait(&daemon->process, &code, &why, APR_WAIT);
        daemon->exit_code = why == APR_PROC_EXIT ? code : -1;
        daemon->waited = 1;
    }
    daemon->finished = 1;

    if (!daemon->err_name) {
        /* Piped: what is left in the pipe, after the lines already read. */
        while (read_more_stderr(daemon))
            ;
        daemon->err_text =
            apr_pstrndup(daemon->pool, daemon->err_pending, daemon->err_pending_length);
        apr_file_close(daemon->err);
        return daemon->exit_code;
    }
    apr_off_t end = 0, start = 0;
    apr_file_seek(daemon->err, APR_END, &end);
    apr_file_seek(daemon->err, APR_SET, &start);
    char *text = apr_palloc(daemon->pool, (apr_size_t)end + 1);
    apr_size_t got = 0;
    if (end > 0)
        apr_file_read_full(daemon->err, text, (apr_size_t)end, &got);
    text[got] = '\0';
    daemon->err_text = text;
    apr_file_close(daemon->err);
    apr_file_remove(daemon->err_name, daemon->pool);
    return daemon->exit_code;
}

const char *spx_daemon_rest(spx_daemon_t *daemon)
{
    return daemon->rest ? daemon->rest : "";
}

const char *spx_daemon_stderr(spx_daemon_t *daemon)
{
    return daemon->err_text ? daemon->err_text : "";
}

const char *spx_error_line(int code, const char *id, apr_pool_t *pool)
{
    return apr_psprintf(
        pool, "{\"error\":{\"code\":%d,\"message\":\"%s\"},\"id\":%s,\"jsonrpc\":\"2.0\"}", code,
        spx_rpc_message(code), id);
}

const char *spx_error_message(int code, const char *detail, apr_pool_t *pool)
{
    size_t length = strlen(detail);
    if (length <= SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES)
        return apr_pstrcat(pool, spx_rpc_message(code), ": ", detail, NULL);
    size_t kept = SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES - 3;
    while (kept > 0 && ((unsigned char)detail[kept] & 0xc0) == 0x80)
        kept--;
    return apr_pstrcat(pool, spx_rpc_message(code), ": ", apr_pstrndup(pool, detail, kept), "...",
                       NULL);
}

/* 1 when message is code's fixed message, ": " and detail, which past
 * SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES is cut (at a UTF-8 boundary) and
 * ends with "..." (docs/protocol.md, Errors). */
static int message_says(const char *message, int code, const char *detail)
{
    const char *fixed = spx_rpc_message(code);
    size_t fixed_length = strlen(fixed);
    if (!message || !detail || strncmp(message, fixed, fixed_length) != 0 ||
        strncmp(message + fixed_length, ": ", 2) != 0)
        return 0;
    const char *sentence = message + fixed_length + 2;
    size_t length = strlen(sentence), detail_length = strlen(detail);
    if (length > SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES)
        return 0;
    if (strcmp(sentence, detail) == 0)
        return 1;
    /* cut: a prefix of the detail, and "..." */
    return detail_length > SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES && length > 3 &&
           strcmp(sentence + length - 3, "...") == 0 &&
           strncmp(sentence, detail, length - 3) == 0 &&
           length - 3 > SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES - 3 - 4;
}

int spx_error_matches(const char *line, int code, const char *id, const char *reason,
                      const char *detail_part, apr_pool_t *pool)
{
    const char *why = NULL;
    json_t *response = line ? json_loads(line, 0, NULL) : NULL;
    json_t *error = json_object_get(response, "error");
    json_t *data = json_object_get(error, "data");
    const char *got_reason = json_string_value(json_object_get(data, "reason"));
    const char *detail = json_string_value(json_object_get(data, "detail"));
    char *id_text = response ? json_dumps(json_object_get(response, "id"),
                                          JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS)
                             : NULL;
    if (!response)
        why = "not a JSON response";
    else if (json_object_size(response) != 3 || !error ||
             !json_is_string(json_object_get(response, "jsonrpc")) ||
             strcmp(json_string_value(json_object_get(response, "jsonrpc")), "2.0") != 0)
        why = "not a JSON-RPC error frame";
    else if (!id_text || strcmp(id_text, id) != 0)
        why = "another id";
    else if (json_integer_value(json_object_get(error, "code")) != code ||
             !json_is_integer(json_object_get(error, "code")))
        why = "another code";
    else if (!message_says(json_string_value(json_object_get(error, "message")), code, detail))
        why = "another message (the code's, then \": \" and data.detail, cut)";
    else if (!got_reason || (reason && strcmp(got_reason, reason) != 0))
        why = "another data.reason";
    else if (!detail || !detail[0] || (detail_part && !strstr(detail, detail_part)))
        why = "a data.detail without what it must say";
    free(id_text);
    json_decref(response);
    if (why)
        fprintf(stderr, "\n  %s: got %s\n  wanted code %d, id %s, reason %s, detail with '%s'\n",
                why, line ? line : "(no line)", code, id, reason ? reason : "(any)",
                detail_part ? detail_part : "");
    (void)pool;
    return why == NULL;
}

void spx_assert_error(const char *line, int code, const char *id, const char *reason,
                      const char *detail_part, apr_pool_t *pool)
{
    CU_ASSERT_TRUE(spx_error_matches(line, code, id, reason, detail_part, pool));
}

const char *spx_error_detail(const char *line, apr_pool_t *pool)
{
    json_t *response = line ? json_loads(line, 0, NULL) : NULL;
    const char *detail = json_string_value(
        json_object_get(json_object_get(json_object_get(response, "error"), "data"), "detail"));
    const char *copy = detail ? apr_pstrdup(pool, detail) : NULL;
    json_decref(response);
    return copy;
}

void spx_daemon_copy_hello(spx_fixture_t *fixture, const char *dir)
{
    static const char *const files[] = {"semaprax.toml", "src/app.spx", "src/math.spx",
                                        "src/text.spx", "src/words.spx"};
    const char *examples = getenv("SPX_EXAMPLES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(examples);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        apr_size_t length = 0;
        const char *text =
            spx_corpus_read(apr_pstrcat(fixture->pool, examples, "/hello/", files[i], NULL),
                            &length, fixture->pool);
        spx_fixture_write(fixture, apr_pstrcat(fixture->pool, dir, "/", files[i], NULL), text);
    }
}

/* The arguments --stdio --manifest-path FIXTURE/dir/semaprax.toml extra... */
static const char **arguments_on(spx_fixture_t *fixture, const char *dir, const char *const *extra)
{
    apr_size_t count = 0;
    while (extra[count])
        count++;
    const char **arguments = apr_palloc(fixture->pool, (count + 4) * sizeof(*arguments));
    /* --stdio, unless extra names the other transport (--mcp first). */
    int mcp = count > 0 && strcmp(extra[0], "--mcp") == 0;
    arguments[0] = mcp ? "--mcp" : "--stdio";
    arguments[1] = "--manifest-path";
    arguments[2] =
        spx_fixture_path(fixture, apr_pstrcat(fixture->pool, dir, "/semaprax.toml", NULL));
    for (apr_size_t i = (apr_size_t)mcp; i < count; i++)
        arguments[3 + i - (apr_size_t)mcp] = extra[i];
    arguments[3 + count - (apr_size_t)mcp] = NULL;
    return arguments;
}

spx_daemon_t *spx_daemon_start_on(spx_fixture_t *fixture, const char *dir, const char *const *extra)
{
    return spx_daemon_start("SPX_SEMAPRAXD", arguments_on(fixture, dir, extra), fixture->root,
                            fixture->pool);
}

spx_daemon_t *spx_daemon_start_on_with(spx_fixture_t *fixture, const char *dir,
                                       const char *const *extra,
                                       const spx_daemon_options_t *options)
{
    return spx_daemon_start_with("SPX_SEMAPRAXD", arguments_on(fixture, dir, extra), fixture->root,
                                 options, fixture->pool);
}

spx_daemon_t *spx_daemon_start_pausing(spx_fixture_t *fixture, const char *dir,
                                       const char *const *extra, const char *pause_variable,
                                       const char **pause_dir)
{
    spx_fixture_mkdir(fixture, "pause");
    *pause_dir = spx_fixture_path(fixture, "pause");
    CU_ASSERT_EQUAL_FATAL(apr_env_set(pause_variable, *pause_dir, fixture->pool), APR_SUCCESS);
    spx_daemon_t *daemon = spx_daemon_start("SPX_SEMAPRAXD_TEST", arguments_on(fixture, dir, extra),
                                            fixture->root, fixture->pool);
    apr_env_delete(pause_variable, fixture->pool);
    return daemon;
}

const char *spx_daemon_open(spx_daemon_t *daemon)
{
    json_t *opened = spx_daemon_call_json(
        daemon, "{\"id\":\"open\",\"jsonrpc\":\"2.0\",\"method\":\"workspace/open\"}");
    json_t *result = json_object_get(opened, "result");
    const char *project = json_string_value(json_object_get(result, "project_revision"));
    const char *workspace = json_string_value(json_object_get(result, "workspace_revision"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(project);
    CU_ASSERT_PTR_NOT_NULL_FATAL(workspace);
    const char *params =
        apr_psprintf(daemon->pool, "\"project_revision\":\"%s\",\"workspace_revision\":\"%s\"",
                     project, workspace);
    json_decref(opened);
    return params;
}

const char *spx_request_line(const char *id, const char *method, const char *params,
                             apr_pool_t *pool)
{
    return apr_psprintf(pool, "{\"id\":%s,\"jsonrpc\":\"2.0\",\"method\":\"%s\",\"params\":{%s}}",
                        id, method, params);
}

void spx_daemon_wait_for_pause(spx_fixture_t *fixture, const char *pause_dir)
{
    const char *paused = apr_pstrcat(fixture->pool, pause_dir, "/paused", NULL);
    apr_finfo_t info;
    int waited = 0;
    while (apr_stat(&info, paused, APR_FINFO_TYPE, fixture->pool) != APR_SUCCESS) {
        CU_ASSERT_FATAL(waited++ < 30000); /* 30 s */
        apr_sleep(apr_time_from_msec(1));
    }
}

void spx_daemon_resume(spx_fixture_t *fixture, const char *pause_dir)
{
    apr_file_t *file = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_file_open(&file, apr_pstrcat(fixture->pool, pause_dir, "/go", NULL),
                                        APR_FOPEN_WRITE | APR_FOPEN_CREATE, APR_FPROT_OS_DEFAULT,
                                        fixture->pool),
                          APR_SUCCESS);
    apr_file_close(file);
}

void spx_daemon_write_spin_project(spx_fixture_t *fixture)
{
    spx_fixture_write(fixture, "proj/semaprax.toml",
                      "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"spin\"\n"
                      "version = \"1.0.0\"\n\n[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n\n"
                      "[[test]]\nname = \"spin\"\nfunction = \"app.spin\"\n\n"
                      "[[test]]\nname = \"quick\"\nfunction = \"app.quick\"\n");
    spx_fixture_write(fixture, "proj/app.spx",
                      "fn spin() -> int {\n  var i = 0;\n  while true {\n    i = i + 1;\n  }\n"
                      "  return 0;\n}\n\nfn quick() -> int {\n  return 0;\n}\n");
}

const char *spx_daemon_result_line(const char *id, const char *document, apr_pool_t *pool)
{
    size_t length = strlen(document);
    CU_ASSERT_FATAL(length > 0 && document[length - 1] == '\n');
    return apr_psprintf(pool, "{\"id\":%s,\"jsonrpc\":\"2.0\",\"result\":%.*s}", id,
                        (int)(length - 1), document);
}

void spx_daemon_assert_line(const char *actual, const char *expected)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(actual);
    if (strcmp(actual, expected) != 0)
        fprintf(stderr, "\n  got      %.300s\n  expected %.300s\n", actual, expected);
    CU_ASSERT_STRING_EQUAL(actual, expected);
}
