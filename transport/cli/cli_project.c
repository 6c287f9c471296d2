/*
 * cli_project.c: the `semaprax` CLI's work on whole project folders.
 *
 * Finding the manifest: without --manifest-path, semaprax.toml is looked for
 * in the working directory, then in each parent folder up to the file-system
 * root, and the first one found is the project (as cargo does for
 * Cargo.toml; there is no stop at a repository or home folder, docs/cli.md).
 * The path handed to the engine is relative to the working directory
 * ("../semaprax.toml"), and the engine shows every path relative to the
 * manifest's folder, so outputs do not depend on where the command ran.
 *
 * `semaprax new NAME`: the project is written into a temporary folder beside
 * NAME (.NAME.new-N), then that folder is renamed to NAME; on any failure
 * the temporary folder is removed, so NAME either appears whole or not at
 * all. A name Windows reserves for a device (con, nul, aux, prn, com1..com9,
 * lpt1..lpt9) is refused on every platform, so that a project made on one
 * system can be checked out on another.
 */
#include "spx_cli_project.h"

#include "spx_exit.h"
#include "spx_limits.h"
#include "spx_project.h"
#include "spx_status.h"

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* How many folders lie above the absolute folder path below its root. */
static apr_size_t folder_depth(const char *folder, apr_pool_t *pool)
{
    const char *root = NULL;
    const char *rest = folder;
    if (apr_filepath_root(&root, &rest, 0, pool) != APR_SUCCESS)
        rest = folder;
    apr_size_t depth = 0;
    int in_name = 0;
    for (const char *c = rest; *c; c++) {
        int separator = *c == '/' || *c == '\\';
        if (!separator && !in_name)
            depth++;
        in_name = !separator;
    }
    return depth;
}

/* Why the manifest found at candidate (its path from the working directory;
 * info from a stat that
 * did not follow a link) cannot be the project's, or NULL when it is a
 * regular file that can be opened for reading. */
static const char *found_manifest_problem(const char *candidate, const apr_finfo_t *info,
                                          apr_pool_t *pool)
{
    if (info->filetype == APR_LNK)
        return "it is a symbolic link, which is not followed";
    if (info->filetype == APR_DIR)
        return "it is a folder, not a file";
    if (info->filetype != APR_REG)
        return "it is not a regular file";
    apr_file_t *file = NULL;
    apr_status_t status =
        apr_file_open(&file, candidate, APR_FOPEN_READ, APR_FPROT_OS_DEFAULT, pool);
    if (status != APR_SUCCESS) {
        char reason[256];
        return apr_psprintf(pool, "it cannot be read: %s",
                            spx_strerror(status, reason, sizeof(reason)));
    }
    apr_file_close(file);
    return NULL;
}

apr_status_t spx_cli_find_manifest(const char **path, const char **message, apr_pool_t *pool)
{
    char *start = NULL;
    apr_status_t status = apr_filepath_get(&start, 0, pool);
    if (status != APR_SUCCESS) {
        char reason[256];
        *message = apr_psprintf(pool, "cannot tell the working directory: %s",
                                spx_strerror(status, reason, sizeof(reason)));
        return status;
    }
    apr_size_t depth = folder_depth(start, pool);
    const char *up = "";
    for (apr_size_t level = 0; level <= depth; level++) {
        const char *candidate = apr_pstrcat(pool, up, SPX_MANIFEST_FILE_NAME, NULL);
        /* The folder looked in, as an absolute path, for the messages. */
        char *folder = NULL;
        if (apr_filepath_merge(&folder, start, *up ? up : ".", 0, pool) != APR_SUCCESS)
            folder = apr_pstrdup(pool, start);
        apr_size_t length = strlen(folder); /* "/a/b/" as "/a/b"; "/" and "C:/" kept */
        if (length > 1 && strchr("/\\", folder[length - 1]) && folder[length - 2] != ':')
            folder[length - 1] = '\0';
        apr_finfo_t info;
        /* Anything by that name ends the search (a link or a folder too: then
         * it is refused here, by its full path). */
        status = apr_stat(&info, candidate, APR_FINFO_TYPE | APR_FINFO_LINK, pool);
        if (status == APR_SUCCESS || status == APR_INCOMPLETE) {
            const char *found = apr_pstrcat(
                pool, folder, folder[0] && strchr("/\\", folder[strlen(folder) - 1]) ? "" : "/",
                SPX_MANIFEST_FILE_NAME, NULL);
            const char *problem = found_manifest_problem(candidate, &info, pool);
            if (problem) {
                *message = apr_psprintf(pool,
                                        "the manifest found searching upward from %s, %s, "
                                        "cannot be used: %s; give --manifest-path",
                                        start, found, problem);
                return APR_EINVAL;
            }
            *path = candidate;
            return APR_SUCCESS;
        }
        /* A folder that cannot be searched stops the search: what lies above
         * it is not reached through it. */
        if (!APR_STATUS_IS_ENOENT(status) && !APR_STATUS_IS_ENOTDIR(status)) {
            char reason[256];
            *message = apr_psprintf(pool,
                                    "no " SPX_MANIFEST_FILE_NAME " found searching upward from %s: "
                                    "the search stopped at %s, which cannot be searched (%s); "
                                    "give --manifest-path, or make a project with "
                                    "'semaprax new NAME'",
                                    start, folder, spx_strerror(status, reason, sizeof(reason)));
            return status;
        }
        up = apr_pstrcat(pool, up, "../", NULL);
    }
    *message = apr_psprintf(pool,
                            "no " SPX_MANIFEST_FILE_NAME " in %s or any folder above it (searched "
                            "upward to the root); give --manifest-path, or make a project with "
                            "'semaprax new NAME'",
                            start);
    return APR_ENOENT;
}

/* --- semaprax new ---------------------------------------------------------- */

static const char manifest_template[] = "manifest = \"semaprax.project-manifest.v1\"\n"
                                        "\n"
                                        "[project]\n"
                                        "name = \"%s\"\n"
                                        "version = \"0.1.0\"\n"
                                        "entry = \"app.main\"\n"
                                        "\n"
                                        "[[source]]\n"
                                        "module = \"app\"\n"
                                        "path = \"src/app.spx\"\n"
                                        "\n"
                                        "[[source]]\n"
                                        "module = \"greeting\"\n"
                                        "path = \"src/greeting.spx\"\n"
                                        "\n"
                                        "[[test]]\n"
                                        "name = \"greet\"\n"
                                        "function = \"greeting.test_greet\"\n";

static const char app_template[] = "// The entry: `semaprax run` calls main; 0 is success.\n"
                                   "import greeting;\n"
                                   "\n"
                                   "fn main() -> int {\n"
                                   "    print(greeting.greet(\"%s\") + \"\\n\");\n"
                                   "    return 0;\n"
                                   "}\n";

static const char greeting_template[] =
    "// A module with a test: `semaprax test` runs test_greet (0 is a pass).\n"
    "export fn greet(name: str) -> str {\n"
    "    return \"Hello, \" + name + \"!\";\n"
    "}\n"
    "\n"
    "fn test_greet() -> int {\n"
    "    assert(greet(\"Semaprax\") == \"Hello, Semaprax!\");\n"
    "    return 0;\n"
    "}\n";

/* Write text as the new file path; a status. */
static apr_status_t write_new_file(const char *path, const char *text, apr_pool_t *pool)
{
    apr_file_t *file = NULL;
    apr_status_t status = apr_file_open(
        &file, path, APR_FOPEN_WRITE | APR_FOPEN_CREATE | APR_FOPEN_EXCL | APR_FOPEN_BINARY,
        APR_FPROT_OS_DEFAULT, pool);
    if (status != APR_SUCCESS)
        return status;
    status = apr_file_write_full(file, text, strlen(text), NULL);
    if (status == APR_SUCCESS)
        status = apr_file_flush(file);
    apr_status_t closed = apr_file_close(file);
    return status == APR_SUCCESS ? closed : status;
}

/* The files of the new project, relative to its folder, and their texts. */
typedef struct new_file_t {
    const char *path;
    const char *text;
} new_file_t;

/* Remove what was made of the temporary folder (files first). */
static void remove_partial(const char *folder, const new_file_t *files, apr_size_t count,
                           apr_pool_t *pool)
{
    for (apr_size_t i = 0; i < count; i++)
        apr_file_remove(apr_pstrcat(pool, folder, "/", files[i].path, NULL), pool);
    apr_dir_remove(apr_pstrcat(pool, folder, "/src", NULL), pool);
    apr_dir_remove(folder, pool);
}

/* 1 when something (a file, a folder, a link) is at path. */
static int exists(const char *path, apr_pool_t *pool)
{
    apr_finfo_t info;
    return apr_stat(&info, path, APR_FINFO_TYPE | APR_FINFO_LINK, pool) == APR_SUCCESS;
}

/* 1 when name, in any case and with or without an extension, is one that
 * Windows reserves for a device: CON, PRN, AUX, NUL, COM1..COM9, LPT1..LPT9
 * (a file or folder by that name cannot be made or checked out there). */
static int windows_device_name(const char *name)
{
    static const char *const bare[] = {"con", "prn", "aux", "nul"};
    static const char *const numbered[] = {"com", "lpt"};
    apr_size_t stem = strcspn(name, ".");
    char lower[5] = {0};
    if (stem < 3 || stem > 4)
        return 0;
    for (apr_size_t i = 0; i < stem; i++)
        lower[i] = (char)apr_tolower((unsigned char)name[i]);
    for (apr_size_t i = 0; i < sizeof(bare) / sizeof(bare[0]); i++)
        if (stem == 3 && memcmp(lower, bare[i], 3) == 0)
            return 1;
    for (apr_size_t i = 0; i < sizeof(numbered) / sizeof(numbered[0]); i++)
        if (stem == 4 && memcmp(lower, numbered[i], 3) == 0 && lower[3] >= '1' && lower[3] <= '9')
            return 1;
    return 0;
}

static int new_failure(const char *what, const char *path, apr_status_t status)
{
    char reason[256];
    fprintf(stderr, "semaprax: cannot %s '%s': %s; nothing was created\n", what, path,
            spx_strerror(status, reason, sizeof(reason)));
    return SPX_EXIT_USAGE;
}

int spx_cli_new_project(const char *name, apr_pool_t *pool)
{
    const char *problem = spx_project_name_problem(name, pool);
    if (problem) {
        fprintf(stderr,
                "semaprax: '%s' is not a valid project name: it %s (a project name is "
                "[a-z][a-z0-9_-]*, at most %u bytes)\n",
                name, problem, SPX_LIMIT_IDENTIFIER_BYTES);
        return SPX_EXIT_USAGE;
    }
    if (windows_device_name(name)) {
        fprintf(stderr,
                "semaprax: '%s' cannot be a project folder: Windows reserves the name for a "
                "device (CON, PRN, AUX, NUL, COM1-COM9, LPT1-LPT9, in any case, with or without "
                "an extension), so it is refused on every platform; nothing was created\n",
                name);
        return SPX_EXIT_USAGE;
    }
    if (exists(name, pool)) {
        fprintf(stderr, "semaprax: '%s' already exists; nothing was created\n", name);
        return SPX_EXIT_USAGE;
    }
    /* A temporary folder of our own beside NAME (apr_dir_make fails when
     * the name is taken, so two runs never share one). */
    const char *temporary = NULL;
    apr_status_t status = APR_EEXIST;
    for (unsigned attempt = 0; attempt < SPX_LIMIT_NEW_TEMPORARY_NAMES && status != APR_SUCCESS;
         attempt++) {
        temporary = apr_psprintf(pool, ".%s.new-%u", name, attempt);
        status = apr_dir_make(temporary, APR_FPROT_OS_DEFAULT, pool);
        if (status != APR_SUCCESS && !APR_STATUS_IS_EEXIST(status))
            return new_failure("create the temporary folder", temporary, status);
    }
    if (status != APR_SUCCESS)
        return new_failure("create a temporary folder beside", name, status);
    const new_file_t files[] = {
        {SPX_MANIFEST_FILE_NAME, apr_psprintf(pool, manifest_template, name)},
        {"src/app.spx", apr_psprintf(pool, app_template, name)},
        {"src/greeting.spx", greeting_template},
    };
    const apr_size_t count = sizeof(files) / sizeof(files[0]);
    status = apr_dir_make(apr_pstrcat(pool, temporary, "/src", NULL), APR_FPROT_OS_DEFAULT, pool);
    if (status != APR_SUCCESS) {
        remove_partial(temporary, files, count, pool);
        return new_failure("create", apr_pstrcat(pool, temporary, "/src", NULL), status);
    }
    for (apr_size_t i = 0; i < count; i++) {
        const char *path = apr_pstrcat(pool, temporary, "/", files[i].path, NULL);
        status = write_new_file(path, files[i].text, pool);
        if (status != APR_SUCCESS) {
            remove_partial(temporary, files, count, pool);
            return new_failure("write", path, status);
        }
    }
    /* Checked again just before the rename: NAME may have appeared meanwhile
     * (a rename onto an empty folder would replace it on POSIX). */
    status = exists(name, pool) ? APR_EEXIST : apr_file_rename(temporary, name, pool);
    if (status != APR_SUCCESS) {
        remove_partial(temporary, files, count, pool);
        if (APR_STATUS_IS_EEXIST(status)) {
            fprintf(stderr, "semaprax: '%s' already exists; nothing was created\n", name);
            return SPX_EXIT_USAGE;
        }
        return new_failure("rename the new project to", name, status);
    }
    printf("semaprax: created project '%s': %s/" SPX_MANIFEST_FILE_NAME
           ", %s/src/app.spx (entry app.main), %s/src/greeting.spx (test greet)\n"
           "semaprax: try 'cd %s && semaprax check && semaprax run && semaprax test'\n",
           name, name, name, name, name);
    return SPX_EXIT_OK;
}
