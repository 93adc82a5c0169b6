/* test_ops.c: being written. */
#include <criterion/criterion.h>
