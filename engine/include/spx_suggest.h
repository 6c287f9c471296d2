/*
 * spx_suggest.h: nearest names for a name that was not found ("no function
 * 'math.fibb' in this project; nearest: math.fib, math.fact"). The distance
 * is Damerau-Levenshtein in its optimal string alignment form, over bytes:
 * an insertion, a deletion, a substitution or a swap of two adjacent bytes
 * each count one edit, and no part of the text is edited twice.
 *
 * A name is suggested when it is within the bound (SPX_LIMIT_SUGGEST_DISTANCE,
 * and at most a third of the unknown name's length, at least 1), nearest
 * first, ties broken bytewise. Names over SPX_LIMIT_SUGGEST_NAME_BYTES are
 * neither matched nor suggested, so the work per candidate is bounded
 * whatever the input. Used by the context query; general enough for the
 * checker's diagnostics.
 */
#ifndef SPX_SUGGEST_H
#define SPX_SUGGEST_H

#include <stddef.h>

/* The optimal string alignment distance between a[0..a_length) and
 * b[0..b_length), or bound + 1 when it is over bound (the computation stops
 * as soon as it knows). Both lengths at most SPX_LIMIT_SUGGEST_NAME_BYTES;
 * longer inputs answer bound + 1. */
size_t spx_suggest_distance(const char *a, size_t a_length, const char *b, size_t b_length,
                            size_t bound);

/* The edit bound for an unknown name of length bytes. */
size_t spx_suggest_bound(size_t length);

/* Up to most (at most SPX_LIMIT_SUGGESTIONS) of candidates[0..count) nearest
 * to name, within spx_suggest_bound(strlen(name)), nearest first and ties
 * bytewise; a name equal to name itself and repeated candidates are left
 * out. nearest[] receives pointers into candidates; the count is returned. */
size_t spx_suggest_nearest(const char *name, const char *const *candidates, size_t count,
                           size_t most, const char **nearest);

#endif /* SPX_SUGGEST_H */
