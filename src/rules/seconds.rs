//! The v7 seconds timing mode (TIME-S1…S7) and TIME-E11's conversion of Meshal's AP costs
//! into it. Pure arithmetic; the battle's clock per creature lives in `battle/seconds.rs`.

use super::costs::DEFAULT_MAX_AP;

/// Engine decision (TIME-E11 counts 1 AP as 1 second): a round of the AP model is as many
/// seconds as a mortal's maximum AP (CRE-14). Whatever the rules do once a round or at the
/// start of a turn (round limits, streaks, hazards, a fall's lost AP, hide points) happens
/// once every `SECONDS_PER_ROUND` seconds, at a round's first second, so a level's
/// `max_rounds` and every duration in rounds keep their meaning in both modes.
pub const SECONDS_PER_ROUND: u32 = DEFAULT_MAX_AP as u32;

/// How an AP cost is paid (TIME-E11 names the three kinds of cost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostKind {
    /// "N AP tactical": an action in one's own slot.
    Tactical,
    /// "N AP additive": rides on another action (TIME-S6).
    Additive,
    /// "N AP reaction": made during someone else's action.
    Reaction,
}

/// What a cost becomes in seconds (TIME-E11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// TIME-S5: shorter than a second; any number while free.
    Instant,
    /// TIME-S2: `[Action N]`.
    Action(i32),
    /// TIME-S6: N seconds added to the action it rides on.
    Along(i32),
    /// TIME-E11: a reaction is an instant followed by `[Gap N]` (TIME-S3).
    InstantThenGap(i32),
}

/// TIME-E11: "N AP tactical" → `[Action N]`, "0 AP" → instant, "N AP additive" → along +N,
/// "N AP reaction" → an instant followed by `[Gap N]`.
pub fn convert(ap: i32, kind: CostKind) -> Timing {
    match (ap.max(0), kind) {
        (0, _) => Timing::Instant,
        (n, CostKind::Tactical) => Timing::Action(n),
        (n, CostKind::Additive) => Timing::Along(n),
        (n, CostKind::Reaction) => Timing::InstantThenGap(n),
    }
}

/// TIME-S2 with TIME-S6: the seconds of an action with its along actions (they add up; an
/// instant that gains along time stops being instant).
pub fn action_seconds(action: Timing, along: &[Timing]) -> i32 {
    let base = match action {
        Timing::Action(n) | Timing::Along(n) => n,
        Timing::Instant | Timing::InstantThenGap(_) => 0,
    };
    base + along.iter().map(|t| if let Timing::Along(n) = t { *n } else { 0 }).sum::<i32>()
}

/// TIME-S1, TIME-S3: the second in which a creature may act again after starting an action of
/// `action` seconds in second `started`, followed by a gap of `gap` seconds ("[Action 1][Gap 2]"
/// made in second 1 lets one act again in second 4).
pub fn acts_again_in(started: u32, action: u32, gap: u32) -> u32 {
    started + action.max(1) + gap
}

/// TIME-S3 with TIME-E11: Activeness dice a creature gives up to cut `seconds` off its gap (1
/// fatigue per second, 1 die per fatigue; removed like damage, unpreventable).
pub fn fatigue_dice(seconds: i32) -> i32 {
    seconds.max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_e11_costs_convert() {
        // RULES: TIME-E11 — tactical → action, 0 → instant, additive → along, reaction → gap.
        assert_eq!(convert(2, CostKind::Tactical), Timing::Action(2));
        assert_eq!(convert(0, CostKind::Tactical), Timing::Instant);
        assert_eq!(convert(0, CostKind::Reaction), Timing::Instant);
        assert_eq!(convert(1, CostKind::Additive), Timing::Along(1));
        assert_eq!(convert(1, CostKind::Reaction), Timing::InstantThenGap(1));
        assert_eq!(convert(3, CostKind::Reaction), Timing::InstantThenGap(3));
    }

    #[test]
    fn time_s6_along_adds_seconds() {
        // RULES: TIME-S6 — "melee attack + [Action 1]": along seconds add up on the action.
        let strike = convert(2, CostKind::Tactical);
        assert_eq!(action_seconds(strike, &[]), 2);
        assert_eq!(action_seconds(strike, &[Timing::Along(1), Timing::Along(1)]), 4);
        // An instant that gains along time stops being instant.
        assert_eq!(action_seconds(Timing::Instant, &[Timing::Along(1)]), 1);
    }

    #[test]
    fn time_s3_source_example() {
        // RULES: TIME-S3 — "[Action 1][Gap 2]" made in second 1 lets you act again in second 4.
        assert_eq!(acts_again_in(1, 1, 2), 4);
        assert_eq!(acts_again_in(1, 3, 0), 4);
        // RULES: TIME-E11 — fatigue is 1 Activeness die per second cut.
        assert_eq!(fatigue_dice(2), 2);
    }
}
