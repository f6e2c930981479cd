//! Reference construction of the 96-cell boards of three sections
//! (`../shared/rules/sections.md`), shared by `trichess` and `star`
//! (not written yet).
