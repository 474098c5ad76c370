//! The rules of connect6 (work in progress).
