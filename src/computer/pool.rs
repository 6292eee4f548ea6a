//! The thinking pool: searches run on a fixed set of OS threads of their own (never on the
//! async runtime's workers nor its blocking pool, which the renderer and the database share),
//! at most [`Settings::threads`] at once; further requests wait in a FIFO queue.
//!
//! Game analyses ([`Pool::analyse`]) wait in a queue of their own, below every move, draw and
//! count request: a worker takes one only when no request waits, and while it analyses it
//! answers each request that arrives between two of the analysis' positions (one position's
//! search, about 100 ms at the default budget), so an analysis never makes a computer
//! opponent late. The analysis searches with an engine of its own (its own table, made on
//! first need), so the worker's brain is free to answer in between.
//!
//! Each worker owns one [`Brain`] (for the real bot: our engine with its own transposition
//! table), made on the worker's first request. [`Pool::think`] returns a [`Thinking`] future;
//! dropping it, or [`Canceller::cancel`], raises the search's stop flag, so a request whose
//! game ended meanwhile stops (or never starts) and frees its worker.

use std::collections::VecDeque;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use makruk::{Color, CountAction, Game, Move};
use makruk_engine::analysis::{Analysis, Progress};
use makruk_engine::Engine;
use tokio::sync::{oneshot, watch};

use super::Settings;
use crate::types::ComputerLevel;

/// What plays: chooses moves and answers draw offers at a level. The pool calls it on a worker
/// thread, one request at a time; it may block for up to the budget it is given.
pub trait Brain: 'static {
    /// A move for the side to move in `game` at `level` (1 to 8), taking at most about
    /// `budget`, and returning soon after `stop` becomes true (with the best move found so far,
    /// or `None`). `None` also when the side to move has no legal move.
    fn choose(
        &mut self,
        game: &Game,
        level: u8,
        budget: Duration,
        stop: &AtomicBool,
    ) -> Option<Move>;

    /// Whether `side` in `game` (to move or not), playing at `level` (1 to 8), accepts a draw
    /// offered by its opponent.
    fn accepts_draw(&mut self, game: &Game, level: u8, side: Color) -> bool;

    /// Under `traditional`, whether the side to move starts or stops its board's-honour count
    /// before its move (`None`: neither). Default: [`makruk_engine::count_decision`].
    fn count_decision(&mut self, game: &Game) -> Option<CountAction> {
        makruk_engine::count_decision(game)
    }
}

/// A question for the computer.
#[derive(Clone, Debug)]
pub enum Request {
    /// Choose a move for the side to move.
    Move {
        /// The game so far (its history matters for repetitions and counting).
        game: Game,
        /// 1 to 8 ([`ComputerLevel::ENGINE`]).
        level: u8,
    },
    /// Answer the opponent's draw offer, as `side`.
    Draw {
        /// The game so far.
        game: Game,
        /// 1 to 8 ([`ComputerLevel::ENGINE`]).
        level: u8,
        /// The side that answers (to move or not).
        side: Color,
    },
    /// `traditional`: start or stop the board's-honour count before the move, as the side to
    /// move?
    Count {
        /// The game so far.
        game: Game,
        /// 1 to 8 ([`ComputerLevel::ENGINE`]).
        level: u8,
    },
}

impl Request {
    fn level(&self) -> u8 {
        match self {
            Request::Move { level, .. }
            | Request::Draw { level, .. }
            | Request::Count { level, .. } => *level,
        }
    }
}

/// The computer's answer to a [`Request`] of the same kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The move chosen: one of the position's legal moves.
    Move(Move),
    /// Whether the draw offer is accepted.
    Draw(bool),
    /// What to do about the count before the move (`None`: nothing).
    Count(Option<CountAction>),
}

/// Why the pool gave no [`Reply`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// The level is not one our engine plays.
    #[error("level {0} is not one of 1 to 8")]
    Level(u8),
    /// Too many requests wait already ([`Settings::max_queued`]).
    #[error("the computer is busy: {0} requests are waiting")]
    Busy(usize),
    /// The request was cancelled before it was answered.
    #[error("the request was cancelled")]
    Cancelled,
    /// The brain gave no move, or one that is not legal here: there is no legal move, or the
    /// brain is wrong (the caller should not play it).
    #[error("the computer found no legal move")]
    NoMove,
    /// The brain panicked while thinking (logged); the worker made itself a new one.
    #[error("the computer failed while thinking")]
    Failed,
    /// The pool is shutting down.
    #[error("the computer is shutting down")]
    Closed,
}

/// A pool of worker threads, each owning a [`Brain`]. Share it behind an `Arc`; dropping it
/// lets the workers finish the search they are running (at most a budget) and exit, and
/// answers every waiting request with [`PoolError::Closed`].
pub struct Pool {
    shared: Arc<Shared>,
    budgets: [Duration; 8],
    max_queued: usize,
}

/// The pending answer to [`Pool::analyse`]: a future of the analysis, and its progress.
/// Dropping it before it resolves gives the analysis up (a queued one never starts, a
/// running one stops within a search).
#[must_use = "dropping an Analysing gives the analysis up"]
pub struct Analysing {
    reply: oneshot::Receiver<Result<Box<Analysis>, PoolError>>,
    progress: watch::Receiver<Progress>,
    stop: Arc<AtomicBool>,
}

impl Analysing {
    /// The positions searched so far and the positions of the game (`searched` stays 0 while
    /// the analysis waits for a worker); it changes after each search.
    pub fn progress(&self) -> watch::Receiver<Progress> {
        self.progress.clone()
    }
}

impl Future for Analysing {
    type Output = Result<Box<Analysis>, PoolError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.reply)
            .poll(cx)
            .map(|r| r.unwrap_or(Err(PoolError::Failed)))
    }
}

impl Drop for Analysing {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

struct Queue {
    jobs: VecDeque<Job>,
    analyses: VecDeque<AnalysisJob>,
    closed: bool,
}

/// A game to analyse ([`Pool::analyse`]).
struct AnalysisJob {
    game: Game,
    nodes: u64,
    stop: Arc<AtomicBool>,
    progress: watch::Sender<Progress>,
    reply: oneshot::Sender<Result<Box<Analysis>, PoolError>>,
}

/// What a worker does next.
enum Work {
    Request(Job),
    Analysis(AnalysisJob),
}

struct Job {
    request: Request,
    budget: Duration,
    stop: Arc<AtomicBool>,
    reply: oneshot::Sender<Result<Reply, PoolError>>,
    queued_at: Instant,
}

impl Pool {
    /// Starts `settings.threads` workers (at least one), named `engine-<n>`; each calls
    /// `make_brain` on its first request (and again after its brain panicked).
    ///
    /// # Errors
    /// The operating system's error when a thread cannot be started.
    pub fn new<B, F>(settings: &Settings, make_brain: F) -> std::io::Result<Pool>
    where
        B: Brain,
        F: Fn() -> B + Send + Sync + 'static,
    {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                jobs: VecDeque::new(),
                analyses: VecDeque::new(),
                closed: false,
            }),
            ready: Condvar::new(),
        });
        let pool = Pool {
            shared: Arc::clone(&shared),
            budgets: settings.budgets,
            max_queued: settings.max_queued,
        };
        let make_brain = Arc::new(make_brain);
        let hash_mb = settings.hash_mb;
        for n in 0..settings.threads.max(1) {
            let shared = Arc::clone(&shared);
            let make_brain = Arc::clone(&make_brain);
            // On failure `pool` is dropped, which closes the queue and ends the workers
            // already started.
            std::thread::Builder::new()
                .name(format!("engine-{n}"))
                .spawn(move || work(&shared, &*make_brain, hash_mb))?;
        }
        Ok(pool)
    }

    /// Queues `request`. The returned future resolves to the reply; dropping it cancels the
    /// request (see [`Thinking`]). It never blocks: an invalid level, a full queue or a closed
    /// pool resolve at once to [`PoolError::Level`], [`PoolError::Busy`], [`PoolError::Closed`].
    pub fn think(&self, request: Request) -> Thinking {
        let level = request.level();
        // An invalid level is refused by `think_within`; its budget does not matter.
        let budget = self.budgets[usize::from(level.clamp(1, 8) - 1)];
        self.think_within(request, budget)
    }

    /// [`Pool::think`] with a move's think time of `budget` instead of the level's budget of
    /// [`Settings::budgets`] (the caller's time management, e.g. a clock).
    pub fn think_within(&self, request: Request, budget: Duration) -> Thinking {
        let (tx, rx) = oneshot::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let thinking = Thinking {
            reply: rx,
            stop: Arc::clone(&stop),
        };
        let level = request.level();
        if !ComputerLevel::ENGINE.contains(&level) {
            let _ = tx.send(Err(PoolError::Level(level)));
            return thinking;
        }
        let mut queue = self.shared.lock();
        if queue.closed {
            let _ = tx.send(Err(PoolError::Closed));
        } else if queue.jobs.len() >= self.max_queued {
            let _ = tx.send(Err(PoolError::Busy(queue.jobs.len())));
        } else {
            queue.jobs.push_back(Job {
                request,
                budget,
                stop,
                reply: tx,
                queued_at: Instant::now(),
            });
            self.shared.ready.notify_one();
        }
        thinking
    }

    /// Analyses `game` ([`makruk_engine::analysis::analyse`], `nodes` nodes per position),
    /// below every other request (see the module docs). Never blocks: a full queue
    /// ([`Settings::max_queued`] analyses waiting) or a closed pool resolve at once to
    /// [`PoolError::Busy`] or [`PoolError::Closed`]; a panic of the analysis to
    /// [`PoolError::Failed`]. Dropping the returned [`Analysing`] gives the analysis up.
    pub fn analyse(&self, game: Game, nodes: u64) -> Analysing {
        let (tx, rx) = oneshot::channel();
        let total = game.moves().len() + 1;
        let (progress, progress_rx) = watch::channel(Progress { searched: 0, total });
        let stop = Arc::new(AtomicBool::new(false));
        let analysing = Analysing {
            reply: rx,
            progress: progress_rx,
            stop: Arc::clone(&stop),
        };
        let mut queue = self.shared.lock();
        if queue.closed {
            let _ = tx.send(Err(PoolError::Closed));
        } else if queue.analyses.len() >= self.max_queued {
            let _ = tx.send(Err(PoolError::Busy(queue.analyses.len())));
        } else {
            queue.analyses.push_back(AnalysisJob {
                game,
                nodes,
                stop,
                progress,
                reply: tx,
            });
            self.shared.ready.notify_one();
        }
        analysing
    }

    /// A move for the side to move in `game` at `level` (1 to 8). Dropping the future cancels
    /// the search.
    ///
    /// # Errors
    /// [`PoolError`]: an invalid level, a busy or closed pool, no legal move, a failed search.
    pub async fn choose_move(&self, game: Game, level: u8) -> Result<Move, PoolError> {
        let budget = self.budgets[usize::from(level.clamp(1, 8) - 1)];
        self.choose_move_within(game, level, budget).await
    }

    /// [`Pool::choose_move`] thinking at most `budget` (see [`Pool::think_within`]).
    ///
    /// # Errors
    /// As [`Pool::choose_move`].
    pub async fn choose_move_within(
        &self,
        game: Game,
        level: u8,
        budget: Duration,
    ) -> Result<Move, PoolError> {
        match self
            .think_within(Request::Move { game, level }, budget)
            .await?
        {
            Reply::Move(m) => Ok(m),
            _ => unreachable!("a move request is answered with a move"),
        }
    }

    /// `traditional`: whether the side to move in `game`, at `level`, starts or stops its
    /// board's-honour count before its move (`None`: neither; always under other rulesets).
    ///
    /// # Errors
    /// [`PoolError`]: an invalid level, a busy or closed pool, a failed search.
    pub async fn count_decision(
        &self,
        game: Game,
        level: u8,
    ) -> Result<Option<CountAction>, PoolError> {
        match self.think(Request::Count { game, level }).await? {
            Reply::Count(action) => Ok(action),
            _ => unreachable!("a count request is answered with a count action"),
        }
    }

    /// Whether the side to move in `game`, at `level` (1 to 8), accepts its opponent's draw
    /// offer.
    ///
    /// # Errors
    /// [`PoolError`]: an invalid level, a busy or closed pool, a failed search.
    pub async fn accepts_draw(&self, game: Game, level: u8) -> Result<bool, PoolError> {
        let side = game.position().turn();
        self.accepts_draw_as(game, level, side).await
    }

    /// Whether `side` (to move or not) in `game`, at `level` (1 to 8), accepts its opponent's
    /// draw offer.
    ///
    /// # Errors
    /// As [`Pool::accepts_draw`].
    pub async fn accepts_draw_as(
        &self,
        game: Game,
        level: u8,
        side: Color,
    ) -> Result<bool, PoolError> {
        match self.think(Request::Draw { game, level, side }).await? {
            Reply::Draw(yes) => Ok(yes),
            _ => unreachable!("a draw request is answered with yes or no"),
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let (waiting, analyses) = {
            let mut queue = self.shared.lock();
            queue.closed = true;
            (
                std::mem::take(&mut queue.jobs),
                std::mem::take(&mut queue.analyses),
            )
        };
        self.shared.ready.notify_all();
        for job in waiting {
            let _ = job.reply.send(Err(PoolError::Closed));
        }
        for job in analyses {
            let _ = job.reply.send(Err(PoolError::Closed));
        }
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        // The lock is never held across a search or a call that can panic, so a poisoned
        // queue is still consistent.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next work: the oldest request, else the oldest analysis; `None` once the pool is
    /// closed.
    fn next_work(&self) -> Option<Work> {
        let mut queue = self.lock();
        loop {
            if queue.closed {
                return None;
            }
            if let Some(job) = queue.jobs.pop_front() {
                return Some(Work::Request(job));
            }
            if let Some(job) = queue.analyses.pop_front() {
                return Some(Work::Analysis(job));
            }
            queue = self
                .ready
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// The oldest waiting request, if any (an analysing worker's look between two positions).
    fn waiting_request(&self) -> Option<Job> {
        self.lock().jobs.pop_front()
    }
}

/// A worker thread's loop: take the next work, do it, until the pool closes. `hash_mb`: the
/// table of the engine analyses search with.
fn work<B: Brain>(shared: &Shared, make_brain: &dyn Fn() -> B, hash_mb: usize) {
    let mut brain: Option<B> = None;
    let mut analyser: Option<Engine> = None;
    while let Some(work) = shared.next_work() {
        match work {
            Work::Request(job) => serve(&mut brain, make_brain, job),
            Work::Analysis(job) => {
                if job.stop.load(Ordering::Relaxed) || job.reply.is_closed() {
                    let _ = job.reply.send(Err(PoolError::Cancelled));
                    continue;
                }
                let started = Instant::now();
                let engine = analyser.get_or_insert_with(|| Engine::new(hash_mb));
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    makruk_engine::analysis::analyse_until(
                        engine,
                        &job.game,
                        job.nodes,
                        &job.stop,
                        &mut |p| {
                            job.progress.send_replace(p);
                            // A game's move never waits for more than one position's search.
                            while let Some(request) = shared.waiting_request() {
                                serve(&mut brain, make_brain, request);
                            }
                        },
                    )
                }));
                let result = match outcome {
                    Ok(Some(analysis)) => Ok(Box::new(analysis)),
                    Ok(None) => Err(PoolError::Cancelled),
                    Err(_) => {
                        tracing::error!("the engine panicked while analysing");
                        analyser = None;
                        Err(PoolError::Failed)
                    }
                };
                tracing::debug!(
                    plies = job.game.moves().len(),
                    nodes = job.nodes,
                    took_ms = started.elapsed().as_millis() as u64,
                    ok = result.is_ok(),
                    "game analysed"
                );
                let _ = job.reply.send(result);
            }
        }
    }
}

/// Answers one request with the worker's brain (made now if it has none).
fn serve<B: Brain>(brain: &mut Option<B>, make_brain: &dyn Fn() -> B, job: Job) {
    let waited = job.queued_at.elapsed();
    if job.stop.load(Ordering::Relaxed) || job.reply.is_closed() {
        let _ = job.reply.send(Err(PoolError::Cancelled));
        return;
    }
    let started = Instant::now();
    let answer = catch_unwind(AssertUnwindSafe(|| {
        answer(brain.get_or_insert_with(make_brain), &job)
    }));
    let result = match answer {
        Ok(_) if job.stop.load(Ordering::Relaxed) => Err(PoolError::Cancelled),
        Ok(result) => result,
        Err(_) => {
            // The panic message went to stderr through the panic hook; a brain that
            // panicked may be inconsistent, so the next request gets a new one.
            tracing::error!(level = job.request.level(), "the engine panicked");
            *brain = None;
            Err(PoolError::Failed)
        }
    };
    tracing::debug!(
        level = job.request.level(),
        waited_ms = waited.as_millis() as u64,
        thought_ms = started.elapsed().as_millis() as u64,
        ok = result.is_ok(),
        "computer request answered"
    );
    let _ = job.reply.send(result);
}

fn answer<B: Brain>(brain: &mut B, job: &Job) -> Result<Reply, PoolError> {
    match &job.request {
        Request::Move { game, level } => brain
            .choose(game, *level, job.budget, &job.stop)
            .filter(|m| game.position().is_legal(m))
            .map(Reply::Move)
            .ok_or(PoolError::NoMove),
        Request::Draw { game, level, side } => {
            Ok(Reply::Draw(brain.accepts_draw(game, *level, *side)))
        }
        Request::Count { game, .. } => Ok(Reply::Count(brain.count_decision(game))),
    }
}

/// The pending answer to a [`Request`]: a future of `Result<Reply, PoolError>`. Dropping it
/// before it resolves cancels the request: a queued request is skipped, a running search is
/// told to stop.
#[must_use = "dropping a Thinking cancels the request"]
pub struct Thinking {
    reply: oneshot::Receiver<Result<Reply, PoolError>>,
    stop: Arc<AtomicBool>,
}

impl Thinking {
    /// A handle that cancels this request from elsewhere (the future then resolves to
    /// [`PoolError::Cancelled`]).
    pub fn canceller(&self) -> Canceller {
        Canceller(Arc::clone(&self.stop))
    }
}

impl Future for Thinking {
    type Output = Result<Reply, PoolError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // The sender is dropped unanswered only when its worker thread died.
        Pin::new(&mut self.reply)
            .poll(cx)
            .map(|r| r.unwrap_or(Err(PoolError::Failed)))
    }
}

impl Drop for Thinking {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Cancels one [`Request`]: see [`Thinking::canceller`].
#[derive(Clone, Debug)]
pub struct Canceller(Arc<AtomicBool>);

impl Canceller {
    /// Stops the search (or skips it if it has not started). The request's future resolves
    /// to [`PoolError::Cancelled`].
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// What the test brains saw, shared with the test.
    #[derive(Default)]
    struct Probe {
        running: AtomicUsize,
        most_running: AtomicUsize,
        started: Mutex<Vec<u8>>,
        stopped: AtomicUsize,
        made: AtomicUsize,
    }

    /// How a [`TestBrain`] spends its time before answering with the first legal move.
    #[derive(Copy, Clone)]
    enum Think {
        /// Sleep, in small steps, watching the stop flag.
        Sleep(Duration),
        /// Keep a core busy, watching the stop flag.
        Spin(Duration),
        /// Panic.
        Panic,
        /// Answer a move that is not legal.
        Illegal,
    }

    struct TestBrain {
        probe: Arc<Probe>,
        think: Think,
    }

    impl Brain for TestBrain {
        fn choose(
            &mut self,
            game: &Game,
            level: u8,
            _budget: Duration,
            stop: &AtomicBool,
        ) -> Option<Move> {
            let p = &self.probe;
            p.started.lock().unwrap().push(level);
            let now = p.running.fetch_add(1, Ordering::SeqCst) + 1;
            p.most_running.fetch_max(now, Ordering::SeqCst);
            let start = Instant::now();
            let (length, spin) = match self.think {
                Think::Sleep(d) => (d, false),
                Think::Spin(d) => (d, true),
                Think::Panic => panic!("test brain panics"),
                Think::Illegal => {
                    p.running.fetch_sub(1, Ordering::SeqCst);
                    let m = game.position().legal_moves()[0];
                    return Some(Move { to: m.from, ..m });
                }
            };
            while start.elapsed() < length && !stop.load(Ordering::Relaxed) {
                if spin {
                    std::hint::spin_loop();
                } else {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            if stop.load(Ordering::Relaxed) {
                p.stopped.fetch_add(1, Ordering::SeqCst);
            }
            p.running.fetch_sub(1, Ordering::SeqCst);
            game.position().legal_moves().iter().next().copied()
        }

        fn accepts_draw(&mut self, _game: &Game, _level: u8, side: Color) -> bool {
            side == Color::White
        }
    }

    fn test_pool(threads: usize, think: Think) -> (Pool, Arc<Probe>) {
        let settings = Settings {
            threads,
            ..Settings::default()
        };
        test_pool_with(&settings, think)
    }

    fn test_pool_with(settings: &Settings, think: Think) -> (Pool, Arc<Probe>) {
        let probe = Arc::new(Probe::default());
        let p = Arc::clone(&probe);
        let pool = Pool::new(settings, move || {
            p.made.fetch_add(1, Ordering::SeqCst);
            TestBrain {
                probe: Arc::clone(&p),
                think,
            }
        })
        .expect("threads start");
        (pool, probe)
    }

    fn game() -> Game {
        Game::new(makruk::Ruleset::Standard)
    }

    fn first_move() -> Move {
        game().position().legal_moves()[0]
    }

    #[tokio::test]
    async fn answers_moves_and_draw_offers() {
        let (pool, probe) = test_pool(1, Think::Sleep(Duration::ZERO));
        assert_eq!(pool.choose_move(game(), 3).await, Ok(first_move()));
        assert_eq!(pool.accepts_draw(game(), 8).await, Ok(true));
        let mut g = game();
        g.play(&first_move()).unwrap();
        assert_eq!(pool.accepts_draw(g, 1).await, Ok(false));
        assert_eq!(probe.made.load(Ordering::SeqCst), 1, "one brain per worker");
    }

    #[tokio::test]
    async fn refuses_levels_outside_one_to_eight() {
        let (pool, probe) = test_pool(1, Think::Sleep(Duration::ZERO));
        assert_eq!(pool.choose_move(game(), 0).await, Err(PoolError::Level(0)));
        assert_eq!(pool.accepts_draw(game(), 9).await, Err(PoolError::Level(9)));
        assert_eq!(probe.made.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn no_legal_move_and_illegal_answers_are_no_move() {
        let (pool, _) = test_pool(1, Think::Sleep(Duration::ZERO));
        // White is mated (a Ruea on the first rank, the Khun boxed in by its Bia): the brain
        // finds no move.
        let mated = makruk::Position::from_fen(
            "4k3/8/8/8/8/8/PP6/K6r w - - 0 1",
            makruk::Ruleset::Standard,
        )
        .expect("FEN");
        assert!(mated.is_checkmate());
        let g = Game::from_position(mated);
        assert_eq!(pool.choose_move(g, 2).await, Err(PoolError::NoMove));

        let (pool, _) = test_pool(1, Think::Illegal);
        assert_eq!(pool.choose_move(game(), 2).await, Err(PoolError::NoMove));
    }

    #[tokio::test]
    async fn never_more_than_the_cap_at_once() {
        let (pool, probe) = test_pool(2, Think::Sleep(Duration::from_millis(30)));
        let pool = Arc::new(pool);
        let tasks: Vec<_> = (1..=6)
            .map(|level| {
                let pool = Arc::clone(&pool);
                tokio::spawn(async move { pool.choose_move(game(), level).await })
            })
            .collect();
        for t in tasks {
            assert_eq!(t.await.unwrap(), Ok(first_move()));
        }
        assert_eq!(probe.most_running.load(Ordering::SeqCst), 2);
        assert_eq!(probe.made.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn queued_requests_run_in_order_and_the_queue_is_bounded() {
        let settings = Settings {
            threads: 1,
            max_queued: 4,
            ..Settings::default()
        };
        let (pool, probe) = test_pool_with(&settings, Think::Sleep(Duration::from_millis(20)));
        // One running (once the worker takes it) and four waiting fill the queue of 4.
        let first = pool.think(Request::Move {
            game: game(),
            level: 1,
        });
        while probe.running.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let queued: Vec<_> = (2..=5)
            .map(|level| {
                pool.think(Request::Move {
                    game: game(),
                    level,
                })
            })
            .collect();
        let refused = pool.think(Request::Move {
            game: game(),
            level: 6,
        });
        assert_eq!(refused.await, Err(PoolError::Busy(4)));
        assert_eq!(first.await, Ok(Reply::Move(first_move())));
        for q in queued {
            assert_eq!(q.await, Ok(Reply::Move(first_move())));
        }
        assert_eq!(*probe.started.lock().unwrap(), vec![1, 2, 3, 4, 5]);
    }

    #[tokio::test]
    async fn dropping_the_future_stops_the_search() {
        let (pool, probe) = test_pool(1, Think::Sleep(Duration::from_secs(30)));
        let thinking = pool.think(Request::Move {
            game: game(),
            level: 8,
        });
        while probe.running.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let t = Instant::now();
        drop(thinking);
        // The worker is free again: the next request is answered long before 30 s.
        let next = tokio::time::timeout(Duration::from_secs(5), pool.accepts_draw(game(), 4)).await;
        assert_eq!(next, Ok(Ok(true)));
        assert_eq!(probe.stopped.load(Ordering::SeqCst), 1);
        assert!(t.elapsed() < Duration::from_secs(5));
    }

    #[tokio::test]
    async fn a_cancelled_request_stops_or_never_starts() {
        let (pool, probe) = test_pool(1, Think::Sleep(Duration::from_secs(30)));
        let running = pool.think(Request::Move {
            game: game(),
            level: 1,
        });
        let waiting = pool.think(Request::Move {
            game: game(),
            level: 2,
        });
        while probe.running.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        waiting.canceller().cancel();
        running.canceller().cancel();
        assert_eq!(running.await, Err(PoolError::Cancelled));
        assert_eq!(waiting.await, Err(PoolError::Cancelled));
        assert_eq!(
            *probe.started.lock().unwrap(),
            vec![1],
            "level 2 never started"
        );
        assert_eq!(probe.stopped.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_panicking_brain_fails_one_request_and_is_replaced() {
        let (pool, probe) = test_pool(1, Think::Panic);
        assert_eq!(pool.choose_move(game(), 5).await, Err(PoolError::Failed));
        assert_eq!(pool.choose_move(game(), 5).await, Err(PoolError::Failed));
        assert_eq!(probe.made.load(Ordering::SeqCst), 2);
        // The worker survived: draw offers (which do not panic) are still answered.
        assert_eq!(pool.accepts_draw(game(), 5).await, Ok(true));
    }

    #[tokio::test]
    async fn dropping_the_pool_answers_waiting_requests() {
        let (pool, probe) = test_pool(1, Think::Sleep(Duration::from_millis(200)));
        let running = pool.think(Request::Move {
            game: game(),
            level: 1,
        });
        while probe.running.load(Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let waiting = pool.think(Request::Move {
            game: game(),
            level: 2,
        });
        drop(pool);
        assert_eq!(waiting.await, Err(PoolError::Closed));
        assert_eq!(running.await, Ok(Reply::Move(first_move())));
    }

    /// The async runtime keeps its pace while every worker is busy: a timer on a
    /// single-threaded runtime (which a search on the runtime's own thread would freeze for
    /// the whole search) fires on time, within a margin far below the search's length.
    #[tokio::test]
    async fn the_runtime_stays_responsive_while_the_pool_is_saturated() {
        let search = Duration::from_millis(1500);
        let (pool, probe) = test_pool(2, Think::Spin(search));
        let pool = Arc::new(pool);
        let searches: Vec<_> = (1..=4)
            .map(|level| {
                let pool = Arc::clone(&pool);
                tokio::spawn(async move { pool.choose_move(game(), level).await })
            })
            .collect();
        while probe.running.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let tick = Duration::from_millis(10);
        let mut worst = Duration::ZERO;
        for _ in 0..100 {
            let t = Instant::now();
            tokio::time::sleep(tick).await;
            worst = worst.max(t.elapsed().saturating_sub(tick));
            assert_eq!(probe.most_running.load(Ordering::SeqCst), 2);
        }
        assert!(
            worst < search / 3,
            "a 10 ms timer was {worst:?} late while searches ran"
        );
        assert!(
            probe.running.load(Ordering::SeqCst) > 0,
            "the ticks ran while the pool was busy"
        );
        for s in searches {
            assert_eq!(s.await.unwrap(), Ok(first_move()));
        }
    }

    /// A game of up to `plies` plies (fewer if it ends by the rules), of varied legal moves.
    fn played(plies: usize) -> Game {
        let mut g = game();
        for ply in 0..plies {
            if g.outcome().is_some() {
                break;
            }
            let moves = g.position().legal_moves();
            let m = moves[(ply * 7 + 3) % moves.len()];
            g.play(&m).expect("legal");
        }
        g
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_analysis_is_the_engines_and_reports_its_progress() {
        let (pool, _) = test_pool(1, Think::Sleep(Duration::ZERO));
        let g = played(6);
        let analysing = pool.analyse(g.clone(), 2_000);
        let progress = analysing.progress();
        let analysis = analysing.await.expect("analysed");
        let direct = makruk_engine::analysis::analyse(&mut Engine::new(16), &g, 2_000, &mut |_| {});
        assert_eq!(*analysis, direct);
        let last = *progress.borrow();
        assert_eq!(last.searched, last.total, "{last:?}");
        assert_eq!(last.total, 7);
    }

    /// One worker: a move asked while a long analysis runs is answered before the analysis
    /// ends, and a move queued before an analysis starts goes first.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn moves_go_before_analyses() {
        let (pool, probe) = test_pool(1, Think::Sleep(Duration::from_millis(30)));
        let pool = Arc::new(pool);
        // Queued behind a move: the analysis waits for it.
        let first = pool.think(Request::Move {
            game: game(),
            level: 1,
        });
        let analysing = pool.analyse(played(40), 20_000);
        let second = pool.think(Request::Move {
            game: game(),
            level: 2,
        });
        let mut progress = analysing.progress();
        assert!(first.await.is_ok());
        assert!(second.await.is_ok());
        assert_eq!(
            *probe.started.lock().unwrap(),
            [1, 2],
            "both moves before the analysis"
        );
        // Asked while the analysis runs: answered between two of its positions.
        progress
            .wait_for(|p| p.searched >= 2)
            .await
            .expect("the analysis runs");
        let third = pool.think(Request::Move {
            game: game(),
            level: 3,
        });
        assert!(third.await.is_ok());
        let at = *progress.borrow();
        assert!(
            at.searched < at.total,
            "the move waited for the whole analysis: {at:?}"
        );
        assert!(analysing.await.is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_analysis_stops() {
        let (pool, _) = test_pool(1, Think::Sleep(Duration::ZERO));
        let analysing = pool.analyse(played(60), 200_000);
        let mut progress = analysing.progress();
        progress
            .wait_for(|p| p.searched >= 1)
            .await
            .expect("started");
        drop(analysing);
        // The worker is free again: the next analysis (short) is answered.
        assert!(pool.analyse(played(2), 1_000).await.is_ok());
        let at = *progress.borrow();
        assert!(
            at.searched < at.total,
            "the dropped analysis went on: {at:?}"
        );
        drop(pool);
    }
}
