//! Command words typed in a hurry, at the start of an English message: "remmind me to",
//! "reminde me", "remindme to", "ad a task", "taks: ...". Pure.
//!
//! The first word after polite openers ("plz", "hey", "can you") is read as a command word
//! when it is one misspelled by a single edit (a letter dropped, doubled, added, swapped with
//! its neighbour, or, for commands of five letters or more, replaced), keeps its first letter,
//! and is no inflection of it ("created", "tasks" stay as written) nor an English word of its
//! own ("rewind", "crate"). Commands of four letters or
//! fewer take no replaced letter ("ask" is not "task", "and" not "add"). A command glued to
//! "me" or "to" ("remindme", "remindmeto") is split. Only commands that add something are read
//! this way: a misspelled "delete" stays a word, never a deletion.

use super::lex::{Lexed, Tok};

/// The commands, in the order tried ("remind" before "reminder").
const COMMANDS: &[&str] = &[
    "remind", "reminder", "schedule", "create", "add", "todo", "task",
];
/// Words that may come before the command.
const OPENERS: &[&str] = &[
    "please", "pls", "plz", "hey", "ok", "okay", "so", "can", "could", "would", "will", "you", "u",
    "just",
];
/// English words one edit away from a command: they stay as written.
const REAL_WORDS: &[&str] = &["rewind", "remand", "crate", "tack", "tusk", "toto", "ado"];
/// What may be glued after a command.
const GLUED: &[&[&str]] = &[&["me"], &["to"], &["me", "to"]];

/// Reads the first command word of `p` as the command it misspells (see the module docs).
pub(super) fn fix_commands(p: &mut Lexed) {
    let Some(i) = (0..p.len()).find(|&i| !OPENERS.contains(&p.w(i))) else {
        return;
    };
    let w = p.w(i).to_string();
    if COMMANDS.contains(&w.as_str()) {
        return;
    }
    for c in COMMANDS {
        let Some(rest) = w.strip_prefix(c) else {
            continue;
        };
        let glued = GLUED
            .iter()
            .find(|parts| parts.concat() == rest && !rest.is_empty());
        if let Some(parts) = glued {
            let (start, end) = (p.t[i].start, p.t[i].end);
            let words = std::iter::once(*c).chain(parts.iter().copied());
            let toks: Vec<Tok> = words
                .map(|s| Tok {
                    s: s.to_string(),
                    start,
                    end,
                })
                .collect();
            p.t.splice(i..=i, toks);
            p.used = vec![false; p.t.len()];
            return;
        }
    }
    if let Some(c) = COMMANDS.iter().find(|c| misspells(&w, c)) {
        p.t[i].s = (*c).to_string();
    }
}

/// Whether `w` is `command` misspelled by one edit (see the module docs).
fn misspells(w: &str, command: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (w.chars().collect(), command.chars().collect());
    if a.is_empty()
        || a[0] != b[0]
        || !a.iter().all(|c| c.is_ascii_alphabetic())
        || REAL_WORDS.contains(&w)
    {
        return false;
    }
    let inflected = ["s", "ed", "ing", "es"]
        .iter()
        .any(|suffix| w == format!("{command}{suffix}"))
        || (command.ends_with('e') && w == format!("{command}d"));
    if inflected || (b.len() >= 5 && a.len() < 4) {
        return false;
    }
    let long = b.len() >= 5;
    match a.len() as isize - b.len() as isize {
        0 => {
            let diff: Vec<usize> = (0..a.len()).filter(|&k| a[k] != b[k]).collect();
            match diff[..] {
                [k] => long && k > 0,
                [k, l] => l == k + 1 && a[k] == b[l] && a[l] == b[k],
                _ => false,
            }
        }
        1 => drops_one(&a, &b),
        -1 => drops_one(&b, &a),
        _ => false,
    }
}

/// Whether removing one letter of `longer` gives `shorter`.
fn drops_one(longer: &[char], shorter: &[char]) -> bool {
    (0..longer.len()).any(|k| {
        longer[..k]
            .iter()
            .chain(&longer[k + 1..])
            .eq(shorter.iter())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_of_a_command_is_the_command() {
        for (w, c) in [
            ("remmind", "remind"),
            ("reminde", "remind"),
            ("remnd", "remind"),
            ("rmeind", "remind"),
            ("rimind", "remind"),
            ("shedule", "schedule"),
            ("ad", "add"),
            ("addd", "add"),
            ("taks", "task"),
            ("tood", "todo"),
        ] {
            assert!(misspells(w, c), "{w} {c}");
        }
        for (w, c) in [
            ("remind", "remind"),
            ("reminded", "remind"),
            ("created", "create"),
            ("tasks", "task"),
            ("ask", "task"),
            ("and", "add"),
            ("aid", "add"),
            ("rewind", "remind"),
            ("crate", "create"),
            ("bask", "task"),
            ("remains", "remind"),
        ] {
            let hit = COMMANDS.iter().find(|x| misspells(w, x));
            assert!(hit.is_none() || *hit.unwrap() != c || w == c, "{w} {c}");
        }
    }
}
