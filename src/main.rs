//! The `meshal-tactics` command line.

mod calculator;
mod headless;

use clap::{Parser, Subcommand, ValueEnum};
use meshal_tactics::rules::ruleset::{AreaCoverage, FacingArcs};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "meshal-tactics", version, about = "A tactical grid game for the Meshal Lite rules")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a battle in a window (the default); with no display, a headless AI-vs-AI report.
    Play {
        /// Level file (default: the skirmish).
        level: Option<String>,
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
    Replay { log: String },
    /// Run many AI-vs-AI battles: win rates, rounds, casualties, intensity.
    Sim {
        level: String,
        #[command(flatten)]
        batch: BatchArgs,
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
    #[arg(long, default_value_t = 100)]
    runs: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    #[arg(long)]
    json: bool,
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
        /// circle, sector, ring or ray
        shape: String,
        /// Radius (circle, ring) or length (sector, ray) in steps.
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
    eprintln!("meshal-tactics: {msg}");
    ExitCode::from(2)
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
        RulesCommand::Area { shape, radius, angle, facing, width, coverage, json } => emit(
            (|| {
                area_cmd(&AreaArgs {
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
    match cli.command.unwrap_or(Command::Play { level: None }) {
        Command::Rules { command } => run_rules(command),
        Command::Check { levels } => headless::check(&levels),
        Command::Run { level, seed, commands, log, side, quiet, explain } => {
            headless::run(&headless::RunArgs { level, seed, commands, log, side, quiet, explain })
        }
        Command::Duel { level, a, b, batch: BatchArgs { runs, seed, jobs, json } } => {
            headless::duel(&headless::DuelArgs { level, a, b, runs, seed, jobs, json })
        }
        Command::Replay { log } => headless::replay(&log),
        Command::Sim { level, batch: BatchArgs { runs, seed, jobs, json } } => {
            headless::sim(&headless::SimArgs { level, runs, seed, jobs, json })
        }
        Command::Play { level } => {
            let level = level.unwrap_or_else(|| headless::DEFAULT_LEVEL.0.to_string());
            if headless::display_available() {
                headless::play_fallback(&level, "the game window is not built yet (no client issue has landed)")
            } else {
                headless::play_fallback(
                    &level,
                    "no display found ($DISPLAY is not set), so the game window cannot open",
                )
            }
        }
    }
}
