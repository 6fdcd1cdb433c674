//! Today-plan generation, the provider side of spec 000 (pure): the request record and its
//! bounds, and the user turn of the prompt. The reading of the notes is `notes.rs`, the plan
//! written around the model's picks `compose.rs`.

use super::SchemaVersion;
use crate::assistant::today_label;
use crate::kernel::date::Date;
use crate::kernel::error::{Error, Result};
use crate::kernel::units::WeightUnit;
use serde::{Deserialize, Serialize};

/// Most characters of [`TodayPlanRequest::notes`].
pub const MAX_NOTES_CHARS: usize = 4_000;

/// Most characters of [`TodayPlanRequest::timezone`].
pub const MAX_TIMEZONE_CHARS: usize = 64;

/// What [`workouts().todayPlan`](crate::Workouts::today_plan) is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TodayPlanRequest {
    /// The day planned, `YYYY-MM-DD` (the user's local date).
    pub date: String,
    /// The user's goal and notes for the day, in their own words (at most 4000 characters):
    /// "45 minutes, upper body, dumbbells only, easy on the knees". The library reads the
    /// minutes (default 45), the focus (a session type, body parts and muscle groups, an
    /// exercise named as the focus), goal, energy, equipment (default a full gym), body parts to
    /// spare and exercises asked for or refused (English words), as it reads a workout's
    /// instructions; the model reads them when it picks the exercises.
    pub notes: String,
    /// The LLM schema to ask for; `None` chooses as [`selectPlanSchema`] does with no
    /// preference (the version with the smallest estimated JSON size).
    ///
    /// [`selectPlanSchema`]: crate::select_plan_schema
    #[serde(default)]
    #[uniffi(default = None)]
    pub schema_version: Option<SchemaVersion>,
    /// The user's time zone (IANA name such as `Europe/Berlin`, at most 64 characters), told to
    /// the model as context.
    #[serde(default)]
    #[uniffi(default = None)]
    pub timezone: Option<String>,
    /// Makes the plan's ids reproducible (mixed with the date, so plans of different days get
    /// different ids). The plan is saved under its id: a seeded plan of a date replaces the
    /// saved plan with the same id unless that one is done.
    #[serde(default)]
    #[uniffi(default = None)]
    pub seed: Option<u64>,
    /// The unit of the plan's loads (`kg` or `lbs`; `None`: `lbs`): the loads in the
    /// prescriptions and in the saved plan's targets, and of the sets `markTodayPlanDone` is
    /// given.
    #[serde(default)]
    #[uniffi(default = None)]
    pub units: Option<WeightUnit>,
    /// Days a week the user trains, 1 to 7, if the app knows: notes that name no focus then get
    /// the split of the workout flow (`WorkoutRequest.daysPerWeek`). `None`: full body.
    #[serde(default)]
    #[uniffi(default = None)]
    pub days_per_week: Option<u32>,
}

impl TodayPlanRequest {
    /// The unit of the plan's loads: the request's, else pounds.
    pub fn weight_unit(&self) -> WeightUnit {
        self.units.unwrap_or(WeightUnit::Lbs)
    }

    /// The seed of the plan's ids: the request's seed mixed with its date (`None` without a
    /// seed), so a fixed seed gives each day's plan its own ids.
    pub fn id_seed(&self) -> Option<u64> {
        let day = Date::parse(&self.date).map_or(0, Date::days_since_epoch);
        self.seed
            .map(|s| s ^ (day as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
}

fn invalid(path: &str, what: &str) -> Error {
    Error::InvalidArgument(format!("request.{path}: {what}"))
}

/// Checks the request's bounds (date, lengths); never quotes its text.
pub fn validate_request(r: &TodayPlanRequest) -> Result<()> {
    if Date::parse(&r.date).is_none() {
        return Err(invalid("date", "must be a date YYYY-MM-DD"));
    }
    if r.notes.chars().count() > MAX_NOTES_CHARS {
        return Err(invalid("notes", "at most 4000 characters"));
    }
    if r.days_per_week.is_some_and(|d| !(1..=7).contains(&d)) {
        return Err(invalid("daysPerWeek", "1 to 7"));
    }
    if let Some(tz) = &r.timezone {
        if tz.chars().count() > MAX_TIMEZONE_CHARS || tz.chars().any(char::is_control) {
            return Err(invalid(
                "timezone",
                "at most 64 characters, no control characters",
            ));
        }
    }
    Ok(())
}

/// The user turn: the day and the time zone, then `slots` (the notes and the slots to fill with
/// their candidates, as the workout flow's analyzer prompt states them).
pub fn user_prompt(r: &TodayPlanRequest, slots: &str) -> String {
    let day = Date::parse(&r.date).map_or_else(|| r.date.clone(), today_label);
    format!(
        "Date: {day}\nTime zone: {}\n{slots}",
        r.timezone.as_deref().unwrap_or("not given"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> TodayPlanRequest {
        TodayPlanRequest {
            date: "2025-08-18".into(),
            notes: "30 minutes, legs".into(),
            schema_version: None,
            timezone: None,
            seed: None,
            units: None,
            days_per_week: None,
        }
    }

    #[test]
    fn bounds_are_checked_without_quoting_the_text() {
        assert!(validate_request(&request()).is_ok());
        let bad = |f: &dyn Fn(&mut TodayPlanRequest)| {
            let mut r = request();
            f(&mut r);
            validate_request(&r).unwrap_err().to_string()
        };
        assert!(bad(&|r| r.date = "18.08.2025".into()).contains("request.date"));
        let e = bad(&|r| r.notes = "SECRET ".repeat(700));
        assert!(e.contains("request.notes") && !e.contains("SECRET"), "{e}");
        assert!(bad(&|r| r.timezone = Some("x".repeat(65))).contains("request.timezone"));
    }

    #[test]
    fn a_seed_gives_each_day_its_own_ids_and_pounds_are_the_default() {
        let mut r = request();
        assert_eq!(r.id_seed(), None);
        assert_eq!(r.weight_unit(), WeightUnit::Lbs);
        r.seed = Some(7);
        let monday = r.id_seed();
        assert_eq!(monday, r.id_seed(), "reproducible");
        r.date = "2025-08-19".into();
        assert_ne!(r.id_seed(), monday);
        r.units = Some(WeightUnit::Kg);
        assert_eq!(r.weight_unit(), WeightUnit::Kg);
    }

    #[test]
    fn the_user_turn_holds_the_day_and_the_slots() {
        let p = user_prompt(&request(), "User notes: 30 minutes, legs\nA1: ...");
        assert_eq!(
            p,
            "Date: 2025-08-18 (Monday)\nTime zone: not given\nUser notes: 30 minutes, legs\nA1: ..."
        );
    }
}
