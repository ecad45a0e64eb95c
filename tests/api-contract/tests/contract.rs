//! The API contract holds: the program in src/main.rs (a petgraph user's first program, in
//! edition 2024) compiles against the library and prints `api contract: ok`, with or without a GPU
//! (`Device::Auto` falls back to the CPU backend).

use std::process::Command;

/// The contract program; src/main.rs must stay this text.
const CONTRACT: &str = include_str!("../src/main.rs");

#[test]
fn the_contract_program_prints_ok() {
    let out = Command::new(env!("CARGO_BIN_EXE_sssp-api-contract")).output().expect("the contract program runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "exit {:?}\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}", out.status);
    assert_eq!(stdout, "api contract: ok\n", "stderr: {stderr}");
}

#[test]
fn the_contract_is_the_fixed_program() {
    // Its opening line, and the edition it must compile in.
    assert!(CONTRACT.starts_with(
        "// The library contract: a petgraph user's first program, unchanged.\nuse sssp::{Device, Graph, Solver};\n"
    ));
    let manifest = include_str!("../Cargo.toml");
    assert!(manifest.contains("edition = \"2024\""), "the contract crate must be edition 2024");
}
