# Test suites (Criterion).  Each is one program; `make check` runs them all.
check_LTLIBRARIES = tests/libharness.la
tests_libharness_la_SOURCES = tests/isa_harness.c tests/isa_harness.h
TEST_LIBS = tests/libharness.la libinfsim.la $(CRITERION_LIBS)
TEST_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS)

check_PROGRAMS += tests/test_isa_basic
tests_test_isa_basic_SOURCES = tests/test_isa_basic.c
tests_test_isa_basic_CFLAGS = $(TEST_CFLAGS)
tests_test_isa_basic_LDADD = $(TEST_LIBS)

TESTS += $(check_PROGRAMS)
