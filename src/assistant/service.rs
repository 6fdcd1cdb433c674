//! (Stub: being written.)
