/*
 * fuzz_frontend.c: libFuzzer target of the front end: lexer, parser,
 * checker, index and compiler, through the engine's in-memory Phase A
 * (spx_project_build_texts). The input is split at each "\n@@\n" into up to
 * four modules named a, b, c and d (so imports between them can be found).
 *
 * Checked: a project is admitted exactly when it has no error, and has
 * warnings only then; every diagnostic is an E02xx..E04xx or a W06xx other
 * than W0604 (no manifest) with a span inside its module's text; an
 * admitted project has an index and code, its graph renders as canonical
 * JSON, and a context query on each module answers or refuses cleanly.
 */
#include "fuzz_check.h"
#include "spx_canonical.h"
#include "spx_digest.h"
#include "spx_fuzz.h"
#include "spx_index.h"
#include "spx_limits.h"
#include "project_internal.h" /* white-box: the project's own fields */
#include "spx_project.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    spx_source_text_t sources[SPX_FUZZ_MODULES];
    spx_fuzz_text_t texts[SPX_FUZZ_MODULES];
    apr_size_t count = spx_fuzz_split_modules(data, size, sources);
    for (apr_size_t i = 0; i < count; i++)
        texts[i] = (spx_fuzz_text_t){sources[i].path, sources[i].bytes, sources[i].length};

    apr_pool_t *pool = NULL;
    SPX_FUZZ_CHECK(apr_pool_create(&pool, NULL) == APR_SUCCESS);
    spx_project_t *project = spx_project_build_texts(sources, count, pool);
    apr_size_t diagnostics = spx_diagnostics_count(project->diagnostics);
    /* Admitted exactly when there is no error; warnings are kept only then. */
    apr_size_t errors = spx_diagnostics_error_count(project->diagnostics);
    SPX_FUZZ_CHECK(project->admitted == (errors == 0));
    SPX_FUZZ_CHECK(errors == 0 || errors == diagnostics);
    SPX_FUZZ_CHECK(project->phase_a_runs == 1);
    spx_fuzz_check_diagnostics(project->diagnostics, texts, count, "E0");
    for (apr_size_t i = 0; i < diagnostics; i++) {
        const char *code = spx_diagnostics_get(project->diagnostics, i)->code;
        /* no manifest: no E01xx, and no W0604 (which needs the entry and tests) */
        SPX_FUZZ_CHECK(code[0] == 'E' ? code[2] >= '2' && code[2] <= '4'
                                      : strcmp(code, "W0604") != 0);
    }
    spx_fuzz_check_document(spx_project_check_document(project));
    if (project->admitted) {
        SPX_FUZZ_CHECK(project->index != NULL && project->program != NULL);
        spx_sha256_t digest;
        spx_sha256(data, size, &digest);
        project->source_digest = spx_digest_text(&digest, pool);
        /* the graph, written by its one renderer: JSON, and canonical */
        apr_size_t length = 0;
        spx_json_status_t written = SPX_JSON_MISUSE;
        const char *graph = spx_source_graph_text(project, (apr_size_t)-1, &length, &written, pool);
        SPX_FUZZ_CHECK(graph != NULL && written == SPX_JSON_OK);
        json_t *read_back = json_loadb(graph, length, JSON_REJECT_DUPLICATES, NULL);
        SPX_FUZZ_CHECK(read_back != NULL);
        char *again = json_dumps(read_back, SPX_CANONICAL_FLAGS);
        SPX_FUZZ_CHECK(again != NULL && strlen(again) == length &&
                       memcmp(again, graph, length) == 0);
        free(again);
        spx_fuzz_check_document(read_back);
        for (apr_size_t i = 0; i < count; i++) {
            spx_context_request_t request = spx_context_defaults();
            request.target_kind = "module";
            request.target = sources[i].module;
            json_t *document = NULL;
            const char *message = NULL;
            apr_status_t status = spx_context_document(
                project, &request, SPX_LIMIT_RESPONSE_BYTES_DEFAULT, &document, pool, &message);
            if (status == APR_SUCCESS)
                spx_fuzz_check_document(document);
            else
                SPX_FUZZ_CHECK(document == NULL && message != NULL);
        }
    }
    apr_pool_destroy(pool);
    return 0;
}
