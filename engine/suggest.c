/*
 * suggest.c: nearest names by optimal string alignment distance
 * (spx_suggest.h). Three rows of at most SPX_LIMIT_SUGGEST_NAME_BYTES + 1
 * cells on the stack; a candidate whose length alone puts it over the bound
 * is not computed at all, only the cells within the bound of the diagonal
 * are, and a row whose every cell is over the bound ends the computation. A
 * search offers its candidates one at a time (spx_suggest_offer), so that
 * nothing is copied to be searched and a search examines at most its
 * scan limit.
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
    /* Only the cells within bound of the diagonal are computed: any other is
     * over the bound whatever the bytes, and counts bound + 1. */
    size_t over = bound + 1;
    size_t *before = rows[0], *previous = rows[1], *current = rows[2];
    for (size_t j = 0; j <= b_length; j++)
        previous[j] = smallest(j, over);
    for (size_t i = 1; i <= a_length; i++) {
        size_t first = i > bound ? i - bound : 1;
        size_t last = smallest(i + bound, b_length);
        current[0] = smallest(i, over);
        current[first - 1] = first == 1 ? current[0] : over;
        size_t row_least = current[first - 1];
        for (size_t j = first; j <= last; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t cell = smallest(previous[j] + 1, current[j - 1] + 1);
            cell = smallest(cell, previous[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                cell = smallest(cell, before[j - 2] + 1);
            current[j] = smallest(cell, over);
            row_least = smallest(row_least, current[j]);
        }
        if (last < b_length)
            current[last + 1] = over; /* the next row reads it as the cell above */
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

void spx_suggest_start(spx_suggest_t *search, const char *name, size_t most, size_t scan_limit)
{
    search->name = name;
    search->name_length = name ? strlen(name) : 0;
    search->bound = spx_suggest_bound(search->name_length);
    search->most = most < SPX_LIMIT_SUGGESTIONS ? most : SPX_LIMIT_SUGGESTIONS;
    if (!name || search->name_length > SPX_LIMIT_SUGGEST_NAME_BYTES)
        search->most = 0;
    search->scan_limit = scan_limit;
    search->scanned = 0;
    search->kept = 0;
}

int spx_suggest_offer(spx_suggest_t *search, const char *candidate)
{
    if (search->scanned >= search->scan_limit)
        return 0;
    search->scanned++;
    if (!candidate || search->most == 0)
        return search->scanned < search->scan_limit;
    size_t distance = spx_suggest_distance(search->name, search->name_length, candidate,
                                           strlen(candidate), search->bound);
    size_t kept = search->kept, most = search->most;
    const char **nearest = search->nearest;
    size_t *distances = search->distances;
    if (distance == 0 || distance > search->bound)
        return search->scanned < search->scan_limit;
    for (size_t k = 0; k < kept; k++)
        if (strcmp(nearest[k], candidate) == 0)
            return search->scanned < search->scan_limit;
    if (kept == most && !ranks_before(distance, candidate, distances[kept - 1], nearest[kept - 1]))
        return search->scanned < search->scan_limit;
    size_t at = kept < most ? search->kept++ : most - 1; /* the last one drops out when full */
    while (at > 0 && ranks_before(distance, candidate, distances[at - 1], nearest[at - 1])) {
        distances[at] = distances[at - 1];
        nearest[at] = nearest[at - 1];
        at--;
    }
    distances[at] = distance;
    nearest[at] = candidate;
    return search->scanned < search->scan_limit;
}

size_t spx_suggest_nearest(const char *name, const char *const *candidates, size_t count,
                           size_t most, const char **nearest)
{
    spx_suggest_t search;
    spx_suggest_start(&search, name, most, count);
    for (size_t c = 0; c < count && spx_suggest_offer(&search, candidates[c]); c++)
        ;
    for (size_t k = 0; k < search.kept; k++)
        nearest[k] = search.nearest[k];
    return search.kept;
}
