/*
 * test_daemon_projects.c: process tests of the real daemon (and the CLI's
 * `check`) on hostile projects (issue 7): 4096 sources and one more, a
 * 16 MiB source and one byte more, a manifest of 1 MiB of comments and one
 * byte more, a source tree with symbolic-link loops beside it, a fifo
 * declared as a source (refused without blocking), and a source deleted
 * between startup's authentication and Phase A. The engine-level refusals
 * are in tests/engine/test_inputs.c; these go through the real programs.
 * Also a project with warnings only: admitted, its check gives them, its
 * graph is answered.
 */
#include "spx_daemon.h"
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

static const char *const no_extra[] = {NULL};

#define MANIFEST_HEAD                                                                              \
    "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"hostile\"\n"               \
    "version = \"0.1.0\"\n"

/* proj/semaprax.toml declaring count sources m0..m(count-1) at src/mI.spx,
 * each written with one exported function. */
static void write_project(spx_fixture_t *fixture, apr_size_t count)
{
    apr_pool_t *pool = fixture->pool;
    apr_array_header_t *manifest = apr_array_make(pool, (int)count + 1, sizeof(const char *));
    APR_ARRAY_PUSH(manifest, const char *) = MANIFEST_HEAD;
    for (apr_size_t i = 0; i < count; i++) {
        APR_ARRAY_PUSH(manifest, const char *) =
            apr_psprintf(pool,
                         "\n[[source]]\nmodule = \"m%" APR_SIZE_T_FMT
                         "\"\npath = \"src/m%" APR_SIZE_T_FMT ".spx\"\n",
                         i, i);
        spx_fixture_write(
            fixture, apr_psprintf(pool, "proj/src/m%" APR_SIZE_T_FMT ".spx", i),
            apr_psprintf(pool, "export fn f() -> int { return %" APR_SIZE_T_FMT "; }\n", i));
    }
    spx_fixture_write(fixture, "proj/semaprax.toml", apr_array_pstrcat(pool, manifest, 0));
}

/* The daemon on proj opens and its project is admitted. */
static void assert_opens_admitted(spx_fixture_t *fixture)
{
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    const char *revisions = spx_daemon_open(daemon);
    spx_assert_contains(
        spx_daemon_call(daemon, spx_request_line("1", "check", revisions, fixture->pool)),
        "\"admitted\":true");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
}

/* The daemon on proj starts unhealthy: ping answers at once, open is
 * -32011 whose diagnostic's message holds fragment. */
static void assert_unavailable(spx_fixture_t *fixture, const char *fragment)
{
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    spx_assert_contains(
        spx_daemon_call(daemon, "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"),
        "\"state\":\"configured\"");
    json_t *open = spx_daemon_call_json(
        daemon, "{\"id\":2,\"jsonrpc\":\"2.0\",\"method\":\"workspace/open\"}");
    json_t *error = json_object_get(open, "error");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(error, "code")),
                    SPX_RPC_WORKSPACE_UNAVAILABLE);
    json_t *first =
        json_array_get(json_object_get(json_object_get(error, "data"), "diagnostics"), 0);
    const char *message = json_string_value(json_object_get(first, "message"));
    spx_assert_contains(message ? message : "", fragment);
    json_decref(open);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
}

/* Warnings never stop admission: check returns them with admitted true
 * (and their suggestions-free, note-free shape), graph and test answer. */
static void test_warnings_do_not_stop_admission(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "proj/semaprax.toml",
                      MANIFEST_HEAD "\n[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n"
                                    "\n[[test]]\nname = \"t\"\nfunction = \"app.t\"\n");
    spx_fixture_write(fixture, "proj/src/app.spx",
                      "fn t() -> int {\n  return 0;\n  print(\"never\");\n}\nfn helper() { }\n");
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    const char *revisions = spx_daemon_open(daemon);
    json_t *check =
        spx_daemon_call_json(daemon, spx_request_line("1", "check", revisions, fixture->pool));
    json_t *result = json_object_get(check, "result");
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "admitted")));
    json_t *diagnostics = json_object_get(result, "diagnostics");
    CU_ASSERT_EQUAL_FATAL(json_array_size(diagnostics), 2);
    json_t *unreachable = json_array_get(diagnostics, 0), *unused = json_array_get(diagnostics, 1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(unreachable, "code")), "W0603");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(unreachable, "severity")), "warning");
    CU_ASSERT_EQUAL(json_array_size(json_object_get(unreachable, "notes")), 1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(unused, "code")), "W0604");
    json_decref(check);
    spx_assert_contains(
        spx_daemon_call(daemon, spx_request_line("2", "graph", revisions, fixture->pool)),
        "\"result\":{");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static const char *manifest_path(spx_fixture_t *fixture)
{
    return spx_fixture_path(fixture, "proj/semaprax.toml");
}

static void test_4096_sources(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, SPX_LIMIT_SOURCES);
    assert_opens_admitted(fixture);
    spx_process_result_t check =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest_path(fixture));
    CU_ASSERT_EQUAL(check.exit_code, 0);
    spx_fixture_free(fixture);

    fixture = spx_fixture_new();
    write_project(fixture, SPX_LIMIT_SOURCES + 1);
    /* The manifest's own limit, E0142 at the 4097th [[source]]: the daemon
     * starts unhealthy and says why. */
    assert_unavailable(fixture, "more than 4096 [[source]] tables; the limit is 4096");
    check = SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest_path(fixture));
    CU_ASSERT_NOT_EQUAL(check.exit_code, 0);
    spx_assert_contains(check.out, "error[E0142]: more than 4096 [[source]] tables");
    spx_fixture_free(fixture);
}

/* Write relative as text followed by '/' comment lines up to size bytes. */
static void write_padded(spx_fixture_t *fixture, const char *relative, const char *text,
                         char comment, apr_size_t size)
{
    char *bytes = malloc(size + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    apr_size_t length = strlen(text);
    memcpy(bytes, text, length);
    while (length < size) {
        apr_size_t line = size - length < 100 ? size - length : 100;
        memset(bytes + length, 'x', line);
        bytes[length] = comment;
        if (comment == '/' && line > 1)
            bytes[length + 1] = '/';
        bytes[length + line - 1] = '\n';
        length += line;
    }
    bytes[size] = '\0';
    spx_fixture_write(fixture, relative, bytes);
    free(bytes);
}

static void test_16_mib_source(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, 1);
    write_padded(fixture, "proj/src/m0.spx", "export fn f() -> int { return 0; }\n", '/',
                 SPX_LIMIT_SOURCE_BYTES);
    assert_opens_admitted(fixture);
    write_padded(fixture, "proj/src/m0.spx", "export fn f() -> int { return 0; }\n", '/',
                 SPX_LIMIT_SOURCE_BYTES + 1);
    assert_unavailable(fixture, "is 16777217 bytes, over the limit of 16777216 bytes");
    spx_process_result_t check =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest_path(fixture));
    CU_ASSERT_NOT_EQUAL(check.exit_code, 0);
    spx_assert_contains(check.err, "over the limit of 16777216 bytes");
    spx_fixture_free(fixture);
}

static void test_manifest_of_1_mib_of_comments(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, 1);
    const char *manifest = MANIFEST_HEAD "\n[[source]]\nmodule = \"m0\"\npath = \"src/m0.spx\"\n";
    write_padded(fixture, "proj/semaprax.toml", manifest, '#', SPX_LIMIT_MANIFEST_BYTES);
    assert_opens_admitted(fixture);
    write_padded(fixture, "proj/semaprax.toml", manifest, '#', SPX_LIMIT_MANIFEST_BYTES + 1);
    assert_unavailable(fixture, "over the limit of 1048576 bytes");
    spx_fixture_free(fixture);
}

static void test_symlink_loops_beside_the_tree(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    if (!spx_fixture_symlinks_possible(fixture, "symbolic-link loops beside the tree")) {
        spx_fixture_free(fixture);
        return;
    }
    spx_daemon_copy_hello(fixture, "proj");
    spx_fixture_symlink(fixture, "loop", "proj/loop"); /* itself */
    spx_fixture_symlink(fixture, "b", "proj/a");       /* a -> b -> a */
    spx_fixture_symlink(fixture, "a", "proj/b");
    spx_fixture_symlink(fixture, "..", "proj/src/up");        /* back to the root */
    spx_fixture_symlink(fixture, "../src", "proj/src/again"); /* to its own folder */
    assert_opens_admitted(fixture);
    /* A source declared through one of them is refused as a link. */
    spx_fixture_write(fixture, "proj/semaprax.toml",
                      MANIFEST_HEAD
                      "\n[[source]]\nmodule = \"app\"\npath = \"src/up/src/app.spx\"\n");
    assert_unavailable(fixture, "src/up");
    spx_fixture_free(fixture);
}

static void test_fifo_declared_as_a_source(void)
{
    if (!spx_fixture_fifos_possible("a fifo declared as a source"))
        return;
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, 2);
    spx_fixture_remove(fixture, "proj/src/m1.spx");
    spx_fixture_mkfifo(fixture, "proj/src/m1.spx");
    /* Nobody ever writes to the fifo: opening it for reading would block
     * for ever, so answering at all shows it was refused without blocking. */
    assert_unavailable(fixture, "'src/m1.spx' is not a regular file");
    spx_process_result_t check =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest_path(fixture));
    CU_ASSERT_NOT_EQUAL(check.exit_code, 0);
    spx_assert_contains(check.err, "not a regular file");
    spx_fixture_free(fixture);
}

/* The test-only daemon pauses at startup once every input is held, read and
 * digested, before Phase A parses anything; the test deletes a source in
 * that gap. Phase A runs on the bytes read at authentication (the project is
 * healthy, phase_a_runs 1), and the first re-authentication, workspace/open's,
 * finds the source missing: the session is invalidated, never answered from
 * the deleted input. On Windows the held source cannot be deleted at all. */
static void test_source_deleted_between_authentication_and_phase_a(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_copy_hello(fixture, "proj");
    const char *pause_dir = NULL;
    spx_daemon_t *daemon = spx_daemon_start_pausing(fixture, "proj", no_extra,
                                                    "SPX_TEST_STARTUP_PAUSE_DIR", &pause_dir);

    spx_daemon_wait_for_pause(fixture, pause_dir);
    spx_fixture_expect_denials(fixture);
    spx_fixture_remove(fixture, "proj/src/math.spx");
    int denied = spx_fixture_denials(fixture) > 0;
    spx_daemon_resume(fixture, pause_dir);

    const char *status =
        spx_daemon_call(daemon, "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"workspace/status\"}");
    spx_assert_contains(status, "\"healthy\":true");
    spx_assert_contains(status, "\"phase_a_runs\":1");
    spx_assert_contains(status, "\"state\":\"configured\"");
    const char *open =
        spx_daemon_call(daemon, "{\"id\":2,\"jsonrpc\":\"2.0\",\"method\":\"workspace/open\"}");
    if (denied) { /* Windows: a held source cannot be deleted */
        spx_assert_contains(open, "\"project_revision\":");
    } else {
        spx_assert_contains(open, "\"code\":-32013");
        spx_assert_contains(open, "{\"path\":\"src/math.spx\",\"reason\":\"missing\"}");
        const char *again =
            spx_daemon_call(daemon, "{\"id\":3,\"jsonrpc\":\"2.0\",\"method\":\"workspace/open\"}");
        spx_assert_contains(again, "\"code\":-32013");
    }
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"4096 sources, and one more", test_4096_sources},
        {"warnings do not stop admission", test_warnings_do_not_stop_admission},
        {"a 16 MiB source, and one byte more", test_16_mib_source},
        {"a manifest of 1 MiB of comments, and one byte more", test_manifest_of_1_mib_of_comments},
        {"symbolic-link loops beside the tree", test_symlink_loops_beside_the_tree},
        {"a fifo declared as a source", test_fifo_declared_as_a_source},
        {"a source deleted between authentication and Phase A",
         test_source_deleted_between_authentication_and_phase_a},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("daemon hostile projects", tests);
}
