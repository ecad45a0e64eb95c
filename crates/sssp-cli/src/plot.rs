//! `sssp plot`: per-iteration traces (written by `sssp run --trace`) drawn as one SVG, one panel
//! per trace stacked vertically, like Figure 4 of Davidson et al. 2014: the frontier (input
//! vertices), the far pile and the vertices waiting in later buckets at every iteration.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
// Input is quoted as the graph readers quote it: a 10 MB field gives a short message.
use sssp::io::excerpt;
use sssp::{Error, Result};

#[derive(Args)]
pub struct PlotArgs {
    /// Trace CSVs from `sssp run --trace` (header `iter,frontier,arcs,micros[,bucket,far,slots]`),
    /// one panel each, top to bottom in this order.
    #[arg(required = true, value_name = "TRACE.csv")]
    traces: Vec<PathBuf>,
    /// The SVG file to write (`-`: standard output).
    #[arg(long, short = 'o', value_name = "OUT.svg")]
    output: PathBuf,
    /// A title above all panels.
    #[arg(long)]
    title: Option<String>,
    /// A panel title, given once per trace in the same order (default: each file's stem).
    #[arg(long)]
    label: Vec<String>,
    /// Logarithmic y axis (zeros are drawn as 1).
    #[arg(long)]
    log: bool,
    /// Give each panel its own y range. By default every panel shares the x range and the y
    /// range, so that strategies compare by eye; a small trace beside a large one then looks
    /// flat, which this shows instead.
    #[arg(long)]
    own_y: bool,
}

/// One trace file: the x values and the series it has.
struct Trace {
    iter: Vec<u64>,
    frontier: Vec<u64>,
    /// Absent in traces written before the far pile was recorded.
    far: Option<Vec<u64>>,
    slots: Option<Vec<u64>>,
}

const REQUIRED: [&str; 4] = ["iter", "frontier", "arcs", "micros"];
const OPTIONAL: [&str; 3] = ["bucket", "far", "slots"];
const PANEL_HEIGHT: u32 = 280;
/// The largest trace read (64 MiB): about a million iterations, more than a plot can show.
/// Anything longer (`/dev/zero`) is refused at this size instead of filling memory.
const TRACE_LIMIT: u64 = 64 << 20;
const TITLE_HEIGHT: u32 = 40;
const WIDTH: u32 = 960;

pub fn plot(a: PlotArgs) -> Result<()> {
    if !a.label.is_empty() && a.label.len() != a.traces.len() {
        return Err(Error::InvalidArgument(format!(
            "--label was given {} times for {} traces; give it once per trace or not at all",
            a.label.len(),
            a.traces.len()
        )));
    }
    let inputs: Vec<(&str, &Path)> = a.traces.iter().map(|p| ("a trace to draw", p.as_path())).collect();
    crate::out::check_distinct(&[("-o", &a.output)], &inputs)?;
    let traces = a.traces.iter().map(|p| read_trace(p)).collect::<Result<Vec<_>>>()?;
    let titles: Vec<String> = if a.label.is_empty() {
        a.traces.iter().map(|p| p.file_stem().unwrap_or(p.as_os_str()).to_string_lossy().into_owned()).collect()
    } else {
        a.label.clone()
    };
    let svg = render(&traces, &titles, a.title.as_deref(), a.log, a.own_y)
        .map_err(|msg| Error::io(&a.output, std::io::Error::other(format!("drawing the plot: {msg}"))))?;
    let mut w = crate::common::create_output(&a.output)?;
    w.write_all(svg.as_bytes()).and_then(|()| w.flush()).map_err(|e| Error::io(&a.output, e))?;
    let n = traces.len();
    eprintln!("wrote {} ({n} panel{})", crate::out::name(&a.output), if n == 1 { "" } else { "s" });
    Ok(())
}

fn read_trace(path: &Path) -> Result<Trace> {
    let text = crate::sources::read_bounded(path, TRACE_LIMIT)?;
    let text = String::from_utf8(text).map_err(|e| {
        Error::parse(path, 0, format!("not UTF-8 text (byte {}): not a trace", e.utf8_error().valid_up_to()))
    })?;
    let mut lines = text.lines().zip(1u64..).map(|(l, n)| (n, l.trim_end_matches('\r')));
    let header_help = "expected the header iter,frontier,arcs,micros[,bucket,far,slots] (from `sssp run --trace`)";
    let header: Vec<&str> = match lines.next() {
        Some((_, l)) if !l.trim().is_empty() => l.split(',').map(str::trim).collect(),
        _ => return Err(Error::parse(path, 1, format!("empty trace: {header_help}"))),
    };
    // Column index of each known name; unknown columns are tolerated (and ignored).
    let col = |name: &str| header.iter().position(|h| *h == name);
    for name in REQUIRED {
        if col(name).is_none() {
            return Err(Error::parse(path, 1, format!("no `{name}` column: {header_help}")));
        }
    }
    for (i, h) in header.iter().enumerate() {
        if (REQUIRED.contains(h) || OPTIONAL.contains(h)) && header[..i].contains(h) {
            return Err(Error::parse(path, 1, format!("column `{}` appears twice", excerpt(h.as_bytes()))));
        }
    }
    let (c_iter, c_frontier) = (col("iter").unwrap_or(0), col("frontier").unwrap_or(0));
    let (c_far, c_slots) = (col("far"), col("slots"));
    let mut t = Trace { iter: vec![], frontier: vec![], far: c_far.map(|_| vec![]), slots: c_slots.map(|_| vec![]) };
    for (n, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != header.len() {
            return Err(Error::parse(
                path,
                n,
                format!(
                    "expected {} comma-separated fields ({}), found {}",
                    header.len(),
                    excerpt(header.join(",").as_bytes()),
                    fields.len()
                ),
            ));
        }
        // Check every known column, so that a damaged file is reported, not half drawn.
        for (i, (h, f)) in header.iter().zip(&fields).enumerate() {
            if *h == "micros" {
                if !f.parse::<f64>().is_ok_and(|x| x.is_finite() && x >= 0.0) {
                    return Err(Error::parse(
                        path,
                        n,
                        format!("column `micros`: expected a non-negative number, found `{}`", excerpt(f.as_bytes())),
                    ));
                }
            } else if (REQUIRED.contains(h) || OPTIONAL.contains(h)) && f.parse::<u64>().is_err() {
                return Err(Error::parse(
                    path,
                    n,
                    format!(
                        "column `{h}` (field {}): expected a non-negative integer, found `{}`",
                        i + 1,
                        excerpt(f.as_bytes())
                    ),
                ));
            }
        }
        let num = |c: usize| fields[c].parse::<u64>().unwrap_or(0);
        t.iter.push(num(c_iter));
        t.frontier.push(num(c_frontier));
        if let (Some(v), Some(c)) = (t.far.as_mut(), c_far) {
            v.push(num(c));
        }
        if let (Some(v), Some(c)) = (t.slots.as_mut(), c_slots) {
            v.push(num(c));
        }
    }
    Ok(t)
}

/// The series of one trace worth drawing: (legend, colour, values). The far pile and the
/// later buckets are left out when absent or zero throughout (e.g. Workfront Sweep).
fn series(t: &Trace) -> Vec<(&'static str, RGBColor, &[u64])> {
    let mut s = vec![("frontier (input vertices)", RGBColor(31, 90, 180), t.frontier.as_slice())];
    if let Some(v) = nonzero(&t.far) {
        s.push(("far pile", RGBColor(200, 40, 40), v));
    }
    if let Some(v) = nonzero(&t.slots) {
        s.push(("waiting in later buckets", RGBColor(30, 140, 60), v));
    }
    s
}

fn nonzero(v: &Option<Vec<u64>>) -> Option<&[u64]> {
    v.as_deref().filter(|v| v.iter().any(|&x| x > 0))
}

/// The largest y value among `traces`' series (at least 1, for an empty axis).
fn y_max<'a>(traces: impl IntoIterator<Item = &'a Trace>) -> f64 {
    let ymax = traces.into_iter().flat_map(series).flat_map(|(_, _, v)| v.iter().copied()).max().unwrap_or(0);
    (ymax as f64).max(1.0)
}

/// The whole figure as SVG text. Panels share the x range and, unless `own_y`, the y range, so
/// strategies can be compared by eye.
fn render(
    traces: &[Trace],
    titles: &[String],
    title: Option<&str>,
    log: bool,
    own_y: bool,
) -> std::result::Result<String, String> {
    let n = traces.len() as u32;
    let height = PANEL_HEIGHT.saturating_mul(n).saturating_add(if title.is_some() { TITLE_HEIGHT } else { 0 });
    let xmax = traces.iter().flat_map(|t| t.iter.iter().copied()).max().unwrap_or(0).max(1);
    let shared = y_max(traces);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let body = match title {
            Some(t) => root.titled(t, ("sans-serif", 24)).map_err(|e| e.to_string())?,
            None => root.clone(),
        };
        let panels = body.split_evenly((traces.len(), 1));
        for (i, ((area, t), name)) in panels.iter().zip(traces).zip(titles).enumerate() {
            let last = i + 1 == traces.len();
            let ymax = if own_y { y_max([t]) } else { shared };
            if log {
                panel(area, t, name, xmax, (1.0..ymax * 2.0).log_scale(), true, last)?;
            } else {
                panel(area, t, name, xmax, 0.0..ymax * 1.05, false, last)?;
            }
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

fn panel<Y>(
    area: &DrawingArea<SVGBackend, Shift>,
    t: &Trace,
    name: &str,
    xmax: u64,
    y: Y,
    log: bool,
    last: bool,
) -> std::result::Result<(), String>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .caption(name, ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0u64..xmax, y)
        .map_err(err)?;
    let mut mesh = chart.configure_mesh();
    mesh.y_desc(if log { "vertices (log)" } else { "vertices" }).y_label_formatter(&count);
    if last {
        mesh.x_desc("iteration");
    }
    mesh.draw().map_err(err)?;
    let clamp = |v: u64| if log { (v as f64).max(1.0) } else { v as f64 };
    for (label, color, values) in series(t) {
        let points = t.iter.iter().zip(values).map(|(&x, &v)| (x, clamp(v)));
        chart
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}

/// A y tick as a vertex count: `950`, `12k`, `1.5M`.
fn count(v: &f64) -> String {
    let v = v.round();
    let (div, suffix) = match v.abs() {
        a if a >= 1e9 => (1e9, "G"),
        a if a >= 1e6 => (1e6, "M"),
        a if a >= 1e4 => (1e3, "k"),
        _ => (1.0, ""),
    };
    let s = format!("{:.1}", v / div);
    format!("{}{suffix}", s.strip_suffix(".0").unwrap_or(&s))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every message that quotes the trace quotes a bounded piece of it, so a
    /// 10 MB field or header gives a short message.
    #[test]
    fn long_fields_give_short_messages() {
        let dir = std::env::temp_dir().join(format!("sssp-plot-long-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("t.csv");
        let long = "9".repeat(10 << 20);
        let cases = [
            format!("iter,frontier,arcs,micros\n1,{long}x,3,1.0\n"),
            format!("iter,frontier,arcs,micros\n1,1,3,-{long}\n"),
            format!("iter,frontier,arcs,micros,{long},{long}\n1,1,3,1.0\n"),
            format!("iter,frontier,arcs,micros,x{long}\n1,1,3,1.0\n"),
            "iter,frontier,arcs,micros,far,far\n1,1,3,1.0,0,0\n".to_string(),
        ];
        for text in cases {
            std::fs::write(&p, &text).unwrap();
            let msg = match read_trace(&p) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("accepted: {}", &text[..60]),
            };
            assert!(msg.len() < 300, "{} bytes: {}", msg.len(), &msg[..300]);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
