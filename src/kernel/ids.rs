//! Identifier generation. Ids look like random (version 4) UUIDs. A seeded generator yields the
//! same sequence every time, which is what tests and golden files rely on; an unseeded one draws
//! its seed from the process's hash randomness and the clock.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

/// Produces UUID-shaped ids from a SplitMix64 stream.
#[derive(Debug, Clone)]
pub struct IdGenerator {
    state: u64,
}

impl IdGenerator {
    /// A generator whose sequence is fully determined by `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self { state: seed }
    }

    /// A generator seeded from per-process randomness and the current time.
    pub fn from_entropy() -> Self {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0),
        );
        Self { state: h.finish() }
    }

    /// `seeded(seed)` when a seed is given, `from_entropy()` otherwise.
    pub fn new(seed: Option<u64>) -> Self {
        seed.map_or_else(Self::from_entropy, Self::seeded)
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next id, e.g. `3f2b8c1e-9a4d-4e7f-b2c1-0d9e8f7a6b5c`.
    pub fn next_id(&mut self) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let hi = (self.next_u64() & !0xF000) | 0x4000; // version 4
        let lo = (self.next_u64() & !(0b11 << 62)) | (0b10 << 62); // RFC 4122 variant
        let bytes = ((hi as u128) << 64 | lo as u128).to_be_bytes();
        let mut out = [0u8; 36];
        let mut o = 0;
        for (i, b) in bytes.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                out[o] = b'-';
                o += 1;
            }
            out[o] = HEX[(b >> 4) as usize];
            out[o + 1] = HEX[(b & 0xF) as usize];
            o += 2;
        }
        // Only ASCII hex digits and dashes were written.
        String::from_utf8(out.to_vec()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_ids_repeat_and_look_like_uuid_v4() {
        let a: Vec<_> = (0..5)
            .scan(IdGenerator::seeded(7), |g, _| Some(g.next_id()))
            .collect();
        let b: Vec<_> = (0..5)
            .scan(IdGenerator::seeded(7), |g, _| Some(g.next_id()))
            .collect();
        assert_eq!(a, b);
        let c = IdGenerator::seeded(8).next_id();
        assert_ne!(a[0], c);
        for id in &a {
            assert_eq!(id.len(), 36);
            assert_eq!(&id[14..15], "4", "{id}");
            assert!(matches!(&id[19..20], "8" | "9" | "a" | "b"), "{id}");
            assert_eq!(id.matches('-').count(), 4);
        }
        let uniq: std::collections::HashSet<_> = a.iter().collect();
        assert_eq!(uniq.len(), 5);
    }

    #[test]
    fn unseeded_generators_differ() {
        assert_ne!(
            IdGenerator::from_entropy().next_id(),
            IdGenerator::from_entropy().next_id()
        );
    }
}
