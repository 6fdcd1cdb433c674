//! Reading a model reply (pure): whether it is a tool call the step offers or the final answer,
//! and each suggestion normalised (weights rounded to an achievable load, reps and rest to whole
//! numbers) and checked against the prescription, every problem an [`Issue`] with its JSON path
//! for the repair loop. Valid suggestions become drafts with their evidence.

use serde::Deserialize;

use super::prompt::{fmt, Offer};
use super::{
    AI_CHANGE_TYPES, HISTORY_TOOL, MAX_REASONING_CHARS, MAX_RECENT, MAX_SUGGESTIONS, RECENT_TOOL,
};
use crate::llm::structured::Issue;
use crate::suggest::metrics;
use crate::suggest::model::{
    ChangeProperty, ChangeType, ChangeValue, Evidence, EvidenceFigure, ExerciseContext,
    ExercisePerformance, RestMode, SuggestionDraft, SuggestionSource, WeightUnit,
};
use crate::suggest::validate::MAX_WEIGHT_FACTOR;

/// The heaviest weight the AI may propose, in pounds.
const MAX_WEIGHT_LBS: f64 = 2000.0;
/// Reps bounds.
const REPS: (f64, f64) = (1.0, 100.0);
/// Rest bounds, seconds.
const REST: (f64, f64) = (0.0, 900.0);

/// One reply as parsed: the union of the schema's alternatives, checked by [`interpret`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawStep {
    #[serde(default)]
    tool: Option<String>,
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    suggestions: Option<Vec<RawSuggestion>>,
}

/// One suggestion as parsed.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawSuggestion {
    change_type: String,
    target_set_index: i64,
    new_value: f64,
    reasoning: String,
}

/// What a reply asks for.
#[derive(Debug, Clone)]
pub(super) enum Step {
    History,
    Recent(u32),
    Final(Vec<AiChange>),
}

/// A reply's problems and the step that can be taken anyway (valid suggestions only, a clamped
/// limit), if any.
#[derive(Debug, Default)]
pub(super) struct Interpretation {
    /// What can be done with the reply, if anything.
    pub(super) step: Option<Step>,
    /// Its problems, for the repair message.
    pub(super) issues: Vec<Issue>,
    /// Suggestions left out as invalid.
    pub(super) dropped: u32,
}

fn issue(path: impl Into<String>, message: impl Into<String>) -> Issue {
    Issue {
        path: path.into(),
        message: message.into(),
    }
}

/// Checks a reply against the step's offer and the domain.
pub(super) fn interpret(raw: &RawStep, offer: Offer, ctx: &ExerciseContext) -> Interpretation {
    let mut out = Interpretation::default();
    match (&raw.tool, &raw.suggestions) {
        (Some(_), Some(_)) => out.issues.push(issue(
            "(root)",
            "give either a tool call or the suggestions, not both",
        )),
        (None, None) => {
            out.issues.push(issue(
                "(root)",
                "give a tool call {\"tool\":...} or the final answer {\"suggestions\":[...]}",
            ));
            return out;
        }
        _ => {}
    }
    if let Some(list) = &raw.suggestions {
        if raw.limit.is_some() {
            out.issues.push(issue(
                "limit",
                "only a getRecentExercisePerformances call has a limit",
            ));
        }
        if list.len() > MAX_SUGGESTIONS {
            out.issues.push(issue(
                "suggestions",
                format!("at most {MAX_SUGGESTIONS} suggestions"),
            ));
        }
        let mut changes = Vec::new();
        for (i, s) in list.iter().enumerate() {
            match normalise(ctx, i, s) {
                Ok(c) => changes.push(c),
                Err(mut issues) => {
                    out.dropped += 1;
                    out.issues.append(&mut issues);
                }
            }
        }
        let extra = changes.len().saturating_sub(MAX_SUGGESTIONS);
        changes.truncate(MAX_SUGGESTIONS);
        out.dropped += extra as u32;
        out.step = Some(Step::Final(changes));
        return out;
    }
    let Some(tool) = raw.tool.as_deref() else {
        return out;
    };
    let no_more_tools = !offer.history && !offer.recent;
    match tool {
        HISTORY_TOOL | RECENT_TOOL if no_more_tools => {
            out.issues.push(issue(
                "tool",
                "no more tool calls: give the final answer {\"suggestions\":[...]}",
            ));
        }
        HISTORY_TOOL if !offer.history => out.issues.push(issue(
            "tool",
            "getExerciseHistoryContext was already called; its result is above",
        )),
        RECENT_TOOL if !offer.recent => out.issues.push(issue(
            "tool",
            "getRecentExercisePerformances was already called; its result is above",
        )),
        HISTORY_TOOL => {
            if raw.limit.is_some() {
                out.issues
                    .push(issue("limit", "getExerciseHistoryContext takes no limit"));
            }
            out.step = Some(Step::History);
        }
        RECENT_TOOL => {
            let limit = match raw.limit {
                Some(n) if (1..=MAX_RECENT as i64).contains(&n) => n as u32,
                Some(n) => {
                    out.issues.push(issue(
                        "limit",
                        format!("must be 1 to {MAX_RECENT}"),
                    ));
                    n.clamp(1, MAX_RECENT as i64) as u32
                }
                None => {
                    out.issues.push(issue(
                        "limit",
                        format!("required: how many sessions, 1 to {MAX_RECENT}"),
                    ));
                    MAX_RECENT
                }
            };
            out.step = Some(Step::Recent(limit));
        }
        _ => out.issues.push(issue(
            "tool",
            "unknown tool: the tools are getExerciseHistoryContext and getRecentExercisePerformances",
        )),
    }
    out
}

/// A valid, normalised change.
#[derive(Debug, Clone)]
pub(super) struct AiChange {
    change_type: ChangeType,
    target_set_index: Option<u32>,
    property: ChangeProperty,
    old_value: f64,
    new_value: f64,
    proposed: f64,
    reasoning: String,
}

impl AiChange {
    /// The normalised new value.
    pub(super) fn new_value(&self) -> f64 {
        self.new_value
    }

    /// The draft of this change, with `seen`'s performances as evidence.
    pub(super) fn into_draft(self, seen: &Seen) -> SuggestionDraft {
        self.into_draft_with(&seen.ids(), &[])
    }

    /// The draft with `performance_ids` (newest first) as evidence and `extra` figures after the
    /// values (a choice's evidence).
    pub(super) fn into_draft_with(
        self,
        performance_ids: &[String],
        extra: &[(&str, f64)],
    ) -> SuggestionDraft {
        let mut figures = vec![
            EvidenceFigure {
                name: "oldValue".into(),
                value: self.old_value,
            },
            EvidenceFigure {
                name: "newValue".into(),
                value: self.new_value,
            },
        ];
        if self.proposed != self.new_value {
            figures.push(EvidenceFigure {
                name: "proposedValue".into(),
                value: self.proposed,
            });
        }
        figures.extend(extra.iter().map(|(name, value)| EvidenceFigure {
            name: (*name).to_string(),
            value: *value,
        }));
        SuggestionDraft {
            source: SuggestionSource::Ai,
            rule_id: None,
            change_type: self.change_type,
            target_set_index: self.target_set_index,
            property: self.property,
            old_value: Some(ChangeValue::Number {
                value: self.old_value,
            }),
            new_value: ChangeValue::Number {
                value: self.new_value,
            },
            reasoning: self.reasoning,
            evidence: Evidence {
                performance_ids: performance_ids.to_vec(),
                set_indexes: self.target_set_index.into_iter().collect(),
                figures,
            },
        }
    }
}

/// The change type of a schema spelling, if the AI may use it.
pub(super) fn change_type(name: &str) -> Option<ChangeType> {
    Some(match name {
        "increaseWeight" => ChangeType::IncreaseWeight,
        "decreaseWeight" => ChangeType::DecreaseWeight,
        "increaseReps" => ChangeType::IncreaseReps,
        "decreaseReps" => ChangeType::DecreaseReps,
        "increaseRest" => ChangeType::IncreaseRest,
        "decreaseRest" => ChangeType::DecreaseRest,
        _ => return None,
    })
}

/// Normalises and checks one suggestion given by its parts (a choice's candidate), as
/// [`interpret`] checks each suggestion of a final answer.
pub(super) fn normalise_one(
    ctx: &ExerciseContext,
    change_type: &str,
    target_set_index: i64,
    new_value: f64,
    reasoning: &str,
) -> std::result::Result<AiChange, Vec<Issue>> {
    let raw = RawSuggestion {
        change_type: change_type.to_string(),
        target_set_index,
        new_value,
        reasoning: reasoning.to_string(),
    };
    normalise(ctx, 0, &raw)
}

/// Normalises and checks suggestion `i`; the issues when it is not acceptable.
fn normalise(
    ctx: &ExerciseContext,
    i: usize,
    s: &RawSuggestion,
) -> std::result::Result<AiChange, Vec<Issue>> {
    let at = |field: &str| format!("suggestions[{i}].{field}");
    let mut issues = Vec::new();
    let Some(ct) = change_type(s.change_type.trim()) else {
        return Err(vec![issue(
            at("changeType"),
            format!("must be one of {}", AI_CHANGE_TYPES.join(", ")),
        )]);
    };
    let (property, up, what) = match ct {
        ChangeType::IncreaseWeight => (ChangeProperty::Weight, true, "weight"),
        ChangeType::DecreaseWeight => (ChangeProperty::Weight, false, "weight"),
        ChangeType::IncreaseReps => (ChangeProperty::Reps, true, "reps"),
        ChangeType::DecreaseReps => (ChangeProperty::Reps, false, "reps"),
        ChangeType::IncreaseRest => (ChangeProperty::Rest, true, "rest"),
        _ => (ChangeProperty::Rest, false, "rest"),
    };
    let sets = set_list(ctx);
    let index = s.target_set_index;
    let set = if index == -1 {
        None
    } else {
        match u32::try_from(index)
            .ok()
            .and_then(|x| ctx.set_prescription(x))
        {
            Some(set) => Some(set),
            None => {
                return Err(vec![issue(
                    at("targetSetIndex"),
                    format!("there is no set {index}; the sets are {sets}"),
                )])
            }
        }
    };
    let per_set_rest = ctx.prescription.rest_mode == RestMode::PerSet;
    let old = match (property, set) {
        (ChangeProperty::Rest, None) if per_set_rest => {
            return Err(vec![issue(
                at("targetSetIndex"),
                format!("this exercise has a rest time per set: name a set ({sets}), not -1"),
            )])
        }
        (ChangeProperty::Rest, Some(_)) if !per_set_rest => {
            return Err(vec![issue(
                at("targetSetIndex"),
                "this exercise has one rest time for all sets: use -1",
            )])
        }
        (ChangeProperty::Rest, None) => ctx.prescription.rest_seconds as f64,
        (ChangeProperty::Rest, Some(set)) => set.rest_seconds as f64,
        (ChangeProperty::Reps, Some(set)) => set.target_reps as f64,
        (_, Some(set)) => set.target_weight,
        (_, None) => {
            return Err(vec![issue(
                at("targetSetIndex"),
                format!("a {what} change names a set ({sets}), not -1"),
            )])
        }
    };
    let proposed = s.new_value;
    if !proposed.is_finite() {
        return Err(vec![issue(at("newValue"), "must be a finite number")]);
    }
    let unit = ctx.plan.unit;
    let new = match property {
        ChangeProperty::Weight => {
            if !(old > 0.0 && old.is_finite()) {
                return Err(vec![issue(
                    at("targetSetIndex"),
                    format!("set {index} is a body-weight set (weight 0): no weight change"),
                )]);
            }
            let new = metrics::round_to_achievable(
                proposed,
                ctx.exercise.equipment,
                &ctx.plan.load,
                unit,
            );
            let max = (old * MAX_WEIGHT_FACTOR).min(max_weight(unit));
            let min = old / MAX_WEIGHT_FACTOR;
            if !(new > 0.0 && new >= min - 1e-9 && new <= max) {
                issues.push(issue(
                    at("newValue"),
                    format!(
                        "the weight must be {} to {} {} (the current is {})",
                        fmt(min),
                        fmt(max),
                        unit.symbol(),
                        fmt(old)
                    ),
                ));
            }
            new
        }
        ChangeProperty::Reps => {
            let new = proposed.round();
            let (lo, hi) = if old > 0.0 {
                ((old / 2.0).ceil().max(REPS.0), (old * 2.0).min(REPS.1))
            } else {
                REPS
            };
            if !(lo..=hi).contains(&new) {
                let why = if old > 0.0 {
                    format!(" (half to twice the current {})", fmt(old))
                } else {
                    String::new()
                };
                issues.push(issue(
                    at("newValue"),
                    format!("reps must be {} to {}{why}", fmt(lo), fmt(hi)),
                ));
            }
            new
        }
        _ => {
            let new = proposed.round();
            if !(REST.0..=REST.1).contains(&new) {
                issues.push(issue(
                    at("newValue"),
                    format!("rest must be {} to {} seconds", REST.0, REST.1),
                ));
            }
            new
        }
    };
    if issues.is_empty() {
        if new == old {
            let rounded = if new != proposed {
                format!("{} rounds to {}, ", fmt(proposed), fmt(new))
            } else {
                String::new()
            };
            issues.push(issue(
                at("newValue"),
                format!(
                    "{rounded}the current {what} is already {}: propose a different value or leave this change out",
                    fmt(old)
                ),
            ));
        } else if up != (new > old) {
            let (dir, other) = if up {
                ("above", "decrease")
            } else {
                ("below", "increase")
            };
            let name = AI_CHANGE_TYPES
                .iter()
                .find(|n| change_type(n) == Some(ct))
                .copied()
                .unwrap_or_default();
            issues.push(issue(
                at("newValue"),
                format!(
                    "{name} needs a value {dir} the current {}; use {other}{} for {}",
                    fmt(old),
                    capitalised(what),
                    fmt(new)
                ),
            ));
        }
    }
    if !issues.is_empty() {
        return Err(issues);
    }
    let target_set_index = set.map(|s| s.index);
    let mut reasoning: String = s.reasoning.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some((cut, _)) = reasoning.char_indices().nth(MAX_REASONING_CHARS) {
        reasoning.truncate(cut);
    }
    if reasoning.is_empty() {
        let target =
            target_set_index.map_or_else(|| "the exercise".to_string(), |i| format!("set {i}"));
        reasoning = format!(
            "Change the {what} of {target} from {} to {}.",
            fmt(old),
            fmt(new)
        );
    }
    Ok(AiChange {
        change_type: ct,
        target_set_index,
        property,
        old_value: old,
        new_value: new,
        proposed,
        reasoning,
    })
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The heaviest weight the AI may propose, in `unit`.
pub(super) fn max_weight(unit: WeightUnit) -> f64 {
    (MAX_WEIGHT_LBS / metrics::to_lbs(1.0, unit)).floor()
}

/// The prescription's set indexes, e.g. `0, 1, 2`.
fn set_list(ctx: &ExerciseContext) -> String {
    let mut idx: Vec<u32> = ctx.prescription.sets.iter().map(|s| s.index).collect();
    idx.sort_unstable();
    idx.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The performances the model saw, for evidence.
#[derive(Debug, Default)]
pub(super) struct Seen(Vec<(i64, String)>);

impl Seen {
    /// Records `p` (once).
    pub(super) fn add(&mut self, p: &ExercisePerformance) {
        if !self.0.iter().any(|(_, id)| id == &p.id) {
            self.0.push((p.performed_at_ms, p.id.clone()));
        }
    }

    /// Ids, newest first.
    pub(super) fn ids(&self) -> Vec<String> {
        let mut v = self.0.clone();
        v.sort_by_key(|x| std::cmp::Reverse(x.0));
        v.into_iter().map(|(_, id)| id).collect()
    }
}
