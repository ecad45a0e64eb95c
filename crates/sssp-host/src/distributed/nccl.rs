//! The [`Communicator`] over NCCL (feature `nccl`): one rank per GPU of this host, one host
//! thread per rank, through cudarc's `nccl` module.
//!
//! An exchange is NCCL's usual all-to-all-v: the ranks first learn what each will receive
//! (an all-gather of every rank's `P` send counts), then the outboxes, uploaded as one buffer,
//! go out as grouped point-to-point sends and receives (`ncclGroupStart` ... `ncclGroupEnd`,
//! so that the pairs cannot deadlock one another), and the inbox is downloaded. A rank's items
//! for itself never leave the host. The all-reduce is `ncclAllReduce` on `ncclUint64`.
//! Buffers are allocated per call: the first version moves the algorithm's host-side
//! outboxes, so a round pays an upload, the collectives and a download (the relaxation on the
//! device, which would keep the outboxes there, is future work: docs/distributed.md).
//!
//! libnccl is loaded when the first group is prepared ([`Nccl::prepare`]), not at build time;
//! without it, or with fewer GPUs than ranks, the run is [`Error::NoGpu`] before any thread
//! starts, so no rank waits for one that could not start. Set `NCCL_NVLS_ENABLE=0` on
//! machines whose NVLink multicast is not set up (NCCL otherwise tries it while starting).

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream};
use cudarc::nccl::{result::NcclError, Comm, Id, ReduceOp};

use super::comm::{Communicator, Reduce};
use crate::error::{Error, Result};

/// A group's NCCL id: made once by [`Nccl::prepare`], given to every rank's [`Nccl::open`].
#[derive(Clone, Copy, Debug)]
pub struct GroupId(Id);

/// One rank's NCCL endpoint: its GPU (ordinal = rank), a stream, and the communicator.
/// Made on the thread that uses it ([`Nccl::open`]; NCCL's communicator is not `Send`).
#[derive(Debug)]
pub struct Nccl {
    comm: Comm,
    stream: Arc<CudaStream>,
    rank: usize,
    size: usize,
}

/// An NCCL failure as the library's error.
fn nccl_error(what: &str, e: NcclError) -> Error {
    Error::Communication(format!("NCCL {what}: {:?}", e.0))
}

impl Nccl {
    /// Check that this host can run `size` NCCL ranks (the CUDA driver, libnccl, at least
    /// `size` GPUs) and make the group's id. [`Error::NoGpu`] names what is missing.
    pub fn prepare(size: usize) -> Result<GroupId> {
        // cudarc panics when it has to load a missing library; ask first.
        // SAFETY: only probes whether the libraries can be opened.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(Error::NoGpu("the CUDA driver library (libcuda.so) is not installed".into()));
        }
        // SAFETY: as above.
        if !unsafe { cudarc::nccl::sys::is_culib_present() } {
            return Err(Error::NoGpu(format!(
                "the NCCL library is not installed or not on LD_LIBRARY_PATH (looked for {})",
                cudarc::get_lib_name_candidates("nccl").join(", ")
            )));
        }
        let gpus = CudaContext::device_count().map_err(|e| Error::NoGpu(format!("cannot count the GPUs: {e}")))?;
        if (gpus.max(0) as usize) < size {
            return Err(Error::NoGpu(format!("{size} NCCL ranks need {size} GPUs; this host has {gpus}")));
        }
        Id::new().map(GroupId).map_err(|e| nccl_error("unique id", e))
    }

    /// Rank `rank` of `size` on GPU `rank`, joining the group `id` (blocks until every rank
    /// has joined: call it on each rank's own thread).
    pub fn open(rank: usize, size: usize, id: GroupId) -> Result<Nccl> {
        let ctx = CudaContext::new(rank).map_err(|e| Error::NoGpu(format!("no usable CUDA device {rank}: {e}")))?;
        let stream = ctx.new_stream()?;
        let comm = Comm::from_rank(stream.clone(), rank, size, id.0).map_err(|e| nccl_error("init", e))?;
        Ok(Nccl { comm, stream, rank, size })
    }

    /// `what` uploaded (one element at least: a zero-length allocation is not portable).
    fn upload(&self, what: &[u64]) -> Result<cudarc::driver::CudaSlice<u64>> {
        Ok(if what.is_empty() { self.stream.alloc_zeros::<u64>(1)? } else { self.stream.clone_htod(what)? })
    }

    /// Every rank's `size` send counts: row `from`, column `to`.
    fn count_matrix(&self, counts: &[u64]) -> Result<Vec<u64>> {
        let send = self.upload(counts)?;
        let mut all = self.stream.alloc_zeros::<u64>(self.size * self.size)?;
        self.comm.all_gather(&send, &mut all).map_err(|e| nccl_error("all-gather", e))?;
        let all = self.stream.clone_dtoh(&all)?;
        self.stream.synchronize()?;
        Ok(all)
    }
}

impl Communicator for Nccl {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn exchange(&mut self, outboxes: &[Vec<u64>], inbox: &mut Vec<u64>) -> Result<()> {
        let (p, me) = (self.size, self.rank);
        if outboxes.len() != p {
            return Err(Error::InvalidArgument(format!(
                "an exchange takes one outbox per rank: {} for {p} ranks",
                outboxes.len()
            )));
        }
        let counts: Vec<u64> = outboxes.iter().map(|o| o.len() as u64).collect();
        let matrix = self.count_matrix(&counts)?;
        let received: Vec<usize> =
            (0..p).map(|from| if from == me { 0 } else { matrix[from * p + me] as usize }).collect();
        // What leaves this rank, in destination order, and what arrives, in source order.
        let mut flat = Vec::new();
        crate::mem::reserve(
            &mut flat,
            outboxes.iter().enumerate().filter(|&(d, _)| d != me).map(|(_, o)| o.len()).sum(),
        )?;
        for (d, out) in outboxes.iter().enumerate() {
            if d != me {
                flat.extend_from_slice(out);
            }
        }
        let total_in: usize = received.iter().sum();
        let got = if flat.is_empty() && total_in == 0 {
            Vec::new()
        } else {
            let send = self.upload(&flat)?;
            let mut recv = self.stream.alloc_zeros::<u64>(total_in.max(1))?;
            cudarc::nccl::group_start().map_err(|e| nccl_error("group start", e))?;
            let mut sent = 0;
            let mut posted = Ok(());
            for (d, out) in outboxes.iter().enumerate() {
                if d == me || out.is_empty() || posted.is_err() {
                    continue;
                }
                posted = self.comm.send(&send.slice(sent..sent + out.len()), d as i32);
                sent += out.len();
            }
            let mut at = 0;
            for (from, &k) in received.iter().enumerate() {
                if k == 0 || posted.is_err() {
                    continue;
                }
                posted = self.comm.recv(&mut recv.slice_mut(at..at + k), from as i32).map(|_| ());
                at += k;
            }
            // The group is closed whatever was posted: an open group would hang the next call.
            let ended = cudarc::nccl::group_end().map_err(|e| nccl_error("group end", e));
            posted.map_err(|e| nccl_error("send/recv", e))?;
            ended?;
            let got = self.stream.clone_dtoh(&recv)?;
            self.stream.synchronize()?;
            got
        };
        inbox.clear();
        crate::mem::reserve(inbox, total_in + outboxes[me].len())?;
        let mut at = 0;
        for (from, &k) in received.iter().enumerate() {
            if from == me {
                inbox.extend_from_slice(&outboxes[me]);
            } else {
                inbox.extend_from_slice(&got[at..at + k]);
                at += k;
            }
        }
        Ok(())
    }

    fn all_reduce(&mut self, values: &mut [u64], op: Reduce) -> Result<()> {
        if values.is_empty() {
            return Ok(());
        }
        let op = match op {
            Reduce::Min => ReduceOp::Min,
            Reduce::Max => ReduceOp::Max,
            // NCCL's sum wraps where `Reduce::Sum` saturates; the algorithm's sums (arcs,
            // flags) are far below 2^64.
            Reduce::Sum => ReduceOp::Sum,
        };
        let mut buf = self.stream.clone_htod(&*values)?;
        self.comm.all_reduce_in_place(&mut buf, &op).map_err(|e| nccl_error("all-reduce", e))?;
        let out = self.stream.clone_dtoh(&buf)?;
        self.stream.synchronize()?;
        values.copy_from_slice(&out);
        Ok(())
    }
}
