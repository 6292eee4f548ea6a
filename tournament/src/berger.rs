//! Round-robin schedules: the FIDE Berger tables.
//!
//! Source: FIDE Handbook C.05 (General Regulations for Competitions), Annex 1 "Details of Berger
//! Tables" (<https://handbook.fide.com/chapter/C05Annex1>), as reproduced e.g. at
//! <http://c.w.fox.tripod.com/chess/berger.html>:
//!
//! - Players are numbered 1..=N (N even). Round 1 is `1-N, 2-(N-1), 3-(N-2), …` (white first).
//! - With an odd number of players the table of the next even size is used and the highest
//!   number is the bye: whoever is paired with it sits the round out.
//! - A double round-robin repeats the table with the colours reversed; it is recommended that
//!   the last two rounds of the first cycle be exchanged, so that no one has the same colour
//!   three times running at the turn of the cycles.
//!
//! How the table is computed (checked against the published tables in the tests): in round `r`
//! the players `1..=N-1` sit on a circle of `N-1` places; player `N` meets the player `p` with
//! `2p ≡ r + 1 (mod N-1)`, with white in the even rounds; on board `b` (2..=N/2) player
//! `p + (b-1)` has white against `p - (b-1)` (both counted round the circle, 1..=N-1).

/// One game of a round: starting numbers (1-based) of the player with white and with black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Game {
    /// Starting number of the player with white.
    pub white: u32,
    /// Starting number of the player with black.
    pub black: u32,
}

impl Game {
    /// The game with the colours reversed (the second cycle of a double round-robin).
    #[must_use]
    pub const fn reversed(self) -> Self {
        Self {
            white: self.black,
            black: self.white,
        }
    }

    /// Whether `player` plays in this game.
    #[must_use]
    pub const fn has(self, player: u32) -> bool {
        self.white == player || self.black == player
    }
}

/// One round of a Berger table: its games, board 1 first, and the player who sits it out.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BergerRound {
    /// The games in the order of the published table (board 1 first).
    pub games: Vec<Game>,
    /// With an odd number of players, the one paired with the missing highest number
    /// (the bye of this round); `None` with an even number.
    pub bye: Option<u32>,
}

/// How the second cycle of a double round-robin is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DoubleCycle {
    /// C.05 Annex 1's recommendation: the last two rounds of the first cycle are exchanged, then
    /// the (unexchanged) table follows with the colours reversed. Needs at least 3 rounds per
    /// cycle (4 players or more); with fewer it is the same as [`DoubleCycle::Plain`].
    SwapLastTwo,
    /// The table, then the same table with the colours reversed.
    Plain,
}

/// The size of the Berger table used for `players` players: the number itself when even, the
/// next even number when odd (the highest number then being the bye).
#[must_use]
pub const fn table_size(players: u32) -> u32 {
    players + players % 2
}

/// The single round-robin for `players` players (numbered 1..=`players`): `table_size - 1`
/// rounds, each with every game of the FIDE Berger table. With an odd number the game against
/// the missing highest number is left out and that player is the round's [`BergerRound::bye`].
///
/// Fewer than 2 players have no games: the schedule is empty.
#[must_use]
pub fn schedule(players: u32) -> Vec<BergerRound> {
    if players < 2 {
        return Vec::new();
    }
    let n = table_size(players);
    let circle = n - 1;
    // The place on the circle 1..=circle of `x`, for any x (possibly 0 or negative).
    let wrap = |x: i64| -> u32 {
        let c = i64::from(circle);
        u32::try_from((x - 1).rem_euclid(c) + 1).expect("within 1..=circle")
    };
    (1..n)
        .map(|r| {
            // The opponent of N: 2p ≡ r + 1 (mod N-1).
            let p = if r % 2 == 1 {
                r.div_ceil(2)
            } else {
                (r + n) / 2
            };
            let first = if r % 2 == 0 {
                Game { white: n, black: p }
            } else {
                Game { white: p, black: n }
            };
            let mut games = vec![first];
            for b in 1..n / 2 {
                let white = wrap(i64::from(p) + i64::from(b));
                let black = wrap(i64::from(p) - i64::from(b));
                games.push(Game { white, black });
            }
            let mut bye = None;
            if players % 2 == 1 {
                bye = Some(p);
                games.retain(|g| !g.has(n));
            }
            BergerRound { games, bye }
        })
        .collect()
}

/// The double round-robin for `players` players: `2 × (table_size - 1)` rounds, the second cycle
/// being the table with the colours reversed, laid out as `layout` says (C.05 Annex 1).
#[must_use]
pub fn double_schedule(players: u32, layout: DoubleCycle) -> Vec<BergerRound> {
    let single = schedule(players);
    let mut first = single.clone();
    if layout == DoubleCycle::SwapLastTwo && first.len() >= 3 {
        let last = first.len() - 1;
        first.swap(last - 1, last);
    }
    let second = single.into_iter().map(|round| BergerRound {
        games: round.games.into_iter().map(Game::reversed).collect(),
        bye: round.bye,
    });
    first.into_iter().chain(second).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Parses a published table written as "1-4 2-3 / 4-3 1-2 / …" (rounds split by '/').
    fn table(text: &str) -> Vec<Vec<Game>> {
        text.split('/')
            .map(|round| {
                round
                    .split_whitespace()
                    .map(|g| {
                        let (w, b) = g.split_once('-').unwrap();
                        Game {
                            white: w.parse().unwrap(),
                            black: b.parse().unwrap(),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn games(rounds: &[BergerRound]) -> Vec<Vec<Game>> {
        rounds.iter().map(|r| r.games.clone()).collect()
    }

    // The published FIDE Berger tables (C.05 Annex 1), copied from the handbook's layout as
    // reproduced at http://c.w.fox.tripod.com/chess/berger.html, board 1 first.
    const FOUR: &str = "1-4 2-3 / 4-3 1-2 / 2-4 3-1";
    const SIX: &str = "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1";
    const EIGHT: &str = "1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / \
                         8-6 7-5 1-4 2-3 / 3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1";
    const TEN: &str = "1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 / \
                       10-7 8-6 9-5 1-4 2-3 / 3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 / \
                       4-10 5-3 6-2 7-1 8-9 / 10-9 1-8 2-7 3-6 4-5 / 5-10 6-4 7-3 8-2 9-1";
    const TWELVE: &str = "1-12 2-11 3-10 4-9 5-8 6-7 / 12-7 8-6 9-5 10-4 11-3 1-2 / \
                          2-12 3-1 4-11 5-10 6-9 7-8 / 12-8 9-7 10-6 11-5 1-4 2-3 / \
                          3-12 4-2 5-1 6-11 7-10 8-9 / 12-9 10-8 11-7 1-6 2-5 3-4 / \
                          4-12 5-3 6-2 7-1 8-11 9-10 / 12-10 11-9 1-8 2-7 3-6 4-5 / \
                          5-12 6-4 7-3 8-2 9-1 10-11 / 12-11 1-10 2-9 3-8 4-7 5-6 / \
                          6-12 7-5 8-4 9-3 10-2 11-1";

    #[test]
    fn even_tables_are_the_published_ones() {
        assert_eq!(games(&schedule(4)), table(FOUR));
        assert_eq!(games(&schedule(6)), table(SIX));
        assert_eq!(games(&schedule(8)), table(EIGHT));
        assert_eq!(games(&schedule(10)), table(TEN));
        assert_eq!(games(&schedule(12)), table(TWELVE));
        assert!(schedule(10).iter().all(|r| r.bye.is_none()));
    }

    #[test]
    fn odd_numbers_use_the_next_table_with_the_highest_number_as_bye() {
        for (odd, text) in [(3, FOUR), (5, SIX), (7, EIGHT), (9, TEN)] {
            let published = table(text);
            let ours = schedule(odd);
            assert_eq!(ours.len(), published.len());
            for (round, full) in ours.iter().zip(&published) {
                let dummy = odd + 1;
                let bye_game = full.iter().find(|g| g.has(dummy)).unwrap();
                let expected_bye = bye_game.white + bye_game.black - dummy;
                assert_eq!(round.bye, Some(expected_bye));
                let rest: Vec<Game> = full.iter().copied().filter(|g| !g.has(dummy)).collect();
                assert_eq!(round.games, rest);
            }
        }
        // 5 players, round 2 of the 6-table is 6-4 5-3 1-2: player 4 sits out.
        assert_eq!(schedule(5)[1].bye, Some(4));
        assert_eq!(
            schedule(5)[1].games,
            vec![Game { white: 5, black: 3 }, Game { white: 1, black: 2 }]
        );
    }

    #[test]
    fn fewer_than_two_players_have_no_rounds() {
        assert!(schedule(0).is_empty());
        assert!(schedule(1).is_empty());
        let two = schedule(2);
        assert_eq!(two.len(), 1);
        assert_eq!(two[0].games, vec![Game { white: 1, black: 2 }]);
    }

    #[test]
    fn everyone_meets_everyone_once_one_game_a_round_colours_balanced() {
        for players in 2..=24 {
            let rounds = schedule(players);
            assert_eq!(rounds.len() as u32, table_size(players) - 1);
            let mut met = HashSet::new();
            let mut whites = vec![0i32; players as usize + 1];
            let mut blacks = vec![0i32; players as usize + 1];
            for round in &rounds {
                let mut seen = HashSet::new();
                for g in &round.games {
                    assert!(g.white != g.black);
                    assert!((1..=players).contains(&g.white) && (1..=players).contains(&g.black));
                    assert!(
                        seen.insert(g.white) && seen.insert(g.black),
                        "{players}: twice"
                    );
                    assert!(met.insert((g.white.min(g.black), g.white.max(g.black))));
                    whites[g.white as usize] += 1;
                    blacks[g.black as usize] += 1;
                }
                if let Some(bye) = round.bye {
                    assert!(seen.insert(bye));
                }
                assert_eq!(seen.len() as u32, players, "{players}: someone missing");
            }
            assert_eq!(met.len() as u32, players * (players - 1) / 2);
            for p in 1..=players as usize {
                assert!((whites[p] - blacks[p]).abs() <= 1, "{players}: player {p}");
            }
        }
    }

    #[test]
    fn double_round_robin_reverses_colours_and_swaps_the_last_two_rounds() {
        // 4 players: first cycle 1-4 2-3 / 2-4 3-1 / 4-3 1-2 (rounds 2 and 3 exchanged),
        // second cycle 4-1 3-2 / 3-4 2-1 / 4-2 1-3.
        let double = double_schedule(4, DoubleCycle::SwapLastTwo);
        assert_eq!(
            games(&double),
            table("1-4 2-3 / 2-4 3-1 / 4-3 1-2 / 4-1 3-2 / 3-4 2-1 / 4-2 1-3")
        );
        let plain = double_schedule(4, DoubleCycle::Plain);
        assert_eq!(
            games(&plain),
            table("1-4 2-3 / 4-3 1-2 / 2-4 3-1 / 4-1 3-2 / 3-4 2-1 / 4-2 1-3")
        );
        // Each pair meets twice, once with each colour.
        for players in 3..=14 {
            let mut seen = HashSet::new();
            for round in double_schedule(players, DoubleCycle::SwapLastTwo) {
                for g in round.games {
                    assert!(seen.insert((g.white, g.black)));
                }
            }
            assert_eq!(seen.len() as u32, players * (players - 1));
        }
    }

    #[test]
    fn swapping_avoids_three_same_colours_running_at_the_turn() {
        // The reason for the recommendation: with the plain layout, e.g. player 1 of the
        // 4-table has black in rounds 3 (3-1), 4 (4-1) and 5 (2-1).
        for players in [4u32, 6, 8, 10, 12] {
            let runs = |layout| {
                let rounds = double_schedule(players, layout);
                (1..=players).any(|p| {
                    let colours: Vec<bool> = rounds
                        .iter()
                        .filter_map(|r| r.games.iter().find(|g| g.has(p)).map(|g| g.white == p))
                        .collect();
                    colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2])
                })
            };
            assert!(
                runs(DoubleCycle::Plain),
                "{players}: plain has a run of three"
            );
            assert!(
                !runs(DoubleCycle::SwapLastTwo),
                "{players}: swapped has none"
            );
        }
    }
}
