/* refmodel.c: being written. */
