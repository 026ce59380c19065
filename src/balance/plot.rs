//! `sim --plot FILE.png`: win rates with their intervals and the rounds histogram, one picture
//! for one or several versions of a level. Drawn with plotters' bitmap backend and the font bevy
//! already embeds, so no system font library is needed.

use super::Tally;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 520;

/// Side colours, in side order (repeating past six).
const SIDE_COLOURS: [RGBColor; 6] = [
    RGBColor(52, 101, 164),
    RGBColor(204, 0, 0),
    RGBColor(78, 154, 6),
    RGBColor(196, 160, 0),
    RGBColor(117, 80, 123),
    RGBColor(206, 92, 0),
];
/// Level colours for the histogram lines.
const LEVEL_COLOURS: [RGBColor; 6] = [
    RGBColor(32, 32, 32),
    RGBColor(52, 101, 164),
    RGBColor(204, 0, 0),
    RGBColor(78, 154, 6),
    RGBColor(117, 80, 123),
    RGBColor(206, 92, 0),
];

/// The embedded font covers ASCII; anything else would draw as boxes.
fn ascii(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_graphic() || c == ' ' { c } else { '?' }).collect()
}

fn register_font() -> Result<(), String> {
    static DONE: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, bevy::text::DEFAULT_FONT_DATA)
            .map_err(|_| "the embedded font could not be read".to_string())
    })
    .clone()
}

/// The chart of these tallies (labelled with `names`) as PNG bytes.
pub fn render_png(names: &[String], tallies: &[Tally]) -> Result<Vec<u8>, String> {
    register_font()?;
    let mut rgb = vec![255u8; (WIDTH * HEIGHT * 3) as usize];
    draw(&mut rgb, names, tallies).map_err(|e| format!("drawing the chart: {e}"))?;
    let mut png_bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png_bytes, WIDTH, HEIGHT);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(&rgb).map_err(|e| e.to_string())?;
    }
    Ok(png_bytes)
}

fn draw(rgb: &mut [u8], names: &[String], tallies: &[Tally]) -> Result<(), Box<dyn std::error::Error>> {
    let root = BitMapBackend::with_buffer(rgb, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(WIDTH * 11 / 20);

    // Win rates: one bar per (level, side), the 95% interval as an error bar.
    let mut bars: Vec<(String, usize, super::Rate)> = Vec::new();
    for (k, t) in tallies.iter().enumerate() {
        for s in 0..t.sides.len() {
            let label =
                if tallies.len() > 1 { format!("{} {}", k + 1, ascii(&t.sides[s])) } else { ascii(&t.sides[s]) };
            bars.push((label, s, t.wins(s)));
        }
        bars.push((if tallies.len() > 1 { format!("{} draws", k + 1) } else { "draws".into() }, usize::MAX, t.draws()));
    }
    let n = bars.len() as i32;
    let mut chart = ChartBuilder::on(&left)
        .caption("Win rate, 95% interval", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(48)
        .build_cartesian_2d((0..(n - 1).max(0)).into_segmented(), 0f64..100f64)?;
    let labels: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(bars.len().max(1))
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .x_label_style(("sans-serif", 13))
        .y_desc("% of battles")
        .draw()?;
    for (i, (_, side, rate)) in bars.iter().enumerate() {
        let colour =
            if *side == usize::MAX { RGBColor(136, 138, 133) } else { SIDE_COLOURS[side % SIDE_COLOURS.len()] };
        let i = i as i32;
        let mut bar = Rectangle::new(
            [(SegmentValue::Exact(i), 0.0), (SegmentValue::Exact(i + 1), 100.0 * rate.value())],
            colour.mix(0.75).filled(),
        );
        bar.set_margin(0, 0, 6, 6);
        chart.draw_series(std::iter::once(bar))?;
        chart.draw_series(std::iter::once(ErrorBar::new_vertical(
            SegmentValue::CenterOf(i),
            100.0 * rate.low,
            100.0 * rate.value(),
            100.0 * rate.high,
            BLACK.stroke_width(2),
            12,
        )))?;
    }

    // Rounds: the share of battles ending in each round, one line per level.
    let longest = tallies.iter().map(|t| t.rounds_histogram().len()).max().unwrap_or(1).max(2) as u32;
    let shares: Vec<Vec<(u32, f64)>> = tallies
        .iter()
        .map(|t| {
            let n = t.n().max(1) as f64;
            t.rounds_histogram().iter().enumerate().map(|(r, &c)| (r as u32, 100.0 * c as f64 / n)).collect()
        })
        .collect();
    let top = shares.iter().flatten().map(|p| p.1).fold(1.0, f64::max) * 1.1;
    let mut chart = ChartBuilder::on(&right)
        .caption("Rounds a battle lasted", ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(48)
        .build_cartesian_2d(0u32..longest, 0f64..top)?;
    chart.configure_mesh().x_desc("round the battle ended").y_desc("% of battles").draw()?;
    for (k, line) in shares.iter().enumerate() {
        let colour = LEVEL_COLOURS[k % LEVEL_COLOURS.len()];
        let name = names.get(k).map_or_else(String::new, |n| ascii(n));
        let label = if tallies.len() > 1 { format!("{} {name}", k + 1) } else { name };
        chart
            .draw_series(LineSeries::new(line.iter().copied(), colour.stroke_width(2)))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()?;
    root.present()?;
    Ok(())
}
