//! The C API's request parsing: `coach_call` with any method name and any request on a database
//! file in a temporary folder (`COACH_FUZZ_DIR`, which `fuzz/run.sh` makes and removes; else one
//! under the system's temporary folder), opened once per process. The input is
//! `METHOD\nREQUEST` (no newline: the whole input is the method and the request is `{}`); a NUL
//! byte ends the C string there, as it would for a C caller.
//!
//! Every method runs except `model.load`, which opens the file its request names. Writes
//! persist between inputs, so later inputs meet a database earlier ones filled (a crash found
//! this way is replayed on a fresh database by `cargo fuzz run capi_call ARTIFACT`).
//! Checked: no panic (the C API would turn one into `internal`; here it aborts), the result is
//! never NULL and is `{"ok": ...}` or `{"error": {...}}`, and an error is short.
//!
//! Shared by the fuzz target (`fuzz/fuzz_targets/capi_call.rs`) and the replay of its seed corpus
//! in the ordinary tests (`tests/it/fuzz_replay.rs`).

use std::ffi::{c_char, CStr, CString};
use std::sync::OnceLock;

use coachcore::capi::{coach_call, coach_open, coach_string_free, CoachHandle};

/// The handle, as an address (a handle may be used from any thread).
fn handle() -> *const CoachHandle {
    static HANDLE: OnceLock<usize> = OnceLock::new();
    *HANDLE.get_or_init(|| {
        let dir = std::env::var_os("COACH_FUZZ_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| {
                std::env::temp_dir().join(format!("coachcore-fuzz-{}", std::process::id()))
            });
        std::fs::create_dir_all(&dir).expect("the fuzz folder");
        let path = dir.join(format!("capi-{}.db", std::process::id()));
        let path = CString::new(path.to_str().expect("a UTF-8 path")).expect("no NUL in the path");
        // SAFETY: a NUL-terminated path; NULL error out-pointer is allowed.
        let h = unsafe { coach_open(path.as_ptr(), std::ptr::null_mut()) };
        assert!(!h.is_null(), "coach_open failed on a new file");
        h as usize
    }) as *const CoachHandle
}

/// `s` up to its first NUL byte, as a C string.
fn c_string(s: &[u8]) -> CString {
    let end = s.iter().position(|&b| b == 0).unwrap_or(s.len());
    CString::new(&s[..end]).expect("no NUL before end")
}

/// One input: panics (a failed check) when the library misbehaves on it.
pub fn run(data: &[u8]) {
    let (method, request) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b"{}"[..]),
    };
    if method == b"model.load" {
        return;
    }
    let method = c_string(method);
    let request = c_string(request);
    // SAFETY: a live handle and NUL-terminated strings; the result is freed once below.
    let out: *mut c_char = unsafe { coach_call(handle(), method.as_ptr(), request.as_ptr()) };
    assert!(!out.is_null(), "coach_call returned NULL");
    // SAFETY: a NUL-terminated string from the library, freed after reading.
    let text = unsafe { CStr::from_ptr(out) }.to_str().map(str::to_owned);
    unsafe { coach_string_free(out) };
    let text = text.expect("the result is UTF-8");
    let v: serde_json::Value = serde_json::from_str(&text).expect("the result is JSON");
    let obj = v.as_object().expect("the result is an object");
    assert_eq!(obj.len(), 1, "one key: ok or error");
    if let Some(e) = obj.get("error") {
        assert!(
            e.get("code").and_then(|c| c.as_str()).is_some(),
            "an error has a code"
        );
        assert!(text.len() <= 4096, "error of {} bytes", text.len());
    } else {
        assert!(obj.contains_key("ok"), "neither ok nor error");
    }
}
