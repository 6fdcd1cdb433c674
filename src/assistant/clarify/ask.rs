//! The questions code asks back, in the user's language: one template per reason ([`Ask`]) in
//! each language's table of `phrasing/` (`q_*`), filled with an item's title or a day. Pure.

use crate::assistant::date::Date;
use crate::assistant::model::Weekday;
use crate::assistant::phrasing::phrases;
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
    let p = phrases(lang);
    let quoted = |title: &str| format!("{}{title}{}", p.quote_open, p.quote_close);
    match ask {
        Ask::WhichItem => p.q_which_item.into(),
        Ask::NotFound => p.q_not_found.into(),
        Ask::WhatToDo { title } => p.fill(p.q_what_to_do, &[("title", &quoted(title))]),
        Ask::WhatChange { title } => p.fill(p.q_what_change, &[("title", &quoted(title))]),
        Ask::WhatToAdd => p.q_what_to_add.into(),
        Ask::WhichDay { said, date } => {
            let i = Weekday::ALL.iter().position(|w| w == said).unwrap_or(0);
            p.fill(
                p.q_which_day,
                &[("date", &p.date(*date)), ("said", p.weekdays[i])],
            )
        }
        Ask::TooSlow => p.q_too_slow.into(),
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
        let q = |lang| question(lang, &day);
        assert_eq!(
            q(Language::En),
            "Monday, December 7 is not a Tuesday. Which day do you mean?"
        );
        assert_eq!(
            q(Language::De),
            "Montag, 7. Dezember ist kein Dienstag. Welchen Tag meinst du?"
        );
        assert!(q(Language::Fr).starts_with("Lundi 7 décembre n'est pas un mardi."));
        assert!(q(Language::Es).starts_with("El lunes 7 de diciembre no es martes."));
        assert_eq!(
            question(
                Language::En,
                &Ask::WhatToDo {
                    title: "Renew car insurance".into()
                }
            ),
            "What should I do with “Renew car insurance”: move it, mark it done or delete it?"
        );
    }
}
