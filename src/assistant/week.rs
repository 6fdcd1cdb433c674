//! The week snapshot computed from the items the store returns (spec 002, see
//! [`apply::week`](super::service::apply::week)): repeating items expanded over the week minus
//! their completed occurrences, one-off items added, and the entries ordered. Pure.

use std::cmp::Ordering;

use super::date::{occurrences, Date};
use super::model::{PlannerItem, Priority, WeekEntry};

/// Expands repeating items over `start..=end` (minus their completed occurrences), adds the
/// one-off items, and orders the entries: by date, then time (untimed last), then priority (high
/// first), then title, then id.
pub(crate) fn week_entries(
    one_off: Vec<PlannerItem>,
    repeating: Vec<PlannerItem>,
    start: Date,
    end: Date,
) -> Vec<WeekEntry> {
    let mut entries = Vec::with_capacity(one_off.len() + repeating.len() * 2);
    for item in one_off {
        if let Some(date) = item.scheduled_for.clone() {
            entries.push(WeekEntry { date, item });
        }
    }
    for item in repeating {
        let Some(anchor) = item.scheduled_for.as_deref().and_then(Date::parse) else {
            continue;
        };
        for d in occurrences(&item.recurrence, anchor, start, end) {
            let date = d.to_string();
            if !item.completed_occurrences.contains(&date) {
                entries.push(WeekEntry {
                    date,
                    item: item.clone(),
                });
            }
        }
    }
    entries.sort_by(|a, b| {
        a.date
            .cmp(&b.date)
            .then_with(|| day_order(&a.item, &b.item))
    });
    entries
}

/// The order of two items on one day: by time (untimed last), then priority (high first), then
/// title, then id.
pub(crate) fn day_order(a: &PlannerItem, b: &PlannerItem) -> Ordering {
    let rank = |p: Priority| match p {
        Priority::High => 0,
        Priority::Medium => 1,
        Priority::Low => 2,
    };
    match (&a.time_of_day, &b.time_of_day) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
    .then_with(|| rank(a.priority).cmp(&rank(b.priority)))
    .then_with(|| a.title.cmp(&b.title))
    .then_with(|| a.id.cmp(&b.id))
}
