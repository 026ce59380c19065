//! The combat log strip: what the player's side saw, narrated once per event as it arrives
//! (never the whole log again), colour-coded, with scrollback (PageUp/PageDown, Home/End, or
//! the mouse wheel over the strip).

use super::screens::{OnBattleScreen, Screen};
use super::{LOG_HEIGHT, PANEL_WIDTH, Viewer};
use crate::battle::narrate::narrate;
use crate::battle::{ActiveBattle, BattleEvent, BattleSystems, Event};
use bevy::input::mouse::MouseWheel;
use bevy::prelude::*;

/// Lines shown at once.
const SHOWN: usize = 9;
/// Lines kept for scrolling back; older ones go (a long battle must not grow without bound).
const KEPT: usize = 4000;

/// Characters a row of the strip holds (a 1280-pixel window), and the most rows one narrated
/// line takes: a line longer than a row wrapped by itself and pushed the newest lines out of
/// the strip, and the initiative of a pack of 256 filled it whole.
const ROW_CHARS: usize = 112;
const MOST_ROWS: usize = 3;

/// The narrated lines the viewer's side saw, oldest first (with the rule behind each), and how
/// far it is scrolled back.
#[derive(Resource, Default)]
pub struct CombatLog {
    lines: Vec<(String, Color, &'static str)>,
    /// Lines scrolled back from the newest.
    back: usize,
}

#[derive(Component)]
struct LogLine(usize);

pub fn plugin(app: &mut App) {
    app.init_resource::<CombatLog>()
        .add_systems(OnEnter(Screen::Battle), (|mut log: ResMut<CombatLog>| *log = CombatLog::default(), spawn_strip))
        .add_systems(
            Update,
            (collect.after(BattleSystems::Publish), scroll, show, explain_hovered_line).chain().in_set(OnBattleScreen),
        );
}

/// The rule behind a line of the log, shown when the pointer rests on it: its ID in
/// RULES.md and what it says, in a few words.
pub fn rule_for(e: &Event) -> &'static str {
    match e {
        Event::BattleStarted { .. } => "TIME-1: a Moment starts when combat does",
        Event::EncounterOpened { .. } => "PERC-E7: encounter distance and spot checks; TIME-E9: a surprise round",
        Event::InitiativeRolled { .. } => "TIME-2: initiative is an Activeness roll; TIME-3: ties",
        Event::TurnOrder { .. } => "TIME-2: turns go by initiative, highest first",
        Event::RoundStarted { .. } | Event::RoundEnded { .. } => "TIME-6: a round is every creature's turn once",
        Event::SecondStarted { .. } => "TIME-S1: in seconds mode every creature acts once a second, 3 seconds a round",
        Event::ActionBegun { .. } => "TIME-S2, TIME-E11: an action of N AP lasts N seconds and resolves at its end",
        Event::ClockSet { .. } => "TIME-S7: the die by the token counts an action's, a keep's or a gap's seconds",
        Event::FatigueTaken { .. } => "TIME-S3, TIME-E11: a second of gap cut costs an Activeness die",
        Event::TurnStarted { .. } | Event::TurnEnded { .. } => "TIME-8: a turn starts with the creature's full AP",
        Event::CommandRejected { .. } => "the rule named in the line was broken; nothing changed",
        Event::CommandAccepted { .. } | Event::ApSpent { .. } => {
            "TIME-7, TIME-17: what a turn may hold and what it costs"
        }
        Event::Moved { .. } | Event::MoveInterrupted { .. } => {
            "MOVE-1: a move is 1 AP, up to speed + 3/4 steps (MOVE-E1)"
        }
        Event::ForcedMoved { .. } => "MOVE-11, MOVE-E5: knocked back or towed along the line from its source",
        Event::Fell { .. } => "MOVE-12, MOVE-10: a fall higher than the body is a 3-dice attack per multiple",
        Event::ObjectAttacked { .. } | Event::ObjectDamaged { .. } => {
            "ATK-16, ATK-E6: objects cannot defend; damage beyond the material's protection adds up"
        }
        Event::ObjectBroken { .. } => "ATK-E6: at its durability an object breaks; its square becomes rubble",
        Event::DoorBlocked { .. } => "SPACE-E5: a door does not close on someone in the doorway",
        Event::DoorOperated { .. } => "ATK-16: a door opens or closes for 1 AP (engine decision)",
        Event::Readied { .. } | Event::ReadyFired { .. } | Event::ReadyLapsed { .. } => {
            "TIME-E10: a readied attack fires as a reaction for its AP + 1, until one's next turn"
        }
        Event::ItemPickedUp { .. } | Event::PickUpFailed { .. } => {
            "TIME-18: pick up from one's own or a next square, TIME-17: 1/2/3 AP by weight"
        }
        Event::ItemDropped { .. } => "TIME-17: dropping an item costs 1 AP",
        Event::ItemGiven { .. } => "TIME-18, TIME-E8: both pay; the receiver as a reaction",
        Event::ItemUsed { .. } | Event::Reloaded { .. } => "TIME-18: an item is used per its text",
        Event::DiceRecovered { .. } | Event::Woke { .. } => {
            "CRE-4, FLOW-8: dice recovered up to the maximum; awake once every pool has a die"
        }
        Event::Dragged { .. } => "MOVE-13: dragging a body adds weight / (Might x 10) resistance",
        Event::Mounted { .. } | Event::Dismounted { .. } => {
            "MOVE-14, MOVE-E8: mounting and dismounting are posture changes (1 AP); the rider moves only with its mount"
        }
        Event::Lifted { .. } | Event::PutDown { .. } => {
            "MOVE-13: lifting or putting down a body costs 3 AP; carried, it adds weight / (Might x 10) resistance"
        }
        Event::SenseLost { .. } | Event::SenseRegained { .. } => {
            "FLOW-D3: blinded or deafened for its next turns; PERC-4: losing one's habitual sense"
        }
        Event::InvisibleLocated { .. } => "PERC-E6: an invisible attacker is located where it struck from",
        Event::HazardStruck { .. } => "FLOW-10: dangerous terrain attacks or drains whoever stops in it",
        Event::FallRecovery { .. } => "MOVE-E6: a creature that fell starts its next turn 1 AP short",
        Event::Faced { .. } => "FACE-2: facing changes for free in one's own turn",
        Event::PostureChanged { .. } => "POST-2: changing posture costs AP (POST-5: forced)",
        Event::LongTermStarted { .. } | Event::LongTermProgress { .. } | Event::LongTermAborted { .. } => {
            "TIME-11: a long-term action is paid over several turns"
        }
        Event::AttackDeclared { .. } | Event::AttackedByUnseen { .. } => "ATK-7: the attack roll, ATK-E7: its order",
        Event::ReactionWindowOpened { .. } | Event::ReactionDeclined { .. } => {
            "TIME-12, TIME-13: reactions and their timing"
        }
        Event::QuickStepped { .. } | Event::AttackCancelled { .. } => {
            "TIME-14: a reaction can cancel an attack and refund AP"
        }
        Event::Delayed { .. } => "TIME-6: a creature may delay its turn",
        Event::CounterAttackDeclared { .. } => "TIME-13: a simultaneous counter-attack",
        Event::Rolled { .. } => "DICE-2: each die showing 1 scores 1 point, each 2 scores 2, faces 3-6 nothing",
        Event::FateSpent { .. } => "DICE-13: Expense of Fate sets dice of one's own roll; each costs a die",
        Event::SegmentResolved { .. } => {
            "ATK-8, ATK-12, ATK-E4: each segment hits if points exceed protection and defense"
        }
        Event::Undefendable { .. } => "ATK-11, FACE-4, ATK-17: when no defense may be rolled",
        Event::Damaged { .. } => "ATK-13, CRE-4, CRE-5: damage removes dice from the pools",
        Event::Unconscious { .. } => "CRE-6: a pool at 0 knocks the creature out",
        Event::Died { .. } => "CRE-7: death",
        Event::AmmoSpent { .. } => "ATK-6: ammunition",
        Event::Searched { .. } => "PERC-7, PERC-8: search against the hiding difficulty",
        Event::SpotMade { .. } => "PERC-E4 Variants, 001 Spot: Spirit points against each hider's hide points",
        Event::HidCreature { .. } | Event::HideFailed { .. } | Event::Revealed { .. } => "PERC-E4: the Hidden state",
        Event::Spotted { .. } | Event::LostSight { .. } => "PERC-2, PERC-E2: spotting",
        Event::FleeAttempted { .. } | Event::Fled { .. } => "FLOW-5: fleeing",
        Event::Joined { .. } | Event::ArrivalDelayed { .. } => "TIME-4: joining mid-Moment",
        Event::BattleEnded { .. } => "FLOW-3, FLOW-4: victory and defeat",
    }
}

/// The colour of a line: blows red, misses and solid defenses grey-blue, the turn's frame gold.
fn colour_for(e: &Event) -> Color {
    match e {
        Event::Damaged { .. } | Event::Unconscious { .. } | Event::Died { .. } => Color::srgb(1.0, 0.45, 0.4),
        Event::SegmentResolved { .. } | Event::Rolled { .. } => Color::srgb(0.8, 0.82, 0.78),
        Event::TurnStarted { .. } | Event::RoundStarted { .. } | Event::SecondStarted { .. } => {
            Color::srgb(1.0, 0.85, 0.45)
        }
        Event::AttackDeclared { .. } | Event::AttackedByUnseen { .. } => Color::srgb(1.0, 0.7, 0.45),
        Event::Spotted { .. } | Event::LostSight { .. } => Color::srgb(0.6, 0.8, 1.0),
        _ => Color::srgb(0.7, 0.72, 0.68),
    }
}

/// PERC-2: a creature coming into or going out of the viewer's sight (the reports leave these
/// out; on the map a token appeared or vanished without a word). Watching every side, whose
/// sight it is.
fn sighting(b: &crate::battle::Battle, viewer: &Viewer, e: &Event) -> Option<String> {
    let (side, creature, came) = match e {
        Event::Spotted { side, creature } => (side, *creature, true),
        Event::LostSight { side, creature } => (side, *creature, false),
        _ => return None,
    };
    let name = crate::files::escape_controls(&b.fighter(creature).name);
    Some(match (viewer.omniscient, came) {
        (true, true) => format!("  {side} sees {name}"),
        (true, false) => format!("  {side} loses sight of {name}"),
        (false, true) => format!("  {name} comes into sight"),
        (false, false) => format!("  {name} goes out of sight"),
    })
}

fn collect(
    mut events: MessageReader<BattleEvent>,
    battle: Res<ActiveBattle>,
    viewer: Res<Viewer>,
    fate: Option<Res<super::fate::FateChoice>>,
    mut log: ResMut<CombatLog>,
) {
    let b = &battle.battle;
    // With the Fate prompts off (F9) the player is not asked: "may spend fate" after each of
    // its rolls would tell of a choice it turned off.
    let unasked = fate.is_some_and(|f| f.keep_all);
    for BattleEvent(entry) in events.read() {
        if !viewer.shows(b, entry) {
            continue;
        }
        if unasked && matches!(entry.event, Event::ReactionWindowOpened { kind: crate::battle::WindowKind::Fate, .. }) {
            continue;
        }
        let Some(text) = sighting(b, &viewer, &entry.event).or_else(|| narrate(b, &entry.event)) else { continue };
        let colour = colour_for(&entry.event);
        let rule = rule_for(&entry.event);
        for line in text.lines().flat_map(|l| rows_of(&super::hud::plain(l), ROW_CHARS, MOST_ROWS)) {
            log.lines.push((line, colour, rule));
            // Scrolled back, the view stays on what the player is reading.
            if log.back > 0 {
                log.back += 1;
            }
        }
    }
    if log.lines.len() > KEPT {
        let extra = log.lines.len() - KEPT;
        log.lines.drain(..extra);
    }
}

fn scroll(
    keys: Res<ButtonInput<KeyCode>>,
    mut wheel: MessageReader<MouseWheel>,
    window: Query<&Window>,
    mut log: ResMut<CombatLog>,
) {
    let most = log.lines.len().saturating_sub(SHOWN);
    let mut back = log.back as i64;
    if keys.just_pressed(KeyCode::PageUp) {
        back += SHOWN as i64 - 1;
    }
    if keys.just_pressed(KeyCode::PageDown) {
        back -= SHOWN as i64 - 1;
    }
    if keys.just_pressed(KeyCode::Home) {
        back = most as i64;
    }
    if keys.just_pressed(KeyCode::End) {
        back = 0;
    }
    let over_strip = window
        .single()
        .ok()
        .and_then(|w| Some((w.cursor_position()?, w.width(), w.height())))
        .is_some_and(|(c, w, h)| c.y > h - LOG_HEIGHT && c.x < w - PANEL_WIDTH);
    for w in wheel.read() {
        if over_strip {
            back += (w.y.signum() * 3.0) as i64;
        }
    }
    let back = back.clamp(0, most as i64) as usize;
    if back != log.back {
        log.back = back;
    }
}

/// A line cut into rows of at most `width` characters at spaces (a word longer than a row is
/// cut inside it), at most `most` rows: a longer line's last row ends in "...".
fn rows_of(line: &str, width: usize, most: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for word in line.split(' ') {
        let fits = row.chars().count() + 1 + word.chars().count() <= width;
        if !row.is_empty() && !fits {
            rows.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(word);
        while row.chars().count() > width {
            let cut: String = row.chars().take(width).collect();
            row = row.chars().skip(width).collect();
            rows.push(cut);
        }
    }
    rows.push(row);
    if rows.len() > most {
        rows.truncate(most);
        let last = &mut rows[most - 1];
        // The bundled font has Latin glyphs only (`hud::plain`): three dots, not an ellipsis.
        let kept: String = last.chars().take(width.saturating_sub(4)).collect();
        *last = format!("{} ...", kept.trim_end());
    }
    rows
}

fn spawn_strip(mut commands: Commands) {
    commands
        .spawn((
            DespawnOnExit(Screen::Battle),
            super::hud::HudRoot,
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                right: px(PANEL_WIDTH),
                bottom: px(0),
                height: px(LOG_HEIGHT),
                padding: UiRect { left: px(10), right: px(10), top: px(6), bottom: px(6) },
                flex_direction: FlexDirection::Column,
                overflow: Overflow::clip(),
                ..default()
            },
            BackgroundColor(Color::srgba(0.05, 0.05, 0.07, 0.92)),
        ))
        .with_children(|c| {
            for k in 0..=SHOWN {
                c.spawn((
                    Text::new(""),
                    super::screens::font(13.0),
                    // One row a line, whatever the window's width: cut at the strip's edge
                    // rather than wrapped over the newest lines.
                    TextLayout::no_wrap(),
                    TextColor(Color::WHITE),
                    LogLine(k),
                    // Hovered, the line tells the rule behind it.
                    Interaction::default(),
                ));
            }
        });
}

fn show(log: Res<CombatLog>, mut lines: Query<(&LogLine, &mut Text, &mut TextColor)>) {
    if !log.is_changed() {
        return;
    }
    let end = log.lines.len() - log.back.min(log.lines.len());
    let start = end.saturating_sub(SHOWN);
    for (LogLine(k), mut text, mut colour) in &mut lines {
        let (s, c) = if *k == SHOWN {
            // The last row says where the view is when scrolled back.
            if log.back > 0 {
                (format!("-- {} newer lines below: PageDown / End --", log.back), Color::srgb(0.55, 0.6, 0.7))
            } else {
                (String::new(), Color::WHITE)
            }
        } else {
            log.lines
                .get(start + k)
                .filter(|_| start + k < end)
                .map_or((String::new(), Color::WHITE), |(s, c, _)| (s.clone(), *c))
        };
        if text.0 != s {
            text.0 = s;
        }
        colour.set_if_neq(TextColor(c));
    }
}

/// The pointer on a line of the log: the status line names the rule behind it.
fn explain_hovered_line(
    log: Res<CombatLog>,
    lines: Query<(&LogLine, &Interaction), Changed<Interaction>>,
    mut notice: ResMut<super::Notice>,
) {
    let end = log.lines.len() - log.back.min(log.lines.len());
    let start = end.saturating_sub(SHOWN);
    // The pointer left a line: its rule goes with it (it stayed over the map), unless it went
    // straight on to another line, whose rule is shown.
    if lines.iter().any(|(_, i)| *i == Interaction::None) && notice.0.starts_with("Rule: ") {
        notice.0.clear();
    }
    for (LogLine(k), interaction) in &lines {
        if *interaction == Interaction::Hovered
            && start + k < end
            && let Some((_, _, rule)) = log.lines.get(start + k)
        {
            notice.0 = format!("Rule: {rule}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rows_of;

    // The pointer on a log line names its rule in the status line; leaving it clears that (the
    // rule stayed over the map), and leaves any other notice alone.
    #[test]
    fn a_lines_rule_goes_when_the_pointer_leaves_it() {
        use bevy::prelude::*;
        let mut app = App::new();
        let mut log = super::CombatLog::default();
        log.lines.push(("Brute attacks".into(), Color::WHITE, "ATK-1: an attack"));
        app.insert_resource(log)
            .init_resource::<crate::client::Notice>()
            .add_systems(Update, super::explain_hovered_line);
        let line = app.world_mut().spawn((super::LogLine(0), Interaction::Hovered)).id();
        app.update();
        assert_eq!(app.world().resource::<crate::client::Notice>().0, "Rule: ATK-1: an attack");
        *app.world_mut().get_mut::<Interaction>(line).unwrap() = Interaction::None;
        app.update();
        assert_eq!(app.world().resource::<crate::client::Notice>().0, "", "gone with the pointer");
        app.world_mut().resource_mut::<crate::client::Notice>().0 = "Refused: too far".into();
        *app.world_mut().get_mut::<Interaction>(line).unwrap() = Interaction::Hovered;
        app.update();
        *app.world_mut().get_mut::<Interaction>(line).unwrap() = Interaction::None;
        app.world_mut().resource_mut::<crate::client::Notice>().0 = "Refused: too far".into();
        app.update();
        assert_eq!(app.world().resource::<crate::client::Notice>().0, "Refused: too far", "another notice stays");
    }

    // DICE-13: with the Fate prompts off (F9) the log does not tell of a Fate window after each
    // roll; with them on it does.
    #[test]
    fn fate_windows_are_not_told_with_the_prompts_off() {
        use crate::battle::{ActiveBattle, BattleEvent, Controller, Event, LogEntry, WindowKind};
        use bevy::prelude::*;
        let content = crate::level::builtin_compendium();
        let level = crate::level::load_level(std::path::Path::new("levels/duel.level.ron"), content).unwrap();
        let b = crate::battle::Battle::new(&level, content, 1).unwrap();
        let side = b.sides()[0].name.clone();
        let told = |keep_all: bool| {
            let mut app = App::new();
            app.add_message::<BattleEvent>()
                .insert_resource(ActiveBattle::new(b.clone(), vec![Controller::Human, Controller::Ai]))
                .insert_resource(super::Viewer { side: 0, plays: true, omniscient: false })
                .insert_resource(crate::client::fate::FateChoice { keep_all, ..Default::default() })
                .init_resource::<super::CombatLog>()
                .add_systems(Update, super::collect);
            let window = Event::ReactionWindowOpened { creature: 0, kind: WindowKind::Fate, attacker: 0 };
            let entry = LogEntry { seq: 0, round: 1, visible_to: vec![side.clone()], event: window, partial: false };
            app.world_mut().write_message(BattleEvent(entry));
            app.update();
            app.world().resource::<super::CombatLog>().lines.len()
        };
        assert_eq!(told(false), 1, "asked: told");
        assert_eq!(told(true), 0, "not asked: not told");
    }

    // RULES: PERC-2 — a creature coming into or going out of sight is told in the log, from
    // the player's side ("comes into sight") or, watching every side, naming whose sight.
    #[test]
    fn sightings_are_told() {
        let content = crate::level::builtin_compendium();
        let level = crate::level::load_level(std::path::Path::new("levels/duel.level.ron"), content).unwrap();
        let b = crate::battle::Battle::new(&level, content, 1).unwrap();
        let (side, name) = (b.sides()[0].name.clone(), b.fighter(1).name.clone());
        let player = super::Viewer { side: 0, plays: true, omniscient: false };
        let gm = super::Viewer { side: 0, plays: false, omniscient: true };
        let seen = crate::battle::Event::Spotted { side: side.clone(), creature: 1 };
        let lost = crate::battle::Event::LostSight { side: side.clone(), creature: 1 };
        assert_eq!(super::sighting(&b, &player, &seen).unwrap(), format!("  {name} comes into sight"));
        assert_eq!(super::sighting(&b, &player, &lost).unwrap(), format!("  {name} goes out of sight"));
        assert_eq!(super::sighting(&b, &gm, &seen).unwrap(), format!("  {side} sees {name}"));
        assert_eq!(super::sighting(&b, &gm, &lost).unwrap(), format!("  {side} loses sight of {name}"));
        assert_eq!(super::sighting(&b, &gm, &crate::battle::Event::RoundStarted { round: 1 }), None);
    }

    #[test]
    fn a_long_line_takes_a_few_rows_at_most() {
        assert_eq!(rows_of("Dire wolf attacks Sellsword", 112, 3), vec!["Dire wolf attacks Sellsword"]);
        assert_eq!(rows_of("aa bb cc dd", 5, 3), vec!["aa bb", "cc dd"]);
        assert_eq!(rows_of("abcdefgh ij", 5, 3), vec!["abcde", "fgh", "ij"]);
        assert_eq!(rows_of("aa bb cc dd ee ff gg hh", 6, 3), vec!["aa bb", "cc dd", "ee ..."]);
        assert_eq!(rows_of("", 5, 3), vec![""]);
        let pack: Vec<String> = (0..256).map(|k| format!("North {k}")).collect();
        let rows = rows_of(&format!("Initiative {}: 13", pack.join(" + ")), 112, 3);
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r.chars().count() <= 112) && rows[2].ends_with(" ..."), "{rows:?}");
    }

    // Every line of every shipped level's battles has a rule that names a RULES.md ID.
    #[test]
    fn every_logged_event_names_its_rule() {
        let content = crate::level::builtin_compendium();
        for path in crate::level::level_files(std::path::Path::new("levels")) {
            let level = crate::level::load_level(&path, content).unwrap();
            let mut b = crate::battle::Battle::new(&level, content, 3).unwrap();
            crate::ai::play_direct(&mut b, None, 100_000);
            for e in b.log() {
                let rule = super::rule_for(&e.event);
                let named = rule
                    .split(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == 'E'))
                    .any(|w| w.contains('-') && w.len() >= 5);
                assert!(
                    named || matches!(e.event, crate::battle::Event::CommandRejected { .. }),
                    "{rule} for {:?}",
                    e.event
                );
            }
        }
    }
}
