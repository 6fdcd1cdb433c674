//! When and how important: dates, times, ranges, durations, recurrence and priority phrases.
//!
//! ## Dates (relative to the `today` given)
//! - "today", "tonight": today; "tomorrow": +1; "the day after tomorrow": +2; "yesterday": -1.
//! - A weekday alone ("Friday", "on Friday", "this coming Friday"): the next one strictly after
//!   today (today is excluded; say "today" for today).
//! - "this Friday": the Friday of the current Monday-to-Sunday week if it is today or later,
//!   else the next one.
//! - "next Tuesday": the Tuesday of next week (weeks run Monday to Sunday), as many people mean
//!   it. On Monday 2026-11-23 that is 2026-12-01, not 2026-11-24; on a Sunday it is two days on.
//! - "this weekend" / "the weekend": Saturday (through Sunday) of the current week, or today
//!   when today is Sunday; "next weekend": the Saturday of next week.
//! - "next week": next week's Monday (through Sunday); "this week": today through Sunday;
//!   "next month": the 1st of next month (through its last day); "end of the month": the last
//!   day of this month; "end of next month"; "end of the year": December 31.
//! - "in 3 days", "in two weeks", "in a month", "a week from today", "3 days from now"
//!   (months keep the day of the month, clamped to the month's last day).
//! - "December 1", "Dec 1st", "1 December", "the 1st of December", optionally with a year
//!   ("December 1, 2027"); without a year, a date already past this year means next year.
//!   "the 5th" alone: the next 5th on or after today. ISO dates `2026-12-01` are read as is.
//! - Numeric forms such as "12/01" are skipped: they mean December 1 in the US and January 12
//!   elsewhere.
//! - A preposition sets the role: "by", "before", "due" a deadline; "until", "till", "through"
//!   the end of a recurrence; "on", "for", "to", "from", "starting" or none the day itself.
//! - A weekday next to a calendar date ("Monday Dec 7", "Wednesday, Dec 2", "thu dec 3", "Dec 7
//!   (Monday)"): the calendar date wins; when it falls on another weekday ("Tuesday Dec 7")
//!   the date is kept and marked contradicted. Next to a weekday a numeric
//!   date is read after all: the month/day or day/month reading that falls on that weekday
//!   ("Friday 12/4" is December 4, 2026).
//!
//! Times, ranges and durations: see `time.rs`.
//!
//! ## Recurrence
//! "every day", "daily", "each morning", "every other day", "every 3 days"; "weekdays", "every
//! weekday", "every workday" (weekly, Monday to Friday); "weekends"; "every week", "weekly",
//! "every week on Monday"; "every Monday and Thursday", "on Mondays and Thursdays" (weekly on
//! those days); "every other week", "every 2 weeks", "biweekly", "every other Monday" (interval
//! 2); "every month", "monthly", "every month on the 1st", "the 15th of every month"; "every
//! year", "yearly", "annually"; "until June 1" sets `until`. The anchor is the first occurrence
//! on or after the day the message names, else on or after today.
//!
//! ## Priority
//! High: "urgent", "asap", "as soon as possible", "important", "critical", "high priority", "top
//! priority". Low: "low priority", "not urgent", "not important", "no rush", "no hurry",
//! "whenever", "someday". Medium: "medium priority", "normal priority". The first one said wins.

use std::collections::HashSet;
use std::sync::OnceLock;

use super::time::count;
use super::{DateReading, DateRole, Lexed, PriorityReading, RecurrenceReading, Span, TimeReading};

use crate::assistant::date::Date;
use crate::assistant::model::{Priority, Recurrence, RecurrenceType, Weekday};

/// What [`read_when`] found.
pub(super) struct Found {
    pub dates: Vec<DateReading>,
    pub time: Option<TimeReading>,
    pub recurrence: Option<RecurrenceReading>,
}

/// Reads recurrence, then dates, then times (each marks the words it uses).
pub(super) fn read_when(p: &mut Lexed, today: Date) -> Found {
    let rule = read_recurrence(p);
    let dates = read_dates(p, today);
    let time = super::time::read_time(p);
    let recurrence = rule.map(|(mut rec, month_day, span)| {
        let base = dates
            .iter()
            .find(|d| d.role == DateRole::On)
            .and_then(|d| Date::parse(&d.date))
            .unwrap_or(today);
        rec.until = dates
            .iter()
            .find(|d| d.role == DateRole::Until)
            .map(|d| d.date.clone());
        let anchor = anchor(&rec, month_day, base);
        RecurrenceReading {
            recurrence: rec,
            anchor: anchor.to_string(),
            span,
        }
    });
    Found {
        dates,
        time,
        recurrence,
    }
}

fn anchor(rec: &Recurrence, month_day: Option<u32>, base: Date) -> Date {
    if rec.kind == RecurrenceType::Weekly && !rec.weekdays.is_empty() {
        return (0..7)
            .map(|n| base.add_days(n))
            .find(|d| rec.weekdays.contains(&d.weekday()))
            .unwrap_or(base);
    }
    match (rec.kind, month_day) {
        (RecurrenceType::Monthly, Some(md)) => next_month_day(base, md).unwrap_or(base),
        _ => base,
    }
}

/// The first date on or after `from` whose day of the month is `day`.
fn next_month_day(from: Date, day: u32) -> Option<Date> {
    let (y, m, _) = from.ymd();
    (0..13).find_map(|n| {
        let (yy, mm) = add_ym(y, m, n);
        Date::from_ymd(yy, mm, day).filter(|d| *d >= from)
    })
}

fn add_ym(y: i32, m: u32, n: i64) -> (i32, u32) {
    let z = y as i64 * 12 + (m as i64 - 1) + n;
    (z.div_euclid(12) as i32, z.rem_euclid(12) as u32 + 1)
}

/// `d` moved by `n` months, the day of the month clamped to the new month's last day.
pub(crate) fn add_months(d: Date, n: i64) -> Date {
    let (y, m, day) = d.ymd();
    let (yy, mm) = add_ym(y, m, n);
    (0..4)
        .find_map(|k| Date::from_ymd(yy, mm, day - k))
        .unwrap_or(d)
}

fn month_end(d: Date) -> Date {
    let (y, m, _) = d.ymd();
    let (yy, mm) = add_ym(y, m, 1);
    Date::from_ymd(yy, mm, 1).map_or(d, |f| f.add_days(-1))
}

fn wd_index(w: Weekday) -> i64 {
    Weekday::ALL.iter().position(|x| *x == w).unwrap_or(0) as i64
}

/// A weekday name or abbreviation; `true` when plural ("mondays").
fn weekday(s: &str) -> Option<(Weekday, bool)> {
    let full = |b: &str| {
        matches!(
            b,
            "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday"
        )
    };
    let (base, plural) = match s.strip_suffix('s') {
        Some(b) if full(b) => (b, true),
        _ => (s, false),
    };
    let d = match base {
        "monday" | "mon" => Weekday::Mon,
        "tuesday" | "tue" | "tues" => Weekday::Tue,
        "wednesday" | "wed" | "weds" => Weekday::Wed,
        "thursday" | "thu" | "thur" | "thurs" => Weekday::Thu,
        "friday" | "fri" => Weekday::Fri,
        "saturday" => Weekday::Sat,
        "sunday" => Weekday::Sun,
        _ => return None,
    };
    Some((d, plural))
}

/// "Monday", "Monday and Thursday", "Mon, Wed and Fri": the days (sorted) and the end index.
fn weekday_list(p: &Lexed, i: usize) -> Option<(Vec<Weekday>, usize)> {
    let (first, _) = weekday(p.w(i))?;
    let mut days = vec![first];
    let mut j = i + 1;
    loop {
        let mut k = j;
        if matches!(p.w(k), "and" | "or") {
            k += 1;
        } else if !p.gap(k).contains([',', '&', '/']) {
            break;
        }
        if p.w(k) == "and" {
            k += 1;
        }
        match weekday(p.w(k)) {
            Some((d, _)) if k < p.len() => {
                if !days.contains(&d) {
                    days.push(d);
                }
                j = k + 1;
            }
            _ => break,
        }
    }
    days.sort();
    Some((days, j))
}

fn month(s: &str) -> Option<u32> {
    Some(match s {
        "january" | "jan" => 1,
        "february" | "feb" => 2,
        "march" | "mar" => 3,
        "april" | "apr" => 4,
        "may" => 5,
        "june" | "jun" => 6,
        "july" | "jul" => 7,
        "august" | "aug" => 8,
        "september" | "sep" | "sept" => 9,
        "october" | "oct" => 10,
        "november" | "nov" => 11,
        "december" | "dec" => 12,
        _ => return None,
    })
}

/// A day of the month, "1" to "31", with an optional ordinal suffix; `true` when suffixed.
fn day_num(s: &str) -> Option<(u32, bool)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, suf) = s.split_at(end);
    if num.is_empty() || num.len() > 2 || !matches!(suf, "" | "st" | "nd" | "rd" | "th") {
        return None;
    }
    let n: u32 = num.parse().ok()?;
    (1..=31).contains(&n).then_some((n, !suf.is_empty()))
}

fn rec(kind: RecurrenceType, interval: u32, weekdays: Vec<Weekday>) -> Recurrence {
    Recurrence {
        kind,
        interval: (interval > 1).then_some(interval),
        weekdays,
        until: None,
    }
}

const WORKWEEK: [Weekday; 5] = [
    Weekday::Mon,
    Weekday::Tue,
    Weekday::Wed,
    Weekday::Thu,
    Weekday::Fri,
];

type Rule = (Recurrence, Option<u32>, Span);

fn read_recurrence(p: &mut Lexed) -> Option<Rule> {
    for i in 0..p.len() {
        if let Some((r, md, start, end)) = rec_at(p, i) {
            if p.free(start, end) {
                p.mark(start, end);
                return Some((r, md, p.span(start, end)));
            }
        }
    }
    None
}

/// A recurrence phrase starting at word `i`: rule, day of the month, word range.
fn rec_at(p: &Lexed, i: usize) -> Option<(Recurrence, Option<u32>, usize, usize)> {
    use RecurrenceType::{Daily, Monthly, Weekly, Yearly};
    let mut start = i;
    let mut md = None;
    // "(on) the 15th of every month"
    let k = if p.w(i) == "on" { i + 1 } else { i };
    if p.w(k) == "the" {
        if let Some((d, true)) = day_num(p.w(k + 1)) {
            if let Some(e) = p.seq(k + 2, "of every|each month") {
                return Some((rec(Monthly, 1, vec![]), Some(d), i, e));
            }
        }
    }
    let (mut r, mut j) = if matches!(p.w(i), "every" | "each") {
        let k = i + 1;
        let unit = |u: &str| match u {
            "day" | "days" => Some(Daily),
            "week" | "weeks" => Some(Weekly),
            "month" | "months" => Some(Monthly),
            "year" | "years" => Some(Yearly),
            _ => None,
        };
        match p.w(k) {
            "day" | "morning" | "evening" | "night" | "afternoon" => (rec(Daily, 1, vec![]), k + 1),
            "weekday" | "weekdays" | "workday" | "workdays" => {
                (rec(Weekly, 1, WORKWEEK.to_vec()), k + 1)
            }
            "weekend" => (rec(Weekly, 1, vec![Weekday::Sat, Weekday::Sun]), k + 1),
            "other" => match (unit(p.w(k + 1)), weekday_list(p, k + 1)) {
                (Some(kind), _) => (rec(kind, 2, vec![]), k + 2),
                (None, Some((days, e))) => (rec(Weekly, 2, days), e),
                _ => return None,
            },
            w => match (unit(w), count(w), weekday_list(p, k)) {
                (Some(kind), _, _) => (rec(kind, 1, vec![]), k + 1),
                (None, Some(n), _) if unit(p.w(k + 1)).is_some() && n <= 365 => {
                    (rec(unit(p.w(k + 1))?, n, vec![]), k + 2)
                }
                (None, None, Some((days, e))) => (rec(Weekly, 1, days), e),
                _ => {
                    let e = p.seq(k, "work|working|business day")?;
                    (rec(Weekly, 1, WORKWEEK.to_vec()), e)
                }
            },
        }
    } else {
        let on = i > 0 && p.w(i - 1) == "on";
        let r = match p.w(i) {
            "daily" | "nightly" => (rec(Daily, 1, vec![]), i + 1),
            "weekly" => (rec(Weekly, 1, vec![]), i + 1),
            "biweekly" | "fortnightly" => (rec(Weekly, 2, vec![]), i + 1),
            "monthly" => (rec(Monthly, 1, vec![]), i + 1),
            "yearly" | "annually" => (rec(Yearly, 1, vec![]), i + 1),
            "weekdays" => (rec(Weekly, 1, WORKWEEK.to_vec()), i + 1),
            "weekends" => (rec(Weekly, 1, vec![Weekday::Sat, Weekday::Sun]), i + 1),
            "once" => {
                let e = p.seq(i, "once a|per week|month|year")?;
                let kind = match p.w(i + 2) {
                    "week" => Weekly,
                    "month" => Monthly,
                    _ => Yearly,
                };
                (rec(kind, 1, vec![]), e)
            }
            w => match weekday(w) {
                Some((_, true)) => {
                    let (days, e) = weekday_list(p, i)?;
                    (rec(Weekly, 1, days), e)
                }
                _ => return None,
            },
        };
        if on && (matches!(p.w(i), "weekdays" | "weekends") || weekday(p.w(i)).is_some()) {
            start = i - 1;
        }
        r
    };
    if r.kind == Weekly && r.weekdays.is_empty() && p.w(j) == "on" {
        if let Some((days, e)) = weekday_list(p, j + 1) {
            r.weekdays = days;
            j = e;
        }
    }
    if r.kind == Monthly {
        if let Some(e) = p.seq(j, "on the") {
            if let Some((d, _)) = day_num(p.w(e)) {
                md = Some(d);
                j = e + 1;
            }
        }
    }
    Some((r, md, start, j))
}

const PREPS: &[(&str, DateRole)] = &[
    ("on", DateRole::On),
    ("for", DateRole::On),
    ("to", DateRole::On),
    ("from", DateRole::On),
    ("starting", DateRole::On),
    ("by", DateRole::By),
    ("before", DateRole::By),
    ("due", DateRole::By),
    ("until", DateRole::Until),
    ("till", DateRole::Until),
    ("through", DateRole::Until),
];

fn read_dates(p: &mut Lexed, today: Date) -> Vec<DateReading> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < p.len() {
        let mut k = i;
        let mut role = None;
        while k < p.len() && k < i + 2 && p.free(k, k + 1) {
            match PREPS.iter().find(|(w, _)| *w == p.w(k)) {
                Some((_, r)) => {
                    role = role.or(Some(*r));
                    k += 1;
                }
                None => break,
            }
        }
        let got = date_at(p, k, today)
            .map(|hit| with_weekday(p, k, hit, today))
            .filter(|(_, _, e, _)| p.free(i, *e));
        match got {
            Some((date, through, e, contradicted_by)) => {
                out.push(DateReading {
                    date: date.to_string(),
                    through: through.map(|d| d.to_string()),
                    role: role.unwrap_or(DateRole::On),
                    span: p.span(i, e),
                    contradicted_by,
                });
                p.mark(i, e);
                i = e;
            }
            None => i += 1,
        }
    }
    out
}

type DateHit = (Date, Option<Date>, usize);

/// A date phrase at word `k` (without its preposition).
fn date_at(p: &Lexed, k: usize, today: Date) -> Option<DateHit> {
    let one = |n: i64, e: usize| Some((today.add_days(n), None, e));
    let ws = today.week_start();
    let w = p.w(k);
    match w {
        "today" | "tonight" | "tonite" => return one(0, k + 1),
        "tomorrow" | "tmrw" | "tmr" | "tomorow" => return one(1, k + 1),
        "yesterday" => return one(-1, k + 1),
        _ => {}
    }
    if let Some(e) = p
        .seq(k, "the day after tomorrow")
        .or(p.seq(k, "day after tomorrow"))
    {
        return one(2, e);
    }
    if let Some(e) = p
        .seq(k, "end of the|this month")
        .or(p.seq(k, "end of month"))
        .or(p.seq(k, "the end of the|this month"))
    {
        return Some((month_end(today), None, e));
    }
    if let Some(e) = p
        .seq(k, "end of next month")
        .or(p.seq(k, "the end of next month"))
    {
        return Some((month_end(add_months(today, 1)), None, e));
    }
    if let Some(e) = p
        .seq(k, "end of the|this year")
        .or(p.seq(k, "the end of the|this year"))
    {
        let (y, _, _) = today.ymd();
        return Some((Date::from_ymd(y, 12, 31)?, None, e));
    }
    let weekend = |sat: Date| {
        if today > sat {
            (today, Some(sat.add_days(1)))
        } else {
            (sat, Some(sat.add_days(1)))
        }
    };
    match (w, p.w(k + 1)) {
        ("next", "week") => return Some((ws.add_days(7), Some(ws.add_days(13)), k + 2)),
        ("next", "weekend") => return Some((ws.add_days(12), Some(ws.add_days(13)), k + 2)),
        ("next", "month") => {
            let first = add_months(today.add_days(1 - today.ymd().2 as i64), 1);
            return Some((first, Some(month_end(first)), k + 2));
        }
        ("this", "week") => return Some((today, Some(ws.add_days(6)), k + 2)),
        ("this" | "the", "weekend") => {
            let (a, b) = weekend(ws.add_days(5));
            return Some((a, b, k + 2));
        }
        ("weekend", _) => {
            let (a, b) = weekend(ws.add_days(5));
            return Some((a, b, k + 1));
        }
        ("next", x) => {
            if let Some((d, false)) = weekday(x) {
                return Some((ws.add_days(7 + wd_index(d)), None, k + 2));
            }
        }
        ("this", x) => {
            if let Some((d, false)) = weekday(x) {
                let this = ws.add_days(wd_index(d));
                let this = if this < today { this.add_days(7) } else { this };
                return Some((this, None, k + 2));
            }
            if x == "coming" {
                if let Some((d, false)) = weekday(p.w(k + 2)) {
                    return Some((strictly_after(today, d), None, k + 3));
                }
            }
        }
        ("coming", x) => {
            if let Some((d, false)) = weekday(x) {
                return Some((strictly_after(today, d), None, k + 2));
            }
        }
        ("the", x) => {
            if let Some((d, true)) = day_num(x) {
                return day_of_month(p, k + 1, d, today);
            }
        }
        _ => {}
    }
    if let Some((d, false)) = weekday(w) {
        return Some((strictly_after(today, d), None, k + 1));
    }
    // "in 3 days", "3 days from now", "a week from today"
    let span_of = |n: u32, unit: &str| -> Option<Date> {
        let n = n as i64;
        Some(match unit {
            "day" | "days" => today.add_days(n),
            "week" | "weeks" => today.add_days(7 * n),
            "month" | "months" => add_months(today, n),
            "year" | "years" => add_months(today, 12 * n),
            _ => return None,
        })
    };
    if w == "in" {
        if let Some(n) = count(p.w(k + 1)) {
            if let Some(d) = span_of(n, p.w(k + 2)) {
                return Some((d, None, k + 3));
            }
        }
    }
    if let Some(n) = count(w) {
        if let (Some(d), Some(e)) = (span_of(n, p.w(k + 1)), p.seq(k + 2, "from now|today")) {
            return Some((d, None, e));
        }
    }
    if let Some(m) = month(w) {
        if let Some((d, _)) = day_num(p.w(k + 1)) {
            return resolve_md(p, k + 2, m, d, today);
        }
    }
    if let Some((d, suffixed)) = day_num(w) {
        let mk = if p.w(k + 1) == "of" { k + 2 } else { k + 1 };
        if let Some(m) = month(p.w(mk)) {
            return resolve_md(p, mk + 1, m, d, today);
        }
        if suffixed {
            return day_of_month(p, k, d, today);
        }
    }
    if w.len() == 10 {
        if let Some(d) = Date::parse(w) {
            return Some((d, None, k + 1));
        }
    }
    None
}

fn strictly_after(today: Date, d: Weekday) -> Date {
    let ahead = (wd_index(d) - wd_index(today.weekday())).rem_euclid(7);
    today.add_days(if ahead == 0 { 7 } else { ahead })
}

/// "the 5th" (word `k` is the day), or "the 5th of December".
fn day_of_month(p: &Lexed, k: usize, d: u32, today: Date) -> Option<DateHit> {
    let mk = if p.w(k + 1) == "of" { k + 2 } else { k + 1 };
    if let Some(m) = month(p.w(mk)) {
        return resolve_md(p, mk + 1, m, d, today);
    }
    Some((next_month_day(today, d)?, None, k + 1))
}

/// Month `m`, day `d`, and a year at word `k` if one is there; a past date without a year rolls
/// to next year.
fn resolve_md(p: &Lexed, k: usize, m: u32, d: u32, today: Date) -> Option<DateHit> {
    let y: Option<i32> = {
        let s = p.w(k);
        (s.len() == 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
            .filter(|y| (1900..=2999).contains(y))
    };
    if let Some(y) = y {
        return Some((Date::from_ymd(y, m, d)?, None, k + 1));
    }
    let (ty, _, _) = today.ymd();
    let date = match Date::from_ymd(ty, m, d) {
        Some(x) if x >= today => x,
        _ => (1..=8).find_map(|n| Date::from_ymd(ty + n, m, d))?,
    };
    Some((date, None, k))
}

// A weekday and a calendar date said together ("Monday Dec 7", "Friday 12/4", "Dec 7
// (Monday)"): the calendar date wins, and a weekday it does not fall on is a contradiction.

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

const PRIORITY_PHRASES: &[(&str, Priority)] = &[
    ("not urgent|important", Priority::Low),
    ("low priority|prio", Priority::Low),
    ("priority to low", Priority::Low),
    ("priority low", Priority::Low),
    ("no rush|hurry", Priority::Low),
    ("whenever", Priority::Low),
    ("someday", Priority::Low),
    ("some day", Priority::Low),
    ("medium|normal priority|prio", Priority::Medium),
    ("priority to medium|normal", Priority::Medium),
    ("priority medium|normal", Priority::Medium),
    ("high|top priority|prio", Priority::High),
    ("priority to high", Priority::High),
    ("priority high", Priority::High),
    ("as soon as possible", Priority::High),
    ("urgent|urgently|asap|important|critical", Priority::High),
];

/// The first priority phrase.
pub(super) fn read_priority(p: &mut Lexed) -> Option<PriorityReading> {
    static OPENERS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    let opens = OPENERS.get_or_init(|| super::openers(PRIORITY_PHRASES.iter().map(|(p, _)| *p)));
    for i in 0..p.len() {
        if !opens.contains(p.w(i)) {
            continue;
        }
        for (pat, prio) in PRIORITY_PHRASES {
            if let Some(e) = p.seq(i, pat).filter(|e| p.free(i, *e)) {
                p.mark(i, e);
                return Some(PriorityReading {
                    priority: *prio,
                    span: p.span(i, e),
                });
            }
        }
    }
    None
}
