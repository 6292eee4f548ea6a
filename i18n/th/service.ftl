# ข้อความของบริการเกม (src/game): ชื่อ เหตุการณ์ สถานะ การจบเกม คำท้า และข้อผิดพลาด
# ผู้ใช้ส่งมาในรูปที่ตัวเชื่อมแชตเขียน (Discord: mention <@id>); $player / $opponent / $winner / $loser อยู่ในรูป
# "ฝ่ายขาว (<@id>)" ที่สร้างจากข้อความ `player`

## ชื่อ

color-white = ฝ่ายขาว
color-black = ฝ่ายดำ
player = { $color } ({ $user })

ruleset-standard = มาตรฐาน
ruleset-traditional = แบบสมาคม
ruleset-material = นับตามค่าหมาก
ruleset-fifty-move = ห้าสิบตา
variant-makruk = หมากรุกไทย
variant-makpong = หมากป้อง
variant-cambodian = อุกจัตรัง (หมากรุกเขมร)
variant-asean = หมากรุกอาเซียน
variant-sittuyin = ซิตตุยิน (หมากรุกพม่า)
game-makruk = หมากรุกไทย กติกา{ $ruleset }

piece-khun = ขุน
piece-met = เม็ด
piece-khon = โคน
piece-ma = ม้า
piece-ruea = เรือ
piece-bia = เบี้ย
piece-bia-ngai = เบี้ยหงาย

piece-khun-moves = ขุนเดินได้หนึ่งช่องทุกทิศทาง
piece-met-moves = เม็ดเดินทแยงได้หนึ่งช่อง
piece-khon-moves = โคนเดินทแยงได้หนึ่งช่อง หรือเดินตรงไปข้างหน้าหนึ่งช่อง
piece-ma-moves = ม้าเดินเหมือนม้าหมากรุกสากล คือเดินตรงสองช่องแล้วเลี้ยวออกข้างหนึ่งช่อง และกระโดดข้ามหมากได้
piece-ruea-moves = เรือเดินตรงตามแนวตั้งหรือแนวนอนได้กี่ช่องก็ได้ แต่ข้ามหมากไม่ได้
piece-bia-moves = เบี้ยเดินตรงไปข้างหน้าหนึ่งช่อง และกินทแยงไปข้างหน้าหนึ่งช่อง
piece-bia-ngai-moves = เบี้ยหงายเดินเหมือนเม็ด คือเดินทแยงได้หนึ่งช่อง

## สิ่งที่เกิดขึ้น

event-started = เริ่มเกม กติกา{ $ruleset } { $white } เป็นฝ่ายขาว { $black } เป็นฝ่ายดำ
event-moved = { $player } เดิน **{ $thai }** ({ $san })
event-resigned = { $player } ยอมแพ้
event-draw-offered = { $player } ขอเสมอ { $opponent } ตอบได้ด้วยปุ่ม “รับ” หรือ “ปฏิเสธ” ด้านล่าง (หรือ `/เสมอ ตัวเลือก:รับ`) ถ้าเดินต่อโดยไม่ตอบ คำขอนี้จะตกไป
event-draw-accepted = { $player } รับเสมอ
event-draw-declined = { $player } ปฏิเสธการขอเสมอ
event-takeback-requested = { $player } ขอคืนตาเดินล่าสุด { $opponent } ตอบได้ด้วยปุ่ม “รับ” หรือ “ปฏิเสธ” ด้านล่าง (หรือ `/คืนตา ตัวเลือก:รับ`)
event-takeback-accepted = { $player } ยอมให้คืนตา ตาเดินล่าสุดจึงถูกยกเลิก
event-takeback-declined = { $player } ไม่ยอมให้คืนตา
event-aborted = { $player } ยกเลิกเกม
event-count-started = { $player } ขอนับศักดิ์กระดาน (นับถึง 64) การขอนับถือเป็นการขอเสมอด้วย { $opponent } รับเสมอได้ด้วย `/เสมอ ตัวเลือก:รับ`
event-count-stopped = { $player } หยุดนับศักดิ์กระดาน
event-timed-out = { $player } หมดเวลา

## สถานะ

status-turn = ตาของ{ $player }
status-clock-live = ⏱ { $control_name } · ขาว { $white } · ดำ { $black } · เวลาของ{ $color }จะหมด <t:{ $flag }:R>
status-clock-correspondence = ⏱ { $control_name } · { $color }ต้องเดินภายใน <t:{ $deadline }:f> (<t:{ $deadline }:R>)
reminder = ⏰ { $user } ถึงตาคุณแล้ว เวลาเหลือไม่ถึง 1/6 โปรดเดินภายใน <t:{ $deadline }:f> (<t:{ $deadline }:R>) ไม่เช่นนั้นจะแพ้เพราะหมดเวลา
status-check = { $color }ถูกรุก!
status-hand = { $color }ยังต้องวางหมาก: { $pieces }
status-hand-pieces = { $piece } { $n }
list-separator = {" "}
status-count-boards = { $color }นับศักดิ์กระดาน ตอนนี้นับ { $current } จาก { $limit }
status-count-pieces = { $color }นับศักดิ์หมาก ตอนนี้นับ { $current } จาก { $limit }
# Before the counting side's first counted move: the number that move will be counted.
status-count-boards-next = { $color }จะเริ่มนับศักดิ์กระดานที่ { $from } (นับถึง { $limit })
status-count-pieces-next = { $color }จะเริ่มนับศักดิ์หมากที่ { $from } (นับถึง { $limit })
status-draw-offer = { $player } ขอเสมอ { $opponent } ตอบได้ด้วยปุ่มที่ข้อความขอเสมอ หรือใช้ `/เสมอ ตัวเลือก:รับ` หรือ `/เสมอ ตัวเลือก:ปฏิเสธ`
status-takeback-request = { $player } ขอคืนตาเดินล่าสุด { $opponent } ตอบได้ด้วยปุ่มที่ข้อความขอคืนตา หรือใช้ `/คืนตา ตัวเลือก:รับ` หรือ `/คืนตา ตัวเลือก:ปฏิเสธ`
warning-count-nearly-out = { $moves ->
    [0] การนับครบกำหนดแล้ว ถ้า{ $color }เดินอีกหนึ่งตาโดยไม่ถูกรุกจน เกมจะเสมอ
   *[other] อีก { $moves } ตา การนับของ{ $color }จะครบกำหนด
}
warning-no-progress = เดินมาแล้ว { $plies } ครั้งโดยไม่มีการกินหรือเดินเบี้ย ถ้าครบ { $limit } ครั้ง เกมจะเสมอ

## จบเกม

end-checkmate = รุกจน! { $winner } ชนะ
end-resignation = { $loser } ยอมแพ้ { $winner } จึงชนะ
end-agreement = ทั้งสองฝ่ายตกลงเสมอกัน
end-aborted = เกมถูกยกเลิก ไม่มีผลแพ้ชนะ
end-stalemate = อับ ฝ่ายที่ถึงตาเดินไม่ถูกรุกแต่ไม่มีตาให้เดิน เกมจึงเสมอ
end-counting = นับครบกำหนดโดยไม่ถูกรุกจน เกมจึงเสมอ
end-counting-side-mated = ฝ่ายที่นับศักดิ์กระดานอยู่เป็นฝ่ายรุกจนเอง ตามกติกาแบบสมาคมถือว่าเสมอ
end-repetition = ตำแหน่งเดิมเกิดขึ้นเป็นครั้งที่สาม เกมจึงเสมอ
end-insufficient-material = ไม่มีฝ่ายใดมีหมากพอจะรุกจนได้ เกมจึงเสมอ
end-khun-vs-khun = เหลือแต่ขุนทั้งสองฝ่าย เกมจึงเสมอ
end-fifty-move = เดินฝ่ายละ 50 ตา (รวม 100 ครั้ง) โดยไม่มีการกินหรือเดินเบี้ย เกมจึงเสมอ
end-timeout = { $loser } หมดเวลา { $winner } จึงชนะ
end-timeout-draw = ฝ่ายที่ถึงตาหมดเวลา แต่อีกฝ่ายมีหมากไม่พอจะรุกจน เกมจึงเสมอ
end-timeout-aborted = ฝ่ายที่ถึงตาหมดเวลาก่อนได้เดินตาแรก เกมจึงถูกยกเลิก ไม่มีผลแพ้ชนะ
result-white-wins = ขาวชนะ
result-black-wins = ดำชนะ
result-draw = เสมอ
end-result = ผล { $words } ({ $result })

## คำท้า

challenge-color-white = { $challenger } เป็นฝ่ายขาว
challenge-color-black = { $challenger } เป็นฝ่ายดำ
challenge-color-random = สุ่มฝ่าย
challenge-open = { $challenger } ท้า { $opponent } เล่น{ $game } · { $colors } · เวลา { $time_name } · { $opponent } ตอบได้ด้วยปุ่ม “รับ” หรือ “ปฏิเสธ” ด้านล่าง (หรือใช้ `/รับคำท้า` หรือ `/ปฏิเสธคำท้า`) คำท้าจะหมดอายุ <t:{ $expires }:R>
challenge-accepted = { $opponent } รับคำท้าของ { $challenger }
challenge-declined = { $opponent } ปฏิเสธคำท้าของ { $challenger }
challenge-withdrawn = { $challenger } ถอนคำท้าที่ส่งถึง { $opponent }
challenge-expired = คำท้าของ { $challenger } ถึง { $opponent } หมดอายุแล้ว

## ข้อผิดพลาด (แสดงเฉพาะผู้ที่สั่ง)

error-no-game-here = ยังไม่มีเกมในช่องนี้ เริ่มเกมด้วย `/ท้าเล่น` หรือ `/เล่นกับคอมพิวเตอร์`
error-game-over = เกมในช่องนี้จบแล้ว เริ่มเกมใหม่ด้วย `/ท้าเล่น` หรือ `/เล่นกับคอมพิวเตอร์`
error-timed-out = เกมในช่องนี้จบแล้วเพราะหมดเวลา เริ่มเกมใหม่ด้วย `/ท้าเล่น`
error-unknown-time-control = “{ $input }” ไม่ใช่รูปแบบเวลาที่มีให้เลือก เลือกหนึ่งใน { $names }
error-not-a-player = คุณไม่ได้เล่นในเกมนี้ เฉพาะผู้เล่นทั้งสองคนเท่านั้นที่ทำได้
error-not-your-turn = ยังไม่ถึงตาคุณ รอคู่แข่งเดินก่อน
error-channel-busy = มีเกมกำลังเล่นอยู่ในช่องนี้ รอให้จบก่อน หรือเปิดเธรดแล้วเล่นในนั้น
error-challenge-pending = มีคำท้าค้างอยู่ในช่องนี้แล้ว โปรดรอคำตอบ หรือถ้าเป็นคำท้าของคุณ กดปุ่ม “ถอนคำท้า” ที่ข้อความคำท้า
error-challenge-self = ท้าตัวเองไม่ได้ ท้าสมาชิกคนอื่นในช่องนี้
error-challenge-bot = ท้าบอทไม่ได้ ให้ท้าสมาชิกที่เป็นคนแทน
error-no-challenge = ไม่มีคำท้าค้างอยู่ในช่องนี้ ส่งคำท้าด้วย `/ท้าเล่น`
error-not-your-challenge = คำท้านี้เป็นของ { $challenger } กับ { $opponent } เฉพาะ { $opponent } ที่รับหรือปฏิเสธได้ และเฉพาะ { $challenger } ที่ถอนได้
error-challenge-expired = คำท้านั้นหมดอายุแล้ว ส่งคำท้าใหม่ด้วย `/ท้าเล่น`
error-input-too-long = ยาวเกินไปสำหรับตาเดิน (ไม่เกิน { $max } ตัวอักษร) เขียนตาเดิน เช่น `ม-ง๒` `จ๔` หรือ `Nd2` `e4` `e3e4`
error-no-draw-offer = คู่แข่งยังไม่ได้ขอเสมอ คุณขอเสมอได้ด้วย `/เสมอ`
error-draw-already-offered = คุณขอเสมอไปแล้ว รอคำตอบจากคู่แข่ง
error-no-takeback-request = คู่แข่งไม่ได้ขอคืนตา
error-takeback-already-requested = คุณขอคืนตาไปแล้ว รอคำตอบจากคู่แข่ง
error-nothing-to-take-back = ขอคืนได้เฉพาะตาเดินล่าสุดของคุณเอง ก่อนที่คู่แข่งจะเดินตอบ
error-too-late-to-abort = ทั้งสองฝ่ายเดินไปแล้วฝ่ายละอย่างน้อยหนึ่งตา จึงยกเลิกเกมไม่ได้ คุณยอมแพ้หรือขอเสมอได้
error-tournament-game = เกมนี้เป็นเกมในรายการแข่งขัน ผลของเกมนับคะแนน จึงยกเลิกเกมไม่ได้ คุณยอมแพ้หรือขอเสมอได้
error-not-traditional = กติกาแบบสมาคมเท่านั้นที่เริ่มนับเมื่อผู้เล่นขอ กติกาอื่นเริ่มนับเอง ส่วนกติกาห้าสิบตาไม่มีการนับ
error-count-bia-left = นับศักดิ์กระดานได้เมื่อไม่มีเบี้ยคว่ำเหลือบนกระดานแล้วเท่านั้น
error-count-bare-khun = มีฝ่ายหนึ่งเหลือแต่ขุน การนับศักดิ์หมากจึงเริ่มเอง
error-not-your-count = เฉพาะผู้ที่เริ่มนับเท่านั้นที่หยุดการนับได้
error-count-already = กำลังนับอยู่แล้ว
error-count-not-counting = ไม่มีการนับที่คุณเริ่มไว้
error-count = เปลี่ยนการนับตอนนี้ไม่ได้
error-game-not-found = ไม่มีเกมหมายเลขนั้นในช่องนี้ ดูรายการเกมที่เล่นที่นี่ได้ด้วย `/เกม`
error-game-not-over = เกมนี้ยังเล่นอยู่ จะวิเคราะห์ได้เมื่อเกมจบแล้ว
error-nothing-to-analyse = เกมนี้จบก่อนเดินตาแรก จึงไม่มีอะไรให้วิเคราะห์
error-computer-level = คอมพิวเตอร์มีให้เลือกระดับ 1 ถึง 8 และ Fairy-Stockfish เลือกหนึ่งในรายการ
error-fairy-stockfish-rules = Fairy-Stockfish เล่นได้เฉพาะกติกามาตรฐาน เลือก `กติกา:มาตรฐาน` หรือเลือกระดับ 1 ถึง 8
error-fairy-stockfish-missing = บอทนี้ไม่มี Fairy-Stockfish ติดตั้งไว้ จึงเลือก Fairy-Stockfish ไม่ได้ เลือกระดับ 1 ถึง 8 แทน
error-stale = เกมเปลี่ยนไประหว่างที่คอมพิวเตอร์กำลังคิด คอมพิวเตอร์จะคิดตาเดินใหม่จากตำแหน่งล่าสุด
error-conflict = มีคำสั่งอื่นเปลี่ยนเกมในเวลาเดียวกัน คำสั่งของคุณจึงไม่มีผล ดูกระดานแล้วลองใหม่
error-internal = ขออภัย ระบบขัดข้อง โปรดลองอีกครั้งในอีกสักครู่

## ตาเดินที่ใช้ไม่ได้

move-empty = เขียนตาเดิน เช่น `ม-ง๒` `จ๔` หรือ `Nd2` `e4` `e3e4`
move-unreadable = อ่าน “{ $input }” เป็นตาเดินไม่ได้ เพราะ{ $reason } เขียนตาเดิน เช่น `ม-ง๒` `จ๔` หรือ `Nd2` `e4` `e3e4`
move-unreadable-too-long = ยาวเกินไป ({ $chars } ตัวอักษร)
move-unreadable-no-target = ไม่ได้ลงท้ายด้วยช่องปลายทาง (เช่น จ๔ หรือ e4)
move-unreadable-unexpected-char = ตัวอักษร “{ $char }” ไม่ใช่ส่วนของตาเดิน
move-unreadable-invisible-char = มีอักขระที่มองไม่เห็น { $char } ซึ่งไม่ใช่ส่วนของตาเดิน (พิมพ์ตาเดินใหม่แทนการวาง)
move-unreadable-several-moves = มีมากกว่าหนึ่งตาเดิน ให้ส่งทีละตาเดิน
move-unreadable-bad-promotion = เบี้ยหงายได้อย่างเดียว ไม่มีให้เลือกเป็นหมากอื่น (เขียน =M)
move-unreadable-not-uci = ไม่ได้อยู่ในรูปช่องต้นทางกับช่องปลายทาง เช่น e3e4
move-not-a-promotion = { $san } ไม่ใช่ตาที่เบี้ยหงาย เบี้ยจะหงายเมื่อเดินถึงแนวนอนที่หกของตนเท่านั้น ให้เขียนตานี้โดยไม่มี =M หรือ m
move-ambiguous = มีหลายตาเดินที่ตรงกัน ได้แก่ { $candidates } เขียนให้ชัดว่าหมายถึงตาไหน
move-illegal-no-piece = ไม่มีหมากอยู่ที่ { $square }
move-illegal-place-first = ต้องวางหมากให้ครบก่อน ในซิตตุยินต้องวางหมากทุกตัว (เช่น `R@a1` หรือเลือกจากรายการของ `/เดิน`) ก่อนจะเดินหมากตัวใดได้ หมากที่ยังไม่ได้วางแสดงไว้เหนือและใต้ภาพกระดาน
move-illegal-bad-drop = วาง{ $piece }ที่ { $square } ไม่ได้ ต้องวางในช่องว่างของสามแนวนอนแรกของฝ่ายตัวเอง
move-illegal-bad-drop-ruea = วาง{ $piece }ที่ { $square } ไม่ได้ เรือต้องวางในช่องว่างของแนวนอนแรกของฝ่ายตัวเอง
move-illegal-nothing-to-place = คุณไม่มี{ $piece }เหลือให้วางแล้ว
move-illegal-makpong-khun = ในหมากป้อง ขุนที่ถูกรุกหนีไม่ได้ ต้องบังการรุก หรือกินตัวที่รุก (ขุนกินได้ถ้าตัวนั้นไม่มีหมากคุ้มกัน)
move-illegal-ouk-jump-used = { $piece }ที่ { $from } กระโดดไป { $to } ไม่ได้ ในอุกจัตรังการกระโดดนี้ทำได้เฉพาะตาแรกที่หมากตัวนั้นเดิน (และขุนจะหมดสิทธิ์เมื่อเรือฝ่ายตรงข้ามเคยมาอยู่แนวตั้งหรือแนวนอนเดียวกับขุน)
move-illegal-ouk-jump-in-check = ขุนที่ถูกรุกกระโดดตาแรกไม่ได้ ({ $from } ไป { $to }) ต้องแก้การรุกก่อน
move-illegal-ouk-jump-capture = การกระโดดตาแรกของ{ $piece } ({ $from } ไป { $to }) กินหมากไม่ได้ ช่องที่กระโดดไปต้องว่าง
move-illegal-asean-promotion = ในหมากรุกอาเซียน เบี้ยที่เดินถึงแนวนอนสุดท้ายต้องหงายเป็นเรือ ม้า โคน หรือเม็ด ให้เขียน { $to }=R { $to }=N { $to }=B หรือ { $to }=Q
move-illegal-asean-not-promotion = เบี้ยจาก { $from } ไป { $to } ไม่หงาย ในหมากรุกอาเซียนเบี้ยจะหงายเมื่อถึงแนวนอนสุดท้ายเท่านั้น ให้เขียนตานี้โดยไม่มีตัวอักษรต่อท้าย
move-illegal-not-your-piece = { $piece }ที่ { $square } ไม่ใช่หมากของคุณ
move-illegal-cannot-move-that-way = { $piece }เดินจาก { $from } ไป { $to } ไม่ได้ เพราะ{ $how }
move-illegal-bia-captures-diagonally = เบี้ยที่ { $from } กินที่ { $to } ไม่ได้ เพราะเบี้ยกินได้เฉพาะทแยงไปข้างหน้าหนึ่งช่อง
move-illegal-bia-diagonal-only-to-capture = เบี้ยที่ { $from } ไป { $to } ไม่ได้ เพราะเบี้ยเดินทแยงได้เฉพาะตอนกิน
move-illegal-path-blocked = { $piece }ที่ { $from } ไป { $to } ไม่ได้ เพราะมี{ $blocker }ที่ { $square } ขวางอยู่
move-illegal-own-piece = มี{ $piece }ของคุณเองอยู่ที่ { $square }
move-illegal-leaves-khun-in-check = เดินตานี้ไม่ได้ เพราะ{ $attacker }ที่ { $square } จะรุกขุนของคุณที่ { $khun }
move-illegal-no-such-piece = คุณไม่มี{ $piece }ที่เดินไป { $to } ได้
move-illegal-no-such-move = ไม่มี{ $piece }ของคุณที่เดินไป { $to } ได้ ({ $piece }ของคุณอยู่ที่ { $squares })

## ratings
rating-after-game = { $player } เรตติ้ง { $rating }
speed-live = เกมสด
speed-correspondence = เกมทางไกล
ladder-variant = { $variant } { $speed }
error-leaderboard-empty = ยังไม่มีใครเล่น{ $variant } { $speed }แบบนับเรตติ้งในเซิร์ฟเวอร์นี้ เกมจะนับเรตติ้งเมื่อแต่ละฝ่ายเดินครบสองตา
error-no-rated-games = { $user } ยังไม่มีเกม{ $variant }ที่นับเรตติ้งในเซิร์ฟเวอร์นี้ (ในประเภทนั้น) เล่นได้ด้วย `/ท้าเล่น`
leaderboard-title = **อันดับ — { $speed }** (ผู้เล่น { $players } คน)
leaderboard-line = { $rank }. { $player } **{ $rating }** · { $games } เกม (ชนะ { $wins } เสมอ { $draws } แพ้ { $losses })
leaderboard-provisional = `?` คือเรตติ้งชั่วคราว (เล่นยังน้อย จึงยังไม่แน่นอน)
leaderboard-page = หน้า { $page } จาก { $pages }
stats-title = **{ $player } — { $speed }**
stats-rating = เรตติ้ง **{ $rating }** ± { $deviation } · อันดับ { $rank } จาก { $players } · สูงสุด { $peak }
stats-provisional = เรตติ้งนี้ยังเป็นแบบชั่วคราว (มีเครื่องหมาย `?`) จนกว่าจะแน่นอนขึ้น
stats-record = ชนะ { $wins } เสมอ { $draws } แพ้ { $losses }
stats-games = { $games } เกม ({ $record }) · เป็นฝ่ายขาว { $white } · เป็นฝ่ายดำ { $black }
stats-streaks = ชนะติดกัน ตอนนี้ { $current } เกม · สูงสุด { $best } เกม
stats-best-win = ชนะคู่ที่เรตติ้งสูงสุด { $opponent } ({ $rating }) ในเกม #{ $game }
stats-recent = ผลล่าสุด { $results }
stats-recent-win = ชนะ { $opponent } { $rating }
stats-recent-draw = เสมอ { $opponent } { $rating }
stats-recent-loss = แพ้ { $opponent } { $rating }

# A time control no longer offered as a choice (the offered ones are the choice-* names).
time-control-days = { $days } วันต่อตา
time-control-live = { $minutes } นาที + { $increment } วินาที

## computer analysis (src/analysis/report.rs: /วิเคราะห์ and the วิเคราะห์ button)
analysis-title = **คอมพิวเตอร์วิเคราะห์เกม #{ $id }** · { $white } กับ { $black }
analysis-side = **{ $side }** { $player } · ความแม่นยำ **{ $accuracy }%** · เสียเปรียบเฉลี่ยตาละ { $acpl } (หน่วย 1/100 เบี้ย) · เดินไม่แม่น { $inaccuracies } · เดินพลาด { $mistakes } · เดินพลาดร้ายแรง { $blunders }
analysis-side-no-moves = **{ $side }** { $player } · ไม่มีตาเดินให้วิเคราะห์
analysis-graph-legend = กราฟแสดงโอกาสชนะของฝ่ายขาวหลังเดินแต่ละครั้ง พื้นสีอ่อนเป็นของฝ่ายขาว สีเข้มเป็นของฝ่ายดำ จุดเหลืองคือเดินไม่แม่น จุดส้มคือเดินพลาด จุดแดงคือเดินพลาดร้ายแรง ส่วนเส้นสีน้ำเงินคือจุดที่เริ่มนับ
analysis-moments-title = จังหวะสำคัญ
analysis-no-moments = ไม่มีตาเดินไหนที่เสียเปรียบมากพอจะยกมาให้ดู
analysis-moment = **{ $played }** · { $judgement } · โอกาสชนะของ{ $side }ลดลง { $drop }%
    ตาที่ดีที่สุดคือ **{ $best }** เพราะ{ $why }
analysis-refuted = หลังตาที่เดินไป { $refutation }
analysis-judgement-inaccuracy = เดินไม่แม่น
analysis-judgement-mistake = เดินพลาด
analysis-judgement-blunder = เดินพลาดร้ายแรง
analysis-judgement-none = ไม่ใช่ตาที่ดีที่สุด
analysis-mate-created = เดินพลาดร้ายแรง เปิดทางให้อีกฝ่ายรุกจนได้แน่นอน
analysis-mate-lost = เดินพลาดร้ายแรง ปล่อยทางรุกจนที่บังคับได้หลุดมือ
analysis-why-mate = รุกจนได้ใน { $moves } ตา
analysis-why-wins = กิน{ $piece }ได้
analysis-why-better = ดีกว่าตาที่เดินไป { $pawns } เบี้ย
analysis-why-avoids-mate = ไม่เปิดทางให้อีกฝ่ายรุกจน
analysis-refutation-mate = อีกฝ่ายรุกจนได้ใน { $moves } ตา
analysis-refutation-wins = อีกฝ่ายกิน{ $piece }ได้
analysis-refutation-better = อีกฝ่ายได้เปรียบ (+{ $pawns })
analysis-notes-title = การนับ
analysis-count-boards-honour = นับศักดิ์กระดาน
analysis-count-pieces-honour = นับศักดิ์หมาก
analysis-after = หลัง { $moves }
analysis-at-start = ตั้งแต่เริ่มเกม
analysis-note-mate-beyond-count = { $at } { $side }มีทางรุกจนบังคับใน { $mate } ตา แต่ฝ่ายหนี{ $count }เหลืออีกเพียง { $left } ตา จึงนับครบและเสมอก่อนจะรุกจนได้
analysis-note-count-not-started = { $at } { $side }ขอนับศักดิ์กระดานได้ (`/นับ ตัวเลือก:เริ่มนับ`) แต่ไม่ได้ขอ
analysis-note-count-ran-out = { $side }{ $count }ครบ { $limit } เกมจึงเสมอ
analysis-engine = วิเคราะห์ด้วย { $engine } ตำแหน่งละ { $nodes } โหนด
analysis-running = กำลังวิเคราะห์เกม #{ $id }… { $percent }%
analysis-next = เกม #{ $id } เป็นคิวถัดไปที่จะวิเคราะห์ ผลจะแสดงที่นี่เมื่อวิเคราะห์เสร็จ
analysis-queued = เกม #{ $id } อยู่ลำดับที่ { $place } ในคิววิเคราะห์ ผลจะแสดงที่นี่เมื่อวิเคราะห์เสร็จ
analysis-later = การวิเคราะห์เกม #{ $id } ใช้เวลานาน ผลจะโพสต์ในช่องนี้เมื่อวิเคราะห์เสร็จ
error-variant-ruleset = ชุดกติกา (แบบสมาคม นับตามค่าหมาก ห้าสิบตา) ใช้กับหมากรุกไทยเท่านั้น หมากรุกแบบอื่นนับและเสมอตามกติกาของตัวเอง ไม่ต้องเลือก `กติกา:` หรือเลือก `หมากรุก:หมากรุกไทย`

## Tournaments (issue 26)
tournament-format-swiss = ระบบสวิส
tournament-format-round-robin = แบบพบกันหมด
tournament-title = 🏆 **{ $name }** — { $format } · { $game } · { $tc } · ไม่นับเรตติ้ง
tournament-title-rated = 🏆 **{ $name }** — { $format } · { $game } · { $tc } · นับเรตติ้ง
tournament-open = เปิดรับผู้เล่นด้วย `/ทัวร์นาเมนต์ เข้าร่วม` · ผู้เล่น { $players } คน · จำนวนรอบ { $rounds }
tournament-starts = เริ่ม { $at }
tournament-starts-by-hand = เริ่มเมื่อผู้จัดสั่ง `/ทัวร์นาเมนต์ เริ่ม`
tournament-round = รอบที่ { $round } จาก { $rounds } · ผู้เล่น { $players } คน
tournament-finished = จบการแข่งขันแล้ว
tournament-cancelled = ยกเลิกการแข่งขันแล้ว
tournament-standings = **ตารางคะแนน** (คะแนน · Buchholz Cut-1 · Buchholz · Sonneborn–Berger)
tournament-standing = { $place }. { $player } — { $points } · { $bc1 } · { $bh } · { $sb }
tournament-standing-withdrawn = { $place }. { $player } — { $points } · { $bc1 } · { $bh } · { $sb } (ถอนตัว)
tournament-pairings = **รอบที่ { $round }**
tournament-pairing = กระดาน { $board }: { $white } – { $black } { $result }
tournament-bye = { $player }: ได้บาย (1 คะแนน)
tournament-no-pairings = ยังไม่มีการจับคู่
tournament-game = **{ $name }** รอบที่ { $round } กระดาน { $board }: { $white } เป็นฝ่ายขาว พบ { $black } เป็นฝ่ายดำ { $tc } เล่นในเธรดของข้อความนี้
tournament-over = 🏆 **{ $name }** จบแล้ว ขอแสดงความยินดี!
tournament-created = สร้างการแข่งขันแล้ว ผู้เล่นเข้าร่วมได้ด้วย `/ทัวร์นาเมนต์ เข้าร่วม`
tournament-joined = คุณเข้าร่วม **{ $name }** แล้ว
tournament-left = คุณออกจาก **{ $name }** แล้ว
tournament-withdrew = คุณถอนตัวจาก **{ $name }** แล้ว บอทจะไม่จับคู่คุณในรอบที่ยังไม่ได้จับคู่ ส่วนเกมที่จับคู่แล้วหรือกำลังเล่นอยู่ยังนับผล สั่ง `/ทัวร์นาเมนต์ เข้าร่วม` เพื่อกลับเข้าร่วม
tournament-started = **{ $name }** เริ่มแล้ว
tournament-cancelled-by = ผู้จัดยกเลิก **{ $name }** แล้ว เกมที่กำลังเล่นอยู่เล่นต่อเป็นเกมธรรมดา
tournament-error-no-tournament = ช่องนี้ไม่มีการแข่งขันที่เปิดรับหรือกำลังแข่งอยู่ สร้างได้ด้วย `/ทัวร์นาเมนต์ สร้าง`
tournament-error-already-running = ช่องนี้มีการแข่งขันอยู่แล้ว ยกเลิกได้ด้วย `/ทัวร์นาเมนต์ ยกเลิก` หรือจัดอีกรายการในช่องอื่น
tournament-error-not-organiser = เฉพาะผู้จัด หรือสมาชิกที่มีสิทธิ์จัดการเซิร์ฟเวอร์ เท่านั้นที่ทำได้
tournament-error-already-joined = คุณอยู่ในการแข่งขันนี้แล้ว
tournament-error-not-joined = คุณไม่ได้อยู่ในการแข่งขันนี้
tournament-error-started = การแข่งขันนี้ไม่รับผู้เล่นเพิ่มแล้ว (แบบพบกันหมดเมื่อเริ่มแล้ว หรือระบบสวิสเมื่อจับคู่รอบสุดท้ายแล้ว)
tournament-error-too-few-players = ผู้เล่นยังไม่พอที่จะเริ่ม เข้าร่วมแล้ว { $have } คน ต้องมีอย่างน้อย { $need } คน
tournament-error-full = การแข่งขันแบบพบกันหมดนี้เต็มแล้ว (16 คน)
tournament-error-bad-rounds = การแข่งขันระบบสวิสมีได้ 1 ถึง 20 รอบ
tournament-error-unpairable = จับคู่รอบถัดไปไม่ได้ ({ $why }) ผู้จัดยกเลิกการแข่งขันได้ด้วย `/ทัวร์นาเมนต์ ยกเลิก`
tournament-error-bad-start = เขียนเวลาเริ่มเป็นระยะเวลา (`in 30m`, `2h`, `1d`) หรือวันและเวลาพร้อมเขตเวลา (`2026-12-05T19:00+07:00`)
tournament-error-not-allowed = เฉพาะสมาชิกที่มีสิทธิ์จัดการเซิร์ฟเวอร์ (หรือมีบทบาทที่ตั้งไว้ใน `/ตั้งค่า บทบาทจัดแข่ง`) เท่านั้นที่สร้างการแข่งขันได้
tournament-trf = รายงาน TRF16 ของ FIDE สำหรับ **{ $name }** (เฉพาะรอบที่แข่งจบแล้ว)
tournament-format-arena = อารีนา
tournament-arena-open = เปิดรับผู้เล่นด้วย `/ทัวร์นาเมนต์ เข้าร่วม` · ผู้เล่น { $players } คน · แข่ง { $minutes } นาที เข้าร่วมหรือออกได้ตลอดเวลา
tournament-arena-running = จบ { $end } · ผู้เล่น { $players } คน · ก่อนจบ บอทจับคู่ผู้เล่นที่ว่างทันที
tournament-arena-standings = **ตารางคะแนน** (คะแนนอารีนา: ชนะ 2 เสมอ 1 ถ้าชนะติดกันสองเกม เกมที่ชนะต่อไปได้คะแนนสองเท่า 🔥)
tournament-arena-standing = { $place }. { $player } — { $points } ({ $games } เกม){ $fire }
tournament-arena-playing = **กำลังเล่นอยู่**
tournament-error-arena-live = อารีนาใช้นาฬิกาแบบเล่นสด (นาทีบวกวินาทีต่อตา) ไม่ใช่แบบวันต่อตา
tournament-error-bad-duration = อารีนาแข่งได้ 10 ถึง 360 นาที
tournament-error-already-started = การแข่งขันนี้เริ่มไปแล้ว
tournament-withdrew-final = คุณถอนตัวจาก **{ $name }** แล้ว เกมที่กำลังเล่นอยู่ยังนับผล ส่วนเกมที่เหลือนับว่าคุณแพ้โดยไม่ได้ลงแข่ง
tournament-no-standings = ยังไม่มีตารางคะแนนก่อนรอบแรก รายชื่อผู้เล่นอยู่ในประกาศการแข่งขัน
tournament-reminder = ⏰ **{ $name }** เริ่ม { $at } { $players }
tournament-error-repeat-needs-start = การแข่งขันที่จัดซ้ำต้องมีเวลาเริ่ม (`เวลาเริ่ม:` เช่น `2026-12-10T19:00+07:00`) เพื่อใช้นับรอบถัดไป
tournament-more-boards = … และอีก { $count } กระดาน ดูได้ด้วย `/ทัวร์นาเมนต์ การจับคู่`
tournament-arena-game = **{ $name }**: { $white } เป็นฝ่ายขาว พบ { $black } เป็นฝ่ายดำ { $tc } เล่นในเธรดของข้อความนี้
error-no-berserk = เบอร์เซิร์กใช้ได้เฉพาะผู้เล่นในเกมของอารีนา เกมละครั้ง ในเธรดของเกมคุณ ก่อนเดินตาแรก
error-too-late-to-berserk = เบอร์เซิร์กไม่ได้แล้ว เพราะคุณเดินในเกมนี้ไปแล้ว
tournament-berserk = ⚡ { $player } ใช้เบอร์เซิร์ก: เวลาเหลือครึ่งเดียว และได้คะแนนเพิ่ม 1 ถ้าชนะในเกมที่ยาวอย่างน้อย 7 ตา
tournament-standings-after = หลังรอบที่ { $round } (รอบหนึ่งนับเมื่อเกมสุดท้ายของรอบจบ)
