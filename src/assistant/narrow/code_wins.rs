//! Code wins over the model's calendar (issue 10). On the full-proposal path (a message the
//! reading cannot build, a clarify selection) the model writes every field itself; the dates and
//! times it wrote are checked against the deterministic reading of the message, and where the two
//! disagree the reading's value is kept and the repair is reported. The narrowed path reports the
//! repairs it made to the model's answer the same way ([`summary_with_repairs`]).
//!
//! Pure. Only what the reading is sure of is enforced: one date (no range, no recurrence) and the
//! one operation that carries a date; one time and the one operation that carries a time. A
//! message naming several dates or times ("call mom at 5 and run at 7") is left to the model.
//!
//! A change of an existing item sets only what the message mentions ([`drop_unmentioned`]): a
//! field an `update` or `goal_update` changes (a title, day, time, end, priority, notes or
//! repeat different from the stored one) without support in the message's reading or words
//! ([`Mentions`]) is left out, and a change left with nothing is dropped. "Team meeting an
//! hour later" never renames the meeting.

use std::fmt;

use crate::assistant::model::{ItemKind, OpType, PlannerItem, PlannerOperation};
use crate::assistant::phrasing::phrases;
use crate::assistant::proposal::Mentions;
use crate::assistant::reading::{Reading, Span};
use crate::kernel::lang::Language;

/// What code changed in the model's answer: reported at the end of the summary in the user's
/// language ([`Repair::text`], [`summary_with_repairs`]); its English text (`Display`) is what
/// the log shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Repair {
    /// The reading's date (`date`, said as `said`) replaced the model's.
    Date {
        /// The reading's date.
        date: String,
        /// The message's words for it.
        said: String,
        /// What the model wrote.
        model: String,
    },
    /// The reading's time replaced the model's.
    Time {
        /// The reading's time.
        time: String,
        /// The message's words for it.
        said: String,
        /// What the model wrote.
        model: String,
    },
    /// The reading's end time replaced the model's.
    End {
        /// The reading's end time.
        end: String,
        /// The message's words for it.
        said: String,
        /// What the model wrote.
        model: String,
    },
    /// The model's end time fell before the corrected start and was left out.
    EndDropped {
        /// What the model wrote.
        model: String,
    },
    /// The model's answer chose no option: the default one was taken.
    DefaultOption,
    /// The model's title shared no word with the message's: the reading's was kept.
    TitleKept,
    /// The model's answer had no title: the reading's was kept.
    NoTitle,
    /// Fields the model changed on an existing item that the message does not mention were
    /// left out ([`drop_unmentioned`]).
    LeftOut {
        /// The item's title.
        title: String,
        /// The fields left out.
        fields: Vec<Field>,
    },
    /// The model's change of an existing item set only fields the message does not mention:
    /// dropped.
    Dropped {
        /// The item's title.
        title: String,
        /// The fields it set.
        fields: Vec<Field>,
    },
}

/// A field of an item an `update` or `goal_update` may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// `title`.
    Title,
    /// `scheduledFor`.
    Date,
    /// `timeOfDay`.
    Time,
    /// `endTime`.
    End,
    /// `priority`.
    Priority,
    /// `notes`.
    Notes,
    /// `recurrence`.
    Repeat,
}

impl Field {
    fn index(self) -> usize {
        self as usize
    }
}

impl Repair {
    /// The repair as a clause in `lang` (no user text but the words the message itself used for a
    /// date or time).
    pub fn text(&self, lang: Language) -> String {
        let p = phrases(lang);
        match self {
            Repair::Date { date, said, model } => p.fill(
                p.r_date,
                &[("date", date), ("said", said), ("model", model)],
            ),
            Repair::Time { time, said, model } => p.fill(
                p.r_time,
                &[("time", time), ("said", said), ("model", model)],
            ),
            Repair::End { end, said, model } => {
                p.fill(p.r_end, &[("end", end), ("said", said), ("model", model)])
            }
            Repair::EndDropped { model } => p.fill(p.r_end_dropped, &[("model", model)]),
            Repair::DefaultOption => p.r_default_option.into(),
            Repair::TitleKept => p.r_title_kept.into(),
            Repair::NoTitle => p.r_no_title.into(),
            Repair::LeftOut { title, fields } | Repair::Dropped { title, fields } => {
                let names: Vec<&str> = fields.iter().map(|f| p.fields[f.index()]).collect();
                let template = if matches!(self, Repair::LeftOut { .. }) {
                    p.r_left_out
                } else {
                    p.r_dropped
                };
                let quoted = format!("{}{title}{}", p.quote_open, p.quote_close);
                p.fill(
                    template,
                    &[("title", &quoted), ("fields", &names.join(", "))],
                )
            }
        }
    }
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Language::En))
    }
}

/// Puts the reading's date and time on the model's operations where they disagree (see the
/// module docs); returns one [`Repair`] per change, for the summary (quoting the message's own
/// words for the date or time, never the model's text beyond the value it wrote).
pub fn check_dates_and_times(
    ops: &mut [PlannerOperation],
    reading: &Reading,
    message: &str,
) -> Vec<Repair> {
    let mut repairs = Vec::new();
    let scheduling = |op: &PlannerOperation| matches!(op.op, OpType::Create | OpType::Update);
    let words = |span: Span| message.get(span.start..span.end).unwrap_or("").to_string();

    let one_date = match reading.dates.as_slice() {
        [d] if d.through.is_none() && reading.recurrence.is_none() => Some(d),
        _ => None,
    };
    if let Some(d) = one_date {
        let dated: Vec<usize> = (0..ops.len())
            .filter(|&i| scheduling(&ops[i]) && ops[i].scheduled_for.is_some())
            .collect();
        if let [i] = dated[..] {
            let op = &mut ops[i];
            if op.scheduled_for.as_deref() != Some(d.date.as_str()) {
                repairs.push(Repair::Date {
                    date: d.date.clone(),
                    said: words(d.span),
                    model: op.scheduled_for.clone().unwrap_or_default(),
                });
                op.scheduled_for = Some(d.date.clone());
            }
        }
    }

    if let Some(t) = reading.time.as_ref().filter(|t| t.time.is_some()) {
        let timed: Vec<usize> = (0..ops.len())
            .filter(|&i| scheduling(&ops[i]) && ops[i].time_of_day.is_some())
            .collect();
        if let [i] = timed[..] {
            let op = &mut ops[i];
            let said = words(t.span);
            if op.time_of_day != t.time {
                repairs.push(Repair::Time {
                    time: t.time.clone().unwrap_or_default(),
                    said: said.clone(),
                    model: op.time_of_day.clone().unwrap_or_default(),
                });
                op.time_of_day = t.time.clone();
            }
            match (&t.end_time, &op.end_time) {
                (Some(end), Some(model)) if end != model => {
                    repairs.push(Repair::End {
                        end: end.clone(),
                        said: said.clone(),
                        model: model.clone(),
                    });
                    op.end_time = Some(end.clone());
                }
                // The model's end no longer follows the start the message names: left out.
                (None, Some(model)) if op.time_of_day.as_ref().is_some_and(|s| s >= model) => {
                    repairs.push(Repair::EndDropped {
                        model: model.clone(),
                    });
                    op.end_time = None;
                }
                _ => {}
            }
        }
    }
    repairs
}

/// What [`drop_unmentioned`] did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Unmentioned {
    /// One repair per change with fields left out or dropped, for the summary.
    pub repairs: Vec<Repair>,
    /// The items whose changes were dropped whole (kind, id, title), for a question back.
    pub dropped: Vec<(ItemKind, String, String)>,
}

/// Leaves out of each change of a stored item the fields the message does not mention (see the
/// module docs); `stored` looks an item up by kind and id (an item it does not find is left as
/// the model wrote it: validation reports it).
pub fn drop_unmentioned(
    ops: &mut Vec<PlannerOperation>,
    stored: &dyn Fn(ItemKind, &str) -> Option<PlannerItem>,
    m: &Mentions,
) -> Unmentioned {
    let mut out = Unmentioned::default();
    ops.retain_mut(|op| {
        if !matches!(op.op, OpType::Update | OpType::GoalUpdate) {
            return true;
        }
        let Some(item) = op.id.as_deref().and_then(|id| stored(op.kind, id)) else {
            return true;
        };
        let mut left_out = Vec::new();
        let mut check = |changed: bool, mentioned: bool, field: Field| {
            let drop = changed && !mentioned;
            if drop {
                left_out.push(field);
            }
            drop
        };
        let differs = |new: &Option<String>, old: &Option<String>| new.is_some() && new != old;
        if check(
            op.title.as_ref().is_some_and(|t| *t != item.title),
            m.title,
            Field::Title,
        ) {
            op.title = None;
        }
        if check(
            differs(&op.scheduled_for, &item.scheduled_for),
            m.date,
            Field::Date,
        ) {
            op.scheduled_for = None;
        }
        if check(
            differs(&op.time_of_day, &item.time_of_day),
            m.time,
            Field::Time,
        ) {
            op.time_of_day = None;
        }
        if check(differs(&op.end_time, &item.end_time), m.time, Field::End) {
            op.end_time = None;
        }
        if check(
            op.priority.is_some_and(|p| p != item.priority),
            m.priority,
            Field::Priority,
        ) {
            op.priority = None;
        }
        if check(differs(&op.notes, &item.notes), m.notes, Field::Notes) {
            op.notes = None;
        }
        let repeat_changed = op
            .recurrence
            .as_ref()
            .is_some_and(|r| *r != item.recurrence);
        if check(repeat_changed, m.repeats, Field::Repeat) {
            op.recurrence = None;
        }
        if left_out.is_empty() {
            return true;
        }
        let changes = op.title.as_ref().is_some_and(|t| *t != item.title)
            || differs(&op.scheduled_for, &item.scheduled_for)
            || differs(&op.time_of_day, &item.time_of_day)
            || differs(&op.end_time, &item.end_time)
            || op.priority.is_some_and(|p| p != item.priority)
            || differs(&op.notes, &item.notes)
            || op
                .recurrence
                .as_ref()
                .is_some_and(|r| *r != item.recurrence);
        let title = item.title.clone();
        if changes {
            out.repairs.push(Repair::LeftOut {
                title,
                fields: left_out,
            });
        } else {
            out.repairs.push(Repair::Dropped {
                title,
                fields: left_out,
            });
            out.dropped
                .push((item.kind, item.id.clone(), item.title.clone()));
        }
        changes
    });
    out
}

/// `summary` with the repairs code made to the model's answer appended in one sentence in
/// `lang`, so the app (and the user) see that the library corrected the model; unchanged
/// without repairs.
pub fn summary_with_repairs(summary: String, repairs: &[Repair], lang: Language) -> String {
    if repairs.is_empty() {
        return summary;
    }
    let p = phrases(lang);
    let list: Vec<String> = repairs.iter().map(|r| r.text(lang)).collect();
    format!(
        "{summary} {}",
        p.fill(p.s_corrected, &[("list", &list.join("; "))])
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::date::Date;
    use crate::assistant::reading::read_message;

    fn today() -> Date {
        Date::parse("2026-11-23").unwrap() // a Monday
    }

    fn create(date: Option<&str>, time: Option<&str>, end: Option<&str>) -> PlannerOperation {
        let mut op: PlannerOperation = serde_json::from_value(serde_json::json!({
            "op": "create", "kind": "event", "title": "Dentist"
        }))
        .unwrap();
        op.scheduled_for = date.map(String::from);
        op.time_of_day = time.map(String::from);
        op.end_time = end.map(String::from);
        op
    }

    fn check(message: &str, ops: &mut [PlannerOperation]) -> Vec<Repair> {
        let reading = read_message(message, today(), &[]);
        check_dates_and_times(ops, &reading, message)
    }

    #[test]
    fn the_readings_date_and_time_win_and_each_repair_is_reported() {
        let message = "Dentist appointment tomorrow from 3pm to 4pm";
        let mut ops = [create(Some("2026-11-25"), Some("15:30"), Some("17:00"))];
        let repairs = check(message, &mut ops);
        assert_eq!(ops[0].scheduled_for.as_deref(), Some("2026-11-24"));
        assert_eq!(ops[0].time_of_day.as_deref(), Some("15:00"));
        assert_eq!(ops[0].end_time.as_deref(), Some("16:00"));
        assert_eq!(repairs.len(), 3, "{repairs:?}");
        assert!(
            repairs[0].to_string().contains("2026-11-24 (\"tomorrow\")")
                && repairs[0].to_string().contains("2026-11-25"),
            "{repairs:?}"
        );
        let summary = summary_with_repairs("Added Dentist.".into(), &repairs, Language::En);
        assert!(summary.starts_with("Added Dentist. (Corrected by the library: the date is"));
        assert!(summary.ends_with(".)"), "{summary}");
        let de = summary_with_repairs("Neu: Termin.".into(), &repairs[..1], Language::De);
        assert_eq!(
            de,
            "Neu: Termin. (Korrigiert: Datum 2026-11-24 („tomorrow“) statt 2026-11-25 vom Modell.)"
        );
    }

    #[test]
    fn agreeing_or_unsure_readings_change_nothing() {
        // The model agrees: nothing to repair.
        let mut ops = [create(Some("2026-11-24"), Some("15:00"), None)];
        assert!(check("Dentist tomorrow at 3pm", &mut ops).is_empty());
        // Two operations carry dates: which is which is the model's call.
        let mut two = [
            create(Some("2026-11-25"), None, None),
            create(Some("2026-11-27"), None, None),
        ];
        let before = two.clone();
        assert!(check("Dentist tomorrow and a haircut", &mut two).is_empty());
        assert_eq!(two, before);
        // A recurrence anchors its own date.
        let mut habit = [create(Some("2026-11-26"), None, None)];
        habit[0].kind = ItemKind::Habit;
        assert!(check("Run every Thursday", &mut habit).is_empty());
        // The message names no date or time: the model's stand.
        let mut free = [create(Some("2026-11-26"), Some("09:00"), None)];
        assert!(check("Add a dentist appointment", &mut free).is_empty());
        assert_eq!(
            summary_with_repairs("Done.".into(), &[], Language::En),
            "Done."
        );
    }

    fn stored(kind: ItemKind, id: &str) -> Option<PlannerItem> {
        let mut it = PlannerItem::sample(kind, id, "Team meeting", Some("2026-11-24"));
        it.time_of_day = Some("10:00".into());
        it.end_time = Some("11:00".into());
        Some(it)
    }

    fn update(v: serde_json::Value) -> PlannerOperation {
        serde_json::from_value(v).unwrap()
    }

    fn guard(message: &str, ops: &mut Vec<PlannerOperation>) -> Unmentioned {
        let reading = read_message(message, today(), &[]);
        drop_unmentioned(ops, &stored, &Mentions::of(message, &reading))
    }

    #[test]
    fn a_change_keeps_only_the_fields_the_message_mentions() {
        // "an hour later": the time and its end; not the title, priority or notes the model
        // added; a recurrence equal to the stored one is no change.
        let mut ops = vec![update(serde_json::json!({"op": "update", "kind": "event",
            "id": "e1", "title": "Dentist appointment", "timeOfDay": "11:00", "endTime": "12:00",
            "priority": "high", "notes": "bring the slides", "recurrence": {"type": "none"}}))];
        let out = guard("team meeting an hour later", &mut ops);
        assert_eq!(ops.len(), 1);
        assert_eq!(ops[0].title, None);
        assert_eq!(ops[0].priority, None);
        assert_eq!(ops[0].notes, None);
        assert_eq!(ops[0].time_of_day.as_deref(), Some("11:00"));
        assert_eq!(ops[0].end_time.as_deref(), Some("12:00"));
        assert!(ops[0].recurrence.is_some(), "unchanged: kept");
        assert_eq!(
            out.repairs,
            [Repair::LeftOut {
                title: "Team meeting".into(),
                fields: vec![Field::Title, Field::Priority, Field::Notes],
            }]
        );
        assert_eq!(
            out.repairs[0].text(Language::En),
            "the model's title, priority, notes for “Team meeting” were not in the message: left out"
        );
        assert_eq!(
            out.repairs[0].text(Language::De),
            "Titel, Priorität, Notizen vom Modell für „Team meeting“ stand nicht in der Nachricht: \
             weggelassen"
        );
        assert!(out.dropped.is_empty());

        // Only an unasked rename: the change is dropped, and named for a question.
        let mut ops = vec![update(serde_json::json!({"op": "update", "kind": "event",
            "id": "e1", "title": "Buy milk", "timeOfDay": "10:00"}))];
        let out = guard("the team meeting", &mut ops);
        assert!(ops.is_empty());
        assert_eq!(
            out.dropped,
            [(
                ItemKind::Event,
                "e1".to_string(),
                "Team meeting".to_string()
            )]
        );

        // Asked for: a rename, a priority, notes, a day, a repeat.
        for (message, field) in [
            ("rename the team meeting to Standup", "title"),
            ("make the team meeting urgent", "priority"),
            ("add a note to the team meeting", "notes"),
            ("team meeting on friday", "scheduledFor"),
            ("team meeting every week", "recurrence"),
        ] {
            let mut ops = vec![update(serde_json::json!({"op": "update", "kind": "event",
                "id": "e1", "title": "Standup", "priority": "high", "notes": "n",
                "scheduledFor": "2026-11-27", "recurrence": {"type": "weekly"}}))];
            guard(message, &mut ops);
            let v = serde_json::to_value(&ops[0]).unwrap();
            assert!(!v[field].is_null(), "{message}: {v}");
        }
        // Creates and completions are free; an item not stored is left to validation.
        let mut ops = vec![
            update(
                serde_json::json!({"op": "create", "kind": "todo", "title": "X", "priority": "high"}),
            ),
            update(serde_json::json!({"op": "complete", "kind": "todo", "id": "t1"})),
        ];
        assert!(guard("x", &mut ops).repairs.is_empty());
        assert_eq!(ops.len(), 2);
        let mut ops = vec![update(
            serde_json::json!({"op": "update", "kind": "todo", "id": "t9",
            "title": "Y"}),
        )];
        let none = |_: ItemKind, _: &str| None;
        let reading = read_message("x", today(), &[]);
        drop_unmentioned(&mut ops, &none, &Mentions::of("x", &reading));
        assert_eq!(ops[0].title.as_deref(), Some("Y"));
    }

    #[test]
    fn an_end_time_before_the_corrected_start_is_left_out() {
        let mut ops = [create(Some("2026-11-24"), Some("09:00"), Some("10:00"))];
        let repairs = check("Dentist tomorrow at 3pm", &mut ops);
        assert_eq!(ops[0].time_of_day.as_deref(), Some("15:00"));
        assert_eq!(ops[0].end_time, None);
        assert_eq!(repairs.len(), 2, "{repairs:?}");
    }
}
