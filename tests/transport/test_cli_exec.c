/*
 * test_cli_exec.c: process tests of `semaprax run`, `semaprax test` and
 * `semaprax verify`: the real program, its exit statuses, what it prints,
 * the envelope file it writes, and verify failing (and saying which check
 * failed) after a flipped byte, an edited source, a forged outcome, a
 * tampered limit and an envelope of another language.
 */
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_process.h"
#include "spx_run_fixture.h"

#include <apr_strings.h>
#include <string.h>

static const char source[] =
    "fn main() -> int { print(\"hi\\n\"); return 0; }\n"
    "fn three() -> int { print(\"x\"); return 3; }\n"
    "fn crash() -> int {\n  let z = 0;\n  return 1 / z;\n}\n"
    "fn t_ok() -> int { var i = 0; while i < 3 { i = i + 1; } return 0; }\n"
    "fn t_bad() -> int { return 2; }\n";

static void test_run_exit_statuses(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_run_fixture_write(fixture, source, "app.main", NULL);
    spx_process_result_t ok = SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(ok.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(ok.out, "hi\n");
    CU_ASSERT_STRING_EQUAL(ok.err, "");
    /* --max-memory from 0 to its maximum is accepted; the literal "hi"
     * counts its header, 32 bytes, so 0 is too little for it */
    spx_process_result_t zero =
        SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path", manifest, "--max-memory", "0");
    CU_ASSERT_EQUAL(zero.exit_code, 1);
    spx_assert_contains(zero.err, "error[R0521]: memory limit exceeded: 32 bytes live");
    const char *memories[] = {"32", "1048576", "1073741824"};
    for (size_t i = 0; i < sizeof(memories) / sizeof(memories[0]); i++) {
        spx_process_result_t memory = SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path",
                                                       manifest, "--max-memory", memories[i]);
        CU_ASSERT_EQUAL(memory.exit_code, 0);
        CU_ASSERT_STRING_EQUAL(memory.out, "hi\n");
        CU_ASSERT_STRING_EQUAL(memory.err, "");
    }

    spx_run_fixture_write(fixture, source, "app.three", NULL);
    spx_process_result_t three =
        SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(three.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(three.out, "x");
    CU_ASSERT_STRING_EQUAL(three.err, "semaprax: entry 'app.three' returned 3\n");

    spx_run_fixture_write(fixture, source, "app.crash", NULL);
    spx_process_result_t crash =
        SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(crash.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(crash.err, "app.spx:5:10: error[R0503]: division by zero: 1 / 0\n"
                                      "semaprax: entry 'app.crash': language_failure after 3 "
                                      "steps\n");

    spx_process_result_t fuel =
        SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path", manifest, "--max-steps", "2");
    CU_ASSERT_EQUAL(fuel.exit_code, 1);
    spx_assert_contains(fuel.err, "error[R0509]: fuel exhausted: max_steps 2 reached");

    spx_run_fixture_write(fixture, source, NULL, NULL);
    spx_process_result_t none = SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(none.exit_code, 2);
    spx_assert_contains(none.err, "the manifest declares no entry");
    spx_fixture_free(fixture);
}

static void test_run_and_test_refuse_bad_projects_and_limits(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_run_fixture_write(fixture, "fn main() -> int { return true; }\n", "app.main", NULL);
    spx_process_result_t bad = SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(bad.exit_code, 1);
    spx_assert_contains(bad.err, "the project is not admitted");
    spx_process_result_t test =
        SPX_RUN_SEMAPRAX(fixture->pool, "test", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(test.exit_code, 1);
    spx_process_result_t steps =
        SPX_RUN_SEMAPRAX(fixture->pool, "test", "--max-steps", "10000000001");
    CU_ASSERT_EQUAL(steps.exit_code, 2);
    spx_assert_contains(steps.err, "--max-steps 10000000001 is over the maximum of 10000000000");
    spx_process_result_t bytes = SPX_RUN_SEMAPRAX(fixture->pool, "test", "--max-bytes", "x");
    CU_ASSERT_EQUAL(bytes.exit_code, 2);
    spx_assert_contains(bytes.err, "--max-bytes takes a whole number, not 'x'");
    /* --max-memory: both commands, refused before the project is read */
    const char *const memory_commands[] = {"run", "test"};
    for (size_t i = 0; i < 2; i++) {
        spx_process_result_t over =
            SPX_RUN_SEMAPRAX(fixture->pool, memory_commands[i], "--manifest-path", manifest,
                             "--max-memory", "1073741825");
        CU_ASSERT_EQUAL(over.exit_code, 2);
        CU_ASSERT_STRING_EQUAL(over.out, "");
        CU_ASSERT_STRING_EQUAL(over.err, "semaprax: --max-memory 1073741825 is over the maximum of "
                                         "1073741824\nTry 'semaprax --help'.\n");
        const char *const bad[] = {"x", "-1", "", "1e6", "18446744073709551616"};
        for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
            spx_process_result_t text =
                SPX_RUN_SEMAPRAX(fixture->pool, memory_commands[i], "--manifest-path", manifest,
                                 "--max-memory", bad[k]);
            CU_ASSERT_EQUAL(text.exit_code, 2);
            CU_ASSERT_STRING_EQUAL(text.err,
                                   apr_psprintf(fixture->pool,
                                                "semaprax: --max-memory takes a whole number, not "
                                                "'%s'\nTry 'semaprax --help'.\n",
                                                bad[k]));
        }
    }
    spx_process_result_t elsewhere =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--max-memory", "1024");
    CU_ASSERT_EQUAL(elsewhere.exit_code, 2);
    spx_process_result_t verify = SPX_RUN_SEMAPRAX(fixture->pool, "verify");
    CU_ASSERT_EQUAL(verify.exit_code, 2);
    spx_process_result_t missing =
        SPX_RUN_SEMAPRAX(fixture->pool, "verify", spx_fixture_path(fixture, "nope.json"));
    CU_ASSERT_EQUAL(missing.exit_code, 2);
    spx_assert_contains(missing.err, "cannot read envelope");
    spx_fixture_free(fixture);
}

static void test_test_summary_and_envelope(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_run_fixture_write(fixture, source, NULL,
                          (const char *const[]){"ok=app.t_ok", "bad=app.t_bad", NULL});
    const char *envelope = spx_fixture_path(fixture, "envelope.json");
    spx_process_result_t first = SPX_RUN_SEMAPRAX(fixture->pool, "test", "--manifest-path",
                                                  manifest, "--envelope", envelope);
    CU_ASSERT_EQUAL(first.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(first.out,
                           "test ok (app.t_ok) ... passed, 11 steps, returned 0\n"
                           "test bad (app.t_bad) ... failed, 2 steps, returned 2\n"
                           "semaprax: 2 tests: 1 passed, 1 failed, 0 language failures, 0 out "
                           "of fuel, 0 out of depth\n"
                           "semaprax: 1 of 2 tests failed: bad (failed: returned 2)\n");
    const char *bytes = spx_fixture_read(fixture, "envelope.json");
    /* canonical JSON and one LF */
    json_t *document = json_loads(bytes, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(document);
    CU_ASSERT_STRING_EQUAL(
        bytes, apr_pstrcat(fixture->pool, spx_canonical_text(document, fixture->pool), "\n", NULL));
    json_decref(document);

    spx_process_result_t second =
        SPX_RUN_SEMAPRAX(fixture->pool, "test", "--manifest-path", manifest, "--envelope",
                         spx_fixture_path(fixture, "again.json"));
    CU_ASSERT_EQUAL(second.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "again.json"), bytes);
    spx_process_result_t other =
        SPX_RUN_SEMAPRAX(fixture->pool, "test", "--manifest-path", manifest, "--max-bytes", "100",
                         "--envelope", spx_fixture_path(fixture, "other.json"));
    CU_ASSERT_EQUAL(other.exit_code, 1);
    CU_ASSERT_STRING_NOT_EQUAL(spx_fixture_read(fixture, "other.json"), bytes);

    spx_run_fixture_write(fixture, source, NULL, (const char *const[]){"ok=app.t_ok", NULL});
    spx_process_result_t pass =
        SPX_RUN_SEMAPRAX(fixture->pool, "test", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(pass.exit_code, 0);
    spx_fixture_free(fixture);
}

/* `semaprax verify` of the envelope file path passes all three checks. */
static void assert_verified(spx_fixture_t *fixture, const char *path, const char *manifest)
{
    spx_process_result_t verify =
        SPX_RUN_SEMAPRAX(fixture->pool, "verify", path, "--manifest-path", manifest);
    CU_ASSERT_EQUAL(verify.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(verify.out, "digest: ok\nsubject: ok\nre-run: ok\n"
                                       "semaprax: the envelope is verified\n");
}

/* `semaprax verify` of envelope (its reference taken) written to the fixture
 * file name with its envelope_digest recomputed to match its content. */
static spx_process_result_t verify_redigested(spx_fixture_t *fixture, json_t *envelope,
                                              const char *name, const char *manifest)
{
    json_object_del(envelope, "envelope_digest");
    json_object_set_new(envelope, "envelope_digest",
                        json_string(spx_canonical_digest(envelope, fixture->pool)));
    spx_fixture_write(fixture, name, spx_canonical_text(envelope, fixture->pool));
    json_decref(envelope);
    return SPX_RUN_SEMAPRAX(fixture->pool, "verify", spx_fixture_path(fixture, name),
                            "--manifest-path", manifest);
}

static void test_verify_says_which_check_failed(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_run_fixture_write(fixture, source, NULL,
                          (const char *const[]){"ok=app.t_ok", "bad=app.t_bad", NULL});
    const char *path = spx_fixture_path(fixture, "envelope.json");
    SPX_RUN_SEMAPRAX(fixture->pool, "test", "--manifest-path", manifest, "--envelope", path);
    const char *bytes = spx_fixture_read(fixture, "envelope.json");

    assert_verified(fixture, path, manifest);

    /* one byte flipped: a step count 11 becomes 13 */
    const char *at = strstr(bytes, "\"steps\":11");
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    spx_fixture_patch(fixture, "envelope.json", (apr_off_t)(at - bytes) + 9, "3");
    spx_process_result_t flipped =
        SPX_RUN_SEMAPRAX(fixture->pool, "verify", path, "--manifest-path", manifest);
    CU_ASSERT_EQUAL(flipped.exit_code, 1);
    spx_assert_contains(flipped.out, "digest: FAILED: envelope_digest is sha256:");
    spx_assert_contains(flipped.out, "subject: ok\n");
    spx_assert_contains(flipped.out, "re-run: FAILED: the re-run differs at tests[0] ('ok').steps "
                                     "(the envelope has 13, the re-run 11)");
    spx_assert_contains(flipped.out, "semaprax: the envelope is NOT verified\n");

    /* an outcome forged, with the digest recomputed to match */
    json_t *forged = json_loads(bytes, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(forged);
    json_t *bad = json_array_get(json_object_get(forged, "tests"), 1);
    json_object_set_new(bad, "outcome", json_string("passed"));
    json_object_set_new(bad, "value", json_integer(0));
    json_object_set_new(json_object_get(forged, "summary"), "passed", json_integer(2));
    json_object_set_new(json_object_get(forged, "summary"), "failed", json_integer(0));
    json_object_set_new(forged, "command_succeeded", json_true());
    spx_process_result_t rerun = verify_redigested(fixture, forged, "forged.json", manifest);
    CU_ASSERT_EQUAL(rerun.exit_code, 1);
    spx_assert_contains(rerun.out, "digest: ok\nsubject: ok\nre-run: FAILED: the re-run differs at "
                                   "command_succeeded (the envelope has true, the re-run false)\n");

    /* a source edited after the run */
    spx_fixture_write(fixture, "envelope.json", bytes);
    spx_fixture_append(fixture, "app.spx", "fn extra() -> int { return 0; }\n");
    spx_process_result_t edited =
        SPX_RUN_SEMAPRAX(fixture->pool, "verify", path, "--manifest-path", manifest);
    CU_ASSERT_EQUAL(edited.exit_code, 1);
    spx_assert_contains(edited.out,
                        "digest: ok\nsubject: FAILED: the files on disk differ from the "
                        "envelope: app.spx changed\n");
    spx_fixture_free(fixture);
}

/* --max-memory is recorded in the envelope's limits when given (language
 * v3: absent otherwise, and each test records the memory it ran under), and
 * verify re-runs with the recorded value: a value out of range is reported,
 * one in range verifies. An envelope of language v1 is not re-run, and
 * verify says how to make a new one. */
static void test_max_memory_in_the_envelope(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_run_fixture_write(fixture, source, NULL, (const char *const[]){"ok=app.t_ok", NULL});
    const char *path = spx_fixture_path(fixture, "envelope.json");
    const char *const given[] = {NULL, "0", "65536", "1073741824"};
    const json_int_t recorded[] = {268435456, 0, 65536, 1073741824};
    for (size_t i = 0; i < 4; i++) {
        spx_process_result_t test =
            given[i] ? SPX_RUN_SEMAPRAX(fixture->pool, "test", "--manifest-path", manifest,
                                        "--max-memory", given[i], "--envelope", path)
                     : SPX_RUN_SEMAPRAX(fixture->pool, "test", "--manifest-path", manifest,
                                        "--envelope", path);
        CU_ASSERT_EQUAL(test.exit_code, 0);
        json_t *envelope = json_loads(spx_fixture_read(fixture, "envelope.json"), 0, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(envelope);
        const json_t *limits = json_object_get(envelope, "limits");
        CU_ASSERT_EQUAL(json_object_size(limits), given[i] ? 2 : 1);
        if (given[i])
            CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_memory")), recorded[i]);
        const json_t *ran =
            json_object_get(json_array_get(json_object_get(envelope, "tests"), 0), "limits");
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(ran, "max_memory")), recorded[i]);
        CU_ASSERT_STRING_EQUAL(
            json_string_value(json_object_get(json_object_get(envelope, "engine"), "language")),
            "semaprax.language.v3");
        json_decref(envelope);
        assert_verified(fixture, path, manifest);
    }
    const char *bytes = spx_fixture_read(fixture, "envelope.json");

    /* max_memory tampered with (over the maximum), the digest made to match */
    json_t *tampered = json_loads(bytes, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tampered);
    json_object_set_new(json_object_get(tampered, "limits"), "max_memory",
                        json_integer(1073741825));
    spx_process_result_t over = verify_redigested(fixture, tampered, "tampered.json", manifest);
    CU_ASSERT_EQUAL(over.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(over.out,
                           "digest: ok\nsubject: ok\nre-run: FAILED: limits.max_memory is not a "
                           "whole number from 0 to 1073741824\n"
                           "semaprax: the envelope is NOT verified\n");

    /* an envelope of language v1, as `semaprax test` wrote it before v2:
     * no max_memory, its own digest */
    json_t *old = json_loads(bytes, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(old);
    json_object_set_new(json_object_get(old, "engine"), "language",
                        json_string("semaprax.language.v1"));
    json_object_del(json_object_get(old, "limits"), "max_memory");
    spx_process_result_t v1 = verify_redigested(fixture, old, "v1.json", manifest);
    CU_ASSERT_EQUAL(v1.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(v1.out,
                           "digest: ok\nsubject: ok\nre-run: FAILED: the envelope's "
                           "engine.language is \"semaprax.language.v1\", not "
                           "\"semaprax.language.v3\", so its closure cannot be re-run; make a new "
                           "envelope with 'semaprax test --envelope FILE'\n"
                           "semaprax: the envelope is NOT verified\n");
    CU_ASSERT_STRING_EQUAL(v1.err, "");
    spx_fixture_free(fixture);
}

/* The example project's envelope equals tests/golden/hello/envelope.json byte
 * for byte: steps, outputs and digests are the same on every platform. The
 * golden file itself (made on Linux) passes verify too, so an envelope made
 * on one platform verifies on the other (ci/test-windows runs this suite as
 * Windows binaries). */
static void test_example_envelope_matches_golden(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest =
        apr_pstrcat(fixture->pool, spx_program_path("SPX_EXAMPLES"), "/hello/semaprax.toml", NULL);
    const char *path = spx_fixture_path(fixture, "envelope.json");
    spx_process_result_t test =
        SPX_RUN_SEMAPRAX(fixture->pool, "test", "--manifest-path", manifest, "--envelope", path);
    CU_ASSERT_EQUAL(test.exit_code, 0);
    apr_size_t length = 0;
    const char *golden_path = apr_pstrcat(
        fixture->pool, spx_corpus_dir("golden/hello", fixture->pool), "/envelope.json", NULL);
    const char *golden = spx_corpus_read(golden_path, &length, fixture->pool);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "envelope.json"), golden);
    spx_process_result_t verify_golden =
        SPX_RUN_SEMAPRAX(fixture->pool, "verify", golden_path, "--manifest-path", manifest);
    CU_ASSERT_EQUAL(verify_golden.exit_code, 0);
    spx_assert_contains(verify_golden.out, "semaprax: the envelope is verified\n");
    spx_process_result_t verify =
        SPX_RUN_SEMAPRAX(fixture->pool, "verify", path, "--manifest-path", manifest);
    CU_ASSERT_EQUAL(verify.exit_code, 0);
    spx_process_result_t run = SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(run.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(run.out, "Hello, world!\n5! = 120\nfib(10) = 55\ntop word: to (2)\n");
    spx_fixture_free(fixture);
}

/* The example's run envelope (semaprax run --envelope, language v3) equals
 * tests/golden/hello/run-envelope.json byte for byte, its arguments
 * recorded; the golden file verifies, which re-runs the function with them. */
static void test_example_run_envelope_matches_golden(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest =
        apr_pstrcat(fixture->pool, spx_program_path("SPX_EXAMPLES"), "/hello/semaprax.toml", NULL);
    const char *path = spx_fixture_path(fixture, "run-envelope.json");
    spx_process_result_t run = SPX_RUN_SEMAPRAX(fixture->pool, "run", "--manifest-path", manifest,
                                                "--envelope", path, "--", "x", "--y");
    CU_ASSERT_EQUAL(run.exit_code, 0);
    apr_size_t length = 0;
    const char *golden_path = apr_pstrcat(
        fixture->pool, spx_corpus_dir("golden/hello", fixture->pool), "/run-envelope.json", NULL);
    const char *golden = spx_corpus_read(golden_path, &length, fixture->pool);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "run-envelope.json"), golden);
    spx_assert_contains(golden, "\"args\":[\"x\",\"--y\"]");
    spx_process_result_t verify =
        SPX_RUN_SEMAPRAX(fixture->pool, "verify", golden_path, "--manifest-path", manifest);
    CU_ASSERT_EQUAL(verify.exit_code, 0);
    spx_assert_contains(verify.out, "semaprax: the envelope is verified\n");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"run: exit statuses, output, failures", test_run_exit_statuses},
        {"run and test refuse bad projects and limits",
         test_run_and_test_refuse_bad_projects_and_limits},
        {"test: summary lines and a deterministic envelope", test_test_summary_and_envelope},
        {"verify says which check failed", test_verify_says_which_check_failed},
        {"--max-memory: recorded in the envelope, re-run by verify",
         test_max_memory_in_the_envelope},
        {"the example's envelope matches its golden file", test_example_envelope_matches_golden},
        {"the example's run envelope matches its golden file",
         test_example_run_envelope_matches_golden},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("semaprax run, test, verify", tests);
}
