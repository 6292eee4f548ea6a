//! Arenas (lichess's format): a fixed duration from the start; a player who is free (joined,
//! not withdrawn, no game being played) is paired as soon as another is, by score then rating,
//! never with the last opponent (the pairing crate's `arena::pair_waiting`); points by
//! lichess's sheet (win 2, draw 1, loss 0; after two wins in a row each win counts double
//! until a game is not won; a berserk win of at least 7 moves, one point more). Each batch of pairings is a "wave", claimed like a round (the
//! event's `round` counts them), so a free player is paired exactly once. At the end no one is
//! paired any more; the games being played still count, and the event is over when the last
//! one ends.

use std::collections::HashSet;

use makruk_tournament::arena::{self as sheet, ArenaGame, ArenaPlayer, GameResult, Scoring};
use makruk_tournament::record::Colour;

use super::{Advance, TournamentError};
use crate::game::ServiceError;
use crate::store::{self, PairingRow, TournamentPlayerRow, TournamentRow, Tx};
use crate::types::{PairingResult, UserId};

/// The scoring of our arenas: lichess's defaults (streaks on).
pub(super) fn scoring() -> Scoring {
    Scoring::default()
}

/// What result `r` was for White and for Black (a forfeit is won or lost like a game).
fn results(r: PairingResult) -> (GameResult, GameResult) {
    match r {
        PairingResult::WhiteWins | PairingResult::WhiteForfeitWin | PairingResult::Bye => {
            (GameResult::Win, GameResult::Loss)
        }
        PairingResult::BlackWins | PairingResult::BlackForfeitWin => {
            (GameResult::Loss, GameResult::Win)
        }
        PairingResult::Draw => (GameResult::Draw, GameResult::Draw),
        PairingResult::DoubleForfeit => (GameResult::Loss, GameResult::Loss),
    }
}

/// Every numbered player with their finished games in the order they were paired, and their
/// user.
pub(super) fn arena_players(
    players: &[TournamentPlayerRow],
    pairings: &[PairingRow],
) -> Vec<(ArenaPlayer, UserId)> {
    let mut out: Vec<(ArenaPlayer, UserId)> = players
        .iter()
        .filter_map(|p| {
            Some((
                ArenaPlayer {
                    id: p.number?,
                    rating: u32::try_from(p.rating.max(0)).unwrap_or(0),
                    games: Vec::new(),
                },
                p.user_id,
            ))
        })
        .collect();
    let index = |u: UserId, out: &[(ArenaPlayer, UserId)]| out.iter().position(|(_, w)| *w == u);
    for p in pairings {
        let (Some(black), Some(result)) = (p.black, p.result) else {
            continue;
        };
        // A game lost on time before its first move scores for no one (lichess): the absent
        // player is withdrawn instead (`withdraw_absent`).
        if matches!(
            result,
            PairingResult::WhiteForfeitWin
                | PairingResult::BlackForfeitWin
                | PairingResult::DoubleForfeit
        ) {
            continue;
        }
        let (Some(w), Some(b)) = (index(p.white, &out), index(black, &out)) else {
            continue;
        };
        let (rw, rb) = results(result);
        let plies = p.plies.unwrap_or(0);
        let (wid, bid) = (out[w].0.id, out[b].0.id);
        out[w].0.games.push(ArenaGame {
            opponent: bid,
            colour: Colour::White,
            result: rw,
            berserk: p.white_berserk,
            plies,
        });
        out[b].0.games.push(ArenaGame {
            opponent: wid,
            colour: Colour::Black,
            result: rb,
            berserk: p.black_berserk,
            plies,
        });
    }
    out
}

/// When arena `t` ends (Unix seconds), once started.
pub(super) fn end_of(t: &TournamentRow) -> Option<i64> {
    Some(t.start_at? + i64::from(t.minutes?) * 60)
}

/// The arena's step at `now`: after its end, the event is over once no game is being played;
/// before it, the free players are paired.
pub(super) async fn advance(
    tx: &mut Tx,
    t: &TournamentRow,
    pairings: &[PairingRow],
    now: i64,
    recorded: bool,
) -> Result<Advance, TournamentError> {
    let over = end_of(t).is_none_or(|end| now >= end);
    if over {
        // Pairings whose game never started (no thread could be opened) are dropped: no one
        // is paired after the end.
        store::delete_unstarted_pairings(tx, t.id).await?;
    }
    let playing = pairings
        .iter()
        .any(|p| p.result.is_none() && (p.game_id.is_some() || !over));
    if over && !playing {
        super::finish(tx, t.id, now).await?;
        return Ok(Advance::Finished);
    }
    if !over {
        let players = store::tournament_players(tx, t.id).await?;
        if pair_wave(tx, t, &players, pairings).await? {
            return Ok(Advance::Paired { round: t.round + 1 });
        }
    }
    Ok(if recorded {
        Advance::Results
    } else {
        Advance::Nothing
    })
}

/// Pairs the free players of arena `t` as its next wave; false if no pair could be made.
pub(super) async fn pair_wave(
    tx: &mut Tx,
    t: &TournamentRow,
    players: &[TournamentPlayerRow],
    pairings: &[PairingRow],
) -> Result<bool, TournamentError> {
    let busy: HashSet<UserId> = pairings
        .iter()
        .filter(|p| p.result.is_none())
        .flat_map(|p| [Some(p.white), p.black])
        .flatten()
        .collect();
    let withdrawn: HashSet<UserId> = players
        .iter()
        .filter(|p| p.withdrawn)
        .map(|p| p.user_id)
        .collect();
    let everyone = arena_players(players, pairings);
    let waiting: Vec<(ArenaPlayer, UserId)> = everyone
        .into_iter()
        .filter(|(_, u)| !busy.contains(u) && !withdrawn.contains(u))
        .collect();
    if waiting.len() < 2 {
        return Ok(false);
    }
    let records: Vec<ArenaPlayer> = waiting.iter().map(|(p, _)| p.clone()).collect();
    let mut made = sheet::pair_waiting(&records, scoring());
    // Two players alone in the arena (nobody else in it, playing or waiting) play each other
    // again, colours swapped, rather than wait until the end.
    let active = players
        .iter()
        .filter(|p| !p.withdrawn && p.number.is_some())
        .count();
    if made.pairs.is_empty() && records.len() == 2 && active == 2 {
        let (a, b) = (&records[0], &records[1]);
        let a_was_white = a.games.last().is_some_and(|g| g.colour == Colour::White);
        let (white, black) = if a_was_white {
            (b.id, a.id)
        } else {
            (a.id, b.id)
        };
        made.pairs.push(sheet::ArenaPairing { white, black });
    }
    if made.pairs.is_empty() {
        return Ok(false);
    }
    let user = |id: u32| waiting.iter().find(|(p, _)| p.id == id).map(|(_, u)| *u);
    let wave = t.round + 1;
    if !store::claim_round(tx, t.id, t.round, wave, wave).await? {
        return Err(ServiceError::Conflict.into());
    }
    for (i, pair) in made.pairs.iter().enumerate() {
        let (Some(white), Some(black)) = (user(pair.white), user(pair.black)) else {
            continue;
        };
        let row = PairingRow {
            round: wave,
            board: u32::try_from(i + 1).unwrap_or(u32::MAX),
            white,
            black: Some(black),
            game_id: None,
            result: None,
            plies: None,
            message_id: None,
            white_berserk: false,
            black_berserk: false,
        };
        store::insert_pairing(tx, t.id, &row).await?;
    }
    Ok(true)
}

/// The players of pairing result `r` who never moved (an arena withdraws them: they join again
/// with `/tournament join`).
pub(super) fn absent(p: &PairingRow, r: PairingResult) -> Vec<UserId> {
    match (r, p.black) {
        (PairingResult::WhiteForfeitWin, Some(black)) => vec![black],
        (PairingResult::BlackForfeitWin, _) => vec![p.white],
        (PairingResult::DoubleForfeit, Some(black)) => vec![p.white, black],
        _ => Vec::new(),
    }
}
