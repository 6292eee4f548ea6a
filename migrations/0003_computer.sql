-- Games against the computer.
--
-- The computer plays as the bot's own user: its side's `white_id`/`black_id` holds the bot's user
-- id (Discord gives it at READY; the service takes it as a plain user id), so every query about
-- players, history and PGN keeps working unchanged. These two columns say which side that is and
-- at which level it plays; both NULL in a game between two people. Set when the game is created,
-- never changed.
--
-- Portable SQL (SQLite and PostgreSQL): `ALTER TABLE … ADD COLUMN` with CHECK constraints.

-- 'white' | 'black' | NULL (no computer in this game).
ALTER TABLE games ADD COLUMN computer_side TEXT CHECK (computer_side IN ('white', 'black'));
-- 1-8: our engine's levels; 9: Fairy-Stockfish. NULL exactly when computer_side is NULL.
ALTER TABLE games ADD COLUMN computer_level INTEGER
    CHECK ((computer_level IS NULL) = (computer_side IS NULL)
           AND (computer_level IS NULL OR computer_level BETWEEN 1 AND 9));

-- Start-up looks for the computer games still being played (the computer may be to move).
CREATE INDEX games_active_computer ON games (id)
    WHERE state = 'active' AND computer_side IS NOT NULL;
