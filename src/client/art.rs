//! Our own art, generated in code: the tileset (one tile per kind of terrain), a level's
//! thumbnail for the menu, and the token bodies whose shape tells a creature's kind.

use super::board::side_colour;
use super::{TILE, Viewer};
use crate::rules::grid::{Pos, Terrain};
use bevy::asset::RenderAssetUsages;
use bevy::image::Image;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

/// Tile kinds of the generated tileset, in image order.
#[derive(Clone, Copy)]
pub(super) enum Tile {
    Floor = 0,
    Wall = 1,
    LowWall = 2,
    Rough = 3,
    Thicket = 4,
    Smooth = 5,
    /// A pit or chasm (SPACE-E7, MOVE-12): a square without support.
    Chasm = 6,
    /// Dangerous ground (FLOW-10): embers, deep water, whatever the level says.
    Hazard = 7,
    /// ATK-16 objects: a closed door, an open one, a crate or barricade, rubble.
    DoorClosed = 8,
    DoorOpen = 9,
    Crate = 10,
    Rubble = 11,
}

const TILES: u32 = 12;

pub(super) fn tile_for(t: &Terrain) -> Tile {
    use crate::rules::objects::looks;
    match t.name.as_str() {
        looks::DOOR_CLOSED => return Tile::DoorClosed,
        looks::DOOR_OPEN => return Tile::DoorOpen,
        looks::CRATE | looks::BARRICADE => return Tile::Crate,
        looks::RUBBLE => return Tile::Rubble,
        _ => {}
    }
    if t.drop > 0 {
        Tile::Chasm
    } else if t.hazard.is_some() {
        Tile::Hazard
    } else if t.blocks_movement && t.blocks_sight {
        Tile::Wall
    } else if t.low_cover || t.blocks_movement {
        Tile::LowWall
    } else if t.concealing {
        Tile::Thicket
    } else if t.difficult || t.resistance > 0 {
        Tile::Rough
    } else if t.smooth {
        Tile::Smooth
    } else {
        Tile::Floor
    }
}

/// A small picture of a level's map for the menu: one 4x4 block per square in its tile's
/// colour (unlit squares dimmed), each creature a dot in its side's colour.
/// A terrain's colour in the thumbnail and the editor's map (darker and bluer when unlit).
pub fn terrain_rgb(t: &Terrain) -> [u8; 3] {
    let rgb = match tile_for(t) {
        Tile::Floor => [138, 128, 108],
        Tile::Wall => [70, 68, 76],
        Tile::LowWall => [170, 160, 146],
        Tile::Rough => [118, 104, 82],
        Tile::Thicket => [62, 110, 56],
        Tile::Smooth => [160, 152, 134],
        Tile::Chasm => [24, 20, 28],
        Tile::Hazard => [176, 70, 30],
        Tile::DoorClosed => [120, 78, 40],
        Tile::DoorOpen => [150, 120, 84],
        Tile::Crate => [168, 124, 70],
        Tile::Rubble => [110, 100, 92],
    };
    if t.dark { [rgb[0] / 2, rgb[1] / 2, rgb[2] * 2 / 3 + 20] } else { rgb }
}

/// A level's map as a picture, one pixel a square (north row on top), for a sprite scaled up
/// to the squares: drawn from the level as written, so a level that does not validate yet
/// (in the editor) is drawn too; an unknown character is magenta.
pub fn map_picture(level: &crate::level::Level) -> Image {
    let h = level.map.len().max(1) as u32;
    let w = level.map.first().map_or(1, |r| r.chars().count().max(1)) as u32;
    let rows: Vec<Vec<char>> = level.map.iter().map(|r| r.chars().collect()).collect();
    picture(w, h, |x, row| {
        let g = rows.get(row as usize).and_then(|r| r.get(x as usize));
        g.and_then(|g| level.legend.get(g)).and_then(|n| level.terrains.get(n)).map_or([255, 0, 255], terrain_rgb)
    })
}

/// A built map as a picture (the replay viewer's board), like [`map_picture`].
pub fn grid_picture(map: &crate::rules::grid::GridMap) -> Image {
    let (w, h) = (map.width() as u32, map.height() as u32);
    picture(w, h, |x, row| terrain_rgb(map.terrain(Pos::new(x as i32, h as i32 - 1 - row as i32))))
}

/// A `w`×`h` picture from the colour of each square, rows from the north.
fn picture(w: u32, h: u32, rgb_at: impl Fn(u32, u32) -> [u8; 3]) -> Image {
    let mut data = vec![0u8; (w * h * 4) as usize];
    for row in 0..h {
        for x in 0..w {
            let rgb = rgb_at(x, row);
            let i = ((row * w + x) * 4) as usize;
            data[i..i + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }
    Image::new(
        Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

pub fn thumbnail(l: &crate::level::LoadedLevel) -> Image {
    const PX: u32 = 4;
    let (w, h) = (l.map.width() as u32, l.map.height() as u32);
    let mut data = vec![0u8; (w * h * PX * PX * 4) as usize];
    let mut put = |x: u32, y: u32, rgb: [u8; 3], dot: bool| {
        for dy in 0..PX {
            for dx in 0..PX {
                let inner = (1..PX - 1).contains(&dx) && (1..PX - 1).contains(&dy);
                if dot && !inner {
                    continue;
                }
                // Images run top-down; the map's y runs up the screen.
                let (px_, py) = (x * PX + dx, (h - 1 - y) * PX + dy);
                let i = ((py * w * PX + px_) * 4) as usize;
                data[i..i + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
            }
        }
    };
    for y in 0..h {
        for x in 0..w {
            put(x, y, terrain_rgb(l.map.terrain(Pos::new(x as i32, y as i32))), false);
        }
    }
    let viewer = Viewer { side: 0, plays: true, omniscient: false };
    for c in &l.level.creatures {
        let side = l.level.sides.iter().position(|s| s.name == c.side).unwrap_or(0);
        let rgb = side_colour(side, &viewer).to_srgba();
        let rgb = [rgb.red, rgb.green, rgb.blue].map(|v| (v * 255.0) as u8);
        let (x, y) = (c.at.0.clamp(0, w as i32 - 1) as u32, c.at.1.clamp(0, h as i32 - 1) as u32);
        put(x, y, rgb, true);
    }
    Image::new(
        Extent3d { width: w * PX, height: h * PX, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

/// The tileset is drawn here rather than shipped as a file: the window then works from any
/// directory, with no asset to lose.
pub(super) fn tileset() -> Image {
    let size = TILE as u32;
    let width = size * TILES;
    let mut data = vec![0u8; (width * size * 4) as usize];
    for tile in 0..TILES {
        for y in 0..size {
            for x in 0..size {
                let edge = x == 0 || y == 0;
                let rgb: [u8; 3] = match tile {
                    0 => [138, 128, 108],
                    1 => {
                        // Courses of stone, offset every other row.
                        let row = y / 8;
                        let joint = y % 8 == 0 || (x + if row % 2 == 0 { 0 } else { 8 }) % 16 == 0;
                        if joint { [52, 50, 56] } else { [88, 86, 94] }
                    }
                    2 => {
                        let band = (10..22).contains(&y);
                        let joint = y == 10 || y == 21 || x % 10 == 0;
                        match (band, joint) {
                            (true, true) => [96, 90, 84],
                            (true, false) => [150, 142, 130],
                            _ => [138, 128, 108],
                        }
                    }
                    3 => {
                        let pebble = (x * 7 + y * 13) % 23 == 0 || (x * 11 + y * 5) % 29 == 0;
                        if pebble { [96, 84, 66] } else { [128, 114, 90] }
                    }
                    4 => {
                        let stroke = (x + 2 * y) % 9 == 0 || (2 * x + 31 - y) % 11 == 0;
                        if stroke { [40, 88, 40] } else { [70, 118, 62] }
                    }
                    5 => [160, 152, 134],
                    6 => {
                        // A drop: near-black, with the rim's faint ledges toward the bottom.
                        let ledge = y % 6 == 0 && (x + y) % 4 != 0;
                        if ledge { [44, 38, 48] } else { [22, 18, 26] }
                    }
                    7 => {
                        // A hazard: glowing embers on scorched ground.
                        let glow = (x * 5 + y * 7) % 13 < 3 || (x * 3 + y * 11) % 17 == 0;
                        if glow { [250, 170, 60] } else { [150, 58, 28] }
                    }
                    8 => {
                        // A closed door: vertical planks with iron bands.
                        let band = (7..10).contains(&y) || (22..25).contains(&y);
                        let seam = x % 8 == 0;
                        if band {
                            [60, 58, 62]
                        } else if seam {
                            [84, 52, 26]
                        } else {
                            [128, 84, 44]
                        }
                    }
                    9 => {
                        // An open door: the floor, with the door swung against the jamb.
                        if x < 5 { [128, 84, 44] } else { [138, 128, 108] }
                    }
                    10 => {
                        // A crate: boards in a frame, a cross brace.
                        let frame = x < 3 || y < 3 || x > size - 4 || y > size - 4;
                        let brace = x.abs_diff(y) < 2 || (x + y).abs_diff(size) < 2;
                        if frame || brace { [110, 76, 40] } else { [176, 132, 76] }
                    }
                    _ => {
                        // Rubble: broken pieces on the floor.
                        let chunk = (x / 5 + y / 4) % 3 == 0 && (x * 7 + y * 3) % 5 != 0;
                        if chunk { [96, 88, 80] } else { [138, 128, 108] }
                    }
                };
                let rgb = if edge && !matches!(tile, 1 | 6 | 8) { rgb.map(|c| c.saturating_sub(22)) } else { rgb };
                let i = ((y * width + tile * size + x) * 4) as usize;
                data[i..i + 4].copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
            }
        }
    }
    Image::new(
        Extent3d { width, height: size, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

/// A token's body: its shape tells the creature's kind (one shape per compendium template in
/// the battle, in order of first appearance), its colour the side.
pub(super) fn body_mesh(kind: usize, radius: f32) -> Mesh {
    match kind % 6 {
        0 => Circle::new(radius).into(),
        1 => RegularPolygon::new(radius * 1.05, 4).into(),
        2 => RegularPolygon::new(radius * 1.05, 6).into(),
        3 => RegularPolygon::new(radius * 1.2, 3).into(),
        4 => RegularPolygon::new(radius * 1.05, 5).into(),
        _ => Rhombus::new(radius * 2.0, radius * 1.5).into(),
    }
}

/// The shapes' names, in `body_mesh` order, for the legend.
pub const KIND_SHAPES: [&str; 6] = ["disc", "square", "hexagon", "triangle", "pentagon", "diamond"];
