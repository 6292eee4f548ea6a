//! The evaluation's weights, (middlegame, endgame) centipawns, in the order of
//! `evaluate::layout` (each line names its weight). Written by the Texel tuner
//! (`engine/examples/texel_tune.rs`; engine/README.md, "Texel tuning", has the data
//! and the command).

/// The weights, indexed by `evaluate::layout`.
pub const WEIGHTS: [(i32, i32); 278] = [
    (0, 0),      // value Khun
    (187, 191),  // value Met
    (274, 272),  // value Khon
    (314, 324),  // value Ma
    (505, 542),  // value Ruea
    (105, 115),  // value Bia
    (22, -19),   // square Khun a1
    (31, -22),   // square Khun b1
    (28, -19),   // square Khun c1
    (31, -20),   // square Khun d1
    (19, -19),   // square Khun a2
    (26, -12),   // square Khun b2
    (27, -9),    // square Khun c2
    (26, -8),    // square Khun d2
    (46, -37),   // square Khun a3
    (16, -5),    // square Khun b3
    (17, -2),    // square Khun c3
    (12, 1),     // square Khun d3
    (-18, -3),   // square Khun a4
    (-5, 6),     // square Khun b4
    (-10, 20),   // square Khun c4
    (-9, 18),    // square Khun d4
    (-78, 30),   // square Khun a5
    (-29, 23),   // square Khun b5
    (-16, 31),   // square Khun c5
    (-1, 30),    // square Khun d5
    (-176, 47),  // square Khun a6
    (-52, 31),   // square Khun b6
    (-16, 27),   // square Khun c6
    (-18, 39),   // square Khun d6
    (-133, 36),  // square Khun a7
    (-82, 26),   // square Khun b7
    (-77, 35),   // square Khun c7
    (-69, 43),   // square Khun d7
    (-124, 33),  // square Khun a8
    (-81, 64),   // square Khun b8
    (-114, 11),  // square Khun c8
    (-203, -5),  // square Khun d8
    (30, -37),   // square Met a1
    (-7, -7),    // square Met b1
    (-13, 11),   // square Met c1
    (-6, -1),    // square Met d1
    (-14, -16),  // square Met a2
    (-1, 9),     // square Met b2
    (2, 12),     // square Met c2
    (1, 14),     // square Met d2
    (-13, 7),    // square Met a3
    (9, 16),     // square Met b3
    (9, 18),     // square Met c3
    (13, 20),    // square Met d3
    (4, 8),      // square Met a4
    (43, -9),    // square Met b4
    (21, 17),    // square Met c4
    (35, 20),    // square Met d4
    (6, 8),      // square Met a5
    (18, 15),    // square Met b5
    (35, 10),    // square Met c5
    (20, 28),    // square Met d5
    (-6, 16),    // square Met a6
    (16, 18),    // square Met b6
    (23, 19),    // square Met c6
    (29, 21),    // square Met d6
    (-37, -24),  // square Met a7
    (14, 9),     // square Met b7
    (11, 11),    // square Met c7
    (20, 1),     // square Met d7
    (-47, -26),  // square Met a8
    (-14, -24),  // square Met b8
    (49, -51),   // square Met c8
    (67, -42),   // square Met d8
    (-4, -4),    // square Khon a1
    (9, -7),     // square Khon b1
    (-6, 15),    // square Khon c1
    (-5, 4),     // square Khon d1
    (2, -20),    // square Khon a2
    (1, 10),     // square Khon b2
    (6, 10),     // square Khon c2
    (7, 13),     // square Khon d2
    (13, -2),    // square Khon a3
    (13, 12),    // square Khon b3
    (16, 18),    // square Khon c3
    (21, 21),    // square Khon d3
    (4, 13),     // square Khon a4
    (18, 10),    // square Khon b4
    (24, 28),    // square Khon c4
    (32, 28),    // square Khon d4
    (15, 15),    // square Khon a5
    (19, 25),    // square Khon b5
    (35, 18),    // square Khon c5
    (34, 31),    // square Khon d5
    (-5, 8),     // square Khon a6
    (21, 16),    // square Khon b6
    (16, 36),    // square Khon c6
    (41, 12),    // square Khon d6
    (18, -51),   // square Khon a7
    (36, -4),    // square Khon b7
    (17, 24),    // square Khon c7
    (2, 24),     // square Khon d7
    (64, -139),  // square Khon a8
    (2, -26),    // square Khon b8
    (11, -55),   // square Khon c8
    (31, -25),   // square Khon d8
    (-1, -11),   // square Ma a1
    (7, 0),      // square Ma b1
    (1, -2),     // square Ma c1
    (11, -3),    // square Ma d1
    (9, 3),      // square Ma a2
    (13, 2),     // square Ma b2
    (14, -5),    // square Ma c2
    (14, 11),    // square Ma d2
    (8, 1),      // square Ma a3
    (13, 6),     // square Ma b3
    (18, 3),     // square Ma c3
    (23, 0),     // square Ma d3
    (5, 6),      // square Ma a4
    (12, -2),    // square Ma b4
    (13, 10),    // square Ma c4
    (24, 19),    // square Ma d4
    (10, 13),    // square Ma a5
    (9, 12),     // square Ma b5
    (12, 8),     // square Ma c5
    (16, 15),    // square Ma d5
    (2, 1),      // square Ma a6
    (6, 4),      // square Ma b6
    (9, 15),     // square Ma c6
    (9, 17),     // square Ma d6
    (12, 8),     // square Ma a7
    (-23, 31),   // square Ma b7
    (15, 26),    // square Ma c7
    (4, 26),     // square Ma d7
    (-26, 6),    // square Ma a8
    (16, -50),   // square Ma b8
    (-42, 27),   // square Ma c8
    (-3, 27),    // square Ma d8
    (0, 0),      // square Ruea a1
    (-2, 3),     // square Ruea b1
    (-3, 2),     // square Ruea c1
    (1, -5),     // square Ruea d1
    (-3, -5),    // square Ruea a2
    (-3, -1),    // square Ruea b2
    (0, -5),     // square Ruea c2
    (-1, -2),    // square Ruea d2
    (-2, -4),    // square Ruea a3
    (-7, 1),     // square Ruea b3
    (-3, 8),     // square Ruea c3
    (-5, -7),    // square Ruea d3
    (-3, 3),     // square Ruea a4
    (-2, 9),     // square Ruea b4
    (-13, 13),   // square Ruea c4
    (-11, 6),    // square Ruea d4
    (3, 5),      // square Ruea a5
    (-9, 15),    // square Ruea b5
    (5, 1),      // square Ruea c5
    (-3, 8),     // square Ruea d5
    (6, 10),     // square Ruea a6
    (-3, 19),    // square Ruea b6
    (17, 3),     // square Ruea c6
    (-23, 22),   // square Ruea d6
    (12, -7),    // square Ruea a7
    (8, 5),      // square Ruea b7
    (44, -9),    // square Ruea c7
    (-13, 24),   // square Ruea d7
    (-1, 12),    // square Ruea a8
    (0, 6),      // square Ruea b8
    (11, 3),     // square Ruea c8
    (-4, 11),    // square Ruea d8
    (0, 0),      // square Bia a1
    (0, 0),      // square Bia b1
    (6, 0),      // square Bia c1
    (6, 0),      // square Bia d1
    (0, 0),      // square Bia a2
    (0, 0),      // square Bia b2
    (6, 0),      // square Bia c2
    (6, 0),      // square Bia d2
    (-6, 5),     // square Bia a3
    (0, 2),      // square Bia b3
    (8, 8),      // square Bia c3
    (15, 1),     // square Bia d3
    (2, 16),     // square Bia a4
    (4, 12),     // square Bia b4
    (18, 9),     // square Bia c4
    (22, 11),    // square Bia d4
    (15, 36),    // square Bia a5
    (21, 26),    // square Bia b5
    (28, 30),    // square Bia c5
    (35, 27),    // square Bia d5
    (0, 0),      // square Bia a6
    (0, 0),      // square Bia b6
    (6, 0),      // square Bia c6
    (6, 0),      // square Bia d6
    (0, 0),      // square Bia a7
    (0, 0),      // square Bia b7
    (6, 0),      // square Bia c7
    (6, 0),      // square Bia d7
    (0, 0),      // square Bia a8
    (0, 0),      // square Bia b8
    (6, 0),      // square Bia c8
    (6, 0),      // square Bia d8
    (-22, -48),  // mobility Ma 0
    (-15, -14),  // mobility Ma 1
    (-9, -9),    // mobility Ma 2
    (-5, -4),    // mobility Ma 3
    (1, 8),      // mobility Ma 4
    (6, 11),     // mobility Ma 5
    (13, 16),    // mobility Ma 6
    (19, 20),    // mobility Ma 7
    (24, 16),    // mobility Ma 8
    (-8, -13),   // mobility Khon 0
    (-4, -8),    // mobility Khon 1
    (1, -3),     // mobility Khon 2
    (6, 2),      // mobility Khon 3
    (10, 6),     // mobility Khon 4
    (12, 7),     // mobility Khon 5
    (-2, -23),   // mobility Met 0
    (-3, -7),    // mobility Met 1
    (0, -5),     // mobility Met 2
    (5, 0),      // mobility Met 3
    (6, 3),      // mobility Met 4
    (-7, -52),   // mobility Ruea 0
    (-7, -23),   // mobility Ruea 1
    (-7, -11),   // mobility Ruea 2
    (-4, -18),   // mobility Ruea 3
    (-4, -3),    // mobility Ruea 4
    (-2, -1),    // mobility Ruea 5
    (0, 10),     // mobility Ruea 6
    (0, 14),     // mobility Ruea 7
    (0, 17),     // mobility Ruea 8
    (2, 24),     // mobility Ruea 9
    (3, 25),     // mobility Ruea 10
    (5, 22),     // mobility Ruea 11
    (9, 18),     // mobility Ruea 12
    (11, 24),    // mobility Ruea 13
    (12, 21),    // mobility Ruea 14
    (22, -3),    // Ruea on an open file
    (11, 6),     // Ruea on a half-open file
    (4, 7),      // Bia defended by a Bia
    (-12, -12),  // Bia isolated
    (-7, 0),     // Bia doubled
    (0, 0),      // ASEAN Bia rank 1
    (0, 0),      // ASEAN Bia rank 2
    (0, 0),      // ASEAN Bia rank 3
    (6, 10),     // ASEAN Bia rank 4
    (14, 24),    // ASEAN Bia rank 5
    (26, 45),    // ASEAN Bia rank 6
    (45, 80),    // ASEAN Bia rank 7
    (0, 0),      // ASEAN Bia rank 8
    (0, 0),      // Sittuyin Bia rank 1
    (0, 0),      // Sittuyin Bia rank 2
    (0, 0),      // Sittuyin Bia rank 3
    (6, 10),     // Sittuyin Bia rank 4
    (16, 26),    // Sittuyin Bia rank 5
    (20, 32),    // Sittuyin Bia rank 6
    (20, 32),    // Sittuyin Bia rank 7
    (20, 32),    // Sittuyin Bia rank 8
    (6, 0),      // ASEAN and Sittuyin Bia on files c-f
    (0, 1),      // Khun shield 0
    (7, 1),      // Khun shield 1
    (13, 2),     // Khun shield 2
    (16, -2),    // Khun shield 3
    (22, -8),    // Khun shield 4
    (5, 8),      // Khun danger 0
    (-2, 11),    // Khun danger 1
    (0, 15),     // Khun danger 2
    (3, 7),      // Khun danger 3
    (-18, 16),   // Khun danger 4
    (-20, 16),   // Khun danger 5
    (-34, -11),  // Khun danger 6
    (-49, -4),   // Khun danger 7
    (-47, -61),  // Khun danger 8
    (-154, 1),   // Khun danger 9
    (-119, -25), // Khun danger 10
    (-170, -6),  // Khun danger 11
    (-208, -7),  // Khun danger 12
    (-180, 0),   // Khun danger 13
    (-200, 0),   // Khun danger 14
    (-220, 0),   // Khun danger 15
    (30, 66),    // piece attacked by a Bia
    (24, 48),    // piece attacked and undefended
];
