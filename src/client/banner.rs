//! The banner over the map's top left: the outcome, the prompts of a defense or Fate window for
//! the player's creature, a side's long thinking, and the last notice (refusals, pace, files).

use super::hud::plain;
use super::input::player_awaited;
use super::screens::{OnBattleScreen, Screen, font};
use super::{Notice, PANEL_WIDTH, Viewer};
use crate::battle::{ActiveBattle, Outcome, WindowKind};
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Battle), spawn_banner.in_set(OnBattleScreen))
        .add_systems(Update, update_banner.in_set(OnBattleScreen));
}

#[derive(Component)]
struct BannerText;

fn spawn_banner(mut commands: Commands) {
    commands.spawn((
        DespawnOnExit(Screen::Battle),
        Node {
            position_type: PositionType::Absolute,
            left: px(10),
            top: px(8),
            max_width: px(1280.0 - PANEL_WIDTH - 20.0),
            padding: UiRect::axes(px(10), px(4)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.6)),
        children![(Text::new(""), font(15.0), TextColor(Color::srgb(1.0, 0.92, 0.6)), BannerText)],
    ));
}

/// How long the AI thinks before the banner says so: the planner's ordinary decisions take a
/// few milliseconds and should not flash a line.
const THINKING_SHOWN_AFTER: std::time::Duration = std::time::Duration::from_millis(400);

#[allow(clippy::too_many_arguments)] // a Bevy system: one parameter per resource it reads
fn update_banner(
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    notice: Res<Notice>,
    thinking: Option<Res<crate::ai::Thinking>>,
    time: Res<Time>,
    fate: Res<super::fate::FateChoice>,
    mut text: Query<(&mut Text, &ChildOf), With<BannerText>>,
    mut visibility: Query<&mut Visibility>,
) {
    let Ok((mut text, parent)) = text.single_mut() else { return };
    let b = &battle.battle;
    let mut out = String::new();
    if let Some(o) = b.outcome() {
        out = match o {
            Outcome::Victory { side, reason } => format!("{side} wins: {reason}"),
            Outcome::Draw { reason } => format!("Draw: {reason}"),
        };
    } else if let Some((_, Some(WindowKind::Fate))) = player_awaited(&battle, &viewer) {
        out = super::fate::prompt(b, &fate).unwrap_or_default();
    } else if let Some((me, Some(kind))) = player_awaited(&battle, &viewer)
        && let Some(w) = b.window_preview()
    {
        let attacker = b.fighter(w.attacker).name.clone();
        let f = b.fighter(me);
        out = match kind {
            WindowKind::Defense => {
                let roll = w.damage_if_taken.map_or(String::new(), |after| format!(": {after} damage coming"));
                let mut lines = vec![format!("{attacker} attacks {} with {}{roll}. Defend?", f.name, w.weapon)];
                for d in &w.attack.defenses {
                    let key = match d.defense {
                        crate::rules::attack::Defense::Block => "B",
                        crate::rules::attack::Defense::Dodge => "D",
                        crate::rules::attack::Defense::Resist => "R",
                    };
                    lines.push(match &d.allowed {
                        Ok(()) => format!(
                            "  {key}  {:?}: {} dice, {} AP - prevents {:.1} on average",
                            d.defense,
                            d.dice,
                            d.ap,
                            w.expected_prevented(d)
                        ),
                        Err(why) => format!("     {:?} not allowed: {}", d.defense, why),
                    });
                }
                let taken = w.damage_if_taken.map_or("the attack".to_string(), |after| format!("{after} damage"));
                lines.push(format!("  N  take it ({taken}), keeping {} AP", f.ap));
                lines.join("\n")
            }
            WindowKind::BeforeAttack => before_attack_prompt(&attacker, f),
            WindowKind::Fate => String::new(),
        };
    }
    // A look-ahead can think for a noticeable while (on a large field, a good part of a second):
    // say so rather than look stuck. Only the side is named, which the turn order tells anyway.
    // A question left from another battle names nobody here.
    if let Some((creature, since)) = thinking.as_ref().and_then(|t| t.thinking())
        && b.awaiting().is_some_and(|(awaited, _)| awaited == creature)
        && time.elapsed().saturating_sub(since) > THINKING_SHOWN_AFTER
    {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("{} is thinking...", b.sides()[b.fighter(creature).side].name));
    }
    if !notice.0.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&notice.0);
    }
    let out = plain(&out);
    if text.0 != out {
        text.0 = out;
    }
    if let Ok(mut v) = visibility.get_mut(parent.parent()) {
        v.set_if_neq(if text.0.is_empty() { Visibility::Hidden } else { Visibility::Inherited });
    }
}

/// TIME-13, TIME-14: the answers to an attack about to land that this creature has, with what
/// each costs (a creature without Quick Step was told to click a square and then refused).
fn before_attack_prompt(attacker: &str, f: &crate::battle::Fighter) -> String {
    let mut answers = Vec::new();
    if let Some(ap) = f.quick_step_ap() {
        answers.push(format!("click a square to Quick Step away ({ap} AP)"));
    }
    if let Some(ap) = f.counter_attack_ap() {
        answers.push(format!("K to counter-attack ({ap} AP of {} left)", f.ap));
    }
    answers.push("N to let it come".to_string());
    format!("{attacker} attacks {}. {}", f.name, answers.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::Battle;
    use crate::level::{builtin_compendium, parse_level};

    // RULES: TIME-13, TIME-14 — attacked, a creature is offered only the answers it has, with
    // their cost: a fighter (Riposte, no Quick Step) a counter-attack; a duelist a Quick Step.
    #[test]
    fn an_attack_about_to_land_offers_only_the_answers_the_creature_has() {
        let text = r#"(name: "Prompt", map: ["......"], legend: { '.': "floor" }, terrains: { "floor": () },
            sides: [(name: "A"), (name: "B")],
            creatures: [
                (name: "Fighter", template: "human_fighter", side: "A", at: (0, 0), facing: E),
                (name: "Duelist", template: "human_duelist", side: "A", at: (2, 0), facing: E),
                (name: "Foe", template: "human_fighter", side: "B", at: (5, 0), facing: W),
            ])"#;
        let level = parse_level("prompt.level.ron", text, builtin_compendium()).unwrap();
        let b = Battle::new(&level, builtin_compendium(), 1).unwrap();
        let fighter = before_attack_prompt("Foe", b.fighter(0));
        assert_eq!(fighter, "Foe attacks Fighter. K to counter-attack (1 AP of 3 left), N to let it come");
        let duelist = before_attack_prompt("Foe", b.fighter(1));
        assert!(duelist.contains("click a square to Quick Step away (1 AP)"), "{duelist}");
        assert!(!duelist.contains("counter-attack"), "{duelist}");
    }
}
