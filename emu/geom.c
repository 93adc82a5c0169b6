/* geom.c: being written. */
