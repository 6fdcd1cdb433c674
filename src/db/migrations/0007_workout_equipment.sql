-- Spec 001: the app's own equipment definitions of the workout catalog (an inventory key, what it
-- provides and the weights it offers); a saved key replaces the built-in mapping of that key.

CREATE TABLE workout_equipment (
    key  TEXT PRIMARY KEY,
    body TEXT NOT NULL                          -- JSON WorkoutEquipment
);
