/*
 * library_str.c: the str methods of the standard library (spx_library.h):
 * split, join, find, contains, starts_with, ends_with, trim, lower, upper,
 * replace and repeat, each one function that takes the fuel, and the
 * linear-time search (Two-Way, or a word compare for short patterns in
 * short texts; constant space) that find, split and replace share. New
 * strings are new blocks, counted in the measure.
 */
#include "spx_library.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---- the search --------------------------------------------------------------- */

/* Patterns of 2 to WORD_PATTERN bytes in texts shorter than SHORT_TEXT
 * bytes are sought as one word (below): there, preparing Two-Way and
 * calling memchr cost more than reading each byte once. A choice of speed,
 * not a limit: results and charges do not depend on it. */
enum { WORD_PATTERN = 4, SHORT_TEXT = 256 };

/* A pattern (at least one byte) prepared for the search. Either as a word
 * (word 1): the pattern's bytes in want, big-endian. Or for the Two-Way
 * search (Crochemore and Perrin, 1991): its critical factorization
 * pattern = u v with |u| = split, and the shift after a match of v and a
 * mismatch in u, period. When u occurs again at period (the pattern is
 * periodic), the search remembers the bytes of v known to match after that
 * shift (memory). Linear time, constant space: no table at all. */
typedef struct searcher_t {
    const unsigned char *pattern;
    apr_size_t length;
    apr_size_t split;
    apr_size_t period;
    int periodic;
    int word;
    uint32_t want;
} searcher_t;

/* The start of pattern's maximal suffix in the byte order (reversed 0) or
 * its reverse (reversed 1), and *period, that suffix's period (Duval's
 * comparison of the best start so far with a challenger). */
static apr_size_t maximal_suffix(const unsigned char *pattern, apr_size_t length, int reversed,
                                 apr_size_t *period)
{
    apr_size_t best = 0, challenger = 1, k = 0, p = 1;
    while (challenger + k < length) {
        unsigned char a = pattern[challenger + k], b = pattern[best + k];
        if (a == b) {
            if (k + 1 == p) {
                challenger += p;
                k = 0;
            } else {
                k++;
            }
        } else if (reversed ? a > b : a < b) { /* the challenger's suffix sorts first */
            challenger += k + 1;
            k = 0;
            p = challenger - best;
        } else { /* the challenger's suffix sorts after: the best now */
            best = challenger;
            challenger = best + 1;
            k = 0;
            p = 1;
        }
    }
    *period = p;
    return best;
}

/* Prepares pattern for searches in a text of text_length bytes. */
static void searcher_init(searcher_t *search, const unsigned char *pattern, apr_size_t length,
                          apr_size_t text_length)
{
    SPX_ASSERT(length >= 1);
    search->pattern = pattern;
    search->length = length;
    search->word = length >= 2 && length <= WORD_PATTERN && text_length < SHORT_TEXT;
    search->want = 0;
    for (apr_size_t i = 0; search->word && i < length; i++)
        search->want = search->want << 8 | pattern[i];
    if (search->word)
        return;
    apr_size_t period = 1, reversed_period = 1;
    apr_size_t split = maximal_suffix(pattern, length, 0, &period);
    apr_size_t reversed_split = maximal_suffix(pattern, length, 1, &reversed_period);
    if (reversed_split > split) {
        split = reversed_split;
        period = reversed_period;
    }
    /* v = pattern[split..) has period `period`, so split + period <= length. */
    search->periodic = memcmp(pattern, pattern + period, split) == 0;
    search->split = split;
    search->period =
        search->periodic ? period : (split > length - split ? split : length - split) + 1;
}

/* The first occurrence of a word pattern in text[from..length), or -1: the
 * last length(pattern) bytes read, as a word, compared with the pattern's
 * at each byte. */
static int64_t word_next(const searcher_t *search, const unsigned char *text, apr_size_t length,
                         apr_size_t from)
{
    apr_size_t m = search->length;
    uint32_t mask = m == 4 ? UINT32_MAX : (UINT32_C(1) << (8 * m)) - 1, window = 0;
    for (apr_size_t i = from; i < length; i++) {
        window = (window << 8 | text[i]) & mask;
        if (i + 1 - from >= m && window == search->want)
            return (int64_t)(i + 1 - m);
    }
    return -1;
}

/* The first occurrence of the pattern in text[from..length) (the text
 * before from unseen), or -1 (a word pattern's by word_next). Each start
 * is tried by matching v left to right, then u right to left; a mismatch
 * in v at i moves the start on by i - split + 1, a mismatch in u by the
 * period. A start whose byte at split differs from v's first is passed
 * over with memchr (trying it would move on by one), so successive calls
 * from the ends of the occurrences found read each byte of the text a
 * bounded number of times. */
static int64_t searcher_next(const searcher_t *search, const unsigned char *text, apr_size_t length,
                             apr_size_t from)
{
    if (search->word)
        return word_next(search, text, length, from);
    const unsigned char *pattern = search->pattern;
    apr_size_t m = search->length, split = search->split;
    if (length < m || from > length - m)
        return -1;
    apr_size_t last = length - m; /* the last start */
    if (m == 1) {
        const unsigned char *at = memchr(text + from, pattern[0], last - from + 1);
        return at ? (int64_t)(at - text) : -1;
    }
    apr_size_t start = from, memory = 0;
    while (start <= last) {
        if (memory <= split && text[start + split] != pattern[split]) {
            const unsigned char *at =
                memchr(text + start + split + 1, pattern[split], last - start);
            if (at == NULL)
                return -1;
            start = (apr_size_t)(at - text) - split;
            memory = 0;
        }
        apr_size_t i = split > memory ? split : memory;
        while (i < m && pattern[i] == text[start + i])
            i++;
        if (i < m) {
            start += i - split + 1;
            memory = 0;
            continue;
        }
        i = split;
        while (i > memory && pattern[i - 1] == text[start + i - 1])
            i--;
        if (i <= memory)
            return (int64_t)start;
        start += search->period;
        memory = search->periodic ? m - search->period : 0;
    }
    return -1;
}

/* The number of non-overlapping occurrences of the searcher's pattern in
 * text, found left to right. */
static uint64_t occurrences(const searcher_t *search, const unsigned char *text, apr_size_t length)
{
    uint64_t count = 0;
    for (int64_t at = searcher_next(search, text, length, 0); at >= 0;
         at = searcher_next(search, text, length, (apr_size_t)at + search->length))
        count++;
    return count;
}

/* A new string's storage, to be filled by the caller. */
static unsigned char *string_bytes(spx_value_block_t *block)
{
    return (unsigned char *)block->slots;
}

/* A new string of length bytes copied from bytes (its checks passed). */
static spx_value_block_t *new_string(spx_heap_t *heap, const unsigned char *bytes,
                                     apr_size_t length)
{
    spx_value_block_t *block = spx_heap_new_block(heap, SPX_BLOCK_STR, (uint32_t)length);
    if (length)
        memcpy(string_bytes(block), bytes, length);
    return block;
}

/* ---- the rows ------------------------------------------------------------------- */

spx_heap_status_t spx_str_split(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                const spx_value_block_t *separator, spx_value_block_t **out)
{
    if (separator->length == 0)
        return spx_heap_fail_with(heap, SPX_R0523, "split with an empty separator");
    spx_heap_status_t status = spx_heap_charge(heap, fuel, (uint64_t)s->length + separator->length);
    if (status != SPX_HEAP_OK)
        return status;
    const unsigned char *text = spx_str_bytes(s);
    searcher_t search;
    searcher_init(&search, spx_str_bytes(separator), separator->length, s->length);
    uint64_t pieces = occurrences(&search, text, s->length) + 1;
    /* The array and all its pieces, checked at once (one R0521 figure). */
    uint64_t bytes = spx_heap_block_bytes(SPX_BLOCK_ARRAY, pieces) +
                     pieces * spx_heap_block_bytes(SPX_BLOCK_STR, 0) +
                     (s->length - (pieces - 1) * separator->length);
    status = spx_heap_array_length_allows(heap, pieces);
    if (status == SPX_HEAP_OK)
        status = spx_heap_memory_allows(heap, 0, bytes);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *array = spx_heap_new_block(heap, SPX_BLOCK_ARRAY, (uint32_t)pieces);
    array->elements_are_blocks = 1;
    apr_size_t start = 0;
    for (uint64_t k = 0; k < pieces; k++) {
        int64_t at = k + 1 < pieces ? searcher_next(&search, text, s->length, start) : -1;
        apr_size_t end = at >= 0 ? (apr_size_t)at : s->length;
        array->slots[k].b = new_string(heap, text + start, end - start);
        start = end + separator->length;
    }
    *out = array;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_str_join(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *parts,
                               const spx_value_block_t *separator, spx_value_block_t **out)
{
    /* len(xs), the part of n known first, against the fuel before the
     * work of finding len(result). */
    uint64_t probe = *fuel;
    spx_heap_status_t status = spx_heap_charge(heap, &probe, parts->length);
    if (status != SPX_HEAP_OK)
        return status;
    uint64_t length = 0;
    for (uint32_t k = 0; k < parts->length; k++)
        length += parts->slots[k].b->length + (k ? (uint64_t)separator->length : 0);
    status = spx_heap_before_creating(heap, fuel, length + parts->length, SPX_BLOCK_STR, length);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *joined = spx_heap_new_block(heap, SPX_BLOCK_STR, (uint32_t)length);
    unsigned char *at = string_bytes(joined);
    for (uint32_t k = 0; k < parts->length; k++) {
        const spx_value_block_t *part = parts->slots[k].b;
        if (k && separator->length) {
            memcpy(at, spx_str_bytes(separator), separator->length);
            at += separator->length;
        }
        if (part->length)
            memcpy(at, spx_str_bytes(part), part->length);
        at += part->length;
    }
    *out = joined;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_str_find(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                               const spx_value_block_t *t, int64_t *out)
{
    spx_heap_status_t status = spx_heap_charge(heap, fuel, (uint64_t)s->length + t->length);
    if (status != SPX_HEAP_OK)
        return status;
    if (t->length == 0) {
        *out = 0;
        return SPX_HEAP_OK;
    }
    if (t->length > s->length) {
        *out = -1;
        return SPX_HEAP_OK;
    }
    searcher_t search;
    searcher_init(&search, spx_str_bytes(t), t->length, s->length);
    *out = searcher_next(&search, spx_str_bytes(s), s->length, 0);
    return SPX_HEAP_OK;
}

/* Whether t is s's prefix (at_end 0) or suffix (at_end 1); n = len(t). */
static spx_heap_status_t affix(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                               const spx_value_block_t *t, int at_end, int64_t *out)
{
    spx_heap_status_t status = spx_heap_charge(heap, fuel, t->length);
    if (status != SPX_HEAP_OK)
        return status;
    *out = t->length <= s->length &&
           (t->length == 0 || memcmp(spx_str_bytes(s) + (at_end ? s->length - t->length : 0),
                                     spx_str_bytes(t), t->length) == 0);
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_str_starts_with(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                      const spx_value_block_t *t, int64_t *out)
{
    return affix(heap, fuel, s, t, 0, out);
}

spx_heap_status_t spx_str_ends_with(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                    const spx_value_block_t *t, int64_t *out)
{
    return affix(heap, fuel, s, t, 1, out);
}

/* trim's bytes: space, \t, \n, \x0c, \r (Rust's trim_ascii). */
static int trimmed(unsigned char byte)
{
    return byte == ' ' || byte == '\t' || byte == '\n' || byte == 0x0c || byte == '\r';
}

spx_heap_status_t spx_str_trim(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                               spx_value_block_t **out)
{
    const unsigned char *bytes = spx_str_bytes(s);
    apr_size_t start = 0, end = s->length;
    while (start < end && trimmed(bytes[start]))
        start++;
    while (end > start && trimmed(bytes[end - 1]))
        end--;
    spx_heap_status_t status =
        spx_heap_before_creating(heap, fuel, s->length, SPX_BLOCK_STR, end - start);
    if (status == SPX_HEAP_OK)
        *out = new_string(heap, bytes + start, end - start);
    return status;
}

spx_heap_status_t spx_str_case(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                               int upper, spx_value_block_t **out)
{
    spx_heap_status_t status =
        spx_heap_before_creating(heap, fuel, s->length, SPX_BLOCK_STR, s->length);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *mapped = new_string(heap, spx_str_bytes(s), s->length);
    unsigned char *bytes = string_bytes(mapped);
    unsigned char from = upper ? 'a' : 'A', to = upper ? 'z' : 'Z';
    for (uint32_t k = 0; k < mapped->length; k++)
        if (bytes[k] >= from && bytes[k] <= to)
            bytes[k] = (unsigned char)(bytes[k] ^ 0x20u);
    *out = mapped;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_str_replace(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                  const spx_value_block_t *old, const spx_value_block_t *new_text,
                                  spx_value_block_t **out)
{
    if (old->length == 0)
        return spx_heap_fail_with(heap, SPX_R0523, "replace with an empty pattern");
    /* len(s) + len(old), the part of n known first, against the fuel
     * before the search that gives len(result). */
    uint64_t known = (uint64_t)s->length + old->length, probe = *fuel;
    spx_heap_status_t status = spx_heap_charge(heap, &probe, known);
    if (status != SPX_HEAP_OK)
        return status;
    const unsigned char *text = spx_str_bytes(s);
    searcher_t search;
    searcher_init(&search, spx_str_bytes(old), old->length, s->length);
    uint64_t count = occurrences(&search, text, s->length);
    uint64_t length = s->length - count * old->length + count * new_text->length;
    status = spx_heap_before_creating(heap, fuel, known + length, SPX_BLOCK_STR, length);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *replaced = spx_heap_new_block(heap, SPX_BLOCK_STR, (uint32_t)length);
    unsigned char *to = string_bytes(replaced);
    apr_size_t start = 0;
    for (int64_t at = searcher_next(&search, text, s->length, 0);;
         at = searcher_next(&search, text, s->length, start)) {
        apr_size_t end = at >= 0 ? (apr_size_t)at : s->length;
        memcpy(to, text + start, end - start);
        to += end - start;
        if (at < 0)
            break;
        memcpy(to, spx_str_bytes(new_text), new_text->length);
        to += new_text->length;
        start = end + old->length;
    }
    *out = replaced;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_str_repeat(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                 int64_t count, spx_value_block_t **out)
{
    if (count < 0) {
        char message[64];
        snprintf(message, sizeof(message), "repeat count %" PRId64 " is negative", count);
        return spx_heap_fail_with(heap, SPX_R0524, message);
    }
    /* n = len(s) * count exactly, saturating (then no fuel pays it). */
    uint64_t length = s->length && (uint64_t)count > UINT64_MAX / s->length
                          ? UINT64_MAX
                          : (uint64_t)s->length * (uint64_t)count;
    spx_heap_status_t status = spx_heap_before_creating(heap, fuel, length, SPX_BLOCK_STR, length);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *repeated = spx_heap_new_block(heap, SPX_BLOCK_STR, (uint32_t)length);
    unsigned char *bytes = string_bytes(repeated);
    /* Doubling copies: O(length) work, and none for an empty s. */
    apr_size_t done = length ? s->length : 0;
    if (done)
        memcpy(bytes, spx_str_bytes(s), done);
    while (done < length) {
        apr_size_t more = done < length - done ? done : (apr_size_t)length - done;
        memcpy(bytes + done, bytes, more);
        done += more;
    }
    *out = repeated;
    return SPX_HEAP_OK;
}
