//! Standard Algebraic Notation (SAN) of classical chess, as the PGN
//! standard (section 8.2.3) defines it: `e4`, `Nbd7`, `R1e2`, `Qh4e1`,
//! `exd6`, `e8=Q`, `O-O`, `O-O-O`, with `+` after a check and `#` after a
//! mate.
//!
//! A piece move names the piece's letter, then, when another piece of the
//! same kind could move to the same cell, the origin's file if that tells
//! them apart, else its rank if that does, else both. A pawn's capture
//! names the pawn's file. Other games have no SAN: their moves are written
//! and read on the wire ([`Position::move_text`]).

use crate::game::CastlingSide;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Cell, PieceKind};

/// Castling with the king's rook.
pub const KINGSIDE_CASTLING: &str = "O-O";
/// Castling with the queen's rook.
pub const QUEENSIDE_CASTLING: &str = "O-O-O";
/// Castling as some programs write it, with zeros.
const KINGSIDE_CASTLING_ZEROS: &str = "0-0";
/// Queenside castling with zeros.
const QUEENSIDE_CASTLING_ZEROS: &str = "0-0-0";
/// Marks a capture.
const CAPTURE_MARK: char = 'x';
/// Marks a capture in some older records.
const OLD_CAPTURE_MARK: char = ':';
/// Stands before the piece a pawn promotes to.
const PROMOTION_MARK: char = '=';
/// Follows a move that gives check.
const CHECK_MARK: char = '+';
/// Follows a move that mates.
const MATE_MARK: char = '#';
/// What may follow a move and is not part of it: check and mate marks and
/// the assessments `!`, `?`, `!!`, `??`, `!?`, `?!`.
const SUFFIX_MARKS: [char; 4] = [CHECK_MARK, MATE_MARK, '!', '?'];
/// Bytes of the file in a chess cell's name (`e` of `e4`); the rank follows.
const FILE_BYTES: usize = 1;
/// Bytes of a chess cell's name.
const CELL_BYTES: usize = 2;

/// The file of a chess cell's name.
fn file_of(name: &str) -> &str {
    &name[..FILE_BYTES]
}

/// The rank of a chess cell's name.
fn rank_of(name: &str) -> &str {
    &name[FILE_BYTES..]
}

/// The castling side written as `text`, if it is a castling.
fn castling_side(text: &str) -> Option<CastlingSide> {
    match text {
        KINGSIDE_CASTLING | KINGSIDE_CASTLING_ZEROS => Some(CastlingSide::Right),
        QUEENSIDE_CASTLING | QUEENSIDE_CASTLING_ZEROS => Some(CastlingSide::Left),
        _ => None,
    }
}

/// What the text of a piece or pawn move says, once read.
struct SanParts {
    kind: PieceKind,
    from_file: Option<char>,
    from_rank: Option<char>,
    capture: bool,
    to: Cell,
    promotion: Option<PieceKind>,
}

impl Position {
    /// The move in SAN with its check or mate mark, e.g. `Nbd7`, `exd6`,
    /// `e8=Q+`, `O-O-O#`. Outside classical chess, and for a move that is
    /// not legal here, the move's wire text ([`Position::move_text`]).
    pub fn san(&self, m: Move) -> String {
        if !self.game().facts.classical_notation {
            return self.move_text(m);
        }
        let legal = self.legal_moves();
        if !legal.contains(&m) {
            return self.move_text(m);
        }
        let mut text = self.san_of_legal(m, &legal);
        let mut after = self.scratch_copy();
        after.make(m);
        if after.in_check() {
            text.push(if after.legal_moves().is_empty() {
                MATE_MARK
            } else {
                CHECK_MARK
            });
        }
        text
    }

    /// The SAN of legal move `m` without its check mark; `legal` are the
    /// position's legal moves.
    fn san_of_legal(&self, m: Move, legal: &MoveList) -> String {
        if m.kind() == MoveKind::Castle {
            return match self.game().castlings[m.castle_index()].side {
                CastlingSide::Right => KINGSIDE_CASTLING,
                CastlingSide::Left => QUEENSIDE_CASTLING,
            }
            .to_string();
        }
        let g = &self.game().geometry;
        let kind = self.kind_moving(m);
        let from = g.name(m.from());
        let capture = self.captures(m);
        let mut text = String::new();
        if kind == PieceKind::Pawn {
            if capture {
                text.push_str(file_of(from));
            }
        } else {
            text.push(kind.letter());
            text.push_str(&self.disambiguation(m, kind, legal));
        }
        if capture {
            text.push(CAPTURE_MARK);
        }
        text.push_str(g.name(m.to()));
        if let Some(promotion) = m.promotion_kind() {
            text.push(PROMOTION_MARK);
            text.push(promotion.letter());
        }
        text
    }

    /// The kind of the piece `m` moves (a pawn if the cell is empty).
    fn kind_moving(&self, m: Move) -> PieceKind {
        self.piece_at(m.from())
            .map_or(PieceKind::Pawn, |piece| piece.kind())
    }

    /// Whether `m` takes a piece (en passant included).
    fn captures(&self, m: Move) -> bool {
        m.kind() == MoveKind::EnPassant
            || (m.kind() != MoveKind::Castle && self.piece_at(m.to()).is_some())
    }

    /// What tells the origin of piece move `m` apart from the other legal
    /// moves of a piece of `kind` to the same cell: nothing, the file, the
    /// rank, or both.
    fn disambiguation(&self, m: Move, kind: PieceKind, legal: &MoveList) -> String {
        let g = &self.game().geometry;
        let from = g.name(m.from());
        let rivals: Vec<&str> = legal
            .iter()
            .filter(|&&other| {
                other != m
                    && other.to() == m.to()
                    && other.kind() != MoveKind::Castle
                    && self.kind_moving(other) == kind
            })
            .map(|other| g.name(other.from()))
            .collect();
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|r| file_of(r) != file_of(from)) {
            file_of(from).to_string()
        } else if rivals.iter().all(|r| rank_of(r) != rank_of(from)) {
            rank_of(from).to_string()
        } else {
            from.to_string()
        }
    }

    /// The legal move written in SAN as `text`, or why there is none.
    /// Check and mate marks and assessments (`+`, `#`, `!`, `?`, `!?`...)
    /// may follow and are not checked; castling may be written with zeros,
    /// a capture with `:`, a promotion without `=` or with a small letter.
    /// A capture mark on a move that takes nothing is refused, a missing
    /// one is forgiven. Outside classical chess the move is read on the
    /// wire ([`Position::parse_move`]).
    pub fn parse_san(&self, text: &str) -> Result<Move, String> {
        if !self.game().facts.classical_notation {
            return self.parse_move(text).map_err(|e| e.to_string());
        }
        let core = text.trim().trim_end_matches(SUFFIX_MARKS);
        let legal = self.legal_moves();
        if let Some(side) = castling_side(core) {
            return legal
                .iter()
                .copied()
                .find(|&m| {
                    m.kind() == MoveKind::Castle
                        && self.game().castlings[m.castle_index()].side == side
                })
                .ok_or_else(|| format!("{text}: castling is not legal here"));
        }
        let parts = self.san_parts(core).ok_or_else(|| {
            format!("malformed move {text} (expected SAN such as e4, Nbd7, exd8=Q, O-O)")
        })?;
        let g = &self.game().geometry;
        let matches: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| {
                let from = g.name(m.from());
                m.kind() != MoveKind::Castle
                    && m.to() == parts.to
                    && self.kind_moving(m) == parts.kind
                    && m.promotion_kind() == parts.promotion
                    && parts.from_file.is_none_or(|f| file_of(from).starts_with(f))
                    && parts.from_rank.is_none_or(|r| rank_of(from).starts_with(r))
            })
            .collect();
        match matches[..] {
            [m] if parts.capture && !self.captures(m) => {
                Err(format!("{text}: marked as a capture but takes nothing"))
            }
            [m] => Ok(m),
            [] if parts.kind == PieceKind::Pawn
                && parts.promotion.is_none()
                && legal.iter().any(|m| m.to() == parts.to && m.promotes()) =>
            {
                Err(format!("{text}: the promotion piece is missing (e.g. =Q)"))
            }
            [] => Err(format!("illegal move {text}")),
            _ => Err(format!(
                "ambiguous move {text}: {}",
                matches
                    .iter()
                    .map(|&m| self.move_text(m))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// The parts of a piece or pawn move's SAN (without suffixes), if it
    /// is well-formed.
    fn san_parts(&self, core: &str) -> Option<SanParts> {
        if !core.is_ascii() {
            return None;
        }
        let (kind, rest) = match core.chars().next()? {
            letter @ ('N' | 'B' | 'R' | 'Q' | 'K') => {
                (PieceKind::from_letter(letter)?, &core[letter.len_utf8()..])
            }
            _ => (PieceKind::Pawn, core),
        };
        let (rest, promotion) = split_promotion(rest, kind)?;
        let split = rest.len().checked_sub(CELL_BYTES)?;
        let (prefix, target) = rest.split_at(split);
        let to = self.game().geometry.cell(target)?;
        let (prefix, capture) = match prefix.strip_suffix([CAPTURE_MARK, OLD_CAPTURE_MARK]) {
            Some(origin) => (origin, true),
            None => (prefix, false),
        };
        let mut origin = prefix.chars().peekable();
        let from_file = origin.next_if(char::is_ascii_lowercase);
        let from_rank = origin.next_if(char::is_ascii_digit);
        if origin.next().is_some() || (kind == PieceKind::Pawn && from_rank.is_some()) {
            return None;
        }
        Some(SanParts {
            kind,
            from_file,
            from_rank,
            capture,
            to,
            promotion,
        })
    }
}

/// A pawn move's text split into the move and the piece it promotes to
/// (`e8=Q`, `e8Q`, `e8=q`); `None` if a promotion is malformed.
fn split_promotion(text: &str, kind: PieceKind) -> Option<(&str, Option<PieceKind>)> {
    let last = text.chars().last()?;
    if last.is_ascii_digit() {
        return Some((text, None));
    }
    let promotion = PieceKind::from_letter(last).filter(|k| PieceKind::PROMOTIONS.contains(k))?;
    if kind != PieceKind::Pawn {
        return None;
    }
    let rest = &text[..text.len() - last.len_utf8()];
    Some((
        rest.strip_suffix(PROMOTION_MARK).unwrap_or(rest),
        Some(promotion),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    fn chess(fen: &str) -> Position {
        Position::from_fen(Variant::Chess, fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"))
    }

    fn san_of(pos: &Position, wire: &str) -> String {
        pos.san(pos.parse_move(wire).unwrap())
    }

    #[test]
    fn moves_of_the_start_position() {
        let pos = Position::start(Variant::Chess);
        assert_eq!(san_of(&pos, "e2e4"), "e4");
        assert_eq!(san_of(&pos, "g1f3"), "Nf3");
        assert_eq!(
            pos.parse_san("Nc3").map(|m| pos.move_text(m)),
            Ok("b1c3".into())
        );
        assert_eq!(
            pos.parse_san("e4!?").map(|m| pos.move_text(m)),
            Ok("e2e4".into())
        );
    }

    #[test]
    fn castling_checks_and_mates() {
        let kiwipete =
            chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        assert_eq!(san_of(&kiwipete, "e1g1"), "O-O");
        assert_eq!(san_of(&kiwipete, "e1c1"), "O-O-O");
        assert_eq!(
            kiwipete.parse_san("0-0-0").map(|m| kiwipete.move_text(m)),
            Ok("e1c1".into())
        );
        assert!(
            kiwipete.parse_san("Kg1").is_err(),
            "castling is written O-O"
        );
        let mate = chess("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(san_of(&mate, "a1a8"), "Ra8#");
        assert_eq!(san_of(&mate, "a1a7"), "Ra7");
        let check = chess("6k1/8/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(san_of(&check, "a1a8"), "Ra8+");
    }

    #[test]
    fn disambiguation_by_file_rank_and_both() {
        let queens = chess("k7/8/8/2Q1Q3/8/2Q1Q3/8/4K3 w - - 0 1");
        assert_eq!(san_of(&queens, "c3d4"), "Qc3d4");
        assert_eq!(san_of(&queens, "c3c4"), "Q3c4");
        assert_eq!(san_of(&queens, "c3d3"), "Qcd3");
        let rooks = chess("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(san_of(&rooks, "a1a3"), "R1a3");
        assert!(
            rooks
                .parse_san("Ra3")
                .unwrap_err()
                .starts_with("ambiguous move Ra3")
        );
    }

    #[test]
    fn pawn_captures_en_passant_and_promotions() {
        let ep = chess("4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(san_of(&ep, "c5d6"), "cxd6");
        assert_eq!(san_of(&ep, "e5d6"), "exd6");
        let promote = chess("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(san_of(&promote, "a7b8n"), "axb8=N");
        assert_eq!(san_of(&promote, "a7a8q"), "a8=Q");
        let check = chess("3k4/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(san_of(&check, "a7a8r"), "a8=R+");
        for text in ["a8=Q", "a8Q", "a8=q+"] {
            assert_eq!(
                promote.parse_san(text).map(|m| promote.move_text(m)),
                Ok("a7a8q".into()),
                "{text}"
            );
        }
        assert!(
            promote
                .parse_san("a8")
                .unwrap_err()
                .contains("promotion piece")
        );
        assert!(promote.parse_san("xa8=Q").is_err());
    }

    #[test]
    fn malformed_and_illegal_moves_are_refused() {
        let pos = Position::start(Variant::Chess);
        for text in [
            "", "e9", "Pe4", "Nf3x", "e2e4", "Ng1f3g", "é4", "Kxe2", "xe4",
        ] {
            assert!(pos.parse_san(text).is_err(), "{text}");
        }
        assert!(pos.parse_san("Nxf3").unwrap_err().contains("takes nothing"));
        assert_eq!(pos.parse_san("e5").unwrap_err(), "illegal move e5");
    }

    #[test]
    fn other_games_use_the_wire_text() {
        let pos = Position::start(Variant::Dreierschach);
        let m = pos.legal_moves()[0];
        assert_eq!(pos.san(m), pos.move_text(m));
        assert_eq!(pos.parse_san(&pos.san(m)), Ok(m));
    }
}
