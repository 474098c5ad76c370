//! Engine protocols (work in progress).
