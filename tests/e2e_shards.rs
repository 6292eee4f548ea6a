//! End to end: two real bot processes' worth of bots (each its real start-up code) on one SQLite
//! file, running shards `0..0/2` and `1..1/2` of a stand-in with two shards. Each guild's
//! interactions reach only its shard's bot; games in guilds on both shards are played to the
//! end, every interaction answered once; both games are in the one database.

use discord_standin::{shard_of, Bot, Standin, User, GUILD_ID};
use makruk_bot::app::Config;
use makruk_bot::discord::ShardRange;
use testkit::bot::{launcher, temp_database};

/// A short mate of the conformance data (`games-mates-public.jsonl.gz`, "s4-engine-g97"): 8
/// plies, Black mates.
const MATE: [&str; 8] = ["Rh2", "Ne7", "Rh1", "Nd5", "Nd2", "Nd7", "Ne2", "Nxe3#"];

fn shards(first: u32, last: u32, total: u32) -> Option<ShardRange> {
    Some(ShardRange { first, last, total })
}

fn shard_0(config: &mut Config) {
    config.shards = shards(0, 0, 2);
}

fn shard_1(config: &mut Config) {
    config.shards = shards(1, 1, 2);
}

struct Channel {
    id: u64,
    white: User,
    black: User,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_two_shards_share_one_database() {
    let discord = Standin::start().await;
    discord.set_shards(2);
    // One guild on each shard: the stand-in's own, and one 2^22 ids further.
    let other_guild = GUILD_ID + (1 << 22);
    let guild_shard = [shard_of(Some(GUILD_ID), 2), shard_of(Some(other_guild), 2)];
    assert_ne!(guild_shard[0], guild_shard[1]);
    let channels = [
        Channel {
            id: 1_300_000_000_000_000_101,
            white: discord.user("alice", "en-US"),
            black: discord.user("bob", "en-US"),
        },
        Channel {
            id: 1_300_000_000_000_000_202,
            white: discord.user("carol", "en-US"),
            black: discord.user("dave", "th"),
        },
    ];
    discord.put_channel_in_guild(channels[1].id, other_guild);

    let (_dir, db) = temp_database();
    let bot_0 = Bot::start(&discord, launcher(&db, shard_0)).await;
    let bot_1 = Bot::start(&discord, launcher(&db, shard_1)).await;
    assert!(discord.shard_connected(0) && discord.shard_connected(1));
    let before = [discord.dispatched(0), discord.dispatched(1)];

    let mut sent = [0, 0];
    for (i, ch) in channels.iter().enumerate() {
        let challenge = discord
            .run(
                &ch.white,
                ch.id,
                "challenge",
                &[
                    ("opponent", &format!("@{}", ch.black.name)),
                    ("color", "white"),
                ],
            )
            .await;
        assert!(challenge.message().is_some(), "{}", challenge.text());
        let accepted = discord.click_label(&ch.black, ch.id, "Accept").await;
        assert_eq!(accepted.callback_type(), 7, "{}", accepted.text());
        sent[i] += 2;
    }
    // The moves of both games interleaved: each goes to its own guild's bot.
    for (ply, san) in MATE.iter().enumerate() {
        for (i, ch) in channels.iter().enumerate() {
            let player = if ply % 2 == 0 { &ch.white } else { &ch.black };
            let outcome = discord.run(player, ch.id, "move", &[("move", san)]).await;
            assert_eq!(outcome.callback_type(), 4, "ply {ply}: {}", outcome.text());
            assert!(outcome.png().is_some(), "ply {ply}: a board");
            sent[i] += 1;
            if ply + 1 == MATE.len() {
                let text = outcome.text().to_lowercase();
                // Dave reads Thai.
                assert!(
                    text.contains("checkmate") || text.contains("รุกจน"),
                    "{text}"
                );
            }
        }
    }
    for (i, shard) in guild_shard.iter().enumerate() {
        let shard = usize::try_from(*shard).unwrap();
        assert_eq!(
            discord.dispatched(u32::try_from(shard).unwrap()) - before[shard],
            sent[i],
            "guild {i}'s interactions all went to shard {shard}, and only those"
        );
    }
    // The stand-in refuses a second callback to an interaction: none was answered twice.
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
    bot_0.stop().await;
    bot_1.stop().await;

    let svc = makruk_bot::game::GameService::open(&db)
        .await
        .expect("open");
    let mut conn = svc.store().read_conn().await.expect("conn");
    for ch in &channels {
        let id = makruk_bot::types::ChannelId(ch.id);
        let games = makruk_bot::store::finished_games(&mut conn, id, 5)
            .await
            .expect("games");
        assert_eq!(games.len(), 1, "channel {}", ch.id);
        assert_eq!(games[0].plies, 8);
    }
    drop(conn);
    svc.close().await;
}
