/*
 * project_reuse.c: what one diagnostics-only build (the language server's
 * publish after an edit, spx_project_rebuild_checked) keeps of each module
 * so that the next one over the same held inputs checks again only the
 * modules an edit can reach, and takes the rest's findings as they were
 * (docs/phase-a.md, "Re-checking only what an edit reaches").
 *
 * Every module is still parsed and declared and its structs and enums
 * checked, so the next modules see the same declarations a whole build
 * makes. What may be skipped is a module's function bodies, the bulk of
 * the work, and what follows from them: its diagnostics are then the
 * previous build's for its path, copied. A module's diagnostics depend on
 * its own text and on what it can read of the modules it imports, directly
 * or through their types (a field of a struct an imported function
 * returns), and on nothing else: no diagnostic of one module points into
 * another, the suggestions come from the module's own imports, and the
 * unused-function warning (W0604) reads calls from within the module alone.
 * So a module's bodies are checked again when:
 *   - its text changed; or
 *   - a module it imports, directly or not, changed what importers read:
 *     its interface, the bytes of its imports, structs, enums, consts, the
 *     headers of its exported functions and the names of its items that did
 *     not parse; or
 *   - a module it imports directly has a function that is not exported
 *     added, removed or with another header, and its text spells that
 *     function's name (only such a module can name it: "m.helper" is then
 *     "not exported" rather than "unknown", or the other way round; past
 *     SPX_REUSE_NAMES_SEARCHED such names, every direct importer); or
 *   - it is in an import cycle (its imports were not all finished before it).
 * Everything else a build decides across modules (the import and struct
 * cycles, the consts' values, the entry and the tests, whether any error
 * drops the warnings) is decided again by every build over every module.
 * Comparisons are of bytes, never of digests. The differential tests
 * (tests/engine/test_project.c) check that the result is, byte for byte,
 * the whole build's.
 */
#include "project_internal.h"

#include "spx_limits.h"

#include <apr_hash.h>
#include <apr_strings.h>
#include <string.h>

struct spx_reuse_t {
    spx_project_t *project;
    const spx_project_t *previous; /* NULL: nothing to reuse, every module is checked */
    char *finished;                /* per module: spx_reuse_may_skip was asked */
    char *public_changed;          /* per module: its interface differs from the previous */
    char *reaches;                 /* per module: it or what it imports changed an interface */
    apr_array_header_t **private_changed; /* per module: names (const char *), or NULL */
};

/* Append one piece of the interface: a kind letter, the length, the bytes. */
static void add_piece(apr_array_header_t *buffer, char kind, const unsigned char *bytes,
                      apr_size_t length)
{
    char head[32];
    int written = apr_snprintf(head, sizeof(head), "%c%" APR_SIZE_T_FMT ":", kind, length);
    for (int i = 0; i < written; i++)
        APR_ARRAY_PUSH(buffer, char) = head[i];
    for (apr_size_t i = 0; i < length; i++)
        APR_ARRAY_PUSH(buffer, char) = (char)bytes[i];
}

static void add_span(apr_array_header_t *buffer, char kind, const spx_module_t *module,
                     apr_size_t start, apr_size_t end)
{
    if (end > module->length)
        end = module->length;
    if (start > end)
        start = end;
    add_piece(buffer, kind, module->text + start, end - start);
}

/* A function's header: from "export"/"fn" to its body's "{" (the whole
 * item when the body did not open where expected: more bytes, never
 * fewer). */
static void function_header(const spx_function_t *function, apr_size_t *start, apr_size_t *end)
{
    *start = function->span.start.offset;
    *end = function->span.end.offset;
    apr_size_t body = function->body.span.start.offset;
    if (body > *start && body <= *end)
        *end = body;
}

/* The interface and the private headers of a module just parsed. */
static void take_interface(spx_module_findings_t *findings, const spx_module_t *module,
                           apr_pool_t *pool)
{
    apr_array_header_t *buffer = apr_array_make(pool, 256, sizeof(char));
    findings->private_headers = apr_hash_make(pool);
    for (apr_size_t i = 0; i < module->import_count; i++)
        add_span(buffer, 'i', module, module->imports[i].span.start.offset,
                 module->imports[i].span.end.offset);
    for (apr_size_t i = 0; i < module->struct_count; i++)
        add_span(buffer, 's', module, module->structs[i]->span.start.offset,
                 module->structs[i]->span.end.offset);
    for (apr_size_t i = 0; i < module->enum_count; i++)
        add_span(buffer, 'e', module, module->enums[i]->span.start.offset,
                 module->enums[i]->span.end.offset);
    for (apr_size_t i = 0; i < module->const_count; i++)
        add_span(buffer, 'c', module, module->consts[i]->span.start.offset,
                 module->consts[i]->span.end.offset);
    for (apr_size_t i = 0; i < module->function_count; i++) {
        const spx_function_t *function = module->functions[i];
        apr_size_t start = 0, end = 0;
        function_header(function, &start, &end);
        if (function->exported) {
            add_span(buffer, 'f', module, start, end);
        } else if (function->name.text && !apr_hash_get(findings->private_headers,
                                                        function->name.text, APR_HASH_KEY_STRING)) {
            /* The first of a name is the one a name finds. */
            apr_hash_set(findings->private_headers, function->name.text, APR_HASH_KEY_STRING,
                         apr_pstrndup(pool, (const char *)module->text + start, end - start));
        }
    }
    for (apr_size_t i = 0; i < module->unreadable_function_count; i++)
        add_piece(buffer, 'u', (const unsigned char *)module->unreadable_functions[i],
                  strlen(module->unreadable_functions[i]));
    for (apr_size_t i = 0; i < module->unreadable_item_count; i++)
        add_piece(buffer, 'v', (const unsigned char *)module->unreadable_items[i],
                  strlen(module->unreadable_items[i]));
    findings->interface = buffer->elts;
    findings->interface_length = (apr_size_t)buffer->nelts;
}

/* The names whose private header is in one table and not the other, or
 * differs; NULL when none. */
static apr_array_header_t *private_differences(apr_hash_t *now, apr_hash_t *before,
                                               apr_pool_t *pool)
{
    apr_array_header_t *names = NULL;
    for (int pass = 0; pass < 2; pass++) {
        apr_hash_t *from = pass ? before : now, *other = pass ? now : before;
        for (apr_hash_index_t *at = apr_hash_first(pool, from); at; at = apr_hash_next(at)) {
            const char *name = apr_hash_this_key(at);
            const char *header = apr_hash_this_val(at);
            const char *counterpart = apr_hash_get(other, name, APR_HASH_KEY_STRING);
            if (counterpart && (pass || strcmp(header, counterpart) == 0))
                continue; /* the same, or a difference the first pass found */
            if (!names)
                names = apr_array_make(pool, 2, sizeof(const char *));
            APR_ARRAY_PUSH(names, const char *) = name;
        }
    }
    return names;
}

/* Whether text spells name anywhere (a conservative test: inside a longer
 * name or a comment counts too). */
static int spells(const unsigned char *text, apr_size_t length, const char *name)
{
    apr_size_t name_length = strlen(name);
    if (name_length == 0 || name_length > length)
        return 0;
    for (const unsigned char *at = text, *last = text + (length - name_length); at <= last; at++) {
        at = memchr(at, name[0], (apr_size_t)(last - at) + 1);
        if (!at)
            return 0;
        if (memcmp(at, name, name_length) == 0)
            return 1;
    }
    return 0;
}

spx_reuse_t *spx_reuse_start(spx_project_t *project, const spx_project_t *previous)
{
    apr_pool_t *pool = project->pool;
    apr_size_t count = project->module_count;
    spx_reuse_t *reuse = apr_pcalloc(pool, sizeof(*reuse));
    reuse->project = project;
    /* Only a build over the same held inputs and manifest, with findings. */
    if (previous && previous->findings && previous->inputs == project->inputs &&
        previous->manifest == project->manifest && previous->module_count == count)
        reuse->previous = previous;
    reuse->finished = apr_pcalloc(pool, count + 1);
    reuse->public_changed = apr_pcalloc(pool, count + 1);
    reuse->reaches = apr_pcalloc(pool, count + 1);
    reuse->private_changed = apr_pcalloc(pool, (count + 1) * sizeof(*reuse->private_changed));
    project->findings = apr_pcalloc(pool, (count + 1) * sizeof(*project->findings));
    return reuse;
}

void spx_reuse_declared(spx_reuse_t *reuse, apr_size_t number)
{
    spx_project_t *project = reuse->project;
    spx_module_findings_t *findings = &project->findings[number];
    take_interface(findings, project->modules[number], project->pool);
    if (!reuse->previous)
        return;
    const spx_module_findings_t *before = &reuse->previous->findings[number];
    reuse->public_changed[number] =
        findings->interface_length != before->interface_length ||
        memcmp(findings->interface, before->interface, findings->interface_length) != 0;
    reuse->private_changed[number] =
        private_differences(findings->private_headers, before->private_headers, project->pool);
}

int spx_reuse_may_skip(spx_reuse_t *reuse, apr_size_t number)
{
    const spx_module_t *module = reuse->project->modules[number];
    int reached = 0, reaches = reuse->public_changed[number];
    for (apr_size_t i = 0; i < module->import_count; i++) {
        const apr_size_t *imported =
            spx_project_module_numbered(reuse->project, module->imports[i].module.text);
        if (!imported)
            continue; /* no such module: the same error whatever the others say */
        if (!reuse->finished[*imported]) {
            reached = reaches = 1; /* an import cycle: decided before its imports */
            continue;
        }
        if (reuse->reaches[*imported])
            reached = reaches = 1;
        const apr_array_header_t *names = reuse->private_changed[*imported];
        if (names && names->nelts > SPX_REUSE_NAMES_SEARCHED)
            reached = 1; /* too many to look for (spx_limits.h) */
        for (int n = 0; names && !reached && n < names->nelts; n++)
            reached = spells(module->text, module->length, APR_ARRAY_IDX(names, n, const char *));
    }
    reuse->finished[number] = 1;
    reuse->reaches[number] = (char)reaches;
    if (!reuse->previous || reached)
        return 0;
    const spx_module_t *before = reuse->previous->modules[number];
    if (before->length != module->length || memcmp(before->text, module->text, module->length) != 0)
        return 0;
    reuse->project->findings[number].reused = 1;
    return 1;
}

void spx_reuse_finish(spx_reuse_t *reuse)
{
    spx_project_t *project = reuse->project;
    apr_pool_t *pool = project->pool;
    apr_hash_t *by_path = apr_hash_make(pool); /* path -> apr_size_t * */
    apr_size_t *numbers = apr_palloc(pool, (project->module_count + 1) * sizeof(*numbers));
    for (apr_size_t m = 0; m < project->module_count; m++) {
        numbers[m] = m;
        apr_hash_set(by_path, project->modules[m]->path, APR_HASH_KEY_STRING, &numbers[m]);
        spx_module_findings_t *findings = &project->findings[m];
        findings->diagnostics = spx_diagnostics_make(pool);
        const spx_diagnostics_t *before =
            findings->reused ? reuse->previous->findings[m].diagnostics : NULL;
        for (apr_size_t i = 0; before && i < spx_diagnostics_count(before); i++)
            spx_diagnostics_add_copy(findings->diagnostics, spx_diagnostics_get(before, i));
    }
    /* This build's: the project's (the manifest's, the data files') kept,
     * each checked module's taken as its findings, a reused module's left
     * (its parse and declarations said the same again; its bodies, not
     * checked, would say more). */
    spx_diagnostics_t *assembled = spx_diagnostics_make(pool);
    const spx_diagnostics_t *built = project->diagnostics;
    for (apr_size_t i = 0; i < spx_diagnostics_count(built); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(built, i);
        const apr_size_t *module = apr_hash_get(by_path, item->path, APR_HASH_KEY_STRING);
        if (!module)
            spx_diagnostics_add_copy(assembled, item);
        else if (!project->findings[*module].reused)
            spx_diagnostics_add_copy(project->findings[*module].diagnostics, item);
    }
    for (apr_size_t m = 0; m < project->module_count; m++) {
        const spx_diagnostics_t *findings = project->findings[m].diagnostics;
        for (apr_size_t i = 0; i < spx_diagnostics_count(findings); i++)
            spx_diagnostics_add_copy(assembled, spx_diagnostics_get(findings, i));
    }
    project->diagnostics = assembled;
}

apr_size_t spx_project_modules_reused(const spx_project_t *project)
{
    apr_size_t reused = 0;
    for (apr_size_t m = 0; project->findings && m < project->module_count; m++)
        reused += project->findings[m].reused ? 1 : 0;
    return reused;
}
