/*
 * spx_cli.h: the `semaprax` command line: parses the arguments of one
 * command, runs it through the engine, and prints its document or its
 * diagnostics. transport/semaprax.c is only the process entry point.
 */
#ifndef SPX_CLI_H
#define SPX_CLI_H

/* Run `semaprax ARGS...`; the process exit status: 0 success, 1 the project
 * has diagnostics (or the command's own failure), 2 usage or unreadable input. */
int spx_cli_main(int argc, const char *const *argv);

#endif /* SPX_CLI_H */
