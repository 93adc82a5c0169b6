/* npy.h: being written. */
