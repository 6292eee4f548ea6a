color-white = ฝ่ายขาว
