//! Placeholder; filled by its game's issue.
