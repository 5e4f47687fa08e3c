/*
 * Caravan's compiled core: the play phase of a game (specification §3-§6) in C.
 *
 * The Python engine (state.py, legality.py, board.py) is the reference; this file
 * mirrors it rule for rule so that search bots and benchmarks can play thousands of
 * random games per second. Setup (deck building, dealing, mulligans) stays in
 * Python: a State is imported from a Python Game at any point of play.
 *
 * Representation
 * - Cards are the ints of cards.py: rank | suit << 4 | copy << 7 | owner << 9 | sample << 10.
 * - Move codes are the packed ints of notation.py: kind | caravan << 2 | hand << 5 | slot << 21.
 * - A State holds twelve card lists in one block: two decks (top card last), two hands,
 *   two discard piles and six caravans. Every list has room for every card of the game,
 *   and cards only ever move between lists, so no list can overflow.
 * - A caravan is stored flat, slot after slot: a numeral followed by the faces attached
 *   to it. Numerals (rank <= 10) start slots, faces (rank > 10) belong to the slot before
 *   them, so the slot structure needs no separate bookkeeping.
 * - The derived summary of each caravan (value, size, last rank, suit, direction, most
 *   faces on one slot) is recomputed whenever the caravan changes, as in Python.
 * - Reshuffles of a discard pile use the State's own generator (xoshiro256**), not
 *   Python's Mersenne Twister: after a reshuffle the deck order differs from what the
 *   Python engine would produce, while the deck's contents are the same.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xoshiro.h"

/* ------------------------------------------------------------------ cards */

#define RANK(card) ((int)((card) & 15u))
#define SUIT(card) ((int)(((card) >> 4) & 7u))
#define OWNER(card) ((int)(((card) >> 9) & 1u))
#define IS_NUMERAL(card) (RANK(card) <= 10)

enum { ACE = 1, JACK = 11, QUEEN = 12, KING = 13, JOKER = 14, NO_SUIT = 4 };
enum { PLAY = 0, DISCARD = 1, CLEAR = 2 };
enum { ANY = 0, ASC = 1, DESC = 2 };
#define HELD_NONE (-1)
#define SUIT_NONE (-1)

/* Largest number of cards a State accepts: hand positions must fit the 16 bits of a
   move code, and slot numbers shifted by 21 must fit a 64-bit code. */
#define MAX_CARDS 60000
/* Kings double a slot's value; 56 Kings on the table still fit a 64-bit value. */
#define MAX_KINGS 56

/* ------------------------------------------------------------------ rules */

enum { ERD_DESC, ERD_KEEP_PREVIOUS, ERD_ANY };
enum { CLEAR_CLEAR, CLEAR_DESTROY_RESTART, CLEAR_DISABLED };
enum { OPENING_ALTERNATE, OPENING_SIMULTANEOUS, OPENING_NONE };
enum { MULLIGAN_REBUILD, MULLIGAN_RESHUFFLE, MULLIGAN_DISCARD, MULLIGAN_NONE };
enum { SAMPLING_BALANCED, SAMPLING_IMBALANCED, SAMPLING_POOLED };

/* The fields of one seat's Rules that the play phase consults. Caps are -1 for "none". */
typedef struct {
    int64_t max_numerals;
    int64_t max_faces;
    int64_t sold_min, sold_max;
    int64_t hand_size;
    unsigned char jack_respects_face_cap;
    unsigned char queen_last;           /* queen_placement == "last" */
    unsigned char queen_changes_suit;
    unsigned char queen_changes_direction;
    unsigned char king_double;          /* king_mode == "double" */
    unsigned char joker_target_survives;
    unsigned char joker_ace_by_suit;    /* joker_ace_mode == "suit" */
    unsigned char joker_ace_effective;  /* joker_ace_suit_test == "effective" */
    unsigned char equal_rank_direction; /* ERD_* */
    unsigned char faces_on_opponent;
    unsigned char face_must_match_suit;
    unsigned char clear_policy;         /* CLEAR_* */
    unsigned char require_all_caravans;
    unsigned char opening_mode;         /* OPENING_* */
    unsigned char mulligan;             /* MULLIGAN_* */
    unsigned char draw_refill;          /* draw_mode == "refill" */
    unsigned char reshuffle_discards;   /* deck_exhaustion == "reshuffle_discards" */
    unsigned char out_after_lanes;      /* out_of_cards == "after_lanes" */
    /* Deck building and the deal (deck.py, Game.start); the play phase ignores them. */
    int64_t opening_hand;               /* opening_hand_size, else hand_size + 3 */
    int64_t deck_size;                  /* -1: drawn between deck_min and deck_max */
    int64_t deck_min, deck_max;
    int64_t samples;                    /* -1: as many as the largest deck needs */
    int64_t samples_min, samples_max;
    int64_t jokers;                     /* jokers_per_sample */
    unsigned char sampling;             /* SAMPLING_* */
    unsigned char jack_is_joker_without_jokers;
} CRules;

/* ------------------------------------------------------------------ state */

enum {
    L_DECK = 0,  /* + seat */
    L_HAND = 2,  /* + seat */
    L_PILE = 4,  /* + seat */
    L_CARAVAN = 6, /* + caravan 0..5 */
    N_LISTS = 12
};

enum { R_NONE, R_LANES, R_OUT_OF_CARDS, R_NO_LEGAL_MOVE, R_DRAW, R_QUIT, N_REASONS };
static const char *const REASONS[N_REASONS] = {
    "", "lanes", "out_of_cards", "no_legal_move", "draw", "quit"};
static const char *const SEATS[2] = {"ABC", "DEF"};

typedef struct {
    int64_t value;
    int size;       /* numerals */
    int last_rank;  /* 0 when empty */
    int prev_rank;  /* rank of the numeral before the last, 0 if none */
    int suit;       /* SUIT_NONE when empty */
    int direction;
    int crowding;   /* the most faces attached to one slot */
} Summary;

typedef struct {
    PyObject_VAR_HEAD
    CRules rules[2];
    Summary summary[6];
    int held[6];            /* HELD_NONE, ANY, ASC or DESC */
    int len[N_LISTS];
    int cap;                /* room of every list: the number of cards in the game */
    int turn;
    int64_t plies;
    int64_t moves_made[2];
    int64_t placed[2];
    unsigned char jack_as_joker[2];
    int reason;             /* R_NONE while the game runs */
    int winners;            /* bit 0: ABC, bit 1: DEF */
    Xoshiro rng;
    uint32_t cards[];       /* N_LISTS lists of cap cards each */
} State;

static PyTypeObject StateType;
static PyObject *IllegalMove; /* cardtable.games.caravan.errors.IllegalMove */

static inline uint32_t *list_of(State *s, int list) {
    return s->cards + (size_t)list * (size_t)s->cap;
}

static inline const uint32_t *clist_of(const State *s, int list) {
    return s->cards + (size_t)list * (size_t)s->cap;
}

/* ------------------------------------------------------------------ random source */

static void shuffle(Xoshiro *rng, uint32_t *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)xoshiro_below(rng, (uint32_t)i + 1);
        uint32_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* ------------------------------------------------------------------ Python's generator

   The deal reproduces Python's random.Random(seed) exactly, so that a game dealt here is
   the game Game.new deals from the same seed: the Mersenne Twister MT19937 seeded from an
   int as CPython seeds it (init_by_array over the 32-bit words of abs(seed)), and the
   draws of random.py: getrandbits(k) keeps the top k bits of one 32-bit output,
   _randbelow(n) draws n.bit_length() bits until the value is below n, shuffle is
   Fisher-Yates from the last item down, randint(a, b) is a + _randbelow(b - a + 1). */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
    uint64_t draws; /* 32-bit outputs drawn since seeding (Game.new goes on from there) */
} Mersenne;

static void mt_init_genrand(Mersenne *r, uint32_t seed) {
    uint32_t *mt = r->mt;
    mt[0] = seed;
    for (int i = 1; i < MT_N; i++) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = 0; /* every word is regenerated before its first use */
    r->draws = 0;
}

/* init_genrand(19650218), the start of every seeding, computed once at import. */
static Mersenne mt_base;

static void mt_init_by_array(Mersenne *r, const uint32_t *key, size_t length) {
    uint32_t *mt = r->mt;
    *r = mt_base;
    size_t i = 1, j = 0;
    for (size_t k = MT_N > length ? MT_N : length; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= length) j = 0;
    }
    for (size_t k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
}

/* The next output. The reference regenerates all 624 words at once when they are used up;
   regenerating each word just before it is used gives the same words (word k depends on words
   k + 1 and k + 397, still old, and on word k - 227, already new), and a deal that needs a
   hundred draws pays for a hundred words. `index` is the next word to regenerate and use. */
static uint32_t mt_next(Mersenne *r) {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t *mt = r->mt;
    int k = r->index;
    uint32_t y = (mt[k] & 0x80000000u) | (mt[k + 1 < MT_N ? k + 1 : 0] & 0x7fffffffu);
    mt[k] = mt[k < MT_N - MT_M ? k + MT_M : k + MT_M - MT_N] ^ (y >> 1) ^ mag01[y & 1u];
    y = mt[k];
    r->index = k + 1 < MT_N ? k + 1 : 0;
    r->draws++;
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* random.Random._randbelow(n) for 1 <= n < 2**32. */
static uint32_t mt_below(Mersenne *r, uint32_t n) {
    int bits = 32 - __builtin_clz(n);
    uint32_t value;
    do {
        value = mt_next(r) >> (32 - bits);
    } while (value >= n);
    return value;
}

static void mt_shuffle(Mersenne *r, uint32_t *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)mt_below(r, (uint32_t)i + 1);
        uint32_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* random.Random(seed) for an int seed of any size. */
static int mt_seed(Mersenne *r, PyObject *seed) {
    PyObject *n = PyNumber_Absolute(seed);
    if (!n) return -1;
    int overflow = 0;
    unsigned long long small = 0;
    long long as_signed = PyLong_AsLongLongAndOverflow(n, &overflow);
    if (as_signed == -1 && PyErr_Occurred()) {
        Py_DECREF(n);
        return -1;
    }
    if (!overflow) {
        small = (unsigned long long)as_signed;
        uint32_t key[2] = {(uint32_t)small, (uint32_t)(small >> 32)};
        mt_init_by_array(r, key, key[1] ? 2 : 1);
        Py_DECREF(n);
        return 0;
    }
    /* A seed beyond 63 bits: its 32-bit words, least significant first. */
    size_t length = 0, room = 8;
    uint32_t *key = PyMem_Malloc(room * sizeof *key);
    PyObject *mask = PyLong_FromUnsignedLong(0xFFFFFFFFul), *shift = PyLong_FromLong(32);
    int rc = -1;
    if (!key || !mask || !shift) goto done;
    while (PyObject_IsTrue(n) > 0) {
        PyObject *word = PyNumber_And(n, mask);
        if (!word) goto done;
        unsigned long value = PyLong_AsUnsignedLong(word);
        Py_DECREF(word);
        if (value == (unsigned long)-1 && PyErr_Occurred()) goto done;
        if (length == room) {
            uint32_t *bigger = PyMem_Realloc(key, 2 * room * sizeof *key);
            if (!bigger) goto done;
            key = bigger;
            room *= 2;
        }
        key[length++] = (uint32_t)value;
        Py_SETREF(n, PyNumber_Rshift(n, shift));
        if (!n) goto done;
    }
    mt_init_by_array(r, key, length);
    rc = 0;
done:
    if (rc < 0 && !PyErr_Occurred()) PyErr_NoMemory();
    PyMem_Free(key);
    Py_XDECREF(mask);
    Py_XDECREF(shift);
    Py_XDECREF(n);
    return rc;
}

/* ------------------------------------------------------------------ caravans (board.py) */

/* The effective suit of the slot cards[start..end): latest Queen's suit if Queens
   change suit, else the numeral's printed suit. */
static int effective_suit(const uint32_t *cards, int start, int end, int queen_changes_suit) {
    if (queen_changes_suit) {
        for (int i = end - 1; i > start; i--) {
            if (RANK(cards[i]) == QUEEN) return SUIT(cards[i]);
        }
    }
    return SUIT(cards[start]);
}

/* End (exclusive) of the slot starting at index start. */
static inline int slot_end(const uint32_t *cards, int n, int start) {
    int end = start + 1;
    while (end < n && !IS_NUMERAL(cards[end])) end++;
    return end;
}

/* Start index of slot number `slot` (1-based, must exist). */
static int slot_start(const uint32_t *cards, int n, int64_t slot) {
    int start = 0;
    for (int64_t number = 1; number < slot; number++) start = slot_end(cards, n, start);
    return start;
}

/* Recompute the summary of caravan k under its owner's rules (board.summarize). */
static void refresh(State *s, int k) {
    const CRules *r = &s->rules[k / 3];
    const uint32_t *c = clist_of(s, L_CARAVAN + k);
    int n = s->len[L_CARAVAN + k];
    Summary *m = &s->summary[k];
    m->value = 0;
    m->size = 0;
    m->last_rank = 0;
    m->prev_rank = 0;
    m->suit = SUIT_NONE;
    m->direction = ANY;
    m->crowding = 0;
    if (!n) return;
    int queens = 0, queen_suit = 0, printed = 0;
    for (int i = 0; i < n;) {
        int end = slot_end(c, n, i);
        int64_t value = RANK(c[i]);
        int kings = 0;
        queens = 0;
        for (int j = i + 1; j < end; j++) {
            int rank = RANK(c[j]);
            if (rank == KING) {
                kings++;
            } else if (rank == QUEEN) {
                queens++;
                queen_suit = SUIT(c[j]);
            }
        }
        if (kings) value = r->king_double ? value << kings : value * (1 + kings);
        m->value += value;
        if (end - i - 1 > m->crowding) m->crowding = end - i - 1;
        m->prev_rank = m->last_rank;
        m->last_rank = RANK(c[i]);
        printed = SUIT(c[i]);
        m->size++;
        i = end;
    }
    m->suit = (r->queen_changes_suit && queens) ? queen_suit : printed;
    if (m->size < 2) return;
    int direction;
    if (m->prev_rank != m->last_rank) {
        direction = m->last_rank > m->prev_rank ? ASC : DESC;
    } else if (r->equal_rank_direction == ERD_ANY) {
        return;
    } else if (r->equal_rank_direction == ERD_KEEP_PREVIOUS) {
        int held = s->held[k];
        m->direction = held == HELD_NONE ? ANY : held;
        return;
    } else {
        direction = DESC;
    }
    if (r->queen_changes_direction && (queens & 1)) direction = direction == DESC ? ASC : DESC;
    m->direction = direction;
}

/* 0 or 1 for the seat taking a lane, -1 while undecided (board.lane_taker). */
static int lane_taker(int64_t abc, int64_t def, const CRules *ra, const CRules *rd) {
    int abc_takes = ra->sold_min <= abc && abc <= ra->sold_max && (def < abc || def > ra->sold_max);
    int def_takes = rd->sold_min <= def && def <= rd->sold_max && (abc < def || abc > rd->sold_max);
    if (abc_takes && def_takes) return abc > def ? 0 : 1;
    if (abc_takes) return 0;
    if (def_takes) return 1;
    return -1;
}

/* ------------------------------------------------------------------ turn facts */

static inline int in_opening(const State *s, int seat) {
    return s->placed[seat] < 3 && s->rules[seat].opening_mode != OPENING_NONE;
}

static int numerals_in(const uint32_t *cards, int n) {
    int count = 0;
    for (int i = 0; i < n; i++) count += IS_NUMERAL(cards[i]);
    return count;
}

/* mulligan = discard during an alternate opening: a seat short of numerals may discard. */
static int discard_mulligan(const State *s, int seat) {
    const CRules *r = &s->rules[seat];
    if (r->mulligan != MULLIGAN_DISCARD || r->opening_mode != OPENING_ALTERNATE) return 0;
    if (!in_opening(s, seat)) return 0;
    int empty = 0;
    for (int k = 3 * seat; k < 3 * seat + 3; k++) empty += s->len[L_CARAVAN + k] == 0;
    return numerals_in(clist_of(s, L_HAND + seat), s->len[L_HAND + seat]) < empty;
}

/* ------------------------------------------------------------------ legality (legality.py) */

/* The refusal messages, stated once in legality.py and read from there when the module loads
   (legality.MESSAGES by constant name); the strings live as long as `messages` holds them. */
static const char *E_INVALID, *E_HAND, *E_NUMERAL_OWN, *E_NUMERAL_START, *E_NUMERAL_CAP, *E_SAME_RANK, *E_DIRECTION, *E_NUMERAL_SLOT;
static const char *E_FACE_START, *E_FACE_OWN, *E_SLOT, *E_NO_SLOT, *E_QUEEN, *E_MATCH, *E_FACE_CAP;
static const char *E_DISCARD_START, *E_CLEAR_START, *E_CLEAR_OPPONENT, *E_CLEAR_DISABLED, *E_CLEAR_EMPTY, *E_RESTART, *E_OVER;
static PyObject *messages; /* legality.MESSAGES */
static PyObject *direction_refusal; /* legality.direction_refusal: E_DIRECTION for one caravan */

static const struct {
    const char **message;
    const char *name;
} MESSAGE_NAMES[] = {
    {&E_INVALID, "INVALID_MOVE"},
    {&E_HAND, "HAND_OUT_OF_RANGE"},
    {&E_NUMERAL_OWN, "NUMERAL_NOT_OWN"},
    {&E_NUMERAL_START, "NUMERAL_START_NOT_EMPTY"},
    {&E_NUMERAL_CAP, "NUMERAL_CAP"},
    {&E_SAME_RANK, "NUMERAL_SAME_RANK"},
    {&E_DIRECTION, "NUMERAL_DIRECTION"},
    {&E_NUMERAL_SLOT, "NUMERAL_SLOT"},
    {&E_FACE_START, "FACE_START"},
    {&E_FACE_OWN, "FACE_NOT_OWN"},
    {&E_SLOT, "SLOT_OUT_OF_RANGE"},
    {&E_NO_SLOT, "FACE_NEEDS_SLOT"},
    {&E_QUEEN, "QUEEN_NOT_LAST"},
    {&E_MATCH, "FACE_SUIT"},
    {&E_FACE_CAP, "FACE_CAP"},
    {&E_DISCARD_START, "DISCARD_START"},
    {&E_CLEAR_START, "CLEAR_START"},
    {&E_CLEAR_OPPONENT, "CLEAR_NOT_OWN"},
    {&E_CLEAR_DISABLED, "CLEAR_DISABLED"},
    {&E_CLEAR_EMPTY, "CLEAR_EMPTY"},
    {&E_RESTART, "RESTART_NUMERAL"},
    {&E_OVER, "GAME_OVER"},
};

static int load_messages(void) {
    PyObject *legality = PyImport_ImportModule("cardtable.games.caravan.legality");
    if (!legality) return -1;
    Py_XSETREF(messages, PyObject_GetAttrString(legality, "MESSAGES"));
    Py_XSETREF(direction_refusal, messages ? PyObject_GetAttrString(legality, "direction_refusal")
                                           : NULL);
    Py_DECREF(legality);
    if (!messages || !direction_refusal) return -1;
    if (!PyDict_Check(messages)) {
        PyErr_SetString(PyExc_TypeError, "legality.MESSAGES must be a dict");
        return -1;
    }
    for (size_t i = 0; i < sizeof MESSAGE_NAMES / sizeof MESSAGE_NAMES[0]; i++) {
        PyObject *text = PyDict_GetItemString(messages, MESSAGE_NAMES[i].name);
        if (!text || !PyUnicode_Check(text)) {
            PyErr_Format(PyExc_ImportError, "legality.MESSAGES has no message %s",
                         MESSAGE_NAMES[i].name);
            return -1;
        }
        if (!(*MESSAGE_NAMES[i].message = PyUnicode_AsUTF8(text))) return -1;
    }
    return 0;
}

/* A packed move code, unpacked as notation.unpack does. */
typedef struct {
    int kind, caravan, hand;
    int64_t slot;
} Move;

static inline Move unpack(uint64_t code) {
    Move m;
    m.kind = (int)(code & 3u);
    m.caravan = (int)((code >> 2) & 7u);
    m.hand = (int)((code >> 5) & 0xFFFFu);
    m.slot = (int64_t)(code >> 21);
    return m;
}

static const char *numeral_error(const State *s, uint32_t card, int k, int opening) {
    int mover = s->turn;
    if (k / 3 != mover) return E_NUMERAL_OWN;
    const Summary *m = &s->summary[k];
    if (opening) return m->size ? E_NUMERAL_START : NULL;
    int64_t cap = s->rules[mover].max_numerals;
    if (cap >= 0 && m->size >= cap) return E_NUMERAL_CAP;
    if (m->size) {
        int rank = RANK(card);
        if (rank == m->last_rank) return E_SAME_RANK;
        if (m->size >= 2 && SUIT(card) != m->suit) {
            int follows = m->direction == ASC    ? rank > m->last_rank
                          : m->direction == DESC ? rank < m->last_rank
                                                 : 1;
            if (!follows) return E_DIRECTION;
        }
    }
    return NULL;
}

static const char *face_error(const State *s, uint32_t card, int k, int64_t slot, int opening) {
    if (opening) return E_FACE_START;
    int mover = s->turn;
    const CRules *r = &s->rules[mover];
    if (k / 3 != mover && !r->faces_on_opponent) return E_FACE_OWN;
    int size = s->summary[k].size;
    if (slot < 1 || slot > size) return slot == 0 && size ? E_NO_SLOT : E_SLOT;
    int rank = RANK(card);
    if (rank == JACK && s->jack_as_joker[mover]) rank = JOKER;
    if (rank == QUEEN && r->queen_last && slot != size) return E_QUEEN;
    const uint32_t *c = clist_of(s, L_CARAVAN + k);
    int n = s->len[L_CARAVAN + k];
    int start = slot_start(c, n, slot);
    int end = slot_end(c, n, start);
    if ((rank == JACK || rank == KING) && r->face_must_match_suit &&
        SUIT(card) != effective_suit(c, start, end, s->rules[k / 3].queen_changes_suit))
        return E_MATCH;
    if (r->max_faces >= 0 && end - start - 1 >= r->max_faces &&
        (rank != JACK || r->jack_respects_face_cap))
        return E_FACE_CAP;
    return NULL;
}

/* The message refusing move m for the seat to move, or NULL when it is legal
   (legality.move_error). The game must still be running. */
static const char *move_error(const State *s, const Move *m) {
    if (m->kind > CLEAR || m->caravan > 5) return E_INVALID;
    int mover = s->turn;
    const uint32_t *hand = clist_of(s, L_HAND + mover);
    int hand_len = s->len[L_HAND + mover];
    int opening = in_opening(s, mover);
    if (m->kind == PLAY) {
        if (m->hand < 1 || m->hand > hand_len) return E_HAND;
        uint32_t card = hand[m->hand - 1];
        if (IS_NUMERAL(card)) return m->slot ? E_NUMERAL_SLOT : numeral_error(s, card, m->caravan, opening);
        return face_error(s, card, m->caravan, m->slot, opening);
    }
    if (m->kind == DISCARD) {
        if (opening && !discard_mulligan(s, mover)) return E_DISCARD_START;
        if (m->hand < 1 || m->hand > hand_len) return E_HAND;
        return NULL;
    }
    if (opening) return E_CLEAR_START;
    if (m->caravan / 3 != mover) return E_CLEAR_OPPONENT;
    const CRules *r = &s->rules[mover];
    if (r->clear_policy == CLEAR_DISABLED) return E_CLEAR_DISABLED;
    if (!s->summary[m->caravan].size) return E_CLEAR_EMPTY;
    if (r->clear_policy == CLEAR_DESTROY_RESTART) {
        if (m->hand < 1 || m->hand > hand_len) return E_HAND;
        if (!IS_NUMERAL(hand[m->hand - 1])) return E_RESTART;
    }
    return NULL;
}

/* Room needed by legal_moves: per hand card at most 3 numeral plays, one face play per
   numeral on the table, one discard and 3 restarts; plus 3 plain clears. */
static size_t legal_bound(const State *s) {
    size_t slots = 0;
    for (int k = 0; k < 6; k++) slots += (size_t)s->summary[k].size;
    return (size_t)s->len[L_HAND + s->turn] * (slots + 7) + 3;
}

/* A walk over the legal moves in canonical order. Listing writes every code to `out`;
   counting (out NULL, target SIZE_MAX) only counts; picking (out NULL) stops at move number
   `target` and keeps its code in `found`. Runs of codes (a face on consecutive slots,
   discards) are counted and picked without visiting each code. */
typedef struct {
    int64_t *out;
    size_t n;
    size_t target;
    int64_t found;
} Walk;

/* Adds `count` codes first, first + step, ...; returns 1 when the walk found its target. */
static inline int walk_run(Walk *w, int64_t first, int64_t step, size_t count) {
    if (w->out) {
        for (size_t i = 0; i < count; i++) w->out[w->n++] = first + (int64_t)i * step;
        return 0;
    }
    if (w->target - w->n < count) {
        w->found = first + (int64_t)(w->target - w->n) * step;
        return 1;
    }
    w->n += count;
    return 0;
}

static inline int walk_one(Walk *w, int64_t code) { return walk_run(w, code, 0, 1); }

#define SLOT_STEP ((int64_t)1 << 21)
#define HAND_STEP ((int64_t)1 << 5)

/* Every legal move, in the canonical order of legality.legal_codes: numeral plays (hand,
   caravan), face plays (hand, caravan, slot), discards (hand), clears (caravan, restart
   card). Returns 1 when a pick found its target. The game must still be running. */
static int legal_walk(const State *s, Walk *w) {
    int mover = s->turn;
    const CRules *r = &s->rules[mover];
    const uint32_t *hand = clist_of(s, L_HAND + mover);
    int hand_len = s->len[L_HAND + mover];
    int own = 3 * mover;
    if (in_opening(s, mover)) {
        for (int p = 1; p <= hand_len; p++) {
            if (!IS_NUMERAL(hand[p - 1])) continue;
            for (int k = own; k < own + 3; k++) {
                if (!s->summary[k].size && walk_one(w, (int64_t)p << 5 | k << 2)) return 1;
            }
        }
        if (discard_mulligan(s, mover))
            return walk_run(w, HAND_STEP | DISCARD, HAND_STEP, (size_t)hand_len);
        return 0;
    }
    /* numeral plays: first, per own caravan and suit, the mask of the ranks allowed there */
    uint32_t accept[3][4];
    for (int i = 0; i < 3; i++) {
        const Summary *m = &s->summary[own + i];
        uint32_t same_suit = 0x7FEu, other_suit; /* ranks 1..10 */
        if (m->size && r->max_numerals >= 0 && m->size >= r->max_numerals) {
            same_suit = 0;
        } else if (m->size) {
            same_suit &= ~(1u << m->last_rank);
        }
        other_suit = same_suit;
        if (m->size >= 2 && m->direction == ASC) other_suit &= ~((2u << m->last_rank) - 1u);
        if (m->size >= 2 && m->direction == DESC) other_suit &= (1u << m->last_rank) - 1u;
        for (int suit = 0; suit < 4; suit++)
            accept[i][suit] = m->size >= 2 && suit == m->suit ? same_suit : other_suit;
    }
    for (int p = 1; p <= hand_len; p++) {
        uint32_t card = hand[p - 1];
        if (!IS_NUMERAL(card)) continue;
        int rank = RANK(card), suit = SUIT(card);
        for (int i = 0; i < 3; i++) {
            int64_t code = (int64_t)p << 5 | (own + i) << 2;
            unsigned accepted = accept[i][suit] >> rank & 1u;
            if (w->out) { /* listing: without a branch on data the CPU cannot predict */
                w->out[w->n] = code;
                w->n += accepted;
            } else if (accepted && walk_one(w, code)) {
                return 1;
            }
        }
    }
    /* face plays, onto the caravans they may reach that hold a slot */
    int targets[6], reached = 0;
    for (int k = r->faces_on_opponent ? 0 : own; k < (r->faces_on_opponent ? 6 : own + 3); k++) {
        targets[reached] = k;
        reached += s->summary[k].size != 0;
    }
    for (int p = 1; p <= hand_len; p++) {
        uint32_t card = hand[p - 1];
        if (IS_NUMERAL(card)) continue;
        int rank = RANK(card);
        if (rank == JACK && s->jack_as_joker[mover]) rank = JOKER;
        int capped = r->max_faces >= 0 && (rank != JACK || r->jack_respects_face_cap);
        int matching = r->face_must_match_suit && (rank == JACK || rank == KING);
        for (int t = 0; t < reached; t++) {
            int k = targets[t];
            int size = s->summary[k].size;
            int64_t code = (int64_t)p << 5 | k << 2;
            const uint32_t *c = clist_of(s, L_CARAVAN + k);
            int cn = s->len[L_CARAVAN + k];
            if (rank == QUEEN && r->queen_last) {
                if (capped) {
                    int start = cn - 1;
                    while (!IS_NUMERAL(c[start])) start--;
                    if (cn - start - 1 >= r->max_faces) continue;
                }
                if (walk_one(w, code | (int64_t)size << 21)) return 1;
            } else if (matching || (capped && s->summary[k].crowding >= r->max_faces)) {
                int suit_rules = s->rules[k / 3].queen_changes_suit;
                int64_t number = 1;
                for (int start = 0; start < cn; number++) {
                    int end = slot_end(c, cn, start);
                    if (!(capped && end - start - 1 >= r->max_faces) &&
                        !(matching && SUIT(card) != effective_suit(c, start, end, suit_rules)) &&
                        walk_one(w, code | number << 21))
                        return 1;
                    start = end;
                }
            } else if (walk_run(w, code | SLOT_STEP, SLOT_STEP, (size_t)size)) {
                return 1;
            }
        }
    }
    /* discards, then clears */
    if (walk_run(w, HAND_STEP | DISCARD, HAND_STEP, (size_t)hand_len)) return 1;
    if (r->clear_policy != CLEAR_DISABLED) {
        for (int k = own; k < own + 3; k++) {
            if (!s->summary[k].size) continue;
            if (r->clear_policy == CLEAR_DESTROY_RESTART) {
                for (int p = 1; p <= hand_len; p++) {
                    if (IS_NUMERAL(hand[p - 1]) && walk_one(w, (int64_t)p << 5 | k << 2 | CLEAR))
                        return 1;
                }
            } else if (walk_one(w, k << 2 | CLEAR)) {
                return 1;
            }
        }
    }
    return 0;
}

/* Lists the legal moves into `out` (room for legal_bound(s) codes); returns how many. */
static size_t legal_moves(const State *s, int64_t *out) {
    Walk w = {out, 0, SIZE_MAX, 0};
    legal_walk(s, &w);
    return w.n;
}

static size_t count_legal(const State *s) {
    Walk w = {NULL, 0, SIZE_MAX, 0};
    legal_walk(s, &w);
    return w.n;
}

/* The legal move number `index` (< count_legal(s)) of the canonical order. */
static int64_t nth_legal(const State *s, size_t index) {
    Walk w = {NULL, 0, index, 0};
    legal_walk(s, &w);
    return w.found;
}

/* Whether the seat to move has a legal move (legality.has_legal_move). */
static int has_legal_move(const State *s) {
    int mover = s->turn;
    int hand_len = s->len[L_HAND + mover];
    if (!in_opening(s, mover)) return hand_len > 0;
    if (discard_mulligan(s, mover) && hand_len) return 1;
    const uint32_t *hand = clist_of(s, L_HAND + mover);
    for (int p = 0; p < hand_len; p++) {
        if (!IS_NUMERAL(hand[p])) continue;
        for (int k = 3 * mover; k < 3 * mover + 3; k++) {
            if (numeral_error(s, hand[p], k, 1) == NULL) return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ moves (state.py) */

static inline void push(State *s, int list, uint32_t card) {
    list_of(s, list)[s->len[list]++] = card;
}

/* A card leaving the table or a hand goes to its owner's pile. */
static inline void to_pile(State *s, uint32_t card) { push(s, L_PILE + OWNER(card), card); }

static uint32_t take(State *s, int list, int index) {
    uint32_t *cards = list_of(s, list);
    uint32_t card = cards[index];
    int n = --s->len[list];
    memmove(cards + index, cards + index + 1, (size_t)(n - index) * sizeof *cards);
    return card;
}

static void draw(State *s, int seat, int64_t count) {
    int deck = L_DECK + seat, pile = L_PILE + seat;
    for (; count > 0; count--) {
        if (!s->len[deck]) {
            if (!s->rules[seat].reshuffle_discards || !s->len[pile]) return;
            memcpy(list_of(s, deck), list_of(s, pile), (size_t)s->len[pile] * sizeof(uint32_t));
            s->len[deck] = s->len[pile];
            s->len[pile] = 0;
            shuffle(&s->rng, list_of(s, deck), s->len[deck]);
        }
        push(s, L_HAND + seat, list_of(s, deck)[--s->len[deck]]);
    }
}

static int ends_in_equal_ranks(const State *s, int k) {
    const uint32_t *c = clist_of(s, L_CARAVAN + k);
    int i = s->len[L_CARAVAN + k] - 1, found = 0, ranks[2] = {0, 0};
    for (; i >= 0 && found < 2; i--) {
        if (IS_NUMERAL(c[i])) ranks[found++] = RANK(c[i]);
    }
    return found == 2 && ranks[0] == ranks[1];
}

/* After slots were removed from the caravans in `changed` (a bit set): maintain `held`
   under keep_previous, then refresh (Game._after_removal). */
static void after_removal(State *s, int changed, const int *before) {
    for (int k = 0; k < 6; k++) {
        if (!(changed & 1 << k)) continue;
        if (s->rules[k / 3].equal_rank_direction == ERD_KEEP_PREVIOUS) {
            s->held[k] = s->len[L_CARAVAN + k] && ends_in_equal_ranks(s, k) ? before[k] : HELD_NONE;
        }
        refresh(s, k);
    }
}

static void play_face(State *s, int mover, uint32_t card, int k, int64_t slot) {
    const CRules *r = &s->rules[mover];
    int before[6];
    for (int i = 0; i < 6; i++) before[i] = s->summary[i].direction;
    int rank = RANK(card);
    if (rank == JACK && s->jack_as_joker[mover]) rank = JOKER;
    int list = L_CARAVAN + k;
    uint32_t *c = list_of(s, list);
    int n = s->len[list];
    int size = s->summary[k].size;
    int start = slot_start(c, n, slot);
    int end = slot_end(c, n, start);
    if (rank == JACK) {
        for (int i = start; i < end; i++) to_pile(s, c[i]);
        memmove(c + start, c + end, (size_t)(n - end) * sizeof *c);
        s->len[list] = n - (end - start);
        push(s, L_PILE + mover, card);
        after_removal(s, 1 << k, before);
        return;
    }
    /* attach the face as the last one of its slot */
    memmove(c + end + 1, c + end, (size_t)(n - end) * sizeof *c);
    c[end] = card;
    n = ++s->len[list];
    if (rank != JOKER) {
        int held = s->held[k];
        if (rank == QUEEN && slot == size && (held == ASC || held == DESC) &&
            s->rules[k / 3].queen_changes_direction)
            s->held[k] = held == DESC ? ASC : DESC;
        refresh(s, k);
        return;
    }
    /* Joker: remove every matching numeral on all six caravans at once. */
    uint32_t target = c[start];
    int target_rank = RANK(target), target_suit = SUIT(target);
    int by_suit = target_rank == ACE && r->joker_ace_by_suit;
    int effective = r->joker_ace_effective;
    int survives = r->joker_target_survives;
    int changed = 0;
    for (int i = 0; i < 6; i++) {
        int li = L_CARAVAN + i;
        uint32_t *cards = list_of(s, li);
        int count = s->len[li];
        if (!count) continue;
        int suit_rules = s->rules[i / 3].queen_changes_suit;
        int kept = 0;
        int64_t number = 1;
        for (int from = 0; from < count; number++) {
            int to = slot_end(cards, count, from);
            int is_target = i == k && number == slot;
            int removed;
            if (is_target && survives) {
                removed = 0;
            } else if (is_target) {
                removed = 1;
            } else if (by_suit) {
                int suit = effective ? effective_suit(cards, from, to, suit_rules) : SUIT(cards[from]);
                removed = suit == target_suit;
            } else {
                removed = RANK(cards[from]) == target_rank;
            }
            if (removed) {
                for (int j = from; j < to; j++) to_pile(s, cards[j]);
            } else {
                if (kept != from) memmove(cards + kept, cards + from, (size_t)(to - from) * sizeof *cards);
                kept += to - from;
            }
            from = to;
        }
        if (kept != count) {
            s->len[li] = kept;
            changed |= 1 << i;
        }
    }
    if (!(changed & 1 << k)) refresh(s, k);
    after_removal(s, changed, before);
}

static void finish(State *s, int winners, int reason) {
    s->winners = winners;
    s->reason = reason;
}

/* The seat winning on lanes, or -1 (Game._lane_winner). */
static int lane_winner(const State *s) {
    int abc_lanes = 0;
    for (int lane = 0; lane < 3; lane++) {
        int taker = lane_taker(s->summary[lane].value, s->summary[lane + 3].value, &s->rules[0],
                               &s->rules[1]);
        if (taker < 0) return -1;
        abc_lanes += taker == 0;
    }
    int winner = abc_lanes >= 2 ? 0 : 1;
    int won = winner == 0 ? abc_lanes : 3 - abc_lanes;
    if (s->rules[winner].require_all_caravans && won < 3) return -1;
    return winner;
}

static void end_check(State *s) {
    int empty0 = !s->len[L_HAND], empty1 = !s->len[L_HAND + 1];
    int out = empty0 == empty1 ? -1 : (empty0 ? 1 : 0);
    int lanes_first = s->rules[0].out_after_lanes;
    int lane = (lanes_first || out < 0) ? lane_winner(s) : -1;
    if (lanes_first && lane >= 0) {
        finish(s, 1 << lane, R_LANES);
    } else if (out >= 0) {
        finish(s, 1 << out, R_OUT_OF_CARDS);
    } else if (!lanes_first && (lane = lane_winner(s)) >= 0) {
        finish(s, 1 << lane, R_LANES);
    } else if (empty0 && empty1) {
        finish(s, 0, R_DRAW);
    }
}

/* Apply a move known to be legal (Game.apply_code after its check). */
static void apply_move(State *s, const Move *m) {
    int mover = s->turn;
    const CRules *r = &s->rules[mover];
    int opening = in_opening(s, mover);
    int hand = L_HAND + mover;
    int k = m->caravan;
    if (m->kind == PLAY) {
        uint32_t card = take(s, hand, m->hand - 1);
        if (IS_NUMERAL(card)) {
            push(s, L_CARAVAN + k, card);
            s->held[k] = HELD_NONE;
            refresh(s, k);
            if (opening) s->placed[mover]++;
        } else {
            play_face(s, mover, card, k, m->slot);
        }
    } else if (m->kind == DISCARD) {
        push(s, L_PILE + mover, take(s, hand, m->hand - 1));
    } else {
        int list = L_CARAVAN + k;
        const uint32_t *c = list_of(s, list);
        for (int i = 0; i < s->len[list]; i++) to_pile(s, c[i]);
        s->len[list] = 0;
        s->held[k] = HELD_NONE;
        if (r->clear_policy == CLEAR_DESTROY_RESTART) push(s, list, take(s, hand, m->hand - 1));
        refresh(s, k);
    }
    s->plies++;
    s->moves_made[mover]++;
    /* Draw step: skipped during the Start round, including the move that completes it. */
    if (m->kind == DISCARD && opening) {
        draw(s, mover, 1);
    } else if (!opening && s->len[hand] < r->hand_size) {
        draw(s, mover, r->draw_refill ? r->hand_size - s->len[hand] : 1);
    }
    end_check(s);
    if (s->reason != R_NONE) return;
    if (!(opening && s->rules[0].opening_mode == OPENING_SIMULTANEOUS && s->placed[mover] < 3))
        s->turn = 1 - mover;
    /* Outside its Start round a seat with cards can always discard. */
    if ((in_opening(s, s->turn) || !s->len[L_HAND + s->turn]) && !has_legal_move(s))
        finish(s, 1 << (1 - s->turn), R_NO_LEGAL_MOVE);
}

/* ------------------------------------------------------------------ conversion helpers */

static int get_attr(PyObject *obj, const char *name, PyObject **out) {
    *out = PyObject_GetAttrString(obj, name);
    return *out ? 0 : -1;
}

/* An int in [low, high] (or None -> none_value when allow_none). */
static int as_int64(PyObject *value, const char *what, int64_t low, int64_t high, int allow_none,
                    int64_t none_value, int64_t *out) {
    if (value == Py_None && allow_none) {
        *out = none_value;
        return 0;
    }
    if (!PyLong_Check(value) || PyBool_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int%s, not %.100s", what,
                     allow_none ? " or None" : "", Py_TYPE(value)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s must be between %lld and %lld, got %R", what,
                     (long long)low, (long long)high, value);
        return -1;
    }
    *out = v;
    return 0;
}

static int field_int(PyObject *rules, const char *name, int64_t low, int allow_none, int64_t *out) {
    PyObject *value;
    if (get_attr(rules, name, &value) < 0) return -1;
    char what[80];
    PyOS_snprintf(what, sizeof what, "rules field '%s'", name);
    int rc = as_int64(value, what, low, INT64_MAX / 4, allow_none, -1, out);
    Py_DECREF(value);
    return rc;
}

static int field_bool(PyObject *rules, const char *name, unsigned char *out) {
    PyObject *value;
    if (get_attr(rules, name, &value) < 0) return -1;
    if (!PyBool_Check(value)) {
        PyErr_Format(PyExc_TypeError, "rules field '%s' must be a bool, not %.100s", name,
                     Py_TYPE(value)->tp_name);
        Py_DECREF(value);
        return -1;
    }
    *out = value == Py_True;
    Py_DECREF(value);
    return 0;
}

/* A str field that must be one of `choices` (NULL-terminated); stores its index. */
static int field_choice(PyObject *rules, const char *name, const char *const *choices,
                        unsigned char *out) {
    PyObject *value;
    if (get_attr(rules, name, &value) < 0) return -1;
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "rules field '%s' must be a str, not %.100s", name,
                     Py_TYPE(value)->tp_name);
        Py_DECREF(value);
        return -1;
    }
    const char *text = PyUnicode_AsUTF8(value);
    if (!text) {
        Py_DECREF(value);
        return -1;
    }
    for (int i = 0; choices[i]; i++) {
        if (strcmp(text, choices[i]) == 0) {
            *out = (unsigned char)i;
            Py_DECREF(value);
            return 0;
        }
    }
    PyErr_Format(PyExc_ValueError, "rules field '%s' has an unknown value %R", name, value);
    Py_DECREF(value);
    return -1;
}

static const char *const QUEEN_PLACEMENT[] = {"last", "any", NULL};
static const char *const KING_MODE[] = {"double", "add", NULL};
static const char *const JOKER_ACE_MODE[] = {"suit", "rank", NULL};
static const char *const JOKER_ACE_SUIT_TEST[] = {"printed", "effective", NULL};
static const char *const EQUAL_RANK_DIRECTION[] = {"desc", "keep_previous", "any", NULL};
static const char *const CLEAR_POLICY[] = {"clear", "destroy_restart", "disabled", NULL};
static const char *const OPENING_MODE[] = {"alternate", "simultaneous", "none", NULL};
static const char *const MULLIGAN[] = {"rebuild", "reshuffle", "discard", "none", NULL};
static const char *const DRAW_MODE[] = {"one", "refill", NULL};
static const char *const DECK_EXHAUSTION[] = {"shrink", "reshuffle_discards", NULL};
static const char *const OUT_OF_CARDS[] = {"after_lanes", "before_lanes", NULL};
static const char *const SAMPLING[] = {"balanced", "imbalanced", "pooled", NULL};

static int rules_from_object(PyObject *obj, CRules *r) {
    unsigned char v;
    memset(r, 0, sizeof *r);
    if (field_int(obj, "max_numerals", 0, 1, &r->max_numerals) < 0) return -1;
    if (field_int(obj, "max_faces", 0, 1, &r->max_faces) < 0) return -1;
    if (field_int(obj, "sold_min", -INT64_MAX / 4, 0, &r->sold_min) < 0) return -1;
    if (field_int(obj, "sold_max", -INT64_MAX / 4, 0, &r->sold_max) < 0) return -1;
    if (field_int(obj, "hand_size", 0, 0, &r->hand_size) < 0) return -1;
    if (field_bool(obj, "jack_respects_face_cap", &r->jack_respects_face_cap) < 0) return -1;
    if (field_choice(obj, "queen_placement", QUEEN_PLACEMENT, &v) < 0) return -1;
    r->queen_last = v == 0;
    if (field_bool(obj, "queen_changes_suit", &r->queen_changes_suit) < 0) return -1;
    if (field_bool(obj, "queen_changes_direction", &r->queen_changes_direction) < 0) return -1;
    if (field_choice(obj, "king_mode", KING_MODE, &v) < 0) return -1;
    r->king_double = v == 0;
    if (field_bool(obj, "joker_target_survives", &r->joker_target_survives) < 0) return -1;
    if (field_choice(obj, "joker_ace_mode", JOKER_ACE_MODE, &v) < 0) return -1;
    r->joker_ace_by_suit = v == 0;
    if (field_choice(obj, "joker_ace_suit_test", JOKER_ACE_SUIT_TEST, &v) < 0) return -1;
    r->joker_ace_effective = v == 1;
    if (field_choice(obj, "equal_rank_direction", EQUAL_RANK_DIRECTION,
                     &r->equal_rank_direction) < 0)
        return -1;
    if (field_bool(obj, "faces_on_opponent", &r->faces_on_opponent) < 0) return -1;
    if (field_bool(obj, "face_must_match_suit", &r->face_must_match_suit) < 0) return -1;
    if (field_choice(obj, "clear_policy", CLEAR_POLICY, &r->clear_policy) < 0) return -1;
    if (field_bool(obj, "require_all_caravans", &r->require_all_caravans) < 0) return -1;
    if (field_choice(obj, "opening_mode", OPENING_MODE, &r->opening_mode) < 0) return -1;
    if (field_choice(obj, "mulligan", MULLIGAN, &r->mulligan) < 0) return -1;
    if (field_choice(obj, "draw_mode", DRAW_MODE, &v) < 0) return -1;
    r->draw_refill = v == 1;
    if (field_choice(obj, "deck_exhaustion", DECK_EXHAUSTION, &v) < 0) return -1;
    r->reshuffle_discards = v == 1;
    if (field_choice(obj, "out_of_cards", OUT_OF_CARDS, &v) < 0) return -1;
    r->out_after_lanes = v == 0;
    int64_t opening_hand_size;
    if (field_int(obj, "opening_hand_size", 0, 1, &opening_hand_size) < 0) return -1;
    r->opening_hand = opening_hand_size >= 0 ? opening_hand_size : r->hand_size + 3;
    if (field_int(obj, "deck_size", 0, 1, &r->deck_size) < 0) return -1;
    if (field_int(obj, "deck_min", 0, 0, &r->deck_min) < 0) return -1;
    if (field_int(obj, "deck_max", 0, 0, &r->deck_max) < 0) return -1;
    if (field_int(obj, "samples", 0, 1, &r->samples) < 0) return -1;
    if (field_int(obj, "samples_min", 0, 0, &r->samples_min) < 0) return -1;
    if (field_int(obj, "samples_max", 0, 0, &r->samples_max) < 0) return -1;
    if (field_int(obj, "jokers_per_sample", 0, 0, &r->jokers) < 0) return -1;
    if (field_choice(obj, "sampling", SAMPLING, &r->sampling) < 0) return -1;
    if (field_bool(obj, "jack_is_joker_without_jokers", &r->jack_is_joker_without_jokers) < 0)
        return -1;
    return 0;
}

/* Rules objects are immutable; the last two converted are kept to spare the ~30 attribute
   reads per seat when the same rules are imported again and again (benchmarks, search). */
static PyObject *rules_cache_key[2];
static CRules rules_cache_value[2];
static int rules_cache_next;

static int convert_rules(PyObject *obj, CRules *r) {
    for (int i = 0; i < 2; i++) {
        if (rules_cache_key[i] == obj) {
            *r = rules_cache_value[i];
            return 0;
        }
    }
    if (rules_from_object(obj, r) < 0) return -1;
    int slot = rules_cache_next;
    rules_cache_next ^= 1;
    Py_XSETREF(rules_cache_key[slot], Py_NewRef(obj));
    rules_cache_value[slot] = *r;
    return 0;
}

/* A card int as cards.py makes them: rank 1..14, suit 0..3 (4 for the Joker). */
static int as_card(PyObject *value, const char *where, uint32_t *out) {
    int64_t v;
    int overflow = 0;
    long quick = PyLong_CheckExact(value) ? PyLong_AsLongAndOverflow(value, &overflow) : 0;
    if (quick >= 1 && quick <= 0x7FFFFFFF && !overflow) {
        v = quick; /* a plain int in range: every table card, at every move of a match */
    } else if (as_int64(value, where, 1, 0x7FFFFFFF, 0, 0, &v) < 0) {
        return -1;
    }
    int rank = (int)(v & 15), suit = (int)((v >> 4) & 7);
    if (rank < 1 || rank > JOKER || (rank == JOKER) != (suit == NO_SUIT) || suit > NO_SUIT) {
        PyErr_Format(PyExc_ValueError, "%s: %R is not a card", where, value);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* The fields of Game.export_core(), in order: core_export.CORE_FIELDS in Python, written
   once there and here; the module's EXPORT_FIELDS lets a test check that both agree. The core
   reads a game only through this tuple, never through the game's attributes. */
static const char *const EXPORT_FIELDS[] = {
    "rules", "caravans", "held", "hands", "decks", "piles", "placed", "moves_made", "turn",
    "plies", "jack_as_joker", "result",
};
#define N_EXPORT_FIELDS ((Py_ssize_t)(sizeof EXPORT_FIELDS / sizeof EXPORT_FIELDS[0]))

/* Field `name` of an export tuple (checked by State.from_export), as a new reference. */
static PyObject *field(PyObject *exported, const char *name) {
    for (Py_ssize_t i = 0; i < N_EXPORT_FIELDS; i++) {
        if (strcmp(EXPORT_FIELDS[i], name) == 0) return Py_NewRef(PyTuple_GET_ITEM(exported, i));
    }
    PyErr_Format(PyExc_SystemError, "the export has no field %s", name);
    return NULL;
}

/* A sequence of `count` items from field `name` of the export, as a new reference to a
   list or tuple (PySequence_Fast). */
static PyObject *fast_attr(PyObject *game, const char *name, Py_ssize_t count) {
    PyObject *value = field(game, name);
    if (!value) return NULL;
    char what[80];
    PyOS_snprintf(what, sizeof what, "game.%s must be a sequence", name);
    PyObject *fast = PySequence_Fast(value, what);
    Py_DECREF(value);
    if (fast && count >= 0 && PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "game.%s must have %zd items, not %zd", name, count,
                     PySequence_Fast_GET_SIZE(fast));
        Py_CLEAR(fast);
    }
    return fast;
}

/* Card lists of the game, in State list order: decks, hands, piles (each a pair). */
static const char *const PAIR_NAMES[3] = {"decks", "hands", "piles"};

/* Count the cards of a Game (first pass of from_export), validating shapes. */
static int count_cards(PyObject *pairs[3], PyObject *caravans, Py_ssize_t *total) {
    Py_ssize_t n = 0;
    for (int p = 0; p < 3; p++) {
        for (int seat = 0; seat < 2; seat++) {
            PyObject *cards = PySequence_Fast_GET_ITEM(pairs[p], seat);
            Py_ssize_t size = PyObject_Length(cards);
            if (size < 0) return -1;
            n += size;
        }
    }
    for (int k = 0; k < 6; k++) {
        PyObject *caravan = PySequence_Fast_GET_ITEM(caravans, k);
        PyObject *slots = PySequence_Fast(caravan, "a caravan must be a sequence of slots");
        if (!slots) return -1;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(slots); i++) {
            PyObject *slot = PySequence_Fast_GET_ITEM(slots, i);
            if (!PyTuple_Check(slot) || PyTuple_GET_SIZE(slot) != 2) {
                PyErr_SetString(PyExc_TypeError, "a caravan slot must be a (numeral, faces) tuple");
                Py_DECREF(slots);
                return -1;
            }
            Py_ssize_t faces = PyObject_Length(PyTuple_GET_ITEM(slot, 1));
            if (faces < 0) {
                Py_DECREF(slots);
                return -1;
            }
            n += 1 + faces;
        }
        Py_DECREF(slots);
    }
    *total = n;
    return 0;
}

static int fill_list(State *s, int list, PyObject *cards, const char *where) {
    PyObject *fast = PySequence_Fast(cards, "a card list must be a sequence");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > s->cap) {
        PyErr_Format(PyExc_ValueError, "%s changed size during conversion", where);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        uint32_t card;
        if (as_card(PySequence_Fast_GET_ITEM(fast, i), where, &card) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        list_of(s, list)[i] = card;
    }
    s->len[list] = (int)n;
    Py_DECREF(fast);
    return 0;
}

static int fill_caravan(State *s, int k, PyObject *caravan) {
    static const char where[] = "caravan card";
    PyObject *slots = PySequence_Fast(caravan, "a caravan must be a sequence of slots");
    if (!slots) return -1;
    int list = L_CARAVAN + k, n = 0, rc = -1;
    uint32_t *c = list_of(s, list);
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(slots); i++) {
        PyObject *slot = PySequence_Fast_GET_ITEM(slots, i);
        uint32_t card;
        if (as_card(PyTuple_GET_ITEM(slot, 0), where, &card) < 0) goto done;
        if (!IS_NUMERAL(card)) {
            PyErr_Format(PyExc_ValueError, "caravan %c slot %zd holds a face card as its numeral",
                         'A' + k, i + 1);
            goto done;
        }
        if (n >= s->cap) goto resized;
        c[n++] = card;
        PyObject *faces = PySequence_Fast(PyTuple_GET_ITEM(slot, 1), "faces must be a sequence");
        if (!faces) goto done;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(faces); j++) {
            if (as_card(PySequence_Fast_GET_ITEM(faces, j), where, &card) < 0 || n >= s->cap) {
                Py_DECREF(faces);
                if (!PyErr_Occurred()) goto resized;
                goto done;
            }
            if (IS_NUMERAL(card)) {
                PyErr_Format(PyExc_ValueError, "caravan %c slot %zd has a numeral among its faces",
                             'A' + k, i + 1);
                Py_DECREF(faces);
                goto done;
            }
            c[n++] = card;
        }
        Py_DECREF(faces);
    }
    s->len[list] = n;
    rc = 0;
    goto done;
resized:
    PyErr_SetString(PyExc_ValueError, "a caravan changed size during conversion");
done:
    Py_DECREF(slots);
    return rc;
}

static int fill_pair_ints(PyObject *game, const char *name, int64_t high, int64_t out[2]) {
    PyObject *fast = fast_attr(game, name, 2);
    if (!fast) return -1;
    char what[80];
    PyOS_snprintf(what, sizeof what, "game.%s item", name);
    for (int i = 0; i < 2; i++) {
        if (as_int64(PySequence_Fast_GET_ITEM(fast, i), what, 0, high, 0, 0, &out[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* The result field: None while the game runs, else (winners, reason). */
static int fill_result(State *s, PyObject *game) {
    PyObject *result = field(game, "result");
    if (!result) return -1;
    s->reason = R_NONE;
    s->winners = 0;
    if (result == Py_None) {
        Py_DECREF(result);
        return 0;
    }
    PyObject *winners, *reason, *fast = NULL;
    int rc = -1;
    if (!PyTuple_Check(result) || PyTuple_GET_SIZE(result) != 2) {
        PyErr_SetString(PyExc_TypeError, "game.result must be None or (winners, reason)");
        goto done;
    }
    winners = PyTuple_GET_ITEM(result, 0);
    reason = PyTuple_GET_ITEM(result, 1);
    if (!PyUnicode_Check(reason)) {
        PyErr_SetString(PyExc_TypeError, "game.result.reason must be a str");
        goto done;
    }
    for (int i = 1; i < N_REASONS; i++) {
        if (PyUnicode_CompareWithASCIIString(reason, REASONS[i]) == 0) s->reason = i;
    }
    if (s->reason == R_NONE) {
        PyErr_Format(PyExc_ValueError, "game.result.reason %R is not a known reason", reason);
        goto done;
    }
    fast = PySequence_Fast(winners, "game.result.winners must be a sequence");
    if (!fast) goto done;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        PyObject *seat = PySequence_Fast_GET_ITEM(fast, i);
        int found = -1;
        for (int j = 0; j < 2; j++) {
            if (PyUnicode_Check(seat) && PyUnicode_CompareWithASCIIString(seat, SEATS[j]) == 0)
                found = j;
        }
        if (found < 0) {
            PyErr_Format(PyExc_ValueError, "game.result.winners holds %R, not a seat", seat);
            goto done;
        }
        s->winners |= 1 << found;
    }
    rc = 0;
done:
    Py_XDECREF(fast);
    Py_DECREF(result);
    return rc;
}

/* Import a Python Game (second pass: everything but the card counts). */
static int fill_state(State *s, PyObject *game, PyObject *pairs[3], PyObject *caravans) {
    PyObject *rules = fast_attr(game, "rules", 2);
    if (!rules) return -1;
    int kings = 0;
    for (int seat = 0; seat < 2; seat++) {
        if (convert_rules(PySequence_Fast_GET_ITEM(rules, seat), &s->rules[seat]) < 0) {
            Py_DECREF(rules);
            return -1;
        }
    }
    Py_DECREF(rules);
    static const char *const where[3] = {"deck card", "hand card", "pile card"};
    for (int p = 0; p < 3; p++) {
        for (int seat = 0; seat < 2; seat++) {
            if (fill_list(s, 2 * p + seat, PySequence_Fast_GET_ITEM(pairs[p], seat), where[p]) < 0)
                return -1;
        }
    }
    for (int k = 0; k < 6; k++) {
        if (fill_caravan(s, k, PySequence_Fast_GET_ITEM(caravans, k)) < 0) return -1;
    }
    for (int l = 0; l < N_LISTS; l++) {
        for (int i = 0; i < s->len[l]; i++) kings += RANK(list_of(s, l)[i]) == KING;
    }
    if (kings > MAX_KINGS) {
        PyErr_Format(PyExc_ValueError, "the compiled core takes at most %d Kings, not %d",
                     MAX_KINGS, kings);
        return -1;
    }
    PyObject *held = fast_attr(game, "held", 6);
    if (!held) return -1;
    for (int k = 0; k < 6; k++) {
        int64_t v;
        if (as_int64(PySequence_Fast_GET_ITEM(held, k), "game.held item", 0, 2, 1, HELD_NONE, &v) <
            0) {
            Py_DECREF(held);
            return -1;
        }
        s->held[k] = (int)v;
    }
    Py_DECREF(held);
    if (fill_pair_ints(game, "placed", INT64_MAX / 2, s->placed) < 0) return -1;
    if (fill_pair_ints(game, "moves_made", INT64_MAX / 2, s->moves_made) < 0) return -1;
    PyObject *value = field(game, "turn");
    int64_t v;
    if (!value) return -1;
    int rc = as_int64(value, "game.turn", 0, 1, 0, 0, &v);
    Py_DECREF(value);
    if (rc < 0) return -1;
    s->turn = (int)v;
    value = field(game, "plies");
    if (!value) return -1;
    rc = as_int64(value, "game.plies", 0, INT64_MAX / 2, 0, 0, &s->plies);
    Py_DECREF(value);
    if (rc < 0) return -1;
    PyObject *jokers = fast_attr(game, "jack_as_joker", 2);
    if (!jokers) return -1;
    for (int seat = 0; seat < 2; seat++) {
        int truth = PyObject_IsTrue(PySequence_Fast_GET_ITEM(jokers, seat));
        if (truth < 0) {
            Py_DECREF(jokers);
            return -1;
        }
        s->jack_as_joker[seat] = (unsigned char)truth;
    }
    Py_DECREF(jokers);
    if (fill_result(s, game) < 0) return -1;
    for (int k = 0; k < 6; k++) refresh(s, k);
    return 0;
}

static State *new_state(int cap) {
    State *s = PyObject_NewVar(State, &StateType, (Py_ssize_t)N_LISTS * cap);
    if (!s) return NULL;
    memset((char *)s + offsetof(State, rules), 0, offsetof(State, cards) - offsetof(State, rules));
    s->cap = cap;
    return s;
}

/* ------------------------------------------------------------------ the deal (deck.py, Game.start) */

/* S of deck.resolved_samples: the sample decks a random deck is drawn from. */
static int64_t samples_of(const CRules *r) {
    if (r->samples >= 0) return r->samples;
    int64_t largest = r->deck_size >= 0 ? r->deck_size : r->deck_max;
    int64_t per = 52 + r->jokers;
    int64_t needed = (largest + per - 1) / per;
    return needed > r->samples_min ? needed : r->samples_min;
}

/* Whether one seat's settings build a random deck (deck.py reports why not, first) that
   fits the core. */
static int deck_settings_ok(const CRules *r) {
    int64_t bound = r->deck_size >= 0 ? r->deck_size : r->deck_max;
    int64_t count = samples_of(r);
    return r->deck_min <= bound && bound <= r->deck_max && r->samples_min <= count &&
           count <= r->samples_max && bound <= count * (52 + r->jokers) && r->jokers <= 3 &&
           count <= 4096 && bound <= MAX_CARDS / 2;
}

/* One sample deck, unshuffled, as cards.sample_deck makes it: S H D C, Ace to King each,
   then the Jokers. */
static void fill_sample(uint32_t *out, int owner, int64_t tag, int64_t jokers) {
    uint32_t base = (uint32_t)owner << 9 | (uint32_t)tag << 10;
    int n = 0;
    for (uint32_t suit = 0; suit < 4; suit++) {
        for (uint32_t rank = ACE; rank <= KING; rank++) out[n++] = rank | suit << 4 | 1u << 7 | base;
    }
    for (uint32_t copy = 1; copy <= (uint32_t)jokers; copy++)
        out[n++] = JOKER | NO_SUIT << 4 | copy << 7 | base;
}

/* One pass of deck._take: fresh shuffled samples, `size` cards into `out` in the order
   taken. `pool` has room for `count` samples, `live` and `left` for `count` ints each. */
static void take_cards(Mersenne *mt, const CRules *r, int owner, int count, int size,
                       uint32_t *pool, uint32_t *out, int *live, int *left) {
    int per = 52 + (int)r->jokers;
    for (int t = 0; t < count; t++) fill_sample(pool + (size_t)t * per, owner, t + 1, r->jokers);
    if (r->sampling == SAMPLING_POOLED) {
        mt_shuffle(mt, pool, count * per);
        memcpy(out, pool, (size_t)size * sizeof *out);
        return;
    }
    for (int t = 0; t < count; t++) mt_shuffle(mt, pool + (size_t)t * per, per);
    if (r->sampling == SAMPLING_BALANCED) {
        /* round robin from the top (last card) of each sample */
        int n = 0;
        for (int layer = 0; n < size; layer++) {
            for (int t = 0; t < count && n < size; t++) out[n++] = pool[(size_t)t * per + per - 1 - layer];
        }
        return;
    }
    int alive = count;
    for (int t = 0; t < count; t++) {
        live[t] = t;
        left[t] = per;
    }
    for (int n = 0; n < size; n++) {
        int index = alive > 1 ? (int)mt_below(mt, (uint32_t)alive) : 0;
        int t = live[index];
        out[n] = pool[(size_t)t * per + --left[t]];
        if (!left[t]) {
            memmove(live + index, live + index + 1, (size_t)(alive - index - 1) * sizeof *live);
            alive--;
        }
    }
}

/* deck.build_random_deck: seat `owner`'s deck into `out` (top card last); its size, or -1
   when interrupted. */
static int build_deck(Mersenne *mt, const CRules *r, int owner, uint32_t *out, uint32_t *pool,
                      int *live, int *left) {
    int size = r->deck_size >= 0
                   ? (int)r->deck_size
                   : (int)r->deck_min + (int)mt_below(mt, (uint32_t)(r->deck_max - r->deck_min + 1));
    int count = (int)samples_of(r);
    int dealt = 0, needed = 0;
    if (r->mulligan == MULLIGAN_REBUILD) {
        dealt = r->opening_hand < size ? (int)r->opening_hand : size;
        needed = dealt < 3 ? dealt : 3;
    } else if (r->opening_mode != OPENING_NONE) {
        dealt = size;
        needed = size < 3 ? size : 3;
    }
    for (long tries = 1;; tries++) {
        take_cards(mt, r, owner, count, size, pool, out, live, left);
        if (!needed || numerals_in(out + size - dealt, dealt) >= needed) return size;
        if (tries % 4096 == 0 && PyErr_CheckSignals() < 0) return -1;
    }
}

/* Game.start's mulligans under `reshuffle` (or `discard` in a simultaneous opening). */
static void reshuffle_mulligans(State *s, Mersenne *mt) {
    for (int seat = 0; seat < 2; seat++) {
        const CRules *r = &s->rules[seat];
        int policy = r->mulligan;
        if (policy == MULLIGAN_DISCARD && r->opening_mode == OPENING_SIMULTANEOUS)
            policy = MULLIGAN_RESHUFFLE;
        if (policy != MULLIGAN_RESHUFFLE) continue;
        int hand = L_HAND + seat, deck = L_DECK + seat;
        if (numerals_in(list_of(s, hand), s->len[hand]) + numerals_in(list_of(s, deck), s->len[deck]) < 3)
            continue;
        while (numerals_in(list_of(s, hand), s->len[hand]) < 3) {
            memcpy(list_of(s, deck) + s->len[deck], list_of(s, hand), (size_t)s->len[hand] * sizeof(uint32_t));
            s->len[deck] += s->len[hand];
            s->len[hand] = 0;
            mt_shuffle(mt, list_of(s, deck), s->len[deck]);
            draw(s, seat, r->opening_hand);
        }
    }
}

/* ------------------------------------------------------------------ Python methods */

static PyObject *State_from_export(PyObject *cls, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"exported", "seed", NULL};
    PyObject *game, *seed_obj = NULL;
    (void)cls;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:from_export", keywords, &game, &seed_obj))
        return NULL;
    if (!PyTuple_Check(game) || PyTuple_GET_SIZE(game) != N_EXPORT_FIELDS) {
        PyErr_Format(PyExc_TypeError,
                     "from_export takes the tuple of Game.export_core() (%zd fields: "
                     "see EXPORT_FIELDS)", N_EXPORT_FIELDS);
        return NULL;
    }
    uint64_t seed = 0;
    if (seed_obj) {
        if (!PyLong_Check(seed_obj)) {
            PyErr_SetString(PyExc_TypeError, "seed must be an int");
            return NULL;
        }
        seed = PyLong_AsUnsignedLongLongMask(seed_obj);
        if (seed == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    }
    PyObject *pairs[3] = {NULL, NULL, NULL}, *caravans = NULL;
    State *s = NULL;
    Py_ssize_t total = 0;
    for (int p = 0; p < 3; p++) {
        if (!(pairs[p] = fast_attr(game, PAIR_NAMES[p], 2))) goto fail;
    }
    if (!(caravans = fast_attr(game, "caravans", 6))) goto fail;
    if (count_cards(pairs, caravans, &total) < 0) goto fail;
    if (total > MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "the compiled core takes at most %d cards, not %zd",
                     MAX_CARDS, total);
        goto fail;
    }
    if (!(s = new_state(total > 0 ? (int)total : 1))) goto fail;
    if (fill_state(s, game, pairs, caravans) < 0) goto fail;
    xoshiro_seed(&s->rng, seed);
    for (int p = 0; p < 3; p++) Py_DECREF(pairs[p]);
    Py_DECREF(caravans);
    return (PyObject *)s;
fail:
    for (int p = 0; p < 3; p++) Py_XDECREF(pairs[p]);
    Py_XDECREF(caravans);
    Py_XDECREF(s);
    return NULL;
}

/* Both seats' random decks as deck.build_random_deck builds them from random.Random(seed):
   ABC's then DEF's, top card last, into a new buffer (PyMem_Free it) of sizes[0] + sizes[1]
   cards; the generator `mt` is left where the Python one would be. NULL with an exception
   when the settings do not fit the core. */
static uint32_t *build_decks(PyObject *const objects[2], PyObject *seed, CRules rules[2],
                             Mersenne *mt, int sizes[2]) {
    if (!PyLong_Check(seed)) {
        PyErr_SetString(PyExc_TypeError, "seed must be an int");
        return NULL;
    }
    size_t deck_room = 0, pool_room = 0, counts = 0;
    for (int seat = 0; seat < 2; seat++) {
        if (convert_rules(objects[seat], &rules[seat]) < 0) return NULL;
        if (!deck_settings_ok(&rules[seat])) {
            PyErr_Format(PyExc_ValueError, "the rules of %s cannot build a random deck in the "
                         "compiled core", SEATS[seat]);
            return NULL;
        }
        const CRules *r = &rules[seat];
        size_t count = (size_t)samples_of(r);
        deck_room += (size_t)(r->deck_size >= 0 ? r->deck_size : r->deck_max);
        if (count * (size_t)(52 + r->jokers) > pool_room) pool_room = count * (size_t)(52 + r->jokers);
        if (count > counts) counts = count;
    }
    if (mt_seed(mt, seed) < 0) return NULL;
    uint32_t *buffer = PyMem_Malloc((deck_room + pool_room) * sizeof(uint32_t) + 2 * counts * sizeof(int) + 1);
    if (!buffer) {
        PyErr_NoMemory();
        return NULL;
    }
    uint32_t *pool = buffer + deck_room;
    int *live = (int *)(pool + pool_room), *left = live + counts;
    sizes[0] = build_deck(mt, &rules[0], 0, buffer, pool, live, left);
    sizes[1] = sizes[0] < 0 ? -1 : build_deck(mt, &rules[1], 1, buffer + sizes[0], pool, live, left);
    if (sizes[1] < 0) {
        PyMem_Free(buffer);
        return NULL;
    }
    return buffer;
}

static PyObject *list_of_cards(const uint32_t *cards, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *card = PyLong_FromUnsignedLong(cards[i]);
        if (!card) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, card);
    }
    return list;
}

/* deal_decks(abc, def_, seed): the decks Game.new builds, for its deal in Python. */
static PyObject *core_deal_decks(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "deal_decks() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    CRules rules[2];
    Mersenne mt;
    int sizes[2];
    uint32_t *buffer = build_decks(args, args[2], rules, &mt, sizes);
    if (!buffer) return NULL;
    PyObject *abc = list_of_cards(buffer, sizes[0]);
    PyObject *def = abc ? list_of_cards(buffer + sizes[0], sizes[1]) : NULL;
    PyMem_Free(buffer);
    if (!def) {
        Py_XDECREF(abc);
        return NULL;
    }
    return Py_BuildValue("(NNK)", abc, def, (unsigned long long)mt.draws);
}

static PyObject *State_deal(PyObject *cls, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"abc", "def_", "seed", "first", NULL};
    PyObject *objects[2], *seed;
    int first = 0;
    (void)cls;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|i:deal", keywords, &objects[0],
                                     &objects[1], &seed, &first))
        return NULL;
    if (first != 0 && first != 1) {
        PyErr_SetString(PyExc_ValueError, "first must be 0 (ABC) or 1 (DEF)");
        return NULL;
    }
    CRules rules[2];
    Mersenne mt;
    int sizes[2];
    uint32_t *buffer = build_decks(objects, seed, rules, &mt, sizes);
    if (!buffer) return NULL;
    int kings = 0;
    for (int i = 0; i < sizes[0] + sizes[1]; i++) kings += RANK(buffer[i]) == KING;
    if (kings > MAX_KINGS) {
        PyMem_Free(buffer);
        PyErr_Format(PyExc_ValueError, "the compiled core takes at most %d Kings, not %d",
                     MAX_KINGS, kings);
        return NULL;
    }
    State *s = new_state(sizes[0] + sizes[1]);
    if (!s) {
        PyMem_Free(buffer);
        return NULL;
    }
    s->rules[0] = rules[0];
    s->rules[1] = rules[1];
    memcpy(list_of(s, L_DECK), buffer, (size_t)sizes[0] * sizeof(uint32_t));
    memcpy(list_of(s, L_DECK + 1), buffer + sizes[0], (size_t)sizes[1] * sizeof(uint32_t));
    PyMem_Free(buffer);
    s->len[L_DECK] = sizes[0];
    s->len[L_DECK + 1] = sizes[1];
    s->turn = first;
    for (int k = 0; k < 6; k++) s->held[k] = HELD_NONE;
    for (int seat = 0; seat < 2; seat++) {
        s->jack_as_joker[seat] = rules[seat].jokers == 0 && rules[seat].jack_is_joker_without_jokers;
    }
    for (int seat = 0; seat < 2; seat++) draw(s, seat, rules[seat].opening_hand);
    reshuffle_mulligans(s, &mt);
    for (int k = 0; k < 6; k++) refresh(s, k);
    if (!has_legal_move(s)) finish(s, 1 << (1 - s->turn), R_NO_LEGAL_MOVE);
    xoshiro_seed(&s->rng, PyLong_AsUnsignedLongLongMask(seed));
    return (PyObject *)s;
}

static void State_dealloc(PyObject *self) { Py_TYPE(self)->tp_free(self); }

static PyObject *State_clone(PyObject *self, PyObject *unused) {
    State *s = (State *)self;
    (void)unused;
    State *other = PyObject_NewVar(State, &StateType, Py_SIZE(s));
    if (!other) return NULL;
    /* everything after the object header; of each list only the cards in use */
    memcpy((char *)other + offsetof(State, rules), (char *)s + offsetof(State, rules),
           offsetof(State, cards) - offsetof(State, rules));
    for (int l = 0; l < N_LISTS; l++) {
        memcpy(list_of(other, l), list_of(s, l), (size_t)s->len[l] * sizeof(uint32_t));
    }
    return (PyObject *)other;
}

/* Convert a Python int to a move; codes of 2**64 and more keep their low fields and get an
   out-of-range slot, as Python's unpack would give them. */
static int move_from_object(PyObject *code, Move *m) {
    if (!PyLong_Check(code) || PyBool_Check(code)) {
        PyErr_Format(PyExc_TypeError, "a move code must be an int, not %.100s",
                     Py_TYPE(code)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(code, &overflow);
    if (value == -1 && !overflow && PyErr_Occurred()) return -1;
    if (overflow < 0 || (!overflow && value < 0)) {
        PyErr_SetString(PyExc_ValueError, "a move code must not be negative");
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLongMask(code);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *m = unpack(v);
    if (overflow) m->slot = INT64_MAX;
    return 0;
}

static int64_t *legal_buffer(const State *s, size_t *count) {
    int64_t *out = PyMem_Malloc(legal_bound(s) * sizeof(int64_t));
    if (!out) {
        PyErr_NoMemory();
        return NULL;
    }
    *count = s->reason == R_NONE ? legal_moves(s, out) : 0;
    return out;
}

static PyObject *State_legal_codes(PyObject *self, PyObject *unused) {
    (void)unused;
    size_t n;
    int64_t *codes = legal_buffer((State *)self, &n);
    if (!codes) return NULL;
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *item = PyLong_FromLongLong(codes[i]);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    PyMem_Free(codes);
    return list;
}

/* The caravans of the tables converted last, by position: a caravan is an immutable tuple that
   a game replaces when the caravan changes, so the same object (held here, so that its address
   cannot be reused) has the same cards. A match asks for a table at every move and a move
   changes one or two caravans: the others are copied from here instead of converted again. */
#define CACHED_CARDS 48
static struct {
    PyObject *caravan;
    int n;
    uint32_t cards[CACHED_CARDS];
} caravan_cache[6];

/* The summaries likewise (immutable tuples, replaced when their caravan changes). */
static struct {
    PyObject *summary;
    Summary value; /* crowding is not part of it */
} summary_cache[6];

static void clear_caravan_cache(void) {
    for (int k = 0; k < 6; k++) {
        Py_CLEAR(caravan_cache[k].caravan);
        Py_CLEAR(summary_cache[k].summary);
    }
}

/* The compiled state of a legality.Table: the table's caravans, summaries and crowding, the
   mover's hand, rules and Start-round placements (`placed`, 3 when past the Start round) go
   into a scratch state (no decks, no other hand, the other seat past the Start round), whose
   legal walk and move_error are the core's own. It answers legality questions about the table
   only. */
static State *table_state(PyObject *caravans, PyObject *summaries, PyObject *crowding,
                          PyObject *rules, long mover, PyObject *hand, int jack_as_joker,
                          long placed) {
    if (mover < 0 || mover > 1) {
        PyErr_SetString(PyExc_ValueError, "mover must be 0 or 1");
        return NULL;
    }
    if (placed < 0 || placed > 3) {
        PyErr_SetString(PyExc_ValueError, "placed must be 0 to 3");
        return NULL;
    }
    if (!PyTuple_Check(caravans) || PyTuple_GET_SIZE(caravans) != 6 || !PyTuple_Check(summaries) ||
        PyTuple_GET_SIZE(summaries) != 6 || !PyTuple_Check(crowding) ||
        PyTuple_GET_SIZE(crowding) != 6 || !PyTuple_Check(rules) || PyTuple_GET_SIZE(rules) != 2) {
        PyErr_SetString(PyExc_TypeError, "caravans, summaries, crowding (6 each) and rules (2) "
                                         "must be tuples");
        return NULL;
    }
    Py_ssize_t total = PyObject_Length(hand);
    if (total < 0) return NULL;
    for (int k = 0; k < 6; k++) {
        PyObject *slots = PyTuple_GET_ITEM(caravans, k);
        if (slots == caravan_cache[k].caravan) {
            total += caravan_cache[k].n;
            continue;
        }
        if (!PyTuple_Check(slots)) {
            PyErr_SetString(PyExc_TypeError, "a caravan must be a tuple of slots");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(slots); i++) {
            PyObject *slot = PyTuple_GET_ITEM(slots, i);
            if (!PyTuple_Check(slot) || PyTuple_GET_SIZE(slot) != 2 ||
                !PyTuple_Check(PyTuple_GET_ITEM(slot, 1))) {
                PyErr_SetString(PyExc_TypeError, "a caravan slot must be a (numeral, faces) tuple");
                return NULL;
            }
            total += 1 + PyTuple_GET_SIZE(PyTuple_GET_ITEM(slot, 1));
        }
    }
    if (total > MAX_CARDS) {
        PyErr_Format(PyExc_ValueError, "the compiled core takes at most %d cards", MAX_CARDS);
        return NULL;
    }
    State *s = new_state(total > 0 ? (int)total : 1);
    if (!s) return NULL;
    for (int seat = 0; seat < 2; seat++) {
        if (convert_rules(PyTuple_GET_ITEM(rules, seat), &s->rules[seat]) < 0) goto fail;
        s->placed[seat] = seat == mover ? placed : 3;
    }
    s->turn = mover;
    s->jack_as_joker[mover] = (unsigned char)jack_as_joker;
    s->reason = R_NONE;
    if (fill_list(s, L_HAND + mover, hand, "hand card") < 0) goto fail;
    for (int k = 0; k < 6; k++) {
        PyObject *caravan = PyTuple_GET_ITEM(caravans, k);
        uint32_t *cards = list_of(s, L_CARAVAN + k);
        if (caravan == caravan_cache[k].caravan) {
            memcpy(cards, caravan_cache[k].cards, (size_t)caravan_cache[k].n * sizeof *cards);
            s->len[L_CARAVAN + k] = caravan_cache[k].n;
        } else {
            if (fill_caravan(s, k, caravan) < 0) goto fail;
            int n = s->len[L_CARAVAN + k];
            if (n <= CACHED_CARDS) {
                Py_XSETREF(caravan_cache[k].caravan, Py_NewRef(caravan));
                caravan_cache[k].n = n;
                memcpy(caravan_cache[k].cards, cards, (size_t)n * sizeof *cards);
            }
        }
        PyObject *summary = PyTuple_GET_ITEM(summaries, k);
        Summary *m = &s->summary[k];
        if (summary == summary_cache[k].summary) {
            *m = summary_cache[k].value;
        } else {
            long values[5];
            if (!PyTuple_Check(summary) || PyTuple_GET_SIZE(summary) != 5) {
                PyErr_SetString(PyExc_TypeError, "a summary must be a tuple of 5 ints");
                goto fail;
            }
            for (int i = 0; i < 5; i++) {
                values[i] = PyLong_AsLong(PyTuple_GET_ITEM(summary, i));
                if (values[i] == -1 && PyErr_Occurred()) goto fail;
            }
            m->value = values[0];
            m->size = (int)values[1];
            m->last_rank = (int)values[2];
            m->suit = (int)values[3];
            m->direction = (int)values[4];
            Py_XSETREF(summary_cache[k].summary, Py_NewRef(summary));
            summary_cache[k].value = *m;
        }
        long most = PyLong_AsLong(PyTuple_GET_ITEM(crowding, k));
        if (most == -1 && PyErr_Occurred()) goto fail;
        m->crowding = (int)most;
    }
    return s;
fail:
    Py_DECREF(s);
    return NULL;
}

/* The legal moves of a legality.Table outside the Start round (legality.legal_parts takes
   them from here when the core is built). */
static PyObject *State_legal_of_table(PyObject *cls, PyObject *args) {
    (void)cls;
    PyObject *caravans, *summaries, *crowding, *rules, *hand;
    int mover, jack_as_joker;
    if (!PyArg_ParseTuple(args, "OOOOiOp:legal_of_table", &caravans, &summaries, &crowding,
                          &rules, &mover, &hand, &jack_as_joker))
        return NULL;
    State *s = table_state(caravans, summaries, crowding, rules, mover, hand, jack_as_joker, 3);
    if (!s) return NULL;
    PyObject *list = State_legal_codes((PyObject *)s, NULL);
    Py_DECREF(s);
    return list;
}

/* The scratch state of a table itself, for a turn's several questions (observation.py):
   asked at every move of a match, so its arguments are taken without a format string. */
static PyObject *State_of_table(PyObject *cls, PyObject *const *args, Py_ssize_t nargs) {
    (void)cls;
    if (nargs != 8) {
        PyErr_Format(PyExc_TypeError, "of_table() takes 8 arguments (%zd given)", nargs);
        return NULL;
    }
    long mover = PyLong_AsLong(args[4]);
    if (mover == -1 && PyErr_Occurred()) return NULL;
    int jack_as_joker = PyObject_IsTrue(args[6]);
    if (jack_as_joker < 0) return NULL;
    long placed = PyLong_AsLong(args[7]);
    if (placed == -1 && PyErr_Occurred()) return NULL;
    return (PyObject *)table_state(args[0], args[1], args[2], args[3], mover, args[5],
                                   jack_as_joker, placed);
}

static PyObject *State_count_legal(PyObject *self, PyObject *unused) {
    (void)unused;
    const State *s = (const State *)self;
    return PyLong_FromSize_t(s->reason == R_NONE ? count_legal(s) : 0);
}

static PyObject *State_nth_legal(PyObject *self, PyObject *index) {
    const State *s = (const State *)self;
    Py_ssize_t i = PyNumber_AsSsize_t(index, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    size_t n = s->reason == R_NONE ? count_legal(s) : 0;
    if (i < 0 || (size_t)i >= n) {
        PyErr_Format(PyExc_IndexError, "legal move index %zd out of range (%zu legal moves)", i, n);
        return NULL;
    }
    return PyLong_FromLongLong(nth_legal(s, (size_t)i));
}

/* nth_legal(rng.randrange(count_legal())) for the random.Random whose bound getrandbits is
   given, with its very draws: random.Random._randbelow(n) takes n.bit_length() bits, again
   until the value is below n (the random bot's pick at every move of a match). */
static PyObject *State_pick_legal(PyObject *self, PyObject *getrandbits) {
    const State *s = (const State *)self;
    /* One walk listing the moves where they fit on the stack, else a count and a pick. */
    int64_t listed[512];
    int listing = s->reason == R_NONE && legal_bound(s) <= sizeof listed / sizeof listed[0];
    size_t n = s->reason != R_NONE ? 0 : listing ? legal_moves(s, listed) : count_legal(s);
    if (!n) {
        PyErr_SetString(PyExc_ValueError, "no legal move to pick");
        return NULL;
    }
    PyObject *bits = PyLong_FromLong(64 - __builtin_clzll((unsigned long long)n));
    if (!bits) return NULL;
    unsigned long long value;
    do {
        PyObject *drawn = PyObject_CallOneArg(getrandbits, bits);
        if (!drawn) {
            Py_DECREF(bits);
            return NULL;
        }
        value = PyLong_AsUnsignedLongLong(drawn);
        Py_DECREF(drawn);
        if (value == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(bits);
            return NULL;
        }
    } while (value >= n);
    Py_DECREF(bits);
    return PyLong_FromLongLong(listing ? listed[value] : nth_legal(s, (size_t)value));
}

/* Refusal `error` of move m as a Python string: the direction refusal names the caravan's
   direction, last rank and suit, worded by legality.direction_refusal. */
static PyObject *error_text(const State *s, const Move *m, const char *error) {
    if (error == E_DIRECTION) {
        const Summary *k = &s->summary[m->caravan];
        return PyObject_CallFunction(direction_refusal, "iiii", m->caravan, k->last_rank,
                                     k->suit, k->direction);
    }
    return PyUnicode_FromString(error);
}

static PyObject *State_error(PyObject *self, PyObject *code) {
    State *s = (State *)self;
    Move m;
    if (move_from_object(code, &m) < 0) return NULL;
    const char *error = s->reason != R_NONE ? E_OVER : move_error(s, &m);
    if (!error) Py_RETURN_NONE;
    return error_text(s, &m, error);
}

static PyObject *State_is_legal(PyObject *self, PyObject *code) {
    State *s = (State *)self;
    Move m;
    if (move_from_object(code, &m) < 0) return NULL;
    return PyBool_FromLong(s->reason == R_NONE && move_error(s, &m) == NULL);
}

static PyObject *State_apply(PyObject *self, PyObject *code) {
    State *s = (State *)self;
    Move m;
    if (move_from_object(code, &m) < 0) return NULL;
    const char *error = s->reason != R_NONE ? E_OVER : move_error(s, &m);
    if (error) {
        PyObject *text = error_text(s, &m, error);
        if (text) {
            PyErr_SetObject(IllegalMove, text);
            Py_DECREF(text);
        }
        return NULL;
    }
    apply_move(s, &m);
    Py_RETURN_NONE;
}

static PyObject *State_seed_random(PyObject *self, PyObject *seed) {
    if (!PyLong_Check(seed)) {
        PyErr_SetString(PyExc_TypeError, "seed must be an int");
        return NULL;
    }
    uint64_t value = PyLong_AsUnsignedLongLongMask(seed);
    if (value == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    xoshiro_seed(&((State *)self)->rng, value);
    Py_RETURN_NONE;
}

#define PLAYOUT_STACK 1024

static PyObject *State_playout(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"seed", "limit", NULL};
    State *s = (State *)self;
    PyObject *seed = Py_None;
    long long limit = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OL:playout", keywords, &seed, &limit))
        return NULL;
    if (seed != Py_None) {
        PyObject *done = State_seed_random(self, seed);
        if (!done) return NULL;
        Py_DECREF(done);
    }
    int64_t stack[PLAYOUT_STACK];
    int64_t *codes = stack;
    size_t room = PLAYOUT_STACK;
    long long played = 0;
    while (s->reason == R_NONE && (limit < 0 || played < limit)) {
        size_t need = legal_bound(s);
        if (need > room) {
            int64_t *bigger = PyMem_Malloc(need * sizeof(int64_t));
            if (!bigger) {
                if (codes != stack) PyMem_Free(codes);
                return PyErr_NoMemory();
            }
            if (codes != stack) PyMem_Free(codes);
            codes = bigger;
            room = need;
        }
        size_t n = legal_moves(s, codes);
        if (!n) break; /* only an imported position can be stuck without a result */
        Move m = unpack((uint64_t)codes[n == 1 ? 0 : xoshiro_below(&s->rng, (uint32_t)n)]);
        apply_move(s, &m);
        /* very long games (rules that never force an end) can still be interrupted */
        if (++played % 65536 == 0 && PyErr_CheckSignals() < 0) {
            if (codes != stack) PyMem_Free(codes);
            return NULL;
        }
    }
    if (codes != stack) PyMem_Free(codes);
    return PyLong_FromLongLong(played);
}

static PyObject *cards_tuple(const uint32_t *cards, int n) {
    PyObject *tuple = PyTuple_New(n);
    for (int i = 0; tuple && i < n; i++) {
        PyObject *item = PyLong_FromUnsignedLong(cards[i]);
        if (!item) {
            Py_CLEAR(tuple);
            break;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

static PyObject *caravan_tuple(const State *s, int k) {
    const uint32_t *c = clist_of(s, L_CARAVAN + k);
    int n = s->len[L_CARAVAN + k];
    PyObject *slots = PyTuple_New(s->summary[k].size);
    if (!slots) return NULL;
    Py_ssize_t index = 0;
    for (int start = 0; start < n; index++) {
        int end = slot_end(c, n, start);
        PyObject *faces = cards_tuple(c + start + 1, end - start - 1);
        PyObject *slot = faces ? Py_BuildValue("(kN)", (unsigned long)c[start], faces) : NULL;
        if (!slot) {
            Py_DECREF(slots);
            return NULL;
        }
        PyTuple_SET_ITEM(slots, index, slot);
        start = end;
    }
    return slots;
}

static PyObject *result_object(const State *s) {
    if (s->reason == R_NONE) Py_RETURN_NONE;
    PyObject *winners = PyTuple_New((s->winners & 1) + ((s->winners >> 1) & 1));
    if (!winners) return NULL;
    Py_ssize_t i = 0;
    for (int seat = 0; seat < 2; seat++) {
        if (!(s->winners & 1 << seat)) continue;
        PyObject *name = PyUnicode_FromString(SEATS[seat]);
        if (!name) {
            Py_DECREF(winners);
            return NULL;
        }
        PyTuple_SET_ITEM(winners, i++, name);
    }
    return Py_BuildValue("(Ns)", winners, REASONS[s->reason]);
}

/* A tuple built by `make(s, index)` for index 0..count-1. */
static PyObject *tuple_of(const State *s, int count, PyObject *(*make)(const State *, int)) {
    PyObject *tuple = PyTuple_New(count);
    for (int i = 0; tuple && i < count; i++) {
        PyObject *item = make(s, i);
        if (!item) {
            Py_CLEAR(tuple);
            break;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    return tuple;
}

static PyObject *summary_item(const State *s, int k) {
    const Summary *m = &s->summary[k];
    return Py_BuildValue("(Liiii)", (long long)m->value, m->size, m->last_rank, m->suit,
                         m->direction);
}

static PyObject *crowding_item(const State *s, int k) {
    return PyLong_FromLong(s->summary[k].crowding);
}

static PyObject *held_item(const State *s, int k) {
    if (s->held[k] == HELD_NONE) Py_RETURN_NONE;
    return PyLong_FromLong(s->held[k]);
}

static PyObject *deck_item(const State *s, int seat) {
    return cards_tuple(clist_of(s, L_DECK + seat), s->len[L_DECK + seat]);
}

static PyObject *hand_item(const State *s, int seat) {
    return cards_tuple(clist_of(s, L_HAND + seat), s->len[L_HAND + seat]);
}

static PyObject *pile_item(const State *s, int seat) {
    return cards_tuple(clist_of(s, L_PILE + seat), s->len[L_PILE + seat]);
}

static PyObject *State_export(PyObject *self, PyObject *unused) {
    const State *s = (const State *)self;
    (void)unused;
    return Py_BuildValue(
        "(NNNNNNN(LL)(LL)iL(OO)N)", tuple_of(s, 6, caravan_tuple), tuple_of(s, 6, summary_item),
        tuple_of(s, 6, crowding_item), tuple_of(s, 6, held_item), tuple_of(s, 2, hand_item),
        tuple_of(s, 2, deck_item), tuple_of(s, 2, pile_item), (long long)s->placed[0],
        (long long)s->placed[1], (long long)s->moves_made[0], (long long)s->moves_made[1],
        s->turn, (long long)s->plies, s->jack_as_joker[0] ? Py_True : Py_False,
        s->jack_as_joker[1] ? Py_True : Py_False, result_object(s));
}

static PyObject *State_get_result(PyObject *self, void *closure) {
    (void)closure;
    return result_object((State *)self);
}

static PyObject *State_get_turn(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(((State *)self)->turn);
}

static PyObject *State_get_plies(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(((State *)self)->plies);
}

static PyObject *State_get_over(PyObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(((State *)self)->reason != R_NONE);
}

#include "_worlds.h"
#include "_search.h"

static PyMethodDef State_methods[] = {
    {"from_export", (PyCFunction)(void (*)(void))State_from_export,
     METH_CLASS | METH_VARARGS | METH_KEYWORDS,
     "from_export(exported, seed=0)\n--\n\nImport a Python Game at any point of play from "
     "the tuple of Game.export_core() (fields EXPORT_FIELDS); seed seeds the generator used "
     "for reshuffles and playouts."},
    {"legal_of_table", (PyCFunction)State_legal_of_table, METH_CLASS | METH_VARARGS,
     "legal_of_table(caravans, summaries, crowding, rules, mover, hand, jack_as_joker)\n--\n\n"
     "The legal codes of a legality.Table outside the Start round, in canonical order."},
    {"of_table", (PyCFunction)(void (*)(void))State_of_table, METH_CLASS | METH_FASTCALL,
     "of_table(caravans, summaries, crowding, rules, mover, hand, jack_as_joker, placed)\n"
     "--\n\nThe compiled state of a legality.Table whose mover has made `placed` Start-round "
     "placements, for legality questions only (legal_codes, count_legal, nth_legal, is_legal, "
     "error): it has no decks and no other hand."},
    {"deal", (PyCFunction)(void (*)(void))State_deal, METH_CLASS | METH_VARARGS | METH_KEYWORDS,
     "deal(abc, def_, seed, first=0)\n--\n\nA new game with random decks, dealt exactly as "
     "Game.new deals it from the same int seed (decks, deal, mulligans); seed also seeds the "
     "generator used for reshuffles and playouts."},
    {"clone", State_clone, METH_NOARGS, "clone()\n--\n\nAn independent copy."},
    {"legal_codes", State_legal_codes, METH_NOARGS,
     "legal_codes()\n--\n\nThe legal move codes in canonical order ([] once the game is over)."},
    {"count_legal", State_count_legal, METH_NOARGS,
     "count_legal()\n--\n\nThe number of legal moves."},
    {"nth_legal", State_nth_legal, METH_O,
     "nth_legal(index)\n--\n\nThe legal move at `index` of the canonical order, without "
     "listing the others."},
    {"pick_legal", State_pick_legal, METH_O,
     "pick_legal(getrandbits)\n--\n\nThe legal move at random.Random.randrange(count_legal()), "
     "drawn with `getrandbits` (a random.Random's bound getrandbits): the same draws and the "
     "same move."},
    {"is_legal", State_is_legal, METH_O, "is_legal(code)\n--\n\nWhether the move is legal."},
    {"error", State_error, METH_O,
     "error(code)\n--\n\nThe message refusing the move, or None if it is legal."},
    {"apply", State_apply, METH_O,
     "apply(code)\n--\n\nApply a move for the seat to move; raises IllegalMove and changes "
     "nothing if the rules refuse it."},
    {"seed_random", State_seed_random, METH_O,
     "seed_random(seed)\n--\n\nReseed the generator used for reshuffles and playouts."},
    SAMPLE_WORLD_METHOD
    SEARCH_METHODS
    {"playout", (PyCFunction)(void (*)(void))State_playout, METH_VARARGS | METH_KEYWORDS,
     "playout(seed=None, limit=-1)\n--\n\nPlay uniformly random legal moves for both seats "
     "until the game ends (or `limit` moves were made); returns the number of moves made."},
    {"export", State_export, METH_NOARGS,
     "export()\n--\n\nThe whole state as plain tuples: (caravans, summaries, crowding, held, "
     "hands, decks, piles, placed, moves_made, turn, plies, jack_as_joker, result)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef State_getset[] = {
    {"result", State_get_result, NULL, "None, or (winners, reason) once the game is over.", NULL},
    {"turn", State_get_turn, NULL, "The seat to move: 0 (ABC) or 1 (DEF).", NULL},
    {"plies", State_get_plies, NULL, "Moves made so far in the game.", NULL},
    {"over", State_get_over, NULL, "Whether the game has ended.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cardtable.games.caravan._core.State",
    .tp_basicsize = offsetof(State, cards),
    .tp_itemsize = sizeof(uint32_t),
    .tp_dealloc = State_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A Caravan game in play, imported from a Python Game with State.from_export.",
    .tp_methods = State_methods,
    .tp_getset = State_getset,
};

/* ------------------------------------------------------------------ module */

static void core_free(void *module) {
    (void)module;
    Py_CLEAR(rules_cache_key[0]);
    Py_CLEAR(rules_cache_key[1]);
    clear_caravan_cache();
    Py_CLEAR(IllegalMove);
    Py_CLEAR(messages);
    Py_CLEAR(direction_refusal);
}

static PyMethodDef core_methods[] = {
    {"deal_decks", (PyCFunction)(void (*)(void))core_deal_decks, METH_FASTCALL,
     "deal_decks(abc, def_, seed)\n--\n\nThe random decks Game.new builds from the int seed "
     "(ABC's, then DEF's, each a list with its top card last) and how many 32-bit draws "
     "random.Random(seed) made for them: (abc_deck, def_deck, draws)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cardtable.games.caravan._core",
    .m_doc = "Caravan's compiled core: the play phase of a game in C (see fast.py).",
    .m_size = -1,
    .m_methods = core_methods,
    .m_free = core_free,
};

PyMODINIT_FUNC PyInit__core(void) {
    mt_init_genrand(&mt_base, 19650218u);
    if (PyType_Ready(&StateType) < 0) return NULL;
    PyObject *errors = PyImport_ImportModule("cardtable.games.caravan.errors");
    if (!errors) return NULL;
    Py_XSETREF(IllegalMove, PyObject_GetAttrString(errors, "IllegalMove"));
    Py_DECREF(errors);
    if (!IllegalMove) return NULL;
    if (load_messages() < 0) return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (!module) return NULL;
    if (PyModule_AddObjectRef(module, "State", (PyObject *)&StateType) < 0 ||
        PyModule_AddIntConstant(module, "MAX_CARDS", MAX_CARDS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    PyObject *fields = PyTuple_New(N_EXPORT_FIELDS);
    for (Py_ssize_t i = 0; fields && i < N_EXPORT_FIELDS; i++) {
        PyObject *name = PyUnicode_FromString(EXPORT_FIELDS[i]);
        if (!name) Py_CLEAR(fields);
        else PyTuple_SET_ITEM(fields, i, name);
    }
    if (!fields || PyModule_AddObjectRef(module, "EXPORT_FIELDS", fields) < 0) {
        Py_XDECREF(fields);
        Py_DECREF(module);
        return NULL;
    }
    Py_DECREF(fields);
    return module;
}
