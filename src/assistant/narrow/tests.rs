//! Unit tests of the narrowed path: which operations code settles from the reading, which names
//! and open choices are left for the model, and how an answer (or none) resolves them.

use super::*;
use crate::assistant::model::{Priority, Recurrence, RecurrenceType};

fn item(kind: ItemKind, id: &str, title: &str) -> PlannerItem {
    let mut v = serde_json::json!({
        "id": id, "kind": kind.as_str(), "title": title, "notes": null, "scheduledFor": null,
        "timeOfDay": null, "endTime": null, "priority": "medium", "recurrence": {"type": "none"},
        "completed": false, "completedOccurrences": [], "goalItems": [], "childGoals": [],
        "createdMs": 1795000000000_u64, "updatedMs": 1795000000000_u64,
    });
    if kind == ItemKind::Habit {
        v["recurrence"] = serde_json::json!({"type": "daily"});
        v["scheduledFor"] = "2026-11-02".into();
    }
    serde_json::from_value(v).unwrap()
}

fn items() -> Vec<PlannerItem> {
    vec![
        item(ItemKind::Todo, "todo-milk", "Buy milk"),
        item(ItemKind::Todo, "todo-report", "Submit expense report"),
        item(ItemKind::Event, "event-dentist", "Dentist appointment"),
        item(ItemKind::Habit, "habit-run", "Morning run"),
    ]
}

fn monday() -> Date {
    Date::parse("2026-11-23").unwrap()
}

#[test]
fn a_create_is_settled_by_code_and_only_its_name_is_asked() {
    let n = narrow("Remind me to call mom tomorrow at 5", monday(), &items());
    assert!(!n.open);
    assert_eq!(n.options.len(), 1);
    assert_eq!(n.names(), 1);
    let schema: Value = serde_json::from_str(&n.question_schema().unwrap()).unwrap();
    assert!(schema["properties"].get("choice").is_none());
    let pattern = schema["properties"]["title"]["pattern"].as_str().unwrap();
    // The name's words are the message's, without the cue, the date and the time.
    assert!(
        pattern.contains("|mom|") || pattern.contains("(mom|"),
        "{pattern}"
    );
    assert!(
        !pattern.contains("tomorrow") && !pattern.contains("Remind"),
        "{pattern}"
    );
    let r = n.resolve(Some(&serde_json::json!({"title": "call Mom"})));
    // Kept: every content word of the guess, in any order, with more of the message's words.
    let r2 = n.resolve(Some(&serde_json::json!({"title": "mom call"})));
    assert_eq!(r2.operations[0].title.as_deref(), Some("Mom call"));
    assert_eq!(r.operations.len(), 1);
    let op = &r.operations[0];
    assert_eq!(op.op, OpType::Create);
    assert_eq!(op.title.as_deref(), Some("Call Mom"));
    assert_eq!(op.scheduled_for.as_deref(), Some("2026-11-24"));
    assert_eq!(op.time_of_day.as_deref(), Some("17:00"));
    assert!(r.repairs.is_empty());
}

#[test]
fn a_name_with_words_the_message_lacks_or_unrelated_to_it_is_replaced_by_the_guess() {
    let n = narrow("Remind me to call mom tomorrow at 5", monday(), &items());
    let guess = n.options[0].drafts[0].guess.clone().unwrap();
    for bad in ["Buy a pony", "tomorrow", "", "Call call mom", "Mom"] {
        let r = n.resolve(Some(&serde_json::json!({"title": bad})));
        assert_eq!(
            r.operations[0].title.as_deref(),
            Some(guess.as_str()),
            "{bad}"
        );
        assert_eq!(r.repairs.len(), 1, "{bad}");
    }
    // Without a model: the guess, nothing reported.
    let r = n.resolve(None);
    assert_eq!(r.operations[0].title.as_deref(), Some(guess.as_str()));
    assert!(r.repairs.is_empty());
}

#[test]
fn a_clear_completion_or_move_never_asks_the_model() {
    let n = narrow("Mark buy milk as done", monday(), &items());
    assert!(!n.asks_model());
    let ops = n.resolve(None).operations;
    assert_eq!(ops.len(), 1);
    assert_eq!(
        (ops[0].op, ops[0].id.as_deref()),
        (OpType::Complete, Some("todo-milk"))
    );

    let n = narrow(
        "Move the dentist appointment to Thursday",
        monday(),
        &items(),
    );
    assert!(!n.asks_model());
    let ops = n.resolve(None).operations;
    assert_eq!(ops[0].op, OpType::Update);
    assert_eq!(ops[0].scheduled_for.as_deref(), Some("2026-11-26"));

    let n = narrow("I went for my run yesterday", monday(), &items());
    let ops = n.resolve(None).operations;
    assert_eq!(ops[0].op, OpType::CompleteOccurrence);
    assert_eq!(ops[0].occurrence_date.as_deref(), Some("2026-11-22"));
}

#[test]
fn a_change_without_a_cue_word_is_offered_with_add_and_nothing_and_defaults_to_change() {
    let n = narrow("Make the expense report low priority", monday(), &items());
    let words: Vec<&str> = n.options.iter().map(|o| o.choice.as_str()).collect();
    assert_eq!(words, ["change", "add", "nothing"]);
    assert_eq!(n.resolve(None).operations.len(), 1);
    let r = n.resolve(Some(&serde_json::json!({"choice": "nothing"})));
    assert!(r.operations.is_empty());
    let r = n.resolve(Some(&serde_json::json!({"choice": "change"})));
    assert_eq!(r.operations.len(), 1);
    assert_eq!(r.operations[0].priority, Some(Priority::Low));
    assert_eq!(r.operations[0].id.as_deref(), Some("todo-report"));
    // An unknown choice word: the default, reported.
    let r = n.resolve(Some(
        &serde_json::json!({"choice": "delete", "title": "Expense report"}),
    ));
    assert_eq!(r.operations[0].op, OpType::Update);
    assert_eq!(r.repairs.len(), 1);
    let schema: Value = serde_json::from_str(&n.question_schema().unwrap()).unwrap();
    assert_eq!(
        schema["properties"]["choice"]["enum"],
        serde_json::json!(["change", "add", "nothing"])
    );
}

#[test]
fn a_remark_about_an_item_changes_nothing() {
    let mut all = items();
    all.push(item(ItemKind::Todo, "todo-books", "Return library books"));
    let n = narrow("I haven't returned the library books yet", monday(), &all);
    assert!(!n.open && !n.asks_model());
    assert!(n.resolve(None).operations.is_empty());
}

#[test]
fn two_dated_requests_joined_by_and_become_two_creates_with_two_names() {
    let n = narrow(
        "Buy eggs tomorrow and call the vet on Wednesday",
        monday(),
        &items(),
    );
    assert_eq!(n.names(), 2);
    let schema: Value = serde_json::from_str(&n.question_schema().unwrap()).unwrap();
    assert_eq!(schema["properties"]["titles"]["minItems"], 2);
    let r = n.resolve(Some(
        &serde_json::json!({"titles": ["Buy eggs", "Call the vet"]}),
    ));
    let days: Vec<_> = r
        .operations
        .iter()
        .map(|o| o.scheduled_for.clone().unwrap())
        .collect();
    assert_eq!(days, ["2026-11-24", "2026-11-25"]);
    assert_eq!(r.operations[1].title.as_deref(), Some("Call the vet"));
    // "every Monday and Thursday" is one recurrence, not two requests.
    let n = narrow("Go swimming every Monday and Thursday", monday(), &items());
    assert_eq!(n.options[0].drafts.len(), 1);
    let rec: &Recurrence = n.options[0].drafts[0].op.recurrence.as_ref().unwrap();
    assert_eq!(rec.kind, RecurrenceType::Weekly);
}

#[test]
fn questions_change_nothing_and_unknown_references_stay_open() {
    let n = narrow("What do I have tomorrow?", monday(), &items());
    assert!(!n.asks_model() && !n.open);
    assert!(n.resolve(None).operations.is_empty());
    let n = narrow("Delete the sailing lesson", monday(), &items());
    assert!(n.open, "no such item: the reading cannot build it");
    assert!(n.resolve(None).operations.is_empty());
}

#[test]
fn a_habit_cancelled_for_a_day_or_skipped_is_neither_deleted_nor_moved() {
    for msg in [
        "Cancel my morning run today",
        "Skip the morning run tomorrow",
        "No morning run tomorrow",
    ] {
        let n = narrow(msg, monday(), &items());
        let ops = n.resolve(None).operations;
        assert!(ops.is_empty(), "{msg}: {ops:?}");
    }
    // Without a day, a removal of the habit is one.
    let ops = narrow("Cancel my morning run habit", monday(), &items())
        .resolve(None)
        .operations;
    assert_eq!(ops.len(), 1);
    assert_eq!(ops[0].op, OpType::Delete);
}
