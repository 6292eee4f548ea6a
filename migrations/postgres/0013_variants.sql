-- PostgreSQL's 0013_variants.sql: the same columns, keys and indexes as
-- migrations/0013_variants.sql (SQLite's; its comments explain them); the primary key of
-- `ratings` is altered in place rather than by a rebuild.

ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'makruk';
ALTER TABLE challenges ADD COLUMN variant TEXT NOT NULL DEFAULT 'makruk';

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

ALTER TABLE ratings ADD COLUMN variant TEXT NOT NULL DEFAULT 'makruk';
ALTER TABLE ratings DROP CONSTRAINT ratings_pkey;
ALTER TABLE ratings ADD PRIMARY KEY (guild_id, user_id, variant, speed);
DROP INDEX ratings_leaderboard;
CREATE INDEX ratings_leaderboard ON ratings (guild_id, variant, speed, rating DESC, user_id);

ALTER TABLE rating_history ADD COLUMN variant TEXT NOT NULL DEFAULT 'makruk';
DROP INDEX rating_history_player;
CREATE INDEX rating_history_player ON rating_history (guild_id, user_id, variant, speed, id);
