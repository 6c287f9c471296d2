/*
 * spx_test_hooks.h: the probe of the writes in the test-only programs
 * semaprax_test and semapraxd_test (transport/test_hooks.c), which the
 * process tests drive through environment variables (test_hooks.c says
 * which). Never linked into semaprax or semapraxd.
 */
#ifndef SPX_TEST_HOOKS_H
#define SPX_TEST_HOOKS_H

#include "spx_rename.h"

/* The probe handed to the rename's commit (both programs) and to fmt's
 * writes (semaprax_test): spx_commit_probe_fn. */
apr_status_t spx_test_commit_probe(void *context, spx_commit_point_t point, apr_size_t file,
                                   apr_size_t files, const char **message, apr_pool_t *pool);

#endif /* SPX_TEST_HOOKS_H */
