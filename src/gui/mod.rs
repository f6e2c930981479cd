//! `triskel gui`: a board in the browser that plays and analyses through
//! the protocol.
//!
//! The server listens on 127.0.0.1 only and serves one page, embedded in
//! the binary (`src/gui/page/`). Everything the board knows it learns from
//! engines that the page starts as child processes and speaks the protocol
//! to, as any GUI would: a referee (Triskel itself) draws the position
//! (`render`), names the cells (`geometry`), lists the legal moves (`go
//! perft 1`) and says whose turn it is and whether the game is over (`d`);
//! each engine seat, and the analysis, is a process of its own. The
//! server only passes lines ([`process`]) and writes the game record in
//! the format of `triskel match` (PGN, [`crate::tournament::pgn`]).
//!
//! Routes (every one but the page's files needs the page's token in the
//! `X-Triskel-Token` header, and every one a `Host` of this server, so
//! that no other site's page can drive the engines):
//!
//! | route | what it does |
//! |---|---|
//! | `GET /`, `/board.js`, `/board.css` | the page |
//! | `POST /engines` | starts an engine: the body is empty (Triskel itself) or a program and its arguments, separated by spaces; answers `{"id":N}` |
//! | `POST /engines/N/send` | writes the body's lines to engine N |
//! | `GET /engines/N/read?from=K` | engine N's output from line K on, waiting up to [`READ_WAIT`] for a line: `{"next":M,"lines":[...],"running":true}` |
//! | `POST /engines/N/close` | sends `quit` to engine N, and kills it if it does not exit |
//! | `POST /record` | the game record of the body (`variant`, `start`, `seats`, `moves`, `timeout` lines), as PGN |

pub mod process;

use crate::game::Variant;
use crate::render::json;
use crate::tournament::pgn::PgnGame;
use crate::types::Player;
use process::{EngineProcess, Lines};
use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, Server};

/// The page, its script and its style sheet.
const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/board.js");
const STYLE: &str = include_str!("page/board.css");
/// Where the page's token is written into it.
const TOKEN_MARK: &str = "{{TOKEN}}";
/// The header that carries the token.
const TOKEN_HEADER: &str = "X-Triskel-Token";
/// The longest a read waits for an engine's next line.
pub const READ_WAIT: Duration = Duration::from_secs(20);
/// How long an engine may go unread before it is closed (its page was
/// closed or reloaded).
const IDLE_LIMIT: Duration = Duration::from_secs(90);
/// How often idle engines are looked for.
const IDLE_POLL: Duration = Duration::from_secs(10);
/// Most engines running at once.
const MAX_ENGINES: usize = 32;
/// Largest request body read, in bytes.
const MAX_BODY: u64 = 1 << 20;
/// The host names the page may be reached by.
const LOCAL_HOSTS: [&str; 2] = ["127.0.0.1", "localhost"];

/// The browser board's server.
pub struct Gui {
    server: Server,
    port: u16,
    token: String,
    /// The program started for an engine given without one: this binary.
    own_program: String,
    engines: Mutex<HashMap<u64, Arc<EngineProcess>>>,
    next_id: AtomicU64,
}

impl Gui {
    /// Binds the server to 127.0.0.1 on `port` (0: any free port), or
    /// says why it cannot.
    pub fn bind(port: u16) -> Result<Gui, String> {
        let server = Server::http(("127.0.0.1", port))
            .map_err(|why| format!("cannot listen on 127.0.0.1:{port}: {why}"))?;
        let port = server
            .server_addr()
            .to_ip()
            .map_or(port, |address| address.port());
        let own_program = std::env::current_exe()
            .map_err(|why| format!("cannot find this program's path: {why}"))?
            .to_string_lossy()
            .into_owned();
        let random = RandomState::new();
        let token = format!(
            "{:016x}{:016x}",
            random.hash_one(port),
            random.hash_one(std::process::id())
        );
        Ok(Gui {
            server,
            port,
            token,
            own_program,
            engines: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        })
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Serves requests until the process ends, each on a thread of its
    /// own (reads wait for engines' lines).
    pub fn serve(self) {
        let gui = Arc::new(self);
        let reaper = Arc::clone(&gui);
        thread::spawn(move || {
            loop {
                thread::sleep(IDLE_POLL);
                reaper.close_idle();
            }
        });
        for request in gui.server.incoming_requests() {
            let gui = Arc::clone(&gui);
            thread::spawn(move || gui.handle(request));
        }
    }

    /// Answers one request.
    fn handle(&self, mut request: Request) {
        let response = self.route(&mut request);
        let (status, content_type, body) = match response {
            Ok(reply) => reply,
            Err((status, why)) => (status, "text/plain; charset=utf-8", why),
        };
        let response = Response::from_string(body)
            .with_status_code(status)
            .with_header(header("Content-Type", content_type))
            .with_header(header("Cache-Control", "no-store"));
        let _ = request.respond(response);
    }

    /// The status, content type and body answering `request`, or the
    /// status and message of its error.
    fn route(&self, request: &mut Request) -> Result<Reply, (u16, String)> {
        if !self.names_this_host(request) {
            return Err((403, "requests must name this server as their host".into()));
        }
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let method = request.method().clone();
        match (&method, path) {
            (Method::Get, "/") => {
                let page = PAGE.replace(TOKEN_MARK, &self.token);
                return Ok((200, "text/html; charset=utf-8", page));
            }
            (Method::Get, "/board.js") => {
                return Ok((200, "text/javascript; charset=utf-8", SCRIPT.into()));
            }
            (Method::Get, "/board.css") => {
                return Ok((200, "text/css; charset=utf-8", STYLE.into()));
            }
            _ => {}
        }
        if !self.has_token(request) {
            return Err((403, format!("missing or wrong {TOKEN_HEADER} header")));
        }
        let body = read_body(request)?;
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (&method, parts.as_slice()) {
            (Method::Post, ["engines"]) => self.start_engine(&body),
            (Method::Post, ["engines", id, "send"]) => {
                let engine = self.engine(id)?;
                engine.send(&body).map_err(|why| (410, why))?;
                Ok(text_reply(""))
            }
            (Method::Get, ["engines", id, "read"]) => {
                let engine = self.engine(id)?;
                let from = query_number(query, "from")?;
                Ok(json_reply(lines_json(&engine.read(from, READ_WAIT))))
            }
            (Method::Post, ["engines", id, "close"]) => {
                let engine = self.engine(id)?;
                self.lock_engines().retain(|_, e| !Arc::ptr_eq(e, &engine));
                engine.close();
                Ok(text_reply(""))
            }
            (Method::Post, ["record"]) => record(&body).map(text_reply).map_err(|why| (400, why)),
            _ => Err((404, format!("no such route: {} {path}", request.method()))),
        }
    }

    /// Whether `request`'s `Host` is this server (a page of another site
    /// that resolves its own name to 127.0.0.1 names its own host).
    fn names_this_host(&self, request: &Request) -> bool {
        request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .is_some_and(|h| {
                LOCAL_HOSTS
                    .iter()
                    .any(|host| h.value.as_str() == format!("{host}:{}", self.port))
            })
    }

    /// Whether `request` carries the page's token.
    fn has_token(&self, request: &Request) -> bool {
        request
            .headers()
            .iter()
            .any(|h| h.field.equiv(TOKEN_HEADER) && h.value.as_str() == self.token)
    }

    fn lock_engines(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<EngineProcess>>> {
        self.engines.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts the engine of `command` (empty: this program).
    fn start_engine(&self, command: &str) -> Result<Reply, (u16, String)> {
        if self.lock_engines().len() >= MAX_ENGINES {
            return Err((429, format!("at most {MAX_ENGINES} engines run at once")));
        }
        let mut words = command.split_whitespace().map(str::to_string);
        let program = words.next().unwrap_or_else(|| self.own_program.clone());
        let args: Vec<String> = words.collect();
        let engine = EngineProcess::start(&program, &args).map_err(|why| (400, why))?;
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.lock_engines().insert(id, Arc::new(engine));
        Ok(json_reply(format!("{{\"id\":{id}}}")))
    }

    /// The engine with id `text`.
    fn engine(&self, text: &str) -> Result<Arc<EngineProcess>, (u16, String)> {
        text.parse::<u64>()
            .ok()
            .and_then(|id| self.lock_engines().get(&id).cloned())
            .ok_or_else(|| (404, format!("no engine {text}")))
    }

    /// Closes the engines nobody has read for [`IDLE_LIMIT`].
    fn close_idle(&self) {
        let idle: Vec<Arc<EngineProcess>> = {
            let mut engines = self.lock_engines();
            let ids: Vec<u64> = engines
                .iter()
                .filter(|(_, e)| e.idle() > IDLE_LIMIT)
                .map(|(id, _)| *id)
                .collect();
            ids.iter().filter_map(|id| engines.remove(id)).collect()
        };
        for engine in idle {
            engine.close();
        }
    }
}

/// A response's status, content type and body.
type Reply = (u16, &'static str, String);

fn text_reply(body: impl Into<String>) -> Reply {
    (200, "text/plain; charset=utf-8", body.into())
}

fn json_reply(body: String) -> Reply {
    (200, "application/json", body)
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a header of ASCII text")
}

/// The body of `request` as text.
fn read_body(request: &mut Request) -> Result<String, (u16, String)> {
    let mut body = String::new();
    request
        .as_reader()
        .take(MAX_BODY)
        .read_to_string(&mut body)
        .map_err(|why| (400, format!("cannot read the request: {why}")))?;
    Ok(body)
}

/// The number `name=<n>` of a query string.
fn query_number(query: &str, name: &str) -> Result<usize, (u16, String)> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
        .and_then(crate::number::whole::<usize>)
        .ok_or_else(|| (400, format!("expected {name}=<number> in the query")))
}

/// `lines` as the JSON of a read.
fn lines_json(lines: &Lines) -> String {
    let texts: Vec<String> = lines.lines.iter().map(|l| json::string(l)).collect();
    format!(
        "{{\"next\":{},\"lines\":[{}],\"running\":{}}}",
        lines.next,
        texts.join(","),
        lines.running
    )
}

/// The PGN record of the game described by `body`, one field per line:
/// `variant <id>`, `start <position>` (absent: the start position),
/// `seats <name>|<name>|...`, `moves <move> ...`, `timeout <letter>` (the
/// player whose time ran out, if one did).
fn record(body: &str) -> Result<String, String> {
    let mut variant = None;
    let (mut start, mut seats, mut moves, mut timeout) = (None, Vec::new(), Vec::new(), None);
    for line in body.lines() {
        let (field, value) = line.split_once(' ').unwrap_or((line, ""));
        match field {
            "variant" => {
                variant = Some(
                    Variant::from_id(value).ok_or_else(|| format!("no such game: '{value}'"))?,
                );
            }
            "start" => start = Some(value.to_string()),
            "seats" => seats = value.split('|').map(str::to_string).collect(),
            "moves" => moves = value.split_whitespace().map(str::to_string).collect(),
            "timeout" => timeout = Some(value.to_string()),
            "" => {}
            other => return Err(format!("unknown record field '{other}'")),
        }
    }
    let variant = variant.ok_or("the record names no variant")?;
    let timeout = match timeout {
        None => None,
        Some(letter) => {
            let index = letter
                .parse::<char>()
                .ok()
                .and_then(|c| variant.game().player_index(c))
                .ok_or_else(|| format!("timeout: no player '{letter}' in {variant}"))?;
            Some(Player::new(index))
        }
    };
    PgnGame::from_moves(variant, start.as_deref(), &moves, &seats, timeout).map(|game| game.write())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_written_in_the_match_format() {
        let body = "variant chess\nseats Anna|Triskel\nmoves e2e4 e7e5 g1f3\n";
        let pgn = record(body).unwrap();
        assert!(pgn.contains("[White \"Anna\"]"), "{pgn}");
        assert!(pgn.contains("[Black \"Triskel\"]"), "{pgn}");
        assert!(pgn.contains("1. e4 e5 2. Nf3 *"), "{pgn}");
        let mated = record("variant chess\nmoves f2f3 e7e5 g2g4 d8h4").unwrap();
        assert!(mated.contains("[Result \"0-1\"]"), "{mated}");
        let game = PgnGame::parse(&pgn).unwrap();
        assert_eq!(game.replay().unwrap(), ["e2e4", "e7e5", "g1f3"]);
    }

    #[test]
    fn a_finished_three_player_record_has_every_seats_points() {
        let body = "variant dreierschach\nseats a|b|c\nmoves\ntimeout n\n";
        let pgn = record(body).unwrap();
        assert!(pgn.contains("[Result \"3/2-0-3/2\"]"), "{pgn}");
        assert!(pgn.contains("[Brown \"b\"]"), "{pgn}");
        assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
        assert!(
            record("variant chess\ntimeout x")
                .unwrap_err()
                .contains("'x'")
        );
    }

    #[test]
    fn a_bad_record_says_what_is_wrong() {
        assert!(record("variant nonsense").unwrap_err().contains("nonsense"));
        assert!(record("moves e2e4").unwrap_err().contains("variant"));
        assert!(record("variant chess\nmoves e2e5").is_err());
        assert!(
            record("variant chess\nwhat ever")
                .unwrap_err()
                .contains("what")
        );
    }

    #[test]
    fn the_read_query_needs_a_number() {
        assert_eq!(query_number("from=12", "from"), Ok(12));
        assert!(query_number("from=-1", "from").is_err());
        assert!(query_number("", "from").is_err());
    }

    #[test]
    fn lines_are_json_strings() {
        let lines = Lines {
            next: 3,
            lines: vec!["say \"hi\"".into()],
            running: false,
        };
        assert_eq!(
            lines_json(&lines),
            r#"{"next":3,"lines":["say \"hi\""],"running":false}"#
        );
    }
}
