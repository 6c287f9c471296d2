/*
 * project_data.c: a project's data files (manifest v2's [[data]], held by
 * the input set like sources): their UTF-8 rule (E0155), the lists that
 * project_revision, workspace/snapshot and the envelope's subject carry, and
 * the lookup read_data compiles against.
 */
#include "project_internal.h"

#include "spx_inputs.h"
#include "spx_utf8.h"

#include <string.h>

/* The offset of the first ill-formed UTF-8 sequence in bytes, and its length
 * in *bad; length when there is none. */
static apr_size_t first_invalid(const unsigned char *bytes, apr_size_t length, apr_size_t *bad)
{
    for (apr_size_t i = 0; i < length;) {
        if (bytes[i] < 0x80) {
            i++;
            continue;
        }
        *bad = spx_utf8_invalid_length(bytes + i, length - i);
        if (*bad)
            return i;
        i += spx_utf8_length(bytes + i, length - i);
    }
    return length;
}

void spx_project_check_data(spx_project_t *project)
{
    if (!project->inputs || !project->manifest)
        return;
    for (apr_size_t i = 0; i < spx_input_set_data_count(project->inputs); i++) {
        const spx_input_t *data = spx_input_set_data(project->inputs, i);
        apr_size_t bad = 0, at = first_invalid(data->bytes, data->size, &bad);
        if (at == data->size)
            continue;
        spx_diagnostics_add(project->diagnostics, SPX_E0155, data->path,
                            spx_span_between(data->bytes, data->size, at, at + bad),
                            "data file '%s' is not valid UTF-8 at byte %" APR_SIZE_T_FMT,
                            data->path, at);
    }
}

json_t *spx_project_data_list(const spx_project_t *project, unsigned members)
{
    json_t *list = json_array();
    if (!project->inputs || !project->manifest)
        return list;
    apr_size_t count = spx_input_set_data_count(project->inputs);
    for (apr_size_t i = 0; i < count; i++) {
        const spx_input_t *data = spx_input_set_data(project->inputs, i);
        json_t *entry = json_pack("{s:s, s:s}", "digest", data->digest_text, "path", data->path);
        if (members & SPX_DATA_LIST_NAME)
            json_object_set_new(entry, "name", json_string(project->manifest->data[i].name));
        if (members & SPX_DATA_LIST_BYTES)
            json_object_set_new(entry, "bytes", json_integer((json_int_t)data->size));
        /* Sorted by path (paths are unique): insertion from the end. */
        size_t at = json_array_size(list);
        while (at > 0 &&
               strcmp(json_string_value(json_object_get(json_array_get(list, at - 1), "path")),
                      data->path) > 0)
            at--;
        json_array_insert_new(list, at, entry);
    }
    return list;
}

const spx_data_entry_t *spx_project_data_entries(const spx_project_t *project, apr_size_t *count)
{
    *count = spx_project_data_count(project);
    spx_data_entry_t *entries = apr_pcalloc(project->pool, (*count + 1) * sizeof(*entries));
    for (apr_size_t i = 0; i < *count; i++) {
        const spx_input_t *data = spx_input_set_data(project->inputs, i);
        entries[i].name = project->manifest->data[i].name;
        entries[i].path = data->path;
        entries[i].bytes = data->bytes;
        entries[i].length = data->size;
    }
    return entries;
}

apr_size_t spx_project_data_count(const spx_project_t *project)
{
    return project->inputs && project->manifest ? spx_input_set_data_count(project->inputs) : 0;
}

const spx_input_t *spx_project_data_named(const spx_project_t *project, const char *name)
{
    if (!project->inputs || !project->manifest)
        return NULL;
    for (apr_size_t i = 0; i < spx_input_set_data_count(project->inputs); i++)
        if (strcmp(project->manifest->data[i].name, name) == 0)
            return spx_input_set_data(project->inputs, i);
    return NULL;
}
