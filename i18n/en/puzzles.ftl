# Puzzles (issue 24): /puzzle, /solve, the puzzle buttons, the daily puzzle, /settings' daily
# puzzle options, the puzzle line of /stats.

## commands
cmd-puzzle = puzzle
cmd-puzzle-description = A Makruk puzzle near your puzzle rating, shown only to you
cmd-puzzle-theme = theme
cmd-puzzle-theme-description = The kind of puzzle (default: any)
cmd-solve = solve
cmd-solve-description = Answer your puzzle, or this channel's daily puzzle (only you see it)
cmd-solve-move = move
cmd-solve-move-description = Your move, e.g. Rd8, Ma6 or e3e4 (pick from the list)
choice-mate = mate
choice-mate-in-1 = mate in 1
choice-mate-in-2 = mate in 2
choice-mate-in-3 = mate in 3
choice-win-material = win material
choice-defend = defend
cmd-settings-daily-puzzle = daily-puzzle
cmd-settings-daily-puzzle-description = Post a puzzle every day, in this channel unless puzzle-channel names one
cmd-settings-puzzle-channel = puzzle-channel
cmd-settings-puzzle-channel-description = The channel of the daily puzzle
cmd-settings-puzzle-time = puzzle-time
cmd-settings-puzzle-time-description = The time of day of the daily puzzle, HH:MM (default 08:00)
cmd-settings-timezone = timezone
cmd-settings-timezone-description = The server's time zone as an offset from UTC, e.g. UTC+5:30 (default UTC+7)

## the puzzle
puzzle-white = White
puzzle-black = Black
puzzle-title = Puzzle { $id } · rating { $rating }
puzzle-title-plain = Puzzle { $id }
puzzle-to-move = **{ $side } to move.** Find the best move ({ $left ->
    [one] one move to find
   *[other] { $left } moves to find
}).
puzzle-right = ✅ **{ $played }** is right. The opponent answered **{ $reply }**.
puzzle-themes = Theme: { $themes }
puzzle-count = The count runs: { $side } counts { $current } of { $limit }. Mate before the count ends, or it is a draw.
puzzle-how = Answer with `/solve move:` (pick from the list). Only you see this puzzle.
puzzle-unrated = You have tried this puzzle before: it does not change your rating.
puzzle-repeat = You have tried every puzzle of this kind: here is one again, unrated.
puzzle-your-rating = Your puzzle rating: { $rating }
puzzle-your-rating-provisional = Your puzzle rating: { $rating }? (provisional until it is more certain)
puzzle-rating-now = The puzzle's rating: { $rating }
puzzle-left = Your last puzzle here was left unanswered, so it counts as failed: puzzle rating { $before } → { $after }.
puzzle-button-hint = Hint
puzzle-button-solution = Solution
puzzle-button-next = Next puzzle
puzzle-button-up = 👍
puzzle-button-down = 👎
puzzle-hint = Hint: move your { $piece } on { $square }. (A hint makes this puzzle unrated.)
puzzle-solved = 🎉 **{ $played }** — solved!
puzzle-wrong = ❌ **{ $played }** is not the answer.
puzzle-revealed = Here is the solution.
puzzle-solution = Solution: { $line }
puzzle-rating-change = Puzzle rating: { $before } → **{ $after }** ({ $change })
puzzle-rating-unchanged = Your puzzle rating did not change: you had tried this puzzle before.
puzzle-rating-unchanged-hint = Your puzzle rating did not change: you asked for a hint.
puzzle-streak = Solved in a row: { $streak }
puzzle-daily-streak = Daily puzzles solved in a row on this server: { $streak }
puzzle-vote = Did you like this puzzle? Vote with 👍 or 👎.
puzzle-voted = Thank you: your vote { $vote } is counted (a new vote replaces it).

## themes
puzzle-theme-mate = mate
puzzle-theme-mateIn1 = mate in 1
puzzle-theme-mateIn2 = mate in 2
puzzle-theme-mateIn3 = mate in 3
puzzle-theme-mateIn4 = mate in 4
puzzle-theme-mateIn5 = mate in 5
puzzle-theme-winMaterial = win material
puzzle-theme-counting = counting: mate before the count ends
puzzle-theme-defend = defend

## the daily puzzle
puzzle-daily-title = Daily puzzle · { $day }
puzzle-daily-to-move = **{ $side } to move:** find the best move.
puzzle-daily-how = Answer with `/solve move:` in this channel: your answers are seen only by you, so the solution stays hidden. One try each.
puzzle-daily-rating = Puzzle rating { $rating }
puzzle-daily-counts = { $solvers ->
    [0] Nobody has solved it yet
    [one] Solved by 1
   *[other] Solved by { $solvers }
} · { $tries ->
    [one] 1 try
   *[other] { $tries } tries
}
puzzle-daily-first = first: { $user }

## /stats
puzzle-stats-title = **{ $player } — puzzles**
puzzle-stats = Puzzle rating **{ $rating }** · solved { $solved }, failed { $failed } · { $streak } in a row now, { $best } at best

## /settings
discord-settings-bad-time = The time of day is written HH:MM, from 00:00 to 23:59, e.g. `08:00`.
discord-settings-bad-timezone = The time zone is an offset from UTC, e.g. `UTC+7`, `+05:30` or `UTC-3`.
discord-settings-daily-on = A daily puzzle is posted in { $channel } at { $at } ({ $zone }).
discord-settings-daily-off = No daily puzzle (daily-puzzle: off). Turn it on with `/settings daily-puzzle:on` in the channel you want.

## errors
error-no-puzzle = You have no puzzle here. Ask for one with `/puzzle`.
error-not-your-puzzle = This is someone else's puzzle. Ask for your own with `/puzzle`.
error-puzzle-over = This puzzle is over. Ask for another with `/puzzle`.
error-puzzle-not-over = Vote once the puzzle is over.
error-daily-done = You have already tried today's daily puzzle. A new one comes tomorrow; until then, `/puzzle` gives you more.
error-daily-in-progress = You are solving today's daily puzzle here: answer it with `/solve`, or press Solution, before asking for another.
error-no-puzzles = There is no puzzle of that kind. Try `/puzzle` without a theme.
error-unknown-puzzle-theme = That is not a puzzle theme: choose one from the list.

## a puzzle from the server's own game
puzzle-from-game = From { $user }'s game of { $date }: a win was missed here.
puzzle-stats-daily = Daily puzzles on this server: { $streak } days in a row now, { $best } at best
