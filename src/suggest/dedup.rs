//! Deduplication and conflict resolution (spec 004 "Deduplication and Similarity Rules").
//!
//! [`deduplicate`] takes the drafts produced for one exercise prescription (rule drafts first, then
//! AI drafts, each in creation order) and the changes already stored for the plan, and returns the
//! drafts worth persisting, in their original relative order. It is pure: the current time comes in
//! as `now_ms`. The steps run in this order:
//!
//! 1. **Cooldown.** A draft is dropped when a stored change of the same prescription is
//!    [`similar`] to it (same [`ChangeType`] and same target: the same set index, or both at
//!    exercise level) and was created less than [`COOLDOWN_MS`] (7 days) before `now_ms`. Exactly
//!    7 days ago no longer blocks. Every decision blocks: pending, deferred and accepted (spec), and
//!    rejected (spec). A change marked `user_override` (the user's own edit) never blocks (issue).
//!    *Spec silent:* a stored change created after `now_ms` (clock skew) counts as recent and blocks.
//! 2. **Duplicates.** Similar drafts collapse to one, chosen by the tie-break order below (they
//!    share a change type, so their priority is equal).
//! 3. **Strategy conflicts**, judged at exercise level, i.e. across every set of the prescription
//!    and the exercise-level target (*spec silent* on the scope; the original app groups by
//!    exercise too, and a weight change on one set and rest on another are the same strategy):
//!    - weight increase vs weight decrease: when any `DecreaseWeight` draft is left, every
//!      `IncreaseWeight` draft is dropped (safety wins);
//!    - weight increase vs rest increase: then, when any `IncreaseWeight` draft is still left,
//!      every `IncreaseRest` draft is dropped (progression wins over rest optimisation).
//!      `DecreaseRest` is not part of either conflict.
//!
//!    The decrease rule runs first, so an increase it drops cannot suppress rest changes.
//! 4. **Companion "reset reps".** *Spec silent; from the issue:* a rule that raises a set's weight
//!    may also reset that set's target reps to the bottom of the range (large overshoot and double
//!    progression do): down from above it (`DecreaseReps`), or up from below it (`IncreaseReps`).
//!    Any reps draft (either direction) is a companion when a draft of the same rule (`rule_id`,
//!    rule source) raises the weight of the same target; no rule emits a reps change of its own
//!    next to a weight increase of the same set. A companion only makes sense with a weight increase,
//!    so it is dropped when no `IncreaseWeight` draft for its target is left after steps 1-3: the
//!    increase lost a strategy conflict or (*our extension*) was blocked by the cooldown. When the
//!    increase only lost a duplicate collapse, another increase of the same set survives and the
//!    companion stays.
//! 5. **Property conflicts.** Among drafts with the same target and the same [`ChangeProperty`],
//!    only the one with the highest [`priority`] is kept: decrease weight 1; increase weight and
//!    increase/decrease reps 2; set type and rep range 3; add/remove set 4; rest changes 5; 6 is
//!    the spec's "exercise structure", which has no change type yet. The property is the draft's
//!    own `property` field. Exercise-level and set-level drafts are different targets (spec
//!    silent; the rules emit one or the other depending on the rest mode).
//!
//! **Tie-break** (steps 2 and 5): higher priority, then rule over AI, then the larger
//! [`SuggestionDraft::magnitude`] (a NaN magnitude counts as 0), then the earlier draft in the
//! candidate list (= earlier created).
//!
//! Properties, checked by the randomized test at the bottom: no two survivors are similar, no
//! survivor is similar to a blocking stored change, no two survivors share target and property,
//! survivors are a subsequence of the candidates, and running the deduplicator twice changes
//! nothing.
//!
//! [`ChangeProperty`]: super::model::ChangeProperty

use std::collections::HashMap;
use std::hash::Hash;

use super::model::{
    ChangeType, Decision, ExerciseContext, PrescriptionChange, SuggestionDraft, SuggestionSource,
};

/// The cooldown for similar suggestions.
pub const COOLDOWN_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// Filters `candidates` (rule drafts first, then AI drafts, in creation order) for one exercise
/// prescription against the `existing` stored changes (any decision) and resolves conflicts among
/// the candidates. Returns the survivors in their original relative order.
pub fn deduplicate(
    prescription_id: &str,
    candidates: Vec<SuggestionDraft>,
    existing: &[PrescriptionChange],
    now_ms: i64,
) -> Vec<SuggestionDraft> {
    let c = &candidates;
    // 1. Cooldown.
    let mut alive: Vec<bool> = c
        .iter()
        .map(|d| {
            !existing
                .iter()
                .any(|e| blocks(e, prescription_id, d, now_ms))
        })
        .collect();

    // 2. Similar duplicates collapse to the best one.
    keep_best_per_group(c, &mut alive, |d| (d.change_type, d.target_set_index));

    // 3. Strategy conflicts, decrease-vs-increase first.
    let any_alive =
        |alive: &[bool], t: ChangeType| c.iter().zip(alive).any(|(d, &a)| a && d.change_type == t);
    if any_alive(&alive, ChangeType::DecreaseWeight) {
        drop_type(c, &mut alive, ChangeType::IncreaseWeight);
    }
    if any_alive(&alive, ChangeType::IncreaseWeight) {
        drop_type(c, &mut alive, ChangeType::IncreaseRest);
    }

    // 4. Companion "reset reps" drafts whose weight increase is gone.
    for i in 0..c.len() {
        if alive[i] && is_companion(c, i) {
            let target = c[i].target_set_index;
            let increase_left = c.iter().zip(&alive).any(|(d, &a)| {
                a && d.change_type == ChangeType::IncreaseWeight && d.target_set_index == target
            });
            if !increase_left {
                alive[i] = false;
            }
        }
    }

    // 5. Property conflicts.
    keep_best_per_group(c, &mut alive, |d| (d.target_set_index, d.property));

    candidates
        .into_iter()
        .zip(alive)
        .filter_map(|(d, a)| a.then_some(d))
        .collect()
}

/// Priority of a change type in property conflicts: 1 (highest) to 6. Every current change type
/// has a level from 1 to 5; 6 is the spec's "exercise structure" level, kept for future types.
pub fn priority(change_type: ChangeType) -> u8 {
    match change_type {
        ChangeType::DecreaseWeight => 1,
        ChangeType::IncreaseWeight | ChangeType::IncreaseReps | ChangeType::DecreaseReps => 2,
        ChangeType::ChangeSetType | ChangeType::ChangeRepRange => 3,
        ChangeType::AddSet | ChangeType::RemoveSet => 4,
        ChangeType::IncreaseRest | ChangeType::DecreaseRest => 5,
    }
}

/// Whether two drafts for the same exercise prescription are "similar": same change type and same
/// target (the same set index, or both at exercise level).
pub fn similar(a: &SuggestionDraft, b: &SuggestionDraft) -> bool {
    a.change_type == b.change_type && a.target_set_index == b.target_set_index
}

/// Whether two stored changes are similar: same prescription and [`similar`] drafts.
pub fn similar_changes(a: &PrescriptionChange, b: &PrescriptionChange) -> bool {
    a.prescription_id == b.prescription_id && similar(&a.draft, &b.draft)
}

/// Whether the stored change `existing` blocks `candidate` (a draft for `prescription_id`) at
/// `now_ms`: similar, not a user override, and created less than [`COOLDOWN_MS`] ago.
pub fn blocks(
    existing: &PrescriptionChange,
    prescription_id: &str,
    candidate: &SuggestionDraft,
    now_ms: i64,
) -> bool {
    existing.prescription_id == prescription_id
        && !existing.user_override
        && decision_blocks(existing.decision)
        && now_ms.saturating_sub(existing.created_at_ms) < COOLDOWN_MS
        && similar(&existing.draft, candidate)
}

/// Every decision blocks within the cooldown (spec: pending, deferred, accepted; rejected too).
/// Spelled out so that a new decision state has to be placed deliberately.
fn decision_blocks(decision: Decision) -> bool {
    match decision {
        Decision::Pending | Decision::Deferred | Decision::Accepted | Decision::Rejected => true,
    }
}

/// Whether `a` beats `b` in a conflict (strictly): higher priority, then rule over AI, then larger
/// magnitude. Equal drafts do not beat each other, so the earlier one stays.
fn outranks(a: &SuggestionDraft, b: &SuggestionDraft) -> bool {
    let (pa, pb) = (priority(a.change_type), priority(b.change_type));
    if pa != pb {
        return pa < pb;
    }
    if a.source != b.source {
        return a.source == SuggestionSource::Rule;
    }
    magnitude(a) > magnitude(b)
}

/// [`SuggestionDraft::magnitude`] with NaN read as 0, so that comparisons stay a total order.
fn magnitude(d: &SuggestionDraft) -> f64 {
    let m = d.magnitude();
    if m.is_nan() {
        0.0
    } else {
        m
    }
}

/// Among the alive drafts with the same `key`, keeps only the best one (see [`outranks`]; the
/// earliest on a tie).
fn keep_best_per_group<K: Eq + Hash>(
    c: &[SuggestionDraft],
    alive: &mut [bool],
    key: impl Fn(&SuggestionDraft) -> K,
) {
    let mut best: HashMap<K, usize> = HashMap::new();
    for (i, d) in c.iter().enumerate() {
        if !alive[i] {
            continue;
        }
        let slot = best.entry(key(d)).or_insert(i);
        if *slot != i && outranks(d, &c[*slot]) {
            *slot = i;
        }
    }
    for (i, d) in c.iter().enumerate() {
        if alive[i] && best.get(&key(d)) != Some(&i) {
            alive[i] = false;
        }
    }
}

/// Drops every alive draft of change type `t`.
fn drop_type(c: &[SuggestionDraft], alive: &mut [bool], t: ChangeType) {
    for (d, a) in c.iter().zip(alive.iter_mut()) {
        if d.change_type == t {
            *a = false;
        }
    }
}

/// Whether draft `i` is a rule's "reset reps" companion: a reps draft (`IncreaseReps` or
/// `DecreaseReps`) whose rule also produced an `IncreaseWeight` draft for the same target among
/// the candidates.
fn is_companion(c: &[SuggestionDraft], i: usize) -> bool {
    let d = &c[i];
    matches!(
        d.change_type,
        ChangeType::DecreaseReps | ChangeType::IncreaseReps
    ) && d.source == SuggestionSource::Rule
        && d.rule_id.is_some()
        && c.iter().any(|o| {
            o.change_type == ChangeType::IncreaseWeight
                && o.source == SuggestionSource::Rule
                && o.rule_id == d.rule_id
                && o.target_set_index == d.target_set_index
        })
}

/// The candidate lists of a session's exercises, one per prescription (the prescription id, its
/// catalog id, the drafts) in the order the session first logged it: the drafts of a prescription
/// logged more than once are merged, then ordered rule drafts first, then AI drafts, each in
/// creation order (what [`deduplicate`] expects).
pub(crate) fn candidates_by_prescription(
    exercises: Vec<(ExerciseContext, Vec<SuggestionDraft>)>,
) -> Vec<(String, String, Vec<SuggestionDraft>)> {
    let mut merged: Vec<(String, String, Vec<SuggestionDraft>)> = Vec::new();
    for (ctx, drafts) in exercises {
        let rx_id = ctx.prescription.id;
        match merged.iter_mut().find(|m| m.0 == rx_id) {
            Some(m) => m.2.extend(drafts),
            None => merged.push((rx_id, ctx.exercise.catalog_id, drafts)),
        }
    }
    for m in &mut merged {
        // Stable: rule drafts first, then AI drafts, each in creation order.
        m.2.sort_by_key(|d| d.source == SuggestionSource::Ai);
    }
    merged
}

/// The rule engine and the deduplicator on one exercise, with no database: what
/// `coach suggest evaluate` prints. `existing` are the exercise's stored changes; `now_ms` is the
/// time the cooldown is measured from.
pub fn evaluate_exercise(
    ctx: &ExerciseContext,
    existing: &[PrescriptionChange],
    now_ms: i64,
) -> Vec<SuggestionDraft> {
    deduplicate(
        &ctx.prescription.id,
        super::rules::evaluate(ctx),
        existing,
        now_ms,
    )
}

#[cfg(test)]
mod pairs;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suggest::model::{ChangeProperty, ChangeValue, Evidence, Outcome};

    const DAY: i64 = 24 * 60 * 60 * 1000;
    const HOUR: i64 = 60 * 60 * 1000;
    const NOW: i64 = 1_700_000_000_000;
    const P: &str = "p1";

    /// A test draft: `label` goes into `reasoning` to identify it; old value 100, new 100 + `mag`.
    fn d(
        label: &str,
        src: SuggestionSource,
        rule: Option<&str>,
        t: ChangeType,
        set: Option<u32>,
        mag: f64,
    ) -> SuggestionDraft {
        SuggestionDraft {
            source: src,
            rule_id: rule.map(str::to_string),
            change_type: t,
            target_set_index: set,
            property: t.property(),
            old_value: Some(ChangeValue::Number { value: 100.0 }),
            new_value: ChangeValue::Number { value: 100.0 + mag },
            reasoning: label.to_string(),
            evidence: Evidence::default(),
        }
    }

    /// A rule draft with magnitude 5.
    fn r(label: &str, t: ChangeType, set: Option<u32>) -> SuggestionDraft {
        d(label, SuggestionSource::Rule, Some("rule_x"), t, set, 5.0)
    }

    /// An AI draft with magnitude 5.
    fn ai(label: &str, t: ChangeType, set: Option<u32>) -> SuggestionDraft {
        d(label, SuggestionSource::Ai, None, t, set, 5.0)
    }

    fn stored(
        pid: &str,
        t: ChangeType,
        set: Option<u32>,
        age_ms: i64,
        decision: Decision,
        user_override: bool,
    ) -> PrescriptionChange {
        PrescriptionChange {
            id: format!("c-{pid}-{t:?}-{set:?}"),
            session_id: "s0".into(),
            plan_id: "plan".into(),
            prescription_id: pid.into(),
            catalog_id: "bench".into(),
            draft: r("old", t, set),
            decision,
            created_at_ms: NOW - age_ms,
            decided_at_ms: None,
            user_override,
            outcome: Outcome::NotEvaluated,
            outcome_reason: None,
            evaluated_at_ms: None,
        }
    }

    fn labels(v: &[SuggestionDraft]) -> Vec<&str> {
        v.iter().map(|d| d.reasoning.as_str()).collect()
    }

    fn run(cands: Vec<SuggestionDraft>, existing: &[PrescriptionChange]) -> Vec<String> {
        labels(&deduplicate(P, cands, existing, NOW))
            .into_iter()
            .map(String::from)
            .collect()
    }

    use ChangeType::*;
    use Decision::*;

    #[test]
    fn cooldown() {
        // (case, stored change, candidate blocked?)
        let cases: Vec<(&str, PrescriptionChange, bool)> = vec![
            (
                "6d23h pending",
                stored(
                    P,
                    IncreaseWeight,
                    Some(0),
                    6 * DAY + 23 * HOUR,
                    Pending,
                    false,
                ),
                true,
            ),
            (
                "7d-1ms pending",
                stored(P, IncreaseWeight, Some(0), 7 * DAY - 1, Pending, false),
                true,
            ),
            (
                "exactly 7d",
                stored(P, IncreaseWeight, Some(0), 7 * DAY, Pending, false),
                false,
            ),
            (
                "8d",
                stored(P, IncreaseWeight, Some(0), 8 * DAY, Rejected, false),
                false,
            ),
            (
                "just now",
                stored(P, IncreaseWeight, Some(0), 0, Pending, false),
                true,
            ),
            (
                "future (clock skew)",
                stored(P, IncreaseWeight, Some(0), -HOUR, Pending, false),
                true,
            ),
            (
                "pending",
                stored(P, IncreaseWeight, Some(0), DAY, Pending, false),
                true,
            ),
            (
                "deferred",
                stored(P, IncreaseWeight, Some(0), DAY, Deferred, false),
                true,
            ),
            (
                "accepted",
                stored(P, IncreaseWeight, Some(0), DAY, Accepted, false),
                true,
            ),
            (
                "rejected",
                stored(P, IncreaseWeight, Some(0), DAY, Rejected, false),
                true,
            ),
            (
                "override pending",
                stored(P, IncreaseWeight, Some(0), DAY, Pending, true),
                false,
            ),
            (
                "override accepted",
                stored(P, IncreaseWeight, Some(0), DAY, Accepted, true),
                false,
            ),
            (
                "other set",
                stored(P, IncreaseWeight, Some(1), DAY, Pending, false),
                false,
            ),
            (
                "exercise level vs set",
                stored(P, IncreaseWeight, None, DAY, Pending, false),
                false,
            ),
            (
                "other change type",
                stored(P, DecreaseWeight, Some(0), DAY, Pending, false),
                false,
            ),
            (
                "same property, other type",
                stored(P, IncreaseReps, Some(0), DAY, Accepted, false),
                false,
            ),
            (
                "other prescription",
                stored("p2", IncreaseWeight, Some(0), DAY, Pending, false),
                false,
            ),
        ];
        for (case, existing, blocked) in cases {
            let out = run(vec![r("inc", IncreaseWeight, Some(0))], &[existing]);
            let want: Vec<String> = if blocked { vec![] } else { vec!["inc".into()] };
            assert_eq!(out, want, "{case}");
        }
    }

    #[test]
    fn cooldown_exercise_level_and_ai() {
        let existing = [stored(P, IncreaseRest, None, DAY, Rejected, false)];
        let out = run(
            vec![
                r("rest ex", IncreaseRest, None),
                r("rest set0", IncreaseRest, Some(0)),
                ai("ai rest ex", IncreaseRest, None),
            ],
            &existing,
        );
        assert_eq!(out, ["rest set0"]);
    }

    #[test]
    fn duplicates_collapse() {
        let rule_mag = |l: &str, m: f64| {
            d(
                l,
                SuggestionSource::Rule,
                Some("rule_x"),
                IncreaseWeight,
                Some(0),
                m,
            )
        };
        let ai_mag = |l: &str, m: f64| d(l, SuggestionSource::Ai, None, IncreaseWeight, Some(0), m);
        let cases: Vec<(&str, Vec<SuggestionDraft>, Vec<&str>)> = vec![
            (
                "rule beats AI",
                vec![rule_mag("rule", 5.0), ai_mag("ai", 5.0)],
                vec!["rule"],
            ),
            (
                "rule beats larger AI",
                vec![rule_mag("rule", 2.5), ai_mag("ai", 10.0)],
                vec!["rule"],
            ),
            (
                "rule beats AI listed first",
                vec![ai_mag("ai", 5.0), rule_mag("rule", 5.0)],
                vec!["rule"],
            ),
            (
                "larger magnitude",
                vec![rule_mag("small", 5.0), rule_mag("big", 7.5)],
                vec!["big"],
            ),
            (
                "larger magnitude among AI",
                vec![ai_mag("a", 5.0), ai_mag("b", 10.0), ai_mag("c", 2.5)],
                vec!["b"],
            ),
            (
                "earlier wins",
                vec![rule_mag("first", 5.0), rule_mag("second", 5.0)],
                vec!["first"],
            ),
            (
                "NaN counts as 0",
                vec![rule_mag("nan", f64::NAN), rule_mag("one", 1.0)],
                vec!["one"],
            ),
            (
                "different sets stay",
                vec![
                    rule_mag("s0", 5.0),
                    d(
                        "s1",
                        SuggestionSource::Rule,
                        Some("rule_x"),
                        IncreaseWeight,
                        Some(1),
                        5.0,
                    ),
                ],
                vec!["s0", "s1"],
            ),
        ];
        for (case, cands, want) in cases {
            assert_eq!(run(cands, &[]), want, "{case}");
        }
    }

    #[test]
    fn strategy_conflicts() {
        let reset = |l: &str, rule: &str, set: Option<u32>| {
            d(
                l,
                SuggestionSource::Rule,
                Some(rule),
                DecreaseReps,
                set,
                4.0,
            )
        };
        let reset_up = |l: &str, rule: &str, set: Option<u32>| {
            d(
                l,
                SuggestionSource::Rule,
                Some(rule),
                IncreaseReps,
                set,
                2.0,
            )
        };
        let inc = |l: &str, rule: &str, set: Option<u32>| {
            d(
                l,
                SuggestionSource::Rule,
                Some(rule),
                IncreaseWeight,
                set,
                5.0,
            )
        };
        let cases: Vec<(&str, Vec<SuggestionDraft>, Vec<&str>)> = vec![
            (
                "increase vs rest increase (other set and exercise level)",
                vec![
                    inc("inc0", "dp", Some(0)),
                    r("rest ex", IncreaseRest, None),
                    r("rest1", IncreaseRest, Some(1)),
                ],
                vec!["inc0"],
            ),
            (
                "increase keeps rest decrease",
                vec![
                    inc("inc0", "dp", Some(0)),
                    r("rest-", DecreaseRest, Some(1)),
                ],
                vec!["inc0", "rest-"],
            ),
            (
                "AI increase also beats rest increase",
                vec![
                    r("rest ex", IncreaseRest, None),
                    ai("ai inc", IncreaseWeight, Some(2)),
                ],
                vec!["ai inc"],
            ),
            (
                "increase vs decrease on another set: decrease wins",
                vec![
                    inc("inc0", "dp", Some(0)),
                    r("dec1", DecreaseWeight, Some(1)),
                ],
                vec!["dec1"],
            ),
            (
                "decrease drops the companion reset reps too",
                vec![
                    inc("inc0", "overshoot", Some(0)),
                    reset("reset0", "overshoot", Some(0)),
                    r("dec1", DecreaseWeight, Some(1)),
                ],
                vec!["dec1"],
            ),
            (
                "decrease drops a reset up from below the range (IncreaseReps) too",
                vec![
                    inc("inc0", "dp", Some(0)),
                    reset_up("reset0", "dp", Some(0)),
                    r("dec0", DecreaseWeight, Some(0)),
                ],
                vec!["dec0"],
            ),
            (
                "an IncreaseReps of another rule is not a companion",
                vec![
                    inc("inc0", "dp", Some(0)),
                    reset_up("reps+", "steady_reps", Some(0)),
                    r("dec1", DecreaseWeight, Some(1)),
                ],
                vec!["reps+", "dec1"],
            ),
            (
                "a reset up stays with its increase",
                vec![
                    inc("inc0", "dp", Some(0)),
                    reset_up("reset0", "dp", Some(0)),
                ],
                vec!["inc0", "reset0"],
            ),
            (
                "a DecreaseReps of another rule is not a companion",
                vec![
                    inc("inc0", "overshoot", Some(0)),
                    reset("reps-", "other_rule", Some(0)),
                    r("dec1", DecreaseWeight, Some(1)),
                ],
                vec!["reps-", "dec1"],
            ),
            (
                "a DecreaseReps of the same rule on another set is not a companion",
                vec![
                    inc("inc0", "overshoot", Some(0)),
                    reset("reset1", "overshoot", Some(1)),
                    r("dec2", DecreaseWeight, Some(2)),
                ],
                vec!["reset1", "dec2"],
            ),
            (
                "an AI DecreaseReps is not a companion",
                vec![
                    inc("inc0", "overshoot", Some(0)),
                    r("dec1", DecreaseWeight, Some(1)),
                    ai("ai reps-", DecreaseReps, Some(0)),
                ],
                vec!["dec1", "ai reps-"],
            ),
            (
                "decrease first: a dropped increase does not suppress rest",
                vec![
                    inc("inc0", "dp", Some(0)),
                    r("dec1", DecreaseWeight, Some(1)),
                    r("rest ex", IncreaseRest, None),
                ],
                vec!["dec1", "rest ex"],
            ),
            (
                "companion stays with its increase",
                vec![
                    inc("inc0", "overshoot", Some(0)),
                    reset("reset0", "overshoot", Some(0)),
                    r("rest ex", IncreaseRest, None),
                ],
                vec!["inc0", "reset0"],
            ),
            (
                "companion stays when its increase only lost a duplicate collapse",
                vec![
                    inc("inc dp", "dp", Some(0)),
                    d(
                        "inc big",
                        SuggestionSource::Rule,
                        Some("overshoot"),
                        IncreaseWeight,
                        Some(0),
                        2.0,
                    ),
                    reset("reset0", "overshoot", Some(0)),
                ],
                vec!["inc dp", "reset0"],
            ),
        ];
        for (case, cands, want) in cases {
            assert_eq!(run(cands, &[]), want, "{case}");
        }
    }

    #[test]
    fn companion_dropped_when_increase_is_in_cooldown() {
        let cands = vec![
            d(
                "inc0",
                SuggestionSource::Rule,
                Some("overshoot"),
                IncreaseWeight,
                Some(0),
                7.5,
            ),
            d(
                "reset0",
                SuggestionSource::Rule,
                Some("overshoot"),
                DecreaseReps,
                Some(0),
                4.0,
            ),
        ];
        let blocked = [stored(P, IncreaseWeight, Some(0), DAY, Accepted, false)];
        assert_eq!(run(cands.clone(), &blocked), Vec::<String>::new());
        let old = [stored(P, IncreaseWeight, Some(0), 7 * DAY, Accepted, false)];
        assert_eq!(run(cands, &old), ["inc0", "reset0"]);
    }

    #[test]
    fn reset_up_dropped_when_increase_is_in_cooldown() {
        // Target reps 6 under a range of 8-12: the increase comes with "6 -> 8" (IncreaseReps).
        let cands = vec![
            d(
                "inc0",
                SuggestionSource::Rule,
                Some("double_progression_range"),
                IncreaseWeight,
                Some(0),
                5.0,
            ),
            d(
                "reset0",
                SuggestionSource::Rule,
                Some("double_progression_range"),
                IncreaseReps,
                Some(0),
                2.0,
            ),
        ];
        let cases = [
            ("6 days ago", 6 * DAY, Vec::<&str>::new()),
            ("7 days - 1 ms ago", 7 * DAY - 1, vec![]),
            ("7 days ago", 7 * DAY, vec!["inc0", "reset0"]),
        ];
        for (name, age, want) in cases {
            let existing = [stored(P, IncreaseWeight, Some(0), age, Rejected, false)];
            assert_eq!(run(cands.clone(), &existing), want, "{name}");
        }
    }

    #[test]
    fn priority_table() {
        let cases = [
            (DecreaseWeight, 1),
            (IncreaseWeight, 2),
            (IncreaseReps, 2),
            (DecreaseReps, 2),
            (ChangeSetType, 3),
            (ChangeRepRange, 3),
            (AddSet, 4),
            (RemoveSet, 4),
            (IncreaseRest, 5),
            (DecreaseRest, 5),
        ];
        for (t, p) in cases {
            assert_eq!(priority(t), p, "{t:?}");
        }
    }

    #[test]
    fn property_conflicts_for_each_priority_pair() {
        // One representative of each level; all forced onto the same set and property so that
        // only the priority decides. The lower-priority one is listed first and is a rule with a
        // larger magnitude, so the later tie-breakers all favour it.
        let levels = [
            DecreaseWeight,
            IncreaseReps,
            ChangeSetType,
            AddSet,
            DecreaseRest,
        ];
        for (i, &hi) in levels.iter().enumerate() {
            for &lo in &levels[i + 1..] {
                for property in [ChangeProperty::Weight, ChangeProperty::SetCount] {
                    let mut low = d("low", SuggestionSource::Rule, Some("r"), lo, Some(0), 50.0);
                    let mut high = d("high", SuggestionSource::Ai, None, hi, Some(0), 1.0);
                    low.property = property;
                    high.property = property;
                    assert_eq!(
                        run(vec![low, high], &[]),
                        ["high"],
                        "{hi:?} vs {lo:?} on {property:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn property_conflicts() {
        let cases: Vec<(&str, Vec<SuggestionDraft>, Vec<&str>)> = vec![
            (
                "decrease weight beats increase weight",
                vec![
                    r("inc", IncreaseWeight, Some(0)),
                    ai("dec", DecreaseWeight, Some(0)),
                ],
                vec!["dec"],
            ),
            (
                "reps tie: rule over AI",
                vec![
                    ai("ai reps+", IncreaseReps, Some(1)),
                    r("rule reps-", DecreaseReps, Some(1)),
                ],
                vec!["rule reps-"],
            ),
            (
                "reps tie: larger magnitude",
                vec![
                    d(
                        "reps+1",
                        SuggestionSource::Rule,
                        Some("a"),
                        IncreaseReps,
                        Some(1),
                        1.0,
                    ),
                    d(
                        "reps-2",
                        SuggestionSource::Rule,
                        Some("b"),
                        DecreaseReps,
                        Some(1),
                        2.0,
                    ),
                ],
                vec!["reps-2"],
            ),
            (
                "reps tie: earlier",
                vec![
                    d(
                        "reps+",
                        SuggestionSource::Ai,
                        None,
                        IncreaseReps,
                        Some(1),
                        2.0,
                    ),
                    d(
                        "reps-",
                        SuggestionSource::Ai,
                        None,
                        DecreaseReps,
                        Some(1),
                        2.0,
                    ),
                ],
                vec!["reps+"],
            ),
            (
                "add vs remove set: earlier",
                vec![r("remove", RemoveSet, None), r("add", AddSet, None)],
                vec!["remove"],
            ),
            (
                "rest up vs down: larger",
                vec![
                    d(
                        "rest+15",
                        SuggestionSource::Rule,
                        Some("a"),
                        IncreaseRest,
                        None,
                        15.0,
                    ),
                    d(
                        "rest-30",
                        SuggestionSource::Rule,
                        Some("b"),
                        DecreaseRest,
                        None,
                        30.0,
                    ),
                ],
                vec!["rest-30"],
            ),
            (
                "different sets do not conflict",
                vec![
                    r("reps+0", IncreaseReps, Some(0)),
                    r("reps-1", DecreaseReps, Some(1)),
                ],
                vec!["reps+0", "reps-1"],
            ),
            (
                "exercise-level and set-level rest do not conflict",
                vec![
                    r("rest ex", DecreaseRest, None),
                    r("rest set", IncreaseRest, Some(0)),
                ],
                vec!["rest ex", "rest set"],
            ),
            (
                "different properties of one set do not conflict",
                vec![
                    r("type", ChangeSetType, Some(0)),
                    r("weight", DecreaseWeight, Some(0)),
                    r("reps", IncreaseReps, Some(0)),
                ],
                vec!["type", "weight", "reps"],
            ),
        ];
        for (case, cands, want) in cases {
            assert_eq!(run(cands, &[]), want, "{case}");
        }
    }

    #[test]
    fn order_preserved() {
        let cands = vec![
            r("a", ChangeRepRange, None),
            r("b", IncreaseWeight, Some(0)),
            r("dup", ChangeRepRange, None),
            r("c", DecreaseReps, Some(0)),
            r("d", ChangeSetType, Some(2)),
            ai("e", AddSet, None),
            ai("f", IncreaseWeight, Some(1)),
        ];
        assert_eq!(run(cands, &[]), ["a", "b", "c", "d", "e", "f"]);
        assert!(deduplicate(P, vec![], &[], NOW).is_empty());
    }

    /// A small seeded linear congruential generator (Knuth's MMIX constants).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
            xs[self.below(xs.len() as u64) as usize]
        }
    }

    const TYPES: [ChangeType; 10] = [
        IncreaseWeight,
        DecreaseWeight,
        IncreaseReps,
        DecreaseReps,
        IncreaseRest,
        DecreaseRest,
        ChangeSetType,
        ChangeRepRange,
        AddSet,
        RemoveSet,
    ];
    const PROPS: [ChangeProperty; 6] = [
        ChangeProperty::Weight,
        ChangeProperty::Reps,
        ChangeProperty::Rest,
        ChangeProperty::SetType,
        ChangeProperty::RepRange,
        ChangeProperty::SetCount,
    ];
    const SETS: [Option<u32>; 4] = [None, Some(0), Some(1), Some(2)];

    fn random_draft(g: &mut Lcg, label: usize) -> SuggestionDraft {
        let src = g.pick(&[SuggestionSource::Rule, SuggestionSource::Ai]);
        let rule = match src {
            SuggestionSource::Rule => Some(g.pick(&["overshoot", "dp", "safety"])),
            SuggestionSource::Ai => None,
        };
        let mag = g.below(5) as f64 * 2.5;
        let mut draft = d(
            &label.to_string(),
            src,
            rule,
            g.pick(&TYPES),
            g.pick(&SETS),
            mag,
        );
        if g.below(5) == 0 {
            draft.property = g.pick(&PROPS); // malformed (e.g. AI) property
        }
        draft
    }

    #[test]
    fn randomized_invariants() {
        let mut g = Lcg(0x5eed_c0ac);
        for round in 0..3000 {
            let n = g.below(12) as usize;
            let mut cands: Vec<SuggestionDraft> = (0..n).map(|i| random_draft(&mut g, i)).collect();
            // Rule drafts first, then AI drafts, as the pipeline passes them.
            cands.sort_by_key(|d| d.source == SuggestionSource::Ai);
            let existing: Vec<PrescriptionChange> = (0..g.below(6))
                .map(|_| {
                    let pid = g.pick(&["p1", "p2"]);
                    let age = g.below(10 * DAY as u64) as i64 - DAY;
                    let decision = g.pick(&[Pending, Accepted, Rejected, Deferred]);
                    let user_override = g.below(4) == 0;
                    stored(
                        pid,
                        g.pick(&TYPES),
                        g.pick(&SETS),
                        age,
                        decision,
                        user_override,
                    )
                })
                .collect();
            let out = deduplicate(P, cands.clone(), &existing, NOW);
            let ctx = format!("round {round}: {cands:#?}\nexisting {existing:#?}\nout {out:#?}");

            // (a) no two survivors are similar; nor share target and property.
            for (i, a) in out.iter().enumerate() {
                for b in &out[i + 1..] {
                    assert!(!similar(a, b), "similar survivors, {ctx}");
                    assert!(
                        (a.target_set_index, a.property) != (b.target_set_index, b.property),
                        "property conflict survived, {ctx}"
                    );
                }
            }
            // (b) no survivor is similar to a blocking stored change.
            for s in &out {
                for e in &existing {
                    let blocking = e.prescription_id == P
                        && !e.user_override
                        && NOW - e.created_at_ms < COOLDOWN_MS;
                    assert!(
                        !(blocking && similar(&e.draft, s)),
                        "blocked survivor, {ctx}"
                    );
                }
            }
            // (c) survivors are a subsequence of the candidates.
            let mut it = cands.iter();
            for s in &out {
                assert!(it.any(|c| c == s), "not a subsequence, {ctx}");
            }
            // Strategy conflicts are resolved.
            let has = |t: ChangeType| out.iter().any(|d| d.change_type == t);
            assert!(
                !(has(IncreaseWeight) && has(DecreaseWeight)),
                "increase with decrease, {ctx}"
            );
            assert!(
                !(has(IncreaseWeight) && has(IncreaseRest)),
                "increase with rest increase, {ctx}"
            );
            // Idempotent.
            assert_eq!(
                deduplicate(P, out.clone(), &existing, NOW),
                out,
                "not idempotent, {ctx}"
            );
        }
    }
}
