/*
 * fuzz_manifest.c: libFuzzer target of the Project Manifest v1 parser
 * (engine/manifest.c): any bytes give either a manifest that keeps every
 * rule or at least one E01xx diagnostic (never both, never more than the
 * limit plus the one "too many problems"), with spans that point into the
 * text, and a subject that renders as canonical JSON.
 */
#include "fuzz_check.h"
#include "spx_fuzz.h"
#include "spx_limits.h"
#include "spx_manifest.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    apr_pool_t *pool = NULL;
    SPX_FUZZ_CHECK(apr_pool_create(&pool, NULL) == APR_SUCCESS);
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_manifest_t *manifest = spx_manifest_parse(data, size, "semaprax.toml", pool, diagnostics);
    apr_size_t count = spx_diagnostics_count(diagnostics);
    SPX_FUZZ_CHECK((manifest == NULL) == (count > 0));
    SPX_FUZZ_CHECK(count <= SPX_LIMIT_MANIFEST_DIAGNOSTICS + 1);
    spx_fuzz_text_t text = {"semaprax.toml", data, size};
    spx_fuzz_check_diagnostics(diagnostics, &text, 1, "E01");
    if (manifest) {
        SPX_FUZZ_CHECK(manifest->source_count <= SPX_LIMIT_SOURCES);
        SPX_FUZZ_CHECK(manifest->test_count <= SPX_LIMIT_TESTS);
        SPX_FUZZ_CHECK(strlen(manifest->version) <= SPX_LIMIT_VERSION_BYTES);
        for (apr_size_t i = 0; i < manifest->source_count; i++) {
            SPX_FUZZ_CHECK(spx_module_name_problem(manifest->sources[i].module, pool) == NULL);
            SPX_FUZZ_CHECK(strlen(manifest->sources[i].path) <= SPX_LIMIT_SOURCE_PATH_BYTES);
        }
        spx_fuzz_check_document(spx_manifest_subject(manifest));
    }
    apr_pool_destroy(pool);
    return 0;
}
