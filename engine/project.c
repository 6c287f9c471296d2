/*
 * project.c: Phase A. Holds and reads the inputs, parses the manifest, parses
 * and checks every module, links the entry and the tests, computes the
 * revisions, and builds the index of an admitted project: one call, one
 * retained value.
 */
#include "spx_project.h"

#include "spx_canonical.h"
#include "spx_index.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

static int compare_sources_by_path(const void *left, const void *right)
{
    const spx_input_t *a = *(const spx_input_t *const *)left;
    const spx_input_t *b = *(const spx_input_t *const *)right;
    return strcmp(a->path, b->path);
}

/* project_revision and workspace_revision (outputs.md, Digests and revisions). */
static void compute_revisions(spx_project_t *project)
{
    apr_size_t count = spx_input_set_source_count(project->inputs);
    const spx_input_t **sorted = apr_palloc(project->pool, (count + 1) * sizeof(*sorted));
    for (apr_size_t i = 0; i < count; i++)
        sorted[i] = spx_input_set_source(project->inputs, i);
    qsort(sorted, count, sizeof(*sorted), compare_sources_by_path);

    json_t *sources = json_array();
    for (apr_size_t i = 0; i < count; i++) {
        const char *module = NULL;
        for (apr_size_t s = 0; s < project->manifest->source_count; s++)
            if (strcmp(project->manifest->sources[s].path, sorted[i]->path) == 0)
                module = project->manifest->sources[s].module;
        json_array_append_new(sources,
                              json_pack("{s:s, s:s, s:s}", "digest", sorted[i]->digest_text,
                                        "module", module, "path", sorted[i]->path));
    }
    json_t *subject =
        json_pack("{s:s, s:o}", "manifest", spx_input_set_manifest(project->inputs)->digest_text,
                  "sources", sources);
    project->project_revision = spx_canonical_digest(subject, project->pool);
    json_decref(subject);

    json_t *workspace = json_pack("{s:s, s:o}", "project_revision", project->project_revision,
                                  "identities", spx_input_set_identities(project->inputs));
    project->workspace_revision = spx_canonical_digest(workspace, project->pool);
    json_decref(workspace);
}

static spx_module_t *module_named(const spx_project_t *project, const char *name)
{
    for (apr_size_t i = 0; i < project->module_count; i++)
        if (strcmp(project->modules[i]->name, name) == 0)
            return project->modules[i];
    return NULL;
}

/* The function a manifest names as "module.function" (entry or test), with
 * the signature fn() -> int; NULL and a diagnostic at the manifest value
 * otherwise. role is "entry" or "test 'NAME'". */
static spx_function_t *link_function(spx_project_t *project, const char *qualified, spx_span_t span,
                                     const char *role)
{
    const char *manifest_path = spx_input_set_manifest(project->inputs)->path;
    const char *dot = strchr(qualified, '.');
    spx_module_t *module = dot ? module_named(project, apr_pstrndup(project->pool, qualified,
                                                                    (apr_size_t)(dot - qualified)))
                               : NULL;
    spx_function_t *function =
        module && module->functions_by_name
            ? apr_hash_get(module->functions_by_name, dot + 1, APR_HASH_KEY_STRING)
            : NULL;
    if (!function) {
        spx_diagnostics_add(project->diagnostics, "E0151", manifest_path, span,
                            "%s names '%s', which is not a function of a declared module", role,
                            qualified);
        return NULL;
    }
    if (function->param_count != 0 || function->result != SPX_TYPE_INT) {
        spx_diagnostics_add(project->diagnostics, "E0150", manifest_path, span,
                            "%s names '%s', of signature %s; it must be fn() -> int", role,
                            qualified, spx_function_signature(function, project->pool));
        return NULL;
    }
    return function;
}

static void link_program(spx_project_t *project)
{
    const spx_manifest_t *manifest = project->manifest;
    if (manifest->entry)
        project->entry = link_function(project, manifest->entry, manifest->entry_span, "entry");
    project->tests = apr_pcalloc(project->pool, (manifest->test_count + 1) * sizeof(void *));
    for (apr_size_t i = 0; i < manifest->test_count; i++)
        project->tests[i] =
            link_function(project, manifest->tests[i].function, manifest->tests[i].function_span,
                          apr_psprintf(project->pool, "test '%s'", manifest->tests[i].name));
}

apr_status_t spx_project_open(spx_project_t **out, const char *manifest_path, apr_pool_t *pool,
                              const char **message)
{
    spx_project_t *project = apr_pcalloc(pool, sizeof(*project));
    project->pool = pool;
    project->manifest_path = apr_pstrdup(pool, manifest_path);
    project->diagnostics = spx_diagnostics_make(pool);
    apr_status_t status = spx_input_set_open(&project->inputs, manifest_path, pool, message);
    if (status != APR_SUCCESS)
        return status;

    const spx_input_t *manifest_input = spx_input_set_manifest(project->inputs);
    project->manifest = spx_manifest_parse(manifest_input->bytes, manifest_input->size,
                                           manifest_input->path, pool, project->diagnostics);
    project->phase_a_runs = 1;
    if (!project->manifest) {
        spx_diagnostics_sort(project->diagnostics);
        *out = project;
        return APR_SUCCESS;
    }

    const spx_manifest_t *manifest = project->manifest;
    const char **paths = apr_palloc(pool, (manifest->source_count + 1) * sizeof(*paths));
    for (apr_size_t i = 0; i < manifest->source_count; i++)
        paths[i] = manifest->sources[i].path;
    status = spx_input_set_add_sources(project->inputs, paths, manifest->source_count, message);
    if (status != APR_SUCCESS)
        return status;
    compute_revisions(project);

    project->module_count = manifest->source_count;
    project->modules = apr_palloc(pool, (project->module_count + 1) * sizeof(spx_module_t *));
    for (apr_size_t i = 0; i < project->module_count; i++) {
        const spx_input_t *source = spx_input_set_source(project->inputs, i);
        project->modules[i] =
            spx_parse_module(manifest->sources[i].module, source->path, source->bytes, source->size,
                             pool, project->diagnostics);
    }
    spx_check_program(project->modules, project->module_count, pool, project->diagnostics);
    link_program(project);
    spx_diagnostics_sort(project->diagnostics);
    project->admitted = spx_diagnostics_count(project->diagnostics) == 0;
    if (project->admitted)
        project->index = spx_index_build(project, pool);
    *out = project;
    return APR_SUCCESS;
}

json_t *spx_project_check_document(const spx_project_t *project)
{
    return json_pack("{s:b, s:o}", "admitted", project->admitted, "diagnostics",
                     spx_diagnostics_json(project->diagnostics));
}
