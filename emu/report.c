/* report.c: being written. */
