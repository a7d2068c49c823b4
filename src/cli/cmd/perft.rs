use std::io::Write;

use super::position_from;
use crate::cli::args::PositionArgs;
use crate::cli::exit::CliError;
use xpgn::notation::coord::write_coord;
use xpgn::rules::{Registry, perft, perft_divide};

pub(super) fn run(
    registry: &Registry,
    args: &PositionArgs,
    divide: bool,
    depth: u32,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let pos = position_from(registry, args)?;
    if divide && depth > 0 {
        let mut lines: Vec<(String, u64)> = perft_divide(&pos, depth)
            .into_iter()
            .map(|(m, n)| (write_coord(&pos, &m), n))
            .collect();
        lines.sort();
        let mut total = 0;
        for (m, n) in lines {
            writeln!(out, "{m} {n}")?;
            total += n;
        }
        writeln!(out, "{total}")?;
    } else {
        writeln!(out, "{}", perft(&pos, depth))?;
    }
    Ok(())
}
