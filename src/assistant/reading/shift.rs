//! Changes relative to an item's stored day or time: "an hour later", "30 minutes earlier", "a
//! day later", "back a week", "out two weeks", "forward a day", "earlier by 20 min", "push the
//! dentist 90 min". Pure; the narrowed path computes the new day or time from the item's.
//!
//! - An amount: a count ("2", "two", "a", "an", "a couple of"), "half an hour", "an hour and a
//!   half", or digits with a unit glued on ("90min", "2h").
//! - Units: minutes ("min", "mins", "minute(s)"), hours ("h", "hr", "hrs", "hour(s)"), days,
//!   weeks (7 days), months.
//! - The direction: "later" (after the amount, or before it with "by"), "back" and "out" (before
//!   it) move later; "earlier" and "sooner" (after, or before with "by"), "forward" and "up"
//!   (before) move earlier. Without a direction word, an amount at the end of a message with
//!   "push", "delay", "postpone" or "bump" moves later ("postpone the report a week").
//! - "in 3 days" and "3 days from now" are dates, "for 2 hours" a duration: not shifts.

use super::time::count;
use super::{Lexed, ShiftReading};

/// An amount of time: minutes, days or months.
#[derive(Clone, Copy)]
struct Amount {
    minutes: i32,
    days: i32,
    months: i32,
}

/// What a unit word counts.
fn unit(w: &str) -> Option<Amount> {
    let a = |minutes, days, months| Amount {
        minutes,
        days,
        months,
    };
    Some(match w {
        "min" | "mins" | "minute" | "minutes" => a(1, 0, 0),
        "h" | "hr" | "hrs" | "hour" | "hours" => a(60, 0, 0),
        "day" | "days" => a(0, 1, 0),
        "week" | "weeks" | "wk" | "wks" => a(0, 7, 0),
        "month" | "months" => a(0, 0, 1),
        _ => return None,
    })
}

fn times(u: Amount, n: i32) -> Amount {
    Amount {
        minutes: u.minutes * n,
        days: u.days * n,
        months: u.months * n,
    }
}

/// An amount starting at word `i`, and the index after it.
fn amount_at(p: &Lexed, i: usize) -> Option<(Amount, usize)> {
    if let Some(e) = p.seq(i, "half an hour") {
        return Some((times(unit("min")?, 30), e));
    }
    let (n, k) = match (p.w(i), p.w(i + 1)) {
        ("a", "couple") => (2, if p.w(i + 2) == "of" { i + 3 } else { i + 2 }),
        ("couple", _) => (2, if p.w(i + 1) == "of" { i + 2 } else { i + 1 }),
        (w, _) => match count(w) {
            Some(n) => (n, i + 1),
            None => {
                // "90min", "2h"
                let w = p.w(i);
                let split = w.find(|c: char| !c.is_ascii_digit()).filter(|s| *s > 0)?;
                let n: i32 = w[..split].parse().ok()?;
                let u = unit(&w[split..])?;
                return Some((times(u, n), i + 1));
            }
        },
    };
    let u = unit(p.w(k))?;
    let mut total = times(u, n as i32);
    let mut e = k + 1;
    if u.minutes == 60 {
        if let Some(end) = p.seq(e, "and a half") {
            total.minutes += 30;
            e = end;
        }
    }
    // "3 days from now" is a date.
    if p.seq(e, "from now|today").is_some() || p.w(e) == "ago" {
        return None;
    }
    Some((total, e))
}

/// The first relative change of the message; marks its words.
pub(super) fn read_shift(p: &mut Lexed) -> Option<ShiftReading> {
    let (sign, start, end) = find(p)?;
    let (amount, _) = amount_in(p, start, end)?;
    if !p.free(start, end) {
        return None;
    }
    p.mark(start, end);
    Some(ShiftReading {
        minutes: sign * amount.minutes,
        days: sign * amount.days,
        months: sign * amount.months,
        span: p.span(start, end),
    })
}

/// The amount inside words `start..end` (the direction words around it skipped).
fn amount_in(p: &Lexed, start: usize, end: usize) -> Option<(Amount, usize)> {
    (start..end).find_map(|i| amount_at(p, i).filter(|(_, e)| *e <= end))
}

/// Verbs that move an item: with them, "back", "out", "forward" and "up" are directions.
const MOVERS: &[&str] = &[
    "push",
    "pushed",
    "move",
    "moved",
    "bump",
    "bring",
    "shift",
    "delay",
    "postpone",
    "put",
    "reschedule",
];

/// The sign and word range of the first shift phrase.
fn find(p: &Lexed) -> Option<(i32, usize, usize)> {
    let moves = p.t.iter().any(|t| MOVERS.contains(&t.s.as_str()));
    let before = |w: &str| match w {
        "later" => Some(1),
        "earlier" | "sooner" => Some(-1),
        "back" | "out" if moves => Some(1),
        "forward" | "up" if moves => Some(-1),
        _ => None,
    };
    for i in 0..p.len() {
        // "an hour later", "30 minutes earlier"
        if let Some((_, e)) = amount_at(p, i) {
            let sign = match p.w(e) {
                "later" => Some(1),
                "earlier" | "sooner" => Some(-1),
                _ => None,
            };
            if let Some(s) = sign.filter(|_| !matches!(p.w(i.wrapping_sub(1)), "in" | "for")) {
                return Some((s, i, e + 1));
            }
        }
        // "back a week", "out two weeks", "forward a day", "later by an hour"
        if let Some(s) = before(p.w(i)) {
            let k = if p.w(i + 1) == "by" { i + 2 } else { i + 1 };
            if let Some((_, e)) = amount_at(p, k) {
                return Some((s, i, e));
            }
        }
    }
    // "postpone the report a week", "push the dentist by 90 min": an amount at the end.
    let pushes =
        p.t.iter()
            .any(|t| matches!(t.s.as_str(), "push" | "delay" | "postpone" | "bump"));
    if !pushes {
        return None;
    }
    (0..p.len()).find_map(|i| {
        let k = if p.w(i) == "by" { i + 1 } else { i };
        let (_, e) = amount_at(p, k)?;
        let free_standing = !matches!(p.w(i.wrapping_sub(1)), "in" | "for") && p.w(i) != "in";
        (e == p.len() && free_standing).then_some((1, i, e))
    })
}
