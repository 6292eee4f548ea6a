//! Colour preferences (FIDE C.04.3 A.6) and the colour allocation rules E.1–E.5.

use std::cmp::Ordering;

use crate::record::Colour;

/// How strongly a player wants a colour (C.04.3 A.6), weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strength {
    /// No game played yet: no preference (A.6.d).
    None,
    /// Colour difference 0: alternate with the last game played (A.6.c).
    Mild,
    /// Colour difference ±1 (A.6.b).
    Strong,
    /// Colour difference beyond ±1, or the same colour in the last two games played (A.6.a).
    Absolute,
}

/// A colour preference: the colour wanted (`None` only with [`Strength::None`]) and how much.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Preference {
    /// The colour wanted.
    pub colour: Option<Colour>,
    /// How strongly.
    pub strength: Strength,
}

/// What a player's past colours say: the preference, the colour difference (whites minus
/// blacks over played games) and whether the last two played games had the same colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColourState {
    /// The preference for the next game (A.6).
    pub preference: Preference,
    /// Games with white minus games with black (A.6), counting played games only.
    pub difference: i32,
    /// Whether the two latest played games had the same colour.
    pub double: bool,
}

impl ColourState {
    /// The state after the given colours of played games, oldest first (forfeits and byes are
    /// not games played, and are left out by the caller).
    #[must_use]
    pub fn from_colours(colours: &[Colour]) -> Self {
        let whites = colours.iter().filter(|&&c| c == Colour::White).count() as i32;
        let difference = whites - (colours.len() as i32 - whites);
        let double = colours.len() > 1 && colours[colours.len() - 1] == colours[colours.len() - 2];
        let colour = match difference.cmp(&0) {
            Ordering::Greater => Some(Colour::Black),
            Ordering::Less => Some(Colour::White),
            Ordering::Equal => colours.last().map(|c| c.flip()),
        };
        let strength = if difference.abs() > 1 || double {
            Strength::Absolute
        } else if difference.abs() == 1 {
            Strength::Strong
        } else if colour.is_some() {
            Strength::Mild
        } else {
            Strength::None
        };
        Self {
            preference: Preference { colour, strength },
            difference,
            double,
        }
    }
}

/// What the colour rules need to know of one player of a pair.
#[derive(Debug, Clone, Copy)]
pub struct ColourView<'a> {
    /// The player's colour state.
    pub state: ColourState,
    /// Colours of the played games, oldest first.
    pub colours: &'a [Colour],
    /// The pairing number (starting number, or position with `XXC rank`).
    pub number: u32,
}

/// The colour of `higher` (the higher-ranked player of the pair, C.04.3 A.2) against `lower`,
/// by the first of the rules E.1–E.5 that decides; `first_colour` is the colour the first seed
/// had in round 1 (E.5's "initial colour").
#[must_use]
pub fn allocate(higher: &ColourView<'_>, lower: &ColourView<'_>, first_colour: Colour) -> Colour {
    let p1 = higher.state.preference;
    let p2 = lower.state.preference;
    // E.1: grant both preferences.
    if let (Some(a), Some(b)) = (p1.colour, p2.colour) {
        if a != b {
            return a;
        }
    }
    // E.2: grant the stronger preference; both absolute: the wider colour difference.
    let stronger = |first_wins: bool| -> Option<Colour> {
        if first_wins {
            p1.colour
        } else {
            p2.colour.map(Colour::flip)
        }
    };
    if p1.strength != p2.strength {
        if let Some(c) = stronger(p1.strength > p2.strength) {
            return c;
        }
    } else if p1.strength == Strength::Absolute
        && higher.state.difference.abs() != lower.state.difference.abs()
    {
        if let Some(c) = stronger(higher.state.difference.abs() > lower.state.difference.abs()) {
            return c;
        }
    }
    // E.3: alternate from the latest game (counting back played games) where they differed.
    for (a, b) in higher.colours.iter().rev().zip(lower.colours.iter().rev()) {
        if a != b {
            return a.flip();
        }
    }
    // E.4: the higher-ranked player's preference.
    if let Some(c) = p1.colour {
        return c;
    }
    // E.5: odd pairing number gets the initial colour.
    if higher.number % 2 == 1 {
        first_colour
    } else {
        first_colour.flip()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};

    fn view(colours: &[Colour], number: u32) -> ColourView<'_> {
        ColourView {
            state: ColourState::from_colours(colours),
            colours,
            number,
        }
    }

    #[test]
    fn preferences_of_a6() {
        let s = ColourState::from_colours(&[]);
        assert_eq!(
            s.preference,
            Preference {
                colour: None,
                strength: Strength::None
            }
        );
        let s = ColourState::from_colours(&[W]);
        assert_eq!(
            s.preference,
            Preference {
                colour: Some(B),
                strength: Strength::Strong
            }
        );
        let s = ColourState::from_colours(&[W, B]);
        assert_eq!(
            s.preference,
            Preference {
                colour: Some(W),
                strength: Strength::Mild
            }
        );
        let s = ColourState::from_colours(&[B, W, W]);
        assert_eq!(
            s.preference,
            Preference {
                colour: Some(B),
                strength: Strength::Absolute
            }
        );
        assert!(s.double);
        let s = ColourState::from_colours(&[W, B, W, W, B, W]);
        assert_eq!(
            (s.difference, s.preference.strength),
            (2, Strength::Absolute)
        );
    }

    #[test]
    fn rules_e1_to_e5() {
        // E.1: opposite wishes are both granted.
        assert_eq!(allocate(&view(&[W], 1), &view(&[B], 2), W), B);
        // E.2: the strong preference beats the mild one, whoever is higher.
        assert_eq!(allocate(&view(&[W, B], 1), &view(&[B, W, B], 2), W), B);
        // E.2: both absolute, the wider difference wins.
        assert_eq!(
            allocate(&view(&[W, W], 1), &view(&[W, W, W, B, W], 2), W),
            W
        );
        // E.3: counting back, the third game differs: alternate from it.
        assert_eq!(
            allocate(&view(&[B, W, B], 1), &view(&[B, B, W, W, B], 2), W),
            W
        );
        // E.4: same wishes, same history: the higher player's wish.
        assert_eq!(allocate(&view(&[B], 3), &view(&[B], 4), W), W);
        // E.5: nobody played: odd number gets the initial colour.
        assert_eq!(allocate(&view(&[], 1), &view(&[], 2), W), W);
        assert_eq!(allocate(&view(&[], 2), &view(&[], 3), W), B);
        assert_eq!(allocate(&view(&[], 1), &view(&[], 2), B), B);
    }
}
