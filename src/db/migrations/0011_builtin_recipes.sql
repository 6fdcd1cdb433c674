-- Issue 24: the built-in recipes the library ships (data/recipes/core.json, embedded).
--
-- `recipes.builtin` is 1 for a core recipe loaded from the library's own set, 0 for every other
-- row (user recipes, staged copies, core recipes the app imported). Loading a new set replaces
-- and removes rows with `builtin = 1` only; an id held by any other row is left to that row.
-- Rows with `builtin = 1` are the library's, not the user's: an import of an export document
-- replaces them, and a database holding only them counts as empty.
ALTER TABLE recipes ADD COLUMN builtin INTEGER NOT NULL DEFAULT 0 CHECK (builtin IN (0, 1));

-- Which version of a built-in set the file holds (one row per set; the recipes' set is named
-- 'recipes'). Library state, not user data: neither exported nor imported.
CREATE TABLE builtin_sets (
    name      TEXT PRIMARY KEY,
    version   TEXT NOT NULL,
    loaded_ms INTEGER NOT NULL
) WITHOUT ROWID;

-- Core recipes this user hid: never among search results or a plan's candidates. Ids may name a
-- recipe that is gone (a removed built-in): it stays hidden if it comes back.
CREATE TABLE hidden_recipes (
    recipe_id TEXT PRIMARY KEY,
    hidden_ms INTEGER NOT NULL
) WITHOUT ROWID;
