//! Unit tests of the German reading: each rule class of `lang/de.rs` on phrasings of its own
//! (not the evaluation set's), read as of Monday 2026-11-23 against the German planner of
//! `tests/data/eval/assistant.de.json`.

use super::{is_participle, stem};
use crate::assistant::date::Date;
use crate::assistant::model::{
    ItemKind, OpType, PlannerItem, Priority, Recurrence, RecurrenceType, Weekday,
};
use crate::assistant::narrow::narrow_in;
use crate::assistant::reading::tests::weekly;
use crate::assistant::reading::{read_message_in, DateRole, Intent, Reading};
use crate::kernel::lang::Language;

const MON: &str = "2026-11-23";

fn today() -> Date {
    Date::parse(MON).unwrap()
}

/// The German evaluation set's planner (8 todos, 3 events, 3 habits, 2 goals).
fn planner() -> Vec<PlannerItem> {
    let set: serde_json::Value = serde_json::from_str(include_str!(
        "../../../../../tests/data/eval/assistant.de.json"
    ))
    .unwrap();
    serde_json::from_value(set["fixtures"]["planner"].clone()).unwrap()
}

fn r(msg: &str) -> Reading {
    read_message_in(msg, Language::De, today(), &planner())
}

fn day(msg: &str) -> Option<String> {
    r(msg).scheduled_for().map(str::to_string)
}

fn time(msg: &str) -> Option<String> {
    r(msg).time_of_day().map(str::to_string)
}

fn rec(msg: &str) -> Option<Recurrence> {
    r(msg).recurrence.map(|x| x.recurrence)
}

/// The operations the narrowed path builds without a model.
fn ops(msg: &str) -> Vec<crate::assistant::model::PlannerOperation> {
    narrow_in(msg, Language::De, today(), &planner())
        .resolve(None)
        .operations
}

/// Checks `read` on each message against its expected value.
fn each(read: fn(&str) -> Option<String>, cases: &[(&str, Option<&str>)]) {
    for (msg, want) in cases {
        assert_eq!(read(msg).as_deref(), *want, "{msg}");
    }
}

#[test]
fn relative_days_and_the_morning() {
    each(
        day,
        &[
            ("Altglas wegbringen heute", Some(MON)),
            ("morgen Altglas wegbringen", Some("2026-11-24")),
            ("Morgen Altglas wegbringen", Some("2026-11-24")),
            ("Übermorgen Altglas wegbringen", Some("2026-11-25")),
            ("uebermorgen Altglas", Some("2026-11-25")),
            ("heute Morgen Altglas wegbringen", Some(MON)),
            ("morgen früh Altglas", Some("2026-11-24")),
            // "Morgen" capitalised inside a sentence is the morning: no date.
            ("Altglas am Morgen um 7", None),
        ],
    );
    assert_eq!(r("gestern Altglas weggebracht").dates[0].date, "2026-11-22");
    assert!(r("Altglas wegbringen, jeden Morgen").recurrence.is_some());
    each(
        time,
        &[
            ("Altglas am Morgen um 7", Some("07:00")),
            ("heute Abend um 8 Altglas", Some("20:00")),
            ("morgen früh um 6 Altglas", Some("06:00")),
        ],
    );
}

#[test]
fn weekdays_and_their_abbreviations() {
    each(
        day,
        &[
            ("Altglas am Donnerstag", Some("2026-11-26")),
            ("Altglas Mo", Some("2026-11-30")),
            ("Altglas am Mo.", Some("2026-11-30")),
            ("Altglas am Di", Some("2026-11-24")),
            ("Altglas nächsten Dienstag", Some("2026-12-01")),
            ("Altglas diesen Freitag", Some("2026-11-27")),
            ("nächste Woche Mittwoch Elternabend", Some("2026-12-02")),
            ("Elternabend Mittwoch nächste Woche", Some("2026-12-02")),
            // "So" is Sunday next to a date word or a number, else a plain word; "Fr."
            // before a capitalised name is "Frau".
            ("So 10 Uhr Brunch", Some("2026-11-29")),
            ("Brunch am So", Some("2026-11-29")),
            ("so, morgen Brunch", Some("2026-11-24")),
            ("Fr. Müller anrufen", None),
            ("Fr Müller anrufen am Fr", Some("2026-11-27")),
        ],
    );
}

#[test]
fn months_ordinal_and_numeric_dates() {
    each(
        day,
        &[
            ("Altglas am 3. Dezember", Some("2026-12-03")),
            ("Altglas am 3. Dez.", Some("2026-12-03")),
            ("Altglas am 3.12.", Some("2026-12-03")),
            ("Altglas am 3.12", Some("2026-12-03")),
            ("Altglas am 03.12.2027", Some("2027-12-03")),
            ("Altglas am 3.12.27", Some("2027-12-03")),
            // Past this year: next year's.
            ("Altglas am 10. März", Some("2027-03-10")),
            ("Altglas am 10.3.", Some("2027-03-10")),
            // An ordinal day alone: the next such day of a month.
            ("Altglas am 5.", Some("2026-12-05")),
            ("Altglas bis zum 25.", Some("2026-11-25")),
            // "bis Juni" alone: by June 1.
            ("Altglas bis Juni", Some("2027-06-01")),
            // A number before "Uhr" or after "um" is a time, not a date; a full stop after it
            // makes a date.
            ("Altglas um 14.30", None),
            ("Altglas bis 15.30", None),
            ("Altglas bis 15.12.", Some("2026-12-15")),
        ],
    );
    assert_eq!(r("Altglas bis zum 25.").dates[0].role, DateRole::By);
}

#[test]
fn relative_weeks_months_and_counts() {
    each(
        day,
        &[
            ("nächste Woche Altglas", Some("2026-11-30")),
            ("nächsten Monat Altglas", Some("2026-12-01")),
            ("in 3 Tagen Altglas", Some("2026-11-26")),
            ("in zwei Wochen Altglas", Some("2026-12-07")),
            ("in einer Woche Altglas", Some("2026-11-30")),
            ("in einem Monat Altglas", Some("2026-12-23")),
            ("Altglas Ende des Monats", Some("2026-11-30")),
            ("Altglas zum Monatsende", Some("2026-11-30")),
            ("am Wochenende Altglas", Some("2026-11-28")),
            ("nächstes Wochenende Altglas", Some("2026-12-05")),
        ],
    );
}

#[test]
fn times_clock_words_and_the_afternoon_rule() {
    each(
        time,
        &[
            ("Altglas um 15 Uhr", Some("15:00")),
            ("Altglas um 15:30", Some("15:30")),
            ("Altglas 14.30 Uhr", Some("14:30")),
            ("Altglas um 9.45", Some("09:45")),
            ("Altglas um 9 Uhr", Some("09:00")),
            // A bare hour 1 to 6 is pm: "halb drei" is 14:30, "halb acht" 07:30.
            ("Altglas um halb drei", Some("14:30")),
            ("Altglas halb acht", Some("07:30")),
            ("Altglas um halb 3", Some("14:30")),
            ("Altglas halb eins", Some("12:30")),
            ("Altglas um viertel nach drei", Some("15:15")),
            ("Altglas um Viertel vor vier", Some("15:45")),
            ("Altglas um dreiviertel vier", Some("15:45")),
            ("Altglas um zehn nach drei", Some("15:10")),
            ("Altglas um fünf vor zwölf", Some("11:55")),
            // Parts of the day settle am and pm; alone they set no time.
            ("Altglas um 7 Uhr abends", Some("19:00")),
            ("abends um halb neun Altglas", Some("20:30")),
            ("nachmittags um 4 Altglas", Some("16:00")),
            ("morgens um 5 Altglas", Some("05:00")),
            ("Altglas abends", None),
        ],
    );
}

#[test]
fn ranges_and_durations() {
    let t = r("Workshop von 10 bis 11 Uhr").time.unwrap();
    assert_eq!(
        (t.time.as_deref(), t.end_time.as_deref()),
        (Some("10:00"), Some("11:00"))
    );
    let t = r("Workshop 14-15 Uhr").time.unwrap();
    assert_eq!(
        (t.time.as_deref(), t.end_time.as_deref()),
        (Some("14:00"), Some("15:00"))
    );
    let t = r("Workshop zwischen 2 und 4").time.unwrap();
    assert_eq!(
        (t.time.as_deref(), t.end_time.as_deref()),
        (Some("14:00"), Some("16:00"))
    );
    let t = r("Kaffee um 10 für 45 Min").time.unwrap();
    assert_eq!(t.end_time.as_deref(), Some("10:45"));
    let t = r("Kaffee um 10 für eine halbe Stunde").time.unwrap();
    assert_eq!(t.end_time.as_deref(), Some("10:30"));
    let t = r("Kaffee um 10 für anderthalb Stunden").time.unwrap();
    assert_eq!(t.end_time.as_deref(), Some("11:30"));
    // A time range or a duration makes an event.
    assert_eq!(r("Workshop von 10 bis 11 Uhr").kind.kind, ItemKind::Event);
}

#[test]
fn repeats() {
    use Weekday::{Fri, Mon, Sun, Thu, Tue, Wed};
    assert_eq!(rec("jeden Montag Altglas"), Some(weekly(&[Mon], None)));
    assert_eq!(rec("Altglas täglich").unwrap().kind, RecurrenceType::Daily);
    assert_eq!(
        rec("Altglas jeden Tag").unwrap().kind,
        RecurrenceType::Daily
    );
    assert_eq!(rec("Altglas wöchentlich"), Some(weekly(&[], None)));
    assert_eq!(rec("Altglas alle zwei Wochen"), Some(weekly(&[], Some(2))));
    assert_eq!(rec("Altglas zweiwöchentlich"), Some(weekly(&[], Some(2))));
    assert_eq!(
        rec("Altglas montags und donnerstags"),
        Some(weekly(&[Mon, Thu], None))
    );
    assert_eq!(
        rec("Altglas jeden Di und Do"),
        Some(weekly(&[Tue, Thu], None))
    );
    assert_eq!(
        rec("Altglas Mo-Fr"),
        Some(weekly(&[Mon, Tue, Wed, Thu, Fri], None))
    );
    assert_eq!(
        rec("Altglas Montag bis Mittwoch"),
        Some(weekly(&[Mon, Tue, Wed], None))
    );
    assert_eq!(
        rec("Altglas werktags"),
        Some(weekly(&[Mon, Tue, Wed, Thu, Fri], None))
    );
    assert_eq!(
        rec("jeden zweiten Sonntag Altglas"),
        Some(weekly(&[Sun], Some(2)))
    );
    assert_eq!(rec("Altglas einmal pro Woche"), Some(weekly(&[], None)));
    assert_eq!(
        rec("Altglas monatlich").unwrap().kind,
        RecurrenceType::Monthly
    );
    assert_eq!(
        rec("jeden 15. des Monats Altglas").map(|r| r.kind),
        Some(RecurrenceType::Monthly)
    );
    assert_eq!(
        day("jeden 15. des Monats Altglas").as_deref(),
        Some("2026-12-15")
    );
    let x = r("Altglas jeden Monat am 15.");
    assert_eq!(x.scheduled_for(), Some("2026-12-15"));
    assert_eq!(
        x.recurrence.unwrap().recurrence.kind,
        RecurrenceType::Monthly
    );
    // "bis" in a repeat ends it; elsewhere it is a deadline.
    assert_eq!(
        rec("Altglas jeden Tag bis 1. Juni")
            .unwrap()
            .until
            .as_deref(),
        Some("2027-06-01")
    );
    assert_eq!(r("Altglas bis Freitag").dates[0].role, DateRole::By);
    // From now on, those days.
    assert_eq!(
        rec("Altglas ab jetzt Di und Do"),
        Some(weekly(&[Tue, Thu], None))
    );
    assert_eq!(rec("Altglas künftig Mittwoch"), Some(weekly(&[Wed], None)));
    // A repeat with an activity is a habit.
    assert_eq!(r("jeden Tag joggen").kind.kind, ItemKind::Habit);
    assert_eq!(r("dienstags schwimmen gehen").kind.kind, ItemKind::Habit);
}

#[test]
fn priority_words() {
    use Priority::{High, Low, Medium};
    for (msg, want) in [
        ("Altglas, wichtig", High),
        ("Dringend: Altglas", High),
        ("Altglas hohe Priorität", High),
        ("Altglas so schnell wie möglich", High),
        ("Altglas niedrige Prio", Low),
        ("Altglas, nicht dringend", Low),
        ("Altglas, hat Zeit", Low),
        ("Altglas normale Priorität", Medium),
    ] {
        assert_eq!(r(msg).priority.map(|p| p.priority), Some(want), "{msg}");
    }
}

#[test]
fn completion_un_completion_and_reports() {
    let i = |m: &str| r(m).intent;
    for msg in [
        "Altglas erledigt",
        "Altglas ist fertig",
        "Altglas abhaken",
        "hak das Altglas ab",
        "hab das Altglas weggebracht",
        "Altglas weggebracht, danke",
        "Rechnung bezahlt",
        "heute meditiert",
        "Altglas als erledigt markieren",
    ] {
        assert_eq!(i(msg), Some(Intent::Complete), "{msg}");
    }
    for (msg, want) in [
        ("Altglas doch nicht erledigt", Some(Intent::Uncomplete)),
        ("hab heute nicht meditiert", Some(Intent::Uncomplete)),
        // A remark ("noch nicht") or an infinitive is no completion.
        ("hab das Altglas noch nicht weggebracht", None),
        ("morgen Mietwagen zurückgeben", Some(Intent::Create)),
        ("morgen zum Sport gehen", Some(Intent::Create)),
        ("morgen Altglas erledigen", Some(Intent::Create)),
        // Booked for a day: a new item, not a report.
        ("Tisch für Freitag um 8 reserviert", Some(Intent::Create)),
        // Someone else did it, it happened, or it was skipped: no report of a task done.
        ("Mama hat angerufen", None),
        ("Paket ist angekommen", None),
        ("Lauf heute ausgelassen", None),
    ] {
        assert_eq!(i(msg), want, "{msg}");
    }
    // "war ... laufen": I went.
    assert_eq!(i("war gestern schwimmen"), Some(Intent::Complete));
    assert!(is_participle("angerufen") && is_participle("eingereicht"));
    assert!(is_participle("gemacht") && is_participle("meditiert") && is_participle("bezahlt"));
    assert!(!is_participle("zuruckgeben") && !is_participle("gehen") && !is_participle("gestern"));
}

#[test]
fn removal_change_creation_and_goal_verbs() {
    let i = |m: &str| r(m).intent;
    for msg in [
        "Altglas löschen",
        "lösch das Altglas",
        "Altglas streichen",
        "Altglas entfernen",
        "Altglas absagen",
        "sag das Altglas ab",
        "Altglas fällt aus",
        "das Altglas fällt morgen aus",
        "brauch das Altglas nicht mehr",
    ] {
        assert_eq!(i(msg), Some(Intent::Delete), "{msg}");
    }
    for msg in [
        "Altglas verschieben auf Freitag",
        "verleg das Altglas",
        "Altglas auf Freitag",
        "Altglas auf 14 Uhr",
        "Altglas auf niedrige Prio",
        "Altglas umbenennen in Altpapier",
    ] {
        assert_eq!(i(msg), Some(Intent::Update), "{msg}");
    }
    for msg in [
        "erinnere mich an das Altglas",
        "trag Altglas für Freitag ein",
        "neue Aufgabe: Altglas",
        "ich muss noch Altglas wegbringen",
        "neuer Termin beim Notar",
        "Termin beim Notar am Freitag",
    ] {
        assert_eq!(i(msg), Some(Intent::Create), "{msg}");
    }
    assert_eq!(i("Neues Ziel: Spanisch lernen"), Some(Intent::Goal));
    assert_eq!(i("Ich will bis März 5 Kilo abnehmen"), Some(Intent::Goal));
    // With a verb of its own, "auf" is only "to": "Termin auf Freitag legen" creates.
    assert_eq!(i("neuen Termin auf Freitag legen"), Some(Intent::Create));
}

#[test]
fn kinds() {
    use ItemKind::{Event, Goal, Habit, Todo};
    for (msg, want) in [
        ("Termin beim Notar am Freitag", Event),
        ("Notartermin am Freitag", Event),
        ("Weihnachtsfeier am Freitag", Event),
        ("Projektbesprechung am Freitag", Event),
        ("Essen bei Marco am Freitag", Event),
        ("neue Gewohnheit: Zähne putzen", Habit),
        ("Ziel: Spanisch lernen", Goal),
        ("morgen Altglas wegbringen", Todo),
        // A verb ending in "essen" is no meal.
        ("nicht vergessen: Altglas am Freitag", Todo),
    ] {
        assert_eq!(r(msg).kind.kind, want, "{msg}");
    }
}

#[test]
fn questions_change_nothing_and_keep_their_dates() {
    for (msg, date) in [
        ("was steht heute an?", Some(MON)),
        ("was hab ich am Donnerstag", Some("2026-11-26")),
        ("hab ich morgen was vor?", Some("2026-11-24")),
        ("was ist übermorgen", Some("2026-11-25")),
        ("wann ist der Zahnarzttermin", None),
        ("habe ich die Wäsche erledigt?", None),
        ("ist die Wäsche erledigt", None),
        ("was ist überfällig", None),
        ("wie voll ist meine Woche", None),
        ("wie sieht nächste Woche aus", Some("2026-11-30")),
        ("soll ich das Teammeeting verschieben?", None),
    ] {
        let x = r(msg);
        assert_eq!(x.intent, Some(Intent::Nothing), "{msg}");
        assert!(x.question, "{msg}");
        assert_eq!(x.dates.first().map(|d| d.date.as_str()), date, "{msg}");
    }
    // A polite request is no question.
    assert_eq!(
        r("kannst du das Teammeeting löschen?").intent,
        Some(Intent::Delete)
    );
    // Small talk.
    for msg in [
        "danke!",
        "hallo",
        "ok passt",
        "super, danke dir",
        "alles klar",
    ] {
        assert_eq!(r(msg).intent, Some(Intent::Nothing), "{msg}");
    }
}

#[test]
fn titles_keep_the_users_words_without_filler_at_the_edges() {
    let t = |m: &str| r(m).title;
    assert_eq!(
        t("Bitte noch Brot kaufen morgen").as_deref(),
        Some("Brot kaufen")
    );
    assert_eq!(
        t("Erinnere mich morgen, den Müll rauszubringen").as_deref(),
        Some("Müll rauszubringen")
    );
    assert_eq!(t("um 7 Uhr abends Sport").as_deref(), Some("Sport"));
    assert_eq!(
        t("Dringend: Reisepass bis Freitag verlängern").as_deref(),
        Some("Reisepass verlängern")
    );
    assert_eq!(
        t("mal eben die Garage aufräumen, niedrige Prio").as_deref(),
        Some("Garage aufräumen")
    );
    assert_eq!(
        t("neue Aufgabe: Fenster putzen").as_deref(),
        Some("Fenster putzen")
    );
    // A rename takes the new title, the verb first or last.
    assert_eq!(
        t("Milch kaufen umbenennen in Hafermilch kaufen").as_deref(),
        Some("Hafermilch kaufen")
    );
    assert_eq!(
        t("Milch kaufen in Hafermilch kaufen umbenennen").as_deref(),
        Some("Hafermilch kaufen")
    );
}

#[test]
fn references_match_german_titles() {
    let best = |m: &str| r(m).matches.first().map(|x| (x.id.clone(), x.score));
    // A part of a compound: half a match, never a strong one alone.
    assert_eq!(
        best("das Zahnarzt-Ding"),
        Some(("event-dentist".into(), 0.5))
    );
    assert_eq!(best("den Termin"), Some(("event-dentist".into(), 0.5)));
    // Verbs weigh half: "Geschenk" (0.5) and "Anna" (1) of "Geburtstagsgeschenk für Anna
    // kaufen" (weights 1, 1, 0.5); the noun alone of "Spesenabrechnung einreichen".
    assert_eq!(best("Geschenk für Anna"), Some(("todo-gift".into(), 0.6)));
    assert_eq!(best("Spesenabrechnung"), Some(("todo-report".into(), 0.67)));
    // A compound holding a title word.
    assert_eq!(
        best("das Urlaubsziel").map(|b| b.0),
        Some("goal-vacation".into())
    );
    // Stems: "laufen" and "Morgenlauf", "Bücher" and "Bücherei".
    assert_eq!(best("war laufen").map(|b| b.0), Some("habit-run".into()));
    assert!(best("Bücher zurückbringen").unwrap().1 >= 0.6);
    // A title's nouns must match: a shared verb names nothing.
    assert_eq!(best("Bank anrufen"), None);
    assert_eq!(best("Brot kaufen"), None);
    // Words read as dates or parts of the day name nothing ("morgen", "Morgenlauf").
    assert_eq!(best("morgen früh um 8"), None);
    assert_eq!(best("morgens um 6"), None);
    // Umlauts count as one letter: "überweisen" shares no 4 letters with "üben".
    assert_eq!(best("Miete überweisen"), None);
    assert_eq!(stem("laufen"), "lauf");
    assert_eq!(stem("annas"), "anna");
    assert_eq!(stem("üben"), "üben");
}

#[test]
fn the_narrowed_path_builds_german_requests() {
    let one = |m: &str| {
        let o = ops(m);
        assert_eq!(o.len(), 1, "{m}: {o:?}");
        o[0].clone()
    };
    let o = one("das Zahnarzt-Ding auf Do 16 Uhr");
    assert_eq!(
        (o.op, o.id.as_deref()),
        (OpType::Update, Some("event-dentist"))
    );
    assert_eq!(o.scheduled_for.as_deref(), Some("2026-11-26"));
    assert_eq!(o.time_of_day.as_deref(), Some("16:00"));
    let o = one("Klavier üben ab jetzt montags");
    assert_eq!(o.recurrence, Some(weekly(&[Weekday::Mon], None)));
    let o = one("Milch kaufen in Hafermilch kaufen umbenennen");
    assert_eq!(o.title.as_deref(), Some("Hafermilch kaufen"));
    let o = one("Klavier üben mit dem Ziel Fit werden verbinden");
    assert_eq!(o.op, OpType::GoalAddItems);
    let o = one("hab gestern meditiert");
    assert_eq!(o.op, OpType::CompleteOccurrence);
    assert_eq!(o.occurrence_date.as_deref(), Some("2026-11-22"));
    let o = one("Elternabend am Do. um Viertel nach 7 abends");
    assert_eq!(
        (o.op, o.time_of_day.as_deref()),
        (OpType::Create, Some("19:15"))
    );
    // Two requests joined by "und".
    assert_eq!(
        ops("heute Altglas wegbringen und morgen Brot kaufen").len(),
        2
    );
    // A verb shared with an item's title names nothing: no completion of "Klempner anrufen".
    assert!(ops("Bank anrufen erledigt").is_empty());
    // "Zahnarzt um 3" names a part of "Zahnarzttermin": a new item, as in English.
    assert_eq!(one("Zahnarzt um 3").op, OpType::Create);
    // A title's noun is a strong match: a priority changes the item.
    let o = one("Spesenabrechnung ist wichtig");
    assert_eq!((o.op, o.priority), (OpType::Update, Some(Priority::High)));
    let o = one("Setz die Spesenabrechnung auf niedrige Priorität");
    assert_eq!((o.op, o.priority), (OpType::Update, Some(Priority::Low)));
    // A habit cancelled for a day is not deleted; a day without it is no new item.
    assert!(ops("Klavier üben fällt heute aus").is_empty());
    assert!(ops("Morgen kein Morgenlauf").is_empty());
    assert!(ops("Klavier üben heute ausfallen lassen").is_empty());
    // "war beim ...": a report of having gone.
    let o = one("Ich war heute beim Zahnarzt");
    assert_eq!(
        (o.op, o.id.as_deref()),
        (OpType::Complete, Some("event-dentist"))
    );
}
