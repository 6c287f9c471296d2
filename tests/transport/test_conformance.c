/*
 * test_conformance.c: the JSONTestSuite parsing files (shared conformance
 * data, found through SPX_CONFORMANCE) fed to the request grammar, each file
 * without LF or CR as one frame. Every n_ file must be refused, never taken
 * for a request: transport.md allows -32700 or -32600, and since none of them
 * is valid JSON the grammar answers each with -32700, which is what this test
 * holds it to (n_multidigit_number_then_00, which Jansson alone accepts, is
 * the raw NUL scan's). Every y_ file is valid JSON, so it must
 * pass the JSON stage and be refused as a request (-32600: no jsonrpc or
 * method), except where the framing rules make it -32700 (a \u0000 escape,
 * a duplicate key);
 * the i_ files must be refused one way or the other and never crash.
 */
#include "spx_corpus.h"
#include "spx_request.h"
#include "spx_rpc.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

static apr_pool_t *new_pool(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

/* True when text holds a \u0000 escape (a backslash that is not itself
 * escaped, then u0000): the framing rules refuse it with -32700. */
static int has_nul_escape(const char *text, apr_size_t length)
{
    for (apr_size_t i = 0; i + 6 <= length; i++) {
        if (text[i] != '\\')
            continue;
        apr_size_t run = 0;
        while (i + run < length && text[i + run] == '\\')
            run++;
        if (run % 2 == 1 && i + run + 5 <= length && memcmp(text + i + run, "u0000", 5) == 0)
            return 1;
        i += run - 1;
    }
    return 0;
}

/* True when text is JSON with a key twice in one object (Jansson as the
 * oracle: it decodes without JSON_REJECT_DUPLICATES but not with it). */
static int has_duplicate_keys(const char *text, apr_size_t length)
{
    const size_t flags = JSON_DECODE_ANY | JSON_ALLOW_NUL;
    json_t *lenient = json_loadb(text, length, flags, NULL);
    json_t *strict = json_loadb(text, length, flags | JSON_REJECT_DUPLICATES, NULL);
    int duplicates = lenient && !strict;
    json_decref(lenient);
    json_decref(strict);
    return duplicates;
}

typedef struct tally_t {
    int fed;
    int skipped; /* files with LF or CR: not one frame */
} tally_t;

/* Feed every file of the suite whose name starts with prefix; check(...)
 * judges each outcome. */
static void feed_files(const char *prefix, tally_t *tally,
                       int (*check)(const char *name, const char *text, apr_size_t length,
                                    spx_request_status_t status, const spx_request_error_t *error))
{
    apr_pool_t *pool = new_pool();
    const char *dir = getenv("SPX_CONFORMANCE");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    apr_array_header_t *names = spx_corpus_list(dir, ".json", pool);
    for (int i = 0; i < names->nelts; i++) {
        const char *name = APR_ARRAY_IDX(names, i, const char *);
        if (strncmp(name, prefix, strlen(prefix)) != 0)
            continue;
        apr_size_t length = 0;
        const char *text = spx_corpus_read(apr_pstrcat(pool, dir, "/", name, NULL), &length, pool);
        if (memchr(text, '\n', length) || memchr(text, '\r', length)) {
            tally->skipped++;
            continue;
        }
        apr_pool_t *frame_pool = new_pool();
        spx_request_t request;
        spx_request_error_t error;
        spx_request_status_t status =
            spx_request_parse((const unsigned char *)text, length, &request, &error, frame_pool);
        if (!check(name, text, length, status, &error)) {
            fprintf(stderr, "\n  %s: %s %d (%s)\n", name,
                    status == SPX_REQUEST_VALID ? "accepted" : "refused", error.code,
                    error.detail ? error.detail : "");
            CU_FAIL("a conformance file got the wrong answer");
        }
        apr_pool_destroy(frame_pool);
        tally->fed++;
    }
    apr_pool_destroy(pool);
}

static int refused_as_json_or_request(const char *name, const char *text, apr_size_t length,
                                      spx_request_status_t status, const spx_request_error_t *error)
{
    (void)name;
    (void)text;
    (void)length;
    return status == SPX_REQUEST_INVALID &&
           (error->code == SPX_RPC_PARSE_ERROR || error->code == SPX_RPC_INVALID_REQUEST);
}

static int refused_as_json(const char *name, const char *text, apr_size_t length,
                           spx_request_status_t status, const spx_request_error_t *error)
{
    (void)name;
    (void)text;
    (void)length;
    return status == SPX_REQUEST_INVALID && error->code == SPX_RPC_PARSE_ERROR;
}

static int valid_json_refused_as_request(const char *name, const char *text, apr_size_t length,
                                         spx_request_status_t status,
                                         const spx_request_error_t *error)
{
    (void)name;
    int refused_by_framing = has_nul_escape(text, length) || has_duplicate_keys(text, length);
    int expected = refused_by_framing ? SPX_RPC_PARSE_ERROR : SPX_RPC_INVALID_REQUEST;
    return status == SPX_REQUEST_INVALID && error->code == expected;
}

static void test_n_files_are_never_requests(void)
{
    tally_t tally = {0, 0};
    feed_files("n_", &tally, refused_as_json);
    /* The suite has 188 n_ files; only a few hold LF or CR. */
    CU_ASSERT(tally.fed >= 150);
    CU_ASSERT(tally.skipped <= 10);
}

static void test_y_files_pass_the_json_stage(void)
{
    tally_t tally = {0, 0};
    feed_files("y_", &tally, valid_json_refused_as_request);
    CU_ASSERT(tally.fed >= 80);
    CU_ASSERT(tally.skipped <= 10);
}

static void test_i_files_are_refused_without_crashing(void)
{
    tally_t tally = {0, 0};
    feed_files("i_", &tally, refused_as_json_or_request);
    CU_ASSERT(tally.fed >= 30);
}

static void test_framing_rule_detection(void)
{
    /* The helpers the y_ expectation rests on. */
    CU_ASSERT_TRUE(has_duplicate_keys("{\"a\":1,\"a\":1}", 13));
    CU_ASSERT_TRUE(has_duplicate_keys("[{\"a\":{\"b\":1,\"b\":2}}]", 21));
    CU_ASSERT_FALSE(has_duplicate_keys("{\"a\":1,\"b\":1}", 13));
    CU_ASSERT_TRUE(has_nul_escape("[\"\\u0000\"]", 10));
    CU_ASSERT_FALSE(has_nul_escape("[\"\\\\u0000\"]", 11));
    CU_ASSERT_TRUE(has_nul_escape("[\"\\\\\\u0000\"]", 12));
    CU_ASSERT_FALSE(has_nul_escape("[\"u0000\"]", 9));
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"n_ files are never requests", test_n_files_are_never_requests},
        {"y_ files pass the JSON stage", test_y_files_pass_the_json_stage},
        {"i_ files are refused without crashing", test_i_files_are_refused_without_crashing},
        {"framing rule detection", test_framing_rule_detection},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("conformance", tests);
}
