/*
 * cunit_main.c: runs one CUnit suite and turns its result into an exit status.
 */
#include "spx_test.h"

#include <CUnit/Basic.h>
#include <apr_general.h>
#include <stdio.h>

int spx_test_run_suite(const char *suite_name, CU_TestInfo *tests)
{
    if (apr_initialize() != APR_SUCCESS) {
        fprintf(stderr, "%s: cannot initialise APR\n", suite_name);
        return 2;
    }
    CU_SuiteInfo suites[] = {{suite_name, NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
    if (CU_initialize_registry() != CUE_SUCCESS || CU_register_suites(suites) != CUE_SUCCESS) {
        fprintf(stderr, "%s: cannot register the suite: %s\n", suite_name, CU_get_error_msg());
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    apr_terminate();
    return failures == 0 && ran > 0 ? 0 : 1;
}
