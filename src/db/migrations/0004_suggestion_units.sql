-- Issue 3 audit: the unit of every logged weight, and the index of outcome evaluation.
--
-- A performance's weights are in the unit of its session's plan at the moment it was logged
-- (pounds for a session without a plan). Recording it here means that changing a plan's unit
-- later never reinterprets past weights; readers convert to the unit they need.
ALTER TABLE exercise_performances
    ADD COLUMN unit TEXT NOT NULL DEFAULT 'lbs' CHECK (unit IN ('lbs', 'kg'));
UPDATE exercise_performances
   SET unit = coalesce(
       (SELECT p.unit FROM workout_sessions AS s JOIN plans AS p ON p.id = s.plan_id
         WHERE s.id = exercise_performances.session_id),
       'lbs');

-- The cached history's e1RMs are stored in pounds from now on. Until now they were in the unit of
-- the weights they came from: convert them by the unit of the exercise's newest performance.
UPDATE exercise_history
   SET best_e1rm = best_e1rm * 2.20462, last_e1rm = last_e1rm * 2.20462
 WHERE (SELECT unit FROM exercise_performances AS e
         WHERE e.catalog_id = exercise_history.catalog_id
         ORDER BY e.performed_at_ms DESC LIMIT 1) = 'kg';

-- "Accepted changes of this prescription whose outcome is not evaluated yet, decided before T"
-- (run for every logged exercise): a range scan over the few rows that qualify.
CREATE INDEX prescription_changes_unevaluated
    ON prescription_changes (prescription_id, decided_at_ms)
    WHERE decision = 'accepted' AND outcome = 'notEvaluated';

-- The history's session count is the number of sessions that completed the exercise (earlier
-- versions counted every log, twice for an exercise logged twice in one session). Recounted once
-- here; from now on it moves by one per logged session.
UPDATE exercise_history
   SET session_count = (SELECT count(DISTINCT e.session_id) FROM exercise_performances AS e
                         WHERE e.catalog_id = exercise_history.catalog_id AND e.completed = 1);
