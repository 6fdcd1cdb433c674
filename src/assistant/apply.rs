//! Dry-run, apply and the planner reads: the part of the assistant that uses the store.
//! (Stub: being written.)
