-- Issue 24: the user's pantry staples (salt, olive oil, ...), which shopping lists leave out.
-- One row per staple, matched by `key` (the name lowercase, the last word singular: see
-- meals::shopping::item_key); `position` keeps the order the app gave.

CREATE TABLE pantry_staples (
    key        TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    position   INTEGER NOT NULL,
    created_ms INTEGER NOT NULL
) WITHOUT ROWID;
