-- Computer analyses of finished games (issue 23): one row per game asked for, and once it is
-- done one row per analysed ply. Asking again is then one read; an analysis made by another
-- engine version or budget may be made again on request.
--
-- Portable SQL (SQLite and PostgreSQL).

-- `state`: 'queued' (asked for, waiting for or on the thinking pool; a restart finds it and
-- runs it again) or 'done'. `requested_ms` orders the queue (Unix ms). `channel_id`: where
-- it was asked for (the result is posted there; NULL: nobody waits for it). `engine`: the
-- engine's name and version; `nodes`: the search budget per position. `summary`: JSON of the
-- totals (accuracy, average centipawn loss, counts of judgements, bias), when done.
CREATE TABLE analyses (
    game_id      BIGINT NOT NULL PRIMARY KEY REFERENCES games (id),
    state        TEXT   NOT NULL CHECK (state IN ('queued', 'done')),
    requested_ms BIGINT NOT NULL,
    channel_id   BIGINT,
    engine       TEXT   NOT NULL,
    nodes        BIGINT NOT NULL,
    summary      TEXT,
    finished_ms  BIGINT
);

CREATE INDEX analyses_queue ON analyses (requested_ms) WHERE state = 'queued';

-- One analysed ply (0-based `ply`): `eval`, the position after the move from White's view
-- ('cp:35', 'mate:-3', 'checkmate:white'); `best`, the engine's move (UCI) in the position
-- before it (NULL: none found); `judgement`: NULL, 'inaccuracy', 'mistake' or 'blunder';
-- `accuracy`: the move's accuracy (0..100); `cp_loss`: the mover's centipawn loss.
CREATE TABLE analysis_plies (
    game_id   BIGINT NOT NULL REFERENCES analyses (game_id),
    ply       BIGINT NOT NULL,
    eval      TEXT   NOT NULL,
    best      TEXT,
    judgement TEXT CHECK (judgement IN ('inaccuracy', 'mistake', 'blunder')),
    accuracy  DOUBLE PRECISION NOT NULL,
    cp_loss   BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
