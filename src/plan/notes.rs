//! Reading the user's notes for today's plan (pure and deterministic): the minutes, the body
//! focus, the goal, the energy, the equipment and what to spare. Code reads the notes; the model
//! only picks exercises among those this reading allows (a 135M-parameter model does not reliably
//! turn "an hour and a half" into 90 or "dumbbells only" into an equipment list).
//!
//! Words are matched whole and lower-cased; English only. What the notes do not say takes the
//! defaults: 45 minutes, full body, general fitness, moderate energy, a full gym.
//! - Minutes: `40 minutes`, `40 min`, `40min`, `40-minute`, `1 hour`, `1.5 hours`, `90m`,
//!   `an hour`, `half an hour`, `an hour and a half`; `quick` alone is 30. Kept within 15 to 180.
//! - Focus: `upper` (body), `lower` (body), `legs`, `leg day`, `glutes`; `push` and `pull` (not
//!   `push-ups` or `pull-ups`); `core`, `abs`; `full body`. Upper and lower together are full body.
//! - Goal: strength (`strength`, `strong`, `stronger`, `heavy`, `power`), hypertrophy (`muscle`,
//!   `hypertrophy`, `size`, `bulk`, `pump`), endurance (`endurance`, `conditioning`, `stamina`,
//!   `circuit`, `sweat`), else general.
//! - Energy: easy (`easy` but not `easy on ...`, `light`, `recovery`, `tired`, `gentle`, `deload`,
//!   `sore`, `exhausted`, `low energy`), intense (`hard`, `intense`, `tough`, `brutal`, `all out`),
//!   else moderate.
//! - Equipment: named kinds (`dumbbells`, `kettlebell`, `barbell`, `bands`, `bench`, `pull-up bar`,
//!   `cables`, `machines`) are the whole inventory ("dumbbells only", "at home with a
//!   kettlebell"); `bodyweight`, `body weight`, `no equipment`, `calisthenics` are none; `gym` or
//!   nothing named is a full gym. `no X` or `without X` bans a kind instead.
//! - Spare: with a word of pain or care (`pain`, `hurts`, `sore`, `injured`, `bad`, `tweaked`,
//!   `easy on`, `careful`, `spare`, `protect`), `knee` leaves out lunges, `back` hinges and
//!   `shoulder` overhead presses.

use crate::plan::Energy;
use crate::workout::Goal;

/// The body focus of today's plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// The default.
    FullBody,
    /// Chest, back, shoulders, arms.
    UpperBody,
    /// Squats, hinges, lunges, legs.
    LowerBody,
    /// Presses and triceps.
    Push,
    /// Rows, pull-downs and biceps.
    Pull,
    /// Full body with a core finisher.
    Core,
}

impl Focus {
    /// The focus as a person reads it (`Upper Body`).
    pub fn label(self) -> &'static str {
        match self {
            Focus::FullBody => "Full Body",
            Focus::UpperBody => "Upper Body",
            Focus::LowerBody => "Lower Body",
            Focus::Push => "Push",
            Focus::Pull => "Pull",
            Focus::Core => "Core and Full Body",
        }
    }
}

/// A part of the body the notes ask to spare, and the movement pattern left out for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spare {
    /// Leaves out lunges.
    Knees,
    /// Leaves out hinges (deadlifts, good mornings, swings).
    Back,
    /// Leaves out overhead presses.
    Shoulders,
}

impl Spare {
    /// The catalog pattern left out.
    pub fn pattern(self) -> &'static str {
        match self {
            Spare::Knees => "lunge",
            Spare::Back => "hinge",
            Spare::Shoulders => "push_v",
        }
    }

    /// The body part, in words.
    pub fn part(self) -> &'static str {
        match self {
            Spare::Knees => "knees",
            Spare::Back => "back",
            Spare::Shoulders => "shoulders",
        }
    }
}

/// What the notes say about today, with the defaults filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct DayReading {
    /// The whole session, 15 to 180 minutes.
    pub minutes: u32,
    /// The body focus.
    pub focus: Focus,
    /// The training goal.
    pub goal: Goal,
    /// How hard it should feel.
    pub energy: Energy,
    /// Inventory keys available (empty: body weight only).
    pub equipment: Vec<&'static str>,
    /// Equipment kinds the notes ban (catalog requirement names such as `barbell`).
    pub banned: Vec<&'static str>,
    /// Body parts to spare.
    pub spare: Vec<Spare>,
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

/// Equipment words: the words (one or two), the inventory keys they stand for, the catalog
/// requirement a `no ...` bans.
const EQUIPMENT: &[(&[&str], &[&str], &str)] = &[
    (
        &["dumbbell", "dumbbells", "db", "dbs"],
        &["eq_dumbbells_set_5-50"],
        "dumbbells",
    ),
    (
        &["kettlebell", "kettlebells", "kb", "kbs"],
        &["eq_kettlebell"],
        "kettlebell",
    ),
    (
        &["barbell", "barbells"],
        &["eq_barbell_olympic", "eq_squat_rack", "eq_bench_adjustable"],
        "barbell",
    ),
    (&["band", "bands"], &["eq_resistance_bands"], "bands"),
    (&["bench"], &["eq_bench_adjustable"], "bench"),
    (
        &["cable", "cables"],
        &["eq_cable_machine_dual_stack"],
        "cable",
    ),
    (
        &["machine", "machines"],
        &[
            "eq_cable_machine_dual_stack",
            "eq_lat_pulldown",
            "eq_seated_row",
            "eq_leg_press",
            "eq_leg_curl",
            "eq_leg_extension",
        ],
        "cable",
    ),
];

/// The notes as lower-case words: letters, digits and `.` inside numbers; everything else
/// separates (so `pull-ups` is `pull`, `ups` and `45min` is one word).
pub(crate) fn words(notes: &str) -> Vec<String> {
    notes
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '.'))
        .map(|w| w.trim_matches('.').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `phrase` (space-separated words) occurs in `w` at `i`.
fn at(w: &[String], i: usize, phrase: &str) -> bool {
    let p: Vec<&str> = phrase.split(' ').collect();
    i + p.len() <= w.len() && p.iter().zip(&w[i..]).all(|(a, b)| a == b)
}

/// Whether `phrase` occurs anywhere in `w`.
fn has(w: &[String], phrase: &str) -> bool {
    (0..w.len()).any(|i| at(w, i, phrase))
}

/// Whether any of `list` is one of the words.
fn any(w: &[String], list: &[&str]) -> bool {
    list.iter().any(|p| has(w, p))
}

/// A number with an optional unit stuck to it (`45min`, `1.5h`): (value, unit).
fn number(word: &str) -> Option<(f64, &str)> {
    let split = word
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(word.len());
    let (n, unit) = word.split_at(split);
    n.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .map(|v| (v, unit))
}

fn minutes_unit(u: &str) -> Option<f64> {
    match u {
        "m" | "min" | "mins" | "minute" | "minutes" => Some(1.0),
        "h" | "hr" | "hrs" | "hour" | "hours" => Some(60.0),
        _ => None,
    }
}

/// The session length the notes name, if any (before clamping).
fn minutes(w: &[String]) -> Option<f64> {
    for i in 0..w.len() {
        if at(w, i, "hour and a half") || at(w, i, "an hour and a half") {
            return Some(90.0);
        }
        if at(w, i, "half an hour") || at(w, i, "half hour") {
            return Some(30.0);
        }
        if let Some((v, stuck)) = number(&w[i]) {
            let unit = if stuck.is_empty() {
                w.get(i + 1).map(String::as_str).unwrap_or("")
            } else {
                stuck
            };
            if let Some(f) = minutes_unit(unit) {
                return Some(v * f);
            }
        }
    }
    if has(w, "an hour") || has(w, "one hour") {
        return Some(60.0);
    }
    if has(w, "quick") {
        return Some(30.0);
    }
    None
}

/// Whether `word` at `i` is negated by the word before (`no`, `without`, `not`).
fn negated(w: &[String], i: usize) -> bool {
    i > 0 && matches!(w[i - 1].as_str(), "no" | "without" | "not" | "skip")
}

fn focus(w: &[String]) -> Focus {
    let upper = has(w, "upper");
    let lower = any(w, &["lower", "legs", "leg day", "glutes", "leg"]);
    let ups = |i: usize| w.get(i + 1).is_some_and(|n| n == "up" || n == "ups");
    let push = (0..w.len()).any(|i| w[i] == "push" && !ups(i));
    let pull = (0..w.len()).any(|i| w[i] == "pull" && !ups(i));
    if has(w, "full body") || has(w, "total body") || (upper && lower) {
        FullBody
    } else if upper {
        UpperBody
    } else if lower {
        LowerBody
    } else if push && !pull {
        Push
    } else if pull && !push {
        Pull
    } else if push && pull {
        UpperBody
    } else if any(w, &["core", "abs"]) {
        Core
    } else {
        FullBody
    }
}

use Focus::*;

fn goal(w: &[String]) -> Goal {
    if any(w, &["strength", "strong", "stronger", "heavy", "power"]) {
        Goal::Strength
    } else if any(w, &["muscle", "hypertrophy", "size", "bulk", "pump"]) {
        Goal::Hypertrophy
    } else if any(
        w,
        &["endurance", "conditioning", "stamina", "circuit", "sweat"],
    ) {
        Goal::Endurance
    } else {
        Goal::General
    }
}

fn energy(w: &[String]) -> Energy {
    let easy_word = (0..w.len()).any(|i| w[i] == "easy" && !at(w, i + 1, "on"));
    if easy_word
        || any(
            w,
            &[
                "light",
                "recovery",
                "tired",
                "gentle",
                "deload",
                "sore",
                "exhausted",
                "low energy",
            ],
        )
    {
        Energy::Easy
    } else if any(w, &["hard", "intense", "tough", "brutal", "all out"]) {
        Energy::Intense
    } else {
        Energy::Moderate
    }
}

/// (inventory, banned kinds).
fn equipment(w: &[String]) -> (Vec<&'static str>, Vec<&'static str>) {
    let mut named: Vec<&'static str> = Vec::new();
    let mut banned: Vec<&'static str> = Vec::new();
    let mut any_named = false;
    for (i, word) in w.iter().enumerate() {
        for (names, keys, kind) in EQUIPMENT {
            if names.contains(&word.as_str()) {
                if negated(w, i) {
                    banned.push(kind);
                } else {
                    any_named = true;
                    named.extend(keys.iter());
                }
            }
        }
        if at(w, i, "pull up bar") || at(w, i, "pullup bar") {
            any_named = true;
            named.push("eq_pullup_bar");
        }
    }
    let bodyweight = any(
        w,
        &[
            "bodyweight",
            "body weight",
            "no equipment",
            "calisthenics",
            "without equipment",
        ],
    );
    let mut inventory: Vec<&'static str> = if any_named {
        named
    } else if bodyweight && !has(w, "gym") {
        Vec::new()
    } else {
        FULL_GYM.to_vec()
    };
    let mut seen = std::collections::HashSet::new();
    inventory.retain(|k| seen.insert(*k));
    banned.sort_unstable();
    banned.dedup();
    (inventory, banned)
}

fn spare(w: &[String]) -> Vec<Spare> {
    let care = any(
        w,
        &[
            "pain", "painful", "hurts", "hurt", "sore", "injured", "injury", "bad", "tweaked",
            "easy on", "careful", "spare", "protect", "achy", "aching",
        ],
    );
    if !care {
        return Vec::new();
    }
    let mut out = Vec::new();
    if any(w, &["knee", "knees"]) {
        out.push(Spare::Knees);
    }
    if any(w, &["back", "lower back", "spine"]) && !has(w, "back squat") {
        out.push(Spare::Back);
    }
    if any(w, &["shoulder", "shoulders"]) {
        out.push(Spare::Shoulders);
    }
    out
}

/// Reads `notes` (see the module docs).
pub fn read(notes: &str) -> DayReading {
    let w = words(notes);
    let (equipment, banned) = equipment(&w);
    DayReading {
        minutes: minutes(&w).map_or(DEFAULT_MINUTES, |m| m.round().clamp(15.0, 180.0) as u32),
        focus: focus(&w),
        goal: goal(&w),
        energy: energy(&w),
        equipment,
        banned,
        spare: spare(&w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            ("quick one", 30),
            ("legs", DEFAULT_MINUTES),
            ("5 minutes", 15),
            ("10 hours", 180),
            ("3 x 10 push-ups", DEFAULT_MINUTES),
        ] {
            assert_eq!(read(notes).minutes, m, "{notes}");
        }
    }

    #[test]
    fn focus_goal_and_energy() {
        for (notes, f) in [
            ("upper body, dumbbells only", UpperBody),
            ("Leg day!", LowerBody),
            ("glutes and hamstrings", LowerBody),
            ("push day", Push),
            ("pull", Pull),
            ("push-ups and pull-ups only", FullBody),
            ("push and pull", UpperBody),
            ("upper and lower", FullBody),
            ("abs", Core),
            ("", FullBody),
        ] {
            assert_eq!(read(notes).focus, f, "{notes}");
        }
        assert_eq!(read("heavy legs").goal, Goal::Strength);
        assert_eq!(read("build muscle").goal, Goal::Hypertrophy);
        assert_eq!(read("conditioning circuit").goal, Goal::Endurance);
        assert_eq!(read("30 minutes").goal, Goal::General);
        assert_eq!(read("tired, something light").energy, Energy::Easy);
        assert_eq!(read("easy day").energy, Energy::Easy);
        assert_eq!(
            read("easy on the knees").energy,
            Energy::Moderate,
            "easy on X spares X"
        );
        assert_eq!(read("go hard").energy, Energy::Intense);
        assert_eq!(read("upper body").energy, Energy::Moderate);
    }

    #[test]
    fn equipment_named_is_the_whole_inventory() {
        assert_eq!(read("dumbbells only").equipment, ["eq_dumbbells_set_5-50"]);
        assert_eq!(
            read("at home with a kettlebell and bands").equipment,
            ["eq_kettlebell", "eq_resistance_bands"]
        );
        assert!(read("bodyweight, hotel room").equipment.is_empty());
        assert!(read("no equipment").equipment.is_empty());
        assert_eq!(read("legs").equipment, FULL_GYM);
        assert_eq!(read("gym, bodyweight warm-up").equipment, FULL_GYM);
        let r = read("gym but no barbell");
        assert_eq!(
            (r.equipment.as_slice(), r.banned.as_slice()),
            (FULL_GYM, &["barbell"][..])
        );
        assert_eq!(read("pull-up bar only").equipment, ["eq_pullup_bar"]);
    }

    #[test]
    fn body_parts_are_spared_only_with_a_word_of_care() {
        assert_eq!(read("easy on the knees").spare, [Spare::Knees]);
        assert_eq!(
            read("my back hurts, shoulders too").spare,
            [Spare::Back, Spare::Shoulders]
        );
        assert!(read("back and biceps").spare.is_empty());
        assert!(read("knee-high skips").spare.is_empty());
    }
}
