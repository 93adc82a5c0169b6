/* report.h: being written. */
