//! The checks of an operation's fields, by kind of operation (see [`super`] for the repairs and
//! the issue codes): titles and notes, a todo's, event's or habit's dates, times and recurrence
//! (with their repairs), a goal's items, and the occurrence a `complete_occurrence` names. The
//! order of the checks, the target lookup and the op-level repairs are in [`super`].

use super::Checker;
use super::MAX_TITLE_CHARS;
use crate::assistant::date::{occurs_on, parse_time, Date};
use crate::assistant::model::{
    ItemKind, KnownItem, OpIssue, OpType, PlannerOperation, Recurrence, RecurrenceType,
};
use crate::assistant::shape::type_str;
use crate::kernel::limits::{excerpt, MAX_NOTES_CHARS};

impl Checker<'_> {
    pub(super) fn check_title(&mut self, o: &PlannerOperation) {
        let create = matches!(o.op, OpType::Create | OpType::GoalCreate);
        match o.title.as_deref() {
            None if create && !self.bad("title") => self.err(
                "missing_title",
                Some("title"),
                format!("a new {} needs a title", o.kind.as_str()),
            ),
            None => {}
            Some(t) => {
                if t.trim().is_empty() {
                    self.err("invalid_title", Some("title"), "the title is blank".into());
                } else if t.chars().count() > MAX_TITLE_CHARS {
                    self.err(
                        "invalid_title",
                        Some("title"),
                        format!("the title is longer than {MAX_TITLE_CHARS} characters"),
                    );
                }
            }
        }
        if o.notes
            .as_deref()
            .is_some_and(|n| n.chars().count() > MAX_NOTES_CHARS)
        {
            self.err(
                "invalid_notes",
                Some("notes"),
                format!("the notes are longer than {MAX_NOTES_CHARS} characters"),
            );
        }
    }

    pub(super) fn check_goal_items(&mut self, o: &PlannerOperation) {
        for (i, r) in o.items.iter().enumerate() {
            if r.kind == ItemKind::Goal {
                self.errors.push(OpIssue {
                    code: "invalid_item".into(),
                    field: Some(format!("items[{i}]")),
                    message: "goal items are todos, events and habits; link goals as children"
                        .into(),
                });
            } else if self.known.get(r.kind, &r.id).is_none() {
                self.errors.push(OpIssue {
                    code: "unknown_id".into(),
                    field: Some(format!("items[{i}]")),
                    message: format!(
                        "there is no {} with id \"{}\"",
                        r.kind.as_str(),
                        excerpt(&r.id)
                    ),
                });
            }
        }
    }

    /// `create` / `update` of a todo, event or habit.
    pub(super) fn check_item(&mut self, o: &mut PlannerOperation, target: Option<&KnownItem>) {
        let create = o.op == OpType::Create;
        self.check_title(o);

        // Recurrence present (repairs first).
        if o.recurrence.is_none() && !self.bad("recurrence") {
            if create {
                if o.kind == ItemKind::Habit {
                    self.err(
                        "missing_recurrence",
                        Some("recurrence"),
                        "a habit needs a recurrence (daily, weekly, monthly or yearly)".into(),
                    );
                } else {
                    o.recurrence = Some(Recurrence::none());
                    self.repairs
                        .push("added recurrence {type:'none'}".to_string());
                }
            } else if let Some(k) = target {
                o.recurrence = Some(k.recurrence.clone());
                self.repairs.push(format!(
                    "recurrence kept from the stored {} ({{type:'{}'}})",
                    o.kind.as_str(),
                    type_str(k.recurrence.kind)
                ));
            }
        }
        let repeats = o.recurrence.as_ref().is_some_and(Recurrence::repeats);

        // Anchor.
        if repeats && o.scheduled_for.is_none() && !self.bad("scheduledFor") {
            let (anchor, from) = match target.and_then(|k| k.scheduled_for.clone()) {
                Some(s) if !create => (s, "the stored item's date"),
                _ => (self.today.to_string(), "today"),
            };
            self.repairs
                .push(format!("added anchor scheduledFor {anchor} ({from})"));
            o.scheduled_for = Some(anchor);
        }
        if create
            && o.kind == ItemKind::Event
            && o.scheduled_for.is_none()
            && !self.bad("scheduledFor")
        {
            self.err(
                "missing_anchor",
                Some("scheduledFor"),
                "an event needs a date (scheduledFor)".into(),
            );
        }

        // Formats.
        let anchor = match o.scheduled_for.as_deref() {
            Some(s) => match Date::parse(s) {
                Some(d) => Some(d),
                None => {
                    self.err(
                        "invalid_date",
                        Some("scheduledFor"),
                        format!("\"{}\" is not a date (YYYY-MM-DD)", excerpt(s)),
                    );
                    None
                }
            },
            None => None,
        };
        let start = self.time(o.time_of_day.as_deref(), "timeOfDay");
        let end = self.time(o.end_time.as_deref(), "endTime");
        if let (Some(s), Some(e)) = (start, end) {
            if e <= s {
                self.err(
                    "end_before_start",
                    Some("endTime"),
                    "endTime must be after timeOfDay".into(),
                );
            }
        } else if create
            && o.end_time.is_some()
            && o.time_of_day.is_none()
            && !self.bad("timeOfDay")
        {
            self.err(
                "invalid_time",
                Some("endTime"),
                "an endTime needs a timeOfDay (the start)".into(),
            );
        }

        // Recurrence well-formed.
        if let Some(r) = &o.recurrence {
            if o.kind == ItemKind::Habit && !r.repeats() {
                self.err(
                    "habit_must_repeat",
                    Some("recurrence.type"),
                    "a habit must repeat: use daily, weekly, monthly or yearly, not none".into(),
                );
            }
            if let Some(n) = r.interval {
                if !(1..=365).contains(&n) {
                    self.err(
                        "invalid_recurrence",
                        Some("recurrence.interval"),
                        format!("interval {n} is outside 1 to 365"),
                    );
                }
            }
            if !r.weekdays.is_empty() && r.kind != RecurrenceType::Weekly {
                self.err(
                    "invalid_recurrence",
                    Some("recurrence.weekdays"),
                    "weekdays are only for a weekly recurrence".into(),
                );
            }
            if let Some(u) = r.until.as_deref() {
                match Date::parse(u) {
                    None => self.err(
                        "invalid_recurrence",
                        Some("recurrence.until"),
                        format!("until \"{}\" is not a date (YYYY-MM-DD)", excerpt(u)),
                    ),
                    Some(until) => {
                        if anchor.is_some_and(|a| until < a) {
                            self.err(
                                "invalid_recurrence",
                                Some("recurrence.until"),
                                "until is before the first occurrence (scheduledFor)".into(),
                            );
                        }
                    }
                }
            }
        }
    }

    fn time(&mut self, t: Option<&str>, field: &str) -> Option<u32> {
        let t = t?;
        let m = parse_time(t);
        if m.is_none() {
            self.err(
                "invalid_time",
                Some(field),
                format!("\"{}\" is not a time (HH:MM, 24 h)", excerpt(t)),
            );
        }
        m
    }

    pub(super) fn check_occurrence(
        &mut self,
        o: &mut PlannerOperation,
        target: Option<&KnownItem>,
    ) {
        let Some(k) = target else { return };
        if !k.recurrence.repeats() {
            self.err(
                "not_repeating",
                Some("op"),
                format!("the {} does not repeat: use complete", o.kind.as_str()),
            );
            return;
        }
        let anchor = k.scheduled_for.as_deref().and_then(Date::parse);
        match o.occurrence_date.as_deref() {
            None if self.bad("occurrenceDate") => {}
            None => {
                if self.today_occurs(k) {
                    o.occurrence_date = Some(self.today.to_string());
                    self.repairs
                        .push(format!("added occurrenceDate {} (today)", self.today));
                } else {
                    self.err(
                        "missing_occurrence_date",
                        Some("occurrenceDate"),
                        "complete_occurrence needs the occurrenceDate (YYYY-MM-DD)".into(),
                    );
                }
            }
            Some(s) => match Date::parse(s) {
                None => self.err(
                    "invalid_date",
                    Some("occurrenceDate"),
                    format!("\"{}\" is not a date (YYYY-MM-DD)", excerpt(s)),
                ),
                Some(d) => {
                    if !anchor.is_some_and(|a| occurs_on(&k.recurrence, a, d)) {
                        self.err(
                            "not_an_occurrence",
                            Some("occurrenceDate"),
                            format!("the {} does not occur on {}", o.kind.as_str(), excerpt(s)),
                        );
                    }
                }
            },
        }
    }
}
