-- Threads and the server's language: per-server settings, the thread a challenge asks for, and
-- where a game played in its own thread started.
--
-- Portable SQL (SQLite and PostgreSQL): CREATE TABLE with a BIGINT primary key, ADD COLUMN with
-- constant defaults or NULL.

-- One row per server (guild) that changed a setting or sent its preferred locale.
CREATE TABLE guild_settings (
    guild_id       BIGINT PRIMARY KEY,
    -- New challenges and /play games open a thread unless their `thread` option says no (0 or 1).
    thread_default BIGINT NOT NULL DEFAULT 0 CHECK (thread_default IN (0, 1)),
    -- The server's preferred locale as Discord last sent it (`guild_locale`, e.g. 'th'); NULL:
    -- never seen. Public messages are written in it.
    locale         TEXT
);

-- The challenge's game is to be played in a thread opened from the challenge message (0 or 1).
ALTER TABLE challenges ADD COLUMN thread BIGINT NOT NULL DEFAULT 0 CHECK (thread IN (0, 1));

-- A game played in its own thread: `games.channel_id` is the thread; these name the channel the
-- thread was opened in and the message it was opened from (updated with the result). NULL: the
-- game is played in the channel itself.
ALTER TABLE games ADD COLUMN parent_channel_id BIGINT;
ALTER TABLE games ADD COLUMN parent_message_id BIGINT;
