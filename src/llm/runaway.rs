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

/// Sampled tokens between two looks at the output: the check scans up to [`MAX_UNIT`] unit
/// sizes, so it runs every few sampled tokens rather than after each.
pub const CHECK_EVERY: u32 = 8;

/// Decides when the engine looks at its output for a loop: after every [`CHECK_EVERY`] sampled
/// tokens, counted since the last look. Forced tokens (jump-forward decoding) do not count, so a
/// loop whose steps each add forced tokens is still looked at every [`CHECK_EVERY`] model steps
/// (a check keyed to the total token count could skip such a loop forever).
#[derive(Debug, Default, Clone)]
pub struct LoopCheck {
    sampled_since_check: u32,
}

impl LoopCheck {
    /// Call after each sampled token with the whole output so far: whether it is now looping
    /// (looked at only every [`CHECK_EVERY`] calls).
    pub fn after_sampled(&mut self, text: &str) -> bool {
        self.sampled_since_check += 1;
        if self.sampled_since_check < CHECK_EVERY {
            return false;
        }
        self.sampled_since_check = 0;
        is_looping(text)
    }
}

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

    /// A loop whose every model step is one sampled token followed by forced ones (jump-forward):
    /// the total token count after a sampled token is then always odd, so a check keyed to it
    /// ("every 8th token") never ran. The checker counts sampled steps and finds the loop.
    #[test]
    fn a_loop_with_forced_tokens_between_samples_is_found() {
        let mut check = LoopCheck::default();
        let mut text = String::from("{\"titles\":[");
        let mut tokens = 0u32;
        let mut found_at = None;
        for step in 1..=200u32 {
            // Sampled: the opening quote; forced: the name and the comma after it.
            text.push('"');
            tokens += 1;
            assert_eq!(
                tokens % 2,
                1,
                "the old check would look only at even counts"
            );
            if check.after_sampled(&text) {
                found_at = Some(step);
                break;
            }
            text.push_str("Buy milk\",");
            tokens += 1;
        }
        let step = found_at.expect("the loop was never found");
        // Found within one check period of the loop becoming long enough to count.
        assert!(
            step <= MIN_LONG_REPEATS as u32 + CHECK_EVERY,
            "found at step {step}"
        );
        assert!(is_looping(&text));
    }

    #[test]
    fn the_checker_looks_every_few_sampled_tokens_and_leaves_real_output_alone() {
        let mut check = LoopCheck::default();
        let looping = "0".repeat(100);
        let looks: Vec<bool> = (0..CHECK_EVERY * 2)
            .map(|_| check.after_sampled(&looping))
            .collect();
        let found: Vec<usize> = looks
            .iter()
            .enumerate()
            .filter(|(_, &l)| l)
            .map(|(i, _)| i)
            .collect();
        let every = CHECK_EVERY as usize;
        assert_eq!(found, [every - 1, 2 * every - 1]);
        let mut check = LoopCheck::default();
        let mut text = String::new();
        for i in 0..100 {
            text.push_str(&format!("{{\"set\":{i},\"w\":100}},"));
            assert!(!check.after_sampled(&text), "{text}");
        }
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
