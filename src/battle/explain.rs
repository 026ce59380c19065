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
    /// What a look-ahead played out, when the profile looks ahead.
    pub look_ahead: Option<LookAheadReport>,
}

/// A look-ahead's account: each first command it played out, the dice its side expects to
/// keep over the opponents' after their replies (mean of `playouts`), and what it saw them do.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LookAheadReport {
    pub playouts: u32,
    /// The play-outs the profile asks for: more than `playouts` when the work budget ran out
    /// first (a large field, many creatures).
    pub planned: u32,
    /// The work the play-outs did, in creatures weighed (`ai::LOOK_AHEAD_WORK_BUDGET`).
    pub work: u64,
    /// How many rounds each play-out ran (to the creature's next turn: 1).
    pub rounds: u32,
    /// (the command, mean dice ahead after the replies, the replies in the first play-out).
    pub candidates: Vec<(String, f64, String)>,
    /// Index of the command chosen; 0 is the planner's own choice.
    pub chosen: usize,
}

/// Every decision that weighed options, as it is made.
#[derive(Message, Clone, Debug)]
pub struct AiExplained(pub Explanation);

/// Explanations collected when present: (log length when decided, explanation).
#[derive(Resource, Clone, Debug, Default)]
pub struct Explanations(pub Vec<(usize, Explanation)>);

impl LookAheadReport {
    /// The account in sentences: what it played out, what it expects in reply, and whether
    /// that changed the planner's choice.
    pub fn lines(&self) -> Vec<String> {
        if self.playouts == 0 && self.work > 0 {
            return vec![
                "did not look ahead: its first round of play-outs ran past twice its work budget and was stopped; kept the planner's choice".into(),
            ];
        }
        if self.playouts == 0 {
            return vec![
                "did not look ahead: on a field of so many creatures one round of its play-outs would take over half its work budget; kept the planner's choice".into(),
            ];
        }
        let horizon = match self.rounds {
            0 | 1 => "to its next turn".to_string(),
            2 => "over 2 rounds, to its turn after next".to_string(),
            n => format!("over {n} rounds, to its turn {n} rounds on"),
        };
        let count = if self.playouts < self.planned {
            format!("{} of {} play-outs each, the rest over its work budget", self.playouts, self.planned)
        } else {
            format!("{} play-outs each", self.playouts)
        };
        let mut lines = vec![format!("looked ahead ({count}, {horizon}):")];
        for (i, (command, ahead, replies)) in self.candidates.iter().enumerate() {
            let mark = if i == self.chosen { "*" } else { " " };
            lines.push(format!("{mark} {command}: {ahead:+.1} dice ahead after the replies ({replies})"));
        }
        lines.push(match (self.chosen, self.candidates.first(), self.candidates.get(self.chosen)) {
            (0, _, _) if self.playouts < 2 && self.planned >= 2 => {
                "kept the planner's choice: its work budget allowed one play-out each, too few to judge".into()
            }
            (0, _, _) => "kept the planner's choice: no other did clearly better".into(),
            (_, Some(planned), Some(chosen)) => format!(
                "changed its mind: {} keeps {:.1} dice more than {} once the opponents reply",
                chosen.0,
                chosen.1 - planned.1,
                planned.0
            ),
            _ => String::new(),
        });
        lines
    }
}
