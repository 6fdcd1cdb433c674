//! The exercise and equipment catalog of the workout flow: the built-in exercises
//! (`catalog.json`, embedded), the app's own ones (stored, merged in by the service), and the
//! mapping from the app's equipment inventory keys to the capabilities exercises require.
//!
//! An exercise requires capabilities such as `barbell`, `bench`, `rack`, `dumbbells`, `cable`
//! (listed in [`CAPABILITIES`]) or raw inventory keys (an app's own exercise may require its own
//! key); body weight is always available. An inventory key provides the capabilities of the
//! table in [`capabilities_of`] and itself, or, when the app saved its own definition of the key
//! ([`WorkoutEquipment`]), what that definition says (and the weights it lists).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::model::WeightUnit;
use crate::suggest::{CatalogExercise, Equipment, LoadConfig, Muscle};

/// How an exercise is loaded, for rounding loads to what can be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "lowercase")]
pub enum LoadKind {
    /// Bar plus plates.
    Barbell,
    /// Fixed dumbbells.
    Dumbbell,
    /// Cable stack.
    Cable,
    /// Machine stack.
    Machine,
    /// Kettlebells.
    Kettlebell,
    /// Body weight: no target load.
    Bodyweight,
    /// Bands and anything else: no target load.
    Other,
}

/// An exercise of the workout catalog (built in, or saved by the app).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkoutExercise {
    /// Kebab-case id (`bb-back-squat`): 1 to 60 characters `a-z`, `0-9` and single dashes. Its
    /// upper-case form is the slug of the set ids, and it is the catalog id under which logged
    /// workouts are recorded for the suggestion engine.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Capabilities or inventory keys it needs (all of them); empty: body weight only.
    pub requires: Vec<String>,
    /// Primary muscles, the main one first (`quads`, `chest`, `lats`, ...).
    pub muscles: Vec<String>,
    /// Multi-joint lift (eligible for Tier A and the warm-up ramp).
    pub compound: bool,
    /// How it is loaded.
    pub load: LoadKind,
    /// Movement pattern: `squat`, `hinge`, `lunge`, `push_h`, `push_v`, `pull_h`, `pull_v`,
    /// `arms`, `shoulders`, `chest`, `back`, `legs`, `calves`, `core`.
    pub pattern: String,
    /// Reps are counted per side (`10/side`).
    #[serde(default)]
    pub per_side: bool,
}

impl WorkoutExercise {
    /// The set-id slug: the id in upper case.
    pub fn slug(&self) -> String {
        self.id.to_ascii_uppercase()
    }

    /// The suggestion engine's catalog entry for this exercise (its equipment and muscles mapped
    /// to the engine's enums), so logged workouts become history it reads.
    pub fn to_catalog(&self) -> CatalogExercise {
        let equipment = match self.load {
            LoadKind::Barbell => Equipment::Barbell,
            LoadKind::Dumbbell => Equipment::Dumbbell,
            LoadKind::Cable => Equipment::Cable,
            LoadKind::Machine => Equipment::Machine,
            LoadKind::Kettlebell => Equipment::Kettlebell,
            LoadKind::Bodyweight => Equipment::Bodyweight,
            LoadKind::Other => Equipment::Other,
        };
        let muscle = |m: &str| match m {
            "quads" => Muscle::Quads,
            "hamstrings" => Muscle::Hamstrings,
            "glutes" => Muscle::Glutes,
            "calves" => Muscle::Calves,
            "forearms" => Muscle::Forearms,
            "chest" => Muscle::Chest,
            "back" => Muscle::Back,
            "lats" => Muscle::Lats,
            "shoulders" => Muscle::Shoulders,
            "biceps" => Muscle::Biceps,
            "triceps" => Muscle::Triceps,
            "traps" => Muscle::Traps,
            "abs" => Muscle::Abs,
            _ => Muscle::Other,
        };
        CatalogExercise {
            catalog_id: self.id.clone(),
            name: self.name.clone(),
            equipment,
            target_muscles: self.muscles.iter().map(|m| muscle(m)).collect(),
        }
    }
}

/// An equipment definition of the app's own catalog: an inventory key, what it provides and the
/// weights it offers. Saved ones replace the built-in mapping of the same key
/// ([`capabilities_of`]) in every request that names the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WorkoutEquipment {
    /// The inventory key requests name (`eq_hex_bar`): 1 to 80 characters `a-z`, `0-9`, `_`,
    /// `-` and `.`.
    pub key: String,
    /// Display name (1 to 80 characters).
    pub name: String,
    /// What it provides: capabilities exercises require (`trap_bar`, `rack`, `pullup_bar`, ...;
    /// see the built-in list in the workout format docs) or keys the app's own exercises require;
    /// at most 10, each 1 to 40 characters.
    pub provides: Vec<String>,
    /// The loads it offers, in `units` (dumbbell or kettlebell sizes, such as `[5, 7.5, 10]`):
    /// target weights of dumbbell exercises (when it provides `dumbbells`) or kettlebell exercises
    /// (when it provides `kettlebell`) are rounded to these. At most 100, each above 0 and at most
    /// 500; empty: the built-in sizes.
    #[serde(default)]
    pub weights: Vec<f64>,
    /// The unit of `weights`.
    pub units: WeightUnit,
}

/// Whether `key` is a well-formed inventory key (1 to 80 characters `a-z`, `0-9`, `_`, `-`, `.`).
pub fn is_equipment_key(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 80
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"_-.".contains(&b))
}

/// Whether `id` is a well-formed exercise id (kebab-case, 1 to 60 characters).
pub fn is_exercise_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 60
        && id.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The built-in catalog (at least 80 common exercises), parsed once.
pub fn builtin() -> &'static [WorkoutExercise] {
    static CATALOG: OnceLock<Vec<WorkoutExercise>> = OnceLock::new();
    CATALOG.get_or_init(|| {
        // A test checks that the embedded file parses.
        serde_json::from_str(include_str!("catalog.json")).unwrap_or_default()
    })
}

/// The capabilities exercises of the built-in catalog require.
pub const CAPABILITIES: &[&str] = &[
    "barbell",
    "ez_bar",
    "trap_bar",
    "dumbbells",
    "kettlebell",
    "bench",
    "incline_bench",
    "rack",
    "cable",
    "lat_pulldown",
    "seated_row",
    "leg_press",
    "leg_curl",
    "leg_extension",
    "chest_press_machine",
    "pec_deck",
    "smith",
    "pullup_bar",
    "dip_station",
    "bands",
];

/// The capabilities an inventory key provides (besides the key itself). Exact keys:
/// `eq_barbell_olympic`/`eq_barbell` (barbell), `eq_ez_bar`, `eq_trap_bar`, `eq_bench_adjustable`
/// (bench, incline_bench), `eq_bench_flat` (bench), `eq_squat_rack`/`eq_squat_stands` (rack),
/// `eq_power_rack` (rack, pullup_bar), `eq_pullup_bar`, `eq_dip_station`, `eq_lat_pulldown`,
/// `eq_seated_row`, `eq_leg_press`, `eq_leg_curl`, `eq_leg_extension`, `eq_chest_press_machine`,
/// `eq_pec_deck`, `eq_smith_machine`, `eq_resistance_bands`. Families by prefix: `eq_dumbbells*`
/// (dumbbells), `eq_kettlebell*` (kettlebell), `eq_cable*` and `eq_functional_trainer*` (cable).
pub fn capabilities_of(key: &str) -> &'static [&'static str] {
    match key {
        "eq_barbell_olympic" | "eq_barbell" | "eq_barbell_standard" => &["barbell"],
        "eq_ez_bar" | "eq_ez_curl_bar" => &["ez_bar"],
        "eq_trap_bar" => &["trap_bar"],
        "eq_bench_adjustable" => &["bench", "incline_bench"],
        "eq_bench_flat" => &["bench"],
        "eq_squat_rack" | "eq_squat_stands" => &["rack"],
        "eq_power_rack" => &["rack", "pullup_bar"],
        "eq_pullup_bar" => &["pullup_bar"],
        "eq_dip_station" | "eq_dip_bars" => &["dip_station"],
        "eq_lat_pulldown" => &["lat_pulldown"],
        "eq_seated_row" => &["seated_row"],
        "eq_leg_press" => &["leg_press"],
        "eq_leg_curl" => &["leg_curl"],
        "eq_leg_extension" => &["leg_extension"],
        "eq_chest_press_machine" => &["chest_press_machine"],
        "eq_pec_deck" => &["pec_deck"],
        "eq_smith_machine" => &["smith"],
        "eq_resistance_bands" | "eq_bands" => &["bands"],
        k if k.starts_with("eq_dumbbells") || k.starts_with("eq_adjustable_dumbbells") => {
            &["dumbbells"]
        }
        k if k.starts_with("eq_kettlebell") => &["kettlebell"],
        k if k.starts_with("eq_cable") || k.starts_with("eq_functional_trainer") => &["cable"],
        _ => &[],
    }
}

/// The app's inventory resolved: which capabilities are available, through which key, and the
/// loads that can be built.
#[derive(Debug, Clone, PartialEq)]
pub struct Inventory {
    /// (capability or key, the inventory key that provides it), in the request's key order.
    provided: Vec<(String, String)>,
    /// Keys that provide nothing known.
    pub unknown: Vec<String>,
    /// Dumbbell sizes from `eq_dumbbells_set_<low>-<high>` keys and the app's own definitions
    /// (request unit).
    pub dumbbells: Vec<f64>,
    /// Kettlebell sizes from the app's own definitions (request unit); empty: the built-in
    /// sizes.
    pub kettlebells: Vec<f64>,
}

impl Inventory {
    /// Resolves `keys` (the request's equipment) with the built-in mapping.
    pub fn new(keys: &[String], unit: WeightUnit) -> Inventory {
        Inventory::with_own(keys, unit, &[])
    }

    /// Resolves `keys` with the app's own definitions `own`, which replace the built-in mapping
    /// of their keys.
    pub fn with_own(keys: &[String], unit: WeightUnit, own: &[WorkoutEquipment]) -> Inventory {
        let mut provided = Vec::new();
        let mut unknown = Vec::new();
        let mut dumbbells = Vec::new();
        let mut kettlebells = Vec::new();
        for key in keys {
            provided.push((key.clone(), key.clone()));
            if let Some(def) = own.iter().find(|d| &d.key == key) {
                for c in &def.provides {
                    provided.push((c.clone(), key.clone()));
                }
                let sizes = def.weights.iter().map(|w| def.units.convert(*w, unit));
                if def.provides.iter().any(|c| c == "dumbbells") {
                    dumbbells.extend(sizes.clone());
                }
                if def.provides.iter().any(|c| c == "kettlebell") {
                    kettlebells.extend(sizes);
                }
                continue;
            }
            let caps = capabilities_of(key);
            if caps.is_empty() && !key.starts_with("eq_") {
                unknown.push(key.clone());
            }
            for c in caps {
                provided.push((c.to_string(), key.clone()));
            }
            if let Some(range) = key.strip_prefix("eq_dumbbells_set_") {
                dumbbells.extend(dumbbell_range(range, unit));
            }
        }
        for sizes in [&mut dumbbells, &mut kettlebells] {
            sizes.sort_by(f64::total_cmp);
            sizes.dedup();
        }
        Inventory {
            provided,
            unknown,
            dumbbells,
            kettlebells,
        }
    }

    /// The inventory key that provides `need`, if any.
    pub fn key_for(&self, need: &str) -> Option<&str> {
        self.provided
            .iter()
            .find(|(c, _)| c == need)
            .map(|(_, k)| k.as_str())
    }

    /// Whether every requirement of `e` is available.
    pub fn has_all(&self, e: &WorkoutExercise) -> bool {
        e.requires.iter().all(|r| self.key_for(r).is_some())
    }

    /// The equipment an exercise's sets name: the key providing its first requirement, or
    /// `bodyweight`.
    pub fn equipment_for(&self, e: &WorkoutExercise) -> String {
        e.requires
            .first()
            .and_then(|r| self.key_for(r))
            .unwrap_or("bodyweight")
            .to_string()
    }

    /// The loads that can be built for `kind` (the suggestion engine's [`LoadConfig`]).
    pub fn load_config(&self, kind: LoadKind, unit: WeightUnit) -> LoadConfig {
        let plates = match unit {
            WeightUnit::Lbs => vec![45.0, 35.0, 25.0, 10.0, 5.0, 2.5],
            WeightUnit::Kg => vec![25.0, 20.0, 15.0, 10.0, 5.0, 2.5, 1.25],
        };
        match kind {
            LoadKind::Barbell => LoadConfig {
                plates,
                bar_weight: 0.0,
                dumbbells: vec![],
            },
            LoadKind::Dumbbell => LoadConfig {
                dumbbells: self.dumbbells.clone(),
                ..LoadConfig::default()
            },
            LoadKind::Kettlebell if !self.kettlebells.is_empty() => LoadConfig {
                dumbbells: self.kettlebells.clone(),
                ..LoadConfig::default()
            },
            LoadKind::Kettlebell => LoadConfig {
                dumbbells: match unit {
                    WeightUnit::Lbs => {
                        vec![10., 15., 20., 25., 30., 35., 40., 45., 50., 53., 60., 70.]
                    }
                    WeightUnit::Kg => vec![4., 6., 8., 12., 16., 20., 24., 28., 32., 36., 40.],
                },
                ..LoadConfig::default()
            },
            _ => LoadConfig::default(),
        }
    }
}

/// The engine's equipment for rounding a load of `kind`.
pub fn rounding_equipment(kind: LoadKind) -> Equipment {
    match kind {
        LoadKind::Barbell => Equipment::Barbell,
        LoadKind::Dumbbell | LoadKind::Kettlebell => Equipment::Dumbbell,
        LoadKind::Cable => Equipment::Cable,
        LoadKind::Machine => Equipment::Machine,
        LoadKind::Bodyweight => Equipment::Bodyweight,
        LoadKind::Other => Equipment::Other,
    }
}

/// `5-50` as dumbbell sizes: steps of 5 when both ends are multiples of 5, else 2.5 (lb) or
/// 2 (kg); at most 100 sizes; nothing for a malformed range.
fn dumbbell_range(range: &str, unit: WeightUnit) -> Vec<f64> {
    let Some((lo, hi)) = range.split_once('-') else {
        return vec![];
    };
    let (Ok(lo), Ok(hi)) = (lo.parse::<f64>(), hi.parse::<f64>()) else {
        return vec![];
    };
    if !(lo > 0.0 && hi >= lo && hi <= 500.0) {
        return vec![];
    }
    let step = if lo % 5.0 == 0.0 && hi % 5.0 == 0.0 {
        5.0
    } else if unit == WeightUnit::Kg {
        2.0
    } else {
        2.5
    };
    (0..100)
        .map(|i| lo + step * i as f64)
        .take_while(|w| *w <= hi + 1e-9)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_catalog_parses_with_well_formed_unique_ids() {
        let c = builtin();
        assert!(c.len() >= 80, "{}", c.len());
        let mut ids: Vec<&str> = c.iter().map(|e| e.id.as_str()).collect();
        assert!(ids.iter().all(|i| is_exercise_id(i)));
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), c.len());
        for e in c {
            assert!(
                e.requires
                    .iter()
                    .all(|r| CAPABILITIES.contains(&r.as_str())),
                "{}",
                e.id
            );
            assert!(!e.muscles.is_empty(), "{}", e.id);
        }
    }

    #[test]
    fn inventory_keys_resolve_to_capabilities_and_dumbbell_sizes() {
        let keys: Vec<String> = [
            "eq_dumbbells_set_5-50",
            "eq_bench_adjustable",
            "eq_unknown_x",
            "mat",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let inv = Inventory::new(&keys, WeightUnit::Lbs);
        assert_eq!(inv.key_for("incline_bench"), Some("eq_bench_adjustable"));
        assert_eq!(inv.key_for("dumbbells"), Some("eq_dumbbells_set_5-50"));
        assert_eq!(inv.dumbbells.len(), 10);
        assert_eq!(inv.unknown, vec!["mat".to_string()]);
        let db = builtin()
            .iter()
            .find(|e| e.id == "db-incline-bench-press")
            .unwrap();
        assert!(inv.has_all(db));
        let bb = builtin().iter().find(|e| e.id == "bb-back-squat").unwrap();
        assert!(!inv.has_all(bb));
        assert_eq!(inv.equipment_for(db), "eq_dumbbells_set_5-50");
    }
}
