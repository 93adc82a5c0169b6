/* npy.c: being written. */
