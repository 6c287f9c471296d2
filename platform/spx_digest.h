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

/* The digest of length bytes. */
void spx_sha256(const void *bytes, apr_size_t length, spx_sha256_t *digest);

/* A digest taken over bytes given in pieces (a document streamed through
 * the canonical writer), with nothing of them kept. */
typedef struct spx_sha256_stream_t spx_sha256_stream_t;

/* A stream with no bytes yet, in pool. */
spx_sha256_stream_t *spx_sha256_begin(apr_pool_t *pool);
/* The next length bytes. */
void spx_sha256_add(spx_sha256_stream_t *stream, const void *bytes, apr_size_t length);
/* The digest of every byte added (as spx_sha256 of them all at once); the
 * stream starts again, empty. */
void spx_sha256_end(spx_sha256_stream_t *stream, spx_sha256_t *digest);

/* "sha256:<hex>", allocated in pool. */
const char *spx_digest_text(const spx_sha256_t *digest, apr_pool_t *pool);

/* True when the two digests are equal. */
int spx_sha256_equal(const spx_sha256_t *a, const spx_sha256_t *b);

#endif /* SPX_DIGEST_H */
