//! The rule engine (spec 004 "Rule Engine"): deterministic rules run in the spec's order, each
//! returning drafts that explain themselves (rule id, the performances and sets examined, and the
//! numbers that decided it).
//!
//! | file | rules |
//! |---|---|
//! | `rep_range.rs` | rep range inference |
//! | `progression.rs` | large overshoot, double progression (range, target), steady reps increase |
//! | `safety.rs` | below-range decrease, reduced weight to hit reps, match actual weight, stagnation rest |
//! | `hygiene.rs` | short-rest drop, drop set without base, warmup as working, regular as warmup, set type mismatch |

mod hygiene;
mod progression;
mod rep_range;
mod safety;
#[cfg(test)]
pub(crate) mod testkit;

use super::model::{
    ChangeProperty, ChangeType, ChangeValue, Evidence, EvidenceFigure, ExerciseContext,
    SuggestionDraft, SuggestionSource,
};

/// Every rule id, in evaluation order.
pub const RULE_IDS: [&str; 14] = [
    rep_range::INFERENCE,
    progression::LARGE_OVERSHOOT,
    progression::DOUBLE_PROGRESSION_RANGE,
    progression::DOUBLE_PROGRESSION_TARGET,
    progression::STEADY_REPS_INCREASE,
    safety::BELOW_RANGE_DECREASE,
    safety::REDUCED_WEIGHT_TO_HIT_REPS,
    safety::MATCH_ACTUAL_WEIGHT,
    safety::STAGNATION_INCREASE_REST,
    hygiene::SHORT_REST_PERFORMANCE_DROP,
    hygiene::DROP_SET_WITHOUT_BASE,
    hygiene::WARMUP_ACTING_AS_WORKING_SET,
    hygiene::REGULAR_ACTING_AS_WARMUP,
    hygiene::SET_TYPE_MISMATCH,
];

/// Runs every rule in the spec's order and returns their drafts in that order.
pub fn evaluate(ctx: &ExerciseContext) -> Vec<SuggestionDraft> {
    let mut out = Vec::new();
    rep_range::inference(ctx, &mut out);
    progression::large_overshoot(ctx, &mut out);
    progression::double_progression_range(ctx, &mut out);
    progression::double_progression_target(ctx, &mut out);
    progression::steady_reps_increase(ctx, &mut out);
    safety::below_range_decrease(ctx, &mut out);
    safety::reduced_weight_to_hit_reps(ctx, &mut out);
    safety::match_actual_weight(ctx, &mut out);
    safety::stagnation_increase_rest(ctx, &mut out);
    hygiene::short_rest_performance_drop(ctx, &mut out);
    hygiene::drop_set_without_base(ctx, &mut out);
    hygiene::warmup_acting_as_working_set(ctx, &mut out);
    hygiene::regular_acting_as_warmup(ctx, &mut out);
    hygiene::set_type_mismatch(ctx, &mut out);
    out
}

/// Set indexes for which a progression rule (large overshoot or double progression) warrants a
/// weight increase; rules that would otherwise fight progression check this first.
pub(crate) fn weight_progression_indexes(ctx: &ExerciseContext) -> Vec<u32> {
    let mut drafts = Vec::new();
    progression::large_overshoot(ctx, &mut drafts);
    progression::double_progression_range(ctx, &mut drafts);
    progression::double_progression_target(ctx, &mut drafts);
    let mut idx: Vec<u32> = drafts
        .iter()
        .filter(|d| d.change_type == ChangeType::IncreaseWeight)
        .filter_map(|d| d.target_set_index)
        .collect();
    idx.sort_unstable();
    idx.dedup();
    idx
}

/// A rule's draft. `set_index` is `None` for an exercise-level change.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draft(
    rule_id: &str,
    change_type: ChangeType,
    set_index: Option<u32>,
    property: ChangeProperty,
    old_value: Option<ChangeValue>,
    new_value: ChangeValue,
    reasoning: String,
    evidence: Evidence,
) -> SuggestionDraft {
    SuggestionDraft {
        source: SuggestionSource::Rule,
        rule_id: Some(rule_id.to_string()),
        change_type,
        target_set_index: set_index,
        property,
        old_value,
        new_value,
        reasoning,
        evidence,
    }
}

/// A numeric change value.
pub(crate) fn num(value: f64) -> ChangeValue {
    ChangeValue::Number { value }
}

/// Evidence from performance ids, set indexes and named figures.
pub(crate) fn evidence<'a>(
    performance_ids: impl IntoIterator<Item = &'a str>,
    set_indexes: impl IntoIterator<Item = u32>,
    figures: &[(&str, f64)],
) -> Evidence {
    Evidence {
        performance_ids: performance_ids.into_iter().map(str::to_string).collect(),
        set_indexes: set_indexes.into_iter().collect(),
        figures: figures
            .iter()
            .map(|(name, value)| EvidenceFigure {
                name: (*name).to_string(),
                value: *value,
            })
            .collect(),
    }
}
