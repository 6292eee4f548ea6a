//! How the typed ids of [`crate::types`] are stored: each as one BIGINT column, bound and read
//! as itself, so that rows carry typed ids and no caller converts them.
//!
//! Users, channels and servers are u64 snowflakes stored as the same 64 bits as an i64 (an id
//! above `i64::MAX` reads back as itself); games and challenges are the rows' own i64 ids.

use sqlx::any::{Any, AnyTypeInfo, AnyValueRef};
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::{Database, Decode, Encode, Type};

use crate::types::{ChallengeId, ChannelId, GameId, GuildId, TournamentId, UserId};

/// Implements `Type`, `Encode` and `Decode` of the Any driver for id type `$id`: a value `$a`
/// is stored as the i64 `$to`, a stored i64 `$b` reads back as `$from`.
macro_rules! stored_as_bigint {
    ($id:ident, |$a:ident| $to:expr, |$b:ident| $from:expr) => {
        impl Type<Any> for $id {
            fn type_info() -> AnyTypeInfo {
                <i64 as Type<Any>>::type_info()
            }

            fn compatible(ty: &AnyTypeInfo) -> bool {
                <i64 as Type<Any>>::compatible(ty)
            }
        }

        impl<'q> Encode<'q, Any> for $id {
            fn encode_by_ref(
                &self,
                buf: &mut <Any as Database>::ArgumentBuffer<'q>,
            ) -> Result<IsNull, BoxDynError> {
                let $a = *self;
                let stored: i64 = $to;
                <i64 as Encode<'q, Any>>::encode(stored, buf)
            }
        }

        impl<'r> Decode<'r, Any> for $id {
            fn decode(value: AnyValueRef<'r>) -> Result<Self, BoxDynError> {
                let $b = <i64 as Decode<'r, Any>>::decode(value)?;
                Ok($from)
            }
        }
    };
}

// Snowflakes: the same 64 bits (`as` reinterprets them both ways).
stored_as_bigint!(UserId, |id| id.0 as i64, |v| UserId(v as u64));
stored_as_bigint!(ChannelId, |id| id.0 as i64, |v| ChannelId(v as u64));
stored_as_bigint!(GuildId, |id| id.0 as i64, |v| GuildId(v as u64));
// Row ids.
stored_as_bigint!(GameId, |id| id.0, |v| GameId(v));
stored_as_bigint!(ChallengeId, |id| id.0, |v| ChallengeId(v));
stored_as_bigint!(TournamentId, |id| id.0, |v| TournamentId(v));

#[cfg(test)]
mod tests {
    use crate::clock::{ClockState, TimeControl};
    use crate::store::{self, NewChallenge, NewGame, Store};
    use crate::types::{ChannelId, ColorChoice, GuildId, UserId};

    /// Snowflakes above `i64::MAX` (stored negative) and row ids come back as they went in,
    /// and are found by the typed arguments.
    #[tokio::test]
    async fn typed_ids_read_back_as_written() {
        let store = Store::open("sqlite::memory:").await.expect("open");
        let (channel, white, black) = (ChannelId(u64::MAX), UserId(u64::MAX - 1), UserId(1 << 63));
        let guild = Some(GuildId(u64::MAX - 2));
        let control = TimeControl::DEFAULT;
        let mut tx = store.begin_write().await.expect("begin");
        let fen = makruk::Position::start(makruk::Ruleset::Standard).fen();
        let id = store::insert_game(
            &mut tx,
            &NewGame {
                channel_id: channel,
                white_id: white,
                black_id: black,
                ruleset: makruk::Ruleset::Standard,
                variant: makruk::Variant::Makruk,
                start_fen: &fen,
                now: 0,
                computer: None,
                time_control: control,
                clock: ClockState::new(control, makruk::Color::White, 0).stored(),
                guild_id: guild,
                rated: true,
            },
        )
        .await
        .expect("insert game");
        let challenge = store::insert_challenge(
            &mut tx,
            &NewChallenge {
                channel_id: ChannelId(7),
                challenger_id: black,
                opponent_id: white,
                color: ColorChoice::Random,
                ruleset: makruk::Ruleset::Standard,
                variant: makruk::Variant::Makruk,
                now: 0,
                expires_at: 60,
                time_control: control,
                guild_id: guild,
                rated: true,
            },
        )
        .await
        .expect("insert challenge");
        let row = store::active_game(&mut tx, channel)
            .await
            .expect("read")
            .expect("the game");
        assert_eq!(
            (
                row.id,
                row.channel_id,
                row.white_id,
                row.black_id,
                row.guild_id
            ),
            (id, channel, white, black, guild)
        );
        let again = store::challenge(&mut tx, challenge.id)
            .await
            .expect("read")
            .expect("the challenge");
        assert_eq!(
            (again.challenger_id, again.opponent_id, again.guild_id),
            (black, white, guild)
        );
        assert!(store::active_game(&mut tx, ChannelId(u64::MAX - 1))
            .await
            .expect("read")
            .is_none());
    }
}
