/*
 * run.c: running a project (spx_op_run.h): the table of run limits and the
 * one check of a value given for one, the test operation (selection,
 * progress, the envelope, and the typed runs kept from the engine's
 * observer, never read back from the envelope), the entry's run and the
 * verification of an envelope file.
 */
#include "spx_op_run.h"

#include "spx_assert.h"
#include "spx_codes.h"
#include "spx_limits.h"
#include "spx_utf8.h"

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_strings.h>
#include <string.h>

/* --- the run limits ---------------------------------------------------------- */

const spx_op_run_limit_t spx_op_run_limits[SPX_OP_RUN_LIMIT_COUNT] = {
    {"max_steps", "--max-steps", 0, SPX_LIMIT_MAX_STEPS_MAXIMUM, SPX_LIMIT_MAX_STEPS_DEFAULT},
    {"max_bytes", "--max-bytes", 0, SPX_LIMIT_MAX_BYTES_MAXIMUM, SPX_LIMIT_MAX_BYTES_DEFAULT},
    {"max_memory", "--max-memory", 0, SPX_LIMIT_MAX_MEMORY_MAXIMUM, SPX_LIMIT_MAX_MEMORY_DEFAULT},
    {"max_call_depth", "--max-call-depth", 1, SPX_LIMIT_CALL_DEPTH_MAXIMUM,
     SPX_LIMIT_CALL_DEPTH_DEFAULT},
};

/* The value of spx_op_run_limits[which] in the limits of a run. */
static apr_uint64_t limit_of(const spx_run_limits_t *limits, apr_size_t which)
{
    switch (which) {
    case 0:
        return limits->max_steps;
    case 1:
        return limits->max_bytes;
    case 2:
        return limits->max_memory;
    default:
        SPX_ASSERT(which == 3);
        return limits->max_call_depth;
    }
}

/* Where spx_op_run_limits[which] goes in the limits of a run. */
static void set_limit(spx_run_limits_t *limits, apr_size_t which, apr_uint64_t value)
{
    switch (which) {
    case 0:
        limits->max_steps = value;
        limits->unset &= ~SPX_RUN_UNSET_STEPS;
        break;
    case 1:
        limits->max_bytes = (apr_size_t)value;
        break;
    case 2:
        limits->max_memory = value;
        limits->unset &= ~SPX_RUN_UNSET_MEMORY;
        break;
    default:
        SPX_ASSERT(which == 3);
        limits->max_call_depth = (unsigned)value;
        limits->unset &= ~SPX_RUN_UNSET_DEPTH;
        break;
    }
}

spx_op_limit_verdict_t spx_op_run_limit_apply(spx_run_limits_t *limits, apr_size_t which,
                                              apr_uint64_t value)
{
    SPX_ASSERT(which < SPX_OP_RUN_LIMIT_COUNT);
    const spx_op_run_limit_t *limit = &spx_op_run_limits[which];
    if (value < limit->minimum)
        return SPX_OP_LIMIT_UNDER_MINIMUM;
    if (value > limit->maximum)
        return SPX_OP_LIMIT_OVER_MAXIMUM;
    set_limit(limits, which, value);
    return SPX_OP_LIMIT_APPLIED;
}

const char *spx_op_limit_hint(const spx_run_result_t *result, spx_op_limit_naming_t naming,
                              apr_pool_t *pool)
{
    int which = spx_op_run_limit_reached(result);
    if (which < 0)
        return NULL;
    const spx_op_run_limit_t *limit = &spx_op_run_limits[which];
    apr_uint64_t now = limit_of(&result->limits, (apr_size_t)which);
    const char *name = naming == SPX_OP_LIMIT_BY_OPTION ? limit->option : limit->param;
    if (now >= limit->maximum)
        return apr_psprintf(pool, "%s is at its maximum (%" APR_UINT64_T_FMT ")", name,
                            limit->maximum);
    return apr_psprintf(pool, "raise %s (now %" APR_UINT64_T_FMT ")", name, now);
}

spx_run_limits_t spx_op_test_limits_default(void)
{
    spx_run_limits_t limits = spx_run_limits_default(); /* no arguments */
    for (apr_size_t i = 0; i < SPX_OP_RUN_LIMIT_COUNT; i++)
        set_limit(&limits, i, spx_op_run_limits[i].default_value);
    limits.unset = SPX_RUN_UNSET_ALL; /* defaults, not the command's */
    return limits;
}

spx_run_limits_t spx_op_entry_limits_default(void)
{
    spx_run_limits_t limits = spx_op_test_limits_default();
    limits.max_bytes = SPX_LIMIT_MAX_BYTES_MAXIMUM; /* a program's output, not a test's */
    return limits;
}

/* --- the test operation -------------------------------------------------------- */

/* The engine's observer of a test operation: keeps each run, typed, in the
 * result's pool, then tells the front end's observer. */
typedef struct keeper_t {
    spx_op_test_result_t *result;
    const spx_envelope_observer_t *observer; /* the front end's, or NULL */
    apr_pool_t *pool;
} keeper_t;

static void before_test(void *context, apr_size_t index, apr_size_t total, const char *name)
{
    const keeper_t *keeper = context;
    if (keeper->observer && keeper->observer->before)
        keeper->observer->before(keeper->observer->context, index, total, name);
}

static void after_test(void *context, apr_size_t index, apr_size_t total, const spx_test_run_t *run)
{
    keeper_t *keeper = context;
    apr_pool_t *pool = keeper->pool;
    spx_test_run_t *kept = apr_array_push(keeper->result->tests);
    *kept = *run;
    kept->name = apr_pstrdup(pool, run->name);
    kept->function = apr_pstrdup(pool, run->function);
    kept->result.output = apr_pstrmemdup(pool, run->result.output, run->result.output_length);
    if (run->result.outcome != SPX_OUTCOME_RETURNED) {
        kept->result.failure.code = apr_pstrdup(pool, run->result.failure.code);
        kept->result.failure.message = apr_pstrdup(pool, run->result.failure.message);
        kept->result.failure.path = apr_pstrdup(pool, run->result.failure.path);
    }
    spx_test_summary_add(&keeper->result->summary, run->outcome);
    if (keeper->observer && keeper->observer->after)
        keeper->observer->after(keeper->observer->context, index, total, kept);
}

spx_op_test_problem_t spx_op_test(const spx_project_t *project,
                                  const spx_op_test_request_t *request,
                                  spx_op_test_result_t *result, apr_pool_t *pool,
                                  const char **message)
{
    *result = (spx_op_test_result_t){0};
    *message = NULL;
    spx_test_selection_t *selection = NULL;
    apr_status_t selected =
        request->names ? spx_test_selection_make(project, request->names, request->name_count,
                                                 &selection, pool, message)
                       : APR_SUCCESS;
    if (selected != APR_SUCCESS)
        return selected == APR_ENOENT ? SPX_OP_TEST_UNKNOWN_NAME : SPX_OP_TEST_NOT_RUN;
    result->tests = apr_array_make(pool, 8, sizeof(spx_test_run_t));
    keeper_t keeper = {result, request->observer, pool};
    spx_envelope_observer_t observer = {before_test, after_test, &keeper};
    spx_envelope_bound_t bound = {
        request->max_answer_bytes ? request->max_answer_bytes : SPX_LIMIT_ENVELOPE_BYTES, 0};
    apr_status_t built =
        spx_envelope_build_interruptible(project, &request->limits, selection, &observer, &bound,
                                         request->interrupt, &result->envelope, pool, message);
    spx_test_selection_free(selection);
    result->records_bytes = bound.reached;
    result->answer_bytes = bound.max_bytes;
    if (built == APR_ENOSPC)
        return SPX_OP_TEST_TOO_LARGE;
    if (built != APR_SUCCESS) {
        SPX_ASSERT(*message != NULL); /* every failure of the build says why */
        return built == SPX_STATUS_INTERRUPTED ? SPX_OP_TEST_INTERRUPTED : SPX_OP_TEST_NOT_RUN;
    }
    result->command_succeeded = spx_test_summary_succeeded(&result->summary);
    return SPX_OP_TEST_RAN;
}

/* The first line of message, cut to SPX_LIMIT_FAILING_TEST_MESSAGE_BYTES
 * at a UTF-8 boundary, marked "..." when cut or when more lines follow (in
 * pool). */
static const char *first_line(const char *message, apr_pool_t *pool)
{
    apr_size_t length = strcspn(message, "\r\n");
    apr_size_t kept = length;
    if (kept > SPX_LIMIT_FAILING_TEST_MESSAGE_BYTES)
        kept = spx_utf8_cut((const unsigned char *)message, length,
                            SPX_LIMIT_FAILING_TEST_MESSAGE_BYTES - 3);
    return apr_pstrcat(pool, apr_pstrndup(pool, message, kept),
                       kept < length || message[length] ? "..." : "", NULL);
}

/* One test that did not pass: "name (outcome ...)". */
static const char *failing_test(const spx_test_run_t *test, spx_op_limit_naming_t naming,
                                apr_pool_t *pool)
{
    const spx_run_result_t *result = &test->result;
    if (result->outcome == SPX_OUTCOME_RETURNED)
        return apr_psprintf(pool, "%s (%s: returned %" APR_INT64_T_FMT ")", test->name,
                            spx_test_outcome_name(test->outcome), (apr_int64_t)result->value);
    const spx_failure_t *failure = &result->failure;
    const char *hint = spx_op_limit_hint(result, naming, pool);
    return apr_psprintf(
        pool, "%s (%s after %" APR_UINT64_T_FMT " steps at %s:%u:%u: %s %s%s%s)", test->name,
        spx_test_outcome_name(test->outcome), (apr_uint64_t)result->steps, failure->path,
        (unsigned)failure->span.start.line, (unsigned)failure->span.start.column, failure->code,
        first_line(failure->message, pool), hint ? "; " : "", hint ? hint : "");
}

const char *spx_op_test_failures_sentence(const spx_op_test_result_t *run,
                                          spx_op_limit_naming_t naming, apr_pool_t *pool)
{
    const spx_test_summary_t *summary = &run->summary;
    apr_size_t failing = summary->total - summary->by_outcome[SPX_TEST_PASSED];
    if (failing == 0)
        return NULL;
    const char *text =
        apr_psprintf(pool, "%" APR_SIZE_T_FMT " of %" APR_SIZE_T_FMT " test%s failed:", failing,
                     summary->total, summary->total == 1 ? "" : "s");
    apr_size_t named = 0;
    for (int i = 0; run->tests && i < run->tests->nelts; i++) {
        const spx_test_run_t *test = &APR_ARRAY_IDX(run->tests, i, spx_test_run_t);
        if (test->outcome == SPX_TEST_PASSED)
            continue;
        if (named == SPX_LIMIT_FAILING_TESTS_NAMED) {
            text = apr_psprintf(pool, "%s, and %" APR_SIZE_T_FMT " more", text, failing - named);
            break;
        }
        text = apr_pstrcat(pool, text, named ? ", " : " ", failing_test(test, naming, pool), NULL);
        named++;
    }
    return text;
}

/* --- the entry ---------------------------------------------------------------- */

apr_status_t spx_op_run_entry(const spx_project_t *project, const spx_run_limits_t *limits,
                              spx_op_entry_result_t *result, apr_pool_t *pool, const char **message)
{
    return spx_op_run_function(project, NULL, limits, result, NULL, pool, message);
}

const char *spx_op_run_arguments_problem(const char *const *arguments, apr_size_t count,
                                         apr_pool_t *pool)
{
    if (count > SPX_LIMIT_RUN_ARGUMENTS)
        return apr_psprintf(pool, "%" APR_SIZE_T_FMT " program arguments, over the limit of %u",
                            count, SPX_LIMIT_RUN_ARGUMENTS);
    apr_size_t total = 0;
    for (apr_size_t i = 0; i < count; i++) {
        apr_size_t length = strlen(arguments[i]);
        total += length;
        if (total > SPX_LIMIT_RUN_ARGUMENT_BYTES)
            return apr_psprintf(pool,
                                "the program arguments come to more than %u bytes, the limit "
                                "for all of them",
                                SPX_LIMIT_RUN_ARGUMENT_BYTES);
        for (apr_size_t at = 0; at < length;) {
            apr_size_t size =
                spx_utf8_length((const unsigned char *)arguments[i] + at, length - at);
            if (size == 0)
                return apr_psprintf(pool,
                                    "program argument %" APR_SIZE_T_FMT
                                    " is not valid UTF-8 (at byte %" APR_SIZE_T_FMT ")",
                                    i + 1, at);
            at += size;
        }
    }
    return NULL;
}

apr_status_t spx_op_run_function(const spx_project_t *project, const char *function,
                                 const spx_run_limits_t *limits, spx_op_entry_result_t *result,
                                 json_t **envelope, apr_pool_t *pool, const char **message)
{
    return spx_op_run_function_interruptible(project, function, limits, NULL, result, envelope,
                                             pool, message);
}

apr_status_t spx_op_run_function_interruptible(const spx_project_t *project, const char *function,
                                               const spx_run_limits_t *limits,
                                               const spx_run_interrupt_t *interrupt,
                                               spx_op_entry_result_t *result, json_t **envelope,
                                               apr_pool_t *pool, const char **message)
{
    *result = (spx_op_entry_result_t){0};
    result->entry = function ? function : spx_project_entry_name(project);
    const char *problem =
        spx_op_run_arguments_problem(limits->arguments, limits->argument_count, pool);
    if (problem) {
        *message = problem;
        return APR_EINVAL;
    }
    apr_status_t status =
        envelope ? spx_run_envelope_build_interruptible(project, function, limits, interrupt,
                                                        &result->run, envelope, pool, message)
                 : spx_run_function_interruptible(project, function, limits, interrupt,
                                                  &result->run, pool, message);
    if (status != APR_SUCCESS)
        return status;
    result->outcome = spx_test_outcome(&result->run);
    result->succeeded = result->outcome == SPX_TEST_PASSED;
    return APR_SUCCESS;
}

int spx_op_run_limit_reached(const spx_run_result_t *run)
{
    switch (spx_run_stopped_by(run)) {
    case SPX_RUN_LIMIT_STEPS:
        return 0;
    case SPX_RUN_LIMIT_MEMORY:
        return 2;
    case SPX_RUN_LIMIT_DEPTH:
        return 3;
    default:
        return -1;
    }
}

/* --- verify ---------------------------------------------------------------------- */

spx_op_envelope_problem_t spx_op_envelope_read(const char *path, const char **bytes,
                                               apr_size_t *length, apr_status_t *status,
                                               apr_pool_t *pool)
{
    apr_file_t *file = NULL;
    apr_finfo_t info;
    *status =
        apr_file_open(&file, path, APR_FOPEN_READ | APR_FOPEN_BINARY, APR_FPROT_OS_DEFAULT, pool);
    if (*status == APR_SUCCESS)
        *status = apr_file_info_get(&info, APR_FINFO_SIZE, file);
    if (*status == APR_SUCCESS && (info.size < 0 || info.size > SPX_LIMIT_ENVELOPE_BYTES)) {
        apr_file_close(file);
        return SPX_OP_ENVELOPE_TOO_LARGE;
    }
    if (*status == APR_SUCCESS) {
        char *read = apr_palloc(pool, (apr_size_t)info.size + 1);
        *length = (apr_size_t)info.size;
        *status = apr_file_read_full(file, read, *length, NULL);
        if (*status == APR_EOF && *length == 0)
            *status = APR_SUCCESS;
        *bytes = read;
    }
    if (file)
        apr_file_close(file);
    return *status == APR_SUCCESS ? SPX_OP_ENVELOPE_READ : SPX_OP_ENVELOPE_UNREADABLE;
}

void spx_op_verify(const char *bytes, apr_size_t length, const char *manifest_path,
                   spx_op_verify_result_t *result, apr_pool_t *pool)
{
    apr_status_t status = spx_envelope_verify(bytes, length, manifest_path, &result->report, pool);
    SPX_ASSERT(status == APR_SUCCESS); /* its checks fail in the report, never here */
    (void)status;
    const spx_verify_report_t *report = &result->report;
    result->verified = report->digest_ok && report->subject_ok && report->rerun_ok;
}
