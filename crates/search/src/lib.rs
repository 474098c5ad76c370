//! Generic game-tree search (work in progress).
