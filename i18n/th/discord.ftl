# ข้อความของส่วนเชื่อมต่อ Discord (ภาษาไทย)
# ชื่อคำสั่งและตัวเลือก: ตัวอักษรไทย/ละติน ตัวเลข - _ ไม่เกิน 32 ตัวอักษร; คำอธิบายไม่เกิน 100 ตัวอักษร

cmd-challenge = ท้าเล่น
cmd-challenge-description = ท้าใครสักคนเล่นหมากรุกไทย (หรือแบบอื่นในตระกูลเดียวกัน) ในช่องนี้
cmd-challenge-opponent = คู่แข่ง
cmd-challenge-opponent-description = คนที่คุณอยากเล่นด้วย
cmd-challenge-color = ฝ่าย
cmd-challenge-color-description = ฝ่ายที่คุณอยากเล่น (ค่าเริ่มต้น: สุ่ม)
cmd-challenge-variant = หมากรุก
cmd-challenge-variant-description = หมากรุกไทยหรือหมากรุกแบบอื่นในตระกูลเดียวกัน (ค่าเริ่มต้น: หมากรุกไทย)
cmd-challenge-rules = กติกา
cmd-challenge-rules-description = ชุดกติกา (ค่าเริ่มต้น: มาตรฐาน)
cmd-challenge-time = เวลา
cmd-challenge-time-description = วันต่อตา (1 3 7 หรือ 14 วัน) หรือนาทีต่อเกมกับวินาทีที่เพิ่มทุกตา (ค่าเริ่มต้น: 3 วันต่อตา)

cmd-accept = รับคำท้า
cmd-accept-description = รับคำท้าที่ส่งถึงคุณในช่องนี้

cmd-decline = ปฏิเสธคำท้า
cmd-decline-description = ปฏิเสธคำท้าที่ส่งถึงคุณในช่องนี้

cmd-play = เล่นกับคอมพิวเตอร์
cmd-play-description = เล่นกับคอมพิวเตอร์ในช่องนี้
cmd-play-level = ระดับ
cmd-play-level-description = ฝีมือของคอมพิวเตอร์ ระดับ 1 (ง่ายที่สุด) ถึง 8 หรือ Fairy-Stockfish (ค่าเริ่มต้น: ระดับ 3)
cmd-play-color = ฝ่าย
cmd-play-color-description = ฝ่ายที่คุณอยากเล่น (ค่าเริ่มต้น: สุ่ม)
cmd-play-variant = หมากรุก
cmd-play-variant-description = หมากรุกไทยหรือหมากรุกแบบอื่นในตระกูลเดียวกัน (ค่าเริ่มต้น: หมากรุกไทย)
cmd-play-rules = กติกา
cmd-play-rules-description = ชุดกติกา (ค่าเริ่มต้น: มาตรฐาน) Fairy-Stockfish เล่นได้เฉพาะกติกามาตรฐาน
cmd-play-time = เวลา
cmd-play-time-description = วันต่อตา (1 3 7 หรือ 14 วัน) หรือนาทีต่อเกมกับวินาทีที่เพิ่มทุกตา (ค่าเริ่มต้น: 3 วันต่อตา)

cmd-move = เดิน
cmd-move-description = เดินหมากในเกมของช่องนี้
cmd-move-move = ตาเดิน
cmd-move-move-description = ตาเดินของคุณ แบบไทย เช่น ม-ง๒ จ๔ หรือแบบสากล เช่น Nd2 e4 หรือ e3e4 (เลือกจากรายการได้)

cmd-board = กระดาน
cmd-board-description = แสดงกระดานของเกมในช่องนี้

cmd-resign = ยอมแพ้
cmd-resign-description = ยอมแพ้เกมนี้

cmd-draw = เสมอ
cmd-draw-description = ขอเสมอ หรือตอบคำขอเสมอของคู่แข่ง
cmd-draw-action = ตัวเลือก
cmd-draw-action-description = สิ่งที่ต้องการทำ (ค่าเริ่มต้น: ขอเสมอ)

cmd-takeback = คืนตา
cmd-takeback-description = ขอคืนตาเดินล่าสุดของคุณ หรือตอบคำขอของคู่แข่ง
cmd-takeback-action = ตัวเลือก
cmd-takeback-action-description = สิ่งที่ต้องการทำ (ค่าเริ่มต้น: ขอคืนตา)

cmd-abort = ยกเลิกเกม
cmd-abort-description = ยกเลิกเกม ทำได้จนกว่าทั้งสองฝ่ายจะได้เดินฝ่ายละหนึ่งตา

cmd-count = นับ
cmd-count-description = อธิบายการนับตอนนี้ ในกติกาแบบสมาคมใช้ขอเริ่มนับหรือหยุดนับศักดิ์กระดานด้วย
cmd-count-action = ตัวเลือก
cmd-count-action-description = สิ่งที่ต้องการทำ (ค่าเริ่มต้น: อธิบาย)

cmd-rules = กติกา
cmd-rules-description = วิธีเล่นหมากรุกไทย
cmd-rules-topic = หัวข้อ
cmd-rules-topic-description = เรื่องที่ต้องการให้อธิบาย (ค่าเริ่มต้น: ภาพรวม)
cmd-rules-variant = หมากรุก
cmd-rules-variant-description = หมากรุกแบบที่ต้องการ (ค่าเริ่มต้น: หมากรุกไทย)
cmd-rules-ruleset = ชุดกติกา
cmd-rules-ruleset-description = ชุดกติกาที่ต้องการ (ค่าเริ่มต้น: มาตรฐาน)

cmd-games = เกม
cmd-games-description = เกมล่าสุดในช่องนี้

cmd-pgn = pgn
cmd-pgn-description = ดาวน์โหลดเกมเป็น PGN พร้อมลิงก์วิเคราะห์
cmd-pgn-game = เกม
cmd-pgn-game-description = หมายเลขเกม (ค่าเริ่มต้น: เกมปัจจุบันหรือเกมล่าสุดของช่องนี้)

choice-1 = ระดับ 1 (ง่ายที่สุด)
choice-2 = ระดับ 2
choice-3 = ระดับ 3
choice-4 = ระดับ 4
choice-5 = ระดับ 5
choice-6 = ระดับ 6
choice-7 = ระดับ 7
choice-8 = ระดับ 8 (เก่งที่สุดรองจาก Fairy-Stockfish)
choice-Fairy-Stockfish = Fairy-Stockfish (เก่งที่สุด)
choice-white = ขาว
choice-black = ดำ
choice-random = สุ่ม
choice-standard = มาตรฐาน
choice-traditional = แบบสมาคม
choice-material = นับตามค่าหมาก
choice-fifty-move = ห้าสิบตา
choice-makruk = หมากรุกไทย
choice-makpong = หมากป้อง
choice-cambodian = อุกจัตรัง (หมากรุกเขมร)
choice-asean = หมากรุกอาเซียน
choice-sittuyin = ซิตตุยิน (หมากรุกพม่า)
choice-overview = ภาพรวม
choice-pieces = ตัวหมาก
choice-promotion = การหงายเบี้ย
choice-counting = การนับ
choice-draws = การเสมอ
choice-time = เวลา
choice-1d = 1 วันต่อตา
choice-3d = 3 วันต่อตา
choice-7d = 7 วันต่อตา
choice-14d = 14 วันต่อตา
choice-3-plus-2 = 3 นาที + 2 วินาที
choice-5-plus-3 = 5 นาที + 3 วินาที
choice-10-plus-5 = 10 นาที + 5 วินาที
choice-15-plus-10 = 15 นาที + 10 วินาที
choice-30-plus-20 = 30 นาที + 20 วินาที
choice-explain = อธิบาย
choice-start = เริ่มนับ
choice-stop = หยุดนับ
choice-offer = ขอเสมอ
choice-accept = รับ
choice-decline = ปฏิเสธ
choice-request = ขอคืนตา

button-accept = รับ
button-decline = ปฏิเสธ
button-withdraw = ถอนคำท้า

discord-not-your-challenge = คำท้านี้ไม่ได้ส่งถึงคุณ มีเพียง { $user } ที่ตอบได้
discord-not-your-challenge-withdraw = คำท้านี้ไม่ใช่ของคุณ มีเพียง { $user } ที่ถอนได้
discord-not-your-offer = นี่ไม่ใช่เกมของคุณ เฉพาะผู้เล่นทั้งสองคนเท่านั้นที่ตอบได้
discord-challenge-closed-expired = ⌛ คำท้านี้หมดอายุแล้ว ปุ่มจึงใช้ไม่ได้อีก ส่งคำท้าใหม่ด้วย `/ท้าเล่น`
discord-stale-button = คำขอนี้เป็นของเกมที่จบไปแล้ว จึงตอบไม่ได้อีก
discord-internal-error = ขออภัย ระบบขัดข้อง โปรดลองอีกครั้งในอีกสักครู่
discord-guild-only = คำสั่งนี้ใช้ได้เฉพาะในเซิร์ฟเวอร์ที่เพิ่มบอทแล้ว เพราะเรตติ้ง อันดับ และการตั้งค่าเป็นของแต่ละเซิร์ฟเวอร์ นอกเซิร์ฟเวอร์ยังเล่นได้ด้วย `/ท้าเล่น` `/เล่นกับคอมพิวเตอร์` และ `/เดิน`
discord-bad-argument = ค่าที่ใส่ในตัวเลือกนี้ใช้ไม่ได้ โปรดเลือกจากรายการ
discord-bad-button = ปุ่มนี้ใช้ไม่ได้แล้ว อาจเป็นปุ่มของข้อความเก่า โปรดใช้คำสั่งแทน
discord-unknown-command = ไม่รู้จักคำสั่งนั้น อาจถูกนำออกไปแล้ว พิมพ์ / เพื่อดูคำสั่งที่มี

discord-game-title = เกม #{ $id } · ขาว { $white } · ดำ { $black } · กติกา{ $ruleset }
discord-your-move = { $user } ถึงตาคุณเดินแล้ว
discord-game-over-ping = { $what } ({ $white } กับ { $black })

discord-rules-title = กติกาหมากรุกไทย: { $topic } ({ $ruleset })

discord-games-title = เกมล่าสุดในช่องนี้
discord-games-none = ยังไม่มีเกมที่จบในช่องนี้ เริ่มเกมได้ด้วย /ท้าเล่น
discord-games-line = **#{ $id }** { $white } กับ { $black } · { $result } · เดิน { $plies } ครั้ง · กติกา{ $ruleset } · { $time_name } · { $finished }
discord-result-white = ขาวชนะ
discord-result-black = ดำชนะ
discord-result-draw = เสมอ
discord-result-aborted = ยกเลิก
discord-reason-checkmate = รุกจน
discord-reason-resignation = อีกฝ่ายยอมแพ้
discord-reason-agreement = ตกลงกัน
discord-reason-aborted = ยกเลิกก่อนเดินครบ
discord-reason-stalemate = อับ
discord-reason-counting = นับครบกำหนด
discord-reason-counting-side-mated = ฝ่ายที่นับเป็นฝ่ายรุกจน
discord-reason-repetition = ตำแหน่งซ้ำสามครั้ง
discord-reason-insufficient-material = หมากไม่พอรุกจน
discord-reason-khun-vs-khun = เหลือแต่ขุนทั้งสองฝ่าย
discord-reason-fifty-move = เดินฝ่ายละ 50 ตาโดยไม่มีการกินหรือเดินเบี้ย
discord-reason-timeout = อีกฝ่ายหมดเวลา
discord-reason-timeout-draw = หมดเวลา แต่อีกฝ่ายมีหมากไม่พอรุกจน
discord-reason-timeout-aborted = หมดเวลาก่อนเดินตาแรก

discord-pgn-text = PGN ของเกม #{ $id } วิเคราะห์ได้ที่ pychess { $url }
discord-computer-thinking = { $user } กำลังคิด…

## ratings
cmd-challenge-rated = นับเรตติ้ง
cmd-challenge-rated-description = นับผลเกมนี้ในเรตติ้งของเซิร์ฟเวอร์หรือไม่ (ถ้าไม่ระบุ จะนับ)
cmd-leaderboard = อันดับ
cmd-leaderboard-description = ผู้เล่นที่มีเรตติ้งสูงสุดของเซิร์ฟเวอร์ ทีละสิบคน
cmd-leaderboard-speed = ประเภท
cmd-leaderboard-speed-description = เกมสดหรือเกมทางไกล (ค่าเริ่มต้น: ประเภทที่มีผู้เล่นมากกว่า)
cmd-leaderboard-variant = หมากรุก
cmd-leaderboard-variant-description = หมากรุกไทยหรือหมากรุกแบบอื่นในตระกูลเดียวกัน (ค่าเริ่มต้น: หมากรุกไทย)
cmd-stats = สถิติ
cmd-stats-description = เรตติ้ง ผลการเล่น และกราฟเรตติ้งของผู้เล่นในเซิร์ฟเวอร์นี้
cmd-stats-player = ผู้เล่น
cmd-stats-player-description = สถิติของใคร (ค่าเริ่มต้น: ของคุณ)
cmd-stats-speed = ประเภท
cmd-stats-speed-description = เกมสดหรือเกมทางไกล (ค่าเริ่มต้น: ประเภทที่ผู้เล่นเล่นมากกว่า)
cmd-stats-variant = หมากรุก
cmd-stats-variant-description = หมากรุกไทยหรือหมากรุกแบบอื่นในตระกูลเดียวกัน (ค่าเริ่มต้น: หมากรุกไทย)
choice-live = เกมสด
choice-correspondence = เกมทางไกล
button-previous = ◀
button-next = ▶

## replay and GIF (/replay, /gif, the end of a game, /board's last moves)
cmd-replay = ดูย้อนหลัง
cmd-replay-description = ดูเกมย้อนหลังทีละตาเดิน (เห็นเฉพาะคุณ)
cmd-replay-game = เกม
cmd-replay-game-description = หมายเลขเกม (ค่าเริ่มต้น: เกมปัจจุบันหรือเกมล่าสุดของช่องนี้)
cmd-gif = ภาพเคลื่อนไหว
cmd-gif-description = ดูทั้งเกมเป็นภาพเคลื่อนไหว GIF
cmd-gif-game = เกม
cmd-gif-game-description = หมายเลขเกม (ค่าเริ่มต้น: เกมปัจจุบันหรือเกมล่าสุดของช่องนี้)
discord-replay-title = เกม #{ $id } · { $white } กับ { $black }
discord-replay-start = ตำแหน่งเริ่มต้น (ทั้งเกมเดิน { $plies } ครั้ง)
discord-replay-ply = { $san } · ครั้งที่ { $ply } จาก { $plies }
discord-replay-flip = กลับด้านกระดาน
discord-replay-not-yours = การดูย้อนหลังนี้เป็นของ { $user } เปิดของคุณเองได้ด้วย /ดูย้อนหลัง
discord-replay-stale = การดูย้อนหลังนี้ไม่ตรงกับเกมแล้ว (มีการคืนตาเดิน) เปิดใหม่ได้ด้วย /ดูย้อนหลัง
discord-replay-eval = ค่าประเมิน { $eval }
discord-replay-eval-mate = { $side ->
    [white] ฝ่ายขาว
   *[black] ฝ่ายดำ
}รุกจนได้ใน { $moves } ตา
discord-replay-eval-checkmate = รุกจน
discord-replay-best = ตาที่ดีที่สุดคือ { $best }
discord-replay-best-played = เป็นตาที่ดีที่สุด
discord-gif-text = เกม #{ $id } เป็นภาพเคลื่อนไหว GIF (เดิน { $plies } ครั้ง)
button-gif = ภาพเคลื่อนไหว GIF
discord-last-moves = ตาเดินล่าสุด { $moves }
discord-end-checkmate = { $winner }ชนะด้วยการรุกจน
discord-end-resignation = { $winner }ชนะ เพราะอีกฝ่ายยอมแพ้
discord-end-agreement = เสมอเพราะทั้งสองฝ่ายตกลงกัน
discord-end-aborted = เกมถูกยกเลิก
discord-end-stalemate = เสมอเพราะอับ
discord-end-counting = เสมอเพราะนับครบกำหนด
discord-end-counting-side-mated = เสมอเพราะฝ่ายที่นับเป็นฝ่ายรุกจน
discord-end-repetition = เสมอเพราะตำแหน่งซ้ำสามครั้ง
discord-end-insufficient-material = เสมอเพราะหมากไม่พอรุกจน
discord-end-khun-vs-khun = เสมอเพราะเหลือแต่ขุนทั้งสองฝ่าย
discord-end-fifty-move = เสมอเพราะเดินฝ่ายละ 50 ตาโดยไม่มีการกินหรือเดินเบี้ย
discord-end-timeout = { $winner }ชนะ เพราะอีกฝ่ายหมดเวลา
discord-end-timeout-draw = เสมอ เพราะหมดเวลาแต่อีกฝ่ายมีหมากไม่พอรุกจน
discord-end-timeout-aborted = เกมถูกยกเลิก เพราะหมดเวลาก่อนได้เดินตาแรก

## threads
cmd-challenge-thread = เธรด
cmd-challenge-thread-description = เล่นเกมนี้ในเธรดแยก (ค่าเริ่มต้น: ตามการตั้งค่าของเซิร์ฟเวอร์)
cmd-play-thread = เธรด
cmd-play-thread-description = เล่นเกมนี้ในเธรดแยก (ค่าเริ่มต้น: ตามการตั้งค่าของเซิร์ฟเวอร์)
discord-thread-name = { $first } พบ { $second } — { $game }
discord-thread-computer = คอมพิวเตอร์
discord-thread-challenge = เมื่อรับคำท้าแล้ว เกมจะเล่นในเธรดแยก
discord-thread-opening = กำลังเปิดเธรดสำหรับเกมนี้…
discord-thread-started = เกม #{ $id } ({ $white } เป็นฝ่ายขาว { $black } เป็นฝ่ายดำ) เล่นกันใน { $thread }
discord-thread-your-game = เกมของคุณอยู่ใน { $thread }
discord-thread-ended = เกม #{ $id } ใน { $thread } จบแล้ว { $what }
discord-thread-missing-permission = เปิดเธรดไม่ได้ เพราะบอทไม่มีสิทธิ์สร้างเธรดสาธารณะหรือสิทธิ์ส่งข้อความในเธรด จึงเล่นเกมในช่องนี้แทน ผู้ดูแลเซิร์ฟเวอร์ให้สิทธิ์ทั้งสองนี้แก่บอทได้
discord-thread-failed = เปิดเธรดไม่ได้ จึงเล่นเกมในช่องนี้แทน

## settings
cmd-settings = ตั้งค่า
cmd-settings-description = ดูหรือเปลี่ยนการตั้งค่าของเซิร์ฟเวอร์นี้ (สำหรับผู้มีสิทธิ์จัดการเซิร์ฟเวอร์)
cmd-settings-thread = เธรด
cmd-settings-thread-description = เกมใหม่เปิดเธรดแยก เว้นแต่ผู้เล่นเลือกเป็นอย่างอื่น
choice-on = เปิด
choice-off = ปิด
discord-settings-not-allowed = เฉพาะสมาชิกที่มีสิทธิ์จัดการเซิร์ฟเวอร์เท่านั้นที่เปลี่ยนการตั้งค่าได้
discord-settings-now = การตั้งค่าของเซิร์ฟเวอร์นี้:
discord-settings-changed = บันทึกแล้ว การตั้งค่าของเซิร์ฟเวอร์นี้:
discord-settings-thread-on = เกมใหม่เล่นในเธรดแยก (เธรด: เปิด)
discord-settings-thread-off = เกมใหม่เล่นในช่องนี้เอง (เธรด: ปิด)

## computer analysis (/วิเคราะห์, the วิเคราะห์ button; its texts are analysis-* in service.ftl)
cmd-analyse = วิเคราะห์
cmd-analyse-description = ให้คอมพิวเตอร์วิเคราะห์เกมที่จบแล้ว กราฟโอกาสชนะ ความแม่นยำ ตาที่พลาด และการนับ
cmd-analyse-game = เกม
cmd-analyse-game-description = หมายเลขเกม (ค่าเริ่มต้น: เกมล่าสุดที่จบแล้วของช่องนี้)
button-analyse = วิเคราะห์

## Outside a server (a DM or group DM, the app installed to a user's account)
discord-unrated-here = เกมนี้เล่นนอกเซิร์ฟเวอร์ จึงไม่นับผลในเรตติ้ง
discord-answers-only = ที่นี่บอทตอบได้เฉพาะเมื่อมีคนใช้คำสั่งหรือกดปุ่ม เวลาที่หมดลงระหว่างที่ไม่มีใครใช้คำสั่ง หรือสิ่งที่มาหลังคำสั่งล่าสุดเกิน 15 นาที จะแสดงพร้อมคำตอบของคำสั่งถัดไปที่นี่ (ใช้ `/กระดาน` ก็ได้)
discord-answers-only-computer = ที่นี่บอทตอบได้เฉพาะเมื่อมีคนใช้คำสั่งหรือกดปุ่ม คอมพิวเตอร์จะเดินตอบทันทีหลังตาเดินของคุณ ส่วนเวลาที่หมดลงระหว่างที่ไม่มีใครใช้คำสั่ง หรือสิ่งที่มาหลังคำสั่งล่าสุดเกิน 15 นาที จะแสดงพร้อมคำตอบของคำสั่งถัดไปที่นี่ (ใช้ `/กระดาน` ก็ได้)
discord-no-thread-here = เธรดมีเฉพาะในเซิร์ฟเวอร์ จึงเล่นเกมที่นี่แทน
discord-challenge-bot-dm = ในแชทนี้มีแค่คุณกับบอท เล่นกับบอทได้ด้วย `/เล่นกับคอมพิวเตอร์` ถ้าจะเล่นกับเพื่อน ใช้ `/ท้าเล่น` ในเซิร์ฟเวอร์ ในแชทส่วนตัว หรือในกลุ่มแชทที่มีเพื่อนอยู่

## /tournament (issue 26)
cmd-tournament = ทัวร์นาเมนต์
cmd-tournament-description = การแข่งขันระบบสวิส แบบพบกันหมด และอารีนาในช่องนี้
cmd-tournament-create = สร้าง
cmd-tournament-create-description = สร้างการแข่งขันในช่องนี้ (ผู้มีสิทธิ์จัดการเซิร์ฟเวอร์ หรือบทบาทจัดแข่ง)
cmd-tournament-create-format = รูปแบบ
cmd-tournament-create-format-description = ระบบสวิส (ระบบดัตช์ของ FIDE) แบบพบกันหมด หรืออารีนา (แบบ lichess)
cmd-tournament-create-time = เวลา
cmd-tournament-create-time-description = การควบคุมเวลาของเกม (ค่าเริ่มต้น: 3 วันต่อตา อารีนา: 3+2)
cmd-tournament-create-rounds = จำนวนรอบ
cmd-tournament-create-rounds-description = จำนวนรอบของการแข่งขันระบบสวิส (ค่าเริ่มต้น: 5)
cmd-tournament-create-start = เวลาเริ่ม
cmd-tournament-create-start-description = เวลาเริ่ม เช่น "in 30m", "2h" หรือ "2026-12-05T19:00+07:00" (ค่าเริ่มต้น: สั่งเริ่มเอง)
cmd-tournament-create-rated = นับเรตติ้ง
cmd-tournament-create-rated-description = นับผลเกมในเรตติ้งของเซิร์ฟเวอร์หรือไม่ (ถ้าไม่ระบุ จะนับ)
cmd-tournament-create-rules = กติกา
cmd-tournament-create-rules-description = ชุดกติกาของเกม (ค่าเริ่มต้น: มาตรฐาน)
cmd-tournament-create-variant = หมากรุก
cmd-tournament-create-variant-description = หมากรุกไทยหรือหมากรุกแบบอื่นในตระกูลเดียวกัน (ค่าเริ่มต้น: หมากรุกไทย)
cmd-tournament-create-name = ชื่อ
cmd-tournament-create-name-description = ชื่อการแข่งขัน
cmd-tournament-join = เข้าร่วม
cmd-tournament-join-description = เข้าร่วมการแข่งขันของช่องนี้
cmd-tournament-leave = ออก
cmd-tournament-leave-description = ออกจากการแข่งขันของช่องนี้ (ถ้าเริ่มแล้ว คือถอนตัว)
cmd-tournament-start = เริ่ม
cmd-tournament-start-description = เริ่มการแข่งขันของช่องนี้ทันที (ผู้จัดหรือผู้มีสิทธิ์จัดการเซิร์ฟเวอร์)
cmd-tournament-standings = ตารางคะแนน
cmd-tournament-standings-description = ตารางคะแนนพร้อมเกณฑ์ตัดสินเมื่อคะแนนเท่ากัน
cmd-tournament-pairings = การจับคู่
cmd-tournament-pairings-description = การจับคู่และผลของรอบหนึ่ง
cmd-tournament-pairings-round = รอบ
cmd-tournament-pairings-round-description = รอบที่ต้องการ (ค่าเริ่มต้น: รอบปัจจุบัน)
cmd-tournament-cancel = ยกเลิก
cmd-tournament-cancel-description = ยกเลิกการแข่งขันของช่องนี้ (ผู้จัดหรือผู้มีสิทธิ์จัดการเซิร์ฟเวอร์)
choice-swiss = ระบบสวิส
choice-round-robin = แบบพบกันหมด
cmd-tournament-trf = trf
cmd-tournament-trf-description = รายงาน TRF16 ของ FIDE สำหรับโปรแกรมของผู้ตัดสิน
cmd-tournament-create-duration = ระยะเวลา
cmd-tournament-create-duration-description = ระยะเวลาของอารีนาเป็นนาที (ค่าเริ่มต้น: 60)
choice-arena = อารีนา
cmd-tournament-create-repeat = จัดซ้ำ
cmd-tournament-create-repeat-description = จัดอีกทุกวันหรือทุกสัปดาห์ นับจากเวลาเริ่ม (ต้องระบุเวลาเริ่ม)
choice-daily = ทุกวัน
choice-weekly = ทุกสัปดาห์
cmd-settings-tournament-role = บทบาทจัดแข่ง
cmd-settings-tournament-role-description = สมาชิกที่มีบทบาทนี้สร้างการแข่งขันได้ด้วย (@everyone: ทุกคน)
discord-settings-tournaments-managers = สมาชิกที่มีสิทธิ์จัดการเซิร์ฟเวอร์เป็นผู้สร้างการแข่งขัน (ตั้ง `บทบาทจัดแข่ง` เพื่อให้บทบาทอื่นสร้างได้ด้วย)
discord-settings-tournaments-role = สมาชิกที่มีสิทธิ์จัดการเซิร์ฟเวอร์หรือมีบทบาท { $role } สร้างการแข่งขันได้
discord-settings-tournaments-everyone = ทุกคนสร้างการแข่งขันได้ (บทบาทจัดแข่ง: @everyone)
cmd-tournament-berserk = เบอร์เซิร์ก
cmd-tournament-berserk-description = ในเธรดเกมอารีนาของคุณ ก่อนเดินตาแรก: เวลาเหลือครึ่ง ชนะได้คะแนนเพิ่ม 1
