//! The `xpgn` command.
