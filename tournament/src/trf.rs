//! The FIDE Tournament Report File, TRF16 (read and write), and bbpPairings' pairing output.
//!
//! A TRF16 file is made of lines whose first three characters name their kind:
//!
//! - `001`: a player, in fixed columns (1-based): 5–8 starting number, 10 sex, 11–13 title,
//!   15–47 name, 49–52 rating, 54–56 federation, 58–68 FIDE id, 70–79 birth date, 81–84
//!   points, 86–89 rank; then one block of 10 characters per round from column 92: the
//!   opponent (4 digits, `0000` for none), a blank, the colour (`w`, `b` or `-`), a blank, the
//!   result code, two blanks.
//! - `012`: the tournament's name.
//! - `XXR n`: the number of rounds (a javafo / bbpPairings extension, as are the next ones).
//! - `XXC`: configuration words; `white1` / `black1` give the first seed's colour in round 1,
//!   `rank` pairs by position in the file rather than by starting number.
//! - `XXZ a b c`: players absent from the round being paired.
//! - `XXP a b`: a pair of players who must not meet.
//!
//! Other lines are kept verbatim and written back in their order. This module does no I/O:
//! it reads and writes `&str` / `String`.

use thiserror::Error;

use crate::dutch::Pairing;
use crate::record::{Colour, Outcome, Player, Round};

/// A tournament as a TRF16 file describes it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tournament {
    /// The event's name (line `012`), empty when absent.
    pub name: String,
    /// The planned number of rounds (`XXR`), if given.
    pub rounds: Option<u32>,
    /// The players in file order, with their rounds so far.
    pub players: Vec<Player>,
    /// The TRF fields of each player that [`Player`] does not hold, parallel to `players`.
    pub details: Vec<PlayerDetails>,
    /// The colour of the first seed in round 1 (`XXC white1` / `black1`); `None` when not
    /// given (the pairing then assumes white, as FIDE's default).
    pub first_colour: Option<Colour>,
    /// Whether `XXC rank` asks to pair by position in the file instead of starting number.
    pub by_rank: bool,
    /// Starting numbers of the players absent from the next round (`XXZ`).
    pub absent: Vec<u32>,
    /// Pairs of starting numbers that must not be paired together (`XXP`).
    pub forbidden_pairs: Vec<(u32, u32)>,
    /// The other lines of the file, kept verbatim in their order.
    pub other_lines: Vec<String>,
}

/// The columns of a player line that only matter for reports, kept for writing the file back.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlayerDetails {
    /// Column 10: sex (`m`, `w` or blank).
    pub sex: String,
    /// Columns 11–13: title (`GM`, `IM`, ... or blank).
    pub title: String,
    /// Columns 54–56: federation.
    pub federation: String,
    /// Columns 58–68: FIDE id.
    pub fide_id: String,
    /// Columns 70–79: birth date.
    pub birth: String,
    /// Columns 86–89: rank after the last round (0 when blank).
    pub rank: u32,
}

/// What was wrong in a TRF file, and on which line (1-based).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("TRF line {line}: {message}")]
pub struct TrfError {
    /// The line, counting from 1 (0 when the whole file is at fault).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        message: message.into(),
    }
}

/// Characters `from..to` (0-based, end exclusive) of a line, trimmed; missing ones are blank.
fn field(chars: &[char], from: usize, to: usize) -> String {
    let to = to.min(chars.len());
    if from >= to {
        return String::new();
    }
    chars[from..to]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

fn parse_number(text: &str, line: usize, what: &str) -> Result<Option<u32>, TrfError> {
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<u32>()
        .map(Some)
        .map_err(|_| err(line, format!("{what} {text:?} is not a number")))
}

/// One 8-character round block: opponent, colour and result.
fn parse_round(block: &str, line: usize, round: usize) -> Result<Round, TrfError> {
    let chars: Vec<char> = block.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or(' ');
    let opponent_text = field(&chars, 0, 4);
    let opponent = match parse_number(&opponent_text, line, &format!("round {round}: opponent"))? {
        None | Some(0) => None,
        Some(n) => Some(n),
    };
    let colour = match at(5) {
        'w' | 'W' => Some(Colour::White),
        'b' | 'B' => Some(Colour::Black),
        '-' | ' ' => None,
        c => {
            return Err(err(
                line,
                format!("round {round}: colour {c:?} is not w, b or -"),
            ))
        }
    };
    let outcome = match at(7) {
        '1' | 'W' | 'w' => Outcome::Win,
        '=' | 'D' | 'd' => Outcome::Draw,
        '0' | 'L' | 'l' => Outcome::Loss,
        '+' => Outcome::ForfeitWin,
        '-' => Outcome::ForfeitLoss,
        'U' | 'u' => Outcome::PairingBye,
        'F' | 'f' => Outcome::FullBye,
        'H' | 'h' => Outcome::HalfBye,
        'Z' | 'z' | ' ' => Outcome::ZeroBye,
        c => {
            return Err(err(
                line,
                format!("round {round}: result code {c:?} is unknown"),
            ))
        }
    };
    if outcome.is_played() && (opponent.is_none() || colour.is_none()) {
        return Err(err(
            line,
            format!("round {round}: a played game needs an opponent and a colour"),
        ));
    }
    if matches!(
        outcome,
        Outcome::PairingBye | Outcome::FullBye | Outcome::HalfBye | Outcome::ZeroBye
    ) && (opponent.is_some() || colour.is_some())
    {
        return Err(err(
            line,
            format!("round {round}: a bye has no opponent nor colour"),
        ));
    }
    Ok(Round {
        opponent,
        colour,
        outcome,
    })
}

fn parse_player(text: &str, line: usize) -> Result<(Player, PlayerDetails), TrfError> {
    let chars: Vec<char> = text.chars().collect();
    let number = parse_number(&field(&chars, 4, 8), line, "starting number")?
        .filter(|&n| n > 0)
        .ok_or_else(|| err(line, "a player line needs a starting number (columns 5-8)"))?;
    let rating = parse_number(&field(&chars, 48, 52), line, "rating")?.unwrap_or(0);
    let points = field(&chars, 80, 84);
    if !points.is_empty() && points.parse::<f64>().is_err() {
        return Err(err(line, format!("points {points:?} are not a number")));
    }
    let rank = parse_number(&field(&chars, 85, 89), line, "rank")?.unwrap_or(0);
    let details = PlayerDetails {
        sex: field(&chars, 9, 10),
        title: field(&chars, 10, 13),
        federation: field(&chars, 53, 56),
        fide_id: field(&chars, 57, 68),
        birth: field(&chars, 69, 79),
        rank,
    };
    let mut rounds = Vec::new();
    let tail: String = chars.iter().skip(91).collect();
    let tail: Vec<char> = tail.trim_end().chars().collect();
    let mut start = 0;
    while start < tail.len() {
        let block: String = tail[start..(start + 8).min(tail.len())].iter().collect();
        rounds.push(parse_round(&block, line, rounds.len() + 1)?);
        start += 10;
    }
    let name = field(&chars, 14, 47);
    Ok((
        Player {
            number,
            name,
            rating,
            rounds,
        },
        details,
    ))
}

fn numbers(text: &str, line: usize, what: &str) -> Result<Vec<u32>, TrfError> {
    text.split_whitespace()
        .map(|w| parse_number(w, line, what).map(|n| n.unwrap_or(0)))
        .collect()
}

impl Tournament {
    /// Read a TRF16 file.
    ///
    /// # Errors
    /// A [`TrfError`] naming the first bad line: a player line without a valid starting
    /// number, a malformed round block (unknown colour or result code, a played game without
    /// opponent, a bye with one), a non-numeric `XXR`, a duplicated starting number, or an
    /// opponent who is not in the file.
    pub fn parse(text: &str) -> Result<Self, TrfError> {
        let mut t = Self::default();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let raw = raw.trim_end_matches('\r');
            if raw.trim().is_empty() {
                continue;
            }
            let code: String = raw.chars().take(3).collect();
            let rest: String = raw.chars().skip(4).collect();
            match code.as_str() {
                "001" => {
                    let (player, details) = parse_player(raw, line)?;
                    if t.players.iter().any(|p| p.number == player.number) {
                        return Err(err(
                            line,
                            format!("starting number {} appears twice", player.number),
                        ));
                    }
                    t.players.push(player);
                    t.details.push(details);
                }
                "012" => t.name = rest.trim().to_string(),
                "XXR" => {
                    let n = parse_number(rest.trim(), line, "number of rounds")?;
                    t.rounds = Some(n.ok_or_else(|| err(line, "XXR needs a number of rounds"))?);
                }
                "XXC" => {
                    for word in rest.split_whitespace() {
                        match word {
                            "white1" => t.first_colour = Some(Colour::White),
                            "black1" => t.first_colour = Some(Colour::Black),
                            "rank" => t.by_rank = true,
                            _ => {
                                return Err(err(
                                    line,
                                    format!("XXC: unknown configuration {word:?}"),
                                ))
                            }
                        }
                    }
                }
                "XXZ" => t.absent.extend(numbers(&rest, line, "XXZ: player")?),
                "XXP" => {
                    let ids = numbers(&rest, line, "XXP: player")?;
                    let [a, b] = ids[..] else {
                        return Err(err(line, "XXP needs exactly two starting numbers"));
                    };
                    t.forbidden_pairs.push((a, b));
                }
                _ => t.other_lines.push(raw.to_string()),
            }
        }
        // Every opponent must be a player of the file.
        let known: std::collections::HashSet<u32> = t.players.iter().map(|p| p.number).collect();
        for p in &t.players {
            for (r, round) in p.rounds.iter().enumerate() {
                if let Some(o) = round.opponent {
                    if !known.contains(&o) {
                        return Err(err(
                            line_of_player(text, p.number).unwrap_or(0),
                            format!("round {}: opponent {o} is not a player of the file", r + 1),
                        ));
                    }
                }
            }
        }
        Ok(t)
    }

    /// Write the tournament as TRF16: `012`, the other kept lines, `XXR`, `XXC`, `XXZ`, `XXP`,
    /// then the players. Points are recomputed from the rounds; `W`/`D`/`L` (unrated games) are
    /// written `1`/`=`/`0`, a blank absence `0000 - Z`.
    #[must_use]
    pub fn to_trf(&self) -> String {
        let mut out = String::new();
        if !self.name.is_empty() {
            out.push_str(&format!("012 {}\n", self.name));
        }
        for l in &self.other_lines {
            out.push_str(l);
            out.push('\n');
        }
        if let Some(r) = self.rounds {
            out.push_str(&format!("XXR {r}\n"));
        }
        let mut config = Vec::new();
        match self.first_colour {
            Some(Colour::White) => config.push("white1"),
            Some(Colour::Black) => config.push("black1"),
            None => {}
        }
        if self.by_rank {
            config.push("rank");
        }
        if !config.is_empty() {
            out.push_str(&format!("XXC {}\n", config.join(" ")));
        }
        if !self.absent.is_empty() {
            let ids: Vec<String> = self.absent.iter().map(u32::to_string).collect();
            out.push_str(&format!("XXZ {}\n", ids.join(" ")));
        }
        for (a, b) in &self.forbidden_pairs {
            out.push_str(&format!("XXP {a} {b}\n"));
        }
        let blank = PlayerDetails::default();
        for (i, p) in self.players.iter().enumerate() {
            let d = self.details.get(i).unwrap_or(&blank);
            out.push_str(&player_line(p, d));
            out.push('\n');
        }
        out
    }
}

fn line_of_player(text: &str, number: u32) -> Option<usize> {
    text.lines().enumerate().find_map(|(i, l)| {
        let chars: Vec<char> = l.chars().collect();
        (l.starts_with("001") && field(&chars, 4, 8).parse::<u32>().ok() == Some(number))
            .then_some(i + 1)
    })
}

/// Put `text` into `line` at 0-based column `at`, left- or right-aligned in `width` columns.
fn put(line: &mut Vec<char>, at: usize, width: usize, text: &str, right: bool) {
    let chars: Vec<char> = text.chars().take(width).collect();
    let start = if right { at + width - chars.len() } else { at };
    if line.len() < start + chars.len() {
        line.resize(start + chars.len(), ' ');
    }
    line[start..start + chars.len()].copy_from_slice(&chars);
}

fn result_code(o: Outcome) -> char {
    match o {
        Outcome::Win => '1',
        Outcome::Draw => '=',
        Outcome::Loss => '0',
        Outcome::ForfeitWin => '+',
        Outcome::ForfeitLoss => '-',
        Outcome::PairingBye => 'U',
        Outcome::FullBye => 'F',
        Outcome::HalfBye => 'H',
        Outcome::ZeroBye => 'Z',
    }
}

fn player_line(p: &Player, d: &PlayerDetails) -> String {
    let mut line: Vec<char> = "001".chars().collect();
    put(&mut line, 4, 4, &p.number.to_string(), true);
    put(&mut line, 9, 1, &d.sex, false);
    put(&mut line, 10, 3, &d.title, true);
    put(&mut line, 14, 33, &p.name, false);
    if p.rating > 0 {
        put(&mut line, 48, 4, &p.rating.to_string(), true);
    }
    put(&mut line, 53, 3, &d.federation, false);
    put(&mut line, 57, 11, &d.fide_id, true);
    put(&mut line, 69, 10, &d.birth, false);
    let hp = p.half_points();
    put(
        &mut line,
        80,
        4,
        &format!("{}.{}", hp / 2, if hp % 2 == 1 { 5 } else { 0 }),
        true,
    );
    put(&mut line, 85, 4, &d.rank.to_string(), true);
    for (r, round) in p.rounds.iter().enumerate() {
        let at = 91 + 10 * r;
        let opp = round
            .opponent
            .map_or_else(|| "0000".to_string(), |o| o.to_string());
        put(&mut line, at, 4, &opp, true);
        let colour = match round.colour {
            Some(Colour::White) => "w",
            Some(Colour::Black) => "b",
            None => "-",
        };
        put(&mut line, at + 5, 1, colour, false);
        put(
            &mut line,
            at + 7,
            1,
            &result_code(round.outcome).to_string(),
            false,
        );
    }
    line.into_iter().collect::<String>().trim_end().to_string()
}

/// The pairings in bbpPairings' output format: the number of pairs on the first line, then
/// one `white black` line per pair in the given order, `N 0` for the pairing-allocated bye.
#[must_use]
pub fn write_pairings(pairings: &[Pairing]) -> String {
    let mut out = format!("{}\n", pairings.len());
    for p in pairings {
        out.push_str(&format!("{} {}\n", p.white, p.black.unwrap_or(0)));
    }
    out
}

/// Read bbpPairings' output format (see [`write_pairings`]).
///
/// # Errors
/// A [`TrfError`] when the count is missing or wrong, or a line is not two numbers.
pub fn parse_pairings(text: &str) -> Result<Vec<Pairing>, TrfError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines.next().ok_or_else(|| err(1, "no number of pairs"))?;
    let count = parse_number(first.trim(), 1, "number of pairs")?.unwrap_or(0);
    let mut out = Vec::new();
    for (i, l) in lines {
        let ids = numbers(l, i + 1, "player")?;
        let [white, black] = ids[..] else {
            return Err(err(i + 1, "a pair is two starting numbers"));
        };
        out.push(Pairing {
            white,
            black: (black != 0).then_some(black),
        });
    }
    if out.len() != count as usize {
        return Err(err(
            0,
            format!("{count} pairs announced, {} given", out.len()),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "012 Test\nXXR 3\n\
001    1 m    Alpha                             2000                             1.5    1     2 w 1  0000 - H\n\
001    2 w GM Beta                              1900 THA    12345678 2000/01/01  0.0    2     1 b 0     3 w -\n\
001    3      Gamma                                                              2.0    3  0000 - U     2 b +\n";

    #[test]
    fn reads_players_and_headers() {
        let t = Tournament::parse(SAMPLE).unwrap();
        assert_eq!(t.name, "Test");
        assert_eq!(t.rounds, Some(3));
        assert_eq!(t.players.len(), 3);
        let beta = &t.players[1];
        assert_eq!(
            (beta.number, beta.name.as_str(), beta.rating),
            (2, "Beta", 1900)
        );
        assert_eq!(t.details[1].title, "GM");
        assert_eq!(t.details[1].federation, "THA");
        assert_eq!(
            beta.rounds[1],
            Round {
                opponent: Some(3),
                colour: Some(Colour::White),
                outcome: Outcome::ForfeitLoss
            }
        );
        assert_eq!(t.players[0].rounds[1].outcome, Outcome::HalfBye);
        assert_eq!(t.players[2].rounds[0].outcome, Outcome::PairingBye);
        assert_eq!(t.players[2].rating, 0);
    }

    #[test]
    fn round_trip() {
        let t = Tournament::parse(SAMPLE).unwrap();
        assert_eq!(t.to_trf(), SAMPLE);
        assert_eq!(Tournament::parse(&t.to_trf()).unwrap(), t);
    }

    #[test]
    fn configuration_lines() {
        let t = Tournament::parse("XXR 5\nXXC black1 rank\nXXZ 3 4\nXXP 1 2\n").unwrap();
        assert_eq!(t.first_colour, Some(Colour::Black));
        assert!(t.by_rank);
        assert_eq!(t.absent, vec![3, 4]);
        assert_eq!(t.forbidden_pairs, vec![(1, 2)]);
        assert_eq!(Tournament::parse(&t.to_trf()).unwrap(), t);
    }

    #[test]
    fn errors_name_the_line() {
        let e = Tournament::parse("012 x\n001    x\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = Tournament::parse("XXR many\n").unwrap_err();
        assert_eq!(e.line, 1);
        let bad = SAMPLE.replacen("     2 w 1", "     2 q 1", 1);
        assert!(Tournament::parse(&bad)
            .unwrap_err()
            .message
            .contains("colour"));
        let bad = SAMPLE.replacen("     2 w 1", "     9 w 1", 1);
        let e = Tournament::parse(&bad).unwrap_err();
        assert!(e.message.contains("opponent 9"), "{e}");
        assert_eq!(e.line, 3);
        let bad = SAMPLE.replacen("0000 - U", "0000 w U", 1);
        assert!(Tournament::parse(&bad).is_err());
        let bad = SAMPLE.replacen("     2 w 1", "  0000 - 1", 1);
        assert!(Tournament::parse(&bad)
            .unwrap_err()
            .message
            .contains("played game"));
        // Nothing panics on arbitrary bytes.
        for s in ["001", "001 ééé 1", "XXP 1", "001    1 m  ü", "XXC x"] {
            let _ = Tournament::parse(s);
        }
    }

    #[test]
    fn pairings_format() {
        let p = vec![
            Pairing {
                white: 1,
                black: Some(2),
            },
            Pairing {
                white: 3,
                black: None,
            },
        ];
        let text = write_pairings(&p);
        assert_eq!(text, "2\n1 2\n3 0\n");
        assert_eq!(parse_pairings(&text).unwrap(), p);
        assert!(parse_pairings("3\n1 2\n").is_err());
    }
}
