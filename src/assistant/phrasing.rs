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

/// How a language writes a time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeStyle {
    /// `3 PM`, `6:30 PM` (12-hour clock).
    Twelve,
    /// `15 Uhr`, `15:30 Uhr`.
    Uhr,
    /// `15 h`, `15 h 30`.
    H,
    /// `15:00`.
    Colon,
}

/// One language's templates (see the module docs for the placeholders).
pub(crate) struct Phrases {
    // Calendar words.
    pub weekdays: [&'static str; 7],
    pub weekdays_short: [&'static str; 7],
    /// Weekday names after "every" (French "lundis", Spanish "sábados").
    pub weekdays_plural: [&'static str; 7],
    pub months: [&'static str; 12],
    /// The first day of a month (French "1er").
    pub day_one: &'static str,
    pub today: &'static str,
    pub tomorrow: &'static str,
    pub yesterday: &'static str,
    pub this_week: &'static str,
    pub next_week: &'static str,
    pub this_weekend: &'static str,
    /// A date: `{weekday}`, `{day}`, `{month}`.
    pub date: &'static str,
    /// A date after its preposition: `{date}` ("on {date}", "am {date}").
    pub on_date: &'static str,
    /// One day's entries in a range: `{day}` (its short form), `{list}`.
    pub day_group: &'static str,
    /// A day in a list of days: `{wd}` (short weekday), `{day}`.
    pub short_day: &'static str,
    /// A range within one month: `{d1}`, `{d2}`, `{month}`.
    pub range_same_month: &'static str,
    /// A range over months: `{d1}`, `{m1}`, `{d2}`, `{m2}`.
    pub range_months: &'static str,
    pub time_style: TimeStyle,
    /// After an item: `{time}`.
    pub at_time: &'static str,
    /// Spanish "a la 1:00" (the hour 1 is singular); else as `at_time`.
    pub at_one: &'static str,
    /// After an item: `{start}`, `{end}`.
    pub from_to: &'static str,
    /// The last joint of a list ("and").
    pub and: &'static str,
    /// The last joint before a word starting with an i sound (Spanish "e"); else as `and`.
    pub and_before_i: &'static str,
    pub quote_open: &'static str,
    pub quote_close: &'static str,
    /// Words merged after filling (Spanish "a el" is "al").
    pub contractions: &'static [(&'static str, &'static str)],

    // Answers.
    pub count_one: &'static str,
    pub count_many: &'static str,
    pub done_mark: &'static str,
    pub agenda_day: &'static str,
    pub agenda_day_none: &'static str,
    pub agenda_range: &'static str,
    pub range_none: &'static str,
    pub repeating: &'static str,
    pub every_day_in_range: &'static str,
    pub busy_day: &'static str,
    pub busy_day_none: &'static str,
    pub busy_range: &'static str,
    pub left_day: &'static str,
    pub left_day_none: &'static str,
    pub left_range: &'static str,
    pub left_range_none: &'static str,
    pub overdue: &'static str,
    pub overdue_item: &'static str,
    pub overdue_none: &'static str,
    pub not_found: &'static str,
    pub when_on: &'static str,
    pub when_past_open: &'static str,
    pub when_done: &'static str,
    pub when_undated: &'static str,
    pub when_repeats: &'static str,
    pub when_repeats_ended: &'static str,
    pub done_yes: &'static str,
    pub done_no: &'static str,
    pub done_yes_on: &'static str,
    pub done_no_on: &'static str,
    pub done_yes_past: &'static str,
    pub done_no_past: &'static str,
    pub done_not_planned: &'static str,
    pub every_day: &'static str,
    pub every_n_days: &'static str,
    pub every_weekdays: &'static str,
    pub every_n_weeks_on: &'static str,
    pub every_month: &'static str,
    pub every_n_months: &'static str,
    pub every_year: &'static str,
    pub every_n_years: &'static str,

    // Small talk, when the model's reply cannot be used.
    pub reply_thanks: &'static str,
    pub reply_hello: &'static str,
    pub reply_other: &'static str,

    // Rule-based summaries.
    /// A kind before an item's title (todo, event, habit, goal).
    pub kind_named: [&'static str; 4],
    /// An item of a kind whose title is unknown ("a todo").
    pub kind_some: [&'static str; 4],
    /// Recurrence words (once, daily, weekly, monthly, yearly).
    pub recurrence: [&'static str; 5],
    /// Priorities (high, medium, low).
    pub priorities: [&'static str; 3],
    pub s_create: &'static str,
    pub s_on: &'static str,
    pub s_at: &'static str,
    pub s_repeating: &'static str,
    pub s_with_items: &'static str,
    pub s_update: &'static str,
    pub s_update_changes: &'static str,
    pub c_title: &'static str,
    pub c_date: &'static str,
    pub c_time: &'static str,
    pub c_priority: &'static str,
    pub c_repeats: &'static str,
    pub c_notes: &'static str,
    pub s_delete: &'static str,
    pub s_complete: &'static str,
    pub s_complete_on: &'static str,
    pub s_add_item: &'static str,
    pub s_add_items: &'static str,
    pub s_remove_item: &'static str,
    pub s_remove_some_item: &'static str,
    pub s_add_child: &'static str,
    pub s_remove_child: &'static str,
    pub s_more_one: &'static str,
    pub s_more_many: &'static str,
    pub s_invalid_one: &'static str,
    pub s_invalid_many: &'static str,
    pub s_none: &'static str,
    pub s_no_model: &'static str,
    pub s_corrected: &'static str,

    // What code corrected in the model's answer.
    pub r_date: &'static str,
    pub r_time: &'static str,
    pub r_end: &'static str,
    pub r_end_dropped: &'static str,
    pub r_default_option: &'static str,
    pub r_title_kept: &'static str,
    pub r_no_title: &'static str,
}

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
