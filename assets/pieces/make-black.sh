#!/bin/sh
# Derives the black pieces from the white ones by swapping the palette (run from this folder).
# White: ivory body (#fffbf0 → #d8c39c), dark outline #2a1c0f, brown carving #6b5032,
# hollow of the turned-over Bia-ngai #4e3a26 with its lit back wall #8a6d4a.
# Black: dark body (#5b4d44 → #1c1613), light outline #eadfc6, light carving #cbb78f,
# hollow #0f0b09 with its back wall #3a302a.
set -eu
for f in white-*.svg; do
  sed -e 's/white-/black-/g' \
      -e 's/#fffbf0/#5b4d44/g' -e 's/#d8c39c/#1c1613/g' \
      -e 's/#2a1c0f/#eadfc6/g' -e "s/#6b5032/#cbb78f/g" -e "s/#4e3a26/#0f0b09/g" -e "s/#8a6d4a/#3a302a/g" \
      "$f" > "black-${f#white-}"
done
