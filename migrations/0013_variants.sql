-- The Makruk family (issue 25): each game and challenge names its variant, and ratings are
-- kept per variant as well as per server and speed (as pychess keeps them).
--
-- Portable SQL except the rebuild of `ratings` (SQLite cannot change a primary key in place;
-- PostgreSQL's 0013 alters the constraint instead). Rows stored before this migration are
-- Makruk games, challenges and ratings.

-- Fairy-Stockfish's variant name: 'makruk' | 'makpong' | 'cambodian' | 'asean' | 'sittuyin'
-- (`makruk::Variant::name`). `ruleset` applies to 'makruk' only; the other variants count and
-- draw by their own rules and store 'standard' there.
ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'makruk';
ALTER TABLE challenges ADD COLUMN variant TEXT NOT NULL DEFAULT 'makruk';

-- The view lists the columns of `games` as they were when it was made (PostgreSQL expands
-- `g.*` then): made again, the same, so that it shows `variant` on both databases.
DROP VIEW games_now;
CREATE VIEW games_now AS
SELECT g.*,
    CASE WHEN g.state = 'active' THEN CAST(
        COALESCE((SELECT d.until_ms FROM downtimes d
                  WHERE d.since_ms > g.downtimes_applied
                    AND d.since_ms < g.turn_started_ms AND g.turn_started_ms < d.until_ms),
                 g.turn_started_ms)
        + COALESCE((SELECT SUM(d.until_ms - d.since_ms) FROM downtimes d
                    WHERE d.since_ms > g.downtimes_applied
                      AND d.since_ms >= g.turn_started_ms), 0) AS BIGINT)
    ELSE g.turn_started_ms END AS clock_started_ms,
    COALESCE((SELECT MAX(d.since_ms) FROM downtimes d WHERE d.since_ms > g.downtimes_applied),
             g.downtimes_applied) AS clock_downtimes_applied
FROM games g;

-- A player's rating on one server, in one variant, at one speed.
CREATE TABLE ratings_by_variant (
    guild_id     BIGINT           NOT NULL,
    user_id      BIGINT           NOT NULL,
    variant      TEXT             NOT NULL DEFAULT 'makruk',
    speed        TEXT             NOT NULL CHECK (speed IN ('live', 'correspondence')),
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    games        INTEGER          NOT NULL,
    wins         INTEGER          NOT NULL,
    draws        INTEGER          NOT NULL,
    losses       INTEGER          NOT NULL,
    last_game_at BIGINT           NOT NULL,
    PRIMARY KEY (guild_id, user_id, variant, speed)
);
INSERT INTO ratings_by_variant (guild_id, user_id, variant, speed, rating, deviation, volatility,
    games, wins, draws, losses, last_game_at)
SELECT guild_id, user_id, 'makruk', speed, rating, deviation, volatility, games, wins, draws,
    losses, last_game_at FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_by_variant RENAME TO ratings;
-- The leaderboard: a server's players in one variant at one speed, best first.
CREATE INDEX ratings_leaderboard ON ratings (guild_id, variant, speed, rating DESC, user_id);

ALTER TABLE rating_history ADD COLUMN variant TEXT NOT NULL DEFAULT 'makruk';
DROP INDEX rating_history_player;
CREATE INDEX rating_history_player ON rating_history (guild_id, user_id, variant, speed, id);
