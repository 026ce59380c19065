//! `meshal-tactics rules …`: the rules calculator for GMs at the table. Each command returns its
//! human text and its JSON value; `main` picks one.

use meshal_tactics::rules::area::{self, Shape};
use meshal_tactics::rules::attack::{AttackOdds, DamageModifiers, damage_distribution, effective_protection};
use meshal_tactics::rules::facing::{Facing, Sector, SectorSet, sectors_of_offset};
use meshal_tactics::rules::grid::{GridMap, Pos, distance};
use meshal_tactics::rules::los::sight_line;
use meshal_tactics::rules::ruleset::{AreaCoverage, DicePoints, FacingArcs};
use serde_json::{Value, json};

/// A finished calculation: what to print for people, and for machines.
pub struct Output {
    pub human: String,
    pub json: Value,
}

/// Largest coordinate the calculator takes: far beyond any map, far inside i32.
const COORD_LIMIT: i32 = 10_000;

pub fn parse_pos(s: &str) -> Result<Pos, String> {
    let (x, y) = s.split_once(',').ok_or_else(|| format!("'{s}' is not a square; write X,Y (e.g. 3,-2)"))?;
    let n = |v: &str| v.trim().parse::<i32>().map_err(|_| format!("'{s}' is not a square; write X,Y (e.g. 3,-2)"));
    let p = Pos::new(n(x)?, n(y)?);
    // Range-checked before any arithmetic: |i32::MIN| does not exist.
    if !(-COORD_LIMIT..=COORD_LIMIT).contains(&p.x) || !(-COORD_LIMIT..=COORD_LIMIT).contains(&p.y) {
        return Err(format!("square {p} is too far out; coordinates are limited to ±{COORD_LIMIT}"));
    }
    Ok(p)
}

pub fn parse_facing(s: &str) -> Result<Facing, String> {
    Facing::parse(s).ok_or_else(|| format!("'{s}' is not a facing; use N, NE, E, SE, S, SW, W or NW"))
}

/// Multipliers as written at the table: "2", "1/2", "0.5", "1.5".
pub fn parse_ratio(s: &str) -> Result<(i32, i32), String> {
    let bad = || format!("'{s}' is not a multiplier; write e.g. 2, 1/2 or 1.5");
    let (num, den) = if let Some((a, b)) = s.split_once('/') {
        (a.trim().parse::<i32>().map_err(|_| bad())?, b.trim().parse::<i32>().map_err(|_| bad())?)
    } else {
        let v: f64 = s.trim().parse().map_err(|_| bad())?;
        if !v.is_finite() {
            return Err(bad());
        }
        ((v * 1000.0).round() as i32, 1000)
    };
    if den <= 0 {
        return Err(format!("multiplier '{s}': the divisor must be 1 or more"));
    }
    // At most ×10, in steps no finer than 1/1000: the distribution grows with the multiplier
    // (×1,000,000 on 200 dice took 15 GB).
    if num < 0 || den > 1000 || i64::from(num) > 10 * i64::from(den) {
        return Err(format!("multiplier '{s}' must be 0 to 10, in steps no finer than 1/1000"));
    }
    Ok((num, den))
}

pub fn distance_cmd(a: Pos, b: Pos) -> Output {
    let steps = distance(a, b);
    Output {
        human: format!("{a} → {b}: {steps} step{}\n", if steps == 1 { "" } else { "s" }),
        json: json!({ "steps": steps }),
    }
}

fn diagram(extent: i32, mut cell: impl FnMut(Pos) -> String) -> String {
    let mut s = String::new();
    for y in (-extent..=extent).rev() {
        s.push_str(&format!("{y:>4} "));
        for x in -extent..=extent {
            s.push_str(&cell(Pos::new(x, y)));
        }
        s.push('\n');
    }
    s
}

pub struct AreaArgs {
    pub shape: String,
    pub radius: i32,
    pub angle: Option<f64>,
    pub facing: Facing,
    pub width: Option<i32>,
    pub coverage: AreaCoverage,
    /// AREA-E5: a curve's bends and end, as offsets from the origin square.
    pub bends: Vec<Pos>,
}

pub fn area_cmd(a: &AreaArgs) -> Result<Output, String> {
    if !(0..=64).contains(&a.radius) {
        return Err(format!("--radius {} is outside 0..=64", a.radius));
    }
    if let Some(w) = a.width
        && !(0..=64).contains(&w)
    {
        return Err(format!("--width {w} is outside 0..=64"));
    }
    let shape = match a.shape.as_str() {
        "circle" => Shape::Circle { radius: a.radius },
        "ring" => Shape::Ring { radius: a.radius, width: a.width.unwrap_or(0) },
        "sector" | "cone" => {
            let angle = a.angle.unwrap_or(90.0);
            if !(angle > 0.0 && angle <= 360.0) {
                return Err(format!("--angle {} must be in (0, 360]", crate::cli::short_number(angle)));
            }
            Shape::Sector { length: a.radius, angle, facing: a.facing }
        }
        "ray" | "line" => Shape::Ray { length: a.radius, width: a.width.unwrap_or(1).max(1), facing: a.facing },
        "curve" => area::curve(a.radius, &a.bends)
            .map_err(|e| format!("AREA-E5: {e} (--bend X,Y per bend, the last its end)"))?,
        other => return Err(format!("unknown area '{other}'; use circle, sector, ring, ray or curve")),
    };
    let cells = area::template(shape, a.coverage);
    let extent = cells.iter().map(|p| p.x.abs().max(p.y.abs())).max().unwrap_or(0).max(1);
    let mut human = format!(
        "{} ({} coverage): {} square{}\n",
        describe(shape),
        match a.coverage {
            AreaCoverage::Meshal => "Meshal",
            AreaCoverage::Dnd => "D&D",
        },
        cells.len(),
        if cells.len() == 1 { "" } else { "s" }
    );
    human.push_str(&diagram(extent, |p| {
        let inside = cells.contains(&p);
        let origin = p == Pos::new(0, 0);
        match (origin, inside) {
            (true, true) => "@ ",
            (true, false) => "O ",
            (false, true) => "# ",
            (false, false) => ". ",
        }
        .to_string()
    }));
    human.push_str("     O = origin square (@ when covered), # = covered; north is up\n");
    let list: Vec<[i32; 2]> = cells.iter().map(|p| [p.x, p.y]).collect();
    Ok(Output { human, json: json!({ "count": cells.len(), "cells": list }) })
}

fn describe(shape: Shape) -> String {
    match shape {
        Shape::Circle { radius } => format!("circle radius {radius}"),
        Shape::Ring { radius, width } => format!("ring radius {radius} width {width}"),
        Shape::Sector { length, angle, facing } => {
            format!("sector {}° length {length} toward {}", crate::cli::short_number(angle), facing.name())
        }
        Shape::Ray { length, width, facing } => format!("ray length {length} width {width} toward {}", facing.name()),
        Shape::Curve { length, vertices, segments } => {
            let points: Vec<String> = vertices.iter().take(usize::from(segments)).map(|p| p.to_string()).collect();
            format!("curve length {length} through {}", points.join(" → "))
        }
    }
}

fn sector_letters(s: SectorSet) -> String {
    let mut out: String = s
        .iter()
        .map(|x| match x {
            Sector::Front => 'F',
            Sector::Left => 'L',
            Sector::Right => 'R',
            Sector::Rear => 'B',
        })
        .collect();
    while out.len() < 2 {
        out.push(' ');
    }
    out.push(' ');
    out
}

pub fn facing_cmd(facing: Facing, at: Option<Pos>, arcs: FacingArcs, radius: Option<i32>) -> Result<Output, String> {
    if at.is_none() && radius.is_none() {
        return Err("give --at X,Y or --radius R".into());
    }
    if let Some(r) = radius
        && !(1..=24).contains(&r)
    {
        return Err(format!("--radius {r} is outside 1..=24"));
    }
    let arcs_name = match arcs {
        FacingArcs::Quarters => "90/90/90/90",
        FacingArcs::Wide => "120/60/60/120",
    };
    let mut human = String::new();
    let mut json = json!({});
    if let Some(p) = at {
        let s = sectors_of_offset(p, facing, arcs);
        let names: Vec<&str> = s.iter().map(Sector::name).collect();
        if names.is_empty() {
            human.push_str(&format!("{p} is the creature's own square (no sector)\n"));
        } else {
            human.push_str(&format!(
                "square {p} from a creature at 0,0 facing {} ({arcs_name}): {}{}\n",
                facing.name(),
                names.join(" | "),
                if names.len() > 1 { " (boundary: belongs to both)" } else { "" }
            ));
        }
        json["sectors"] = json!(names);
    }
    if let Some(r) = radius {
        let grid = diagram(r, |p| {
            if p == Pos::new(0, 0) { "@  ".into() } else { sector_letters(sectors_of_offset(p, facing, arcs)) }
        });
        human.push_str(&format!("sectors facing {} ({arcs_name}), F front, L left, R right, B rear:\n", facing.name()));
        human.push_str(&grid);
        json["diagram"] = json!(grid.lines().collect::<Vec<_>>());
    }
    Ok(Output { human, json })
}

pub struct OddsArgs {
    pub dice: i32,
    pub protection: i32,
    pub penetration: i32,
    pub defense_dice: i32,
    pub multiplier: (i32, i32),
    pub bonus: i32,
    pub bonus_dice: i32,
    pub segments: u32,
    pub cover: bool,
    /// Which faces score (DICE-2 or 001's).
    pub points: DicePoints,
}

/// The most dice (and points of protection or bonus) the odds take: far beyond a table's (a
/// pool holds at most 30), and the exact distribution of the worst case still comes in well
/// under a second (200 dice, ×1,000,000 and 20 segments took minutes and 15 GB).
const MAX_ODDS_DICE: i32 = 100;

pub fn odds_cmd(a: &OddsArgs) -> Result<Output, String> {
    // Every argument is range-checked before any arithmetic (no |i32::MIN|, no wrapping).
    for (name, v) in [("--dice", a.dice), ("--defense-dice", a.defense_dice), ("--bonus-dice", a.bonus_dice)] {
        if !(0..=MAX_ODDS_DICE).contains(&v) {
            return Err(format!("{name} {v} is outside 0..={MAX_ODDS_DICE} (a count of dice)"));
        }
    }
    if !(1..=10).contains(&a.segments) {
        return Err(format!("--segments {} is outside 1..=10 (as a weapon's)", a.segments));
    }
    for (name, v, range) in [
        ("--protection", a.protection, -MAX_ODDS_DICE..=MAX_ODDS_DICE),
        ("--penetration", a.penetration, 0..=MAX_ODDS_DICE),
        ("--bonus", a.bonus, -MAX_ODDS_DICE..=MAX_ODDS_DICE),
    ] {
        if !range.contains(&v) {
            return Err(format!("{name} {v} is outside {}..={}", range.start(), range.end()));
        }
    }
    let protection = effective_protection(a.protection, i32::from(a.cover), a.penetration, false);
    let odds = AttackOdds {
        dice: a.dice,
        segments: a.segments,
        protection,
        defense_dice: a.defense_dice.max(0),
        modifiers: DamageModifiers {
            mul: a.multiplier.0,
            div: a.multiplier.1,
            bonus: a.bonus,
            bonus_dice: a.bonus_dice,
        },
        points: a.points,
    };
    let d = damage_distribution(&odds);
    let mut human = format!(
        "{} dice{} vs protection {}{} (effective {protection}), defense {} dice{}: hit {:.2}%, expected damage {:.3}\n",
        a.dice,
        if a.segments > 1 { format!(" × {} segments", a.segments) } else { String::new() },
        a.protection,
        if a.cover { " +1 cover" } else { "" },
        a.defense_dice.max(0),
        match a.points {
            DicePoints::Meshal => "",
            DicePoints::HighFaces001 => " (001 points: fives and sixes)",
        },
        d.hit_chance * 100.0,
        d.expected_damage
    );
    human.push_str("damage  probability\n");
    for (k, p) in d.distribution.iter().enumerate() {
        if *p < 5e-7 && k > 0 {
            continue;
        }
        let bar = "█".repeat((p * 50.0).round() as usize);
        human.push_str(&format!("{k:>6}  {:>9.4}%  {bar}\n", p * 100.0));
    }
    Ok(Output {
        human,
        json: json!({
            "hit_chance": d.hit_chance,
            "expected_damage": d.expected_damage,
            "distribution": d.distribution,
        }),
    })
}

pub fn los_cmd(map_path: &str, from: Pos, to: Pos) -> Result<Output, String> {
    let text = meshal_tactics::files::read_text(std::path::Path::new(map_path), meshal_tactics::files::FileKind::Map)
        .map_err(|e| e.to_string())?;
    let map = GridMap::from_ascii(&text).map_err(|e| format!("{map_path}: {e}"))?;
    for (name, p) in [("--from", from), ("--to", to)] {
        if !map.in_bounds(p) {
            return Err(format!(
                "{name} {p} is off the {}×{} map (x 0..{}, y 0..{}, y = 0 is the last line)",
                map.width(),
                map.height(),
                map.width() - 1,
                map.height() - 1
            ));
        }
    }
    let line = sight_line(&map, from, to);
    let verdict = match (line.visible, line.cover) {
        (false, _) => "blocked",
        (true, true) => "cover",
        (true, false) => "visible",
    };
    let mut human = format!(
        "{from} → {to}: {verdict}{}\n",
        match verdict {
            "cover" => " (visible; the target has cover: +1 to all protections, ATK-15)",
            "blocked" => " (no line of sight)",
            _ => " (clear line, no cover)",
        }
    );
    for y in (0..map.height()).rev() {
        human.push_str(&format!("{y:>4} "));
        for x in 0..map.width() {
            let p = Pos::new(x, y);
            let t = map.terrain(p);
            let c = if p == from {
                'A'
            } else if p == to {
                'B'
            } else if line.traced.contains(&p) {
                if map.blocks_sight(p) { 'X' } else { '*' }
            } else if t.blocks_sight {
                '#'
            } else if t.low_cover {
                '='
            } else {
                '.'
            };
            human.push(c);
        }
        human.push('\n');
    }
    human.push_str("     A = from, B = to, * = traced, X = where it was blocked\n");
    let traced: Vec<[i32; 2]> = line.traced.iter().map(|p| [p.x, p.y]).collect();
    Ok(Output { human, json: json!({ "visible": line.visible, "cover": line.cover, "traced": traced }) })
}
