/*
 * spx_text.h: small helpers for the sentences the CLI and the daemon write
 * for people ("1 test", "2 tests").
 */
#ifndef SPX_TEXT_H
#define SPX_TEXT_H

#include <apr.h>

/* The plural ending of a regular English noun counted count times: "" for
 * one, "s" otherwise ("%u test%s"). */
static inline const char *spx_plural(apr_uint64_t count)
{
    return count == 1 ? "" : "s";
}

#endif
