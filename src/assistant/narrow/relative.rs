//! A relative change ("an hour later", "a day earlier", "back a week") applied to the stored
//! item: the new time or day computed from the item's own. Pure.
//!
//! - Minutes move the time of day; past midnight they move the day too (when the item has
//!   one). An event's end moves with its start, so it keeps its length (left as it is when the
//!   moved end would fall past midnight).
//! - Days and months move the day (months keep the day of the month, clamped to the month's
//!   last day).
//! - An item without the time or day to move gives `None`: the narrowed path asks what should
//!   change.

use crate::assistant::date::{parse_time, Date};
use crate::assistant::model::{ItemKind, PlannerItem, PlannerOperation};
use crate::assistant::reading::{add_months, ShiftReading};

const DAY_MINUTES: i32 = 24 * 60;

fn hhmm(min: i32) -> String {
    format!("{:02}:{:02}", min / 60, min % 60)
}

/// Puts the shifted time and day of `item` on `op`; `None` when the item lacks what moves.
pub(super) fn apply(
    shift: &ShiftReading,
    item: &PlannerItem,
    op: &mut PlannerOperation,
) -> Option<()> {
    let day = || item.scheduled_for.as_deref().and_then(Date::parse);
    if shift.minutes != 0 {
        let start = parse_time(item.time_of_day.as_deref()?)? as i32 + shift.minutes;
        let carry = start.div_euclid(DAY_MINUTES);
        let start = start.rem_euclid(DAY_MINUTES);
        op.time_of_day = Some(hhmm(start));
        if carry != 0 {
            op.scheduled_for = Some(day()?.add_days(carry as i64).to_string());
        }
        if item.kind == ItemKind::Event {
            let end = item
                .end_time
                .as_deref()
                .and_then(parse_time)
                .map(|e| e as i32 + shift.minutes)
                .filter(|e| (0..DAY_MINUTES).contains(e) && *e > start);
            op.end_time = end.map(hhmm);
        }
    }
    if shift.days != 0 || shift.months != 0 {
        let base = match op.scheduled_for.as_deref().and_then(Date::parse) {
            Some(d) => d,
            None => day()?,
        };
        let moved = add_months(base, shift.months as i64).add_days(shift.days as i64);
        op.scheduled_for = Some(moved.to_string());
    }
    Some(())
}
