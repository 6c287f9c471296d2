/*
 * spx_cli_project.h: the `semaprax` CLI's work on whole project folders:
 * finding the manifest by searching upward from the working directory (when
 * --manifest-path is absent), and `semaprax new NAME`, which creates a
 * project that checks, runs and tests at once.
 */
#ifndef SPX_CLI_PROJECT_H
#define SPX_CLI_PROJECT_H

#include <apr_pools.h>

/* The manifest's name, searched for in each folder. */
#define SPX_MANIFEST_FILE_NAME "semaprax.toml"

/* Find semaprax.toml in the working directory, then in each parent up to the
 * file-system root, stopping at the first found. APR_SUCCESS with *path (a
 * path relative to the working directory: "semaprax.toml",
 * "../semaprax.toml", ...), or a failure status with *message naming the
 * folder the search started from. */
apr_status_t spx_cli_find_manifest(const char **path, const char **message, apr_pool_t *pool);

/* `semaprax new NAME`: create the folder NAME in the working directory with
 * a manifest, an entry module and a module with a test. NAME must be a
 * project name that is also a module name and must not exist. The project is
 * written into a temporary folder beside NAME and renamed into place, so
 * nothing half-written is left. Returns the exit status (messages on
 * stderr and stdout). */
int spx_cli_new_project(const char *name, apr_pool_t *pool);

#endif /* SPX_CLI_PROJECT_H */
