//! A weekday and a calendar date said together ("Monday Dec 7", "Wednesday, Dec 2", "Friday
//! 12/4", "Dec 7 (Monday)"): the calendar date wins, and a weekday it does not fall on is
//! reported as a contradiction. Pure.

use super::{date_at, day_num, month, weekday, DateHit, Lexed};
use crate::assistant::date::Date;
use crate::assistant::model::Weekday;

/// A date found at word `k` (`hit`), widened by the weekday or calendar date said next to it:
/// the date, its period end, the index after the words, and the weekday said when the date
/// falls on another one.
pub(super) fn with_weekday(
    p: &Lexed,
    k: usize,
    hit: DateHit,
    today: Date,
) -> (Date, Option<Date>, usize, Option<Weekday>) {
    let (date, through, e) = hit;
    if through.is_some() {
        return (date, through, e, None);
    }
    // "Monday Dec 7", "next Monday, December 7th", "Friday 12/4": the weekday came first.
    if let Some((said, false)) = weekday(p.w(e - 1)) {
        if let Some((cal, end)) = calendar_at(p, e, today, said) {
            return (cal, None, end, (cal.weekday() != said).then_some(said));
        }
        return (date, through, e, None);
    }
    // "Dec 7 Monday", "December 7 (Monday)": the date came first.
    if is_calendar(p, k) {
        if let Some((said, false)) = weekday(p.w(e)) {
            return (date, None, e + 1, (date.weekday() != said).then_some(said));
        }
    }
    (date, through, e, None)
}

/// Whether a calendar date starts at word `k`: a month name, a day number before a month
/// ("7 December", "7th of Dec"), "the" and an ordinal ("the 7th"), or an ISO date.
fn is_calendar(p: &Lexed, k: usize) -> bool {
    let w = p.w(k);
    let month_after =
        |j: usize| month(p.w(j)).is_some() || (p.w(j) == "of" && month(p.w(j + 1)).is_some());
    month(w).is_some()
        || (day_num(w).is_some() && month_after(k + 1))
        || (w == "the" && day_num(p.w(k + 1)).is_some_and(|(_, suffixed)| suffixed))
        || (w.len() == 10 && Date::parse(w).is_some())
}

/// The calendar date at word `k` after a weekday `said`, and the index after it. A numeric
/// date ("12/4", "12/4/2026") is read as month/day or day/month, whichever falls on `said`
/// (month/day when both or neither do: then the weekday contradicts it).
fn calendar_at(p: &Lexed, k: usize, today: Date, said: Weekday) -> Option<(Date, usize)> {
    if is_calendar(p, k) {
        return date_at(p, k, today).map(|(d, _, e)| (d, e));
    }
    let num = |j: usize| -> Option<u32> {
        let w = p.w(j);
        (!w.is_empty() && w.len() <= 2 && w.bytes().all(|b| b.is_ascii_digit()))
            .then(|| w.parse().ok())
            .flatten()
    };
    let (a, b) = (num(k)?, num(k + 1)?);
    if p.gap(k + 1).trim() != "/" {
        return None;
    }
    let mut end = k + 2;
    let year: Option<i32> = if p.gap(k + 2).trim() == "/" {
        let y = p.w(k + 2);
        let parsed: Option<i32> = match y.len() {
            4 => y.parse().ok(),
            2 => y.parse::<i32>().ok().map(|y| 2000 + y),
            _ => None,
        };
        if parsed.is_some() {
            end = k + 3;
        }
        parsed
    } else {
        None
    };
    let resolve = |m: u32, d: u32| -> Option<Date> {
        match year {
            Some(y) => Date::from_ymd(y, m, d),
            None => {
                let (ty, _, _) = today.ymd();
                (0..=8).find_map(|n| Date::from_ymd(ty + n, m, d).filter(|x| *x >= today))
            }
        }
    };
    let us = resolve(a, b);
    let other = resolve(b, a);
    let on_day = |d: &Option<Date>| d.is_some_and(|d| d.weekday() == said);
    let date = match (on_day(&us), on_day(&other)) {
        (false, true) => other,
        _ => us.or(other),
    }?;
    Some((date, end))
}
