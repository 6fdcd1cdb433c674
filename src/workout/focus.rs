//! The focus of a session and the slots it plans (pure): a session type (full body, upper, lower,
//! push, pull, legs), body parts and muscle groups, and an exercise named as the day's focus.
//! Both entry points plan from it: `generateWorkout` (its instructions) and today's plan (its
//! notes), read by [`super::notes`]; an app or a rotation may also build one from a
//! [`SessionType`] (`Focus::from(SessionType::Push)`).
//!
//! Slots per focus ([`slot_specs_for`]):
//! - A session type alone: its table (full body: [`FULL_BODY_SLOTS`]; upper: two presses, two
//!   pulls, an arm and a shoulder or chest accessory; lower and legs: a squat, a hinge, a
//!   single-leg or second squat, a leg accessory, a calf and a core slot; push: a horizontal and a
//!   vertical press, a second press, a shoulder (not traps) and a triceps accessory; pull: two
//!   pulls, a back accessory or hinge, a biceps and a rear-shoulder accessory).
//! - Muscle groups: each group has its own slots, the main one first (chest: a chest press, a
//!   second press, a fly, a chest finisher, a triceps accessory; back: a main pull, a row, a
//!   second pull, a lat and a biceps accessory; shoulders: an overhead press, a raise, a second
//!   press, a rear-delt raise, a shrug; arms: a close-grip press, then curls and triceps work
//!   by turns; biceps and triceps: curls or triceps work; glutes, quads, hamstrings: their main
//!   hinge or squat, then single-leg and isolation work; calves; core). Two or more groups take
//!   their slots by turns, at most [`MAX_FOCUS_SLOTS`]. A session type named with them fills the
//!   rest from its table; otherwise fewer than 4 slots are filled from the first group's home
//!   session (biceps: pull, triceps: push, calves: lower, ...). Core alone keeps the full-body
//!   lifts and adds two core slots (the plan adds its core finisher).
//! - A slot of a group offers only exercises whose main (first) muscle is in the group
//!   ([`SlotSpec::muscles`]).
//! - An exercise named as the focus ([`Focus::lead`]) is the first slot, Tier A, and the slots of
//!   the session (the one named, else its own pattern's home session) follow without their first
//!   Tier A slot of that pattern; the planner places it ([`super::planner::skeleton_for`]).
//!
//! Slots are in tier order (A, B, C), each tier in the order above.

use super::model::{PlanTier, SessionType};

/// One kind of slot: its tier, the movement patterns that may fill it, the main muscles its
/// exercise must have (empty: any) and what it is for in words (shown to the model).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotSpec {
    /// Its tier.
    pub tier: PlanTier,
    /// The catalog movement patterns that may fill it.
    pub patterns: &'static [&'static str],
    /// The main (first) muscles its exercise may have; empty: any.
    pub muscles: &'static [&'static str],
    /// What it is for (`main chest press`).
    pub role: &'static str,
}

impl SlotSpec {
    /// A slot of `tier` for `patterns`, any main muscle.
    pub const fn new(
        tier: PlanTier,
        patterns: &'static [&'static str],
        role: &'static str,
    ) -> SlotSpec {
        SlotSpec {
            tier,
            patterns,
            muscles: &[],
            role,
        }
    }

    /// The slot for exercises whose main muscle is one of `muscles`.
    pub const fn of(self, muscles: &'static [&'static str]) -> SlotSpec {
        SlotSpec { muscles, ..self }
    }

    /// Whether `pattern` and `main_muscle` fit the slot (the tier's compound rule aside).
    pub fn fits(&self, pattern: &str, main_muscle: Option<&str>) -> bool {
        self.patterns.contains(&pattern)
            && (self.muscles.is_empty() || main_muscle.is_some_and(|m| self.muscles.contains(&m)))
    }
}

use PlanTier::{A, B, C};

const fn spec(tier: PlanTier, patterns: &'static [&'static str], role: &'static str) -> SlotSpec {
    SlotSpec::new(tier, patterns, role)
}

/// Most slots a focus of muscle groups plans.
pub const MAX_FOCUS_SLOTS: usize = 6;

/// The full-body slots (the workout flow's skeleton when nothing else is asked).
pub const FULL_BODY_SLOTS: &[SlotSpec] = &[
    spec(A, &["squat", "hinge"], "main lower-body lift"),
    spec(A, &["push_h", "pull_v"], "main upper-body lift"),
    spec(B, &["pull_h", "pull_v"], "row or pull"),
    spec(B, &["push_v", "lunge", "push_h"], "press or lunge"),
    spec(C, &["arms"], "arm accessory"),
    spec(
        C,
        &["core", "shoulders", "chest", "legs"],
        "core or shoulder accessory",
    ),
];

const UPPER_SLOTS: &[SlotSpec] = &[
    spec(A, &["push_h"], "main press"),
    spec(A, &["pull_v", "pull_h"], "main pull"),
    spec(B, &["push_v", "push_h"], "second press"),
    spec(B, &["pull_h", "back", "pull_v"], "row"),
    spec(C, &["arms"], "arm accessory"),
    spec(C, &["shoulders", "chest"], "shoulder or chest accessory").of(&["shoulders", "chest"]),
];

const LOWER_SLOTS: &[SlotSpec] = &[
    spec(A, &["squat"], "main squat"),
    spec(A, &["hinge"], "main hinge"),
    spec(B, &["lunge", "squat"], "single-leg or second squat"),
    spec(B, &["legs", "hinge"], "leg accessory"),
    spec(C, &["calves", "legs"], "calf or leg accessory"),
    spec(C, &["core"], "core"),
];

const PUSH_SLOTS: &[SlotSpec] = &[
    spec(A, &["push_h"], "main press"),
    spec(B, &["push_v"], "overhead press"),
    spec(B, &["push_h", "chest"], "second press"),
    spec(C, &["shoulders"], "shoulder accessory").of(SHOULDERS),
    spec(C, &["arms"], "triceps accessory").of(TRICEPS),
];

const PULL_SLOTS: &[SlotSpec] = &[
    spec(A, &["pull_v", "pull_h"], "main pull"),
    spec(B, &["pull_h", "pull_v"], "row"),
    spec(B, &["back", "hinge"], "back accessory"),
    spec(C, &["arms"], "biceps accessory").of(BICEPS),
    spec(C, &["shoulders"], "rear shoulder accessory"),
];

/// Core alone: the full-body lifts, then two core slots.
const CORE_DAY_SLOTS: &[SlotSpec] = &[
    spec(A, &["squat", "hinge"], "main lower-body lift"),
    spec(A, &["push_h", "pull_v"], "main upper-body lift"),
    spec(B, &["pull_h", "pull_v"], "row or pull"),
    spec(C, &["core"], "core").of(ABS),
    spec(C, &["core"], "second core").of(ABS),
];

const ABS: &[&str] = &["abs"];
const CHEST: &[&str] = &["chest"];
const SHOULDERS: &[&str] = &["shoulders"];
const TRAPS: &[&str] = &["traps"];
const BICEPS: &[&str] = &["biceps"];
const TRICEPS: &[&str] = &["triceps"];
const GLUTES: &[&str] = &["glutes"];
const QUADS: &[&str] = &["quads"];
const HAMSTRINGS: &[&str] = &["hamstrings"];

const CHEST_SLOTS: &[SlotSpec] = &[
    spec(A, &["push_h"], "main chest press").of(CHEST),
    spec(B, &["push_h"], "second chest press").of(CHEST),
    spec(C, &["chest"], "chest fly"),
    spec(C, &["push_h", "chest"], "chest finisher").of(CHEST),
    spec(C, &["arms"], "triceps accessory").of(TRICEPS),
];

const BACK_SLOTS: &[SlotSpec] = &[
    spec(A, &["pull_v", "pull_h"], "main pull"),
    spec(B, &["pull_h"], "row"),
    spec(B, &["pull_v", "pull_h"], "second pull"),
    spec(C, &["back"], "lat accessory"),
    spec(C, &["arms"], "biceps accessory").of(BICEPS),
];

const SHOULDERS_SLOTS: &[SlotSpec] = &[
    spec(A, &["push_v"], "overhead press"),
    spec(B, &["shoulders"], "lateral raise").of(SHOULDERS),
    spec(B, &["push_v"], "second overhead press"),
    spec(C, &["shoulders"], "rear-delt or raise").of(SHOULDERS),
    spec(C, &["shoulders"], "shrug").of(TRAPS),
];

const ARMS_SLOTS: &[SlotSpec] = &[
    spec(A, &["push_h"], "close-grip press").of(TRICEPS),
    spec(B, &["arms"], "curl").of(BICEPS),
    spec(B, &["arms"], "triceps extension").of(TRICEPS),
    spec(C, &["arms"], "second curl").of(BICEPS),
    spec(C, &["arms"], "second triceps accessory").of(TRICEPS),
];

const BICEPS_SLOTS: &[SlotSpec] = &[
    spec(B, &["arms"], "curl").of(BICEPS),
    spec(C, &["arms"], "second curl").of(BICEPS),
    spec(B, &["pull_v"], "chin-up or pull-down"),
];

const TRICEPS_SLOTS: &[SlotSpec] = &[
    spec(B, &["arms"], "triceps extension").of(TRICEPS),
    spec(C, &["arms"], "second triceps accessory").of(TRICEPS),
    spec(B, &["push_h"], "close-grip press or dip").of(TRICEPS),
];

const GLUTES_SLOTS: &[SlotSpec] = &[
    spec(A, &["hinge"], "main glute lift").of(GLUTES),
    spec(B, &["squat", "lunge"], "squat or lunge"),
    spec(B, &["hinge"], "hip thrust or bridge").of(GLUTES),
    spec(C, &["legs"], "glute accessory").of(GLUTES),
    spec(C, &["lunge"], "single-leg"),
];

const QUADS_SLOTS: &[SlotSpec] = &[
    spec(A, &["squat"], "main squat"),
    spec(B, &["lunge", "squat"], "single-leg or second squat"),
    spec(C, &["legs"], "quad accessory").of(QUADS),
    spec(C, &["squat", "lunge"], "quad finisher"),
];

const HAMSTRINGS_SLOTS: &[SlotSpec] = &[
    spec(A, &["hinge"], "main hinge").of(HAMSTRINGS),
    spec(B, &["hinge"], "second hinge").of(&["hamstrings", "glutes"]),
    spec(C, &["legs"], "leg curl").of(HAMSTRINGS),
    spec(C, &["legs"], "bridge or kickback").of(&["glutes", "hamstrings"]),
];

const CALVES_SLOTS: &[SlotSpec] = &[
    spec(C, &["calves"], "calf raise"),
    spec(C, &["calves"], "second calf raise"),
];

const CORE_SLOTS: &[SlotSpec] = &[
    spec(C, &["core"], "core").of(ABS),
    spec(C, &["core"], "second core").of(ABS),
];

/// A body part or muscle group named as the focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MuscleGroup {
    /// Chest (pecs).
    Chest,
    /// Back (lats, upper back).
    Back,
    /// Shoulders (delts, traps).
    Shoulders,
    /// Biceps and triceps.
    Arms,
    /// Biceps.
    Biceps,
    /// Triceps.
    Triceps,
    /// Glutes.
    Glutes,
    /// Quads.
    Quads,
    /// Hamstrings.
    Hamstrings,
    /// Calves.
    Calves,
    /// Abs and core.
    Core,
}

impl MuscleGroup {
    /// Every group, in order.
    pub const ALL: [MuscleGroup; 11] = [
        MuscleGroup::Chest,
        MuscleGroup::Back,
        MuscleGroup::Shoulders,
        MuscleGroup::Arms,
        MuscleGroup::Biceps,
        MuscleGroup::Triceps,
        MuscleGroup::Glutes,
        MuscleGroup::Quads,
        MuscleGroup::Hamstrings,
        MuscleGroup::Calves,
        MuscleGroup::Core,
    ];

    /// The group as a person reads it (`Chest`).
    pub fn label(self) -> &'static str {
        match self {
            MuscleGroup::Chest => "Chest",
            MuscleGroup::Back => "Back",
            MuscleGroup::Shoulders => "Shoulders",
            MuscleGroup::Arms => "Arms",
            MuscleGroup::Biceps => "Biceps",
            MuscleGroup::Triceps => "Triceps",
            MuscleGroup::Glutes => "Glutes",
            MuscleGroup::Quads => "Quads",
            MuscleGroup::Hamstrings => "Hamstrings",
            MuscleGroup::Calves => "Calves",
            MuscleGroup::Core => "Core",
        }
    }

    /// The catalog muscles of the group (an exercise trains it when its main muscle is one).
    pub fn muscles(self) -> &'static [&'static str] {
        match self {
            MuscleGroup::Chest => CHEST,
            MuscleGroup::Back => &["back", "lats"],
            MuscleGroup::Shoulders => &["shoulders", "traps"],
            MuscleGroup::Arms => &["biceps", "triceps", "forearms"],
            MuscleGroup::Biceps => BICEPS,
            MuscleGroup::Triceps => TRICEPS,
            MuscleGroup::Glutes => GLUTES,
            MuscleGroup::Quads => QUADS,
            MuscleGroup::Hamstrings => HAMSTRINGS,
            MuscleGroup::Calves => &["calves"],
            MuscleGroup::Core => ABS,
        }
    }

    /// The group's slots, the main one first.
    pub fn slots(self) -> &'static [SlotSpec] {
        match self {
            MuscleGroup::Chest => CHEST_SLOTS,
            MuscleGroup::Back => BACK_SLOTS,
            MuscleGroup::Shoulders => SHOULDERS_SLOTS,
            MuscleGroup::Arms => ARMS_SLOTS,
            MuscleGroup::Biceps => BICEPS_SLOTS,
            MuscleGroup::Triceps => TRICEPS_SLOTS,
            MuscleGroup::Glutes => GLUTES_SLOTS,
            MuscleGroup::Quads => QUADS_SLOTS,
            MuscleGroup::Hamstrings => HAMSTRINGS_SLOTS,
            MuscleGroup::Calves => CALVES_SLOTS,
            MuscleGroup::Core => CORE_SLOTS,
        }
    }

    /// The session type the group belongs to (the slots that fill a short list).
    pub fn home(self) -> SessionType {
        match self {
            MuscleGroup::Chest | MuscleGroup::Shoulders | MuscleGroup::Triceps => SessionType::Push,
            MuscleGroup::Back | MuscleGroup::Biceps => SessionType::Pull,
            MuscleGroup::Arms => SessionType::Upper,
            MuscleGroup::Glutes
            | MuscleGroup::Quads
            | MuscleGroup::Hamstrings
            | MuscleGroup::Calves => SessionType::Lower,
            MuscleGroup::Core => SessionType::FullBody,
        }
    }
}

/// What a session is about: a session type, body parts or muscle groups, an exercise named as
/// the day's focus, or several of these. The default is a full-body session.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Focus {
    /// The session type named (`None`: none).
    pub session: Option<SessionType>,
    /// The body parts and muscle groups named, in [`MuscleGroup`] order, each once.
    pub groups: Vec<MuscleGroup>,
    /// The exercise named as the day's focus: the catalog ids that fit the words, the preferred
    /// first (empty: none).
    pub lead: Vec<String>,
    /// The lead's movement pattern (its home session when nothing else is named).
    pub lead_pattern: Option<&'static str>,
    /// The words that named the lead, as a person reads them (`Bench Press`).
    pub lead_name: String,
}

impl From<SessionType> for Focus {
    fn from(session: SessionType) -> Self {
        Focus {
            session: Some(session),
            ..Focus::default()
        }
    }
}

/// The catalog's movement patterns (an app's own exercise may have another).
pub const PATTERNS: &[&str] = &[
    "squat",
    "hinge",
    "lunge",
    "push_h",
    "push_v",
    "pull_h",
    "pull_v",
    "arms",
    "shoulders",
    "chest",
    "back",
    "legs",
    "calves",
    "core",
];

/// The session type an exercise of `pattern` belongs to.
pub fn home_of_pattern(pattern: &str) -> SessionType {
    match pattern {
        "push_h" | "push_v" | "chest" | "shoulders" => SessionType::Push,
        "pull_h" | "pull_v" | "back" => SessionType::Pull,
        "squat" | "hinge" | "lunge" | "legs" | "calves" => SessionType::Lower,
        "arms" => SessionType::Upper,
        _ => SessionType::FullBody,
    }
}

/// A session type as a person reads it (`Upper Body`).
pub fn session_label(s: SessionType) -> &'static str {
    match s {
        SessionType::FullBody => "Full Body",
        SessionType::Upper => "Upper Body",
        SessionType::Lower => "Lower Body",
        SessionType::Push => "Push",
        SessionType::Pull => "Pull",
        SessionType::Legs => "Legs",
    }
}

/// The slots of a session type.
pub fn session_slots(s: SessionType) -> &'static [SlotSpec] {
    match s {
        SessionType::FullBody => FULL_BODY_SLOTS,
        SessionType::Upper => UPPER_SLOTS,
        SessionType::Lower | SessionType::Legs => LOWER_SLOTS,
        SessionType::Push => PUSH_SLOTS,
        SessionType::Pull => PULL_SLOTS,
    }
}

impl Focus {
    /// Core and nothing else: the full-body lifts with core work (and a core finisher in
    /// today's plan).
    pub fn is_core_day(&self) -> bool {
        self.session.is_none() && self.groups == [MuscleGroup::Core]
    }

    /// The focus as a person reads it: the session type named (`Upper Body`), else the groups
    /// (`Chest and Triceps`; core alone: `Core and Full Body`), else the lead's words
    /// (`Bench Press`), else `Full Body`.
    pub fn label(&self) -> String {
        if let Some(s) = self.session {
            return session_label(s).to_string();
        }
        if self.is_core_day() {
            return "Core and Full Body".into();
        }
        if !self.groups.is_empty() {
            let names: Vec<&str> = self.groups.iter().map(|g| g.label()).collect();
            return match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    format!("{} and {last}", rest.join(", "))
                }
                _ => names.join(""),
            };
        }
        if !self.lead.is_empty() && !self.lead_name.is_empty() {
            return self.lead_name.clone();
        }
        session_label(SessionType::FullBody).into()
    }

    /// The session type of the slots planned: the one named, else the home of the groups (all
    /// of one home; mixed upper groups: upper; upper and lower: full body), else the lead's
    /// home, else full body.
    pub fn session_type(&self) -> SessionType {
        if let Some(s) = self.session {
            return s;
        }
        let homes: Vec<SessionType> = self
            .groups
            .iter()
            .filter(|g| **g != MuscleGroup::Core)
            .map(|g| g.home())
            .collect();
        if let Some(first) = homes.first() {
            if homes.iter().all(|h| h == first) {
                return *first;
            }
            let upper = |h: &SessionType| {
                matches!(
                    h,
                    SessionType::Push | SessionType::Pull | SessionType::Upper
                )
            };
            return if homes.iter().all(upper) {
                SessionType::Upper
            } else {
                SessionType::FullBody
            };
        }
        match (self.lead.is_empty(), self.lead_pattern) {
            (false, Some(p)) => home_of_pattern(p),
            _ => SessionType::FullBody,
        }
    }
}

/// The slots of `focus` (see the module docs), in tier order, without the lead's own slot (the
/// planner puts the lead first).
pub fn slot_specs_for(focus: &Focus) -> Vec<SlotSpec> {
    if focus.is_core_day() {
        return CORE_DAY_SLOTS.to_vec();
    }
    if focus.groups.is_empty() {
        return session_slots(focus.session_type()).to_vec();
    }
    let mut out: Vec<SlotSpec> = Vec::new();
    let lists: Vec<&[SlotSpec]> = focus.groups.iter().map(|g| g.slots()).collect();
    let longest = lists.iter().map(|l| l.len()).max().unwrap_or(0);
    'turns: for i in 0..longest {
        for l in &lists {
            if out.len() == MAX_FOCUS_SLOTS {
                break 'turns;
            }
            if let Some(s) = l.get(i) {
                out.push(*s);
            }
        }
    }
    let pad = match focus.session {
        Some(s) => Some(s),
        None if out.len() < 4 => Some(focus.groups[0].home()),
        None => None,
    };
    if let Some(s) = pad {
        for p in session_slots(s) {
            if out.len() >= MAX_FOCUS_SLOTS {
                break;
            }
            if !out
                .iter()
                .any(|o| o.tier == p.tier && o.patterns == p.patterns && o.muscles == p.muscles)
            {
                out.push(*p);
            }
        }
    }
    out.sort_by_key(|s| s.tier);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(g: &[MuscleGroup]) -> Focus {
        Focus {
            groups: g.to_vec(),
            ..Focus::default()
        }
    }

    #[test]
    fn sessions_plan_their_tables_and_groups_take_turns() {
        assert_eq!(slot_specs_for(&Focus::default()), FULL_BODY_SLOTS);
        assert_eq!(
            slot_specs_for(&Focus::from(SessionType::Legs)),
            slot_specs_for(&Focus::from(SessionType::Lower))
        );
        let chest_tris = slot_specs_for(&groups(&[MuscleGroup::Chest, MuscleGroup::Triceps]));
        assert_eq!(chest_tris.len(), MAX_FOCUS_SLOTS);
        assert!(chest_tris.windows(2).all(|w| w[0].tier <= w[1].tier));
        for s in &chest_tris {
            assert!(
                s.patterns
                    .iter()
                    .all(|p| ["push_h", "chest", "arms"].contains(p)),
                "{s:?}"
            );
        }
        assert!(chest_tris.iter().any(|s| s.muscles == TRICEPS));
        // Fewer than 4 slots: the home session fills up.
        let biceps = slot_specs_for(&groups(&[MuscleGroup::Biceps]));
        assert_eq!(biceps.len(), MAX_FOCUS_SLOTS);
        assert!(biceps.iter().any(|s| s.role == "main pull"), "{biceps:?}");
        // Core alone keeps the full-body lifts.
        let core = slot_specs_for(&groups(&[MuscleGroup::Core]));
        assert_eq!(core[0], FULL_BODY_SLOTS[0]);
        assert_eq!(core.iter().filter(|s| s.muscles == ABS).count(), 2);
        // A session named fills the rest from its table.
        let upper_back = slot_specs_for(&Focus {
            session: Some(SessionType::Upper),
            ..groups(&[MuscleGroup::Back])
        });
        assert_eq!(upper_back.len(), MAX_FOCUS_SLOTS);
        assert!(upper_back.iter().any(|s| s.role == "main press"));
    }

    #[test]
    fn labels_and_session_types() {
        let f = groups(&[
            MuscleGroup::Chest,
            MuscleGroup::Shoulders,
            MuscleGroup::Triceps,
        ]);
        assert_eq!(f.label(), "Chest, Shoulders and Triceps");
        assert_eq!(f.session_type(), SessionType::Push);
        assert_eq!(groups(&[MuscleGroup::Back]).label(), "Back");
        assert_eq!(
            groups(&[MuscleGroup::Chest, MuscleGroup::Back]).session_type(),
            SessionType::Upper
        );
        assert_eq!(
            groups(&[MuscleGroup::Glutes, MuscleGroup::Chest]).session_type(),
            SessionType::FullBody
        );
        assert_eq!(groups(&[MuscleGroup::Core]).label(), "Core and Full Body");
        assert_eq!(Focus::from(SessionType::Upper).label(), "Upper Body");
        let bench = Focus {
            lead: vec!["bb-bench-press".into()],
            lead_pattern: Some("push_h"),
            lead_name: "Bench Press".into(),
            ..Focus::default()
        };
        assert_eq!(
            (bench.label().as_str(), bench.session_type()),
            ("Bench Press", SessionType::Push)
        );
        assert_eq!(slot_specs_for(&bench)[0].role, "main press");
    }
}
