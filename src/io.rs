//! `Read`/`Write` adapters (being written).
