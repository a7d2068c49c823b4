//! `xpgn serve`: the local web viewer.

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use super::shown;
use crate::cli::exit::CliError;
use xpgn::rules::Registry;
use xpgn::serve::{Config, ServeError, normalize_host, serve};

/// The bounds `--timeout`, `--request-timeout`, `--max-connections` and
/// `--workers` give, and the names of `--allow-host`.
pub(super) struct Limits {
    pub timeout: u64,
    pub request_timeout: u64,
    pub max_connections: u64,
    pub workers: u64,
    pub allow_host: Vec<String>,
}

pub(super) fn run(
    registry: &Registry,
    db: &str,
    addr: SocketAddr,
    limits: &Limits,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let allowed_hosts = limits
        .allow_host
        .iter()
        .map(|name| {
            normalize_host(name).ok_or_else(|| {
                CliError::Usage(format!(
                    "--allow-host {}: not a host name (letters, digits, `-` and `.`, without a port)",
                    shown(name)
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    // A database that cannot be read, or whose stored definitions clash
    // with the loaded ones, is reported as the other commands report it.
    if std::path::Path::new(db).exists() {
        super::query::open_to_read(registry, db)?;
    }
    let config = Config {
        db: db.into(),
        addr,
        deadline: Duration::from_secs(limits.timeout),
        request_timeout: Duration::from_secs(limits.request_timeout),
        max_connections: usize::try_from(limits.max_connections).unwrap_or(usize::MAX),
        workers: usize::try_from(limits.workers).unwrap_or(usize::MAX),
        variants: registry.clone(),
        allowed_hosts,
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
        Err(ServeError::Db { source, .. }) => Err(super::db_error(db, source)),
        Err(e @ ServeError::Bind { .. }) => Err(CliError::Usage(e.to_string())),
    }
}
