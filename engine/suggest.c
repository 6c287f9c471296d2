/*
 * suggest.c: nearest names by optimal string alignment distance
 * (spx_suggest.h). Three rows of at most SPX_LIMIT_SUGGEST_NAME_BYTES + 1
 * cells on the stack; a candidate whose length alone puts it over the bound
 * is not computed at all, and a row whose every cell is over the bound ends
 * the computation.
 */
#include "spx_suggest.h"

#include "spx_limits.h"

#include <string.h>

#define ROW_CELLS (SPX_LIMIT_SUGGEST_NAME_BYTES + 1u)

static size_t smallest(size_t a, size_t b)
{
    return a < b ? a : b;
}

size_t spx_suggest_distance(const char *a, size_t a_length, const char *b, size_t b_length,
                            size_t bound)
{
    size_t rows[3][ROW_CELLS];
    if (a_length > SPX_LIMIT_SUGGEST_NAME_BYTES || b_length > SPX_LIMIT_SUGGEST_NAME_BYTES)
        return bound + 1;
    size_t gap = a_length > b_length ? a_length - b_length : b_length - a_length;
    if (gap > bound)
        return bound + 1;
    size_t *before = rows[0], *previous = rows[1], *current = rows[2];
    for (size_t j = 0; j <= b_length; j++)
        previous[j] = j;
    for (size_t i = 1; i <= a_length; i++) {
        size_t row_least = current[0] = i;
        for (size_t j = 1; j <= b_length; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t cell = smallest(previous[j] + 1, current[j - 1] + 1);
            cell = smallest(cell, previous[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                cell = smallest(cell, before[j - 2] + 1);
            current[j] = cell;
            row_least = smallest(row_least, cell);
        }
        if (row_least > bound)
            return bound + 1;
        size_t *spare = before;
        before = previous;
        previous = current;
        current = spare;
    }
    return previous[b_length] > bound ? bound + 1 : previous[b_length];
}

size_t spx_suggest_bound(size_t length)
{
    size_t bound = length / 3;
    if (bound < 1)
        bound = 1;
    return smallest(bound, SPX_LIMIT_SUGGEST_DISTANCE);
}

/* a before b: nearer, or as near and bytewise first. */
static int ranks_before(size_t a_distance, const char *a, size_t b_distance, const char *b)
{
    return a_distance != b_distance ? a_distance < b_distance : strcmp(a, b) < 0;
}

size_t spx_suggest_nearest(const char *name, const char *const *candidates, size_t count,
                           size_t most, const char **nearest)
{
    size_t distances[SPX_LIMIT_SUGGESTIONS];
    size_t kept = 0;
    size_t name_length = strlen(name);
    if (most > SPX_LIMIT_SUGGESTIONS)
        most = SPX_LIMIT_SUGGESTIONS;
    if (most == 0 || name_length > SPX_LIMIT_SUGGEST_NAME_BYTES)
        return 0;
    size_t bound = spx_suggest_bound(name_length);
    for (size_t c = 0; c < count; c++) {
        const char *candidate = candidates[c];
        size_t distance =
            spx_suggest_distance(name, name_length, candidate, strlen(candidate), bound);
        if (distance == 0 || distance > bound)
            continue;
        int repeated = 0;
        for (size_t k = 0; k < kept && !repeated; k++)
            repeated = strcmp(nearest[k], candidate) == 0;
        if (repeated)
            continue;
        if (kept == most &&
            !ranks_before(distance, candidate, distances[kept - 1], nearest[kept - 1]))
            continue;
        size_t at = kept < most ? kept++ : most - 1; /* the last one drops out when full */
        while (at > 0 && ranks_before(distance, candidate, distances[at - 1], nearest[at - 1])) {
            distances[at] = distances[at - 1];
            nearest[at] = nearest[at - 1];
            at--;
        }
        distances[at] = distance;
        nearest[at] = candidate;
    }
    return kept;
}
