//! The CLI's input and output: printing (what `out!` calls), stdin read under a cap, the database
//! `--db` opens, usage errors and the error JSON.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use coachcore::kernel::error::ErrorJson;
use coachcore::{Coach, CoachError, OpenOptions, SchemaVersion};

/// A usage error: the message printed with the usage text.
pub(crate) struct Usage(pub(crate) String);

/// State of stdout: writable, closed by the reader (quietly stop printing), or failed otherwise.
static STDOUT: AtomicU8 = AtomicU8::new(STDOUT_OK);
const STDOUT_OK: u8 = 0;
const STDOUT_CLOSED: u8 = 1;
const STDOUT_FAILED: u8 = 2;

/// Whether writing stdout failed (other than the reader closing it).
pub(crate) fn stdout_failed() -> bool {
    STDOUT.load(Ordering::Relaxed) == STDOUT_FAILED
}

/// Whether stdout (descriptor 1) was closed when the process started (`coach … >&-`). Rust's
/// runtime opens `/dev/null` on a closed standard descriptor before `main`, after which every
/// line would vanish without an error: so this is recorded earlier, by [`record_stdout`], which
/// the loader runs with the program's initialisers (Linux, Android, Apple platforms; elsewhere
/// stdout counts as open).
pub(crate) fn stdout_closed_at_start() -> bool {
    STDOUT_CLOSED_AT_START.load(Ordering::Relaxed)
}

static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn record_stdout() {
    // SAFETY: F_GETFD on a descriptor number only reads the process's descriptor table.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// [`record_stdout`] among the initialisers the loader runs before the runtime starts.
#[cfg(unix)]
#[used]
#[cfg_attr(
    any(target_os = "linux", target_os = "android"),
    link_section = ".init_array"
)]
#[cfg_attr(target_vendor = "apple", link_section = "__DATA,__mod_init_func")]
static RECORD_STDOUT: extern "C" fn() = record_stdout;

/// Prints one line on stdout (what `out!` calls).
pub(crate) fn emit(line: std::fmt::Arguments<'_>) {
    if STDOUT.load(Ordering::Relaxed) != STDOUT_OK {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_fmt(line)
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush())
    {
        let state = if e.kind() == std::io::ErrorKind::BrokenPipe {
            STDOUT_CLOSED
        } else {
            err_out!("coach: cannot write the output: {e}");
            STDOUT_FAILED
        };
        STDOUT.store(state, Ordering::Relaxed);
    }
}

/// The value of a required flag; a usage error without it.
pub(crate) fn required<'a>(
    f: &std::collections::HashMap<String, &'a str>,
    flag: &str,
) -> Result<&'a str, Usage> {
    f.get(flag)
        .copied()
        .ok_or_else(|| Usage(format!("{flag} is required")))
}

/// The value of an optional number flag (`--seed`, `--limit`, `--performed-at-ms`); a usage error
/// when it is not a number of that kind.
pub(crate) fn number<T: std::str::FromStr>(
    f: &std::collections::HashMap<String, &str>,
    flag: &str,
) -> Result<Option<T>, Usage> {
    f.get(flag)
        .map(|s| {
            s.parse::<T>()
                .map_err(|_| Usage(format!("{flag} must be a whole number in range")))
        })
        .transpose()
}

pub(crate) fn version(s: &str) -> Result<SchemaVersion, Usage> {
    SchemaVersion::parse(s).ok_or_else(|| {
        Usage(format!(
            "unknown schema version {s:?} (v1-current or v2-flat)"
        ))
    })
}

/// The environment variable that holds the database key (64 hexadecimal digits) for `--db`:
/// never an argument, which other users of the machine can read in the process list.
const KEY_VARIABLE: &str = "COACH_DB_KEY";

/// `--days-per-week N` (1 to 7 is checked by the library), if given.
pub(crate) fn days_per_week(f: &HashMap<String, &str>) -> Result<Option<u32>, Usage> {
    f.get("--days-per-week")
        .map(|v| {
            v.parse::<u32>()
                .map_err(|_| Usage("--days-per-week: a number of days, 1 to 7".into()))
        })
        .transpose()
}

/// The environment variable that leaves the built-in recipes out: `COACH_BUILTIN_RECIPES=off`.
const BUILTIN_VARIABLE: &str = "COACH_BUILTIN_RECIPES";

/// The open options: the built-in recipes unless `COACH_BUILTIN_RECIPES` is `off`, `0` or
/// `false`.
fn open_options() -> OpenOptions {
    let off = std::env::var(BUILTIN_VARIABLE).is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "off" | "0" | "false"
        )
    });
    OpenOptions {
        builtin_recipes: !off,
    }
}

/// The database of `--db` ([`open_file`]), or an in-memory one without `--db`.
pub(crate) fn open(db: Option<&&str>) -> Result<Arc<Coach>, CoachError> {
    match db {
        Some(path) => open_file(path),
        None => Coach::open_in_memory_with_options(open_options()),
    }
}

/// The database file at `path`, encrypted with the key in `COACH_DB_KEY` when that is set. Set but
/// empty, blank or not 64 hexadecimal digits is `invalid_argument` before anything is opened:
/// never taken for no key, which would store in plaintext what was meant to be encrypted.
pub(crate) fn open_file(path: &str) -> Result<Arc<Coach>, CoachError> {
    match std::env::var_os(KEY_VARIABLE) {
        Some(hex) => {
            let hex = hex.to_str().unwrap_or_default();
            let key = coachcore::db::DatabaseKey::from_hex(hex).map_err(CoachError::from)?;
            Coach::open_with_key_options(path.to_string(), &key, &open_options())
        }
        None => Coach::open_with_options(path.to_string(), open_options()),
    }
}

pub(crate) fn print_error(e: &CoachError) -> ExitCode {
    out!("{}", e.to_json().to_response());
    match e {
        CoachError::InvalidModelOutput { .. } | CoachError::ModelOutputRejected { .. } => {
            ExitCode::from(2)
        }
        _ => ExitCode::from(1),
    }
}

/// Exit code of an ops command's error: 2 when the input was refused, 1 otherwise.
pub(crate) fn print_ops_error(e: &CoachError) -> ExitCode {
    out!("{}", e.to_json().to_response());
    match e {
        CoachError::InvalidArgument { .. }
        | CoachError::OperationsRejected { .. }
        | CoachError::IdempotencyConflict
        | CoachError::UndoConflict { .. } => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}

/// Reads at most `cap` bytes of `reader` (it stops reading there): `None` when it holds more.
fn read_capped(reader: impl Read, cap: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    reader.take(cap as u64 + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() <= cap).then_some(bytes))
}

/// Bytes read by [`read_capped`] as text: `invalid_argument` when there were more than `cap` or
/// they are not UTF-8; `what` names the input in the detail (`the input`, `the --request file`).
fn capped_text(bytes: Option<Vec<u8>>, what: &str, cap: usize) -> Result<String, CoachError> {
    let invalid = |detail: String| CoachError::InvalidArgument { detail };
    match bytes {
        None => Err(invalid(format!("{what} is larger than {cap} bytes"))),
        Some(bytes) => {
            String::from_utf8(bytes).map_err(|_| invalid(format!("{what} is not UTF-8 text")))
        }
    }
}

/// Reads stdin, at most `cap` bytes (it stops reading there): `None` when the input is larger.
pub(crate) fn read_stdin_bytes(cap: usize) -> Result<Option<Vec<u8>>, Usage> {
    read_capped(std::io::stdin().lock(), cap).map_err(|_| Usage("cannot read stdin".into()))
}

/// Reads stdin as text of at most `cap` bytes; input that is larger or not UTF-8 prints the
/// `invalid_argument` error JSON and gives exit 1 (the inner `Err`).
pub(crate) fn stdin_or_refuse(cap: usize) -> Result<Result<String, ExitCode>, Usage> {
    Ok(read_stdin(cap)?.map_err(|e| {
        out!("{}", e.to_response());
        ExitCode::from(1)
    }))
}

/// Reads stdin as text of at most `cap` bytes. Input that is larger or not UTF-8 is the error
/// JSON to print (`invalid_argument`); a usage error only when stdin cannot be read at all.
pub(crate) fn read_stdin(cap: usize) -> Result<Result<String, ErrorJson>, Usage> {
    let bytes = read_stdin_bytes(cap)?;
    Ok(capped_text(bytes, "the input", cap).map_err(|e| e.to_json()))
}

/// The text of the file a flag names (`--request`, `--script`), read no further than `cap` bytes
/// (a device, a sparse file or a pipe that never ends included). A usage error when it cannot be
/// opened or read; `invalid_argument` (the inner `Err`) when it is larger or not UTF-8.
pub(crate) fn read_file(
    flag: &str,
    path: &str,
    cap: usize,
) -> Result<Result<String, CoachError>, Usage> {
    let unreadable = |e: std::io::Error| Usage(format!("cannot read the {flag} file: {e}"));
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let bytes = read_capped(file, cap).map_err(unreadable)?;
    Ok(capped_text(bytes, &format!("the {flag} file"), cap))
}
