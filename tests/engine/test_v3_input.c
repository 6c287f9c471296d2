/*
 * test_v3_input.c: language v3's input part in the engine: Manifest v2
 * ([limits], [[data]], a test's limit keys, its messages, limits and
 * canonical subject). Its corpus cases are tests/corpus/manifest/v2_*.
 */
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_limits.h"
#include "spx_manifest.h"
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

static apr_pool_t *pool_for_test(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

static spx_manifest_t *parse(const char *text, apr_pool_t *pool, spx_diagnostics_t **diagnostics)
{
    *diagnostics = spx_diagnostics_make(pool);
    spx_manifest_t *manifest = spx_manifest_parse((const unsigned char *)text, strlen(text),
                                                  "semaprax.toml", pool, *diagnostics);
    spx_diagnostics_sort(*diagnostics);
    return manifest;
}

/* The one diagnostic text gives has this code and message (and, when note
 * is given, one note with that line). */
static void assert_message(const char *text, const char *code, const char *message,
                           unsigned note_line)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *diagnostics = NULL;
    CU_ASSERT_PTR_NULL(parse(text, pool, &diagnostics));
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, 0);
    if (strcmp(item->code, code) != 0 || strcmp(item->message, message) != 0)
        fprintf(stderr, "\n  got %s '%s'\n  wanted %s '%s'\n", item->code, item->message, code,
                message);
    CU_ASSERT_STRING_EQUAL(item->code, code);
    CU_ASSERT_STRING_EQUAL(item->message, message);
    if (note_line) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(item->notes);
        CU_ASSERT_EQUAL_FATAL(item->notes->nelts, 1);
        const spx_diagnostic_note_t *note = &APR_ARRAY_IDX(item->notes, 0, spx_diagnostic_note_t);
        CU_ASSERT_EQUAL(note->span.start.line, note_line);
        CU_ASSERT_STRING_EQUAL(note->message, "first declared here");
    } else {
        CU_ASSERT(item->notes == NULL || item->notes->nelts == 0);
    }
    apr_pool_destroy(pool);
}

static void test_manifest_messages(void)
{
    assert_message(HEAD1 PROJECT SOURCE DATA, "E0145", "'[[data]]'" NEED, 0);
    assert_message(HEAD1 PROJECT "[limits]\nmax_steps = 5\n" SOURCE, "E0145", "'[limits]'" NEED, 0);
    assert_message(HEAD1 PROJECT SOURCE TEST "max_call_depth = 5\n", "E0145",
                   "'max_call_depth'" NEED, 0);
    assert_message(HEAD2 PROJECT SOURCE "[[data]]\nname = \"Corpus\"\npath = \"d.txt\"\n", "E0146",
                   "data name 'Corpus' is not [a-z][a-z0-9_-]{0,63}", 0);
    assert_message(HEAD2 PROJECT SOURCE DATA "[[data]]\nname = \"corpus\"\npath = \"d.txt\"\n",
                   "E0147", "data name 'corpus' is declared twice", 10);
    assert_message(HEAD2 PROJECT SOURCE "[[data]]\nname = \"corpus\"\npath = \"../x.txt\"\n",
                   "E0148", "data path '../x.txt' leaves the project root", 0);
    assert_message(HEAD2 PROJECT SOURCE "[[data]]\nname = \"corpus\"\npath = \"a\\\\x.txt\"\n",
                   "E0148",
                   "data path 'a\\x.txt' contains a backslash; separate components with '/'", 0);
    assert_message(HEAD2 PROJECT SOURCE "[[data]]\nname = \"corpus\"\npath = \"/x\"\n", "E0148",
                   "data path '/x' is absolute; data paths are relative to the project root", 0);
    assert_message(HEAD2 PROJECT SOURCE "[[data]]\nname = \"corpus\"\npath = \"src/app.spx\"\n",
                   "E0149", "data path 'src/app.spx' is already declared as a source", 0);
    assert_message(HEAD2 PROJECT SOURCE DATA
                   "[[data]]\nname = \"c2\"\npath = \"data/corpus.txt\"\n",
                   "E0149", "data path 'data/corpus.txt' is already declared as data", 11);
    assert_message(HEAD2 PROJECT SOURCE "[[data]]\nname = \"corpus\"\npath = \"semaprax.toml\"\n",
                   "E0149", "data path 'semaprax.toml' is the manifest's", 0);
    assert_message(HEAD2 PROJECT "[limits]\nmax_steps = \"5\"\n" SOURCE, "E0153",
                   "max_steps takes an integer such as 5_000_000", 0);
    assert_message(HEAD2 PROJECT "[limits]\nmax_steps = 1_\n" SOURCE, "E0153",
                   "max_steps takes an integer such as 5_000_000", 0);
    assert_message(HEAD2 PROJECT "[limits]\nmax_steps = -1\n" SOURCE, "E0153",
                   "max_steps takes an integer such as 5_000_000", 0);
    assert_message(HEAD2 PROJECT "[limits]\nmax_steps = 1.5\n" SOURCE, "E0153",
                   "max_steps takes an integer such as 5_000_000", 0);
    assert_message(HEAD2 PROJECT "[limits]\nmax_steps =\n" SOURCE, "E0153",
                   "max_steps takes an integer such as 5_000_000", 0);
    assert_message(HEAD2 PROJECT "[limits]\nmax_memory = 1_073_741_825\n" SOURCE, "E0154",
                   "max_memory 1073741825 is over the maximum of 1073741824", 0);
    assert_message(HEAD2 PROJECT SOURCE TEST "max_call_depth = 0\n", "E0154",
                   "max_call_depth 0 is under the minimum of 1", 0);
    assert_message(HEAD2 PROJECT SOURCE TEST "max_steps = 10_000_000_001\n", "E0154",
                   "max_steps 10000000001 is over the maximum of 10000000000", 0);
    assert_message(HEAD2 PROJECT "[limits]\n[limits]\n" SOURCE, "E0156", "a second [limits] table",
                   0);
    assert_message(HEAD2 "[limits]\n" PROJECT SOURCE, "E0124",
                   "[project] must come directly after the manifest key, before any [limits], "
                   "[[source]], [[data]] or [[test]]",
                   0);
    assert_message(HEAD2 PROJECT SOURCE "[[data]]\nname = \"corpus\"\n", "E0128",
                   "[[data]] is missing the key 'path'", 0);
    assert_message(HEAD2 PROJECT SOURCE "[[data]]\nname = \"corpus\"\nfile = \"x\"\n", "E0126",
                   "unknown key 'file' in [[data]]; [[data]] has name and path", 0);
    assert_message(HEAD2 PROJECT "[limits]\nmax_stepz = \"1\"\n" SOURCE, "E0126",
                   "unknown key 'max_stepz' in [limits]; did you mean 'max_steps'? [limits] has "
                   "max_steps, max_memory and max_call_depth",
                   0);
    assert_message(HEAD1 PROJECT SOURCE TEST "max_stepz = \"1\"\n", "E0126",
                   "unknown key 'max_stepz' in [[test]]; [[test]] has name and function", 0);
    assert_message(HEAD2 PROJECT SOURCE "[dependencies]\n", "E0125",
                   "unknown table [dependencies]; the manifest has [project], [limits], "
                   "[[source]], [[data]] and [[test]]",
                   0);
    assert_message(HEAD2 PROJECT SOURCE "[[test]]\nname = 5\nfunction = \"app.t\"\n", "E0114",
                   "the value of 'name' is not a string: '5'; every value is a \"...\" string", 0);
}

/* 4096 [[data]] tables are allowed; the first over is E0152 at its header. */
static void test_data_count_limit(void)
{
    apr_pool_t *pool = pool_for_test();
    apr_array_header_t *parts = apr_array_make(pool, 5000, sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = HEAD2 PROJECT SOURCE;
    for (unsigned i = 0; i < SPX_LIMIT_DATA_ENTRIES; i++)
        APR_ARRAY_PUSH(parts, const char *) =
            apr_psprintf(pool, "[[data]]\nname = \"d%u\"\npath = \"d/%u.txt\"\n", i, i);
    spx_diagnostics_t *diagnostics = NULL;
    spx_manifest_t *manifest = parse(apr_array_pstrcat(pool, parts, 0), pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    CU_ASSERT_EQUAL(manifest->data_count, SPX_LIMIT_DATA_ENTRIES);
    APR_ARRAY_PUSH(parts, const char *) = "[[data]]\nname = \"over\"\npath = \"over.txt\"\n";
    CU_ASSERT_PTR_NULL(parse(apr_array_pstrcat(pool, parts, 0), pool, &diagnostics));
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, 0);
    CU_ASSERT_STRING_EQUAL(item->code, "E0152");
    CU_ASSERT_STRING_EQUAL(item->message, "more than 4096 [[data]] tables");
    CU_ASSERT_EQUAL(item->span.start.line, 8 + 3 * SPX_LIMIT_DATA_ENTRIES + 1);
    CU_ASSERT_EQUAL(item->span.start.column, 1);
    CU_ASSERT_EQUAL(item->span.end.column, 9);
    apr_pool_destroy(pool);
}

static const char *subject_text(const char *text, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = NULL;
    spx_manifest_t *manifest = parse(text, pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    json_t *subject = spx_manifest_subject(manifest);
    const char *canonical = spx_canonical_text(subject, pool);
    json_decref(subject);
    return canonical;
}

/* The page's v2 subject: limits and data always present, data sorted by
 * path, a test's limit keys only when given; the parsed values. */
static void test_manifest_subject(void)
{
    apr_pool_t *pool = pool_for_test();
    const char *text = HEAD2 PROJECT "[limits]                       # optional\n"
                                     "max_steps = 20_000_000\n" SOURCE
                                     "[[data]]\nname = \"zeta\"\npath = \"data/z.txt\"\n" DATA TEST
                                     "max_steps = 50_000_000\nmax_call_depth = 1024\n";
    CU_ASSERT_STRING_EQUAL(
        subject_text(text, pool),
        "{\"data\":[{\"name\":\"corpus\",\"path\":\"data/corpus.txt\"},"
        "{\"name\":\"zeta\",\"path\":\"data/z.txt\"}],"
        "\"limits\":{\"max_steps\":20000000},"
        "\"project\":{\"entry\":\"app.main\",\"name\":\"wordfreq\",\"version\":\"0.2.0\"},"
        "\"schema\":\"semaprax.project-manifest.v2\","
        "\"sources\":[{\"module\":\"app\",\"path\":\"src/app.spx\"}],"
        "\"tests\":[{\"function\":\"app.test_big\",\"max_call_depth\":1024,"
        "\"max_steps\":50000000,\"name\":\"big\"}]}");
    CU_ASSERT_STRING_EQUAL(subject_text(HEAD2 PROJECT SOURCE, pool),
                           "{\"data\":[],\"limits\":{},"
                           "\"project\":{\"entry\":\"app.main\",\"name\":\"wordfreq\","
                           "\"version\":\"0.2.0\"},"
                           "\"schema\":\"semaprax.project-manifest.v2\","
                           "\"sources\":[{\"module\":\"app\",\"path\":\"src/app.spx\"}],"
                           "\"tests\":[]}");
    /* A v1 manifest's subject is v1's. */
    CU_ASSERT_STRING_EQUAL(subject_text(HEAD1 PROJECT SOURCE, pool),
                           "{\"project\":{\"entry\":\"app.main\",\"name\":\"wordfreq\","
                           "\"version\":\"0.2.0\"},"
                           "\"schema\":\"semaprax.project-manifest.v1\","
                           "\"sources\":[{\"module\":\"app\",\"path\":\"src/app.spx\"}],"
                           "\"tests\":[]}");

    spx_diagnostics_t *diagnostics = NULL;
    spx_manifest_t *manifest = parse(text, pool, &diagnostics);
    CU_ASSERT_EQUAL(manifest->schema_version, 2);
    CU_ASSERT(manifest->limits.has_max_steps && !manifest->limits.has_max_memory &&
              !manifest->limits.has_max_call_depth);
    CU_ASSERT_EQUAL(manifest->limits.max_steps, 20000000u);
    CU_ASSERT_EQUAL(manifest->tests[0].limits.max_steps, 50000000u);
    CU_ASSERT_EQUAL(manifest->tests[0].limits.max_call_depth, 1024u);
    CU_ASSERT_EQUAL(manifest->data_count, 2);
    CU_ASSERT_STRING_EQUAL(manifest->data[0].name, "zeta");
    CU_ASSERT_EQUAL(manifest->data[1].path_span.start.line, 16);
    CU_ASSERT_PTR_EQUAL(spx_manifest_find_data(manifest, "corpus"), &manifest->data[1]);
    CU_ASSERT_PTR_NULL(spx_manifest_find_data(manifest, "corpse"));
    manifest = parse(HEAD2 PROJECT "[limits]\nmax_memory = 0\nmax_call_depth = 65_536\n" SOURCE,
                     pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    CU_ASSERT(manifest->limits.has_max_memory && manifest->limits.max_memory == 0);
    CU_ASSERT_EQUAL(manifest->limits.max_call_depth, 65536u);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"manifest v2: messages", test_manifest_messages},
        {"manifest v2: the [[data]] count limit", test_data_count_limit},
        {"manifest v2: canonical subject and parsed values", test_manifest_subject},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("v3_input", tests);
}
