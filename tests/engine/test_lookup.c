/*
 * test_lookup.c: the position queries (spx_lookup.h) on the project
 * tests/projects/lookup (src/shapes.spx is source 0, src/app.spx source 1):
 * what is at an offset at a name's first and last byte and around it, the
 * definitions of items across modules, of locals, parameters, binders,
 * fields and variants, every reference in a stable order with and without
 * the declaration, hover texts and leading comments, the symbols of a
 * source and of the project, completion after "m.", "m.E.", "x." and in
 * scope, signature help and its active argument, semantic tokens, a project
 * rebuilt over an editor's text, hover's words against the graph outline's,
 * the sources by number, path and module, and every query at every offset
 * of hostile texts.
 */
#include "spx_cli_view.h"
#include "spx_corpus.h"
#include "spx_lookup.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

#define SHAPES 0
#define APP 1

typedef struct fixture_t {
    apr_pool_t *pool;
    spx_project_t *project;
    const char *text[2];
    apr_size_t length[2];
} fixture_t;

static fixture_t open_lookup(void)
{
    fixture_t fixture;
    apr_pool_create(&fixture.pool, NULL);
    const char *message = NULL;
    const char *root = spx_corpus_dir("projects/lookup", fixture.pool);
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&fixture.project,
                                           apr_pstrcat(fixture.pool, root, "/semaprax.toml", NULL),
                                           fixture.pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(fixture.project));
    fixture.text[SHAPES] = spx_corpus_read(apr_pstrcat(fixture.pool, root, "/src/shapes.spx", NULL),
                                           &fixture.length[SHAPES], fixture.pool);
    fixture.text[APP] = spx_corpus_read(apr_pstrcat(fixture.pool, root, "/src/app.spx", NULL),
                                        &fixture.length[APP], fixture.pool);
    return fixture;
}

/* The offset of the nth (0-based) occurrence of needle in text, plus skip. */
static apr_size_t find(const char *text, const char *needle, int nth, apr_size_t skip)
{
    const char *at = strstr(text, needle);
    for (int i = 0; i < nth && at; i++)
        at = strstr(at + 1, needle);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    return (apr_size_t)(at - text) + skip;
}

/* The span covers the bytes [start, start + length) of text, with the
 * line and column those bytes have. */
static void assert_span(const char *text, spx_span_t span, apr_size_t start, apr_size_t length)
{
    CU_ASSERT_EQUAL(span.start.offset, start);
    CU_ASSERT_EQUAL(span.end.offset, start + length);
    apr_size_t line = 1, column = 1;
    for (apr_size_t i = 0; i < start; i++) {
        line = text[i] == '\n' ? line + 1 : line;
        column = text[i] == '\n' ? 1 : column + 1;
    }
    CU_ASSERT_EQUAL(span.start.line, line);
    CU_ASSERT_EQUAL(span.start.column, column);
    CU_ASSERT_EQUAL(span.end.line, line);
    CU_ASSERT_EQUAL(span.end.column, column + length);
}

static void test_at_a_name_and_around_it(void)
{
    fixture_t f = open_lookup();
    const char *app = f.text[APP];
    spx_lookup_at_t at;
    /* the call twice(...) in main: first and last byte name the function */
    apr_size_t call = find(app, "twice(shapes", 0, 0);
    for (apr_size_t offset = call; offset < call + 5; offset++) {
        CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, offset, &at, f.pool), SPX_LOOKUP_FOUND);
        CU_ASSERT_EQUAL(at.symbol.kind, SPX_LOOKUP_FUNCTION);
        CU_ASSERT_STRING_EQUAL(at.symbol.name, "twice");
        CU_ASSERT_STRING_EQUAL(at.symbol.module, "app");
        CU_ASSERT_EQUAL(at.symbol.source, APP);
        assert_span(app, at.symbol.span, find(app, "fn twice", 0, 3), 5);
        CU_ASSERT_EQUAL(at.site.source, APP);
        assert_span(app, at.site.span, call, 5);
        CU_ASSERT_FALSE(at.site.declaration);
    }
    /* the byte after the name, and the one before it, are not the name */
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, call + 5, &at, f.pool), SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, call - 1, &at, f.pool), SPX_LOOKUP_NOTHING);
    /* the local of the same name: declared by let, read in p.x + twice */
    apr_size_t local = find(app, "let twice", 0, 4);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, local + 4, &at, f.pool), SPX_LOOKUP_FOUND);
    CU_ASSERT_EQUAL(at.symbol.kind, SPX_LOOKUP_LOCAL);
    CU_ASSERT_STRING_EQUAL(at.symbol.container, "main");
    CU_ASSERT_TRUE(at.site.declaration);
    assert_span(app, at.site.span, local, 5);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, find(app, "+ twice", 0, 2), &at, f.pool),
                    SPX_LOOKUP_FOUND);
    CU_ASSERT_EQUAL(at.symbol.kind, SPX_LOOKUP_LOCAL);
    assert_span(app, at.symbol.span, local, 5);
    /* whitespace, a comment (its non-ASCII bytes too), a string, a number, a keyword */
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, find(app, "  let twice", 0, 0), &at, f.pool),
                    SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, find(app, "entrée", 0, 4), &at, f.pool),
                    SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, find(app, "// How many", 0, 3), &at, f.pool),
                    SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, find(app, "été", 0, 0), &at, f.pool),
                    SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, find(app, "n * 2", 0, 4), &at, f.pool),
                    SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, find(app, "return n", 0, 0), &at, f.pool),
                    SPX_LOOKUP_NOTHING);
    /* the end of the text, past it, and no such source */
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, f.length[APP], &at, f.pool), SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, f.length[APP] + 1, &at, f.pool),
                    SPX_LOOKUP_BAD_OFFSET);
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, 2, 0, &at, f.pool), SPX_LOOKUP_BAD_SOURCE);
    /* the last byte of the text: the "}" closing test_area */
    CU_ASSERT_EQUAL(spx_lookup_at(f.project, APP, f.length[APP] - 2, &at, f.pool),
                    SPX_LOOKUP_NOTHING);
    apr_pool_destroy(f.pool);
}

/* The definition of the name at the offset of needle (+ skip) in source. */
static spx_lookup_site_t definition(fixture_t *f, apr_size_t source, const char *needle, int nth,
                                    apr_size_t skip)
{
    spx_lookup_site_t site;
    CU_ASSERT_EQUAL(spx_lookup_definition(f->project, source,
                                          find(f->text[source], needle, nth, skip), &site, f->pool),
                    SPX_LOOKUP_FOUND);
    CU_ASSERT_TRUE(site.declaration);
    return site;
}

static void test_definitions(void)
{
    fixture_t f = open_lookup();
    const char *app = f.text[APP], *shapes = f.text[SHAPES];
    /* across modules: a function, a const, a struct, an enum, a variant, a field */
    spx_lookup_site_t site = definition(&f, APP, "shapes.area(s)", 0, 7);
    CU_ASSERT_EQUAL(site.source, SHAPES);
    assert_span(shapes, site.span, find(shapes, "fn area", 0, 3), 4);
    CU_ASSERT_EQUAL(site.span.start.line, 12);
    CU_ASSERT_EQUAL(site.span.start.column, 11);
    site = definition(&f, APP, "shapes.SIDE", 0, 10); /* SIDE's last byte */
    CU_ASSERT_EQUAL(site.source, SHAPES);
    assert_span(shapes, site.span, find(shapes, "SIDE:", 0, 0), 4);
    site = definition(&f, APP, "-> shapes.Point", 0, 10);
    assert_span(shapes, site.span, find(shapes, "struct Point", 0, 7), 5);
    site = definition(&f, APP, "Shape.Square(p", 0, 0);
    CU_ASSERT_EQUAL(site.source, SHAPES);
    assert_span(shapes, site.span, find(shapes, "enum Shape", 0, 5), 5);
    site = definition(&f, APP, "Square(p", 0, 5);
    assert_span(shapes, site.span, find(shapes, "Square(int)", 0, 0), 6);
    site = definition(&f, APP, "{ x: p.x", 0, 2);
    assert_span(shapes, site.span, find(shapes, "x: int", 0, 0), 1);
    site = definition(&f, APP, "p.y = p.y - k", 0, 2);
    assert_span(shapes, site.span, find(shapes, "y: int", 0, 0), 1);
    /* the module named by a qualifier: its whole source, from its start */
    site = definition(&f, APP, "shapes.count", 0, 0);
    CU_ASSERT_EQUAL(site.source, SHAPES);
    CU_ASSERT_EQUAL(site.span.start.offset, 0);
    CU_ASSERT_EQUAL(site.span.end.offset, 0);
    CU_ASSERT_EQUAL(site.span.start.line, 1);
    CU_ASSERT_EQUAL(site.span.start.column, 1);
    /* a const of the module itself, in a body */
    site = definition(&f, APP, "TIMES)", 0, 0);
    CU_ASSERT_EQUAL(site.source, APP);
    assert_span(app, site.span, find(app, "TIMES:", 0, 0), 5);
    /* locals: each k is its own block's, a parameter, a match binder */
    site = definition(&f, APP, "+ k", 0, 2);
    assert_span(app, site.span, find(app, "let k = 1", 0, 4), 1);
    site = definition(&f, APP, "- k", 0, 2);
    assert_span(app, site.span, find(app, "let k = 2", 0, 4), 1);
    site = definition(&f, APP, "p.x + by", 0, 6);
    assert_span(app, site.span, find(app, "by: int", 0, 0), 2);
    site = definition(&f, SHAPES, "n * n", 0, 4);
    assert_span(shapes, site.span, find(shapes, "Square(n)", 0, 7), 1);
    /* the receiver of a method call is the local */
    site = definition(&f, APP, "word.trim", 0, 0);
    assert_span(app, site.span, find(app, "let word", 0, 4), 4);
    /* a declaration is its own definition */
    site = definition(&f, SHAPES, "fn count", 0, 3);
    assert_span(shapes, site.span, find(shapes, "fn count", 0, 3), 5);
    /* a builtin is declared nowhere */
    spx_lookup_site_t none;
    CU_ASSERT_EQUAL(
        spx_lookup_definition(f.project, APP, find(app, "len(name)", 0, 0), &none, f.pool),
        SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(spx_lookup_definition(f.project, APP, find(app, "trim()", 0, 0), &none, f.pool),
                    SPX_LOOKUP_NOTHING);
    apr_pool_destroy(f.pool);
}

/* The references' sites are, in order, the (source, needle, nth, skip,
 * length, declaration) rows given. */
typedef struct expected_site_t {
    apr_size_t source;
    const char *needle;
    int nth;
    apr_size_t skip, length;
    int declaration;
} expected_site_t;

static void assert_sites(fixture_t *f, const spx_lookup_references_t *references,
                         const expected_site_t *expected, apr_size_t count)
{
    CU_ASSERT_EQUAL_FATAL(references->count, count);
    CU_ASSERT_FALSE(references->truncated);
    for (apr_size_t i = 0; i < count; i++) {
        CU_ASSERT_EQUAL(references->sites[i].source, expected[i].source);
        CU_ASSERT_EQUAL(references->sites[i].declaration, expected[i].declaration);
        assert_span(f->text[expected[i].source], references->sites[i].span,
                    find(f->text[expected[i].source], expected[i].needle, expected[i].nth,
                         expected[i].skip),
                    expected[i].length);
    }
}

static void test_references(void)
{
    fixture_t f = open_lookup();
    spx_lookup_references_t references;
    /* a struct, asked from a type in the other module */
    static const expected_site_t point[] = {
        {SHAPES, "struct Point", 0, 7, 5, 1}, {SHAPES, "Span(Point", 0, 5, 5, 0},
        {SHAPES, ", Point)", 0, 2, 5, 0},     {APP, "shapes.Point, by", 0, 7, 5, 0},
        {APP, "shapes.Point {", 1, 7, 5, 0},  {APP, "shapes.Point {", 2, 7, 5, 0},
    };
    /* -> shapes.Point (the result type) comes before the two literals */
    CU_ASSERT_EQUAL(spx_lookup_references(f.project, APP,
                                          find(f.text[APP], "shapes.Point, by", 0, 7), 1,
                                          &references, f.pool),
                    SPX_LOOKUP_FOUND);
    CU_ASSERT_EQUAL(references.symbol.kind, SPX_LOOKUP_STRUCT);
    CU_ASSERT_EQUAL_FATAL(references.count, 7);
    expected_site_t with_result[7];
    memcpy(with_result, point, 4 * sizeof(point[0]));
    with_result[4] = (expected_site_t){APP, "-> shapes.Point", 0, 10, 5, 0};
    memcpy(with_result + 5, point + 4, 2 * sizeof(point[0]));
    assert_sites(&f, &references, with_result, 7);
    /* the same without the declaration, asked from the declaration */
    CU_ASSERT_EQUAL(spx_lookup_references(f.project, SHAPES,
                                          find(f.text[SHAPES], "struct Point", 0, 11), 0,
                                          &references, f.pool),
                    SPX_LOOKUP_FOUND);
    assert_sites(&f, &references, with_result + 1, 6);

    /* a field: its declaration, reads, writes and struct literals' names */
    static const expected_site_t x[] = {
        {SHAPES, "x: int", 0, 0, 1, 1}, {SHAPES, "b.x", 0, 2, 1, 0},
        {SHAPES, "a.x", 0, 2, 1, 0},    {APP, "{ x: p.x", 0, 2, 1, 0},
        {APP, "p.x + by", 0, 2, 1, 0},  {APP, "{ x: 1", 0, 2, 1, 0},
        {APP, "p.x = p.x", 0, 2, 1, 0}, {APP, "p.x = p.x", 0, 8, 1, 0},
        {APP, "p.x > 0", 0, 2, 1, 0},   {APP, "Square(p.x)", 0, 9, 1, 0},
    };
    CU_ASSERT_EQUAL(spx_lookup_references(f.project, APP, find(f.text[APP], "p.x > 0", 0, 2), 1,
                                          &references, f.pool),
                    SPX_LOOKUP_FOUND);
    CU_ASSERT_EQUAL(references.symbol.kind, SPX_LOOKUP_FIELD);
    assert_sites(&f, &references, x, sizeof(x) / sizeof(x[0]));

    /* a local: its block only; the other k is another local */
    static const expected_site_t k[] = {{APP, "let k = 1", 0, 4, 1, 1}, {APP, "+ k", 0, 2, 1, 0}};
    CU_ASSERT_EQUAL(spx_lookup_references(f.project, APP, find(f.text[APP], "+ k", 0, 2), 1,
                                          &references, f.pool),
                    SPX_LOOKUP_FOUND);
    assert_sites(&f, &references, k, 2);

    /* a function sharing its name with a local: only the calls */
    static const expected_site_t twice[] = {{APP, "fn twice", 0, 3, 5, 1},
                                            {APP, "twice(shapes", 0, 0, 5, 0}};
    CU_ASSERT_EQUAL(spx_lookup_references(f.project, APP, find(f.text[APP], "fn twice", 0, 3), 1,
                                          &references, f.pool),
                    SPX_LOOKUP_FOUND);
    assert_sites(&f, &references, twice, 2);

    /* a variant: its declaration, a match arm, two constructors */
    static const expected_site_t square[] = {
        {SHAPES, "Square(int)", 0, 0, 6, 1},
        {SHAPES, "Square(n)", 0, 0, 6, 0},
        {APP, "Square(p.x)", 0, 0, 6, 0},
        {APP, "Square(3)", 0, 0, 6, 0},
    };
    CU_ASSERT_EQUAL(spx_lookup_references(f.project, APP, find(f.text[APP], "Square(3)", 0, 5), 1,
                                          &references, f.pool),
                    SPX_LOOKUP_FOUND);
    assert_sites(&f, &references, square, 4);

    /* a module: the import and every qualifier */
    CU_ASSERT_EQUAL(spx_lookup_references(f.project, APP, find(f.text[APP], "import shapes", 0, 7),
                                          1, &references, f.pool),
                    SPX_LOOKUP_FOUND);
    CU_ASSERT_EQUAL(references.symbol.kind, SPX_LOOKUP_MODULE);
    CU_ASSERT_EQUAL(references.count, 11);
    for (apr_size_t i = 0; i < references.count; i++) {
        CU_ASSERT_EQUAL(references.sites[i].source, APP);
        CU_ASSERT_EQUAL(memcmp(f.text[APP] + references.sites[i].span.start.offset, "shapes", 6),
                        0);
        CU_ASSERT_TRUE(i == 0 || references.sites[i - 1].span.start.offset <
                                     references.sites[i].span.start.offset);
    }

    /* a builtin: every call */
    static const expected_site_t len[] = {{APP, "len(name)", 0, 0, 3, 0}};
    CU_ASSERT_EQUAL(spx_lookup_references(f.project, APP, find(f.text[APP], "len(name)", 0, 2), 1,
                                          &references, f.pool),
                    SPX_LOOKUP_FOUND);
    assert_sites(&f, &references, len, 1);
    CU_ASSERT_EQUAL(spx_lookup_references(f.project, APP, find(f.text[APP], "// How", 0, 0), 1,
                                          &references, f.pool),
                    SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(references.count, 0);
    apr_pool_destroy(f.pool);
}

/* The hover at needle (+ skip) in source. */
static spx_lookup_hover_t hover(fixture_t *f, apr_size_t source, const char *needle, int nth,
                                apr_size_t skip)
{
    spx_lookup_hover_t answer;
    CU_ASSERT_EQUAL(spx_lookup_hover(f->project, source, find(f->text[source], needle, nth, skip),
                                     &answer, f->pool),
                    SPX_LOOKUP_FOUND);
    return answer;
}

static void assert_hover(spx_lookup_hover_t answer, spx_lookup_kind_t kind, const char *declaration,
                         const char *comment)
{
    CU_ASSERT_EQUAL(answer.symbol.kind, kind);
    CU_ASSERT_PTR_NOT_NULL_FATAL(answer.declaration);
    CU_ASSERT_STRING_EQUAL(answer.declaration, declaration);
    if (comment) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(answer.comment);
        CU_ASSERT_STRING_EQUAL(answer.comment, comment);
    } else {
        CU_ASSERT_PTR_NULL(answer.comment);
    }
}

static void test_hover(void)
{
    fixture_t f = open_lookup();
    assert_hover(hover(&f, APP, "shapes.area(s)", 0, 7), SPX_LOOKUP_FUNCTION,
                 "export fn area(s: shapes.Shape) -> int",
                 "The area of a shape, in square units (« aire »).");
    assert_hover(hover(&f, APP, "-> shapes.Point", 0, 10), SPX_LOOKUP_STRUCT,
                 "export struct Point { x: int, y: int }",
                 "A point on the plane.\nBoth coordinates count from the origin.");
    assert_hover(hover(&f, APP, "shapes.SIDE", 0, 7), SPX_LOOKUP_CONST,
                 "export const SIDE: int = 4", "Shapes, their sizes and the names they go by.");
    /* a str value quoted as written; no comment right above */
    assert_hover(hover(&f, SHAPES, "LABEL", 0, 0), SPX_LOOKUP_CONST,
                 "export const LABEL: str = \"carré ≥ 1\"", NULL);
    assert_hover(hover(&f, APP, "TIMES)", 0, 0), SPX_LOOKUP_CONST, "const TIMES: int = 5",
                 "How many times main grows the point.");
    assert_hover(hover(&f, APP, "fn main", 0, 3), SPX_LOOKUP_FUNCTION, "export fn main() -> int",
                 "L'entrée: grows a point, measures a square.");
    assert_hover(hover(&f, APP, "fn grow", 0, 3), SPX_LOOKUP_FUNCTION,
                 "fn grow(p: shapes.Point, by: int) -> shapes.Point", NULL);
    assert_hover(hover(&f, APP, "Shape.Square(p", 0, 0), SPX_LOOKUP_ENUM,
                 "export enum Shape { Dot, Square(int), Span(shapes.Point, shapes.Point) }", NULL);
    assert_hover(hover(&f, APP, "Square(p", 0, 0), SPX_LOOKUP_VARIANT, "Shape.Square(int)", NULL);
    assert_hover(hover(&f, APP, "p.x > 0", 0, 2), SPX_LOOKUP_FIELD, "Point.x: int", NULL);
    assert_hover(hover(&f, APP, "import shapes", 0, 7), SPX_LOOKUP_MODULE,
                 "module shapes (src/shapes.spx)", NULL);
    assert_hover(hover(&f, APP, "p.x > 0", 0, 0), SPX_LOOKUP_LOCAL, "var p: shapes.Point", NULL);
    assert_hover(hover(&f, APP, "word.trim", 0, 0), SPX_LOOKUP_LOCAL, "let word: str", NULL);
    assert_hover(hover(&f, APP, "p.x + by", 0, 6), SPX_LOOKUP_PARAMETER, "by: int", NULL);
    assert_hover(hover(&f, SHAPES, "b.x", 0, 0), SPX_LOOKUP_LOCAL, "b: shapes.Point", NULL);
    assert_hover(hover(&f, SHAPES, "n * n", 0, 0), SPX_LOOKUP_LOCAL, "n: int", NULL);
    assert_hover(hover(&f, APP, "trim()", 0, 3), SPX_LOOKUP_BUILTIN,
                 "builtin fn trim(s: str) -> str", NULL);
    assert_hover(hover(&f, APP, "len(name)", 0, 0), SPX_LOOKUP_BUILTIN,
                 "builtin fn len(x: str | [T] | {K: V}) -> int", NULL);
    spx_lookup_hover_t none;
    CU_ASSERT_EQUAL(
        spx_lookup_hover(f.project, APP, find(f.text[APP], "  été", 0, 0), &none, f.pool),
        SPX_LOOKUP_NOTHING);
    CU_ASSERT_PTR_NULL(none.declaration);
    apr_pool_destroy(f.pool);
}

/* Hover words every item and module exactly as the outline of `semaprax
 * graph --format text` does (cli_view.c reads the graph's typed walk; the
 * hover reads the declarations): each declaration is one of its lines. */
static void test_hover_words_as_the_outline(void)
{
    fixture_t f = open_lookup();
    FILE *out = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    spx_view_graph_outline(out, f.project);
    long size = ftell(out);
    CU_ASSERT_TRUE_FATAL(size > 0);
    char *outline = apr_pcalloc(f.pool, (apr_size_t)size + 2);
    outline[0] = '\n';
    rewind(out);
    CU_ASSERT_EQUAL(fread(outline + 1, 1, (size_t)size, out), (size_t)size);
    fclose(out);
    int items = 0;
    for (apr_size_t source = 0; source < 2; source++) {
        spx_lookup_items_t list;
        CU_ASSERT_EQUAL(spx_lookup_document_symbols(f.project, source, &list, f.pool),
                        SPX_LOOKUP_FOUND);
        for (apr_size_t i = 0; i < list.count; i++) {
            if (list.items[i].parent >= 0 || list.items[i].kind == SPX_LOOKUP_TEST)
                continue;
            spx_lookup_hover_t answer;
            CU_ASSERT_EQUAL_FATAL(spx_lookup_hover(f.project, source,
                                                   list.items[i].name_span.start.offset, &answer,
                                                   f.pool),
                                  SPX_LOOKUP_FOUND);
            const char *line = apr_pstrcat(f.pool, "\n  ", answer.declaration, "\n", NULL);
            if (!strstr(outline, line))
                fprintf(stderr, "\n  not in the outline: %s", line + 3);
            CU_ASSERT_PTR_NOT_NULL(strstr(outline, line));
            items++;
        }
    }
    CU_ASSERT_EQUAL(items, 11);
    spx_lookup_hover_t module;
    CU_ASSERT_EQUAL(
        spx_lookup_hover(f.project, APP, find(f.text[APP], "shapes;", 0, 0), &module, f.pool),
        SPX_LOOKUP_FOUND);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(outline, apr_pstrcat(f.pool, "\n", module.declaration, "\n", NULL)));
    apr_pool_destroy(f.pool);
}

static void test_document_symbols(void)
{
    fixture_t f = open_lookup();
    const char *shapes = f.text[SHAPES];
    spx_lookup_items_t items;
    CU_ASSERT_EQUAL(spx_lookup_document_symbols(f.project, SHAPES, &items, f.pool),
                    SPX_LOOKUP_FOUND);
    static const struct {
        spx_lookup_kind_t kind;
        const char *name;
        long parent;
        const char *from, *to; /* the whole span: from the first bytes to the end of the last */
    } expected[] = {
        {SPX_LOOKUP_CONST, "SIDE", -1, "export const SIDE", "= 4;"},
        {SPX_LOOKUP_CONST, "LABEL", -1, "export const LABEL", "1\";"},
        {SPX_LOOKUP_STRUCT, "Point", -1, "export struct", "y: int }"},
        {SPX_LOOKUP_FIELD, "x", 2, "x: int", "x: int"},
        {SPX_LOOKUP_FIELD, "y", 2, "y: int", "y: int"},
        {SPX_LOOKUP_ENUM, "Shape", -1, "export enum", "Point) }"},
        {SPX_LOOKUP_VARIANT, "Dot", 5, "Dot", "Dot"},
        {SPX_LOOKUP_VARIANT, "Square", 5, "Square(int)", "Square(int)"},
        {SPX_LOOKUP_VARIANT, "Span", 5, "Span(Point", "Span(Point, Point)"},
        {SPX_LOOKUP_FUNCTION, "area", -1, "export fn area", "return total;\n}"},
        {SPX_LOOKUP_FUNCTION, "count", -1, "export fn count", "SIDE;\n}"},
    };
    CU_ASSERT_EQUAL_FATAL(items.count, sizeof(expected) / sizeof(expected[0]));
    CU_ASSERT_FALSE(items.truncated);
    for (apr_size_t i = 0; i < items.count; i++) {
        CU_ASSERT_EQUAL(items.items[i].kind, expected[i].kind);
        CU_ASSERT_STRING_EQUAL(items.items[i].name, expected[i].name);
        CU_ASSERT_STRING_EQUAL(items.items[i].module, "shapes");
        CU_ASSERT_EQUAL(items.items[i].parent, expected[i].parent);
        CU_ASSERT_EQUAL(items.items[i].span.start.offset, find(shapes, expected[i].from, 0, 0));
        CU_ASSERT_EQUAL(items.items[i].span.end.offset,
                        find(shapes, expected[i].to, 0, strlen(expected[i].to)));
        CU_ASSERT_EQUAL(items.items[i].name_span.end.offset - items.items[i].name_span.start.offset,
                        strlen(expected[i].name));
        CU_ASSERT_EQUAL(memcmp(shapes + items.items[i].name_span.start.offset, expected[i].name,
                               strlen(expected[i].name)),
                        0);
    }
    /* app: its items, then the manifest's test over its function */
    CU_ASSERT_EQUAL(spx_lookup_document_symbols(f.project, APP, &items, f.pool), SPX_LOOKUP_FOUND);
    CU_ASSERT_EQUAL_FATAL(items.count, 6);
    const char *names[] = {"TIMES", "grow", "twice", "main", "test_area", "area"};
    for (apr_size_t i = 0; i < 6; i++)
        CU_ASSERT_STRING_EQUAL(items.items[i].name, names[i]);
    CU_ASSERT_EQUAL(items.items[5].kind, SPX_LOOKUP_TEST);
    CU_ASSERT_EQUAL(items.items[5].span.start.offset, items.items[4].span.start.offset);
    CU_ASSERT_EQUAL(items.items[5].name_span.start.offset, find(f.text[APP], "fn test_area", 0, 3));
    CU_ASSERT_EQUAL(spx_lookup_document_symbols(f.project, 2, &items, f.pool),
                    SPX_LOOKUP_BAD_SOURCE);
    apr_pool_destroy(f.pool);
}

static void test_workspace_symbols(void)
{
    fixture_t f = open_lookup();
    spx_lookup_items_t items;
    /* "T" without case: items only (no field, variant or local) */
    spx_lookup_workspace_symbols(f.project, "T", 100, &items, f.pool);
    const char *names[] = {"Point", "count", "TIMES", "twice", "test_area"};
    const apr_size_t sources[] = {SHAPES, SHAPES, APP, APP, APP};
    CU_ASSERT_EQUAL_FATAL(items.count, 5);
    CU_ASSERT_FALSE(items.truncated);
    for (apr_size_t i = 0; i < 5; i++) {
        CU_ASSERT_STRING_EQUAL(items.items[i].name, names[i]);
        CU_ASSERT_EQUAL(items.items[i].source, sources[i]);
        CU_ASSERT_EQUAL(items.items[i].parent, -1);
    }
    CU_ASSERT_EQUAL(items.items[1].name_span.start.offset, find(f.text[SHAPES], "fn count", 0, 3));
    spx_lookup_workspace_symbols(f.project, "t", 2, &items, f.pool);
    CU_ASSERT_EQUAL(items.count, 2);
    CU_ASSERT_TRUE(items.truncated);
    spx_lookup_workspace_symbols(f.project, "AREA", 100, &items, f.pool);
    CU_ASSERT_EQUAL_FATAL(items.count, 2);
    CU_ASSERT_STRING_EQUAL(items.items[0].name, "area");
    CU_ASSERT_STRING_EQUAL(items.items[1].name, "test_area");
    spx_lookup_workspace_symbols(f.project, "nothing here", 100, &items, f.pool);
    CU_ASSERT_EQUAL(items.count, 0);
    spx_lookup_workspace_symbols(f.project, "", 100, &items, f.pool);
    CU_ASSERT_EQUAL(items.count, 11);
    apr_pool_destroy(f.pool);
}

/* The labels of a completion, joined by spaces. */
static const char *labels(const spx_lookup_completions_t *completions, apr_pool_t *pool)
{
    const char *text = "";
    for (apr_size_t i = 0; i < completions->count; i++)
        text = apr_pstrcat(pool, text, i ? " " : "", completions->list[i].label, NULL);
    return text;
}

static const spx_lookup_completion_t *completion_named(const spx_lookup_completions_t *list,
                                                       const char *label)
{
    for (apr_size_t i = 0; i < list->count; i++)
        if (strcmp(list->list[i].label, label) == 0)
            return &list->list[i];
    return NULL;
}

static void test_completion(void)
{
    fixture_t f = open_lookup();
    const char *app = f.text[APP];
    spx_lookup_completions_t completions;
    /* after "shapes.": its exported items */
    CU_ASSERT_EQUAL(
        spx_lookup_complete(f.project, APP, find(app, "shapes.count", 0, 7), &completions, f.pool),
        SPX_LOOKUP_FOUND);
    CU_ASSERT_STRING_EQUAL(completions.prefix, "");
    CU_ASSERT_STRING_EQUAL(labels(&completions, f.pool), "area count Point Shape SIDE LABEL");
    CU_ASSERT_STRING_EQUAL(completions.list[0].detail, "export fn area(s: shapes.Shape) -> int");
    CU_ASSERT_EQUAL(completions.list[2].kind, SPX_LOOKUP_STRUCT);
    /* with a prefix written */
    CU_ASSERT_EQUAL(
        spx_lookup_complete(f.project, APP, find(app, "shapes.count", 0, 9), &completions, f.pool),
        SPX_LOOKUP_FOUND);
    CU_ASSERT_STRING_EQUAL(completions.prefix, "co");
    CU_ASSERT_STRING_EQUAL(labels(&completions, f.pool), "count");
    /* after "shapes.Shape.": the variants of an imported module's enum */
    CU_ASSERT_EQUAL(spx_lookup_complete(f.project, APP, find(app, "Shape.Square(p", 0, 6),
                                        &completions, f.pool),
                    SPX_LOOKUP_FOUND);
    CU_ASSERT_STRING_EQUAL(labels(&completions, f.pool), "Dot Square Span");
    CU_ASSERT_EQUAL(completions.list[1].kind, SPX_LOOKUP_VARIANT);
    CU_ASSERT_STRING_EQUAL(completions.list[1].detail, "Shape.Square(int)");
    /* after "p.": the fields of its struct */
    CU_ASSERT_EQUAL(
        spx_lookup_complete(f.project, APP, find(app, "p.x > 0", 0, 2), &completions, f.pool),
        SPX_LOOKUP_FOUND);
    CU_ASSERT_STRING_EQUAL(completions.prefix, "");
    CU_ASSERT_STRING_EQUAL(labels(&completions, f.pool), "x y");
    CU_ASSERT_EQUAL(completions.list[0].kind, SPX_LOOKUP_FIELD);
    CU_ASSERT_STRING_EQUAL(completions.list[0].detail, "int");
    /* after "word.": the library's str methods, no array's */
    CU_ASSERT_EQUAL(
        spx_lookup_complete(f.project, APP, find(app, "word.trim", 0, 5), &completions, f.pool),
        SPX_LOOKUP_FOUND);
    CU_ASSERT_PTR_NOT_NULL(completion_named(&completions, "trim"));
    CU_ASSERT_PTR_NOT_NULL(completion_named(&completions, "split"));
    CU_ASSERT_PTR_NOT_NULL(completion_named(&completions, "contains"));
    CU_ASSERT_PTR_NULL(completion_named(&completions, "push"));
    CU_ASSERT_PTR_NULL(completion_named(&completions, "keys"));
    CU_ASSERT_STRING_EQUAL(completion_named(&completions, "trim")->detail,
                           "fn trim(s: str) -> str");
    CU_ASSERT_EQUAL(completion_named(&completions, "trim")->kind, SPX_LOOKUP_BUILTIN);
    /* in scope inside the first if block: k, then the locals before it,
     * the parameters, items, modules, builtins and keywords; the local
     * twice hides the function twice; the other k and s are not in sight */
    CU_ASSERT_EQUAL(
        spx_lookup_complete(f.project, APP, find(app, "p.y = p.y + k", 0, 0), &completions, f.pool),
        SPX_LOOKUP_FOUND);
    const char *scope = labels(&completions, f.pool);
    CU_ASSERT_EQUAL(
        strncmp(scope, "k name word p twice grow main test_area TIMES shapes print", 58), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(scope, " len "));
    CU_ASSERT_PTR_NOT_NULL(strstr(scope, " match"));
    CU_ASSERT_PTR_NULL(strstr(scope, " s "));
    CU_ASSERT_EQUAL(completion_named(&completions, "twice")->kind, SPX_LOOKUP_LOCAL);
    CU_ASSERT_STRING_EQUAL(completion_named(&completions, "twice")->detail, "let twice: int");
    CU_ASSERT_EQUAL(completion_named(&completions, "shapes")->kind, SPX_LOOKUP_MODULE);
    CU_ASSERT_EQUAL(completion_named(&completions, "while")->kind, SPX_LOOKUP_KEYWORD);
    /* a prefix in scope: "wo" of word */
    CU_ASSERT_EQUAL(
        spx_lookup_complete(f.project, APP, find(app, "word.trim", 0, 2), &completions, f.pool),
        SPX_LOOKUP_FOUND);
    CU_ASSERT_STRING_EQUAL(labels(&completions, f.pool), "word");
    /* before the first let: no local yet */
    CU_ASSERT_EQUAL(
        spx_lookup_complete(f.project, APP, find(app, "  let twice", 0, 2), &completions, f.pool),
        SPX_LOOKUP_FOUND);
    CU_ASSERT_EQUAL(completion_named(&completions, "twice")->kind, SPX_LOOKUP_FUNCTION);
    CU_ASSERT_PTR_NULL(completion_named(&completions, "p"));
    CU_ASSERT_EQUAL(spx_lookup_complete(f.project, APP, f.length[APP] + 1, &completions, f.pool),
                    SPX_LOOKUP_BAD_OFFSET);
    apr_pool_destroy(f.pool);
}

static void assert_signature(fixture_t *f, apr_size_t offset, const char *label,
                             const char *const *parameters, apr_size_t count, apr_size_t active)
{
    spx_lookup_signature_t signature;
    CU_ASSERT_EQUAL_FATAL(spx_lookup_signature(f->project, APP, offset, &signature, f->pool),
                          SPX_LOOKUP_FOUND);
    CU_ASSERT_STRING_EQUAL(signature.label, label);
    CU_ASSERT_EQUAL_FATAL(signature.parameter_count, count);
    for (apr_size_t i = 0; i < count; i++)
        CU_ASSERT_STRING_EQUAL(
            apr_pstrndup(f->pool, label + signature.parameter_starts[i],
                         signature.parameter_ends[i] - signature.parameter_starts[i]),
            parameters[i]);
    CU_ASSERT_EQUAL(signature.active, active);
}

static void test_signature_help(void)
{
    fixture_t f = open_lookup();
    const char *app = f.text[APP];
    const char *grow[] = {"p: shapes.Point", "by: int"};
    const char *label = "fn grow(p: shapes.Point, by: int) -> shapes.Point";
    /* the second argument; the comma inside the struct literal is not one */
    assert_signature(&f, find(app, "TIMES);", 0, 0), label, grow, 2, 1);
    assert_signature(&f, find(app, "TIMES);", 0, 5), label, grow, 2, 1);
    /* inside the literal of the first argument; right after "(" */
    assert_signature(&f, find(app, "y: 2 }", 0, 0), label, grow, 2, 0);
    assert_signature(&f, find(app, "grow(shapes", 0, 5), label, grow, 2, 0);
    /* the innermost call: a variant's payload, in another module's call */
    const char *square[] = {"int"};
    assert_signature(&f, find(app, "Square(3)", 0, 7), "Shape.Square(int)", square, 1, 0);
    assert_signature(&f, find(app, "Square(3)", 0, 9), "fn area(s: shapes.Shape) -> int",
                     (const char *[]){"s: shapes.Shape"}, 1, 0);
    /* a builtin, and its second argument (its own string holds no comma) */
    assert_signature(&f, find(app, "\"nine\"", 0, 0), "fn assert(c: bool, message: str)",
                     (const char *[]){"c: bool", "message: str"}, 2, 1);
    /* a method: the receiver is its first parameter */
    assert_signature(&f, find(app, "trim()", 0, 5), "fn trim(s: str) -> str",
                     (const char *[]){"s: str"}, 1, 1);
    spx_lookup_signature_t signature;
    /* outside any call, on a call's name, after the call */
    CU_ASSERT_EQUAL(
        spx_lookup_signature(f.project, APP, find(app, "return moved", 0, 0), &signature, f.pool),
        SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(
        spx_lookup_signature(f.project, APP, find(app, "grow(shapes", 0, 2), &signature, f.pool),
        SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(
        spx_lookup_signature(f.project, APP, find(app, "TIMES);", 0, 6), &signature, f.pool),
        SPX_LOOKUP_NOTHING);
    CU_ASSERT_EQUAL(spx_lookup_signature(f.project, APP, 0, &signature, f.pool),
                    SPX_LOOKUP_NOTHING);
    apr_pool_destroy(f.pool);
}

static void test_semantic_tokens(void)
{
    fixture_t f = open_lookup();
    const char *app = f.text[APP];
    spx_lookup_tokens_t tokens;
    CU_ASSERT_EQUAL(spx_lookup_tokens(f.project, APP, &tokens, f.pool), SPX_LOOKUP_FOUND);
    CU_ASSERT_FALSE(tokens.truncated);
    /* import shapes;  // comment  const TIMES: int = shapes.SIDE + 1; */
    static const struct {
        const char *needle;
        apr_size_t skip, length;
        spx_lookup_token_kind_t kind;
        int declaration;
    } expected[] = {
        {"import", 0, 6, SPX_TOKEN_KIND_KEYWORD, 0},
        {"shapes;", 0, 6, SPX_TOKEN_KIND_MODULE, 0},
        {"// How", 0, 39, SPX_TOKEN_KIND_COMMENT, 0},
        {"const TIMES", 0, 5, SPX_TOKEN_KIND_KEYWORD, 0},
        {"TIMES:", 0, 5, SPX_TOKEN_KIND_CONST, 1},
        {": int =", 2, 3, SPX_TOKEN_KIND_TYPE, 0},
        {"= shapes", 0, 1, SPX_TOKEN_KIND_OPERATOR, 0},
        {"shapes.SIDE", 0, 6, SPX_TOKEN_KIND_MODULE, 0},
        {"SIDE", 0, 4, SPX_TOKEN_KIND_CONST, 0},
        {"+ 1;", 0, 1, SPX_TOKEN_KIND_OPERATOR, 0},
        {"1;", 0, 1, SPX_TOKEN_KIND_NUMBER, 0},
        {"fn grow", 0, 2, SPX_TOKEN_KIND_KEYWORD, 0},
        {"grow(p", 0, 4, SPX_TOKEN_KIND_FUNCTION, 1},
        {"p: shapes", 0, 1, SPX_TOKEN_KIND_PARAMETER, 1},
        {"shapes.Point, by", 0, 6, SPX_TOKEN_KIND_MODULE, 0},
        {"Point, by", 0, 5, SPX_TOKEN_KIND_TYPE, 0},
        {"by:", 0, 2, SPX_TOKEN_KIND_PARAMETER, 1},
    };
    apr_size_t count = sizeof(expected) / sizeof(expected[0]);
    CU_ASSERT_TRUE_FATAL(tokens.count > count);
    for (apr_size_t i = 0; i < count; i++) {
        CU_ASSERT_EQUAL(tokens.tokens[i].kind, expected[i].kind);
        CU_ASSERT_EQUAL(tokens.tokens[i].declaration, expected[i].declaration);
        assert_span(app, tokens.tokens[i].span, find(app, expected[i].needle, 0, expected[i].skip),
                    expected[i].length);
    }
    /* later: a non-ASCII string, the comment before main, a method, a field, a variant */
    int string = 0, comment = 0, method = 0, field = 0, variant = 0, local = 0;
    for (apr_size_t i = 0; i < tokens.count; i++) {
        const spx_lookup_token_t *token = &tokens.tokens[i];
        apr_size_t start = token->span.start.offset, size = token->span.end.offset - start;
        CU_ASSERT_TRUE(i == 0 || tokens.tokens[i - 1].span.end.offset <= start);
        if (start == find(app, "\"  été  \"", 0, 0) && size == strlen("\"  été  \""))
            string += token->kind == SPX_TOKEN_KIND_STRING;
        if (start == find(app, "// L'entrée", 0, 0) &&
            size == strlen("// L'entrée: grows a point, measures a square."))
            comment += token->kind == SPX_TOKEN_KIND_COMMENT;
        if (start == find(app, "trim()", 0, 0) && size == 4)
            method += token->kind == SPX_TOKEN_KIND_FUNCTION;
        if (start == find(app, "p.x > 0", 0, 2) && size == 1)
            field += token->kind == SPX_TOKEN_KIND_FIELD;
        if (start == find(app, "Square(p", 0, 0) && size == 6)
            variant += token->kind == SPX_TOKEN_KIND_VARIANT;
        if (start == find(app, "let twice", 0, 4) && size == 5)
            local += token->kind == SPX_TOKEN_KIND_LOCAL && token->declaration;
    }
    CU_ASSERT_EQUAL(string, 1);
    CU_ASSERT_EQUAL(comment, 1);
    CU_ASSERT_EQUAL(method, 1);
    CU_ASSERT_EQUAL(field, 1);
    CU_ASSERT_EQUAL(variant, 1);
    CU_ASSERT_EQUAL(local, 1);
    CU_ASSERT_STRING_EQUAL(spx_lookup_token_kind_name(SPX_TOKEN_KIND_OPERATOR), "operator");
    CU_ASSERT_EQUAL(spx_lookup_tokens(f.project, 2, &tokens, f.pool), SPX_LOOKUP_BAD_SOURCE);
    apr_pool_destroy(f.pool);
}

/* An editor's buffer: the project rebuilt over a replaced text answers
 * from those bytes, even with a syntax error elsewhere in the module. */
static void test_rebuilt_over_an_editor_text(void)
{
    fixture_t f = open_lookup();
    const char *edited =
        apr_pstrcat(f.pool, "// Moved down a line.\n", f.text[APP], "fn broken( {\n", NULL);
    const unsigned char *texts[2] = {NULL, (const unsigned char *)edited};
    apr_size_t lengths[2] = {0, strlen(edited)};
    spx_project_t *rebuilt = spx_project_rebuild(f.project, texts, lengths, f.pool);
    CU_ASSERT_FALSE(spx_project_admitted(rebuilt));
    spx_lookup_site_t site;
    CU_ASSERT_EQUAL(spx_lookup_definition(rebuilt, APP, find(edited, "+ k", 0, 2), &site, f.pool),
                    SPX_LOOKUP_FOUND);
    CU_ASSERT_EQUAL(site.span.start.offset, find(edited, "let k = 1", 0, 4));
    CU_ASSERT_EQUAL(site.span.start.line, 24);
    CU_ASSERT_EQUAL(
        spx_lookup_definition(rebuilt, APP, find(edited, "shapes.area(s)", 0, 7), &site, f.pool),
        SPX_LOOKUP_FOUND);
    CU_ASSERT_EQUAL(site.source, SHAPES);
    CU_ASSERT_EQUAL(site.span.start.offset, find(f.text[SHAPES], "fn area", 0, 3));
    apr_pool_destroy(f.pool);
}

/* Every query at every offset of a hostile text stays within the text,
 * never crashes and answers a status (the sanitizer builds check the
 * rest): unterminated strings and blocks, bytes that are not UTF-8, a NUL,
 * nesting past the parser's depth, a long operator chain, dangling dots,
 * unknown names, types, fields and variants. */
static void test_sources(void)
{
    fixture_t f = open_lookup();
    CU_ASSERT_STRING_EQUAL(spx_lookup_source_module(f.project, SHAPES), "shapes");
    CU_ASSERT_STRING_EQUAL(spx_lookup_source_path(f.project, APP), "src/app.spx");
    apr_size_t length = 0;
    const unsigned char *text = spx_lookup_source_text(f.project, APP, &length);
    CU_ASSERT_EQUAL_FATAL(length, f.length[APP]);
    CU_ASSERT_EQUAL(memcmp(text, f.text[APP], length), 0);
    CU_ASSERT_EQUAL(spx_lookup_source_named(f.project, "src/shapes.spx"), SHAPES);
    CU_ASSERT_EQUAL(spx_lookup_source_named(f.project, "app"), APP);
    CU_ASSERT_EQUAL(spx_lookup_source_named(f.project, "src/nope.spx"), SPX_LOOKUP_NO_SOURCE);
    CU_ASSERT_PTR_NULL(spx_lookup_source_path(f.project, 2));
    CU_ASSERT_PTR_NULL(spx_lookup_source_text(f.project, 2, &length));
    CU_ASSERT_EQUAL(length, 0);
    apr_pool_destroy(f.pool);
}

static const char hostile_bytes[] = "fn h() -> int { let a\xff\xfe = 1; return 0\x00; } // \xc3";

static void test_hostile_texts(void)
{
    fixture_t f = open_lookup();
    char *chain = apr_palloc(f.pool, 20000 + 64);
    strcpy(chain, "fn c() -> int {\n  return 1");
    for (int i = 0; i < 5000; i++)
        strcat(chain, "+1");
    strcat(chain, ";\n}\n");
    char *deep = apr_palloc(f.pool, 2000);
    strcpy(deep, "fn d() -> int { return ");
    for (int i = 0; i < 300; i++)
        strcat(deep, "(");
    strcat(deep, "1");
    for (int i = 0; i < 300; i++)
        strcat(deep, ")");
    strcat(deep, "; }\n");
    const char *texts[] = {
        "",
        "fn f( {",
        "import shapes;\nfn f() -> int { let x = \"unterminated\n return x.; }",
        "import shapes;\nfn g() -> int { return shapes.area(shapes.Shape.Square(1, 2, 3)) + "
        "((((1; }",
        hostile_bytes,
        "import shapes;\nfn k(p: shapes.Nope) -> int { match p { Nope(a) => { return a.b; } } "
        "let q = Unknown { z: 1 }; return q.z + shapes.Shape.Nope; }\nfn m() { x.",
        "struct S { a: [S], b: {str: S} }\nenum E { A(S), B }\nconst C: int = C + D;\n"
        "fn n(s: S) -> int { for x in s.a { let y = x.a; } return E.A(s); }",
        deep,
        chain,
    };
    for (apr_size_t t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
        apr_size_t length =
            texts[t] == hostile_bytes ? sizeof(hostile_bytes) - 1 : strlen(texts[t]);
        const unsigned char *replaced[2] = {NULL, (const unsigned char *)texts[t]};
        apr_size_t lengths[2] = {0, length};
        apr_pool_t *pool;
        apr_pool_create(&pool, f.pool);
        spx_project_t *project = spx_project_rebuild(f.project, replaced, lengths, pool);
        apr_size_t step = length > 4000 ? 97 : 1;
        for (apr_size_t offset = 0; offset <= length + 1; offset += step) {
            apr_pool_t *query;
            apr_pool_create(&query, pool);
            spx_lookup_at_t at;
            spx_lookup_site_t site;
            spx_lookup_references_t references;
            spx_lookup_hover_t hover;
            spx_lookup_completions_t completions;
            spx_lookup_signature_t signature;
            spx_lookup_status_t status = spx_lookup_at(project, APP, offset, &at, query);
            CU_ASSERT_EQUAL(status == SPX_LOOKUP_BAD_OFFSET, offset > length);
            if (status == SPX_LOOKUP_FOUND) {
                CU_ASSERT_TRUE(at.site.span.start.offset <= offset &&
                               offset < at.site.span.end.offset);
                CU_ASSERT_TRUE(at.site.span.end.offset <= length);
            }
            spx_lookup_definition(project, APP, offset, &site, query);
            spx_lookup_hover(project, APP, offset, &hover, query);
            if (offset % 7 == 0)
                spx_lookup_references(project, APP, offset, 1, &references, query);
            status = spx_lookup_complete(project, APP, offset, &completions, query);
            CU_ASSERT_EQUAL(status == SPX_LOOKUP_BAD_OFFSET, offset > length);
            status = spx_lookup_signature(project, APP, offset, &signature, query);
            if (status == SPX_LOOKUP_FOUND)
                CU_ASSERT_TRUE(signature.active < length + 1);
            apr_pool_destroy(query);
        }
        spx_lookup_tokens_t tokens;
        CU_ASSERT_EQUAL(spx_lookup_tokens(project, APP, &tokens, pool), SPX_LOOKUP_FOUND);
        for (apr_size_t i = 0; i < tokens.count; i++)
            CU_ASSERT_TRUE(tokens.tokens[i].span.end.offset <= length);
        spx_lookup_items_t items;
        CU_ASSERT_EQUAL(spx_lookup_document_symbols(project, APP, &items, pool), SPX_LOOKUP_FOUND);
        spx_lookup_workspace_symbols(project, "", 1000, &items, pool);
        apr_pool_destroy(pool);
    }
    apr_pool_destroy(f.pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"sources by number, path and module", test_sources},
        {"at: a name from its first to its last byte, nothing around it",
         test_at_a_name_and_around_it},
        {"definitions across modules, of locals, parameters and binders", test_definitions},
        {"references in source and offset order", test_references},
        {"hover: the declaration as the outline words it, the leading comment", test_hover},
        {"hover words items as the graph's outline does", test_hover_words_as_the_outline},
        {"document symbols with members and tests", test_document_symbols},
        {"workspace symbols by name, without case, bounded", test_workspace_symbols},
        {"completion after m., after x., and in scope", test_completion},
        {"signature help: the innermost call and its active argument", test_signature_help},
        {"semantic tokens", test_semantic_tokens},
        {"a project rebuilt over an editor's text", test_rebuilt_over_an_editor_text},
        {"every query at every offset of hostile texts", test_hostile_texts},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("lookup", tests);
}
