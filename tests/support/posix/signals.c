/*
 * signals.c: process tests that write to a child's standard input through a
 * pipe must survive the child exiting first (a write then fails with EPIPE
 * instead of killing the test with SIGPIPE). POSIX test build.
 */
#define _POSIX_C_SOURCE 200809L

#include "spx_process.h"

#include <signal.h>

void spx_process_ignore_broken_pipes(void)
{
    signal(SIGPIPE, SIG_IGN);
}
