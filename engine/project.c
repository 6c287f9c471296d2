/*
 * project.c: Phase A. Holds and reads the inputs, parses the manifest, parses
 * and checks every module, links the entry and the tests, computes the
 * revisions, and builds the index and the code of an admitted project: one
 * call, one retained value.
 *
 * Modules are taken one at a time, imported modules first (a depth-first
 * walk over a quick look at each module's imports): a module is parsed and
 * declared when its imports are done, then its bodies are checked, indexed
 * and compiled, and let go. Declarations, the index, the code and the source
 * bytes stay; a module's bodies live only in a body arena that is cleared and
 * reused for the next module, so Phase A's memory follows the largest module,
 * not the whole program (docs/phase-a.md).
 */
#include "project_internal.h"

#include "index_internal.h"
#include "spx_canonical.h"
#include "spx_limits.h"
#include "spx_program.h"
#include "spx_status.h"
#include "spx_suggest.h"

#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

/* A source's path and its number in declaration order. */
typedef struct numbered_path_t {
    const char *path;
    apr_size_t number;
} numbered_path_t;

static int compare_numbered_paths(const void *left, const void *right)
{
    return strcmp(((const numbered_path_t *)left)->path, ((const numbered_path_t *)right)->path);
}

/* project_revision (outputs.md, Digests and revisions) of the manifest and
 * the sources' digests: digests[i] is the i-th source's (declaration order). */
static const char *project_revision_of(const spx_project_t *project, const char *const *digests)
{
    apr_size_t count = spx_input_set_source_count(project->inputs);
    numbered_path_t *by_path = apr_palloc(project->pool, (count + 1) * sizeof(*by_path));
    for (apr_size_t i = 0; i < count; i++) {
        by_path[i].path = spx_input_set_source(project->inputs, i)->path;
        by_path[i].number = i;
    }
    qsort(by_path, count, sizeof(*by_path), compare_numbered_paths);
    apr_size_t *sorted = apr_palloc(project->pool, (count + 1) * sizeof(*sorted));
    for (apr_size_t i = 0; i < count; i++)
        sorted[i] = by_path[i].number;
    json_t *sources = json_array();
    for (apr_size_t i = 0; i < count; i++)
        json_array_append_new(sources,
                              json_pack("{s:s, s:s, s:s}", "digest", digests[sorted[i]], "module",
                                        project->manifest->sources[sorted[i]].module, "path",
                                        spx_input_set_source(project->inputs, sorted[i])->path));
    json_t *subject =
        json_pack("{s:s, s:o}", "manifest", spx_input_set_manifest(project->inputs)->digest_text,
                  "sources", sources);
    if (spx_project_data_count(project) > 0)
        json_object_set_new(subject, "data", spx_project_data_list(project, SPX_DATA_LIST_NAME));
    const char *revision = spx_canonical_digest(subject, project->pool);
    json_decref(subject);
    return revision;
}

/* project_revision and workspace_revision of the held inputs. */
static void compute_revisions(spx_project_t *project)
{
    apr_size_t count = spx_input_set_source_count(project->inputs);
    const char **digests = apr_palloc(project->pool, (count + 1) * sizeof(*digests));
    for (apr_size_t i = 0; i < count; i++)
        digests[i] = spx_input_set_source(project->inputs, i)->digest_text;
    project->project_revision = project_revision_of(project, digests);

    json_t *workspace = json_pack("{s:s, s:o}", "project_revision", project->project_revision,
                                  "identities", spx_input_set_identities(project->inputs));
    project->workspace_revision = spx_canonical_digest(workspace, project->pool);
    json_decref(workspace);
}

const apr_size_t *spx_project_module_numbered(const spx_project_t *project, const char *name)
{
    return name && project->module_numbers
               ? apr_hash_get(project->module_numbers, name, APR_HASH_KEY_STRING)
               : NULL;
}

/* Number the modules by name (spx_project_module_numbered), once they are
 * made: module names are unique (the manifest checks it); the first wins. */
static void number_modules(spx_project_t *project)
{
    project->module_numbers = apr_hash_make(project->pool);
    apr_size_t *numbers = apr_palloc(project->pool, (project->module_count + 1) * sizeof(*numbers));
    for (apr_size_t i = 0; i < project->module_count; i++) {
        numbers[i] = i;
        if (!spx_project_module_numbered(project, project->modules[i]->name))
            apr_hash_set(project->module_numbers, project->modules[i]->name, APR_HASH_KEY_STRING,
                         &numbers[i]);
    }
}

static spx_module_t *module_named(const spx_project_t *project, const char *name)
{
    const apr_size_t *number = spx_project_module_numbered(project, name);
    return number ? project->modules[*number] : NULL;
}

/* "; did you mean 'app.main'?" for the function of module nearest to the
 * qualified name that names none ("app.mian"); "" when none is near
 * (spx_suggest.h). */
static const char *nearest_function(const spx_module_t *module, const char *qualified,
                                    apr_pool_t *pool)
{
    if (!module || !module->function_slots)
        return "";
    const char **names = apr_palloc(pool, (module->function_count + 1) * sizeof(*names));
    apr_size_t filled = 0;
    for (apr_size_t i = 0; i < module->function_count; i++) {
        const spx_function_t *function = module->functions[i];
        if (function->name.text && spx_module_function(module, function->name.text) == function)
            names[filled++] = apr_pstrcat(pool, module->name, ".", function->name.text, NULL);
    }
    const char *nearest[1];
    if (spx_suggest_nearest(qualified, names, filled, 1, nearest) == 0)
        return "";
    return apr_psprintf(pool, "; did you mean '%s'?", nearest[0]);
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
    spx_function_t *function = module ? spx_module_function(module, dot + 1) : NULL;
    if (!function) {
        spx_diagnostics_add(project->diagnostics, SPX_E0151, manifest_path, span,
                            "%s names '%s', which is not a function of a declared module%s", role,
                            qualified, nearest_function(module, qualified, project->pool));
        return NULL;
    }
    if (function->param_count != 0 || function->result != SPX_TYPE_INT) {
        spx_diagnostics_add(project->diagnostics, SPX_E0150, manifest_path, span,
                            "%s names '%s', of signature %s; it must be fn() -> int", role,
                            qualified, spx_function_signature(function, project->pool));
        return NULL;
    }
    return function;
}

/* The walk's state of one module. */
enum {
    MODULE_NEW,      /* not reached yet */
    MODULE_WAITING,  /* on the walk's stack: its imports are being taken first */
    MODULE_DECLARED, /* parsed and declared; its bodies are held */
    MODULE_DONE      /* checked, indexed, compiled; its bodies are gone */
};

typedef struct program_walk_t {
    spx_project_t *project;
    spx_checker_t *checker;
    spx_index_builder_t *index;
    spx_program_builder_t *program;
    spx_reuse_t *reuse;              /* a diagnostics-only build's findings; NULL otherwise */
    char *state;                     /* per module */
    spx_arena_t **bodies;            /* per declared module: the arena of its bodies */
    apr_array_header_t *free_arenas; /* spx_arena_t *: cleared, ready for the next module */
    apr_pool_t *body_pool;           /* the body arenas' chunks, given back after the walk */
    apr_size_t bodies_held;          /* modules declared and not done */
} program_walk_t;

static const apr_size_t *module_numbered(program_walk_t *walk, const char *name)
{
    return spx_project_module_numbered(walk->project, name);
}

/* Parse and declare a module not declared yet; its bodies are held in a
 * body arena until it is finished. */
static void declare_module(program_walk_t *walk, apr_size_t number)
{
    if (walk->state[number] >= MODULE_DECLARED)
        return;
    spx_project_t *project = walk->project;
    spx_arena_t *bodies = walk->free_arenas->nelts
                              ? *(spx_arena_t **)apr_array_pop(walk->free_arenas)
                              : spx_arena_make(walk->body_pool);
    spx_parse_module(project->modules[number], project->arena, bodies, project->pool,
                     project->diagnostics);
    spx_checker_declare(walk->checker, number);
    if (walk->reuse)
        spx_reuse_declared(walk->reuse, number);
    walk->bodies[number] = bodies;
    walk->state[number] = MODULE_DECLARED;
    if (++walk->bodies_held > project->most_bodies_held)
        project->most_bodies_held = walk->bodies_held;
}

/* Declare the module and every module it imports (normally all done by
 * now; not so in an import cycle or for an import the quick look missed),
 * then check, index and compile its bodies and let them go. */
static void finish_module(program_walk_t *walk, apr_size_t number)
{
    spx_module_t *module = walk->project->modules[number];
    declare_module(walk, number);
    for (apr_size_t i = 0; i < module->import_count; i++) {
        const apr_size_t *imported = module_numbered(walk, module->imports[i].module.text);
        if (imported)
            declare_module(walk, *imported);
    }
    /* A diagnostics-only build checks the functions of a module only when
     * the previous build's findings for it may not hold (project_reuse.c). */
    if (walk->reuse && spx_reuse_may_skip(walk->reuse, number))
        spx_checker_check_items(walk->checker, number);
    else
        spx_checker_check_bodies(walk->checker, number);
    /* A diagnostics-only build (no index builder, no program builder)
     * neither indexes nor compiles: neither adds a diagnostic. */
    if (walk->index)
        spx_index_builder_add_calls(walk->index, module);
    /* Code is made only while the program can still be admitted: the
     * compiler needs bodies without errors. */
    if (walk->program && spx_diagnostics_error_count(walk->project->diagnostics) == 0)
        spx_program_add_module(walk->program, module);
    for (apr_size_t f = 0; f < module->function_count; f++)
        memset(&module->functions[f]->body, 0, sizeof(module->functions[f]->body));
    spx_arena_clear(walk->bodies[number]);
    APR_ARRAY_PUSH(walk->free_arenas, spx_arena_t *) = walk->bodies[number];
    walk->bodies[number] = NULL;
    walk->state[number] = MODULE_DONE;
    walk->bodies_held--;
}

/* Parse, check, index and compile every module (see the file comment). A
 * quick look at each module's imports (spx_scan_imports) orders the walk,
 * imports first, with an explicit stack: a program may chain thousands of
 * imports. Only a finished module is parsed in full, so in a program whose
 * imports form no cycle one module's bodies are held at a time, whatever
 * the manifest's order. */
static void walk_program(spx_project_t *project, spx_index_builder_t *index,
                         spx_program_builder_t *program, spx_reuse_t *reuse)
{
    apr_size_t count = project->module_count;
    program_walk_t walk = {
        project,
        spx_checker_make(project->modules, count, project->pool, project->diagnostics),
        index,
        program,
        reuse,
        apr_pcalloc(project->pool, count + 1),
        apr_pcalloc(project->pool, (count + 1) * sizeof(spx_arena_t *)),
        apr_array_make(project->pool, 4, sizeof(spx_arena_t *)),
        NULL,
        0};
    apr_pool_create(&walk.body_pool, project->pool);
    project->data_entries = spx_project_data_entries(project, &project->data_entry_count);
    spx_checker_set_data(walk.checker, project->data_entries, project->data_entry_count);
    apr_pool_t *scan;
    apr_pool_create(&scan, project->pool);
    apr_size_t *stack = apr_palloc(scan, (count + 1) * sizeof(apr_size_t));
    apr_size_t *next_import = apr_palloc(scan, (count + 1) * sizeof(apr_size_t));
    apr_array_header_t **imports = apr_pcalloc(scan, (count + 1) * sizeof(*imports));
    for (apr_size_t root = 0; root < count; root++) {
        /* Declared and not finished: imported where the quick look did not
         * see it (an import after an item, E0223), by a module finished
         * before; its bodies are checked now, never left out. */
        if (walk.state[root] == MODULE_DECLARED)
            finish_module(&walk, root);
        if (walk.state[root] != MODULE_NEW)
            continue;
        apr_size_t depth = 0;
        stack[depth] = root;
        next_import[depth++] = 0;
        walk.state[root] = MODULE_WAITING;
        imports[root] = spx_scan_imports(project->modules[root], project->arena, scan);
        while (depth > 0) {
            apr_size_t current = stack[depth - 1];
            if (next_import[depth - 1] < (apr_size_t)imports[current]->nelts) {
                const apr_size_t *imported = module_numbered(
                    &walk, APR_ARRAY_IDX(imports[current], next_import[depth - 1]++, const char *));
                if (imported && walk.state[*imported] == MODULE_NEW) {
                    walk.state[*imported] = MODULE_WAITING;
                    imports[*imported] =
                        spx_scan_imports(project->modules[*imported], project->arena, scan);
                    stack[depth] = *imported;
                    next_import[depth++] = 0;
                }
                continue;
            }
            finish_module(&walk, stack[--depth]);
        }
    }
    apr_pool_destroy(scan);
    /* Every module is done: the body arenas' memory goes back for the
     * index to reuse. */
    apr_pool_destroy(walk.body_pool);
    spx_checker_finish(walk.checker);
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

/* W0604: a function that is not exported, that no other function calls and
 * that is neither the entry nor a test: nothing can run it. Only for a
 * program with a manifest (which names the entry and the tests). */
static void find_unused_functions(spx_project_t *project)
{
    apr_hash_t *named = apr_hash_make(project->pool); /* spx_function_t * -> "" */
    if (project->entry)
        apr_hash_set(named, &project->entry, sizeof(project->entry), "");
    for (apr_size_t i = 0; i < project->manifest->test_count; i++)
        if (project->tests[i])
            apr_hash_set(named, &project->tests[i], sizeof(project->tests[i]), "");
    for (apr_size_t m = 0; m < project->module_count; m++) {
        const spx_module_t *module = project->modules[m];
        for (apr_size_t f = 0; f < module->function_count; f++) {
            spx_function_t *function = module->functions[f];
            if (function->exported || function->called || !function->name.text ||
                apr_hash_get(named, &function, sizeof(function)))
                continue;
            spx_diagnostics_add(project->diagnostics, SPX_W0604, module->path, function->name.span,
                                "function '%s' is never called: it is not exported, and neither "
                                "the entry nor a test",
                                function->name.text);
        }
    }
}

/* Parse, check, link (with a manifest) and index the project's modules,
 * already made; sort the diagnostics and decide admission (no error:
 * warnings do not stop it, and are kept only when there is no error). A
 * project marked diagnostics_only is neither indexed nor compiled: every
 * diagnostic comes from the manifest, parsing, checking, linking and
 * find_unused_functions (which reads the checker's "called"), so its
 * diagnostics and admission are the full build's; it keeps each module's
 * findings, and reuses previous's where they hold (project_reuse.c). The
 * unused functions are found whatever the errors, so that the findings
 * hold them, and dropped with every warning when there is an error. */
static void build_program(spx_project_t *project, const spx_project_t *previous)
{
    int full = !project->diagnostics_only;
    apr_size_t source_bytes = 0;
    for (apr_size_t i = 0; i < project->module_count; i++)
        source_bytes += project->modules[i]->length;
    spx_arena_expect(project->arena, source_bytes); /* the trees and code take more */
    spx_index_builder_t *index = full ? spx_index_builder_make(project->pool, source_bytes) : NULL;
    spx_program_builder_t *program =
        full ? spx_program_builder_make(project->pool, project->arena) : NULL;
    number_modules(project);
    spx_reuse_t *reuse = full ? NULL : spx_reuse_start(project, previous);
    spx_project_check_data(project);
    walk_program(project, index, program, reuse);
    if (project->manifest)
        link_program(project);
    if (project->manifest)
        find_unused_functions(project);
    if (reuse)
        spx_reuse_finish(reuse);
    if (spx_diagnostics_error_count(project->diagnostics) > 0)
        spx_diagnostics_drop_warnings(project->diagnostics);
    spx_diagnostics_sort(project->diagnostics);
    project->admitted = spx_diagnostics_error_count(project->diagnostics) == 0;
    if (!full)
        return;
    spx_program_t *compiled = spx_program_finish(program);
    if (project->admitted) {
        project->index = spx_index_build(index, project);
        project->program = compiled;
    }
}

apr_status_t spx_project_open(spx_project_t **out, const char *manifest_path, apr_pool_t *pool,
                              const char **message)
{
    return spx_project_open_observed(out, manifest_path, pool, message, NULL, NULL);
}

/* Phase A's reading: hold and read the manifest, parse it, hold, read and
 * digest its sources. APR_SUCCESS with *build set when the program is to be
 * built next (the manifest parsed), 0 when the manifest has diagnostics. */
static apr_status_t read_inputs(spx_project_t *project, const char *manifest_path, apr_pool_t *pool,
                                const char **message, int *build)
{
    *build = 0;
    project->pool = pool;
    project->arena = spx_arena_make(pool);
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
        return APR_SUCCESS;
    }

    const spx_manifest_t *manifest = project->manifest;
    const char **paths = apr_palloc(pool, (manifest->source_count + 1) * sizeof(*paths));
    for (apr_size_t i = 0; i < manifest->source_count; i++)
        paths[i] = manifest->sources[i].path;
    status = spx_input_set_add_sources(project->inputs, paths, manifest->source_count, message);
    if (status != APR_SUCCESS)
        return status;
    const char **data_paths = apr_palloc(pool, (manifest->data_count + 1) * sizeof(*data_paths));
    for (apr_size_t i = 0; i < manifest->data_count; i++)
        data_paths[i] = manifest->data[i].path;
    status = spx_input_set_add_data(project->inputs, data_paths, manifest->data_count, message);
    if (status != APR_SUCCESS)
        return status;
    compute_revisions(project);
    *build = 1;
    return APR_SUCCESS;
}

apr_status_t spx_project_open_observed(spx_project_t **out, const char *manifest_path,
                                       apr_pool_t *pool, const char **message,
                                       void (*after_authentication)(void *context), void *context)
{
    spx_project_t *project = apr_pcalloc(pool, sizeof(*project));
    int build = 0;
    apr_status_t status = read_inputs(project, manifest_path, pool, message, &build);
    if (status != APR_SUCCESS)
        return status;
    if (!build) {
        *out = project;
        return APR_SUCCESS;
    }
    if (after_authentication)
        after_authentication(context);

    const spx_manifest_t *manifest = project->manifest;
    project->module_count = manifest->source_count;
    project->modules = apr_palloc(pool, (project->module_count + 1) * sizeof(spx_module_t *));
    for (apr_size_t i = 0; i < project->module_count; i++) {
        const spx_input_t *source = spx_input_set_source(project->inputs, i);
        project->modules[i] = spx_module_make(manifest->sources[i].module, source->path,
                                              source->bytes, source->size, project->arena);
    }
    build_program(project, NULL);
    *out = project;
    return APR_SUCCESS;
}

apr_status_t spx_project_read(spx_project_t **out, const char *manifest_path, apr_pool_t *pool,
                              const char **message)
{
    spx_project_t *project = apr_pcalloc(pool, sizeof(*project));
    int build = 0;
    apr_status_t status = read_inputs(project, manifest_path, pool, message, &build);
    if (status == APR_SUCCESS)
        *out = project;
    return status;
}

/* spx_project_rebuild and spx_project_rebuild_checked. */
static spx_project_t *rebuild(const spx_project_t *base, const unsigned char *const *texts,
                              const apr_size_t *lengths, int diagnostics_only,
                              const spx_project_t *previous, apr_pool_t *pool)
{
    spx_project_t *project = apr_pcalloc(pool, sizeof(*project));
    project->diagnostics_only = diagnostics_only;
    project->pool = pool;
    project->arena = spx_arena_make(pool);
    project->inputs = base->inputs;
    project->manifest_path = base->manifest_path;
    project->manifest = base->manifest;
    project->diagnostics = spx_diagnostics_make(pool);
    project->phase_a_runs = 1;
    project->module_count = base->module_count;
    project->modules = apr_palloc(pool, (project->module_count + 1) * sizeof(spx_module_t *));
    const char **digests = apr_palloc(pool, (project->module_count + 1) * sizeof(*digests));
    for (apr_size_t i = 0; i < project->module_count; i++) {
        const spx_input_t *source = spx_input_set_source(base->inputs, i);
        const unsigned char *text = texts[i] ? texts[i] : source->bytes;
        apr_size_t length = texts[i] ? lengths[i] : source->size;
        if (texts[i]) {
            spx_sha256_t digest;
            spx_sha256(text, length, &digest);
            digests[i] = spx_digest_text(&digest, pool);
        } else {
            digests[i] = source->digest_text;
        }
        project->modules[i] = spx_module_make(base->manifest->sources[i].module, source->path, text,
                                              length, project->arena);
    }
    project->project_revision = project_revision_of(project, digests);
    build_program(project, previous);
    return project;
}

spx_project_t *spx_project_rebuild(const spx_project_t *base, const unsigned char *const *texts,
                                   const apr_size_t *lengths, apr_pool_t *pool)
{
    return rebuild(base, texts, lengths, 0, NULL, pool);
}

spx_project_t *spx_project_rebuild_checked(const spx_project_t *base,
                                           const unsigned char *const *texts,
                                           const apr_size_t *lengths, const spx_project_t *previous,
                                           apr_pool_t *pool)
{
    return rebuild(base, texts, lengths, 1, previous, pool);
}

int spx_project_diagnostics_only(const spx_project_t *project)
{
    return project->diagnostics_only;
}

/* The module name of a single source's file name (MODULE.spx); NULL and
 * *message when it has none. */
static const char *source_module_name(const char *source_path, const char *file_name,
                                      apr_pool_t *pool, const char **message)
{
    static const char extension[] = ".spx";
    apr_size_t length = strlen(file_name), extension_length = sizeof(extension) - 1;
    if (length <= extension_length ||
        strcmp(file_name + length - extension_length, extension) != 0) {
        *message = apr_psprintf(pool, "source '%s' is not named MODULE.spx", source_path);
        return NULL;
    }
    const char *module = apr_pstrndup(pool, file_name, length - extension_length);
    const char *problem = spx_module_name_problem(module, pool);
    if (problem)
        *message = apr_psprintf(pool, "source '%s': the module name '%s' (the file's name) %s",
                                source_path, module, problem);
    return problem ? NULL : module;
}

/* Hold the directory of source_path and the file in it, read the file whole
 * through its handle, and let both go. */
static apr_status_t read_source(const char *source_path, const char *file_name,
                                unsigned char **bytes, apr_size_t *length, apr_pool_t *pool,
                                const char **message)
{
    const char *directory =
        file_name == source_path
            ? "."
            : apr_pstrndup(pool, source_path, (apr_size_t)(file_name - source_path));
    spx_dir_t *dir = NULL;
    apr_status_t status = spx_dir_open_root(&dir, directory, pool, message);
    if (status == APR_SUCCESS)
        status = spx_file_read_named(dir, file_name, SPX_LIMIT_SOURCE_BYTES, bytes, length, pool,
                                     message);
    if (dir)
        spx_dir_close(dir);
    return status;
}

apr_status_t spx_project_open_source(spx_project_t **out, const char *source_path, apr_pool_t *pool,
                                     const char **message)
{
    const char *file_name = apr_filepath_name_get(source_path);
    const char *module = source_module_name(source_path, file_name, pool, message);
    if (!module)
        return SPX_STATUS_BAD_PATH;
    unsigned char *bytes = NULL;
    apr_size_t length = 0;
    const char *reason = NULL;
    apr_status_t status = read_source(source_path, file_name, &bytes, &length, pool, &reason);
    if (status != APR_SUCCESS) {
        char text[256];
        *message = apr_psprintf(pool, "cannot read source '%s': %s", source_path,
                                reason ? reason : spx_strerror(status, text, sizeof(text)));
        return status;
    }

    spx_source_text_t text = {module, file_name, bytes, length};
    spx_project_t *project = spx_project_build_texts(&text, 1, pool);
    spx_sha256_t digest;
    spx_sha256(bytes, length, &digest);
    project->source_digest = spx_digest_text(&digest, pool);
    *out = project;
    return APR_SUCCESS;
}

spx_project_t *spx_project_build_texts(const spx_source_text_t *sources, apr_size_t count,
                                       apr_pool_t *pool)
{
    spx_project_t *project = apr_pcalloc(pool, sizeof(*project));
    project->pool = pool;
    project->arena = spx_arena_make(pool);
    project->diagnostics = spx_diagnostics_make(pool);
    project->phase_a_runs = 1;
    project->module_count = count;
    project->modules = apr_palloc(pool, (count + 1) * sizeof(spx_module_t *));
    for (apr_size_t i = 0; i < count; i++)
        project->modules[i] = spx_module_make(sources[i].module, sources[i].path, sources[i].bytes,
                                              sources[i].length, project->arena);
    project->tests = apr_pcalloc(pool, sizeof(void *));
    build_program(project, NULL);
    return project;
}

int spx_project_admitted(const spx_project_t *project)
{
    return project->admitted;
}

const spx_diagnostics_t *spx_project_diagnostics(const spx_project_t *project)
{
    return project->diagnostics;
}

spx_input_set_t *spx_project_inputs(const spx_project_t *project)
{
    return project->inputs;
}

int spx_project_has_manifest(const spx_project_t *project)
{
    return project->manifest != NULL;
}

const char *spx_project_name(const spx_project_t *project)
{
    return project->manifest ? project->manifest->name : NULL;
}

const char *spx_project_entry_name(const spx_project_t *project)
{
    return project->manifest ? project->manifest->entry : NULL;
}

apr_size_t spx_project_module_count(const spx_project_t *project)
{
    return project->module_count;
}

apr_size_t spx_project_test_count(const spx_project_t *project)
{
    return project->manifest ? project->manifest->test_count : 0;
}

const char *spx_project_revision(const spx_project_t *project)
{
    return project->project_revision;
}

const char *spx_project_workspace_revision(const spx_project_t *project)
{
    return project->workspace_revision;
}

uint64_t spx_project_phase_a_runs(const spx_project_t *project)
{
    return project->phase_a_runs;
}

json_t *spx_project_check_document(const spx_project_t *project)
{
    return json_pack("{s:b, s:o}", "admitted", project->admitted, "diagnostics",
                     spx_diagnostics_json(project->diagnostics));
}

json_t *spx_project_check_document_plain(const spx_project_t *project)
{
    return json_pack("{s:b, s:o}", "admitted", project->admitted, "diagnostics",
                     spx_diagnostics_json_plain(project->diagnostics));
}

json_t *spx_project_source_document(const spx_project_t *project)
{
    const spx_module_t *module = project->modules[0];
    return json_pack("{s:s, s:s, s:s}", "digest", project->source_digest, "module", module->name,
                     "path", module->path);
}

json_t *spx_project_snapshot_document(const spx_project_t *project, const char *manifest_path)
{
    const spx_input_t *manifest = spx_input_set_manifest(project->inputs);
    /* Sources sorted by path, as in project_revision. */
    json_t *sources = json_array();
    apr_size_t count = spx_input_set_source_count(project->inputs);
    for (apr_size_t i = 0; i < count; i++) {
        const spx_input_t *source = spx_input_set_source(project->inputs, i);
        size_t at = json_array_size(sources);
        while (at > 0 &&
               strcmp(json_string_value(json_object_get(json_array_get(sources, at - 1), "path")),
                      source->path) > 0)
            at--;
        json_array_insert_new(sources, at,
                              json_pack("{s:s,s:s,s:s,s:I}", "path", source->path, "module",
                                        project->manifest->sources[i].module, "digest",
                                        source->digest_text, "bytes", (json_int_t)source->size));
    }
    json_t *document =
        json_pack("{s:{s:s,s:s,s:o},s:o,s:s,s:s}", "manifest", "path", manifest_path, "digest",
                  manifest->digest_text, "subject", spx_manifest_subject(project->manifest),
                  "sources", sources, "project_revision", project->project_revision,
                  "workspace_revision", project->workspace_revision);
    if (spx_project_data_count(project) > 0)
        json_object_set_new(
            document, "data",
            spx_project_data_list(project, SPX_DATA_LIST_NAME | SPX_DATA_LIST_BYTES));
    return document;
}
