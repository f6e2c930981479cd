//! The browser board end to end, in real headless browsers driven through
//! W3C WebDriver (JSON over HTTP): `triskel gui` serves the page, a
//! person's clicks play for one seat against engine seats, and the engines'
//! answers must appear on the board. Chromium plays a few moves and a whole
//! game of every three-player game; Firefox plays the few moves.
//!
//! Needed: Debian's `chromium` and `chromium-driver`; for Firefox,
//! `firefox-esr` and `geckodriver` (`cargo install geckodriver`) on the
//! `PATH`. A browser named in `TRISKEL_BROWSER_TESTS` (a comma-separated
//! list: `chromium`, `firefox`) must be there and fails its test if it is
//! not; any other missing browser skips its test, saying so. `.ci/run`
//! installs Chromium and names it.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The browsers that must be there, by name, separated by commas.
const REQUIRED_ENV: &str = "TRISKEL_BROWSER_TESTS";
/// The longest any wait of the test takes (engines move in a second).
const WAIT: Duration = Duration::from_secs(90);
const POLL: Duration = Duration::from_millis(100);

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A free port on 127.0.0.1 (free when asked; ChromeDriver takes it next).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 request to 127.0.0.1:`port`, answering the body as JSON.
fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(WAIT)).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| e.to_string())?;
    // Read the head, then as much body as it announces: ChromeDriver keeps
    // the connection open.
    let mut reader = BufReader::new(stream);
    let mut length = None;
    let mut chunked = false;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let line = line.trim_end().to_ascii_lowercase();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("content-length:") {
            length = value.trim().parse::<usize>().ok();
        }
        chunked |= line.starts_with("transfer-encoding:") && line.contains("chunked");
    }
    let payload = if chunked {
        let mut text = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).map_err(|e| e.to_string())?;
            let size = usize::from_str_radix(line.trim(), 16).map_err(|e| e.to_string())?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).map_err(|e| e.to_string())?;
            if size == 0 {
                break;
            }
            text.push_str(&String::from_utf8_lossy(&chunk[..size]));
        }
        text
    } else {
        let mut body = vec![0; length.ok_or("no Content-Length")?];
        reader.read_exact(&mut body).map_err(|e| e.to_string())?;
        String::from_utf8_lossy(&body).into_owned()
    };
    serde_json::from_str(&payload).map_err(|e| format!("{e}: {payload}"))
}

/// A browser the tests drive through its WebDriver.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Debian's `chromium`, driven by `chromedriver` (`chromium-driver`).
    Chromium,
    /// Debian's `firefox-esr`, driven by `geckodriver` (from crates.io,
    /// found on the `PATH`).
    Firefox,
}

impl Kind {
    fn program(self) -> PathBuf {
        match self {
            Kind::Chromium => PathBuf::from("/usr/bin/chromium"),
            Kind::Firefox => PathBuf::from("/usr/bin/firefox-esr"),
        }
    }

    /// The driver's program, if it is here.
    fn driver(self) -> Option<PathBuf> {
        match self {
            Kind::Chromium => Some(PathBuf::from("/usr/bin/chromedriver")).filter(|p| p.exists()),
            Kind::Firefox => std::env::split_paths(&std::env::var_os("PATH")?)
                .map(|dir| dir.join("geckodriver"))
                .find(|p| p.exists()),
        }
    }

    /// The browser's name in [`REQUIRED_ENV`].
    fn name(self) -> &'static str {
        match self {
            Kind::Chromium => "chromium",
            Kind::Firefox => "firefox",
        }
    }

    fn install_hint(self) -> &'static str {
        match self {
            Kind::Chromium => "apt-get install chromium chromium-driver",
            Kind::Firefox => "apt-get install firefox-esr; cargo install geckodriver",
        }
    }

    /// The new session's capabilities: headless, a window large enough
    /// for the whole page, and `profile` as a fresh profile (Chromium's;
    /// geckodriver makes Firefox's own).
    fn capabilities(self, profile: &Path) -> Value {
        let program = self.program();
        match self {
            Kind::Chromium => {
                let args = [
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--window-size=1400,1000",
                ]
                .iter()
                .map(|a| a.to_string())
                .chain([format!("--user-data-dir={}", profile.display())])
                .collect::<Vec<_>>();
                json!({"capabilities": {"alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": {"binary": program, "args": args}
                }}})
            }
            Kind::Firefox => json!({"capabilities": {"alwaysMatch": {
                "browserName": "firefox",
                "moz:firefoxOptions": {
                    "binary": program,
                    "args": ["-headless", "--width=1400", "--height=1000"],
                    "prefs": {"network.proxy.type": 0, "app.update.enabled": false}
                }
            }}}),
        }
    }

    /// Whether the browser and its driver are here; where they must be
    /// (named in [`REQUIRED_ENV`]), their absence fails the test.
    fn is_here(self) -> bool {
        if self.program().exists() && self.driver().is_some() {
            return true;
        }
        let required = std::env::var(REQUIRED_ENV).unwrap_or_default();
        assert!(
            !required.split(',').any(|name| name.trim() == self.name()),
            "{self:?} and its driver are needed ({REQUIRED_ENV}={required}): {}",
            self.install_hint()
        );
        eprintln!(
            "skipped: no {self:?} or its driver ({})",
            self.install_hint()
        );
        false
    }
}

/// A WebDriver session of a headless browser.
struct Browser {
    port: u16,
    session: String,
    _driver: Killed,
    profile: PathBuf,
}

impl Browser {
    fn start(kind: Kind) -> Browser {
        let port = free_port();
        let driver = Killed(
            Command::new(kind.driver().expect("the driver is here"))
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("the driver starts"),
        );
        let deadline = Instant::now() + WAIT;
        while http(port, "GET", "/status", None).is_err() {
            assert!(Instant::now() < deadline, "the driver did not answer");
            thread::sleep(POLL);
        }
        let profile = std::env::temp_dir().join(format!("triskel-browser-{port}"));
        let capabilities = kind.capabilities(&profile);
        let answer = http(port, "POST", "/session", Some(&capabilities)).unwrap();
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        Browser {
            port,
            session,
            _driver: driver,
            profile,
        }
    }

    /// A command of the session; panics on a WebDriver error.
    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let answer = http(self.port, method, &path, body.as_ref()).unwrap();
        if let Some(error) = answer["value"].get("error") {
            panic!("{method} {path}: {error}: {}", answer["value"]["message"]);
        }
        answer["value"].clone()
    }

    fn open(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    /// The value of `script` (a function body) run in the page.
    fn run(&self, script: &str) -> Value {
        self.command(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Clicks the element of `selector`, as a person's mouse would.
    fn click(&self, selector: &str) {
        let found = self.command(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": selector})),
        );
        let id = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {selector}"))
            .to_string();
        self.command("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// Waits until `script` answers true; panics with `what` if it does not.
    fn wait_for(&self, script: &str, what: &str) {
        let deadline = Instant::now() + WAIT;
        while self.run(script) != Value::Bool(true) {
            let status = self.run("return document.querySelector('#status').textContent;");
            assert!(Instant::now() < deadline, "{what}; status: {status}");
            thread::sleep(POLL);
        }
    }

    /// The cells holding a piece, with the piece's army.
    fn pieces(&self) -> Vec<(String, String)> {
        let found = self.run(
            "return [...document.querySelectorAll('#board .piece')]\
             .map(p => [p.dataset.cell, p.dataset.army]);",
        );
        serde_json::from_value(found).unwrap()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = http(self.port, "DELETE", &path, None);
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// `triskel gui` on a free port, and the page's address.
fn start_gui() -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_triskel"))
        .args(["gui", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in '{line}'"))
        .to_string();
    (Killed(child), url)
}

/// Clicks the middle of `cell` as a mouse would: on whatever is drawn on
/// top there (a piece, a mark of the last move, or the cell itself).
fn click_cell(browser: &Browser, cell: &str) {
    browser.run(&format!(
        "for (const e of document.querySelectorAll('[data-test-click]')) \
           e.removeAttribute('data-test-click'); \
         const box = document.querySelector(\"#board .cell[data-cell='{cell}']\") \
           .getBoundingClientRect(); \
         document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) \
           .setAttribute('data-test-click', '');"
    ));
    browser.click("[data-test-click]");
}

/// `triskel gui` and a `kind` browser showing its page for `variant`,
/// once the board of `cell_count` cells is drawn with a player to move;
/// `None` (the test skips) where the browser is not here.
fn open_board(kind: Kind, variant: &str, cell_count: usize) -> Option<(Killed, Browser)> {
    if !kind.is_here() {
        return None;
    }
    let (gui, url) = start_gui();
    let browser = Browser::start(kind);
    browser.open(&format!("{url}?variant={variant}"));
    browser.wait_for(
        &format!(
            "return document.querySelectorAll('#board .cell').length === {cell_count} \
             && document.querySelector('#status').textContent.includes('to move');"
        ),
        &format!("the {variant} board appears"),
    );
    Some((gui, browser))
}

/// The from and to cells of `text`, a move on the wire, by the names of `cells`.
fn split_move(text: &str, cells: &[String]) -> (String, String) {
    (1..text.len())
        .find_map(|i| {
            let (from, to) = text.split_at(i);
            (cells.iter().any(|c| c == from) && cells.iter().any(|c| c == to))
                .then(|| (from.to_string(), to.to_string()))
        })
        .unwrap_or_else(|| panic!("'{text}' is not two cells"))
}

#[test]
fn a_person_plays_dreierschach_by_clicks_against_two_engines_in_chromium() {
    plays_dreierschach_by_clicks(Kind::Chromium);
}

#[test]
fn a_person_plays_dreierschach_by_clicks_against_two_engines_in_firefox() {
    plays_dreierschach_by_clicks(Kind::Firefox);
}

/// Two rounds of Dreierschach: the person's pawn moves by clicks, each
/// answered by both engines on the board and in the move list; then the
/// game record.
fn plays_dreierschach_by_clicks(kind: Kind) {
    let Some((_gui, browser)) = open_board(kind, "dreierschach", 126) else {
        return;
    };
    // Engines think a second a move (no clock); White is the person's.
    browser.run("document.querySelector('#time-minutes').value = '0';");
    browser.click("#new-game");
    browser.wait_for(
        "return document.querySelector('#status').textContent.includes('(you)');",
        "a new game with the person to move",
    );
    let cells: Vec<String> = serde_json::from_value(
        browser
            .run("return [...document.querySelectorAll('#board .cell')].map(c => c.dataset.cell);"),
    )
    .unwrap();
    for round in 0..2 {
        let plies = round * 3;
        // A pawn's move forward, chosen from the moves the page offers.
        let legal: Vec<String> =
            serde_json::from_value(browser.run("return window.triskel.current.legal;")).unwrap();
        let before = browser.pieces();
        let (from, to) = legal
            .iter()
            .map(|m| split_move(m, &cells))
            .find(|(from, to)| {
                before.iter().any(|(c, a)| c == from && a == "w")
                    && !before.iter().any(|(c, _)| c == to)
            })
            .expect("a quiet move of White");
        click_cell(&browser, &from);
        browser.wait_for(
            &format!("return document.querySelector(\"#board .cell[data-cell='{to}']\").classList.contains('target');"),
            "the move's target is highlighted",
        );
        browser.click(&format!("#board .cell[data-cell='{to}']"));
        browser.wait_for(
            &format!(
                "return Number(document.querySelector('#board').dataset.plies) === {};",
                plies + 3
            ),
            "both engines answer",
        );
        let after = browser.pieces();
        assert!(
            after.iter().any(|(c, a)| *c == to && a == "w"),
            "White's piece on {to}"
        );
        let moves: Vec<String> =
            serde_json::from_value(browser.run(
                "return [...document.querySelectorAll('#moves li')].map(li => li.textContent);",
            ))
            .unwrap();
        assert_eq!(moves.len(), plies + 3, "{moves:?}");
        for (entry, army) in moves[plies + 1..].iter().zip(["n", "b"]) {
            let (letter, text) = entry.split_once(' ').unwrap();
            assert_eq!(letter, army, "{moves:?}");
            let (_, target) = split_move(text, &cells);
            assert!(
                after.iter().any(|(c, a)| *c == target && a == army),
                "{army}'s answer {text} is on the board: {after:?}"
            );
        }
    }
    let record: String = {
        browser.click("#copy-record");
        browser.wait_for(
            "return document.querySelector('#record-text').value.includes('[Variant');",
            "the game record",
        );
        serde_json::from_value(browser.run("return document.querySelector('#record-text').value;"))
            .unwrap()
    };
    assert!(record.contains("[Variant \"dreierschach\"]"), "{record}");
    assert!(record.contains("[PlyCount \"6\"]"), "{record}");
}

/// The status line of the page.
fn status(browser: &Browser) -> String {
    serde_json::from_value(browser.run("return document.querySelector('#status').textContent;"))
        .unwrap()
}

/// Plays `text`, a legal move of the person's, by clicks: the Pass button,
/// or the piece, its target, and the promotion's button if it has one.
fn click_move(browser: &Browser, text: &str, cells: &[String]) {
    if text == "0000" {
        browser.click("#pass");
        return;
    }
    let (from, to) = (1..text.len())
        .find_map(|i| {
            let (from, rest) = text.split_at(i);
            let to = [rest, &rest[..rest.len() - 1]]
                .into_iter()
                .find(|to| cells.iter().any(|c| c == to))?;
            cells
                .iter()
                .any(|c| c == from)
                .then(|| (from.to_string(), to.to_string()))
        })
        .unwrap_or_else(|| panic!("'{text}' is not a move between cells"));
    click_cell(browser, &from);
    browser.wait_for(
        &format!("return document.querySelector(\"#board .cell[data-cell='{to}']\").classList.contains('target');"),
        "the move's target is highlighted",
    );
    click_cell(browser, &to);
    if text.len() > from.len() + to.len() {
        browser.click(&format!("#promotion button[data-move='{text}']"));
    }
}

/// The moves a person makes: a fixed pseudo-random choice among the legal
/// ones (xorshift), so that a failure replays.
struct Chooser(u64);

impl Chooser {
    fn pick<'a>(&mut self, moves: &'a [String]) -> &'a String {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        &moves[(self.0 % moves.len() as u64) as usize]
    }
}

/// The most plies a game of the test may take before it counts as stuck
/// (the rules' move-count draws end every game well before).
const MAX_TEST_PLIES: usize = 3000;

#[test]
fn a_person_plays_a_whole_game_of_every_three_player_game_without_reloading() {
    let Some((_gui, browser)) = open_board(Kind::Chromium, "dreierschach", 126) else {
        return;
    };
    let mut chooser = Chooser(0x9e37_79b9_7f4a_7c15);
    for (variant, cell_count) in [
        ("dreierschach", 126),
        ("hexenschach", 61),
        ("trichess", 96),
        ("star", 96),
    ] {
        // The game is chosen from the page's list: the page stays loaded.
        browser.run(&format!(
            "const select = document.querySelector('#variant'); select.value = '{variant}'; \
             select.dispatchEvent(new Event('change'));"
        ));
        browser.wait_for(
            &format!(
                "return document.querySelectorAll('#board .cell').length === {cell_count} \
                 && document.querySelector('#status').textContent.includes('(you)');"
            ),
            &format!("{variant}: the board with the person to move"),
        );
        browser.run(
            "document.querySelector('#time-minutes').value = '0'; \
             document.querySelector('#move-seconds').value = '0.05';",
        );
        browser.click("#new-game");
        browser.wait_for(
            "return document.querySelector('#status').textContent.includes('(you)') \
             && Number(document.querySelector('#board').dataset.plies) === 0;",
            &format!("{variant}: a new game"),
        );
        let cells: Vec<String> = serde_json::from_value(browser.run(
            "return [...document.querySelectorAll('#board .cell')].map(c => c.dataset.cell);",
        ))
        .unwrap();
        let mut person_moves = 0;
        loop {
            browser.wait_for(
                "const s = document.querySelector('#status').textContent; \
                 return s.includes('(you)') || s.startsWith('Game over');",
                &format!("{variant}: the person's turn or the game's end"),
            );
            let plies: usize = serde_json::from_value(
                browser.run("return Number(document.querySelector('#board').dataset.plies);"),
            )
            .unwrap();
            let shown = status(&browser);
            if shown.starts_with("Game over") {
                eprintln!("{variant}: {shown} after {plies} plies, {person_moves} by clicks");
                break;
            }
            assert!(
                plies < MAX_TEST_PLIES,
                "{variant}: no end after {plies} plies"
            );
            let legal: Vec<String> =
                serde_json::from_value(browser.run("return window.triskel.current.legal;"))
                    .unwrap();
            click_move(&browser, chooser.pick(&legal), &cells);
            person_moves += 1;
            browser.wait_for(
                &format!(
                    "return Number(document.querySelector('#board').dataset.plies) > {plies};"
                ),
                &format!("{variant}: the person's move is played"),
            );
        }
        assert!(person_moves > 0, "{variant}: the person never moved");
    }
}

/// The number the page shows in `#board`'s `data-plies`.
fn plies(browser: &Browser) -> usize {
    serde_json::from_value(
        browser.run("return Number(document.querySelector('#board').dataset.plies);"),
    )
    .unwrap()
}

#[test]
fn clocks_scores_take_back_set_up_and_analysis_work_in_the_page() {
    let Some((_gui, browser)) = open_board(Kind::Chromium, "trichess", 96) else {
        return;
    };
    // Clocks of one minute: the engines' seats run down and show scores.
    browser.run(
        "document.querySelector('#time-minutes').value = '1'; \
         document.querySelector('#time-increment').value = '0';",
    );
    browser.click("#new-game");
    browser.wait_for(
        "return document.querySelector('#status').textContent.includes('(you)') \
         && document.querySelectorAll('#seats .clock')[1].textContent === '1:00.0';",
        "a new game on one-minute clocks",
    );
    let cells: Vec<String> = serde_json::from_value(
        browser
            .run("return [...document.querySelectorAll('#board .cell')].map(c => c.dataset.cell);"),
    )
    .unwrap();
    let start_pieces = browser.pieces();
    let legal: Vec<String> =
        serde_json::from_value(browser.run("return window.triskel.current.legal;")).unwrap();
    click_move(&browser, &legal[0], &cells);
    browser.wait_for(
        "return Number(document.querySelector('#board').dataset.plies) === 3;",
        "both engines answer",
    );
    let seats: Vec<(String, String)> = serde_json::from_value(browser.run(
        "return [...document.querySelectorAll('#seats tbody tr')]\
         .map(r => [r.querySelector('.clock').textContent, r.querySelector('.score').textContent]);",
    ))
    .unwrap();
    for (clock, score) in &seats[1..] {
        assert!(
            clock.as_str() < "1:00.0",
            "an engine's clock ran: {seats:?}"
        );
        assert!(!score.is_empty(), "an engine's score is shown: {seats:?}");
    }
    let after_round: String = serde_json::from_value(
        browser.run("return document.querySelector('#position-text').value;"),
    )
    .unwrap();
    let round_pieces = browser.pieces();
    assert_ne!(round_pieces, start_pieces);

    // Take back: the engines' answers and the person's move go.
    browser.click("#take-back");
    browser.wait_for(
        "return Number(document.querySelector('#board').dataset.plies) === 0 \
         && document.querySelector('#status').textContent.includes('(you)');",
        "the moves are taken back",
    );
    assert_eq!(browser.pieces(), start_pieces);

    // Set up: the position after the round, pasted.
    browser.run(&format!(
        "document.querySelector('#position-text').value = {};",
        json!(after_round)
    ));
    browser.click("#set-position");
    let deadline = Instant::now() + WAIT;
    while browser.pieces() != round_pieces {
        assert!(
            Instant::now() < deadline,
            "the pasted position is not set up"
        );
        thread::sleep(POLL);
    }
    browser.wait_for(
        "return document.querySelector('#status').textContent.includes('(you)');",
        "the person to move in the pasted position",
    );
    assert_eq!(plies(&browser), 0);

    // Analysis with two lines: two lines of text and their first moves as
    // arrows on the board.
    browser.run("document.querySelector('#multipv').value = '2';");
    browser.click("#analyse");
    browser.wait_for(
        "return document.querySelectorAll('#analysis li').length === 2 \
         && document.querySelectorAll('#board .arrow').length === 2;",
        "two analysis lines with their arrows",
    );
    browser.click("#analyse");
    browser.wait_for(
        "return document.querySelectorAll('#analysis li').length === 0 \
         && document.querySelectorAll('#board .arrow').length === 0;",
        "the analysis ends",
    );

    // A bad position is refused with a message, and the board stays.
    browser.run("document.querySelector('#position-text').value = 'not a position';");
    browser.click("#set-position");
    browser.wait_for(
        "return document.querySelector('#status').textContent.startsWith('Not a position');",
        "the bad position is refused",
    );
    assert_eq!(browser.pieces(), round_pieces);
}
