/* pattern.c: being written. */
