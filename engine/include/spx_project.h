/*
 * spx_project.h: Phase A, one engine call: authenticated inputs in, one
 * retained project out (architecture.md).
 *
 * spx_project_open() holds and reads the manifest, parses it, holds and reads
 * every declared source, then parses, checks and links the program and, when
 * it is admitted (no error: warnings do not count), builds the semantic index from which the
 * graph and every context answer are made without touching a source again.
 * The daemon keeps the project for its session; the CLI builds it and exits.
 *
 * spx_project_open_source() is the same Phase A for one source file without
 * a manifest (`semaprax serve`, transport v1): one module named after the
 * file, no entry, no tests, no revisions; the file is read once and let go.
 */
#ifndef SPX_PROJECT_H
#define SPX_PROJECT_H

#include "spx_diagnostics.h"
#include "spx_inputs.h"

#include <jansson.h>

/* The project: opaque outside the engine (its trees, index and compiled
 * program are the engine's own, project_internal.h); read through the
 * accessors below. */
typedef struct spx_project_t spx_project_t;

/* 1 when the manifest (if any) parsed and Phase A found no error (warnings
 * do not count): only
 * then can graph, context, run and test answer. */
int spx_project_admitted(const spx_project_t *project);

/* Sorted by path, offset, code; empty when admitted. */
const spx_diagnostics_t *spx_project_diagnostics(const spx_project_t *project);

/* The held inputs, re-authenticated before and after every answer; NULL for
 * a single source. */
spx_input_set_t *spx_project_inputs(const spx_project_t *project);

/* 1 when the project came from a manifest that parsed (then the name, the
 * revisions, the entry and the tests below are known); 0 when the manifest
 * has diagnostics, and for a single source. */
int spx_project_has_manifest(const spx_project_t *project);

/* The manifest's [project] name; NULL without a parsed manifest. */
const char *spx_project_name(const spx_project_t *project);

/* The manifest's entry ("module.function"), NULL without one. */
const char *spx_project_entry_name(const spx_project_t *project);

/* How many modules (one per source) and tests the project declares. */
apr_size_t spx_project_module_count(const spx_project_t *project);
apr_size_t spx_project_test_count(const spx_project_t *project);

/* project_revision and workspace_revision (outputs.md); NULL when the
 * manifest did not parse, and for a single source; workspace_revision is
 * also NULL for a rebuilt project (nothing written yet). */
const char *spx_project_revision(const spx_project_t *project);
const char *spx_project_workspace_revision(const spx_project_t *project);

/* What is wrong with a project name ([a-z][a-z0-9_-]{0,63}, the manifest's
 * rule), as a phrase ("must start with a lowercase letter a-z"); NULL when
 * nothing is. */
const char *spx_project_name_problem(const char *name, apr_pool_t *pool);

/* How many times Phase A ran for this project: 1 once built. */
uint64_t spx_project_phase_a_runs(const spx_project_t *project);

/* Build the project of the manifest at manifest_path in pool. Returns
 * APR_SUCCESS with *project set whenever the inputs could be held and read,
 * whatever the diagnostics; a failure status with *message (naming the path
 * and what is wrong) when an input cannot be authenticated: missing,
 * unreadable, a link, not a regular file, over a limit. */
apr_status_t spx_project_open(spx_project_t **project, const char *manifest_path, apr_pool_t *pool,
                              const char **message);

/* Phase A's reading only, as spx_project_open does it (the same statuses
 * and messages): the manifest held, read and parsed, every declared source
 * held, read and digested, but no source parsed, checked or built, so the
 * project is not admitted, has no modules and takes no memory beyond its
 * inputs' bytes. For `semaprax fmt`, which lays out the held bytes and needs
 * neither the program nor the memory of building it. */
apr_status_t spx_project_read(spx_project_t **project, const char *manifest_path, apr_pool_t *pool,
                              const char **message);

/* spx_project_open(), calling after_authentication(context) once every input
 * is held, read and digested and before Phase A parses anything (not called
 * when the manifest has diagnostics or an input is refused). Phase A uses the
 * bytes read then, never the files again. The daemon's test build pauses
 * there, so that a test can change an input in that gap. */
apr_status_t spx_project_open_observed(spx_project_t **project, const char *manifest_path,
                                       apr_pool_t *pool, const char **message,
                                       void (*after_authentication)(void *context), void *context);

/* Phase A again, in memory, over base's held inputs with some sources'
 * texts replaced (the rename transaction's step 3): texts[i] and lengths[i]
 * for the i-th module (manifest order), or texts[i] NULL for the held
 * bytes. The texts must live as long as pool. The new project in pool
 * shares base's manifest and input set (which must outlive it); its
 * project_revision is that of the new texts, its workspace_revision NULL
 * (nothing is written). */
spx_project_t *spx_project_rebuild(const spx_project_t *base, const unsigned char *const *texts,
                                   const apr_size_t *lengths, apr_pool_t *pool);

/* spx_project_rebuild for the diagnostics only (the language server's
 * publish after an edit): the same parsing, checking, linking and unused-
 * function warning, so the same diagnostics, admission, check document and
 * project_revision, and the same modules and declarations for the position
 * queries (spx_lookup.h), but no index and no compiled program, which cost
 * about a third of Phase A (docs/phase-a.md). Such a project says so
 * (spx_project_diagnostics_only); what needs the index or the code refuses
 * it, even admitted: the graph (spx_index.h: no document, an empty walk),
 * context, run and test (spx_envelope.h) and rename (spx_rename.h).
 *
 * previous (NULL: none) is an earlier diagnostics-only rebuild of the same
 * base, alive until this returns: the function bodies of a module are then
 * checked only when the edit can reach them (its text changed, or what it
 * reads of the modules it imports did), and the rest's diagnostics are
 * previous's, copied; the result is the same, byte for byte (docs/phase-a.md,
 * "Re-checking only what an edit reaches"). Nothing of previous is kept. */
spx_project_t *spx_project_rebuild_checked(const spx_project_t *base,
                                           const unsigned char *const *texts,
                                           const apr_size_t *lengths, const spx_project_t *previous,
                                           apr_pool_t *pool);

/* How many modules a diagnostics-only rebuild took from its previous one
 * without checking their function bodies (0 for any other project). */
apr_size_t spx_project_modules_reused(const spx_project_t *project);

/* Whether the project was built by spx_project_rebuild_checked: it has
 * diagnostics and declarations, no graph and no code. */
int spx_project_diagnostics_only(const spx_project_t *project);

/* Build the project of the one source file at source_path in pool. The
 * file's name must be MODULE.spx, MODULE a module name of the manifest's
 * rule (spx_module_name_problem); the module and every path in diagnostics
 * and documents are that name, without the directories before it, so the
 * documents do not depend on where the file is. The file is opened through
 * the platform layer without following a link, read whole (at most
 * SPX_LIMIT_SOURCE_BYTES) and digested, then closed. Returns APR_SUCCESS
 * with *project whenever the file could be read, whatever the diagnostics
 * (an import is always one: no other module exists); otherwise a failure
 * status and *message naming the path and what is wrong. */
apr_status_t spx_project_open_source(spx_project_t **project, const char *source_path,
                                     apr_pool_t *pool, const char **message);

/* One module's text for spx_project_build_texts. */
typedef struct spx_source_text_t {
    const char *module; /* a module name of the manifest's rule */
    const char *path;   /* its display path in diagnostics and documents */
    const unsigned char *bytes;
    apr_size_t length;
} spx_source_text_t;

/* Phase A over texts already in memory, without a manifest and without
 * touching the file system: the modules are parsed, checked, indexed and
 * compiled exactly as spx_project_open_source does for its one file (no
 * entry, no tests, no revisions, no digest). The texts must outlive pool.
 * spx_project_open_source calls it once it has read its file; the fuzz
 * targets of the front end and the interpreter call it directly. */
spx_project_t *spx_project_build_texts(const spx_source_text_t *sources, apr_size_t count,
                                       apr_pool_t *pool);

/* A single source's facts: {"digest":D,"module":M,"path":P}, path being the
 * file's name. A new reference. */
json_t *spx_project_source_document(const spx_project_t *project);

/* The diagnostics as the document of `check`: {"admitted":B,"diagnostics":[...]}.
 * A new reference. */
json_t *spx_project_check_document(const spx_project_t *project);

/* The same in the shape of transport v1 (spx_diagnostics_json_plain). */
json_t *spx_project_check_document_plain(const spx_project_t *project);

/* The daemon's workspace/snapshot result for a manifest's project: the
 * manifest (the path it was opened by, its digest, its subject), every source
 * sorted by path (path, module, digest, bytes) and both revisions. A new
 * reference. */
json_t *spx_project_snapshot_document(const spx_project_t *project, const char *manifest_path);

#endif /* SPX_PROJECT_H */
