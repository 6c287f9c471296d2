/*
 * spx_detail.h: what an error's sentence may repeat of what a client sent,
 * written once for every transport (v2, v3 and MCP alike): a string of the
 * client's quoted in a sentence (a method, a param's key, a name) is cut to
 * SPX_LIMIT_DETAIL_ECHO_BYTES, and a whole sentence that may carry one (an
 * engine's message naming a target or a test) to
 * SPX_LIMIT_ERROR_DETAIL_BYTES, each at a UTF-8 boundary and marked "...",
 * so an error's answer stays small whatever the request; and an error's
 * message, its code's fixed text with the sentence after it, cut shorter
 * (SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES).
 */
#ifndef SPX_DETAIL_H
#define SPX_DETAIL_H

#include "spx_limits.h"

#include <apr_pools.h>

/* text, or its first SPX_LIMIT_DETAIL_ECHO_BYTES bytes (cut at a UTF-8
 * boundary) and "..." (in pool) when it is longer. */
const char *spx_detail_echo(const char *text, apr_pool_t *pool);

/* The room spx_detail_bounded needs for a cut sentence. */
#define SPX_DETAIL_BUFFER_BYTES (SPX_LIMIT_ERROR_DETAIL_BYTES + 1)

/* sentence itself when it is at most SPX_LIMIT_ERROR_DETAIL_BYTES bytes;
 * else, in buffer, its first bytes cut at a UTF-8 boundary and "...", at
 * most SPX_LIMIT_ERROR_DETAIL_BYTES bytes in all. */
const char *spx_detail_bounded(const char *sentence, char buffer[SPX_DETAIL_BUFFER_BYTES]);

/* The room spx_detail_message needs: the longest fixed message of the
 * code table (spx_rpc.h) is far under 64 bytes. */
#define SPX_DETAIL_MESSAGE_BUFFER_BYTES (SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES + 64)

/* An error's message (v2, v3, MCP): fixed, the code's text, then ": " and
 * sentence cut to SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES at a UTF-8
 * boundary and marked "..." when longer; fixed alone when sentence is NULL
 * or empty. In buffer, or fixed itself. */
const char *spx_detail_message(const char *fixed, const char *sentence,
                               char buffer[SPX_DETAIL_MESSAGE_BUFFER_BYTES]);

#endif /* SPX_DETAIL_H */
