//! The [`Communicator`] over NCCL (feature `nccl`): one rank per GPU of this host, one host
//! thread per rank, through cudarc's `nccl` module.
//!
//! An exchange is NCCL's usual all-to-all-v: the ranks first learn what each will receive
//! (an all-gather of every rank's `P` send counts), then the outboxes, uploaded as one buffer,
//! go out as grouped point-to-point sends and receives (`ncclGroupStart` ... `ncclGroupEnd`,
//! so that the pairs cannot deadlock one another), and the inbox is downloaded. A rank's items
//! for itself never leave the host. The all-reduce is `ncclAllReduce` on `ncclUint64`.
//! The local step on the rank's GPU exchanges from device memory to device memory
//! ([`Communicator::exchange_on_device`]): its pack kernel leaves each destination's items in
//! one range of its outbox, those ranges go out as NCCL sends and land in the step's inbox
//! buffer, and only the `P` counts cross to the host (the host-side exchange, with an upload
//! and a download around the collectives, cost 529-739 ms of kron 26's two-rank solve on four
//! H100s). The host-side [`Communicator::exchange`] (the host step, the gather) allocates its
//! buffers per call.
//!
//! libnccl is loaded when the first group is prepared ([`Nccl::prepare`]), not at build time;
//! without it, or with fewer GPUs than ranks, the run is [`Error::NoGpu`] before any thread
//! starts, so no rank waits for one that could not start. Set `NCCL_NVLS_ENABLE=0` on
//! machines whose NVLink multicast is not set up (NCCL otherwise tries it while starting).
//!
//! [`NcclGroup`] keeps the ranks between solves: one thread per GPU, each holding its
//! endpoint, fed one job per solve. NCCL's set-up (a CUDA context per GPU, the communicator's
//! bootstrap and topology search) took 1.8 s of a one-rank kron 16 run that relaxes in a few
//! milliseconds, so paying it once per group, not once per query, is what makes repeated
//! queries and the benchmark's times mean the solve (`super::Group`).

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;

use cudarc::driver::{sys::CUdeviceptr, CudaContext, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, SyncOnDrop};
use cudarc::nccl::{result::NcclError, Comm, Id, ReduceOp};

use super::comm::{check_sends, room, through_host, Communicator, Reduce};
use crate::device::cuda::CudaDevice;
use crate::device::{Buffer, Device};
use crate::error::{Error, Result};

/// `len` elements of type `T` inside a device layer [`Buffer`], as NCCL's calls take them. The buffers of a rank's device step are the device layer's, not cudarc's slices, so
/// they carry no events: none is needed, since the step's kernels, its copies and NCCL's calls
/// all run on the endpoint's one stream, in order.
struct Span<'a, T> {
    addr: CUdeviceptr,
    len: usize,
    stream: &'a Arc<CudaStream>,
    _t: PhantomData<T>,
}

impl<'a, T> Span<'a, T> {
    /// Elements `range` of `buf`, checked to lie inside it.
    fn of(buf: &Buffer, range: Range<usize>, stream: &'a Arc<CudaStream>) -> Result<Self> {
        let size = std::mem::size_of::<T>() as u64;
        if range.end as u64 * size > buf.bytes() {
            return Err(Error::InvalidArgument(format!(
                "elements {range:?} of {size} bytes lie outside a buffer of {} bytes",
                buf.bytes()
            )));
        }
        let addr = buf.ptr::<u8>() as CUdeviceptr + range.start as u64 * size;
        Ok(Span { addr, len: range.len(), stream, _t: PhantomData })
    }
}

impl<T> cudarc::driver::DeviceSlice<T> for Span<'_, T> {
    fn len(&self) -> usize {
        self.len
    }
    fn stream(&self) -> &Arc<CudaStream> {
        self.stream
    }
}

impl<T> DevicePtr<T> for Span<'_, T> {
    fn device_ptr<'a>(&'a self, _: &'a CudaStream) -> (CUdeviceptr, SyncOnDrop<'a>) {
        (self.addr, SyncOnDrop::Record(None))
    }
}

impl<T> DevicePtrMut<T> for Span<'_, T> {
    fn device_ptr_mut<'a>(&'a mut self, _: &'a CudaStream) -> (CUdeviceptr, SyncOnDrop<'a>) {
        (self.addr, SyncOnDrop::Record(None))
    }
}

/// A group's NCCL id: made once by [`Nccl::prepare`], given to every rank's [`Nccl::open`].
#[derive(Clone, Copy, Debug)]
pub struct GroupId(Id);

/// One rank's NCCL endpoint: its GPU (ordinal = rank), a stream, and the communicator.
/// Made on the thread that uses it ([`Nccl::open`]; NCCL's communicator is not `Send`).
pub struct Nccl {
    comm: Comm,
    stream: Arc<CudaStream>,
    rank: usize,
    size: usize,
    /// The rank's GPU as a device for its local step, made on first use and kept.
    device: Option<Arc<CudaDevice>>,
    /// The rank's slice of the group's graph, kept between solves (`super::Group`).
    slice: Option<super::RankSlice>,
}

impl std::fmt::Debug for Nccl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nccl").field("rank", &self.rank).field("size", &self.size).finish_non_exhaustive()
    }
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
        Ok(Nccl { comm, stream, rank, size, device: None, slice: None })
    }

    /// This rank's GPU as a device (the kernels loaded on its context, on the endpoint's
    /// stream), for the local step on the device: made by the first call, kept after.
    pub(crate) fn device(&mut self) -> Result<Arc<CudaDevice>> {
        if self.device.is_none() {
            self.device = Some(Arc::new(CudaDevice::on_stream(self.stream.clone())?));
        }
        Ok(self.device.clone().expect("made above"))
    }

    /// `job` on this rank's kept slice of the group's graph; `fresh` (a new graph's slice)
    /// replaces it first (the old one dropped, its device memory with it, before `job` loads
    /// the new one).
    pub(crate) fn run_on_slice<T>(
        &mut self,
        fresh: Option<super::LocalGraph>,
        job: impl FnOnce(&mut super::RankSlice, &mut Nccl) -> Result<T>,
    ) -> Result<T> {
        if let Some(local) = fresh {
            self.slice = Some(super::RankSlice::new(local));
        }
        let mut slice = self
            .slice
            .take()
            .ok_or_else(|| Error::Communication(format!("NCCL rank {} holds no slice of the graph", self.rank)))?;
        let outcome = job(&mut slice, self);
        self.slice = Some(slice);
        outcome
    }

    /// One item to every other rank and back, so that NCCL connects every pair now: it does
    /// so at a pair's first send, which made the first solve of kron 27 on four H100s spend
    /// 200 ms in its exchanges against 20-30 ms for the next. Part of the group's set-up.
    fn connect(&mut self) -> Result<()> {
        let outboxes: Vec<Vec<u64>> = (0..self.size).map(|d| if d == self.rank { vec![] } else { vec![0] }).collect();
        let mut inbox = Vec::new();
        self.exchange(&outboxes, &mut inbox)?;
        if inbox.len() != self.size - 1 {
            return Err(Error::Communication(format!(
                "NCCL rank {} received {} items connecting to {} ranks",
                self.rank,
                inbox.len(),
                self.size - 1
            )));
        }
        Ok(())
    }

    /// `what` uploaded (one element at least: a zero-length allocation is not portable).
    fn upload(&self, what: &[u64]) -> Result<cudarc::driver::CudaSlice<u64>> {
        Ok(if what.is_empty() { self.stream.alloc_zeros::<u64>(1)? } else { self.stream.clone_htod(what)? })
    }

    /// One NCCL group of the point-to-point calls `post` makes (stopping at its first error),
    /// closed whatever was posted: an open group would hang the next call. Both exchanges send
    /// and receive through it.
    fn grouped(&self, post: impl FnOnce(&Comm) -> std::result::Result<(), NcclError>) -> Result<()> {
        cudarc::nccl::group_start().map_err(|e| nccl_error("group start", e))?;
        let posted = post(&self.comm);
        let ended = cudarc::nccl::group_end().map_err(|e| nccl_error("group end", e));
        posted.map_err(|e| nccl_error("send/recv", e))?;
        ended.map(drop)
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

/// One rank's work in a solve, run on the rank's own thread with its endpoint.
pub(crate) type Job = Box<dyn FnOnce(&mut Nccl) -> Result<super::RankOutcome> + Send>;

/// What a rank's thread answers: its endpoint is up, or a job's outcome.
enum Reply {
    Ready,
    Done(Box<super::RankOutcome>),
}

/// A rank's thread, as the group sees it.
struct Worker {
    jobs: Option<mpsc::Sender<Job>>,
    replies: mpsc::Receiver<Result<Reply>>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// The thread of rank `rank`: it opens the endpoint (answering [`Reply::Ready`] or the
    /// error), then runs jobs until the group lets it go. A panicking job is that rank's
    /// [`Error::Communication`], not the thread's end, so the group still answers.
    fn spawn(rank: usize, size: usize, id: GroupId) -> Result<Worker> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (reply, replies) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name(format!("sssp-nccl-rank-{rank}"))
            .spawn(move || {
                let mut comm = match Nccl::open(rank, size, id).and_then(|mut c| c.connect().map(|_| c)) {
                    Ok(comm) => comm,
                    Err(e) => {
                        let _ = reply.send(Err(e));
                        return;
                    }
                };
                if reply.send(Ok(Reply::Ready)).is_err() {
                    return;
                }
                while let Ok(job) = inbox.recv() {
                    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut comm)))
                        .unwrap_or_else(|panic| {
                            let why = panic
                                .downcast_ref::<&str>()
                                .map(|s| s.to_string())
                                .or_else(|| panic.downcast_ref::<String>().cloned())
                                .unwrap_or_default();
                            Err(Error::Communication(format!("rank {rank} panicked: {why}")))
                        });
                    if reply.send(outcome.map(|o| Reply::Done(Box::new(o)))).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| Error::Communication(format!("cannot start the thread of rank {rank}: {e}")))?;
        Ok(Worker { jobs: Some(jobs), replies, thread: Some(thread) })
    }

    /// The rank's next answer (its thread gone: a typed error).
    fn answer(&self, rank: usize) -> Result<Reply> {
        self.replies.recv().map_err(|_| Error::Communication(format!("the thread of NCCL rank {rank} has ended")))?
    }
}

/// NCCL ranks kept between solves: one thread per GPU `0..size`, each with its endpoint
/// ([`Nccl`]), made once. A solve hands each thread its rank's job and waits for every
/// outcome. After a failed solve the group is not used again (a rank that failed inside a
/// collective may have left the others' NCCL state mid-call): later solves are refused.
pub(crate) struct NcclGroup {
    workers: Vec<Worker>,
    failed: bool,
}

impl NcclGroup {
    /// `size` ranks on GPUs `0..size`: [`Nccl::prepare`], then every rank's thread opens its
    /// endpoint (NCCL's bootstrap, which waits for all of them). Errors: [`Error::NoGpu`]
    /// from `prepare`, or the first rank's failure to open.
    pub(crate) fn new(size: usize) -> Result<NcclGroup> {
        let id = Nccl::prepare(size)?;
        let mut group = NcclGroup { workers: Vec::with_capacity(size), failed: false };
        for rank in 0..size {
            match Worker::spawn(rank, size, id) {
                Ok(w) => group.workers.push(w),
                Err(e) => {
                    // The started ranks wait in NCCL's bootstrap for this one: leave them.
                    group.failed = true;
                    return Err(e);
                }
            }
        }
        let ready = group.answers(|reply| match reply {
            Reply::Ready => Ok(()),
            Reply::Done(_) => Err(Error::Communication("an NCCL rank answered before its set-up".into())),
        });
        group.failed = ready.is_err();
        ready.map(|_| group)
    }

    /// Every rank's outcome of `jobs` (one per rank, in rank order).
    pub(crate) fn run(&mut self, jobs: Vec<Job>) -> Result<Vec<super::RankOutcome>> {
        if self.failed {
            return Err(Error::Communication("this NCCL group failed in an earlier solve; make a new one".into()));
        }
        if jobs.len() != self.workers.len() {
            return Err(Error::InvalidArgument(format!("{} jobs for {} NCCL ranks", jobs.len(), self.workers.len())));
        }
        for (rank, (w, job)) in self.workers.iter().zip(jobs).enumerate() {
            let sent = w.jobs.as_ref().is_some_and(|tx| tx.send(job).is_ok());
            if !sent {
                self.failed = true;
                return Err(Error::Communication(format!("the thread of NCCL rank {rank} has ended")));
            }
        }
        let outcomes = self.answers(|reply| match reply {
            Reply::Done(outcome) => Ok(*outcome),
            Reply::Ready => Err(Error::Communication("an NCCL rank answered its set-up twice".into())),
        });
        self.failed = outcomes.is_err();
        outcomes
    }

    /// One answer from every rank, mapped; the errors reduced to their cause
    /// ([`super::first_cause`]).
    fn answers<T>(&self, map: impl Fn(Reply) -> Result<T>) -> Result<Vec<T>> {
        super::first_cause(self.workers.iter().enumerate().map(|(rank, w)| w.answer(rank).and_then(&map)).collect())
    }
}

impl Drop for NcclGroup {
    /// Let the threads go; join them unless a failure may have left one inside NCCL.
    fn drop(&mut self) {
        for w in &mut self.workers {
            w.jobs = None;
        }
        if !self.failed {
            for w in &mut self.workers {
                if let Some(t) = w.thread.take() {
                    let _ = t.join();
                }
            }
        }
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
        let total_in: usize = received.iter().sum();
        // What leaves this rank, in destination order, and where what arrives lands; then every
        // rank learns whether every rank has its buffers before anything is sent: a rank that
        // could not allocate would otherwise leave the others in the send/recv group, which
        // NCCL gives no way out of.
        let buffers = (|| -> Result<Option<(CudaSlice<u64>, CudaSlice<u64>)>> {
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
            if flat.is_empty() && total_in == 0 {
                return Ok(None);
            }
            Ok(Some((self.upload(&flat)?, self.stream.alloc_zeros::<u64>(total_in.max(1))?)))
        })();
        let mut ready = [buffers.is_ok() as u64];
        self.all_reduce(&mut ready, Reduce::Min)?;
        let buffers = buffers?;
        if ready[0] == 0 {
            return Err(Error::Communication(format!(
                "rank {me} stops: another rank could not make room for an exchange"
            )));
        }
        let got = match buffers {
            None => Vec::new(),
            Some((send, mut recv)) => {
                self.grouped(|comm| {
                    let mut sent = 0;
                    for (d, out) in outboxes.iter().enumerate().filter(|&(d, o)| d != me && !o.is_empty()) {
                        comm.send(&send.slice(sent..sent + out.len()), d as i32)?;
                        sent += out.len();
                    }
                    let mut at = 0;
                    for (from, &k) in received.iter().enumerate().filter(|&(_, &k)| k > 0) {
                        comm.recv(&mut recv.slice_mut(at..at + k), from as i32)?;
                        at += k;
                    }
                    Ok(())
                })?;
                let got = self.stream.clone_dtoh(&recv)?;
                self.stream.synchronize()?;
                got
            }
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

    /// Device to device when `dev` is this rank's GPU (the step's device, on this endpoint's
    /// stream): the counts all-gathered, then grouped sends from `outbox`'s ranges and
    /// receives into `inbox`. Any other device goes through the host.
    fn exchange_on_device(
        &mut self,
        dev: &dyn Device,
        outbox: &Buffer,
        sends: &[Range<usize>],
        inbox: &mut Option<Buffer>,
    ) -> Result<usize> {
        let ours = self.device.as_ref().is_some_and(|d| std::ptr::addr_eq(Arc::as_ptr(d), dev as *const dyn Device));
        if !ours {
            return through_host(self, dev, outbox, sends, inbox);
        }
        let (p, me) = (self.size, self.rank);
        check_sends(me, p, sends)?;
        if p == 1 {
            return Ok(0);
        }
        let counts: Vec<u64> = sends.iter().map(|r| r.len() as u64).collect();
        let matrix = self.count_matrix(&counts)?;
        let received: Vec<usize> =
            (0..p).map(|from| if from == me { 0 } else { matrix[from * p + me] as usize }).collect();
        let total: usize = received.iter().sum();
        let into = room(dev, inbox, total)?;
        if total == 0 && sends.iter().all(|r| r.is_empty()) {
            return Ok(0);
        }
        let stream = &self.stream;
        let spans = |buf: &Buffer, ranges: &mut dyn Iterator<Item = (usize, Range<usize>)>| {
            ranges
                .filter(|(_, r)| !r.is_empty())
                .map(|(d, r)| Ok((d, Span::<u64>::of(buf, r, stream)?)))
                .collect::<Result<Vec<_>>>()
        };
        let out = spans(outbox, &mut sends.iter().cloned().enumerate())?;
        let starts = received.iter().scan(0, |at, &k| {
            *at += k;
            Some(*at - k..*at)
        });
        let mut arriving = spans(into, &mut starts.enumerate())?;
        self.grouped(|comm| {
            for (d, span) in &out {
                comm.send(span, *d as i32)?;
            }
            for (from, span) in &mut arriving {
                comm.recv(span, *from as i32)?;
            }
            Ok(())
        })?;
        // Waited for here, not at the next read of the cells, so that the rank's `exchange`
        // time is the transfer's (one synchronisation a round, some microseconds).
        self.stream.synchronize()?;
        Ok(total)
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
