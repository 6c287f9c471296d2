/*
 * spx_manifest.h: Project Manifest v1 (`semaprax.toml`, manifest.md): the
 * strict TOML subset, its rules, and the canonical manifest subject.
 *
 * The parser fails closed: anything outside the subset, and every broken
 * rule, is an E01xx diagnostic at the exact line and column of the key,
 * value or table header at fault (docs/manifest-parser.md lists the codes).
 * It checks what the manifest alone can tell; whether the entry and test
 * functions exist with the signature fn() -> int is checked in Phase A
 * (E0150, E0151), and file identities by the input set.
 */
#ifndef SPX_MANIFEST_H
#define SPX_MANIFEST_H

#include "spx_diagnostics.h"

#include <apr_pools.h>
#include <jansson.h>
#include <stdint.h>

/* The values of the `manifest` key: v1, and v2 (language v3), which may also
 * use [limits], [[data]] and a test's limit keys. */
#define SPX_MANIFEST_SCHEMA "semaprax.project-manifest.v1"
#define SPX_MANIFEST_SCHEMA_V2 "semaprax.project-manifest.v2"

/* The limit keys of [limits] and of a v2 [[test]]: each given or not. */
typedef struct spx_manifest_limits_t {
    int has_max_steps, has_max_memory, has_max_call_depth;
    uint64_t max_steps, max_memory, max_call_depth;
} spx_manifest_limits_t;

/* One [[source]] table. Spans cover the value with its quotes. */
typedef struct spx_manifest_source_t {
    const char *module;
    const char *path;
    spx_span_t module_span, path_span;
} spx_manifest_source_t;

/* One [[test]] table. */
typedef struct spx_manifest_test_t {
    const char *name;
    const char *function; /* MODULE.FUNCTION */
    spx_span_t name_span, function_span;
    spx_manifest_limits_t limits; /* the test's own limit keys (v2) */
} spx_manifest_test_t;

/* One [[data]] table (v2). */
typedef struct spx_manifest_data_t {
    const char *name;
    const char *path;
    spx_span_t name_span, path_span;
} spx_manifest_data_t;

/* A manifest that keeps every rule; everything lives in the parse pool. */
typedef struct spx_manifest_t {
    const char *name, *version, *entry; /* entry NULL when absent */
    spx_span_t entry_span;              /* zero when entry is absent */
    spx_manifest_source_t *sources;     /* manifest order */
    apr_size_t source_count;
    spx_manifest_test_t *tests; /* manifest order */
    apr_size_t test_count;
    int schema_version;           /* 1 or 2: which `manifest` value it has */
    spx_manifest_limits_t limits; /* [limits] (v2); nothing given in v1 */
    spx_manifest_data_t *data;    /* [[data]] (v2), manifest order */
    apr_size_t data_count;
} spx_manifest_t;

/* Parse the manifest's raw bytes. path is the manifest's display path (e.g.
 * "semaprax.toml") used in diagnostics. Returns the manifest, or NULL when any
 * diagnostic was added (all problems found are reported, unsorted; the caller
 * sorts). */
spx_manifest_t *spx_manifest_parse(const unsigned char *bytes, apr_size_t length, const char *path,
                                   apr_pool_t *pool, spx_diagnostics_t *diagnostics);

/* The canonical manifest subject of manifest.md as a Jansson object (new
 * reference): sources sorted by path, tests in manifest order, entry absent
 * when none. A v2 manifest's subject has its schema, and always `limits` and
 * `data` (sorted by path); a test's limit keys only when given. */
json_t *spx_manifest_subject(const spx_manifest_t *manifest);

/* What is wrong with name as a module name ([a-z][a-z0-9_]*, at most
 * SPX_LIMIT_IDENTIFIER_BYTES), as a phrase that follows the name ("is
 * empty", "contains '-'; ..."), allocated in pool; NULL when it is one. The
 * manifest's rule, shared with the single-source projects of `serve`. */
const char *spx_module_name_problem(const char *name, apr_pool_t *pool);

/* The data entry named name, or NULL. */
const spx_manifest_data_t *spx_manifest_find_data(const spx_manifest_t *manifest, const char *name);

#endif /* SPX_MANIFEST_H */
