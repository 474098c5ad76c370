//! The rules of amazons (work in progress).
