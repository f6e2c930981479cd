//! The worker thread that runs searches and perft while the command loop
//! keeps reading input (to answer `isready` and to hear `stop`).

use super::output::Output;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// Stack size of the worker thread: room for deep recursive searches.
const WORKER_STACK_BYTES: usize = 64 << 20;

/// The requests the command loop makes of a running job: `stop`, and
/// `ponderhit` for a pondering search. The search polls one flag; a job
/// waits on the requests themselves.
#[derive(Default)]
pub struct StopSignal {
    flag: AtomicBool,
    requests: Mutex<Requests>,
    wake: Condvar,
}

/// What the command loop has asked of the job so far.
#[derive(Default)]
struct Requests {
    stop: bool,
    ponderhit: bool,
}

impl StopSignal {
    /// The flag the search and perft poll: raised by `stop`, and by
    /// `ponderhit` to end the pondering search.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// Requests the job to stop.
    pub fn raise(&self) {
        let mut requests = self.lock();
        requests.stop = true;
        self.flag.store(true, Ordering::Relaxed);
        self.wake.notify_all();
    }

    /// Tells a pondering job that the expected move was played: its
    /// pondering search ends, and [`StopSignal::wait_for_ponderhit`] returns.
    pub fn ponderhit(&self) {
        let mut requests = self.lock();
        requests.ponderhit = true;
        self.flag.store(true, Ordering::Relaxed);
        self.wake.notify_all();
    }

    /// Blocks until stop is requested (an infinite search that finished
    /// early holds its `bestmove` back until then, as UCI requires).
    pub fn wait(&self) {
        let mut requests = self.lock();
        while !requests.stop {
            requests = self.wake.wait(requests).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Blocks until `ponderhit` or stop: true on `ponderhit`, with the flag
    /// lowered again for the search that follows (a later stop raises it).
    pub fn wait_for_ponderhit(&self) -> bool {
        let mut requests = self.lock();
        while !requests.stop && !requests.ponderhit {
            requests = self.wake.wait(requests).unwrap_or_else(|p| p.into_inner());
        }
        if requests.stop {
            return false;
        }
        self.flag.store(false, Ordering::Relaxed);
        true
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Requests> {
        self.requests.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// What the end of the engine's input does to a running job.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AtEndOfInput {
    /// Stop it, as `quit` does: a search still prints its `bestmove`
    /// (Stockfish's searches end so too).
    #[default]
    Stop,
    /// Let it run to its end: a perft or a bench, whose totals are what
    /// `echo bench | triskel` asks for (Stockfish runs them before it
    /// reads on).
    Finish,
}

/// Runs one job at a time on its own thread.
///
/// A job prints its progress itself and returns its final lines (e.g.
/// `bestmove`); the worker marks itself idle *before* printing them, so a
/// GUI that answers `bestmove` with a new `go` at once never finds it busy.
#[derive(Default)]
pub struct Worker {
    handle: Option<JoinHandle<()>>,
    busy: Arc<AtomicBool>,
    signal: Arc<StopSignal>,
    /// What the end of input does to the job started last.
    at_end_of_input: AtEndOfInput,
}

impl Worker {
    /// A worker with no job.
    pub fn new() -> Worker {
        Worker::default()
    }

    /// Whether a job runs and has not yet produced its final lines.
    pub fn is_busy(&self) -> bool {
        self.busy.load(Ordering::SeqCst)
    }

    /// Starts `task` on the worker thread; `at_end_of_input` says whether
    /// the end of input stops it. Should the task panic, an error line and
    /// the lines of `fallback` are printed instead of its final lines (so a
    /// `go` still gets its one `bestmove`).
    pub fn start<F>(
        &mut self,
        out: &Output,
        fallback: Vec<String>,
        at_end_of_input: AtEndOfInput,
        task: F,
    ) -> Result<(), String>
    where
        F: FnOnce(&StopSignal, &Output) -> Vec<String> + Send + 'static,
    {
        if self.is_busy() {
            return Err("busy".to_string());
        }
        self.join();
        self.at_end_of_input = at_end_of_input;
        let signal = Arc::new(StopSignal::default());
        self.signal = Arc::clone(&signal);
        self.busy.store(true, Ordering::SeqCst);
        let busy = Arc::clone(&self.busy);
        let out = out.clone();
        let spawned = std::thread::Builder::new()
            .name("triskel-worker".to_string())
            .stack_size(WORKER_STACK_BYTES)
            .spawn(move || {
                let lines = match catch_unwind(AssertUnwindSafe(|| task(&signal, &out))) {
                    Ok(lines) => lines,
                    Err(panic) => {
                        let mut lines = vec![format!(
                            "info string error: internal error: {}",
                            panic_text(&*panic)
                        )];
                        lines.extend(fallback);
                        lines
                    }
                };
                busy.store(false, Ordering::SeqCst);
                out.block(lines);
            });
        match spawned {
            Ok(handle) => {
                self.handle = Some(handle);
                Ok(())
            }
            Err(e) => {
                self.busy.store(false, Ordering::SeqCst);
                Err(format!("cannot start a thread: {e}"))
            }
        }
    }

    /// Passes `ponderhit` to the running job.
    pub fn ponderhit(&self) {
        self.signal.ponderhit();
    }

    /// Asks the running job (if any) to stop and waits until it has printed
    /// its final lines.
    pub fn stop(&mut self) {
        self.signal.raise();
        self.join();
    }

    /// The engine's input has ended: stops the running job, or waits for
    /// it to finish, as the job asked when it started.
    pub fn end_of_input(&mut self) {
        match self.at_end_of_input {
            AtEndOfInput::Stop => self.stop(),
            AtEndOfInput::Finish => self.join(),
        }
    }

    fn join(&mut self) {
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The message of a panic payload.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}
