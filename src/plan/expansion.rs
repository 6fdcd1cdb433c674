//! Enum expansion (spec 000): compact values the model may write, expanded into canonical
//! structures by one versioned ruleset, `schemas/plan-expansion.rules.json`. Today that is
//! `blockTemplate`: `{"blockTemplate": "warmup-basic"}` becomes a whole block with its predefined
//! exercises. The version string travels with every transform result and metadata record.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

const RULESET_JSON: &str = include_str!("../../schemas/plan-expansion.rules.json");

/// A versioned set of expansion rules.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ruleset {
    /// E.g. `plan-expansion/1`; bumped whenever a mapping changes.
    pub ruleset_version: String,
    /// Template name -> the block it expands to.
    pub block_templates: BTreeMap<String, BlockTemplate>,
}

/// The canonical block a `blockTemplate` value stands for.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BlockTemplate {
    /// Title of the expanded block.
    pub title: String,
    /// Length of the expanded block, in minutes.
    pub duration_minutes: u32,
    /// Focus of the expanded block.
    pub focus: String,
    /// The predefined exercises, in order.
    pub exercises: Vec<TemplateExercise>,
}

/// One predefined exercise of a template.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateExercise {
    /// Exercise name.
    pub name: String,
    /// Sets, reps or time.
    pub prescription: String,
    /// Coaching note, if any.
    pub detail: Option<String>,
}

impl Ruleset {
    /// The ruleset shipped with this library (parsed once).
    pub fn embedded() -> &'static Ruleset {
        static RULES: OnceLock<Ruleset> = OnceLock::new();
        RULES.get_or_init(|| {
            // The file is part of the crate and checked by tests; failing here is a build defect.
            serde_json::from_str(RULESET_JSON).expect("schemas/plan-expansion.rules.json is valid")
        })
    }

    /// Parses a ruleset from JSON (for apps or tests that ship their own).
    pub fn from_json(json: &str) -> Result<Ruleset, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// The template called `name`, if the ruleset has one.
    pub fn block_template(&self, name: &str) -> Option<&BlockTemplate> {
        self.block_templates.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_ruleset_is_versioned_and_complete() {
        let r = Ruleset::embedded();
        assert_eq!(r.ruleset_version, "plan-expansion/1");
        let w = r.block_template("warmup-basic").expect("warmup-basic");
        assert_eq!(
            (w.title.as_str(), w.duration_minutes, w.focus.as_str()),
            ("Warm-up", 5, "Prep")
        );
        assert!(!w.exercises.is_empty());
        for (name, t) in &r.block_templates {
            assert!(t.duration_minutes > 0, "{name}");
            assert!(!t.exercises.is_empty(), "{name}");
        }
    }
}
