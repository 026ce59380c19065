//! Why a controller chose its command: the options it weighed, with their score components. The
//! AI fills these in; the client and `run --explain` show them to a GM. They live beside the
//! battle so that screens can show them without depending on the AI.

use super::types::CreatureId;
use bevy::prelude::*;

/// One option weighed, with its score components.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OptionScore {
    pub summary: String,
    pub expected_dealt: f64,
    pub expected_taken: f64,
    pub rear_attack: bool,
    pub rear_exposed: bool,
    pub cover: bool,
    pub ap_kept: i32,
    pub total: f64,
}

/// Why a decision was made: its top options, best first.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Explanation {
    pub creature: CreatureId,
    pub options: Vec<OptionScore>,
}

/// Every decision that weighed options, as it is made.
#[derive(Message, Clone, Debug)]
pub struct AiExplained(pub Explanation);

/// Explanations collected when present: (log length when decided, explanation).
#[derive(Resource, Clone, Debug, Default)]
pub struct Explanations(pub Vec<(usize, Explanation)>);
