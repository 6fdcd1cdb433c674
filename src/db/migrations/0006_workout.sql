-- Spec 001: the app's own exercises of the workout catalog (the built-in ones ship with the
-- library), and generated workouts with their analyzer plan, document and YAML. A logged workout
-- points at the session it became (workout_sessions, the suggestion engine's history).

CREATE TABLE workout_exercises (
    id   TEXT PRIMARY KEY,
    body TEXT NOT NULL                          -- JSON WorkoutExercise
);

CREATE TABLE workouts (
    workout_id    TEXT PRIMARY KEY,             -- YYYY-MM-DD-<kebab-location>-NN
    date          TEXT NOT NULL,
    location      TEXT NOT NULL,
    source        TEXT NOT NULL CHECK (source IN ('model', 'deterministic')),
    created_at_ms INTEGER NOT NULL,
    analyzer      TEXT NOT NULL,                -- JSON AnalyzerPlan
    workout       TEXT NOT NULL,                -- JSON Workout (with actual values once logged)
    yaml          TEXT NOT NULL,
    session_id    TEXT REFERENCES workout_sessions (id) ON DELETE SET NULL
);
CREATE INDEX workouts_created ON workouts (created_at_ms DESC);

-- "Every completed performance since T" (the pre-analysis' 90 days, whatever the exercise).
CREATE INDEX exercise_performances_recent
    ON exercise_performances (performed_at_ms) WHERE completed = 1;
