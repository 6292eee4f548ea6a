# The rules explanation (/rules), per topic and ruleset (RULES.md). $ruleset is the localised name.

rules-overview = **Makruk (Thai chess): { $ruleset } rules**
    Two players, White and Black, on an 8×8 board; White moves first. Each side has a Khun (king), a Met, two Khon, two Ma, two Ruea and eight Bia. Win by checkmating the opponent's Khun; a stalemate is a draw.
    { $summary }
    More: the pieces, promotion, counting, draws.

rules-summary-standard = Counting starts by itself, as on pychess and Fairy-Stockfish: board's honour (64 moves) once no Bia is left, pieces' honour when a side has only its Khun.
rules-summary-traditional = Board's honour is counted only when a player asks for it (`/count action:start`), as Wikipedia describes Makruk and as pychess plays games between people; pieces' honour starts by itself.
rules-summary-material = The side with less material counts board's honour once no Bia is left; a lone Khun counts pieces' honour; 100 plies without capture or Bia move draw while Bia remain.
rules-summary-fifty-move = There is no counting: 50 moves without a capture or a Bia move draw the game.

rules-pieces = **The pieces**
    • **Khun** (K, king): one square in any direction. It may never move into check.
    • **Met** (M): one square diagonally.
    • **Khon** (S): one square diagonally, or one square straight forward.
    • **Ma** (N): jumps like a chess knight.
    • **Ruea** (R): any number of empty squares along a rank or a file.
    • **Bia** (pawn, no letter): one square straight forward; captures one square diagonally forward. No double step, no en passant.
    • **Bia-ngai**: a promoted Bia; it moves like a Met.
    There is no castling. Moves can be written in SAN (`Nd2`, `exf4`, `Rhe1`), UCI (`e3e4`), PlayOK style (`Bd2` for a Khon, `Qe2` for a Met) or Thai notation (`ม-ง๒`). Squares may be written in capitals (`E4`, `E3E4`); a capital `B` before the target square is the Khon. Write one move at a time; `=M` (or `m`) only on a move that promotes.

rules-promotion = **Promotion**
    A Bia that reaches its sixth rank (rank 6 for White, rank 3 for Black) becomes a Bia-ngai at once. Promotion is compulsory and there is no choice: the Bia-ngai moves like a Met, one square diagonally. In SAN it is written `=M`, e.g. `f6=M`.

rules-counting-standard = **Counting ({ $ruleset })**
    A game in which one side cannot force mate must not go on forever, so the defending side counts its moves.
    • **Board's honour**: once no Bia is left on the board, a count of 64 moves starts by itself. If the count passes 64 before mate, the game is drawn.
    • **Pieces' honour**: when a side has only its Khun left, it counts from the number of pieces on the board plus one, up to a limit set by the opponent's pieces: two Ruea 8, one Ruea 16, two Khon 22, two Ma 32, one Khon 44, otherwise 64. The limit does not change when more pieces are captured.
    Mate always comes first: a mate on the last counted move still wins. `/count` explains the current count.
rules-counting-traditional = **Counting ({ $ruleset })**
    • **Board's honour** is not automatic: once no Bia is left and both sides still have more than their Khun, the player to move may start it with `/count action:start` and stop it with `/count action:stop`. It counts that player's moves to 64; if the count passes 64, the game is drawn. A started count is also a standing draw offer. If the counting player gives mate while counting, the game is a draw.
    • **Pieces' honour** starts by itself when a side has only its Khun: it counts from the number of pieces on the board plus one, up to a limit set by the opponent's pieces: two Ruea 8, one Ruea 16, two Khon 22, two Ma 32, one Khon 44, otherwise 64.
    `/count` explains the current count.
rules-counting-material = **Counting ({ $ruleset })**
    • **Board's honour**: once no Bia is left, the side with less material counts (Ruea 5, Ma 3, Khon 2.5, Met and Bia-ngai 2; equal material: the side to move), 1, 2, 3… on each of its own moves; reaching 65 without being mated draws. If a capture leaves the counting side with more material, the count passes to the other side and starts again.
    • **Pieces' honour**: a side left with only its Khun counts from the number of pieces on the board plus one, up to a limit set by the opponent's pieces (two Ruea 8, one Ruea 16, two Khon 22, one Khon 44, two Ma 32, otherwise 64). The limit does not change when pieces are captured later.
    If the counting side itself gives mate, it wins.
rules-counting-fifty-move = **Counting ({ $ruleset })**
    These rules have no counting. Instead, 50 moves (100 plies) without a capture or a Bia move draw the game.

rules-draws-standard = **Draws ({ $ruleset })**
    A game is drawn by stalemate, when the count runs out, when the same position occurs for the third time, when neither side has enough material to mate (Khon and Ruea can mate; a Met or Bia-ngai only together with one on the other square colour; a Ma or a Bia needs a second piece), or by agreement (`/draw`).
rules-draws-traditional = **Draws ({ $ruleset })**
    A game is drawn by stalemate, when a count runs out, when the counting player mates while counting board's honour, when the same position occurs for the third time, when neither side has enough material to mate, or by agreement (`/draw`; a started board's-honour count is itself a draw offer).
rules-draws-material = **Draws ({ $ruleset })**
    A game is drawn by stalemate, when a count reaches 65, when the same position occurs for the third time, when only the two Khun are left, after 100 plies without a capture or a Bia move while Bia remain (the status shows the counter from ply 80), or by agreement (`/draw`).
rules-draws-fifty-move = **Draws ({ $ruleset })**
    A game is drawn by stalemate, after 50 moves (100 plies) without a capture or a Bia move, when the same position occurs for the third time, when neither side has enough material to mate, or by agreement (`/draw`).

rules-time = **Time**
    Every game has a clock, chosen with `/challenge time:` (default `3d`). Correspondence (`1d`, `3d`, `7d`, `14d`): each move must be played within that many days of the opponent's move; the time does not carry over. Live (`3+2`, `5+3`, `10+5`, `15+10`, `30+20`): each side has that many minutes for the whole game and gains the seconds after each of its moves (Fischer increment).
    When the side to move's time runs out, the bot ends the game at once: that side loses, unless the opponent has too little material left to ever mate (for example a bare Khun, or a lone Met) — then it is a draw. A side whose time runs out before its first move has its game aborted, with no result.
    In correspondence games the player to move gets one reminder per move when less than a sixth of the time is left (12 hours of 3 days); live games have none.
    An accepted takeback gives the time back as on lichess: both clocks return to what they were when the taken-back move's turn began, and that turn starts again. Draw offers, takeback requests and counting do not stop the clock.
    Time while the bot is down is charged to nobody: when it comes back, every running clock gets the downtime back, and no game is lost on time because of it.

# /rules variant: one explanation per variant of the Makruk family (Fairy-Stockfish's rules; issue 25),
# shown whatever the topic. Makruk's own rules are the topics above.
rules-variant-makpong = **Makpong**
    Makruk with one change (the rule of the tie-break games of Thai knockout events): **a Khun in check may not move away**. It may only capture the checking piece, if that piece is not protected. Otherwise block the check or capture the checker with another piece. So a double check is mate.
    Everything else is Makruk's: the start, the pieces, promotion on the sixth rank, counting and draws (the standard ruleset).
    Move with `/move` as in Makruk.
rules-variant-cambodian = **Ouk Chaktrang (Cambodian chess)**
    Makruk's board, start and pieces (Sdach = Khun, Neang = Met, Koul = Khon, Ses = Ma, Tuk = Ruea, Trey = Bia), with two first moves:
    • **The Khun's first move** may be a Ma's jump one rank forward and two files aside (`Kd1-b2` or `f2`), not capturing and not out of check. The right is lost once the Khun has moved, or once an enemy Ruea has come to its file or rank.
    • **The Met's first move** may be two squares straight forward, not capturing. The right is lost once the Met has moved.
    The FEN shows who still has these rights in its castling field (`DEde`).
    • **Counting.** A side left with three pieces or fewer (Khun included) against more than a bare Khun counts 63 moves; a bare Khun, with no Bia on the board, counts by the opponent's pieces: two Ruea 7, one Ruea 15, two Khon 21, two Ma 31, one Khon 43, otherwise 63. If the stronger side has not mated when the count reaches its number, the game is drawn. Stalemate and threefold repetition are draws.
rules-variant-asean = **ASEAN chess**
    The international rules of the ASEAN Chess Confederation: Makruk's pieces in a chess-like start. The back rank is Ruea, Ma, Khon, Met, Khun, Khon, Ma, Ruea (`RNBQKBNR`: the Khon is written `B`, the Met `Q`), the Bia on the third rank as in Makruk.
    • The pieces move as in Makruk. A Bia is promoted on the **last rank** (the eighth for White), to a Ruea, Ma, Khon or Met, the player's choice (`e8=R`, in UCI `e7e8r`).
    • **Draws:** stalemate, threefold repetition, the 50-move rule (100 plies without a capture or a Bia move), and too little material to mate.
    • **Counting**, only for a bare Khun when no Bia is left on the board: the stronger side must mate within 16 moves with a Ruea, 44 with a Khon (and no Ruea), 64 with a Ma (and neither), else it is a draw.
rules-variant-sittuyin = **Sittuyin (Burmese chess)**
    The Bia stand from the start, staggered (White's on a3–d3 and e4–h4, Black's mirrored); the other pieces are **placed first**, one a turn, White first: each side places its Khun, Met, two Ruea, two Khon and two Ma on empty squares of its own half (its first three ranks), a Ruea only on its first rank. The pieces still to place are drawn above and below the board. A placement is written `R@a1` (UCI) or chosen from the list of `/move`.
    • Then the pieces move as in Makruk (the Met is written `F`). A Bia is not promoted on reaching a rank: while a side has no Met, a Bia on one of the two long diagonals in the opponent's half (or the side's only Bia, anywhere) may become a Met instead of moving, in place (`e5=F`, UCI `e5e5f`) or with one diagonal step to an empty square; that move may not capture and may not attack an enemy piece or give check.
    • **Draws:** stalemate, threefold repetition, the 50-move rule, and a Khun with Bia that can only be promoted. **Counting** as in ASEAN chess: a bare Khun, with no Bia on the board, counts 16 moves against a Ruea, 44 against a Khon, 64 against a Ma.
