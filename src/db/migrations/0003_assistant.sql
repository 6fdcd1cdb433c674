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
