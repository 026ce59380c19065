//! Action costs and creature defaults that the battle engine and the AI share (TIME-17,
//! CRE-14, MOVE-E9, PERC-1, MOVE-E4).

/// CRE-14: a new character's maximum AP, "the level of a mortal".
pub const DEFAULT_MAX_AP: i32 = 3;
/// TIME-17 / MOVE-1: one move.
pub const MOVE_AP: i32 = 1;
/// TIME-17 / ATK-11: defending against one attack (all its segments, ATK-E3).
pub const DEFEND_AP: i32 = 1;
/// TIME-17 / FACE-2: changing facing in one's own turn.
pub const FACE_AP: i32 = 0;
/// TIME-17 / PERC-7: investigate or search.
pub const SEARCH_AP: i32 = 3;
/// TIME-17 / MOVE-13: lift or put down an object or creature.
pub const LIFT_AP: i32 = 3;
/// TIME-17 / FLOW-5: attempt to flee.
pub const FLEE_AP: i32 = 3;
/// PERC-E4 (Engine decision): hiding.
pub const HIDE_AP: i32 = 1;
/// TIME-17 Variants: dropping an item costs 1 AP; letting go of a hand-held weapon costs 0.
pub fn drop_item_ap(hand_held_weapon: bool) -> i32 {
    if hand_held_weapon { 0 } else { 1 }
}

/// MOVE-E9 (Engine decision): ground speed of a Medium humanoid when data gives none.
pub const DEFAULT_GROUND_SPEED: i32 = 3;

/// MOVE-1: a movement mode marked "-" halves the speed (fraction dropped, GEN-3).
pub fn mode_speed(speed: i32, minus: bool) -> i32 {
    if minus { speed / 2 } else { speed }
}

/// PERC-1: a sense marked "-" has its range halved.
pub fn sense_range(range: i32, minus: bool) -> i32 {
    if minus { range / 2 } else { range }
}

/// PERC-E5 (Engine decision): placeholder hearing range, from D&D's 30 ft.
pub const DEFAULT_HEARING_RANGE: i32 = 12;

/// SPACE-4: "within N steps" means the nearest distance is ≤ N.
pub fn within(distance: i32, n: i32) -> bool {
    distance <= n
}

/// DICE-1 / DICE-5: the count is worked out first ("4+3 dice" = 7); the roller may roll fewer
/// (never more) dice than available, and 0 forfeits the roll.
pub fn dice_to_roll(base: i32, modifiers: &[i32], hold_back_to: Option<i32>) -> i32 {
    let available = base + modifiers.iter().sum::<i32>();
    match hold_back_to {
        Some(n) => n.clamp(0, available.max(0)),
        None => available,
    }
}

/// MOVE-10 / MOVE-E4 (Engine decision): dice of the physical attack from a drop of `drop`
/// steps for a body `height` steps tall: 3 × floor(drop ÷ height) when the drop exceeds it.
pub fn fall_dice(drop: i32, height: i32) -> i32 {
    let height = height.max(1);
    if drop > height { 3 * (drop / height) } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    // RULES: TIME-17, CRE-14 — the quick-reference costs.
    #[test]
    fn time_17_quick_reference_costs() {
        assert_eq!((MOVE_AP, DEFEND_AP, FACE_AP, SEARCH_AP, LIFT_AP, FLEE_AP, DEFAULT_MAX_AP), (1, 1, 0, 3, 3, 3, 3));
        assert_eq!(drop_item_ap(false), 1);
        assert_eq!(drop_item_ap(true), 0);
    }

    // RULES: MOVE-1, MOVE-E9, PERC-1 — "-" halves speed and sense range; default speed 3.
    #[test]
    fn move_e9_default_speed_and_minus_modes() {
        assert_eq!(DEFAULT_GROUND_SPEED, 3);
        assert_eq!(mode_speed(DEFAULT_GROUND_SPEED, true), 1);
        assert_eq!(mode_speed(4, false), 4);
        assert_eq!(sense_range(DEFAULT_HEARING_RANGE, true), 6);
    }

    // RULES: SPACE-4
    #[test]
    fn space_4_within() {
        assert!(within(3, 3));
        assert!(!within(4, 3));
    }

    // RULES: DICE-1, DICE-5 — count first; hold back but never add; 0 forfeits.
    #[test]
    fn dice_5_holding_back() {
        assert_eq!(dice_to_roll(4, &[3], None), 7);
        assert_eq!(dice_to_roll(4, &[3, -2], Some(3)), 3);
        assert_eq!(dice_to_roll(4, &[], Some(9)), 4);
        assert_eq!(dice_to_roll(2, &[-3], None), -1);
        assert_eq!(dice_to_roll(2, &[], Some(0)), 0);
    }

    // RULES: MOVE-10, MOVE-E4 — 3 × floor(h/H) dice when the drop exceeds body height.
    #[test]
    fn move_e4_fall_dice() {
        assert_eq!(fall_dice(2, 2), 0);
        assert_eq!(fall_dice(3, 2), 3);
        assert_eq!(fall_dice(4, 2), 6);
        assert_eq!(fall_dice(7, 2), 9);
    }
}
