//! Validated generation: ask for JSON, treat the answer as untrusted input, and repair a bounded
//! number of times.
//!
//! Each attempt goes through the stages in order: `extract` (find a JSON object in the text, see
//! [`super::extract`]), `parse` (into the typed shape, which is where the schema's types and
//! required fields are enforced), `domain` (the caller's rules, e.g. ids that exist). On failure the
//! model gets its previous answer back with the validator's error lines and a request to correct
//! it; after `max_attempts` the call fails with [`LlmError::InvalidOutput`] naming the last stage.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::extract::{extract_json, parse_model_json};
use super::{
    CancelToken, ChatMessage, ChatRole, GenerationRequest, GenerationResult, LanguageModel,
    LlmError, TokenListener,
};
use crate::kernel::error::{OutputErrorCode, OutputStage};

static NEXT_REQUEST: AtomicU64 = AtomicU64::new(1);

/// Default number of generations (the first plus repairs).
pub const DEFAULT_ATTEMPTS: u32 = 3;

/// One problem the domain validator found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// JSON path, e.g. `suggestions[1].targetSetIndex`.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// What a validated generation cost.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GenerationReport {
    /// Generations made (1 = valid at once).
    pub attempts: u32,
    /// The stage each failed attempt stopped at.
    pub failures: Vec<OutputStage>,
    /// Tokens over all attempts.
    pub prompt_tokens: u32,
    /// Tokens over all attempts.
    pub completion_tokens: u32,
}

/// Generates until the output parses as `T` and passes `validate`, at most `max_attempts` times.
pub fn generate_validated<T: DeserializeOwned>(
    model: &dyn LanguageModel,
    mut request: GenerationRequest,
    max_attempts: u32,
    listener: Option<Arc<dyn TokenListener>>,
    cancel: &Arc<CancelToken>,
    validate: impl Fn(&T) -> Vec<Issue>,
) -> Result<(T, GenerationReport), LlmError> {
    let mut report = GenerationReport::default();
    let max_attempts = max_attempts.max(1);
    let request_id = NEXT_REQUEST.fetch_add(1, Ordering::Relaxed);
    let model_name = model.info().name;
    loop {
        report.attempts += 1;
        let generated = model.generate(request.clone(), listener.clone(), Arc::clone(cancel));
        let out: GenerationResult = generated.inspect_err(|e| {
            log::warn!(target: "coachcore::llm",
                "request={request_id} model={model_name} attempt={} error={e}", report.attempts);
        })?;
        report.prompt_tokens += out.prompt_tokens;
        report.completion_tokens += out.completion_tokens;
        let checked = check::<T>(&out.text, &validate);
        log::info!(target: "coachcore::llm",
            "request={request_id} model={model_name} attempt={} prompt_tokens={} \
             completion_tokens={} prompt_ms={} generation_ms={} outcome={}",
            report.attempts,
            out.prompt_tokens,
            out.completion_tokens,
            out.prompt_ms,
            out.generation_ms,
            checked.as_ref().map_or_else(|(stage, _)| stage.as_str(), |_| "valid"));
        let (stage, lines) = match checked {
            Ok(value) => return Ok((value, report)),
            Err(failure) => failure,
        };
        report.failures.push(stage);
        if report.attempts >= max_attempts {
            return Err(LlmError::InvalidOutput {
                stage,
                attempts: report.attempts,
                detail: lines.join("; "),
            });
        }
        request
            .messages
            .push(ChatMessage::new(ChatRole::Assistant, out.text));
        request
            .messages
            .push(ChatMessage::new(ChatRole::User, repair_prompt(&lines)));
    }
}

/// The stage and the error lines of an invalid output, or the value.
fn check<T: DeserializeOwned>(
    text: &str,
    validate: &impl Fn(&T) -> Vec<Issue>,
) -> Result<T, (OutputStage, Vec<String>)> {
    if extract_json(text).is_none() {
        return Err((
            OutputStage::Extract,
            vec!["the answer holds no JSON object".into()],
        ));
    }
    let value: T = parse_model_json(text).map_err(|e| {
        let stage = if e.code == OutputErrorCode::InvalidJson {
            OutputStage::Parse
        } else {
            OutputStage::Schema
        };
        let at = e.path.map(|p| format!("{p}: ")).unwrap_or_default();
        (stage, vec![format!("{at}{}", e.detail)])
    })?;
    let issues = validate(&value);
    if issues.is_empty() {
        Ok(value)
    } else {
        Err((
            OutputStage::Domain,
            issues
                .into_iter()
                .map(|i| format!("{}: {}", i.path, i.message))
                .collect(),
        ))
    }
}

/// The repair message: the validator's lines and what to do.
pub fn repair_prompt(lines: &[String]) -> String {
    let mut listing = String::new();
    for l in lines {
        listing.push_str("- ");
        listing.push_str(l);
        listing.push('\n');
    }
    crate::kernel::prompts::REPAIR
        .trim_end()
        .replace("{{lines}}", &listing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::scripted::{ScriptedModel, ScriptedReply};
    use crate::llm::Sampling;

    #[derive(serde::Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Answer {
        count: u32,
    }

    fn request() -> GenerationRequest {
        GenerationRequest {
            messages: vec![ChatMessage::new(ChatRole::User, "count to three")],
            json_schema: None,
            sampling: Sampling::default(),
            max_tokens: 64,
            timeout_ms: None,
        }
    }

    fn at_most_five(a: &Answer) -> Vec<Issue> {
        if a.count > 5 {
            vec![Issue {
                path: "count".into(),
                message: "must be at most 5".into(),
            }]
        } else {
            vec![]
        }
    }

    #[test]
    fn repairs_with_the_validator_lines_until_valid() {
        let model = ScriptedModel::texts([
            "no json here",
            "{\"count\": \"three\"}",
            "{\"count\": 9}",
            "```json\n{\"count\": 3}\n```",
        ]);
        let cancel = CancelToken::new();
        let (v, report) =
            generate_validated::<Answer>(&*model, request(), 4, None, &cancel, at_most_five)
                .unwrap();
        assert_eq!(v, Answer { count: 3 });
        assert_eq!(report.attempts, 4);
        assert_eq!(report.failures, vec!["extract", "schema", "domain"]);
        let reqs = model.requests();
        assert_eq!(reqs.len(), 4);
        let last = &reqs[3].messages;
        assert_eq!(
            last.len(),
            7,
            "the chat grows by the answer and the repair request each time"
        );
        assert_eq!(last[5].content, "{\"count\": 9}");
        assert!(
            last[6].content.contains("count: must be at most 5"),
            "{}",
            last[6].content
        );
        assert!(
            reqs[2].messages[4]
                .content
                .contains("count: wrong type: expected an integer"),
            "{}",
            reqs[2].messages[4].content
        );
    }

    #[test]
    fn gives_up_after_the_attempt_limit_naming_the_stage() {
        let model = ScriptedModel::texts(["{\"count\": 7}", "{\"count\": 8}", "{\"count\": 1}"]);
        let err = generate_validated::<Answer>(
            &*model,
            request(),
            2,
            None,
            &CancelToken::new(),
            at_most_five,
        )
        .unwrap_err();
        assert_eq!(
            err,
            LlmError::InvalidOutput {
                stage: OutputStage::Domain,
                attempts: 2,
                detail: "count: must be at most 5".into()
            }
        );
        assert_eq!(model.remaining(), 1, "no third attempt");
        let err = generate_validated::<Answer>(
            &*ScriptedModel::texts(["{\"count\": 1"]),
            request(),
            1,
            None,
            &CancelToken::new(),
            at_most_five,
        )
        .unwrap_err();
        assert!(
            matches!(err, LlmError::InvalidOutput { ref stage, attempts: 1, .. } if stage == "parse"),
            "{err:?}"
        );
    }

    #[test]
    fn each_attempt_is_logged_without_user_content() {
        /// The scripted model under its own name, to pick this test's lines out of the global log.
        struct Named(Arc<ScriptedModel>);
        impl LanguageModel for Named {
            fn info(&self) -> crate::llm::ModelInfo {
                crate::llm::ModelInfo {
                    name: "log-test".into(),
                    ..self.0.info()
                }
            }
            fn generate(
                &self,
                r: GenerationRequest,
                l: Option<Arc<dyn TokenListener>>,
                c: Arc<CancelToken>,
            ) -> Result<GenerationResult, LlmError> {
                self.0.generate(r, l, c)
            }
        }
        let model = Named(ScriptedModel::texts([
            "{\"count\": 9} SECRET",
            "{\"count\": 2}",
        ]));
        let (_, records) = crate::kernel::logging::capture::logged(|| {
            generate_validated::<Answer>(
                &model,
                request(),
                3,
                None,
                &CancelToken::new(),
                at_most_five,
            )
            .unwrap()
        });
        let lines: Vec<String> = records
            .into_iter()
            .filter(|r| r.target == "coachcore::llm")
            .map(|r| r.message)
            .filter(|l| l.contains("model=log-test"))
            .collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].contains("attempt=1") && lines[0].contains("outcome=domain"),
            "{}",
            lines[0]
        );
        assert!(
            lines[1].contains("attempt=2") && lines[1].contains("outcome=valid"),
            "{}",
            lines[1]
        );
        assert!(lines
            .iter()
            .all(|l| !l.contains("SECRET") && !l.contains("count to three")));
    }

    #[test]
    fn model_errors_and_cancellation_are_not_retried() {
        let model = ScriptedModel::new([
            ScriptedReply::Fail(LlmError::TimedOut { after_ms: 5 }),
            ScriptedReply::Text("{\"count\": 1}".into()),
        ]);
        let err = generate_validated::<Answer>(
            &*model,
            request(),
            3,
            None,
            &CancelToken::new(),
            at_most_five,
        )
        .unwrap_err();
        assert_eq!(err, LlmError::TimedOut { after_ms: 5 });
        let cancel = CancelToken::new();
        cancel.cancel();
        let err = generate_validated::<Answer>(
            &*ScriptedModel::texts(["{\"count\": 1}"]),
            request(),
            3,
            None,
            &cancel,
            at_most_five,
        )
        .unwrap_err();
        assert_eq!(err, LlmError::Cancelled);
    }
}
