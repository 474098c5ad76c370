//! Reusable evaluators (work in progress).
