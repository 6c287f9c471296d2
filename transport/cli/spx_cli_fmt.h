/*
 * spx_cli_fmt.h: `semaprax fmt` (cli_fmt.c), apart from the command table
 * and option parsing of cli.c.
 */
#ifndef SPX_CLI_FMT_H
#define SPX_CLI_FMT_H

#include <apr_pools.h>

/* Format the sources at paths (NULL-terminated; files, or folders whose
 * *.spx files are taken recursively), or, when paths is empty, the sources
 * of the manifest at manifest_path (NULL: semaprax.toml). check: write
 * nothing, list the files that would change; diff: write nothing, print
 * the unified diff (spx_diff.h) of each file that would change. Returns the
 * exit status (spx_exit.h) and prints what it did. */
int spx_cli_fmt(const char *const *paths, const char *manifest_path, int check, int diff,
                apr_pool_t *pool);

/* The command's --help text, on stdout. */
void spx_cli_fmt_help(void);

#endif /* SPX_CLI_FMT_H */
