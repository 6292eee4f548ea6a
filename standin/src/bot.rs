//! Running a bot against the stand-in. The caller starts the bot (the stand-in does not know
//! the bot's code): it gets a [`Launch`] and returns the bot's future.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::{Standin, GUILD_ID, TOKEN, WAIT};

/// What a bot needs to connect to the stand-in, and when to stop.
pub struct Launch {
    /// `http://127.0.0.1:PORT`: the base URL of Discord's API for the bot (`DISCORD_API_URL`).
    pub api_url: String,
    /// The token the stand-in accepts ([`TOKEN`]).
    pub token: &'static str,
    /// The guild to register the commands in ([`GUILD_ID`]).
    pub guild_id: u64,
    /// Completes when the bot should shut down, as on SIGTERM.
    pub stop: Stop,
}

/// The stop signal of a [`Launch`]: a future that completes when [`Bot::stop`] is called or
/// the [`Bot`] is dropped.
pub struct Stop(oneshot::Receiver<()>);

impl Future for Stop {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        // A dropped sender (the `Bot` gone) also means stop.
        Pin::new(&mut self.0).poll(cx).map(|_| ())
    }
}

/// A bot running against a stand-in, as a task.
pub struct Bot {
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl Bot {
    /// Starts the bot returned by `launch` as a task and waits until it is connected to the
    /// gateway and has registered its commands.
    ///
    /// # Panics
    /// If that does not happen within [`WAIT`].
    pub async fn start<F>(standin: &Standin, launch: impl FnOnce(Launch) -> F) -> Bot
    where
        F: Future<Output = anyhow::Result<()>> + Send + 'static,
    {
        let registrations = standin.registrations();
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(launch(Launch {
            api_url: standin.base_url.clone(),
            token: TOKEN,
            guild_id: GUILD_ID,
            stop: Stop(stopped),
        }));
        let bot = Bot {
            stop: Some(stop),
            task: Some(task),
        };
        standin.wait_ready(registrations + 1).await;
        bot
    }

    /// Stops the bot as SIGTERM would and waits until it has shut down.
    ///
    /// # Panics
    /// If the bot does not stop within [`WAIT`], panicked, or ended with an error.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let result = tokio::time::timeout(WAIT, task)
                .await
                .expect("the bot stops in time")
                .expect("the bot task did not panic");
            if let Err(e) = result {
                panic!("the bot stopped with an error: {e:#}");
            }
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}
