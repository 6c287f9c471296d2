/*
 * spx_cli.h: the `semaprax` command line: parses the arguments of one
 * command, runs it through the engine, and prints its document or its
 * diagnostics. transport/semaprax.c is only the process entry point.
 */
#ifndef SPX_CLI_H
#define SPX_CLI_H

#include <apr.h>

/* Run `semaprax ARGS...`; the process exit status: 0 success, 1 the project
 * has diagnostics (or the command's own failure), 2 usage or unreadable input. */
int spx_cli_main(int argc, const char *const *argv);

/* A command-line count: decimal digits, no sign, no leading zero, within
 * [minimum, maximum]. 1 with *value set, or 0. Shared by both programs'
 * options. */
int spx_cli_parse_count(const char *text, apr_uint64_t minimum, apr_uint64_t maximum,
                        apr_uint64_t *value);

#endif /* SPX_CLI_H */
