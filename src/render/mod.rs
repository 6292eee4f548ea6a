//! The board picture: SVG built from `assets/` → resvg/tiny-skia → PNG. CPU-bound: call it
//! from `tokio::task::spawn_blocking`.

pub mod cli;
