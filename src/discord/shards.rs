//! Which gateway shards a process runs (`SHARDS=<first>..<last>/<total>`, `--shards`).
//!
//! Discord sends a server's events to shard `(guild_id >> 22) % total` and requires sharding
//! from 2,500 servers; several processes each run a range of the shards, all on one database.

use std::fmt;
use std::str::FromStr;

/// An inclusive range of shards out of a total: `first..last/total`, `first <= last < total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    /// The first shard this process runs.
    pub first: u32,
    /// The last shard it runs (inclusive).
    pub last: u32,
    /// How many shards the bot has in all (in every process together).
    pub total: u32,
}

/// Why a `SHARDS` value was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardRangeError {
    /// Not of the form `<first>..<last>/<total>`.
    #[error("`{0}` is not a shard range: write <first>..<last>/<total>, e.g. 0..1/4")]
    Form(String),
    /// A part that is not a whole number.
    #[error("`{0}` is not a shard number (a whole number from 0)")]
    Number(String),
    /// `total` is 0.
    #[error("the total number of shards must be at least 1")]
    NoShards,
    /// `first > last`.
    #[error("the range {first}..{last} is empty: the first shard must not come after the last")]
    Empty {
        /// The first shard given.
        first: u32,
        /// The last shard given.
        last: u32,
    },
    /// `last >= total`.
    #[error("shard {last} does not exist out of {total}: shards are numbered 0 to {}", total.saturating_sub(1))]
    Beyond {
        /// The last shard given.
        last: u32,
        /// The total given.
        total: u32,
    },
}

impl FromStr for ShardRange {
    type Err = ShardRangeError;

    fn from_str(s: &str) -> Result<ShardRange, ShardRangeError> {
        let form = || ShardRangeError::Form(s.to_owned());
        let (range, total) = s.trim().split_once('/').ok_or_else(form)?;
        let (first, last) = range.split_once("..").ok_or_else(form)?;
        let number = |part: &str| {
            let part = part.trim();
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ShardRangeError::Number(part.to_owned()));
            }
            part.parse::<u32>()
                .map_err(|_| ShardRangeError::Number(part.to_owned()))
        };
        let (first, last, total) = (number(first)?, number(last)?, number(total)?);
        if total == 0 {
            return Err(ShardRangeError::NoShards);
        }
        if first > last {
            return Err(ShardRangeError::Empty { first, last });
        }
        if last >= total {
            return Err(ShardRangeError::Beyond { last, total });
        }
        Ok(ShardRange { first, last, total })
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}/{}", self.first, self.last, self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::{ShardRange, ShardRangeError};

    #[test]
    fn good_ranges_parse() {
        let r = |first, last, total| ShardRange { first, last, total };
        assert_eq!("0..0/1".parse(), Ok(r(0, 0, 1)));
        assert_eq!("0..1/4".parse(), Ok(r(0, 1, 4)));
        assert_eq!(" 2..3/4 ".parse(), Ok(r(2, 3, 4)));
        assert_eq!(
            "1..1/2".parse::<ShardRange>().unwrap().to_string(),
            "1..1/2"
        );
    }

    #[test]
    fn bad_ranges_say_why() {
        let err = |s: &str| s.parse::<ShardRange>().unwrap_err();
        assert_eq!(err("3..1/4"), ShardRangeError::Empty { first: 3, last: 1 });
        assert_eq!(err("0..4/4"), ShardRangeError::Beyond { last: 4, total: 4 });
        assert_eq!(err("0..0/0"), ShardRangeError::NoShards);
        assert_eq!(err("x"), ShardRangeError::Form("x".into()));
        assert_eq!(err("0-1/4"), ShardRangeError::Form("0-1/4".into()));
        assert_eq!(err("0..1"), ShardRangeError::Form("0..1".into()));
        assert_eq!(err("a..1/4"), ShardRangeError::Number("a".into()));
        assert_eq!(err("-1..1/4"), ShardRangeError::Number("-1".into()));
        assert_eq!(err("+1..1/4"), ShardRangeError::Number("+1".into()));
        assert_eq!(err("0../4"), ShardRangeError::Number(String::new()));
        assert_eq!(
            err("0..1/99999999999"),
            ShardRangeError::Number("99999999999".into())
        );
        assert_eq!(
            err("0..4/4").to_string(),
            "shard 4 does not exist out of 4: shards are numbered 0 to 3"
        );
        assert!(err("3..1/4").to_string().contains("empty"));
    }
}
