//! German words for the reading (see [`super`]): phrases and the English words they become, the
//! rules a table cannot say (the hook), and what matching German titles needs.
//!
//! ## Rules of the hook (tried at each word before the phrases)
//! - **Numeric dates and times**: "18.12." and "18.12" are December 18 (the English reading
//!   rolls a past date to next year), "03.12.2026" and "3.12.26" that day; "14.30" after "um",
//!   "gegen", "ab", "bis" or before "Uhr" is 14:30. An ordinal day without a month after "am",
//!   "den", "zum", "bis", "ab" ("jeden Monat am 1.", "bis zum 5.") is "the 1st".
//! - **Clock words**: "halb drei" is 2:30, "viertel nach drei" 3:15, "viertel vor vier" and
//!   "dreiviertel vier" 3:45; after "um" or "gegen", "zehn nach drei" 3:10 and "fünf vor zwölf"
//!   11:55. The English reading then settles am and pm: a bare hour 1 to 6 is pm ("halb drei" is
//!   14:30), 7 to 11 am, unless "morgens", "abends", "nachmittags" ... say otherwise.
//! - **"morgen"** is tomorrow; "Morgen" capitalised inside a sentence is the morning ("am
//!   Morgen", "jeden Morgen", "heute Morgen" and "morgen früh" are phrases).
//! - **Abbreviations**: "Fr" is Friday unless a capitalised name follows ("Fr. Müller"); "So" is
//!   Sunday only capitalised next to a date word, a number or another weekday ("am So", "So 10
//!   Uhr", "Sa/So").
//! - **Weekday ranges**: "Mo-Fr", "Montag bis Freitag", "von Mo bis Mi": those days every week.
//! - **"bis"**: the end of a repeat ("until") in a message with a repeat word, and in a time
//!   range ("9 bis 12"); else a deadline ("by"). "bis Juni" alone is by June 1.
//! - **"auf" before a date, time or priority** with no other verb ("Teammeeting auf 14 Uhr", "das
//!   Zahnarzt-Ding auf Fr"): a change, "move to".
//! - **Separable verbs**: "sag ... ab" cancels, "trag ... ein" adds, "hak ... ab" ticks off,
//!   "nimm ... raus" removes, "fällt ... aus" is cancelled, "benenn ... um" renames; a particle
//!   ending a clause ("an", "ab", "aus", "ein", "vor") is dropped.
//! - **Reports of something done**: a past participle ending its clause ("hab die
//!   Spesenabrechnung eingereicht", "heute Klavier geübt", "ist bezahlt") is "done", unless it
//!   books something for a day ("Tisch für Freitag reserviert"); negated it is "not done"
//!   ("hab heute nicht meditiert"), and with "noch" a remark that changes nothing ("noch nicht
//!   zurückgebracht"); "(ich) war gestern laufen" is "I went".
//! - **"brauch ... nicht mehr"**: "don't need" (a removal).
//! - **"um" before an amount** ("um eine Stunde nach hinten"): dropped, so the amount reads as a
//!   relative change.
//! - **"nächste Woche Mittwoch"**, "Mittwoch nächste Woche": that weekday of that week.
//! - **"ab jetzt Di und Do"**, "künftig montags": every one of those days from now on.
//! - **"noch machen", "noch offen", "noch an"** in a question: what is left.
//! - **Questions**: "hab ich", "habe ich", "war ich", "bin ich", "ist", "sind", "muss ich", "soll
//!   ich", "kann ich" opening a sentence ask ("did I", "do I have", "is" ...); "was" and "wie"
//!   opening one are "what" and "how"; "wie sieht ... aus" is "how is ... looking".
//! - **Kinds in compounds**: a noun ending in "termin", "meeting", "besprechung", "feier",
//!   "party", "essen", "gespräch" ... is an event word ("Zahnarzttermin", "Weihnachtsfeier").

use super::super::lex::Lexed;
use super::table::{fold, RefWords, Rewrite, Table};

#[cfg(test)]
mod tests;

pub(super) static TABLE: Table = Table {
    phrases: PHRASES,
    hook,
    conjunctions: CONJUNCTIONS,
};

const CONJUNCTIONS: &[&str] = &["und", "sowie"];

/// What matching German titles needs (`reading/refs.rs`).
pub(super) static REFS: RefWords = RefWords {
    stop: STOP_WORDS,
    generic: GENERIC,
    stem,
    compounds: true,
};

/// Words left out when matching titles.
const STOP_WORDS: &[&str] = &[
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines",
    "und", "oder", "mit", "für", "fürs", "von", "vom", "zum", "zur", "im", "am", "an", "auf",
    "aus", "bei", "beim", "nach", "vor", "bis", "zu", "ist", "sind", "war", "bin", "hab", "habe",
    "hat", "haben", "mein", "meine", "meinen", "meinem", "meiner", "ich", "du", "er", "sie", "es",
    "wir", "mich", "mir", "dich", "dir", "nicht", "noch", "schon", "mal", "bitte", "auch", "nur",
    "ja", "doch", "wie", "was", "wann", "wo", "als", "um", "über", "werden", "wird", "kannst",
    "kann", "muss", "soll", "erst", "gerade", "eben",
];

/// Words that name no item.
const GENERIC: &[&str] = &[
    "ding",
    "dings",
    "sache",
    "sachen",
    "zeug",
    "aufgabe",
    "aufgaben",
    "erinnerung",
    "gewohnheit",
    "ziel",
    "eintrag",
];

/// A light German stemmer: one ending of "-en", "-er", "-es", "-em", "-e", "-n", "-s" when at
/// least 4 letters stay ("laufen" and "Lauf", "Bücher" and "Büch", "Annas" and "Anna").
fn stem(w: &str) -> String {
    for suf in ["en", "er", "es", "em", "e", "n", "s"] {
        if let Some(rest) = w.strip_suffix(suf) {
            if rest.chars().count() >= 4 {
                return rest.to_string();
            }
        }
    }
    w.to_string()
}

/// Phrases, each with the English words it becomes (an empty string drops the words).
const PHRASES: &[(&str, &str)] = &[
    // Days.
    ("heute", "today"),
    ("morgen", "tomorrow"),
    ("übermorgen|uebermorgen", "in 2 days"),
    ("gestern", "yesterday"),
    ("heute abend|nacht", "tonight"),
    ("heute morgen|früh|frueh|vormittag", "today morning"),
    ("heute nachmittag", "today afternoon"),
    ("heute mittag", "today noon"),
    ("morgen früh|frueh|vormittag", "tomorrow morning"),
    ("morgen nachmittag", "tomorrow afternoon"),
    ("morgen abend|nacht", "tomorrow evening"),
    ("morgen mittag", "tomorrow noon"),
    (
        "übermorgen|uebermorgen früh|frueh|vormittag",
        "in 2 days morning",
    ),
    ("übermorgen|uebermorgen abend", "in 2 days evening"),
    ("am morgen", "in the morning"),
    ("jeden morgen", "every morning"),
    ("guten morgen", "good morning"),
    ("morgens|vormittags|vormittag|früh|frueh", "morning"),
    ("nachmittags|nachmittag", "afternoon"),
    ("mittags", "afternoon"),
    ("abends|abend", "evening"),
    ("nachts|nacht", "night"),
    ("mitternacht", "midnight"),
    // Weekdays ("so" and "fr": the hook).
    ("montag|mo", "monday"),
    ("dienstag|di", "tuesday"),
    ("mittwoch|mi", "wednesday"),
    ("donnerstag|do", "thursday"),
    ("freitag|fr", "friday"),
    ("samstag|sonnabend|sa", "saturday"),
    ("sonntag", "sunday"),
    ("montags", "mondays"),
    ("dienstags", "tuesdays"),
    ("mittwochs", "wednesdays"),
    ("donnerstags", "thursdays"),
    ("freitags", "fridays"),
    ("samstags|sonnabends", "saturdays"),
    ("sonntags", "sundays"),
    ("werktags|wochentags", "weekdays"),
    ("an werktagen|wochentagen", "weekdays"),
    ("unter der woche", "weekdays"),
    ("wochenende", "weekend"),
    ("am wochenende", "on the weekend"),
    ("diesem|dieses wochenende", "this weekend"),
    ("nächstes|naechstes|kommendes wochenende", "next weekend"),
    ("jedes wochenende", "every weekend"),
    ("wochenends", "weekends"),
    ("am|an wochenenden", "weekends"),
    // Months.
    ("januar|jänner|jan", "january"),
    ("februar|feb|febr", "february"),
    ("märz|maerz|mär|mrz", "march"),
    ("april|apr", "april"),
    ("mai", "may"),
    ("juni|jun", "june"),
    ("juli|jul", "july"),
    ("august|aug", "august"),
    ("september|sep|sept", "september"),
    ("oktober|okt", "october"),
    ("november|nov", "november"),
    ("dezember|dez", "december"),
    // Weeks, months, years.
    (
        "nächste|nächsten|nächster|nächstes|naechste|naechsten|naechster|naechstes",
        "next",
    ),
    ("kommende|kommenden|kommender|kommendes", "coming"),
    ("kommende|kommenden woche", "next week"),
    ("diese|diesen|dieser|dieses|diesem", "this"),
    ("tag", "day"),
    ("tage|tagen", "days"),
    ("woche", "week"),
    ("wochen", "weeks"),
    ("monat", "month"),
    ("monate|monaten", "months"),
    ("jahr", "year"),
    ("jahre|jahren", "years"),
    ("ende des|dieses monats", "end of the month"),
    ("ende monat|monats", "end of the month"),
    ("monatsende", "end of the month"),
    (
        "ende nächsten|naechsten|kommenden monats",
        "end of next month",
    ),
    (
        "ende des nächsten|naechsten|kommenden monats",
        "end of next month",
    ),
    ("ende des|dieses jahres", "end of the year"),
    ("jahresende", "end of the year"),
    ("in einer woche", "in a week"),
    ("in einem monat", "in a month"),
    ("in einem jahr", "in a year"),
    ("heute in einer woche", "a week from today"),
    // Numbers.
    ("ein|eine|einen|einem|einer|eines", "a"),
    ("eins", "1"),
    ("zwei", "2"),
    ("drei", "3"),
    ("vier", "4"),
    ("fünf|fuenf", "5"),
    ("sechs", "6"),
    ("sieben", "7"),
    ("acht", "8"),
    ("neun", "9"),
    ("zehn", "10"),
    ("elf", "11"),
    ("zwölf|zwoelf", "12"),
    ("vierzehn", "14"),
    // Times, durations.
    ("um", "at"),
    ("gegen", "around"),
    ("uhr", "o'clock"),
    ("zwischen", "between"),
    ("minute|minuten|min|mins", "minutes"),
    ("stunde|std", "hour"),
    ("stunden", "hours"),
    ("eine halbe stunde", "half an hour"),
    ("ne halbe stunde", "half an hour"),
    ("anderthalb|eineinhalb stunden", "an hour and a half"),
    ("später|spaeter", "later"),
    ("früher|frueher", "earlier"),
    ("um wie viel uhr", "what time"),
    ("um wieviel uhr", "what time"),
    ("wie spät|spaet", "what time"),
    // Repeats.
    ("jeden|jede|jedes|jeder", "every"),
    ("alle", "every"),
    ("jeden|jede|jedes zweiten|zweite|zweites", "every other"),
    (
        "jeden|jede|jedes dritten|dritte|drittes tag",
        "every 3 days",
    ),
    (
        "jeden|jede|jedes dritten|dritte|drittes woche",
        "every 3 weeks",
    ),
    ("täglich|taeglich", "daily"),
    ("wöchentlich|woechentlich", "weekly"),
    (
        "zweiwöchentlich|zweiwoechentlich|vierzehntägig|vierzehntaegig",
        "biweekly",
    ),
    ("monatlich", "monthly"),
    ("jährlich|jaehrlich", "yearly"),
    ("jedes|jeden monats", "of every month"),
    ("einmal pro|die|im woche", "once a week"),
    ("einmal in der woche", "once a week"),
    ("einmal pro|im monat", "once a month"),
    ("ab jetzt|sofort", ""),
    ("von jetzt an", ""),
    ("von nun an", ""),
    ("künftig|kuenftig|zukünftig", ""),
    ("in zukunft", ""),
    // Priority.
    (
        "wichtig|wichtige|wichtiger|wichtiges|wichtigen",
        "important",
    ),
    ("sehr wichtig", "important"),
    (
        "dringend|dringende|dringender|dringendes|eilig|eilt",
        "urgent",
    ),
    ("so schnell wie möglich|moeglich", "asap"),
    ("schnellstmöglich|schnellstmoeglich", "asap"),
    ("priorität|prioritaet|prio", "priority"),
    (
        "hohe|höchste|hoechste|hoher|hohen priorität|prioritaet|prio",
        "high priority",
    ),
    ("priorität|prioritaet|prio hoch", "high priority"),
    (
        "niedrige|niedriger|niedrigen|geringe|geringer priorität|prioritaet|prio",
        "low priority",
    ),
    ("priorität|prioritaet|prio niedrig", "low priority"),
    (
        "mittlere|mittlerer|normale|normaler priorität|prioritaet|prio",
        "medium priority",
    ),
    ("nicht dringend|wichtig|eilig", "not urgent"),
    ("keine eile", "no rush"),
    ("hat zeit", "no rush"),
    ("irgendwann", "someday"),
    // Completion, un-completion.
    ("erledigt|fertig|geschafft|abgehakt|abhaken", "done"),
    ("als erledigt markieren|abhaken", "mark as done"),
    ("ist|sind erledigt|fertig", "done"),
    ("fertig mit", "done with"),
    ("bin|sind fertig mit", "done with"),
    ("fertig machen|stellen", "finish"),
    ("fertigmachen|fertigstellen", "finish"),
    ("doch nicht erledigt|fertig|gemacht", "not done"),
    ("nicht erledigt|fertig", "not done"),
    ("noch nicht erledigt|fertig|gemacht|geschafft", "not yet"),
    ("noch nicht", "not yet"),
    ("wieder öffnen|oeffnen|aufmachen", "reopen"),
    ("wieder offen", "reopen"),
    ("als offen|unerledigt markieren", "as not done"),
    ("unerledigt", "not done"),
    ("rückgängig|rueckgaengig machen", "undo"),
    ("rückgängig|rueckgaengig", "undo"),
    ("markieren|markier|markiere", "mark"),
    ("als", "as"),
    // Removal.
    (
        "löschen|lösch|lösche|löscht|gelöscht|loeschen|loesch|loesche",
        "delete",
    ),
    ("streichen|streich|streiche|gestrichen", "delete"),
    ("entfernen|entfern|entferne|entfernt", "remove"),
    (
        "absagen|abgesagt|canceln|cancel|stornieren|storniere|storniert",
        "cancel",
    ),
    ("rausnehmen|rauswerfen|rausschmeißen", "remove"),
    ("fällt|faellt aus", "cancelled"),
    ("fällt|faellt weg", "cancelled"),
    ("ausfallen", "cancel"),
    // Skipping a day is no removal.
    ("ausfallen lassen", "skip"),
    ("ausgelassen|übersprungen|uebersprungen|ausgesetzt", "skip"),
    (
        "aussetzen|auslassen|überspringen|ueberspringen|pausieren|skippen",
        "skip",
    ),
    ("vergiss", "forget about"),
    ("vergiss nicht", "dont forget to"),
    ("nicht vergessen", "dont forget to"),
    // Changes.
    ("verschieben|verschieb|verschiebe|verschoben", "move"),
    ("schieben|schieb|schiebe", "move"),
    ("verlegen|verleg|verlege|verlegt", "move"),
    ("umplanen|umlegen", "move"),
    ("ändern|änder|ändere|geändert|aendern|aendere", "change"),
    ("umbenennen|umbenennt|umbenannt", "rename"),
    ("setz|setze|setzen|stell|stelle|stellen", "change"),
    ("umbenennen in|zu|auf", "rename to"),
    ("nach hinten", "later"),
    ("nach vorne|vorn", "earlier"),
    ("aktualisieren|aktualisiere", "update"),
    // Creation. A modal's "to" is followed by "then" (a filler), so that a date right after it
    // ("ich will bis Juni ...") does not take the "to" as its preposition.
    ("erinner|erinnere|erinnern mich", "remind me"),
    ("erinner|erinnere|erinnern mich daran|dran", "remind me to"),
    ("erinnern sie mich", "remind me"),
    ("erinnerst du mich", "remind me"),
    (
        "eintragen|einplanen|hinzufügen|hinzufuegen|notieren|notier|notiere",
        "add",
    ),
    ("planen|plane", "plan"),
    ("anlegen|erstellen|erstelle|erstell", "create"),
    ("buchen|buche|buch", "book"),
    ("vereinbaren|ausmachen", "schedule"),
    ("neu|neue|neuer|neues|neuen", "new"),
    ("ich muss|müsste|muesste", "i need to then"),
    ("muss|müssen|muessen", "need to"),
    ("ich sollte|soll", "i should"),
    ("ich will", "i want to then"),
    ("will", "want to"),
    ("ich möchte|moechte", "i'd like to then"),
    ("ich würde|wuerde gern|gerne", "i'd like to then"),
    ("denk dran|daran", "remember to"),
    ("denke dran|daran", "remember to"),
    ("merk|merke dir", "remember to"),
    // Kinds.
    (
        "termin|termine|verabredung|treffen|besprechung|sitzung",
        "appointment",
    ),
    ("meeting|meetings", "meeting"),
    ("abendessen", "dinner"),
    ("mittagessen", "lunch"),
    ("frühstück|fruehstueck", "breakfast"),
    ("friseur|frisör|frisoer", "haircut"),
    ("feier|party|fete", "party"),
    ("konzert", "concert"),
    ("flug|flüge", "flight"),
    ("hochzeit", "wedding"),
    ("kino", "movie"),
    ("gewohnheit|gewohnheiten", "habit"),
    ("routine", "routine"),
    ("ziel|ziele", "goal"),
    ("mein ziel ist", "my goal is to"),
    ("aufgabe|aufgaben|todo", "task"),
    ("erinnerung", "reminder"),
    // Activities (a repeat with one is a habit).
    ("laufen|joggen|rennen|lauf", "run"),
    ("laufen|joggen|rennen gehen", "run"),
    ("spazieren|spazierengehen|spaziergang", "walk"),
    ("schwimmen", "swim"),
    ("schwimmen gehen", "swim"),
    ("meditieren|meditation", "meditate"),
    ("dehnen|dehnübungen", "stretch"),
    ("sport|training|trainieren|workout", "exercise"),
    ("fitnessstudio|fitness", "gym"),
    ("lesen", "read"),
    ("lernen|üben|ueben", "practice"),
    ("vitamine|vitamin", "vitamins"),
    ("wasser", "water"),
    ("klavier", "piano"),
    ("gitarre", "guitar"),
    ("tagebuch", "journal"),
    ("schlafen", "sleep"),
    // Links to a goal.
    (
        "verknüpfen|verknuepfen|verknüpf|verbinden|verbinde|zuordnen|zuordne",
        "link",
    ),
    // Questions.
    ("wann", "when"),
    ("bis wann", "when"),
    ("wo", "where"),
    ("welche|welcher|welches|welchen", "which"),
    ("warum|wieso|weshalb", "why"),
    (
        "überfällig|ueberfaellig|überfällige|überfälligen|verpasst",
        "overdue",
    ),
    ("im|in meinem kalender", "in my calendar"),
    ("schon|bereits", "already"),
    ("kannst|könntest|koenntest|würdest|wuerdest du", "can you"),
    ("kannst du mal", "can you"),
    ("wie viel|wieviel", "how much"),
    ("frei", "free"),
    ("gibt es", "is there"),
    ("gibts", "is there"),
    // Small talk.
    ("danke|dankeschön|merci", "thanks"),
    ("danke schön", "thanks"),
    ("vielen dank", "thanks"),
    ("hallo|moin|servus|hey|hi", "hello"),
    ("passt|gut|okay|ok", "fine"),
    ("super|toll|prima|perfekt|klasse|spitze", "great"),
    ("alles klar", "alright"),
    ("ja|jo|jep", "yes"),
    ("nein|nö|noe|nee", "no"),
    ("tschüss|tschuess|ciao", "bye"),
    ("gute nacht", "good night"),
    // Function words.
    ("der|die|das|den|dem|des", "the"),
    ("mein|meine|meinen|meinem|meiner|meines", "my"),
    ("ich", "i"),
    ("mich|mir", "me"),
    ("du", "you"),
    ("es", "it"),
    ("und", "and"),
    ("oder", "or"),
    ("mit", "with"),
    ("für|fuer", "for"),
    ("fürs|fuers", "for the"),
    ("von", "from"),
    ("vom", "from the"),
    ("zum|zur", "to the"),
    ("zu", "to"),
    ("im", "in"),
    ("am", "on"),
    ("an", "on"),
    ("auf", "to"),
    ("ab", "from"),
    ("ab heute", "starting today"),
    ("ab morgen", "starting tomorrow"),
    ("vor", "before"),
    ("nach", "after"),
    ("beim", "at the"),
    ("bis", "by"),
    ("fällig|faellig", "due"),
    ("nicht", "not"),
    ("nie|niemals", "never"),
    ("kein|keine|keinen", "no"),
    ("bitte", "please"),
    ("gerade|eben|grad", "just"),
    ("auch", "also"),
    ("dann", "then"),
    ("mal|noch|doch|halt|nochmal|erst|einfach|nur", ""),
    ("ist|sind", ""),
    ("los", ""),
    ("liste", "list"),
];

/// What the table cannot say: the rules in the module docs, tried at each word.
fn hook(p: &Lexed, i: usize) -> Option<Rewrite> {
    numeric(p, i)
        .or_else(|| clock_words(p, i))
        .or_else(|| by_amount(p, i))
        .or_else(|| morning(p, i))
        .or_else(|| abbreviation(p, i))
        .or_else(|| from_now_on(p, i))
        .or_else(|| day_of_every_month(p, i))
        .or_else(|| weekday_of_week(p, i))
        .or_else(|| weekday_range(p, i))
        .or_else(|| bis(p, i))
        .or_else(|| auf(p, i))
        .or_else(|| question(p, i))
        .or_else(|| still_to_do(p, i))
        .or_else(|| went(p, i))
        .or_else(|| separable(p, i))
        .or_else(|| no_longer_need(p, i))
        .or_else(|| participle(p, i))
        .or_else(|| compound_kind(p, i))
}

fn rw(end: usize, words: &[&str]) -> Option<Rewrite> {
    Some(Rewrite {
        end,
        words: words.iter().map(|w| w.to_string()).collect(),
    })
}

/// Word `k` folded (lowercase, no accents); "" past the end.
fn fw(p: &Lexed, k: usize) -> String {
    fold(p.w(k))
}

/// Word `k` as the user wrote it.
fn raw<'a>(p: &'a Lexed, k: usize) -> &'a str {
    p.t.get(k).map_or("", |t| &p.text[t.start..t.end])
}

fn capitalised(p: &Lexed, k: usize) -> bool {
    raw(p, k).chars().next().is_some_and(char::is_uppercase)
}

/// A number of at most `len` digits.
fn digits(s: &str, len: usize) -> Option<u32> {
    (!s.is_empty() && s.len() <= len && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// An hour, 0 to 24, in digits or words.
fn hour(s: &str) -> Option<u32> {
    if let Some(n) = digits(s, 2) {
        return (n <= 24).then_some(n);
    }
    Some(match s {
        "eins" | "ein" => 1,
        "zwei" => 2,
        "drei" => 3,
        "vier" => 4,
        "funf" | "fuenf" => 5,
        "sechs" => 6,
        "sieben" => 7,
        "acht" => 8,
        "neun" => 9,
        "zehn" => 10,
        "elf" => 11,
        "zwolf" | "zwoelf" => 12,
        _ => return None,
    })
}

/// Minutes said as a number ("zehn nach", "20 vor").
fn minutes(s: &str) -> Option<u32> {
    match s {
        "zwanzig" => Some(20),
        "funfundzwanzig" => Some(25),
        "viertel" => Some(15),
        _ => hour(s).filter(|m| (1..30).contains(m)),
    }
}

fn month(s: &str) -> Option<u32> {
    const MONTHS: [&[&str]; 12] = [
        &["januar", "janner", "jan"],
        &["februar", "feb", "febr"],
        &["marz", "maerz", "mar", "mrz"],
        &["april", "apr"],
        &["mai"],
        &["juni", "jun"],
        &["juli", "jul"],
        &["august", "aug"],
        &["september", "sep", "sept"],
        &["oktober", "okt"],
        &["november", "nov"],
        &["dezember", "dez"],
    ];
    MONTHS
        .iter()
        .position(|names| names.contains(&s))
        .map(|m| m as u32 + 1)
}

const MONTH_NAMES: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// A weekday (0 = Monday), full, abbreviated or plural ("montags").
fn weekday(s: &str) -> Option<usize> {
    const DAYS: [&[&str]; 7] = [
        &["montag", "mo", "montags"],
        &["dienstag", "di", "dienstags"],
        &["mittwoch", "mi", "mittwochs"],
        &["donnerstag", "do", "donnerstags"],
        &["freitag", "fr", "freitags"],
        &["samstag", "sonnabend", "sa", "samstags", "sonnabends"],
        &["sonntag", "so", "sonntags"],
    ];
    DAYS.iter().position(|names| names.contains(&s))
}

const DAY_NAMES: [&str; 7] = [
    "mondays",
    "tuesdays",
    "wednesdays",
    "thursdays",
    "fridays",
    "saturdays",
    "sundays",
];

/// Whether a clause starts at word `k`: after a comma, semicolon, colon, "!" or "?", or a
/// full stop after a word that is not a number or an abbreviation.
fn breaks_before(p: &Lexed, k: usize) -> bool {
    if k == 0 || k >= p.len() {
        return true;
    }
    let gap = p.gap(k);
    if gap.contains([',', ';', ':', '!', '?']) {
        return true;
    }
    if gap.contains('.') {
        let prev = fw(p, k - 1);
        let abbreviation = digits(&prev, 4).is_some()
            || (prev.len() <= 4 && (month(&prev).is_some() || weekday(&prev).is_some()));
        return !abbreviation && capitalised(p, k);
    }
    false
}

/// The most words a clause reaches on each side of a word (so that a long message without
/// punctuation is read in linear time).
const CLAUSE_REACH: usize = 24;

/// The words `start..end` of the clause holding word `i` (at most [`CLAUSE_REACH`] words on
/// each side of it).
fn clause(p: &Lexed, i: usize) -> (usize, usize) {
    bounded(p, i, |k| breaks_before(p, k))
}

/// The clause of word `i` where "und", "oder", "aber" also start one: a report's verb ends it
/// ("Milch gekauft und Wäsche gewaschen").
fn report_clause(p: &Lexed, i: usize) -> (usize, usize) {
    bounded(p, i, |k| {
        breaks_before(p, k) || matches!(fw(p, k).as_str(), "und" | "oder" | "aber" | "sondern")
    })
}

fn bounded(p: &Lexed, i: usize, starts: impl Fn(usize) -> bool) -> (usize, usize) {
    let mut start = i;
    while start > 0 && start + CLAUSE_REACH > i && !starts(start) {
        start -= 1;
    }
    let mut end = i + 1;
    while end < p.len() && end < i + CLAUSE_REACH && !starts(end) {
        end += 1;
    }
    (start, end)
}

fn negated(p: &Lexed, (start, end): (usize, usize)) -> bool {
    (start..end).any(|k| {
        matches!(
            fw(p, k).as_str(),
            "nicht" | "nich" | "kein" | "keine" | "keinen" | "nie" | "niemals"
        )
    })
}

/// Whether words `start..end` name a day or a time (a weekday, a month, "heute", "morgen", a
/// number with "Uhr" or a colon).
fn names_when(p: &Lexed, (start, end): (usize, usize)) -> bool {
    (start..end).any(|k| {
        let w = fw(p, k);
        weekday(&w).is_some_and(|_| w.len() > 2)
            || month(&w).is_some_and(|_| w.len() > 3)
            || matches!(
                w.as_str(),
                "heute" | "morgen" | "ubermorgen" | "uebermorgen" | "uhr" | "wochenende"
            )
            || w.contains(':')
            || (digits(&w, 2).is_some() && p.gap(k + 1).starts_with('.'))
    })
}

// ---- numbers -----------------------------------------------------------------------------

/// "18.12.", "03.12.2026", "14.30 Uhr", "am 1." (see the module docs).
fn numeric(p: &Lexed, i: usize) -> Option<Rewrite> {
    let a = digits(p.w(i), 2)?;
    let prev = if i > 0 { fw(p, i - 1) } else { String::new() };
    let dotted = p.gap(i + 1) == ".";
    if dotted && p.w(i + 1).len() == 2 {
        if let Some(m) = digits(p.w(i + 1), 2) {
            // A full stop after it makes a date ("bis 15.12."); "Uhr" after it or "um",
            // "gegen", "ab", "bis", "von" before it a time ("bis 15.30", "ab 9.15").
            let dated = p.text[p.t[i + 1].end..].starts_with('.');
            let timely = fw(p, i + 2) == "uhr"
                || matches!(prev.as_str(), "um" | "gegen" | "ab" | "bis" | "von");
            let date_like = (1..=31).contains(&a) && (1..=12).contains(&m);
            if (!date_like || (timely && !dated)) && a < 24 && m < 60 {
                return rw(i + 2, &[&format!("{a}:{m:02}")]);
            }
        }
    }
    if dotted {
        if let Some(m) = digits(p.w(i + 1), 2).filter(|m| (1..=12).contains(m)) {
            if !(1..=31).contains(&a) {
                return None;
            }
            let year = (p.gap(i + 2) == ".")
                .then(|| p.w(i + 2))
                .and_then(|y| match y.len() {
                    4 => digits(y, 4),
                    2 => digits(y, 2).map(|y| 2000 + y),
                    _ => None,
                });
            return match year {
                Some(y) => rw(i + 3, &[&format!("{y:04}-{m:02}-{a:02}")]),
                None => rw(i + 2, &[&a.to_string(), MONTH_NAMES[m as usize - 1]]),
            };
        }
    }
    // An ordinal day with no month after it: "am 1.", "bis zum 5.".
    let after = p.text[p.t[i].end..].chars().next();
    let next = fw(p, i + 1);
    if after == Some('.') && (1..=31).contains(&a) && month(&next).is_none() {
        return match prev.as_str() {
            "am" | "ab" | "bis" => rw(i + 1, &["the", &format!("{a}th")]),
            "den" | "dem" | "zum" | "vom" => rw(i + 1, &[&format!("{a}th")]),
            _ => None,
        };
    }
    None
}

/// "halb drei", "viertel nach drei", "viertel vor vier", "dreiviertel vier", "um zehn nach
/// drei": a clock time (see the module docs).
fn clock_words(p: &Lexed, i: usize) -> Option<Rewrite> {
    let w = fw(p, i);
    let at = |h: u32, m: u32, end: usize| {
        let h = if h == 0 { 12 } else { h };
        rw(end, &[&format!("{h}:{m:02}")])
    };
    let before = |h: u32| if h <= 1 { 12 + h - 1 } else { h - 1 };
    match w.as_str() {
        "halb" => {
            let h = hour(&fw(p, i + 1))?;
            return at(before(h), 30, i + 2);
        }
        "dreiviertel" => {
            let h = hour(&fw(p, i + 1))?;
            return at(before(h), 45, i + 2);
        }
        "drei" if fw(p, i + 1) == "viertel" => {
            let h = hour(&fw(p, i + 2))?;
            return at(before(h), 45, i + 3);
        }
        _ => {}
    }
    let after_um = i > 0 && matches!(fw(p, i - 1).as_str(), "um" | "gegen");
    if w != "viertel" && !after_um {
        return None;
    }
    let m = minutes(&w)?;
    let h = hour(&fw(p, i + 2))?;
    match fw(p, i + 1).as_str() {
        "nach" => at(h % 24, m, i + 3),
        "vor" => at(before(h), 60 - m, i + 3),
        _ => None,
    }
}

/// "um eine Stunde", "um 2 Tage" (by an amount, before "später", "nach hinten" ...): "um" is
/// dropped, so the amount reads as a relative change ("eine Stunde später").
fn by_amount(p: &Lexed, i: usize) -> Option<Rewrite> {
    if fw(p, i) != "um" {
        return None;
    }
    let n = fw(p, i + 1);
    let amount = hour(&n).is_some()
        || digits(&n, 3).is_some()
        || matches!(
            n.as_str(),
            "ein" | "eine" | "einen" | "ne" | "paar" | "anderthalb"
        );
    let unit = matches!(
        fw(p, i + 2).as_str(),
        "minute"
            | "minuten"
            | "min"
            | "stunde"
            | "stunden"
            | "std"
            | "tag"
            | "tage"
            | "woche"
            | "wochen"
    );
    (amount && unit).then(|| Rewrite {
        end: i + 1,
        words: Vec::new(),
    })
}

// ---- days --------------------------------------------------------------------------------

/// Whether word `k` opens a sentence (the first word, or after ".", "!", "?" or ":").
fn opens_sentence(p: &Lexed, k: usize) -> bool {
    k == 0 || p.gap(k).contains(['.', '!', '?', ':'])
}

/// "Morgen" capitalised inside a sentence is the morning (see the module docs).
fn morning(p: &Lexed, i: usize) -> Option<Rewrite> {
    if fw(p, i) != "morgen" || !capitalised(p, i) || opens_sentence(p, i) {
        return None;
    }
    let next = fw(p, i + 1);
    let prev = fw(p, i.saturating_sub(1));
    let phrase = matches!(
        next.as_str(),
        "fruh" | "frueh" | "vormittag" | "nachmittag" | "abend" | "nacht" | "mittag"
    ) || matches!(prev.as_str(), "heute" | "am" | "jeden" | "guten");
    if phrase {
        return None;
    }
    rw(i + 1, &["morning"])
}

/// "Fr" is Friday unless a capitalised name follows; "So" is Sunday only next to a date word
/// (see the module docs).
fn abbreviation(p: &Lexed, i: usize) -> Option<Rewrite> {
    let w = fw(p, i);
    let next = fw(p, i + 1);
    let dateish = |s: &str| {
        matches!(
            s,
            "am" | "bis"
                | "ab"
                | "jeden"
                | "nachsten"
                | "naechsten"
                | "diesen"
                | "kommenden"
                | "und"
                | "oder"
                | "um"
                | "uhr"
                | "von"
        ) || weekday(s).is_some()
            || hour(s).is_some()
            || s.contains(':')
    };
    match w.as_str() {
        "fr" => {
            let name = i + 1 < p.len()
                && capitalised(p, i + 1)
                && weekday(&next).is_none()
                && month(&next).is_none()
                && !breaks_before(p, i + 1);
            name.then(|| Rewrite {
                end: i + 1,
                words: vec![p.w(i).to_string()],
            })
        }
        "so" => {
            let prev = if i > 0 { fw(p, i - 1) } else { String::new() };
            let slash = p.gap(i).trim() == "/" || p.gap(i + 1).trim() == "/";
            let sunday = capitalised(p, i)
                && (dateish(&prev) || dateish(&next) || slash || i + 1 == p.len());
            if sunday {
                rw(i + 1, &["sunday"])
            } else {
                None
            }
        }
        _ => None,
    }
}

/// "ab jetzt Di und Do", "künftig montags": from now on those days, "every" (else the words
/// are dropped by the table).
fn from_now_on(p: &Lexed, i: usize) -> Option<Rewrite> {
    let len = match (
        fw(p, i).as_str(),
        fw(p, i + 1).as_str(),
        fw(p, i + 2).as_str(),
    ) {
        ("ab", "jetzt" | "sofort", _) => 2,
        ("kunftig" | "kuenftig" | "zukunftig", _, _) => 1,
        ("in", "zukunft", _) => 2,
        ("von", "jetzt" | "nun", "an") => 3,
        _ => return None,
    };
    let next = fw(p, i + len);
    let day = weekday(&next).is_some() && !next.ends_with('s');
    day.then(|| Rewrite {
        end: i + len,
        words: vec!["every".into()],
    })
}

/// "jeden 15. des Monats", "jeden 1. im Monat": the 15th of every month.
fn day_of_every_month(p: &Lexed, i: usize) -> Option<Rewrite> {
    if !matches!(fw(p, i).as_str(), "jeden" | "jede" | "jedes" | "am") {
        return None;
    }
    let d = digits(p.w(i + 1), 2).filter(|d| (1..=31).contains(d))?;
    if !p.text[p.t[i + 1].end..].starts_with('.') {
        return None;
    }
    let end = match (fw(p, i + 2).as_str(), fw(p, i + 3).as_str()) {
        ("des" | "jedes", "monats") | ("im", "monat") => i + 4,
        _ => return None,
    };
    let day = format!("{d}th");
    rw(end, &["on", "the", &day, "of", "every", "month"])
}

/// "nächste Woche Mittwoch", "Mittwoch nächste Woche", "diese Woche Freitag": that weekday of
/// that week ("next wednesday", "this friday").
fn weekday_of_week(p: &Lexed, i: usize) -> Option<Rewrite> {
    let which = |k: usize| match fw(p, k).as_str() {
        "nachste" | "nachsten" | "naechste" | "naechsten" | "kommende" | "kommenden" => {
            Some("next")
        }
        "diese" | "dieser" => Some("this"),
        _ => None,
    };
    let day = |k: usize| weekday(&fw(p, k)).map(|d| &DAY_NAMES[d][..DAY_NAMES[d].len() - 1]);
    // "nächste Woche (am) Mittwoch"
    if let (Some(w), "woche") = (which(i), fw(p, i + 1).as_str()) {
        let k = if fw(p, i + 2) == "am" { i + 3 } else { i + 2 };
        return day(k).and_then(|d| rw(k + 1, &[w, d]));
    }
    // "Mittwoch (in der) nächsten Woche"
    let d = day(i)?;
    let k = if fw(p, i + 1) == "in" && fw(p, i + 2) == "der" {
        i + 3
    } else {
        i + 1
    };
    match (which(k), fw(p, k + 1).as_str()) {
        (Some(w), "woche") => rw(k + 2, &[w, d]),
        _ => None,
    }
}

/// "Mo-Fr", "Montag bis Freitag", "von Mo bis Mi": every one of those days.
fn weekday_range(p: &Lexed, i: usize) -> Option<Rewrite> {
    let k = if fw(p, i) == "von" { i + 1 } else { i };
    let first = weekday(&fw(p, k))?;
    let last_at = if matches!(p.gap(k + 1).trim(), "-" | "–") {
        k + 1
    } else if fw(p, k + 1) == "bis" {
        k + 2
    } else {
        return None;
    };
    let last = weekday(&fw(p, last_at))?;
    if last <= first {
        return None;
    }
    let words: Vec<&str> = match (first, last) {
        (0, 4) => vec!["weekdays"],
        (5, 6) => vec!["weekends"],
        _ => {
            let mut w = Vec::new();
            for day in &DAY_NAMES[first..=last] {
                if !w.is_empty() {
                    w.push("and");
                }
                w.push(*day);
            }
            w
        }
    };
    rw(last_at + 1, &words)
}

/// Whether words `start..end` name a repeat ("jeden", "täglich", "montags" ...).
fn repeats(p: &Lexed, (start, end): (usize, usize)) -> bool {
    (start..end).any(|k| {
        let w = fw(p, k);
        matches!(
            w.as_str(),
            "jeden"
                | "jede"
                | "jedes"
                | "jeder"
                | "alle"
                | "taglich"
                | "taeglich"
                | "wochentlich"
                | "woechentlich"
                | "monatlich"
                | "jahrlich"
                | "jaehrlich"
                | "werktags"
                | "wochentags"
        ) || (w.ends_with("tags") && weekday(&w).is_some())
            || (w.ends_with('s') && weekday(&w).is_some_and(|_| w.len() > 3))
    })
}

/// "bis": "until" in a repeat or a time range, else "by" (see the module docs).
fn bis(p: &Lexed, i: usize) -> Option<Rewrite> {
    if fw(p, i) != "bis" {
        return None;
    }
    let next = fw(p, i + 1);
    if next == "wann" {
        return None;
    }
    let (article, k) = match next.as_str() {
        "zum" | "zur" => (true, i + 2),
        _ => (false, i + 1),
    };
    let prev_time = i > 0 && {
        let prev = fw(p, i - 1);
        hour(&prev).is_some() || prev.contains(':') || prev == "uhr"
    };
    let role = if prev_time || repeats(p, clause(p, i)) {
        "until"
    } else {
        "by"
    };
    // "bis Juni": by the 1st of that month.
    if let Some(m) = month(&fw(p, k)) {
        let day_before = hour(&fw(p, k.saturating_sub(1))).is_some() && k > i + 1;
        let day_after = digits(&fw(p, k + 1), 2).is_some_and(|d| d <= 31);
        if !day_before && !day_after {
            return rw(k + 1, &[role, MONTH_NAMES[m as usize - 1], "1st"]);
        }
    }
    if article {
        rw(i + 2, &[role, "the"])
    } else {
        rw(i + 1, &[role])
    }
}

/// Whether word `k` opens a date, time or priority ("Freitag", "14 Uhr", "nächste Woche",
/// "niedrige Prio").
fn opens_when(p: &Lexed, k: usize) -> bool {
    let w = fw(p, k);
    let k = if matches!(w.as_str(), "den" | "dem") {
        k + 1
    } else {
        k
    };
    let w = fw(p, k);
    weekday(&w).is_some()
        || month(&w).is_some()
        || hour(&w).is_some()
        || w.contains(':')
        || matches!(
            w.as_str(),
            "heute"
                | "morgen"
                | "ubermorgen"
                | "uebermorgen"
                | "nachste"
                | "nachsten"
                | "naechste"
                | "naechsten"
                | "nachstes"
                | "kommende"
                | "kommenden"
                | "diese"
                | "diesen"
                | "halb"
                | "viertel"
                | "hohe"
                | "hoch"
                | "niedrige"
                | "niedrig"
                | "mittlere"
                | "normale"
                | "hochste"
                | "wichtig"
                | "dringend"
                | "prio"
                | "prioritat"
                | "wochenende"
                | "ende"
                | "morgens"
                | "abends"
                | "mittag"
        )
}

/// German verbs that say what to do with an item: with one of them in words `start..end` (the
/// clause), "auf" is only "to".
fn has_verb(p: &Lexed, (start, end): (usize, usize)) -> bool {
    const VERBS: &[&str] = &[
        "erinner",
        "erinnere",
        "erinnern",
        "trag",
        "trage",
        "tragen",
        "eintragen",
        "plan",
        "plane",
        "planen",
        "einplanen",
        "notier",
        "notiere",
        "notieren",
        "hinzufugen",
        "hinzufuegen",
        "fug",
        "fuge",
        "buch",
        "buche",
        "buchen",
        "erstelle",
        "erstellen",
        "anlegen",
        "leg",
        "lege",
        "legen",
        "neu",
        "neue",
        "neuer",
        "neues",
        "neuen",
        "losch",
        "losche",
        "loschen",
        "loesch",
        "loesche",
        "loeschen",
        "streich",
        "streiche",
        "streichen",
        "entfern",
        "entferne",
        "entfernen",
        "absagen",
        "sag",
        "sage",
        "erledigt",
        "erledigen",
        "verschieb",
        "verschiebe",
        "verschieben",
        "schieb",
        "schiebe",
        "schieben",
        "verleg",
        "verlege",
        "verlegen",
        "ander",
        "andern",
        "aender",
        "aendern",
        "umbenennen",
        "setz",
        "setze",
        "setzen",
        "stell",
        "stelle",
        "stellen",
        "schreib",
        "schreibe",
        "vergiss",
        "denk",
        "merk",
        "muss",
        "will",
        "mochte",
        "moechte",
    ];
    (start..end).any(|k| VERBS.contains(&fw(p, k).as_str()))
}

/// "auf" before a date, time or priority, with no other verb: a change ("move to").
fn auf(p: &Lexed, i: usize) -> Option<Rewrite> {
    if fw(p, i) != "auf" || i == 0 || !opens_when(p, i + 1) || has_verb(p, clause(p, i)) {
        return None;
    }
    rw(i + 1, &["move", "to"])
}

// ---- questions ---------------------------------------------------------------------------

/// Whether the clause of word `i` holds a past participle after it.
fn participle_after(p: &Lexed, i: usize) -> bool {
    let (_, end) = clause(p, i);
    (i + 1..end).any(|k| is_participle(&fw(p, k)) || fw(p, k) == "erledigt")
}

/// A question opening a sentence (see the module docs).
fn question(p: &Lexed, i: usize) -> Option<Rewrite> {
    if !opens_sentence(p, i) {
        return None;
    }
    let w = fw(p, i);
    let next = fw(p, i + 1);
    let subject = matches!(next.as_str(), "ich" | "wir");
    match (w.as_str(), subject) {
        ("hab" | "habe" | "hatte" | "haben", true) => {
            if participle_after(p, i) {
                rw(i + 2, &["did", "i"])
            } else {
                rw(i + 2, &["do", "i", "have"])
            }
        }
        ("war" | "waren", true) => rw(i + 2, &["did", "i", "go"]),
        ("bin", true) => rw(i + 2, &["am", "i"]),
        ("muss" | "musste", true) => rw(i + 2, &["do", "i", "need", "to"]),
        ("soll" | "sollte", true) => rw(i + 2, &["should", "i"]),
        ("kann", true) => rw(i + 2, &["can", "i"]),
        ("ist" | "sind", _) => {
            // "Ist erledigt": a report, not a question.
            if matches!(next.as_str(), "erledigt" | "fertig" | "gemacht") {
                rw(i + 1, &[])
            } else if w == "ist" {
                rw(i + 1, &["is"])
            } else {
                rw(i + 1, &["are"])
            }
        }
        ("was", _) => match next.as_str() {
            "hab" | "habe" if fw(p, i + 2) == "ich" => rw(i + 3, &["what", "do", "i", "have"]),
            "steht" | "stehen" => rw(i + 2, &["what's", "on"]),
            "ist" | "sind" => rw(i + 2, &["what", "is"]),
            "muss" if fw(p, i + 2) == "ich" => rw(i + 3, &["what", "do", "i", "need", "to"]),
            _ => rw(i + 1, &["what"]),
        },
        ("wie", _) => {
            let (_, end) = clause(p, i);
            if next == "viel" {
                return rw(i + 2, &["how", "much"]);
            }
            if next == "sieht" && fw(p, end - 1) == "aus" {
                return rw(i + 2, &["how", "is"]);
            }
            match next.as_str() {
                "voll" | "beschaftigt" | "beschaeftigt" | "stressig" | "busy" => {
                    rw(i + 2, &["how", "busy"])
                }
                _ => rw(i + 1, &["how"]),
            }
        }
        _ => None,
    }
}

/// Whether the message asks: it ends with "?" or opens with a question word.
fn asks(p: &Lexed) -> bool {
    p.text.trim_end().ends_with('?')
        || matches!(
            fw(p, 0).as_str(),
            "was" | "wann" | "wie" | "welche" | "welcher" | "welches" | "wo" | "gibt"
        )
}

/// In a question, "noch machen", "noch offen", "noch an" ...: what is left ("was muss ich
/// heute noch machen?"). Elsewhere "noch" is dropped.
fn still_to_do(p: &Lexed, i: usize) -> Option<Rewrite> {
    if fw(p, i) != "noch" || !asks(p) {
        return None;
    }
    let end = match (fw(p, i + 1).as_str(), fw(p, i + 2).as_str()) {
        ("zu", "tun" | "erledigen" | "machen") => i + 3,
        ("machen" | "tun" | "erledigen" | "offen" | "ubrig" | "uebrig" | "an" | "ansteht", _) => {
            i + 2
        }
        _ => return None,
    };
    rw(end, &["left"])
}

// ---- reports of something done -------------------------------------------------------------

/// Infinitives of activities one goes to ("war gestern laufen").
const GONE_TO: &[&str] = &[
    "laufen",
    "joggen",
    "rennen",
    "schwimmen",
    "radfahren",
    "radeln",
    "spazieren",
    "wandern",
    "trainieren",
    "klettern",
    "tanzen",
    "einkaufen",
    "meditieren",
];

/// "(ich) war gestern laufen": "I went" (see the module docs).
fn went(p: &Lexed, i: usize) -> Option<Rewrite> {
    let (w, k) = match fw(p, i).as_str() {
        "ich" if fw(p, i + 1) == "war" => ("ich", i + 1),
        "war" | "waren" => ("war", i),
        _ => return None,
    };
    if w == "war" && fw(p, i + 1) == "ich" {
        return None;
    }
    let c = clause(p, k);
    // "war gestern laufen"; "war heute beim Zahnarzt", "war im Fitnessstudio": a report at the
    // start of a sentence ("Zahnarzttermin war gut" is none).
    let gone = GONE_TO.contains(&fw(p, c.1 - 1).as_str())
        || (opens_sentence(p, i)
            && (k + 1..c.1).any(|j| matches!(fw(p, j).as_str(), "beim" | "bei" | "im" | "zum")));
    (gone && !negated(p, c)).then(|| Rewrite {
        end: k + 1,
        words: vec!["i".into(), "went".into()],
    })
}

/// Separable verbs and their particles (see the module docs): verb stems, particle, English.
const SEPARABLE: &[(&[&str], &str, &str)] = &[
    (&["sag", "sage", "sagt"], "ab", "cancel"),
    (&["trag", "trage"], "ein", "add"),
    (&["plan", "plane"], "ein", "plan"),
    (&["schreib", "schreibe"], "auf", "add"),
    (&["hak", "hake"], "ab", "done"),
    (&["nimm", "nehm", "nehme"], "raus", "remove"),
    (&["fallt", "faellt"], "aus", "cancelled"),
    (&["fug", "fuge", "fueg", "fuege"], "hinzu", "add"),
    (&["leg", "lege"], "an", "create"),
    (&["benenn", "benenne"], "um", "rename"),
];

/// Particles dropped when they end a clause.
const PARTICLES: &[&str] = &[
    "an", "ab", "aus", "ein", "vor", "raus", "hinzu", "dazu", "um",
];

fn separable(p: &Lexed, i: usize) -> Option<Rewrite> {
    let w = fw(p, i);
    let verb = SEPARABLE
        .iter()
        .any(|(verbs, _, _)| verbs.contains(&w.as_str()));
    if !verb && !PARTICLES.contains(&w.as_str()) && !matches!(w.as_str(), "in" | "zu") {
        return None;
    }
    let (start, end) = clause(p, i);
    let last = fw(p, end - 1);
    for (verbs, particle, to) in SEPARABLE {
        if verbs.contains(&w.as_str()) && i + 1 < end {
            if last == *particle {
                return rw(i + 1, &[to]);
            }
            // "benenne X um in Y": the particle before the new name.
            if *particle == "um" {
                let later = (i + 1..end).any(|k| {
                    fw(p, k) == "um" && matches!(fw(p, k + 1).as_str(), "in" | "zu" | "auf")
                });
                if later {
                    return rw(i + 1, &[to]);
                }
            }
        }
    }
    // "um in" after "benenn": "to".
    if w == "um"
        && matches!(fw(p, i + 1).as_str(), "in" | "zu" | "auf")
        && (start..i).any(|k| matches!(fw(p, k).as_str(), "benenn" | "benenne"))
    {
        return rw(i + 2, &["to"]);
    }
    // "X in Y umbenennen": "in" before the verb ending the clause is "to".
    if matches!(w.as_str(), "in" | "zu")
        && i > start
        && matches!(last.as_str(), "umbenennen" | "umbenennt")
        && end - 1 > i + 1
    {
        return rw(i + 1, &["to"]);
    }
    if PARTICLES.contains(&w.as_str()) && i + 1 == end && i > start {
        // "wie sieht nächste Woche aus": "how is next week looking".
        if w == "aus" && fw(p, start) == "wie" && fw(p, start + 1) == "sieht" {
            return rw(i + 1, &["looking"]);
        }
        let prev = fw(p, i - 1);
        // "um 5 Uhr an" keeps nothing; "bis 5 vor" is not a particle after a number.
        if hour(&prev).is_none() {
            return rw(i + 1, &[]);
        }
    }
    None
}

/// "brauch(e) ... nicht mehr": "don't need" (see the module docs).
fn no_longer_need(p: &Lexed, i: usize) -> Option<Rewrite> {
    let w = fw(p, i);
    let needs = |k: usize| matches!(fw(p, k).as_str(), "brauch" | "brauche" | "brauchen");
    if !needs(i) && w != "nicht" {
        return None;
    }
    let (start, end) = clause(p, i);
    if needs(i) {
        let later = (i + 1..end).any(|k| fw(p, k) == "nicht" && fw(p, k + 1) == "mehr");
        return later.then(|| Rewrite {
            end: i + 1,
            words: vec!["dont".into(), "need".into()],
        });
    }
    if w == "nicht" && fw(p, i + 1) == "mehr" && (start..i).any(needs) {
        return rw(i + 2, &[]);
    }
    None
}

/// Participles the table reads otherwise (a change, a removal, a new item).
const NOT_DONE_PARTICIPLES: &[&str] = &[
    "abgesagt",
    "gestrichen",
    "geloscht",
    "geloescht",
    "entfernt",
    "storniert",
    "geandert",
    "geaendert",
    "verlegt",
    "verschoben",
    "umbenannt",
    "eingetragen",
    "eingeplant",
    "geplant",
    "notiert",
    "markiert",
    "angelegt",
    "ausgefallen",
    "vergessen",
    // Skipped, not done.
    "ausgelassen",
    "ubersprungen",
    "uebersprungen",
    "ausgesetzt",
    "verpasst",
    // Something that happened to the subject ("Paket ist angekommen"): no report of a task.
    "angekommen",
    "gekommen",
    "eingetroffen",
    "eingegangen",
    "passiert",
    "geschehen",
    "gegangen",
    "geblieben",
    "gelandet",
    "abgefahren",
    "geworden",
    "gewesen",
    "aufgewacht",
    "eingeschlafen",
];

/// Participles that book something: a report of something done only when no day is named.
const BOOKED: &[&str] = &[
    "gebucht",
    "reserviert",
    "vereinbart",
    "ausgemacht",
    "bestellt",
];

/// Words starting with "ge" that are no participle.
const GE_WORDS: &[&str] = &[
    "geht",
    "gehts",
    "gegen",
    "gehen",
    "geben",
    "genug",
    "gerne",
    "genau",
    "gesund",
    "gesamt",
    "gelten",
    "gewinnen",
    "geniessen",
    "genießen",
    "gefallen",
    "geschehen",
    "gelingen",
    "gehoren",
    "gehoeren",
    "gewohnen",
    "gebrauchen",
    "gestalten",
    "gerade",
    "gestern",
    "bereit",
    "bekannt",
    "bestimmt",
    "beliebt",
    "berechtigt",
    "erst",
    "ernst",
    "entspannt",
];

const SEPARABLE_PREFIXES: &[&str] = &[
    "zuruck", "zurueck", "zusammen", "vorbei", "weiter", "wieder", "durch", "nach", "fest", "heim",
    "rein", "raus", "ab", "an", "auf", "aus", "bei", "ein", "her", "hin", "los", "mit", "vor",
    "weg", "zu", "um",
];

/// A past participle ("gemacht", "angerufen", "eingereicht", "bezahlt", "meditiert"), folded.
fn is_participle(w: &str) -> bool {
    let n = w.chars().count();
    if n < 5 || NOT_DONE_PARTICIPLES.contains(&w) || GE_WORDS.contains(&w) {
        return false;
    }
    let ends = |s: &str| s.ends_with('t') || s.ends_with("en");
    if w.starts_with("ge") && ends(w) {
        return true;
    }
    // "angerufen", "zurückgebracht"; not "zurückgeben", "abgehen" (a verb starting "ge").
    if SEPARABLE_PREFIXES.iter().any(|pre| {
        w.strip_prefix(pre).is_some_and(|r| {
            !GE_WORDS.contains(&r)
                && r.strip_prefix("ge")
                    .is_some_and(|r| r.chars().count() >= 3 && ends(r))
        })
    }) {
        return true;
    }
    if n >= 6 && w.ends_with("iert") {
        return true;
    }
    let inseparable = ["be", "ver", "er", "ent", "zer", "emp", "uber", "ueber"];
    (n >= 6
        && w.ends_with('t')
        && !w.ends_with("tt")
        && inseparable.iter().any(|s| w.starts_with(s)))
        || matches!(w, "uberwiesen" | "ueberwiesen" | "unterschrieben")
}

/// Words that may follow a participle ending a report ("hab Klavier geübt heute").
const AFTER_REPORT: &[&str] = &[
    "heute", "gestern", "schon", "bereits", "eben", "gerade", "endlich", "jetzt", "auch", "ja",
    "bitte", "danke",
];

/// A past participle ending its clause: "done" (see the module docs).
fn participle(p: &Lexed, i: usize) -> Option<Rewrite> {
    let w = fw(p, i);
    let booked = BOOKED.contains(&w.as_str());
    if !(booked || is_participle(&w)) {
        return None;
    }
    let c = report_clause(p, i);
    let last = (i + 1..c.1).all(|k| AFTER_REPORT.contains(&fw(p, k).as_str()));
    let written_as_verb = !capitalised(p, i) || opens_sentence(p, i) || breaks_before(p, i);
    if !last || !written_as_verb {
        return None;
    }
    if booked && names_when(p, c) {
        return None;
    }
    // "Mama hat angerufen": someone else did it.
    if (c.0..c.1).any(|k| fw(p, k) == "hat") {
        return None;
    }
    if negated(p, c) {
        // "hab heute nicht meditiert": not done; "noch nicht zurückgebracht": a remark.
        let still = (c.0..c.1).any(|k| fw(p, k) == "noch");
        return (!still).then(|| Rewrite {
            end: i + 1,
            words: vec!["not".into(), "done".into()],
        });
    }
    rw(i + 1, &["done"])
}

/// Nouns ending in an event word ("Zahnarzttermin", "Weihnachtsfeier", "Teammeeting").
fn compound_kind(p: &Lexed, i: usize) -> Option<Rewrite> {
    const HEADS: &[(&str, &str)] = &[
        ("termin", "appointment"),
        ("meeting", "meeting"),
        ("besprechung", "meeting"),
        ("sitzung", "meeting"),
        ("feier", "party"),
        ("party", "party"),
        ("essen", "dinner"),
        ("gesprach", "meeting"),
        ("gespraech", "meeting"),
        ("konzert", "concert"),
        ("konferenz", "conference"),
        ("kurs", "class"),
    ];
    let w = fw(p, i);
    if matches!(w.as_str(), "abendessen" | "mittagessen") {
        return None;
    }
    if w == "essen" && capitalised(p, i) {
        return rw(i + 1, &["dinner"]);
    }
    let (head, to) = HEADS
        .iter()
        .find(|(h, _)| w.len() > h.len() + 2 && w.ends_with(h))?;
    // A verb ending in "essen" ("vergessen") is no meal.
    if *head == "essen" && !capitalised(p, i) {
        return None;
    }
    rw(i + 1, &[to])
}
