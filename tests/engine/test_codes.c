/*
 * test_codes.c: the tables of codes and statuses (engine/include/spx_codes.h,
 * engine/include/spx_status.h, platform/spx_platform.h): every name well formed,
 * unique and in order, names and enumerators one to one, spx_strerror
 * answering ours from the tables and APR's from APR, and docs/diagnostics.md
 * listing exactly the codes of the tables.
 */
#include "spx_codes.h"
#include "spx_corpus.h"
#include "spx_diagnostics.h"
#include "spx_status.h"
#include "spx_test.h"

#include <apr_hash.h>
#include <apr_strings.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static apr_pool_t *pool_for_test(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* name is letter, '0', one of the range's digits, two digits: "E0101". */
static int well_formed(const char *name, char letter, char lowest, char highest)
{
    return name && strlen(name) == 5 && name[0] == letter && name[1] == '0' && name[2] >= lowest &&
           name[2] <= highest && is_digit(name[3]) && is_digit(name[4]);
}

/* A title says the rule in a few words: not empty, no final period, no
 * surrounding blanks, one line. */
static int good_title(const char *title)
{
    size_t length = title ? strlen(title) : 0;
    return length > 0 && length <= 80 && title[0] != ' ' && title[length - 1] != ' ' &&
           title[length - 1] != '.' && !strchr(title, '\n');
}

static void test_diagnostic_codes(void)
{
    const char *previous = "";
    for (int i = 0; i < SPX_DIAGNOSTIC_CODE_COUNT; i++) {
        const char *name = spx_diagnostic_code_name((spx_diagnostic_code_t)i);
        int good = well_formed(name, 'E', '1', '4') || well_formed(name, 'W', '6', '6');
        if (!good || strcmp(previous, name) >= 0)
            fprintf(stderr, "\n  code %d: '%s' after '%s'\n", i, name ? name : "(null)", previous);
        CU_ASSERT_TRUE(good);
        CU_ASSERT_TRUE(strcmp(previous, name) < 0); /* ascending, so unique */
        CU_ASSERT_TRUE(good_title(spx_diagnostic_code_title((spx_diagnostic_code_t)i)));
        previous = name;
    }
    CU_ASSERT_PTR_NULL(spx_diagnostic_code_name(SPX_DIAGNOSTIC_CODE_COUNT));
    CU_ASSERT_PTR_NULL(spx_diagnostic_code_title(SPX_DIAGNOSTIC_CODE_COUNT));
    CU_ASSERT_PTR_NULL(spx_diagnostic_code_name((spx_diagnostic_code_t)-1));
}

static void test_runtime_codes(void)
{
    const char *previous = "";
    for (int i = 0; i < SPX_RUNTIME_CODE_COUNT; i++) {
        const char *name = spx_runtime_code_name((spx_runtime_code_t)i);
        CU_ASSERT_TRUE(well_formed(name, 'R', '5', '5'));
        CU_ASSERT_TRUE(strcmp(previous, name) < 0);
        CU_ASSERT_TRUE(good_title(spx_runtime_code_title((spx_runtime_code_t)i)));
        previous = name;
    }
    CU_ASSERT_PTR_NULL(spx_runtime_code_name(SPX_RUNTIME_CODE_COUNT));
    CU_ASSERT_PTR_NULL(spx_runtime_code_title((spx_runtime_code_t)-1));
}

static void test_names_and_enumerators(void)
{
    /* Each enumerator is named after its code. */
#define CHECK_NAME_(code, title)                                                                   \
    CU_ASSERT_STRING_EQUAL(spx_diagnostic_code_name(SPX_##code), #code);                           \
    CU_ASSERT_STRING_EQUAL(spx_diagnostic_code_title(SPX_##code), title);
    SPX_DIAGNOSTIC_CODES(CHECK_NAME_)
#undef CHECK_NAME_
#define CHECK_NAME_(code, title)                                                                   \
    CU_ASSERT_STRING_EQUAL(spx_runtime_code_name(SPX_##code), #code);                              \
    CU_ASSERT_STRING_EQUAL(spx_runtime_code_title(SPX_##code), title);
    SPX_RUNTIME_CODES(CHECK_NAME_)
#undef CHECK_NAME_

    /* name -> enumerator -> name, for every code */
    for (int i = 0; i < SPX_DIAGNOSTIC_CODE_COUNT; i++) {
        spx_diagnostic_code_t code = SPX_DIAGNOSTIC_CODE_COUNT;
        CU_ASSERT_TRUE(
            spx_diagnostic_code_parse(spx_diagnostic_code_name((spx_diagnostic_code_t)i), &code));
        CU_ASSERT_EQUAL((int)code, i);
    }
    for (int i = 0; i < SPX_RUNTIME_CODE_COUNT; i++) {
        spx_runtime_code_t code = SPX_RUNTIME_CODE_COUNT;
        CU_ASSERT_TRUE(spx_runtime_code_parse(spx_runtime_code_name((spx_runtime_code_t)i), &code));
        CU_ASSERT_EQUAL((int)code, i);
    }

    /* Names outside a table are refused, and leave the code alone. */
    spx_diagnostic_code_t diagnostic = SPX_E0309;
    spx_runtime_code_t runtime = SPX_R0503;
    CU_ASSERT_FALSE(spx_diagnostic_code_parse("R0501", &diagnostic));
    CU_ASSERT_FALSE(spx_diagnostic_code_parse("E0999", &diagnostic));
    CU_ASSERT_FALSE(spx_diagnostic_code_parse("e0101", &diagnostic));
    CU_ASSERT_FALSE(spx_diagnostic_code_parse("E010", &diagnostic));
    CU_ASSERT_FALSE(spx_diagnostic_code_parse(NULL, &diagnostic));
    CU_ASSERT_FALSE(spx_runtime_code_parse("E0101", &runtime));
    CU_ASSERT_FALSE(spx_runtime_code_parse("R0599", &runtime));
    CU_ASSERT_EQUAL(diagnostic, SPX_E0309);
    CU_ASSERT_EQUAL(runtime, SPX_R0503);
}

/* A diagnostic added by enumerator carries its code's name, in its text and
 * JSON forms. */
static void test_diagnostics_carry_names(void)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *list = spx_diagnostics_make(pool);
    spx_span_t span = {{2, 31, 43}, {2, 33, 45}};
    spx_diagnostics_add(list, SPX_E0309, "src/app.spx", span, "unknown function '%s'", "ad");
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(list, 0)->code, "E0309");
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_text(list, pool),
                           "src/app.spx:2:31: error[E0309]: unknown function 'ad'\n");
    json_t *json = spx_diagnostics_json(list);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(json, 0), "code")),
                           "E0309");
    json_decref(json);
    apr_pool_destroy(pool);
}

static void add_within(spx_diagnostic_budget_t *budget, spx_diagnostic_code_t code,
                       const char *format, ...)
{
    spx_span_t span = {{1, 1, 0}, {1, 2, 1}};
    va_list arguments;
    va_start(arguments, format);
    spx_diagnostic_budget_addv(budget, code, span, format, arguments);
    va_end(arguments);
}

/* The budget adds limit diagnostics, then one that says the rest are not
 * reported (not counted), then nothing. */
static void test_diagnostic_budget(void)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *list = spx_diagnostics_make(pool);
    spx_diagnostic_budget_t budget;
    spx_diagnostic_budget_init(&budget, list, "semaprax.toml", 2, SPX_E0144, "over %u");
    add_within(&budget, SPX_E0103, "problem %d", 1);
    add_within(&budget, SPX_E0102, "problem %d", 2);
    CU_ASSERT_FALSE(budget.stopped);
    add_within(&budget, SPX_E0101, "problem %d", 3);
    CU_ASSERT_TRUE(budget.stopped);
    add_within(&budget, SPX_E0104, "problem %d", 4);
    CU_ASSERT_EQUAL(budget.count, 2);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_text(list, pool),
                           "semaprax.toml:1:1: error[E0103]: problem 1\n"
                           "semaprax.toml:1:1: error[E0102]: problem 2\n"
                           "semaprax.toml:1:1: error[E0144]: over 2\n");
    apr_pool_destroy(pool);
}

/* ---- statuses -------------------------------------------------------------- */

/* What spx_strerror (and spx_platform_strerror, when platform) says of one
 * of our statuses: the row's message, and the row names the status. */
static void check_status(apr_status_t status, const char *name, const char *message, int platform)
{
    char text[256], platform_text[256], apr_text[256];
    const spx_status_info_t *info = spx_status_info(status);
    CU_ASSERT_PTR_NOT_NULL_FATAL(info);
    CU_ASSERT_EQUAL(info->status, status);
    CU_ASSERT_STRING_EQUAL(info->name, name);
    CU_ASSERT_STRING_EQUAL(spx_strerror(status, text, sizeof(text)), message);
    CU_ASSERT_STRING_NOT_EQUAL(message, apr_strerror(status, apr_text, sizeof(apr_text)));
    CU_ASSERT_TRUE(good_title(message));
    /* The platform knows its own statuses only (layers point down). */
    spx_platform_strerror(status, platform_text, sizeof(platform_text));
    CU_ASSERT_STRING_EQUAL(platform_text, platform ? message : apr_text);
    CU_ASSERT_EQUAL(spx_platform_status_info(status) != NULL, platform);
    /* Platform statuses sit below the engine's base, the engine's above. */
    CU_ASSERT_TRUE(status > APR_OS_START_USERERR);
    CU_ASSERT_TRUE(platform ? status < SPX_STATUS_ENGINE_BASE : status > SPX_STATUS_ENGINE_BASE);
    CU_ASSERT_TRUE(status < APR_OS_START_USERERR + APR_OS_ERRSPACE_SIZE);
}

static void test_statuses(void)
{
    const apr_status_t all[] = {
#define VALUE_(name, offset, message) SPX_STATUS_##name,
        SPX_PLATFORM_STATUSES(VALUE_) SPX_ENGINE_STATUSES(VALUE_)
#undef VALUE_
    };
    size_t count = sizeof(all) / sizeof(all[0]);
    for (size_t i = 0; i < count; i++)
        for (size_t j = i + 1; j < count; j++)
            CU_ASSERT_NOT_EQUAL(all[i], all[j]);
#define CHECK_(name, offset, message)                                                              \
    check_status(SPX_STATUS_##name, "SPX_STATUS_" #name, message, 1);
    SPX_PLATFORM_STATUSES(CHECK_)
#undef CHECK_
#define CHECK_(name, offset, message)                                                              \
    check_status(SPX_STATUS_##name, "SPX_STATUS_" #name, message, 0);
    SPX_ENGINE_STATUSES(CHECK_)
#undef CHECK_
    /* A short buffer gets as much of the message as fits. */
    char shortened[8];
    CU_ASSERT_STRING_EQUAL(spx_strerror(SPX_STATUS_CHANGED, shortened, sizeof(shortened)),
                           "changed");
}

/* Everything else is APR's to say, ours unassigned included. */
static void test_apr_statuses(void)
{
    const apr_status_t others[] = {APR_ENOENT,
                                   APR_EACCES,
                                   APR_EGENERAL,
                                   APR_SUCCESS,
                                   SPX_STATUS_ENGINE_BASE,
                                   SPX_STATUS_ENGINE_BASE + 99};
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        char text[256], platform_text[256], apr_text[256];
        CU_ASSERT_PTR_NULL(spx_status_info(others[i]));
        apr_strerror(others[i], apr_text, sizeof(apr_text));
        CU_ASSERT_STRING_EQUAL(spx_strerror(others[i], text, sizeof(text)), apr_text);
        CU_ASSERT_STRING_EQUAL(
            spx_platform_strerror(others[i], platform_text, sizeof(platform_text)), apr_text);
    }
    char text[256], apr_text[256];
    CU_ASSERT_STRING_EQUAL(spx_strerror(APR_ENOENT, text, sizeof(text)),
                           apr_strerror(APR_ENOENT, apr_text, sizeof(apr_text)));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "No such file"));
}

/* ---- docs/diagnostics.md ------------------------------------------------------ */

/* The codes of the page's table rows, "| E0101 |" or "| `E0101` |" at the
 * start of a line (what tests/docs/check_diagnostics.py calls listed), as a
 * set. */
static apr_hash_t *codes_of_page(const char *text, apr_pool_t *pool)
{
    apr_hash_t *codes = apr_hash_make(pool);
    const char *line = text;
    while (line) {
        const char *at = line + 2;
        int quoted = strncmp(line, "| `", 3) == 0;
        at += quoted;
        if (strncmp(line, "| ", 2) == 0 && (at[0] == 'E' || at[0] == 'R' || at[0] == 'W') &&
            is_digit(at[1]) && is_digit(at[2]) && is_digit(at[3]) && is_digit(at[4]) &&
            strncmp(at + 5, quoted ? "` |" : " |", quoted ? 3 : 2) == 0)
            apr_hash_set(codes, apr_pstrndup(pool, at, 5), 5, "");
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return codes;
}

/* How many codes are on one side only: in the tables and not in the page's
 * text, or the reverse; *report says which. */
static int page_differences(const char *text, const char **report, apr_pool_t *pool)
{
    apr_hash_t *listed = codes_of_page(text, pool);
    int differences = 0;
    *report = "";
    for (int i = 0; i < SPX_DIAGNOSTIC_CODE_COUNT + SPX_RUNTIME_CODE_COUNT; i++) {
        const char *name =
            i < SPX_DIAGNOSTIC_CODE_COUNT
                ? spx_diagnostic_code_name((spx_diagnostic_code_t)i)
                : spx_runtime_code_name((spx_runtime_code_t)(i - SPX_DIAGNOSTIC_CODE_COUNT));
        if (!apr_hash_get(listed, name, APR_HASH_KEY_STRING)) {
            *report = apr_psprintf(pool,
                                   "%s\n  %s is in engine/include/spx_codes.h, not in "
                                   "docs/diagnostics.md",
                                   *report, name);
            differences++;
        }
    }
    for (apr_hash_index_t *at = apr_hash_first(pool, listed); at; at = apr_hash_next(at)) {
        const char *name = apr_hash_this_key(at);
        spx_diagnostic_code_t diagnostic;
        spx_runtime_code_t runtime;
        if (name[0] != 'R' ? !spx_diagnostic_code_parse(name, &diagnostic)
                           : !spx_runtime_code_parse(name, &runtime)) {
            *report = apr_psprintf(pool,
                                   "%s\n  %s is in docs/diagnostics.md, not in "
                                   "engine/include/spx_codes.h",
                                   *report, name);
            differences++;
        }
    }
    return differences;
}

/* text without the line that starts with start (which must be there). */
static const char *without_line(const char *text, const char *start, apr_pool_t *pool)
{
    const char *line = strstr(text, start);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    const char *end = strchr(line, '\n');
    return apr_pstrcat(pool, apr_pstrndup(pool, text, (apr_size_t)(line - text)),
                       end ? end + 1 : "", NULL);
}

static void test_page_lists_the_codes(void)
{
    apr_pool_t *pool = pool_for_test();
    apr_size_t length = 0;
    const char *page =
        spx_corpus_read(spx_corpus_dir("../docs/diagnostics.md", pool), &length, pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_EQUAL(apr_hash_count(codes_of_page(page, pool)),
                    SPX_DIAGNOSTIC_CODE_COUNT + SPX_RUNTIME_CODE_COUNT);
    const char *report = NULL;
    int differences = page_differences(page, &report, pool);
    if (differences)
        fprintf(stderr, "%s\n", report);
    CU_ASSERT_EQUAL(differences, 0);

    /* The comparison sees a code added to either side only. */
    const char *more = apr_pstrcat(pool, page, "| E0999 | new |\n| `R0599` | new |\n", NULL);
    CU_ASSERT_EQUAL(page_differences(more, &report, pool), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "E0999 is in docs/diagnostics.md, not in"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "R0599 is in docs/diagnostics.md, not in"));
    const char *fewer = without_line(without_line(page, "\n| E0309 |", pool), "\n| R0510 |", pool);
    CU_ASSERT_EQUAL(page_differences(fewer, &report, pool), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "E0309 is in engine/include/spx_codes.h, not in"));
    CU_ASSERT_PTR_NOT_NULL(strstr(report, "R0510 is in engine/include/spx_codes.h, not in"));
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"diagnostic codes: well formed, in order, titled", test_diagnostic_codes},
        {"runtime codes: well formed, in order, titled", test_runtime_codes},
        {"names and enumerators, both ways", test_names_and_enumerators},
        {"diagnostics carry their code's name", test_diagnostics_carry_names},
        {"a budget of diagnostics", test_diagnostic_budget},
        {"our statuses: names and messages", test_statuses},
        {"other statuses are APR's to say", test_apr_statuses},
        {"docs/diagnostics.md lists exactly the tables' codes", test_page_lists_the_codes},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("codes and statuses", tests);
}
