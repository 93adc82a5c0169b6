/* parse.c: being written. */
