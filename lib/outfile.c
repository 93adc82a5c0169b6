/* outfile.c: being written. */
