//! `sssp run GRAPH --devices P`: distributed delta-stepping on P ranks (`sssp::distributed`),
//! on NCCL ranks (one per GPU) or on simulated ranks (threads) on the CPU. The summary line
//! has the run's rounds, buckets and the volume the ranks exchanged; `-o` and `--verify` work
//! as for one device.

use sssp::distributed::{DistOptions, DistSolution, Group, Params, Ranks, StepOn};
use sssp::engine::DeviceKind;
use sssp::graph::Graph;
use sssp::strategy::Algo;
use sssp::{Error, Result, UNREACHED};

use crate::common;
use crate::out::Channel;

/// The flags of `run` that a distributed run does not read (each refused by name), given
/// `a`'s values.
fn unread(a: &crate::RunArgs) -> Vec<&'static str> {
    let kind = a.output_kind.as_deref().unwrap_or("distances");
    [
        ("--multi-source", a.multi_source),
        ("--batch", a.batch != 1),
        ("--trace", a.trace.is_some()),
        ("--targets/--targets-file", !a.targets.is_empty() || a.targets_file.is_some()),
        ("--output-kind nearest/matrix/dag", !matches!(kind, "distances" | "tree")),
        ("--workers", a.solve.workers.is_some()),
        ("--hierarchy", a.solve.hierarchy.hierarchy.is_some()),
        // The ranks split the graph by ranges of its own ids, and their results are gathered
        // in that order: a relabelled run would need its maps threaded through both.
        ("--order", a.order.order != sssp::graph::order::Order::Input),
    ]
    .into_iter()
    .filter(|&(_, given)| given)
    .map(|(flag, _)| flag)
    .collect()
}

/// Refuse what a distributed run would ignore: any algorithm but delta-stepping (or auto,
/// which then means it), the strategy flags delta-stepping does not read, the rest of
/// [`unread`].
fn check_args(a: &crate::RunArgs) -> Result<()> {
    let algo = a.solve.algo()?;
    if !matches!(algo, Algo::Auto | Algo::DeltaStepping) {
        return Err(Error::InvalidArgument(format!(
            "--devices runs distributed delta-stepping; `--algo {}` runs on one device (leave --algo out, or give delta-stepping)",
            algo.name()
        )));
    }
    without_hubs(a).check_flags(Algo::DeltaStepping)?;
    if let Some(flag) = unread(a).first() {
        return Err(Error::InvalidArgument(format!(
            "{flag} does not apply with --devices (distributed runs take --delta, --cutoff, --hub-degree, the sources, --verify, -o with distances or tree, --json)"
        )));
    }
    Ok(())
}

/// Where the ranks run, set up once for every source: `--device cpu` simulated ranks; `gpu`
/// NCCL ranks (an error without the `nccl` feature or a usable NCCL, from the library);
/// `auto` NCCL ranks when this build has NCCL and the host can start them, else simulated
/// ranks, saying why.
fn group_on(device: DeviceKind, p: usize) -> Result<Group> {
    match device {
        DeviceKind::Cpu => Group::new(Ranks::Simulated(p)),
        DeviceKind::Gpu => Group::new(Ranks::Nccl(p)),
        DeviceKind::Auto if cfg!(feature = "nccl") => match Group::new(Ranks::Nccl(p)) {
            Err(Error::NoGpu(why)) => {
                eprintln!("no usable NCCL ranks ({why}); running {p} simulated ranks on the CPU");
                Group::new(Ranks::Simulated(p))
            }
            other => other,
        },
        DeviceKind::Auto => Group::new(Ranks::Simulated(p)),
    }
}

/// `a`'s solve flags without `--hub-degree`, which a distributed run reads as the ranks' own
/// threshold (`DistOptions::hub_arcs`), not as the one-device strategies' (delta-stepping
/// takes none).
fn without_hubs(a: &crate::RunArgs) -> common::SolveArgs {
    common::SolveArgs { hub_degree: None, ..a.solve.clone() }
}

/// `sssp run --devices P`.
pub fn run(a: &crate::RunArgs, p: u32) -> Result<()> {
    check_args(a)?;
    let device = DeviceKind::parse(&a.solve.device)?;
    let kind = a.output_kind.as_deref().unwrap_or("distances");
    let stats_to = Channel::for_stats(a.output.iter());
    let g = a.graph.load_nonempty()?;
    let opts = sssp::strategy::Options {
        certify: common::certify_mode(a.verify, a.host_certificate),
        ..without_hubs(a).options_for(&g, Algo::DeltaStepping, false)?
    };
    let step = match a.rank_step.as_str() {
        "host" => StepOn::Host,
        "device" => StepOn::Device,
        _ => StepOn::Auto,
    };
    let dist_opts = DistOptions {
        delta: opts.delta,
        cutoff: opts.cutoff,
        step,
        hub_arcs: a.solve.hub_degree,
        ..DistOptions::default()
    };
    let sources = a.solve.sources(&g)?;
    // The arguments are checked before the ranks start: NCCL's set-up takes seconds.
    Params::new(&g, sources[0], &dist_opts)?;
    let mut group = group_on(device, p as usize)?;
    for (i, &src) in sources.iter().enumerate() {
        let run = group.solve(&g, src, &dist_opts)?;
        let first = i == 0;
        let verified = if a.verify {
            let reference = first && common::reference_wanted(&g, a.reference);
            Some(common::verify(&g, src, &run.solution, reference, &opts)?)
        } else {
            None
        };
        report(&g, src, &run, &group, verified.as_deref(), a.json, stats_to);
        if let (true, Some(path)) = (first, &a.output) {
            common::write_result(&g, &[src], &run.solution, path, kind)?;
        }
    }
    Ok(())
}

/// One line (or JSON object) per source: the summary of other runs, plus rounds, buckets and
/// the exchanged volume.
fn report(g: &Graph, src: u32, run: &DistSolution, group: &Group, verified: Option<&str>, json: bool, to: Channel) {
    let (sol, s) = (&run.solution, &run.stats);
    let setup = group.setup_time().as_secs_f64();
    let reached = sol.dist.iter().filter(|&&d| d != UNREACHED).count();
    let secs = sol.stats.compute.as_secs_f64();
    let teps = if secs > 0.0 { g.num_arcs() as f64 / secs } else { 0.0 };
    let ranks = group.ranks();
    let step = if s.on_device { "device" } else { "host" };
    if json {
        let per_rank: Vec<_> = s
            .per_rank
            .iter()
            .map(|r| {
                serde_json::json!({
                    "vertices": r.vertices, "arcs": r.arcs, "expanded": r.expanded, "arcs_relaxed": r.arcs_relaxed,
                    "items_sent": r.items_sent, "items_received": r.items_received, "bytes_sent": r.bytes_sent,
                    "relax_seconds": r.relax.as_secs_f64(), "exchange_seconds": r.exchange.as_secs_f64(),
                    "reduce_seconds": r.reduce.as_secs_f64(), "load_seconds": r.load.as_secs_f64(),
                    "solve_seconds": r.solve.as_secs_f64(), "gather_seconds": r.gather.as_secs_f64(),
                })
            })
            .collect();
        let v = serde_json::json!({
            "algo": "distributed-delta-stepping", "ranks": s.ranks, "transport": s.transport, "step": step, "source": src,
            "reached": reached, "seconds": secs, "gteps": teps / 1e9, "rounds": s.rounds, "buckets": s.buckets,
            "delta": common::dist_json(g.metric(), s.delta as sssp::Dist), "arcs_relaxed": sol.stats.arcs_relaxed,
            "items_sent": s.items_sent(), "bytes_sent": s.bytes_sent(),
            "exchange_seconds_max": s.exchange_max().as_secs_f64(), "setup_seconds": setup,
            "load_seconds": s.load_time().as_secs_f64(),
            "per_rank": per_rank, "verified": verified,
        });
        to.line(format_args!("{v}"));
        return;
    }
    to.line(format_args!(
        "distributed delta-stepping on {ranks}, local steps on the {step}: source {src}, reached {reached}, {:.3} ms ({}), {} rounds, {} buckets, delta {}, {} arcs relaxed, exchanged {} items ({} bytes; {:.3} ms in exchanges on the slowest rank; the ranks set up once in {:.1} ms{}){}",
        secs * 1e3,
        common::teps(teps),
        s.rounds,
        s.buckets,
        common::fmt_dist(g.metric(), s.delta as sssp::Dist),
        sol.stats.arcs_relaxed,
        s.items_sent(),
        s.bytes_sent(),
        s.exchange_max().as_secs_f64() * 1e3,
        setup * 1e3,
        if s.load_time().is_zero() {
            String::new()
        } else {
            format!(", the graph split and loaded on them in {:.1} ms", s.load_time().as_secs_f64() * 1e3)
        },
        verified.map(|v| format!(", verified ({v})")).unwrap_or_default()
    ));
}
