/*
 * spx_canonical.h: canonical JSON (outputs.md) and digests of documents.
 *
 * Canonical means compact, keys sorted bytewise, UTF-8 unescaped, '/' not
 * escaped, integers only: Jansson's JSON_COMPACT | JSON_SORT_KEYS. The exact
 * escaping of control characters is written down in docs/canonical-json.md.
 */
#ifndef SPX_CANONICAL_H
#define SPX_CANONICAL_H

#include <apr_pools.h>
#include <jansson.h>

/* The Jansson encoding flags of canonical JSON, for callers that render
 * through json_dump_callback (the transport's bounded response writer). */
#define SPX_CANONICAL_FLAGS (JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)

/* The canonical text of document, without a final LF, allocated in pool;
 * NULL only when Jansson cannot encode it (out of memory). */
const char *spx_canonical_text(const json_t *document, apr_pool_t *pool);

/* "sha256:<hex>" of the canonical text of document, allocated in pool. */
const char *spx_canonical_digest(const json_t *document, apr_pool_t *pool);

#endif /* SPX_CANONICAL_H */
