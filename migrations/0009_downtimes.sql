-- The bot's downtimes, given back to the active games' clocks when their rows are read, instead
-- of by rewriting every active game's row at start-up (with 10,000 active games spread over a
-- large file that rewrote most of its pages: hundreds of milliseconds before the bot was ready).
--
-- Portable SQL (SQLite and PostgreSQL): a table, ADD COLUMN with a constant default, and a
-- view whose correlated subqueries both databases run per row read.

-- One row per start-up that found the bot had been down: from its last heartbeat (`since_ms`)
-- to that start-up (`until_ms`), Unix milliseconds. Rows never overlap and `since_ms` grows
-- with each (`record_downtime` clips a row to start after the one before ends); a row that no
-- active game's turn started before is deleted.
CREATE TABLE downtimes (
    since_ms BIGINT NOT NULL PRIMARY KEY,
    until_ms BIGINT NOT NULL,
    CHECK (until_ms > since_ms)
);

-- The last downtime (its `since_ms`) that the stored `turn_started_ms` already includes: a
-- write stores the turn's start as it was read, every downtime up to this one given back.
ALTER TABLE games ADD COLUMN downtimes_applied BIGINT NOT NULL DEFAULT 0;

-- `games` with the current turn's start as the clocks see it (`clock_started_ms`): an active
-- game's stored start given back every later downtime: moved by the length of each one that
-- began at or after it, and first restarted at a downtime's end if it started within the
-- downtime (after the last heartbeat: the bot ran then but stopped before its next beat).
-- Exactly what `ClockState::resume` applied at each of those start-ups would have stored (a
-- test checks them against each other). A finished game's clock is as stored.
-- `clock_downtimes_applied` is what a write of the row read stores as `downtimes_applied`.
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
