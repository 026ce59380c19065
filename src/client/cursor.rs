//! Play by keyboard alone: the arrows move a cursor over the grid (the same square a mouse
//! would hover, so every overlay and the panel's odds follow it), Tab cycles through the
//! enemies the side perceives, nearest first (or, answering an attack, the squares a Quick
//! Step reaches), and Enter confirms at the cursor as a click would. Moving the mouse hands
//! the cursor back to it.

use super::Viewer;
use super::input::Hover;
use crate::battle::ActiveBattle;
use crate::rules::grid::Pos;
use bevy::prelude::*;

pub fn steer_cursor(
    keys: Res<ButtonInput<KeyCode>>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    mut hover: ResMut<Hover>,
    mut tab: Local<TabCycle>,
) {
    if hover.pinned {
        return;
    }
    let b = &battle.battle;
    // Each new turn or reaction window starts the cycle again from the nearest choice.
    let awaiting = b.awaiting();
    if tab.awaiting != awaiting {
        *tab = TabCycle { awaiting, next: 0 };
    }
    // The cursor starts on the creature in turn (the viewer's own, or its first standing one).
    let home = || {
        b.awaiting()
            .map(|(c, _)| c)
            .filter(|&c| b.fighter(c).side == viewer.side)
            .or_else(|| b.creatures().iter().find(|c| c.side == viewer.side && c.can_act()).map(|c| c.id))
            .map(|c| b.fighter(c).origin)
            .unwrap_or(Pos::new(0, 0))
    };
    let mut step = IVec2::ZERO;
    for (key, d) in [
        (KeyCode::ArrowUp, IVec2::Y),
        (KeyCode::ArrowDown, -IVec2::Y),
        (KeyCode::ArrowLeft, -IVec2::X),
        (KeyCode::ArrowRight, IVec2::X),
    ] {
        if keys.just_pressed(key) {
            step += d;
        }
    }
    if step != IVec2::ZERO {
        let from = hover.square.unwrap_or_else(home);
        let to = Pos::new(from.x + step.x, from.y + step.y);
        let to = if b.map().in_bounds(to) { to } else { from };
        hover.square = Some(to);
        hover.keyboard = true;
    }
    // TIME-14: answering an attack with a Quick Step, Tab goes through the squares it can step
    // to, those that make the attack miss first (Enter steps there).
    let stepping = b
        .awaiting()
        .filter(|(c, w)| *w == Some(crate::battle::WindowKind::BeforeAttack) && b.fighter(*c).side == viewer.side)
        .map(|_| b.quick_step_options())
        .filter(|o| !o.is_empty());
    if keys.just_pressed(KeyCode::Tab)
        && let Some(mut options) = stepping
    {
        options.sort_by_key(|o| (!o.cancels, o.to));
        hover.square = Some(options[tab.advance(options.len())].to);
        hover.keyboard = true;
    } else if keys.just_pressed(KeyCode::Tab) {
        let from = home();
        let mut foes: Vec<(i32, Pos)> = b
            .perceived_hostiles(viewer.side)
            .into_iter()
            .map(|e| b.fighter(e))
            .filter(|e| e.can_act())
            .map(|e| (crate::rules::grid::distance(from, e.origin), e.origin))
            .collect();
        foes.sort();
        if !foes.is_empty() {
            hover.square = Some(foes[tab.advance(foes.len())].1);
            hover.keyboard = true;
        }
    }
}

/// Where Tab is in its cycle, and for which turn or reaction window.
#[derive(Default)]
pub struct TabCycle {
    awaiting: Option<(crate::battle::CreatureId, Option<crate::battle::WindowKind>)>,
    next: usize,
}

impl TabCycle {
    /// The index this press picks among `len` choices (nearest first), and moves on.
    fn advance(&mut self, len: usize) -> usize {
        let picked = self.next % len;
        self.next = picked + 1;
        picked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::{Battle, Controller};
    use crate::level::{builtin_compendium, parse_level};

    fn app() -> App {
        let l = parse_level("duel", include_str!("../../levels/duel.level.ron"), builtin_compendium()).unwrap();
        let battle = Battle::new(&l, builtin_compendium(), 2).unwrap();
        let controllers = vec![Controller::Human, Controller::Ai];
        let mut app = App::new();
        app.insert_resource(ActiveBattle::new(battle, controllers))
            .insert_resource(Viewer { side: 0, plays: true, omniscient: false })
            .init_resource::<Hover>()
            .init_resource::<ButtonInput<KeyCode>>()
            .add_systems(Update, steer_cursor);
        app
    }

    fn press(app: &mut App, key: KeyCode) -> Option<Pos> {
        app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(key);
        app.update();
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.release(key);
        keys.clear();
        app.world().resource::<Hover>().square
    }

    // Keyboard alone: the arrows walk the cursor square by square from the creature in turn,
    // never off the map; Tab jumps to the perceived enemies, nearest first, and round again.
    #[test]
    fn arrows_and_tab_steer_the_cursor() {
        let mut app = app();
        let b = &app.world().resource::<ActiveBattle>().battle;
        let (me, _) = b.awaiting().unwrap();
        let start = b.fighter(me).origin;
        assert_eq!(b.fighter(me).side, 0, "Blue's duelist acts first with seed 2");
        assert_eq!(press(&mut app, KeyCode::ArrowRight), Some(Pos::new(start.x + 1, start.y)));
        assert_eq!(press(&mut app, KeyCode::ArrowUp), Some(Pos::new(start.x + 1, start.y + 1)));
        assert!(app.world().resource::<Hover>().keyboard, "the keyboard holds the cursor");
        for _ in 0..40 {
            press(&mut app, KeyCode::ArrowLeft);
        }
        assert_eq!(press(&mut app, KeyCode::ArrowLeft).map(|p| p.x), Some(0), "stops at the map's edge");
        let mut foes = [Pos::new(9, 3), Pos::new(9, 4)].map(|p| (crate::rules::grid::distance(start, p), p));
        foes.sort();
        let [nearest, farther] = foes.map(|(_, p)| p);
        assert_eq!(press(&mut app, KeyCode::Tab), Some(nearest), "the first press picks the nearest foe");
        assert_eq!(press(&mut app, KeyCode::Tab), Some(farther));
        assert_eq!(press(&mut app, KeyCode::Tab), Some(nearest), "round again");
        // A new turn starts the cycle again at the nearest foe, wherever the last one left it.
        let mut battle = app.world_mut().resource_mut::<ActiveBattle>();
        battle.battle.submit(me, crate::battle::Command::EndTurn).unwrap();
        let b = &battle.battle;
        let (next, _) = b.awaiting().unwrap();
        assert_eq!(b.fighter(next).side, 1, "Red acts next with seed 2; the cursor's home is Blue's first creature");
        let from = b.fighter(0).origin;
        let mut foes: Vec<_> = b
            .perceived_hostiles(0)
            .into_iter()
            .map(|e| (crate::rules::grid::distance(from, b.fighter(e).origin), b.fighter(e).origin))
            .collect();
        foes.sort();
        assert_eq!(foes.len(), 2);
        assert_eq!(press(&mut app, KeyCode::Tab), Some(foes[0].1), "the next turn's first press: the nearest again");
    }
}
