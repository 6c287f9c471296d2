/*
 * test_format_corpus.c: `semaprax fmt` never changes what a program means.
 * Every program of the conformance corpus that parses (tests/corpus/check
 * folders, tests/corpus/syntax files) and the example projects (examples/)
 * is formatted, and the formatted program must give: the same diagnostics
 * (codes, in order; none for an admitted one), the same semantic graph apart
 * from spans and revisions, and, run function by function (every
 * `fn() -> int`), the same outcome, value, step count and output; for the
 * examples also the same test envelope (spans, digests and revisions aside)
 * and the same entry run. Formatting the formatted text again must give it
 * back byte for byte. The examples are shipped in canonical form: each of
 * their sources formats to exactly its own bytes (`semaprax fmt --check
 * examples` lists nothing).
 */
#include "project_internal.h"
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_envelope.h"
#include "spx_format.h"
#include "spx_index.h"
#include "spx_program.h"
#include "spx_project.h"
#include "spx_run_fixture.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Format text, which must parse; formatting the result must give it back. */
static const unsigned char *formatted_text(const char *path, const unsigned char *text,
                                           apr_size_t length, apr_size_t *formatted_length,
                                           apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    char *once = NULL, *twice = NULL;
    apr_size_t once_length = 0, twice_length = 0;
    spx_format_outcome_t outcome =
        spx_format_source(text, length, path, &once, &once_length, diagnostics, pool);
    if (outcome != SPX_FORMAT_DONE)
        fprintf(stderr, "\n  %s: not formatted (%d)\n%s", path, (int)outcome,
                spx_diagnostics_text(diagnostics, pool));
    CU_ASSERT_EQUAL_FATAL(outcome, SPX_FORMAT_DONE);
    outcome = spx_format_source((const unsigned char *)once, once_length, path, &twice,
                                &twice_length, diagnostics, pool);
    CU_ASSERT_EQUAL_FATAL(outcome, SPX_FORMAT_DONE);
    if (twice_length != once_length || memcmp(once, twice, once_length) != 0)
        fprintf(stderr, "\n  %s: formatting twice changed it\n", path);
    CU_ASSERT_TRUE(twice_length == once_length && memcmp(once, twice, once_length) == 0);
    *formatted_length = once_length;
    return (const unsigned char *)once;
}

/* Whether the text parses (only those are formatted). */
static int parses(const char *path, const unsigned char *text, apr_size_t length, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    char *formatted = NULL;
    apr_size_t formatted_length = 0;
    return spx_format_source(text, length, path, &formatted, &formatted_length, diagnostics,
                             pool) != SPX_FORMAT_SYNTAX;
}

/* Remove every member named in keys (NULL-terminated), at every depth. */
static void strip(json_t *value, const char *const *keys)
{
    if (json_is_object(value)) {
        for (const char *const *key = keys; *key; key++)
            json_object_del(value, *key);
        const char *name;
        json_t *member;
        json_object_foreach(value, name, member)
        {
            strip(member, keys);
        }
    } else if (json_is_array(value)) {
        for (size_t i = 0; i < json_array_size(value); i++)
            strip(json_array_get(value, i), keys);
    }
}

/* The document's canonical text without spans, digests and revisions (what
 * formatting may change). Takes the reference. */
static const char *layout_free(json_t *document, apr_pool_t *pool)
{
    static const char *const keys[] = {"span",
                                       "project_revision",
                                       "workspace_revision",
                                       "digest",
                                       "envelope_digest",
                                       "source_digest",
                                       "subject",
                                       NULL};
    CU_ASSERT_PTR_NOT_NULL_FATAL(document);
    strip(document, keys);
    const char *text = spx_canonical_text(document, pool);
    json_decref(document);
    return text;
}

static const char *codes_of(const spx_project_t *project, apr_pool_t *pool)
{
    const spx_diagnostics_t *list = spx_project_diagnostics(project);
    const char *codes = "";
    for (apr_size_t i = 0; i < spx_diagnostics_count(list); i++)
        codes = apr_pstrcat(pool, codes, spx_diagnostics_get(list, i)->code, " ", NULL);
    return codes;
}

/* What a run did, apart from where a failure stood. */
static const char *run_summary(const spx_run_result_t *result, apr_pool_t *pool)
{
    return apr_psprintf(pool, "%d %" APR_INT64_T_FMT " %" APR_UINT64_T_FMT " %s [%.*s] %s %s",
                        (int)result->outcome, (apr_int64_t)result->value,
                        (apr_uint64_t)result->steps, result->output_truncated ? "cut" : "whole",
                        (int)result->output_length, result->output ? result->output : "",
                        result->failure.code ? result->failure.code : "-",
                        result->failure.message ? result->failure.message : "-");
}

/* The graph document: a manifest's project's, or a program in memory's
 * (whose digest, which formatting changes, is not compared anyway). */
static json_t *graph_of(const spx_project_t *project)
{
    if (spx_project_has_manifest(project))
        return spx_corpus_graph(project);
    ((spx_project_t *)project)->source_digest = "sha256:not-compared";
    return spx_corpus_source_graph(project);
}

/* Run every fn() -> int of the graph in both projects: same results. */
static void same_runs(const char *name, const spx_project_t *before, const spx_project_t *after,
                      apr_pool_t *pool)
{
    json_t *graph = graph_of(before);
    json_t *nodes = json_object_get(graph, "nodes");
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = 200000;
    for (size_t i = 0; i < json_array_size(nodes); i++) {
        json_t *node = json_array_get(nodes, i);
        const char *signature = json_string_value(json_object_get(node, "signature"));
        if (strcmp(json_string_value(json_object_get(node, "kind")), "function") != 0 ||
            !signature || strcmp(signature, "fn() -> int") != 0)
            continue;
        const char *function =
            apr_pstrcat(pool, json_string_value(json_object_get(node, "module")), ".",
                        json_string_value(json_object_get(node, "name")), NULL);
        long index_before = spx_program_find(before->program, function);
        long index_after = spx_program_find(after->program, function);
        CU_ASSERT_TRUE_FATAL(index_before >= 0 && index_after >= 0);
        spx_run_result_t run_before, run_after;
        CU_ASSERT_EQUAL_FATAL(spx_vm_run(before->program, index_before, &limits, &run_before, pool),
                              APR_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(spx_vm_run(after->program, index_after, &limits, &run_after, pool),
                              APR_SUCCESS);
        const char *a = run_summary(&run_before, pool), *b = run_summary(&run_after, pool);
        if (strcmp(a, b) != 0)
            fprintf(stderr, "\n  %s: %s ran %s, formatted %s\n", name, function, a, b);
        CU_ASSERT_STRING_EQUAL(a, b);
    }
    json_decref(graph);
}

/* The two builds mean the same. Returns whether the first was admitted. */
static int same_meaning(const char *name, const spx_project_t *before, const spx_project_t *after,
                        apr_pool_t *pool)
{
    const char *codes_before = codes_of(before, pool), *codes_after = codes_of(after, pool);
    if (strcmp(codes_before, codes_after) != 0)
        fprintf(stderr, "\n  %s: diagnostics %s, formatted %s\n", name, codes_before, codes_after);
    CU_ASSERT_STRING_EQUAL(codes_before, codes_after);
    CU_ASSERT_EQUAL(spx_project_admitted(before), spx_project_admitted(after));
    if (!spx_project_admitted(before) || !spx_project_admitted(after))
        return 0;
    const char *graph_before = layout_free(graph_of(before), pool);
    const char *graph_after = layout_free(graph_of(after), pool);
    if (strcmp(graph_before, graph_after) != 0)
        fprintf(stderr, "\n  %s: the graph changed\n%s\n%s\n", name, graph_before, graph_after);
    CU_ASSERT_STRING_EQUAL(graph_before, graph_after);
    same_runs(name, before, after, pool);
    return 1;
}

/* A program of sources in memory, formatted, builds to the same meaning. */
static int check_texts(const char *name, spx_source_text_t *sources, apr_size_t count,
                       apr_pool_t *pool)
{
    spx_source_text_t *formatted = apr_pmemdup(pool, sources, count * sizeof(*sources));
    for (apr_size_t i = 0; i < count; i++)
        formatted[i].bytes = formatted_text(sources[i].path, sources[i].bytes, sources[i].length,
                                            &formatted[i].length, pool);
    spx_project_t *before = spx_project_build_texts(sources, count, pool);
    spx_project_t *after = spx_project_build_texts(formatted, count, pool);
    return same_meaning(name, before, after, pool);
}

static void test_check_corpus(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *dir = spx_corpus_dir("corpus/check", pool);
    apr_array_header_t *cases = spx_corpus_list_dirs(dir, pool);
    int formatted = 0, admitted = 0;
    for (int c = 0; c < cases->nelts; c++) {
        const char *name = APR_ARRAY_IDX(cases, c, const char *);
        const char *folder = apr_pstrcat(pool, dir, "/", name, NULL);
        apr_array_header_t *files = spx_corpus_list(folder, ".spx", pool);
        spx_source_text_t *sources = apr_pcalloc(pool, (apr_size_t)files->nelts * sizeof(*sources));
        int all_parse = 1;
        for (int i = 0; i < files->nelts; i++) {
            const char *file = APR_ARRAY_IDX(files, i, const char *);
            sources[i].module = apr_pstrndup(pool, file, strlen(file) - 4);
            sources[i].path = file;
            sources[i].bytes = (const unsigned char *)spx_corpus_read(
                apr_pstrcat(pool, folder, "/", file, NULL), &sources[i].length, pool);
            all_parse = all_parse && parses(file, sources[i].bytes, sources[i].length, pool);
        }
        if (!all_parse)
            continue;
        formatted++;
        admitted += check_texts(name, sources, (apr_size_t)files->nelts, pool);
    }
    /* The corpus holds both kinds, many of each. */
    CU_ASSERT(formatted >= 40); /* 42 of the 43 cases parse */
    CU_ASSERT(admitted >= 10);  /* 11 are admitted */
    apr_pool_destroy(pool);
}

static void test_syntax_corpus(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *dir = spx_corpus_dir("corpus/syntax", pool);
    apr_array_header_t *files = spx_corpus_list(dir, ".spx", pool);
    int formatted = 0;
    for (int i = 0; i < files->nelts; i++) {
        const char *file = APR_ARRAY_IDX(files, i, const char *);
        spx_source_text_t source = {"app", file, NULL, 0};
        source.bytes = (const unsigned char *)spx_corpus_read(
            apr_pstrcat(pool, dir, "/", file, NULL), &source.length, pool);
        if (!parses(file, source.bytes, source.length, pool))
            continue;
        formatted++;
        check_texts(file, &source, 1, pool);
    }
    CU_ASSERT(formatted > 0);
    apr_pool_destroy(pool);
}

/* One example project, and its copy with every source formatted: each
 * source must be in canonical form already (formatted, its own bytes), and
 * the copy must mean what the project means. */
static void check_example(const char *example)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *examples = getenv("SPX_EXAMPLES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(examples);
    const char *root = apr_pstrcat(pool, examples, "/", example, NULL);
    spx_fixture_write(fixture, "semaprax.toml",
                      spx_corpus_read(apr_pstrcat(pool, root, "/semaprax.toml", NULL), NULL, pool));
    apr_array_header_t *files =
        spx_corpus_list(apr_pstrcat(pool, root, "/src", NULL), ".spx", pool);
    CU_ASSERT_TRUE_FATAL(files->nelts > 0);
    for (int i = 0; i < files->nelts; i++) {
        const char *file = APR_ARRAY_IDX(files, i, const char *);
        apr_size_t length = 0, formatted_length = 0;
        const unsigned char *text = (const unsigned char *)spx_corpus_read(
            apr_pstrcat(pool, root, "/src/", file, NULL), &length, pool);
        const unsigned char *formatted =
            formatted_text(file, text, length, &formatted_length, pool);
        int canonical = formatted_length == length && memcmp(formatted, text, length) == 0;
        if (!canonical)
            fprintf(stderr, "\n  examples/%s/src/%s is not in canonical form (semaprax fmt)\n",
                    example, file);
        CU_ASSERT_TRUE(canonical);
        spx_fixture_write(fixture, apr_pstrcat(pool, "src/", file, NULL),
                          apr_pstrndup(pool, (const char *)formatted, formatted_length));
    }
    spx_project_t *before = NULL, *after = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_project_open(&before, apr_pstrcat(pool, root, "/semaprax.toml", NULL), pool, &message),
        APR_SUCCESS);
    after = spx_run_fixture_open(fixture);
    CU_ASSERT_TRUE_FATAL(same_meaning(example, before, after, pool));

    /* The manifest's tests: the same envelope, spans and digests aside. */
    spx_run_limits_t limits = spx_run_limits_default();
    json_t *envelope_before = NULL, *envelope_after = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_envelope_build(before, &limits, &envelope_before, pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_envelope_build(after, &limits, &envelope_after, pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_TRUE(json_array_size(json_object_get(envelope_before, "tests")) > 0);
    CU_ASSERT_STRING_EQUAL(layout_free(envelope_before, pool), layout_free(envelope_after, pool));

    /* The entry: the same output, value and steps. */
    spx_run_result_t run_before, run_after;
    CU_ASSERT_EQUAL_FATAL(spx_run_entry(before, &limits, &run_before, pool, &message), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_run_entry(after, &limits, &run_after, pool, &message), APR_SUCCESS);
    CU_ASSERT_TRUE(run_before.output_length > 0);
    CU_ASSERT_STRING_EQUAL(run_summary(&run_before, pool), run_summary(&run_after, pool));
    spx_fixture_free(fixture);
}

static void test_examples(void)
{
    check_example("hello");
    check_example("inventory");
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"the check corpus formats to the same meaning", test_check_corpus},
        {"the syntax corpus formats to the same meaning", test_syntax_corpus},
        {"the examples are in canonical form and format to the same graph, envelope and entry "
         "run",
         test_examples},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("format_corpus", tests);
}
