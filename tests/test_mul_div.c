/* test_mul_div.c: being written. */
#include <criterion/criterion.h>
