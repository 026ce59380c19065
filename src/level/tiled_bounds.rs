//! What a Tiled file must satisfy before the `tiled` crate reads it. That crate trusts its
//! input: a layer with less tile data than its size panics when asked for a tile, a tileset
//! claiming four billion tiles makes it allocate a terabyte, and a few megabytes of zlib layer
//! data inflate to gigabytes. So every map, tileset and template the import reads is walked
//! here first, as XML, and refused with a message naming what is wrong.

use base64::Engine;
use quick_xml::events::{BytesStart, Event};
use std::io::Read;

/// A level is at most this many squares a side (`rules::grid::MAX_SIDE`).
const MAX_SIDE: u32 = crate::rules::grid::MAX_SIDE as u32;

/// The most tiles a tileset may declare: far above any terrain palette. The `tiled` crate
/// holds a tileset's tiles whole (an image tileset of 65,536 tiles took 26 MB).
const MAX_TILESET_TILES: u32 = 4096;

/// The most tilesets and layers (of any kind, groups included) a file may hold: each layer of
/// a 256×256 map takes a megabyte once read, and a level needs a handful (1,000 layers of
/// packed zeros, 482 KB of text, took a gigabyte).
const MAX_TILESETS: usize = 16;
const MAX_LAYERS: usize = 64;

/// The most pixels a tile, or the spacing or margin around tiles, may measure.
const MAX_TILE_PIXELS: u32 = 65_536;

/// The flags Tiled keeps in a tile number's top bits (flips, hexagonal rotation).
const TILE_FLAGS: u32 = 0xF000_0000;

/// How deep elements may nest: the `tiled` crate reads groups and class properties by
/// recursion, and 5,000 nested groups overflowed its stack.
const MAX_DEPTH: usize = 32;

/// Tiles written one XML element each (Tiled's oldest format), which the `tiled` crate skips.
const XML_TILES: &str = "its tiles are written as XML elements, which are not read; save it as CSV or Base64";

/// The tile layer's data element being read: its encoding, compression and text.
struct Data {
    encoding: Option<String>,
    compression: Option<String>,
    text: String,
}

/// The checks, run over one file's text; `Err` says what is wrong (the caller names the file).
pub fn check(source: &str) -> Result<(), String> {
    let mut reader = quick_xml::Reader::from_str(source);
    // The map's size, once its tag is read; the tile layer being read (name, width, height,
    // whether its data was seen); the data element being read.
    let mut map_size: Option<(u32, u32)> = None;
    let mut layer: Option<(String, u32, u32, bool)> = None;
    let mut data: Option<Data> = None;
    let (mut depth, mut tilesets, mut layers) = (0usize, 0usize, 0usize);
    // The first tile number of the tilesets, and the least tile number a layer holds: the
    // `tiled` crate leaves a tile of no tileset empty, so a map's walls became floor unsaid.
    let (mut first_gid, mut least_tile): (Option<u32>, Option<u32>) = (None, None);
    // The margin of the tileset being read: the crate takes it from its image's width.
    let mut tileset_margin: Option<u32> = None;
    loop {
        let event = reader.read_event().map_err(|e| format!("not readable as XML: {e}"))?;
        // Inside a layer's data only its text may stand: the `tiled` crate reads the first
        // piece of text alone, so a comment or element splitting it left the layer short.
        if let Some(d) = data.as_mut() {
            match &event {
                Event::Text(text) => {
                    d.text.push_str(&text.unescape().map_err(|e| format!("layer data not readable: {e}"))?);
                    continue;
                }
                Event::End(tag) if tag.local_name().as_ref() == b"data" => {}
                Event::Start(tag) | Event::Empty(tag) if tag.local_name().as_ref() == b"tile" => {
                    return Err(format!("layer '{}': {XML_TILES}", layer.as_ref().map_or("", |l| l.0.as_str())));
                }
                _ => {
                    let name = layer.as_ref().map_or("", |l| l.0.as_str());
                    return Err(format!(
                        "layer '{name}': its data holds more than text (a comment, CDATA or an element); save the \
                         map again from Tiled"
                    ));
                }
            }
        }
        match &event {
            Event::Start(_) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(format!("elements nested more than {MAX_DEPTH} deep"));
                }
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
        match &event {
            Event::Start(tag) | Event::Empty(tag) => match tag.local_name().as_ref() {
                b"map" => {
                    if attr(tag, "infinite")?.as_deref() == Some("1") {
                        return Err("an infinite map: a level has a fixed size (turn Infinite off in Tiled's map \
                                    properties)"
                            .into());
                    }
                    let (w, h) = (number(tag, "width")?.unwrap_or(0), number(tag, "height")?.unwrap_or(0));
                    for (name, v) in [("width", w), ("height", h)] {
                        if !(1..=MAX_SIDE).contains(&v) {
                            return Err(format!(
                                "the map's {name} is {v}; a level is at most {MAX_SIDE} squares a side, at least 1"
                            ));
                        }
                    }
                    // Objects are placed by pixel, divided by the tile's size.
                    for name in ["tilewidth", "tileheight"] {
                        if number(tag, name)? == Some(0) {
                            return Err(format!("the map's {name} is 0; tiles have a size"));
                        }
                    }
                    map_size = Some((w, h));
                }
                b"tileset" => {
                    tilesets += 1;
                    if tilesets > MAX_TILESETS {
                        return Err(format!("more than {MAX_TILESETS} tilesets"));
                    }
                    for name in ["tilecount", "columns"] {
                        if let Some(n) = number(tag, name)?.filter(|&n| n > MAX_TILESET_TILES) {
                            return Err(format!("a tileset's {name} is {n}; at most {MAX_TILESET_TILES}"));
                        }
                    }
                    // The `tiled` crate divides an image's width by a tile's width plus the
                    // spacing: four billion and one wrapped to nothing and it divided by zero.
                    for name in ["tilewidth", "tileheight", "spacing", "margin"] {
                        if let Some(n) = number(tag, name)?.filter(|&n| n > MAX_TILE_PIXELS) {
                            return Err(format!("a tileset's {name} is {n} pixels; at most {MAX_TILE_PIXELS}"));
                        }
                    }
                    if let Some(first) = number(tag, "firstgid")? {
                        first_gid = Some(first_gid.map_or(first, |f: u32| f.min(first)));
                    }
                    if matches!(event, Event::Start(_)) {
                        tileset_margin = Some(number(tag, "margin")?.unwrap_or(0));
                    }
                }
                // Without `columns` the crate counts them as (image width - margin + spacing) /
                // (tile width + spacing): a margin wider than the image overflowed.
                b"image" if tileset_margin.is_some() => {
                    let margin = tileset_margin.unwrap_or(0);
                    if let Some(width) = number(tag, "width")?.filter(|&w| w < margin) {
                        return Err(format!(
                            "a tileset's image is {width} pixels wide, less than its margin of {margin}"
                        ));
                    }
                }
                kind @ (b"layer" | b"objectgroup" | b"imagelayer" | b"group") => {
                    layers += 1;
                    if layers > MAX_LAYERS {
                        return Err(format!("more than {MAX_LAYERS} layers"));
                    }
                    if kind != b"layer" {
                        continue;
                    }
                    let name = attr(tag, "name")?.unwrap_or_default();
                    let (w, h) = (number(tag, "width")?.unwrap_or(0), number(tag, "height")?.unwrap_or(0));
                    if map_size.is_some_and(|m| m != (w, h)) || w > MAX_SIDE || h > MAX_SIDE {
                        let (mw, mh) = map_size.unwrap_or((0, 0));
                        return Err(format!("layer '{name}' is {w}×{h}; the map is {mw}×{mh}"));
                    }
                    if matches!(event, Event::Empty(_)) {
                        return Err(format!("layer '{name}' has no tile data"));
                    }
                    layer = Some((name, w, h, false));
                }
                b"data" if layer.is_some() => {
                    let d = Data {
                        encoding: attr(tag, "encoding")?,
                        compression: attr(tag, "compression")?,
                        text: String::new(),
                    };
                    if let Some(l) = layer.as_mut() {
                        l.3 = true;
                    }
                    if matches!(event, Event::Empty(_)) {
                        least(&mut least_tile, finish_data(layer.as_ref(), d)?);
                    } else {
                        data = Some(d);
                    }
                }
                b"chunk" => return Err("layer data in chunks (an infinite map): a level has a fixed size".into()),
                _ => {}
            },
            Event::End(tag) => match tag.local_name().as_ref() {
                b"data" => {
                    if let Some(d) = data.take() {
                        least(&mut least_tile, finish_data(layer.as_ref(), d)?);
                    }
                }
                b"tileset" => tileset_margin = None,
                b"layer" => {
                    if let Some((name, _, _, false)) = layer.take() {
                        return Err(format!("layer '{name}' has no tile data"));
                    }
                }
                _ => {}
            },
            Event::Eof => {
                return match (least_tile, first_gid) {
                    (Some(tile), None) => Err(format!("a layer holds tile {tile}, but the map has no tileset")),
                    (Some(tile), Some(first)) if tile < first => {
                        Err(format!("a layer holds tile {tile}, which is in no tileset (the first begins at {first})"))
                    }
                    _ => Ok(()),
                };
            }
            _ => {}
        }
    }
}

/// Keeps the lesser of two least tile numbers.
fn least(so_far: &mut Option<u32>, tile: Option<u32>) {
    if let Some(t) = tile {
        *so_far = Some(so_far.map_or(t, |s| s.min(t)));
    }
}

/// The tile layer's data must hold exactly one entry per square of the layer; the least tile
/// number it holds (flags aside; 0 is no tile).
fn finish_data(layer: Option<&(String, u32, u32, bool)>, data: Data) -> Result<Option<u32>, String> {
    let Some((name, w, h, _)) = layer else {
        return Ok(None);
    };
    let least_of = |tiles: &mut dyn Iterator<Item = u32>| tiles.map(|t| t & !TILE_FLAGS).filter(|&t| t > 0).min();
    let squares = (*w as usize) * (*h as usize);
    let bad = |what: String| format!("layer '{name}': {what}");
    let (count, least_tile) = match (data.encoding.as_deref(), data.compression.as_deref()) {
        (Some("csv"), None) => {
            let entries: Vec<&str> = data.text.split(',').map(str::trim).collect();
            if let Some(k) = entries.iter().position(|v| v.parse::<u32>().is_err()) {
                return Err(bad(format!("CSV entry {} is {:?}, not a tile number", k + 1, entries[k])));
            }
            (entries.len(), least_of(&mut entries.iter().filter_map(|v| v.parse::<u32>().ok())))
        }
        (Some("base64"), compression) => {
            let raw = base64::engine::general_purpose::STANDARD
                .decode(data.text.trim().as_bytes())
                .map_err(|e| bad(format!("its base64 data is not readable ({e})")))?;
            // Four bytes a square; one byte more shows there was more than that.
            let limit = 4 * squares as u64 + 1;
            let mut bytes = Vec::new();
            let read = match compression {
                None => {
                    bytes = raw;
                    Ok(bytes.len())
                }
                Some("zlib") => flate2::read::ZlibDecoder::new(&raw[..]).take(limit).read_to_end(&mut bytes),
                Some("gzip") => flate2::read::GzDecoder::new(&raw[..]).take(limit).read_to_end(&mut bytes),
                Some(other) => {
                    return Err(bad(format!("compression '{other}' is not read; save it with zlib or gzip")));
                }
            };
            let len = read.map_err(|e| bad(format!("its compressed data is not readable ({e})")))?;
            if len as u64 >= limit {
                return Err(bad(format!("more than {squares} tiles of data for its {w}×{h} squares")));
            }
            if len % 4 != 0 {
                return Err(bad(format!("its data is {len} bytes, not four a square")));
            }
            let mut tiles = bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            (len / 4, least_of(&mut tiles))
        }
        (None, None) => return Err(bad(XML_TILES.into())),
        (other, _) => return Err(bad(format!("data encoding {other:?} is not read; save it as CSV or Base64"))),
    };
    if count != squares {
        return Err(bad(format!("{count} tiles of data for its {w}×{h} squares")));
    }
    Ok(least_tile)
}

fn attr(tag: &BytesStart, name: &str) -> Result<Option<String>, String> {
    match tag.try_get_attribute(name) {
        Ok(Some(a)) => a.unescape_value().map(|v| Some(v.into_owned())).map_err(|e| format!("attribute {name}: {e}")),
        Ok(None) => Ok(None),
        Err(e) => Err(format!("attribute {name}: {e}")),
    }
}

fn number(tag: &BytesStart, name: &str) -> Result<Option<u32>, String> {
    let tag_name = String::from_utf8_lossy(tag.local_name().as_ref()).into_owned();
    attr(tag, name)?
        .map(|v| v.trim().parse::<u32>().map_err(|_| format!("<{tag_name}> {name}=\"{v}\" is not a whole number")))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::check;
    use base64::Engine;
    use std::io::Write;

    fn map(layer: &str) -> String {
        format!(
            r#"<?xml version="1.0"?><map version="1.10" orientation="orthogonal" width="3" height="2" tilewidth="16" tileheight="16" infinite="0"><tileset firstgid="1" source="t.tsx"/>{layer}</map>"#
        )
    }

    #[test]
    fn a_layer_must_hold_one_tile_a_square() {
        assert_eq!(
            check(&map(
                r#"<layer id="1" name="g" width="3" height="2"><data encoding="csv">1,1,1,1,1,1</data></layer>"#
            )),
            Ok(())
        );
        let short =
            check(&map(r#"<layer id="1" name="g" width="3" height="2"><data encoding="csv">1,1,1</data></layer>"#));
        assert_eq!(short, Err("layer 'g': 3 tiles of data for its 3×2 squares".into()));
        let wide =
            check(&map(r#"<layer id="1" name="g" width="300" height="2"><data encoding="csv">1</data></layer>"#));
        assert_eq!(wide, Err("layer 'g' is 300×2; the map is 3×2".into()));
        let xml =
            check(&map(r#"<layer id="1" name="g" width="3" height="2"><data><tile gid="1"/><tile/></data></layer>"#));
        assert!(xml.unwrap_err().contains("written as XML elements"));
        // The `tiled` crate reads the first piece of text alone: a comment splitting it panicked.
        let split = check(&map(
            r#"<layer id="1" name="g" width="3" height="2"><data encoding="csv">1,1,1<!-- x -->,1,1,1</data></layer>"#,
        ));
        assert!(split.unwrap_err().contains("more than text"));
        let trailing = check(&map(
            r#"<layer id="1" name="g" width="3" height="2"><data encoding="csv">1,1,1,1,1,1,</data></layer>"#,
        ));
        assert_eq!(trailing, Err("layer 'g': CSV entry 7 is \"\", not a tile number".into()));
        let empty = check(&map(r#"<layer id="1" name="g" width="3" height="2"></layer>"#));
        assert_eq!(empty, Err("layer 'g' has no tile data".into()));
    }

    #[test]
    fn compressed_data_is_inflated_only_as_far_as_the_layer_reaches() {
        let zlib = |bytes: &[u8]| {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            z.write_all(bytes).unwrap();
            base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap())
        };
        let layer = |data: String| {
            map(&format!(
                r#"<layer id="1" name="g" width="3" height="2"><data encoding="base64" compression="zlib">{data}</data></layer>"#
            ))
        };
        assert_eq!(check(&layer(zlib(&[1, 0, 0, 0].repeat(6)))), Ok(()));
        // A bomb: 10 MB of zeros, ten kilobytes packed, inflated no further than 6 tiles and a byte.
        let bomb = check(&layer(zlib(&vec![0; 10_000_000])));
        assert_eq!(bomb, Err("layer 'g': more than 6 tiles of data for its 3×2 squares".into()));
    }

    #[test]
    fn absurd_sizes_and_infinite_maps_are_refused() {
        let tileset = r#"<map width="3" height="2" infinite="0"><tileset firstgid="1" name="t" tilecount="4294967295" columns="1"/></map>"#;
        assert_eq!(check(tileset), Err("a tileset's tilecount is 4294967295; at most 4096".into()));
        let many = format!(r#"<map width="3" height="2">{}</map>"#, r#"<tileset firstgid="1" name="t"/>"#.repeat(17));
        assert_eq!(check(&many), Err("more than 16 tilesets".into()));
        let deep = format!(r#"<map width="3" height="2">{}{}</map>"#, "<group>".repeat(40), "</group>".repeat(40));
        assert_eq!(check(&deep), Err("elements nested more than 32 deep".into()));
        assert!(check(r#"<map width="3" height="2" infinite="1"></map>"#).unwrap_err().contains("infinite"));
        assert!(check(r#"<map width="300" height="2"></map>"#).unwrap_err().contains("width is 300"));
        assert!(check(r#"<map width="-3" height="2"></map>"#).unwrap_err().contains("not a whole number"));
        // The crate's columns = (image width + spacing) / (tile width + spacing): 4294967295 + 1
        // wrapped to a division by zero.
        let wide =
            r#"<map width="3" height="2"><tileset firstgid="1" name="t" tilewidth="4294967295" spacing="1"/></map>"#;
        assert_eq!(check(wide), Err("a tileset's tilewidth is 4294967295 pixels; at most 65536".into()));
        let spaced =
            r#"<map width="3" height="2"><tileset firstgid="1" name="t" tilewidth="32" spacing="70000"/></map>"#;
        assert_eq!(check(spaced), Err("a tileset's spacing is 70000 pixels; at most 65536".into()));
        let image = |width: &str| {
            check(&format!(
                r#"<map width="3" height="2"><tileset firstgid="1" name="t" tilewidth="32" margin="40"><image source="t.png" width="{width}" height="32"/></tileset></map>"#
            ))
        };
        assert_eq!(image("192"), Ok(()));
        assert_eq!(image("32"), Err("a tileset's image is 32 pixels wide, less than its margin of 40".into()));
        assert!(image("-32").unwrap_err().contains("not a whole number"));
    }

    #[test]
    fn a_tile_of_no_tileset_is_refused_not_left_as_floor() {
        let tiles = |first: &str, data: &str| {
            format!(
                r#"<map width="3" height="2">{first}<layer id="1" name="g" width="3" height="2"><data encoding="csv">{data}</data></layer></map>"#
            )
        };
        let from_7 = r#"<tileset firstgid="7" source="a.tsx"/><tileset firstgid="4294967295" source="b.tsx"/>"#;
        assert_eq!(check(&tiles(from_7, "0,7,8,0,4294967295,9")), Ok(()));
        assert_eq!(
            check(&tiles(from_7, "0,7,8,0,3,9")),
            Err("a layer holds tile 3, which is in no tileset (the first begins at 7)".into())
        );
        // Flipped tiles keep their flags in the top bits: tile 7 flipped is still tile 7.
        assert_eq!(check(&tiles(from_7, &format!("0,{},8,0,7,9", 0x8000_0007u32))), Ok(()));
        assert_eq!(check(&tiles("", "0,0,1,0,0,0")), Err("a layer holds tile 1, but the map has no tileset".into()));
        assert_eq!(check(&tiles("", "0,0,0,0,0,0")), Ok(()));
    }
}
