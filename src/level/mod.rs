//! Levels (`levels/*.level.ron`): the format, loading and validation with precise errors.
//!
//! A level names its map as rows of characters (first row = north), a legend from characters to
//! terrain types, the sides and their relations, the creatures, the victory conditions and the
//! rule variants. Creatures come from the compendium (`assets/compendium/*.ron`), which is built
//! into the binary.

pub mod compendium;
pub mod editing;
mod objects;
pub mod tiled;
mod tiled_bounds;
pub(crate) mod unique_keys;
mod validate;

use crate::rules::Ruleset;
use crate::rules::facing::Facing;
use crate::rules::grid::{Footprint, GridMap, MAX_SIDE, Pos, Terrain};
use crate::rules::posture::Posture;
use compendium::Compendium;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Most creatures a level may hold.
pub const MAX_CREATURES: usize = 512;
/// Most victory conditions a level may hold (the battle weighs each after every command).
pub const MAX_VICTORY_CONDITIONS: usize = 64;
/// Largest level file read (bytes): nothing larger is a level.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Relation {
    Friendly,
    Neutral,
    Hostile,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    pub name: String,
    /// Relations to other sides; unlisted sides are hostile (GEN-6).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_keys::deserialize")]
    pub relations: BTreeMap<String, Relation>,
    /// Whether a person plays this side in `play`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub human: bool,
    /// The AI profile of the side's creatures that name none ("normal" when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[serde(deny_unknown_fields)]
pub struct Overrides {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub might: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activeness: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spirit: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weapons: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub armour: Option<Vec<String>>,
}

/// Saved files leave out what is the default (the editor writes levels a GM can read).
pub fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreatureDef {
    pub name: String,
    pub template: String,
    pub side: String,
    /// South-west square of the footprint.
    pub at: (i32, i32),
    #[serde(default)]
    pub facing: Facing,
    #[serde(default, skip_serializing_if = "is_default")]
    pub posture: Posture,
    #[serde(default, skip_serializing_if = "is_default")]
    pub overrides: Overrides,
    /// AI profile name from the compendium; when unset, the side's, else "normal".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<String>,
    /// TIME-4: joins at the start of this round's end (a latecomer); None = from the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<u32>,
    /// Who plays this creature; None = as its side (`human` on the side, else the AI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<ControllerDef>,
    /// PERC-E4: starts Hidden (an ambush), with the search difficulty a Hide there would give
    /// it (the PERC-8 size row, ×3 in concealing terrain, else ×2). Engine decision: it is
    /// revealed at the start if a hostile is adjacent or would spot it in the open.
    #[serde(default, skip_serializing_if = "is_default")]
    pub hidden: bool,
    /// The GM's order "stay here": the creature's whole footprint stays inside this rectangle
    /// (inclusive) whoever plays it, and it never flees; it still turns, attacks and defends.
    /// E.g. `hold: Some((from: (3, 4), to: (5, 8)))`; one square pins it in place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold: Option<HoldArea>,
    /// TIME-18: items it carries besides its template's (compendium `items` keys).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
    /// MOVE-14, MOVE-E8: starts riding the creature of this name (a mount of its side, larger
    /// than it), sitting on the mount's south-west square: `at` must be the mount's `at`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rides: Option<String>,
}

impl CreatureDef {
    /// Its footprint's side in squares, from its template (1 when the compendium lacks it).
    pub fn footprint_side(&self, compendium: &Compendium) -> i32 {
        compendium.creatures.get(&self.template).map_or(1, |t| t.size.footprint())
    }

    /// A creature with every optional field at its default.
    pub fn new(name: impl Into<String>, template: impl Into<String>, side: impl Into<String>, at: (i32, i32)) -> Self {
        CreatureDef {
            name: name.into(),
            template: template.into(),
            side: side.into(),
            at,
            facing: Facing::default(),
            posture: Posture::default(),
            overrides: Overrides::default(),
            ai: None,
            arrives: None,
            controller: None,
            hidden: false,
            hold: None,
            items: Vec::new(),
            rides: None,
        }
    }
}

/// An inclusive rectangle of squares, corners in any order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HoldArea {
    pub from: (i32, i32),
    pub to: (i32, i32),
}

impl HoldArea {
    /// South-west and north-east corners.
    pub fn corners(&self) -> ((i32, i32), (i32, i32)) {
        (
            (self.from.0.min(self.to.0), self.from.1.min(self.to.1)),
            (self.from.0.max(self.to.0), self.from.1.max(self.to.1)),
        )
    }
    pub fn contains(&self, x: i32, y: i32) -> bool {
        let ((x0, y0), (x1, y1)) = self.corners();
        (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
    }
}

/// Who plays a creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ControllerDef {
    Human,
    Ai,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Victory {
    /// FLOW-3: a side wins when every hostile creature is unconscious, dead or fled.
    DefeatAllHostiles,
    /// The named side wins if it still has a conscious member when this round ends.
    SurviveRounds { side: String, rounds: u32 },
    /// The named side wins when any of its creatures stands in the zone (inclusive rectangle).
    ReachZone { side: String, from: (i32, i32), to: (i32, i32) },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub map: Vec<String>,
    #[serde(deserialize_with = "unique_keys::deserialize")]
    pub legend: BTreeMap<char, String>,
    #[serde(deserialize_with = "unique_keys::deserialize")]
    pub terrains: BTreeMap<String, Terrain>,
    pub sides: Vec<SideDef>,
    pub creatures: Vec<CreatureDef>,
    #[serde(default = "default_victory", skip_serializing_if = "is_default_victory")]
    pub victory: Vec<Victory>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub ruleset: Ruleset,
    /// The battle is a draw after this many rounds.
    #[serde(default = "default_max_rounds", skip_serializing_if = "is_default_max_rounds")]
    pub max_rounds: u32,
    /// PERC-E7 / TIME-E9: open with the encounter rolls (distance, each side's spot check) and,
    /// when only one side spots the other, a surprise turn for it before round 1.
    #[serde(default, skip_serializing_if = "is_default")]
    pub encounter_opening: bool,
    /// ATK-16, ATK-E6: doors, crates and barricades that can be broken (doors opened).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<crate::rules::objects::ObjectDef>,
    /// TIME-18: items lying on the map at the start, e.g. `(at: (4, 2), item: "healing_draught")`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemOnMap>,
}

/// An item lying on a square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemOnMap {
    pub at: (i32, i32),
    pub item: String,
}

/// Most items a level may leave on its map.
pub const MAX_ITEMS_ON_MAP: usize = 1000;

fn default_victory() -> Vec<Victory> {
    vec![Victory::DefeatAllHostiles]
}
fn default_max_rounds() -> u32 {
    40
}
fn is_default_victory(v: &[Victory]) -> bool {
    v == default_victory().as_slice()
}
fn is_default_max_rounds(r: &u32) -> bool {
    *r == default_max_rounds()
}

/// A loading error, located in its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    pub file: String,
    /// 1-based; 0 when the error is the whole file's (it could not be read).
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for LevelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Line 0: the file as a whole (it could not be read), no place in it.
        if self.line == 0 {
            return write!(f, "{}: {}", self.file, self.message);
        }
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
    }
}

impl std::error::Error for LevelError {}

/// A level checked against the compendium, with its map built.
#[derive(Clone, Debug)]
pub struct LoadedLevel {
    pub level: Level,
    pub map: GridMap,
    pub file: String,
}

/// The built-in compendium (`assets/compendium/*.ron`, compiled in so the binary runs anywhere).
pub fn builtin_compendium() -> &'static Compendium {
    static C: std::sync::OnceLock<Compendium> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        let mut c = Compendium::default();
        for (name, text) in [
            ("core.ron", include_str!("../../assets/compendium/core.ron")),
            ("creatures.ron", include_str!("../../assets/compendium/creatures.ron")),
        ] {
            let part: Compendium = ron::from_str(text)
                .unwrap_or_else(|e| panic!("built-in compendium assets/compendium/{name} is broken: {e}"));
            c.merge(part).unwrap_or_else(|e| panic!("built-in compendium: {e}"));
        }
        c.validate().unwrap_or_else(|e| panic!("built-in compendium: {e}"));
        c
    })
}

/// A RON error located at its line and column; an unknown field names itself and what the
/// struct expects, so a typo (`arrive:` for `arrives:`) is caught rather than ignored.
pub fn ron_error(file: &str, e: &ron::error::SpannedError) -> LevelError {
    let message = match &e.code {
        ron::Error::NoSuchStructField { expected, found, outer } => format!(
            "unknown field `{found}`{} (expected one of: {})",
            outer.as_ref().map_or(String::new(), |o| format!(" in {o}")),
            expected.join(", ")
        ),
        // A message of the reader's own checks (serde's custom errors: today `unique_keys`,
        // a key written twice): what is wrong, not syntax.
        ron::Error::Message(m) => m.clone(),
        other => format!("RON syntax: {other}"),
    };
    LevelError { file: file.to_string(), line: e.span.start.line, column: e.span.start.col, message }
}

/// 1-based line and column of a byte offset.
pub(crate) fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(before.chars().count(), |nl| before[nl + 1..].chars().count()) + 1;
    (line, column)
}

/// Which bytes of RON text are prose — inside a string, a char literal or a comment, their
/// delimiters excluded — and where each string starts. A field's name or a side's name
/// written in a level's description is no field: errors were placed on the description.
fn prose_of(source: &str) -> (Vec<bool>, Vec<usize>) {
    let b = source.as_bytes();
    let mut prose = vec![false; b.len()];
    let mut strings = Vec::new();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
        let raw = b[i] == b'r' && (i == 0 || !ident(b[i - 1])) && b.get(i + 1 + hashes) == Some(&b'"');
        let end = if raw {
            // r#"…"#: no escapes; it ends at a quote followed by as many hashes.
            strings.push(i + hashes + 1);
            let body = i + hashes + 2;
            let close = (body..b.len()).find(|&j| b[j] == b'"' && b[j + 1..].iter().take(hashes).all(|&c| c == b'#'));
            let close = close.filter(|&j| j + hashes < b.len()).unwrap_or(b.len());
            prose[body..close].fill(true);
            close + 1 + hashes
        } else if b[i] == b'"' || b[i] == b'\'' {
            if b[i] == b'"' {
                strings.push(i);
            }
            let mut j = i + 1;
            while j < b.len() && b[j] != b[i] {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let close = j.min(b.len());
            prose[i + 1..close].fill(true);
            close + 1
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            let close = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |k| i + k);
            prose[i..close].fill(true);
            close
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let close = source[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
            prose[i..close].fill(true);
            close
        } else {
            i + 1
        };
        i = end.max(i + 1);
    }
    (prose, strings)
}

pub(crate) struct Locator<'a> {
    file: &'a str,
    source: &'a str,
    prose: Vec<bool>,
    strings: Vec<usize>,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(file: &'a str, source: &'a str) -> Locator<'a> {
        let (prose, strings) = prose_of(source);
        Locator { file, source, prose, strings }
    }
    /// The first `needle` at or after `from` that starts in the RON itself (not in a string's
    /// text or a comment): a key (`creatures`), or a string literal (`"Blue"`).
    pub(crate) fn find_from(&self, needle: &str, from: usize) -> Option<usize> {
        let text = self.source.get(from..)?;
        text.match_indices(needle).map(|(i, _)| from + i).find(|&i| !self.prose[i])
    }
    pub(crate) fn find(&self, needle: &str) -> Option<usize> {
        self.find_from(needle, 0)
    }
    /// The `nth` (0-based) such `needle` at or after `from`.
    pub(crate) fn find_nth(&self, needle: &str, from: usize, nth: usize) -> Option<usize> {
        let mut at = from;
        for _ in 0..nth {
            at = self.find_from(needle, at)? + needle.len();
        }
        self.find_from(needle, at)
    }
    /// Where the `nth` string literal at or after `from` opens (its quote).
    fn nth_string(&self, from: usize, nth: usize) -> Option<usize> {
        let first = self.strings.partition_point(|&s| s < from);
        self.strings.get(first + nth).copied()
    }
    fn err_at(&self, offset: Option<usize>, message: String) -> LevelError {
        let (line, column) = offset.map_or((1, 1), |o| line_col(self.source, o));
        LevelError { file: self.file.to_string(), line, column, message }
    }
    /// Where the `index`-th victory condition is written, else the `victory` field.
    fn victory(&self, index: usize) -> Option<usize> {
        let start = self.find("victory")?;
        let kinds = ["DefeatAllHostiles", "SurviveRounds", "ReachZone"];
        let mut found: Vec<usize> = kinds
            .iter()
            .flat_map(|k| self.source[start..].match_indices(k).map(move |(i, _)| start + i))
            .filter(|&i| !self.prose[i])
            .collect();
        found.sort_unstable();
        found.get(index).copied().or(Some(start))
    }
    /// Where side `side`'s relation to `other` is written.
    fn relation(&self, side: &str, other: &str) -> Option<usize> {
        let def = self.find(&format!("name: \"{side}\""))?;
        let rel = self.find_from("relations", def)?;
        self.find_from(&format!("\"{other}\""), rel)
    }
    /// Where the `index`-th creature entry starts (its `name:` field).
    fn creature(&self, index: usize) -> Option<usize> {
        let start = self.find("creatures")?;
        self.find_nth("name:", start, index)
    }
    /// Where `field:` is written inside the `index`-th creature entry (a whole word, so `at`
    /// does not match inside `template`), else the entry itself.
    fn creature_field(&self, index: usize, field: &str) -> Option<usize> {
        let start = self.creature(index)?;
        let end = self.creature(index + 1).unwrap_or(self.source.len());
        let text = &self.source[start..end];
        let key = format!("{field}:");
        let found = text
            .match_indices(&key)
            .map(|(i, _)| i)
            .filter(|&i| !self.prose[start + i])
            .find(|&i| text[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_')));
        Some(found.map_or(start, |i| start + i))
    }
}

/// The level files (`*.level.ron`) in a directory, sorted; at most 200 (a directory of
/// thousands of files is not a list of levels).
pub fn level_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut paths: Vec<std::path::PathBuf> =
        std::fs::read_dir(dir).map(|entries| entries.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    paths.retain(|p| p.to_string_lossy().ends_with(".level.ron"));
    paths.sort();
    paths.truncate(200);
    paths
}

/// Read and validate a level file (read bounded: see `files`).
pub fn load_level(path: &Path, compendium: &Compendium) -> Result<LoadedLevel, LevelError> {
    let (file, source) = read_level_text(path)?;
    parse_level(&file, &source, compendium)
}

/// A level file's name (as errors give it) and text, read bounded.
fn read_level_text(path: &Path) -> Result<(String, String), LevelError> {
    let file = path.display().to_string();
    let source = crate::files::read_text(path, crate::files::FileKind::Level).map_err(|e| LevelError {
        file: file.clone(),
        line: 0,
        column: 0,
        message: e.reason,
    })?;
    Ok((file, source))
}

/// A terrain is named by its key in `terrains` (a `name` written inside is not needed).
fn name_terrains(level: &mut Level) {
    for (name, t) in level.terrains.iter_mut() {
        t.name = name.clone();
    }
}

/// A level file read as RON without the checks against the map and the compendium: for the
/// editor, which opens a level that does not yet validate and marks what is wrong.
pub fn read_level_unchecked(path: &Path) -> Result<Level, LevelError> {
    let (file, source) = read_level_text(path)?;
    let mut level: Level = ron::from_str(&source).map_err(|e| ron_error(&file, &e))?;
    name_terrains(&mut level);
    // The map must at least be a rectangle of known characters for the editor to draw it.
    build_map(&level, &Locator::new(&file, &source))?;
    Ok(level)
}

/// Parse and validate level text; `file` names it in errors.
pub fn parse_level(file: &str, source: &str, compendium: &Compendium) -> Result<LoadedLevel, LevelError> {
    let loc = Locator::new(file, source);
    if source.len() as u64 > MAX_FILE_BYTES {
        return Err(loc.err_at(None, format!("{} bytes; a level may be at most {MAX_FILE_BYTES}", source.len())));
    }
    if source.trim().is_empty() {
        return Err(loc.err_at(None, "the file is empty; a level is a RON struct `( name: …, map: […], … )`".into()));
    }
    let mut level: Level = ron::from_str(source).map_err(|e| ron_error(file, &e))?;
    name_terrains(&mut level);
    let map = objects::place(&level, build_map(&level, &loc)?, &loc)?;
    validate::sides_and_victory(&level, &map, compendium, &loc)?;
    validate::creatures(&level, &map, compendium, &loc)?;
    validate::items(&level, &map, compendium, &loc)?;
    Ok(LoadedLevel { level, map, file: file.to_string() })
}

/// The most terrain types a level may define (a map's squares index them in 16 bits).
const MAX_TERRAINS: usize = 1000;

fn build_map(level: &Level, loc: &Locator) -> Result<GridMap, LevelError> {
    let map_at = loc.find("map");
    if level.map.is_empty() {
        return Err(loc.err_at(map_at, "the map has no rows".into()));
    }
    let width = level.map[0].chars().count();
    let height = level.map.len();
    if width == 0 || width as i32 > MAX_SIDE || height as i32 > MAX_SIDE {
        return Err(loc.err_at(map_at, format!("map is {width}×{height}; it must be 1×1 to {MAX_SIDE}×{MAX_SIDE}")));
    }
    if level.terrains.len() > MAX_TERRAINS {
        let at = loc.find("terrains");
        return Err(loc
            .err_at(at, format!("{} terrain types; a level may define at most {MAX_TERRAINS}", level.terrains.len())));
    }
    let mut names: Vec<&String> = level.terrains.keys().collect();
    names.sort();
    let index_of: BTreeMap<&String, u16> = names.iter().enumerate().map(|(i, n)| (*n, i as u16)).collect();
    for (ch, t) in &level.legend {
        if !level.terrains.contains_key(t) {
            let at = loc.find("legend").and_then(|from| loc.find_from(&format!("'{ch}'"), from));
            return Err(loc.err_at(at, format!("legend maps '{ch}' to unknown terrain \"{t}\"")));
        }
    }
    for (name, t) in &level.terrains {
        if t.resistance < 0 || t.resistance > 100 || t.cross_height.is_some_and(|h| !(0..=100).contains(&h)) {
            let at = loc.find("terrains").and_then(|from| loc.find_from(&format!("\"{name}\""), from));
            return Err(loc.err_at(at, format!("terrain \"{name}\": resistance and cross_height must be 0..=100")));
        }
        if !(0..=100).contains(&t.drop) || (t.drop > 0 && t.blocks_movement) {
            let at = loc.find("terrains").and_then(|from| loc.find_from(&format!("\"{name}\""), from));
            return Err(
                loc.err_at(at, format!("terrain \"{name}\": drop must be 0..=100 and not on a blocking terrain"))
            );
        }
        if let Some(problem) = t.hazard.as_ref().and_then(|h| h.problem()) {
            let at = loc.find("terrains").and_then(|from| loc.find_from(&format!("\"{name}\""), from));
            return Err(loc.err_at(at, format!("terrain \"{name}\": {problem} (FLOW-10)")));
        }
    }
    let mut cells = vec![0u16; width * height];
    for (row_index, row) in level.map.iter().enumerate() {
        // The map's rows are the strings written after its key, in order (a row written with
        // escapes is found too).
        let row_at = map_at.and_then(|m| loc.nth_string(m, row_index));
        if row.chars().count() != width {
            return Err(loc.err_at(
                row_at.map(|r| r + 1),
                format!("map row {} has {} columns; the first row has {width}", row_index + 1, row.chars().count()),
            ));
        }
        let y = height - 1 - row_index;
        for (x, ch) in row.chars().enumerate() {
            let Some(terrain) = level.legend.get(&ch) else {
                let col = row.char_indices().nth(x).map_or(0, |(b, _)| b);
                return Err(loc.err_at(
                    row_at.map(|r| r + 1 + col),
                    format!("unknown terrain character '{ch}' (the legend has no entry for it)"),
                ));
            };
            cells[y * width + x] = index_of[terrain];
        }
    }
    let terrains: Vec<Terrain> =
        names.iter().map(|n| Terrain { name: (*n).clone(), ..level.terrains[*n].clone() }).collect();
    GridMap::new(width as i32, height as i32, terrains, cells).map_err(|e| loc.err_at(map_at, e.to_string()))
}

#[cfg(test)]
mod tests;
