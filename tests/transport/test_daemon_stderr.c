/*
 * test_daemon_stderr.c: process tests of the daemon's standard error
 * (transport/spx_log.h) as a client sees it that pipes it and never reads
 * it: 100,000 refused requests of every kind (unknown method, context of an
 * unknown target, invalid params, bad JSON) are each answered with the
 * right error, the daemon then shuts down with exit 0, and its stderr holds
 * no more than the bounded number of lines; with --verbose the same kind of
 * refusal does say a line each (read as it comes, so nothing blocks); and
 * the session's own events (committed renames) stop at the budget with one
 * last line, when stderr is never read until the end. A watchdog ends a
 * daemon that stops answering, so that a blocked daemon fails the test
 * instead of hanging it.
 */
#include "spx_daemon.h"
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <apr_thread_cond.h>
#include <apr_thread_mutex.h>
#include <apr_thread_proc.h>
#include <apr_time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The refused requests of one session; fewer when the daemon runs under
 * valgrind (SPX_PROGRAM_WRAPPER), where each costs twenty times more, or
 * as many as SPX_TEST_REFUSED_REQUESTS says: ci/test-windows sets 10,000,
 * since under Wine every pipe transfer and file check of the daemon's
 * re-authentication goes through the wine server and 100,000 took over ten
 * minutes (10,000 still write far more than any pipe holds, were they
 * logged). */
#define REFUSED_REQUESTS 100000
#define REFUSED_REQUESTS_UNDER_VALGRIND 20000

static long refused_requests(void)
{
    const char *given = getenv("SPX_TEST_REFUSED_REQUESTS");
    long count = given ? atol(given) : 0;
    if (count > 0)
        return count;
    return getenv("SPX_PROGRAM_WRAPPER") ? REFUSED_REQUESTS_UNDER_VALGRIND : REFUSED_REQUESTS;
}

/* The requests written before their answers are read: at most what the
 * smallest pipe buffer of the three systems holds (4 KiB), so that the
 * writes always complete even when the daemon cannot write an answer
 * until this test reads: neither side can wait for the other. */
#define CHUNK_BYTES 4096

/* A daemon that has answered nothing for this long is ended. */
#define STALL_SECONDS 60

/* With --verbose: refused context requests, each read back as a line; more
 * than the default session's whole budget. */
#define VERBOSE_REQUESTS (2 * SPX_LIMIT_LOG_LINES)

/* Committed renames in one session: each is one of the session's own
 * events, twice as many as the default budget of lines. */
#define RENAMES (2 * SPX_LIMIT_LOG_LINES)

/* How every line the daemon says starts. */
#define DAEMON_LINE_PREFIX "semapraxd: "

/* Names no project has, so that a line about a request can be found. */
#define UNKNOWN_TARGET "math.stderr_unknown_"

typedef enum refusal_kind_t {
    REFUSAL_UNKNOWN_METHOD,
    REFUSAL_UNKNOWN_TARGET,
    REFUSAL_UNKNOWN_PARAM,
    REFUSAL_CONTEXT_DEPTH,
    REFUSAL_BAD_JSON,
    REFUSAL_KINDS
} refusal_kind_t;

/* Request number (which is also its id) of a mix of every kind, LF included:
 * its line, and the code of its answer. Bad JSON is answered with id null. */
static const char *refused_request(long number, const char *revisions, int *code, apr_pool_t *pool)
{
    const char *id = apr_psprintf(pool, "%ld", number);
    switch ((refusal_kind_t)(number % REFUSAL_KINDS)) {
    case REFUSAL_UNKNOWN_METHOD:
        *code = SPX_RPC_METHOD_NOT_FOUND;
        return apr_psprintf(pool, "{\"id\":%s,\"jsonrpc\":\"2.0\",\"method\":\"stderr/unknown\"}\n",
                            id);
    case REFUSAL_UNKNOWN_TARGET:
        *code = SPX_RPC_INVALID_PARAMS;
        return apr_pstrcat(
            pool,
            spx_request_line(id, "context",
                             apr_psprintf(pool,
                                          "%s,\"target_kind\":\"function\",\"target\":\"%s%ld\"",
                                          revisions, UNKNOWN_TARGET, number),
                             pool),
            "\n", NULL);
    case REFUSAL_UNKNOWN_PARAM:
        *code = SPX_RPC_INVALID_PARAMS;
        return apr_pstrcat(pool, spx_request_line(id, "ping", "\"stderr\":1", pool), "\n", NULL);
    case REFUSAL_CONTEXT_DEPTH:
        *code = SPX_RPC_INVALID_PARAMS;
        return apr_pstrcat(
            pool,
            spx_request_line(
                id, "context",
                apr_pstrcat(pool, revisions,
                            ",\"target_kind\":\"function\",\"target\":\"math.fib\",\"depth\":99",
                            NULL),
                pool),
            "\n", NULL);
    default:
        *code = SPX_RPC_PARSE_ERROR;
        return apr_psprintf(pool, "{\"id\":%s,\"jsonrpc\":\n", id);
    }
}

/* Whether answer is the error code for request number (id null for bad
 * JSON), with a message that begins with the code's and no result; says
 * why not. */
static int answers(const char *answer, long number, int code)
{
    json_t *decoded = json_loads(answer, 0, NULL);
    json_t *error = json_object_get(decoded, "error");
    json_t *id = json_object_get(decoded, "id");
    int expected_id = code == SPX_RPC_PARSE_ERROR
                          ? json_is_null(id)
                          : json_is_integer(id) && json_integer_value(id) == number;
    const char *message = json_string_value(json_object_get(error, "message"));
    int right = decoded && expected_id && !json_object_get(decoded, "result") &&
                json_integer_value(json_object_get(error, "code")) == code && message &&
                strncmp(message, spx_rpc_message(code), strlen(spx_rpc_message(code))) == 0;
    if (!right)
        fprintf(stderr, "\n  request %ld: expected error %d, got %.300s\n", number, code, answer);
    json_decref(decoded);
    return right;
}

/* Ends the daemon when the test has read no answer for STALL_SECONDS. */
typedef struct watchdog_t {
    spx_daemon_t *daemon;
    apr_thread_mutex_t *lock;
    apr_thread_cond_t *wake;
    long answered; /* answers read so far, told by the test */
    int done;      /* the test is finished with the daemon */
    int fired;     /* the daemon was ended */
    apr_thread_t *thread;
} watchdog_t;

static void *APR_THREAD_FUNC watch(apr_thread_t *thread, void *data)
{
    watchdog_t *watchdog = data;
    apr_thread_mutex_lock(watchdog->lock);
    long seen = -1;
    apr_time_t since = apr_time_now();
    while (!watchdog->done) {
        if (watchdog->answered != seen) {
            seen = watchdog->answered;
            since = apr_time_now();
        } else if (apr_time_now() - since > apr_time_from_sec(STALL_SECONDS)) {
            watchdog->fired = 1;
            spx_daemon_kill(watchdog->daemon);
            break;
        }
        apr_thread_cond_timedwait(watchdog->wake, watchdog->lock, apr_time_from_sec(1));
    }
    apr_thread_mutex_unlock(watchdog->lock);
    apr_thread_exit(thread, APR_SUCCESS);
    return NULL;
}

static void watchdog_start(watchdog_t *watchdog, spx_daemon_t *daemon, apr_pool_t *pool)
{
    memset(watchdog, 0, sizeof(*watchdog));
    watchdog->daemon = daemon;
    CU_ASSERT_EQUAL_FATAL(apr_thread_mutex_create(&watchdog->lock, APR_THREAD_MUTEX_DEFAULT, pool),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_thread_cond_create(&watchdog->wake, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_thread_create(&watchdog->thread, NULL, watch, watchdog, pool),
                          APR_SUCCESS);
}

static void watchdog_progress(watchdog_t *watchdog, long answered)
{
    apr_thread_mutex_lock(watchdog->lock);
    watchdog->answered = answered;
    apr_thread_mutex_unlock(watchdog->lock);
}

/* Stop watching: whether the daemon had to be ended. */
static int watchdog_stop(watchdog_t *watchdog)
{
    apr_thread_mutex_lock(watchdog->lock);
    watchdog->done = 1;
    apr_thread_cond_signal(watchdog->wake);
    apr_thread_mutex_unlock(watchdog->lock);
    apr_status_t ignored;
    apr_thread_join(&ignored, watchdog->thread);
    return watchdog->fired;
}

static long count_lines(const char *text)
{
    long lines = 0;
    for (const char *lf = strchr(text, '\n'); lf; lf = strchr(lf + 1, '\n'))
        lines++;
    return lines;
}

/* The daemon's own lines of text (they start with "semapraxd: ") and their
 * bytes, LF included. Under Wine, whose own messages (WINEDEBUG) would go to
 * the same stderr, only these are counted; elsewhere every line must be one. */
static long daemon_lines(const char *text, apr_size_t *bytes)
{
    long lines = 0;
    *bytes = 0;
    for (const char *line = text; *line;) {
        const char *lf = strchr(line, '\n');
        apr_size_t length = lf ? (apr_size_t)(lf - line) + 1 : strlen(line);
        if (strncmp(line, DAEMON_LINE_PREFIX, strlen(DAEMON_LINE_PREFIX)) == 0) {
            lines++;
            *bytes += length;
        }
        line += length;
    }
    if (!spx_running_under_wine())
        CU_ASSERT_EQUAL(lines, count_lines(text));
    return lines;
}

/* The next line the daemon said on its piped stderr (under Wine, past any
 * of Wine's own); NULL at its end. */
static const char *next_daemon_line(spx_daemon_t *daemon)
{
    for (;;) {
        const char *line = spx_daemon_read_stderr_line(daemon);
        if (!line || strncmp(line, DAEMON_LINE_PREFIX, strlen(DAEMON_LINE_PREFIX)) == 0 ||
            !spx_running_under_wine())
            return line;
    }
}

static void test_unread_stderr_never_blocks_the_daemon(void)
{
    long total = refused_requests();
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_copy_hello(fixture, "proj");
    /* Unrecorded: the schema test would check 100,000 alike refusals. */
    const spx_daemon_options_t options = {.stderr_piped = 1, .unrecorded = 1};
    spx_daemon_t *daemon =
        spx_daemon_start_on_with(fixture, "proj", (const char *const[]){NULL}, &options);
    const char *revisions = spx_daemon_open(daemon);
    watchdog_t watchdog;
    watchdog_start(&watchdog, daemon, fixture->pool);
    apr_time_t started = apr_time_now();

    apr_pool_t *chunk_pool = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_pool_create(&chunk_pool, fixture->pool), APR_SUCCESS);
    char *chunk = malloc(CHUNK_BYTES);
    int *codes = malloc(CHUNK_BYTES * sizeof(*codes)); /* a request is longer than a byte */
    CU_ASSERT_FATAL(chunk && codes);
    long answered = 0, wrong = 0, next = 0;
    int ended = 0;
    while (next < total && !ended) {
        apr_pool_clear(chunk_pool);
        long first = next;
        apr_size_t used = 0;
        while (next < total) {
            int code = 0;
            const char *line = refused_request(next, revisions, &code, chunk_pool);
            apr_size_t length = strlen(line);
            CU_ASSERT_FATAL(length <= CHUNK_BYTES);
            if (used + length > CHUNK_BYTES)
                break;
            memcpy(chunk + used, line, length);
            codes[next - first] = code;
            used += length;
            next++;
        }
        if (spx_daemon_send(daemon, chunk, used) != APR_SUCCESS)
            break;
        for (long number = first; number < next; number++) {
            const char *answer = spx_daemon_read_line(daemon);
            if (!answer) {
                ended = 1;
                break;
            }
            if (!answers(answer, number, codes[number - first]) && ++wrong >= 10)
                ended = 1;
            answered++;
        }
        watchdog_progress(&watchdog, answered);
    }
    free(chunk);
    free(codes);
    apr_time_t took = apr_time_now() - started;

    /* Then a clean shutdown. */
    const char *shutdown =
        spx_daemon_call(daemon, "{\"id\":\"end\",\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"}");
    CU_ASSERT_PTR_NOT_NULL(shutdown);
    if (shutdown)
        CU_ASSERT_STRING_EQUAL(
            shutdown, "{\"id\":\"end\",\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"shutdown\"}}");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    int fired = watchdog_stop(&watchdog);
    if (answered < total)
        fprintf(stderr, "\n  the daemon stopped answering after %ld of %ld requests%s\n", answered,
                total, fired ? " and was ended (blocked on its standard error?)" : "");
    CU_ASSERT_FALSE(fired);
    CU_ASSERT_EQUAL(answered, total);
    CU_ASSERT_EQUAL(wrong, 0);

    /* Read only now: the session's own events, never one per request. */
    const char *said = spx_daemon_stderr(daemon);
    apr_size_t bytes = 0;
    long lines = daemon_lines(said, &bytes);
    fprintf(stderr,
            "\n  %ld refused requests answered in %.1f s; the daemon's unread stderr: %ld lines, "
            "%" APR_SIZE_T_FMT " bytes\n",
            answered, (double)took / APR_USEC_PER_SEC, lines, bytes);
    CU_ASSERT_TRUE(lines <= (long)SPX_LIMIT_LOG_LINES + 1);
    CU_ASSERT_TRUE(bytes <= (SPX_LIMIT_LOG_LINES + 1) * SPX_LIMIT_LOG_LINE_BYTES);
    if (strstr(said, UNKNOWN_TARGET))
        fprintf(stderr, "\n  a refused request was said on stderr:\n%.1000s\n", said);
    CU_ASSERT_PTR_NULL(strstr(said, UNKNOWN_TARGET));
    spx_fixture_free(fixture);
}

/* The counter-case: with --verbose each refused context request is a line,
 * which this test reads as it comes (unread, they would fill the pipe). */
static void test_verbose_says_a_line_per_refused_context(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    const spx_daemon_options_t options = {.stderr_piped = 1, .unrecorded = 0};
    spx_daemon_t *daemon = spx_daemon_start_on_with(
        fixture, "proj", (const char *const[]){"--verbose", NULL}, &options);
    const char *revisions = spx_daemon_open(daemon);
    watchdog_t watchdog;
    watchdog_start(&watchdog, daemon, pool);
    long said = 0;
    for (long number = REFUSAL_UNKNOWN_TARGET; number < (long)(REFUSAL_KINDS * VERBOSE_REQUESTS);
         number += REFUSAL_KINDS) {
        int code = 0;
        const char *request = refused_request(number, revisions, &code, pool);
        CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, request, strlen(request)), APR_SUCCESS);
        const char *answer = spx_daemon_read_line(daemon);
        CU_ASSERT_PTR_NOT_NULL_FATAL(answer);
        CU_ASSERT_TRUE(answers(answer, number, code));
        /* Said before the answer was written. */
        const char *line = next_daemon_line(daemon);
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        const char *target = apr_psprintf(pool, "%s%ld", UNKNOWN_TARGET, number);
        spx_assert_contains(line, "semapraxd: context: ");
        spx_assert_contains(line, target);
        said++;
        watchdog_progress(&watchdog, said);
    }
    CU_ASSERT_EQUAL(said, VERBOSE_REQUESTS);
    CU_ASSERT_TRUE(said > (long)SPX_LIMIT_LOG_LINES + 1); /* more than the default allows */
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_FALSE(watchdog_stop(&watchdog));
    spx_fixture_free(fixture);
}

/* The budget is real: 32 committed renames are 32 events of the session,
 * and its unread stderr holds the first SPX_LIMIT_LOG_LINES and one line
 * saying that the rest is not shown. */
static void test_the_session_events_stop_at_the_budget(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    const spx_daemon_options_t options = {.stderr_piped = 1, .unrecorded = 0};
    spx_daemon_t *daemon = spx_daemon_start_on_with(
        fixture, "proj", (const char *const[]){"--allow-project-rename", NULL}, &options);
    const char *revisions = spx_daemon_open(daemon);
    watchdog_t watchdog;
    watchdog_start(&watchdog, daemon, pool);
    const char *name = "fib";
    for (int i = 0; i < (int)RENAMES; i++) {
        const char *new_name = apr_psprintf(pool, "fib_%d", i);
        json_t *renamed = spx_daemon_call_json(
            daemon,
            spx_request_line(apr_psprintf(pool, "%d", i), "project/rename",
                             apr_psprintf(pool, "%s,\"function\":\"math.%s\",\"new_name\":\"%s\"",
                                          revisions, name, new_name),
                             pool));
        json_t *result = json_object_get(renamed, "result");
        CU_ASSERT_TRUE_FATAL(json_is_true(json_object_get(result, "committed")));
        revisions = apr_psprintf(pool, "\"project_revision\":\"%s\",\"workspace_revision\":\"%s\"",
                                 json_string_value(json_object_get(result, "project_revision")),
                                 json_string_value(json_object_get(result, "workspace_revision")));
        json_decref(renamed);
        name = new_name;
        watchdog_progress(&watchdog, i + 1);
    }
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_FALSE(watchdog_stop(&watchdog));
    const char *said = spx_daemon_stderr(daemon);
    apr_size_t bytes = 0;
    CU_ASSERT_EQUAL(daemon_lines(said, &bytes), (long)SPX_LIMIT_LOG_LINES + 1);
    spx_assert_contains(said, "semapraxd: renamed math.fib to fib_0 in ");
    spx_assert_contains(said, apr_psprintf(pool, "semapraxd: renamed math.fib_%u to fib_%u in ",
                                           SPX_LIMIT_LOG_LINES - 2, SPX_LIMIT_LOG_LINES - 1));
    CU_ASSERT_PTR_NULL(strstr(said, apr_psprintf(pool, "to fib_%u in", SPX_LIMIT_LOG_LINES)));
    const char *last = strstr(said, "semapraxd: further"); /* the line after the budget */
    CU_ASSERT_PTR_NOT_NULL_FATAL(last);
    CU_ASSERT_PTR_NULL(strstr(last + 1, DAEMON_LINE_PREFIX));
    spx_assert_contains(last, "--verbose");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"100,000 refused requests (fewer under valgrind and Wine), stderr piped and never read",
         test_unread_stderr_never_blocks_the_daemon},
        {"--verbose: a line per refused context request",
         test_verbose_says_a_line_per_refused_context},
        {"the session's own events stop at the budget", test_the_session_events_stop_at_the_budget},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("test_daemon_stderr", tests);
}
