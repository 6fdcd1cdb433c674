//! The transform itself: raw model text -> validated, expanded, joined, ordered [`TodayPlan`].
//!
//! Steps: find the JSON ([`crate::llm::extract`]), parse it into the raw shape of the chosen
//! [`SchemaVersion`] (wrong types, `null` where the schema allows none and unknown fields fail
//! here, with their path), validate every required field, enum and range, expand block templates
//! from the [`Ruleset`], join `v2-flat` exercises to their blocks by `blockIndex` and order them by
//! `order`, and finally assign ids in plan order (plan, then each block followed by its exercises),
//! so a seed reproduces every id.
//!
//! The validation is hand-written (one pass, no JSON Schema engine on the hot path) and accepts
//! exactly what `schemas/today-plan.v2-flat.json` and `today-plan.v1-current.json` accept, plus
//! the rules a schema cannot state (`blockIndex` below the number of blocks, unique `order` per
//! block, at least one exercise in a v1 plan); `tests/it/transform.rs` checks every invalid case
//! against the schema files with the reference `jsonschema` validator. The numeric rules, from
//! the spec's field lists:
//! - `durationMinutes` is a whole number from 1; the only upper bound is the width of the plan's
//!   `u32` field (4294967295, stated in the schemas). Strings have no length limit.
//! - Integers are JSON Schema integers: `30.0` is 30.
//! - `blockIndex` is in range or `block_index_out_of_range`, whatever its size (a negative or
//!   astronomically large index is an out-of-range index, not a schema violation).
//! - `order` is any whole number from 0, of any size: orders are compared exactly up to
//!   `u64::MAX` and by their parsed `f64` value beyond it.
//!
//! Nothing is best-effort: the first broken rule fails the whole transform with an
//! [`OutputError`] naming the rule (its code) and the JSON path. Paths name schema fields only:
//! a field name the plan schemas do not know is the model's text, so its error points at the
//! object holding it.

use super::expansion::Ruleset;
use super::model::{Energy, PlanBlock, PlanExercise, PlanSource, TodayPlan};
use super::raw::{
    BlockV1, BlockV2, ExerciseV1, ExerciseV2, Nullable, PlanHeader, PlanV1, PlanV2, Whole,
    KNOWN_FIELDS,
};
use super::SchemaVersion;
use crate::kernel::error::{OutputError, OutputErrorCode as Code};
use crate::kernel::ids::IdGenerator;
use crate::llm::extract::{has_top_level_key, parse_model_json_with};

/// Transforms raw model text written in `version`'s schema into a [`TodayPlan`].
///
/// `text` may wrap the JSON in code fences, prose or `<think>`/`<response>` tags. Ids come from
/// `ids`: pass a seeded [`IdGenerator`] for reproducible output.
pub fn transform(
    text: &str,
    version: SchemaVersion,
    ruleset: &Ruleset,
    ids: &mut IdGenerator,
) -> Result<TodayPlan, OutputError> {
    let mut plan = match version {
        // The first object that is a valid plan wins (an aside such as `{"units": "metric"}` or a
        // repeated template before it is passed over); when none is, the error is the plan's.
        SchemaVersion::V2Flat => {
            parse_model_json_with(text, |p: PlanV2| from_v2(p, ruleset), is_plan).map_err(unecho)?
        }
        SchemaVersion::V1Current => {
            parse_model_json_with(text, |p: PlanV1| from_v1(p, ruleset), is_plan).map_err(unecho)?
        }
    };
    plan.id = ids.next_id();
    for block in &mut plan.blocks {
        block.id = ids.next_id();
        for e in &mut block.exercises {
            e.id = ids.next_id();
        }
    }
    Ok(plan)
}

/// Whether a JSON object candidate is (meant as) the plan rather than an aside: its own keys
/// include `blocks` or `exercises`.
fn is_plan(candidate: &str) -> bool {
    has_top_level_key(candidate, &["blocks", "exercises"])
}

fn violation(path: String, detail: impl Into<String>) -> OutputError {
    OutputError::at(Code::SchemaViolation, path, detail)
}

fn required<T>(v: Option<T>, path: impl FnOnce() -> String) -> Result<T, OutputError> {
    v.ok_or_else(|| violation(path(), "required field is missing"))
}

/// An unknown field's error points at the object holding it unless the name is a field of the
/// plan schemas (e.g. `exercises` inside a `v2-flat` block): other names are the model's text.
fn unecho(mut e: OutputError) -> OutputError {
    if e.code != Code::SchemaViolation || !e.detail.starts_with("unknown field") {
        return e;
    }
    let Some(path) = e.path.take() else {
        return e;
    };
    let (parent, key) = split_object_path(&path);
    e.path = if KNOWN_FIELDS.contains(&key) {
        Some(path)
    } else {
        parent.map(str::to_owned)
    };
    e
}

/// Splits `blocks[1].exercises[0].KEY` into the path of a plan object (`None` for the root) and the
/// key after it. The objects are the root, `blocks[i]`, `exercises[j]` and
/// `blocks[i].exercises[k]`; the key is everything after the object's path, dots included.
fn split_object_path(path: &str) -> (Option<&str>, &str) {
    fn indexed<'a>(s: &'a str, name: &str) -> Option<&'a str> {
        let rest = s.strip_prefix(name)?.strip_prefix('[')?;
        let close = rest.find(']')?;
        (close > 0 && rest[..close].bytes().all(|b| b.is_ascii_digit())).then(|| &rest[close + 1..])
    }
    let after_object = indexed(path, "blocks")
        .map(|rest| {
            rest.strip_prefix('.')
                .and_then(|r| indexed(r, "exercises"))
                .unwrap_or(rest)
        })
        .or_else(|| indexed(path, "exercises"));
    match after_object.and_then(|rest| rest.strip_prefix('.').map(|key| (rest, key))) {
        Some((rest, key)) => (Some(&path[..path.len() - rest.len()]), key),
        None => (None, path),
    }
}

fn text(v: Option<String>, path: impl FnOnce() -> String) -> Result<String, OutputError> {
    v.ok_or_else(|| violation(path(), "required field is missing"))
}

/// `durationMinutes`: a whole number from 1 to `u32::MAX`.
fn minutes(v: Option<Whole>, path: impl Fn() -> String) -> Result<u32, OutputError> {
    match required(v, &path)? {
        Whole::Exact(m) if m >= 1 => u32::try_from(m)
            .map_err(|_| violation(path(), format!("must be at most {} minutes", u32::MAX))),
        Whole::Beyond(_) => Err(violation(
            path(),
            format!("must be at most {} minutes", u32::MAX),
        )),
        _ => Err(violation(
            path(),
            "must be a whole number of minutes, 1 or more",
        )),
    }
}

fn detail(v: Nullable<String>, path: impl Fn() -> String) -> Result<Option<String>, OutputError> {
    v.ok_or_else(|| violation(path(), "required field is missing (use null for no detail)"))
}

fn exercise(
    name: Option<String>,
    prescription: Option<String>,
    det: Nullable<String>,
    at: &dyn Fn(&str) -> String,
) -> Result<PlanExercise, OutputError> {
    Ok(PlanExercise {
        id: String::new(),
        name: text(name, || at("name"))?,
        prescription: text(prescription, || at("prescription"))?,
        detail: detail(det, || at("detail"))?,
    })
}

/// Validates the fields both shapes share; returns a plan with no blocks yet.
fn header(h: PlanHeader) -> Result<TodayPlan, OutputError> {
    let focus = text(h.focus, || "focus".into())?;
    let duration_minutes = minutes(h.duration_minutes, || "durationMinutes".into())?;
    let equipment = required(h.equipment, || "equipment".into())?;
    let source = match required(h.source, || "source".into())?.as_str() {
        "ai" => PlanSource::Ai,
        "manual" => PlanSource::Manual,
        _ => {
            return Err(OutputError::at(
                Code::UnknownEnumValue,
                "source",
                "must be one of: ai, manual",
            ))
        }
    };
    let energy = match required(h.energy, || "energy".into())?.as_str() {
        "easy" => Energy::Easy,
        "moderate" => Energy::Moderate,
        "intense" => Energy::Intense,
        _ => {
            return Err(OutputError::at(
                Code::UnknownEnumValue,
                "energy",
                "must be one of: easy, moderate, intense",
            ))
        }
    };
    let summary = text(h.summary, || "summary".into())?;
    Ok(TodayPlan {
        id: String::new(),
        focus,
        duration_minutes,
        equipment,
        source,
        energy,
        summary,
        blocks: Vec::new(),
    })
}

/// `blocks` absent, `null` or empty is `missing_blocks`.
fn non_empty_blocks<B>(blocks: Nullable<Vec<B>>) -> Result<Vec<B>, OutputError> {
    match blocks.flatten() {
        None => Err(OutputError::at(
            Code::MissingBlocks,
            "blocks",
            "the plan has no blocks",
        )),
        Some(b) if b.is_empty() => Err(OutputError::at(
            Code::MissingBlocks,
            "blocks",
            "the plan's blocks list is empty",
        )),
        Some(b) => Ok(b),
    }
}

/// A block from its own fields, or from a `blockTemplate` (with the template's exercises).
fn block(
    i: usize,
    title: Option<String>,
    duration: Option<Whole>,
    focus: Option<String>,
    template: Option<String>,
    ruleset: &Ruleset,
) -> Result<PlanBlock, OutputError> {
    let at = |field: &str| format!("blocks[{i}].{field}");
    let Some(name) = template else {
        return Ok(PlanBlock {
            id: String::new(),
            title: text(title, || at("title"))?,
            duration_minutes: minutes(duration, || at("durationMinutes"))?,
            focus: text(focus, || at("focus"))?,
            exercises: Vec::new(),
        });
    };
    if title.is_some() || duration.is_some() || focus.is_some() {
        return Err(violation(
            format!("blocks[{i}]"),
            "a template block cannot also set title, durationMinutes or focus",
        ));
    }
    let t = ruleset.block_template(&name).ok_or_else(|| {
        OutputError::at(
            Code::UnknownEnumValue,
            at("blockTemplate"),
            "not a block template of the ruleset",
        )
    })?;
    Ok(PlanBlock {
        id: String::new(),
        title: t.title.clone(),
        duration_minutes: t.duration_minutes,
        focus: t.focus.clone(),
        exercises: t
            .exercises
            .iter()
            .map(|e| PlanExercise {
                id: String::new(),
                name: e.name.clone(),
                prescription: e.prescription.clone(),
                detail: e.detail.clone(),
            })
            .collect(),
    })
}

fn from_v2(raw: PlanV2, ruleset: &Ruleset) -> Result<TodayPlan, OutputError> {
    let (h, blocks, exercises) = raw.split();
    let mut plan = header(h)?;
    let blocks: Vec<BlockV2> = non_empty_blocks(blocks)?;
    plan.blocks = blocks
        .into_iter()
        .enumerate()
        .map(|(i, b)| {
            block(
                i,
                b.title,
                b.duration_minutes,
                b.focus,
                b.block_template,
                ruleset,
            )
        })
        .collect::<Result<_, _>>()?;
    let exercises: Vec<ExerciseV2> = required(exercises, || "exercises".into())?;
    if exercises.is_empty() {
        return Err(violation(
            "exercises".into(),
            "must hold at least one exercise",
        ));
    }

    // Validate each exercise; remember (block, order, input index) for the join.
    let n_blocks = plan.blocks.len();
    let mut keys: Vec<(usize, Whole, usize)> = Vec::with_capacity(exercises.len());
    let mut built: Vec<Option<PlanExercise>> = Vec::with_capacity(exercises.len());
    for (j, e) in exercises.into_iter().enumerate() {
        let at = |field: &str| format!("exercises[{j}].{field}");
        let block_index = match required(e.block_index, || at("blockIndex"))? {
            Whole::Exact(b) if b < n_blocks as u64 => b as usize,
            _ => {
                return Err(OutputError::at(
                    Code::BlockIndexOutOfRange,
                    at("blockIndex"),
                    format!(
                        "must be from 0 to {} (the plan has {n_blocks} block{})",
                        n_blocks - 1,
                        if n_blocks == 1 { "" } else { "s" }
                    ),
                ))
            }
        };
        let order = required(e.order, || at("order"))?;
        if order == Whole::Negative {
            return Err(violation(at("order"), "must be 0 or greater"));
        }
        built.push(Some(exercise(e.name, e.prescription, e.detail, &at)?));
        keys.push((block_index, order, j));
    }

    keys.sort_unstable();
    if let Some(w) = keys
        .windows(2)
        .find(|w| w[0].0 == w[1].0 && w[0].1 == w[1].1)
    {
        return Err(OutputError::at(
            Code::DuplicateOrder,
            format!("exercises[{}].order", w[1].2),
            format!(
                "order is already used by exercises[{}] in the same block",
                w[0].2
            ),
        ));
    }
    for (b, _, j) in keys {
        if let Some(e) = built[j].take() {
            plan.blocks[b].exercises.push(e);
        }
    }
    Ok(plan)
}

fn from_v1(raw: PlanV1, ruleset: &Ruleset) -> Result<TodayPlan, OutputError> {
    let (h, blocks) = raw.split();
    let mut plan = header(h)?;
    let blocks: Vec<BlockV1> = non_empty_blocks(blocks)?;
    let mut listed = 0usize;
    plan.blocks = Vec::with_capacity(blocks.len());
    for (i, b) in blocks.into_iter().enumerate() {
        let is_template = b.block_template.is_some();
        let mut out = block(
            i,
            b.title,
            b.duration_minutes,
            b.focus,
            b.block_template,
            ruleset,
        )?;
        let exercises: Vec<ExerciseV1> = match b.exercises {
            Some(e) => e,
            None if is_template => Vec::new(),
            None => {
                return Err(violation(
                    format!("blocks[{i}].exercises"),
                    "required field is missing",
                ))
            }
        };
        listed += exercises.len();
        out.exercises.reserve(exercises.len());
        for (k, e) in exercises.into_iter().enumerate() {
            let at = |field: &str| format!("blocks[{i}].exercises[{k}].{field}");
            out.exercises
                .push(exercise(e.name, e.prescription, e.detail, &at)?);
        }
        plan.blocks.push(out);
    }
    if listed == 0 {
        return Err(violation(
            "blocks".into(),
            "the plan must list at least one exercise",
        ));
    }
    Ok(plan)
}
