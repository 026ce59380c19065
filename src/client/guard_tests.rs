//! Keys and clicks that must not do more than the player meant: a defense key that is also a
//! pan key, an area shot that would cover nobody the side sees.

use super::Notice;
use super::input::Choice;
use super::play_tests::{FIELD, accepted, app, attacked_first, battle, click, key, key_message, log_len};
use crate::battle::{Command, Target};
use crate::rules::grid::Pos;
use bevy::prelude::*;

/// Hold `k` down for `frames` frames, then let it go.
fn hold(app: &mut App, k: KeyCode, frames: usize) {
    use bevy::input::ButtonState;
    app.world_mut().write_message(key_message(k, ButtonState::Pressed));
    for _ in 0..frames {
        std::thread::sleep(std::time::Duration::from_millis(2));
        app.update();
    }
    app.world_mut().write_message(key_message(k, ButtonState::Released));
    app.update();
}

// RULES: ATK-E3 — attacked, D dodges and leaves the map where it is (D also pans, WASD): the
// key held down past the answer pans only once let go; outside a window it pans.
#[test]
fn dodging_with_d_does_not_pan_the_map() {
    let level = attacked_first();
    let camera_at = |app: &mut App| {
        let mut q = app.world_mut().query_filtered::<&Transform, With<Camera2d>>();
        q.single(app.world()).unwrap().translation
    };
    let (mut dodged, mut panned) = (0, 0);
    for seed in 0..20 {
        let mut app = app(&level, seed);
        app.world_mut().spawn(Camera2d);
        let b = battle(&mut app);
        b.submit(1, Command::Attack { weapon: "sword".into(), target: Target::Creature(0), additives: vec![] })
            .unwrap();
        if b.awaiting() == Some((0, Some(crate::battle::WindowKind::BeforeAttack))) {
            key(&mut app, KeyCode::KeyN);
        }
        if battle(&mut app).awaiting() != Some((0, Some(crate::battle::WindowKind::Defense))) {
            continue;
        }
        let (from, start) = (log_len(&app), camera_at(&mut app));
        hold(&mut app, KeyCode::KeyD, 8);
        let dodge = Command::Defend { defense: Some(crate::rules::attack::Defense::Dodge) };
        assert!(accepted(&app, from).iter().any(|(c, cmd)| *c == 0 && *cmd == dodge));
        assert_eq!(camera_at(&mut app), start, "the map stays where it was");
        dodged += 1;
        // The window answered, D pans again.
        if battle(&mut app).awaiting().is_some_and(|(_, w)| w.is_none()) {
            hold(&mut app, KeyCode::KeyD, 8);
            assert!(camera_at(&mut app).x > start.x, "outside a window D pans right");
            panned += 1;
        }
    }
    assert!(dodged >= 3 && panned >= 1, "defense windows met and dodged: {dodged}, panned after: {panned}");
}

// RULES: AREA-E3, ATK-E7 — a cone aimed where it covers nobody the side sees (the foe is past
// its length) is not fired on the first click: the notice says so; a second click on the same
// square fires it (a shot into the dark stays possible). Aimed at the foe, one click fires.
#[test]
fn an_area_covering_nobody_seen_fires_on_a_second_click() {
    let level = FIELD.replace(r#"template: "human_fighter", side: "You""#, r#"template: "gunner", side: "You""#);
    let mut far = app(&level, 1);
    assert_eq!(battle(&mut far).awaiting(), Some((0, None)));
    key(&mut far, KeyCode::Digit1);
    assert_eq!(far.world().resource::<Choice>().weapon.as_deref(), Some("blunderbuss"));
    let from = log_len(&far);
    click(&mut far, Pos::new(8, 2));
    assert!(accepted(&far, from).is_empty(), "not fired at once");
    let notice = far.world().resource::<Notice>().0.clone();
    assert!(notice.contains("covers nobody you see: click again"), "{notice}");
    click(&mut far, Pos::new(8, 2));
    let done = accepted(&far, from);
    assert!(
        matches!(&done[..], [(0, Command::Attack { weapon, target: Target::Toward(_), .. })] if weapon == "blunderbuss"),
        "{done:?}"
    );
    // Within its length the cone covers the foe: one click.
    let near = level.replace("at: (8, 2), facing: W", "at: (4, 2), facing: W");
    let mut close = app(&near, 1);
    key(&mut close, KeyCode::Digit1);
    let from = log_len(&close);
    click(&mut close, Pos::new(4, 2));
    assert_eq!(accepted(&close, from).len(), 1, "{}", close.world().resource::<Notice>().0);
}
