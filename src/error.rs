//! Errors: a detailed internal [`Error`] for the library's own code and a small public
//! [`CoachError`] for apps, with exactly one mapping between them (`impl From<Error> for CoachError`).
//!
//! Public errors say what failed and where (a JSON path for bad model output). They never carry
//! user data: no plan text, no values taken from the input, no file paths.

use std::fmt;

/// What was wrong with a piece of model output (or any plan text handed to the library).
///
/// The codes are stable: the CLI prints them in snake_case (`block_index_out_of_range`) and apps
/// may switch on them.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum OutputErrorCode {
    /// The text holds no JSON object, or the JSON is malformed or cut off.
    InvalidJson,
    /// The JSON does not match the schema: a missing field, a wrong type, an unknown field, an
    /// empty list that must not be empty, or a number out of range.
    SchemaViolation,
    /// An exercise's `blockIndex` points at no block.
    BlockIndexOutOfRange,
    /// Two exercises of one block share the same `order`.
    DuplicateOrder,
    /// The plan has no `blocks`, or an empty list of them.
    MissingBlocks,
    /// A value outside its enumeration (`source`, `energy`, `blockTemplate`).
    UnknownEnumValue,
}

impl OutputErrorCode {
    /// The stable snake_case spelling used by the CLI and the C API.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidJson => "invalid_json",
            Self::SchemaViolation => "schema_violation",
            Self::BlockIndexOutOfRange => "block_index_out_of_range",
            Self::DuplicateOrder => "duplicate_order",
            Self::MissingBlocks => "missing_blocks",
            Self::UnknownEnumValue => "unknown_enum_value",
        }
    }
}

impl fmt::Display for OutputErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rejected piece of model output: which rule it broke, where, and a short description
/// written by the library (never a copy of the offending value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputError {
    /// Which rule was broken.
    pub code: OutputErrorCode,
    /// JSON path of the offending value, such as `exercises[3].blockIndex`; `None` for the text as
    /// a whole.
    pub path: Option<String>,
    /// What is wrong, in the library's words.
    pub detail: String,
}

impl OutputError {
    /// An error with an optional path.
    pub fn new(code: OutputErrorCode, path: Option<String>, detail: impl Into<String>) -> Self {
        Self {
            code,
            path,
            detail: detail.into(),
        }
    }

    /// An error at `path`.
    pub fn at(code: OutputErrorCode, path: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(code, Some(path.into()), detail)
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "{} at {}: {}", self.code, p, self.detail),
            None => write!(f, "{}: {}", self.code, self.detail),
        }
    }
}

impl std::error::Error for OutputError {}

/// The library's internal error. Carries sources for logging; apps see [`CoachError`].
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Model output was rejected.
    #[error("invalid model output: {0}")]
    Output(#[from] OutputError),
    /// The database was written by a newer library.
    #[error("database schema version {found} is newer than this library supports ({supported})")]
    DatabaseTooNew {
        /// `user_version` found in the file.
        found: u32,
        /// The newest version this code knows.
        supported: u32,
    },
    /// The file is not a SQLite database, or is corrupt.
    #[error("the file is not a usable SQLite database")]
    NotADatabase(#[source] rusqlite::Error),
    /// The file is a SQLite database of another application (a foreign `application_id`, or
    /// tables that are not ours). Nothing was written to it.
    #[error("the file is a SQLite database of another application")]
    ForeignDatabase,
    /// A migration step failed; the transaction rolled back, so the file keeps its old version.
    #[error("migration {step} failed: {}", sqlite_message(.source))]
    Migration {
        /// The version the failed step would have reached.
        step: u32,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// Any other SQLite failure.
    #[error("storage failure: {}", sqlite_message(.0))]
    Sqlite(rusqlite::Error),
    /// A caller passed an unusable argument.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A record the caller named does not exist.
    #[error("not found: {0}")]
    NotFound(String),
    /// A language-model call failed.
    #[error("model: {0}")]
    Llm(#[from] crate::llm::LlmError),
    /// Operations given to `apply` did not all pass validation; nothing was applied.
    #[error("{invalid} of {total} operations are invalid: {detail}")]
    OperationsRejected {
        /// How many are invalid.
        invalid: u32,
        /// How many were given.
        total: u32,
        /// The first problems, as `index: field: code` lines joined by `; `.
        detail: String,
    },
    /// An idempotency key was reused with different operations.
    #[error("idempotency key reused with a different request")]
    IdempotencyConflict,
    /// A bug in the library.
    #[error("internal error: {0}")]
    Internal(String),
}

/// SQLite's description of `e` without the SQL text: rusqlite's `SqlInputError` quotes the whole
/// statement (a migration's SQL), which is noise in an error and may be long.
pub(crate) fn sqlite_message(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        other => other.to_string(),
    }
}

/// Result type of the library's internal functions.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The error every public call can return.
///
/// In Kotlin this is `CoachException` with one subclass per variant; in Swift an `Error` enum.
/// Nothing here carries user data: only codes, JSON paths and short descriptions.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum CoachError {
    /// Model output (or plan text) was rejected. `code` says which rule it broke and `path` where,
    /// e.g. `exercises[3].blockIndex`. Nothing was stored from it.
    #[error("invalid model output ({code}){}: {detail}", at_path(.path))]
    InvalidModelOutput {
        /// Which rule the output broke.
        code: OutputErrorCode,
        /// JSON path of the offending value, or `None` for the text as a whole.
        path: Option<String>,
        /// What is wrong, in the library's words (never a copy of the input).
        detail: String,
    },
    /// The database file was written by a newer version of this library. It was left untouched;
    /// update the app, or open a different file.
    #[error(
        "database version {found_version} is newer than supported version {supported_version}"
    )]
    DatabaseTooNew {
        /// Schema version found in the file.
        found_version: u32,
        /// Newest schema version this library knows.
        supported_version: u32,
    },
    /// The file is not this library's database: not SQLite, corrupt, or the SQLite database of
    /// another application (`detail` says which). It was left untouched (byte-identical); check
    /// the path.
    #[error("not a database: {detail}")]
    NotADatabase {
        /// What was found.
        detail: String,
    },
    /// Reading or writing the database failed (disk full, read-only file, locked for too long).
    #[error("storage failure: {detail}")]
    Storage {
        /// SQLite's description of the failure.
        detail: String,
    },
    /// A record the call names (a plan, session, exercise or change id) does not exist.
    #[error("not found: {detail}")]
    NotFound {
        /// What was looked for.
        detail: String,
    },
    /// A caller passed an argument the library cannot use.
    #[error("invalid argument: {detail}")]
    InvalidArgument {
        /// Which argument, and why.
        detail: String,
    },
    /// The model file is missing, is not a GGUF model, or cannot run on this build.
    #[error("model unusable: {detail}")]
    ModelUnusable {
        /// What is wrong with it.
        detail: String,
    },
    /// Loading the model was refused before it started: the model file plus the KV cache of the
    /// chosen context needs `needed_bytes`, the device has `available_bytes` available now. Nothing
    /// was loaded. Offer a smaller model or a smaller `contextTokens`, or try again after freeing
    /// memory.
    #[error("the model needs {needed_bytes} bytes of memory, {available_bytes} are available")]
    InsufficientMemory {
        /// Bytes the model would take (file, KV cache, compute buffers).
        needed_bytes: u64,
        /// Bytes the device had available.
        available_bytes: u64,
    },
    /// The prompt does not fit the model's context window.
    #[error("prompt exceeds the context window by {over_by} tokens")]
    ContextOverflow {
        /// Tokens in the prompt.
        prompt_tokens: u32,
        /// Tokens available for it.
        context_tokens: u32,
        /// How many too many.
        over_by: u32,
    },
    /// The call was cancelled.
    #[error("cancelled")]
    Cancelled,
    /// The call ran past its time limit.
    #[error("timed out after {after_ms} ms")]
    TimedOut {
        /// The limit.
        after_ms: u64,
    },
    /// The model failed repeatedly; try again after `retry_after_ms`.
    #[error("model unavailable, retry after {retry_after_ms} ms")]
    ModelUnavailable {
        /// When to retry.
        retry_after_ms: u64,
    },
    /// The model's output stayed invalid after the repair attempts. `stage` is where the last
    /// attempt failed: `extract`, `parse`, `schema` or `domain`.
    #[error("model output rejected at {stage} after {attempts} attempts")]
    ModelOutputRejected {
        /// Where validation failed.
        stage: String,
        /// Generations tried.
        attempts: u32,
        /// The last validation error.
        detail: String,
    },
    /// The model engine failed.
    #[error("model failure: {detail}")]
    ModelFailure {
        /// What went wrong.
        detail: String,
    },
    /// `apply` was refused because some operations are invalid; nothing was applied. Call
    /// `dryRunOperations` to see each operation's problems.
    #[error("{invalid_count} of {total_count} operations are invalid")]
    OperationsRejected {
        /// How many are invalid.
        invalid_count: u32,
        /// How many were given.
        total_count: u32,
        /// The first problems, as `index: field: code` lines (e.g. `2: scheduledFor: invalid_date`).
        detail: String,
    },
    /// The idempotency key was used before with different operations; nothing was applied. Use a
    /// new key for a new request.
    #[error("idempotency key reused with a different request")]
    IdempotencyConflict,
    /// A bug in the library. Please report it with the detail.
    #[error("internal error: {detail}")]
    Internal {
        /// What went wrong.
        detail: String,
    },
}

impl CoachError {
    /// The stable snake_case code of this error, as the CLI and the C API print it.
    pub fn code(&self) -> &'static str {
        match self {
            Self::InvalidModelOutput { code, .. } => code.as_str(),
            Self::DatabaseTooNew { .. } => "database_too_new",
            Self::NotADatabase { .. } => "not_a_database",
            Self::Storage { .. } => "storage",
            Self::NotFound { .. } => "not_found",
            Self::ModelUnusable { .. } => "model_unusable",
            Self::InsufficientMemory { .. } => "insufficient_memory",
            Self::ContextOverflow { .. } => "context_overflow",
            Self::Cancelled => "cancelled",
            Self::TimedOut { .. } => "timed_out",
            Self::ModelUnavailable { .. } => "model_unavailable",
            Self::ModelOutputRejected { .. } => "model_output_rejected",
            Self::ModelFailure { .. } => "model_failure",
            Self::InvalidArgument { .. } => "invalid_argument",
            Self::OperationsRejected { .. } => "operations_rejected",
            Self::IdempotencyConflict => "idempotency_conflict",
            Self::Internal { .. } => "internal",
        }
    }

    /// The JSON path the error points at, if any.
    pub fn path(&self) -> Option<&str> {
        match self {
            Self::InvalidModelOutput { path, .. } => path.as_deref(),
            _ => None,
        }
    }

    /// A short description without user data.
    pub fn detail(&self) -> String {
        match self {
            Self::InvalidModelOutput { detail, .. }
            | Self::NotADatabase { detail }
            | Self::Storage { detail }
            | Self::NotFound { detail }
            | Self::ModelUnusable { detail }
            | Self::ModelOutputRejected { detail, .. }
            | Self::ModelFailure { detail }
            | Self::InvalidArgument { detail }
            | Self::OperationsRejected { detail, .. }
            | Self::Internal { detail } => detail.clone(),
            Self::DatabaseTooNew { .. }
            | Self::InsufficientMemory { .. }
            | Self::ContextOverflow { .. }
            | Self::Cancelled
            | Self::TimedOut { .. }
            | Self::ModelUnavailable { .. }
            | Self::IdempotencyConflict => self.to_string(),
        }
    }

    /// The error as the JSON object the CLI and the C API print: serializes to
    /// `{"code":C,"path":P,"detail":D}`, keys in that order.
    pub fn to_json(&self) -> ErrorJson {
        ErrorJson {
            code: self.code().to_string(),
            path: self.path().map(str::to_string),
            detail: self.detail(),
        }
    }
}

/// ` at PATH`, or nothing without a path.
fn at_path(path: &Option<String>) -> String {
    path.as_ref()
        .map_or_else(String::new, |p| format!(" at {p}"))
}

/// An error as the CLI and the C API print it. Serializes to `{"code":C,"path":P,"detail":D}` with
/// the keys in this order (`path` is `null` when the error points at nothing in particular).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ErrorJson {
    /// The stable snake_case code ([`CoachError::code`]).
    pub code: String,
    /// The JSON path the error points at, if any.
    pub path: Option<String>,
    /// A short description without user data.
    pub detail: String,
}

impl ErrorJson {
    /// The whole error response, `{"error":{"code":C,"path":P,"detail":D}}`, as one line of JSON.
    pub fn to_response(&self) -> String {
        #[derive(serde::Serialize)]
        struct Envelope<'a> {
            error: &'a ErrorJson,
        }
        // Strings and an option of one: serializing cannot fail.
        serde_json::to_string(&Envelope { error: self }).unwrap_or_default()
    }
}

/// A JSON request (to the C API or the CLI) that could not be read: where and why, never the
/// offending value. Its code is `invalid_argument`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestError {
    /// JSON path of the offending value, such as `context.sets[2].weight`; `None` when the text is
    /// not JSON or the problem is the request as a whole.
    pub path: Option<String>,
    /// What is wrong, in the library's words: the expected type, the allowed values or fields.
    pub detail: String,
}

impl RequestError {
    /// The error JSON, code `invalid_argument`.
    pub fn to_json(&self) -> ErrorJson {
        ErrorJson {
            code: "invalid_argument".into(),
            path: self.path.clone(),
            detail: format!("request JSON: {}", self.detail),
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "request JSON at {p}: {}", self.detail),
            None => write!(f, "request JSON: {}", self.detail),
        }
    }
}

impl std::error::Error for RequestError {}

/// Where a type has no room for the path, it goes into the detail.
impl From<RequestError> for CoachError {
    fn from(e: RequestError) -> Self {
        CoachError::InvalidArgument {
            detail: e.to_string(),
        }
    }
}

/// Reads a JSON request into `T`. The error names the JSON path and what was expected; it never
/// quotes the input (a value, an unknown key or an unknown enum value may be user data).
pub fn parse_request<'de, T: serde::Deserialize<'de>>(json: &'de str) -> Result<T, RequestError> {
    let syntax = |e: &serde_json::Error| RequestError {
        path: None,
        detail: describe_json_error(e),
    };
    let mut de = serde_json::Deserializer::from_str(json);
    match serde_path_to_error::deserialize(&mut de) {
        Ok(v) => de.end().map(|()| v).map_err(|e| syntax(&e)),
        // Syntax errors get line and column only: their path may name a key of an ignored value.
        Err(e) if !e.inner().is_data() => Err(syntax(e.inner())),
        Err(e) => {
            let unknown_key = e.inner().to_string().starts_with("unknown field");
            Err(RequestError {
                path: request_path(e.path(), unknown_key),
                detail: describe_json_error(e.inner()),
            })
        }
    }
}

/// The path as text (`context.sets[2].weight`), or `None` for the request as a whole. An unknown
/// key, the last segment when `unknown_key`, is left out: the path points at the object holding
/// it. A path with any other key that is not a plain identifier (so not a field name of the
/// library's types) is dropped entirely, so a key the caller chose is never echoed.
fn request_path(path: &serde_path_to_error::Path, unknown_key: bool) -> Option<String> {
    use serde_path_to_error::Segment;
    let plain = |k: &str| {
        !k.is_empty()
            && k.len() <= 64
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !k.starts_with(|c: char| c.is_ascii_digit())
    };
    let segments: Vec<&Segment> = path.iter().collect();
    let keep = match segments.last() {
        Some(Segment::Map { .. }) if unknown_key => segments.len() - 1,
        _ => segments.len(),
    };
    let mut out = String::new();
    for seg in &segments[..keep] {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key: name } | Segment::Enum { variant: name } if plain(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The JSON kind serde's "expected …" names, in plain words (`u32` -> "an integer"); the one table
/// every error description uses.
pub(crate) fn expected_kind(expected: &str) -> &'static str {
    match expected {
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "an integer" => "an integer",
        "f32" | "f64" | "a number" => "a number",
        "a string" | "a borrowed string" | "a character" => "a string",
        "a boolean" => "a boolean",
        "a sequence" | "an array" => "an array",
        x if x.starts_with("struct ") || x.starts_with("a map") => "an object",
        _ => "another type",
    }
}

/// Describes a `serde_json` error in the library's words. serde's messages quote the offending
/// value (`invalid type: string "…"`, ``unknown variant `…` ``, ``unknown field `…` ``); this
/// keeps only what the library itself defines: the expected type, the allowed values or field
/// names, the name of a missing field, and line and column for malformed JSON.
pub(crate) fn describe_json_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => format!(
            "the JSON ends early at line {} column {}",
            e.line(),
            e.column()
        ),
        Category::Syntax | Category::Io => {
            format!("malformed JSON at line {} column {}", e.line(), e.column())
        }
        Category::Data => {
            let msg = e.to_string();
            let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
            // The expected part comes last and is the library's (the value comes first and may
            // itself contain ", expected ").
            let expected = msg
                .rfind(", expected ")
                .map(|i| &msg[i + ", expected ".len()..]);
            if msg.starts_with("unknown variant") {
                match expected {
                    Some(list) => format!("unknown value; expected {list}"),
                    None => "unknown value".into(),
                }
            } else if msg.starts_with("unknown field") {
                match expected {
                    Some(list) => format!("unknown field; expected {list}"),
                    None => "unknown field; no fields are allowed here".into(),
                }
            } else if msg.starts_with("invalid type") {
                format!(
                    "wrong type: expected {}",
                    expected_kind(expected.unwrap_or_default())
                )
            } else if let Some(name) = msg.strip_prefix("missing field ") {
                // The name of one of the library's fields.
                format!("missing field {name}")
            } else {
                crate::llm::extract::describe_data_error(e)
            }
        }
    }
}

/// The one mapping from internal to public errors.
impl From<Error> for CoachError {
    fn from(e: Error) -> Self {
        match e {
            Error::Output(OutputError { code, path, detail }) => {
                CoachError::InvalidModelOutput { code, path, detail }
            }
            Error::DatabaseTooNew { found, supported } => CoachError::DatabaseTooNew {
                found_version: found,
                supported_version: supported,
            },
            Error::NotADatabase(_) => CoachError::NotADatabase {
                detail: "the file is not a SQLite database or is corrupt; it was not modified"
                    .into(),
            },
            Error::ForeignDatabase => CoachError::NotADatabase {
                detail: "the file is a SQLite database of another application; it was not \
                         modified"
                    .into(),
            },
            // rusqlite's messages name SQLite result codes, never bound values; the SQL text is
            // left out.
            e @ Error::Migration { .. } => CoachError::Storage {
                detail: e.to_string(),
            },
            Error::Sqlite(e) => CoachError::Storage {
                detail: sqlite_message(&e),
            },
            Error::InvalidArgument(detail) => CoachError::InvalidArgument { detail },
            Error::NotFound(detail) => CoachError::NotFound { detail },
            Error::Llm(e) => e.into(),
            Error::Internal(detail) => CoachError::Internal { detail },
            Error::OperationsRejected {
                invalid,
                total,
                detail,
            } => CoachError::OperationsRejected {
                invalid_count: invalid,
                total_count: total,
                detail,
            },
            Error::IdempotencyConflict => CoachError::IdempotencyConflict,
        }
    }
}

impl From<OutputError> for CoachError {
    fn from(e: OutputError) -> Self {
        Error::Output(e).into()
    }
}

/// Model failures as apps see them.
impl From<crate::llm::LlmError> for CoachError {
    fn from(e: crate::llm::LlmError) -> Self {
        use crate::llm::LlmError as L;
        match e {
            L::ModelNotFound { .. } => CoachError::ModelUnusable {
                detail: "no model file at the given path".into(),
            },
            L::NotAGguf { detail } | L::UnsupportedModel { detail } => {
                CoachError::ModelUnusable { detail }
            }
            L::ContextOverflow {
                prompt_tokens,
                context_tokens,
                over_by,
            } => CoachError::ContextOverflow {
                prompt_tokens,
                context_tokens,
                over_by,
            },
            L::Cancelled => CoachError::Cancelled,
            L::TimedOut { after_ms } => CoachError::TimedOut { after_ms },
            L::Unavailable { retry_after_ms } => CoachError::ModelUnavailable { retry_after_ms },
            L::InvalidOutput {
                stage,
                attempts,
                detail,
            } => CoachError::ModelOutputRejected {
                stage,
                attempts,
                detail,
            },
            // The library's own schemas are checked by tests; a bad one here is a bug.
            L::InvalidSchema { detail } => CoachError::Internal {
                detail: format!("schema: {detail}"),
            },
            L::InsufficientMemory {
                needed_bytes,
                available_bytes,
            } => CoachError::InsufficientMemory {
                needed_bytes,
                available_bytes,
            },
            L::Backend { detail } => CoachError::ModelFailure { detail },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_model_output_names_the_path_plainly() {
        let at = CoachError::InvalidModelOutput {
            code: OutputErrorCode::BlockIndexOutOfRange,
            path: Some("exercises[1].blockIndex".into()),
            detail: "no block 7".into(),
        };
        assert_eq!(
            at.to_string(),
            "invalid model output (block_index_out_of_range) at exercises[1].blockIndex: no block 7"
        );
        let whole = CoachError::InvalidModelOutput {
            code: OutputErrorCode::InvalidJson,
            path: None,
            detail: "no JSON object found in the text".into(),
        };
        assert_eq!(
            whole.to_string(),
            "invalid model output (invalid_json): no JSON object found in the text"
        );
    }

    #[test]
    fn error_json_keeps_code_path_detail_order() {
        let e = CoachError::InvalidModelOutput {
            code: OutputErrorCode::DuplicateOrder,
            path: Some("exercises[2].order".into()),
            detail: "d".into(),
        };
        assert_eq!(
            e.to_json().to_response(),
            r#"{"error":{"code":"duplicate_order","path":"exercises[2].order","detail":"d"}}"#
        );
        assert_eq!(
            CoachError::Cancelled.to_json().to_response(),
            r#"{"error":{"code":"cancelled","path":null,"detail":"cancelled"}}"#
        );
    }

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
}
