color-white = White
