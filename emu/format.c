/* format.c: being written. */
