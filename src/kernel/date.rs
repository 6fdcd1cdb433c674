//! Calendar dates, days of the week and times of day, with no time zone: the app passes its local
//! date ("today") and everything is computed on civil dates. Pure functions, no clock. The
//! planner, meals, workouts and today's plan all count days with it; the assistant's recurrence
//! rules are built on it (`assistant/date.rs`).
//!
//! Wire formats: dates `YYYY-MM-DD`, times `HH:MM` (24 h).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A day of the week; on the wire `mon` ... `sun`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, uniffi::Enum,
)]
#[serde(rename_all = "lowercase")]
pub enum Weekday {
    /// Monday.
    Mon,
    /// Tuesday.
    Tue,
    /// Wednesday.
    Wed,
    /// Thursday.
    Thu,
    /// Friday.
    Fri,
    /// Saturday.
    Sat,
    /// Sunday.
    Sun,
}

impl Weekday {
    /// Monday to Sunday.
    pub const ALL: [Weekday; 7] = [
        Weekday::Mon,
        Weekday::Tue,
        Weekday::Wed,
        Weekday::Thu,
        Weekday::Fri,
        Weekday::Sat,
        Weekday::Sun,
    ];
}

/// A civil date (proleptic Gregorian).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Days since 1970-01-01 (negative before).
    days: i64,
}

impl Date {
    /// The date `y-m-d`, or `None` if it does not exist (e.g. 2026-02-29).
    pub fn from_ymd(y: i32, m: u32, d: u32) -> Option<Date> {
        if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) || !(1..=9999).contains(&y) {
            return None;
        }
        Some(Date {
            days: days_from_civil(y as i64, m, d),
        })
    }

    /// Parses exactly `YYYY-MM-DD`.
    pub fn parse(s: &str) -> Option<Date> {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let num = |r: std::ops::Range<usize>| -> Option<u32> {
            b[r.clone()]
                .iter()
                .all(u8::is_ascii_digit)
                .then(|| s[r].parse().ok())?
        };
        Date::from_ymd(num(0..4)? as i32, num(5..7)?, num(8..10)?)
    }

    /// The date of the Unix time `ms` shifted by `offset_minutes` (the app's UTC offset).
    pub fn from_unix_ms(ms: i64, offset_minutes: i32) -> Date {
        let local = ms + offset_minutes as i64 * 60_000;
        Date {
            days: local.div_euclid(86_400_000),
        }
    }

    /// Year, month (1-12), day (1-31).
    pub fn ymd(self) -> (i32, u32, u32) {
        civil_from_days(self.days)
    }

    /// Days since 1970-01-01.
    pub fn days_since_epoch(self) -> i64 {
        self.days
    }

    /// This date plus `n` days (`n` may be negative).
    pub fn add_days(self, n: i64) -> Date {
        Date {
            days: self.days + n,
        }
    }

    /// Days from `self` to `other` (positive when `other` is later).
    pub fn days_until(self, other: Date) -> i64 {
        other.days - self.days
    }

    /// The day of the week.
    pub fn weekday(self) -> Weekday {
        // 1970-01-01 was a Thursday.
        Weekday::ALL[(self.days + 3).rem_euclid(7) as usize]
    }

    /// The Monday of this date's Monday-to-Sunday week.
    pub fn week_start(self) -> Date {
        self.add_days(-((self.days + 3).rem_euclid(7)))
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.ymd();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// Parses exactly `HH:MM` (00:00 to 23:59) into minutes after midnight.
pub fn parse_time(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if b.len() != 5 || b[2] != b':' || !b[..2].iter().chain(&b[3..]).all(u8::is_ascii_digit) {
        return None;
    }
    let (h, m): (u32, u32) = (s[..2].parse().ok()?, s[3..].parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

fn is_leap(y: i32) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => 0,
    }
}

// Howard Hinnant's civil-date algorithms.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i32, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    ((if m <= 2 { y + 1 } else { y }) as i32, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    #[test]
    fn parse_format_roundtrip_and_rejects() {
        for s in [
            "1970-01-01",
            "2024-02-29",
            "2026-11-21",
            "0001-01-01",
            "9999-12-31",
        ] {
            assert_eq!(d(s).to_string(), s);
        }
        for s in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-1-01",
            "26-01-01",
            "2026/01/01",
            "",
            "2026-01-32",
            "+026-01-01",
        ] {
            assert_eq!(Date::parse(s), None, "{s}");
        }
        assert_eq!(d("1970-01-01").days_since_epoch(), 0);
        assert_eq!(d("2000-03-01").days_since_epoch(), 11_017);
    }

    #[test]
    fn weekdays_and_weeks() {
        assert_eq!(d("2026-11-21").weekday(), Weekday::Sat);
        assert_eq!(d("2026-11-23").weekday(), Weekday::Mon);
        assert_eq!(d("2026-11-21").week_start(), d("2026-11-16"));
        assert_eq!(d("2026-11-16").week_start(), d("2026-11-16"));
        assert_eq!(d("2026-11-22").week_start(), d("2026-11-16"));
        assert_eq!(
            Date::from_unix_ms(1_795_219_200_000 + 3_600_000, 0),
            d("2026-11-21")
        );
        assert_eq!(
            Date::from_unix_ms(1_795_219_200_000 + 3_600_000, -120),
            d("2026-11-20")
        );
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("00:00"), Some(0));
        assert_eq!(parse_time("23:59"), Some(1439));
        for s in ["24:00", "9:00", "09:60", "09:00:00", "ab:cd", ""] {
            assert_eq!(parse_time(s), None, "{s}");
        }
    }
}
