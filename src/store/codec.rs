//! How the enums of a row are stored: each as TEXT under one fixed name ([`Stored::db_name`]),
//! written from the enum and decoded when a row is read, so no other module writes or reads a
//! stored name. A name the enum does not know is a decode error naming the column and the text
//! (a corrupt row is an internal error, never a panic).
//!
//! A hand-written trait rather than `#[derive(sqlx::Type)]`: half of these types come from the
//! rules crate (`Color`, `Ruleset`, `Variant`, `CountAction`), where sqlx's traits cannot be implemented.

use makruk::{Color, CountAction, Ruleset, Variant};
use sqlx::any::AnyRow;
use sqlx::Row as _;

use crate::clock::{Kind, TimeControl};
use crate::types::{
    ChallengeState, ColorChoice, EndReason, GameResult, PairingResult, TournamentFormat,
    TournamentState,
};

/// Whether a game is being played (at most one per channel, a unique index) or is over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameState {
    Active,
    /// Over: the row has a result and an end reason.
    Finished,
}

/// An enum stored as TEXT under a fixed name per value.
pub trait Stored: Copy + 'static {
    /// Every value (decoding looks the name up among them).
    const ALL: &'static [Self];

    /// The stored name of `self`.
    fn db_name(self) -> &'static str;

    /// The value stored as `name`, if any.
    fn from_db_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.db_name() == name)
    }
}

impl Stored for GameState {
    const ALL: &'static [GameState] = &[GameState::Active, GameState::Finished];

    fn db_name(self) -> &'static str {
        match self {
            GameState::Active => "active",
            GameState::Finished => "finished",
        }
    }
}

/// The PGN result (`1-0`, `0-1`, `1/2-1/2`, `*`).
impl Stored for GameResult {
    const ALL: &'static [GameResult] = &[
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Aborted,
    ];

    fn db_name(self) -> &'static str {
        self.pgn()
    }
}

impl Stored for EndReason {
    const ALL: &'static [EndReason] = &EndReason::ALL;

    fn db_name(self) -> &'static str {
        self.name()
    }
}

/// `white` | `black`: the side of an offer.
impl Stored for Color {
    const ALL: &'static [Color] = &Color::ALL;

    fn db_name(self) -> &'static str {
        self.name()
    }
}

impl Stored for Ruleset {
    const ALL: &'static [Ruleset] = &Ruleset::ALL;

    fn db_name(self) -> &'static str {
        self.name()
    }
}

impl Stored for Variant {
    const ALL: &'static [Variant] = &Variant::ALL;

    fn db_name(self) -> &'static str {
        self.name()
    }
}

impl Stored for ColorChoice {
    const ALL: &'static [ColorChoice] =
        &[ColorChoice::White, ColorChoice::Black, ColorChoice::Random];

    fn db_name(self) -> &'static str {
        self.name()
    }
}

impl Stored for ChallengeState {
    const ALL: &'static [ChallengeState] = &[
        ChallengeState::Open,
        ChallengeState::Accepted,
        ChallengeState::Declined,
        ChallengeState::Withdrawn,
        ChallengeState::Expired,
    ];

    fn db_name(self) -> &'static str {
        self.name()
    }
}

impl Stored for CountAction {
    const ALL: &'static [CountAction] = &[CountAction::Start, CountAction::Stop];

    fn db_name(self) -> &'static str {
        match self {
            CountAction::Start => "start",
            CountAction::Stop => "stop",
        }
    }
}

/// A rating's speed: `live` | `correspondence`.
impl Stored for Kind {
    const ALL: &'static [Kind] = &[Kind::Live, Kind::Correspondence];

    fn db_name(self) -> &'static str {
        crate::rating::speed_name(self)
    }
}

/// A tournament's format: `swiss` | `round-robin` | `arena`.
impl Stored for TournamentFormat {
    const ALL: &'static [TournamentFormat] = &[
        TournamentFormat::Swiss,
        TournamentFormat::RoundRobin,
        TournamentFormat::Arena,
    ];

    fn db_name(self) -> &'static str {
        match self {
            TournamentFormat::Swiss => "swiss",
            TournamentFormat::RoundRobin => "round-robin",
            TournamentFormat::Arena => "arena",
        }
    }
}

/// A tournament's state: `open` | `running` | `finished` | `cancelled` (the partial unique
/// index of migration 0014 names the first two).
impl Stored for TournamentState {
    const ALL: &'static [TournamentState] = &[
        TournamentState::Open,
        TournamentState::Running,
        TournamentState::Finished,
        TournamentState::Cancelled,
    ];

    fn db_name(self) -> &'static str {
        match self {
            TournamentState::Open => "open",
            TournamentState::Running => "running",
            TournamentState::Finished => "finished",
            TournamentState::Cancelled => "cancelled",
        }
    }
}

/// A pairing's result, from White's side: `1-0`, `0-1`, `1/2-1/2`, the forfeits `+-`, `-+`,
/// `--`, and `bye`.
impl Stored for PairingResult {
    const ALL: &'static [PairingResult] = &[
        PairingResult::WhiteWins,
        PairingResult::BlackWins,
        PairingResult::Draw,
        PairingResult::WhiteForfeitWin,
        PairingResult::BlackForfeitWin,
        PairingResult::DoubleForfeit,
        PairingResult::Bye,
    ];

    fn db_name(self) -> &'static str {
        match self {
            PairingResult::WhiteWins => "1-0",
            PairingResult::BlackWins => "0-1",
            PairingResult::Draw => "1/2-1/2",
            PairingResult::WhiteForfeitWin => "+-",
            PairingResult::BlackForfeitWin => "-+",
            PairingResult::DoubleForfeit => "--",
            PairingResult::Bye => "bye",
        }
    }
}

/// The stored name of an optional value (NULL for `None`).
pub(super) fn db_name<T: Stored>(value: Option<T>) -> Option<&'static str> {
    value.map(Stored::db_name)
}

/// The decode error of column `column` holding `name`, which no value is stored as.
pub(super) fn unknown(column: &str, name: &str) -> sqlx::Error {
    sqlx::Error::ColumnDecode {
        index: column.to_owned(),
        source: format!("unknown stored name {name:?}").into(),
    }
}

/// Column `column` of `row`: a time control in its storage form
/// ([`TimeControl::from_storage`]).
pub(super) fn get_time_control(row: &AnyRow, column: &str) -> sqlx::Result<TimeControl> {
    let text: String = row.try_get(column)?;
    TimeControl::from_storage(&text).map_err(|e| sqlx::Error::ColumnDecode {
        index: column.to_owned(),
        source: e.into(),
    })
}

/// Column `column` of `row`: a flag stored as an INTEGER, 0 for false (SQLite has no boolean,
/// so both backends store 0 or 1).
pub(super) fn get_flag(row: &AnyRow, column: &str) -> sqlx::Result<bool> {
    Ok(row.try_get::<i64, _>(column)? != 0)
}

/// Column `column` of `row`, decoded.
pub(super) fn get<T: Stored>(row: &AnyRow, column: &str) -> sqlx::Result<T> {
    let name: String = row.try_get(column)?;
    T::from_db_name(&name).ok_or_else(|| unknown(column, &name))
}

/// Column `column` of `row`, decoded (`None` for NULL).
pub(super) fn get_opt<T: Stored>(row: &AnyRow, column: &str) -> sqlx::Result<Option<T>> {
    let name: Option<String> = row.try_get(column)?;
    name.map(|n| T::from_db_name(&n).ok_or_else(|| unknown(column, &n)))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trips<T: Stored + PartialEq + std::fmt::Debug>() {
        let mut names = Vec::new();
        for &v in T::ALL {
            assert_eq!(T::from_db_name(v.db_name()), Some(v));
            names.push(v.db_name());
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), T::ALL.len(), "stored names are distinct");
        assert_eq!(T::from_db_name("no such name"), None);
    }

    #[test]
    fn every_stored_name_reads_back() {
        round_trips::<GameState>();
        round_trips::<GameResult>();
        round_trips::<TournamentFormat>();
        round_trips::<TournamentState>();
        round_trips::<PairingResult>();
        round_trips::<EndReason>();
        round_trips::<Color>();
        round_trips::<Ruleset>();
        round_trips::<Variant>();
        round_trips::<ColorChoice>();
        round_trips::<ChallengeState>();
        round_trips::<CountAction>();
        round_trips::<Kind>();
    }
}
