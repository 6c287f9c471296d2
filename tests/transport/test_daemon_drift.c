/*
 * test_daemon_drift.c: process tests of drift in the real daemon: every kind
 * of change the input-authentication suite covers, made between requests,
 * makes the next semantic request answer -32013 with the drift list, every
 * later one too, and workspace/open does not reopen; a change made after a
 * response was rendered (in the pause of the test-only daemon) withholds it;
 * and a whole session of every method writes nothing (zero-write inventory).
 * On Windows, where holding is authority, each change is denied instead and
 * the session answers as before.
 */
#include "spx_daemon.h"
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_file_io.h>
#include <apr_strings.h>
#include <string.h>

static const char *const no_extra[] = {NULL};

typedef struct drift_case_t {
    const char *name;
    void (*change)(spx_fixture_t *fixture);
    const char *drift; /* data.drift, compact, sorted keys */
} drift_case_t;

static void edit_in_place(spx_fixture_t *fixture)
{
    spx_fixture_patch(fixture, "proj/src/math.spx", 3, "X");
}

static void edit_with_mtime_restored(spx_fixture_t *fixture)
{
    apr_time_t mtime = spx_fixture_mtime(fixture, "proj/src/app.spx");
    spx_fixture_patch(fixture, "proj/src/app.spx", 0, "#");
    spx_fixture_set_mtime(fixture, "proj/src/app.spx", mtime);
}

static void replace_with_same_bytes(spx_fixture_t *fixture)
{
    spx_fixture_write(fixture, "proj/src/math.tmp", spx_fixture_read(fixture, "proj/src/math.spx"));
    spx_fixture_rename(fixture, "proj/src/math.tmp", "proj/src/math.spx");
}

static void replace_manifest(spx_fixture_t *fixture)
{
    spx_fixture_write(fixture, "proj/new.toml", spx_fixture_read(fixture, "proj/semaprax.toml"));
    spx_fixture_rename(fixture, "proj/new.toml", "proj/semaprax.toml");
}

static void delete_source(spx_fixture_t *fixture)
{
    spx_fixture_remove(fixture, "proj/src/text.spx");
}

static void rename_source_away(spx_fixture_t *fixture)
{
    spx_fixture_rename(fixture, "proj/src/text.spx", "proj/src/moved.spx");
}

static void source_to_symlink(spx_fixture_t *fixture)
{
    spx_fixture_rename(fixture, "proj/src/app.spx", "proj/app-moved.spx");
    spx_fixture_symlink(fixture, "../app-moved.spx", "proj/src/app.spx");
}

static void source_to_directory(spx_fixture_t *fixture)
{
    spx_fixture_remove(fixture, "proj/src/app.spx");
    spx_fixture_mkdir(fixture, "proj/src/app.spx");
}

static void directory_recreated_with_copies(spx_fixture_t *fixture)
{
    const char *names[] = {"app.spx", "math.spx", "text.spx", "words.spx"};
    enum { SOURCES = sizeof(names) / sizeof(names[0]) };
    const char *texts[SOURCES];
    for (int i = 0; i < SOURCES; i++)
        texts[i] =
            spx_fixture_read(fixture, apr_pstrcat(fixture->pool, "proj/src/", names[i], NULL));
    spx_fixture_rename(fixture, "proj/src", "proj/src-old");
    for (int i = 0; i < SOURCES; i++)
        spx_fixture_write(fixture, apr_pstrcat(fixture->pool, "proj/src/", names[i], NULL),
                          texts[i]);
}

static void directory_to_symlink(spx_fixture_t *fixture)
{
    spx_fixture_rename(fixture, "proj/src", "proj/src-moved");
    spx_fixture_symlink(fixture, "src-moved", "proj/src");
}

static void truncate_source(spx_fixture_t *fixture)
{
    spx_fixture_truncate(fixture, "proj/src/math.spx", 10);
}

static void append_to_manifest(spx_fixture_t *fixture)
{
    spx_fixture_append(fixture, "proj/semaprax.toml", "\n");
}

static void root_renamed_away(spx_fixture_t *fixture)
{
    spx_fixture_rename(fixture, "proj", "proj-old");
}

static void two_changes(spx_fixture_t *fixture)
{
    spx_fixture_append(fixture, "proj/src/text.spx", " ");
    spx_fixture_append(fixture, "proj/src/app.spx", " ");
}

static const drift_case_t cases[] = {
    {"in-place edit", edit_in_place,
     "[{\"path\":\"src/math.spx\",\"reason\":\"content_changed\"}]"},
    {"in-place edit, mtime restored", edit_with_mtime_restored,
     "[{\"path\":\"src/app.spx\",\"reason\":\"content_changed\"}]"},
    {"replaced by identical bytes", replace_with_same_bytes,
     "[{\"path\":\"src/math.spx\",\"reason\":\"replaced\"}]"},
    {"manifest replaced", replace_manifest,
     "[{\"path\":\"semaprax.toml\",\"reason\":\"replaced\"}]"},
    {"source deleted", delete_source, "[{\"path\":\"src/text.spx\",\"reason\":\"missing\"}]"},
    {"source renamed away", rename_source_away,
     "[{\"path\":\"src/text.spx\",\"reason\":\"missing\"}]"},
    {"source swapped for a symlink", source_to_symlink,
     "[{\"path\":\"src/app.spx\",\"reason\":\"not_regular\"}]"},
    {"source swapped for a directory", source_to_directory,
     "[{\"path\":\"src/app.spx\",\"reason\":\"not_regular\"}]"},
    {"directory recreated with copies", directory_recreated_with_copies,
     "[{\"path\":\"src\",\"reason\":\"replaced\"}]"},
    {"directory swapped for a symlink", directory_to_symlink,
     "[{\"path\":\"src\",\"reason\":\"not_regular\"}]"},
    {"truncation", truncate_source, "[{\"path\":\"src/math.spx\",\"reason\":\"content_changed\"}]"},
    {"appended manifest byte", append_to_manifest,
     "[{\"path\":\"semaprax.toml\",\"reason\":\"content_changed\"}]"},
    {"root renamed away", root_renamed_away, "[{\"path\":\"\",\"reason\":\"missing\"}]"},
    {"two changes, sorted", two_changes,
     "[{\"path\":\"src/app.spx\",\"reason\":\"content_changed\"},"
     "{\"path\":\"src/text.spx\",\"reason\":\"content_changed\"}]"},
};

/* The exact -32013 line: the drift, and a detail naming its first entry
 * (and how many more) that tells the client to start a new session. */
static const char *invalidated_line(const char *id, const char *drift, apr_pool_t *pool)
{
    json_t *list = json_loads(drift, 0, NULL);
    json_t *first = json_array_get(list, 0);
    size_t count = json_array_size(list);
    const char *detail = apr_psprintf(
        pool,
        "an input changed on disk (%s: %s%s): this session is invalidated for good and never "
        "recovers; start a new session (a new semapraxd, then workspace/open) to see the new "
        "files",
        json_string_value(json_object_get(first, "path"))[0]
            ? apr_psprintf(pool, "'%s'", json_string_value(json_object_get(first, "path")))
            : "the project's folder",
        json_string_value(json_object_get(first, "reason")),
        count > 1 ? apr_psprintf(pool, ", and %lu more", (unsigned long)(count - 1)) : "");
    json_decref(list);
    return apr_psprintf(pool,
                        "{\"error\":{\"code\":-32013,\"data\":{\"detail\":\"%s\",\"drift\":%s,"
                        "\"reason\":\"session_invalidated\"},\"message\":"
                        "\"%s\"},\"id\":%s,\"jsonrpc\":\"2.0\"}",
                        detail, drift, spx_error_message(-32013, detail, pool), id);
}

static void assert_line(const char *actual, const char *expected, const char *label)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(actual);
    if (strcmp(actual, expected) != 0)
        fprintf(stderr, "\n  %s:\n  got      %s\n  expected %s\n", label, actual, expected);
    CU_ASSERT_STRING_EQUAL(actual, expected);
}

static void test_drift_between_requests(void)
{
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        spx_fixture_t *fixture = spx_fixture_new();
        apr_pool_t *pool = fixture->pool;
        spx_daemon_copy_hello(fixture, "proj");
        spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
        const char *revisions = spx_daemon_open(daemon);
        json_t *graph =
            spx_daemon_call_json(daemon, spx_request_line("1", "graph", revisions, pool));
        CU_ASSERT_PTR_NOT_NULL(json_object_get(graph, "result"));
        json_decref(graph);

        spx_fixture_expect_denials(fixture);
        cases[c].change(fixture);
        if (spx_fixture_denials(fixture) > 0) {
            /* Windows: the change was denied; the session answers as before. */
            json_t *again =
                spx_daemon_call_json(daemon, spx_request_line("2", "graph", revisions, pool));
            CU_ASSERT_PTR_NOT_NULL(json_object_get(again, "result"));
            json_decref(again);
            assert_line(
                spx_daemon_call(daemon, "{\"id\":7,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"),
                "{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"open\"}}", cases[c].name);
            CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
            spx_fixture_free(fixture);
            continue;
        }
        const char *context =
            apr_pstrcat(pool, revisions, ",\"target_kind\":\"module\",\"target\":\"app\"", NULL);
        /* The next semantic request, and every later one, whatever it is. */
        assert_line(spx_daemon_call(daemon, spx_request_line("2", "graph", revisions, pool)),
                    invalidated_line("2", cases[c].drift, pool), cases[c].name);
        assert_line(spx_daemon_call(daemon, spx_request_line("3", "context", context, pool)),
                    invalidated_line("3", cases[c].drift, pool), cases[c].name);
        assert_line(spx_daemon_call(daemon, spx_request_line("4", "check", revisions, pool)),
                    invalidated_line("4", cases[c].drift, pool), cases[c].name);
        /* No reopen. */
        assert_line(
            spx_daemon_call(daemon, "{\"id\":5,\"jsonrpc\":\"2.0\",\"method\":\"workspace/open\"}"),
            invalidated_line("5", cases[c].drift, pool), cases[c].name);
        assert_line(spx_daemon_call(daemon, spx_request_line("6", "test", revisions, pool)),
                    invalidated_line("6", cases[c].drift, pool), cases[c].name);
        assert_line(spx_daemon_call(daemon, "{\"id\":7,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"),
                    "{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"invalidated\"}}",
                    cases[c].name);
        json_t *status = spx_daemon_call_json(
            daemon, "{\"id\":8,\"jsonrpc\":\"2.0\",\"method\":\"workspace/status\"}");
        CU_ASSERT_TRUE(
            json_is_false(json_object_get(json_object_get(status, "result"), "healthy")));
        json_decref(status);
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
        spx_fixture_free(fixture);
    }
}

/* A project whose files come to more than SPX_PARALLEL_REHASH_BYTES is
 * re-authenticated by several threads: answers are the same, and an edit to
 * any file, the small ones included, is still found. */
static void test_drift_in_a_project_hashed_by_several_threads(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    const char *padding = apr_psprintf(pool, "// %0*d\n", 96, 0);
    for (apr_size_t bytes = 0; bytes <= SPX_PARALLEL_REHASH_BYTES; bytes += strlen(padding))
        spx_fixture_append(fixture, "proj/src/text.spx", padding);
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    const char *revisions = spx_daemon_open(daemon);
    for (int i = 0; i < 3; i++) {
        json_t *graph =
            spx_daemon_call_json(daemon, spx_request_line("1", "graph", revisions, pool));
        CU_ASSERT_PTR_NOT_NULL(json_object_get(graph, "result"));
        json_decref(graph);
    }
    spx_fixture_expect_denials(fixture);
    spx_fixture_patch(fixture, "proj/src/math.spx", 3, "X");
    spx_fixture_patch(fixture, "proj/src/text.spx", 3, "X");
    if (spx_fixture_denials(fixture) > 0) { /* Windows: denied, nothing drifted */
        spx_assert_contains(
            spx_daemon_call(daemon, spx_request_line("2", "graph", revisions, pool)),
            "\"result\":{\"edges\":");
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
        spx_fixture_free(fixture);
        return;
    }
    assert_line(spx_daemon_call(daemon, spx_request_line("2", "graph", revisions, pool)),
                invalidated_line("2",
                                 "[{\"path\":\"src/math.spx\",\"reason\":\"content_changed\"},"
                                 "{\"path\":\"src/text.spx\",\"reason\":\"content_changed\"}]",
                                 pool),
                "two edits in a large project");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* The test-only daemon pauses after rendering each semantic response; the
 * test edits (or not) during the pause, then lets it go on. With broken, the
 * project is not admitted and the response rendered is the -32014 error. On
 * Windows the edit is denied, and the rendered answer is written. */
static void run_paused_graph(int edit, int broken)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    if (broken)
        spx_fixture_append(fixture, "proj/src/text.spx", "fn broken() -> int { return true; }\n");
    const char *pause_dir = NULL;
    const char *const no_extra[] = {NULL};
    spx_daemon_t *daemon =
        spx_daemon_start_pausing(fixture, "proj", no_extra, "SPX_TEST_PAUSE_DIR", &pause_dir);
    const char *revisions = spx_daemon_open(daemon); /* open does not pause */
    const char *request =
        apr_pstrcat(pool, spx_request_line("\"g\"", "graph", revisions, pool), "\n", NULL);
    CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, request, strlen(request)), APR_SUCCESS);

    spx_daemon_wait_for_pause(fixture, pause_dir);
    spx_fixture_expect_denials(fixture);
    if (edit)
        spx_fixture_patch(fixture, "proj/src/math.spx", 3, "X");
    int denied = spx_fixture_denials(fixture) > 0;
    spx_daemon_resume(fixture, pause_dir);

    const char *answer = spx_daemon_read_line(daemon);
    CU_ASSERT_PTR_NOT_NULL_FATAL(answer);
    if (edit && !denied) {
        assert_line(answer,
                    invalidated_line("\"g\"",
                                     "[{\"path\":\"src/math.spx\",\"reason\":\"content_changed\"}]",
                                     pool),
                    "edited in the pause");
        assert_line(spx_daemon_call(daemon, "{\"id\":7,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"),
                    "{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"invalidated\"}}",
                    "after the pause");
    } else if (broken) {
        spx_assert_error(answer, SPX_RPC_PROJECT_NOT_ADMITTED, "\"g\"", "project_not_admitted",
                         "the project has 1 diagnostic (the first: src/text.spx:20:29: E0407 ",
                         pool);
        spx_assert_contains(answer, ",\"diagnostics\":[{\"code\":\"E0407\"");
    } else {
        spx_assert_contains(answer, "\"result\":{\"edges\":");
    }
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_drift_after_rendering(void)
{
    run_paused_graph(1, 0);
}

static void test_pause_alone_changes_nothing(void)
{
    run_paused_graph(0, 0);
}

static void test_drift_after_rendering_an_error(void)
{
    run_paused_graph(1, 1);
    run_paused_graph(0, 1);
}

static void test_zero_write_inventory(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    spx_fixture_mkdir(fixture, "cwd");
    const char *before = spx_fixture_inventory(fixture);
    const char *arguments[] = {"--stdio", "--manifest-path", "../proj/semaprax.toml", NULL};
    spx_daemon_t *daemon =
        spx_daemon_start("SPX_SEMAPRAXD", arguments, spx_fixture_path(fixture, "cwd"), pool);
    const char *lifecycle[] = {"protocol", "ping", "workspace/status"};
    for (size_t i = 0; i < 3; i++)
        spx_assert_contains(spx_daemon_call(daemon, spx_request_line("1", lifecycle[i], "", pool)),
                            "\"result\":");
    const char *revisions = spx_daemon_open(daemon);
    const char *requests[][2] = {
        {"workspace/snapshot", ""},
        {"check", ""},
        {"graph", ""},
        {"context", ",\"target_kind\":\"function\",\"target\":\"app.main\",\"depth\":3"},
        {"test", ""},
        {"test", ",\"max_steps\":5"},
    };
    for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
        spx_assert_contains(
            spx_daemon_call(
                daemon, spx_request_line("2", requests[i][0],
                                         apr_pstrcat(pool, revisions, requests[i][1], NULL), pool)),
            "\"result\":");
    spx_assert_contains(spx_daemon_call(daemon, spx_request_line("3", "shutdown", "", pool)),
                        "\"state\":\"shutdown\"");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    const char *after = spx_fixture_inventory(fixture);
    CU_ASSERT_STRING_EQUAL(before, after);
    spx_assert_contains(before, "proj/src/math.spx type=");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"drift between requests, every kind", test_drift_between_requests},
        {"drift in a project hashed by several threads",
         test_drift_in_a_project_hashed_by_several_threads},
        {"drift after rendering (test hook)", test_drift_after_rendering},
        {"the pause alone changes nothing", test_pause_alone_changes_nothing},
        {"drift after rendering -32014 (test hook)", test_drift_after_rendering_an_error},
        {"zero-write inventory", test_zero_write_inventory},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("daemon drift", tests);
}
