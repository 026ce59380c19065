//! Live reload: while a level is open (in a battle or the editor), saving its file in any text
//! editor reloads it in place. A broken file is reported (file, line, column, message) and the
//! last good state is kept; in a battle a good one restarts the battle with the same seed.
//!
//! The file is polled (its modification time and length, twice a second): no watcher crate,
//! nothing that could hang on a strange file system, and the same on every platform.

use super::Notice;
use super::editor::Editor;
use super::screens::{CurrentSetup, Screen};
use crate::level::{load_level, read_level_unchecked};
use bevy::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How often the open level's file is looked at.
const POLL: Duration = Duration::from_millis(500);

/// What the file looked like when last read: (path, modified, length).
#[derive(Resource, Default)]
struct Watched(Option<(PathBuf, Option<SystemTime>, u64)>);

/// A message for the battle that is about to begin (its start clears the notice line).
#[derive(Resource)]
struct PendingNotice(String);

pub fn plugin(app: &mut App) {
    app.init_resource::<Watched>()
        .add_systems(
            Update,
            (
                watch_battle_level.run_if(in_state(Screen::Battle).and_then(on_timer(POLL))),
                watch_editor_level.run_if(in_state(Screen::Editor).and_then(on_timer(POLL))),
            ),
        )
        .add_systems(OnEnter(Screen::Battle), pass_on_notice.after(super::screens::BeginBattle));
}

fn on_timer(period: Duration) -> impl FnMut(Res<Time<Real>>, Local<Duration>) -> bool {
    move |time: Res<Time<Real>>, mut last: Local<Duration>| {
        let now = time.elapsed();
        if now.saturating_sub(*last) >= period {
            *last = now;
            true
        } else {
            false
        }
    }
}

fn stamp(path: &Path) -> Option<(Option<SystemTime>, u64)> {
    let m = std::fs::metadata(path).ok()?;
    m.is_file().then(|| (m.modified().ok(), m.len()))
}

/// Whether `path` changed since it was last seen; the first look only remembers it.
fn changed(watched: &mut Watched, path: &Path) -> bool {
    let Some((modified, len)) = stamp(path) else { return false };
    match &watched.0 {
        Some((p, m, l)) if p == path => {
            if *m == modified && *l == len {
                return false;
            }
            watched.0 = Some((path.to_path_buf(), modified, len));
            true
        }
        _ => {
            watched.0 = Some((path.to_path_buf(), modified, len));
            false
        }
    }
}

fn watch_battle_level(
    mut commands: Commands,
    mut watched: ResMut<Watched>,
    setup: Option<ResMut<CurrentSetup>>,
    content: Res<super::menu::Content>,
    mut notice: ResMut<Notice>,
) {
    let Some(mut setup) = setup else { return };
    // A battle resumed from a log or compiled in (the default level) has no file to follow.
    if setup.resume.is_some() {
        return;
    }
    let path = PathBuf::from(&setup.level.file);
    if !changed(&mut watched, &path) {
        return;
    }
    match load_level(&path, &content.0) {
        Ok(level) => {
            let seed = setup.seed;
            setup.level = level;
            setup.actor = None;
            commands.insert_resource(PendingNotice(format!(
                "{} changed on disk: reloaded, and the battle restarted with the same seed ({seed}).",
                path.display()
            )));
            commands.set_state(Screen::Battle);
        }
        Err(e) => notice.0 = format!("{e} — the file did not load; the battle goes on as it was."),
    }
}

fn pass_on_notice(mut commands: Commands, pending: Option<Res<PendingNotice>>, mut notice: ResMut<Notice>) {
    if let Some(p) = pending {
        notice.0 = p.0.clone();
        commands.remove_resource::<PendingNotice>();
    }
}

/// In the editor: a change on disk that is not our own save replaces the document (as an edit,
/// so it can be undone); a broken file leaves the document as it is and says why.
fn watch_editor_level(mut watched: ResMut<Watched>, editor: Option<ResMut<Editor>>) {
    let Some(mut editor) = editor else { return };
    let Some(path) = editor.doc.path.clone() else { return };
    if !changed(&mut watched, &path) {
        return;
    }
    match read_level_unchecked(&path) {
        Ok(level) if &level == editor.doc.level() => {}
        Ok(level) => {
            if editor.edit(crate::level::editing::Edit::Replace(Box::new(level))) {
                editor.doc.dirty = false;
                editor.status = format!("{} changed on disk: reloaded (Ctrl+Z goes back).", path.display());
            }
        }
        Err(e) => editor.status = format!("{e} — the file did not load; the editor keeps the last good level."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::builtin_compendium;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("meshal-reload-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A battle screen with only what the watcher needs, on a copy of the duel.
    fn app(path: &Path) -> App {
        let level = load_level(path, builtin_compendium()).unwrap();
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
            .init_state::<Screen>()
            .insert_resource(super::super::menu::Content(builtin_compendium().clone()))
            .init_resource::<Notice>()
            .insert_resource(CurrentSetup {
                level,
                seed: 7,
                player_side: None,
                view_side: None,
                actor: None,
                ready: None,
                side_profiles: vec![None, None],
                resume: None,
            })
            .init_resource::<Watched>()
            .add_systems(Update, watch_battle_level);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Battle);
        app.update();
        app
    }

    #[test]
    fn a_battle_reloads_a_good_file_and_reports_a_broken_one_keeping_the_battle() {
        let dir = scratch("battle");
        let path = dir.join("duel.level.ron");
        let text = include_str!("../../levels/duel.level.ron");
        std::fs::write(&path, text).unwrap();
        let mut app = app(&path);
        app.update(); // the first look only remembers the file
        assert!(app.world().get_resource::<PendingNotice>().is_none());
        // Broken: reported with file, line and column; the setup is untouched.
        std::fs::write(&path, "(name: \"Duel\",\n  map: [oops").unwrap();
        app.update();
        let notice = app.world().resource::<Notice>().0.clone();
        assert!(notice.contains("duel.level.ron:2:") && notice.contains("battle goes on"), "{notice}");
        assert_eq!(app.world().resource::<CurrentSetup>().level.level.name, "Duel at the Ford");
        // Fixed, with a change: reloaded, and the battle restarts with the same seed.
        std::fs::write(&path, text.replace("Duel at the Ford", "Duel at the Mill")).unwrap();
        app.update();
        let setup = app.world().resource::<CurrentSetup>();
        assert_eq!(setup.level.level.name, "Duel at the Mill");
        assert_eq!(setup.seed, 7);
        let pending = &app.world().resource::<PendingNotice>().0;
        assert!(pending.contains("restarted with the same seed (7)"), "{pending}");
        // Nothing changes: nothing happens.
        app.world_mut().remove_resource::<PendingNotice>();
        app.update();
        assert!(app.world().get_resource::<PendingNotice>().is_none());
    }

    #[test]
    fn the_editor_reloads_a_changed_file_as_an_undoable_edit() {
        let dir = scratch("editor");
        let path = dir.join("duel.level.ron");
        let text = include_str!("../../levels/duel.level.ron");
        std::fs::write(&path, text).unwrap();
        let level = read_level_unchecked(&path).unwrap();
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .insert_resource(Editor::new(crate::level::editing::EditorDoc::new(level, Some(path.clone()))))
            .init_resource::<Watched>()
            .add_systems(Update, watch_editor_level);
        app.update();
        std::fs::write(&path, "not a level").unwrap();
        app.update();
        let e = app.world().resource::<Editor>();
        assert!(
            e.status.contains("duel.level.ron:1:") && e.status.contains("keeps the last good level"),
            "{}",
            e.status
        );
        assert_eq!(e.doc.level().name, "Duel at the Ford");
        std::fs::write(&path, text.replace("Duel at the Ford", "Renamed")).unwrap();
        app.update();
        let mut e = app.world_mut().resource_mut::<Editor>();
        assert_eq!(e.doc.level().name, "Renamed");
        assert!(e.status.contains("reloaded"), "{}", e.status);
        e.undo();
        assert_eq!(e.doc.level().name, "Duel at the Ford");
    }
}
