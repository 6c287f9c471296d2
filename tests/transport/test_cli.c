/*
 * test_cli.c: process tests of the `semaprax` CLI: the real program, its exit
 * statuses, its messages, and its documents byte for byte against the golden
 * files of the example project.
 */
#include "spx_corpus.h"
#include "spx_process.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

static apr_pool_t *new_pool(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

static const char *hello_manifest(apr_pool_t *pool)
{
    return apr_pstrcat(pool, spx_program_path("SPX_EXAMPLES"), "/hello/semaprax.toml", NULL);
}

static void test_help_and_version(void)
{
    apr_pool_t *pool = new_pool();
    spx_process_result_t help = SPX_RUN_SEMAPRAX(pool, "--help");
    CU_ASSERT_EQUAL(help.exit_code, 0);
    spx_assert_contains(help.out, "usage: semaprax COMMAND");
    spx_process_result_t check_help = SPX_RUN_SEMAPRAX(pool, "check", "--help");
    CU_ASSERT_EQUAL(check_help.exit_code, 0);
    spx_assert_contains(check_help.out, "usage: semaprax check");
    spx_assert_contains(help.out, "  serve     answer JSON-RPC requests about one source file");
    spx_process_result_t serve_help = SPX_RUN_SEMAPRAX(pool, "help", "serve");
    CU_ASSERT_EQUAL(serve_help.exit_code, 0);
    spx_assert_contains(serve_help.out, "usage: semaprax serve SOURCE.spx [--max-request-bytes N]");
    CU_ASSERT_STRING_EQUAL(SPX_RUN_SEMAPRAX(pool, "serve", "--help").out, serve_help.out);
    spx_process_result_t bare_help = SPX_RUN_SEMAPRAX(pool, "help"); /* no command named */
    CU_ASSERT_EQUAL(bare_help.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(bare_help.out, help.out);
    spx_process_result_t version = SPX_RUN_SEMAPRAX(pool, "--version");
    CU_ASSERT_EQUAL(version.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(version.out, "semaprax " SPX_VERSION "\n");
    apr_pool_destroy(pool);
}

static void test_usage_errors_exit_2(void)
{
    apr_pool_t *pool = new_pool();
    spx_process_result_t none =
        spx_process_run(spx_program_path("SPX_SEMAPRAX"), (const char *const[]){NULL}, NULL, pool);
    CU_ASSERT_EQUAL(none.exit_code, 2);
    spx_process_result_t unknown = SPX_RUN_SEMAPRAX(pool, "frobnicate");
    CU_ASSERT_EQUAL(unknown.exit_code, 2);
    spx_assert_contains(unknown.err, "unknown command 'frobnicate'");
    CU_ASSERT_STRING_EQUAL(unknown.out, "");
    spx_process_result_t option = SPX_RUN_SEMAPRAX(pool, "check", "--frob");
    CU_ASSERT_EQUAL(option.exit_code, 2);
    spx_assert_contains(option.err, "unknown option '--frob'");
    spx_process_result_t format = SPX_RUN_SEMAPRAX(pool, "check", "--format", "xml");
    CU_ASSERT_EQUAL(format.exit_code, 2);
    spx_assert_contains(format.err, "unknown format 'xml'");
    spx_process_result_t wrong = SPX_RUN_SEMAPRAX(pool, "graph", "--kind", "module");
    CU_ASSERT_EQUAL(wrong.exit_code, 2);
    spx_assert_contains(wrong.err, "'graph' takes no option --kind");
    spx_process_result_t depth =
        SPX_RUN_SEMAPRAX(pool, "context", "--kind", "module", "--target", "app", "--depth", "-1");
    CU_ASSERT_EQUAL(depth.exit_code, 2);
    spx_assert_contains(depth.err, "--depth takes a whole number, not '-1'");
    apr_pool_destroy(pool);
}

static void test_unreadable_manifest_exits_2(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_process_result_t missing = SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path",
                                                    spx_fixture_path(fixture, "semaprax.toml"));
    CU_ASSERT_EQUAL(missing.exit_code, 2);
    spx_assert_contains(missing.err, "cannot open 'semaprax.toml'");
    spx_fixture_free(fixture);
}

static void test_check_admits_the_example(void)
{
    apr_pool_t *pool = new_pool();
    spx_process_result_t text =
        SPX_RUN_SEMAPRAX(pool, "check", "--manifest-path", hello_manifest(pool));
    CU_ASSERT_EQUAL(text.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(text.out, "semaprax: project 'hello' admitted: 4 modules, 4 tests\n");
    spx_process_result_t json = SPX_RUN_SEMAPRAX(pool, "check", "--manifest-path",
                                                 hello_manifest(pool), "--format", "json");
    CU_ASSERT_EQUAL(json.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(json.out, "{\"admitted\":true,\"diagnostics\":[]}\n");
    apr_pool_destroy(pool);
}

static void test_check_reports_diagnostics(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"bad\"\n"
                      "version = \"1.0.0\"\n\n[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n");
    spx_fixture_write(fixture, "app.spx", "fn f() -> int {\n  return true;\n}\n");
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_process_result_t text =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(text.exit_code, 1);
    spx_assert_contains(text.out, "app.spx:2:10: error[E04");
    spx_process_result_t json =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest, "--format", "json");
    CU_ASSERT_EQUAL(json.exit_code, 1);
    spx_assert_contains(json.out, "{\"admitted\":false,\"diagnostics\":[{\"code\":\"E04");
    spx_process_result_t graph =
        SPX_RUN_SEMAPRAX(fixture->pool, "graph", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(graph.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(graph.out, "");
    spx_assert_contains(graph.err, "the project is not admitted");
    spx_fixture_free(fixture);
}

static const char *two_module_manifest =
    "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"p\"\n"
    "version = \"1.0.0\"\nentry = \"app.main\"\n\n[[source]]\nmodule = \"app\"\n"
    "path = \"app.spx\"\n\n[[source]]\nmodule = \"util\"\npath = \"util.spx\"\n";

/* Warnings do not stop admission (exit 0, "admitted", severity warning in
 * JSON); --deny-warnings makes them fail the check (exit 1). */
static void test_check_warnings(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml", two_module_manifest);
    spx_fixture_write(fixture, "util.spx", "export fn double(x: int) -> int { return x * 2; }\n");
    spx_fixture_write(fixture, "app.spx",
                      "import util;\nfn main() -> int {\n  let unused = 1;\n  return 0;\n}\n"
                      "fn helper() { }\n");
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_process_result_t text =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(text.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(
        text.out,
        "app.spx:1:8: warning[W0601]: module 'util' is imported but nothing of it is used\n"
        "app.spx:3:7: warning[W0602]: local 'unused' is never used (a name starting with '_' "
        "says it is on purpose)\n"
        "app.spx:6:4: warning[W0604]: function 'helper' is never called: it is not exported, and "
        "neither the entry nor a test\n"
        "semaprax: project 'p' admitted: 2 modules, 0 tests; 3 warnings\n");
    spx_process_result_t denied =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest, "--deny-warnings");
    CU_ASSERT_EQUAL(denied.exit_code, 1);
    spx_assert_contains(denied.out, "; 3 warnings, denied\n");
    spx_process_result_t json = SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path",
                                                 manifest, "--format", "json", "--deny-warnings");
    CU_ASSERT_EQUAL(json.exit_code, 1);
    spx_assert_contains(json.out, "{\"admitted\":true,\"diagnostics\":[{\"code\":\"W0601\"");
    spx_assert_contains(json.out, "\"severity\":\"warning\"");
    /* A program with an error shows only its errors: the warnings would be
     * their echo. */
    spx_fixture_write(fixture, "app.spx",
                      "import util;\nfn main() -> int {\n  let unused = 1;\n  return nope;\n}\n");
    spx_process_result_t broken =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(broken.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(broken.out, "app.spx:4:10: error[E0308]: unknown name 'nope'\n"
                                       "semaprax: 1 diagnostic\n");
    spx_fixture_free(fixture);
}

/* Suggestions end the message and are a JSON member; notes follow their
 * diagnostic as "note:" lines and are a JSON member. */
static void test_check_suggestions_and_notes(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml", two_module_manifest);
    spx_fixture_write(fixture, "util.spx", "export fn double(x: int) -> int { return x * 2; }\n");
    spx_fixture_write(fixture, "app.spx",
                      "import util;\nfn f() { }\nfn f() { }\n"
                      "fn main() -> int { let count = 1; return util.dobule(cont); }\n");
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_process_result_t text =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(text.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(
        text.out,
        "app.spx:3:4: error[E0305]: function 'f' is already defined in module 'app'\n"
        "app.spx:2:4: note: first declared here\n"
        "app.spx:4:47: error[E0309]: unknown function 'dobule' in module 'util'; did you mean "
        "'util.double'?\n"
        "app.spx:4:54: error[E0308]: unknown name 'cont'; did you mean 'count'?\n"
        "semaprax: 3 diagnostics\n");
    spx_process_result_t json =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest, "--format", "json");
    spx_assert_contains(json.out, "\"notes\":[{\"message\":\"first declared here\",\"path\":"
                                  "\"app.spx\",\"span\":{\"end\":{\"column\":5,\"line\":2,");
    spx_assert_contains(json.out, "\"suggestions\":[\"util.double\"]");
    spx_assert_contains(json.out, "\"suggestions\":[\"count\"]");
    spx_fixture_free(fixture);
}

/* The output equals tests/golden/FOLDER/NAME byte for byte. */
static void assert_golden_in(const spx_process_result_t *result, const char *folder,
                             const char *name, apr_pool_t *pool)
{
    apr_size_t length = 0;
    const char *golden = spx_corpus_read(
        apr_pstrcat(pool, spx_corpus_dir(apr_pstrcat(pool, "golden/", folder, NULL), pool), "/",
                    name, NULL),
        &length, pool);
    CU_ASSERT_EQUAL(result->exit_code, 0);
    CU_ASSERT_EQUAL(result->out_length, length);
    if (result->out_length != length || memcmp(result->out, golden, length) != 0)
        fprintf(stderr, "\n  %s differs from its golden file:\n%s\n", name, result->out);
    CU_ASSERT_TRUE(result->out_length == length && memcmp(result->out, golden, length) == 0);
}

/* The output equals tests/golden/hello/NAME byte for byte. */
static void assert_golden(const spx_process_result_t *result, const char *name, apr_pool_t *pool)
{
    assert_golden_in(result, "hello", name, pool);
}

static const char *inventory_manifest(apr_pool_t *pool)
{
    return apr_pstrcat(pool, spx_program_path("SPX_EXAMPLES"), "/inventory/semaprax.toml", NULL);
}

/* --format text: the outline of the graph, of hello and of inventory. */
static void test_graph_text_matches_golden(void)
{
    apr_pool_t *pool = new_pool();
    spx_process_result_t hello = SPX_RUN_SEMAPRAX(pool, "graph", "--manifest-path",
                                                  hello_manifest(pool), "--format", "text");
    assert_golden(&hello, "graph.txt", pool);
    spx_process_result_t inventory = SPX_RUN_SEMAPRAX(pool, "graph", "--manifest-path",
                                                      inventory_manifest(pool), "--format", "text");
    assert_golden_in(&inventory, "inventory", "graph.txt", pool);
    apr_pool_destroy(pool);
}

/* --format text: the outline of a context, a whole one and one the budget
 * cut (its last line says what was left out). */
static void test_context_text_matches_golden(void)
{
    apr_pool_t *pool = new_pool();
    spx_process_result_t fib =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "function", "--target", "math.fib", "--format", "text");
    assert_golden(&fib, "context-math.fib.txt", pool);
    spx_process_result_t app = SPX_RUN_SEMAPRAX(
        pool, "context", "--manifest-path", hello_manifest(pool), "--kind", "module", "--target",
        "app", "--direction", "out", "--depth", "2", "--max-nodes", "4", "--format", "text");
    assert_golden(&app, "context-app-out-4.txt", pool);
    spx_assert_contains(app.out,
                        "\ntruncated: 19 nodes omitted (by tie: calls 8, uses 1, module 10), 2 "
                        "of them on the frontier");
    spx_process_result_t stock =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", inventory_manifest(pool), "--kind",
                         "struct", "--target", "stock.Stock", "--format", "text");
    assert_golden_in(&stock, "inventory", "context-stock.Stock.txt", pool);
    apr_pool_destroy(pool);
}

/* Off a terminal (these pipes) graph and context print their JSON, as
 * --format json does; --format text forces the outline; another format is
 * a usage error. */
static void test_graph_and_context_formats(void)
{
    apr_pool_t *pool = new_pool();
    const char *manifest = hello_manifest(pool);
    spx_process_result_t piped = SPX_RUN_SEMAPRAX(pool, "graph", "--manifest-path", manifest);
    spx_process_result_t json =
        SPX_RUN_SEMAPRAX(pool, "graph", "--manifest-path", manifest, "--format", "json");
    spx_process_result_t text =
        SPX_RUN_SEMAPRAX(pool, "graph", "--manifest-path", manifest, "--format", "text");
    CU_ASSERT_EQUAL(piped.exit_code, 0);
    CU_ASSERT_EQUAL(json.exit_code, 0);
    CU_ASSERT_EQUAL(text.exit_code, 0);
    CU_ASSERT_TRUE(strncmp(piped.out, "{\"edges\":[", 10) == 0);
    CU_ASSERT_STRING_EQUAL(json.out, piped.out);
    CU_ASSERT_TRUE(strncmp(text.out, "project hello\nmodule app (src/app.spx)\n", 39) == 0);
    spx_process_result_t context_piped =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", manifest, "--target", "module:math");
    spx_process_result_t context_json =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", manifest, "--target", "module:math",
                         "--format", "json");
    spx_process_result_t context_text =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", manifest, "--target", "module:math",
                         "--format", "text");
    CU_ASSERT_EQUAL(context_piped.exit_code, 0);
    CU_ASSERT_TRUE(strncmp(context_piped.out, "{\"depth\":", 9) == 0);
    CU_ASSERT_STRING_EQUAL(context_json.out, context_piped.out);
    CU_ASSERT_EQUAL(context_text.exit_code, 0);
    spx_assert_contains(context_text.out, "context of module:math: direction both, depth 1; ");
    spx_assert_contains(context_text.out, "\nmodule:math (target)\n  module math (src/math.spx)\n");
    spx_process_result_t yaml =
        SPX_RUN_SEMAPRAX(pool, "graph", "--manifest-path", manifest, "--format", "yaml");
    CU_ASSERT_EQUAL(yaml.exit_code, 2);
    spx_assert_contains(yaml.err, "unknown format 'yaml': use text or json");
    CU_ASSERT_STRING_EQUAL(yaml.out, "");
    spx_process_result_t context_yaml = SPX_RUN_SEMAPRAX(
        pool, "context", "--manifest-path", manifest, "--target", "entry", "--format", "yaml");
    CU_ASSERT_EQUAL(context_yaml.exit_code, 2);
    spx_assert_contains(context_yaml.err, "unknown format 'yaml': use text or json");
    apr_pool_destroy(pool);
}

/* The outline declares each item as its source does, and writes a str
 * const's value quoted, with what a terminal would not draw escaped: a
 * control byte, a C1 control, a bidirectional override, a byte order mark
 * (an é stays as it is). */
static void test_graph_text_declarations(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"p\"\n"
                      "version = \"1.0.0\"\n\n[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n");
    spx_fixture_write(fixture, "app.spx",
                      "export const S: str = \"a\\\"b\\\\c\\n\\u{7}\\u{9b}\\u{202e}\\u{e9}"
                      "\\u{feff}\";\nconst N: int = 7;\nexport enum E { A, B(int, str) }\n"
                      "struct P { x: int, s: [str] }\nfn f(e: E) -> int { return N; }\n");
    spx_process_result_t text =
        SPX_RUN_SEMAPRAX(fixture->pool, "graph", "--manifest-path",
                         spx_fixture_path(fixture, "semaprax.toml"), "--format", "text");
    CU_ASSERT_EQUAL(text.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(text.out, "project p\n"
                                     "module app (app.spx)\n"
                                     "  const N: int = 7\n"
                                     "    read by app.f (1 site)\n"
                                     "  export const S: str = "
                                     "\"a\\\"b\\\\c\\n\\x07\\u{9b}\\u{202e}\xc3\xa9\\u{feff}\"\n"
                                     "  export enum E { A, B(int, str) }\n"
                                     "    used by app.f (1 site)\n"
                                     "  fn f(e: app.E) -> int\n"
                                     "    reads app.N (1 site)\n"
                                     "    uses app.E (1 site)\n"
                                     "  struct P { x: int, s: [str] }\n");
    spx_fixture_free(fixture);
}

/* The text form of a project that is not admitted prints nothing on
 * stdout and, on stderr, check's lines for its diagnostics and the line
 * saying it is not admitted (exit 1); one that cannot be read says why
 * (exit 2), as check does. */
static void test_text_of_a_project_not_admitted(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml", two_module_manifest);
    spx_fixture_write(fixture, "util.spx", "export fn double(x: int) -> int { return x * 2; }\n");
    spx_fixture_write(fixture, "app.spx",
                      "import util;\nfn main() -> int {\n  let unused = 1;\n  return nope;\n}\n");
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_process_result_t check =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(check.exit_code, 1);
    const char *line = "app.spx:4:10: error[E0308]: unknown name 'nope'\n";
    CU_ASSERT_STRING_EQUAL(check.out,
                           apr_pstrcat(fixture->pool, line, "semaprax: 1 diagnostic\n", NULL));
    const char *expected = apr_pstrcat(
        fixture->pool, line, "semaprax: the project is not admitted (1 diagnostic)\n", NULL);
    spx_process_result_t graph =
        SPX_RUN_SEMAPRAX(fixture->pool, "graph", "--manifest-path", manifest, "--format", "text");
    CU_ASSERT_EQUAL(graph.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(graph.out, "");
    CU_ASSERT_STRING_EQUAL(graph.err, expected);
    spx_process_result_t context =
        SPX_RUN_SEMAPRAX(fixture->pool, "context", "--manifest-path", manifest, "--target",
                         "function:app.main", "--format", "text");
    CU_ASSERT_EQUAL(context.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(context.out, "");
    CU_ASSERT_STRING_EQUAL(context.err, expected);
    spx_process_result_t missing =
        SPX_RUN_SEMAPRAX(fixture->pool, "graph", "--manifest-path",
                         spx_fixture_path(fixture, "none.toml"), "--format", "text");
    spx_process_result_t check_missing = SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path",
                                                          spx_fixture_path(fixture, "none.toml"));
    CU_ASSERT_EQUAL(missing.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(missing.out, "");
    CU_ASSERT_STRING_EQUAL(missing.err, check_missing.err);
    spx_fixture_free(fixture);
}

static void test_graph_matches_golden(void)
{
    apr_pool_t *pool = new_pool();
    spx_process_result_t graph =
        SPX_RUN_SEMAPRAX(pool, "graph", "--manifest-path", hello_manifest(pool));
    assert_golden(&graph, "graph.json", pool);
    apr_pool_destroy(pool);
}

static void test_context_matches_golden(void)
{
    apr_pool_t *pool = new_pool();
    spx_process_result_t fib =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "function", "--target", "math.fib");
    assert_golden(&fib, "context-math.fib.json", pool);
    spx_process_result_t app = SPX_RUN_SEMAPRAX(
        pool, "context", "--manifest-path", hello_manifest(pool), "--kind", "module", "--target",
        "app", "--direction", "out", "--depth", "2", "--max-nodes", "4");
    assert_golden(&app, "context-app-out-4.json", pool);
    spx_process_result_t tiny =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "function", "--target", "app.main", "--max-bytes", "860");
    assert_golden(&tiny, "context-app.main-860.json", pool);
    CU_ASSERT_TRUE(tiny.out_length <= 861);
    apr_pool_destroy(pool);
}

static void test_context_errors(void)
{
    apr_pool_t *pool = new_pool();
    spx_process_result_t unknown =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "function", "--target", "math.nope");
    CU_ASSERT_EQUAL(unknown.exit_code, 2);
    spx_assert_contains(unknown.err, "no function 'math.nope' in this project");
    spx_process_result_t kind =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "entry", "--target", "x");
    CU_ASSERT_EQUAL(kind.exit_code, 2);
    spx_assert_contains(kind.err, "unknown target kind 'entry'");
    spx_process_result_t deep =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "module", "--target", "app", "--depth", "17");
    CU_ASSERT_EQUAL(deep.exit_code, 2);
    spx_assert_contains(deep.err, "--depth 17 is over the maximum of 16");
    spx_process_result_t no_nodes =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "module", "--target", "app", "--max-nodes", "0");
    CU_ASSERT_EQUAL(no_nodes.exit_code, 2);
    spx_assert_contains(no_nodes.err, "--max-nodes 0 is under the minimum of 1");
    spx_process_result_t too_small =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "module", "--target", "app", "--max-bytes", "10");
    CU_ASSERT_EQUAL(too_small.exit_code, 2);
    spx_assert_contains(too_small.err, "cannot hold even the target");
    spx_process_result_t nearest =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "function", "--target", "math.fibb");
    CU_ASSERT_EQUAL(nearest.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(nearest.out, "");
    spx_assert_contains(nearest.err,
                        "semaprax: no function 'math.fibb' in this project; nearest: math.fib, "
                        "math.fact\n");
    spx_process_result_t disagree =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "struct", "--target", "function:math.fact");
    CU_ASSERT_EQUAL(disagree.exit_code, 2);
    spx_assert_contains(disagree.err, "target 'function:math.fact' is a function id but the "
                                      "target kind given is 'struct'");
    spx_process_result_t no_kind = SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path",
                                                    hello_manifest(pool), "--target", "math.fact");
    CU_ASSERT_EQUAL(no_kind.exit_code, 2);
    spx_assert_contains(no_kind.err, "or a node id such as function:math.fact");
    apr_pool_destroy(pool);
}

/* A graph node id names the target without --kind, and the answer is the
 * one --kind and the name give, byte for byte. */
static void test_context_of_a_graph_node_id(void)
{
    apr_pool_t *pool = new_pool();
    spx_process_result_t named =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "function", "--target", "math.fact", "--depth", "2");
    spx_process_result_t by_id =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--target",
                         "function:math.fact", "--depth", "2");
    spx_process_result_t both =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", hello_manifest(pool), "--kind",
                         "function", "--target", "function:math.fact", "--depth", "2");
    CU_ASSERT_EQUAL(named.exit_code, 0);
    CU_ASSERT_EQUAL(by_id.exit_code, 0);
    CU_ASSERT_EQUAL(both.exit_code, 0);
    spx_assert_contains(named.out, "\"target\":\"function:math.fact\"");
    CU_ASSERT_STRING_EQUAL(by_id.out, named.out);
    CU_ASSERT_STRING_EQUAL(both.out, named.out);
    spx_process_result_t module = SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path",
                                                   hello_manifest(pool), "--target", "module:app");
    CU_ASSERT_EQUAL(module.exit_code, 0);
    spx_assert_contains(module.out, "\"target\":\"module:app\"");
    spx_process_result_t entry = SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path",
                                                  hello_manifest(pool), "--target", "entry");
    CU_ASSERT_EQUAL(entry.exit_code, 0);
    spx_assert_contains(entry.out, "\"target\":\"entry\"");
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"--help and --version", test_help_and_version},
        {"usage errors exit 2", test_usage_errors_exit_2},
        {"an unreadable manifest exits 2", test_unreadable_manifest_exits_2},
        {"check admits the example", test_check_admits_the_example},
        {"check reports diagnostics", test_check_reports_diagnostics},
        {"check: warnings and --deny-warnings", test_check_warnings},
        {"check: suggestions and notes", test_check_suggestions_and_notes},
        {"graph matches its golden file", test_graph_matches_golden},
        {"context matches its golden files", test_context_matches_golden},
        {"graph --format text matches its golden files", test_graph_text_matches_golden},
        {"context --format text matches its golden files", test_context_text_matches_golden},
        {"graph and context: JSON off a terminal, --format", test_graph_and_context_formats},
        {"--format text of a project not admitted", test_text_of_a_project_not_admitted},
        {"graph --format text: declarations and escapes", test_graph_text_declarations},
        {"context errors", test_context_errors},
        {"context of a graph node id", test_context_of_a_graph_node_id},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("semaprax CLI", tests);
}
