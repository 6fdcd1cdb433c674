//! Column encodings: enumerations as their JSON spellings (`regular`, `increaseWeight`), nested
//! records as JSON text.

use rusqlite::types::Type;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// An enumeration's spelling, e.g. `SetType::Regular` -> `regular`.
pub(crate) fn text<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

fn bad(col: usize, e: serde_json::Error) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(col, Type::Text, Box::new(e))
}

/// Parses an enumeration's spelling read from column `col` (straight from the text: no JSON value
/// is built, it runs for every enum cell of every row read).
pub(crate) fn from_text<T: DeserializeOwned>(s: &str, col: usize) -> rusqlite::Result<T> {
    use serde::de::IntoDeserializer;
    let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> = s.into_deserializer();
    T::deserialize(de)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(col, Type::Text, Box::new(e)))
}

/// A record as JSON text.
pub(crate) fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Parses JSON text read from column `col`.
pub(crate) fn from_json<T: DeserializeOwned>(s: &str, col: usize) -> rusqlite::Result<T> {
    serde_json::from_str(s).map_err(|e| bad(col, e))
}
