/*
 * detail.c: the cuts of what an error's sentence repeats of a request
 * (spx_detail.h).
 */
#include "spx_detail.h"

#include "spx_utf8.h"

#include <apr_strings.h>
#include <string.h>

const char *spx_detail_echo(const char *text, apr_pool_t *pool)
{
    apr_size_t length = strlen(text);
    if (length <= SPX_LIMIT_DETAIL_ECHO_BYTES)
        return text;
    apr_size_t kept =
        spx_utf8_cut((const unsigned char *)text, length, SPX_LIMIT_DETAIL_ECHO_BYTES);
    return apr_pstrcat(pool, apr_pstrndup(pool, text, kept), "...", NULL);
}

const char *spx_detail_bounded(const char *sentence, char buffer[SPX_DETAIL_BUFFER_BYTES])
{
    size_t length = strlen(sentence);
    if (length <= SPX_LIMIT_ERROR_DETAIL_BYTES)
        return sentence;
    size_t kept =
        spx_utf8_cut((const unsigned char *)sentence, length, SPX_LIMIT_ERROR_DETAIL_BYTES - 3);
    memcpy(buffer, sentence, kept);
    memcpy(buffer + kept, "...", 4);
    return buffer;
}
