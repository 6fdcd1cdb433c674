//! The cached per-exercise history (spec 004 "Cached history"): typical rep range, e1RM and trend,
//! recomputed from the latest performances whenever a session is logged.

use super::metrics::session_e1rm;
use super::model::{ExerciseHistory, ExercisePerformance, SetType, Trend};

/// How many recent performances the typical range and trend look at.
pub const HISTORY_WINDOW: u32 = 10;

/// Nearest-rank percentile of sorted values.
fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Recomputes an exercise's history after a new performance. `recent` holds up to
/// [`HISTORY_WINDOW`] completed performances, newest first, including the new one; `previous` is the
/// cached history before it.
pub fn summarize(
    catalog_id: &str,
    recent: &[ExercisePerformance],
    previous: Option<&ExerciseHistory>,
    now_ms: i64,
) -> ExerciseHistory {
    let mut reps: Vec<u32> = recent
        .iter()
        .flat_map(|p| &p.sets)
        .filter(|s| s.completed && s.set_type == SetType::Regular && s.reps > 0)
        .map(|s| s.reps)
        .collect();
    reps.sort_unstable();
    let e1rms: Vec<f64> = recent.iter().filter_map(session_e1rm).collect();
    let trend = match e1rms.as_slice() {
        [newest, _, third, ..] if *third > 0.0 => match (newest - third) / third {
            x if x > 0.02 => Trend::Improving,
            x if x < -0.02 => Trend::Declining,
            _ => Trend::Stable,
        },
        _ => Trend::Unknown,
    };
    ExerciseHistory {
        catalog_id: catalog_id.to_string(),
        session_count: previous.map_or(0, |h| h.session_count) + 1,
        typical_lower_reps: percentile(&reps, 0.25),
        typical_upper_reps: percentile(&reps, 0.75),
        best_e1rm: e1rms
            .iter()
            .copied()
            .fold(previous.map_or(0.0, |h| h.best_e1rm), f64::max),
        last_e1rm: e1rms.first().copied().unwrap_or(0.0),
        trend,
        updated_at_ms: now_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suggest::rules::testkit::{done, perf};

    #[test]
    fn typical_range_e1rm_and_trend() {
        let p = |n, w, reps: &[u32]| {
            perf(
                n,
                reps.iter()
                    .enumerate()
                    .map(|(i, r)| done(i as u32, SetType::Regular, w, *r))
                    .collect(),
            )
        };
        let recent = vec![
            p(0, 103.0, &[8, 8]),
            p(1, 100.0, &[10, 9]),
            p(2, 100.0, &[12, 6]),
        ];
        let h = summarize("x", &recent, None, 5);
        assert_eq!((h.typical_lower_reps, h.typical_upper_reps), (8, 10));
        assert_eq!(h.last_e1rm, 103.0 * (1.0 + 8.0 / 30.0));
        assert_eq!(h.best_e1rm, 100.0 * (1.0 + 12.0 / 30.0));
        // newest 130.47 vs third 140.0: -6.8%
        assert_eq!(h.trend, Trend::Declining);
        assert_eq!((h.session_count, h.updated_at_ms), (1, 5));
        let again = summarize("x", &recent[..2], Some(&h), 6);
        assert_eq!(again.session_count, 2);
        assert_eq!(again.best_e1rm, h.best_e1rm, "best is kept from the cache");
        assert_eq!(again.trend, Trend::Unknown);
    }
}
