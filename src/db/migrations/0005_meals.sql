-- Spec 003: recipes (the user's book, the core registry, staged copies), their full-text index,
-- the meal history and meal-plan jobs.
--
-- One table holds every source (`source` column); ids are unique across sources. Lists are JSON
-- text (`tags_json`, `ingredients_json`); what search filters on is in plain columns:
--   meal_types   bit mask, bit 0 = breakfast ... bit 4 = dessert
--   diets        bit mask of the diets as given (bit 0 vegetarian, 1 vegan, 2 pescatarian,
--                3 glutenFree, 4 dairyFree, 5 nutFree)
--   diet_mask    the same with implied diets added (vegan -> vegetarian, dairyFree;
--                vegetarian -> pescatarian): a request for diet D needs `diet_mask & D = D`
--   ingredient_text  lowercase ingredient names joined by ' | ', for excluded-ingredient checks
-- Staged copies (`source = 'stage'`) name the core recipe they copy (`origin_id`) and expire at
-- `expires_ms` unless kept (then NULL). They are not in the full-text index: search reads user
-- and core recipes only.

CREATE TABLE recipes (
    rowid            INTEGER PRIMARY KEY,
    id               TEXT NOT NULL UNIQUE,
    source           TEXT NOT NULL CHECK (source IN ('user', 'core', 'stage')),
    title            TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    meal_types       INTEGER NOT NULL CHECK (meal_types BETWEEN 1 AND 31),
    diets            INTEGER NOT NULL DEFAULT 0,
    diet_mask        INTEGER NOT NULL DEFAULT 0,
    tags_json        TEXT NOT NULL DEFAULT '[]',
    ingredients_json TEXT NOT NULL DEFAULT '[]',
    ingredient_text  TEXT NOT NULL DEFAULT '',
    prep_minutes     INTEGER NOT NULL CHECK (prep_minutes BETWEEN 0 AND 1440),
    cook_minutes     INTEGER NOT NULL CHECK (cook_minutes BETWEEN 0 AND 1440),
    servings         INTEGER NOT NULL CHECK (servings BETWEEN 1 AND 100),
    origin_id        TEXT,
    expires_ms       INTEGER,
    created_ms       INTEGER NOT NULL,
    updated_ms       INTEGER NOT NULL
);
-- Search without a text condition walks this in rank order (user recipes first, then by id).
CREATE INDEX recipes_rank ON recipes ((source = 'core'), id) WHERE source <> 'stage';
-- Cleanup of expired staged copies.
CREATE INDEX recipes_stage_expiry ON recipes (expires_ms) WHERE source = 'stage';

-- Full-text index over title, description, tags and ingredient names (Porter stemming, so `egg`
-- finds `eggs`), kept in step with `recipes` by the triggers below. Its rowid is the recipe's.
CREATE VIRTUAL TABLE recipes_fts USING fts5(
    title, description, tags, ingredients,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER recipes_fts_insert AFTER INSERT ON recipes WHEN new.source <> 'stage' BEGIN
    INSERT INTO recipes_fts (rowid, title, description, tags, ingredients)
    VALUES (new.rowid, new.title, new.description, new.tags_json, new.ingredient_text);
END;
CREATE TRIGGER recipes_fts_delete AFTER DELETE ON recipes BEGIN
    DELETE FROM recipes_fts WHERE rowid = old.rowid;
END;
CREATE TRIGGER recipes_fts_update AFTER UPDATE ON recipes BEGIN
    DELETE FROM recipes_fts WHERE rowid = old.rowid;
    INSERT INTO recipes_fts (rowid, title, description, tags, ingredients)
    SELECT new.rowid, new.title, new.description, new.tags_json, new.ingredient_text
     WHERE new.source <> 'stage';
END;

-- Meals the user ate or will eat: confirmed plans (`origin = 'plan'`) and single logged meals
-- (`origin = 'log'`). Title, tags and protein are copied so the history outlives the recipe.
CREATE TABLE meal_history (
    seq        INTEGER PRIMARY KEY,
    date       TEXT NOT NULL,                 -- YYYY-MM-DD
    meal_type  TEXT NOT NULL
               CHECK (meal_type IN ('breakfast', 'lunch', 'dinner', 'snack', 'dessert')),
    recipe_id  TEXT NOT NULL,
    title      TEXT NOT NULL,
    tags_json  TEXT NOT NULL DEFAULT '[]',
    protein    TEXT,
    origin     TEXT NOT NULL CHECK (origin IN ('plan', 'log')),
    created_ms INTEGER NOT NULL
);
CREATE INDEX meal_history_date ON meal_history (date);

-- Meal-plan jobs. `status` moves PENDING -> RUNNING -> COMPLETE | FAILED. A PENDING or RUNNING row
-- whose runner is not alive in the reading process is read as FAILED 'interrupted' (and written
-- so): see docs/meals.md.
CREATE TABLE meal_plan_jobs (
    id              TEXT PRIMARY KEY,
    status          TEXT NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'COMPLETE', 'FAILED')),
    request_json    TEXT NOT NULL,
    result_json     TEXT,
    error_code      TEXT,
    error_message   TEXT,
    processed_slots INTEGER NOT NULL DEFAULT 0,
    total_slots     INTEGER NOT NULL,
    created_ms      INTEGER NOT NULL,
    updated_ms      INTEGER NOT NULL
) WITHOUT ROWID;
