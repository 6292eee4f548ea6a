//! When a tournament starts (`/tournament create start:`): a delay (`in 30m`, `2h`, `1d`,
//! `1h30m`) or a date and time with its UTC offset (`2026-12-05T19:00+07:00`, `…Z`).

use crate::puzzles::daily::{day_number, parse_offset, parse_time};

/// The longest delay taken: 30 days, in seconds.
const MAX_DELAY_SECS: i64 = 30 * 24 * 3600;

/// The start written in `text`, as Unix seconds, given the time `now` (Unix seconds); `None`
/// when it is neither form, in the past, or more than 30 days ahead.
#[must_use]
pub fn parse_start(text: &str, now: i64) -> Option<i64> {
    let text = text.trim();
    let at = match delay(text) {
        Some(secs) => now.checked_add(secs)?,
        None => absolute(text)?,
    };
    (at >= now && at - now <= MAX_DELAY_SECS).then_some(at)
}

/// `in 30m`, `30m`, `2h`, `1d`, `1h30m`: seconds.
fn delay(text: &str) -> Option<i64> {
    let text = text.strip_prefix("in ").unwrap_or(text).trim();
    if text.is_empty() {
        return None;
    }
    let mut total = 0i64;
    let mut number = String::new();
    for c in text.chars() {
        match c {
            '0'..='9' => number.push(c),
            'd' | 'h' | 'm' => {
                let n: i64 = number.parse().ok()?;
                number.clear();
                let unit = match c {
                    'd' => 86_400,
                    'h' => 3_600,
                    _ => 60,
                };
                total = total.checked_add(n.checked_mul(unit)?)?;
            }
            ' ' => {}
            _ => return None,
        }
    }
    number.is_empty().then_some(total)
}

/// `YYYY-MM-DDTHH:MM` followed by `Z` or `±HH:MM`: Unix seconds.
fn absolute(text: &str) -> Option<i64> {
    let (date, rest) = text.split_once(['T', ' '])?;
    let day = day_number(date)?;
    if rest.len() < 5 || !rest.is_char_boundary(5) {
        return None;
    }
    let (time, zone) = rest.split_at(5);
    let minute = parse_time(time)?;
    let offset = match zone {
        // A time without its offset would be read in UTC: refused, not guessed.
        "" => return None,
        "Z" | "z" => 0,
        z => parse_offset(z)?,
    };
    day.checked_mul(86_400)?.checked_add((minute - offset) * 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-04T12:00:00Z.
    const NOW: i64 = 1_796_385_600;

    #[test]
    fn delays_and_dates_are_read() {
        assert_eq!(parse_start("in 30m", NOW), Some(NOW + 1800));
        assert_eq!(parse_start("2h", NOW), Some(NOW + 7200));
        assert_eq!(parse_start("1h30m", NOW), Some(NOW + 5400));
        assert_eq!(parse_start("1d", NOW), Some(NOW + 86_400));
        // 19:00 in Bangkok (UTC+7) is 12:00 UTC: the next day's.
        assert_eq!(
            parse_start("2026-12-05T19:00+07:00", NOW),
            Some(NOW + 86_400)
        );
        assert_eq!(parse_start("2026-12-04T13:00Z", NOW), Some(NOW + 3600));
    }

    #[test]
    fn the_past_the_far_future_and_nonsense_are_refused() {
        assert_eq!(parse_start("2026-12-03T19:00+07:00", NOW), None);
        assert_eq!(parse_start("31d", NOW), None);
        for bad in [
            "",
            "soon",
            "in",
            "30",
            "m",
            "2026-13-01T10:00Z",
            "2026-12-05T19:00",
        ] {
            assert_eq!(parse_start(bad, NOW), None, "{bad:?}");
        }
    }
}
