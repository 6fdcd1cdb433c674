//! Encryption at rest (feature `encryption`: SQLCipher in place of plain SQLite).
//!
//! The key is 32 raw bytes ([`DatabaseKey`]), handed to SQLCipher in its raw-key form
//! (`x'…'`): no passphrase derivation runs when a file opens, so a key must come from a random
//! source (the app makes it once and keeps it in the Keychain or the Android Keystore).
//!
//! A connection is keyed right after SQLite opens it and before anything reads the file (the
//! first-open checks, the WAL switch, `quick_check`, the migrations), on every connection
//! [`Store::open_encrypted`] makes (read-write or read-only). Refusals leave the file
//! byte-identical: a key given for a plain SQLite file is [`Error::DatabaseNotEncrypted`] (seen
//! from its header before SQLite opens it); a key that does not decrypt the first page is
//! [`Error::WrongKey`]; a file opened without a key whose first page is indistinguishable from
//! random bytes (SQLCipher's pages are, a plain database's header never is) is
//! [`Error::DatabaseEncrypted`]. A build without the feature refuses every key with
//! [`Error::EncryptionUnavailable`] before touching the file.
//!
//! [`Store::rekey`] re-encrypts every page under a new key in one transaction (SQLCipher's
//! `PRAGMA rekey`), then truncates the write-ahead log so no page under the old key stays on
//! disk. [`Store::copy_to`] writes the whole database into a new file under another key, or
//! none (`sqlcipher_export`; `VACUUM INTO` in a build without encryption): how an app encrypts
//! the plain database it has, or decrypts one for a support case.

use std::io::Read;
use std::path::Path;

use rusqlite::Connection;

use crate::kernel::error::{Error, Result};

/// Whether this build can encrypt (it was built with the feature `encryption`).
pub const ENCRYPTION_AVAILABLE: bool = cfg!(feature = "encryption");

/// The first 16 bytes of every plain SQLite database file.
const PLAIN_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// How many bytes of a file's start [`looks_encrypted`] weighs.
const SAMPLE: usize = 4096;

/// A database key: exactly 32 raw bytes (256 bits), made by a random generator
/// (`SecRandomCopyBytes` on iOS, `SecureRandom` on Android) and kept by the app in the Keychain or
/// the Keystore. Its bytes are overwritten with zeros when it is dropped, and `Debug` never shows
/// them.
pub struct DatabaseKey(Box<[u8; DatabaseKey::LEN]>);

impl DatabaseKey {
    /// The length of a key in bytes.
    pub const LEN: usize = 32;

    /// A key from its 32 bytes; any other length is [`Error::InvalidArgument`] (the message gives
    /// the length, never the bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<DatabaseKey> {
        let mut key = Box::new([0u8; Self::LEN]);
        if bytes.len() != Self::LEN {
            return Err(Error::InvalidArgument(format!(
                "a database key is {} bytes, not {}",
                Self::LEN,
                bytes.len()
            )));
        }
        key.copy_from_slice(bytes);
        Ok(DatabaseKey(key))
    }

    /// [`DatabaseKey::from_bytes`] that also overwrites `bytes` with zeros (a key handed across
    /// the FFI arrives in a buffer of its own).
    pub fn from_vec(mut bytes: Vec<u8>) -> Result<DatabaseKey> {
        let key = Self::from_bytes(&bytes);
        wipe(&mut bytes);
        key
    }

    /// A key from 64 hexadecimal digits (the C API and the CLI's `COACH_DB_KEY`); anything else
    /// is [`Error::InvalidArgument`] without quoting the text.
    pub fn from_hex(text: &str) -> Result<DatabaseKey> {
        let text = text.trim();
        let invalid = || {
            Error::InvalidArgument(format!(
                "a database key is {} hexadecimal digits ({} bytes)",
                2 * Self::LEN,
                Self::LEN
            ))
        };
        if text.len() != 2 * Self::LEN || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(invalid());
        }
        let mut key = Box::new([0u8; Self::LEN]);
        for (i, pair) in text.as_bytes().chunks(2).enumerate() {
            let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
            key[i] = digit(pair[0]) << 4 | digit(pair[1]);
        }
        Ok(DatabaseKey(key))
    }

    /// SQLCipher's raw-key literal, `x'<64 hex digits>'`, in a buffer zeroed when dropped.
    #[cfg_attr(not(feature = "encryption"), allow(dead_code))]
    pub(super) fn literal(&self) -> Secret {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        let mut text = String::with_capacity(3 + 2 * Self::LEN);
        text.push_str("x'");
        for b in self.0.iter() {
            text.push(HEX[usize::from(b >> 4)] as char);
            text.push(HEX[usize::from(b & 15)] as char);
        }
        text.push('\'');
        Secret(text)
    }
}

impl std::fmt::Debug for DatabaseKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DatabaseKey(..)")
    }
}

impl Drop for DatabaseKey {
    fn drop(&mut self) {
        wipe(&mut self.0[..]);
    }
}

/// Text holding key material, overwritten with zeros when dropped.
pub(super) struct Secret(pub(super) String);

impl Drop for Secret {
    fn drop(&mut self) {
        // SAFETY: zero bytes are valid UTF-8, so the string stays valid.
        wipe(unsafe { self.0.as_bytes_mut() });
    }
}

/// Overwrites `bytes` with zeros in a way the compiler does not remove as a dead store.
fn wipe(bytes: &mut [u8]) {
    for b in bytes.iter_mut() {
        // SAFETY: `b` is a valid, aligned, exclusive reference.
        unsafe { std::ptr::write_volatile(b, 0) };
    }
    std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
}

/// Initialises SQLite once, before the library opens its first connection. SQLCipher registers
/// `sqlcipher_export` (used by [`Store::copy_to`]) for every new connection at the end of SQLite's
/// initialisation, after SQLite already counts as initialised: a connection another thread opened
/// in between would lack it. Every open of the store waits here until initialisation is complete.
pub(super) fn initialize() {
    #[cfg(feature = "encryption")]
    {
        static INIT: std::sync::Once = std::sync::Once::new();
        // SAFETY: `sqlite3_initialize` may be called at any time, from any thread.
        INIT.call_once(|| unsafe {
            rusqlite::ffi::sqlite3_initialize();
        });
    }
}

/// Refuses a key in a build without encryption, and a key for a plain SQLite file (seen from its
/// header, before SQLite opens it).
pub(super) fn check_before_open(path: &Path, key: Option<&DatabaseKey>) -> Result<()> {
    if key.is_none() {
        return Ok(());
    }
    if !ENCRYPTION_AVAILABLE {
        return Err(Error::EncryptionUnavailable);
    }
    if header(path).as_deref() == Some(&PLAIN_HEADER[..]) {
        return Err(Error::DatabaseNotEncrypted);
    }
    Ok(())
}

/// Keys `conn` before anything reads the file.
#[cfg(feature = "encryption")]
pub(super) fn apply_key(conn: &Connection, key: &DatabaseKey) -> Result<()> {
    // SQLCipher's own log (stderr on Linux, the device log on Apple and Android) reports every
    // key that fails as an error; the library reports it as `WrongKey`. The setting is global to
    // the process: turned off once.
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| {
        let _ = conn.execute_batch("PRAGMA cipher_log = off");
    });
    let literal = key.literal();
    let sql = Secret(format!("PRAGMA key = \"{}\"", literal.0));
    conn.execute_batch(&sql.0)?;
    Ok(())
}

#[cfg(not(feature = "encryption"))]
pub(super) fn apply_key(_conn: &Connection, _key: &DatabaseKey) -> Result<()> {
    Err(Error::EncryptionUnavailable)
}

/// The error of a refused open, told apart: SQLite's "not a database" on a keyed connection is a
/// wrong key; on a connection without one, for a file that looks encrypted, a missing key.
pub(super) fn explain_refusal(e: Error, path: &Path, keyed: bool) -> Error {
    match e {
        Error::NotADatabase(_) if keyed => Error::WrongKey,
        Error::NotADatabase(_) if looks_encrypted(path) => Error::DatabaseEncrypted,
        other => other,
    }
}

/// The first 16 bytes of the file, if it has that many.
fn header(path: &Path) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(16);
    std::fs::File::open(path)
        .ok()?
        .take(16)
        .read_to_end(&mut bytes)
        .ok()?;
    (bytes.len() == 16).then_some(bytes)
}

/// Whether the file is what SQLCipher writes: whole pages (a multiple of 512 bytes, at least
/// 4096), not starting with SQLite's plain header, and a first 4096 bytes whose byte counts fit
/// random data (Pearson's chi-square over the 256 values between 150 and 400; random bytes give
/// 255 ± 23). Text, images' headers, zero runs and counting patterns fall far outside that band;
/// a file of random bytes would be taken for an encrypted one, which is what it looks like.
pub(crate) fn looks_encrypted(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if meta.len() < SAMPLE as u64 || meta.len() % 512 != 0 {
        return false;
    }
    let mut sample = Vec::with_capacity(SAMPLE);
    let read =
        std::fs::File::open(path).and_then(|f| f.take(SAMPLE as u64).read_to_end(&mut sample));
    if read.is_err() || sample.len() < SAMPLE || sample.starts_with(PLAIN_HEADER) {
        return false;
    }
    (150.0..=400.0).contains(&chi_square(&sample))
}

/// Pearson's chi-square of `bytes`' value counts against a uniform distribution.
fn chi_square(bytes: &[u8]) -> f64 {
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[usize::from(b)] += 1;
    }
    let expected = bytes.len() as f64 / 256.0;
    counts
        .iter()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_32_bytes_or_64_hex_digits() {
        assert!(DatabaseKey::from_bytes(&[7; 32]).is_ok());
        for bad in [&[7u8; 31][..], &[7; 33], &[]] {
            assert!(matches!(
                DatabaseKey::from_bytes(bad),
                Err(Error::InvalidArgument(_))
            ));
        }
        let hex = "00ff".repeat(16);
        let key = DatabaseKey::from_hex(&hex).unwrap();
        assert_eq!(key.0[..2], [0x00, 0xff]);
        assert_eq!(key.literal().0, format!("x'{}'", hex.to_uppercase()));
        for bad in [
            "",
            "zz".repeat(32).as_str(),
            &hex[..62],
            &format!("{hex}00"),
        ] {
            let e = DatabaseKey::from_hex(bad).unwrap_err();
            assert!(!e.to_string().contains("zz"), "{e}");
        }
        assert_eq!(format!("{key:?}"), "DatabaseKey(..)");
    }

    #[test]
    fn only_random_looking_pages_look_encrypted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let random: Vec<u8> = (0..8192)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 24) as u8
            })
            .collect();
        std::fs::write(&path, &random).unwrap();
        assert!(
            looks_encrypted(&path),
            "chi2 {}",
            chi_square(&random[..SAMPLE])
        );
        // The garbage files other tests refuse as not a database: counting patterns, text.
        let cases: [Vec<u8>; 4] = [
            (0..4096u32).map(|i| (i % 256) as u8).collect(),
            (0..8192u32).map(|i| (i * 7919 % 251) as u8).collect(),
            (0..4096u32).map(|i| ((i * 37 + 11) % 251) as u8).collect(),
            b"{\"focus\": \"not a database\"}".repeat(200)[..4096].to_vec(),
        ];
        for bytes in cases {
            std::fs::write(&path, &bytes).unwrap();
            assert!(
                !looks_encrypted(&path),
                "chi2 {}",
                chi_square(&bytes[..SAMPLE])
            );
        }
        // Random bytes, but not whole pages, or too short.
        std::fs::write(&path, &random[..5000]).unwrap();
        assert!(!looks_encrypted(&path));
        std::fs::write(&path, &random[..2048]).unwrap();
        assert!(!looks_encrypted(&path));
    }
}
