//! Reading the user's notes for today's plan (pure and deterministic). The words are read by the
//! workout flow's reader, the one reader of notes and instructions for both entry points
//! ([`crate::workout::read_notes`]; its module docs list every word it reads: minutes, the focus
//! (session type, body parts and muscle groups, an exercise named as the focus), exercises
//! wanted and refused, body parts to spare, equipment, energy, goal). This file fills in today's
//! defaults: 45 minutes (kept within 15 to 180), a full-body focus, general fitness, moderate
//! energy, and a full gym when the notes name no equipment; a place without equipment
//! ("hotel room", "at home") is body weight only. The model only picks exercises among those
//! this reading allows.

use crate::plan::Energy;
use crate::workout::{
    read_notes, Effort, EquipmentSaid, Focus, Goal, NotesReading, WorkoutExercise,
};

/// What the notes say about today, with the defaults filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct DayReading {
    /// The whole session, 15 to 180 minutes.
    pub minutes: u32,
    /// The focus.
    pub focus: Focus,
    /// The training goal.
    pub goal: Goal,
    /// How hard it should feel.
    pub energy: Energy,
    /// Inventory keys available (empty: body weight only).
    pub equipment: Vec<&'static str>,
    /// Everything the reader found (exercises wanted and refused, parts to spare, equipment
    /// refused), for the skeleton and the pre-analysis.
    pub said: NotesReading,
}

/// The default session length.
pub const DEFAULT_MINUTES: u32 = 45;

/// The inventory keys of a full gym: what `workouts().todayPlan` assumes when the notes name no
/// equipment.
pub const FULL_GYM: &[&str] = &[
    "eq_barbell_olympic",
    "eq_squat_rack",
    "eq_bench_adjustable",
    "eq_dumbbells_set_5-50",
    "eq_kettlebell",
    "eq_cable_machine_dual_stack",
    "eq_pullup_bar",
    "eq_dip_station",
    "eq_lat_pulldown",
    "eq_seated_row",
    "eq_leg_press",
    "eq_leg_curl",
    "eq_leg_extension",
    "eq_ez_bar",
    "eq_resistance_bands",
];

/// Reads `notes` against `catalog` (the exercises they may name; see the module docs).
pub fn read(notes: &str, catalog: &[WorkoutExercise]) -> DayReading {
    let said = read_notes(notes, catalog);
    DayReading {
        minutes: said.minutes.map_or(DEFAULT_MINUTES, |m| m.clamp(15, 180)),
        focus: said.focus.clone(),
        goal: said.goal.unwrap_or(Goal::General),
        energy: match said.effort {
            Some(Effort::Easy) => Energy::Easy,
            Some(Effort::Hard) => Energy::Intense,
            None => Energy::Moderate,
        },
        equipment: match &said.equipment {
            EquipmentSaid::Named(keys) => keys.clone(),
            EquipmentSaid::Place => Vec::new(),
            EquipmentSaid::Gym | EquipmentSaid::NotSaid => FULL_GYM.to_vec(),
        },
        said,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workout::{builtin, MuscleGroup, SessionType};

    fn r(notes: &str) -> DayReading {
        read(notes, builtin())
    }

    fn parts(notes: &str) -> Vec<&'static str> {
        r(notes).said.spare.iter().map(|s| s.part).collect()
    }

    fn session(notes: &str) -> Option<SessionType> {
        r(notes).focus.session
    }

    #[test]
    fn minutes_in_the_ways_people_write_them() {
        for (notes, m) in [
            ("45 minutes, upper body", 45),
            ("40 min legs", 40),
            ("got 40min today", 40),
            ("a 25-minute session", 25),
            ("1 hour at the gym", 60),
            ("1.5 hours", 90),
            ("90m", 90),
            ("an hour and a half, full body", 90),
            ("half an hour", 30),
            ("about an hour", 60),
            ("an hr of legs", 60),
            ("1hr push", 60),
            ("1h30 full body", 90),
            ("1 hr 15 upper", 75),
            ("2 hrs, powerlifting", 120),
            ("30ish mins", 30),
            ("calves and abs, 30", 30),
            ("quick one", 30),
            ("quick 20 min upper", 20),
            ("legs", DEFAULT_MINUTES),
            ("5 minutes", 15),
            ("10 hours", 180),
            ("3 x 10 push-ups", DEFAULT_MINUTES),
            ("upper/lower split, 3 days a week", DEFAULT_MINUTES),
        ] {
            assert_eq!(r(notes).minutes, m, "{notes}");
        }
    }

    #[test]
    fn session_types_and_what_is_not_one() {
        for (notes, s) in [
            ("upper body, dumbbells only", Some(SessionType::Upper)),
            ("Leg day!", Some(SessionType::Lower)),
            ("push day", Some(SessionType::Push)),
            ("PPL - today is pull", Some(SessionType::Pull)),
            ("push and pull", Some(SessionType::Upper)),
            ("upper and lower", Some(SessionType::FullBody)),
            ("push pull legs", Some(SessionType::FullBody)),
            ("push-ups and pull-ups only", None),
            ("feeling great, let's push it", None),
            (
                "my lower back is tweaked, upper body today",
                Some(SessionType::Upper),
            ),
            ("", None),
        ] {
            assert_eq!(session(notes), s, "{notes}");
        }
        assert_eq!(r("").focus.label(), "Full Body");
    }

    #[test]
    fn body_parts_and_muscle_groups_as_the_focus() {
        use MuscleGroup::*;
        for (notes, groups) in [
            ("chest and tris", vec![Chest, Triceps]),
            ("back day", vec![Back]),
            ("back + biceps", vec![Back, Biceps]),
            ("back and bi's", vec![Back, Biceps]),
            (
                "wanna hit chest, shoulders & triceps",
                vec![Chest, Shoulders, Triceps],
            ),
            ("glutes and hamstrings pls", vec![Glutes, Hamstrings]),
            ("traps and shoulders", vec![Shoulders]),
            ("focus on arms", vec![Arms]),
            ("calves and abs", vec![Calves, Core]),
            ("I'm back after a week off", vec![]),
            ("back squats and bench", vec![]),
            ("sore shoulders, chest and back", vec![Chest, Back]),
            (
                "30 min, mostly glutes, sore quads from yesterday",
                vec![Glutes],
            ),
            ("hamstring's tweaked, upper body today", vec![]),
        ] {
            assert_eq!(r(notes).focus.groups, groups, "{notes}");
        }
        assert_eq!(r("chest and tris").focus.label(), "Chest and Triceps");
        assert_eq!(r("abs").focus.label(), "Core and Full Body");
    }

    #[test]
    fn an_exercise_named_as_the_focus_leads() {
        for (notes, first, name) in [
            ("bench day", "bb-bench-press", "Bench Press"),
            ("wanna work on my deadlift", "bb-deadlift", "Deadlift"),
            ("squat day!! 90 min", "bb-back-squat", "Squat"),
            ("ohp focus", "bb-overhead-press", "Overhead Press"),
            ("I want to get better at pull-ups", "pull-up", "Pull Up"),
            (
                "strength focus: squat, bench, deadlift",
                "bb-back-squat",
                "Squat",
            ),
        ] {
            let f = r(notes).focus;
            assert_eq!(f.lead.first().map(String::as_str), Some(first), "{notes}");
            assert_eq!(f.lead_name, name, "{notes}");
        }
        let big_three = r("strength focus: squat, bench, deadlift");
        assert!(big_three
            .said
            .wanted
            .iter()
            .any(|g| g[0] == "bb-bench-press"));
        assert!(big_three.said.wanted.iter().any(|g| g[0] == "bb-deadlift"));
        assert!(r("home: barbell, rack and bench").focus.lead.is_empty());
        assert!(r("upper body, I love pull-ups").focus.lead.is_empty());
    }

    #[test]
    fn goal_and_energy() {
        assert_eq!(r("heavy legs").goal, Goal::Strength);
        assert_eq!(r("powerlifting style").goal, Goal::Strength);
        assert_eq!(r("build muscle").goal, Goal::Hypertrophy);
        assert_eq!(r("conditioning circuit").goal, Goal::Endurance);
        assert_eq!(r("core and cardio-ish stuff").goal, Goal::Endurance);
        assert_eq!(r("30 minutes").goal, Goal::General);
        assert_eq!(r("home gym with a power rack").goal, Goal::General);
        for easy in [
            "tired, something light",
            "easy day",
            "legs, tired af",
            "upper, im wiped",
            "Slept pretty badly last night",
            "Not feeling it today",
        ] {
            assert_eq!(r(easy).energy, Energy::Easy, "{easy}");
        }
        assert_eq!(r("easy on the knees").energy, Energy::Moderate);
        assert_eq!(r("go easy on the lower back").energy, Energy::Moderate);
        assert_eq!(r("tired of lunges").energy, Energy::Moderate);
        assert_eq!(r("go hard").energy, Energy::Intense);
        assert_eq!(r("let's push it").energy, Energy::Intense);
        assert_eq!(r("upper body").energy, Energy::Moderate);
    }

    #[test]
    fn equipment_named_is_the_whole_inventory() {
        assert_eq!(r("dumbbells only").equipment, ["eq_dumbbells_set_5-50"]);
        assert_eq!(r("just dbs").equipment, ["eq_dumbbells_set_5-50"]);
        assert_eq!(
            r("at home with a kettlebell and bands").equipment,
            ["eq_kettlebell", "eq_resistance_bands"]
        );
        assert_eq!(
            r("home: barbell, rack and bench").equipment,
            ["eq_barbell_olympic", "eq_squat_rack", "eq_bench_flat"]
        );
        assert_eq!(
            r("bb and rack only").equipment,
            ["eq_barbell_olympic", "eq_squat_rack"]
        );
        assert!(r("bodyweight, hotel room").equipment.is_empty());
        assert!(r("hotel room, 25 min").equipment.is_empty());
        assert!(r("no equipment").equipment.is_empty());
        assert_eq!(r("legs").equipment, FULL_GYM);
        assert_eq!(r("gym, bodyweight warm-up").equipment, FULL_GYM);
        assert_eq!(r("whatever equipment").equipment, FULL_GYM);
        let g = r("gym but no barbell");
        assert_eq!(g.equipment, FULL_GYM);
        assert_eq!(g.said.banned_kinds, ["barbell"]);
        assert_eq!(r("pull day w/o barbell").said.banned_kinds, ["barbell"]);
        assert_eq!(r("hate cable stuff").said.banned_kinds, ["cable"]);
        assert_eq!(r("pull-up bar only").equipment, ["eq_pullup_bar"]);
        // An equipment word before an exercise narrows the exercise; it names nothing.
        let rows = r("No barbell rows please");
        assert_eq!(rows.equipment, FULL_GYM);
        assert!(rows.said.banned_kinds.is_empty());
        assert!(rows.said.refused.contains(&"bb-bent-over-row".to_string()));
        assert!(!rows.said.refused.contains(&"db-one-arm-row".to_string()));
    }

    #[test]
    fn refusals_in_the_ways_people_say_them() {
        // notes | an exercise refused | one kept
        let cases = "no squats today, legs | bb-back-squat | machine-leg-press
            skip deadlifts | bb-romanian-deadlift | bb-hip-thrust
            i hate burpees and pushups | push-up | dip
            Avoid lunges please | db-bulgarian-split-squat | bb-back-squat
            full body, lunges not today | walking-lunge | bodyweight-squat
            don't want to do any overhead pressing | db-shoulder-press | bb-bench-press
            Can't do anything overhead | pike-push-up | push-up
            no pull-ups or chin-ups | chin-up | machine-lat-pulldown
            legs but no squats or lunges | db-walking-lunge | machine-leg-curl
            no deadlifts and no lunges | walking-lunge | bb-back-squat
            - no bb-deadlift | bb-deadlift | bb-romanian-deadlift
            skip swings | kb-swing | kb-goblet-squat
            chest day no bench press | db-bench-press | db-fly
            Squats are off for now | bb-back-squat | machine-leg-press";
        for line in cases.lines() {
            let [notes, refused, kept]: [&str; 3] = line
                .split(" | ")
                .map(str::trim)
                .collect::<Vec<_>>()
                .try_into()
                .unwrap();
            let said = r(notes).said;
            assert!(
                said.refused.contains(&refused.to_string()),
                "{notes}: {:?}",
                said.refused
            );
            assert!(
                !said.refused.contains(&kept.to_string()),
                "{notes}: {:?}",
                said.refused
            );
            assert!(
                said.wanted
                    .iter()
                    .all(|g| !g.contains(&refused.to_string())),
                "{notes}"
            );
        }
        assert!(r("no running or jumping").said.refused.is_empty());
        assert!(r("no pain today, full body").said.spare.is_empty());
    }

    #[test]
    fn exercises_asked_for() {
        let w = |notes: &str| r(notes).said.wanted;
        assert_eq!(w("upper body, I love pull-ups")[0], ["pull-up"]);
        assert_eq!(
            w("legs with dumbbells, goblet squats please")[0],
            ["db-goblet-squat", "kb-goblet-squat"]
        );
        assert_eq!(w("45 min upper, want to do dips and pull ups").len(), 2);
        assert!(w("squats").is_empty(), "a last word alone asks for nothing");
        assert!(w("my knee hurts when I squat").is_empty());
        assert!(w("did deadlifts yesterday, upper today").is_empty());
        assert!(w("Left shoulder is cranky: keep presses moderate.").is_empty());
    }

    #[test]
    fn what_is_refused_or_said_of_oneself_is_no_focus() {
        assert_eq!(
            session("No leg day today, upper only"),
            Some(SessionType::Upper)
        );
        assert_eq!(
            session("skip legs today pls. Upper body"),
            Some(SessionType::Upper)
        );
        let iffy = r("Gonna hit legs hard, my back's been iffy");
        assert_eq!(
            (iffy.focus.session, iffy.focus.groups.as_slice()),
            (Some(SessionType::Lower), &[][..])
        );
        assert_eq!(
            iffy.said.spare.iter().map(|s| s.part).collect::<Vec<_>>(),
            ["back"]
        );
        assert!(r("my right knee, legs").focus.groups.is_empty());
        assert_eq!(r("work on my glutes").focus.groups, [MuscleGroup::Glutes]);
        assert_eq!(r("ez day").energy, Energy::Easy);
        assert_eq!(r("recovering from a cold").energy, Energy::Easy);
        assert!(r("ez bar curls")
            .said
            .wanted
            .iter()
            .any(|g| g[0] == "ez-curl"));
        assert_eq!(r("Need to be out in 35. Back & shoulders").minutes, 35);
        assert_eq!(r("only have 40").minutes, 40);
        assert_eq!(r("in 3 sets of 10").minutes, DEFAULT_MINUTES);
        assert!(r("Squats are off for now")
            .said
            .refused
            .contains(&"bb-back-squat".into()));
    }

    #[test]
    fn body_parts_are_spared_only_with_a_word_of_care() {
        assert_eq!(parts("easy on the knees"), ["knees"]);
        assert_eq!(parts("my back hurts, shoulders too"), ["back", "shoulders"]);
        assert_eq!(
            parts("my lower back is tweaked, upper body today"),
            ["back"]
        );
        assert_eq!(parts("bad knee, legs anyway"), ["knees"]);
        assert_eq!(parts("elbow's been cranky. upper, dbs only"), ["elbows"]);
        assert_eq!(parts("wrist hurts, full body"), ["wrists"]);
        assert_eq!(parts("back day with a sore knee"), ["knees"]);
        assert_eq!(parts("my back and knees hurt"), ["back", "knees"]);
        assert_eq!(parts("30 min, mostly glutes, sore quads"), ["Quads"]);
        assert!(parts("back and biceps").is_empty());
        assert!(parts("knee-high skips").is_empty());
        assert!(parts("no pain in my knee").is_empty());
        let knees = r("bad knee").said.spare[0];
        let leaves = |id: &str| knees.leaves_out(builtin().iter().find(|e| e.id == id).unwrap());
        assert!(
            leaves("bb-back-squat")
                && leaves("db-walking-lunge")
                && leaves("machine-leg-extension")
        );
        assert!(!leaves("bb-deadlift") && !leaves("machine-leg-curl"));
        let back = r("lower back tweaked").said.spare[0];
        let leaves = |id: &str| back.leaves_out(builtin().iter().find(|e| e.id == id).unwrap());
        assert!(
            leaves("bb-romanian-deadlift") && leaves("bb-back-squat") && leaves("bb-bent-over-row")
        );
        assert!(!leaves("db-goblet-squat") && !leaves("cable-row"));
    }
}
