/*
 * inputs.c: the held input set: authentication at start, re-authentication
 * before and after every answer, and the identity list of the workspace
 * revision. Portable: it sees the file system only through spx_platform.h.
 */
#include "spx_inputs.h"

#include "spx_arena.h"
#include "spx_limits.h"
#include "spx_paths.h"
#include "spx_status.h"
#include "spx_workers.h"

#include <apr_file_info.h>
#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

struct spx_input_set_t {
    apr_pool_t *pool;
    const char *root_path;
    apr_array_header_t *held;    /* spx_input_t *, parents before children */
    apr_hash_t *by_path;         /* path -> spx_input_t * */
    apr_hash_t *by_identity;     /* volume+object bytes -> spx_input_t * */
    apr_array_header_t *sources; /* spx_input_t *, in declaration order */
    apr_array_header_t *data;    /* spx_input_t *, the data files in declaration order */
    spx_input_t *root;
    spx_input_t *manifest;
    int sources_added, data_added;
    spx_input_counters_t counters;
    /* Made at the first re-authentication: */
    struct rehash_plan_t *rehash_plan;
    spx_workers_t *team; /* NULL when the files are hashed by the caller alone */
    /* Every held file's bytes, side by side: in bulk memory once they pass
     * a chunk (spx_arena.h), so a large project's sources take a few page
     * faults, not one per 4 KiB. */
    spx_arena_t *bytes;
};

const char *spx_drift_reason_name(spx_drift_reason_t reason)
{
    switch (reason) {
    case SPX_DRIFT_CONTENT_CHANGED:
        return "content_changed";
    case SPX_DRIFT_REPLACED:
        return "replaced";
    case SPX_DRIFT_MISSING:
        return "missing";
    case SPX_DRIFT_NOT_REGULAR:
        return "not_regular";
    case SPX_DRIFT_IDENTITY_CHANGED:
        return "identity_changed";
    }
    return "unknown";
}

static apr_status_t refuse(apr_status_t status, const char **message, const char *text)
{
    if (message)
        *message = text;
    return status;
}

/* Record a newly held object, refusing an object already held under another
 * path (a hard link, or another spelling on a case-insensitive volume). */
static apr_status_t record_held(spx_input_set_t *set, spx_input_t *input, const char **message)
{
    uint64_t *key = apr_palloc(set->pool, 3 * sizeof(uint64_t));
    key[0] = input->identity.volume;
    key[1] = input->identity.object;
    key[2] = input->identity.object_high;
    const spx_input_t *other = apr_hash_get(set->by_identity, key, 3 * sizeof(uint64_t));
    if (other)
        return refuse(SPX_STATUS_DUPLICATE, message,
                      apr_psprintf(set->pool,
                                   "'%s' and '%s' are the same file system object; "
                                   "each input must be held under one path only",
                                   other->path[0] ? other->path : set->root_path, input->path));
    apr_hash_set(set->by_identity, key, 3 * sizeof(uint64_t), input);
    apr_hash_set(set->by_path, input->path, APR_HASH_KEY_STRING, input);
    APR_ARRAY_PUSH(set->held, spx_input_t *) = input;
    return APR_SUCCESS;
}

static spx_input_t *new_input(spx_input_set_t *set, const spx_input_t *parent, const char *name,
                              spx_object_kind_t kind)
{
    spx_input_t *input = apr_pcalloc(set->pool, sizeof(*input));
    input->parent = parent;
    input->name = name ? apr_pstrdup(set->pool, name) : NULL;
    input->kind = kind;
    if (!parent)
        input->path = "";
    else if (parent->path[0] == '\0')
        input->path = input->name;
    else
        input->path = apr_pstrcat(set->pool, parent->path, "/", name, NULL);
    return input;
}

static apr_status_t hold_dir(spx_input_set_t *set, const spx_input_t *parent, const char *name,
                             spx_input_t **held, const char **message)
{
    spx_input_t *input = new_input(set, parent, name, SPX_OBJECT_DIR);
    apr_status_t status = spx_dir_open_child(&input->dir, parent->dir, name, set->pool, message);
    if (status == APR_SUCCESS)
        status = spx_dir_identity(input->dir, &input->identity, set->pool, message);
    if (status == APR_SUCCESS)
        status = record_held(set, input, message);
    *held = input;
    return status;
}

/* Room for a held file's bytes in the set's arena (spx_buffer_fn). */
static void *bytes_buffer(void *arena, apr_size_t size)
{
    return spx_arena_alloc(arena, size, 1);
}

/* Hold a file, read it whole through its handle, and digest what was read. */
static apr_status_t hold_file(spx_input_set_t *set, const spx_input_t *parent, const char *name,
                              apr_size_t max_bytes, spx_input_t **held, const char **message)
{
    spx_input_t *input = new_input(set, parent, name, SPX_OBJECT_FILE);
    unsigned char *bytes = NULL;
    apr_status_t status = spx_file_open(&input->file, parent->dir, name, set->pool, message);
    if (status == APR_SUCCESS)
        status = spx_file_identity(input->file, &input->identity, set->pool, message);
    if (status == APR_SUCCESS)
        status = record_held(set, input, message);
    if (status == APR_SUCCESS)
        status = spx_file_read_all_into(input->file, max_bytes, bytes_buffer, set->bytes, &bytes,
                                        &input->size, set->pool, message);
    if (status == APR_SUCCESS) {
        input->bytes = bytes;
        input->identity.size = input->size;
        spx_sha256(bytes, input->size, &input->digest);
        input->digest_text = spx_digest_text(&input->digest, set->pool);
    }
    *held = input;
    return status;
}

apr_status_t spx_input_set_open(spx_input_set_t **out, const char *manifest_path, apr_pool_t *pool,
                                const char **message)
{
    spx_input_set_t *set = apr_pcalloc(pool, sizeof(*set));
    set->pool = pool;
    set->bytes = spx_arena_make(pool);
    set->held = apr_array_make(pool, 16, sizeof(spx_input_t *));
    set->by_path = apr_hash_make(pool);
    set->by_identity = apr_hash_make(pool);
    set->sources = apr_array_make(pool, 16, sizeof(spx_input_t *));
    set->data = apr_array_make(pool, 4, sizeof(spx_input_t *));

    const char *manifest_name = apr_filepath_name_get(manifest_path);
    if (manifest_name[0] == '\0')
        return refuse(SPX_STATUS_BAD_PATH, message,
                      apr_psprintf(pool, "manifest path '%s' does not name a file", manifest_path));
    set->root_path =
        manifest_name == manifest_path
            ? "."
            : apr_pstrndup(pool, manifest_path, (apr_size_t)(manifest_name - manifest_path));

    set->root = new_input(set, NULL, NULL, SPX_OBJECT_DIR);
    apr_status_t status = spx_dir_open_root(&set->root->dir, set->root_path, pool, message);
    if (status == APR_SUCCESS)
        status = spx_dir_identity(set->root->dir, &set->root->identity, pool, message);
    if (status == APR_SUCCESS)
        status = record_held(set, set->root, message);
    if (status == APR_SUCCESS)
        status = hold_file(set, set->root, manifest_name, SPX_LIMIT_MANIFEST_BYTES, &set->manifest,
                           message);
    if (status != APR_SUCCESS)
        return status;
    set->counters.authentications = 1;
    *out = set;
    return APR_SUCCESS;
}

/* How many handles the sources will need: one per file and per directory. */
static uint64_t handles_needed(const spx_input_set_t *set, const char *const *paths,
                               apr_size_t count, apr_pool_t *pool)
{
    apr_hash_t *dirs = apr_hash_make(pool);
    for (apr_size_t i = 0; i < count; i++)
        for (const char *slash = strchr(paths[i], '/'); slash; slash = strchr(slash + 1, '/'))
            apr_hash_set(dirs, apr_pstrndup(pool, paths[i], (apr_size_t)(slash - paths[i])),
                         APR_HASH_KEY_STRING, "");
    return (uint64_t)set->held->nelts + count + apr_hash_count(dirs) + SPX_LIMIT_SPARE_HANDLES;
}

/* What a kind of declared file is called, and its limits. */
typedef struct declared_kind_t {
    const char *what;      /* "source", "data" */
    const char *all;       /* "the sources", "the data files" */
    const char *all_short; /* "all sources", "all data" */
    apr_size_t max_bytes, max_total;
} declared_kind_t;

static const declared_kind_t source_kind = {"source", "the sources", "all sources",
                                            SPX_LIMIT_SOURCE_BYTES, SPX_LIMIT_TOTAL_SOURCE_BYTES};
static const declared_kind_t data_kind = {"data", "the data files", "all data",
                                          SPX_LIMIT_DATA_BYTES, SPX_LIMIT_TOTAL_DATA_BYTES};

/* Hold, read and digest one declared file and the directories on its path;
 * *total counts the bytes of its kind so far. */
static apr_status_t add_declared(spx_input_set_t *set, const declared_kind_t *kind,
                                 const char *path, apr_size_t *total, spx_input_t **held,
                                 const char **message)
{
    const spx_input_t *parent = set->root;
    const char *component = path;
    for (const char *slash = strchr(component, '/'); slash; slash = strchr(component, '/')) {
        const char *name = apr_pstrndup(set->pool, component, (apr_size_t)(slash - component));
        const char *dir_path = apr_pstrndup(set->pool, path, (apr_size_t)(slash - path));
        spx_input_t *dir = apr_hash_get(set->by_path, dir_path, APR_HASH_KEY_STRING);
        if (!dir) {
            apr_status_t status = hold_dir(set, parent, name, &dir, message);
            if (status != APR_SUCCESS)
                return status;
        } else if (dir->kind != SPX_OBJECT_DIR) {
            return refuse(SPX_STATUS_NOT_REGULAR, message,
                          apr_psprintf(set->pool, "'%s' is a %s file, not a directory", dir_path,
                                       set->data_added ? "declared" : "source"));
        }
        parent = dir;
        component = slash + 1;
    }
    const spx_input_t *held_already = apr_hash_get(set->by_path, path, APR_HASH_KEY_STRING);
    if (held_already)
        return refuse(SPX_STATUS_DUPLICATE, message,
                      apr_psprintf(set->pool,
                                   held_already == set->manifest ? "'%s' is the manifest itself"
                                                                 : "'%s' is declared twice",
                                   path));
    spx_input_t *file = NULL;
    apr_status_t status = hold_file(set, parent, component, kind->max_bytes, &file, message);
    if (status != APR_SUCCESS)
        return status;
    if (kind == &source_kind)
        set->counters.source_reads++;
    *total += file->size;
    if (*total > kind->max_total)
        return refuse(SPX_STATUS_OVER_LIMIT, message,
                      apr_psprintf(set->pool,
                                   "%s up to '%s' come to %" APR_SIZE_T_FMT
                                   " bytes, over the limit of %" APR_SIZE_T_FMT " bytes for %s",
                                   kind->all, path, *total, kind->max_total, kind->all_short));
    *held = file;
    return APR_SUCCESS;
}

/* Check the paths, reserve the handles, then hold each file of kind into
 * list. */
static apr_status_t add_all(spx_input_set_t *set, const declared_kind_t *kind,
                            const char *const *paths, apr_size_t count, apr_array_header_t *list,
                            const char **message)
{
    for (apr_size_t i = 0; i < count; i++) {
        const char *problem = kind == &source_kind ? spx_source_path_problem(paths[i], set->pool)
                                                   : spx_data_path_problem(paths[i], set->pool);
        if (problem)
            return refuse(
                SPX_STATUS_BAD_PATH, message,
                apr_psprintf(set->pool, "%s path '%s' %s", kind->what, paths[i], problem));
    }
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, set->pool);
    apr_status_t status =
        spx_handles_reserve(handles_needed(set, paths, count, scratch), set->pool, message);
    apr_pool_destroy(scratch);
    apr_size_t total = 0;
    for (apr_size_t i = 0; status == APR_SUCCESS && i < count; i++) {
        spx_input_t *file = NULL;
        status = add_declared(set, kind, paths[i], &total, &file, message);
        if (status == APR_SUCCESS)
            APR_ARRAY_PUSH(list, spx_input_t *) = file;
    }
    return status;
}

apr_status_t spx_input_set_add_sources(spx_input_set_t *set, const char *const *paths,
                                       apr_size_t count, const char **message)
{
    if (set->sources_added)
        return refuse(APR_EINVAL, message, "the sources of an input set are added once");
    set->sources_added = 1;
    if (count > SPX_LIMIT_SOURCES)
        return refuse(SPX_STATUS_OVER_LIMIT, message,
                      apr_psprintf(set->pool,
                                   "the manifest declares %" APR_SIZE_T_FMT
                                   " sources, over the limit of %u",
                                   count, SPX_LIMIT_SOURCES));
    return add_all(set, &source_kind, paths, count, set->sources, message);
}

apr_status_t spx_input_set_add_data(spx_input_set_t *set, const char *const *paths,
                                    apr_size_t count, const char **message)
{
    if (set->data_added || !set->sources_added)
        return refuse(APR_EINVAL, message,
                      "the data of an input set are added once, after the sources");
    set->data_added = 1;
    if (count > SPX_LIMIT_DATA_ENTRIES)
        return refuse(SPX_STATUS_OVER_LIMIT, message,
                      apr_psprintf(set->pool,
                                   "the manifest declares %" APR_SIZE_T_FMT
                                   " data files, over the limit of %u",
                                   count, SPX_LIMIT_DATA_ENTRIES));
    return add_all(set, &data_kind, paths, count, set->data, message);
}

apr_size_t spx_input_set_data_count(const spx_input_set_t *set)
{
    return (apr_size_t)set->data->nelts;
}

const spx_input_t *spx_input_set_data(const spx_input_set_t *set, apr_size_t index)
{
    return APR_ARRAY_IDX(set->data, index, const spx_input_t *);
}

const spx_input_t *spx_input_set_root(const spx_input_set_t *set)
{
    return set->root;
}

const spx_input_t *spx_input_set_manifest(const spx_input_set_t *set)
{
    return set->manifest;
}

apr_size_t spx_input_set_source_count(const spx_input_set_t *set)
{
    return (apr_size_t)set->sources->nelts;
}

const spx_input_t *spx_input_set_source(const spx_input_set_t *set, apr_size_t index)
{
    return APR_ARRAY_IDX(set->sources, index, const spx_input_t *);
}

const spx_input_t *spx_input_set_find(const spx_input_set_t *set, const char *path)
{
    return apr_hash_get(set->by_path, path, APR_HASH_KEY_STRING);
}

const char *spx_input_set_root_path(const spx_input_set_t *set)
{
    return set->root_path;
}

spx_input_counters_t spx_input_set_counters(const spx_input_set_t *set)
{
    return set->counters;
}

static int compare_by_path_then_kind(const void *left, const void *right)
{
    const spx_input_t *a = *(const spx_input_t *const *)left;
    const spx_input_t *b = *(const spx_input_t *const *)right;
    int order = strcmp(a->path, b->path);
    if (order != 0)
        return order;
    return (a->kind == SPX_OBJECT_FILE) - (b->kind == SPX_OBJECT_FILE); /* "dir" < "file" */
}

/* The held objects sorted by path then kind, in a copy from pool. */
static apr_array_header_t *sorted_held(const spx_input_set_t *set, apr_pool_t *pool)
{
    apr_array_header_t *sorted = apr_array_copy(pool, set->held);
    qsort(sorted->elts, (size_t)sorted->nelts, sizeof(spx_input_t *), compare_by_path_then_kind);
    return sorted;
}

json_t *spx_input_set_identities(const spx_input_set_t *set)
{
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, set->pool);
    apr_array_header_t *sorted = sorted_held(set, scratch);
    json_t *list = json_array();
    for (int i = 0; i < sorted->nelts; i++) {
        const spx_input_t *input = APR_ARRAY_IDX(sorted, i, const spx_input_t *);
        char volume[17], object[SPX_IDENTITY_OBJECT_HEX];
        apr_snprintf(volume, sizeof(volume), "%" APR_UINT64_T_HEX_FMT,
                     (apr_uint64_t)input->identity.volume);
        spx_identity_object_hex(&input->identity, object); /* up to 32 digits */
        json_array_append_new(list,
                              json_pack("{s:s, s:s, s:s, s:s}", "kind",
                                        input->kind == SPX_OBJECT_DIR ? "dir" : "file", "path",
                                        input->path, "volume", volume, "object", object));
    }
    apr_pool_destroy(scratch);
    return list;
}

/* Re-authentication of one held object gives the first way in which it no
 * longer matches what was authenticated, or 0 when it still does. A check
 * that cannot be completed counts as drift: the session can no longer vouch
 * for the object. */

/* Whether the name in the held parent (or, for the root, the host path)
 * still leads to the held object: 0, or why not. When it does, *named is
 * that object's identity, link count and size as the look saw them. */
static spx_drift_reason_t name_drift(const spx_input_set_t *set, const spx_input_t *input,
                                     spx_identity_t *named, apr_pool_t *pool)
{
    spx_name_state_t state;
    apr_status_t status =
        input->parent ? spx_dir_lookup(input->parent->dir, input->name, &state, named, pool, NULL)
                      : spx_path_lookup(set->root_path, &state, named, pool, NULL);
    if (status != APR_SUCCESS || state == SPX_NAME_MISSING)
        return SPX_DRIFT_MISSING;
    if (state == SPX_NAME_LINK || named->kind != input->kind)
        return SPX_DRIFT_NOT_REGULAR;
    if (!spx_identity_same_object(named, &input->identity))
        return SPX_DRIFT_REPLACED;
    return 0;
}

/* platform.md's steps 1 and 2 for a held directory. The look by name that
 * finds the held object is a look at that object: the handle's own is
 * made only when the name leads elsewhere, so that the reasons keep the
 * steps' order. */
static spx_drift_reason_t dir_drift(const spx_input_set_t *set, const spx_input_t *input,
                                    apr_pool_t *pool)
{
    spx_identity_t named, now;
    spx_drift_reason_t misnamed = name_drift(set, input, &named, pool);
    if (!misnamed)
        return 0;
    if (spx_dir_identity(input->dir, &now, pool, NULL) != APR_SUCCESS ||
        !spx_identity_same_object(&now, &input->identity))
        return SPX_DRIFT_IDENTITY_CHANGED;
    return misnamed;
}

/* platform.md's steps 1 to 3 for a held file. Its bytes are compared with
 * the copy read at authentication (exact, where a digest is only likely,
 * and at the speed of memory: no hashing; the digest made then stays the
 * revision's). Then the name is looked up: when it leads to the held
 * object, that look is the look at the object after the read (its link
 * count and size), which is all steps 1 and 3 ask of it. Only when it does
 * not is the handle itself looked at, so that the reasons keep the steps'
 * order. */
static spx_drift_reason_t file_drift(const spx_input_set_t *set, const spx_input_t *input,
                                     uint64_t *source_reads, apr_pool_t *pool)
{
    apr_size_t capacity =
        input->size < SPX_LIMIT_READ_CHUNK_BYTES ? input->size + 1 : SPX_LIMIT_READ_CHUNK_BYTES;
    int same = 0;
    apr_status_t read =
        spx_file_same_bytes(input->file, input->bytes, input->size, apr_palloc(pool, capacity),
                            capacity, &same, pool, NULL);
    if (input != set->manifest)
        (*source_reads)++;
    spx_identity_t now;
    spx_drift_reason_t misnamed = name_drift(set, input, &now, pool);
    if (misnamed && (spx_file_identity(input->file, &now, pool, NULL) != APR_SUCCESS ||
                     !spx_identity_same_object(&now, &input->identity)))
        return SPX_DRIFT_IDENTITY_CHANGED;
    if (misnamed)
        return misnamed;
    if (now.links == 0)
        return SPX_DRIFT_MISSING;
    if (read != APR_SUCCESS || now.size != input->size || !same)
        return SPX_DRIFT_CONTENT_CHANGED;
    return 0;
}

/* Largest first; equal sizes by path, so a plan is the same on every run. */
static int compare_inputs_by_size(const void *left, const void *right)
{
    const spx_input_t *a = *(const spx_input_t *const *)left;
    const spx_input_t *b = *(const spx_input_t *const *)right;
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    return strcmp(a->path, b->path);
}

static int compare_drift_by_path(const void *left, const void *right)
{
    return strcmp(((const spx_drift_t *)left)->path, ((const spx_drift_t *)right)->path);
}

/* The files of a re-authentication, shared out among a team's members by
 * size, largest first, each to the member with the fewest bytes so far. */
typedef struct rehash_plan_t {
    const spx_input_t **files; /* every held file, largest first */
    unsigned *member_of;       /* the member that checks files[i] */
    int count;
} rehash_plan_t;

static void plan_rehash(spx_input_set_t *set)
{
    rehash_plan_t *plan = apr_pcalloc(set->pool, sizeof(*plan));
    plan->files = apr_pcalloc(set->pool, (apr_size_t)set->held->nelts * sizeof(*plan->files));
    plan->member_of = apr_pcalloc(set->pool, (apr_size_t)set->held->nelts * sizeof(unsigned));
    uint64_t total = 0;
    for (int i = 0; i < set->held->nelts; i++) {
        const spx_input_t *input = APR_ARRAY_IDX(set->held, i, const spx_input_t *);
        if (input->kind == SPX_OBJECT_FILE) {
            plan->files[plan->count++] = input;
            total += input->size;
        }
    }
    qsort(plan->files, (size_t)plan->count, sizeof(*plan->files), compare_inputs_by_size);
    unsigned members = 1;
    if (total >= SPX_PARALLEL_REHASH_BYTES &&
        spx_workers_create(&set->team, SPX_LIMIT_REHASH_THREADS, SPX_WORKER_STACK_BYTES,
                           set->pool) == APR_SUCCESS)
        members = spx_workers_members(set->team);
    uint64_t load[SPX_LIMIT_REHASH_THREADS] = {0};
    for (int i = 0; i < plan->count; i++) {
        unsigned lightest = 0;
        for (unsigned m = 1; m < members; m++)
            if (load[m] < load[lightest])
                lightest = m;
        plan->member_of[i] = lightest;
        load[lightest] += plan->files[i]->size + 1;
    }
    set->rehash_plan = plan;
}

typedef struct rehash_job_t {
    const spx_input_set_t *set;
    const rehash_plan_t *plan;
    spx_drift_reason_t *reasons;                     /* one per planned file */
    uint64_t source_reads[SPX_LIMIT_REHASH_THREADS]; /* one per member */
} rehash_job_t;

static void rehash_share(void *data, unsigned member, unsigned members, apr_pool_t *scratch)
{
    (void)members;
    rehash_job_t *job = data;
    for (int i = 0; i < job->plan->count; i++) {
        if (job->plan->member_of[i] != member)
            continue;
        job->reasons[i] =
            file_drift(job->set, job->plan->files[i], &job->source_reads[member], scratch);
        apr_pool_clear(scratch);
    }
}

static void note_drift(apr_array_header_t *found, const spx_input_t *input,
                       spx_drift_reason_t reason)
{
    if (reason) {
        spx_drift_t *record = apr_array_push(found);
        record->path = input->path;
        record->reason = reason;
    }
}

unsigned spx_input_set_rehash_threads(const spx_input_set_t *set)
{
    return set->team ? spx_workers_members(set->team) : 1;
}

apr_status_t spx_input_set_reauthenticate(spx_input_set_t *set, apr_pool_t *pool,
                                          apr_array_header_t **drift)
{
    apr_array_header_t *found = apr_array_make(pool, 0, sizeof(spx_drift_t));
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    if (!set->rehash_plan)
        plan_rehash(set);
    /* Directories first, in the order held (parents before children): each
     * once, top-down. */
    for (int i = 0; i < set->held->nelts; i++) {
        const spx_input_t *input = APR_ARRAY_IDX(set->held, i, const spx_input_t *);
        if (input->kind == SPX_OBJECT_DIR) {
            note_drift(found, input, dir_drift(set, input, scratch));
            apr_pool_clear(scratch);
        }
    }
    /* Then the files, hashed side by side when the project is large. */
    const rehash_plan_t *plan = set->rehash_plan;
    rehash_job_t job = {
        set, plan, apr_pcalloc(pool, (apr_size_t)plan->count * sizeof(*job.reasons)), {0}};
    if (set->team)
        spx_workers_run(set->team, rehash_share, &job);
    else
        rehash_share(&job, 0, 1, scratch);
    apr_pool_destroy(scratch);
    for (int i = 0; i < plan->count; i++)
        note_drift(found, plan->files[i], job.reasons[i]);
    for (unsigned m = 0; m < SPX_LIMIT_REHASH_THREADS; m++)
        set->counters.source_reads += job.source_reads[m];
    qsort(found->elts, (size_t)found->nelts, sizeof(spx_drift_t), compare_drift_by_path);
    set->counters.authentications++;
    *drift = found;
    return APR_SUCCESS;
}
