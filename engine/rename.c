/*
 * rename.c: the Project Rename Transaction v1 (spx_rename.h): the plan from
 * the retained index, Phase A on the edited texts, the commit through the
 * platform layer's temp files with its rollback from the retained bytes, and
 * the rebinding to the files as written. Portable: the file system is reached
 * only through spx_platform.h. docs/protocol-v3.md says why each step is
 * what it is.
 */
#include "spx_rename.h"

#include "index_internal.h"
#include "spx_assert.h"
#include "spx_canonical.h"
#include "spx_digest.h"
#include "spx_lexer.h"
#include "spx_limits.h"

#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

/* One changed file. */
typedef struct rename_edit_t {
    const spx_input_t *source; /* the held file */
    /* The old text: the bytes the project was built from (the held file's,
     * or an editor's buffer in a project rebuilt over it). */
    const unsigned char *old;
    apr_size_t old_length;
    const char *before_digest;
    unsigned char *after;
    apr_size_t after_length;
    const char *after_digest;
    apr_array_header_t *starts; /* apr_size_t: the old name's offsets, ascending */
    spx_temp_t *temp;           /* the commit's temp file, while it exists */
    int replaced;               /* the original was replaced by the new bytes */
} rename_edit_t;

struct spx_rename_plan_t {
    spx_project_t *project;
    const char *module; /* the function's module */
    const char *old_name;
    const char *new_name;
    apr_array_header_t *edits; /* rename_edit_t *, sorted by path */
    const char *planned_revision;
};

const char *spx_rename_step_name(spx_rename_step_t step)
{
    switch (step) {
    case SPX_RENAME_CHECK:
        return "check";
    case SPX_RENAME_PLAN:
        return "plan";
    case SPX_RENAME_VERIFY:
        return "verify";
    case SPX_RENAME_RECHECK:
        return "recheck";
    case SPX_RENAME_COMMIT:
        return "commit";
    case SPX_RENAME_REBIND:
        return "rebind";
    }
    return "unknown";
}

const char *spx_commit_point_name(spx_commit_point_t point)
{
    switch (point) {
    case SPX_COMMIT_CREATE:
        return "create";
    case SPX_COMMIT_WRITE:
        return "write";
    case SPX_COMMIT_FLUSH:
        return "flush";
    case SPX_COMMIT_REPLACE:
        return "replace";
    case SPX_COMMIT_SYNC:
        return "sync";
    }
    return "unknown";
}

static apr_status_t fail(spx_rename_failure_t *failure, spx_rename_step_t step, const char *cause,
                         const char *reason)
{
    failure->step = step;
    failure->cause = cause;
    failure->reason = reason;
    return APR_EINVAL;
}

static void failure_reset(spx_rename_failure_t *failure, apr_pool_t *pool)
{
    memset(failure, 0, sizeof(*failure));
    failure->restored = apr_array_make(pool, 0, sizeof(const char *));
    failure->not_restored = apr_array_make(pool, 0, sizeof(const char *));
}

/* --- step 2: the plan ------------------------------------------------------- */

/* Why new_name cannot name a function of module, or NULL; *cause is the
 * reason's stable code. */
static const char *name_problem(const spx_module_t *module, const char *old_name,
                                const char *new_name, const char **cause, apr_pool_t *pool)
{
    apr_size_t length = strlen(new_name);
    int identifier = length > 0 && (apr_isalpha(new_name[0]) || new_name[0] == '_');
    for (apr_size_t i = 1; identifier && i < length; i++)
        identifier = apr_isalnum(new_name[i]) || new_name[i] == '_';
    *cause = "name_not_identifier";
    if (!identifier)
        return apr_psprintf(pool, "'%s' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)", new_name);
    *cause = "name_too_long";
    if (length > SPX_LIMIT_IDENTIFIER_BYTES)
        return apr_psprintf(pool, "'%s' is longer than the %u bytes an identifier may have",
                            new_name, SPX_LIMIT_IDENTIFIER_BYTES);
    /* Keywords and builtins (the lexer's and spx_builtins.h's): a function
     * may not be called so. The methods push and pop are not among them: a
     * function may be called push, as in Rust (docs/protocol-v3.md). */
    *cause = "name_is_keyword";
    spx_token_kind_t keyword = spx_keyword_kind(new_name, length);
    if (keyword != SPX_TOKEN_IDENTIFIER && spx_token_v2_keyword(keyword))
        return apr_psprintf(pool, "'%s' is a keyword since language v2", new_name);
    if (keyword != SPX_TOKEN_IDENTIFIER && spx_token_v3_keyword(keyword))
        return apr_psprintf(pool, "'%s' is a keyword since language v3", new_name);
    if (keyword != SPX_TOKEN_IDENTIFIER)
        return apr_psprintf(pool, "'%s' is a keyword", new_name);
    *cause = "name_is_builtin";
    const spx_builtin_info_t *builtin = spx_builtin_called(new_name);
    if (builtin && builtin->since > 1)
        return apr_psprintf(pool, "'%s' is a builtin function since language v%d", new_name,
                            builtin->since);
    if (builtin)
        return apr_psprintf(pool, "'%s' is a builtin function", new_name);
    *cause = "name_unchanged";
    if (strcmp(new_name, old_name) == 0)
        return apr_psprintf(pool, "'%s.%s' is already called '%s'", module->name, old_name,
                            new_name);
    *cause = "name_taken";
    if (spx_module_function(module, new_name))
        return apr_psprintf(pool, "module '%s' already has a function '%s'", module->name,
                            new_name);
    /* Language v2: functions, structs and consts of a module share one
     * namespace. Locals never clash with a function's name. */
    const char *kind = NULL;
    for (apr_size_t i = 0; !kind && i < module->struct_count; i++)
        if (module->structs[i]->name.text && strcmp(module->structs[i]->name.text, new_name) == 0)
            kind = "struct";
    for (apr_size_t i = 0; !kind && i < module->const_count; i++)
        if (module->consts[i]->name.text && strcmp(module->consts[i]->name.text, new_name) == 0)
            kind = "const";
    if (kind)
        return apr_psprintf(pool,
                            "module '%s' already has a %s '%s' (functions, structs and consts "
                            "share one namespace)",
                            module->name, kind, new_name);
    for (apr_size_t i = 0; i < module->enum_count; i++)
        if (module->enums[i]->name.text && strcmp(module->enums[i]->name.text, new_name) == 0)
            return apr_psprintf(pool,
                                "module '%s' already has an enum '%s' (functions, structs, enums "
                                "and consts share one namespace)",
                                module->name, new_name);
    return NULL;
}

/* Why the manifest stops the function from being renamed, or NULL. */
static const char *manifest_problem(const spx_project_t *project, const char *function,
                                    const char **cause, apr_pool_t *pool)
{
    const spx_manifest_t *manifest = project->manifest;
    *cause = "function_is_entry";
    if (manifest->entry && strcmp(manifest->entry, function) == 0)
        return apr_psprintf(pool, "'%s' is the manifest's entry; the manifest is never edited",
                            function);
    *cause = "function_is_test";
    for (apr_size_t t = 0; t < manifest->test_count; t++)
        if (strcmp(manifest->tests[t].function, function) == 0)
            return apr_psprintf(pool,
                                "'%s' is the function of the manifest's test '%s'; the manifest "
                                "is never edited",
                                function, manifest->tests[t].name);
    return NULL;
}

/* Skip spaces, tabs, line ends (LF, CR LF) and comments from at, not past
 * end. The text was admitted, so a CR is always the start of a CR LF. */
static apr_size_t skip_blank(const unsigned char *text, apr_size_t at, apr_size_t end)
{
    while (at < end) {
        if (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')
            at++;
        else if (text[at] == '/' && at + 1 < end && text[at + 1] == '/')
            while (at < end && text[at] != '\n')
                at++;
        else
            break;
    }
    return at;
}

static apr_size_t identifier_end(const unsigned char *text, apr_size_t at, apr_size_t end)
{
    while (at < end && (apr_isalnum(text[at]) || text[at] == '_'))
        at++;
    return at;
}

/* The offset of the called name in a call expression's bytes [start, end):
 * "(" ... then NAME "(" or MODULE "." NAME "(" (language.md's grammar; the
 * expression's span includes the parentheses written around it). */
static int callee_offset(const unsigned char *text, apr_size_t start, apr_size_t end,
                         const char *name, apr_size_t *offset)
{
    apr_size_t at = skip_blank(text, start, end);
    while (at < end && text[at] == '(')
        at = skip_blank(text, at + 1, end);
    apr_size_t first = at, first_end = identifier_end(text, at, end);
    if (first_end == first)
        return 0;
    apr_size_t next = skip_blank(text, first_end, end);
    apr_size_t name_start = first, name_end = first_end;
    if (next < end && text[next] == '.') {
        name_start = skip_blank(text, next + 1, end);
        name_end = identifier_end(text, name_start, end);
    }
    if (name_end - name_start != strlen(name) ||
        memcmp(text + name_start, name, name_end - name_start) != 0)
        return 0;
    *offset = name_start;
    return 1;
}

static int compare_offsets(const void *left, const void *right)
{
    apr_size_t a = *(const apr_size_t *)left, b = *(const apr_size_t *)right;
    return a < b ? -1 : a > b;
}

static int compare_edits_by_path(const void *left, const void *right)
{
    const rename_edit_t *a = *(const rename_edit_t *const *)left;
    const rename_edit_t *b = *(const rename_edit_t *const *)right;
    return strcmp(a->source->path, b->source->path);
}

/* The edit of module number m, made when first needed. */
static rename_edit_t *edit_of(spx_rename_plan_t *plan, rename_edit_t **by_module, apr_size_t m,
                              apr_pool_t *pool)
{
    if (!by_module[m]) {
        rename_edit_t *edit = apr_pcalloc(pool, sizeof(*edit));
        edit->source = spx_input_set_source(plan->project->inputs, m);
        edit->old = plan->project->modules[m]->text;
        edit->old_length = plan->project->modules[m]->length;
        edit->before_digest = edit->source->digest_text;
        edit->starts = apr_array_make(pool, 4, sizeof(apr_size_t));
        by_module[m] = edit;
        APR_ARRAY_PUSH(plan->edits, rename_edit_t *) = edit;
    }
    return by_module[m];
}

/* The new text of each edit: the old one with the name at every start
 * replaced. Refuses a file that would grow over the source limit. */
static apr_status_t splice(spx_rename_plan_t *plan, apr_pool_t *pool, spx_rename_failure_t *failure)
{
    apr_size_t old_length = strlen(plan->old_name), new_length = strlen(plan->new_name);
    uint64_t total = 0;
    for (apr_size_t i = 0; i < plan->project->module_count; i++)
        total += plan->project->modules[i]->length;
    for (int e = 0; e < plan->edits->nelts; e++) {
        rename_edit_t *edit = APR_ARRAY_IDX(plan->edits, e, rename_edit_t *);
        apr_array_header_t *starts = edit->starts;
        qsort(starts->elts, (size_t)starts->nelts, sizeof(apr_size_t), compare_offsets);
        uint64_t size = (uint64_t)edit->old_length - (uint64_t)starts->nelts * old_length +
                        (uint64_t)starts->nelts * new_length;
        total = total - edit->old_length + size;
        if (size > SPX_LIMIT_SOURCE_BYTES || total > SPX_LIMIT_TOTAL_SOURCE_BYTES)
            return fail(failure, SPX_RENAME_PLAN, "source_too_large",
                        apr_psprintf(pool, "'%s' would be over the source size limits",
                                     edit->source->path));
        edit->after_length = (apr_size_t)size;
        edit->after = apr_palloc(pool, edit->after_length + 1);
        apr_size_t from = 0, to = 0;
        for (int s = 0; s < starts->nelts; s++) {
            apr_size_t start = APR_ARRAY_IDX(starts, s, apr_size_t);
            memcpy(edit->after + to, edit->old + from, start - from);
            to += start - from;
            memcpy(edit->after + to, plan->new_name, new_length);
            to += new_length;
            from = start + old_length;
        }
        memcpy(edit->after + to, edit->old + from, edit->old_length - from);
        edit->after[edit->after_length] = '\0';
        spx_sha256_t digest;
        spx_sha256(edit->after, edit->after_length, &digest);
        edit->after_digest = spx_digest_text(&digest, pool);
    }
    qsort(plan->edits->elts, (size_t)plan->edits->nelts, sizeof(rename_edit_t *),
          compare_edits_by_path);
    return APR_SUCCESS;
}

/* Every edit: the declaration's name and the called name of every call
 * site, from the index's "calls" edges into the function. */
static apr_status_t collect_edits(spx_rename_plan_t *plan, int node, const spx_function_t *function,
                                  apr_pool_t *pool, spx_rename_failure_t *failure)
{
    const spx_project_t *project = plan->project;
    const spx_index_t *index = project->index;
    apr_hash_t *number = apr_hash_make(pool);
    apr_size_t *numbers = apr_palloc(pool, (project->module_count + 1) * sizeof(apr_size_t));
    for (apr_size_t m = 0; m < project->module_count; m++) {
        numbers[m] = m;
        apr_hash_set(number, project->modules[m]->name, APR_HASH_KEY_STRING, &numbers[m]);
    }
    rename_edit_t **by_module =
        apr_pcalloc(pool, (project->module_count + 1) * sizeof(rename_edit_t *));
    const apr_size_t *home = apr_hash_get(number, function->module->name, APR_HASH_KEY_STRING);
    APR_ARRAY_PUSH(edit_of(plan, by_module, *home, pool)->starts, apr_size_t) =
        function->name.span.start.offset;
    const spx_index_node_t *callee = &index->nodes[node];
    for (int i = 0; i < callee->in_count; i++) {
        const spx_index_edge_t *edge = &index->edges[index->in_edges[callee->in_first + i]];
        if (edge->kind != SPX_EDGE_CALLS)
            continue;
        const spx_module_t *caller = index->nodes[edge->from].module;
        const apr_size_t *m = apr_hash_get(number, caller->name, APR_HASH_KEY_STRING);
        rename_edit_t *edit = edit_of(plan, by_module, *m, pool);
        const uint8_t *packed = edge->sites;
        spx_index_site_t site = {0, 0};
        for (int s = 0; s < edge->site_count; s++) {
            spx_index_site_next(&packed, &site);
            apr_size_t offset = 0;
            if (!callee_offset(caller->text, site.start, site.end, plan->old_name, &offset))
                return fail(failure, SPX_RENAME_PLAN, "call_site_unreadable",
                            apr_psprintf(pool, "a call site in '%s' at byte %u does not read '%s'",
                                         caller->path, (unsigned)site.start, plan->old_name));
            APR_ARRAY_PUSH(edit->starts, apr_size_t) = offset;
        }
    }
    return splice(plan, pool, failure);
}

/* --- step 3: Phase A on the edited texts ------------------------------------- */

static apr_status_t add_to_digest(void *context, const char *bytes, apr_size_t length)
{
    spx_sha256_add(context, bytes, length);
    return APR_SUCCESS;
}

/* The digest of project's graph as a rename compares it
 * (spx_graph_write_compared: without its revision and spans, old_id read as
 * new_id named new_name, sorted again), streamed through the canonical
 * writer into the digest with no tree or text of it kept: a 1M-line
 * project's graph is about 29 MB. 0 when it cannot be written. */
static int compared_digest(const spx_project_t *project, const char *old_id, const char *new_id,
                           const char *new_name, spx_sha256_t *digest, apr_pool_t *pool)
{
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    spx_sha256_stream_t *stream = spx_sha256_begin(scratch);
    spx_json_status_t status = spx_graph_write_compared(
        project, old_id, new_id, new_name,
        spx_json_writer_stream(add_to_digest, stream, (apr_size_t)-1, scratch), scratch);
    spx_sha256_end(stream, digest);
    apr_pool_destroy(scratch);
    return status == SPX_JSON_OK;
}

static apr_status_t verify(spx_rename_plan_t *plan, apr_pool_t *pool, spx_rename_failure_t *failure)
{
    spx_project_t *project = plan->project;
    const unsigned char **texts = apr_pcalloc(pool, (project->module_count + 1) * sizeof(*texts));
    apr_size_t *lengths = apr_pcalloc(pool, (project->module_count + 1) * sizeof(*lengths));
    for (apr_size_t m = 0; m < project->module_count; m++) {
        texts[m] = project->modules[m]->text; /* a rebuilt project's buffers stay */
        lengths[m] = project->modules[m]->length;
    }
    for (int e = 0; e < plan->edits->nelts; e++) {
        rename_edit_t *edit = APR_ARRAY_IDX(plan->edits, e, rename_edit_t *);
        for (apr_size_t m = 0; m < project->module_count; m++)
            if (spx_input_set_source(project->inputs, m) == edit->source) {
                texts[m] = edit->after;
                lengths[m] = edit->after_length;
            }
    }
    spx_project_t *edited = spx_project_rebuild(project, texts, lengths, pool);
    project->phase_a_runs++; /* the session's count of Phase A runs */
    if (!edited->admitted) {
        const spx_diagnostic_t *first = spx_diagnostics_get(edited->diagnostics, 0);
        return fail(failure, SPX_RENAME_VERIFY, "not_admitted_after_rename",
                    apr_psprintf(pool, "the renamed project would not be admitted: %s: %s",
                                 first->path, first->message));
    }
    const char *old_id = apr_psprintf(pool, "function:%s.%s", plan->module, plan->old_name);
    const char *new_id = apr_psprintf(pool, "function:%s.%s", plan->module, plan->new_name);
    spx_sha256_t before, after;
    if (!compared_digest(project, old_id, new_id, plan->new_name, &before, pool) ||
        !compared_digest(edited, NULL, NULL, NULL, &after, pool) ||
        !spx_sha256_equal(&before, &after))
        return fail(failure, SPX_RENAME_VERIFY, "graph_would_differ",
                    "the renamed project's graph would differ from the current one by more than "
                    "the renamed function");
    plan->planned_revision = edited->project_revision;
    return APR_SUCCESS;
}

apr_status_t spx_rename_plan(spx_project_t *project, const char *function, const char *new_name,
                             spx_rename_plan_t **out, apr_pool_t *pool,
                             spx_rename_failure_t *failure)
{
    failure_reset(failure, pool);
    if (project->diagnostics_only)
        return fail(failure, SPX_RENAME_PLAN, "project_diagnostics_only",
                    "the project was built for its diagnostics only: it has no graph");
    if (!project->admitted || !project->index || !project->manifest)
        return fail(failure, SPX_RENAME_PLAN, "project_not_admitted",
                    "the project is not admitted");
    const char *dot = strchr(function, '.');
    if (!dot || dot == function || dot[1] == '\0' || strchr(dot + 1, '.'))
        return fail(failure, SPX_RENAME_PLAN, "function_not_qualified",
                    apr_psprintf(pool, "'%s' is not MODULE.NAME", function));
    const char *module_name = apr_pstrndup(pool, function, (apr_size_t)(dot - function));
    const spx_module_t *module = NULL;
    for (apr_size_t m = 0; m < project->module_count && !module; m++)
        if (strcmp(project->modules[m]->name, module_name) == 0)
            module = project->modules[m];
    if (!module)
        return fail(failure, SPX_RENAME_PLAN, "unknown_module",
                    apr_psprintf(pool, "the project has no module '%s'", module_name));
    int node = spx_index_find(project->index, apr_pstrcat(pool, "function:", function, NULL));
    if (node < 0)
        return fail(failure, SPX_RENAME_PLAN, "unknown_function",
                    apr_psprintf(pool, "module '%s' has no function '%s'", module_name, dot + 1));
    const spx_function_t *target = spx_index_node_function(&project->index->nodes[node]);
    if (!target->exported)
        return fail(failure, SPX_RENAME_PLAN, "function_not_exported",
                    apr_psprintf(pool, "'%s' is not exported; only exported functions are renamed",
                                 function));
    const char *cause = NULL;
    const char *problem = manifest_problem(project, function, &cause, pool);
    if (!problem)
        problem = name_problem(module, target->name.text, new_name, &cause, pool);
    if (problem)
        return fail(failure, SPX_RENAME_PLAN, cause, problem);

    spx_rename_plan_t *plan = apr_pcalloc(pool, sizeof(*plan));
    plan->project = project;
    plan->module = module->name;
    plan->old_name = target->name.text;
    plan->new_name = apr_pstrdup(pool, new_name);
    plan->edits = apr_array_make(pool, 4, sizeof(rename_edit_t *));
    apr_status_t status = collect_edits(plan, node, target, pool, failure);
    if (status == APR_SUCCESS)
        status = verify(plan, pool, failure);
    if (status == APR_SUCCESS)
        *out = plan;
    return status;
}

const char *spx_rename_planned_revision(const spx_rename_plan_t *plan)
{
    return plan->planned_revision;
}

apr_array_header_t *spx_rename_changed_paths(const spx_rename_plan_t *plan, apr_pool_t *pool)
{
    apr_array_header_t *paths = apr_array_make(pool, plan->edits->nelts, sizeof(const char *));
    for (int e = 0; e < plan->edits->nelts; e++)
        APR_ARRAY_PUSH(paths, const char *) =
            apr_pstrdup(pool, APR_ARRAY_IDX(plan->edits, e, const rename_edit_t *)->source->path);
    return paths;
}

apr_size_t spx_rename_edit_count(const spx_rename_plan_t *plan)
{
    return (apr_size_t)plan->edits->nelts;
}

void spx_rename_edit(const spx_rename_plan_t *plan, apr_size_t e, spx_rename_edit_view_t *view)
{
    const rename_edit_t *edit = APR_ARRAY_IDX(plan->edits, (int)e, const rename_edit_t *);
    view->path = edit->source->path;
    view->offsets = (const apr_size_t *)edit->starts->elts;
    view->offset_count = (apr_size_t)edit->starts->nelts;
    view->name_length = strlen(plan->old_name);
}

json_t *spx_rename_edits_json(const spx_rename_plan_t *plan)
{
    json_t *edits = json_array();
    for (int e = 0; e < plan->edits->nelts; e++) {
        const rename_edit_t *edit = APR_ARRAY_IDX(plan->edits, e, const rename_edit_t *);
        json_t *changes = json_array();
        for (int s = 0; s < edit->starts->nelts; s++) {
            apr_size_t start = APR_ARRAY_IDX(edit->starts, s, apr_size_t);
            spx_span_t span = spx_span_between(edit->old, edit->old_length, start,
                                               start + strlen(plan->old_name));
            json_array_append_new(changes,
                                  json_pack("{s:o, s:s, s:s}", "span", spx_span_json(&span), "old",
                                            plan->old_name, "new", plan->new_name));
        }
        json_array_append_new(edits, json_pack("{s:s, s:s, s:s, s:o}", "path", edit->source->path,
                                               "before", edit->before_digest, "after",
                                               edit->after_digest, "changes", changes));
    }
    return edits;
}

/* --- step 5: the commit ----------------------------------------------------- */

apr_status_t spx_commit_probe_at(spx_commit_probe_fn probe, void *context, spx_commit_point_t point,
                                 apr_size_t file, apr_size_t files, const char **message,
                                 apr_pool_t *pool)
{
    if (!probe)
        return APR_SUCCESS;
    apr_status_t status = probe(context, point, file, files, message, pool);
    if (status != APR_SUCCESS && !*message)
        *message = "failed";
    return status;
}

static spx_dir_t *dir_of(const spx_input_t *source)
{
    return source->parent->dir;
}

/* How a replace is tried again while another program briefly holds the file
 * (Windows; spx_limits.h). */
static spx_replace_retry_t replace_retry(void)
{
    spx_replace_retry_t retry = {SPX_LIMIT_REPLACE_ATTEMPTS, SPX_LIMIT_REPLACE_FIRST_PAUSE_MS};
    return retry;
}

/* How a temp file takes a file's place: only while the file still holds
 * expected (length bytes), so that a save made meanwhile is never
 * overwritten (spx_temp_swap_in). */
static spx_swap_t swap_over(const unsigned char *expected, apr_size_t length)
{
    spx_swap_t swap = {.expected = expected, .expected_length = length, .retry = replace_retry()};
    return swap;
}

/* Write bytes to a new temp file beside source, flush it, and swap it in
 * for the file, which must hold expected (expected_length bytes): how a
 * file is restored. */
static apr_status_t put_back(const spx_input_t *source, const unsigned char *bytes,
                             apr_size_t length, const unsigned char *expected,
                             apr_size_t expected_length, apr_pool_t *pool, const char **message)
{
    spx_temp_t *temp = NULL;
    spx_swap_t swap = swap_over(expected, expected_length);
    apr_status_t status = spx_temp_create(&temp, dir_of(source), source->name, source->file,
                                          SPX_LIMIT_TEMP_ATTEMPTS, pool, message);
    if (status == APR_SUCCESS)
        status = spx_temp_write(temp, bytes, length, pool, message);
    if (status == APR_SUCCESS)
        status = spx_temp_flush(temp, pool, message);
    if (status == APR_SUCCESS)
        status = spx_temp_swap_in(temp, source->name, &swap, pool, message);
    if (status == APR_SUCCESS) /* the bytes are back; their name to disk as far as possible */
        spx_dir_flush(dir_of(source), pool, NULL);
    if (temp)
        spx_temp_discard(temp, pool, NULL);
    return status;
}

/* Put back every replaced file from the retained old bytes, where it still
 * holds the bytes written (a later save is kept, and the file named as not
 * restored). */
static void restore_replaced(spx_rename_plan_t *plan, apr_pool_t *pool,
                             spx_rename_failure_t *failure)
{
    for (int e = 0; e < plan->edits->nelts; e++) {
        rename_edit_t *edit = APR_ARRAY_IDX(plan->edits, e, rename_edit_t *);
        if (!edit->replaced)
            continue;
        const char *message = NULL;
        if (put_back(edit->source, edit->source->bytes, edit->source->size, edit->after,
                     edit->after_length, pool, &message) == APR_SUCCESS) {
            edit->replaced = 0;
            APR_ARRAY_PUSH(failure->restored, const char *) =
                apr_pstrdup(failure->restored->pool, edit->source->path);
        } else {
            APR_ARRAY_PUSH(failure->not_restored, const char *) =
                apr_pstrdup(failure->not_restored->pool, edit->source->path);
            failure->reason =
                apr_psprintf(failure->restored->pool, "%s; and '%s' could not be restored: %s",
                             failure->reason, edit->source->path, message);
        }
    }
}

apr_status_t spx_rename_commit(spx_rename_plan_t *plan, spx_commit_probe_fn probe, void *context,
                               apr_pool_t *pool, spx_rename_failure_t *failure)
{
    failure_reset(failure, pool);
    /* Temp files live in a pool of their own, gone before this returns: no
     * cleanup of them runs after the caller has let the old project go. */
    apr_pool_t *work = NULL;
    apr_status_t status = APR_SUCCESS;
    apr_pool_create(&work, pool); /* cannot fail: spx_allocation.h */
    SPX_ASSERT(work != NULL);
    apr_size_t files = (apr_size_t)plan->edits->nelts;
    spx_commit_point_t point = SPX_COMMIT_CREATE;
    const char *message = NULL;
    apr_size_t at = 0, failed_at = 0;
    /* Every temp file written and flushed before any original is touched:
     * a directory that refuses new files stops the commit here. */
    for (at = 0; status == APR_SUCCESS && at < files; at++) {
        rename_edit_t *edit = APR_ARRAY_IDX(plan->edits, at, rename_edit_t *);
        failed_at = at;
        point = SPX_COMMIT_CREATE;
        status = spx_commit_probe_at(probe, context, point, at, files, &message, work);
        if (status == APR_SUCCESS)
            status = spx_temp_create(&edit->temp, dir_of(edit->source), edit->source->name,
                                     edit->source->file, SPX_LIMIT_TEMP_ATTEMPTS, work, &message);
        if (status == APR_SUCCESS) {
            point = SPX_COMMIT_WRITE;
            status = spx_commit_probe_at(probe, context, point, at, files, &message, work);
        }
        if (status == APR_SUCCESS)
            status = spx_temp_write(edit->temp, edit->after, edit->after_length, work, &message);
        if (status == APR_SUCCESS) {
            point = SPX_COMMIT_FLUSH;
            status = spx_commit_probe_at(probe, context, point, at, files, &message, work);
        }
        if (status == APR_SUCCESS)
            status = spx_temp_flush(edit->temp, work, &message);
    }
    for (at = 0; status == APR_SUCCESS && at < files; at++) {
        rename_edit_t *edit = APR_ARRAY_IDX(plan->edits, at, rename_edit_t *);
        failed_at = at;
        point = SPX_COMMIT_REPLACE;
        if (spx_replace_needs_release()) {
            spx_release_for_replace(dir_of(edit->source), edit->source->file);
            failure->inputs_touched = 1;
        }
        status = spx_commit_probe_at(probe, context, point, at, files, &message, work);
        /* Swapped in only over the bytes planned against: a save made since
         * the re-check is kept, and the whole transaction rolls back. */
        spx_swap_t swap = swap_over(edit->source->bytes, edit->source->size);
        if (status == APR_SUCCESS)
            status = spx_temp_swap_in(edit->temp, edit->source->name, &swap, work, &message);
        if (status == APR_SUCCESS) {
            edit->replaced = 1;
            failure->inputs_touched = 1;
            point = SPX_COMMIT_SYNC;
            status = spx_commit_probe_at(probe, context, point, at, files, &message, work);
        }
        if (status == APR_SUCCESS)
            status = spx_dir_flush(dir_of(edit->source), work, &message);
    }
    if (status != APR_SUCCESS) {
        const rename_edit_t *where = APR_ARRAY_IDX(plan->edits, failed_at, const rename_edit_t *);
        failure->step = SPX_RENAME_COMMIT;
        failure->operation = spx_commit_point_name(point);
        failure->path = apr_pstrdup(pool, where->source->path);
        failure->reason = apr_psprintf(pool, "%s of '%s' failed: %s", failure->operation,
                                       where->source->path, message);
    }
    /* No temp file is left, whatever happened. */
    for (apr_size_t i = 0; i < files; i++) {
        rename_edit_t *edit = APR_ARRAY_IDX(plan->edits, i, rename_edit_t *);
        const char *why = NULL;
        if (edit->temp && spx_temp_discard(edit->temp, work, &why) != APR_SUCCESS &&
            status != APR_SUCCESS)
            failure->reason = apr_psprintf(pool, "%s; and %s", failure->reason, why);
        edit->temp = NULL;
    }
    if (status != APR_SUCCESS)
        restore_replaced(plan, work, failure);
    apr_pool_destroy(work);
    return status;
}

/* --- undoing a commit, and step 6 ------------------------------------------- */

/* Open the file at path (relative to the root) afresh, from the root's
 * host path, one component at a time, read it whole and let it go. */
static apr_status_t read_by_name(const spx_project_t *project, const char *path,
                                 unsigned char **bytes, apr_size_t *length, apr_pool_t *pool)
{
    spx_dir_t *dir = NULL;
    apr_status_t status =
        spx_dir_open_root(&dir, spx_input_set_root_path(project->inputs), pool, NULL);
    const char *rest = path;
    for (const char *slash = strchr(rest, '/'); status == APR_SUCCESS && slash;
         slash = strchr(rest, '/')) {
        spx_dir_t *child = NULL;
        status = spx_dir_open_child(
            &child, dir, apr_pstrndup(pool, rest, (apr_size_t)(slash - rest)), pool, NULL);
        spx_dir_close(dir);
        dir = child;
        rest = slash + 1;
    }
    if (status == APR_SUCCESS)
        status = spx_file_read_named(dir, rest, SPX_LIMIT_SOURCE_BYTES, bytes, length, pool, NULL);
    if (dir)
        spx_dir_close(dir);
    return status;
}

void spx_rename_rollback(spx_rename_plan_t *plan, apr_pool_t *pool, spx_rename_failure_t *failure)
{
    apr_pool_t *work = NULL;
    apr_pool_create(&work, pool);
    for (int e = 0; e < plan->edits->nelts; e++) {
        rename_edit_t *edit = APR_ARRAY_IDX(plan->edits, e, rename_edit_t *);
        edit->replaced = 0;
        unsigned char *now = NULL;
        apr_size_t length = 0;
        if (read_by_name(plan->project, edit->source->path, &now, &length, work) == APR_SUCCESS &&
            length == edit->after_length && memcmp(now, edit->after, length) == 0)
            edit->replaced = 1; /* still exactly what was written: ours to undo */
        else
            APR_ARRAY_PUSH(failure->not_restored, const char *) =
                apr_pstrdup(failure->not_restored->pool, edit->source->path);
    }
    restore_replaced(plan, work, failure);
    apr_pool_destroy(work);
}

apr_status_t spx_rename_rebind(const spx_project_t *old, const spx_rename_plan_t *plan,
                               const char *expected_revision, spx_project_t **out, apr_pool_t *pool,
                               const char **reason)
{
    spx_project_t *fresh = NULL;
    const char *message = NULL;
    apr_status_t status = spx_project_open(&fresh, old->manifest_path, pool, &message);
    if (status != APR_SUCCESS) {
        *reason = apr_psprintf(pool, "the project cannot be opened again: %s",
                               message ? message : "failed");
        return status;
    }
    if (!fresh->manifest || !fresh->project_revision ||
        strcmp(fresh->project_revision, expected_revision) != 0) {
        *reason = "the files on disk are not the ones the transaction left: another program "
                  "changed the project meanwhile";
        return APR_EINVAL;
    }
    apr_hash_t *rewritten = apr_hash_make(pool);
    for (int e = 0; e < plan->edits->nelts; e++)
        apr_hash_set(rewritten, APR_ARRAY_IDX(plan->edits, e, const rename_edit_t *)->source->path,
                     APR_HASH_KEY_STRING, "");
    /* Both lists are sorted by path then kind, and hold the same paths (the
     * manifest's bytes are the same): compared entry by entry. */
    json_t *before = spx_input_set_identities(old->inputs);
    json_t *after = spx_input_set_identities(fresh->inputs);
    const char *moved = json_array_size(before) == json_array_size(after) ? NULL : "";
    for (size_t i = 0; !moved && i < json_array_size(before); i++) {
        const json_t *then = json_array_get(before, i), *now = json_array_get(after, i);
        const char *path = json_string_value(json_object_get(then, "path"));
        if (!json_equal(json_object_get(now, "path"), json_object_get(then, "path")) ||
            !json_equal(json_object_get(now, "kind"), json_object_get(then, "kind")))
            moved = apr_pstrdup(pool, path);
        else if (!apr_hash_get(rewritten, path, APR_HASH_KEY_STRING) &&
                 (!json_equal(json_object_get(now, "volume"), json_object_get(then, "volume")) ||
                  !json_equal(json_object_get(now, "object"), json_object_get(then, "object"))))
            moved = apr_pstrdup(pool, path);
    }
    if (moved && moved[0] == '\0')
        moved = spx_input_set_root_path(old->inputs);
    json_decref(before);
    json_decref(after);
    if (moved) {
        *reason = apr_psprintf(pool, "'%s' is no longer the object the session held", moved);
        return APR_EINVAL;
    }
    fresh->phase_a_runs = old->phase_a_runs + 1;
    *out = fresh;
    return APR_SUCCESS;
}
