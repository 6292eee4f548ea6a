# โจทย์หมากรุก (issue 24): /โจทย์ /ตอบ ปุ่มของโจทย์ โจทย์ประจำวัน ตัวเลือกโจทย์ประจำวันของ
# /ตั้งค่า และบรรทัดโจทย์ของ /สถิติ

## commands
cmd-puzzle = โจทย์
cmd-puzzle-description = โจทย์หมากรุกไทยที่ยากพอดีกับเรตติ้งโจทย์ของคุณ คุณเห็นคนเดียว
cmd-puzzle-theme = แบบ
cmd-puzzle-theme-description = ประเภทของโจทย์ (ถ้าไม่ระบุ จะได้แบบใดก็ได้)
cmd-solve = ตอบ
cmd-solve-description = ตอบโจทย์ของคุณ หรือโจทย์ประจำวันของช่องนี้ (คุณเห็นคนเดียว)
cmd-solve-move = ตาเดิน
cmd-solve-move-description = ตาเดินของคุณ แบบไทย เช่น ร-ง๘ จ๔ หรือแบบสากล เช่น Rd8 e3e4 (เลือกจากรายการได้)
choice-mate = รุกจน
choice-mate-in-1 = รุกจนใน 1 ตา
choice-mate-in-2 = รุกจนใน 2 ตา
choice-mate-in-3 = รุกจนใน 3 ตา
choice-win-material = ได้หมาก
choice-defend = ป้องกัน
cmd-settings-daily-puzzle = โจทย์ประจำวัน
cmd-settings-daily-puzzle-description = ลงโจทย์ให้เล่นทุกวันในช่องนี้ หรือในช่องที่เลือกในตัวเลือกช่องโจทย์
cmd-settings-puzzle-channel = ช่องโจทย์
cmd-settings-puzzle-channel-description = ช่องที่จะลงโจทย์ประจำวัน
cmd-settings-puzzle-time = เวลาโจทย์
cmd-settings-puzzle-time-description = เวลาที่ลงโจทย์ประจำวัน แบบ ชช:นน (ค่าเริ่มต้น 08:00)
cmd-settings-timezone = เขตเวลา
cmd-settings-timezone-description = เขตเวลาของเซิร์ฟเวอร์ เทียบกับ UTC เช่น UTC+5:30 (ค่าเริ่มต้น UTC+7)

## the puzzle
puzzle-white = ฝ่ายขาว
puzzle-black = ฝ่ายดำ
puzzle-title = โจทย์ { $id } · เรตติ้ง { $rating }
puzzle-title-plain = โจทย์ { $id }
puzzle-to-move = **{ $side }เดิน** หาตาที่ดีที่สุด (ต้องหาอีก { $left } ตา)
puzzle-right = ✅ **{ $played }** ถูกต้อง อีกฝ่ายเดิน **{ $reply }**
puzzle-themes = แบบโจทย์: { $themes }
puzzle-count = กำลังนับอยู่ { $side }นับถึง { $current } จาก { $limit } ต้องรุกจนให้ได้ก่อนนับครบ ไม่อย่างนั้นจะเสมอ
puzzle-how = ตอบด้วย `/ตอบ ตาเดิน:` (เลือกจากรายการได้) โจทย์นี้คุณเห็นคนเดียว
puzzle-unrated = คุณเคยเล่นโจทย์ข้อนี้แล้ว เรตติ้งจึงไม่เปลี่ยน
puzzle-repeat = คุณเล่นโจทย์แบบนี้ครบทุกข้อแล้ว ข้อนี้จึงเป็นข้อที่เคยเล่น และไม่คิดเรตติ้ง
puzzle-your-rating = เรตติ้งโจทย์ของคุณ { $rating }
puzzle-your-rating-provisional = เรตติ้งโจทย์ของคุณ { $rating }? (ยังเป็นค่าชั่วคราวจนกว่าจะแน่นอนขึ้น)
puzzle-rating-now = เรตติ้งของโจทย์ข้อนี้ { $rating }
puzzle-left = โจทย์ข้อก่อนในช่องนี้คุณยังไม่ได้ตอบ จึงนับว่าพลาด เรตติ้งโจทย์ { $before } → { $after }
puzzle-button-hint = คำใบ้
puzzle-button-solution = เฉลย
puzzle-button-next = ข้อต่อไป
puzzle-button-up = 👍
puzzle-button-down = 👎
puzzle-hint = คำใบ้ ให้เดิน{ $piece }ที่ { $square } (ดูคำใบ้แล้ว ข้อนี้จะไม่คิดเรตติ้ง)
puzzle-solved = 🎉 **{ $played }** ถูกต้อง แก้โจทย์ได้แล้ว
puzzle-wrong = ❌ **{ $played }** ยังไม่ใช่คำตอบ
puzzle-revealed = นี่คือเฉลยของโจทย์ข้อนี้
puzzle-solution = เฉลย: { $line }
puzzle-rating-change = เรตติ้งโจทย์ { $before } → **{ $after }** ({ $change })
puzzle-rating-unchanged = เรตติ้งโจทย์ของคุณไม่เปลี่ยน เพราะคุณเคยเล่นข้อนี้แล้ว
puzzle-rating-unchanged-hint = เรตติ้งโจทย์ของคุณไม่เปลี่ยน เพราะคุณดูคำใบ้
puzzle-streak = แก้ได้ติดกัน { $streak } ข้อ
puzzle-daily-streak = แก้โจทย์ประจำวันในเซิร์ฟเวอร์นี้ได้ติดกัน { $streak } วัน
puzzle-vote = ชอบโจทย์ข้อนี้ไหม กด 👍 หรือ 👎
puzzle-voted = ขอบคุณ บันทึกโหวต { $vote } ของคุณแล้ว (โหวตใหม่จะแทนที่โหวตเดิม)

## themes
puzzle-theme-mate = รุกจน
puzzle-theme-mateIn1 = รุกจนใน 1 ตา
puzzle-theme-mateIn2 = รุกจนใน 2 ตา
puzzle-theme-mateIn3 = รุกจนใน 3 ตา
puzzle-theme-mateIn4 = รุกจนใน 4 ตา
puzzle-theme-mateIn5 = รุกจนใน 5 ตา
puzzle-theme-winMaterial = ได้หมาก
puzzle-theme-counting = การนับ รุกจนให้ได้ก่อนนับครบ
puzzle-theme-defend = ป้องกัน

## the daily puzzle
puzzle-daily-title = โจทย์ประจำวัน · { $day }
puzzle-daily-to-move = **ตาของ{ $side }** หาตาที่ดีที่สุด
puzzle-daily-how = ตอบด้วย `/ตอบ ตาเดิน:` ในช่องนี้ มีแค่คุณที่เห็นคำตอบของคุณ เฉลยจึงไม่หลุด ตอบได้คนละครั้ง
puzzle-daily-rating = เรตติ้งโจทย์ { $rating }
puzzle-daily-counts = { $solvers ->
    [0] ยังไม่มีใครแก้ได้
   *[other] แก้ได้ { $solvers } คน
} · ตอบแล้ว { $tries } คน
puzzle-daily-first = คนแรกคือ { $user }

## /stats
puzzle-stats-title = **{ $player } — โจทย์**
puzzle-stats = เรตติ้งโจทย์ **{ $rating }** · แก้ได้ { $solved } ข้อ · พลาด { $failed } ข้อ · ติดกันตอนนี้ { $streak } ข้อ · สูงสุด { $best } ข้อ

## /settings
discord-settings-bad-time = เขียนเวลาแบบ ชช:นน ตั้งแต่ 00:00 ถึง 23:59 เช่น `08:00`
discord-settings-bad-timezone = เขียนเขตเวลาเทียบกับ UTC เช่น `UTC+7` `+05:30` หรือ `UTC-3`
discord-settings-daily-on = ลงโจทย์ประจำวันใน { $channel } เวลา { $at } ({ $zone })
discord-settings-daily-off = ยังไม่มีโจทย์ประจำวัน เปิดได้ด้วย `/ตั้งค่า โจทย์ประจำวัน:เปิด` ในช่องที่ต้องการ

## errors
error-no-puzzle = คุณยังไม่มีโจทย์ในช่องนี้ ขอโจทย์ได้ด้วย `/โจทย์`
error-not-your-puzzle = นี่เป็นโจทย์ของคนอื่น ขอโจทย์ของคุณเองได้ด้วย `/โจทย์`
error-puzzle-over = โจทย์ข้อนี้จบแล้ว ขอข้อใหม่ได้ด้วย `/โจทย์`
error-puzzle-not-over = โหวตได้เมื่อโจทย์จบแล้ว
error-daily-done = คุณตอบโจทย์ประจำวันของวันนี้ไปแล้ว พรุ่งนี้จะมีข้อใหม่ ระหว่างนี้ขอโจทย์เพิ่มได้ด้วย `/โจทย์`
error-daily-in-progress = คุณกำลังแก้โจทย์ประจำวันอยู่ในช่องนี้ ตอบด้วย `/ตอบ` หรือกดปุ่ม “เฉลย” ก่อนขอข้อใหม่
error-no-puzzles = ยังไม่มีโจทย์แบบนี้ ลองใช้ `/โจทย์` โดยไม่เลือกแบบ
error-unknown-puzzle-theme = ไม่มีโจทย์แบบนี้ เลือกจากรายการ

## a puzzle from the server's own game
puzzle-from-game = จากเกมของ { $user } เมื่อ { $date } ตรงนี้มีทางชนะที่พลาดไป
puzzle-stats-daily = โจทย์ประจำวันในเซิร์ฟเวอร์นี้ แก้ได้ติดกันตอนนี้ { $streak } วัน · สูงสุด { $best } วัน
