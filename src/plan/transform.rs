//! The transform itself: raw model text -> validated, expanded, joined, ordered [`TodayPlan`].
//!
//! Steps: find the JSON ([`crate::llm::extract`]), parse it into the raw shape of the chosen
//! [`SchemaVersion`] (wrong types and unknown fields fail here, with their path), validate every
//! required field, enum and range, expand block templates from the [`Ruleset`], join `v2-flat`
//! exercises to their blocks by `blockIndex` and order them by `order`, and finally assign ids in
//! plan order (plan, then each block followed by its exercises), so a seed reproduces every id.
//!
//! Nothing is best-effort: the first broken rule fails the whole transform with an
//! [`OutputError`] naming the rule (its code) and the JSON path.

use super::expansion::Ruleset;
use super::model::{Energy, PlanBlock, PlanExercise, PlanSource, TodayPlan};
use super::raw::{BlockV1, BlockV2, ExerciseV1, ExerciseV2, PlanHeader, PlanV1, PlanV2};
use super::SchemaVersion;
use crate::error::{OutputError, OutputErrorCode as Code};
use crate::ids::IdGenerator;
use crate::llm::extract::parse_model_json;

const MAX_MINUTES: i64 = 1440;
// maxLength of the string fields, as in the schema files.
const MAX_FOCUS: usize = 120;
const MAX_SUMMARY: usize = 600;
const MAX_EQUIPMENT: usize = 60;
const MAX_TITLE: usize = 80;
const MAX_NAME: usize = 120;
const MAX_PRESCRIPTION: usize = 120;
const MAX_DETAIL: usize = 400;

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
        SchemaVersion::V2Flat => from_v2(parse_model_json::<PlanV2>(text)?, ruleset)?,
        SchemaVersion::V1Current => from_v1(parse_model_json::<PlanV1>(text)?, ruleset)?,
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

fn violation(path: String, detail: impl Into<String>) -> OutputError {
    OutputError::at(Code::SchemaViolation, path, detail)
}

fn required<T>(v: Option<T>, path: impl FnOnce() -> String) -> Result<T, OutputError> {
    v.ok_or_else(|| violation(path(), "required field is missing or null"))
}

fn text(
    v: Option<String>,
    max: usize,
    path: impl FnOnce() -> String,
) -> Result<String, OutputError> {
    match v {
        None => Err(violation(path(), "required field is missing or null")),
        Some(s) => check_len(s, max, path),
    }
}

fn check_len(s: String, max: usize, path: impl FnOnce() -> String) -> Result<String, OutputError> {
    if s.len() <= max || s.chars().count() <= max {
        Ok(s)
    } else {
        Err(violation(path(), format!("longer than {max} characters")))
    }
}

fn minutes(v: Option<i64>, path: impl Fn() -> String) -> Result<u32, OutputError> {
    let m = required(v, &path)?;
    if (1..=MAX_MINUTES).contains(&m) {
        Ok(m as u32)
    } else {
        Err(violation(
            path(),
            format!("must be a whole number of minutes from 1 to {MAX_MINUTES}"),
        ))
    }
}

fn detail(
    v: Option<Option<String>>,
    path: impl Fn() -> String,
) -> Result<Option<String>, OutputError> {
    match v {
        None => Err(violation(
            path(),
            "required field is missing (use null for no detail)",
        )),
        Some(None) => Ok(None),
        Some(Some(s)) => check_len(s, MAX_DETAIL, path).map(Some),
    }
}

fn exercise(
    name: Option<String>,
    prescription: Option<String>,
    det: Option<Option<String>>,
    at: &dyn Fn(&str) -> String,
) -> Result<PlanExercise, OutputError> {
    Ok(PlanExercise {
        id: String::new(),
        name: text(name, MAX_NAME, || at("name"))?,
        prescription: text(prescription, MAX_PRESCRIPTION, || at("prescription"))?,
        detail: detail(det, || at("detail"))?,
    })
}

/// Validates the fields both shapes share; returns a plan with no blocks yet.
fn header(h: PlanHeader) -> Result<TodayPlan, OutputError> {
    let focus = text(h.focus, MAX_FOCUS, || "focus".into())?;
    let duration_minutes = minutes(h.duration_minutes, || "durationMinutes".into())?;
    let mut equipment = required(h.equipment, || "equipment".into())?;
    for (i, item) in equipment.iter_mut().enumerate() {
        *item = check_len(std::mem::take(item), MAX_EQUIPMENT, || {
            format!("equipment[{i}]")
        })?;
    }
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
    let summary = text(h.summary, MAX_SUMMARY, || "summary".into())?;
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

fn non_empty_blocks<B>(blocks: Option<Vec<B>>) -> Result<Vec<B>, OutputError> {
    match blocks {
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
    duration: Option<i64>,
    focus: Option<String>,
    template: Option<String>,
    ruleset: &Ruleset,
) -> Result<PlanBlock, OutputError> {
    let at = |field: &str| format!("blocks[{i}].{field}");
    let Some(name) = template else {
        return Ok(PlanBlock {
            id: String::new(),
            title: text(title, MAX_TITLE, || at("title"))?,
            duration_minutes: minutes(duration, || at("durationMinutes"))?,
            focus: text(focus, MAX_FOCUS, || at("focus"))?,
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
    let mut keys: Vec<(usize, i64, usize)> = Vec::with_capacity(exercises.len());
    let mut built: Vec<Option<PlanExercise>> = Vec::with_capacity(exercises.len());
    for (j, e) in exercises.into_iter().enumerate() {
        let at = |field: &str| format!("exercises[{j}].{field}");
        let block_index = required(e.block_index, || at("blockIndex"))?;
        if block_index < 0 || block_index as u64 >= n_blocks as u64 {
            return Err(OutputError::at(
                Code::BlockIndexOutOfRange,
                at("blockIndex"),
                format!(
                    "must be from 0 to {} (the plan has {n_blocks} blocks)",
                    n_blocks - 1
                ),
            ));
        }
        let order = required(e.order, || at("order"))?;
        if order < 0 {
            return Err(violation(at("order"), "must be 0 or greater"));
        }
        built.push(Some(exercise(e.name, e.prescription, e.detail, &at)?));
        keys.push((block_index as usize, order, j));
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
                    "required field is missing or null",
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
