/*
 * spx_digest.h: SHA-256, the one digest of Semaprax.
 *
 * The only wrapper around Nettle; nothing else in the project includes a
 * Nettle header. Digests are written as "sha256:" followed by 64 lowercase hex
 * digits (outputs.md).
 */
#ifndef SPX_DIGEST_H
#define SPX_DIGEST_H

#include "spx_platform.h"

#define SPX_SHA256_BYTES 32
/* "sha256:" + 64 hex digits, without the terminating NUL. */
#define SPX_DIGEST_TEXT_LENGTH (7 + 2 * SPX_SHA256_BYTES)

typedef struct spx_sha256_t {
    unsigned char bytes[SPX_SHA256_BYTES];
} spx_sha256_t;

typedef struct spx_sha256_stream_t spx_sha256_stream_t;

/* The digest of length bytes. */
void spx_sha256(const void *bytes, apr_size_t length, spx_sha256_t *digest);

/* A streaming digest, allocated in pool. */
spx_sha256_stream_t *spx_sha256_begin(apr_pool_t *pool);
void spx_sha256_update(spx_sha256_stream_t *stream, const void *bytes, apr_size_t length);
void spx_sha256_finish(spx_sha256_stream_t *stream, spx_sha256_t *digest);

/* "sha256:<hex>", allocated in pool. */
const char *spx_digest_text(const spx_sha256_t *digest, apr_pool_t *pool);

/* True when the two digests are equal. */
int spx_sha256_equal(const spx_sha256_t *a, const spx_sha256_t *b);

/* Digest the held file's bytes from offset 0 to end of file, reading through
 * the handle in chunks of chunk_bytes; *length is the number of bytes read.
 * The end of file is a read that returns nothing, or a short read that ends
 * exactly at expected_bytes (the size the caller knows the file has), which
 * saves a second read of a file smaller than a chunk; a file that grew is
 * still read to its end. Memory stays at one chunk whatever the file's size. */
apr_status_t spx_file_digest(spx_file_t *file, apr_size_t chunk_bytes, uint64_t expected_bytes,
                             spx_sha256_t *digest, uint64_t *length, apr_pool_t *pool,
                             const char **message);

#endif /* SPX_DIGEST_H */
