-- PostgreSQL's 0005_announced.sql: the same tables, columns, constraints and indexes as
-- migrations/0005_announced.sql (SQLite's; its comments explain them), with BIGINT for every
-- integer (Rust reads them as i64) and identity columns for SQLite's row ids.

-- 0: stored, not yet shown in the channel; 1: shown (or given up on: Discord refused the
-- channel for good, e.g. the bot lost access to it).
ALTER TABLE moves ADD COLUMN announced BIGINT NOT NULL DEFAULT 1;

-- Start-up and the periodic sweep look for the few unannounced moves.
CREATE INDEX moves_unannounced ON moves (game_id) WHERE announced = 0;
