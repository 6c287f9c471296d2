/*
 * test_daemon_relevance.c: process tests of what a cut context keeps
 * (outputs.md, Context): the nodes of a distance are taken by tie (calls,
 * then uses and reads, then tests and enters, then contains and imports),
 * then by id, and "omitted_by_tie" counts what the budget dropped of each.
 * Through `semaprax context` and `semapraxd --stdio` over pipes, which must
 * answer the CLI's documents byte for byte. The project is a copy of
 * tests/projects/relevance: shop.price calls base, is called by quote, uses
 * the struct Zone, reads the const MARKUP and is the test "price", and its
 * module holds siblings whose ids sort before all of these; depot.Crate
 * uses ware.Box, which module ware, walked before Crate, contains.
 */
#include "spx_corpus.h"
#include "spx_daemon.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <string.h>

/* Copy tests/projects/relevance into the fixture's folder "proj"; its
 * manifest path. */
static const char *copy_relevance(spx_fixture_t *fixture)
{
    static const char *const files[] = {"semaprax.toml", "src/shop.spx", "src/depot.spx",
                                        "src/ware.spx"};
    const char *from = spx_corpus_dir("projects/relevance", fixture->pool);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        apr_size_t length = 0;
        const char *text = spx_corpus_read(apr_pstrcat(fixture->pool, from, "/", files[i], NULL),
                                           &length, fixture->pool);
        spx_fixture_write(fixture, apr_pstrcat(fixture->pool, "proj/", files[i], NULL), text);
    }
    return spx_fixture_path(fixture, "proj/semaprax.toml");
}

/* The whole depth-2 neighbourhood of shop.price in taking order: by
 * distance, then tie, then id. */
static const char *const taking_order[] = {
    "function:shop.price", /* the target */
    "function:shop.base",  /* 1, calls: its callee */
    "function:shop.quote", /* 1, calls: its caller */
    "const:shop.MARKUP",   /* 1, reads */
    "struct:shop.Zone",    /* 1, uses */
    "test:price",          /* 1, tests */
    "module:shop",         /* 1, contains */
    "function:shop.top",   /* 2, calls (from quote; module:shop also contains it) */
    "struct:shop.Fee",     /* 2, uses (from base) */
    "const:shop.A_RATE",   /* 2, contains: the unrelated siblings */
    "function:shop.a_unrelated1",
    "function:shop.a_unrelated2",
    "function:shop.a_unrelated3",
    "function:shop.main",
};
#define TAKEN (sizeof(taking_order) / sizeof(taking_order[0]))

/* `semaprax context` of shop.price with the extra options (a NULL-ended
 * list); it must succeed. Its output, and its document in *document. */
static const char *cli_context(spx_fixture_t *fixture, const char *manifest,
                               const char *const *options, json_t **document)
{
    const char *argv[16] = {"context", "--manifest-path", manifest, "--target",
                            "function:shop.price"};
    size_t count = 5;
    for (size_t i = 0; options[i]; i++)
        argv[count++] = options[i];
    argv[count] = NULL;
    spx_process_result_t result =
        spx_process_run(spx_program_path("SPX_SEMAPRAX"), argv, NULL, fixture->pool);
    if (result.exit_code != 0)
        fprintf(stderr, "\n  context: %s\n", result.err);
    CU_ASSERT_EQUAL_FATAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.err, "");
    *document = json_loads(result.out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*document);
    return result.out;
}

/* The document lists exactly the first kept ids of the taking order, in
 * that order. */
static void assert_kept(json_t *document, size_t kept)
{
    json_t *nodes = json_object_get(document, "nodes");
    CU_ASSERT_EQUAL_FATAL(json_array_size(nodes), kept);
    for (size_t i = 0; i < kept; i++) {
        const char *id = json_string_value(json_object_get(json_array_get(nodes, i), "id"));
        if (strcmp(id, taking_order[i]) != 0)
            fprintf(stderr, "\n  node %zu is %s, expected %s\n", i, id, taking_order[i]);
        CU_ASSERT_STRING_EQUAL(id, taking_order[i]);
    }
}

/* A cut document: truncated, omitted_nodes and omitted_by_tie as given. */
static void assert_omitted(json_t *document, json_int_t calls, json_int_t uses, json_int_t tests,
                           json_int_t module)
{
    CU_ASSERT_TRUE(json_is_true(json_object_get(document, "truncated")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(document, "omitted_nodes")),
                    calls + uses + tests + module);
    json_t *by_tie = json_object_get(document, "omitted_by_tie");
    CU_ASSERT_EQUAL_FATAL(json_object_size(by_tie), 4);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(by_tie, "calls")), calls);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(by_tie, "uses")), uses);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(by_tie, "tests")), tests);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(by_tie, "module")), module);
}

/* The document's frontier is exactly these ids (sorted). */
static void assert_frontier(json_t *document, const char *const *ids, size_t count)
{
    json_t *frontier = json_object_get(document, "frontier");
    CU_ASSERT_EQUAL_FATAL(json_array_size(frontier), count);
    for (size_t i = 0; i < count; i++)
        CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(frontier, i)), ids[i]);
}

static void test_cli_keeps_the_closest_ties(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = copy_relevance(fixture);
    json_t *document = NULL;

    /* Cut to 3 nodes: its callee and caller, not the const whose id sorts
     * first; the rest counted by tie. */
    const char *first =
        cli_context(fixture, manifest, (const char *const[]){"--max-nodes", "3", NULL}, &document);
    assert_kept(document, 3);
    assert_omitted(document, 0, 2, 1, 1);
    assert_frontier(
        document,
        (const char *const[]){"const:shop.MARKUP", "module:shop", "struct:shop.Zone", "test:price"},
        4);
    json_decref(document);
    /* The same request gives the same bytes. */
    const char *again =
        cli_context(fixture, manifest, (const char *const[]){"--max-nodes", "3", NULL}, &document);
    CU_ASSERT_STRING_EQUAL(first, again);
    json_decref(document);

    /* Cut to 5: the struct it uses is kept before its module and its test,
     * whose ids sort before it. */
    cli_context(fixture, manifest, (const char *const[]){"--max-nodes", "5", NULL}, &document);
    assert_kept(document, 5);
    assert_omitted(document, 0, 0, 1, 1);
    assert_frontier(document, (const char *const[]){"module:shop", "test:price"}, 2);
    json_decref(document);

    /* Depth 2, cut to 9: its caller's caller and its callee's struct before
     * the module's siblings; top's via is the call, not the containment. */
    cli_context(fixture, manifest, (const char *const[]){"--depth", "2", "--max-nodes", "9", NULL},
                &document);
    assert_kept(document, 9);
    assert_omitted(document, 0, 0, 0, 5);
    assert_frontier(document, taking_order + 9, 5);
    json_t *via = json_object_get(spx_document_node(document, "function:shop.top"), "via");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(via, "from")), "function:shop.quote");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(via, "kind")), "calls");
    json_decref(document);

    /* Uncut: every node, listed in the taking order; no omitted_by_tie. */
    cli_context(fixture, manifest, (const char *const[]){"--depth", "2", NULL}, &document);
    assert_kept(document, TAKEN);
    CU_ASSERT_TRUE(json_is_false(json_object_get(document, "truncated")));
    CU_ASSERT_PTR_NULL(json_object_get(document, "omitted_by_tie"));
    CU_ASSERT_PTR_NULL(json_object_get(document, "frontier"));
    json_decref(document);
    spx_fixture_free(fixture);
}

static void test_cli_cut_by_bytes_keeps_the_closest_ties(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = copy_relevance(fixture);
    json_t *document = NULL;
    /* The bytes of the first 8 nodes, with room for the frontier and the
     * counts, but not for the 9th node (struct Fee and its text). */
    const char *eight =
        cli_context(fixture, manifest,
                    (const char *const[]){"--depth", "2", "--max-nodes", "8", NULL}, &document);
    json_decref(document);
    const char *budget = apr_psprintf(fixture->pool, "%" APR_SIZE_T_FMT, strlen(eight) + 8);
    cli_context(fixture, manifest,
                (const char *const[]){"--depth", "2", "--max-bytes", budget, NULL}, &document);
    assert_kept(document, 8);
    assert_omitted(document, 0, 1, 0, 5);
    json_decref(document);

    /* At depth 1 a byte budget that holds the target and about one more
     * node keeps a call, never the const whose id sorts first. */
    const char *alone =
        cli_context(fixture, manifest, (const char *const[]){"--max-nodes", "1", NULL}, &document);
    json_decref(document);
    budget = apr_psprintf(fixture->pool, "%" APR_SIZE_T_FMT, strlen(alone) + 500);
    cli_context(fixture, manifest, (const char *const[]){"--max-bytes", budget, NULL}, &document);
    assert_kept(document, 2);
    assert_omitted(document, 1, 2, 1, 1);
    json_decref(document);
    spx_fixture_free(fixture);
}

/* A node reached from one level by two ties takes the closer one as its
 * via, even when the farther one reached it first in the walk: module:ware
 * (imports) is walked before struct:depot.Crate (contains) at distance 1,
 * and reaches struct:ware.Box by contains before Crate reaches it by uses. */
static void test_cli_via_is_the_closest_tie(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = copy_relevance(fixture);
    spx_process_result_t result =
        SPX_RUN_SEMAPRAX(fixture->pool, "context", "--manifest-path", manifest, "--target",
                         "module:depot", "--depth", "2", "--max-nodes", "4");
    CU_ASSERT_EQUAL_FATAL(result.exit_code, 0);
    json_t *document = json_loads(result.out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(document);
    static const char *const ids[] = {"module:depot", "module:ware", "struct:depot.Crate",
                                      "struct:ware.Box"};
    json_t *nodes = json_object_get(document, "nodes");
    CU_ASSERT_EQUAL_FATAL(json_array_size(nodes), 4);
    for (size_t i = 0; i < 4; i++)
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(nodes, i), "id")),
                               ids[i]);
    json_t *via = json_object_get(json_array_get(nodes, 3), "via");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(via, "from")), "struct:depot.Crate");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(via, "kind")), "uses");
    /* Left out: ware's function, which sorts before the struct by id. */
    assert_omitted(document, 0, 0, 0, 1);
    assert_frontier(document, (const char *const[]){"function:ware.aside"}, 1);
    json_decref(document);
    spx_fixture_free(fixture);
}

static void test_daemon_answers_as_the_cli(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = copy_relevance(fixture);
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", (const char *const[]){NULL});
    const char *revisions = spx_daemon_open(daemon);
    static const struct {
        const char *options[5];
        const char *params;
        size_t kept;
        json_int_t calls, uses, tests, module;
    } cases[] = {
        {{"--max-nodes", "3", NULL}, "\"max_nodes\":3", 3, 0, 2, 1, 1},
        {{"--depth", "2", "--max-nodes", "9", NULL}, "\"depth\":2,\"max_nodes\":9", 9, 0, 0, 0, 5},
        {{"--max-bytes", "1700", NULL}, "\"max_bytes\":1700", 0, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *document = NULL;
        const char *out = cli_context(fixture, manifest, cases[i].options, &document);
        if (cases[i].kept) {
            assert_kept(document, cases[i].kept);
            assert_omitted(document, cases[i].calls, cases[i].uses, cases[i].tests,
                           cases[i].module);
        } else { /* cut by bytes: some prefix of the taking order */
            size_t kept = json_array_size(json_object_get(document, "nodes"));
            CU_ASSERT_TRUE(kept > 1 && kept < 7);
            assert_kept(document, kept);
            CU_ASSERT_TRUE(json_is_true(json_object_get(document, "truncated")));
        }
        json_decref(document);
        const char *params = apr_psprintf(pool, "%s,\"target\":\"function:shop.price\",%s",
                                          revisions, cases[i].params);
        spx_daemon_assert_line(
            spx_daemon_call(daemon, spx_request_line("2", "context", params, pool)),
            spx_daemon_result_line("2", out, pool));
    }
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"a cut context keeps calls, then uses, before siblings", test_cli_keeps_the_closest_ties},
        {"a context cut by max_bytes keeps the same order",
         test_cli_cut_by_bytes_keeps_the_closest_ties},
        {"a via is the closest tie from the level before", test_cli_via_is_the_closest_tie},
        {"semapraxd answers a cut context as the CLI", test_daemon_answers_as_the_cli},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("relevance of a cut context", tests);
}
