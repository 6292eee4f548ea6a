-- PostgreSQL's 0002_clocks.sql: the same tables, columns, constraints and indexes as
-- migrations/0002_clocks.sql (SQLite's; its comments explain them), with BIGINT for every
-- integer (Rust reads them as i64) and identity columns for SQLite's row ids.

-- Storage form of the time control: 'c<days>d' (correspondence) or 'l<minutes>+<seconds>'.
ALTER TABLE games ADD COLUMN time_control TEXT NOT NULL DEFAULT 'c3d';
-- Each side's remaining milliseconds at the start of the current turn.
ALTER TABLE games ADD COLUMN white_ms BIGINT NOT NULL DEFAULT 259200000;
ALTER TABLE games ADD COLUMN black_ms BIGINT NOT NULL DEFAULT 259200000;
-- Unix milliseconds at which the current turn started.
ALTER TABLE games ADD COLUMN turn_started_ms BIGINT NOT NULL DEFAULT 0;
-- The correspondence reminder of the current turn has been sent (0 or 1).
ALTER TABLE games ADD COLUMN reminder_sent BIGINT NOT NULL DEFAULT 0;
UPDATE games SET turn_started_ms = updated_at * 1000;

-- Both sides' remaining milliseconds after the move (increment included); NULL for moves
-- stored before clocks existed (correspondence: a takeback gives the full period anyway).
ALTER TABLE moves ADD COLUMN white_ms BIGINT;
ALTER TABLE moves ADD COLUMN black_ms BIGINT;

-- The time control the challenger asked for.
ALTER TABLE challenges ADD COLUMN time_control TEXT NOT NULL DEFAULT 'c3d';

-- One row (id = 1): the bot's last heartbeat, Unix milliseconds.
CREATE TABLE bot_state (
    id            BIGINT  PRIMARY KEY CHECK (id = 1),
    last_alive_ms BIGINT  NOT NULL
);

-- Start-up reads every active game's clock.
CREATE INDEX games_active ON games (state);
