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

#include "spx_limits.h"

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

/* The same search, with the candidates offered one at a time where they
 * lie, so that nothing is copied to search them: spx_suggest_start, then
 * spx_suggest_offer for each candidate until it answers 0, then
 * search.nearest[0..search.kept) is the answer (pointers to the offered
 * names, nearest first). At most scan_limit candidates are examined
 * (SPX_LIMIT_SUGGEST_CANDIDATES where a caller offers what an input can make
 * as long as it likes, such as the locals of a function), so the work per
 * search is bounded whatever the input. */
typedef struct spx_suggest_t {
    const char *name;
    size_t name_length;
    size_t bound;      /* spx_suggest_bound(name_length) */
    size_t most;       /* how many are kept at most */
    size_t scan_limit; /* how many candidates are examined at most */
    size_t scanned;    /* how many have been examined */
    size_t kept;
    size_t distances[SPX_LIMIT_SUGGESTIONS];
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
} spx_suggest_t;

void spx_suggest_start(spx_suggest_t *search, const char *name, size_t most, size_t scan_limit);

/* Examines candidate (NULL: an entry that is no candidate, such as a
 * function that another module may not call, still counted as examined);
 * 1 while more may be offered, 0 once scan_limit entries were examined. */
int spx_suggest_offer(spx_suggest_t *search, const char *candidate);

#endif /* SPX_SUGGEST_H */
