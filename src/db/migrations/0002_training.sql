-- Spec 004: the exercise catalog, plans with per-set prescriptions, logged workouts, the cached
-- per-exercise history, and PrescriptionChange (suggestions, their decisions and outcomes).
-- Enumerations are stored as their JSON spellings ('regular', 'notSet', 'increaseWeight', ...).

CREATE TABLE exercise_catalog (
    catalog_id     TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    equipment      TEXT NOT NULL,
    target_muscles TEXT NOT NULL               -- JSON array of muscles, primary first
);

CREATE TABLE plans (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    unit           TEXT NOT NULL CHECK (unit IN ('lbs', 'kg')),
    training_style TEXT NOT NULL,
    load_config    TEXT NOT NULL               -- JSON LoadConfig
);

CREATE TABLE plan_exercises (
    id           TEXT PRIMARY KEY,
    plan_id      TEXT NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    catalog_id   TEXT NOT NULL REFERENCES exercise_catalog (catalog_id),
    position     INTEGER NOT NULL,
    rep_mode     TEXT NOT NULL CHECK (rep_mode IN ('notSet', 'range', 'target')),
    rep_lower    INTEGER NOT NULL,
    rep_upper    INTEGER NOT NULL,
    rep_target   INTEGER NOT NULL,
    rest_mode    TEXT NOT NULL CHECK (rest_mode IN ('allSame', 'perSet')),
    rest_seconds INTEGER NOT NULL,
    UNIQUE (plan_id, position)
);

CREATE TABLE set_prescriptions (
    exercise_id   TEXT NOT NULL REFERENCES plan_exercises (id) ON DELETE CASCADE,
    set_index     INTEGER NOT NULL,
    set_type      TEXT NOT NULL CHECK (set_type IN ('regular', 'warmup', 'drop')),
    target_weight REAL NOT NULL,
    target_reps   INTEGER NOT NULL,
    rest_seconds  INTEGER NOT NULL,
    PRIMARY KEY (exercise_id, set_index)
) WITHOUT ROWID;

CREATE TABLE workout_sessions (
    id              TEXT PRIMARY KEY,
    plan_id         TEXT REFERENCES plans (id) ON DELETE SET NULL,
    performed_at_ms INTEGER NOT NULL
);
CREATE INDEX workout_sessions_plan ON workout_sessions (plan_id, performed_at_ms DESC);

CREATE TABLE exercise_performances (
    id              TEXT PRIMARY KEY,
    session_id      TEXT NOT NULL REFERENCES workout_sessions (id) ON DELETE CASCADE,
    catalog_id      TEXT NOT NULL REFERENCES exercise_catalog (catalog_id),
    prescription_id TEXT REFERENCES plan_exercises (id) ON DELETE SET NULL,
    position        INTEGER NOT NULL,
    performed_at_ms INTEGER NOT NULL,          -- copied from the session for one-index history reads
    completed       INTEGER NOT NULL CHECK (completed IN (0, 1)),  -- at least one set completed
    UNIQUE (session_id, position)
);
-- "The last N completed performances of this exercise before time T": one index range scan.
CREATE INDEX exercise_performances_history
    ON exercise_performances (catalog_id, completed, performed_at_ms DESC);
CREATE INDEX exercise_performances_prescription ON exercise_performances (prescription_id, performed_at_ms);

CREATE TABLE performed_sets (
    performance_id TEXT NOT NULL REFERENCES exercise_performances (id) ON DELETE CASCADE,
    set_index      INTEGER NOT NULL,
    set_type       TEXT NOT NULL CHECK (set_type IN ('regular', 'warmup', 'drop')),
    weight         REAL NOT NULL,
    reps           INTEGER NOT NULL,
    rest_seconds   INTEGER,
    completed      INTEGER NOT NULL CHECK (completed IN (0, 1)),
    PRIMARY KEY (performance_id, set_index)
) WITHOUT ROWID;

CREATE TABLE exercise_history (
    catalog_id         TEXT PRIMARY KEY REFERENCES exercise_catalog (catalog_id),
    session_count      INTEGER NOT NULL,
    typical_lower_reps INTEGER NOT NULL,
    typical_upper_reps INTEGER NOT NULL,
    best_e1rm          REAL NOT NULL,
    last_e1rm          REAL NOT NULL,
    trend              TEXT NOT NULL,
    updated_at_ms      INTEGER NOT NULL
);

-- One row per session whose suggestions were generated (even when none survived), so generating
-- twice returns the stored result instead of generating again.
CREATE TABLE suggestion_runs (
    session_id      TEXT PRIMARY KEY REFERENCES workout_sessions (id) ON DELETE CASCADE,
    generated_at_ms INTEGER NOT NULL
);

CREATE TABLE prescription_changes (
    id                   TEXT PRIMARY KEY,
    seq                  INTEGER NOT NULL,      -- creation order within the session
    session_id           TEXT NOT NULL REFERENCES workout_sessions (id) ON DELETE CASCADE,
    plan_id              TEXT NOT NULL,
    prescription_id      TEXT NOT NULL,
    catalog_id           TEXT NOT NULL,
    source               TEXT NOT NULL CHECK (source IN ('rule', 'ai')),
    rule_id              TEXT,
    change_type          TEXT NOT NULL,
    target_set_index     INTEGER,               -- NULL: the exercise as a whole
    property             TEXT NOT NULL,
    old_value            TEXT,                  -- JSON ChangeValue
    new_value            TEXT NOT NULL,         -- JSON ChangeValue
    reasoning            TEXT NOT NULL,
    evidence             TEXT NOT NULL,         -- JSON Evidence
    decision             TEXT NOT NULL CHECK (decision IN ('pending', 'accepted', 'rejected', 'deferred')),
    created_at_ms        INTEGER NOT NULL,
    decided_at_ms        INTEGER,
    user_override        INTEGER NOT NULL DEFAULT 0 CHECK (user_override IN (0, 1)),
    outcome              TEXT NOT NULL DEFAULT 'notEvaluated',
    outcome_reason       TEXT,
    evaluated_at_ms      INTEGER,
    evaluated_in_session TEXT
);
CREATE INDEX prescription_changes_session ON prescription_changes (session_id, seq);
CREATE INDEX prescription_changes_cooldown ON prescription_changes (prescription_id, created_at_ms);
CREATE INDEX prescription_changes_plan_decision ON prescription_changes (plan_id, decision, created_at_ms);
