//! The evaluation's weights, (middlegame, endgame) centipawns, in the order of
//! `evaluate::layout` (each line names its weight). Written by the Texel tuner
//! (`engine/examples/texel_tune.rs`; engine/README.md, "Texel tuning", has the data
//! and the command).

/// The weights, indexed by `evaluate::layout`.
pub const WEIGHTS: [(i32, i32); 278] = [
    (0, 0),      // value Khun
    (188, 188),  // value Met
    (277, 270),  // value Khon
    (320, 324),  // value Ma
    (512, 550),  // value Ruea
    (106, 112),  // value Bia
    (28, -32),   // square Khun a1
    (39, -31),   // square Khun b1
    (32, -27),   // square Khun c1
    (36, -29),   // square Khun d1
    (26, -33),   // square Khun a2
    (31, -21),   // square Khun b2
    (34, -17),   // square Khun c2
    (33, -15),   // square Khun d2
    (46, -37),   // square Khun a3
    (25, -11),   // square Khun b3
    (23, -7),    // square Khun c3
    (13, -2),    // square Khun d3
    (-27, -2),   // square Khun a4
    (11, 2),     // square Khun b4
    (-7, 18),    // square Khun c4
    (-6, 15),    // square Khun d4
    (-55, 22),   // square Khun a5
    (-13, 24),   // square Khun b5
    (-6, 29),    // square Khun c5
    (-13, 34),   // square Khun d5
    (-116, 23),  // square Khun a6
    (-16, 24),   // square Khun b6
    (-35, 35),   // square Khun c6
    (-15, 42),   // square Khun d6
    (-166, 42),  // square Khun a7
    (-74, 40),   // square Khun b7
    (-70, 49),   // square Khun c7
    (-88, 55),   // square Khun d7
    (-185, 44),  // square Khun a8
    (-79, 59),   // square Khun b8
    (-159, 45),  // square Khun c8
    (-263, 42),  // square Khun d8
    (20, -35),   // square Met a1
    (-11, -11),  // square Met b1
    (-16, 7),    // square Met c1
    (-9, -2),    // square Met d1
    (-15, -20),  // square Met a2
    (-3, 7),     // square Met b2
    (-1, 12),    // square Met c2
    (0, 13),     // square Met d2
    (-16, 8),    // square Met a3
    (9, 13),     // square Met b3
    (6, 19),     // square Met c3
    (13, 19),    // square Met d3
    (-1, 9),     // square Met a4
    (40, -3),    // square Met b4
    (27, 18),    // square Met c4
    (36, 19),    // square Met d4
    (6, 12),     // square Met a5
    (19, 15),    // square Met b5
    (34, 11),    // square Met c5
    (24, 28),    // square Met d5
    (-5, 14),    // square Met a6
    (13, 22),    // square Met b6
    (25, 21),    // square Met c6
    (36, 23),    // square Met d6
    (-35, -33),  // square Met a7
    (20, 3),     // square Met b7
    (24, 8),     // square Met c7
    (21, 2),     // square Met d7
    (-25, -43),  // square Met a8
    (-19, -24),  // square Met b8
    (64, -61),   // square Met c8
    (38, -38),   // square Met d8
    (-6, -2),    // square Khon a1
    (4, -9),     // square Khon b1
    (-10, 17),   // square Khon c1
    (-8, 3),     // square Khon d1
    (-6, -19),   // square Khon a2
    (-2, 10),    // square Khon b2
    (3, 13),     // square Khon c2
    (4, 15),     // square Khon d2
    (9, -4),     // square Khon a3
    (9, 18),     // square Khon b3
    (14, 18),    // square Khon c3
    (19, 24),    // square Khon d3
    (5, 16),     // square Khon a4
    (16, 16),    // square Khon b4
    (28, 29),    // square Khon c4
    (35, 29),    // square Khon d4
    (15, 17),    // square Khon a5
    (24, 27),    // square Khon b5
    (43, 19),    // square Khon c5
    (42, 31),    // square Khon d5
    (-5, 9),     // square Khon a6
    (8, 21),     // square Khon b6
    (32, 30),    // square Khon c6
    (51, 14),    // square Khon d6
    (23, -60),   // square Khon a7
    (38, -7),    // square Khon b7
    (2, 31),     // square Khon c7
    (12, 19),    // square Khon d7
    (77, -141),  // square Khon a8
    (-55, -21),  // square Khon b8
    (28, -71),   // square Khon c8
    (81, -53),   // square Khon d8
    (7, -20),    // square Ma a1
    (7, -1),     // square Ma b1
    (-2, -6),    // square Ma c1
    (11, -1),    // square Ma d1
    (6, 6),      // square Ma a2
    (10, 9),     // square Ma b2
    (17, -8),    // square Ma c2
    (14, 9),     // square Ma d2
    (9, 3),      // square Ma a3
    (12, 6),     // square Ma b3
    (19, 3),     // square Ma c3
    (22, 1),     // square Ma d3
    (12, 13),    // square Ma a4
    (13, -3),    // square Ma b4
    (13, 10),    // square Ma c4
    (23, 22),    // square Ma d4
    (11, 12),    // square Ma a5
    (11, 13),    // square Ma b5
    (15, 10),    // square Ma c5
    (19, 17),    // square Ma d5
    (-6, 10),    // square Ma a6
    (2, 7),      // square Ma b6
    (12, 10),    // square Ma c6
    (14, 15),    // square Ma d6
    (18, -5),    // square Ma a7
    (-6, 18),    // square Ma b7
    (14, 16),    // square Ma c7
    (9, 25),     // square Ma d7
    (-38, 9),    // square Ma a8
    (2, -33),    // square Ma b8
    (-28, 33),   // square Ma c8
    (-14, 22),   // square Ma d8
    (-1, -2),    // square Ruea a1
    (-2, 3),     // square Ruea b1
    (-3, -4),    // square Ruea c1
    (0, -8),     // square Ruea d1
    (-5, -6),    // square Ruea a2
    (-2, -3),    // square Ruea b2
    (-1, -11),   // square Ruea c2
    (0, -5),     // square Ruea d2
    (-5, 0),     // square Ruea a3
    (-9, 1),     // square Ruea b3
    (0, 1),      // square Ruea c3
    (-5, -12),   // square Ruea d3
    (-4, 9),     // square Ruea a4
    (-2, 10),    // square Ruea b4
    (-13, 13),   // square Ruea c4
    (-12, 10),   // square Ruea d4
    (5, 6),      // square Ruea a5
    (-9, 18),    // square Ruea b5
    (9, 1),      // square Ruea c5
    (-13, 19),   // square Ruea d5
    (8, 11),     // square Ruea a6
    (1, 24),     // square Ruea b6
    (14, 16),    // square Ruea c6
    (-16, 23),   // square Ruea d6
    (15, -1),    // square Ruea a7
    (4, 11),     // square Ruea b7
    (41, -1),    // square Ruea c7
    (5, 22),     // square Ruea d7
    (0, 14),     // square Ruea a8
    (2, 5),      // square Ruea b8
    (16, 5),     // square Ruea c8
    (-1, 14),    // square Ruea d8
    (0, 0),      // square Bia a1
    (0, 0),      // square Bia b1
    (6, 0),      // square Bia c1
    (6, 0),      // square Bia d1
    (0, 0),      // square Bia a2
    (0, 0),      // square Bia b2
    (6, 0),      // square Bia c2
    (6, 0),      // square Bia d2
    (-7, 3),     // square Bia a3
    (-2, 3),     // square Bia b3
    (9, 12),     // square Bia c3
    (16, 4),     // square Bia d3
    (2, 13),     // square Bia a4
    (2, 14),     // square Bia b4
    (18, 9),     // square Bia c4
    (23, 11),    // square Bia d4
    (13, 31),    // square Bia a5
    (20, 22),    // square Bia b5
    (28, 31),    // square Bia c5
    (38, 25),    // square Bia d5
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
    (-21, -57),  // mobility Ma 0
    (-14, -15),  // mobility Ma 1
    (-8, -8),    // mobility Ma 2
    (-4, -1),    // mobility Ma 3
    (2, 7),      // mobility Ma 4
    (8, 12),     // mobility Ma 5
    (15, 17),    // mobility Ma 6
    (21, 20),    // mobility Ma 7
    (25, 15),    // mobility Ma 8
    (-7, -9),    // mobility Khon 0
    (-3, -10),   // mobility Khon 1
    (1, -5),     // mobility Khon 2
    (7, 1),      // mobility Khon 3
    (11, 5),     // mobility Khon 4
    (10, 8),     // mobility Khon 5
    (-3, -23),   // mobility Met 0
    (-3, -8),    // mobility Met 1
    (1, -8),     // mobility Met 2
    (6, -3),     // mobility Met 3
    (7, 1),      // mobility Met 4
    (-6, -74),   // mobility Ruea 0
    (-6, -17),   // mobility Ruea 1
    (-6, -9),    // mobility Ruea 2
    (-3, -14),   // mobility Ruea 3
    (-3, 0),     // mobility Ruea 4
    (-2, 6),     // mobility Ruea 5
    (-1, 15),    // mobility Ruea 6
    (-1, 19),    // mobility Ruea 7
    (-1, 25),    // mobility Ruea 8
    (1, 29),     // mobility Ruea 9
    (3, 29),     // mobility Ruea 10
    (6, 26),     // mobility Ruea 11
    (8, 24),     // mobility Ruea 12
    (12, 28),    // mobility Ruea 13
    (21, 20),    // mobility Ruea 14
    (21, -7),    // Ruea on an open file
    (12, 6),     // Ruea on a half-open file
    (4, 6),      // Bia defended by a Bia
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
    (1, 1),      // Khun shield 0
    (8, 2),      // Khun shield 1
    (13, 2),     // Khun shield 2
    (15, -2),    // Khun shield 3
    (21, -6),    // Khun shield 4
    (3, 16),     // Khun danger 0
    (-2, 19),    // Khun danger 1
    (1, 23),     // Khun danger 2
    (1, 17),     // Khun danger 3
    (-19, 25),   // Khun danger 4
    (-18, 23),   // Khun danger 5
    (-28, -6),   // Khun danger 6
    (-36, -32),  // Khun danger 7
    (-39, -83),  // Khun danger 8
    (-146, -11), // Khun danger 9
    (-119, -39), // Khun danger 10
    (-198, -11), // Khun danger 11
    (-212, -7),  // Khun danger 12
    (-180, 0),   // Khun danger 13
    (-200, 0),   // Khun danger 14
    (-220, 0),   // Khun danger 15
    (31, 62),    // piece attacked by a Bia
    (24, 47),    // piece attacked and undefended
];
