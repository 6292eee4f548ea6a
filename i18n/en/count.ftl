# The current count explained in sentences (/count). $color counts; $other is the opponent.

count-none = No count is running now.
count-none-bia = No count is running: unpromoted Bia are still on the board. Counting begins when no Bia is left.
count-none-bia-traditional = No count is running: unpromoted Bia are still on the board. Under traditional rules board's honour never starts by itself: once no Bia is left, the player to move may start it with `/count action:start`.
count-none-traditional = No count is running. With no Bia left and pieces on both sides, the player to move may start counting board's honour with `/count action:start`.
count-none-fifty-move = These rules have no counting: 50 moves without a capture or a Bia move draw the game.

count-who-pieces = { $color } has only its Khun left, so { $color } counts pieces' honour: if its Khun survives the count, the game is drawn.
count-who-boards = { $color } counts board's honour: no Bia is left, and the count started by itself for the side that was to move then.
count-who-boards-traditional = { $color } asked to count board's honour. If { $color } itself gives mate while counting, the game is a draw.
count-who-boards-material = { $color } counts board's honour because it has less material (with equal material, the side to move counts).

count-from-pieces = The count started from { $from }: there were { $pieces } pieces on the board (both Khun included) when it began, and pieces' honour counts from that number plus one.
count-from-pieces-next = { $color }'s next move will be counted { $from }: there are { $pieces } pieces on the board (both Khun included), and pieces' honour counts from that number plus one.
count-from-boards = Board's honour counts from 1.

count-limit-boards = The count runs to { $limit }: board's honour always runs to 64.
count-limit-two-ruea = The count runs to { $limit } because { $side } had two Ruea when the count began.
count-limit-one-ruea = The count runs to { $limit } because { $side } had one Ruea when the count began.
count-limit-two-khon = The count runs to { $limit } because { $side } had two Khon and no Ruea when the count began.
count-limit-two-ma = The count runs to { $limit } because { $side } had two Ma, no Ruea and fewer than two Khon when the count began.
count-limit-one-khon = The count runs to { $limit } because { $side } had one Khon and no Ruea when the count began.
count-limit-other = The count runs to { $limit } because { $side } had no Ruea or Khon and at most one Ma (or only a Met or Bia-ngai) when the count began.

count-now = The count stands at { $current } of { $limit }, so { $color } has { $remaining ->
    [one] 1 move
   *[other] { $remaining } moves
} left: if the count passes { $limit } before { $other } gives mate, the game is drawn.
count-ended = When the game ended the count stood at { $current } of { $limit }.
count-game-over = The game in this channel is over; this was the count when it ended.
# Ouk Chaktrang, ASEAN and Sittuyin count by their own tables (Fairy-Stockfish's; /rules variant: explains them).
count-none-cambodian = No count is running now. In { $variant }, a side left with three pieces or fewer counts 63 moves, and a Khun left alone with no Bia on the board counts by the opponent's pieces (two Ruea 7, one Ruea 15, two Khon 21, two Ma 31, one Khon 43, otherwise 63).
count-none-asean = No count is running now. In { $variant }, a count starts only when a side has nothing but its Khun and no Bia is left on the board: 16 moves against a Ruea, 44 against a Khon, 64 against a Ma.
count-limit-variant = The count runs to { $limit } under the rules of { $variant }.
