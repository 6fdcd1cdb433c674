//! The time budget (pure): how long a set takes and how many working sets fit the session.
//!
//! A set takes its work time (40 s, 70 s for per-side reps) plus its rest; each exercise adds 60 s
//! of set-up; the session keeps 5 minutes for a general warm-up and transitions. The budget's
//! working sets assume the goal's default rest (strength 150 s, hypertrophy 90 s, endurance 45 s,
//! general 75 s) and room for a 3-set warm-up ramp.

use super::model::{Goal, TimeBudget};

/// Seconds of work in one set.
pub const WORK_S: u32 = 40;
/// Seconds of work in one set with per-side reps.
pub const WORK_PER_SIDE_S: u32 = 70;
/// Set-up seconds per exercise.
pub const EXERCISE_SETUP_S: u32 = 60;
/// Seconds kept for a general warm-up and transitions.
pub const SESSION_OVERHEAD_S: u32 = 300;
/// Rest after a warm-up set.
pub const WARMUP_REST_S: u32 = 60;

/// The goal's default rest between working sets (Tier A; B and C use [`accessory_rest`]).
pub fn default_rest(goal: Goal) -> u32 {
    match goal {
        Goal::Strength => 150,
        Goal::Hypertrophy => 90,
        Goal::Endurance => 45,
        Goal::General => 75,
    }
}

/// Rest for Tier B and C sets.
pub fn accessory_rest(goal: Goal) -> u32 {
    match goal {
        Goal::Strength => 120,
        Goal::Hypertrophy => 75,
        Goal::Endurance => 45,
        Goal::General => 60,
    }
}

/// Seconds one set takes, rest included.
pub fn set_seconds(rest_s: u32, per_side: bool) -> u32 {
    (if per_side { WORK_PER_SIDE_S } else { WORK_S }) + rest_s
}

/// Seconds available for sets and exercise set-up.
pub fn available_seconds(duration_minutes: u32) -> u32 {
    (duration_minutes * 60).saturating_sub(SESSION_OVERHEAD_S)
}

/// The budget of a session: working sets that fit after a 3-set ramp, with the goal's rest and
/// one exercise set-up per 3 sets; 1 to 60.
pub fn budget(duration_minutes: u32, goal: Goal) -> TimeBudget {
    let ramp = 3 * set_seconds(WARMUP_REST_S, false);
    let per_set = set_seconds(default_rest(goal), false) + EXERCISE_SETUP_S / 3;
    let sets = available_seconds(duration_minutes).saturating_sub(ramp) / per_set;
    TimeBudget {
        duration_minutes,
        max_working_sets: sets.clamp(1, 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_grow_with_minutes_and_shrink_with_rest() {
        assert_eq!(budget(60, Goal::Hypertrophy).max_working_sets, 20);
        assert_eq!(budget(60, Goal::Strength).max_working_sets, 14);
        assert_eq!(budget(10, Goal::Strength).max_working_sets, 1);
        assert!(budget(180, Goal::Endurance).max_working_sets <= 60);
    }
}
