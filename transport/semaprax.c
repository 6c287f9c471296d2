/*
 * semaprax.c: the entry point of the `semaprax` CLI. Everything it does is in
 * cli.c; this file only hands over the arguments.
 */
#include "spx_cli.h"

int main(int argc, char **argv)
{
    return spx_cli_main(argc, (const char *const *)argv);
}
