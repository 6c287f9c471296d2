/*
 * spx_log.h: what the daemon says on standard error. A client that pipes
 * the daemon's stderr and never reads it must never block it: by default
 * the daemon says at most SPX_LIMIT_LOG_LINES lines of at most
 * SPX_LIMIT_LOG_LINE_BYTES bytes in a whole session (startup, drift, a
 * rename, fatal ends: the session's own events, never one per request),
 * which fits in the smallest pipe buffer of the three systems (4 KiB) with
 * room to spare, and then one last line saying that the rest is not shown.
 * With --verbose it also says a line per refused or failed request, and
 * nothing is cut: the user asked for it and reads it.
 */
#ifndef SPX_LOG_H
#define SPX_LOG_H

#include "spx_compiler.h"

typedef struct spx_log_t {
    const char *program; /* "semapraxd" */
    int verbose;         /* --verbose */
    unsigned lines;      /* session lines said so far */
} spx_log_t;

/* A log for program, verbose or not. */
void spx_log_init(spx_log_t *log, const char *program, int verbose);

/* One of the session's own events: said while the budget lasts (always with
 * --verbose), cut to SPX_LIMIT_LOG_LINE_BYTES. The program's name and ": "
 * come first, the LF last. */
void spx_log_event(spx_log_t *log, const char *format, ...) SPX_PRINTF_FORMAT(2, 3);

/* About one request: said only with --verbose. */
void spx_log_request(spx_log_t *log, const char *format, ...) SPX_PRINTF_FORMAT(2, 3);

#endif /* SPX_LOG_H */
