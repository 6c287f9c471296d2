/*
 * test_line_ends.c: process tests of CR LF line ends and a leading byte
 * order mark (docs/language.md, Lexical) through the real programs. The
 * example project examples/hello is copied twice at test time: as it is
 * (LF), and with every .spx and .toml file given CR LF line ends and a
 * leading UTF-8 byte order mark. The CLI's check, graph, context, test, run
 * and verify and the daemon's workspace/open, graph, context and test give
 * the same documents for both, once digests, revisions, span columns and
 * offsets are set aside (and a context node's text, which keeps the stored
 * CR LF, is compared with the CR of each CR LF taken out); a rename keeps
 * the CR LF line ends and the mark, and finds a called name after CR LF; a
 * lone CR fails at its line and column, in a source and in the manifest.
 */
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_daemon.h"
#include "spx_process.h"

#include <apr_file_info.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

#define MARK "\xef\xbb\xbf"

/* --- the two copies ------------------------------------------------------------ */

static int converted_name(const char *name)
{
    apr_size_t length = strlen(name);
    return (length > 4 && strcmp(name + length - 4, ".spx") == 0) ||
           (length > 5 && strcmp(name + length - 5, ".toml") == 0);
}

/* text with every LF made CR LF, after a byte order mark. */
static const char *crlf_of(const char *text, apr_pool_t *pool)
{
    char *out = apr_palloc(pool, 2 * strlen(text) + 4), *at = out;
    memcpy(at, MARK, 3);
    at += 3;
    for (; *text; text++) {
        if (*text == '\n')
            *at++ = '\r';
        *at++ = *text;
    }
    *at = '\0';
    return out;
}

/* Copy the folder from (absolute) to the fixture's folder lf as it is, and
 * to crlf with every .spx and .toml file converted; returns how many files
 * were converted. Every converted original must be LF only and without a
 * mark, or the comparisons below would show nothing. */
static int copy_tree(spx_fixture_t *fixture, const char *from, const char *lf, const char *crlf)
{
    apr_pool_t *pool = fixture->pool;
    apr_dir_t *dir = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_dir_open(&dir, from, pool), APR_SUCCESS);
    apr_finfo_t info;
    int converted = 0;
    while (apr_dir_read(&info, APR_FINFO_TYPE | APR_FINFO_NAME, dir) == APR_SUCCESS) {
        if (info.name[0] == '.')
            continue;
        const char *source = apr_pstrcat(pool, from, "/", info.name, NULL);
        const char *to_lf = apr_pstrcat(pool, lf, "/", info.name, NULL);
        const char *to_crlf = apr_pstrcat(pool, crlf, "/", info.name, NULL);
        if (info.filetype == APR_DIR) {
            converted += copy_tree(fixture, source, to_lf, to_crlf);
            continue;
        }
        apr_size_t length = 0;
        const char *text = spx_corpus_read(source, &length, pool);
        CU_ASSERT_EQUAL_FATAL(strlen(text), length);
        spx_fixture_write(fixture, to_lf, text);
        if (converted_name(info.name)) {
            CU_ASSERT_PTR_NULL(strchr(text, '\r'));
            CU_ASSERT_NOT_EQUAL(strncmp(text, MARK, 3), 0);
            spx_fixture_write(fixture, to_crlf, crlf_of(text, pool));
            converted++;
        } else {
            spx_fixture_write(fixture, to_crlf, text);
        }
    }
    apr_dir_close(dir);
    return converted;
}

/* examples/hello as "lf" and "crlf" in the fixture. */
static void copy_hello(spx_fixture_t *fixture)
{
    const char *examples = getenv("SPX_EXAMPLES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(examples);
    int converted =
        copy_tree(fixture, apr_pstrcat(fixture->pool, examples, "/hello", NULL), "lf", "crlf");
    CU_ASSERT_TRUE(converted >= 5); /* the manifest and the four sources */
    CU_ASSERT_PTR_NOT_NULL(strstr(spx_fixture_read(fixture, "crlf/semaprax.toml"), "\r\n"));
}

/* --- comparing documents --------------------------------------------------------- */

/* Set aside what CR LF and a mark may change, in place: every "sha256:..."
 * string (digests and revisions), the column and offset of every position
 * (an object with a "line"), and the CR of each CR LF in a "text" (counted
 * in *texts_with_crlf). */
static void normalise(json_t *value, int *texts_with_crlf)
{
    if (json_is_array(value)) {
        for (size_t i = 0; i < json_array_size(value); i++) {
            json_t *item = json_array_get(value, i);
            if (json_is_string(item) && strncmp(json_string_value(item), "sha256:", 7) == 0)
                json_array_set_new(value, i, json_string("sha256:*"));
            else
                normalise(item, texts_with_crlf);
        }
        return;
    }
    if (!json_is_object(value))
        return;
    if (json_object_get(value, "line")) {
        json_object_del(value, "column");
        json_object_del(value, "offset");
    }
    const char *key;
    json_t *item;
    void *spare;
    json_object_foreach_safe(value, spare, key, item)
    {
        if (json_is_string(item) && strncmp(json_string_value(item), "sha256:", 7) == 0) {
            json_object_set_new(value, key, json_string("sha256:*"));
        } else if (json_is_string(item) && strcmp(key, "text") == 0) {
            const char *text = json_string_value(item);
            size_t length = json_string_length(item), kept = 0;
            char *copy = malloc(length + 1);
            CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
            int had = 0;
            for (size_t i = 0; i < length; i++) {
                if (text[i] == '\r' && i + 1 < length && text[i + 1] == '\n') {
                    had = 1;
                    continue;
                }
                copy[kept++] = text[i];
            }
            *texts_with_crlf += had;
            json_object_set_new(value, key, json_stringn(copy, kept));
            free(copy);
        } else {
            normalise(item, texts_with_crlf);
        }
    }
}

/* The canonical text of a JSON document's text after normalise(). */
static const char *normalised(const char *document, int *texts_with_crlf, apr_pool_t *pool)
{
    json_error_t error;
    json_t *value = json_loads(document, JSON_ALLOW_NUL, &error);
    if (!value)
        fprintf(stderr, "\n  not JSON (%s): %.200s\n", error.text, document);
    CU_ASSERT_PTR_NOT_NULL_FATAL(value);
    normalise(value, texts_with_crlf);
    const char *text = spx_canonical_text(value, pool);
    json_decref(value);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    return text;
}

/* The two documents differ as stored (the CR LF copy has other digests) and
 * are equal once normalised; returns how many texts of the CR LF one held a
 * CR LF. */
static int assert_same_documents(const char *lf, const char *crlf, const char *what,
                                 apr_pool_t *pool)
{
    int lf_texts = 0, crlf_texts = 0;
    const char *a = normalised(lf, &lf_texts, pool), *b = normalised(crlf, &crlf_texts, pool);
    if (strcmp(a, b) != 0)
        fprintf(stderr, "\n  %s differs:\n  LF:    %s\n  CR LF: %s\n", what, a, b);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT_STRING_NOT_EQUAL(lf, crlf); /* something was set aside */
    CU_ASSERT_EQUAL(lf_texts, 0);
    return crlf_texts;
}

/* --- the CLI ----------------------------------------------------------------------- */

static spx_process_result_t cli(spx_fixture_t *fixture, const char *dir,
                                const char *const *arguments)
{
    apr_size_t count = 0;
    while (arguments[count])
        count++;
    const char **argv = apr_palloc(fixture->pool, (count + 3) * sizeof(*argv));
    memcpy(argv, arguments, count * sizeof(*argv));
    argv[count] = "--manifest-path";
    argv[count + 1] =
        spx_fixture_path(fixture, apr_pstrcat(fixture->pool, dir, "/semaprax.toml", NULL));
    argv[count + 2] = NULL;
    return spx_process_run(spx_program_path("SPX_SEMAPRAX"), argv, NULL, fixture->pool);
}

#define CLI(fixture, dir, ...) cli(fixture, dir, (const char *const[]){__VA_ARGS__, NULL})

/* The command on both copies: the same exit status (expected), the same
 * standard error, and the same output once normalised when json, else
 * byte for byte. Returns the CR LF copy's output. */
static const char *cli_both(spx_fixture_t *fixture, int json, int expected, int *texts_with_crlf,
                            const char *const *arguments)
{
    spx_process_result_t lf = cli(fixture, "lf", arguments);
    spx_process_result_t crlf = cli(fixture, "crlf", arguments);
    if (lf.exit_code != expected || crlf.exit_code != expected)
        fprintf(stderr, "\n  semaprax %s: %d and %d\n  %s\n  %s\n", arguments[0], lf.exit_code,
                crlf.exit_code, lf.err, crlf.err);
    CU_ASSERT_EQUAL(lf.exit_code, expected);
    CU_ASSERT_EQUAL(crlf.exit_code, expected);
    CU_ASSERT_STRING_EQUAL(lf.err, crlf.err);
    if (json) {
        int texts = assert_same_documents(lf.out, crlf.out, arguments[0], fixture->pool);
        if (texts_with_crlf)
            *texts_with_crlf = texts;
    } else {
        CU_ASSERT_STRING_EQUAL(lf.out, crlf.out);
    }
    return crlf.out;
}

#define CLI_BOTH(fixture, json, expected, texts, ...)                                              \
    cli_both(fixture, json, expected, texts, (const char *const[]){__VA_ARGS__, NULL})

static void test_cli_documents(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    copy_hello(fixture);
    apr_pool_t *pool = fixture->pool;

    const char *check = CLI_BOTH(fixture, 0, 0, NULL, "check", "--format", "json");
    CU_ASSERT_STRING_EQUAL(check, "{\"admitted\":true,\"diagnostics\":[]}\n");
    CLI_BOTH(fixture, 0, 0, NULL, "check");
    CLI_BOTH(fixture, 1, 0, NULL, "graph");

    /* Context: every node's text keeps its CR LF. */
    int texts = 0;
    CLI_BOTH(fixture, 1, 0, &texts, "context", "--kind", "function", "--target", "math.fact",
             "--depth", "2");
    CU_ASSERT_TRUE(texts >= 3);
    CLI_BOTH(fixture, 1, 0, &texts, "context", "--kind", "module", "--target", "app");
    CU_ASSERT_TRUE(texts >= 1);
    CLI_BOTH(fixture, 1, 0, &texts, "context", "--kind", "test", "--target", "fib");
    CU_ASSERT_TRUE(texts >= 1);

    /* max_bytes counts the stored bytes: the budget the LF document just fits
     * leaves a node of the CR LF one out. */
    spx_process_result_t lf = CLI(fixture, "lf", "context", "--kind", "function", "--target",
                                  "math.fact", "--depth", "2");
    const char *budget = apr_psprintf(pool, "%lu", (unsigned long)lf.out_length - 1);
    spx_process_result_t lf_cut = CLI(fixture, "lf", "context", "--kind", "function", "--target",
                                      "math.fact", "--depth", "2", "--max-bytes", budget);
    spx_process_result_t crlf_cut =
        CLI(fixture, "crlf", "context", "--kind", "function", "--target", "math.fact", "--depth",
            "2", "--max-bytes", budget);
    CU_ASSERT_EQUAL(lf_cut.exit_code, 0);
    CU_ASSERT_EQUAL(crlf_cut.exit_code, 0);
    spx_assert_contains(lf.out, "\"omitted_nodes\":0,");
    spx_assert_contains(lf_cut.out, "\"omitted_nodes\":0,"); /* the whole document fits */
    CU_ASSERT_PTR_NULL(strstr(lf_cut.out, "text_truncated"));
    CU_ASSERT_TRUE(strstr(crlf_cut.out, "\"omitted_nodes\":0,") == NULL ||
                   strstr(crlf_cut.out, "\"text_truncated\":true") != NULL);
    CU_ASSERT_TRUE(crlf_cut.out_length - 1 <= lf.out_length - 1);

    /* Test, its envelope, verify and run. */
    const char *lf_envelope = spx_fixture_path(fixture, "lf.json");
    const char *crlf_envelope = spx_fixture_path(fixture, "crlf.json");
    spx_process_result_t lf_test = CLI(fixture, "lf", "test", "--envelope", lf_envelope);
    spx_process_result_t crlf_test = CLI(fixture, "crlf", "test", "--envelope", crlf_envelope);
    CU_ASSERT_EQUAL(lf_test.exit_code, 0);
    CU_ASSERT_EQUAL(crlf_test.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(lf_test.out, crlf_test.out);
    spx_assert_contains(crlf_test.out, "4 passed, 0 failed");
    assert_same_documents(spx_fixture_read(fixture, "lf.json"),
                          spx_fixture_read(fixture, "crlf.json"), "envelope", pool);
    spx_process_result_t lf_verify = CLI(fixture, "lf", "verify", lf_envelope);
    spx_process_result_t crlf_verify = CLI(fixture, "crlf", "verify", crlf_envelope);
    CU_ASSERT_EQUAL(lf_verify.exit_code, 0);
    CU_ASSERT_EQUAL(crlf_verify.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(crlf_verify.out, lf_verify.out);
    CU_ASSERT_STRING_EQUAL(crlf_verify.err, lf_verify.err);
    spx_assert_contains(crlf_verify.out, "semaprax: the envelope is verified");
    /* The LF envelope does not verify against the CR LF project: the digests
     * are of the stored bytes. */
    spx_process_result_t crossed = CLI(fixture, "crlf", "verify", lf_envelope);
    CU_ASSERT_NOT_EQUAL(crossed.exit_code, 0);

    const char *ran = CLI_BOTH(fixture, 0, 0, NULL, "run");
    spx_assert_contains(ran, "Hello, world!\n");
    spx_fixture_free(fixture);
}

/* --- the daemon -------------------------------------------------------------------- */

/* The result text of one call (the whole response when it has none). */
static const char *call(spx_daemon_t *daemon, const char *method, const char *params,
                        apr_pool_t *pool)
{
    const char *line = spx_daemon_call(daemon, spx_request_line("1", method, params, pool));
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    json_t *response = json_loads(line, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(response);
    json_t *result = json_object_get(response, "result");
    if (!result)
        fprintf(stderr, "\n  %s: %s\n", method, line);
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    const char *text = spx_canonical_text(result, pool);
    json_decref(response);
    return text;
}

/* The revisions of a workspace/open result, as params text. */
static const char *revisions_of(const char *opened, apr_pool_t *pool)
{
    json_t *result = json_loads(opened, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    const char *params =
        apr_psprintf(pool, "\"project_revision\":\"%s\",\"workspace_revision\":\"%s\"",
                     json_string_value(json_object_get(result, "project_revision")),
                     json_string_value(json_object_get(result, "workspace_revision")));
    json_decref(result);
    return params;
}

static void test_daemon_documents(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    copy_hello(fixture);
    apr_pool_t *pool = fixture->pool;
    static const char *const none[] = {NULL};
    spx_daemon_t *lf = spx_daemon_start_on(fixture, "lf", none);
    spx_daemon_t *crlf = spx_daemon_start_on(fixture, "crlf", none);

    const char *lf_open = call(lf, "workspace/open", "", pool);
    const char *crlf_open = call(crlf, "workspace/open", "", pool);
    assert_same_documents(lf_open, crlf_open, "workspace/open", pool);
    const char *lf_revisions = revisions_of(lf_open, pool);
    const char *crlf_revisions = revisions_of(crlf_open, pool);

    static const char *const methods[][2] = {
        {"check", ""},
        {"graph", ""},
        {"context", ",\"target_kind\":\"function\",\"target\":\"math.fact\",\"depth\":2"},
        {"context", ",\"target_kind\":\"module\",\"target\":\"text\""},
        {"test", ""},
    };
    for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
        const char *a =
            call(lf, methods[i][0], apr_pstrcat(pool, lf_revisions, methods[i][1], NULL), pool);
        const char *b =
            call(crlf, methods[i][0], apr_pstrcat(pool, crlf_revisions, methods[i][1], NULL), pool);
        if (strcmp(methods[i][0], "check") == 0) {
            CU_ASSERT_STRING_EQUAL(a, b);
            CU_ASSERT_STRING_EQUAL(b, "{\"admitted\":true,\"diagnostics\":[]}");
            continue;
        }
        int texts = assert_same_documents(a, b, methods[i][0], pool);
        if (strcmp(methods[i][0], "context") == 0)
            CU_ASSERT_TRUE(texts >= 1);
        if (strcmp(methods[i][0], "test") == 0)
            spx_assert_contains(b, "\"passed\":4,");
    }
    CU_ASSERT_EQUAL(spx_daemon_finish(lf), 0);
    CU_ASSERT_EQUAL(spx_daemon_finish(crlf), 0);
    spx_fixture_free(fixture);
}

/* --- rename -------------------------------------------------------------------------- */

static void test_rename_keeps_line_ends(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    copy_hello(fixture);
    apr_pool_t *pool = fixture->pool;
    static const char *const allow[] = {"--allow-project-rename", NULL};
    static const char *const files[] = {"semaprax.toml", "src/app.spx", "src/math.spx",
                                        "src/text.spx", "src/words.spx"};
    enum { FILES = sizeof(files) / sizeof(files[0]) };
    const char *before[FILES];
    for (int f = 0; f < FILES; f++)
        before[f] = spx_fixture_read(fixture, apr_pstrcat(pool, "crlf/", files[f], NULL));
    /* The same rename on both copies; the LF one's result, converted, is
     * what the CR LF one must hold byte for byte. */
    static const char *const dirs[] = {"lf", "crlf"};
    for (int d = 0; d < 2; d++) {
        spx_daemon_t *daemon = spx_daemon_start_on(fixture, dirs[d], allow);
        const char *revisions = spx_daemon_open(daemon);
        const char *renamed =
            call(daemon, "project/rename",
                 apr_pstrcat(pool, revisions,
                             ",\"function\":\"math.fact\",\"new_name\":\"factorial\"", NULL),
                 pool);
        spx_assert_contains(renamed, "\"src/math.spx\"");
        /* The renamed project is admitted and its tests pass. */
        const char *tests = call(daemon, "test", revisions_of(renamed, pool), pool);
        spx_assert_contains(tests, "\"passed\":4,");
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    }
    int changed = 0;
    for (int f = 0; f < FILES; f++) {
        const char *lf = spx_fixture_read(fixture, apr_pstrcat(pool, "lf/", files[f], NULL));
        const char *crlf = spx_fixture_read(fixture, apr_pstrcat(pool, "crlf/", files[f], NULL));
        CU_ASSERT_STRING_EQUAL(crlf, crlf_of(lf, pool));
        if (strcmp(crlf, before[f]) != 0) {
            changed++;
            spx_assert_contains(crlf, "factorial(");
        }
    }
    CU_ASSERT_EQUAL(changed, 2); /* math.spx and app.spx; never the manifest */
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "crlf/semaprax.toml"), before[0]);
    spx_fixture_free(fixture);
}

/* A call written across CR LF lines: the rename finds the called name after
 * the line ends, and changes nothing but the names. */
static void test_rename_across_lines(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_fixture_write(fixture, "p/semaprax.toml",
                      MARK "manifest = \"semaprax.project-manifest.v1\"\r\n"
                           "[project]\r\nname = \"p\"\r\nversion = \"1.0.0\"\r\n"
                           "entry = \"app.main\"\r\n"
                           "[[source]]\r\nmodule = \"app\"\r\npath = \"src/app.spx\"\r\n"
                           "[[source]]\r\nmodule = \"util\"\r\npath = \"src/util.spx\"\r\n");
    spx_fixture_write(fixture, "p/src/util.spx",
                      MARK "export fn scale(x: int) -> int {\r\n  return x * 3;\r\n}\r\n");
    /* The call of NAME starts on a line of its own, after a comment. */
    static const char app_with[] = MARK "import util;\r\n"
                                        "export fn main() -> int {\r\n"
                                        "  return (\r\n"
                                        "    // the call starts on the next line\r\n"
                                        "    util\r\n"
                                        "    .\r\n"
                                        "    %s(1)) - 3;\r\n"
                                        "}\r\n";
    spx_fixture_write(fixture, "p/src/app.spx", apr_psprintf(pool, app_with, "scale"));
    static const char *const allow[] = {"--allow-project-rename", NULL};
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "p", allow);
    const char *revisions = spx_daemon_open(daemon);
    const char *renamed = call(
        daemon, "project/rename",
        apr_pstrcat(pool, revisions, ",\"function\":\"util.scale\",\"new_name\":\"triple\"", NULL),
        pool);
    spx_assert_contains(renamed, "\"src/app.spx\"");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "p/src/util.spx"),
                           MARK "export fn triple(x: int) -> int {\r\n  return x * 3;\r\n}\r\n");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "p/src/app.spx"),
                           apr_psprintf(pool, app_with, "triple"));
    spx_process_result_t ran = CLI(fixture, "p", "run");
    CU_ASSERT_EQUAL(ran.exit_code, 0);
    spx_fixture_free(fixture);
}

/* --- a lone CR ----------------------------------------------------------------------- */

/* The only diagnostic of `semaprax check --format json` on the CR LF copy. */
static const json_t *only_diagnostic(spx_fixture_t *fixture, json_t **document)
{
    spx_process_result_t check = CLI(fixture, "crlf", "check", "--format", "json");
    CU_ASSERT_EQUAL(check.exit_code, 1);
    *document = json_loads(check.out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*document);
    CU_ASSERT_TRUE(json_is_false(json_object_get(*document, "admitted")));
    const json_t *list = json_object_get(*document, "diagnostics");
    if (json_array_size(list) != 1)
        fprintf(stderr, "\n  %s\n", check.out);
    CU_ASSERT_EQUAL_FATAL(json_array_size(list), 1);
    return json_array_get(list, 0);
}

static void assert_position(const json_t *span, const char *end, json_int_t line, json_int_t column,
                            json_int_t offset)
{
    const json_t *at = json_object_get(span, end);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(at, "line")), line);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(at, "column")), column);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(at, "offset")), offset);
}

/* In the file relative of the CR LF copy, make the CR LF ending line number
 * line a CR CR LF: the first CR is then lone. Returns its offset and, in
 * *column, its column. */
static size_t add_lone_cr(spx_fixture_t *fixture, const char *relative, int line,
                          json_int_t *column)
{
    const char *text = spx_fixture_read(fixture, relative);
    const char *start = text;
    for (int l = 1; l < line; l++)
        start = strchr(start, '\n') + 1;
    const char *cr = strstr(start, "\r\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cr);
    size_t offset = (size_t)(cr - text);
    *column = (json_int_t)(cr - start) + 1;
    spx_fixture_write(fixture, relative,
                      apr_pstrcat(fixture->pool, apr_pstrndup(fixture->pool, text, offset), "\r",
                                  text + offset, NULL));
    return offset;
}

static void test_lone_cr(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    copy_hello(fixture);
    json_t *document = NULL;

    /* In a source, line 3. */
    json_int_t column = 0;
    size_t offset = add_lone_cr(fixture, "crlf/src/math.spx", 3, &column);
    CU_ASSERT_TRUE(column > 1);
    const json_t *item = only_diagnostic(fixture, &document);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(item, "code")), "E0204");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(item, "path")), "src/math.spx");
    assert_position(json_object_get(item, "span"), "start", 3, column, (json_int_t)offset);
    assert_position(json_object_get(item, "span"), "end", 3, column + 1, (json_int_t)offset + 1);
    json_decref(document);

    /* In the manifest, line 1, after the byte order mark's three bytes. */
    spx_fixture_write(fixture, "crlf/src/math.spx",
                      crlf_of(spx_fixture_read(fixture, "lf/src/math.spx"), fixture->pool));
    offset = add_lone_cr(fixture, "crlf/semaprax.toml", 1, &column);
    const char *manifest = spx_fixture_read(fixture, "lf/semaprax.toml");
    CU_ASSERT_EQUAL(column, (json_int_t)(strchr(manifest, '\n') - manifest) + 4);
    item = only_diagnostic(fixture, &document);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(item, "code")), "E0102");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(item, "path")), "semaprax.toml");
    assert_position(json_object_get(item, "span"), "start", 1, column, (json_int_t)offset);
    assert_position(json_object_get(item, "span"), "end", 1, column + 1, (json_int_t)offset + 1);
    json_decref(document);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"CLI: CR LF + mark gives the LF documents", test_cli_documents},
        {"daemon: CR LF + mark gives the LF documents", test_daemon_documents},
        {"rename keeps CR LF and the mark", test_rename_keeps_line_ends},
        {"rename finds a name after CR LF", test_rename_across_lines},
        {"a lone CR fails at its line and column", test_lone_cr},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("line ends", tests);
}
