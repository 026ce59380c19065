//! The Meshal Lite rules as pure, deterministic functions over plain data.
//!
//! Nothing here touches the ECS: the battle engine, the AI (millions of calls per decision) and the
//! `rules` calculator CLI all call straight into these functions. Rule IDs refer to
//! `../shared/RULES.md`; "Engine decision" comments mark where the seeds leave a choice open and the
//! digest's proposal was followed.

pub mod area;
pub mod attack;
pub mod costs;
pub mod creature;
pub mod dice;
pub mod facing;
pub mod fate;
pub mod flow;
pub mod forced;
pub mod grid;
pub mod hazard;
pub mod initiative;
pub mod items;
mod line_memo;
pub mod los;
pub mod movement;
pub mod objects;
pub mod passage;
pub mod posture;
pub mod ruleset;
pub mod seconds;
pub mod senses;
pub mod view_memo;

pub use ruleset::Ruleset;
