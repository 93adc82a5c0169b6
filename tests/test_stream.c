/* test_stream.c: being written. */
#include <criterion/criterion.h>
