/*
 * detail.c: the cuts of what an error's sentence repeats of a request,
 * and an error's message with its sentence (spx_detail.h).
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

const char *spx_detail_message(const char *fixed, const char *sentence,
                               char buffer[SPX_DETAIL_MESSAGE_BUFFER_BYTES])
{
    if (!sentence || !*sentence)
        return fixed;
    size_t fixed_length = strlen(fixed);
    size_t length = strlen(sentence);
    size_t kept = length <= SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES
                      ? length
                      : spx_utf8_cut((const unsigned char *)sentence, length,
                                     SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES - 3);
    if (fixed_length + 2 + SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES + 1 >
        SPX_DETAIL_MESSAGE_BUFFER_BYTES)
        return fixed; /* never: the code table's texts are short */
    char *at = buffer;
    memcpy(at, fixed, fixed_length);
    at += fixed_length;
    memcpy(at, ": ", 2);
    at += 2;
    memcpy(at, sentence, kept);
    at += kept;
    if (kept < length) {
        memcpy(at, "...", 3);
        at += 3;
    }
    *at = '\0';
    return buffer;
}
