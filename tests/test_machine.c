/* test_machine.c: being written. */
#include <criterion/criterion.h>
