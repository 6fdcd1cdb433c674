//! The numbers the rules are built on (spec 004 "Context and Helpers", with the values the issue
//! fixes): progression sets, weight increments, rounding to an achievable load (the nearest, or
//! the nearest under a cap), the Epley e1RM, the ±2% plateau test, "struggling", and weights
//! written for sentences.
//!
//! Units: thresholds are stated in pounds. For kg plans, loads compared with a pound threshold are
//! converted exactly (1 kg = 2.20462 lb), while steps, increments and tolerances use the gym
//! equivalents (2.5 lb -> 1.25 kg, 5 lb -> 2.5 kg, 10 lb -> 5 kg: half the pound figure).

use super::model::{
    CatalogExercise, Equipment, ExercisePerformance, LoadConfig, Muscle, PerformedSet, RepRange,
    RepRangeMode, SetType, TrainingStyle, WeightUnit,
};

pub use crate::kernel::units::LBS_PER_KG;

/// A step, increment or tolerance stated in pounds, in `unit` (kg: the gym equivalent, half).
pub fn step(lbs: f64, unit: WeightUnit) -> f64 {
    match unit {
        WeightUnit::Lbs => lbs,
        WeightUnit::Kg => lbs / 2.0,
    }
}

/// A load in `unit`, in pounds (exact).
pub fn to_lbs(weight: f64, unit: WeightUnit) -> f64 {
    match unit {
        WeightUnit::Lbs => weight,
        WeightUnit::Kg => weight * LBS_PER_KG,
    }
}

/// The normal weight increment for an exercise at `current_weight` (plan unit), by its first target
/// muscle: quads, hamstrings, glutes, calves 10 lb; forearms, wrists, rotator cuff 2.5 lb; any
/// other 5 lb. With no muscle: under 50 lb 2.5, under 150 lb 5, else 10.
pub fn weight_increment(exercise: &CatalogExercise, current_weight: f64, unit: WeightUnit) -> f64 {
    let lbs = match exercise.target_muscles.first() {
        Some(Muscle::Quads | Muscle::Hamstrings | Muscle::Glutes | Muscle::Calves) => 10.0,
        Some(Muscle::Forearms | Muscle::Wrists | Muscle::RotatorCuff) => 2.5,
        Some(_) => 5.0,
        None => match to_lbs(current_weight, unit) {
            w if w < 50.0 => 2.5,
            w if w < 150.0 => 5.0,
            _ => 10.0,
        },
    };
    step(lbs, unit)
}

/// Rounds `x` to a multiple of `step`, halves away from zero, without float noise.
fn round_to(x: f64, step: f64) -> f64 {
    let r = (x / step).round() * step;
    (r * 1000.0).round() / 1000.0
}

/// Largest number of residues (smallest plate / common step) the plate table may have; beyond it
/// (only with absurd plate sizes such as 44.999 and 45) only the smallest plate is used.
const MAX_PLATE_RESIDUES: u64 = 100_000;

/// Most plate sizes the table uses (the smallest ones; `savePlan` refuses more than this many).
/// With [`MAX_PLATE_RESIDUES`] it bounds the work of building the table, whatever the input.
const MAX_PLATE_SIZES: usize = 32;

/// Which per-side plate sums (each plate size usable any number of times) can be built, in units
/// of the greatest common divisor of the plate sizes.
///
/// Every sum is a multiple of that divisor. Sums that share a remainder modulo the smallest plate
/// form a chain (add one more smallest plate), so it suffices to know, for each remainder, the
/// smallest sum that has it ("round-robin" shortest paths over the remainders): a sum is buildable
/// exactly when it is at least that minimum. The table has `smallest / divisor` entries, a handful
/// for real plate sets ([45, 25]: 5, [45, 25, 10, 5, 2.5]: 1).
struct PlateSums {
    /// The common step of all plate sizes, in the plan unit.
    unit: f64,
    /// The smallest plate, in units.
    smallest: u64,
    /// Per remainder modulo `smallest`, the smallest buildable sum with it (`u64::MAX`: none).
    min_sum: Vec<u64>,
}

impl PlateSums {
    /// The table for `plates` (plan unit; entries that are not finite and positive are ignored),
    /// or `None` when no plate is usable.
    fn new(plates: &[f64]) -> Option<PlateSums> {
        fn gcd(a: u64, b: u64) -> u64 {
            if b == 0 {
                a
            } else {
                gcd(b, a % b)
            }
        }
        let mut thousandths: Vec<u64> = plates
            .iter()
            .filter(|p| p.is_finite() && **p > 0.0)
            .map(|p| (p * 1000.0).round() as u64)
            .filter(|p| *p > 0)
            .collect();
        thousandths.sort_unstable();
        thousandths.dedup();
        thousandths.truncate(MAX_PLATE_SIZES);
        let mut g = thousandths.iter().copied().fold(0, gcd);
        if g == 0 {
            return None;
        }
        if thousandths[0] / g > MAX_PLATE_RESIDUES {
            thousandths.truncate(1);
            g = thousandths[0];
        }
        let sizes: Vec<u64> = thousandths.iter().map(|p| p / g).collect();
        let smallest = sizes[0];
        // Bounded by the check above: at most MAX_PLATE_RESIDUES entries.
        let n = smallest as usize;
        let mut min_sum = vec![u64::MAX; n];
        min_sum[0] = 0;
        // Adding plate `a` moves remainder r to (r + a) mod n; following each cycle of that move
        // twice relaxes every remainder (the classic round-robin algorithm).
        for &a in &sizes[1..] {
            let step = (a % smallest) as usize;
            let cycles = gcd(smallest, step as u64) as usize;
            for start in 0..cycles {
                // The smallest value on the cycle is a safe place to start.
                let mut best = start;
                let mut r = (start + step) % n;
                while r != start {
                    if min_sum[r] < min_sum[best] {
                        best = r;
                    }
                    r = (r + step) % n;
                }
                let mut r = best;
                for _ in 0..(n / cycles) {
                    let next = (r + step) % n;
                    if min_sum[r] != u64::MAX {
                        // Saturating: absurd sizes (1e16) must not overflow.
                        min_sum[next] = min_sum[next].min(min_sum[r].saturating_add(a));
                    }
                    r = next;
                }
            }
        }
        Some(PlateSums {
            unit: g as f64 / 1000.0,
            smallest,
            min_sum,
        })
    }

    /// The buildable sum nearest to `target` (plan unit, >= 0); ties go to the heavier sum.
    fn nearest(&self, target: f64) -> f64 {
        let t = target / self.unit;
        let p = self.smallest as f64;
        let mut best: Option<(f64, f64)> = None; // (distance, sum in units)
        let mut consider = |sum: f64| {
            let d = (sum - t).abs();
            best = match best {
                Some((bd, bs)) if bd < d || (bd == d && bs >= sum) => Some((bd, bs)),
                _ => Some((d, sum)),
            };
        };
        for &m in self.min_sum.iter().filter(|m| **m != u64::MAX) {
            let m = m as f64;
            if t <= m {
                consider(m);
            } else {
                let k = ((t - m) / p).floor();
                consider(m + k * p);
                consider(m + (k + 1.0) * p);
            }
        }
        let units = best.map_or(0.0, |(_, s)| s);
        ((units * self.unit) * 1000.0).round() / 1000.0
    }
}

/// The achievable load nearest to `weight`: the nearest owned dumbbell for dumbbell exercises;
/// for barbell exercises the bar plus the same plates on each side, each owned plate size usable
/// any number of times (with 45 and 25 lb plates, 95 and 135 lb can be built but 105 cannot);
/// else the nearest 2.5 lb (1.25 kg). Ties go to the heavier load. Never negative, never below
/// the bar.
pub fn round_to_achievable(
    weight: f64,
    equipment: Equipment,
    load: &LoadConfig,
    unit: WeightUnit,
) -> f64 {
    let weight = weight.max(0.0);
    match equipment {
        Equipment::Dumbbell if !load.dumbbells.is_empty() => load
            .dumbbells
            .iter()
            .copied()
            .filter(|d| d.is_finite() && *d >= 0.0)
            .fold(None, |best: Option<f64>, d| match best {
                Some(b) if (b - weight).abs() < (d - weight).abs() => Some(b),
                Some(b) if (b - weight).abs() == (d - weight).abs() && b > d => Some(b),
                _ => Some(d),
            })
            .unwrap_or(weight),
        Equipment::Barbell if !load.plates.is_empty() => {
            let default_bar = match unit {
                WeightUnit::Lbs => 45.0,
                WeightUnit::Kg => 20.0,
            };
            let bar = if load.bar_weight > 0.0 && load.bar_weight.is_finite() {
                load.bar_weight
            } else {
                default_bar
            };
            match PlateSums::new(&load.plates) {
                Some(sums) if weight > bar && weight.is_finite() => {
                    let total = bar + 2.0 * sums.nearest((weight - bar) / 2.0);
                    (total * 1000.0).round() / 1000.0
                }
                _ => bar,
            }
        }
        _ => round_to(weight, step(2.5, unit)),
    }
}

/// The achievable load nearest `weight` that is not above `cap` (when given): the nearest one,
/// else the nearest to a weight 2.5 lb (1.25 kg) lighter, and so on for up to 100 lb (50 kg);
/// `None` when nothing achievable fits under the cap (the empty bar is above it).
pub fn round_at_most(
    weight: f64,
    cap: Option<f64>,
    equipment: Equipment,
    load: &LoadConfig,
    unit: WeightUnit,
) -> Option<f64> {
    let cap = cap.unwrap_or(f64::INFINITY);
    let mut x = weight.min(cap);
    let mut r = round_to_achievable(x, equipment, load, unit);
    for _ in 0..40 {
        if r <= cap + 1e-9 {
            return Some(r);
        }
        x -= step(2.5, unit);
        r = round_to_achievable(x, equipment, load, unit);
    }
    (r <= cap + 1e-9).then_some(r)
}

/// A weight for a sentence: rounded to thousandths (no float noise), no trailing ".0".
pub fn weight_text(weight: f64) -> String {
    format!("{}", (weight * 1000.0).round() / 1000.0)
}

/// Epley's estimated one-rep max, `weight x (1 + reps / 30)`; `None` when weight or reps is not
/// positive.
pub fn e1rm(weight: f64, reps: u32) -> Option<f64> {
    (weight > 0.0 && reps > 0).then(|| weight * (1.0 + reps as f64 / 30.0))
}

/// A session's e1RM: the best over its completed sets.
pub fn session_e1rm(perf: &ExercisePerformance) -> Option<f64> {
    perf.sets
        .iter()
        .filter(|s| s.completed)
        .filter_map(|s| e1rm(s.weight, s.reps))
        .reduce(f64::max)
}

/// The plateau test on session e1RMs, newest first: (newest - third newest) / third newest strictly
/// within ±2%. Needs three values.
pub fn is_plateau(e1rms_newest_first: &[f64]) -> bool {
    match e1rms_newest_first {
        [newest, _, third, ..] if *third > 0.0 => ((newest - third) / third).abs() < 0.02,
        _ => false,
    }
}

/// The change of the plateau test, in percent, for evidence.
pub fn plateau_change_pct(e1rms_newest_first: &[f64]) -> Option<f64> {
    match e1rms_newest_first {
        [newest, _, third, ..] if *third > 0.0 => Some((newest - third) / third * 100.0),
        _ => None,
    }
}

/// The two heaviest sets; equal weights keep the earlier set.
fn heaviest_two(mut sets: Vec<&PerformedSet>) -> Vec<&PerformedSet> {
    sets.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.index.cmp(&b.index)));
    sets.truncate(2);
    sets
}

/// The 1-2 sets progression rules judge, among completed sets, ordered by index:
/// two or more working (regular) sets: the two heaviest; exactly one: it plus the heaviest other
/// non-warmup set; none: by training style (heaviest-first or straight sets: the first two;
/// pyramid: the first two at >= 95% of the max; unknown: the two heaviest).
pub fn progression_sets(perf: &ExercisePerformance, style: TrainingStyle) -> Vec<&PerformedSet> {
    let done: Vec<&PerformedSet> = perf.sets.iter().filter(|s| s.completed).collect();
    let working: Vec<&PerformedSet> = done
        .iter()
        .copied()
        .filter(|s| s.set_type == SetType::Regular)
        .collect();
    let mut chosen = match working.len() {
        0 => match style {
            TrainingStyle::HeaviestFirst | TrainingStyle::StraightSets => {
                done.iter().copied().take(2).collect()
            }
            TrainingStyle::Pyramid => {
                let max = done.iter().map(|s| s.weight).fold(0.0, f64::max);
                done.iter()
                    .copied()
                    .filter(|s| s.weight >= 0.95 * max)
                    .take(2)
                    .collect()
            }
            TrainingStyle::Unknown => heaviest_two(done.clone()),
        },
        1 => {
            let only = working[0];
            let other = heaviest_two(
                done.iter()
                    .copied()
                    .filter(|s| s.set_type != SetType::Warmup && s.index != only.index)
                    .collect(),
            );
            std::iter::once(only)
                .chain(other.into_iter().take(1))
                .collect()
        }
        _ => heaviest_two(working),
    };
    chosen.sort_by_key(|s| s.index);
    chosen
}

/// The lowest acceptable reps: the lower bound in range mode, the target in target mode.
pub fn rep_floor(range: &RepRange) -> Option<u32> {
    match range.mode {
        RepRangeMode::Range => Some(range.lower),
        RepRangeMode::Target => Some(range.target),
        RepRangeMode::NotSet => None,
    }
}

/// "Struggling": in at least 2 of the given sessions (the last 3, newest first) a progression set
/// fell below the floor, or all progression sets were at most floor + 1.
pub fn is_struggling<'a>(
    sessions: impl IntoIterator<Item = &'a ExercisePerformance>,
    range: &RepRange,
    style: TrainingStyle,
) -> bool {
    let Some(floor) = rep_floor(range) else {
        return false;
    };
    sessions
        .into_iter()
        .take(3)
        .filter(|perf| {
            let sets = progression_sets(perf, style);
            !sets.is_empty()
                && (sets.iter().any(|s| s.reps < floor) || sets.iter().all(|s| s.reps <= floor + 1))
        })
        .count()
        >= 2
}

/// "Reps drop" for set `index`: 2 or more reps fewer than the previous completed working set of
/// the same performance, or below `floor`.
pub fn reps_dropped(perf: &ExercisePerformance, index: u32, floor: Option<u32>) -> bool {
    let Some(set) = perf.sets.iter().find(|s| s.index == index && s.completed) else {
        return false;
    };
    let previous = perf
        .sets
        .iter()
        .filter(|s| s.completed && s.set_type == SetType::Regular && s.index < index)
        .max_by_key(|s| s.index);
    previous.is_some_and(|p| set.reps.saturating_add(2) <= p.reps)
        || floor.is_some_and(|f| set.reps < f)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::suggest::rules::testkit::done as set;

    fn perf(sets: Vec<PerformedSet>) -> ExercisePerformance {
        crate::suggest::rules::testkit::perf(0, sets)
    }

    fn exercise(muscles: Vec<Muscle>) -> CatalogExercise {
        CatalogExercise {
            catalog_id: "c".into(),
            name: "x".into(),
            equipment: Equipment::Barbell,
            target_muscles: muscles,
        }
    }

    #[test]
    fn increments_by_muscle_and_by_load() {
        use Muscle::*;
        let lb = WeightUnit::Lbs;
        assert_eq!(
            weight_increment(&exercise(vec![Quads, Chest]), 100.0, lb),
            10.0
        );
        assert_eq!(weight_increment(&exercise(vec![Calves]), 100.0, lb), 10.0);
        assert_eq!(
            weight_increment(&exercise(vec![RotatorCuff]), 100.0, lb),
            2.5
        );
        assert_eq!(
            weight_increment(&exercise(vec![Chest, Quads]), 100.0, lb),
            5.0
        );
        assert_eq!(weight_increment(&exercise(vec![]), 49.9, lb), 2.5);
        assert_eq!(weight_increment(&exercise(vec![]), 50.0, lb), 5.0);
        assert_eq!(weight_increment(&exercise(vec![]), 149.9, lb), 5.0);
        assert_eq!(weight_increment(&exercise(vec![]), 150.0, lb), 10.0);
        // kg: 68 kg = 149.9 lb, 68.1 kg = 150.1 lb.
        assert_eq!(
            weight_increment(&exercise(vec![]), 68.0, WeightUnit::Kg),
            2.5
        );
        assert_eq!(
            weight_increment(&exercise(vec![]), 68.1, WeightUnit::Kg),
            5.0
        );
        assert_eq!(
            weight_increment(&exercise(vec![Glutes]), 60.0, WeightUnit::Kg),
            5.0
        );
    }

    #[test]
    fn rounding_defaults_to_2_5_lb_half_away_from_zero() {
        let none = LoadConfig::default();
        let r = |w| round_to_achievable(w, Equipment::Machine, &none, WeightUnit::Lbs);
        assert_eq!(r(101.24), 100.0);
        assert_eq!(r(101.25), 102.5);
        assert_eq!(r(103.7), 102.5);
        assert_eq!(r(-4.0), 0.0);
        assert_eq!(
            round_to_achievable(51.0, Equipment::Machine, &none, WeightUnit::Kg),
            51.25
        );
        assert_eq!(
            round_to_achievable(50.6, Equipment::Machine, &none, WeightUnit::Kg),
            50.0
        );
    }

    #[test]
    fn rounding_to_owned_dumbbells_and_plates() {
        let load = LoadConfig {
            plates: vec![45.0, 25.0, 10.0, 5.0],
            bar_weight: 45.0,
            dumbbells: vec![20.0, 25.0, 30.0, 35.0],
        };
        let lb = WeightUnit::Lbs;
        assert_eq!(
            round_to_achievable(27.4, Equipment::Dumbbell, &load, lb),
            25.0
        );
        assert_eq!(
            round_to_achievable(27.5, Equipment::Dumbbell, &load, lb),
            30.0,
            "ties go heavier"
        );
        assert_eq!(
            round_to_achievable(80.0, Equipment::Dumbbell, &load, lb),
            35.0
        );
        // Smallest plate 5 lb -> 10 lb steps above the bar.
        assert_eq!(
            round_to_achievable(139.0, Equipment::Barbell, &load, lb),
            135.0
        );
        assert_eq!(
            round_to_achievable(140.0, Equipment::Barbell, &load, lb),
            145.0
        );
        assert_eq!(
            round_to_achievable(30.0, Equipment::Barbell, &load, lb),
            45.0,
            "never below the bar"
        );
        let kg = LoadConfig {
            plates: vec![20.0, 10.0, 1.25],
            bar_weight: 0.0,
            dumbbells: vec![],
        };
        assert_eq!(
            round_to_achievable(61.0, Equipment::Barbell, &kg, WeightUnit::Kg),
            60.0,
            "20 kg bar, 2.5 kg steps"
        );
    }

    /// The buildable per-side sums up to `limit` (in thousandths), ascending, by plain
    /// unbounded-coin DP.
    fn brute_force_sums(plates: &[f64], limit: usize) -> Vec<usize> {
        let coins: Vec<usize> = plates
            .iter()
            .map(|p| (p * 1000.0).round() as usize)
            .collect();
        let mut ok = vec![false; limit + 1];
        ok[0] = true;
        for s in 1..=limit {
            ok[s] = coins.iter().any(|&c| c <= s && ok[s - c]);
        }
        (0..=limit).filter(|s| ok[*s]).collect()
    }

    #[test]
    fn plate_rounding_agrees_with_brute_force() {
        let sets: &[&[f64]] = &[
            &[45.0, 25.0],
            &[25.0, 10.0],
            &[45.0, 35.0, 25.0],
            &[20.0, 15.0, 1.25],
            &[45.0, 25.0, 10.0, 5.0, 2.5],
            &[7.5, 4.5],
            &[33.0, 21.0, 9.0],
        ];
        for plates in sets {
            let sums = PlateSums::new(plates).unwrap();
            let buildable = brute_force_sums(plates, 400_000);
            for tenths in (0..3_000).map(|t| t as f64 / 10.0) {
                let target = (tenths * 1000.0).round() as usize;
                // Nearest buildable sum, ties heavier: the first at or above the target, or the
                // one before it.
                let at = buildable.partition_point(|s| *s < target);
                let above = buildable[at];
                let want = match at.checked_sub(1).map(|i| buildable[i]) {
                    Some(below) if target - below < above - target => below,
                    _ => above,
                };
                assert_eq!(
                    sums.nearest(tenths),
                    want as f64 / 1000.0,
                    "{plates:?} per side {tenths}"
                );
            }
        }
    }

    #[test]
    fn plate_rounding_survives_odd_plate_lists() {
        let lb = WeightUnit::Lbs;
        let load = |plates: Vec<f64>| LoadConfig {
            plates,
            bar_weight: 45.0,
            dumbbells: vec![],
        };
        let r = |plates: Vec<f64>, w: f64| {
            round_to_achievable(w, Equipment::Barbell, &load(plates), lb)
        };
        assert_eq!(r(vec![0.0, -5.0, f64::NAN], 100.0), 45.0, "no usable plate");
        assert_eq!(r(vec![45.0, 45.0, 25.0], 105.0), 95.0, "duplicates");
        assert_eq!(r(vec![45.0, 25.0], f64::INFINITY), 45.0);
        assert_eq!(r(vec![45.0, 25.0], f64::NAN), 45.0);
        // Sizes whose common step is tiny: only the smallest plate is used, still loadable.
        assert_eq!(r(vec![44.999, 200.0], 140.0), 134.998);
        // A fine common step with a small smallest plate stays exact.
        assert_eq!(r(vec![45.0, 0.5], 100.3), 100.0);
        assert_eq!(r(vec![45.0, 0.5], 100.6), 101.0);
    }

    #[test]
    fn plate_rounding_survives_lists_save_plan_refuses() {
        // The CLI's evaluate reads contexts as given; none of these may overflow or take long.
        let lb = WeightUnit::Lbs;
        let r = |plates: Vec<f64>, w: f64| {
            let load = LoadConfig {
                plates,
                bar_weight: 45.0,
                dumbbells: vec![],
            };
            round_to_achievable(w, Equipment::Barbell, &load, lb)
        };
        // A huge plate next to a tiny one: the sums of the huge one saturate instead of
        // overflowing; the tiny one still builds the load.
        let got = r(vec![0.003, 1e16], 100.0);
        assert!((got - 100.0).abs() <= 0.006, "{got}");
        let got = r(vec![1e16, 1e16 + 1.0, 0.003], 100.0);
        assert!(got.is_finite() && got >= 45.0, "{got}");
        // A thousand sizes with 99,999 residues: only the 32 smallest sizes are used, so the
        // table costs at most 32 passes over the residues.
        let many: Vec<f64> = (0..1000).map(|i| 99.999 + i as f64 * 0.001).collect();
        assert_eq!(r(many.clone(), 45.0 + 2.0 * 99.999), 45.0 + 2.0 * 99.999);
        let got = r(many, 1000.0);
        assert!(got.is_finite() && (got - 1000.0).abs() <= 100.0, "{got}");
    }

    #[test]
    fn epley_and_session_best() {
        assert_eq!(e1rm(100.0, 10), Some(100.0 * (1.0 + 10.0 / 30.0)));
        assert_eq!(e1rm(0.0, 10), None);
        assert_eq!(e1rm(100.0, 0), None);
        let mut p = perf(vec![
            set(0, SetType::Warmup, 45.0, 10),
            set(1, SetType::Regular, 100.0, 5),
            set(2, SetType::Regular, 90.0, 10),
        ]);
        assert_eq!(session_e1rm(&p), Some(120.0));
        p.sets[2].completed = false;
        assert_eq!(session_e1rm(&p), e1rm(100.0, 5));
    }

    #[test]
    fn plateau_is_strictly_within_two_percent() {
        assert!(is_plateau(&[101.9, 50.0, 100.0]));
        assert!(!is_plateau(&[102.1, 100.0, 100.0]));
        assert!(is_plateau(&[98.1, 100.0, 100.0]));
        assert!(!is_plateau(&[97.9, 100.0, 100.0]));
        assert!(
            !is_plateau(&[102.0, 100.0, 100.0]),
            "exactly 2% is not within"
        );
        assert!(!is_plateau(&[100.0, 100.0]));
    }

    #[test]
    fn progression_sets_by_the_rules() {
        use SetType::*;
        let two_heaviest = perf(vec![
            set(0, Warmup, 50.0, 10),
            set(1, Regular, 100.0, 8),
            set(2, Regular, 110.0, 6),
            set(3, Regular, 105.0, 7),
        ]);
        let idx = |v: Vec<&PerformedSet>| v.iter().map(|s| s.index).collect::<Vec<_>>();
        assert_eq!(
            idx(progression_sets(&two_heaviest, TrainingStyle::Unknown)),
            vec![2, 3]
        );
        let one = perf(vec![
            set(0, Warmup, 150.0, 5),
            set(1, Regular, 100.0, 8),
            set(2, Drop, 80.0, 10),
        ]);
        assert_eq!(
            idx(progression_sets(&one, TrainingStyle::Unknown)),
            vec![1, 2]
        );
        let none = perf(vec![
            set(0, Drop, 60.0, 10),
            set(1, Warmup, 100.0, 8),
            set(2, Drop, 97.0, 6),
            set(3, Warmup, 96.0, 6),
        ]);
        assert_eq!(
            idx(progression_sets(&none, TrainingStyle::StraightSets)),
            vec![0, 1]
        );
        assert_eq!(
            idx(progression_sets(&none, TrainingStyle::HeaviestFirst)),
            vec![0, 1]
        );
        assert_eq!(
            idx(progression_sets(&none, TrainingStyle::Pyramid)),
            vec![1, 2]
        );
        assert_eq!(
            idx(progression_sets(&none, TrainingStyle::Unknown)),
            vec![1, 2]
        );
        let mut undone = two_heaviest.clone();
        undone.sets[2].completed = false;
        assert_eq!(
            idx(progression_sets(&undone, TrainingStyle::Unknown)),
            vec![1, 3]
        );
    }

    #[test]
    fn pyramid_progression_sets_at_95_percent_of_the_max() {
        use SetType::*;
        // No working set logged; pyramid: the first two sets at >= 95% of the heaviest (100).
        let cases: &[(&str, f64, Vec<u32>)] = &[
            ("94.9% is out", 94.9, vec![2, 3]),
            ("95% is in", 95.0, vec![1, 2]),
            ("95.1% is in", 95.1, vec![1, 2]),
        ];
        for (name, second, want) in cases {
            let p = perf(vec![
                set(0, Drop, 60.0, 12),
                set(1, Drop, *second, 10),
                set(2, Drop, 100.0, 8),
                set(3, Drop, 96.0, 8),
            ]);
            let got: Vec<u32> = progression_sets(&p, TrainingStyle::Pyramid)
                .iter()
                .map(|s| s.index)
                .collect();
            assert_eq!(got, *want, "{name}");
        }
    }

    #[test]
    fn struggling_and_reps_drop() {
        use SetType::*;
        let range = RepRange {
            mode: RepRangeMode::Range,
            lower: 8,
            upper: 12,
            target: 0,
        };
        let low = perf(vec![set(0, Regular, 100.0, 7), set(1, Regular, 100.0, 10)]);
        let edge = perf(vec![set(0, Regular, 100.0, 9), set(1, Regular, 100.0, 9)]);
        let fine = perf(vec![set(0, Regular, 100.0, 10), set(1, Regular, 100.0, 9)]);
        let st = TrainingStyle::Unknown;
        assert!(is_struggling([&low, &fine, &edge], &range, st));
        assert!(!is_struggling([&low, &fine, &fine], &range, st));
        assert!(
            !is_struggling([&fine, &fine, &fine, &low, &low], &range, st),
            "only the last 3 count"
        );
        let drop = perf(vec![
            set(0, Regular, 100.0, 10),
            set(1, Regular, 100.0, 8),
            set(2, Regular, 100.0, 9),
        ]);
        assert!(reps_dropped(&drop, 1, Some(8)));
        assert!(!reps_dropped(&drop, 2, Some(8)));
        assert!(reps_dropped(&drop, 2, Some(10)), "below the floor");
        assert!(!reps_dropped(&drop, 0, Some(8)));
    }
}
