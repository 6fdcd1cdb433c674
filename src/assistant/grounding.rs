//! What the model is shown of the user's planner (spec 002, "Context grounding" in
//! [`super::service`]): the short aliases (`t1`, `e2`, `h1`, `g3`) that stand for item ids in the
//! prompts and their mapping back in the model's operations, one line per item, the week / backlog
//! / goals context trimmed to a character budget, the budget itself from the model's context
//! window, and the seeded `where` of a follow-up. Pure: the items come in as data (the service
//! reads them from the store).

use std::collections::HashMap;

use serde_json::Value;

use super::date::Date;
use super::model::{
    ClarifySelection, ItemKind, PlannerItem, PlannerOperation, Priority, WeekSnapshot, Weekday,
};
use super::proposal::Target;
use super::shape;
use crate::llm::ModelInfo;

/// Characters per token assumed when sizing the context (conservative: dates and ids tokenise
/// poorly).
pub const CHARS_PER_TOKEN: usize = 3;
/// Tokens kept free besides the answer's `max_tokens` (chat template overhead).
pub const CONTEXT_MARGIN_TOKENS: usize = 64;
/// Longest title shown in the context, in characters.
const MAX_CONTEXT_TITLE_CHARS: usize = 60;
/// Goals listed in the context, at most.
const MAX_CONTEXT_GOALS: usize = 10;

/// What the prompts are grounded on (read from the store by the service).
pub(crate) struct Grounding {
    pub(crate) week: WeekSnapshot,
    pub(crate) backlog: Vec<PlannerItem>,
    pub(crate) open: Vec<PlannerItem>,
}

/// Characters of context that fit a prompt with `fixed_chars` of other text and an answer of
/// `max_tokens` in the model's window, at most `max_context_chars` (see "Context grounding" in
/// [`super::service`]).
pub fn budget(
    info: &ModelInfo,
    max_tokens: u32,
    fixed_chars: usize,
    max_context_chars: usize,
) -> usize {
    let free =
        (info.context_tokens as usize).saturating_sub(max_tokens as usize + CONTEXT_MARGIN_TOKENS);
    (free * CHARS_PER_TOKEN)
        .saturating_sub(fixed_chars)
        .min(max_context_chars)
}

/// The seeded `where` of a follow-up: the selected items, date and priority.
pub fn seeded_where(
    sel: &ClarifySelection,
    selected: &[PlannerItem],
    aliases: &mut Aliases,
) -> String {
    let mut parts = Vec::new();
    if !selected.is_empty() {
        let items: Vec<String> = selected
            .iter()
            .map(|i| {
                let alias = aliases.add(i);
                item_line(&alias, i, true)
            })
            .collect();
        parts.push(format!("the items {}", items.join("; ")));
    }
    if let Some(d) = &sel.date {
        parts.push(format!("the date {d}"));
    }
    if let Some(p) = sel.priority {
        parts.push(format!("priority {}", priority_word(p)));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!(
        "The user answered a question and chose: {}. Apply the request to exactly these.",
        parts.join(", ")
    )
}

/// The entities the router found, as a hint for the proposal.
pub(crate) fn mentioned(entities: &[String]) -> String {
    if entities.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = entities.iter().map(|e| format!("\"{e}\"")).collect();
    format!("The message mentions: {}.", quoted.join(", "))
}

fn priority_word(p: Priority) -> &'static str {
    match p {
        Priority::Low => "low",
        Priority::Medium => "medium",
        Priority::High => "high",
    }
}

/// What a prompt call needs to know.
pub(crate) struct Ctx<'a> {
    pub(crate) today: Date,
    /// The language the message is read and answered in.
    pub(crate) lang: crate::kernel::lang::Language,
    pub(crate) message: &'a str,
    pub(crate) grounding: &'a Grounding,
    pub(crate) info: &'a ModelInfo,
}

impl Ctx<'_> {
    pub(crate) fn today_label(&self) -> String {
        today_label(self.today)
    }

    pub(crate) fn context(&self, aliases: &mut Aliases, budget: usize) -> String {
        let g = self.grounding;
        let goals: Vec<PlannerItem> = g
            .open
            .iter()
            .filter(|i| i.kind == ItemKind::Goal)
            .take(MAX_CONTEXT_GOALS)
            .cloned()
            .collect();
        render_context(&g.week, &g.backlog, &goals, budget, aliases)
    }
}

/// `2026-11-21 (Saturday)`.
pub fn today_label(d: Date) -> String {
    let full = match d.weekday() {
        Weekday::Mon => "Monday",
        Weekday::Tue => "Tuesday",
        Weekday::Wed => "Wednesday",
        Weekday::Thu => "Thursday",
        Weekday::Fri => "Friday",
        Weekday::Sat => "Saturday",
        Weekday::Sun => "Sunday",
    };
    format!("{d} ({full})")
}

/// `Mon` ... `Sun`.
fn weekday_word(w: Weekday) -> &'static str {
    match w {
        Weekday::Mon => "Mon",
        Weekday::Tue => "Tue",
        Weekday::Wed => "Wed",
        Weekday::Thu => "Thu",
        Weekday::Fri => "Fri",
        Weekday::Sat => "Sat",
        Weekday::Sun => "Sun",
    }
}

/// Short names for items in prompts (`t1`, `e1`, `h1`, `g1`) and their titles.
#[derive(Debug, Default, Clone)]
pub struct Aliases {
    by_alias: HashMap<String, (ItemKind, String)>,
    by_id: HashMap<(ItemKind, String), String>,
    counts: [u32; 4],
    pub(crate) titles: HashMap<(ItemKind, String), String>,
}

impl Aliases {
    /// The alias of `item`, assigned on first sight.
    pub fn add(&mut self, item: &PlannerItem) -> String {
        let key = (item.kind, item.id.clone());
        self.titles
            .entry(key.clone())
            .or_insert_with(|| item.title.clone());
        if let Some(a) = self.by_id.get(&key) {
            return a.clone();
        }
        let (slot, letter) = match item.kind {
            ItemKind::Todo => (0, 't'),
            ItemKind::Event => (1, 'e'),
            ItemKind::Habit => (2, 'h'),
            ItemKind::Goal => (3, 'g'),
        };
        self.counts[slot] += 1;
        let alias = format!("{letter}{}", self.counts[slot]);
        self.by_alias.insert(alias.clone(), key.clone());
        self.by_id.insert(key, alias.clone());
        alias
    }

    /// Assigns aliases to everything the prompts may show, in a fixed order (so every prompt of a
    /// message uses the same aliases, whatever its budget).
    pub(crate) fn add_all(&mut self, g: &Grounding) {
        for e in &g.week.entries {
            self.add(&e.item);
        }
        for i in &g.backlog {
            self.add(i);
        }
        for i in g.open.iter().filter(|i| i.kind == ItemKind::Goal) {
            self.add(i);
        }
    }

    /// Every alias assigned, in kind and number order (`t1`, `t2`, `e1` ...), with its item's
    /// kind and whether it repeats (as far as the grounding tells: otherwise not).
    pub(crate) fn targets(&self, g: &Grounding) -> Vec<Target> {
        let repeats = |id: &str| {
            g.week
                .entries
                .iter()
                .map(|e| &e.item)
                .chain(&g.backlog)
                .chain(&g.open)
                .find(|i| i.id == id)
                .is_some_and(|i| i.recurrence.repeats())
        };
        let mut out: Vec<Target> = self
            .by_alias
            .iter()
            .map(|(alias, (kind, id))| Target {
                alias: alias.clone(),
                kind: *kind,
                repeats: repeats(id),
            })
            .collect();
        let order = |t: &Target| {
            let n: u32 = t.alias[1..].parse().unwrap_or(u32::MAX);
            (t.kind as u8, n)
        };
        out.sort_by_key(order);
        out
    }

    /// The real id an alias (`t1`, `[T1]`) stands for.
    pub fn resolve(&self, s: &str) -> Option<&str> {
        let s = s.trim().trim_start_matches('[').trim_end_matches(']');
        self.by_alias
            .get(&s.to_ascii_lowercase())
            .map(|(_, id)| id.as_str())
    }

    fn alias_of_id(&self, id: &str) -> Option<&str> {
        self.by_id
            .iter()
            .find(|((_, i), _)| i == id)
            .map(|(_, a)| a.as_str())
    }

    /// Replaces aliases by real ids in the operation list of `value` (see the module docs).
    pub fn resolve_in(&self, value: &mut Value) {
        map_ids(value, &|s| self.resolve(s).map(str::to_string));
    }

    /// `op` as JSON with real ids replaced by their aliases.
    pub fn alias_op(&self, op: &PlannerOperation) -> Value {
        let mut v = serde_json::json!([op]);
        map_ids(&mut v, &|s| self.alias_of_id(s).map(str::to_string));
        v.as_array_mut()
            .and_then(|a| a.pop())
            .unwrap_or(Value::Null)
    }
}

/// Rewrites the id fields of every operation in `value` with `f` (where it returns `Some`).
fn map_ids(value: &mut Value, f: &dyn Fn(&str) -> Option<String>) {
    let list = match value {
        Value::Array(a) => a,
        Value::Object(m) => match m.get_mut("operations") {
            Some(Value::Array(a)) => a,
            _ => return,
        },
        _ => return,
    };
    let swap = |v: &mut Value| {
        if let Value::String(s) = v {
            if let Some(real) = f(s) {
                *s = real;
            }
        }
    };
    for op in list.iter_mut() {
        let Value::Object(o) = op else { continue };
        for key in ["id", "childId"] {
            if let Some(v) = o.get_mut(key) {
                swap(v);
            }
        }
        if let Some(Value::Array(children)) = o.get_mut("children") {
            children.iter_mut().for_each(swap);
        }
        if let Some(Value::Array(items)) = o.get_mut("items") {
            for i in items.iter_mut() {
                if let Some(v) = i.get_mut("id") {
                    swap(v);
                }
            }
        }
        if let Some(item) = o.get_mut("item") {
            if let Some(v) = item.get_mut("id") {
                swap(v);
            }
        }
    }
}

/// One item as the prompts show it: `[t1] todo "Buy milk" 09:00-10:00 high, repeats weekly`.
fn item_line(alias: &str, i: &PlannerItem, with_date: bool) -> String {
    let mut s = format!(
        "[{alias}] {} \"{}\"",
        i.kind.as_str(),
        cut_chars(&i.title, MAX_CONTEXT_TITLE_CHARS).replace('"', "'")
    );
    if with_date {
        if let Some(d) = &i.scheduled_for {
            s.push_str(&format!(" {d}"));
        }
    }
    match (&i.time_of_day, &i.end_time) {
        (Some(a), Some(b)) => s.push_str(&format!(" {a}-{b}")),
        (Some(a), None) => s.push_str(&format!(" {a}")),
        _ => {}
    }
    if i.priority != Priority::Medium {
        s.push_str(&format!(" {}", priority_word(i.priority)));
    }
    if i.recurrence.repeats() {
        s.push_str(&format!(", repeats {}", shape::type_str(i.recurrence.kind)));
        if !i.recurrence.weekdays.is_empty() {
            let days: Vec<String> = i
                .recurrence
                .weekdays
                .iter()
                .map(|w| weekday_word(*w).to_ascii_lowercase())
                .collect();
            s.push_str(&format!(" {}", days.join(",")));
        }
    }
    s
}

/// Room kept for a "(N more not shown)" line.
const MORE_NOTE: usize = 32;

/// Appends `line` and a newline if `used` stays within `limit`; whether it did.
fn push_line(out: &mut String, used: &mut usize, line: &str, limit: usize) -> bool {
    if *used + line.len() + 1 > limit {
        return false;
    }
    out.push_str(line);
    out.push('\n');
    *used += line.len() + 1;
    true
}

/// Appends the `lines` that fit (leaving room for the note), then "(N more not shown)" if some
/// did not.
fn push_lines(out: &mut String, used: &mut usize, lines: &[String], limit: usize) {
    let shown = lines
        .iter()
        .take_while(|l| push_line(out, used, l, limit.saturating_sub(MORE_NOTE)))
        .count();
    if shown < lines.len() {
        let note = format!("- ({} more not shown)", lines.len() - shown);
        push_line(out, used, &note, limit);
    }
}

/// The planner context of a prompt, at most `budget` characters (see the module docs).
pub fn render_context(
    week: &WeekSnapshot,
    backlog: &[PlannerItem],
    goals: &[PlannerItem],
    budget: usize,
    aliases: &mut Aliases,
) -> String {
    let week_head = format!(
        "This week ({} to {}), not done:",
        week.week_start, week.week_end
    );
    let week_lines: Vec<String> = week
        .entries
        .iter()
        .map(|e| {
            let day = Date::parse(&e.date).map_or("", |d| weekday_word(d.weekday()));
            let alias = aliases.add(&e.item);
            format!("- {} {day} {}", e.date, item_line(&alias, &e.item, false))
        })
        .collect();
    let mut lines_of = |items: &[PlannerItem]| -> Vec<String> {
        items
            .iter()
            .map(|i| format!("- {}", item_line(&aliases.add(i), i, false)))
            .collect()
    };
    let backlog_lines = lines_of(backlog);
    let goal_lines = lines_of(goals);
    let len = |v: &[String]| v.iter().map(|l| l.len() + 1).sum::<usize>();
    let rest_len = len(&backlog_lines) + len(&goal_lines) + 40;
    let total = week_head.len() + len(&week_lines) + rest_len;
    let week_budget = if total <= budget {
        budget
    } else {
        (budget * 2 / 3).max(budget.saturating_sub(rest_len))
    };

    let mut out = String::new();
    let mut used = 0usize;
    if push_line(&mut out, &mut used, &week_head, week_budget) {
        if week_lines.is_empty() {
            push_line(&mut out, &mut used, "- nothing planned", week_budget);
        }
        push_lines(&mut out, &mut used, &week_lines, week_budget);
    }
    for (head, lines) in [
        ("Backlog todos (no date):", &backlog_lines),
        ("Goals:", &goal_lines),
    ] {
        if lines.is_empty() {
            continue;
        }
        if !push_line(&mut out, &mut used, head, budget.saturating_sub(MORE_NOTE)) {
            break;
        }
        push_lines(&mut out, &mut used, lines, budget);
    }
    out.trim_end().to_string()
}

/// `s` cut to at most `max` characters.
pub(crate) fn cut_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::model::{OpType, Recurrence, RecurrenceType, WeekEntry};
    use serde_json::json;

    fn item(kind: ItemKind, id: &str, title: &str, date: Option<&str>) -> PlannerItem {
        PlannerItem::sample(kind, id, title, date)
    }

    fn week(entries: Vec<(&str, PlannerItem)>) -> WeekSnapshot {
        WeekSnapshot {
            week_start: "2026-11-16".into(),
            week_end: "2026-11-22".into(),
            entries: entries
                .into_iter()
                .map(|(d, item)| WeekEntry {
                    date: d.into(),
                    item,
                })
                .collect(),
        }
    }

    #[test]
    fn context_lines_and_aliases() {
        let mut run = item(ItemKind::Habit, "uuid-run", "Run", Some("2026-11-16"));
        run.time_of_day = Some("07:00".into());
        run.recurrence = Recurrence {
            kind: RecurrenceType::Weekly,
            interval: None,
            weekdays: vec![Weekday::Mon, Weekday::Thu],
            until: None,
        };
        let mut meet = item(
            ItemKind::Event,
            "uuid-meet",
            "Team \"sync\"",
            Some("2026-11-17"),
        );
        meet.time_of_day = Some("10:00".into());
        meet.end_time = Some("11:00".into());
        meet.priority = Priority::High;
        let w = week(vec![
            ("2026-11-16", run.clone()),
            ("2026-11-17", meet),
            ("2026-11-19", run),
        ]);
        let backlog = [item(ItemKind::Todo, "uuid-milk", "Buy milk", None)];
        let goals = [item(ItemKind::Goal, "uuid-fit", "Fitness", None)];
        let mut aliases = Aliases::default();
        let text = render_context(&w, &backlog, &goals, 10_000, &mut aliases);
        assert_eq!(
            text,
            "This week (2026-11-16 to 2026-11-22), not done:\n\
             - 2026-11-16 Mon [h1] habit \"Run\" 07:00, repeats weekly mon,thu\n\
             - 2026-11-17 Tue [e1] event \"Team 'sync'\" 10:00-11:00 high\n\
             - 2026-11-19 Thu [h1] habit \"Run\" 07:00, repeats weekly mon,thu\n\
             Backlog todos (no date):\n\
             - [t1] todo \"Buy milk\"\n\
             Goals:\n\
             - [g1] goal \"Fitness\""
        );
        assert_eq!(aliases.resolve("h1"), Some("uuid-run"));
        assert_eq!(aliases.resolve(" [T1] "), Some("uuid-milk"));
        assert_eq!(aliases.resolve("t9"), None);

        let empty = render_context(&week(vec![]), &[], &[], 10_000, &mut Aliases::default());
        assert_eq!(
            empty,
            "This week (2026-11-16 to 2026-11-22), not done:\n- nothing planned"
        );
    }

    #[test]
    fn context_is_trimmed_to_the_budget_with_a_note() {
        let entries: Vec<(&str, PlannerItem)> = (0..100)
            .map(|i| {
                (
                    "2026-11-18",
                    item(
                        ItemKind::Todo,
                        &format!("w{i}"),
                        &format!("Week task {i}"),
                        Some("2026-11-18"),
                    ),
                )
            })
            .collect();
        let backlog: Vec<PlannerItem> = (0..50)
            .map(|i| {
                item(
                    ItemKind::Todo,
                    &format!("b{i}"),
                    &format!("Backlog task {i}"),
                    None,
                )
            })
            .collect();
        for budget in [0, 60, 300, 1_000, 3_000] {
            let mut aliases = Aliases::default();
            let text = render_context(&week(entries.clone()), &backlog, &[], budget, &mut aliases);
            assert!(text.len() <= budget, "{budget}: {} chars", text.len());
            if budget >= 300 {
                assert!(text.contains("more not shown)"), "{text}");
                assert!(
                    text.contains("Backlog todos"),
                    "{budget}: the backlog keeps a share"
                );
            }
        }
        // Aliases do not depend on the budget.
        let mut a = Aliases::default();
        let mut b = Aliases::default();
        render_context(&week(entries.clone()), &backlog, &[], 100, &mut a);
        render_context(&week(entries), &backlog, &[], 10_000, &mut b);
        assert_eq!(a.resolve("t120"), b.resolve("t120"));
    }

    #[test]
    fn aliases_map_every_id_field_both_ways() {
        let mut aliases = Aliases::default();
        aliases.add(&item(ItemKind::Todo, "uuid-t", "T", None));
        aliases.add(&item(ItemKind::Goal, "uuid-g", "G", None));
        aliases.add(&item(ItemKind::Goal, "uuid-g2", "G2", None));
        let mut v = json!({"operations": [
            {"op": "goal_add_items", "kind": "goal", "id": "g1", "items": [{"kind": "todo", "id": "t1"}, {"kind": "todo", "id": "real"}]},
            {"op": "goal_remove_item", "kind": "goal", "id": "G1", "item": {"kind": "todo", "id": "[t1]"}},
            {"op": "goal_add_child", "kind": "goal", "id": "g1", "childId": "g2"},
            {"op": "goal_create", "kind": "goal", "title": "x", "children": ["g2", 5]},
            "not an object"
        ]});
        aliases.resolve_in(&mut v);
        let ops = &v["operations"];
        assert_eq!(ops[0]["id"], "uuid-g");
        assert_eq!(ops[0]["items"][0]["id"], "uuid-t");
        assert_eq!(ops[0]["items"][1]["id"], "real");
        assert_eq!(ops[1]["id"], "uuid-g");
        assert_eq!(ops[1]["item"]["id"], "uuid-t");
        assert_eq!(ops[2]["childId"], "uuid-g2");
        assert_eq!(ops[3]["children"], json!(["uuid-g2", 5]));
        let mut arr = json!([{"op": "delete", "kind": "todo", "id": "t1"}]);
        aliases.resolve_in(&mut arr);
        assert_eq!(arr[0]["id"], "uuid-t");

        let mut op = PlannerOperation::new(OpType::GoalAddChild, ItemKind::Goal);
        op.id = Some("uuid-g".into());
        op.child_id = Some("uuid-g2".into());
        let v = aliases.alias_op(&op);
        assert_eq!(
            (v["id"].as_str(), v["childId"].as_str()),
            (Some("g1"), Some("g2"))
        );
    }

    #[test]
    fn cut_chars_is_char_safe() {
        assert_eq!(cut_chars("héllo", 2), "hé");
        assert_eq!(cut_chars("hi", 5), "hi");
    }
}
