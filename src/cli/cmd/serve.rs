//! `xpgn serve`: the local web viewer.

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use super::shown;
use crate::cli::exit::CliError;
use crate::serve::{Config, ServeError, serve};

pub(super) fn run(
    db: &str,
    addr: SocketAddr,
    timeout: u64,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    // The viewer replays games of the user's variants the database stores.
    if std::path::Path::new(db).exists() {
        super::query::open_to_read(db)?;
    }
    let config = Config {
        db: db.into(),
        addr,
        deadline: Duration::from_secs(timeout),
    };
    let mut announced = Ok(());
    let served = serve(&config, |bound| {
        let mut line = format!("serving {} on http://{bound}/", shown(db));
        if !bound.ip().is_loopback() {
            line.push_str(" (not loopback: reachable from other machines)");
        }
        announced = writeln!(out, "{line}").and_then(|()| out.flush());
    });
    match served {
        Ok(()) => Ok(announced?),
        Err(ServeError::Db { source, .. }) => {
            Err(CliError::Usage(format!("--db {}: {source}", shown(db))))
        }
        Err(e @ ServeError::Bind { .. }) => Err(CliError::Usage(e.to_string())),
    }
}
