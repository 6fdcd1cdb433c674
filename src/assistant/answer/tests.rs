//! Unit tests of the code-made answers: what each question names, in which order, with which
//! dates, and the text in each language.

use serde_json::json;

use super::*;
use crate::assistant::reading::{read_question, ItemMatch};

/// A planner: one-off todos and events (one done, one overdue, one undated), a daily habit done
/// today, a weekly habit (Tue/Thu/Sat) done last Saturday, and a goal.
fn planner() -> Vec<PlannerItem> {
    let item = |v: serde_json::Value| -> PlannerItem {
        let mut base = json!({
            "notes": null, "scheduledFor": null, "timeOfDay": null, "endTime": null,
            "priority": "medium", "recurrence": {"type": "none"}, "completed": false,
            "completedOccurrences": [], "goalItems": [], "childGoals": [],
            "createdMs": 1795000000000_u64, "updatedMs": 1795000000000_u64,
        });
        for (k, x) in v.as_object().unwrap() {
            base[k] = x.clone();
        }
        serde_json::from_value(base).unwrap()
    };
    vec![
        item(
            json!({"kind": "todo", "id": "t-laundry", "title": "Do laundry", "scheduledFor": "2026-11-23"}),
        ),
        item(
            json!({"kind": "todo", "id": "t-tickets", "title": "Book tickets", "scheduledFor": "2026-11-23", "completed": true}),
        ),
        item(
            json!({"kind": "todo", "id": "t-passport", "title": "Renew passport", "scheduledFor": "2026-11-19"}),
        ),
        item(
            json!({"kind": "todo", "id": "t-bill", "title": "Pay the bill", "scheduledFor": "2026-11-20", "completed": true}),
        ),
        item(json!({"kind": "todo", "id": "t-milk", "title": "Buy milk"})),
        item(
            json!({"kind": "event", "id": "e-dentist", "title": "Dentist", "scheduledFor": "2026-11-25", "timeOfDay": "15:00", "endTime": "16:00"}),
        ),
        item(
            json!({"kind": "habit", "id": "h-meditate", "title": "Meditate", "scheduledFor": "2026-11-02",
            "recurrence": {"type": "daily"}, "completedOccurrences": ["2026-11-23"]}),
        ),
        item(
            json!({"kind": "habit", "id": "h-run", "title": "Run", "scheduledFor": "2026-11-03", "timeOfDay": "07:00",
            "recurrence": {"type": "weekly", "weekdays": ["tue", "thu", "sat"]}, "completedOccurrences": ["2026-11-21"]}),
        ),
        item(json!({"kind": "goal", "id": "g-fit", "title": "Get fit"})),
    ]
}

fn monday() -> Date {
    Date::parse("2026-11-23").unwrap()
}

fn d(s: &str) -> Date {
    Date::parse(s).unwrap()
}

fn ask(message: &str) -> PlannerAnswer {
    let items = planner();
    let q = read_question(message, Language::En, monday(), &items)
        .unwrap_or_else(|| panic!("not read as a question: {message}"));
    answer(&q, monday(), &items, Language::En)
}

fn ids(a: &PlannerAnswer) -> Vec<&str> {
    a.items.iter().map(|i| i.id.as_str()).collect()
}

fn question(asks: Asks, days: Option<(Date, Date)>, items: &[&str]) -> Question {
    let planner = planner();
    Question {
        asks,
        days,
        kinds: Vec::new(),
        items: items
            .iter()
            .map(|id| {
                let it = planner.iter().find(|i| i.id == *id).unwrap();
                ItemMatch {
                    id: it.id.clone(),
                    kind: it.kind,
                    title: it.title.clone(),
                    score: 1.0,
                }
            })
            .collect(),
    }
}

#[test]
fn a_day_names_every_occurrence_done_or_not_in_the_order_of_the_text() {
    let a = ask("what's on today?");
    assert_eq!(
        a.text,
        "Today: Book tickets (done), Do laundry and Meditate (done)."
    );
    assert_eq!(ids(&a), ["t-tickets", "t-laundry", "h-meditate"]);
    let a = ask("what do I have on wednesday?");
    assert_eq!(
        a.text,
        "Wednesday, November 25: Dentist at 3 PM and Meditate."
    );
    // Each item with the day the answer is about and its time.
    assert_eq!(a.items[0].scheduled_for.as_deref(), Some("2026-11-25"));
    assert_eq!(a.items[0].time_of_day.as_deref(), Some("15:00"));
    assert_eq!(a.items[1].scheduled_for.as_deref(), Some("2026-11-25"));
    assert_eq!(
        ask("anything on sunday?").text,
        "Sunday, November 29: Meditate."
    );
}

#[test]
fn a_long_range_lists_one_off_items_by_day_and_each_repeating_item_once() {
    let a = ask("how busy is my week?");
    assert_eq!(
        a.text,
        "This week: 13 things, most on Monday (3). Mon 23: Book tickets (done) and Do laundry. \
         Wed 25: Dentist at 3 PM. Repeating: Meditate (every day) and Run (Tue, Thu, Sat at 7 AM)."
    );
    assert_eq!(
        ids(&a),
        ["t-tickets", "t-laundry", "e-dentist", "h-meditate", "h-run"]
    );
    // A repeating item is named once, about its first occurrence in the range.
    let run = a.items.iter().find(|i| i.id == "h-run").unwrap();
    assert_eq!(run.scheduled_for.as_deref(), Some("2026-11-24"));
    // A short range goes day by day.
    let a = ask("what's on this weekend?");
    assert_eq!(
        a.text,
        "This weekend: Sat 28: Run at 7 AM and Meditate. Sun 29: Meditate."
    );
    assert_eq!(ids(&a), ["h-run", "h-meditate"]);
    // Goals and undated todos are never on a day.
    assert!(!ids(&ask("what's on next week?")).contains(&"t-milk"));
    assert_eq!(
        ids(&ask("which appointments do I have this week?")),
        ["e-dentist"]
    );
}

#[test]
fn left_overdue_when_and_done() {
    let a = ask("what's left for today?");
    assert_eq!(a.text, "Still to do today: Do laundry.");
    assert_eq!(ids(&a), ["t-laundry"]);
    let a = ask("what's overdue?");
    assert_eq!(
        a.text,
        "Overdue: Renew passport (due Thursday, November 19)."
    );
    assert_eq!(ids(&a), ["t-passport"]);
    let a = ask("when is my dentist appointment?");
    assert_eq!(
        a.text,
        "“Dentist” is on Wednesday, November 25 from 3 PM to 4 PM."
    );
    assert_eq!(ids(&a), ["e-dentist"]);
    let a = ask("when do I run?");
    assert_eq!(
        a.text,
        "“Run” is every Tuesday, Thursday and Saturday at 7 AM; next: tomorrow."
    );
    assert_eq!(a.items[0].scheduled_for.as_deref(), Some("2026-11-24"));
    let ran = "Yes, “Run” was done on Saturday, November 21.";
    for (message, text) in [
        ("when do I need to buy milk?", "“Buy milk” has no date yet."),
        (
            "when was the passport due?",
            "“Renew passport” was due on Thursday, November 19 and isn't done yet.",
        ),
        ("did I pay the bill?", "Yes, “Pay the bill” is done."),
        ("is the laundry done?", "No, “Do laundry” isn't done yet."),
        ("did I meditate today?", "Yes, “Meditate” is done today."),
        // A weekday in a past question is the last one, not the next.
        ("did I go running on saturday?", ran),
        // A first-person report asked as a question; "was I".
        ("I went running on saturday?", ran),
        ("was I running on saturday?", ran),
        // Without a day: today's occurrence, else the last one.
        ("did I run?", ran),
    ] {
        assert_eq!(ask(message).text, text, "{message}");
    }
    let a = ask("did I go running on saturday?");
    assert_eq!(a.items[0].scheduled_for.as_deref(), Some("2026-11-21"));
    let a = ask("when is my haircut?");
    assert_eq!(a.text, "I couldn't find that in your planner.");
    assert!(a.items.is_empty());
}

#[test]
fn nothing_to_name_is_said_plainly() {
    let items: Vec<PlannerItem> = Vec::new();
    let say = |asks, days| answer(&question(asks, days, &[]), monday(), &items, Language::En).text;
    let tue = Some((d("2026-11-24"), d("2026-11-24")));
    assert_eq!(say(Asks::Agenda, tue), "Nothing planned tomorrow.");
    assert_eq!(say(Asks::Busy, tue), "Tomorrow you have nothing planned.");
    assert_eq!(say(Asks::Left, None), "Nothing left to do today.");
    assert_eq!(say(Asks::Overdue, None), "Nothing is overdue.");
    assert_eq!(
        say(Asks::Agenda, Some((d("2026-11-30"), d("2026-12-06")))),
        "Nothing planned for next week."
    );
}

#[test]
fn the_same_answers_in_german_french_and_spanish() {
    let items = planner();
    let wed = Some((d("2026-11-25"), d("2026-11-25")));
    let cases: [(Question, [&str; 3]); 5] = [
        (
            question(Asks::Agenda, wed, &[]),
            [
                "Mittwoch, 25. November: Dentist um 15 Uhr und Meditate.",
                "Mercredi 25 novembre : Dentist à 15 h et Meditate.",
                "Miércoles 25 de noviembre: Dentist a las 15:00 y Meditate.",
            ],
        ),
        (
            question(Asks::Overdue, None, &[]),
            [
                "Überfällig: Renew passport (fällig am Donnerstag, 19. November).",
                "En retard : Renew passport (prévu le jeudi 19 novembre).",
                "Atrasado: Renew passport (era para el jueves 19 de noviembre).",
            ],
        ),
        (
            question(Asks::When, None, &["e-dentist"]),
            [
                "„Dentist“ ist am Mittwoch, 25. November von 15 Uhr bis 16 Uhr.",
                "« Dentist » : le mercredi 25 novembre de 15 h à 16 h.",
                "«Dentist» es el miércoles 25 de noviembre de 15:00 a 16:00.",
            ],
        ),
        (
            question(Asks::When, None, &["h-run"]),
            [
                "„Run“ ist jeden Dienstag, Donnerstag und Samstag um 7 Uhr; als Nächstes: morgen.",
                "« Run » : tous les mardis, jeudis et samedis à 7 h ; prochaine fois : demain.",
                "«Run» es los martes, jueves y sábados a las 7:00; la próxima: mañana.",
            ],
        ),
        (
            question(Asks::Done, None, &["h-meditate"]),
            [
                "Ja, „Meditate“ ist heute erledigt.",
                "Oui, « Meditate » est fait aujourd'hui.",
                "Sí, «Meditate» está hecho hoy.",
            ],
        ),
    ];
    for (q, want) in cases {
        for (lang, text) in [Language::De, Language::Fr, Language::Es]
            .into_iter()
            .zip(want)
        {
            let a = answer(&q, monday(), &items, lang);
            assert_eq!(a.text, text, "{lang}");
            // The items do not depend on the language.
            assert_eq!(a.items, answer(&q, monday(), &items, Language::En).items);
        }
    }
}

#[test]
fn not_questions_about_the_planner_are_left_alone() {
    let items = planner();
    for message in [
        "how are you?",
        "thanks!",
        "tell mom about the party on friday",
        "remind me to call the dentist tomorrow",
        "list the car for sale tomorrow",
        "can you move the dentist to friday?",
        "what's the meaning of life?",
        "move the dentist to friday?",
        "book a table for saturday?",
        "should I train today?",
        "is the gym still open tomorrow?",
        "should I look for a new job this week?",
    ] {
        assert_eq!(
            read_question(message, Language::En, monday(), &items),
            None,
            "{message}"
        );
    }
}

#[test]
fn periods_without_a_date() {
    let items = planner();
    let days = |message: &str| {
        read_question(message, Language::En, monday(), &items)
            .unwrap_or_else(|| panic!("{message}"))
            .days
    };
    let span = |a: &str, b: &str| Some((d(a), d(b)));
    assert_eq!(
        days("how busy is my week?"),
        span("2026-11-23", "2026-11-29")
    );
    assert_eq!(
        days("what's on for the weekend?"),
        span("2026-11-28", "2026-11-29")
    );
    assert_eq!(
        days("what do I have this month?"),
        span("2026-11-01", "2026-11-30")
    );
    assert_eq!(days("what's coming up?"), span("2026-11-23", "2026-11-29"));
    assert_eq!(
        days("can you tell me what's on tomorrow"),
        span("2026-11-24", "2026-11-24")
    );
    assert_eq!(
        days("remind me what's on friday"),
        span("2026-11-27", "2026-11-27")
    );
    assert_eq!(
        days("and the day after tomorrow?"),
        span("2026-11-25", "2026-11-25")
    );
    assert_eq!(days("what about friday?"), span("2026-11-27", "2026-11-27"));
    assert_eq!(
        days("next week, how is it looking?"),
        span("2026-11-30", "2026-12-06")
    );
    let tuesday = Date::parse("2026-11-24").unwrap();
    let rest = read_question(
        "what's left for the rest of the week?",
        Language::En,
        tuesday,
        &items,
    )
    .unwrap();
    assert_eq!(
        (rest.asks, rest.days),
        (Asks::Left, span("2026-11-24", "2026-11-29"))
    );
}

#[test]
fn of_equally_good_matches_the_one_with_its_own_word_is_answered() {
    let mut items = planner();
    let mut gift = items[0].clone();
    gift.id = "t-gift".into();
    gift.title = "Buy birthday gift for Anna".into();
    gift.scheduled_for = Some("2026-11-28".into());
    let mut doctor = items[5].clone();
    doctor.id = "e-doctor".into();
    doctor.title = "Doctor appointment".into();
    items[5].title = "Dentist appointment".into();
    items.extend([gift, doctor]);
    let named = |message: &str| {
        let q = read_question(message, Language::En, monday(), &items).unwrap();
        let a = answer(&q, monday(), &items, Language::En);
        a.items.into_iter().map(|i| i.id).collect::<Vec<_>>()
    };
    // "buy" is in both titles, "Anna" only in the gift's.
    assert_eq!(named("when do I have to buy Anna's present?"), ["t-gift"]);
    // Nothing tells the two appointments apart: both are answered.
    assert_eq!(named("when is my appointment?"), ["e-doctor", "e-dentist"]);
}

/// A question that only names an item ("and the dentist?") asks when it is, in every language;
/// a name with other words ("and the dentist bill?") is no such question.
#[test]
fn a_bare_name_with_a_question_mark_asks_when() {
    let items = planner();
    for (lang, message) in [
        (Language::En, "and the dentist?"),
        (Language::En, "what about the passport?"),
        (Language::De, "und der Dentist?"),
        (Language::Fr, "et le dentist ?"),
        (Language::Es, "¿y el dentist?"),
    ] {
        let q = read_question(message, lang, monday(), &items)
            .unwrap_or_else(|| panic!("not read as a question: {message}"));
        assert_eq!(q.asks, Asks::When, "{message}");
        let a = answer(&q, monday(), &items, lang);
        assert_eq!(ids(&a).len(), 1, "{message}: {a:?}");
    }
    for message in ["and the dentist bill?", "the dentist", "dentist sucks?"] {
        let q = read_question(message, Language::En, monday(), &items);
        assert!(
            q.as_ref().is_none_or(|q| q.asks != Asks::When),
            "{message}: {q:?}"
        );
    }
}
