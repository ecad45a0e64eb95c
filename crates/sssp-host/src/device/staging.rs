//! Host <-> device copies at PCIe speed: page-locked staging, reused for the engine's life.
//!
//! A copy from pageable memory goes through the driver's own small bounce buffer, one chunk at a
//! time, and ran at about 5.6 GB/s on the H100 machine (kron 24's 4.3 GB graph: 0.77 s).
//! Here the host copies each chunk into one of two page-locked buffers with every core (rayon)
//! while the DMA of the other buffer's chunk runs, so the host copy and the transfer overlap and
//! the graph is read once. Downloads land in a page-locked buffer too, and the copy out of it
//! into the caller's vector is parallel: the first touch of a fresh 67 MB vector (16.8M
//! distances) costs tens of milliseconds on one core.

use std::sync::Arc;

use cudarc::driver::{result, CudaContext, CudaEvent, CudaSlice, CudaStream, DevicePtr, DeviceRepr, PinnedHostSlice};
use rayon::prelude::*;

use crate::error::Result;

/// Bytes of each staging buffer: big enough that a chunk's fixed costs (an event, a DMA launch,
/// a rayon fork) are noise, small enough that pinning both is cheap (a few ms) when an engine
/// opens.
const STAGE_BYTES: usize = 16 << 20;

/// Below this many bytes a plain copy is as fast (one chunk, no overlap to gain).
const DIRECT_BYTES: usize = 1 << 20;

/// Work per rayon task of a host copy.
const PAR_CHUNK: usize = 1 << 18;

/// Two page-locked staging buffers and the events that say when each is free again.
pub(crate) struct Staging {
    bufs: [PinnedHostSlice<u8>; 2],
    /// Recorded after the DMA out of each buffer: the buffer is free once it completes.
    busy: [Option<CudaEvent>; 2],
}

impl Staging {
    pub fn new(ctx: &Arc<CudaContext>) -> Result<Self> {
        // Plain page-locked memory (flags 0): write-combined memory is slow for the CPU to read,
        // and these buffers are read back by downloads.
        // SAFETY: the buffers are written only through `host` below, after waiting for the
        // DMA that last read them.
        let alloc = || unsafe { ctx.alloc_pinned_with_flags::<u8>(STAGE_BYTES, 0) };
        Ok(Staging { bufs: [alloc()?, alloc()?], busy: [None, None] })
    }

    /// The host side of buffer `b`, once the DMA that last read it has completed.
    fn host(&mut self, b: usize) -> Result<&mut [u8]> {
        if let Some(e) = self.busy[b].take() {
            e.synchronize()?;
        }
        Ok(self.bufs[b].as_mut_slice()?)
    }

    /// A new device buffer holding `src`, copied through the staging buffers (see the module
    /// doc). Queued on `stream`: later work on it sees the data; `src` may be dropped at once.
    pub fn upload<T: DeviceRepr + Copy + Sync>(&mut self, stream: &Arc<CudaStream>, src: &[T]) -> Result<CudaSlice<T>> {
        let bytes = std::mem::size_of_val(src);
        if bytes < DIRECT_BYTES {
            return Ok(stream.clone_htod(src)?);
        }
        // SAFETY: every element is written by the copies below before any kernel reads it
        // (same stream).
        let dst = unsafe { stream.alloc::<T>(src.len())? };
        let base = dst.device_ptr(stream).0;
        // SAFETY: `T: DeviceRepr` is plain old data; the view covers `src` exactly.
        let raw = unsafe { std::slice::from_raw_parts(src.as_ptr() as *const u8, bytes) };
        for (i, chunk) in raw.chunks(STAGE_BYTES).enumerate() {
            let b = i % 2;
            let host = &mut self.host(b)?[..chunk.len()];
            host.par_chunks_mut(PAR_CHUNK).zip(chunk.par_chunks(PAR_CHUNK)).for_each(|(d, s)| d.copy_from_slice(s));
            // SAFETY: the destination range lies inside `dst`; the host range stays untouched
            // until `busy[b]` completes.
            unsafe { result::memcpy_htod_async(base + (i * STAGE_BYTES) as u64, &*host, stream.cu_stream())? };
            self.busy[b] = Some(stream.record_event(None)?);
        }
        Ok(dst)
    }
}

/// Download `len` items from the page-locked buffer `pinned` (filled by work queued on the
/// stream) into a new vector, in parallel. Waits for the queued work.
pub(crate) fn parallel_copy_out(pinned: &PinnedHostSlice<u32>, len: usize) -> Result<Vec<u32>> {
    let src = &pinned.as_slice()?[..len];
    let mut out = Vec::new();
    crate::mem::reserve(&mut out, len)?;
    // An indexed parallel extend writes each element once, straight into the reserved space.
    out.par_extend(src.par_iter().copied());
    Ok(out)
}

/// Copy `src` (page-locked, filled) into `dst` with every core: the first touch of a large
/// fresh vector's pages costs tens of milliseconds on one core.
pub(crate) fn parallel_copy(src: &[u8], dst: &mut [u8]) {
    dst.par_chunks_mut(PAR_CHUNK).zip(src.par_chunks(PAR_CHUNK)).for_each(|(d, s)| d.copy_from_slice(s));
}
