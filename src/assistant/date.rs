//! The recurrence rules of the planner's repeating items, on the kernel's civil dates
//! (`crate::kernel::date`, re-exported here). Pure functions, no clock.

pub use crate::kernel::date::{parse_time, Date};

use super::model::{Recurrence, RecurrenceType};

/// Whether a repeating item anchored on `anchor` occurs on `date` (see [`Recurrence`] for the
/// rules). A non-repeating item occurs only on its anchor. Assumes a well-formed recurrence
/// (interval >= 1, `until` a date or absent); a malformed `until` is treated as absent.
pub fn occurs_on(rec: &Recurrence, anchor: Date, date: Date) -> bool {
    if date < anchor {
        return false;
    }
    if let Some(until) = rec.until.as_deref().and_then(Date::parse) {
        if date > until {
            return false;
        }
    }
    let interval = rec.interval.unwrap_or(1).max(1) as i64;
    let (ay, am, ad) = anchor.ymd();
    let (y, m, d) = date.ymd();
    match rec.kind {
        RecurrenceType::None => date == anchor,
        RecurrenceType::Daily => anchor.days_until(date) % interval == 0,
        RecurrenceType::Weekly => {
            let on_day = if rec.weekdays.is_empty() {
                date.weekday() == anchor.weekday()
            } else {
                rec.weekdays.contains(&date.weekday())
            };
            let weeks = anchor.week_start().days_until(date.week_start()) / 7;
            on_day && weeks % interval == 0
        }
        RecurrenceType::Monthly => {
            let months = (y as i64 - ay as i64) * 12 + m as i64 - am as i64;
            d == ad && months % interval == 0
        }
        RecurrenceType::Yearly => m == am && d == ad && (y - ay) as i64 % interval == 0,
    }
}

/// The dates in `from..=to` on which the item occurs, in order.
pub fn occurrences(rec: &Recurrence, anchor: Date, from: Date, to: Date) -> Vec<Date> {
    let mut out = Vec::new();
    let mut d = from.max(anchor);
    while d <= to {
        if occurs_on(rec, anchor, d) {
            out.push(d);
        }
        if rec.kind == RecurrenceType::None {
            break;
        }
        d = d.add_days(1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::model::Weekday;

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    fn rec(kind: RecurrenceType, interval: Option<u32>, weekdays: Vec<Weekday>) -> Recurrence {
        Recurrence {
            kind,
            interval,
            weekdays,
            until: None,
        }
    }

    #[test]
    fn recurrence_rules() {
        let a = d("2026-01-31");
        let monthly = rec(RecurrenceType::Monthly, None, vec![]);
        let got: Vec<String> = occurrences(&monthly, a, a, d("2026-06-30"))
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(
            got,
            ["2026-01-31", "2026-03-31", "2026-05-31"],
            "months without the day are skipped"
        );
        let every2 = rec(RecurrenceType::Daily, Some(2), vec![]);
        assert!(occurs_on(&every2, a, d("2026-02-02")));
        assert!(!occurs_on(&every2, a, d("2026-02-01")));
        assert!(
            !occurs_on(&every2, a, d("2026-01-29")),
            "never before the anchor"
        );
        let mwf = rec(
            RecurrenceType::Weekly,
            Some(2),
            vec![Weekday::Mon, Weekday::Fri],
        );
        let anchor = d("2026-11-16");
        let got: Vec<String> = occurrences(&mwf, anchor, anchor, d("2026-12-06"))
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(
            got,
            ["2026-11-16", "2026-11-20", "2026-11-30", "2026-12-04"]
        );
        let mut yearly = rec(RecurrenceType::Yearly, None, vec![]);
        yearly.until = Some("2029-01-01".into());
        let leap = d("2024-02-29");
        assert_eq!(
            occurrences(&yearly, leap, leap, d("2030-12-31")),
            vec![leap, d("2028-02-29")]
        );
        let none = rec(RecurrenceType::None, None, vec![]);
        assert_eq!(
            occurrences(&none, anchor, d("2026-11-01"), d("2026-11-30")),
            vec![anchor]
        );
    }
}
