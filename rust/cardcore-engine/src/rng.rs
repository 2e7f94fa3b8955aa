//! `cardcore-rng-v1`: the one pseudo-random generator behind every seeded choice.
//!
//! The output of this module is part of cardcore's public contract: a seed must give the same
//! cards in every future version. Changing any constant or step here is a breaking change and
//! must bump [`RNG_VERSION`]. The golden vectors in `tests/golden_rng.rs` pin it.
//!
//! * Generator: xoshiro256++ (Blackman & Vigna, 2019), 256-bit state, 64-bit output.
//! * Seeding: the four state words are four successive outputs of SplitMix64 started at the seed.
//! * Streams: [`derive_seed`] maps `(master_seed, index, stream name)` to an independent 64-bit
//!   seed, so game `index` of a run gets the same cards however the work is split.

/// Version tag recorded in replays; bump it whenever the output of this module changes.
pub const RNG_VERSION: &str = "cardcore-rng-v1";

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 step: advances `state` and returns the mixed output.
#[must_use]
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN_GAMMA);
    mix64(*state)
}

/// The SplitMix64 finaliser (Stafford's variant 13), a bijection on `u64`.
#[must_use]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a, 64-bit, over the stream name's UTF-8 bytes.
#[must_use]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// Seed of stream `stream` for item `index` of a run seeded with `master`.
///
/// `mix64(mix64(mix64(master ^ C) ^ index.rotl(17)) ^ fnv1a64(stream))` with
/// `C = 0x6361_7264_636F_7265` ("cardcore"). Each step is a bijection of the running value,
/// so distinct inputs at one step never collide.
#[must_use]
pub fn derive_seed(master: u64, index: u64, stream: &str) -> u64 {
    StreamSeeds::new(master, stream).seed(index)
}

/// [`derive_seed`] with the parts that do not depend on `index` computed once, for loops over
/// many items of one run and stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamSeeds {
    master_mix: u64,
    name_hash: u64,
}

impl StreamSeeds {
    /// The seeds of stream `stream` in a run seeded with `master`.
    #[must_use]
    pub fn new(master: u64, stream: &str) -> Self {
        Self {
            master_mix: mix64(master ^ 0x6361_7264_636F_7265),
            name_hash: fnv1a64(stream.as_bytes()),
        }
    }

    /// `derive_seed(master, index, stream)`.
    #[inline]
    #[must_use]
    pub const fn seed(&self, index: u64) -> u64 {
        mix64(mix64(self.master_mix ^ index.rotate_left(17)) ^ self.name_hash)
    }

    /// `CardRng::for_stream(master, index, stream)`.
    #[inline]
    #[must_use]
    pub fn rng(&self, index: u64) -> CardRng {
        CardRng::new(self.seed(index))
    }
}

/// xoshiro256++ generator seeded through SplitMix64.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardRng {
    s: [u64; 4],
}

impl CardRng {
    /// A generator whose four state words are SplitMix64 outputs from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        Self { s }
    }

    /// The generator of stream `stream` for item `index` of a run (see [`derive_seed`]).
    #[must_use]
    pub fn for_stream(master: u64, index: u64, stream: &str) -> Self {
        Self::new(derive_seed(master, index, stream))
    }

    /// Rebuilds a generator from its raw state (for pickling); `None` for the all-zero state.
    #[must_use]
    pub fn from_state(s: [u64; 4]) -> Option<Self> {
        (s != [0; 4]).then_some(Self { s })
    }

    /// The raw state words.
    #[must_use]
    pub const fn state(&self) -> [u64; 4] {
        self.s
    }

    /// Next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform integer in `0..bound` by Lemire's nearly divisionless method; `bound > 0`.
    #[inline]
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(bound);
        if (m as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (m >> 64) as u64
    }

    /// Uniform float in `[0, 1)` from the top 53 bits.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        let x = (self.next_u64() >> 11) as f64;
        x * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Standard normal deviate (Box–Muller, one value per two uniforms; the cosine branch).
    ///
    /// `log` and `cos` come from the pure-Rust `libm` crate (a port of musl), not the
    /// platform's C library, so the value is bit-identical on every platform.
    pub fn next_normal(&mut self) -> f64 {
        let u1 = 1.0 - self.next_f64(); // (0, 1]
        let u2 = self.next_f64();
        (-2.0 * libm::log(u1)).sqrt() * libm::cos(std::f64::consts::TAU * u2)
    }

    /// `median * exp(sigma * next_normal())`: a log-normal deviate, bit-identical everywhere.
    pub fn next_lognormal(&mut self, median: f64, sigma: f64) -> f64 {
        median * libm::exp(sigma * self.next_normal())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_golden_values() {
        // Pinned bits: a change here changes every Nerts reaction time.
        let mut r = CardRng::new(1);
        let got: Vec<u64> = (0..3).map(|_| r.next_normal().to_bits()).collect();
        assert_eq!(got, GOLDEN_NORMAL_BITS, "{got:?}");
        let mut r = CardRng::new(1);
        let x = r.next_lognormal(1300.0, 0.3);
        let mut r = CardRng::new(1);
        assert_eq!(
            x.to_bits(),
            (1300.0 * libm::exp(0.3 * r.next_normal())).to_bits()
        );
    }

    const GOLDEN_NORMAL_BITS: [u64; 3] = [
        13_808_322_828_223_143_919,
        13_800_820_128_701_426_698,
        13_826_397_715_708_790_415,
    ];

    #[test]
    fn splitmix_reference_values() {
        // SplitMix64 from seed 0 (Vigna's reference implementation).
        let mut st = 0u64;
        assert_eq!(splitmix64(&mut st), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut st), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn fnv_reference_values() {
        assert_eq!(fnv1a64(b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xAF63_DC4C_8601_EC8C);
    }

    #[test]
    fn stream_seeds_match_derive_seed() {
        for master in [0, 1, 42, u64::MAX] {
            for stream in ["", "deck", "agent", "timing", "tiebreak"] {
                let seeds = StreamSeeds::new(master, stream);
                for index in [0, 1, 2, 1 << 40, u64::MAX] {
                    assert_eq!(seeds.seed(index), derive_seed(master, index, stream));
                    assert_eq!(seeds.rng(index), CardRng::for_stream(master, index, stream));
                }
            }
        }
    }

    #[test]
    fn below_stays_in_bounds() {
        let mut r = CardRng::new(3);
        for bound in (1..200u64).chain([1 << 32, (1 << 63) + 1, u64::MAX]) {
            for _ in 0..50 {
                assert!(r.below(bound) < bound);
            }
        }
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn below_reaches_every_value() {
        let mut r = CardRng::new(11);
        for bound in 1..=20u64 {
            let mut seen = [false; 20];
            for _ in 0..2000 {
                seen[usize::try_from(r.below(bound)).unwrap()] = true;
            }
            assert!(
                seen[..usize::try_from(bound).unwrap()].iter().all(|&s| s),
                "{bound}"
            );
        }
    }

    #[test]
    fn below_rejects_the_biased_zone() {
        // bound = 2^63 + 1: a draw is rejected when its low word is below 2^64 mod bound, which
        // happens half the time; the results must still be < bound and not all in one half.
        let mut r = CardRng::new(5);
        let bound = (1u64 << 63) + 1;
        let high = (0..1000).filter(|_| r.below(bound) >= 1 << 62).count();
        assert!((350..650).contains(&high), "{high}");
    }

    #[test]
    fn floats_and_normals() {
        let mut r = CardRng::new(9);
        let mut sum = 0.0;
        for _ in 0..10_000 {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
            sum += x;
        }
        assert!((sum / 10_000.0 - 0.5).abs() < 0.02);
        let n: f64 = (0..10_000).map(|_| r.next_normal()).sum::<f64>() / 10_000.0;
        assert!(n.abs() < 0.05, "{n}");
    }

    #[test]
    fn state_round_trip() {
        let mut r = CardRng::new(77);
        r.next_u64();
        let mut back = CardRng::from_state(r.state()).unwrap();
        assert_eq!(back.next_u64(), r.next_u64());
        assert!(CardRng::from_state([0; 4]).is_none());
    }

    #[test]
    fn seeds_never_give_the_zero_state() {
        // SplitMix64 outputs are a bijection of distinct counters, so the four words cannot all
        // be zero; spot-check a few seeds including the extremes.
        for seed in [0, 1, u64::MAX, GOLDEN_GAMMA.wrapping_neg()] {
            assert_ne!(CardRng::new(seed).state(), [0; 4]);
        }
    }
}
