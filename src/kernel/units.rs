//! Units of weight, shared by the suggestion engine, workouts and today's plan: [`WeightUnit`] and
//! the exact pound-kilogram factor.

use serde::{Deserialize, Serialize};

/// Pounds in one kilogram.
pub const LBS_PER_KG: f64 = 2.20462;

/// Pounds or kilograms; every weight of a plan and its workouts is in the plan's unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "camelCase")]
pub enum WeightUnit {
    /// Pounds.
    Lbs,
    /// Kilograms.
    Kg,
}

impl WeightUnit {
    /// The unit's short name for text shown to users: `lb` or `kg`.
    pub fn symbol(self) -> &'static str {
        match self {
            WeightUnit::Lbs => "lb",
            WeightUnit::Kg => "kg",
        }
    }

    /// `weight`, given in this unit, in `to` (exact: 1 kg = 2.20462 lb). Used to read weights
    /// logged under another unit, e.g. a kg plan's history of an exercise first done in a lb plan.
    pub fn convert(self, weight: f64, to: WeightUnit) -> f64 {
        match (self, to) {
            (WeightUnit::Kg, WeightUnit::Lbs) => weight * LBS_PER_KG,
            (WeightUnit::Lbs, WeightUnit::Kg) => weight / LBS_PER_KG,
            _ => weight,
        }
    }
}
