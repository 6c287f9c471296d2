/*
 * canonical.c: renders documents as canonical JSON and digests them.
 */
#include "spx_canonical.h"

#include "spx_digest.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

const char *spx_canonical_text(const json_t *document, apr_pool_t *pool)
{
    char *text = json_dumps(document, SPX_CANONICAL_FLAGS);
    if (!text)
        return NULL;
    char *copy = apr_pstrdup(pool, text);
    free(text);
    return copy;
}

const char *spx_canonical_digest(const json_t *document, apr_pool_t *pool)
{
    const char *text = spx_canonical_text(document, pool);
    if (!text)
        return NULL;
    spx_sha256_t digest;
    spx_sha256(text, strlen(text), &digest);
    return spx_digest_text(&digest, pool);
}
