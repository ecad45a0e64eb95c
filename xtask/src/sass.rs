//! SASS beside the PTX: machine code for the GPUs most users have, so that a first run on a
//! fresh machine does not wait for the driver to compile the PTX (5.3-5.8 s in the
//! driver's JIT on a fresh H100 machine, uncached; 0.1-0.25 s with SASS).
//!
//! NVIDIA's `ptxas` assembles each committed PTX module for every architecture in [`ARCHS`],
//! and `fatbinary` packs those cubins with the PTX itself into one fatbin per module, committed
//! beside the PTX as `NAME.fatbin`. The library loads the fatbin: the driver runs the SASS of
//! the device's architecture (a cubin runs on later minors of its major) and JIT-compiles the
//! PTX on any other GPU, as before.
//!
//! The tools come from PyPI's `nvidia-cuda-nvcc`, pinned so that `--check` compares bytes made
//! by the same tools, at CUDA 13.0: the version of the driver on the GPU machine (580 series),
//! whose own JIT made code 2.5-3% faster on some kernels than CUDA 12.9's ptxas did (kron 20
//! Workfront, the block loop on road graphs: docs/results/h100-2026-11-24-sass), and which
//! ships `fatbinary` (12.9's package has `ptxas` alone). CUDA 13 assembles nothing older than
//! Turing, which the PTX still serves; a driver too old to load a CUDA 13 image gets the PTX
//! text instead (the library falls back).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The architectures that get SASS: Ampere (A100, and by minor-version compatibility the
/// sm_86/sm_89 cards), Hopper (H100, H200) and Blackwell (B200). The library's `SASS_ARCHS`
/// (crates/sssp-host/src/engine/cuda.rs) names the same ones.
pub const ARCHS: &[&str] = &["sm_80", "sm_90", "sm_100"];

/// The PTX's own target, as the fatbin records it (see `DEFAULT_ARCH` in main.rs).
const PTX_ARCH: &str = "70";

/// The pinned tools (their version decides the bytes `--check` compares).
const PACKAGE: &str = "nvidia-cuda-nvcc==13.0.88";

/// Where the tools are installed, under the workspace root.
const TOOLS_DIR: &str = "target/cuda13";

/// The committed fatbin of `ptx` (a `.ptx` path).
pub fn fatbin_path(ptx: &str) -> String {
    format!("{}.fatbin", ptx.strip_suffix(".ptx").unwrap_or(ptx))
}

/// The folder holding `ptxas` and `fatbinary`: `$SSSP_CUDA_BIN` if set, else the pinned
/// package under [`TOOLS_DIR`], installed with pip on first use.
pub fn find_or_install_tools(root: &Path) -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("SSSP_CUDA_BIN") {
        return Ok(p.into());
    }
    let dir = root.join(TOOLS_DIR);
    let bin = dir.join("nvidia/cu13/bin");
    if bin.join("ptxas").exists() && bin.join("fatbinary").exists() {
        return Ok(bin);
    }
    eprintln!("xtask ptx: installing NVIDIA's ptxas and fatbinary ({PACKAGE}) into {TOOLS_DIR} with pip...");
    let ok = Command::new("python3")
        .args(["-m", "pip", "install", "-q", "--disable-pip-version-check", "--root-user-action=ignore"])
        .arg("--target")
        .arg(&dir)
        .arg(PACKAGE)
        .status()
        .is_ok_and(|s| s.success());
    if ok && bin.join("fatbinary").exists() {
        Ok(bin)
    } else {
        Err(format!("could not install {PACKAGE} with pip; set SSSP_CUDA_BIN to CUDA 13.0's bin folder"))
    }
}

/// Run `cmd`, returning whether it succeeded; a failure names `what`.
fn ran(cmd: &mut Command, what: &str) -> bool {
    let ok = cmd.status().is_ok_and(|s| s.success());
    if !ok {
        eprintln!("xtask ptx: {what} failed");
    }
    ok
}

/// Build the fatbin of every module in `ptx` (committed paths): the cubins of all modules and
/// architectures at once (one `ptxas` each), then one `fatbinary` per module; write them beside
/// the PTX, or with `check` compare them with the committed ones. Returns the exit code.
pub fn build(root: &Path, bin: &Path, ptx: &[&str], check: bool) -> i32 {
    let scratch = root.join("target/sass");
    std::fs::create_dir_all(&scratch).expect("create target/sass");
    let stem = |p: &str| Path::new(p).file_stem().and_then(|s| s.to_str()).expect("a PTX file name").to_string();
    let cubin = |p: &str, arch: &str| scratch.join(format!("{}.{arch}.cubin", stem(p)));
    let jobs: Vec<_> = ptx
        .iter()
        .flat_map(|&p| ARCHS.iter().map(move |&a| (p, a)))
        .map(|(p, arch)| {
            let child = Command::new(bin.join("ptxas"))
                .arg(format!("-arch={arch}"))
                .arg(root.join(p))
                .arg("-o")
                .arg(cubin(p, arch))
                .spawn()
                .unwrap_or_else(|e| panic!("could not run ptxas in {}: {e}", bin.display()));
            (p, arch, child)
        })
        .collect();
    let mut code = 0;
    for (p, arch, mut child) in jobs {
        if !child.wait().is_ok_and(|s| s.success()) {
            eprintln!("xtask ptx: ptxas -arch={arch} failed on {p}");
            code = 1;
        }
    }
    if code != 0 {
        return code;
    }
    for &p in ptx {
        let built = scratch.join(format!("{}.fatbin", stem(p)));
        let mut fatbinary = Command::new(bin.join("fatbinary"));
        fatbinary.arg("-64").arg(format!("--create={}", built.display()));
        for arch in ARCHS {
            let sm = arch.trim_start_matches("sm_");
            fatbinary.arg(format!("--image3=kind=elf,sm={sm},file={}", cubin(p, arch).display()));
        }
        fatbinary.arg(format!("--image3=kind=ptx,sm={PTX_ARCH},file={}", root.join(p).display()));
        if !ran(&mut fatbinary, &format!("fatbinary for {p}")) {
            code = 1;
            continue;
        }
        let new = std::fs::read(&built).expect("fatbinary wrote its file");
        let committed = fatbin_path(p);
        let dest = root.join(&committed);
        if check {
            if std::fs::read(&dest).ok().as_deref() != Some(&new[..]) {
                eprintln!("xtask ptx --check: {committed} is stale or missing: run `cargo xtask ptx` and commit it");
                code = 1;
            } else {
                println!("xtask ptx --check: {committed} is up to date ({} bytes)", new.len());
            }
        } else {
            std::fs::write(&dest, &new).expect("write fatbin");
            println!("xtask ptx: wrote {committed} ({} bytes: SASS {} and the PTX)", new.len(), ARCHS.join(", "));
        }
    }
    code
}
