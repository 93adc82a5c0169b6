/* test_cli.c: being written. */
#include <criterion/criterion.h>
