/* Memory handed out in pieces and freed all at once (arena.h). */
#include "arena.h"

#include <errno.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct dg_arena {
	struct dg_arena *next;
	void *adopted; /* a block from malloc, or NULL */
	size_t used, size;
	max_align_t data[];
};

#define ARENA_BLOCK (64u << 10)

void *dg_arena_alloc(struct dg_arena **arena, size_t size)
{
	struct dg_arena *a = *arena;
	size_t align = sizeof(max_align_t);
	void *p;

	if (size > SIZE_MAX - align)
		return NULL;
	size = (size + align - 1) / align * align;
	if (!a || a->adopted || a->size - a->used < size) {
		size_t room = size > ARENA_BLOCK ? size : ARENA_BLOCK;

		/* malloc, and each piece zeroed as handed out: a calloc of
		 * the whole block zeroed 64 KB for a small policy's few
		 * hundred bytes, a fifth of a small login's instructions */
		if (room > SIZE_MAX - sizeof(*a) ||
		    !(a = malloc(sizeof(*a) + room)))
			return NULL;
		a->adopted = NULL;
		a->used = 0;
		a->size = room;
		a->next = *arena;
		*arena = a;
	}
	p = (char *)a->data + a->used;
	a->used += size;
	return memset(p, 0, size);
}

int dg_arena_adopt(struct dg_arena **arena, void *mem)
{
	struct dg_arena *a = calloc(1, sizeof(*a));

	if (!a) {
		free(mem);
		return -ENOMEM;
	}
	a->adopted = mem;
	a->next = *arena;
	*arena = a;
	return 0;
}

void dg_arena_free(struct dg_arena **arena)
{
	while (*arena) {
		struct dg_arena *next = (*arena)->next;

		free((*arena)->adopted);
		free(*arena);
		*arena = next;
	}
}
