-- Clocks: every game has a time control and a clock; a takeback restores the clocks stored
-- with the move before the taken-back one; the bot's last heartbeat tells the next start-up
-- how long it was down (that time is charged to nobody).
--
-- Portable SQL (SQLite and PostgreSQL: ADD COLUMN with constant defaults, then UPDATE).
-- Times of the clock are Unix milliseconds, durations milliseconds. Games stored before this
-- migration become 3-days-per-move correspondence games whose current turn started at their
-- last change.

-- Storage form of the time control: 'c<days>d' (correspondence) or 'l<minutes>+<seconds>'.
ALTER TABLE games ADD COLUMN time_control TEXT NOT NULL DEFAULT 'c3d';
-- Each side's remaining milliseconds at the start of the current turn.
ALTER TABLE games ADD COLUMN white_ms BIGINT NOT NULL DEFAULT 259200000;
ALTER TABLE games ADD COLUMN black_ms BIGINT NOT NULL DEFAULT 259200000;
-- Unix milliseconds at which the current turn started.
ALTER TABLE games ADD COLUMN turn_started_ms BIGINT NOT NULL DEFAULT 0;
-- The correspondence reminder of the current turn has been sent (0 or 1).
ALTER TABLE games ADD COLUMN reminder_sent INTEGER NOT NULL DEFAULT 0;
UPDATE games SET turn_started_ms = updated_at * 1000;

-- Both sides' remaining milliseconds after the move (increment included); NULL for moves
-- stored before clocks existed (correspondence: a takeback gives the full period anyway).
ALTER TABLE moves ADD COLUMN white_ms BIGINT;
ALTER TABLE moves ADD COLUMN black_ms BIGINT;

-- The time control the challenger asked for.
ALTER TABLE challenges ADD COLUMN time_control TEXT NOT NULL DEFAULT 'c3d';

-- One row (id = 1): the bot's last heartbeat, Unix milliseconds.
CREATE TABLE bot_state (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    last_alive_ms BIGINT  NOT NULL
);

-- Start-up reads every active game's clock.
CREATE INDEX games_active ON games (state);
