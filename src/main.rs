//! The `meshal-tactics` command line.

mod calculator;
mod cli;

use clap::{Parser, Subcommand, ValueEnum};
use meshal_tactics::rules::ruleset::{AreaCoverage, DicePoints, FacingArcs};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "meshal-tactics", version, about = "A tactical grid game for the Meshal Lite rules")]
struct Cli {
    /// A compendium file whose weapons, armour, abilities, creatures and AI profiles are added
    /// to the built-in ones (a repeated key is an error).
    #[arg(long, global = true)]
    compendium: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(clap::Args, Default)]
struct PlayArgs {
    /// Level file (default: the skirmish).
    level: Option<String>,
    /// The side you command, by name (default: the level's human side, else the first).
    #[arg(long)]
    side: Option<String>,
    /// Watch the AI play every side.
    #[arg(long)]
    watch: bool,
    /// Battle seed (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Seconds the AI waits between decisions.
    #[arg(long, default_value_t = 0.35)]
    ai_delay: f32,
    /// Save a screenshot of the window to this PNG after --frames frames, then quit.
    #[arg(long)]
    screenshot: Option<String>,
    #[arg(long, default_value_t = 30)]
    frames: u32,
    /// Act as if the cursor rested on this square, "x,y" (for screenshots of the overlays).
    #[arg(long, value_parser = calculator::parse_pos)]
    hover: Option<meshal_tactics::rules::grid::Pos>,
    /// AI difficulty: PROFILE for every AI side, or SIDE=PROFILE (repeatable).
    #[arg(long = "ai")]
    ai: Vec<String>,
    /// Start with exactly these overlays on (repeatable): reach, facing, threat, sight, fog,
    /// grid, reasons; "none" for none.
    #[arg(long)]
    overlay: Vec<String>,
    /// Measure what the client costs a frame over N frames of AI turns, print it and quit.
    #[arg(long)]
    frame_report: Option<u32>,
    /// For a picture: advance the battle (every creature before it ends its turn) to this
    /// creature's turn, by name.
    #[arg(long)]
    actor: Option<String>,
    /// For a picture: the creature in turn starts with this weapon ready (its compendium key).
    #[arg(long)]
    ready: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a battle in a window (the default); with no display, a headless AI-vs-AI report.
    Play(PlayArgs),
    /// The encounter editor on a level file (a new file when it does not exist yet), or on a
    /// blank level.
    Edit {
        level: Option<String>,
        /// Save a screenshot after this many frames, then quit (`--frames`).
        #[arg(long)]
        screenshot: Option<String>,
        #[arg(long, default_value_t = 30)]
        frames: u32,
    },
    /// The rules sandbox on a level's map: area templates, facing sectors, lines of sight.
    Sandbox(cli::tools::SandboxArgs),
    /// Make a level from a Tiled map (see README, "Maps from Tiled"); nothing is written when
    /// the map has an error.
    ImportTiled {
        map: String,
        #[arg(short, long)]
        output: String,
    },
    /// Validate level files (exit 0, or 2 with the errors).
    Check {
        #[arg(required = true)]
        levels: Vec<String>,
    },
    /// Play a battle headless: the AI plays every side the command script does not.
    Run {
        level: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// RON command script (see src/battle/script.rs).
        #[arg(long)]
        commands: Option<String>,
        /// Write the event log here as JSON lines.
        #[arg(long)]
        log: Option<String>,
        /// Only what this side perceives (report and log).
        #[arg(long)]
        side: Option<String>,
        /// No report on stdout.
        #[arg(long)]
        quiet: bool,
        /// Print the AI's weighed options beside the log.
        #[arg(long)]
        explain: bool,
        /// AI profile: PROFILE for every side, or SIDE=PROFILE (repeatable).
        #[arg(long = "ai")]
        ai: Vec<String>,
        /// Offer Expense of Fate (DICE-13) to this side, as to a person playing it (repeatable;
        /// the script's Fate entries answer it, the AI its own creatures).
        #[arg(long = "fate")]
        fate: Vec<String>,
    },
    /// Mirrored AI duel: profile A against profile B, each on each side half the time.
    Duel {
        level: String,
        #[arg(long)]
        a: String,
        #[arg(long)]
        b: String,
        #[command(flatten)]
        batch: BatchArgs,
    },
    /// Re-execute a log and verify every event.
    Replay {
        log: String,
        /// Watch it in the window: step by event or turn, jump to a round, any side's view.
        #[arg(long)]
        view: bool,
        /// With --view: start at this event (1-based).
        #[arg(long)]
        at: Option<usize>,
        #[arg(long)]
        screenshot: Option<String>,
        #[arg(long, default_value_t = 30)]
        frames: u32,
    },
    /// Run many AI-vs-AI battles: win rates, rounds, casualties, intensity.
    ///
    /// Given several levels (e.g. variants of one encounter), it also prints a comparison table:
    /// each against the first, with the differences and whether they are significant.
    Sim {
        #[arg(required = true, num_args = 1..)]
        levels: Vec<String>,
        #[command(flatten)]
        batch: BatchArgs,
        /// AI profile: PROFILE for every side, or SIDE=PROFILE (repeatable).
        #[arg(long = "ai")]
        ai: Vec<String>,
        /// Stop once every side's win rate is known to ± this many points (95% interval);
        /// --runs is then the most battles played (default 20000).
        #[arg(long = "until-ci", value_name = "POINTS")]
        until_ci: Option<f64>,
        /// Write a chart of the win rates (with intervals) and the rounds histogram (PNG).
        #[arg(long, value_name = "FILE.png")]
        plot: Option<String>,
    },
    /// The rules calculator: distances, areas, facing sectors, attack odds, line of sight.
    Rules {
        #[command(subcommand)]
        command: RulesCommand,
    },
}

/// Options of the commands that run many battles.
#[derive(clap::Args)]
struct BatchArgs {
    /// Battles to play (default 100).
    #[arg(long)]
    runs: Option<usize>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    #[arg(long)]
    json: bool,
}

/// Which faces score (DICE-2 or the 001 variant).
#[derive(Clone, Copy, ValueEnum)]
enum PointsArg {
    /// Face 1 scores 1, face 2 scores 2 (DICE-2, the default).
    Meshal,
    /// 001: faces 5 and 6 score 1 each.
    #[value(name = "001")]
    HighFaces001,
}

#[derive(Clone, Copy, ValueEnum)]
enum CoverageArg {
    Meshal,
    Dnd,
}

#[derive(Subcommand)]
enum RulesCommand {
    /// Steps between two squares (SPACE-6).
    Distance {
        #[arg(allow_hyphen_values = true)]
        from: String,
        #[arg(allow_hyphen_values = true)]
        to: String,
        #[arg(long)]
        json: bool,
    },
    /// The squares an area template covers around an origin square (AREA-*).
    Area {
        /// circle, sector, ring, ray or curve
        shape: String,
        /// Radius (circle, ring) or length (sector, ray, curve) in steps.
        #[arg(long)]
        radius: i32,
        /// Sector angle in degrees (default 90; D&D cones have a fixed shape).
        #[arg(long)]
        angle: Option<f64>,
        #[arg(long, default_value = "N")]
        facing: String,
        /// Ring width or ray width in squares.
        #[arg(long)]
        width: Option<i32>,
        #[arg(long, value_enum, default_value = "meshal")]
        coverage: CoverageArg,
        /// A curve's bend X,Y from the origin square (repeatable, in order; the last is its end).
        #[arg(long = "bend", allow_hyphen_values = true)]
        bend: Vec<String>,
        #[arg(long)]
        json: bool,
    },
    /// The sector(s) of a square relative to a Medium creature at 0,0 (FACE-*).
    Facing {
        #[arg(long)]
        facing: String,
        #[arg(long, allow_hyphen_values = true)]
        at: Option<String>,
        /// 90 = 000 quarters (default), 120 = 004 wide front and rear.
        #[arg(long, default_value_t = 90)]
        arcs: u32,
        /// Draw every square's sectors within this radius.
        #[arg(long)]
        radius: Option<i32>,
        #[arg(long)]
        json: bool,
    },
    /// Exact damage distribution of an attack (ATK-*).
    Odds {
        #[arg(long, allow_hyphen_values = true)]
        dice: i32,
        #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
        protection: i32,
        #[arg(long, default_value_t = 0)]
        penetration: i32,
        #[arg(long, default_value_t = 0)]
        defense_dice: i32,
        /// ×N on a hit: 2, 1/2, 1.5 …
        #[arg(long, default_value = "1")]
        multiplier: String,
        #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
        bonus: i32,
        /// "+N dice" rolled for points on a hit.
        #[arg(long, default_value_t = 0)]
        bonus_dice: i32,
        /// Segments rolled separately (ATK-8).
        #[arg(long, default_value_t = 1)]
        segments: u32,
        /// The defender has cover (+1 protection, ATK-15).
        #[arg(long)]
        cover: bool,
        /// Which faces score points: DICE-2's (default) or 001's fives and sixes.
        #[arg(long, value_enum, default_value = "meshal")]
        points: PointsArg,
        #[arg(long)]
        json: bool,
    },
    /// Line of sight and cover between two squares of a text map (PERC-E1, ATK-E5).
    Los {
        /// Text grid: '#' wall, '=' low cover, '.' floor, '~' rough, '%' dark; last line is y = 0.
        #[arg(long)]
        map: String,
        #[arg(long, allow_hyphen_values = true)]
        from: String,
        #[arg(long, allow_hyphen_values = true)]
        to: String,
        #[arg(long)]
        json: bool,
    },
}

fn fail(msg: &str) -> ExitCode {
    cli::fail(msg)
}

fn emit(result: Result<calculator::Output, String>, json: bool) -> ExitCode {
    match result {
        Ok(out) if json => {
            println!("{}", out.json);
            ExitCode::SUCCESS
        }
        Ok(out) => {
            print!("{}", out.human);
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}

fn run_rules(cmd: RulesCommand) -> ExitCode {
    use calculator::*;
    match cmd {
        RulesCommand::Distance { from, to, json } => {
            emit((|| Ok(distance_cmd(parse_pos(&from)?, parse_pos(&to)?)))(), json)
        }
        RulesCommand::Area { shape, radius, angle, facing, width, coverage, bend, json } => emit(
            (|| {
                let bends = bend.iter().map(|b| parse_pos(b)).collect::<Result<Vec<_>, _>>()?;
                area_cmd(&AreaArgs {
                    bends,
                    shape,
                    radius,
                    angle,
                    facing: parse_facing(&facing)?,
                    width,
                    coverage: match coverage {
                        CoverageArg::Meshal => AreaCoverage::Meshal,
                        CoverageArg::Dnd => AreaCoverage::Dnd,
                    },
                })
            })(),
            json,
        ),
        RulesCommand::Facing { facing, at, arcs, radius, json } => emit(
            (|| {
                let arcs = match arcs {
                    90 => FacingArcs::Quarters,
                    120 => FacingArcs::Wide,
                    other => return Err(format!("--arcs {other} is not 90 or 120")),
                };
                facing_cmd(parse_facing(&facing)?, at.as_deref().map(parse_pos).transpose()?, arcs, radius)
            })(),
            json,
        ),
        RulesCommand::Odds {
            dice,
            protection,
            penetration,
            defense_dice,
            multiplier,
            bonus,
            bonus_dice,
            segments,
            cover,
            points,
            json,
        } => emit(
            (|| {
                odds_cmd(&OddsArgs {
                    dice,
                    protection,
                    penetration,
                    defense_dice,
                    multiplier: parse_ratio(&multiplier)?,
                    bonus,
                    bonus_dice,
                    segments,
                    cover,
                    points: match points {
                        PointsArg::Meshal => DicePoints::Meshal,
                        PointsArg::HighFaces001 => DicePoints::HighFaces001,
                    },
                })
            })(),
            json,
        ),
        RulesCommand::Los { map, from, to, json } => {
            emit((|| los_cmd(&map, parse_pos(&from)?, parse_pos(&to)?))(), json)
        }
    }
}

fn main() -> ExitCode {
    // Output piped into a reader that stops early (`… | head`) ends the process quietly, as it
    // does any Unix tool, instead of a panic at the next print (Rust ignores SIGPIPE).
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of one signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(2);
            }
            // One line: the reason, without clap's usage block.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("bad arguments").trim_start_matches("error: ");
            return fail(&format!("{first} (see --help)"));
        }
    };
    if let Some(path) = &cli.compendium
        && let Err(e) = cli::use_compendium(path)
    {
        return fail(&e);
    }
    match cli.command.unwrap_or(Command::Play(PlayArgs { ai_delay: 0.35, frames: 30, ..PlayArgs::default() })) {
        Command::Rules { command } => run_rules(command),
        Command::Check { levels } => cli::check(&levels),
        Command::Run { level, seed, commands, log, side, quiet, explain, ai, fate } => {
            cli::run::run(&cli::run::RunArgs { level, seed, commands, log, side, quiet, explain, ai, fate })
        }
        Command::Duel { level, a, b, batch: BatchArgs { runs, seed, jobs, json } } => {
            cli::batch::duel(&cli::batch::DuelArgs { level, a, b, runs: runs.unwrap_or(100), seed, jobs, json })
        }
        Command::Replay { log, view: false, .. } => cli::run::replay(&log),
        Command::Replay { log, view: true, at, screenshot, frames } => {
            cli::tools::view_replay(&log, at, screenshot, frames)
        }
        Command::Sim { levels, batch: BatchArgs { runs, seed, jobs, json }, ai, until_ci, plot } => {
            cli::batch::sim(&cli::batch::SimArgs { levels, runs, seed, jobs, json, ai, until_ci, plot })
        }
        Command::Play(args) => play(args),
        Command::Edit { level, screenshot, frames } => cli::tools::edit(level, screenshot, frames),
        Command::ImportTiled { map, output } => cli::tools::import_tiled(&map, &output),
        Command::Sandbox(args) => cli::tools::sandbox(args),
    }
}

fn play(args: PlayArgs) -> ExitCode {
    // With nothing to say which battle, the window opens on the main menu.
    let menu = args.level.is_none()
        && args.side.is_none()
        && !args.watch
        && args.hover.is_none()
        && args.ai.is_empty()
        && args.overlay.is_empty()
        && args.frame_report.is_none()
        && args.actor.is_none()
        && args.ready.is_none();
    let level_path = args.level.clone().unwrap_or_else(|| cli::DEFAULT_LEVEL.0.to_string());
    // Bad arguments are refused the same with or without a display.
    let level = match cli::load(&level_path) {
        Ok(l) => l,
        Err(e) => return fail(&e),
    };
    let named_side = match &args.side {
        Some(name) => match level.level.sides.iter().position(|s| &s.name == name) {
            Some(k) => Some(k),
            None => {
                let names: Vec<&str> = level.level.sides.iter().map(|s| s.name.as_str()).collect();
                return fail(&format!("{level_path} has no side \"{name}\" (sides: {})", names.join(", ")));
            }
        },
        None => None,
    };
    // Watching, --side only picks whose view is shown (none: a GM's view of everything).
    let (player_side, view_side) = if args.watch {
        (None, named_side)
    } else {
        (Some(named_side.unwrap_or_else(|| level.level.sides.iter().position(|s| s.human).unwrap_or(0))), None)
    };
    if let Err(e) = meshal_tactics::client::overlays_from(&args.overlay) {
        return fail(&e);
    }
    let actor = match cli::staged_actor(&level, &level_path, args.actor.as_deref(), args.ready.as_deref()) {
        Ok(a) => a,
        Err(e) => return fail(&e),
    };
    // A long delay freezes the AI (screenshots); beyond this a timer cannot hold it.
    if !(0.0..=1_000_000.0).contains(&args.ai_delay) {
        return fail(&format!("--ai-delay {} must be 0..=1000000 seconds", args.ai_delay));
    }
    if args.frame_report.is_some_and(|n| !(1..=1_000_000).contains(&n)) {
        return fail("--frame-report must be 1..=1000000 frames");
    }
    if !(1..=100_000).contains(&args.frames) {
        return fail(&format!("--frames {} must be 1..=100000", args.frames));
    }
    if let Some(p) = args.hover
        && !(0..level.map.width()).contains(&p.x) | !(0..level.map.height()).contains(&p.y)
    {
        return fail(&format!("--hover {p} is off the {}x{} map", level.map.width(), level.map.height()));
    }
    if let Some(shot) = &args.screenshot {
        let dir = std::path::Path::new(shot).parent().filter(|d| !d.as_os_str().is_empty());
        if dir.is_some_and(|d| !d.is_dir()) {
            return fail(&format!("--screenshot {shot}: no such directory"));
        }
    }
    let seed = args.seed.unwrap_or_else(cli::clock_seed);
    if !cli::display_available() {
        if args.screenshot.is_some() {
            return fail("--screenshot needs a display ($DISPLAY is not set; try xvfb-run)");
        }
        return cli::play_fallback(
            &level_path,
            "no display found ($DISPLAY is not set), so the game window cannot open",
            seed,
            &args.ai,
        );
    }
    let screenshot_requested = args.screenshot.is_some();
    let screenshot = args.screenshot.map(|p| (std::path::PathBuf::from(p), args.frames.max(1)));
    let role = match player_side {
        Some(k) => format!("you command {}", level.level.sides[k].name),
        None => match view_side {
            Some(k) => format!("watching the AI from {}'s side", level.level.sides[k].name),
            None => "watching the AI (every creature shown)".to_string(),
        },
    };
    if menu {
        cli::say("Meshal Tactics: the main menu lists the levels in levels/. Ctrl+Q quits.");
    } else {
        cli::say(&format!(
            "Meshal Tactics: {} ({level_path}), seed {seed}; {role}. F1 in the window explains the overlays.",
            level.level.name
        ));
    }
    let ai = args.ai.clone();
    let side_profiles = match cli::side_profiles(&level, &args.ai) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let options = meshal_tactics::app::WindowOptions {
        side_profiles,
        level: (!menu).then_some(level),
        seed,
        player_side,
        view_side,
        actor,
        ready: args.ready.clone(),
        overlays: (!args.overlay.is_empty()).then(|| args.overlay.clone()),
        ai_delay: args.ai_delay,
        screenshot,
        hover: args.hover,
        frame_report: args.frame_report,
        editor: None,
        sandbox: None,
        replay: None,
    };
    // Bevy panics while building its renderer when no graphics adapter is usable (no Vulkan
    // driver): say so in one line and play the headless report instead.
    let why = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let keep = why.clone();
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Ok(mut w) = keep.lock() {
            *w = info.payload_as_str().unwrap_or("unknown failure").lines().next().unwrap_or("").to_string();
        }
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        meshal_tactics::app::run_window(options, cli::compendium())
    }));
    std::panic::set_hook(default_hook);
    match result {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => fail(&e),
        Err(_) => {
            let why = why.lock().map(|w| w.clone()).unwrap_or_default();
            if screenshot_requested {
                return fail(&format!("the game window could not start: {why}"));
            }
            cli::play_fallback(
                &level_path,
                &format!(
                    "the game window could not start ({why}); a Vulkan driver is needed \
                     (Debian: apt-get install mesa-vulkan-drivers libvulkan1)"
                ),
                seed,
                &ai,
            )
        }
    }
}
