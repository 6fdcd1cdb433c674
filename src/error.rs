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
    /// Any other SQLite failure.
    #[error("storage failure: {0}")]
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
    #[error("invalid model output ({code}) at {path:?}: {detail}")]
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
    /// The file exists but is not a SQLite database, or is corrupt. It was left untouched.
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
            | Self::ContextOverflow { .. }
            | Self::Cancelled
            | Self::TimedOut { .. }
            | Self::ModelUnavailable { .. }
            | Self::IdempotencyConflict => self.to_string(),
        }
    }

    /// The error as the JSON object the CLI and the C API print:
    /// `{"code":C,"path":P,"detail":D}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "code": self.code(), "path": self.path(), "detail": self.detail() })
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
            // rusqlite's messages name SQLite result codes and our own SQL, never bound values.
            Error::Sqlite(e) => CoachError::Storage {
                detail: e.to_string(),
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
            L::Backend { detail } => CoachError::ModelFailure { detail },
        }
    }
}
