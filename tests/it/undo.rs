//! `undoApplied`: reverting an applied assistant request from the audit log on a real SQLite file.
//! Creations, updates, completions, occurrence completions, deletions (with the goal links the
//! database dropped) and goal links come back exactly as they were; a later change is a typed
//! conflict naming the item, and the file is unchanged; an unknown request id and a second undo
//! are refused; the CLI's `coach ops undo`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use coachcore::assistant::{ApplyResult, ItemKind, OpType, PlannerItem};
use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::{Coach, CoachError};
use serde_json::{json, Value};

use crate::common::run_coach;
use crate::data_export::dump;

const T0: i64 = 1_795_000_000_000;

struct Env {
    _dir: tempfile::TempDir,
    path: PathBuf,
    coach: Coach,
    clock: Arc<FixedClock>,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("undo.db");
        let clock = Arc::new(FixedClock::new(T0));
        let coach = Coach::with_store(Store::open(&path).unwrap(), clock.clone());
        Env {
            _dir: dir,
            path,
            coach,
            clock,
        }
    }

    fn apply(&self, ops: Value) -> ApplyResult {
        self.clock.advance_ms(60_000);
        self.coach
            .planner()
            .apply_json(
                &json!({ "operations": ops }).to_string(),
                None,
                Some("2026-11-18"),
            )
            .unwrap()
    }

    fn undo(&self, request_id: &str) -> Result<ApplyResult, CoachError> {
        self.clock.advance_ms(60_000);
        self.coach.planner().undo(request_id)
    }

    fn item(&self, kind: ItemKind, id: &str) -> Option<PlannerItem> {
        self.coach.planner().item(kind, id.into()).unwrap()
    }

    /// Every item the ids name, as read now.
    fn items(&self, ids: &[(ItemKind, &str)]) -> Vec<Option<PlannerItem>> {
        ids.iter().map(|(k, id)| self.item(*k, id)).collect()
    }
}

fn path_str(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn creations_are_deleted_and_the_undo_is_logged() {
    let env = Env::new();
    let r = env.apply(json!([
        {"op": "create", "kind": "todo", "title": "Buy chalk"},
        {"op": "create", "kind": "habit", "title": "Stretch", "scheduledFor": "2026-11-16", "recurrence": {"type": "daily"}},
    ]));
    let (todo, habit) = (r.applied[0].id.clone(), r.applied[1].id.clone());
    let g = env.apply(
        json!([{"op": "goal_create", "kind": "goal", "title": "Mobility",
        "items": [{"kind": "habit", "id": habit}]}]),
    );
    // The goal first (it links the habit), then the items.
    let undone = env.undo(&g.request_id).unwrap();
    assert_eq!(undone.request_id, format!("undo:{}", g.request_id));
    assert_eq!(undone.applied.len(), 1);
    assert_eq!(undone.applied[0].op, OpType::GoalDelete);
    assert!(env.item(ItemKind::Goal, &g.applied[0].id).is_none());
    let undone = env.undo(&r.request_id).unwrap();
    let ops: Vec<OpType> = undone.applied.iter().map(|a| a.op).collect();
    assert_eq!(ops, [OpType::Delete, OpType::Delete]);
    assert!(env.item(ItemKind::Todo, &todo).is_none());
    assert!(env.item(ItemKind::Habit, &habit).is_none());
    // The audit log holds the undo: before = the created item, after = nothing.
    let log = env.coach.planner().audit_log(10, None).unwrap();
    assert_eq!(log[0].request_id, undone.request_id);
    assert!(log[0].before_json.is_some() && log[0].after_json.is_none());
}

#[test]
fn updates_completions_and_deletions_come_back_exactly() {
    let env = Env::new();
    let setup = env.apply(json!([
        {"op": "create", "kind": "todo", "title": "Buy chalk", "priority": "high"},
        {"op": "create", "kind": "todo", "title": "Book physio"},
        {"op": "create", "kind": "event", "title": "Gym", "scheduledFor": "2026-11-19", "timeOfDay": "18:00"},
        {"op": "create", "kind": "habit", "title": "Stretch", "scheduledFor": "2026-11-16", "recurrence": {"type": "daily"}},
    ]));
    let id = |i: usize| setup.applied[i].id.clone();
    let (a, b, e, h) = (id(0), id(1), id(2), id(3));
    let goals = env.apply(json!([
        {"op": "goal_create", "kind": "goal", "title": "Get strong",
         "items": [{"kind": "todo", "id": a}, {"kind": "todo", "id": b}, {"kind": "habit", "id": h}]},
        {"op": "goal_create", "kind": "goal", "title": "Bench 225"},
        {"op": "complete_occurrence", "kind": "habit", "id": h, "occurrenceDate": "2026-11-16"},
    ]));
    let (g, g2) = (goals.applied[0].id.clone(), goals.applied[1].id.clone());
    let all = [
        (ItemKind::Todo, a.as_str()),
        (ItemKind::Todo, b.as_str()),
        (ItemKind::Event, e.as_str()),
        (ItemKind::Habit, h.as_str()),
        (ItemKind::Goal, g.as_str()),
        (ItemKind::Goal, g2.as_str()),
    ];
    let before = env.items(&all);
    let file_before = dump(&env.path);

    // One request that does a bit of everything; the todo deleted from the middle of the goal's
    // list must come back in its place.
    let r = env.apply(json!([
        {"op": "update", "kind": "event", "id": e, "title": "Gym (legs)", "timeOfDay": "19:00"},
        {"op": "complete", "kind": "todo", "id": a},
        {"op": "complete_occurrence", "kind": "habit", "id": h, "occurrenceDate": "2026-11-17"},
        {"op": "complete_occurrence", "kind": "habit", "id": h, "occurrenceDate": "2026-11-16", "completed": false},
        {"op": "delete", "kind": "todo", "id": b},
        {"op": "goal_add_child", "kind": "goal", "id": g, "childId": g2},
        {"op": "goal_update", "kind": "goal", "id": g2, "priority": "high"},
        {"op": "create", "kind": "todo", "title": "New shoes"},
    ]));
    let created = r.applied[7].id.clone();
    assert_ne!(env.items(&all), before);
    // The deletion logged the goal that lost its link.
    let log = env.coach.planner().audit_log(20, None).unwrap();
    assert!(log
        .iter()
        .any(|e| e.request_id == r.request_id && e.op == OpType::GoalRemoveItem && e.item_id == g));

    let undone = env.undo(&r.request_id).unwrap();
    assert_eq!(
        env.items(&all),
        before,
        "every item as it was, links and times included"
    );
    assert!(env.item(ItemKind::Todo, &created).is_none());
    assert_eq!(
        env.item(ItemKind::Goal, &g)
            .unwrap()
            .goal_items
            .iter()
            .map(|r| r.id.as_str())
            .collect::<Vec<_>>(),
        [a.as_str(), b.as_str(), h.as_str()]
    );
    // Apart from the audit log (and the restored completion's time), the file is as it was.
    let file_after = dump(&env.path);
    for ((t, rows_before), (_, rows_after)) in file_before.iter().zip(&file_after) {
        if t != "assistant_audit" && t != "planner_completions" {
            assert_eq!(rows_before, rows_after, "{t}");
        }
    }
    let kinds: Vec<OpType> = undone.applied.iter().map(|a| a.op).collect();
    assert!(kinds.contains(&OpType::Create) && kinds.contains(&OpType::Delete));

    // Deleting a goal that is a child and has items, then undoing, restores every link.
    let linked =
        env.apply(json!([{"op": "goal_add_child", "kind": "goal", "id": g, "childId": g2}]));
    let before = env.items(&all);
    let del = env.apply(json!([{"op": "goal_delete", "kind": "goal", "id": g2},
                               {"op": "goal_delete", "kind": "goal", "id": g}]));
    assert!(env.item(ItemKind::Goal, &g).is_none());
    env.undo(&del.request_id).unwrap();
    assert_eq!(env.items(&all), before);
    assert_eq!(
        env.item(ItemKind::Goal, &g).unwrap().child_goals,
        [g2.clone()]
    );
    env.undo(&linked.request_id).unwrap();
    assert!(env.item(ItemKind::Goal, &g).unwrap().child_goals.is_empty());
}

#[test]
fn a_later_change_is_a_conflict_naming_the_item_and_nothing_changes() {
    let env = Env::new();
    let setup = env.apply(json!([
        {"op": "create", "kind": "todo", "title": "Buy chalk"},
        {"op": "create", "kind": "event", "title": "Gym", "scheduledFor": "2026-11-19"},
        {"op": "goal_create", "kind": "goal", "title": "Get strong"},
    ]));
    let (a, e, g) = (
        setup.applied[0].id.clone(),
        setup.applied[1].id.clone(),
        setup.applied[2].id.clone(),
    );
    let r1 = env
        .apply(json!([{"op": "update", "kind": "todo", "id": a, "title": "Buy chalk and tape"}]));
    let r2 = env.apply(json!([{"op": "update", "kind": "todo", "id": a, "priority": "high"}]));
    let file = dump(&env.path);
    match env.undo(&r1.request_id) {
        Err(CoachError::UndoConflict { item_id, detail }) => {
            assert_eq!(item_id.as_deref(), Some(a.as_str()));
            assert_eq!(detail, "the item was changed since");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(dump(&env.path), file, "a refused undo writes nothing");
    // Undo the later request first, then the earlier one goes through.
    env.undo(&r2.request_id).unwrap();
    env.undo(&r1.request_id).unwrap();
    assert_eq!(env.item(ItemKind::Todo, &a).unwrap().title, "Buy chalk");

    // An item deleted since.
    let r3 = env.apply(json!([{"op": "update", "kind": "event", "id": e, "title": "Gym (legs)"}]));
    env.apply(json!([{"op": "delete", "kind": "event", "id": e}]));
    match env.undo(&r3.request_id) {
        Err(CoachError::UndoConflict { item_id, detail }) => {
            assert_eq!(item_id.as_deref(), Some(e.as_str()));
            assert_eq!(detail, "the item was deleted since");
        }
        other => panic!("{other:?}"),
    }

    // A goal that links an item the request created: the goal is named.
    let r4 = env.apply(json!([{"op": "create", "kind": "todo", "title": "Buy shoes"}]));
    let d = r4.applied[0].id.clone();
    env.apply(json!([{"op": "goal_add_items", "kind": "goal", "id": g, "items": [{"kind": "todo", "id": d}]}]));
    match env.undo(&r4.request_id) {
        Err(CoachError::UndoConflict { item_id, detail }) => {
            assert_eq!(item_id.as_deref(), Some(g.as_str()));
            assert!(
                detail.contains("links an item the request created"),
                "{detail}"
            );
            // The public message names the item, never its text.
            let msg = CoachError::UndoConflict { item_id, detail }.to_string();
            assert!(!msg.contains("Buy shoes") && msg.contains(&g), "{msg}");
        }
        other => panic!("{other:?}"),
    }
    assert!(env.item(ItemKind::Todo, &d).is_some());
}

#[test]
fn unknown_requests_and_second_undos_are_refused() {
    let env = Env::new();
    assert!(matches!(
        env.undo("no-such-request"),
        Err(CoachError::NotFound { .. })
    ));
    assert!(matches!(
        env.undo(&"x".repeat(10_000)),
        Err(CoachError::InvalidArgument { .. })
    ));
    let r = env.apply(json!([{"op": "create", "kind": "todo", "title": "Buy chalk"}]));
    let id = r.applied[0].id.clone();
    let undone = env.undo(&r.request_id).unwrap();
    let file = dump(&env.path);
    assert_eq!(
        env.undo(&r.request_id),
        Err(CoachError::UndoConflict {
            item_id: None,
            detail: "the request was undone already".into()
        })
    );
    assert_eq!(dump(&env.path), file);
    // Undoing the undo brings the item back (a redo), as it was.
    env.undo(&undone.request_id).unwrap();
    assert_eq!(env.item(ItemKind::Todo, &id).unwrap().title, "Buy chalk");
}

#[test]
fn the_cli_undoes_by_request_id() {
    let env = Env::new();
    let db = path_str(&env.path);
    let r = env.apply(json!([{"op": "create", "kind": "todo", "title": "Buy chalk"}]));
    drop(env.coach);
    let out = run_coach(&["ops", "undo", "--db", &db, &r.request_id], "", false);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["requestId"], format!("undo:{}", r.request_id));
    let again = run_coach(&["ops", "undo", "--db", &db, &r.request_id], "", false);
    assert_eq!(again.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v["error"]["code"], "undo_conflict", "{v}");
    let unknown = run_coach(&["ops", "undo", "--db", &db, "nope"], "", false);
    assert_eq!(unknown.status.code(), Some(1));
    let usage = run_coach(&["ops", "undo", "--db", &db], "", false);
    assert_eq!(usage.status.code(), Some(64));
}
