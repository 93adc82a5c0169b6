/* encode.c: being written. */
