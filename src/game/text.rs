//! Localised texts of the service. The words live in `i18n/<lang>/{service,rules,count}.ftl`;
//! this module only picks messages and fills in their arguments.

use makruk::{
    Color, CountInfo, CountKind, IllegalMove, LimitReason, MoveInputError, Piece, Position, Role,
    Ruleset, Unreadable, Variant, Warning,
};

use super::error::ServiceError;
use crate::clock::{ClockStatus, TimeControl};
use crate::i18n::Locale;
use crate::tr;
use crate::types::{
    ChallengeState, ChallengeView, ColorChoice, EndReason, Event, GameResult, OfferKind, Reply,
    RulesTopic, UserId, UserName,
};

fn color(locale: Locale, c: Color) -> String {
    tr!(locale, &format!("color-{}", c.name()))
}

/// The name of ruleset `r` in `locale` (the one name of a ruleset in every text).
#[must_use]
pub fn ruleset_name(locale: Locale, r: Ruleset) -> String {
    tr!(locale, &format!("ruleset-{}", r.name()))
}

/// The name of variant `v` in `locale` (`variant-makpong`: "Makpong", "หมากป้อง"), as the
/// `variant` option's choice shows it.
#[must_use]
pub fn variant_name(locale: Locale, v: Variant) -> String {
    tr!(locale, &format!("variant-{}", v.name()))
}

/// What a game's title and lists call its rules: a Makruk game's ruleset ("standard"), the
/// name of any other variant ("Makpong"), whose rules are its own.
#[must_use]
pub fn rules_label(locale: Locale, variant: Variant, ruleset: Ruleset) -> String {
    if variant == Variant::Makruk {
        ruleset_name(locale, ruleset)
    } else {
        variant_name(locale, variant)
    }
}

/// The game a challenge is to: "Makruk, standard rules" or the variant's name.
fn game_name(locale: Locale, variant: Variant, ruleset: Ruleset) -> String {
    if variant == Variant::Makruk {
        tr!(
            locale,
            "game-makruk",
            ruleset = ruleset_name(locale, ruleset)
        )
    } else {
        variant_name(locale, variant)
    }
}

/// The name of time control `tc` in `locale`, as the `time` option's choice shows it
/// (`choice-3d`: "3 days per move", "3 วันต่อตา"); a value no longer offered is written the same
/// way (`time-control-days`, `time-control-live`: "2 วันต่อตา"), never as its code (`2d`).
#[must_use]
pub fn time_control_name(locale: Locale, tc: TimeControl) -> String {
    if TimeControl::CHOICES.contains(&tc) {
        return tr!(locale, &crate::i18n::choice_id(&tc.to_string()));
    }
    match tc {
        TimeControl::Correspondence { days } => {
            tr!(locale, "time-control-days", days = u32::from(days))
        }
        TimeControl::Live {
            minutes,
            increment_secs,
        } => tr!(
            locale,
            "time-control-live",
            minutes = u32::from(minutes),
            increment = u32::from(increment_secs)
        ),
    }
}

fn piece_key(p: Piece) -> &'static str {
    // Only a Bia become a Met is the Bia-ngai (an ASEAN Bia may become another piece).
    if p.promoted && p.role == Role::Met {
        return "piece-bia-ngai";
    }
    role_key(p.role)
}

/// The text id of a piece's name by its role (`piece-ruea`; a promoted Bia is
/// `piece-bia-ngai`, which needs the piece: see `piece_key`).
pub(crate) fn role_key(role: Role) -> &'static str {
    match role {
        Role::Khun => "piece-khun",
        Role::Met => "piece-met",
        Role::Khon => "piece-khon",
        Role::Ma => "piece-ma",
        Role::Ruea => "piece-ruea",
        Role::Bia => "piece-bia",
    }
}

fn piece(locale: Locale, p: Piece) -> String {
    tr!(locale, piece_key(p))
}

/// How `p` moves, as a sentence.
fn piece_moves(locale: Locale, p: Piece) -> String {
    tr!(locale, &format!("{}-moves", piece_key(p)))
}

/// "White (<@1>)": the side and the user as `user` writes them.
fn player(locale: Locale, c: Color, u: UserId, user: UserName<'_>) -> String {
    tr!(locale, "player", color = color(locale, c), user = user(u))
}

impl ServiceError {
    /// The localised message for the user: what went wrong and what to do next, users written
    /// by `user`. [`ServiceError::Internal`] gives a generic apology (details go to the log, not
    /// the user).
    #[must_use]
    pub fn message(&self, locale: Locale, user: UserName<'_>) -> String {
        error_message(self, locale, user)
    }
}

fn error_message(err: &ServiceError, locale: Locale, user: UserName<'_>) -> String {
    match err {
        ServiceError::BadMove(e) => move_error(e, locale),
        ServiceError::NotYourChallenge {
            challenger,
            opponent,
        } => tr!(
            locale,
            "error-not-your-challenge",
            challenger = user(*challenger),
            opponent = user(*opponent)
        ),
        ServiceError::UnknownTimeControl(e) => {
            let choices: Vec<String> = TimeControl::CHOICES
                .iter()
                .map(|c| format!("`{c}`"))
                .collect();
            let names: Vec<String> = TimeControl::CHOICES
                .iter()
                .map(|c| time_control_name(locale, *c))
                .collect();
            tr!(
                locale,
                "error-unknown-time-control",
                input = e.input.as_str(),
                choices = choices.join(", "),
                // Thai lists are not joined with commas.
                names = names.join(if locale == Locale::Th { " · " } else { ", " })
            )
        }
        ServiceError::InputTooLong => {
            tr!(locale, "error-input-too-long", max = super::MAX_INPUT_LEN)
        }
        ServiceError::Count(e) => {
            let key = match e {
                makruk::CountRequestError::NotOnRequest(_) => "error-not-traditional",
                makruk::CountRequestError::BiaLeft => "error-count-bia-left",
                makruk::CountRequestError::BareKhun => "error-count-bare-khun",
                makruk::CountRequestError::AlreadyCounting => "error-count-already",
                makruk::CountRequestError::NotCounting => "error-count-not-counting",
            };
            tr!(locale, key)
        }
        ServiceError::LeaderboardEmpty(variant, speed) => tr!(
            locale,
            "error-leaderboard-empty",
            speed = super::ratings::speed_text(*speed, locale),
            variant = variant_name(locale, *variant)
        ),
        ServiceError::NoRatedGames(u, variant) => tr!(
            locale,
            "error-no-rated-games",
            user = user(*u),
            variant = variant_name(locale, *variant)
        ),
        other => tr!(locale, &format!("error-{}", other.name())),
    }
}

/// A bad move in words: what is wrong and what to write instead.
pub(crate) fn move_error(e: &MoveInputError, locale: Locale) -> String {
    // A Thai reader gets the square in Thai notation with the Latin one beside it (`จ๔ (e4)`),
    // as the move announcement writes moves.
    let thai = locale == Locale::Th;
    let sq = |s: makruk::Square| {
        if thai {
            format!("{} ({s})", makruk::san::to_thai_square(s))
        } else {
            s.to_string()
        }
    };
    // A move: SAN, or for a Thai reader Thai notation with the SAN beside it (`ม-ง๒ (Nbd2)`).
    let mv = |san: &String, t: &String| {
        if thai {
            crate::types::MoveChoice {
                san: san.clone(),
                thai: t.clone(),
            }
            .thai_with_san()
        } else {
            san.clone()
        }
    };
    match e {
        MoveInputError::Empty => tr!(locale, "move-empty"),
        MoveInputError::Unreadable { input, reason } => {
            let reason = match reason {
                Unreadable::TooLong { chars } => {
                    tr!(locale, "move-unreadable-too-long", chars = *chars)
                }
                Unreadable::NoTargetSquare => tr!(locale, "move-unreadable-no-target"),
                Unreadable::UnexpectedChar(c) => match makruk::invisible_char_name(*c) {
                    // Unicode's names are English: a Thai reader gets the code alone.
                    Some(name) if thai => {
                        let code = name.split(' ').next().unwrap_or_default();
                        tr!(locale, "move-unreadable-invisible-char", char = code)
                    }
                    Some(name) => tr!(locale, "move-unreadable-invisible-char", char = name),
                    None => tr!(
                        locale,
                        "move-unreadable-unexpected-char",
                        char = c.to_string()
                    ),
                },
                Unreadable::SeveralMoves => tr!(locale, "move-unreadable-several-moves"),
                Unreadable::BadPromotion => tr!(locale, "move-unreadable-bad-promotion"),
                Unreadable::NotUci => tr!(locale, "move-unreadable-not-uci"),
            };
            tr!(
                locale,
                "move-unreadable",
                input = input.as_str(),
                reason = reason
            )
        }
        MoveInputError::NotAPromotion { san, thai: t } => {
            tr!(locale, "move-not-a-promotion", san = mv(san, t))
        }
        MoveInputError::Ambiguous {
            candidates,
            thai: t,
        } => {
            // Thai joins a list with spaces, English with commas.
            let sep = if thai { " " } else { ", " };
            let list: Vec<String> = candidates.iter().zip(t).map(|(s, t)| mv(s, t)).collect();
            tr!(locale, "move-ambiguous", candidates = list.join(sep))
        }
        MoveInputError::Illegal(why) => match why {
            IllegalMove::NoPieceOnSquare { square } => {
                tr!(locale, "move-illegal-no-piece", square = sq(*square))
            }
            IllegalMove::PlaceFirst => tr!(locale, "move-illegal-place-first"),
            IllegalMove::BadDrop {
                piece: p,
                square,
                in_hand,
            } => tr!(
                locale,
                if *in_hand == 0 {
                    "move-illegal-nothing-to-place"
                } else if p.role == makruk::Role::Ruea {
                    "move-illegal-bad-drop-ruea"
                } else {
                    "move-illegal-bad-drop"
                },
                piece = piece(locale, *p),
                square = sq(*square)
            ),
            IllegalMove::MakpongKhunInCheck { .. } => {
                tr!(locale, "move-illegal-makpong-khun")
            }
            IllegalMove::OukJump {
                piece: p,
                from,
                to,
                why,
            } => tr!(
                locale,
                match why {
                    makruk::OukJumpBar::Used => "move-illegal-ouk-jump-used",
                    makruk::OukJumpBar::InCheck => "move-illegal-ouk-jump-in-check",
                    makruk::OukJumpBar::Capture => "move-illegal-ouk-jump-capture",
                },
                piece = piece(locale, *p),
                from = sq(*from),
                to = sq(*to)
            ),
            IllegalMove::AseanPromotionLetter { to, .. } => {
                tr!(locale, "move-illegal-asean-promotion", to = to.to_string())
            }
            IllegalMove::AseanNotAPromotion { from, to } => tr!(
                locale,
                "move-illegal-asean-not-promotion",
                from = sq(*from),
                to = sq(*to)
            ),
            IllegalMove::NotYourPiece { square, piece: p } => tr!(
                locale,
                "move-illegal-not-your-piece",
                square = sq(*square),
                piece = piece(locale, *p)
            ),
            IllegalMove::CannotMoveThatWay {
                piece: p, from, to, ..
            } => tr!(
                locale,
                "move-illegal-cannot-move-that-way",
                piece = piece(locale, *p),
                from = sq(*from),
                to = sq(*to),
                how = piece_moves(locale, *p)
            ),
            IllegalMove::BiaCapturesOnlyDiagonally { from, to, .. } => tr!(
                locale,
                "move-illegal-bia-captures-diagonally",
                from = sq(*from),
                to = sq(*to)
            ),
            IllegalMove::BiaMovesDiagonallyOnlyToCapture { from, to } => tr!(
                locale,
                "move-illegal-bia-diagonal-only-to-capture",
                from = sq(*from),
                to = sq(*to)
            ),
            IllegalMove::PathBlocked {
                piece: p,
                from,
                to,
                blocker,
                blocker_piece,
            } => tr!(
                locale,
                "move-illegal-path-blocked",
                piece = piece(locale, *p),
                from = sq(*from),
                to = sq(*to),
                blocker = piece(locale, *blocker_piece),
                square = sq(*blocker)
            ),
            IllegalMove::OwnPieceOnTarget { square, piece: p } => tr!(
                locale,
                "move-illegal-own-piece",
                square = sq(*square),
                piece = piece(locale, *p)
            ),
            IllegalMove::LeavesKhunInCheck {
                khun,
                attacker,
                attacker_square,
                ..
            } => tr!(
                locale,
                "move-illegal-leaves-khun-in-check",
                khun = sq(*khun),
                attacker = piece(locale, *attacker),
                square = sq(*attacker_square)
            ),
            IllegalMove::NoSuchMove {
                piece: p,
                to,
                candidates,
            } => {
                let list: Vec<String> = candidates.iter().map(|s| sq(*s)).collect();
                let key = if list.is_empty() {
                    "move-illegal-no-such-piece"
                } else {
                    "move-illegal-no-such-move"
                };
                tr!(
                    locale,
                    key,
                    piece = piece(locale, *p),
                    to = sq(*to),
                    squares = list.join(if thai { " · " } else { ", " })
                )
            }
        },
    }
}

fn event_line(r: &Reply, locale: Locale, user: UserName<'_>) -> Option<String> {
    let actor = r.actor?;
    let side = if actor == r.white {
        Color::White
    } else {
        Color::Black
    };
    let opponent = match side {
        Color::White => r.black,
        Color::Black => r.white,
    };
    let key = match r.event {
        Event::Started => "event-started",
        Event::Moved => "event-moved",
        Event::Resigned => "event-resigned",
        Event::Offered(OfferKind::Draw) => "event-draw-offered",
        Event::OfferAccepted(OfferKind::Draw) => "event-draw-accepted",
        Event::OfferDeclined(OfferKind::Draw) => "event-draw-declined",
        Event::Offered(OfferKind::Takeback) => "event-takeback-requested",
        Event::OfferAccepted(OfferKind::Takeback) => "event-takeback-accepted",
        Event::OfferDeclined(OfferKind::Takeback) => "event-takeback-declined",
        Event::Aborted => "event-aborted",
        Event::CountStarted => "event-count-started",
        Event::CountStopped => "event-count-stopped",
        Event::Shown | Event::TimedOut => return None,
    };
    Some(tr!(
        locale,
        key,
        player = player(locale, side, actor, user),
        opponent = player(locale, side.other(), opponent, user),
        san = r.san.as_deref().unwrap_or_default(),
        thai = r
            .thai_san
            .as_deref()
            .or(r.san.as_deref())
            .unwrap_or_default(),
        ruleset = rules_label(locale, r.position.variant(), r.ruleset),
        white = user(r.white),
        black = user(r.black),
    ))
}

/// "Pieces' honour: Black counts 11 of 16." Before the counting side's first counted move,
/// the number that move will be counted: "Pieces' honour: Black counts from 4 to 16." (the
/// shown count, as pychess shows it, is then the pieces on the board, a number nobody said).
pub(crate) fn count_line(c: &CountInfo, locale: Locale) -> String {
    let first = c.current < c.started_from;
    let key = match (c.kind, first) {
        (CountKind::BoardsHonour, false) => "status-count-boards",
        (CountKind::PiecesHonour, false) => "status-count-pieces",
        (CountKind::BoardsHonour, true) => "status-count-boards-next",
        (CountKind::PiecesHonour, true) => "status-count-pieces-next",
    };
    tr!(
        locale,
        key,
        color = color(locale, c.counting),
        current = c.current,
        from = c.started_from,
        limit = c.limit
    )
}

fn warning_line(w: &Warning, locale: Locale) -> String {
    match w {
        Warning::CountNearlyOut {
            counting,
            remaining,
        } => tr!(
            locale,
            "warning-count-nearly-out",
            color = color(locale, *counting),
            moves = *remaining
        ),
        Warning::NoProgress { plies, limit } => tr!(
            locale,
            "warning-no-progress",
            plies = *plies,
            limit = *limit
        ),
    }
}

pub(crate) fn reply_text(r: &Reply, locale: Locale, user: UserName<'_>) -> String {
    let mut lines = Vec::new();
    // A resignation is said by the end line ("Black resigned: White wins").
    if r.event != Event::Resigned {
        if let Some(line) = event_line(r, locale, user) {
            lines.push(line);
        }
    }
    // A loss on time is said by the end line ("White ran out of time: Black wins"); a draw or
    // an abort on time says who ran out here.
    let loss = r.status.end.is_some_and(|e| e.reason == EndReason::Timeout);
    if r.event == Event::TimedOut && !loss {
        let c = r.status.turn;
        lines.push(tr!(
            locale,
            "event-timed-out",
            player = player(locale, c, r.status.to_move, user)
        ));
    }
    let s = &r.status;
    let user_of = |c: Color| match c {
        Color::White => r.white,
        Color::Black => r.black,
    };
    if let Some(end) = s.end {
        let winner = match end.result {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        };
        // No winner (a draw, an abort): no message of such an end names one.
        let (winner, loser) = winner.map_or_else(Default::default, |w| {
            (
                player(locale, w, user_of(w), user),
                player(locale, w.other(), user_of(w.other()), user),
            )
        });
        let id = format!("end-{}", end.reason.name());
        lines.push(tr!(locale, &id, winner = &winner, loser = &loser));
        // An aborted game has no result to give.
        let words = match end.result {
            GameResult::WhiteWins => Some("result-white-wins"),
            GameResult::BlackWins => Some("result-black-wins"),
            GameResult::Draw => Some("result-draw"),
            GameResult::Aborted => None,
        };
        if let Some(words) = words {
            lines.push(tr!(
                locale,
                "end-result",
                words = tr!(locale, words),
                result = end.result.pgn()
            ));
        }
        if let Some(ratings) = r.ratings {
            for (c, change) in [(Color::White, ratings.white), (Color::Black, ratings.black)] {
                lines.push(tr!(
                    locale,
                    "rating-after-game",
                    player = player(locale, c, user_of(c), user),
                    rating = super::ratings::change_text(change)
                ));
            }
        }
        return lines.join("\n");
    }
    if s.check {
        lines.push(tr!(locale, "status-check", color = color(locale, s.turn)));
    }
    lines.extend(hand_lines(&r.position, locale));
    if let Some(c) = &s.count {
        lines.push(count_line(c, locale));
    }
    for w in &s.warnings {
        lines.push(warning_line(w, locale));
    }
    for kind in OfferKind::ALL {
        // The event line of a new offer already says it.
        let Some(c) = s.offer(kind).filter(|_| r.event != Event::Offered(kind)) else {
            continue;
        };
        let key = match kind {
            OfferKind::Draw => "status-draw-offer",
            OfferKind::Takeback => "status-takeback-request",
        };
        lines.push(tr!(
            locale,
            key,
            player = player(locale, c, user_of(c), user),
            opponent = player(locale, c.other(), user_of(c.other()), user)
        ));
    }
    lines.push(tr!(
        locale,
        "status-turn",
        player = player(locale, s.turn, s.to_move, user)
    ));
    lines.push(clock_line(s, locale));
    lines.join("\n")
}

/// Sittuyin's placement phase: for each side with pieces still to place, "White still places:
/// Khun, Met, 2 Ruea, 2 Khon, 2 Ma." (none in the other variants or after the placement).
fn hand_lines(pos: &Position, locale: Locale) -> Vec<String> {
    let order = [
        Role::Khun,
        Role::Met,
        Role::Ruea,
        Role::Khon,
        Role::Ma,
        Role::Bia,
    ];
    [Color::White, Color::Black]
        .into_iter()
        .filter_map(|c| {
            let pieces: Vec<String> = order
                .iter()
                .filter_map(|&role| match pos.in_hand(c, role) {
                    0 => None,
                    1 => Some(tr!(locale, role_key(role))),
                    n => Some(tr!(
                        locale,
                        "status-hand-pieces",
                        n = n,
                        piece = tr!(locale, role_key(role))
                    )),
                })
                .collect();
            (!pieces.is_empty()).then(|| {
                tr!(
                    locale,
                    "status-hand",
                    color = color(locale, c),
                    pieces = pieces.join(&tr!(locale, "list-separator"))
                )
            })
        })
        .collect()
}

/// Milliseconds as a clock shows them: `4:05`, `1:02:03` (rounded down to the second).
pub(crate) fn clock_time(ms: i64) -> String {
    let secs = ms.max(0) / 1000;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// Unix milliseconds → Unix seconds for a Discord timestamp `<t:UNIX:R>` (rounded up: the
/// countdown never shows the flag earlier than it falls).
fn unix_secs(ms: i64) -> i64 {
    ms.div_euclid(1000) + i64::from(ms.rem_euclid(1000) != 0)
}

/// The clock of a running game: live, both times and the side to move's flag as a Discord
/// countdown; correspondence, the deadline of the move.
fn clock_line(s: &crate::types::Status, locale: Locale) -> String {
    let control = s.time_control.to_string();
    let control_name = time_control_name(locale, s.time_control);
    match s.clock {
        ClockStatus::Live {
            white_ms,
            black_ms,
            turn,
            flag_at_ms,
        } => tr!(
            locale,
            "status-clock-live",
            control = control,
            control_name = control_name,
            white = clock_time(white_ms),
            black = clock_time(black_ms),
            color = color(locale, turn),
            flag = unix_secs(flag_at_ms)
        ),
        ClockStatus::Correspondence { turn, move_by_ms } => tr!(
            locale,
            "status-clock-correspondence",
            control = control,
            control_name = control_name,
            color = color(locale, turn),
            deadline = unix_secs(move_by_ms)
        ),
    }
}

/// The reminder of a correspondence game in `locale`: `user_name` (as the adapter writes the
/// player to move) must move by `deadline_ms` (Unix milliseconds), shown as Discord
/// timestamps.
#[must_use]
pub fn reminder_text(user_name: &str, deadline_ms: i64, locale: Locale) -> String {
    tr!(
        locale,
        "reminder",
        user = user_name,
        deadline = unix_secs(deadline_ms)
    )
}

pub(crate) fn challenge_text(c: &ChallengeView, locale: Locale, user: UserName<'_>) -> String {
    let colors = match c.color {
        ColorChoice::White => "challenge-color-white",
        ColorChoice::Black => "challenge-color-black",
        ColorChoice::Random => "challenge-color-random",
    };
    let (challenger, opponent) = (user(c.challenger), user(c.opponent));
    let ruleset = ruleset_name(locale, c.ruleset);
    let game = game_name(locale, c.variant, c.ruleset);
    let colors = tr!(
        locale,
        colors,
        challenger = &challenger,
        opponent = &opponent,
        ruleset = &ruleset,
    );
    let key = match c.state {
        ChallengeState::Open => "challenge-open",
        ChallengeState::Accepted => "challenge-accepted",
        ChallengeState::Declined => "challenge-declined",
        ChallengeState::Withdrawn => "challenge-withdrawn",
        ChallengeState::Expired => "challenge-expired",
    };
    tr!(
        locale,
        key,
        challenger = challenger,
        opponent = opponent,
        ruleset = ruleset,
        game = game,
        expires = c.expires_at,
        colors = colors,
        time = c.time_control.to_string(),
        time_name = time_control_name(locale, c.time_control),
    )
}

pub(crate) fn rules_text(ruleset: Ruleset, topic: RulesTopic, locale: Locale) -> String {
    let name = ruleset_name(locale, ruleset);
    let id = match topic {
        RulesTopic::Overview => {
            let id = format!("rules-summary-{}", ruleset.name());
            let summary = tr!(locale, &id, ruleset = &name);
            return tr!(locale, "rules-overview", ruleset = name, summary = summary);
        }
        RulesTopic::Pieces => "rules-pieces".to_owned(),
        RulesTopic::Promotion => "rules-promotion".to_owned(),
        RulesTopic::Counting => format!("rules-counting-{}", ruleset.name()),
        RulesTopic::Draws => format!("rules-draws-{}", ruleset.name()),
        RulesTopic::Time => "rules-time".to_owned(),
    };
    tr!(locale, &id, ruleset = name)
}

/// Why the limit is `reason.moves(ruleset)`, as a sentence.
fn limit_sentence(reason: LimitReason, ruleset: Ruleset, locale: Locale) -> String {
    let (key, side) = match reason {
        LimitReason::BoardsHonour => ("count-limit-boards", None),
        LimitReason::TwoRuea { side } => ("count-limit-two-ruea", Some(side)),
        LimitReason::OneRuea { side } => ("count-limit-one-ruea", Some(side)),
        LimitReason::TwoKhon { side } => ("count-limit-two-khon", Some(side)),
        LimitReason::TwoMa { side } => ("count-limit-two-ma", Some(side)),
        LimitReason::OneKhon { side } => ("count-limit-one-khon", Some(side)),
        LimitReason::Other { side } => ("count-limit-other", Some(side)),
    };
    let side = side.map(|s| color(locale, s)).unwrap_or_default();
    tr!(locale, key, limit = reason.moves(ruleset), side = side)
}

/// The count (or why none runs) in sentences: who counts and why, why from that number, why
/// that limit, how many moves remain.
pub(crate) fn explain_count(
    ruleset: Ruleset,
    pos: &Position,
    count: Option<CountInfo>,
    ended: bool,
    locale: Locale,
) -> String {
    // Ouk Chaktrang, ASEAN and Sittuyin count by their own tables (Makpong by Makruk's).
    let variant = pos.variant();
    let own_count = matches!(
        variant,
        Variant::Cambodian | Variant::Asean | Variant::Sittuyin
    );
    let Some(c) = count else {
        if own_count {
            let key = if variant == Variant::Cambodian {
                "count-none-cambodian"
            } else {
                "count-none-asean"
            };
            return tr!(locale, key, variant = variant_name(locale, variant));
        }
        let key = if ruleset == Ruleset::FiftyMove {
            "count-none-fifty-move"
        } else if pos.board().by_role(Role::Bia).any() {
            if ruleset == Ruleset::Traditional {
                "count-none-bia-traditional"
            } else {
                "count-none-bia"
            }
        } else if ruleset == Ruleset::Traditional {
            "count-none-traditional"
        } else {
            "count-none"
        };
        return tr!(locale, key);
    };
    let who = color(locale, c.counting);
    let other = color(locale, c.counting.other());
    let mut parts = Vec::new();
    let who_key = match (c.kind, ruleset) {
        (CountKind::PiecesHonour, _) => "count-who-pieces",
        (CountKind::BoardsHonour, Ruleset::Traditional) => "count-who-boards-traditional",
        (CountKind::BoardsHonour, Ruleset::Material) => "count-who-boards-material",
        (CountKind::BoardsHonour, _) => "count-who-boards",
    };
    parts.push(tr!(
        locale,
        who_key,
        color = who.clone(),
        other = other.clone()
    ));
    parts.push(match c.kind {
        CountKind::PiecesHonour => tr!(
            locale, // Before the lone Khun's first counted move the count still shows the pieces.
            if c.current < c.started_from && !ended {
                "count-from-pieces-next"
            } else {
                "count-from-pieces"
            },
            color = who.clone(),
            from = c.started_from,
            pieces = c.started_from.saturating_sub(1)
        ),
        CountKind::BoardsHonour => tr!(locale, "count-from-boards"),
    });
    parts.push(if own_count {
        tr!(
            locale,
            "count-limit-variant",
            limit = c.limit,
            variant = variant_name(locale, variant)
        )
    } else {
        limit_sentence(c.limit_reason, ruleset, locale)
    });
    // A finished game's count is history: where it stood, not what is left to play.
    parts.push(if ended {
        tr!(locale, "count-ended", current = c.current, limit = c.limit)
    } else {
        tr!(
            locale,
            "count-now",
            color = who,
            other = other,
            current = c.current,
            limit = c.limit,
            remaining = c.remaining
        )
    });
    parts.join(" ")
}

/// `YYYY.MM.DD` (UTC) of a Unix time, for the PGN Date tag.
pub(crate) fn pgn_date(unix: i64) -> String {
    // Civil-from-days (Howard Hinnant's algorithm), proleptic Gregorian calendar.
    let z = unix.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::has;
    use crate::types::{ChallengeId, GameId};

    /// Keys built at run time (`error-<name>`, `end-<reason>`, …) exist in both languages.
    #[test]
    fn computed_message_ids_exist() {
        let user = UserId(1);
        let errors = [
            ServiceError::NoGameHere,
            ServiceError::GameOver(GameId(1)),
            ServiceError::TimedOut(GameId(1)),
            ServiceError::NotAPlayer,
            ServiceError::NotYourTurn,
            ServiceError::ChannelBusy(GameId(1)),
            ServiceError::ChallengePending(ChallengeId(1)),
            ServiceError::ChallengeSelf,
            ServiceError::ChallengeBot,
            ServiceError::NoChallenge,
            ServiceError::NotYourChallenge {
                challenger: user,
                opponent: user,
            },
            ServiceError::ChallengeExpired,
            ServiceError::InputTooLong,
            ServiceError::NoOffer(OfferKind::Draw),
            ServiceError::AlreadyOffered(OfferKind::Draw),
            ServiceError::NoOffer(OfferKind::Takeback),
            ServiceError::AlreadyOffered(OfferKind::Takeback),
            ServiceError::NothingToTakeBack,
            ServiceError::TooLateToAbort,
            ServiceError::NotTraditional,
            ServiceError::NotYourCount,
            ServiceError::GameNotFound,
            ServiceError::Conflict,
            ServiceError::Internal(anyhow::anyhow!("x")),
        ];
        let mut ids: Vec<String> = errors
            .iter()
            .map(|e| format!("error-{}", e.name()))
            .collect();
        for r in EndReason::ALL {
            ids.push(format!("end-{}", r.name()));
        }
        for r in Ruleset::ALL {
            for prefix in ["ruleset", "rules-summary", "rules-counting", "rules-draws"] {
                ids.push(format!("{prefix}-{}", r.name()));
            }
        }
        for c in Color::ALL {
            ids.push(format!("color-{}", c.name()));
        }
        for role in Role::ALL {
            let p = Piece::new(Color::White, role);
            ids.push(piece_key(p).to_string());
            ids.push(format!("{}-moves", piece_key(p)));
        }
        ids.push("piece-bia-ngai-moves".into());
        for locale in Locale::ALL {
            for id in &ids {
                assert!(has(locale, id), "{id} missing in {locale:?}");
            }
        }
    }

    /// Every offered time control has a name in both languages, the one its choice shows; a
    /// value no longer offered is named the same way.
    #[test]
    fn time_controls_are_named_as_their_choices() {
        for tc in TimeControl::CHOICES {
            for locale in Locale::ALL {
                let id = crate::i18n::choice_id(&tc.to_string());
                assert!(has(locale, &id), "{id} missing in {locale:?}");
                assert_eq!(time_control_name(locale, tc), tr!(locale, &id));
            }
        }
        let three_days = TimeControl::Correspondence { days: 3 };
        assert_eq!(time_control_name(Locale::Th, three_days), "3 วันต่อตา");
        let ten_five = TimeControl::Live {
            minutes: 10,
            increment_secs: 5,
        };
        assert_eq!(time_control_name(Locale::Th, ten_five), "10 นาที + 5 วินาที");
        // A value no longer offered is written in words too, never as its code.
        let retired = TimeControl::Correspondence { days: 2 };
        assert_eq!(time_control_name(Locale::Th, retired), "2 วันต่อตา");
        assert_eq!(time_control_name(Locale::En, retired), "2 days per move");
        let one_day = TimeControl::Correspondence { days: 1 };
        assert_eq!(time_control_name(Locale::En, one_day), "1 day per move");
        let seven = TimeControl::Live {
            minutes: 7,
            increment_secs: 0,
        };
        assert!(!TimeControl::CHOICES.contains(&seven));
        assert_eq!(time_control_name(Locale::Th, seven), "7 นาที + 0 วินาที");
        assert_eq!(time_control_name(Locale::En, seven), "7 min + 0 s");
        // Thai texts show the name, never the code (`{ $time }`, `{ $control }`: "3d").
        for (lang, path, text) in crate::i18n::FTL_FILES {
            if *lang == "th" {
                for code in ["{ $time }", "{ $control }"] {
                    assert!(!text.contains(code), "{path} shows the code {code}");
                }
            }
        }
    }

    #[test]
    fn clock_times() {
        assert_eq!(clock_time(0), "0:00");
        assert_eq!(clock_time(-5), "0:00");
        assert_eq!(clock_time(245_999), "4:05");
        assert_eq!(clock_time(3_723_000), "1:02:03");
        assert_eq!(unix_secs(1_000), 1);
        assert_eq!(unix_secs(1_001), 2);
    }

    #[test]
    fn pgn_dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        // 2000-02-29 12:00 UTC and 2026-11-30 01:00 UTC.
        assert_eq!(pgn_date(951_825_600), "2000.02.29");
        assert_eq!(pgn_date(1_796_000_400), "2026.11.30");
    }
}

#[cfg(test)]
mod move_text_tests {
    use super::*;

    /// The words for a move text, in `locale`, in the starting position.
    fn words(input: &str, locale: Locale) -> String {
        let e = makruk::parse_move(&makruk::Position::new(), input).expect_err(input);
        move_error(&e, locale)
    }

    #[test]
    fn move_text_errors_name_what_is_wrong() {
        for locale in Locale::ALL {
            let zwsp = words("e3\u{200B}e4", locale);
            assert!(zwsp.contains("U+200B"), "{zwsp}");
            assert_eq!(
                zwsp.contains("ZERO WIDTH SPACE"),
                locale == Locale::En,
                "Unicode's English name only in English: {zwsp}"
            );
            let thai = words("ม\u{200B}-ง๒", locale);
            assert!(thai.contains("U+200B") && !thai.contains("“ม”"), "{thai}");
            for two in ["e3e4e5", "e3e4 e6e5", "e4 e5"] {
                let text = words(two, locale);
                assert!(!text.contains("“3”"), "{text}");
                assert_ne!(text, words("hello", locale));
            }
            let suffix = words("e3e4m", locale);
            match locale {
                Locale::Th => assert!(suffix.starts_with("จ๔ (e4) "), "{suffix}"),
                _ => assert!(suffix.starts_with("e4 "), "{suffix}"),
            }
        }
        for two in ["e3e4e5", "e4 e5"] {
            assert!(
                words(two, Locale::En).contains("one move at a time"),
                "{two}"
            );
        }
        assert!(words("e3e4=Q", Locale::En).contains("is not a promotion"));
    }

    #[test]
    fn a_thai_reader_gets_ambiguous_moves_in_thai_with_their_san_beside_them() {
        // Two Ma can go to d2 once the Khon on c1 has moved out of the way.
        let p = makruk::Position::from_fen(
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/2S5/RN1KMN1R w - - 0 1",
            makruk::Ruleset::Standard,
        )
        .expect("FEN");
        let e = makruk::parse_move(&p, "Nd2").expect_err("ambiguous");
        let th = move_error(&e, Locale::Th);
        let thai_of = |san: &str| {
            let m = makruk::parse_move(&p, san).expect(san);
            format!("{} ({san})", makruk::san::to_thai_san(&p, &m))
        };
        let both = format!("{} {}", thai_of("Nbd2"), thai_of("Nfd2"));
        assert!(th.contains(&both) && both.contains('ง'), "{th}");
        let en = move_error(&e, Locale::En);
        assert!(en.contains("Nbd2, Nfd2") && !en.contains("ม-ง๒"), "{en}");
    }

    #[test]
    fn a_thai_reader_gets_squares_in_thai_with_the_latin_beside_them() {
        let th = words("e5", Locale::Th);
        assert!(th.contains("จ๕ (e5)"), "{th}");
        let en = words("e5", Locale::En);
        assert!(en.contains("e5") && !en.contains("จ๕"), "{en}");
    }
}
