/*
 * test_builtins.c: the one definition of each builtin (spx_builtins.h) and
 * of each keyword (spx_lexer.h) as their readers see it: every builtin's row
 * is found by its spx_builtin_t, a call's name finds exactly the CALL rows
 * (never the methods push and pop), names are unique; every keyword is
 * recognized by spx_keyword_kind as its token, spelled by
 * spx_token_kind_text, marked by spx_token_v2_keyword exactly when language
 * v2 added it, and nothing but the whole word is a keyword.
 */
#include "spx_ast.h"
#include "spx_lexer.h"
#include "spx_test.h"

#include <string.h>

static void test_rows_by_builtin(void)
{
    for (int b = SPX_BUILTIN_NONE + 1; b <= SPX_BUILTIN_COUNT; b++) {
        const spx_builtin_info_t *info = spx_builtin_info((spx_builtin_t)b);
        CU_ASSERT_EQUAL(info->builtin, (spx_builtin_t)b);
        CU_ASSERT(info->since >= 1 && info->since <= 3);
        CU_ASSERT(info->optional <= info->arity);
        CU_ASSERT_PTR_NOT_NULL(info->signature);
        for (int other = SPX_BUILTIN_NONE + 1; other < b; other++)
            CU_ASSERT(strcmp(spx_builtin_info((spx_builtin_t)other)->name, info->name) != 0);
    }
}

static void test_called_by_name(void)
{
    for (int b = SPX_BUILTIN_NONE + 1; b <= SPX_BUILTIN_COUNT; b++) {
        const spx_builtin_info_t *info = spx_builtin_info((spx_builtin_t)b);
        CU_ASSERT_PTR_EQUAL(spx_builtin_called(info->name),
                            info->form == SPX_BUILTIN_FORM_CALL ? info : NULL);
    }
    CU_ASSERT_PTR_NULL(spx_builtin_called("push"));
    CU_ASSERT_PTR_NULL(spx_builtin_called("pop"));
    CU_ASSERT_PTR_NULL(spx_builtin_called("Print"));
    CU_ASSERT_PTR_NULL(spx_builtin_called("prin"));
    CU_ASSERT_PTR_NULL(spx_builtin_called(""));
    CU_ASSERT_EQUAL(spx_builtin_called("len")->builtin, SPX_BUILTIN_LEN);
    CU_ASSERT_EQUAL(spx_builtin_called("stoi")->since, 2);
    CU_ASSERT_EQUAL(spx_builtin_called("assert")->arity, 2);
}

static void check_keyword(spx_token_kind_t token, const char *word, int v2)
{
    char text[32];
    CU_ASSERT_EQUAL(spx_keyword_kind(word, strlen(word)), token);
    snprintf(text, sizeof(text), "'%s'", word);
    CU_ASSERT_STRING_EQUAL(spx_token_kind_text(token), text);
    if (v2) {
        CU_ASSERT_STRING_EQUAL(spx_token_v2_keyword(token), word);
    } else {
        CU_ASSERT_PTR_NULL(spx_token_v2_keyword(token));
    }
    /* A prefix, a longer word and another case are identifiers. */
    CU_ASSERT_EQUAL(spx_keyword_kind(word, strlen(word) - 1), SPX_TOKEN_IDENTIFIER);
    snprintf(text, sizeof(text), "%s_", word);
    CU_ASSERT_EQUAL(spx_keyword_kind(text, strlen(text)), SPX_TOKEN_IDENTIFIER);
    snprintf(text, sizeof(text), "%s", word);
    text[0] = (char)(text[0] - 'a' + 'A');
    CU_ASSERT_EQUAL(spx_keyword_kind(text, strlen(text)), SPX_TOKEN_IDENTIFIER);
}

static void test_keywords(void)
{
#define CHECK_V1(token, word) check_keyword(SPX_TOKEN_##token, word, 0);
#define CHECK_V2(token, word) check_keyword(SPX_TOKEN_##token, word, 1);
    SPX_KEYWORDS_V1(CHECK_V1)
    SPX_KEYWORDS_V2(CHECK_V2)
#undef CHECK_V1
#undef CHECK_V2
    CU_ASSERT_EQUAL(spx_keyword_kind("print", 5), SPX_TOKEN_IDENTIFIER);
    CU_ASSERT_EQUAL(spx_keyword_kind("x", 1), SPX_TOKEN_IDENTIFIER);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"every row is found by its builtin", test_rows_by_builtin},
        {"a call's name finds the CALL rows only", test_called_by_name},
        {"every keyword, once", test_keywords},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("builtins", tests);
}
