//! Integration tests live in tests/*.rs; this library holds what they share.

use sssp::engine::DeviceKind;

/// The device the engine tests run on: `SSSP_TEST_DEVICE=gpu` (what `scripts/gpu-suite.sh run`
/// sets) or `cpu` (the default, and CI's).
pub fn device() -> DeviceKind {
    match std::env::var("SSSP_TEST_DEVICE").as_deref() {
        Ok("gpu") => DeviceKind::Gpu,
        Ok("cpu") | Err(_) => DeviceKind::Cpu,
        Ok(other) => panic!("SSSP_TEST_DEVICE={other}: expected cpu or gpu"),
    }
}
