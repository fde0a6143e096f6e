/* Small helpers shared by every file: scope-bound cleanup and checked
 * array growth.  Error paths release what they took through these, so no
 * branch can forget a free (the module lives inside sshd and login for
 * the whole life of the daemon). */
#ifndef DG_UTIL_H
#define DG_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static inline void dg_freep(void *p) { free(*(void **)p); }
static inline void dg_closep(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
}

#define _cleanup_free_ __attribute__((cleanup(dg_freep)))
#define _cleanup_close_ __attribute__((cleanup(dg_closep)))

/* Hand ownership of a cleanup-managed pointer to the caller. */
#define DG_TAKE(p)                                                             \
	({                                                                     \
		__typeof__(p) _taken = (p);                                    \
		(p) = NULL;                                                    \
		_taken;                                                        \
	})

/* Grow *v (elements of size elem) so that it holds at least need elements.
 * Returns 0, or -ENOMEM with *v and *cap unchanged. */
int dg_grow(void **v, size_t *cap, size_t need, size_t elem);

#endif
