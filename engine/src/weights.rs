//! The evaluation's weights, (middlegame, endgame) centipawns, in the order of
//! `evaluate::layout` (each line names its weight). Written by the Texel tuner
//! (`engine/examples/texel_tune.rs`, engine/README.md "Texel tuning"); this version holds the
//! hand-written evaluation's values, before any tuning.

/// The weights, indexed by `evaluate::layout`.
pub const WEIGHTS: [(i32, i32); 278] = [
    (0, 0),     // value Khun
    (180, 200), // value Met
    (270, 280), // value Khon
    (310, 320), // value Ma
    (500, 520), // value Ruea
    (100, 120), // value Bia
    (12, 0),    // square Khun a1
    (12, 0),    // square Khun b1
    (12, 0),    // square Khun c1
    (12, 0),    // square Khun d1
    (4, 0),     // square Khun a2
    (4, 10),    // square Khun b2
    (4, 10),    // square Khun c2
    (4, 10),    // square Khun d2
    (-12, 0),   // square Khun a3
    (-12, 10),  // square Khun b3
    (-12, 20),  // square Khun c3
    (-12, 20),  // square Khun d3
    (-24, 0),   // square Khun a4
    (-24, 10),  // square Khun b4
    (-24, 20),  // square Khun c4
    (-24, 30),  // square Khun d4
    (-36, 0),   // square Khun a5
    (-36, 10),  // square Khun b5
    (-36, 20),  // square Khun c5
    (-36, 30),  // square Khun d5
    (-48, 0),   // square Khun a6
    (-48, 10),  // square Khun b6
    (-48, 20),  // square Khun c6
    (-48, 20),  // square Khun d6
    (-60, 0),   // square Khun a7
    (-60, 10),  // square Khun b7
    (-60, 10),  // square Khun c7
    (-60, 10),  // square Khun d7
    (-72, 0),   // square Khun a8
    (-72, 0),   // square Khun b8
    (-72, 0),   // square Khun c8
    (-72, 0),   // square Khun d8
    (0, 0),     // square Met a1
    (0, 0),     // square Met b1
    (0, 0),     // square Met c1
    (0, 0),     // square Met d1
    (2, 0),     // square Met a2
    (7, 6),     // square Met b2
    (7, 6),     // square Met c2
    (7, 6),     // square Met d2
    (4, 0),     // square Met a3
    (9, 6),     // square Met b3
    (14, 12),   // square Met c3
    (14, 12),   // square Met d3
    (6, 0),     // square Met a4
    (11, 6),    // square Met b4
    (16, 12),   // square Met c4
    (21, 18),   // square Met d4
    (8, 0),     // square Met a5
    (13, 6),    // square Met b5
    (18, 12),   // square Met c5
    (23, 18),   // square Met d5
    (10, 0),    // square Met a6
    (15, 6),    // square Met b6
    (20, 12),   // square Met c6
    (20, 12),   // square Met d6
    (10, 0),    // square Met a7
    (15, 6),    // square Met b7
    (15, 6),    // square Met c7
    (15, 6),    // square Met d7
    (10, 0),    // square Met a8
    (10, 0),    // square Met b8
    (10, 0),    // square Met c8
    (10, 0),    // square Met d8
    (0, 0),     // square Khon a1
    (0, 0),     // square Khon b1
    (0, 0),     // square Khon c1
    (0, 0),     // square Khon d1
    (3, 0),     // square Khon a2
    (9, 5),     // square Khon b2
    (9, 5),     // square Khon c2
    (9, 5),     // square Khon d2
    (6, 0),     // square Khon a3
    (12, 5),    // square Khon b3
    (18, 10),   // square Khon c3
    (18, 10),   // square Khon d3
    (9, 0),     // square Khon a4
    (15, 5),    // square Khon b4
    (21, 10),   // square Khon c4
    (27, 15),   // square Khon d4
    (12, 0),    // square Khon a5
    (18, 5),    // square Khon b5
    (24, 10),   // square Khon c5
    (30, 15),   // square Khon d5
    (15, 0),    // square Khon a6
    (21, 5),    // square Khon b6
    (27, 10),   // square Khon c6
    (27, 10),   // square Khon d6
    (15, 0),    // square Khon a7
    (21, 5),    // square Khon b7
    (21, 5),    // square Khon c7
    (21, 5),    // square Khon d7
    (15, 0),    // square Khon a8
    (15, 0),    // square Khon b8
    (15, 0),    // square Khon c8
    (15, 0),    // square Khon d8
    (0, 0),     // square Ma a1
    (0, 0),     // square Ma b1
    (0, 0),     // square Ma c1
    (0, 0),     // square Ma d1
    (0, 0),     // square Ma a2
    (8, 6),     // square Ma b2
    (8, 6),     // square Ma c2
    (8, 6),     // square Ma d2
    (0, 0),     // square Ma a3
    (8, 6),     // square Ma b3
    (16, 12),   // square Ma c3
    (16, 12),   // square Ma d3
    (0, 0),     // square Ma a4
    (8, 6),     // square Ma b4
    (16, 12),   // square Ma c4
    (24, 18),   // square Ma d4
    (0, 0),     // square Ma a5
    (8, 6),     // square Ma b5
    (16, 12),   // square Ma c5
    (24, 18),   // square Ma d5
    (0, 0),     // square Ma a6
    (8, 6),     // square Ma b6
    (16, 12),   // square Ma c6
    (16, 12),   // square Ma d6
    (0, 0),     // square Ma a7
    (8, 6),     // square Ma b7
    (8, 6),     // square Ma c7
    (8, 6),     // square Ma d7
    (0, 0),     // square Ma a8
    (0, 0),     // square Ma b8
    (0, 0),     // square Ma c8
    (0, 0),     // square Ma d8
    (0, 0),     // square Ruea a1
    (0, 0),     // square Ruea b1
    (0, 0),     // square Ruea c1
    (0, 0),     // square Ruea d1
    (0, 0),     // square Ruea a2
    (0, 0),     // square Ruea b2
    (0, 0),     // square Ruea c2
    (0, 0),     // square Ruea d2
    (0, 0),     // square Ruea a3
    (0, 0),     // square Ruea b3
    (0, 0),     // square Ruea c3
    (0, 0),     // square Ruea d3
    (0, 0),     // square Ruea a4
    (0, 0),     // square Ruea b4
    (0, 0),     // square Ruea c4
    (0, 0),     // square Ruea d4
    (0, 0),     // square Ruea a5
    (0, 0),     // square Ruea b5
    (0, 0),     // square Ruea c5
    (0, 0),     // square Ruea d5
    (0, 0),     // square Ruea a6
    (0, 0),     // square Ruea b6
    (0, 0),     // square Ruea c6
    (0, 0),     // square Ruea d6
    (0, 0),     // square Ruea a7
    (0, 0),     // square Ruea b7
    (0, 0),     // square Ruea c7
    (0, 0),     // square Ruea d7
    (0, 0),     // square Ruea a8
    (0, 0),     // square Ruea b8
    (0, 0),     // square Ruea c8
    (0, 0),     // square Ruea d8
    (0, 0),     // square Bia a1
    (0, 0),     // square Bia b1
    (6, 0),     // square Bia c1
    (6, 0),     // square Bia d1
    (0, 0),     // square Bia a2
    (0, 0),     // square Bia b2
    (6, 0),     // square Bia c2
    (6, 0),     // square Bia d2
    (0, 0),     // square Bia a3
    (0, 0),     // square Bia b3
    (6, 0),     // square Bia c3
    (6, 0),     // square Bia d3
    (8, 12),    // square Bia a4
    (8, 12),    // square Bia b4
    (14, 12),   // square Bia c4
    (14, 12),   // square Bia d4
    (22, 35),   // square Bia a5
    (22, 35),   // square Bia b5
    (28, 35),   // square Bia c5
    (28, 35),   // square Bia d5
    (0, 0),     // square Bia a6
    (0, 0),     // square Bia b6
    (6, 0),     // square Bia c6
    (6, 0),     // square Bia d6
    (0, 0),     // square Bia a7
    (0, 0),     // square Bia b7
    (6, 0),     // square Bia c7
    (6, 0),     // square Bia d7
    (0, 0),     // square Bia a8
    (0, 0),     // square Bia b8
    (6, 0),     // square Bia c8
    (6, 0),     // square Bia d8
    (-20, -16), // mobility Ma 0
    (-15, -12), // mobility Ma 1
    (-10, -8),  // mobility Ma 2
    (-5, -4),   // mobility Ma 3
    (0, 0),     // mobility Ma 4
    (5, 4),     // mobility Ma 5
    (10, 8),    // mobility Ma 6
    (15, 12),   // mobility Ma 7
    (20, 16),   // mobility Ma 8
    (-8, -6),   // mobility Khon 0
    (-4, -3),   // mobility Khon 1
    (0, 0),     // mobility Khon 2
    (4, 3),     // mobility Khon 3
    (8, 6),     // mobility Khon 4
    (12, 9),    // mobility Khon 5
    (-8, -8),   // mobility Met 0
    (-4, -4),   // mobility Met 1
    (0, 0),     // mobility Met 2
    (4, 4),     // mobility Met 3
    (8, 8),     // mobility Met 4
    (-14, -21), // mobility Ruea 0
    (-12, -18), // mobility Ruea 1
    (-10, -15), // mobility Ruea 2
    (-8, -12),  // mobility Ruea 3
    (-6, -9),   // mobility Ruea 4
    (-4, -6),   // mobility Ruea 5
    (-2, -3),   // mobility Ruea 6
    (0, 0),     // mobility Ruea 7
    (2, 3),     // mobility Ruea 8
    (4, 6),     // mobility Ruea 9
    (6, 9),     // mobility Ruea 10
    (8, 12),    // mobility Ruea 11
    (10, 15),   // mobility Ruea 12
    (12, 18),   // mobility Ruea 13
    (14, 21),   // mobility Ruea 14
    (22, 12),   // Ruea on an open file
    (10, 6),    // Ruea on a half-open file
    (8, 10),    // Bia defended by a Bia
    (-8, -12),  // Bia isolated
    (-6, -10),  // Bia doubled
    (0, 0),     // ASEAN Bia rank 1
    (0, 0),     // ASEAN Bia rank 2
    (0, 0),     // ASEAN Bia rank 3
    (6, 10),    // ASEAN Bia rank 4
    (14, 24),   // ASEAN Bia rank 5
    (26, 45),   // ASEAN Bia rank 6
    (45, 80),   // ASEAN Bia rank 7
    (0, 0),     // ASEAN Bia rank 8
    (0, 0),     // Sittuyin Bia rank 1
    (0, 0),     // Sittuyin Bia rank 2
    (0, 0),     // Sittuyin Bia rank 3
    (6, 10),    // Sittuyin Bia rank 4
    (16, 26),   // Sittuyin Bia rank 5
    (20, 32),   // Sittuyin Bia rank 6
    (20, 32),   // Sittuyin Bia rank 7
    (20, 32),   // Sittuyin Bia rank 8
    (6, 0),     // ASEAN and Sittuyin Bia on files c-f
    (0, 0),     // Khun shield 0
    (6, 0),     // Khun shield 1
    (12, 0),    // Khun shield 2
    (18, 0),    // Khun shield 3
    (24, 0),    // Khun shield 4
    (0, 0),     // Khun danger 0
    (0, 0),     // Khun danger 1
    (-4, 0),    // Khun danger 2
    (-10, 0),   // Khun danger 3
    (-20, 0),   // Khun danger 4
    (-32, 0),   // Khun danger 5
    (-46, 0),   // Khun danger 6
    (-62, 0),   // Khun danger 7
    (-80, 0),   // Khun danger 8
    (-100, 0),  // Khun danger 9
    (-120, 0),  // Khun danger 10
    (-140, 0),  // Khun danger 11
    (-160, 0),  // Khun danger 12
    (-180, 0),  // Khun danger 13
    (-200, 0),  // Khun danger 14
    (-220, 0),  // Khun danger 15
    (55, 35),   // piece attacked by a Bia
    (25, 20),   // piece attacked and undefended
];
