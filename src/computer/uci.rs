//! Fairy-Stockfish over UCI, for level 9 (ruleset `standard` only: Fairy-Stockfish's
//! `makruk` variant is what docs/RULES.md "Ruleset `standard`" describes).
//!
//! One engine process, started on the first request and kept for the next ones; requests take
//! turns. The protocol used: `uci` … `uciok` (checking that `UCI_Variant` offers `makruk`),
//! `setoption name UCI_Variant value makruk`, `isready` … `readyok`, then per move
//! `position fen <start FEN> moves <UCI moves>` and `go movetime <ms>` … `bestmove <move>`.
//! Moves are written and read as in [`makruk::uci`] (`e3e4`, `d5c6m`), and the answer is
//! checked against the position's legal moves. A process that exited is started again; one
//! whose search was abandoned (a timeout, a cancelled request) is killed, never reused, so no
//! stale `bestmove` can be taken for the next answer.

use std::io;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use makruk::{Game, Move, Position, Ruleset};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::Mutex;

/// Where Fairy-Stockfish is and how long it may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciSettings {
    /// The executable (`FAIRY_STOCKFISH_PATH`). Default `/usr/games/fairy-stockfish`, where
    /// Debian's `fairy-stockfish` package installs it.
    pub path: PathBuf,
    /// The think time of each move (`go movetime`). Default 1 s, pychess's movetime for its
    /// strongest level.
    pub movetime: Duration,
    /// How long starting the process may take, up to `readyok`. Default 10 s.
    pub start_timeout: Duration,
    /// How long past `movetime` to wait for `bestmove` before giving up on the process.
    /// Default 5 s.
    pub grace: Duration,
}

impl Default for UciSettings {
    fn default() -> UciSettings {
        UciSettings {
            path: PathBuf::from("/usr/games/fairy-stockfish"),
            movetime: Duration::from_secs(1),
            start_timeout: Duration::from_secs(10),
            grace: Duration::from_secs(5),
        }
    }
}

/// Why Fairy-Stockfish gave no move.
#[derive(Debug, thiserror::Error)]
pub enum UciError {
    /// Nothing to run at the configured path: level 9 is not available on this host.
    #[error("Fairy-Stockfish is not installed at {}", path.display())]
    NotInstalled {
        /// The configured path.
        path: PathBuf,
    },
    /// The executable exists but could not be started (permissions, not an executable).
    #[error("cannot start Fairy-Stockfish at {}: {source}", path.display())]
    Start {
        /// The configured path.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// The program answers UCI but offers no `makruk` variant (e.g. a plain Stockfish).
    #[error("the engine at {} does not play Makruk", path.display())]
    NoMakruk {
        /// The configured path.
        path: PathBuf,
    },
    /// The program does not offer the game's variant (`UCI_Variant`).
    #[error("the engine at {} does not play {variant}", path.display())]
    NoVariant {
        /// The configured path.
        path: PathBuf,
        /// The variant asked for.
        variant: makruk::Variant,
    },
    /// Fairy-Stockfish plays the `standard` ruleset only.
    #[error("Fairy-Stockfish plays only the standard rules, not {0}")]
    Ruleset(Ruleset),
    /// The side to move has no legal move: there is nothing to ask.
    #[error("the side to move has no legal move")]
    NoLegalMove,
    /// The process did not answer in time; it was killed.
    #[error("Fairy-Stockfish did not answer {waiting_for} within {within:?}")]
    Timeout {
        /// The answer awaited (`uciok`, `readyok`, `bestmove`).
        waiting_for: &'static str,
        /// How long it was given.
        within: Duration,
    },
    /// The process exited (or closed its output) in the middle of the exchange.
    #[error("Fairy-Stockfish exited unexpectedly")]
    Exited,
    /// Reading from or writing to the process failed.
    #[error("talking to Fairy-Stockfish: {0}")]
    Io(#[from] io::Error),
    /// The answer is not a legal move of the position (`(none)` included).
    #[error("Fairy-Stockfish answered {answer:?}, which is not a legal move here")]
    BadMove {
        /// The text after `bestmove`.
        answer: String,
    },
}

/// A Fairy-Stockfish process for level 9, started when first needed. Share it behind an
/// `Arc`; concurrent requests wait for each other (each takes at most about
/// [`UciSettings::movetime`]). Dropping it kills the process.
pub struct FairyStockfish {
    settings: UciSettings,
    process: Mutex<Option<Process>>,
}

impl FairyStockfish {
    /// A client for the engine at `settings.path`; nothing is started yet.
    #[must_use]
    pub fn new(settings: UciSettings) -> FairyStockfish {
        FairyStockfish {
            settings,
            process: Mutex::new(None),
        }
    }

    /// Whether a file exists at the configured path (a quick check to offer level 9 or not;
    /// [`FairyStockfish::best_move`] reports the real failure).
    #[must_use]
    pub fn is_installed(&self) -> bool {
        self.settings.path.is_file()
    }

    /// Fairy-Stockfish's move for the side to move in `game`, after thinking
    /// [`UciSettings::movetime`]. A process that died since the last request is restarted
    /// (and one request retried once on a fresh process if the old one fails mid-way).
    /// Dropping the future abandons the search and kills the process.
    ///
    /// # Errors
    /// [`UciError::Ruleset`] unless the game is played under `standard`,
    /// [`UciError::NoLegalMove`], [`UciError::NotInstalled`] when nothing is at the path,
    /// and the other [`UciError`]s when the process fails or answers nonsense.
    pub async fn best_move(&self, game: &Game) -> Result<Move, UciError> {
        let ruleset = game.ruleset();
        if ruleset != Ruleset::Standard {
            return Err(UciError::Ruleset(ruleset));
        }
        let pos = game.position();
        if !pos.has_legal_move() {
            return Err(UciError::NoLegalMove);
        }
        let command = position_command(game);
        let mut slot = self.process.lock().await;
        let running = slot.take().and_then(|mut p| p.is_running().then_some(p));
        let (mut process, reused) = match running {
            Some(p) => (p, true),
            None => (Process::start(&self.settings).await?, false),
        };
        let variant = game.start().variant();
        let answer = match process.best_move(variant, &command, &self.settings).await {
            Ok(answer) => answer,
            Err(e @ (UciError::Exited | UciError::Io(_))) if reused => {
                tracing::warn!(error = %e, "Fairy-Stockfish failed; starting it again");
                process = Process::start(&self.settings).await?;
                process.best_move(variant, &command, &self.settings).await?
            }
            Err(e @ UciError::NoVariant { .. }) => {
                // The process is healthy: keep it for the next request.
                *slot = Some(process);
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        *slot = Some(process);
        parse_best_move(pos, &answer)
    }
}

/// The `position` command for `game`: its start position and every move since (in the
/// variant's UCI: drops `R@a1`), so that Fairy-Stockfish sees the repetitions. Under `standard` nobody requests a count, so the
/// start FEN (with its counting fields) and the moves give the whole state.
fn position_command(game: &Game) -> String {
    let mut command = format!("position fen {}", game.start().fen());
    if !game.moves().is_empty() {
        command.push_str(" moves");
        for m in game.moves() {
            command.push(' ');
            command.push_str(&makruk::uci::to_uci_in(m, game.start().variant()));
        }
    }
    command
}

/// The legal move of `pos` that `answer` (the word after `bestmove`) names.
fn parse_best_move(pos: &Position, answer: &str) -> Result<Move, UciError> {
    makruk::parse_uci(pos, answer).map_err(|_| UciError::BadMove {
        answer: answer.to_owned(),
    })
}

/// A running engine process that finished its handshake and is not searching.
struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    /// The variants the program offers (`UCI_Variant`'s `var` words).
    offered: Vec<String>,
    /// The variant selected now.
    variant: makruk::Variant,
    /// The configured path (for errors).
    path: PathBuf,
}

impl Process {
    /// Starts the engine and selects Makruk.
    async fn start(s: &UciSettings) -> Result<Process, UciError> {
        let mut child = Command::new(&s.path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| match source.kind() {
                io::ErrorKind::NotFound => UciError::NotInstalled {
                    path: s.path.clone(),
                },
                _ => UciError::Start {
                    path: s.path.clone(),
                    source,
                },
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(UciError::Io(io::Error::other(
                "the engine's pipes are missing",
            )));
        };
        let mut p = Process {
            child,
            stdin,
            stdout: BufReader::new(stdout).lines(),
            offered: Vec::new(),
            variant: makruk::Variant::Makruk,
            path: s.path.clone(),
        };
        p.send("uci").await?;
        let mut offered = Vec::new();
        p.read_until("uciok", s.start_timeout, |line| {
            // `option name UCI_Variant type combo default chess var … var makruk …`
            if line.starts_with("option name UCI_Variant ") {
                let mut words = line.split_whitespace();
                while let Some(word) = words.next() {
                    if word == "var" {
                        offered.extend(words.next().map(str::to_owned));
                    }
                }
            }
            line == "uciok"
        })
        .await?;
        p.offered = offered;
        if !p.offered.iter().any(|v| v == "makruk") {
            return Err(UciError::NoMakruk {
                path: s.path.clone(),
            });
        }
        p.send("setoption name UCI_Variant value makruk\nisready")
            .await?;
        p.read_until("readyok", s.start_timeout, |line| line == "readyok")
            .await?;
        tracing::info!(path = %s.path.display(), "Fairy-Stockfish started");
        Ok(p)
    }

    fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Selects `variant` (unless it is selected already), sends `position` and `go movetime`;
    /// returns the word after `bestmove`.
    async fn best_move(
        &mut self,
        variant: makruk::Variant,
        position: &str,
        s: &UciSettings,
    ) -> Result<String, UciError> {
        if variant != self.variant {
            if !self.offered.iter().any(|v| v == variant.name()) {
                return Err(UciError::NoVariant {
                    path: self.path.clone(),
                    variant,
                });
            }
            self.send(&format!(
                "setoption name UCI_Variant value {}\nisready",
                variant.name()
            ))
            .await?;
            self.read_until("readyok", s.start_timeout, |line| line == "readyok")
                .await?;
            self.variant = variant;
        }
        let ms = s.movetime.as_millis().max(1);
        self.send(&format!("{position}\ngo movetime {ms}")).await?;
        let line = self
            .read_until("bestmove", s.movetime + s.grace, |line| {
                line.starts_with("bestmove")
            })
            .await?;
        Ok(line
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_owned())
    }

    async fn send(&mut self, lines: &str) -> Result<(), UciError> {
        tracing::trace!(to_engine = lines);
        self.stdin
            .write_all(format!("{lines}\n").as_bytes())
            .await
            .map_err(write_error)?;
        self.stdin.flush().await.map_err(write_error)
    }

    /// Reads lines until `done` says one is the awaited answer (`waiting_for`, for the timeout's
    /// error), and returns that line (trimmed); [`UciError::Timeout`] after `within`,
    /// [`UciError::Exited`] when the process ends first.
    async fn read_until(
        &mut self,
        waiting_for: &'static str,
        within: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, UciError> {
        let read = async {
            loop {
                let Some(line) = self.stdout.next_line().await? else {
                    return Err(UciError::Exited);
                };
                let line = line.trim();
                if done(line) {
                    return Ok(line.to_owned());
                }
            }
        };
        tokio::time::timeout(within, read)
            .await
            .map_err(|_| UciError::Timeout {
                waiting_for,
                within,
            })?
    }
}

/// A write to a process that has exited fails with a broken pipe: report it as an exit.
fn write_error(e: io::Error) -> UciError {
    if e.kind() == io::ErrorKind::BrokenPipe {
        UciError::Exited
    } else {
        UciError::Io(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use std::sync::OnceLock;

    /// The fake engines, all written before any is started: a process forked by another test
    /// while a script is still open for writing would make starting that script fail with
    /// "text file busy".
    fn fakes() -> &'static Path {
        static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
        DIR.get_or_init(|| {
            let dir = tempfile::tempdir().expect("temporary directory");
            let variants = "option name UCI_Variant type combo default chess var chess var makruk";
            let fakes = [
                (
                    "good",
                    variants,
                    r#"echo "info depth 1 score cp 0"; echo "bestmove e6e5 ponder a3a4""#,
                ),
                ("opening", variants, r#"echo "bestmove e3e4""#),
                (
                    "plain",
                    "option name Hash type spin default 16 min 1 max 1024",
                    "echo bestmove e2e4",
                ),
                ("silent", variants, ":"),
                ("once", variants, r#"echo "bestmove e3e4"; exit 0"#),
                ("illegal", variants, r#"echo "bestmove e3e5""#),
                ("none", variants, r#"echo "bestmove (none)""#),
                // Silent on its first search ever, then answers.
                (
                    "late",
                    variants,
                    r#"if [ -e "$0.seen" ]; then echo "bestmove e3e4"; else touch "$0.seen"; fi"#,
                ),
            ];
            for (name, option, on_go) in fakes {
                let script = format!(
                    "#!/bin/sh\n\
                     echo started >> \"$0.log\"\n\
                     while IFS= read -r line; do\n\
                     echo \"$line\" >> \"$0.log\"\n\
                     case \"$line\" in\n\
                     uci) echo \"id name Fake\"; echo \"{option}\"; echo uciok ;;\n\
                     isready) echo readyok ;;\n\
                     go*) {on_go} ;;\n\
                     quit) exit 0 ;;\n\
                     esac\n\
                     done\n"
                );
                let path = dir.path().join(name);
                std::fs::write(&path, script).expect("write fake engine");
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                    .expect("make it executable");
            }
            dir
        })
        .path()
    }

    fn settings(fake: &str) -> UciSettings {
        UciSettings {
            path: fakes().join(fake),
            movetime: Duration::from_millis(100),
            start_timeout: Duration::from_secs(10),
            grace: Duration::from_secs(10),
        }
    }

    /// What the fake `name` was sent, one line each, with `started` where a process began.
    fn log(fake: &str) -> Vec<String> {
        std::fs::read_to_string(fakes().join(format!("{fake}.log")))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    fn starts(fake: &str) -> usize {
        log(fake).iter().filter(|l| *l == "started").count()
    }

    fn standard() -> Game {
        Game::new(Ruleset::Standard)
    }

    fn after(moves: &[&str]) -> Game {
        let mut g = standard();
        for m in moves {
            let m = makruk::parse_uci(g.position(), m).expect("legal");
            g.play(&m).expect("legal");
        }
        g
    }

    #[tokio::test]
    async fn plays_the_answer_and_keeps_the_process() {
        let fs = FairyStockfish::new(settings("good"));
        assert!(fs.is_installed());
        let g = after(&["a3a4"]);
        let m = fs.best_move(&g).await.expect("a move");
        assert_eq!(makruk::uci::to_uci(&m), "e6e5");
        assert!(g.position().is_legal(&m));
        let g = after(&["a3a4", "d6d5", "b3b4"]);
        let m = fs.best_move(&g).await.expect("a move");
        assert_eq!(makruk::uci::to_uci(&m), "e6e5");

        let start = standard().start().fen();
        assert_eq!(
            log("good"),
            [
                "started".to_owned(),
                "uci".to_owned(),
                "setoption name UCI_Variant value makruk".to_owned(),
                "isready".to_owned(),
                format!("position fen {start} moves a3a4"),
                "go movetime 100".to_owned(),
                format!("position fen {start} moves a3a4 d6d5 b3b4"),
                "go movetime 100".to_owned(),
            ]
        );
    }

    #[tokio::test]
    async fn the_start_position_is_sent_without_moves() {
        let fs = FairyStockfish::new(settings("opening"));
        let m = fs.best_move(&standard()).await.expect("a move");
        assert_eq!(makruk::uci::to_uci(&m), "e3e4");
        let start = standard().start().fen();
        assert!(log("opening").contains(&format!("position fen {start}")));
    }

    #[tokio::test]
    async fn a_process_that_died_is_started_again() {
        let fs = FairyStockfish::new(settings("once"));
        for _ in 0..3 {
            let m = fs.best_move(&standard()).await.expect("a move");
            assert_eq!(makruk::uci::to_uci(&m), "e3e4");
        }
        assert_eq!(starts("once"), 3);
    }

    #[tokio::test]
    async fn a_silent_engine_times_out_and_is_replaced() {
        let fs = FairyStockfish::new(UciSettings {
            grace: Duration::from_millis(200),
            ..settings("silent")
        });
        for _ in 0..2 {
            let e = fs.best_move(&standard()).await.expect_err("no answer");
            assert!(
                matches!(
                    e,
                    UciError::Timeout {
                        waiting_for: "bestmove",
                        ..
                    }
                ),
                "{e:?}"
            );
        }
        assert_eq!(starts("silent"), 2, "a timed-out process is never reused");
    }

    #[tokio::test]
    async fn a_cancelled_search_is_not_reused() {
        let fs = FairyStockfish::new(settings("late"));
        let cancelled =
            tokio::time::timeout(Duration::from_millis(500), fs.best_move(&standard())).await;
        assert!(cancelled.is_err(), "the first search never answers");
        let m = fs.best_move(&standard()).await.expect("a move");
        assert_eq!(makruk::uci::to_uci(&m), "e3e4");
        assert_eq!(starts("late"), 2);
    }

    #[tokio::test]
    async fn answers_that_are_not_legal_moves_are_refused() {
        for fake in ["illegal", "none"] {
            let fs = FairyStockfish::new(settings(fake));
            let e = fs.best_move(&standard()).await.expect_err("not legal");
            let answer = if fake == "none" { "(none)" } else { "e3e5" };
            assert!(
                matches!(&e, UciError::BadMove { answer: a } if a == answer),
                "{e:?}"
            );
        }
    }

    #[tokio::test]
    async fn an_engine_without_makruk_is_refused() {
        let fs = FairyStockfish::new(settings("plain"));
        let e = fs.best_move(&standard()).await.expect_err("no makruk");
        assert!(matches!(e, UciError::NoMakruk { .. }), "{e:?}");
        assert!(!log("plain").iter().any(|l| l.starts_with("go")));
    }

    #[tokio::test]
    async fn not_installed_is_its_own_error() {
        let path = fakes().join("missing");
        let fs = FairyStockfish::new(UciSettings {
            path: path.clone(),
            ..UciSettings::default()
        });
        assert!(!fs.is_installed());
        let e = fs.best_move(&standard()).await.expect_err("nothing there");
        assert!(
            matches!(&e, UciError::NotInstalled { path: p } if *p == path),
            "{e:?}"
        );
    }

    #[tokio::test]
    async fn other_rulesets_and_finished_games_ask_nothing() {
        let fs = FairyStockfish::new(settings("missing"));
        let e = fs
            .best_move(&Game::new(Ruleset::Traditional))
            .await
            .expect_err("standard only");
        assert!(
            matches!(e, UciError::Ruleset(Ruleset::Traditional)),
            "{e:?}"
        );
        let mated =
            Position::from_fen("4k3/8/8/8/8/8/PP6/K6r w - - 0 1", Ruleset::Standard).expect("FEN");
        let e = fs
            .best_move(&Game::from_position(mated))
            .await
            .expect_err("no move to find");
        assert!(matches!(e, UciError::NoLegalMove), "{e:?}");
    }

    /// Against the real Fairy-Stockfish when it is installed (Debian: `fairy-stockfish`).
    #[tokio::test]
    async fn real_fairy_stockfish_when_installed() {
        let s = UciSettings {
            movetime: Duration::from_millis(100),
            ..UciSettings::default()
        };
        if !s.path.is_file() {
            eprintln!("skipped: no Fairy-Stockfish at {}", s.path.display());
            return;
        }
        let fs = FairyStockfish::new(s);
        let g = after(&["c3c4", "f6f5", "b1d2"]);
        let m = fs.best_move(&g).await.expect("a move");
        assert!(g.position().is_legal(&m));
        // A running pieces' honour count (its fields in the FEN): Black's bare Khun.
        let counting = Position::from_fen("4k3/8/8/R7/8/8/1R6/4K3 b - 16 8 1", Ruleset::Standard)
            .expect("FEN");
        let g = Game::from_position(counting);
        let m = fs.best_move(&g).await.expect("a move");
        assert!(g.position().is_legal(&m));
        // The only legal move promotes a Bia (the Khun on h1 is boxed in by two Ruea).
        let promote =
            Position::from_fen("k5r1/8/8/4P3/8/8/r7/7K w - - 0 1", Ruleset::Standard).expect("FEN");
        assert_eq!(promote.legal_moves().iter().count(), 1);
        let g = Game::from_position(promote);
        let m = fs.best_move(&g).await.expect("a move");
        assert!(m.promotion);
        assert!(g.position().is_legal(&m));
    }
}
