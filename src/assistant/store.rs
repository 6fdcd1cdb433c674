//! The planner of spec 002 (todos, events, habits, goals), per-occurrence completions, goal links,
//! the assistant's audit log and apply's idempotency keys. Schema: `migrations/0003_assistant.sql`.
//!
//! Scalar columns only are written by [`Db::insert_planner_item`] and [`Db::update_planner_item`];
//! completions and goal links have their own methods. Reads return full [`PlannerItem`]s.

use std::collections::HashMap;

use rusqlite::{params, OptionalExtension, Row};

use crate::assistant::model::{
    AuditEntry, ItemKind, ItemRef, KnownItem, KnownItems, PlannerItem, Recurrence, Weekday,
};
use crate::db::codec::{from_text, text};
use crate::db::Db;
use crate::kernel::error::Result;

const ITEM_COLUMNS: &str = "kind, id, title, notes, scheduled_for, time_of_day, end_time, \
     priority, recur_type, recur_interval, recur_weekdays, recur_until, completed, created_ms, \
     updated_ms";

/// Weekdays as a bit mask: bit 0 is Monday, bit 6 Sunday.
fn weekday_mask(days: &[Weekday]) -> i64 {
    days.iter().fold(0, |m, d| {
        m | 1 << Weekday::ALL.iter().position(|w| w == d).unwrap_or(0)
    })
}

fn weekdays_of(mask: i64) -> Vec<Weekday> {
    Weekday::ALL
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, d)| *d)
        .collect()
}

fn item_row(r: &Row<'_>) -> rusqlite::Result<PlannerItem> {
    Ok(PlannerItem {
        kind: from_text(&r.get::<_, String>(0)?, 0)?,
        id: r.get(1)?,
        title: r.get(2)?,
        notes: r.get(3)?,
        scheduled_for: r.get(4)?,
        time_of_day: r.get(5)?,
        end_time: r.get(6)?,
        priority: from_text(&r.get::<_, String>(7)?, 7)?,
        recurrence: Recurrence {
            kind: from_text(&r.get::<_, String>(8)?, 8)?,
            interval: r.get(9)?,
            weekdays: weekdays_of(r.get(10)?),
            until: r.get(11)?,
        },
        completed: r.get(12)?,
        completed_occurrences: Vec::new(),
        goal_items: Vec::new(),
        child_goals: Vec::new(),
        created_ms: r.get(13)?,
        updated_ms: r.get(14)?,
    })
}

fn audit_row(r: &Row<'_>) -> rusqlite::Result<AuditEntry> {
    Ok(AuditEntry {
        seq: r.get(0)?,
        request_id: r.get(1)?,
        op: from_text(&r.get::<_, String>(2)?, 2)?,
        kind: from_text(&r.get::<_, String>(3)?, 3)?,
        item_id: r.get(4)?,
        before_json: r.get(5)?,
        after_json: r.get(6)?,
        at_ms: r.get(7)?,
    })
}

impl Db<'_> {
    /// Runs `sql` with the item's scalar columns bound as `?1`..`?15`, in [`ITEM_COLUMNS`] order.
    fn execute_item(&self, sql: &str, it: &PlannerItem) -> Result<usize> {
        let r = &it.recurrence;
        Ok(self.conn.prepare_cached(sql)?.execute(params![
            it.kind.as_str(),
            it.id,
            it.title,
            it.notes,
            it.scheduled_for,
            it.time_of_day,
            it.end_time,
            text(&it.priority),
            text(&r.kind),
            r.interval,
            weekday_mask(&r.weekdays),
            r.until,
            it.completed,
            it.created_ms,
            it.updated_ms,
        ])?)
    }

    /// Inserts an item's scalar columns (not its completions or links). Fails on a duplicate id.
    pub fn insert_planner_item(&self, it: &PlannerItem) -> Result<()> {
        self.execute_item(
            &format!(
                "INSERT INTO planner_items ({ITEM_COLUMNS})
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
            ),
            it,
        )?;
        Ok(())
    }

    /// Writes an existing item's scalar columns (found by kind and id; `created_ms` is kept).
    /// Returns whether the item exists.
    pub fn update_planner_item(&self, it: &PlannerItem) -> Result<bool> {
        // ?14 (created_ms) is bound but not used.
        let n = self.execute_item(
            "UPDATE planner_items SET title = ?3, notes = ?4, scheduled_for = ?5,
                 time_of_day = ?6, end_time = ?7, priority = ?8, recur_type = ?9,
                 recur_interval = ?10, recur_weekdays = ?11, recur_until = ?12,
                 completed = ?13, updated_ms = ?15
             WHERE kind = ?1 AND id = ?2",
            it,
        )?;
        Ok(n == 1)
    }

    /// Sets an item's `updated_ms`. Returns whether the item exists.
    pub fn touch_planner_item(&self, kind: ItemKind, id: &str, at_ms: i64) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached("UPDATE planner_items SET updated_ms = ?3 WHERE kind = ?1 AND id = ?2")?
            .execute(params![kind.as_str(), id, at_ms])?;
        Ok(n == 1)
    }

    /// Deletes an item with its completions and goal links (a deleted goal's child goals are
    /// unlinked, not deleted). Returns whether it existed.
    pub fn delete_planner_item(&self, kind: ItemKind, id: &str) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached("DELETE FROM planner_items WHERE kind = ?1 AND id = ?2")?
            .execute(params![kind.as_str(), id])?;
        Ok(n == 1)
    }

    /// Records a done occurrence of a repeating item. Returns false when it was already recorded.
    pub fn insert_completion(&self, item_id: &str, date: &str, at_ms: i64) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "INSERT INTO planner_completions (item_id, occurrence_date, completed_ms)
                 VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
            )?
            .execute(params![item_id, date, at_ms])?;
        Ok(n == 1)
    }

    /// Removes a done occurrence of a repeating item. Returns false when it was not recorded.
    pub fn delete_completion(&self, item_id: &str, date: &str) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "DELETE FROM planner_completions WHERE item_id = ?1 AND occurrence_date = ?2",
            )?
            .execute(params![item_id, date])?;
        Ok(n == 1)
    }

    /// Links a todo, event or habit to a goal. Returns false when already linked; fails (foreign
    /// key) when the goal or an item of that kind does not exist.
    pub fn add_goal_item(&self, goal_id: &str, item: &ItemRef) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "INSERT INTO goal_items (goal_id, item_kind, item_id) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
            )?
            .execute(params![goal_id, item.kind.as_str(), item.id])?;
        Ok(n == 1)
    }

    /// Unlinks an item from a goal. Returns whether it was linked.
    pub fn remove_goal_item(&self, goal_id: &str, item: &ItemRef) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "DELETE FROM goal_items WHERE goal_kind = 'goal' AND goal_id = ?1
                     AND item_kind = ?2 AND item_id = ?3",
            )?
            .execute(params![goal_id, item.kind.as_str(), item.id])?;
        Ok(n == 1)
    }

    /// Makes `child_id` a child goal of `parent_id`. Returns false when already linked; fails when
    /// either goal does not exist or they are the same goal. Does not check for cycles (see
    /// [`Db::goal_is_descendant`]).
    pub fn add_goal_child(&self, parent_id: &str, child_id: &str) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "INSERT INTO goal_children (parent_id, child_id) VALUES (?1, ?2)
                 ON CONFLICT DO NOTHING",
            )?
            .execute(params![parent_id, child_id])?;
        Ok(n == 1)
    }

    /// Removes `child_id` from `parent_id`'s children. Returns whether it was linked.
    pub fn remove_goal_child(&self, parent_id: &str, child_id: &str) -> Result<bool> {
        let n = self
            .conn
            .prepare_cached(
                "DELETE FROM goal_children WHERE parent_kind = 'goal' AND parent_id = ?1
                     AND child_kind = 'goal' AND child_id = ?2",
            )?
            .execute(params![parent_id, child_id])?;
        Ok(n == 1)
    }

    /// Whether goal `goal_id` is `ancestor_id` itself or one of its descendants (children,
    /// grandchildren, ...). Linking `ancestor_id` under `goal_id` would then make a cycle.
    pub fn goal_is_descendant(&self, goal_id: &str, ancestor_id: &str) -> Result<bool> {
        if goal_id == ancestor_id {
            return Ok(true);
        }
        Ok(self
            .conn
            .prepare_cached(
                "WITH RECURSIVE below (id) AS (
                     SELECT child_id FROM goal_children WHERE parent_id = ?1
                     UNION
                     SELECT c.child_id FROM goal_children c JOIN below b ON c.parent_id = b.id
                 )
                 SELECT 1 FROM below WHERE id = ?2",
            )?
            .exists(params![ancestor_id, goal_id])?)
    }

    /// What validation needs to know about one existing item.
    pub fn known_item(&self, kind: ItemKind, id: &str) -> Result<Option<KnownItem>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {ITEM_COLUMNS} FROM planner_items WHERE id = ?1 AND kind = ?2"
            ))?
            .query_row(params![id, kind.as_str()], item_row)
            .optional()?
            .map(|it| KnownItem {
                kind: it.kind,
                id: it.id,
                recurrence: it.recurrence,
                completed: it.completed,
                scheduled_for: it.scheduled_for,
            }))
    }

    /// The existing items among `refs`; missing ones are absent from the result.
    pub fn known_items(&self, refs: &[ItemRef]) -> Result<KnownItems> {
        let mut out = KnownItems::new();
        for r in refs {
            if out.get(r.kind, &r.id).is_some() {
                continue;
            }
            if let Some(k) = self.known_item(r.kind, &r.id)? {
                out.insert(k);
            }
        }
        Ok(out)
    }

    /// One item with its completed occurrences, goal items and child goals.
    pub fn planner_item(&self, kind: ItemKind, id: &str) -> Result<Option<PlannerItem>> {
        let item = self
            .conn
            .prepare_cached(&format!(
                "SELECT {ITEM_COLUMNS} FROM planner_items WHERE id = ?1 AND kind = ?2"
            ))?
            .query_row(params![id, kind.as_str()], item_row)
            .optional()?;
        match item {
            Some(mut it) => {
                self.fill_relations(&mut it)?;
                Ok(Some(it))
            }
            None => Ok(None),
        }
    }

    /// Adds the completions (repeating items) or links (goals) to an item read from its row.
    fn fill_relations(&self, it: &mut PlannerItem) -> Result<()> {
        if it.recurrence.repeats() {
            it.completed_occurrences = self
                .conn
                .prepare_cached(
                    "SELECT occurrence_date FROM planner_completions WHERE item_id = ?1
                     ORDER BY occurrence_date",
                )?
                .query_map([&it.id], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
        }
        if it.kind == ItemKind::Goal {
            it.goal_items = self
                .conn
                .prepare_cached(
                    "SELECT item_kind, item_id FROM goal_items
                     WHERE goal_kind = 'goal' AND goal_id = ?1 ORDER BY rowid",
                )?
                .query_map([&it.id], |r| {
                    Ok(ItemRef {
                        kind: from_text(&r.get::<_, String>(0)?, 0)?,
                        id: r.get(1)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            it.child_goals = self
                .conn
                .prepare_cached(
                    "SELECT child_id FROM goal_children
                     WHERE parent_kind = 'goal' AND parent_id = ?1 ORDER BY rowid",
                )?
                .query_map([&it.id], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(())
    }

    fn items_where(&self, sql: &str, args: impl rusqlite::Params) -> Result<Vec<PlannerItem>> {
        let mut items = self
            .conn
            .prepare_cached(sql)?
            .query_map(args, item_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for it in &mut items {
            self.fill_relations(it)?;
        }
        Ok(items)
    }

    /// The open todos, events and habits of the week `start..=end` (`YYYY-MM-DD`), unexpanded, as
    /// `(one_off, repeating)`:
    /// - one-off: non-repeating items dated in the week and not completed;
    /// - repeating: items anchored on or before `end` whose `until` is not before `start`; their
    ///   `completed_occurrences` hold only the dates inside the week.
    pub fn week_items(
        &self,
        start: &str,
        end: &str,
    ) -> Result<(Vec<PlannerItem>, Vec<PlannerItem>)> {
        let one_off = self
            .conn
            .prepare_cached(&format!(
                "SELECT {ITEM_COLUMNS} FROM planner_items
                 WHERE recur_type = 'none' AND completed = 0
                     AND scheduled_for BETWEEN ?1 AND ?2 AND kind <> 'goal'"
            ))?
            .query_map(params![start, end], item_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut repeating = self
            .conn
            .prepare_cached(&format!(
                "SELECT {ITEM_COLUMNS} FROM planner_items
                 WHERE recur_type <> 'none' AND completed = 0 AND scheduled_for <= ?2
                     AND (recur_until IS NULL OR recur_until >= ?1) AND kind <> 'goal'"
            ))?
            .query_map(params![start, end], item_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        if !repeating.is_empty() {
            let at: HashMap<String, usize> = repeating
                .iter()
                .enumerate()
                .map(|(i, it)| (it.id.clone(), i))
                .collect();
            let mut st = self.conn.prepare_cached(
                "SELECT item_id, occurrence_date FROM planner_completions
                 WHERE occurrence_date BETWEEN ?1 AND ?2 ORDER BY occurrence_date",
            )?;
            let mut rows = st.query(params![start, end])?;
            while let Some(r) = rows.next()? {
                let id = r.get_ref(0)?.as_str().map_err(rusqlite::Error::from)?;
                if let Some(&i) = at.get(id) {
                    repeating[i].completed_occurrences.push(r.get(1)?);
                }
            }
        }
        Ok((one_off, repeating))
    }

    /// Up to `limit` backlog todos (no date, not completed): high priority first, then most
    /// recently changed, then id.
    pub fn backlog_items(&self, limit: u32) -> Result<Vec<PlannerItem>> {
        self.items_where(
            &format!(
                "SELECT {ITEM_COLUMNS} FROM planner_items INDEXED BY planner_items_backlog
                 WHERE kind = 'todo' AND scheduled_for IS NULL AND completed = 0
                 ORDER BY CASE priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END,
                     updated_ms DESC, id
                 LIMIT ?1"
            ),
            [limit],
        )
    }

    /// Up to `limit` items of any kind not completed, most recently changed first (then id).
    pub fn open_planner_items(&self, limit: u32) -> Result<Vec<PlannerItem>> {
        self.items_where(
            &format!(
                "SELECT {ITEM_COLUMNS} FROM planner_items WHERE completed = 0
                 ORDER BY updated_ms DESC, id LIMIT ?1"
            ),
            [limit],
        )
    }

    /// The todos, events and habits a question about the planner may name: every one not
    /// completed, every repeating one, and the completed ones dated within `start..=end`
    /// (`YYYY-MM-DD`); not completed first, then most recently changed, then id; at most `limit`.
    pub fn answer_items(&self, start: &str, end: &str, limit: u32) -> Result<Vec<PlannerItem>> {
        self.items_where(
            &format!(
                "SELECT {ITEM_COLUMNS} FROM planner_items
                 WHERE kind <> 'goal' AND (completed = 0 OR recur_type <> 'none'
                     OR scheduled_for BETWEEN ?1 AND ?2)
                 ORDER BY completed, updated_ms DESC, id LIMIT ?3"
            ),
            params![start, end, limit],
        )
    }

    /// Appends an audit entry (`entry.seq` is ignored) and returns its sequence number.
    pub fn insert_audit(&self, entry: &AuditEntry) -> Result<i64> {
        self.conn
            .prepare_cached(
                "INSERT INTO assistant_audit
                     (request_id, op, kind, item_id, before_json, after_json, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                entry.request_id,
                entry.op.as_str(),
                entry.kind.as_str(),
                entry.item_id,
                entry.before_json,
                entry.after_json,
                entry.at_ms,
            ])?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Up to `limit` audit entries with `seq` below `before_seq` (all when `None`), newest first.
    pub fn audit_entries(&self, limit: u32, before_seq: Option<i64>) -> Result<Vec<AuditEntry>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT seq, request_id, op, kind, item_id, before_json, after_json, at_ms
                 FROM assistant_audit WHERE seq < ?1 ORDER BY seq DESC LIMIT ?2",
            )?
            .query_map(params![before_seq.unwrap_or(i64::MAX), limit], audit_row)?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// Every audit entry of one apply (or undo) request, oldest first.
    pub fn audit_for_request(&self, request_id: &str) -> Result<Vec<AuditEntry>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT seq, request_id, op, kind, item_id, before_json, after_json, at_ms
                 FROM assistant_audit WHERE request_id = ?1 ORDER BY seq",
            )?
            .query_map([request_id], audit_row)?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// Whether the audit log holds an entry of `request_id`.
    pub fn audit_has_request(&self, request_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM assistant_audit WHERE request_id = ?1")?
            .exists([request_id])?)
    }

    /// The goals that link the item: `(goal id, false)` for a goal listing it among its items,
    /// `(goal id, true)` for a goal having it (a goal) as a child. In link order.
    pub fn goals_linking(&self, kind: ItemKind, id: &str) -> Result<Vec<(String, bool)>> {
        let sql = if kind == ItemKind::Goal {
            "SELECT parent_id, 1 FROM goal_children WHERE child_kind = 'goal' AND child_id = ?2
             ORDER BY rowid"
        } else {
            "SELECT goal_id, 0 FROM goal_items WHERE item_kind = ?1 AND item_id = ?2
             ORDER BY rowid"
        };
        Ok(self
            .conn
            .prepare_cached(sql)?
            .query_map(params![kind.as_str(), id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?)
    }

    /// Makes the item's done occurrences exactly `dates`: others are removed, missing ones are
    /// recorded at `at_ms` (the ones kept keep their time).
    pub fn set_completions(&self, item_id: &str, dates: &[String], at_ms: i64) -> Result<()> {
        let stored: Vec<String> = self
            .conn
            .prepare_cached("SELECT occurrence_date FROM planner_completions WHERE item_id = ?1")?
            .query_map([item_id], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for d in stored.iter().filter(|d| !dates.contains(d)) {
            self.delete_completion(item_id, d)?;
        }
        for d in dates.iter().filter(|d| !stored.contains(d)) {
            self.insert_completion(item_id, d, at_ms)?;
        }
        Ok(())
    }

    /// Makes a goal's linked items and child goals exactly `items` and `children`, in that order.
    /// Fails (foreign key) when one of them does not exist.
    pub fn set_goal_links(
        &self,
        goal_id: &str,
        items: &[ItemRef],
        children: &[String],
    ) -> Result<()> {
        self.conn
            .prepare_cached("DELETE FROM goal_items WHERE goal_kind = 'goal' AND goal_id = ?1")?
            .execute([goal_id])?;
        self.conn
            .prepare_cached(
                "DELETE FROM goal_children WHERE parent_kind = 'goal' AND parent_id = ?1",
            )?
            .execute([goal_id])?;
        for it in items {
            self.add_goal_item(goal_id, it)?;
        }
        for c in children {
            self.add_goal_child(goal_id, c)?;
        }
        Ok(())
    }

    /// The request hash and stored response JSON under an idempotency key.
    pub fn idempotency_get(&self, key: &str) -> Result<Option<(String, String)>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT request_hash, response_json FROM assistant_idempotency WHERE key = ?1",
            )?
            .query_row([key], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    /// Stores a response under an idempotency key (fails if the key exists).
    pub fn idempotency_put(
        &self,
        key: &str,
        request_hash: &str,
        response_json: &str,
        at_ms: i64,
    ) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO assistant_idempotency (key, request_hash, response_json, created_ms)
                 VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![key, request_hash, response_json, at_ms])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assistant::model::{Priority, RecurrenceType};
    use crate::db::Store;

    fn item(kind: ItemKind, id: &str, date: Option<&str>) -> PlannerItem {
        PlannerItem {
            created_ms: 1,
            updated_ms: 1,
            ..PlannerItem::sample(kind, id, &format!("title {id}"), date)
        }
    }

    #[test]
    fn items_round_trip_with_links_and_cascades() {
        let s = Store::open_in_memory().unwrap();
        s.write(|db| {
            let mut h = item(ItemKind::Habit, "h", Some("2026-11-16"));
            h.recurrence = Recurrence {
                kind: RecurrenceType::Weekly,
                interval: Some(2),
                weekdays: vec![Weekday::Mon, Weekday::Sun],
                until: Some("2027-01-01".into()),
            };
            db.insert_planner_item(&h)?;
            db.insert_planner_item(&item(ItemKind::Todo, "t", None))?;
            db.insert_planner_item(&item(ItemKind::Goal, "g", None))?;
            db.insert_planner_item(&item(ItemKind::Goal, "g2", None))?;
            assert!(db.insert_completion("h", "2026-11-22", 5)?);
            assert!(!db.insert_completion("h", "2026-11-22", 6)?);
            assert!(db.add_goal_item(
                "g",
                &ItemRef {
                    kind: ItemKind::Habit,
                    id: "h".into()
                }
            )?);
            assert!(db.add_goal_item(
                "g",
                &ItemRef {
                    kind: ItemKind::Todo,
                    id: "t".into()
                }
            )?);
            // Wrong kind, missing item, or not a goal: refused by the foreign keys.
            assert!(db
                .add_goal_item(
                    "g",
                    &ItemRef {
                        kind: ItemKind::Event,
                        id: "t".into()
                    }
                )
                .is_err());
            assert!(db
                .add_goal_item(
                    "t",
                    &ItemRef {
                        kind: ItemKind::Habit,
                        id: "h".into()
                    }
                )
                .is_err());
            assert!(db.add_goal_child("g", "g2")?);
            assert!(db.add_goal_child("g", "g").is_err());
            assert!(db.goal_is_descendant("g2", "g")?);
            assert!(!db.goal_is_descendant("g", "g2")?);
            let mut t = item(ItemKind::Todo, "t", Some("2026-11-20"));
            t.priority = Priority::High;
            t.completed = true;
            t.created_ms = 99;
            t.updated_ms = 7;
            assert!(db.update_planner_item(&t)?);
            let got = db.planner_item(ItemKind::Todo, "t")?.unwrap();
            assert_eq!(
                (got.created_ms, got.updated_ms),
                (1, 7),
                "created_ms is kept"
            );
            assert_eq!(got.priority, Priority::High);
            assert!(got.completed && got.scheduled_for.as_deref() == Some("2026-11-20"));
            t.kind = ItemKind::Event;
            assert!(!db.update_planner_item(&t)?, "kind and id must match");
            let got = db.planner_item(ItemKind::Habit, "h")?.unwrap();
            assert_eq!(got.recurrence, h.recurrence);
            assert_eq!(got.completed_occurrences, vec!["2026-11-22".to_string()]);
            assert!(db.planner_item(ItemKind::Todo, "h")?.is_none());
            let g = db.planner_item(ItemKind::Goal, "g")?.unwrap();
            assert_eq!(g.goal_items.len(), 2);
            assert_eq!(g.goal_items[0].id, "h");
            assert_eq!(g.child_goals, vec!["g2".to_string()]);
            assert!(db.delete_planner_item(ItemKind::Habit, "h")?);
            let g = db.planner_item(ItemKind::Goal, "g")?.unwrap();
            assert_eq!(
                g.goal_items,
                vec![ItemRef {
                    kind: ItemKind::Todo,
                    id: "t".into()
                }]
            );
            assert!(db.delete_planner_item(ItemKind::Goal, "g")?);
            assert!(
                db.planner_item(ItemKind::Goal, "g2")?.is_some(),
                "children are unlinked, not deleted"
            );
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn weekday_mask_round_trips() {
        for m in 0..128 {
            assert_eq!(weekday_mask(&weekdays_of(m)), m);
        }
    }
}
