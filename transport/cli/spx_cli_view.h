/*
 * spx_cli_view.h: what `semaprax check` and `semaprax test` show a person on
 * a terminal: diagnostics in colour with the source line and a caret under
 * the span, and a progress line per test with a summary table. Only the
 * human text changes: on a file or a pipe the CLI prints its plain lines
 * exactly as before, and JSON documents and exit statuses never depend on
 * the view (docs/cli.md, "On a terminal"). Also the outlines of `graph`
 * and `context` (docs/cli.md, "The outlines of graph and context"), which
 * those print instead of their JSON on a terminal or with --format text.
 */
#ifndef SPX_CLI_VIEW_H
#define SPX_CLI_VIEW_H

#include "spx_envelope.h"
#include "spx_index.h"
#include "spx_platform.h"
#include "spx_project.h"

#include <apr_pools.h>
#include <stdio.h>

typedef struct spx_view_t {
    int rich;   /* a terminal: source lines, carets, progress, table */
    int colour; /* ANSI colour too: a terminal and NO_COLOR not set */
} spx_view_t;

/* The view of a standard stream: rich on a terminal (spx_stream_is_terminal),
 * coloured unless the environment has NO_COLOR (https://no-color.org). */
spx_view_t spx_view_of(spx_stream_t stream);

/* Print each diagnostic of the project to out: its line
 * "path:line:column: error[CODE]: message", then, when the path is one of
 * the project's held inputs, the source line (control bytes and invalid
 * UTF-8 shown as '?', at most SPX_LIMIT_VIEW_LINE_BYTES of it) and a caret
 * line under the span. */
void spx_view_diagnostics(FILE *out, const spx_view_t *view, const spx_project_t *project,
                          apr_pool_t *pool);

/* An observer of the test closure that prints a progress line per test to
 * out (rewritten in place while the test runs), for spx_op_test. */
typedef struct spx_view_progress_t {
    FILE *out;
    const spx_view_t *view;
    apr_pool_t *pool; /* for the sentence of a limit that stopped a test */
} spx_view_progress_t;
spx_envelope_observer_t spx_view_test_observer(spx_view_progress_t *progress);

/* The output of a test that did not pass (nothing for a passed
 * test or an empty output), in full (what the run kept, at most
 * max_bytes): a line "    output (N bytes):" (", cut at --max-bytes ..."
 * when output_truncated), then each line of the output after "    | ",
 * newlines as newlines, tabs as tabs, every other control character escaped
 * (\r, \xNN, \u00NN). The same on a terminal (output bold) and in the
 * plain lines of a file or a pipe. */
void spx_view_test_output(FILE *out, const spx_view_t *view, const spx_test_run_t *run);

/* The summary of a test run as a table of outcomes and counts. */
void spx_view_test_summary(FILE *out, const spx_view_t *view, const spx_test_summary_t *summary);

/* The outline of an admitted project's graph (`semaprax graph --format
 * text`, docs/cli.md): each module with its path and imports, its items
 * with their signatures and, under each, its edges ("calls math.add (1
 * site)", "called by app.main (2 sites)"); then the nodes no module
 * contains (builtins, data, the entry, tests) in id order. Read through the
 * graph's typed walk (spx_graph_node) and written line by line as it goes,
 * with nothing of the graph kept. */
void spx_view_graph_outline(FILE *out, const spx_project_t *project);

/* The outline of a context answer (`semaprax context --format text`): a
 * line naming the target and the query, each node the document lists (the
 * target first) with its distance and how it was reached, its signature
 * and the edges the document lists at it, then a line saying what the
 * budget left out when it did (its ties worded by the operation,
 * spx_op_context_omitted_by_tie, in pool). Read from the answer's typed
 * nodes and edges (spx_context_answer_text) and the graph's walk. */
void spx_view_context_outline(FILE *out, const spx_project_t *project,
                              const spx_context_request_t *request,
                              const spx_context_answer_t *answer, apr_pool_t *pool);

/* Each input found changed, one line "semaprax: 'PATH' changed meanwhile
 * (REASON)" (drift is spx_drift_t, may be NULL): what `rename` and `fmt`
 * say before they say that nothing was written. Plain, for any stream. */
void spx_view_drift(FILE *out, const apr_array_header_t *drift);

#endif /* SPX_CLI_VIEW_H */
