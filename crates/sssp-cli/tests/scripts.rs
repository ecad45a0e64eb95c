//! The repository scripts' git plumbing, on throwaway repositories.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> bool {
    Command::new("git").arg("-C").arg(dir).args(args).output().is_ok_and(|o| o.status.success())
}

/// `gpu-suite.sh build` starts by listing `.gpu/` in git's exclude file; that must work where
/// `.git/info/` does not exist and in a worktree (where `.git` is a file).
#[test]
fn gpu_suite_excludes_gpu_dir_without_info_folder_and_in_worktrees() {
    let root = std::env::temp_dir().join(format!("sssp-scripts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let repo = root.join("repo");
    std::fs::create_dir_all(repo.join("scripts")).unwrap();
    if !git(&repo, &["init", "-q"]) {
        eprintln!("git not available; skipped");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/gpu-suite.sh");
    std::fs::copy(&script, repo.join("scripts/gpu-suite.sh")).unwrap();
    let _ = std::fs::remove_dir_all(repo.join(".git/info"));
    let run = |dir: &Path| {
        let o = Command::new("bash").arg(dir.join("scripts/gpu-suite.sh")).arg("exclude").output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&repo);
    run(&repo); // idempotent
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert_eq!(exclude.lines().filter(|l| *l == "/.gpu/").count(), 1, "{exclude}");

    // A worktree: `.git` is a file; the exclude file is the common one.
    let id = ["-c", "user.name=t", "-c", "user.email=t@t"];
    assert!(git(&repo, &[&id[..], &["add", "scripts"]].concat()));
    assert!(git(&repo, &[&id[..], &["commit", "-qm", "s"]].concat()));
    let wt = root.join("wt");
    assert!(git(&repo, &["worktree", "add", "-q", wt.to_str().unwrap()]));
    assert!(wt.join(".git").is_file());
    std::fs::remove_dir_all(repo.join(".git/info")).unwrap();
    run(&wt);
    let o = Command::new("git").arg("-C").arg(&wt).args(["rev-parse", "--git-path", "info/exclude"]).output().unwrap();
    let path = String::from_utf8(o.stdout).unwrap();
    let path = wt.join(path.trim());
    assert!(std::fs::read_to_string(path).unwrap().lines().any(|l| l == "/.gpu/"));
    let _ = std::fs::remove_dir_all(&root);
}
