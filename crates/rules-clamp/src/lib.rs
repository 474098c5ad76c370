//! The rules of clamp (work in progress).
