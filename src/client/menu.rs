//! The main menu: the levels in `levels/` (name, description, a thumbnail of the map, its
//! sides), the side to command (or watch), the AI's difficulty, the seed; start and quit.
//! Played by mouse (buttons) or keyboard (Up/Down level, S side, A difficulty, -/+ and R
//! seed, Enter start, Ctrl+Q quit).

use super::art::thumbnail;
use super::screens::{
    ACCENT, CurrentSetup, DIM, LevelsDir, Screen, Selected, TEXT, button, clicked, font, shade_buttons,
};
use crate::level::LoadedLevel;
use crate::level::compendium::Compendium;
use bevy::app::AppExit;
use bevy::prelude::*;

/// The rungs of the AI's difficulty ladder a player chooses from.
pub const LADDER: [&str; 4] = ["easy", "normal", "hard", "expert"];

/// The compendium levels are checked against and battles are set up from.
#[derive(Resource, Clone)]
pub struct Content(pub Compendium);

/// A level file found for the menu: loaded, or why not.
struct LevelEntry {
    path: String,
    level: Result<LoadedLevel, String>,
    thumbnail: Option<Handle<Image>>,
}

/// What the menu offers and what the player has chosen.
#[derive(Resource)]
pub struct MenuChoice {
    levels: Vec<LevelEntry>,
    selected: usize,
    /// Index into the level's sides; == the number of sides: watch.
    side: usize,
    ai: usize,
    pub seed: u64,
    /// The autosave, if there is one: ready to continue, or why it cannot be.
    saved: Option<Result<SavedOffer, String>>,
    /// The newest battle log saved here (the result screen's "save log"), to watch again.
    last_log: Option<std::path::PathBuf>,
}

impl MenuChoice {
    /// The menu, offering `seed` first.
    pub fn with_seed(seed: u64) -> MenuChoice {
        MenuChoice { seed, ..MenuChoice::default() }
    }
}

impl Default for MenuChoice {
    fn default() -> Self {
        MenuChoice { levels: Vec::new(), selected: 0, side: 0, ai: 1, seed: 1, saved: None, last_log: None }
    }
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
enum MenuAction {
    Level(usize),
    Side,
    Ai,
    SeedDown,
    SeedUp,
    SeedRandom,
    Start,
    Continue,
    Edit,
    Sandbox,
    Replay,
    Quit,
}

/// The autosaved battle the menu offers to continue, checked when the menu opens.
struct SavedOffer {
    setup: CurrentSetup,
    label: String,
}

#[derive(Component)]
struct MenuRoot;

pub fn plugin(app: &mut App) {
    app.init_resource::<MenuChoice>().add_systems(OnEnter(Screen::Menu), find_levels).add_systems(
        Update,
        (menu_keys, menu_clicks, show_menu.run_if(resource_changed::<MenuChoice>), shade_buttons)
            .chain()
            .run_if(in_state(Screen::Menu)),
    );
}

/// Every `*.level.ron` in the levels directory, loaded and checked afresh each time the menu
/// opens (a file edited meanwhile shows its change, a broken one its error).
fn find_levels(
    dir: Option<Res<LevelsDir>>,
    content: Res<Content>,
    setup: Option<Res<CurrentSetup>>,
    mut choice: ResMut<MenuChoice>,
    mut images: ResMut<Assets<Image>>,
) {
    let dir = dir.map_or_else(|| std::path::PathBuf::from("levels"), |d| d.0.clone());
    let paths = crate::level::level_files(&dir);
    choice.levels = paths
        .iter()
        .map(|p| {
            let level = crate::level::load_level(p, &content.0).map_err(|e| e.to_string());
            let thumbnail = level.as_ref().ok().map(|l| images.add(thumbnail(l)));
            LevelEntry { path: p.display().to_string(), level, thumbnail }
        })
        .collect();
    // By the name the list shows (broken files last, by file name).
    choice.levels.sort_by_cached_key(|e| match &e.level {
        Ok(l) => (0, l.level.name.to_lowercase()),
        Err(_) => (1, e.path.clone()),
    });
    choice.saved = offer_saved(&content.0);
    choice.last_log = std::fs::read_dir(".")
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".log.jsonl"))
                .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
                .max()
                .map(|(_, p)| p)
        })
        .unwrap_or_default();
    // Coming back from a battle, the menu shows the level just played.
    if let Some(s) = setup
        && let Some(k) = choice.levels.iter().position(|e| e.path == s.level.file)
    {
        choice.selected = k;
        choice.side = s.player_side.unwrap_or(s.level.level.sides.len());
        choice.seed = s.seed;
    } else {
        let default = choice.levels.iter().position(|e| e.path.ends_with("skirmish.level.ron")).unwrap_or(0);
        choice.selected = choice.selected.min(choice.levels.len().saturating_sub(1)).max(default);
        choice.side = default_side(&choice);
    }
}

/// The autosave as an offer: its level loaded and its log replayed to check it (a save that
/// does not replay is reported, not offered).
fn offer_saved(content: &Compendium) -> Option<Result<SavedOffer, String>> {
    let path = super::save::autosave_path();
    if !path.exists() {
        return None;
    }
    let offer = (|| {
        let save = super::save::SavedBattle::read(&path)?;
        let level =
            crate::level::load_level(std::path::Path::new(&save.level_file), content).map_err(|e| e.to_string())?;
        let battle = crate::battle::Battle::from_log(&level, content, &save.log)?;
        let label = format!("Continue: {} (round {}, seed {})", level.level.name, battle.round(), battle.seed());
        let setup = CurrentSetup {
            seed: battle.seed(),
            player_side: save.player_side.filter(|&s| s < battle.sides().len()),
            view_side: None,
            actor: None,
            ready: None,
            side_profiles: save.side_profiles,
            resume: Some(std::sync::Arc::new(save.log)),
            level,
        };
        Ok(SavedOffer { setup, label })
    })();
    Some(offer.map_err(|e: String| format!("{}: {e}", path.display())))
}

/// The levels the list has room for in a window `height` pixels tall, around the chosen one:
/// (first, one past the last). The title, the "Continue" offer and the two "more" lines come
/// first; each level's button is about 30 pixels (the last ones ran off the window's foot).
fn levels_shown(count: usize, selected: usize, height: f32, continue_offered: bool) -> (usize, usize) {
    const ROW: f32 = 30.0;
    let above = 190.0 + if continue_offered { 45.0 } else { 0.0 };
    let room = (((height - above) / ROW).floor().max(3.0) as usize).min(count);
    let first = selected.saturating_sub(room / 2).min(count - room);
    (first, first + room)
}

fn default_side(choice: &MenuChoice) -> usize {
    match choice.levels.get(choice.selected).map(|e| &e.level) {
        Some(Ok(l)) => l.level.sides.iter().position(|s| s.human).unwrap_or(0),
        _ => 0,
    }
}

fn apply(action: MenuAction, choice: &mut MenuChoice, exit: &mut MessageWriter<AppExit>, commands: &mut Commands) {
    let sides = match choice.levels.get(choice.selected).map(|e| &e.level) {
        Some(Ok(l)) => l.level.sides.len(),
        _ => 0,
    };
    match action {
        MenuAction::Level(k) if k < choice.levels.len() => {
            choice.selected = k;
            choice.side = default_side(choice);
        }
        MenuAction::Level(_) => {}
        MenuAction::Side => choice.side = (choice.side + 1) % (sides + 1),
        MenuAction::Ai => choice.ai = (choice.ai + 1) % LADDER.len(),
        MenuAction::SeedDown => choice.seed = choice.seed.saturating_sub(1).max(1),
        MenuAction::SeedUp => choice.seed = choice.seed.saturating_add(1),
        MenuAction::SeedRandom => {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            choice.seed = u64::from(now.subsec_nanos()) % 100_000 + 1;
        }
        MenuAction::Start => {
            let Some(Ok(level)) = choice.levels.get(choice.selected).map(|e| &e.level) else { return };
            let player_side = (choice.side < sides).then_some(choice.side);
            let rung = LADDER[choice.ai].to_string();
            let side_profiles = (0..sides).map(|s| (Some(s) != player_side).then(|| rung.clone())).collect();
            commands.insert_resource(CurrentSetup {
                level: level.clone(),
                seed: choice.seed,
                player_side,
                view_side: None,
                actor: None,
                ready: None,
                side_profiles,
                resume: None,
            });
            commands.set_state(Screen::Battle);
        }
        MenuAction::Continue => {
            if let Some(Ok(save)) = &choice.saved {
                commands.insert_resource(save.setup.clone());
                commands.set_state(Screen::Battle);
            }
        }
        MenuAction::Edit => {
            // The chosen level (a broken one too: the editor marks what is wrong), else a blank.
            let open = choice.levels.get(choice.selected).and_then(|e| {
                let path = std::path::PathBuf::from(&e.path);
                crate::level::read_level_unchecked(&path).ok().map(|l| (l, path))
            });
            commands.remove_resource::<super::editor::Editor>();
            commands.insert_resource(super::editor::OpenInEditor(open));
            commands.set_state(Screen::Editor);
        }
        MenuAction::Sandbox => {
            let Some(Ok(level)) = choice.levels.get(choice.selected).map(|e| &e.level) else { return };
            commands.insert_resource(super::sandbox::Sandbox::new(level.clone()));
            commands.set_state(Screen::Sandbox);
        }
        MenuAction::Replay => {
            if let Some(path) = &choice.last_log {
                let path = path.clone();
                // Loading needs the compendium: done where the world is at hand.
                commands.queue(move |world: &mut World| {
                    let content = world.resource::<Content>().0.clone();
                    match super::replay::load_replay(&path, &content) {
                        Ok(view) => {
                            world.insert_resource(view);
                            world.resource_mut::<NextState<Screen>>().set(Screen::Replay);
                        }
                        Err(e) => warn!("the replay cannot be shown: {e}"),
                    }
                });
            }
        }
        MenuAction::Quit => {
            exit.write(AppExit::Success);
        }
    }
}

fn menu_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    mut choice: ResMut<MenuChoice>,
    mut exit: MessageWriter<AppExit>,
    mut commands: Commands,
) {
    let n = choice.levels.len().max(1);
    // The wheel goes through the levels as Up/Down do: a list longer than the window shows
    // only those around the chosen one.
    let rolled: f32 = wheel.read().map(|w| w.y).sum();
    let action = if keys.just_pressed(KeyCode::ArrowDown) || rolled < 0.0 {
        Some(MenuAction::Level((choice.selected + 1) % n))
    } else if keys.just_pressed(KeyCode::ArrowUp) || rolled > 0.0 {
        Some(MenuAction::Level((choice.selected + n - 1) % n))
    } else if keys.just_pressed(KeyCode::KeyS) {
        Some(MenuAction::Side)
    } else if keys.just_pressed(KeyCode::KeyA) {
        Some(MenuAction::Ai)
    } else if keys.just_pressed(KeyCode::Minus) {
        Some(MenuAction::SeedDown)
    } else if keys.just_pressed(KeyCode::Equal) {
        Some(MenuAction::SeedUp)
    } else if keys.just_pressed(KeyCode::KeyR) {
        Some(MenuAction::SeedRandom)
    } else if keys.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter]) {
        Some(MenuAction::Start)
    } else if keys.just_pressed(KeyCode::KeyC) {
        Some(MenuAction::Continue)
    } else if keys.just_pressed(KeyCode::KeyE) {
        Some(MenuAction::Edit)
    } else if keys.just_pressed(KeyCode::KeyK) {
        Some(MenuAction::Sandbox)
    } else if keys.just_pressed(KeyCode::KeyV) {
        Some(MenuAction::Replay)
    } else {
        None
    };
    if let Some(a) = action {
        apply(a, &mut choice, &mut exit, &mut commands);
    }
}

fn menu_clicks(
    buttons: Query<(&Interaction, &MenuAction), Changed<Interaction>>,
    mut choice: ResMut<MenuChoice>,
    mut exit: MessageWriter<AppExit>,
    mut commands: Commands,
) {
    for a in clicked(&buttons) {
        apply(a, &mut choice, &mut exit, &mut commands);
    }
}

/// The menu is rebuilt whenever the choice changes (rarely: a click or a key).
fn show_menu(
    mut commands: Commands,
    choice: Res<MenuChoice>,
    old: Query<Entity, With<MenuRoot>>,
    window: Query<&Window>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    let height = window.single().map_or(720.0, |w| w.height());
    let (first, last) = levels_shown(choice.levels.len(), choice.selected, height, choice.saved.is_some());
    let root = commands
        .spawn((
            MenuRoot,
            DespawnOnExit(Screen::Menu),
            Node {
                width: percent(100),
                height: percent(100),
                padding: UiRect::all(px(24)),
                column_gap: px(28),
                ..default()
            },
            BackgroundColor(Color::srgb(0.07, 0.08, 0.1)),
        ))
        .id();
    let list = commands
        .spawn(Node { flex_direction: FlexDirection::Column, width: px(330), overflow: Overflow::clip(), ..default() })
        .id();
    commands.entity(list).with_children(|c| {
        c.spawn((Text::new("Meshal Tactics"), font(34.0), TextColor(ACCENT)));
        c.spawn((Text::new("Tactical battles by the Meshal Lite rules"), font(14.0), TextColor(DIM)));
        match &choice.saved {
            Some(Ok(offer)) => {
                c.spawn(button(format!("{}  (C)", offer.label), MenuAction::Continue, 15.0)).insert(Node {
                    margin: UiRect::top(px(12)),
                    padding: UiRect::axes(px(10), px(6)),
                    ..default()
                });
            }
            Some(Err(why)) => {
                c.spawn((
                    Text::new(format!("The saved battle cannot be continued: {why}")),
                    font(12.0),
                    TextColor(DIM),
                    Node { margin: UiRect::top(px(10)), ..default() },
                ));
            }
            None => {}
        }
        c.spawn((
            Text::new("Choose a level"),
            font(16.0),
            TextColor(TEXT),
            Node { margin: UiRect::top(px(16)), ..default() },
        ));
        let more = |c: &mut ChildSpawnerCommands, n: usize, where_: &str| {
            if n > 0 {
                let text = format!("... {n} more {where_} (Up/Down, wheel)");
                c.spawn((
                    Text::new(text),
                    font(12.0),
                    TextColor(DIM),
                    Node { margin: UiRect::all(px(3)), ..default() },
                ));
            }
        };
        more(c, first, "above");
        for (k, entry) in choice.levels.iter().enumerate().take(last).skip(first) {
            let name = match &entry.level {
                Ok(l) => l.level.name.clone(),
                Err(_) => format!("{} (broken)", short(&entry.path)),
            };
            let mut b = c.spawn(button(name, MenuAction::Level(k), 15.0));
            b.insert(Node { padding: UiRect::axes(px(10), px(4)), margin: UiRect::all(px(2)), ..default() });
            if k == choice.selected {
                b.insert(Selected);
            }
        }
        more(c, choice.levels.len() - last, "below");
        if choice.levels.is_empty() {
            c.spawn((Text::new("No *.level.ron files found in levels/"), font(14.0), TextColor(DIM)));
        }
    });
    let detail = commands.spawn(Node { flex_direction: FlexDirection::Column, flex_grow: 1.0, ..default() }).id();
    let entry = choice.levels.get(choice.selected);
    commands.entity(detail).with_children(|c| {
        match entry.map(|e| (&e.level, &e.thumbnail, &e.path)) {
            Some((Ok(l), thumb, path)) => {
                c.spawn((Text::new(l.level.name.clone()), font(26.0), TextColor(ACCENT)));
                c.spawn((Text::new(short(path)), font(12.0), TextColor(DIM)));
                if !l.level.description.is_empty() {
                    c.spawn((
                        Text::new(l.level.description.clone()),
                        font(15.0),
                        TextColor(TEXT),
                        Node { margin: UiRect::vertical(px(8)), max_width: px(820), ..default() },
                    ));
                }
                if let Some(image) = thumb {
                    let (w, h) = (l.map.width() as f32, l.map.height() as f32);
                    let scale = (560.0 / w).min(300.0 / h).min(24.0);
                    c.spawn((
                        ImageNode::new(image.clone()),
                        Node {
                            width: px(w * scale),
                            height: px(h * scale),
                            margin: UiRect::vertical(px(6)),
                            ..default()
                        },
                    ));
                }
                let counts: Vec<String> = l
                    .level
                    .sides
                    .iter()
                    .map(|s| {
                        let n = l.level.creatures.iter().filter(|c| c.side == s.name).count();
                        format!("{} ({n})", s.name)
                    })
                    .collect();
                c.spawn((
                    Text::new(format!(
                        "{}x{} squares, sides: {}, at most {} rounds",
                        l.map.width(),
                        l.map.height(),
                        counts.join(" vs "),
                        l.level.max_rounds
                    )),
                    font(14.0),
                    TextColor(DIM),
                ));
                let side = l.level.sides.get(choice.side).map_or("watch the AI play".to_string(), |s| s.name.clone());
                option_row(c, "You command", side, MenuAction::Side, "S");
                option_row(c, "AI difficulty", LADDER[choice.ai].to_string(), MenuAction::Ai, "A");
                c.spawn(Node { align_items: AlignItems::Center, ..default() }).with_children(|row| {
                    row.spawn((Text::new("Seed"), font(15.0), TextColor(TEXT), Node { width: px(150), ..default() }));
                    row.spawn(button("-", MenuAction::SeedDown, 15.0));
                    row.spawn((Text::new(format!(" {} ", choice.seed)), font(15.0), TextColor(ACCENT)));
                    row.spawn(button("+", MenuAction::SeedUp, 15.0));
                    row.spawn(button("random (R)", MenuAction::SeedRandom, 15.0));
                });
                c.spawn(Node { margin: UiRect::top(px(14)), ..default() }).with_children(|row| {
                    row.spawn(button("Start battle (Enter)", MenuAction::Start, 17.0));
                    row.spawn(button("Edit (E)", MenuAction::Edit, 17.0));
                    row.spawn(button("Sandbox (K)", MenuAction::Sandbox, 17.0));
                    if choice.last_log.is_some() {
                        row.spawn(button("Replay (V)", MenuAction::Replay, 17.0));
                    }
                    row.spawn(button("Quit (Ctrl+Q)", MenuAction::Quit, 17.0));
                });
            }
            Some((Err(why), _, _)) => {
                c.spawn((Text::new("This level cannot be played:"), font(20.0), TextColor(ACCENT)));
                c.spawn((
                    Text::new(why.clone()),
                    font(14.0),
                    TextColor(TEXT),
                    Node { max_width: px(820), ..default() },
                ));
                c.spawn(button("Quit (Ctrl+Q)", MenuAction::Quit, 18.0));
            }
            None => {
                c.spawn(button("Quit (Ctrl+Q)", MenuAction::Quit, 18.0));
            }
        }
        c.spawn((
            Text::new(
                "Up/Down: level  S: side  A: difficulty  -/+/R: seed  Enter: start  C: continue  E: edit  K: sandbox  V: replay  Ctrl+Q: quit",
            ),
            font(13.0),
            TextColor(DIM),
            Node { margin: UiRect::top(px(18)), ..default() },
        ));
    });
    commands.entity(root).add_children(&[list, detail]);
}

fn option_row(c: &mut ChildSpawnerCommands, label: &str, value: String, action: MenuAction, key: &str) {
    c.spawn(Node { align_items: AlignItems::Center, margin: UiRect::top(px(4)), ..default() }).with_children(|row| {
        row.spawn((Text::new(label.to_string()), font(15.0), TextColor(TEXT), Node { width: px(150), ..default() }));
        row.spawn(button(format!("{value}  ({key})"), action, 15.0));
    });
}

/// A path's file name, for the list.
fn short(path: &str) -> String {
    std::path::Path::new(path).file_name().map_or(path.to_string(), |f| f.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::levels_shown;

    // The level list keeps the chosen level in view, whatever the window's height: 18 levels
    // and a "Continue" offer ran off a 720-pixel window.
    #[test]
    fn the_level_list_shows_the_chosen_level_and_fits_the_window() {
        for height in [400.0, 720.0, 1080.0] {
            for offered in [false, true] {
                for selected in 0..18 {
                    let (first, last) = levels_shown(18, selected, height, offered);
                    assert!(first <= selected && selected < last && last <= 18, "{height} {offered} {selected}");
                    let above = 190.0 + if offered { 45.0 } else { 0.0 };
                    assert!(above + 30.0 * (last - first) as f32 <= height.max(above + 90.0), "{height}: fits");
                }
            }
        }
        assert_eq!(levels_shown(18, 0, 2000.0, true), (0, 18), "room for all");
        assert_eq!(levels_shown(0, 0, 720.0, false), (0, 0), "no levels");
        let (first, last) = levels_shown(18, 17, 720.0, true);
        assert_eq!(last, 18, "the last level reachable");
        assert!(first > 0);
    }
}
