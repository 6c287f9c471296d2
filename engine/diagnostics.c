/*
 * diagnostics.c: collecting, ordering and rendering diagnostics.
 */
#include "spx_diagnostics.h"

#include <apr_strings.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

spx_diagnostics_t *spx_diagnostics_make(apr_pool_t *pool)
{
    spx_diagnostics_t *list = apr_palloc(pool, sizeof(*list));
    list->pool = pool;
    list->items = apr_array_make(pool, 4, sizeof(spx_diagnostic_t));
    list->errors = 0;
    return list;
}

spx_diagnostic_t *spx_diagnostics_addv(spx_diagnostics_t *list, spx_diagnostic_code_t code,
                                       const char *path, spx_span_t span, const char *format,
                                       va_list arguments)
{
    spx_diagnostic_t *item = apr_array_push(list->items);
    item->code = spx_diagnostic_code_name(code);
    item->message = apr_pvsprintf(list->pool, format, arguments);
    item->plain = item->message;
    item->path = apr_pstrdup(list->pool, path);
    item->span = span;
    item->suggestions = NULL;
    item->notes = NULL;
    if (!spx_diagnostic_is_warning(item))
        list->errors++;
    return item;
}

spx_diagnostic_t *spx_diagnostics_add(spx_diagnostics_t *list, spx_diagnostic_code_t code,
                                      const char *path, spx_span_t span, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    spx_diagnostic_t *item = spx_diagnostics_addv(list, code, path, span, format, arguments);
    va_end(arguments);
    return item;
}

spx_diagnostic_t *spx_diagnostics_add_copy(spx_diagnostics_t *list, const spx_diagnostic_t *item)
{
    spx_diagnostic_t *copy = apr_array_push(list->items);
    copy->code = item->code; /* spx_diagnostic_code_name's: static */
    copy->message = apr_pstrdup(list->pool, item->message);
    copy->plain =
        item->plain == item->message ? copy->message : apr_pstrdup(list->pool, item->plain);
    copy->path = apr_pstrdup(list->pool, item->path);
    copy->span = item->span;
    copy->suggestions = NULL;
    copy->notes = NULL;
    if (item->suggestions) {
        copy->suggestions =
            apr_array_make(list->pool, item->suggestions->nelts, sizeof(const char *));
        for (int i = 0; i < item->suggestions->nelts; i++)
            APR_ARRAY_PUSH(copy->suggestions, const char *) =
                apr_pstrdup(list->pool, APR_ARRAY_IDX(item->suggestions, i, const char *));
    }
    for (int i = 0; item->notes && i < item->notes->nelts; i++) {
        const spx_diagnostic_note_t *note = &APR_ARRAY_IDX(item->notes, i, spx_diagnostic_note_t);
        spx_diagnostic_note(list, copy, note->path, note->span, note->message);
    }
    if (!spx_diagnostic_is_warning(copy))
        list->errors++;
    return copy;
}

void spx_diagnostic_note(spx_diagnostics_t *list, spx_diagnostic_t *item, const char *path,
                         spx_span_t span, const char *message)
{
    if (!item)
        return;
    if (!item->notes)
        item->notes = apr_array_make(list->pool, 1, sizeof(spx_diagnostic_note_t));
    spx_diagnostic_note_t *note = apr_array_push(item->notes);
    note->message = apr_pstrdup(list->pool, message);
    note->path = apr_pstrdup(list->pool, path);
    note->span = span;
}

void spx_diagnostic_suggest(spx_diagnostics_t *list, spx_diagnostic_t *item,
                            const char *const *names, size_t count)
{
    if (!item || count == 0)
        return;
    item->suggestions = apr_array_make(list->pool, (int)count, sizeof(const char *));
    const char *hint = "";
    for (size_t i = 0; i < count; i++) {
        const char *name = apr_pstrdup(list->pool, names[i]);
        APR_ARRAY_PUSH(item->suggestions, const char *) = name;
        const char *joint = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        hint = apr_psprintf(list->pool, "%s%s'%s'", hint, joint, name);
    }
    item->message = apr_psprintf(list->pool, "%s; did you mean %s?", item->message, hint);
}

int spx_diagnostic_is_warning(const spx_diagnostic_t *item)
{
    return item->code[0] == 'W';
}

const char *spx_diagnostic_severity(const spx_diagnostic_t *item)
{
    return spx_diagnostic_is_warning(item) ? "warning" : "error";
}

void spx_diagnostic_budget_init(spx_diagnostic_budget_t *budget, spx_diagnostics_t *list,
                                const char *path, unsigned limit, spx_diagnostic_code_t over_code,
                                const char *over_format)
{
    budget->list = list;
    budget->path = path;
    budget->limit = limit;
    budget->over_code = over_code;
    budget->over_format = over_format;
    budget->count = 0;
    budget->stopped = 0;
}

spx_diagnostic_t *spx_diagnostic_budget_addv(spx_diagnostic_budget_t *budget,
                                             spx_diagnostic_code_t code, spx_span_t span,
                                             const char *format, va_list arguments)
{
    if (budget->stopped)
        return NULL;
    if (budget->count == budget->limit) {
        spx_diagnostics_add(budget->list, budget->over_code, budget->path, span,
                            budget->over_format, budget->limit);
        budget->stopped = 1;
        return NULL;
    }
    budget->count++;
    return spx_diagnostics_addv(budget->list, code, budget->path, span, format, arguments);
}

apr_size_t spx_diagnostics_count(const spx_diagnostics_t *list)
{
    return (apr_size_t)list->items->nelts;
}

apr_size_t spx_diagnostics_error_count(const spx_diagnostics_t *list)
{
    return list->errors;
}

void spx_diagnostics_drop_warnings(spx_diagnostics_t *list)
{
    int kept = 0;
    for (int i = 0; i < list->items->nelts; i++) {
        const spx_diagnostic_t *item = &APR_ARRAY_IDX(list->items, i, spx_diagnostic_t);
        if (!spx_diagnostic_is_warning(item))
            APR_ARRAY_IDX(list->items, kept++, spx_diagnostic_t) = *item;
    }
    list->items->nelts = kept;
}

const spx_diagnostic_t *spx_diagnostics_get(const spx_diagnostics_t *list, apr_size_t index)
{
    return &APR_ARRAY_IDX(list->items, index, spx_diagnostic_t);
}

static int compare_diagnostics(const void *left, const void *right)
{
    const spx_diagnostic_t *a = left, *b = right;
    int order = strcmp(a->path, b->path);
    if (order != 0)
        return order;
    if (a->span.start.offset != b->span.start.offset)
        return a->span.start.offset < b->span.start.offset ? -1 : 1;
    order = strcmp(a->code, b->code);
    if (order != 0)
        return order;
    return strcmp(a->message, b->message); /* a total order: the same bytes every run */
}

void spx_diagnostics_sort(spx_diagnostics_t *list)
{
    qsort(list->items->elts, (size_t)list->items->nelts, sizeof(spx_diagnostic_t),
          compare_diagnostics);
}

spx_position_t spx_position_at(const unsigned char *text, apr_size_t length, apr_size_t offset)
{
    spx_position_t position = {1, 1, (uint32_t)(offset < length ? offset : length)};
    for (apr_size_t i = 0; i < position.offset; i++) {
        if (text[i] == '\n') {
            position.line++;
            position.column = 1;
        } else {
            position.column++;
        }
    }
    return position;
}

spx_span_t spx_span_between(const unsigned char *text, apr_size_t length, apr_size_t start,
                            apr_size_t end)
{
    spx_span_t span = {spx_position_at(text, length, start), spx_position_at(text, length, end)};
    return span;
}

static json_t *position_json(const spx_position_t *position)
{
    return json_pack("{s:I, s:I, s:I}", "line", (json_int_t)position->line, "column",
                     (json_int_t)position->column, "offset", (json_int_t)position->offset);
}

json_t *spx_span_json(const spx_span_t *span)
{
    return json_pack("{s:o, s:o}", "start", position_json(&span->start), "end",
                     position_json(&span->end));
}

json_t *spx_diagnostics_json(const spx_diagnostics_t *list)
{
    json_t *array = json_array();
    for (int i = 0; i < list->items->nelts; i++) {
        const spx_diagnostic_t *item = &APR_ARRAY_IDX(list->items, i, spx_diagnostic_t);
        json_t *object =
            json_pack("{s:s, s:s, s:s, s:s, s:o}", "code", item->code, "message", item->message,
                      "path", item->path, "severity", spx_diagnostic_severity(item), "span",
                      spx_span_json(&item->span));
        if (item->suggestions) {
            json_t *names = json_array();
            for (int k = 0; k < item->suggestions->nelts; k++)
                json_array_append_new(
                    names, json_string(APR_ARRAY_IDX(item->suggestions, k, const char *)));
            json_object_set_new(object, "suggestions", names);
        }
        if (item->notes) {
            json_t *notes = json_array();
            for (int k = 0; k < item->notes->nelts; k++) {
                const spx_diagnostic_note_t *note =
                    &APR_ARRAY_IDX(item->notes, k, spx_diagnostic_note_t);
                json_array_append_new(notes,
                                      json_pack("{s:s, s:s, s:o}", "message", note->message, "path",
                                                note->path, "span", spx_span_json(&note->span)));
            }
            json_object_set_new(object, "notes", notes);
        }
        json_array_append_new(array, object);
    }
    return array;
}

json_t *spx_diagnostics_json_plain(const spx_diagnostics_t *list)
{
    json_t *array = json_array();
    for (int i = 0; i < list->items->nelts; i++) {
        const spx_diagnostic_t *item = &APR_ARRAY_IDX(list->items, i, spx_diagnostic_t);
        if (!spx_diagnostic_is_warning(item))
            json_array_append_new(array,
                                  json_pack("{s:s, s:s, s:s, s:s, s:o}", "code", item->code,
                                            "message", item->plain, "path", item->path, "severity",
                                            "error", "span", spx_span_json(&item->span)));
    }
    return array;
}

const char *spx_diagnostics_text(const spx_diagnostics_t *list, apr_pool_t *pool)
{
    apr_array_header_t *lines = apr_array_make(pool, list->items->nelts, sizeof(const char *));
    for (int i = 0; i < list->items->nelts; i++) {
        const spx_diagnostic_t *item = &APR_ARRAY_IDX(list->items, i, spx_diagnostic_t);
        APR_ARRAY_PUSH(lines, const char *) = apr_psprintf(
            pool, "%s:%" PRIu32 ":%" PRIu32 ": %s[%s]: %s\n", item->path, item->span.start.line,
            item->span.start.column, spx_diagnostic_severity(item), item->code, item->message);
        for (int k = 0; item->notes && k < item->notes->nelts; k++) {
            const spx_diagnostic_note_t *note =
                &APR_ARRAY_IDX(item->notes, k, spx_diagnostic_note_t);
            APR_ARRAY_PUSH(lines, const char *) =
                apr_psprintf(pool, "%s:%" PRIu32 ":%" PRIu32 ": note: %s\n", note->path,
                             note->span.start.line, note->span.start.column, note->message);
        }
    }
    return apr_array_pstrcat(pool, lines, 0);
}
