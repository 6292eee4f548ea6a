//! makruk-bot: play Makruk (Thai chess) in Discord channels.
//!
//! Layers (see `docs/DESIGN.md`): [`app`] builds the application and hands it to [`discord`],
//! which adapts Discord to the [`game`] service, which uses the `makruk` rules crate, the
//! [`store`] (sqlx) and the [`render`]er (SVG → PNG). The
//! plain [`types`] (ids, results, challenge and game views) are shared by the service and the
//! store, so that the store decodes rows into them and neither imports the other's internals.

pub mod analysis;
pub mod app;
pub mod clock;
pub mod computer;
pub mod discord;
pub mod game;
pub mod i18n;
pub mod puzzles;
pub mod rating;
pub mod render;
pub mod store;
pub mod tournament;
pub mod types;
