/*
 * envelope.c: running the entry, the test closure and its execution envelope
 * semaprax.project-execution.v1, and the three checks of `verify`
 * (outputs.md, Execution envelope).
 *
 * The closure is exactly the manifest's [[test]] tables, in order, each run
 * with fresh fuel on the program compiled once from the admitted project;
 * `semaprax test NAME...` runs a selection of them, still in manifest
 * order, and the envelope records it so that verify re-runs the same.
 * The envelope holds only content (digests of the inputs, limits, outcomes,
 * outputs), never a machine identity, so it verifies on any platform.
 */
#include "spx_envelope.h"

#include "project_internal.h"
#include "spx_program.h"

#include "spx_assert.h"
#include "spx_canonical.h"
#include "spx_limits.h"
#include "spx_suggest.h"

#include <apr_hash.h>
#include <apr_strings.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

spx_test_outcome_t spx_test_outcome(const spx_run_result_t *result)
{
    switch (result->outcome) {
    case SPX_OUTCOME_RETURNED:
        return result->value == 0 ? SPX_TEST_PASSED : SPX_TEST_FAILED;
    case SPX_OUTCOME_LANGUAGE_FAILURE:
        return SPX_TEST_LANGUAGE_FAILURE;
    case SPX_OUTCOME_FUEL_EXHAUSTED:
        return SPX_TEST_FUEL_EXHAUSTED;
    default:
        SPX_ASSERT(result->outcome == SPX_OUTCOME_DEPTH_EXHAUSTED);
        return SPX_TEST_DEPTH_EXHAUSTED;
    }
}

/* Indexed by spx_test_outcome_t: the envelope's names, which are also the
 * keys of its "summary". */
static const char *const outcome_names[SPX_TEST_OUTCOME_COUNT] = {
    "passed", "failed", "language_failure", "fuel_exhausted", "depth_exhausted"};

const char *spx_test_outcome_name(spx_test_outcome_t outcome)
{
    SPX_ASSERT((unsigned)outcome < SPX_TEST_OUTCOME_COUNT);
    return outcome_names[outcome];
}

const char *spx_outcome_words(spx_test_outcome_t outcome)
{
    if (outcome == SPX_TEST_FUEL_EXHAUSTED)
        return "out of fuel";
    if (outcome == SPX_TEST_DEPTH_EXHAUSTED)
        return "out of call depth";
    return spx_test_outcome_name(outcome);
}

void spx_test_summary_add(spx_test_summary_t *summary, spx_test_outcome_t outcome)
{
    SPX_ASSERT((unsigned)outcome < SPX_TEST_OUTCOME_COUNT);
    summary->total++;
    summary->by_outcome[outcome]++;
}

int spx_test_summary_succeeded(const spx_test_summary_t *summary)
{
    return summary->by_outcome[SPX_TEST_PASSED] == summary->total;
}

json_t *spx_failure_json(const spx_failure_t *failure)
{
    return json_pack("{s:s, s:s, s:s, s:o}", "code", failure->code, "message", failure->message,
                     "path", failure->path, "span", spx_span_json(&failure->span));
}

/* The project's program, when the function root (a run's) or, when NULL,
 * the tests reach only functions it could compile. */
static apr_status_t compile(const spx_project_t *project, const char *root, spx_program_t **program,
                            apr_pool_t *pool, const char **message)
{
    if (!project->admitted) {
        *message = "the project is not admitted";
        return APR_EINVAL;
    }
    if (project->diagnostics_only) {
        *message = "the project was built for its diagnostics only: it has no code";
        return APR_EINVAL;
    }
    const spx_manifest_t *manifest = project->manifest;
    const char **roots = apr_pcalloc(pool, (manifest->test_count + 2) * sizeof(*roots));
    if (root)
        roots[0] = root;
    else
        for (apr_size_t i = 0; i < manifest->test_count; i++)
            roots[i] = manifest->tests[i].function;
    *program = project->program;
    return spx_program_check_roots(project->program, roots, pool, message);
}

/* v3: the limits a run goes by: for each of max_steps, max_memory and
 * max_call_depth, the command's value when it gave one, then the test's own
 * key (test NULL for `semaprax run`), then [limits]'s, then the default
 * (the command's value when it gave none). */
static spx_run_limits_t effective_limits(const spx_run_limits_t *command,
                                         const spx_manifest_t *manifest,
                                         const spx_manifest_test_t *test)
{
    spx_run_limits_t limits = *command;
    const spx_manifest_limits_t *own = test ? &test->limits : NULL, *all = &manifest->limits;
    if (command->unset & SPX_RUN_UNSET_STEPS) {
        if (own && own->has_max_steps)
            limits.max_steps = own->max_steps;
        else if (all->has_max_steps)
            limits.max_steps = all->max_steps;
    }
    if (command->unset & SPX_RUN_UNSET_MEMORY) {
        if (own && own->has_max_memory)
            limits.max_memory = own->max_memory;
        else if (all->has_max_memory)
            limits.max_memory = all->max_memory;
    }
    if (command->unset & SPX_RUN_UNSET_DEPTH) {
        if (own && own->has_max_call_depth)
            limits.max_call_depth = (unsigned)own->max_call_depth;
        else if (all->has_max_call_depth)
            limits.max_call_depth = (unsigned)all->max_call_depth;
    }
    return limits;
}

/* v3: the command's limits: max_bytes, and the others only when given. */
static json_t *command_limits_json(const spx_run_limits_t *limits)
{
    json_t *command = json_pack("{s:I}", "max_bytes", (json_int_t)limits->max_bytes);
    if (!(limits->unset & SPX_RUN_UNSET_STEPS))
        json_object_set_new(command, "max_steps", json_integer((json_int_t)limits->max_steps));
    if (!(limits->unset & SPX_RUN_UNSET_MEMORY))
        json_object_set_new(command, "max_memory", json_integer((json_int_t)limits->max_memory));
    if (!(limits->unset & SPX_RUN_UNSET_DEPTH))
        json_object_set_new(command, "max_call_depth",
                            json_integer((json_int_t)limits->max_call_depth));
    return command;
}

/* A run's effective limits, as each test records them. */
static json_t *effective_limits_json(const spx_run_limits_t *effective)
{
    return json_pack("{s:I, s:I, s:I}", "max_call_depth", (json_int_t)effective->max_call_depth,
                     "max_memory", (json_int_t)effective->max_memory, "max_steps",
                     (json_int_t)effective->max_steps);
}

/* Run function (a "module.function" name of the manifest) of program,
 * asking interrupt (may be NULL) between steps. */
static apr_status_t run_named(const spx_program_t *program, const char *function,
                              const spx_run_limits_t *limits, const spx_run_interrupt_t *interrupt,
                              spx_run_result_t *result, apr_pool_t *pool, const char **message)
{
    apr_status_t status = spx_vm_run_interruptible(program, spx_program_find(program, function),
                                                   limits, interrupt, result, pool);
    if (status == SPX_STATUS_INTERRUPTED)
        *message = apr_psprintf(pool, "the run of '%s' was interrupted", function);
    else if (status != APR_SUCCESS)
        *message = apr_psprintf(pool, "cannot run '%s' with these limits", function);
    return status;
}

apr_status_t spx_run_entry(const spx_project_t *project, const spx_run_limits_t *limits,
                           spx_run_result_t *result, apr_pool_t *pool, const char **message)
{
    return spx_run_function(project, NULL, limits, result, pool, message);
}

apr_status_t spx_run_function_interruptible(const spx_project_t *project, const char *function,
                                            const spx_run_limits_t *limits,
                                            const spx_run_interrupt_t *interrupt,
                                            spx_run_result_t *result, apr_pool_t *pool,
                                            const char **message)
{
    if (!function && project->admitted && !project->manifest->entry) {
        *message = "the manifest declares no entry; give one with --entry MOD.FN";
        return APR_EINVAL;
    }
    if (!function)
        function = project->manifest->entry;
    else if (project->admitted && (*message = spx_run_target_problem(project, function, pool)))
        return APR_EINVAL;
    spx_program_t *program = NULL;
    apr_status_t status = compile(project, function, &program, pool, message);
    if (status != APR_SUCCESS)
        return status;
    spx_run_limits_t effective = effective_limits(limits, project->manifest, NULL);
    return run_named(program, function, &effective, interrupt, result, pool, message);
}

apr_status_t spx_run_function(const spx_project_t *project, const char *function,
                              const spx_run_limits_t *limits, spx_run_result_t *result,
                              apr_pool_t *pool, const char **message)
{
    return spx_run_function_interruptible(project, function, limits, NULL, result, pool, message);
}

static int compare_by_path(const void *left, const void *right)
{
    return strcmp((*(const spx_input_t *const *)left)->path,
                  (*(const spx_input_t *const *)right)->path);
}

/* {"project_revision","manifest","sources":[{"digest","path"}...]}, sources
 * sorted by path: what the envelope's results are about. */
static json_t *subject_json(const spx_project_t *project, apr_pool_t *pool)
{
    apr_size_t count = spx_input_set_source_count(project->inputs);
    const spx_input_t **sorted = apr_palloc(pool, (count + 1) * sizeof(*sorted));
    for (apr_size_t i = 0; i < count; i++)
        sorted[i] = spx_input_set_source(project->inputs, i);
    qsort(sorted, count, sizeof(*sorted), compare_by_path);
    json_t *sources = json_array();
    for (apr_size_t i = 0; i < count; i++)
        json_array_append_new(sources, json_pack("{s:s, s:s}", "digest", sorted[i]->digest_text,
                                                 "path", sorted[i]->path));
    json_t *subject =
        json_pack("{s:s, s:s, s:o}", "project_revision", project->project_revision, "manifest",
                  spx_input_set_manifest(project->inputs)->digest_text, "sources", sources);
    if (spx_project_data_count(project) > 0) /* v3: [{"digest","path"}], sorted by path */
        json_object_set_new(subject, "data", spx_project_data_list(project, 0));
    return subject;
}

/* One test's record; NULL when its output is not UTF-8 (it always is: every
 * string value is made from checked UTF-8 source text). */
static json_t *test_json(const spx_test_run_t *run)
{
    const spx_run_result_t *result = &run->result;
    json_t *output = json_stringn(result->output, result->output_length);
    SPX_ASSERT(output != NULL);
    if (!output)
        return NULL;
    json_t *record = json_pack("{s:s, s:s, s:s, s:I, s:o, s:b}", "name", run->name, "function",
                               run->function, "outcome", spx_test_outcome_name(run->outcome),
                               "steps", (json_int_t)result->steps, "output", output,
                               "output_truncated", result->output_truncated);
    if (result->outcome == SPX_OUTCOME_RETURNED)
        json_object_set_new(record, "value", json_integer((json_int_t)result->value));
    else
        json_object_set_new(record, "failure", spx_failure_json(&result->failure));
    return record;
}

/* --- selecting tests ------------------------------------------------------ */

/* Why name selects no test, naming the nearest test names (and function
 * names, for a name with a dot). */
static const char *unknown_test(const spx_manifest_t *manifest, const char *name, apr_pool_t *pool)
{
    int qualified = strchr(name, '.') != NULL;
    const char **candidates = apr_pcalloc(pool, (manifest->test_count + 1) * sizeof(*candidates));
    for (apr_size_t i = 0; i < manifest->test_count; i++)
        candidates[i] = qualified ? manifest->tests[i].function : manifest->tests[i].name;
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
    size_t found =
        spx_suggest_nearest(name, candidates, manifest->test_count, SPX_LIMIT_SUGGESTIONS, nearest);
    const char *text = apr_psprintf(pool, "no test '%s' in this project", name);
    for (size_t i = 0; i < found; i++)
        text = apr_pstrcat(pool, text, i ? ", " : "; nearest: ", nearest[i], NULL);
    return text;
}

apr_status_t spx_test_selection_make(const spx_project_t *project, const char *const *names,
                                     apr_size_t count, spx_test_selection_t **made,
                                     apr_pool_t *pool, const char **message)
{
    if (!project->admitted) {
        *message = "the project is not admitted";
        return APR_EINVAL;
    }
    const spx_manifest_t *manifest = project->manifest;
    unsigned char *selected = apr_pcalloc(pool, manifest->test_count + 1);
    for (apr_size_t n = 0; n < count; n++) {
        apr_size_t by_name = manifest->test_count, by_function = manifest->test_count;
        apr_size_t functions = 0;
        for (apr_size_t i = 0; i < manifest->test_count; i++) {
            if (strcmp(manifest->tests[i].name, names[n]) == 0)
                by_name = i;
            if (strcmp(manifest->tests[i].function, names[n]) == 0 && functions++ == 0)
                by_function = i;
        }
        if (by_name < manifest->test_count) {
            selected[by_name] = 1;
        } else if (functions == 1) {
            selected[by_function] = 1;
        } else if (functions > 1) {
            *message = apr_psprintf(pool,
                                    "%" APR_SIZE_T_FMT " tests run the function '%s'; name the "
                                    "test instead (first '%s')",
                                    functions, names[n], manifest->tests[by_function].name);
            return APR_ENOENT;
        } else {
            *message = unknown_test(manifest, names[n], pool);
            return APR_ENOENT;
        }
    }
    spx_test_selection_t *selection = apr_pcalloc(pool, sizeof(*selection));
    selection->selected = selected;
    selection->names = json_array();
    for (apr_size_t i = 0; i < manifest->test_count; i++)
        if (selected[i])
            json_array_append_new(selection->names, json_string(manifest->tests[i].name));
    *made = selection;
    return APR_SUCCESS;
}

void spx_test_selection_free(spx_test_selection_t *selection)
{
    if (selection)
        json_decref(selection->names);
}

/* --- the closure ----------------------------------------------------------- */

/* Count record, the test's at index (from 0), into bound->reached (its
 * canonical bytes, measured without rendering it, and the comma before
 * it): 1 while the records stay within bound->max_bytes. */
static int within_bound(spx_envelope_bound_t *bound, const json_t *record, apr_size_t index)
{
    bound->reached += json_dumpb(record, NULL, 0, SPX_CANONICAL_FLAGS) + (index ? 1 : 0);
    return bound->reached <= bound->max_bytes;
}

/* The envelope of an admitted project without its digest. */
static apr_status_t closure(const spx_project_t *project, const spx_run_limits_t *limits,
                            const spx_test_selection_t *selection,
                            const spx_envelope_observer_t *observer, spx_envelope_bound_t *bound,
                            const spx_run_interrupt_t *interrupt, json_t **envelope,
                            apr_pool_t *pool, const char **message)
{
    spx_program_t *program = NULL;
    apr_status_t status = compile(project, NULL, &program, pool, message);
    if (status != APR_SUCCESS)
        return status;
    apr_size_t total =
        selection ? json_array_size(selection->names) : project->manifest->test_count;
    spx_test_summary_t summary = {0, {0}}; /* summary.total: the tests run so far */
    json_t *tests = json_array();
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    for (apr_size_t i = 0; i < project->manifest->test_count && status == APR_SUCCESS; i++) {
        const spx_manifest_test_t *test = &project->manifest->tests[i];
        if (selection && !selection->selected[i])
            continue;
        apr_size_t index = summary.total;
        if (observer && observer->before)
            observer->before(observer->context, index, total, test->name);
        spx_test_run_t run = {test->name, test->function, SPX_TEST_PASSED, {0}};
        spx_run_limits_t effective = effective_limits(limits, project->manifest, test);
        status = run_named(program, test->function, &effective, interrupt, &run.result, scratch,
                           message);
        json_t *record = NULL;
        if (status == APR_SUCCESS) {
            run.outcome = spx_test_outcome(&run.result);
            record = test_json(&run);
        }
        if (record) /* v3: what it ran under */
            json_object_set_new(record, "limits", effective_limits_json(&effective));
        if (status == APR_SUCCESS && !record) {
            *message = apr_psprintf(pool, "test '%s' printed bytes that are not UTF-8", test->name);
            status = APR_EGENERAL;
        }
        if (status == APR_SUCCESS && bound && !within_bound(bound, record, summary.total)) {
            *message = apr_psprintf(pool,
                                    "the envelope's test records reached %" APR_UINT64_T_FMT
                                    " bytes at test %" APR_SIZE_T_FMT " of %" APR_SIZE_T_FMT
                                    " ('%s'), over the %" APR_UINT64_T_FMT
                                    " its answer can hold, so the run stopped there",
                                    bound->reached, summary.total + 1, total, test->name,
                                    bound->max_bytes);
            json_decref(record);
            status = APR_ENOSPC;
        }
        if (status == APR_SUCCESS) {
            spx_test_summary_add(&summary, run.outcome);
            json_array_append_new(tests, record);
            if (observer && observer->after)
                observer->after(observer->context, index, total, &run);
        } else {
            *message = apr_pstrdup(pool, *message);
        }
        apr_pool_clear(scratch);
    }
    apr_pool_destroy(scratch);
    if (status != APR_SUCCESS) {
        json_decref(tests);
        return status;
    }
    SPX_ASSERT(summary.total == total);
    json_t *counts = json_pack("{s:I}", "total", (json_int_t)total);
    for (apr_size_t k = 0; k < SPX_TEST_OUTCOME_COUNT; k++)
        json_object_set_new(counts, outcome_names[k],
                            json_integer((json_int_t)summary.by_outcome[k]));
    json_t *command = command_limits_json(limits);
    *envelope = json_pack("{s:s, s:o, s:{s:s, s:s, s:s}, s:o, s:o, s:o, s:b}", "schema",
                          SPX_ENVELOPE_SCHEMA, "subject", subject_json(project, pool), "engine",
                          "name", "semaprax", "version", SPX_VERSION, "language", SPX_LANGUAGE_NAME,
                          "limits", command, "tests", tests, "summary", counts, "command_succeeded",
                          spx_test_summary_succeeded(&summary));
    if (selection)
        json_object_set(*envelope, "selection", selection->names);
    return APR_SUCCESS;
}

apr_status_t spx_envelope_build(const spx_project_t *project, const spx_run_limits_t *limits,
                                json_t **envelope, apr_pool_t *pool, const char **message)
{
    return spx_envelope_build_observed(project, limits, NULL, envelope, pool, message);
}

apr_status_t spx_envelope_build_observed(const spx_project_t *project,
                                         const spx_run_limits_t *limits,
                                         const spx_envelope_observer_t *observer, json_t **envelope,
                                         apr_pool_t *pool, const char **message)
{
    return spx_envelope_build_selected(project, limits, NULL, observer, NULL, envelope, pool,
                                       message);
}

apr_status_t spx_envelope_build_selected(const spx_project_t *project,
                                         const spx_run_limits_t *limits,
                                         const spx_test_selection_t *selection,
                                         const spx_envelope_observer_t *observer,
                                         spx_envelope_bound_t *bound, json_t **envelope,
                                         apr_pool_t *pool, const char **message)
{
    return spx_envelope_build_interruptible(project, limits, selection, observer, bound, NULL,
                                            envelope, pool, message);
}

apr_status_t
spx_envelope_build_interruptible(const spx_project_t *project, const spx_run_limits_t *limits,
                                 const spx_test_selection_t *selection,
                                 const spx_envelope_observer_t *observer,
                                 spx_envelope_bound_t *bound, const spx_run_interrupt_t *interrupt,
                                 json_t **envelope, apr_pool_t *pool, const char **message)
{
    json_t *document = NULL;
    if (bound)
        bound->reached = 0;
    apr_status_t status =
        closure(project, limits, selection, observer, bound, interrupt, &document, pool, message);
    if (status != APR_SUCCESS)
        return status;
    json_object_set_new(document, "envelope_digest",
                        json_string(spx_canonical_digest(document, pool)));
    *envelope = document;
    return APR_SUCCESS;
}

/* --- the run envelope (v3) ------------------------------------------------- */

apr_status_t spx_run_envelope_build(const spx_project_t *project, const char *function,
                                    const spx_run_limits_t *limits, spx_run_result_t *result,
                                    json_t **envelope, apr_pool_t *pool, const char **message)
{
    return spx_run_envelope_build_interruptible(project, function, limits, NULL, result, envelope,
                                                pool, message);
}

apr_status_t spx_run_envelope_build_interruptible(const spx_project_t *project,
                                                  const char *function,
                                                  const spx_run_limits_t *limits,
                                                  const spx_run_interrupt_t *interrupt,
                                                  spx_run_result_t *result, json_t **envelope,
                                                  apr_pool_t *pool, const char **message)
{
    apr_status_t status =
        spx_run_function_interruptible(project, function, limits, interrupt, result, pool, message);
    if (status != APR_SUCCESS)
        return status;
    spx_test_run_t run = {"", function ? function : project->manifest->entry,
                          spx_test_outcome(result), *result};
    json_t *record = test_json(&run);
    if (!record) {
        *message = "the run printed bytes that are not UTF-8";
        return APR_EGENERAL;
    }
    json_object_del(record, "name");
    json_t *arguments = json_array();
    for (apr_size_t i = 0; limits->arguments && i < limits->argument_count; i++)
        json_array_append_new(arguments, json_string(limits->arguments[i]));
    json_object_set_new(record, "args", arguments);
    spx_run_limits_t effective = effective_limits(limits, project->manifest, NULL);
    json_object_set_new(record, "limits", effective_limits_json(&effective));
    json_t *document =
        json_pack("{s:s, s:o, s:{s:s, s:s, s:s}, s:o, s:o, s:b}", "schema", SPX_RUN_ENVELOPE_SCHEMA,
                  "subject", subject_json(project, pool), "engine", "name", "semaprax", "version",
                  SPX_VERSION, "language", SPX_LANGUAGE_NAME, "limits", command_limits_json(limits),
                  "run", record, "command_succeeded", run.outcome == SPX_TEST_PASSED);
    json_object_set_new(document, "envelope_digest",
                        json_string(spx_canonical_digest(document, pool)));
    *envelope = document;
    return APR_SUCCESS;
}

/* --- verify ---------------------------------------------------------------- */

/* The first place where the two JSON values differ, as a path like
 * "tests[0].outcome"; NULL when they are equal. */
static const char *first_difference(const json_t *a, const json_t *b, const char *where,
                                    apr_pool_t *pool)
{
    if (a && b && json_equal(a, b))
        return NULL;
    if (!a || !b)
        return apr_psprintf(pool, "%s (%s)", where, a ? "missing from the re-run" : "missing");
    if (json_is_object(a) && json_is_object(b)) {
        /* keys in sorted order, so the answer does not depend on hashing */
        json_t *keys = json_object();
        const char *key;
        json_t *value;
        json_object_foreach((json_t *)a, key, value) json_object_set_new(keys, key, json_null());
        json_object_foreach((json_t *)b, key, value) json_object_set_new(keys, key, json_null());
        const char *found = NULL, *best = NULL;
        json_object_foreach(keys, key, value)
        {
            const json_t *x = json_object_get(a, key), *y = json_object_get(b, key);
            if ((!x || !y || !json_equal(x, y)) && (!best || strcmp(key, best) < 0)) {
                best = apr_pstrdup(pool, key);
                const char *path = *where ? apr_pstrcat(pool, where, ".", key, NULL) : best;
                found = x && y
                            ? first_difference(x, y, path, pool)
                            : apr_psprintf(pool, "%s (%s)", path,
                                           x ? "missing from the re-run" : "not in the envelope");
            }
        }
        json_decref(keys);
        return found;
    }
    if (json_is_array(a) && json_is_array(b)) {
        size_t n =
            json_array_size(a) < json_array_size(b) ? json_array_size(a) : json_array_size(b);
        for (size_t i = 0; i < n; i++) {
            const json_t *x = json_array_get(a, i), *y = json_array_get(b, i);
            if (!json_equal(x, y)) {
                const char *name = json_string_value(json_object_get(x, "name"));
                return first_difference(
                    x, y,
                    name ? apr_psprintf(pool, "%s[%" APR_SIZE_T_FMT "] ('%s')", where, i, name)
                         : apr_psprintf(pool, "%s[%" APR_SIZE_T_FMT "]", where, i),
                    pool);
            }
        }
        return apr_psprintf(pool,
                            "%s (%" APR_SIZE_T_FMT " entries in the envelope, %" APR_SIZE_T_FMT
                            " in the re-run)",
                            where, json_array_size(a), json_array_size(b));
    }
    /* memory running out is fatal (spx_allocation.h), so json_dumps answers */
    char *x = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    char *y = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    SPX_ASSERT(x && y);
    const char *text =
        apr_psprintf(pool, "%s (the envelope has %.80s, the re-run %.80s)", where, x, y);
    free(x);
    free(y);
    return text;
}

/* A recorded limit as a number in [minimum, maximum], or 0 with *problem. */
static int read_limit(const json_t *limits, const char *key, uint64_t minimum, uint64_t maximum,
                      uint64_t *value, const char **problem, apr_pool_t *pool)
{
    const json_t *item = json_object_get(limits, key);
    if (!json_is_integer(item) || json_integer_value(item) < 0 ||
        (uint64_t)json_integer_value(item) < minimum ||
        (uint64_t)json_integer_value(item) > maximum) {
        *problem =
            apr_psprintf(pool, "limits.%s is not a whole number from %" PRIu64 " to %" PRIu64, key,
                         minimum, maximum);
        return 0;
    }
    *value = (uint64_t)json_integer_value(item);
    return 1;
}

/* Why the closure of an envelope made for another language than this
 * engine's cannot be re-run (its programs may mean something else, and its
 * step counts may differ); NULL when engine.language is SPX_LANGUAGE_NAME. */
static const char *other_language(const json_t *envelope, apr_pool_t *pool)
{
    const json_t *language = json_object_get(json_object_get(envelope, "engine"), "language");
    const char *name = json_string_value(language);
    if (name && strcmp(name, SPX_LANGUAGE_NAME) == 0)
        return NULL;
    char *quoted = language ? json_dumps(language, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    const char *recorded =
        quoted ? apr_psprintf(pool, "is %.80s", quoted) : apr_pstrdup(pool, "is missing");
    free(quoted);
    return apr_psprintf(pool,
                        "the envelope's engine.language %s, not \"" SPX_LANGUAGE_NAME
                        "\", so its closure cannot be re-run; make a new envelope with "
                        "'semaprax test --envelope FILE'",
                        recorded);
}

/* The selection the envelope recorded (NULL when it ran the whole
 * closure), made again from the project: 0 with *problem when it is not an
 * array of one or more strings or names a test the project does not have. */
static int read_selection(const json_t *envelope, const spx_project_t *project,
                          spx_test_selection_t **selection, const char **problem, apr_pool_t *pool)
{
    const json_t *recorded = json_object_get(envelope, "selection");
    *selection = NULL;
    if (!recorded)
        return 1;
    apr_size_t count = json_is_array(recorded) ? json_array_size(recorded) : 0;
    const char **names = apr_pcalloc(pool, (count + 1) * sizeof(*names));
    for (apr_size_t i = 0; i < count; i++)
        names[i] = json_string_value(json_array_get(recorded, i));
    for (apr_size_t i = 0; i < count; i++)
        if (!names[i])
            count = 0;
    if (count == 0) {
        *problem = "selection is not an array of one or more test names";
        return 0;
    }
    const char *message = NULL;
    if (spx_test_selection_make(project, names, count, selection, pool, &message) != APR_SUCCESS) {
        *problem = apr_psprintf(pool, "the recorded selection cannot be run again: %s", message);
        return 0;
    }
    return 1;
}

static void check_rerun(const json_t *envelope, const spx_project_t *project,
                        spx_verify_report_t *report, apr_pool_t *pool)
{
    const char *problem = other_language(envelope, pool);
    if (problem) {
        report->rerun_detail = problem;
        return;
    }
    const json_t *recorded = json_object_get(envelope, "limits");
    /* v3: max_bytes always; the others only when the command gave them. */
    uint64_t steps = SPX_LIMIT_MAX_STEPS_DEFAULT, bytes = 0, depth = SPX_LIMIT_CALL_DEPTH_DEFAULT,
             memory = SPX_LIMIT_MAX_MEMORY_DEFAULT;
    unsigned unset = 0;
    if (!json_object_get(recorded, "max_steps"))
        unset |= SPX_RUN_UNSET_STEPS;
    if (!json_object_get(recorded, "max_memory"))
        unset |= SPX_RUN_UNSET_MEMORY;
    if (!json_object_get(recorded, "max_call_depth"))
        unset |= SPX_RUN_UNSET_DEPTH;
    if ((!(unset & SPX_RUN_UNSET_STEPS) &&
         !read_limit(recorded, "max_steps", 0, SPX_LIMIT_MAX_STEPS_MAXIMUM, &steps, &problem,
                     pool)) ||
        !read_limit(recorded, "max_bytes", 0, SPX_LIMIT_MAX_BYTES_MAXIMUM, &bytes, &problem,
                    pool) ||
        (!(unset & SPX_RUN_UNSET_DEPTH) &&
         !read_limit(recorded, "max_call_depth", 1, SPX_LIMIT_CALL_DEPTH_MAXIMUM, &depth, &problem,
                     pool)) ||
        (!(unset & SPX_RUN_UNSET_MEMORY) &&
         !read_limit(recorded, "max_memory", 0, SPX_LIMIT_MAX_MEMORY_MAXIMUM, &memory, &problem,
                     pool))) {
        report->rerun_detail = problem;
        return;
    }
    spx_run_limits_t limits = {steps, (apr_size_t)bytes, (unsigned)depth, memory, NULL, 0, unset};
    json_t *again = NULL;
    const char *message = NULL;
    if (!project) {
        report->rerun_detail = "the project cannot be opened";
        return;
    }
    apr_status_t built = APR_SUCCESS;
    const char *schema = json_string_value(json_object_get(envelope, "schema"));
    if (schema && strcmp(schema, SPX_RUN_ENVELOPE_SCHEMA) == 0) {
        /* v3: the run again, with its function and arguments */
        const json_t *run = json_object_get(envelope, "run");
        const char *function = json_string_value(json_object_get(run, "function"));
        const json_t *recorded_args = json_object_get(run, "args");
        size_t count = json_array_size(recorded_args);
        const char **arguments = apr_pcalloc(pool, (count + 1) * sizeof(*arguments));
        for (size_t i = 0; i < count; i++)
            if (!(arguments[i] = json_string_value(json_array_get(recorded_args, i))))
                function = NULL;
        if (!function || !json_is_array(recorded_args)) {
            report->rerun_detail = "run.function or run.args is not what a run envelope records";
            return;
        }
        limits.arguments = arguments;
        limits.argument_count = count;
        spx_run_result_t result;
        built = spx_run_envelope_build(project, function, &limits, &result, &again, pool, &message);
    } else {
        spx_test_selection_t *selection = NULL;
        if (!read_selection(envelope, project, &selection, &problem, pool)) {
            report->rerun_detail = problem;
            return;
        }
        /* A re-run past what verify reads differs from the envelope anyway. */
        spx_envelope_bound_t bound = {SPX_LIMIT_ENVELOPE_BYTES, 0};
        built = spx_envelope_build_selected(project, &limits, selection, NULL, &bound, &again, pool,
                                            &message);
        spx_test_selection_free(selection);
    }
    if (built != APR_SUCCESS) {
        report->rerun_detail = apr_psprintf(pool, "the closure cannot be re-run: %s", message);
        return;
    }
    const char *mine = spx_canonical_text(envelope, pool);
    const char *theirs = spx_canonical_text(again, pool);
    SPX_ASSERT(mine && theirs); /* NULL only when memory runs out, which is fatal */
    if (strcmp(mine, theirs) == 0) {
        report->rerun_ok = 1;
    } else {
        /* name the content that differs, not the digest that follows from it */
        json_t *mine_body = json_deep_copy(envelope), *their_body = json_deep_copy(again);
        json_object_del(mine_body, "envelope_digest");
        json_object_del(their_body, "envelope_digest");
        const char *where = first_difference(mine_body, their_body, "", pool);
        if (!where)
            where = first_difference(envelope, again, "", pool);
        report->rerun_detail =
            apr_psprintf(pool, "the re-run differs at %s", where ? where : "its bytes");
        json_decref(mine_body);
        json_decref(their_body);
    }
    json_decref(again);
}

/* The files of a subject's member ("sources", or "data": {"digest","path"}
 * each) as a hash path -> digest; NULL when they are not that shape. A
 * subject without "data" has none. */
static apr_hash_t *subject_sources(const json_t *subject, const char *member, apr_pool_t *pool)
{
    const json_t *sources = json_object_get(subject, member);
    if (!sources && strcmp(member, "data") == 0)
        return apr_hash_make(pool);
    if (!json_is_array(sources))
        return NULL;
    apr_hash_t *by_path = apr_hash_make(pool);
    size_t index;
    const json_t *source;
    json_array_foreach(sources, index, source)
    {
        const char *path = json_string_value(json_object_get(source, "path"));
        const char *digest = json_string_value(json_object_get(source, "digest"));
        if (!path || !digest)
            return NULL;
        apr_hash_set(by_path, path, APR_HASH_KEY_STRING, digest);
    }
    return by_path;
}

/* How a source of one subject differs from the other subject. */
typedef enum source_change_t { SOURCE_CHANGED, SOURCE_MISSING, SOURCE_APPEARED } source_change_t;

/* Append ", PATH WHAT" to *text for each source of listed (in its order)
 * that differs from other in the way change says: CHANGED, in other with
 * another digest; MISSING and APPEARED, not in other. */

static void name_changes(const json_t *listed, const char *member, apr_hash_t *other,
                         source_change_t change, const char **text, apr_pool_t *pool)
{
    static const char *const words[] = {"changed", "went missing (no longer declared)",
                                        "appeared (declared now, not in the envelope)"};
    size_t index;
    const json_t *source;
    json_array_foreach(json_object_get(listed, member), index, source)
    {
        const char *path = json_string_value(json_object_get(source, "path"));
        const char *digest = json_string_value(json_object_get(source, "digest"));
        const char *found = apr_hash_get(other, path, APR_HASH_KEY_STRING);
        int named = change == SOURCE_CHANGED ? found && strcmp(found, digest) != 0 : !found;
        if (named)
            *text = apr_psprintf(pool, "%s%s%s %s", *text, **text ? ", " : "", path, words[change]);
    }
}

/* The sources that differ between the envelope's subject and the one on disk,
 * each named ("src/a.spx changed, src/b.spx went missing (...), src/c.spx
 * appeared (...)", then "the manifest changed"); NULL when they cannot be
 * compared source by source or nothing of theirs differs. */
static const char *source_changes(const json_t *recorded, const json_t *now, apr_pool_t *pool)
{
    const char *text = "";
    /* The sources, then (v3) the data files, each changed, missing, appeared. */
    static const char *const members[] = {"sources", "data"};
    for (int m = 0; m < 2; m++) {
        apr_hash_t *recorded_sources = subject_sources(recorded, members[m], pool);
        apr_hash_t *sources_now = subject_sources(now, members[m], pool);
        if (!recorded_sources || !sources_now)
            return NULL;
        name_changes(recorded, members[m], sources_now, SOURCE_CHANGED, &text, pool);
        name_changes(recorded, members[m], sources_now, SOURCE_MISSING, &text, pool);
        name_changes(now, members[m], recorded_sources, SOURCE_APPEARED, &text, pool);
    }
    const json_t *manifest = json_object_get(recorded, "manifest");
    if (!json_equal(manifest, json_object_get(now, "manifest")))
        text = apr_psprintf(pool, "%s%sthe manifest changed", text, *text ? ", " : "");
    return *text ? text : NULL;
}

/* When the project cannot be opened: each source of the envelope's subject
 * read alone from the files on disk, "src/a.spx changed, src/b.spx cannot be
 * read (...)"; NULL when none differs or the subject has no sources. */
static const char *sources_on_disk(const json_t *recorded, const char *manifest_path,
                                   apr_pool_t *pool)
{
    const char *text = "";
    size_t index;
    const json_t *source;
    json_array_foreach(json_object_get(recorded, "sources"), index, source)
    {
        const char *path = json_string_value(json_object_get(source, "path"));
        const char *digest = json_string_value(json_object_get(source, "digest"));
        if (!path || !digest)
            return NULL;
        apr_pool_t *scratch = NULL;
        apr_pool_create(&scratch, pool); /* cannot fail: spx_allocation.h */
        spx_input_set_t *set = NULL;
        const char *message = NULL;
        const char *paths[] = {path};
        const char *change = NULL;
        if (spx_input_set_open(&set, manifest_path, scratch, &message) != APR_SUCCESS)
            change = NULL; /* the manifest itself: the open message says so */
        else if (spx_input_set_add_sources(set, paths, 1, &message) != APR_SUCCESS)
            change = apr_psprintf(pool, "%s went missing (%s)", path, message);
        else if (strcmp(spx_input_set_source(set, 0)->digest_text, digest) != 0)
            change = apr_psprintf(pool, "%s changed", path);
        apr_pool_destroy(scratch);
        if (change)
            text = apr_psprintf(pool, "%s%s%s", text, *text ? ", " : "", change);
    }
    return *text ? text : NULL;
}

apr_status_t spx_envelope_verify(const char *bytes, apr_size_t length, const char *manifest_path,
                                 spx_verify_report_t *report, apr_pool_t *pool)
{
    memset(report, 0, sizeof(*report));
    report->digest_detail = report->subject_detail = report->rerun_detail = "";
    json_error_t error;
    /* JSON_ALLOW_NUL: a test's output may hold U+0000, which the canonical
     * form writes as \u0000; an envelope the engine wrote must read back. */
    json_t *envelope = json_loadb(bytes, length, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
    if (!json_is_object(envelope)) {
        const char *why = envelope ? "it is not a JSON object"
                                   : apr_psprintf(pool, "it is not JSON: %s at line %d, column %d",
                                                  error.text, error.line, error.column);
        report->digest_detail = report->subject_detail = report->rerun_detail =
            apr_psprintf(pool, "the envelope cannot be read: %s", why);
        json_decref(envelope);
        return APR_SUCCESS;
    }

    /* (a) the digest of the envelope without its envelope_digest member */
    const char *recorded = json_string_value(json_object_get(envelope, "envelope_digest"));
    json_t *body = json_deep_copy(envelope);
    json_object_del(body, "envelope_digest");
    const char *digest = spx_canonical_digest(body, pool);
    json_decref(body);
    SPX_ASSERT(digest != NULL); /* NULL only when memory runs out, which is fatal */
    if (!recorded)
        report->digest_detail = "the envelope has no envelope_digest";
    else if (strcmp(recorded, digest) != 0)
        report->digest_detail = apr_psprintf(pool,
                                             "envelope_digest is %s, but the envelope's content "
                                             "digests to %s",
                                             recorded, digest);
    else
        report->digest_ok = 1;

    /* (b) the subject, recomputed from the files on disk */
    spx_project_t *project = NULL;
    const char *message = NULL;
    if (spx_project_open(&project, manifest_path, pool, &message) != APR_SUCCESS) {
        project = NULL;
        const char *changes =
            sources_on_disk(json_object_get(envelope, "subject"), manifest_path, pool);
        report->subject_detail =
            changes ? apr_psprintf(pool,
                                   "the project cannot be opened: %s; of the envelope's "
                                   "sources: %s",
                                   message, changes)
                    : apr_psprintf(pool, "the project cannot be opened: %s", message);
    } else if (!project->project_revision) {
        report->subject_detail = "the manifest does not parse, so the subject cannot be computed";
    } else {
        json_t *subject = subject_json(project, pool);
        const char *where =
            first_difference(json_object_get(envelope, "subject"), subject, "subject", pool);
        const char *changes =
            where ? source_changes(json_object_get(envelope, "subject"), subject, pool) : NULL;
        if (changes)
            report->subject_detail =
                apr_psprintf(pool, "the files on disk differ from the envelope: %s", changes);
        else if (where)
            report->subject_detail =
                apr_psprintf(pool, "the files on disk differ from the envelope at %s", where);
        else
            report->subject_ok = 1;
        json_decref(subject);
    }

    /* (c) the closure re-run with the recorded limits, byte for byte */
    check_rerun(envelope, project, report, pool);
    json_decref(envelope);
    return APR_SUCCESS;
}
