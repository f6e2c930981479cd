//! Reading and writing positions (docs/position-format.md), and standard FEN
//! for chess.

use super::{
    AfterMate, CLOCK_UNITS_PER_MOVE, EnPassant, GameRules, GameState, MAX_CLOCK_MOVES, MAX_ROUND,
    Position,
};
use crate::bitboard::Bitboard;
use crate::game::{CastlingSide, EnPassantRule, Game, OptionalField};
use crate::number;
use crate::types::{Army, Cell, MAX_PLAYERS, Piece, PieceKind, Player, PlayerSet};
use std::fmt::Write;

/// Which part of a position's text an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionField {
    /// The text as a whole: its fields, their number, their keys.
    Fields,
    /// The board field: rows, runs of empty cells, piece letters.
    Board,
    /// What the board holds: kings, pawns, piece counts.
    Pieces,
    /// The player to move.
    ToMove,
    /// The castling rights.
    Castling,
    /// The en-passant entries.
    EnPassant,
    /// The draw clock.
    DrawClock,
    /// The round (in standard FEN, the full-move number).
    Round,
    /// An optional `key=value` field.
    Optional(OptionalField),
}

/// Why a position's text was refused: what a GUI needs to point at the
/// mistake. `Display` gives the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// One field is malformed, or says what cannot be.
    Field {
        /// Which.
        field: PositionField,
        /// Why, as a message.
        why: String,
    },
    /// In a game with classical notation: the text reads neither as
    /// standard FEN nor in the position format.
    NeitherFormat {
        /// Why it is not standard FEN.
        standard: Box<PositionError>,
        /// Why it is not the position format.
        format: Box<PositionError>,
    },
    /// The text reads, but the position breaks a rule: the king of the
    /// player who moved last stands attacked, or a check of the game's own.
    Rule {
        /// Why, as a message.
        why: String,
    },
}

impl PositionError {
    /// The field the error is about, if it is about one.
    pub fn field(&self) -> Option<PositionField> {
        match self {
            PositionError::Field { field, .. } => Some(*field),
            _ => None,
        }
    }
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Field { why, .. } | PositionError::Rule { why } => f.write_str(why),
            PositionError::NeitherFormat { standard, format } => write!(
                f,
                "neither standard FEN ({standard}) nor Triskel's format ({format})"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Shorthand for the error result of `field` with a formatted message.
macro_rules! reject {
    ($field:expr, $($arg:tt)*) => {
        return Err(PositionError::Field { field: $field, why: format!($($arg)*) })
    };
}

/// Longest piece of input an error message quotes.
const MAX_QUOTED: usize = 60;

/// `text` quoted for an error message, cut short if long.
fn quote(text: &dyn std::fmt::Display) -> String {
    let text = text.to_string();
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return format!("{c:?}");
    }
    if text.chars().count() > MAX_QUOTED {
        format!("{:?}...", text.chars().take(MAX_QUOTED).collect::<String>())
    } else {
        format!("{text:?}")
    }
}

/// Largest captured-points total accepted per player (Star).
const MAX_CAPTURED_POINTS: u16 = 1_000;

impl Position {
    /// Reads a position of `game` (with its `rules`) in the position
    /// format, or in standard FEN where the game has classical notation,
    /// with Trichess's `AfterMate` rule. It checks what the text alone
    /// says (pieces, counts, rights, entries); the attack and the game's
    /// own checks, and the events due for the player to move, come after
    /// ([`Position::from_fen`] does all).
    pub fn read_fen(
        game: &'static Game,
        rules: &'static dyn GameRules,
        text: &str,
        after_mate: AfterMate,
    ) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            reject!(PositionField::Fields, "empty position");
        }
        let empty = || {
            let mut pos = Position::empty_of(game, rules);
            pos.after_mate = after_mate;
            pos
        };
        let mut pos = empty();
        let classical = game.facts.classical_notation;
        let standard = if classical {
            pos.read_standard_board(fields[0])
        } else {
            Ok(())
        };
        if classical && standard.is_ok() {
            pos.read_standard_fields(&fields)?;
        } else {
            pos = empty();
            let generic = pos
                .read_board(fields[0])
                .and_then(|()| pos.read_fields(&fields));
            if let (Err(as_standard), Err(as_generic)) = (standard, &generic) {
                return Err(PositionError::NeitherFormat {
                    standard: Box::new(as_standard),
                    format: Box::new(as_generic.clone()),
                });
            }
            generic?;
        }
        pos.validate()?;
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    fn read_board(&mut self, board: &str) -> Result<(), PositionError> {
        let game = self.game;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != game.rows.len() {
            reject!(
                PositionField::Board,
                "board has {} rows, {} has {}",
                rows.len(),
                game.variant,
                game.rows.len()
            );
        }
        for (row_no, (text, cells)) in rows.iter().zip(&game.rows).enumerate() {
            let mut next = 0usize;
            let chars: Vec<char> = text.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let c = chars[i];
                if c.is_ascii_digit() {
                    let start = i;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                    let run: String = chars[start..i].iter().collect();
                    match number::whole_in(&run, &(1..=cells.len())) {
                        Some(n) => next += n,
                        _ => reject!(
                            PositionField::Board,
                            "row {}: bad run of empty cells {}",
                            row_no + 1,
                            quote(&run)
                        ),
                    }
                } else {
                    let Some(&kind_letter) = chars.get(i + 1) else {
                        reject!(
                            PositionField::Board,
                            "row {}: piece {} lacks its piece letter",
                            row_no + 1,
                            quote(&c)
                        );
                    };
                    let army = match game.player_index(c) {
                        Some(a) if c.is_ascii_lowercase() => Army::new(a),
                        _ => reject!(
                            PositionField::Board,
                            "row {}: {} is not an army letter of {}",
                            row_no + 1,
                            quote(&c),
                            game.variant
                        ),
                    };
                    let kind = match PieceKind::from_letter(kind_letter) {
                        Some(k) if kind_letter.is_ascii_uppercase() => k,
                        _ => reject!(
                            PositionField::Board,
                            "row {}: {} is not a piece letter",
                            row_no + 1,
                            quote(&kind_letter)
                        ),
                    };
                    let Some(&cell) = cells.get(next) else {
                        reject!(
                            PositionField::Board,
                            "row {} has more than {} cells",
                            row_no + 1,
                            cells.len()
                        );
                    };
                    self.put_raw(cell, Piece::new(army, kind));
                    next += 1;
                    i += 2;
                }
            }
            if next != cells.len() {
                reject!(
                    PositionField::Board,
                    "row {} describes {next} cells, it has {}",
                    row_no + 1,
                    cells.len()
                );
            }
        }
        Ok(())
    }

    /// Places a piece while reading (before control is known).
    fn put_raw(&mut self, cell: Cell, piece: Piece) {
        self.mailbox[cell.index()] = Some(piece);
        let bit = Bitboard::from_cell(cell);
        self.by_kind[piece.kind().index()] |= bit;
        self.by_army[piece.army().index()] |= bit;
        self.occupied |= bit;
    }

    fn read_fields(&mut self, fields: &[&str]) -> Result<(), PositionError> {
        let game = self.game;
        if fields.len() < 6 {
            reject!(
                PositionField::Fields,
                "a position has at least 6 fields (board, player to move, castling, en passant, clock, round); found {}",
                fields.len()
            );
        }
        self.to_move = self.read_player(fields[1], "player to move", PositionField::ToMove)?;
        self.castling = self.read_castling(fields[2])?;
        self.read_en_passant(fields[3])?;
        let clock = read_number(
            fields[4],
            "clock",
            PositionField::DrawClock,
            0,
            MAX_CLOCK_MOVES.into(),
        )?;
        self.round = read_number(fields[5], "round", PositionField::Round, 1, MAX_ROUND)?;

        let mut state = GameState::new(game.players);
        let mut armies_field: Option<&str> = None;
        let mut seen: Vec<&str> = Vec::new();
        for field in &fields[6..] {
            let Some((key, value)) = field.split_once('=') else {
                reject!(
                    PositionField::Fields,
                    "unexpected field {} (optional fields are key=value)",
                    quote(&field)
                );
            };
            match OptionalField::ALL.iter().find(|f| f.name() == key) {
                Some(f) if game.facts.optional_fields.contains(f) => {}
                Some(_) => reject!(
                    PositionField::Fields,
                    "field {key}= does not belong to {}",
                    game.variant
                ),
                None => reject!(PositionField::Fields, "unknown field {key}="),
            }
            if seen.contains(&key) {
                reject!(PositionField::Fields, "field {key}= given twice");
            }
            seen.push(key);
            match key {
                "out" => {
                    for (i, letter) in value.chars().enumerate() {
                        let p = self.read_player(
                            &letter.to_string(),
                            "out=",
                            PositionField::Optional(OptionalField::Out),
                        )?;
                        if !state.in_game.has(p) || i >= game.players {
                            reject!(
                                PositionField::Optional(OptionalField::Out),
                                "out=: player {letter} listed twice"
                            );
                        }
                        state.eliminate(p);
                    }
                }
                "armies" => armies_field = Some(value),
                "frozen" => {
                    for letter in value.chars() {
                        let p = self.read_player(
                            &letter.to_string(),
                            "frozen=",
                            PositionField::Optional(OptionalField::Frozen),
                        )?;
                        state.frozen = state.frozen.with(p);
                    }
                }
                "passes" => {
                    state.passes = read_number(
                        value,
                        "passes",
                        PositionField::Optional(OptionalField::Passes),
                        0,
                        game.players as u32,
                    )? as u8;
                }
                _ => state.captured = self.read_captured(value)?,
            }
        }
        for a in 0..MAX_PLAYERS {
            let owner = Army::new(a).owner();
            state.controller[a] = (a < game.players && state.in_game.has(owner)).then_some(owner);
        }
        let mut listed = [false; MAX_PLAYERS];
        if let Some(value) = armies_field {
            let chars: Vec<char> = value.chars().collect();
            if !chars.len().is_multiple_of(2) || chars.is_empty() {
                reject!(
                    PositionField::Optional(OptionalField::Armies),
                    "armies=: expected pairs <army><controller or ->, got {}",
                    quote(&value)
                );
            }
            for pair in chars.chunks(2) {
                let army = self
                    .read_player(
                        &pair[0].to_string(),
                        "armies=",
                        PositionField::Optional(OptionalField::Armies),
                    )?
                    .army();
                if std::mem::replace(&mut listed[army.index()], true) {
                    reject!(
                        PositionField::Optional(OptionalField::Armies),
                        "armies=: army {} listed twice",
                        pair[0]
                    );
                }
                if state.in_game.has(army.owner()) {
                    reject!(
                        PositionField::Optional(OptionalField::Armies),
                        "armies=: army {} belongs to a player still in the game",
                        pair[0]
                    );
                }
                state.controller[army.index()] = if pair[1] == '-' {
                    if !game.facts.neutral_armies {
                        reject!(
                            PositionField::Optional(OptionalField::Armies),
                            "armies=: {} has no neutral obstacles",
                            game.variant
                        );
                    }
                    None
                } else {
                    let p = self.read_player(
                        &pair[1].to_string(),
                        "armies=",
                        PositionField::Optional(OptionalField::Armies),
                    )?;
                    if !state.in_game.has(p) {
                        reject!(
                            PositionField::Optional(OptionalField::Armies),
                            "armies=: controller {} is out of the game",
                            pair[1]
                        );
                    }
                    Some(p)
                };
            }
        }
        for (a, &was_listed) in listed.iter().enumerate().take(game.players) {
            if !state.in_game.has(Army::new(a).owner()) && !was_listed && self.by_army[a].nonempty()
            {
                reject!(
                    PositionField::Optional(OptionalField::Armies),
                    "army {}: its player is out, so armies= must say who controls its pieces",
                    game.letters[a]
                );
            }
        }
        self.state = state;
        self.draw_clock = clock_units(clock, state.in_game.count());
        self.refresh_control();
        Ok(())
    }

    fn read_player(
        &self,
        text: &str,
        what: &str,
        field: PositionField,
    ) -> Result<Player, PositionError> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_lowercase() => match self.game.player_index(c) {
                Some(i) => Ok(Player::new(i)),
                None => reject!(
                    field,
                    "{what}: {} is not a player of {}",
                    quote(&c),
                    self.game.variant
                ),
            },
            _ => reject!(
                field,
                "{what}: expected one player letter, got {}",
                quote(&text)
            ),
        }
    }

    fn read_castling(&self, text: &str) -> Result<u8, PositionError> {
        if text == "-" {
            return Ok(0);
        }
        let mut rights = 0u8;
        let mut army: Option<Army> = None;
        for c in text.chars() {
            if c.is_ascii_lowercase() {
                army = Some(
                    self.read_player(&c.to_string(), "castling", PositionField::Castling)?
                        .army(),
                );
                continue;
            }
            let side = match c {
                'K' => CastlingSide::Right,
                'Q' => CastlingSide::Left,
                _ => reject!(
                    PositionField::Castling,
                    "castling: unexpected {} (expected army letters followed by K and/or Q)",
                    quote(&c)
                ),
            };
            let Some(army) = army else {
                reject!(
                    PositionField::Castling,
                    "castling: {} without an army letter before it",
                    quote(&c)
                );
            };
            match self.game.castling(army, side) {
                Some((_, castling)) => rights |= castling.right_bit(),
                None => reject!(
                    PositionField::Castling,
                    "castling: {} has no such castling",
                    self.game.variant
                ),
            }
        }
        Ok(rights)
    }

    fn read_en_passant(&mut self, text: &str) -> Result<(), PositionError> {
        if text == "-" {
            return Ok(());
        }
        if self.game.en_passant == EnPassantRule::None {
            reject!(
                PositionField::EnPassant,
                "en passant: {} has no en passant",
                self.game.variant
            );
        }
        for entry in text.split(',') {
            let Some(letter) = entry.chars().next() else {
                reject!(PositionField::EnPassant, "en passant: empty entry");
            };
            let player =
                self.read_player(&letter.to_string(), "en passant", PositionField::EnPassant)?;
            let cells = &entry[letter.len_utf8()..];
            let Some((skipped, pawn)) = self.split_two_cells(cells) else {
                reject!(
                    PositionField::EnPassant,
                    "en passant: {} is not <player><skipped cell><pawn cell>",
                    quote(&entry)
                );
            };
            if self.en_passant[player.index()].is_some() {
                reject!(
                    PositionField::EnPassant,
                    "en passant: two entries for player {letter}"
                );
            }
            self.en_passant[player.index()] = Some(EnPassant { skipped, pawn });
        }
        Ok(())
    }

    /// Splits `text` into two cell names of this board, if it is exactly that.
    pub fn split_two_cells(&self, text: &str) -> Option<(Cell, Cell)> {
        let g = &self.game.geometry;
        (1..text.len())
            .filter(|&i| text.is_char_boundary(i))
            .find_map(|i| Some((g.cell(&text[..i])?, g.cell(&text[i..])?)))
    }

    fn read_captured(&self, text: &str) -> Result<[u16; MAX_PLAYERS], PositionError> {
        let mut captured = [0; MAX_PLAYERS];
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let p = self.read_player(
                &chars[i].to_string(),
                "captured=",
                PositionField::Optional(OptionalField::Captured),
            )?;
            let start = i + 1;
            i = start;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            captured[p.index()] = read_number(
                &digits,
                "captured=",
                PositionField::Optional(OptionalField::Captured),
                0,
                MAX_CAPTURED_POINTS.into(),
            )? as u16;
        }
        Ok(captured)
    }

    /// Checks that the position could occur in a game.
    fn validate(&self) -> Result<(), PositionError> {
        let game = self.game;
        let g = &game.geometry;
        let state = &self.state;
        let name = |c: Cell| g.name(c).to_string();
        if !state.active().has(self.to_move) {
            reject!(
                PositionField::ToMove,
                "the player to move is out of the game or frozen"
            );
        }
        let start = self.start_counts();
        for (a, start_counts) in start.iter().enumerate().take(game.players) {
            let army = Army::new(a);
            let letter = game.letters[a];
            let pieces = self.by_army[a];
            let kings = pieces & self.kind(PieceKind::King);
            let own_player_in = state.in_game.has(army.owner());
            let expected_kings = usize::from(own_player_in);
            if kings.count() as usize != expected_kings {
                if own_player_in {
                    reject!(
                        PositionField::Pieces,
                        "army {letter} must have exactly one king, it has {}",
                        kings.count()
                    );
                }
                reject!(
                    PositionField::Pieces,
                    "army {letter} is out of the game and cannot have a king"
                );
            }
            let pawns = pieces & self.kind(PieceKind::Pawn);
            let tables = &game.pawns[a];
            if let Some(c) = (pawns & tables.forbidden).into_iter().next() {
                reject!(
                    PositionField::Pieces,
                    "pawn of army {letter} on its own baseline ({})",
                    name(c)
                );
            }
            if let Some(c) = (pawns & tables.promotion).into_iter().next() {
                reject!(
                    PositionField::Pieces,
                    "pawn of army {letter} on a promotion cell ({}) must have promoted",
                    name(c)
                );
            }
            let count = |k: PieceKind| (pieces & self.kind(k)).count() as i32;
            let start_of = |k: PieceKind| start_counts[k.index()] as i32;
            if count(PieceKind::Pawn) > start_of(PieceKind::Pawn) {
                reject!(
                    PositionField::Pieces,
                    "army {letter} has more pawns than it starts with"
                );
            }
            let extra: i32 = PieceKind::OFFICERS
                .into_iter()
                .map(|k| (count(k) - start_of(k)).max(0))
                .sum();
            if extra > start_of(PieceKind::Pawn) - count(PieceKind::Pawn) {
                reject!(
                    PositionField::Pieces,
                    "army {letter} has more promoted pieces than missing pawns"
                );
            }
        }
        for c in &game.castlings {
            if self.castling & c.right_bit() == 0 {
                continue;
            }
            let letter = game.letters[c.army.index()];
            let king_home =
                self.mailbox[c.king_from.index()] == Some(Piece::new(c.army, PieceKind::King));
            let rook_home =
                self.mailbox[c.rook_from.index()] == Some(Piece::new(c.army, PieceKind::Rook));
            if !king_home || !rook_home {
                reject!(
                    PositionField::Castling,
                    "castling right {letter}{} needs king on {} and rook on {}",
                    if c.side == CastlingSide::Right {
                        'K'
                    } else {
                        'Q'
                    },
                    name(c.king_from),
                    name(c.rook_from)
                );
            }
            if !state.in_game.has(c.army.owner()) {
                reject!(
                    PositionField::Castling,
                    "castling right of army {letter}, whose player is out"
                );
            }
        }
        let previous = self.previous_active(self.to_move);
        for (p, entry) in self.en_passant.iter().enumerate() {
            let Some(e) = entry else { continue };
            let letter = game.letters[p];
            let player = Player::new(p);
            // The pawn may be of an army the player took over (Trichess).
            let pawn = self.mailbox[e.pawn.index()].filter(|piece| {
                piece.kind() == PieceKind::Pawn
                    && state.controller[piece.army().index()] == Some(player)
            });
            let pawn_there = pawn.is_some();
            let is_double = pawn.is_some_and(|piece| {
                game.pawns[piece.army().index()].cells.iter().any(|c| {
                    c.doubles()
                        .iter()
                        .any(|d| d.skipped == e.skipped && d.target == e.pawn)
                })
            });
            // Where the right lasts several moves, another piece may have
            // moved onto the skipped cell meanwhile (the entry is then unusable).
            let skipped_must_be_empty = game.en_passant == EnPassantRule::NextMoveOnly;
            if !pawn_there || !is_double || (skipped_must_be_empty && self.occupied.has(e.skipped))
            {
                reject!(
                    PositionField::EnPassant,
                    "en passant {letter}{}{}: no pawn of {letter} stands there after a two-cell move",
                    name(e.skipped),
                    name(e.pawn)
                );
            }
            if game.en_passant == EnPassantRule::NextMoveOnly && Some(player) != previous {
                reject!(
                    PositionField::EnPassant,
                    "en passant {letter}: only the player who moved last can have an entry"
                );
            }
            if !state.active().has(player) && !state.frozen.has(player) {
                reject!(
                    PositionField::EnPassant,
                    "en passant {letter}: that player is out of the game"
                );
            }
        }
        Ok(())
    }

    /// The active player before `player` in turn order.
    pub fn previous_active(&self, player: Player) -> Option<Player> {
        let n = self.game.players;
        let active = self.state.active();
        (1..=n)
            .map(|k| Player::new((player.index() + n - k) % n))
            .find(|&p| active.has(p))
    }

    /// Pieces of each kind each army starts with.
    fn start_counts(&self) -> [[u32; PieceKind::COUNT]; MAX_PLAYERS] {
        let game = self.game;
        let mut start = Position::empty_of(game, self.rules);
        start
            .read_board(game.start.split_whitespace().next().unwrap_or(""))
            .expect("start board is well-formed");
        std::array::from_fn(|a| {
            std::array::from_fn(|k| (start.by_army[a] & start.by_kind[k]).count())
        })
    }

    /// The board part of a position string: rows separated by `/`, runs of
    /// empty cells as numbers, each piece written by `piece`.
    fn board_field(&self, piece: impl Fn(&mut String, Piece)) -> String {
        let mut out = String::new();
        for (i, row) in self.game.rows.iter().enumerate() {
            if i > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for &cell in row {
                match self.mailbox[cell.index()] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        piece(&mut out, p);
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
        }
        out
    }

    /// The position in the position format.
    pub fn fen(&self) -> String {
        let game = self.game;
        let g = &game.geometry;
        let mut out = self.board_field(|out, piece| {
            out.push(game.letters[piece.army().index()]);
            out.push(piece.kind().letter());
        });
        let _ = write!(out, " {} ", game.letters[self.to_move.index()]);
        let mut castling = String::new();
        for a in 0..game.players {
            let mut sides = String::new();
            for (side, letter) in [(CastlingSide::Right, 'K'), (CastlingSide::Left, 'Q')] {
                if let Some((_, c)) = game.castling(Army::new(a), side)
                    && self.castling & c.right_bit() != 0
                {
                    sides.push(letter);
                }
            }
            if !sides.is_empty() {
                castling.push(game.letters[a]);
                castling.push_str(&sides);
            }
        }
        out.push_str(if castling.is_empty() { "-" } else { &castling });
        let entries: Vec<String> = self
            .en_passant
            .iter()
            .enumerate()
            .filter_map(|(p, e)| {
                e.map(|e| format!("{}{}{}", game.letters[p], g.name(e.skipped), g.name(e.pawn)))
            })
            .collect();
        let ep = if entries.is_empty() {
            "-".to_string()
        } else {
            entries.join(",")
        };
        let _ = write!(out, " {ep} {} {}", self.clock_moves(), self.round);
        let state = &self.state;
        let letters =
            |set: PlayerSet| -> String { set.iter().map(|p| game.letters[p.index()]).collect() };
        let out_order: String = state
            .out_order
            .iter()
            .flatten()
            .map(|p| game.letters[p.index()])
            .collect();
        if !out_order.is_empty() {
            let _ = write!(out, " out={out_order}");
        }
        let mut armies = String::new();
        for a in 0..game.players {
            let owner = Army::new(a).owner();
            if state.in_game.has(owner) || self.by_army[a].is_empty() {
                continue;
            }
            armies.push(game.letters[a]);
            armies.push(state.controller[a].map_or('-', |p| game.letters[p.index()]));
        }
        if !armies.is_empty() {
            let _ = write!(out, " armies={armies}");
        }
        if !state.frozen.is_empty() {
            let _ = write!(out, " frozen={}", letters(state.frozen));
        }
        if state.passes > 0 {
            let _ = write!(out, " passes={}", state.passes);
        }
        if game
            .facts
            .optional_fields
            .contains(&OptionalField::Captured)
            && state.captured.iter().any(|&c| c > 0)
        {
            let captured: String = (0..game.players)
                .map(|p| format!("{}{}", game.letters[p], state.captured[p]))
                .collect();
            let _ = write!(out, " captured={captured}");
        }
        out
    }

    fn read_standard_board(&mut self, board: &str) -> Result<(), PositionError> {
        let rows: Vec<&str> = board.split('/').collect();
        let game = self.game;
        if rows.len() != game.rows.len() {
            reject!(
                PositionField::Board,
                "board has {} rows, chess has 8",
                rows.len()
            );
        }
        for (text, cells) in rows.iter().zip(&game.rows) {
            let mut next = 0;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        reject!(PositionField::Board, "bad run 0");
                    }
                    next += d as usize;
                    continue;
                }
                let Some(kind) = PieceKind::from_letter(c) else {
                    reject!(PositionField::Board, "{} is not a piece letter", quote(&c));
                };
                let army = Army::new(usize::from(c.is_ascii_lowercase()));
                let Some(&cell) = cells.get(next) else {
                    reject!(PositionField::Board, "a row has more than 8 squares");
                };
                self.put_raw(cell, Piece::new(army, kind));
                next += 1;
            }
            if next != cells.len() {
                reject!(
                    PositionField::Board,
                    "a row of {} describes {next} squares, not 8",
                    quote(&text)
                );
            }
        }
        Ok(())
    }

    fn read_standard_fields(&mut self, fields: &[&str]) -> Result<(), PositionError> {
        let field = |i: usize, default: &'static str| fields.get(i).copied().unwrap_or(default);
        if fields.len() > 6 {
            reject!(PositionField::Fields, "standard FEN has at most 6 fields");
        }
        self.to_move = match field(1, "w") {
            "w" => Player::new(0),
            "b" => Player::new(1),
            other => reject!(
                PositionField::ToMove,
                "player to move must be w or b, got {}",
                quote(&other)
            ),
        };
        let mut rights = 0;
        let castling = field(2, "-");
        if castling != "-" {
            for c in castling.chars() {
                let (army, side) = match c {
                    'K' => (0, CastlingSide::Right),
                    'Q' => (0, CastlingSide::Left),
                    'k' => (1, CastlingSide::Right),
                    'q' => (1, CastlingSide::Left),
                    _ => reject!(
                        PositionField::Castling,
                        "castling: unexpected {}",
                        quote(&c)
                    ),
                };
                if let Some((_, c)) = self.game.castling(Army::new(army), side) {
                    rights |= c.right_bit();
                }
            }
        }
        self.castling = rights;
        let ep = field(3, "-");
        if ep != "-" {
            let g = &self.game.geometry;
            let Some(skipped) = g.cell(ep) else {
                reject!(
                    PositionField::EnPassant,
                    "en passant: {} is not a square",
                    quote(&ep)
                );
            };
            let mover = Player::new(1 - self.to_move.index());
            let forward: i32 = if mover.index() == 0 { 1 } else { -1 };
            let name = g.name(skipped);
            let rank: i32 = name[1..].parse().unwrap_or(0);
            let pawn_name = format!("{}{}", &name[..1], rank + forward);
            let Some(pawn) = g.cell(&pawn_name) else {
                reject!(
                    PositionField::EnPassant,
                    "en passant: {} is not on the third or sixth rank",
                    quote(&ep)
                );
            };
            // Standard FEN writes the square even when no capture is possible;
            // keep the entry only where the two-step is on the board.
            if self.mailbox[pawn.index()] == Some(Piece::new(mover.army(), PieceKind::Pawn)) {
                self.en_passant[mover.index()] = Some(EnPassant { skipped, pawn });
            } else {
                reject!(
                    PositionField::EnPassant,
                    "en passant: no pawn on {pawn_name} made a two-square move over {ep}"
                );
            }
        }
        let clock = read_number(
            field(4, "0"),
            "half-move clock",
            PositionField::DrawClock,
            0,
            MAX_CLOCK_MOVES.into(),
        )?;
        self.round = read_number(
            field(5, "1"),
            "full-move number",
            PositionField::Round,
            1,
            MAX_ROUND,
        )?;
        self.state = GameState::new(2);
        self.draw_clock = clock_units(clock, 2);
        self.refresh_control();
        Ok(())
    }

    /// Standard FEN (where the game has classical notation; other games get the position format).
    pub fn standard_fen(&self) -> String {
        if !self.game.facts.classical_notation {
            return self.fen();
        }
        let g = &self.game.geometry;
        let mut out = self.board_field(|out, piece| {
            let letter = piece.kind().letter();
            out.push(if piece.army().index() == 0 {
                letter
            } else {
                letter.to_ascii_lowercase()
            });
        });
        let _ = write!(
            out,
            " {} ",
            if self.to_move.index() == 0 { 'w' } else { 'b' }
        );
        let mut castling = String::new();
        for (army, side, letter) in [
            (0, CastlingSide::Right, 'K'),
            (0, CastlingSide::Left, 'Q'),
            (1, CastlingSide::Right, 'k'),
            (1, CastlingSide::Left, 'q'),
        ] {
            if let Some((_, c)) = self.game.castling(Army::new(army), side)
                && self.castling & c.right_bit() != 0
            {
                castling.push(letter);
            }
        }
        out.push_str(if castling.is_empty() { "-" } else { &castling });
        let ep = self
            .en_passant
            .iter()
            .flatten()
            .next()
            .map_or("-".to_string(), |e| g.name(e.skipped).to_string());
        let _ = write!(out, " {ep} {} {}", self.clock_moves(), self.round);
        out
    }
}

/// The draw clock's units for `moves` moves (at most [`MAX_CLOCK_MOVES`])
/// with `players` players in the game.
fn clock_units(moves: u32, players: usize) -> u16 {
    let moves = u16::try_from(moves).map_or(MAX_CLOCK_MOVES, |m| m.min(MAX_CLOCK_MOVES));
    moves * CLOCK_UNITS_PER_MOVE[players]
}

fn read_number(
    text: &str,
    what: &str,
    field: PositionField,
    min: u32,
    max: u32,
) -> Result<u32, PositionError> {
    match number::whole_in(text, &(min..=max)) {
        Some(n) => Ok(n),
        _ => reject!(
            field,
            "{what}: expected a number from {min} to {max}, got {}",
            quote(&text)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    /// Knights out and back again: four plies that change nothing but the
    /// draw clock (and the round).
    const SHUFFLE: [&str; 4] = ["g1f3", "g8f6", "f3g1", "f6g8"];

    #[test]
    fn the_draw_clock_stops_at_its_bound_and_every_position_reads_back() {
        let mut pos = Position::start(Variant::Chess);
        let plies = 2 * usize::from(MAX_CLOCK_MOVES) + 1_000;
        for ply in 0..plies {
            let m = pos.parse_move(SHUFFLE[ply % SHUFFLE.len()]).expect("legal");
            pos.make(m);
            let expected = (ply as u32 + 1).min(MAX_CLOCK_MOVES.into());
            assert_eq!(pos.clock_moves(), expected, "after {} plies", ply + 1);
            if ply % 997 == 0 || ply + 1 == plies || expected == u32::from(MAX_CLOCK_MOVES) {
                for text in [pos.fen(), pos.standard_fen()] {
                    let read = Position::from_fen(Variant::Chess, &text).unwrap_or_else(|e| {
                        panic!("after {} plies {text} is refused: {e}", ply + 1)
                    });
                    assert_eq!(read.fen(), pos.fen());
                    assert_eq!(read.hash(), pos.hash());
                }
            }
        }
    }

    #[test]
    fn the_round_stops_at_its_bound() {
        let fen = format!("4k3/8/8/8/8/8/8/4K1N1 w - - 0 {MAX_ROUND}");
        let mut pos = Position::from_fen(Variant::Chess, &fen).expect("valid");
        for text in ["g1f3", "e8d8", "f3g1", "d8e8"] {
            let m = pos.parse_move(text).expect("legal");
            pos.make(m);
            assert_eq!(pos.round(), MAX_ROUND);
            let read = Position::from_fen(Variant::Chess, &pos.standard_fen()).expect("reads back");
            assert_eq!(read.fen(), pos.fen());
        }
    }

    #[test]
    fn clocks_beyond_the_bound_are_refused() {
        for fen in [
            format!("4k3/8/8/8/8/8/8/4K3 w - - {} 1", MAX_CLOCK_MOVES + 1),
            format!("4k3/8/8/8/8/8/8/4K3 w - - 0 {}", MAX_ROUND + 1),
        ] {
            assert!(Position::from_fen(Variant::Chess, &fen).is_err(), "{fen}");
        }
    }

    /// The field of a refusal, for a game read in its position format.
    fn refused_field(variant: Variant, text: &str) -> Option<PositionField> {
        match Position::from_fen(variant, text) {
            Ok(_) => panic!("{variant}: {text} was accepted"),
            Err(e) => e.field(),
        }
    }

    #[test]
    fn a_refusal_names_its_field() {
        let start = Variant::Trichess.game().start.clone();
        let with = |from: &str, to: &str| start.replacen(from, to, 1);
        for (text, field) in [
            (String::new(), PositionField::Fields),
            (
                with("wRwNwBwQwKwBwNwR", "wRwNwBwQwKwBwNwRwR"),
                PositionField::Board,
            ),
            (
                with("wRwNwBwQwKwBwNwR", "wRwNwBwQwKwBwN1"),
                PositionField::Castling,
            ),
            (with(" w ", " x "), PositionField::ToMove),
            (with(" - 0 1", " - 0 0"), PositionField::Round),
            (with(" - 0 1", " - x 1"), PositionField::DrawClock),
            (with(" - 0 1", " wa1 0 1"), PositionField::EnPassant),
            (with(" 0 1", " 0 1 passes=1"), PositionField::Fields),
            (with("wK", "wQ"), PositionField::Pieces),
        ] {
            assert_eq!(
                refused_field(Variant::Trichess, &text),
                Some(field),
                "{text}"
            );
        }
        let star = Variant::Star.game().start.clone();
        assert_eq!(
            refused_field(Variant::Star, &format!("{star} passes=x")),
            Some(PositionField::Optional(OptionalField::Passes))
        );
    }

    #[test]
    fn chess_text_in_neither_format_says_why_for_both() {
        let Err(error) = Position::from_fen(Variant::Chess, "rnbqkbnr/8 w") else {
            panic!("accepted");
        };
        assert!(
            matches!(error, PositionError::NeitherFormat { .. }),
            "{error:?}"
        );
        let attacked = "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1";
        assert!(matches!(
            Position::from_fen(Variant::Chess, attacked),
            Err(PositionError::Rule { .. })
        ));
    }
}
