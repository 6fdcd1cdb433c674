//! Workout and set ids (spec 001), pure: `workout_id` = `YYYY-MM-DD-<kebab-location>-NN`,
//! `set_id` = `<TIER>-<SLUG>-(WU#|#)` with the slug the exercise id in upper case.

use super::model::SetTier;

/// Longest kebab location kept in a workout id.
const MAX_LOCATION: usize = 40;

/// `location` in kebab case: lower-case ASCII letters and digits, every other run of characters
/// one dash, at most 40 characters; `session` when nothing is left.
pub fn kebab(location: &str) -> String {
    let mut out = String::new();
    for c in location.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.truncate(MAX_LOCATION);
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "session".into()
    } else {
        out.to_string()
    }
}

/// The `seq`-th workout id of a date and location (`seq` from 1, kept within 1..=99).
pub fn workout_id(date: &str, location: &str, seq: u32) -> String {
    format!("{date}-{}-{:02}", kebab(location), seq.clamp(1, 99))
}

/// A set id: `W-<SLUG>-WU<n>` for warm-ups, `<TIER>-<SLUG>-<n>` otherwise.
pub fn set_id(tier: SetTier, slug: &str, n: u32) -> String {
    match tier {
        SetTier::W => format!("W-{slug}-WU{n}"),
        t => format!("{}-{slug}-{n}", t.letter()),
    }
}

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
}

/// 1 to 99 without a leading zero (`max` 9 for warm-ups).
fn is_index(s: &str, max_digits: usize) -> bool {
    !s.is_empty()
        && s.len() <= max_digits
        && !s.starts_with('0')
        && s.bytes().all(|b| b.is_ascii_digit())
}

/// The tier, slug and number of a well-formed set id (the schema's pattern).
pub fn parse_set_id(id: &str) -> Option<(SetTier, &str, u32)> {
    let (tier, rest) = id.split_once('-')?;
    let (slug, n) = rest.rsplit_once('-')?;
    if !is_slug(slug) {
        return None;
    }
    let tier = match tier {
        "W" => SetTier::W,
        "A" => SetTier::A,
        "B" => SetTier::B,
        "C" => SetTier::C,
        _ => return None,
    };
    let digits = match tier {
        SetTier::W => n.strip_prefix("WU").filter(|d| is_index(d, 1))?,
        _ => Some(n).filter(|d| is_index(d, 2))?,
    };
    Some((tier, slug, digits.parse().ok()?))
}

/// Whether `id` is a well-formed workout id.
pub fn is_workout_id(id: &str) -> bool {
    if id.len() < 15 || !id.is_ascii() {
        return false;
    }
    let (date, rest) = id.split_at(10);
    let Some((loc, nn)) = rest.strip_prefix('-').and_then(|r| r.rsplit_once('-')) else {
        return false;
    };
    crate::kernel::date::Date::parse(date).is_some()
        && nn.len() == 2
        && nn.bytes().all(|b| b.is_ascii_digit())
        && !loc.is_empty()
        && loc.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_built_and_parsed_back() {
        assert_eq!(kebab("Gym: Downtown!"), "gym-downtown");
        assert_eq!(kebab("  ***  "), "session");
        assert_eq!(
            workout_id("2025-08-17", "gym:downtown", 1),
            "2025-08-17-gym-downtown-01"
        );
        assert!(is_workout_id("2025-08-17-gym-downtown-01"));
        assert!(!is_workout_id("2025-08-17-Gym-01"));
        assert!(!is_workout_id("2025-13-17-gym-01"));
        assert_eq!(
            set_id(SetTier::W, "BB-BACK-SQUAT", 2),
            "W-BB-BACK-SQUAT-WU2"
        );
        assert_eq!(set_id(SetTier::B, "DIP", 3), "B-DIP-3");
        assert_eq!(
            parse_set_id("A-BB-BACK-SQUAT-12"),
            Some((SetTier::A, "BB-BACK-SQUAT", 12))
        );
        assert_eq!(parse_set_id("W-DIP-WU1"), Some((SetTier::W, "DIP", 1)));
        for bad in [
            "W-DIP-1",
            "A-DIP-WU1",
            "A-dip-1",
            "A-DIP-0",
            "A--1",
            "D-DIP-1",
            "A-DIP-100",
        ] {
            assert_eq!(parse_set_id(bad), None, "{bad}");
        }
    }
}
