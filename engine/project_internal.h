/*
 * project_internal.h: what a retained project holds, for the engine's own
 * files (Phase A builds it, the index, context, envelope and rename read
 * it). Outside the engine a project is opaque (spx_project.h).
 */
#ifndef SPX_PROJECT_INTERNAL_H
#define SPX_PROJECT_INTERNAL_H

#include "spx_ast.h"
#include "spx_inputs.h"
#include "spx_manifest.h"
#include "spx_project.h"
#include "spx_vm.h"

#include <apr_hash.h>

typedef struct spx_index_t spx_index_t;

/* What a diagnostics-only build keeps of one module, for the next such
 * build to reuse (project_reuse.c). */
typedef struct spx_module_findings_t {
    /* What importers read of it: its imports, structs, enums and consts, its
     * exported functions' headers and its unreadable items' names, as
     * (kind, length, bytes) pieces. */
    const char *interface;
    apr_size_t interface_length;
    apr_hash_t *private_headers;    /* name -> header, of its functions not exported */
    spx_diagnostics_t *diagnostics; /* of its path, warnings included (none dropped) */
    int reused;                     /* its bodies were not checked: diagnostics are copied */
} spx_module_findings_t;

struct spx_project_t {
    apr_pool_t *pool;
    spx_arena_t *arena;        /* the modules' trees and the index */
    spx_input_set_t *inputs;   /* NULL for a single source */
    const char *manifest_path; /* as given by the host; NULL for a single source */
    /* NULL when the manifest did not parse (then no source is held and
     * diagnostics says why), and for a single source. */
    spx_manifest_t *manifest;
    spx_module_t **modules; /* in manifest order, one per source */
    apr_size_t module_count;
    apr_hash_t *module_numbers; /* module name -> apr_size_t *: its number (the first of a name) */
    spx_function_t *entry;      /* NULL without an entry */
    spx_function_t **tests;     /* manifest order, one per test */
    spx_diagnostics_t *diagnostics; /* sorted by path, offset, code */
    int admitted;                   /* the manifest (if any) parsed and no error */
    const char *project_revision;   /* NULL when the manifest did not parse */
    const char *workspace_revision; /* likewise */
    spx_index_t *index;             /* NULL unless admitted and not diagnostics_only */
    spx_program_t *program;         /* the compiled functions; likewise */
    /* Built by spx_project_rebuild_checked: diagnostics and declarations,
     * no index and no code (spx_project_diagnostics_only). */
    int diagnostics_only;
    spx_module_findings_t *findings; /* per module when diagnostics_only, else NULL */
    uint64_t phase_a_runs;           /* 1 once built */
    /* The most modules whose bodies Phase A held at once: 1 for a program
     * whose imports form no cycle, in whatever order the manifest lists it. */
    apr_size_t most_bodies_held;
    const char *source_digest; /* a single source's digest; NULL for a manifest's project */
    const spx_data_entry_t *data_entries; /* v3: the [[data]] entries, manifest order */
    apr_size_t data_entry_count;
};

/* The number in modules of the module named name (the first of that name),
 * or NULL: none (or name NULL). */
const apr_size_t *spx_project_module_numbered(const spx_project_t *project, const char *name);

/* --- reuse between diagnostics-only builds (project_reuse.c) --- */

typedef struct spx_reuse_t spx_reuse_t;

/* Start keeping findings for project (a diagnostics-only build, modules
 * made, none parsed), reusing previous's where they still hold: previous
 * must be a diagnostics-only build over the same held inputs (anything
 * else, or NULL, reuses nothing). */
spx_reuse_t *spx_reuse_start(spx_project_t *project, const spx_project_t *previous);

/* Module number is parsed and declared: take its interface. */
void spx_reuse_declared(spx_reuse_t *reuse, apr_size_t number);

/* Module number is about to have its bodies checked, its imports finished
 * before it (in an import cycle, not all): 1 when its previous findings
 * still hold, so that only its items need checking (spx_checker_check_items);
 * 0 when its functions must be checked. Asked once per module. */
int spx_reuse_may_skip(spx_reuse_t *reuse, apr_size_t number);

/* Every module is checked, the entry and tests linked and the unused
 * functions found: each module's findings taken (this build's, or a reused
 * module's copied), and the project's diagnostics made of the project's own
 * and every module's findings, unsorted, warnings kept. */
void spx_reuse_finish(spx_reuse_t *reuse);

/* --- data files (project_data.c) --- */

/* Add an E0155 for each data file that is not valid UTF-8 (at its first
 * ill-formed bytes). */
void spx_project_check_data(spx_project_t *project);

/* Which members spx_project_data_list gives beside digest and path. */
#define SPX_DATA_LIST_NAME 1u
#define SPX_DATA_LIST_BYTES 2u

/* The data files as [{"digest","path"[,"name"][,"bytes"]}], sorted by path;
 * [] without data. A new reference. */
json_t *spx_project_data_list(const spx_project_t *project, unsigned members);

/* How many data files the project declares (0 without a manifest). */
apr_size_t spx_project_data_count(const spx_project_t *project);

/* The entries read_data may name, in manifest order, over the held bytes. */
const spx_data_entry_t *spx_project_data_entries(const spx_project_t *project, apr_size_t *count);

/* The held data file the manifest names name, or NULL. */
const spx_input_t *spx_project_data_named(const spx_project_t *project, const char *name);

#endif /* SPX_PROJECT_INTERNAL_H */
