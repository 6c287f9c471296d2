/*
 * daemon.c: starts the real daemon over pipes with APR and talks to it one
 * line at a time (spx_daemon.h). When the environment names a transcript
 * folder (SPX_TRANSCRIPT_DIR, set by tests/CMakeLists.txt), every session's
 * arguments, request bytes and response lines are recorded there for the
 * schema test (tests/schema/validate.py).
 */
#include "spx_daemon.h"

#include "spx_corpus.h"
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
    apr_file_t *err;
    const char *err_name;
    const char *err_text;
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
    spx_daemon_t *daemon = apr_pcalloc(pool, sizeof(*daemon));
    daemon->pool = pool;
    const char *program = spx_program_path(variable);
    spx_process_ignore_broken_pipes();
    const char *temp = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_temp_dir_get(&temp, pool), APR_SUCCESS);
    char *err_name = apr_pstrcat(pool, temp, "/spx-daemon-err-XXXXXX", NULL);
    CU_ASSERT_EQUAL_FATAL(apr_file_mktemp(&daemon->err, err_name, 0, pool), APR_SUCCESS);
    daemon->err_name = err_name;

    const char **argv = spx_process_argv(&program, arguments, pool);

    apr_procattr_t *attributes = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_procattr_create(&attributes, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(
        apr_procattr_io_set(attributes, APR_FULL_BLOCK, APR_FULL_BLOCK, APR_NO_PIPE), APR_SUCCESS);
    apr_procattr_child_err_set(attributes, daemon->err, NULL);
    apr_procattr_cmdtype_set(attributes, APR_PROGRAM_ENV);
    if (working_dir)
        apr_procattr_dir_set(attributes, working_dir);
    /* The daemon starts with SIGPIPE's default action, as from a shell (an
     * ignored signal would be inherited and hide a daemon that dies of it). */
    spx_process_default_broken_pipes();
    apr_status_t started = apr_proc_create(&daemon->process, program, argv, NULL, attributes, pool);
    spx_process_ignore_broken_pipes();
    CU_ASSERT_EQUAL_FATAL(started, APR_SUCCESS);
    daemon->input_open = 1;
    start_transcript(daemon, variable, arguments);
    daemon->pending_capacity = 64 * 1024;
    daemon->pending = apr_palloc(pool, daemon->pending_capacity);
    return daemon;
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
