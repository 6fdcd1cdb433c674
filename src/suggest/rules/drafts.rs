//! What every rule builds: a rule's draft and its evidence.

use crate::suggest::model::{
    ChangeProperty, ChangeType, ChangeValue, Evidence, EvidenceFigure, SuggestionDraft,
    SuggestionSource,
};

/// A rule's draft. `set_index` is `None` for an exercise-level change.
#[allow(clippy::too_many_arguments)]
pub(crate) fn draft(
    rule_id: &str,
    change_type: ChangeType,
    set_index: Option<u32>,
    property: ChangeProperty,
    old_value: Option<ChangeValue>,
    new_value: ChangeValue,
    reasoning: String,
    evidence: Evidence,
) -> SuggestionDraft {
    SuggestionDraft {
        source: SuggestionSource::Rule,
        rule_id: Some(rule_id.to_string()),
        change_type,
        target_set_index: set_index,
        property,
        old_value,
        new_value,
        reasoning,
        evidence,
    }
}

/// A numeric change value.
pub(crate) fn num(value: f64) -> ChangeValue {
    ChangeValue::Number { value }
}

/// Evidence from performance ids, set indexes and named figures.
pub(crate) fn evidence<'a>(
    performance_ids: impl IntoIterator<Item = &'a str>,
    set_indexes: impl IntoIterator<Item = u32>,
    figures: &[(&str, f64)],
) -> Evidence {
    Evidence {
        performance_ids: performance_ids.into_iter().map(str::to_string).collect(),
        set_indexes: set_indexes.into_iter().collect(),
        figures: figures
            .iter()
            .map(|(name, value)| EvidenceFigure {
                name: (*name).to_string(),
                value: *value,
            })
            .collect(),
    }
}
