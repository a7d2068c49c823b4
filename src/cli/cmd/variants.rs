use std::io::Write;

use crate::cli::exit::CliError;
use xpgn::notation::position::start_position;
use xpgn::rules::Registry;

pub(super) fn run(
    registry: &Registry,
    out: &mut dyn Write,
    show: Option<&str>,
) -> Result<(), CliError> {
    if let Some(name) = show {
        let v = registry.lookup(name).ok_or_else(|| {
            CliError::Usage(format!(
                "unknown variant `{name}` (known: {})",
                registry.known_names()
            ))
        })?;
        let text =
            v.def().source.as_deref().ok_or_else(|| {
                CliError::Usage(format!("{} was not defined by a file", v.name()))
            })?;
        out.write_all(text.as_bytes())?;
        return Ok(());
    }
    for v in registry.variants() {
        let size = v.size();
        writeln!(
            out,
            "{:<21} {:>5}  {:<30} {}",
            v.name(),
            format!("{}x{}", size.files, size.ranks),
            v.def().display_name,
            start_position(&v)
        )?;
        // The piece letters, as the variant's definition names them.
        let legend: Vec<String> = v
            .def()
            .pieces
            .iter()
            .map(|p| format!("{} {}", p.letter, p.name))
            .collect();
        writeln!(out, "    {}", legend.join(", "))?;
    }
    Ok(())
}
