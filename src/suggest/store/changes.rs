//! `PrescriptionChange`: stored suggestions, their decisions and outcomes, and the per-session
//! generation marker.

use rusqlite::{params, OptionalExtension, Row};

use crate::db::codec::{from_json, from_text, json, text};
use crate::db::Db;
use crate::kernel::error::Result;
use crate::suggest::model::{Decision, Outcome, PrescriptionChange, SuggestionDraft};

const COLUMNS: &str = "id, session_id, plan_id, prescription_id, catalog_id, source, rule_id, \
     change_type, target_set_index, property, old_value, new_value, reasoning, evidence, decision, \
     created_at_ms, decided_at_ms, user_override, outcome, outcome_reason, evaluated_at_ms";

fn change_row(r: &Row<'_>) -> rusqlite::Result<PrescriptionChange> {
    let old: Option<String> = r.get(10)?;
    Ok(PrescriptionChange {
        id: r.get(0)?,
        session_id: r.get(1)?,
        plan_id: r.get(2)?,
        prescription_id: r.get(3)?,
        catalog_id: r.get(4)?,
        draft: SuggestionDraft {
            source: from_text(&r.get::<_, String>(5)?, 5)?,
            rule_id: r.get(6)?,
            change_type: from_text(&r.get::<_, String>(7)?, 7)?,
            target_set_index: r.get(8)?,
            property: from_text(&r.get::<_, String>(9)?, 9)?,
            old_value: old.map(|o| from_json(&o, 10)).transpose()?,
            new_value: from_json(&r.get::<_, String>(11)?, 11)?,
            reasoning: r.get(12)?,
            evidence: from_json(&r.get::<_, String>(13)?, 13)?,
        },
        decision: from_text(&r.get::<_, String>(14)?, 14)?,
        created_at_ms: r.get(15)?,
        decided_at_ms: r.get(16)?,
        user_override: r.get(17)?,
        outcome: from_text(&r.get::<_, String>(18)?, 18)?,
        outcome_reason: r.get(19)?,
        evaluated_at_ms: r.get(20)?,
    })
}

impl Db<'_> {
    fn changes_where(
        &self,
        filter: &str,
        args: impl rusqlite::Params,
    ) -> Result<Vec<PrescriptionChange>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM prescription_changes WHERE {filter}"
            ))?
            .query_map(args, change_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Whether suggestions were already generated for a session.
    pub fn suggestion_run_exists(&self, session_id: &str) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM suggestion_runs WHERE session_id = ?1")?
            .exists([session_id])?)
    }

    /// Marks a session's suggestions as generated.
    pub fn mark_suggestion_run(&self, session_id: &str, at_ms: i64) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO suggestion_runs (session_id, generated_at_ms) VALUES (?1, ?2)",
            )?
            .execute(params![session_id, at_ms])?;
        Ok(())
    }

    /// Stores a change; `seq` orders the changes of one session.
    pub fn insert_change(&self, c: &PrescriptionChange, seq: u32) -> Result<()> {
        let d = &c.draft;
        self.conn
            .prepare_cached(
                "INSERT INTO prescription_changes (id, seq, session_id, plan_id, prescription_id,
                     catalog_id, source, rule_id, change_type, target_set_index, property, old_value,
                     new_value, reasoning, evidence, decision, created_at_ms, decided_at_ms,
                     user_override, outcome, outcome_reason, evaluated_at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                     ?18, ?19, ?20, ?21, ?22)",
            )?
            .execute(params![
                c.id,
                seq,
                c.session_id,
                c.plan_id,
                c.prescription_id,
                c.catalog_id,
                text(&d.source),
                d.rule_id,
                text(&d.change_type),
                d.target_set_index,
                text(&d.property),
                d.old_value.as_ref().map(json),
                json(&d.new_value),
                d.reasoning,
                json(&d.evidence),
                text(&c.decision),
                c.created_at_ms,
                c.decided_at_ms,
                c.user_override,
                text(&c.outcome),
                c.outcome_reason,
                c.evaluated_at_ms
            ])?;
        Ok(())
    }

    /// A change by id.
    pub fn change(&self, id: &str) -> Result<Option<PrescriptionChange>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM prescription_changes WHERE id = ?1"
            ))?
            .query_row([id], change_row)
            .optional()?)
    }

    /// The changes generated for a session, in creation order.
    pub fn changes_for_session(&self, session_id: &str) -> Result<Vec<PrescriptionChange>> {
        self.changes_where("session_id = ?1 ORDER BY seq", [session_id])
    }

    /// Changes of a prescription created at or after `since_ms` (for the cooldown).
    pub fn changes_for_prescription_since(
        &self,
        prescription_id: &str,
        since_ms: i64,
    ) -> Result<Vec<PrescriptionChange>> {
        self.changes_where(
            "prescription_id = ?1 AND created_at_ms >= ?2 ORDER BY created_at_ms, seq",
            params![prescription_id, since_ms],
        )
    }

    /// A plan's changes with the given decision, oldest first.
    pub fn changes_for_plan(
        &self,
        plan_id: &str,
        decision: Decision,
    ) -> Result<Vec<PrescriptionChange>> {
        self.changes_where(
            "plan_id = ?1 AND decision = ?2 ORDER BY created_at_ms, seq",
            params![plan_id, text(&decision)],
        )
    }

    /// Undecided (pending or deferred) changes of a plan whose plan exercise is still in the
    /// plan, oldest first (index `prescription_changes_plan_decision`): the candidates of the
    /// deferred review. Which of them are still acceptable, and which deferred ones a newer
    /// acceptable similar change supersedes, is judged by the caller on the plan it has read
    /// (`suggest::service::deferred_for_plan`).
    pub fn undecided_for_review(&self, plan_id: &str) -> Result<Vec<PrescriptionChange>> {
        self.changes_where(
            "plan_id = ?1 AND decision IN ('pending', 'deferred')
             AND EXISTS (SELECT 1 FROM plan_exercises AS x
                         WHERE x.id = prescription_changes.prescription_id AND x.plan_id = ?1)
             ORDER BY created_at_ms, seq",
            [plan_id],
        )
    }

    /// Accepted changes of a prescription decided before `before_ms` whose outcome is not
    /// evaluated yet (the partial index `prescription_changes_unevaluated`).
    pub fn unevaluated_accepted(
        &self,
        prescription_id: &str,
        before_ms: i64,
    ) -> Result<Vec<PrescriptionChange>> {
        self.changes_where(
            "prescription_id = ?1 AND decision = 'accepted' AND outcome = 'notEvaluated'
             AND decided_at_ms <= ?2 ORDER BY created_at_ms, seq",
            params![prescription_id, before_ms],
        )
    }

    /// Records a decision.
    pub fn set_decision(&self, id: &str, decision: Decision, at_ms: i64) -> Result<()> {
        self.conn
            .prepare_cached(
                "UPDATE prescription_changes SET decision = ?2, decided_at_ms = ?3 WHERE id = ?1",
            )?
            .execute(params![id, text(&decision), at_ms])?;
        Ok(())
    }

    /// Records an acceptance with the user's own value: the edited draft (new value, change type
    /// when the edit went the other way, and reasoning naming the user's choice), accepted,
    /// marked as a user override.
    pub fn set_edited_acceptance(&self, id: &str, d: &SuggestionDraft, at_ms: i64) -> Result<()> {
        self.conn
            .prepare_cached(
                "UPDATE prescription_changes SET decision = 'accepted', decided_at_ms = ?2,
                     user_override = 1, change_type = ?3, new_value = ?4, reasoning = ?5
                 WHERE id = ?1",
            )?
            .execute(params![
                id,
                at_ms,
                text(&d.change_type),
                json(&d.new_value),
                d.reasoning
            ])?;
        Ok(())
    }

    /// Defers every pending change of a session; returns how many.
    pub fn defer_pending(&self, session_id: &str, at_ms: i64) -> Result<u32> {
        let n = self
            .conn
            .prepare_cached(
                "UPDATE prescription_changes SET decision = 'deferred', decided_at_ms = ?2
                 WHERE session_id = ?1 AND decision = 'pending'",
            )?
            .execute(params![session_id, at_ms])?;
        Ok(n as u32)
    }

    /// Records how an accepted change worked out.
    pub fn set_outcome(
        &self,
        id: &str,
        outcome: Outcome,
        reason: &str,
        session_id: &str,
        at_ms: i64,
    ) -> Result<()> {
        self.conn
            .prepare_cached(
                "UPDATE prescription_changes SET outcome = ?2, outcome_reason = ?3,
                     evaluated_in_session = ?4, evaluated_at_ms = ?5 WHERE id = ?1",
            )?
            .execute(params![id, text(&outcome), reason, session_id, at_ms])?;
        Ok(())
    }
}
