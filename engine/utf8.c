/*
 * utf8.c: UTF-8 sequences, cuts and encoding (spx_utf8.h), the one copy
 * that every reader and writer of text in Semaprax uses.
 */
#include "spx_utf8.h"

#include <string.h>

/* How many bytes of bytes[0..available) (available >= 1) agree with a
 * well-formed sequence, and in *need how many it takes (0 when the first
 * byte leads none). The second byte's range excludes the overlongs (after
 * 0xE0, 0xF0), the surrogates (after 0xED) and what is above U+10FFFF
 * (after 0xF4); every later one is a continuation byte 0x80..0xBF. */
static apr_size_t matched(const unsigned char *bytes, apr_size_t available, apr_size_t *need)
{
    unsigned char lead = bytes[0], low = 0x80, high = 0xbf;
    if (lead < 0x80) {
        *need = 1;
        return 1;
    }
    if (lead < 0xc2 || lead > 0xf4) {
        *need = 0;
        return 0;
    }
    *need = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    if (lead == 0xe0)
        low = 0xa0;
    else if (lead == 0xed)
        high = 0x9f;
    else if (lead == 0xf0)
        low = 0x90;
    else if (lead == 0xf4)
        high = 0x8f;
    apr_size_t count = 1;
    while (count < *need && count < available) {
        unsigned char next = bytes[count];
        if (next < low || next > high)
            break;
        low = 0x80;
        high = 0xbf;
        count++;
    }
    return count;
}

apr_size_t spx_utf8_length(const unsigned char *bytes, apr_size_t available)
{
    if (available == 0)
        return 0;
    apr_size_t need = 0;
    apr_size_t count = matched(bytes, available, &need);
    return need > 0 && count == need ? need : 0;
}

apr_size_t spx_utf8_invalid_length(const unsigned char *bytes, apr_size_t available)
{
    if (available == 0)
        return 0;
    apr_size_t need = 0;
    apr_size_t count = matched(bytes, available, &need);
    if (need > 0 && count == need)
        return 0;
    return count > 0 ? count : 1;
}

apr_size_t spx_utf8_cut(const unsigned char *bytes, apr_size_t length, apr_size_t n)
{
    if (n >= length)
        return length;
    while (n > 0 && (bytes[n] & 0xc0) == 0x80)
        n--;
    return n;
}

apr_size_t spx_utf8_encode(unsigned long value, char *out)
{
    if (value < 0x80) {
        out[0] = (char)value;
        return 1;
    }
    if (value < 0x800) {
        out[0] = (char)(0xc0 | (value >> 6));
        out[1] = (char)(0x80 | (value & 0x3f));
        return 2;
    }
    if (value < 0x10000) {
        out[0] = (char)(0xe0 | (value >> 12));
        out[1] = (char)(0x80 | ((value >> 6) & 0x3f));
        out[2] = (char)(0x80 | (value & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (value >> 18));
    out[1] = (char)(0x80 | ((value >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((value >> 6) & 0x3f));
    out[3] = (char)(0x80 | (value & 0x3f));
    return 4;
}

size_t spx_byte_order_mark_length(const char *text, size_t length)
{
    return length >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}
