/* program.c: being written. */
