//! The message pipeline of spec 002: route (auto mode), propose, validate, repair, summarise,
//! streaming events to an [`EventSink`]. It only proposes: nothing is written to the database; the
//! app applies what the user confirms with `apply`.
//!
//! ## Paths and events
//! Every message ends with exactly one `done`, the last event, on success, error and
//! cancellation alike. `heartbeat` events come every [`AssistantSettings::heartbeat_ms`] while a
//! model call runs, on every path (they are keep-alives, not content), and never after `done`.
//!
//! | path | events |
//! |---|---|
//! | plan mode, or auto routed to plan | (`stage routing`) `stage proposing`, `stage validating`, (`stage repairing`), `ops`, `stage summarizing`, `summary`, `result`, `done` |
//! | auto routed to clarify | `stage routing`, `clarify`, `result`, `done` |
//! | a question about the planner, any mode | `summary`, `result` (decision `chat`, with `answer`), `done`: answered by code, no model call |
//! | the reading asks back (plan or auto mode; no model needed) | `clarify`, `result`, `done` |
//! | the full proposal asks back (past its time budget with nothing valid, or no change the message mentions left) | `stage proposing`, (`stage validating`), `clarify`, `result`, `done` |
//! | chat mode, or auto routed to chat (small talk) | (`stage routing`) `textDelta`s, `summary`, `done` (no `result`: the chat path sends only deltas, summary and done) |
//! | any error or cancellation | the events so far, then `done`; the call returns the error |
//!
//! `stage routing` is sent in auto mode only. `stage repairing` is sent only when something was
//! invalid after the deterministic repairs (or the answer held no operation list).
//!
//! Streaming: the chat answer's text arrives as `textDelta` events while the model writes it
//! ([`generate_with_deltas`]: whole characters, in order; a model that cannot stream gives one
//! delta with its whole text). They are the model's raw text; the `summary` event after them is
//! the cleaned answer and authoritative (the app replaces the streamed text with it). A chat call
//! that fails after streaming sends no `summary`: the deltas so far, then `done`. Calls under a
//! JSON Schema (router, proposal, narrowed question) and the plan path's summary do not stream.
//! Events reach the sink one at a time, also while heartbeats and deltas come from helper threads.
//!
//! ## Questions about the planner
//! Before anything else, a message the question reader takes as a question about the planner
//! ([`read_question`]: what is on a day or range, what is left, when an item is, whether it is
//! done, what is overdue, how busy a week is) is answered by code from the stored items
//! ([`apply::answer_items`]: open and repeating items with their completions, and the done ones
//! of the last three months and the next year) in the request's language ([`answer`]), in every
//! mode: `result.answer` holds the text and the items it names, `summary` the same text
//! (`summarySource` `rules`), `decision` is `chat` (an answer in text; the app may show the
//! answer's items), no operation, no model call. Not with a [`ClarifySelection`] (that plans)
//! nor with [`AssistantSettings::narrow`] off (every message then goes to the model).
//!
//! ## Modes
//! - **plan** (default): propose, validate, repair, summarise.
//! - **chat**: small talk (a question about the planner is answered by code, above): one model
//!   call of at most [`AssistantSettings::chat_max_tokens`] (64) tokens and
//!   [`AssistantSettings::chat_timeout_ms`] (3 s), answering in plain text (streamed as `textDelta`s, then cleaned like a
//!   summary, at most [`MAX_CHAT_CHARS`] characters); no operations. A reply that repeats its
//!   prompt ([`summary::repeats_prompt`]: a line of the planner listing, or 40 characters in a
//!   row of the prompt), or a call past its time limit, is replaced by a code-made one: the
//!   answer to a question about the planner when the message is one, else a short reply in the
//!   request's language (thanks, a greeting, or what the assistant can do); `summarySource` is
//!   then `rules`.
//! - **auto**: the router decides (see [`super::router`] for the thresholds). A router that fails
//!   (unreadable after [`AssistantSettings::router_attempts`] generations, or a model error other
//!   than cancellation) falls back to plan with `route: None`, and the failure is logged.
//! - A message carrying a non-empty [`ClarifySelection`] in plan or auto mode skips the router and
//!   plans, with a seeded `where` in the proposal prompt: the selected items (looked up by id; ids
//!   that match nothing are ignored), the chosen date and priority. In chat mode the selection is
//!   ignored. An empty selection (no ids, date or priority) counts as none.
//!
//! ## Context grounding
//! The prompts carry the Monday-to-Sunday week of `today` (items not completed, from
//! [`apply::week`]), a backlog sample ([`apply::backlog`], [`AssistantSettings::backlog_limit`]
//! todos) and open goals. Items are named by short aliases (`t1`, `e2`, `h1`, `g3` for todos,
//! events, habits, goals) instead of their UUIDs, which small models copy badly; the aliases in the
//! model's operations (`id`, `childId`, `children`, `items[].id`, `item.id`) are mapped back to the
//! real ids before shaping, and real ids are accepted as they are. The context is trimmed to fit
//! the model's context window: [`ModelInfo::context_tokens`] minus the answer's `max_tokens` and
//! a margin, at [`CHARS_PER_TOKEN`] characters per token, minus the fixed prompt; the week takes
//! up to two thirds of it when the rest would not fit, and a line says how many entries were left
//! out. At most [`AssistantSettings::max_context_chars`] characters are used in any case.
//!
//! ## Proposal, validation and the repair pass
//! The proposal is grammar-constrained to `schemas/assistant-ops.json` (the spec's rules are in
//! `prompts/assistant.propose.md`), parsed with the shared extraction
//! ([`parse_model_json`]: think/response wrappers, fences, prose), shaped
//! ([`shape::shape_operations`]; a single operation object without the `operations` wrapper is
//! accepted as a list of one), and validated against the stored items
//! ([`apply::known_items`], [`validate::validate`], which makes the deterministic repairs).
//!
//! When any operation is still invalid, or the answer held no operation list, ONE model repair
//! pass follows (`stage repairing`): the invalid operations (as the model wrote them, with aliases)
//! and their issue messages (`prompts/assistant.repair.md`), or for an unreadable answer the parse
//! error ([`repair_prompt`]), after the first answer (its JSON, at most
//! [`MAX_REPAIR_ANSWER_CHARS`] characters) in the chat; the context of this call is sized again so
//! that the longer chat still fits. The repaired answer is shaped and validated the same way. The
//! outcome, exactly:
//! - `operations` = the valid operations of the first pass, in order, then the valid repaired
//!   ones not equal to one already kept; at most [`MAX_OPERATIONS`]: the excess is reported in
//!   `invalid` with the code `too_many_operations`.
//! - The repaired list is paired by position with the first pass's invalid operations: repaired
//!   operation `i` replaces invalid operation `i`. An invalid operation whose replacement is
//!   invalid is reported with the replacement's check (its `index` set to the original's position);
//!   one left out of the repaired list (or all of them, when the repair call failed or its answer
//!   held no list) is reported with its first-pass check. Repaired operations beyond the number of
//!   invalid ones are extras: kept when valid, reported when invalid with `index` = the first
//!   list's length plus their position among the extras.
//! - `ops.validCount` = `operations.len()`, `ops.invalidCount` = `invalid.len()`.
//!
//! A model error on the proposal call ends the message with that error (a timeout past the time
//! budget below asks instead); on the repair call it is logged and the first pass's outcome
//! stands.
//!
//! ## Guards of the full proposal (issue 25)
//! - A change of an existing item (`update`, `goal_update`) keeps only the fields the message
//!   mentions (its reading, its words, a clarify selection's date and priority): a title, day,
//!   time, end, priority, notes or repeat the model changed without support is left out and the
//!   summary says so; a change left with nothing is dropped, and when nothing is left at all
//!   the result is a clarifying question about that item.
//! - The whole path (proposal, repair, summary) runs within
//!   [`AssistantSettings::proposal_budget_ms`] (default 4 s; each call's timeout is at most what
//!   is left): past it no repair and no model summary is asked, and with nothing valid the
//!   result is a clarifying question ("That took too long to work out ...") instead of minutes
//!   of generation.
//!
//! ## Summary
//! The model writes it in plain text (`prompts/assistant.summary.md`, given the rule-based clause
//! of each operation); [`summary::from_model`] strips markup, keeps only complete sentences of a
//! cut-off answer, drops repeated sentences and rejects an echo of the user's message. When the
//! model fails (other than cancellation) or nothing usable is left, the rule-based
//! [`summary::rule_summary`] is used and `summarySource` is `rules`. With no valid operation at
//! all the model is not asked (small models invent changes): the rules say "No changes
//! proposed." (and how many were invalid). A message in another language than English gets the
//! rule-based summary in its language ([`summary::rule_summary_in`]; the model writes English),
//! and so do the notes on what code corrected ([`code_wins::Repair`]).
//!
//! ## Errors
//! - No model: a question about the planner is still answered (every mode), and a message the
//!   deterministic reading understands still takes the narrowed path in plan and auto modes (the
//!   reading's defaults; the summary ends with "(Understood without the on-device model.)"), and
//!   so does a question the reading asks back. Everything else fails with
//!   `Error::InvalidArgument("no language model configured")` and only `done` is sent: chat mode,
//!   a clarify selection, `AssistantSettings::narrow` off, and a message the reading cannot build
//!   (the full proposal needs the model).
//! - A blank message without a selection, or a `today` that is not `YYYY-MM-DD`:
//!   `InvalidArgument`. Messages longer than [`MAX_MESSAGE_CHARS`] are cut.
//! - Cancellation (checked before each stage and inside every model call):
//!   `Error::Llm(LlmError::Cancelled)` (`CoachError::Cancelled`).
//! - Store failures, and model failures of the proposal and chat calls: returned as they are
//!   (a chat call past its time limit is no failure: a code-made reply replaces it).
//!   A chat answer with no text left after cleaning is `LlmError::InvalidOutput`.
//!
//! Log lines (target `coachcore::assistant`) carry the request id, stage, token counts,
//! durations and counts, never the user's text.
//!
//! ## Files
//! | file | concern |
//! |---|---|
//! | `message.rs` | the message pipeline: stages, events, model calls, cancellation |
//! | `message/plan.rs` | the plan path: proposal, checks, the one repair pass and its merge, summary |
//! | `apply.rs` | dry-run, apply, reads (the part that reads and writes the store) |
//!
//! The pure parts live beside this folder: [`grounding`](super::grounding) (aliases, context,
//! budget) and [`prompt`](super::prompt) (prompt builders, reading the proposal) for the
//! pipeline, [`changes`](super::changes) and [`week`](super::week) for apply and the reads.
//!
//! [`ClarifySelection`]: super::ClarifySelection
//! [`ModelInfo::context_tokens`]: crate::llm::ModelInfo::context_tokens
//! [`parse_model_json`]: crate::llm::extract::parse_model_json
//! [`shape::shape_operations`]: super::shape::shape_operations
//! [`validate::validate`]: super::validate::validate
//! [`repair_prompt`]: crate::llm::structured::repair_prompt
//! [`generate_with_deltas`]: crate::llm::stream::generate_with_deltas
//! [`MAX_OPERATIONS`]: super::MAX_OPERATIONS
//! [`summary::from_model`]: super::summary::from_model
//! [`summary::rule_summary`]: super::summary::rule_summary
//! [`summary::rule_summary_in`]: super::summary::rule_summary_in
//! [`summary::repeats_prompt`]: super::summary::repeats_prompt
//! [`code_wins::Repair`]: super::narrow::code_wins::Repair
//! [`read_question`]: super::reading::read_question
//! [`answer`]: super::answer::answer

pub mod apply;
mod message;

pub use super::grounding::{
    budget, render_context, seeded_where, today_label, Aliases, CHARS_PER_TOKEN,
    CONTEXT_MARGIN_TOKENS,
};
pub use super::prompt::{
    chat_prompt, propose_prompt, repair_message, summary_request, MAX_REPAIR_ANSWER_CHARS,
};
pub use message::{run_message, AssistantSettings, EventSink, MAX_CHAT_CHARS, MAX_MESSAGE_CHARS};
