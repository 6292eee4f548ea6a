//! Moves, resignation and abort.

use anyhow::anyhow;
use makruk::{Color, DrawReason, Move, Outcome, WinReason};

use super::offers::lapse_on_move;
use super::persist::Loaded;
use super::{
    ChannelId, EndReason, Event, GameEnd, GameResult, GameService, Reply, ServiceError, UserId,
    MAX_INPUT_LEN,
};

/// The end of a game by the rules, in the service's terms.
fn rules_end(outcome: Outcome) -> GameEnd {
    match outcome {
        Outcome::Decisive {
            winner,
            reason: WinReason::Checkmate,
        } => GameEnd {
            result: GameResult::win_for(winner),
            reason: EndReason::Checkmate,
        },
        Outcome::Draw { reason } => GameEnd {
            result: GameResult::Draw,
            reason: match reason {
                DrawReason::Stalemate => EndReason::Stalemate,
                DrawReason::Counting => EndReason::Counting,
                DrawReason::Repetition => EndReason::Repetition,
                DrawReason::InsufficientMaterial => EndReason::InsufficientMaterial,
                DrawReason::KhunVsKhun => EndReason::KhunVsKhun,
                DrawReason::FiftyMove => EndReason::FiftyMove,
                DrawReason::CountingSideMated => EndReason::CountingSideMated,
            },
        },
    }
}

/// `side` (to move) plays the legal move `mv` in `g` at `now`: offers lapse, the game ends when
/// the rules say it is over. Returns the move's SAN. A human's move and the computer's both
/// come here.
pub(super) fn apply_move(
    g: &mut Loaded,
    side: Color,
    mv: &Move,
    now: i64,
) -> Result<String, ServiceError> {
    let san = makruk::san::to_san(g.m.position(), mv);
    // `with_game` has ended the game instead if the mover's flag had fallen.
    g.clock
        .on_move(now)
        .map_err(|e| anyhow!("the clock refused a move in time: {e}"))?;
    g.m.play(mv)
        .map_err(|e| anyhow!("a move checked as legal was refused: {e}"))?;
    g.clocks.push(g.clock.snapshot());
    lapse_on_move(g, side);
    if let Some(outcome) = g.m.outcome() {
        g.finish(rules_end(outcome), now);
    }
    Ok(san)
}

impl GameService {
    /// `user` plays `input` (any notation the rules crate reads: SAN, PlayOK, Thai, UCI) in the
    /// channel's game. Ends the game when the rules say it is over. A draw offer of the other
    /// side lapses; a takeback request lapses. The mover's clock is charged (live: plus the
    /// increment) and the opponent's starts.
    ///
    /// # Errors
    /// [`ServiceError::InputTooLong`] (checked first, before the database),
    /// [`ServiceError::NoGameHere`] / [`ServiceError::GameOver`], [`ServiceError::TimedOut`]
    /// (the mover's time had run out: the game ended on time instead), [`ServiceError::NotAPlayer`],
    /// [`ServiceError::NotYourTurn`], [`ServiceError::BadMove`], [`ServiceError::Conflict`].
    #[tracing::instrument(skip(self, input), fields(input_len = input.len()))]
    pub async fn play(
        &self,
        channel: ChannelId,
        user: UserId,
        input: &str,
    ) -> Result<Reply, ServiceError> {
        if input.chars().nth(MAX_INPUT_LEN).is_some() {
            return Err(ServiceError::InputTooLong);
        }
        let (g, san) = self
            .with_game(channel, user, |g, side, now| {
                if g.m.position().turn() != side {
                    return Err(ServiceError::NotYourTurn);
                }
                let mv =
                    makruk::parse_move(g.m.position(), input).map_err(ServiceError::BadMove)?;
                apply_move(g, side, &mv, now)
            })
            .await?;
        Ok(g.reply(Event::Moved, Some(user), Some(san)))
    }

    /// `user` resigns: the opponent wins.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn resign(&self, channel: ChannelId, user: UserId) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::Resigned, |g, side, now| {
            let end = GameEnd {
                result: GameResult::win_for(side.other()),
                reason: EndReason::Resignation,
            };
            g.finish(end, now);
            Ok(())
        })
        .await
    }

    /// `user` aborts the game; allowed only before both sides have moved. No result.
    ///
    /// # Errors
    /// `NoGameHere`/`GameOver`, `NotAPlayer`, [`ServiceError::TooLateToAbort`], `Conflict`.
    #[tracing::instrument(skip(self))]
    pub async fn abort(&self, channel: ChannelId, user: UserId) -> Result<Reply, ServiceError> {
        self.game_action(channel, user, Event::Aborted, |g, _, now| {
            if g.m.moves().len() >= 2 {
                return Err(ServiceError::TooLateToAbort);
            }
            g.finish(
                GameEnd {
                    result: GameResult::Aborted,
                    reason: EndReason::Aborted,
                },
                now,
            );
            Ok(())
        })
        .await
    }
}
