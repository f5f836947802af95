/*
** obb_character_impl.h: what a character's move (obb_character.c) asks of
** the world's characters (obb_character_store.c) (internal).
*/
#ifndef OBB_CHARACTER_IMPL_H
#define OBB_CHARACTER_IMPL_H

#include "obb_world.h"

/* 1 with character id's options into o and its state into st, else 0. */
int obb_character_get(obb_world *w, int id, obb_character *o,
                      obb_character_state *st);
/* Keeps st as character id's state for the commit of box: the
** obb_world_update of that very box with nothing changed meanwhile gives
** it (obb_character_updated); any other change drops it. */
void obb_character_pending(obb_world *w, int id, const void *box,
                           const obb_character_state *st);
/* The displacement solid other's last move gave the point that it left
** at p (the world's dimension's numbers) into out; zeros for an other
** never moved as a solid. */
void obb_character_motion(obb_world *w, int other, const double *p,
                          double out[3]);

#endif
