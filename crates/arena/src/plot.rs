//! A picture of a sweep: per setting, the first player's win rate with its 95% interval,
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

/// The SVG text of a chart of `rows` (setting label, summary), titled `title`.
///
/// Left axis: percent of games — the first player's wins (points with 95% Wilson interval
/// bars, a dashed 50% line marking balance) and draws. Right axis: mean game length in plies.
pub fn sweep_svg(title: &str, rows: &[(String, SelfplaySummary)]) -> Result<String, PlotError> {
    if rows.is_empty() {
        return Err(PlotError("a sweep without settings".into()));
    }
    let width = (240 + 150 * rows.len() as u32).clamp(640, 1600);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let n = rows.len() as f64;
        let longest = rows
            .iter()
            .map(|(_, s)| s.mean_length)
            .fold(0.0, f64::max)
            .max(1.0);
        let mut chart = ChartBuilder::on(&root)
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
                rows[i as usize].0.clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_labels(rows.len() * 2 + 1)
            .x_label_formatter(&label_of)
            .x_desc("setting")
            .y_desc("% of games")
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
            .map_err(plot_err)?
            .label("50%: balanced")
            .legend(|(lx, ly)| PathElement::new([(lx, ly), (lx + 20, ly)], BLACK.mix(0.5)));
        chart
            .draw_series(rows.iter().enumerate().map(|(i, (_, s))| {
                ErrorBar::new_vertical(
                    x(i),
                    100.0 * s.first_player_ci95.0,
                    100.0 * s.first_player_win_rate,
                    100.0 * s.first_player_ci95.1,
                    BLUE.stroke_width(2),
                    12,
                )
            }))
            .map_err(plot_err)?;
        chart
            .draw_series(rows.iter().enumerate().map(|(i, (_, s))| {
                Circle::new((x(i), 100.0 * s.first_player_win_rate), 5, BLUE.filled())
            }))
            .map_err(plot_err)?
            .label("first player wins (95% interval)")
            .legend(|(lx, ly)| Circle::new((lx + 10, ly), 5, BLUE.filled()));
        chart
            .draw_series(rows.iter().enumerate().map(|(i, (_, s))| {
                let draws = 100.0 * s.draws as f64 / s.games.max(1) as f64;
                TriangleMarker::new((x(i), draws), 6, RED.filled())
            }))
            .map_err(plot_err)?
            .label("draws")
            .legend(|(lx, ly)| TriangleMarker::new((lx + 10, ly), 6, RED.filled()));
        chart
            .draw_secondary_series(LineSeries::new(
                rows.iter()
                    .enumerate()
                    .map(|(i, (_, s))| (x(i), s.mean_length)),
                GREEN.stroke_width(2),
            ))
            .map_err(plot_err)?
            .label("mean game length (right axis)")
            .legend(|(lx, ly)| PathElement::new([(lx, ly), (lx + 20, ly)], GREEN.stroke_width(2)));
        chart
            .draw_secondary_series(rows.iter().enumerate().map(|(i, (_, s))| {
                Cross::new((x(i), s.mean_length), 5, GREEN.stroke_width(2))
            }))
            .map_err(plot_err)?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .draw()
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}
