/*
 * fuzz_format.c: libFuzzer target of the formatter (engine/format.c,
 * docs/fmt.md). The input is split at each "\n@@\n" into up to four modules
 * a, b, c and d (spx_fuzz_split_modules, as for fuzz_frontend.c), and
 * shares its seeds.
 *
 * Checked: the formatter's self-check never fails (same tokens and comments
 * as the source); a source is refused as not parsing exactly when it has
 * diagnostics, and then nothing is returned; a formatted text is at most the
 * source size limit and formats to itself byte for byte; and when every
 * module was formatted, the formatted program has the same diagnostic codes,
 * in the same order, as the source program.
 */
#include "fuzz_check.h"
#include "project_internal.h" /* white-box: the project's own fields */
#include "spx_format.h"
#include "spx_fuzz.h"
#include "spx_limits.h"
#include "spx_project.h"

#include <apr_strings.h>
#include <string.h>

/* The diagnostic codes of a program, one after the other. */
static const char *codes_of(const spx_project_t *project, apr_pool_t *pool)
{
    const char *codes = "";
    for (apr_size_t i = 0; i < spx_diagnostics_count(project->diagnostics); i++)
        codes =
            apr_pstrcat(pool, codes, spx_diagnostics_get(project->diagnostics, i)->code, " ", NULL);
    return codes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    spx_source_text_t sources[SPX_FUZZ_MODULES], formatted[SPX_FUZZ_MODULES];
    apr_size_t count = spx_fuzz_split_modules(data, size, sources);

    apr_pool_t *pool = NULL;
    SPX_FUZZ_CHECK(apr_pool_create(&pool, NULL) == APR_SUCCESS);
    int all_formatted = 1;
    for (apr_size_t i = 0; i < count; i++) {
        spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
        char *once = NULL, *twice = NULL;
        apr_size_t once_length = 0, twice_length = 0;
        spx_format_outcome_t outcome =
            spx_format_source(sources[i].bytes, sources[i].length, sources[i].path, &once,
                              &once_length, diagnostics, pool);
        SPX_FUZZ_CHECK(outcome != SPX_FORMAT_SELF_CHECK);
        SPX_FUZZ_CHECK((outcome == SPX_FORMAT_SYNTAX) == (spx_diagnostics_count(diagnostics) > 0));
        if (outcome != SPX_FORMAT_DONE) {
            SPX_FUZZ_CHECK(once == NULL && once_length == 0);
            all_formatted = 0;
            continue;
        }
        SPX_FUZZ_CHECK(once != NULL && once_length <= SPX_LIMIT_SOURCE_BYTES);
        outcome = spx_format_source((const unsigned char *)once, once_length, sources[i].path,
                                    &twice, &twice_length, diagnostics, pool);
        SPX_FUZZ_CHECK(outcome == SPX_FORMAT_DONE);
        SPX_FUZZ_CHECK(twice_length == once_length && memcmp(once, twice, once_length) == 0);
        formatted[i] = sources[i];
        formatted[i].bytes = (const unsigned char *)once;
        formatted[i].length = once_length;
    }
    if (all_formatted) {
        spx_project_t *before = spx_project_build_texts(sources, count, pool);
        spx_project_t *after = spx_project_build_texts(formatted, count, pool);
        SPX_FUZZ_CHECK(before->admitted == after->admitted);
        SPX_FUZZ_CHECK(strcmp(codes_of(before, pool), codes_of(after, pool)) == 0);
    }
    apr_pool_destroy(pool);
    return 0;
}
