//! What the assistant writes to the user, in the user's language (issue 25): answers to
//! questions about the planner ([`super::answer`]), rule-based summaries ([`super::summary`]),
//! the notes on what code corrected in the model's answer ([`super::narrow::code_wins`]) and
//! short replies to small talk. Every sentence comes from a template of one table per language,
//! all in this folder; code fills in titles, dates, times and counts. Pure.
//!
//! | file | language |
//! |---|---|
//! | `phrasing/en.rs` | English |
//! | `phrasing/de.rs` | German |
//! | `phrasing/fr.rs` | French |
//! | `phrasing/es.rs` | Spanish |
//! | `phrasing/table.rs` | the shape of a language's table ([`Phrases`]) |
//!
//! Templates name their parts in braces (`{title}`, `{on_day}`); a part written with a capital
//! first letter (`{On_day}`) is filled capitalised, for the start of a sentence. Dates and times
//! in answers are written as people of the language write them ("Thursday, November 26 at 3
//! PM", "Donnerstag, 26. November um 15 Uhr", "jeudi 26 novembre à 15 h", "jueves 26 de
//! noviembre a las 15:00"); today, tomorrow and yesterday by their words. Summaries keep the
//! operations' own `YYYY-MM-DD` dates and `HH:MM` times, as the app shows them next to the
//! operations.

use crate::assistant::date::Date;
use crate::assistant::model::Weekday;
use crate::kernel::lang::Language;

mod de;
mod en;
mod es;
mod fr;
mod table;

pub(crate) use table::{Phrases, TimeStyle};

/// The templates of `lang`.
pub(crate) fn phrases(lang: Language) -> &'static Phrases {
    match lang {
        Language::En => &en::PHRASES,
        Language::De => &de::PHRASES,
        Language::Fr => &fr::PHRASES,
        Language::Es => &es::PHRASES,
    }
}

/// `s` with its first letter upper case.
pub(crate) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn weekday_index(w: Weekday) -> usize {
    Weekday::ALL.iter().position(|x| *x == w).unwrap_or(0)
}

impl Phrases {
    /// `template` with each `{name}` replaced by its value (`{Name}`: capitalised), then the
    /// language's contractions applied.
    pub(crate) fn fill(&self, template: &str, args: &[(&str, &str)]) -> String {
        let mut out = String::with_capacity(template.len() + 32);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                out.push_str(&rest[open..]);
                rest = "";
                break;
            };
            let key = &after[..close];
            let lower = key.to_lowercase();
            match args.iter().find(|(k, _)| *k == lower) {
                Some((_, v)) if key.starts_with(char::is_uppercase) => out.push_str(&capitalize(v)),
                Some((_, v)) => out.push_str(v),
                None => out.push_str(&rest[open..open + close + 2]),
            }
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        self.contract(&out)
    }

    /// The language's contractions applied outside quoted titles (a title keeps its words).
    fn contract(&self, s: &str) -> String {
        if self.contractions.is_empty() {
            return s.to_string();
        }
        let plain = |t: &str| {
            let mut t = t.to_string();
            for (from, to) in self.contractions {
                t = t.replace(from, to);
            }
            t
        };
        let mut out = String::with_capacity(s.len());
        let mut rest = s;
        while let Some(open) = rest.find(self.quote_open) {
            out.push_str(&plain(&rest[..open]));
            let inner = open + self.quote_open.len();
            let close = rest[inner..]
                .find(self.quote_close)
                .map_or(rest.len(), |c| inner + c + self.quote_close.len());
            out.push_str(&rest[open..close]);
            rest = &rest[close..];
        }
        out.push_str(&plain(rest));
        out
    }

    fn day_number(&self, d: u32) -> String {
        if d == 1 {
            self.day_one.to_string()
        } else {
            d.to_string()
        }
    }

    /// A calendar date without relative words ("Thursday, November 26").
    pub(crate) fn date(&self, d: Date) -> String {
        let (_, m, day) = d.ymd();
        self.fill(
            self.date,
            &[
                ("weekday", self.weekdays[weekday_index(d.weekday())]),
                ("day", &self.day_number(day)),
                ("month", self.months[m as usize - 1]),
            ],
        )
    }

    /// A day: "today", "tomorrow", "yesterday", else the date.
    pub(crate) fn day(&self, d: Date, today: Date) -> String {
        match today.days_until(d) {
            0 => self.today.into(),
            1 => self.tomorrow.into(),
            -1 => self.yesterday.into(),
            _ => self.date(d),
        }
    }

    /// A day after a verb: "today", else with its preposition ("on Thursday, November 26").
    pub(crate) fn on_day(&self, d: Date, today: Date) -> String {
        match today.days_until(d) {
            -1..=1 => self.day(d, today),
            _ => self.fill(self.on_date, &[("date", &self.date(d))]),
        }
    }

    /// A day in a list of days ("Mon 23").
    pub(crate) fn short_day(&self, d: Date) -> String {
        self.fill(
            self.short_day,
            &[
                ("wd", self.weekdays_short[weekday_index(d.weekday())]),
                ("day", &self.day_number(d.ymd().2)),
            ],
        )
    }

    /// A range of days: "this week", "next week", "this weekend", else its dates.
    pub(crate) fn range(&self, a: Date, b: Date, today: Date) -> String {
        let week = today.week_start();
        if (a, b) == (week, week.add_days(6)) {
            return self.this_week.into();
        }
        if (a, b) == (week.add_days(7), week.add_days(13)) {
            return self.next_week.into();
        }
        if b == week.add_days(6) && (a == week.add_days(5) || (a == today && a == b.add_days(-1))) {
            return self.this_weekend.into();
        }
        let ((_, m1, d1), (_, m2, d2)) = (a.ymd(), b.ymd());
        if m1 == m2 {
            self.fill(
                self.range_same_month,
                &[
                    ("d1", &self.day_number(d1)),
                    ("d2", &self.day_number(d2)),
                    ("month", self.months[m1 as usize - 1]),
                ],
            )
        } else {
            self.fill(
                self.range_months,
                &[
                    ("d1", &self.day_number(d1)),
                    ("m1", self.months[m1 as usize - 1]),
                    ("d2", &self.day_number(d2)),
                    ("m2", self.months[m2 as usize - 1]),
                ],
            )
        }
    }

    /// The name of a date's weekday.
    pub(crate) fn weekday(&self, d: Date) -> &'static str {
        self.weekdays[weekday_index(d.weekday())]
    }

    /// A weekday's short name ("Tue").
    pub(crate) fn weekday_short(&self, w: Weekday) -> &'static str {
        self.weekdays_short[weekday_index(w)]
    }

    /// A weekday's name after "every" ("mardis").
    pub(crate) fn weekday_plural(&self, w: Weekday) -> &'static str {
        self.weekdays_plural[weekday_index(w)]
    }

    /// A time of day (`HH:MM` in) as the language writes it; the input when unreadable.
    pub(crate) fn time(&self, hhmm: &str) -> String {
        let Some(mins) = crate::assistant::date::parse_time(hhmm) else {
            return hhmm.to_string();
        };
        let (h, m) = (mins / 60, mins % 60);
        match self.time_style {
            TimeStyle::Twelve => {
                let (h12, half) = match h {
                    0 => (12, "AM"),
                    1..=11 => (h, "AM"),
                    12 => (12, "PM"),
                    _ => (h - 12, "PM"),
                };
                if m == 0 {
                    format!("{h12} {half}")
                } else {
                    format!("{h12}:{m:02} {half}")
                }
            }
            TimeStyle::Uhr if m == 0 => format!("{h} Uhr"),
            TimeStyle::Uhr => format!("{h}:{m:02} Uhr"),
            TimeStyle::H if m == 0 => format!("{h} h"),
            TimeStyle::H => format!("{h} h {m:02}"),
            TimeStyle::Colon => format!("{h}:{m:02}"),
        }
    }

    /// " at 3 PM", or " from 3 PM to 4 PM" with an end; empty without a start.
    pub(crate) fn at(&self, start: Option<&str>, end: Option<&str>) -> String {
        match (start, end) {
            (Some(s), Some(e)) => self.fill(
                self.from_to,
                &[("start", &self.time(s)), ("end", &self.time(e))],
            ),
            (Some(s), None) => {
                let t = if parse_hour(s) == Some(1) && self.time_style == TimeStyle::Colon {
                    self.at_one
                } else {
                    self.at_time
                };
                self.fill(t, &[("time", &self.time(s))])
            }
            _ => String::new(),
        }
    }

    /// A title in the language's quotation marks.
    pub(crate) fn quote(&self, title: &str) -> String {
        format!("{}{}{}", self.quote_open, title, self.quote_close)
    }

    /// "a, b and c".
    pub(crate) fn list(&self, parts: &[String]) -> String {
        match parts {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => {
                let starts_i = {
                    let l = last.to_lowercase();
                    (l.starts_with('i') || l.starts_with("hi"))
                        && !l.starts_with("hie")
                        && !l.starts_with("hia")
                };
                let and = if starts_i {
                    self.and_before_i
                } else {
                    self.and
                };
                format!("{} {and} {last}", init.join(", "))
            }
        }
    }

    /// "1 thing", "4 things".
    pub(crate) fn count(&self, n: usize) -> String {
        if n == 1 {
            self.count_one.to_string()
        } else {
            self.fill(self.count_many, &[("n", &n.to_string())])
        }
    }
}

fn parse_hour(hhmm: &str) -> Option<u32> {
    crate::assistant::date::parse_time(hhmm).map(|m| m / 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    #[test]
    fn dates_and_times_as_each_language_writes_them() {
        let today = d("2026-11-23");
        let cases = [
            (
                Language::En,
                "on Thursday, November 26",
                "3 PM",
                " from 3 PM to 4:30 PM",
            ),
            (
                Language::De,
                "am Donnerstag, 26. November",
                "15 Uhr",
                " von 15 Uhr bis 16:30 Uhr",
            ),
            (
                Language::Fr,
                "le jeudi 26 novembre",
                "15 h",
                " de 15 h à 16 h 30",
            ),
            (
                Language::Es,
                "el jueves 26 de noviembre",
                "15:00",
                " de 15:00 a 16:30",
            ),
        ];
        for (lang, on, time, range) in cases {
            let p = phrases(lang);
            assert_eq!(p.on_day(d("2026-11-26"), today), on, "{lang}");
            assert_eq!(p.time("15:00"), time, "{lang}");
            assert_eq!(p.at(Some("15:00"), Some("16:30")), range, "{lang}");
            assert_eq!(p.on_day(today, today), p.today);
            assert_eq!(p.range(today, d("2026-11-29"), today), p.this_week);
            assert_eq!(
                p.range(d("2026-11-28"), d("2026-11-29"), today),
                p.this_weekend
            );
            assert_eq!(
                p.range(d("2026-11-30"), d("2026-12-06"), today),
                p.next_week
            );
        }
        let en = phrases(Language::En);
        assert_eq!(en.time("00:05"), "12:05 AM");
        assert_eq!(en.time("12:00"), "12 PM");
        assert_eq!(
            en.range(d("2026-11-24"), d("2026-11-26"), d("2026-11-23")),
            "November 24–26"
        );
        assert_eq!(
            phrases(Language::Fr).date(d("2026-12-01")),
            "mardi 1er décembre"
        );
        assert_eq!(phrases(Language::Es).at(Some("01:30"), None), " a la 1:30");
        assert_eq!(
            phrases(Language::Es).at(Some("13:00"), None),
            " a las 13:00"
        );
        assert_eq!(
            phrases(Language::Es).at(Some("15:00"), None),
            " a las 15:00"
        );
        assert_eq!(
            phrases(Language::De).range(d("2026-11-30"), d("2026-12-02"), d("2026-11-23")),
            "30. November – 2. Dezember"
        );
    }

    #[test]
    fn templates_fill_capitalise_join_and_contract() {
        let en = phrases(Language::En);
        assert_eq!(
            en.fill(
                "{On_day}: {x} {missing}",
                &[("on_day", "today"), ("x", "y")]
            ),
            "Today: y {missing}"
        );
        let parts = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(en.list(&parts(&["a", "b", "c"])), "a, b and c");
        assert_eq!(
            phrases(Language::Es).list(&parts(&["Correr", "Ir al banco"])),
            "Correr e Ir al banco"
        );
        assert_eq!(
            phrases(Language::Es).fill("Añadir {x} a {y}", &[("x", "algo"), ("y", "el objetivo")]),
            "Añadir algo al objetivo"
        );
        assert_eq!(en.count(1), "1 thing");
        assert_eq!(phrases(Language::De).count(3), "3 Einträge");
    }

    #[test]
    fn every_language_fills_every_template() {
        // A placeholder misspelt in one language would stay in the text: none may.
        for lang in Language::ALL {
            let p = phrases(lang);
            for t in [
                p.agenda_day,
                p.agenda_day_none,
                p.agenda_range,
                p.range_none,
                p.busy_day,
                p.busy_day_none,
                p.busy_range,
                p.left_day,
                p.left_day_none,
                p.left_range,
                p.left_range_none,
                p.overdue_item,
                p.when_on,
                p.when_past_open,
                p.when_done,
                p.when_repeats,
                p.when_repeats_ended,
                p.done_yes_on,
                p.done_no_on,
                p.done_yes_past,
                p.done_no_past,
                p.done_not_planned,
            ] {
                let filled = p.fill(
                    t,
                    &[
                        ("day", "x"),
                        ("on_day", "x"),
                        ("list", "x"),
                        ("range", "x"),
                        ("groups", "x"),
                        ("count", "x"),
                        ("weekday", "x"),
                        ("n", "1"),
                        ("title", "x"),
                        ("time", "x"),
                        ("rule", "x"),
                    ],
                );
                assert!(!filled.contains('{'), "{lang}: {t}");
            }
        }
    }
}
