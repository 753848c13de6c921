/* Seedable pseudo-random numbers for games and search: xoshiro256** seeded
 * through splitmix64. Header-only and inline so that hot loops pay no call.
 * The same seed gives the same stream on every platform (pure 64-bit integer
 * arithmetic), which is what makes seeded games and bots reproducible. */
#ifndef ARDSEARCH_RNG_H
#define ARDSEARCH_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ard_rng {
    uint64_t s[4];
} ard_rng;

static inline uint64_t ard_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void ard_rng_seed(ard_rng *r, uint64_t seed) {
    uint64_t x = seed;
    r->s[0] = ard_splitmix64(&x);
    r->s[1] = ard_splitmix64(&x);
    r->s[2] = ard_splitmix64(&x);
    r->s[3] = ard_splitmix64(&x);
}

static inline uint64_t ard_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t ard_rng_next(ard_rng *r) {
    uint64_t *s = r->s;
    uint64_t result = ard_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ard_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n) for n >= 1 (Lemire's multiply-shift; the bias is
 * below 2^-32 for the small n games use, and it needs no division). */
static inline uint32_t ard_rng_below(ard_rng *r, uint32_t n) {
    return (uint32_t)(((ard_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform double in [0, 1). */
static inline double ard_rng_double(ard_rng *r) {
    return (double)(ard_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Index of an outcome drawn from probs[0..n-1] (which sum to 1). */
static inline int ard_rng_pick(ard_rng *r, const double *probs, int n) {
    double u = ard_rng_double(r);
    for (int i = 0; i < n - 1; i++) {
        u -= probs[i];
        if (u < 0.0) return i;
    }
    return n - 1;
}

#ifdef __cplusplus
}
#endif

#endif
