//! Rule pairs that can meet on one set and property, through the whole engine
//! ([`evaluate_exercise`]: every rule in the spec's order, then the deduplicator): the survivor is
//! the one spec 004's tie-breaks choose (priority, then rules over AI, then the larger
//! |new - prev|, then the earlier created), whatever the order the rules run in.
//!
//! Pairs that cannot meet, by their conditions: large overshoot and double progression (the
//! double progression rules are silent when the overshoot holds); steady reps and a reps reset
//! (steady reps skips sets a weight progression covers); match actual weight and a weight
//! increase (it skips progressing sets, as the spec says); below-range decrease and a weight
//! increase (reps below the lower bound and at the upper one in the same sessions).

use super::evaluate_exercise;
use crate::suggest::model::{
    ChangeProperty, ChangeType, ChangeValue, ExerciseContext, PerformedSet, RestMode, SetType,
    SetType::*, SuggestionDraft,
};
use crate::suggest::rules::evaluate;
use crate::suggest::rules::testkit::{done, Ctx};

const NOW: i64 = 1_760_000_000_000;

/// (rule id, new value) of the drafts on `set` and `property`.
fn on(
    drafts: &[SuggestionDraft],
    set: Option<u32>,
    property: ChangeProperty,
) -> Vec<(String, ChangeValue)> {
    drafts
        .iter()
        .filter(|d| d.target_set_index == set && d.property == property)
        .map(|d| (d.rule_id.clone().unwrap_or_default(), d.new_value.clone()))
        .collect()
}

fn n(value: f64) -> ChangeValue {
    ChangeValue::Number { value }
}

fn t(value: SetType) -> ChangeValue {
    ChangeValue::SetType { value }
}

/// Rule ids of `pairs`, sorted.
fn rules_of(pairs: &[(String, ChangeValue)]) -> Vec<&str> {
    let mut ids: Vec<&str> = pairs.iter().map(|(r, _)| r.as_str()).collect();
    ids.sort_unstable();
    ids
}

/// Asserts that before deduplication exactly `rules` propose a change of `property` on `set`,
/// and that afterwards only `survivor` (rule, new value) is left there.
fn meet(
    name: &str,
    ctx: &ExerciseContext,
    set: Option<u32>,
    property: ChangeProperty,
    rules: &[&str],
    survivor: (&str, ChangeValue),
) {
    let before = on(&evaluate(ctx), set, property);
    let mut want: Vec<&str> = rules.to_vec();
    want.sort_unstable();
    assert_eq!(rules_of(&before), want, "{name}: the rules that meet");
    let after = on(&evaluate_exercise(ctx, &[], NOW), set, property);
    assert_eq!(
        after,
        vec![(survivor.0.to_string(), survivor.1)],
        "{name}: the survivor"
    );
}

/// Three regular sets prescribed at 100 lb (range 8-12); `set0` at index 0 and sets 1-2 at
/// 100 x 10, per session, newest first.
fn first_set(set0: &[(f64, u32)]) -> Ctx {
    Ctx::range(8, 12).performed(
        set0.iter()
            .map(|&(w, r)| {
                vec![
                    done(0, Regular, w, r),
                    done(1, Regular, 100.0, 10),
                    done(2, Regular, 100.0, 10),
                ]
            })
            .collect(),
    )
}

#[test]
fn two_decreases_of_one_set_keep_the_larger_cut() {
    // The case: prescribed 100 x 8; used 85 x 8, 85 x 8, 70 x 10 (newest first).
    // Reduced weight to hit reps: the last 2 sessions' average, 85. Match actual weight: the
    // last 3 sessions', 80. Both priority 1, both rules: the larger |new - prev| wins, 80.
    let ctx = first_set(&[(85.0, 8), (85.0, 8), (70.0, 10)])
        .rx(|rx| rx.sets[0].target_reps = 8)
        .build();
    meet(
        "reduced 85, match 80",
        &ctx,
        Some(0),
        ChangeProperty::Weight,
        &["match_actual_weight", "reduced_weight_to_hit_reps"],
        ("match_actual_weight", n(80.0)),
    );
    // The other way round: 80 x 8 twice, 94 x 10 before: reduced 80, match 85 (84.7 rounded).
    let ctx = first_set(&[(80.0, 8), (80.0, 8), (94.0, 10)]).build();
    meet(
        "reduced 80, match 85",
        &ctx,
        Some(0),
        ChangeProperty::Weight,
        &["match_actual_weight", "reduced_weight_to_hit_reps"],
        ("reduced_weight_to_hit_reps", n(80.0)),
    );
}

#[test]
fn below_range_reduced_and_match_on_one_set() {
    // Set 2 lightened to 85 x 7 in all three sessions; sets 0-1 at 100 x 7 in the two earlier
    // ones, and set 0 not done today, so set 2 is a progression set today and the two earlier
    // sessions are below the range at the prescribed load. Below range: 100 -> 95; reduced
    // weight: 85; match actual: 85. The largest cut wins; of the two equal ones, the earlier
    // rule (reduced weight).
    let earlier = vec![
        done(0, Regular, 100.0, 7),
        done(1, Regular, 100.0, 7),
        done(2, Regular, 85.0, 7),
    ];
    let mut today = earlier.clone();
    today[0].completed = false;
    today[0].reps = 0;
    let ctx = Ctx::range(8, 12)
        .performed(vec![today, earlier.clone(), earlier])
        .build();
    meet(
        "below 95, reduced 85, match 85",
        &ctx,
        Some(2),
        ChangeProperty::Weight,
        &[
            "below_range_decrease",
            "match_actual_weight",
            "reduced_weight_to_hit_reps",
        ],
        ("reduced_weight_to_hit_reps", n(85.0)),
    );
}

#[test]
fn a_decrease_and_an_increase_of_one_set_keep_the_decrease() {
    // Range 8-8, two sets: set 0 done at 90 x 8, set 1 at 100 x 8, twice. Both are progression
    // sets at the top of the range (double progression: 105), and set 0 was lightened and still
    // at the floor (reduced weight: 90). Safety wins: the decrease, and no increase anywhere.
    let session = vec![done(0, Regular, 90.0, 8), done(1, Regular, 100.0, 8)];
    let ctx = Ctx::range(8, 8)
        .rx(|rx| rx.sets.truncate(2))
        .performed(vec![session.clone(), session])
        .build();
    meet(
        "reduced 90, double progression 105",
        &ctx,
        Some(0),
        ChangeProperty::Weight,
        &["double_progression_range", "reduced_weight_to_hit_reps"],
        ("reduced_weight_to_hit_reps", n(90.0)),
    );
    let kept = evaluate_exercise(&ctx, &[], NOW);
    assert!(
        kept.iter()
            .all(|d| d.change_type != ChangeType::IncreaseWeight),
        "{kept:?}"
    );
}

/// Three sessions at 100 lb, 10, 7, 7 reps, with 60 s of rest after the first set: a short rest
/// and a rep drop, and an e1RM plateau while struggling.
fn tired() -> Vec<PerformedSet> {
    let mut s = vec![
        done(0, Regular, 100.0, 10),
        done(1, Regular, 100.0, 7),
        done(2, Regular, 100.0, 7),
    ];
    s[0].rest_seconds = Some(60);
    s
}

#[test]
fn two_rest_increases_keep_one() {
    // Stagnation and the short-rest drop both add 15 s: equal magnitudes, the earlier rule.
    let ctx = Ctx::range(8, 12).performed(vec![tired(); 3]).build();
    meet(
        "all-same rest",
        &ctx,
        None,
        ChangeProperty::Rest,
        &["short_rest_performance_drop", "stagnation_increase_rest"],
        ("stagnation_increase_rest", n(105.0)),
    );
    let ctx = Ctx::range(8, 12)
        .rx(|rx| rx.rest_mode = RestMode::PerSet)
        .performed(vec![tired(); 3])
        .build();
    meet(
        "per-set rest of set 1",
        &ctx,
        Some(0),
        ChangeProperty::Rest,
        &["short_rest_performance_drop", "stagnation_increase_rest"],
        ("stagnation_increase_rest", n(105.0)),
    );
}

#[test]
fn set_type_rules_on_one_set_keep_the_earlier_rule() {
    // Set type changes have no magnitude: the earlier rule wins. The mismatch rule (last) leaves
    // sets the earlier set type rules change, which is the same outcome.
    let logged = |set0: (SetType, f64)| {
        vec![
            vec![
                done(0, set0.0, set0.1, 10),
                done(1, Regular, 100.0, 10),
                done(2, Regular, 100.0, 10),
            ];
            2
        ]
    };
    // (case, set 1 prescribed as, logged as (type, weight), the rule kept, its new type)
    let cases = [
        (
            "regular, a light warmup",
            Regular,
            (Warmup, 50.0),
            "regular_acting_as_warmup",
            Warmup,
        ),
        (
            "regular, a light drop set",
            Regular,
            (Drop, 50.0),
            "regular_acting_as_warmup",
            Warmup,
        ),
        (
            "warmup, a heavy regular set",
            Warmup,
            (Regular, 95.0),
            "warmup_acting_as_working_set",
            Regular,
        ),
        (
            "warmup, a drop set with no base",
            Warmup,
            (Drop, 80.0),
            "drop_set_without_base",
            Regular,
        ),
    ];
    for (name, prescribed, set0, rule, new) in cases {
        let ctx = Ctx::range(8, 12)
            .rx(|rx| rx.sets[0].set_type = prescribed)
            .performed(logged(set0))
            .build();
        let after = on(
            &evaluate_exercise(&ctx, &[], NOW),
            Some(0),
            ChangeProperty::SetType,
        );
        assert_eq!(after, vec![(rule.to_string(), t(new))], "{name}");
    }
}
