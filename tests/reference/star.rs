//! Reference rules of `star` (Davidstern chess for three,
//! `../shared/rules/star.md`, board of `sections.md` with the star column
//! rule): en passant for both opponents, castling over unattacked cells, the
//! duty to help, passing, the end after passes, frozen players.
//!
//! A position is a plain array from cell to piece; a move is made on a
//! clone; a move is legal when, after it, the mover's king is not attacked
//! by an opponent.

use super::sections::{
    Board, CELLS, Cell, Geometry, Kind, PROMOTIONS, Piece, Squares, castling_rule, parse_board,
    parse_castling,
};
use super::{Options, fen};

/// "Turn order: Blue (`b`, section 0), Green (`g`, section 1), Red (`r`,
/// section 2)."
const LETTERS: [char; 3] = ['b', 'g', 'r'];

/// "Start: each player R N B Q K B N R on A1..A8 (queen A4, king A5), pawns
/// on B1..B8." Blue moves first.
const START: &str = "8/8/bPbPbPbPbPbPbPbP/bRbNbBbQbKbBbNbR/8/8/gPgPgPgPgPgPgPgP/gRgNgBgQgKgBgNgR\
/8/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR b bKQgKQrKQ - 0 1";

fn geometry() -> &'static Geometry {
    Board::Star.geometry()
}

/// "A cell's name is section letter, row letter, column: `ba5` is Blue's
/// A5, `gd4` Green's D4."
pub fn name(cell: usize) -> String {
    let c = Cell::from_index(cell);
    format!("{}{}{}", LETTERS[c.s], (b'a' + c.y as u8 - 1) as char, c.x)
}

/// The cell of a name such as `bd4` (case-insensitive).
pub fn parse_name(text: &str) -> Option<usize> {
    let text = text.to_ascii_lowercase();
    (0..CELLS).find(|&c| name(c) == text)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Special {
    None,
    /// A pawn's two forward steps over this cell.
    DoubleStep {
        skipped: usize,
    },
    /// En passant, removing the pawn on this cell.
    EnPassant {
        captured: usize,
    },
    /// Castling; the rook moves as well.
    Castle {
        rook_from: usize,
        rook_to: usize,
    },
    /// "its only move is `0000`".
    Pass,
}

#[derive(Clone, Copy, Debug)]
struct Move {
    from: usize,
    to: usize,
    promotion: Option<Kind>,
    special: Special,
}

impl Move {
    fn wire(&self) -> String {
        if self.special == Special::Pass {
            return "0000".into();
        }
        let mut s = name(self.from) + &name(self.to);
        if let Some(k) = self.promotion {
            s.push(k.wire_letter());
        }
        s
    }
}

/// A live en-passant right: the player who made the two-step, the cell
/// its pawn passed over, the cell it stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EnPassant {
    player: usize,
    skipped: usize,
    pawn: usize,
}

#[derive(Clone)]
struct Position {
    board: Squares,
    to_move: usize,
    /// `castling[army][side]`, side 0 short (`K`), 1 long (`Q`).
    castling: [[bool; 2]; 3],
    /// "after a two-step, both opponents may capture en passant until the
    /// player who made the two-step moves again".
    en_passant: Vec<EnPassant>,
    /// Frozen players: skipped, pieces are obstacles that never attack.
    frozen: [bool; 3],
    /// Passes played in a row just before this position.
    passes: usize,
}

impl Position {
    fn active_players(&self) -> usize {
        self.frozen.iter().filter(|f| !**f).count()
    }

    /// The next player after `player` that is not frozen ("a frozen player
    /// is skipped in the turn order").
    fn next_active(&self, player: usize) -> usize {
        (1..=3)
            .map(|i| (player + i) % 3)
            .find(|&p| !self.frozen[p])
            .expect("someone is not frozen")
    }

    fn king(&self, player: usize) -> usize {
        (0..CELLS)
            .find(|&c| {
                self.board[c]
                    == Some(Piece {
                        army: player,
                        kind: Kind::King,
                    })
            })
            .expect("every army has a king")
    }

    /// "Attacked means: some piece of that player could move to the cell by
    /// the piece's capture rule if an enemy piece stood there." A frozen
    /// player's pieces "never attack".
    fn is_attacked_by(&self, target: usize, player: usize) -> bool {
        !self.frozen[player]
            && (0..CELLS).any(|from| match self.board[from] {
                Some(piece) if piece.army == player => geometry()
                    .attack_targets(piece, from, &self.board)
                    .contains(&target),
                _ => false,
            })
    }

    fn is_attacked_by_opponent(&self, target: usize, player: usize) -> bool {
        (0..3).any(|q| q != player && self.is_attacked_by(target, q))
    }

    /// Whether `player`'s king is attacked by either opponent.
    fn in_check(&self, player: usize) -> bool {
        self.is_attacked_by_opponent(self.king(player), player)
    }

    /// A cell `player` may move a piece to: empty, or an enemy piece that
    /// is not a king ("Kings are never captured"). Frozen players' pieces
    /// "can be captured".
    fn can_enter(&self, player: usize, cell: usize) -> bool {
        match self.board[cell] {
            None => true,
            Some(p) => p.army != player && p.kind != Kind::King,
        }
    }

    fn push_pawn_move(
        army: usize,
        from: usize,
        to: usize,
        special: Special,
        moves: &mut Vec<Move>,
    ) {
        if Geometry::is_promotion_cell(army, to) {
            for kind in PROMOTIONS {
                moves.push(Move {
                    from,
                    to,
                    promotion: Some(kind),
                    special,
                });
            }
        } else {
            moves.push(Move {
                from,
                to,
                promotion: None,
                special,
            });
        }
    }

    /// sections.md "Pawn": one forward step onto an empty cell ("on star,
    /// a pawn on a middle cell may choose either neighbour"); from its own
    /// row 2 two forward steps, both cells empty; a diagonal forward
    /// capture; promotion on row 1 of another section; en passant.
    fn pawn_moves(&self, player: usize, from: usize, moves: &mut Vec<Move>) {
        let geo = geometry();
        for to in geo.pawn_step_targets(player, from) {
            if self.board[to].is_none() {
                Self::push_pawn_move(player, from, to, Special::None, moves);
            }
        }
        if let Some((skipped, to)) = geo.pawn_double_step(player, from)
            && self.board[skipped].is_none()
            && self.board[to].is_none()
        {
            Self::push_pawn_move(player, from, to, Special::DoubleStep { skipped }, moves);
        }
        for to in geo.pawn_capture_targets(player, from) {
            match self.board[to] {
                Some(_) => {
                    if self.can_enter(player, to) {
                        Self::push_pawn_move(player, from, to, Special::None, moves);
                    }
                }
                None => {
                    for ep in &self.en_passant {
                        if ep.player != player
                            && ep.skipped == to
                            && self.board[ep.pawn]
                                == Some(Piece {
                                    army: ep.player,
                                    kind: Kind::Pawn,
                                })
                        {
                            Self::push_pawn_move(
                                player,
                                from,
                                to,
                                Special::EnPassant { captured: ep.pawn },
                                moves,
                            );
                        }
                    }
                }
            }
        }
    }

    /// "Castling: king A5 and the rook unmoved, the cells between empty and
    /// none of them attacked, the king not in check."
    fn castling_moves(&self, player: usize, moves: &mut Vec<Move>) {
        for side in 0..2 {
            if !self.castling[player][side] {
                continue;
            }
            let rule = castling_rule(player, side);
            if rule.between.iter().all(|&c| self.board[c].is_none())
                && rule
                    .between
                    .iter()
                    .all(|&c| !self.is_attacked_by_opponent(c, player))
                && !self.in_check(player)
            {
                moves.push(Move {
                    from: rule.king_from,
                    to: rule.king_to,
                    promotion: None,
                    special: Special::Castle {
                        rook_from: rule.rook_from,
                        rook_to: rule.rook_to,
                    },
                });
            }
        }
    }

    fn pseudo_legal_moves(&self) -> Vec<Move> {
        let player = self.to_move;
        let mut moves = Vec::new();
        for from in 0..CELLS {
            let Some(piece) = self.board[from] else {
                continue;
            };
            if piece.army != player {
                continue;
            }
            if piece.kind == Kind::Pawn {
                self.pawn_moves(player, from, &mut moves);
            } else {
                for to in geometry().attack_targets(piece, from, &self.board) {
                    if self.can_enter(player, to) {
                        moves.push(Move {
                            from,
                            to,
                            promotion: None,
                            special: Special::None,
                        });
                    }
                }
            }
        }
        self.castling_moves(player, &mut moves);
        moves
    }

    /// "No move may leave the mover's own king attacked by either
    /// opponent." (Before the duty to help.)
    fn legal_moves(&self) -> Vec<Move> {
        self.pseudo_legal_moves()
            .into_iter()
            .filter(|m| !self.play(m).in_check(self.to_move))
            .collect()
    }

    /// "the next player is not mated (not in check, or in check with a
    /// legal move)" — asked of the position after a move, where that next
    /// player is to move.
    fn is_mated(&self, player: usize) -> bool {
        debug_assert_eq!(self.to_move, player);
        self.in_check(player) && self.legal_moves().is_empty()
    }

    /// "Duty to help (Hilfspflicht): on a player's turn, if the next player
    /// is in check and no checking piece belongs to the player to move, the
    /// player to move may only make moves after which the next player is
    /// not mated — if it has any such move. If it has none, every legal
    /// move stays allowed (the mate stands)."
    fn duty_to_help(&self, legal: Vec<Move>) -> Vec<Move> {
        let player = self.to_move;
        let next = self.next_active(player);
        if next == player || !self.in_check(next) || self.is_attacked_by(self.king(next), player) {
            return legal;
        }
        let helping: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !self.play(m).is_mated(next))
            .collect();
        if helping.is_empty() { legal } else { helping }
    }

    /// The moves of the player to move, after the end rules ("Checked after
    /// every move, in this order: three passes in a row, mate, ..."); an
    /// empty list when the game is over.
    fn moves(&self) -> Vec<Move> {
        // "The game ends on points when every player that is not frozen has
        // passed in a row" (rule-decisions.md).
        if self.passes >= self.active_players() {
            return Vec::new();
        }
        let legal = self.legal_moves();
        if legal.is_empty() {
            // Mate ends the game; otherwise "a player with no legal move who
            // is not in check passes; its only move is `0000`".
            if self.in_check(self.to_move) {
                return Vec::new();
            }
            return vec![Move {
                from: 0,
                to: 0,
                promotion: None,
                special: Special::Pass,
            }];
        }
        self.duty_to_help(legal)
    }

    fn play(&self, m: &Move) -> Position {
        let player = self.to_move;
        let mut next = self.clone();
        next.to_move = self.next_active(player);
        // The mover's own en-passant right ends when it moves again.
        next.en_passant.retain(|ep| ep.player != player);
        if m.special == Special::Pass {
            next.passes += 1;
            return next;
        }
        next.passes = 0;
        let mut piece = next.board[m.from].take().expect("a piece moves");
        if let Some(kind) = m.promotion {
            piece.kind = kind;
        }
        next.board[m.to] = Some(piece);
        match m.special {
            Special::EnPassant { captured } => next.board[captured] = None,
            Special::Castle { rook_from, rook_to } => {
                next.board[rook_to] = next.board[rook_from].take();
            }
            _ => {}
        }
        // A right whose pawn has been captured is gone.
        next.en_passant.retain(|ep| {
            next.board[ep.pawn]
                == Some(Piece {
                    army: ep.player,
                    kind: Kind::Pawn,
                })
        });
        if let Special::DoubleStep { skipped } = m.special {
            next.en_passant.push(EnPassant {
                player,
                skipped,
                pawn: m.to,
            });
        }
        // Castling rights: lost when the king or that rook leaves its home
        // cell or something arrives there (a capture of the rook).
        for army in 0..3 {
            for side in 0..2 {
                let rule = castling_rule(army, side);
                if [rule.king_from, rule.rook_from]
                    .iter()
                    .any(|&c| c == m.from || c == m.to)
                {
                    next.castling[army][side] = false;
                }
            }
        }
        next
    }
}

impl super::Node for Position {
    type Move = Move;
    fn moves(&mut self) -> Vec<Move> {
        Position::moves(self)
    }
    fn play(&self, m: &Move) -> Position {
        Position::play(self, m)
    }
    fn wire(m: &Move) -> String {
        m.wire()
    }
}

fn letter_index(c: char) -> Option<usize> {
    LETTERS.iter().position(|&l| l == c)
}

/// Reads a position string: the board of sections.md, players `b g r`,
/// optional fields `frozen=`, `passes=`, `captured=`.
fn parse(text: &str) -> Result<Position, String> {
    let text = if text.trim() == "startpos" {
        START
    } else {
        text
    };
    let raw = fen::split(text)?;
    let board = parse_board(&raw, LETTERS, "star")?;
    let to_move = letter_index(raw.to_move)
        .ok_or_else(|| format!("star: bad player to move {:?}", raw.to_move))?;
    if raw.round == 0 {
        return Err("star: the round starts at 1".into());
    }
    for (army, letter) in LETTERS.iter().enumerate() {
        let kings = board
            .iter()
            .filter(|p| {
                **p == Some(Piece {
                    army,
                    kind: Kind::King,
                })
            })
            .count();
        if kings != 1 {
            return Err(format!("star: {letter} has {kings} kings"));
        }
    }
    let castling = parse_castling(&raw, LETTERS, &board, "star")?;

    let mut frozen = [false; 3];
    let mut passes = 0;
    for (key, value) in &raw.extra {
        match key.as_str() {
            "frozen" => {
                for c in value.chars() {
                    let p = letter_index(c)
                        .ok_or_else(|| format!("star: bad frozen field {value:?}"))?;
                    frozen[p] = true;
                }
            }
            "passes" => {
                passes = value
                    .parse()
                    .ok()
                    .filter(|&n| n <= 3)
                    .ok_or_else(|| format!("star: bad passes field {value:?}"))?;
            }
            "captured" => {
                // `<player><points>` for each player; points do not affect
                // move generation, only the syntax is checked.
                let mut rest = value.as_str();
                while let Some(c) = rest.chars().next() {
                    letter_index(c).ok_or_else(|| format!("star: bad captured field {value:?}"))?;
                    let digits = rest[1..]
                        .find(|ch: char| !ch.is_ascii_digit())
                        .map_or(rest.len(), |i| i + 1);
                    rest[1..digits]
                        .parse::<u32>()
                        .map_err(|_| format!("star: bad captured field {value:?}"))?;
                    rest = &rest[digits..];
                }
            }
            other => return Err(format!("star: unknown field {other:?}")),
        }
    }
    if frozen[to_move] {
        return Err("star: the player to move is frozen".into());
    }

    let mut en_passant: Vec<EnPassant> = Vec::new();
    if raw.en_passant != "-" {
        for entry in raw.en_passant.split(',') {
            let bad = || format!("star: bad en-passant entry {entry:?}");
            if entry.len() != 7 || !entry.is_ascii() {
                return Err(bad());
            }
            let player = letter_index(entry.chars().next().ok_or_else(bad)?).ok_or_else(bad)?;
            let skipped = parse_name(&entry[1..4]).ok_or_else(bad)?;
            let pawn = parse_name(&entry[4..7]).ok_or_else(bad)?;
            let (s, p) = (Cell::from_index(skipped), Cell::from_index(pawn));
            // The two-stepper's pawn on its own row D, the skipped cell behind.
            // The right lasts until the two-stepper moves again, so another
            // piece may meanwhile stand on the skipped cell (the right is
            // then unusable, star.md: capturing needs the cell free).
            let fits = p.s == player
                && p.y == 4
                && s == Cell { y: 3, ..p }
                && board[pawn]
                    == Some(Piece {
                        army: player,
                        kind: Kind::Pawn,
                    });
            if !fits || en_passant.iter().any(|e| e.player == player) {
                return Err(bad());
            }
            en_passant.push(EnPassant {
                player,
                skipped,
                pawn,
            });
        }
    }
    Ok(Position {
        board,
        to_move,
        castling,
        en_passant,
        frozen,
        passes,
    })
}

/// Perft split by root move; see `super::divide`.
pub fn divide(position: &str, options: &Options, depth: u32) -> Result<Vec<(String, u64)>, String> {
    super::no_options("star", options)?;
    super::split(parse(position)?, depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(cells: &[usize]) -> Vec<String> {
        let mut v: Vec<String> = cells.iter().map(|&c| name(c)).collect();
        v.sort();
        v
    }

    fn sorted(list: &str) -> Vec<String> {
        let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
        v.sort();
        v
    }

    #[test]
    fn crossing_goes_to_column_nine_minus_c() {
        // "from row D, column c, into the neighbour's row D, column 9 - c";
        // Green (next) on Blue's right (columns 4..8), Red on the left.
        let board = Board::Star;
        let step = |n: &str| -> Vec<String> {
            let c = Cell::from_index(parse_name(n).unwrap());
            let mut v: Vec<String> = board
                .orthogonal_step(c, 1, (0, 1))
                .into_iter()
                .map(|(c, _)| name(c.index()))
                .collect();
            v.sort();
            v
        };
        assert_eq!(step("bd1"), vec!["rd8"]);
        assert_eq!(step("bd3"), vec!["rd6"]);
        assert_eq!(step("bd4"), vec!["gd5", "rd5"]);
        assert_eq!(step("bd5"), vec!["gd4", "rd4"]);
        assert_eq!(step("bd6"), vec!["gd3"]);
    }

    #[test]
    fn middle_cells_join_three_others() {
        let board = Board::Star;
        let cell = |n: &str| Cell::from_index(parse_name(n).unwrap());
        let mut neighbours: Vec<String> = board
            .orthogonal_neighbours(cell("bd4"))
            .into_iter()
            .map(|c| name(c.index()))
            .collect();
        neighbours.sort();
        assert_eq!(neighbours, sorted("bc4 bd3 bd5 gd5 rd5"));
    }

    #[test]
    fn pawn_on_bd4_has_four_captures_and_two_steps() {
        let bd4 = parse_name("bd4").unwrap();
        assert_eq!(
            names(&geometry().pawn_capture_targets(0, bd4)),
            sorted("gd4 gd6 rd4 rd6")
        );
        assert_eq!(
            names(&geometry().pawn_step_targets(0, bd4)),
            sorted("gd5 rd5")
        );
    }

    #[test]
    fn start_position_is_symmetric() {
        let start = |to_move: &str| START.replace(" b bKQ", &format!(" {to_move} bKQ"));
        let count =
            |pos: &str| -> u64 { divide(pos, &[], 2).unwrap().iter().map(|(_, n)| n).sum() };
        let b = count(&start("b"));
        assert_eq!(b, count(&start("g")));
        assert_eq!(b, count(&start("r")));
    }

    #[test]
    fn knights_on_middle_cells_have_more_than_eight_targets() {
        for n in ["bd4", "bd5", "gd4", "gd5", "rd4", "rd5"] {
            let targets = geometry().knight_targets(parse_name(n).unwrap()).len();
            assert!(targets > 8, "{n}: {targets}");
        }
    }

    #[test]
    fn malformed_positions_are_errors() {
        let bad = [
            START.replace(" b bKQ", " w bKQ"),
            START.replace(" - 0 1", " - 0 1 frozen=b"),
            START.replace(" - 0 1", " - 0 1 passes=4"),
            START.replace(" - 0 1", " - 0 1 captured=b3x"),
            START.replace(" - 0 1", " - 0 1 out=g"),
            START.replace(" - 0 1", " bbc4bd4 0 1"),
            START.replace(" - 0 1", " - 0 0"),
            START.replace("bRbNbBbQbKbBbNbR", "bRbNbBbQ1bBbNbR"),
        ];
        for text in &bad {
            assert!(divide(text, &[], 1).is_err(), "{text}");
        }
        let fine = START.replace(" - 0 1", " - 0 1 frozen=g passes=1 captured=b3g0r6");
        assert_eq!(divide(&fine, &[], 1).unwrap().len(), 20);
    }
}
