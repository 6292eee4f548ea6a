-- Every stored move reaches its channel: each move carries an "announced" mark, set once a
-- board showing it (the answer to `/move`, the computer's reply posted, or the re-post at
-- start-up) has reached the channel. Start-up posts the games whose moves are not all marked.
--
-- Portable SQL (SQLite and PostgreSQL): ADD COLUMN with a constant default, a partial index.
-- Moves stored before this migration count as announced (default 1); new moves are inserted
-- with 0.

-- 0: stored, not yet shown in the channel; 1: shown (or given up on: Discord refused the
-- channel for good, e.g. the bot lost access to it).
ALTER TABLE moves ADD COLUMN announced INTEGER NOT NULL DEFAULT 1;

-- Start-up and the periodic sweep look for the few unannounced moves.
CREATE INDEX moves_unannounced ON moves (game_id) WHERE announced = 0;
