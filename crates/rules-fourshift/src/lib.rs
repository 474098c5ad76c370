//! The rules of fourshift (work in progress).
