-- Leases: work that exactly one of several bot processes on one database must do (the sweep
-- of orphaned deadlines, computer turns and challenges, the re-post of unannounced moves) is
-- done by the holder of a lease row. A holder renews its row before `expires_ms`; once that
-- instant has passed, any process may take it over.
--
-- Portable SQL (SQLite and PostgreSQL): a plain table; the store takes and renews a lease with
-- one INSERT … ON CONFLICT … DO UPDATE … WHERE, which both databases run atomically.

CREATE TABLE leases (
    -- What the lease is for (e.g. 'leader').
    name       TEXT   PRIMARY KEY,
    -- The holding process's random id.
    holder     TEXT   NOT NULL,
    -- Unix milliseconds (the service's clock) until which the lease is held.
    expires_ms BIGINT NOT NULL
);
