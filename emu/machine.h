/* machine.h: being written. */
