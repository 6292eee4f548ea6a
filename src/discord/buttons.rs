//! The buttons' custom ids: one type, [`ButtonId`], writes them ([`std::fmt::Display`]) and
//! reads them back ([`std::str::FromStr`]) when a button is pressed (`components`).
//!
//! An id is `mk:<action>:<id>` (challenge id, game id, or leaderboard page), or for a replay
//! button its whole state, `mk:replay-<step>:<game>:<ply>:<w|b>:<user>` (the ply shown, the side
//! at the bottom, the user who opened it). Discord allows 100 characters; the longest is under
//! 80. Ids already sent stay in Discord's messages: the format must not change, lest old
//! buttons stop working.

use std::fmt;
use std::str::FromStr;

use poise::serenity_prelude::{ButtonStyle, CreateButton};

use crate::game::{ChallengeId, Color, GameId, Kind, OfferKind, UserId, Variant};
use crate::i18n::Locale;
use crate::rating::speed_name;
use crate::tr;

/// What a button does, with what it does it to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ButtonId {
    /// Accept the challenge.
    Accept(ChallengeId),
    /// Decline the challenge.
    Decline(ChallengeId),
    /// The challenger withdraws the challenge.
    Withdraw(ChallengeId),
    /// Accept the draw or takeback offer standing in the game.
    OfferAccept(OfferKind, GameId),
    /// Decline the draw or takeback offer standing in the game.
    OfferDecline(OfferKind, GameId),
    /// A leaderboard page (0-based) of a variant at a speed: anyone may page.
    Leaderboard(Variant, Kind, u32),
    /// A replay step from the view the message shows.
    Replay(Step, View),
    /// The finished game's animated GIF.
    Gif(GameId),
    /// The finished game's computer analysis.
    Analyse(GameId),
    /// A hint for the puzzle attempt (issue 24).
    PuzzleHint(i64),
    /// The solution of the puzzle attempt (it fails).
    PuzzleSolution(i64),
    /// The next puzzle after the attempt.
    PuzzleNext(i64),
    /// A vote (up: 👍) on the puzzle of the attempt.
    PuzzleVote(bool, i64),
}

/// A custom id that is not one of ours: forged, foreign, or from another version of the bot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UnknownButton;

impl fmt::Display for UnknownButton {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a button of this bot")
    }
}

impl ButtonId {
    /// The action's name, for the logs (`accept`, `draw-decline`, `replay`…).
    pub(crate) fn name(self) -> &'static str {
        match self {
            ButtonId::Accept(_) => "accept",
            ButtonId::Decline(_) => "decline",
            ButtonId::Withdraw(_) => "withdraw",
            ButtonId::OfferAccept(OfferKind::Draw, _) => "draw-accept",
            ButtonId::OfferDecline(OfferKind::Draw, _) => "draw-decline",
            ButtonId::OfferAccept(OfferKind::Takeback, _) => "takeback-accept",
            ButtonId::OfferDecline(OfferKind::Takeback, _) => "takeback-decline",
            ButtonId::Leaderboard(_, Kind::Live, _) => "lb-live",
            ButtonId::Leaderboard(_, Kind::Correspondence, _) => "lb-correspondence",
            ButtonId::Replay(..) => "replay",
            ButtonId::Gif(_) => "gif",
            ButtonId::Analyse(_) => "analyse",
            ButtonId::PuzzleHint(_) => "pz-hint",
            ButtonId::PuzzleSolution(_) => "pz-solution",
            ButtonId::PuzzleNext(_) => "pz-next",
            ButtonId::PuzzleVote(true, _) => "pz-up",
            ButtonId::PuzzleVote(false, _) => "pz-down",
        }
    }

    /// A button with this id, its label the text `label_key` in `locale`.
    pub(crate) fn button(
        self,
        locale: Locale,
        label_key: &str,
        style: ButtonStyle,
    ) -> CreateButton {
        CreateButton::new(self.to_string())
            .label(tr!(locale, label_key))
            .style(style)
    }

    /// Reads `mk:<action>:<id>` or a replay id; `None` for anything else.
    fn parse(custom_id: &str) -> Option<ButtonId> {
        let mut parts = custom_id.split(':');
        if parts.next()? != "mk" {
            return None;
        }
        let action = parts.next()?;
        if let Some(step) = action.strip_prefix("replay-") {
            let step = Step::ALL.into_iter().find(|s| s.name() == step)?;
            let game = GameId(parts.next()?.parse().ok()?);
            let ply = parts.next()?.parse().ok()?;
            let orientation = match parts.next()? {
                "w" => Color::White,
                "b" => Color::Black,
                _ => return None,
            };
            let owner = UserId(parts.next()?.parse().ok()?);
            if parts.next().is_some() {
                return None;
            }
            let view = View {
                game,
                ply,
                orientation,
                owner,
            };
            return Some(ButtonId::Replay(step, view));
        }
        let id: i64 = parts.next()?.parse().ok()?;
        // A leaderboard of another variant than Makruk names it last (`mk:lb-live:2:makpong`).
        let variant = match parts.next() {
            None => Variant::Makruk,
            // Only the form written below: a variant's exact name, Makruk's never written.
            Some(name) if action.starts_with("lb-") => {
                *Variant::ALL[1..].iter().find(|v| v.name() == name)?
            }
            Some(_) => return None,
        };
        if parts.next().is_some() {
            return None;
        }
        let page = || u32::try_from(id).ok().filter(|_| action.starts_with("lb-"));
        if variant != Variant::Makruk && !action.starts_with("lb-") {
            return None;
        }
        Some(match action {
            "accept" => ButtonId::Accept(ChallengeId(id)),
            "decline" => ButtonId::Decline(ChallengeId(id)),
            "withdraw" => ButtonId::Withdraw(ChallengeId(id)),
            "draw-accept" => ButtonId::OfferAccept(OfferKind::Draw, GameId(id)),
            "draw-decline" => ButtonId::OfferDecline(OfferKind::Draw, GameId(id)),
            "takeback-accept" => ButtonId::OfferAccept(OfferKind::Takeback, GameId(id)),
            "takeback-decline" => ButtonId::OfferDecline(OfferKind::Takeback, GameId(id)),
            "lb-live" => ButtonId::Leaderboard(variant, Kind::Live, page()?),
            "lb-correspondence" => ButtonId::Leaderboard(variant, Kind::Correspondence, page()?),
            "gif" => ButtonId::Gif(GameId(id)),
            "analyse" => ButtonId::Analyse(GameId(id)),
            "pz-hint" => ButtonId::PuzzleHint(id),
            "pz-solution" => ButtonId::PuzzleSolution(id),
            "pz-next" => ButtonId::PuzzleNext(id),
            "pz-up" => ButtonId::PuzzleVote(true, id),
            "pz-down" => ButtonId::PuzzleVote(false, id),
            _ => return None,
        })
    }
}

impl fmt::Display for ButtonId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ButtonId::Accept(ChallengeId(id))
            | ButtonId::Decline(ChallengeId(id))
            | ButtonId::Withdraw(ChallengeId(id))
            | ButtonId::OfferAccept(_, GameId(id))
            | ButtonId::OfferDecline(_, GameId(id))
            | ButtonId::Gif(GameId(id))
            | ButtonId::Analyse(GameId(id))
            | ButtonId::PuzzleHint(id)
            | ButtonId::PuzzleSolution(id)
            | ButtonId::PuzzleNext(id)
            | ButtonId::PuzzleVote(_, id) => write!(f, "mk:{}:{id}", self.name()),
            ButtonId::Leaderboard(Variant::Makruk, speed, page) => {
                write!(f, "mk:lb-{}:{page}", speed_name(speed))
            }
            ButtonId::Leaderboard(variant, speed, page) => {
                write!(f, "mk:lb-{}:{page}:{variant}", speed_name(speed))
            }
            ButtonId::Replay(step, view) => {
                let side = match view.orientation {
                    Color::White => 'w',
                    Color::Black => 'b',
                };
                write!(
                    f,
                    "mk:replay-{}:{}:{}:{side}:{}",
                    step.name(),
                    view.game.0,
                    view.ply,
                    view.owner.0
                )
            }
        }
    }
}

impl FromStr for ButtonId {
    type Err = UnknownButton;

    fn from_str(custom_id: &str) -> Result<ButtonId, UnknownButton> {
        ButtonId::parse(custom_id).ok_or(UnknownButton)
    }
}

/// A replay button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    First,
    Previous,
    Next,
    Last,
    Flip,
}

impl Step {
    /// Every replay button, in the order they are shown.
    pub(crate) const ALL: [Step; 5] = [
        Step::First,
        Step::Previous,
        Step::Next,
        Step::Last,
        Step::Flip,
    ];

    /// The step's name in the custom id.
    fn name(self) -> &'static str {
        match self {
            Step::First => "first",
            Step::Previous => "prev",
            Step::Next => "next",
            Step::Last => "last",
            Step::Flip => "flip",
        }
    }
}

/// What a replay message shows: game, ply (0 = start position), side at the bottom, and whose
/// replay it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct View {
    pub game: GameId,
    pub ply: usize,
    pub orientation: Color,
    pub owner: UserId,
}

impl View {
    /// The view after pressing `step`, in a game of `plies` plies.
    pub(crate) fn after(self, step: Step, plies: usize) -> View {
        let ply = match step {
            Step::First => 0,
            Step::Previous => self.ply.saturating_sub(1),
            Step::Next => (self.ply + 1).min(plies),
            Step::Last => plies,
            Step::Flip => self.ply,
        };
        let orientation = if step == Step::Flip {
            self.orientation.other()
        } else {
            self.orientation
        };
        View {
            ply,
            orientation,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(custom_id: &str) -> Option<ButtonId> {
        custom_id.parse().ok()
    }

    #[test]
    fn every_button_id_reads_back_as_written() {
        let view = View {
            game: GameId(i64::MAX),
            ply: 9999,
            orientation: Color::Black,
            owner: UserId(u64::MAX),
        };
        let mut ids = vec![
            ButtonId::Accept(ChallengeId(3)),
            ButtonId::Decline(ChallengeId(4)),
            ButtonId::Withdraw(ChallengeId(5)),
            ButtonId::OfferAccept(OfferKind::Draw, GameId(6)),
            ButtonId::OfferDecline(OfferKind::Draw, GameId(7)),
            ButtonId::OfferAccept(OfferKind::Takeback, GameId(8)),
            ButtonId::OfferDecline(OfferKind::Takeback, GameId(9)),
            ButtonId::Leaderboard(Variant::Makruk, Kind::Live, 0),
            ButtonId::Leaderboard(Variant::Makruk, Kind::Correspondence, u32::MAX),
            ButtonId::Leaderboard(Variant::Sittuyin, Kind::Live, 3),
            ButtonId::Leaderboard(Variant::Cambodian, Kind::Correspondence, 0),
            ButtonId::Gif(GameId(10)),
            ButtonId::Analyse(GameId(11)),
        ];
        ids.extend(Step::ALL.map(|step| ButtonId::Replay(step, view)));
        ids.push(ButtonId::Replay(
            Step::Flip,
            View {
                orientation: Color::White,
                ..view
            },
        ));
        for id in ids {
            let written = id.to_string();
            assert!(written.len() <= 100, "{written}");
            assert_eq!(read(&written), Some(id), "{written}");
        }
    }

    /// The ids in messages already sent keep working.
    #[test]
    fn the_format_is_the_one_already_in_discord() {
        let written = [
            (ButtonId::Accept(ChallengeId(3)), "mk:accept:3"),
            (ButtonId::Withdraw(ChallengeId(5)), "mk:withdraw:5"),
            (
                ButtonId::OfferDecline(OfferKind::Takeback, GameId(9)),
                "mk:takeback-decline:9",
            ),
            (
                ButtonId::Leaderboard(Variant::Makruk, Kind::Correspondence, 2),
                "mk:lb-correspondence:2",
            ),
            (
                ButtonId::Leaderboard(Variant::Makpong, Kind::Live, 1),
                "mk:lb-live:1:makpong",
            ),
            (ButtonId::Gif(GameId(10)), "mk:gif:10"),
            (
                ButtonId::Replay(
                    Step::Previous,
                    View {
                        game: GameId(1),
                        ply: 2,
                        orientation: Color::White,
                        owner: UserId(3),
                    },
                ),
                "mk:replay-prev:1:2:w:3",
            ),
        ];
        for (id, text) in written {
            assert_eq!(id.to_string(), text);
        }
    }

    #[test]
    fn bad_custom_ids_are_refused() {
        for bad in [
            "",
            "mk",
            "mk:accept",
            "mk:accept:x",
            "mk:fly:1",
            "xx:accept:1",
            "mk:accept:1:2",
            "mk:accept:99999999999999999999",
            "mk:accept:-",
            "mk:lb-live:-1",
            "mk:lb-blitz:1",
            "mk:replay-next:1:2:w",
            "mk:replay-up:1:2:w:3",
            "mk:replay-next:1:2:x:3",
            "mk:replay-next:1:-2:w:3",
            "mk:replay-next:1:2:w:3:4",
        ] {
            assert_eq!(bad.parse::<ButtonId>(), Err(UnknownButton), "{bad}");
        }
    }

    #[test]
    fn steps_stay_inside_the_game() {
        let v = View {
            game: GameId(1),
            ply: 3,
            orientation: Color::White,
            owner: UserId(5),
        };
        assert_eq!(v.after(Step::First, 10).ply, 0);
        assert_eq!(v.after(Step::Previous, 10).ply, 2);
        assert_eq!(v.after(Step::Next, 10).ply, 4);
        assert_eq!(v.after(Step::Next, 3).ply, 3);
        assert_eq!(v.after(Step::Last, 10).ply, 10);
        let flipped = v.after(Step::Flip, 10);
        assert_eq!((flipped.ply, flipped.orientation), (3, Color::Black));
        assert_eq!(View { ply: 0, ..v }.after(Step::Previous, 10).ply, 0);
    }
}
