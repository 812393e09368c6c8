/* spin, built with -fsanitize=address: a preemption must hash memory that
 * holds terabytes of reserved shadow. */
#include "../prog/spin.c"
