//! Integration tests live in tests/*.rs.
