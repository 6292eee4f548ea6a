//! Tests of DMs and group DMs at the payload and REST level (no bot): the interactions' shape
//! as serenity reads it, and the rules of the routes the bot would call.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;

use serde_json::{json, Value};
use serenity::model::application::{
    AuthorizingIntegrationOwner, CommandInteraction, ComponentInteraction, InteractionContext,
};
use serenity::model::channel::ChannelType;

use crate::{Message, Opt, Standin, APP_ID, GUILD_ID, MAX_USER_APP_FOLLOWUPS, TOKEN};

/// A server channel of the tests.
const CHANNEL: u64 = 1_300_000_000_000_000_100;

/// `method path` with `body` on the stand-in, as the bot (its token): status and JSON body.
async fn call(discord: &Standin, method: &str, path: &str, body: Value) -> (u16, Value) {
    let host = discord.base_url.trim_start_matches("http://").to_owned();
    let (method, path) = (method.to_owned(), format!("/api/v10{path}"));
    tokio::task::spawn_blocking(move || {
        let body = if body.is_null() {
            String::new()
        } else {
            body.to_string()
        };
        let mut tcp = TcpStream::connect(&host).expect("connect");
        write!(
            tcp,
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bot {TOKEN}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .expect("send");
        let mut answer = String::new();
        tcp.read_to_string(&mut answer).expect("read");
        let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status");
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    })
    .await
    .expect("the request's thread")
}

/// Registers `commands` as the bot would: globally, or for [`GUILD_ID`].
async fn register(discord: &Standin, guild: bool, commands: Value) {
    let path = if guild {
        format!("/applications/{APP_ID}/guilds/{GUILD_ID}/commands")
    } else {
        format!("/applications/{APP_ID}/commands")
    };
    let (status, body) = call(discord, "PUT", &path, commands).await;
    assert_eq!(status, 200, "{body}");
}

/// A global `/board` for user installs in every context, as a user-installable bot registers it.
async fn user_installable(discord: &Standin) {
    register(
        discord,
        false,
        json!([{
            "name": "board", "description": "Shows the board",
            "integration_types": [0, 1], "contexts": [0, 1, 2],
        }]),
    )
    .await;
}

/// Sends `/board` from `user` in `channel` (no bot: only recorded) and returns its token.
fn send_board(discord: &Standin, user: &crate::User, channel: u64) -> String {
    assert!(discord
        .try_send_command(user, channel, "board", &[])
        .is_none());
    let token = discord
        .shared
        .lock()
        .interactions
        .last()
        .expect("recorded")
        .token
        .clone();
    token
}

/// Answers the interaction with `token` with a message (callback 4).
async fn answer(discord: &Standin, token: &str) {
    let id = token.trim_start_matches("itoken-");
    let path = format!("/interactions/{id}/{token}/callback");
    let body = json!({"type": 4, "data": {"content": "the board"}});
    let (status, body) = call(discord, "POST", &path, body).await;
    assert_eq!(status, 204, "{body}");
}

async fn followup(discord: &Standin, token: &str, content: &str) -> (u16, Value) {
    let path = format!("/webhooks/{APP_ID}/{token}");
    call(discord, "POST", &path, json!({ "content": content })).await
}

#[tokio::test]
async fn a_dm_command_reads_in_serenity_without_guild_or_member() {
    let discord = Standin::start().await;
    user_installable(&discord).await;
    let alice = discord.user("alice", "th");
    let bob = discord.user("bob", "en-US");
    let carol = discord.user("carol", "en-US");
    let dm = discord.dm(&alice, &bob);
    assert_eq!(discord.dm(&bob, &alice), dm, "one DM per pair of users");
    let group = discord.group_dm(&[&alice, &bob, &carol]);
    let bot_dm = discord.bot_dm(&alice);
    assert_eq!(discord.bot_dm(&alice), bot_dm);
    assert!(discord.is_private(dm) && discord.is_private(group) && discord.is_private(bot_dm));
    assert!(!discord.is_private(CHANNEL));
    assert_eq!(discord.guild_of(dm), None);
    assert_eq!(discord.guild_of(CHANNEL), Some(GUILD_ID));

    let who = Opt::User(bob.clone());
    for (channel, kind, context, permissions) in [
        (
            dm,
            ChannelType::Private,
            InteractionContext::PrivateChannel,
            180_224,
        ),
        (
            group,
            ChannelType::GroupDm,
            InteractionContext::PrivateChannel,
            180_224,
        ),
        (
            bot_dm,
            ChannelType::Private,
            InteractionContext::BotDm,
            442_368,
        ),
    ] {
        let (_, payload) =
            discord.command_payload(&alice, channel, "board", &[("opponent", who.clone())]);
        for absent in ["guild_id", "member", "guild_locale"] {
            assert!(payload.get(absent).is_none(), "{absent}: {payload:#}");
        }
        assert!(payload["data"].get("guild_id").is_none(), "{payload:#}");
        let i: CommandInteraction = serde_json::from_value(payload.clone()).expect("serenity");
        assert_eq!(i.guild_id, None);
        assert!(i.member.is_none());
        assert_eq!(i.user.id.get(), alice.id);
        assert_eq!(i.locale, "th");
        assert_eq!(i.context, Some(context));
        assert_eq!(i.app_permissions.map(|p| p.bits()), Some(permissions));
        let c = i.channel.expect("the partial channel");
        assert_eq!((c.id.get(), c.kind), (channel, kind));
        let owners = &i.authorizing_integration_owners.0;
        assert!(
            owners.iter().any(|o| matches!(
                o,
                AuthorizingIntegrationOwner::UserInstall(u) if u.get() == alice.id
            )),
            "{payload:#}"
        );
        if context == InteractionContext::PrivateChannel {
            assert_eq!(owners.len(), 1, "user install only: {payload:#}");
            let recipients = payload["channel"]["recipients"]
                .as_array()
                .expect("recipients");
            let alice_id = alice.id.to_string();
            assert!(recipients.iter().all(|r| r["id"] != alice_id.as_str()));
            assert_eq!(recipients.len(), if channel == group { 2 } else { 1 });
        }
        assert_eq!(i.data.resolved.users.len(), 1);
        assert!(i.data.resolved.members.is_empty(), "no members in a DM");
    }

    // In the server the payload is as before: guild, member, the guild installation.
    let (_, payload) = discord.command_payload(&alice, CHANNEL, "board", &[]);
    let i: CommandInteraction = serde_json::from_value(payload.clone()).expect("serenity");
    assert_eq!(i.guild_id.map(|g| g.get()), Some(GUILD_ID));
    assert!(i.member.is_some());
    assert_eq!(i.context, Some(InteractionContext::Guild));
    assert_eq!(
        payload["authorizing_integration_owners"]["0"],
        GUILD_ID.to_string()
    );

    // A button of a message in the DM: pressed by bob, authorized by alice's installation.
    let token = send_board(&discord, &alice, dm);
    let id = token.trim_start_matches("itoken-");
    let body = json!({"type": 4, "data": {"content": "Accept?", "components": [{"type": 1,
        "components": [{"type": 2, "style": 1, "label": "Accept", "custom_id": "mk:accept:1"}]}]}});
    let (status, _) = call(
        &discord,
        "POST",
        &format!("/interactions/{id}/{token}/callback"),
        body,
    )
    .await;
    assert_eq!(status, 204);
    let (message, custom_id) = discord.find_button(dm, &bob, "accept").expect("the button");
    assert!(discord
        .message(message)
        .is_some_and(|m| m.guild_id.is_none()));
    let (_, payload) = discord
        .click_payload(&bob, message, &custom_id)
        .expect("the message");
    let i: ComponentInteraction = serde_json::from_value(payload.clone()).expect("serenity");
    assert_eq!((i.guild_id, i.user.id.get()), (None, bob.id));
    assert!(i.member.is_none() && i.message.guild_id.is_none());
    assert_eq!(
        payload["authorizing_integration_owners"],
        json!({"1": alice.id.to_string()})
    );
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());
}

#[tokio::test]
async fn the_sixth_followup_of_a_user_installed_interaction_is_refused() {
    let discord = Standin::start().await;
    user_installable(&discord).await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    let dm = discord.dm(&alice, &bob);
    let token = send_board(&discord, &alice, dm);
    answer(&discord, &token).await;
    for n in 1..=MAX_USER_APP_FOLLOWUPS {
        let (status, body) = followup(&discord, &token, &format!("move {n}")).await;
        assert_eq!(status, 200, "follow-up {n}: {body}");
        assert!(body.get("guild_id").is_none(), "{body}");
        assert_eq!(body["channel_id"], dm.to_string());
    }
    let (status, body) = followup(&discord, &token, "one more").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["code"], 40094, "{body}");
    assert_eq!(
        body["message"],
        "This interaction has hit the maximum number of follow up messages"
    );
    assert_eq!(discord.errors().len(), 1, "{:?}", discord.errors());

    // Follow-ups after the answer are the bot's own messages in the DM, not the answer's.
    let posted: Vec<String> = discord
        .posted_messages(dm)
        .iter()
        .map(|m| m.content.clone())
        .collect();
    assert_eq!(posted, ["move 1", "move 2", "move 3", "move 4", "move 5"]);
    assert_eq!(discord.wait_posted(dm, 4).await.content, "move 5");
    let outcome = discord.outcome(&token).expect("answered");
    let texts: Vec<&str> = outcome
        .messages
        .iter()
        .map(|m| m.content.as_str())
        .collect();
    assert_eq!(texts, ["the board"]);
    assert!(discord
        .channel_messages(dm)
        .iter()
        .all(|m| m.channel_id == dm));

    // In the server the guild installation authorizes it: no such limit.
    let token = send_board(&discord, &alice, CHANNEL);
    answer(&discord, &token).await;
    for n in 1..=MAX_USER_APP_FOLLOWUPS + 1 {
        let (status, body) = followup(&discord, &token, &format!("note {n}")).await;
        assert_eq!(status, 200, "follow-up {n}: {body}");
    }
}

#[tokio::test]
async fn expired_tokens_are_refused_with_50027() {
    let discord = Standin::start().await;
    user_installable(&discord).await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    let dm = discord.dm(&alice, &bob);
    let token = send_board(&discord, &alice, dm);
    answer(&discord, &token).await;
    let (status, first) = followup(&discord, &token, "in time").await;
    assert_eq!(status, 200, "{first}");
    let first = first["id"].as_str().expect("an id").to_owned();

    discord.expire_tokens();
    let hook = format!("/webhooks/{APP_ID}/{token}");
    let edit = json!({"content": "edited"});
    for (method, path, body) in [
        ("POST", hook.clone(), json!({"content": "too late"})),
        ("PATCH", format!("{hook}/messages/@original"), edit.clone()),
        ("PATCH", format!("{hook}/messages/{first}"), edit),
        ("GET", format!("{hook}/messages/@original"), Value::Null),
        ("DELETE", format!("{hook}/messages/{first}"), Value::Null),
    ] {
        let (status, body) = call(&discord, method, &path, body).await;
        assert_eq!(status, 401, "{method} {path}: {body}");
        assert_eq!(body["code"], 50027, "{body}");
        assert_eq!(body["message"], "Invalid Webhook Token");
    }
    let texts: Vec<String> = discord
        .channel_messages(dm)
        .iter()
        .map(Message::text)
        .collect();
    assert_eq!(texts, ["the board", "in time"], "nothing changed");
    assert!(discord.errors().is_empty(), "{:?}", discord.errors());

    // An interaction sent afterwards has a fresh token.
    let token = send_board(&discord, &alice, dm);
    answer(&discord, &token).await;
    assert_eq!(followup(&discord, &token, "fresh").await.0, 200);
}

#[tokio::test]
async fn the_bot_cannot_use_the_channel_routes_of_a_dm_it_is_not_in() {
    let discord = Standin::start().await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    let dm = discord.dm(&alice, &bob);
    let group = discord.group_dm(&[&alice, &bob]);
    let bot_dm = discord.bot_dm(&alice);
    let hello = json!({"content": "hello"});
    for channel in [dm, group] {
        for (method, path, body) in [
            (
                "POST",
                format!("/channels/{channel}/messages"),
                hello.clone(),
            ),
            (
                "GET",
                format!("/channels/{channel}/messages?limit=5"),
                Value::Null,
            ),
            (
                "PATCH",
                format!("/channels/{channel}/messages/1"),
                hello.clone(),
            ),
            (
                "POST",
                format!("/channels/{channel}/messages/1/threads"),
                json!({"name": "x"}),
            ),
        ] {
            let (status, body) = call(&discord, method, &path, body).await;
            assert_eq!(status, 403, "{method} {path}: {body}");
            assert_eq!(body, json!({"code": 50001, "message": "Missing Access"}));
        }
    }
    assert_eq!(discord.errors().len(), 8, "{:?}", discord.errors());
    assert!(discord.channel_messages(dm).is_empty());

    // In its own DM the bot posts, edits and reads as in a server channel.
    let (status, body) = call(
        &discord,
        "POST",
        &format!("/channels/{bot_dm}/messages"),
        hello,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.get("guild_id").is_none(), "{body}");
    let id = body["id"].as_str().expect("an id");
    let path = format!("/channels/{bot_dm}/messages/{id}");
    let (status, _) = call(&discord, "PATCH", &path, json!({"content": "hi"})).await;
    assert_eq!(status, 200);
    let (status, list) = call(
        &discord,
        "GET",
        &format!("/channels/{bot_dm}/messages"),
        Value::Null,
    )
    .await;
    assert_eq!((status, list[0]["content"].clone()), (200, json!("hi")));
    assert_eq!(discord.posted_messages(bot_dm).len(), 1);
    assert_eq!(discord.errors().len(), 8, "{:?}", discord.errors());
}

#[tokio::test]
async fn commands_are_offered_where_their_contexts_say() {
    let discord = Standin::start().await;
    let alice = discord.user("alice", "en-US");
    let bob = discord.user("bob", "en-US");
    let dm = discord.dm(&alice, &bob);
    let group = discord.group_dm(&[&alice, &bob]);
    let bot_dm = discord.bot_dm(&alice);
    register(
        &discord,
        false,
        json!([
            {"name": "plain", "description": "Defaults: guild install, every context"},
            {"name": "user", "description": "User install", "integration_types": [1]},
            {"name": "both", "description": "Both", "integration_types": [0, 1],
             "contexts": [0, 1, 2]},
            {"name": "dms", "description": "DMs only", "integration_types": [0, 1],
             "contexts": [1, 2]},
            {"name": "nowhere", "description": "No context", "integration_types": [0, 1],
             "contexts": []},
        ]),
    )
    .await;
    register(
        &discord,
        true,
        json!([{"name": "local", "description": "A guild command"}]),
    )
    .await;
    for (name, server, bot, private) in [
        ("plain", true, true, false),
        ("user", true, true, true),
        ("both", true, true, true),
        ("dms", false, true, true),
        ("nowhere", false, false, false),
        ("local", true, false, false),
        ("unknown", false, false, false),
    ] {
        assert_eq!(
            discord.offered(CHANNEL, name),
            server,
            "/{name} in the server"
        );
        assert_eq!(
            discord.offered(bot_dm, name),
            bot,
            "/{name} in the bot's DM"
        );
        assert_eq!(discord.offered(dm, name), private, "/{name} in a DM");
        assert_eq!(
            discord.offered(group, name),
            private,
            "/{name} in a group DM"
        );
    }

    // Sending one where it is not offered is an error; sending it on purpose is not.
    assert!(discord
        .try_send_command(&alice, CHANNEL, "plain", &[])
        .is_none());
    assert!(discord.errors().is_empty());
    assert!(discord.try_send_command(&alice, dm, "plain", &[]).is_none());
    assert_eq!(discord.errors().len(), 1, "{:?}", discord.errors());
    assert!(discord
        .send_command_anyway(&alice, dm, "local", &[])
        .is_none());
    assert!(discord
        .try_send_command(&alice, dm, "unknown", &[])
        .is_none());
    assert_eq!(discord.errors().len(), 1, "{:?}", discord.errors());

    // A guild-install-only command in the bot's DM: the guild installation, owner "0".
    let (_, payload) = discord.command_payload(&alice, bot_dm, "plain", &[]);
    assert_eq!(payload["authorizing_integration_owners"], json!({"0": "0"}));
    let (_, payload) = discord.command_payload(&alice, CHANNEL, "both", &[]);
    assert_eq!(
        payload["authorizing_integration_owners"],
        json!({"0": GUILD_ID.to_string(), "1": alice.id.to_string()})
    );
}
