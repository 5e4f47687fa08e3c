/*
 * Sampled worlds in the compiled core of Obsession: ``worlds.sample_world`` in C, so that a
 * search bot can sample a world and play it out without Python in the loop.
 *
 * Included by _core.c after State_clone; SAMPLE_WORLD_METHOD is its entry in State's
 * methods. A world of a State as seat `seat` sees it keeps everything that seat sees (its
 * hand, the visible rows, the discard pile, the cards killed or removed, every count) and
 * deals the cards it cannot see (the other seats' hands, every hidden row, its own too, and
 * the draw pile) again, uniformly at random, with the constraint worlds.py documents: a seat
 * with no legal card in its hand picks up without being asked, so another seat to move with
 * cards in hand holds a legal one when it really does (deals where it does not are dealt
 * again, up to WORLD_MAX_DEALS). The cards every seat saw go into another seat's hand and
 * that it has not played since (Core.known, a part of its hand) stay in that hand; the rest
 * of the hand is dealt. What the seats' choices show (Observation.lacks, given as `lacks`:
 * per seat, a faces-bit mask for each of some of its dealt cards, strictest first) is
 * honoured after each shuffle as worlds.honour_lacks does: a dealt card its mask rules out
 * is swapped with one drawn uniformly among the cards the mask allows at places not settled
 * yet, then places still breaking their masks are matched to cards by augmenting paths (as
 * many as any deal allows). Hands stay sorted. The repetition guard's record of
 * positions, which holds hidden cards, starts afresh in the world. Obsession draws nothing
 * at random during play, so the seed only deals.
 */

/* Deals tried for a seat to move that must hold a legal card (worlds.MAX_DEALS). */
#define WORLD_MAX_DEALS 10000

static int holds_legal_card(const Core *g, const uint16_t *cards, int n)
{
    for (int i = 0; i < n; i++)
        if (LEGAL[g->active][FACE[cards[i]]])
            return 1;
    return 0;
}

/* What some dealt cards must not be: per seat, `n` masks of faces (bit `face`). */
typedef struct {
    int n[MAX_PLAYERS];
    uint32_t mask[MAX_PLAYERS][MAX_CARDS];
} Lacks;

/* Places of the deal and their masks, by seat (not `seat`) and strictest first. */
typedef struct {
    int n;
    int place[MAX_CARDS];
    uint32_t mask[MAX_CARDS];
} LackingPlaces;

/* Kuhn's augmenting path for place `index` of `lacking` (see match_lacks). */
static int augment_lack(const uint16_t *pool, int n, const LackingPlaces *lacking, int index,
                        int *matched, int *owner, uint8_t *visited)
{
    for (int q = 0; q < n; q++) {
        if (visited[q] || lacking->mask[index] >> FACE[pool[q]] & 1)
            continue;
        visited[q] = 1;
        if (owner[q] < 0 || augment_lack(pool, n, lacking, owner[q], matched, owner, visited)) {
            matched[index] = q;
            owner[q] = index;
            return 1;
        }
    }
    return 0;
}

/* worlds.match_lacks: rearranges `pool` so that as many places of `lacking` as can be hold a
 * card their mask allows (augmenting paths from the places that already keep theirs); the
 * cards moved away fill, in order, the places whose cards were taken. */
static void match_lacks(uint16_t *pool, int n, const LackingPlaces *lacking)
{
    int matched[MAX_CARDS], owner[MAX_CARDS];
    uint8_t visited[MAX_CARDS], receiving[MAX_CARDS] = {0}, taken[MAX_CARDS] = {0};
    uint16_t before[MAX_CARDS];
    for (int q = 0; q < n; q++)
        owner[q] = -1;
    for (int i = 0; i < lacking->n; i++) {
        int place = lacking->place[i];
        matched[i] = lacking->mask[i] >> FACE[pool[place]] & 1 ? -1 : place;
        if (matched[i] >= 0)
            owner[place] = i;
    }
    for (int i = 0; i < lacking->n; i++)
        if (matched[i] < 0) {
            memset(visited, 0, (size_t)n);
            augment_lack(pool, n, lacking, i, matched, owner, visited);
        }
    memcpy(before, pool, (size_t)n * sizeof *pool);
    for (int i = 0; i < lacking->n; i++)
        if (matched[i] >= 0) {
            receiving[lacking->place[i]] = 1;
            taken[matched[i]] = 1;
            pool[lacking->place[i]] = before[matched[i]];
        }
    int fill = 0;
    for (int q = 0; q < n; q++) {
        if (!receiving[q] || taken[q])
            continue;  /* q's card stays, or went to a place of `lacking` */
        while (!taken[fill] || receiving[fill])
            fill++;
        pool[fill++] = before[q];
    }
}

/* worlds.honour_lacks: each card of `pool` at a place of `lacking` that its mask rules out
 * is swapped with one drawn uniformly among the allowed cards at places not settled yet;
 * places still breaking their masks are then matched (match_lacks). */
static void honour_lacks(uint16_t *pool, int n, const LackingPlaces *lacking, Xoshiro *rng)
{
    uint8_t settled[MAX_CARDS] = {0};
    for (int i = 0; i < lacking->n; i++) {
        int place = lacking->place[i];
        uint32_t mask = lacking->mask[i];
        if (mask >> FACE[pool[place]] & 1) {
            uint32_t options = 0;
            for (int q = 0; q < n; q++)
                if (!settled[q] && !(mask >> FACE[pool[q]] & 1))
                    options++;
            if (options) {
                uint32_t pick = xoshiro_below(rng, options);
                for (int q = 0; q < n; q++)
                    if (!settled[q] && !(mask >> FACE[pool[q]] & 1) && pick-- == 0) {
                        uint16_t t = pool[place];
                        pool[place] = pool[q];
                        pool[q] = t;
                        break;
                    }
            }
        }
        settled[place] = 1;
    }
    for (int i = 0; i < lacking->n; i++)
        if (lacking->mask[i] >> FACE[pool[lacking->place[i]]] & 1) {
            match_lacks(pool, n, lacking);
            return;
        }
}

/* The mask of `place` in `lacking` (0: any face). */
static uint32_t mask_of(const LackingPlaces *lacking, int place)
{
    for (int i = 0; i < lacking->n; i++)
        if (lacking->place[i] == place)
            return lacking->mask[i];
    return 0;
}

/* worlds.give_a_legal_card: swaps a legal card from outside `start`..`end` with one of the
 * mover's dealt cards, the pair drawn uniformly among the swaps that keep every mask of
 * `lacking` (among all swaps when none does). The seats' choices only make a preference; that
 * the mover holds a legal card is a fact. */
static void give_a_legal_card(const Core *g, uint16_t *pool, int n, int start, int end,
                              const LackingPlaces *lacking, Xoshiro *rng)
{
    for (int strict = 1; strict >= 0; strict--) {
        uint32_t pairs = 0;
        for (int pass = 0; pass < 2; pass++) {
            uint32_t pick = pass ? xoshiro_below(rng, pairs) : 0;
            for (int q = 0; q < n; q++) {
                if ((q >= start && q < end) || !holds_legal_card(g, pool + q, 1))
                    continue;
                for (int p = start; p < end; p++) {
                    if (strict && ((mask_of(lacking, p) >> FACE[pool[q]] & 1) ||
                                   (mask_of(lacking, q) >> FACE[pool[p]] & 1)))
                        continue;
                    if (!pass) {
                        pairs++;
                    } else if (pick-- == 0) {
                        uint16_t t = pool[p];
                        pool[p] = pool[q];
                        pool[q] = t;
                        return;
                    }
                }
            }
            if (!pairs)
                break;
        }
    }
}

/* Deals the cards `seat` cannot see in `g` again, in place (see the top of this file);
 * `lacks` may be NULL. */
static void sample_world_in_place(Core *g, int seat, uint64_t seed, const Lacks *lacks)
{
    int players = g->players, mover = g->current;
    Xoshiro rng;
    xoshiro_seed(&rng, seed);
    uint16_t pool[MAX_CARDS];
    int n = 0;
    /* The deal's order, as worlds.py deals: per seat the unknown part of its hand (not
     * `seat`'s) then its hidden row, then the draw pile. `start`..`end` is the mover's. */
    int start = 0, end = 0;
    LackingPlaces lacking;
    lacking.n = 0;
    for (int other = 0; other < players; other++) {
        if (other != seat) {
            if (other == mover)
                start = n;
            const Pile *hand = &g->hands[other], *known = &g->known[other];
            int first = n;
            for (int i = 0; i < hand->n; i++)
                if (!pile_contains(known, hand->c[i]))
                    pool[n++] = hand->c[i];
            for (int i = 0; lacks != NULL && i < lacks->n[other] && first + i < n; i++)
                if (lacks->mask[other][i]) {
                    lacking.place[lacking.n] = first + i;
                    lacking.mask[lacking.n++] = lacks->mask[other][i];
                }
            if (other == mover)
                end = n;
        }
        memcpy(pool + n, g->hidden[other].c, (size_t)g->hidden[other].n * sizeof *pool);
        n += g->hidden[other].n;
    }
    memcpy(pool + n, g->draw.c, (size_t)g->draw.n * sizeof *pool);
    n += g->draw.n;
    int must_play = g->phase == PHASE_PLAY && mover != seat && end > start &&
                    holds_legal_card(g, g->hands[mover].c, g->hands[mover].n) &&
                    !holds_legal_card(g, g->known[mover].c, g->known[mover].n);
    for (int tries = 0; tries < WORLD_MAX_DEALS; tries++) {
        for (int i = n - 1; i > 0; i--) {
            int j = (int)xoshiro_below(&rng, (uint32_t)i + 1);
            uint16_t t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
        }
        honour_lacks(pool, n, &lacking, &rng);
        if (!must_play || holds_legal_card(g, pool + start, end - start))
            break;
    }
    if (must_play && !holds_legal_card(g, pool + start, end - start))
        give_a_legal_card(g, pool, n, start, end, &lacking, &rng);
    const uint16_t *next = pool;
    for (int other = 0; other < players; other++) {
        if (other != seat) {
            Pile *hand = &g->hands[other];
            const Pile *known = &g->known[other];
            int dealt = hand->n - known->n;
            memcpy(hand->c, known->c, (size_t)known->n * sizeof *next);
            memcpy(hand->c + known->n, next, (size_t)dealt * sizeof *next);
            next += dealt;
            pile_sort(hand);
        }
        memcpy(g->hidden[other].c, next, (size_t)g->hidden[other].n * sizeof *next);
        next += g->hidden[other].n;
    }
    memcpy(g->draw.c, next, (size_t)g->draw.n * sizeof *next);
}

/* Reads Observation.lacks (per seat, a sequence of int masks) into `out`. */
static int read_lacks(PyObject *obj, int players, Lacks *out)
{
    PyObject *seats = PySequence_Fast(obj, "lacks must be a sequence per seat");
    if (seats == NULL)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seats);
    if (count > players) {
        Py_DECREF(seats);
        PyErr_Format(PyExc_ValueError, "lacks has %zd seats; the game has %d", count, players);
        return -1;
    }
    memset(out->n, 0, sizeof out->n);
    for (Py_ssize_t other = 0; other < count; other++) {
        PyObject *masks = PySequence_Fast(PySequence_Fast_GET_ITEM(seats, other),
                                          "each seat's lacks must be a sequence of ints");
        if (masks == NULL) {
            Py_DECREF(seats);
            return -1;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(masks);
        for (Py_ssize_t i = 0; i < n && i < MAX_CARDS; i++) {
            unsigned long mask = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(masks, i));
            if (mask == (unsigned long)-1 && PyErr_Occurred()) {
                Py_DECREF(masks);
                Py_DECREF(seats);
                return -1;
            }
            out->mask[other][i] = (uint32_t)mask;
            out->n[other] = (int)i + 1;
        }
        Py_DECREF(masks);
    }
    Py_DECREF(seats);
    return 0;
}

static PyObject *State_sample_world(StateObject *self, PyObject *args)
{
    int seat;
    PyObject *seed_obj, *lacks_obj = Py_None;
    if (!PyArg_ParseTuple(args, "iO|O:sample_world", &seat, &seed_obj, &lacks_obj))
        return NULL;
    if (seat < 0 || seat >= self->g.players) {
        PyErr_Format(PyExc_ValueError, "seat must be 0..%d", self->g.players - 1);
        return NULL;
    }
    if (!PyLong_Check(seed_obj)) {
        PyErr_SetString(PyExc_TypeError, "the seed must be an int");
        return NULL;
    }
    /* Any int seeds the deal: its value modulo 2**64. */
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    Lacks lacks;
    const Lacks *given = NULL;
    if (lacks_obj != Py_None) {
        if (read_lacks(lacks_obj, self->g.players, &lacks) < 0)
            return NULL;
        given = &lacks;
    }
    /* The world starts with an empty record of positions: clone without copying it. */
    Seen seen = self->g.seen;
    memset(&self->g.seen, 0, sizeof self->g.seen);
    StateObject *world = (StateObject *)State_clone(self, NULL);
    self->g.seen = seen;
    if (world == NULL)
        return NULL;
    sample_world_in_place(&world->g, seat, seed, given);
    return (PyObject *)world;
}

#define SAMPLE_WORLD_METHOD                                                                     \
    {"sample_world", (PyCFunction)State_sample_world, METH_VARARGS,                             \
     "sample_world(seat, seed, lacks=None) -> State\n\nA new State agreeing with everything " \
     "`seat` (0-based) sees, the cards it cannot see dealt again uniformly (worlds.py's "      \
     "constraint) but for the cards known to be in a hand, which stay there, and honouring "   \
     "`lacks` (Observation.lacks); its record of positions starts afresh."},
