/*
 * test_digest.c: SHA-256 through the platform's one Nettle wrapper (known
 * answers, whole and given in pieces), and a held file's bytes compared with a copy of them
 * (spx_file_same_bytes), which re-authentication uses instead of a digest.
 */
#include "spx_digest.h"
#include "spx_test.h"

#include <apr_strings.h>
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

static void test_equal(void)
{
    spx_sha256_t a, b, c;
    spx_sha256("abc", 3, &a);
    spx_sha256("abc", 3, &b);
    spx_sha256("abd", 3, &c);
    CU_ASSERT_TRUE(spx_sha256_equal(&a, &b));
    CU_ASSERT_FALSE(spx_sha256_equal(&a, &c));
}

/* A digest taken in pieces is that of the bytes all at once, however they
 * are cut; the stream starts again empty after each digest. */
static void test_stream(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    char text[1000];
    for (size_t i = 0; i < sizeof(text); i++)
        text[i] = (char)('a' + (i * 7) % 26);
    spx_sha256_t whole, pieces;
    spx_sha256(text, sizeof(text), &whole);
    spx_sha256_stream_t *stream = spx_sha256_begin(pool);
    static const apr_size_t cuts[] = {1, 63, 64, 65, 999, 1000};
    for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
        for (apr_size_t at = 0; at < sizeof(text); at += cuts[c])
            spx_sha256_add(stream, text + at,
                           sizeof(text) - at < cuts[c] ? sizeof(text) - at : cuts[c]);
        spx_sha256_end(stream, &pieces);
        CU_ASSERT_TRUE(spx_sha256_equal(&whole, &pieces));
    }
    spx_sha256_end(stream, &pieces); /* nothing added */
    CU_ASSERT_STRING_EQUAL(
        spx_digest_text(&pieces, pool),
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    spx_sha256_add(stream, "abc", 3);
    spx_sha256_end(stream, &pieces);
    CU_ASSERT_STRING_EQUAL(
        spx_digest_text(&pieces, pool),
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    apr_pool_destroy(pool);
}

/* A held file compared with a copy of its bytes: equal whatever the buffer's
 * size; a file that differs in one byte, is longer or shorter is not. */
static void test_file_same_bytes(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write_size(fixture, "big.spx", 100000);
    spx_dir_t *root = NULL;
    spx_file_t *file = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_root(&root, fixture->root, fixture->pool, NULL),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_file_open(&file, root, "big.spx", fixture->pool, NULL), APR_SUCCESS);
    unsigned char *copy = apr_pmemdup(fixture->pool, spx_fixture_read(fixture, "big.spx"), 100000);
    unsigned char *buffer = apr_palloc(fixture->pool, 100001);
    static const apr_size_t capacities[] = {1, 4093, 65536, 100000, 100001};
    for (size_t i = 0; i < sizeof(capacities) / sizeof(capacities[0]); i++) {
        int same = 0;
        CU_ASSERT_EQUAL(spx_file_same_bytes(file, copy, 100000, buffer, capacities[i], &same,
                                            fixture->pool, NULL),
                        APR_SUCCESS);
        CU_ASSERT_TRUE(same);
        /* one byte different: at the start, in the middle, at the end */
        static const apr_size_t at[] = {0, 50000, 99999};
        for (size_t k = 0; k < 3; k++) {
            copy[at[k]] ^= 1;
            CU_ASSERT_EQUAL(spx_file_same_bytes(file, copy, 100000, buffer, capacities[i], &same,
                                                fixture->pool, NULL),
                            APR_SUCCESS);
            CU_ASSERT_FALSE(same);
            copy[at[k]] ^= 1;
        }
        /* the file longer than the copy, and shorter */
        CU_ASSERT_EQUAL(spx_file_same_bytes(file, copy, 99999, buffer, capacities[i], &same,
                                            fixture->pool, NULL),
                        APR_SUCCESS);
        CU_ASSERT_FALSE(same);
        CU_ASSERT_EQUAL(
            spx_file_same_bytes(file, copy, 0, buffer, capacities[i], &same, fixture->pool, NULL),
            APR_SUCCESS);
        CU_ASSERT_FALSE(same);
    }
    unsigned char *longer = apr_pcalloc(fixture->pool, 100001);
    memcpy(longer, copy, 100000);
    int same = 1;
    CU_ASSERT_EQUAL(
        spx_file_same_bytes(file, longer, 100001, buffer, 4093, &same, fixture->pool, NULL),
        APR_SUCCESS);
    CU_ASSERT_FALSE(same);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"known answers", test_known_answers},
        {"equal digests", test_equal},
        {"a digest taken in pieces", test_stream},
        {"a held file compared with a copy of its bytes", test_file_same_bytes},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("digest", tests);
}
