/*
 * The compiled core of Obsession: the play phase of ``state.Game`` in C.
 *
 * The Python engine (``state.py``) is the reference and this file follows it step by step:
 * plays of sets of one face, blind attempts, forced pick-ups (3s leave the game), refill,
 * runs and kills in either order, 8/10 extra plays, joker reversal and transparency, going
 * out and the next seat in either direction, the play cap and the repetition guard.
 * The deal and the swaps stay in Python: ``State.from_export`` takes ``Game.export_core()``
 * of a game whose swaps are done (play phase or over) and copies it; ``export`` gives the whole state back as
 * plain tuples, in the same shape as ``fast.export_game`` builds from a ``Game``.
 *
 * Cards are the ids of ``cards.py``: ``(face_index * 4 + suit) * 8 + deck`` for suited cards
 * and ``416 + deck * 2 + copy`` for jokers, so sorted ids are the display order. The piles
 * live in the state object itself, sized by the game: each pile that can grow (hands, draw,
 * discard, removed, killed) has room for every card of the game's decks, the visible and
 * hidden rows for their 3 cards. ``from_export`` refuses any card that is not a real id or that
 * appears twice, and a game holding more cards than its decks, so no pile can ever overflow.
 *
 * The legality matrix is read from ``legality.LEGAL`` when the module is imported (rules are
 * data, kept in one place); illegal actions raise ``IllegalAction`` with the same messages as
 * the Python engine (from ``selection.py``).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xoshiro.h"

#define MAX_PLAYERS 10
#define MAX_DECKS 5
#define JOKER 15
#define JOKER_BASE (13 * 4 * 8)
#define NO_CARD (JOKER_BASE + 2 * MAX_DECKS)
#define ID_LIMIT (NO_CARD + 1)
#define MAX_CARDS (54 * MAX_DECKS)
#define HAND_SIZE 3
#define FACES 16

enum { PHASE_SWAP = 0, PHASE_PLAY = 1, PHASE_OVER = 2 };
enum { END_NONE = 0, END_CAP = 1, END_REPETITION = 2 };

/* Face (rank 2..15) of every card id; 0 for ids that are not cards. */
static uint8_t FACE[ID_LIMIT];
/* LEGAL[active][played], copied from legality.LEGAL. */
static uint8_t LEGAL[FACES][FACES];

static PyObject *IllegalAction;        /* cardtable.engine.errors.IllegalAction */
static PyObject *MSG_INVALID_SELECTION; /* the messages of selection.py */
static PyObject *MSG_INVALID_CARD_SELECTION;
static PyObject *MSG_GAME_OVER;

/* ---------------------------------------------------------------------------------------- */
/* Piles                                                                                     */

typedef struct {
    int n, cap;   /* cards held, room */
    uint16_t *c;  /* into the state object's own storage (or a local array) */
} Pile;

static void pile_remove_at(Pile *p, int i)
{
    memmove(&p->c[i], &p->c[i + 1], (size_t)(p->n - i - 1) * sizeof p->c[0]);
    p->n--;
}

/* Removes the first copy of ``card``; the caller has checked that it is there. */
static void pile_remove(Pile *p, int card)
{
    for (int i = 0; i < p->n; i++) {
        if (p->c[i] == card) {
            pile_remove_at(p, i);
            return;
        }
    }
}

static int pile_contains(const Pile *p, int card)
{
    for (int i = 0; i < p->n; i++)
        if (p->c[i] == card)
            return 1;
    return 0;
}

/* Insertion sort: piles are short, and mostly sorted already when this runs. */
static void pile_sort(Pile *p)
{
    for (int i = 1; i < p->n; i++) {
        uint16_t card = p->c[i];
        int j = i - 1;
        while (j >= 0 && p->c[j] > card) {
            p->c[j + 1] = p->c[j];
            j--;
        }
        p->c[j + 1] = card;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Positions seen by the repetition guard                                                    */

/* A position key is the Python key tuple (seat, direction, pile faces, *parts) packed into
 * bytes: seat, direction + 1, a 2-byte length and the pile faces bottom first, the number of
 * parts, then each part as a 2-byte length and its faces. Equal tuples give equal bytes and
 * the other way round, so counting byte strings counts the Python keys. */
#define KEY_MAX (4 + MAX_CARDS + 1 + MAX_PLAYERS * (2 + MAX_CARDS + 2))

typedef struct {
    uint64_t hash;
    uint32_t offset, length;
    uint32_t epoch; /* the slot is in use only while this is the table's epoch */
    long long count;
} SeenEntry;

typedef struct {
    SeenEntry *entries; /* open addressing, capacity a power of two (or 0) */
    size_t capacity, used;
    uint32_t epoch; /* 0 until the first key, then 1.. */
    uint8_t *bytes; /* the keys, one after the other */
    size_t length, room;
} Seen;

/* Kills and removed 3s clear the table often, and a long stretch without them can leave it
 * large: a new epoch empties it at once instead of wiping every slot. */
static void seen_clear(Seen *s)
{
    if (s->used) {
        s->used = 0;
        if (++s->epoch == 0) {
            memset(s->entries, 0, s->capacity * sizeof *s->entries);
            s->epoch = 1;
        }
    }
    s->length = 0;
}

static void seen_free(Seen *s)
{
    PyMem_Free(s->entries);
    PyMem_Free(s->bytes);
    memset(s, 0, sizeof *s);
}

static int seen_copy(Seen *to, const Seen *from)
{
    memset(to, 0, sizeof *to);
    if (from->capacity) {
        to->entries = PyMem_Malloc(from->capacity * sizeof *from->entries);
        if (to->entries == NULL)
            goto fail;
        memcpy(to->entries, from->entries, from->capacity * sizeof *from->entries);
        to->capacity = from->capacity;
        to->used = from->used;
    }
    to->epoch = from->epoch;
    if (from->room) {
        to->bytes = PyMem_Malloc(from->room);
        if (to->bytes == NULL)
            goto fail;
        memcpy(to->bytes, from->bytes, from->length);
        to->room = from->room;
        to->length = from->length;
    }
    return 0;
fail:
    seen_free(to);
    PyErr_NoMemory();
    return -1;
}

/* Eight bytes per step: keys are a few hundred bytes and are hashed at the start of every
 * late turn, so a byte-at-a-time hash would be the slowest part of a playout. */
static uint64_t key_hash(const uint8_t *key, size_t length)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ length, chunk;
    size_t i = 0;
    for (; i + 8 <= length; i += 8) {
        memcpy(&chunk, key + i, 8);
        h = (h ^ chunk) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    chunk = 0;
    memcpy(&chunk, key + i, length - i);
    h = (h ^ chunk) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

static int seen_grow(Seen *s)
{
    size_t capacity = s->capacity ? s->capacity * 2 : 64;
    SeenEntry *entries = PyMem_Calloc(capacity, sizeof *entries);
    if (entries == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (s->epoch == 0)
        s->epoch = 1;
    for (size_t i = 0; i < s->capacity; i++) {
        SeenEntry *e = &s->entries[i];
        if (e->epoch == s->epoch) {
            size_t j = (size_t)e->hash & (capacity - 1);
            while (entries[j].epoch == s->epoch)
                j = (j + 1) & (capacity - 1);
            entries[j] = *e;
        }
    }
    PyMem_Free(s->entries);
    s->entries = entries;
    s->capacity = capacity;
    return 0;
}

/* Adds ``add`` to the count of ``key`` and stores the new count in ``*count``. */
static int seen_bump(Seen *s, const uint8_t *key, size_t length, long long add, long long *count)
{
    uint64_t hash = key_hash(key, length);
    if ((s->used + 1) * 2 > s->capacity && seen_grow(s) < 0)
        return -1;
    size_t mask = s->capacity - 1, j = (size_t)hash & mask;
    while (s->entries[j].epoch == s->epoch) {
        SeenEntry *e = &s->entries[j];
        if (e->hash == hash && e->length == length && memcmp(s->bytes + e->offset, key, length) == 0) {
            e->count += add;
            *count = e->count;
            return 0;
        }
        j = (j + 1) & mask;
    }
    if (s->length + length > s->room) {
        size_t room = s->room ? s->room : 4096;
        while (s->length + length > room)
            room *= 2;
        uint8_t *bytes = PyMem_Realloc(s->bytes, room);
        if (bytes == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        s->bytes = bytes;
        s->room = room;
    }
    memcpy(s->bytes + s->length, key, length);
    s->entries[j].hash = hash;
    s->entries[j].offset = (uint32_t)s->length;
    s->entries[j].length = (uint32_t)length;
    s->entries[j].count = add;
    s->entries[j].epoch = s->epoch;
    s->length += length;
    s->used++;
    *count = add;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The game                                                                                  */

typedef struct {
    int players, phase, current, direction;
    int active, top_face, run;
    int remaining, humans_left, ended; /* ended: END_NONE, END_CAP or END_REPETITION */
    int run_kill, kill_first;
    long long max_plays, repeat_limit, plays, turns;
    uint8_t humans[MAX_PLAYERS], out[MAX_PLAYERS];
    int placed;
    uint8_t placings[MAX_PLAYERS];
    Pile hands[MAX_PLAYERS], visible[MAX_PLAYERS], hidden[MAX_PLAYERS];
    Pile draw;    /* bottom first: the top card is the last */
    Pile pile;    /* the discard pile, bottom first */
    Pile removed; /* 3s taken out of the game at pick-ups */
    Pile killed;  /* cards of killed piles */
    /* Per seat, sorted: the cards of its hand every seat saw go there (Game.known). */
    Pile known[MAX_PLAYERS];
    Seen seen;
} Core;

static int cards_left(const Core *g, int seat)
{
    return g->hands[seat].n + g->visible[seat].n + g->hidden[seat].n;
}

static void end_game(Core *g, int reason)
{
    g->phase = PHASE_OVER;
    g->ended = reason;
}

/* Seats still in the game follow the seats that went out: fewest cards left, then lowest seat. */
static void stalemate(Core *g, int reason)
{
    int left[MAX_PLAYERS], count = 0;
    for (int seat = 0; seat < g->players; seat++) {
        if (g->out[seat])
            continue;
        int i = count++;
        while (i > 0 && cards_left(g, left[i - 1]) > cards_left(g, seat)) {
            left[i] = left[i - 1];
            i--;
        }
        left[i] = seat;
    }
    for (int i = 0; i < count && g->placed < MAX_PLAYERS; i++)
        g->placings[g->placed++] = (uint8_t)left[i];
    end_game(g, reason);
}

static void go_out(Core *g, int seat)
{
    g->out[seat] = 1;
    g->placings[g->placed++] = (uint8_t)seat;
    g->remaining--;
    if (g->humans[seat])
        g->humans_left--;
    if (g->remaining == 1) {
        for (int other = 0; other < g->players; other++) {
            if (!g->out[other]) {
                g->placings[g->placed++] = (uint8_t)other;
                break;
            }
        }
        end_game(g, END_NONE);
    }
}

static void pick_up(Core *g, int seat)
{
    Pile *hand = &g->hands[seat], *known = &g->known[seat];
    int threes = 0;
    for (int i = 0; i < g->pile.n; i++) {
        uint16_t card = g->pile.c[i];
        if (FACE[card] == 3) {
            g->removed.c[g->removed.n++] = card;
            threes++;
        } else {
            hand->c[hand->n++] = card;
            known->c[known->n++] = card;
        }
    }
    if (threes)
        seen_clear(&g->seen); /* cards left the game: earlier positions cannot recur */
    g->pile.n = 0;
    g->active = 0;
    g->top_face = 0;
    g->run = 0;
    pile_sort(hand);
    pile_sort(known);
}

static size_t part_key(const Core *g, int seat, uint8_t *key)
{
    const Pile *rows[3] = {&g->hands[seat], &g->visible[seat], &g->hidden[seat]};
    size_t at = 2;
    for (int r = 0; r < 3; r++) {
        if (r)
            key[at++] = 0; /* the face of NO_CARD closes a row */
        for (int i = 0; i < rows[r]->n; i++)
            key[at++] = FACE[rows[r]->c[i]];
    }
    key[0] = (uint8_t)((at - 2) & 0xff);
    key[1] = (uint8_t)((at - 2) >> 8);
    return at;
}

static size_t position_key(const Core *g, int seat, uint8_t *key)
{
    size_t at = 0;
    key[at++] = (uint8_t)seat;
    key[at++] = (uint8_t)(g->direction + 1);
    key[at++] = (uint8_t)(g->pile.n & 0xff);
    key[at++] = (uint8_t)(g->pile.n >> 8);
    for (int i = 0; i < g->pile.n; i++)
        key[at++] = FACE[g->pile.c[i]];
    key[at++] = (uint8_t)g->remaining;
    for (int other = 0; other < g->players; other++)
        if (!g->out[other])
            at += part_key(g, other, key + at);
    return at;
}

static int next_remaining(const Core *g, int seat)
{
    int n = g->players;
    seat = (seat + g->direction + n) % n;
    while (g->out[seat])
        seat = (seat + g->direction + n) % n;
    return seat;
}

/* After a play by ``seat``: the cap, then an extra play or the next turns, taking the forced
 * pick-ups until a seat has a real decision (``Game._next``). */
static int next_turn(Core *g, int seat, int extra)
{
    if (g->plays >= g->max_plays) {
        stalemate(g, END_CAP);
        return 0;
    }
    if (extra) {
        g->current = seat;
        return 0;
    }
    /* Neither the draw pile nor the seats change while pick-ups go round. */
    int guard = g->repeat_limit && g->draw.n == 0 && g->humans_left == 0;
    uint8_t key[KEY_MAX];
    for (;;) {
        seat = next_remaining(g, seat);
        if (guard) {
            long long count;
            size_t length = position_key(g, seat, key);
            if (seen_bump(&g->seen, key, length, 1, &count) < 0)
                return -1;
            if (count >= g->repeat_limit) {
                g->current = seat;
                stalemate(g, END_REPETITION);
                return 0;
            }
        }
        g->turns++;
        g->current = seat;
        const Pile *cards = g->hands[seat].n ? &g->hands[seat] : &g->visible[seat];
        if (cards->n == 0)
            return 0; /* a blind attempt */
        const uint8_t *legal = LEGAL[g->active];
        for (int i = 0; i < cards->n; i++)
            if (legal[FACE[cards->c[i]]])
                return 0;
        g->plays++;
        pick_up(g, seat);
        if (g->plays >= g->max_plays) {
            stalemate(g, END_CAP);
            return 0;
        }
    }
}

/* Puts ``cards`` (one face, display order, already taken from their pile) on the discard pile
 * and runs the post-play steps: effect and run check, refill, out check, next seat. */
static int lay(Core *g, int seat, const uint16_t *cards, int count)
{
    Pile *pile = &g->pile;
    memcpy(&pile->c[pile->n], cards, (size_t)count * sizeof cards[0]);
    pile->n += count;
    int face = FACE[cards[0]];
    int run = face == g->top_face ? g->run + count : count;
    g->top_face = face;
    g->run = run;
    if (face != JOKER)
        g->active = face;
    int kill = 0, extra = 0;
    if (run >= g->run_kill && g->kill_first) {
        kill = 1;
    } else {
        if (face == 8)
            extra = 1;
        else if (face == 10)
            kill = 1;
        else if (face == JOKER)
            g->direction = -g->direction;
        /* After a 10 the pile is already dead, so there is no run left to check. */
        if (!kill && run >= g->run_kill)
            kill = 1;
    }
    if (kill) {
        memcpy(&g->killed.c[g->killed.n], pile->c, (size_t)pile->n * sizeof pile->c[0]);
        g->killed.n += pile->n;
        seen_clear(&g->seen); /* fewer cards in play: no earlier position can come back */
        pile->n = 0;
        g->active = 0;
        g->top_face = 0;
        g->run = 0;
        extra = 1;
    }
    Pile *hand = &g->hands[seat];
    if (hand->n < HAND_SIZE && g->draw.n) {
        while (hand->n < HAND_SIZE && g->draw.n)
            hand->c[hand->n++] = g->draw.c[--g->draw.n];
        pile_sort(hand);
    }
    int gone = !g->draw.n && !hand->n && !g->visible[seat].n && !g->hidden[seat].n;
    if (gone) {
        go_out(g, seat);
        if (g->phase == PHASE_OVER)
            return 0;
        extra = 0;
    } else if (extra && g->plays < g->max_plays) {
        g->current = seat;
        return 0;
    }
    return next_turn(g, seat, extra);
}

/* A play already validated: ``cards`` in display order, taken from ``source``. */
static int do_play(Core *g, Pile *source, const uint16_t *cards, int count)
{
    g->plays++;
    for (int i = 0; i < count; i++)
        pile_remove(source, cards[i]);
    Pile *known = &g->known[g->current];
    if (known->n && source == &g->hands[g->current]) {
        /* A card played from the hand is no longer known to be there. */
        for (int i = 0; i < count; i++)
            if (pile_contains(known, cards[i]))
                pile_remove(known, cards[i]);
    }
    return lay(g, g->current, cards, count);
}

/* A blind attempt at 0-based position ``index`` of the hidden row, already validated. */
static int do_blind(Core *g, int index)
{
    int seat = g->current;
    Pile *hidden = &g->hidden[seat];
    g->plays++;
    uint16_t card = hidden->c[index];
    pile_remove_at(hidden, index);
    if (LEGAL[g->active][FACE[card]])
        return lay(g, seat, &card, 1);
    /* The turned card stays in the hand and the pile is picked up on top of it. */
    Pile *hand = &g->hands[seat];
    hand->c[hand->n++] = card;
    g->known[seat].c[g->known[seat].n++] = card; /* every seat saw it turned */
    pick_up(g, seat);
    return next_turn(g, seat, 0);
}

/* ---------------------------------------------------------------------------------------- */
/* The random policy and its generator                                                       */

/* One decision of the ``random`` policy (bots.random_play): a uniform index among the legal
 * cards of the active pile in display order, playing the first copies of that face up to it;
 * or a uniform hidden position. Sets ``*count`` to 0 for a blind attempt (index in
 * ``*blind``). Returns -1 when the seat has no card at all (a broken state). */
static int random_choice(const Core *g, Xoshiro *r, uint16_t *cards, int *count, int *blind)
{
    int seat = g->current;
    const Pile *source = g->hands[seat].n ? &g->hands[seat] : &g->visible[seat];
    if (source->n == 0) {
        if (g->hidden[seat].n == 0)
            return -1;
        *count = 0;
        *blind = (int)xoshiro_below(r, (uint32_t)g->hidden[seat].n);
        return 0;
    }
    uint16_t legal[MAX_CARDS];
    int k = 0;
    const uint8_t *row = LEGAL[g->active];
    for (int i = 0; i < source->n; i++)
        if (row[FACE[source->c[i]]])
            legal[k++] = source->c[i];
    if (k == 0)
        return -1; /* cannot happen: forced pick-ups are taken before a decision */
    int last = (int)xoshiro_below(r, (uint32_t)k), first = last;
    int face = FACE[legal[last]];
    while (first && FACE[legal[first - 1]] == face)
        first--;
    *count = last - first + 1;
    memcpy(cards, &legal[first], (size_t)*count * sizeof cards[0]);
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The obsessed policy                                                                       */

/* bots.WEIGHTS by face (read from Python when the module is imported): lower is played
 * sooner. */
static int WEIGHT[FACES];
/* Faces of cards.SPECIAL_FACES (2, 3, 7, 8, 10, joker); the other faces 4..14 are plain. */
static uint8_t SPECIAL[FACES];

/* One decision of ``bots.ObsessedBot`` in the play phase, for the seat to move. ``draw`` is
 * the bot's uniform number in [0, 1), used only when the seat plays from its hand or visible
 * row. Sets ``*count`` to 0 for a blind attempt, which is always position 1. Returns -1 when
 * the seat has no legal face (a broken state: forced pick-ups come before a decision). */
static int obsessed_choice(const Core *g, double draw, uint16_t *cards, int *count)
{
    int seat = g->current;
    const Pile *source = g->hands[seat].n ? &g->hands[seat] : &g->visible[seat];
    int from_hand = g->hands[seat].n > 0;
    *count = 0;
    if (source->n == 0)
        return 0;
    const uint8_t *row = LEGAL[g->active];
    int weight[FACES], valid[FACES], faces = 0, held = 0;
    memcpy(weight, WEIGHT, sizeof weight);
    /* The legal faces, ascending (the pile is in display order, so faces come sorted). */
    for (int i = 0; i < source->n; i++) {
        int face = FACE[source->c[i]];
        if (face == g->active)
            held++;
        if (row[face] && (faces == 0 || valid[faces - 1] != face))
            valid[faces++] = face;
    }
    if (faces == 0)
        return -1;
    int late = g->draw.n == 0;
    int behind = g->hands[seat].n > g->draw.n;
    int active_valid = 0;
    for (int i = 0; i < faces; i++)
        active_valid |= valid[i] == g->active;
    /* The original counts the run of the literal top face, jokers included (see bots.py). */
    if ((late || behind) && active_valid && !SPECIAL[g->active] && held + g->run >= g->run_kill)
        weight[g->active] = 0;
    if (late && g->hands[next_remaining(g, seat)].n == 0)
        weight[3] = weight[JOKER] = weight[7] = 0;
    /* Stable insertion sort by (weight, face): the faces are already ascending. */
    for (int i = 1; i < faces; i++) {
        int face = valid[i], j = i - 1;
        while (j >= 0 && weight[valid[j]] > weight[face]) {
            valid[j + 1] = valid[j];
            j--;
        }
        valid[j + 1] = face;
    }
    /* As Python computes int((len(valid) - 1) * draw ** 10). */
    int face = valid[(int)((double)(faces - 1) * pow(draw, 10.0))];
    int n = 0;
    for (int i = 0; i < source->n; i++)
        if (FACE[source->c[i]] == face)
            cards[n++] = source->c[i];
    if (from_hand && SPECIAL[face] && !late)
        n = 1;
    *count = n;
    return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The Python type                                                                           */

typedef struct {
    PyObject_VAR_HEAD
    Core g;
    uint16_t cards[1]; /* the piles' storage: Py_SIZE(self) items */
} StateObject;

static PyTypeObject StateType;

/* Cards of the game's decks: (players + 1) / 2 decks of 54 (rules.decks). */
static int game_cards(int players) { return 54 * ((players + 1) / 2); }

/* Storage for every pile of a game of ``players`` seats. */
static Py_ssize_t storage_size(int players)
{
    int total = game_cards(players);
    return (Py_ssize_t)(2 * players + 4) * total + 2 * players * HAND_SIZE;
}

/* Points each pile at its part of the storage (the storage holds no cards yet). */
static void layout(StateObject *self, int players)
{
    Core *g = &self->g;
    uint16_t *at = self->cards;
    int total = game_cards(players);
    Pile *growing[2 * MAX_PLAYERS + 4];
    int count = 0;
    for (int seat = 0; seat < players; seat++) {
        growing[count++] = &g->hands[seat];
        growing[count++] = &g->known[seat];
    }
    growing[count++] = &g->draw;
    growing[count++] = &g->pile;
    growing[count++] = &g->removed;
    growing[count++] = &g->killed;
    for (int i = 0; i < count; i++) {
        growing[i]->c = at;
        growing[i]->cap = total;
        at += total;
    }
    for (int seat = 0; seat < players; seat++) {
        g->visible[seat].c = at;
        g->visible[seat].cap = HAND_SIZE;
        at += HAND_SIZE;
        g->hidden[seat].c = at;
        g->hidden[seat].cap = HAND_SIZE;
        at += HAND_SIZE;
    }
}

static StateObject *state_alloc(int players)
{
    StateObject *self = (StateObject *)StateType.tp_alloc(&StateType, storage_size(players));
    if (self != NULL) {
        memset(&self->g, 0, sizeof self->g);
        self->g.players = players;
        layout(self, players);
    }
    return self;
}

static void state_dealloc(StateObject *self)
{
    seen_free(&self->g.seen);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* --- reading a Python Game ---------------------------------------------------------------- */

/* The fields of Game.export_core(), in order: core_export.CORE_FIELDS in Python, written once
   there and here; the module's EXPORT_FIELDS lets a test check that both agree. The core reads
   a game only through this tuple (and the public fields of its rules object). */
static const char *const EXPORT_FIELDS[] = {
    "players", "phase", "rules", "current", "direction", "active", "top_face", "run",
    "remaining", "plays", "turns", "humans", "out", "placings", "stalemate", "hands",
    "visible", "hidden", "draw", "pile", "removed", "killed", "seen", "known",
};
#define N_EXPORT_FIELDS ((Py_ssize_t)(sizeof EXPORT_FIELDS / sizeof EXPORT_FIELDS[0]))

/* Field `name` of an export tuple (its size checked by State.from_export), or attribute
   `name` of any other object (the rules), as a new reference. */
static PyObject *field(PyObject *obj, const char *name)
{
    if (!PyTuple_CheckExact(obj))
        return PyObject_GetAttrString(obj, name);
    for (Py_ssize_t i = 0; i < N_EXPORT_FIELDS; i++) {
        if (strcmp(EXPORT_FIELDS[i], name) == 0)
            return Py_NewRef(PyTuple_GET_ITEM(obj, i));
    }
    PyErr_Format(PyExc_SystemError, "the export has no field %s", name);
    return NULL;
}

static int get_long(PyObject *obj, const char *name, long long lo, long long hi, long long *out)
{
    PyObject *value = field(obj, name);
    if (value == NULL)
        return -1;
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.80s", name,
                     Py_TYPE(value)->tp_name);
        Py_DECREF(value);
        return -1;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    Py_DECREF(value);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be from %lld to %lld", name, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static int get_int(PyObject *obj, const char *name, int lo, int hi, int *out)
{
    long long v;
    if (get_long(obj, name, lo, hi, &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

/* A list or tuple of card ids into ``pile``; every card must be real and seen only once. */
static int read_cards(PyObject *seq, const char *what, Pile *pile, uint8_t *used)
{
    if (!PyList_Check(seq) && !PyTuple_Check(seq)) {
        PyErr_Format(PyExc_TypeError, "%s must be a list of card ids", what);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    if (n > pile->cap) {
        PyErr_Format(PyExc_ValueError, "%s holds more than %d cards", what, pile->cap);
        return -1;
    }
    pile->n = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_Check(items[i])) {
            PyErr_Format(PyExc_TypeError, "%s must hold int card ids", what);
            return -1;
        }
        long card = PyLong_AsLong(items[i]);
        if (card == -1 && PyErr_Occurred())
            PyErr_Clear();
        if (card < 0 || card >= NO_CARD || FACE[card] == 0) {
            PyErr_Format(PyExc_ValueError, "%s holds %R, which is not a card id", what, items[i]);
            return -1;
        }
        if (used[card]) {
            PyErr_Format(PyExc_ValueError, "card id %ld appears twice in the game", card);
            return -1;
        }
        used[card] = 1;
        pile->c[pile->n++] = (uint16_t)card;
    }
    return 0;
}

static int read_sorted(PyObject *seq, const char *what, Pile *pile, uint8_t *used)
{
    if (read_cards(seq, what, pile, used) < 0)
        return -1;
    for (int i = 1; i < pile->n; i++) {
        if (pile->c[i - 1] > pile->c[i]) {
            PyErr_Format(PyExc_ValueError, "%s must be sorted (display order)", what);
            return -1;
        }
    }
    return 0;
}

static int read_card_attr(PyObject *game, const char *name, Pile *pile, uint8_t *used)
{
    PyObject *value = field(game, name);
    if (value == NULL)
        return -1;
    int status = read_cards(value, name, pile, used);
    Py_DECREF(value);
    return status;
}

/* ``hands``, ``visible`` or ``hidden``: one list per seat. */
static int read_rows(PyObject *game, const char *name, Pile *rows, int players, int sorted,
                     uint8_t *used)
{
    PyObject *value = field(game, name);
    if (value == NULL)
        return -1;
    int status = -1;
    if (!PyList_Check(value) || PyList_GET_SIZE(value) != players) {
        PyErr_Format(PyExc_ValueError, "%s must be a list of one list per seat", name);
        goto done;
    }
    for (int seat = 0; seat < players; seat++) {
        PyObject *row = PyList_GET_ITEM(value, seat);
        if ((sorted ? read_sorted : read_cards)(row, name, &rows[seat], used) < 0)
            goto done;
    }
    status = 0;
done:
    Py_DECREF(value);
    return status;
}

/* ``seen``: {(seat, direction, pile faces, *parts): count} into the packed table. */
static int read_seen(PyObject *game, Core *g)
{
    PyObject *seen = field(game, "seen");
    if (seen == NULL)
        return -1;
    if (!PyDict_Check(seen)) {
        PyErr_SetString(PyExc_TypeError, "seen (Game._seen) must be a dict of position keys");
        Py_DECREF(seen);
        return -1;
    }
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    uint8_t packed[KEY_MAX];
    while (PyDict_Next(seen, &pos, &key, &value)) {
        Py_ssize_t size = PyTuple_Check(key) ? PyTuple_GET_SIZE(key) : 0;
        long long count = PyLong_Check(value) ? PyLong_AsLongLong(value) : -1;
        if (count == -1 && PyErr_Occurred())
            PyErr_Clear();
        if (size < 3 || size > 3 + MAX_PLAYERS || count < 1)
            goto bad;
        long seat = PyLong_Check(PyTuple_GET_ITEM(key, 0)) ? PyLong_AsLong(PyTuple_GET_ITEM(key, 0)) : -1;
        long direction = PyLong_Check(PyTuple_GET_ITEM(key, 1)) ? PyLong_AsLong(PyTuple_GET_ITEM(key, 1)) : 0;
        if (PyErr_Occurred())
            PyErr_Clear();
        if (seat < 0 || seat >= g->players || (direction != 1 && direction != -1))
            goto bad;
        size_t at = 0;
        packed[at++] = (uint8_t)seat;
        packed[at++] = (uint8_t)(direction + 1);
        for (Py_ssize_t i = 2; i < size; i++) {
            PyObject *part = PyTuple_GET_ITEM(key, i);
            if (!PyBytes_Check(part))
                goto bad;
            Py_ssize_t length = PyBytes_GET_SIZE(part);
            size_t limit = i == 2 ? MAX_CARDS : MAX_CARDS + 2;
            if ((size_t)length > limit)
                goto bad;
            packed[at++] = (uint8_t)(length & 0xff);
            packed[at++] = (uint8_t)(length >> 8);
            memcpy(packed + at, PyBytes_AS_STRING(part), (size_t)length);
            at += (size_t)length;
            if (i == 2)
                packed[at++] = (uint8_t)(size - 3); /* the number of parts */
        }
        long long stored;
        if (seen_bump(&g->seen, packed, at, count, &stored) < 0)
            goto fail;
    }
    Py_DECREF(seen);
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError,
                    "seen (Game._seen) holds a key or count that is not a position count");
fail:
    Py_DECREF(seen);
    return -1;
}

static int read_game(PyObject *game, Core *g)
{
    uint8_t used[ID_LIMIT];
    memset(used, 0, sizeof used);
    int sized_for = g->players; /* the storage was laid out for this many seats */
    if (get_int(game, "players", 2, MAX_PLAYERS, &g->players) < 0 ||
        get_int(game, "phase", PHASE_SWAP, PHASE_OVER, &g->phase) < 0)
        return -1;
    if (g->players != sized_for) {
        PyErr_SetString(PyExc_ValueError, "players changed while the game was read");
        return -1;
    }
    if (g->phase == PHASE_SWAP) {
        PyErr_SetString(PyExc_ValueError,
                        "the compiled core takes over after the swaps (the game is in its swap phase)");
        return -1;
    }
    int players = g->players;
    PyObject *rules = field(game, "rules");
    if (rules == NULL)
        return -1;
    PyObject *order = PyObject_GetAttrString(rules, "kill_order");
    int status = -1;
    if (order == NULL)
        goto rules_done;
    if (!PyUnicode_Check(order)) {
        PyErr_SetString(PyExc_TypeError, "rules.kill_order must be a str");
        goto rules_done;
    }
    if (PyUnicode_CompareWithASCIIString(order, "kill-first") == 0) {
        g->kill_first = 1;
    } else if (PyUnicode_CompareWithASCIIString(order, "effect-first") == 0) {
        g->kill_first = 0;
    } else {
        PyErr_SetString(PyExc_ValueError, "rules.kill_order must be effect-first or kill-first");
        goto rules_done;
    }
    if (get_int(rules, "run_kill", 2, 8, &g->run_kill) < 0 ||
        get_long(rules, "max_plays", 1, LLONG_MAX, &g->max_plays) < 0 ||
        get_long(rules, "repeat_limit", 0, LLONG_MAX, &g->repeat_limit) < 0)
        goto rules_done;
    status = 0;
rules_done:
    Py_XDECREF(order);
    Py_DECREF(rules);
    if (status < 0)
        return -1;

    if (get_int(game, "current", 0, players - 1, &g->current) < 0 ||
        get_int(game, "direction", -1, 1, &g->direction) < 0 ||
        get_int(game, "active", 0, FACES - 1, &g->active) < 0 ||
        get_int(game, "top_face", 0, FACES - 1, &g->top_face) < 0 ||
        get_int(game, "run", 0, MAX_CARDS, &g->run) < 0 ||
        get_int(game, "remaining", 0, players, &g->remaining) < 0 ||
        get_long(game, "plays", 0, LLONG_MAX, &g->plays) < 0 ||
        get_long(game, "turns", 0, LLONG_MAX, &g->turns) < 0)
        return -1;
    if (g->direction == 0) {
        PyErr_SetString(PyExc_ValueError, "direction must be 1 or -1");
        return -1;
    }

    /* Seats: humans, out, placings. */
    PyObject *humans = field(game, "humans");
    PyObject *out = humans ? field(game, "out") : NULL;
    PyObject *placings = out ? field(game, "placings") : NULL;
    PyObject *ended = placings ? field(game, "stalemate") : NULL;
    status = -1;
    if (ended == NULL)
        goto seats_done;
    if (!PyTuple_Check(humans) || PyTuple_GET_SIZE(humans) != players || !PyList_Check(out) ||
        PyList_GET_SIZE(out) != players || !PyList_Check(placings) ||
        PyList_GET_SIZE(placings) > players) {
        PyErr_SetString(PyExc_ValueError, "humans, out and placings must have one item per seat");
        goto seats_done;
    }
    int left = 0;
    for (int seat = 0; seat < players; seat++) {
        /* Held while tested: a __bool__ could change the list under a borrowed item. */
        PyObject *human_item = PyTuple_GET_ITEM(humans, seat), *out_item = PyList_GET_ITEM(out, seat);
        Py_INCREF(human_item);
        Py_INCREF(out_item);
        int human = PyObject_IsTrue(human_item);
        int gone = PyObject_IsTrue(out_item);
        Py_DECREF(human_item);
        Py_DECREF(out_item);
        if (PyList_GET_SIZE(out) != players) {
            PyErr_SetString(PyExc_ValueError, "out changed while it was read");
            goto seats_done;
        }
        if (human < 0 || gone < 0)
            goto seats_done;
        g->humans[seat] = (uint8_t)human;
        g->out[seat] = (uint8_t)gone;
        g->humans_left += human && !gone;
        left += !gone;
    }
    if (left != g->remaining || (g->phase == PHASE_PLAY && (left < 2 || g->out[g->current]))) {
        PyErr_SetString(PyExc_ValueError, "remaining, out and the seat to move disagree");
        goto seats_done;
    }
    g->placed = (int)PyList_GET_SIZE(placings);
    for (int i = 0; i < g->placed; i++) {
        PyObject *item = PyList_GET_ITEM(placings, i);
        long seat = PyLong_Check(item) ? PyLong_AsLong(item) : -1;
        if (seat == -1 && PyErr_Occurred())
            PyErr_Clear();
        if (seat < 0 || seat >= players) {
            PyErr_SetString(PyExc_ValueError, "placings must be seats");
            goto seats_done;
        }
        g->placings[i] = (uint8_t)seat;
    }
    if (ended == Py_None) {
        g->ended = END_NONE;
    } else if (PyUnicode_Check(ended) && PyUnicode_CompareWithASCIIString(ended, "cap") == 0) {
        g->ended = END_CAP;
    } else if (PyUnicode_Check(ended) && PyUnicode_CompareWithASCIIString(ended, "repetition") == 0) {
        g->ended = END_REPETITION;
    } else {
        PyErr_SetString(PyExc_ValueError, "stalemate must be None, 'cap' or 'repetition'");
        goto seats_done;
    }
    status = 0;
seats_done:
    Py_XDECREF(humans);
    Py_XDECREF(out);
    Py_XDECREF(placings);
    Py_XDECREF(ended);
    if (status < 0)
        return -1;

    if (read_rows(game, "hands", g->hands, players, 1, used) < 0 ||
        read_rows(game, "visible", g->visible, players, 1, used) < 0 ||
        read_rows(game, "hidden", g->hidden, players, 0, used) < 0 ||
        read_card_attr(game, "draw", &g->draw, used) < 0 ||
        read_card_attr(game, "pile", &g->pile, used) < 0 ||
        read_card_attr(game, "removed", &g->removed, used) < 0 ||
        read_card_attr(game, "killed", &g->killed, used) < 0)
        return -1;
    /* Every card in one pile must fit: no more cards than the game's decks hold. */
    int total = g->draw.n + g->pile.n + g->removed.n + g->killed.n;
    for (int seat = 0; seat < players; seat++)
        total += cards_left(g, seat);
    if (total > game_cards(players)) {
        PyErr_Format(PyExc_ValueError, "the game holds %d cards, more than the %d of its decks",
                     total, game_cards(players));
        return -1;
    }
    /* The known cards are a part of each hand: read apart from the cards counted above. */
    uint8_t known_used[ID_LIMIT];
    memset(known_used, 0, sizeof known_used);
    if (read_rows(game, "known", g->known, players, 1, known_used) < 0)
        return -1;
    for (int seat = 0; seat < players; seat++) {
        for (int i = 0; i < g->known[seat].n; i++) {
            if (!pile_contains(&g->hands[seat], g->known[seat].c[i])) {
                PyErr_Format(PyExc_ValueError, "known card %d is not in the hand of seat %d",
                             (int)g->known[seat].c[i], seat);
                return -1;
            }
        }
    }
    return read_seen(game, g);
}

static PyObject *State_from_export(PyObject *cls, PyObject *game)
{
    (void)cls;
    if (!PyTuple_CheckExact(game) || PyTuple_GET_SIZE(game) != N_EXPORT_FIELDS) {
        PyErr_Format(PyExc_TypeError,
                     "from_export takes the tuple of Game.export_core() (%zd fields: "
                     "see EXPORT_FIELDS)", N_EXPORT_FIELDS);
        return NULL;
    }
    int players;
    if (get_int(game, "players", 2, MAX_PLAYERS, &players) < 0)
        return NULL;
    StateObject *self = state_alloc(players);
    if (self == NULL)
        return NULL;
    if (read_game(game, &self->g) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *State_clone(StateObject *self, PyObject *Py_UNUSED(ignored))
{
    StateObject *other = state_alloc(self->g.players);
    if (other == NULL)
        return NULL;
    /* Copy the storage, then the game with its piles pointed at the copy's storage. */
    memcpy(other->cards, self->cards, (size_t)Py_SIZE(self) * sizeof self->cards[0]);
    Core *to = &other->g;
    Pile saved[4 * MAX_PLAYERS + 4];
    Pile *piles[4 * MAX_PLAYERS + 4];
    int count = 0;
    for (int seat = 0; seat < MAX_PLAYERS; seat++) {
        piles[count++] = &to->hands[seat];
        piles[count++] = &to->known[seat];
        piles[count++] = &to->visible[seat];
        piles[count++] = &to->hidden[seat];
    }
    piles[count++] = &to->draw;
    piles[count++] = &to->pile;
    piles[count++] = &to->removed;
    piles[count++] = &to->killed;
    for (int i = 0; i < count; i++)
        saved[i] = *piles[i];
    *to = self->g;
    for (int i = 0; i < count; i++) {
        piles[i]->c = saved[i].c;
        piles[i]->cap = saved[i].cap;
    }
    if (seen_copy(&other->g.seen, &self->g.seen) < 0) {
        memset(&other->g.seen, 0, sizeof other->g.seen);
        Py_DECREF(other);
        return NULL;
    }
    return (PyObject *)other;
}

/* --- actions ------------------------------------------------------------------------------ */

enum { ACTION_PLAY, ACTION_BLIND };

/* Checks an action as the Python engine does: a tuple or list of card ids is a play, an int
 * is a blind attempt (1-based). Returns the refusal message (borrowed), or NULL when the
 * action is legal, with the cards in display order (or the 0-based hidden position) filled
 * in. Sets a TypeError and returns NULL for anything else (check PyErr_Occurred). */
static PyObject *check_action(const Core *g, PyObject *action, int *kind, uint16_t *cards,
                              int *count, int *index)
{
    int seat = g->current;
    if (PyTuple_Check(action) || PyList_Check(action)) {
        *kind = ACTION_PLAY;
        if (g->phase != PHASE_PLAY)
            return MSG_GAME_OVER;
        const Pile *source = g->hands[seat].n ? &g->hands[seat] : &g->visible[seat];
        Py_ssize_t n = PySequence_Fast_GET_SIZE(action);
        PyObject **items = PySequence_Fast_ITEMS(action);
        /* More cards than the pile holds means a duplicate or a stranger. */
        if (source->n == 0 || n == 0 || n > source->n)
            return MSG_INVALID_SELECTION;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!PyLong_Check(items[i]))
                return MSG_INVALID_SELECTION;
            long card = PyLong_AsLong(items[i]);
            if (card == -1 && PyErr_Occurred())
                PyErr_Clear();
            if (card < 0 || card >= ID_LIMIT || !pile_contains(source, (int)card))
                return MSG_INVALID_SELECTION;
            cards[i] = (uint16_t)card;
        }
        int face = FACE[cards[0]];
        for (Py_ssize_t i = 1; i < n; i++)
            if (FACE[cards[i]] != face)
                return MSG_INVALID_SELECTION;
        *count = (int)n;
        uint16_t buffer[MAX_CARDS];
        Pile sorted = {(int)n, MAX_CARDS, buffer};
        memcpy(sorted.c, cards, (size_t)n * sizeof cards[0]);
        pile_sort(&sorted);
        for (int i = 1; i < sorted.n; i++)
            if (sorted.c[i] == sorted.c[i - 1])
                return MSG_INVALID_SELECTION;
        if (!LEGAL[g->active][face])
            return MSG_INVALID_SELECTION;
        memcpy(cards, sorted.c, (size_t)n * sizeof cards[0]);
        return NULL;
    }
    if (PyLong_Check(action)) {
        *kind = ACTION_BLIND;
        if (g->phase != PHASE_PLAY)
            return MSG_GAME_OVER;
        if (g->hands[seat].n || g->visible[seat].n)
            return MSG_INVALID_SELECTION;
        if (!PyLong_CheckExact(action)) /* a bool is not an index */
            return MSG_INVALID_CARD_SELECTION;
        long position = PyLong_AsLong(action);
        if (position == -1 && PyErr_Occurred())
            PyErr_Clear();
        if (position < 1 || position > g->hidden[seat].n)
            return MSG_INVALID_CARD_SELECTION;
        *index = (int)position - 1;
        return NULL;
    }
    PyErr_Format(PyExc_TypeError,
                 "an action is a tuple of card ids (a play) or an int (a blind attempt), not %.80s",
                 Py_TYPE(action)->tp_name);
    return NULL;
}

static PyObject *State_is_legal(StateObject *self, PyObject *action)
{
    uint16_t cards[MAX_CARDS];
    int kind, count, index;
    PyObject *refusal = check_action(&self->g, action, &kind, cards, &count, &index);
    if (refusal == NULL && PyErr_Occurred())
        return NULL;
    return PyBool_FromLong(refusal == NULL);
}

static PyObject *State_apply(StateObject *self, PyObject *action)
{
    uint16_t cards[MAX_CARDS];
    int kind, count = 0, index = 0;
    Core *g = &self->g;
    PyObject *refusal = check_action(g, action, &kind, cards, &count, &index);
    if (refusal != NULL) {
        PyErr_SetObject(IllegalAction, refusal);
        return NULL;
    }
    if (PyErr_Occurred())
        return NULL;
    int seat = g->current;
    int status = kind == ACTION_PLAY
        ? do_play(g, g->hands[seat].n ? &g->hands[seat] : &g->visible[seat], cards, count)
        : do_blind(g, index);
    if (status < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *cards_tuple(const uint16_t *cards, int n)
{
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *card = PyLong_FromLong(cards[i]);
        if (card == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, card);
    }
    return tuple;
}

static int append_new(PyObject *list, PyObject *item)
{
    if (item == NULL)
        return -1;
    int status = PyList_Append(list, item);
    Py_DECREF(item);
    return status;
}

/* Cards with the same text share this key (face and suit; every joker is alike). */
static int text_key(int card) { return card >= JOKER_BASE ? JOKER_BASE : card >> 3; }

/* Every legal play in the order of ``Game.legal_plays``: faces in display order, and for each
 * face every choice of how many copies of each text (first copies in display order), counted
 * like ``itertools.product`` with the last text fastest. */
static int legal_plays(const Core *g, PyObject *list)
{
    int seat = g->current;
    const Pile *source = g->hands[seat].n ? &g->hands[seat] : &g->visible[seat];
    const uint8_t *row = LEGAL[g->active];
    int i = 0;
    while (i < source->n) {
        int face = FACE[source->c[i]], end = i;
        while (end < source->n && FACE[source->c[end]] == face)
            end++;
        if (row[face]) {
            /* The texts of this face: start and size of each group of copies. */
            int start[MAX_CARDS], size[MAX_CARDS], chosen[MAX_CARDS], groups = 0;
            for (int j = i; j < end; j++) {
                if (j == i || text_key(source->c[j]) != text_key(source->c[j - 1])) {
                    start[groups] = j;
                    size[groups] = 0;
                    chosen[groups] = 0;
                    groups++;
                }
                size[groups - 1]++;
            }
            for (;;) {
                int digit = groups - 1;
                while (digit >= 0 && chosen[digit] == size[digit])
                    chosen[digit--] = 0;
                if (digit < 0)
                    break;
                chosen[digit]++;
                uint16_t play[MAX_CARDS];
                int n = 0;
                for (int k = 0; k < groups; k++) {
                    memcpy(&play[n], &source->c[start[k]], (size_t)chosen[k] * sizeof play[0]);
                    n += chosen[k];
                }
                if (append_new(list, cards_tuple(play, n)) < 0)
                    return -1;
            }
        }
        i = end;
    }
    return 0;
}

static PyObject *State_legal(StateObject *self, PyObject *Py_UNUSED(ignored))
{
    const Core *g = &self->g;
    PyObject *list = PyList_New(0);
    if (list == NULL || g->phase != PHASE_PLAY)
        return list;
    int seat = g->current;
    if (g->hands[seat].n || g->visible[seat].n) {
        if (legal_plays(g, list) < 0)
            goto fail;
    } else {
        for (int index = 1; index <= g->hidden[seat].n; index++)
            if (append_new(list, PyLong_FromLong(index)) < 0)
                goto fail;
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

/* --- search keys ---------------------------------------------------------------------- */

/* A search's key for a decision: ``face * KEY_COPIES + copies`` for a play (suits and decks
 * play alike), KEY_BLIND for a blind attempt (the hidden cards are alike to everyone). */
#define KEY_COPIES 16
#define KEY_BLIND 0

/* The play of a key: the first ``copies`` cards of ``face`` in the active pile (display
 * order), as the obsessed policy takes them. Returns the number of cards, 0 for a blind
 * attempt, -1 when the key is not legal now. */
static int key_play(const Core *g, long key, uint16_t *cards)
{
    if (g->phase != PHASE_PLAY)
        return -1;
    int seat = g->current;
    if (g->hands[seat].n == 0 && g->visible[seat].n == 0)
        return key == KEY_BLIND && g->hidden[seat].n ? 0 : -1;
    long face = key / KEY_COPIES, copies = key % KEY_COPIES;
    if (face < 2 || face >= FACES || copies < 1 || !LEGAL[g->active][face])
        return -1;
    const Pile *source = g->hands[seat].n ? &g->hands[seat] : &g->visible[seat];
    int n = 0;
    for (int i = 0; i < source->n && n < copies; i++)
        if (FACE[source->c[i]] == face)
            cards[n++] = source->c[i];
    return n == copies ? n : -1;
}

static PyObject *State_legal_keys(StateObject *self, PyObject *Py_UNUSED(ignored))
{
    const Core *g = &self->g;
    PyObject *list = PyList_New(0);
    if (list == NULL || g->phase != PHASE_PLAY)
        return list;
    int seat = g->current;
    if (g->hands[seat].n == 0 && g->visible[seat].n == 0) {
        if (g->hidden[seat].n && append_new(list, PyLong_FromLong(KEY_BLIND)) < 0)
            goto fail;
        return list;
    }
    const Pile *source = g->hands[seat].n ? &g->hands[seat] : &g->visible[seat];
    const uint8_t *row = LEGAL[g->active];
    for (int i = 0; i < source->n;) {
        int face = FACE[source->c[i]], end = i;
        while (end < source->n && FACE[source->c[end]] == face)
            end++;
        if (row[face])
            for (int copies = 1; copies <= end - i; copies++)
                if (append_new(list, PyLong_FromLong(face * KEY_COPIES + copies)) < 0)
                    goto fail;
        i = end;
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

static PyObject *State_choice_of_key(StateObject *self, PyObject *key_obj)
{
    long key = PyLong_AsLong(key_obj);
    if (key == -1 && PyErr_Occurred())
        return NULL;
    uint16_t cards[MAX_CARDS];
    int n = key_play(&self->g, key, cards);
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "no legal choice has the key %ld", key);
        return NULL;
    }
    return n ? cards_tuple(cards, n) : PyLong_FromLong(1);
}

static PyObject *State_apply_key(StateObject *self, PyObject *key_obj)
{
    long key = PyLong_AsLong(key_obj);
    if (key == -1 && PyErr_Occurred())
        return NULL;
    Core *g = &self->g;
    uint16_t cards[MAX_CARDS];
    int n = key_play(g, key, cards);
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "no legal choice has the key %ld", key);
        return NULL;
    }
    int seat = g->current;
    int status = n ? do_play(g, g->hands[seat].n ? &g->hands[seat] : &g->visible[seat], cards, n)
                   : do_blind(g, 0);
    if (status < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *State_playout(StateObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"seed", "record", "until", NULL};
    PyObject *seed_obj;
    int record = 0, until = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|pi:playout", keywords, &seed_obj, &record,
                                     &until))
        return NULL;
    if (!PyLong_Check(seed_obj)) {
        PyErr_SetString(PyExc_TypeError, "the seed must be an int");
        return NULL;
    }
    /* Any int seeds the generator: its value modulo 2**64. */
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    Xoshiro rng;
    xoshiro_seed(&rng, seed);
    PyObject *actions = record ? PyList_New(0) : NULL;
    if (record && actions == NULL)
        return NULL;
    Core *g = &self->g;
    uint16_t cards[MAX_CARDS];
    while (g->phase == PHASE_PLAY && g->current != until) {
        int count, blind = 0, seat = g->current;
        if (random_choice(g, &rng, cards, &count, &blind) < 0) {
            PyErr_SetString(PyExc_ValueError, "the seat to move has no card to play");
            goto fail;
        }
        if (record && append_new(actions, count ? cards_tuple(cards, count)
                                                : PyLong_FromLong(blind + 1)) < 0)
            goto fail;
        int status = count ? do_play(g, g->hands[seat].n ? &g->hands[seat] : &g->visible[seat],
                                     cards, count)
                           : do_blind(g, blind);
        if (status < 0)
            goto fail;
    }
    if (record)
        return actions;
    Py_RETURN_NONE;
fail:
    Py_XDECREF(actions);
    return NULL;
}

static PyObject *State_playout_obsessed(StateObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"draws", "record", "until", NULL};
    PyObject *draws;
    int record = 0, until = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|pi:playout_obsessed", keywords, &draws,
                                     &record, &until))
        return NULL;
    Core *g = &self->g;
    PyObject *seq = PySequence_Fast(draws, "draws must be a sequence of one callable per seat");
    if (seq == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != g->players) {
        PyErr_SetString(PyExc_ValueError, "draws must hold one callable per seat");
        Py_DECREF(seq);
        return NULL;
    }
    PyObject *actions = record ? PyList_New(0) : NULL;
    if (record && actions == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    uint16_t cards[MAX_CARDS];
    while (g->phase == PHASE_PLAY && g->current != until) {
        int count, seat = g->current;
        if (g->hands[seat].n == 0 && g->visible[seat].n == 0 && g->hidden[seat].n == 0) {
            PyErr_SetString(PyExc_ValueError, "the seat to move has no card to play");
            goto fail;
        }
        double draw = 0.0;
        if (g->hands[seat].n || g->visible[seat].n) {
            PyObject *value = PyObject_CallNoArgs(PySequence_Fast_GET_ITEM(seq, seat));
            if (value == NULL)
                goto fail;
            draw = PyFloat_AsDouble(value);
            Py_DECREF(value);
            if (draw == -1.0 && PyErr_Occurred())
                goto fail;
            if (!(draw >= 0.0 && draw < 1.0)) {
                PyErr_SetString(PyExc_ValueError, "a draw must be a number in [0, 1)");
                goto fail;
            }
        }
        if (obsessed_choice(g, draw, cards, &count) < 0) {
            PyErr_SetString(PyExc_ValueError, "the seat to move has no legal play");
            goto fail;
        }
        if (record && append_new(actions, count ? cards_tuple(cards, count)
                                                : PyLong_FromLong(1)) < 0)
            goto fail;
        int status = count ? do_play(g, g->hands[seat].n ? &g->hands[seat] : &g->visible[seat],
                                     cards, count)
                           : do_blind(g, 0);
        if (status < 0)
            goto fail;
    }
    Py_DECREF(seq);
    if (record)
        return actions;
    Py_RETURN_NONE;
fail:
    Py_DECREF(seq);
    Py_XDECREF(actions);
    return NULL;
}

/* --- export ------------------------------------------------------------------------------- */

static PyObject *pile_tuple(const Pile *p) { return cards_tuple(p->c, p->n); }

static PyObject *rows_tuple(const Pile *rows, int players)
{
    PyObject *tuple = PyTuple_New(players);
    if (tuple == NULL)
        return NULL;
    for (int seat = 0; seat < players; seat++) {
        PyObject *row = pile_tuple(&rows[seat]);
        if (row == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, seat, row);
    }
    return tuple;
}

static PyObject *bytes_tuple(const uint8_t *items, int n, int as_bool)
{
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = as_bool ? PyBool_FromLong(items[i]) : PyLong_FromLong(items[i]);
        if (item == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

/* The packed position keys back into the dict of ``Game._seen``. */
static PyObject *seen_dict(const Seen *s)
{
    PyObject *dict = PyDict_New();
    if (dict == NULL)
        return NULL;
    for (size_t e = 0; e < s->capacity; e++) {
        const SeenEntry *entry = &s->entries[e];
        if (entry->epoch != s->epoch)
            continue;
        const uint8_t *key = s->bytes + entry->offset;
        size_t pile_length = (size_t)key[2] | ((size_t)key[3] << 8);
        int parts = key[4 + pile_length];
        PyObject *tuple = PyTuple_New(3 + parts);
        if (tuple == NULL)
            goto fail;
        PyTuple_SET_ITEM(tuple, 0, PyLong_FromLong(key[0]));
        PyTuple_SET_ITEM(tuple, 1, PyLong_FromLong((long)key[1] - 1));
        PyTuple_SET_ITEM(tuple, 2, PyBytes_FromStringAndSize((const char *)key + 4,
                                                             (Py_ssize_t)pile_length));
        size_t at = 5 + pile_length;
        for (int p = 0; p < parts; p++) {
            size_t length = (size_t)key[at] | ((size_t)key[at + 1] << 8);
            PyTuple_SET_ITEM(tuple, 3 + p, PyBytes_FromStringAndSize((const char *)key + at + 2,
                                                                     (Py_ssize_t)length));
            at += 2 + length;
        }
        for (int i = 0; i < 3 + parts; i++) {
            if (PyTuple_GET_ITEM(tuple, i) == NULL) {
                Py_DECREF(tuple);
                goto fail;
            }
        }
        PyObject *count = PyLong_FromLongLong(entry->count);
        int status = count == NULL ? -1 : PyDict_SetItem(dict, tuple, count);
        Py_DECREF(tuple);
        Py_XDECREF(count);
        if (status < 0)
            goto fail;
    }
    return dict;
fail:
    Py_DECREF(dict);
    return NULL;
}

static PyObject *ended_name(int ended)
{
    if (ended == END_CAP)
        return PyUnicode_FromString("cap");
    if (ended == END_REPETITION)
        return PyUnicode_FromString("repetition");
    Py_RETURN_NONE;
}

static PyObject *State_export(StateObject *self, PyObject *Py_UNUSED(ignored))
{
    const Core *g = &self->g;
    return Py_BuildValue(
        "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:L,s:L,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,"
        "s:N,s:N,s:N}",
        "players", g->players, "phase", g->phase, "current", g->current,
        "direction", g->direction, "active", g->active, "top_face", g->top_face, "run", g->run,
        "remaining", g->remaining, "humans_left", g->humans_left, "plays", g->plays,
        "turns", g->turns, "stalemate", ended_name(g->ended),
        "hands", rows_tuple(g->hands, g->players), "visible", rows_tuple(g->visible, g->players),
        "hidden", rows_tuple(g->hidden, g->players), "draw", pile_tuple(&g->draw),
        "pile", pile_tuple(&g->pile), "removed", pile_tuple(&g->removed),
        "killed", pile_tuple(&g->killed), "out", bytes_tuple(g->out, g->players, 1),
        "placings", bytes_tuple(g->placings, g->placed, 0), "seen", seen_dict(&g->seen),
        "known", rows_tuple(g->known, g->players));
}

/* --- attributes --------------------------------------------------------------------------- */

static PyObject *State_get_over(StateObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->g.phase == PHASE_OVER);
}

static PyObject *State_get_current(StateObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLong(self->g.current);
}

static PyObject *State_get_plays(StateObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->g.plays);
}

static PyObject *State_get_turns(StateObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromLongLong(self->g.turns);
}

static PyObject *State_get_stalemate(StateObject *self, void *closure)
{
    (void)closure;
    return ended_name(self->g.ended);
}

static PyObject *State_get_placings(StateObject *self, void *closure)
{
    (void)closure;
    return bytes_tuple(self->g.placings, self->g.placed, 0);
}

static PyObject *State_get_out(StateObject *self, void *closure)
{
    (void)closure;
    return bytes_tuple(self->g.out, self->g.players, 1);
}

static PyObject *State_get_cards_left(StateObject *self, void *closure)
{
    (void)closure;
    PyObject *tuple = PyTuple_New(self->g.players);
    if (tuple == NULL)
        return NULL;
    for (int seat = 0; seat < self->g.players; seat++) {
        PyObject *count = PyLong_FromLong(cards_left(&self->g, seat));
        if (count == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, seat, count);
    }
    return tuple;
}

static PyGetSetDef State_getset[] = {
    {"over", (getter)State_get_over, NULL, "Whether the game has ended.", NULL},
    {"current", (getter)State_get_current, NULL, "The 0-based seat to move.", NULL},
    {"plays", (getter)State_get_plays, NULL, "Plays so far (the play number).", NULL},
    {"turns", (getter)State_get_turns, NULL, "Turns so far.", NULL},
    {"stalemate", (getter)State_get_stalemate, NULL,
     "None, or why the game ended as a stalemate: 'cap' or 'repetition'.", NULL},
    {"placings", (getter)State_get_placings, NULL, "0-based seats in finishing order.", NULL},
    {"out", (getter)State_get_out, NULL, "Per seat: has it gone out.", NULL},
    {"cards_left", (getter)State_get_cards_left, NULL,
     "Per seat: hand + visible + hidden cards.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *State_sizeof(StateObject *self, PyObject *Py_UNUSED(ignored))
{
    size_t size = (size_t)Py_TYPE(self)->tp_basicsize
                  + (size_t)Py_SIZE(self) * (size_t)Py_TYPE(self)->tp_itemsize
                  + self->g.seen.capacity * sizeof(SeenEntry) + self->g.seen.room;
    return PyLong_FromSize_t(size);
}

#include "_worlds.h"

static PyMethodDef State_methods[] = {
    {"__sizeof__", (PyCFunction)State_sizeof, METH_NOARGS,
     "Bytes of the state: the object with its piles, and the repetition guard's table."},
    {"from_export", (PyCFunction)State_from_export, METH_O | METH_CLASS,
     "from_export(exported) -> State\n\nA copy of a Python Game whose swaps are done, from "
     "the tuple of Game.export_core() (fields EXPORT_FIELDS)."},
    {"clone", (PyCFunction)State_clone, METH_NOARGS, "An independent copy."},
    SAMPLE_WORLD_METHOD
    {"legal", (PyCFunction)State_legal, METH_NOARGS,
     "The legal actions in the order of Game.legal_actions: tuples of card ids (plays) or "
     "1-based hidden positions (blind attempts)."},
    {"is_legal", (PyCFunction)State_is_legal, METH_O, "Whether apply would accept the action."},
    {"apply", (PyCFunction)State_apply, METH_O,
     "Apply a play (tuple of card ids) or a blind attempt (int) and every automatic step "
     "after it; raises IllegalAction and leaves the state unchanged when it is refused."},
    {"legal_keys", (PyCFunction)State_legal_keys, METH_NOARGS,
     "The legal choices as a search's keys, in legal order: face * 16 + copies for a play "
     "(each number of copies of each legal face), 0 for a blind attempt."},
    {"choice_of_key", (PyCFunction)State_choice_of_key, METH_O,
     "The choice (as legal gives them) a legal key stands for: the first copies of the face "
     "in display order, or hidden position 1."},
    {"apply_key", (PyCFunction)State_apply_key, METH_O,
     "apply(choice_of_key(key)); raises ValueError for a key that is not legal now."},
    {"playout", (PyCFunction)(void (*)(void))State_playout, METH_VARARGS | METH_KEYWORDS,
     "playout(seed, record=False, until=-1)\n\nPlay the random policy for every seat until "
     "the game is over, or until seat ``until`` is to move; with record, return the actions "
     "taken."},
    {"playout_obsessed", (PyCFunction)(void (*)(void))State_playout_obsessed,
     METH_VARARGS | METH_KEYWORDS,
     "playout_obsessed(draws, record=False, until=-1)\n\nPlay the obsessed policy "
     "(bots.ObsessedBot) for every seat until the game is over, or until seat ``until`` is to "
     "move; draws[seat]() gives that seat's uniform numbers. With record, return the actions "
     "taken."},
    {"export", (PyCFunction)State_export, METH_NOARGS, "The whole state as plain values."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardtable.games.obsession._core.State",
    .tp_basicsize = offsetof(StateObject, cards),
    .tp_itemsize = sizeof(uint16_t),
    .tp_dealloc = (destructor)state_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An Obsession game in its play phase, played in C (see State.from_export).",
    .tp_methods = State_methods,
    .tp_getset = State_getset,
};

/* ---------------------------------------------------------------------------------------- */
/* The module                                                                                */

static void build_faces(void)
{
    for (int deck = 0; deck < MAX_DECKS; deck++) {
        for (int face = 2; face <= 14; face++)
            for (int suit = 0; suit < 4; suit++)
                FACE[((face - 2) * 4 + suit) * 8 + deck] = (uint8_t)face;
        FACE[JOKER_BASE + deck * 2] = JOKER;
        FACE[JOKER_BASE + deck * 2 + 1] = JOKER;
    }
}

static PyObject *attribute_of(const char *module_name, const char *name)
{
    PyObject *module = PyImport_ImportModule(module_name);
    if (module == NULL)
        return NULL;
    PyObject *value = PyObject_GetAttrString(module, name);
    Py_DECREF(module);
    return value;
}

/* legality.LEGAL: 16 rows of 16 booleans. */
static int load_legal(void)
{
    PyObject *table = attribute_of("cardtable.games.obsession.legality", "LEGAL");
    if (table == NULL)
        return -1;
    int status = -1;
    if (!PyTuple_Check(table) || PyTuple_GET_SIZE(table) != FACES)
        goto done;
    for (int active = 0; active < FACES; active++) {
        PyObject *row = PyTuple_GET_ITEM(table, active);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != FACES)
            goto done;
        for (int played = 0; played < FACES; played++) {
            int legal = PyObject_IsTrue(PyTuple_GET_ITEM(row, played));
            if (legal < 0)
                goto done;
            LEGAL[active][played] = (uint8_t)legal;
        }
    }
    status = 0;
done:
    if (status < 0 && !PyErr_Occurred())
        PyErr_SetString(PyExc_ImportError, "legality.LEGAL is not a 16 x 16 table");
    Py_DECREF(table);
    return status;
}

/* bots.WEIGHTS ({face: weight}) and cards.SPECIAL_FACES: the obsessed policy's data. */
static int load_policy(void)
{
    PyObject *weights = attribute_of("cardtable.games.obsession.bots", "WEIGHTS");
    if (weights == NULL)
        return -1;
    PyObject *special = attribute_of("cardtable.games.obsession.cards", "SPECIAL_FACES");
    if (special == NULL) {
        Py_DECREF(weights);
        return -1;
    }
    int status = -1;
    for (int face = 2; face < FACES; face++) {
        PyObject *key = PyLong_FromLong(face);
        if (key == NULL)
            goto done;
        PyObject *weight = PyDict_Check(weights) ? PyDict_GetItemWithError(weights, key) : NULL;
        int is_special = PySequence_Contains(special, key);
        Py_DECREF(key);
        if (weight == NULL || !PyLong_Check(weight) || is_special < 0)
            goto done;
        WEIGHT[face] = (int)PyLong_AsLong(weight);
        if (PyErr_Occurred())
            goto done;
        SPECIAL[face] = (uint8_t)is_special;
    }
    status = 0;
done:
    if (status < 0 && !PyErr_Occurred())
        PyErr_SetString(PyExc_ImportError, "bots.WEIGHTS must give an int weight to every face");
    Py_DECREF(weights);
    Py_DECREF(special);
    return status;
}

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cardtable.games.obsession._core",
    .m_doc = "The compiled core of Obsession: play phase, legality and random playouts.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__core(void)
{
    build_faces();
    if (load_legal() < 0 || load_policy() < 0)
        return NULL;
    if (IllegalAction == NULL) {
        IllegalAction = attribute_of("cardtable.engine.errors", "IllegalAction");
        MSG_INVALID_SELECTION = attribute_of("cardtable.games.obsession.selection",
                                             "INVALID_SELECTION");
        MSG_INVALID_CARD_SELECTION = attribute_of("cardtable.games.obsession.selection",
                                                  "INVALID_CARD_SELECTION");
        MSG_GAME_OVER = attribute_of("cardtable.games.obsession.selection", "GAME_OVER");
        if (!IllegalAction || !MSG_INVALID_SELECTION || !MSG_INVALID_CARD_SELECTION ||
            !MSG_GAME_OVER) {
            Py_CLEAR(IllegalAction);
            Py_CLEAR(MSG_INVALID_SELECTION);
            Py_CLEAR(MSG_INVALID_CARD_SELECTION);
            Py_CLEAR(MSG_GAME_OVER);
            return NULL;
        }
    }
    if (PyType_Ready(&StateType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&StateType);
    if (PyModule_AddObject(module, "State", (PyObject *)&StateType) < 0) {
        Py_DECREF(&StateType);
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(IllegalAction);
    if (PyModule_AddObject(module, "IllegalAction", IllegalAction) < 0) {
        Py_DECREF(IllegalAction);
        Py_DECREF(module);
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "MAX_CARDS", MAX_CARDS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    PyObject *fields = PyTuple_New(N_EXPORT_FIELDS);
    for (Py_ssize_t i = 0; fields != NULL && i < N_EXPORT_FIELDS; i++) {
        PyObject *name = PyUnicode_FromString(EXPORT_FIELDS[i]);
        if (name == NULL)
            Py_CLEAR(fields);
        else
            PyTuple_SET_ITEM(fields, i, name);
    }
    if (fields == NULL || PyModule_AddObjectRef(module, "EXPORT_FIELDS", fields) < 0) {
        Py_XDECREF(fields);
        Py_DECREF(module);
        return NULL;
    }
    Py_DECREF(fields);
    return module;
}
