//! `cargo xtask ptx [--check] [--arch sm_XX] [--out FILE]`: build the kernels crate to PTX.
//!
//! Route (see docs/gpu.md): rustc's own NVPTX backend, because the rust-cuda codegen backend
//! cannot be installed here. Debian's `rustc-web` (LLVM with NVPTX) plus `rust-web-src` (the
//! `core` source that `-Zbuild-std=core` compiles) provide it; they install `/usr/bin/rustc` and
//! `/usr/bin/cargo`, which we call by full path so the rustup toolchain stays the default for
//! everything else. When they are missing and we run as root on a Debian-like system, we install
//! them (the project's own files install what it needs); otherwise we say exactly what to install.
//!
//! The final link of an nvptx cdylib needs `llvm-bitcode-linker`, which is not packaged; the PTX
//! is complete before that step, so we pass `-C linker=/bin/true` to make the link a no-op.
//!
//! `--check` rebuilds into a scratch directory and fails if the committed PTX differs: CI runs
//! it so the committed file can never drift from the kernel sources. The same goes for the fatbins
//! (SASS and PTX) committed beside the PTX ([`sass`]), which the default build makes too.

mod sass;

use std::path::{Path, PathBuf};
use std::process::{exit, Command};

/// The committed PTX, embedded by the `sssp` library (crates/sssp-host).
const PTX_PATH: &str = "crates/sssp-host/ptx/sssp_kernels.ptx";

/// The classified twins' module (see [`MODULES`]).
const PTX_TWINS_PATH: &str = "crates/sssp-host/ptx/sssp_kernels_twins.ptx";

/// Default PTX target: sm_70 (Volta). PTX for an older target is JIT-compiled by the driver for
/// any newer GPU, so this one file runs on Volta, Turing, Ampere, Ada and Hopper. The kernels use
/// nothing newer than Volta's `*.sync` warp intrinsics and 64-bit atomic min (sm_32+). See
/// docs/gpu.md for what an sm_90 target changes (measured).
const DEFAULT_ARCH: &str = "sm_70";

/// PTX ISA floor for a target. LLVM defaults to ISA 6.0 for sm_70, but `activemask`
/// (warp-aggregated atomics) needs 6.2; 6.3 is what CUDA 10.0 drivers accept, so any
/// Volta-era driver still loads it. Newer targets already default to an ISA above that.
fn ptx_isa_feature(arch: &str) -> String {
    match arch {
        "sm_70" | "sm_72" | "sm_75" => " -C target-feature=+ptx63".into(),
        _ => String::new(),
    }
}

const DEBIAN_PACKAGES: &[&str] = &["rustc-web", "cargo-web", "rust-web-src"];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("ptx") => ptx(&args[1..]),
        _ => {
            eprintln!("usage: cargo xtask ptx [--check] [--arch sm_XX] [--out FILE]");
            2
        }
    };
    exit(code)
}

fn ptx(args: &[String]) -> i32 {
    let mut check = false;
    let mut arch = DEFAULT_ARCH.to_string();
    let mut out: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--check" => check = true,
            "--arch" => arch = it.next().cloned().unwrap_or_default(),
            "--out" => out = it.next().map(PathBuf::from),
            other => {
                eprintln!("xtask ptx: unknown argument `{other}`");
                return 2;
            }
        }
    }
    let root = workspace_root();
    let tools = match find_or_install_toolchain() {
        Ok(t) => t,
        Err(msg) => {
            eprintln!("xtask ptx: {msg}");
            return 1;
        }
    };
    let version = rustc_version(&tools);
    let mut code = 0;
    for m in MODULES {
        code = code.max(module(&root, &tools, &arch, &version, m, check, out.as_deref()));
    }
    // SASS only for the committed build: `--arch`/`--out` builds are experiments. Not after a
    // module failed to build: its committed PTX is the old one, and fatbins rebuilt from it
    // would look fresh next to kernels that no longer compile.
    if !check && code != 0 {
        eprintln!("xtask ptx: SASS not rebuilt (a PTX module failed to build)");
    } else if arch == DEFAULT_ARCH && out.is_none() {
        let paths: Vec<&str> = MODULES.iter().map(|m| m.path).collect();
        code = code.max(match sass::find_or_install_tools(&root) {
            Ok(bin) => sass::build(&root, &bin, &paths, check),
            Err(msg) => {
                eprintln!("xtask ptx: {msg}");
                1
            }
        });
    }
    code
}

/// One PTX module of the kernels crate: where it is committed, the cargo feature that selects
/// its entry points, and its scratch build directory.
struct Module {
    path: &'static str,
    feature: Option<&'static str>,
    target: &'static str,
}

/// The modules: every entry point but the classified twins (loaded when an engine opens), and
/// the twins (H-BF's edge classes; loaded on the first classified run, so that the first
/// module's driver JIT stays as long as it was before the classes: 3.3 s on a fresh H200,
/// against 6.0 s with the twins in it; docs/gpu.md).
const MODULES: &[Module] = &[
    Module { path: PTX_PATH, feature: None, target: "target/ptx" },
    Module { path: PTX_TWINS_PATH, feature: Some("twins"), target: "target/ptx-twins" },
];

/// Build (and check or write) one module; returns the exit code.
fn module(root: &Path, tools: &Tools, arch: &str, version: &str, m: &Module, check: bool, out: Option<&Path>) -> i32 {
    let path = m.path;
    let built = match build(root, tools, arch, &root.join(m.target), m.feature) {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("xtask ptx: {msg}");
            return 1;
        }
    };
    let text = std::fs::read_to_string(&built).expect("PTX written by rustc is readable text");
    let text = normalise(&text, arch, version);
    let committed = root.join(path);
    if check {
        let old = std::fs::read_to_string(&committed).unwrap_or_default();
        if old != text {
            let built_with = old.lines().next().and_then(|l| l.split(" with ").nth(1)).unwrap_or("?");
            if !built_with.starts_with(version) {
                eprintln!(
                    "xtask ptx --check: {path} was generated with {built_with}, but this machine's NVPTX \
                     compiler is {version}; the output may differ for that reason alone. Regenerate with \
                     `cargo xtask ptx`, run the GPU suite, and commit."
                );
            } else {
                eprintln!("xtask ptx --check: {path} is stale: the kernel sources changed. Run `cargo xtask ptx` and commit the result.");
            }
            return 1;
        }
        println!("xtask ptx --check: {path} is up to date ({} bytes, {arch})", text.len());
        return 0;
    }
    // `--out FILE`: the first module there, the twins beside it as FILE's stem + `_twins.ptx`.
    let dest = match (out, m.feature) {
        (None, _) => committed,
        (Some(o), None) => o.to_path_buf(),
        (Some(o), Some(f)) => {
            o.with_file_name(format!("{}_{f}.ptx", o.file_stem().and_then(|s| s.to_str()).unwrap_or("sssp_kernels")))
        }
    };
    if let Some(dir) = dest.parent() {
        std::fs::create_dir_all(dir).expect("create PTX directory");
    }
    std::fs::write(&dest, &text).expect("write PTX");
    println!("xtask ptx: wrote {} ({} bytes, {arch})", dest.display(), text.len());
    0
}

/// Launch bounds for entry points: (name, threads per block, blocks per SM it must fit). Rust has
/// no `__launch_bounds__`; the PTX directives `.maxntid` and `.minnctapersm` say the same to
/// ptxas, which then caps registers so that many blocks fit. `sssp_pile_loop_wide` is the
/// persistent loop for throughput-bound runs (partition balance: big frontiers on scale-free
/// graphs), where 4 resident blocks per SM ran kron 22 2.6x faster than the unbounded build's 1
/// (docs/gpu.md); it also runs thread and virtual-warp balance on dense graphs, at 3 per SM. The plain `sssp_pile_loop`, the loop of latency-bound road graphs, is bounded
/// to the one block per SM the engine runs it with (`PLAIN_LOOP_BLOCKS_PER_SM`): about 205
/// registers and no spills, where the bound of 2 blocks (128 registers) spilled 20 bytes; NY,
/// roads and grids ran about 2% faster (H100, 2026-11-27).
/// `sssp_pile_loop_hubs` (the loop with the hub phase and the tiled advance, for runs that have
/// hubs or use a tiled mode) is bounded to the 2 blocks per SM the engine runs it with, the
/// plain loop's grid: unbounded it needs over 128 registers, and a second block would not fit.
/// The classified twins (H-BF's edge classes) get the bounds of the loop they copy, but the
/// plain loop's twin keeps 2 blocks per SM (the bound of one was measured on the plain loop
/// only) and so does the partition loop's (its bound of three was mixed on kron 16-18).
const LAUNCH_BOUNDS: &[(&str, u32, u32)] = &[
    ("sssp_pile_loop", 256, 1),
    // The lean loop runs on the plain loop's grid (one block per SM).
    ("sssp_pile_loop_lean", 256, 1),
    // The host loop's advance: the 4 blocks per SM it reached before the warp-wide partition
    // walk (55 registers then, 72 unbounded after).
    ("sssp_advance", 256, 4),
    ("sssp_advance_classified", 256, 4),
    ("sssp_pile_loop_wide", 256, 4),
    // The dense loop is the wide one with the filtering advance (same bounds; the engine runs
    // it at `DENSE_BLOCKS_PER_SM`).
    ("sssp_pile_loop_dense", 256, 4),
    ("sssp_pile_loop_dense_classified", 256, 4),
    ("sssp_pile_loop_hubs", 256, 2),
    ("sssp_pile_loop_classified", 256, 2),
    ("sssp_pile_loop_hubs_classified", 256, 2),
    ("sssp_pile_loop_wide_classified", 256, 4),
    // The partition loop: three blocks per SM (`PARTITION_BLOCKS_PER_SM` in the CUDA engine
    // says why); its classified twin two (at three it was mixed).
    ("sssp_pile_loop_partition", 256, 3),
    ("sssp_pile_loop_partition_classified", 256, 2),
    // The block loop: one block of 1024 threads (64 registers each at most).
    ("sssp_pile_block", 1024, 1),
    // PHAST's top levels: one block of 1024 threads.
    ("sssp_sweep_block", 1024, 1),
    // Resident pieces: one block of 1024 threads per SM.
    ("sssp_resident", 1024, 1),
    ("sssp_resident_async", 1024, 1),
];

/// Add a provenance header (PTX accepts `//` comments): what generated the file, and with which
/// compiler, so `--check` can tell a source change from a compiler change; and the launch bounds.
fn normalise(ptx: &str, arch: &str, rustc: &str) -> String {
    let mut ptx = ptx.to_string();
    for &(name, threads, blocks) in LAUNCH_BOUNDS {
        let entry = format!(".entry {name}(");
        // Each bounded entry lives in one of the modules.
        let Some(at) = ptx.find(&entry) else { continue };
        let close = at + ptx[at..].find(")\n{").expect("an entry's parameter list ends with `)` and a body") + 1;
        ptx.insert_str(close, &format!("\n.maxntid {threads}, 1, 1\n.minnctapersm {blocks}"));
    }
    format!("// Generated by `cargo xtask ptx --arch {arch}` from crates/sssp-kernels. Do not edit. Built with {rustc}\n{ptx}")
}

fn rustc_version(tools: &Tools) -> String {
    Command::new(&tools.rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|_| "an unknown rustc".into())
}

struct Tools {
    rustc: PathBuf,
    cargo: PathBuf,
}

fn find_or_install_toolchain() -> Result<Tools, String> {
    if let Some(t) = find_toolchain() {
        return Ok(t);
    }
    let is_root = Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0")).unwrap_or(false);
    let has_apt = Path::new("/usr/bin/apt-get").exists();
    if !(is_root && has_apt) {
        return Err(format!(
            "no rustc with the NVPTX backend and core sources found. Install Debian's {} \
             (or set SSSP_NVPTX_RUSTC and SSSP_NVPTX_CARGO to a rustc/cargo pair that has \
             `nvptx64-nvidia-cuda` and `rust-src`).",
            DEBIAN_PACKAGES.join(" ")
        ));
    }
    // apt and dpkg talk a lot; their words go to a log that a failure points at.
    let log_path = workspace_root().join("target/apt.log");
    eprintln!(
        "xtask ptx: installing {} with apt-get (about a minute; log in {})...",
        DEBIAN_PACKAGES.join(" "),
        log_path.display()
    );
    let _ = std::fs::create_dir_all(workspace_root().join("target"));
    let log = std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let apt = |args: &[&str]| {
        let (out, err) = match (log.try_clone(), log.try_clone()) {
            (Ok(o), Ok(e)) => (o, e),
            _ => return false,
        };
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(out)
            .stderr(err)
            .status()
            .is_ok_and(|s| s.success())
    };
    let install: Vec<&str> = ["install", "-y", "-qq", "--no-install-recommends"]
        .into_iter()
        .chain(DEBIAN_PACKAGES.iter().copied())
        .collect();
    if !(apt(&["update", "-qq"]) && apt(&install)) {
        return Err(format!("apt-get could not install {} (see {})", DEBIAN_PACKAGES.join(" "), log_path.display()));
    }
    find_toolchain().ok_or_else(|| "installed the packages but still found no NVPTX-capable rustc".into())
}

fn find_toolchain() -> Option<Tools> {
    let rustc = std::env::var_os("SSSP_NVPTX_RUSTC").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/rustc".into());
    let cargo = std::env::var_os("SSSP_NVPTX_CARGO").map(PathBuf::from).unwrap_or_else(|| "/usr/bin/cargo".into());
    if !rustc.exists() || !cargo.exists() {
        return None;
    }
    let targets = Command::new(&rustc).args(["--print", "target-list"]).output().ok()?;
    if !String::from_utf8_lossy(&targets.stdout).lines().any(|l| l == "nvptx64-nvidia-cuda") {
        return None;
    }
    let sysroot = Command::new(&rustc).args(["--print", "sysroot"]).output().ok()?;
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    sysroot.join("lib/rustlib/src/rust/library/core").exists().then_some(Tools { rustc, cargo })
}

fn build(root: &Path, tools: &Tools, arch: &str, target_dir: &Path, feature: Option<&str>) -> Result<PathBuf, String> {
    let status = Command::new(&tools.cargo)
        .current_dir(root)
        .env("RUSTC", &tools.rustc)
        // -Zbuild-std and the `abi_ptx` feature are unstable: the packaged stable compiler
        // accepts them only in bootstrap mode.
        .env("RUSTC_BOOTSTRAP", "1")
        .env("RUSTFLAGS", format!("-C target-cpu={arch}{} -C linker=/bin/true", ptx_isa_feature(arch)))
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO")
        .args(["rustc", "--quiet", "-p", "sssp-kernels", "--profile", "ptx", "--target", "nvptx64-nvidia-cuda"])
        .args(["-Zbuild-std=core", "--crate-type", "cdylib", "--target-dir"])
        .arg(target_dir)
        .args(feature.map(|f| format!("--features={f}")))
        .args(["--", "--emit=asm"])
        .output()
        .map_err(|e| format!("could not run {}: {e}", tools.cargo.display()))?;
    // rustc warns about `+ptx63` on every build (a target feature it calls unstable, which the
    // sm_70 ISA floor needs): shown only when the build fails, with the rest of its output.
    if !status.status.success() {
        eprint!("{}", String::from_utf8_lossy(&status.stderr));
        return Err(format!("{} rustc for nvptx64 failed ({})", tools.cargo.display(), status.status));
    }
    let ptx = target_dir.join("nvptx64-nvidia-cuda/ptx/deps/sssp_kernels.s");
    ptx.exists().then_some(ptx.clone()).ok_or_else(|| format!("build succeeded but {} is missing", ptx.display()))
}

fn workspace_root() -> PathBuf {
    // xtask lives at <root>/xtask.
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask has a parent").to_path_buf()
}
