/*
 * spx_project.h: Phase A, one engine call: authenticated inputs in, one
 * retained project out (architecture.md).
 *
 * spx_project_open() holds and reads the manifest, parses it, holds and reads
 * every declared source, then parses, checks and links the program and, when
 * it is admitted (no diagnostics), builds the semantic index from which the
 * graph and every context answer are made without touching a source again.
 * The daemon keeps the project for its session; the CLI builds it and exits.
 *
 * spx_project_open_source() is the same Phase A for one source file without
 * a manifest (`semaprax serve`, transport v1): one module named after the
 * file, no entry, no tests, no revisions; the file is read once and let go.
 */
#ifndef SPX_PROJECT_H
#define SPX_PROJECT_H

#include "spx_ast.h"
#include "spx_diagnostics.h"
#include "spx_inputs.h"
#include "spx_manifest.h"

#include <jansson.h>

typedef struct spx_index_t spx_index_t;
typedef struct spx_program_t spx_program_t;

typedef struct spx_project_t {
    apr_pool_t *pool;
    spx_arena_t *arena;        /* the modules' trees and the index */
    spx_input_set_t *inputs;   /* NULL for a single source */
    const char *manifest_path; /* as given by the host; NULL for a single source */
    /* NULL when the manifest did not parse (then no source is held and
     * diagnostics says why), and for a single source. */
    spx_manifest_t *manifest;
    spx_module_t **modules; /* in manifest order, one per source */
    apr_size_t module_count;
    spx_function_t *entry;          /* NULL without an entry */
    spx_function_t **tests;         /* manifest order, one per test */
    spx_diagnostics_t *diagnostics; /* sorted by path, offset, code */
    int admitted;                   /* the manifest (if any) parsed and no diagnostics */
    const char *project_revision;   /* NULL when the manifest did not parse */
    const char *workspace_revision; /* likewise */
    spx_index_t *index;             /* NULL unless admitted */
    spx_program_t *program;         /* the compiled functions; NULL unless admitted */
    uint64_t phase_a_runs;          /* 1 once built */
    /* The most modules whose bodies Phase A held at once: 1 for a program
     * whose imports form no cycle, in whatever order the manifest lists it. */
    apr_size_t most_bodies_held;
    const char *source_digest; /* a single source's digest; NULL for a manifest's project */
} spx_project_t;

/* Build the project of the manifest at manifest_path in pool. Returns
 * APR_SUCCESS with *project set whenever the inputs could be held and read,
 * whatever the diagnostics; a failure status with *message (naming the path
 * and what is wrong) when an input cannot be authenticated: missing,
 * unreadable, a link, not a regular file, over a limit. */
apr_status_t spx_project_open(spx_project_t **project, const char *manifest_path, apr_pool_t *pool,
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

#endif /* SPX_PROJECT_H */
