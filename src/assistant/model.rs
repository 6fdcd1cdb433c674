//! The vocabulary of spec 002: planner items (todos, events, habits, goals), the operations the
//! assistant proposes and the app applies, validation results, the router's decision, clarifying
//! questions, pipeline events and results, and the audit log. Pure data: serde (camelCase JSON, as
//! the model, the CLI and the C API write it) and UniFFI records for Swift, Kotlin and Python.
//!
//! Dates are `YYYY-MM-DD` strings and times `HH:MM` (24 h) in the app's local time; the library
//! has no time zone of its own. Times in milliseconds are Unix epoch milliseconds.

use serde::{Deserialize, Serialize};

pub use crate::kernel::date::Weekday;

/// The version of the operations format, sent in the `ops` event.
pub const OPS_VERSION: u32 = 1;
/// The most operations one proposal or one apply may hold.
pub const MAX_OPERATIONS: usize = 20;
/// Router: below this confidence the assistant asks a clarifying question.
pub const CLARIFY_THRESHOLD: f64 = 0.45;
/// Router: a `chat` decision needs at least this confidence; below it the message is planned.
pub const CHAT_THRESHOLD: f64 = 0.70;

/// What kind of planner item an operation or a record is about.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, uniffi::Enum,
)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    /// A task, dated (`scheduledFor`) or in the backlog (no date).
    Todo,
    /// Something at a date and usually a time (`timeOfDay` to `endTime`).
    Event,
    /// A repeating routine; habits always repeat.
    Habit,
    /// A goal grouping todos, events and habits, with optional child goals.
    Goal,
}

impl ItemKind {
    /// The wire spelling: `todo`, `event`, `habit`, `goal`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Todo => "todo",
            Self::Event => "event",
            Self::Habit => "habit",
            Self::Goal => "goal",
        }
    }
}

/// What an operation does. `goal_*` operations apply to goals only; the others to todos, events
/// and habits (`create`/`update`/`delete` also to goals, as synonyms of the `goal_*` ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "snake_case")]
pub enum OpType {
    /// Create an item (`id` must be absent; the library assigns one).
    Create,
    /// Change the fields an operation gives; absent or null fields are left as they are.
    Update,
    /// Delete an item (and, for a goal, its links; child goals are unlinked, not deleted).
    Delete,
    /// Mark a non-repeating item done. Repeating items use `complete_occurrence`.
    Complete,
    /// Mark one occurrence (`occurrenceDate`) of a repeating item done.
    CompleteOccurrence,
    /// Create a goal, optionally with `items` and `children`.
    GoalCreate,
    /// Change a goal's title, notes or priority.
    GoalUpdate,
    /// Delete a goal.
    GoalDelete,
    /// Link existing todos, events or habits (`items`) to a goal.
    GoalAddItems,
    /// Unlink one item (`item`) from a goal.
    GoalRemoveItem,
    /// Make goal `childId` a child of goal `id`.
    GoalAddChild,
    /// Remove goal `childId` from goal `id`'s children.
    GoalRemoveChild,
}

impl OpType {
    /// The wire spelling, e.g. `complete_occurrence`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Create => "create",
            Self::Update => "update",
            Self::Delete => "delete",
            Self::Complete => "complete",
            Self::CompleteOccurrence => "complete_occurrence",
            Self::GoalCreate => "goal_create",
            Self::GoalUpdate => "goal_update",
            Self::GoalDelete => "goal_delete",
            Self::GoalAddItems => "goal_add_items",
            Self::GoalRemoveItem => "goal_remove_item",
            Self::GoalAddChild => "goal_add_child",
            Self::GoalRemoveChild => "goal_remove_child",
        }
    }
}

/// An item's priority.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, uniffi::Enum,
)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// Low.
    Low,
    /// Medium (the default).
    Medium,
    /// High.
    High,
}

/// How an item repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "lowercase")]
pub enum RecurrenceType {
    /// Does not repeat (todos and events only; a habit must repeat).
    None,
    /// Every `interval` days.
    Daily,
    /// On `weekdays` (default: the anchor's weekday) of every `interval`-th week (Monday-based).
    Weekly,
    /// On the anchor's day of the month, every `interval` months; months without that day are
    /// skipped (as RFC 5545 does).
    Monthly,
    /// On the anchor's month and day, every `interval` years (Feb 29: leap years only).
    Yearly,
}

/// The repeat rule of a todo, event or habit. The item's `scheduledFor` is the anchor: the first
/// occurrence, from which intervals count. Occurrences run from the anchor to `until` (inclusive).
///
/// JSON: `{"type":"weekly","interval":1,"weekdays":["mon","thu"],"until":null}`; only `type` is
/// required (`{"type":"none"}` for a one-off item).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct Recurrence {
    /// How it repeats.
    #[serde(rename = "type")]
    pub kind: RecurrenceType,
    /// Every how many days, weeks, months or years; 1 to 365, absent means 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub interval: Option<u32>,
    /// Weekly only: the days of the week; empty means the anchor's weekday.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[uniffi(default = [])]
    pub weekdays: Vec<Weekday>,
    /// The last possible occurrence date (`YYYY-MM-DD`), or absent for no end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub until: Option<String>,
}

impl Recurrence {
    /// `{type:'none'}`.
    pub fn none() -> Self {
        Recurrence {
            kind: RecurrenceType::None,
            interval: None,
            weekdays: Vec::new(),
            until: None,
        }
    }

    /// Whether the item repeats (any type but `none`).
    pub fn repeats(&self) -> bool {
        self.kind != RecurrenceType::None
    }
}

/// A reference to a todo, event or habit, e.g. as a goal's item.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, uniffi::Record,
)]
#[serde(rename_all = "camelCase")]
pub struct ItemRef {
    /// The item's kind.
    pub kind: ItemKind,
    /// The item's id.
    pub id: String,
}

/// One operation on the planner, as the assistant proposes it and as `dryRun`/`apply` take it.
///
/// Which fields apply depends on `op` and `kind` (validation reports any that are missing or
/// misplaced):
/// - `create`: `title`; `recurrence` for todos, events and habits (`{type:'none'}` allowed for
///   todos and events, never for habits); `scheduledFor` is required when the item repeats (the
///   anchor) and for events.
/// - `update`: `id` plus the fields to change; for todos, events and habits `recurrence` too.
/// - `delete`, `complete`: `id`. `complete` is for non-repeating items only.
/// - `complete_occurrence`: `id` of a repeating item and `occurrenceDate`.
/// - `complete` and `complete_occurrence` with `completed: false` un-complete (a toggle).
/// - `goal_create`: `title`, optional `items`, `children`; `goal_update`: `id` and fields;
///   `goal_delete`: `id`; `goal_add_items`: `id`, `items`; `goal_remove_item`: `id`, `item`;
///   `goal_add_child` / `goal_remove_child`: `id`, `childId`.
///
/// No bulk operations: every operation names at most one target item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PlannerOperation {
    /// What to do.
    pub op: OpType,
    /// What kind of item.
    pub kind: ItemKind,
    /// The target item (absent for `create` and `goal_create`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub id: Option<String>,
    /// Title (1 to 200 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub title: Option<String>,
    /// Free-text notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub notes: Option<String>,
    /// The date (`YYYY-MM-DD`); the anchor of a repeating item; absent puts a todo in the backlog.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub scheduled_for: Option<String>,
    /// Time of day (`HH:MM`): a todo's or habit's time, an event's start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub time_of_day: Option<String>,
    /// An event's end time (`HH:MM`), after `timeOfDay`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub end_time: Option<String>,
    /// Priority.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub priority: Option<Priority>,
    /// The repeat rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub recurrence: Option<Recurrence>,
    /// `complete_occurrence`: which occurrence (`YYYY-MM-DD`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub occurrence_date: Option<String>,
    /// `goal_create`, `goal_add_items`: the items to link.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[uniffi(default = [])]
    pub items: Vec<ItemRef>,
    /// `goal_create`: ids of existing goals to make its children.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[uniffi(default = [])]
    pub children: Vec<String>,
    /// `goal_remove_item`: the item to unlink.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub item: Option<ItemRef>,
    /// `goal_add_child`, `goal_remove_child`: the child goal's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub child_id: Option<String>,
    /// `complete`, `complete_occurrence`: `false` un-completes (the item, or that occurrence);
    /// absent or `true` completes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[uniffi(default = None)]
    pub completed: Option<bool>,
}

impl PlannerOperation {
    /// An operation with only `op` and `kind` set.
    pub fn new(op: OpType, kind: ItemKind) -> Self {
        PlannerOperation {
            op,
            kind,
            id: None,
            title: None,
            notes: None,
            scheduled_for: None,
            time_of_day: None,
            end_time: None,
            priority: None,
            recurrence: None,
            occurrence_date: None,
            items: Vec::new(),
            children: Vec::new(),
            item: None,
            child_id: None,
            completed: None,
        }
    }
}

/// One problem with one operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct OpIssue {
    /// A stable snake_case code, e.g. `missing_recurrence`, `unknown_id`, `bulk_not_supported`.
    pub code: String,
    /// The field it is about (`recurrence.type`, `scheduledFor`), or absent for the whole operation.
    pub field: Option<String>,
    /// What is wrong, for a person (and for the model's repair prompt).
    pub message: String,
}

/// The validation result of one operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct OpCheck {
    /// Position in the list as given (0-based).
    pub index: u32,
    /// The operation after shaping and deterministic repairs; absent when it could not be read at
    /// all (e.g. an unknown `kind`).
    pub operation: Option<PlannerOperation>,
    /// Whether it may be applied.
    pub valid: bool,
    /// What is wrong with it (empty when valid).
    pub errors: Vec<OpIssue>,
    /// Deterministic repairs made to it, e.g. `added recurrence {type:'none'}`.
    pub repairs: Vec<String>,
}

/// Validation of a list of operations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct Validation {
    /// One check per operation, in order.
    pub checks: Vec<OpCheck>,
    /// How many are valid.
    pub valid_count: u32,
    /// How many are not.
    pub invalid_count: u32,
    /// Problems with the list as a whole, e.g. `too_many_operations` (more than 20).
    pub errors: Vec<OpIssue>,
}

impl Validation {
    /// Whether every operation is valid and the list as a whole is acceptable.
    pub fn all_valid(&self) -> bool {
        self.invalid_count == 0 && self.errors.is_empty()
    }
}

/// A todo, event, habit or goal as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PlannerItem {
    /// Its kind.
    pub kind: ItemKind,
    /// Its id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Notes.
    pub notes: Option<String>,
    /// Date or anchor (`YYYY-MM-DD`); absent for backlog todos and goals.
    pub scheduled_for: Option<String>,
    /// Time of day or event start (`HH:MM`).
    pub time_of_day: Option<String>,
    /// Event end (`HH:MM`).
    pub end_time: Option<String>,
    /// Priority.
    pub priority: Priority,
    /// Repeat rule (`none` for goals and one-off items).
    pub recurrence: Recurrence,
    /// Done (non-repeating items and goals).
    pub completed: bool,
    /// Done occurrences of a repeating item (`YYYY-MM-DD`, ascending).
    pub completed_occurrences: Vec<String>,
    /// A goal's linked items.
    pub goal_items: Vec<ItemRef>,
    /// A goal's child goal ids.
    pub child_goals: Vec<String>,
    /// Created (Unix ms).
    pub created_ms: i64,
    /// Last changed (Unix ms).
    pub updated_ms: i64,
}

#[cfg(test)]
impl PlannerItem {
    /// A plain item for tests: medium priority, no recurrence, not done, no links, times 0.
    pub(crate) fn sample(kind: ItemKind, id: &str, title: &str, date: Option<&str>) -> Self {
        PlannerItem {
            kind,
            id: id.into(),
            title: title.into(),
            notes: None,
            scheduled_for: date.map(str::to_string),
            time_of_day: None,
            end_time: None,
            priority: Priority::Medium,
            recurrence: Recurrence::none(),
            completed: false,
            completed_occurrences: vec![],
            goal_items: vec![],
            child_goals: vec![],
            created_ms: 0,
            updated_ms: 0,
        }
    }
}

/// What validation needs to know about an existing item. Repeating: `recurrence.repeats()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownItem {
    /// Its kind.
    pub kind: ItemKind,
    /// Its id.
    pub id: String,
    /// Its stored repeat rule (`none` for one-off items and goals).
    pub recurrence: Recurrence,
    /// Done (non-repeating items).
    pub completed: bool,
    /// Its date or anchor.
    pub scheduled_for: Option<String>,
}

/// The existing items an operation list refers to, looked up by the store before validation.
#[derive(Debug, Clone, Default)]
pub struct KnownItems {
    map: std::collections::HashMap<(ItemKind, String), KnownItem>,
}

impl KnownItems {
    /// Empty.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds or replaces an item.
    pub fn insert(&mut self, item: KnownItem) {
        self.map.insert((item.kind, item.id.clone()), item);
    }

    /// The item of `kind` with `id`, if it exists.
    pub fn get(&self, kind: ItemKind, id: &str) -> Option<&KnownItem> {
        self.map.get(&(kind, id.to_string()))
    }

    /// How many items.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// One day's entry in the week view: an item on a date (a repeating item appears once per
/// occurrence).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct WeekEntry {
    /// The date (`YYYY-MM-DD`).
    pub date: String,
    /// The item.
    pub item: PlannerItem,
}

/// The Monday-to-Sunday week containing a date: its items not yet completed, by date, then time
/// (untimed last), then priority (high first), then title.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct WeekSnapshot {
    /// Monday (`YYYY-MM-DD`).
    pub week_start: String,
    /// Sunday (`YYYY-MM-DD`).
    pub week_end: String,
    /// The entries.
    pub entries: Vec<WeekEntry>,
}

/// One applied action, as the audit log keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    /// Increasing sequence number.
    pub seq: i64,
    /// The apply call's request id (shared by the actions of one apply).
    pub request_id: String,
    /// The operation.
    pub op: OpType,
    /// The item's kind.
    pub kind: ItemKind,
    /// The item's id.
    pub item_id: String,
    /// The item before, as JSON ([`PlannerItem`]); absent for creations.
    pub before_json: Option<String>,
    /// The item after, as JSON; absent for deletions.
    pub after_json: Option<String>,
    /// When (Unix ms).
    pub at_ms: i64,
}

/// One applied operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct AppliedOp {
    /// Position in the list.
    pub index: u32,
    /// The operation.
    pub op: OpType,
    /// The item's kind.
    pub kind: ItemKind,
    /// The item's id (newly assigned for creations).
    pub id: String,
}

/// The result of applying a list of operations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ApplyResult {
    /// This apply's request id (in every audit entry it wrote).
    pub request_id: String,
    /// What was done, in order.
    pub applied: Vec<AppliedOp>,
    /// Deterministic repairs made before applying (see [`OpCheck::repairs`]), as `index: repair`.
    pub repairs: Vec<String>,
    /// True when this is the stored response of an earlier call with the same idempotency key and
    /// the same operations; nothing was applied again.
    pub replayed: bool,
}

/// How [`crate::Coach`] handles a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "lowercase")]
pub enum AssistantMode {
    /// Propose operations, validate and repair them, summarise (the default).
    Plan,
    /// Answer in text only; no operations.
    Chat,
    /// Let the router choose between clarify, chat and plan.
    Auto,
}

/// The router's choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "lowercase")]
pub enum RouteDecision {
    /// Answer in text.
    Chat,
    /// Propose operations.
    Plan,
    /// Ask the user a question first.
    Clarify,
}

/// The router's output in auto mode, after the library applied its thresholds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct Route {
    /// The final decision (after thresholds).
    pub decision: RouteDecision,
    /// What the model proposed before thresholds.
    pub model_decision: RouteDecision,
    /// A short category, e.g. `schedule`, `complete`, `question`.
    pub category: String,
    /// Things the message mentions (titles, dates).
    pub entities: Vec<String>,
    /// What the model says is missing to act.
    pub missing: Vec<String>,
    /// The model's confidence, 0 to 1.
    pub confidence: f64,
    /// The question to ask when clarifying.
    pub question: Option<String>,
}

/// One choice offered with a clarifying question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ClarifyOption {
    /// The item's id.
    pub id: String,
    /// The item's kind.
    pub kind: ItemKind,
    /// Its title.
    pub title: String,
    /// Its date, if any.
    pub scheduled_for: Option<String>,
}

/// A clarifying question with ranked options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct Clarification {
    /// The question for the user.
    pub question: String,
    /// Candidate items, best match first.
    pub options: Vec<ClarifyOption>,
}

/// The user's answer to a clarifying question, sent with the follow-up message.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct ClarifySelection {
    /// The chosen options' ids.
    #[serde(default)]
    #[uniffi(default = [])]
    pub ids: Vec<String>,
    /// A chosen date (`YYYY-MM-DD`).
    #[serde(default)]
    #[uniffi(default = None)]
    pub date: Option<String>,
    /// A chosen priority.
    #[serde(default)]
    #[uniffi(default = None)]
    pub priority: Option<Priority>,
}

/// A message to the assistant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct AssistantRequest {
    /// What the user wrote.
    pub message: String,
    /// How to handle it.
    #[serde(default = "default_mode")]
    pub mode: AssistantMode,
    /// The answer to a previous clarifying question, if this message follows one.
    #[serde(default)]
    #[uniffi(default = None)]
    pub selection: Option<ClarifySelection>,
    /// The user's local date (`YYYY-MM-DD`); absent uses the device clock's UTC date.
    #[serde(default)]
    #[uniffi(default = None)]
    pub today: Option<String>,
    /// The message's language as a BCP 47 tag (`"de-DE"`, `"fr"`, `"es-MX"`), per message:
    /// dates, times, references and questions are read in it, and summaries, answers and
    /// clarifying questions are written in it. English, German, French and Spanish are read;
    /// another tag (or none) is read as English. The result's `readingLanguage` says which.
    #[serde(default)]
    #[uniffi(default = None)]
    pub language: Option<String>,
}

fn default_mode() -> AssistantMode {
    AssistantMode::Plan
}

/// A pipeline stage, reported as it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "lowercase")]
pub enum AssistantStage {
    /// Auto mode: deciding between clarify, chat and plan.
    Routing,
    /// Asking the model for operations.
    Proposing,
    /// Checking them.
    Validating,
    /// Repairing invalid ones.
    Repairing,
    /// Writing the summary.
    Summarizing,
}

impl AssistantStage {
    /// The stage's name as the events' JSON spells it (`routing`, `proposing`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            AssistantStage::Routing => "routing",
            AssistantStage::Proposing => "proposing",
            AssistantStage::Validating => "validating",
            AssistantStage::Repairing => "repairing",
            AssistantStage::Summarizing => "summarizing",
        }
    }
}

/// Where the summary came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, uniffi::Enum)]
#[serde(rename_all = "lowercase")]
pub enum SummarySource {
    /// Written by the model (cleaned of markup).
    Model,
    /// Built by the library's rules: from the operations (the model failed, is absent, or the
    /// message is not in English), a code-made answer to a question about the planner, or a
    /// code-made reply replacing an unusable chat answer.
    Rules,
}

/// The outcome of one message. Nothing has been applied: the app shows `operations` and calls
/// `apply` with the ones the user confirms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct AssistantResult {
    /// An id for this exchange (also in the library's log lines).
    pub request_id: String,
    /// What was done: plan, chat or clarify.
    pub decision: RouteDecision,
    /// The router's output (auto mode only).
    pub route: Option<Route>,
    /// Valid operations, ready to apply.
    pub operations: Vec<PlannerOperation>,
    /// Proposed operations that stayed invalid after repair, with the reasons.
    pub invalid: Vec<OpCheck>,
    /// The summary (plan), the answer (chat), or the text of [`Self::answer`].
    pub summary: Option<String>,
    /// Where the summary came from.
    pub summary_source: Option<SummarySource>,
    /// The question to show (clarify).
    pub clarification: Option<Clarification>,
    /// The answer to a question about the planner ("what do I have on Thursday?"), written by
    /// code from the stored items; its text is also the `summary`.
    pub answer: Option<PlannerAnswer>,
    /// The language the message was read in (`en`, `de`, `fr`, `es`): the request's
    /// `language` when the library reads it, else `en`.
    pub reading_language: String,
}

/// An answer to a question about the planner, made by code from the stored items.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct PlannerAnswer {
    /// The answer in the message's language (also sent as the `summary` event).
    pub text: String,
    /// The items the answer names, in the order the text names them, for the app to show.
    pub items: Vec<AnswerItem>,
}

/// An item an answer names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Record)]
#[serde(rename_all = "camelCase")]
pub struct AnswerItem {
    /// The item's id.
    pub id: String,
    /// Its kind.
    pub kind: ItemKind,
    /// Its title.
    pub title: String,
    /// The date the answer is about (`YYYY-MM-DD`): the occurrence's date for a repeating item.
    pub scheduled_for: Option<String>,
    /// Its time of day (`HH:MM`), if it has one.
    pub time_of_day: Option<String>,
}

/// An event of a running message, in the spec's order: `stage`s, then `clarify` or `ops`, then
/// `summary`, `result`, and always `done` last. `heartbeat` comes periodically while the model
/// works. The chat path (chat mode, and small talk in auto mode) sends `textDelta`s as the model
/// writes the answer, then `summary` and `done`; a question about the planner answered by code
/// sends `summary`, `result` (with its `answer`) and `done`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, uniffi::Enum)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum AssistantEvent {
    /// A stage started.
    Stage {
        /// Which.
        stage: AssistantStage,
    },
    /// The assistant needs an answer first.
    Clarify {
        /// The question and options.
        clarification: Clarification,
    },
    /// The validated (and repaired) proposal.
    Ops {
        /// The operations format version ([`OPS_VERSION`](super::OPS_VERSION)).
        version: u32,
        /// The valid operations.
        operations: Vec<PlannerOperation>,
        /// How many are valid.
        #[serde(rename = "validCount")]
        valid_count: u32,
        /// How many were dropped as invalid.
        #[serde(rename = "invalidCount")]
        invalid_count: u32,
    },
    /// A piece of the chat answer as the model writes it (chat and small talk only: a plan's
    /// JSON and its summary are never streamed). Append it to the text on screen. The pieces are
    /// the model's raw text (markup not yet removed) and never split a character. The `summary`
    /// that follows is authoritative: replace the streamed text with it. After an error (no
    /// `summary`, then `done`) the streamed text is no answer: remove it.
    #[serde(rename = "textDelta")]
    TextDelta {
        /// The new text.
        text: String,
    },
    /// The summary or chat answer.
    Summary {
        /// Plain text.
        text: String,
    },
    /// The final result.
    Result {
        /// Everything.
        result: AssistantResult,
    },
    /// Still working.
    Heartbeat,
    /// The last event of every message, successful or not.
    Done,
}
