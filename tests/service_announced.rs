//! The "announced" mark of stored moves (migration 0005): a move is stored unannounced, a board
//! shown in the channel marks every move up to it, a restart still knows what was never shown,
//! a takeback removes its unshown move, and moves stored before the mark existed count as shown.
//! Also the channels the bot may only answer in (where unannounced moves wait for an answer).

use makruk::Ruleset;
use makruk_bot::game::{Announcement, ChannelId, Event, GameId, OfferKind};
use testkit::service::{start, Env, BLACK, WHITE};

const CH: ChannelId = ChannelId(77);

/// (game, plies shown, channel, event, last move's SAN) of each unannounced game.
async fn pending(env: &Env) -> Vec<(i64, u32, u64, Event, Option<String>)> {
    env.svc
        .unannounced()
        .await
        .expect("unannounced")
        .into_iter()
        .map(|a| match a {
            Announcement::Move { channel, reply, .. } => (
                reply.game_id.0,
                reply.status.plies,
                channel.0,
                reply.event,
                reply.san,
            ),
            other => panic!("not a move: {other:?}"),
        })
        .collect()
}

#[tokio::test]
async fn moves_are_unannounced_until_a_board_shows_them() {
    let mut env = Env::new().await;
    let started = start(&env.svc, CH, Ruleset::Standard).await;
    let game = started.game_id;
    assert!(pending(&env).await.is_empty(), "a game without moves");

    let first = env.svc.play(CH, WHITE, "e4").await.expect("e4");
    assert_eq!(first.status.plies, 1);
    assert_eq!(
        pending(&env).await,
        [(game.0, 1, CH.0, Event::Moved, Some("e4".to_owned()))]
    );
    assert!(env.svc.needs_announcing(game, 1).await.expect("read"));
    assert!(!env.svc.needs_announcing(game, 0).await.expect("read"));

    // Still known after a restart (the crash between commit and callback).
    env.restart().await;
    let again = env.svc.unannounced().await.expect("unannounced");
    let Some(Announcement::Move { reply, .. }) = again.first() else {
        panic!("{again:?}");
    };
    assert_eq!(reply.actor, Some(WHITE), "White moved");
    assert_eq!(reply.status.to_move, BLACK, "Black is pinged");
    assert!(reply.status.end.is_none());

    env.svc.mark_announced(game, 1).await.expect("mark");
    assert!(pending(&env).await.is_empty());
    assert!(!env.svc.needs_announcing(game, 1).await.expect("read"));
    // Marking twice is harmless.
    env.svc.mark_announced(game, 1).await.expect("mark again");

    // Two moves unshown: one board after both announces both.
    env.svc.play(CH, BLACK, "e5").await.expect("e5");
    env.svc.play(CH, WHITE, "d4").await.expect("d4");
    assert_eq!(pending(&env).await.len(), 1);
    assert_eq!(pending(&env).await[0].1, 3);
    env.svc
        .mark_announced(game, 2)
        .await
        .expect("mark up to e5");
    assert_eq!(pending(&env).await[0].1, 3, "d4 still unshown");
    env.svc.mark_announced(game, 3).await.expect("mark");
    assert!(pending(&env).await.is_empty());
}

#[tokio::test]
async fn a_takeback_removes_its_unshown_move() {
    let env = Env::new().await;
    let game: GameId = start(&env.svc, CH, Ruleset::Standard).await.game_id;
    env.svc.play(CH, WHITE, "e4").await.expect("e4");
    env.svc.mark_announced(game, 1).await.expect("mark");
    env.svc.play(CH, BLACK, "e5").await.expect("e5");
    assert_eq!(pending(&env).await.len(), 1);
    env.svc
        .offer(CH, BLACK, OfferKind::Takeback)
        .await
        .expect("takeback request");
    let back = env
        .svc
        .accept_offer(CH, WHITE, OfferKind::Takeback)
        .await
        .expect("takeback");
    assert_eq!(back.status.plies, 1);
    assert!(pending(&env).await.is_empty(), "the unshown move is gone");
    // Played again, it is unshown again.
    env.svc.play(CH, BLACK, "d5").await.expect("d5");
    assert_eq!(pending(&env).await[0].1, 2);
}

#[tokio::test]
async fn moves_stored_before_the_mark_existed_count_as_announced() {
    let env = Env::new().await;
    let game = start(&env.svc, CH, Ruleset::Standard).await.game_id;
    env.svc.play(CH, WHITE, "e4").await.expect("e4");
    env.svc.mark_announced(game, 1).await.expect("mark");
    // A row written as before migration 0005 (no `announced` column named): the default.
    let mut tx = env.svc.store().begin_write().await.expect("begin");
    sqlx::query(
        "INSERT INTO moves (game_id, ply, uci, san, created_at) VALUES ($1, 1, 'e6e5', 'e5', 0)",
    )
    .bind(game.0)
    .execute(&mut *tx)
    .await
    .expect("insert");
    tx.commit().await.expect("commit");
    assert!(!env.svc.needs_announcing(game, 2).await.expect("read"));
    assert!(pending(&env).await.is_empty());
}

/// The channels the bot may only answer in (migration 0011): recorded once however often an
/// interaction shows them, and still known after a restart.
#[tokio::test]
async fn answer_only_channels_are_remembered_across_a_restart() {
    let mut env = Env::new().await;
    assert_eq!(env.svc.answer_only_channels().await.expect("read"), []);
    for channel in [ChannelId(5), ChannelId(u64::MAX), ChannelId(5)] {
        env.svc
            .add_answer_only_channel(channel)
            .await
            .expect("recorded");
    }
    env.restart().await;
    let mut known = env.svc.answer_only_channels().await.expect("read");
    known.sort();
    assert_eq!(known, [ChannelId(5), ChannelId(u64::MAX)]);
}
