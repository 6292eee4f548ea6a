//! makruk-bot: play Makruk (Thai chess) in Discord channels.
//!
//! Layers (see `docs/DESIGN.md`): [`discord`] adapts Discord to the [`game`] service, which
//! uses the `makruk` rules crate, the [`store`] (sqlx) and the [`render`]er (SVG → PNG).

pub mod clock;
pub mod computer;
pub mod discord;
pub mod game;
pub mod i18n;
pub mod render;
pub mod store;
