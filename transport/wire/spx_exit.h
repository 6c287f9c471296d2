/*
 * spx_exit.h: the exit statuses of both programs, semaprax and semapraxd
 * (docs/cli.md, docs/protocol-v2.md "Command line"). The fourth, 3 for out of
 * memory, is the platform's (SPX_EXIT_OUT_OF_MEMORY, spx_allocation.h),
 * which ends the process itself.
 */
#ifndef SPX_EXIT_H
#define SPX_EXIT_H

#define SPX_EXIT_OK 0     /* success; a daemon's shutdown or end of input */
#define SPX_EXIT_FAILED 1 /* the command's own failure; a daemon stopped by a fatal frame */
#define SPX_EXIT_USAGE 2  /* usage, or an unreadable input */

#endif /* SPX_EXIT_H */
