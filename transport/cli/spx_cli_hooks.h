/*
 * spx_cli_hooks.h: the point at which a test build steps into the CLI's
 * writes. Each program links one spx_cli_commit_probe(): the spx_cli
 * library's own cli_hooks_none.c (no probe) unless the program brings
 * another, as the test-only semaprax_test and semapraxd_test do with
 * transport/test_hooks.c (the probe named by environment variables,
 * spx_test_hooks.h). An object linked into the program wins over the
 * library's, which is then never taken from the archive.
 */
#ifndef SPX_CLI_HOOKS_H
#define SPX_CLI_HOOKS_H

#include "spx_rename.h"

/* Handed to `semaprax rename`'s commit and to every write of `semaprax
 * fmt` (spx_commit_probe_fn, context NULL); NULL: no probe. */
spx_commit_probe_fn spx_cli_commit_probe(void);

#endif /* SPX_CLI_HOOKS_H */
