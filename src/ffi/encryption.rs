//! Encryption at rest: opening an encrypted database, rekeying it, copying a database under
//! another key (`src/db/cipher.rs`; feature `encryption`).

use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use crate::db::{DatabaseKey, Store, ENCRYPTION_AVAILABLE};
use crate::ffi::data::UserData;
use crate::ffi::OpenOptions;
use crate::kernel::clock::SystemClock;
use crate::kernel::error::CoachError;
use crate::Coach;

#[uniffi::export]
impl Coach {
    /// Opens the encrypted database file at `db_path` with `key` (SQLCipher), creating it
    /// encrypted if absent, as `open` does a plain one.
    ///
    /// `key` is exactly 32 random bytes: make it once (`SecRandomCopyBytes` on iOS,
    /// `SecureRandom` on Android), keep it in the Keychain (iOS) or wrapped by an Android Keystore
    /// key, and pass the same bytes at every open. It is used as a raw key (no passphrase
    /// derivation, so opening costs no extra time); a passphrase must be turned into 32 bytes by
    /// the app. Throws, leaving the file byte-identical: `WrongKey` (the key does not open it),
    /// `DatabaseNotEncrypted` (a plain database: open it with `open`, or write an encrypted copy
    /// with `data().copy`), `EncryptionUnavailable` (a build without the feature
    /// `encryption`), `InvalidArgument` (a key that is not 32 bytes); and every error of `open`.
    #[uniffi::constructor]
    pub fn open_encrypted(db_path: String, key: Vec<u8>) -> Result<Arc<Coach>, CoachError> {
        Coach::open_with_key(db_path, &DatabaseKey::from_vec(key)?)
    }
}

#[uniffi::export]
impl UserData {
    /// Whether this database was opened with a key (`openEncrypted`).
    pub fn is_encrypted(&self) -> bool {
        self.store.is_encrypted()
    }

    /// Re-encrypts the whole database under `new_key` (32 bytes) in one transaction; afterwards
    /// only `new_key` opens the file. Store the new key before calling, and keep the old one until
    /// this returns: a crash in between leaves the file under one of the two. Reads every page:
    /// call it from a background thread. Another process with the file open must reopen it with
    /// the new key. Throws `DatabaseNotEncrypted` for a database opened with `open`,
    /// `EncryptionUnavailable`, `InvalidArgument` (key length), `ReadOnly`, `DatabaseCorrupt`.
    pub fn rekey(&self, new_key: Vec<u8>) -> Result<(), CoachError> {
        self.rekey_with(&DatabaseKey::from_vec(new_key)?)
    }

    /// Writes the whole database into a new file at `dest_path`, encrypted with `key` (32 bytes)
    /// or plain without one; open the copy with `openEncrypted` (or `open`). This is how an app
    /// that kept a plain database turns encryption on: copy, open the copy, then delete the old
    /// file (and its `-wal` and `-shm`) itself. Nothing is overwritten: a file at `dest_path`
    /// throws `InvalidArgument`; a copy that fails is removed. Throws `EncryptionUnavailable` for
    /// a key in a build without the feature `encryption`.
    pub fn copy(&self, dest_path: String, key: Option<Vec<u8>>) -> Result<(), CoachError> {
        let key = key.map(DatabaseKey::from_vec).transpose()?;
        self.copy_with(&dest_path, key.as_ref())
    }
}

/// [`Coach::open_encrypted`] with a key already made: for the C API, the CLI and Rust callers.
impl Coach {
    /// [`Coach::open_encrypted`] with a key already made.
    pub fn open_with_key(db_path: String, key: &DatabaseKey) -> Result<Arc<Coach>, CoachError> {
        Coach::open_with_key_options(db_path, key, &OpenOptions::default())
    }

    /// [`Coach::open_with_key`] with `options`.
    pub fn open_with_key_options(
        db_path: String,
        key: &DatabaseKey,
        options: &OpenOptions,
    ) -> Result<Arc<Coach>, CoachError> {
        Ok(Arc::new(Coach::with_store_options(
            Store::open_encrypted(db_path, key)?,
            Arc::new(SystemClock),
            options,
        )))
    }
}

/// The same calls with a [`DatabaseKey`]: for the C API, the CLI and Rust callers.
impl UserData {
    /// [`UserData::rekey`] with a key already made.
    pub fn rekey_with(&self, new_key: &DatabaseKey) -> Result<(), CoachError> {
        Ok(self.store.rekey(new_key)?)
    }

    /// [`UserData::copy`] with a key already made.
    pub fn copy_with(&self, dest_path: &str, key: Option<&DatabaseKey>) -> Result<(), CoachError> {
        Ok(self.store.copy_to(Path::new(dest_path), key)?)
    }
}

/// Whether this build of the library can open encrypted databases (it was built with the feature
/// `encryption`). Without it `openEncrypted` throws `EncryptionUnavailable`.
#[uniffi::export]
pub fn encryption_available() -> bool {
    ENCRYPTION_AVAILABLE
}

/// The configuration of the C API's `coach_open_with`: `{"dbPath": P, "key": K,
/// "builtinRecipes": B}`, all optional; `key` is 64 hexadecimal digits, `builtinRecipes` as in
/// [`OpenOptions`] (default `true`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OpenConfig {
    #[serde(default)]
    db_path: Option<String>,
    #[serde(default)]
    key: Option<String>,
    #[serde(default = "yes")]
    builtin_recipes: bool,
}

fn yes() -> bool {
    true
}

/// The request of the C API's `data.rekey`: `{"key": K}`, the new key as 64 hexadecimal digits.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyRequest {
    key: String,
}

/// The request of the C API's `data.copy`: `{"destPath": P, "key": K}` (`key` optional).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CopyRequest {
    dest_path: String,
    #[serde(default)]
    key: Option<String>,
}

/// The C API's calls: keys as hexadecimal text.
impl Coach {
    /// `coach_open_with`: a file (encrypted with `key` if given), or an in-memory database
    /// without `dbPath` (a key is then refused: nothing would be encrypted).
    pub fn open_config(config: OpenConfig) -> Result<Arc<Coach>, CoachError> {
        let options = OpenOptions {
            builtin_recipes: config.builtin_recipes,
        };
        match (config.db_path, config.key) {
            (None, None) => Coach::open_in_memory_with_options(options),
            (None, Some(_)) => Err(crate::kernel::error::Error::InvalidArgument(
                "a key needs a dbPath (an in-memory database is not encrypted)".into(),
            )
            .into()),
            (Some(path), None) => Coach::open_with_options(path, options),
            (Some(path), Some(key)) => {
                Coach::open_with_key_options(path, &DatabaseKey::from_hex(&key)?, &options)
            }
        }
    }
}

/// The C API's calls: keys as hexadecimal text.
impl UserData {
    /// `data.rekey`.
    pub fn rekey_request(&self, request: KeyRequest) -> Result<(), CoachError> {
        self.rekey_with(&DatabaseKey::from_hex(&request.key)?)
    }

    /// `data.copy`.
    pub fn copy_request(&self, request: CopyRequest) -> Result<(), CoachError> {
        let key = request
            .key
            .as_deref()
            .map(DatabaseKey::from_hex)
            .transpose()?;
        self.copy_with(&request.dest_path, key.as_ref())
    }
}
