# Texts of the game service (src/game): names, events, status lines, game ends, challenges, errors.
# Users arrive as the chat adapter writes them (Discord: mentions <@id>); $player / $opponent /
# $winner / $loser as "White (<@id>)" built with the message `player`.

## Names

color-white = White
color-black = Black
player = { $color } ({ $user })

ruleset-standard = standard
ruleset-traditional = traditional
ruleset-material = material
ruleset-fifty-move = fifty-move
# The Makruk family (Fairy-Stockfish's variants); the `variant` option's choices show the same names.
variant-makruk = Makruk
variant-makpong = Makpong
variant-cambodian = Ouk Chaktrang
variant-asean = ASEAN chess
variant-sittuyin = Sittuyin
# The game of a challenge: a Makruk game names its ruleset, another variant only its name.
game-makruk = Makruk, { $ruleset } rules

piece-khun = Khun
piece-met = Met
piece-khon = Khon
piece-ma = Ma
piece-ruea = Ruea
piece-bia = Bia
piece-bia-ngai = Bia-ngai

piece-khun-moves = The Khun moves one square in any direction.
piece-met-moves = The Met moves one square diagonally.
piece-khon-moves = The Khon moves one square diagonally, or one square straight forward.
piece-ma-moves = The Ma jumps like a chess knight: two squares one way and one square to the side.
piece-ruea-moves = The Ruea moves any number of empty squares along a rank or a file.
piece-bia-moves = The Bia moves one square straight forward and captures one square diagonally forward.
piece-bia-ngai-moves = The Bia-ngai moves like a Met: one square diagonally.

## What a request did

event-started = The game starts ({ $ruleset }): { $white } plays White, { $black } plays Black.
event-moved = { $player } played **{ $san }**.
event-resigned = { $player } resigned.
event-draw-offered = { $player } offers a draw. { $opponent }: accept with `/draw action:accept` or decline with `/draw action:decline`; the offer lapses when you move.
event-draw-accepted = { $player } accepted the draw.
event-draw-declined = { $player } declined the draw offer.
event-takeback-requested = { $player } asks to take back their last move. { $opponent }: agree with `/takeback action:accept` or refuse with `/takeback action:decline`.
event-takeback-accepted = { $player } agreed: the last move was taken back.
event-takeback-declined = { $player } refused to take the move back.
event-aborted = { $player } aborted the game.
event-count-started = { $player } starts counting board's honour (64 moves). This is also a standing draw offer: { $opponent } may accept it with `/draw action:accept`.
event-count-stopped = { $player } stops counting board's honour.
event-timed-out = { $player } ran out of time.

## Status

status-turn = { $player } to move.
status-clock-live = ⏱ { $control }: White { $white } · Black { $black } — { $color }'s flag falls <t:{ $flag }:R>.
status-clock-correspondence = ⏱ { $control } per move: { $color } must move by <t:{ $deadline }:f> (<t:{ $deadline }:R>).
reminder = ⏰ { $user }, your move: less than a sixth of your time is left. Move by <t:{ $deadline }:f> (<t:{ $deadline }:R>) or you lose on time.
status-check = { $color } is in check!
status-hand = { $color } still places: { $pieces }.
status-hand-pieces = { $n } { $piece }
# Between the items of a short list (quoted: Fluent trims spaces).
list-separator = {", "}
status-count-boards = Board's honour: { $color } counts { $current } of { $limit }.
status-count-pieces = Pieces' honour: { $color } counts { $current } of { $limit }.
# Before the counting side's first counted move: the number that move will be counted.
status-count-boards-next = Board's honour: { $color } counts from { $from } to { $limit }.
status-count-pieces-next = Pieces' honour: { $color } counts from { $from } to { $limit }.
status-draw-offer = { $player } offers a draw: { $opponent } can `/draw action:accept` or `/draw action:decline`.
status-takeback-request = { $player } asks to take back their last move: { $opponent } can `/takeback action:accept` or `/takeback action:decline`.
warning-count-nearly-out = { $moves ->
    [0] The count has reached its limit: if { $color } makes one more move without being mated, the game is drawn.
    [one] 1 move left before the count runs out for { $color }.
   *[other] { $moves } moves left before the count runs out for { $color }.
}
warning-no-progress = { $plies } plies without a capture or a Bia move: at { $limit } the game is drawn.

## End of the game

end-checkmate = Checkmate! { $winner } wins.
end-resignation = { $loser } resigned: { $winner } wins.
end-agreement = Drawn by agreement.
end-aborted = The game was aborted: no result.
end-stalemate = Stalemate: the side to move has no legal move. Drawn.
end-counting = The count ran out before the mate: drawn by counting.
end-counting-side-mated = The counting side gave mate while counting board's honour: under the traditional rules that is a draw.
end-repetition = The same position occurred for the third time: drawn by repetition.
end-insufficient-material = Neither side has enough material to mate: drawn.
end-khun-vs-khun = Only the two Khun are left: drawn.
end-fifty-move = 50 moves without a capture or a Bia move: drawn.
end-timeout = { $loser } ran out of time: { $winner } wins.
end-timeout-draw = Time ran out, but the opponent has too little material left to mate: drawn.
end-timeout-aborted = Time ran out before that side made its first move: the game is aborted, no result.
result-white-wins = White wins
result-black-wins = Black wins
result-draw = Draw
end-result = Result: { $words } ({ $result })

## Challenges

challenge-color-white = { $challenger } plays White
challenge-color-black = { $challenger } plays Black
challenge-color-random = colours drawn at random
challenge-open = { $challenger } challenges { $opponent } to a game of { $game } ({ $colors }, time { $time }). { $opponent }: `/accept` or `/decline`. The challenge expires <t:{ $expires }:R>.
challenge-accepted = { $opponent } accepted the challenge of { $challenger }.
challenge-declined = { $opponent } declined the challenge of { $challenger }.
challenge-withdrawn = { $challenger } withdrew the challenge to { $opponent }.
challenge-expired = The challenge of { $challenger } to { $opponent } has expired.

## Errors (shown only to the user who made the request)

error-no-game-here = No game is being played in this channel. Start one with `/challenge`.
error-game-over = The game in this channel is over. Start a new one with `/challenge`.
error-timed-out = The game in this channel is over: time ran out. Start a new one with `/challenge`.
error-unknown-time-control = “{ $input }” is not a time control. Choose one of { $choices } (days per move, or minutes + seconds of increment per move).
error-not-a-player = You are not playing in this game; only the two players can do that.
error-not-your-turn = It is not your turn: wait for your opponent's move.
error-channel-busy = A game is already being played in this channel. Wait until it ends, or start a thread and play there.
error-challenge-pending = A challenge is already open in this channel. Wait for the answer, or withdraw it with the Withdraw button on the challenge if it is yours.
error-challenge-self = You cannot challenge yourself. Challenge another member of the channel.
error-challenge-bot = Bots cannot play. Challenge a person.
error-no-challenge = There is no open challenge in this channel. Send one with `/challenge`.
error-not-your-challenge = This challenge is between { $challenger } and { $opponent }: only { $opponent } can accept or decline it, and only { $challenger } can withdraw it.
error-challenge-expired = That challenge has expired. Send a new one with `/challenge`.
error-input-too-long = That is too long for a move (at most { $max } characters). Write a move such as `Nd2`, `e4` or `e3e4`.
error-no-draw-offer = Your opponent has not offered a draw. You can offer one with `/draw`.
error-draw-already-offered = You have already offered a draw. Wait for your opponent's answer.
error-no-takeback-request = Your opponent has not asked to take a move back.
error-takeback-already-requested = You have already asked to take your move back. Wait for your opponent's answer.
error-nothing-to-take-back = You can only ask to take back your own last move, before your opponent has replied.
error-too-late-to-abort = Both sides have moved, so the game can no longer be aborted. You can resign or offer a draw.
error-tournament-game = This is a tournament game: it cannot be aborted, because its result counts. You can resign or offer a draw.
error-not-traditional = Counting is started on request only in the traditional ruleset. The other rulesets start the count by themselves, and the fifty-move ruleset has no counting.
error-count-bia-left = Board's honour can be counted only when no Bia is left on the board.
error-count-bare-khun = A side has only its Khun left: pieces' honour is counted automatically.
error-not-your-count = Only the player who started the count can stop it.
error-count-already = A count is already running.
error-count-not-counting = No count that you started is running.
error-count = The count cannot be changed now.
error-game-not-found = There is no game with that number in this channel. `/games` lists the games played here.
error-game-not-over = That game is still being played: it can be analysed once it is over.
error-nothing-to-analyse = That game ended before its first move: there is nothing to analyse.
error-computer-level = The computer plays levels 1 to 8, and 9 (Fairy-Stockfish). Choose one of those.
error-fairy-stockfish-rules = Fairy-Stockfish (level 9) plays only the standard rules. Choose `rules:standard`, or a level from 1 to 8.
error-fairy-stockfish-missing = Fairy-Stockfish is not installed on this bot, so level 9 is not available. Choose a level from 1 to 8.
error-stale = The game changed while the computer was thinking; it will answer the new position.
error-conflict = Another action changed the game at the same moment, so yours was not applied. Look at the board and try again.
error-internal = Sorry, something went wrong on our side. Please try again in a moment.

## Bad moves

move-empty = Write a move, for example `Nd2`, `e4`, `e3e4` or `ม-ง๒`.
move-unreadable = I cannot read “{ $input }” as a move: { $reason }. Write a move such as `Nd2`, `e4`, `e3e4` or `ม-ง๒`.
move-unreadable-too-long = it is too long ({ $chars } characters)
move-unreadable-no-target = it does not end with a target square such as e4
move-unreadable-unexpected-char = the character “{ $char }” has no place in a move
move-unreadable-invisible-char = it holds the invisible character { $char }, which has no place in a move (retype the move rather than paste it)
move-unreadable-several-moves = it holds more than one move; send one move at a time
move-unreadable-bad-promotion = a Bia can only become a Met (=M)
move-unreadable-not-uci = it is not of the form e3e4
move-not-a-promotion = { $san } is not a promotion: only a Bia reaching its sixth rank promotes, so write the move without =M or m.
move-ambiguous = More than one move fits: { $candidates }. Write the one you mean.
move-illegal-no-piece = There is no piece on { $square }.
move-illegal-place-first = Place your pieces first: in Sittuyin every piece is placed (for example `R@a1`, or choose from the list of `/move`) before any piece moves. The pieces still to place are drawn above and below the board.
move-illegal-bad-drop = A { $piece } cannot be placed on { $square }: place it on an empty square of your own three first ranks.
move-illegal-bad-drop-ruea = A { $piece } cannot be placed on { $square }: a Ruea is placed on an empty square of your own first rank.
move-illegal-nothing-to-place = You have no { $piece } left to place.
move-illegal-makpong-khun = In Makpong a Khun in check may not move away: block the check, or capture the checking piece (the Khun may capture it if it is not protected).
move-illegal-ouk-jump-used = The { $piece } on { $from } cannot jump to { $to }: in Ouk Chaktrang that jump is only the piece's first move (and the Khun loses it once an enemy Ruea has come to its file or rank).
move-illegal-ouk-jump-in-check = A Khun in check may not make its first-move jump ({ $from } to { $to }): answer the check first.
move-illegal-ouk-jump-capture = The first-move jump of the { $piece } ({ $from } to { $to }) never captures: the square must be empty.
move-illegal-asean-promotion = In ASEAN chess a Bia reaching the last rank becomes a Ruea, a Ma, a Khon or a Met: write { $to }=R, { $to }=N, { $to }=B or { $to }=Q.
move-illegal-asean-not-promotion = The Bia from { $from } to { $to } does not promote: in ASEAN chess a Bia promotes on the last rank only, so write the move without a letter.
move-illegal-not-your-piece = The { $piece } on { $square } is not yours.
move-illegal-cannot-move-that-way = The { $piece } cannot move from { $from } to { $to }. { $how }
move-illegal-bia-captures-diagonally = The Bia on { $from } cannot capture on { $to }: a Bia captures only one square diagonally forward.
move-illegal-bia-diagonal-only-to-capture = The Bia on { $from } cannot go to { $to }: a Bia moves diagonally only to capture.
move-illegal-path-blocked = The { $piece } on { $from } cannot reach { $to }: the { $blocker } on { $square } is in the way.
move-illegal-own-piece = Your own { $piece } stands on { $square }.
move-illegal-leaves-khun-in-check = That would leave your Khun on { $khun } in check from the { $attacker } on { $square }.
move-illegal-no-such-piece = You have no { $piece } that could move to { $to }.
move-illegal-no-such-move = None of your { $piece } pieces can move to { $to } (they stand on { $squares }).

## ratings
rating-after-game = { $player }: { $rating }
speed-live = live
speed-correspondence = correspondence
ladder-variant = { $variant }, { $speed }
error-leaderboard-empty = Nobody has played a rated { $speed } game of { $variant } on this server yet. Rated games count once each side has made two moves; `variant:` and `speed:` show the other leaderboards.
error-no-rated-games = { $user } has no rated games of { $variant } on this server yet (at that speed). Play one with `/challenge`, or choose another `variant:` or `speed:`.
leaderboard-title = **Leaderboard — { $speed }** ({ $players } players)
leaderboard-line = { $rank }. { $player } **{ $rating }** · { $games ->
    [one] { $games } game
   *[other] { $games } games
} (+{ $wins } ={ $draws } −{ $losses })
leaderboard-provisional = `?`: provisional rating (fewer games played, less certain).
leaderboard-page = Page { $page } of { $pages }
stats-title = **{ $player } — { $speed }**
stats-rating = Rating **{ $rating }** ± { $deviation } · place { $rank } of { $players } · best { $peak }
stats-provisional = The rating is provisional (marked `?`) until it is more certain.
stats-record = +{ $wins } ={ $draws } −{ $losses }
stats-games = { $games ->
    [one] { $games } game
   *[other] { $games } games
}: { $record } · as White { $white } · as Black { $black }
stats-streaks = Winning streak: { $current } now, { $best } at best
stats-best-win = Best win: against { $opponent } ({ $rating }), game #{ $game }
stats-recent = Recent: { $results }
stats-recent-win = won vs { $opponent } { $rating }
stats-recent-draw = drew vs { $opponent } { $rating }
stats-recent-loss = lost vs { $opponent } { $rating }

# A time control no longer offered as a choice (the offered ones are the choice-* names).
time-control-days = { $days ->
    [one] 1 day per move
   *[other] { $days } days per move
}
time-control-live = { $minutes } min + { $increment } s

## computer analysis (src/analysis/report.rs: /analyse and the Analyse button)
analysis-title = **Computer analysis of game #{ $id }** · { $white } vs { $black }
analysis-side = **{ $side }** { $player } · accuracy **{ $accuracy }%** · average loss { $acpl } centipawns (hundredths of a Bia) a move · { $inaccuracies ->
    [one] 1 inaccuracy
   *[other] { $inaccuracies } inaccuracies
} · { $mistakes ->
    [one] 1 mistake
   *[other] { $mistakes } mistakes
} · { $blunders ->
    [one] 1 blunder
   *[other] { $blunders } blunders
}
analysis-side-no-moves = **{ $side }** { $player } · no move to judge
analysis-graph-legend = White's winning chances after each ply: the light area is White's, the dark one Black's. Dots mark inaccuracies (yellow), mistakes (orange) and blunders (red); a blue line marks the start of a count.
analysis-moments-title = Key moments
analysis-no-moments = No move lost enough to be worth showing.
analysis-moment = **{ $played }** · { $judgement } · { $side }'s winning chances −{ $drop }%
    Best was **{ $best }**: { $why }.
analysis-refuted = After the move played, { $refutation }.
analysis-judgement-inaccuracy = inaccuracy
analysis-judgement-mistake = mistake
analysis-judgement-blunder = blunder
analysis-judgement-none = not the best move
analysis-mate-created = blunder: it allowed a forced mate
analysis-mate-lost = blunder: it let a forced mate go
analysis-why-mate = it mates in { $moves }
analysis-why-wins = it wins the { $piece }
analysis-why-better = it was { $pawns } pawns better than the move played
analysis-why-avoids-mate = it avoids the mate
analysis-refutation-mate = the opponent mates in { $moves }
analysis-refutation-wins = the opponent wins the { $piece }
analysis-refutation-better = the opponent is better by { $pawns }
analysis-notes-title = The count
analysis-count-boards-honour = board's honour
analysis-count-pieces-honour = pieces' honour
analysis-after = After { $moves }
analysis-at-start = From the start
analysis-note-mate-beyond-count = { $at }, { $side } had a forced mate in { $mate }, but the count ({ $count }) allowed only { $left } more moves: the count would have drawn first.
analysis-note-count-not-started = { $at }, { $side } could have started counting board's honour (`/count action:start`) and did not.
analysis-note-count-ran-out = { $side }'s count ({ $count }) reached { $limit }: the game was drawn.
analysis-engine = Analysed by { $engine } at { $nodes } nodes a position.
analysis-running = Analysing game #{ $id }… { $percent }%
analysis-next = Game #{ $id } is next in line for analysis. The result will appear here when it is ready.
analysis-queued = Game #{ $id } is #{ $place } in line for analysis. The result will appear here when it is ready.
analysis-later = The analysis of game #{ $id } is taking a while. Its result will be posted in this channel when it is ready.
error-variant-ruleset = The rulesets (traditional, material, fifty-move) are Makruk's; the other variants count and draw by their own rules. Leave `rules:` out, or choose `variant:makruk`.

## Tournaments (issue 26)
tournament-format-swiss = Swiss
tournament-format-round-robin = Round-robin
tournament-title = 🏆 **{ $name }** — { $format } · { $game } · { $tc } · casual
tournament-title-rated = 🏆 **{ $name }** — { $format } · { $game } · { $tc } · rated
tournament-open = Open for players: `/tournament join`. Players: { $players } · rounds: { $rounds }
tournament-starts = Starts { $at }.
tournament-starts-by-hand = Starts when the organiser runs `/tournament start`.
tournament-round = Round { $round } of { $rounds } · { $players } players
tournament-finished = Finished.
tournament-cancelled = Cancelled.
tournament-standings = **Standings** (points · Buchholz Cut-1 · Buchholz · Sonneborn–Berger)
tournament-standing = { $place }. { $player } — { $points } · { $bc1 } · { $bh } · { $sb }
tournament-standing-withdrawn = { $place }. { $player } — { $points } · { $bc1 } · { $bh } · { $sb } (withdrawn)
tournament-pairings = **Round { $round }**
tournament-pairing = Board { $board }: { $white } – { $black } { $result }
tournament-bye = { $player }: bye (1 point)
tournament-no-pairings = No pairings yet.
tournament-game = **{ $name }**, round { $round }, board { $board }: { $white } (White) against { $black } (Black), { $tc }. Play in this message's thread.
tournament-over = 🏆 **{ $name }** is over. Congratulations!
tournament-created = Tournament created. Players join with `/tournament join`.
tournament-joined = You joined **{ $name }**.
tournament-left = You left **{ $name }**.
tournament-withdrew = You withdrew from **{ $name }**: you will not be paired in the rounds still to be paired; a game already paired or being played still counts. `/tournament join` brings you back.
tournament-started = **{ $name }** has started.
tournament-cancelled-by = **{ $name }** was cancelled. Games being played go on as ordinary games.
tournament-error-no-tournament = There is no tournament open or running in this channel. Create one with `/tournament create`.
tournament-error-already-running = This channel already has a tournament. Cancel it with `/tournament cancel`, or run another one in another channel.
tournament-error-not-organiser = Only the tournament's organiser, or a member with the Manage Server permission, can do that.
tournament-error-already-joined = You are already in this tournament.
tournament-error-not-joined = You are not in this tournament.
tournament-error-started = This tournament takes no new players any more (a round-robin once started, a Swiss tournament once its last round is paired).
tournament-error-too-few-players = Not enough players to start: { $have } joined, at least { $need } are needed.
tournament-error-full = This round-robin is full (16 players).
tournament-error-bad-rounds = A Swiss tournament has between 1 and 20 rounds.
tournament-error-unpairable = The next round cannot be paired ({ $why }). The organiser can cancel the tournament with `/tournament cancel`.
tournament-error-bad-start = Write the start as a delay (`in 30m`, `2h`, `1d`) or a date and time with its offset (`2026-12-05T19:00+07:00`).
tournament-error-not-allowed = Only members with the Manage Server permission (or the role `/settings tournament-role` names) can create a tournament.
tournament-trf = The FIDE TRF16 report of **{ $name }** (its complete rounds).
tournament-format-arena = Arena
tournament-arena-open = Open for players: `/tournament join`. Players: { $players } · lasts { $minutes } minutes; join or leave at any time.
tournament-arena-running = Ends { $end } · { $players } players · until then, free players are paired at once
tournament-arena-standings = **Standings** (arena points: win 2, draw 1; after two wins in a row, wins count double 🔥)
tournament-arena-standing = { $place }. { $player } — { $points } ({ $games } games){ $fire }
tournament-arena-playing = **Playing now**
tournament-error-arena-live = An arena is played with a live clock (minutes + seconds per move), not days per move.
tournament-error-bad-duration = An arena lasts between 10 and 360 minutes.
tournament-error-already-started = This tournament has already started.
tournament-withdrew-final = You withdrew from **{ $name }**: your game being played still counts; your games still to come are lost by forfeit.
tournament-no-standings = No standings before the first round: players are listed in the announcement.
tournament-reminder = ⏰ **{ $name }** starts { $at }. { $players }
tournament-error-repeat-needs-start = A recurring tournament needs a start time to repeat from (`start:`, e.g. `2026-12-10T19:00+07:00`).
tournament-more-boards = … and { $count } more: `/tournament pairings`
tournament-arena-game = **{ $name }**: { $white } (White) against { $black } (Black), { $tc }. Play in this message's thread.
error-no-berserk = Berserk is for a player of an arena's game, once per game: in your game's thread, before your first move.
error-too-late-to-berserk = Too late to berserk: you have already moved in this game.
tournament-berserk = ⚡ { $player } berserks: half the time, and a point more for a win of at least 7 moves.
tournament-standings-after = After round { $round } (a round counts once its last game ends).
