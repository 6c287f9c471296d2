/*
 * test_inputs.c: the held input set. Authentication refuses what the spec
 * refuses; re-authentication finds every kind of drift with its reason and
 * lets harmless changes pass (on Windows, where holding is authority, the
 * system denies the change instead, and there is no drift); neither writes
 * anything.
 */
#include "spx_inputs.h"
#include "spx_limits.h"
#include "spx_status.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

/* A small project: a manifest, a source at the root, and two in nested
 * directories. */
static const char *const project_sources[] = {"app.spx", "src/math.spx", "src/lib/util.spx"};
#define PROJECT_SOURCE_COUNT 3

static spx_fixture_t *make_project(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml", "manifest = \"semaprax.project-manifest.v1\"\n");
    spx_fixture_write(fixture, "app.spx", "import math;\n");
    spx_fixture_write(fixture, "src/math.spx", "export fn one() -> int { return 1; }\n");
    spx_fixture_write(fixture, "src/lib/util.spx", "fn two() -> int { return 2; }\n");
    return fixture;
}

/* Authenticate the fixture's project with the given sources; the status,
 * with *set and *message filled. */
static apr_status_t authenticate(spx_fixture_t *fixture, const char *const *sources,
                                 apr_size_t count, spx_input_set_t **set, const char **message)
{
    *message = NULL;
    apr_status_t status =
        spx_input_set_open(set, spx_fixture_path(fixture, "semaprax.toml"), fixture->pool, message);
    if (status == APR_SUCCESS)
        status = spx_input_set_add_sources(*set, sources, count, message);
    return status;
}

/* Authenticate the small project; from then on the fixture expects the
 * changes a test makes to held inputs to be denied where holding is authority
 * (Windows). */
static spx_input_set_t *authenticate_project(spx_fixture_t *fixture)
{
    spx_input_set_t *set = NULL;
    const char *message = NULL;
    apr_status_t status =
        authenticate(fixture, project_sources, PROJECT_SOURCE_COUNT, &set, &message);
    if (status != APR_SUCCESS)
        fprintf(stderr, "\n  %s\n", message);
    CU_ASSERT_EQUAL_FATAL(status, APR_SUCCESS);
    spx_fixture_expect_denials(fixture);
    return set;
}

/* The drift found now, as "path:reason" lines joined by ' ' ("" for none). */
static const char *drift_now(spx_fixture_t *fixture, spx_input_set_t *set)
{
    apr_array_header_t *drift = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_input_set_reauthenticate(set, fixture->pool, &drift), APR_SUCCESS);
    const char *text = "";
    for (int i = 0; i < drift->nelts; i++) {
        const spx_drift_t *record = &APR_ARRAY_IDX(drift, i, spx_drift_t);
        text = apr_psprintf(fixture->pool, "%s%s%s:%s", text, i ? " " : "", record->path,
                            spx_drift_reason_name(record->reason));
    }
    return text;
}

/* The drift found now is expected; or, when the system denied the change
 * (Windows: holding is authority), there is none: a change is either refused
 * or found, never missed. */
static void assert_drift(spx_fixture_t *fixture, spx_input_set_t *set, const char *expected)
{
    if (spx_fixture_denials(fixture) > 0)
        expected = "";
    const char *found = drift_now(fixture, set);
    if (strcmp(found, expected) != 0)
        fprintf(stderr, "\n  drift: got '%s', wanted '%s'\n", found, expected);
    CU_ASSERT_STRING_EQUAL(found, expected);
}

/* The refusal's status and a fragment of its message. */
static void assert_refused(spx_fixture_t *fixture, const char *const *sources, apr_size_t count,
                           apr_status_t expected_status, const char *fragment)
{
    spx_input_set_t *set = NULL;
    const char *message = NULL;
    apr_status_t status = authenticate(fixture, sources, count, &set, &message);
    CU_ASSERT_EQUAL(status, expected_status);
    CU_ASSERT_PTR_NOT_NULL_FATAL(message);
    if (!strstr(message, fragment))
        fprintf(stderr, "\n  message: got '%s', wanted '%s'\n", message, fragment);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, fragment));
}

/* --- authentication ----------------------------------------------------- */

static void test_authentication_records_bytes_and_digests(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    CU_ASSERT_EQUAL(spx_input_set_source_count(set), 3);
    const spx_input_t *math = spx_input_set_source(set, 1);
    CU_ASSERT_STRING_EQUAL(math->path, "src/math.spx");
    CU_ASSERT_EQUAL(math->size, strlen("export fn one() -> int { return 1; }\n"));
    CU_ASSERT_STRING_EQUAL((const char *)math->bytes, "export fn one() -> int { return 1; }\n");
    /* sha256sum of "import math;\n" */
    CU_ASSERT_STRING_EQUAL(
        spx_input_set_source(set, 0)->digest_text,
        "sha256:fc3a1fad3111c9ff31f5ad1c2cdec54c53578eeddafd116103dcb5b254927ee2");
    const spx_input_t *manifest = spx_input_set_manifest(set);
    CU_ASSERT_STRING_EQUAL(manifest->path, "semaprax.toml");
    CU_ASSERT_STRING_EQUAL((const char *)manifest->bytes,
                           "manifest = \"semaprax.project-manifest.v1\"\n");
    CU_ASSERT_PTR_NOT_NULL(spx_input_set_find(set, "src/lib"));
    CU_ASSERT_EQUAL(spx_input_set_find(set, "src/lib")->kind, SPX_OBJECT_DIR);
    CU_ASSERT_PTR_NULL(spx_input_set_find(set, "src/absent.spx"));
    spx_input_counters_t counters = spx_input_set_counters(set);
    CU_ASSERT_EQUAL(counters.authentications, 1);
    CU_ASSERT_EQUAL(counters.source_reads, 3);
    spx_fixture_free(fixture);
}

static void test_hard_link_is_a_duplicate_input(void)
{
    spx_fixture_t *fixture = make_project();
    spx_fixture_hard_link(fixture, "src/math.spx", "src/alias.spx");
    const char *sources[] = {"src/math.spx", "src/alias.spx"};
    assert_refused(fixture, sources, 2, SPX_STATUS_DUPLICATE,
                   "'src/math.spx' and 'src/alias.spx' are the same file system object");
    const char *twice[] = {"app.spx", "app.spx"};
    assert_refused(fixture, twice, 2, SPX_STATUS_DUPLICATE, "'app.spx' is declared twice");
    spx_fixture_free(fixture);
}

static void test_symlinks_refused_at_every_component(void)
{
    spx_fixture_t *fixture = make_project();
    if (!spx_fixture_symlinks_possible(fixture, "links refused at every component")) {
        spx_fixture_free(fixture);
        return;
    }
    spx_fixture_mkdir(fixture, "elsewhere/lib");
    spx_fixture_write(fixture, "elsewhere/lib/util.spx", "fn f() {}\n");
    /* a file that is a link, at the root and below it */
    spx_fixture_symlink(fixture, "app.spx", "root-link.spx");
    spx_fixture_symlink(fixture, "math.spx", "src/file-link.spx");
    /* a directory on the path that is a link: a child of the root, and deeper */
    spx_fixture_symlink(fixture, "elsewhere", "linked-dir");
    spx_fixture_symlink(fixture, "../elsewhere/lib", "src/linked-lib");

    const char *root_file[] = {"root-link.spx"};
    assert_refused(fixture, root_file, 1, SPX_STATUS_LINK, "'root-link.spx' is a symbolic link");
    const char *nested_file[] = {"src/file-link.spx"};
    assert_refused(fixture, nested_file, 1, SPX_STATUS_LINK,
                   "'src/file-link.spx' is a symbolic link");
    const char *root_child[] = {"linked-dir/lib/util.spx"};
    assert_refused(fixture, root_child, 1, SPX_STATUS_LINK, "'linked-dir' is a symbolic link");
    const char *nested_dir[] = {"src/linked-lib/util.spx"};
    assert_refused(fixture, nested_dir, 1, SPX_STATUS_LINK, "'src/linked-lib' is a symbolic link");
    spx_fixture_free(fixture);
}

static void test_manifest_that_is_a_link_is_refused(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    if (!spx_fixture_symlinks_possible(fixture, "a manifest that is a link")) {
        spx_fixture_free(fixture);
        return;
    }
    spx_fixture_write(fixture, "real.toml", "x\n");
    spx_fixture_symlink(fixture, "real.toml", "semaprax.toml");
    spx_input_set_t *set = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_input_set_open(&set, spx_fixture_path(fixture, "semaprax.toml"),
                                       fixture->pool, &message),
                    SPX_STATUS_LINK);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "'semaprax.toml' is a symbolic link"));
    spx_fixture_free(fixture);
}

static void test_non_regular_and_missing_are_refused(void)
{
    spx_fixture_t *fixture = make_project();
    if (spx_fixture_fifos_possible("a fifo declared as a source")) {
        spx_fixture_mkfifo(fixture, "fifo.spx");
        const char *fifo[] = {"fifo.spx"};
        assert_refused(fixture, fifo, 1, SPX_STATUS_NOT_REGULAR,
                       "'fifo.spx' is not a regular file");
    }
    spx_fixture_mkdir(fixture, "dir.spx");
    spx_fixture_write(fixture, "plain", "x");
    const char *dir[] = {"dir.spx"};
    assert_refused(fixture, dir, 1, SPX_STATUS_NOT_REGULAR, "'dir.spx' is not a regular file");
    const char *file_as_dir[] = {"plain/a.spx"};
    assert_refused(fixture, file_as_dir, 1, SPX_STATUS_NOT_REGULAR, "'plain' is not a directory");
    const char *missing[] = {"src/absent.spx"};
    assert_refused(fixture, missing, 1, APR_ENOENT, "cannot open 'src/absent.spx'");
    spx_fixture_free(fixture);
}

static void test_paths_leaving_the_root_are_refused(void)
{
    spx_fixture_t *fixture = make_project();
    const char *up[] = {"../outside.spx"};
    assert_refused(fixture, up, 1, SPX_STATUS_BAD_PATH, "source path '../outside.spx' has a '.'");
    const char *absolute[] = {"/etc/passwd.spx"};
    assert_refused(fixture, absolute, 1, SPX_STATUS_BAD_PATH, "is absolute");
    const char *inner[] = {"src/../app.spx"};
    assert_refused(fixture, inner, 1, SPX_STATUS_BAD_PATH, "'.' or '..' component");
    const char *wrong_end[] = {"semaprax.toml"};
    assert_refused(fixture, wrong_end, 1, SPX_STATUS_BAD_PATH, "does not end in '.spx'");
    spx_fixture_free(fixture);
}

static void test_source_size_limit(void)
{
    spx_fixture_t *fixture = make_project();
    spx_fixture_write_size(fixture, "at-limit.spx", SPX_LIMIT_SOURCE_BYTES);
    spx_fixture_write_size(fixture, "over-limit.spx", SPX_LIMIT_SOURCE_BYTES + 1);
    spx_input_set_t *set = NULL;
    const char *message = NULL;
    const char *at_limit[] = {"at-limit.spx"};
    CU_ASSERT_EQUAL(authenticate(fixture, at_limit, 1, &set, &message), APR_SUCCESS);
    const char *over[] = {"over-limit.spx"};
    assert_refused(fixture, over, 1, SPX_STATUS_TOO_LARGE,
                   "'over-limit.spx' is 16777217 bytes, over the limit of 16777216 bytes");
    spx_fixture_free(fixture);
}

static void test_manifest_size_limit(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write_size(fixture, "semaprax.toml", SPX_LIMIT_MANIFEST_BYTES + 1);
    spx_input_set_t *set = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_input_set_open(&set, spx_fixture_path(fixture, "semaprax.toml"),
                                       fixture->pool, &message),
                    SPX_STATUS_TOO_LARGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "over the limit of 1048576 bytes"));
    spx_fixture_free(fixture);
}

static void test_too_many_sources(void)
{
    spx_fixture_t *fixture = make_project();
    apr_size_t count = SPX_LIMIT_SOURCES + 1;
    const char **sources = apr_palloc(fixture->pool, count * sizeof(*sources));
    for (apr_size_t i = 0; i < count; i++)
        sources[i] = apr_psprintf(fixture->pool, "s%" APR_SIZE_T_FMT ".spx", i);
    spx_input_set_t *set = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL(authenticate(fixture, sources, count, &set, &message), SPX_STATUS_OVER_LIMIT);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "declares 4097 sources, over the limit of 4096"));
    spx_fixture_free(fixture);
}

static void test_total_source_bytes_limit(void)
{
    spx_fixture_t *fixture = make_project();
    /* 16 sources of 16 MiB reach the 256 MiB limit exactly; one more byte is over. */
    apr_size_t count = SPX_LIMIT_TOTAL_SOURCE_BYTES / SPX_LIMIT_SOURCE_BYTES;
    const char **sources = apr_palloc(fixture->pool, (count + 1) * sizeof(*sources));
    for (apr_size_t i = 0; i < count; i++) {
        sources[i] = apr_psprintf(fixture->pool, "big%02" APR_SIZE_T_FMT ".spx", i);
        spx_fixture_write_size(fixture, sources[i], SPX_LIMIT_SOURCE_BYTES);
    }
    sources[count] = "app.spx";
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_input_set_t *set = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL(
        spx_input_set_open(&set, spx_fixture_path(fixture, "semaprax.toml"), pool, &message),
        APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_input_set_add_sources(set, sources, count + 1, &message),
                    SPX_STATUS_OVER_LIMIT);
    CU_ASSERT_PTR_NOT_NULL(strstr(message, "over the limit of 268435456 bytes for all sources"));
    apr_pool_destroy(pool);
    spx_fixture_free(fixture);
}

static void test_identities_sorted_by_path_then_kind(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    json_t *identities = spx_input_set_identities(set);
    const char *expected[][2] = {
        {"", "dir"},        {"app.spx", "file"},          {"semaprax.toml", "file"}, {"src", "dir"},
        {"src/lib", "dir"}, {"src/lib/util.spx", "file"}, {"src/math.spx", "file"}};
    CU_ASSERT_EQUAL_FATAL(json_array_size(identities), 7);
    for (size_t i = 0; i < 7; i++) {
        json_t *entry = json_array_get(identities, i);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(entry, "path")), expected[i][0]);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(entry, "kind")), expected[i][1]);
        const spx_input_t *input = spx_input_set_find(set, expected[i][0]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(input);
        char object[SPX_IDENTITY_OBJECT_HEX], low[17];
        spx_identity_object_hex(&input->identity, object);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(entry, "object")), object);
        /* A 64-bit id (always on POSIX: st_ino) renders as it always did. */
        apr_snprintf(low, sizeof(low), "%" APR_UINT64_T_HEX_FMT,
                     (apr_uint64_t)input->identity.object);
        if (input->identity.object_high == 0)
            CU_ASSERT_STRING_EQUAL(object, low);
        CU_ASSERT_PTR_NOT_NULL(json_string_value(json_object_get(entry, "volume")));
        CU_ASSERT_EQUAL(json_object_size(entry), 4);
    }
    json_decref(identities);
    spx_fixture_free(fixture);
}

/* --- re-authentication: drift ------------------------------------------ */

static void test_no_drift_when_nothing_changed(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    assert_drift(fixture, set, "");
    assert_drift(fixture, set, "");
    spx_input_counters_t counters = spx_input_set_counters(set);
    CU_ASSERT_EQUAL(counters.authentications, 3);
    CU_ASSERT_EQUAL(counters.source_reads, 3 + 2 * 3);
    spx_fixture_free(fixture);
}

/* Every held source is checked: each in turn is edited in place (one byte,
 * same size), and exactly that one is found; every source is read once per
 * re-authentication. Two changes at once are both found. */
static void test_each_source_in_turn(void)
{
    for (apr_size_t k = 0; k < PROJECT_SOURCE_COUNT; k++) {
        spx_fixture_t *fixture = make_project();
        spx_input_set_t *set = authenticate_project(fixture);
        spx_fixture_patch(fixture, project_sources[k], 0, "#");
        assert_drift(fixture, set,
                     apr_pstrcat(fixture->pool, project_sources[k], ":content_changed", NULL));
        spx_input_counters_t counters = spx_input_set_counters(set);
        CU_ASSERT_EQUAL(counters.source_reads, 2 * PROJECT_SOURCE_COUNT);
        spx_fixture_free(fixture);
    }
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_patch(fixture, "semaprax.toml", 0, "#");
    spx_fixture_patch(fixture, "src/lib/util.spx", 0, "#");
    assert_drift(fixture, set, "semaprax.toml:content_changed src/lib/util.spx:content_changed");
    spx_fixture_free(fixture);
}

/* A project of SPX_PARALLEL_REHASH_BYTES and more is hashed by several
 * threads (when the machine has several processors). Whichever thread checks
 * a file, each drift is found, with the same list a single thread gives, and
 * every source counts as read once per re-authentication. */
static void test_large_project_hashed_by_several_threads(void)
{
    enum { SOURCES = 9 };
    const char *sources[SOURCES];
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml", "manifest = \"semaprax.project-manifest.v1\"\n");
    apr_size_t each = SPX_PARALLEL_REHASH_BYTES / (SOURCES - 1);
    for (int i = 0; i < SOURCES; i++) {
        sources[i] = apr_psprintf(fixture->pool, "src/m%d.spx", i);
        spx_fixture_write_size(fixture, sources[i], each + (apr_size_t)i * 1000);
    }
    spx_input_set_t *set = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(authenticate(fixture, sources, SOURCES, &set, &message), APR_SUCCESS);
    spx_fixture_expect_denials(fixture);
    CU_ASSERT_EQUAL(spx_input_set_rehash_threads(set), 1);
    assert_drift(fixture, set, "");
    CU_ASSERT_EQUAL(spx_input_set_rehash_threads(set),
                    spx_processor_count(SPX_LIMIT_REHASH_THREADS));
    CU_ASSERT_EQUAL(spx_input_set_counters(set).source_reads, 2 * SOURCES);
    /* The largest file (the first planned) and every other one after it. */
    for (int i = SOURCES - 1; i >= 0; i -= 2)
        spx_fixture_patch(fixture, sources[i], 10, "#");
    assert_drift(fixture, set,
                 "src/m0.spx:content_changed src/m2.spx:content_changed "
                 "src/m4.spx:content_changed src/m6.spx:content_changed "
                 "src/m8.spx:content_changed");
    CU_ASSERT_EQUAL(spx_input_set_counters(set).source_reads, 3 * SOURCES);
    spx_fixture_free(fixture);
}

/* A project under SPX_PARALLEL_REHASH_BYTES is hashed by the caller alone:
 * waking a helper would cost more than it saves. */
static void test_small_project_hashed_by_one_thread(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    assert_drift(fixture, set, "");
    CU_ASSERT_EQUAL(spx_input_set_rehash_threads(set), 1);
    spx_fixture_free(fixture);
}

static void test_in_place_edit_of_same_size(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_patch(fixture, "src/math.spx", 27, "2");
    assert_drift(fixture, set, "src/math.spx:content_changed");
    spx_fixture_free(fixture);
}

static void test_in_place_edit_with_mtime_restored(void)
{
    spx_fixture_t *fixture = make_project();
    apr_time_t mtime = spx_fixture_mtime(fixture, "app.spx");
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_patch(fixture, "app.spx", 0, "IMPORT");
    spx_fixture_set_mtime(fixture, "app.spx", mtime);
    CU_ASSERT_EQUAL(spx_fixture_mtime(fixture, "app.spx"), mtime);
    assert_drift(fixture, set, "app.spx:content_changed");
    spx_fixture_free(fixture);
}

static void test_replace_by_rename_with_identical_bytes(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_write(fixture, "src/math.spx.tmp", spx_fixture_read(fixture, "src/math.spx"));
    spx_fixture_rename(fixture, "src/math.spx.tmp", "src/math.spx");
    assert_drift(fixture, set, "src/math.spx:replaced");
    spx_fixture_free(fixture);
}

static void test_manifest_replaced_by_rename(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_write(fixture, "new.toml", spx_fixture_read(fixture, "semaprax.toml"));
    spx_fixture_rename(fixture, "new.toml", "semaprax.toml");
    assert_drift(fixture, set, "semaprax.toml:replaced");
    spx_fixture_free(fixture);
}

static void test_delete(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_remove(fixture, "src/lib/util.spx");
    assert_drift(fixture, set, "src/lib/util.spx:missing");
    spx_fixture_free(fixture);
}

static void test_file_swapped_for_symlink(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_rename(fixture, "app.spx", "app-moved.spx");
    spx_fixture_symlink(fixture, "app-moved.spx", "app.spx");
    assert_drift(fixture, set, "app.spx:not_regular");
    spx_fixture_free(fixture);
}

static void test_file_swapped_for_directory(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_remove(fixture, "app.spx");
    spx_fixture_mkdir(fixture, "app.spx");
    assert_drift(fixture, set, "app.spx:not_regular");
    spx_fixture_free(fixture);
}

static void test_directory_renamed_and_recreated_with_copies(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    const char *math = spx_fixture_read(fixture, "src/math.spx");
    const char *util = spx_fixture_read(fixture, "src/lib/util.spx");
    spx_fixture_rename(fixture, "src", "src-old");
    spx_fixture_write(fixture, "src/math.spx", math);
    spx_fixture_write(fixture, "src/lib/util.spx", util);
    /* The held handles still see the old, unchanged files; only the directory
     * name now leads elsewhere. */
    assert_drift(fixture, set, "src:replaced");
    spx_fixture_free(fixture);
}

static void test_nested_directory_swapped_for_symlink(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_rename(fixture, "src/lib", "lib-moved");
    spx_fixture_symlink(fixture, "../lib-moved", "src/lib");
    assert_drift(fixture, set, "src/lib:not_regular");
    spx_fixture_free(fixture);
}

static void test_root_renamed_away(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "project/semaprax.toml", "x\n");
    spx_fixture_write(fixture, "project/app.spx", "fn f() {}\n");
    spx_input_set_t *set = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_input_set_open(&set,
                                             spx_fixture_path(fixture, "project/semaprax.toml"),
                                             fixture->pool, &message),
                          APR_SUCCESS);
    const char *sources[] = {"app.spx"};
    CU_ASSERT_EQUAL_FATAL(spx_input_set_add_sources(set, sources, 1, &message), APR_SUCCESS);
    spx_fixture_expect_denials(fixture);
    spx_fixture_rename(fixture, "project", "project-old");
    assert_drift(fixture, set, ":missing");
    spx_fixture_mkdir(fixture, "project");
    assert_drift(fixture, set, ":replaced");
    spx_fixture_free(fixture);
}

static void test_truncation(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_truncate(fixture, "src/math.spx", 5);
    assert_drift(fixture, set, "src/math.spx:content_changed");
    spx_fixture_free(fixture);
}

static void test_appended_byte(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_append(fixture, "semaprax.toml", "\n");
    assert_drift(fixture, set, "semaprax.toml:content_changed");
    spx_fixture_free(fixture);
}

static void test_several_drifts_sorted_by_path(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_remove(fixture, "src/math.spx");
    spx_fixture_append(fixture, "app.spx", "x");
    assert_drift(fixture, set, "app.spx:content_changed src/math.spx:missing");
    spx_fixture_free(fixture);
}

/* --- re-authentication: no drift ---------------------------------------- */

static void test_touch_is_not_drift(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    apr_time_t later = spx_fixture_mtime(fixture, "src/math.spx") + 5 * APR_USEC_PER_SEC;
    spx_fixture_set_mtime(fixture, "src/math.spx", later);
    spx_fixture_set_mtime(fixture, "src", later);
    spx_fixture_set_mtime(fixture, "semaprax.toml", later);
    CU_ASSERT_EQUAL(spx_fixture_mtime(fixture, "src/math.spx"), later);
    assert_drift(fixture, set, "");
    spx_fixture_free(fixture);
}

static void test_chmod_is_not_drift(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    spx_fixture_chmod(fixture, "src/math.spx", APR_FPROT_UREAD);
    spx_fixture_chmod(fixture, "app.spx", APR_FPROT_OS_DEFAULT);
    assert_drift(fixture, set, "");
    spx_fixture_free(fixture);
}

static void test_reading_is_not_drift(void)
{
    spx_fixture_t *fixture = make_project();
    spx_input_set_t *set = authenticate_project(fixture);
    CU_ASSERT_PTR_NOT_NULL(spx_fixture_read(fixture, "src/math.spx"));
    CU_ASSERT_PTR_NOT_NULL(spx_fixture_read(fixture, "semaprax.toml"));
    assert_drift(fixture, set, "");
    spx_fixture_free(fixture);
}

/* --- nothing is written ------------------------------------------------- */

static void test_authentication_writes_nothing(void)
{
    spx_fixture_t *fixture = make_project();
    int links = spx_fixture_symlinks_possible(fixture, "a refused link writes nothing");
    if (links)
        spx_fixture_symlink(fixture, "app.spx", "link.spx");
    const char *before = spx_fixture_inventory(fixture);
    spx_input_set_t *set = authenticate_project(fixture);
    assert_drift(fixture, set, "");
    assert_drift(fixture, set, "");
    /* A refused authentication writes nothing either. */
    const char *link[] = {"link.spx"};
    if (links)
        assert_refused(fixture, link, 1, SPX_STATUS_LINK, "symbolic link");
    const char *after = spx_fixture_inventory(fixture);
    CU_ASSERT_STRING_EQUAL(before, after);
    CU_ASSERT_PTR_NOT_NULL(strstr(before, "src/lib/util.spx type="));
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"authentication records bytes and digests", test_authentication_records_bytes_and_digests},
        {"a large project is hashed by several threads",
         test_large_project_hashed_by_several_threads},
        {"a small project is hashed by one thread", test_small_project_hashed_by_one_thread},
        {"a hard link is a duplicate input", test_hard_link_is_a_duplicate_input},
        {"symlinks are refused at every component", test_symlinks_refused_at_every_component},
        {"a manifest that is a link is refused", test_manifest_that_is_a_link_is_refused},
        {"non-regular and missing sources are refused", test_non_regular_and_missing_are_refused},
        {"paths that leave the root are refused", test_paths_leaving_the_root_are_refused},
        {"limit: one source's size", test_source_size_limit},
        {"limit: the manifest's size", test_manifest_size_limit},
        {"limit: number of sources", test_too_many_sources},
        {"limit: all sources' size", test_total_source_bytes_limit},
        {"identities sorted by path then kind", test_identities_sorted_by_path_then_kind},
        {"no drift when nothing changed", test_no_drift_when_nothing_changed},
        {"each source in turn, and two at once", test_each_source_in_turn},
        {"drift: in-place edit of the same size", test_in_place_edit_of_same_size},
        {"drift: in-place edit, mtime restored", test_in_place_edit_with_mtime_restored},
        {"drift: replace-by-rename, identical bytes", test_replace_by_rename_with_identical_bytes},
        {"drift: manifest replaced by rename", test_manifest_replaced_by_rename},
        {"drift: delete", test_delete},
        {"drift: file swapped for a symlink", test_file_swapped_for_symlink},
        {"drift: file swapped for a directory", test_file_swapped_for_directory},
        {"drift: directory renamed away, recreated with copies",
         test_directory_renamed_and_recreated_with_copies},
        {"drift: nested directory swapped for a symlink",
         test_nested_directory_swapped_for_symlink},
        {"drift: root renamed away", test_root_renamed_away},
        {"drift: truncation", test_truncation},
        {"drift: appended byte", test_appended_byte},
        {"drift: several, sorted by path", test_several_drifts_sorted_by_path},
        {"no drift: touch", test_touch_is_not_drift},
        {"no drift: chmod", test_chmod_is_not_drift},
        {"no drift: reading", test_reading_is_not_drift},
        {"authentication writes nothing", test_authentication_writes_nothing},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("input authentication", tests);
}
