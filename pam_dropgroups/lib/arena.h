/* An arena: memory handed out in pieces and freed all at once (arena.c). */
#ifndef DG_ARENA_H
#define DG_ARENA_H

#include <stddef.h>

/* Memory handed out in pieces and freed all at once: a compiled policy
 * read from the cache (cache.c) is one arena, so reading it costs a few
 * allocations, not one per string. */
struct dg_arena;

/* size zeroed bytes, aligned for any type, freed with the arena; NULL on
 * ENOMEM. */
void *dg_arena_alloc(struct dg_arena **arena, size_t size);
/* Free mem (from malloc) with the arena: 0, or -ENOMEM with mem freed. */
int dg_arena_adopt(struct dg_arena **arena, void *mem);
void dg_arena_free(struct dg_arena **arena);

#endif
