//! Reference rules of `trichess` (`../shared/rules/trichess.md`, board of
//! `sections.md` with the trichess column rule), including the engine
//! option `AfterMate` (`end`, `obstacles`, `inherit`).
//!
//! A position is a plain array from cell to piece; a move is made on a
//! clone; a move is legal when, after it, the mover's king is not attacked
//! by either opponent. The end rules are applied before the moves of a
//! position are counted (perft/README.md).

use super::sections::{
    Board, CELLS, Cell, Geometry, Kind, PROMOTIONS, Piece, Squares, castling_rule, parse_board,
    parse_castling,
};
use super::{Options, fen};

/// "Turn order: White (`w`, section 0), Red (`r`, section 1), Black (`b`,
/// section 2)."
const LETTERS: [char; 3] = ['w', 'r', 'b'];

/// sections.md "Start position": each player R N B Q K B N R on row 1
/// (columns 1..8), eight pawns on row 2; White, Red, Black to move first.
const START: &str = "8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR/8/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR\
/8/8/bPbPbPbPbPbPbPbP/bRbNbBbQbKbBbNbR w wKQrKQbKQ - 0 1";

fn geometry() -> &'static Geometry {
    Board::Trichess.geometry()
}

/// The cell names of trichess.md: White file `abcdefgh`[x-1], rank `y`;
/// Red file `hgfeijkl`[x-1], rank `13 - y`; Black file `lkjidcba`[x-1],
/// rank `9 - y`.
pub fn name(cell: usize) -> String {
    let c = Cell::from_index(cell);
    let (files, rank) = match c.s {
        0 => ("abcdefgh", c.y),
        1 => ("hgfeijkl", 13 - c.y),
        _ => ("lkjidcba", 9 - c.y),
    };
    format!("{}{rank}", files.as_bytes()[c.x as usize - 1] as char)
}

/// The cell of a name such as `d4` or `E10` (case-insensitive).
pub fn parse_name(text: &str) -> Option<usize> {
    let text = text.to_ascii_lowercase();
    (0..CELLS).find(|&c| name(c) == text)
}

/// What happens at the first mate or king exposure (trichess.md, "Playing
/// on after the first mate").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AfterMate {
    /// The game ends.
    End,
    /// The mated player's pieces stay as neutral obstacles.
    Obstacles,
    /// The mated player's pieces pass to the winner of that mate.
    Inherit,
}

/// Who moves the pieces of an army.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    Player(usize),
    /// "neutral obstacles that never move and can be captured by either
    /// player"
    Neutral,
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
        let mut s = name(self.from) + &name(self.to);
        if let Some(k) = self.promotion {
            s.push(k.wire_letter());
        }
        s
    }
}

#[derive(Clone)]
struct Position {
    board: Squares,
    to_move: usize,
    /// `castling[army][side]`, side 0 short (`K`), 1 long (`Q`).
    castling: [[bool; 2]; 3],
    /// The two-step just made, `(skipped cell, pawn cell)`: "only the player
    /// who moves right after the two-step may capture en passant, on that
    /// move".
    en_passant: Option<(usize, usize)>,
    /// Players out of the game, in the order they left.
    out: Vec<usize>,
    /// Who moves each army's pieces.
    control: [Control; 3],
    after_mate: AfterMate,
}

impl Position {
    fn in_game(&self, player: usize) -> bool {
        !self.out.contains(&player)
    }

    fn players_in_game(&self) -> usize {
        (0..3).filter(|&p| self.in_game(p)).count()
    }

    /// The next player after `player` in turn order that is still in the
    /// game.
    fn next_in_game(&self, player: usize) -> usize {
        (1..=3)
            .map(|i| (player + i) % 3)
            .find(|&p| self.in_game(p))
            .expect("someone is in the game")
    }

    fn controlled_by(&self, piece: Piece, player: usize) -> bool {
        self.control[piece.army] == Control::Player(player)
    }

    /// The cell of army `player`'s king (absent once the player is out).
    fn king(&self, player: usize) -> Option<usize> {
        (0..CELLS).find(|&c| {
            self.board[c]
                == Some(Piece {
                    army: player,
                    kind: Kind::King,
                })
        })
    }

    /// "Attacked means: some piece of that player could move to the cell by
    /// the piece's capture rule if an enemy piece stood there." Neutral
    /// pieces never attack; inherited pieces attack for their controller.
    fn is_attacked_by(&self, target: usize, player: usize) -> bool {
        (0..CELLS).any(|from| match self.board[from] {
            Some(piece) if self.controlled_by(piece, player) => geometry()
                .attack_targets(piece, from, &self.board)
                .contains(&target),
            _ => false,
        })
    }

    /// Whether a cell is attacked by any opponent of `player` still in the
    /// game ("attacked by either opponent").
    fn is_attacked_by_opponent(&self, target: usize, player: usize) -> bool {
        (0..3).any(|q| q != player && self.in_game(q) && self.is_attacked_by(target, q))
    }

    /// Whether `player`'s king is attacked by an opponent.
    fn in_check(&self, player: usize) -> bool {
        self.king(player)
            .is_some_and(|k| self.is_attacked_by_opponent(k, player))
    }

    /// A cell `player` may move a piece to: empty, or holding a piece it
    /// does not control that is not a king ("a move onto a cell holding a
    /// king is not a move"). Neutral obstacles "can be captured".
    fn can_enter(&self, player: usize, cell: usize) -> bool {
        match self.board[cell] {
            None => true,
            Some(p) => !self.controlled_by(p, player) && p.kind != Kind::King,
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

    /// sections.md "Pawn": one forward step onto an empty cell; from its own
    /// row 2 two forward steps, both cells empty; a diagonal forward capture;
    /// promotion on row 1 of another section. Inherited pawns "keep their
    /// own direction".
    fn pawn_moves(&self, player: usize, army: usize, from: usize, moves: &mut Vec<Move>) {
        let geo = geometry();
        for to in geo.pawn_step_targets(army, from) {
            if self.board[to].is_none() {
                Self::push_pawn_move(army, from, to, Special::None, moves);
            }
        }
        if let Some((skipped, to)) = geo.pawn_double_step(army, from)
            && self.board[skipped].is_none()
            && self.board[to].is_none()
        {
            Self::push_pawn_move(army, from, to, Special::DoubleStep { skipped }, moves);
        }
        for to in geo.pawn_capture_targets(army, from) {
            match self.board[to] {
                Some(_) => {
                    if self.can_enter(player, to) {
                        Self::push_pawn_move(army, from, to, Special::None, moves);
                    }
                }
                None => {
                    if let Some((skipped, pawn)) = self.en_passant
                        && skipped == to
                        && self.board[pawn]
                            .is_some_and(|p| p.kind == Kind::Pawn && !self.controlled_by(p, player))
                    {
                        Self::push_pawn_move(
                            army,
                            from,
                            to,
                            Special::EnPassant { captured: pawn },
                            moves,
                        );
                    }
                }
            }
        }
    }

    /// "Castling as in classical chess: king and rook unmoved, cells between
    /// empty, the king not in check, not passing over or landing on a cell
    /// attacked by either opponent."
    fn castling_moves(&self, player: usize, moves: &mut Vec<Move>) {
        for side in 0..2 {
            if !self.castling[player][side] {
                continue;
            }
            let rule = castling_rule(player, side);
            if rule.between.iter().all(|&c| self.board[c].is_none())
                && !self.in_check(player)
                && rule
                    .king_path
                    .iter()
                    .all(|&c| !self.is_attacked_by_opponent(c, player))
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
            if !self.controlled_by(piece, player) {
                continue;
            }
            if piece.kind == Kind::Pawn {
                self.pawn_moves(player, piece.army, from, &mut moves);
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

    /// "No move may leave the mover's own king attacked by either opponent."
    fn legal_moves(&self) -> Vec<Move> {
        self.pseudo_legal_moves()
            .into_iter()
            .filter(|m| !self.play(m).in_check(self.to_move))
            .collect()
    }

    /// Makes a move (no end rules yet; see `settle`).
    fn play(&self, m: &Move) -> Position {
        let mut next = self.clone();
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
        next.en_passant = match m.special {
            Special::DoubleStep { skipped } => Some((skipped, m.to)),
            _ => None,
        };
        next.to_move = self.next_in_game(self.to_move);
        next
    }

    /// The mated (or exposed) `player` is out: "its king leaves the board;
    /// its other pieces stay as neutral obstacles" (`obstacles`) or "pass
    /// to the winner of that mate" (`inherit`). Its castling rights are
    /// dropped.
    fn eliminate(&mut self, player: usize, winner: usize) {
        if let Some(k) = self.king(player) {
            self.board[k] = None;
        }
        self.control[player] = match self.after_mate {
            AfterMate::Inherit => Control::Player(winner),
            _ => Control::Neutral,
        };
        self.out.push(player);
        self.castling[player] = [false, false];
    }

    /// Whether the game goes on after a mate: only at the first mate, and
    /// only with `AfterMate` `obstacles` or `inherit`.
    fn plays_on_after_mate(&self) -> bool {
        self.after_mate != AfterMate::End && self.players_in_game() == 3
    }

    /// Applies the end rules ("Checked after every move, in this order")
    /// and the automatic eliminations, then returns the legal moves of the
    /// player to move; an empty list when the game is over.
    fn settle(&mut self) -> Vec<Move> {
        loop {
            if self.players_in_game() < 2 {
                return Vec::new();
            }
            let player = self.to_move;
            let after = self.next_in_game(player);
            // 1. King exposed: "if the player to move now attacks the king of
            // the player after it, the player to move wins at once; the
            // exposed king's owner is mated."
            if self
                .king(after)
                .is_some_and(|k| self.is_attacked_by(k, player))
            {
                if !self.plays_on_after_mate() {
                    return Vec::new();
                }
                // rule-decisions.md: it counts as a mate of the exposed
                // player; the player to move wins it and then makes its move.
                self.eliminate(after, player);
                continue;
            }
            let moves = self.legal_moves();
            if !moves.is_empty() {
                return moves;
            }
            // 3. Stalemate: no legal move and not in check: draw.
            if !self.in_check(player) {
                return Vec::new();
            }
            // 2. Mate.
            if !self.plays_on_after_mate() {
                return Vec::new();
            }
            // "The winner is the opponent who attacks its king; if both do,
            // the one who moves first after the mated player."
            let king = self.king(player).expect("a player in check has a king");
            let winner = if self.is_attacked_by(king, after) {
                after
            } else {
                self.next_in_game(after)
            };
            self.eliminate(player, winner);
            // "After a mate the next player in turn order still in the game
            // moves."
            self.to_move = self.next_in_game(player);
        }
    }
}

impl super::Node for Position {
    type Move = Move;
    fn moves(&mut self) -> Vec<Move> {
        self.settle()
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

/// Reads a position string: the board of sections.md, players `w r b`,
/// optional fields `out=` and `armies=`.
fn parse(text: &str, after_mate: AfterMate) -> Result<Position, String> {
    let text = if text.trim() == "startpos" {
        START
    } else {
        text
    };
    let raw = fen::split(text)?;
    let board = parse_board(&raw, LETTERS, "trichess")?;
    let to_move = letter_index(raw.to_move)
        .ok_or_else(|| format!("trichess: bad player to move {:?}", raw.to_move))?;

    let mut out = Vec::new();
    let mut control = [0, 1, 2].map(Control::Player);
    let mut armies_listed = [false; 3];
    for (key, value) in &raw.extra {
        match key.as_str() {
            "out" => {
                for c in value.chars() {
                    let p = letter_index(c)
                        .ok_or_else(|| format!("trichess: bad out field {value:?}"))?;
                    if out.contains(&p) {
                        return Err(format!("trichess: bad out field {value:?}"));
                    }
                    out.push(p);
                }
            }
            "armies" => {
                let chars: Vec<char> = value.chars().collect();
                if !chars.len().is_multiple_of(2) {
                    return Err(format!("trichess: bad armies field {value:?}"));
                }
                for pair in chars.chunks(2) {
                    let army = letter_index(pair[0])
                        .ok_or_else(|| format!("trichess: bad armies field {value:?}"))?;
                    control[army] = match pair[1] {
                        '-' => Control::Neutral,
                        c => Control::Player(
                            letter_index(c)
                                .ok_or_else(|| format!("trichess: bad armies field {value:?}"))?,
                        ),
                    };
                    armies_listed[army] = true;
                }
            }
            other => return Err(format!("trichess: unknown field {other:?}")),
        }
    }
    if out.contains(&to_move) {
        return Err("trichess: the player to move is out".into());
    }
    for army in 0..3 {
        let pieces = (0..CELLS).filter(|&c| board[c].is_some_and(|p| p.army == army));
        let kings = pieces
            .clone()
            .filter(|&c| board[c].is_some_and(|p| p.kind == Kind::King))
            .count();
        if out.contains(&army) {
            if kings != 0 {
                return Err(format!("trichess: {} is out but has a king", LETTERS[army]));
            }
            if !armies_listed[army] && pieces.clone().count() != 0 {
                return Err(format!(
                    "trichess: {} is out and not in armies= but has pieces",
                    LETTERS[army]
                ));
            }
        } else {
            if kings != 1 {
                return Err(format!("trichess: {} has {kings} kings", LETTERS[army]));
            }
            if armies_listed[army] {
                return Err(format!(
                    "trichess: armies= lists {}, who is still in the game",
                    LETTERS[army]
                ));
            }
        }
        // An out army without pieces needs no controller (position-format rule).
        if let Control::Player(c) = control[army]
            && out.contains(&c)
            && (armies_listed[army] || pieces.clone().count() != 0)
        {
            return Err(format!(
                "trichess: army {} controlled by a player who is out",
                LETTERS[army]
            ));
        }
    }
    let castling = parse_castling(&raw, LETTERS, &board, "trichess")?;

    let mut en_passant = None;
    if raw.en_passant != "-" {
        let bad = || format!("trichess: bad en-passant field {:?}", raw.en_passant);
        let entry = raw.en_passant.as_str();
        if !entry.is_ascii() || entry.len() < 5 {
            return Err(bad());
        }
        let mover = letter_index(entry.chars().next().ok_or_else(bad)?).ok_or_else(bad)?;
        // `<player><skipped><pawn>`: two names, each a file letter and a rank.
        let rest = &entry[1..];
        let split = rest[1..]
            .find(|c: char| c.is_ascii_alphabetic())
            .ok_or_else(bad)?
            + 1;
        let skipped = parse_name(&rest[..split]).ok_or_else(bad)?;
        let pawn = parse_name(&rest[split..]).ok_or_else(bad)?;
        let Some(piece) = board[pawn] else {
            return Err(bad());
        };
        let (s, p) = (Cell::from_index(skipped), Cell::from_index(pawn));
        // The pawn stands on its own row 4, the skipped cell behind it.
        let fits = piece.kind == Kind::Pawn
            && p.s == piece.army
            && p.y == 4
            && s == Cell { y: 3, ..p }
            && board[skipped].is_none();
        if !fits || mover == to_move || control[piece.army] == Control::Player(to_move) {
            return Err(bad());
        }
        en_passant = Some((skipped, pawn));
    }
    Ok(Position {
        board,
        to_move,
        castling,
        en_passant,
        out,
        control,
        after_mate,
    })
}

fn parse_options(options: &Options) -> Result<AfterMate, String> {
    let mut after_mate = AfterMate::End;
    for (key, value) in options {
        if key != "AfterMate" {
            return Err(format!("trichess: unknown option {key:?}"));
        }
        after_mate = match value.as_str() {
            "end" => AfterMate::End,
            "obstacles" => AfterMate::Obstacles,
            "inherit" => AfterMate::Inherit,
            _ => return Err(format!("trichess: bad AfterMate value {value:?}")),
        };
    }
    Ok(after_mate)
}

/// Perft split by root move; see `super::divide`. Options: `AfterMate`
/// (`end`, `obstacles` or `inherit`).
pub fn divide(position: &str, options: &Options, depth: u32) -> Result<Vec<(String, u64)>, String> {
    super::split(parse(position, parse_options(options)?)?, depth)
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
    fn names_follow_the_table() {
        let all: Vec<String> = (0..CELLS).map(name).collect();
        let mut unique = all.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 96);
        assert_eq!(name(Cell { s: 1, x: 5, y: 1 }.index()), "i12");
        assert_eq!(name(Cell { s: 2, x: 5, y: 1 }.index()), "d8");
        assert_eq!(parse_name("E10"), Some(Cell { s: 1, x: 4, y: 3 }.index()));
    }

    #[test]
    fn king_on_d4() {
        let d4 = parse_name("d4").unwrap();
        assert_eq!(
            names(geometry().king_targets(d4)),
            sorted("c3 d3 e3 c4 e4 c5 d5 i5 e9")
        );
    }

    #[test]
    fn knight_on_d4() {
        let d4 = parse_name("d4").unwrap();
        assert_eq!(
            names(geometry().knight_targets(d4)),
            sorted("b3 b5 c2 c6 e2 e10 f3 f9 i6 j5")
        );
    }

    #[test]
    fn middle_ring() {
        // "joined in a ring d4–e4–e9–i9–i5–d5–d4; opposite squares (d4–i9,
        // e4–i5, d5–e9) are not adjacent."
        let ring = ["d4", "e4", "e9", "i9", "i5", "d5"];
        let board = Board::Trichess;
        let cell = |n: &str| Cell::from_index(parse_name(n).unwrap());
        for i in 0..6 {
            let a = cell(ring[i]);
            let b = cell(ring[(i + 1) % 6]);
            assert!(
                board.orthogonal_neighbours(a).contains(&b),
                "{} {}",
                ring[i],
                ring[(i + 1) % 6]
            );
            let opposite = cell(ring[(i + 3) % 6]);
            assert!(!board.orthogonal_neighbours(a).contains(&opposite));
        }
    }

    #[test]
    fn files_are_straight_lines_of_eight() {
        // "every file is a straight line of eight squares between two
        // players": a rook on a1 sees a2..a8 on an empty board.
        let empty: Squares = [None; CELLS];
        let a1 = parse_name("a1").unwrap();
        let targets = names(&geometry().rook_targets(a1, &empty));
        for r in 2..=8 {
            assert!(targets.contains(&format!("a{r}")));
        }
        assert_eq!(targets.len(), 7 + 7);
    }

    #[test]
    fn pawn_on_d4_has_three_captures() {
        let d4 = parse_name("d4").unwrap();
        assert_eq!(
            names(&geometry().pawn_capture_targets(0, d4)),
            sorted("c5 i5 e9")
        );
    }

    #[test]
    fn start_position_is_symmetric() {
        let start = |to_move: &str| START.replace(" w w", &format!(" {to_move} w"));
        let count =
            |pos: &str| -> u64 { divide(pos, &[], 2).unwrap().iter().map(|(_, n)| n).sum() };
        let w = count(&start("w"));
        assert_eq!(w, count(&start("r")));
        assert_eq!(w, count(&start("b")));
    }

    #[test]
    fn malformed_positions_are_errors() {
        let bad = [
            "8/8/8 w - - 0 1",
            &START.replace(" w w", " x w"),
            &START.replace("wKQrKQbKQ", "wKQrKQbKQ extra=1"),
            &START.replace("wRwNwBwQwKwBwNwR", "wRwNwBwQ1wBwNwR"),
            &START.replace(" - 0 1", " w 0 1"),
            &START.replace(" - 0 1", " we3e4 0 1"),
            &START.replace(" - 0 1", " - 0 1 out=w"),
            &START.replace(" - 0 1", " - 0 1 out=b"),
            &START.replace(
                "bPbPbPbPbPbPbPbP/bRbNbBbQbKbBbNbR",
                "bPbPbPbPbPbPbPbP/bPbNbBbQbKbBbNbR",
            ),
        ];
        for text in bad {
            assert!(divide(text, &[], 1).is_err(), "{text}");
        }
        let option = [("AfterMate".to_string(), "later".to_string())];
        assert!(divide("startpos", &option, 1).is_err());
    }

    #[test]
    fn after_mate_options_are_accepted() {
        for value in ["end", "obstacles", "inherit"] {
            let option = [("AfterMate".to_string(), value.to_string())];
            assert_eq!(divide("startpos", &option, 1).unwrap().len(), 20);
        }
    }
}
