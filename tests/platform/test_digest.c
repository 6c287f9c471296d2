/*
 * test_digest.c: SHA-256 through the platform's one Nettle wrapper: known
 * answers, streaming equal to one shot, and the digest of a held file.
 */
#include "spx_digest.h"
#include "spx_test.h"

#include <string.h>

static const char *digest_of(const char *text, apr_pool_t *pool)
{
    spx_sha256_t digest;
    spx_sha256(text, strlen(text), &digest);
    return spx_digest_text(&digest, pool);
}

static void test_known_answers(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    CU_ASSERT_STRING_EQUAL(
        digest_of("", pool),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CU_ASSERT_STRING_EQUAL(
        digest_of("abc", pool),
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CU_ASSERT_EQUAL(strlen(digest_of("x", pool)), SPX_DIGEST_TEXT_LENGTH);
    apr_pool_destroy(pool);
}

static void test_streaming_equals_one_shot(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *text = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    spx_sha256_t whole, streamed;
    spx_sha256(text, strlen(text), &whole);
    spx_sha256_stream_t *stream = spx_sha256_begin(pool);
    for (size_t i = 0; i < strlen(text); i += 5)
        spx_sha256_update(stream, text + i, strlen(text) - i < 5 ? strlen(text) - i : 5);
    spx_sha256_finish(stream, &streamed);
    CU_ASSERT_TRUE(spx_sha256_equal(&whole, &streamed));
    CU_ASSERT_STRING_EQUAL(
        spx_digest_text(&whole, pool),
        "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    spx_sha256_t other;
    spx_sha256("abd", 3, &other);
    CU_ASSERT_FALSE(spx_sha256_equal(&whole, &other));
    apr_pool_destroy(pool);
}

/* A held file is digested through its handle in small chunks; the result is
 * the digest of its bytes, whatever the chunk size. */
static void test_file_digest_in_chunks(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write_size(fixture, "big.spx", 100000);
    spx_dir_t *root = NULL;
    spx_file_t *file = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_root(&root, fixture->root, fixture->pool, NULL),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_file_open(&file, root, "big.spx", fixture->pool, NULL), APR_SUCCESS);
    const char *bytes = spx_fixture_read(fixture, "big.spx");
    spx_sha256_t expected, chunked;
    spx_sha256(bytes, 100000, &expected);
    uint64_t length = 0;
    CU_ASSERT_EQUAL(spx_file_digest(file, 4093, 100000, &chunked, &length, fixture->pool, NULL),
                    APR_SUCCESS);
    CU_ASSERT_EQUAL(length, 100000);
    CU_ASSERT_TRUE(spx_sha256_equal(&expected, &chunked));
    /* A file larger than the caller expects (one that grew) is read to its
     * end all the same: only a short read at the expected size ends early. */
    CU_ASSERT_EQUAL(spx_file_digest(file, 4093, 50000, &chunked, &length, fixture->pool, NULL),
                    APR_SUCCESS);
    CU_ASSERT_EQUAL(length, 100000);
    CU_ASSERT_TRUE(spx_sha256_equal(&expected, &chunked));
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"known answers", test_known_answers},
        {"streaming equals one shot", test_streaming_equals_one_shot},
        {"held file digested in chunks", test_file_digest_in_chunks},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("digest", tests);
}
