//! The one reader of what a user writes about today's session (pure and deterministic):
//! `generateWorkout`'s `instructions` and today's plan's `notes`. Code reads what code can place
//! (a 135M-parameter model does not reliably turn "an hour and a half" into 90, "no squats" into
//! a list of exercise ids or "my lower back is tweaked" into the movements to leave out); the
//! model then only chooses among exercises that already meet it, and reads the text for the rest.
//!
//! English, lower-cased, word by word; `db`, `bb`, `kb`, `bw`, `w/`, `w/o`, `&`, `+`, `mins`,
//! `hr` and the like are read as their words. What it reads ([`NotesReading`]):
//! - Minutes: `40 minutes`, `40 min`, `40min`, `40-minute`, `1 hour`, `1 hr 15`, `1h30`,
//!   `1.5 hours`, `90m`, `30ish`, `an hour`, `an hr`, `half an hour`, `an hour and a half`; a
//!   number after a word of time (`out in 35`, `only have 40`, `about 45`) or alone between
//!   commas (`calves and abs, 30`), with no other unit after it; `quick` alone is 30.
//! - Focus ([`Focus`]): a session type (`full body`, `total body`; `upper`; `lower`, `legs`,
//!   `leg day`; `push`, `pull`, but not `push-ups`, `pull-ups`, `pull-downs`, `push it`; upper
//!   and lower together are full body, push and pull upper body, push or pull with legs full
//!   body; not after a refusing word: `no leg day`, `skip legs`); body parts and muscle groups
//!   (`chest`, `pecs`; `back` (not `I'm back`, `back into it`), `lats`; `shoulders`, `delts`,
//!   `traps`; `arms`, `guns`; `biceps`, `bis`; `triceps`, `tris`; `glutes`, `booty`; `quads`;
//!   `hamstrings`, `hams`; `calves`; `core`, `abs`); an exercise named as the focus (`bench
//!   day`, `squat day`, `ohp focus`, `focus on`, `work on`, `get better at`, `practice`,
//!   `prioritize`, `improve` before it; a list after a focus word: the first leads, the rest are
//!   wanted). A body part with a word of pain is spared, never a focus; nor is one said as the
//!   user's own (`my back's been iffy`, `my right knee`; but `work on my glutes`).
//! - Exercises: by catalog id (`bb-deadlift`), by name without its equipment words (`bench
//!   press`, `goblet squats`, `pull-ups`, `face pulls`), by aliases (`ohp`, `rdl`, `bss`, `tgu`,
//!   `pullups`, `pushups`, `chinups`, `skullcrushers`, `deads`, `dl`, `benching`, `lat raises`),
//!   an equipment word before the name narrowing it (`barbell rows`, `db press`), or by the last
//!   word of names (`squats`, `deadlifts`, `rows`, `curls`, `presses`, `raises`, `flyes`, `dips`,
//!   `swings`, `shrugs`, `crunches`, `thrusts`): every exercise whose name has it, `lunges` every
//!   lunge pattern. `overhead` (pressing) is the vertical presses, `hinges` the hinges.
//!   - Refused after `no`, `not`, `without`, `avoid`, `skip`, `hate`, `don't want`, `don't like`,
//!     `no more`, `can't do`, `can't`, `leave out`, `drop`, `except`, `ban`, `exclude`, `sick
//!     of`, `tired of`, `done with`, `instead of`, `don't have`, or before `not today`, `is out`,
//!     `are off`, `off limits`, `is a no`: the whole list after the word (`no squats or lunges`, `avoid pull-ups and
//!     dips`), equipment too (`no barbell`, `hate cable stuff`, `w/o machines`).
//!   - Wanted otherwise, when named in full (`goblet squats please`), or by a last word (`dips`,
//!     `curls`) in a sentence that asks (`want`, `wanna`, `love`, `like`, `please`, `include`,
//!     `add`, `some`), but not in a sentence about pain or about what was done (`yesterday`,
//!     `did`, `last`).
//! - Body parts to spare, with a word of pain or care in the same part of the sentence (`pain`,
//!   `hurts`, `sore`, `injured`, `bad`, `tweaked`, `achy`, `cranky`, `stiff`, `strained`,
//!   `pulled`, `tender`, `rehab`, `iffy`, `impingement`, `easy on`, `careful`, `protect`, ...;
//!   not after `no`; a part with `too` or `also` takes the care of the one before), attached
//!   to the nearest part: a lower back leaves out hinges, barbell squats and barbell rows; a knee
//!   squats, lunges and quad isolation; a shoulder or rotator cuff overhead presses; a wrist
//!   body-weight presses and barbell curls; an elbow arm isolation; a hamstring hinges and
//!   hamstring isolation; a hip lunges; an ankle lunges and calf raises; a neck shrugs and barbell
//!   squats; a sore muscle group (`sore quads`) exercises whose main muscle it is.
//! - Equipment: named kinds are the whole inventory (`dumbbells`, `a pair of dumbbells`,
//!   `kettlebell`, `barbell` (the bar alone), `rack`, `bench` (flat; `adjustable` or `incline
//!   bench`: adjustable), `bands`, `cables`, `machines`, `pull-up bar`, `dip station`, `ez bar`,
//!   `trap bar`, `smith machine`); `bodyweight`, `no equipment`, `no weights`, `calisthenics` are
//!   none; `hotel gym` is dumbbells and a bench; `home gym`, `garage gym` a barbell, rack,
//!   adjustable bench, dumbbells and a pull-up bar; `gym`, `whatever equipment` a full gym; a
//!   place (`hotel room`, `home`, `living room`, `travelling`, `park`, `outside`) no equipment
//!   unless the caller knows better ([`EquipmentSaid::Place`]); a refused kind is banned.
//! - Energy: easy (`easy` or `ez` (not `easy on`, `ez bar`), `light`, `recovery`, `recovering`,
//!   `tired` (not `tired of`), `gentle`, `deload`, `sore`, `exhausted`, `wiped`, `knackered`,
//!   `drained`, `fatigued`, `low energy`, `slept badly`, `bad sleep`, `not feeling it`, `sick`,
//!   `ill`, `flu`, `hungover`, `take it easy`, `chill`), else hard (`hard`, `intense`, `tough`, `brutal`, `all out`, `push it`, `push
//!   myself`, `beast mode`, `crush it`, `max effort`).
//! - Goal: strength (`strength`, `strong`, `stronger`, `heavy`, `power`, `powerlifting`),
//!   hypertrophy (`muscle`, `hypertrophy`, `size`, `bulk`, `pump`, `gains`, `bodybuilding`,
//!   `mass`), endurance (`endurance`, `conditioning`, `stamina`, `circuit`, `sweat`, `sweaty`,
//!   `cardio`, `hiit`, `metcon`).
//!
//! Sentences split at `.`, `;`, `!`, `?`, a line break, brackets, a dash between spaces and `but`,
//! `though`, `because`, `since`; their parts at commas. Whatever it cannot place is left to the
//! model, which sees the whole text.

use crate::kernel::text::{minutes_unit, number, singular};

use super::catalog::{capabilities_of, LoadKind, WorkoutExercise, CAPABILITIES};
use super::focus::{Focus, MuscleGroup, PATTERNS};
use super::model::{Goal, SessionType};

/// How hard the session should feel, when the text says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    /// Tired, sore, light, recovery.
    Easy,
    /// Go hard.
    Hard,
}

/// What the text says about equipment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EquipmentSaid {
    /// Nothing: the caller's default.
    NotSaid,
    /// A gym: a full gym.
    Gym,
    /// Only a place without equipment (`hotel room`, `at home`): body weight, unless the caller
    /// knows the place's equipment.
    Place,
    /// These inventory keys and nothing else (empty: body weight only).
    Named(Vec<&'static str>),
}

/// Which exercises a spared body part leaves out: all of `pattern` (any when `None`), of `load`
/// (any when `None`), whose main muscle is `muscle` (any when `None`).
type Rule = (Option<&'static str>, Option<LoadKind>, Option<&'static str>);

/// A body part the text asks to spare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spare {
    /// The part, in words (`knees`).
    pub part: &'static str,
    rules: &'static [Rule],
    group: Option<MuscleGroup>,
}

impl Spare {
    /// Whether sparing the part leaves `e` out.
    pub fn leaves_out(&self, e: &WorkoutExercise) -> bool {
        let main = e.muscles.first().map(String::as_str);
        self.rules.iter().any(|(p, l, m)| {
            p.is_none_or(|p| p == e.pattern)
                && l.is_none_or(|l| l == e.load)
                && m.is_none_or(|m| main == Some(m))
        }) || self
            .group
            .is_some_and(|g| main.is_some_and(|m| g.muscles().contains(&m)))
    }
}

/// What the text says, where it says it; `None` and empty lists where it says nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct NotesReading {
    /// The session's length in minutes, as said (not clamped).
    pub minutes: Option<u32>,
    /// The focus (the default: nothing named, a full-body session).
    pub focus: Focus,
    /// The training goal.
    pub goal: Option<Goal>,
    /// How hard it should feel.
    pub effort: Option<Effort>,
    /// The equipment.
    pub equipment: EquipmentSaid,
    /// Capabilities refused (`no barbell`: `barbell`).
    pub banned_kinds: Vec<&'static str>,
    /// Body parts to spare.
    pub spare: Vec<Spare>,
    /// Exercises asked for: per exercise named, the catalog ids that fit the words, the
    /// preferred first.
    pub wanted: Vec<Vec<String>>,
    /// Exercises refused, by name or pattern (catalog ids).
    pub refused: Vec<String>,
}

impl NotesReading {
    /// The catalog ids the reading leaves out: those refused and those a spared part leaves
    /// out.
    pub fn left_out(&self, catalog: &[WorkoutExercise]) -> Vec<String> {
        let mut out = self.refused.clone();
        for e in catalog {
            if self.spare.iter().any(|s| s.leaves_out(e)) && !out.contains(&e.id) {
                out.push(e.id.clone());
            }
        }
        out
    }

    /// Ban tokens for a workout request whose inventory the app sends: the exercises left out,
    /// the kinds refused and, when the text names its equipment (or says body weight), every
    /// capability the named keys do not provide.
    pub fn bans(&self, catalog: &[WorkoutExercise]) -> Vec<String> {
        let mut out = self.left_out(catalog);
        out.extend(self.banned_kinds.iter().map(|k| k.to_string()));
        if let EquipmentSaid::Named(keys) = &self.equipment {
            let provided: Vec<&str> = keys
                .iter()
                .flat_map(|k| capabilities_of(k).iter().copied())
                .collect();
            out.extend(
                CAPABILITIES
                    .iter()
                    .filter(|c| !provided.contains(c))
                    .map(|c| c.to_string()),
            );
        }
        out.sort();
        out.dedup();
        out
    }
}

/// One word of the text: as written (lower case, aliases spelled out), singular, and the
/// sentence and part of a sentence it is in.
#[derive(Debug, Clone)]
struct Tok {
    w: String,
    s: String,
    sentence: usize,
    part: usize,
    /// The catalog index of an exercise id written as such (`bb-deadlift`).
    id: Option<usize>,
}

/// Words spelled out (one word for several).
fn alias(w: &str) -> Option<&'static [&'static str]> {
    Some(match w {
        "pullup" | "pullups" => &["pull", "up"],
        "pushup" | "pushups" => &["push", "up"],
        "chinup" | "chinups" => &["chin", "up"],
        "stepup" | "stepups" => &["step", "up"],
        "skullcrusher" | "skullcrushers" => &["skull", "crusher"],
        "deadlifts" | "deads" | "dl" | "dls" | "deadlifting" => &["deadlift"],
        "rdl" | "rdls" | "sldl" | "sldls" => &["romanian", "deadlift"],
        "ohp" => &["overhead", "press"],
        "bss" => &["bulgarian", "split", "squat"],
        "tgu" | "tgus" => &["turkish", "get", "up"],
        "benching" => &["bench", "press"],
        "squatting" => &["squat"],
        "lunging" => &["lunge"],
        "pressing" => &["press"],
        "rowing" => &["row"],
        "curling" => &["curl"],
        "flyes" | "flys" => &["fly"],
        "db" | "dbs" => &["dumbbell"],
        "bb" => &["barbell"],
        "kb" | "kbs" => &["kettlebell"],
        "bw" => &["bodyweight"],
        "hr" | "hrs" => &["hour"],
        "mins" | "min" => &["minute"],
        "w" => &["with"],
        "wo" => &["without"],
        _ => return None,
    })
}

/// Words that end a sentence.
const BREAK_WORDS: &[&str] = &[
    "but", "though", "although", "however", "because", "cause", "cuz", "since",
];

/// The text as words (see the module docs), with exercise ids found in `catalog`.
fn tokens(text: &str, catalog: &[WorkoutExercise]) -> Vec<Tok> {
    let text = text
        .to_lowercase()
        .replace(['\u{2019}', '\u{2018}', '`'], "'")
        .replace("w/o", " without ")
        .replace("w/", " with ")
        .replace(['&', '+'], " and ")
        .replace("bi's", "bis")
        .replace("tri's", "tris")
        .replace("'s ", " ")
        .replace("'s,", ",")
        .replace("'s.", ".")
        .replace('\'', "");
    let chars: Vec<char> = text.chars().collect();
    let (mut sentence, mut part) = (0usize, 0usize);
    let mut out: Vec<Tok> = Vec::new();
    let mut word = String::new();
    let push_word = |word: &mut String, sentence: usize, part: usize, out: &mut Vec<Tok>| {
        let raw = std::mem::take(word);
        let raw = raw.trim_matches(|c| c == '.' || c == '-');
        if raw.is_empty() {
            return;
        }
        // An id is one word unless its words are the exercise's name (`pull-up` is "pull up").
        let id = catalog.iter().position(|e| e.id == raw).filter(|&k| {
            let id_words: Vec<String> = raw.split('-').map(singular).collect();
            let name: Vec<String> = catalog[k]
                .name
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(singular)
                .collect();
            id_words != name
        });
        let pieces: Vec<&str> = if id.is_some() {
            vec![raw]
        } else {
            raw.split('-').filter(|p| !p.is_empty()).collect()
        };
        for p in pieces {
            let words: Vec<String> = match alias(p) {
                Some(a) => a.iter().map(|s| s.to_string()).collect(),
                None => vec![p.to_string()],
            };
            for w in words {
                out.push(Tok {
                    s: if id.is_some() {
                        w.clone()
                    } else {
                        singular(&w)
                    },
                    w,
                    sentence,
                    part,
                    id,
                });
            }
        }
    };
    for (i, &c) in chars.iter().enumerate() {
        let digit = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(char::is_ascii_digit)
        };
        let spaced = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_none_or(|c| c.is_whitespace())
        };
        match c {
            c if c.is_alphanumeric() => word.push(c),
            '.' if digit(i.checked_sub(1)) && digit(Some(i + 1)) => word.push(c),
            '-' if !(spaced(i.checked_sub(1)) && spaced(Some(i + 1))) => word.push(c),
            ',' => {
                push_word(&mut word, sentence, part, &mut out);
                part += 1;
            }
            '/' => {
                push_word(&mut word, sentence, part, &mut out);
                out.push(Tok {
                    w: "or".into(),
                    s: "or".into(),
                    sentence,
                    part,
                    id: None,
                });
            }
            '.' | ';' | '!' | '?' | '\n' | '(' | ')' | '[' | ']' | '"' | '-' | '\u{2014}'
            | '\u{2013}' => {
                push_word(&mut word, sentence, part, &mut out);
                sentence += 1;
                part += 1;
            }
            _ => push_word(&mut word, sentence, part, &mut out),
        }
    }
    push_word(&mut word, sentence, part, &mut out);
    // `ez` is easy, unless it is the bar (`ez bar`, `ez curls`).
    for k in 0..out.len() {
        let bar = out
            .get(k + 1)
            .is_some_and(|n| ["bar", "curl", "skull", "preacher"].contains(&n.s.as_str()));
        if out[k].w == "ez" && !bar {
            out[k].w = "easy".into();
            out[k].s = "easy".into();
        }
    }
    // `lat raises` are lateral raises.
    for k in 1..out.len() {
        if out[k - 1].s == "lat" && out[k].s == "raise" {
            out[k - 1].w = "lateral".into();
            out[k - 1].s = "lateral".into();
        }
    }
    // Words that end a sentence are not kept.
    let mut kept = Vec::with_capacity(out.len());
    let (mut shift_s, mut shift_p) = (0, 0);
    for t in out {
        if BREAK_WORDS.contains(&t.w.as_str()) {
            shift_s += 1;
            shift_p += 1;
            continue;
        }
        kept.push(Tok {
            sentence: t.sentence + shift_s,
            part: t.part + shift_p,
            ..t
        });
    }
    kept
}

/// The words and what has been placed.
struct Text<'c> {
    t: Vec<Tok>,
    used: Vec<bool>,
    catalog: &'c [WorkoutExercise],
}

impl Text<'_> {
    /// Whether the word at `i` is `word` (as written or singular).
    fn is(&self, i: usize, word: &str) -> bool {
        self.t.get(i).is_some_and(|t| t.w == word || t.s == word)
    }

    /// Whether `phrase` (space-separated) is at `i`, in one sentence.
    fn at(&self, i: usize, phrase: &str) -> bool {
        let Some(first) = self.t.get(i) else {
            return false;
        };
        phrase.split(' ').enumerate().all(|(k, p)| {
            self.t
                .get(i + k)
                .is_some_and(|t| t.sentence == first.sentence && (t.w == p || t.s == p))
        })
    }

    /// The length of the first of `phrases` at `i`.
    fn at_any(&self, i: usize, phrases: &[&str]) -> Option<usize> {
        phrases
            .iter()
            .find(|p| self.at(i, p))
            .map(|p| p.split(' ').count())
    }

    /// Whether one of `phrases` is anywhere among the words not yet placed.
    fn has(&self, phrases: &[&str]) -> bool {
        (0..self.t.len()).any(|i| !self.used[i] && self.at_any(i, phrases).is_some())
    }

    fn mark(&mut self, from: usize, len: usize) {
        for u in self.used.iter_mut().skip(from).take(len) {
            *u = true;
        }
    }

    fn same_sentence(&self, a: usize, b: usize) -> bool {
        self.t[a].sentence == self.t[b].sentence
    }
}

// ---------------------------------------------------------------- minutes

/// Words a number alone between commas may have around it and still be the minutes.
const BARE_NUMBER_WORDS: &[&str] = &[
    "today", "ish", "tops", "max", "about", "around", "roughly", "or", "so", "only", "got", "have",
];

fn minutes(x: &Text<'_>) -> Option<f64> {
    let w = &x.t;
    for i in 0..w.len() {
        if x.at(i, "hour and a half") {
            return Some(90.0);
        }
        if x.at(i, "half an hour") || x.at(i, "half hour") {
            return Some(30.0);
        }
        let Some((v, stuck)) = number(&w[i].w) else {
            continue;
        };
        // `1h30`: hours and minutes in one word.
        if let Some(rest) = stuck.strip_prefix('h') {
            if let Ok(m) = rest.trim_end_matches('m').parse::<f64>() {
                return Some(v * 60.0 + m);
            }
        }
        let (unit, next) = if stuck.is_empty() || stuck == "ish" {
            (w.get(i + 1).map(|t| t.w.as_str()).unwrap_or(""), i + 2)
        } else {
            (stuck, i + 1)
        };
        let Some(f) = minutes_unit(unit).or((stuck == "ish").then_some(1.0)) else {
            continue;
        };
        let mut total = v * f;
        // `1 hr 15`, `1 hour 30 min`.
        if f == 60.0 {
            if let Some((m, "")) = w.get(next).and_then(|t| number(&t.w)) {
                if m < 60.0 && x.same_sentence(i, next) {
                    total += m;
                }
            }
        }
        return Some(total);
    }
    for i in 0..w.len() {
        if x.at_any(i, &["an hour", "one hour", "an hr", "1 hour"])
            .is_some()
        {
            return Some(60.0);
        }
    }
    // A number after a word of time (`out in 35`, `only have 40`), with no other unit.
    for i in 1..w.len() {
        if let Some((v, "")) = number(&w[i].w) {
            let timed = x
                .at_any(
                    i - 1,
                    &[
                        "in", "have", "got", "only", "about", "around", "maybe", "for",
                    ],
                )
                .is_some();
            let unit_after = w.get(i + 1).is_some_and(|t| {
                x.same_sentence(i, i + 1)
                    && [
                        "x", "set", "rep", "kg", "lb", "pound", "kilo", "day", "week", "year",
                        "month", "percent", "rpe", "time", "am", "pm", "oclock", "mile", "km",
                    ]
                    .contains(&t.s.as_str())
            });
            if timed && !unit_after && (10.0..=180.0).contains(&v) {
                return Some(v);
            }
        }
    }
    // A number alone in its part of a sentence.
    for i in 0..w.len() {
        if let Some((v, "")) = number(&w[i].w) {
            let alone = w
                .iter()
                .enumerate()
                .filter(|(j, t)| *j != i && t.part == w[i].part)
                .all(|(_, t)| BARE_NUMBER_WORDS.contains(&t.w.as_str()));
            if alone && (10.0..=180.0).contains(&v) {
                return Some(v);
            }
        }
    }
    x.has(&["quick"]).then_some(30.0)
}

// ---------------------------------------------------------------- equipment

/// Equipment words: the phrases, the inventory keys they stand for, and the capabilities
/// refusing them bans besides those the keys provide.
const EQUIPMENT: &[(&[&str], &[&str], &[&str])] = &[
    (
        &["pull up bar", "chin up bar", "doorway bar", "pullup bar"],
        &["eq_pullup_bar"],
        &[],
    ),
    (
        &["dip station", "dip bar", "dip bars"],
        &["eq_dip_station"],
        &[],
    ),
    (&["ez bar", "ez curl bar"], &["eq_ez_bar"], &[]),
    (&["trap bar", "hex bar"], &["eq_trap_bar"], &[]),
    (&["smith machine", "smith"], &["eq_smith_machine"], &[]),
    (
        &["squat rack", "power rack", "squat stands", "rack"],
        &["eq_squat_rack"],
        &[],
    ),
    (
        &["adjustable bench", "incline bench"],
        &["eq_bench_adjustable"],
        &[],
    ),
    (&["bench"], &["eq_bench_flat"], &["incline_bench"]),
    (
        &["cable machine", "cable station", "cable"],
        &["eq_cable_machine_dual_stack"],
        &[],
    ),
    (
        &["machine"],
        &[
            "eq_cable_machine_dual_stack",
            "eq_lat_pulldown",
            "eq_seated_row",
            "eq_leg_press",
            "eq_leg_curl",
            "eq_leg_extension",
            "eq_chest_press_machine",
            "eq_pec_deck",
        ],
        &["smith"],
    ),
    (
        &["dumbbell", "pair of dumbbell"],
        &["eq_dumbbells_set_5-50"],
        &[],
    ),
    (&["kettlebell", "kettle bell"], &["eq_kettlebell"], &[]),
    (&["barbell"], &["eq_barbell_olympic"], &[]),
    (
        &["resistance band", "band", "mini band", "loop band"],
        &["eq_resistance_bands"],
        &[],
    ),
];

/// The capabilities refusing the equipment entry `k` bans.
fn banned_by(k: usize) -> impl Iterator<Item = &'static str> {
    let (_, keys, extra) = EQUIPMENT[k];
    keys.iter()
        .flat_map(|key| capabilities_of(key).iter().copied())
        .chain(extra.iter().copied())
}

/// The equipment entry at `i` and its length.
fn equipment_at(x: &Text<'_>, i: usize) -> Option<(usize, usize)> {
    EQUIPMENT
        .iter()
        .enumerate()
        .find_map(|(k, (phrases, _, _))| x.at_any(i, phrases).map(|len| (k, len)))
}

const BODYWEIGHT: &[&str] = &[
    "bodyweight",
    "body weight",
    "no equipment",
    "without equipment",
    "no weights",
    "no gear",
    "calisthenics",
    "nothing but bodyweight",
];
const GYM: &[&str] = &[
    "full gym",
    "whatever equipment",
    "any equipment",
    "planet fitness",
    "gym",
];
const HOTEL_GYM: &[&str] = &["hotel gym", "apartment gym", "office gym"];
const HOME_GYM: &[&str] = &["home gym", "garage gym", "basement gym"];
const PLACES: &[&str] = &[
    "hotel room",
    "hotel",
    "at home",
    "home",
    "living room",
    "bedroom",
    "apartment",
    "airbnb",
    "travelling",
    "traveling",
    "on the road",
    "park",
    "outside",
    "outdoors",
    "backyard",
];

// ---------------------------------------------------------------- exercises

/// Words of exercise names that say how, not what (`Barbell Bench Press` is named by "bench
/// press"); before a name they narrow it (`barbell rows`).
const HOW_WORDS: &[&str] = &[
    "barbell",
    "dumbbell",
    "machine",
    "cable",
    "kettlebell",
    "ez",
    "smith",
    "bodyweight",
    "band",
    "bar",
    "one",
    "arm",
    "seated",
    "standing",
];

/// Last words of names that name a kind of exercise: `squats` is every squat.
const HEADS: &[&str] = &[
    "squat",
    "deadlift",
    "lunge",
    "row",
    "press",
    "curl",
    "raise",
    "fly",
    "dip",
    "thrust",
    "swing",
    "extension",
    "pulldown",
    "pushdown",
    "crunch",
    "shrug",
    "carry",
    "kickback",
    "bridge",
    "pullover",
];

/// Heads specific enough to ask for (`dips`); the others only in a sentence that asks.
const SPECIFIC_HEADS: &[&str] = &[
    "dip", "thrust", "swing", "pulldown", "pushdown", "crunch", "shrug", "carry", "kickback",
    "pullover",
];

/// Phrases that name a movement pattern.
const PATTERN_WORDS: &[(&[&str], &str)] = &[
    (
        &[
            "overhead press",
            "overhead work",
            "overhead stuff",
            "overhead lift",
            "overhead movement",
            "overhead",
        ],
        "push_v",
    ),
    (&["hinge", "hinging"], "hinge"),
    (&["single leg", "unilateral"], "lunge"),
];

/// An exercise named in the text.
#[derive(Debug, Clone)]
struct Mention {
    start: usize,
    end: usize,
    /// Catalog indices of the exercises that fit, the preferred first.
    ids: Vec<usize>,
    /// Catalog indices of exercises with the words anywhere in their name (refusing takes
    /// these).
    broad: Vec<usize>,
    /// Named in full or by a specific word (wanted without a word that asks).
    specific: bool,
    /// The words, for a label.
    words: Vec<String>,
}

/// A catalog exercise's name as words: all of them, and without [`HOW_WORDS`].
type NameWords = (Vec<String>, Vec<String>);

/// The [`NameWords`] of `e`.
fn name_words(e: &WorkoutExercise) -> NameWords {
    let all: Vec<String> = tokens(&e.name, &[]).into_iter().map(|t| t.s).collect();
    let what = all
        .iter()
        .filter(|w| !HOW_WORDS.contains(&w.as_str()))
        .cloned()
        .collect();
    (all, what)
}

/// Whether `e` fits the equipment word `how` said before its name.
fn fits_how(e: &WorkoutExercise, full: &[String], how: &str) -> bool {
    full.iter().any(|w| w == how)
        || match how {
            "barbell" => e.load == LoadKind::Barbell,
            "dumbbell" => e.load == LoadKind::Dumbbell,
            "kettlebell" => e.load == LoadKind::Kettlebell,
            "cable" => e.load == LoadKind::Cable,
            "machine" => e.load == LoadKind::Machine,
            "bodyweight" => e.load == LoadKind::Bodyweight,
            _ => false,
        }
}

/// The exercise named at `i`, if any: an id, else the longest of a whole name (with its
/// equipment words, or after up to two of them), a pattern's phrase, a name's last word; a tie
/// goes to the pattern (`overhead press` is every overhead press).
fn mention_at(x: &Text<'_>, i: usize, names: &[NameWords]) -> Option<Mention> {
    let t = &x.t;
    if x.used[i] {
        return None;
    }
    if let Some(k) = t[i].id {
        return Some(Mention {
            start: i,
            end: i + 1,
            ids: vec![k],
            broad: vec![k],
            specific: true,
            words: names[k].1.clone(),
        });
    }
    let free = |from: usize, n: usize| {
        from + n <= t.len() && (from..from + n).all(|k| !x.used[k] && t[k].part == t[i].part)
    };
    let words_at = |from: usize, list: &[String]| {
        free(from, list.len()) && list.iter().zip(&t[from..]).all(|(a, b)| *a == b.s)
    };
    // Up to two equipment words first (`smith machine squat`, `db bench press`).
    let mut how: Vec<String> = Vec::new();
    let mut j = i;
    while how.len() < 2 && free(j, 1) && HOW_WORDS.contains(&t[j].s.as_str()) {
        how.push(t[j].s.clone());
        j += 1;
    }
    let narrow = |list: Vec<usize>| -> Vec<usize> {
        let kept: Vec<usize> = list
            .iter()
            .copied()
            .filter(|&k| how.iter().all(|h| fits_how(&x.catalog[k], &names[k].0, h)))
            .collect();
        if kept.is_empty() {
            list
        } else {
            kept
        }
    };
    let mut found: Option<Mention> = None;
    let offer = |m: Mention, found: &mut Option<Mention>| {
        if found.as_ref().is_none_or(|f| m.end > f.end) {
            *found = Some(m);
        }
    };
    // Patterns first, so that a name of the same length does not win the tie.
    if free(j, 1) {
        for (phrases, pattern) in PATTERN_WORDS {
            if let Some(n) = x.at_any(j, phrases) {
                let list: Vec<usize> = (0..x.catalog.len())
                    .filter(|&k| x.catalog[k].pattern == *pattern)
                    .collect();
                offer(
                    Mention {
                        start: i,
                        end: j + n,
                        ids: list.clone(),
                        broad: list,
                        specific: false,
                        words: t[j..j + n].iter().map(|t| t.s.clone()).collect(),
                    },
                    &mut found,
                );
                break;
            }
        }
    }
    // Whole names: all their words at `i` (`trap bar deadlift`), else without equipment words
    // at `j`, narrowed by those words (`db bench press`).
    let longest = |from: usize, pick: fn(&NameWords) -> &Vec<String>| {
        let mut best: (usize, Vec<usize>) = (0, Vec::new());
        for (k, n) in names.iter().enumerate() {
            let list = pick(n);
            if list.len() >= 2 && words_at(from, list) {
                let end = from + list.len();
                if end > best.0 {
                    best = (end, vec![k]);
                } else if end == best.0 {
                    best.1.push(k);
                }
            }
        }
        best
    };
    let (end_i, at_i) = longest(i, |n| &n.0);
    let (end_j, at_j) = longest(j, |n| &n.1);
    let (end, from, list) = if !at_i.is_empty() && end_i >= end_j {
        (end_i, i, at_i)
    } else {
        (end_j, j, at_j)
    };
    if !list.is_empty() {
        let phrase: Vec<&str> = t[from..end].iter().map(|t| t.s.as_str()).collect();
        let broad: Vec<usize> = names
            .iter()
            .enumerate()
            .filter(|(_, (all, what))| {
                [all, what]
                    .iter()
                    .any(|l| l.windows(phrase.len()).any(|win| win == phrase.as_slice()))
            })
            .map(|(k, _)| k)
            .collect();
        let (ids, broad) = if from == j && j > i {
            (narrow(list), narrow(broad))
        } else {
            (list, broad)
        };
        let words = names[ids[0]].1.clone();
        offer(
            Mention {
                start: i,
                end,
                ids,
                broad,
                specific: true,
                words,
            },
            &mut found,
        );
    }
    if found.is_none() && free(j, 1) && HEADS.contains(&t[j].s.as_str()) {
        let head = t[j].s.as_str();
        let mut list: Vec<usize> = names
            .iter()
            .enumerate()
            .filter(|(_, (_, what))| what.iter().any(|w| w == head))
            .map(|(k, _)| k)
            .collect();
        if head == "lunge" {
            list = (0..x.catalog.len())
                .filter(|&k| x.catalog[k].pattern == "lunge" || list.contains(&k))
                .collect();
        }
        if !list.is_empty() {
            let list = narrow(list);
            found = Some(Mention {
                start: i,
                end: j + 1,
                ids: list.clone(),
                broad: list,
                specific: SPECIFIC_HEADS.contains(&head),
                words: vec![head.to_string()],
            });
        }
    }
    found
}

/// Words that refuse what follows them.
const REFUSE_BEFORE: &[&str] = &[
    "do not want",
    "dont want",
    "dont like",
    "dont have",
    "do not have",
    "havent got",
    "no access to",
    "not a fan of",
    "no more",
    "cant do",
    "cannot do",
    "leave out",
    "nothing with",
    "sick of",
    "tired of",
    "done with",
    "instead of",
    "rather than",
    "no",
    "not",
    "without",
    "avoid",
    "avoiding",
    "skip",
    "skipping",
    "hate",
    "cant",
    "cannot",
    "drop",
    "except",
    "minus",
    "ban",
    "exclude",
    "excluding",
    "never",
    "nix",
];

/// Words after something that refuse it.
const REFUSE_AFTER: &[&str] = &[
    "not today",
    "not for me",
    "not for now",
    "is out",
    "are out",
    "is off",
    "are off",
    "off limits",
    "off the table",
    "is a no",
    "are a no",
];

/// Words a refused list may have between its items.
const FILLERS: &[&str] = &[
    "the",
    "any",
    "all",
    "my",
    "to",
    "do",
    "doing",
    "of",
    "more",
    "heavy",
    "some",
    "them",
    "a",
    "an",
    "stuff",
    "work",
    "exercises",
    "exercise",
    "movements",
    "today",
    "please",
    "pls",
    "again",
    "using",
    "use",
    "with",
    "those",
    "these",
    "like",
    "anything",
];

const CONNECTORS: &[&str] = &["and", "or", "nor", "either"];

/// Words that make an exercise named after them the day's focus.
const LEAD_BEFORE: &[&str] = &[
    "focus on",
    "focusing on",
    "work on",
    "working on",
    "get better at",
    "getting better at",
    "improve",
    "improving",
    "practice",
    "practise",
    "practicing",
    "prioritize",
    "prioritise",
    "focus",
];
const LEAD_AFTER: &[&str] = &[
    "day", "focus", "focused", "priority", "pr", "max", "session",
];

/// Words that ask for what is named in their sentence.
const ASKING: &[&str] = &[
    "want",
    "wanna",
    "love",
    "like",
    "please",
    "pls",
    "plz",
    "include",
    "including",
    "add",
    "some",
    "would like",
];

/// Words of a sentence about what was done.
const PAST: &[&str] = &["yesterday", "did", "last", "earlier", "already"];

// ---------------------------------------------------------------- body parts

/// A body part: its phrases, its name, what sparing it leaves out.
type Part = (&'static [&'static str], &'static str, &'static [Rule]);

const PARTS: &[Part] = &[
    (
        &[
            "lower back",
            "low back",
            "lumbar",
            "spine",
            "sciatica",
            "disc",
            "back",
        ],
        "back",
        &[
            (Some("hinge"), None, None),
            (Some("squat"), Some(LoadKind::Barbell), None),
            (Some("pull_h"), Some(LoadKind::Barbell), None),
        ],
    ),
    (&["upper back"], "upper back", &[]),
    (
        &["knee", "knees", "patella", "acl", "mcl", "meniscus"],
        "knees",
        &[
            (Some("lunge"), None, None),
            (Some("squat"), None, None),
            (Some("legs"), None, Some("quads")),
        ],
    ),
    (
        &["rotator cuff", "shoulder"],
        "shoulders",
        &[(Some("push_v"), None, None)],
    ),
    (
        &["wrist"],
        "wrists",
        &[
            (Some("push_h"), Some(LoadKind::Bodyweight), None),
            (Some("push_v"), Some(LoadKind::Bodyweight), None),
            (Some("arms"), Some(LoadKind::Barbell), None),
        ],
    ),
    (
        &["tennis elbow", "golfer elbow", "golfers elbow", "elbow"],
        "elbows",
        &[(Some("arms"), None, None)],
    ),
    (
        &["hamstring", "hammy", "hammie", "ham"],
        "hamstrings",
        &[
            (Some("hinge"), None, None),
            (Some("legs"), None, Some("hamstrings")),
        ],
    ),
    (&["hip"], "hips", &[(Some("lunge"), None, None)]),
    (
        &["ankle"],
        "ankles",
        &[(Some("lunge"), None, None), (Some("calves"), None, None)],
    ),
    (
        &["neck"],
        "neck",
        &[
            (Some("shoulders"), None, Some("traps")),
            (Some("squat"), Some(LoadKind::Barbell), None),
        ],
    ),
];

/// Muscle-group words: the phrases and the group.
const GROUPS: &[(&[&str], MuscleGroup)] = &[
    (&["chest", "pec", "pecs"], MuscleGroup::Chest),
    (&["lat", "lats", "back"], MuscleGroup::Back),
    (
        &["shoulder", "delt", "delts", "trap", "traps"],
        MuscleGroup::Shoulders,
    ),
    (&["arm", "arms", "gun", "guns"], MuscleGroup::Arms),
    (&["bicep", "biceps", "bis"], MuscleGroup::Biceps),
    (&["tricep", "triceps", "tris"], MuscleGroup::Triceps),
    (&["glute", "booty", "butt", "bum"], MuscleGroup::Glutes),
    (&["quad", "quadricep", "quadriceps"], MuscleGroup::Quads),
    (
        &["hamstring", "hams", "hammies", "hammy"],
        MuscleGroup::Hamstrings,
    ),
    (&["calf", "calves"], MuscleGroup::Calves),
    (
        &["core", "abs", "ab", "abdominals", "midsection", "six pack"],
        MuscleGroup::Core,
    ),
];

/// Words of pain or care.
const CARE: &[&str] = &[
    "pain",
    "painful",
    "hurt",
    "hurts",
    "hurting",
    "sore",
    "soreness",
    "injured",
    "injury",
    "bad",
    "tweaked",
    "tweak",
    "strained",
    "strain",
    "pulled",
    "achy",
    "aching",
    "ache",
    "aches",
    "cranky",
    "niggle",
    "niggly",
    "niggling",
    "tender",
    "stiff",
    "twinge",
    "busted",
    "dodgy",
    "wonky",
    "messed",
    "acting up",
    "flared",
    "flaring",
    "rehab",
    "rehabbing",
    "recovering",
    "irritated",
    "inflamed",
    "tendinitis",
    "tendonitis",
    "torn",
    "surgery",
    "sprained",
    "sprain",
    "careful",
    "spare",
    "protect",
    "protecting",
    "easy on",
    "bothering",
    "killing",
    "banged up",
    "beat up",
    "grumpy",
    "creaky",
    "iffy",
    "funny",
    "weird",
    "not right",
    "playing up",
    "impingement",
    "impinged",
    "issue",
    "issues",
    "problem",
    "problems",
    "trouble",
    "injuries",
    "gammy",
];

/// A body part or muscle group word at `i`: its length and what it is.
#[derive(Debug, Clone, Copy)]
enum Body {
    Joint(usize),
    Group(MuscleGroup),
    Legs,
}

fn body_at(x: &Text<'_>, i: usize) -> Option<(usize, Body)> {
    if x.used[i] {
        return None;
    }
    for (k, (phrases, _, _)) in PARTS.iter().enumerate() {
        if let Some(n) = x.at_any(i, phrases) {
            return Some((n, Body::Joint(k)));
        }
    }
    for (phrases, g) in GROUPS {
        if let Some(n) = x.at_any(i, phrases) {
            return Some((n, Body::Group(*g)));
        }
    }
    x.at_any(i, &["legs", "leg"]).map(|n| (n, Body::Legs))
}

/// Whether the word at `c` is negated (`no pain`, `no gym`).
fn negated(x: &Text<'_>, c: usize) -> bool {
    c > 0
        && x.same_sentence(c - 1, c)
        && x.at_any(c - 1, &["no", "not", "without", "zero"]).is_some()
}

/// Exercises and equipment named: the exercises, and the equipment words (start, length, entry
/// of [`EQUIPMENT`]). Equipment of two words or more goes before an exercise name as long
/// (`pull-up bar`); `bench` alone is the bench press in a list of lifts or as the focus (`bench
/// day`), else a bench.
fn named(x: &mut Text<'_>, names: &[NameWords]) -> (Vec<Mention>, Vec<(usize, usize, usize)>) {
    let mut equipment: Vec<(usize, usize, usize)> = Vec::new();
    let mut mentions: Vec<Mention> = Vec::new();
    let mut i = 0;
    while i < x.t.len() {
        let m = mention_at(x, i, names);
        let e = (!x.used[i]).then(|| equipment_at(x, i)).flatten();
        let m_len = m.as_ref().map_or(0, |m| m.end - m.start);
        match (m, e) {
            (_, Some((k, len))) if len >= 2 && len >= m_len => {
                equipment.push((i, len, k));
                x.mark(i, len);
                i += len;
            }
            (Some(m), _) => {
                x.mark(m.start, m.end - m.start);
                i = m.end;
                mentions.push(m);
            }
            (None, Some((k, len))) => {
                equipment.push((i, len, k));
                x.mark(i, len);
                i += len;
            }
            (None, None) => i += 1,
        }
    }
    let bench_press: Vec<usize> = (0..names.len())
        .filter(|&k| names[k].1 == ["bench", "press"])
        .collect();
    let lift_at = |mentions: &[Mention], j: Option<usize>| {
        j.is_some_and(|j| mentions.iter().any(|m| (m.start..m.end).contains(&j)))
    };
    let mut kept = Vec::with_capacity(equipment.len());
    for (i, len, k) in equipment {
        let near = |range: &mut dyn Iterator<Item = usize>| {
            range
                .take_while(|&j| x.same_sentence(i, j))
                .find(|&j| x.at_any(j, CONNECTORS).is_none())
        };
        let before = near(&mut (0..i).rev());
        let after = near(&mut (i + 1..x.t.len()));
        let as_lift = len == 1
            && x.is(i, "bench")
            && !bench_press.is_empty()
            && ((x.at_any(i + 1, LEAD_AFTER).is_some() && x.same_sentence(i, i + 1))
                || lead_before(x, i)
                || lift_at(&mentions, before)
                || lift_at(&mentions, after));
        if as_lift {
            mentions.push(Mention {
                start: i,
                end: i + 1,
                ids: bench_press.clone(),
                broad: bench_press.clone(),
                specific: true,
                words: vec!["bench".into(), "press".into()],
            });
        } else {
            kept.push((i, len, k));
        }
    }
    mentions.sort_by_key(|m| m.start);
    (mentions, kept)
}

/// The exercises (indices into `mentions`) and equipment words (indices into `equipment`)
/// refused: the list after a refusing word (across a comma only to more exercises), or an
/// exercise before `not today`.
fn refusals(
    x: &Text<'_>,
    mentions: &[Mention],
    equipment: &[(usize, usize, usize)],
) -> (Vec<usize>, Vec<usize>) {
    let (mut ex, mut eq) = (Vec::new(), Vec::new());
    let n = x.t.len();
    let mention_at = |k: usize| mentions.iter().position(|m| m.start == k);
    let equipment_at = |k: usize| equipment.iter().position(|e| e.0 == k);
    for at in 0..n {
        let Some(len) = x.at_any(at, REFUSE_BEFORE) else {
            continue;
        };
        if x.at_any(at, BODYWEIGHT).is_some() {
            continue;
        }
        let mut k = at + len;
        let (mut items, mut only_exercises) = (0, true);
        let mut last_part = x.t[at].part;
        loop {
            while k < n && x.same_sentence(at, k) && x.at_any(k, FILLERS).is_some() {
                k += 1;
            }
            if k >= n || !x.same_sentence(at, k) {
                break;
            }
            if x.t[k].part != last_part
                && (items == 0 || !only_exercises || mention_at(k).is_none())
            {
                break;
            }
            if let Some(m) = mention_at(k) {
                ex.push(m);
                k = mentions[m].end;
            } else if let Some(e) = equipment_at(k) {
                eq.push(e);
                only_exercises = false;
                k += equipment[e].1;
            } else if !x.used[k] && x.at_any(k + 1, CONNECTORS).is_some() {
                // An item the reading does not know (`burpees and push-ups`).
                k += 1;
            } else {
                break;
            }
            items += 1;
            last_part = x.t[k - 1].part;
            if k < n && x.same_sentence(at, k) && x.at_any(k, CONNECTORS).is_some() {
                k += 1;
                continue;
            }
            if k < n && x.same_sentence(at, k) && x.t[k].part != last_part && only_exercises {
                continue;
            }
            break;
        }
    }
    for (m, mention) in mentions.iter().enumerate() {
        let mut after = mention.end;
        while after < n && x.at_any(after, &["please", "pls", "today"]).is_some() {
            after += 1;
        }
        if after < n
            && x.same_sentence(mention.start, after)
            && x.at_any(after, REFUSE_AFTER).is_some()
        {
            ex.push(m);
        }
    }
    (ex, eq)
}

/// The body parts with a word of pain or care (start, length, what), the care word attached to
/// the nearest part in its part of the sentence and to the parts listed with it (`back and
/// knees hurt`); a part of a sentence with `too` or `also` takes the care of the one before
/// (`my back hurts, shoulders too`).
fn cared_parts(x: &Text<'_>, bodies: &[(usize, usize, Body)]) -> Vec<(usize, usize, Body)> {
    let mut out: Vec<(usize, usize, Body)> = Vec::new();
    let mut cared_parts: Vec<usize> = Vec::new();
    let take = |b: (usize, usize, Body), out: &mut Vec<(usize, usize, Body)>| {
        if !out.iter().any(|o| o.0 == b.0) {
            out.push(b);
        }
    };
    for c in 0..x.t.len() {
        let Some(n) = x.at_any(c, CARE) else {
            continue;
        };
        if negated(x, c) {
            continue;
        }
        let part = x.t[c].part;
        let here: Vec<(usize, usize, Body)> = bodies
            .iter()
            .copied()
            .filter(|(i, _, _)| x.t[*i].part == part && !(c..c + n).contains(i))
            .collect();
        let Some(nearest) = (0..here.len()).min_by_key(|&k| (here[k].0.abs_diff(c), here[k].0 < c))
        else {
            continue;
        };
        cared_parts.push(part);
        take(here[nearest], &mut out);
        let listed = |a: &(usize, usize, Body), b: &(usize, usize, Body)| {
            (a.0 + a.1..b.0).all(|k| x.at_any(k, CONNECTORS).is_some())
        };
        for k in (0..nearest).rev() {
            if !listed(&here[k], &here[k + 1]) {
                break;
            }
            take(here[k], &mut out);
        }
        for k in nearest + 1..here.len() {
            if !listed(&here[k - 1], &here[k]) {
                break;
            }
            take(here[k], &mut out);
        }
    }
    for &(i, len, b) in bodies {
        let part = x.t[i].part;
        let also = (0..x.t.len())
            .any(|k| x.t[k].part == part && x.at_any(k, &["too", "also", "as well"]).is_some());
        if also && part > 0 && cared_parts.contains(&(part - 1)) {
            take((i, len, b), &mut out);
        }
    }
    out
}

/// Reads `text` against `catalog` (see the module docs).
pub fn read(text: &str, catalog: &[WorkoutExercise]) -> NotesReading {
    let t = tokens(text, catalog);
    let mut x = Text {
        used: vec![false; t.len()],
        t,
        catalog,
    };
    let names: Vec<NameWords> = catalog.iter().map(name_words).collect();
    let minutes = minutes(&x).map(|m| m.round().clamp(0.0, 10_000.0) as u32);
    let (mentions, equipment_words) = named(&mut x, &names);

    // Body parts with a word of pain or care: spared, never the focus.
    let bodies: Vec<(usize, usize, Body)> = (0..x.t.len())
        .filter_map(|i| body_at(&x, i).map(|(n, b)| (i, n, b)))
        .collect();
    let mut spare: Vec<Spare> = Vec::new();
    let mut cared = cared_parts(&x, &bodies);
    cared.sort_by_key(|c| c.0);
    for (i, len, body) in cared {
        x.mark(i, len);
        let s = match body {
            Body::Joint(k) => Spare {
                part: PARTS[k].1,
                rules: PARTS[k].2,
                group: None,
            },
            Body::Group(g) => Spare {
                part: g.label(),
                rules: &[],
                group: Some(g),
            },
            Body::Legs => continue,
        };
        if !spare.contains(&s) {
            spare.push(s);
        }
    }

    let (refused_m, refused_eq) = refusals(&x, &mentions, &equipment_words);
    let mut refused: Vec<String> = Vec::new();
    for &m in &refused_m {
        for &k in &mentions[m].broad {
            if !refused.contains(&catalog[k].id) {
                refused.push(catalog[k].id.clone());
            }
        }
    }

    // The lead: an exercise named as the day's focus; a list right after it is wanted.
    let mut lead: Option<usize> = None;
    let mut listed: Vec<usize> = Vec::new();
    for (m, mention) in mentions.iter().enumerate() {
        if refused_m.contains(&m) {
            continue;
        }
        let after = x.at_any(mention.end, LEAD_AFTER).is_some()
            && mention.end < x.t.len()
            && x.same_sentence(mention.start, mention.end);
        if after || lead_before(&x, mention.start) {
            lead = Some(m);
            let mut end = mention.end;
            for (n, next) in mentions.iter().enumerate().skip(m + 1) {
                let gap = (end..next.start).all(|k| x.at_any(k, CONNECTORS).is_some());
                if !gap || !x.same_sentence(mention.start, next.start) {
                    break;
                }
                listed.push(n);
                end = next.end;
            }
            break;
        }
    }

    // Wanted: named in full, listed after the lead, or in a sentence that asks; not in a part
    // about pain, nor in a sentence about what was done.
    let mut wanted: Vec<Vec<String>> = Vec::new();
    for (m, mention) in mentions.iter().enumerate() {
        if refused_m.contains(&m) || Some(m) == lead {
            continue;
        }
        let (sentence, part) = (x.t[mention.start].sentence, x.t[mention.start].part);
        let in_sentence = |list: &[&str]| {
            (0..x.t.len()).any(|k| x.t[k].sentence == sentence && x.at_any(k, list).is_some())
        };
        let about_pain = (0..x.t.len()).any(|k| x.t[k].part == part && x.at_any(k, CARE).is_some());
        let asked = mention.specific || listed.contains(&m) || in_sentence(ASKING);
        if asked && !about_pain && !in_sentence(PAST) {
            let ids: Vec<String> = mention
                .ids
                .iter()
                .map(|&k| catalog[k].id.clone())
                .filter(|id| !refused.contains(id))
                .collect();
            if !ids.is_empty() && !wanted.contains(&ids) {
                wanted.push(ids);
            }
        }
    }

    // Equipment.
    let mut banned_kinds: Vec<&'static str> = refused_eq
        .iter()
        .flat_map(|&e| banned_by(equipment_words[e].2))
        .collect();
    banned_kinds.sort_unstable();
    banned_kinds.dedup();
    let mut inventory: Vec<&'static str> = Vec::new();
    for (n, &(_, _, k)) in equipment_words.iter().enumerate() {
        if !refused_eq.contains(&n) {
            inventory.extend(EQUIPMENT[k].1.iter());
        }
    }
    let mut seen = std::collections::HashSet::new();
    inventory.retain(|k| seen.insert(*k));
    let anywhere =
        |list: &[&str]| (0..x.t.len()).any(|i| !negated(&x, i) && x.at_any(i, list).is_some());
    let equipment = if !inventory.is_empty() {
        EquipmentSaid::Named(inventory)
    } else if anywhere(HOTEL_GYM) {
        EquipmentSaid::Named(vec!["eq_dumbbells_set_5-50", "eq_bench_adjustable"])
    } else if anywhere(HOME_GYM) {
        EquipmentSaid::Named(vec![
            "eq_barbell_olympic",
            "eq_squat_rack",
            "eq_bench_adjustable",
            "eq_dumbbells_set_5-50",
            "eq_pullup_bar",
        ])
    } else if anywhere(GYM) {
        EquipmentSaid::Gym
    } else if (0..x.t.len()).any(|i| x.at_any(i, BODYWEIGHT).is_some()) {
        EquipmentSaid::Named(Vec::new())
    } else if anywhere(PLACES) {
        EquipmentSaid::Place
    } else {
        EquipmentSaid::NotSaid
    };

    let mut focus = focus(&x, &bodies);
    if let Some(m) = lead {
        let mention = &mentions[m];
        focus.lead = mention.ids.iter().map(|&k| catalog[k].id.clone()).collect();
        focus.lead_pattern = mention
            .ids
            .first()
            .and_then(|&k| PATTERNS.iter().copied().find(|p| *p == catalog[k].pattern));
        focus.lead_name = title(mention.words.iter().map(String::as_str));
    }

    NotesReading {
        minutes,
        focus,
        goal: goal(&x),
        effort: effort(&x),
        equipment,
        banned_kinds,
        spare,
        wanted,
        refused,
    }
}

/// Whether a word that makes the exercise after it the focus ends just before `i`, perhaps
/// with `my` or `the` between (`work on my`, `focus:`).
fn lead_before(x: &Text<'_>, i: usize) -> bool {
    (0..=2).any(|skip| {
        let Some(end) = i.checked_sub(skip) else {
            return false;
        };
        (end..i).all(|k| x.at_any(k, &["my", "the", "a"]).is_some())
            && LEAD_BEFORE.iter().any(|p| {
                let n = p.split(' ').count();
                end >= n && x.at(end - n, p) && x.same_sentence(end - n, i)
            })
    })
}

/// `words` as a title, joined by spaces (`bench press` -> `Bench Press`).
pub fn title<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    words
        .into_iter()
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Words before `back` that make it a return (`I'm back`), and after it.
const BACK_NOT_BEFORE: &[&str] = &[
    "im", "get", "got", "getting", "come", "coming", "came", "be", "been", "go", "going", "went",
    "ease", "easing", "bounce", "bring", "welcome", "way",
];
const BACK_NOT_AFTER: &[&str] = &[
    "in", "into", "to", "from", "at", "after", "on", "home", "off",
];

/// Whether the word at `i` follows a refusing word (`no leg day`, `skip legs`), perhaps with
/// `the` or `any` between.
fn after_refusal(x: &Text<'_>, i: usize) -> bool {
    (0..=2).any(|skip| {
        let Some(end) = i.checked_sub(skip) else {
            return false;
        };
        (end..i).all(|k| x.at_any(k, &["the", "any", "my", "a"]).is_some())
            && REFUSE_BEFORE.iter().any(|p| {
                let n = p.split(' ').count();
                end >= n && x.at(end - n, p) && x.same_sentence(end - n, i)
            })
    })
}

/// Whether the body part at `i` is said as the user's own (`my back`, `my right knee`), not as
/// a focus (`work on my glutes` is one).
fn possessive(x: &Text<'_>, i: usize) -> bool {
    let mut k = i;
    while k > 0
        && x.at_any(k - 1, &["left", "right", "lower", "upper"])
            .is_some()
    {
        k -= 1;
    }
    k > 0
        && x.is(k - 1, "my")
        && !lead_before(x, k - 1)
        && !{
            let v = k - 1;
            v > 0
                && x.at_any(v - 1, &["hit", "train", "grow", "build", "on"])
                    .is_some()
        }
}

fn focus(x: &Text<'_>, bodies: &[(usize, usize, Body)]) -> Focus {
    let free = |i: usize| !x.used[i] && !after_refusal(x, i);
    let n = x.t.len();
    let word_at = |i: usize, list: &[&str]| free(i) && x.at_any(i, list).is_some();
    let full = (0..n).any(|i| word_at(i, &["full body", "total body", "whole body", "fullbody"]));
    // `lower back` and `upper back` are the back.
    let upper = (0..n).any(|i| word_at(i, &["upper"]) && !x.at(i, "upper back"));
    let lower = (0..n).any(|i| word_at(i, &["lower"]) && !x.at(i, "lower back"));
    let legs = bodies
        .iter()
        .any(|(i, _, b)| matches!(b, Body::Legs) && free(*i));
    let not_after = |i: usize, list: &[&str]| {
        x.t.get(i + 1)
            .is_none_or(|t| !x.same_sentence(i, i + 1) || !list.contains(&t.w.as_str()))
    };
    let push = (0..n).any(|i| {
        word_at(i, &["push"])
            && not_after(
                i,
                &[
                    "up", "ups", "it", "myself", "hard", "harder", "through", "yourself", "me",
                    "past", "the",
                ],
            )
    });
    let pull = (0..n).any(|i| {
        word_at(i, &["pull"]) && not_after(i, &["up", "ups", "down", "downs", "apart", "through"])
    });
    let lower = lower || legs;
    let session = if full || ((upper || push || pull) && lower) {
        Some(SessionType::FullBody)
    } else if upper {
        Some(SessionType::Upper)
    } else if lower {
        Some(SessionType::Lower)
    } else if push && pull {
        Some(SessionType::Upper)
    } else if push {
        Some(SessionType::Push)
    } else if pull {
        Some(SessionType::Pull)
    } else {
        None
    };
    let mut groups: Vec<MuscleGroup> = Vec::new();
    for &(i, _, b) in bodies {
        if !free(i) || possessive(x, i) {
            continue;
        }
        let g = match b {
            Body::Group(g) => g,
            Body::Joint(k) if PARTS[k].1 == "hamstrings" => MuscleGroup::Hamstrings,
            Body::Joint(k) if PARTS[k].1 == "shoulders" && x.at(i, "shoulder") => {
                MuscleGroup::Shoulders
            }
            Body::Joint(k) if PARTS[k].1 == "back" && x.at(i, "back") => {
                let before_ok = i == 0
                    || !x.same_sentence(i - 1, i)
                    || x.at_any(i - 1, BACK_NOT_BEFORE).is_none();
                if !before_ok || !not_after(i, BACK_NOT_AFTER) {
                    continue;
                }
                MuscleGroup::Back
            }
            _ => continue,
        };
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    groups.sort();
    Focus {
        session,
        groups,
        ..Focus::default()
    }
}

fn effort(x: &Text<'_>) -> Option<Effort> {
    let n = x.t.len();
    let easy_word = (0..n).any(|i| {
        (x.is(i, "easy") && !x.at(i, "easy on"))
            || (x.is(i, "tired") && !x.at(i, "tired of"))
            || (x.is(i, "slept")
                && (i + 1..(i + 4).min(n)).any(|k| {
                    x.at_any(
                        k,
                        &[
                            "bad",
                            "badly",
                            "poorly",
                            "terribly",
                            "awful",
                            "little",
                            "like crap",
                        ],
                    )
                    .is_some()
                }))
    });
    let easy = easy_word
        || (0..n).any(|i| {
            x.at_any(
                i,
                &[
                    "light",
                    "recovery",
                    "gentle",
                    "deload",
                    "sore",
                    "exhausted",
                    "wiped",
                    "knackered",
                    "drained",
                    "fatigued",
                    "low energy",
                    "low on energy",
                    "bad sleep",
                    "poor sleep",
                    "no sleep",
                    "barely slept",
                    "not feeling it",
                    "not feeling great",
                    "under the weather",
                    "sick",
                    "ill",
                    "flu",
                    "recovering",
                    "hungover",
                    "take it easy",
                    "chill",
                    "mellow",
                ],
            )
            .is_some()
        });
    if easy {
        return Some(Effort::Easy);
    }
    let hard = (0..n).any(|i| {
        x.at_any(
            i,
            &[
                "hard",
                "intense",
                "tough",
                "brutal",
                "all out",
                "push it",
                "push myself",
                "beast mode",
                "crush it",
                "max effort",
            ],
        )
        .is_some()
    });
    hard.then_some(Effort::Hard)
}

fn goal(x: &Text<'_>) -> Option<Goal> {
    let any = |list: &[&str]| x.has(list);
    if any(&[
        "strength",
        "strong",
        "stronger",
        "heavy",
        "power",
        "powerlifting",
    ]) {
        Some(Goal::Strength)
    } else if any(&[
        "muscle",
        "hypertrophy",
        "size",
        "bulk",
        "bulking",
        "pump",
        "gains",
        "bodybuilding",
        "mass",
    ]) {
        Some(Goal::Hypertrophy)
    } else if any(&[
        "endurance",
        "conditioning",
        "stamina",
        "circuit",
        "sweat",
        "sweaty",
        "cardio",
        "hiit",
        "metcon",
    ]) {
        Some(Goal::Endurance)
    } else {
        None
    }
}
