use std::io::Write;

use crate::cli::exit::CliError;
use crate::notation::position::start_position;
use crate::rules::Variant;

pub(super) fn run(out: &mut dyn Write) -> Result<(), CliError> {
    for v in Variant::builtin() {
        let size = v.size();
        writeln!(
            out,
            "{:<21} {:>5}  {:<30} {}",
            v.name(),
            format!("{}x{}", size.files, size.ranks),
            v.def().display_name,
            start_position(*v)
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
