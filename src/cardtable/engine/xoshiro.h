/*
 * The random generator of the compiled game cores (header only; each core includes it).
 *
 * xoshiro256** (Blackman and Vigna), its state filled from the seed by splitmix64 so that
 * any seed, 0 included, gives a good state, and unbiased draws below a bound by Lemire's
 * multiply-and-reject method. A core keeps one Xoshiro per game or per playout; copying the
 * struct copies the generator.
 */
#ifndef CARDTABLE_XOSHIRO_H
#define CARDTABLE_XOSHIRO_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} Xoshiro;

static inline uint64_t xoshiro_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t xoshiro_next(Xoshiro *r) {
    uint64_t *s = r->s;
    uint64_t result = xoshiro_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = xoshiro_rotl(s[3], 45);
    return result;
}

static inline void xoshiro_seed(Xoshiro *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        r->s[i] = z ^ (z >> 31);
    }
}

/* A uniform integer in [0, n), n >= 1. */
static inline uint32_t xoshiro_below(Xoshiro *r, uint32_t n) {
    uint64_t m = (xoshiro_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (xoshiro_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

#endif
