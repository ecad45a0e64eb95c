//! SASS beside the PTX: machine code for the GPUs most users have, so that a first run on a
//! fresh machine does not wait for the driver to compile the PTX (issue #26: 4.9-5.7 s in the
//! driver's JIT on a fresh H100 machine, uncached; later processes 0.4 s from its cache).
//!
//! NVIDIA's `ptxas` (PyPI's `nvidia-cuda-nvcc-cu12`, pinned so that `--check` compares bytes
//! made by the same assembler) turns each committed PTX module into one cubin per architecture
//! in [`ARCHS`], committed beside it as `NAME.sm_XX.cubin`. The library embeds them and loads
//! the one whose architecture the device runs (same major version, minor at most the device's:
//! SASS runs on later minors of its major); any other GPU JIT-compiles the PTX as before.
//!
//! Why cubins and not one fatbin: the PyPI package ships `ptxas` alone, without CUDA's
//! `fatbinary` tool, and the driver loads a cubin as it loads a fatbin (`cuModuleLoadData`), so
//! choosing the cubin ourselves is the same thing with one tool less.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The architectures that get SASS: Ampere (A100, and by minor-version compatibility the
/// sm_86/sm_89 cards), Hopper (H100, H200) and Blackwell (B200).
pub const ARCHS: &[&str] = &["sm_80", "sm_90", "sm_100"];

/// The pinned assembler (its version decides the bytes `--check` compares).
const PTXAS_PACKAGE: &str = "nvidia-cuda-nvcc-cu12==12.9.86";

/// Where the assembler is installed, under the workspace root (scripts/test.sh uses it too).
const PTXAS_DIR: &str = "target/ptxas";

/// The committed cubin of `ptx` (a `.ptx` path) for `arch`.
pub fn cubin_path(ptx: &str, arch: &str) -> String {
    format!("{}.{arch}.cubin", ptx.strip_suffix(".ptx").unwrap_or(ptx))
}

/// `ptxas`: `$PTXAS` if set, else the pinned one under [`PTXAS_DIR`], installed with pip on
/// first use (about 90 MB).
pub fn find_or_install_ptxas(root: &Path) -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("PTXAS") {
        return Ok(p.into());
    }
    let dir = root.join(PTXAS_DIR);
    let ptxas = dir.join("nvidia/cuda_nvcc/bin/ptxas");
    if ptxas.exists() {
        return Ok(ptxas);
    }
    eprintln!("xtask ptx: installing NVIDIA's ptxas ({PTXAS_PACKAGE}) into {PTXAS_DIR} with pip...");
    let ok = Command::new("python3")
        .args(["-m", "pip", "install", "-q", "--disable-pip-version-check", "--root-user-action=ignore"])
        .arg("--target")
        .arg(&dir)
        .arg(PTXAS_PACKAGE)
        .status()
        .is_ok_and(|s| s.success());
    if ok && ptxas.exists() {
        Ok(ptxas)
    } else {
        Err(format!("could not install {PTXAS_PACKAGE} with pip; set PTXAS to a ptxas of CUDA 12.9"))
    }
}

/// Assemble every module in `ptx` (committed paths) for every [`ARCHS`] entry, all at once (one
/// process each), and write the cubins beside the PTX, or with `check` compare them with the
/// committed ones. Returns the exit code.
pub fn assemble(root: &Path, ptxas: &Path, ptx: &[&str], check: bool) -> i32 {
    let scratch = root.join("target/sass");
    std::fs::create_dir_all(&scratch).expect("create target/sass");
    let jobs: Vec<(String, PathBuf, std::process::Child)> = ptx
        .iter()
        .flat_map(|p| ARCHS.iter().map(move |a| (*p, *a)))
        .map(|(p, arch)| {
            let committed = cubin_path(p, arch);
            let built = scratch.join(Path::new(&committed).file_name().expect("a cubin has a file name"));
            let child = Command::new(ptxas)
                .arg(format!("-arch={arch}"))
                .arg(root.join(p))
                .arg("-o")
                .arg(&built)
                .spawn()
                .unwrap_or_else(|e| panic!("could not run {}: {e}", ptxas.display()));
            (committed, built, child)
        })
        .collect();
    let mut code = 0;
    for (committed, built, mut child) in jobs {
        if !child.wait().is_ok_and(|s| s.success()) {
            eprintln!("xtask ptx: ptxas failed on {committed}");
            code = 1;
            continue;
        }
        let new = std::fs::read(&built).expect("ptxas wrote its cubin");
        let dest = root.join(&committed);
        if check {
            if std::fs::read(&dest).ok().as_deref() != Some(&new[..]) {
                eprintln!(
                    "xtask ptx --check: {committed} is stale or missing: run `cargo xtask ptx` (with {PTXAS_PACKAGE}) and commit it"
                );
                code = 1;
            } else {
                println!("xtask ptx --check: {committed} is up to date ({} bytes)", new.len());
            }
        } else {
            std::fs::write(&dest, &new).expect("write cubin");
            println!("xtask ptx: wrote {committed} ({} bytes)", new.len());
        }
    }
    code
}
