# Measured wall seconds of the longest Catch2 tests (ctest -j2 on 2 cores, 29 Nov 2026), read by ctest
# after the discovered tests (CMakeLists.txt). ctest starts the costliest tests first, by the
# costs of the last run (Testing/Temporary/CTestCostData.txt); a fresh machine has no last run and
# would start these in their declared order, the install and report tests last, and end on a
# one-core tail. ctest ignores a name it does not know: a test renamed without its line here only
# loses its early start. The script tests (report_figures, examples_installed, ...) are defined after
# this file is read, so their COST is set beside them in CMakeLists.txt.
set_tests_properties("report writes tables, sweeps, orders, the paper comparison, figures and an index" PROPERTIES COST 44)
set_tests_properties("a report killed midway resumes: the stored jobs are reused, only the missing ones run, same tables" PROPERTIES COST 19)
set_tests_properties("a small report of this build prints no verdict its own data contradict" PROPERTIES COST 6)
set_tests_properties("a report run again reuses its benchmark parts, and a new integrator is measured alone" PROPERTIES COST 8)
