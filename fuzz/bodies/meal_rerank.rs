//! The meal rerank reply check (`src/meals/rerank.rs`): the first byte is the number of
//! candidates (0 to 25), the rest is the model's reply text, read as the meal planner reads it:
//! extraction, parsing, `check_reply`, then `distinct_picks` and `cut` on a valid reply. No panic;
//! a valid reply gives at most 3 distinct picks, each naming one of the candidates.
//!
//! Shared by the fuzz target (`fuzz/fuzz_targets/meal_rerank.rs`) and the replay of its seed corpus
//! in the ordinary tests (`tests/it/fuzz_replay.rs`).

use coachcore::llm::extract::{extract_json, parse_model_json};
use coachcore::meals::rerank::{self, RerankReply};

/// One input: panics (a failed check) when the library misbehaves on it.
pub fn run(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let n = usize::from(first % 26);
    if extract_json(text).is_none() {
        return;
    }
    let Ok(reply) = parse_model_json::<RerankReply>(text) else {
        return;
    };
    if !rerank::check_reply(&reply, n).is_empty() {
        return;
    }
    let picks = rerank::distinct_picks(&reply, n);
    assert!(picks.len() <= rerank::MAX_PICKS);
    for (k, (index, p)) in picks.iter().enumerate() {
        assert!(*index < n, "a pick names no candidate");
        assert!(
            picks[..k].iter().all(|(seen, _)| seen != index),
            "a repeated pick"
        );
        assert!((0.0..=1.0).contains(&p.confidence));
        let reason = rerank::cut(&p.reason, rerank::MAX_REASON_CHARS);
        assert!(reason.chars().count() <= rerank::MAX_REASON_CHARS);
    }
    for w in &reply.warnings {
        assert!(
            rerank::cut(w, rerank::MAX_REASON_CHARS).chars().count() <= rerank::MAX_REASON_CHARS
        );
    }
}
