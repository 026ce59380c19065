//! The game window, drawn for real: under Xvfb with software Vulkan the client takes a
//! screenshot of a level and the pixels are checked for the map, the tokens, the overlays and
//! the panels. CI installs xvfb and the Vulkan drivers (`.ci/run`); elsewhere the test says it
//! was skipped when `xvfb-run` is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `xvfb-run` arguments with a display number of this call's own: `-a` alone lets tests that
/// start at the same moment race for one number (the loser's window then cannot open).
fn xvfb_args() -> Vec<String> {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let server = 100 + (std::process::id() % 400) * 10 + k;
    vec!["-a".into(), "-n".into(), server.to_string(), "-s".into(), "-screen 0 1280x720x24".into()]
}

fn xvfb_run() -> Option<PathBuf> {
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join("xvfb-run")).find(|p| p.exists())
}

struct Shot {
    width: u32,
    height: u32,
    rgb: Vec<[u8; 3]>,
}

impl Shot {
    fn load(path: &Path) -> Shot {
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = info.color_type.samples();
        let rgb = buf[..info.buffer_size()].chunks(channels).map(|c| [c[0], c[1], c[2]]).collect();
        Shot { width: info.width, height: info.height, rgb }
    }
    /// Pixels within `tolerance` of `colour`, in the rectangle x0..x1, y0..y1 (y down).
    fn count(&self, colour: [u8; 3], tolerance: u8, (x0, x1): (u32, u32), (y0, y1): (u32, u32)) -> usize {
        let mut n = 0;
        for y in y0..y1.min(self.height) {
            for x in x0..x1.min(self.width) {
                let p = self.rgb[(y * self.width + x) as usize];
                if p.iter().zip(colour).all(|(a, b)| a.abs_diff(b) <= tolerance) {
                    n += 1;
                }
            }
        }
        n
    }
}

fn screenshot(name: &str, args: &[&str]) -> Option<Shot> {
    screenshot_of("play", name, args)
}

/// Run `attempt` until the virtual X server it starts is really there, at most three times.
/// Under load an Xvfb started by `xvfb-run` now and then is not up when the game connects
/// (`XOpenDisplayFailed`): that is the test machine failing, not the game, so only that is
/// retried; every other failure is reported at once.
fn with_a_display<T: DisplayOutcome>(mut attempt: impl FnMut() -> T) -> std::process::Output {
    let mut tries = 0;
    loop {
        tries += 1;
        let outcome = attempt();
        if !outcome.no_display() || tries == 3 {
            return outcome.output();
        }
        eprintln!("the virtual display was not there (XOpenDisplayFailed); trying again");
    }
}

/// What one attempt gave: its output, and whether the display never came up.
trait DisplayOutcome {
    fn no_display(&self) -> bool;
    fn output(self) -> std::process::Output;
}

impl DisplayOutcome for std::process::Output {
    fn no_display(&self) -> bool {
        String::from_utf8_lossy(&self.stderr).contains("XOpenDisplayFailed")
    }
    fn output(self) -> std::process::Output {
        self
    }
}

impl DisplayOutcome for (std::process::Output, bool) {
    fn no_display(&self) -> bool {
        self.1 || self.0.no_display()
    }
    fn output(self) -> std::process::Output {
        self.0
    }
}

/// A screenshot of `meshal-tactics SUBCOMMAND ARGS… --screenshot FILE`.
fn screenshot_of(subcommand: &str, name: &str, args: &[&str]) -> Option<Shot> {
    let Some(xvfb) = xvfb_run() else {
        assert!(std::env::var_os("CI").is_none(), "CI must install xvfb (see .ci/run)");
        eprintln!("skipped: xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers libvulkan1)");
        return None;
    };
    let dir = std::env::temp_dir().join(format!("meshal-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let out = with_a_display(|| {
        Command::new(&xvfb)
            .args(xvfb_args())
            .args([env!("CARGO_BIN_EXE_meshal-tactics"), subcommand])
            .args(args)
            .arg("--screenshot")
            .arg(&path)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    });
    assert!(
        out.status.success(),
        "the window failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let shot = Shot::load(&path);
    // Kept for people to look at when the test fails.
    let keep = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::copy(&path, keep);
    Some(shot)
}

const WALL: [u8; 3] = [88, 86, 94];
const LOW_WALL: [u8; 3] = [150, 142, 130];
const FLOOR: [u8; 3] = [138, 128, 108];
const PLAYER: [u8; 3] = [51, 115, 217];
const FOE: [u8; 3] = [204, 56, 51];
const PANEL: (u32, u32) = (1280 - 340, 1280);
const MAP: (u32, u32) = (0, 1280 - 340);

#[test]
fn the_window_draws_map_tokens_panels_and_overlays() {
    // The AI waits so long that nothing moves: the first frames are the level as loaded.
    let Some(shot) = screenshot(
        "walls_and_cover.png",
        &["levels/walls_and_cover.level.ron", "--seed", "2", "--ai-delay", "1000", "--hover", "6,7", "--frames", "40"],
    ) else {
        return;
    };
    assert_eq!((shot.width, shot.height), (1280, 720));
    let map_rows = (0, 720 - 170);
    assert!(shot.count(FLOOR, 6, MAP, map_rows) > 20_000, "floor tiles");
    assert!(shot.count(WALL, 6, MAP, map_rows) > 1_000, "wall tiles");
    assert!(shot.count(LOW_WALL, 6, MAP, map_rows) > 300, "low-wall tiles");
    // About 650 pixels of side colour per token at this zoom.
    let player = shot.count(PLAYER, 12, MAP, map_rows);
    assert!(player > 2_000, "the player's four tokens: {player}");
    // PERC: Blue sees only two of Red's four at the start (walls hide the others).
    let foe = shot.count(FOE, 12, MAP, map_rows);
    assert!((1_000..2_000).contains(&foe), "two enemy tokens, not four: {foe}");
    // The panel is dark with light text on it.
    let panel_bg = shot.count([18, 20, 26], 10, PANEL, (0, 720));
    let panel_text = shot.count([230, 230, 224], 40, PANEL, (0, 720));
    assert!(panel_bg > 150_000, "panel background: {panel_bg}");
    assert!(panel_text > 1_000, "panel text: {panel_text}");
    // No panel colour where the map is: the camera keeps the map clear of the panels.
    assert!(shot.count(FLOOR, 6, PANEL, (0, 720)) == 0, "no map under the panel");
}

// The main menu (`play` with no level): the title, the level list and the chosen level's
// thumbnail, drawn from its map (floor and wall colours) with its creatures as side-coloured dots.
#[test]
fn the_menu_lists_levels_with_a_thumbnail() {
    let Some(shot) = screenshot("menu.png", &["--frames", "20"]) else { return };
    let accent = shot.count([255, 217, 115], 30, (0, 1280), (0, 120));
    assert!(accent > 2_000, "the title and the level's name in the accent colour: {accent}");
    // The thumbnail sits right of the list, below the description.
    let thumb = ((380, 1280), (100, 460));
    assert!(shot.count(FLOOR, 6, thumb.0, thumb.1) > 20_000, "the thumbnail's floor");
    assert!(shot.count(PLAYER, 12, thumb.0, thumb.1) > 200, "the player's creatures on it");
    assert!(shot.count(FOE, 12, thumb.0, thumb.1) > 200, "the foes on it");
    // One button per level file in the list column, the selected one lit.
    let lit = shot.count([56, 92, 153], 8, (20, 360), (120, 720));
    assert!(lit > 5_000, "the selected level's button: {lit}");
}

/// A fresh directory for a flow test, offering one level (the duel) in its `levels/`.
fn flow_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/duel.level.ron"),
        dir.join("levels/duel.level.ron"),
    )
    .unwrap();
    dir
}

/// Run a flow script (it drives `$GAME` with xdotool) under its own Xvfb in `dir`; the game
/// must quit cleanly. Its log, for the failure messages.
fn run_flow(xvfb: &Path, dir: &Path, script: &str) -> String {
    let out = with_a_display(|| {
        let out = Command::new(xvfb)
            .args(xvfb_args())
            .args(["bash", "-c", script])
            .env("GAME", env!("CARGO_BIN_EXE_meshal-tactics"))
            .current_dir(dir)
            .output()
            .unwrap();
        // The game's own log says whether the display was there at all.
        let log = std::fs::read_to_string(dir.join("game.log")).unwrap_or_default();
        (out, log.contains("XOpenDisplayFailed"))
    });
    let log = std::fs::read_to_string(dir.join("game.log")).unwrap_or_default();
    assert!(out.status.success(), "the game did not quit cleanly: {}\n{log}", String::from_utf8_lossy(&out.stderr));
    log
}

/// `xdotool`, which the flow test drives the window with (CI installs it).
fn xdotool() -> Option<PathBuf> {
    std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join("xdotool")).find(|p| p.exists())
}

// The whole flow by synthetic input: the menu (one level offered), S S to watch, Enter; the AI
// plays the battle out and the result screen follows; M goes back to the menu; Ctrl+Q quits.
// F12 on each screen saves a picture named after the screen, so the pictures taken say which
// screens were reached. Steps are retried until their picture appears: a software-rendered
// window under load may take seconds to answer. (The player's own keys and clicks are tested
// headless: `src/client/input_tests.rs`, `cursor.rs`.)
#[test]
fn menu_battle_result_and_back_by_keyboard() {
    let (Some(xvfb), Some(xdo)) = (xvfb_run(), xdotool()) else {
        assert!(std::env::var_os("CI").is_none(), "CI must install xvfb and xdotool (see .ci/run)");
        eprintln!("skipped: xvfb-run or xdotool is not installed");
        return;
    };
    let dir = flow_dir("meshal-flow");
    let script = format!(
        r#"set -u
"$GAME" play --ai-delay 0 > game.log 2>&1 &
game=$!
key() {{ "{xdo}" keydown "$1"; sleep 0.3; "{xdo}" keyup "$1"; sleep 0.5; }}
count() {{ ls $1 2>/dev/null | wc -l; }}
for _ in $(seq 240); do w=$("{xdo}" search --name "Meshal Tactics" | head -1); [ -n "$w" ] && break; sleep 0.5; done
[ -n "$w" ] || {{ echo "no window appeared" >&2; exit 3; }}
sleep 2
"{xdo}" windowfocus "$w"
for _ in $(seq 30); do key F12; sleep 1; [ "$(count 'meshal-menu-*.png')" -ge 1 ] && break; done
key s; key s; key Return
for _ in $(seq 150); do sleep 1; key F12; [ "$(count 'meshal-result-*.png')" -ge 1 ] && break; done
for _ in $(seq 30); do key m; sleep 1.5; key F12; sleep 1; [ "$(count 'meshal-menu-*.png')" -ge 2 ] && break; done
key ctrl+q
wait $game
"#,
        xdo = xdo.display()
    );
    let log = run_flow(&xvfb, &dir, &script);
    let shots: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".png"))
        .collect();
    let reached = |prefix: &str| shots.iter().filter(|n| n.starts_with(prefix)).count();
    assert!(reached("meshal-menu-") >= 2, "the menu, at the start and again at the end: {shots:?}\n{log}");
    assert!(reached("meshal-seed") >= 1, "the battle screen: {shots:?}\n{log}");
    assert!(reached("meshal-result-") >= 1, "the result screen: {shots:?}\n{log}");
    let result = Shot::load(&dir.join(shots.iter().find(|n| n.starts_with("meshal-result-")).unwrap()));
    assert!(result.count([255, 217, 115], 30, (0, 700), (0, 80)) > 500, "the winner's line in the accent colour");
}

/// Pixels of the rectangle that differ clearly between two pictures of the same moment.
fn changed(a: &Shot, b: &Shot, (x0, x1): (u32, u32), (y0, y1): (u32, u32)) -> usize {
    let mut n = 0;
    for y in y0..y1.min(a.height) {
        for x in x0..x1.min(a.width) {
            let i = (y * a.width + x) as usize;
            if a.rgb[i].iter().zip(b.rgb[i]).any(|(p, q)| p.abs_diff(q) > 20) {
                n += 1;
            }
        }
    }
    n
}

// Each overlay (`--overlay NAME`, F2–F7 in the window) changes the picture where its rule says:
// reach around the player's creature in turn (Blue, on the left), the threat view where Red's
// fighters could strike, grid lines over the whole map, fog where Blue cannot see; the panel
// never changes with them. The duel at seed 2 opens on Blue's turn; the AI is held still.
#[test]
fn each_overlay_changes_the_pixels_where_it_should() {
    let duel = ["levels/duel.level.ron", "--seed", "2", "--ai-delay", "1000", "--frames", "30"];
    let shot = |name: &str, level: &[&str], overlays: &[&str]| {
        let mut args: Vec<&str> = level.to_vec();
        for o in overlays {
            args.extend(["--overlay", o]);
        }
        screenshot(name, &args)
    };
    let Some(none) = shot("overlay-none.png", &duel, &["none"]) else { return };
    let reach = shot("overlay-reach.png", &duel, &["reach"]).unwrap();
    let threat = shot("overlay-threat.png", &duel, &["threat"]).unwrap();
    let grid = shot("overlay-grid.png", &duel, &["grid"]).unwrap();
    // The legend (bottom left of the map) lists the overlays that are on: left out here.
    let (top, bottom) = ((0, 450), (0, 720 - 170));
    let left = (0, 470);
    let right = (470, 1280 - 340);
    let reach_left = changed(&none, &reach, left, top);
    let reach_right = changed(&none, &reach, (600, 940), top);
    assert!(reach_left > 20_000, "reach shades Blue's squares: {reach_left}");
    // Three moves reach most of this small map, paler for each further move.
    assert!(reach_right < reach_left * 3 / 4, "and less on Red's far side: {reach_right} vs {reach_left}");
    let threat_right = changed(&none, &threat, right, top);
    assert!(threat_right > 3_000, "threat outlines where Red strikes next round: {threat_right}");
    assert!(threat.count([242, 51, 38], 40, right, top) > 1_000, "in the threat red");
    let grid_all = changed(&none, &grid, MAP, bottom);
    assert!(grid_all > 3_000, "grid lines over the map: {grid_all}");
    for (name, s) in [("reach", &reach), ("threat", &threat), ("grid", &grid)] {
        assert_eq!(changed(&none, s, PANEL, (0, 560)), 0, "{name} leaves the panel alone");
    }
    // PERC: at the start Blue sees only part of walls and cover; fog dims the rest.
    let walls = ["levels/walls_and_cover.level.ron", "--seed", "2", "--ai-delay", "1000", "--frames", "30"];
    let clear = shot("overlay-nofog.png", &walls, &["none"]).unwrap();
    let fog = shot("overlay-fog.png", &walls, &["fog"]).unwrap();
    let dimmed = changed(&clear, &fog, MAP, top);
    assert!(dimmed > 10_000, "fog dims the squares Blue cannot see: {dimmed}");
}

// `play LEVEL --watch --frame-report N` on the shipped 64×64 level with 30 creatures: the
// window opens straight on the battle (no menu first: a screen entered before Startup must
// find every resource it reads), the AI plays, and the report of what the client's systems
// cost a frame is printed before the window closes. The figure itself is in README (measured,
// not asserted: timings belong to benchmarks).
#[test]
fn the_frame_report_runs_on_the_great_field() {
    let Some(xvfb) = xvfb_run() else {
        assert!(std::env::var_os("CI").is_none(), "CI must install xvfb (see .ci/run)");
        return;
    };
    let out = with_a_display(|| {
        Command::new(&xvfb)
            .args(xvfb_args())
            .args([env!("CARGO_BIN_EXE_meshal-tactics"), "play"])
            .args(["levels/great_field.level.ron", "--watch", "--seed", "1", "--ai-delay", "0", "--frame-report", "60"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    });
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("frame report: 60 frames during AI turns on The Great Field"), "{stdout}");
    assert!(stdout.contains("client systems (Update, AI decisions excluded): mean "), "{stdout}");
    assert!(!stdout.contains("headless"), "the window itself ran: {stdout}");
}

// A whole battle played by a player at the keyboard alone, from the menu to the result and back:
// Enter starts the offered level (the duel, as Blue); each turn the player readies the first
// weapon (1), jumps the grid cursor to the next enemy (Tab), confirms (Enter: walk into reach
// and strike, or the reason it cannot), ends the turn (Space) and takes any attack (N). On the
// result screen S saves the log, M goes back to the menu, Ctrl+Q quits. The saved log must hold
// attacks made by Blue's creatures: the player's input really played.
#[test]
fn a_player_plays_a_whole_battle_by_keyboard() {
    let (Some(xvfb), Some(xdo)) = (xvfb_run(), xdotool()) else {
        assert!(std::env::var_os("CI").is_none(), "CI must install xvfb and xdotool (see .ci/run)");
        return;
    };
    let dir = flow_dir("meshal-play");
    let script = format!(
        r#"set -u
"$GAME" play --ai-delay 0 --seed 5 > game.log 2>&1 &
game=$!
key() {{ "{xdo}" keydown "$1"; sleep 0.25; "{xdo}" keyup "$1"; sleep 0.25; }}
count() {{ ls $1 2>/dev/null | wc -l; }}
for _ in $(seq 240); do w=$("{xdo}" search --name "Meshal Tactics" | head -1); [ -n "$w" ] && break; sleep 0.5; done
[ -n "$w" ] || {{ echo "no window appeared" >&2; exit 3; }}
sleep 2
"{xdo}" windowfocus "$w"
for _ in $(seq 30); do key F12; sleep 1; [ "$(count 'meshal-menu-*.png')" -ge 1 ] && break; done
key Return
# The window's title names the screen: each key is pressed only while the battle is on.
on_result() {{ "{xdo}" getwindowname "$w" | grep -q " - result"; }}
done=0
for _ in $(seq 200); do
  for k in 1 Tab Return space n; do
    if on_result; then done=1; break; fi
    key $k
  done
  [ $done = 1 ] && break
done
sleep 1; key F12; sleep 1
key s; sleep 1
for _ in $(seq 30); do key m; sleep 1.5; key F12; sleep 1; [ "$(count 'meshal-menu-*.png')" -ge 2 ] && break; done
key ctrl+q
wait $game
"#,
        xdo = xdo.display()
    );
    let log = run_flow(&xvfb, &dir, &script);
    let files: Vec<String> =
        std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    let reached = |prefix: &str| files.iter().filter(|n| n.starts_with(prefix) && n.ends_with(".png")).count();
    assert!(reached("meshal-result-") >= 1, "the result screen: {files:?}\n{log}");
    assert!(reached("meshal-menu-") >= 2, "back on the menu: {files:?}\n{log}");
    let saved = files.iter().find(|n| n.ends_with(".log.jsonl")).unwrap_or_else(|| panic!("a saved log: {files:?}"));
    let entries: Vec<serde_json::Value> =
        std::fs::read_to_string(dir.join(saved)).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let blue_attacks = entries
        .iter()
        .filter(|e| {
            let accepted = &e["event"]["CommandAccepted"];
            accepted["command"].get("Attack").is_some() && [0, 1].contains(&accepted["creature"].as_u64().unwrap_or(9))
        })
        .count();
    assert!(blue_attacks >= 1, "the player's creatures attacked: {blue_attacks}\n{}", entries.len());
    assert!(entries.iter().any(|e| e["event"].get("BattleEnded").is_some()), "the battle was played to its end");
}

// `--actor NAME --ready WEAPON` stage a picture: the battle is advanced to that creature's turn
// (every creature before it ends its turn) and it starts with the weapon ready, lit in the
// action bar; a name or weapon the level does not have is refused with the list.
#[test]
fn a_picture_can_be_staged_on_a_creatures_turn_with_a_weapon_ready() {
    let staged = ["levels/skirmish.level.ron", "--side", "Company", "--seed", "3", "--ai-delay", "1000"];
    let mut args = staged.to_vec();
    args.extend(["--actor", "Dara", "--ready", "fireball", "--frames", "30"]);
    let Some(shot) = screenshot("staged.png", &args) else { return };
    let lit = shot.count([56, 92, 153], 10, PANEL, (440, 720));
    assert!(lit > 2_000, "the ready weapon's button is lit: {lit}");
    let out = Command::new(env!("CARGO_BIN_EXE_meshal-tactics"))
        .args(["play", "levels/skirmish.level.ron", "--actor", "Dara", "--ready", "sword"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Dara has no such weapon (fireball, lightning"));
}

// RULES: MOVE-11, MOVE-12 — with a knock-back weapon ready over a foe at the edge, the map
// shows where the blow would throw it: a red arrow and square over the chasm (a fall that
// hurts); the chasm itself is drawn as its own dark tile.
#[test]
fn a_knock_back_over_the_edge_is_shown_on_the_map() {
    let ledge =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/the_ledge.level.ron")).unwrap();
    let staged = ledge
        .replace(r#"at: (10, 3), facing: N)"#, r#"at: (11, 6), facing: W, overrides: (activeness: Some(10)))"#)
        .replace(r#""Raiders", at: (9, 8), facing: S)"#, r#""Raiders", at: (10, 6), facing: W)"#);
    assert_ne!(staged, ledge);
    let dir = std::env::temp_dir().join(format!("meshal-ledge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let level = dir.join("ledge.level.ron");
    std::fs::write(&level, staged).unwrap();
    let level = level.to_str().unwrap();
    let args = |hover: &'static str| {
        vec![level, "--side", "Wardens", "--seed", "3", "--ai-delay", "1000", "--actor", "Hammer guard Ada"]
            .into_iter()
            .chain(["--ready", "warhammer", "--hover", hover, "--frames", "40"])
            .collect::<Vec<_>>()
    };
    let Some(edge) = screenshot("knockback.png", &args("10,6")) else { return };
    let Some(elsewhere) = screenshot("knockback_none.png", &args("14,3")) else { return };
    const FALL_RED: [u8; 3] = [255, 51, 51];
    let (shown, none) = (edge.count(FALL_RED, 6, MAP, (0, 540)), elsewhere.count(FALL_RED, 6, MAP, (0, 540)));
    assert!(shown > 40 && none < 5, "the fall's arrow and square: {shown} over the foe at the edge, {none} elsewhere");
    let chasm = edge.count([22, 18, 26], 4, MAP, (0, 540));
    assert!(chasm > 20_000, "the chasm's tiles: {chasm}");
}

/// The editor's egui panels.
const EGUI_PANEL: [u8; 3] = [27, 27, 27];
/// The editor's mark on a problem's square (`client::editor::draw_marks`).
const PROBLEM_RED: [u8; 3] = [255, 38, 25];

// The encounter editor on the skirmish: the map left of the panel, tokens in side colours, the
// panel and tool bar drawn by egui. The same level with Cato standing in the wall: the level is
// opened all the same, and the problem is marked on his square in red.
#[test]
fn the_editor_draws_the_map_beside_its_panel_and_marks_a_problem_at_its_square() {
    let Some(shot) = screenshot_of("edit", "editor.png", &["levels/skirmish.level.ron", "--frames", "20"]) else {
        return;
    };
    let (map, panel) = ((0, 1280 - 330), (1280 - 330, 1280));
    assert!(shot.count(FLOOR, 2, map, (40, 720)) > 40_000, "the map's floor");
    assert!(shot.count(PLAYER, 12, map, (40, 720)) > 300, "the Company's tokens");
    assert!(shot.count(FOE, 12, map, (40, 720)) > 300, "the Pack's tokens");
    assert!(shot.count(EGUI_PANEL, 2, panel, (40, 720)) > 150_000, "the side panel");
    assert!(shot.count(EGUI_PANEL, 2, (0, 1280), (0, 30)) > 20_000, "the tool bar");
    assert_eq!(shot.count(FLOOR, 2, panel, (40, 720)), 0, "no map under the panel");
    assert_eq!(shot.count(PROBLEM_RED, 20, map, (40, 720)), 0, "a valid level has nothing marked");
    let shipped = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.level.ron")).unwrap();
    let broken = shipped.replace(
        r#"(name: "Cato", template: "archer", side: "Company", at: (1, 6)"#,
        r#"(name: "Cato", template: "archer", side: "Company", at: (0, 6)"#,
    );
    assert_ne!(broken, shipped);
    let dir = std::env::temp_dir().join(format!("meshal-render-edit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.level.ron");
    std::fs::write(&path, broken).unwrap();
    let Some(marked) = screenshot_of("edit", "editor-problem.png", &[path.to_str().unwrap(), "--frames", "20"]) else {
        return;
    };
    let red = marked.count(PROBLEM_RED, 20, map, (40, 720));
    assert!(red > 60, "the wall square under Cato is marked: {red} red pixels");
    // The mark is at the map's west edge, where Cato stands (x = 0).
    assert!(marked.count(PROBLEM_RED, 20, (0, 120), (40, 720)) == red, "and only there");
}

// The editor by mouse and keyboard: B (brush), a drag across the map, Ctrl+S; then a second
// stroke undone with Ctrl+Z and saved again. The file on disk has the first stroke, not the
// second, and still loads.
#[test]
fn the_editor_paints_undoes_and_saves_by_mouse_and_keys() {
    let (Some(xvfb), Some(xdo)) = (xvfb_run(), xdotool()) else {
        assert!(std::env::var_os("CI").is_none(), "CI must install xvfb and xdotool (see .ci/run)");
        eprintln!("skipped: xvfb-run or xdotool is not installed");
        return;
    };
    let dir = flow_dir("meshal-edit-flow");
    let before = std::fs::read_to_string(dir.join("levels/duel.level.ron")).unwrap();
    let script = format!(
        r#"set -u
"$GAME" edit levels/duel.level.ron > game.log 2>&1 &
game=$!
key() {{ "{xdo}" keydown "$1"; sleep 0.3; "{xdo}" keyup "$1"; sleep 0.6; }}
drag() {{ "{xdo}" mousemove $1 $2; sleep 0.3; "{xdo}" mousedown 1; sleep 0.3
  for k in 1 2 3 4 5 6 7 8; do "{xdo}" mousemove $(( $1 + ($3 - $1) * k / 8 )) $2; sleep 0.2; done
  sleep 0.3; "{xdo}" mouseup 1; sleep 0.6; }}
for _ in $(seq 240); do w=$("{xdo}" search --name "Meshal Tactics" | head -1); [ -n "$w" ] && break; sleep 0.5; done
[ -n "$w" ] || {{ echo "no window appeared" >&2; exit 3; }}
sleep 3
"{xdo}" windowfocus "$w"
key b
drag 150 300 800
key ctrl+s
sleep 1
cp levels/duel.level.ron first.ron
drag 150 420 800
key ctrl+z
key ctrl+s
sleep 1
key ctrl+q
wait $game
"#,
        xdo = xdo.display()
    );
    let log = run_flow(&xvfb, &dir, &script);
    let first = std::fs::read_to_string(dir.join("first.ron")).unwrap_or_default();
    let last = std::fs::read_to_string(dir.join("levels/duel.level.ron")).unwrap();
    let dark = |t: &str| {
        t.lines()
            .filter(|l| l.trim_start().starts_with('"') && l.contains('#'))
            .map(|l| l.matches('%').count())
            .sum::<usize>()
    };
    assert!(dark(&first) >= 6, "the stroke painted a row of squares dark: {first}\n{log}");
    assert_eq!(last, first, "the second stroke was undone before saving");
    assert_ne!(first, before);
    let check = Command::new(env!("CARGO_BIN_EXE_meshal-tactics"))
        .args(["check", "levels/duel.level.ron"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(check.status.success(), "the saved level loads: {}", String::from_utf8_lossy(&check.stderr));
}

// The rules sandbox: a circle of radius 3 shows both conventions (Meshal's crosses in orange,
// D&D's squares in cyan); with nothing placed, neither is drawn. A line of sight past the
// skirmish's low wall is drawn in the cover colour, and a template placed before it is not
// drawn while the line of sight tool is chosen.
#[test]
fn the_sandbox_shows_both_area_conventions_and_a_line_with_cover() {
    let orange = [255, 140, 25];
    let cyan = [51, 217, 255];
    let map = ((0, 1280 - 330), (40, 720));
    let Some(none) = screenshot_of("sandbox", "sandbox-empty.png", &["levels/skirmish.level.ron", "--frames", "20"])
    else {
        return;
    };
    assert_eq!(none.count(orange, 10, map.0, map.1) + none.count(cyan, 10, map.0, map.1), 0);
    let Some(area) = screenshot_of(
        "sandbox",
        "sandbox-area.png",
        &["levels/skirmish.level.ron", "--at", "8,10", "--size", "3", "--frames", "20"],
    ) else {
        return;
    };
    let (m, d) = (area.count(orange, 10, map.0, map.1), area.count(cyan, 10, map.0, map.1));
    assert!(m > 600 && d > 600, "both conventions drawn: {m} orange, {d} cyan");
    let Some(sight) = screenshot_of(
        "sandbox",
        "sandbox-sight.png",
        &["levels/skirmish.level.ron", "--tool", "sight", "--sight", "10,13:2,13", "--at", "8,10", "--frames", "20"],
    ) else {
        return;
    };
    let yellow = sight.count([255, 217, 51], 10, map.0, map.1);
    assert!(yellow > 300, "the line and the square that shelters the target, in the cover colour: {yellow}");
    // A template placed, but the line of sight chosen: only the chosen tool's picture is drawn.
    let (m, d) = (sight.count(orange, 10, map.0, map.1), sight.count(cyan, 10, map.0, map.1));
    assert_eq!((m, d), (0, 0), "no area template under the line of sight tool");
}

// The replay viewer on a saved skirmish log, opened at an event in round 5: the board (floor,
// tokens in both sides' colours, the downed crossed out in red) beside the egui panel.
#[test]
fn the_replay_viewer_shows_the_battle_at_a_chosen_event() {
    let dir = std::env::temp_dir().join(format!("meshal-render-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("s3.log.jsonl");
    let run = Command::new(env!("CARGO_BIN_EXE_meshal-tactics"))
        .args(["run", "levels/skirmish.level.ron", "--seed", "3", "--quiet", "--log"])
        .arg(&log)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(run.status.success());
    let Some(shot) =
        screenshot_of("replay", "replay.png", &[log.to_str().unwrap(), "--view", "--at", "600", "--frames", "20"])
    else {
        return;
    };
    let (map, panel) = ((0, 1280 - 330), (1280 - 330, 1280));
    assert!(shot.count(FLOOR, 2, map, (40, 720)) > 40_000, "the map");
    assert!(shot.count(PLAYER, 12, map, (40, 720)) > 200, "the Company's tokens");
    assert!(shot.count([230, 26, 26], 12, map, (40, 720)) > 50, "a fallen creature's red cross");
    assert!(shot.count(EGUI_PANEL, 2, panel, (40, 720)) > 100_000, "the panel");
    // At the start nobody is down.
    let Some(start) = screenshot_of("replay", "replay-start.png", &[log.to_str().unwrap(), "--view", "--frames", "20"])
    else {
        return;
    };
    assert_eq!(start.count([230, 26, 26], 12, map, (40, 720)), 0, "nobody down at the first event");
}
