/*
 * test_project.c: Phase A as one call: linking the entry and the tests
 * (E0150, E0151), the revisions, and the context budget measured on the
 * example project; the single-source project of `serve` (transport v1): the
 * module named after its file, its digest, and a graph with the same nodes
 * and edges as a manifest's project of that one source; the diagnostics-only
 * rebuild (spx_project_rebuild_checked): the full rebuild's check document
 * byte for byte over every project of tests/projects, examples/ and the
 * checker corpus (as built and with an edit), and refused by what needs the
 * index or the code.
 */
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_digest.h"
#include "spx_envelope.h"
#include "spx_index.h"
#include "spx_limits.h"
#include "project_internal.h" /* white-box: the project's own fields */
#include "spx_project.h"
#include "spx_rename.h"
#include "spx_run_fixture.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

static const char manifest_head[] = "manifest = \"semaprax.project-manifest.v1\"\n\n"
                                    "[project]\nname = \"p\"\nversion = \"1.0.0\"\n";

static void test_entry_and_tests_are_linked(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool, manifest_head,
                                  "entry = \"app.main\"\n\n[[source]]\nmodule = \"app\"\n"
                                  "path = \"app.spx\"\n\n[[test]]\nname = \"t\"\n"
                                  "function = \"app.check\"\n",
                                  NULL));
    spx_fixture_write(fixture, "app.spx",
                      "export fn main() -> int { return 0; }\nfn check() -> int { return 0; }\n");
    spx_project_t *project = spx_fixture_project(fixture);
    CU_ASSERT_TRUE(project->admitted);
    CU_ASSERT_PTR_NOT_NULL_FATAL(project->entry);
    CU_ASSERT_STRING_EQUAL(project->entry->name.text, "main");
    CU_ASSERT_STRING_EQUAL(project->tests[0]->name.text, "check");
    spx_fixture_free(fixture);
}

static void test_wrong_signature_and_missing_function(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool, manifest_head,
                                  "entry = \"app.main\"\n\n[[source]]\nmodule = \"app\"\n"
                                  "path = \"app.spx\"\n\n[[test]]\nname = \"t\"\n"
                                  "function = \"app.gone\"\n\n[[test]]\nname = \"u\"\n"
                                  "function = \"app.takes\"\n",
                                  NULL));
    spx_fixture_write(fixture, "app.spx",
                      "export fn main() -> bool { return true; }\n"
                      "fn takes(x: int) -> int { return x; }\n");
    spx_project_t *project = spx_fixture_project(fixture);
    CU_ASSERT_FALSE(project->admitted);
    CU_ASSERT_STRING_EQUAL(spx_corpus_summary(project->diagnostics, fixture->pool),
                           "E0150 6:9-6:19\nE0151 14:12-14:22\nE0150 18:12-18:23\n");
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(project->diagnostics, 0)->message,
                           "entry names 'app.main', of signature fn() -> bool; it must be "
                           "fn() -> int");
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(project->diagnostics, 1)->message,
                           "test 't' names 'app.gone', which is not a function of a declared "
                           "module");
    spx_fixture_free(fixture);
}

/* An entry that names no function gets the nearest function of its module. */
static void test_missing_entry_names_the_nearest(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool, manifest_head,
                                  "entry = \"app.mian\"\n\n[[source]]\nmodule = \"app\"\n"
                                  "path = \"app.spx\"\n\n[[test]]\nname = \"t\"\n"
                                  "function = \"app.zzzzzzzz\"\n",
                                  NULL));
    spx_fixture_write(fixture, "app.spx",
                      "export fn main() -> int { return 0; }\n"
                      "fn maid() -> int { return 0; }\n");
    spx_project_t *project = spx_fixture_project(fixture);
    CU_ASSERT_FALSE(project->admitted);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(project->diagnostics), 2);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(project->diagnostics, 0)->message,
                           "entry names 'app.mian', which is not a function of a declared "
                           "module; did you mean 'app.main'?");
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(project->diagnostics, 1)->message,
                           "test 't' names 'app.zzzzzzzz', which is not a function of a declared "
                           "module");
    CU_ASSERT_PTR_NULL(project->index);
    spx_fixture_free(fixture);
}

typedef struct phase_a_run_t {
    spx_fixture_t *fixture;
    spx_project_t *project;
} phase_a_run_t;

static void open_project(void *data)
{
    phase_a_run_t *run = data;
    run->project = spx_fixture_project(run->fixture);
}

/* A flat chain of operators is not nesting: 100000 calls joined by "+" pass
 * Phase A (parse, check, index) without E0225, on a 256 KiB stack (so
 * without recursing per term), and the graph has the one "calls" edge. */
static void test_flat_chain_of_calls(void)
{
    enum { TERMS = 100000 };
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool, manifest_head,
                                  "\n[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n", NULL));
    apr_array_header_t *parts = apr_array_make(fixture->pool, TERMS + 2, sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = "fn one() -> int { return 1; }\n"
                                          "fn sum() -> int { return one()";
    for (int i = 1; i < TERMS; i++)
        APR_ARRAY_PUSH(parts, const char *) = " + one()";
    APR_ARRAY_PUSH(parts, const char *) = "; }\n";
    spx_fixture_write(fixture, "app.spx", apr_array_pstrcat(fixture->pool, parts, 0));
    phase_a_run_t run = {fixture, NULL};
    spx_test_with_stack(256 * 1024, open_project, &run, fixture->pool);
    spx_project_t *project = run.project;
    CU_ASSERT_PTR_NOT_NULL_FATAL(project);
    /* sum is neither called, exported, the entry nor a test: a warning only. */
    CU_ASSERT_STRING_EQUAL(spx_corpus_summary(project->diagnostics, fixture->pool),
                           "W0604 2:4-2:7\n");
    CU_ASSERT_TRUE_FATAL(project->admitted);
    json_t *graph = spx_corpus_graph(project);
    size_t index;
    json_t *edge;
    int calls = 0;
    json_array_foreach(json_object_get(graph, "edges"), index, edge)
    {
        if (strcmp(json_string_value(json_object_get(edge, "kind")), "calls") != 0)
            continue;
        calls++;
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(edge, "from")),
                               "function:app.sum");
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(edge, "to")), "function:app.one");
    }
    CU_ASSERT_EQUAL(calls, 1);
    json_decref(graph);
    spx_fixture_free(fixture);
}

/* project_revision depends on content only; workspace_revision on identities too. */
static void test_revisions(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest =
        apr_pstrcat(fixture->pool, manifest_head,
                    "\n[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n", NULL);
    const char *source = "fn f() -> int { return 1; }\n";
    spx_fixture_write(fixture, "a/semaprax.toml", manifest);
    spx_fixture_write(fixture, "a/src/app.spx", source);
    spx_fixture_write(fixture, "b/semaprax.toml", manifest);
    spx_fixture_write(fixture, "b/src/app.spx", source);
    spx_project_t *a = NULL, *b = NULL, *again = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_project_open(&a, spx_fixture_path(fixture, "a/semaprax.toml"), fixture->pool, &message),
        APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(
        spx_project_open(&b, spx_fixture_path(fixture, "b/semaprax.toml"), fixture->pool, &message),
        APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&again, spx_fixture_path(fixture, "a/semaprax.toml"),
                                           fixture->pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(a->project_revision, b->project_revision);
    CU_ASSERT_STRING_NOT_EQUAL(a->workspace_revision, b->workspace_revision);
    CU_ASSERT_STRING_EQUAL(a->workspace_revision, again->workspace_revision);
    /* Recomputed by hand from outputs.md's definition. */
    spx_sha256_t digest;
    spx_sha256(manifest, strlen(manifest), &digest);
    const char *manifest_digest = spx_digest_text(&digest, fixture->pool);
    spx_sha256(source, strlen(source), &digest);
    json_t *subject =
        json_pack("{s:s, s:[{s:s, s:s, s:s}]}", "manifest", manifest_digest, "sources", "digest",
                  spx_digest_text(&digest, fixture->pool), "module", "app", "path", "src/app.spx");
    CU_ASSERT_STRING_EQUAL(a->project_revision, spx_canonical_digest(subject, fixture->pool));
    json_decref(subject);
    spx_fixture_free(fixture);
}

static spx_project_t *open_hello(apr_pool_t *pool)
{
    const char *examples = getenv("SPX_EXAMPLES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(examples);
    spx_project_t *project = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_project_open(&project, apr_pstrcat(pool, examples, "/hello/semaprax.toml", NULL), pool,
                         &message),
        APR_SUCCESS);
    CU_ASSERT_TRUE_FATAL(project->admitted);
    return project;
}

static apr_size_t context_size(const spx_project_t *project, spx_context_request_t *request,
                               json_t **document, apr_pool_t *pool)
{
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_context_document(project, request, 1u << 24, document, pool, &message), APR_SUCCESS);
    return strlen(spx_canonical_text(*document, pool));
}

/* A target whose text is over max_bytes is cut at a UTF-8 boundary: every
 * budget from the outline alone up to the whole text gives a document whose
 * text is a prefix of the function's, never a split character (a 2-, 3- and
 * 4-byte character, so every cut position inside one is met). */
static void test_context_cuts_text_at_a_character(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool, manifest_head,
                                  "\n[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n", NULL));
    const char *function = "fn wide() -> str { return \"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
                           "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"; }";
    spx_fixture_write(fixture, "app.spx", apr_pstrcat(fixture->pool, function, "\n", NULL));
    spx_project_t *project = spx_fixture_project(fixture);
    CU_ASSERT_TRUE_FATAL(project->admitted);
    spx_context_request_t request = spx_context_defaults();
    request.target_kind = "function";
    request.target = "app.wide";
    request.max_nodes = 1;
    int cuts = 0;
    for (apr_uint64_t budget = 400; budget < 800; budget++) {
        request.max_bytes = budget;
        json_t *document = NULL;
        const char *message = NULL;
        if (spx_context_document(project, &request, 1u << 24, &document, fixture->pool, &message) !=
            APR_SUCCESS)
            continue; /* under the outline: refused, saying so */
        json_t *node = json_array_get(json_object_get(document, "nodes"), 0);
        const char *text = json_string_value(json_object_get(node, "text"));
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        CU_ASSERT_EQUAL(strncmp(function, text, strlen(text)), 0);
        if (json_is_true(json_object_get(node, "text_truncated")))
            cuts++;
        json_decref(document);
    }
    CU_ASSERT_TRUE(cuts > 20); /* the 50 budgets that cut meet every position */
    spx_fixture_free(fixture);
}

/* A budget one byte under what a node needs leaves that node out, says so,
 * and names it in the frontier; the exact budget keeps it. */
static void test_context_budget_one_byte_under(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_hello(pool);
    spx_context_request_t request = spx_context_defaults();
    request.target_kind = "function";
    request.target = "math.fib";
    json_t *whole = NULL;
    context_size(project, &request, &whole, pool);
    size_t total = json_array_size(json_object_get(whole, "nodes"));
    CU_ASSERT_TRUE_FATAL(total >= 3);
    const char *last = json_string_value(
        json_object_get(json_array_get(json_object_get(whole, "nodes"), total - 1), "id"));

    /* The smallest budget that holds every node: the document names its own
     * budget, so iterate to the fixed point. */
    json_t *exact = NULL;
    request.max_bytes = context_size(project, &request, &exact, pool);
    for (int round = 0; round < 5; round++) {
        json_decref(exact);
        apr_size_t size = context_size(project, &request, &exact, pool);
        if (size == request.max_bytes)
            break;
        request.max_bytes = size;
    }
    CU_ASSERT_EQUAL(json_array_size(json_object_get(exact, "nodes")), total);
    CU_ASSERT_TRUE(json_is_false(json_object_get(exact, "truncated")));

    request.max_bytes -= 1;
    json_t *under = NULL;
    apr_size_t size = context_size(project, &request, &under, pool);
    CU_ASSERT_TRUE(size <= request.max_bytes);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(under, "nodes")), total - 1);
    CU_ASSERT_TRUE(json_is_true(json_object_get(under, "truncated")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(under, "omitted_nodes")), 1);
    json_t *frontier = json_object_get(under, "frontier");
    CU_ASSERT_EQUAL_FATAL(json_array_size(frontier), 1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(frontier, 0)), last);

    /* max_nodes cuts the same way. */
    request.max_bytes = 65536;
    request.max_nodes = 1;
    json_t *one = NULL;
    context_size(project, &request, &one, pool);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(one, "nodes")), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(one, "omitted_nodes")),
                    (json_int_t)total - 1);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(one, "edges")), 0);
    json_decref(whole);
    json_decref(exact);
    json_decref(under);
    json_decref(one);
    apr_pool_destroy(pool);
}

/* The same request gives the same bytes. */
static void test_context_is_deterministic(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *first = open_hello(pool), *second = open_hello(pool);
    spx_context_request_t request = spx_context_defaults();
    request.target_kind = "module";
    request.target = "app";
    request.depth = 3;
    json_t *a = NULL, *b = NULL;
    context_size(first, &request, &a, pool);
    context_size(second, &request, &b, pool);
    CU_ASSERT_STRING_EQUAL(spx_canonical_text(a, pool), spx_canonical_text(b, pool));
    json_decref(a);
    json_decref(b);
    apr_pool_destroy(pool);
}

/* Phase A holds one module's bodies at a time when the imports form no
 * cycle, whatever the manifest's order: here a chain listed importer first,
 * with an import the quick look cannot see (after a function). A cycle
 * makes it hold the modules of the cycle. */
static void test_one_module_body_at_a_time(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *sources = "";
    for (int m = 4; m >= 0; m--) {
        const char *text = m > 0 ? apr_psprintf(fixture->pool, "import m%d;\n", m - 1) : "";
        text = apr_psprintf(fixture->pool, "%sexport fn f() -> int { return %s; }\n", text,
                            m > 0 ? apr_psprintf(fixture->pool, "m%d.f() + 1", m - 1) : "0");
        if (m == 2)
            text = apr_pstrcat(fixture->pool, text,
                               "import m0;\nfn g() -> int { return m0.f(); }\n", NULL);
        spx_fixture_write(fixture, apr_psprintf(fixture->pool, "m%d.spx", m), text);
        sources = apr_psprintf(
            fixture->pool, "%s\n[[source]]\nmodule = \"m%d\"\npath = \"m%d.spx\"\n", sources, m, m);
    }
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool, manifest_head, sources, NULL));
    spx_project_t *project = spx_fixture_project(fixture);
    /* E0223: the late import is reported, and still taken. */
    CU_ASSERT_EQUAL(spx_diagnostics_count(project->diagnostics), 1);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(project->diagnostics, 0)->code, "E0223");
    CU_ASSERT_EQUAL(project->most_bodies_held, 1);

    spx_fixture_end_session(fixture);
    spx_fixture_write(fixture, "m0.spx", "import m4;\nexport fn f() -> int { return m4.f(); }\n");
    project = spx_fixture_project(fixture);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(project->diagnostics, 0)->code, "E0304");
    CU_ASSERT_TRUE(project->most_bodies_held > 1);
    spx_fixture_free(fixture);
}

/* The single-source project of the fixture's file name. */
static spx_project_t *open_source(spx_fixture_t *fixture, const char *name)
{
    spx_project_t *source = NULL;
    const char *message = NULL;
    apr_status_t status =
        spx_project_open_source(&source, spx_fixture_path(fixture, name), fixture->pool, &message);
    if (status != APR_SUCCESS)
        fprintf(stderr, "\n  %s\n", message);
    CU_ASSERT_EQUAL_FATAL(status, APR_SUCCESS);
    return source;
}

static const char single_source[] = "// one module\n"
                                    "export fn main() -> int { print(itos(twice(2))); return 0; }\n"
                                    "fn twice(n: int) -> int {\n  return n + n;\n}\n";

static void test_single_source_graph_is_the_project_graph_of_one_module(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool, manifest_head,
                                  "\n[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n", NULL));
    spx_fixture_write(fixture, "app.spx", single_source);
    spx_project_t *source = open_source(fixture, "app.spx");
    CU_ASSERT_TRUE_FATAL(source->admitted);
    CU_ASSERT_PTR_NULL(source->manifest);
    CU_ASSERT_PTR_NULL(source->project_revision);
    CU_ASSERT_EQUAL(source->module_count, 1);
    CU_ASSERT_STRING_EQUAL(source->modules[0]->name, "app");
    CU_ASSERT_STRING_EQUAL(source->modules[0]->path, "app.spx");
    spx_sha256_t digest;
    spx_sha256(single_source, sizeof(single_source) - 1, &digest);
    CU_ASSERT_STRING_EQUAL(source->source_digest, spx_digest_text(&digest, fixture->pool));

    spx_project_t *project = spx_fixture_project(fixture);
    CU_ASSERT_TRUE_FATAL(project->admitted);
    json_t *v1 = spx_corpus_source_graph(source);
    json_t *graph = spx_corpus_graph(project);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(v1, "schema")),
                           "semaprax.source-semantic-graph.v1");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(v1, "source_digest")),
                           source->source_digest);
    CU_ASSERT_EQUAL(json_object_size(v1), 4); /* schema, source_digest, nodes, edges */
    CU_ASSERT_TRUE(json_equal(json_object_get(v1, "nodes"), json_object_get(graph, "nodes")));
    CU_ASSERT_TRUE(json_equal(json_object_get(v1, "edges"), json_object_get(graph, "edges")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(v1, "nodes")), 5); /* 2 builtins, 2 fns, app */
    json_decref(v1);
    json_decref(graph);
    spx_fixture_free(fixture);
}

static void test_single_source_diagnostics_and_refusals(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "lib.spx",
                      "import other;\nimport lib;\nfn f() -> int { return g(); }\n");
    spx_project_t *source = open_source(fixture, "lib.spx");
    const char *message = NULL;
    CU_ASSERT_FALSE(source->admitted);
    CU_ASSERT_PTR_NULL(source->index);
    /* No other module exists; importing itself is refused too. */
    CU_ASSERT_STRING_EQUAL(spx_corpus_summary(source->diagnostics, fixture->pool),
                           "E0301 1:8-1:13\nE0303 2:8-2:11\nE0309 3:24-3:25\n");
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(source->diagnostics, 0)->path, "lib.spx");

    const struct {
        const char *name;
        const char *message;
    } refused[] = {
        {"lib.txt", "is not named MODULE.spx"},
        {"9lib.spx", "the module name '9lib' (the file's name) must start with a lowercase"},
        {"missing.spx", "missing.spx"},
    };
    spx_fixture_write(fixture, "lib.txt", "fn f() -> int { return 1; }\n");
    spx_fixture_write(fixture, "9lib.spx", "fn f() -> int { return 1; }\n");
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        message = NULL;
        CU_ASSERT_NOT_EQUAL(spx_project_open_source(&source,
                                                    spx_fixture_path(fixture, refused[i].name),
                                                    fixture->pool, &message),
                            APR_SUCCESS);
        CU_ASSERT_PTR_NOT_NULL_FATAL(message);
        if (!strstr(message, refused[i].message))
            fprintf(stderr, "\n  %s: %s\n", refused[i].name, message);
        CU_ASSERT_PTR_NOT_NULL(strstr(message, refused[i].message));
    }
    spx_fixture_free(fixture);
}

/* A module imported only after an item (E0223: the quick look at the
 * imports that orders Phase A does not see it) still has its bodies
 * checked: its own errors are reported beside the E0223. */
static void test_module_imported_after_an_item_is_checked(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool, manifest_head,
                                  "\n[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n"
                                  "\n[[source]]\nmodule = \"math\"\npath = \"math.spx\"\n",
                                  NULL));
    spx_fixture_write(fixture, "app.spx",
                      "struct Item { name: str }\nimport math;\n"
                      "export fn app() -> int { return math.twice(1); }\n");
    spx_fixture_write(fixture, "math.spx", "export fn twice(a: int) -> int {\n}\n");
    spx_project_t *project = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project, spx_fixture_path(fixture, "semaprax.toml"),
                                           fixture->pool, &message),
                          APR_SUCCESS);
    const spx_diagnostics_t *diagnostics = spx_project_diagnostics(project);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 2);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(diagnostics, 0)->code, "E0223");
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(diagnostics, 1)->code, "E0410");
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(diagnostics, 1)->path, "math.spx");
    spx_fixture_free(fixture);
}

/* The canonical text of a project's check document. */
static const char *check_text(const spx_project_t *project, apr_pool_t *pool)
{
    json_t *document = spx_project_check_document(project);
    const char *text = spx_canonical_text(document, pool);
    json_decref(document);
    return text;
}

/* The diagnostics-only rebuild of base with texts[i] in place (NULL: the
 * held bytes) against the full rebuild: the same check document byte for
 * byte, the same revision, and no index and no code; and the same again
 * when it is built over a previous diagnostics-only rebuild of the held
 * bytes (reusing what the edit cannot reach), and when the held bytes are
 * built over it in turn (the edit undone). Returns how many diagnostics it
 * had. */
static apr_size_t expect_same_diagnostics(const char *name, const spx_project_t *base,
                                          const unsigned char *const *texts,
                                          const apr_size_t *lengths, apr_pool_t *pool)
{
    spx_project_t *full = spx_project_rebuild(base, texts, lengths, pool);
    spx_project_t *checked = spx_project_rebuild_checked(base, texts, lengths, NULL, pool);
    const unsigned char **held = apr_pcalloc(pool, (base->module_count + 1) * sizeof(*held));
    apr_size_t *held_lengths = apr_pcalloc(pool, (base->module_count + 1) * sizeof(apr_size_t));
    spx_project_t *before = spx_project_rebuild_checked(base, held, held_lengths, NULL, pool);
    spx_project_t *after = spx_project_rebuild_checked(base, texts, lengths, before, pool);
    spx_project_t *undone = spx_project_rebuild_checked(base, held, held_lengths, after, pool);
    const char *after_text = check_text(after, pool);
    if (strcmp(check_text(full, pool), after_text) != 0)
        fprintf(stderr, "\n  %s (over the held bytes' findings):\n  full  %s\n  after %s\n", name,
                check_text(full, pool), after_text);
    CU_ASSERT_STRING_EQUAL(check_text(full, pool), after_text);
    CU_ASSERT_STRING_EQUAL(check_text(before, pool), check_text(undone, pool));
    CU_ASSERT_EQUAL(full->admitted, after->admitted);
    CU_ASSERT_FALSE(spx_project_diagnostics_only(full));
    CU_ASSERT_TRUE(spx_project_diagnostics_only(checked));
    const char *full_text = check_text(full, pool), *checked_text = check_text(checked, pool);
    if (strcmp(full_text, checked_text) != 0)
        fprintf(stderr, "\n  %s:\n  full    %s\n  checked %s\n", name, full_text, checked_text);
    CU_ASSERT_STRING_EQUAL(full_text, checked_text);
    CU_ASSERT_STRING_EQUAL(spx_project_revision(full), spx_project_revision(checked));
    CU_ASSERT_EQUAL(full->admitted, checked->admitted);
    CU_ASSERT_PTR_NULL(checked->index);
    CU_ASSERT_PTR_NULL(checked->program);
    CU_ASSERT_EQUAL(full->index != NULL, full->admitted);
    return spx_diagnostics_count(spx_project_diagnostics(full));
}

/* The project at manifest_path, opened in pool (it must open). */
static spx_project_t *open_manifest(const char *manifest_path, apr_pool_t *pool)
{
    spx_project_t *project = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project, manifest_path, pool, &message), APR_SUCCESS);
    return project;
}

/* expect_same_diagnostics for the project at manifest_path as held, and with
 * each source in turn given an error (an unknown call appended) and given
 * a function nothing calls (W0604 when admitted). */
static void expect_same_for_project(const char *manifest_path, apr_size_t *compared,
                                    apr_pool_t *parent)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, parent);
    spx_project_t *base = open_manifest(manifest_path, pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(base->manifest);
    apr_size_t count = base->module_count;
    const unsigned char **texts = apr_pcalloc(pool, (count + 1) * sizeof(*texts));
    apr_size_t *lengths = apr_pcalloc(pool, (count + 1) * sizeof(*lengths));
    expect_same_diagnostics(manifest_path, base, texts, lengths, pool);
    (*compared)++;
    static const char *const additions[] = {
        "\nfn spx_edit_unknown() -> int { return spx_no_such_function(1); }\n",
        "\nfn spx_edit_unused() -> int { return 1; }\n"};
    for (apr_size_t i = 0; i < count; i++) {
        const spx_input_t *source = spx_input_set_source(base->inputs, i);
        for (size_t a = 0; a < sizeof(additions) / sizeof(additions[0]); a++) {
            char *edited =
                apr_pstrcat(pool, apr_pstrndup(pool, (const char *)source->bytes, source->size),
                            additions[a], NULL);
            texts[i] = (const unsigned char *)edited;
            lengths[i] = strlen(edited);
            CU_ASSERT(expect_same_diagnostics(apr_pstrcat(pool, manifest_path, " ", source->path,
                                                          " + ", additions[a], NULL),
                                              base, texts, lengths, pool) > 0);
            (*compared)++;
        }
        texts[i] = NULL;
        lengths[i] = 0;
    }
    apr_pool_destroy(pool);
}

/* Call visit(manifest_path, from_corpus, context, pool) for every project
 * of tests/projects and examples/ (from_corpus 0), then for every case of
 * the checker corpus with at least min_sources sources, written as the
 * modules of one manifest (no entry, no test; from_corpus 1). Returns how
 * many it visited. */
typedef void (*project_visit_t)(const char *manifest_path, int from_corpus, void *context,
                                apr_pool_t *pool);

static apr_size_t each_project(int min_sources, project_visit_t visit, void *context,
                               apr_pool_t *pool)
{
    apr_size_t projects = 0;
    const char *examples = getenv("SPX_EXAMPLES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(examples);
    const char *folders[] = {spx_corpus_dir("projects", pool), examples};
    for (size_t f = 0; f < 2; f++) {
        apr_array_header_t *names = spx_corpus_list_dirs(folders[f], pool);
        for (int i = 0; i < names->nelts; i++) {
            const char *manifest =
                apr_pstrcat(pool, folders[f], "/", APR_ARRAY_IDX(names, i, const char *),
                            "/semaprax.toml", NULL);
            apr_finfo_t info;
            if (apr_stat(&info, manifest, APR_FINFO_TYPE, pool) != APR_SUCCESS)
                continue; /* examples/clients: no project */
            visit(manifest, 0, context, pool);
            projects++;
        }
    }
    const char *corpus = spx_corpus_dir("corpus/check", pool);
    apr_array_header_t *cases = spx_corpus_list_dirs(corpus, pool);
    for (int c = 0; c < cases->nelts; c++) {
        const char *folder =
            apr_pstrcat(pool, corpus, "/", APR_ARRAY_IDX(cases, c, const char *), NULL);
        apr_array_header_t *sources = spx_corpus_list(folder, ".spx", pool);
        if (sources->nelts < min_sources)
            continue;
        spx_fixture_t *fixture = spx_fixture_new();
        const char *manifest = manifest_head;
        for (int s = 0; s < sources->nelts; s++) {
            const char *file = APR_ARRAY_IDX(sources, s, const char *);
            apr_size_t length = 0;
            spx_fixture_write(fixture, file,
                              spx_corpus_read(apr_pstrcat(pool, folder, "/", file, NULL), &length,
                                              fixture->pool));
            manifest = apr_pstrcat(fixture->pool, manifest, "\n[[source]]\nmodule = \"",
                                   apr_pstrndup(fixture->pool, file, strlen(file) - 4),
                                   "\"\npath = \"", file, "\"\n", NULL);
        }
        spx_fixture_write(fixture, "semaprax.toml", manifest);
        visit(spx_fixture_path(fixture, "semaprax.toml"), 1, context, pool);
        projects++;
        spx_fixture_free(fixture);
    }
    return projects;
}

static void visit_same_for_project(const char *manifest_path, int from_corpus, void *compared,
                                   apr_pool_t *pool)
{
    (void)from_corpus;
    expect_same_for_project(manifest_path, compared, pool);
}

static void test_diagnostics_only_rebuild_matches_the_full_one(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    apr_size_t compared = 0;
    apr_size_t projects = each_project(0, visit_same_for_project, &compared, pool);
    CU_ASSERT(projects >= 3 + 4 + 50);
    CU_ASSERT(compared > projects * 3);
    apr_pool_destroy(pool);
}

/* A diagnostics-only rebuild over the previous one checks again only the
 * modules an edit reaches: on examples/calc, a function nothing else can
 * name added to one module reuses every other module's findings; an
 * exported one, or a changed exported header, is checked again in the
 * modules that import it; and each result is the full rebuild's. */
static void test_rebuild_reuses_what_an_edit_cannot_reach(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *examples = getenv("SPX_EXAMPLES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(examples);
    spx_project_t *base = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&base,
                                           apr_pstrcat(pool, examples, "/calc/semaprax.toml", NULL),
                                           pool, &message),
                          APR_SUCCESS);
    apr_size_t count = base->module_count;
    CU_ASSERT_FATAL(count >= 4);
    const unsigned char **texts = apr_pcalloc(pool, (count + 1) * sizeof(*texts));
    apr_size_t *lengths = apr_pcalloc(pool, (count + 1) * sizeof(*lengths));
    spx_project_t *held = spx_project_rebuild_checked(base, texts, lengths, NULL, pool);
    CU_ASSERT_EQUAL(spx_project_modules_reused(held), 0);
    /* Nothing changed: nothing checked again. */
    spx_project_t *again = spx_project_rebuild_checked(base, texts, lengths, held, pool);
    CU_ASSERT_EQUAL(spx_project_modules_reused(again), count);
    CU_ASSERT_STRING_EQUAL(check_text(held, pool), check_text(again, pool));

    apr_size_t importers_checked = 0;
    for (apr_size_t i = 0; i < count; i++) {
        const spx_module_t *module = base->modules[i];
        apr_size_t importers = 0;
        for (apr_size_t m = 0; m < count; m++)
            for (apr_size_t k = 0; k < base->modules[m]->import_count; k++)
                if (strcmp(base->modules[m]->imports[k].module.text, module->name) == 0)
                    importers++;
        static const char *const additions[] = {
            "\nfn spx_edit_private() -> int { return spx_no_such_function(1); }\n",
            "\nexport fn spx_edit_exported() -> int { return 1; }\n"};
        for (size_t a = 0; a < 2; a++) {
            char *edited =
                apr_pstrcat(pool, apr_pstrndup(pool, (const char *)module->text, module->length),
                            additions[a], NULL);
            texts[i] = (const unsigned char *)edited;
            lengths[i] = strlen(edited);
            spx_project_t *full = spx_project_rebuild(base, texts, lengths, pool);
            spx_project_t *edit = spx_project_rebuild_checked(base, texts, lengths, held, pool);
            CU_ASSERT_STRING_EQUAL(check_text(full, pool), check_text(edit, pool));
            if (a == 0) {
                CU_ASSERT_EQUAL(spx_project_modules_reused(edit), count - 1);
            } else {
                /* The edited module and every module that imports it, at
                 * least, are checked again. */
                CU_ASSERT(spx_project_modules_reused(edit) <= count - 1 - importers);
                importers_checked += importers;
            }
            texts[i] = NULL;
            lengths[i] = 0;
        }
    }
    CU_ASSERT(importers_checked > 0);
    apr_pool_destroy(pool);
}

/* The private names an edit changed are looked for in the importers'
 * texts up to SPX_REUSE_NAMES_SEARCHED of them; past that every importer is
 * checked again, so the search stays bounded whatever the edit. */
static void test_reuse_bounds_the_names_it_searches(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(pool, manifest_head,
                                  "\n[[source]]\nmodule = \"lib\"\npath = \"lib.spx\"\n"
                                  "\n[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n",
                                  NULL));
    spx_fixture_write(fixture, "lib.spx", "export fn one() -> int { return 1; }\n");
    spx_fixture_write(fixture, "app.spx",
                      "import lib;\nexport fn main() -> int { return lib.one(); }\n");
    spx_project_t *base = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_project_open(&base, spx_fixture_path(fixture, "semaprax.toml"), pool, &message),
        APR_SUCCESS);
    const unsigned char *texts[2] = {NULL, NULL};
    apr_size_t lengths[2] = {0, 0};
    spx_project_t *held = spx_project_rebuild_checked(base, texts, lengths, NULL, pool);
    for (int count = SPX_REUSE_NAMES_SEARCHED; count <= SPX_REUSE_NAMES_SEARCHED + 1; count++) {
        const char *lib = "export fn one() -> int { return 1; }\n";
        for (int i = 0; i < count; i++)
            lib = apr_psprintf(pool, "%sfn helper_%d() -> int { return one(); }\n", lib, i);
        texts[0] = (const unsigned char *)lib;
        lengths[0] = strlen(lib);
        spx_project_t *edit = spx_project_rebuild_checked(base, texts, lengths, held, pool);
        /* app spells none of the names: at the bound it is reused, past it
         * checked again; the diagnostics are the full rebuild's either way. */
        CU_ASSERT_EQUAL(spx_project_modules_reused(edit),
                        count <= SPX_REUSE_NAMES_SEARCHED ? 1u : 0u);
        CU_ASSERT_STRING_EQUAL(check_text(edit, pool),
                               check_text(spx_project_rebuild(base, texts, lengths, pool), pool));
    }
    spx_fixture_free(fixture);
}

/* A small random number generator with a fixed seed (xorshift64), so that
 * every run makes the same edits. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* The offsets of a text's line starts; their count in *count. */
static apr_size_t *line_starts(const char *text, apr_size_t length, apr_size_t *count,
                               apr_pool_t *pool)
{
    apr_size_t *starts = apr_palloc(pool, (length + 2) * sizeof(*starts));
    *count = 0;
    starts[(*count)++] = 0;
    for (apr_size_t i = 0; i < length; i++)
        if (text[i] == '\n' && i + 1 < length)
            starts[(*count)++] = i + 1;
    return starts;
}

/* One random edit of text: a line deleted, doubled or inserted (a snippet
 * that declares, imports, calls or breaks something), a name swapped for
 * another name of the project, "export" added or taken away, or the text
 * put back as held. */
static char *random_edit(const char *text, const char *held, const char *const *names,
                         apr_size_t name_count, uint64_t *state, apr_pool_t *pool)
{
    static const char *const snippets[] = {
        "let spx_unused = 1;\n",
        "return 0;\n",
        "}\n",
        "fn {\n",
        "export fn total() -> int { return 1; }\n",
        "fn helper() -> int { return spx_gone(); }\n",
        "export struct Point { x: int }\n",
        "struct Item { name: str }\n",
        "const LIMIT: int = 3;\n",
        "export const LIMIT: int = 4;\n",
        "import app;\n",
        "import math;\n",
        "export enum Shape { Dot, Box(int) }\n",
    };
    apr_size_t length = strlen(text), lines = 0;
    apr_size_t *starts = line_starts(text, length, &lines, pool);
    apr_size_t line = (apr_size_t)(next_random(state) % lines);
    apr_size_t start = starts[line], end = line + 1 < lines ? starts[line + 1] : length;
    switch (next_random(state) % 7) {
    case 0: /* a line deleted */
        return apr_pstrcat(pool, apr_pstrndup(pool, text, start), text + end, NULL);
    case 1: /* a line doubled */
        return apr_pstrcat(pool, apr_pstrndup(pool, text, end),
                           apr_pstrndup(pool, text + start, end - start), text + end, NULL);
    case 2: /* a snippet inserted */
        return apr_pstrcat(pool, apr_pstrndup(pool, text, start),
                           snippets[next_random(state) % (sizeof(snippets) / sizeof(snippets[0]))],
                           text + start, NULL);
    case 3:
    case 4: { /* a name of the project in place of another */
        if (name_count < 2)
            return apr_pstrdup(pool, held);
        const char *from = names[next_random(state) % name_count];
        const char *to = names[next_random(state) % name_count];
        const char *at = strstr(text, from);
        if (!at)
            return apr_pstrdup(pool, text);
        return apr_pstrcat(pool, apr_pstrndup(pool, text, (apr_size_t)(at - text)), to,
                           at + strlen(from), NULL);
    }
    case 5: { /* "export" added or taken away */
        const char *at = strstr(text + start, "fn ");
        if (!at)
            return apr_pstrdup(pool, text);
        apr_size_t offset = (apr_size_t)(at - text);
        if (offset >= 7 && strncmp(at - 7, "export ", 7) == 0)
            return apr_pstrcat(pool, apr_pstrndup(pool, text, offset - 7), at, NULL);
        return apr_pstrcat(pool, apr_pstrndup(pool, text, offset), "export ", at, NULL);
    }
    default: /* as held */
        return apr_pstrdup(pool, held);
    }
}

/* The names a project's declarations spell: its modules, functions,
 * structs, consts and enums. */
static const char **project_names(const spx_project_t *project, apr_size_t *count, apr_pool_t *pool)
{
    apr_array_header_t *names = apr_array_make(pool, 32, sizeof(const char *));
    for (apr_size_t m = 0; m < project->module_count; m++) {
        const spx_module_t *module = project->modules[m];
        APR_ARRAY_PUSH(names, const char *) = module->name;
        for (apr_size_t i = 0; i < module->function_count; i++)
            if (module->functions[i]->name.text)
                APR_ARRAY_PUSH(names, const char *) = module->functions[i]->name.text;
        for (apr_size_t i = 0; i < module->struct_count; i++)
            APR_ARRAY_PUSH(names, const char *) = module->structs[i]->name.text;
        for (apr_size_t i = 0; i < module->const_count; i++)
            APR_ARRAY_PUSH(names, const char *) = module->consts[i]->name.text;
        for (apr_size_t i = 0; i < module->enum_count; i++)
            APR_ARRAY_PUSH(names, const char *) = module->enums[i]->name.text;
    }
    *count = 0;
    const char **kept = apr_palloc(pool, ((apr_size_t)names->nelts + 1) * sizeof(*kept));
    for (int i = 0; i < names->nelts; i++)
        if (APR_ARRAY_IDX(names, i, const char *))
            kept[(*count)++] = APR_ARRAY_IDX(names, i, const char *);
    return kept;
}

/* For a project: a chain of random edits, each built over the one before
 * (diagnostics only, reusing findings) and compared with the full rebuild
 * of the same texts, byte for byte. Returns how many modules were reused
 * along the chain. */
static apr_size_t follow_random_edits(const char *manifest_path, uint64_t *state, int steps,
                                      apr_pool_t *parent)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, parent);
    spx_project_t *base = open_manifest(manifest_path, pool);
    apr_size_t count = base->module_count, reused = 0;
    if (!base->manifest || count == 0) {
        apr_pool_destroy(pool);
        return 0;
    }
    apr_size_t name_count = 0;
    const char **names = project_names(base, &name_count, pool);
    const char **held = apr_pcalloc(pool, (count + 1) * sizeof(*held));
    for (apr_size_t i = 0; i < count; i++)
        held[i] =
            apr_pstrndup(pool, (const char *)base->modules[i]->text, base->modules[i]->length);
    /* Two pools in turn: a build and the one before it are alive at once. */
    apr_pool_t *pools[2] = {NULL, NULL};
    apr_pool_create(&pools[0], pool);
    apr_pool_create(&pools[1], pool);
    const char **now = apr_pcalloc(pool, (count + 1) * sizeof(*now));
    for (apr_size_t i = 0; i < count; i++)
        now[i] = held[i];
    spx_project_t *previous = NULL;
    for (int step = 0; step < steps; step++) {
        apr_pool_t *step_pool = pools[step % 2];
        apr_pool_clear(step_pool);
        apr_size_t which = (apr_size_t)(next_random(state) % count);
        now[which] = random_edit(now[which], held[which], names, name_count, state, pool);
        const unsigned char **texts = apr_palloc(step_pool, (count + 1) * sizeof(*texts));
        apr_size_t *lengths = apr_palloc(step_pool, (count + 1) * sizeof(*lengths));
        for (apr_size_t i = 0; i < count; i++) {
            texts[i] = (const unsigned char *)apr_pstrdup(step_pool, now[i]);
            lengths[i] = strlen(now[i]);
        }
        spx_project_t *edit =
            spx_project_rebuild_checked(base, texts, lengths, previous, step_pool);
        apr_pool_t *scratch = NULL;
        apr_pool_create(&scratch, step_pool);
        spx_project_t *full = spx_project_rebuild(base, texts, lengths, scratch);
        const char *full_text = check_text(full, scratch), *edit_text = check_text(edit, scratch);
        if (strcmp(full_text, edit_text) != 0) {
            fprintf(stderr, "\n  %s, step %d (module %s):\n  full %s\n  edit %s\n", manifest_path,
                    step, base->modules[which]->path, full_text, edit_text);
            for (apr_size_t i = 0; i < count; i++)
                fprintf(stderr, "  --- %s\n%s\n", base->modules[i]->path, now[i]);
            for (apr_size_t i = 0; previous && i < count; i++)
                fprintf(stderr, "  --- before: %s\n%.*s\n", base->modules[i]->path,
                        (int)previous->modules[i]->length, previous->modules[i]->text);
        }
        CU_ASSERT_STRING_EQUAL(full_text, edit_text);
        apr_pool_destroy(scratch);
        reused += spx_project_modules_reused(edit);
        previous = edit;
    }
    apr_pool_destroy(pool);
    return reused;
}

/* The random chain of follow_random_edits as a project_visit_t: 150 steps
 * for a project, 40 for a corpus case. */
typedef struct random_edits_t {
    uint64_t state;
    apr_size_t reused;
} random_edits_t;

static void visit_random_edits(const char *manifest_path, int from_corpus, void *context,
                               apr_pool_t *pool)
{
    random_edits_t *edits = context;
    edits->reused +=
        follow_random_edits(manifest_path, &edits->state, from_corpus ? 40 : 150, pool);
}

/* Random edits over every project of tests/projects and examples/ and every
 * case of the checker corpus with more than one module: whatever the
 * edits, the reusing rebuild says what the full one says; and it reuses. */
static void test_reuse_matches_the_full_rebuild_under_random_edits(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    random_edits_t edits = {0x5eed5eed12345678u, 0};
    apr_size_t projects = each_project(2, visit_random_edits, &edits, pool);
    apr_size_t reused = edits.reused;
    CU_ASSERT(projects >= 3 + 4 + 5);
    CU_ASSERT(reused > projects * 10);
    apr_pool_destroy(pool);
}

/* An admitted diagnostics-only project is refused by what needs its index
 * or its code, with a sentence saying so, never read as if it had them. */
static void test_diagnostics_only_project_is_refused_where_the_index_is_needed(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *base = open_hello(pool);
    const unsigned char *texts[8] = {NULL};
    apr_size_t lengths[8] = {0};
    CU_ASSERT_FATAL(base->module_count < 8);
    spx_project_t *checked = spx_project_rebuild_checked(base, texts, lengths, NULL, pool);
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(checked));
    CU_ASSERT_FALSE(spx_project_diagnostics_only(base));

    spx_context_request_t request = spx_context_defaults();
    request.target_kind = "function";
    request.target = base->manifest->entry;
    json_t *document = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_context_document(base, &request, 1u << 24, &document, pool, &message),
                    APR_SUCCESS);
    json_decref(document);
    document = NULL;
    CU_ASSERT_NOT_EQUAL(
        spx_context_document(checked, &request, 1u << 24, &document, pool, &message), APR_SUCCESS);
    CU_ASSERT_PTR_NULL(document);

    spx_run_limits_t limits = spx_run_limits_default();
    json_t *envelope = NULL;
    message = NULL;
    CU_ASSERT_EQUAL(spx_envelope_build(checked, &limits, &envelope, pool, &message), APR_EINVAL);
    CU_ASSERT_PTR_NULL(envelope);
    CU_ASSERT_PTR_NOT_NULL_FATAL(message);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "diagnostics only"));
    spx_run_result_t result;
    message = NULL;
    CU_ASSERT_EQUAL(spx_run_function(checked, NULL, &limits, &result, pool, &message), APR_EINVAL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(message);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "diagnostics only"));
    message = spx_run_target_problem(checked, base->manifest->entry, pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(message);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "diagnostics only"));

    spx_rename_plan_t *plan = NULL;
    spx_rename_failure_t failure;
    CU_ASSERT_NOT_EQUAL(
        spx_rename_plan(checked, base->manifest->entry, "renamed", &plan, pool, &failure),
        APR_SUCCESS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(failure.reason);
    CU_ASSERT_PTR_NOT_NULL(strstr(failure.reason, "diagnostics only"));

    apr_size_t length = 1;
    spx_json_status_t status = SPX_JSON_OK;
    CU_ASSERT_PTR_NOT_NULL(spx_graph_text(base, 1u << 24, &length, &status, pool));
    CU_ASSERT_PTR_NULL(spx_graph_text(checked, 1u << 24, &length, &status, pool));
    CU_ASSERT_EQUAL(status, SPX_JSON_MISUSE);
    CU_ASSERT_EQUAL(spx_graph_node_count(checked), 0);
    spx_graph_shape_t shape;
    spx_graph_shape(checked, &shape, pool);
    CU_ASSERT_EQUAL(shape.nodes, 0);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"entry and tests are linked", test_entry_and_tests_are_linked},
        {"one module's bodies at a time", test_one_module_body_at_a_time},
        {"wrong signature, missing function", test_wrong_signature_and_missing_function},
        {"a missing entry names the nearest function", test_missing_entry_names_the_nearest},
        {"revisions", test_revisions},
        {"context budget: one byte under", test_context_budget_one_byte_under},
        {"context is deterministic", test_context_is_deterministic},
        {"a flat chain of 100000 calls", test_flat_chain_of_calls},
        {"context cuts a text at a character", test_context_cuts_text_at_a_character},
        {"single source: its graph is the project graph of one module",
         test_single_source_graph_is_the_project_graph_of_one_module},
        {"single source: diagnostics and refusals", test_single_source_diagnostics_and_refusals},
        {"diagnostics-only rebuild: the full rebuild's check document",
         test_diagnostics_only_rebuild_matches_the_full_one},
        {"a module imported after an item is checked",
         test_module_imported_after_an_item_is_checked},
        {"diagnostics-only rebuild: reuses what an edit cannot reach",
         test_rebuild_reuses_what_an_edit_cannot_reach},
        {"diagnostics-only rebuild: bounds the names it searches",
         test_reuse_bounds_the_names_it_searches},
        {"diagnostics-only rebuild: the full rebuild's under random edits",
         test_reuse_matches_the_full_rebuild_under_random_edits},
        {"diagnostics-only project: refused where the index is needed",
         test_diagnostics_only_project_is_refused_where_the_index_is_needed},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("phase A", tests);
}
