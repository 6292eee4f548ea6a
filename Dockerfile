# syntax=docker/dockerfile:1
# makruk-bot: a Discord bot for Makruk (Thai chess).
#
#   docker build -t makruk-bot .
#   docker run -d --name makruk-bot -e DISCORD_TOKEN=... -e DISCORD_GUILD_ID=... \
#       -v makruk-data:/data makruk-bot
#
# Configuration is by environment, exactly as for `cargo run --release` (see README.md):
# DISCORD_TOKEN (required), DATABASE_URL (default here: the SQLite file /data/makruk-bot.sqlite3
# on the volume), DISCORD_GUILD_ID, DISCORD_API_URL, ENGINE_THREADS, ENGINE_HASH_MB,
# ENGINE_MAX_THINK_MS, FAIRY_STOCKFISH_PATH (default /usr/games/fairy-stockfish, installed
# below), SHARDS, RUST_LOG. Several processes on one PostgreSQL: docker-compose.yml.

# ---- build ----
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
# .dockerignore keeps target/, .git and local databases out of the context.
COPY . .
# BuildKit caches keep the crates registry and compiled dependencies between builds.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin makruk-bot \
    && cp target/release/makruk-bot /usr/local/bin/makruk-bot \
    && strip /usr/local/bin/makruk-bot

# ---- run ----
FROM debian:bookworm-slim
# CA certificates for HTTPS to discord.com (cheap insurance: the rustls build bundles its own
# roots); tini as PID 1 reaps processes (the bot's Fairy-Stockfish child among them) and passes
# signals on; Debian's fairy-stockfish package (bookworm: 11.1, with the makruk variant) is the
# computer's level 9, at /usr/games/fairy-stockfish, the bot's default FAIRY_STOCKFISH_PATH.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates tini fairy-stockfish \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 makruk \
    && useradd --system --uid 10001 --gid makruk --home-dir /data --shell /usr/sbin/nologin makruk \
    && mkdir -p /data \
    && chown makruk:makruk /data
COPY --from=build /usr/local/bin/makruk-bot /usr/local/bin/makruk-bot
USER makruk:makruk
WORKDIR /data
VOLUME ["/data"]
ENV DATABASE_URL=sqlite:///data/makruk-bot.sqlite3
# tini forwards SIGTERM (docker stop) to the bot, which then disconnects and closes the database.
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/makruk-bot"]
CMD ["run"]
