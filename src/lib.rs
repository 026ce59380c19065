//! Meshal Tactics: a tactical grid game for the Meshal Lite rules.

pub mod ai;
pub mod app;
pub mod balance;
pub mod battle;
pub mod client;
pub mod files;
pub mod level;
pub mod rules;
