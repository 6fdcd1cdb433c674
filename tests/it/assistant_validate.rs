//! Spec 002 operation shaping and validation: the matrix of every kind × op (valid and invalid,
//! each with its exact issue code and field), every deterministic repair, shaping (op inference,
//! priorities, empty strings, aliases, bulk markers, JSON of the wrong type), the 20-operation
//! limit, the ops schema, and a randomized robustness run.

use coachcore::assistant::date::Date;
use coachcore::assistant::shape::{shape_operations, shape_typed};
use coachcore::assistant::validate::{referenced_items, validate, OPS_SCHEMA};
use coachcore::assistant::{
    ItemKind, ItemRef, KnownItem, KnownItems, OpCheck, OpType, PlannerOperation, Priority,
    Recurrence, RecurrenceType, Validation, Weekday, MAX_OPERATIONS,
};
use serde_json::{json, Value};

/// Saturday.
const TODAY: &str = "2026-11-21";

fn today() -> Date {
    Date::parse(TODAY).unwrap()
}

fn rec(kind: RecurrenceType) -> Recurrence {
    Recurrence {
        kind,
        ..Recurrence::none()
    }
}

fn known_item(kind: ItemKind, id: &str, recurrence: Recurrence, date: Option<&str>) -> KnownItem {
    KnownItem {
        kind,
        id: id.into(),
        recurrence,
        completed: false,
        scheduled_for: date.map(str::to_string),
    }
}

/// The stored items the tests refer to.
fn known() -> KnownItems {
    let mut k = KnownItems::new();
    let weekly_mon_thu = Recurrence {
        kind: RecurrenceType::Weekly,
        weekdays: vec![Weekday::Mon, Weekday::Thu],
        ..Recurrence::none()
    };
    for item in [
        // One-off todo.
        known_item(ItemKind::Todo, "t1", Recurrence::none(), Some("2026-11-20")),
        // Daily todo since Nov 1 (today is an occurrence).
        known_item(
            ItemKind::Todo,
            "t2",
            rec(RecurrenceType::Daily),
            Some("2026-11-01"),
        ),
        // Weekly on the anchor's weekday, Tuesday (today is not an occurrence).
        known_item(
            ItemKind::Todo,
            "t3",
            rec(RecurrenceType::Weekly),
            Some("2026-11-17"),
        ),
        // Backlog todo.
        known_item(ItemKind::Todo, "t4", Recurrence::none(), None),
        known_item(
            ItemKind::Event,
            "e1",
            Recurrence::none(),
            Some("2026-11-25"),
        ),
        known_item(
            ItemKind::Event,
            "e2",
            rec(RecurrenceType::Daily),
            Some("2026-11-02"),
        ),
        known_item(
            ItemKind::Habit,
            "h1",
            rec(RecurrenceType::Daily),
            Some("2026-11-01"),
        ),
        known_item(ItemKind::Habit, "h2", weekly_mon_thu, Some("2026-11-16")),
        known_item(ItemKind::Goal, "g1", Recurrence::none(), None),
        known_item(ItemKind::Goal, "g2", Recurrence::none(), None),
    ] {
        k.insert(item);
    }
    k
}

fn run(v: &Value) -> Validation {
    validate(&shape_operations(v).expect("a list"), &known(), today())
}

fn check(op: Value) -> OpCheck {
    let v = run(&json!({ "operations": [op] }));
    assert_eq!(v.checks.len(), 1);
    v.checks.into_iter().next().unwrap()
}

fn issues(c: &OpCheck) -> Vec<(String, Option<String>)> {
    c.errors
        .iter()
        .map(|e| (e.code.clone(), e.field.clone()))
        .collect()
}

/// Asserts the operation is invalid with exactly one issue, `code` on `field`.
#[track_caller]
fn assert_issue(op: Value, code: &str, field: Option<&str>) -> OpCheck {
    let c = check(op.clone());
    assert!(!c.valid, "{op} should be invalid");
    assert_eq!(
        issues(&c),
        vec![(code.to_string(), field.map(str::to_string))],
        "{op}: {:?}",
        c.errors
    );
    assert!(!c.errors[0].message.is_empty());
    c
}

/// Asserts the operation is valid; returns the (repaired) operation and the repairs. The repaired
/// operation re-validates as valid with no further repair, also after a JSON round trip.
#[track_caller]
fn assert_valid(op: Value) -> (PlannerOperation, Vec<String>) {
    let c = check(op.clone());
    assert!(c.valid, "{op} should be valid: {:?}", c.errors);
    assert!(c.errors.is_empty());
    let o = c.operation.clone().unwrap();
    revalidates(&o);
    (o, c.repairs)
}

#[track_caller]
fn revalidates(o: &PlannerOperation) {
    let again = validate(&shape_typed(vec![o.clone()]), &known(), today());
    assert!(
        again.all_valid(),
        "{o:?} re-validated: {:?}",
        again.checks[0].errors
    );
    assert!(
        again.checks[0].repairs.is_empty(),
        "{:?}",
        again.checks[0].repairs
    );
    assert_eq!(again.checks[0].operation.as_ref(), Some(o));
    let json = serde_json::to_value(o).unwrap();
    let shaped = shape_operations(&json!([json])).unwrap();
    assert!(
        shaped[0].issues.is_empty(),
        "{json}: {:?}",
        shaped[0].issues
    );
    assert_eq!(shaped[0].operation.as_ref(), Some(o), "{json}");
}

fn has_repair(repairs: &[String], needle: &str) -> bool {
    repairs.iter().any(|r| r.contains(needle))
}

// ---------------------------------------------------------------- todo / event / habit: create

#[test]
fn create_valid_for_each_kind() {
    let (o, _) = assert_valid(json!({"op":"create","kind":"todo","title":"Buy milk",
        "recurrence":{"type":"none"}}));
    assert_eq!((o.op, o.kind), (OpType::Create, ItemKind::Todo));
    assert_valid(
        json!({"op":"create","kind":"todo","title":"Pay rent","scheduledFor":"2026-12-01",
        "timeOfDay":"09:00","priority":"high","notes":"bank","recurrence":{"type":"monthly"}}),
    );
    assert_valid(
        json!({"op":"create","kind":"event","title":"Dentist","scheduledFor":"2026-11-24",
        "timeOfDay":"10:00","endTime":"10:30","recurrence":{"type":"none"}}),
    );
    assert_valid(
        json!({"op":"create","kind":"event","title":"Standup","scheduledFor":"2026-11-23",
        "recurrence":{"type":"weekly","interval":1,"weekdays":["mon","wed","fri"],"until":"2027-01-31"}}),
    );
    assert_valid(
        json!({"op":"create","kind":"habit","title":"Stretch","scheduledFor":"2026-11-21",
        "recurrence":{"type":"daily","interval":2}}),
    );
    assert_valid(
        json!({"op":"create","kind":"habit","title":"Review","scheduledFor":"2024-02-29",
        "recurrence":{"type":"yearly","interval":365}}),
    );
}

#[test]
fn create_invalid_cases() {
    let t = |extra: Value| {
        let mut o = json!({"op":"create","kind":"todo","title":"A","recurrence":{"type":"none"}});
        for (k, v) in extra.as_object().unwrap() {
            o[k] = v.clone();
        }
        o
    };
    assert_issue(t(json!({"title": null})), "missing_title", Some("title"));
    assert_issue(
        t(json!({"title": "x".repeat(201)})),
        "invalid_title",
        Some("title"),
    );
    assert_valid(t(json!({"title": "é".repeat(200)})));
    assert_issue(t(json!({"id": "t1"})), "unexpected_id", Some("id"));
    // A made-up id on a create is dropped (the library assigns ids); one naming an item is not.
    let (op, repairs) = assert_valid(t(json!({"id": "t99"})));
    assert_eq!(op.id, None);
    assert!(
        repairs.iter().any(|r| r.contains("dropped the id")),
        "{repairs:?}"
    );
    assert_issue(
        t(json!({"scheduledFor": "2026-11-31"})),
        "invalid_date",
        Some("scheduledFor"),
    );
    assert_issue(
        t(json!({"scheduledFor": "tomorrow"})),
        "invalid_date",
        Some("scheduledFor"),
    );
    assert_issue(
        t(json!({"timeOfDay": "25:00"})),
        "invalid_time",
        Some("timeOfDay"),
    );
    assert_issue(
        t(json!({"timeOfDay": "9am"})),
        "invalid_time",
        Some("timeOfDay"),
    );
    // Recurrence shape.
    let r = |r: Value| t(json!({"scheduledFor":"2026-11-23","recurrence": r}));
    assert_issue(
        r(json!({"type":"daily","interval":0})),
        "invalid_recurrence",
        Some("recurrence.interval"),
    );
    assert_issue(
        r(json!({"type":"daily","interval":366})),
        "invalid_recurrence",
        Some("recurrence.interval"),
    );
    assert_issue(
        r(json!({"type":"daily","interval":-1})),
        "invalid_recurrence",
        Some("recurrence.interval"),
    );
    assert_issue(
        r(json!({"type":"daily","interval":1.5})),
        "invalid_recurrence",
        Some("recurrence.interval"),
    );
    assert_issue(
        r(json!({"type":"daily","weekdays":["mon"]})),
        "invalid_recurrence",
        Some("recurrence.weekdays"),
    );
    assert_issue(
        r(json!({"type":"none","weekdays":["mon"]})),
        "invalid_recurrence",
        Some("recurrence.weekdays"),
    );
    assert_issue(
        r(json!({"type":"weekly","weekdays":["funday"]})),
        "invalid_recurrence",
        Some("recurrence.weekdays"),
    );
    assert_issue(
        r(json!({"type":"weekly","weekdays":"x"})),
        "invalid_recurrence",
        Some("recurrence.weekdays"),
    );
    assert_issue(
        r(json!({"type":"weekly","until":"2026-11-22"})),
        "invalid_recurrence",
        Some("recurrence.until"),
    );
    assert_valid(r(json!({"type":"weekly","until":"2026-11-23"})));
    assert_issue(
        r(json!({"type":"weekly","until":"soon"})),
        "invalid_recurrence",
        Some("recurrence.until"),
    );
    assert_issue(
        r(json!({"type":"weekly","until":5})),
        "invalid_recurrence",
        Some("recurrence.until"),
    );
    assert_issue(
        r(json!({"type":"hourly"})),
        "invalid_recurrence",
        Some("recurrence.type"),
    );
    assert_issue(
        r(json!({"interval":2})),
        "invalid_recurrence",
        Some("recurrence.type"),
    );
    assert_issue(
        r(json!({"type":3})),
        "invalid_recurrence",
        Some("recurrence.type"),
    );
    assert_issue(
        r(json!("fortnightly")),
        "invalid_recurrence",
        Some("recurrence"),
    );
    assert_issue(r(json!(7)), "invalid_recurrence", Some("recurrence"));
}

#[test]
fn event_create_needs_a_date_and_a_sane_time_range() {
    let e = |extra: Value| {
        let mut o = json!({"op":"create","kind":"event","title":"Call","scheduledFor":"2026-11-24",
            "recurrence":{"type":"none"}});
        for (k, v) in extra.as_object().unwrap() {
            o[k] = v.clone();
        }
        o
    };
    assert_issue(
        e(json!({"scheduledFor": null})),
        "missing_anchor",
        Some("scheduledFor"),
    );
    assert_issue(
        e(json!({"timeOfDay":"10:00","endTime":"10:00"})),
        "end_before_start",
        Some("endTime"),
    );
    assert_issue(
        e(json!({"timeOfDay":"10:00","endTime":"09:59"})),
        "end_before_start",
        Some("endTime"),
    );
    assert_issue(
        e(json!({"endTime":"11:00"})),
        "invalid_time",
        Some("endTime"),
    );
    assert_issue(
        e(json!({"timeOfDay":"10:00","endTime":"24:00"})),
        "invalid_time",
        Some("endTime"),
    );
    assert_valid(e(json!({"timeOfDay":"23:00","endTime":"23:59"})));
    // A todo without a date is a backlog todo.
    assert_valid(
        json!({"op":"create","kind":"todo","title":"Someday","recurrence":{"type":"none"}}),
    );
}

#[test]
fn habits_must_repeat_and_are_not_given_a_recurrence() {
    assert_issue(
        json!({"op":"create","kind":"habit","title":"Run","scheduledFor":"2026-11-21"}),
        "missing_recurrence",
        Some("recurrence"),
    );
    assert_issue(
        json!({"op":"create","kind":"habit","title":"Run","recurrence":{"type":"none"}}),
        "habit_must_repeat",
        Some("recurrence.type"),
    );
    assert_issue(
        json!({"op":"update","kind":"habit","id":"h1","recurrence":{"type":"none"}}),
        "habit_must_repeat",
        Some("recurrence.type"),
    );
}

// ---------------------------------------------------------------- update

#[test]
fn update_valid_and_invalid() {
    let (o, repairs) =
        assert_valid(json!({"op":"update","kind":"todo","id":"t1","title":"Buy oat milk"}));
    assert_eq!(o.recurrence, Some(Recurrence::none()));
    assert!(
        has_repair(&repairs, "recurrence kept from the stored todo"),
        "{repairs:?}"
    );
    assert_valid(
        json!({"op":"update","kind":"event","id":"e1","timeOfDay":"08:00","endTime":"09:00",
        "recurrence":{"type":"none"}}),
    );
    assert_valid(
        json!({"op":"update","kind":"habit","id":"h2","priority":"low",
        "recurrence":{"type":"weekly","weekdays":["tue"]}}),
    );
    assert_issue(
        json!({"op":"update","kind":"todo","title":"x"}),
        "missing_id",
        Some("id"),
    );
    assert_issue(
        json!({"op":"update","kind":"todo","id":"nope","title":"x"}),
        "unknown_id",
        Some("id"),
    );
    // Right id, wrong kind.
    assert_issue(
        json!({"op":"update","kind":"event","id":"t1","title":"x"}),
        "unknown_id",
        Some("id"),
    );
    assert_issue(
        json!({"op":"update","kind":"todo","id":"t1","title":" x".repeat(101)}),
        "invalid_title",
        Some("title"),
    );
    assert_issue(
        json!({"op":"update","kind":"todo","id":"t1","scheduledFor":"2026-2-1"}),
        "invalid_date",
        Some("scheduledFor"),
    );
    assert_issue(
        json!({"op":"update","kind":"event","id":"e1","endTime":"7:5"}),
        "invalid_time",
        Some("endTime"),
    );
    assert_issue(
        json!({"op":"update","kind":"event","id":"e1","timeOfDay":"12:00","endTime":"11:00"}),
        "end_before_start",
        Some("endTime"),
    );
    assert_issue(
        json!({"op":"update","kind":"todo","id":"t2","recurrence":{"type":"daily","until":"2026-10-01"}}),
        "invalid_recurrence",
        Some("recurrence.until"),
    );
}

// ---------------------------------------------------------------- delete / complete / occurrence

#[test]
fn delete_for_each_kind() {
    for (kind, id) in [("todo", "t1"), ("event", "e2"), ("habit", "h1")] {
        let (o, _) = assert_valid(json!({"op":"delete","kind":kind,"id":id}));
        assert_eq!(o.op, OpType::Delete);
        assert_issue(json!({"op":"delete","kind":kind}), "missing_id", Some("id"));
        assert_issue(
            json!({"op":"delete","kind":kind,"id":"zzz"}),
            "unknown_id",
            Some("id"),
        );
    }
}

#[test]
fn complete_and_complete_occurrence() {
    assert_valid(json!({"op":"complete","kind":"todo","id":"t1"}));
    assert_valid(json!({"op":"complete","kind":"event","id":"e1"}));
    assert_issue(
        json!({"op":"complete","kind":"todo"}),
        "missing_id",
        Some("id"),
    );
    assert_issue(
        json!({"op":"complete","kind":"todo","id":"t9"}),
        "unknown_id",
        Some("id"),
    );
    // Master complete of a repeating item when today is no occurrence.
    assert_issue(
        json!({"op":"complete","kind":"todo","id":"t3"}),
        "use_complete_occurrence",
        Some("op"),
    );
    assert_issue(
        json!({"op":"complete","kind":"habit","id":"h2"}),
        "use_complete_occurrence",
        Some("op"),
    );

    let (o, _) = assert_valid(json!({"op":"complete_occurrence","kind":"habit","id":"h2",
        "occurrenceDate":"2026-11-19"}));
    assert_eq!(o.occurrence_date.as_deref(), Some("2026-11-19"));
    assert_valid(
        json!({"op":"complete_occurrence","kind":"todo","id":"t3","occurrenceDate":"2026-11-24"}),
    );
    assert_valid(
        json!({"op":"complete_occurrence","kind":"event","id":"e2","occurrenceDate":"2026-11-02"}),
    );
    assert_issue(
        json!({"op":"complete_occurrence","kind":"habit","id":"h2","occurrenceDate":"2026-11-20"}),
        "not_an_occurrence",
        Some("occurrenceDate"),
    );
    assert_issue(
        json!({"op":"complete_occurrence","kind":"event","id":"e2","occurrenceDate":"2026-11-01"}),
        "not_an_occurrence",
        Some("occurrenceDate"),
    );
    assert_issue(
        json!({"op":"complete_occurrence","kind":"todo","id":"t1","occurrenceDate":"2026-11-20"}),
        "not_repeating",
        Some("op"),
    );
    assert_issue(
        json!({"op":"complete_occurrence","kind":"habit","id":"h1","occurrenceDate":"21/11/2026"}),
        "invalid_date",
        Some("occurrenceDate"),
    );
    assert_issue(
        json!({"op":"complete_occurrence","kind":"habit","id":"h2"}),
        "missing_occurrence_date",
        Some("occurrenceDate"),
    );
    assert_issue(
        json!({"op":"complete_occurrence","kind":"habit","occurrenceDate":"2026-11-19"}),
        "missing_id",
        Some("id"),
    );
    assert_issue(
        json!({"op":"complete_occurrence","kind":"habit","id":"h9","occurrenceDate":"2026-11-19"}),
        "unknown_id",
        Some("id"),
    );
}

// ---------------------------------------------------------------- goals

#[test]
fn goal_ops_valid() {
    let (o, _) = assert_valid(
        json!({"op":"goal_create","kind":"goal","title":"Get fit","priority":"high",
        "items":[{"kind":"habit","id":"h1"},{"kind":"todo","id":"t1"}],"children":["g2"]}),
    );
    assert_eq!(o.items.len(), 2);
    assert_valid(
        json!({"op":"goal_update","kind":"goal","id":"g1","title":"Get fitter","notes":"5k"}),
    );
    assert_valid(json!({"op":"goal_delete","kind":"goal","id":"g1"}));
    assert_valid(
        json!({"op":"goal_add_items","kind":"goal","id":"g1","items":[{"kind":"event","id":"e1"}]}),
    );
    assert_valid(
        json!({"op":"goal_remove_item","kind":"goal","id":"g1","item":{"kind":"todo","id":"t4"}}),
    );
    assert_valid(json!({"op":"goal_add_child","kind":"goal","id":"g1","childId":"g2"}));
    assert_valid(json!({"op":"goal_remove_child","kind":"goal","id":"g1","childId":"g2"}));
}

#[test]
fn goal_ops_invalid() {
    assert_issue(
        json!({"op":"goal_create","kind":"goal"}),
        "missing_title",
        Some("title"),
    );
    assert_issue(
        json!({"op":"goal_create","kind":"goal","title":"x","id":"g1"}),
        "unexpected_id",
        Some("id"),
    );
    assert_issue(
        json!({"op":"goal_create","kind":"goal","title":"x","items":[{"kind":"todo","id":"nope"}]}),
        "unknown_id",
        Some("items[0]"),
    );
    assert_issue(
        json!({"op":"goal_create","kind":"goal","title":"x","children":["g1","g7"]}),
        "unknown_id",
        Some("children[1]"),
    );
    assert_issue(
        json!({"op":"goal_update","kind":"goal","title":"x"}),
        "missing_id",
        Some("id"),
    );
    assert_issue(
        json!({"op":"goal_update","kind":"goal","id":"t1","title":"x"}),
        "unknown_id",
        Some("id"),
    );
    assert_issue(
        json!({"op":"goal_update","kind":"goal","id":"g1","title":"x".repeat(201)}),
        "invalid_title",
        Some("title"),
    );
    assert_issue(
        json!({"op":"goal_delete","kind":"goal"}),
        "missing_id",
        Some("id"),
    );
    assert_issue(
        json!({"op":"goal_delete","kind":"goal","id":"g9"}),
        "unknown_id",
        Some("id"),
    );
    assert_issue(
        json!({"op":"goal_add_items","kind":"goal","id":"g1"}),
        "missing_items",
        Some("items"),
    );
    assert_issue(
        json!({"op":"goal_add_items","kind":"goal","id":"g1","items":[]}),
        "missing_items",
        Some("items"),
    );
    assert_issue(
        json!({"op":"goal_add_items","kind":"goal","id":"g1","items":[{"kind":"todo","id":"t1"},{"kind":"goal","id":"g2"}]}),
        "invalid_item",
        Some("items[1]"),
    );
    assert_issue(
        json!({"op":"goal_add_items","kind":"goal","id":"g1","items":[{"kind":"habit","id":"t1"}]}),
        "unknown_id",
        Some("items[0]"),
    );
    assert_issue(
        json!({"op":"goal_add_items","kind":"goal","id":"g1","items":[{"kind":"todo"}]}),
        "invalid_field",
        Some("items[0]"),
    );
    assert_issue(
        json!({"op":"goal_remove_item","kind":"goal","id":"g1"}),
        "missing_item",
        Some("item"),
    );
    assert_issue(
        json!({"op":"goal_remove_item","kind":"goal","id":"g1","item":{"kind":"todo","id":"t7"}}),
        "unknown_id",
        Some("item"),
    );
    assert_issue(
        json!({"op":"goal_remove_item","kind":"goal","id":"g1","item":{"kind":"goal","id":"g2"}}),
        "invalid_item",
        Some("item"),
    );
    assert_issue(
        json!({"op":"goal_remove_item","kind":"goal","id":"g1","item":"t1"}),
        "invalid_field",
        Some("item"),
    );
    for op in ["goal_add_child", "goal_remove_child"] {
        assert_issue(
            json!({"op":op,"kind":"goal","id":"g1"}),
            "missing_child_id",
            Some("childId"),
        );
        assert_issue(
            json!({"op":op,"kind":"goal","id":"g1","childId":"g1"}),
            "self_child",
            Some("childId"),
        );
        assert_issue(
            json!({"op":op,"kind":"goal","id":"g1","childId":"g5"}),
            "unknown_id",
            Some("childId"),
        );
        assert_issue(
            json!({"op":op,"kind":"goal","childId":"g2"}),
            "missing_id",
            Some("id"),
        );
    }
}

#[test]
fn op_kind_pairs_outside_the_rules_are_not_allowed() {
    for op in [
        "goal_create",
        "goal_update",
        "goal_delete",
        "goal_add_items",
        "goal_remove_item",
        "goal_add_child",
        "goal_remove_child",
    ] {
        for kind in ["todo", "event", "habit"] {
            assert_issue(
                json!({"op":op,"kind":kind,"id":"t1","title":"x"}),
                "op_not_allowed",
                Some("op"),
            );
        }
    }
    for op in ["complete", "complete_occurrence"] {
        assert_issue(
            json!({"op":op,"kind":"goal","id":"g1"}),
            "op_not_allowed",
            Some("op"),
        );
    }
}

#[test]
fn create_update_delete_on_a_goal_read_as_goal_ops() {
    for (given, wanted, extra) in [
        (
            "create",
            OpType::GoalCreate,
            json!({"title":"Learn Spanish"}),
        ),
        (
            "update",
            OpType::GoalUpdate,
            json!({"id":"g1","title":"Learn Italian"}),
        ),
        ("delete", OpType::GoalDelete, json!({"id":"g2"})),
    ] {
        let mut op = extra;
        op["op"] = json!(given);
        op["kind"] = json!("goal");
        let (o, repairs) = assert_valid(op);
        assert_eq!(o.op, wanted);
        assert!(has_repair(&repairs, "on a goal read as"), "{repairs:?}");
    }
}

// ---------------------------------------------------------------- deterministic repairs

#[test]
fn repair_injects_none_for_todo_and_event_creates() {
    for kind in ["todo", "event"] {
        let (o, repairs) = assert_valid(
            json!({"op":"create","kind":kind,"title":"x","scheduledFor":"2026-11-24"}),
        );
        assert_eq!(o.recurrence, Some(Recurrence::none()));
        assert_eq!(repairs, vec!["added recurrence {type:'none'}".to_string()]);
    }
}

#[test]
fn repair_keeps_the_stored_recurrence_on_update() {
    let (o, repairs) = assert_valid(json!({"op":"update","kind":"habit","id":"h2","title":"Gym"}));
    assert_eq!(
        o.recurrence.as_ref().unwrap().weekdays,
        vec![Weekday::Mon, Weekday::Thu]
    );
    assert!(has_repair(&repairs, "recurrence kept"));
    // The stored anchor comes with it.
    assert_eq!(o.scheduled_for.as_deref(), Some("2026-11-16"));
    let (o, _) = assert_valid(json!({"op":"update","kind":"todo","id":"t2","priority":"high"}));
    assert_eq!(
        o.recurrence,
        Some(rec(RecurrenceType::Daily)),
        "a repeating item stays repeating"
    );
}

#[test]
fn repair_adds_anchors() {
    let (o, repairs) = assert_valid(
        json!({"op":"create","kind":"habit","title":"Floss","recurrence":{"type":"daily"}}),
    );
    assert_eq!(o.scheduled_for.as_deref(), Some(TODAY));
    assert!(
        has_repair(&repairs, "added anchor scheduledFor 2026-11-21 (today)"),
        "{repairs:?}"
    );
    // A repeating event without a date is anchored today too.
    let (o, _) = assert_valid(
        json!({"op":"create","kind":"event","title":"Yoga","recurrence":{"type":"weekly"}}),
    );
    assert_eq!(o.scheduled_for.as_deref(), Some(TODAY));
    // Update: the stored date.
    let (o, repairs) =
        assert_valid(json!({"op":"update","kind":"todo","id":"t1","recurrence":{"type":"weekly"}}));
    assert_eq!(o.scheduled_for.as_deref(), Some("2026-11-20"));
    assert!(
        has_repair(&repairs, "the stored item's date"),
        "{repairs:?}"
    );
    // Update of a backlog todo to a repeating one: today.
    let (o, _) =
        assert_valid(json!({"op":"update","kind":"todo","id":"t4","recurrence":{"type":"daily"}}));
    assert_eq!(o.scheduled_for.as_deref(), Some(TODAY));
    // An explicit anchor is kept.
    let (o, repairs) = assert_valid(json!({"op":"create","kind":"habit","title":"Read",
        "scheduledFor":"2026-12-01","recurrence":{"type":"daily"}}));
    assert_eq!(o.scheduled_for.as_deref(), Some("2026-12-01"));
    assert!(repairs.is_empty(), "{repairs:?}");
}

#[test]
fn repair_converts_master_complete_when_today_is_an_occurrence() {
    for (kind, id) in [("todo", "t2"), ("habit", "h1")] {
        let (o, repairs) = assert_valid(json!({"op":"complete","kind":kind,"id":id}));
        assert_eq!(o.op, OpType::CompleteOccurrence);
        assert_eq!(o.occurrence_date.as_deref(), Some(TODAY));
        assert!(
            has_repair(&repairs, "converted to complete_occurrence of 2026-11-21"),
            "{repairs:?}"
        );
    }
    // complete_occurrence without a date: today, when it is an occurrence.
    let (o, repairs) = assert_valid(json!({"op":"complete_occurrence","kind":"event","id":"e2"}));
    assert_eq!(o.occurrence_date.as_deref(), Some(TODAY));
    assert!(has_repair(&repairs, "added occurrenceDate 2026-11-21"));
}

#[test]
fn repair_drops_fields_the_op_does_not_use() {
    let (o, repairs) = assert_valid(json!({"op":"delete","kind":"todo","id":"t1","title":"x",
        "recurrence":{"type":"none"},"items":[{"kind":"todo","id":"t1"}]}));
    assert_eq!(o, {
        let mut d = PlannerOperation::new(OpType::Delete, ItemKind::Todo);
        d.id = Some("t1".into());
        d
    });
    assert_eq!(
        repairs,
        vec!["dropped title, recurrence, items (not used by delete on a todo)".to_string()]
    );
    let (o, _) = assert_valid(
        json!({"op":"create","kind":"todo","title":"x","endTime":"10:00","childId":"g1"}),
    );
    assert_eq!((o.end_time, o.child_id), (None, None));
    let (o, _) = assert_valid(
        json!({"op":"goal_create","kind":"goal","title":"x","scheduledFor":"2026-11-21",
        "recurrence":{"type":"daily"}}),
    );
    assert_eq!((o.scheduled_for, o.recurrence), (None, None));
}

#[test]
fn typed_operations_get_the_same_repairs_and_blank_strings_are_absent() {
    let mut o = PlannerOperation::new(OpType::Create, ItemKind::Todo);
    o.title = Some("Call mum".into());
    o.id = Some("  ".into());
    o.notes = Some(String::new());
    let v = validate(&shape_typed(vec![o]), &known(), today());
    assert!(v.all_valid(), "{:?}", v.checks[0].errors);
    let got = v.checks[0].operation.clone().unwrap();
    assert_eq!((got.id, got.notes), (None, None));
    assert_eq!(got.recurrence, Some(Recurrence::none()));
    let mut bulk = PlannerOperation::new(OpType::Delete, ItemKind::Todo);
    bulk.id = Some("*".into());
    let v = validate(&shape_typed(vec![bulk]), &known(), today());
    assert_eq!(v.checks[0].errors[0].code, "bulk_not_supported");
}

// ---------------------------------------------------------------- shaping

#[test]
fn op_is_inferred() {
    let infer = |op: Value| {
        let c = check(op);
        (c.operation.map(|o| o.op), c.repairs)
    };
    let (op, repairs) = infer(json!({"kind":"todo","title":"x"}));
    assert_eq!(op, Some(OpType::Create));
    assert!(has_repair(&repairs, "op inferred as \"create\""));
    assert_eq!(
        infer(json!({"kind":"goal","title":"x"})).0,
        Some(OpType::GoalCreate)
    );
    assert_eq!(
        infer(json!({"kind":"todo","id":"t1","title":"y"})).0,
        Some(OpType::Update)
    );
    assert_eq!(
        infer(json!({"kind":"todo","id":"t1","completed":true})).0,
        Some(OpType::Complete)
    );
    let (op, repairs) = infer(json!({"kind":"todo","id":"t1","completed":true,"title":"z"}));
    assert_eq!(op, Some(OpType::Update));
    assert!(has_repair(&repairs, "completed:true ignored"));
    assert_eq!(
        infer(json!({"kind":"habit","id":"h2","occurrenceDate":"2026-11-19"})).0,
        Some(OpType::CompleteOccurrence)
    );
    assert_eq!(
        infer(json!({"kind":"goal","id":"g1","title":"y"})).0,
        Some(OpType::GoalUpdate)
    );
    assert_eq!(
        infer(json!({"kind":"goal","id":"g1","items":[{"kind":"todo","id":"t1"}]})).0,
        Some(OpType::GoalAddItems)
    );
    assert_issue(
        json!({"kind":"goal","id":"g1","childId":"g2"}),
        "missing_op",
        Some("op"),
    );
}

#[test]
fn op_and_kind_spellings() {
    for s in [
        "complete_occurrence",
        "complete-occurrence",
        "completeOccurrence",
        "COMPLETE OCCURRENCE",
    ] {
        let c = check(json!({"op":s,"kind":"Habit","id":"h2","occurrenceDate":"2026-11-19"}));
        assert!(c.valid, "{s}: {:?}", c.errors);
        assert_eq!(c.operation.unwrap().op, OpType::CompleteOccurrence);
    }
    for (s, want) in [
        ("add", OpType::Create),
        ("edit", OpType::Update),
        ("REMOVE", OpType::Delete),
    ] {
        let c = check(json!({"action":s,"kind":"todo","id":"t1","title":"x"}));
        assert_eq!(c.operation.unwrap().op, want, "{s}");
    }
    let c = check(json!({"type":"goal-add-child","id":"g1","childId":"g2"}));
    assert!(c.valid, "kind inferred from a goal op: {:?}", c.errors);
    assert_eq!(c.operation.unwrap().kind, ItemKind::Goal);
    let c = check(json!({"type":"todo","title":"x"}));
    assert!(c.valid, "type as the kind: {:?}", c.errors);
    assert_eq!(c.operation.unwrap().kind, ItemKind::Todo);
    let c = assert_issue(
        json!({"op":"archive","kind":"todo","id":"t1"}),
        "unknown_op",
        Some("op"),
    );
    assert_eq!(c.operation, None);
    let c = assert_issue(
        json!({"op":"create","kind":"note","title":"x"}),
        "unknown_kind",
        Some("kind"),
    );
    assert_eq!(c.operation, None);
    assert_issue(
        json!({"op":"create","title":"x"}),
        "missing_kind",
        Some("kind"),
    );
    assert_issue(
        json!({"op":"create","kind":"","title":"x"}),
        "missing_kind",
        Some("kind"),
    );
    assert_issue(json!({"op":7,"kind":"todo"}), "invalid_field", Some("op"));
    assert_issue(
        json!({"op":"create","kind":["todo"]}),
        "invalid_field",
        Some("kind"),
    );
}

#[test]
fn priorities_are_lowercased() {
    for (s, want) in [
        ("HIGH", Priority::High),
        ("Low", Priority::Low),
        (" medium ", Priority::Medium),
        ("med", Priority::Medium),
        ("Normal", Priority::Medium),
    ] {
        let (o, _) = assert_valid(json!({"kind":"todo","title":"x","priority":s}));
        assert_eq!(o.priority, Some(want), "{s}");
    }
    let (o, _) = assert_valid(json!({"kind":"todo","title":"x","priority":""}));
    assert_eq!(o.priority, None);
    assert_issue(
        json!({"kind":"todo","title":"x","priority":"urgent"}),
        "invalid_priority",
        Some("priority"),
    );
    assert_issue(
        json!({"kind":"todo","title":"x","priority":3}),
        "invalid_priority",
        Some("priority"),
    );
}

#[test]
fn empty_strings_are_null_and_snake_case_is_accepted() {
    let (o, _) = assert_valid(
        json!({"op":"create","kind":"todo","id":"","title":"  Tidy  ","notes":" ",
        "scheduled_for":"2026-11-22","time_of_day":"","end_time":null,"occurrenceDate":"","childId":""}),
    );
    assert_eq!(o.id, None);
    assert_eq!(o.title.as_deref(), Some("Tidy"));
    assert_eq!(o.notes, None);
    assert_eq!(o.scheduled_for.as_deref(), Some("2026-11-22"));
    assert_eq!(o.time_of_day, None);
    let (o, _) =
        assert_valid(json!({"op":"goal_add_child","kind":"goal","id":"g1","child_id":"g2"}));
    assert_eq!(o.child_id.as_deref(), Some("g2"));
    let (o, _) = assert_valid(
        json!({"op":"complete_occurrence","kind":"habit","id":"h2","occurrence_date":"2026-11-19"}),
    );
    assert_eq!(o.occurrence_date.as_deref(), Some("2026-11-19"));
    // camelCase wins over snake_case.
    let (o, _) = assert_valid(
        json!({"kind":"todo","title":"x","scheduledFor":"2026-11-23","scheduled_for":"2026-11-24"}),
    );
    assert_eq!(o.scheduled_for.as_deref(), Some("2026-11-23"));
    // Unknown fields are ignored.
    assert_valid(json!({"kind":"todo","title":"x","confidence":0.9,"reason":"asked"}));
}

#[test]
fn times_and_recurrence_shorthands_are_normalised() {
    let (o, repairs) = assert_valid(
        json!({"kind":"event","title":"x","scheduledFor":"2026-11-24",
        "timeOfDay":"9:05","endTime":"10:30:00"}),
    );
    assert_eq!(
        (o.time_of_day.as_deref(), o.end_time.as_deref()),
        (Some("09:05"), Some("10:30"))
    );
    assert!(
        has_repair(&repairs, "timeOfDay \"9:05\" read as \"09:05\""),
        "{repairs:?}"
    );
    let (o, _) = assert_valid(json!({"kind":"habit","title":"x","recurrence":"Daily"}));
    assert_eq!(o.recurrence, Some(rec(RecurrenceType::Daily)));
    let (o, _) = assert_valid(json!({"kind":"todo","title":"x","recurrence":"none"}));
    assert_eq!(o.recurrence, Some(Recurrence::none()));
    let (o, repairs) = assert_valid(json!({"kind":"todo","title":"x","recurrence":{}}));
    assert_eq!(o.recurrence, Some(Recurrence::none()));
    assert!(has_repair(&repairs, "empty recurrence read as absent"));
    let (o, _) = assert_valid(
        json!({"kind":"habit","title":"x","recurrence":{"type":"WEEKLY",
        "weekdays":["Mon","monday","TU","thurs","sun"],"interval":2.0}}),
    );
    let r = o.recurrence.unwrap();
    assert_eq!(
        r.weekdays,
        vec![Weekday::Mon, Weekday::Tue, Weekday::Thu, Weekday::Sun]
    );
    assert_eq!(r.interval, Some(2));
}

#[test]
fn a_date_with_a_time_is_split() {
    let (o, repairs) =
        assert_valid(json!({"kind":"event","title":"x","scheduledFor":"2026-11-24T18:30"}));
    assert_eq!(
        (o.scheduled_for.as_deref(), o.time_of_day.as_deref()),
        (Some("2026-11-24"), Some("18:30"))
    );
    assert!(
        has_repair(
            &repairs,
            "split into scheduledFor 2026-11-24 and timeOfDay 18:30"
        ),
        "{repairs:?}"
    );
    let (o, _) = assert_valid(
        json!({"kind":"todo","title":"x","scheduledFor":"2026-11-24 07:00:00","timeOfDay":"08:00"}),
    );
    assert_eq!(
        (o.scheduled_for.as_deref(), o.time_of_day.as_deref()),
        (Some("2026-11-24"), Some("08:00"))
    );
    for bad in [
        "2026-11-24T25:00",
        "2026-11-24T18:30:15",
        "2026-11-24T18:30Z",
        "2026-11-24Té:0:00",
    ] {
        assert_issue(
            json!({"kind":"todo","title":"x","scheduledFor":bad}),
            "invalid_date",
            Some("scheduledFor"),
        );
    }
}

#[test]
fn bulk_markers_are_rejected() {
    for (op, field) in [
        (
            json!({"op":"delete","kind":"todo","where":{"completed":true}}),
            "where",
        ),
        (
            json!({"op":"update","kind":"todo","filter":"overdue","priority":"low"}),
            "filter",
        ),
        (
            json!({"op":"delete","kind":"todo","query":"all done"}),
            "query",
        ),
        (
            json!({"op":"complete","kind":"todo","ids":["t1","t4"]}),
            "ids",
        ),
        (json!({"op":"delete","kind":"habit","all":true}), "all"),
        (json!({"op":"delete","kind":"todo","id":"*"}), "id"),
        (json!({"op":"delete","kind":"event","id":"ALL"}), "id"),
    ] {
        let c = check(op.clone());
        assert!(!c.valid, "{op}");
        assert_eq!(
            issues(&c)[0],
            ("bulk_not_supported".to_string(), Some(field.to_string())),
            "{op}"
        );
    }
    // A single marker gives a single issue when the rest is fine.
    assert_issue(
        json!({"op":"delete","kind":"todo","id":"t1","where":{"x":1}}),
        "bulk_not_supported",
        Some("where"),
    );
    assert_issue(
        json!({"op":"delete","kind":"todo","id":"all"}),
        "bulk_not_supported",
        Some("id"),
    );
}

#[test]
fn wrong_json_types_are_reported_per_field() {
    assert_issue(
        json!({"op":"create","kind":"todo","title":42}),
        "invalid_field",
        Some("title"),
    )
    .operation
    .unwrap();
    for (field, value) in [
        ("notes", json!(["a"])),
        ("scheduledFor", json!(20261121)),
        ("timeOfDay", json!(9)),
        ("items", json!("t1")),
        ("children", json!({"a":1})),
    ] {
        let mut op = json!({"op":"create","kind":"todo","title":"x"});
        op[field] = value;
        let c = check(op);
        assert!(!c.valid);
        assert!(
            issues(&c).contains(&("invalid_field".to_string(), Some(field.to_string()))),
            "{field}: {:?}",
            c.errors
        );
    }
    assert_issue(
        json!({"op":"update","kind":"todo","id":7}),
        "invalid_field",
        Some("id"),
    );
    assert_issue(
        json!({"op":"goal_create","kind":"goal","title":"x","children":["g1",5]}),
        "invalid_field",
        Some("children[1]"),
    );
    for garbage in [
        json!(null),
        json!(1),
        json!("create"),
        json!([]),
        json!(true),
    ] {
        let c = assert_issue(garbage, "invalid_operation", None);
        assert_eq!(c.operation, None);
    }
}

#[test]
fn lists_are_read_from_an_object_or_an_array() {
    let op = json!({"kind":"todo","title":"x"});
    assert_eq!(
        shape_operations(&json!({"operations":[op.clone()]}))
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        shape_operations(&json!([op.clone(), op.clone()]))
            .unwrap()
            .len(),
        2
    );
    assert!(shape_operations(&json!({"operations":[]}))
        .unwrap()
        .is_empty());
    for bad in [
        json!({}),
        json!({"operations":{}}),
        json!({"ops":[]}),
        json!(null),
        json!("x"),
        json!(3),
    ] {
        let e = shape_operations(&bad).unwrap_err();
        assert_eq!(e.code, "no_operations", "{bad}");
    }
    let shaped = shape_operations(&json!([op, 5, {"kind":"todo","title":"y"}])).unwrap();
    assert_eq!(
        shaped.iter().map(|s| s.index).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
}

// ---------------------------------------------------------------- list level

#[test]
fn more_than_twenty_operations_is_a_list_error_and_checks_still_run() {
    let ops: Vec<Value> = (0..MAX_OPERATIONS)
        .map(|i| json!({"kind":"todo","title":format!("t{i}")}))
        .collect();
    let v = run(&Value::Array(ops.clone()));
    assert!(v.all_valid());
    assert_eq!(v.valid_count, 20);
    let mut more = ops;
    more.push(json!({"kind":"habit","title":"no rule"}));
    let v = run(&Value::Array(more));
    assert!(!v.all_valid());
    assert_eq!(v.errors.len(), 1);
    assert_eq!(v.errors[0].code, "too_many_operations");
    assert_eq!(v.checks.len(), 21);
    assert_eq!((v.valid_count, v.invalid_count), (20, 1));
    assert_eq!(v.checks[20].errors[0].code, "missing_recurrence");
}

#[test]
fn counts_and_indexes() {
    let v = run(&json!([
        {"kind":"todo","title":"a"},
        {"op":"delete","kind":"todo"},
        {"op":"complete","kind":"todo","id":"t1"},
    ]));
    assert_eq!((v.valid_count, v.invalid_count), (2, 1));
    assert_eq!(
        v.checks.iter().map(|c| c.index).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    assert!(!v.checks[1].valid);
}

#[test]
fn referenced_items_lists_targets_items_and_children() {
    let shaped = shape_operations(&json!([
        {"op":"update","kind":"todo","id":"t1","title":"x"},
        {"op":"goal_add_items","id":"g1","items":[{"kind":"habit","id":"h1"},{"kind":"todo","id":"t1"}]},
        {"op":"goal_remove_item","id":"g2","item":{"kind":"event","id":"e1"}},
        {"op":"goal_add_child","id":"g1","childId":"g2"},
        {"op":"goal_create","title":"x","children":["g3"]},
        {"op":"create","kind":"todo","title":"new"},
        "garbage",
    ]))
    .unwrap();
    let r = |kind, id: &str| ItemRef {
        kind,
        id: id.into(),
    };
    assert_eq!(
        referenced_items(&shaped),
        vec![
            r(ItemKind::Todo, "t1"),
            r(ItemKind::Event, "e1"),
            r(ItemKind::Habit, "h1"),
            r(ItemKind::Goal, "g1"),
            r(ItemKind::Goal, "g2"),
            r(ItemKind::Goal, "g3"),
        ]
    );
}

// ---------------------------------------------------------------- schema

fn schema() -> jsonschema::Validator {
    let v: Value = serde_json::from_str(OPS_SCHEMA).expect("the schema is JSON");
    jsonschema::validator_for(&v).expect("the schema is a valid JSON Schema")
}

#[test]
fn schema_accepts_a_sample_proposal_and_rejects_others() {
    let s = schema();
    let sample = json!({"operations":[
        {"op":"create","kind":"todo","title":"Buy milk","scheduledFor":"2026-11-22","priority":"high",
         "recurrence":{"type":"none"}},
        {"op":"create","kind":"habit","title":"Run","scheduledFor":"2026-11-23","timeOfDay":"07:00",
         "recurrence":{"type":"weekly","interval":1,"weekdays":["mon","thu"],"until":null}},
        {"op":"complete_occurrence","kind":"habit","id":"h2","occurrenceDate":"2026-11-19"},
        {"op":"goal_add_items","kind":"goal","id":"g1","items":[{"kind":"todo","id":"t1"}]},
        {"op":"goal_remove_item","kind":"goal","id":"g1","item":{"kind":"todo","id":"t4"}},
        {"op":"update","kind":"todo","id":"t1","notes":null,"item":null,"childId":null}
    ]});
    assert!(
        s.is_valid(&sample),
        "{:?}",
        s.iter_errors(&sample)
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    // And the library accepts it.
    assert!(run(&sample).all_valid());
    for bad in [
        json!({"operations":[{"op":"archive","kind":"todo"}]}),
        json!({"operations":[{"op":"create","kind":"note"}]}),
        json!({"operations":[{"op":"create","kind":"todo","where":{}}]}),
        json!({"operations":[{"op":"create","kind":"todo","recurrence":{"type":"hourly"}}]}),
        json!({"operations":[{"op":"create","kind":"todo","recurrence":{"type":"daily","interval":0}}]}),
        json!({"operations":[{"kind":"todo"}]}),
        json!({"operations":(0..21).map(|_| json!({"op":"create","kind":"todo"})).collect::<Vec<_>>()}),
        json!([]),
    ] {
        assert!(!s.is_valid(&bad), "{bad}");
    }
}

#[test]
fn schema_lists_every_op_and_kind() {
    let v: Value = serde_json::from_str(OPS_SCHEMA).unwrap();
    let props = &v["properties"]["operations"]["items"]["properties"];
    let ops: Vec<&str> = props["op"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(ops.len(), 12);
    for op in ops {
        let parsed: OpType = serde_json::from_value(json!(op)).unwrap();
        assert_eq!(parsed.as_str(), op);
    }
    assert_eq!(
        props["kind"]["enum"],
        json!(["todo", "event", "habit", "goal"])
    );
}

// ---------------------------------------------------------------- robustness

use crate::common::Rng;

const STRINGS: &[&str] = &[
    "",
    " ",
    "*",
    "all",
    "t1",
    "t2",
    "t3",
    "t4",
    "e1",
    "e2",
    "h1",
    "h2",
    "g1",
    "g2",
    "zz",
    "todo",
    "event",
    "habit",
    "goal",
    "create",
    "update",
    "delete",
    "complete",
    "complete_occurrence",
    "goal_create",
    "goal_add_items",
    "goal_remove_item",
    "goal_add_child",
    "none",
    "daily",
    "weekly",
    "monthly",
    "yearly",
    "mon",
    "Friday",
    "high",
    "LOW",
    "med",
    "2026-11-21",
    "2026-11-19",
    "2026-02-29",
    "2024-02-29",
    "2026-13-01",
    "09:00",
    "9:30",
    "24:00",
    "10:30:00",
    "é",
    "💥",
    "\u{0}",
    "null",
    "2026-11-21T09:00",
    "2026-11-21 07:30:00",
    "2026-11-21Té:0:00",
    "é:00",
    "goal-add-child",
    "COMPLETE OCCURRENCE",
];

const KEYS: &[&str] = &[
    "op",
    "kind",
    "id",
    "title",
    "notes",
    "scheduledFor",
    "scheduled_for",
    "timeOfDay",
    "endTime",
    "priority",
    "recurrence",
    "occurrenceDate",
    "items",
    "item",
    "children",
    "childId",
    "where",
    "ids",
    "all",
    "completed",
    "type",
    "action",
    "interval",
    "weekdays",
    "until",
];

fn random_value(rng: &mut Rng, depth: u32) -> Value {
    let leaf = depth == 0;
    match rng.below(if leaf { 5 } else { 8 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => json!(rng.next() as i64 % 1000 - 500),
        3 => json!((rng.next() % 10_000) as f64 / 7.0),
        4 => json!(rng.pick(STRINGS)),
        5 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        _ => {
            let mut m = serde_json::Map::new();
            for _ in 0..rng.below(6) {
                m.insert(rng.pick(KEYS).to_string(), random_value(rng, depth - 1));
            }
            Value::Object(m)
        }
    }
}

fn templates() -> Vec<Value> {
    vec![
        json!({"op":"create","kind":"todo","title":"A","scheduledFor":"2026-11-22","recurrence":{"type":"none"}}),
        json!({"op":"create","kind":"event","title":"B","scheduledFor":"2026-11-22","timeOfDay":"09:00","endTime":"10:00"}),
        json!({"op":"create","kind":"habit","title":"C","recurrence":{"type":"weekly","weekdays":["mon"],"interval":2,"until":"2027-01-01"}}),
        json!({"op":"update","kind":"todo","id":"t2","title":"D"}),
        json!({"op":"update","kind":"habit","id":"h2","recurrence":{"type":"monthly"}}),
        json!({"op":"delete","kind":"event","id":"e1"}),
        json!({"op":"complete","kind":"todo","id":"t1"}),
        json!({"op":"complete","kind":"habit","id":"h1"}),
        json!({"op":"complete_occurrence","kind":"habit","id":"h2","occurrenceDate":"2026-11-19"}),
        json!({"op":"goal_create","kind":"goal","title":"E","items":[{"kind":"todo","id":"t1"}],"children":["g2"]}),
        json!({"op":"goal_add_items","kind":"goal","id":"g1","items":[{"kind":"habit","id":"h1"}]}),
        json!({"op":"goal_remove_item","kind":"goal","id":"g1","item":{"kind":"todo","id":"t1"}}),
        json!({"op":"goal_add_child","kind":"goal","id":"g1","childId":"g2"}),
        json!({"op":"goal_remove_child","kind":"goal","id":"g2","childId":"g1"}),
    ]
}

fn mutate(rng: &mut Rng, op: &mut Value) {
    let Some(m) = op.as_object_mut() else { return };
    for _ in 0..1 + rng.below(3) {
        let key = rng.pick(KEYS).to_string();
        match rng.below(4) {
            0 => {
                m.remove(&key);
            }
            1 => {
                m.insert(key, json!(rng.pick(STRINGS)));
            }
            2 => {
                let v = random_value(rng, 2);
                m.insert(key, v);
            }
            _ => {
                if let Some(Value::Object(r)) = m.get_mut("recurrence") {
                    let k = rng.pick(KEYS).to_string();
                    r.insert(k, random_value(rng, 1));
                }
            }
        }
    }
}

#[test]
fn random_json_never_panics_and_results_are_consistent() {
    // ASSISTANT_FUZZ_SEED / ASSISTANT_FUZZ_ROUNDS explore further than the default run.
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let mut rng = Rng(env("ASSISTANT_FUZZ_SEED").unwrap_or(0x5EED_0002));
    let rounds = env("ASSISTANT_FUZZ_ROUNDS").unwrap_or(4000);
    let templates = templates();
    for t in &templates {
        let c = check(t.clone());
        assert!(c.valid, "template {t}: {:?}", c.errors);
    }
    let k = known();
    let mut valid_seen = 0;
    let mut invalid_seen = 0;
    for round in 0..rounds {
        let list: Value = if round % 4 == 0 {
            random_value(&mut rng, 4)
        } else {
            let n = rng.below(6);
            Value::Array(
                (0..n)
                    .map(|_| {
                        let mut op = rng.pick(&templates).clone();
                        mutate(&mut rng, &mut op);
                        op
                    })
                    .collect(),
            )
        };
        let Ok(shaped) = shape_operations(&list) else {
            continue;
        };
        for s in &shaped {
            assert!(
                s.operation.is_some() || !s.issues.is_empty(),
                "an unreadable operation has an issue: {list}"
            );
        }
        let _ = referenced_items(&shaped);
        let v = validate(&shaped, &k, today());
        assert_eq!(v.checks.len(), shaped.len());
        assert_eq!((v.valid_count + v.invalid_count) as usize, shaped.len());
        for c in &v.checks {
            if c.valid {
                valid_seen += 1;
                assert!(c.errors.is_empty());
                revalidates(
                    c.operation
                        .as_ref()
                        .expect("a valid check has its operation"),
                );
            } else {
                invalid_seen += 1;
                assert!(!c.errors.is_empty(), "invalid without an issue: {list}");
                for e in &c.errors {
                    assert!(
                        !e.code.is_empty()
                            && e.code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                        "{:?}",
                        e.code
                    );
                }
            }
        }
    }
    assert!(
        valid_seen > 500 && invalid_seen > 500,
        "{valid_seen} valid, {invalid_seen} invalid"
    );
}

#[test]
fn an_item_deleted_earlier_in_the_list_cannot_be_used_later() {
    let v = run(&json!({"operations": [
        {"op": "delete", "kind": "todo", "id": "t1"},
        {"op": "update", "kind": "todo", "id": "t1", "title": "again"},
        {"op": "goal_add_items", "kind": "goal", "id": "g1", "items": [{"kind": "todo", "id": "t1"}]},
        {"op": "update", "kind": "todo", "id": "t4", "title": "other items are fine"},
        {"op": "goal_delete", "kind": "goal", "id": "g1"},
        {"op": "goal_update", "kind": "goal", "id": "g1", "title": "gone"}
    ]}));
    let codes: Vec<Vec<(&str, Option<&str>)>> = v
        .checks
        .iter()
        .map(|c| {
            c.errors
                .iter()
                .map(|e| (e.code.as_str(), e.field.as_deref()))
                .collect()
        })
        .collect();
    assert_eq!(
        codes,
        vec![
            vec![],
            vec![("deleted_earlier", Some("id"))],
            vec![("deleted_earlier", Some("items[0]"))],
            vec![],
            vec![],
            vec![("deleted_earlier", Some("id"))],
        ]
    );
    assert_eq!((v.valid_count, v.invalid_count), (3, 3));
    // A delete that is itself invalid deletes nothing.
    let v = run(&json!([
        {"op": "delete", "kind": "todo", "id": "nope"},
        {"op": "delete", "kind": "todo", "id": "nope"}
    ]));
    assert!(v.checks.iter().all(|c| c.errors[0].code == "unknown_id"));
}
