//! The rules of gomoku (work in progress).
