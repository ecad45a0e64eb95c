//! The fuzz targets: what each one's seeds are and how one input is run.
//!
//! The graph readers and the hierarchy reader run in this process, under `catch_unwind`, with
//! the counting allocator measuring their heap. The ids files (`--sources-file`,
//! `--targets-file`), trace CSVs (`sssp plot`) and argument vectors are the CLI's own inputs:
//! their parsers live in the `sssp` binary (the trace CSV is written and read by the CLI alone,
//! and the library has no business knowing it), so those targets run the built binary on each
//! input instead. That also checks what the user sees: the exit code and the message length.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sssp::graph::Graph;
use sssp::hierarchy::{Hierarchy, HierarchyParams};
use sssp::io::{read_graph, Format, LoadOptions};
use sssp::WeightSpec;

use crate::alloc;
use crate::child::{self, End, Feed};
use crate::mutate::{self, Rng};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Dimacs,
    Mtx,
    EdgeList,
    Metis,
    Binary,
    Gap,
    Hierarchy,
    Sources,
    Targets,
    Plot,
    Args,
    Stream,
}

pub const ALL: [Target; 12] = [
    Target::Dimacs,
    Target::Mtx,
    Target::EdgeList,
    Target::Metis,
    Target::Binary,
    Target::Gap,
    Target::Hierarchy,
    Target::Sources,
    Target::Targets,
    Target::Plot,
    Target::Args,
    Target::Stream,
];

/// The goal's limits for an input that describes a small graph.
pub const SLOW: Duration = Duration::from_secs(2);
pub const BIG: u64 = 1 << 30;
/// A child still running after this is killed and reported as a hang.
pub const HANG: Duration = Duration::from_secs(10);
/// An error message longer than this is unbounded text from the input (DIMACS and MTX cut
/// theirs to about 95 bytes; paths and the fixed text add some).
pub const LONG_MESSAGE: usize = 600;
/// The bound for the args target, whose mistakes print usage (bounded by the program).
pub const USAGE_MESSAGE: usize = 4096;

/// One seed or mutated input: its bytes and the file extension it is read under.
#[derive(Clone)]
pub struct Input {
    pub bytes: Vec<u8>,
    pub ext: String,
}

/// A problem found by one run: its class (`panic`, `memory`, `slow`, ...) and what was seen.
#[derive(Debug)]
pub struct Finding {
    pub class: &'static str,
    pub detail: String,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Dimacs => "dimacs",
            Target::Mtx => "mtx",
            Target::EdgeList => "edgelist",
            Target::Metis => "metis",
            Target::Binary => "binary",
            Target::Gap => "gap",
            Target::Hierarchy => "hierarchy",
            Target::Sources => "sources",
            Target::Targets => "targets",
            Target::Plot => "plot",
            Target::Args => "args",
            Target::Stream => "stream",
        }
    }

    pub fn parse(s: &str) -> Option<Target> {
        ALL.into_iter().find(|t| t.name() == s)
    }

    /// Whether inputs are run by the `sssp` binary (else in this process).
    pub fn needs_binary(self) -> bool {
        matches!(self, Target::Sources | Target::Targets | Target::Plot | Target::Args | Target::Stream)
    }
}

/// What a target needs between runs: its seeds, the work directory, and for the hierarchy the
/// graph the files belong to.
pub struct Bench {
    pub target: Target,
    pub seeds: Vec<Input>,
    pub work: PathBuf,
    sssp: Option<PathBuf>,
    graph: Option<Graph>,
    /// Flags and values from `sssp --help` (args target).
    dict: Vec<String>,
}

/// The tiny graph the CLI targets run on (a copy is rewritten before each argument run, which
/// may have overwritten it).
const TINY_GRAPH: &str = "p sp 4 5\na 1 2 3\na 2 3 4\na 1 3 9\na 3 4 1\na 4 1 2\n";

impl Bench {
    pub fn new(target: Target, corpus: &Path, work: PathBuf, sssp: Option<PathBuf>) -> Result<Bench, String> {
        std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
        let mut b = Bench { target, seeds: vec![], work, sssp, graph: None, dict: vec![] };
        b.seeds = match target {
            Target::Binary => binary_seeds(corpus, &b.work, &[Format::Binary])?,
            Target::Gap => binary_seeds(corpus, &b.work, &[Format::GapWeighted, Format::GapSerialized])?,
            Target::Hierarchy => {
                let g = read_graph(&corpus.join("hierarchy/graph.gr"), &LoadOptions::default())
                    .map_err(|e| e.to_string())?;
                let seeds = hierarchy_seeds(&g, &b.work)?;
                b.graph = Some(g);
                seeds
            }
            // Every text format's seeds, compressed ones included, read through pipes.
            Target::Stream => [Target::Dimacs, Target::Mtx, Target::EdgeList, Target::Metis]
                .iter()
                .map(|t| read_dir_seeds(&corpus.join(t.name())))
                .collect::<Result<Vec<_>, _>>()?
                .concat(),
            _ => read_dir_seeds(&corpus.join(target.name()))?,
        };
        if b.seeds.is_empty() {
            return Err(format!("no seeds for {}", target.name()));
        }
        if target.needs_binary() {
            let exe = b.sssp.as_ref().ok_or("this target runs the `sssp` binary: build it or give --sssp")?;
            if !exe.exists() {
                return Err(format!("{}: no such binary (cargo build --release -p sssp-cli)", exe.display()));
            }
            std::fs::write(b.work.join("graph.gr"), TINY_GRAPH).map_err(|e| e.to_string())?;
            if target == Target::Args {
                b.dict = help_dictionary(exe)?;
            }
        }
        Ok(b)
    }

    /// Mutate a seed into iteration `rng`'s input.
    pub fn mutate(&self, rng: &mut Rng) -> Input {
        let seed = rng.pick(&self.seeds);
        let mut input = seed.clone();
        let others: Vec<Vec<u8>> = self.seeds.iter().map(|s| s.bytes.clone()).collect();
        match self.target {
            Target::Args => {
                let mut a: Vec<String> = lines(&input.bytes);
                mutate::args(rng, &mut a, &self.dict);
                input.bytes = a.join("\n").into_bytes();
            }
            Target::Gap => mutate::binary(rng, &mut input.bytes, &others),
            Target::Binary | Target::Hierarchy => {
                mutate::binary(rng, &mut input.bytes, &others);
                if rng.one_in(2) {
                    match self.target {
                        Target::Binary => crate::checksum::fix_binary(&mut input.bytes),
                        _ => crate::checksum::fix_hierarchy(&mut input.bytes),
                    }
                }
            }
            _ => mutate::text(rng, &mut input.bytes, &others),
        }
        input
    }

    /// Run one input; the problems it showed, if any.
    pub fn run(&self, input: &Input, rng: &mut Rng) -> Result<Vec<Finding>, String> {
        if self.target.needs_binary() {
            return self.run_child(input);
        }
        let path = self.work.join(format!("input.{}", input.ext));
        std::fs::write(&path, &input.bytes).map_err(|e| e.to_string())?;
        let opts = load_options(rng);
        let base = alloc::current();
        alloc::reset();
        let start = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.read(&path, &opts)));
        let wall = start.elapsed();
        let (peak, refused) = alloc::peak_since(base);
        let mut found = vec![];
        match outcome {
            Err(p) => found.push(Finding { class: "panic", detail: panic_text(&p) }),
            Ok(Err(msg)) if msg.len() > LONG_MESSAGE => {
                found.push(Finding { class: "long-message", detail: format!("{} bytes: {}", msg.len(), cut(&msg)) })
            }
            Ok(_) => {}
        }
        if refused || peak as u64 > BIG {
            found.push(Finding { class: "memory", detail: format!("peak {peak} B, refused {refused}") });
        }
        if wall > SLOW {
            found.push(Finding { class: "slow", detail: format!("{wall:?}") });
        }
        Ok(found)
    }

    /// The in-process readers: the error text on refusal.
    fn read(&self, path: &Path, opts: &LoadOptions) -> Result<(), String> {
        match &self.graph {
            Some(g) => {
                let h = Hierarchy::read(g, path).map_err(|e| e.to_string())?;
                // An accepted file is used: the upward search indexes with what the file holds.
                for s in [0, g.num_vertices() as u32 - 1] {
                    std::hint::black_box(h.upward(s));
                }
                Ok(())
            }
            None => read_graph(path, opts).map(drop).map_err(|e| e.to_string()),
        }
    }

    fn run_child(&self, input: &Input) -> Result<Vec<Finding>, String> {
        if self.target == Target::Stream {
            return self.run_stream(input);
        }
        let file = format!("input.{}", input.ext);
        let (mut heavy_ok, mut slow_ok) = (false, false);
        let args: Vec<String> = match self.target {
            Target::Sources => args_of(&["run", "graph.gr", "-a", "dijkstra", "--sources-file", &file]),
            Target::Targets => {
                // Two sources and an output file, so the matrix is really written.
                args_of(&[
                    "run",
                    "graph.gr",
                    "-a",
                    "dijkstra",
                    "-s",
                    "0,1",
                    "--output-kind",
                    "matrix",
                    "-o",
                    "matrix.txt",
                    "--targets-file",
                    &file,
                ])
            }
            Target::Plot => args_of(&["plot", &file, "-o", "out.svg"]),
            _ => {
                std::fs::write(self.work.join("graph.gr"), TINY_GRAPH).map_err(|e| e.to_string())?;
                let a = lines(&input.bytes);
                // A generator's size is the request: `gen kron 30` may take what it needs.
                heavy_ok = a.iter().any(|x| x.contains("gen"));
                // A count (`bench -n 742` solves 742 sources with every strategy) is work asked
                // for: past 2 s is no finding, past the hang limit still is.
                slow_ok = a.iter().any(|x| x.parse::<u64>().is_ok_and(|k| k >= 100));
                a.iter().map(|x| x.replace("@G", "graph.gr").replace("@O", "out")).collect()
            }
        };
        if self.target != Target::Args {
            std::fs::write(self.work.join(&file), &input.bytes).map_err(|e| e.to_string())?;
        }
        let out = self.child(&args, Feed::File)?;
        let mut found = self.findings(&out, heavy_ok, slow_ok);
        if self.target == Target::Args && out.stderr_len as usize > LONG_MESSAGE {
            // Usage text is as long as the program's help, not the input: argument vectors get more.
            found.retain(|f| f.class != "long-message" || out.stderr_len as usize > USAGE_MESSAGE);
        }
        Ok(found)
    }

    /// The stream target: the input read as a file, then through a pipe on standard input (`-`)
    /// or through a named pipe, alternately: a stream must read as the file does (same exit
    /// code, same report), within the same limits.
    fn run_stream(&self, input: &Input) -> Result<Vec<Finding>, String> {
        // The program runs in the work directory and is given names there; the feeders run here.
        let name = format!("input.{}", input.ext);
        let file = self.work.join(&name);
        std::fs::write(&file, &input.bytes).map_err(|e| e.to_string())?;
        // The format by the seed's name (`tiny.gr.gz` is DIMACS): a stream has no name to tell it.
        let format = match input.ext.split('.').next() {
            Some("txt") => "snap",
            Some("graph") => "metis",
            Some(ext) => ext,
            None => "el",
        };
        let args = |path: &str| args_of(&["info", path, "--format", format, "--json"]);
        let as_file = self.child(&args(&name), Feed::File)?;
        let fifo = self.work.join("input.fifo");
        // Which stream, from the input itself, so that a replay takes the same one.
        let (name, feed) = match input.bytes.len() % 2 {
            1 => ("-".to_string(), Feed::Stdin(&file)),
            _ => ("input.fifo".to_string(), Feed::Fifo(&file, &fifo)),
        };
        let streamed = self.child(&args(&name), feed)?;
        let mut found = self.findings(&streamed, false, false);
        let code = |o: &child::Outcome| match o.end {
            End::Code(c) => Some(c),
            _ => None,
        };
        if (code(&as_file), &as_file.stdout) != (code(&streamed), &streamed.stdout) {
            found.push(Finding {
                class: "stream-differs",
                detail: format!(
                    "{name}: file {:?} {:?} | stream {:?} {:?} {}",
                    as_file.end,
                    cut(&as_file.stdout),
                    streamed.end,
                    cut(&streamed.stdout),
                    cut(&streamed.stderr)
                ),
            });
        }
        Ok(found)
    }

    fn child(&self, args: &[String], feed: Feed) -> Result<child::Outcome, String> {
        let exe = self.sssp.as_ref().expect("checked in new");
        child::run(exe, args, &self.work, HANG, feed).map_err(|e| e.to_string())
    }

    /// What one run of the binary showed: a bad exit or signal, a hang, a long message, too
    /// much memory or time (unless the input asked for the work: `heavy_ok`, `slow_ok`).
    fn findings(&self, out: &child::Outcome, heavy_ok: bool, slow_ok: bool) -> Vec<Finding> {
        let mut found = vec![];
        match out.end {
            End::Code(0..=6) => {}
            End::Code(c) => found.push(Finding { class: "exit", detail: format!("exit {c}: {}", cut(&out.stderr)) }),
            End::Signal(s) => {
                found.push(Finding { class: "signal", detail: format!("signal {s}: {}", cut(&out.stderr)) })
            }
            End::TimedOut if heavy_ok => {}
            End::TimedOut => found.push(Finding { class: "hang", detail: cut(&out.stderr) }),
        }
        if out.stderr_len as usize > LONG_MESSAGE {
            found.push(Finding {
                class: "long-message",
                detail: format!("{} bytes: {}", out.stderr_len, cut(&out.stderr)),
            });
        }
        if !heavy_ok && out.max_rss > BIG {
            found.push(Finding { class: "memory", detail: format!("max rss {} B", out.max_rss) });
        }
        if !heavy_ok && !slow_ok && out.wall > SLOW && !matches!(out.end, End::TimedOut) {
            found.push(Finding { class: "slow", detail: format!("{:?}", out.wall) });
        }
        found
    }
}

/// Load options vary too: `with_options` rebuilds a binary graph, and the weight rules differ.
fn load_options(rng: &mut Rng) -> LoadOptions {
    let weights = match rng.below(4) {
        0 => WeightSpec::Unit,
        1 => WeightSpec::Random { lo: 1, hi: 1 + rng.below(100) as u32, seed: 7 },
        _ => WeightSpec::AsGiven,
    };
    let real = match rng.below(4) {
        0 => sssp::io::RealPolicy::Round,
        1 => sssp::io::RealPolicy::Scale(1000.0),
        _ => sssp::io::RealPolicy::Native,
    };
    LoadOptions { weights, symmetrize: rng.one_in(4), real, ..LoadOptions::default() }
}

fn args_of(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

fn lines(b: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(b).lines().map(str::to_string).filter(|l| !l.is_empty()).collect()
}

/// The first 300 characters of a message, on one line.
pub fn cut(s: &str) -> String {
    s.chars().take(300).collect::<String>().replace('\n', " | ")
}

pub fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default()
}

/// Every file in `dir`, with the extension after its first dot (`road.gr.gz` reads as `gr.gz`).
fn read_dir_seeds(dir: &Path) -> Result<Vec<Input>, String> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let ext = name.split_once('.').map_or("txt".to_string(), |(_, e)| e.to_string());
            Ok(Input { bytes: std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?, ext })
        })
        .collect()
}

/// Binary seeds (ours, or GAP's `.wsg` and `.sg`) are written from the text corpora, so they
/// stay in step with the writers: unsigned, signed and real weights, as many shapes as the text
/// seeds have (a graph a format cannot hold, real weights in `.wsg`, is skipped there).
fn binary_seeds(corpus: &Path, work: &Path, formats: &[Format]) -> Result<Vec<Input>, String> {
    let mut out = vec![];
    for t in [Target::Dimacs, Target::Mtx, Target::EdgeList, Target::Metis] {
        for s in read_dir_seeds(&corpus.join(t.name()))? {
            let text = work.join(format!("seed.{}", s.ext));
            std::fs::write(&text, &s.bytes).map_err(|e| e.to_string())?;
            let Ok(g) = read_graph(&text, &LoadOptions::default()) else { continue };
            for &format in formats {
                let path = work.join(format!("seed.{}", format.name()));
                if sssp::io::write_text(&g, &path, format).is_err() {
                    continue;
                }
                let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
                out.push(Input { bytes, ext: format.name().into() });
            }
        }
    }
    Ok(out)
}

/// Hierarchies of the corpus graph, with and without a core distance table.
fn hierarchy_seeds(g: &Graph, work: &Path) -> Result<Vec<Input>, String> {
    let path = work.join("seed.ch");
    let mut out: Vec<Input> = vec![];
    for params in [
        HierarchyParams::default(),
        HierarchyParams { core_degree: 0, core_table: 64 },
        HierarchyParams { core_degree: 2, core_table: 0 },
    ] {
        let h = Hierarchy::build_with(g, params).map_err(|e| e.to_string())?;
        h.write(g, &path).map_err(|e| e.to_string())?;
        let bytes = std::fs::read(&path).map_err(|e| e.to_string())?;
        if !out.iter().any(|s| s.bytes == bytes) {
            out.push(Input { bytes, ext: "ch".into() });
        }
    }
    Ok(out)
}

/// Every `--flag` of every subcommand's help, the subcommand names, `possible values`, and a
/// few values: the words a mutated argument vector is built from.
fn help_dictionary(exe: &Path) -> Result<Vec<String>, String> {
    let help = |args: &[&str]| -> Result<String, String> {
        let out = std::process::Command::new(exe).args(args).output().map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let subs = ["run", "bench", "path", "diameter", "info", "convert", "plot"];
    let mut words: Vec<String> = subs.iter().map(|s| s.to_string()).collect();
    for s in subs {
        let text = help(&[s, "--help"])?;
        for w in text.split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']' || c == '=') {
            let w = w.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == ':'));
            if w.len() > 2 && w.starts_with("--") {
                words.push(w.to_string());
            }
        }
        for l in text.lines() {
            if let Some((_, vals)) = l.split_once("possible values: ") {
                words.extend(vals.trim_end_matches(']').split(", ").map(str::to_string));
            }
        }
    }
    words.extend(
        ["@G", "@O", "@O.gr", "@O.bin", "@O.csv", "@O.svg", "-", "gen:grid2d:3x3", "0", "1", "3"].map(String::from),
    );
    words.sort();
    words.dedup();
    Ok(words)
}
