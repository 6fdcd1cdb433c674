//! Decoding that cannot run away (issue 10): a small model under a grammar sometimes loops, writing
//! the same few characters until the token limit ("0000000...", `"a","a","a",...`, a sentence
//! again and again). [`is_looping`] spots such a tail so the engine stops at once, and the call
//! ends as a truncated answer (finish `Length`): the caller's validation counts it as a failed
//! attempt, without waiting for the limit.
//!
//! Pure. The thresholds leave real output alone: a unit must repeat back to back, unchanged, at
//! least [`MIN_SHORT_REPEATS`] times when shorter than [`LONG_UNIT`] bytes (runs of one digit or
//! a space pair), else [`MIN_LONG_REPEATS`] times, up to units of [`MAX_UNIT`] bytes. JSON the
//! library asks for never repeats that much verbatim: its list items carry ids, indexes or names.

/// The longest repeating unit looked for, in bytes.
pub const MAX_UNIT: usize = 64;
/// Units at least this long need only [`MIN_LONG_REPEATS`] repeats.
pub const LONG_UNIT: usize = 8;
/// Repeats of a short unit (under [`LONG_UNIT`] bytes) that make a loop.
pub const MIN_SHORT_REPEATS: usize = 48;
/// Repeats of a long unit that make a loop.
pub const MIN_LONG_REPEATS: usize = 12;

/// Whether `text` ends with one unit of 1 to [`MAX_UNIT`] bytes repeated back to back often
/// enough to be a loop (see the module docs).
pub fn is_looping(text: &str) -> bool {
    let b = text.as_bytes();
    (1..=MAX_UNIT).any(|unit| {
        let reps = if unit < LONG_UNIT {
            MIN_SHORT_REPEATS
        } else {
            MIN_LONG_REPEATS
        };
        let need = unit * reps;
        if b.len() < need {
            return false;
        }
        let tail = &b[b.len() - need..];
        let first = &tail[..unit];
        tail.chunks_exact(unit).all(|c| c == first)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_of_short_and_long_units_are_found() {
        assert!(is_looping(&format!("{{\"w\":1{}", "0".repeat(60))));
        assert!(is_looping(&format!(
            "{{\"titles\":[{}",
            "\"Buy milk\",".repeat(MIN_LONG_REPEATS)
        )));
        let sentence = "I will add it to your plan now. ";
        assert!(is_looping(&sentence.repeat(MIN_LONG_REPEATS + 1)));
    }

    #[test]
    fn real_answers_with_repeated_structure_are_not_loops() {
        // Sets that differ by their index, a few identical short values, a long title.
        let sets: String = (1..=20)
            .map(|i| format!("{{\"set\":{i},\"w\":100,\"r\":5}},"))
            .collect();
        assert!(!is_looping(&sets));
        assert!(!is_looping(&"\"a\",".repeat(MIN_LONG_REPEATS)));
        assert!(!is_looping(&"0".repeat(MIN_SHORT_REPEATS - 1)));
        assert!(!is_looping(""));
        assert!(!is_looping("{\"title\":\"Call mom\"}"));
        // The loop must reach the end: an old repetition followed by new text is fine.
        let mut s = "ab".repeat(MIN_SHORT_REPEATS);
        s.push_str("} done");
        assert!(!is_looping(&s));
    }
}
