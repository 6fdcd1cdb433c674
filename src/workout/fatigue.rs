//! Fatigue gating (ADR 0009): recent cardio load and recovery signals become the
//! [`FatiguePolicy`] of the session, `rir_shift` 0 to 2 and `load_cap_pct` 0.8 to 1.05. Pure.
//!
//! - Cardio load: the sum over activities of the last 3 days of `effort x weight`, where effort
//!   is Strava's Relative Effort (a heart-rate-weighted duration; when absent, one point per
//!   minute) and weight is 1.0 for today and yesterday, 0.6 two days ago, 0.3 three days ago.
//!   Under 75: shift 0; under 150: shift 1; else 2.
//! - Recovery: sleep score under 40 or body battery under 15: shift 2; sleep under 60 or battery
//!   under 30: shift 1.
//! - `rir_shift` is the sum, at most 2. `load_cap_pct`: 0.95 at shift 1, 0.875 at shift 2; at shift
//!   0, 1.05 when both recovery signals are high (sleep >= 80 and battery >= 70), else 1.025.

use super::model::{CardioActivity, FatiguePolicy, Recovery};
use crate::kernel::date::Date;

/// The policy and what decided it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FatigueAssessment {
    /// The policy.
    pub policy: FatiguePolicy,
    /// The decayed cardio load of the last 3 days.
    pub cardio_load: f64,
    /// Shift from cardio (0 to 2).
    pub cardio_shift: u32,
    /// Shift from recovery (0 to 2).
    pub recovery_shift: u32,
}

/// Decay weight of an activity `days_ago` days before the session (`None`: outside the window).
fn decay(days_ago: i64) -> Option<f64> {
    match days_ago {
        0 | 1 => Some(1.0),
        2 => Some(0.6),
        3 => Some(0.3),
        _ => None,
    }
}

/// The fatigue policy for a session on `date`. Activities with an unreadable date or after the
/// session are ignored.
pub fn assess(
    date: Date,
    cardio: &[CardioActivity],
    recovery: Option<&Recovery>,
) -> FatigueAssessment {
    let cardio_load: f64 = cardio
        .iter()
        .filter_map(|a| {
            let days_ago = Date::parse(&a.date)?.days_until(date);
            let effort = a.relative_effort.unwrap_or(a.duration_minutes) as f64;
            Some(decay(days_ago)? * effort)
        })
        .sum();
    let cardio_shift = match cardio_load {
        l if l < 75.0 => 0,
        l if l < 150.0 => 1,
        _ => 2,
    };
    let sleep = recovery.and_then(|r| r.sleep_score);
    let battery = recovery.and_then(|r| r.body_battery);
    let below = |v: Option<u32>, t: u32| v.is_some_and(|v| v < t);
    let recovery_shift = if below(sleep, 40) || below(battery, 15) {
        2
    } else if below(sleep, 60) || below(battery, 30) {
        1
    } else {
        0
    };
    let rir_shift = (cardio_shift + recovery_shift).min(2);
    let fresh = sleep.is_some_and(|s| s >= 80) && battery.is_some_and(|b| b >= 70);
    let load_cap_pct = match rir_shift {
        0 if fresh => 1.05,
        0 => 1.025,
        1 => 0.95,
        _ => 0.875,
    };
    FatigueAssessment {
        policy: FatiguePolicy {
            rir_shift,
            load_cap_pct,
        },
        cardio_load,
        cardio_shift,
        recovery_shift,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(date: &str, minutes: u32, effort: Option<u32>) -> CardioActivity {
        CardioActivity {
            date: date.into(),
            activity_type: "run".into(),
            duration_minutes: minutes,
            relative_effort: effort,
        }
    }

    #[test]
    fn cardio_load_and_recovery_set_the_shift_and_cap() {
        let d = Date::parse("2025-08-17").unwrap();
        let fresh = Recovery {
            sleep_score: Some(85),
            body_battery: Some(80),
        };
        let a = assess(d, &[], Some(&fresh));
        assert_eq!((a.policy.rir_shift, a.policy.load_cap_pct), (0, 1.05));
        assert_eq!(assess(d, &[], None).policy.load_cap_pct, 1.025);
        // 100 yesterday: shift 1; 100 yesterday + 90 two days ago (54): 154, shift 2.
        let one = assess(d, &[run("2025-08-16", 60, Some(100))], None);
        assert_eq!((one.policy.rir_shift, one.policy.load_cap_pct), (1, 0.95));
        let two = assess(
            d,
            &[
                run("2025-08-16", 60, Some(100)),
                run("2025-08-15", 60, Some(90)),
            ],
            None,
        );
        assert_eq!((two.policy.rir_shift, two.policy.load_cap_pct), (2, 0.875));
        // Four days ago and future activities do not count; a missing effort is one per minute.
        assert_eq!(
            assess(
                d,
                &[run("2025-08-13", 300, None), run("2025-08-18", 300, None)],
                None
            )
            .cardio_load,
            0.0
        );
        assert_eq!(
            assess(d, &[run("2025-08-17", 80, None)], None)
                .policy
                .rir_shift,
            1
        );
        // Poor sleep alone: shift 1; very poor: 2; never above 2.
        let tired = Recovery {
            sleep_score: Some(55),
            body_battery: None,
        };
        assert_eq!(assess(d, &[], Some(&tired)).policy.rir_shift, 1);
        let wrecked = Recovery {
            sleep_score: Some(30),
            body_battery: Some(10),
        };
        assert_eq!(
            assess(d, &[run("2025-08-16", 60, Some(200))], Some(&wrecked))
                .policy
                .rir_shift,
            2
        );
    }
}
