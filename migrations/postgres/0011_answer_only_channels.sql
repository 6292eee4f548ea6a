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
