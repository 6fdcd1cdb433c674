//! Spec 002 dry-run, apply and reads on real SQLite files: every operation end to end with its
//! audit entries, dry-run leaving the file byte-identical, all-or-nothing apply (an invalid
//! operation, an operation failing mid-way, a process killed at random points), idempotency, the
//! 20-operation cap, the week snapshot and the backlog.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use coachcore::assistant::apply::{
    apply, apply_json, audit_log, backlog, dry_run_json, execute, item, open_items, week,
};
use coachcore::assistant::date::Date;
use coachcore::assistant::shape::shape_typed;
use coachcore::assistant::{
    ApplyResult, ItemKind, ItemRef, OpType, PlannerItem, PlannerOperation, Priority, RecurrenceType,
};
use coachcore::db::Store;
use coachcore::kernel::clock::FixedClock;
use coachcore::kernel::error::Error;
use coachcore::kernel::ids::IdGenerator;
use serde_json::{json, Value};

const T0: i64 = 1_795_000_000_000;

fn d(s: &str) -> Date {
    Date::parse(s).unwrap()
}

/// Wednesday 2026-11-18; its week is Monday 2026-11-16 to Sunday 2026-11-22.
fn today() -> Date {
    d("2026-11-18")
}

struct Env {
    _dir: tempfile::TempDir,
    path: PathBuf,
    store: Store,
    clock: FixedClock,
    ids: IdGenerator,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("planner.db");
        Env {
            store: Store::open(&path).unwrap(),
            path,
            _dir: dir,
            clock: FixedClock::new(T0),
            ids: IdGenerator::seeded(42),
        }
    }

    fn apply(
        &mut self,
        ops: Value,
        key: Option<&str>,
    ) -> coachcore::kernel::error::Result<ApplyResult> {
        self.clock.advance_ms(1_000);
        apply_json(
            &self.store,
            &self.clock,
            &mut self.ids,
            &ops.to_string(),
            key,
            today(),
        )
    }

    fn ok(&mut self, ops: Value) -> ApplyResult {
        self.apply(ops, None).unwrap()
    }

    /// Creates one item and returns its id.
    fn create(&mut self, op: Value) -> String {
        self.ok(json!([op])).applied[0].id.clone()
    }

    fn get(&self, kind: ItemKind, id: &str) -> PlannerItem {
        item(&self.store, kind, id).unwrap().unwrap()
    }
}

/// Every row of every table (and the schema version), sorted: equal dumps mean equal contents.
fn dump(path: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut out = vec![format!(
        "user_version {}",
        conn.pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0))
            .unwrap()
    )];
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    for t in tables {
        let mut st = conn.prepare(&format!("SELECT * FROM \"{t}\"")).unwrap();
        let n = st.column_count();
        let mut rows: Vec<String> = st
            .query_map([], |r| {
                Ok((0..n)
                    .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                    .collect::<Vec<_>>()
                    .join("|"))
            })
            .unwrap()
            .map(|r| format!("{t}: {}", r.unwrap()))
            .collect();
        rows.sort();
        out.extend(rows);
    }
    out
}

fn count(path: &Path, sql: &str) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

fn parse_item(json: &Option<String>) -> PlannerItem {
    serde_json::from_str(json.as_deref().expect("item JSON")).unwrap()
}

#[test]
fn create_update_complete_delete_end_to_end_with_audit() {
    let mut env = Env::new();
    let r = env.ok(json!({"operations": [
        {"op": "create", "kind": "todo", "title": "Buy milk", "priority": "HIGH"},
        {"op": "create", "kind": "todo", "title": "File taxes", "scheduledFor": "2026-11-19",
         "timeOfDay": "09:30", "recurrence": {"type": "none"}},
        {"op": "create", "kind": "event", "title": "Dentist", "scheduledFor": "2026-11-20",
         "timeOfDay": "14:00", "endTime": "15:00", "notes": "bring card"},
        {"op": "create", "kind": "habit", "title": "Stretch", "scheduledFor": "2026-11-16",
         "recurrence": {"type": "daily"}}
    ]}));
    assert!(!r.replayed);
    assert_eq!(r.applied.len(), 4);
    let kinds: Vec<_> = r.applied.iter().map(|a| (a.index, a.op, a.kind)).collect();
    assert_eq!(
        kinds,
        vec![
            (0, OpType::Create, ItemKind::Todo),
            (1, OpType::Create, ItemKind::Todo),
            (2, OpType::Create, ItemKind::Event),
            (3, OpType::Create, ItemKind::Habit),
        ]
    );
    assert!(
        r.repairs.iter().any(|x| x.starts_with("0: ")),
        "the missing recurrence of op 0 was repaired: {:?}",
        r.repairs
    );
    let (milk, taxes, dentist, stretch) = (
        r.applied[0].id.clone(),
        r.applied[1].id.clone(),
        r.applied[2].id.clone(),
        r.applied[3].id.clone(),
    );
    let m = env.get(ItemKind::Todo, &milk);
    assert_eq!(m.title, "Buy milk");
    assert_eq!(m.priority, Priority::High);
    assert_eq!(m.scheduled_for, None);
    assert_eq!(m.recurrence.kind, RecurrenceType::None);
    assert_eq!((m.created_ms, m.updated_ms), (T0 + 1_000, T0 + 1_000));
    let e = env.get(ItemKind::Event, &dentist);
    assert_eq!(e.end_time.as_deref(), Some("15:00"));
    assert_eq!(e.notes.as_deref(), Some("bring card"));
    assert!(
        item(&env.store, ItemKind::Todo, &dentist)
            .unwrap()
            .is_none(),
        "kind and id must match"
    );

    // One audit entry per creation, newest first, before absent, after the stored item.
    let log = audit_log(&env.store, 100, None).unwrap();
    assert_eq!(log.len(), 4);
    assert!(log.windows(2).all(|w| w[0].seq > w[1].seq));
    assert!(log.iter().all(|a| a.request_id == r.request_id));
    assert_eq!(log[3].item_id, milk);
    assert_eq!(log[3].before_json, None);
    assert_eq!(parse_item(&log[3].after_json), m);
    assert_eq!(log[0].at_ms, T0 + 1_000);

    // Update changes only the fields given.
    let r2 = env.ok(json!([
        {"op": "update", "kind": "todo", "id": taxes, "title": "File taxes (federal)",
         "priority": "low", "recurrence": {"type": "none"}},
        {"op": "complete", "kind": "todo", "id": milk},
        {"op": "complete_occurrence", "kind": "habit", "id": stretch, "occurrenceDate": "2026-11-17"},
        {"op": "delete", "kind": "event", "id": dentist}
    ]));
    assert_ne!(r2.request_id, r.request_id);
    let t = env.get(ItemKind::Todo, &taxes);
    assert_eq!(t.title, "File taxes (federal)");
    assert_eq!(t.priority, Priority::Low);
    assert_eq!(t.scheduled_for.as_deref(), Some("2026-11-19"));
    assert_eq!(t.time_of_day.as_deref(), Some("09:30"));
    assert_eq!(t.created_ms, T0 + 1_000);
    assert_eq!(t.updated_ms, T0 + 2_000);
    assert!(env.get(ItemKind::Todo, &milk).completed);
    let h = env.get(ItemKind::Habit, &stretch);
    assert!(!h.completed);
    assert_eq!(h.completed_occurrences, vec!["2026-11-17".to_string()]);
    assert!(item(&env.store, ItemKind::Event, &dentist)
        .unwrap()
        .is_none());

    let log = audit_log(&env.store, 4, None).unwrap();
    assert!(log.iter().all(|a| a.request_id == r2.request_id));
    let by_op = |op: OpType| log.iter().find(|a| a.op == op).unwrap();
    let upd = by_op(OpType::Update);
    assert_eq!(parse_item(&upd.before_json).title, "File taxes");
    assert_eq!(parse_item(&upd.after_json), t);
    let done = by_op(OpType::Complete);
    assert!(!parse_item(&done.before_json).completed);
    assert!(parse_item(&done.after_json).completed);
    let occ = by_op(OpType::CompleteOccurrence);
    assert!(parse_item(&occ.before_json)
        .completed_occurrences
        .is_empty());
    assert_eq!(parse_item(&occ.after_json), h);
    let del = by_op(OpType::Delete);
    assert_eq!(parse_item(&del.before_json), e);
    assert_eq!(del.after_json, None);
    assert_eq!(del.kind, ItemKind::Event);

    // Paging: entries below a sequence number.
    let all = audit_log(&env.store, 100, None).unwrap();
    assert_eq!(all.len(), 8);
    let page2 = audit_log(&env.store, 3, Some(all[2].seq)).unwrap();
    assert_eq!(page2, all[3..6].to_vec());
    assert!(audit_log(&env.store, 10, Some(all[7].seq))
        .unwrap()
        .is_empty());
}

/// Checks a goal's audit entry: the goal before, the goal after.
type GoalCheck = dyn Fn(&PlannerItem, &PlannerItem);

#[test]
fn every_goal_operation_end_to_end_with_audit() {
    let mut env = Env::new();
    let run = env.create(json!({"op": "create", "kind": "habit", "title": "Run",
        "scheduledFor": "2026-11-16", "recurrence": {"type": "weekly", "weekdays": ["mon", "thu"]}}));
    let shoes = env.create(json!({"op": "create", "kind": "todo", "title": "Buy shoes"}));
    let race = env.create(json!({"op": "create", "kind": "event", "title": "10k race",
        "scheduledFor": "2026-12-06", "recurrence": {"type": "none"}}));
    let health = env.create(json!({"op": "goal_create", "kind": "goal", "title": "Health"}));

    let r = env.ok(
        json!([{"op": "goal_create", "kind": "goal", "title": "Run a 10k",
        "priority": "high", "notes": "by December",
        "items": [{"kind": "habit", "id": run}, {"kind": "todo", "id": shoes}],
        "children": [health]}]),
    );
    let g = r.applied[0].id.clone();
    assert_eq!(r.applied[0].op, OpType::GoalCreate);
    assert_eq!(r.applied[0].kind, ItemKind::Goal);
    let goal = env.get(ItemKind::Goal, &g);
    assert_eq!(goal.title, "Run a 10k");
    assert_eq!(goal.priority, Priority::High);
    assert_eq!(
        goal.goal_items,
        vec![
            ItemRef {
                kind: ItemKind::Habit,
                id: run.clone()
            },
            ItemRef {
                kind: ItemKind::Todo,
                id: shoes.clone()
            }
        ]
    );
    assert_eq!(goal.child_goals, vec![health.clone()]);
    let created = &audit_log(&env.store, 1, None).unwrap()[0];
    assert_eq!(created.op, OpType::GoalCreate);
    assert_eq!(created.before_json, None);
    assert_eq!(parse_item(&created.after_json), goal);

    // Each goal operation in its own apply, checking the audit entry's before and after.
    let steps: Vec<(Value, Box<GoalCheck>)> = vec![
        (
            json!({"op": "goal_update", "kind": "goal", "id": g, "title": "Run a half marathon"}),
            Box::new(|b, a| {
                assert_eq!(b.title, "Run a 10k");
                assert_eq!(a.title, "Run a half marathon");
                assert_eq!(a.priority, Priority::High, "untouched fields stay");
                assert_eq!(a.notes.as_deref(), Some("by December"));
            }),
        ),
        (
            json!({"op": "goal_add_items", "kind": "goal", "id": g,
                   "items": [{"kind": "event", "id": race}]}),
            Box::new(|b, a| {
                assert_eq!(b.goal_items.len(), 2);
                assert_eq!(a.goal_items.len(), 3);
                assert_eq!(a.goal_items[2].kind, ItemKind::Event);
            }),
        ),
        (
            json!({"op": "goal_remove_item", "kind": "goal", "id": g,
                   "item": {"kind": "todo", "id": shoes}}),
            Box::new(|b, a| {
                assert_eq!(b.goal_items.len(), 3);
                assert_eq!(a.goal_items.len(), 2);
                assert!(a.goal_items.iter().all(|i| i.kind != ItemKind::Todo));
            }),
        ),
        (
            json!({"op": "goal_remove_child", "kind": "goal", "id": g, "childId": health}),
            Box::new(|b, a| {
                assert_eq!(b.child_goals.len(), 1);
                assert!(a.child_goals.is_empty());
            }),
        ),
        (
            json!({"op": "goal_add_child", "kind": "goal", "id": g, "childId": health}),
            Box::new(|b, a| {
                assert!(b.child_goals.is_empty());
                assert_eq!(a.child_goals.len(), 1);
            }),
        ),
    ];
    for (op, check) in steps {
        let name = op["op"].as_str().unwrap().to_string();
        let r = env.ok(json!([op]));
        assert_eq!(r.applied[0].id, g);
        let entry = &audit_log(&env.store, 1, None).unwrap()[0];
        assert_eq!(entry.op.as_str(), name);
        assert_eq!(entry.item_id, g);
        assert_eq!(entry.request_id, r.request_id);
        let (b, a) = (
            parse_item(&entry.before_json),
            parse_item(&entry.after_json),
        );
        check(&b, &a);
        assert_eq!(
            a,
            env.get(ItemKind::Goal, &g),
            "{name}: after is the stored goal"
        );
    }

    // Deleting a linked item unlinks it; deleting the goal keeps its items and child goals.
    env.ok(json!([{"op": "delete", "kind": "event", "id": race}]));
    assert_eq!(env.get(ItemKind::Goal, &g).goal_items.len(), 1);
    let r = env.ok(json!([{"op": "goal_delete", "kind": "goal", "id": g}]));
    assert_eq!(r.applied[0].op, OpType::GoalDelete);
    assert!(item(&env.store, ItemKind::Goal, &g).unwrap().is_none());
    env.get(ItemKind::Goal, &health);
    env.get(ItemKind::Habit, &run);
    let entry = &audit_log(&env.store, 1, None).unwrap()[0];
    assert_eq!(entry.after_json, None);
    assert_eq!(parse_item(&entry.before_json).child_goals, vec![health]);
    assert_eq!(count(&env.path, "SELECT count(*) FROM goal_items"), 0);
    assert_eq!(count(&env.path, "SELECT count(*) FROM goal_children"), 0);
}

#[test]
fn dry_run_leaves_the_database_byte_identical() {
    let mut env = Env::new();
    let todo = env.create(json!({"op": "create", "kind": "todo", "title": "Call mom"}));
    let habit = env.create(json!({"op": "create", "kind": "habit", "title": "Read",
        "scheduledFor": "2026-11-01", "recurrence": {"type": "daily"}}));
    env.ok(json!([{"op": "create", "kind": "todo", "title": "Keyed"}]));
    // Empty the WAL into the main file, through a second connection.
    let side = rusqlite::Connection::open(&env.path).unwrap();
    side.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
        assert_eq!(r.get::<_, i64>(0)?, 0, "checkpoint not blocked");
        Ok(())
    })
    .unwrap();
    let wal = env.path.with_extension("db-wal");
    let db_path = env.path.clone();
    let files = move || {
        (
            std::fs::read(&db_path).unwrap(),
            std::fs::read(&wal).unwrap(),
        )
    };
    let before = files();
    assert!(before.1.is_empty(), "WAL truncated");
    let dump_before = dump(&env.path);

    let lists = [
        json!({"operations": [
            {"op": "create", "kind": "todo", "title": "New"},
            {"op": "update", "kind": "todo", "id": todo, "title": "Call mom tonight"},
            {"op": "complete", "kind": "habit", "id": habit},
            {"op": "complete_occurrence", "kind": "habit", "id": habit, "occurrenceDate": "2026-11-02"},
            {"op": "goal_create", "kind": "goal", "title": "G", "items": [{"kind": "todo", "id": todo}]},
            {"op": "delete", "kind": "todo", "id": todo}
        ]}),
        json!([{"op": "delete", "kind": "todo", "id": "missing"}, {"kind": "nonsense"}]),
        json!((0..25)
            .map(|i| json!({"op": "create", "kind": "todo", "title": format!("t{i}")}))
            .collect::<Vec<_>>()),
    ];
    for l in &lists {
        let v = dry_run_json(&env.store, &l.to_string(), today()).unwrap();
        // More than 20 are counted, not shaped: no checks, the list error only.
        let want = match l.as_array() {
            Some(a) if a.len() > 20 => 0,
            Some(a) => a.len(),
            None => 6,
        };
        assert_eq!(v.checks.len(), want);
    }
    let v = dry_run_json(&env.store, &lists[0].to_string(), today()).unwrap();
    assert!(v.all_valid(), "{v:?}");
    assert!(v.checks[2]
        .repairs
        .iter()
        .any(|r| r.contains("complete_occurrence")));
    assert!(dry_run_json(&env.store, "{\"nothing\": 1}", today()).is_err());

    assert!(
        files() == before,
        "dry-run changed the database or WAL bytes"
    );
    assert_eq!(dump(&env.path), dump_before);

    // The same comparison does see a write: apply the first list for real.
    env.ok(lists[0].clone());
    assert!(files() != before, "an apply changes the files");
    drop(side);
}

#[test]
fn an_invalid_operation_in_the_middle_rejects_the_whole_list() {
    let mut env = Env::new();
    let todo = env.create(json!({"op": "create", "kind": "todo", "title": "Keep me"}));
    let before = dump(&env.path);
    let err = env
        .apply(
            json!([
                {"op": "create", "kind": "todo", "title": "A"},
                {"op": "update", "kind": "todo", "id": todo, "title": "Changed"},
                {"op": "create", "kind": "habit", "title": "No rule", "recurrence": {"type": "none"}},
                {"op": "delete", "kind": "todo", "id": "no-such-id"},
                {"op": "create", "kind": "todo", "title": "B"}
            ]),
            Some("k1"),
        )
        .unwrap_err();
    match err {
        Error::OperationsRejected {
            invalid,
            total,
            detail,
        } => {
            assert_eq!((invalid, total), (2, 5));
            assert!(detail.contains("2: ") && detail.contains("3: "), "{detail}");
        }
        other => panic!("expected OperationsRejected, got {other:?}"),
    }
    assert_eq!(dump(&env.path), before, "nothing written, not even the key");
    // The key was not used up by the rejected request.
    let ok = env
        .apply(
            json!([{"op": "create", "kind": "todo", "title": "A"}]),
            Some("k1"),
        )
        .unwrap();
    assert!(!ok.replayed);
}

#[test]
fn an_operation_failing_mid_way_rolls_back_everything() {
    let mut env = Env::new();
    let todo = env.create(json!({"op": "create", "kind": "todo", "title": "Victim"}));
    let g1 = env.create(json!({"op": "goal_create", "kind": "goal", "title": "G1"}));
    let g2 = env.create(json!({"op": "goal_create", "kind": "goal", "title": "G2"}));
    let before = dump(&env.path);

    // Validation sees that the update names an item the delete before it removes: rejected, with
    // nothing written (the executor alone would fail on it mid-way: see the end of this test).
    let err = env
        .apply(
            json!([
                {"op": "create", "kind": "todo", "title": "Fresh"},
                {"op": "delete", "kind": "todo", "id": todo},
                {"op": "update", "kind": "todo", "id": todo, "title": "Too late"},
                {"op": "create", "kind": "todo", "title": "Never"}
            ]),
            Some("race"),
        )
        .unwrap_err();
    match &err {
        Error::OperationsRejected {
            invalid: 1,
            total: 4,
            detail,
        } => {
            assert_eq!(detail, "2: id: deleted_earlier")
        }
        other => panic!("expected OperationsRejected, got {other:?}"),
    }
    assert_eq!(dump(&env.path), before);

    // Two links that are each fine but together make a cycle: the second one fails.
    let err = env
        .apply(
            json!([
                {"op": "goal_add_child", "kind": "goal", "id": g1, "childId": g2},
                {"op": "goal_update", "kind": "goal", "id": g2, "title": "G2'"},
                {"op": "goal_add_child", "kind": "goal", "id": g2, "childId": g1}
            ]),
            None,
        )
        .unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    assert_eq!(dump(&env.path), before);

    // The executor directly, with a constraint failure (a goal link to an item that does not
    // exist) after good operations.
    let mut good = PlannerOperation::new(OpType::Create, ItemKind::Todo);
    good.title = Some("good".into());
    let mut upd = PlannerOperation::new(OpType::Update, ItemKind::Todo);
    upd.id = Some(todo.clone());
    upd.title = Some("renamed".into());
    let mut bad = PlannerOperation::new(OpType::GoalAddItems, ItemKind::Goal);
    bad.id = Some(g1.clone());
    bad.items = vec![ItemRef {
        kind: ItemKind::Habit,
        id: todo.clone(), // a todo's id under the wrong kind: the composite foreign key refuses it
    }];
    let ops = vec![good.clone(), upd, good, bad];
    let mut ids = IdGenerator::seeded(9);
    let err = env
        .store
        .write(|db| execute(db, &mut ids, &ops, "req", T0))
        .unwrap_err();
    assert!(matches!(err, Error::Sqlite(_)), "{err:?}");
    assert_eq!(dump(&env.path), before);
    // Without the bad operation the same executor call commits.
    let applied = env
        .store
        .write(|db| execute(db, &mut ids, &ops[..3], "req", T0))
        .unwrap();
    assert_eq!(applied.len(), 3);
    let after_three = dump(&env.path);
    // The executor on a delete then an update of the same item fails at the update and keeps
    // nothing of the call.
    let mut del = PlannerOperation::new(OpType::Delete, ItemKind::Todo);
    del.id = Some(todo.clone());
    let mut late = PlannerOperation::new(OpType::Update, ItemKind::Todo);
    late.id = Some(todo.clone());
    late.title = Some("too late".into());
    let err = env
        .store
        .write(|db| execute(db, &mut ids, &[del, late], "req2", T0))
        .unwrap_err();
    assert!(matches!(err, Error::NotFound(_)), "{err:?}");
    assert_eq!(dump(&env.path), after_three);
    assert_eq!(env.get(ItemKind::Todo, &todo).title, "renamed");
    assert_eq!(
        count(
            &env.path,
            "SELECT count(*) FROM assistant_audit WHERE request_id = 'req'"
        ),
        3
    );
}

#[test]
fn idempotent_replay_and_conflict() {
    let mut env = Env::new();
    let ops = json!([
        {"op": "create", "kind": "todo", "title": "Once"},
        {"op": "create", "kind": "event", "title": "Party", "scheduledFor": "2026-11-21"}
    ]);
    let first = env.apply(ops.clone(), Some("key-1")).unwrap();
    assert!(!first.replayed);
    let after_first = dump(&env.path);
    let again = env.apply(ops.clone(), Some("key-1")).unwrap();
    assert!(again.replayed);
    assert_eq!(
        ApplyResult {
            replayed: false,
            ..again.clone()
        },
        first
    );
    assert_eq!(dump(&env.path), after_first, "a replay writes nothing");
    // The same request in another spelling (op inferred, other key order) is the same request.
    let respelled = json!({"operations": [
        {"title": "Once", "kind": "todo"},
        {"scheduledFor": "2026-11-21", "title": "Party", "kind": "event", "op": "create"}
    ]});
    assert!(env.apply(respelled, Some("key-1")).unwrap().replayed);

    let other = json!([{"op": "create", "kind": "todo", "title": "Twice"}]);
    assert!(matches!(
        env.apply(other.clone(), Some("key-1")),
        Err(Error::IdempotencyConflict)
    ));
    assert_eq!(dump(&env.path), after_first);
    // Another key applies again; no key always applies.
    assert!(!env.apply(ops.clone(), Some("key-2")).unwrap().replayed);
    assert!(!env.apply(ops, None).unwrap().replayed);
    assert_eq!(
        count(
            &env.path,
            "SELECT count(*) FROM planner_items WHERE title = 'Once'"
        ),
        3
    );
    assert_eq!(
        count(&env.path, "SELECT count(*) FROM assistant_idempotency"),
        2
    );
    // Typed operations hash like their JSON.
    let mut op = PlannerOperation::new(OpType::Create, ItemKind::Todo);
    op.title = Some("Twice".into());
    let r = apply(
        &env.store,
        &env.clock,
        &mut env.ids,
        shape_typed(vec![op]),
        Some("key-3"),
        today(),
    )
    .unwrap();
    let replay = env.apply(other, Some("key-3")).unwrap();
    assert!(replay.replayed);
    assert_eq!(replay.request_id, r.request_id);
}

#[test]
fn at_most_twenty_operations() {
    let mut env = Env::new();
    let list = |n: usize| {
        json!((0..n)
            .map(|i| json!({"op": "create", "kind": "todo", "title": format!("t{i}")}))
            .collect::<Vec<_>>())
    };
    let before = dump(&env.path);
    match env.apply(list(21), Some("big")) {
        Err(Error::OperationsRejected { invalid, total, .. }) => {
            assert_eq!((invalid, total), (21, 21))
        }
        other => panic!("expected OperationsRejected, got {other:?}"),
    }
    assert_eq!(dump(&env.path), before);
    let r = env.apply(list(20), Some("big")).unwrap();
    assert_eq!(r.applied.len(), 20);
    assert_eq!(count(&env.path, "SELECT count(*) FROM planner_items"), 20);
    assert_eq!(count(&env.path, "SELECT count(*) FROM assistant_audit"), 20);
    let v = dry_run_json(&env.store, &list(21).to_string(), today()).unwrap();
    assert_eq!(v.errors[0].code, "too_many_operations");
}

#[test]
fn bad_json_is_an_invalid_argument() {
    let mut env = Env::new();
    for text in ["", "not json", "{\"ops\": []}", "42"] {
        assert!(
            matches!(
                apply_json(&env.store, &env.clock, &mut env.ids, text, None, today()),
                Err(Error::InvalidArgument(_))
            ),
            "{text:?}"
        );
        assert!(matches!(
            dry_run_json(&env.store, text, today()),
            Err(Error::InvalidArgument(_))
        ));
    }
}

#[test]
fn week_snapshot_expands_repeating_items_minus_completed_occurrences() {
    let mut env = Env::new();
    let c = |env: &mut Env, v: Value| env.create(v);
    // One-off items on both sides of the week's edges.
    let sun_before = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "Sunday before", "scheduledFor": "2026-11-15"}),
    );
    let mon = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "Monday todo", "scheduledFor": "2026-11-16"}),
    );
    let sun = c(
        &mut env,
        json!({"op": "create", "kind": "event", "title": "Sunday brunch", "scheduledFor": "2026-11-22", "timeOfDay": "11:00"}),
    );
    let _next_mon = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "Next Monday", "scheduledFor": "2026-11-23"}),
    );
    let done = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "Done already", "scheduledFor": "2026-11-18"}),
    );
    env.ok(json!([{"op": "complete", "kind": "todo", "id": done}]));
    let _backlog = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "Someday"}),
    );
    let _goal = c(
        &mut env,
        json!({"op": "goal_create", "kind": "goal", "title": "A goal"}),
    );
    // Wednesday: ordering by time (untimed last), then priority, then title.
    let w_late = c(
        &mut env,
        json!({"op": "create", "kind": "event", "title": "Late", "scheduledFor": "2026-11-18", "timeOfDay": "18:00", "endTime": "19:00"}),
    );
    let w_early = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "Early", "scheduledFor": "2026-11-18", "timeOfDay": "07:15"}),
    );
    let w_low = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "A low", "scheduledFor": "2026-11-18", "priority": "low"}),
    );
    let w_high_b = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "B high", "scheduledFor": "2026-11-18", "priority": "high"}),
    );
    let w_high_a = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "A high", "scheduledFor": "2026-11-18", "priority": "high"}),
    );
    // Repeating: a daily habit anchored the week before, completed on the previous Sunday (outside)
    // and on this Monday and Saturday (inside).
    let daily = c(
        &mut env,
        json!({"op": "create", "kind": "habit", "title": "Meditate", "scheduledFor": "2026-11-10", "timeOfDay": "06:30", "recurrence": {"type": "daily"}}),
    );
    env.ok(json!([
        {"op": "complete_occurrence", "kind": "habit", "id": daily, "occurrenceDate": "2026-11-15"},
        {"op": "complete_occurrence", "kind": "habit", "id": daily, "occurrenceDate": "2026-11-16"},
        {"op": "complete_occurrence", "kind": "habit", "id": daily, "occurrenceDate": "2026-11-21"}
    ]));
    // Weekly Tue/Sun every 2 weeks, anchored two weeks earlier: in this week.
    let gym = c(
        &mut env,
        json!({"op": "create", "kind": "habit", "title": "Gym", "scheduledFor": "2026-11-03", "recurrence": {"type": "weekly", "interval": 2, "weekdays": ["tue", "sun"]}}),
    );
    // Every other week, anchored the previous week: not in this week.
    let _off_week = c(
        &mut env,
        json!({"op": "create", "kind": "habit", "title": "Off week", "scheduledFor": "2026-11-09", "recurrence": {"type": "weekly", "interval": 2}}),
    );
    // Ends on Wednesday.
    let ending = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "Pills", "scheduledFor": "2026-11-01", "recurrence": {"type": "daily", "until": "2026-11-18"}}),
    );
    // Starts on Friday.
    let starting = c(
        &mut env,
        json!({"op": "create", "kind": "event", "title": "Standup", "scheduledFor": "2026-11-20", "timeOfDay": "09:00", "recurrence": {"type": "daily"}}),
    );
    // Monthly on the 19th, and one on the 31st (no occurrence this week).
    let monthly = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "Pay rent", "scheduledFor": "2026-01-19", "recurrence": {"type": "monthly"}}),
    );
    let _m31 = c(
        &mut env,
        json!({"op": "create", "kind": "todo", "title": "Month end", "scheduledFor": "2026-01-31", "recurrence": {"type": "monthly"}}),
    );
    // Anchored after the week.
    let _future = c(
        &mut env,
        json!({"op": "create", "kind": "habit", "title": "Future", "scheduledFor": "2026-11-23", "recurrence": {"type": "daily"}}),
    );

    for probe in ["2026-11-16", "2026-11-18", "2026-11-22"] {
        let w = week(&env.store, d(probe)).unwrap();
        assert_eq!(
            (w.week_start.as_str(), w.week_end.as_str()),
            ("2026-11-16", "2026-11-22")
        );
        let got: Vec<(String, String)> = w
            .entries
            .iter()
            .map(|e| (e.date.clone(), e.item.id.clone()))
            .collect();
        let e = |date: &str, id: &String| (date.to_string(), id.clone());
        let want = vec![
            // Monday: the daily habit is done; untimed items by title.
            e("2026-11-16", &mon),
            e("2026-11-16", &ending),
            e("2026-11-17", &daily),
            e("2026-11-17", &gym),
            e("2026-11-17", &ending),
            e("2026-11-18", &daily),
            e("2026-11-18", &w_early),
            e("2026-11-18", &w_late),
            e("2026-11-18", &w_high_a),
            e("2026-11-18", &w_high_b),
            e("2026-11-18", &ending),
            e("2026-11-18", &w_low),
            e("2026-11-19", &daily),
            e("2026-11-19", &monthly),
            e("2026-11-20", &daily),
            e("2026-11-20", &starting),
            e("2026-11-21", &starting),
            e("2026-11-22", &daily),
            e("2026-11-22", &starting),
            e("2026-11-22", &sun),
            e("2026-11-22", &gym),
        ];
        let titles = |v: &[(String, String)]| -> Vec<String> {
            v.iter()
                .map(|(dt, id)| {
                    let t = w
                        .entries
                        .iter()
                        .find(|x| &x.item.id == id)
                        .map_or("?".to_string(), |x| x.item.title.clone());
                    format!("{dt} {t}")
                })
                .collect()
        };
        assert_eq!(titles(&got), titles(&want));
        assert_eq!(got, want);
        assert!(!got.iter().any(|(_, id)| id == &sun_before || id == &done));
        // Entries carry the item; a repeating item's completed occurrences are this week's.
        let m = w.entries.iter().find(|x| x.item.id == daily).unwrap();
        assert_eq!(
            m.item.completed_occurrences,
            vec!["2026-11-16".to_string(), "2026-11-21".to_string()]
        );
        assert_eq!(m.item.recurrence.kind, RecurrenceType::Daily);
    }
    // The full item keeps every completed occurrence.
    assert_eq!(
        env.get(ItemKind::Habit, &daily).completed_occurrences.len(),
        3
    );
    // The next week: Sunday's occurrence boundary, and the item anchored on its Monday.
    let next = week(&env.store, d("2026-11-23")).unwrap();
    assert_eq!(next.week_start, "2026-11-23");
    assert!(next
        .entries
        .iter()
        .any(|e| e.date == "2026-11-23" && e.item.title == "Future"));
    assert!(next
        .entries
        .iter()
        .any(|e| e.date == "2026-11-23" && e.item.title == "Next Monday"));
    assert!(
        !next.entries.iter().any(|e| e.item.title == "Pills"),
        "ended"
    );
    assert!(next
        .entries
        .iter()
        .any(|e| e.date == "2026-11-23" && e.item.title == "Off week"));
}

#[test]
fn backlog_and_open_items_ordering() {
    let mut env = Env::new();
    let mk = |env: &mut Env, title: &str, prio: &str| {
        env.create(json!({"op": "create", "kind": "todo", "title": title, "priority": prio}))
    };
    let low = mk(&mut env, "low", "low");
    let med_old = mk(&mut env, "med old", "medium");
    let high_old = mk(&mut env, "high old", "high");
    let med_new = mk(&mut env, "med new", "medium");
    let high_new = mk(&mut env, "high new", "high");
    let done = mk(&mut env, "done", "high");
    env.ok(json!([{"op": "complete", "kind": "todo", "id": done}]));
    let _dated = env.create(json!({"op": "create", "kind": "todo", "title": "dated", "scheduledFor": "2026-11-20", "priority": "high"}));
    let _event = env.create(
        json!({"op": "create", "kind": "event", "title": "event", "scheduledFor": "2026-11-20"}),
    );
    // Touching the old medium one makes it the most recently changed medium.
    env.ok(json!([{"op": "update", "kind": "todo", "id": med_old, "notes": "touched"}]));

    let ids: Vec<String> = backlog(&env.store, 10)
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    assert_eq!(
        ids,
        vec![high_new.clone(), high_old, med_old.clone(), med_new, low]
    );
    assert_eq!(backlog(&env.store, 2).unwrap().len(), 2);

    let open = open_items(&env.store, 100).unwrap();
    assert_eq!(open.len(), 7, "everything but the completed todo");
    assert_eq!(open[0].id, med_old, "most recently changed first");
    assert!(open.windows(2).all(|w| w[0].updated_ms >= w[1].updated_ms));
    assert!(!open.iter().any(|i| i.id == done));
}

// --- The crash test: a child process applying batches, killed at random points. ---

const BATCH: usize = 20;
const CHILD_READY: &str = "crash-child-ready";

/// The child: applies 20-operation batches with known titles to `COACH_CRASH_DB` until killed.
/// Run only by `a_killed_apply_leaves_all_or_nothing`.
#[test]
#[ignore = "child process of the crash test"]
fn crash_child_loop() {
    let (Ok(path), Ok(run)) = (
        std::env::var("COACH_CRASH_DB"),
        std::env::var("COACH_CRASH_RUN"),
    ) else {
        return;
    };
    let store = Store::open(&path).unwrap();
    let clock = FixedClock::new(T0);
    let mut ids = IdGenerator::from_entropy();
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{CHILD_READY}").unwrap();
        out.flush().unwrap();
    }
    let kinds = ["todo", "event", "habit"];
    // Bounded, so that a parent that missed the ready line fails instead of waiting forever.
    for b in 0..2_000 {
        let ops: Vec<Value> = (0..BATCH)
            .map(|i| {
                let kind = kinds[i % 3];
                let mut op = json!({"op": "create", "kind": kind,
                    "title": format!("r{run}-b{b}-i{i}"), "scheduledFor": "2026-11-18",
                    "notes": "x".repeat(200 + i * 50)});
                if kind == "habit" {
                    op["recurrence"] = json!({"type": "daily"});
                }
                op
            })
            .collect();
        clock.advance_ms(1);
        apply_json(
            &store,
            &clock,
            &mut ids,
            &Value::Array(ops).to_string(),
            Some(&format!("r{run}-b{b}")),
            today(),
        )
        .unwrap();
    }
}

#[test]
fn a_killed_apply_leaves_all_or_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crash.db");
    drop(Store::open(&path).unwrap());
    let exe = std::env::current_exe().unwrap();
    let (seed, mut rand) = crate::common::clock_seeded_rand();
    eprintln!("crash test seed {seed}");
    const RUNS: usize = 36;
    let started = Instant::now();
    for run in 0..RUNS {
        let mut child = Command::new(&exe)
            .args([
                "assistant_apply::crash_child_loop",
                "--exact",
                "--ignored",
                "--test-threads=1",
                "--nocapture",
            ])
            .env("COACH_CRASH_DB", &path)
            .env("COACH_CRASH_RUN", run.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait until the child has opened the database and starts applying, then kill it at a
        // random point of its loop (a batch takes a few ms).
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        loop {
            match lines.next() {
                Some(Ok(l)) if l.ends_with(CHILD_READY) => break,
                Some(Ok(_)) => {}
                _ => panic!("run {run}: the child exited before it was ready"),
            }
        }
        std::thread::sleep(Duration::from_micros(rand(60_000)));
        child.kill().unwrap(); // SIGKILL
        let status = child.wait().unwrap();
        assert!(
            !status.success(),
            "run {run}: the child must be killed, not finish"
        );
    }

    let store = Store::open(&path).unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let fk: i64 = conn
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(fk, 0);

    // Items per batch: 0 or 20, and for each run the present batches are 0..k.
    let mut per_batch = std::collections::BTreeMap::<(usize, usize), usize>::new();
    let titles: Vec<String> = conn
        .prepare("SELECT title FROM planner_items")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    for t in &titles {
        let parts: Vec<&str> = t.split('-').collect();
        let run: usize = parts[0][1..].parse().unwrap();
        let b: usize = parts[1][1..].parse().unwrap();
        *per_batch.entry((run, b)).or_default() += 1;
    }
    for (&(run, b), &n) in &per_batch {
        assert_eq!(n, BATCH, "run {run} batch {b}: {n} of {BATCH} items");
        if b > 0 {
            assert!(
                per_batch.contains_key(&(run, b - 1)),
                "run {run}: batch {b} without {}",
                b - 1
            );
        }
    }
    let batches = per_batch.len();
    // Audit rows: 20 per request, one request per present batch, each naming a present item.
    let per_request: Vec<i64> = conn
        .prepare("SELECT count(*) FROM assistant_audit GROUP BY request_id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(per_request.len(), batches);
    assert!(per_request.iter().all(|&n| n == BATCH as i64));
    let orphans: i64 = conn
        .query_row(
            "SELECT count(*) FROM assistant_audit a LEFT JOIN planner_items p ON p.id = a.item_id
             WHERE p.id IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0);
    // Idempotency keys: exactly the present batches, each response naming its 20 items.
    let keys: Vec<(String, String)> = conn
        .prepare("SELECT key, response_json FROM assistant_idempotency")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(keys.len(), batches);
    for (key, response) in &keys {
        let r: ApplyResult = serde_json::from_str(response).unwrap();
        let mut parts = key.split('-');
        let run: usize = parts.next().unwrap()[1..].parse().unwrap();
        let b: usize = parts.next().unwrap()[1..].parse().unwrap();
        assert!(
            per_batch.contains_key(&(run, b)),
            "key {key} without its items"
        );
        assert_eq!(r.applied.len(), BATCH);
        for a in &r.applied {
            assert!(item(&store, a.kind, &a.id).unwrap().is_some());
        }
    }
    let killed_mid_run = (0..RUNS)
        .filter(|run| per_batch.keys().any(|(r, _)| r == run))
        .count();
    eprintln!(
        "crash test: {RUNS} kills, {batches} complete batches, {killed_mid_run} runs applied some, {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(batches > 0, "no child got to apply anything");
    // Still usable: a new apply works on the recovered database.
    let clock = FixedClock::new(T0);
    let r = apply_json(
        &store,
        &clock,
        &mut IdGenerator::seeded(1),
        &json!([{"op": "create", "kind": "todo", "title": "after"}]).to_string(),
        None,
        today(),
    )
    .unwrap();
    assert_eq!(r.applied.len(), 1);
}
