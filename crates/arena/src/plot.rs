//! A picture of a sweep: per setting, the first player's win rate (or score) with its interval,
//! the draw rate, and the mean game length, drawn with `plotters` into an SVG.

use plotters::prelude::*;

use crate::selfplay::SelfplaySummary;

/// Why a chart could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot draw the chart: {0}")]
pub struct PlotError(pub String);

fn plot_err(e: impl std::fmt::Display) -> PlotError {
    PlotError(e.to_string())
}

/// The SVG text of a chart of `rows` (setting label, summary), titled `title`, with the
/// settings' axis described as `setting_desc` (e.g. the swept keys).
///
/// Left axis: percent of games — the first player's wins (points with 95% Wilson interval
/// bars, a dashed 50% line marking balance) and draws. Right axis: mean game length in plies.
pub fn sweep_svg(
    title: &str,
    setting_desc: &str,
    rows: &[(String, SelfplaySummary)],
) -> Result<String, PlotError> {
    let rows: Vec<ChartRow> = rows
        .iter()
        .map(|(label, s)| ChartRow {
            label: label.clone(),
            point: s.first_player_win_rate,
            interval: s.first_player_ci95,
            draws: s.draws as f64 / s.games.max(1) as f64,
            mean_length: s.mean_length,
        })
        .collect();
    chart_svg(
        title,
        setting_desc,
        "% of games",
        "first player wins (95% interval)",
        &rows,
    )
}

/// One setting of a chart: the first player's figure with its interval, the draw rate
/// (all as fractions of 1), and the mean game length in plies.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartRow {
    /// The setting, under its point.
    pub label: String,
    /// The first player's figure (a win rate, a score).
    pub point: f64,
    /// Its interval, `(low, high)`.
    pub interval: (f64, f64),
    /// The share of drawn games.
    pub draws: f64,
    /// Mean game length in plies.
    pub mean_length: f64,
}

/// The chart of [`sweep_svg`] for any first-player figure: `value_desc` describes the left
/// axis, `point_legend` the points and their interval bars (e.g. the first player's score
/// and its simultaneous interval).
pub fn chart_svg(
    title: &str,
    setting_desc: &str,
    value_desc: &str,
    point_legend: &str,
    rows: &[ChartRow],
) -> Result<String, PlotError> {
    if rows.is_empty() {
        return Err(PlotError("a sweep without settings".into()));
    }
    let longest_label = rows.iter().map(|r| r.label.len()).max().unwrap_or(1) as u32;
    let width = (240 + (8 * longest_label + 40).max(120) * rows.len() as u32).clamp(640, 2400);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        // The legend gets a strip of its own under the chart, clear of the data.
        let (plot_area, legend_area) = root.split_vertically(460);
        let n = rows.len() as f64;
        let longest = rows
            .iter()
            .map(|r| r.mean_length)
            .fold(0.0, f64::max)
            .max(1.0);
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(60)
            .y_label_area_size(60)
            .right_y_label_area_size(60)
            .build_cartesian_2d(-0.5..n - 0.5, 0.0..100.0)
            .map_err(plot_err)?
            .set_secondary_coord(-0.5..n - 0.5, 0.0..longest * 1.15);
        let label_of = |x: &f64| -> String {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < rows.len() {
                rows[i as usize].label.clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_labels(rows.len() * 2 + 1)
            .x_label_formatter(&label_of)
            .x_desc(setting_desc)
            .y_desc(value_desc)
            .disable_x_mesh()
            .draw()
            .map_err(plot_err)?;
        chart
            .configure_secondary_axes()
            .y_desc("mean game length (plies)")
            .draw()
            .map_err(plot_err)?;
        let x = |i: usize| i as f64;
        chart
            .draw_series(LineSeries::new(
                [(-0.5, 50.0), (n - 0.5, 50.0)],
                BLACK.mix(0.5).stroke_width(1),
            ))
            .map_err(plot_err)?;
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                ErrorBar::new_vertical(
                    x(i),
                    100.0 * r.interval.0,
                    100.0 * r.point,
                    100.0 * r.interval.1,
                    BLUE.stroke_width(2),
                    12,
                )
            }))
            .map_err(plot_err)?;
        chart
            .draw_series(
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| Circle::new((x(i), 100.0 * r.point), 5, BLUE.filled())),
            )
            .map_err(plot_err)?;
        chart
            .draw_series(
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| TriangleMarker::new((x(i), 100.0 * r.draws), 6, RED.filled())),
            )
            .map_err(plot_err)?;
        chart
            .draw_secondary_series(LineSeries::new(
                rows.iter().enumerate().map(|(i, r)| (x(i), r.mean_length)),
                GREEN.stroke_width(2),
            ))
            .map_err(plot_err)?;
        chart
            .draw_secondary_series(
                rows.iter()
                    .enumerate()
                    .map(|(i, r)| Cross::new((x(i), r.mean_length), 5, GREEN.stroke_width(2))),
            )
            .map_err(plot_err)?;
        draw_legend(&legend_area, point_legend)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// One row of legend entries: a marker and its text each.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    point_legend: &str,
) -> Result<(), PlotError> {
    let font = ("sans-serif", 14).into_font();
    let (width, _) = area.dim_in_pixel();
    let (mut x, mut y) = (70i32, 14i32);
    let entries: [(&str, u8); 4] = [
        (point_legend, 0),
        ("draws", 1),
        ("mean game length (right axis)", 2),
        ("50%: balanced", 3),
    ];
    for (text, marker) in entries {
        let (text_width, _) = area
            .estimate_text_size(text, &TextStyle::from(font.clone()))
            .map_err(plot_err)?;
        let step = 28 + text_width as i32 + 30;
        if x > 70 && x + step > width as i32 {
            (x, y) = (70, y + 22);
        }
        match marker {
            0 => area
                .draw(&Circle::new((x + 10, y), 5, BLUE.filled()))
                .map_err(plot_err)?,
            1 => area
                .draw(&TriangleMarker::new((x + 10, y), 6, RED.filled()))
                .map_err(plot_err)?,
            2 => area
                .draw(&PathElement::new(
                    [(x, y), (x + 20, y)],
                    GREEN.stroke_width(2),
                ))
                .map_err(plot_err)?,
            _ => area
                .draw(&PathElement::new([(x, y), (x + 20, y)], BLACK.mix(0.5)))
                .map_err(plot_err)?,
        }
        area.draw(&Text::new(text, (x + 28, y - 8), font.clone()))
            .map_err(plot_err)?;
        x += step;
    }
    Ok(())
}
