/*
 * fuzz_check.c: the shared invariants of fuzz_check.h.
 */
#include "fuzz_check.h"

#include "spx_canonical.h"
#include "spx_fuzz.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t *find(const uint8_t *from, const uint8_t *end, const char *needle)
{
    size_t length = strlen(needle);
    for (const uint8_t *at = from; (size_t)(end - at) >= length; at++)
        if (memcmp(at, needle, length) == 0)
            return at;
    return NULL;
}

apr_size_t spx_fuzz_split_modules(const uint8_t *data, size_t size,
                                  spx_source_text_t sources[SPX_FUZZ_MODULES])
{
    static const char *const names[SPX_FUZZ_MODULES] = {"a", "b", "c", "d"};
    static const char *const paths[SPX_FUZZ_MODULES] = {"a.spx", "b.spx", "c.spx", "d.spx"};
    apr_size_t count = 0;
    const uint8_t *at = data, *end = data + size;
    while (count < SPX_FUZZ_MODULES) {
        const uint8_t *separator = count + 1 < SPX_FUZZ_MODULES ? find(at, end, "\n@@\n") : NULL;
        const uint8_t *stop = separator ? separator : end;
        sources[count] =
            (spx_source_text_t){names[count], paths[count], at, (apr_size_t)(stop - at)};
        count++;
        if (!separator)
            break;
        at = separator + 4;
    }
    return count;
}

static int same_position(spx_position_t a, spx_position_t b)
{
    return a.line == b.line && a.column == b.column && a.offset == b.offset;
}

void spx_fuzz_check_diagnostics(const spx_diagnostics_t *list, const spx_fuzz_text_t *texts,
                                apr_size_t count, const char *code_prefix)
{
    apr_size_t total = spx_diagnostics_count(list);
    for (apr_size_t i = 0; i < total; i++) {
        const spx_diagnostic_t *diagnostic = spx_diagnostics_get(list, i);
        /* a source's warnings (W06xx) beside the code_prefix of its errors */
        SPX_FUZZ_CHECK(diagnostic->code &&
                       (strncmp(diagnostic->code, code_prefix, strlen(code_prefix)) == 0 ||
                        strncmp(diagnostic->code, "W06", 3) == 0));
        SPX_FUZZ_CHECK(!diagnostic->suggestions ||
                       (diagnostic->suggestions->nelts > 0 && diagnostic->suggestions->nelts <= 3));
        for (int k = 0; diagnostic->notes && k < diagnostic->notes->nelts; k++) {
            const spx_diagnostic_note_t *note =
                &APR_ARRAY_IDX(diagnostic->notes, k, spx_diagnostic_note_t);
            const spx_fuzz_text_t *noted = NULL;
            for (apr_size_t t = 0; t < count && !noted; t++)
                if (note->path && strcmp(note->path, texts[t].path) == 0)
                    noted = &texts[t];
            SPX_FUZZ_CHECK(noted != NULL);
            SPX_FUZZ_CHECK(note->span.start.offset <= note->span.end.offset);
            SPX_FUZZ_CHECK(note->span.end.offset <= noted->length);
            SPX_FUZZ_CHECK(
                same_position(note->span.start, spx_position_at(noted->bytes, noted->length,
                                                                note->span.start.offset)));
        }
        SPX_FUZZ_CHECK(strlen(diagnostic->code) == 5);
        SPX_FUZZ_CHECK(diagnostic->message && diagnostic->message[0] != '\0');
        const spx_fuzz_text_t *text = NULL;
        for (apr_size_t t = 0; t < count && !text; t++)
            if (diagnostic->path && strcmp(diagnostic->path, texts[t].path) == 0)
                text = &texts[t];
        SPX_FUZZ_CHECK(text != NULL);
        const spx_span_t *span = &diagnostic->span;
        SPX_FUZZ_CHECK(span->start.offset <= span->end.offset);
        SPX_FUZZ_CHECK(span->end.offset <= text->length);
        SPX_FUZZ_CHECK(same_position(
            span->start, spx_position_at(text->bytes, text->length, span->start.offset)));
        SPX_FUZZ_CHECK(
            same_position(span->end, spx_position_at(text->bytes, text->length, span->end.offset)));
    }
    spx_fuzz_check_document(spx_diagnostics_json(list));
}

void spx_fuzz_check_document(json_t *document)
{
    SPX_FUZZ_CHECK(document != NULL);
    char *text = json_dumps(document, SPX_CANONICAL_FLAGS);
    SPX_FUZZ_CHECK(text != NULL);
    free(text);
    json_decref(document);
}
