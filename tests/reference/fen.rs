//! Splitting a position string (docs/position-format.md) into its fields.
//! Only syntax lives here; every game interprets the rows itself.

/// One token of a board row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowToken {
    /// A run of this many empty cells.
    Empty(usize),
    /// A piece: army letter (lowercase) and piece letter (uppercase).
    Piece { army: char, kind: char },
}

/// A position string cut into its fields, not yet checked against a game.
#[derive(Clone, Debug)]
pub struct RawPosition {
    /// Board rows in the order they were written.
    pub rows: Vec<Vec<RowToken>>,
    /// Letter of the player to move.
    pub to_move: char,
    /// Castling field as written (`-` or e.g. `wKQnK`).
    pub castling: String,
    /// En-passant field as written (`-` or comma-separated entries).
    pub en_passant: String,
    /// The round number.
    pub round: u32,
    /// Optional `key=value` fields.
    pub extra: Vec<(String, String)>,
}

impl RawPosition {
    /// The value of optional field `key`, if present.
    pub fn extra(&self, key: &str) -> Option<&str> {
        self.extra
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The cells of each row in order: `None` for empty, `Some((army, kind))`.
    pub fn expanded_rows(&self) -> Vec<Vec<Option<(char, char)>>> {
        self.rows
            .iter()
            .map(|row| {
                let mut cells = Vec::new();
                for token in row {
                    match *token {
                        RowToken::Empty(n) => cells.extend(std::iter::repeat_n(None, n)),
                        RowToken::Piece { army, kind } => cells.push(Some((army, kind))),
                    }
                }
                cells
            })
            .collect()
    }
}

/// Cuts `text` into fields. Errors name what is malformed.
pub fn split(text: &str) -> Result<RawPosition, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 6 {
        return Err(format!(
            "expected at least 6 fields, found {}",
            fields.len()
        ));
    }
    let rows = fields[0]
        .split('/')
        .map(parse_row)
        .collect::<Result<Vec<_>, _>>()?;
    let mut to_move = fields[1].chars();
    let to_move = match (to_move.next(), to_move.next()) {
        (Some(c), None) => c,
        _ => return Err(format!("bad player to move {:?}", fields[1])),
    };
    // The draw clock is checked but not kept: perft ignores the move-count rules.
    fields[4]
        .parse::<u32>()
        .map_err(|_| format!("bad clock {:?}", fields[4]))?;
    let round = fields[5]
        .parse()
        .map_err(|_| format!("bad round {:?}", fields[5]))?;
    let extra = fields[6..]
        .iter()
        .map(|f| {
            f.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("bad optional field {f:?}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RawPosition {
        rows,
        to_move,
        castling: fields[2].to_string(),
        en_passant: fields[3].to_string(),
        round,
        extra,
    })
}

fn parse_row(row: &str) -> Result<Vec<RowToken>, String> {
    let chars: Vec<char> = row.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let n: usize = text
                .parse()
                .map_err(|_| format!("bad number in row {row:?}"))?;
            if n == 0 {
                return Err(format!("empty run of 0 in row {row:?}"));
            }
            tokens.push(RowToken::Empty(n));
        } else if c.is_ascii_lowercase() && i + 1 < chars.len() && chars[i + 1].is_ascii_uppercase()
        {
            tokens.push(RowToken::Piece {
                army: c,
                kind: chars[i + 1],
            });
            i += 2;
        } else {
            return Err(format!("bad token at {:?} in row {row:?}", &row[i..]));
        }
    }
    Ok(tokens)
}
