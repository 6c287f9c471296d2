/*
 * spx_inputs.h: the held input set, authenticated once and re-checked on
 * demand (platform.md, Authentication).
 *
 * A set holds the project root, the manifest, every declared source and every
 * directory on a source's path, each opened one component at a time from a
 * held parent without following links. It records each object's identity and
 * each file's bytes and digest as read through its handle. Re-authentication
 * checks every held object again and reports drift; it never writes, locks or
 * creates anything, and neither does authentication. The daemon and the CLI
 * both build their projects from a set.
 *
 * Use: spx_input_set_open() with the manifest path (holds the root and the
 * manifest and reads it), then spx_input_set_add_sources() once with the
 * manifest's source paths, then spx_input_set_add_data() with its [[data]]
 * paths (manifest v2; data files are held exactly like sources).
 */
#ifndef SPX_INPUTS_H
#define SPX_INPUTS_H

#include "spx_digest.h"
#include "spx_platform.h"

#include <apr_tables.h>
#include <jansson.h>

typedef enum spx_drift_reason_t {
    SPX_DRIFT_CONTENT_CHANGED = 1, /* bytes differ from those authenticated */
    SPX_DRIFT_REPLACED,            /* the name now leads to another object */
    SPX_DRIFT_MISSING,             /* the name is gone (or cannot be looked up) */
    SPX_DRIFT_NOT_REGULAR,         /* the name is now a link or another kind */
    SPX_DRIFT_IDENTITY_CHANGED     /* the held handle itself names another object */
} spx_drift_reason_t;

/* One drift record (platform.md): which held path, and why. */
typedef struct spx_drift_t {
    const char *path;
    spx_drift_reason_t reason;
} spx_drift_t;

/* One held object. The fields are the authenticated facts; read them, never
 * change them. */
typedef struct spx_input_t {
    const char *path;       /* relative to the root, '/'-separated; "" for the root */
    spx_object_kind_t kind; /* SPX_OBJECT_DIR or SPX_OBJECT_FILE */
    spx_identity_t identity;
    /* Files only: the bytes read at authentication (a NUL follows them, not
     * counted in size), and their digest. */
    const unsigned char *bytes;
    apr_size_t size;
    spx_sha256_t digest;
    const char *digest_text;
    /* How the object is held. */
    spx_dir_t *dir;
    spx_file_t *file;
    const struct spx_input_t *parent; /* NULL for the root */
    const char *name;                 /* the last component; NULL for the root */
} spx_input_t;

/* Proof of work done: how often the set was (re)authenticated and how many
 * times a declared source's bytes were read through its handle. */
typedef struct spx_input_counters_t {
    uint64_t authentications;
    uint64_t source_reads;
} spx_input_counters_t;

typedef struct spx_input_set_t spx_input_set_t;

/* "content_changed", "replaced", "missing", "not_regular", "identity_changed". */
const char *spx_drift_reason_name(spx_drift_reason_t reason);

/* Hold the directory that contains manifest_path (the project root) and the
 * manifest in it, and read the manifest (at most SPX_LIMIT_MANIFEST_BYTES).
 * Everything the set holds lives in pool. */
apr_status_t spx_input_set_open(spx_input_set_t **set, const char *manifest_path, apr_pool_t *pool,
                                const char **message);

/* Hold, read and digest the declared sources, given by their manifest paths,
 * and every directory on their paths. Refuses (with a message naming the
 * path): a path that breaks a source-path rule, a link anywhere on a path, a
 * non-regular file or a non-directory where a directory is needed, two paths
 * (files or directories) that reach one object, more than SPX_LIMIT_SOURCES
 * sources, a source over SPX_LIMIT_SOURCE_BYTES, and more than
 * SPX_LIMIT_TOTAL_SOURCE_BYTES in all. Call once per set. */
apr_status_t spx_input_set_add_sources(spx_input_set_t *set, const char *const *paths,
                                       apr_size_t count, const char **message);

/* The same for the data files of a v2 manifest ([[data]] paths), after the
 * sources: the data path rules (any ending), SPX_LIMIT_DATA_ENTRIES files,
 * SPX_LIMIT_DATA_BYTES each and SPX_LIMIT_TOTAL_DATA_BYTES in all; a data
 * file that is the same object as another input is refused as a source is.
 * Held, re-authenticated and listed in the identities like a source. Call
 * once per set (also with count 0). */
apr_status_t spx_input_set_add_data(spx_input_set_t *set, const char *const *paths,
                                    apr_size_t count, const char **message);
apr_size_t spx_input_set_data_count(const spx_input_set_t *set);
/* The index-th data file, in the order given to spx_input_set_add_data(). */
const spx_input_t *spx_input_set_data(const spx_input_set_t *set, apr_size_t index);

const spx_input_t *spx_input_set_root(const spx_input_set_t *set);
const spx_input_t *spx_input_set_manifest(const spx_input_set_t *set);
apr_size_t spx_input_set_source_count(const spx_input_set_t *set);
/* The index-th source, in the order given to spx_input_set_add_sources(). */
const spx_input_t *spx_input_set_source(const spx_input_set_t *set, apr_size_t index);
/* The held object at path, or NULL. */
const spx_input_t *spx_input_set_find(const spx_input_set_t *set, const char *path);
/* The root's path as the host gave it. */
const char *spx_input_set_root_path(const spx_input_set_t *set);
spx_input_counters_t spx_input_set_counters(const spx_input_set_t *set);
/* How many threads re-authentication hashes the files with: 1 before the
 * first re-authentication and for a project under SPX_PARALLEL_REHASH_BYTES,
 * otherwise up to SPX_LIMIT_REHASH_THREADS, no more than the processors. */
unsigned spx_input_set_rehash_threads(const spx_input_set_t *set);

/* The identity list of outputs.md's workspace_revision: one object
 * {"kind","path","volume","object"} per held object, sorted by path then kind;
 * volume and object in lowercase hex without leading zeros, object up to 32
 * digits (spx_identity_object_hex: a 128-bit Windows file id; on POSIX and
 * NTFS the 64-bit number alone). A new reference. */
json_t *spx_input_set_identities(const spx_input_set_t *set);

/* Check every held object again (directories once each, top-down, then the
 * files, shared among the rehash threads). *drift is
 * an array of spx_drift_t, sorted by path, empty when nothing changed; it and
 * all scratch memory come from pool. */
apr_status_t spx_input_set_reauthenticate(spx_input_set_t *set, apr_pool_t *pool,
                                          apr_array_header_t **drift);

#endif /* SPX_INPUTS_H */
