-- A coachcore database at schema version 3, frozen: the file an app had on disk before migration
-- 0004 (weight units) shipped. tests/it/migrations.rs applies this script to a new file, opens it
-- with the library (which runs 0004) and checks what 0004 rewrote and that every row survived.
--
-- Never edit this file to follow a later migration: it is the old file. The schema below is a
-- verbatim copy of src/db/migrations/0001-0003 (the test checks that it still matches them);
-- the rows are what the library of that version wrote, in its conventions:
--   - weights (performed sets, prescriptions) are in the unit of the session's plan (kg for
--     'plan-upper', lb for 'plan-lower' and for the plan-less session 's-free-1');
--   - exercise_history's e1RMs are in the unit of the weights they came from (bench and row in kg),
--     and its session_count counted every log, twice for bench logged twice in 's-upper-2' and
--     once for the row skipped there (completed = 0);
--   - the stamp Store::open leaves: WAL, application_id 'CoCo', user_version 3.

PRAGMA journal_mode = WAL;
PRAGMA foreign_keys = ON;
BEGIN IMMEDIATE;

-- ==== src/db/migrations/0001_generation_metadata.sql (verbatim)
-- Every LLM generation or transform the library performs, with how it was made and how it ended.
-- Holds no user content: codes, versions and times only.
CREATE TABLE generation_metadata (
    id               INTEGER PRIMARY KEY,
    feature          TEXT    NOT NULL,             -- e.g. 'plan.transform'
    schema_version   TEXT    NOT NULL,             -- 'v1-current' | 'v2-flat'
    selection_reason TEXT    NOT NULL,             -- 'override' | 'single_supported' | 'smallest_estimate'
    ruleset_version  TEXT    NOT NULL,             -- enum-expansion ruleset applied
    succeeded        INTEGER NOT NULL CHECK (succeeded IN (0, 1)),
    error_code       TEXT,                         -- OutputErrorCode in snake_case when it failed
    error_path       TEXT,                         -- JSON path of the failure, if any
    created_at_ms    INTEGER NOT NULL
);
CREATE INDEX generation_metadata_created ON generation_metadata (created_at_ms DESC, id DESC);

-- ==== src/db/migrations/0002_training.sql (verbatim)
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

-- ==== src/db/migrations/0003_assistant.sql (verbatim)
-- Spec 002: the planner (todos, events, habits, goals), per-occurrence completions of repeating
-- items, goal links (items and child goals), the assistant's audit log and the idempotency keys of
-- apply.
--
-- One table holds all four kinds (`kind` column): operations, the known-items lookup and the reads
-- address every kind the same way, and ids are unique across kinds. `UNIQUE (kind, id)` lets the
-- link tables reference an item of one kind with a composite foreign key, so the database itself
-- refuses a goal link to a missing item or to an item of another kind.
--
-- Goals use title, notes, priority and completed; their date, time and recurrence columns stay
-- NULL / 'none'.
--
-- Recurrence is stored in columns (type, interval, weekdays, until), not as an RRULE string:
--   recur_type      'none' | 'daily' | 'weekly' | 'monthly' | 'yearly'
--   recur_interval  1..365, NULL means 1
--   recur_weekdays  weekly only: bit mask, bit 0 = Monday ... bit 6 = Sunday; 0 = the anchor's day
--   recur_until     YYYY-MM-DD, the last possible occurrence, NULL for no end
-- The anchor (first occurrence) is `scheduled_for`.

CREATE TABLE planner_items (
    id             TEXT PRIMARY KEY,
    kind           TEXT NOT NULL CHECK (kind IN ('todo', 'event', 'habit', 'goal')),
    title          TEXT NOT NULL,
    notes          TEXT,
    scheduled_for  TEXT,                        -- YYYY-MM-DD: the date, or the anchor
    time_of_day    TEXT,                        -- HH:MM
    end_time       TEXT,                        -- HH:MM (events)
    priority       TEXT NOT NULL DEFAULT 'medium' CHECK (priority IN ('low', 'medium', 'high')),
    recur_type     TEXT NOT NULL DEFAULT 'none'
                   CHECK (recur_type IN ('none', 'daily', 'weekly', 'monthly', 'yearly')),
    recur_interval INTEGER CHECK (recur_interval BETWEEN 1 AND 365),
    recur_weekdays INTEGER NOT NULL DEFAULT 0 CHECK (recur_weekdays BETWEEN 0 AND 127),
    recur_until    TEXT,
    completed      INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0, 1)),
    created_ms     INTEGER NOT NULL,
    updated_ms     INTEGER NOT NULL,
    UNIQUE (kind, id)
);

-- The week view reads open one-off items by date, and the (few) open repeating items whose anchor
-- is on or before the week's end; both through small partial indexes.
CREATE INDEX planner_items_dated_open ON planner_items (scheduled_for)
    WHERE recur_type = 'none' AND completed = 0;
CREATE INDEX planner_items_repeating ON planner_items (scheduled_for)
    WHERE recur_type <> 'none' AND completed = 0;
-- Backlog todos (no date) in their reading order: high priority first, then most recently changed
-- (read with INDEXED BY, so a page is a walk of this small index with no sort).
CREATE INDEX planner_items_backlog ON planner_items
    ((CASE priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END), updated_ms DESC, id)
    WHERE kind = 'todo' AND scheduled_for IS NULL AND completed = 0;
-- Open items, most recently changed first.
CREATE INDEX planner_items_open ON planner_items (updated_ms) WHERE completed = 0;

-- Done occurrences of repeating items; deleted with the item.
CREATE TABLE planner_completions (
    item_id         TEXT NOT NULL REFERENCES planner_items (id) ON DELETE CASCADE,
    occurrence_date TEXT NOT NULL,              -- YYYY-MM-DD
    completed_ms    INTEGER NOT NULL,
    PRIMARY KEY (item_id, occurrence_date)
) WITHOUT ROWID;
CREATE INDEX planner_completions_date ON planner_completions (occurrence_date);

-- A goal's todos, events and habits, in the order they were linked (rowid). Deleting the goal or
-- the item removes the link.
CREATE TABLE goal_items (
    goal_kind TEXT NOT NULL DEFAULT 'goal' CHECK (goal_kind = 'goal'),
    goal_id   TEXT NOT NULL,
    item_kind TEXT NOT NULL CHECK (item_kind IN ('todo', 'event', 'habit')),
    item_id   TEXT NOT NULL,
    UNIQUE (goal_kind, goal_id, item_kind, item_id),
    FOREIGN KEY (goal_kind, goal_id) REFERENCES planner_items (kind, id) ON DELETE CASCADE,
    FOREIGN KEY (item_kind, item_id) REFERENCES planner_items (kind, id) ON DELETE CASCADE
);
CREATE INDEX goal_items_item ON goal_items (item_kind, item_id);

-- Child goals, in the order they were linked. Deleting either goal removes the link only: a child
-- goal is unlinked, never deleted with its parent. Cycles are refused by the code that links.
CREATE TABLE goal_children (
    parent_kind TEXT NOT NULL DEFAULT 'goal' CHECK (parent_kind = 'goal'),
    parent_id   TEXT NOT NULL,
    child_kind  TEXT NOT NULL DEFAULT 'goal' CHECK (child_kind = 'goal'),
    child_id    TEXT NOT NULL,
    CHECK (parent_id <> child_id),
    UNIQUE (parent_kind, parent_id, child_kind, child_id),
    FOREIGN KEY (parent_kind, parent_id) REFERENCES planner_items (kind, id) ON DELETE CASCADE,
    FOREIGN KEY (child_kind, child_id) REFERENCES planner_items (kind, id) ON DELETE CASCADE
);
CREATE INDEX goal_children_child ON goal_children (child_kind, child_id);

-- One row per applied action. Items are JSON PlannerItem records (before: NULL for creations;
-- after: NULL for deletions). No foreign key: the log outlives the items.
CREATE TABLE assistant_audit (
    seq         INTEGER PRIMARY KEY,
    request_id  TEXT NOT NULL,
    op          TEXT NOT NULL,
    kind        TEXT NOT NULL,
    item_id     TEXT NOT NULL,
    before_json TEXT,
    after_json  TEXT,
    at_ms       INTEGER NOT NULL
);
CREATE INDEX assistant_audit_request ON assistant_audit (request_id);

-- Apply's idempotency keys: the hash of the request's operations and the stored ApplyResult JSON.
CREATE TABLE assistant_idempotency (
    key           TEXT PRIMARY KEY,
    request_hash  TEXT NOT NULL,
    response_json TEXT NOT NULL,
    created_ms    INTEGER NOT NULL
) WITHOUT ROWID;

-- ==== The rows (version 3 conventions: see the top of the file)

INSERT INTO generation_metadata VALUES
    (1, 'plan.transform', 'v2-flat', 'single_supported', 'plan-expansion/1', 1, NULL, NULL, 1793599200000),
    (2, 'plan.transform', 'v1-current', 'override', 'plan-expansion/1', 0, 'block_index_out_of_range', 'exercises[3].blockIndex', 1793599300000);

INSERT INTO exercise_catalog VALUES
    ('bench', 'Bench Press', 'barbell', '["chest","triceps","shoulders"]'),
    ('row', 'Barbell Row', 'barbell', '["back","lats","biceps"]'),
    ('squat', 'Back Squat', 'barbell', '["quads","glutes"]'),
    ('curl', 'Dumbbell Curl', 'dumbbell', '["biceps"]');

-- A plan in kilograms and one in pounds.
INSERT INTO plans VALUES
    ('plan-upper', 'Upper A', 'kg', 'straightSets', '{"plates":[25.0,20.0,10.0,5.0,2.5,1.25],"barWeight":20.0,"dumbbells":[]}'),
    ('plan-lower', 'Lower B', 'lbs', 'heaviestFirst', '{"plates":[45.0,35.0,25.0,10.0,5.0,2.5],"barWeight":45.0,"dumbbells":[10.0,15.0,20.0,25.0,30.0]}');

INSERT INTO plan_exercises VALUES
    ('rx-bench', 'plan-upper', 'bench', 0, 'range', 8, 12, 0, 'allSame', 120),
    ('rx-row', 'plan-upper', 'row', 1, 'target', 0, 0, 10, 'allSame', 90),
    ('rx-squat', 'plan-lower', 'squat', 0, 'range', 5, 8, 0, 'allSame', 180),
    ('rx-curl', 'plan-lower', 'curl', 1, 'range', 10, 15, 0, 'perSet', 60);

-- Bench sets 1-3 as the accepted changes below left them.
INSERT INTO set_prescriptions VALUES
    ('rx-bench', 0, 'warmup', 40.0, 10, 60),
    ('rx-bench', 1, 'regular', 65.0, 8, 120),
    ('rx-bench', 2, 'regular', 62.5, 8, 120),
    ('rx-bench', 3, 'regular', 62.5, 8, 120),
    ('rx-row', 0, 'regular', 50.0, 10, 90),
    ('rx-row', 1, 'regular', 50.0, 10, 90),
    ('rx-row', 2, 'regular', 50.0, 10, 90),
    ('rx-squat', 0, 'regular', 225.0, 5, 180),
    ('rx-squat', 1, 'regular', 205.0, 8, 180),
    ('rx-squat', 2, 'regular', 205.0, 8, 180),
    ('rx-curl', 0, 'regular', 25.0, 12, 60),
    ('rx-curl', 1, 'regular', 25.0, 12, 75),
    ('rx-curl', 2, 'drop', 15.0, 15, 0);

-- 's-free-1' followed no plan: its weights are in pounds.
INSERT INTO workout_sessions VALUES
    ('s-upper-1', 'plan-upper', 1793602800000),
    ('s-lower-1', 'plan-lower', 1793730600000),
    ('s-upper-2', 'plan-upper', 1793862300000),
    ('s-free-1', NULL, 1793966400000),
    ('s-lower-2', 'plan-lower', 1794075300000);

-- Bench logged twice in 's-upper-2' (back-off sets), the row skipped there (no set completed).
INSERT INTO exercise_performances VALUES
    ('p-u1-bench', 's-upper-1', 'bench', 'rx-bench', 0, 1793602800000, 1),
    ('p-u1-row', 's-upper-1', 'row', 'rx-row', 1, 1793602800000, 1),
    ('p-l1-squat', 's-lower-1', 'squat', 'rx-squat', 0, 1793730600000, 1),
    ('p-l1-curl', 's-lower-1', 'curl', 'rx-curl', 1, 1793730600000, 1),
    ('p-u2-bench', 's-upper-2', 'bench', 'rx-bench', 0, 1793862300000, 1),
    ('p-u2-bench-b', 's-upper-2', 'bench', 'rx-bench', 1, 1793862300000, 1),
    ('p-u2-row', 's-upper-2', 'row', 'rx-row', 2, 1793862300000, 0),
    ('p-f1-curl', 's-free-1', 'curl', NULL, 0, 1793966400000, 1),
    ('p-l2-squat', 's-lower-2', 'squat', 'rx-squat', 0, 1794075300000, 1);

INSERT INTO performed_sets VALUES
    ('p-u1-bench', 0, 'warmup', 40.0, 10, 60, 1),
    ('p-u1-bench', 1, 'regular', 60.0, 8, 120, 1),
    ('p-u1-bench', 2, 'regular', 60.0, 8, 120, 1),
    ('p-u1-bench', 3, 'regular', 60.0, 7, NULL, 1),
    ('p-u1-row', 0, 'regular', 50.0, 10, 90, 1),
    ('p-u1-row', 1, 'regular', 50.0, 10, 90, 1),
    ('p-u1-row', 2, 'regular', 50.0, 10, NULL, 1),
    ('p-l1-squat', 0, 'regular', 225.0, 5, 180, 1),
    ('p-l1-squat', 1, 'regular', 205.0, 8, 180, 1),
    ('p-l1-squat', 2, 'regular', 205.0, 7, NULL, 1),
    ('p-l1-curl', 0, 'regular', 25.0, 12, 60, 1),
    ('p-l1-curl', 1, 'regular', 25.0, 11, 75, 1),
    ('p-l1-curl', 2, 'drop', 15.0, 15, NULL, 1),
    ('p-u2-bench', 0, 'warmup', 40.0, 10, 60, 1),
    ('p-u2-bench', 1, 'regular', 62.5, 8, 120, 1),
    ('p-u2-bench', 2, 'regular', 62.5, 8, NULL, 1),
    ('p-u2-bench-b', 0, 'regular', 55.0, 10, 90, 1),
    ('p-u2-bench-b', 1, 'regular', 55.0, 9, NULL, 1),
    ('p-u2-row', 0, 'regular', 50.0, 0, NULL, 0),
    ('p-f1-curl', 0, 'regular', 30.0, 10, 60, 1),
    ('p-f1-curl', 1, 'regular', 30.0, 9, NULL, 1),
    ('p-l2-squat', 0, 'regular', 230.0, 5, 180, 1),
    ('p-l2-squat', 1, 'regular', 210.0, 8, 180, 1),
    ('p-l2-squat', 2, 'regular', 210.0, 8, NULL, 1);

-- e1RMs in the unit of the weights (bench and row: kg); session_count counted every log.
INSERT INTO exercise_history VALUES
    ('bench', 3, 8, 10, 79.16666666666667, 79.16666666666667, 'improving', 1793862300000),
    ('row', 2, 10, 10, 66.66666666666667, 66.66666666666667, 'stable', 1793862300000),
    ('squat', 2, 5, 8, 268.3333333333333, 268.3333333333333, 'improving', 1794075300000),
    ('curl', 2, 10, 12, 40.0, 40.0, 'stable', 1793966400000);

INSERT INTO suggestion_runs VALUES
    ('s-upper-1', 1793602860000),
    ('s-lower-1', 1793730660000),
    ('s-upper-2', 1793862360000);

-- Accepted (evaluated and not yet), accepted by the user's own value (user_override), deferred, rejected (AI) and pending.
INSERT INTO prescription_changes VALUES
    ('c-u1-bench-1', 0, 's-upper-1', 'plan-upper', 'rx-bench', 'bench', 'rule', 'double_progression_range', 'increaseWeight', 1, 'weight', '{"kind":"number","value":60.0}', '{"kind":"number","value":62.5}', 'You completed every working set at 60 kg: add weight. Go from 60 to 62.5.', '{"performanceIds":["p-u1-bench"],"setIndexes":[1,2],"figures":[{"name":"lower","value":8.0},{"name":"upper","value":12.0},{"name":"minReps","value":8.0},{"name":"increment","value":2.5},{"name":"multiplier","value":1.0}]}', 'accepted', 1793602860000, 1793602890000, 0, 'good', 'All sets completed at the new weight.', 1793862360000, 's-upper-2'),
    ('c-u1-bench-2', 1, 's-upper-1', 'plan-upper', 'rx-bench', 'bench', 'rule', 'double_progression_range', 'increaseWeight', 2, 'weight', '{"kind":"number","value":60.0}', '{"kind":"number","value":62.5}', 'You completed every working set at 60 kg: add weight. Go from 60 to 62.5.', '{"performanceIds":["p-u1-bench"],"setIndexes":[1,2],"figures":[{"name":"lower","value":8.0},{"name":"upper","value":12.0},{"name":"minReps","value":8.0},{"name":"increment","value":2.5},{"name":"multiplier","value":1.0}]}', 'accepted', 1793602860000, 1793602890000, 0, 'good', 'All sets completed at the new weight.', 1793862360000, 's-upper-2'),
    ('c-l1-squat-1', 0, 's-lower-1', 'plan-lower', 'rx-squat', 'squat', 'rule', 'below_range_decrease', 'decreaseWeight', 2, 'weight', '{"kind":"number","value":205.0}', '{"kind":"number","value":195.0}', 'You fell below 8 reps at the prescribed weight. Lower the weight from 205 to 195 lb to stay in your range.', '{"performanceIds":["p-l1-squat"],"setIndexes":[2],"figures":[{"name":"lower","value":8.0},{"name":"reps","value":7.0},{"name":"increment","value":10.0}]}', 'deferred', 1793730660000, 1793730720000, 0, 'notEvaluated', NULL, NULL, NULL),
    ('c-l1-curl-1', 1, 's-lower-1', 'plan-lower', 'rx-curl', 'curl', 'ai', NULL, 'increaseRest', 1, 'rest', '{"kind":"number","value":75.0}', '{"kind":"number","value":90.0}', 'Your second set lost a rep after 75 s of rest: rest a little longer.', '{"performanceIds":["p-l1-curl"],"setIndexes":[1],"figures":[]}', 'rejected', 1793730660000, 1793730750000, 0, 'notEvaluated', NULL, NULL, NULL),
    ('c-u2-bench-1', 0, 's-upper-2', 'plan-upper', 'rx-bench', 'bench', 'rule', 'double_progression_range', 'increaseWeight', 1, 'weight', '{"kind":"number","value":62.5}', '{"kind":"number","value":65.0}', 'You completed every working set at 62.5 kg: add weight. Go from 62.5 to 65.', '{"performanceIds":["p-u2-bench","p-u2-bench-b"],"setIndexes":[1],"figures":[{"name":"lower","value":8.0},{"name":"upper","value":12.0},{"name":"increment","value":2.5}]}', 'accepted', 1793862360000, 1793862400000, 0, 'notEvaluated', NULL, NULL, NULL),
    ('c-u2-bench-2', 1, 's-upper-2', 'plan-upper', 'rx-bench', 'bench', 'rule', 'match_actual_weight', 'increaseWeight', 3, 'weight', '{"kind":"number","value":60.0}', '{"kind":"number","value":62.5}', 'You lifted 62.5 kg on this set: match the plan to it.', '{"performanceIds":["p-u2-bench"],"setIndexes":[2],"figures":[{"name":"actual","value":62.5}]}', 'accepted', 1793862360000, 1793862410000, 1, 'notEvaluated', NULL, NULL, NULL),
    ('c-u2-row-1', 2, 's-upper-2', 'plan-upper', 'rx-row', 'row', 'rule', 'stagnation_increase_rest', 'increaseRest', NULL, 'rest', '{"kind":"number","value":90.0}', '{"kind":"number","value":120.0}', 'Your reps have not moved in 2 sessions at 90 s of rest: rest longer between sets.', '{"performanceIds":["p-u2-row","p-u1-row"],"setIndexes":[],"figures":[{"name":"sessions","value":2.0},{"name":"rest","value":90.0}]}', 'pending', 1793862360000, NULL, 0, 'notEvaluated', NULL, NULL, NULL);

-- Todos (dated, backlog, completed), an event, a weekly habit (Mon, Wed, Fri: mask 21), an every-2-days habit with an end, and two goals.
INSERT INTO planner_items VALUES
    ('item-todo-1', 'todo', 'Book physio appointment', 'left shoulder', '2026-11-10', NULL, NULL, 'high', 'none', NULL, 0, NULL, 0, 1794211200000, 1794211200000),
    ('item-todo-2', 'todo', 'Buy lifting chalk', NULL, NULL, NULL, NULL, 'low', 'none', NULL, 0, NULL, 0, 1794075300000, 1794075300000),
    ('item-todo-3', 'todo', 'Renew gym membership', NULL, '2026-11-05', NULL, NULL, 'medium', 'none', NULL, 0, NULL, 1, 1793602800000, 1793966400000),
    ('item-event-1', 'event', 'Dentist', NULL, '2026-11-12', '09:00', '09:45', 'medium', 'none', NULL, 0, NULL, 0, 1794211200000, 1794211200000),
    ('item-habit-1', 'habit', 'Mobility, 10 min', NULL, '2026-11-02', '07:00', NULL, 'medium', 'weekly', NULL, 21, NULL, 0, 1793602800000, 1793602800000),
    ('item-habit-2', 'habit', 'Log meals', NULL, '2026-11-01', '21:00', NULL, 'low', 'daily', 2, 0, '2026-12-31', 0, 1793602800000, 1793602800000),
    ('item-goal-1', 'goal', 'Bench 80 kg by spring', 'three sessions a week', NULL, NULL, NULL, 'high', 'none', NULL, 0, NULL, 0, 1793602800000, 1794211200000),
    ('item-goal-2', 'goal', 'Train three times a week', NULL, NULL, NULL, NULL, 'medium', 'none', NULL, 0, NULL, 0, 1793602800000, 1793602800000);

INSERT INTO planner_completions VALUES
    ('item-habit-1', '2026-11-02', 1793604600000),
    ('item-habit-1', '2026-11-04', 1793773800000),
    ('item-habit-1', '2026-11-09', 1794211800000);

INSERT INTO goal_items VALUES
    ('goal', 'item-goal-1', 'todo', 'item-todo-1'),
    ('goal', 'item-goal-1', 'habit', 'item-habit-1');

INSERT INTO goal_children VALUES
    ('goal', 'item-goal-1', 'goal', 'item-goal-2');

INSERT INTO assistant_audit VALUES
    (1, 'req-1', 'create', 'todo', 'item-todo-1', NULL, '{"kind":"todo","id":"item-todo-1","title":"Book physio appointment","notes":"left shoulder","scheduledFor":"2026-11-10","timeOfDay":null,"endTime":null,"priority":"high","recurrence":{"type":"none"},"completed":false,"completedOccurrences":[],"goalItems":[],"childGoals":[],"createdMs":1794211200000,"updatedMs":1794211200000}', 1794211200000),
    (2, 'req-1', 'create', 'event', 'item-event-1', NULL, '{"kind":"event","id":"item-event-1","title":"Dentist","notes":null,"scheduledFor":"2026-11-12","timeOfDay":"09:00","endTime":"09:45","priority":"medium","recurrence":{"type":"none"},"completed":false,"completedOccurrences":[],"goalItems":[],"childGoals":[],"createdMs":1794211200000,"updatedMs":1794211200000}', 1794211200000),
    (3, 'req-2', 'complete', 'todo', 'item-todo-3', '{"kind":"todo","id":"item-todo-3","title":"Renew gym membership","notes":null,"scheduledFor":"2026-11-05","timeOfDay":null,"endTime":null,"priority":"medium","recurrence":{"type":"none"},"completed":false,"completedOccurrences":[],"goalItems":[],"childGoals":[],"createdMs":1793602800000,"updatedMs":1793602800000}', '{"kind":"todo","id":"item-todo-3","title":"Renew gym membership","notes":null,"scheduledFor":"2026-11-05","timeOfDay":null,"endTime":null,"priority":"medium","recurrence":{"type":"none"},"completed":true,"completedOccurrences":[],"goalItems":[],"childGoals":[],"createdMs":1793602800000,"updatedMs":1793966400000}', 1793966400000);

INSERT INTO assistant_idempotency VALUES
    ('apply-7f3c', '5d41402abc4b2a76b9719d911017c592', '{"requestId":"req-1","applied":[{"index":0,"op":"create","kind":"todo","id":"item-todo-1"},{"index":1,"op":"create","kind":"event","id":"item-event-1"}],"repairs":[],"replayed":false}', 1794211200000);

-- ==== The stamp Store::open leaves on a version-3 file (in the migration transaction).
PRAGMA application_id = 1131365231; -- 0x436F436F, ASCII 'CoCo'
PRAGMA user_version = 3;
COMMIT;
