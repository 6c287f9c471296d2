/*
 * codes.c: the names and titles of the diagnostic and runtime codes, from
 * the tables of spx_codes.h.
 */
#include "spx_codes.h"

#include <string.h>

#define SPX_CODE_NAME_(code, title) #code,
#define SPX_CODE_TITLE_(code, title) title,

static const char *const diagnostic_names[] = {SPX_DIAGNOSTIC_CODES(SPX_CODE_NAME_)};
static const char *const diagnostic_titles[] = {SPX_DIAGNOSTIC_CODES(SPX_CODE_TITLE_)};
static const char *const runtime_names[] = {SPX_RUNTIME_CODES(SPX_CODE_NAME_)};
static const char *const runtime_titles[] = {SPX_RUNTIME_CODES(SPX_CODE_TITLE_)};

/* The string at index in strings (count of them); NULL out of range. */
static const char *entry(const char *const *strings, size_t count, int index)
{
    return index >= 0 && (size_t)index < count ? strings[index] : NULL;
}

/* The index of name in names (count of them), or -1. */
static int find(const char *const *names, size_t count, const char *name)
{
    for (size_t i = 0; name && i < count; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

const char *spx_diagnostic_code_name(spx_diagnostic_code_t code)
{
    return entry(diagnostic_names, SPX_DIAGNOSTIC_CODE_COUNT, (int)code);
}

const char *spx_diagnostic_code_title(spx_diagnostic_code_t code)
{
    return entry(diagnostic_titles, SPX_DIAGNOSTIC_CODE_COUNT, (int)code);
}

const char *spx_runtime_code_name(spx_runtime_code_t code)
{
    return entry(runtime_names, SPX_RUNTIME_CODE_COUNT, (int)code);
}

const char *spx_runtime_code_title(spx_runtime_code_t code)
{
    return entry(runtime_titles, SPX_RUNTIME_CODE_COUNT, (int)code);
}

int spx_diagnostic_code_parse(const char *name, spx_diagnostic_code_t *code)
{
    int index = find(diagnostic_names, SPX_DIAGNOSTIC_CODE_COUNT, name);
    if (index >= 0)
        *code = (spx_diagnostic_code_t)index;
    return index >= 0;
}

int spx_runtime_code_parse(const char *name, spx_runtime_code_t *code)
{
    int index = find(runtime_names, SPX_RUNTIME_CODE_COUNT, name);
    if (index >= 0)
        *code = (spx_runtime_code_t)index;
    return index >= 0;
}
