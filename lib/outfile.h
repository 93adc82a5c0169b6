/* outfile.h: being written. */
