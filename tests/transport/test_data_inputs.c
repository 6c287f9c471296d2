/*
 * test_data_inputs.c: process tests of manifest v2's data files in the real
 * programs: a data file is held like a source, so a change to it between
 * requests (content_changed, replaced, missing, not_regular) invalidates the
 * daemon's session with the drift naming it; workspace/snapshot lists it;
 * workspace/open refuses a missing data file with E0160, and `semaprax
 * check` exits 2 naming it; `semaprax test` runs read_data's bytes, its
 * envelope's subject lists the data, and `semaprax verify` names a data
 * file that changed.
 */
#include "spx_daemon.h"
#include "spx_process.h"

#include <apr_strings.h>
#include <string.h>

static const char *const no_extra[] = {NULL};

/* proj: a v2 project whose test app.t_count reads data/corpus.txt. */
static void write_project(spx_fixture_t *fixture)
{
    spx_fixture_mkdir(fixture, "proj");
    spx_fixture_mkdir(fixture, "proj/src");
    spx_fixture_mkdir(fixture, "proj/data");
    spx_fixture_write(fixture, "proj/semaprax.toml",
                      "manifest = \"semaprax.project-manifest.v2\"\n"
                      "[project]\nname = \"words\"\nversion = \"0.1.0\"\n"
                      "[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n"
                      "[[data]]\nname = \"corpus\"\npath = \"data/corpus.txt\"\n"
                      "[[test]]\nname = \"count\"\nfunction = \"app.t_count\"\n");
    spx_fixture_write(fixture, "proj/src/app.spx",
                      "fn t_count() -> int { print(read_data(\"corpus\")); "
                      "return len(read_data(\"corpus\")) - 6; }\n");
    spx_fixture_write(fixture, "proj/data/corpus.txt", "a b c\n");
}

typedef struct data_change_t {
    const char *name;
    void (*change)(spx_fixture_t *fixture);
    const char *reason;
} data_change_t;

static void edit_data(spx_fixture_t *fixture)
{
    spx_fixture_patch(fixture, "proj/data/corpus.txt", 0, "X");
}

static void replace_data(spx_fixture_t *fixture)
{
    spx_fixture_write(fixture, "proj/data/new.txt",
                      spx_fixture_read(fixture, "proj/data/corpus.txt"));
    spx_fixture_rename(fixture, "proj/data/new.txt", "proj/data/corpus.txt");
}

static void remove_data(spx_fixture_t *fixture)
{
    spx_fixture_remove(fixture, "proj/data/corpus.txt");
}

static void data_to_directory(spx_fixture_t *fixture)
{
    spx_fixture_remove(fixture, "proj/data/corpus.txt");
    spx_fixture_mkdir(fixture, "proj/data/corpus.txt");
}

static const data_change_t changes[] = {
    {"data edited", edit_data, "content_changed"},
    {"data replaced by identical bytes", replace_data, "replaced"},
    {"data removed", remove_data, "missing"},
    {"data swapped for a directory", data_to_directory, "not_regular"},
};

static void test_data_drift(void)
{
    for (size_t c = 0; c < sizeof(changes) / sizeof(changes[0]); c++) {
        spx_fixture_t *fixture = spx_fixture_new();
        apr_pool_t *pool = fixture->pool;
        write_project(fixture);
        spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
        const char *revisions = spx_daemon_open(daemon);
        const char *tested =
            spx_daemon_call(daemon, spx_request_line("1", "test", revisions, pool));
        spx_assert_contains(tested, "\"output\":\"a b c\\n\"");
        spx_assert_contains(tested, "\"outcome\":\"passed\"");
        spx_fixture_expect_denials(fixture);
        changes[c].change(fixture);
        if (spx_fixture_denials(fixture) > 0) { /* Windows: denied, nothing drifted */
            spx_assert_contains(
                spx_daemon_call(daemon, spx_request_line("2", "test", revisions, pool)),
                "\"outcome\":\"passed\"");
        } else {
            const char *drift =
                apr_psprintf(pool, "\"drift\":[{\"path\":\"data/corpus.txt\",\"reason\":\"%s\"}]",
                             changes[c].reason);
            const char *line =
                spx_daemon_call(daemon, spx_request_line("2", "test", revisions, pool));
            spx_assert_contains(line, "\"code\":-32013");
            spx_assert_contains(line, drift);
            spx_assert_contains(
                spx_daemon_call(daemon, spx_request_line("3", "graph", revisions, pool)), drift);
        }
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
        spx_fixture_free(fixture);
    }
}

/* workspace/snapshot lists the data file; the graph has its node. */
static void test_data_listed(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_project(fixture);
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    const char *revisions = spx_daemon_open(daemon);
    const char *snapshot =
        spx_daemon_call(daemon, spx_request_line("1", "workspace/snapshot", revisions, pool));
    spx_assert_contains(snapshot, "\"data\":[{\"bytes\":6,\"digest\":\"sha256:");
    spx_assert_contains(snapshot, "\"name\":\"corpus\",\"path\":\"data/corpus.txt\"}]");
    spx_assert_contains(spx_daemon_call(daemon, spx_request_line("2", "graph", revisions, pool)),
                        "{\"bytes\":6,\"id\":\"data:corpus\",\"kind\":\"data\",\"name\":"
                        "\"corpus\",\"path\":\"data/corpus.txt\"}");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* A missing data file: the daemon's open answers E0160 naming it, and
 * semaprax check exits 2 naming it. */
static void test_data_refused(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture);
    spx_fixture_remove(fixture, "proj/data/corpus.txt");
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    const char *open =
        spx_daemon_call(daemon, "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"workspace/open\"}");
    spx_assert_contains(open, "\"code\":-32011");
    spx_assert_contains(open, "E0160");
    spx_assert_contains(open, "corpus.txt");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);

    const char *const arguments[] = {"check", "--manifest-path",
                                     spx_fixture_path(fixture, "proj/semaprax.toml"), NULL};
    spx_process_result_t result =
        spx_process_run(spx_program_path("SPX_SEMAPRAX"), arguments, NULL, fixture->pool);
    CU_ASSERT_EQUAL(result.exit_code, 2);
    spx_assert_contains(result.err, "corpus.txt");
    spx_fixture_free(fixture);
}

static spx_process_result_t semaprax(spx_fixture_t *fixture, const char *const *arguments)
{
    return spx_process_run(spx_program_path("SPX_SEMAPRAX"), arguments, NULL, fixture->pool);
}

/* The envelope's subject lists the data file; verify names it when it
 * changed, and when a data file appeared since. */
static void test_verify_names_data(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture);
    const char *manifest = spx_fixture_path(fixture, "proj/semaprax.toml");
    const char *envelope = spx_fixture_path(fixture, "envelope.json");
    const char *const test[] = {"test", "--manifest-path", manifest, "--envelope", envelope, NULL};
    spx_process_result_t result = semaprax(fixture, test);
    CU_ASSERT_EQUAL_FATAL(result.exit_code, 0);
    const char *recorded = spx_fixture_read(fixture, "envelope.json");
    spx_assert_contains(recorded, "\"data\":[{\"digest\":\"sha256:");
    spx_assert_contains(recorded, "\"path\":\"data/corpus.txt\"}],\"manifest\":");
    const char *const verify[] = {"verify", envelope, "--manifest-path", manifest, NULL};
    result = semaprax(fixture, verify);
    CU_ASSERT_EQUAL(result.exit_code, 0);
    spx_fixture_write(fixture, "proj/data/corpus.txt", "a b d\n");
    result = semaprax(fixture, verify);
    CU_ASSERT_EQUAL(result.exit_code, 1);
    spx_assert_contains(result.out, "subject: FAILED: the files on disk differ from the envelope: "
                                    "data/corpus.txt changed\n");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"a data file drifts like a source", test_data_drift},
        {"snapshot and graph list the data", test_data_listed},
        {"a missing data file is refused", test_data_refused},
        {"verify names a data file that changed", test_verify_names_data},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("data_inputs", tests);
}
