//! The evaluation's weights, (middlegame, endgame) centipawns, in the order of
//! `evaluate::layout` (each line names its weight). Written by the Texel tuner
//! (`engine/examples/texel_tune.rs`; engine/README.md, "Texel tuning", has the data
//! and the command).

/// The weights, indexed by `evaluate::layout`.
pub const WEIGHTS: [(i32, i32); 278] = [
    (0, 0),      // value Khun
    (195, 179),  // value Met
    (289, 260),  // value Khon
    (347, 312),  // value Ma
    (566, 542),  // value Ruea
    (115, 107),  // value Bia
    (18, -52),   // square Khun a1
    (36, -47),   // square Khun b1
    (28, -39),   // square Khun c1
    (29, -37),   // square Khun d1
    (25, -43),   // square Khun a2
    (38, -32),   // square Khun b2
    (33, -23),   // square Khun c2
    (28, -17),   // square Khun d2
    (37, -31),   // square Khun a3
    (38, -15),   // square Khun b3
    (16, -3),    // square Khun c3
    (11, 2),     // square Khun d3
    (-20, -8),   // square Khun a4
    (21, 4),     // square Khun b4
    (3, 20),     // square Khun c4
    (-13, 24),   // square Khun d4
    (-24, 22),   // square Khun a5
    (-8, 29),    // square Khun b5
    (-11, 40),   // square Khun c5
    (-55, 51),   // square Khun d5
    (-42, 5),    // square Khun a6
    (-35, 33),   // square Khun b6
    (-74, 59),   // square Khun c6
    (-49, 58),   // square Khun d6
    (-138, 43),  // square Khun a7
    (-21, 38),   // square Khun b7
    (-90, 65),   // square Khun c7
    (-77, 67),   // square Khun d7
    (-215, 47),  // square Khun a8
    (-111, 59),  // square Khun b8
    (-184, 68),  // square Khun c8
    (-198, 74),  // square Khun d8
    (24, -65),   // square Met a1
    (-22, -16),  // square Met b1
    (-17, -4),   // square Met c1
    (-4, 2),     // square Met d1
    (-36, -20),  // square Met a2
    (2, 0),      // square Met b2
    (6, 9),      // square Met c2
    (7, 8),      // square Met d2
    (-1, -5),    // square Met a3
    (13, 10),    // square Met b3
    (13, 14),    // square Met c3
    (24, 11),    // square Met d3
    (9, 8),      // square Met a4
    (38, -10),   // square Met b4
    (35, 11),    // square Met c4
    (46, 11),    // square Met d4
    (-1, 11),    // square Met a5
    (31, 6),     // square Met b5
    (34, 8),     // square Met c5
    (29, 25),    // square Met d5
    (-2, 3),     // square Met a6
    (12, 16),    // square Met b6
    (18, 19),    // square Met c6
    (35, 20),    // square Met d6
    (-38, -40),  // square Met a7
    (13, 1),     // square Met b7
    (25, 5),     // square Met c7
    (46, 4),     // square Met d7
    (-26, -59),  // square Met a8
    (-55, -35),  // square Met b8
    (24, -35),   // square Met c8
    (53, -40),   // square Met d8
    (-7, -14),   // square Khon a1
    (9, -10),    // square Khon b1
    (-8, 8),     // square Khon c1
    (-7, -3),    // square Khon d1
    (-5, -30),   // square Khon a2
    (2, 7),      // square Khon b2
    (9, 12),     // square Khon c2
    (11, 12),    // square Khon d2
    (13, -5),    // square Khon a3
    (15, 16),    // square Khon b3
    (22, 15),    // square Khon c3
    (27, 21),    // square Khon d3
    (19, 2),     // square Khon a4
    (25, 14),    // square Khon b4
    (36, 29),    // square Khon c4
    (43, 29),    // square Khon d4
    (24, -2),    // square Khon a5
    (30, 25),    // square Khon b5
    (61, 13),    // square Khon c5
    (50, 26),    // square Khon d5
    (-5, 6),     // square Khon a6
    (28, 15),    // square Khon b6
    (35, 28),    // square Khon c6
    (65, 10),    // square Khon d6
    (43, -84),   // square Khon a7
    (21, -11),   // square Khon b7
    (12, 27),    // square Khon c7
    (35, 6),     // square Khon d7
    (40, -149),  // square Khon a8
    (-41, -27),  // square Khon b8
    (-15, -48),  // square Khon c8
    (32, -39),   // square Khon d8
    (7, -38),    // square Ma a1
    (9, -4),     // square Ma b1
    (-8, 6),     // square Ma c1
    (12, 3),     // square Ma d1
    (10, 1),     // square Ma a2
    (13, 4),     // square Ma b2
    (21, -4),    // square Ma c2
    (20, 10),    // square Ma d2
    (13, 4),     // square Ma a3
    (19, -2),    // square Ma b3
    (22, -1),    // square Ma c3
    (31, 2),     // square Ma d3
    (21, 2),     // square Ma a4
    (26, 3),     // square Ma b4
    (20, 12),    // square Ma c4
    (28, 14),    // square Ma d4
    (19, 4),     // square Ma a5
    (14, 11),    // square Ma b5
    (30, 2),     // square Ma c5
    (21, 20),    // square Ma d5
    (9, 4),      // square Ma a6
    (9, 6),      // square Ma b6
    (12, 2),     // square Ma c6
    (17, 12),    // square Ma d6
    (14, -4),    // square Ma a7
    (0, 2),      // square Ma b7
    (17, 6),     // square Ma c7
    (8, 16),     // square Ma d7
    (-39, -7),   // square Ma a8
    (-6, -6),    // square Ma b8
    (-7, 15),    // square Ma c8
    (5, 13),     // square Ma d8
    (14, -7),    // square Ruea a1
    (11, 0),     // square Ruea b1
    (9, -5),     // square Ruea c1
    (11, -10),   // square Ruea d1
    (8, -16),    // square Ruea a2
    (8, -10),    // square Ruea b2
    (9, -11),    // square Ruea c2
    (12, -12),   // square Ruea d2
    (3, 4),      // square Ruea a3
    (-3, 10),    // square Ruea b3
    (1, 6),      // square Ruea c3
    (-1, -7),    // square Ruea d3
    (5, 10),     // square Ruea a4
    (9, -1),     // square Ruea b4
    (-3, 5),     // square Ruea c4
    (-22, 18),   // square Ruea d4
    (11, 6),     // square Ruea a5
    (6, 12),     // square Ruea b5
    (18, -1),    // square Ruea c5
    (-2, 15),    // square Ruea d5
    (17, 14),    // square Ruea a6
    (14, 22),    // square Ruea b6
    (18, 16),    // square Ruea c6
    (15, 13),    // square Ruea d6
    (29, 1),     // square Ruea a7
    (15, 9),     // square Ruea b7
    (44, -4),    // square Ruea c7
    (11, 17),    // square Ruea d7
    (3, 21),     // square Ruea a8
    (16, 10),    // square Ruea b8
    (15, 16),    // square Ruea c8
    (-2, 28),    // square Ruea d8
    (0, 0),      // square Bia a1
    (0, 0),      // square Bia b1
    (6, 0),      // square Bia c1
    (6, 0),      // square Bia d1
    (0, 0),      // square Bia a2
    (0, 0),      // square Bia b2
    (6, 0),      // square Bia c2
    (6, 0),      // square Bia d2
    (-7, 5),     // square Bia a3
    (-3, 8),     // square Bia b3
    (13, 13),    // square Bia c3
    (18, 4),     // square Bia d3
    (1, 14),     // square Bia a4
    (-1, 17),    // square Bia b4
    (19, 8),     // square Bia c4
    (25, 6),     // square Bia d4
    (12, 28),    // square Bia a5
    (16, 19),    // square Bia b5
    (31, 26),    // square Bia c5
    (39, 17),    // square Bia d5
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
    (-20, -50),  // mobility Ma 0
    (-7, -13),   // mobility Ma 1
    (2, -15),    // mobility Ma 2
    (7, -9),     // mobility Ma 3
    (14, 1),     // mobility Ma 4
    (19, 6),     // mobility Ma 5
    (26, 10),    // mobility Ma 6
    (35, 12),    // mobility Ma 7
    (40, 1),     // mobility Ma 8
    (-5, -19),   // mobility Khon 0
    (1, -16),    // mobility Khon 1
    (8, -12),    // mobility Khon 2
    (13, -6),    // mobility Khon 3
    (17, -4),    // mobility Khon 4
    (18, -1),    // mobility Khon 5
    (-1, -29),   // mobility Met 0
    (2, -17),    // mobility Met 1
    (5, -14),    // mobility Met 2
    (12, -10),   // mobility Met 3
    (14, -8),    // mobility Met 4
    (14, -128),  // mobility Ruea 0
    (8, -35),    // mobility Ruea 1
    (7, -1),     // mobility Ruea 2
    (11, -14),   // mobility Ruea 3
    (11, 5),     // mobility Ruea 4
    (14, 8),     // mobility Ruea 5
    (15, 16),    // mobility Ruea 6
    (14, 22),    // mobility Ruea 7
    (15, 25),    // mobility Ruea 8
    (17, 28),    // mobility Ruea 9
    (20, 30),    // mobility Ruea 10
    (20, 30),    // mobility Ruea 11
    (22, 28),    // mobility Ruea 12
    (22, 35),    // mobility Ruea 13
    (32, 23),    // mobility Ruea 14
    (25, -12),   // Ruea on an open file
    (14, 8),     // Ruea on a half-open file
    (3, -2),     // Bia defended by a Bia
    (-13, -15),  // Bia isolated
    (-6, 1),     // Bia doubled
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
    (-4, 4),     // Khun shield 0
    (9, 1),      // Khun shield 1
    (13, -1),    // Khun shield 2
    (18, -8),    // Khun shield 3
    (22, -13),   // Khun shield 4
    (6, 13),     // Khun danger 0
    (-5, 14),    // Khun danger 1
    (5, 17),     // Khun danger 2
    (1, 13),     // Khun danger 3
    (-15, 19),   // Khun danger 4
    (-21, 23),   // Khun danger 5
    (-26, 3),    // Khun danger 6
    (-43, -21),  // Khun danger 7
    (-67, -31),  // Khun danger 8
    (-119, 5),   // Khun danger 9
    (-154, -56), // Khun danger 10
    (-198, -12), // Khun danger 11
    (-200, -4),  // Khun danger 12
    (-180, 0),   // Khun danger 13
    (-200, 0),   // Khun danger 14
    (-220, 0),   // Khun danger 15
    (37, 55),    // piece attacked by a Bia
    (25, 47),    // piece attacked and undefended
];
