use std::io::Write;

use super::position_from;
use crate::cli::args::PositionArgs;
use crate::cli::exit::CliError;
use xpgn::rules::Registry;

/// `xpgn key`: the position's key as the datasets' `positions.key` column
/// holds it (the 64 bits as a signed integer), in decimal.
pub(super) fn run(
    registry: &Registry,
    position: &PositionArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let pos = position_from(registry, position)?;
    writeln!(out, "{}", pos.key() as i64)?;
    Ok(())
}
