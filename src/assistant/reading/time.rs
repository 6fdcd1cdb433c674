//! Times of day, ranges and durations of a message.
//!
//! "17:30", "5pm", "5:30 pm", "5 p.m.", "5 o'clock", "noon", "midday", "midnight"; a bare number
//! counts as a time only after "at", "from", "between", "around", "by" or inside a range. Without
//! am/pm, a 24-hour form ("17:30", "09:00") is read as is; otherwise "morning" in the message
//! means am and "afternoon", "evening", "night", "tonight", "dinner" mean pm; else 1 to 6 are pm
//! and 7 to 11 am ("at 5" is 17:00, "at 9" is 09:00), 12 is noon. Vague words ("in the morning")
//! alone set no time. Ranges: "from 2 to 3pm", "2-3pm", "between 2 and 3pm", "14:00-15:00"; a
//! side without am/pm takes the reading that puts the start before the end ("11 to 1pm" is
//! 11:00-13:00). Durations: "for 45 minutes", "for an hour", "for 2 hours", "for half an hour",
//! "for an hour and a half", "for 90 min": the end time is the start plus the duration (unset
//! past midnight).
//!

use super::{Lexed, TimeReading};

/// A clock reading before am/pm is settled.
#[derive(Clone, Copy)]
struct Clock {
    h: u32,
    m: u32,
    pm: Option<bool>,
    h24: bool,
    strong: bool,
}

impl Clock {
    /// Minutes after midnight with the rules of the module docs.
    fn resolve(self, hint: Option<bool>) -> u32 {
        let h = match self.pm {
            Some(true) => self.h % 12 + 12,
            Some(false) => self.h % 12,
            None if self.h24 || self.h == 0 || self.h >= 12 => self.h,
            None => match hint {
                Some(true) => self.h + 12,
                Some(false) => self.h,
                None if self.h <= 6 => self.h + 12,
                None => self.h,
            },
        };
        h * 60 + self.m
    }

    /// The readings this clock can have, earliest first.
    fn candidates(self) -> Vec<u32> {
        if self.pm.is_some() || self.h24 {
            return vec![self.resolve(None)];
        }
        let base = (self.h % 12) * 60 + self.m;
        vec![base, base + 720]
    }
}

fn clock_at(p: &Lexed, i: usize) -> Option<(Clock, usize)> {
    let s = p.w(i);
    match s {
        "noon" | "midday" => return Some((clock(12, 0, Some(true), true), i + 1)),
        "midnight" => return Some((clock(0, 0, None, true), i + 1)),
        _ => {}
    }
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == ':'))
        .unwrap_or(s.len());
    let (num, suf) = s.split_at(end);
    if num.is_empty() {
        return None;
    }
    let (h, m, colon) = match num.split_once(':') {
        Some((a, b)) if b.len() == 2 && !a.is_empty() && a.len() <= 2 => {
            (a.parse().ok()?, b.parse().ok()?, true)
        }
        None if num.len() <= 2 => (num.parse().ok()?, 0, false),
        _ => return None,
    };
    let mut j = i + 1;
    let mut pm = match suf {
        "" => None,
        "am" | "a" => Some(false),
        "pm" | "p" => Some(true),
        _ => return None,
    };
    let mut oclock = false;
    if suf.is_empty() {
        match (p.w(i + 1), p.w(i + 2)) {
            ("am", _) => (pm, j) = (Some(false), i + 2),
            ("pm", _) => (pm, j) = (Some(true), i + 2),
            ("a", "m") => (pm, j) = (Some(false), i + 3),
            ("p", "m") => (pm, j) = (Some(true), i + 3),
            ("o'clock" | "oclock", _) => (oclock, j) = (true, i + 2),
            _ => {}
        }
    }
    let h24 = h > 12 || h == 0 || (num.starts_with('0') && num.len() >= 2 && colon);
    let ok = m < 60
        && if pm.is_some() {
            (1..=12).contains(&h)
        } else {
            h < 24
        };
    ok.then(|| {
        let mut c = clock(h, m, pm, colon || pm.is_some() || oclock);
        c.h24 = h24;
        (c, j)
    })
}

fn clock(h: u32, m: u32, pm: Option<bool>, strong: bool) -> Clock {
    Clock {
        h,
        m,
        pm,
        h24: false,
        strong,
    }
}

fn hhmm(min: u32) -> String {
    format!("{:02}:{:02}", min / 60, min % 60)
}

/// "morning" hints am; "afternoon", "evening", "night", "tonight", "dinner" pm.
fn part_of_day(p: &Lexed) -> Option<bool> {
    p.t.iter().find_map(|t| match t.s.as_str() {
        "morning" | "breakfast" => Some(false),
        "afternoon" | "evening" | "night" | "tonight" | "tonite" | "dinner" | "supper" => {
            Some(true)
        }
        _ => None,
    })
}

/// "for 45 minutes", "for an hour and a half": minutes and end index (word `i` is "for").
fn duration_at(p: &Lexed, i: usize) -> Option<(u32, usize)> {
    if p.w(i) != "for" {
        return None;
    }
    if let Some(e) = p.seq(i + 1, "half an hour") {
        return Some((30, e));
    }
    let s = p.w(i + 1);
    let split = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit, mut e) = match (split, count(s)) {
        (_, Some(n)) => (n, p.w(i + 2), i + 3),
        (1.., None) => (count(&s[..split])?, &s[split..], i + 2),
        _ => return None,
    };
    let per = match unit {
        "hour" | "hours" | "hr" | "hrs" | "h" => 60,
        "minute" | "minutes" | "min" | "mins" | "m" => 1,
        _ => return None,
    };
    let mut total = n * per;
    if per == 60 {
        if let Some(end) = p.seq(e, "and a half") {
            total += 30;
            e = end;
        }
    }
    (total <= 24 * 60).then_some((total, e))
}

pub(super) fn read_time(p: &mut Lexed) -> Option<TimeReading> {
    let hint = part_of_day(p);
    let mut start: Option<(u32, Option<u32>, usize, usize)> = None;
    let mut duration: Option<(u32, usize, usize)> = None;
    let mut i = 0;
    while i < p.len() {
        if duration.is_none() {
            if let Some((mins, e)) = duration_at(p, i).filter(|(_, e)| p.free(i, *e)) {
                duration = Some((mins, i, e));
                p.mark(i, e);
                i = e;
                continue;
            }
        }
        if start.is_none() {
            if let Some((a, b, e)) = time_at(p, i, hint).filter(|(_, _, e)| p.free(i, *e)) {
                start = Some((a, b, i, e));
                p.mark(i, e);
                i = e;
                continue;
            }
        }
        i += 1;
    }
    if start.is_none() && duration.is_none() {
        return None;
    }
    let (lo, hi) = [start.map(|s| (s.2, s.3)), duration.map(|d| (d.1, d.2))]
        .into_iter()
        .flatten()
        .fold((usize::MAX, 0), |(lo, hi), (a, b)| (lo.min(a), hi.max(b)));
    let time = start.map(|s| s.0);
    let end = start.and_then(|s| s.1).or_else(|| {
        let (t, d) = (time?, duration?.0);
        (t + d < 24 * 60).then_some(t + d)
    });
    Some(TimeReading {
        time: time.map(hhmm),
        end_time: end.map(hhmm),
        duration_minutes: duration.map(|d| d.0),
        span: p.span(lo, hi),
    })
}

/// A time or range at word `i`: start, end, end index.
fn time_at(p: &Lexed, i: usize, hint: Option<bool>) -> Option<(u32, Option<u32>, usize)> {
    let pre = matches!(
        p.w(i),
        "at" | "from" | "between" | "around" | "by" | "@" | "after"
    );
    let k = if pre { i + 1 } else { i };
    let (c1, j) = clock_at(p, k)?;
    // a range: "to", "till", "until", "and" (after "between"), or a dash
    let conn = match p.w(j) {
        "to" | "till" | "until" | "til" => Some(j + 1),
        "and" if p.w(i) == "between" => Some(j + 1),
        _ if p.gap(j).trim() == "-" || p.gap(j).trim() == "–" => Some(j),
        _ => None,
    };
    if let Some((c2, e)) = conn.and_then(|c| clock_at(p, c)) {
        if c1.strong || c2.strong || pre {
            let (a, b) = if c2.pm.is_some() && c1.pm.is_none() && !c1.h24 {
                let b = c2.resolve(hint);
                let a = c1.candidates().into_iter().rev().find(|a| *a < b);
                (a.unwrap_or(c1.resolve(hint)), b)
            } else {
                let a = c1.resolve(hint);
                let b = c2.candidates().into_iter().find(|b| *b > a);
                (a, b.unwrap_or(c2.resolve(hint)))
            };
            return Some((a, (b > a).then_some(b), e));
        }
    }
    (c1.strong || pre).then(|| (c1.resolve(hint), None, j))
}

/// A count: digits or a number word ("a", "an", "one" ... "twelve").
pub(super) fn count(s: &str) -> Option<u32> {
    if !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()) {
        return s.parse().ok().filter(|n| *n > 0);
    }
    match s {
        "a" | "an" => Some(1),
        _ => crate::kernel::text::number_word(s).filter(|n| *n <= 12),
    }
}
