-- Puzzles (issue 24): the puzzles, each player's puzzle rating, a puzzle being solved (one per
-- user and channel) and those solved before, votes, and each server's daily puzzle.
--
-- Portable SQL (SQLite and PostgreSQL): the same text in both folders but for the row ids of
-- `puzzle_attempts` (SQLite's INTEGER PRIMARY KEY, PostgreSQL's identity column).

-- The shipped set (puzzles/puzzles.jsonl.gz, loaded at start-up: `guild_id` NULL) and the
-- puzzles made from a server's own games (`guild_id` that server). `moves`: the solution line
-- in UCI, space-separated, starting with the solver's move; `themes`: theme keys,
-- space-separated ('mate mateIn2'). The rating is Glicko-2, as the players'.
CREATE TABLE puzzles (
    id         TEXT             PRIMARY KEY,
    fen        TEXT             NOT NULL,
    moves      TEXT             NOT NULL,
    themes     TEXT             NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    -- Rated attempts (first tries of a player).
    plays      BIGINT           NOT NULL DEFAULT 0,
    votes_up   BIGINT           NOT NULL DEFAULT 0,
    votes_down BIGINT           NOT NULL DEFAULT 0,
    -- Where it comes from (the shipped set's `source`, or 'game:<id>:<ply>').
    source     TEXT             NOT NULL,
    guild_id   BIGINT,
    -- A puzzle from a server's game: the game, the player who missed the win there, and when
    -- the game ended (Unix seconds).
    game_id    BIGINT,
    player_id  BIGINT,
    played_at  BIGINT
);

CREATE INDEX puzzles_by_rating ON puzzles (rating);

-- A player's puzzle rating (one for all servers) and streak of puzzles solved in a row.
CREATE TABLE puzzle_players (
    user_id     BIGINT           PRIMARY KEY,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    solved      BIGINT           NOT NULL,
    failed      BIGINT           NOT NULL,
    streak      BIGINT           NOT NULL,
    best_streak BIGINT           NOT NULL,
    -- Unix milliseconds of the last rated attempt.
    last_ms     BIGINT           NOT NULL
);

-- One attempt of one user at one puzzle in one channel. `progress`: plies of the solution
-- played so far (even: the solver is to move). `state`: 'solving', 'solved', 'failed'
-- (a wrong move, or the solution asked for). `rated`: the user's first attempt at this
-- puzzle without a hint (it moves both ratings when it ends). `daily_day`: a server's daily
-- puzzle (its local date, 'YYYY-MM-DD'; `guild_id` the server). `theme`: the theme asked for
-- (Next serves the same). `rating_change`: the player's rating change when it ended.
CREATE TABLE puzzle_attempts (
    id            INTEGER PRIMARY KEY,
    user_id       BIGINT NOT NULL,
    channel_id    BIGINT NOT NULL,
    puzzle_id     TEXT   NOT NULL REFERENCES puzzles (id),
    state         TEXT   NOT NULL CHECK (state IN ('solving', 'solved', 'failed')),
    progress      BIGINT NOT NULL,
    hinted        BIGINT NOT NULL DEFAULT 0 CHECK (hinted IN (0, 1)),
    rated         BIGINT NOT NULL CHECK (rated IN (0, 1)),
    theme         TEXT,
    guild_id      BIGINT,
    daily_day     TEXT,
    rating_change DOUBLE PRECISION,
    started_ms    BIGINT NOT NULL,
    finished_ms   BIGINT
);

-- One puzzle in progress per user and channel (a second /puzzle replaces it).
CREATE UNIQUE INDEX puzzle_attempts_solving ON puzzle_attempts (user_id, channel_id)
    WHERE state = 'solving';
-- The puzzles a user has seen (a new one is served; the first attempt is the rated one).
CREATE INDEX puzzle_attempts_seen ON puzzle_attempts (user_id, puzzle_id);
-- A daily puzzle is tried once per user.
CREATE UNIQUE INDEX puzzle_attempts_daily ON puzzle_attempts (guild_id, daily_day, user_id)
    WHERE daily_day IS NOT NULL;

-- One vote per user and puzzle (1 up, 0 down); the puzzle's counters follow it.
CREATE TABLE puzzle_votes (
    user_id   BIGINT NOT NULL,
    puzzle_id TEXT   NOT NULL REFERENCES puzzles (id),
    up        BIGINT NOT NULL CHECK (up IN (0, 1)),
    PRIMARY KEY (user_id, puzzle_id)
);

-- A server's daily puzzle: the channel, the local time of day (minutes after midnight) and the
-- server's time zone (minutes east of UTC). NULL channel: no daily puzzle.
ALTER TABLE guild_settings ADD COLUMN puzzle_channel_id BIGINT;
ALTER TABLE guild_settings ADD COLUMN puzzle_minute BIGINT NOT NULL DEFAULT 480;
ALTER TABLE guild_settings ADD COLUMN utc_offset_minutes BIGINT NOT NULL DEFAULT 420;

-- Each daily puzzle of a server, claimed before it is posted (so it is posted once, after a
-- restart too): `message_id` NULL until the message is sent (a claim left so by a crash is
-- posted at the next start). Never the same puzzle twice in a server.
CREATE TABLE daily_puzzles (
    guild_id     BIGINT NOT NULL,
    day          TEXT   NOT NULL,
    puzzle_id    TEXT   NOT NULL REFERENCES puzzles (id),
    channel_id   BIGINT NOT NULL,
    message_id   BIGINT,
    claimed_ms   BIGINT NOT NULL,
    solvers      BIGINT NOT NULL DEFAULT 0,
    tries        BIGINT NOT NULL DEFAULT 0,
    first_solver BIGINT,
    PRIMARY KEY (guild_id, day),
    UNIQUE (guild_id, puzzle_id)
);

-- A user's streak of daily puzzles solved on consecutive days, per server.
CREATE TABLE daily_streaks (
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    streak    BIGINT NOT NULL,
    best      BIGINT NOT NULL,
    last_day  TEXT   NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
