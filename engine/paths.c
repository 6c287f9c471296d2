/*
 * paths.c: checks a manifest source path against every rule of manifest.md,
 * and says which rule it breaks, so that the message points at the fix.
 */
#include "spx_paths.h"

#include "spx_limits.h"

#include <apr_strings.h>
#include <string.h>

static int is_name_byte(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

static int is_ascii_letter(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

const char *spx_refused_byte_text(unsigned char c, apr_pool_t *pool)
{
    if (c > 0x20 && c < 0x7f)
        return apr_psprintf(pool, "'%c'", c);
    return apr_psprintf(pool, "the byte 0x%02x", c);
}

/* The rules of a source path, in the words of what (a "source" or "data"
 * path); the ".spx" ending only when spx. */
static const char *path_problem(const char *path, const char *what, int spx, apr_pool_t *pool)
{
    size_t length = strlen(path);
    if (length == 0)
        return "is empty";
    if (length > SPX_LIMIT_SOURCE_PATH_BYTES)
        return apr_psprintf(pool, "is longer than %u bytes", SPX_LIMIT_SOURCE_PATH_BYTES);
    if (path[0] == '/')
        return apr_psprintf(pool, "is absolute; %s paths are relative to the project root", what);
    if (length >= 2 && is_ascii_letter((unsigned char)path[0]) && path[1] == ':')
        return apr_psprintf(
            pool, "starts with a drive letter; %s paths are relative to the project root", what);
    if (strchr(path, '\\'))
        return "contains a backslash; separate components with '/'";
    if (strchr(path, ':'))
        return "contains a colon";

    const char *component = path;
    for (;;) {
        const char *end = strchr(component, '/');
        size_t size = end ? (size_t)(end - component) : strlen(component);
        if (size == 0)
            return "has an empty component";
        if ((size == 1 && component[0] == '.') ||
            (size == 2 && component[0] == '.' && component[1] == '.'))
            return "has a '.' or '..' component; paths may not leave or re-enter a directory";
        for (size_t i = 0; i < size; i++) {
            unsigned char c = (unsigned char)component[i];
            if (!is_name_byte(c))
                return apr_psprintf(pool, "contains %s; a component is made of A-Z a-z 0-9 . _ -",
                                    spx_refused_byte_text(c, pool));
        }
        if (!end)
            break;
        component = end + 1;
    }
    if (spx && (length < 4 || strcmp(path + length - 4, ".spx") != 0))
        return "does not end in '.spx'";
    return NULL;
}

const char *spx_source_path_problem(const char *path, apr_pool_t *pool)
{
    return path_problem(path, "source", 1, pool);
}

const char *spx_data_path_problem(const char *path, apr_pool_t *pool)
{
    if (strcmp(path, "..") == 0 || strncmp(path, "../", 3) == 0)
        return "leaves the project root";
    return path_problem(path, "data", 0, pool);
}
