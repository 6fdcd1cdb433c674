//! Answers to questions about the planner, made by code (issue 25): a [`Question`] read from the
//! message ([`crate::assistant::reading::read_question`]), `today` and the user's items (done ones
//! and completions included) come in; a [`PlannerAnswer`] comes out, its text from the templates
//! of the user's language (`phrasing.rs`) and its items in the order the text names them.
//! Pure: no store, no model, no clock.
//!
//! ## What each question names
//! - **Agenda** (a day or a range): every todo, event and habit with an occurrence in it, done or
//!   not (a done one is marked so); repeating items expanded day by day from their
//!   `scheduledFor` as the week snapshot does ([`super::week`]); goals and undated todos never.
//!   One day lists its entries in order (by time, untimed last, then priority, title); a range of
//!   up to [`GROUPED_DAYS`] days lists them day by day; a longer range lists one-off items day by
//!   day and then each repeating item once, with the days it occurs ("Meditate (every day)").
//! - **Busy**: the same items, after how many entries there are (and, for a range, the busiest
//!   day).
//! - **Left**: the entries of the days asked (today by default, never before today) not done:
//!   a todo or event not completed, a repeating item's occurrence not completed.
//! - **Overdue**: todos and events, not repeating, not completed, dated before today (missed
//!   occurrences of repeating items are not counted), oldest first.
//! - **When**: the item(s) asked about: a one-off item's date and time (and whether it is done or
//!   past due), an undated todo's lack of a date, a repeating item's rule, time and next open
//!   occurrence (from the days asked about, else from today).
//! - **Done**: whether the item asked about is done: a one-off item's `completed`; a repeating
//!   item's occurrence on the day asked about, else today's, else its last one before today.
//! - A when or done question whose item is not in the planner is answered "not found" and names
//!   nothing.
//!
//! Each [`AnswerItem`] carries the item's id, kind and title, the date the answer is about (the
//! occurrence's date for a repeating item; the item's own date, or none, for the rest) and its
//! time. An item is named once, at its first mention, even when a range holds several of its
//! occurrences.

use std::collections::HashSet;

use super::date::{occurrences, occurs_on, Date};
use super::model::{AnswerItem, ItemKind, PlannerAnswer, PlannerItem, RecurrenceType, Weekday};
use super::phrasing::{phrases, Phrases};
use super::reading::{Asks, Question};
use super::week::day_order;
use crate::kernel::lang::Language;

/// Ranges of at most this many days list every entry day by day.
pub const GROUPED_DAYS: i64 = 3;
/// How far before or after a day an answer looks for a repeating item's occurrence.
const SEARCH_DAYS: i64 = 400;

/// The answer to `q` as of `today` from the user's `items`, written in `lang` (see the module
/// docs).
pub fn answer(q: &Question, today: Date, items: &[PlannerItem], lang: Language) -> PlannerAnswer {
    let mut w = Writer {
        p: phrases(lang),
        today,
        named: Vec::new(),
        seen: HashSet::new(),
    };
    let text = match (q.asks, q.days) {
        (Asks::Agenda, Some((a, b))) => w.agenda(&entries(items, a, b, &q.kinds), a, b),
        (Asks::Busy, Some((a, b))) => w.busy(&entries(items, a, b, &q.kinds), a, b),
        (Asks::Left, days) => {
            let (a, b) = days.unwrap_or((today, today));
            let open: Vec<Entry> = entries(items, a, b, &q.kinds)
                .into_iter()
                .filter(|e| !e.done)
                .collect();
            w.left(&open, a, b)
        }
        (Asks::Overdue, _) => w.overdue(items, &q.kinds),
        (Asks::When | Asks::Done, days) => {
            let found: Vec<&PlannerItem> = q
                .items
                .iter()
                .filter_map(|m| items.iter().find(|it| it.id == m.id && it.kind == m.kind))
                .collect();
            if found.is_empty() {
                w.p.not_found.to_string()
            } else {
                let sentences: Vec<String> = found
                    .iter()
                    .map(|it| match q.asks {
                        Asks::When => w.when(it, days),
                        _ => w.done(it, days),
                    })
                    .collect();
                sentences.join(" ")
            }
        }
        // Agenda and busy questions always carry days (the reader defaults them).
        (Asks::Agenda | Asks::Busy, None) => {
            w.agenda(&entries(items, today, today, &q.kinds), today, today)
        }
    };
    PlannerAnswer {
        text,
        items: w.named,
    }
}

/// One occurrence of an item on a day.
#[derive(Debug, Clone, Copy)]
struct Entry<'a> {
    date: Date,
    item: &'a PlannerItem,
    done: bool,
}

/// Every occurrence in `a..=b` of the todos, events and habits of `kinds` (all when empty),
/// ordered by date, time (untimed last), priority (high first), title, id.
fn entries<'a>(items: &'a [PlannerItem], a: Date, b: Date, kinds: &[ItemKind]) -> Vec<Entry<'a>> {
    let mut out = Vec::new();
    for item in items {
        if item.kind == ItemKind::Goal || !(kinds.is_empty() || kinds.contains(&item.kind)) {
            continue;
        }
        let Some(anchor) = item.scheduled_for.as_deref().and_then(Date::parse) else {
            continue;
        };
        if item.recurrence.repeats() {
            for date in occurrences(&item.recurrence, anchor, a, b) {
                let done = item.completed_occurrences.contains(&date.to_string());
                out.push(Entry { date, item, done });
            }
        } else if (a..=b).contains(&anchor) {
            out.push(Entry {
                date: anchor,
                item,
                done: item.completed,
            });
        }
    }
    out.sort_by(|x, y| x.date.cmp(&y.date).then_with(|| day_order(x.item, y.item)));
    out
}

/// Writes an answer's text and records the items it names, in order.
struct Writer {
    p: &'static Phrases,
    today: Date,
    named: Vec<AnswerItem>,
    seen: HashSet<String>,
}

impl Writer {
    /// Records `item` as named (once), about `date`.
    fn name(&mut self, item: &PlannerItem, date: Option<Date>) {
        if self.seen.insert(item.id.clone()) {
            self.named.push(AnswerItem {
                id: item.id.clone(),
                kind: item.kind,
                title: item.title.clone(),
                scheduled_for: date
                    .map(|d| d.to_string())
                    .or_else(|| item.scheduled_for.clone()),
                time_of_day: item.time_of_day.clone(),
            });
        }
    }

    /// "Team meeting at 10 AM", "Book concert tickets (done)".
    fn line(&mut self, e: &Entry) -> String {
        self.name(e.item, Some(e.date));
        let mut s = format!(
            "{}{}",
            e.item.title,
            self.p.at(e.item.time_of_day.as_deref(), None)
        );
        if e.done {
            s.push_str(self.p.done_mark);
        }
        s
    }

    fn lines(&mut self, entries: &[Entry]) -> String {
        let parts: Vec<String> = entries.iter().map(|e| self.line(e)).collect();
        self.p.list(&parts)
    }

    /// The entries of a range: day by day ("Mon 23: a, b."), and for a long range the repeating
    /// items once after the days.
    fn groups(&mut self, entries: &[Entry], a: Date, b: Date) -> String {
        let long = a.days_until(b) >= GROUPED_DAYS;
        let (days, repeating): (Vec<&Entry>, Vec<&Entry>) = entries
            .iter()
            .partition(|e| !long || !e.item.recurrence.repeats());
        let mut out: Vec<String> = Vec::new();
        let mut i = 0;
        while i < days.len() {
            let date = days[i].date;
            let j = i + days[i..].iter().take_while(|e| e.date == date).count();
            let day: Vec<Entry> = days[i..j].iter().map(|e| **e).collect();
            let list = self.lines(&day);
            let day = self.p.short_day(date);
            out.push(
                self.p
                    .fill(self.p.day_group, &[("day", &day), ("list", &list)]),
            );
            i = j;
        }
        if !repeating.is_empty() {
            let span = (a.days_until(b) + 1) as usize;
            let mut order: Vec<&PlannerItem> = Vec::new();
            for e in &repeating {
                if !order.iter().any(|it| it.id == e.item.id) {
                    order.push(e.item);
                }
            }
            let mut parts = Vec::new();
            for item in order {
                let dates: Vec<Date> = repeating
                    .iter()
                    .filter(|e| e.item.id == item.id)
                    .map(|e| e.date)
                    .collect();
                self.name(item, dates.first().copied());
                let when = if dates.len() == span {
                    self.p.every_day_in_range.to_string()
                } else {
                    let mut wds: Vec<&str> = Vec::new();
                    for d in &dates {
                        let w = self.p.weekday_short(d.weekday());
                        if !wds.contains(&w) {
                            wds.push(w);
                        }
                    }
                    wds.join(", ")
                };
                parts.push(format!(
                    "{} ({when}{})",
                    item.title,
                    self.p.at(item.time_of_day.as_deref(), None)
                ));
            }
            out.push(
                self.p
                    .fill(self.p.repeating, &[("list", &self.p.list(&parts))]),
            );
        }
        out.join(" ")
    }

    fn agenda(&mut self, entries: &[Entry], a: Date, b: Date) -> String {
        let p = self.p;
        if a == b {
            if entries.is_empty() {
                return p.fill(p.agenda_day_none, &[("on_day", &p.on_day(a, self.today))]);
            }
            let list = self.lines(entries);
            return p.fill(
                p.agenda_day,
                &[("day", &p.day(a, self.today)), ("list", &list)],
            );
        }
        let range = p.range(a, b, self.today);
        if entries.is_empty() {
            return p.fill(p.range_none, &[("range", &range)]);
        }
        let groups = self.groups(entries, a, b);
        p.fill(p.agenda_range, &[("range", &range), ("groups", &groups)])
    }

    fn busy(&mut self, entries: &[Entry], a: Date, b: Date) -> String {
        let p = self.p;
        let count = p.count(entries.len());
        if a == b {
            let on_day = p.on_day(a, self.today);
            if entries.is_empty() {
                return p.fill(p.busy_day_none, &[("on_day", &on_day)]);
            }
            let list = self.lines(entries);
            return p.fill(
                p.busy_day,
                &[("on_day", &on_day), ("count", &count), ("list", &list)],
            );
        }
        let range = p.range(a, b, self.today);
        if entries.is_empty() {
            return p.fill(p.range_none, &[("range", &range)]);
        }
        let mut busiest = (entries[0].date, 0);
        let mut i = 0;
        while i < entries.len() {
            let date = entries[i].date;
            let n = entries[i..].iter().take_while(|e| e.date == date).count();
            if n > busiest.1 {
                busiest = (date, n);
            }
            i += n;
        }
        let groups = self.groups(entries, a, b);
        p.fill(
            p.busy_range,
            &[
                ("range", &range),
                ("count", &count),
                ("weekday", p.weekday(busiest.0)),
                ("n", &busiest.1.to_string()),
                ("groups", &groups),
            ],
        )
    }

    fn left(&mut self, open: &[Entry], a: Date, b: Date) -> String {
        let p = self.p;
        if a == b {
            let on_day = p.on_day(a, self.today);
            if open.is_empty() {
                return p.fill(p.left_day_none, &[("on_day", &on_day)]);
            }
            let list = self.lines(open);
            return p.fill(p.left_day, &[("on_day", &on_day), ("list", &list)]);
        }
        let range = p.range(a, b, self.today);
        if open.is_empty() {
            return p.fill(p.left_range_none, &[("range", &range)]);
        }
        let groups = self.groups(open, a, b);
        p.fill(p.left_range, &[("range", &range), ("groups", &groups)])
    }

    fn overdue(&mut self, items: &[PlannerItem], kinds: &[ItemKind]) -> String {
        let p = self.p;
        let mut late: Vec<(Date, &PlannerItem)> = items
            .iter()
            .filter(|it| matches!(it.kind, ItemKind::Todo | ItemKind::Event))
            .filter(|it| kinds.is_empty() || kinds.contains(&it.kind))
            .filter(|it| !it.completed && !it.recurrence.repeats())
            .filter_map(|it| Some((Date::parse(it.scheduled_for.as_deref()?)?, it)))
            .filter(|(d, _)| *d < self.today)
            .collect();
        late.sort_by(|x, y| x.0.cmp(&y.0).then_with(|| x.1.title.cmp(&y.1.title)));
        if late.is_empty() {
            return p.overdue_none.to_string();
        }
        let parts: Vec<String> = late
            .iter()
            .map(|(d, it)| {
                self.name(it, Some(*d));
                p.fill(
                    p.overdue_item,
                    &[
                        ("title", &it.title),
                        ("on_day", &p.on_day(*d, self.today)),
                        ("day", &p.day(*d, self.today)),
                    ],
                )
            })
            .collect();
        p.fill(p.overdue, &[("list", &p.list(&parts))])
    }

    fn when(&mut self, it: &PlannerItem, days: Option<(Date, Date)>) -> String {
        let p = self.p;
        let title = p.quote(&it.title);
        let anchor = it.scheduled_for.as_deref().and_then(Date::parse);
        let Some(anchor) = anchor else {
            self.name(it, None);
            return p.fill(p.when_undated, &[("title", &title)]);
        };
        if it.recurrence.repeats() {
            let from = days.map_or(self.today, |(a, _)| a).max(anchor);
            let next = (0..SEARCH_DAYS).map(|n| from.add_days(n)).find(|d| {
                occurs_on(&it.recurrence, anchor, *d)
                    && !it.completed_occurrences.contains(&d.to_string())
            });
            let rule = self.rule(it, anchor);
            let time = p.at(it.time_of_day.as_deref(), None);
            self.name(it, next.or(Some(anchor)));
            return match next {
                Some(d) => p.fill(
                    p.when_repeats,
                    &[
                        ("title", &title),
                        ("rule", &rule),
                        ("time", &time),
                        ("day", &p.day(d, self.today)),
                    ],
                ),
                None => p.fill(
                    p.when_repeats_ended,
                    &[("title", &title), ("rule", &rule), ("time", &time)],
                ),
            };
        }
        self.name(it, Some(anchor));
        let time = match it.kind {
            ItemKind::Event => p.at(it.time_of_day.as_deref(), it.end_time.as_deref()),
            _ => p.at(it.time_of_day.as_deref(), None),
        };
        let on_day = p.on_day(anchor, self.today);
        let args = [
            ("title", title.as_str()),
            ("on_day", &on_day),
            ("time", &time),
        ];
        if it.completed {
            p.fill(p.when_done, &args)
        } else if anchor < self.today {
            p.fill(p.when_past_open, &args)
        } else {
            p.fill(p.when_on, &args)
        }
    }

    fn done(&mut self, it: &PlannerItem, days: Option<(Date, Date)>) -> String {
        let p = self.p;
        let title = p.quote(&it.title);
        let anchor = it.scheduled_for.as_deref().and_then(Date::parse);
        let (true, Some(anchor)) = (it.recurrence.repeats(), anchor) else {
            self.name(it, anchor);
            let t = if it.completed { p.done_yes } else { p.done_no };
            return p.fill(t, &[("title", &title)]);
        };
        let occurs = |d: Date| occurs_on(&it.recurrence, anchor, d);
        let day = match days {
            Some((a, _)) => a,
            None if occurs(self.today) => self.today,
            None => (1..SEARCH_DAYS)
                .map(|n| self.today.add_days(-n))
                .find(|d| occurs(*d))
                .unwrap_or(self.today),
        };
        self.name(it, Some(day));
        let on_day = p.on_day(day, self.today);
        let args = [("title", title.as_str()), ("on_day", &on_day)];
        let past = day < self.today;
        let t = match (
            occurs(day),
            it.completed_occurrences.contains(&day.to_string()),
        ) {
            (false, _) => p.done_not_planned,
            (true, true) if past => p.done_yes_past,
            (true, true) => p.done_yes_on,
            (true, false) if past => p.done_no_past,
            (true, false) => p.done_no_on,
        };
        p.fill(t, &args)
    }

    /// A repeating item's rule: "every day", "every Monday, Wednesday and Friday".
    fn rule(&self, it: &PlannerItem, anchor: Date) -> String {
        let p = self.p;
        let r = &it.recurrence;
        let n = r.interval.unwrap_or(1).max(1);
        let ns = n.to_string();
        match r.kind {
            RecurrenceType::Daily if n == 1 => p.every_day.into(),
            RecurrenceType::Daily => p.fill(p.every_n_days, &[("n", &ns)]),
            RecurrenceType::Weekly => {
                let mut wds: Vec<Weekday> = if r.weekdays.is_empty() {
                    vec![anchor.weekday()]
                } else {
                    r.weekdays.clone()
                };
                wds.sort();
                wds.dedup();
                if wds.len() == 7 && n == 1 {
                    return p.every_day.into();
                }
                let names: Vec<String> = wds
                    .iter()
                    .map(|w| p.weekday_plural(*w).to_string())
                    .collect();
                let days = p.list(&names);
                if n == 1 {
                    p.fill(p.every_weekdays, &[("days", &days)])
                } else {
                    p.fill(p.every_n_weeks_on, &[("n", &ns), ("days", &days)])
                }
            }
            RecurrenceType::Monthly if n == 1 => p.every_month.into(),
            RecurrenceType::Monthly => p.fill(p.every_n_months, &[("n", &ns)]),
            RecurrenceType::Yearly if n == 1 => p.every_year.into(),
            RecurrenceType::Yearly => p.fill(p.every_n_years, &[("n", &ns)]),
            RecurrenceType::None => p.date(anchor),
        }
    }
}

#[cfg(test)]
mod tests;
