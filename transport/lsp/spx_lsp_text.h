/*
 * spx_lsp_text.h: positions of the Language Server Protocol over a text's
 * bytes (docs/editors.md, "Positions"): a line and a character counted in
 * UTF-16 code units (LSP's default) or UTF-8 bytes (when the client offers
 * utf-8), converted exactly to and from the engine's byte offsets; the
 * edits of a didChange applied to a document's text.
 *
 * Lines end at LF, CR LF or a lone CR (LSP's rule). A well-formed UTF-8
 * sequence is one unit in UTF-16 below U+10000 and two above; an ill-formed
 * part (spx_utf8.h's maximal subpart) is one U+FFFD as an editor shows it:
 * one UTF-16 unit or three UTF-8 bytes. A file read from disk may start
 * with a byte order mark, which an editor does not show: it counts for
 * nothing (skip_bom); a buffer the client sent is counted as sent.
 */
#ifndef SPX_LSP_TEXT_H
#define SPX_LSP_TEXT_H

#include <apr_pools.h>
#include <apr_tables.h>

typedef enum spx_lsp_encoding_t { SPX_LSP_UTF16 = 1, SPX_LSP_UTF8 = 2 } spx_lsp_encoding_t;

/* A text with the offsets where its lines start. */
typedef struct spx_lsp_lines_t {
    const unsigned char *text;
    apr_size_t length;
    apr_size_t skip;            /* leading bytes that count for nothing (a BOM) */
    apr_array_header_t *starts; /* apr_size_t, the first 0 */
} spx_lsp_lines_t;

/* Index text's lines (in pool); skip_bom: a leading BOM counts for nothing. */
void spx_lsp_lines_index(spx_lsp_lines_t *lines, const unsigned char *text, apr_size_t length,
                         int skip_bom, apr_pool_t *pool);

/* The LSP position of the byte offset (clamped to the text; an offset
 * inside a character or a CR LF is taken back to its start). */
void spx_lsp_position(const spx_lsp_lines_t *lines, apr_size_t offset, spx_lsp_encoding_t encoding,
                      apr_size_t *line, apr_size_t *character);

/* The byte offset of an LSP position: a line past the last is the end of
 * the text, a character past its line's end is that end (LSP's rule), and
 * a character inside a UTF-16 surrogate pair is taken back to its start. */
apr_size_t spx_lsp_offset(const spx_lsp_lines_t *lines, apr_uint64_t line, apr_uint64_t character,
                          spx_lsp_encoding_t encoding);

#endif /* SPX_LSP_TEXT_H */
