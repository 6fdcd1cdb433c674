-- Issue 23: today's plans (spec 000) are saved as generated, so the app can show today's plan
-- again, list recent ones and mark one done. A done plan points at the training session it was
-- logged as (workout_sessions, the history the next plans and the suggestion engine read).

CREATE TABLE today_plans (
    id              TEXT PRIMARY KEY,           -- TodayPlan.id
    date            TEXT NOT NULL,              -- YYYY-MM-DD, the user's local date
    units           TEXT NOT NULL CHECK (units IN ('lbs', 'kg')),
    source          TEXT NOT NULL CHECK (source IN ('ai', 'manual', 'deterministic')),
    fallback_reason TEXT,                       -- no_model | invalid_answers, when deterministic
    created_at_ms   INTEGER NOT NULL,
    plan            TEXT NOT NULL,              -- JSON TodayPlan
    targets         TEXT NOT NULL,              -- JSON [TodayPlanTarget]
    done_at_ms      INTEGER,
    session_id      TEXT REFERENCES workout_sessions (id) ON DELETE SET NULL
);
-- "Today's plan": the newest plan of a date.
CREATE INDEX today_plans_date ON today_plans (date, created_at_ms DESC);
-- "Recent plans", newest first.
CREATE INDEX today_plans_created ON today_plans (created_at_ms DESC);
