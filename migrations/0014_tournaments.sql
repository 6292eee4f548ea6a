-- Tournaments (issue 26): Swiss and round-robin events run by the bot in a channel, their
-- players and each round's pairings.
--
-- Portable SQL (SQLite and PostgreSQL): the same text in both folders but for the tournaments'
-- row id (SQLite's INTEGER PRIMARY KEY, PostgreSQL's identity column).

-- One event. `format`: 'swiss', 'round-robin', 'arena'. `state`: 'open' (taking players),
-- 'running', 'finished', 'cancelled'. `rounds`: the number of rounds (a round-robin's is set
-- when it starts); `round`: the round being played (0 before the start; an arena's: the
-- number of pairing waves so far). `minutes`: an arena's duration. `time_control`, `variant`,
-- `ruleset` as a game's; `start_at`: when it starts by itself (Unix seconds), NULL when it is
-- started by hand (an arena's is set when it starts). `message_id`: the announcement message
-- in `channel_id`, updated live. `repeat_days`: a recurring event (7: weekly), created again
-- that many days later when it finishes. `reminded`: 1 once its players were reminded of its
-- start.
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY,
    guild_id     BIGINT,
    channel_id   BIGINT  NOT NULL,
    creator_id   BIGINT  NOT NULL,
    name         TEXT    NOT NULL,
    format       TEXT    NOT NULL,
    time_control TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    ruleset      TEXT    NOT NULL,
    rated        BIGINT  NOT NULL,
    rounds       BIGINT,
    round        BIGINT  NOT NULL DEFAULT 0,
    minutes      BIGINT,
    state        TEXT    NOT NULL,
    start_at     BIGINT,
    message_id   BIGINT,
    repeat_days  BIGINT,
    reminded     BIGINT  NOT NULL DEFAULT 0,
    created_at   BIGINT  NOT NULL,
    finished_at  BIGINT
);

-- One event taking players or running per channel.
CREATE UNIQUE INDEX tournaments_one_per_channel ON tournaments (channel_id)
    WHERE state IN ('open', 'running');

-- A player of an event. `number`: the starting number (the initial order: rating, then who
-- joined first), given at the start; a late joiner gets the next free number. `rating`: the
-- player's rating when joining. `joined_round`: the first round the player could be paired in
-- (1 before the start). `withdrawn`: 1 after leaving a running event (no longer paired).
CREATE TABLE tournament_players (
    tournament_id BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    number        BIGINT,
    rating        BIGINT NOT NULL,
    joined_at     BIGINT NOT NULL,
    joined_round  BIGINT NOT NULL,
    withdrawn     BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);

-- Starting numbers are unique in an event (NULL until the start).
CREATE UNIQUE INDEX tournament_players_by_number ON tournament_players (tournament_id, number);

-- One pairing of one round. `black_id` NULL: the pairing-allocated bye of `white_id`.
-- `game_id`: the game once started (in a thread of the event's channel). `result`: NULL until
-- known; '1-0', '0-1', '1/2-1/2', or forfeits '+-', '-+', '--'; 'bye' for the bye. `plies`:
-- the game's length once it ended (an arena's quick draws and berserk bonus depend on it).
-- `message_id`: the message (in the event's channel) the game's thread opens from, once
-- posted, so that a thread Discord refused is tried again without a second message.
-- `white_berserk`, `black_berserk`: 1 when that player berserked (an arena's: half the time,
-- a point more for a win).
CREATE TABLE tournament_pairings (
    tournament_id BIGINT NOT NULL,
    round         BIGINT NOT NULL,
    board         BIGINT NOT NULL,
    white_id      BIGINT NOT NULL,
    black_id      BIGINT,
    game_id       BIGINT,
    result        TEXT,
    plies         BIGINT,
    message_id    BIGINT,
    white_berserk BIGINT NOT NULL DEFAULT 0,
    black_berserk BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, board)
);

CREATE UNIQUE INDEX tournament_pairings_by_game ON tournament_pairings (game_id);

-- A role whose members may create tournaments on the server, besides those with Manage
-- Server (`/settings tournament-role`); NULL: none.
ALTER TABLE guild_settings ADD COLUMN tournament_role BIGINT;
