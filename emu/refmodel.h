/* refmodel.h: being written. */
