-- Channels the bot may only answer in: a DM or group DM where the app is installed to a user's
-- account (not a member of the channel), or a server that added the app only to its users.
-- There the bot cannot post a message of its own: what it would post (the computer's move, a
-- flag that fell) goes with the answer to the next interaction there. Stored so that a restart
-- knows them before the channel's next interaction (its posts would be refused).
--
-- Portable SQL (SQLite and PostgreSQL): CREATE TABLE with a BIGINT primary key.
CREATE TABLE answer_only_channels (
    channel_id BIGINT PRIMARY KEY,
    -- Unix milliseconds of the first interaction that showed it.
    since_ms   BIGINT NOT NULL
);

-- The language of a channel outside any server (a DM or group DM): the locale of the user of
-- its last interaction, who is answered in it. What the bot says there by itself (the
-- computer's move, a flag) is written in it, as a server's messages are in the server's.
CREATE TABLE channel_locales (
    channel_id BIGINT PRIMARY KEY,
    locale     TEXT NOT NULL
);
