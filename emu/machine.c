/* machine.c: being written. */
