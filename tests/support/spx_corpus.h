/*
 * spx_corpus.h: corpus-driven tests. A corpus is a folder under tests/corpus/
 * of input files (NAME.spx, NAME.toml, ...) each beside NAME.expected, which
 * lists the diagnostics the input must produce, one per line, sorted as the
 * engine sorts them:
 *
 *     E0201 3:14-3:16
 *
 * (code, then start line:column and end line:column of the span); an empty
 * .expected file means the input is valid.
 *
 * Also what the suites share to look into the engine's documents: the graph
 * as the engine writes it, read back by Jansson (the graph has no other
 * renderer), and a node of a graph or context document by its id.
 */
#ifndef SPX_CORPUS_H
#define SPX_CORPUS_H

#include "spx_diagnostics.h"
#include "spx_project.h"

#include <apr_tables.h>
#include <jansson.h>

/* The absolute path of a folder under tests/ (via SPX_TEST_DATA, set by ctest). */
const char *spx_corpus_dir(const char *relative, apr_pool_t *pool);

/* The names (without folder) of the files in dir ending in extension
 * (".spx"), sorted; names starting with '.' are left out. */
apr_array_header_t *spx_corpus_list(const char *dir, const char *extension, apr_pool_t *pool);

/* The names of the folders in dir, sorted, without "." and ".." (or any
 * other name starting with '.'). */
apr_array_header_t *spx_corpus_list_dirs(const char *dir, apr_pool_t *pool);

/* The whole file at path, NUL-terminated, its length in *length. */
const char *spx_corpus_read(const char *path, apr_size_t *length, apr_pool_t *pool);

/* The diagnostics in .expected form ("CODE L:C-L:C\n" each), in list order. */
const char *spx_corpus_summary(const spx_diagnostics_t *list, apr_pool_t *pool);

/* The node of a graph or context document whose "id" is id, or NULL
 * (borrowed from the document). */
json_t *spx_document_node(json_t *document, const char *id);

/* The graph document of an admitted project as the engine writes it
 * (spx_graph_text, its one renderer), read back by Jansson: a new
 * reference. The test fails (and NULL is returned) when it cannot be
 * written or read, or when Jansson's canonical text of what it read
 * (SPX_CANONICAL_FLAGS) is not the text written. */
json_t *spx_corpus_graph(const spx_project_t *project);

/* The same for a single source's graph (spx_source_graph_text). */
json_t *spx_corpus_source_graph(const spx_project_t *project);

/* Compare actual with the .expected file beside input_path (input's name with
 * its extension replaced); on a mismatch print both to stderr with the input's
 * name, and fail the running test. */
void spx_corpus_expect(const char *input_path, const char *actual, apr_pool_t *pool);

#endif /* SPX_CORPUS_H */
