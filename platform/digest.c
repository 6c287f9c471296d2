/*
 * digest.c: SHA-256 over Nettle, and the streaming digest of a held file.
 *
 * Nettle is small, packaged everywhere the project builds, and fast (SHA-NI);
 * this file is the only one that includes it, so replacing it touches nothing
 * else.
 */
#include "spx_digest.h"

#include <nettle/sha2.h>
#include <string.h>

struct spx_sha256_stream_t {
    struct sha256_ctx context;
};

void spx_sha256(const void *bytes, apr_size_t length, spx_sha256_t *digest)
{
    struct sha256_ctx context;
    sha256_init(&context);
    sha256_update(&context, length, bytes);
    sha256_digest(&context, SPX_SHA256_BYTES, digest->bytes);
}

spx_sha256_stream_t *spx_sha256_begin(apr_pool_t *pool)
{
    spx_sha256_stream_t *stream = apr_palloc(pool, sizeof(*stream));
    sha256_init(&stream->context);
    return stream;
}

void spx_sha256_update(spx_sha256_stream_t *stream, const void *bytes, apr_size_t length)
{
    sha256_update(&stream->context, length, bytes);
}

void spx_sha256_finish(spx_sha256_stream_t *stream, spx_sha256_t *digest)
{
    sha256_digest(&stream->context, SPX_SHA256_BYTES, digest->bytes);
}

const char *spx_digest_text(const spx_sha256_t *digest, apr_pool_t *pool)
{
    static const char hex[] = "0123456789abcdef";
    char *text = apr_palloc(pool, SPX_DIGEST_TEXT_LENGTH + 1);
    memcpy(text, "sha256:", 7);
    for (int i = 0; i < SPX_SHA256_BYTES; i++) {
        text[7 + 2 * i] = hex[digest->bytes[i] >> 4];
        text[8 + 2 * i] = hex[digest->bytes[i] & 15];
    }
    text[SPX_DIGEST_TEXT_LENGTH] = '\0';
    return text;
}

int spx_sha256_equal(const spx_sha256_t *a, const spx_sha256_t *b)
{
    return memcmp(a->bytes, b->bytes, SPX_SHA256_BYTES) == 0;
}

apr_status_t spx_file_digest(spx_file_t *file, apr_size_t chunk_bytes, uint64_t expected_bytes,
                             spx_sha256_t *digest, uint64_t *length, apr_pool_t *pool,
                             const char **message)
{
    unsigned char *chunk = apr_palloc(pool, chunk_bytes);
    spx_sha256_stream_t *stream = spx_sha256_begin(pool);
    uint64_t offset = 0;
    for (;;) {
        apr_size_t got = 0;
        apr_status_t status =
            spx_file_read_at(file, offset, chunk, chunk_bytes, &got, pool, message);
        if (status != APR_SUCCESS)
            return status;
        if (got == 0)
            break;
        spx_sha256_update(stream, chunk, got);
        offset += got;
        if (got < chunk_bytes && offset == expected_bytes)
            break;
    }
    spx_sha256_finish(stream, digest);
    *length = offset;
    return APR_SUCCESS;
}
