//! The encounter editor's document: a level being edited, every edit undoable, validated by the
//! same checks as `check`, saved atomically. Plain data and functions (no ECS), so the window's
//! editor is only a view of it and every edit is tested without one.

use super::{CreatureDef, Level, LevelError, LoadedLevel, SideDef, Victory, compendium::Compendium, parse_level};
use crate::files::FileError;
use crate::rules::Ruleset;
use crate::rules::facing::Facing;
use crate::rules::grid::{MAX_SIDE, Pos, Terrain};
use std::path::{Path, PathBuf};

/// Undo steps kept; older ones are forgotten (a level is small, a snapshot is cheap).
pub const MAX_UNDO: usize = 500;

/// One change to a level.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Paint these squares with the terrain of this legend character.
    Paint {
        squares: Vec<Pos>,
        glyph: char,
    },
    /// Define (or redefine) a terrain type and the legend character that paints it.
    DefineTerrain {
        glyph: char,
        name: String,
        terrain: Terrain,
    },
    PlaceCreature(CreatureDef),
    /// ATK-16: place this object on its square, or take away the one already there.
    ToggleObject(crate::rules::objects::ObjectDef),
    /// TIME-18: leave this item on its square, or pick the same one up again.
    ToggleItem(super::ItemOnMap),
    /// Replace creature `index` with this definition (a form's changes).
    SetCreature {
        index: usize,
        creature: CreatureDef,
    },
    MoveCreature {
        index: usize,
        to: Pos,
    },
    /// Turn creature `index` one eighth clockwise (or anticlockwise).
    RotateCreature {
        index: usize,
        clockwise: bool,
    },
    DeleteCreature {
        index: usize,
    },
    /// Copy creature `index` to a square, under a new unique name.
    DuplicateCreature {
        index: usize,
        to: Pos,
    },
    /// New map size; new squares are painted `fill`, squares cut off are lost.
    Resize {
        width: i32,
        height: i32,
        fill: char,
    },
    SetSides(Vec<SideDef>),
    /// Rename a side everywhere it is named: its creatures, relations, victory conditions.
    RenameSide {
        from: String,
        to: String,
    },
    /// Remove a side that has no creatures (and every relation to it).
    RemoveSide(String),
    SetVictory(Vec<Victory>),
    SetMaxRounds(u32),
    SetRuleset(Ruleset),
    /// PERC-E7 / TIME-E9: open with spot checks and perhaps a surprise round.
    SetOpening(bool),
    SetName {
        name: String,
        description: String,
    },
    /// The whole level at once (the file changed on disk and was read again).
    Replace(Box<Level>),
}

/// What is wrong with the level as it stands, and where on the map if a square can be named.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub message: String,
    pub square: Option<Pos>,
}

/// A level being edited.
#[derive(Clone, Debug)]
pub struct EditorDoc {
    level: Level,
    undo: Vec<Level>,
    redo: Vec<Level>,
    /// Where it is saved (None: never saved; "save" needs a path).
    pub path: Option<PathBuf>,
    /// Edits since the last save or load.
    pub dirty: bool,
}

impl EditorDoc {
    pub fn new(level: Level, path: Option<PathBuf>) -> EditorDoc {
        EditorDoc { level, undo: Vec::new(), redo: Vec::new(), path, dirty: false }
    }

    /// A fresh level: a walled field of `width`×`height`, two hostile sides, one creature each.
    pub fn blank(width: i32, height: i32) -> EditorDoc {
        let (w, h) = (width.clamp(3, MAX_SIDE), height.clamp(3, MAX_SIDE));
        let map = (0..h)
            .map(|y| (0..w).map(|x| if x == 0 || y == 0 || x == w - 1 || y == h - 1 { '#' } else { '.' }).collect())
            .collect();
        let text = format!(
            r#"(name: "New encounter", map: [], legend: {{ '.': "floor", '#': "wall" }},
               terrains: {{ "floor": (), "wall": (blocks_movement: true, blocks_sight: true) }},
               sides: [(name: "Party", human: true), (name: "Foes")],
               creatures: [
                 (name: "Hero", template: "human_fighter", side: "Party", at: (1, 1), facing: E),
                 (name: "Wolf", template: "grey_wolf", side: "Foes", at: ({}, {}), facing: W),
               ])"#,
            w - 2,
            h - 2
        );
        let mut level: Level = ron::from_str(&text).expect("the blank level is well formed");
        level.map = map;
        EditorDoc::new(level, None)
    }

    pub fn level(&self) -> &Level {
        &self.level
    }
    pub fn width(&self) -> i32 {
        self.level.map.first().map_or(0, |r| r.chars().count() as i32)
    }
    pub fn height(&self) -> i32 {
        self.level.map.len() as i32
    }
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The legend character at a square (x east, y north), if on the map.
    pub fn glyph_at(&self, at: Pos) -> Option<char> {
        if at.x < 0 || at.y < 0 || at.y >= self.height() {
            return None;
        }
        self.level.map[(self.height() - 1 - at.y) as usize].chars().nth(at.x as usize)
    }

    /// The creature whose footprint covers a square (the last placed wins, as drawn on top).
    pub fn creature_at(&self, at: Pos, compendium: &Compendium) -> Option<usize> {
        self.level.creatures.iter().enumerate().rev().find_map(|(i, c)| {
            let side = c.footprint_side(compendium);
            let covers = (c.at.0..c.at.0 + side).contains(&at.x) && (c.at.1..c.at.1 + side).contains(&at.y);
            covers.then_some(i)
        })
    }

    /// Apply an edit. Edits that cannot mean anything (a square off the map, a creature that
    /// does not exist, a size out of range, a character with no terrain) are refused with the
    /// reason and change nothing; an edit that leaves the level invalid in a way the next edits
    /// can fix (a side left with no creatures) is kept and reported by [`EditorDoc::problems`].
    pub fn apply(&mut self, edit: Edit) -> Result<(), String> {
        let mut next = self.level.clone();
        self.apply_to(&mut next, edit)?;
        if next == self.level {
            return Ok(());
        }
        self.undo.push(std::mem::replace(&mut self.level, next));
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.dirty = true;
        Ok(())
    }

    /// How many undo steps there are now: remember it before a stroke of many edits.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// Make every edit since `depth` one undo step (a brush stroke, a drag).
    pub fn squash_since(&mut self, depth: usize) {
        if self.undo.len() > depth + 1 {
            self.undo.truncate(depth + 1);
        }
    }

    pub fn undo(&mut self) -> bool {
        let Some(prev) = self.undo.pop() else { return false };
        self.redo.push(std::mem::replace(&mut self.level, prev));
        self.dirty = true;
        true
    }

    pub fn redo(&mut self) -> bool {
        let Some(next) = self.redo.pop() else { return false };
        self.undo.push(std::mem::replace(&mut self.level, next));
        self.dirty = true;
        true
    }

    fn apply_to(&self, l: &mut Level, edit: Edit) -> Result<(), String> {
        let (w, h) = (self.width(), self.height());
        let on_map = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h;
        let creature = |i: usize| {
            if i < l.creatures.len() {
                Ok(i)
            } else {
                Err(format!("there is no creature {i} (the level has {})", l.creatures.len()))
            }
        };
        match edit {
            Edit::Paint { squares, glyph } => {
                if !l.legend.contains_key(&glyph) {
                    return Err(format!("'{glyph}' paints no terrain: define it first"));
                }
                if let Some(off) = squares.iter().find(|p| !on_map(**p)) {
                    return Err(format!("{off} is off the {w}×{h} map"));
                }
                for p in squares {
                    let row = &mut l.map[(h - 1 - p.y) as usize];
                    let mut chars: Vec<char> = row.chars().collect();
                    chars[p.x as usize] = glyph;
                    *row = chars.into_iter().collect();
                }
            }
            Edit::DefineTerrain { glyph, name, mut terrain } => {
                if glyph.is_control() || glyph == '"' || glyph == '\'' || glyph == '\\' {
                    return Err(format!("{glyph:?} cannot stand for a terrain in a map row"));
                }
                let name = name.trim().to_string();
                if name.is_empty() || name.len() > 64 {
                    return Err("a terrain needs a name of 1 to 64 characters".into());
                }
                if l.legend.iter().any(|(g, n)| *n == name && *g != glyph) {
                    return Err(format!("terrain \"{name}\" already has another character"));
                }
                terrain.name = name.clone();
                l.legend.insert(glyph, name.clone());
                l.terrains.insert(name, terrain);
            }
            Edit::PlaceCreature(c) => {
                if !on_map(Pos::new(c.at.0, c.at.1)) {
                    return Err(format!("({}, {}) is off the {w}×{h} map", c.at.0, c.at.1));
                }
                if l.creatures.len() >= super::MAX_CREATURES {
                    return Err(format!("a level holds at most {} creatures", super::MAX_CREATURES));
                }
                if l.creatures.iter().any(|o| o.name == c.name) {
                    return Err(format!("a creature is already called \"{}\"", c.name));
                }
                l.creatures.push(c);
            }
            Edit::SetCreature { index, creature: c } => {
                let i = creature(index)?;
                if l.creatures.iter().enumerate().any(|(k, o)| k != i && o.name == c.name) {
                    return Err(format!("a creature is already called \"{}\"", c.name));
                }
                if !on_map(Pos::new(c.at.0, c.at.1)) {
                    return Err(format!("({}, {}) is off the {w}×{h} map", c.at.0, c.at.1));
                }
                l.creatures[i] = c;
            }
            Edit::MoveCreature { index, to } => {
                let i = creature(index)?;
                if !on_map(to) {
                    return Err(format!("{to} is off the {w}×{h} map"));
                }
                l.creatures[i].at = (to.x, to.y);
            }
            Edit::RotateCreature { index, clockwise } => {
                let i = creature(index)?;
                let f = l.creatures[i].facing as usize;
                l.creatures[i].facing = Facing::ALL[(f + if clockwise { 1 } else { 7 }) % 8];
            }
            Edit::DeleteCreature { index } => {
                let i = creature(index)?;
                l.creatures.remove(i);
            }
            Edit::DuplicateCreature { index, to } => {
                let i = creature(index)?;
                if !on_map(to) {
                    return Err(format!("{to} is off the {w}×{h} map"));
                }
                let mut copy = l.creatures[i].clone();
                copy.name = unique_name(l, &copy.name);
                copy.at = (to.x, to.y);
                copy.hold = None;
                l.creatures.push(copy);
            }
            Edit::Resize { width, height, fill } => {
                if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
                    return Err(format!("a map is 1×1 to {MAX_SIDE}×{MAX_SIDE}; {width}×{height} asked"));
                }
                if !l.legend.contains_key(&fill) {
                    return Err(format!("'{fill}' paints no terrain"));
                }
                // Rows are stored north first: keep the south-west corner where it is.
                let mut rows: Vec<String> = Vec::with_capacity(height as usize);
                for y in (0..height).rev() {
                    let old = (y < h).then(|| l.map[(h - 1 - y) as usize].chars().collect::<Vec<char>>());
                    rows.push(
                        (0..width)
                            .map(|x| old.as_ref().and_then(|r| r.get(x as usize).copied()).unwrap_or(fill))
                            .collect(),
                    );
                }
                l.map = rows;
            }
            Edit::SetSides(sides) => l.sides = sides,
            Edit::RenameSide { from, to } => {
                let to = to.trim().to_string();
                if to.is_empty() || to.len() > 64 {
                    return Err("a side needs a name of 1 to 64 characters".into());
                }
                if l.sides.iter().any(|s| s.name == to) {
                    return Err(format!("a side is already called \"{to}\""));
                }
                let Some(side) = l.sides.iter_mut().find(|s| s.name == from) else {
                    return Err(format!("there is no side \"{from}\""));
                };
                side.name = to.clone();
                for s in l.sides.iter_mut() {
                    if let Some(r) = s.relations.remove(&from) {
                        s.relations.insert(to.clone(), r);
                    }
                }
                for c in l.creatures.iter_mut().filter(|c| c.side == from) {
                    c.side = to.clone();
                }
                for v in l.victory.iter_mut() {
                    match v {
                        Victory::SurviveRounds { side, .. } | Victory::ReachZone { side, .. } if *side == from => {
                            *side = to.clone()
                        }
                        _ => {}
                    }
                }
            }
            Edit::RemoveSide(name) => {
                if l.creatures.iter().any(|c| c.side == name) {
                    return Err(format!("side \"{name}\" still has creatures: move or delete them first"));
                }
                if l.sides.len() <= 2 {
                    return Err("a level needs two sides".into());
                }
                l.sides.retain(|s| s.name != name);
                for s in l.sides.iter_mut() {
                    s.relations.remove(&name);
                }
                l.victory.retain(|v| !matches!(v, Victory::SurviveRounds { side, .. } | Victory::ReachZone { side, .. } if *side == name));
            }
            Edit::SetVictory(v) => l.victory = v,
            Edit::SetMaxRounds(r) => {
                if !(1..=1000).contains(&r) {
                    return Err("max rounds must be 1 to 1000".into());
                }
                l.max_rounds = r;
            }
            Edit::SetRuleset(r) => l.ruleset = r,
            Edit::SetOpening(on) => l.encounter_opening = on,
            Edit::ToggleObject(o) => {
                if !on_map(Pos::new(o.at.0, o.at.1)) {
                    return Err(format!("({}, {}) is off the map", o.at.0, o.at.1));
                }
                match l.objects.iter().position(|x| x.at == o.at) {
                    Some(i) => {
                        l.objects.remove(i);
                    }
                    None => l.objects.push(o),
                }
            }
            Edit::ToggleItem(item) => {
                if !on_map(Pos::new(item.at.0, item.at.1)) {
                    return Err(format!("({}, {}) is off the map", item.at.0, item.at.1));
                }
                match l.items.iter().position(|x| *x == item) {
                    Some(i) => {
                        l.items.remove(i);
                    }
                    None if l.items.len() >= super::MAX_ITEMS_ON_MAP => {
                        return Err(format!("a level may leave at most {} items on its map", super::MAX_ITEMS_ON_MAP));
                    }
                    None => l.items.push(item),
                }
            }
            Edit::Replace(level) => *l = *level,
            Edit::SetName { name, description } => {
                if name.trim().is_empty() {
                    return Err("a level needs a name".into());
                }
                l.name = name;
                l.description = description;
            }
        }
        Ok(())
    }

    /// The level as the file it saves to.
    pub fn to_ron(&self) -> String {
        let mut level = self.level.clone();
        for (name, t) in level.terrains.iter_mut() {
            t.name = name.clone();
        }
        let config = ron::ser::PrettyConfig::new().depth_limit(2).struct_names(false);
        let mut text = ron::ser::to_string_pretty(&level, config).expect("a level always serialises");
        text.push('\n');
        text
    }

    /// The level checked exactly as `check` checks a file.
    pub fn validate(&self, compendium: &Compendium) -> Result<LoadedLevel, LevelError> {
        let file = self.path.as_ref().map_or_else(|| "(unsaved level)".to_string(), |p| p.display().to_string());
        parse_level(&file, &self.to_ron(), compendium)
    }

    /// What keeps the level from being saved or played, placed on the map where possible.
    pub fn problems(&self, compendium: &Compendium) -> Vec<Problem> {
        match self.validate(compendium) {
            Ok(_) => Vec::new(),
            Err(e) => vec![Problem { square: self.square_of(&e), message: e.to_string() }],
        }
    }

    /// The square an error is about: a creature it names, else a map square it points at.
    fn square_of(&self, e: &LevelError) -> Option<Pos> {
        if let Some(rest) = e.message.split("creature \"").nth(1)
            && let Some(name) = rest.split('"').next()
            && let Some(c) = self.level.creatures.iter().find(|c| c.name == name)
        {
            return Some(Pos::new(c.at.0, c.at.1));
        }
        // A map row: the error's line is one of the rows, its column a character in it.
        let text = self.to_ron();
        let line = text.lines().nth(e.line.checked_sub(1)?)?;
        let row = self.level.map.iter().position(|r| line.trim().trim_end_matches(',') == format!("{r:?}"))?;
        let start = line.find('"')? + 2;
        let x = e.column.checked_sub(start)? as i32;
        (0..self.width()).contains(&x).then(|| Pos::new(x, self.height() - 1 - row as i32))
    }

    /// Validate, then write atomically to the doc's path (or `to`, which becomes its path).
    pub fn save(&mut self, to: Option<&Path>, compendium: &Compendium) -> Result<PathBuf, String> {
        self.save_with(to, compendium, crate::files::write_atomically)
    }

    /// [`EditorDoc::save`] through a chosen writer (tests simulate a failing disk).
    pub fn save_with(
        &mut self,
        to: Option<&Path>,
        compendium: &Compendium,
        write: impl FnOnce(&Path, &[u8]) -> Result<(), FileError>,
    ) -> Result<PathBuf, String> {
        let path = to.map(Path::to_path_buf).or_else(|| self.path.clone()).ok_or("save where? no file is named")?;
        let saved = EditorDoc { path: Some(path.clone()), ..self.clone() };
        saved.validate(compendium).map_err(|e| format!("not saved: {e}"))?;
        write(&path, saved.to_ron().as_bytes()).map_err(|e| format!("not saved: {e}"))?;
        self.path = Some(path.clone());
        self.dirty = false;
        Ok(path)
    }
}

/// "Wolf" → "Wolf 2" (or the next free number).
pub fn unique_name(l: &Level, base: &str) -> String {
    let stem = base.trim_end_matches(|c: char| c.is_ascii_digit()).trim_end();
    let stem = if stem.is_empty() { base } else { stem };
    (2..).map(|n| format!("{stem} {n}")).find(|n| !l.creatures.iter().any(|c| &c.name == n)).expect("a free name")
}

/// Squares of a filled rectangle between two corners (any order).
pub fn rect_squares(a: Pos, b: Pos) -> Vec<Pos> {
    let (x0, x1, y0, y1) = (a.x.min(b.x), a.x.max(b.x), a.y.min(b.y), a.y.max(b.y));
    (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| Pos::new(x, y))).collect()
}

/// Squares of a straight line between two squares (Bresenham: each step one square).
pub fn line_squares(a: Pos, b: Pos) -> Vec<Pos> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let (mut p, mut err, mut out) = (a, dx + dy, Vec::new());
    loop {
        out.push(p);
        if p == b || out.len() > 2 * MAX_SIDE as usize {
            return out;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            p.x += sx;
        }
        if e2 <= dx {
            err += dx;
            p.y += sy;
        }
    }
}

#[cfg(test)]
#[path = "editing_tests.rs"]
mod tests;
