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
    // The request copied into the name: a content word twice, or a politeness or command word
    // the guess left out.
    let n = narrow("pls ad a task: renew passport", monday(), &items());
    let guess = n.options[0].drafts[0].guess.clone().unwrap();
    assert_eq!(guess, "Renew passport");
    for bad in [
        "Pls a passport renew a passport",
        "Pls renew passport",
        "Task renew passport",
    ] {
        let r = n.resolve(Some(&serde_json::json!({"title": bad})));
        assert_eq!(
            r.operations[0].title.as_deref(),
            Some("Renew passport"),
            "{bad}"
        );
    }
    let r = n.resolve(Some(&serde_json::json!({"title": "passport renew"})));
    assert_eq!(r.operations[0].title.as_deref(), Some("Passport renew"));
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
fn questions_change_nothing_and_unknown_references_ask_or_stay_open() {
    let n = narrow("What do I have tomorrow?", monday(), &items());
    assert!(!n.asks_model() && !n.open && n.clarification.is_none());
    assert!(n.resolve(None).operations.is_empty());
    // A deletion of no known item: which one (every item offered, by priority).
    let n = narrow("Delete the sailing lesson", monday(), &items());
    let c = n.clarification.clone().expect("asks which one");
    assert_eq!(c.question, "Which one do you mean?");
    assert_eq!(c.options.len(), items().len());
    assert!(!n.asks_model() && n.resolve(None).operations.is_empty());
    // An empty planner: nothing to offer, so it asks what the item is called.
    let n = narrow("Delete the sailing lesson", monday(), &[]);
    let c = n.clarification.unwrap();
    assert!(
        c.options.is_empty() && c.question.contains("couldn't find"),
        "{c:?}"
    );
    // No cue, no known item, nothing vague: the model proposes.
    assert!(narrow("sailing lesson with Tom", monday(), &items()).open);
}

/// The planner of `tests/data/eval/assistant.classes.json`, in short.
fn planner() -> Vec<PlannerItem> {
    let mut out = items();
    let mut dated = |kind, id: &str, title: &str, day: &str, time: Option<(&str, &str)>| {
        let mut it = item(kind, id, title);
        it.scheduled_for = Some(day.into());
        if let Some((start, end)) = time {
            it.time_of_day = Some(start.into());
            it.end_time = (!end.is_empty()).then(|| end.into());
        }
        out.push(it);
    };
    dated(
        ItemKind::Todo,
        "todo-plumber",
        "Call the plumber",
        "2026-11-24",
        None,
    );
    dated(
        ItemKind::Todo,
        "todo-car",
        "Renew car insurance",
        "2026-11-30",
        None,
    );
    dated(
        ItemKind::Todo,
        "todo-books",
        "Return library books",
        "2026-11-26",
        None,
    );
    dated(
        ItemKind::Event,
        "event-team",
        "Team meeting",
        "2026-11-24",
        Some(("10:00", "11:00")),
    );
    dated(
        ItemKind::Event,
        "event-dinner",
        "Dinner with Sam",
        "2026-11-27",
        Some(("19:00", "21:00")),
    );
    out.push(item(ItemKind::Habit, "habit-meditate", "Meditate"));
    let mut piano = item(ItemKind::Habit, "habit-piano", "Piano practice");
    piano.time_of_day = Some("18:00".into());
    out.push(piano);
    out.push(item(ItemKind::Todo, "todo-taxes", "File taxes"));
    for it in &mut out {
        match it.id.as_str() {
            "event-dentist" => {
                it.scheduled_for = Some("2026-11-25".into());
                it.time_of_day = Some("15:00".into());
                it.end_time = Some("16:00".into());
            }
            "todo-report" => it.priority = Priority::High,
            _ => {}
        }
    }
    out
}

/// The one operation code settles for `message` (no model asked for a choice).
fn settled_op(message: &str) -> PlannerOperation {
    let n = narrow(message, monday(), &planner());
    assert!(n.clarification.is_none() && !n.open, "{message}: {n:?}");
    assert_eq!(n.options.len(), 1, "{message}: {:?}", n.options);
    let ops = n.resolve(None).operations;
    assert_eq!(ops.len(), 1, "{message}");
    ops.into_iter().next().unwrap()
}

/// The update code settles for `message`: of item `id`, to `date` and `time`, never a rename.
fn settled_update(
    message: &str,
    id: &str,
    date: Option<&str>,
    time: Option<&str>,
) -> PlannerOperation {
    let op = settled_op(message);
    assert_eq!(op.op, OpType::Update, "{message}");
    assert_eq!(op.id.as_deref(), Some(id), "{message}");
    assert_eq!(op.scheduled_for.as_deref(), date, "{message}");
    assert_eq!(op.time_of_day.as_deref(), time, "{message}");
    assert_eq!(op.title, None, "{message}: no rename");
    op
}

fn asked(message: &str) -> Clarification {
    let n = narrow(message, monday(), &planner());
    assert!(n.resolve(None).operations.is_empty(), "{message}");
    n.clarification
        .unwrap_or_else(|| panic!("{message}: no question: {:?}", n.options))
}

#[test]
fn a_descriptor_changes_the_item_it_names_and_never_adds_one() {
    for (message, id, date, time, priority) in [
        (
            "the plumber thing is on thursday now",
            "todo-plumber",
            Some("2026-11-26"),
            None,
            None,
        ),
        (
            "make the insurance thing urgent",
            "todo-car",
            None,
            None,
            Some(Priority::High),
        ),
        (
            "do the library stuff on saturday instead",
            "todo-books",
            Some("2026-11-28"),
            None,
            None,
        ),
        (
            "put the tax stuff on wednesday",
            "todo-taxes",
            Some("2026-11-25"),
            None,
            None,
        ),
        (
            "the team thing should be at 3pm",
            "event-team",
            None,
            Some("15:00"),
            None,
        ),
        (
            "push that appointment to 4pm",
            "event-dentist",
            None,
            Some("16:00"),
            None,
        ),
        (
            "move the thing with the plumber to friday",
            "todo-plumber",
            Some("2026-11-27"),
            None,
            None,
        ),
    ] {
        let op = settled_update(message, id, date, time);
        assert_eq!(op.priority, priority, "{message}");
    }
    // A descriptor that names no known item asks which one instead of adding "Boat thing";
    // one that names an item with no change readable asks what should change.
    let c = asked("the boat thing is on thursday now");
    assert_eq!(c.question, "Which one do you mean?");
    let c = asked("schedule the plumber thing");
    assert!(
        c.question
            .starts_with("What should change about “Call the plumber”"),
        "{c:?}"
    );
    // "Remind me about ..." stays a new reminder.
    let op = settled_op("remind me about the plumber thing tomorrow");
    assert_eq!(op.op, OpType::Create);
}

#[test]
fn a_habit_reported_done_completes_todays_occurrence() {
    for (message, id) in [
        ("hit my run today", "habit-run"),
        ("went to piano practice today", "habit-piano"),
        ("did the meditation thing today", "habit-meditate"),
        ("I ran this morning", "habit-run"),
        ("meditated today", "habit-meditate"),
        ("practiced piano this evening", "habit-piano"),
        ("Did piano today!", "habit-piano"),
        ("did my meditation", "habit-meditate"),
    ] {
        let op = settled_op(message);
        assert_eq!(op.op, OpType::CompleteOccurrence, "{message}");
        assert_eq!(op.id.as_deref(), Some(id), "{message}");
        assert_eq!(
            op.occurrence_date.as_deref(),
            Some("2026-11-23"),
            "{message}"
        );
    }
    // Yesterday's report completes yesterday's occurrence; a later day is a plan, not a report.
    let op = settled_op("meditated yesterday");
    assert_eq!(op.occurrence_date.as_deref(), Some("2026-11-22"));
    let n = narrow("run tomorrow morning", monday(), &planner());
    assert!(n
        .resolve(None)
        .operations
        .iter()
        .all(|o| o.op != OpType::CompleteOccurrence));
}

#[test]
fn relative_changes_are_computed_from_the_stored_day_and_time() {
    for (message, id, date, time, end) in [
        (
            "team meeting an hour later",
            "event-team",
            None,
            Some("11:00"),
            Some("12:00"),
        ),
        (
            "dentist 30 minutes earlier",
            "event-dentist",
            None,
            Some("14:30"),
            Some("15:30"),
        ),
        (
            "can you push the dentist 90 min later",
            "event-dentist",
            None,
            Some("16:30"),
            Some("17:30"),
        ),
        (
            "move dinner with Sam a day later",
            "event-dinner",
            Some("2026-11-28"),
            None,
            None,
        ),
        (
            "the plumber call a day earlier",
            "todo-plumber",
            Some("2026-11-23"),
            None,
            None,
        ),
        (
            "dinner with Sam 5 hours later",
            "event-dinner",
            Some("2026-11-28"),
            Some("00:00"),
            None,
        ),
    ] {
        let op = settled_update(message, id, date, time);
        assert_eq!(op.end_time.as_deref(), end, "{message}");
    }
    // The report has no stored day in this planner: nothing to move, so it asks.
    let c = asked("push the expense report back a week");
    assert!(c.question.contains("Submit expense report"), "{c:?}");
    assert_eq!(c.options[0].id, "todo-report");
    // A todo without a time cannot move by an hour.
    asked("the plumber call an hour later");
}

#[test]
fn the_calendar_date_beats_the_weekday_and_a_contradiction_asks() {
    let op = settled_op("Move the dentist to Monday Dec 7");
    assert_eq!(op.scheduled_for.as_deref(), Some("2026-12-07"));
    let op = settled_op("Pay the water bill Friday 12/4");
    assert_eq!(op.scheduled_for.as_deref(), Some("2026-12-04"));
    let c = asked("move the team meeting to Tuesday Dec 7");
    assert_eq!(
        c.question,
        "Monday, December 7 is not a Tuesday. Which day do you mean?"
    );
    assert_eq!(c.options[0].id, "event-team");
    // A new item: no item to offer, only the question.
    let c = asked("Dinner with Jo on Friday December 5 at 7pm");
    assert!(c.options.is_empty());
    // In the message's language.
    let n = narrow_in(
        "move the team meeting to Tuesday Dec 7",
        Language::De,
        monday(),
        &planner(),
    );
    assert!(n
        .clarification
        .unwrap()
        .question
        .starts_with("Montag, 7. Dezember ist kein Dienstag"));
}

#[test]
fn titles_keep_no_command_words() {
    for (message, title) in [
        ("remmind me to buy stamps tomorrow", "Buy stamps"),
        ("remindme to call the vet friday", "Call the vet"),
        ("reminde me water the plants tmrw", "Water the plants"),
        ("plz add book flights to lisbon", "Book flights to lisbon"),
        ("add task task clean the fridge", "Clean the fridge"),
        (
            "todo: todo email Karen about the lease",
            "Email Karen about the lease",
        ),
        ("pls ad a task: renew passport", "Renew passport"),
        ("task: cancel the newspaper", "Cancel the newspaper"),
        ("I need to book a table for friday", "Book a table"),
    ] {
        let op = settled_op(message);
        assert_eq!(op.op, OpType::Create, "{message}");
        assert_eq!(op.title.as_deref(), Some(title), "{message}");
    }
}

#[test]
fn a_name_without_an_action_or_a_vague_request_asks() {
    let c = asked("the insurance thing");
    assert_eq!(
        c.question,
        "What should I do with “Renew car insurance”: move it, mark it done or delete it?"
    );
    assert_eq!(c.options[0].id, "todo-car");
    assert!(c.options.len() <= crate::assistant::clarify::MAX_OPTIONS);
    assert_eq!(
        asked("that dentist bill thing").options[0].id,
        "event-dentist"
    );
    // Which one, for an action on no named item: every option, ranked by priority.
    let c = asked("move it to friday");
    assert_eq!(c.options[0].id, "todo-report", "high priority first");
    assert_eq!(c.options.len(), crate::assistant::clarify::MAX_OPTIONS);
    // An ambiguous item: both candidates first.
    let mut two = planner();
    two.push(item(ItemKind::Todo, "todo-dentist", "Call dentist"));
    let n = narrow("move the dentist thing to friday", monday(), &two);
    let ids: Vec<String> = n
        .clarification
        .unwrap()
        .options
        .iter()
        .map(|o| o.id.clone())
        .collect();
    assert_eq!(
        ids[..2],
        ["event-dentist".to_string(), "todo-dentist".to_string()]
    );
    // Vague requests ask what to add, never a todo named after a leftover word.
    for message in [
        "plan my week",
        "add things",
        "add something for tomorrow",
        "help me get organized",
    ] {
        let c = asked(message);
        assert!(
            c.question.starts_with("What would you like to add?"),
            "{message}"
        );
        assert!(c.options.is_empty(), "{message}");
    }
    // A remark about an item is still nothing to do.
    let n = narrow(
        "I haven't returned the library books yet",
        monday(),
        &planner(),
    );
    assert!(n.clarification.is_none() && n.resolve(None).operations.is_empty());
}

/// A request to plan a period with someone, or to add "things", in any language: what to add is
/// asked (in that language), and a real item among the same words is still added.
#[test]
fn vague_requests_ask_what_to_add_in_every_language_and_company_names_no_item() {
    let what = |lang: Language, message: &str| {
        let n = narrow_in(message, lang, monday(), &planner());
        assert!(n.resolve(None).operations.is_empty(), "{message}");
        n.clarification
            .unwrap_or_else(|| panic!("{message}: no question: {:?}", n.options))
            .question
    };
    for (lang, start, messages) in [
        (
            Language::En,
            "What would you like to add?",
            &[
                "plan my weekend with the kids",
                "let's plan the week together",
                "fill up my sunday",
            ][..],
        ),
        (
            Language::De,
            "Was",
            &[
                "plane mein Wochenende mit den Kindern",
                "füg was für Freitag hinzu",
                "lass uns die Woche planen",
            ][..],
        ),
        (
            Language::Fr,
            "Qu",
            &[
                "planifie mon week-end avec les enfants",
                "ajoute des trucs pour vendredi",
                "on planifie la semaine ensemble",
            ][..],
        ),
        (
            Language::Es,
            "¿Qué",
            &[
                "planea mi fin de semana con los niños",
                "añade cosas para el viernes",
                "organiza mi sábado porfa",
            ][..],
        ),
    ] {
        for message in messages {
            let q = what(lang, message);
            assert!(q.starts_with(start), "{message}: {q}");
        }
    }
    // The same words with an item before the company: a new item, titled with it.
    for (lang, message, title) in [
        (
            Language::En,
            "plan a dinner with mom on saturday",
            "Dinner with mom",
        ),
        (
            Language::De,
            "plane ein Abendessen mit Mama am Samstag",
            "Abendessen mit Mama",
        ),
        (
            Language::Fr,
            "prévois un dîner avec maman samedi",
            "Dîner avec maman",
        ),
        (
            Language::Es,
            "planea una cena con mamá el sábado",
            "Cena con mamá",
        ),
    ] {
        let ops = narrow_in(message, lang, monday(), &planner())
            .resolve(None)
            .operations;
        assert_eq!(ops.len(), 1, "{message}: {ops:?}");
        assert_eq!(ops[0].op, OpType::Create, "{message}");
        assert_eq!(ops[0].title.as_deref(), Some(title), "{message}");
        assert_eq!(
            ops[0].scheduled_for.as_deref(),
            Some("2026-11-28"),
            "{message}"
        );
    }
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
