//! Arena tournaments as lichess runs them: scoring with streaks and berserk, and the pairing of
//! the players waiting for a game.
//!
//! Sources: the rules shown on every lichess arena page ("How are scores calculated?", "Arena
//! Berserk", "Other important rules": <https://lichess.org/tournament/help?system=arena>) and
//! lichess's code, lila (`modules/tournament/src/main/arena/ArenaSheet.scala` for the scoring,
//! `Pairing.scala` for the game-length thresholds, `arena/PairingSystem.scala`,
//! `arena/AntmaPairing.scala` and `ColorHistory.scala` for the pairing):
//!
//! - A win is worth 2 points, a draw 1, a loss 0.
//! - After two wins in a row a player is *on fire* (the flame): every further game is worth
//!   double — a win 4, a draw 2 — until a game is not won.
//! - Berserk: a win is worth one extra point if the player berserked and the game lasted at
//!   least 7 moves each (14 plies, lila's `notSoQuickFinish`).
//! - A draw within the first 10 moves (fewer than 20 plies, `quickDraw`) gives no points to
//!   either player.
//! - Draw streaks: after a draw, further draws give no points until the player wins (a loss does
//!   not end the draw streak), unless the draw lasted at least 30 moves (60 plies, lila's
//!   `longGame` for standard chess, used here for Makruk, which lichess does not have).
//!   A draw while on fire is still worth 2.
//! - Pairing: players are paired with players close to them in the ranking, never with their
//!   last opponent (lila's `justPlayedTogether`); white goes to the player with the weaker claim
//!   to it by lila's colour history (see [`colour_history`]).
//!
//! Points here are arena points (whole numbers), not the half points of [`crate::record`].

use crate::record::Colour;

/// The result of one arena game for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// One finished arena game of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArenaGame {
    /// The opponent's id.
    pub opponent: u32,
    /// The colour the player had.
    pub colour: Colour,
    /// The result for the player.
    pub result: GameResult,
    /// Whether the player berserked (halved clock for a bonus point).
    pub berserk: bool,
    /// Length of the game in plies (half-moves: a move of each side is 2 plies).
    pub plies: u32,
}

/// The scoring options of an arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scoring {
    /// Whether win streaks double the points (lichess's "Arena streaks" option, on by default).
    pub streaks: bool,
    /// Plies from which a draw scores even during a draw streak (60 = 30 moves, lichess's
    /// value for standard chess).
    pub long_game_plies: u32,
}

impl Default for Scoring {
    /// Lichess's defaults: streaks on, a draw counts in a draw streak from 60 plies.
    fn default() -> Self {
        Self {
            streaks: true,
            long_game_plies: LONG_GAME_PLIES,
        }
    }
}

/// A draw of fewer plies than this (10 moves) scores nothing (lila `Pairing.quickDraw`).
pub const QUICK_DRAW_PLIES: u32 = 20;
/// A berserk win needs at least this many plies (7 moves) for its extra point
/// (lila `Pairing.notSoQuickFinish`).
pub const BERSERK_MIN_PLIES: u32 = 14;
/// Lichess's long-game threshold for standard chess, 60 plies (30 moves): such a draw scores
/// even during a draw streak (lila `Pairing.longGame`).
pub const LONG_GAME_PLIES: u32 = 60;

/// The points of each game of a sequence, in order (lila `Sheet.addResult`, version 2).
#[must_use]
pub fn sheet(games: &[ArenaGame], scoring: Scoring) -> Vec<u32> {
    // Previous games' kinds, most recent last: Some(true) win, Some(false) loss, None draw
    // (quick draws included).
    let mut past: Vec<Option<bool>> = Vec::with_capacity(games.len());
    let mut points = Vec::with_capacity(games.len());
    for g in games {
        let on_fire = past.len() >= 2 && past[past.len() - 2..] == [Some(true), Some(true)];
        let value = match g.result {
            GameResult::Draw if g.plies < QUICK_DRAW_PLIES => 0,
            GameResult::Draw => {
                // A draw streak: the last non-loss result was a draw.
                let draw_streak = past.iter().rev().find(|k| **k != Some(false)) == Some(&None);
                if scoring.streaks && on_fire {
                    2
                } else if draw_streak && g.plies < scoring.long_game_plies {
                    0
                } else {
                    1
                }
            }
            GameResult::Win => {
                let base = if scoring.streaks && on_fire { 4 } else { 2 };
                base + u32::from(g.berserk && g.plies >= BERSERK_MIN_PLIES)
            }
            GameResult::Loss => 0,
        };
        past.push(match g.result {
            GameResult::Win => Some(true),
            GameResult::Loss => Some(false),
            GameResult::Draw => None,
        });
        points.push(value);
    }
    points
}

/// Whether the player would be on fire in the next game: the last two games were wins.
#[must_use]
pub fn on_fire(games: &[ArenaGame]) -> bool {
    games.len() >= 2
        && games[games.len() - 2..]
            .iter()
            .all(|g| g.result == GameResult::Win)
}

/// Lila's colour history of a player: `(strike, balance)`. `strike` counts the games in a row
/// with the same colour up to the last one, positive for white, negative for black; `balance`
/// is whites minus blacks. The player with the smaller history (strike first, then balance) gets
/// white.
#[must_use]
pub fn colour_history(games: &[ArenaGame]) -> (i32, i32) {
    games
        .iter()
        .fold((0, 0), |(strike, balance), g| match g.colour {
            Colour::White => ((strike + 1).max(1), balance + 1),
            Colour::Black => ((strike - 1).min(-1), balance - 1),
        })
}

/// No two players who have both had this many games in a row with the same colour are paired
/// (lila `AntmaPairing.maxStrike`).
pub const MAX_STRIKE: i32 = 3;

/// A player of an arena: id, rating and finished games (the first game first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaPlayer {
    /// The player's id (unique in the arena).
    pub id: u32,
    /// Rating at the start of the arena.
    pub rating: u32,
    /// The games finished in the arena, in order.
    pub games: Vec<ArenaGame>,
}

impl ArenaPlayer {
    /// The arena score, in arena points.
    #[must_use]
    pub fn score(&self, scoring: Scoring) -> u32 {
        sheet(&self.games, scoring).iter().sum()
    }

    /// Whether the player is on fire (the next game counts double).
    #[must_use]
    pub fn on_fire(&self) -> bool {
        on_fire(&self.games)
    }

    /// The number of wins in a row up to the last game.
    #[must_use]
    pub fn win_streak(&self) -> usize {
        self.games
            .iter()
            .rev()
            .take_while(|g| g.result == GameResult::Win)
            .count()
    }

    /// The opponent of the last game, if any.
    #[must_use]
    pub fn last_opponent(&self) -> Option<u32> {
        self.games.last().map(|g| g.opponent)
    }
}

/// One pairing made by [`pair_waiting`]: the players' ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArenaPairing {
    /// The player with white.
    pub white: u32,
    /// The player with black.
    pub black: u32,
}

/// The result of [`pair_waiting`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WaitingPairings {
    /// The new games, the best-ranked first.
    pub pairs: Vec<ArenaPairing>,
    /// The players left waiting (one when the count is odd, more when rematches or colour
    /// streaks forbid every other pairing), best-ranked first.
    pub unpaired: Vec<u32>,
}

/// Largest group paired by an exhaustive search; larger waiting lists are paired in groups of
/// this size along the ranking (lila also splits large lists).
const GROUP: usize = 16;

/// Pairs the players waiting right now.
///
/// The waiting players are ranked by arena score, then rating, then id (the lichess ranking).
/// Among all pairings that never pair a player with the last opponent of either player nor two
/// players who both had [`MAX_STRIKE`] games in a row with the same colour, the one is chosen
/// that pairs the most players, then keeps the paired players closest in the ranking (the sum of
/// the rank distances, lila's `pairScore` without its rating term), then leaves the
/// lowest-ranked players waiting; between equal choices, the better-ranked player meets the
/// closer one. Colours follow [`colour_history`]; when both histories are
/// equal the better-ranked player gets white (lichess draws lots).
#[must_use]
pub fn pair_waiting(waiting: &[ArenaPlayer], scoring: Scoring) -> WaitingPairings {
    let mut ranked: Vec<(&ArenaPlayer, u32)> =
        waiting.iter().map(|p| (p, p.score(scoring))).collect();
    ranked.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.0.rating.cmp(&a.0.rating))
            .then(a.0.id.cmp(&b.0.id))
    });
    let players: Vec<&ArenaPlayer> = ranked.into_iter().map(|(p, _)| p).collect();

    let mut result = WaitingPairings::default();
    let mut carried: Vec<usize> = Vec::new();
    let mut next = 0;
    while next < players.len() || !carried.is_empty() {
        let take = GROUP.saturating_sub(carried.len()).max(1);
        let mut group = std::mem::take(&mut carried);
        group.extend(next..(next + take).min(players.len()));
        let last_group = next + take >= players.len();
        next = (next + take).min(players.len());
        let (pairs, left) = best_pairing(&players, &group);
        for (a, b) in pairs {
            result.pairs.push(colours(players[a], players[b]));
        }
        if last_group {
            result.unpaired.extend(left.iter().map(|&i| players[i].id));
            break;
        }
        // Players no one in their group could meet wait; at most half a group is carried on.
        let keep = left.len().min(GROUP / 2);
        result
            .unpaired
            .extend(left[keep..].iter().map(|&i| players[i].id));
        carried = left[..keep].to_vec();
    }
    result
}

fn can_meet(a: &ArenaPlayer, b: &ArenaPlayer) -> bool {
    if a.last_opponent() == Some(b.id) || b.last_opponent() == Some(a.id) {
        return false;
    }
    let (sa, _) = colour_history(&a.games);
    let (sb, _) = colour_history(&b.games);
    (sa > -MAX_STRIKE || sb > -MAX_STRIKE) && (sa < MAX_STRIKE || sb < MAX_STRIKE)
}

fn colours(a: &ArenaPlayer, b: &ArenaPlayer) -> ArenaPairing {
    // `a` is the better ranked.
    if colour_history(&a.games) <= colour_history(&b.games) {
        ArenaPairing {
            white: a.id,
            black: b.id,
        }
    } else {
        ArenaPairing {
            white: b.id,
            black: a.id,
        }
    }
}

/// Exhaustive search over the players at ranks `group` (ascending): the pairs (better-ranked
/// first) and the players left.
fn best_pairing(players: &[&ArenaPlayer], group: &[usize]) -> (Vec<(usize, usize)>, Vec<usize>) {
    let n = group.len();
    // Score of a plan: (pairs, -distance, -waiting penalty), greater is better; the waiting
    // penalty prefers leaving the lowest-ranked (highest index) players.
    type Plan = (usize, i64, i64);
    let size = 1usize << n;
    let mut best: Vec<Option<(Plan, u8, u8)>> = vec![None; size];
    best[size - 1] = Some(((0, 0, 0), 0, 0));
    // best[mask] = the best plan for the players not in `mask`, and its first choice.
    for mask in (0..size - 1).rev() {
        let i = (0..n)
            .find(|&i| mask & (1 << i) == 0)
            .expect("a free player");
        let mut choice: Option<(Plan, u8, u8)> = None;
        let mut consider = |plan: Plan, a: usize, b: usize| {
            if choice.is_none_or(|(c, _, _)| plan > c) {
                choice = Some((plan, a as u8, b as u8));
            }
        };
        // Leave i waiting.
        if let Some((p, _, _)) = best[mask | (1 << i)] {
            let penalty = (n - i) as i64;
            consider((p.0, p.1, p.2 - penalty), i, i);
        }
        for j in i + 1..n {
            if mask & (1 << j) == 0 && can_meet(players[group[i]], players[group[j]]) {
                if let Some((p, _, _)) = best[mask | (1 << i) | (1 << j)] {
                    let distance = (group[j] - group[i]) as i64;
                    consider((p.0 + 1, p.1 - distance, p.2), i, j);
                }
            }
        }
        best[mask] = choice;
    }
    let mut pairs = Vec::new();
    let mut left = Vec::new();
    let mut mask = 0usize;
    while mask != size - 1 {
        let (_, a, b) = best[mask].expect("every state has a plan");
        let (a, b) = (a as usize, b as usize);
        if a == b {
            left.push(group[a]);
            mask |= 1 << a;
        } else {
            pairs.push((group[a], group[b]));
            mask |= (1 << a) | (1 << b);
        }
    }
    (pairs, left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{Draw as D, Loss as L, Win as W};

    /// Games against opponent 99 with white, no berserk, 40 plies unless told.
    fn games(results: &[GameResult]) -> Vec<ArenaGame> {
        results.iter().map(|&r| game(r, false, 40)).collect()
    }

    fn game(result: GameResult, berserk: bool, plies: u32) -> ArenaGame {
        ArenaGame {
            opponent: 99,
            colour: Colour::White,
            result,
            berserk,
            plies,
        }
    }

    fn total(g: &[ArenaGame]) -> u32 {
        sheet(g, Scoring::default()).iter().sum()
    }

    #[test]
    fn lichess_example_two_wins_then_a_draw_is_six() {
        // "For example, two wins followed by a draw will be worth 6 points: 2 + 2 + (2 x 1)".
        assert_eq!(sheet(&games(&[W, W, D]), Scoring::default()), [2, 2, 2]);
        assert_eq!(total(&games(&[W, W, D])), 6);
    }

    #[test]
    fn streaks_double_after_two_wins_until_a_game_is_not_won() {
        // W W W D W L: 2 + 2 + 4 (on fire) + 2 (draw on fire) + 2 (fire ended) + 0 = 12.
        assert_eq!(
            sheet(&games(&[W, W, W, D, W, L]), Scoring::default()),
            [2, 2, 4, 2, 2, 0]
        );
        // W W L W W W W: 2 2 0 2 2 4 4.
        assert_eq!(
            sheet(&games(&[W, W, L, W, W, W, W]), Scoring::default()),
            [2, 2, 0, 2, 2, 4, 4]
        );
        assert!(on_fire(&games(&[L, W, W])));
        assert!(!on_fire(&games(&[W, W, D])));
        // Streaks switched off: a win is always 2.
        let off = Scoring {
            streaks: false,
            ..Scoring::default()
        };
        assert_eq!(sheet(&games(&[W, W, W, D]), off), [2, 2, 2, 1]);
    }

    #[test]
    fn berserk_adds_a_point_to_a_win_of_at_least_seven_moves() {
        let s = Scoring::default();
        assert_eq!(sheet(&[game(W, true, 14)], s), [3]);
        assert_eq!(sheet(&[game(W, true, 13)], s), [2]);
        assert_eq!(sheet(&[game(D, true, 40)], s), [1]);
        assert_eq!(sheet(&[game(L, true, 40)], s), [0]);
        // On fire and berserk: 4 + 1.
        let g = [game(W, false, 40), game(W, false, 40), game(W, true, 30)];
        assert_eq!(sheet(&g, s), [2, 2, 5]);
    }

    #[test]
    fn quick_draws_and_draw_streaks() {
        let s = Scoring::default();
        // A draw within the first 10 moves (fewer than 20 plies) scores nothing.
        assert_eq!(sheet(&[game(D, false, 19)], s), [0]);
        assert_eq!(sheet(&[game(D, false, 20)], s), [1]);
        // Consecutive draws: only the first scores, unless the draw lasted 30 moves (60 plies).
        assert_eq!(sheet(&games(&[D, D, D]), s), [1, 0, 0]);
        let long = [game(D, false, 40), game(D, false, 60)];
        assert_eq!(sheet(&long, s), [1, 1]);
        // A loss does not end the draw streak, a win does.
        assert_eq!(sheet(&games(&[D, L, D]), s), [1, 0, 0]);
        assert_eq!(sheet(&games(&[D, W, D]), s), [1, 2, 1]);
        // A quick draw starts a draw streak too.
        assert_eq!(sheet(&[game(D, false, 10), game(D, false, 40)], s), [0, 0]);
        // On fire, a draw is worth 2 even after a draw earlier.
        assert_eq!(sheet(&games(&[D, W, W, D]), s), [1, 2, 2, 2]);
    }

    #[test]
    fn colour_history_is_strike_then_balance() {
        let with = |colours: &[Colour]| -> Vec<ArenaGame> {
            colours
                .iter()
                .map(|&colour| ArenaGame {
                    colour,
                    ..game(W, false, 40)
                })
                .collect()
        };
        use Colour::{Black as B, White as Wh};
        assert_eq!(colour_history(&[]), (0, 0));
        assert_eq!(colour_history(&with(&[Wh, Wh])), (2, 2));
        assert_eq!(colour_history(&with(&[Wh, Wh, B])), (-1, 1));
        assert_eq!(colour_history(&with(&[B, Wh])), (1, 0));
    }

    fn player(id: u32, rating: u32, games: Vec<ArenaGame>) -> ArenaPlayer {
        ArenaPlayer { id, rating, games }
    }

    fn played(opponent: u32, colour: Colour, result: GameResult) -> ArenaGame {
        ArenaGame {
            opponent,
            colour,
            result,
            berserk: false,
            plies: 40,
        }
    }

    #[test]
    fn pairs_neighbours_in_the_ranking_and_leaves_the_last_one_when_odd() {
        // No games yet: ranked by rating 1900 (5), 1800 (2), 1700 (4), 1600 (1), 1500 (3).
        let waiting = vec![
            player(1, 1600, vec![]),
            player(2, 1800, vec![]),
            player(3, 1500, vec![]),
            player(4, 1700, vec![]),
            player(5, 1900, vec![]),
        ];
        let p = pair_waiting(&waiting, Scoring::default());
        // Equal (empty) colour histories: the better-ranked gets white.
        assert_eq!(
            p.pairs,
            vec![
                ArenaPairing { white: 5, black: 2 },
                ArenaPairing { white: 4, black: 1 }
            ]
        );
        assert_eq!(p.unpaired, vec![3]);
    }

    #[test]
    fn score_ranks_before_rating_and_no_rematch_with_the_last_opponent() {
        use Colour::{Black as B, White as Wh};
        // 1 (1500) beat 2 (1900) last; 3 (1800) beat 4 (1700) last. Scores 2, 0, 2, 0:
        // ranking 3 (2, 1800), 1 (2, 1500), 2 (0, 1900), 4 (0, 1700).
        let waiting = vec![
            player(1, 1500, vec![played(2, Wh, W)]),
            player(2, 1900, vec![played(1, B, L)]),
            player(3, 1800, vec![played(4, B, W)]),
            player(4, 1700, vec![played(3, Wh, L)]),
        ];
        let p = pair_waiting(&waiting, Scoring::default());
        // 3-1 are neighbours and may meet; 2-4 too. Colours: 3 had black last (strike -1) and
        // 1 white (strike 1): 3 gets white; 2 had black, 4 white: 2 gets white.
        assert_eq!(
            p.pairs,
            vec![
                ArenaPairing { white: 3, black: 1 },
                ArenaPairing { white: 2, black: 4 }
            ]
        );
        assert!(p.unpaired.is_empty());

        // Now 1 and 3 just played each other, and 2 and 4. Ranking 3, 1, 2, 4 again (indices
        // 0-3). Allowed plans: 3-2 + 1-4 (distances 2 + 2) or 3-4 + 1-2 (3 + 1): equal totals,
        // so the better-ranked player meets the closer one: 3-2 and 1-4. Colours: 3 and 2 both
        // had white last (history (1, 1)): the better-ranked 3 gets white; 1 and 4 both black
        // (-1, -1): 1 gets white.
        let waiting = vec![
            player(1, 1500, vec![played(3, B, W)]),
            player(2, 1900, vec![played(4, Wh, L)]),
            player(3, 1800, vec![played(1, Wh, W)]),
            player(4, 1700, vec![played(2, B, L)]),
        ];
        let p = pair_waiting(&waiting, Scoring::default());
        assert_eq!(
            p.pairs,
            vec![
                ArenaPairing { white: 3, black: 2 },
                ArenaPairing { white: 1, black: 4 }
            ]
        );
        // Two players who just met and wait alone are not paired again.
        let waiting = vec![
            player(1, 1500, vec![played(2, Wh, D)]),
            player(2, 1600, vec![played(1, B, D)]),
        ];
        let p = pair_waiting(&waiting, Scoring::default());
        assert!(p.pairs.is_empty());
        assert_eq!(p.unpaired, vec![2, 1]);
    }

    #[test]
    fn two_players_with_three_whites_running_are_not_paired() {
        use Colour::White as Wh;
        let three_whites = |opp| {
            vec![
                played(opp, Wh, D),
                played(opp + 1, Wh, D),
                played(opp + 2, Wh, D),
            ]
        };
        let waiting = vec![
            player(1, 1500, three_whites(10)),
            player(2, 1500, three_whites(20)),
            player(3, 1400, vec![]),
        ];
        let p = pair_waiting(&waiting, Scoring::default());
        // 1 and 2 (1 point each, ranked 1 and 2 by id) cannot meet; 3 is ranked third, so the
        // closest pairing is 2-3 (distance 1, against 2 for 1-3), and 1 waits. 2 has three
        // whites running, 3 none: 3 gets white.
        assert_eq!(p.pairs, vec![ArenaPairing { white: 3, black: 2 }]);
        assert_eq!(p.unpaired, vec![1]);
    }

    #[test]
    fn large_waiting_lists_are_paired_in_groups() {
        let waiting: Vec<ArenaPlayer> = (1..=41).map(|id| player(id, 3000 - id, vec![])).collect();
        let p = pair_waiting(&waiting, Scoring::default());
        assert_eq!(p.pairs.len(), 20);
        assert_eq!(p.unpaired, vec![41]);
        // Neighbours by rating: 1-2, 3-4, …
        assert_eq!(p.pairs[0], ArenaPairing { white: 1, black: 2 });
        assert_eq!(
            p.pairs[19],
            ArenaPairing {
                white: 39,
                black: 40
            }
        );
    }

    #[test]
    fn player_summary() {
        let p = player(7, 1500, games(&[W, D, W, W]));
        assert_eq!(p.score(Scoring::default()), 2 + 1 + 2 + 2);
        assert!(p.on_fire());
        assert_eq!(p.win_streak(), 2);
        assert_eq!(p.last_opponent(), Some(99));
    }
}
