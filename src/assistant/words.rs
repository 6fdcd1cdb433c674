//! The words of the operations format read leniently (op names with their synonyms, kinds,
//! priorities, recurrence types, weekdays, `H:MM` times) and the recurrence type written back, as
//! [`shape`](super::shape) and [`validate`](super::validate) use them. Pure.

use super::model::{ItemKind, OpType, Priority, Recurrence, RecurrenceType, Weekday};

/// Reads an op name: case-insensitive, ignoring `_`, `-` and spaces; with the documented synonyms.
pub fn parse_op(s: &str) -> Option<OpType> {
    let mut buf = [0u8; 24];
    let mut n = 0;
    for b in s.trim().bytes() {
        if b == b'_' || b == b'-' || b == b' ' {
            continue;
        }
        if n == buf.len() {
            return None;
        }
        buf[n] = b.to_ascii_lowercase();
        n += 1;
    }
    Some(match &buf[..n] {
        b"create" | b"add" | b"new" => OpType::Create,
        b"update" | b"edit" | b"modify" => OpType::Update,
        b"delete" | b"remove" => OpType::Delete,
        b"complete" | b"done" => OpType::Complete,
        b"completeoccurrence" => OpType::CompleteOccurrence,
        b"goalcreate" => OpType::GoalCreate,
        b"goalupdate" => OpType::GoalUpdate,
        b"goaldelete" => OpType::GoalDelete,
        b"goaladditems" | b"goaladditem" => OpType::GoalAddItems,
        b"goalremoveitem" => OpType::GoalRemoveItem,
        b"goaladdchild" => OpType::GoalAddChild,
        b"goalremovechild" => OpType::GoalRemoveChild,
        _ => return None,
    })
}

/// Lowercase ASCII letters and digits of `s` (no `_`, `-` or spaces), at most `N` of them; `None`
/// when longer.
fn squeezed<const N: usize>(s: &str) -> Option<([u8; N], usize)> {
    let mut buf = [0u8; N];
    let mut n = 0;
    for b in s.trim().bytes() {
        if b == b'_' || b == b'-' || b == b' ' {
            continue;
        }
        if n == N {
            return None;
        }
        buf[n] = b.to_ascii_lowercase();
        n += 1;
    }
    Some((buf, n))
}

/// Whether an op name that is none of the 12 asks for a bulk operation: `bulk_delete`,
/// `bulkComplete`, `delete_all`, `complete-all` (any case, ignoring `_`, `-` and spaces).
pub fn is_bulk_op(s: &str) -> bool {
    let op_then = |w: &[u8], tail: &[u8]| {
        w.strip_suffix(tail)
            .and_then(|head| std::str::from_utf8(head).ok())
            .is_some_and(|head| parse_op(head).is_some())
    };
    parse_op(s).is_none()
        && squeezed::<32>(s).is_some_and(|(buf, n)| {
            let w = &buf[..n];
            w.starts_with(b"bulk") || op_then(w, b"all") || op_then(w, b"many")
        })
}

/// Reads the recurrence words beyond the five types: `weekdays` (weekly, Monday to Friday) and
/// `every_n_days` (daily; the interval comes from the rule's `interval`). Any case, ignoring `_`,
/// `-` and spaces.
pub fn parse_recurrence_alias(s: &str) -> Option<Recurrence> {
    let (buf, n) = squeezed::<16>(s)?;
    match &buf[..n] {
        b"weekdays" | b"everyweekday" => Some(Recurrence {
            kind: RecurrenceType::Weekly,
            weekdays: Weekday::ALL[..5].to_vec(),
            ..Recurrence::none()
        }),
        b"everyndays" => Some(Recurrence {
            kind: RecurrenceType::Daily,
            ..Recurrence::none()
        }),
        _ => None,
    }
}

/// Reads a kind, any case.
pub fn parse_kind(s: &str) -> Option<ItemKind> {
    let s = s.trim();
    [
        ItemKind::Todo,
        ItemKind::Event,
        ItemKind::Habit,
        ItemKind::Goal,
    ]
    .into_iter()
    .find(|k| k.as_str().eq_ignore_ascii_case(s))
}

/// Reads a priority, any case; `med` and `normal` read as medium.
pub fn parse_priority(s: &str) -> Option<Priority> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("low") {
        Some(Priority::Low)
    } else if s.eq_ignore_ascii_case("medium")
        || s.eq_ignore_ascii_case("med")
        || s.eq_ignore_ascii_case("normal")
    {
        Some(Priority::Medium)
    } else if s.eq_ignore_ascii_case("high") {
        Some(Priority::High)
    } else {
        None
    }
}

/// Reads a recurrence type, any case; `once` reads as `none`.
pub fn parse_recurrence_type(s: &str) -> Option<RecurrenceType> {
    let s = s.trim();
    let t = [
        ("none", RecurrenceType::None),
        ("once", RecurrenceType::None),
        ("daily", RecurrenceType::Daily),
        ("weekly", RecurrenceType::Weekly),
        ("monthly", RecurrenceType::Monthly),
        ("yearly", RecurrenceType::Yearly),
    ];
    t.iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(s))
        .map(|(_, k)| *k)
}

/// Reads a weekday: `mon`, `monday`, `MO`, any case.
pub fn parse_weekday(s: &str) -> Option<Weekday> {
    const NAMES: [&str; 7] = [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
    ];
    let s = s.trim();
    if s.len() < 2 || !s.is_ascii() {
        return None;
    }
    // Any prefix of two letters or more: "mo", "mon", "tues", "thurs", "monday".
    NAMES
        .iter()
        .position(|full| s.len() <= full.len() && full[..s.len()].eq_ignore_ascii_case(s))
        .map(|i| Weekday::ALL[i])
}

/// Rewrites `9:05` or `09:05:00` as `09:05`; `None` when the text is no such time.
pub(crate) fn normalize_time(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let ok = |r: &[u8]| r.iter().all(u8::is_ascii_digit);
    match b.len() {
        4 if b[1] == b':' && ok(&b[..1]) && ok(&b[2..]) => Some(format!("0{s}")),
        8 if b[2] == b':' && b[5] == b':' && &b[5..] == b":00" && ok(&b[..2]) && ok(&b[3..5]) => {
            Some(s[..5].to_string())
        }
        _ => None,
    }
}

/// The wire spelling of a recurrence type.
pub fn type_str(k: RecurrenceType) -> &'static str {
    match k {
        RecurrenceType::None => "none",
        RecurrenceType::Daily => "daily",
        RecurrenceType::Weekly => "weekly",
        RecurrenceType::Monthly => "monthly",
        RecurrenceType::Yearly => "yearly",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_spellings() {
        for (s, op) in [
            ("create", OpType::Create),
            ("  New ", OpType::Create),
            ("complete-occurrence", OpType::CompleteOccurrence),
            ("completeOccurrence", OpType::CompleteOccurrence),
            ("GOAL_ADD_ITEMS", OpType::GoalAddItems),
            ("goal remove child", OpType::GoalRemoveChild),
        ] {
            assert_eq!(parse_op(s), Some(op), "{s}");
        }
        for s in ["", "archive", "complete_occurrence_of_the_item_now", "goal"] {
            assert_eq!(parse_op(s), None, "{s}");
        }
    }

    #[test]
    fn bulk_op_names_and_recurrence_aliases() {
        for s in [
            "bulk_delete",
            "BulkComplete",
            "delete_all",
            "complete-all",
            "removeMany",
        ] {
            assert!(is_bulk_op(s), "{s}");
        }
        for s in ["delete", "archive", "all", "call"] {
            assert!(!is_bulk_op(s), "{s}");
        }
        let wk = parse_recurrence_alias("Weekdays").unwrap();
        assert_eq!(wk.kind, RecurrenceType::Weekly);
        assert_eq!(
            wk.weekdays,
            [
                Weekday::Mon,
                Weekday::Tue,
                Weekday::Wed,
                Weekday::Thu,
                Weekday::Fri
            ]
        );
        let n = parse_recurrence_alias("every_n_days").unwrap();
        assert_eq!((n.kind, n.interval), (RecurrenceType::Daily, None));
        assert_eq!(parse_recurrence_alias("fortnightly"), None);
    }

    #[test]
    fn weekday_spellings() {
        for (s, d) in [
            ("mon", Weekday::Mon),
            ("Monday", Weekday::Mon),
            ("TU", Weekday::Tue),
            ("thurs", Weekday::Thu),
            ("su", Weekday::Sun),
            ("sat", Weekday::Sat),
        ] {
            assert_eq!(parse_weekday(s), Some(d), "{s}");
        }
        for s in ["", "m", "s", "mondays", "lundi", "t", "é"] {
            assert_eq!(parse_weekday(s), None, "{s}");
        }
    }

    #[test]
    fn time_normalisation() {
        assert_eq!(normalize_time("9:05").as_deref(), Some("09:05"));
        assert_eq!(normalize_time("09:05:00").as_deref(), Some("09:05"));
        for s in ["09:05", "09:05:30", "9:5", "a:05", "9:0a", "é:00"] {
            assert_eq!(normalize_time(s), None, "{s}");
        }
    }
}
