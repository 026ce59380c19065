//! The GM's tools that open a window or make a level: `edit`, `sandbox`, `import-tiled`.

use super::{compendium, fail, say};
use crate::calculator;
use meshal_tactics::client::sandbox::{Sandbox, SandboxTool, ShapeKind};
use std::process::ExitCode;

/// `sandbox`'s flags.
#[derive(clap::Args)]
pub struct SandboxArgs {
    pub level: Option<String>,
    /// Start with this tool: area, facing or sight.
    #[arg(long, default_value = "area")]
    pub tool: String,
    /// The area template: circle, ring, sector, ray or curve, placed at --at.
    #[arg(long, default_value = "circle")]
    pub shape: String,
    #[arg(long, allow_hyphen_values = true)]
    pub at: Option<String>,
    /// Radius (circle, ring) or length (sector, ray, curve).
    #[arg(long, default_value_t = 3)]
    pub size: i32,
    #[arg(long, default_value_t = 1)]
    pub width: i32,
    #[arg(long, default_value_t = 90.0)]
    pub angle: f64,
    #[arg(long, default_value = "E")]
    pub toward: String,
    /// Show this creature's facing sectors.
    #[arg(long)]
    pub token: Option<String>,
    /// A line of sight FROM:TO, e.g. 3,4:10,6.
    #[arg(long, allow_hyphen_values = true)]
    pub sight: Option<String>,
    /// A curve's bend (a square; repeatable, in order, the last its end: AREA-E5).
    #[arg(long = "bend", allow_hyphen_values = true)]
    pub bend: Vec<String>,
    #[arg(long)]
    pub screenshot: Option<String>,
    #[arg(long, default_value_t = 30)]
    pub frames: u32,
}

/// `sandbox [LEVEL]`: every flag checked before the window opens.
pub fn sandbox(a: SandboxArgs) -> ExitCode {
    let (screenshot, frames) = (a.screenshot.clone(), a.frames);
    match staged(a) {
        Ok(s) => open_sandbox(s, screenshot, frames),
        Err(e) => fail(&e),
    }
}

/// The sandbox as its flags set it up.
fn staged(a: SandboxArgs) -> Result<Sandbox, String> {
    let SandboxArgs { level, tool, shape, at, size, width, angle, toward, token, sight, bend, .. } = a;
    let path = level.unwrap_or_else(|| super::DEFAULT_LEVEL.0.to_string());
    let loaded = super::load(&path)?;
    let on_map = |flag: &str, p: meshal_tactics::rules::grid::Pos| {
        if loaded.map.in_bounds(p) {
            Ok(p)
        } else {
            Err(format!("{flag} {p} is off the {}x{} map", loaded.map.width(), loaded.map.height()))
        }
    };
    let mut s = Sandbox::new(loaded.clone());
    s.tool = match tool.as_str() {
        "area" => SandboxTool::Area,
        "facing" => SandboxTool::Facing,
        "sight" => SandboxTool::Sight,
        other => return Err(format!("--tool {other}: use area, facing or sight")),
    };
    s.shape = match shape.as_str() {
        "circle" => ShapeKind::Circle,
        "ring" => ShapeKind::Ring,
        "sector" | "cone" => ShapeKind::Sector,
        "ray" | "line" => ShapeKind::Ray,
        "curve" => ShapeKind::Curve,
        other => return Err(format!("--shape {other}: use circle, ring, sector, ray or curve")),
    };
    if !(0..=64).contains(&size) || !(0..=64).contains(&width) {
        return Err("--size and --width must be 0..=64".into());
    }
    if !(angle > 0.0 && angle <= 360.0) {
        return Err(format!("--angle {angle} must be in (0, 360]"));
    }
    (s.size, s.width, s.angle) = (size, width, angle);
    s.toward = calculator::parse_facing(&toward)?;
    s.origin = at.as_deref().map(calculator::parse_pos).transpose()?.map(|p| on_map("--at", p)).transpose()?;
    s.bends =
        bend.iter().map(|b| calculator::parse_pos(b).and_then(|p| on_map("--bend", p))).collect::<Result<_, _>>()?;
    if !s.bends.is_empty() && s.origin.is_none() {
        return Err("--bend: a curve starts at --at X,Y; give it too".into());
    }
    if s.shape == ShapeKind::Curve
        && let Some(why) = s.curve_problem()
    {
        return Err(format!("--bend: {why}"));
    }
    if let Some(name) = token {
        s.token = Some(
            loaded
                .level
                .creatures
                .iter()
                .position(|c| c.name == name)
                .ok_or_else(|| format!("--token {name}: {path} has no such creature"))?,
        );
    }
    if let Some(spec) = sight {
        let (a, b) = spec.split_once(':').ok_or_else(|| format!("--sight {spec}: give FROM:TO, e.g. 3,4:10,6"))?;
        let a = on_map("--sight", calculator::parse_pos(a)?)?;
        let b = on_map("--sight", calculator::parse_pos(b)?)?;
        s.sight = (Some(a), Some(b));
    }
    Ok(s)
}

/// `import-tiled MAP -o LEVEL`: written only when the map makes a valid level.
pub fn import_tiled(map: &str, output: &str) -> ExitCode {
    match meshal_tactics::level::tiled::import(std::path::Path::new(map), compendium()) {
        Ok(level) => {
            let doc = meshal_tactics::level::editing::EditorDoc::new(level, None);
            match meshal_tactics::files::write_atomically(std::path::Path::new(output), doc.to_ron().as_bytes()) {
                Ok(()) => {
                    let l = doc.level();
                    say(&format!(
                        "wrote {output}: \"{}\", {}×{}, {} creatures, {} sides",
                        l.name,
                        doc.width(),
                        doc.height(),
                        l.creatures.len(),
                        l.sides.len()
                    ));
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e.to_string()),
            }
        }
        Err(e) => fail(&e),
    }
}

/// `sandbox [LEVEL]`: the rules sandbox, set up by its flags.
fn open_sandbox(s: Sandbox, screenshot: Option<String>, frames: u32) -> ExitCode {
    if !(1..=100_000).contains(&frames) {
        return fail(&format!("--frames {frames} must be 1..=100000"));
    }
    if !super::display_available() {
        return fail("the sandbox needs a display ($DISPLAY is not set; try xvfb-run)");
    }
    let mut options = window_options(screenshot, frames);
    options.sandbox = Some(s);
    match meshal_tactics::app::run_window(options, super::compendium()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

/// Window options for a screen that is not a battle (the editor, the sandbox).
fn window_options(screenshot: Option<String>, frames: u32) -> meshal_tactics::app::WindowOptions {
    meshal_tactics::app::WindowOptions {
        side_profiles: None,
        level: None,
        seed: 1,
        player_side: None,
        view_side: None,
        actor: None,
        ready: None,
        overlays: None,
        ai_delay: 0.35,
        screenshot: screenshot.map(|p| (std::path::PathBuf::from(p), frames)),
        hover: None,
        frame_report: None,
        editor: None,
        sandbox: None,
        replay: None,
    }
}

/// `edit [LEVEL]`: the level as its file says (checked only as far as drawing it needs; what
/// else is wrong is marked in the editor), a new file to create, or a blank level.
pub fn edit(level: Option<String>, screenshot: Option<String>, frames: u32) -> ExitCode {
    let open = match &level {
        None => None,
        Some(path) if !std::path::Path::new(path).exists() => {
            super::say(&format!("{path} does not exist yet: a blank level, saved there."));
            let mut doc = meshal_tactics::level::editing::EditorDoc::blank(24, 16);
            doc.path = Some(path.into());
            Some((doc.level().clone(), std::path::PathBuf::from(path)))
        }
        Some(path) => match meshal_tactics::level::read_level_unchecked(std::path::Path::new(path)) {
            Ok(l) => Some((l, std::path::PathBuf::from(path))),
            Err(e) => return fail(&e.to_string()),
        },
    };
    if !(1..=100_000).contains(&frames) {
        return fail(&format!("--frames {frames} must be 1..=100000"));
    }
    if !super::display_available() {
        return fail("the editor needs a display ($DISPLAY is not set; try xvfb-run)");
    }
    let mut options = window_options(screenshot, frames);
    options.editor = Some(meshal_tactics::client::editor::OpenInEditor(open));
    match meshal_tactics::app::run_window(options, super::compendium()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

/// `replay LOG --view`: the log re-executed (and so verified), then watched in the window.
pub fn view_replay(path: &str, at: Option<usize>, screenshot: Option<String>, frames: u32) -> ExitCode {
    let mut view = match meshal_tactics::client::replay::load_replay(std::path::Path::new(path), compendium()) {
        Ok(v) => v,
        Err(e) => return fail(&e),
    };
    if let Some(k) = at {
        if k == 0 || k > view.log.len() {
            return fail(&format!("--at {k}: the log has events 1..={}", view.log.len()));
        }
        view.set_cursor(k - 1);
    }
    if !(1..=100_000).contains(&frames) {
        return fail(&format!("--frames {frames} must be 1..=100000"));
    }
    if !super::display_available() {
        return fail("the replay viewer needs a display ($DISPLAY is not set; try xvfb-run, or replay without --view)");
    }
    let mut options = window_options(screenshot, frames);
    options.replay = Some(view);
    match meshal_tactics::app::run_window(options, compendium()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}
