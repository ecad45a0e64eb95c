//! The README's library example is `crates/sssp-host/examples/quickstart.rs`, which cargo builds
//! with the tests and rustdoc runs as the `sssp` crate root's doctest (edition 2024). This test
//! keeps the README's copy identical, so the README cannot show code that does not compile.

const README: &str = include_str!("../README.md");
const QUICKSTART: &str = include_str!("../crates/sssp-host/examples/quickstart.rs");

/// The first ```rust block after the heading `heading`.
fn rust_block_after(heading: &str) -> &'static str {
    let at = README.find(heading).unwrap_or_else(|| panic!("README has no heading {heading:?}"));
    let rest = &README[at..];
    let open = "```rust\n";
    let start = rest.find(open).expect("no ```rust block after the heading") + open.len();
    let len = rest[start..].find("```\n").expect("unterminated ```rust block");
    &rest[start..start + len]
}

#[test]
fn readme_library_example_is_the_quickstart_example() {
    let block = rust_block_after("### As a library");
    assert!(
        block == QUICKSTART,
        "README.md's \"As a library\" block differs from crates/sssp-host/examples/quickstart.rs; \
         edit the example (CI compiles it) and copy it into the README.\n--- README ---\n{block}\n\
         --- quickstart.rs ---\n{QUICKSTART}"
    );
}

#[test]
fn readme_rust_blocks_are_all_checked() {
    // Any other ```rust block would be shown to users without being compiled anywhere.
    assert_eq!(README.matches("```rust").count(), 1, "a new ```rust block in README.md needs a compiled twin");
}

/// The README's synopsis names every algorithm and its list of exit codes
/// every code `sssp --help` documents (0 to 6).
#[test]
fn readme_names_every_algorithm_and_exit_code() {
    let synopsis = README.lines().find(|l| l.starts_with("sssp run GRAPH [--algo ")).expect("the run synopsis");
    for algo in sssp::strategy::Algo::ALL {
        assert!(synopsis.contains(algo.name()), "`{}` missing from the run synopsis", algo.name());
    }
    let codes = &README[README.find("lists the exit codes").expect("the exit code list")..];
    let codes = &codes[..codes.find(").").expect("the list's end")];
    for (code, what) in [
        (0, "ok"),
        (1, "run failed"),
        (2, "bad arguments"),
        (3, "verification"),
        (4, "a file"),
        (5, "no GPU"),
        (6, "a negative cycle"),
    ] {
        assert!(codes.contains(&format!("{code} {what}")), "exit code {code} ({what}) missing: {codes}");
    }
}

/// The ```sh blocks after `heading`, up to the next `## ` heading.
fn sh_blocks_after(heading: &str) -> Vec<&'static str> {
    let at = README.find(heading).unwrap_or_else(|| panic!("README has no heading {heading:?}"));
    let rest = &README[at + heading.len()..];
    let section = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
    section.split("```sh\n").skip(1).map(|b| b[..b.find("```").expect("unterminated ```sh block")].trim()).collect()
}

/// The README's two commands are the ones that work: the main job runs the `sssp` binary's `run`
/// on the NY road graph with verification, and the test command is what CI runs (`.ci/run`).
#[test]
fn readme_two_commands_are_the_main_job_and_ci() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let blocks = sh_blocks_after("## The two commands");
    assert!(blocks.len() >= 2, "the two commands' section needs the run and the test command: {blocks:?}");
    let main_job = blocks[0];
    assert!(!main_job.contains('\n'), "the main job is one command: {main_job}");
    let args: Vec<&str> = main_job.split_whitespace().collect();
    assert_eq!(&args[..5], ["cargo", "run", "--release", "-p", "sssp-cli"], "{main_job}");
    let manifest = std::fs::read_to_string(root.join("crates/sssp-cli/Cargo.toml")).unwrap();
    assert!(manifest.contains("name = \"sssp-cli\""), "package sssp-cli is not crates/sssp-cli");
    assert_eq!(&args[5..7], ["--", "run"], "{main_job}");
    let graph = args[7];
    assert!(graph.starts_with("../shared/data/") && graph.ends_with(".gr.gz"), "{graph}");
    assert!(args.contains(&"--verify"), "the main job verifies its answer: {main_job}");
    // The sample output that follows is of that run: the graph's size and a verified result.
    assert!(README.contains("graph: 264346 vertices, 733846 arcs") && README.contains(", verified ("));

    assert_eq!(blocks[1], "scripts/test.sh");
    let ci = std::fs::read_to_string(root.join(".ci/run")).expect(".ci/run");
    assert!(ci.lines().any(|l| l.trim() == "exec scripts/test.sh"), ".ci/run does not run the README's test command");
    assert!(root.join("scripts/test.sh").is_file());
}
