//! What the French and Spanish words share (see [`super`]): clock times, day numbers and
//! numeric dates, weekday lists and ranges, and the stemmer their title matches use. Each
//! language's hook calls these with its own words ([`Words`]); the results are the reading's
//! English words ("15h30" becomes "15:30", "18/12" "18 december", "tous les lundis et jeudis"
//! "every monday and thursday"). Pure.

use super::super::lex::Lexed;
use super::table::{fold, RefWords, Rewrite};

/// A language's words for the shared rules. Phrases are folded words separated by spaces,
/// alternatives by `|`.
pub(super) struct Words {
    /// A number word ("deux", "dos") as a number.
    pub(super) number: fn(&str) -> Option<u32>,
    /// The weekdays, Monday first, folded (a plural adds "s").
    pub(super) weekdays: [&'static str; 7],
    /// Their abbreviations, read only with their period ("ven.").
    pub(super) weekday_abbreviations: [&'static str; 7],
    /// A month name or abbreviation (folded): the month (1 to 12).
    pub(super) month: fn(&str) -> Option<u32>,
    /// The words after a number that make it an hour ("h", "heures", "horas").
    pub(super) hour_units: &'static [&'static str],
    /// Noon and midnight.
    pub(super) noon: &'static [&'static str],
    pub(super) midnight: &'static [&'static str],
    /// Phrases after an hour that set its minutes ("et demie" +30, "menos cuarto" -15).
    pub(super) minutes: &'static [(&'static str, i32)],
    /// Words after an hour followed by a number of minutes to add or take ("y", "menos").
    pub(super) plus_minus: (&'static str, &'static str),
    /// Phrases after a time: "am", "pm", or "" (dropped: "en punto").
    pub(super) meridiem: &'static [(&'static str, &'static str)],
    /// Words before a number that make it a time ("à", "vers", "las").
    pub(super) clock_preps: &'static [&'static str],
    /// Words before a time that make it a duration instead ("pendant", "durante").
    pub(super) duration_preps: &'static [&'static str],
    /// The suffixes of an ordinal day ("1er", "1º").
    pub(super) ordinal_suffixes: &'static [&'static str],
    /// The words for "first" as a day of the month.
    pub(super) first: &'static [&'static str],
    /// The phrases after a weekday that make it next week's ("prochain", "que viene").
    pub(super) next_week: &'static [&'static str],
    /// The phrases before a month that mean its end ("fin de") and its start ("début de").
    pub(super) month_ends: &'static [&'static str],
    pub(super) month_starts: &'static [&'static str],
}

/// The folded word `i` of `p` ("" past the end).
pub(super) fn fw(p: &Lexed, i: usize) -> String {
    fold(p.w(i))
}

/// Whether the folded words from `i` are `pat`; returns the index after them.
pub(super) fn seq(p: &Lexed, i: usize, pat: &str) -> Option<usize> {
    let mut k = i;
    for word in pat.split(' ') {
        if k >= p.len() || !word.split('|').any(|a| fold(a) == fw(p, k)) {
            return None;
        }
        k += 1;
    }
    Some(k)
}

/// The first of `pats` that matches at `i`, with the index after it and its value.
pub(super) fn first_seq<T: Copy>(p: &Lexed, i: usize, pats: &[(&str, T)]) -> Option<(T, usize)> {
    pats.iter()
        .find_map(|(pat, v)| seq(p, i, pat).map(|e| (*v, e)))
}

/// A rewrite of words `..end` into `words`.
pub(super) fn rewrite(end: usize, words: &[&str]) -> Option<Rewrite> {
    Some(Rewrite {
        end,
        words: words.iter().map(|w| w.to_string()).collect(),
    })
}

/// A rewrite of words `..end` into owned `words`.
pub(super) fn rewrite_owned(end: usize, words: Vec<String>) -> Option<Rewrite> {
    Some(Rewrite { end, words })
}

/// Whether the message asks a question (ends with `?` or opens with `¿`).
pub(super) fn is_question(p: &Lexed) -> bool {
    let t = p.text.trim();
    t.ends_with('?') || t.starts_with('¿')
}

const WEEKDAYS: &str = "monday tuesday wednesday thursday friday saturday sunday";
const MONTHS: &str =
    "january february march april may june july august september october november december";

/// The English name of weekday `d` (0 is Monday), plural when `plural`.
pub(super) fn weekday_en(d: usize, plural: bool) -> String {
    let name = WEEKDAYS.split(' ').nth(d % 7).unwrap_or("monday");
    if plural {
        format!("{name}s")
    } else {
        name.to_string()
    }
}

/// The English name of month `m` (1 to 12).
pub(super) fn month_en(m: u32) -> &'static str {
    MONTHS
        .split(' ')
        .nth((m.clamp(1, 12) - 1) as usize)
        .unwrap_or("january")
}

/// The last day of month `m` (February: 28).
pub(super) fn month_last_day(m: u32) -> u32 {
    match m {
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// An English ordinal ("1st", "22nd", "3rd", "5th").
pub(super) fn ordinal_en(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn digits(s: &str) -> Option<u32> {
    (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// A weekday name, plural or abbreviation (folded): the day (0 is Monday), whether plural,
/// whether an abbreviation.
pub(super) fn weekday_name(w: &Words, f: &str) -> Option<(usize, bool, bool)> {
    let position = |name: &str| w.weekdays.iter().position(|d| *d == name);
    if let Some(d) = position(f) {
        return Some((d, false, false));
    }
    if let Some(d) = f.strip_suffix('s').and_then(position) {
        return Some((d, true, false));
    }
    w.weekday_abbreviations
        .iter()
        .position(|d| *d == f)
        .map(|d| (d, false, true))
}

/// Whether a folded word is an ordinal day ("1er", "2e", "1º").
pub(super) fn is_ordinal(f: &str) -> bool {
    f.starts_with(|c: char| c.is_ascii_digit()) && !f.ends_with(|c: char| c.is_ascii_digit())
}

/// A weekday at word `i` (an abbreviation only with its period, written in lowercase or
/// followed by a number: "ven." but not "Sam."): day, plural, index after it.
pub(super) fn weekday_at(p: &Lexed, i: usize, w: &Words) -> Option<(usize, bool, usize)> {
    let (d, plural, abbr) = weekday_name(w, &fw(p, i))?;
    if abbr {
        let t = p.t.get(i)?;
        let dotted = p.text[t.end..].starts_with('.');
        let lower = p.text[t.start..]
            .chars()
            .next()
            .is_some_and(char::is_lowercase);
        if !dotted || !(lower || digits(p.w(i + 1)).is_some()) {
            return None;
        }
    }
    Some((d, plural, i + 1))
}

/// A month at word `i`.
pub(super) fn month_at(p: &Lexed, i: usize, w: &Words) -> Option<u32> {
    (w.month)(&fw(p, i))
}

/// "lundi et jeudi", "martes y jueves", "lun., mer. et ven.", "le mardi et le jeudi": the days
/// in order and the index after them. `joins`: the words between two days; `articles`: an
/// article a day may have after a join.
pub(super) fn weekday_list(
    p: &Lexed,
    i: usize,
    w: &Words,
    joins: &[&str],
    articles: &[&str],
) -> Option<(Vec<usize>, usize)> {
    let (first, _, mut end) = weekday_at(p, i, w)?;
    let mut days = vec![first];
    loop {
        let mut k = end;
        if joins.contains(&fw(p, k).as_str()) {
            k += 1;
        } else if !p.gap(k).contains(',') {
            break;
        }
        if articles.contains(&fw(p, k).as_str()) {
            k += 1;
        }
        match weekday_at(p, k, w) {
            Some((d, _, e)) => {
                if !days.contains(&d) {
                    days.push(d);
                }
                end = e;
            }
            None => break,
        }
    }
    days.sort_unstable();
    Some((days, end))
}

/// The English words of a list of days: "monday and thursday" (plural: "mondays and
/// thursdays").
pub(super) fn days_en(days: &[usize], plural: bool) -> Vec<String> {
    let mut out = Vec::new();
    for (n, d) in days.iter().enumerate() {
        if n > 0 {
            out.push("and".to_string());
        }
        out.push(weekday_en(*d, plural));
    }
    out
}

/// A rewrite of words `..end` into `prep` (none when empty) and `words`.
pub(super) fn prefixed(end: usize, prep: &str, words: Vec<String>) -> Option<Rewrite> {
    let mut out: Vec<String> = Vec::with_capacity(words.len() + 1);
    if !prep.is_empty() {
        out.push(prep.to_string());
    }
    out.extend(words);
    rewrite_owned(end, out)
}

/// A rewrite of words `..end` into `prep` and a list of days ("every monday and thursday",
/// plural: "on mondays and thursdays").
pub(super) fn days_rewrite(
    end: usize,
    prep: &str,
    days: &[usize],
    plural: bool,
) -> Option<Rewrite> {
    prefixed(end, prep, days_en(days, plural))
}

/// "lundi au vendredi", "lunes a viernes" (word `i` is the first day): every day of the range
/// and the index after it. `to`: the words between the two days.
pub(super) fn weekday_range(
    p: &Lexed,
    i: usize,
    w: &Words,
    to: &[&str],
) -> Option<(Vec<usize>, usize)> {
    let (a, _, e) = weekday_at(p, i, w)?;
    if !to.contains(&fw(p, e).as_str()) {
        return None;
    }
    let (b, _, end) = weekday_at(p, e + 1, w)?;
    (a < b).then(|| ((a..=b).collect(), end))
}

/// A clock time read at a word.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clock {
    pub(super) h: u32,
    pub(super) m: u32,
    /// Written with a leading zero ("09h"): a 24-hour time.
    pub(super) zero: bool,
    /// Said as a time (a unit, minutes, noon), not a bare number.
    pub(super) marked: bool,
    /// The index after it (its minutes included, not its "am" or "pm").
    pub(super) end: usize,
}

/// A clock time at word `i`: "15h", "15h30", "15:30", "15 h 30", "15 heures", "3 y media",
/// "tres menos cuarto", "midi", or a bare number ("5", "cinq") when `context` says a time is
/// meant (a word such as "à" or "las" before it). Minute phrases are read only for a time.
pub(super) fn clock_at(p: &Lexed, i: usize, w: &Words, context: bool) -> Option<Clock> {
    let f = fw(p, i);
    let mut c = if w.noon.contains(&f.as_str()) || w.midnight.contains(&f.as_str()) {
        let h = if w.noon.contains(&f.as_str()) { 12 } else { 0 };
        Clock {
            h,
            m: 0,
            zero: false,
            marked: true,
            end: i + 1,
        }
    } else {
        let split = f.find(|c: char| !c.is_ascii_digit()).unwrap_or(f.len());
        let (num, rest) = f.split_at(split);
        let (h, mut m, mut marked) = if num.is_empty() {
            ((w.number)(&f)?, 0, false)
        } else if num.len() > 2 {
            return None;
        } else {
            let h: u32 = num.parse().ok()?;
            match rest {
                "" => (h, 0, false),
                "h" => (h, 0, true),
                _ => {
                    let mm = rest.strip_prefix('h').or_else(|| rest.strip_prefix(':'))?;
                    if mm.len() != 2 {
                        return None;
                    }
                    (h, digits(mm)?, true)
                }
            }
        };
        let mut end = i + 1;
        let zero = num.len() == 2 && num.starts_with('0');
        // "15 heures", "trois heures": a time only where one is expected ("une heure plus
        // tard" is a duration)
        if !marked && context && w.hour_units.contains(&fw(p, end).as_str()) {
            marked = true;
            end += 1;
        }
        // "15 h 30", "15h 30", "15 heures 30"
        if marked && m == 0 && !rest.contains(':') {
            if let Some(mm) = digits(p.w(end)).filter(|mm| *mm < 60 && p.w(end).len() == 2) {
                m = mm;
                end += 1;
            }
        }
        Clock {
            h,
            m,
            zero,
            marked,
            end,
        }
    };
    if !(c.marked || context) || c.h > 24 || c.m >= 60 {
        return None;
    }
    if c.m == 0 {
        if let Some((delta, e)) = first_seq(p, c.end, w.minutes) {
            shift(&mut c, delta);
            c.end = e;
            c.marked = true;
        } else {
            let (plus, minus) = w.plus_minus;
            let next = fw(p, c.end);
            if next == plus || next == minus {
                let n = digits(p.w(c.end + 1)).or_else(|| (w.number)(&fw(p, c.end + 1)));
                if let Some(n) = n.filter(|n| (1..60).contains(n)) {
                    shift(&mut c, if next == plus { n as i32 } else { -(n as i32) });
                    c.end += 2;
                    c.marked = true;
                }
            }
        }
    }
    Some(c)
}

fn shift(c: &mut Clock, delta: i32) {
    let total = (c.h as i32 * 60 + c.m as i32 + delta).rem_euclid(24 * 60);
    c.h = (total / 60) as u32;
    c.m = (total % 60) as u32;
}

/// "am", "pm" or "" (a word to drop) after a time at word `j`, and the index after it.
pub(super) fn meridiem_at(p: &Lexed, j: usize, w: &Words) -> Option<(&'static str, usize)> {
    first_seq(p, j, w.meridiem)
}

/// The English words of a clock and its meridiem: "15:30", "3:30 pm", "9:00 am", "5" (a bare
/// number after "at").
pub(super) fn clock_en(c: &Clock, meridiem: &str) -> Vec<String> {
    let mut out = vec![if c.zero {
        format!("{:02}:{:02}", c.h, c.m)
    } else if c.marked {
        format!("{}:{:02}", c.h, c.m)
    } else {
        c.h.to_string()
    }];
    if !meridiem.is_empty() && (1..=12).contains(&c.h) && !c.zero {
        out.push(meridiem.to_string());
    }
    out
}

/// The English words of a clock read as a duration ("pendant 1h30"): "90 minutes", "2 hours".
pub(super) fn duration_en(c: &Clock) -> Vec<String> {
    if c.m == 0 {
        vec![
            c.h.to_string(),
            if c.h == 1 { "hour" } else { "hours" }.into(),
        ]
    } else {
        vec![(c.h * 60 + c.m).to_string(), "minutes".into()]
    }
}

/// The time said at word `i`, as the reading's words: a clock (with its "am" / "pm"), or a
/// duration after a duration word ("pendant 2h"). `None` for a bare number out of a time's
/// context, and for a bare number that needs no rewriting.
pub(super) fn time_at(p: &Lexed, i: usize, w: &Words) -> Option<Rewrite> {
    let prev = i.checked_sub(1).map(|k| fw(p, k)).unwrap_or_default();
    let duration = w.duration_preps.contains(&prev.as_str());
    let c = clock_at(p, i, w, duration || w.clock_preps.contains(&prev.as_str()))?;
    if duration {
        return c.marked.then(|| Rewrite {
            end: c.end,
            words: duration_en(&c),
        });
    }
    let (mer, end) = meridiem_at(p, c.end, w).unwrap_or(("", c.end));
    let is_number = digits(p.w(i)).is_some() && end == i + 1;
    if is_number {
        return None;
    }
    rewrite_owned(end, clock_en(&c, mer))
}

/// Whether a clock time ends right before word `i` (a range's first side: "de 10h à", "de las
/// 10 a"): said as a time, or a number after a word such as "de" (not the "01" of "12/01").
pub(super) fn clock_ends_at(p: &Lexed, i: usize, w: &Words) -> bool {
    (i.saturating_sub(4)..i).any(|k| {
        let after_prep = k > 0 && w.clock_preps.contains(&fw(p, k - 1).as_str());
        clock_at(p, k, w, after_prep).is_some_and(|c| c.end == i)
    })
}

/// A day of the month at word `i`: "3", "1er", "1º", "premier" (1 to 31) and the index after.
pub(super) fn day_at(p: &Lexed, i: usize, w: &Words) -> Option<(u32, usize)> {
    let f = fw(p, i);
    if w.first.contains(&f.as_str()) {
        return Some((1, i + 1));
    }
    let split = f.find(|c: char| !c.is_ascii_digit()).unwrap_or(f.len());
    let (num, suffix) = f.split_at(split);
    if num.is_empty()
        || num.len() > 2
        || !(suffix.is_empty() || w.ordinal_suffixes.contains(&suffix))
    {
        return None;
    }
    let n: u32 = num.parse().ok()?;
    (1..=31).contains(&n).then_some((n, i + 1))
}

/// "18/12", "18/12/2026", "18/12/26" (day first) at word `i`: the reading's words ("18
/// december 2026") and the index after them.
pub(super) fn numeric_date(p: &Lexed, i: usize) -> Option<(Vec<String>, usize)> {
    let d = digits(p.w(i)).filter(|d| (1..=31).contains(d) && p.w(i).len() <= 2)?;
    if p.gap(i + 1) != "/" {
        return None;
    }
    let m = digits(p.w(i + 1)).filter(|m| (1..=12).contains(m) && p.w(i + 1).len() <= 2)?;
    let mut out = vec![d.to_string(), month_en(m).to_string()];
    let mut end = i + 2;
    if p.gap(end) == "/" {
        let ys = p.w(end);
        let y = digits(ys).map(|y| if ys.len() == 2 { 2000 + y } else { y });
        if let Some(y) = y.filter(|y| (1900..=2999).contains(y)) {
            out.push(y.to_string());
            end += 1;
        }
    }
    Some((out, end))
}

/// A date said with a day number at word `i` ("3 décembre", "1er", "18/12", "3 de
/// diciembre"): the reading's words and the index after them. `of`: the word between a day
/// and its month ("de"), read as "of". Bare numbers are dates only when `dated` (after an
/// article such as "le" or "el") or followed by a month.
pub(super) fn day_date(p: &Lexed, i: usize, w: &Words, of: &str, dated: bool) -> Option<Rewrite> {
    if let Some((words, end)) = numeric_date(p, i) {
        return rewrite_owned(end, words);
    }
    let (d, end) = day_at(p, i, w)?;
    let mk = if !of.is_empty() && fw(p, end) == of {
        end + 1
    } else {
        end
    };
    let month = month_at(p, mk, w);
    let next_unit = w.hour_units.contains(&fw(p, end).as_str()) || p.gap(end).starts_with(':');
    if next_unit || !(dated || month.is_some()) {
        return None;
    }
    let mut words = vec!["the".to_string(), ordinal_en(d)];
    let mut end = end;
    if let Some(m) = month {
        words.push("of".into());
        words.push(month_en(m).into());
        end = mk + 1;
        // a month abbreviation's period is punctuation, and a year may follow
        if let Some(y) = digits(p.w(end)).filter(|y| (1900..=2999).contains(y)) {
            words.push(y.to_string());
            end += 1;
        }
    }
    rewrite_owned(end, words)
}

/// A weekday at word `i`, next week's when one of the language's phrases follows ("lundi
/// prochain", "lunes que viene"), plural for "lundis" / "sábados".
pub(super) fn weekday_word(p: &Lexed, i: usize, w: &Words) -> Option<Rewrite> {
    let (d, plural, e) = weekday_at(p, i, w)?;
    if let Some(end) = w.next_week.iter().find_map(|pat| seq(p, e, pat)) {
        return rewrite_owned(end, vec!["next".into(), weekday_en(d, false)]);
    }
    rewrite_owned(e, vec![weekday_en(d, plural)])
}

/// A month alone at word `i` ("juin", "junio": not after or before a day number), read as a
/// deadline after `prep`: its last day ("by june 30"), with its year when one follows; after
/// one of the language's month ends ("fin", "finales de") its last day too, after one of its
/// month starts ("début", "principios de") its first.
pub(super) fn month_deadline(p: &Lexed, i: usize, w: &Words, prep: &str) -> Option<Rewrite> {
    let after = |pats: &[&str]| pats.iter().find_map(|pat| seq(p, i, pat));
    let (first, i) = match (after(w.month_starts), after(w.month_ends)) {
        (Some(e), _) => (true, e),
        (None, Some(e)) => (false, e),
        _ => (false, i),
    };
    let m = month_at(p, i, w)?;
    if i > 0 && day_at(p, i - 1, w).is_some() {
        return None;
    }
    let day = if first { 1 } else { month_last_day(m) };
    let mut out = vec![month_en(m).to_string(), day.to_string()];
    let mut end = i + 1;
    if let Some(y) = digits(p.w(end)).filter(|y| (1900..=2999).contains(y)) {
        out.push(y.to_string());
        end += 1;
    } else if day_at(p, end, w).is_some() {
        return None;
    }
    prefixed(end, prep, out)
}

/// What matching titles in French or Spanish needs (`reading/refs.rs`): the language's stop
/// and generic words, [`stem`], no compounds, and a prefix match of 5 letters (the stems are
/// short: "medic" and "medit" are different words).
pub(super) const fn ref_words(
    stop: &'static [&'static str],
    generic: &'static [&'static str],
) -> RefWords {
    RefWords {
        stop,
        generic,
        stem,
        compounds: false,
        prefix: 5,
    }
}

/// A French or Spanish word reduced for title matching (see `reading/refs.rs`): folded, its
/// plural and one common verb or noun ending taken off, keeping at least three letters.
pub(super) fn stem(word: &str) -> String {
    let mut s = fold(word);
    if s.len() > 3 && (s.ends_with('s') || s.ends_with('x')) && !s.ends_with("ss") {
        s.pop();
    }
    const ENDINGS: &[&str] = &[
        "ation", "ement", "iendo", "ando", "ado", "ada", "ido", "ida", "ee", "ie", "er", "ir",
        "ar", "re", "se", "e", "i", "o", "a", "u",
    ];
    if let Some(end) = ENDINGS
        .iter()
        .find(|e| s.len() >= e.len() + 3 && s.ends_with(*e))
    {
        s.truncate(s.len() - end.len());
    }
    s
}

#[cfg(test)]
mod tests;
