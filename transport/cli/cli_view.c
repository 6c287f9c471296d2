/*
 * cli_view.c: the terminal view of `semaprax check` and `semaprax test`
 * (spx_cli_view.h): colour, source lines with carets, progress lines and a
 * summary table, for a person at a terminal; cli.c prints the plain lines
 * to a file or a pipe. Also the few lines the commands share whatever the
 * stream: a failed test's output and the inputs that changed meanwhile; and
 * the outlines of `semaprax graph` and `context` (--format text, the
 * default on a terminal), read through the graph's typed walk
 * (spx_graph_node) and the context answer's typed nodes, and written line
 * by line as they are walked.
 */
#include "spx_cli_view.h"

#include "spx_diagnostics.h"
#include "spx_inputs.h"
#include "spx_limits.h"
#include "spx_operations.h"
#include "spx_text.h"
#include "spx_utf8.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define BOLD "\033[1m"
#define RED "\033[1;31m"
#define GREEN "\033[1;32m"
#define YELLOW "\033[1;33m"
#define BLUE "\033[1;34m"
#define RESET "\033[0m"

spx_view_t spx_view_of(spx_stream_t stream)
{
    spx_view_t view = {0, 0};
    view.rich = spx_stream_is_terminal(stream);
    const char *no_colour = getenv("NO_COLOR");
    view.colour = view.rich && !(no_colour && no_colour[0]);
    return view;
}

static const char *paint(const spx_view_t *view, const char *colour)
{
    return view->colour ? colour : "";
}

/* Write bytes[from..to) as a person sees them (blank: as spaces under
 * them, for the caret line): a tab stays a tab, a UTF-8 character is one
 * column, a control byte, an invalid byte or a U+FEFF (which a terminal
 * would draw as nothing) is '?'. */
static void show(FILE *out, const unsigned char *bytes, apr_size_t from, apr_size_t to, int blank)
{
    for (apr_size_t at = from; at < to;) {
        apr_size_t length = bytes[at] == '\t' ? 0 : spx_utf8_length(bytes + at, to - at);
        if (bytes[at] == '\t')
            fputc('\t', out);
        else if (blank)
            fputc(' ', out);
        else if (length == 1 && (bytes[at] < 0x20 || bytes[at] == 0x7f))
            fputc('?', out);
        else if (length == 0 || spx_byte_order_mark_length((const char *)bytes + at, length))
            fputc('?', out);
        else
            fwrite(bytes + at, 1, length, out);
        at += length ? length : 1;
    }
}

/* The columns of bytes[from..to), as show() writes them. */
static apr_size_t columns(const unsigned char *bytes, apr_size_t from, apr_size_t to)
{
    apr_size_t count = 0;
    for (apr_size_t at = from; at < to; count++) {
        apr_size_t length = spx_utf8_length(bytes + at, to - at);
        at += length ? length : 1;
    }
    return count;
}

/* The held bytes of the input at path, or NULL. */
static const spx_input_t *held_input(const spx_project_t *project, const char *path)
{
    if (!spx_project_inputs(project))
        return NULL;
    const spx_input_t *manifest = spx_input_set_manifest(spx_project_inputs(project));
    if (manifest && manifest->bytes && strcmp(manifest->path, path) == 0)
        return manifest;
    apr_size_t count = spx_input_set_source_count(spx_project_inputs(project));
    for (apr_size_t i = 0; i < count; i++) {
        const spx_input_t *source = spx_input_set_source(spx_project_inputs(project), i);
        if (source && source->bytes && strcmp(source->path, path) == 0)
            return source;
    }
    return NULL;
}

/* The source line of the span and a caret line under it, in colour. */
static void show_source(FILE *out, const spx_view_t *view, const spx_input_t *input,
                        const spx_span_t *span, const char *colour)
{
    const unsigned char *bytes = input->bytes;
    apr_size_t size = input->size;
    apr_size_t start = span->start.offset <= size ? span->start.offset : size;
    apr_size_t line_start = start;
    while (line_start > 0 && bytes[line_start - 1] != '\n')
        line_start--;
    /* A leading byte order mark is not shown: the line starts after it. */
    apr_size_t mark = spx_byte_order_mark_length((const char *)bytes, size);
    if (line_start == 0 && start >= mark)
        line_start = mark;
    apr_size_t line_end = start;
    while (line_end < size && bytes[line_end] != '\n')
        line_end++;
    if (line_end > start && line_end < size && bytes[line_end - 1] == '\r')
        line_end--; /* the CR of a CR LF ends the line, as the LF does */
    apr_size_t end = span->end.line == span->start.line && span->end.offset <= line_end
                         ? span->end.offset
                         : line_end;
    /* A window of the line around the span's start. */
    apr_size_t from = line_start, to = line_end;
    if (to - from > SPX_LIMIT_VIEW_LINE_BYTES) {
        if (start - from > SPX_LIMIT_VIEW_LINE_BYTES / 4)
            from +=
                spx_utf8_cut(bytes + from, to - from, start - SPX_LIMIT_VIEW_LINE_BYTES / 4 - from);
        if (to - from > SPX_LIMIT_VIEW_LINE_BYTES)
            to = from + spx_utf8_cut(bytes + from, to - from, SPX_LIMIT_VIEW_LINE_BYTES);
    }
    if (end > to)
        end = to;
    char number[32];
    int width = snprintf(number, sizeof(number), "%lu", (unsigned long)span->start.line);
    fprintf(out, "%s %s |%s ", paint(view, BLUE), number, paint(view, RESET));
    fputs(from > line_start ? "..." : "", out);
    show(out, bytes, from, to, 0);
    fputs(to < line_end ? "...\n" : "\n", out);
    fprintf(out, "%s %*s |%s ", paint(view, BLUE), width, "", paint(view, RESET));
    fputs(from > line_start ? "   " : "", out);
    show(out, bytes, from, start, 1);
    apr_size_t carets = start < end ? columns(bytes, start, end) : 1;
    fputs(paint(view, colour), out);
    for (apr_size_t i = 0; i < carets; i++)
        fputc('^', out);
    fprintf(out, "%s\n", paint(view, RESET));
}

void spx_view_diagnostics(FILE *out, const spx_view_t *view, const spx_project_t *project,
                          apr_pool_t *pool)
{
    (void)pool;
    const spx_diagnostics_t *diagnostics = spx_project_diagnostics(project);
    apr_size_t count = spx_diagnostics_count(diagnostics);
    for (apr_size_t i = 0; i < count; i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, i);
        int warning = spx_diagnostic_is_warning(item);
        const char *colour = warning ? YELLOW : RED;
        /* The suggestions get a help line of their own (as rustc shows
         * them), so the message is shown without its "; did you mean" end. */
        apr_size_t plain_length = strlen(item->plain);
        const char *hint = item->message[plain_length] ? item->message + plain_length : NULL;
        int message_length = (int)plain_length;
        fprintf(out, "%s%s:%lu:%lu:%s %s%s%s%s[%s]: %.*s%s\n", paint(view, BOLD), item->path,
                (unsigned long)item->span.start.line, (unsigned long)item->span.start.column,
                paint(view, RESET), paint(view, colour), spx_diagnostic_severity(item),
                paint(view, RESET), paint(view, BOLD), item->code, message_length, item->message,
                paint(view, RESET));
        const spx_input_t *input = held_input(project, item->path);
        if (input)
            show_source(out, view, input, &item->span, colour);
        if (hint)
            fprintf(out, "   %s=%s %shelp%s: %s\n", paint(view, BLUE), paint(view, RESET),
                    paint(view, BOLD), paint(view, RESET), hint + 2);
        for (int k = 0; item->notes && k < item->notes->nelts; k++) {
            const spx_diagnostic_note_t *note =
                &APR_ARRAY_IDX(item->notes, k, spx_diagnostic_note_t);
            fprintf(out, "%s%s:%lu:%lu:%s %snote%s: %s\n", paint(view, BOLD), note->path,
                    (unsigned long)note->span.start.line, (unsigned long)note->span.start.column,
                    paint(view, RESET), paint(view, GREEN), paint(view, RESET), note->message);
            const spx_input_t *noted = held_input(project, note->path);
            if (noted)
                show_source(out, view, noted, &note->span, GREEN);
        }
    }
}

/* --- tests ------------------------------------------------------------------ */

static const char *outcome_colour(spx_test_outcome_t outcome)
{
    return outcome == SPX_TEST_PASSED ? GREEN : outcome == SPX_TEST_FAILED ? RED : YELLOW;
}

/* The length of the "running" line, to blank it out without escapes. */
static int running_length(apr_size_t index, apr_size_t total, const char *name)
{
    return snprintf(NULL, 0, "[%lu/%lu] %s ... running", (unsigned long)index + 1,
                    (unsigned long)total, name);
}

static void before_test(void *context, apr_size_t index, apr_size_t total, const char *name)
{
    spx_view_progress_t *progress = context;
    fprintf(progress->out, "[%lu/%lu] %s ... running", (unsigned long)index + 1,
            (unsigned long)total, name);
    fflush(progress->out);
}

static void after_test(void *context, apr_size_t index, apr_size_t total, const spx_test_run_t *run)
{
    spx_view_progress_t *progress = context;
    const spx_view_t *view = progress->view;
    FILE *out = progress->out;
    const spx_run_result_t *result = &run->result;
    /* Back to the start of the line and over the "running" text. */
    fprintf(out, "\r%*s\r", running_length(index, total, run->name), "");
    fprintf(out, "[%lu/%lu] %s (%s) ... %s%s%s, %" PRIu64 " steps", (unsigned long)index + 1,
            (unsigned long)total, run->name, run->function,
            paint(view, outcome_colour(run->outcome)), spx_test_outcome_name(run->outcome),
            paint(view, RESET), result->steps);
    if (result->outcome == SPX_OUTCOME_RETURNED)
        fprintf(out, ", returned %" PRId64, result->value);
    fputc('\n', out);
    if (result->outcome != SPX_OUTCOME_RETURNED) {
        const spx_failure_t *failure = &result->failure;
        const char *hint = spx_op_limit_hint(result, SPX_OP_LIMIT_BY_OPTION, progress->pool);
        fprintf(out, "    %s:%" PRIu32 ":%" PRIu32 ": %serror%s[%s]: %s%s%s\n", failure->path,
                failure->span.start.line, failure->span.start.column, paint(view, RED),
                paint(view, RESET), failure->code, failure->message, hint ? "; " : "",
                hint ? hint : "");
    }
    spx_view_test_output(out, view, run);
    fflush(out);
}

/* One line of a test's output, lines[from..to) without its LF, after the
 * margin: UTF-8 as it is, a tab as a tab, a CR as \r, any other control
 * character (C0, DEL, C1) as \xNN or \u00NN, so that output cannot move
 * the cursor or send escape sequences. */
static void show_output_line(FILE *out, const unsigned char *bytes, apr_size_t from, apr_size_t to)
{
    fputs("    | ", out);
    for (apr_size_t at = from; at < to;) {
        apr_size_t length = spx_utf8_length(bytes + at, to - at);
        if (length == 0) {
            fprintf(out, "\\x%02x", bytes[at]); /* never: output is UTF-8 */
            length = 1;
        } else if (bytes[at] == '\t') {
            fputc('\t', out);
        } else if (bytes[at] == '\r') {
            fputs("\\r", out);
        } else if (length == 1 && (bytes[at] < 0x20 || bytes[at] == 0x7f)) {
            fprintf(out, "\\x%02x", bytes[at]);
        } else if (length == 2 && bytes[at] == 0xc2 && bytes[at + 1] < 0xa0) {
            fprintf(out, "\\u%04x", bytes[at + 1]); /* C1: U+0080..U+009F */
        } else {
            fwrite(bytes + at, 1, length, out);
        }
        at += length;
    }
    fputc('\n', out);
}

void spx_view_test_output(FILE *out, const spx_view_t *view, const spx_test_run_t *run)
{
    apr_size_t size = run->result.output_length;
    if (run->outcome == SPX_TEST_PASSED || size == 0)
        return;
    const unsigned char *bytes = (const unsigned char *)run->result.output;
    fprintf(out, "    %soutput%s (%lu byte%s%s):\n", paint(view, BOLD), paint(view, RESET),
            (unsigned long)size, spx_plural(size),
            run->result.output_truncated ? ", cut at --max-bytes; raise it with --max-bytes N"
                                         : "");
    for (apr_size_t from = 0; from < size;) {
        apr_size_t to = from;
        while (to < size && bytes[to] != '\n')
            to++;
        show_output_line(out, bytes, from, to);
        from = to + 1;
    }
}

spx_envelope_observer_t spx_view_test_observer(spx_view_progress_t *progress)
{
    spx_envelope_observer_t observer = {before_test, after_test, progress};
    return observer;
}

void spx_view_test_summary(FILE *out, const spx_view_t *view, const spx_test_summary_t *summary)
{
    /* Indexed by spx_test_outcome_t. */
    static const char *const rows[SPX_TEST_OUTCOME_COUNT] = {"passed", "failed", "language failure",
                                                             "fuel exhausted", "depth exhausted"};
    fprintf(out, "\n%s%-18s %6s%s\n", paint(view, BOLD), "outcome", "tests", paint(view, RESET));
    for (int outcome = 0; outcome < SPX_TEST_OUTCOME_COUNT; outcome++) {
        apr_size_t count = summary->by_outcome[outcome];
        fprintf(out, "%s%-18s %6" APR_SIZE_T_FMT "%s\n",
                count ? paint(view, outcome_colour((spx_test_outcome_t)outcome)) : "",
                rows[outcome], count, count ? paint(view, RESET) : "");
    }
    fprintf(out, "%s%-18s %6" APR_SIZE_T_FMT "%s\n", paint(view, BOLD), "total", summary->total,
            paint(view, RESET));
}

void spx_view_drift(FILE *out, const apr_array_header_t *drift)
{
    for (int i = 0; drift && i < drift->nelts; i++) {
        const spx_drift_t *record = &APR_ARRAY_IDX(drift, i, spx_drift_t);
        fprintf(out, "semaprax: '%s' changed meanwhile (%s)\n", record->path,
                spx_drift_reason_name(record->reason));
    }
}

/* --- the outlines of the graph and of a context ---------------------------- */

/* How an edge line names a node: an item by module.name ("math.add"), a
 * builtin by its name, the others by kind and name ("module app", "test
 * fib", "data words", "the entry"). */
static void put_node_name(FILE *out, const spx_graph_node_t *node)
{
    if (node->module)
        fprintf(out, "%s.%s", node->module, node->name);
    else if (strcmp(node->kind, "builtin") == 0)
        fputs(node->name, out);
    else if (node->name)
        fprintf(out, "%s %s", node->kind, node->name);
    else
        fputs("the entry", out);
}

static void put_number_name(FILE *out, const spx_project_t *project, int number)
{
    spx_graph_node_t node;
    spx_graph_node(project, number, &node);
    put_node_name(out, &node);
}

/* A node as its source declares it: "export fn fib(n: int) -> int",
 * "struct Count { word: str, n: int }", "enum Shape { Dot, Box(int, int) }",
 * "const LIMIT: int = 10" (a str value quoted), "module app (src/app.spx)",
 * "data words (data/words.txt, 120 bytes)", "test fib", "entry". */
static void put_declaration(FILE *out, const spx_project_t *project, const spx_graph_node_t *node)
{
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, NULL);
    fputs(spx_graph_declaration(project, node, scratch), out);
    apr_pool_destroy(scratch);
}

/* The words of an edge seen from its from node (out) or its to node. */
static const char *edge_words(const char *kind, int out)
{
    static const char *const words[][3] = {
        {"calls", "calls", "called by"}, {"uses", "uses", "used by"},
        {"reads", "reads", "read by"},   {"tests", "runs", "run by"},
        {"enters", "runs", "run by"},    {"imports", "imports", "imported by"},
        {"contains", "contains", "in"},
    };
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strcmp(words[i][0], kind) == 0)
            return words[i][out ? 1 : 2];
    return kind;
}

/* "    calls math.add (2 sites)": the edge seen from one of its ends. */
static void put_edge(FILE *out, const spx_project_t *project, const char *indent,
                     const spx_graph_edge_t *edge, int outgoing)
{
    fprintf(out, "%s%s ", indent, edge_words(edge->kind, outgoing));
    put_number_name(out, project, outgoing ? edge->to : edge->from);
    if (edge->sites)
        fprintf(out, " (%d site%s)", edge->sites, spx_plural((apr_size_t)edge->sites));
    fputc('\n', out);
}

static int compare_numbers(const void *left, const void *right)
{
    int a = *(const int *)left, b = *(const int *)right;
    return (a > b) - (a < b);
}

/* Whether a line is written for the edge: one the context answer lists,
 * or (no answer: the graph) any but "contains". */
static int edge_shown(const spx_context_answer_t *shown, const spx_graph_edge_t *edge)
{
    if (!shown)
        return strcmp(edge->kind, "contains") != 0;
    return shown->edge_count && bsearch(&edge->number, shown->edge_list, shown->edge_count,
                                        sizeof(int), compare_numbers) != NULL;
}

/* The kind of the node's incoming edges that comes next after after
 * (bytewise; NULL: the first), or NULL when none does. */
static const char *next_in_kind(const spx_project_t *project, const spx_graph_node_t *node,
                                const char *after)
{
    const char *next = NULL;
    spx_graph_edge_t edge;
    for (int k = 0; k < node->in_count; k++) {
        spx_graph_in_edge(project, node->number, k, &edge);
        if ((!after || strcmp(edge.kind, after) > 0) && (!next || strcmp(edge.kind, next) < 0))
            next = edge.kind;
    }
    return next;
}

/* A node's edges, through shown (the edges a line is written for; NULL:
 * all but "contains", which the outline's nesting says): the outgoing ones
 * in edge order (by kind, then the other end's id), then the incoming ones
 * in the same order, one pass over them per kind they have, so that
 * nothing is gathered. */
static void put_edges(FILE *out, const spx_project_t *project, const spx_graph_node_t *node,
                      const spx_context_answer_t *shown, const char *indent)
{
    spx_graph_edge_t edge;
    for (int k = 0; k < node->out_count; k++) {
        spx_graph_out_edge(project, node->number, k, &edge);
        if (edge_shown(shown, &edge))
            put_edge(out, project, indent, &edge, 1);
    }
    for (const char *kind = next_in_kind(project, node, NULL); kind;
         kind = next_in_kind(project, node, kind))
        for (int k = 0; k < node->in_count; k++) {
            spx_graph_in_edge(project, node->number, k, &edge);
            if (strcmp(edge.kind, kind) == 0 && edge_shown(shown, &edge))
                put_edge(out, project, indent, &edge, 0);
        }
}

/* A module's "imports a, b" or "imported by c" line, when it has some. */
static void put_imports(FILE *out, const spx_project_t *project, const spx_graph_node_t *module,
                        int outgoing)
{
    int count = outgoing ? module->out_count : module->in_count;
    int listed = 0;
    spx_graph_edge_t edge;
    for (int k = 0; k < count; k++) {
        if (outgoing)
            spx_graph_out_edge(project, module->number, k, &edge);
        else
            spx_graph_in_edge(project, module->number, k, &edge);
        if (strcmp(edge.kind, "imports") != 0)
            continue;
        spx_graph_node_t other;
        spx_graph_node(project, outgoing ? edge.to : edge.from, &other);
        fprintf(out, "%s%s",
                listed++   ? ", "
                : outgoing ? "  imports "
                           : "  imported by ",
                other.name);
    }
    if (listed)
        fputc('\n', out);
}

void spx_view_graph_outline(FILE *out, const spx_project_t *project)
{
    int count = spx_graph_node_count(project);
    fprintf(out, "project %s\n", spx_project_name(project));
    for (int number = 0; number < count; number++) {
        spx_graph_node_t module;
        spx_graph_node(project, number, &module);
        if (strcmp(module.kind, "module") != 0)
            continue;
        put_declaration(out, project, &module);
        fputc('\n', out);
        put_imports(out, project, &module, 1);
        put_imports(out, project, &module, 0);
        for (int k = 0; k < module.out_count; k++) {
            spx_graph_edge_t contains;
            spx_graph_out_edge(project, number, k, &contains);
            if (strcmp(contains.kind, "contains") != 0)
                continue;
            spx_graph_node_t item;
            spx_graph_node(project, contains.to, &item);
            fputs("  ", out);
            put_declaration(out, project, &item);
            fputc('\n', out);
            put_edges(out, project, &item, NULL, "    ");
        }
    }
    for (int number = 0; number < count; number++) {
        spx_graph_node_t node;
        spx_graph_node(project, number, &node);
        if (strcmp(node.kind, "module") == 0 || node.module)
            continue;
        put_declaration(out, project, &node);
        fputc('\n', out);
        put_edges(out, project, &node, NULL, "  ");
    }
}

void spx_view_context_outline(FILE *out, const spx_project_t *project,
                              const spx_context_request_t *request,
                              const spx_context_answer_t *answer, apr_pool_t *pool)
{
    fprintf(out, "context of %s: direction %s, depth %" APR_UINT64_T_FMT, answer->facts.target,
            request->direction, request->depth);
    for (apr_size_t i = 0; request->edge_kinds && i < request->edge_kind_count; i++)
        fprintf(out, "%s%s", i ? ", " : ", edges ", request->edge_kinds[i]);
    fprintf(out, "; %" APR_SIZE_T_FMT " node%s, %" APR_SIZE_T_FMT " edge%s\n", answer->node_count,
            spx_plural(answer->node_count), answer->edge_count, spx_plural(answer->edge_count));
    for (apr_size_t i = 0; i < answer->node_count; i++) {
        const spx_context_node_t *kept = &answer->node_list[i];
        spx_graph_node_t node;
        spx_graph_node(project, kept->node, &node);
        fputs(node.id, out);
        if (kept->via_from < 0)
            fputs(" (target)", out);
        else {
            fprintf(out, " (distance %d, reached from ", kept->distance);
            put_number_name(out, project, kept->via_from);
            fprintf(out, " over %s)", kept->via_kind);
        }
        fputs("\n  ", out);
        put_declaration(out, project, &node);
        fputc('\n', out);
        put_edges(out, project, &node, answer, "  ");
    }
    if (answer->facts.truncated) {
        fprintf(out,
                "truncated: %" APR_SIZE_T_FMT " node%s omitted (%s), %" APR_SIZE_T_FMT
                " of them on the frontier (--max-nodes %" APR_UINT64_T_FMT
                ", --max-bytes %" APR_UINT64_T_FMT ")\n",
                answer->facts.omitted_nodes, spx_plural(answer->facts.omitted_nodes),
                spx_op_context_omitted_by_tie(&answer->facts, pool), answer->facts.frontier,
                request->max_nodes, request->max_bytes);
    }
}
