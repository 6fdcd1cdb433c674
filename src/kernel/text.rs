//! Small word helpers that every reader of user text shares (pure): plurals, numbers written in
//! digits (with a unit stuck to them) or in words, and minute units. The readers themselves
//! (today's notes in `workout/notes.rs`, a meal slot's note in `meals/notes.rs`, assistant
//! messages) keep their own word lists.

/// `w` in the singular, roughly (`squats` -> `squat`, `flies` -> `fly`, `presses` -> `press`).
pub fn singular(w: &str) -> String {
    if w.len() > 4 && w.ends_with("ies") {
        return format!("{}y", &w[..w.len() - 3]);
    }
    for suffix in ["sses", "ches", "shes", "xes"] {
        if w.len() > suffix.len() + 1 && w.ends_with(suffix) {
            return w[..w.len() - 2].to_string();
        }
    }
    match w.strip_suffix('s') {
        Some(stem) if stem.len() >= 2 && !stem.ends_with('s') && !stem.ends_with('u') => {
            stem.to_string()
        }
        _ => w.to_string(),
    }
}

/// A number with an optional unit stuck to it (`45min`, `1.5h`): (value, unit).
pub fn number(word: &str) -> Option<(f64, &str)> {
    let split = word
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(word.len());
    let (n, unit) = word.split_at(split);
    n.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .map(|v| (v, unit))
}

/// Minutes per unit of time (`min`, `minutes`, `h`, `hours`, ...; `ish` counts as minutes).
pub fn minutes_unit(u: &str) -> Option<f64> {
    match u {
        "m" | "min" | "mins" | "minute" | "minutes" | "ish" => Some(1.0),
        "h" | "hr" | "hrs" | "hour" | "hours" => Some(60.0),
        _ => None,
    }
}

/// A number written as a word: `one` to `twenty`, then the tens to `ninety`.
pub fn number_word(w: &str) -> Option<u32> {
    const UNITS: &[&str] = &[
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    const TENS: &[&str] = &[
        "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    if let Some(k) = UNITS.iter().position(|u| *u == w) {
        return Some(k as u32 + 1);
    }
    TENS.iter()
        .position(|t| *t == w)
        .map(|k| 30 + 10 * k as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_numbers() {
        assert_eq!(singular("squats"), "squat");
        assert_eq!(singular("berries"), "berry");
        assert_eq!(singular("sandwiches"), "sandwich");
        assert_eq!(singular("glass"), "glass");
        assert_eq!(number("45min"), Some((45.0, "min")));
        assert_eq!(number("1.5h"), Some((1.5, "h")));
        assert_eq!(number("min"), None);
        assert_eq!(minutes_unit("hrs"), Some(60.0));
        assert_eq!(number_word("fifteen"), Some(15));
        assert_eq!(number_word("forty"), Some(40));
        assert_eq!(number_word("a"), None);
    }
}
