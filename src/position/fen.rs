//! Reading and writing positions (docs/position-format.md), and standard FEN
//! for chess.

use super::{
    AfterMate, CLOCK_UNITS_PER_MOVE, EnPassant, GameState, MAX_CLOCK_MOVES, MAX_ROUND, Position,
};
use crate::bitboard::Bitboard;
use crate::number;
use crate::types::{Army, Cell, MAX_PLAYERS, Piece, PieceKind, Player, PlayerSet};
use crate::variants::{CastlingSide, EnPassantRule, Variant};
use std::fmt::Write;

/// Why a position string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// Shorthand for an error result with a formatted message.
macro_rules! reject {
    ($($arg:tt)*) => { return Err(PositionError(format!($($arg)*))) };
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

/// Game-specific optional fields.
const OPTIONAL_FIELDS: [(&str, &[Variant]); 5] = [
    ("out", &[Variant::Hexenschach, Variant::Trichess]),
    ("armies", &[Variant::Hexenschach, Variant::Trichess]),
    ("frozen", &[Variant::Star]),
    ("passes", &[Variant::Star]),
    ("captured", &[Variant::Star]),
];

impl Position {
    /// Reads a position of `variant` in the position format (or, for chess,
    /// standard FEN). The position is settled: automatic events due for the
    /// player to move (e.g. Hexenschach's elimination without a move) are applied.
    pub fn from_fen(variant: Variant, text: &str) -> Result<Position, PositionError> {
        Self::from_fen_with(variant, text, AfterMate::default())
    }

    /// As [`Position::from_fen`], with Trichess's `AfterMate` rule.
    pub fn from_fen_with(
        variant: Variant,
        text: &str,
        after_mate: AfterMate,
    ) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            reject!("empty position");
        }
        let mut pos = Position::empty(variant);
        pos.after_mate = after_mate;
        let standard = if variant == Variant::Chess {
            pos.read_standard_board(fields[0])
        } else {
            Ok(())
        };
        if variant == Variant::Chess && standard.is_ok() {
            pos.read_standard_fields(&fields)?;
        } else {
            pos = Position::empty(variant);
            pos.after_mate = after_mate;
            let generic = pos
                .read_board(fields[0])
                .and_then(|()| pos.read_fields(&fields));
            if let (Err(as_standard), Err(as_generic)) = (&standard, &generic) {
                reject!("neither standard FEN ({as_standard}) nor Triskel's format ({as_generic})");
            }
            generic?;
        }
        pos.validate()?;
        pos.hash = pos.compute_hash();
        crate::rules::at_turn_start(&mut pos, &mut Default::default());
        pos.release_empty_armies();
        Ok(pos)
    }

    fn read_board(&mut self, board: &str) -> Result<(), PositionError> {
        let game = self.game;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != game.rows.len() {
            reject!(
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
                        _ => reject!("row {}: bad run of empty cells {}", row_no + 1, quote(&run)),
                    }
                } else {
                    let Some(&kind_letter) = chars.get(i + 1) else {
                        reject!(
                            "row {}: piece {} lacks its piece letter",
                            row_no + 1,
                            quote(&c)
                        );
                    };
                    let army = match game.player_index(c) {
                        Some(a) if c.is_ascii_lowercase() => Army::new(a),
                        _ => reject!(
                            "row {}: {} is not an army letter of {}",
                            row_no + 1,
                            quote(&c),
                            game.variant
                        ),
                    };
                    let kind = match PieceKind::from_letter(kind_letter) {
                        Some(k) if kind_letter.is_ascii_uppercase() => k,
                        _ => reject!(
                            "row {}: {} is not a piece letter",
                            row_no + 1,
                            quote(&kind_letter)
                        ),
                    };
                    let Some(&cell) = cells.get(next) else {
                        reject!("row {} has more than {} cells", row_no + 1, cells.len());
                    };
                    self.put_raw(cell, Piece::new(army, kind));
                    next += 1;
                    i += 2;
                }
            }
            if next != cells.len() {
                reject!(
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
                "a position has at least 6 fields (board, player to move, castling, en passant, clock, round); found {}",
                fields.len()
            );
        }
        self.to_move = self.read_player(fields[1], "player to move")?;
        self.castling = self.read_castling(fields[2])?;
        self.read_en_passant(fields[3])?;
        let clock = read_number(fields[4], "clock", 0, MAX_CLOCK_MOVES.into())?;
        self.round = read_number(fields[5], "round", 1, MAX_ROUND)?;

        let mut state = GameState::new(game.players);
        let mut armies_field: Option<&str> = None;
        let mut seen: Vec<&str> = Vec::new();
        for field in &fields[6..] {
            let Some((key, value)) = field.split_once('=') else {
                reject!(
                    "unexpected field {} (optional fields are key=value)",
                    quote(&field)
                );
            };
            match OPTIONAL_FIELDS.iter().find(|(k, _)| *k == key) {
                Some((_, games)) if games.contains(&game.variant) => {}
                Some(_) => reject!("field {key}= does not belong to {}", game.variant),
                None => reject!("unknown field {key}="),
            }
            if seen.contains(&key) {
                reject!("field {key}= given twice");
            }
            seen.push(key);
            match key {
                "out" => {
                    for (i, letter) in value.chars().enumerate() {
                        let p = self.read_player(&letter.to_string(), "out=")?;
                        if !state.in_game.has(p) || i >= game.players {
                            reject!("out=: player {letter} listed twice");
                        }
                        state.eliminate(p);
                    }
                }
                "armies" => armies_field = Some(value),
                "frozen" => {
                    for letter in value.chars() {
                        let p = self.read_player(&letter.to_string(), "frozen=")?;
                        state.frozen = state.frozen.with(p);
                    }
                }
                "passes" => {
                    state.passes = read_number(value, "passes", 0, game.players as u32)? as u8;
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
                    "armies=: expected pairs <army><controller or ->, got {}",
                    quote(&value)
                );
            }
            for pair in chars.chunks(2) {
                let army = self.read_player(&pair[0].to_string(), "armies=")?.army();
                if std::mem::replace(&mut listed[army.index()], true) {
                    reject!("armies=: army {} listed twice", pair[0]);
                }
                if state.in_game.has(army.owner()) {
                    reject!(
                        "armies=: army {} belongs to a player still in the game",
                        pair[0]
                    );
                }
                state.controller[army.index()] = if pair[1] == '-' {
                    if game.variant != Variant::Trichess {
                        reject!("armies=: neutral obstacles exist only in trichess");
                    }
                    None
                } else {
                    let p = self.read_player(&pair[1].to_string(), "armies=")?;
                    if !state.in_game.has(p) {
                        reject!("armies=: controller {} is out of the game", pair[1]);
                    }
                    Some(p)
                };
            }
        }
        for (a, &was_listed) in listed.iter().enumerate().take(game.players) {
            if !state.in_game.has(Army::new(a).owner()) && !was_listed && self.by_army[a].nonempty()
            {
                reject!(
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

    fn read_player(&self, text: &str, what: &str) -> Result<Player, PositionError> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_lowercase() => match self.game.player_index(c) {
                Some(i) => Ok(Player::new(i)),
                None => reject!(
                    "{what}: {} is not a player of {}",
                    quote(&c),
                    self.game.variant
                ),
            },
            _ => reject!("{what}: expected one player letter, got {}", quote(&text)),
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
                army = Some(self.read_player(&c.to_string(), "castling")?.army());
                continue;
            }
            let side = match c {
                'K' => CastlingSide::Right,
                'Q' => CastlingSide::Left,
                _ => reject!(
                    "castling: unexpected {} (expected army letters followed by K and/or Q)",
                    quote(&c)
                ),
            };
            let Some(army) = army else {
                reject!("castling: {} without an army letter before it", quote(&c));
            };
            match self.game.castling(army, side) {
                Some((_, castling)) => rights |= castling.right_bit(),
                None => reject!("castling: {} has no such castling", self.game.variant),
            }
        }
        Ok(rights)
    }

    fn read_en_passant(&mut self, text: &str) -> Result<(), PositionError> {
        if text == "-" {
            return Ok(());
        }
        if self.game.en_passant == EnPassantRule::None {
            reject!("en passant: {} has no en passant", self.game.variant);
        }
        for entry in text.split(',') {
            let Some(letter) = entry.chars().next() else {
                reject!("en passant: empty entry");
            };
            let player = self.read_player(&letter.to_string(), "en passant")?;
            let cells = &entry[letter.len_utf8()..];
            let Some((skipped, pawn)) = self.split_two_cells(cells) else {
                reject!(
                    "en passant: {} is not <player><skipped cell><pawn cell>",
                    quote(&entry)
                );
            };
            if self.en_passant[player.index()].is_some() {
                reject!("en passant: two entries for player {letter}");
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
            let p = self.read_player(&chars[i].to_string(), "captured=")?;
            let start = i + 1;
            i = start;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            captured[p.index()] =
                read_number(&digits, "captured=", 0, MAX_CAPTURED_POINTS.into())? as u16;
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
            reject!("the player to move is out of the game or frozen");
        }
        let start = Position::start_counts(game.variant);
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
                        "army {letter} must have exactly one king, it has {}",
                        kings.count()
                    );
                }
                reject!("army {letter} is out of the game and cannot have a king");
            }
            let pawns = pieces & self.kind(PieceKind::Pawn);
            let tables = &game.pawns[a];
            if let Some(c) = (pawns & tables.forbidden).into_iter().next() {
                reject!("pawn of army {letter} on its own baseline ({})", name(c));
            }
            if let Some(c) = (pawns & tables.promotion).into_iter().next() {
                reject!(
                    "pawn of army {letter} on a promotion cell ({}) must have promoted",
                    name(c)
                );
            }
            let count = |k: PieceKind| (pieces & self.kind(k)).count() as i32;
            let start_of = |k: PieceKind| start_counts[k.index()] as i32;
            if count(PieceKind::Pawn) > start_of(PieceKind::Pawn) {
                reject!("army {letter} has more pawns than it starts with");
            }
            let extra: i32 = PieceKind::OFFICERS
                .into_iter()
                .map(|k| (count(k) - start_of(k)).max(0))
                .sum();
            if extra > start_of(PieceKind::Pawn) - count(PieceKind::Pawn) {
                reject!("army {letter} has more promoted pieces than missing pawns");
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
                reject!("castling right of army {letter}, whose player is out");
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
                    "en passant {letter}{}{}: no pawn of {letter} stands there after a two-cell move",
                    name(e.skipped),
                    name(e.pawn)
                );
            }
            if game.en_passant == EnPassantRule::NextMoveOnly && Some(player) != previous {
                reject!("en passant {letter}: only the player who moved last can have an entry");
            }
            if !state.active().has(player) && !state.frozen.has(player) {
                reject!("en passant {letter}: that player is out of the game");
            }
        }
        // Hexenschach's phase B may start with a Rabe attacked by the player
        // to move (the rule book's winning capture), so it is exempt. So is
        // Trichess once a player is out: the king taken off the board at a
        // mate or an exposure may have shielded the last mover's king, which
        // the player to move then exposes (the game is over by rule).
        let elimination_may_expose =
            self.variant() == Variant::Trichess && state.out_order[0].is_some();
        if crate::rules::king_safety(self)
            && self.variant() != Variant::Hexenschach
            && !elimination_may_expose
            && let Some(prev) = previous
            && prev != self.to_move
            && let Some(king) = self.king_of(prev)
        {
            let by = self.attackers(state.active().without(prev));
            if self.attackers_of(king, self.occupied, &by).nonempty() {
                reject!(
                    "the king of {} (who moved last) is attacked",
                    game.letters[prev.index()]
                );
            }
        }
        crate::rules::validate(self)?;
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
    fn start_counts(variant: Variant) -> [[u32; PieceKind::COUNT]; MAX_PLAYERS] {
        let game = variant.game();
        let mut start = Position::empty(variant);
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
        if game.variant == Variant::Star && state.captured.iter().any(|&c| c > 0) {
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
            reject!("board has {} rows, chess has 8", rows.len());
        }
        for (text, cells) in rows.iter().zip(&game.rows) {
            let mut next = 0;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        reject!("bad run 0");
                    }
                    next += d as usize;
                    continue;
                }
                let Some(kind) = PieceKind::from_letter(c) else {
                    reject!("{} is not a piece letter", quote(&c));
                };
                let army = Army::new(usize::from(c.is_ascii_lowercase()));
                let Some(&cell) = cells.get(next) else {
                    reject!("a row has more than 8 squares");
                };
                self.put_raw(cell, Piece::new(army, kind));
                next += 1;
            }
            if next != cells.len() {
                reject!("a row of {} describes {next} squares, not 8", quote(&text));
            }
        }
        Ok(())
    }

    fn read_standard_fields(&mut self, fields: &[&str]) -> Result<(), PositionError> {
        let field = |i: usize, default: &'static str| fields.get(i).copied().unwrap_or(default);
        if fields.len() > 6 {
            reject!("standard FEN has at most 6 fields");
        }
        self.to_move = match field(1, "w") {
            "w" => Player::new(0),
            "b" => Player::new(1),
            other => reject!("player to move must be w or b, got {}", quote(&other)),
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
                    _ => reject!("castling: unexpected {}", quote(&c)),
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
                reject!("en passant: {} is not a square", quote(&ep));
            };
            let mover = Player::new(1 - self.to_move.index());
            let forward: i32 = if mover.index() == 0 { 1 } else { -1 };
            let name = g.name(skipped);
            let rank: i32 = name[1..].parse().unwrap_or(0);
            let pawn_name = format!("{}{}", &name[..1], rank + forward);
            let Some(pawn) = g.cell(&pawn_name) else {
                reject!(
                    "en passant: {} is not on the third or sixth rank",
                    quote(&ep)
                );
            };
            // Standard FEN writes the square even when no capture is possible;
            // keep the entry only where the two-step is on the board.
            if self.mailbox[pawn.index()] == Some(Piece::new(mover.army(), PieceKind::Pawn)) {
                self.en_passant[mover.index()] = Some(EnPassant { skipped, pawn });
            } else {
                reject!("en passant: no pawn on {pawn_name} made a two-square move over {ep}");
            }
        }
        let clock = read_number(field(4, "0"), "half-move clock", 0, MAX_CLOCK_MOVES.into())?;
        self.round = read_number(field(5, "1"), "full-move number", 1, MAX_ROUND)?;
        self.state = GameState::new(2);
        self.draw_clock = clock_units(clock, 2);
        self.refresh_control();
        Ok(())
    }

    /// Standard FEN (chess only; other games get the position format).
    pub fn standard_fen(&self) -> String {
        if self.variant() != Variant::Chess {
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

fn read_number(text: &str, what: &str, min: u32, max: u32) -> Result<u32, PositionError> {
    match number::whole_in(text, &(min..=max)) {
        Some(n) => Ok(n),
        _ => reject!(
            "{what}: expected a number from {min} to {max}, got {}",
            quote(&text)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
