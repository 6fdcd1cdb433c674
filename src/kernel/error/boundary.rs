//! The one boundary: `impl From<Error> for CoachError` is the only place internal errors become
//! public ones, and the only place that decides what is logged (ADR 0007). Every other conversion
//! to [`CoachError`] ([`OutputError`], [`LlmError`], [`RequestError`]) goes through it.
//!
//! Logged, at `error` level under the target [`LOG_TARGET`], with the whole source chain: storage,
//! migration and internal errors, the library's or the device's fault, which an app developer needs
//! in a bug report. Not logged: the caller's errors (not found, invalid argument, rejected
//! operations, a file that is not ours) and model errors, which the metered wrapper
//! (`crate::llm::metered`) already logs once per call. A logged line holds the error's code and the
//! library's descriptions: internal errors carry no caller values, and file paths are removed
//! where SQLite's errors are made (`crate::db`).

use std::error::Error as _;

use super::LlmError;
use super::{sqlite_message, CoachError, Error, ModelStep, OutputError, RequestError};

/// The log target of the errors logged at the boundary.
pub const LOG_TARGET: &str = "coachcore::error";

/// Whose fault an error is, which decides whether it is logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// The library's or the device's: logged with its source chain.
    Library,
    /// The caller's (or its data's): not logged; the app has the error.
    Caller,
    /// The model's: already logged by the metered wrapper, once per call.
    Model,
}

/// The one mapping from internal to public errors.
impl From<Error> for CoachError {
    fn from(e: Error) -> Self {
        let (public, fault) = public_of(&e);
        if fault == Fault::Library {
            log::error!(target: LOG_TARGET, "code={} error={}", public.code(), chain(&e));
        }
        public
    }
}

impl From<OutputError> for CoachError {
    fn from(e: OutputError) -> Self {
        Error::Output(e).into()
    }
}

/// Model failures as apps see them.
impl From<LlmError> for CoachError {
    fn from(e: LlmError) -> Self {
        Error::Llm(e).into()
    }
}

/// Where a type has no room for the path, it goes into the detail.
impl From<RequestError> for CoachError {
    fn from(e: RequestError) -> Self {
        Error::InvalidArgument(e.to_string()).into()
    }
}

/// The public error for `e`, and whose fault it is. Adding a variant to [`Error`] makes this
/// match decide both.
fn public_of(e: &Error) -> (CoachError, Fault) {
    match e {
        Error::Output(OutputError { code, path, detail }) => (
            CoachError::InvalidModelOutput {
                code: *code,
                path: path.clone(),
                detail: detail.clone(),
            },
            Fault::Caller,
        ),
        Error::DatabaseTooNew { found, supported } => (
            CoachError::DatabaseTooNew {
                found_version: *found,
                supported_version: *supported,
            },
            Fault::Caller,
        ),
        // Also a database that became corrupt: worth a bug report.
        Error::NotADatabase(_) => (
            CoachError::NotADatabase {
                detail: "the file is not a SQLite database or is corrupt; it was not modified"
                    .into(),
            },
            Fault::Library,
        ),
        Error::ForeignDatabase => (
            CoachError::NotADatabase {
                detail: "the file is a SQLite database of another application; it was not \
                         modified"
                    .into(),
            },
            Fault::Caller,
        ),
        Error::NotAFile => (
            CoachError::NotADatabase {
                detail: "the path is not a regular file (a device, a folder or a pipe); it was \
                         not opened"
                    .into(),
            },
            Fault::Caller,
        ),
        // An io::Error of create_dir_all names the failure, never the path.
        Error::FolderNotCreated(source) => (
            CoachError::Storage {
                detail: format!(
                    "the database's folder does not exist and could not be created ({source}); \
                     nothing was written"
                ),
            },
            Fault::Caller,
        ),
        // rusqlite's messages name SQLite result codes, never bound values; the SQL text is left
        // out.
        Error::Migration { .. } => (
            CoachError::Storage {
                detail: e.to_string(),
            },
            Fault::Library,
        ),
        Error::Sqlite(source) => (
            CoachError::Storage {
                detail: sqlite_message(source),
            },
            Fault::Library,
        ),
        Error::InvalidArgument(detail) => (
            CoachError::InvalidArgument {
                detail: detail.clone(),
            },
            Fault::Caller,
        ),
        Error::NotFound(detail) => (
            CoachError::NotFound {
                detail: detail.clone(),
            },
            Fault::Caller,
        ),
        Error::JobNotComplete { status } => (
            CoachError::JobNotComplete {
                status: status.clone(),
                detail: e.to_string(),
            },
            Fault::Caller,
        ),
        Error::Llm(source) => model_error(source, None),
        Error::ModelStep { step, source } => model_error(source, Some(*step)),
        Error::Closed => (
            CoachError::Closed {
                detail: "the coach was shut down; open a new one".into(),
            },
            Fault::Caller,
        ),
        Error::Internal(detail) => (
            CoachError::Internal {
                detail: detail.clone(),
            },
            Fault::Library,
        ),
        Error::OperationsRejected {
            invalid,
            total,
            detail,
        } => (
            CoachError::OperationsRejected {
                invalid_count: *invalid,
                total_count: *total,
                detail: detail.clone(),
            },
            Fault::Caller,
        ),
        Error::IdempotencyConflict => (CoachError::IdempotencyConflict, Fault::Caller),
        Error::DatabaseNotEmpty(detail) => (
            CoachError::DatabaseNotEmpty {
                detail: detail.clone(),
            },
            Fault::Caller,
        ),
        Error::UndoConflict { item_id, detail } => (
            CoachError::UndoConflict {
                item_id: item_id.clone(),
                detail: detail.clone(),
            },
            Fault::Caller,
        ),
        // A damaged file is the device's (or the library's) fault: worth a bug report.
        Error::DatabaseCorrupt(detail) => (
            CoachError::DatabaseCorrupt {
                detail: detail.clone(),
            },
            Fault::Library,
        ),
        Error::ReadOnly(detail) => (
            CoachError::ReadOnly {
                detail: detail.clone(),
            },
            Fault::Caller,
        ),
        Error::WrongKey => (
            CoachError::WrongKey {
                detail: "the key does not open this file (a wrong key, or a file that is not an \
                         encrypted database of this library); it was not modified"
                    .into(),
            },
            Fault::Caller,
        ),
        Error::DatabaseEncrypted => (
            CoachError::DatabaseEncrypted {
                detail: "the file is not plain SQLite and looks encrypted: open it with its key; \
                         it was not modified"
                    .into(),
            },
            Fault::Caller,
        ),
        Error::DatabaseNotEncrypted => (
            CoachError::DatabaseNotEncrypted {
                detail: "a key was given for a database that is not encrypted (data().copy \
                         writes an encrypted copy); it was not modified"
                    .into(),
            },
            Fault::Caller,
        ),
        Error::EncryptionUnavailable => (
            CoachError::EncryptionUnavailable {
                detail: "a key was given, but this build has no encryption (build with the \
                         feature `encryption`); nothing was opened"
                    .into(),
            },
            Fault::Caller,
        ),
    }
}

/// A model failure as apps see it; `step` names the call in a flow of several.
fn model_error(e: &LlmError, step: Option<ModelStep>) -> (CoachError, Fault) {
    let public = match e {
        LlmError::ModelNotFound { .. } => CoachError::ModelUnusable {
            detail: "no model file at the given path".into(),
        },
        LlmError::NotAGguf { detail } | LlmError::UnsupportedModel { detail } => {
            CoachError::ModelUnusable {
                detail: detail.clone(),
            }
        }
        LlmError::ContextOverflow {
            prompt_tokens,
            context_tokens,
            over_by,
        } => CoachError::ContextOverflow {
            prompt_tokens: *prompt_tokens,
            context_tokens: *context_tokens,
            over_by: *over_by,
        },
        LlmError::InsufficientMemory {
            needed_bytes,
            available_bytes,
        } => CoachError::InsufficientMemory {
            needed_bytes: *needed_bytes,
            available_bytes: *available_bytes,
        },
        LlmError::Cancelled => CoachError::Cancelled,
        LlmError::TimedOut { after_ms } => CoachError::TimedOut {
            after_ms: *after_ms,
            stage: step.map(|s| s.as_str().to_string()),
        },
        LlmError::Unavailable { retry_after_ms } => CoachError::ModelUnavailable {
            retry_after_ms: *retry_after_ms,
        },
        LlmError::InvalidOutput {
            stage,
            attempts,
            detail,
        } => CoachError::ModelOutputRejected {
            stage: match step {
                Some(step) => format!("{}:{}", step.as_str(), stage.as_str()),
                None => stage.as_str().to_string(),
            },
            attempts: *attempts,
            detail: detail.clone(),
        },
        // The library's own schemas are checked by tests; a bad one here is a bug.
        LlmError::InvalidSchema { detail } => {
            return (
                CoachError::Internal {
                    detail: format!("schema: {detail}"),
                },
                Fault::Library,
            )
        }
        LlmError::Backend { detail } => CoachError::ModelFailure {
            detail: match step {
                Some(step) => format!("{}: {detail}", step.as_str()),
                None => detail.clone(),
            },
        },
    };
    (public, Fault::Model)
}

/// `e` and its sources, outermost first (`error; caused by: source; caused by: …`). SQLite's
/// errors are described without their SQL text; a source that only repeats the end of the text
/// before it is left out.
fn chain(e: &Error) -> String {
    let mut out = e.to_string();
    let mut last = out.clone();
    let mut next = e.source();
    while let Some(source) = next {
        let text = match source.downcast_ref::<rusqlite::Error>() {
            Some(sqlite) => sqlite_message(sqlite),
            None => source.to_string(),
        };
        if !last.ends_with(&text) {
            out.push_str("; caused by: ");
            out.push_str(&text);
        }
        last = text;
        next = source.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::error::{OutputErrorCode, OutputStage};
    use crate::kernel::logging::capture::logged;

    fn busy() -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
            Some("database is locked".into()),
        )
    }

    /// The records this test's conversions logged at the boundary.
    fn boundary_log(e: Error) -> (CoachError, Vec<String>) {
        let (public, records) = logged(|| CoachError::from(e));
        let lines = records
            .into_iter()
            .filter(|r| r.target == LOG_TARGET)
            .inspect(|r| assert_eq!(r.level, crate::kernel::logging::LogLevel::Error))
            .map(|r| r.message)
            .collect();
        (public, lines)
    }

    #[test]
    fn a_storage_error_is_logged_once_with_its_source_chain() {
        let (public, lines) = boundary_log(Error::Sqlite(busy()));
        assert_eq!(
            public,
            CoachError::Storage {
                detail: "database is locked".into()
            }
        );
        assert_eq!(lines.len(), 1, "{lines:?}");
        // The error, then SQLite's result code: the source chain.
        assert_eq!(
            lines[0],
            "code=storage error=storage failure: database is locked; caused by: Error code 5: \
             database is locked"
        );

        let migration = Error::Migration {
            step: 7,
            source: rusqlite::Error::SqlInputError {
                error: rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
                msg: "near \"TABLEX\": syntax error".into(),
                sql: "CREATE TABLEX SECRET_SQL".into(),
                offset: 7,
            },
        };
        let (public, lines) = boundary_log(migration);
        assert_eq!(public.code(), "storage");
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("code=storage error=migration 7 failed: near \"TABLEX\""),
            "{}",
            lines[0]
        );
        assert!(lines[0].contains("caused by: Error code 1"), "{}", lines[0]);
        assert!(!lines[0].contains("SECRET_SQL"), "{}", lines[0]);

        let (_, lines) = boundary_log(Error::Internal("the workout flow panicked".into()));
        assert_eq!(
            lines,
            ["code=internal error=internal error: the workout flow panicked"]
        );
    }

    #[test]
    fn caller_and_model_errors_are_not_logged() {
        let quiet = [
            Error::NotFound("no such todo".into()),
            Error::InvalidArgument("limit must be at most 50".into()),
            Error::OperationsRejected {
                invalid: 1,
                total: 2,
                detail: "0: title: empty".into(),
            },
            Error::IdempotencyConflict,
            Error::ForeignDatabase,
            Error::NotAFile,
            Error::Output(OutputError::new(OutputErrorCode::InvalidJson, None, "d")),
            Error::Llm(LlmError::TimedOut { after_ms: 5 }),
            Error::ModelStep {
                step: ModelStep::Analyzer,
                source: LlmError::InvalidOutput {
                    stage: OutputStage::Domain,
                    attempts: 3,
                    detail: "d".into(),
                },
            },
        ];
        for e in quiet {
            let what = format!("{e:?}");
            let (_, lines) = boundary_log(e);
            assert!(lines.is_empty(), "{what}: {lines:?}");
        }
        // The conversions from the other error types go through the same function.
        let (_, records) = logged(|| {
            CoachError::from(LlmError::InvalidSchema {
                detail: "bad".into(),
            })
        });
        assert_eq!(
            records
                .iter()
                .filter(|r| r.target == LOG_TARGET)
                .map(|r| r.message.as_str())
                .collect::<Vec<_>>(),
            ["code=internal error=model: invalid JSON schema: bad"]
        );
    }

    #[test]
    fn a_rejected_output_names_its_stage_and_step() {
        let rejected = |step| {
            let source = LlmError::InvalidOutput {
                stage: OutputStage::Schema,
                attempts: 2,
                detail: "d".into(),
            };
            CoachError::from(match step {
                Some(step) => Error::ModelStep { step, source },
                None => Error::Llm(source),
            })
        };
        let stage = |e: CoachError| match e {
            CoachError::ModelOutputRejected { stage, .. } => stage,
            other => panic!("{other:?}"),
        };
        assert_eq!(stage(rejected(None)), "schema");
        assert_eq!(
            stage(rejected(Some(ModelStep::Analyzer))),
            "analyzer:schema"
        );
        assert_eq!(
            stage(rejected(Some(ModelStep::Generator))),
            "generator:schema"
        );
        // Other model errors of a step are as without one.
        assert_eq!(
            CoachError::from(Error::ModelStep {
                step: ModelStep::Generator,
                source: LlmError::Cancelled
            }),
            CoachError::Cancelled
        );
    }

    #[test]
    fn stages_are_their_words() {
        let words: Vec<&str> = OutputStage::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(words, ["extract", "parse", "schema", "domain"]);
        for s in OutputStage::ALL {
            assert_eq!(OutputStage::from_word(s.as_str()), Some(s));
            assert_eq!(s.to_string(), s.as_str());
        }
        assert_eq!(OutputStage::from_word("analyzer:domain"), None);
    }
}

/// `parse_request`'s errors (`request.rs`), and what the boundary makes of them.
#[cfg(test)]
mod request_tests {
    use crate::kernel::error::{parse_request, CoachError};

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Req {
        n: u32,
        x: f64,
        tags: Vec<String>,
        by_name: std::collections::BTreeMap<String, u32>,
    }

    #[test]
    fn request_errors_describe_without_quoting() {
        let ok = r#"{"n":1,"x":1.5,"tags":[],"by_name":{}}"#;
        assert!(parse_request::<Req>(ok).is_ok());
        // (input, path, detail); "SECRET" stands for user data.
        let cases: &[(&str, Option<&str>, &str)] = &[
            (
                r#"{"n":"SECRET","x":1,"tags":[],"by_name":{}}"#,
                Some("n"),
                "wrong type: expected an integer",
            ),
            (
                r#"{"n":-1,"x":1,"tags":[],"by_name":{}}"#,
                Some("n"),
                "number out of range",
            ),
            (
                r#"{"n":4294967296,"x":1,"tags":[],"by_name":{}}"#,
                Some("n"),
                "number out of range",
            ),
            (
                r#"{"n":1,"x":"SECRET","tags":[],"by_name":{}}"#,
                Some("x"),
                "wrong type: expected a number",
            ),
            (
                r#"{"n":1,"x":1,"tags":[1],"by_name":{}}"#,
                Some("tags[0]"),
                "wrong type: expected a string",
            ),
            (
                r#"{"n":1,"x":1,"tags":"SECRET","by_name":{}}"#,
                Some("tags"),
                "wrong type: expected an array",
            ),
            (
                r#"{"n":1,"x":1,"tags":[],"by_name":{"ok_key":"SECRET"}}"#,
                Some("by_name.ok_key"),
                "wrong type: expected an integer",
            ),
            // A key the caller chose that is not a plain identifier drops the whole path.
            (
                r#"{"n":1,"x":1,"tags":[],"by_name":{"SECRET key":"v"}}"#,
                None,
                "wrong type: expected an integer",
            ),
            (
                r#"{"n":1,"x":1,"tags":[],"by_name":{},"SECRET":1}"#,
                None,
                "unknown field; expected one of `n`, `x`, `tags`, `by_name`",
            ),
            (
                r#"{"n":1,"n":2,"x":1,"tags":[],"by_name":{}}"#,
                None,
                "field given twice",
            ),
            (
                r#"{"x":1,"tags":[],"by_name":{}}"#,
                None,
                "missing field `n`",
            ),
            (r#""SECRET""#, None, "wrong type: expected an object"),
            (
                r#"{"n":1,"x":1,"tags":[],"by_name":{}} "SECRET""#,
                None,
                "malformed JSON at line 1 column 38",
            ),
            (
                r#"{"n":1,"x":1,"tags":["SECRET",}"#,
                None,
                "malformed JSON at line 1 column 31",
            ),
            ("", None, "the JSON ends early at line 1 column 0"),
        ];
        for (input, path, detail) in cases {
            let e = parse_request::<Req>(input).unwrap_err();
            assert_eq!(e.path.as_deref(), *path, "{input}");
            assert_eq!(e.detail, *detail, "{input}");
            let public = CoachError::from(e.clone()).to_string();
            assert!(!public.contains("SECRET"), "{public}");
            assert!(!e.to_json().to_response().contains("SECRET"), "{input}");
        }
    }

    #[test]
    fn negative_zero_is_zero() {
        let r =
            parse_request::<Req>(r#"{"n":-0,"x":-0,"tags":["-0"],"by_name":{"a": -0 }}"#).unwrap();
        assert_eq!((r.n, r.by_name["a"], r.tags[0].as_str()), (0, 0, "-0"));
        assert!(r.x == 0.0 && r.x.is_sign_positive());
        // Other numbers that start with -0 keep their sign and meaning; -01 is not JSON.
        let r = parse_request::<Req>(r#"{"n":0,"x":-0.5,"tags":[],"by_name":{}}"#).unwrap();
        assert_eq!(r.x, -0.5);
        let r = parse_request::<Req>(r#"{"n":0,"x":-0e3,"tags":[],"by_name":{}}"#).unwrap();
        assert_eq!(r.x, 0.0);
        let e = parse_request::<Req>(r#"{"n":-01,"x":1,"tags":[],"by_name":{}}"#).unwrap_err();
        assert_eq!(e.detail, "malformed JSON at line 1 column 8");
        // An escaped quote does not end a string: its "-0" stays text.
        let r = parse_request::<Req>(r#"{"n":0,"x":1,"tags":["\" -0"],"by_name":{}}"#).unwrap();
        assert_eq!(r.tags[0], "\" -0");
    }
}
