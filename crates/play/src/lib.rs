//! Terminal play (work in progress).
