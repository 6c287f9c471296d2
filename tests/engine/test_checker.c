/*
 * test_checker.c: the checker (checker.c) against language.md's rules.
 *
 * Most cases are corpus folders, tests/corpus/check/NAME/, each a small
 * program of several modules (MODULE.spx, module name = file stem) with an
 * `expected` file of "PATH CODE L:C-L:C" lines, sorted as the engine sorts
 * diagnostics; every rule has a valid and an invalid folder. The other tests
 * check the annotations the checker leaves in the tree (slots, call targets,
 * types, local counts), the messages that name things, every program of
 * docs/diagnostics-checker.md, and trees deeper than any recursion could take.
 */
#include "spx_ast.h"
#include "spx_corpus.h"
#include "project_internal.h" /* white-box: the project's own fields */
#include "spx_project.h"
#include "spx_test.h"

#include <apr_file_info.h>
#include <apr_strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>

static apr_pool_t *pool_for_test(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

/* One source of a program under test. */
typedef struct source_t {
    const char *module;
    const char *text;
} source_t;

/* Parse every source (path "MODULE.spx") and check them together; the
 * modules in *modules, all diagnostics (parser's and checker's) sorted. */
static spx_diagnostics_t *check_sources(const source_t *sources, apr_size_t count,
                                        spx_module_t ***modules, apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_module_t **parsed = apr_pcalloc(pool, (count + 1) * sizeof(*parsed));
    spx_arena_t *arena = spx_arena_make(pool);
    for (apr_size_t i = 0; i < count; i++) {
        parsed[i] =
            spx_module_make(sources[i].module, apr_pstrcat(pool, sources[i].module, ".spx", NULL),
                            (const unsigned char *)sources[i].text, strlen(sources[i].text), arena);
        spx_parse_module(parsed[i], arena, arena, pool, diagnostics);
    }
    spx_check_program(parsed, count, pool, diagnostics);
    spx_diagnostics_sort(diagnostics);
    if (modules)
        *modules = parsed;
    return diagnostics;
}

/* The diagnostics in the corpus's "PATH CODE L:C-L:C\n" form. */
static const char *summary_with_paths(const spx_diagnostics_t *list, apr_pool_t *pool)
{
    apr_array_header_t *lines = apr_array_make(pool, 4, sizeof(const char *));
    for (apr_size_t i = 0; i < spx_diagnostics_count(list); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(list, i);
        APR_ARRAY_PUSH(lines, const char *) =
            apr_psprintf(pool, "%s %s %" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 "\n",
                         item->path, item->code, item->span.start.line, item->span.start.column,
                         item->span.end.line, item->span.end.column);
    }
    return apr_array_pstrcat(pool, lines, 0);
}

/* Messages too, for a failure's report. */
static void print_diagnostics(const spx_diagnostics_t *list, apr_pool_t *pool)
{
    fprintf(stderr, "%s", spx_diagnostics_text(list, pool));
}

static int compare_strings(const void *left, const void *right)
{
    return strcmp(*(const char *const *)left, *(const char *const *)right);
}

/* The sub-folders of dir, sorted. */
static apr_array_header_t *list_folders(const char *dir, apr_pool_t *pool)
{
    apr_array_header_t *names = apr_array_make(pool, 32, sizeof(const char *));
    apr_dir_t *handle = NULL;
    apr_finfo_t entry;
    CU_ASSERT_EQUAL_FATAL(apr_dir_open(&handle, dir, pool), APR_SUCCESS);
    while (apr_dir_read(&entry, APR_FINFO_NAME | APR_FINFO_TYPE, handle) == APR_SUCCESS)
        if (entry.filetype == APR_DIR && entry.name[0] != '.')
            APR_ARRAY_PUSH(names, const char *) = apr_pstrdup(pool, entry.name);
    apr_dir_close(handle);
    qsort(names->elts, (size_t)names->nelts, sizeof(const char *), compare_strings);
    return names;
}

/* ---- the corpus --------------------------------------------------------- */

/* The same sources as a project on disk, opened by Phase A, which parses,
 * checks and lets go of one module's bodies at a time, imports first: its
 * diagnostics must be exactly those of checking every module at once. */
static const char *summary_through_phase_a(const source_t *sources, apr_size_t count,
                                           apr_pool_t *pool)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = "manifest = \"semaprax.project-manifest.v1\"\n\n"
                           "[project]\nname = \"p\"\nversion = \"1.0.0\"\n";
    for (apr_size_t i = 0; i < count; i++) {
        const char *path = apr_pstrcat(fixture->pool, sources[i].module, ".spx", NULL);
        manifest = apr_pstrcat(fixture->pool, manifest, "\n[[source]]\nmodule = \"",
                               sources[i].module, "\"\npath = \"", path, "\"\n", NULL);
        spx_fixture_write(fixture, path, sources[i].text);
    }
    spx_fixture_write(fixture, "semaprax.toml", manifest);
    spx_project_t *project = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project, spx_fixture_path(fixture, "semaprax.toml"),
                                           fixture->pool, &message),
                          APR_SUCCESS);
    /* W0604 (a private function nothing calls or tests) needs a manifest,
     * which names the entry and the tests: checking the modules alone never
     * gives it, so it is left out here (tests/corpus/check has no entry). */
    spx_diagnostics_t *kept = spx_diagnostics_make(fixture->pool);
    for (apr_size_t i = 0; i < spx_diagnostics_count(project->diagnostics); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(project->diagnostics, i);
        if (strcmp(item->code, "W0604") != 0)
            spx_diagnostics_add(kept, SPX_E0101, item->path, item->span, "%s", item->message)
                ->code = item->code;
    }
    const char *summary = apr_pstrdup(pool, summary_with_paths(kept, fixture->pool));
    spx_fixture_free(fixture);
    return summary;
}

static int run_corpus_case(const char *dir, const char *name, apr_pool_t *pool)
{
    const char *folder = apr_pstrcat(pool, dir, "/", name, NULL);
    apr_array_header_t *files = spx_corpus_list(folder, ".spx", pool);
    source_t *sources = apr_pcalloc(pool, ((apr_size_t)files->nelts + 1) * sizeof(*sources));
    for (int i = 0; i < files->nelts; i++) {
        const char *file = APR_ARRAY_IDX(files, i, const char *);
        sources[i].module = apr_pstrndup(pool, file, strlen(file) - strlen(".spx"));
        sources[i].text = spx_corpus_read(apr_pstrcat(pool, folder, "/", file, NULL), NULL, pool);
    }
    spx_diagnostics_t *diagnostics = check_sources(sources, (apr_size_t)files->nelts, NULL, pool);
    const char *actual = summary_with_paths(diagnostics, pool);
    const char *expected =
        spx_corpus_read(apr_pstrcat(pool, folder, "/expected", NULL), NULL, pool);
    if (strcmp(actual, expected) != 0) {
        fprintf(stderr, "\n  check/%s\n  expected:\n%s  actual:\n%s", name, expected, actual);
        print_diagnostics(diagnostics, pool);
        return 0;
    }
    const char *walked = summary_through_phase_a(sources, (apr_size_t)files->nelts, pool);
    if (strcmp(walked, expected) == 0)
        return 1;
    fprintf(stderr, "\n  check/%s through Phase A\n  expected:\n%s  actual:\n%s", name, expected,
            walked);
    return 0;
}

static void test_corpus(void)
{
    apr_pool_t *pool = pool_for_test();
    const char *dir = spx_corpus_dir("corpus/check", pool);
    apr_array_header_t *cases = list_folders(dir, pool);
    CU_ASSERT_TRUE(cases->nelts >= 30);
    int failed = 0;
    for (int i = 0; i < cases->nelts; i++)
        if (!run_corpus_case(dir, APR_ARRAY_IDX(cases, i, const char *), pool))
            failed++;
    CU_ASSERT_EQUAL(failed, 0);
    apr_pool_destroy(pool);
}

/* ---- annotations of a valid program --------------------------------------- */

static const char *const annotated_app = "import math;\n"
                                         "\n"
                                         "export fn main(a: int) -> int {\n"
                                         "  let b = a + 1;\n"
                                         "  var s: str = itos(b);\n"
                                         "  if b > 2 {\n"
                                         "    let c = len(s);\n"
                                         "    s = s + \"x\";\n"
                                         "  }\n"
                                         "  print(s);\n"
                                         "  return math.twice(b);\n"
                                         "}\n";
static const char *const annotated_math = "export fn twice(n: int) -> int { return n * 2; }\n"
                                          "fn unit() { }\n";

static spx_stmt_t *statement(spx_block_t *block, apr_size_t index)
{
    CU_ASSERT_TRUE_FATAL(index < block->count);
    return block->statements[index];
}

static void test_annotations(void)
{
    apr_pool_t *pool = pool_for_test();
    source_t sources[] = {{"app", annotated_app}, {"math", annotated_math}};
    spx_module_t **modules = NULL;
    spx_diagnostics_t *diagnostics = check_sources(sources, 2, &modules, pool);
    if (spx_diagnostics_count(diagnostics) != 1)
        print_diagnostics(diagnostics, pool);
    /* No error; one warning: c is never used (W0602). */
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(diagnostics, 0)->code, "W0602");
    CU_ASSERT_EQUAL(spx_diagnostics_error_count(diagnostics), 0);
    spx_module_t *app = modules[0], *math = modules[1];

    /* imports and the functions by name */
    CU_ASSERT_EQUAL_FATAL(app->import_count, 1);
    CU_ASSERT_PTR_EQUAL(app->imports[0].target, math);
    CU_ASSERT_EQUAL_FATAL(app->function_count, 1);
    spx_function_t *main_function = app->functions[0];
    CU_ASSERT_PTR_EQUAL(spx_module_function(app, "main"), main_function);
    CU_ASSERT_PTR_EQUAL(spx_module_function(math, "twice"), math->functions[0]);
    CU_ASSERT_PTR_EQUAL(spx_module_function(math, "unit"), math->functions[1]);
    CU_ASSERT_PTR_NULL(spx_module_function(math, "main"));
    CU_ASSERT_PTR_NULL(spx_module_function(math, "twic"));

    /* a = 0 (parameter), b = 1, s = 2, c = 3 */
    CU_ASSERT_EQUAL(main_function->local_count, 4);
    CU_ASSERT_EQUAL(math->functions[0]->local_count, 1);
    CU_ASSERT_EQUAL(math->functions[1]->local_count, 0);
    spx_block_t *body = &main_function->body;
    CU_ASSERT_EQUAL_FATAL(body->count, 5);

    /* let b = a + 1; */
    spx_stmt_t *let_b = statement(body, 0);
    CU_ASSERT_EQUAL_FATAL(let_b->kind, SPX_STMT_LET);
    CU_ASSERT_EQUAL(let_b->as.binding.slot, 1);
    spx_expr_t *sum = let_b->as.binding.value;
    CU_ASSERT_EQUAL_FATAL(sum->kind, SPX_EXPR_BINARY);
    CU_ASSERT_EQUAL(sum->type, SPX_TYPE_INT);
    CU_ASSERT_EQUAL(sum->as.binary.left->as.name.slot, 0);
    CU_ASSERT_EQUAL(sum->as.binary.left->type, SPX_TYPE_INT);
    CU_ASSERT_EQUAL(sum->as.binary.right->type, SPX_TYPE_INT);

    /* var s: str = itos(b); */
    spx_stmt_t *var_s = statement(body, 1);
    CU_ASSERT_EQUAL_FATAL(var_s->kind, SPX_STMT_VAR);
    CU_ASSERT_EQUAL(var_s->as.binding.slot, 2);
    spx_expr_t *itos_call = var_s->as.binding.value;
    CU_ASSERT_EQUAL_FATAL(itos_call->kind, SPX_EXPR_CALL);
    CU_ASSERT_EQUAL(itos_call->as.call->builtin, SPX_BUILTIN_ITOS);
    CU_ASSERT_PTR_NULL(itos_call->as.call->target);
    CU_ASSERT_EQUAL(itos_call->type, SPX_TYPE_STR);
    CU_ASSERT_EQUAL_FATAL(itos_call->as.call->argument_count, 1);
    CU_ASSERT_EQUAL(itos_call->as.call->arguments[0]->as.name.slot, 1);

    /* if b > 2 { let c = len(s); s = s + "x"; } */
    spx_stmt_t *if_stmt = statement(body, 2);
    CU_ASSERT_EQUAL_FATAL(if_stmt->kind, SPX_STMT_IF);
    CU_ASSERT_EQUAL(if_stmt->as.if_stmt.condition->type, SPX_TYPE_BOOL);
    spx_stmt_t *let_c = statement(&if_stmt->as.if_stmt.then_block, 0);
    CU_ASSERT_EQUAL(let_c->as.binding.slot, 3);
    CU_ASSERT_EQUAL(let_c->as.binding.value->as.call->builtin, SPX_BUILTIN_LEN);
    CU_ASSERT_EQUAL(let_c->as.binding.value->type, SPX_TYPE_INT);
    CU_ASSERT_EQUAL(let_c->as.binding.value->as.call->arguments[0]->as.name.slot, 2);
    spx_stmt_t *assign = statement(&if_stmt->as.if_stmt.then_block, 1);
    CU_ASSERT_EQUAL_FATAL(assign->kind, SPX_STMT_ASSIGN);
    CU_ASSERT_EQUAL(assign->as.assign.slot, 2);
    CU_ASSERT_EQUAL(assign->as.assign.value->type, SPX_TYPE_STR);
    CU_ASSERT_EQUAL(assign->as.assign.value->as.binary.right->type, SPX_TYPE_STR);

    /* print(s); */
    spx_expr_t *print_call = statement(body, 3)->as.expr_stmt.expression;
    CU_ASSERT_EQUAL(print_call->as.call->builtin, SPX_BUILTIN_PRINT);
    CU_ASSERT_EQUAL(print_call->type, SPX_TYPE_UNIT);

    /* return math.twice(b); */
    spx_expr_t *twice_call = statement(body, 4)->as.return_stmt.value;
    CU_ASSERT_PTR_EQUAL(twice_call->as.call->target, math->functions[0]);
    CU_ASSERT_EQUAL(twice_call->as.call->builtin, SPX_BUILTIN_NONE);
    CU_ASSERT_EQUAL(twice_call->type, SPX_TYPE_INT);
    CU_ASSERT_EQUAL(twice_call->as.call->arguments[0]->as.name.slot, 1);

    /* twice: return n * 2; */
    spx_expr_t *product = statement(&math->functions[0]->body, 0)->as.return_stmt.value;
    CU_ASSERT_EQUAL(product->type, SPX_TYPE_INT);
    CU_ASSERT_EQUAL(product->as.binary.left->as.name.slot, 0);
    apr_pool_destroy(pool);
}

/* What an error leaves in the tree: slot -1, no target, type error. */
static void test_annotations_of_errors(void)
{
    apr_pool_t *pool = pool_for_test();
    source_t sources[] = {{"app", "fn f() { let a = b; let c = g(a); let d = a; }\n"}};
    spx_module_t **modules = NULL;
    spx_diagnostics_t *diagnostics = check_sources(sources, 1, &modules, pool);
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 2);
    CU_ASSERT_EQUAL_FATAL(modules[0]->function_count, 1);
    spx_block_t *body = &modules[0]->functions[0]->body;
    CU_ASSERT_EQUAL_FATAL(body->count, 3);
    spx_expr_t *name = statement(body, 0)->as.binding.value;
    CU_ASSERT_EQUAL(name->as.name.slot, -1);
    CU_ASSERT_EQUAL(name->type, SPX_TYPE_ERROR);
    CU_ASSERT_EQUAL(statement(body, 0)->as.binding.slot, 0);
    spx_expr_t *call = statement(body, 1)->as.binding.value;
    CU_ASSERT_PTR_NULL(call->as.call->target);
    CU_ASSERT_EQUAL(call->as.call->builtin, SPX_BUILTIN_NONE);
    CU_ASSERT_EQUAL(call->type, SPX_TYPE_ERROR);
    CU_ASSERT_EQUAL(call->as.call->arguments[0]->as.name.slot, 0);
    CU_ASSERT_EQUAL(statement(body, 2)->as.binding.slot, 2);
    CU_ASSERT_EQUAL(statement(body, 2)->as.binding.value->type, SPX_TYPE_ERROR);
    CU_ASSERT_EQUAL(modules[0]->functions[0]->local_count, 3);
    apr_pool_destroy(pool);
}

/* A function whose body did not parse (incomplete) gets no semantic
 * diagnostic: neither about what the lost statements may have declared or
 * returned (x, E0410) nor anything else in its body (print(1), E0404); a
 * whole function beside it is checked as ever, and a struct first named in
 * an incomplete body is still reported where a whole function names it. */
static void test_incomplete_functions(void)
{
    apr_pool_t *pool = pool_for_test();
    source_t sources[] = {{"app", "fn f() -> int {\n"
                                  "  let x = 1 +;\n"
                                  "  x = 2;\n"
                                  "  print(x);\n"
                                  "}\n"
                                  "fn g() { let y = 1 +; print(1); let p: Piont = 0; }\n"
                                  "fn h() { print(1); let q: Piont = 0; }\n"}};
    spx_module_t **modules = NULL;
    spx_diagnostics_t *diagnostics = check_sources(sources, 1, &modules, pool);
    apr_size_t syntax = 0, e0404 = 0, e0319 = 0;
    for (apr_size_t i = 0; i < spx_diagnostics_count(diagnostics); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, i);
        if (strncmp(item->code, "E02", 3) == 0)
            syntax++;
        else if (strcmp(item->code, "E0404") == 0 && item->span.start.line == 7)
            e0404++;
        else if (strcmp(item->code, "E0319") == 0 && item->span.start.line == 7)
            e0319++;
    }
    if (syntax != 2 || e0404 != 1 || e0319 != 1 || spx_diagnostics_count(diagnostics) != 4)
        print_diagnostics(diagnostics, pool);
    CU_ASSERT_EQUAL(syntax, 2);
    CU_ASSERT_EQUAL(e0404, 1); /* h's print(1); g's is not reported */
    CU_ASSERT_EQUAL(e0319, 1); /* h's Piont; g's is not reported */
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 4);
    CU_ASSERT_EQUAL_FATAL(modules[0]->function_count, 3);
    CU_ASSERT_TRUE(modules[0]->functions[0]->incomplete);
    CU_ASSERT_TRUE(modules[0]->functions[1]->incomplete);
    CU_ASSERT_FALSE(modules[0]->functions[2]->incomplete);
    apr_pool_destroy(pool);
}

/* ---- messages ------------------------------------------------------------- */

/* The one diagnostic of sources has code and message. */
static void assert_message(const source_t *sources, apr_size_t count, const char *code,
                           const char *message)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *diagnostics = check_sources(sources, count, NULL, pool);
    int ok = spx_diagnostics_count(diagnostics) == 1 &&
             strcmp(spx_diagnostics_get(diagnostics, 0)->code, code) == 0 &&
             strcmp(spx_diagnostics_get(diagnostics, 0)->message, message) == 0;
    if (!ok) {
        fprintf(stderr, "\n  wanted %s '%s', got:\n", code, message);
        print_diagnostics(diagnostics, pool);
    }
    CU_ASSERT_TRUE(ok);
    apr_pool_destroy(pool);
}

static void test_messages(void)
{
    source_t cycle[] = {{"a", "import b;\n"}, {"b", "import c;\n"}, {"c", "import a;\n"}};
    assert_message(cycle, 3, "E0304", "import cycle: a -> b -> c -> a");
    /* The same cycle declared in another order is the same diagnostic. */
    source_t cycle_reordered[] = {{"c", "import a;\n"}, {"b", "import c;\n"}, {"a", "import b;\n"}};
    assert_message(cycle_reordered, 3, "E0304", "import cycle: a -> b -> c -> a");
    source_t unknown[] = {{"app", "import math;\nfn f() -> int { return math.ad(1, 2); }\n"},
                          {"math", "export fn add(a: int, b: int) -> int { return a + b; }\n"}};
    assert_message(unknown, 2, "E0309",
                   "unknown function 'ad' in module 'math'; did you mean 'math.add'?");
    source_t local_unknown[] = {{"app", "fn f() { g(); }\n"}};
    assert_message(local_unknown, 1, "E0309",
                   "unknown function 'g' in module 'app'; did you mean 'f'?");
    source_t unexported[] = {{"app", "import math;\nfn f() -> int { return math.secret(); }\n"},
                             {"math", "fn secret() -> int { return 1; }\n"}};
    assert_message(unexported, 2, "E0311", "function 'secret' of module 'math' is not exported");
    source_t count[] = {{"app", "import math;\nfn f() -> int { return math.add(1); }\n"},
                        {"math", "export fn add(a: int, b: int) -> int { return a + b; }\n"}};
    assert_message(count, 2, "E0403", "'math.add' takes 2 arguments, not 1");
    source_t argument[] = {{"app", "fn f() { print(1); }\n"}};
    assert_message(argument, 1, "E0404", "argument 1 of 'print' must be 'str', not 'int'");
    source_t unit[] = {{"app", "fn u() { }\nfn f() { let x = u(); }\n"}};
    assert_message(unit, 1, "E0402", "'u' returns unit, which cannot be stored");
    source_t operands[] = {{"app", "fn f() { let x = 1 + \"a\"; }\n"}};
    assert_message(operands, 1, "E0405", "operator '+' cannot take 'int' and 'str'");
    source_t immutable[] = {{"app", "fn f(a: int) { a = 1; }\n"}};
    assert_message(immutable, 1, "E0312", "cannot assign to 'a': it is a parameter");
    source_t missing[] = {{"app", "fn f() -> int { }\n"}};
    assert_message(missing, 1, "E0410", "'f' does not return a value on every path");
}

/* ---- the documented codes --------------------------------------------------- */

/* The `MODULE: SOURCE` code spans of one table cell. */
static apr_size_t program_of_cell(const char *cell, source_t *sources, apr_size_t capacity,
                                  apr_pool_t *pool)
{
    apr_size_t count = 0;
    const char *open = cell;
    while ((open = strchr(open, '`')) != NULL && count < capacity) {
        const char *close = strchr(open + 1, '`');
        CU_ASSERT_PTR_NOT_NULL_FATAL(close);
        const char *span = apr_pstrndup(pool, open + 1, (apr_size_t)(close - open - 1));
        const char *colon = strstr(span, ": ");
        CU_ASSERT_PTR_NOT_NULL_FATAL(colon);
        sources[count].module = apr_pstrndup(pool, span, (apr_size_t)(colon - span));
        sources[count].text = apr_pstrcat(pool, colon + 2, "\n", NULL);
        count++;
        open = close + 1;
    }
    return count;
}

/* Every row "| E0xxx | meaning | `m: source` ... |" of the table: its program
 * gives exactly one diagnostic, with that code, and every code is listed. */
static void test_documented_programs(void)
{
    apr_pool_t *pool = pool_for_test();
    const char *path =
        apr_pstrcat(pool, spx_corpus_dir("..", pool), "/docs/diagnostics-checker.md", NULL);
    char *text = apr_pstrdup(pool, spx_corpus_read(path, NULL, pool));
    apr_hash_t *listed = apr_hash_make(pool);
    char *state = NULL;
    for (char *line = apr_strtok(text, "\n", &state); line; line = apr_strtok(NULL, "\n", &state)) {
        if (strncmp(line, "| E0", 4) != 0 && strncmp(line, "| W0", 4) != 0)
            continue;
        const char *code = apr_pstrndup(pool, line + 2, 5);
        char *program_cell = strrchr(line, '|');
        *program_cell = '\0';
        program_cell = strrchr(line, '|');
        CU_ASSERT_PTR_NOT_NULL_FATAL(program_cell);
        source_t sources[8];
        apr_size_t count = program_of_cell(program_cell, sources, 8, pool);
        CU_ASSERT_TRUE(count >= 1);
        spx_diagnostics_t *diagnostics = check_sources(sources, count, NULL, pool);
        int ok = spx_diagnostics_count(diagnostics) == 1 &&
                 strcmp(spx_diagnostics_get(diagnostics, 0)->code, code) == 0;
        if (!ok) {
            fprintf(stderr, "\n  docs: %s's program gives:\n", code);
            print_diagnostics(diagnostics, pool);
        }
        CU_ASSERT_TRUE(ok);
        apr_hash_set(listed, code, APR_HASH_KEY_STRING, code);
    }
    for (int i = 1; i <= 23; i++)
        CU_ASSERT_PTR_NOT_NULL(
            apr_hash_get(listed, apr_psprintf(pool, "E03%02d", i), APR_HASH_KEY_STRING));
    for (int i = 1; i <= 28; i++)
        CU_ASSERT_PTR_NOT_NULL(
            apr_hash_get(listed, apr_psprintf(pool, "E04%02d", i), APR_HASH_KEY_STRING));
    for (int i = 1; i <= 3; i++) /* W0604 needs a manifest: docs/diagnostics.md has it */
        CU_ASSERT_PTR_NOT_NULL(
            apr_hash_get(listed, apr_psprintf(pool, "W06%02d", i), APR_HASH_KEY_STRING));
    CU_ASSERT_EQUAL(apr_hash_count(listed), 54);
    apr_pool_destroy(pool);
}

/* ---- suggestions, notes and warnings --------------------------------------- */

/* The one diagnostic of app: code, message and its one note's line and
 * column (0 when it has none). */
static void assert_noted(const char *app, const char *code, const char *message, uint32_t note_line,
                         uint32_t note_column)
{
    apr_pool_t *pool = pool_for_test();
    source_t sources[] = {{"app", app}};
    spx_diagnostics_t *diagnostics = check_sources(sources, 1, NULL, pool);
    const spx_diagnostic_t *item =
        spx_diagnostics_count(diagnostics) == 1 ? spx_diagnostics_get(diagnostics, 0) : NULL;
    int ok = item && strcmp(item->code, code) == 0 && strcmp(item->message, message) == 0 &&
             (note_line == 0
                  ? item->notes == NULL
                  : item->notes && item->notes->nelts == 1 &&
                        APR_ARRAY_IDX(item->notes, 0, spx_diagnostic_note_t).span.start.line ==
                            note_line &&
                        APR_ARRAY_IDX(item->notes, 0, spx_diagnostic_note_t).span.start.column ==
                            note_column);
    if (!ok) {
        fprintf(stderr, "\n  wanted %s '%s' noted at %u:%u, got:\n", code, message,
                (unsigned)note_line, (unsigned)note_column);
        print_diagnostics(diagnostics, pool);
    }
    CU_ASSERT_TRUE(ok);
    apr_pool_destroy(pool);
}

static void test_suggestions_notes_warnings(void)
{
    assert_noted("fn f(a: int) -> int {\n  let a = 1;\n  return a;\n}\n", "E0307",
                 "'a' is already declared in function 'f'", 1, 6);
    assert_noted("struct P { x: int,\n  x: str }\n", "E0322",
                 "field 'x' is declared twice in struct 'P'", 1, 12);
    assert_noted("fn N() { }\nconst N: int = 1;\n", "E0314",
                 "'N' is already defined in module 'app' (functions, structs and consts share "
                 "one namespace)",
                 1, 4);
    assert_noted("fn f() -> int {\n  if true {\n    return 1;\n  return 0;\n}\n", "E0220",
                 "expected '}', found end of file", 1, 15);
    assert_noted("export fn f() {\n  return;\n  print(\"a\");\n}\n", "W0603",
                 "unreachable statement: it follows a 'return'", 2, 3);
    assert_noted("export fn f(n: int) -> int {\n  if n > 0 { return 1; } else { return 2; }\n"
                 "  return 3;\n}\n",
                 "W0603", "unreachable statement: every path of the 'if' before it leaves", 2, 3);
    assert_noted("export fn f(total: int) -> int { return totl; }\n", "E0308",
                 "unknown name 'totl'; did you mean 'total'?", 0, 0);
    assert_noted("export fn f(a: string) { print(a); }\n", "E0224",
                 "expected a type (int, bool, str, [T] or a struct name), found 'string'; did you "
                 "mean 'str'?",
                 0, 0);
    assert_noted("export fn f(b: boll) { }\n", "E0224",
                 "expected a type (int, bool, str, [T] or a struct name), found 'boll'; did you "
                 "mean 'bool'?",
                 0, 0);
    assert_noted("const LIMIT: int = 1;\nconst B: int = LIMTI;\n", "E0316",
                 "unknown const 'LIMTI' in module 'app'; did you mean 'LIMIT'?", 0, 0);
    assert_noted("export fn f(_unused: int) { for _ in 0..3 { } let x = 1; print(itos(x)); }\n"
                 "export fn g(n: int) { let m = n; }\n",
                 "W0602",
                 "local 'm' is never used (a name starting with '_' says it is on purpose)", 0, 0);
    /* f() where an imported module exports f: m.f is suggested first. */
    {
        apr_pool_t *calls = pool_for_test();
        source_t unqualified[] = {{"app", "import util;\nfn f() -> int { return dubble(1); }\n"
                                          "fn dobble() { }\nfn double() { }\n"},
                                  {"util", "export fn dubble(x: int) -> int { return x; }\n"}};
        spx_diagnostics_t *list = check_sources(unqualified, 2, NULL, calls);
        CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(list), 1);
        CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(list, 0)->message,
                               "unknown function 'dubble' in module 'app'; did you mean "
                               "'util.dubble', 'dobble' or 'double'?");
        source_t unqualified_items[] = {
            {"app", "import geo;\nexport fn f(p: Point) -> int { return ORIGIN; }\n"},
            {"geo", "export struct Point { x: int }\nexport const ORIGIN: int = 0;\n"}};
        list = check_sources(unqualified_items, 2, NULL, calls);
        CU_ASSERT_STRING_EQUAL(spx_diagnostics_text(list, calls),
                               "app.spx:2:16: error[E0319]: unknown struct 'Point' in module "
                               "'app'; did you mean 'geo.Point'?\n"
                               "app.spx:2:39: error[E0308]: unknown name 'ORIGIN'; did you mean "
                               "'geo.ORIGIN'?\n");
        /* Before a '.', an unknown name may be a module misspelt: the
         * imports are suggested; elsewhere a module is no value and is not. */
        source_t misspelt_module[] = {
            {"app", "import geo;\nexport fn f() -> int { let gen = 1; return gep.ORIGIN + "
                    "geo.ORIGIN + gen; }\nexport fn g() -> int { return ge; }\n"},
            {"geo", "export const ORIGIN: int = 0;\n"}};
        list = check_sources(misspelt_module, 2, NULL, calls);
        CU_ASSERT_STRING_EQUAL(spx_diagnostics_text(list, calls),
                               "app.spx:2:44: error[E0308]: unknown name 'gep'; did you mean "
                               "'gen' or 'geo'?\n"
                               "app.spx:3:31: error[E0308]: unknown name 'ge'\n");
        apr_pool_destroy(calls);
    }
    /* An import named only by a const, or only by a type, is used. */
    apr_pool_t *pool = pool_for_test();
    source_t through_const[] = {{"app", "import geo;\nexport const A: int = geo.B;\n"},
                                {"geo", "export const B: int = 1;\n"}};
    CU_ASSERT_STRING_EQUAL(summary_with_paths(check_sources(through_const, 2, NULL, pool), pool),
                           "");
    source_t through_type[] = {{"app", "import geo;\nexport struct S { p: geo.P }\n"},
                               {"geo", "export struct P { x: int }\n"}};
    CU_ASSERT_STRING_EQUAL(summary_with_paths(check_sources(through_type, 2, NULL, pool), pool),
                           "");
    apr_pool_destroy(pool);
    /* the suggestions member: nearest first, at most three */
    pool = pool_for_test();
    source_t sources[] = {{"app", "fn f() -> int { let abce = 1; let abcd = 2; let abc = 3;"
                                  " let abcf = 4; return abcx + abce + abcd + abc + abcf; }\n"}};
    spx_diagnostics_t *diagnostics = check_sources(sources, 1, NULL, pool);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(item->suggestions);
    CU_ASSERT_EQUAL_FATAL(item->suggestions->nelts, 3);
    CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(item->suggestions, 0, const char *), "abc");
    CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(item->suggestions, 1, const char *), "abcd");
    CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(item->suggestions, 2, const char *), "abce");
    CU_ASSERT_STRING_EQUAL(item->message,
                           "unknown name 'abcx'; did you mean 'abc', 'abcd' or 'abce'?");
    CU_ASSERT_STRING_EQUAL(item->plain, "unknown name 'abcx'");
    apr_pool_destroy(pool);
}

/* ---- trees no recursion could walk ----------------------------------------- */

/* A parser may build operator chains and else-if chains by iteration, so
 * their depth has no bound: these trees are built by hand, far deeper than
 * the C stack would allow one frame per level. */
enum { DEEP = 100000 };

static spx_expr_t *int_literal(apr_pool_t *pool)
{
    spx_expr_t *expr = apr_pcalloc(pool, sizeof(*expr));
    expr->kind = SPX_EXPR_INT;
    expr->as.integer = 1;
    return expr;
}

static spx_module_t *module_with(spx_function_t *function, apr_pool_t *pool)
{
    spx_module_t *module = apr_pcalloc(pool, sizeof(*module));
    module->name = "deep";
    module->path = "deep.spx";
    module->functions = apr_pcalloc(pool, sizeof(spx_function_t *));
    module->functions[0] = function;
    module->function_count = 1;
    function->module = module;
    return module;
}

static spx_stmt_t *return_one(apr_pool_t *pool)
{
    spx_stmt_t *stmt = apr_pcalloc(pool, sizeof(*stmt));
    stmt->kind = SPX_STMT_RETURN;
    stmt->as.return_stmt.value = int_literal(pool);
    return stmt;
}

static void test_deep_chains(void)
{
    apr_pool_t *pool = pool_for_test();
    /* fn f() -> int { return -(1 - 1 + 1 ...) - 1 + 1 ...; }: left-deep, through
     * unary operators now and then */
    spx_expr_t *chain = int_literal(pool);
    for (int i = 0; i < DEEP; i++) {
        spx_expr_t *sum = apr_pcalloc(pool, sizeof(*sum));
        sum->kind = SPX_EXPR_BINARY;
        sum->as.binary.op = i % 2 ? SPX_OP_ADD : SPX_OP_SUB;
        sum->as.binary.left = chain;
        sum->as.binary.right = int_literal(pool);
        chain = sum;
        if (i % 7 == 0) {
            spx_expr_t *negated = apr_pcalloc(pool, sizeof(*negated));
            negated->kind = SPX_EXPR_UNARY;
            negated->as.unary.op = SPX_OP_NEG;
            negated->as.unary.operand = chain;
            chain = negated;
        }
    }
    spx_function_t *function = apr_pcalloc(pool, sizeof(*function));
    function->name.text = "f";
    function->result = SPX_TYPE_INT;
    spx_stmt_t *ret = return_one(pool);
    ret->as.return_stmt.value = chain;
    function->body.statements = apr_pcalloc(pool, sizeof(spx_stmt_t *));
    function->body.statements[0] = ret;
    function->body.count = 1;

    /* fn g(c: bool) -> int { if c { return 1; } else if c { ... } else { return 1; } } */
    spx_function_t *chained = apr_pcalloc(pool, sizeof(*chained));
    chained->name.text = "g";
    chained->result = SPX_TYPE_INT;
    chained->params = apr_pcalloc(pool, sizeof(spx_param_t));
    chained->params[0].name.text = "c";
    chained->params[0].type = SPX_TYPE_BOOL;
    chained->param_count = 1;
    spx_stmt_t *first = NULL, *last = NULL;
    for (int i = 0; i < DEEP; i++) {
        spx_stmt_t *stmt = apr_pcalloc(pool, sizeof(*stmt));
        stmt->kind = SPX_STMT_IF;
        spx_expr_t *condition = apr_pcalloc(pool, sizeof(*condition));
        condition->kind = SPX_EXPR_NAME;
        condition->as.name.name.text = "c";
        stmt->as.if_stmt.condition = condition;
        stmt->as.if_stmt.then_block.statements = apr_pcalloc(pool, sizeof(spx_stmt_t *));
        stmt->as.if_stmt.then_block.statements[0] = return_one(pool);
        stmt->as.if_stmt.then_block.count = 1;
        if (last)
            last->as.if_stmt.else_if = stmt;
        else
            first = stmt;
        last = stmt;
    }
    last->as.if_stmt.else_block = apr_pcalloc(pool, sizeof(spx_block_t));
    last->as.if_stmt.else_block->statements = apr_pcalloc(pool, sizeof(spx_stmt_t *));
    last->as.if_stmt.else_block->statements[0] = return_one(pool);
    last->as.if_stmt.else_block->count = 1;
    chained->body.statements = apr_pcalloc(pool, sizeof(spx_stmt_t *));
    chained->body.statements[0] = first;
    chained->body.count = 1;

    spx_module_t *modules[] = {module_with(function, pool), module_with(chained, pool)};
    modules[1]->name = "deeper";
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_check_program(modules, 2, pool, diagnostics);
    if (spx_diagnostics_count(diagnostics) != 0)
        print_diagnostics(diagnostics, pool);
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 0);
    CU_ASSERT_EQUAL(chain->type, SPX_TYPE_INT);
    CU_ASSERT_EQUAL(last->as.if_stmt.condition->as.name.slot, 0);
    CU_ASSERT_EQUAL(last->as.if_stmt.condition->type, SPX_TYPE_BOOL);

    /* Without the final else, the chain does not return on every path. */
    last->as.if_stmt.else_block = NULL;
    diagnostics = spx_diagnostics_make(pool);
    spx_check_program(modules, 2, pool, diagnostics);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(diagnostics, 0)->code, "E0410");
    apr_pool_destroy(pool);
}

/* An import cycle through many modules is one diagnostic, found without
 * recursion. */
static void test_long_import_cycle(void)
{
    apr_pool_t *pool = pool_for_test();
    enum { COUNT = 4096 };
    spx_module_t **modules = apr_pcalloc(pool, COUNT * sizeof(*modules));
    for (int i = 0; i < COUNT; i++) {
        modules[i] = apr_pcalloc(pool, sizeof(spx_module_t));
        modules[i]->name = apr_psprintf(pool, "m%04d", i);
        modules[i]->path = apr_psprintf(pool, "m%04d.spx", i);
        modules[i]->imports = apr_pcalloc(pool, sizeof(spx_import_t));
        modules[i]->imports[0].module.text = apr_psprintf(pool, "m%04d", (i + 1) % COUNT);
        modules[i]->import_count = 1;
    }
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_check_program(modules, COUNT, pool, diagnostics);
    CU_ASSERT_EQUAL_FATAL(spx_diagnostics_count(diagnostics), 1);
    const spx_diagnostic_t *cycle = spx_diagnostics_get(diagnostics, 0);
    CU_ASSERT_STRING_EQUAL(cycle->code, "E0304");
    CU_ASSERT_STRING_EQUAL(cycle->path, "m0000.spx");
    CU_ASSERT_EQUAL(strncmp(cycle->message, "import cycle: m0000 -> m0001 -> m0002", 37), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(cycle->message, "m4095 -> m0000"));
    CU_ASSERT_PTR_EQUAL(modules[COUNT - 1]->imports[0].target, modules[0]);
    apr_pool_destroy(pool);
}

/* A program with a language v2 construct: exactly the expected errors
 * (none for a valid one), no cascade, no crash. The warnings of these small
 * programs (a local set and never read) are not what they test: they are
 * left out here, and tested with the warnings (test_warnings). */
static void expect_v2(const char *app, const char *expected)
{
    apr_pool_t *pool = pool_for_test();
    source_t sources[] = {{"app", app}, {"geo", "export fn one() -> int { return 1; }\n"}};
    spx_diagnostics_t *diagnostics = check_sources(sources, 2, NULL, pool);
    spx_diagnostics_drop_warnings(diagnostics);
    const char *actual = summary_with_paths(diagnostics, pool);
    if (strcmp(actual, expected) != 0) {
        fprintf(stderr, "\n  %.200s  gives:\n", app);
        print_diagnostics(diagnostics, pool);
    }
    CU_ASSERT_STRING_EQUAL(actual, expected);
    apr_pool_destroy(pool);
}

static void test_v2_constructs(void)
{
    expect_v2("struct P { x: int }\n", "");
    expect_v2("export const N: int = 1 << 2;\n", "");
    expect_v2("const N: int = 1;\nconst M: int = 2;\n", "");
    expect_v2("fn f(a: [int]) {}\n", "");
    expect_v2("fn f() -> geo.P { return g(); }\nfn g() -> geo.P { return g(); }\n",
              "app.spx E0310 1:11-1:14\napp.spx E0310 2:11-2:14\n");
    expect_v2("struct P { x: int }\nfn f() -> P { return g(); }\nfn g() -> P { return g(); }\n",
              "");
    expect_v2("fn f() { let a: [[str]] = 1; }\n", "app.spx E0401 1:27-1:28\n");
    expect_v2("fn f() {\n  for i in 0..3 { }\n}\n", "");
    expect_v2("fn f() { while true { break; continue; } }\n", "");
    expect_v2("fn f() { var a = 1; a[0].x = 2; }\n", "app.spx E0417 1:21-1:22\n");
    expect_v2("fn f() { var a = [1]; a[0] = 2; }\n", "");
    expect_v2("fn f() -> int { let s = \"ab\"; return s[0] + len(s[0..1]); }\n", "");
    expect_v2("fn f() -> int { return 1 & 2 | ~3 ^ 4 >> 1; }\n", "");
    expect_v2("import geo;\nfn f() -> int { return geo.N + geo.one(); }\n",
              "app.spx E0316 2:28-2:29\n");
    expect_v2("struct P { x: int }\nfn f() { let a = [1, 2]; let p = P { x: 1 }; }\n", "");
    expect_v2("fn f() { var xs = 1; xs.push(1); g().pop(); }\nfn g() -> int { return 1; }\n",
              "app.spx E0420 1:25-1:29\napp.spx E0421 1:34-1:37\n");
    /* Builtins and names that only v2 has. */
    expect_v2("const N: int = 1;\nfn f() -> int { return N + 1; }\n", "");
    expect_v2("fn f() { assert(true, \"m\"); print(chr(65)); let n = stoi(\"1\") + 1; }\n", "");
    expect_v2("fn f() -> str { return chr(65); }\nfn g() -> int { return stoi(\"1\"); }\n", "");
    /* v1's diagnostics are unchanged. */
    expect_v2("fn f() -> int { return nope + assert(1, 2, 3); }\n",
              "app.spx E0308 1:24-1:28\napp.spx E0402 1:31-1:46\napp.spx E0403 1:31-1:46\n");
}

/* The rules of language v2: each error once, at its exact span. */
static void test_v2_rules(void)
{
    /* Bitwise operators take int. */
    expect_v2("fn f() -> int { return 1 & \"a\"; }\n", "app.spx E0405 1:26-1:27\n");
    expect_v2("fn f() -> int { return ~true | 1; }\n", "app.spx E0405 1:24-1:25\n");
    expect_v2("fn f() -> bool { return 1 << 2 == 4 && (3 ^ 1) != 0; }\n", "");
    expect_v2("fn f() -> int { return (1 >> true) + 1; }\n", "app.spx E0405 1:27-1:29\n");
    expect_v2("fn f() -> bool { return 1 | 2; }\n", "app.spx E0407 1:25-1:30\n");
    /* break and continue only inside a loop (a for or while body). */
    expect_v2("fn f() { break; }\n", "app.spx E0313 1:10-1:15\n");
    expect_v2("fn f() { if true { continue; } }\n", "app.spx E0313 1:20-1:28\n");
    expect_v2("fn f() { while true { } break; }\n", "app.spx E0313 1:25-1:30\n");
    expect_v2("fn f() { for i in 0..2 { while true { } continue; } }\n", "");
    /* for over a range: int bounds, an immutable int variable scoped to the body. */
    expect_v2("fn f() { for i in 0..\"a\" { } }\n", "app.spx E0412 1:22-1:25\n");
    expect_v2("fn f() { for i in true..g() { } }\nfn g() {}\n",
              "app.spx E0412 1:19-1:23\napp.spx E0402 1:25-1:28\n");
    expect_v2("fn f() { for i in 0..3 { i = 1; } }\n", "app.spx E0312 1:26-1:27\n");
    expect_v2("fn f() -> str { for i in 0..3 { return i; } return \"\"; }\n",
              "app.spx E0407 1:40-1:41\n");
    expect_v2("fn f() { for i in 0..3 { } let j = i; }\n", "app.spx E0308 1:36-1:37\n");
    expect_v2("fn f() -> int { for i in 0..3 { return i; } }\n", "app.spx E0410 1:4-1:5\n");
    expect_v2("fn f() -> int { var s = 0; for i in s..s + 3 { s = s + i; } return s; }\n", "");
    /* Scope: a for variable may not shadow a visible name; two loops one after
     * the other, or a let after the loop, may reuse it. */
    expect_v2("fn f(i: int) { for i in 0..3 { } }\n", "app.spx E0307 1:20-1:21\n");
    expect_v2("fn f() { let i = 0; for i in 0..3 { } }\n", "app.spx E0307 1:25-1:26\n");
    expect_v2("fn f() { for i in 0..3 { for i in 0..3 { } } }\n", "app.spx E0307 1:30-1:31\n");
    expect_v2("fn f() { for i in 0..3 { let i = 1; } }\n", "app.spx E0307 1:30-1:31\n");
    expect_v2("fn f() { for i in 0..3 { } for i in 0..3 { } let i = 1; }\n", "");
    /* for over something that is not an array. */
    expect_v2("fn f() { for x in 3 { } }\n", "app.spx E0413 1:19-1:20\n");
    expect_v2("fn f() { for x in g() { } }\nfn g() {}\n", "app.spx E0402 1:19-1:22\n");
    expect_v2("fn f() { for x in nope { x(); } }\n",
              "app.spx E0308 1:19-1:23\napp.spx E0309 1:26-1:27\n");
    /* chr, stoi and assert with a message are builtins with fixed signatures. */
    expect_v2("fn f() -> int { return chr(\"a\"); }\n",
              "app.spx E0407 1:24-1:32\napp.spx E0404 1:28-1:31\n");
    expect_v2("fn f() -> int { return stoi(1, 2); }\n", "app.spx E0403 1:24-1:34\n");
    expect_v2("fn f() { assert(true, 1); }\n", "app.spx E0404 1:23-1:24\n");
    expect_v2("fn f() { assert(1, \"m\"); }\n", "app.spx E0404 1:17-1:18\n");
    expect_v2("fn f() { assert(true, \"m\", 1); }\n", "app.spx E0403 1:10-1:30\n");
    expect_v2("fn chr() {}\nfn stoi() {}\n", "app.spx E0306 1:4-1:7\napp.spx E0306 2:4-2:8\n");
}

/* Consts: one namespace with functions and structs, int/bool/str only,
 * evaluated at check time with failures at the operator, cycles once. */
static void expect_program(const source_t *sources, apr_size_t count, const char *expected)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *diagnostics = check_sources(sources, count, NULL, pool);
    const char *actual = summary_with_paths(diagnostics, pool);
    if (strcmp(actual, expected) != 0) {
        fprintf(stderr, "\n  %s  gives:\n", sources[0].text);
        print_diagnostics(diagnostics, pool);
    }
    CU_ASSERT_STRING_EQUAL(actual, expected);
    apr_pool_destroy(pool);
}

static void test_v2_consts(void)
{
    /* Values and failures at the operator. */
    expect_v2("const A: int = 0x7fff_ffff_ffff_ffff;\nconst B: int = A + 1;\n",
              "app.spx E0415 2:18-2:19\n");
    expect_v2("const A: int = 1 << 63;\n", "app.spx E0415 1:18-1:20\n");
    expect_v2("const A: int = -1 << 63;\nconst B: int = A >> 64;\n", "app.spx E0415 2:18-2:20\n");
    expect_v2("const A: int = 1 << -1;\n", "app.spx E0415 1:18-1:20\n");
    expect_v2("const A: int = 7 / (3 - 3);\n", "app.spx E0415 1:18-1:19\n");
    expect_v2("const A: int = -(-9223372036854775807 - 1) * 2;\n", "app.spx E0415 1:16-1:17\n");
    expect_v2("const A: int = (-9223372036854775807 - 1) / -1;\n", "app.spx E0415 1:43-1:44\n");
    expect_v2("const A: int = (-9223372036854775807 - 1) % -1 + 3037000500 * 3037000500;\n",
              "app.spx E0415 1:61-1:62\n");
    /* && and || short-circuit: what is not evaluated does not fail, but is typed. */
    expect_v2("const A: bool = false && 1 / 0 == 0;\nconst B: bool = true || 1 << 99 > 0;\n", "");
    expect_v2("const A: bool = false && (1 + \"a\") == 0;\n", "app.spx E0405 1:29-1:30\n");
    expect_v2("const A: bool = true && 1 / 0 == 0;\n", "app.spx E0415 1:27-1:28\n");
    /* Types: the declared one, and int/bool/str only. */
    expect_v2("const A: str = 1 + 2;\n", "app.spx E0401 1:16-1:21\n");
    expect_v2("const A: bool = !1;\n", "app.spx E0405 1:17-1:18\n");
    expect_v2("const A: [int] = 1;\n", "app.spx E0414 1:10-1:15\n");
    expect_v2("const A: int = B;\nconst B: [int] = 1;\n", "app.spx E0414 2:10-2:15\n");
    /* What a const expression may not hold. */
    expect_v2("const A: int = len(\"ab\");\n", "app.spx E0416 1:16-1:25\n");
    expect_v2("const A: int = \"ab\"[0];\n", "app.spx E0416 1:16-1:23\n");
    expect_v2("const A: int = B;\n", "app.spx E0316 1:16-1:17\n");
    expect_v2("fn B() -> int { return 1; }\nconst A: int = B;\n", "app.spx E0316 2:16-2:17\n");
    /* str consts: at most 64 KiB, checked at the operator that makes more. */
    expect_v2("const A: str = \"ab\" + \"c\";\nconst B: bool = A == \"abc\" && len(A) == 3;\n",
              "app.spx E0416 2:31-2:37\n");
    {
        apr_pool_t *pool = pool_for_test();
        char *big = apr_palloc(pool, 40000);
        memset(big, 'x', 39999);
        big[39999] = 0;
        const char *app =
            apr_psprintf(pool, "const A: str = \"%s\";\nconst B: str = A + A;\n", big);
        expect_v2(app, "app.spx E0415 2:18-2:19\n");
        const char *ok =
            apr_psprintf(pool, "const A: str = \"%s\";\nconst B: str = A + \"\" + A[0..0];\n", big);
        expect_v2(ok, "app.spx E0416 2:25-2:32\n");
        apr_pool_destroy(pool);
    }
    /* Cycles: once, from the smallest MOD.NAME, at its reference to the next. */
    expect_v2("const C: int = A;\nconst B: int = C + 1;\nconst A: int = 1 + B;\n",
              "app.spx E0315 3:20-3:21\n");
    expect_v2("const A: int = A;\n", "app.spx E0315 1:16-1:17\n");
    expect_v2("const A: int = B + B;\nconst B: int = A;\nconst D: int = B;\n",
              "app.spx E0315 1:16-1:17\n");
    /* One namespace for functions, structs and consts; locals may not take a
     * const's or a struct's name (they may take a function's or a module's). */
    expect_v2("fn A() {}\nconst A: int = 1;\n", "app.spx E0314 2:7-2:8\n");
    expect_v2("const A: int = 1;\nconst A: int = 2;\n", "app.spx E0314 2:7-2:8\n");
    expect_v2("fn f() { let N = 1; }\nconst N: int = 2;\n", "app.spx E0318 1:14-1:15\n");
    expect_v2("fn f(N: int) { for N in 0..1 { } }\nconst N: int = 2;\n",
              "app.spx E0318 1:6-1:7\napp.spx E0318 1:20-1:21\n");
    expect_v2(
        "import geo;\nfn f() { let one = one(); let geo = 1; }\nfn one() -> int { return 1; }\n",
        "");
    /* Across modules: exported consts only. */
    source_t across[] = {{"app", "import geo;\nconst A: int = geo.B * 2;\n"
                                 "fn f() -> int { return geo.C; }\n"},
                         {"geo", "export const B: int = C + 1;\nconst C: int = 2;\n"}};
    expect_program(across, 2, "app.spx E0317 3:28-3:29\n");
    source_t loop[] = {{"app", "import geo;\nexport const A: int = geo.B;\n"},
                       {"geo", "import app;\nexport const B: int = app.A;\n"}};
    expect_program(loop, 2, "app.spx E0304 1:8-1:11\napp.spx E0315 2:23-2:28\n");
}

/* Struct declarations and the types that name structs. */
static void test_v2_structs(void)
{
    /* A valid struct is checked and admitted. */
    expect_v2("struct P { x: int }\nstruct Q { p: P, ps: [P] }\n", "");
    expect_v2("const N: int = 1;\nstruct P { x: int }\n", "");
    expect_v2("struct P { x: int }\nconst N: int = 1;\n", "");
    expect_v2("struct p { x: int }\n", "app.spx E0230 1:8-1:9\n");
    /* Fields: unique, of visible types. */
    expect_v2("struct P { x: int, y: str, x: bool }\n", "app.spx E0322 1:28-1:29\n");
    expect_v2("struct P { x: Q }\n", "app.spx E0319 1:15-1:16\n");
    expect_v2("struct P { x: [[geo.Q]] }\n", "app.spx E0310 1:17-1:20\n");
    expect_v2("import geo;\nstruct P { x: geo.Q }\n", "app.spx E0319 2:19-2:20\n");
    /* Containment by value, directly or through other structs; not through arrays. */
    expect_v2("struct A { a: A }\n", "app.spx E0323 1:15-1:16\n");
    expect_v2("struct C { a: A }\nstruct B { c: C, n: int }\nstruct A { x: int, b: B }\n",
              "app.spx E0323 3:23-3:24\n");
    expect_v2("struct Node { kids: [Node], parent: [Node] }\n", "");
    expect_v2("struct A { b: B }\nstruct B { a: A }\nstruct C { a: A }\n",
              "app.spx E0323 1:15-1:16\n");
    source_t across[] = {{"app", "import geo;\nexport struct B { p: geo.P }\n"},
                         {"geo", "import app;\nexport struct P { b: app.B }\n"}};
    expect_program(across, 2, "app.spx E0304 1:8-1:11\napp.spx E0323 2:22-2:27\n");
    /* Exports: another module's struct must be exported; an exported
     * function's signature and an exported struct's fields name only
     * exported structs. */
    source_t hidden[] = {{"app", "import geo;\nfn f(p: geo.P) {}\nstruct S { q: [geo.P] }\n"},
                         {"geo", "struct P { x: int }\n"}};
    expect_program(hidden, 2, "app.spx E0320 2:13-2:14\napp.spx E0320 3:20-3:21\n");
    expect_v2("struct P { x: int }\nexport fn f(p: [P]) -> P { return p[0]; }\n",
              "app.spx E0321 2:17-2:18\napp.spx E0321 2:24-2:25\n");
    expect_v2("struct P { x: int }\nexport struct Q { p: P }\nfn g(p: P) {}\n",
              "app.spx E0321 2:22-2:23\n");
    expect_v2("export struct P { x: int }\nexport fn f(p: P) {}\n", "");
    expect_v2("fn f() { let x: [Nope] = 1; }\n", "app.spx E0319 1:18-1:22\n");
    expect_v2("struct P { x: int }\nfn f() { let P = 1; }\n", "app.spx E0318 2:14-2:15\n");
}

/* The values consts get at check time, and what uses of them resolve to. */
static void test_v2_const_values(void)
{
    apr_pool_t *pool = pool_for_test();
    source_t sources[] = {{"app",
                           "import geo;\n"
                           "const A: int = (1 + 2) * -3 - (10 >> 1 << 2) + ~0 + 7 % -4 + -7 / 2;\n"
                           "const B: bool = !(A > 0) && geo.S + \"!\" == \"hi!\" || 1 / 0 == 0;\n"
                           "const C: str = geo.S + \"\\u{e9}\" + \"\";\n"
                           "const D: int = -1 << 63;\n"
                           "const E: int = D >> 1 ^ 0x7FFF_FFFF_FFFF_FFFF & 5 | 8;\n"
                           "fn f() -> int { return A + geo.N; }\n"},
                          {"geo", "export const S: str = \"hi\";\nexport const N: int = 0x10;\n"}};
    spx_module_t **modules = NULL;
    spx_diagnostics_t *diagnostics = check_sources(sources, 2, &modules, pool);
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 0);
    spx_const_t **c = modules[0]->consts;
    CU_ASSERT_EQUAL_FATAL(modules[0]->const_count, 5);
    /* -9 - 20 - 1 + 3 + -3 */
    CU_ASSERT_EQUAL(c[0]->value_type, SPX_TYPE_INT);
    CU_ASSERT_EQUAL(c[0]->integer, -30);
    CU_ASSERT_EQUAL(c[1]->value_type, SPX_TYPE_BOOL);
    CU_ASSERT_EQUAL(c[1]->boolean, 1);
    CU_ASSERT_EQUAL(c[2]->value_type, SPX_TYPE_STR);
    CU_ASSERT_EQUAL(c[2]->length, 4);
    CU_ASSERT_EQUAL(memcmp(c[2]->bytes, "hi\xc3\xa9", 4), 0);
    CU_ASSERT_EQUAL(c[3]->integer, INT64_MIN);
    /* ((MIN >> 1) ^ (MAX & 5)) | 8 = -2^62 ^ 13 */
    CU_ASSERT_EQUAL(c[4]->integer, (-(INT64_C(1) << 62)) ^ 13);
    CU_ASSERT_EQUAL(modules[1]->consts[1]->integer, 16);
    /* uses in f: A by name, geo.N as a field of a module */
    spx_expr_t *sum = modules[0]->functions[0]->body.statements[0]->as.return_stmt.value;
    CU_ASSERT_EQUAL(sum->type, SPX_TYPE_INT);
    CU_ASSERT_PTR_EQUAL(sum->as.binary.left->as.name.constant, c[0]);
    CU_ASSERT_EQUAL(sum->as.binary.left->as.name.slot, -1);
    CU_ASSERT_PTR_EQUAL(sum->as.binary.right->as.field.constant, modules[1]->consts[1]);
    apr_pool_destroy(pool);
}

/* A chain of consts as long as a module may be is evaluated without
 * recursion, and a long chain of "+" on strs costs its length, not its
 * square: the one over 64 KiB fails at the "+" that makes it. */
static void test_v2_long_consts(void)
{
    apr_pool_t *pool = pool_for_test();
    enum { CHAIN = 20000, TERMS = 70000 };
    apr_array_header_t *parts = apr_array_make(pool, CHAIN + 1, sizeof(const char *));
    for (int i = 0; i < CHAIN - 1; i++)
        APR_ARRAY_PUSH(parts, const char *) =
            apr_psprintf(pool, "const C%d: int = C%d + 1;\n", i, i + 1);
    APR_ARRAY_PUSH(parts, const char *) = apr_psprintf(pool, "const C%d: int = 1;\n", CHAIN - 1);
    const char *chain = apr_array_pstrcat(pool, parts, 0);
    expect_v2(chain, "");
    /* the same chain closed into a cycle: one diagnostic */
    parts->nelts--;
    APR_ARRAY_PUSH(parts, const char *) = apr_psprintf(pool, "const C%d: int = C0;\n", CHAIN - 1);
    source_t closed[] = {{"app", apr_array_pstrcat(pool, parts, 0)}};
    spx_diagnostics_t *diagnostics = check_sources(closed, 1, NULL, pool);
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 1);
    if (spx_diagnostics_count(diagnostics) == 1) {
        CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(diagnostics, 0)->code, "E0315");
        CU_ASSERT_EQUAL(strncmp(spx_diagnostics_get(diagnostics, 0)->message,
                                "const cycle: app.C0 -> app.C1 -> app.C2 -> ", 43),
                        0);
    }
    parts = apr_array_make(pool, TERMS + 2, sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = "const S: str = \"a\"";
    for (int i = 1; i < TERMS; i++)
        APR_ARRAY_PUSH(parts, const char *) = " + \"a\"";
    APR_ARRAY_PUSH(parts, const char *) = ";\n";
    const char *terms = apr_array_pstrcat(pool, parts, 0);
    /* the "+" that makes byte 65537 is the 65536th: the k-th is at column
     * 20 + 6 (k - 1) */
    expect_v2(terms,
              apr_psprintf(pool, "app.spx E0415 1:%d-1:%d\n", 20 + 6 * 65535, 21 + 6 * 65535));
    apr_pool_destroy(pool);
}

/* Index, slice, fields, methods and places on the types the checker knows. */
static void test_v2_values(void)
{
    /* A str is indexed (int) and sliced (str) by ints. */
    expect_v2("fn f(s: str) -> bool { return s[0] == 97 && s[1..len(s)] == \"b\"; }\n", "");
    expect_v2("fn f(s: str) -> str { return s[0]; }\n", "app.spx E0407 1:30-1:34\n");
    expect_v2("fn f(s: str) -> int { return s[\"0\"]; }\n", "app.spx E0418 1:32-1:35\n");
    expect_v2("fn f(s: str) -> str { return s[0..true]; }\n", "app.spx E0418 1:35-1:39\n");
    expect_v2("fn f(s: str) -> str { return s[g()..1]; }\nfn g() {}\n",
              "app.spx E0402 1:32-1:35\n");
    /* Nothing else can be indexed or sliced, or has fields (struct values
     * are not typed yet). */
    expect_v2("fn f(n: int) -> int { return n[0]; }\n", "app.spx E0417 1:30-1:31\n");
    expect_v2("fn f(b: bool) -> bool { return b[0..1] == b; }\n", "app.spx E0417 1:32-1:33\n");
    expect_v2("fn f() -> int { return g()[0]; }\nfn g() {}\n", "app.spx E0402 1:24-1:27\n");
    expect_v2("fn f(s: str) -> int { return s.len; }\n", "app.spx E0419 1:32-1:35\n");
    expect_v2("fn f() -> int { return nope.x; }\n", "app.spx E0308 1:24-1:28\n");
    expect_v2("fn f() -> int { return geo.x; }\n", "app.spx E0310 1:24-1:27\n");
    /* Methods: push and pop, of arrays, on a var or a part of one. */
    expect_v2("fn f(s: str) { s.push(1); }\n", "app.spx E0420 1:18-1:22\n");
    expect_v2("fn f() { var a = [1]; a.shuffle(); }\n", "app.spx E0420 1:25-1:32\n");
    expect_v2("fn f() { [1].pop(); }\n", "app.spx E0421 1:10-1:13\n");
    expect_v2("fn f(s: str) { s[0].pop(); }\n", "app.spx E0420 1:21-1:24\n");
    /* Places: rooted at a var, never through a str. */
    expect_v2("fn f() { var s = \"ab\"; s[0] = 98; }\n", "app.spx E0422 1:24-1:28\n");
    expect_v2("fn f(s: str) { s[0] = 98; }\n", "app.spx E0422 1:16-1:20\n");
    expect_v2("fn f() { let n = 1; n.x = 2; }\n", "app.spx E0419 1:23-1:24\n");
    expect_v2("fn f() { var s = \"ab\"; s[\"i\"] = 98; }\n",
              "app.spx E0422 1:24-1:30\napp.spx E0418 1:26-1:29\n");
    expect_v2("fn f() { nope[0] = 1; }\n", "app.spx E0308 1:10-1:14\n");
}

/* Expected types for array literals: "[]" needs one, "[[], [1]]" takes its
 * element type from [1]. A valid literal is typed. */
static void test_v2_array_literals(void)
{
    expect_v2("fn f() { let xs = []; }\n", "app.spx E0423 1:19-1:21\n");
    expect_v2("fn f() -> int { return len([]); }\n", "app.spx E0423 1:28-1:30\n");
    expect_v2("fn f() { for x in [] { } }\n", "app.spx E0423 1:19-1:21\n");
    expect_v2("fn f() { let xs = [[], [[]]]; }\n", "app.spx E0423 1:19-1:29\n");
    expect_v2("fn f() -> bool { return [] == [1]; }\n", "app.spx E0423 1:25-1:27\n");
    /* An element that types gives the literal its type; an expected type
     * flows into annotated lets, assignments, arguments, push, return and
     * the right of == and != */
    expect_v2("fn f() { let xs = [[], [1]]; }\n", "");
    expect_v2("fn f() -> bool { let n = 1; return n == []; }\n", "app.spx E0423 1:41-1:43\n");
    expect_v2("fn f() { let xs: [int] = []; }\n", "");
    expect_v2("fn f(n: int) { var x = n; x = []; g([]); }\nfn g(n: int) {}\n",
              "app.spx E0423 1:31-1:33\napp.spx E0423 1:37-1:39\n");
    expect_v2("fn f() -> int { return []; }\n", "app.spx E0423 1:24-1:26\n");
    expect_v2("fn f() { print([]); itos([]); }\n",
              "app.spx E0423 1:16-1:18\napp.spx E0423 1:26-1:28\n");
    /* Elements are checked; nested literals are one literal. */
    expect_v2("fn f() { let xs = [[nope], [g()]]; }\nfn g() {}\n",
              "app.spx E0308 1:21-1:25\napp.spx E0402 1:29-1:32\n");
}

/* Struct literals: a visible struct, each field exactly once. */
static void test_v2_struct_literals(void)
{
    expect_v2("struct P { x: int, y: str }\nfn f() { let p = P { y: \"a\", x: 1 }; }\n", "");
    expect_v2("struct P { x: int, y: str }\nfn f() { let p = P { x: 1 }; }\n",
              "app.spx E0426 2:18-2:19\n");
    expect_v2("struct P { x: int, y: str }\nfn f() { let p = P { x: 1, y: \"\", x: 2 }; }\n",
              "app.spx E0425 2:35-2:36\n");
    expect_v2("struct P { x: int, y: str }\nfn f() { let p = P { x: 1, y: \"\", z: 2 }; }\n",
              "app.spx E0424 2:35-2:36\n");
    expect_v2("fn f() { let p = P { x: nope }; }\n",
              "app.spx E0319 1:18-1:19\napp.spx E0308 1:25-1:29\n");
    expect_v2("struct P { x: [int] }\nfn f() { let p = P { x: [] }; }\n", "");
    expect_v2("struct P { x: int }\nfn f() { let p = P { x: g() }; }\nfn g() {}\n",
              "app.spx E0402 2:25-2:28\n");
    source_t across[] = {
        {"app", "import geo;\nfn f() { let p = geo.P { x: 1 }; let q = geo.Q { x: 1 }; }\n"},
        {"geo", "export struct P { x: int }\nstruct Q { x: int }\n"}};
    expect_program(across, 2, "app.spx E0320 2:46-2:47\n");
    source_t names[] = {{"app", "struct P { x: int, y: str, z: bool }\n"
                                "fn f() { let p = P { w: 1, x: 1, y: \"\", z: true }; }\n"}};
    assert_message(
        names, 1, "E0424",
        "struct 'P' has no field 'w' (its fields: x, y, z); did you mean 'x', 'y' or 'z'?");
    source_t lacks[] = {{"app", "struct P { x: int, y: str, z: bool }\n"
                                "fn f() { let p = P { y: \"\" }; }\n"}};
    assert_message(lacks, 1, "E0426", "struct literal of 'P' lacks fields 'x', 'z'");
    source_t twice[] = {{"app", "struct P { x: int }\nfn f() { let p = P { x: 1, x: 1 }; }\n"}};
    assert_message(twice, 1, "E0425", "field 'x' is given twice");
}

static void test_v2_messages(void)
{
    source_t chr[] = {{"app", "fn chr(c: int) -> str { return itos(c); }\n"}};
    assert_message(chr, 1, "E0306", "'chr' is a builtin since language v2 and cannot be defined");
    source_t jump[] = {{"app", "fn f() { continue; }\n"}};
    assert_message(jump, 1, "E0313",
                   "'continue' outside a loop: it must be inside a 'for' or 'while' body");
    source_t bound[] = {{"app", "fn f() { for i in 0..\"a\" { } }\n"}};
    assert_message(bound, 1, "E0412", "a range bound must be 'int', not 'str'");
    source_t over[] = {{"app", "fn f() { for x in true { } }\n"}};
    assert_message(over, 1, "E0413", "'for x in' needs an array or a range 'a..b', not 'bool'");
    source_t immutable[] = {{"app", "fn f() { for i in 0..1 { i = 2; } }\n"}};
    assert_message(immutable, 1, "E0312", "cannot assign to 'i': it is a for variable");
    source_t bits[] = {{"app", "fn f() -> int { return 1 << \"a\"; }\n"}};
    assert_message(bits, 1, "E0405", "operator '<<' cannot take 'int' and 'str'");
    source_t cycle[] = {{"app", "const B: int = A;\nconst A: int = B;\n"}};
    assert_message(cycle, 1, "E0315", "const cycle: app.A -> app.B -> app.A");
    source_t twice[] = {{"app", "fn N() {}\nconst N: int = 1;\n"}};
    assert_message(twice, 1, "E0314",
                   "'N' is already defined in module 'app' (functions, structs and consts share "
                   "one namespace)");
    source_t local[] = {{"app", "const N: int = 1;\nfn f() { var N = 2; }\n"}};
    assert_message(local, 1, "E0318",
                   "'N' is a const of module 'app'; a local cannot take its name");
    source_t shift[] = {{"app", "const N: int = 1 << 64;\n"}};
    assert_message(shift, 1, "E0415", "shift count 64 out of range 0..63");
    source_t overflow[] = {{"app", "const N: int = 1 << 63;\n"}};
    assert_message(overflow, 1, "E0415", "integer overflow: 1 << 63");
    source_t zero[] = {{"app", "const N: int = 1 / 0;\n"}};
    assert_message(zero, 1, "E0415", "division by zero: 1 / 0");
    source_t typed[] = {{"app", "const N: [int] = 1;\n"}};
    assert_message(typed, 1, "E0414", "const 'N' must have type 'int', 'bool' or 'str'");
    source_t call[] = {{"app", "const N: str = itos(1);\n"}};
    assert_message(call, 1, "E0416",
                   "a const expression cannot hold a call: only literals, consts, parentheses and "
                   "operators");
    source_t hidden[] = {{"app", "import geo;\nconst N: int = geo.M;\n"},
                         {"geo", "const M: int = 1;\n"}};
    assert_message(hidden, 2, "E0317", "const 'M' of module 'geo' is not exported");
    source_t containing[] = {{"app", "struct B { a: A }\nstruct A { b: B }\n"}};
    assert_message(containing, 1, "E0323", "struct contains itself: app.A -> app.B -> app.A");
    source_t unknown[] = {{"app", "struct B { a: A }\n"}};
    assert_message(unknown, 1, "E0319", "unknown struct 'A' in module 'app'; did you mean 'B'?");
    source_t twice_field[] = {{"app", "struct B { a: int, a: int }\n"}};
    assert_message(twice_field, 1, "E0322", "field 'a' is declared twice in struct 'B'");
    source_t mention[] = {{"app", "struct P { x: int }\nexport struct Q { p: [P] }\n"}};
    assert_message(
        mention, 1, "E0321",
        "struct 'Q' is exported, so it cannot mention struct 'P', which is not exported");
    source_t foreign[] = {{"app", "import geo;\nstruct Q { p: geo.P }\n"},
                          {"geo", "struct P { x: int }\n"}};
    assert_message(foreign, 2, "E0320", "struct 'P' of module 'geo' is not exported");
    source_t indexed[] = {{"app", "fn f(n: int) -> int { return n[0]; }\n"}};
    assert_message(indexed, 1, "E0417",
                   "a value of type 'int' cannot be indexed: only str and arrays can");
    source_t index_bound[] = {{"app", "fn f(s: str) -> int { return s[true]; }\n"}};
    assert_message(index_bound, 1, "E0418", "an index must be 'int', not 'bool'");
    source_t field[] = {{"app", "fn f(s: str) -> int { return s.n; }\n"}};
    assert_message(field, 1, "E0419", "a value of type 'str' has no fields (no 'n')");
    source_t method[] = {{"app", "fn f(s: str) { s.push(\"a\"); }\n"}};
    assert_message(method, 1, "E0420", "'push' is a method of arrays, not of 'str'");
    source_t through[] = {{"app", "fn f() { var s = \"a\"; s[0] = 1; }\n"}};
    assert_message(through, 1, "E0422",
                   "a str cannot be assigned through: its bytes are read with s[i], never written");
    source_t length[] = {{"app", "fn f() -> int { return len(1); }\n"}};
    assert_message(length, 1, "E0404", "argument 1 of 'len' must be 'str' or an array, not 'int'");
}

/* The checker's value types: made once each, named as messages name them. */
static void test_v2_types(void)
{
    apr_pool_t *pool = pool_for_test();
    spx_types_t *types = spx_types_make(pool);
    spx_module_t geo_module;
    memset(&geo_module, 0, sizeof(geo_module));
    geo_module.name = "geo";
    spx_struct_t point, line;
    memset(&point, 0, sizeof(point));
    memset(&line, 0, sizeof(line));
    point.name.text = "Point";
    point.module = &geo_module;
    line.name.text = "Point"; /* same name, another declaration: another type */
    line.module = &geo_module;
    const spx_vtype_t *integer = spx_types_basic(types, SPX_TYPE_INT);
    CU_ASSERT_PTR_EQUAL(integer, spx_types_basic(types, SPX_TYPE_INT));
    CU_ASSERT_PTR_NOT_EQUAL(integer, spx_types_basic(types, SPX_TYPE_STR));
    CU_ASSERT_EQUAL(spx_types_basic(types, SPX_TYPE_ARRAY)->kind, SPX_TYPE_ERROR);
    const spx_vtype_t *ints = spx_types_array(types, integer);
    CU_ASSERT_EQUAL(ints->kind, SPX_TYPE_ARRAY);
    CU_ASSERT_PTR_EQUAL(ints->element, integer);
    CU_ASSERT_PTR_EQUAL(ints, spx_types_array(types, spx_types_basic(types, SPX_TYPE_INT)));
    CU_ASSERT_PTR_NOT_EQUAL(ints, spx_types_array(types, spx_types_basic(types, SPX_TYPE_BOOL)));
    const spx_vtype_t *nested = spx_types_array(types, ints);
    CU_ASSERT_PTR_EQUAL(nested, spx_types_array(types, spx_types_array(types, integer)));
    CU_ASSERT_PTR_NOT_EQUAL(nested, ints);
    const spx_vtype_t *p = spx_types_struct(types, &point);
    CU_ASSERT_EQUAL(p->kind, SPX_TYPE_STRUCT);
    CU_ASSERT_PTR_EQUAL(p->structure, &point);
    CU_ASSERT_PTR_EQUAL(p, spx_types_struct(types, &point));
    CU_ASSERT_PTR_NOT_EQUAL(p, spx_types_struct(types, &line));
    CU_ASSERT_PTR_EQUAL(spx_types_array(types, p), spx_types_array(types, p));
    CU_ASSERT_STRING_EQUAL(spx_vtype_name(integer, pool), "int");
    CU_ASSERT_STRING_EQUAL(spx_vtype_name(spx_types_basic(types, SPX_TYPE_UNIT), pool), "unit");
    CU_ASSERT_STRING_EQUAL(spx_vtype_name(ints, pool), "[int]");
    CU_ASSERT_STRING_EQUAL(spx_vtype_name(nested, pool), "[[int]]");
    CU_ASSERT_STRING_EQUAL(spx_vtype_name(p, pool), "geo.Point");
    CU_ASSERT_STRING_EQUAL(spx_vtype_name(spx_types_array(types, spx_types_array(types, p)), pool),
                           "[[geo.Point]]");
    apr_pool_destroy(pool);
}

/* Values of array and struct types: parameters, results and annotated
 * lets are typed; their uses are checked with the whole type, and messages
 * name it ("[int]", "geo.Point"). */
static void test_v2_typed_values(void)
{
    /* valid */
    expect_v2("fn f(a: [[int]]) -> int { return a[0][1]; }\n", "");
    expect_v2("fn f(a: [int]) -> [int] { return a[0..1]; }\n", "");
    expect_v2("fn f(a: [str]) -> int { return len(a); }\n", "");
    expect_v2("fn f(a: [int], b: [int]) -> bool { return a == b; }\n", "");
    expect_v2("fn f(a: [str]) { for x in a { print(x); } }\n", "");
    expect_v2("fn f(a: [int]) { g(a); var b = a; b = a; }\nfn g(b: [int]) {}\n", "");
    expect_v2("fn f() -> [bool] { return g(); }\nfn g() -> [bool] { return f(); }\n", "");
    /* wrong: exact spans, no gate */
    expect_v2("fn f(a: [int]) -> int { return a; }\n", "app.spx E0407 1:32-1:33\n");
    expect_v2("fn f() -> [int] { }\n", "app.spx E0410 1:4-1:5\n");
    expect_v2("fn f(a: [int]) -> str { return a[0]; }\n", "app.spx E0407 1:32-1:36\n");
    expect_v2("fn f(a: [[int]]) -> [int] { return a[0][1]; }\n", "app.spx E0407 1:36-1:43\n");

    source_t result[] = {{"app", "fn f(a: [int]) -> int { return a; }\n"}};
    assert_message(result, 1, "E0407", "'f' must return 'int', not '[int]'");
    source_t empty[] = {{"app", "fn f() -> [int] { return; }\n"}};
    assert_message(empty, 1, "E0408", "'f' must return a value of type '[int]'");
    source_t point[] = {{"app", "import geo;\nfn f(p: geo.Point) -> int { return p; }\n"},
                        {"geo", "export struct Point { x: int }\n"}};
    assert_message(point, 2, "E0407", "'f' must return 'int', not 'geo.Point'");
    source_t points[] = {{"app", "struct P { x: int }\nfn f(p: [P]) -> [[P]] { return p; }\n"}};
    assert_message(points, 1, "E0407", "'f' must return '[[app.P]]', not '[app.P]'");
    expect_v2("fn f(a: [int]) { g(a); }\nfn g(b: [str]) {}\n", "app.spx E0404 1:20-1:21\n");
    source_t argument[] = {{"app", "fn f(a: [int]) { print(a); }\n"}};
    assert_message(argument, 1, "E0404", "argument 1 of 'print' must be 'str', not '[int]'");
    source_t compare[] = {{"app", "fn f(a: [int], b: [str]) -> bool { return a == b; }\n"}};
    assert_message(compare, 1, "E0405", "operator '==' cannot take '[int]' and '[str]'");
    source_t negate[] = {{"app", "fn f(a: [bool]) -> bool { return !a; }\n"}};
    assert_message(negate, 1, "E0405", "operator '!' cannot take '[bool]'");
    source_t element[] = {{"app", "fn f(a: [str]) { for x in a { let n: int = x; } }\n"}};
    assert_message(element, 1, "E0401", "'n' is declared 'int' but its value is 'str'");
    source_t let[] = {{"app", "fn f(a: [int]) { let b: [str] = a; }\n"}};
    assert_message(let, 1, "E0401", "'b' is declared '[str]' but its value is '[int]'");
    source_t assign[] = {{"app", "fn f(a: [int], b: [bool]) { var c = a; c = b; }\n"}};
    assert_message(assign, 1, "E0411", "cannot assign '[bool]' to 'c' of type '[int]'");
    source_t condition[] = {{"app", "fn f(a: [int]) { if a { } }\n"}};
    assert_message(condition, 1, "E0406", "condition must be 'bool', not '[int]'");
    source_t fields[] = {{"app", "fn f(a: [int]) -> int { return a.n; }\n"}};
    assert_message(fields, 1, "E0419", "a value of type '[int]' has no fields (no 'n')");
    source_t index[] = {{"app", "fn f(a: [int]) -> int { return a[a]; }\n"}};
    assert_message(index, 1, "E0418", "an index must be 'int', not '[int]'");
    source_t indexed[] = {{"app", "struct P { x: int }\nfn f(p: P) -> int { return p[0]; }\n"}};
    assert_message(indexed, 1, "E0417",
                   "a value of type 'app.P' cannot be indexed: only str and arrays can");
    source_t method[] = {{"app", "struct P { x: int }\nfn f(p: P) { p.pop(); }\n"}};
    assert_message(method, 1, "E0420", "'pop' is a method of arrays, not of 'app.P'");
    source_t range[] = {{"app", "fn f(a: [int]) { for i in 0..a { } }\n"}};
    assert_message(range, 1, "E0412", "a range bound must be 'int', not '[int]'");
    source_t over[] = {{"app", "struct P { x: int }\nfn f(p: P) { for i in p { } }\n"}};
    assert_message(over, 1, "E0413", "'for i in' needs an array or a range 'a..b', not 'app.P'");

    /* struct literals have their struct's type; fields read their field's type */
    expect_v2("struct P { x: int, n: [str] }\nfn f(p: P) -> str { return p.n[p.x]; }\n", "");
    expect_v2("struct P { x: int }\nfn f() -> int { let p = P { x: 1 }; return p.x; }\n", "");
    expect_v2("struct P { x: int }\nstruct Q { p: P }\nfn f(q: Q) -> bool { return q.p == P { x: 1 "
              "}; }\n",
              "");
    expect_v2("struct P { x: int }\nfn f(p: P) -> int { return p.y; }\n",
              "app.spx E0424 2:30-2:31\n");
    expect_v2("struct P { x: int }\nfn f() -> str { return P { x: 1 }.x; }\n",
              "app.spx E0407 2:24-2:36\n");
    expect_v2("struct P { x: int }\nfn f() { let p = P { x: \"a\" }; }\n",
              "app.spx E0427 2:25-2:28\n");
    /* array literals: typed by what expects them or by their first element */
    expect_v2("fn f() -> [[int]] { return [[], [1, 2]]; }\n", "");
    expect_v2("fn f() -> int { let xs = [[1], []]; return xs[0][0]; }\n", "");
    expect_v2("fn f() { let xs = [1, \"a\", true]; }\n",
              "app.spx E0428 1:23-1:26\napp.spx E0428 1:28-1:32\n");
    expect_v2("fn f() { let xs: [str] = [1]; }\n", "app.spx E0428 1:27-1:28\n");
    expect_v2("fn f() -> bool { return [1] == [true]; }\n", "app.spx E0428 1:33-1:37\n");
    expect_v2("fn f() { let xs = [1]; let n: int = xs; }\n", "app.spx E0401 1:37-1:39\n");
    source_t mixed[] = {{"app", "fn f() { let xs = [[1], [[2]]]; }\n"}};
    assert_message(mixed, 1, "E0428", "an element of '[int]' must be 'int', not '[int]'");
    source_t mixed2[] = {{"app", "fn f() { let xs = [1, \"a\"]; }\n"}};
    assert_message(mixed2, 1, "E0428", "an element of '[int]' must be 'int', not 'str'");
    source_t not_array[] = {{"app", "fn f() -> int { return []; }\n"}};
    assert_message(not_array, 1, "E0423",
                   "an element type is needed: what stands here expects 'int', which is not an "
                   "array, and no element gives one");
    source_t point_list[] = {{"app", "struct P { x: int }\nfn f() -> [P] { return [1]; }\n"}};
    assert_message(point_list, 1, "E0428", "an element of '[app.P]' must be 'app.P', not 'int'");
    /* assignments to places */
    expect_v2(
        "struct P { x: int }\nfn f() { var ps = [P { x: 1 }]; ps[0].x = 2; ps[0] = P { x: 3 }; }\n",
        "");
    expect_v2("fn f() { var xs = [[1]]; xs[0] = [\"a\"]; xs[0][0] = [1]; }\n",
              "app.spx E0428 1:35-1:38\napp.spx E0411 1:52-1:55\n");
    source_t place[] = {{"app", "struct P { x: int }\nfn f(q: P) { var p = q; p.x = \"s\"; }\n"}};
    assert_message(place, 1, "E0411", "cannot assign 'str' to 'p.x' of type 'int'");
    source_t let_place[] = {{"app", "fn f() { let xs = [1]; xs[0] = 2; }\n"}};
    assert_message(let_place, 1, "E0312", "cannot assign to 'xs': it is declared with 'let'");
    /* a unit function's return expects nothing */
    expect_v2("fn f() { return []; }\n", "app.spx E0423 1:17-1:19\n");
    expect_v2("fn f() { return [1]; }\n", "app.spx E0409 1:17-1:20\n");
    /* push and pop */
    expect_v2("fn f() { var xs = [1]; xs.push(2); let n: int = xs.pop(); }\n", "");
    expect_v2("fn f() { var xs = [[1]]; xs.push([]); }\n", "");
    expect_v2("fn f() { var xs = [1]; xs.push(\"a\"); }\n", "app.spx E0404 1:32-1:35\n");
    expect_v2("fn f() { var xs = [1]; xs.pop(1); }\n", "app.spx E0403 1:24-1:33\n");
    source_t push[] = {{"app", "fn f(p: [[int]]) { var q = p; q[0].push(true); }\n"}};
    assert_message(push, 1, "E0404", "argument 1 of 'push' must be 'int', not 'bool'");
    source_t pop[] = {{"app", "fn f() { var xs = [1]; let s: str = xs.pop(); }\n"}};
    assert_message(pop, 1, "E0401", "'s' is declared 'str' but its value is 'int'");
    source_t pop_count[] = {{"app", "fn f() { var xs = [1]; xs.pop(1); }\n"}};
    assert_message(pop_count, 1, "E0403", "'pop' takes 0 arguments, not 1");
    source_t no_field[] = {
        {"app", "struct P { x: int, y: int }\nfn f(p: P) -> int { return p.z; }\n"}};
    assert_message(no_field, 1, "E0424",
                   "struct 'P' has no field 'z' (its fields: x, y); did you mean 'x' or 'y'?");
    source_t wrong_field[] = {{"app", "import geo;\nfn f(n: [int]) { let p = geo.P { at: n }; }\n"},
                              {"geo", "export struct Q { x: int }\nexport struct P { at: Q }\n"}};
    assert_message(wrong_field, 2, "E0427", "field 'at' of struct 'P' is 'geo.Q', not '[int]'");
    source_t literal[] = {{"app", "struct P { x: int }\nfn f() -> int { return P { x: 1 }; }\n"}};
    assert_message(literal, 1, "E0407", "'f' must return 'int', not 'app.P'");
}

static void test_empty_program(void)
{
    apr_pool_t *pool = pool_for_test();
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_check_program(NULL, 0, pool, diagnostics);
    CU_ASSERT_EQUAL(spx_diagnostics_count(diagnostics), 0);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"corpus: every rule, valid and invalid", test_corpus},
        {"annotations of a valid program", test_annotations},
        {"annotations left by errors", test_annotations_of_errors},
        {"incomplete functions: no reports about what was lost", test_incomplete_functions},
        {"messages name what is wrong", test_messages},
        {"every documented program gives its code", test_documented_programs},
        {"suggestions, notes and warnings", test_suggestions_notes_warnings},
        {"operator and else-if chains need no recursion", test_deep_chains},
        {"a long import cycle is one diagnostic", test_long_import_cycle},
        {"an empty program", test_empty_program},
        {"language v2 constructs: valid ones admitted", test_v2_constructs},
        {"language v2 rules: operators, loops, builtins", test_v2_rules},
        {"language v2 consts", test_v2_consts},
        {"language v2 consts: values and uses", test_v2_const_values},
        {"language v2 structs", test_v2_structs},
        {"language v2 array literals and expected types", test_v2_array_literals},
        {"language v2 struct literals", test_v2_struct_literals},
        {"language v2 index, slice, fields, methods, places", test_v2_values},
        {"language v2 consts: long chains need no recursion", test_v2_long_consts},
        {"language v2 messages", test_v2_messages},
        {"language v2 value types: interned, named", test_v2_types},
        {"language v2 values of array and struct types", test_v2_typed_values},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("checker", tests);
}
