/*
 * spx_daemon.h: driving the real `semapraxd` in process tests: start it with
 * pipes for standard input and output (standard error goes to a file, or to
 * a third pipe), send request bytes, read response lines, close its input,
 * wait for its exit.
 */
#ifndef SPX_DAEMON_H
#define SPX_DAEMON_H

#include "spx_test.h"

#include <apr_pools.h>
#include <jansson.h>

typedef struct spx_daemon_t spx_daemon_t;

/* Start the program named by the environment variable (SPX_SEMAPRAXD, set by
 * tests/CMakeLists.txt) with the NULL-terminated arguments (argv[0]
 * excluded) in working_dir (NULL: the current one); in the valgrind build
 * under memcheck (spx_process_argv), exiting 99 on an error or a leak. */
spx_daemon_t *spx_daemon_start(const char *variable, const char *const *arguments,
                               const char *working_dir, apr_pool_t *pool);

/* How spx_daemon_start_with starts it (spx_daemon_start: all 0). */
typedef struct spx_daemon_options_t {
    /* Standard error is a pipe, which the test reads only when it wants to
     * (spx_daemon_read_stderr_line, spx_daemon_stderr once finished), as a
     * client that pipes it and never reads it would; else a file. */
    int stderr_piped;
    /* No transcript of this session (a session of 100,000 alike requests
     * would only slow the schema test down). */
    int unrecorded;
} spx_daemon_options_t;

spx_daemon_t *spx_daemon_start_with(const char *variable, const char *const *arguments,
                                    const char *working_dir, const spx_daemon_options_t *options,
                                    apr_pool_t *pool);

/* Write bytes to the daemon's standard input; APR_SUCCESS or why not (a
 * daemon that has exited makes it fail, it never raises SIGPIPE here). */
apr_status_t spx_daemon_send(spx_daemon_t *daemon, const void *bytes, apr_size_t length);

/* The next response line, LF excluded, or NULL at end of its output. */
const char *spx_daemon_read_line(spx_daemon_t *daemon);

/* Send line plus an LF and read one response line (NULL at end of output). */
const char *spx_daemon_call(spx_daemon_t *daemon, const char *line);

/* spx_daemon_call, decoded; the test must json_decref it. Fails the test
 * when there is no response or it is not JSON. */
json_t *spx_daemon_call_json(spx_daemon_t *daemon, const char *line);

/* Close the daemon's standard input, read the rest of its output, and wait:
 * its exit code (-1 when it did not exit normally: killed by a signal). */
int spx_daemon_finish(spx_daemon_t *daemon);

/* Close our end of the daemon's standard output, as a client that stops
 * reading does: the daemon's next write fails (EPIPE, or SIGPIPE where it is
 * not ignored). Nothing more can be read from it. */
void spx_daemon_close_output(spx_daemon_t *daemon);

/* Close the daemon's standard input without waiting for it. */
void spx_daemon_close_input(spx_daemon_t *daemon);

/* 1 when the daemon has exited (by itself) within seconds, else 0; it is
 * not stopped either way. spx_daemon_finish then gives its exit code. */
int spx_daemon_exited_within(spx_daemon_t *daemon, int seconds);

/* The next line of its piped standard error (stderr_piped), LF excluded,
 * waiting for it; NULL at its end. */
const char *spx_daemon_read_stderr_line(spx_daemon_t *daemon);

/* End the daemon now (SIGTERM; TerminateProcess on Windows), e.g. from a
 * watchdog thread when it has stopped answering: the test's reads then meet
 * the end of its output and its writes fail. spx_daemon_finish still waits
 * for it. */
void spx_daemon_kill(spx_daemon_t *daemon);

/* What it wrote after the last line read, once finished; and its stderr
 * (piped: what the test had not read line by line). */
const char *spx_daemon_rest(spx_daemon_t *daemon);
const char *spx_daemon_stderr(spx_daemon_t *daemon);

/* The process id while it runs. */
int spx_daemon_pid(const spx_daemon_t *daemon);

/* The exact error line the daemon writes for code and id (id as JSON text,
 * e.g. "null", "7", "\"a\""). */
const char *spx_error_line(int code, const char *id, apr_pool_t *pool);

/* 1 when line is an error the daemon (v2, v3) writes for code and id (id as
 * JSON text): the code's message, data.reason equal to reason (any string
 * when NULL), and a data.detail that contains detail_part (any nonempty one
 * when NULL); else 0, saying on stderr what differs. */
int spx_error_matches(const char *line, int code, const char *id, const char *reason,
                      const char *detail_part, apr_pool_t *pool);

/* CU_ASSERT of spx_error_matches. */
void spx_assert_error(const char *line, int code, const char *id, const char *reason,
                      const char *detail_part, apr_pool_t *pool);

/* The message a v2, v3 or MCP error of code with data.detail detail carries:
 * the code's fixed message, ": " and detail, cut past
 * SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES at a UTF-8 boundary and ended with
 * "..." (in pool; JSON-escaped as the canonical writer escapes when escaped). */
const char *spx_error_message(int code, const char *detail, apr_pool_t *pool);

/* The data.detail of an error line (in pool), or NULL. */
const char *spx_error_detail(const char *line, apr_pool_t *pool);

/* Copy the example project examples/hello (its manifest and its four sources) into
 * the fixture's folder dir. */
void spx_daemon_copy_hello(spx_fixture_t *fixture, const char *dir);

/* The project "proj" of the call-time tests: its test "spin" loops for
 * ever, "quick" passes. */
void spx_daemon_write_spin_project(spx_fixture_t *fixture);

/* Start SPX_SEMAPRAXD on dir/semaprax.toml of the fixture (absolute path),
 * with extra arguments (NULL-terminated, may be empty), in the fixture:
 * --stdio, or --mcp when extra begins with it. */
spx_daemon_t *spx_daemon_start_on(spx_fixture_t *fixture, const char *dir,
                                  const char *const *extra);

/* spx_daemon_start_on with options. */
spx_daemon_t *spx_daemon_start_on_with(spx_fixture_t *fixture, const char *dir,
                                       const char *const *extra,
                                       const spx_daemon_options_t *options);

/* Send workspace/open, which must succeed; the two revisions as params text
 * "\"project_revision\":\"...\",\"workspace_revision\":\"...\"" for
 * building semantic requests. */
const char *spx_daemon_open(spx_daemon_t *daemon);

/* The response line with id that carries document as its result: document
 * being a CLI's output, LF included, so that a test compares the daemon's
 * answer with the CLI's byte for byte. */
const char *spx_daemon_result_line(const char *id, const char *document, apr_pool_t *pool);

/* Assert that a response line is there and is expected, printing both (the
 * first 300 bytes of each) when it is not. */
void spx_daemon_assert_line(const char *actual, const char *expected);

/* The request line {"id":ID,"jsonrpc":"2.0","method":METHOD,"params":{PARAMS}}
 * (PARAMS without braces, may be ""). */
const char *spx_request_line(const char *id, const char *method, const char *params,
                             apr_pool_t *pool);

/* Start the test-only daemon (SPX_SEMAPRAXD_TEST) on dir/semaprax.toml of
 * the fixture with extra arguments (NULL-terminated, may be empty), its
 * environment variable pause_variable (SPX_TEST_PAUSE_DIR, ...) naming a new
 * folder "pause" of the fixture, whose path *pause_dir is set to. */
spx_daemon_t *spx_daemon_start_pausing(spx_fixture_t *fixture, const char *dir,
                                       const char *const *extra, const char *pause_variable,
                                       const char **pause_dir);

/* The test-only daemon's pauses (transport/daemon/session_hooks_test.c): wait
 * until it has created "paused" in pause_dir (failing the test after 30 s),
 * and let it go on by creating "go" there. */
void spx_daemon_wait_for_pause(spx_fixture_t *fixture, const char *pause_dir);
void spx_daemon_resume(spx_fixture_t *fixture, const char *pause_dir);

/* A memory figure of a running process, in KiB: its peak or current resident
 * memory (Linux: VmHWM, VmRSS of /proc/PID/status; macOS: the lifetime peak
 * and current physical footprint; Windows: the peak and current working
 * set); -1 where the system does not say.
 * (tests/support/posix/ or win32/) */
typedef enum spx_memory_figure_t { SPX_MEMORY_PEAK, SPX_MEMORY_NOW } spx_memory_figure_t;
long spx_process_memory_kib(int pid, spx_memory_figure_t figure);

/* Whether the tests run under Wine, whose own libraries, mapped into every
 * Windows process it runs, make up most of a small process's working set
 * (about 17 MiB for the daemon at rest): absolute memory bounds then say
 * nothing about the project's code. Never on POSIX. */
int spx_running_under_wine(void);

#endif /* SPX_DAEMON_H */
