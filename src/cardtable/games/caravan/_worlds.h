/*
 * Sampled worlds in Caravan's compiled core: worlds.py's ``sample_world`` in C, so that a
 * search bot can sample a world and play it out without Python in the loop.
 *
 * Included by _core.c after State_clone; SAMPLE_WORLD_METHOD is its entry in State's
 * methods. A world of a State as seat `seat` sees it keeps everything that seat sees and
 * deals the cards it cannot see again, uniformly among the places they could be, with the constraints
 * worlds.py documents:
 * - its own deck keeps its cards in a new order (a seat does not know its deck's order);
 * - the other seat's unseen cards (its hand, its deck and, during a simultaneous opening, its
 *   face-down opening numerals) are dealt again: numerals to the face-down slots (in caravan
 *   and slot order), then the hand, then the deck;
 * - while the other seat opens under a mulligan that deals every opening hand three
 *   numerals, its hand keeps a numeral per caravan it has still to start (deals without are
 *   dealt again, up to WORLD_MAX_DEALS), when the real hand has them.
 * The world's generator is seeded from the sample's seed: it deals the unseen cards, then
 * draws the world's reshuffles. The core keeps no history, so nothing else changes.
 */

/* Deals tried for an opening hand that must hold enough numerals (worlds.MAX_DEALS). */
#define WORLD_MAX_DEALS 10000
/* Unseen cards of one seat held on the stack; more go to the heap. */
#define WORLD_STACK 512

/* worlds.opening_numerals_needed: numerals `owner`'s hand holds for sure while it opens. */
static int world_numerals_needed(const State *s, int owner) {
    const CRules *r = &s->rules[owner];
    /* a discard mulligan becomes a reshuffle in a simultaneous opening */
    int reshuffles = r->mulligan == MULLIGAN_DISCARD && r->opening_mode == OPENING_SIMULTANEOUS;
    if (!in_opening(s, owner) ||
        !(reshuffles || r->mulligan == MULLIGAN_RESHUFFLE || r->mulligan == MULLIGAN_REBUILD))
        return 0;
    return s->placed[owner] < 3 ? 3 - (int)s->placed[owner] : 0;
}

/* Game.opening_hidden: during a simultaneous opening nobody sees the other's opening cards. */
static int world_opening_hidden(const State *s) {
    return s->rules[0].opening_mode == OPENING_SIMULTANEOUS && s->reason == R_NONE &&
           s->placed[0] + s->placed[1] < 6;
}

/* Deals the cards `seat` cannot see in `w` again, in place, with w's generator reseeded from
   `seed` (see the top of this file). Returns 0, or -1 with MemoryError set. */
static int sample_world_in_place(State *w, int seat, uint64_t seed) {
    int other = 1 - seat;
    int hidden = world_opening_hidden(w);
    uint32_t *hand = list_of(w, L_HAND + other), *deck = list_of(w, L_DECK + other);
    int hand_n = w->len[L_HAND + other], deck_n = w->len[L_DECK + other];
    xoshiro_seed(&w->rng, seed);

    /* The other seat's unseen cards, numerals first: face-down numerals, hand, deck. */
    int slots = 0;
    if (hidden) {
        for (int k = 3 * other; k < 3 * other + 3; k++) {
            const uint32_t *c = clist_of(w, L_CARAVAN + k);
            for (int i = 0; i < w->len[L_CARAVAN + k]; i++) slots += IS_NUMERAL(c[i]);
        }
    }
    int n = slots + hand_n + deck_n;
    uint32_t stack[2 * WORLD_STACK];
    uint32_t *pool = stack;
    if (n > WORLD_STACK) {
        pool = PyMem_Malloc(2 * (size_t)n * sizeof *pool);
        if (!pool) {
            PyErr_NoMemory();
            return -1;
        }
    }
    uint32_t *work = pool + n;
    int numerals = 0, faces = n;
    for (int k = 3 * other; hidden && k < 3 * other + 3; k++) {
        const uint32_t *c = clist_of(w, L_CARAVAN + k);
        for (int i = 0; i < w->len[L_CARAVAN + k]; i++)
            if (IS_NUMERAL(c[i])) pool[numerals++] = c[i];
    }
    const uint32_t *sources[2] = {hand, deck};
    int sizes[2] = {hand_n, deck_n};
    for (int part = 0; part < 2; part++) {
        for (int i = 0; i < sizes[part]; i++) {
            uint32_t card = sources[part][i];
            if (IS_NUMERAL(card)) pool[numerals++] = card;
            else pool[--faces] = card;
        }
    }
    /* The rules deal every opening hand three numerals only when the deck has them: the
       world asks for them when the real hand has them. */
    int needed = world_numerals_needed(w, other);
    if (numerals_in(hand, hand_n) < needed) needed = 0;

    for (int tries = 0; tries < WORLD_MAX_DEALS; tries++) {
        memcpy(work, pool, (size_t)n * sizeof *work);
        /* the face-down numerals: an ordered uniform sample of the numerals */
        for (int i = 0; i < slots; i++) {
            int j = i + (int)xoshiro_below(&w->rng, (uint32_t)(numerals - i));
            uint32_t t = work[i];
            work[i] = work[j];
            work[j] = t;
        }
        /* the rest in a uniform order: the hand first, then the deck */
        shuffle(&w->rng, work + slots, n - slots);
        if (!needed || numerals_in(work + slots, hand_n) >= needed) break;
    }

    const uint32_t *chosen = work;
    for (int k = 3 * other; hidden && k < 3 * other + 3; k++) {
        uint32_t *c = list_of(w, L_CARAVAN + k);
        int placed = 0;
        for (int i = 0; i < w->len[L_CARAVAN + k]; i++) {
            if (IS_NUMERAL(c[i])) {
                c[i] = *chosen++;
                placed = 1;
            }
        }
        if (placed) refresh(w, k);
    }
    memcpy(hand, work + slots, (size_t)hand_n * sizeof *hand);
    memcpy(deck, work + slots + hand_n, (size_t)deck_n * sizeof *deck);
    if (pool != stack) PyMem_Free(pool);

    shuffle(&w->rng, list_of(w, L_DECK + seat), w->len[L_DECK + seat]);
    return 0;
}

static PyObject *State_sample_world(PyObject *self, PyObject *args) {
    int seat;
    PyObject *seed_obj;
    if (!PyArg_ParseTuple(args, "iO:sample_world", &seat, &seed_obj)) return NULL;
    if (seat != 0 && seat != 1) {
        PyErr_SetString(PyExc_ValueError, "seat must be 0 (ABC) or 1 (DEF)");
        return NULL;
    }
    if (!PyLong_Check(seed_obj)) {
        PyErr_SetString(PyExc_TypeError, "seed must be an int");
        return NULL;
    }
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (seed == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    PyObject *world = State_clone(self, NULL);
    if (!world) return NULL;
    if (sample_world_in_place((State *)world, seat, seed) < 0) {
        Py_DECREF(world);
        return NULL;
    }
    return world;
}

#define SAMPLE_WORLD_METHOD                                                                      \
    {"sample_world", State_sample_world, METH_VARARGS,                                           \
     "sample_world(seat, seed)\n--\n\nA new State agreeing with everything `seat` (0 or 1) "     \
     "sees, the cards it cannot see dealt again uniformly (worlds.py's constraints); its "       \
     "generator is seeded from `seed`."},
