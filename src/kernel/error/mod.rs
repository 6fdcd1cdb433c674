//! Errors: a detailed internal [`Error`] for the library's own code and a small public
//! [`CoachError`] for apps, with exactly one mapping between them (`impl From<Error> for CoachError`,
//! in `boundary.rs`, which also decides what is logged). ADR 0007.
//!
//! Public errors say what failed and where (a JSON path for bad model output). They never carry
//! user data: no plan text, no values taken from the input, no file paths. serde's messages quote
//! input, so every parser describes them with the helpers of `json.rs`; a JSON request is read with
//! [`parse_request`] (`request.rs`).

use std::fmt;

mod boundary;
pub(crate) mod json;
mod llm;
pub(crate) mod path;
mod request;
mod stage;

pub use json::ErrorJson;
pub use llm::LlmError;
pub use request::{parse_request, parse_request_borrowed, RequestError};
pub use stage::OutputStage;

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

/// Which model call of a pipeline that makes several failed (the workout's analyzer and
/// generator). A rejected output's public stage is then `step:stage`, e.g. `analyzer:domain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelStep {
    /// The workout analyzer (the plan of exercises).
    Analyzer,
    /// The workout generator (the document).
    Generator,
}

impl ModelStep {
    /// The step's word: `analyzer` or `generator`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Analyzer => "analyzer",
            Self::Generator => "generator",
        }
    }
}

impl fmt::Display for ModelStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
    /// The path, or a `-journal`, `-wal` or `-shm` beside it, is not a regular file (a device
    /// such as `/dev/null`, a folder, a pipe). Refused before SQLite opens it.
    #[error("the database path is not a regular file")]
    NotAFile,
    /// The folder of a new database file did not exist and could not be created (a file in the
    /// way, no permission). Nothing was written.
    #[error("the database's folder could not be created: {0}")]
    FolderNotCreated(#[source] std::io::Error),
    /// A migration step failed; the transaction rolled back, so the file keeps its old version.
    #[error("migration {step} failed: {}", sqlite_message(.source))]
    Migration {
        /// The version the failed step would have reached.
        step: u32,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// The database file is damaged (`PRAGMA quick_check` at open, `checkIntegrity` or a read found
    /// a bad page); writes are refused. The text is a short description written by the library.
    #[error("the database file is damaged: {0}")]
    DatabaseCorrupt(String),
    /// The database is read-only (the file or its folder is write-protected, or it was opened
    /// read-only) and the call needs to write. The text says what was refused.
    #[error("the database is read-only: {0}")]
    ReadOnly(String),
    /// The key given does not open the file: a wrong key, or a file that is not an encrypted
    /// database (or is damaged). Nothing was written to it.
    #[error("the key does not open the database file")]
    WrongKey,
    /// The file looks encrypted (not plain SQLite, its first page indistinguishable from random
    /// bytes) and was opened without a key. Nothing was written to it.
    #[error("the database file is encrypted and no key was given")]
    DatabaseEncrypted,
    /// A key was given (to open or rekey) for a database that is not encrypted. Nothing was
    /// written to it.
    #[error("the database file is not encrypted")]
    DatabaseNotEncrypted,
    /// A key was given to a build without the feature `encryption`.
    #[error("this build of the library has no encryption (feature `encryption`)")]
    EncryptionUnavailable,
    /// Any other SQLite failure.
    #[error("storage failure: {}", sqlite_message(.0))]
    Sqlite(#[source] rusqlite::Error),
    /// A caller passed an unusable argument.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A record the caller named does not exist.
    #[error("not found: {0}")]
    NotFound(String),
    /// A job the call needs finished has not completed: `status` is its state (`PENDING`,
    /// `RUNNING` or `FAILED`).
    #[error("the job is {status}, not COMPLETE")]
    JobNotComplete {
        /// The job's state.
        status: String,
    },
    /// A language-model call failed (`From<LlmError>` is written in `crate::llm`, the floor whose
    /// error it is).
    #[error("model: {0}")]
    Llm(#[source] LlmError),
    /// A language-model call of one step of a pipeline with several failed.
    #[error("model, {step} step: {source}")]
    ModelStep {
        /// Which call.
        step: ModelStep,
        /// How it failed.
        source: LlmError,
    },
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
    /// An import was refused because the database already holds data. The text names a table.
    #[error("the database is not empty: {0}")]
    DatabaseNotEmpty(String),
    /// An undo was refused: an item the request changed has changed since, or the request was
    /// undone already.
    #[error("cannot undo: {detail}")]
    UndoConflict {
        /// The item that changed (`None` when the request as a whole cannot be undone).
        item_id: Option<String>,
        /// What changed, in the library's words.
        detail: String,
    },
    /// The `Coach` was shut down (`shutdown()`): its database is closed.
    #[error("the coach was shut down")]
    Closed,
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
    /// The key does not open the database file: a wrong key, or a file that is not an encrypted
    /// database of this library (or is damaged). The file was left untouched; open it with the
    /// key it was encrypted with.
    #[error("wrong key: {detail}")]
    WrongKey {
        /// What was found, in the library's words (never the key).
        detail: String,
    },
    /// The file is encrypted (it is not plain SQLite and its first page is indistinguishable from
    /// random bytes) and was opened without a key: open it with `openEncrypted`. Left untouched.
    #[error("database encrypted: {detail}")]
    DatabaseEncrypted {
        /// What was found.
        detail: String,
    },
    /// A key was given for a database that is not encrypted (`openEncrypted` on a plain file, or
    /// `rekey` on a plain database). Left untouched; `data().copy` writes an encrypted copy.
    #[error("database not encrypted: {detail}")]
    DatabaseNotEncrypted {
        /// What was refused.
        detail: String,
    },
    /// A key was given, but this build of the library has no encryption (it was built without
    /// the feature `encryption`). Nothing was opened or written: the library never stores data
    /// unencrypted that the app asked to encrypt.
    #[error("encryption unavailable: {detail}")]
    EncryptionUnavailable {
        /// What was refused.
        detail: String,
    },
    /// Reading or writing the database failed (disk full, locked for too long), or the folder of a
    /// new database file could not be created.
    #[error("storage failure: {detail}")]
    Storage {
        /// SQLite's description of the failure.
        detail: String,
    },
    /// The database file is damaged (a bad page found when it was opened, by `checkIntegrity`, or
    /// by a read). Writes are refused so the damage does not spread; reads may still work where
    /// the damaged pages are not needed. Call `checkIntegrity` for the problems, then restore a
    /// backup or export what can still be read.
    #[error("database corrupt: {detail}")]
    DatabaseCorrupt {
        /// What was found, in the library's words.
        detail: String,
    },
    /// The call needs to write, but the database is read-only: the file or its folder is
    /// write-protected (reads, dry runs and assistant messages still work), or the file needs an
    /// upgrade that a read-only file cannot take.
    #[error("read-only database: {detail}")]
    ReadOnly {
        /// What was refused.
        detail: String,
    },
    /// A record the call names (a plan, session, exercise or change id) does not exist.
    #[error("not found: {detail}")]
    NotFound {
        /// What was looked for.
        detail: String,
    },
    /// The call needs a finished job (a meal plan's shopping list needs its plan) and the job
    /// has none: `status` is `PENDING` or `RUNNING` (wait for it; the listener's `Completed`
    /// event says when) or `FAILED` (start the plan again).
    #[error("job not complete: {detail}")]
    JobNotComplete {
        /// The job's state: `PENDING`, `RUNNING` or `FAILED`.
        status: String,
        /// What was refused.
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
    #[error("timed out after {after_ms} ms{}", stage.as_ref().map_or_else(String::new, |s| format!(" (stage {s})")))]
    TimedOut {
        /// The limit.
        after_ms: u64,
        /// In a flow of several model calls, the call that ran out of time (`analyzer` or
        /// `generator` in the workout flow); none otherwise.
        stage: Option<String>,
    },
    /// The model failed repeatedly; try again after `retry_after_ms`.
    #[error("model unavailable, retry after {retry_after_ms} ms")]
    ModelUnavailable {
        /// When to retry.
        retry_after_ms: u64,
    },
    /// The model's output stayed invalid after the repair attempts. `stage` is where the last
    /// attempt failed: `extract`, `parse`, `schema` or `domain`; in a flow of several model calls
    /// prefixed by the call (`analyzer:domain` in the workout flow).
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
    /// `planner().dryRun` to see each operation's problems.
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
    /// `data().importAll` was refused because the database already holds data; nothing was imported.
    /// Import into a new database file, or call `data().eraseAll` first.
    #[error("database not empty: {detail}")]
    DatabaseNotEmpty {
        /// Which table holds rows.
        detail: String,
    },
    /// `planner().undo` was refused and nothing was changed: an item the request changed has been
    /// changed since (by a later request or an app write), or the request was undone already.
    #[error("cannot undo{}: {detail}", item_id.as_ref().map_or_else(String::new, |id| format!(" (item {id})")))]
    UndoConflict {
        /// The id of the item that changed since; `None` when the request as a whole cannot be
        /// undone (it was undone already).
        item_id: Option<String>,
        /// What changed, in the library's words (never the item's text).
        detail: String,
    },
    /// The `Coach` was shut down with `shutdown()`: its database is closed and no call of it or
    /// of its services (`meals()`, `planner()`, ...) runs any more. Open a new `Coach`.
    #[error("closed: {detail}")]
    Closed {
        /// What was refused.
        detail: String,
    },
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
            Self::DatabaseCorrupt { .. } => "database_corrupt",
            Self::ReadOnly { .. } => "read_only",
            Self::WrongKey { .. } => "wrong_key",
            Self::DatabaseEncrypted { .. } => "database_encrypted",
            Self::DatabaseNotEncrypted { .. } => "database_not_encrypted",
            Self::EncryptionUnavailable { .. } => "encryption_unavailable",
            Self::NotFound { .. } => "not_found",
            Self::JobNotComplete { .. } => "job_not_complete",
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
            Self::DatabaseNotEmpty { .. } => "database_not_empty",
            Self::UndoConflict { .. } => "undo_conflict",
            Self::Closed { .. } => "closed",
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
            | Self::DatabaseCorrupt { detail }
            | Self::ReadOnly { detail }
            | Self::WrongKey { detail }
            | Self::DatabaseEncrypted { detail }
            | Self::DatabaseNotEncrypted { detail }
            | Self::EncryptionUnavailable { detail }
            | Self::NotFound { detail }
            | Self::JobNotComplete { detail, .. }
            | Self::ModelUnusable { detail }
            | Self::ModelOutputRejected { detail, .. }
            | Self::ModelFailure { detail }
            | Self::InvalidArgument { detail }
            | Self::OperationsRejected { detail, .. }
            | Self::DatabaseNotEmpty { detail }
            | Self::Closed { detail }
            | Self::Internal { detail } => detail.clone(),
            Self::DatabaseTooNew { .. }
            | Self::InsufficientMemory { .. }
            | Self::ContextOverflow { .. }
            | Self::Cancelled
            | Self::TimedOut { .. }
            | Self::ModelUnavailable { .. }
            | Self::IdempotencyConflict
            | Self::UndoConflict { .. } => self.to_string(),
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
}
