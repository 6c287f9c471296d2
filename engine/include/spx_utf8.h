/*
 * spx_utf8.h: UTF-8 in one place: where a well-formed sequence starts and
 * how long it is, how long an ill-formed one is, where text may be cut
 * without splitting a character, and how a scalar value is written.
 *
 * Well-formed means RFC 3629 (Unicode's Table 3-7): no overlong forms, no
 * surrogates (U+D800..U+DFFF), nothing above U+10FFFF, no truncated
 * sequence, so the lead bytes 0xC0, 0xC1 and 0xF5..0xFF never start one.
 * The lexer, the manifest parser, the CLI's source view, the context
 * document and the VM's print all use these, so they agree byte for byte.
 */
#ifndef SPX_UTF8_H
#define SPX_UTF8_H

#include <apr.h>

#include <stddef.h>

/* The length (1 to 4) of the well-formed UTF-8 sequence at
 * bytes[0..available), or 0 when none starts there (or available is 0). An
 * ASCII byte, control bytes and NUL included, is a sequence of 1. */
apr_size_t spx_utf8_length(const unsigned char *bytes, apr_size_t available);

/* 0 when a well-formed sequence starts at bytes[0..available) (or available
 * is 0); else the length (1 to 3) of its ill-formed part: the lead byte and
 * the continuation bytes after it that could still have begun a well-formed
 * sequence (Unicode's "maximal subpart"), so a truncated sequence is all
 * that is left and a byte that can lead nothing is 1. */
apr_size_t spx_utf8_invalid_length(const unsigned char *bytes, apr_size_t available);

/* Where to cut bytes[0..length) to keep at most n bytes without splitting a
 * character: length when n >= length; else n moved back over continuation
 * bytes (10xxxxxx) until bytes[cut] is none, never below 0. For well-formed
 * text that is the largest cut <= n on a character boundary. */
apr_size_t spx_utf8_cut(const unsigned char *bytes, apr_size_t length, apr_size_t n);

/* Write the Unicode scalar value (at most U+10FFFF, not a surrogate: the
 * caller has checked) as UTF-8 at out; returns how many bytes it wrote: 1
 * below U+0080, 2 below U+0800, 3 below U+10000, else 4. */
apr_size_t spx_utf8_encode(unsigned long value, char *out);

/* 3 when text (length bytes) starts with a UTF-8 byte order mark (EF BB BF),
 * else 0. A source or manifest skips a leading mark; its bytes still count in
 * offsets and columns (language.md, Lexical); a mark anywhere else is an
 * error. */
size_t spx_byte_order_mark_length(const char *text, size_t length);

#endif /* SPX_UTF8_H */
