//! The bodies of the fuzz targets, one public function per target: it takes libFuzzer's bytes,
//! feeds them to a reader or to the game service, and panics when a property fails (a panic
//! of the code under test is a finding too).
//!
//! The targets in `fuzz/fuzz_targets/` (the `makruk-fuzz` crate, built by cargo-fuzz on
//! nightly) call these functions; the main crate's `tests/fuzz_regressions.rs` calls them on
//! stable on every input of `fuzz/seeds/<target>/` and `fuzz/regressions/<target>/`, so a crash
//! found once stays fixed and the two cannot drift. This crate is a member of the main
//! workspace (checked by its clippy) and has no fuzzer dependency.

use std::sync::{Arc, OnceLock};

use makruk::pgn::{read_pgn, read_pgns, write_pgn_moves, PgnTags};
use makruk::san::{to_san, to_thai_san};
use makruk::{
    fen as fen_text, parse_move, parse_uci, uci, Move, MoveInputError, Position, Ruleset,
};
use makruk_bot::clock::{FakeTime, TimeControl};
use makruk_bot::game::Terms;
use makruk_bot::game::{
    ChallengeId, ChannelId, ColorChoice, GameId, GameService, OfferKind, Reply, ServiceError,
    UserId,
};
use makruk_bot::i18n::Locale;

use discord_standin::scenario::parse as scenario_parse;

/// Start positions for the move-text target: the initial position, a middlegame, endgames
/// with a Bia about to promote, a Bia-ngai, and a counting endgame.
const STARTS: &[&str] = &[
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "r1sm1snr/4k3/p1nppp1p/1pp3p1/4P3/P1PP1PP1/1P1N1K1P/R1SM1SNR w - - 0 9",
    "4k3/8/8/2P5/5p2/8/8/4K3 w - - 0 1",
    "4k3/8/3M~4/8/2p5/8/8/R3K3 b - - 0 1",
    "4k3/8/8/R7/8/8/1R6/4K3 b - 16 8 1",
];

/// A legal move written by the writers reads back as itself: SAN and UCI exactly, Thai SAN
/// exactly or as an ambiguity that names it (ข, ค and ง are letters and files).
fn check_reads_back(pos: &Position, m: &Move) {
    let san = to_san(pos, m);
    assert_eq!(parse_move(pos, &san), Ok(*m), "SAN {san} in {}", pos.fen());
    let u = uci::to_uci(m);
    assert_eq!(parse_move(pos, &u), Ok(*m), "UCI {u} in {}", pos.fen());
    assert_eq!(parse_uci(pos, &u), Ok(*m), "UCI {u} in {}", pos.fen());
    let thai = to_thai_san(pos, m);
    match parse_move(pos, &thai) {
        Ok(back) => assert_eq!(back, *m, "Thai {thai} in {}", pos.fen()),
        Err(MoveInputError::Ambiguous { candidates, .. }) => {
            assert!(candidates.contains(&san), "Thai {thai} in {}", pos.fen());
        }
        Err(e) => panic!("Thai {thai} in {}: {e}", pos.fen()),
    }
}

/// The FEN reader: a FEN that reads writes back to a FEN that reads to the same setup (and
/// the same text); a position that reads gives the same FEN, hash and moves again; its legal
/// moves agree with the counters, the mate and stalemate tests, and read back from their SAN,
/// UCI and Thai SAN.
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = fen_text::parse_board(text) {
        let written = board.board_fen();
        let again = fen_text::parse_board(&written)
            .unwrap_or_else(|e| panic!("placement {written:?} does not read back: {e}"));
        assert!(
            again == board,
            "placement {written:?} reads back differently"
        );
    }
    if let Ok(setup) = fen_text::parse(text) {
        let written = fen_text::write(&setup);
        let again = fen_text::parse(&written)
            .unwrap_or_else(|e| panic!("FEN {written:?} written from {text:?} does not read: {e}"));
        assert_eq!(again, setup, "FEN {written:?} reads back differently");
        assert_eq!(fen_text::write(&again), written);
    }
    let ruleset = Ruleset::ALL[data.len() % Ruleset::ALL.len()];
    let Ok(pos) = Position::from_fen(text, ruleset) else {
        return;
    };
    let written = pos.fen();
    let again = Position::from_fen(&written, ruleset)
        .unwrap_or_else(|e| panic!("FEN {written:?} of a valid position does not read: {e}"));
    assert_eq!(again.fen(), written);
    assert_eq!(again.zobrist(), pos.zobrist(), "{written}");
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), pos.count_legal(), "{written}");
    assert_eq!(pos.perft(1), moves.len() as u64, "{written}");
    assert_eq!(pos.has_legal_move(), !moves.is_empty(), "{written}");
    assert_eq!(pos.is_checkmate(), pos.is_check() && moves.is_empty());
    assert_eq!(pos.is_stalemate(), !pos.is_check() && moves.is_empty());
    for m in moves.iter() {
        assert!(pos.is_legal(m), "{m} in {written}");
        check_reads_back(&pos, m);
        let after = pos.after(m);
        let fen_after = after.fen();
        let back = Position::from_fen(&fen_after, ruleset).unwrap_or_else(|e| {
            panic!("FEN {fen_after:?} after {m} in {written} does not read: {e}")
        });
        assert_eq!(back.fen(), fen_after);
    }
}

/// The move-text reader (every notation: SAN, PlayOK, Thai, UCI): bytes before the first
/// `0xFF` pick legal moves from a start position, the rest is the text. A text that reads is a
/// legal move, and its SAN, UCI and Thai SAN read back as it; a refused text is quoted cut to
/// the limit, and its error has a text in both languages.
pub fn move_text(data: &[u8]) {
    let (picks, rest) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&[][..], data),
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (first, picks) = picks.split_first().unwrap_or((&0, &[][..]));
    let ruleset = Ruleset::ALL[usize::from(first >> 4) % Ruleset::ALL.len()];
    let mut pos = Position::from_fen(STARTS[usize::from(*first) % STARTS.len()], ruleset)
        .expect("the start positions are valid");
    for &p in picks.iter().take(200) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.get(usize::from(p) % moves.len()).copied();
        pos.play(&m.expect("an index below the length"))
            .expect("a legal move plays");
    }
    match parse_move(&pos, text) {
        Ok(m) => {
            assert!(
                pos.is_legal(&m),
                "{text:?} read as the illegal {m} in {}",
                pos.fen()
            );
            check_reads_back(&pos, &m);
        }
        Err(e) => {
            if let MoveInputError::Unreadable { input, .. } = &e {
                assert!(input.chars().count() <= makruk::MAX_MOVE_INPUT_CHARS);
            }
            if let MoveInputError::Ambiguous { candidates, .. } = &e {
                assert!(candidates.len() > 1, "{text:?} in {}: {e}", pos.fen());
            }
            let e = ServiceError::BadMove(e);
            let name = |u: UserId| format!("<@{}>", u.0);
            for locale in [Locale::En, Locale::Th] {
                assert!(!e.message(locale, &name).is_empty());
            }
        }
    }
    if let Ok(m) = parse_uci(&pos, text) {
        assert!(
            pos.is_legal(&m),
            "UCI {text:?} read as the illegal {m} in {}",
            pos.fen()
        );
    }
}

/// The PGN reader: any text reads or is refused without panic; a game whose moves replay
/// (under the ruleset of the first byte) is written as PGN by the writer and that text reads
/// and replays to the same start and moves.
pub fn pgn(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let ruleset = Ruleset::ALL[usize::from(first) % Ruleset::ALL.len()];
    let single = read_pgn(text);
    let Ok(games) = read_pgns(text) else {
        return;
    };
    if let Ok(game) = single {
        assert!(
            games.contains(&game),
            "read_pgn and read_pgns disagree on {text:?}"
        );
    }
    for game in games.iter().take(4) {
        let Ok(replay) = game.replay(ruleset) else {
            continue;
        };
        let start = replay.game.start().clone();
        let moves = replay.game.moves();
        let written = write_pgn_moves(&start, moves, &PgnTags::default(), "*");
        let back = read_pgn(&written)
            .unwrap_or_else(|e| panic!("written PGN does not read: {e}\n{written}"));
        let again = back
            .replay(ruleset)
            .unwrap_or_else(|e| panic!("written PGN does not replay: {e}\n{written}"));
        assert_eq!(again.game.start().fen(), start.fen(), "{written}");
        assert_eq!(again.game.moves(), moves, "{written}");
    }
}

/// The scenario reader: any text reads or is refused without panic, line by line: the whole
/// text reads exactly when every line does, into the steps of its lines in order.
pub fn scenario(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let whole = scenario_parse::steps(text);
    let mut steps = Vec::new();
    let mut failed = false;
    for (i, line) in text.lines().enumerate() {
        match scenario_parse::steps(line) {
            Ok(s) => steps.extend(s.into_iter().map(|(n, step)| {
                assert_eq!(n, 1);
                (i + 1, step)
            })),
            Err(_) => failed = true,
        }
        if failed {
            break;
        }
    }
    match whole {
        Ok(whole) => {
            assert!(!failed, "{text:?} reads but one of its lines does not");
            assert_eq!(whole, steps, "{text:?}");
        }
        Err(_) => assert!(failed, "{text:?} is refused but each of its lines reads"),
    }
}

/// The players and channels of the service target.
const USERS: [UserId; 3] = [UserId(11), UserId(12), UserId(13)];
const CHANNELS: [ChannelId; 2] = [ChannelId(21), ChannelId(22)];

/// A one-thread runtime kept for the process: a new one per input costs more than the input.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime")
    })
}

/// Bytes read one at a time; zeros once they run out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn pick<T: Copy>(&mut self, of: &[T]) -> T {
        of[usize::from(self.byte()) % of.len()]
    }

    /// Up to 63 bytes as text (invalid UTF-8 replaced).
    fn text(&mut self) -> String {
        let len = usize::from(self.byte() % 64).min(self.0.len());
        let (t, rest) = self.0.split_at(len);
        self.0 = rest;
        String::from_utf8_lossy(t).into_owned()
    }
}

/// Random commands against the game service on a fresh in-memory SQLite with a fake clock,
/// two channels, three players. After every command: no internal error; a refused command
/// (other than one that ends a game on time or finds a challenge expired) wrote nothing; every
/// game's stored FEN is its start replayed with its stored moves (plies, SAN and order agree);
/// at most one active game and one open challenge per channel; every answer has its text in
/// both languages.
pub fn service(data: &[u8]) {
    runtime().block_on(service_run(Bytes(data)));
}

async fn service_run(mut input: Bytes<'_>) {
    let time = Arc::new(FakeTime::new(1_700_000_000_000));
    let svc = GameService::open("sqlite::memory:")
        .await
        .expect("an in-memory database opens")
        .with_time(time.clone());
    for _ in 0..48 {
        if input.0.is_empty() {
            break;
        }
        let before = svc.store().dump().await.expect("dump");
        let (what, outcome) = command(&svc, &time, &mut input).await;
        match &outcome {
            Ok(texts) => {
                for t in texts {
                    assert!(!t.is_empty(), "{what}: an empty text");
                }
            }
            Err(e) => {
                assert!(e.is_user_error(), "{what}: {e:#}");
                let name = |u: UserId| format!("<@{}>", u.0);
                for locale in [Locale::En, Locale::Th] {
                    assert!(!e.message(locale, &name).is_empty());
                }
                if !matches!(
                    e,
                    ServiceError::TimedOut(_) | ServiceError::ChallengeExpired
                ) {
                    let after = svc.store().dump().await.expect("dump");
                    assert_eq!(before, after, "{what} was refused ({e}) but wrote");
                }
            }
        }
        check_store(&svc, &what).await;
    }
    svc.close().await;
}

/// Both languages' texts of a reply.
fn reply_texts(r: &Reply) -> Vec<String> {
    let name = |u: UserId| format!("<@{}>", u.0);
    vec![r.text(Locale::En, &name), r.text(Locale::Th, &name)]
}

/// One command read from `input`: its description and its answer's texts or its error.
async fn command(
    svc: &GameService,
    time: &FakeTime,
    input: &mut Bytes<'_>,
) -> (String, Result<Vec<String>, ServiceError>) {
    let op = input.byte() % 16;
    let ch = input.pick(&CHANNELS);
    let user = input.pick(&USERS);
    let name = |u: UserId| format!("<@{}>", u.0);
    let texts = |r: Result<Reply, ServiceError>| r.map(|r| reply_texts(&r));
    let kind = if input.byte() & 1 == 0 {
        OfferKind::Draw
    } else {
        OfferKind::Takeback
    };
    match op {
        0 | 1 => {
            let opponent = input.pick(&USERS);
            let color = input.pick(&[ColorChoice::White, ColorChoice::Black, ColorChoice::Random]);
            let ruleset = input.pick(&Ruleset::ALL);
            let tc = if op == 0 {
                Ok(input.pick(&TimeControl::CHOICES))
            } else {
                let t = input.text();
                GameService::time_control(Some(t.as_str()))
            };
            let what =
                format!("challenge {ch:?} {user:?}->{opponent:?} {color:?} {ruleset:?} {tc:?}");
            let r = match tc {
                Ok(tc) => svc
                    .challenge(
                        ch,
                        user,
                        opponent,
                        false,
                        Terms {
                            color,
                            ruleset,
                            time_control: tc,
                            ..Terms::default()
                        },
                    )
                    .await
                    .map(|v| vec![v.text(Locale::En, &name), v.text(Locale::Th, &name)]),
                Err(e) => Err(e),
            };
            (what, r)
        }
        2 => {
            let id = match input.byte() % 4 {
                0 => None,
                n => Some(ChallengeId(i64::from(n))),
            };
            (
                format!("accept {ch:?} {user:?} {id:?}"),
                texts(svc.accept(ch, user, id).await),
            )
        }
        3 => (
            format!("decline {ch:?} {user:?}"),
            svc.decline(ch, user, None)
                .await
                .map(|v| vec![v.text(Locale::En, &name)]),
        ),
        4 => (
            format!("withdraw {ch:?} {user:?}"),
            svc.withdraw(ch, user)
                .await
                .map(|v| vec![v.text(Locale::Th, &name)]),
        ),
        5..=7 => {
            // A legal move of the board, written in one of the notations, by its mover (or
            // by whoever the next byte names).
            let pick = input.byte();
            let how = input.byte();
            let Ok(board) = svc.board(ch).await else {
                return ("board (no game)".into(), Ok(Vec::new()));
            };
            let pos = &board.position;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return ("no legal move".into(), Ok(Vec::new()));
            }
            let m = moves[usize::from(pick) % moves.len()];
            let text = match how % 3 {
                0 => to_san(pos, &m),
                1 => uci::to_uci(&m),
                _ => to_thai_san(pos, &m),
            };
            let mover = if how & 0x80 == 0 {
                if pos.turn() == makruk::Color::White {
                    board.white
                } else {
                    board.black
                }
            } else {
                user
            };
            (
                format!("move {ch:?} {mover:?} {text:?}"),
                texts(svc.play(ch, mover, &text).await),
            )
        }
        8 => {
            let text = input.text();
            (
                format!("move {ch:?} {user:?} {text:?}"),
                texts(svc.play(ch, user, &text).await),
            )
        }
        9 => (
            format!("resign {ch:?} {user:?}"),
            texts(svc.resign(ch, user).await),
        ),
        10 => (
            format!("abort {ch:?} {user:?}"),
            texts(svc.abort(ch, user).await),
        ),
        11 => (
            format!("offer {ch:?} {user:?} {kind:?}"),
            texts(svc.offer(ch, user, kind).await),
        ),
        12 => {
            let r = if input.byte() & 1 == 0 {
                svc.accept_offer(ch, user, kind).await
            } else {
                svc.decline_offer(ch, user, kind).await
            };
            (format!("answer offer {ch:?} {user:?} {kind:?}"), texts(r))
        }
        13 => {
            let r = if input.byte() & 1 == 0 {
                svc.count_start(ch, user).await
            } else {
                svc.count_stop(ch, user).await
            };
            (format!("count {ch:?} {user:?}"), texts(r))
        }
        14 => {
            // From a second to about 8 days, so that live clocks, correspondence deadlines and
            // challenges all run out sometimes.
            let b = u64::from(input.byte());
            let secs = b * b * b / 24 + 1;
            time.advance(std::time::Duration::from_secs(secs));
            (format!("wait {secs}s"), Ok(Vec::new()))
        }
        _ => {
            // Queries: they write nothing.
            let prefix = input.text();
            let before = svc.store().dump().await.expect("dump");
            let _ = svc.legal_moves_san(ch, user, &prefix).await;
            let mut out = Vec::new();
            match svc.board(ch).await {
                Ok(r) => out.extend(reply_texts(&r)),
                Err(e) => assert!(e.is_user_error(), "board: {e:#}"),
            }
            if let Err(e) = svc.explain_count(ch, Locale::Th).await {
                assert!(e.is_user_error(), "explain count: {e:#}");
            }
            if let Err(e) = svc.recent_games(ch, 10).await {
                panic!("recent games: {e:#}");
            }
            let game = match input.byte() % 3 {
                0 => None,
                n => Some(GameId(i64::from(n))),
            };
            match svc.pgn(ch, game, &|u| u.0.to_string()).await {
                Ok(export) => assert!(read_pgn(&export.pgn).is_ok(), "{}", export.pgn),
                Err(e) => assert!(e.is_user_error(), "pgn: {e:#}"),
            }
            assert_eq!(
                before,
                svc.store().dump().await.expect("dump"),
                "a query wrote"
            );
            (format!("queries {ch:?} {user:?} {prefix:?}"), Ok(out))
        }
    }
}

/// The store's invariants (see [`service`]).
async fn check_store(svc: &GameService, what: &str) {
    let mut conn = svc.store().read_conn().await.expect("a connection");
    let ids: Vec<i64> = sqlx::query_scalar("SELECT id FROM games ORDER BY id")
        .fetch_all(&mut *conn)
        .await
        .expect("games");
    for id in ids {
        let row = makruk_bot::store::game(&mut conn, makruk_bot::types::GameId(id))
            .await
            .expect("a stored game reads")
            .expect("the game is there");
        let moves = makruk_bot::store::moves(&mut conn, makruk_bot::types::GameId(id))
            .await
            .expect("its moves read");
        assert_eq!(
            moves.len() as i64,
            row.plies,
            "after {what}: game {id}'s plies"
        );
        let mut pos = Position::from_fen(&row.start_fen, row.ruleset).expect("a valid start");
        for (i, mv) in moves.iter().enumerate() {
            assert_eq!(mv.ply, i as i64, "after {what}: game {id}'s plies in order");
            let m = parse_uci(&pos, &mv.uci)
                .unwrap_or_else(|e| panic!("after {what}: game {id} ply {i} {}: {e}", mv.uci));
            assert_eq!(to_san(&pos, &m), mv.san, "after {what}: game {id} ply {i}");
            pos.play(&m).expect("a legal move");
        }
        assert_eq!(
            pos.fen(),
            row.fen,
            "after {what}: game {id}'s FEN is not its moves"
        );
    }
    for (table, open) in [
        ("games", "state = 'active'"),
        ("challenges", "state = 'open'"),
    ] {
        let doubled: Vec<i64> = sqlx::query_scalar(&format!(
            "SELECT channel_id FROM {table} WHERE {open} GROUP BY channel_id HAVING COUNT(*) > 1"
        ))
        .fetch_all(&mut *conn)
        .await
        .expect("a count per channel");
        assert!(
            doubled.is_empty(),
            "after {what}: two at once in {table} of {doubled:?}"
        );
    }
}
