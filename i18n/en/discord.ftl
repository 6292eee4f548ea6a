# Texts of the Discord adapter (English). Game texts (moves, status, errors) are in game.ftl.
# Command and option names: lower case, letters/digits/-/_, at most 32 characters.
# Descriptions: at most 100 characters.

cmd-challenge = challenge
cmd-challenge-description = Challenge someone to a game of Makruk (or of its family) in this channel
cmd-challenge-opponent = opponent
cmd-challenge-opponent-description = Who you want to play
cmd-challenge-color = color
cmd-challenge-color-description = The side you want to play (default: random)
cmd-challenge-variant = variant
cmd-challenge-variant-description = Makruk or another game of its family (default: Makruk)
cmd-challenge-rules = rules
cmd-challenge-rules-description = The ruleset (default: standard)
cmd-challenge-time = time
cmd-challenge-time-description = Time control: days per move (1d 3d 7d 14d) or minutes+increment (3+2 … 30+20); default 3d

cmd-accept = accept
cmd-accept-description = Accept the challenge addressed to you in this channel

cmd-decline = decline
cmd-decline-description = Decline the challenge addressed to you in this channel

cmd-play = play
cmd-play-description = Play against the computer in this channel
cmd-play-level = level
cmd-play-level-description = How strong the computer plays: 1 (easiest) to 8, or Fairy-Stockfish (default: 3)
cmd-play-color = color
cmd-play-color-description = The side you want to play (default: random)
cmd-play-variant = variant
cmd-play-variant-description = Makruk or another game of its family (default: Makruk)
cmd-play-rules = rules
cmd-play-rules-description = The ruleset (default: standard; Fairy-Stockfish plays standard only)
cmd-play-time = time
cmd-play-time-description = Time control: days per move (1d 3d 7d 14d) or minutes+increment (3+2 … 30+20); default 3d

cmd-move = move
cmd-move-description = Play a move in this channel's game
cmd-move-move = move
cmd-move-move-description = Your move, e.g. Sd2, e4, Nc3, Me2 or e3e4 (pick from the list)

cmd-board = board
cmd-board-description = Show the board of this channel's game

cmd-resign = resign
cmd-resign-description = Resign the game

cmd-draw = draw
cmd-draw-description = Offer a draw, or answer your opponent's offer
cmd-draw-action = action
cmd-draw-action-description = What to do (default: offer)

cmd-takeback = takeback
cmd-takeback-description = Ask to take back your last move, or answer your opponent's request
cmd-takeback-action = action
cmd-takeback-action-description = What to do (default: request)

cmd-abort = abort
cmd-abort-description = Call the game off before both sides have moved

cmd-count = count
cmd-count-description = Explain the count; under traditional rules start or stop counting
cmd-count-action = action
cmd-count-action-description = What to do (default: explain)

cmd-rules = rules
cmd-rules-description = How Makruk is played
cmd-rules-topic = topic
cmd-rules-topic-description = What to explain (default: overview)
cmd-rules-variant = variant
cmd-rules-variant-description = Which game of the Makruk family (default: Makruk)
cmd-rules-ruleset = ruleset
cmd-rules-ruleset-description = Which ruleset (default: standard)

cmd-games = games
cmd-games-description = The recent games of this channel

cmd-pgn = pgn
cmd-pgn-description = Download a game as PGN, with a link to analyse it
cmd-pgn-game = game
cmd-pgn-game-description = The game number (default: this channel's current or last game)

choice-1 = 1 (easiest)
choice-2 = 2
choice-3 = 3
choice-4 = 4
choice-5 = 5
choice-6 = 6
choice-7 = 7
choice-8 = 8 (our strongest)
choice-Fairy-Stockfish = Fairy-Stockfish (strongest)
choice-white = white
choice-black = black
choice-random = random
choice-standard = standard
choice-traditional = traditional
choice-material = material
choice-fifty-move = fifty-move
choice-makruk = Makruk
choice-makpong = Makpong
choice-cambodian = Ouk Chaktrang
choice-asean = ASEAN chess
choice-sittuyin = Sittuyin
choice-overview = overview
choice-pieces = pieces
choice-promotion = promotion
choice-counting = counting
choice-draws = draws
choice-time = time
choice-1d = 1 day per move
choice-3d = 3 days per move
choice-7d = 7 days per move
choice-14d = 14 days per move
choice-3-plus-2 = 3 min + 2 s
choice-5-plus-3 = 5 min + 3 s
choice-10-plus-5 = 10 min + 5 s
choice-15-plus-10 = 15 min + 10 s
choice-30-plus-20 = 30 min + 20 s
choice-explain = explain
choice-start = start
choice-stop = stop
choice-offer = offer
choice-accept = accept
choice-decline = decline
choice-request = request

button-accept = Accept
button-decline = Decline
button-withdraw = Withdraw

discord-not-your-challenge = This is not your challenge: only { $user } can answer it.
discord-not-your-challenge-withdraw = This is not your challenge: only { $user } can withdraw it.
discord-not-your-offer = This is not your game: only the two players can answer this.
discord-challenge-closed-expired = ⌛ This challenge has expired: its buttons no longer work. Send a new one with `/challenge`.
discord-stale-button = This offer belongs to a game that is over; it can no longer be answered.
discord-internal-error = Sorry, something went wrong on our side. Please try again in a moment.
discord-guild-only = This command works only in a server that added Makruk: ratings, leaderboards and settings belong to a server. Outside one you can still play with `/challenge`, `/play` and `/move`.
discord-bad-argument = I could not read that option. Please pick a value from the list.
discord-bad-button = I could not read that button. It may belong to an old message: use the commands instead.
discord-unknown-command = I do not know that command; it may have been removed. Type / to see the commands I have.

discord-game-title = Game #{ $id } · White { $white } · Black { $black } · { $ruleset }
discord-your-move = { $user }, your move.
discord-game-over-ping = { $what }: { $white } vs { $black }.

discord-rules-title = Makruk rules: { $topic } ({ $ruleset })

discord-games-title = Recent games in this channel
discord-games-none = No finished games in this channel yet. Start one with /challenge.
discord-games-line = **#{ $id }** { $white } vs { $black }: { $result }, { $plies ->
    [one] 1 ply
   *[other] { $plies } plies
}, { $ruleset }, { $time }, { $finished }
discord-result-white = White won
discord-result-black = Black won
discord-result-draw = Draw
discord-result-aborted = Aborted
discord-reason-checkmate = checkmate
discord-reason-resignation = resignation
discord-reason-agreement = agreement
discord-reason-aborted = aborted
discord-reason-stalemate = stalemate
discord-reason-counting = the count ran out
discord-reason-counting-side-mated = the counting side gave mate
discord-reason-repetition = threefold repetition
discord-reason-insufficient-material = insufficient material
discord-reason-khun-vs-khun = only the two Khun left
discord-reason-fifty-move = 100 plies without capture or Bia move
discord-reason-timeout = on time
discord-reason-timeout-draw = time ran out, too little material to mate
discord-reason-timeout-aborted = time ran out before a first move

discord-pgn-text = PGN of game #{ $id }. Analyse it on pychess: { $url }
discord-computer-thinking = { $user } is thinking…

## ratings
cmd-challenge-rated = rated
cmd-challenge-rated-description = Count the game for the server's ratings (default: yes)
cmd-leaderboard = leaderboard
cmd-leaderboard-description = The server's best rated players, ten at a time
cmd-leaderboard-speed = speed
cmd-leaderboard-speed-description = Live or correspondence games (default: the one with more players)
cmd-leaderboard-variant = variant
cmd-leaderboard-variant-description = Makruk or another game of its family (default: Makruk)
cmd-stats = stats
cmd-stats-description = A player's rating, record and rating chart on this server
cmd-stats-player = player
cmd-stats-player-description = Whose stats (default: yours)
cmd-stats-speed = speed
cmd-stats-speed-description = Live or correspondence games (default: the one they played more)
cmd-stats-variant = variant
cmd-stats-variant-description = Makruk or another game of its family (default: Makruk)
choice-live = live
choice-correspondence = correspondence
button-previous = ◀
button-next = ▶

## replay and GIF (/replay, /gif, the end of a game, /board's last moves)
cmd-replay = replay
cmd-replay-description = Step through a game ply by ply (only you see it)
cmd-replay-game = game
cmd-replay-game-description = The game number (default: this channel's current or last game)
cmd-gif = gif
cmd-gif-description = A game as an animated GIF
cmd-gif-game = game
cmd-gif-game-description = The game number (default: this channel's current or last game)
discord-replay-title = Game #{ $id }: { $white } vs { $black }
discord-replay-start = Start position ({ $plies } plies played)
discord-replay-ply = { $san } (ply { $ply } of { $plies })
discord-replay-flip = Flip
discord-replay-not-yours = This replay belongs to { $user }. Open your own with /replay.
discord-replay-stale = This replay is out of date (a move was taken back). Open it again with /replay.
# The computer analysis at this ply (an analysed game): parts joined by " · ".
# $eval: pawns, White's view, signed ("+1.35", "−0.40").
discord-replay-eval = Eval { $eval }
# $side: white or black, the side that mates; $moves: its moves to mate.
discord-replay-eval-mate = { $side ->
    [white] White
   *[black] Black
} mates in { $moves }
discord-replay-eval-checkmate = Checkmate
# $best: the engine's best move in the position before the move played.
discord-replay-best = best was { $best }
discord-replay-best-played = the best move
discord-gif-text = Game #{ $id } as an animated GIF ({ $plies ->
    [one] 1 ply
   *[other] { $plies } plies
}).
button-gif = Animated GIF
discord-last-moves = Last moves: { $moves }
discord-end-checkmate = { $winner } wins by checkmate
discord-end-resignation = { $winner } wins by resignation
discord-end-agreement = Draw by agreement
discord-end-aborted = Game aborted
discord-end-stalemate = Draw by stalemate
discord-end-counting = Draw by counting
discord-end-counting-side-mated = Draw: the counting side gave mate
discord-end-repetition = Draw by repetition
discord-end-insufficient-material = Draw by insufficient material
discord-end-khun-vs-khun = Draw: only the two Khun are left
discord-end-fifty-move = Draw by the 50-move rule
discord-end-timeout = { $winner } wins on time
discord-end-timeout-draw = Draw: time ran out, too little material to mate
discord-end-timeout-aborted = Game aborted: time ran out before a first move

## threads
cmd-challenge-thread = thread
cmd-challenge-thread-description = Play the game in a thread of its own (default: the server's setting)
cmd-play-thread = thread
cmd-play-thread-description = Play the game in a thread of its own (default: the server's setting)
discord-thread-name = { $first } vs { $second } — { $game }
discord-thread-computer = the computer
discord-thread-challenge = Once accepted, the game is played in a thread of its own.
discord-thread-opening = Opening a thread for the game…
discord-thread-started = Game #{ $id }: White { $white }, Black { $black }. It is played in { $thread }.
discord-thread-your-game = Your game is in { $thread }.
discord-thread-ended = Game #{ $id } in { $thread } is over. { $what }
discord-thread-missing-permission = I could not open a thread: I lack the Create Public Threads or Send Messages in Threads permission. The game is played here instead; a server admin can grant both to the bot.
discord-thread-failed = I could not open a thread, so the game is played here.

## settings
cmd-settings = settings
cmd-settings-description = Show or change this server's settings (Manage Server)
cmd-settings-thread = thread
cmd-settings-thread-description = New games open a thread of their own unless their own option says otherwise
choice-on = on
choice-off = off
discord-settings-not-allowed = Only members with the Manage Server permission can change the settings.
discord-settings-now = This server's settings:
discord-settings-changed = Saved. This server's settings:
discord-settings-thread-on = New games are played in a thread of their own (thread: on).
discord-settings-thread-off = New games are played in the channel itself (thread: off).

## computer analysis (/analyse, the Analyse button; its texts are analysis-* in service.ftl)
cmd-analyse = analyse
cmd-analyse-description = Computer analysis of a finished game: eval graph, accuracy, mistakes, the count
cmd-analyse-game = game
cmd-analyse-game-description = The game number (default: this channel's last finished game)
button-analyse = Analyse

## Outside a server (a DM or group DM, the app installed to a user's account)
discord-unrated-here = This game is played outside a server, so it is unrated.
discord-answers-only = Here I can only answer commands and buttons: a clock that runs out while nobody types, or anything that comes more than 15 minutes after the last command, is shown with the next command here (`/board` will do).
discord-answers-only-computer = Here I can only answer commands and buttons. The computer replies right after your move; a clock that runs out while nobody types, or anything that comes more than 15 minutes after the last command, is shown with the next command here (`/board` will do).
discord-no-thread-here = Threads exist only in servers, so the game is played here.
discord-challenge-bot-dm = Only you and I are in this DM: play me with `/play`. To play a friend, use `/challenge` in a server, a DM or a group DM with them.

## /tournament (issue 26)
cmd-tournament = tournament
cmd-tournament-description = Swiss, round-robin and arena tournaments in this channel
cmd-tournament-create = create
cmd-tournament-create-description = Create a tournament in this channel (Manage Server, or the tournament role)
cmd-tournament-create-format = format
cmd-tournament-create-format-description = Swiss (FIDE Dutch system), round-robin (everyone meets everyone) or arena (lichess)
cmd-tournament-create-time = time
cmd-tournament-create-time-description = The games' time control (default: 3 days per move; an arena's: 3+2)
cmd-tournament-create-rounds = rounds
cmd-tournament-create-rounds-description = A Swiss tournament's number of rounds (default: 5)
cmd-tournament-create-start = start
cmd-tournament-create-start-description = When it starts: "in 30m", "2h", or "2026-12-05T19:00+07:00" (default: /tournament start)
cmd-tournament-create-rated = rated
cmd-tournament-create-rated-description = Whether its games count for the server's ratings (default: yes)
cmd-tournament-create-rules = rules
cmd-tournament-create-rules-description = The ruleset of its games (default: standard)
cmd-tournament-create-variant = variant
cmd-tournament-create-variant-description = Makruk or another game of its family (default: Makruk)
cmd-tournament-create-name = name
cmd-tournament-create-name-description = The tournament's name
cmd-tournament-join = join
cmd-tournament-join-description = Join this channel's tournament
cmd-tournament-leave = leave
cmd-tournament-leave-description = Leave this channel's tournament (withdraw once it has started)
cmd-tournament-start = start
cmd-tournament-start-description = Start this channel's tournament now (its organiser or Manage Server)
cmd-tournament-standings = standings
cmd-tournament-standings-description = The standings with their tie-breaks
cmd-tournament-pairings = pairings
cmd-tournament-pairings-description = A round's pairings and results
cmd-tournament-pairings-round = round
cmd-tournament-pairings-round-description = The round (default: the current one)
cmd-tournament-cancel = cancel
cmd-tournament-cancel-description = Cancel this channel's tournament (its organiser or Manage Server)
choice-swiss = Swiss
choice-round-robin = round-robin
cmd-tournament-trf = trf
cmd-tournament-trf-description = The tournament's FIDE TRF16 report, for arbiters' tools
cmd-tournament-create-duration = duration
cmd-tournament-create-duration-description = An arena's length in minutes (default: 60)
choice-arena = arena
cmd-tournament-create-repeat = repeat
cmd-tournament-create-repeat-description = Hold it again every day or every week, from its start (needs start)
choice-daily = daily
choice-weekly = weekly
cmd-settings-tournament-role = tournament-role
cmd-settings-tournament-role-description = Members with this role may create tournaments too (@everyone: anyone)
discord-settings-tournaments-managers = Tournaments are created by members with Manage Server (set `tournament-role` to let a role create them too).
discord-settings-tournaments-role = Tournaments are created by members with Manage Server or { $role }.
discord-settings-tournaments-everyone = Anyone may create tournaments (tournament-role: @everyone).
cmd-tournament-berserk = berserk
cmd-tournament-berserk-description = In your arena game's thread, before your first move: half your time, a point more for a win
