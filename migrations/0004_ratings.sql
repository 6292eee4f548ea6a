-- Ratings: the server (guild) of every game and challenge, whether it is rated, each player's
-- Glicko-2 rating per server and speed, and one history row per player per rated game (the
-- chart, and `makruk-bot recompute`, which rebuilds `ratings` from the games).
--
-- Portable SQL (SQLite and PostgreSQL): ADD COLUMN with constant defaults, DOUBLE PRECISION
-- (SQLite's REAL), the same row-id note as 0001 for `rating_history.id`.
--
-- Rows stored before this migration get guild_id NULL and rated 0: a game without a server is
-- never rated (ratings are per server), so old games stay out of every ladder and `recompute`
-- leaves them out too.

-- The Discord server the game was played in; NULL: none known (older rows, games against the
-- computer).
ALTER TABLE games ADD COLUMN guild_id BIGINT;
-- The players asked for a rated game (0 or 1). It counts only when it also qualifies at its
-- end (a server, no computer, not aborted, each side made two moves).
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE challenges ADD COLUMN guild_id BIGINT;
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

-- A player's rating on one server at one speed ('live' | 'correspondence'), as of their last
-- rated game there; the deviation grows with inactivity from `last_game_at` on when read.
CREATE TABLE ratings (
    guild_id     BIGINT           NOT NULL,
    user_id      BIGINT           NOT NULL,
    speed        TEXT             NOT NULL CHECK (speed IN ('live', 'correspondence')),
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    games        INTEGER          NOT NULL,
    wins         INTEGER          NOT NULL,
    draws        INTEGER          NOT NULL,
    losses       INTEGER          NOT NULL,
    -- Unix seconds: the end of the last rated game.
    last_game_at BIGINT           NOT NULL,
    PRIMARY KEY (guild_id, user_id, speed)
);

-- The leaderboard: a server's players at one speed, best first.
CREATE INDEX ratings_leaderboard ON ratings (guild_id, speed, rating DESC, user_id);

-- One row per player per rated game, written in the transaction that stores the result.
CREATE TABLE rating_history (
    -- Increases in the order the ratings were applied (what `recompute` replays).
    id                INTEGER          PRIMARY KEY,
    game_id           BIGINT           NOT NULL REFERENCES games (id),
    guild_id          BIGINT           NOT NULL,
    user_id           BIGINT           NOT NULL,
    speed             TEXT             NOT NULL CHECK (speed IN ('live', 'correspondence')),
    color             TEXT             NOT NULL CHECK (color IN ('white', 'black')),
    opponent_id       BIGINT           NOT NULL,
    -- 1, 0.5 or 0 from this player's side.
    score             DOUBLE PRECISION NOT NULL CHECK (score IN (0, 0.5, 1)),
    rating_before     DOUBLE PRECISION NOT NULL,
    opponent_rating   DOUBLE PRECISION NOT NULL,
    rating            DOUBLE PRECISION NOT NULL,
    deviation         DOUBLE PRECISION NOT NULL,
    volatility        DOUBLE PRECISION NOT NULL,
    -- Unix seconds (the game's finished_at).
    finished_at       BIGINT           NOT NULL,
    -- A game is rated once.
    UNIQUE (game_id, user_id)
);

CREATE INDEX rating_history_player ON rating_history (guild_id, user_id, speed, id);
