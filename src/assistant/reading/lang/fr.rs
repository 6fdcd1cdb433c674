//! French words for the reading (see [`super`]): phrases and the English words they become,
//! and a hook for what a table cannot say (`lang/romance.rs` holds what French and Spanish
//! share).
//!
//! ## What the hook reads
//! - Times: "15h", "15h30", "15 h 30", "à 15 heures", "9h du matin", "3h de l'après-midi",
//!   "8h du soir", "midi", "minuit", "midi et demi", "à 5" (a bare hour 1 to 6 is pm, as in
//!   English); "à" before a time is "at", between two times "to"; "de 10h à 11h" and "entre
//!   10h et 11h" are ranges; "pendant 1h30" a duration.
//! - Dates: "le 3 décembre", "le 1er", "au 5 décembre", "3/12" and "18/12/2026" (day first);
//!   "d'ici juin" / "avant juin": the month's last day.
//! - Weekdays: "lundi", "lun." (an abbreviation only with its period), "lundi prochain" (next
//!   week's), "ce lundi"; recurring: "tous les lundis et jeudis", "chaque lundi", "le lundi et
//!   le jeudi" (with the article and no date: every week), "du lundi au vendredi", "un
//!   dimanche sur deux".
//! - Completions: "j'ai" (or "je suis allé") before a past participle is "I did" ("j'ai
//!   envoyé la note de frais"); in a question "did I"; with "pas" or "ne ... pas" it is "I
//!   have not" ("j'ai pas encore rendu les livres"); "j'ai oublié" is "I forgot"; with a day to
//!   come ("j'ai réservé une table pour vendredi") only "I".
//! - "passe" is a move, but "passe chez", "passe prendre" a visit; "mets" is a change ("mets
//!   le dîner à 21h"), or an addition when the message names a list or a calendar; "note"
//!   opening a message is an addition; after "renomme", the last "en" is "to" ("renomme X en
//!   Y").

use super::super::lex::Lexed;
use super::romance::{self, fw, rewrite, rewrite_owned, seq, Words};
use super::table::{RefWords, Rewrite, Table};

pub(super) static TABLE: Table = Table {
    phrases: PHRASES,
    hook,
    conjunctions: CONJUNCTIONS,
    elisions: ELISIONS,
};

const CONJUNCTIONS: &[&str] = &["et"];

const ELISIONS: &[&str] = &[
    "l'", "d'", "j'", "qu'", "n'", "s'", "c'", "m'", "t'", "jusqu'", "lorsqu'", "puisqu'",
];

/// What matching French titles needs (`reading/refs.rs`).
pub(super) static REFS: RefWords = romance::ref_words(STOP_WORDS, GENERIC);

/// Words left out when matching titles (as typed, with and without accents).
const STOP_WORDS: &[&str] = &[
    "le", "la", "les", "un", "une", "des", "du", "de", "au", "aux", "en", "et", "ou", "pour",
    "par", "avec", "chez", "sur", "dans", "mon", "ma", "mes", "ton", "ta", "tes", "son", "sa",
    "ses", "notre", "votre", "leur", "ce", "cet", "cette", "ces", "que", "qui", "quoi", "je", "tu",
    "il", "elle", "on", "nous", "vous", "ils", "elles", "me", "moi", "te", "se", "ne", "pas",
    "plus", "est", "sont", "ai", "as", "jusqu", "lorsqu", "puisqu", "qu", "à", "où",
];

/// Words that name no item.
const GENERIC: &[&str] = &[
    "truc",
    "trucs",
    "chose",
    "choses",
    "machin",
    "tâche",
    "tâches",
    "tache",
    "taches",
    "rappel",
    "rappels",
    "événement",
    "évènement",
    "evenement",
    "habitude",
    "objectif",
    "liste",
];

/// Phrases, each with the English words it becomes (an empty string drops the words).
const PHRASES: &[(&str, &str)] = &[
    // days and periods
    ("aujourd'hui|auj", "today"),
    ("demain", "tomorrow"),
    ("après demain", "in 2 days"),
    ("hier", "yesterday"),
    ("ce soir", "tonight"),
    ("cette nuit", "tonight"),
    ("ce matin", "this morning"),
    ("cet après midi", "this afternoon"),
    ("cet aprem", "this afternoon"),
    ("matin|matinée", "morning"),
    ("soir|soirs", "evening"),
    ("après midi|aprem", "afternoon"),
    ("nuit", "night"),
    ("midi", "noon"),
    ("minuit", "midnight"),
    ("la semaine prochaine|pro", "next week"),
    ("semaine prochaine|pro", "next week"),
    ("cette semaine", "this week"),
    ("le mois prochain", "next month"),
    ("mois prochain", "next month"),
    ("ce week end", "this weekend"),
    ("ce weekend|we", "this weekend"),
    ("le week end", "the weekend"),
    ("le weekend", "the weekend"),
    ("le week end prochain", "next weekend"),
    ("le weekend prochain", "next weekend"),
    ("week end", "weekend"),
    ("la fin du mois", "the end of the month"),
    ("fin du|de mois", "end of the month"),
    ("la fin de l' année", "the end of the year"),
    ("fin de l' année", "end of the year"),
    ("fin d' année", "end of the year"),
    ("l' année prochaine", "next year"),
    ("jour", "day"),
    ("jours", "days"),
    ("semaine", "week"),
    ("semaines", "weeks"),
    ("mois", "months"),
    ("an|ans|année|années", "years"),
    ("heure", "hour"),
    ("heures", "hours"),
    ("une heure", "an hour"),
    ("une demi heure", "half an hour"),
    ("demi heure", "half an hour"),
    ("une heure et demie", "an hour and a half"),
    ("et demie|demi", "and a half"),
    ("quinze jours", "2 weeks"),
    // numbers ("sept" and "neuf" in the hook)
    ("deux", "2"),
    ("trois", "3"),
    ("quatre", "4"),
    ("cinq", "5"),
    ("six", "6"),
    ("huit", "8"),
    ("dix", "10"),
    ("onze", "11"),
    ("douze", "12"),
    ("quinze", "15"),
    ("vingt", "20"),
    ("trente", "30"),
    // recurrence
    ("tous les jours", "every day"),
    ("chaque jour", "every day"),
    ("quotidiennement", "daily"),
    ("tous les matins", "every morning"),
    ("chaque matin", "every morning"),
    ("tous les soirs", "every evening"),
    ("chaque soir", "every evening"),
    ("toutes les nuits", "every night"),
    ("chaque nuit", "every night"),
    ("tous les deux jours", "every other day"),
    ("un jour sur deux|2", "every other day"),
    ("toutes les deux semaines", "every other week"),
    ("une semaine sur deux|2", "every other week"),
    ("tous les 15|quinze jours", "every 2 weeks"),
    ("toutes les semaines", "every week"),
    ("chaque semaine", "every week"),
    ("tous les mois", "every month"),
    ("chaque mois", "every month"),
    ("tous les ans", "every year"),
    ("chaque année", "every year"),
    ("tous les week end", "every weekend"),
    ("tous les weekend|weekends", "every weekend"),
    ("chaque week end", "every weekend"),
    ("chaque weekend", "every weekend"),
    ("en semaine", "on weekdays"),
    ("jours ouvrés", "weekdays"),
    ("tous|toutes les", "every"),
    ("chaque", "every"),
    ("une fois par semaine", "once a week"),
    ("une fois par mois", "once a month"),
    // prepositions and articles
    ("d' ici", "by"),
    ("avant", "before"),
    ("après", "after"),
    ("jusqu' au|à|a", "until"),
    ("jusqu'", "until"),
    ("à partir de|du|d'", "starting"),
    ("pour", "for"),
    ("dans", "in"),
    ("en", "in"),
    ("sur", "on"),
    ("avec", "with"),
    ("vers", "around"),
    ("entre", "between"),
    ("pendant|durant", "for"),
    ("à", "to"),
    ("au|aux", "to"),
    ("de|d'", "of"),
    ("du", "of the"),
    ("le|la|les|l'", "the"),
    ("un|une", "a"),
    ("des", "the"),
    ("et", "and"),
    ("ou", "or"),
    ("mon|ma|mes", "my"),
    ("ce|cet|cette|ces", "that"),
    ("je|j'", "i"),
    ("moi|m'", "me"),
    ("ne|n'", ""),
    ("pas", "not"),
    ("pas encore", "not yet"),
    ("déjà", "already"),
    ("il", "it"),
    // priority
    ("urgent|urgente|urgents|urgentes|urgemment", "urgent"),
    ("important|importante", "important"),
    ("priorité haute|élevée|maximale|max", "high priority"),
    ("haute priorité", "high priority"),
    ("en priorité haute|élevée", "high priority"),
    ("en priorité", "high priority"),
    ("prioritaire", "high priority"),
    ("priorité basse|faible|minimale", "low priority"),
    ("basse|faible priorité", "low priority"),
    ("en priorité basse|faible", "low priority"),
    ("priorité moyenne|normale", "medium priority"),
    ("en priorité moyenne|normale", "medium priority"),
    (
        "pas urgent|urgente|important|importante|pressé",
        "not urgent",
    ),
    ("rien ne presse", "no rush"),
    ("sans urgence", "no rush"),
    ("au plus vite|tôt", "asap"),
    ("dès que possible", "asap"),
    ("asap|rapidement", "asap"),
    ("quand j' ai le temps", "whenever"),
    ("un de ces jours", "whenever"),
    // creating
    ("rappelle|rappelez|rappeler moi de|d'", "remind me to"),
    ("rappelle|rappelez moi", "remind me"),
    ("fais|faites moi penser à|a", "remind me to"),
    ("n' oublie|oubliez pas de|d'", "don't forget to"),
    ("oublie pas de|d'", "don't forget to"),
    ("il faut que je|j'", "i need to"),
    ("faut que je|j'", "i need to"),
    ("je dois", "i need to"),
    ("j' ai besoin de|d'", "i need to"),
    ("je veux|voudrais", "i want to"),
    ("j' ai envie de|d'", "i want to"),
    ("j' aimerais", "i'd like to"),
    ("j' ai", "i have"),
    ("ajoute|ajouter|ajoutez|rajoute|rajouter|rajoutez", "add"),
    ("crée|créer|créez", "create"),
    (
        "planifie|planifier|planifiez|programme|programmer|programmez",
        "schedule",
    ),
    ("prévois|prévoir|prévoyez|cale|caler", "schedule"),
    ("réserve|réserver|réservez", "book"),
    ("nouveau|nouvelle", "new"),
    // completing and reopening
    ("fait|faite|faits|faites", "done"),
    ("c' est fait", "done"),
    ("ça|ca y est", "done"),
    ("fini|finie|finis|finies", "done"),
    ("terminé|terminée|terminés|terminées", "done"),
    ("coche|cocher|cochez|valide|valider|validez", "check off"),
    ("marque|marquer|marquez", "mark"),
    ("comme", "as"),
    ("pas fait|faite|fini|finie|terminé|terminée", "not done"),
    (
        "pas encore fait|faite|fini|finie|terminé|terminée",
        "not done",
    ),
    ("non fait|faite|fini|terminé", "not done"),
    ("décoche|décocher|décochez", "uncheck"),
    ("rouvre|rouvrir|rouvrez", "reopen"),
    // deleting
    ("supprime|supprimer|supprimez|supprimes", "delete"),
    ("efface|effacer|effacez", "erase"),
    ("annule|annuler|annulez", "cancel"),
    ("annulée|annulés|annulées", "cancelled"),
    (
        "enlève|enlever|enlevez|retire|retirer|retirez|vire|virer",
        "remove",
    ),
    ("débarrasse moi de|du|d'", "get rid of"),
    ("laisse tomber", "drop"),
    ("oublie|oublier", "forget about"),
    ("plus besoin de|du|d'|des", "no longer need"),
    ("n' ai plus besoin de|du|d'|des", "no longer need"),
    // changing
    ("déplace|déplacer|déplacez|décale|décaler|décalez", "move"),
    ("avance|avancer|avancez|remets", "move"),
    (
        "repousse|repousser|repoussez|reporte|reporter|reportez",
        "postpone",
    ),
    ("change|changer|changez|modifie|modifier|modifiez", "change"),
    ("passe|passer|passez", "move"),
    ("renomme|renommer|renommez", "rename"),
    (
        "relie|relier|reliez|lie|lier|associe|associer|rattache|rattacher",
        "link",
    ),
    ("plus tard", "later"),
    ("plus tôt", "earlier"),
    ("d' une heure", "by an hour"),
    ("d' un jour", "by a day"),
    ("d' une semaine", "by a week"),
    // kinds
    ("rendez vous", "appointment"),
    ("rdv|rencard", "appointment"),
    ("réunion|réunions|réu", "meeting"),
    ("dîner|diner|dîners", "dinner"),
    ("déjeuner|déj|dej", "lunch"),
    ("petit déjeuner|déj", "breakfast"),
    ("soirée|soirées|fête", "party"),
    ("entretien", "interview"),
    ("vol", "flight"),
    ("concert", "concert"),
    ("mariage", "wedding"),
    ("conférence", "conference"),
    ("webinaire", "webinar"),
    ("match", "game"),
    ("film|ciné|cinéma", "movie"),
    ("apéro", "drinks"),
    ("coiffeur|coiffeuse", "haircut"),
    ("cours", "class"),
    ("événement|évènement", "event"),
    ("habitude|habitudes", "habit"),
    ("objectif|objectifs", "goal"),
    ("mon objectif", "my goal"),
    ("tâche|tâches", "task"),
    ("rappel", "reminder"),
    ("truc|machin|chose", "thing"),
    ("truc|machin|chose chez|avec|pour|de|du|d'", "thing with"),
    ("courir|footing|jogging|running", "running"),
    ("course à pied", "running"),
    ("marcher|promenade|balade", "walk"),
    ("méditer|méditation", "meditate"),
    ("sport|muscu|musculation", "gym"),
    ("salle de sport|gym", "gym"),
    ("étirements|étirer", "stretching"),
    ("lire|lecture", "reading"),
    ("natation|nager", "swimming"),
    ("guitare", "guitar"),
    ("vitamines", "vitamins"),
    ("eau", "water"),
    ("dormir|sommeil", "sleep"),
    ("pompes", "pushups"),
    ("fil dentaire", "floss"),
    ("réviser|étudier", "study"),
    // chat
    ("merci|mercii", "thanks"),
    ("merci beaucoup", "thanks very much"),
    ("parfait", "perfect"),
    ("salut|coucou", "hi"),
    ("bonjour|bonsoir", "hello"),
    ("super|génial|top|nickel", "great"),
    ("d' accord", "ok"),
    ("dac|oki|entendu", "ok"),
    ("ça|ca marche|roule", "sounds good"),
    ("oui|ouais", "yes"),
    ("non", "no"),
    ("très bien", "very good"),
    ("bonne nuit", "good night"),
    ("à plus|bientôt", "bye"),
    ("s' il te|vous plaît", "please"),
    ("stp|svp", "please"),
    ("tu peux|pourrais", "can you"),
    ("peux|pourrais tu", "can you"),
    ("vous pouvez|pourriez", "can you"),
    ("pouvez|pourriez vous", "can you"),
    ("est ce que tu peux|pourrais", "can you"),
    // questions
    ("qu' est ce que j' ai", "what do i have"),
    ("j' ai quoi", "what do i have"),
    ("qu' est ce qu' il y a", "what is on"),
    ("qu' y a t il", "what is on"),
    ("il y a quoi", "what is on"),
    ("qu' est ce qui", "what"),
    ("qu' est ce que|qu'", "what"),
    ("qu' est ce qu' il me reste", "what is left"),
    ("qu' est ce qui me reste", "what is left"),
    ("il me reste quoi", "what is left"),
    ("il reste quoi", "what is left"),
    ("reste t il", "is left"),
    ("quoi", "what"),
    ("quand", "when"),
    ("c' est quand", "when is"),
    ("quand est ce que|qu'", "when"),
    ("à quelle heure", "what time"),
    ("quel jour", "what day"),
    ("quels jours", "which day"),
    ("pour quand", "by when"),
    ("quel|quelle|quels|quelles", "which"),
    ("comment", "how"),
    ("en retard", "overdue"),
    (
        "chargé|chargée|rempli|remplie|occupé|occupée|blindé|blindée",
        "busy",
    ),
    ("ça|ca donne quoi", "how is it looking"),
    ("ça|ca se présente comment", "how is it looking"),
    ("est ce que|qu'", "is"),
];

const WORDS: Words = Words {
    number,
    weekdays: [
        "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
    ],
    weekday_abbreviations: ["lun", "mar", "mer", "jeu", "ven", "sam", "dim"],
    month,
    hour_units: &["h", "heure", "heures"],
    noon: &["midi"],
    midnight: &["minuit"],
    minutes: &[
        ("et demie|demi", 30),
        ("et quart", 15),
        ("moins le quart", -15),
        ("moins quart", -15),
    ],
    plus_minus: ("-", "moins"),
    meridiem: &[
        ("du matin", "am"),
        ("de l' après midi", "pm"),
        ("de l' aprem", "pm"),
        ("du soir", "pm"),
        ("de la nuit", "am"),
    ],
    clock_preps: &[
        "a", "vers", "de", "d'", "entre", "et", "jusqu'", "des", "avant", "apres", "pour",
    ],
    duration_preps: &["pendant", "durant", "dans", "en"],
    ordinal_suffixes: &["er", "re", "ere", "e", "eme"],
    first: &["premier", "premiere"],
    next_week: &["prochain|prochaine", "qui vient"],
    month_ends: &["la fin de|du|d'", "fin de|du|d'", "fin"],
    month_starts: &["le début de|du|d'", "début de|du|d'", "début"],
};

fn number(f: &str) -> Option<u32> {
    Some(match f {
        "un" | "une" => 1,
        "deux" => 2,
        "trois" => 3,
        "quatre" => 4,
        "cinq" => 5,
        "six" => 6,
        "sept" => 7,
        "huit" => 8,
        "neuf" => 9,
        "dix" => 10,
        "onze" => 11,
        "douze" => 12,
        "treize" => 13,
        "quatorze" => 14,
        "quinze" => 15,
        "seize" => 16,
        "vingt" => 20,
        _ => return None,
    })
}

fn month(f: &str) -> Option<u32> {
    Some(match f {
        "janvier" | "janv" => 1,
        "fevrier" | "fevr" | "fev" => 2,
        "mars" => 3,
        "avril" | "avr" => 4,
        "mai" => 5,
        "juin" => 6,
        "juillet" | "juil" => 7,
        "aout" => 8,
        "septembre" | "sept" => 9,
        "octobre" | "oct" => 10,
        "novembre" | "nov" => 11,
        "decembre" | "dec" => 12,
        _ => return None,
    })
}

/// What the table cannot say (see the module docs).
fn hook(p: &Lexed, i: usize) -> Option<Rewrite> {
    let f = fw(p, i);
    match f.as_str() {
        "j'" | "je" | "est" => return past(p, i),
        "a" | "de" | "d'" | "des" | "jusqu'" => {
            if let Some(r) = time_prep(p, i, &f) {
                return Some(r);
            }
        }
        "le" | "les" | "au" | "du" | "ce" | "cet" | "tous" | "toutes" | "chaque" | "un" | "une" => {
            if let Some(r) = article(p, i, &f) {
                return Some(r);
            }
        }
        "mets" | "mettre" | "met" | "mettez" => {
            let list = (0..p.len()).any(|k| {
                matches!(
                    fw(p, k).as_str(),
                    "liste" | "agenda" | "calendrier" | "planning"
                )
            });
            return rewrite(i + 1, &[if list { "add" } else { "change" }]);
        }
        "note" | "notez" | "noter" if i == 0 => return rewrite(i + 1, &["add"]),
        "en" => {
            let renamed = (0..i).any(|k| fw(p, k).starts_with("renomm"));
            let later = (i + 1..p.len()).any(|k| fw(p, k) == "en");
            if renamed && !later {
                return rewrite(i + 1, &["to"]);
            }
        }
        "termine" | "terminer" if !p.w(i).contains('é') => return rewrite(i + 1, &["finish"]),
        "passe" | "passee" | "passes" if p.w(i).contains('é') => return rewrite(i + 1, &["past"]),
        // "passe chez le dentiste": a visit, not a move
        "passe" | "passer"
            if matches!(
                fw(p, i + 1).as_str(),
                "chez" | "par" | "voir" | "prendre" | "acheter" | "recuperer" | "chercher" | "au"
            ) =>
        {
            return rewrite(i + 1, &["stop", "by"]);
        }
        "sept" => return rewrite(i + 1, &["7"]),
        "neuf" => {
            let unit = matches!(
                fw(p, i + 1).as_str(),
                "h" | "heure" | "heures" | "jours" | "semaines" | "mois" | "ans" | "fois"
            );
            return unit.then(|| rewrite(i + 1, &["9"])).flatten();
        }
        _ => {}
    }
    if let Some(r) = d_ici(p, i, &f) {
        return Some(r);
    }
    if let Some(r) = romance::day_date(p, i, &WORDS, "de", romance::is_ordinal(&f)) {
        return Some(r);
    }
    if let Some(r) = romance::weekday_word(p, i, &WORDS) {
        return Some(r);
    }
    romance::time_at(p, i, &WORDS)
}

/// "à", "de", "dès", "jusqu'à" before a time: "at", "from", "to" (see the module docs).
fn time_prep(p: &Lexed, i: usize, f: &str) -> Option<Rewrite> {
    let mut k = i + 1;
    if f == "jusqu'" {
        k = seq(p, k, "à|a|au")?;
    }
    let c = romance::clock_at(p, k, &WORDS, true)?;
    let after_clock = romance::clock_ends_at(p, i, &WORDS);
    match f {
        "a" | "jusqu'" if after_clock => rewrite(k, &["to"]),
        "a" => rewrite(k, &["at"]),
        "jusqu'" => None,
        "des" if p.w(i) == "dès" => rewrite(k, &["from"]),
        _ => {
            // "de 10h à 11h", "de 9 à 10h30": a range
            let to = seq(p, c.end, "à|a")
                .or_else(|| {
                    romance::meridiem_at(p, c.end, &WORDS).and_then(|(_, e)| seq(p, e, "à|a"))
                })
                .or_else(|| seq(p, c.end, "jusqu' à|a"))?;
            romance::clock_at(p, to, &WORDS, true)?;
            rewrite(k, &["from"])
        }
    }
}

/// An article or quantifier before a day number or a weekday (see the module docs).
fn article(p: &Lexed, i: usize, f: &str) -> Option<Rewrite> {
    let joins = &["et", "ou"][..];
    let articles = &["le", "les"][..];
    match f {
        "le" | "au" | "du" => {
            let prep = match f {
                "le" => "on",
                "au" => "to",
                _ => "from",
            };
            if let Some(r) = romance::day_date(p, i + 1, &WORDS, "de", true) {
                return romance::prefixed(r.end, prep, r.words);
            }
            if f == "du" {
                let (days, end) = romance::weekday_range(p, i + 1, &WORDS, &["au", "a", "à"])?;
                return romance::days_rewrite(end, "every", &days, false);
            }
            let (d, _, e) = romance::weekday_at(p, i + 1, &WORDS)?;
            if f == "au" {
                return romance::weekday_word(p, i + 1, &WORDS)
                    .and_then(|r| romance::prefixed(r.end, "to", r.words));
            }
            if romance::day_at(p, e, &WORDS).is_some() {
                return rewrite_owned(e, vec!["on".into(), romance::weekday_en(d, false)]);
            }
            if let Some(end) = seq(p, e, "prochain|prochaine").or(seq(p, e, "qui vient")) {
                return rewrite_owned(end, vec!["next".into(), romance::weekday_en(d, false)]);
            }
            let (days, end) = romance::weekday_list(p, i + 1, &WORDS, joins, articles)?;
            romance::days_rewrite(end, "on", &days, true)
        }
        "les" => {
            let (days, end) = romance::weekday_list(p, i + 1, &WORDS, joins, articles)?;
            romance::days_rewrite(end, "on", &days, true)
        }
        "ce" | "cet" => {
            let (d, _, e) = romance::weekday_at(p, i + 1, &WORDS)?;
            rewrite_owned(e, vec!["this".into(), romance::weekday_en(d, false)])
        }
        "tous" | "toutes" | "chaque" => {
            let k = if f == "chaque" {
                i + 1
            } else {
                seq(p, i + 1, "les")?
            };
            let (days, end) = romance::weekday_list(p, k, &WORDS, joins, articles)?;
            romance::days_rewrite(end, "every", &days, false)
        }
        _ => {
            // "un dimanche sur deux"
            let (d, _, e) = romance::weekday_at(p, i + 1, &WORDS)?;
            let end = seq(p, e, "sur deux|2")?;
            rewrite_owned(
                end,
                vec![
                    "every".into(),
                    "other".into(),
                    romance::weekday_en(d, false),
                ],
            )
        }
    }
}

/// "d'ici juin", "avant juin", "pour fin juin", "fin juin": by the month's last day; "début
/// juin": its first.
fn d_ici(p: &Lexed, i: usize, f: &str) -> Option<Rewrite> {
    let (prep, k) = match f {
        "d'" => ("by", seq(p, i + 1, "ici")?),
        "avant" => ("before", i + 1),
        "pour" => ("by", i + 1),
        "fin" => ("by", i),
        "debut" => ("on", i),
        _ => return None,
    };
    romance::month_deadline(p, k, &WORDS, prep)
}

/// Words that follow "ai" and are not a past participle.
const NOT_PARTICIPLES: &[&str] = &[
    "quoi", "envie", "besoin", "rendez", "rdv", "pas", "plus", "jamais", "rien", "tout", "trop",
    "peu", "ici", "aussi", "bien", "si", "qui", "lui", "demi", "ami", "cours", "encore",
];

/// Whether word `k` is a past participle ("envoyé", "fini", "couru", "fait", "pris").
fn participle(p: &Lexed, k: usize) -> bool {
    let raw = p.w(k);
    let f = fw(p, k);
    if f.is_empty()
        || NOT_PARTICIPLES.contains(&f.as_str())
        || romance::weekday_name(&WORDS, &f).is_some()
        || month(&f).is_some()
        || number(&f).is_some()
        || WORDS.noon.contains(&f.as_str())
    {
        return false;
    }
    ["é", "ée", "és", "ées"].iter().any(|e| raw.ends_with(e))
        || ["i", "ie", "is", "it", "u", "ue", "us", "ert", "erte"]
            .iter()
            .any(|e| f.ends_with(e))
}

/// "j'ai envoyé", "je suis allé", "est-ce que j'ai fait", "j'ai pas encore rendu": what was
/// done, as the reading's words (see the module docs).
fn past(p: &Lexed, i: usize) -> Option<Rewrite> {
    let question = romance::is_question(p);
    // "est-ce que j'ai ..." in a question
    let (start_words, k): (&[&str], usize) = match fw(p, i).as_str() {
        "est" => {
            let k = seq(p, i + 1, "ce que|qu' j' ai")?;
            return if participle(p, k) || (k < p.len() && fw(p, k) == "deja") {
                rewrite(k, &["did", "i"])
            } else {
                rewrite(k, &["do", "i", "have"])
            };
        }
        "je" => {
            if let Some(k) = seq(p, i + 1, "suis") {
                let went = seq(p, k, "allé|allée|allés|passé|passée|parti|partie");
                return match went {
                    Some(e) if question => rewrite(e, &["did", "i", "go"]),
                    Some(e) => rewrite(e, &["i", "went"]),
                    None => None,
                };
            }
            if let Some(k) = seq(p, i + 1, "n' ai pas|jamais") {
                return negated(p, k);
            }
            (&["i"], seq(p, i + 1, "l' ai")?)
        }
        _ => {
            let k = seq(p, i + 1, "ai")?;
            if let Some(k) = seq(p, k, "pas|jamais") {
                return negated(p, k);
            }
            (&[][..], k)
        }
    };
    let mut k = k;
    let mut already = false;
    while matches!(
        fw(p, k).as_str(),
        "deja" | "bien" | "enfin" | "finalement" | "aussi"
    ) {
        already |= fw(p, k) == "deja";
        k += 1;
    }
    if !participle(p, k) {
        return None;
    }
    // "j'ai oublié", "j'ai raté": not done
    if matches!(fw(p, k).as_str(), "oublie" | "rate" | "manque" | "loupe") {
        return rewrite(k + 1, &["i", "forgot"]);
    }
    // "j'ai réservé une table pour vendredi": a booking, not a completion
    if !question && future(p) {
        return rewrite(k, &["i"]);
    }
    let mut words: Vec<String> = if question {
        vec!["did".into(), "i".into()]
    } else {
        start_words
            .iter()
            .map(|w| w.to_string())
            .chain(["i".to_string(), "did".to_string()])
            .collect()
    };
    words.dedup();
    if already {
        words.push("already".into());
    }
    // "fait" is the doing itself; another participle stays a word of its own (its table
    // entry, "annulé" a cancellation, still counts)
    let end = if fw(p, k) == "fait" { k + 1 } else { k };
    rewrite_owned(end, words)
}

/// Whether the message names a day to come ("demain", "lundi prochain", "dans 3 jours", "pour
/// vendredi"), so that "j'ai" and a participle report a booking, not something done.
fn future(p: &Lexed) -> bool {
    (0..p.len()).any(|k| {
        let f = fw(p, k);
        matches!(f.as_str(), "demain" | "prochain" | "prochaine" | "dans")
            || (f == "pour"
                && (romance::weekday_at(p, k + 1, &WORDS).is_some()
                    || romance::day_date(p, k + 1, &WORDS, "de", false).is_some()
                    || matches!(fw(p, k + 1).as_str(), "le" | "demain" | "ce" | "cette")))
    })
}

/// "j'ai pas encore rendu", "je n'ai pas fini": "I have not" (with "done" for fait, fini,
/// terminé, and "yet" for "encore"), the participle used up.
fn negated(p: &Lexed, k: usize) -> Option<Rewrite> {
    let mut k = k;
    let mut words = vec!["i".to_string(), "have".to_string(), "not".to_string()];
    let yet = fw(p, k) == "encore";
    if yet {
        k += 1;
    }
    if participle(p, k) {
        if matches!(
            fw(p, k).as_str(),
            "fait" | "faite" | "fini" | "finie" | "termine" | "terminee"
        ) {
            words.push("done".into());
        }
        k += 1;
    }
    if yet {
        words.push("yet".into());
    }
    rewrite_owned(k, words)
}
