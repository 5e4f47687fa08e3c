/* Leaf evaluation and greedy playouts for search bots, included by _core.c.

   The evaluation is the lane evaluation of games/caravan/expert.py (its module text states it;
   tests/agents/test_core_search.py checks that both give the same numbers): each lane scores
   +1 for the seat taking it, -1 for the other, else half the difference of the caravans'
   progress; the sum S gives ABC's chance 1 / (1 + exp(-1.6 S)); a finished game counts 1, 0,
   or 0.5 for a draw.

   A greedy playout plays, for both seats, the legal move whose resulting position the
   evaluation likes best for the mover (the first such move in canonical order), or with
   probability `epsilon` a uniformly random legal move, for at most `limit` moves. */

#include <math.h>

#define EVAL_STEEPNESS 1.6

static double progress_of(int64_t value, const CRules *r) {
    if (value > r->sold_max) return -0.2;
    if (value >= r->sold_min) return 0.8;
    return 0.8 * (double)value / (double)r->sold_min;
}

/* ABC's chance of winning. */
static double chance_of(const State *s) {
    if (s->reason != R_NONE) {
        if (!s->winners) return 0.5;
        return (s->winners & 1) ? 1.0 : 0.0;
    }
    double total = 0.0;
    for (int lane = 0; lane < 3; lane++) {
        int64_t abc = s->summary[lane].value, def = s->summary[lane + 3].value;
        int taker = lane_taker(abc, def, &s->rules[0], &s->rules[1]);
        if (taker == 0) {
            total += 1.0;
        } else if (taker == 1) {
            total -= 1.0;
        } else {
            total += 0.5 * (progress_of(abc, &s->rules[0]) - progress_of(def, &s->rules[1]));
        }
    }
    return 1.0 / (1.0 + exp(-EVAL_STEEPNESS * total));
}

static void copy_into(State *to, const State *from) {
    memcpy((char *)to + offsetof(State, rules), (const char *)from + offsetof(State, rules),
           offsetof(State, cards) - offsetof(State, rules));
    for (int l = 0; l < N_LISTS; l++) {
        memcpy(list_of(to, l), clist_of(from, l), (size_t)from->len[l] * sizeof(uint32_t));
    }
}

static PyObject *State_evaluate(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyFloat_FromDouble(chance_of((const State *)self));
}

static PyObject *State_greedy_playout(PyObject *self, PyObject *args) {
    State *s = (State *)self;
    unsigned long long seed;
    long long limit;
    double epsilon;
    if (!PyArg_ParseTuple(args, "KLd:greedy_playout", &seed, &limit, &epsilon)) return NULL;
    xoshiro_seed(&s->rng, (uint64_t)seed);
    State *trial = PyObject_NewVar(State, &StateType, Py_SIZE(s));
    if (!trial) return NULL;
    int64_t stack[PLAYOUT_STACK];
    int64_t *codes = stack;
    size_t room = PLAYOUT_STACK;
    long long played = 0;
    while (s->reason == R_NONE && played < limit) {
        size_t need = legal_bound(s);
        if (need > room) {
            int64_t *bigger = PyMem_Malloc(need * sizeof(int64_t));
            if (!bigger) {
                if (codes != stack) PyMem_Free(codes);
                Py_DECREF(trial);
                return PyErr_NoMemory();
            }
            if (codes != stack) PyMem_Free(codes);
            codes = bigger;
            room = need;
        }
        size_t n = legal_moves(s, codes);
        if (!n) break;
        size_t chosen = 0;
        if (n > 1) {
            /* 2**53 steps: a uniform double in [0, 1) */
            double draw = (double)(xoshiro_next(&s->rng) >> 11) * (1.0 / 9007199254740992.0);
            if (draw < epsilon) {
                chosen = xoshiro_below(&s->rng, (uint32_t)n);
            } else {
                int mover = s->turn;
                double best = -1.0;
                for (size_t i = 0; i < n; i++) {
                    copy_into(trial, s);
                    Move m = unpack((uint64_t)codes[i]);
                    apply_move(trial, &m);
                    double chance = chance_of(trial);
                    if (mover == 1) chance = 1.0 - chance;
                    if (chance > best) {
                        best = chance;
                        chosen = i;
                    }
                }
            }
        }
        Move m = unpack((uint64_t)codes[chosen]);
        apply_move(s, &m);
        played++;
    }
    if (codes != stack) PyMem_Free(codes);
    Py_DECREF(trial);
    return PyFloat_FromDouble(chance_of(s));
}

/* A search tree's key for a move: the packed code with the hand position replaced by the
   card's kind (rank and suit) plus one, so that an edge names the same card in every world
   (agents/search_worlds.py, card_keys, is the Python statement of it). */
#define HAND_FIELD (((int64_t)0xFFFF) << 5)

static int64_t key_of(const State *s, int64_t code) {
    int64_t position = (code >> 5) & 0xFFFF;
    if (!position) return code;
    const uint32_t *hand = clist_of(s, L_HAND + s->turn);
    return (code & ~HAND_FIELD) | ((int64_t)((hand[position - 1] & 0x7Fu) + 1u) << 5);
}

/* The legal moves as keys, in canonical order, each key once (two copies of a card play alike:
   the first of them stands for both). Returns the number of keys; codes[i] plays keys[i]. */
static size_t legal_keys(const State *s, int64_t *codes, int64_t *keys) {
    size_t n = s->reason == R_NONE ? legal_moves(s, codes) : 0, kept = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t key = key_of(s, codes[i]);
        size_t j = 0;
        while (j < kept && keys[j] != key) j++;
        if (j == kept) {
            keys[kept] = key;
            codes[kept] = codes[i];
            kept++;
        }
    }
    return kept;
}

static PyObject *State_legal_keys(PyObject *self, PyObject *unused) {
    (void)unused;
    const State *s = (const State *)self;
    size_t need = legal_bound(s);
    int64_t *codes = PyMem_Malloc(2 * (need ? need : 1) * sizeof(int64_t));
    if (!codes) return PyErr_NoMemory();
    size_t n = legal_keys(s, codes, codes + need);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *item = PyLong_FromLongLong(codes[need + i]);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    PyMem_Free(codes);
    return list;
}

/* The legal code a key stands for (the first in canonical order), or -1. */
static int64_t code_of_key(const State *s, int64_t key, int64_t *codes) {
    size_t n = s->reason == R_NONE ? legal_moves(s, codes) : 0;
    for (size_t i = 0; i < n; i++) {
        if (key_of(s, codes[i]) == key) return codes[i];
    }
    return -1;
}

static PyObject *State_code_of_key(PyObject *self, PyObject *arg) {
    const State *s = (const State *)self;
    long long key = PyLong_AsLongLong(arg);
    if (key == -1 && PyErr_Occurred()) return NULL;
    size_t need = legal_bound(s);
    int64_t *codes = PyMem_Malloc((need ? need : 1) * sizeof(int64_t));
    if (!codes) return PyErr_NoMemory();
    int64_t code = code_of_key(s, key, codes);
    PyMem_Free(codes);
    return PyLong_FromLongLong(code);
}

static PyObject *State_apply_key(PyObject *self, PyObject *arg) {
    State *s = (State *)self;
    long long key = PyLong_AsLongLong(arg);
    if (key == -1 && PyErr_Occurred()) return NULL;
    size_t need = legal_bound(s);
    int64_t *codes = PyMem_Malloc((need ? need : 1) * sizeof(int64_t));
    if (!codes) return PyErr_NoMemory();
    int64_t code = code_of_key(s, key, codes);
    PyMem_Free(codes);
    if (code < 0) {
        PyErr_SetString(PyExc_ValueError, "no legal move has this key");
        return NULL;
    }
    Move m = unpack((uint64_t)code);
    apply_move(s, &m);
    Py_RETURN_NONE;
}

#define SEARCH_METHODS                                                                          \
    {"legal_keys", State_legal_keys, METH_NOARGS,                                               \
     "legal_keys()\n--\n\nThe legal moves as search keys (the hand position replaced by the "   \
     "card's kind plus one), in canonical order, each once."},                                  \
    {"code_of_key", State_code_of_key, METH_O,                                                  \
     "code_of_key(key)\n--\n\nThe first legal move code with this key, or -1."},               \
    {"apply_key", State_apply_key, METH_O,                                                      \
     "apply_key(key)\n--\n\nApply the first legal move with this key; ValueError if none."},   \
    {"evaluate", State_evaluate, METH_NOARGS,                                                   \
     "evaluate()\n--\n\nABC's chance of winning by the expert's lane evaluation (1, 0 or 0.5 "  \
     "once the game is over)."},                                                                \
    {"greedy_playout", State_greedy_playout, METH_VARARGS,                                      \
     "greedy_playout(seed, limit, epsilon)\n--\n\nPlay at most `limit` moves, each the move "   \
     "the lane evaluation likes best for the mover (a random one with probability "             \
     "`epsilon`); returns ABC's chance of winning afterwards, as evaluate()."},
