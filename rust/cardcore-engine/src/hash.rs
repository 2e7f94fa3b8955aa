//! The one fast hasher of the engine's memo tables and seen-sets (no dependency, no
//! allocation). Keys are our own integers and byte arrays, never input an attacker chooses
//! to collide, so a multiplicative hash is enough.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Integer keys (`u64`, `u128`) get one multiply each; byte keys (arrays, slices) are folded
/// eight bytes at a time, Fx style.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(b))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_u128(&mut self, n: u128) {
        self.write_u64((n as u64) ^ ((n >> 64) as u64).rotate_left(29));
    }
}

/// A `HashMap` hashed with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;
/// A `HashSet` hashed with [`FastHasher`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn hash_of(x: impl Hash) -> u64 {
        let mut h = FastHasher::default();
        x.hash(&mut h);
        h.finish()
    }

    #[test]
    fn integers_and_bytes_hash_as_the_two_hashers_it_replaced_did() {
        // U64Hasher (meld memo, hard's memo): one multiply per u64, u128 folded to a u64
        let k = u64::MAX - 12_345;
        assert_eq!(
            hash_of(k),
            (k ^ (k >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        );
        let n = (7u128 << 64) | 5;
        assert_eq!(hash_of(n), hash_of(5u64 ^ 7u64.rotate_left(29)));
        // FxHasher (S&M planner's seen-set): 8-byte chunks after the length
        let mut expect = 0u64;
        for word in [3u64, u64::from_le_bytes([1, 2, 3, 0, 0, 0, 0, 0])] {
            expect = (expect.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        assert_eq!(hash_of([1u8, 2, 3]), expect);
    }
}
