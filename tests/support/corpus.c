/*
 * corpus.c: listing, reading and checking corpus files for corpus-driven
 * suites, and the graph documents as the engine writes them, read back by
 * Jansson for the suites that look into them (see spx_corpus.h).
 */
#include "spx_corpus.h"
#include "spx_canonical.h"
#include "spx_index.h"
#include "spx_test.h"

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

const char *spx_corpus_dir(const char *relative, apr_pool_t *pool)
{
    const char *base = getenv("SPX_TEST_DATA");
    CU_ASSERT_PTR_NOT_NULL_FATAL(base);
    return apr_pstrcat(pool, base, "/", relative, NULL);
}

static int compare_names(const void *left, const void *right)
{
    return strcmp(*(const char *const *)left, *(const char *const *)right);
}

/* The names in dir of the given type ending in extension, sorted. */
static apr_array_header_t *list_entries(const char *dir, apr_filetype_e type, const char *extension,
                                        apr_pool_t *pool)
{
    apr_array_header_t *names = apr_array_make(pool, 32, sizeof(const char *));
    apr_dir_t *handle = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_dir_open(&handle, dir, pool), APR_SUCCESS);
    apr_finfo_t entry;
    size_t suffix = strlen(extension);
    while (apr_dir_read(&entry, APR_FINFO_NAME | APR_FINFO_TYPE, handle) == APR_SUCCESS) {
        size_t length = strlen(entry.name);
        if (entry.filetype == type && length > suffix && entry.name[0] != '.' &&
            strcmp(entry.name + length - suffix, extension) == 0)
            APR_ARRAY_PUSH(names, const char *) = apr_pstrdup(pool, entry.name);
    }
    apr_dir_close(handle);
    qsort(names->elts, (size_t)names->nelts, sizeof(const char *), compare_names);
    return names;
}

apr_array_header_t *spx_corpus_list(const char *dir, const char *extension, apr_pool_t *pool)
{
    return list_entries(dir, APR_REG, extension, pool);
}

apr_array_header_t *spx_corpus_list_dirs(const char *dir, apr_pool_t *pool)
{
    return list_entries(dir, APR_DIR, "", pool);
}

const char *spx_corpus_read(const char *path, apr_size_t *length, apr_pool_t *pool)
{
    apr_file_t *file = NULL;
    apr_finfo_t info;
    if (apr_file_open(&file, path, APR_FOPEN_READ | APR_FOPEN_BINARY, APR_FPROT_OS_DEFAULT, pool) !=
        APR_SUCCESS) {
        fprintf(stderr, "\n  cannot read corpus file %s\n", path);
        CU_FAIL_FATAL("corpus file missing");
    }
    CU_ASSERT_EQUAL_FATAL(apr_file_info_get(&info, APR_FINFO_SIZE, file), APR_SUCCESS);
    char *bytes = apr_palloc(pool, (apr_size_t)info.size + 1);
    apr_size_t got = 0;
    if (info.size > 0)
        CU_ASSERT_EQUAL_FATAL(apr_file_read_full(file, bytes, (apr_size_t)info.size, &got),
                              APR_SUCCESS);
    bytes[got] = '\0';
    apr_file_close(file);
    if (length)
        *length = got;
    return bytes;
}

const char *spx_corpus_summary(const spx_diagnostics_t *list, apr_pool_t *pool)
{
    apr_array_header_t *lines = apr_array_make(pool, 4, sizeof(const char *));
    for (apr_size_t i = 0; i < spx_diagnostics_count(list); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(list, i);
        APR_ARRAY_PUSH(lines, const char *) =
            apr_psprintf(pool, "%s %" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 "\n", item->code,
                         item->span.start.line, item->span.start.column, item->span.end.line,
                         item->span.end.column);
    }
    return apr_array_pstrcat(pool, lines, 0);
}

void spx_corpus_expect(const char *input_path, const char *actual, apr_pool_t *pool)
{
    const char *dot = strrchr(input_path, '.');
    const char *expected_path = apr_pstrcat(
        pool, apr_pstrndup(pool, input_path, (apr_size_t)(dot - input_path)), ".expected", NULL);
    const char *expected = spx_corpus_read(expected_path, NULL, pool);
    if (strcmp(expected, actual) != 0)
        fprintf(stderr, "\n  %s\n  expected:\n%s  actual:\n%s", input_path, expected, actual);
    CU_ASSERT_STRING_EQUAL(actual, expected);
}

json_t *spx_document_node(json_t *document, const char *id)
{
    size_t index;
    json_t *node;
    json_array_foreach(json_object_get(document, "nodes"), index, node)
    {
        const char *node_id = json_string_value(json_object_get(node, "id"));
        if (node_id && strcmp(node_id, id) == 0)
            return node;
    }
    return NULL;
}

/* The document text write_text writes, read back (see spx_corpus_graph). */
static json_t *read_back(const char *(*write_text)(const spx_project_t *, apr_size_t, apr_size_t *,
                                                   spx_json_status_t *, apr_pool_t *),
                         const spx_project_t *project)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    apr_size_t length = 0;
    spx_json_status_t status = SPX_JSON_MISUSE;
    const char *text = write_text(project, (apr_size_t)-1, &length, &status, pool);
    CU_ASSERT_EQUAL(status, SPX_JSON_OK);
    json_error_t error;
    json_t *document = text ? json_loadb(text, length, JSON_REJECT_DUPLICATES, &error) : NULL;
    CU_ASSERT_PTR_NOT_NULL(document);
    if (document) {
        const char *again = spx_canonical_text(document, pool);
        CU_ASSERT_TRUE(again && strlen(again) == length && memcmp(again, text, length) == 0);
    }
    apr_pool_destroy(pool);
    return document;
}

json_t *spx_corpus_graph(const spx_project_t *project)
{
    return read_back(spx_graph_text, project);
}

json_t *spx_corpus_source_graph(const spx_project_t *project)
{
    return read_back(spx_source_graph_text, project);
}
