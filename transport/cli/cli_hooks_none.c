/*
 * cli_hooks_none.c: the CLI's hooks in the programs (spx_cli_hooks.h):
 * none. No write of rename or fmt is probed.
 */
#include "spx_cli_hooks.h"

spx_commit_probe_fn spx_cli_commit_probe(void)
{
    return NULL;
}
