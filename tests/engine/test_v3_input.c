/*
 * test_v3_input.c: language v3's input part in the engine: data files as
 * held inputs (revisions, snapshot, E0155, refusals); read_data and args
 * (E0324, E0325, E0306, steps and the memory measure; the graph's data
 * nodes and reads edges); limits effective per test. Manifest v2's own
 * messages, limits and subject are test_manifest.c's.
 */
#include "project_internal.h"
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_envelope.h"
#include "spx_index.h"
#include "spx_limits.h"
#include "spx_manifest.h"
#include "spx_program.h"
#include "spx_run_fixture.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

#define HEAD2 "manifest = \"semaprax.project-manifest.v2\"\n"
#define HEAD1 "manifest = \"semaprax.project-manifest.v1\"\n"
#define PROJECT "[project]\nname = \"wordfreq\"\nversion = \"0.2.0\"\nentry = \"app.main\"\n"
#define SOURCE "[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n"
#define DATA "[[data]]\nname = \"corpus\"\npath = \"data/corpus.txt\"\n"
#define NEED " needs manifest = \"semaprax.project-manifest.v2\""
#define TEST "[[test]]\nname = \"big\"\nfunction = \"app.test_big\"\n"

/* A v2 project: module app (src/app.spx, source), data corpus
 * (data/corpus.txt, corpus) and the tests named in tests ("name=function"
 * lines). */
static void write_project(spx_fixture_t *fixture, const char *source, const char *corpus,
                          const char *tests)
{
    spx_fixture_mkdir(fixture, "src");
    spx_fixture_mkdir(fixture, "data");
    spx_fixture_write(fixture, "src/app.spx", source);
    spx_fixture_write(fixture, "data/corpus.txt", corpus);
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool, HEAD2, PROJECT, SOURCE, DATA, tests, NULL));
}

static const char *const data_source =
    "export fn main() -> int { return 0; }\n"
    "fn t_read() -> int {\n"
    "  let s = read_data(\"corpus\");\n"
    "  let t = read_data(\"corpus\");\n"
    "  return len(s) + len(t);\n"
    "}\n"
    "fn t_grow() -> int { var s = read_data(\"corpus\"); s = s + \"!\"; return len(s); }\n"
    "fn t_args() -> int { let a = args(); return len(a); }\n"
    "fn t_two() -> int { let a = args(); return len(a[0]) * 10 + len(a[1]); }\n";
static const char *const data_tests = "[[test]]\nname = \"read\"\nfunction = \"app.t_read\"\n"
                                      "[[test]]\nname = \"grow\"\nfunction = \"app.t_grow\"\n"
                                      "[[test]]\nname = \"args\"\nfunction = \"app.t_args\"\n"
                                      "[[test]]\nname = \"two\"\nfunction = \"app.t_two\"\n";

static spx_run_result_t run_function(const spx_project_t *project, const char *function,
                                     const spx_run_limits_t *limits, apr_pool_t *pool)
{
    long index = spx_program_find(project->program, function);
    CU_ASSERT_TRUE_FATAL(index >= 0);
    spx_run_result_t result;
    CU_ASSERT_EQUAL_FATAL(spx_vm_run(project->program, index, limits, &result, pool), APR_SUCCESS);
    return result;
}

/* read_data gives the authenticated bytes, each evaluation a new block over
 * them that counts only its header until it grows; one step as a call. */
static void test_read_data_runs(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    char *corpus = apr_palloc(fixture->pool, 1001);
    memset(corpus, 'a', 1000);
    corpus[0] = '\xc3'; /* "é" then 998 'a' */
    corpus[1] = '\xa9';
    corpus[1000] = '\0';
    write_project(fixture, data_source, corpus, data_tests);
    spx_project_t *project = spx_run_fixture_open(fixture);
    spx_run_limits_t limits = spx_run_limits_default();
    /* 1 (the call) + let + read_data + let + read_data + return + len + len */
    spx_run_result_t result = run_function(project, "app.t_read", &limits, fixture->pool);
    spx_run_assert_returned(&result, 2000, 8);
    /* The two blocks over the data count their headers only. */
    CU_ASSERT(result.memory_peak < 200);
    /* 1 + var + read_data + assignment + return + len = 6, and the first
     * growth copies: n = 1000 + 1, floor(1001 / 64) = 15. */
    result = run_function(project, "app.t_grow", &limits, fixture->pool);
    spx_run_assert_returned(&result, 1001, 21);
    CU_ASSERT(result.memory_peak > 1001);
    /* args() is [] in a test: 1 + let + args + return + len. */
    result = run_function(project, "app.t_args", &limits, fixture->pool);
    spx_run_assert_returned(&result, 0, 5);
    /* With arguments (semaprax run's): an array of them, in order. */
    const char *const arguments[] = {"in.txt", "-v"};
    limits.arguments = arguments;
    limits.argument_count = 2;
    /* 1 + let + args + return + len + len */
    result = run_function(project, "app.t_two", &limits, fixture->pool);
    spx_run_assert_returned(&result, 62, 6);
    result = run_function(project, "app.t_args", &limits, fixture->pool);
    spx_run_assert_returned(&result, 2, 5);
    spx_fixture_free(fixture);
}

/* args() of 64 arguments pays floor(64 / 64) = 1 more step (n = k). */
static void test_args_charge(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, data_source, "x", data_tests);
    spx_project_t *project = spx_run_fixture_open(fixture);
    spx_run_limits_t limits = spx_run_limits_default();
    const char *arguments[64];
    for (int i = 0; i < 64; i++)
        arguments[i] = "w";
    limits.arguments = arguments;
    limits.argument_count = 63;
    spx_run_result_t result = run_function(project, "app.t_args", &limits, fixture->pool);
    spx_run_assert_returned(&result, 63, 5);
    limits.argument_count = 64;
    result = run_function(project, "app.t_args", &limits, fixture->pool);
    spx_run_assert_returned(&result, 64, 6);
    spx_fixture_free(fixture);
}

/* The one error diagnostic of a project of source, its code, message and
 * span "L:C-L:C". */
static void assert_project_error(const char *source, const char *code, const char *message,
                                 const char *span)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, source, "x", "");
    spx_project_t *project = spx_fixture_project(fixture);
    const spx_diagnostics_t *diagnostics = spx_project_diagnostics(project);
    CU_ASSERT_FALSE(spx_project_admitted(project));
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, 0);
    if (strcmp(item->message, message) != 0 || strcmp(item->code, code) != 0)
        fprintf(stderr, "\n  got %s '%s' %u:%u\n", item->code, item->message, item->span.start.line,
                item->span.start.column);
    CU_ASSERT_STRING_EQUAL(item->code, code);
    CU_ASSERT_STRING_EQUAL(item->message, message);
    CU_ASSERT_STRING_EQUAL(apr_psprintf(fixture->pool, "%u:%u-%u:%u", item->span.start.line,
                                        item->span.start.column, item->span.end.line,
                                        item->span.end.column),
                           span);
    spx_fixture_free(fixture);
}

static void test_read_data_checks(void)
{
    assert_project_error(
        "export fn main() -> int { let n = \"corpus\"; return len(read_data(n)); }\n", "E0324",
        "read_data takes a string literal naming a [[data]] entry", "1:66-1:67");
    assert_project_error("export fn main() -> int { return len(read_data(\"corpse\")); }\n",
                         "E0325", "no data 'corpse' in the manifest; did you mean 'corpus'?",
                         "1:48-1:56");
    assert_project_error("export fn main() -> int { return 0; }\nfn args() -> int { return 0; }\n",
                         "E0306", "'args' is a builtin since language v3 and cannot be defined",
                         "2:4-2:8");
    assert_project_error(
        "export fn main() -> int { return 0; }\nexport fn read_data() -> int { return 0; }\n",
        "E0306", "'read_data' is a builtin since language v3 and cannot be defined", "2:11-2:20");

    /* semaprax serve's single source has no manifest: every read_data is
     * E0325 (with no name to suggest). */
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *text = "export fn main() -> int { return len(read_data(\"corpus\")); }\n";
    spx_source_text_t source = {"app", "app.spx", (const unsigned char *)text, strlen(text)};
    spx_project_t *project = spx_project_build_texts(&source, 1, pool);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(spx_project_diagnostics(project)), 1);
    const spx_diagnostic_t *item = spx_diagnostics_get(spx_project_diagnostics(project), 0);
    CU_ASSERT_STRING_EQUAL(item->code, "E0325");
    CU_ASSERT_STRING_EQUAL(item->message, "no data 'corpus' in the manifest");
    apr_pool_destroy(pool);
}

/* E0155 at the first ill-formed bytes of a data file, in the data file;
 * NUL, CR and a byte order mark are data like any other. */
static void test_data_utf8(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, "export fn main() -> int { return 0; }\n",
                  "\xef\xbb\xbf"
                  "a\rb\nc\xff\xfe",
                  "");
    spx_project_t *project = spx_fixture_project(fixture);
    const spx_diagnostics_t *diagnostics = spx_project_diagnostics(project);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, 0);
    CU_ASSERT_STRING_EQUAL(item->code, "E0155");
    CU_ASSERT_STRING_EQUAL(item->path, "data/corpus.txt");
    CU_ASSERT_STRING_EQUAL(item->message,
                           "data file 'data/corpus.txt' is not valid UTF-8 at byte 8");
    CU_ASSERT_EQUAL(item->span.start.line, 2);
    CU_ASSERT_EQUAL(item->span.start.column, 2);
    CU_ASSERT_EQUAL(item->span.end.column, 3);
    spx_fixture_free(fixture);
}

/* Data is held: project_revision gains "data" (and a v2 manifest without
 * data keeps v1's form), the snapshot lists it, and a missing, linked or
 * duplicate data file is refused naming it. */
static void test_data_held(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, data_source, "one", data_tests);
    spx_project_t *project = spx_run_fixture_open(fixture);
    const spx_input_t *data = spx_project_data_named(project, "corpus");
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    CU_ASSERT_EQUAL(data->size, 3);
    json_t *snapshot = spx_project_snapshot_document(project, "semaprax.toml");
    json_t *listed = json_object_get(snapshot, "data");
    CU_ASSERT_EQUAL_FATAL(json_array_size(listed), 1);
    CU_ASSERT_STRING_EQUAL(
        spx_canonical_text(json_array_get(listed, 0), fixture->pool),
        apr_pstrcat(fixture->pool, "{\"bytes\":3,\"digest\":\"", data->digest_text,
                    "\",\"name\":\"corpus\",\"path\":\"data/corpus.txt\"}", NULL));
    json_decref(snapshot);
    /* The revision's object, computed here as the page says. */
    json_t *sources = json_pack("[{s:s, s:s, s:s}]", "digest",
                                spx_input_set_source(project->inputs, 0)->digest_text, "module",
                                "app", "path", "src/app.spx");
    json_t *subject =
        json_pack("{s:s, s:o, s:[{s:s, s:s, s:s}]}", "manifest",
                  spx_input_set_manifest(project->inputs)->digest_text, "sources", sources, "data",
                  "digest", data->digest_text, "name", "corpus", "path", "data/corpus.txt");
    CU_ASSERT_STRING_EQUAL(spx_project_revision(project),
                           spx_canonical_digest(subject, fixture->pool));
    json_decref(subject);
    /* A data file edited changes project_revision (the session that held it
     * ended first: Windows denies writing a held file). */
    const char *before = apr_pstrdup(fixture->pool, spx_project_revision(project));
    spx_fixture_end_session(fixture);
    spx_fixture_write(fixture, "data/corpus.txt", "two");
    project = spx_run_fixture_open(fixture);
    CU_ASSERT_STRING_NOT_EQUAL(spx_project_revision(project), before);
    /* A data file that drifts while held is reported like a source (where
     * the system lets it change: Windows denies the write, which the
     * daemon's drift suites show for every input). */
    if (!spx_held_inputs_locked()) {
        apr_array_header_t *drift = NULL;
        spx_fixture_write(fixture, "data/corpus.txt", "three");
        CU_ASSERT_EQUAL(spx_input_set_reauthenticate(project->inputs, fixture->pool, &drift),
                        APR_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(drift->nelts, 1);
        CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(drift, 0, spx_drift_t).path, "data/corpus.txt");
        CU_ASSERT_EQUAL(APR_ARRAY_IDX(drift, 0, spx_drift_t).reason, SPX_DRIFT_CONTENT_CHANGED);
    }
    spx_fixture_end_session(fixture);

    /* Refused: missing, and the same object as a source. */
    spx_project_t *refused = NULL;
    const char *message = NULL;
    spx_fixture_remove(fixture, "data/corpus.txt");
    CU_ASSERT_NOT_EQUAL(spx_project_open(&refused, spx_fixture_path(fixture, "semaprax.toml"),
                                         fixture->pool, &message),
                        APR_SUCCESS);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "corpus.txt"));
    spx_fixture_hard_link(fixture, "src/app.spx", "data/corpus.txt");
    CU_ASSERT_NOT_EQUAL(spx_project_open(&refused, spx_fixture_path(fixture, "semaprax.toml"),
                                         fixture->pool, &message),
                        APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(message, "'src/app.spx' and 'data/corpus.txt' are the same file system "
                                    "object; each input must be held under one path only");
    spx_fixture_free(fixture);
}

/* The graph: data:corpus (name, path, bytes), a reads edge from each
 * function that reads it with one site per read_data, builtin nodes. */
static void test_data_graph(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, data_source, "one", data_tests);
    spx_project_t *project = spx_run_fixture_open(fixture);
    json_t *graph = spx_corpus_graph(project);
    const char *text = spx_canonical_text(graph, fixture->pool);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "{\"bytes\":3,\"id\":\"data:corpus\",\"kind\":\"data\",\"name\":\"corpus\","
                     "\"path\":\"data/corpus.txt\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"from\":\"function:app.t_read\",\"kind\":\"reads\","
                                        "\"sites\":2,\"to\":\"data:corpus\"}"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(text, "\"id\":\"builtin:read_data\",\"kind\":\"builtin\",\"name\":\"read_data\","
                     "\"signature\":\"fn(name: str) -> str\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"id\":\"builtin:args\",\"kind\":\"builtin\",\"name\":"
                                        "\"args\",\"signature\":\"fn() -> [str]\"}"));
    json_t *edges = json_object_get(graph, "edges");
    size_t i;
    json_t *edge;
    int reads = 0;
    json_array_foreach(edges, i, edge)
    {
        if (strcmp(json_string_value(json_object_get(edge, "kind")), "reads") != 0 ||
            strcmp(json_string_value(json_object_get(edge, "to")), "data:corpus") != 0)
            continue;
        reads++;
        const char *from = json_string_value(json_object_get(edge, "from"));
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(edge, "sites")),
                        strcmp(from, "function:app.t_read") == 0 ? 2 : 1);
    }
    CU_ASSERT_EQUAL(reads, 2);
    json_decref(graph);
    spx_fixture_free(fixture);
}

/* Limits, effective per test: the command's value when it gave one, then
 * the test's key, then [limits], then the default; each test records them,
 * and the envelope's limits only what the command gave. */
static void test_effective_limits(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_mkdir(fixture, "src");
    spx_fixture_write(fixture, "src/app.spx",
                      "export fn main() -> int { return 0; }\n"
                      "fn t_a() -> int { return 0; }\n");
    spx_fixture_write(fixture, "semaprax.toml",
                      HEAD2 PROJECT "[limits]\nmax_steps = 5\nmax_memory = 4096\n" SOURCE
                                    "[[test]]\nname = \"a\"\nfunction = \"app.t_a\"\n"
                                    "max_steps = 1\nmax_call_depth = 3\n"
                                    "[[test]]\nname = \"b\"\nfunction = \"app.t_a\"\n");
    spx_project_t *project = spx_run_fixture_open(fixture);
    spx_run_limits_t limits = spx_run_limits_default();
    limits.unset = SPX_RUN_UNSET_ALL; /* the command gave none */
    json_t *envelope = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_envelope_build(project, &limits, &envelope, fixture->pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(spx_canonical_text(json_object_get(envelope, "limits"), fixture->pool),
                           "{\"max_bytes\":4096}");
    json_t *tests = json_object_get(envelope, "tests");
    /* a: its own max_steps 1 (the call is 1, the return runs out) */
    CU_ASSERT_STRING_EQUAL(
        spx_canonical_text(json_object_get(json_array_get(tests, 0), "limits"), fixture->pool),
        "{\"max_call_depth\":3,\"max_memory\":4096,\"max_steps\":1}");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(tests, 0), "outcome")),
                           "fuel_exhausted");
    /* b: [limits]'s, then the default depth; 2 steps pass */
    CU_ASSERT_STRING_EQUAL(
        spx_canonical_text(json_object_get(json_array_get(tests, 1), "limits"), fixture->pool),
        "{\"max_call_depth\":256,\"max_memory\":4096,\"max_steps\":5}");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(tests, 1), "outcome")),
                           "passed");
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(envelope, "engine"), "language")),
        "semaprax.language.v3");
    json_decref(envelope);

    /* The command's max_steps wins over the test's key and [limits]. */
    limits.unset = SPX_RUN_UNSET_MEMORY | SPX_RUN_UNSET_DEPTH;
    limits.max_steps = 100;
    CU_ASSERT_EQUAL_FATAL(spx_envelope_build(project, &limits, &envelope, fixture->pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(spx_canonical_text(json_object_get(envelope, "limits"), fixture->pool),
                           "{\"max_bytes\":4096,\"max_steps\":100}");
    tests = json_object_get(envelope, "tests");
    CU_ASSERT_STRING_EQUAL(
        spx_canonical_text(json_object_get(json_array_get(tests, 0), "limits"), fixture->pool),
        "{\"max_call_depth\":3,\"max_memory\":4096,\"max_steps\":100}");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(tests, 0), "outcome")),
                           "passed");
    /* It verifies; editing a limit in the manifest fails (b) and (c). */
    const char *text = spx_canonical_text(envelope, fixture->pool);
    spx_verify_report_t report;
    CU_ASSERT_EQUAL(spx_envelope_verify(text, strlen(text),
                                        spx_fixture_path(fixture, "semaprax.toml"), &report,
                                        fixture->session),
                    APR_SUCCESS);
    CU_ASSERT_TRUE(report.digest_ok && report.subject_ok && report.rerun_ok);
    json_decref(envelope);

    /* semaprax run: the same without the test's key ([limits] max_steps 5). */
    spx_run_result_t result;
    limits.unset = SPX_RUN_UNSET_ALL;
    limits.max_steps = SPX_LIMIT_MAX_STEPS_DEFAULT;
    CU_ASSERT_EQUAL_FATAL(
        spx_run_function(project, "app.t_a", &limits, &result, fixture->pool, &message),
        APR_SUCCESS);
    spx_run_assert_returned(&result, 0, 2);
    spx_fixture_end_session(fixture); /* Windows denies writing a held manifest */
    spx_fixture_write(fixture, "semaprax.toml",
                      HEAD2 PROJECT "[limits]\nmax_steps = 1\n" SOURCE
                                    "[[test]]\nname = \"a\"\nfunction = \"app.t_a\"\n"
                                    "[[test]]\nname = \"b\"\nfunction = \"app.t_a\"\n");
    CU_ASSERT_EQUAL(spx_envelope_verify(text, strlen(text),
                                        spx_fixture_path(fixture, "semaprax.toml"), &report,
                                        fixture->pool),
                    APR_SUCCESS);
    CU_ASSERT_TRUE(report.digest_ok);
    CU_ASSERT_FALSE(report.subject_ok);
    CU_ASSERT_FALSE(report.rerun_ok);
    project = spx_run_fixture_open(fixture);
    CU_ASSERT_EQUAL_FATAL(
        spx_run_function(project, "app.t_a", &limits, &result, fixture->pool, &message),
        APR_SUCCESS);
    CU_ASSERT_EQUAL(result.outcome, SPX_OUTCOME_FUEL_EXHAUSTED);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"read_data and args: values, steps, measure", test_read_data_runs},
        {"args: n = k", test_args_charge},
        {"read_data: E0324, E0325; E0306 for v3 builtins", test_read_data_checks},
        {"data files: E0155", test_data_utf8},
        {"data files: held, revised, listed, refused", test_data_held},
        {"data files: graph nodes and reads edges", test_data_graph},
        {"limits: effective per test, recorded, verified", test_effective_limits},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("v3_input", tests);
}
