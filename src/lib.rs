//! Meshal Tactics: a tactical grid game for the Meshal Lite rules.

pub mod level;
pub mod rules;
