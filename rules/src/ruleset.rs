//! [`Ruleset`]: which counting and draw rules a game follows, and [`RuleTable`]
//! ([`Ruleset::rules`]): everything in which the rulesets differ, as data (docs/RULES.md, one
//! section each). How a count runs by these rules is [`crate::count`].

use std::fmt;
use std::str::FromStr;

/// The four rulesets of docs/RULES.md (one "Ruleset" section each). They share the board, the
/// pieces and the moves; they differ in counting and draws. The differences themselves are data:
/// see [`RuleTable`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ruleset {
    /// Automatic counting as Fairy-Stockfish and pychess play (docs/RULES.md "Ruleset `standard`").
    #[default]
    Standard,
    /// Board's honour counted on request (docs/RULES.md "Ruleset `traditional`").
    Traditional,
    /// Counting by material (the "How to play Makruk" seed; docs/RULES.md "Ruleset `material`").
    Material,
    /// No counting; 50-move rule (the Ply Yard seed; docs/RULES.md "Ruleset `fifty-move`").
    FiftyMove,
}

impl Ruleset {
    /// Every ruleset, default first.
    pub const ALL: [Ruleset; 4] = [
        Ruleset::Standard,
        Ruleset::Traditional,
        Ruleset::Material,
        Ruleset::FiftyMove,
    ];

    /// `"standard"`, `"traditional"`, `"material"` or `"fifty-move"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Standard => "standard",
            Ruleset::Traditional => "traditional",
            Ruleset::Material => "material",
            Ruleset::FiftyMove => "fifty-move",
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error reading a ruleset name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset {0:?}: expected standard, traditional, material or fifty-move")]
pub struct ParseRulesetError(pub String);

impl FromStr for Ruleset {
    type Err = ParseRulesetError;

    /// Reads a name of [`Ruleset::name`], case-insensitively; `fifty_move`, `fiftymove` and
    /// `50-move` are accepted too.
    fn from_str(s: &str) -> Result<Ruleset, ParseRulesetError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "standard" => Ok(Ruleset::Standard),
            "traditional" => Ok(Ruleset::Traditional),
            "material" => Ok(Ruleset::Material),
            "fifty-move" | "fifty_move" | "fiftymove" | "50-move" => Ok(Ruleset::FiftyMove),
            _ => Err(ParseRulesetError(s.to_string())),
        }
    }
}

/// How board's honour (counting when both sides still have pieces) starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardHonour {
    /// Starts by itself when no Bia is left (Fairy-Stockfish; `standard`).
    Automatic,
    /// Started and stopped on request by the side to move (`traditional`, pychess
    /// `countStarted`).
    OnRequest,
    /// Starts by itself when no Bia is left; the side with less material counts and the count
    /// passes on when a capture changes that (`material`).
    ByMaterial,
    /// No counting at all (`fifty-move`).
    None,
}

/// What happens when the counting side checkmates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CounterMates {
    /// Mate wins, as always.
    Wins,
    /// The game is drawn (traditional board's honour; the Wikipedia seed).
    Draws,
}

/// A "no progress" draw rule: `plies` plies without a capture or a Bia move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NoProgressRule {
    /// Plies without capture or Bia move that draw (100 = 50 moves).
    pub plies: u32,
    /// The rule applies only while unpromoted Bia remain on the board (`material`).
    pub only_with_bia: bool,
    /// From this many plies on the game warns about the counter (80: docs/RULES.md "Ruleset
    /// `material`" shows it from there; `fifty-move` does the same).
    pub warn_from: u32,
}

/// The order of the pieces' honour table (docs/RULES.md "Ruleset `standard`" and "Ruleset
/// `material`"; the seeds differ from Fairy-Stockfish when the chasing side has one Khon and
/// two Ma). The limits themselves, in moves of the bare side, are [`crate::LimitReason`]'s.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PiecesHonourTable {
    /// Fairy-Stockfish: two Ruea 8, one Ruea 16, two Khon 22, two Ma 32, one Khon 44, else 64.
    FairyStockfish,
    /// The "How to play Makruk" seed: two Ruea 8, one Ruea 16, two Khon 22, one Khon 44,
    /// (no Ruea or Khon) two Ma 32, else 64.
    KhonBeforeMa,
}

/// Everything in which the rulesets differ, as data: docs/RULES.md, sections "Ruleset
/// `standard`", "Ruleset `traditional`", "Ruleset `material`" and "Ruleset `fifty-move`".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleTable {
    /// How board's honour starts.
    pub board_honour: BoardHonour,
    /// Whether pieces' honour (a bare Khun counting) exists. Informative: the count code
    /// follows [`RuleTable::board_honour`], and the one ruleset without pieces' honour
    /// (`fifty-move`) has [`BoardHonour::None`], no count at all.
    pub pieces_honour: bool,
    /// The order of the pieces' honour table.
    pub pieces_honour_table: PiecesHonourTable,
    /// Board's honour limit in moves of the counting side: 64 in every ruleset (Fairy-Stockfish
    /// `counting_limit`, the seeds). The one source of this number for the count's limit and
    /// [`crate::LimitReason::moves`].
    pub board_honour_moves: u32,
    /// What a mate by the counting side (board's honour) gives.
    pub counter_mates: CounterMates,
    /// Threefold repetition draws (Fairy-Stockfish's rule; automatically in this project's game
    /// layer).
    pub repetition: bool,
    /// Fairy-Stockfish insufficient material (both sides) draws.
    pub insufficient_material: bool,
    /// Khun against Khun draws.
    pub khun_vs_khun: bool,
    /// The 50-move (100-ply) rule, if any.
    pub no_progress: Option<NoProgressRule>,
    /// Warn when this many moves of the counting side or fewer are left on a count (a choice
    /// of this project, not a rule).
    pub count_warn_moves: u32,
}

impl Ruleset {
    /// The rule table of this ruleset.
    #[must_use]
    pub const fn rules(self) -> RuleTable {
        match self {
            Ruleset::Standard => RuleTable {
                board_honour: BoardHonour::Automatic,
                pieces_honour: true,
                pieces_honour_table: PiecesHonourTable::FairyStockfish,
                board_honour_moves: 64,
                counter_mates: CounterMates::Wins,
                repetition: true,
                insufficient_material: true,
                khun_vs_khun: true,
                no_progress: None,
                count_warn_moves: 3,
            },
            Ruleset::Traditional => RuleTable {
                board_honour: BoardHonour::OnRequest,
                pieces_honour: true,
                pieces_honour_table: PiecesHonourTable::FairyStockfish,
                board_honour_moves: 64,
                counter_mates: CounterMates::Draws,
                repetition: true,
                insufficient_material: true,
                khun_vs_khun: true,
                no_progress: None,
                count_warn_moves: 3,
            },
            Ruleset::Material => RuleTable {
                board_honour: BoardHonour::ByMaterial,
                pieces_honour: true,
                pieces_honour_table: PiecesHonourTable::KhonBeforeMa,
                board_honour_moves: 64,
                counter_mates: CounterMates::Wins,
                repetition: true,
                insufficient_material: false,
                khun_vs_khun: true,
                no_progress: Some(NoProgressRule {
                    plies: 100,
                    only_with_bia: true,
                    warn_from: 80,
                }),
                count_warn_moves: 3,
            },
            Ruleset::FiftyMove => RuleTable {
                board_honour: BoardHonour::None,
                pieces_honour: false,
                pieces_honour_table: PiecesHonourTable::FairyStockfish,
                board_honour_moves: 64,
                counter_mates: CounterMates::Wins,
                repetition: true,
                insufficient_material: true,
                khun_vs_khun: true,
                no_progress: Some(NoProgressRule {
                    plies: 100,
                    only_with_bia: false,
                    warn_from: 80,
                }),
                count_warn_moves: 3,
            },
        }
    }
}
