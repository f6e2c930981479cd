//! The worker thread that runs searches and perft while the command loop
//! keeps reading input (to answer `isready` and to hear `stop`).

use super::output::Output;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// Stack size of the worker thread: room for deep recursive searches.
const WORKER_STACK_BYTES: usize = 64 << 20;

/// The stop request of one job: a flag the search polls, and a way to wait for it.
#[derive(Default)]
pub struct StopSignal {
    flag: AtomicBool,
    raised: Mutex<bool>,
    wake: Condvar,
}

impl StopSignal {
    /// The flag the search and perft poll.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// Whether stop was requested.
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Requests the job to stop.
    pub fn raise(&self) {
        self.flag.store(true, Ordering::Relaxed);
        let mut raised = self.raised.lock().unwrap_or_else(|p| p.into_inner());
        *raised = true;
        self.wake.notify_all();
    }

    /// Blocks until stop is requested (an infinite search that finished
    /// early holds its `bestmove` back until then, as UCI requires).
    pub fn wait(&self) {
        let mut raised = self.raised.lock().unwrap_or_else(|p| p.into_inner());
        while !*raised {
            raised = self.wake.wait(raised).unwrap_or_else(|p| p.into_inner());
        }
    }
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

    /// Starts `task` on the worker thread. Should the task panic, an error
    /// line and the lines of `fallback` are printed instead of its final
    /// lines (so a `go` still gets its one `bestmove`).
    pub fn start<F>(&mut self, out: &Output, fallback: Vec<String>, task: F) -> Result<(), String>
    where
        F: FnOnce(&StopSignal, &Output) -> Vec<String> + Send + 'static,
    {
        if self.is_busy() {
            return Err("busy".to_string());
        }
        self.join();
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

    /// Asks the running job (if any) to stop and waits until it has printed
    /// its final lines.
    pub fn stop(&mut self) {
        self.signal.raise();
        self.join();
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
