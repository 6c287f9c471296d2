/*
 * test_envelope.c: the test closure and its execution envelope
 * (outputs.md): every manifest test in order with fresh fuel, each outcome's
 * record, the summary and digest, determinism, and the three checks of
 * verify made by the engine.
 */
#include "spx_canonical.h"
#include "project_internal.h" /* white-box: the project's own fields */
#include "spx_envelope.h"
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <string.h>

static const char closure_source[] =
    "fn ok() -> int { var i: int = 0; while i < 3 { i = i + 1; } return i - 3; }\n"
    "fn bad() -> int { print(\"no\"); return 7; }\n"
    "fn crash() -> int {\n  let z = 0;\n  return 1 / z;\n}\n"
    "fn spin() -> int { while true { } return 0; }\n"
    "fn deep() -> int { return deep(); }\n";

static const char *const closure_tests[] = {
    "ok=app.ok",    "bad=app.bad", "crash=app.crash", "spin=app.spin", "deep=app.deep",
    "again=app.ok", NULL};

static json_t *build(spx_fixture_t *fixture, const spx_run_limits_t *limits)
{
    spx_project_t *project = spx_run_fixture_open(fixture);
    json_t *envelope = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_envelope_build(project, limits, &envelope, fixture->pool, &message),
                          APR_SUCCESS);
    return envelope;
}

static const char *text_of(const json_t *value, apr_pool_t *pool)
{
    return spx_canonical_text(value, pool);
}

static void test_every_outcome_in_manifest_order(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture, closure_source, NULL, closure_tests);
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = 11; /* exactly what ok costs: each test has fresh fuel */
    limits.max_memory = 1048576;
    json_t *envelope = build(fixture, &limits);
    const json_t *tests = json_object_get(envelope, "tests");
    CU_ASSERT_EQUAL_FATAL(json_array_size(tests), 6);
    CU_ASSERT_STRING_EQUAL(
        text_of(json_array_get(tests, 0), fixture->pool),
        "{\"function\":\"app.ok\",\"limits\":{\"max_call_depth\":256,\"max_memory\":1048576,\"max_"
        "steps\":11},\"name\":\"ok\",\"outcome\":\"passed\","
        "\"output\":\"\",\"output_truncated\":false,\"steps\":11,\"value\":0}");
    CU_ASSERT_STRING_EQUAL(
        text_of(json_array_get(tests, 1), fixture->pool),
        "{\"function\":\"app.bad\",\"limits\":{\"max_call_depth\":256,\"max_memory\":1048576,\"max_"
        "steps\":11},\"name\":\"bad\",\"outcome\":\"failed\","
        "\"output\":\"no\",\"output_truncated\":false,\"steps\":4,\"value\":7}");
    CU_ASSERT_STRING_EQUAL(
        text_of(json_array_get(tests, 2), fixture->pool),
        "{\"failure\":{\"code\":\"R0503\",\"message\":\"division by zero: 1 / 0\",\"path\":"
        "\"app.spx\",\"span\":{\"end\":{\"column\":15,\"line\":5,\"offset\":166},\"start\":{"
        "\"column\":10,\"line\":5,\"offset\":161}}},\"function\":\"app.crash\","
        "\"limits\":{\"max_call_depth\":256,\"max_memory\":1048576,\"max_steps\":11},\"name\":"
        "\"crash\","
        "\"outcome\":\"language_failure\",\"output\":\"\",\"output_truncated\":false,\"steps\":3}");
    const json_t *spin = json_array_get(tests, 3);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(spin, "outcome")), "fuel_exhausted");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(spin, "steps")), 11);
    CU_ASSERT_PTR_NULL(json_object_get(spin, "value"));
    /* 11 steps end the fuel long before depth 256 */
    const json_t *deep = json_array_get(tests, 4);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(deep, "outcome")), "fuel_exhausted");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(tests, 5), "name")),
                           "again");
    CU_ASSERT_STRING_EQUAL(text_of(json_object_get(envelope, "summary"), fixture->pool),
                           "{\"depth_exhausted\":0,\"failed\":1,\"fuel_exhausted\":2,"
                           "\"language_failure\":1,\"passed\":2,\"total\":6}");
    CU_ASSERT_TRUE(json_is_false(json_object_get(envelope, "command_succeeded")));
    CU_ASSERT_STRING_EQUAL(text_of(json_object_get(envelope, "limits"), fixture->pool),
                           "{\"max_bytes\":4096,\"max_call_depth\":256,\"max_memory\":1048576,"
                           "\"max_steps\":11}");
    CU_ASSERT_STRING_EQUAL(text_of(json_object_get(envelope, "engine"), fixture->pool),
                           "{\"language\":\"semaprax.language.v3\",\"name\":\"semaprax\","
                           "\"version\":\"" SPX_VERSION "\"}");
    json_decref(envelope);

    limits.max_steps = 1000;
    envelope = build(fixture, &limits);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
                               json_array_get(json_object_get(envelope, "tests"), 4), "outcome")),
                           "depth_exhausted");
    json_decref(envelope);
    spx_fixture_free(fixture);
}

/* A project of one test that returns 0. */
static spx_fixture_t *one_test_fixture(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture, "fn ok() -> int { return 0; }\n", NULL,
                          (const char *const[]){"ok=app.ok", NULL});
    return fixture;
}

static void test_subject_and_digest(void)
{
    spx_fixture_t *fixture = one_test_fixture();
    spx_run_limits_t limits = spx_run_limits_default();
    json_t *envelope = build(fixture, &limits);
    spx_project_t *project = spx_run_fixture_open(fixture);
    const json_t *subject = json_object_get(envelope, "subject");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(subject, "project_revision")),
                           project->project_revision);
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(subject, "manifest")),
        spx_digest_text(&spx_input_set_manifest(project->inputs)->digest, fixture->pool));
    const json_t *source = json_array_get(json_object_get(subject, "sources"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(source, "path")), "app.spx");
    CU_ASSERT_TRUE(json_is_true(json_object_get(envelope, "command_succeeded")));
    /* envelope_digest is the digest of everything else */
    const char *digest = json_string_value(json_object_get(envelope, "envelope_digest"));
    json_t *body = json_deep_copy(envelope);
    json_object_del(body, "envelope_digest");
    CU_ASSERT_STRING_EQUAL(digest, spx_canonical_digest(body, fixture->pool));
    CU_ASSERT_EQUAL(json_object_size(envelope), 8);
    json_decref(body);
    json_decref(envelope);
    spx_fixture_free(fixture);
}

static void test_determinism(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture, closure_source, NULL, closure_tests);
    spx_run_limits_t limits = spx_run_limits_default();
    json_t *first = build(fixture, &limits);
    json_t *second = build(fixture, &limits);
    CU_ASSERT_STRING_EQUAL(text_of(first, fixture->pool), text_of(second, fixture->pool));
    limits.max_bytes = 1;
    json_t *fewer_bytes = build(fixture, &limits);
    limits = spx_run_limits_default();
    limits.max_steps = 999999;
    json_t *less_fuel = build(fixture, &limits);
    const char *digest = json_string_value(json_object_get(first, "envelope_digest"));
    CU_ASSERT_STRING_NOT_EQUAL(digest,
                               json_string_value(json_object_get(fewer_bytes, "envelope_digest")));
    CU_ASSERT_STRING_NOT_EQUAL(digest,
                               json_string_value(json_object_get(less_fuel, "envelope_digest")));
    json_decref(first);
    json_decref(second);
    json_decref(fewer_bytes);
    json_decref(less_fuel);
    spx_fixture_free(fixture);
}

/* Verify length bytes (an envelope) against the fixture's project. */
static spx_verify_report_t verify_bytes(spx_fixture_t *fixture, const char *bytes,
                                        apr_size_t length)
{
    spx_verify_report_t report;
    CU_ASSERT_EQUAL_FATAL(spx_envelope_verify(bytes, length,
                                              spx_fixture_path(fixture, "semaprax.toml"), &report,
                                              fixture->session),
                          APR_SUCCESS);
    return report;
}

static spx_verify_report_t verify(spx_fixture_t *fixture, const char *text)
{
    return verify_bytes(fixture, text, strlen(text));
}

static void test_verify_checks(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture, closure_source, NULL, closure_tests);
    spx_run_limits_t limits = spx_run_limits_default();
    limits.max_steps = 500;
    json_t *envelope = build(fixture, &limits);
    const char *text = text_of(envelope, fixture->pool);

    spx_verify_report_t fresh = verify(fixture, text);
    CU_ASSERT_TRUE(fresh.digest_ok && fresh.subject_ok && fresh.rerun_ok);

    /* one byte of a value flipped: only the digest can tell */
    char *flipped = apr_pstrdup(fixture->pool, text);
    char *steps = strstr(flipped, "\"steps\":11");
    CU_ASSERT_PTR_NOT_NULL_FATAL(steps);
    steps[9] = '2';
    spx_verify_report_t digest = verify(fixture, flipped);
    CU_ASSERT_FALSE(digest.digest_ok);
    CU_ASSERT_TRUE(digest.subject_ok);
    CU_ASSERT_FALSE(digest.rerun_ok);
    CU_ASSERT_PTR_NOT_NULL(strstr(digest.rerun_detail, "tests[0] ('ok').steps"));

    /* a forged outcome with its digest recomputed: only the re-run can tell */
    json_t *forged = json_deep_copy(envelope);
    json_object_set_new(json_array_get(json_object_get(forged, "tests"), 1), "outcome",
                        json_string("passed"));
    json_object_del(forged, "envelope_digest");
    json_object_set_new(forged, "envelope_digest",
                        json_string(spx_canonical_digest(forged, fixture->pool)));
    spx_verify_report_t rerun = verify(fixture, text_of(forged, fixture->pool));
    CU_ASSERT_TRUE(rerun.digest_ok);
    CU_ASSERT_TRUE(rerun.subject_ok);
    CU_ASSERT_FALSE(rerun.rerun_ok);
    CU_ASSERT_STRING_EQUAL(rerun.rerun_detail,
                           "the re-run differs at tests[1] ('bad').outcome (the envelope has "
                           "\"passed\", the re-run \"failed\")");
    json_decref(forged);

    /* an array replaced by a string: named as two different values */
    forged = json_deep_copy(envelope);
    json_object_set_new(forged, "tests", json_string("none"));
    json_object_del(forged, "envelope_digest");
    json_object_set_new(forged, "envelope_digest",
                        json_string(spx_canonical_digest(forged, fixture->pool)));
    spx_verify_report_t retyped = verify(fixture, text_of(forged, fixture->pool));
    CU_ASSERT_FALSE(retyped.rerun_ok);
    spx_assert_contains(retyped.rerun_detail,
                        "the re-run differs at tests (the envelope has \"none\", the re-run [");
    json_decref(forged);

    /* a source edited after the run: the subject no longer matches */
    spx_fixture_end_session(fixture);
    spx_fixture_append(fixture, "app.spx", "// edited\n");
    spx_verify_report_t subject = verify(fixture, text);
    CU_ASSERT_TRUE(subject.digest_ok);
    CU_ASSERT_FALSE(subject.subject_ok);
    CU_ASSERT_STRING_EQUAL(subject.subject_detail,
                           "the files on disk differ from the envelope: app.spx changed");

    /* a subject whose sources and manifest agree but whose revision does not
     * (forged): the first difference is named, as before */
    spx_fixture_end_session(fixture);
    json_t *revised = build(fixture, &limits);
    json_object_set_new(json_object_get(revised, "subject"), "project_revision",
                        json_string("sha256:0"));
    json_object_del(revised, "envelope_digest");
    json_object_set_new(revised, "envelope_digest",
                        json_string(spx_canonical_digest(revised, fixture->pool)));
    spx_verify_report_t only_revision = verify(fixture, text_of(revised, fixture->pool));
    CU_ASSERT_FALSE(only_revision.subject_ok);
    spx_assert_contains(only_revision.subject_detail,
                        "the files on disk differ from the envelope at subject.project_revision");
    json_decref(revised);

    /* not JSON at all: every check fails, saying so */
    spx_verify_report_t broken = verify(fixture, "{\"schema\":");
    CU_ASSERT_FALSE(broken.digest_ok || broken.subject_ok || broken.rerun_ok);
    CU_ASSERT_PTR_NOT_NULL(strstr(broken.digest_detail, "it is not JSON"));
    json_decref(envelope);
    spx_fixture_free(fixture);
}

/* Output may hold U+0000 (canonical JSON writes it \u0000): the envelope the
 * engine wrote must still verify. */
static void test_output_with_nul_verifies(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    static const char *const tests[] = {"nul=app.nul", NULL};
    spx_run_fixture_write(fixture, "fn nul() -> int { print(\"a\\u{0}b\"); return 0; }\n", NULL,
                          tests);
    spx_run_limits_t limits = spx_run_limits_default();
    json_t *envelope = build(fixture, &limits);
    const char *text = text_of(envelope, fixture->pool);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "a\\u0000b"));
    spx_verify_report_t report = verify_bytes(fixture, text, strlen(text));
    CU_ASSERT_TRUE(report.digest_ok);
    CU_ASSERT_TRUE(report.subject_ok);
    CU_ASSERT_TRUE(report.rerun_ok);
    if (!report.rerun_ok)
        fprintf(stderr, "\n  %s / %s\n", report.digest_detail, report.rerun_detail);
    json_decref(envelope);
    spx_fixture_free(fixture);
}

/* envelope with its limits.key set to value (removed when value is NULL; the
 * reference is taken) and its digest recomputed, as canonical text. */
static const char *with_limit(spx_fixture_t *fixture, const json_t *envelope, const char *key,
                              json_t *value)
{
    json_t *copy = json_deep_copy(envelope);
    if (value)
        json_object_set_new(json_object_get(copy, "limits"), key, value);
    else
        json_object_del(json_object_get(copy, "limits"), key);
    json_object_del(copy, "envelope_digest");
    json_object_set_new(copy, "envelope_digest",
                        json_string(spx_canonical_digest(copy, fixture->pool)));
    const char *text = text_of(copy, fixture->pool);
    json_decref(copy);
    return text;
}

static void test_recorded_limits_are_checked(void)
{
    spx_fixture_t *fixture = one_test_fixture();
    spx_run_limits_t limits = spx_run_limits_default();
    json_t *envelope = build(fixture, &limits);
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(envelope, "limits"), "max_memory")),
        SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_verify_report_t report =
        verify(fixture, with_limit(fixture, envelope, "max_call_depth",
                                   json_integer((json_int_t)SPX_LIMIT_CALL_DEPTH_MAXIMUM + 1)));
    CU_ASSERT_TRUE(report.digest_ok);
    CU_ASSERT_FALSE(report.rerun_ok);
    CU_ASSERT_STRING_EQUAL(report.rerun_detail,
                           "limits.max_call_depth is not a whole number from 1 to 65536");
    /* max_memory over its maximum, negative, or not a number (language v3:
     * a missing one is a limit the command did not give) */
    json_t *memory_values[] = {json_integer((json_int_t)SPX_LIMIT_MAX_MEMORY_MAXIMUM + 1),
                               json_integer(-1), json_string("1024")};
    for (size_t i = 0; i < sizeof(memory_values) / sizeof(memory_values[0]); i++) {
        report = verify(fixture, with_limit(fixture, envelope, "max_memory", memory_values[i]));
        CU_ASSERT_TRUE(report.digest_ok);
        CU_ASSERT_TRUE(report.subject_ok);
        CU_ASSERT_FALSE(report.rerun_ok);
        CU_ASSERT_STRING_EQUAL(report.rerun_detail,
                               "limits.max_memory is not a whole number from 0 to 1073741824");
    }
    /* a max_memory in range but other than the one of the run: the re-run
     * uses the recorded value, and (language v3) each test records what it
     * ran under, so the re-run differs there */
    report = verify(fixture, with_limit(fixture, envelope, "max_memory", json_integer(4096)));
    CU_ASSERT_TRUE(report.digest_ok && report.subject_ok);
    CU_ASSERT_FALSE(report.rerun_ok);
    CU_ASSERT_PTR_NOT_NULL(strstr(report.rerun_detail, "limits.max_memory"));
    json_decref(envelope);
    /* The lowest values allowed, 0 steps, 0 bytes of output and 0 bytes of
     * memory, and the highest memory, verify: the re-run records what it
     * was given, so a re-run with other limits than the recorded ones would
     * differ at limits. */
    limits.max_memory = SPX_LIMIT_MAX_MEMORY_MAXIMUM;
    envelope = build(fixture, &limits);
    report = verify(fixture, text_of(envelope, fixture->pool));
    CU_ASSERT_TRUE(report.digest_ok && report.subject_ok && report.rerun_ok);
    json_decref(envelope);
    limits.max_steps = 0;
    limits.max_bytes = 0;
    limits.max_memory = 0;
    envelope = build(fixture, &limits);
    report = verify(fixture, text_of(envelope, fixture->pool));
    CU_ASSERT_TRUE(report.digest_ok && report.subject_ok && report.rerun_ok);
    json_decref(envelope);
    spx_fixture_free(fixture);
}

/* An envelope of another language than the engine's is not re-run: verify
 * says which language it records and how to make a new one. Checked before
 * the limits, so an envelope of language v1 (which records no max_memory) is
 * told about its language. */
static void test_other_language_is_not_rerun(void)
{
    spx_fixture_t *fixture = one_test_fixture();
    spx_run_limits_t limits = spx_run_limits_default();
    json_t *envelope = build(fixture, &limits);
    CU_ASSERT_STRING_EQUAL(SPX_LANGUAGE_NAME, "semaprax.language.v3");
    json_t *old = json_deep_copy(envelope);
    json_object_set_new(json_object_get(old, "engine"), "language",
                        json_string("semaprax.language.v1"));
    json_object_del(json_object_get(old, "limits"), "max_memory");
    const char *text = with_limit(fixture, old, "max_steps", json_integer(1000000));
    spx_verify_report_t report = verify(fixture, text);
    CU_ASSERT_TRUE(report.digest_ok);
    CU_ASSERT_TRUE(report.subject_ok);
    CU_ASSERT_FALSE(report.rerun_ok);
    CU_ASSERT_STRING_EQUAL(report.rerun_detail,
                           "the envelope's engine.language is \"semaprax.language.v1\", not "
                           "\"semaprax.language.v3\", so its closure cannot be re-run; make a new "
                           "envelope with 'semaprax test --envelope FILE'");
    /* no language at all, or one that is not a string */
    json_object_del(json_object_get(old, "engine"), "language");
    report = verify(fixture, with_limit(fixture, old, "max_steps", json_integer(1000000)));
    CU_ASSERT_FALSE(report.rerun_ok);
    spx_assert_contains(report.rerun_detail,
                        "the envelope's engine.language is missing, not \"semaprax.language.v3\"");
    json_object_set_new(json_object_get(old, "engine"), "language", json_integer(2));
    report = verify(fixture, with_limit(fixture, old, "max_steps", json_integer(1000000)));
    CU_ASSERT_FALSE(report.rerun_ok);
    spx_assert_contains(report.rerun_detail, "the envelope's engine.language is 2, not ");
    json_decref(old);
    json_decref(envelope);
    spx_fixture_free(fixture);
}

/* Only what the closure can reach is compiled: a function over the register
 * limit stops `test` only when a test can call it. */
static void test_only_reachable_functions_are_compiled(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_array_header_t *lines = apr_array_make(fixture->pool, 20000, sizeof(const char *));
    APR_ARRAY_PUSH(lines, const char *) = "fn huge() -> int {\n";
    for (unsigned i = 0; i <= SPX_LIMIT_FUNCTION_REGISTERS; i++)
        APR_ARRAY_PUSH(lines, const char *) =
            apr_psprintf(fixture->pool, "  let v%u = %u;\n", i, i);
    const char *huge = apr_array_pstrcat(fixture->pool, lines, 0);
    const char *source = apr_pstrcat(fixture->pool, huge, "  return 0;\n}\n",
                                     "fn ok() -> int { return 0; }\n", NULL);
    spx_run_fixture_write(fixture, source, NULL, (const char *const[]){"ok=app.ok", NULL});
    spx_run_limits_t limits = spx_run_limits_default();
    json_t *envelope = build(fixture, &limits);
    CU_ASSERT_TRUE(json_is_true(json_object_get(envelope, "command_succeeded")));
    json_decref(envelope);

    spx_fixture_end_session(fixture);
    spx_run_fixture_write(fixture, source, NULL,
                          (const char *const[]){"ok=app.ok", "huge=app.huge", NULL});
    spx_project_t *project = spx_run_fixture_open(fixture);
    const char *message = NULL;
    CU_ASSERT_EQUAL(spx_envelope_build(project, &limits, &envelope, fixture->pool, &message),
                    APR_EINVAL);
    CU_ASSERT_STRING_EQUAL(message, "function 'app.huge' is too large to run");
    spx_fixture_free(fixture);
}

/* Phase A compiles module by module, imports first: calls to functions
 * compiled earlier (another module) and later (further down the same
 * module) both run, in a program of more functions than any first guess of
 * its size. The manifest lists the importer first. */
static void test_program_compiled_module_by_module(void)
{
    enum { MODULES = 3, FUNCTIONS = 40 };
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\n"
                           "name = \"p\"\nversion = \"1.0.0\"\n";
    for (int m = MODULES - 1; m >= 0; m--) {
        const char *text = m > 0 ? apr_psprintf(fixture->pool, "import m%d;\n", m - 1) : "";
        for (int f = 0; f < FUNCTIONS; f++) {
            const char *next = f + 1 < FUNCTIONS ? apr_psprintf(fixture->pool, "f%d()", f + 1)
                               : m > 0           ? apr_psprintf(fixture->pool, "m%d.f0()", m - 1)
                                                 : "0";
            text = apr_psprintf(fixture->pool, "%sexport fn f%d() -> int { return 1 + %s; }\n",
                                text, f, next);
        }
        if (m == MODULES - 1)
            text = apr_psprintf(
                fixture->pool, "%sfn test_all() -> int { if f0() == %d { return 0; } return 1; }\n",
                text, MODULES * FUNCTIONS);
        spx_fixture_write(fixture, apr_psprintf(fixture->pool, "m%d.spx", m), text);
        manifest =
            apr_psprintf(fixture->pool, "%s\n[[source]]\nmodule = \"m%d\"\npath = \"m%d.spx\"\n",
                         manifest, m, m);
    }
    manifest =
        apr_psprintf(fixture->pool, "%s\n[[test]]\nname = \"all\"\nfunction = \"m%d.test_all\"\n",
                     manifest, MODULES - 1);
    spx_fixture_write(fixture, "semaprax.toml", manifest);
    spx_run_limits_t limits = spx_run_limits_default();
    json_t *envelope = build(fixture, &limits);
    json_t *test = json_array_get(json_object_get(envelope, "tests"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(test, "outcome")), "passed");
    /* 1 call of test_all, 2 statements of it, then 1 call + 1 return per function. */
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(test, "steps")),
                    3 + 2 * MODULES * FUNCTIONS);
    json_decref(envelope);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"every outcome, in manifest order, fresh fuel", test_every_outcome_in_manifest_order},
        {"subject and envelope_digest", test_subject_and_digest},
        {"a program compiled module by module", test_program_compiled_module_by_module},
        {"same project twice: same bytes; other limits: other digest", test_determinism},
        {"verify: fresh, flipped byte, forged outcome, edited source", test_verify_checks},
        {"verify checks the recorded limits", test_recorded_limits_are_checked},
        {"verify does not re-run another language's envelope", test_other_language_is_not_rerun},
        {"output holding U+0000 verifies", test_output_with_nul_verifies},
        {"only reachable functions are compiled", test_only_reachable_functions_are_compiled},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("execution envelope", tests);
}
