/*
** obb_mover.h: the mover's state and the geometry of one pair it asks of
** obb_move_pair.c (internal; the movers of obb_move.c).
**
** A move (obb_move.c) keeps its state in a mover: where the item is, what
** remains of the move and of its turn, the planes it has met, the others
** met and their answers, and the leg's candidates. What one other does to
** a leg is obb_move_pair.c's: obb_move_classify sorts it into NONE,
** OVERLAP (deeper than the band now) or BLOCK (when, and along which
** normal), for a translation or a turning leg.
*/
#ifndef OBB_MOVER_H
#define OBB_MOVER_H

#include "obb_world.h"
#include "obb_math.h"
#include "obb_world_impl.h"

/* How close to 1 the dot product of two unit normals is for them to be the
** same (rounding). */
#define INTO_TOL 0x1p-40
/* Planes kept per move: one per leg and per overlapped other, far more
** than any crease needs; beyond it the move stops. */
#define MAX_PLANES 32
/* Legs redone because an overlapped other's plane changed the remainder
** (each other adds its plane once), on top of OBB_MOVE_MAX_LEGS. */
#define MAX_RESTARTS 32

/* Others met that are found by a scan before the met index is built. */
#define LINEAR_MET 8

/* Poses a move keeps of its path for the events of a world with sensors
** (obb_events_impl.h): where it starts and where each leg ends. */
#define PATH_POINTS (OBB_MOVE_MAX_LEGS + 2)

/* What an other is to a leg (obb_move_classify). */
enum { NONE, OVERLAP, BLOCK };

typedef union anybox {
  obb2 b2;
  obb3 b3;
} anybox;

/* Normals kept for a blocker met corner first (several axes touch). */
#define MAX_CORNER 4

/* An other met on a leg. */
typedef struct cand {
  int id, kind;
  double t;      /* stop time: the item meets it exactly (0 for OVERLAP) */
  double tie;    /* how much later another's t may be and still tie */
  double n[3];   /* the item's way out */
  double depth;  /* OVERLAP: the penetration depth */
  double dist;   /* squared distance between centers, for ties */
  int ncorner;   /* BLOCK: the normals of every axis the item touches (and
                 ** goes deeper on) at t, in axis order */
  int limit;     /* a turning leg's sweep could not decide: t is safe */
  int inside;    /* a turning leg's BLOCK at an other the item is inside */
  double corner[MAX_CORNER][3];
} cand;

/* An other met in this move: its response (the filter is asked once). */
typedef struct met {
  int id, response, reported, plane;
  int slid; /* a turning leg: it blocked a leg as a slide or bounce */
} met;

/* What a group of blockers met at one time asks of the item. */
typedef struct group {
  int touch, solid, bounced;
  int turn_in;   /* a slide or bounce the turn drove the item into, the
                 ** first time in the move: room is made (away) */
  int turn_again; /* one that already stopped a turning leg of this move,
                 ** or turn_in at two planes: the turn stops */
  int undecided; /* a turning sweep that could not decide */
  double bounce[3];
  double away[3];
} group;

/* Where a leg that asked its filter stopped (mover.at). */
enum { AT_NONE, AT_OVERLAP, AT_GROUP };

/* start zeroes every field up to pos: the counters, flags, turns and
** remainder a move (or a push) reads before it writes them, and the z of
** pos and dest, which a 2D move never writes. pos and the ones after it
** start sets, or are written before they are read (the planes up to
** nplanes, item0 and axis by a turning move): most of the mover's size,
** which a move per item and frame would clear for nothing. */
typedef struct mover mover;
struct mover {
  int turning;      /* 1: the move turns (obb_world_move_turning) */
  int point;        /* a turning move of a point (no extents): its turn
                    ** changes nothing it can meet, so its legs are
                    ** classified as translations */
  int nplanes;
  int nmet;         /* the others met, in met */
  int oom;
  int nreported, aborted;
  int legs, restarts; /* the legs run, and those run again */
  int asks;         /* a move that may stop to ask (obb_world_move_start) */
  int asked;        /* its filter answered OBB_ASK: question holds it */
  int at;           /* where the leg that asked stopped (AT_*), to go on
                    ** from there once answered */
  int still;        /* a move of no length nor turn: its one leg (what the
                    ** item overlaps where it stands) still to run */
  int track;        /* the world has sensors: the path is kept */
  int npath;        /* poses in the path (PATH_POINTS + 1: too many) */
  int sensed;       /* sensors among the others near (found so far) */
  int unseen;       /* the world has sensors, and this move cannot meet
                    ** one: it does not turn, its item is no sensor and
                    ** pairs with none, and none is near (only where it
                    ** ends is kept, for its commit) */
  int untracked;    /* obb_move_probe: no events (the caller's own),
                    ** the path kept when the world has sensors */
  int *slot;        /* met by id: open addressing, 1 + index (0: empty), at
                    ** least twice met_cap slots, so finding an other met
                    ** (once per other and leg) is O(1), not O(nmet);
                    ** NULL until more than LINEAR_MET are met (a scan
                    ** of a few is cheaper than clearing the index) */
  const unsigned char *responses; /* a response set read by class instead
                    ** of the filter (obb_world_move_with), or NULL */
  /* a turning move: the turn is an angle, about axis in 3D */
  double turn_goal; /* the turn the move ends with: all of it, or what had
                    ** turned when turning stopped (as dest for pos) */
  double turned;    /* the turn done up to pos */
  double turn0;     /* the turn asked for (turn_goal as the move starts) */
  double posed;     /* the turn item's axes are posed at */
  double r[3];      /* dest - pos (zero for a push) */
  double pos[3];    /* where the leg starts */
  double dest[3];   /* where it would end: the goal, clipped and mirrored
                    ** (kept apart from pos, so that a slide along an
                    ** axis-aligned wall ends exactly at the goal's
                    ** coordinate along it, as bump's does) */
  double wl;        /* turn_goal - turned: the leg's turn (0: none) */
  unsigned slot_mask;
  int ncands;       /* the leg's candidates, in cands */
  int nnear;        /* the others near, in near */
  obb_move_report_fn report;
  obb_world *w;
  int dim, self;
  met *met;
  int met_cap;
  cand *cands;
  int cand_cap;
  int *near;        /* every other the move can reach (found once) */
  int near_cap;
  obb_move_filter_fn filter;
  void *ctx;        /* the filter's */
  void *report_ctx; /* the report's (ctx but for obb_world_move_with) */
  const unsigned char *classes; /* with responses: the world's classes */
  size_t nclasses;
  const unsigned char *sensors; /* the world's sensor flags by id, or NULL:
                    ** a sensor is crossed, its filter never asked */
  struct obb_events *events; /* the world's events state, with sensors */
  int quiet;        /* the item is no sensor and pairs with none */
  int first_of_ties; /* the world's OBB_TIES_FIRST */
  int at_start;     /* the item is where the move found it, as bounds0 */
  obb_world_view view; /* the world's records (boxes, bounds) and more,
                       ** as start found them */
  double primal[3]; /* the move's direction: the goal's, or a bounce's */
  anybox item;      /* the item's box, its center at pos */
  const double *bounds0; /* the item's bounds as the world keeps them
                    ** (what obbN_bounds gives for its box where the move
                    ** starts), in the world's records */
  anybox item0;     /* a turning move: the item's box as the move found it */
  double axis[3];   /* 3D: the turn's unit axis */
  double from[3];   /* where the move started */
  double goal[3];   /* the goal it was given */
  obb_move_hit question; /* what the filter was asked when it answered
                    ** OBB_ASK */
  int asked_met;    /* the index in met of the other it is about */
  int at_i, at_end, at_j; /* the candidate it stopped at, and its group's
                    ** end and member (AT_GROUP) */
  group at_g;       /* what the group's members answered before it */
  double planes[MAX_PLANES][3];
  double pturn[PATH_POINTS]; /* the path (track): the turn done at each */
  double ppos[PATH_POINTS][3]; /* and the center there */
};

/* ---- small helpers both files use ------------------------------------ */

static inline double *center(mover *m) {
  return m->dim == 2 ? m->item.b2.c : m->item.b3.c;
}

static inline const double *extents(int dim, const void *b) {
  return dim == 2 ? ((const obb2 *)b)->e : ((const obb3 *)b)->e;
}

/* Item id's box and padded bounds, where the world keeps them. */
static inline const void *box_of(const mover *m, int id) {
  return m->view.boxes + (size_t)id * m->view.box_size;
}

static inline const double *bounds_of(const mover *m, int id) {
  return (const double *)(m->view.bounds + (size_t)id * m->view.stride);
}

static inline const double *center_of(int dim, const void *b) {
  return dim == 2 ? ((const obb2 *)b)->c : ((const obb3 *)b)->c;
}

/* The dim coordinates of a point from from to to (written out: a move
** copies a few points per leg). */
static inline void copy_point(int dim, double *to, const double *from) {
  to[0] = from[0];
  to[1] = from[1];
  if (dim == 3) to[2] = from[2];
}

/* Whether unit normals a and b are the same, to rounding. */
static inline int parallel(const double a[3], const double b[3]) {
  return obb_dot3(a, b) > 1 - INTO_TOL;
}

/* Whether a box of half extents e is a point. */
static inline int is_point(int dim, const double *e) {
  return e[0] == 0 && e[1] == 0 && (dim == 2 || e[2] == 0);
}

/* ---- what one other does to a leg (obb_move_pair.c) ------------------ */

/* Sorts the other into NONE, OVERLAP (deeper than the band now) or BLOCK
** (the item, moved by r, goes deeper than the band at some t in [0, 1]),
** filling c; the kind. */
int obb_move_classify(mover *m, const void *other, cand *c);
/* obb_move_classify for a turning leg (the item moves by r and turns by
** wl), into c (and c2): BLOCK at the certified time the item could first
** go deeper than the band into the other (a flat pair: first touches it,
** from apart), else NONE; an other it is inside is OVERLAP in c and, in
** c2, a BLOCK where the turn could take it deeper. A sweep that cannot
** decide blocks at its safe time (c->limit). Returns how many of c, c2
** are set. */
int obb_move_classify_turning(mover *m, const void *other, cand *c,
                              cand *c2);

#endif
