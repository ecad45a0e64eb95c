//! Typed strategy choice: [`Strategy`], one variant per algorithm holding that algorithm's own
//! parameters type (defined in its module: [`workfront::Workfront`], [`near_far::NearFar`],
//! [`bucketing::Bucketing`], ...), so a parameter a strategy would ignore cannot be given to it.
//!
//! The engine-level entry points ([`super::solve`], [`super::solve_each`]) take the flat
//! [`Options`]: one carrier for every strategy's knobs plus the query (cutoff, target, tree,
//! certificate, trace). [`Strategy::options`] lays a strategy's parameters onto a query's
//! options; each parameters type writes only the fields its strategy reads (its `apply`), so
//! which strategy reads what is said once, in that strategy's file. The CLI builds a
//! `Strategy` from its flags and refuses a flag whose [`Param`] the strategy does not take
//! ([`Strategy::params`]); the [`crate::Solver`] takes one through `with_strategy`.

use super::{
    asynchronous, bucketing, crauser, delta_stepping, near_far, resident, topo_bf, workfront, Algo, Classify, Options,
};
use crate::engine::{Balance, Dedupe};

/// An algorithm with its parameters: what [`crate::Solver::with_strategy`] and the CLI's flags
/// choose. `Strategy::from(algo)` gives the algorithm's defaults.
///
/// ```
/// use sssp::strategy::{bucketing::Bucketing, Algo, Strategy};
/// let s = Strategy::Bucketing(Bucketing { delta: Some(400u32.into()), buckets: 4, ..Bucketing::default() });
/// assert_eq!(s.algo(), Algo::Bucketing);
/// let opts = s.options(&Default::default());
/// assert_eq!((opts.delta, opts.buckets), (Some(400u32.into()), 4));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    /// Pick the algorithm and its parameters from the device and the graph
    /// ([`super::auto::choose`]); it takes none.
    #[default]
    Auto,
    /// Serial binary-heap Dijkstra (CPU).
    Dijkstra,
    /// Serial queue-based Bellman-Ford with negative-cycle detection (CPU).
    BellmanFord,
    /// Delta-stepping on the host's threads ([`delta_stepping`]).
    DeltaStepping(delta_stepping::DeltaStepping),
    /// Topology-driven Bellman-Ford on an engine ([`topo_bf`]).
    TopoBf(topo_bf::TopoBf),
    /// Workfront Sweep on an engine ([`workfront`]).
    Workfront(workfront::Workfront),
    /// Near-Far Pile on an engine ([`near_far`]).
    NearFar(near_far::NearFar),
    /// Bucketing on an engine ([`bucketing`]).
    Bucketing(bucketing::Bucketing),
    /// Parallel Dijkstra with Crauser et al.'s criteria ([`crauser`]).
    Crauser(crauser::Crauser),
    /// Crauser's economic variant ([`crauser`]).
    CrauserEconomic(crauser::Settle),
    /// Martín et al.'s parallel Dijkstra ([`crauser`]).
    Martin(crauser::Settle),
    /// PHAST on the graph's contraction hierarchy ([`super::phast`]); no parameters.
    Phast,
    /// Asynchronous delta-stepping on an engine ([`asynchronous`]).
    Async(asynchronous::Async),
    /// Resident pieces on an engine ([`resident`]).
    Resident(resident::Resident),
}

/// A strategy parameter, by the name of its CLI flag (`--delta`, `--buckets`, ...): what
/// [`Strategy::params`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Param {
    /// Bucket width.
    Delta,
    /// Buckets per window (Bucketing).
    Buckets,
    /// The Workfront <-> Near-Far hybrid's switch point.
    WideAt,
    /// Load balance of the advance.
    Balance,
    /// Hub threshold of the advance.
    HubDegree,
    /// Frontier dedupe.
    Dedupe,
    /// Edge classes.
    Classify,
    /// Crauser's settle criterion.
    Criterion,
    /// Push or pull settling.
    Variant,
    /// Frontier read-back interval of a host-driven loop.
    CheckEvery,
    /// Which loop drives a frontier strategy ([`Driver`]).
    Driver,
    /// Workers (async) or threads (delta-stepping).
    Workers,
    /// Log2 of the vertices per piece (resident).
    PieceBits,
}

impl Param {
    /// Every parameter.
    pub const ALL: [Param; 13] = [
        Param::Delta,
        Param::Buckets,
        Param::WideAt,
        Param::Balance,
        Param::HubDegree,
        Param::Dedupe,
        Param::Classify,
        Param::Criterion,
        Param::Variant,
        Param::CheckEvery,
        Param::Driver,
        Param::Workers,
        Param::PieceBits,
    ];
}

impl From<Algo> for Strategy {
    /// `algo` with its default parameters.
    fn from(algo: Algo) -> Self {
        match algo {
            Algo::Auto => Strategy::Auto,
            Algo::Dijkstra => Strategy::Dijkstra,
            Algo::BellmanFord => Strategy::BellmanFord,
            Algo::DeltaStepping => Strategy::DeltaStepping(Default::default()),
            Algo::TopoBf => Strategy::TopoBf(Default::default()),
            Algo::Workfront => Strategy::Workfront(Default::default()),
            Algo::NearFar => Strategy::NearFar(Default::default()),
            Algo::Bucketing => Strategy::Bucketing(Default::default()),
            Algo::Crauser => Strategy::Crauser(Default::default()),
            Algo::CrauserEconomic => Strategy::CrauserEconomic(Default::default()),
            Algo::Martin => Strategy::Martin(Default::default()),
            Algo::Phast => Strategy::Phast,
            Algo::Async => Strategy::Async(Default::default()),
            Algo::Resident => Strategy::Resident(Default::default()),
        }
    }
}

impl Strategy {
    /// The algorithm.
    pub fn algo(&self) -> Algo {
        match self {
            Strategy::Auto => Algo::Auto,
            Strategy::Dijkstra => Algo::Dijkstra,
            Strategy::BellmanFord => Algo::BellmanFord,
            Strategy::DeltaStepping(_) => Algo::DeltaStepping,
            Strategy::TopoBf(_) => Algo::TopoBf,
            Strategy::Workfront(_) => Algo::Workfront,
            Strategy::NearFar(_) => Algo::NearFar,
            Strategy::Bucketing(_) => Algo::Bucketing,
            Strategy::Crauser(_) => Algo::Crauser,
            Strategy::CrauserEconomic(_) => Algo::CrauserEconomic,
            Strategy::Martin(_) => Algo::Martin,
            Strategy::Phast => Algo::Phast,
            Strategy::Async(_) => Algo::Async,
            Strategy::Resident(_) => Algo::Resident,
        }
    }

    /// `query`'s options with this strategy's parameters laid on (the query's cutoff, target,
    /// tree, certificate and trace are kept; the fields this strategy does not read keep
    /// `query`'s values, which it ignores).
    pub fn options(&self, query: &Options) -> Options {
        let mut o = *query;
        match self {
            Strategy::Auto | Strategy::Dijkstra | Strategy::BellmanFord | Strategy::Phast => {}
            Strategy::DeltaStepping(p) => p.apply(&mut o),
            Strategy::TopoBf(p) => p.apply(&mut o),
            Strategy::Workfront(p) => p.apply(&mut o),
            Strategy::NearFar(p) => p.apply(&mut o),
            Strategy::Bucketing(p) => p.apply(&mut o),
            Strategy::Crauser(p) => p.apply(&mut o),
            Strategy::CrauserEconomic(p) | Strategy::Martin(p) => p.apply(&mut o),
            Strategy::Async(p) => p.apply(&mut o),
            Strategy::Resident(p) => p.apply(&mut o),
        }
        o
    }

    /// The parameters this strategy takes (`auto` takes none: it picks them itself).
    pub fn params(&self) -> &'static [Param] {
        use Param::*;
        match self {
            Strategy::Auto | Strategy::Dijkstra | Strategy::BellmanFord | Strategy::Phast => &[],
            Strategy::DeltaStepping(_) | Strategy::Async(_) => &[Delta, Workers],
            Strategy::Resident(_) => &[Delta, PieceBits],
            Strategy::TopoBf(_) => &[Balance, HubDegree, Classify],
            Strategy::Workfront(_) => &[Balance, HubDegree, Dedupe, Classify, Driver, CheckEvery],
            Strategy::NearFar(_) => &[Balance, HubDegree, Dedupe, Classify, Driver, Delta, WideAt],
            Strategy::Bucketing(_) => &[Balance, HubDegree, Dedupe, Classify, Driver, Delta, WideAt, Buckets],
            Strategy::Crauser(_) => &[Balance, Classify, Variant, Criterion],
            Strategy::CrauserEconomic(_) | Strategy::Martin(_) => &[Balance, Classify, Variant],
        }
    }

    /// Whether this strategy takes `p`.
    pub fn takes(&self, p: Param) -> bool {
        self.params().contains(&p)
    }

    /// The frontier parameters of a frontier strategy (Workfront, Near-Far, Bucketing), to set
    /// them whichever of the three it is.
    pub fn frontier_mut(&mut self) -> Option<&mut Frontier> {
        match self {
            Strategy::Workfront(p) => Some(&mut p.frontier),
            Strategy::NearFar(p) => Some(&mut p.frontier),
            Strategy::Bucketing(p) => Some(&mut p.frontier),
            _ => None,
        }
    }
}

/// How an engine strategy's advance spreads a frontier's arcs over threads: the parameters
/// every advancing strategy shares (Davidson et al. §IV-B; H-BF's edge classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spread {
    /// Load balance ([`Balance`]).
    pub balance: Balance,
    /// Hub threshold: frontier vertices with at least this many out-arcs are expanded by a
    /// grid-wide partitioned pass (0 = never; [`Options::hub_degree`]).
    pub hub_degree: u32,
    /// Relax through H-BF's edge classes ([`Classify`]).
    pub classify: Classify,
}

impl Default for Spread {
    fn default() -> Self {
        let d = Options::default();
        Spread { balance: d.balance, hub_degree: d.hub_degree, classify: d.classify }
    }
}

impl Spread {
    pub(crate) fn apply(&self, o: &mut Options) {
        (o.balance, o.hub_degree, o.classify) = (self.balance, self.hub_degree, self.classify);
    }
}

/// Which loop drives a frontier strategy (Workfront, Near-Far, Bucketing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Driver {
    /// One persistent launch over the whole grid runs every iteration (the default;
    /// `Options::device_loop`).
    #[default]
    Device,
    /// One persistent block of 1024 threads with the near queues in shared memory: the latency
    /// mode for small frontiers (`Options::block_loop`, `--block-loop`; stamp dedupe, no edge
    /// classes).
    Block,
    /// One launch per iteration from the host (`--host-loop`).
    Host,
}

impl Driver {
    fn apply(self, o: &mut Options) {
        (o.device_loop, o.block_loop) = match self {
            Driver::Device => (true, false),
            Driver::Block => (true, true),
            Driver::Host => (false, false),
        };
    }
}

/// The parameters of the three frontier strategies (Workfront, Near-Far, Bucketing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frontier {
    /// How the advance spreads arcs.
    pub spread: Spread,
    /// How duplicate frontier entries are avoided ([`Dedupe`]).
    pub dedupe: Dedupe,
    /// Which loop drives the iterations.
    pub driver: Driver,
}

impl Default for Frontier {
    fn default() -> Self {
        Frontier { spread: Spread::default(), dedupe: Options::default().dedupe, driver: Driver::default() }
    }
}

impl Frontier {
    pub(crate) fn apply(&self, o: &mut Options) {
        self.spread.apply(o);
        o.dedupe = self.dedupe;
        self.driver.apply(o);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each parameter a strategy lists changes the options it produces when set, and each it
    /// does not list cannot be set (the type has no field for it): checked by setting every
    /// field of every parameters type through `set` and comparing options.
    #[test]
    fn params_are_exactly_what_the_options_read() {
        let base = Options::default();
        for algo in Algo::ALL {
            let plain = Strategy::from(algo);
            assert_eq!(plain.algo(), algo);
            for p in Param::ALL {
                let mut s = plain;
                let changed = set(&mut s, p);
                assert_eq!(changed, plain.takes(p), "{} {p:?}", algo.name());
                if changed {
                    assert_ne!(s.options(&base), plain.options(&base), "{} {p:?} changed nothing", algo.name());
                }
            }
        }
    }

    /// Set `p` on `s` to a non-default value; false when `s` has no such parameter.
    fn set(s: &mut Strategy, p: Param) -> bool {
        use Param::*;
        fn spread(s: &mut Strategy) -> Option<&mut Spread> {
            match s {
                Strategy::TopoBf(t) => Some(&mut t.spread),
                other => other.frontier_mut().map(|f| &mut f.spread),
            }
        }
        fn settle(s: &mut Strategy) -> Option<&mut crauser::Settle> {
            match s {
                Strategy::Crauser(c) => Some(&mut c.settle),
                Strategy::CrauserEconomic(c) | Strategy::Martin(c) => Some(c),
                _ => None,
            }
        }
        match (p, s) {
            (Delta, Strategy::NearFar(x)) => x.delta = Some(7u32.into()),
            (Delta, Strategy::Bucketing(x)) => x.delta = Some(7u32.into()),
            (Delta, Strategy::Async(x)) => x.delta = Some(7u32.into()),
            (Delta, Strategy::DeltaStepping(x)) => x.delta = Some(7u32.into()),
            (Delta, Strategy::Resident(x)) => x.delta = Some(7u32.into()),
            (PieceBits, Strategy::Resident(x)) => x.piece_bits = 5,
            (Workers, Strategy::Async(x)) => x.workers = 3,
            (Workers, Strategy::DeltaStepping(x)) => x.threads = 3,
            (Buckets, Strategy::Bucketing(x)) => x.buckets = 3,
            (WideAt, Strategy::NearFar(x)) => x.wide_at = 9,
            (WideAt, Strategy::Bucketing(x)) => x.wide_at = 9,
            (CheckEvery, Strategy::Workfront(x)) => x.check_every = 3,
            (Criterion, Strategy::Crauser(x)) => x.criterion = crauser::Criterion::Out,
            (Variant, s) => match settle(s) {
                Some(x) => x.variant = crauser::Variant::Predecessor,
                None => return false,
            },
            (Dedupe, s) => match s.frontier_mut() {
                Some(f) => f.dedupe = crate::engine::Dedupe::Lookup,
                None => return false,
            },
            (Driver, s) => match s.frontier_mut() {
                Some(f) => f.driver = super::Driver::Host,
                None => return false,
            },
            (Balance, s) => match settle(s) {
                Some(x) => x.balance = crate::engine::Balance::Partition,
                None => match spread(s) {
                    Some(x) => x.balance = crate::engine::Balance::Partition,
                    None => return false,
                },
            },
            (HubDegree, s) => match spread(s) {
                Some(x) => x.hub_degree = 5,
                None => return false,
            },
            (Classify, s) => match settle(s) {
                Some(x) => x.classify = super::Classify::Off,
                None => match spread(s) {
                    Some(x) => x.classify = super::Classify::Off,
                    None => return false,
                },
            },
            _ => return false,
        }
        true
    }
}
