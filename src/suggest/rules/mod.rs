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

mod drafts;
mod hygiene;

pub(crate) use super::metrics::weight_text;
pub(crate) use drafts::{draft, evidence, num};
pub(crate) use hygiene::top_regular;
pub(crate) use progression::weight_progression_indexes;
mod progression;
mod rep_range;
mod safety;
#[cfg(test)]
pub(crate) mod testkit;

use super::apply::applied;
use super::model::{ExerciseContext, SuggestionDraft};

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
///
/// Every rule judges the prescription as it is. While its rep range mode is `notSet`, rep range
/// inference proposes one, and the rules that need a rep goal (progression, the below-range
/// decrease, the rep floors of reduced weight, stagnation's "struggling" and short rest) stay
/// silent until the user accepts it, as in the original app (its rules check the prescription's
/// active mode; its comment "so other rules can rely on a defined mode" means the next time).
/// Judging against a range the user never chose would tell them they "hit the top of their
/// range" when they have none.
///
/// Only drafts that accepting could apply are returned: one whose result `savePlan` would refuse
/// (a weight above 5000, a rep range or target above 100, rest above an hour) is left out.
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
    // A suggestion accept would refuse (a weight above 5000, a rep range above its limits, rest
    // above an hour) could never be taken: it is not made.
    out.retain(|d| applied(&ctx.prescription, d).is_ok());
    out
}

#[cfg(test)]
mod tests {
    use super::testkit::{done, sets, Ctx};
    use super::*;
    use crate::suggest::model::{
        ExerciseHistory, PerformedSet, RestMode, SetPrescription, SetType::*, SuggestionSource,
        Trend,
    };

    /// The rule ids of `drafts`, in output order.
    fn rule_ids(drafts: &[SuggestionDraft]) -> Vec<&str> {
        drafts
            .iter()
            .map(|d| d.rule_id.as_deref().expect("rule drafts carry a rule id"))
            .collect()
    }

    /// Position of a rule id in [`RULE_IDS`].
    fn rank(rule: &str) -> usize {
        RULE_IDS
            .iter()
            .position(|r| *r == rule)
            .unwrap_or_else(|| panic!("unknown rule id {rule}"))
    }

    #[test]
    fn evaluate_emits_drafts_in_spec_order() {
        // An 8-12 range; 4 prescribed regular sets at 100 lb. Three identical sessions: set 0 at
        // 50 x 8, sets 1-2 at 100 x 12, set 3 logged as a 70 lb drop set. Sets 1-2 at the top
        // twice -> double progression; set 0 lightened and at the floor twice -> reduced weight,
        // and 50 lb three times -> match actual weight too (the deduplicator keeps one); set 0
        // under 70% of the top -> regular acting as warmup;
        // set 3 logged as a drop set twice -> set type mismatch. (Rep range inference, first in
        // the order, needs a prescription without a rep goal: its own test shows it first.)
        let session = vec![
            done(0, Regular, 50.0, 8),
            done(1, Regular, 100.0, 12),
            done(2, Regular, 100.0, 12),
            done(3, Drop, 70.0, 12),
        ];
        let ctx = Ctx::range(8, 12)
            .rx(|rx| {
                rx.sets.push(SetPrescription {
                    index: 3,
                    set_type: Regular,
                    target_weight: 100.0,
                    target_reps: 10,
                    rest_seconds: 90,
                })
            })
            .performed(vec![session; 3])
            .build();
        let drafts = evaluate(&ctx);
        let ids = rule_ids(&drafts);
        assert_eq!(
            ids,
            [
                progression::DOUBLE_PROGRESSION_RANGE,
                progression::DOUBLE_PROGRESSION_RANGE,
                progression::DOUBLE_PROGRESSION_RANGE,
                progression::DOUBLE_PROGRESSION_RANGE,
                safety::REDUCED_WEIGHT_TO_HIT_REPS,
                safety::MATCH_ACTUAL_WEIGHT,
                hygiene::REGULAR_ACTING_AS_WARMUP,
                hygiene::SET_TYPE_MISMATCH,
            ]
        );
        let ranks: Vec<usize> = ids.iter().map(|r| rank(r)).collect();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ids:?}");
        // RULE_IDS has each rule once.
        let mut unique = RULE_IDS.to_vec();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), RULE_IDS.len());
    }

    /// Completed regular sets at (weight, reps).
    fn regular(spec: &[(f64, u32)]) -> Vec<PerformedSet> {
        spec.iter()
            .enumerate()
            .map(|(i, &(w, r))| done(i as u32, Regular, w, r))
            .collect()
    }

    #[test]
    fn every_rule_explains_itself() {
        // (rule, scenario, phrases the reasoning must contain: the deciding numbers)
        type Case = (&'static str, ExerciseContext, Vec<&'static str>);
        let short_rest = {
            let mut s = regular(&[(100.0, 10), (100.0, 8), (100.0, 8)]);
            s[0].rest_seconds = Some(60);
            s
        };
        let cases: Vec<Case> = vec![
            (
                rep_range::INFERENCE,
                Ctx::not_set()
                    .sessions(&[&[8, 10, 12], &[9, 10, 11]])
                    .build(),
                vec!["8 to 12"],
            ),
            (
                rep_range::INFERENCE,
                Ctx::not_set()
                    .sessions(&[&[10]])
                    .with(|c| {
                        c.history = Some(ExerciseHistory {
                            catalog_id: "bench-press".into(),
                            session_count: 9,
                            typical_lower_reps: 6,
                            typical_upper_reps: 10,
                            best_e1rm: 0.0,
                            last_e1rm: 0.0,
                            trend: Trend::Unknown,
                            updated_at_ms: 0,
                        })
                    })
                    .build(),
                vec!["6 to 10"],
            ),
            (
                progression::LARGE_OVERSHOOT,
                Ctx::range(8, 12).sessions(&[&[16, 16], &[16, 16]]).build(),
                vec!["107.5"],
            ),
            (
                progression::DOUBLE_PROGRESSION_RANGE,
                Ctx::range(8, 12).sessions(&[&[12, 12], &[12, 12]]).build(),
                vec!["105"],
            ),
            (
                progression::DOUBLE_PROGRESSION_TARGET,
                Ctx::target(8).sessions(&[&[9, 9], &[9, 9]]).build(),
                vec!["8", "100 to 105"],
            ),
            (
                progression::STEADY_REPS_INCREASE,
                Ctx::range(8, 12).sessions(&[&[10, 10], &[10, 10]]).build(),
                vec!["10 reps at 100", "11"],
            ),
            (
                safety::BELOW_RANGE_DECREASE,
                Ctx::range(8, 12)
                    .performed(vec![regular(&[(100.0, 7); 3]); 2])
                    .build(),
                vec!["8 reps", "100 to 95"],
            ),
            (
                safety::REDUCED_WEIGHT_TO_HIT_REPS,
                Ctx::range(8, 12)
                    .performed(vec![regular(&[(100.0, 8), (90.0, 7), (100.0, 8)]); 2])
                    .build(),
                vec!["set 2", "from 100 lb", "90 lb x 7", "8 reps", "to 90 lb"],
            ),
            (
                safety::MATCH_ACTUAL_WEIGHT,
                Ctx::range(8, 12)
                    .performed(vec![regular(&[(110.0, 10); 3]); 3])
                    .build(),
                vec!["110 lb", "100 lb"],
            ),
            (
                safety::STAGNATION_INCREASE_REST,
                Ctx::range(8, 12)
                    .performed(vec![regular(&[(100.0, 7); 3]); 3])
                    .build(),
                vec!["0.0%", "105 s", "90 s"],
            ),
            (
                hygiene::SHORT_REST_PERFORMANCE_DROP,
                Ctx::range(8, 12)
                    .performed(vec![short_rest.clone(); 2])
                    .build(),
                vec!["60 s", "90 s", "105 s"],
            ),
            (
                hygiene::DROP_SET_WITHOUT_BASE,
                Ctx::range(8, 12)
                    .rx(|rx| rx.sets[0].set_type = Drop)
                    .performed(vec![sets(&[
                        (Drop, 80.0, 10),
                        (Regular, 100.0, 10),
                        (Regular, 100.0, 10),
                    ])])
                    .build(),
                vec!["set 1"],
            ),
            (
                hygiene::WARMUP_ACTING_AS_WORKING_SET,
                Ctx::range(8, 12)
                    .rx(|rx| rx.sets[0].set_type = Warmup)
                    .performed(vec![
                        sets(&[
                            (Warmup, 95.0, 10),
                            (Regular, 100.0, 10),
                            (Regular, 100.0, 10),
                        ]);
                        2
                    ])
                    .build(),
                vec!["set 1", "95", "95%", "100"],
            ),
            (
                hygiene::REGULAR_ACTING_AS_WARMUP,
                Ctx::range(8, 12)
                    .performed(vec![regular(&[(50.0, 10), (100.0, 10), (100.0, 10)]); 2])
                    .build(),
                vec!["Set 1", "50", "50%", "100"],
            ),
            (
                hygiene::SET_TYPE_MISMATCH,
                Ctx::range(8, 12)
                    .performed(vec![
                        sets(&[
                            (Regular, 100.0, 10),
                            (Regular, 100.0, 10),
                            (Drop, 80.0, 10),
                        ]);
                        2
                    ])
                    .build(),
                vec!["set 3", "a drop set", "a regular set"],
            ),
        ];
        let mut covered: Vec<&str> = Vec::new();
        for (rule, ctx, phrases) in &cases {
            let drafts: Vec<SuggestionDraft> = evaluate(ctx)
                .into_iter()
                .filter(|d| d.rule_id.as_deref() == Some(*rule))
                .collect();
            assert!(!drafts.is_empty(), "{rule} fires in its scenario");
            covered.push(rule);
            let examined: Vec<String> = ctx.recent().map(|p| p.id.clone()).collect();
            for d in &drafts {
                assert_eq!(d.source, SuggestionSource::Rule, "{rule}");
                assert!(!d.reasoning.trim().is_empty(), "{rule}");
                // Numbers are told to the user; raw floats never leak.
                assert!(!d.reasoning.contains(".0 "), "{rule}: {}", d.reasoning);
                for phrase in phrases {
                    assert!(
                        d.reasoning.contains(phrase),
                        "{rule}: {phrase:?} not in {:?}",
                        d.reasoning
                    );
                }
                let ev = &d.evidence;
                assert!(!ev.performance_ids.is_empty(), "{rule}: sessions named");
                assert!(
                    ev.performance_ids.iter().all(|id| examined.contains(id)),
                    "{rule}: {:?}",
                    ev.performance_ids
                );
                assert_eq!(ev.performance_ids[0], "perf-0", "{rule}: newest first");
                // Only an inference from the cached history looks at no set.
                let from_history = ev.figures.iter().any(|f| f.name == "historySessions");
                assert!(
                    !ev.set_indexes.is_empty() || from_history,
                    "{rule}: sets named"
                );
                if let Some(i) = d.target_set_index {
                    assert!(ev.set_indexes.contains(&i), "{rule}: target set named");
                }
                assert!(!ev.figures.is_empty(), "{rule}: figures");
                for f in &ev.figures {
                    assert!(
                        f.name.chars().all(|c| c.is_ascii_alphanumeric())
                            && f.name.starts_with(|c: char| c.is_ascii_lowercase()),
                        "{rule}: evidence key {:?} is camelCase",
                        f.name
                    );
                    assert!(f.value.is_finite(), "{rule}: {}", f.name);
                }
            }
        }
        covered.sort_unstable();
        covered.dedup();
        let mut all = RULE_IDS.to_vec();
        all.sort_unstable();
        assert_eq!(covered, all, "every rule has a scenario");
    }

    #[test]
    fn per_set_rest_changes_explain_themselves_too() {
        // Per-set rest mode: the stagnation and short-rest changes target sets.
        let per_set = |ctx: Ctx| {
            ctx.rx(|rx| {
                rx.rest_mode = RestMode::PerSet;
                for (s, rest) in rx.sets.iter_mut().zip([60, 90, 120]) {
                    s.rest_seconds = rest;
                }
            })
        };
        let mut short = regular(&[(100.0, 10), (100.0, 8), (100.0, 8)]);
        short[0].rest_seconds = Some(40);
        let ctx = per_set(Ctx::range(8, 12)).performed(vec![short; 2]).build();
        let drafts = evaluate(&ctx);
        let d = drafts
            .iter()
            .find(|d| d.rule_id.as_deref() == Some(hygiene::SHORT_REST_PERFORMANCE_DROP))
            .expect("short rest fires");
        assert_eq!(d.target_set_index, Some(0));
        assert!(d.reasoning.contains("40 s") && d.reasoning.contains("75 s"));
        assert!(d.evidence.set_indexes.contains(&1), "the set that dropped");
    }
}
