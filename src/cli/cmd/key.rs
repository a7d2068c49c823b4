use std::io::Write;

use super::position_from;
use crate::cli::args::PositionArgs;
use crate::cli::exit::CliError;
use xpgn::rules::{Registry, polyglot_key};

/// `xpgn key`: the position's key as the datasets' `positions.key` column
/// holds it (the 64 bits as a signed integer), in decimal; with
/// `--polyglot`, its Polyglot book key in hexadecimal (orthodox chess
/// only: another variant is a usage error).
pub(super) fn run(
    registry: &Registry,
    position: &PositionArgs,
    polyglot: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let pos = position_from(registry, position)?;
    if polyglot {
        let key = polyglot_key(&pos).ok_or_else(|| {
            CliError::Usage(format!(
                "--polyglot: Polyglot keys are defined for orthodox chess only, not {}",
                pos.variant().name()
            ))
        })?;
        writeln!(out, "{key:016x}")?;
        return Ok(());
    }
    writeln!(out, "{}", pos.key() as i64)?;
    Ok(())
}
