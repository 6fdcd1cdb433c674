//! Summaries: cleaning what the model wrote into one short plain-text line, and the
//! deterministic rule-based summary used when the model fails, is absent, or writes nothing
//! usable. Pure.
//!
//! ## Cleaning ([`clean`])
//! In order: `<think>…</think>` reasoning is removed (an unclosed `<think>` removes the rest); if a
//! `<response>…</response>` wrapper is present only its inside is kept; fenced code blocks
//! (```` ``` ````, also unclosed) are removed; JSON objects (a balanced `{…}` starting with `"` or
//! `}` after optional spaces) are removed; HTML/XML tags (`<b>`, `</p>`, `<br/>`) are removed;
//! Markdown markup goes: headings' `#`, list bullets (`-`, `*`, `+`, `1.`) and quote marks `>` at
//! line starts, `**`, `__`, `*` and backticks anywhere. Whitespace is collapsed to single
//! spaces. Text longer than the cap is cut at the last word boundary before it and ends with
//! `…`. Text left without any letter or digit is `None`.
//!
//! [`from_model`] goes further for the pipeline: a cut-off answer keeps its complete sentences,
//! repeated sentences are dropped, and an echo of the user's message counts as nothing.
//!
//! ## Rule-based summary ([`rule_summary`])
//! One clause per operation, joined by `; `, e.g.
//! `Create todo “Buy milk” on 2026-11-23; Complete habit “Run” on 2026-11-21.` Items named by id
//! are described by the title the caller looked up (else "a todo", "a goal", ...). At most
//! [`MAX_RULE_CLAUSES`] clauses are listed, then `and N more changes`. Invalid proposals add
//! `1 proposed change was invalid.` / `N proposed changes were invalid.`; no operations at all
//! read `No changes proposed.`

use super::model::{ItemKind, OpType, PlannerOperation, Priority, RecurrenceType};
use super::phrasing::{phrases, Phrases};
use crate::kernel::lang::Language;
use crate::llm::extract::closed_object_len;

/// The longest summary kept, in characters.
pub const MAX_SUMMARY_CHARS: usize = 400;
/// Operations described one by one in a rule-based summary.
pub const MAX_RULE_CLAUSES: usize = 5;

/// The model's text cleaned to plain text of at most `max_chars` characters; `None` when
/// nothing readable is left.
pub fn clean(text: &str, max_chars: usize) -> Option<String> {
    let text = strip_think(text);
    let text = inside_response(&text);
    let text = strip_fences(text);
    let text = strip_json_objects(&text);
    let text = strip_tags(&text);
    let text = strip_markdown(&text);
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if !collapsed.chars().any(char::is_alphanumeric) {
        return None;
    }
    Some(cap(&collapsed, max_chars))
}

fn strip_think(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<think>") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</think>") {
            Some(end) => rest = &rest[start + end + "</think>".len()..],
            None => return out,
        }
    }
    // A closing tag without its opening one: the reasoning started before the text we got.
    if let Some(end) = rest.rfind("</think>") {
        if out.is_empty() {
            return rest[end + "</think>".len()..].to_string();
        }
    }
    out.push_str(rest);
    out
}

fn inside_response(text: &str) -> &str {
    match text.find("<response>") {
        Some(start) => {
            let inner = &text[start + "<response>".len()..];
            inner.find("</response>").map_or(inner, |end| &inner[..end])
        }
        None => text,
    }
}

fn strip_fences(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        out.push_str(&rest[..open]);
        out.push(' ');
        match rest[open + 3..].find("```") {
            Some(close) => rest = &rest[open + 3 + close + 3..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

fn strip_json_objects(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let from = &rest[open..];
        let looks_json = from[1..]
            .trim_start()
            .starts_with(|c: char| c == '"' || c == '}');
        match (looks_json, closed_object_len(from)) {
            (true, Some(len)) => {
                out.push(' ');
                rest = &from[len..];
            }
            // An unclosed object is the start of cut-off JSON: drop the rest.
            (true, None) => return out,
            (false, _) => {
                out.push('{');
                rest = &from[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn strip_tags(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let name = after.strip_prefix('/').unwrap_or(after);
        let is_tag = name.starts_with(|c: char| c.is_ascii_alphabetic());
        match (is_tag, after.find('>')) {
            (true, Some(close)) if !after[..close].contains('<') => {
                out.push(' ');
                rest = &after[close + 1..];
            }
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn strip_markdown(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut l = line.trim_start();
        loop {
            let before = l;
            l = l
                .trim_start_matches('#')
                .trim_start_matches('>')
                .trim_start();
            for bullet in ["- ", "* ", "+ ", "• "] {
                if let Some(r) = l.strip_prefix(bullet) {
                    l = r.trim_start();
                }
            }
            let digits = l.len() - l.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && l[digits..].starts_with(". ") {
                l = l[digits + 2..].trim_start();
            }
            if l == before {
                break;
            }
        }
        let l = l
            .replace("**", "")
            .replace("__", "")
            .replace(['*', '`'], "");
        out.push_str(&l);
        out.push('\n');
    }
    out
}

// The summary prompt's instructions: a summary sentence repeating one of them is dropped.
use crate::kernel::prompts::ASSISTANT_SUMMARY as INSTRUCTIONS;

/// The summary to show from what the model wrote, or `None` for the rule-based one: [`clean`]ed;
/// when the answer was cut off (`truncated`, i.e. it hit `max_tokens`) only its complete sentences
/// are kept (all of it when it has none); a sentence repeating an earlier one, a sentence of the
/// user's `message` or one of the prompt's instructions (ignoring case and punctuation) is
/// dropped; nothing left is `None`; then capped at `max_chars`.
pub fn from_model(text: &str, truncated: bool, message: &str, max_chars: usize) -> Option<String> {
    let cleaned = clean(text, usize::MAX)?;
    let mut text = cleaned.as_str();
    if truncated {
        let ranges = sentences(text);
        if let Some(&(_, end)) = ranges.iter().rev().find(|(_, e)| is_sentence_end(text, *e)) {
            text = &text[..end];
        }
    }
    // Sentences that only repeat the user's message or the prompt's instructions say nothing:
    // small models copy both.
    let mut seen: Vec<String> = sentences(message)
        .into_iter()
        .map(|(a, b)| words(&message[a..b]))
        .chain(
            sentences(INSTRUCTIONS)
                .into_iter()
                .map(|(a, b)| words(&INSTRUCTIONS[a..b])),
        )
        .collect();
    let mut kept: Vec<&str> = Vec::new();
    for (start, end) in sentences(text) {
        let sentence = text[start..end].trim();
        let key = words(sentence);
        if key.is_empty() || seen.contains(&key) {
            continue;
        }
        seen.push(key);
        kept.push(sentence);
    }
    let joined = kept.join(" ");
    if joined.is_empty() || words(&joined) == words(message) {
        return None;
    }
    Some(cap(&joined, max_chars))
}

/// Characters in a row of its prompt that make an answer a repetition of the prompt.
pub const ECHO_CHARS: usize = 40;
/// Lines of a listing shorter than this (headings such as "Goals:") are not looked for.
const MIN_ECHO_LINE: usize = 12;

/// `s` lowercase, with its whitespace collapsed to single spaces.
fn squeezed(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether `answer` repeats its prompt (issue 25): it holds a line of `listing` (the planner
/// listing the prompt showed, without its list bullet; lines under 12 characters are
/// headings and left out) or [`ECHO_CHARS`] characters in a row of `prompt`, both compared
/// without case and with whitespace collapsed. Small models answer a question with the planner
/// dump of their prompt; such an answer is replaced by a code-made one.
pub fn repeats_prompt(answer: &str, prompt: &str, listing: &str) -> bool {
    let answer = squeezed(answer);
    let line_echoed = listing.lines().any(|line| {
        let line = squeezed(line.trim_start().trim_start_matches(['-', '*']));
        line.chars().count() >= MIN_ECHO_LINE && answer.contains(&line)
    });
    if line_echoed {
        return true;
    }
    let prompt = squeezed(prompt);
    let starts: Vec<usize> = answer.char_indices().map(|(i, _)| i).collect();
    (0..starts.len().saturating_sub(ECHO_CHARS - 1)).any(|k| {
        let end = starts.get(k + ECHO_CHARS).copied().unwrap_or(answer.len());
        prompt.contains(&answer[starts[k]..end])
    })
}

/// Lowercase words of `s`, joined by single spaces.
fn words(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `text[..end]` ends a sentence (`.`, `!`, `?` or `…`).
fn is_sentence_end(text: &str, end: usize) -> bool {
    text[..end].ends_with(['.', '!', '?', '…'])
}

/// Byte ranges of the sentences of `text`: each runs to a `.`, `!`, `?` or `…` followed by a space
/// or the end; the last one may have no end mark.
fn sentences(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next_is_space = chars.peek().map_or(true, |(_, n)| n.is_whitespace());
        if matches!(c, '.' | '!' | '?' | '…') && next_is_space {
            let end = i + c.len_utf8();
            out.push((start, end));
            start = end;
        }
    }
    if !text[start..].trim().is_empty() {
        out.push((start, text.len()));
    }
    out
}

/// `text` cut to at most `max_chars` characters at a word boundary, with `…` when cut.
fn cap(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let max_chars = max_chars.max(2);
    let head: String = text.chars().take(max_chars - 1).collect();
    let cut = match head.rfind(' ') {
        Some(i) if i > 0 => head[..i].trim_end_matches([',', ';', ':', ' ']),
        _ => head.as_str(),
    };
    format!("{cut}…")
}

/// The index of a kind in the templates' kind lists.
fn kind_index(kind: ItemKind) -> usize {
    match kind {
        ItemKind::Todo => 0,
        ItemKind::Event => 1,
        ItemKind::Habit => 2,
        ItemKind::Goal => 3,
    }
}

/// How an operation names an item: its kind and quoted title (`todo “Buy milk”`), or `a todo`
/// when unknown.
fn name(p: &Phrases, kind: ItemKind, title: Option<&str>) -> String {
    match title.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => format!("{} {}", p.kind_named[kind_index(kind)], p.quote(t)),
        None => p.kind_some[kind_index(kind)].to_string(),
    }
}

fn recurrence_word(p: &Phrases, t: RecurrenceType) -> &'static str {
    p.recurrence[match t {
        RecurrenceType::None => 0,
        RecurrenceType::Daily => 1,
        RecurrenceType::Weekly => 2,
        RecurrenceType::Monthly => 3,
        RecurrenceType::Yearly => 4,
    }]
}

/// The changes an update names, e.g. `date 2026-11-24, priority high`.
fn changes(p: &Phrases, op: &PlannerOperation) -> Vec<String> {
    let mut c = Vec::new();
    if let Some(t) = &op.title {
        c.push(p.fill(p.c_title, &[("title", &p.quote(t))]));
    }
    if let Some(d) = &op.scheduled_for {
        c.push(p.fill(p.c_date, &[("date", d)]));
    }
    if let Some(t) = &op.time_of_day {
        c.push(p.fill(p.c_time, &[("time", t)]));
    }
    if let Some(pr) = op.priority {
        let word = p.priorities[match pr {
            Priority::High => 0,
            Priority::Medium => 1,
            Priority::Low => 2,
        }];
        c.push(p.fill(p.c_priority, &[("priority", word)]));
    }
    if let Some(r) = op.recurrence.as_ref().filter(|r| r.repeats()) {
        c.push(p.fill(p.c_repeats, &[("rec", recurrence_word(p, r.kind))]));
    }
    if op.notes.is_some() {
        c.push(p.c_notes.into());
    }
    c
}

/// One clause describing `op`, in English (the model's prompts). `title_of(kind, id)` looks up
/// existing items' titles.
pub fn describe(
    op: &PlannerOperation,
    title_of: &dyn Fn(ItemKind, &str) -> Option<String>,
) -> String {
    describe_in(op, title_of, Language::En)
}

/// One clause describing `op` in `lang` (see [`describe`]).
pub fn describe_in(
    op: &PlannerOperation,
    title_of: &dyn Fn(ItemKind, &str) -> Option<String>,
    lang: Language,
) -> String {
    let p = phrases(lang);
    let target = || {
        let t = op.id.as_deref().and_then(|id| title_of(op.kind, id));
        name(p, op.kind, t.as_deref())
    };
    let goal = |id: Option<&str>| {
        let t = id.and_then(|id| title_of(ItemKind::Goal, id));
        name(p, ItemKind::Goal, t.as_deref())
    };
    let on_target = |template: &str| p.fill(template, &[("target", &target())]);
    match op.op {
        OpType::Create | OpType::GoalCreate => {
            let mut s = p.fill(
                p.s_create,
                &[("name", &name(p, op.kind, op.title.as_deref()))],
            );
            if let Some(d) = &op.scheduled_for {
                s.push_str(&p.fill(p.s_on, &[("date", d)]));
            }
            if let Some(t) = &op.time_of_day {
                s.push_str(&p.fill(p.s_at, &[("time", t)]));
            }
            if let Some(r) = op.recurrence.as_ref().filter(|r| r.repeats()) {
                s.push_str(&p.fill(p.s_repeating, &[("rec", recurrence_word(p, r.kind))]));
            }
            if !op.items.is_empty() {
                s.push_str(&p.fill(p.s_with_items, &[("n", &op.items.len().to_string())]));
            }
            s
        }
        OpType::Update | OpType::GoalUpdate => {
            let c = changes(p, op);
            if c.is_empty() {
                on_target(p.s_update)
            } else {
                p.fill(
                    p.s_update_changes,
                    &[("target", &target()), ("changes", &c.join(", "))],
                )
            }
        }
        OpType::Delete | OpType::GoalDelete => on_target(p.s_delete),
        OpType::Complete => on_target(p.s_complete),
        OpType::CompleteOccurrence => match &op.occurrence_date {
            Some(d) => p.fill(p.s_complete_on, &[("target", &target()), ("date", d)]),
            None => on_target(p.s_complete),
        },
        OpType::GoalAddItems => match op.items.len() {
            1 => {
                let i = &op.items[0];
                let t = title_of(i.kind, &i.id);
                p.fill(
                    p.s_add_item,
                    &[
                        ("item", &name(p, i.kind, t.as_deref())),
                        ("target", &target()),
                    ],
                )
            }
            n => p.fill(
                p.s_add_items,
                &[("n", &n.to_string()), ("target", &target())],
            ),
        },
        OpType::GoalRemoveItem => match &op.item {
            Some(i) => {
                let t = title_of(i.kind, &i.id);
                p.fill(
                    p.s_remove_item,
                    &[
                        ("item", &name(p, i.kind, t.as_deref())),
                        ("target", &target()),
                    ],
                )
            }
            None => on_target(p.s_remove_some_item),
        },
        OpType::GoalAddChild => p.fill(
            p.s_add_child,
            &[
                ("child", &goal(op.child_id.as_deref())),
                ("target", &target()),
            ],
        ),
        OpType::GoalRemoveChild => p.fill(
            p.s_remove_child,
            &[
                ("child", &goal(op.child_id.as_deref())),
                ("target", &target()),
            ],
        ),
    }
}

/// The deterministic summary of `ops` with `invalid_count` invalid proposals, in English (see
/// the module docs).
pub fn rule_summary(
    ops: &[PlannerOperation],
    invalid_count: usize,
    title_of: &dyn Fn(ItemKind, &str) -> Option<String>,
) -> String {
    rule_summary_in(ops, invalid_count, title_of, Language::En)
}

/// The deterministic summary of `ops` with `invalid_count` invalid proposals, in `lang` (see the
/// module docs).
pub fn rule_summary_in(
    ops: &[PlannerOperation],
    invalid_count: usize,
    title_of: &dyn Fn(ItemKind, &str) -> Option<String>,
    lang: Language,
) -> String {
    let p = phrases(lang);
    let mut s = if ops.is_empty() {
        p.s_none.to_string()
    } else {
        let mut clauses: Vec<String> = ops
            .iter()
            .take(MAX_RULE_CLAUSES)
            .map(|o| describe_in(o, title_of, lang))
            .collect();
        match ops.len().saturating_sub(MAX_RULE_CLAUSES) {
            0 => {}
            1 => clauses.push(p.s_more_one.into()),
            n => clauses.push(p.fill(p.s_more_many, &[("n", &n.to_string())])),
        }
        format!("{}.", clauses.join("; "))
    };
    match invalid_count {
        0 => {}
        1 => {
            s.push(' ');
            s.push_str(p.s_invalid_one);
        }
        n => {
            s.push(' ');
            s.push_str(&p.fill(p.s_invalid_many, &[("n", &n.to_string())]));
        }
    }
    s
}

/// "(Understood without the on-device model.)" in `lang`, said after a narrowed summary whose
/// names or choices were the reading's defaults.
pub fn without_model_note(lang: Language) -> &'static str {
    phrases(lang).s_no_model
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::model::{ItemRef, Recurrence};

    fn c(text: &str) -> Option<String> {
        clean(text, MAX_SUMMARY_CHARS)
    }

    #[test]
    fn strips_reasoning_wrappers_and_tags() {
        assert_eq!(
            c("<think>The user wants {\"a\":1}</think>\n<response>I'll add **Buy milk** on Monday.</response>"),
            Some("I'll add Buy milk on Monday.".into())
        );
        assert_eq!(c("<think>never finished"), None);
        assert_eq!(c("Sure.<think>hidden"), Some("Sure.".into()));
        assert_eq!(c("reasoning</think> Done."), Some("Done.".into()));
        assert_eq!(
            c("<p>Moved <b>Gym</b> to<br/>Friday.</p>"),
            Some("Moved Gym to Friday.".into())
        );
        assert_eq!(c("a < b and 3 > 2"), Some("a < b and 3 > 2".into()));
    }

    #[test]
    fn strips_code_json_and_markdown() {
        let text = "## Summary\n\n- **Create** `Buy milk`\n* Complete __Run__\n1. Delete *old*\n> quoted\n```json\n{\"operations\":[]}\n```\nBye {\"x\": {\"y\": 1}} {not json}";
        assert_eq!(
            c(text),
            Some("Summary Create Buy milk Complete Run Delete old quoted Bye {not json}".into())
        );
        assert_eq!(c("```\nonly code\n```"), None);
        assert_eq!(c("Here: {\"operations\": [{\"op\":"), Some("Here:".into()));
        assert_eq!(c("Start ```json\n{\"a\":1"), Some("Start".into()));
        assert_eq!(c("{}"), None);
        assert_eq!(c("  \n\t "), None);
        assert_eq!(c("** -- **"), None);
    }

    #[test]
    fn model_summaries_drop_cut_sentences_repeats_and_echoes() {
        let msg = "Add a todo to buy bread tomorrow.";
        let echo =
            "Add a todo to buy bread tomorrow.\n\nAdd a todo to buy bread tomorrow.\n\nAdd a todo";
        assert_eq!(from_model(echo, true, msg, 400), None);
        // The message and the prompt's instructions copied back (seen with SmolLM2-135M).
        let parrot =
            "Add a todo to buy bread tomorrow.\n\nNo lists, no markdown, no JSON, no ids. \
                      Do not add changes that are not listed.";
        assert_eq!(from_model(parrot, false, msg, 400), None);
        assert_eq!(
            from_model(
                &format!("{parrot} A bread todo for tomorrow."),
                false,
                msg,
                400
            ),
            Some("A bread todo for tomorrow.".into())
        );
        assert_eq!(
            from_model(
                "I'll add bread. I'll add bread! Done. And then",
                true,
                msg,
                400
            ),
            Some("I'll add bread. Done.".into())
        );
        assert_eq!(
            from_model("I'll add bread. And then", false, msg, 400),
            Some("I'll add bread. And then".into())
        );
        assert_eq!(
            from_model("no sentence end here", true, msg, 400),
            Some("no sentence end here".into())
        );
        assert_eq!(from_model("<think>x</think>", false, msg, 400), None);
        assert_eq!(
            from_model("v1.2 is out. Fine", true, msg, 400),
            Some("v1.2 is out.".into())
        );
        assert_eq!(
            from_model("one two three", false, msg, 9),
            Some("one two…".into())
        );
    }

    #[test]
    fn caps_at_a_word_boundary() {
        let long = "word ".repeat(200);
        let out = c(&long).unwrap();
        assert!(out.chars().count() <= MAX_SUMMARY_CHARS);
        assert!(out.ends_with("word…"), "{out}");
        assert_eq!(clean("one two three", 9), Some("one two…".into()));
        assert_eq!(clean("abcdefghijkl", 5), Some("abcd…".into()));
        assert_eq!(clean("short", 5), Some("short".into()));
    }

    fn op(op: OpType, kind: ItemKind) -> PlannerOperation {
        PlannerOperation::new(op, kind)
    }

    fn titles(kind: ItemKind, id: &str) -> Option<String> {
        match (kind, id) {
            (ItemKind::Habit, "h1") => Some("Run".into()),
            (ItemKind::Goal, "g1") => Some("Fitness".into()),
            (ItemKind::Goal, "g2") => Some("Marathon".into()),
            (ItemKind::Todo, "t1") => Some("Buy milk".into()),
            _ => None,
        }
    }

    #[test]
    fn rule_summary_describes_each_operation() {
        let mut create = op(OpType::Create, ItemKind::Todo);
        create.title = Some("Buy milk".into());
        create.scheduled_for = Some("2026-11-23".into());
        create.recurrence = Some(Recurrence::none());
        let mut done = op(OpType::CompleteOccurrence, ItemKind::Habit);
        done.id = Some("h1".into());
        done.occurrence_date = Some("2026-11-21".into());
        assert_eq!(
            rule_summary(&[create, done], 1, &titles),
            "Create todo “Buy milk” on 2026-11-23; Complete habit “Run” on 2026-11-21. \
             1 proposed change was invalid."
        );
        assert_eq!(rule_summary(&[], 0, &titles), "No changes proposed.");
        assert_eq!(
            rule_summary(&[], 3, &titles),
            "No changes proposed. 3 proposed changes were invalid."
        );
    }

    #[test]
    fn every_op_type_has_a_clause() {
        let with = |o: OpType, k: ItemKind, f: &dyn Fn(&mut PlannerOperation)| {
            let mut x = op(o, k);
            f(&mut x);
            describe(&x, &titles)
        };
        let cases = [
            (
                with(OpType::Create, ItemKind::Habit, &|o| {
                    o.title = Some("Stretch".into());
                    o.scheduled_for = Some("2026-11-23".into());
                    o.time_of_day = Some("07:00".into());
                    o.recurrence = Some(Recurrence {
                        kind: RecurrenceType::Daily,
                        interval: None,
                        weekdays: vec![],
                        until: None,
                    });
                }),
                "Create habit “Stretch” on 2026-11-23 at 07:00, repeating daily",
            ),
            (
                with(OpType::Update, ItemKind::Todo, &|o| {
                    o.id = Some("t1".into());
                    o.scheduled_for = Some("2026-11-24".into());
                    o.priority = Some(Priority::High);
                }),
                "Update todo “Buy milk” (date 2026-11-24, priority high)",
            ),
            (
                with(OpType::Update, ItemKind::Event, &|o| {
                    o.id = Some("x".into())
                }),
                "Update an event",
            ),
            (
                with(OpType::Delete, ItemKind::Todo, &|o| {
                    o.id = Some("zz".into())
                }),
                "Delete a todo",
            ),
            (
                with(OpType::Complete, ItemKind::Todo, &|o| {
                    o.id = Some("t1".into())
                }),
                "Complete todo “Buy milk”",
            ),
            (
                with(OpType::GoalCreate, ItemKind::Goal, &|o| {
                    o.title = Some("Health".into());
                    o.items = vec![
                        ItemRef {
                            kind: ItemKind::Habit,
                            id: "h1".into(),
                        },
                        ItemRef {
                            kind: ItemKind::Todo,
                            id: "t1".into(),
                        },
                    ];
                }),
                "Create goal “Health” with 2 items",
            ),
            (
                with(OpType::GoalUpdate, ItemKind::Goal, &|o| {
                    o.id = Some("g1".into());
                    o.title = Some("Fit".into());
                }),
                "Update goal “Fitness” (title “Fit”)",
            ),
            (
                with(OpType::GoalDelete, ItemKind::Goal, &|o| {
                    o.id = Some("g1".into())
                }),
                "Delete goal “Fitness”",
            ),
            (
                with(OpType::GoalAddItems, ItemKind::Goal, &|o| {
                    o.id = Some("g1".into());
                    o.items = vec![ItemRef {
                        kind: ItemKind::Habit,
                        id: "h1".into(),
                    }];
                }),
                "Add habit “Run” to goal “Fitness”",
            ),
            (
                with(OpType::GoalRemoveItem, ItemKind::Goal, &|o| {
                    o.id = Some("g1".into());
                    o.item = Some(ItemRef {
                        kind: ItemKind::Todo,
                        id: "t1".into(),
                    });
                }),
                "Remove todo “Buy milk” from goal “Fitness”",
            ),
            (
                with(OpType::GoalAddChild, ItemKind::Goal, &|o| {
                    o.id = Some("g1".into());
                    o.child_id = Some("g2".into());
                }),
                "Make goal “Marathon” a child of goal “Fitness”",
            ),
            (
                with(OpType::GoalRemoveChild, ItemKind::Goal, &|o| {
                    o.id = Some("g1".into());
                    o.child_id = Some("g9".into());
                }),
                "Remove a goal from the children of goal “Fitness”",
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }

    #[test]
    fn rule_summaries_in_each_language() {
        let mut create = op(OpType::Create, ItemKind::Todo);
        create.title = Some("Milch kaufen".into());
        create.scheduled_for = Some("2026-11-23".into());
        create.time_of_day = Some("17:00".into());
        let mut update = op(OpType::Update, ItemKind::Todo);
        update.id = Some("t1".into());
        update.priority = Some(Priority::High);
        let mut add = op(OpType::GoalAddItems, ItemKind::Goal);
        add.id = Some("g1".into());
        add.items = vec![ItemRef {
            kind: ItemKind::Habit,
            id: "h1".into(),
        }];
        let ops = [create, update, add];
        let cases = [
            (
                Language::De,
                "Neu: Aufgabe „Milch kaufen“ am 2026-11-23 um 17:00; Aufgabe „Buy milk“ ändern \
                 (Priorität hoch); Gewohnheit „Run“ zu Ziel „Fitness“ hinzufügen. 1 vorgeschlagene \
                 Änderung war ungültig.",
            ),
            (
                Language::Fr,
                "Créer la tâche « Milch kaufen » le 2026-11-23 à 17:00; Modifier la tâche « Buy milk » \
                 (priorité haute); Ajouter l'habitude « Run » à l'objectif « Fitness ». 1 \
                 modification proposée était invalide.",
            ),
            (
                Language::Es,
                "Crear la tarea «Milch kaufen» el 2026-11-23 a las 17:00; Cambiar la tarea «Buy milk» \
                 (prioridad alta); Añadir el hábito «Run» al objetivo «Fitness». 1 cambio propuesto \
                 no era válido.",
            ),
        ];
        for (lang, want) in cases {
            assert_eq!(rule_summary_in(&ops, 1, &titles, lang), want, "{lang}");
        }
        assert_eq!(
            rule_summary_in(&[], 0, &titles, Language::Fr),
            "Aucune modification proposée."
        );
    }

    #[test]
    fn an_answer_repeating_its_prompt_is_caught() {
        let listing = "This week (2026-11-23 to 2026-11-29), not done:\n\
                       - 2026-11-26 Thu [t1] todo Return library books\n\
                       - 2026-11-24 Tue [e1] event Team 10:00-11:00\nGoals:";
        let prompt = format!(
            "You are a friendly planning assistant. Answer in plain text.\nThe user's planner:\n\
             {listing}\nwhat do I have on thursday?"
        );
        // The planner dump, one line of it, or 40 characters in a row of the prompt.
        assert!(repeats_prompt(
            "The user's planner: This week (2026-11-23 to 2026-11-29), not done: ...",
            &prompt,
            listing
        ));
        assert!(repeats_prompt(
            "On Thursday: 2026-11-26  Thu [t1] TODO Return library books.",
            &prompt,
            listing
        ));
        assert!(repeats_prompt(
            "Sure! I am a friendly planning assistant. Answer in plain text, always.",
            &prompt,
            listing
        ));
        // Its own words naming an item are no repetition; nor a heading word.
        assert!(!repeats_prompt(
            "On Thursday you return the library books. Enjoy your goals:",
            &prompt,
            listing
        ));
        assert!(!repeats_prompt("Hi! How can I help?", &prompt, listing));
    }

    #[test]
    fn long_lists_are_shortened() {
        let ops: Vec<PlannerOperation> = (0..7)
            .map(|i| {
                let mut o = op(OpType::Create, ItemKind::Todo);
                o.title = Some(format!("T{i}"));
                o
            })
            .collect();
        let s = rule_summary(&ops, 0, &titles);
        assert!(s.ends_with("Create todo “T4”; and 2 more changes."), "{s}");
    }
}
