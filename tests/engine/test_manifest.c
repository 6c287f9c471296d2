/*
 * test_manifest.c: Project Manifest v1 (manifest.md) and v2 (language v3:
 * [limits], [[data]], a test's limit keys). Every rule has a valid
 * and an invalid manifest in tests/corpus/manifest/ (NAME.toml beside the
 * diagnostics it must give, NAME.expected); this suite runs them all, then
 * checks what a corpus cannot show: the parsed fields and spans, the
 * canonical subject, exact messages, and the size and count limits.
 */
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_limits.h"
#include "spx_manifest.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

static apr_pool_t *pool_for_test(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

static spx_manifest_t *parse_text(const char *text, apr_size_t length, apr_pool_t *pool,
                                  spx_diagnostics_t **diagnostics)
{
    *diagnostics = spx_diagnostics_make(pool);
    spx_manifest_t *manifest = spx_manifest_parse((const unsigned char *)text, length,
                                                  "semaprax.toml", pool, *diagnostics);
    spx_diagnostics_sort(*diagnostics);
    return manifest;
}

static spx_manifest_t *parse(const char *text, apr_pool_t *pool, spx_diagnostics_t **diagnostics)
{
    return parse_text(text, strlen(text), pool, diagnostics);
}

/* The diagnostics of text in .expected form. */
static const char *summary_of(const char *text, apr_size_t length, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = NULL;
    spx_manifest_t *manifest = parse_text(text, length, pool, &diagnostics);
    CU_ASSERT((manifest == NULL) == (spx_diagnostics_count(diagnostics) > 0));
    return spx_corpus_summary(diagnostics, pool);
}

static void test_corpus(void)
{
    apr_pool_t *pool = pool_for_test();
    const char *dir = spx_corpus_dir("corpus/manifest", pool);
    apr_array_header_t *names = spx_corpus_list(dir, ".toml", pool);
    CU_ASSERT_FATAL(names->nelts >= 90);
    for (int i = 0; i < names->nelts; i++) {
        const char *input =
            apr_pstrcat(pool, dir, "/", APR_ARRAY_IDX(names, i, const char *), NULL);
        apr_size_t length = 0;
        const char *text = spx_corpus_read(input, &length, pool);
        spx_corpus_expect(input, summary_of(text, length, pool), pool);
    }
    apr_pool_destroy(pool);
}

static const char *const full_manifest = "manifest = \"semaprax.project-manifest.v1\"\n"
                                         "[project]\n"
                                         "name = \"hello\"\n"
                                         "version = \"0.1.0\"\n"
                                         "entry = \"app.main\"\n"
                                         "[[source]]\n"
                                         "module = \"math\"\n"
                                         "path = \"src/math.spx\"\n"
                                         "[[test]]\n"
                                         "name = \"fact\"\n"
                                         "function = \"math.test_fact\"\n"
                                         "[[source]]\n"
                                         "module = \"app\"\n"
                                         "path = \"src/app.spx\"\n"
                                         "[[test]]\n"
                                         "name = \"add\"\n"
                                         "function = \"app.test_add\"\n";

static void assert_span(spx_span_t span, apr_size_t line, apr_size_t column, apr_size_t end_column)
{
    CU_ASSERT_EQUAL(span.start.line, line);
    CU_ASSERT_EQUAL(span.start.column, column);
    CU_ASSERT_EQUAL(span.end.line, line);
    CU_ASSERT_EQUAL(span.end.column, end_column);
    CU_ASSERT_EQUAL(span.end.offset - span.start.offset, end_column - column);
}

static void test_fields(void)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *diagnostics = NULL;
    spx_manifest_t *manifest = parse(full_manifest, pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 0);
    CU_ASSERT_STRING_EQUAL(manifest->name, "hello");
    CU_ASSERT_STRING_EQUAL(manifest->version, "0.1.0");
    CU_ASSERT_STRING_EQUAL(manifest->entry, "app.main");
    assert_span(manifest->entry_span, 5, 9, 19);
    CU_ASSERT_EQUAL(manifest->entry_span.start.offset, 93);
    CU_ASSERT_EQUAL_FATAL(manifest->source_count, 2);
    CU_ASSERT_STRING_EQUAL(manifest->sources[0].module, "math");
    CU_ASSERT_STRING_EQUAL(manifest->sources[0].path, "src/math.spx");
    assert_span(manifest->sources[0].module_span, 7, 10, 16);
    assert_span(manifest->sources[0].path_span, 8, 8, 22);
    CU_ASSERT_STRING_EQUAL(manifest->sources[1].module, "app");
    CU_ASSERT_STRING_EQUAL(manifest->sources[1].path, "src/app.spx");
    assert_span(manifest->sources[1].path_span, 14, 8, 21);
    CU_ASSERT_EQUAL_FATAL(manifest->test_count, 2);
    CU_ASSERT_STRING_EQUAL(manifest->tests[0].name, "fact");
    CU_ASSERT_STRING_EQUAL(manifest->tests[0].function, "math.test_fact");
    assert_span(manifest->tests[0].name_span, 10, 8, 14);
    assert_span(manifest->tests[0].function_span, 11, 12, 28);
    CU_ASSERT_STRING_EQUAL(manifest->tests[1].name, "add");
    CU_ASSERT_STRING_EQUAL(manifest->tests[1].function, "app.test_add");

    /* No entry: NULL, and the escapes are decoded. */
    manifest = parse("manifest = \"semaprax.project-manifest.v1\"\n"
                     "[project]\nname = \"h\\u0065llo\"\nversion = \"1.2.3\"\n"
                     "[[source]]\nmodule = \"app\"\npath = \"src\\u002fapp.spx\"",
                     pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    CU_ASSERT_STRING_EQUAL(manifest->name, "hello");
    CU_ASSERT_PTR_NULL(manifest->entry);
    CU_ASSERT_EQUAL(manifest->source_count, 1);
    CU_ASSERT_EQUAL(manifest->test_count, 0);
    apr_pool_destroy(pool);
}

static const char *subject_text(const char *text, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = NULL;
    spx_manifest_t *manifest = parse(text, pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    json_t *subject = spx_manifest_subject(manifest);
    const char *canonical = spx_canonical_text(subject, pool);
    json_decref(subject);
    return canonical;
}

static void test_subject(void)
{
    apr_pool_t *pool = pool_for_test();
    CU_ASSERT_STRING_EQUAL(
        subject_text(full_manifest, pool),
        "{\"project\":{\"entry\":\"app.main\",\"name\":\"hello\",\"version\":\"0.1.0\"},"
        "\"schema\":\"semaprax.project-manifest.v1\","
        "\"sources\":[{\"module\":\"app\",\"path\":\"src/app.spx\"},"
        "{\"module\":\"math\",\"path\":\"src/math.spx\"}],"
        "\"tests\":[{\"function\":\"math.test_fact\",\"name\":\"fact\"},"
        "{\"function\":\"app.test_add\",\"name\":\"add\"}]}");

    /* Formatting, comments and key order do not change the subject; without
     * an entry the key is absent; paths sort bytewise ('Z' < 'a'). */
    CU_ASSERT_STRING_EQUAL(subject_text("# comment\n"
                                        "manifest   =   \"semaprax.project-manifest.v1\"\n\n"
                                        "[ project ]\n"
                                        "version = \"0.1.0\" # later\n"
                                        "name = \"hello\"\n"
                                        "[[source]]\npath = \"c.spx\"\nmodule = \"c\"\n"
                                        "[[source]]\npath = \"a/b.spx\"\nmodule = \"b\"\n"
                                        "[[source]]\npath = \"Z.spx\"\nmodule = \"z\"\n"
                                        "[[source]]\npath = \"a.spx\"\nmodule = \"a\"\n",
                                        pool),
                           "{\"project\":{\"name\":\"hello\",\"version\":\"0.1.0\"},"
                           "\"schema\":\"semaprax.project-manifest.v1\","
                           "\"sources\":[{\"module\":\"z\",\"path\":\"Z.spx\"},"
                           "{\"module\":\"a\",\"path\":\"a.spx\"},"
                           "{\"module\":\"b\",\"path\":\"a/b.spx\"},"
                           "{\"module\":\"c\",\"path\":\"c.spx\"}],"
                           "\"tests\":[]}");
    apr_pool_destroy(pool);
}

/* The one diagnostic text gives has this code and message, and, when
 * note_line is not 0, one note "first declared here" on that line. */
static void assert_noted_message(const char *text, const char *code, const char *message,
                                 unsigned note_line)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *diagnostics = NULL;
    CU_ASSERT_PTR_NULL(parse(text, pool, &diagnostics));
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, 0);
    if (strcmp(item->code, code) != 0 || strcmp(item->message, message) != 0)
        fprintf(stderr, "\n  got %s '%s'\n  wanted %s '%s'\n", item->code, item->message, code,
                message);
    CU_ASSERT_STRING_EQUAL(item->code, code);
    CU_ASSERT_STRING_EQUAL(item->message, message);
    CU_ASSERT_STRING_EQUAL(item->path, "semaprax.toml");
    if (note_line) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(item->notes);
        CU_ASSERT_EQUAL_FATAL(item->notes->nelts, 1);
        const spx_diagnostic_note_t *note = &APR_ARRAY_IDX(item->notes, 0, spx_diagnostic_note_t);
        CU_ASSERT_EQUAL(note->span.start.line, note_line);
        CU_ASSERT_STRING_EQUAL(note->message, "first declared here");
    } else {
        CU_ASSERT(item->notes == NULL || item->notes->nelts == 0);
    }
    apr_pool_destroy(pool);
}

/* The one diagnostic text gives has this code and message, and no note. */
static void assert_message(const char *text, const char *code, const char *message)
{
    assert_noted_message(text, code, message, 0);
}

#define HEAD "manifest = \"semaprax.project-manifest.v1\"\n"
#define PROJECT "[project]\nname = \"hello\"\nversion = \"0.1.0\"\n"
#define SOURCE "[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n"

/* text with every LF made CR LF, after a byte order mark when mark. */
static const char *crlf_of(const char *text, int mark, apr_pool_t *pool)
{
    char *out = apr_palloc(pool, 2 * strlen(text) + 4), *at = out;
    if (mark) {
        memcpy(at, "\xef\xbb\xbf", 3);
        at += 3;
    }
    for (; *text; text++) {
        if (*text == '\n')
            *at++ = '\r';
        *at++ = *text;
    }
    *at = '\0';
    return out;
}

/* A CR LF manifest with a leading byte order mark reads as its LF twin:
 * the same fields and subject, spans counting the stored bytes. */
static void test_line_ends(void)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *diagnostics = NULL;
    for (int mark = 0; mark < 2; mark++) {
        spx_manifest_t *manifest = parse(crlf_of(full_manifest, mark, pool), pool, &diagnostics);
        CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
        CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 0);
        CU_ASSERT_STRING_EQUAL(manifest->name, "hello");
        CU_ASSERT_STRING_EQUAL(manifest->entry, "app.main");
        assert_span(manifest->entry_span, 5, 9, 19); /* the CRs end lines 1-4 */
        CU_ASSERT_EQUAL(manifest->entry_span.start.offset, (uint32_t)(93 + 4 + 3 * mark));
        CU_ASSERT_EQUAL_FATAL(manifest->source_count, 2);
        CU_ASSERT_STRING_EQUAL(manifest->sources[1].path, "src/app.spx");
        assert_span(manifest->sources[1].path_span, 14, 8, 21);
        CU_ASSERT_STRING_EQUAL(subject_text(crlf_of(full_manifest, mark, pool), pool),
                               subject_text(full_manifest, pool));
    }
    /* On line 1 the mark's bytes count: the value starts at column 15. */
    parse("\xef\xbb\xbfmanifest = \"x\"\r\n" PROJECT SOURCE, pool, &diagnostics);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(diagnostics, 0)->code, "E0121");
    assert_span(spx_diagnostics_get(diagnostics, 0)->span, 1, 15, 18);
    CU_ASSERT_EQUAL(spx_diagnostics_get(diagnostics, 0)->span.start.offset, 14);
    apr_pool_destroy(pool);
}

static void test_messages(void)
{
    assert_message(HEAD PROJECT "\xef\xbb\xbf" SOURCE, "E0101",
                   "U+FEFF (byte order mark) in the manifest; only its very start may hold one");
    assert_message(HEAD PROJECT "\r" SOURCE, "E0102",
                   "the manifest contains a CR byte (0x0d) not followed by LF; lines end in LF or "
                   "CR LF");
    assert_message(HEAD PROJECT SOURCE "[[test]]\nname = \"t\"\n", "E0128",
                   "[[test]] is missing the key 'function'");
    assert_message(HEAD PROJECT "licence = \"MIT\"\n" SOURCE, "E0126",
                   "unknown key 'licence' in [project]; [project] has name, version and entry");
    /* the nearest key of the table, and the nearest declared module */
    assert_message(HEAD "[project]\nname = \"hello\"\nversio = \"0.1.0\"\n" SOURCE, "E0126",
                   "unknown key 'versio' in [project]; did you mean 'version'? [project] has "
                   "name, version and entry");
    assert_message(HEAD PROJECT "[[source]]\nmodle = \"app\"\npath = \"src/app.spx\"\n", "E0126",
                   "unknown key 'modle' in [[source]]; did you mean 'module'? [[source]] has "
                   "module and path");
    assert_message(HEAD PROJECT SOURCE "[[test]]\nname = \"t\"\nfunction = \"ap.t\"\n", "E0141",
                   "test function 'ap.t' names the module 'ap', which no [[source]] declares; "
                   "did you mean 'app'?");
    assert_message(HEAD PROJECT SOURCE "[[test]]\nname = \"t\"\nfunction = \"zzzzz.t\"\n", "E0141",
                   "test function 'zzzzz.t' names the module 'zzzzz', which no [[source]] "
                   "declares");
    assert_message(HEAD PROJECT "name = \"x\"\n" SOURCE, "E0127",
                   "duplicate key 'name' in [project]; it is first set on line 3");
    assert_message(HEAD "[project]\nname = \"Hello\"\nversion = \"0.1.0\"\n" SOURCE, "E0130",
                   "project name 'Hello' must start with a lowercase letter a-z");
    assert_message(HEAD "[project]\nname = \"hello\"\nversion = \"1.9.3a\"\n" SOURCE, "E0131",
                   "version '1.9.3a' contains 'a'; only digits and '.' are allowed");
    assert_message(HEAD "[project]\nname = \"hello\"\nversion = \"1.02.3\"\n" SOURCE, "E0131",
                   "version '1.02.3' has a number with a leading zero");
    assert_message(HEAD PROJECT "entry = \"lib.main\"\n" SOURCE, "E0133",
                   "entry 'lib.main' names the module 'lib', which no [[source]] declares");
    assert_message(HEAD PROJECT "entry = \"app.ma-in\"\n" SOURCE, "E0132",
                   "entry 'app.ma-in' has a function name containing '-'; only A-Z a-z 0-9 _ "
                   "are allowed");
    assert_message(HEAD PROJECT "[[source]]\nmodule = \"app\"\npath = \"/src/app.spx\"\n", "E0137",
                   "source path '/src/app.spx' is absolute; source paths are relative to the "
                   "project root");
    assert_message(HEAD PROJECT SOURCE "[[source]]\nmodule = \"app\"\npath = \"b.spx\"\n", "E0135",
                   "module 'app' is declared twice; first on line 6");
    assert_message(HEAD PROJECT "name2 = \"a\\qb\"\n" SOURCE, "E0111",
                   "'\\q' is not an escape of the manifest; use \\\" \\\\ \\n \\t or \\uXXXX");
    assert_message(HEAD "[project]\nname = \"a\\nb\"\nversion = \"0.1.0\"\n" SOURCE, "E0130",
                   "project name 'a\\nb' contains the byte 0x0a; only a-z 0-9 _ - are allowed");
    assert_message("manifest = \"semaprax.project-manifest.v3\"\n" PROJECT SOURCE, "E0121",
                   "the manifest key must be \"semaprax.project-manifest.v1\" or "
                   "\"semaprax.project-manifest.v2\", not 'semaprax.project-manifest.v3'");
    assert_message(HEAD PROJECT "[dependencies]\n" SOURCE, "E0125",
                   "unknown table [dependencies]; the manifest has [project], [[source]] and "
                   "[[test]]");
    assert_message(HEAD PROJECT "name = 'x'\n" SOURCE, "E0116",
                   "literal strings are not allowed; write the value of 'name' as a \"...\" "
                   "string");
}

/* A manifest of exactly size bytes: a valid one padded by a comment. */
static char *padded_manifest(apr_size_t size, apr_pool_t *pool)
{
    const char *head = HEAD PROJECT SOURCE "#";
    apr_size_t used = strlen(head);
    char *text = apr_palloc(pool, size + 1);
    memcpy(text, head, used);
    memset(text + used, 'x', size - used);
    text[size] = '\0';
    return text;
}

static void test_size_limit(void)
{
    apr_pool_t *pool = pool_for_test();
    CU_ASSERT_STRING_EQUAL(
        summary_of(padded_manifest(SPX_LIMIT_MANIFEST_BYTES, pool), SPX_LIMIT_MANIFEST_BYTES, pool),
        "");
    /* One byte over: reported at that byte, on the comment line (line 8). */
    char *text = padded_manifest(SPX_LIMIT_MANIFEST_BYTES + 1, pool);
    CU_ASSERT_STRING_EQUAL(
        summary_of(text, SPX_LIMIT_MANIFEST_BYTES + 1, pool),
        apr_psprintf(pool, "E0105 8:%u-8:%u\n",
                     SPX_LIMIT_MANIFEST_BYTES - (unsigned)strlen(HEAD PROJECT SOURCE) + 1,
                     SPX_LIMIT_MANIFEST_BYTES - (unsigned)strlen(HEAD PROJECT SOURCE) + 2));
    apr_pool_destroy(pool);
}

/* A manifest with count [[source]] (sources) or [[test]] tables. */
static const char *counted_manifest(unsigned count, int sources, apr_pool_t *pool)
{
    apr_array_header_t *parts = apr_array_make(pool, (int)count + 2, sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = HEAD PROJECT;
    if (!sources)
        APR_ARRAY_PUSH(parts, const char *) = SOURCE;
    for (unsigned i = 0; i < count; i++)
        APR_ARRAY_PUSH(parts, const char *) =
            sources
                ? apr_psprintf(pool, "[[source]]\nmodule = \"m%u\"\npath = \"m%u.spx\"\n", i, i)
                : apr_psprintf(pool, "[[test]]\nname = \"t%u\"\nfunction = \"app.t%u\"\n", i, i);
    return apr_array_pstrcat(pool, parts, 0);
}

static void test_count_limits(void)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *diagnostics = NULL;
    spx_manifest_t *manifest =
        parse(counted_manifest(SPX_LIMIT_SOURCES, 1, pool), pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    CU_ASSERT_EQUAL(manifest->source_count, SPX_LIMIT_SOURCES);
    /* The header of the first source over the limit: after 4 lines of head
     * and 3 lines per source. */
    unsigned line = 4 + 3 * SPX_LIMIT_SOURCES + 1;
    CU_ASSERT_STRING_EQUAL(summary_of(counted_manifest(SPX_LIMIT_SOURCES + 1, 1, pool),
                                      strlen(counted_manifest(SPX_LIMIT_SOURCES + 1, 1, pool)),
                                      pool),
                           apr_psprintf(pool, "E0142 %u:1-%u:11\n", line, line));

    manifest = parse(counted_manifest(SPX_LIMIT_TESTS, 0, pool), pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    CU_ASSERT_EQUAL(manifest->test_count, SPX_LIMIT_TESTS);
    line = 7 + 3 * SPX_LIMIT_TESTS + 1;
    const char *over = counted_manifest(SPX_LIMIT_TESTS + 1, 0, pool);
    CU_ASSERT_STRING_EQUAL(summary_of(over, strlen(over), pool),
                           apr_psprintf(pool, "E0143 %u:1-%u:9\n", line, line));
    apr_pool_destroy(pool);
}

static void test_diagnostic_limit(void)
{
    apr_pool_t *pool = pool_for_test();
    apr_array_header_t *parts = apr_array_make(pool, 300, sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = HEAD PROJECT SOURCE;
    for (int i = 0; i < 300; i++)
        APR_ARRAY_PUSH(parts, const char *) = "x = 1\n";
    spx_diagnostics_t *diagnostics = NULL;
    CU_ASSERT_PTR_NULL(parse(apr_array_pstrcat(pool, parts, 0), pool, &diagnostics));
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), SPX_LIMIT_MANIFEST_DIAGNOSTICS + 1);
    const spx_diagnostic_t *last = spx_diagnostics_get(diagnostics, SPX_LIMIT_MANIFEST_DIAGNOSTICS);
    CU_ASSERT_STRING_EQUAL(last->code, "E0144");
    CU_ASSERT_EQUAL(last->span.start.line, 7 + SPX_LIMIT_MANIFEST_DIAGNOSTICS + 1);
    apr_pool_destroy(pool);
}

/* Diagnostics already in the list are not this manifest's problems. */
static void test_shared_list(void)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_span_t span = {{1, 1, 0}, {1, 2, 1}};
    spx_diagnostics_add(diagnostics, SPX_E0201, "src/app.spx", span, "earlier");
    const char *text = HEAD PROJECT SOURCE;
    CU_ASSERT_PTR_NOT_NULL(spx_manifest_parse((const unsigned char *)text, strlen(text),
                                              "semaprax.toml", pool, diagnostics));
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 1);
    apr_pool_destroy(pool);
}

/* Every row of the code table in docs/manifest-parser.md names a corpus file
 * whose diagnostics include its code (or a test here), and every code from
 * E0101 to E0144 has a row. */
static void test_documented_codes(void)
{
    apr_pool_t *pool = pool_for_test();
    const char *doc =
        spx_corpus_read(spx_corpus_dir("../docs/manifest-parser.md", pool), NULL, pool);
    const char *corpus = spx_corpus_dir("corpus/manifest", pool);
    int rows = 0;
    for (unsigned code = 101; code <= 144; code++) {
        const char *row = strstr(doc, apr_psprintf(pool, "\n| E0%u | ", code));
        if (!row)
            fprintf(stderr, "\n  E0%u has no row in docs/manifest-parser.md\n", code);
        CU_ASSERT_PTR_NOT_NULL(row);
        if (!row)
            continue;
        rows++;
        const char *end = strchr(row + 1, '\n');
        /* The trigger is the last cell: its last "| `" on the row. */
        const char *file = NULL;
        for (const char *at = strstr(row, "| `"); at && at < end; at = strstr(at + 1, "| `"))
            file = at;
        if (!file || !strstr(apr_pstrndup(pool, file, (apr_size_t)(end - file)), ".toml`"))
            continue; /* checked by a test in this file */
        file += 3;
        const char *name = apr_pstrndup(pool, file, (apr_size_t)(strstr(file, ".toml`") - file));
        const char *expected =
            spx_corpus_read(apr_pstrcat(pool, corpus, "/", name, ".expected", NULL), NULL, pool);
        const char *wanted = apr_psprintf(pool, "E0%u ", code);
        if (!strstr(expected, wanted))
            fprintf(stderr, "\n  %s.expected does not give E0%u\n", name, code);
        CU_ASSERT_PTR_NOT_NULL(strstr(expected, wanted));
    }
    CU_ASSERT_EQUAL(rows, 44);
    apr_pool_destroy(pool);
}

/* Manifest v2 (language v3): [limits], [[data]], a test's limit keys. */
#define HEAD2 "manifest = \"semaprax.project-manifest.v2\"\n"
#define HEAD1 "manifest = \"semaprax.project-manifest.v1\"\n"
#define V2_PROJECT "[project]\nname = \"wordfreq\"\nversion = \"0.2.0\"\nentry = \"app.main\"\n"
#define V2_SOURCE "[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n"
#define V2_DATA "[[data]]\nname = \"corpus\"\npath = \"data/corpus.txt\"\n"
#define V2_NEED " needs manifest = \"semaprax.project-manifest.v2\""
#define V2_TEST "[[test]]\nname = \"big\"\nfunction = \"app.test_big\"\n"

static void test_v2_messages(void)
{
    assert_noted_message(HEAD1 V2_PROJECT V2_SOURCE V2_DATA, "E0145", "'[[data]]'" V2_NEED, 0);
    assert_noted_message(HEAD1 V2_PROJECT "[limits]\nmax_steps = 5\n" V2_SOURCE, "E0145",
                         "'[limits]'" V2_NEED, 0);
    assert_noted_message(HEAD1 V2_PROJECT V2_SOURCE V2_TEST "max_call_depth = 5\n", "E0145",
                         "'max_call_depth'" V2_NEED, 0);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE
                         "[[data]]\nname = \"Corpus\"\npath = \"d.txt\"\n",
                         "E0146", "data name 'Corpus' is not [a-z][a-z0-9_-]{0,63}", 0);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE V2_DATA
                         "[[data]]\nname = \"corpus\"\npath = \"d.txt\"\n",
                         "E0147", "data name 'corpus' is declared twice", 10);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE
                         "[[data]]\nname = \"corpus\"\npath = \"../x.txt\"\n",
                         "E0148", "data path '../x.txt' leaves the project root", 0);
    assert_noted_message(
        HEAD2 V2_PROJECT V2_SOURCE "[[data]]\nname = \"corpus\"\npath = \"a\\\\x.txt\"\n", "E0148",
        "data path 'a\\x.txt' contains a backslash; separate components with '/'", 0);
    assert_noted_message(
        HEAD2 V2_PROJECT V2_SOURCE "[[data]]\nname = \"corpus\"\npath = \"/x\"\n", "E0148",
        "data path '/x' is absolute; data paths are relative to the project root", 0);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE
                         "[[data]]\nname = \"corpus\"\npath = \"src/app.spx\"\n",
                         "E0149", "data path 'src/app.spx' is already declared as a source", 0);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE V2_DATA
                         "[[data]]\nname = \"c2\"\npath = \"data/corpus.txt\"\n",
                         "E0149", "data path 'data/corpus.txt' is already declared as data", 11);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE
                         "[[data]]\nname = \"corpus\"\npath = \"semaprax.toml\"\n",
                         "E0149", "data path 'semaprax.toml' is the manifest's", 0);
    assert_noted_message(HEAD2 V2_PROJECT "[limits]\nmax_steps = \"5\"\n" V2_SOURCE, "E0153",
                         "max_steps takes an integer such as 5_000_000", 0);
    assert_noted_message(HEAD2 V2_PROJECT "[limits]\nmax_steps = 1_\n" V2_SOURCE, "E0153",
                         "max_steps takes an integer such as 5_000_000", 0);
    assert_noted_message(HEAD2 V2_PROJECT "[limits]\nmax_steps = -1\n" V2_SOURCE, "E0153",
                         "max_steps takes an integer such as 5_000_000", 0);
    assert_noted_message(HEAD2 V2_PROJECT "[limits]\nmax_steps = 1.5\n" V2_SOURCE, "E0153",
                         "max_steps takes an integer such as 5_000_000", 0);
    assert_noted_message(HEAD2 V2_PROJECT "[limits]\nmax_steps =\n" V2_SOURCE, "E0153",
                         "max_steps takes an integer such as 5_000_000", 0);
    assert_noted_message(HEAD2 V2_PROJECT "[limits]\nmax_memory = 1_073_741_825\n" V2_SOURCE,
                         "E0154", "max_memory 1073741825 is over the maximum of 1073741824", 0);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE V2_TEST "max_call_depth = 0\n", "E0154",
                         "max_call_depth 0 is under the minimum of 1", 0);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE V2_TEST "max_steps = 10_000_000_001\n", "E0154",
                         "max_steps 10000000001 is over the maximum of 10000000000", 0);
    assert_noted_message(HEAD2 V2_PROJECT "[limits]\n[limits]\n" V2_SOURCE, "E0156",
                         "a second [limits] table", 0);
    assert_noted_message(
        HEAD2 "[limits]\n" V2_PROJECT V2_SOURCE, "E0124",
        "[project] must come directly after the manifest key, before any [limits], "
        "[[source]], [[data]] or [[test]]",
        0);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE "[[data]]\nname = \"corpus\"\n", "E0128",
                         "[[data]] is missing the key 'path'", 0);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE "[[data]]\nname = \"corpus\"\nfile = \"x\"\n",
                         "E0126", "unknown key 'file' in [[data]]; [[data]] has name and path", 0);
    assert_noted_message(
        HEAD2 V2_PROJECT "[limits]\nmax_stepz = \"1\"\n" V2_SOURCE, "E0126",
        "unknown key 'max_stepz' in [limits]; did you mean 'max_steps'? [limits] has "
        "max_steps, max_memory and max_call_depth",
        0);
    assert_noted_message(HEAD1 V2_PROJECT V2_SOURCE V2_TEST "max_stepz = \"1\"\n", "E0126",
                         "unknown key 'max_stepz' in [[test]]; [[test]] has name and function", 0);
    assert_noted_message(HEAD2 V2_PROJECT V2_SOURCE "[dependencies]\n", "E0125",
                         "unknown table [dependencies]; the manifest has [project], [limits], "
                         "[[source]], [[data]] and [[test]]",
                         0);
    assert_noted_message(
        HEAD2 V2_PROJECT V2_SOURCE "[[test]]\nname = 5\nfunction = \"app.t\"\n", "E0114",
        "the value of 'name' is not a string: '5'; every value is a \"...\" string", 0);
}

/* 4096 [[data]] tables are allowed; the first over is E0152 at its header. */
static void test_v2_data_count_limit(void)
{
    apr_pool_t *pool = pool_for_test();
    apr_array_header_t *parts = apr_array_make(pool, 5000, sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = HEAD2 V2_PROJECT V2_SOURCE;
    for (unsigned i = 0; i < SPX_LIMIT_DATA_ENTRIES; i++)
        APR_ARRAY_PUSH(parts, const char *) =
            apr_psprintf(pool, "[[data]]\nname = \"d%u\"\npath = \"d/%u.txt\"\n", i, i);
    spx_diagnostics_t *diagnostics = NULL;
    spx_manifest_t *manifest = parse(apr_array_pstrcat(pool, parts, 0), pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    CU_ASSERT_EQUAL(manifest->data_count, SPX_LIMIT_DATA_ENTRIES);
    APR_ARRAY_PUSH(parts, const char *) = "[[data]]\nname = \"over\"\npath = \"over.txt\"\n";
    CU_ASSERT_PTR_NULL(parse(apr_array_pstrcat(pool, parts, 0), pool, &diagnostics));
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, 0);
    CU_ASSERT_STRING_EQUAL(item->code, "E0152");
    CU_ASSERT_STRING_EQUAL(item->message, "more than 4096 [[data]] tables");
    CU_ASSERT_EQUAL(item->span.start.line, 8 + 3 * SPX_LIMIT_DATA_ENTRIES + 1);
    CU_ASSERT_EQUAL(item->span.start.column, 1);
    CU_ASSERT_EQUAL(item->span.end.column, 9);
    apr_pool_destroy(pool);
}

static void test_v2_subject(void)
{
    apr_pool_t *pool = pool_for_test();
    const char *text =
        HEAD2 V2_PROJECT "[limits]                       # optional\n"
                         "max_steps = 20_000_000\n" V2_SOURCE
                         "[[data]]\nname = \"zeta\"\npath = \"data/z.txt\"\n" V2_DATA V2_TEST
                         "max_steps = 50_000_000\nmax_call_depth = 1024\n";
    CU_ASSERT_STRING_EQUAL(
        subject_text(text, pool),
        "{\"data\":[{\"name\":\"corpus\",\"path\":\"data/corpus.txt\"},"
        "{\"name\":\"zeta\",\"path\":\"data/z.txt\"}],"
        "\"limits\":{\"max_steps\":20000000},"
        "\"project\":{\"entry\":\"app.main\",\"name\":\"wordfreq\",\"version\":\"0.2.0\"},"
        "\"schema\":\"semaprax.project-manifest.v2\","
        "\"sources\":[{\"module\":\"app\",\"path\":\"src/app.spx\"}],"
        "\"tests\":[{\"function\":\"app.test_big\",\"max_call_depth\":1024,"
        "\"max_steps\":50000000,\"name\":\"big\"}]}");
    CU_ASSERT_STRING_EQUAL(subject_text(HEAD2 V2_PROJECT V2_SOURCE, pool),
                           "{\"data\":[],\"limits\":{},"
                           "\"project\":{\"entry\":\"app.main\",\"name\":\"wordfreq\","
                           "\"version\":\"0.2.0\"},"
                           "\"schema\":\"semaprax.project-manifest.v2\","
                           "\"sources\":[{\"module\":\"app\",\"path\":\"src/app.spx\"}],"
                           "\"tests\":[]}");
    /* A v1 manifest's subject is v1's. */
    CU_ASSERT_STRING_EQUAL(subject_text(HEAD1 V2_PROJECT V2_SOURCE, pool),
                           "{\"project\":{\"entry\":\"app.main\",\"name\":\"wordfreq\","
                           "\"version\":\"0.2.0\"},"
                           "\"schema\":\"semaprax.project-manifest.v1\","
                           "\"sources\":[{\"module\":\"app\",\"path\":\"src/app.spx\"}],"
                           "\"tests\":[]}");

    spx_diagnostics_t *diagnostics = NULL;
    spx_manifest_t *manifest = parse(text, pool, &diagnostics);
    CU_ASSERT_EQUAL(manifest->schema_version, 2);
    CU_ASSERT(manifest->limits.has_max_steps && !manifest->limits.has_max_memory &&
              !manifest->limits.has_max_call_depth);
    CU_ASSERT_EQUAL(manifest->limits.max_steps, 20000000u);
    CU_ASSERT_EQUAL(manifest->tests[0].limits.max_steps, 50000000u);
    CU_ASSERT_EQUAL(manifest->tests[0].limits.max_call_depth, 1024u);
    CU_ASSERT_EQUAL(manifest->data_count, 2);
    CU_ASSERT_STRING_EQUAL(manifest->data[0].name, "zeta");
    CU_ASSERT_EQUAL(manifest->data[1].path_span.start.line, 16);
    CU_ASSERT_PTR_EQUAL(spx_manifest_find_data(manifest, "corpus"), &manifest->data[1]);
    CU_ASSERT_PTR_NULL(spx_manifest_find_data(manifest, "corpse"));
    manifest =
        parse(HEAD2 V2_PROJECT "[limits]\nmax_memory = 0\nmax_call_depth = 65_536\n" V2_SOURCE,
              pool, &diagnostics);
    CU_ASSERT_PTR_NOT_NULL_FATAL(manifest);
    CU_ASSERT(manifest->limits.has_max_memory && manifest->limits.max_memory == 0);
    CU_ASSERT_EQUAL(manifest->limits.max_call_depth, 65536u);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"corpus: every rule, valid and invalid", test_corpus},
        {"parsed fields and spans", test_fields},
        {"CR LF line ends and a leading byte order mark", test_line_ends},
        {"canonical subject", test_subject},
        {"messages name what is wrong", test_messages},
        {"manifest size limit", test_size_limit},
        {"source and test count limits", test_count_limits},
        {"diagnostic limit", test_diagnostic_limit},
        {"a shared diagnostics list", test_shared_list},
        {"every documented code has its manifest", test_documented_codes},
        {"manifest v2: messages", test_v2_messages},
        {"manifest v2: the [[data]] count limit", test_v2_data_count_limit},
        {"manifest v2: canonical subject and parsed values", test_v2_subject},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("manifest", tests);
}
