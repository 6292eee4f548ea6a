-- PostgreSQL's 0003_computer.sql: the same tables, columns, constraints and indexes as
-- migrations/0003_computer.sql (SQLite's; its comments explain them), with BIGINT for every
-- integer (Rust reads them as i64) and identity columns for SQLite's row ids.

-- 'white' | 'black' | NULL (no computer in this game).
ALTER TABLE games ADD COLUMN computer_side TEXT CHECK (computer_side IN ('white', 'black'));
-- 1-8: our engine's levels; 9: Fairy-Stockfish. NULL exactly when computer_side is NULL.
ALTER TABLE games ADD COLUMN computer_level BIGINT
    CHECK ((computer_level IS NULL) = (computer_side IS NULL)
           AND (computer_level IS NULL OR computer_level BETWEEN 1 AND 9));

-- Start-up looks for the computer games still being played (the computer may be to move).
CREATE INDEX games_active_computer ON games (id)
    WHERE state = 'active' AND computer_side IS NOT NULL;
