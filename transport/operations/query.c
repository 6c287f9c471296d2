/*
 * query.c: the query operations (spx_op_query.h): the graph (streamed by
 * the engine's one graph writer into the front end's sink), its summary,
 * the bounded context and the workspace snapshot, each a document the
 * engine renders once and the facts the front ends word, typed from the
 * engine (spx_graph_shape, spx_context_answer), never read back from the
 * document; and the one wording of what a cut context left out, by tie.
 */
#include "spx_op_query.h"

#include "spx_assert.h"
#include "spx_inputs.h"

#include <apr_strings.h>
#include <string.h>

void spx_op_graph_write(const spx_project_t *project, spx_json_writer_t *writer)
{
    spx_graph_write_value(project, writer);
}

/* The summary's "modules": each listed module with its path and imports. */
static json_t *listed_modules(const spx_graph_summary_t *summary)
{
    json_t *modules = json_array();
    for (apr_size_t i = 0; i < summary->listed; i++) {
        const spx_graph_module_t *module = &summary->shape.module_list[i];
        json_t *imports = json_array();
        for (apr_size_t j = 0; j < module->import_count; j++)
            json_array_append_new(imports, json_string(module->imports[j]));
        json_t *entry = json_pack("{s:s,s:o}", "name", module->name, "imports", imports);
        if (module->path)
            json_object_set_new(entry, "path", json_string(module->path));
        json_array_append_new(modules, entry);
    }
    return modules;
}

void spx_op_graph_summary(const spx_project_t *project, apr_uint64_t max_modules,
                          spx_graph_summary_t *summary, apr_pool_t *pool)
{
    memset(summary, 0, sizeof(*summary));
    spx_graph_shape(project, &summary->shape, pool);
    const spx_graph_shape_t *shape = &summary->shape;
    summary->max_modules = max_modules;
    summary->listed = shape->modules < max_modules ? shape->modules : (apr_size_t)max_modules;
    summary->omitted_modules = shape->modules - summary->listed;
    summary->truncated = summary->omitted_modules > 0;
    summary->document =
        json_pack("{s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I},s:o,s:b,s:I,s:I}", "counts", "modules",
                  (json_int_t)shape->modules, "functions", (json_int_t)shape->functions, "structs",
                  (json_int_t)shape->structs, "consts", (json_int_t)shape->consts, "tests",
                  (json_int_t)shape->tests, "nodes", (json_int_t)shape->nodes, "edges",
                  (json_int_t)shape->edges, "imports", (json_int_t)shape->imports, "modules",
                  listed_modules(summary), "truncated", summary->truncated, "omitted_modules",
                  (json_int_t)summary->omitted_modules, "max_modules", (json_int_t)max_modules);
}

spx_context_request_t spx_op_context_query(apr_uint64_t default_bytes, apr_uint64_t max_bytes_limit)
{
    spx_context_request_t query = spx_context_defaults();
    query.max_bytes = default_bytes < max_bytes_limit ? default_bytes : max_bytes_limit;
    return query;
}

apr_status_t spx_op_context(const spx_project_t *project, const spx_context_request_t *query,
                            apr_uint64_t max_bytes_limit, spx_context_result_t *result,
                            apr_pool_t *pool)
{
    return spx_context_answer(project, query, max_bytes_limit, result, pool);
}

apr_status_t spx_op_context_text(const spx_project_t *project, const spx_context_request_t *query,
                                 apr_uint64_t max_bytes_limit, spx_context_result_t *result,
                                 apr_pool_t *pool)
{
    return spx_context_answer_text(project, query, max_bytes_limit, result, pool);
}

const char *spx_op_context_omitted_by_tie(const spx_context_facts_t *facts, apr_pool_t *pool)
{
    SPX_ASSERT(facts->truncated);
    const char *words = "by tie:";
    int named = 0;
    for (int tie = 0; tie < SPX_CONTEXT_TIES; tie++)
        if (facts->omitted_by_tie[tie] > 0)
            words = apr_psprintf(pool, "%s%s%s %" APR_SIZE_T_FMT, words, named++ ? ", " : " ",
                                 spx_context_tie_name(tie), facts->omitted_by_tie[tie]);
    SPX_ASSERT(named > 0);
    return words;
}

void spx_op_snapshot(const spx_project_t *project, const char *manifest_path,
                     spx_snapshot_result_t *result)
{
    result->document = spx_project_snapshot_document(project, manifest_path);
    result->manifest_path = manifest_path;
    result->project_revision = spx_project_revision(project);
    result->workspace_revision = spx_project_workspace_revision(project);
    const spx_input_set_t *inputs = spx_project_inputs(project);
    result->sources = spx_input_set_source_count(inputs);
    result->source_bytes = 0;
    for (apr_size_t i = 0; i < result->sources; i++)
        result->source_bytes += spx_input_set_source(inputs, i)->size;
}
