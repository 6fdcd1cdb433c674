//! The questions code asks back, in the user's language (English, German, French, Spanish):
//! one template per reason ([`Ask`]), filled with an item's title or a day. Pure. The French
//! questions address the user as "vous", the German and Spanish ones as "du" and "tú".

use crate::assistant::date::Date;
use crate::assistant::model::Weekday;
use crate::kernel::lang::Language;

/// Why the library asks instead of proposing operations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// An action whose item is missing or ambiguous ("move it to friday"): which one.
    WhichItem,
    /// An action on an item the planner does not hold (nothing to offer): what it is called.
    NotFound,
    /// An item named with no action ("the insurance thing"): what to do with it.
    WhatToDo {
        /// The item's title.
        title: String,
    },
    /// An action on a named item whose change the words do not say ("change the dentist
    /// appointment", "push the taxes back a week" for a todo with no day): what should change.
    WhatChange {
        /// The item's title.
        title: String,
    },
    /// A request to add something that says nothing of what ("add things", "plan my week").
    WhatToAdd,
    /// A weekday next to a date that falls on another one ("Tuesday Dec 7").
    WhichDay {
        /// The weekday said.
        said: Weekday,
        /// The date said.
        date: Date,
    },
    /// The full proposal did not finish within its time budget.
    TooSlow,
}

/// The question for `ask`, in `lang`.
pub fn question(lang: Language, ask: &Ask) -> String {
    use Language::{De, En, Es, Fr};
    match (ask, lang) {
        (Ask::WhichItem, En) => "Which one do you mean?".into(),
        (Ask::WhichItem, De) => "Welchen Eintrag meinst du?".into(),
        (Ask::WhichItem, Fr) => "De quel élément parlez-vous ?".into(),
        (Ask::WhichItem, Es) => "¿A cuál te refieres?".into(),
        (Ask::NotFound, En) => "I could not find that in your planner. What is it called?".into(),
        (Ask::NotFound, De) => {
            "Das habe ich in deinem Planer nicht gefunden. Wie heißt der Eintrag?".into()
        }
        (Ask::NotFound, Fr) => {
            "Je ne trouve pas cela dans votre planning. Comment s’appelle-t-il ?".into()
        }
        (Ask::NotFound, Es) => "No lo encuentro en tu agenda. ¿Cómo se llama?".into(),
        (Ask::WhatToDo { title }, En) => {
            format!("What should I do with “{title}”: move it, mark it done or delete it?")
        }
        (Ask::WhatToDo { title }, De) => format!(
            "Was soll ich mit „{title}“ machen: verschieben, als erledigt markieren oder löschen?"
        ),
        (Ask::WhatToDo { title }, Fr) => format!(
            "Que faire de « {title} » : le déplacer, le marquer comme fait ou le supprimer ?"
        ),
        (Ask::WhatToDo { title }, Es) => {
            format!("¿Qué hago con «{title}»: moverlo, marcarlo como hecho o borrarlo?")
        }
        (Ask::WhatChange { title }, En) => {
            format!("What should change about “{title}”: the day, the time or something else?")
        }
        (Ask::WhatChange { title }, De) => {
            format!("Was soll sich an „{title}“ ändern: der Tag, die Uhrzeit oder etwas anderes?")
        }
        (Ask::WhatChange { title }, Fr) => {
            format!("Que faut-il changer pour « {title} » : le jour, l’heure ou autre chose ?")
        }
        (Ask::WhatChange { title }, Es) => {
            format!("¿Qué cambio en «{title}»: el día, la hora u otra cosa?")
        }
        (Ask::WhatToAdd, En) => {
            "What would you like to add? Say what it is, and the day if there is one.".into()
        }
        (Ask::WhatToAdd, De) => {
            "Was möchtest du hinzufügen? Sag, worum es geht, und den Tag, falls es einen gibt."
                .into()
        }
        (Ask::WhatToAdd, Fr) => {
            "Que voulez-vous ajouter ? Dites ce que c’est, et le jour s’il y en a un.".into()
        }
        (Ask::WhatToAdd, Es) => "¿Qué quieres añadir? Di qué es y el día, si lo hay.".into(),
        (Ask::WhichDay { said, date }, lang) => which_day(lang, *said, *date),
        (Ask::TooSlow, En) => {
            "That took too long to work out. Which item do you mean, and what should change?".into()
        }
        (Ask::TooSlow, De) => {
            "Das hat zu lange gedauert. Welchen Eintrag meinst du, und was soll sich ändern?".into()
        }
        (Ask::TooSlow, Fr) => {
            "Cela a pris trop de temps. De quel élément parlez-vous, et que faut-il changer ?"
                .into()
        }
        (Ask::TooSlow, Es) => {
            "Eso tardó demasiado. ¿A qué elemento te refieres y qué debe cambiar?".into()
        }
    }
}

/// "December 7 is a Monday, not a Tuesday. Which day do you mean?"
fn which_day(lang: Language, said: Weekday, date: Date) -> String {
    let (_, m, d) = date.ymd();
    let is = weekday_name(lang, date.weekday());
    let not = weekday_name(lang, said);
    let month = month_name(lang, m);
    match lang {
        Language::En => {
            format!("{month} {d} is a {is}, not a {not}. Which day do you mean?")
        }
        Language::De => {
            format!("Der {d}. {month} ist ein {is}, kein {not}. Welchen Tag meinst du?")
        }
        Language::Fr => {
            format!("Le {d} {month} est un {is}, pas un {not}. Quel jour voulez-vous dire ?")
        }
        Language::Es => {
            format!("El {d} de {month} es {is}, no {not}. ¿Qué día quieres decir?")
        }
    }
}

/// A weekday's name in `lang` (English and German capitalised, French and Spanish not).
pub fn weekday_name(lang: Language, day: Weekday) -> &'static str {
    const NAMES: [[&str; 7]; 4] = [
        [
            "Monday",
            "Tuesday",
            "Wednesday",
            "Thursday",
            "Friday",
            "Saturday",
            "Sunday",
        ],
        [
            "Montag",
            "Dienstag",
            "Mittwoch",
            "Donnerstag",
            "Freitag",
            "Samstag",
            "Sonntag",
        ],
        [
            "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
        ],
        [
            "lunes",
            "martes",
            "miércoles",
            "jueves",
            "viernes",
            "sábado",
            "domingo",
        ],
    ];
    let i = Weekday::ALL.iter().position(|w| *w == day).unwrap_or(0);
    NAMES[lang_index(lang)][i]
}

/// A month's name in `lang`, `month` 1 to 12.
pub fn month_name(lang: Language, month: u32) -> &'static str {
    const NAMES: [[&str; 12]; 4] = [
        [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ],
        [
            "Januar",
            "Februar",
            "März",
            "April",
            "Mai",
            "Juni",
            "Juli",
            "August",
            "September",
            "Oktober",
            "November",
            "Dezember",
        ],
        [
            "janvier",
            "février",
            "mars",
            "avril",
            "mai",
            "juin",
            "juillet",
            "août",
            "septembre",
            "octobre",
            "novembre",
            "décembre",
        ],
        [
            "enero",
            "febrero",
            "marzo",
            "abril",
            "mayo",
            "junio",
            "julio",
            "agosto",
            "septiembre",
            "octubre",
            "noviembre",
            "diciembre",
        ],
    ];
    NAMES[lang_index(lang)][(month.clamp(1, 12) - 1) as usize]
}

fn lang_index(lang: Language) -> usize {
    match lang {
        Language::En => 0,
        Language::De => 1,
        Language::Fr => 2,
        Language::Es => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_a_question_in_every_language() {
        let date = Date::parse("2026-12-07").unwrap();
        let asks = [
            Ask::WhichItem,
            Ask::NotFound,
            Ask::WhatToDo {
                title: "Renew car insurance".into(),
            },
            Ask::WhatChange {
                title: "Renew car insurance".into(),
            },
            Ask::WhatToAdd,
            Ask::WhichDay {
                said: Weekday::Tue,
                date,
            },
            Ask::TooSlow,
        ];
        for lang in Language::ALL {
            let mut seen = Vec::new();
            for ask in &asks {
                let q = question(lang, ask);
                assert!(q.contains('?'), "{lang} {q}");
                if let Ask::WhatToDo { title } | Ask::WhatChange { title } = ask {
                    assert!(q.contains(title.as_str()), "{q}");
                }
                assert!(!seen.contains(&q), "{q}");
                seen.push(q);
            }
        }
        let day = Ask::WhichDay {
            said: Weekday::Tue,
            date,
        };
        assert_eq!(
            question(Language::En, &day),
            "December 7 is a Monday, not a Tuesday. Which day do you mean?"
        );
        assert_eq!(
            question(Language::De, &day),
            "Der 7. Dezember ist ein Montag, kein Dienstag. Welchen Tag meinst du?"
        );
        assert!(
            question(Language::Fr, &day).starts_with("Le 7 décembre est un lundi, pas un mardi.")
        );
        assert!(question(Language::Es, &day).starts_with("El 7 de diciembre es lunes, no martes."));
    }
}
