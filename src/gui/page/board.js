// The Triskel browser board. Everything it shows comes from engines it
// starts through the server and speaks the protocol to (protocol.md):
// a referee draws the position (`render`), names the cells (`geometry`),
// lists the legal moves (`go perft 1`) and reads the position (`d`); every
// engine seat and the analysis have a process of their own.
"use strict";

const TOKEN = document.querySelector('meta[name="triskel-token"]').content;
const GAMES = ["chess", "dreierschach", "hexenschach", "trichess", "star", "pyramid", "pyramid-ep"];
const ALGORITHMS = ["brs", "paranoid", "maxn"];
const BOARD_SIZE = 720;
const PROMOTION_NAMES = { q: "Queen", r: "Rook", b: "Bishop", n: "Knight" };
/** Moves of an engine's line drawn as arrows while it thinks. */
const PV_ARROWS = 3;
/** Least time between two pictures drawn for arrows of a thinking engine. */
const ARROW_REDRAW_MS = 400;
/** How often the clocks are shown anew. */
const CLOCK_TICK_MS = 100;
const NO_MOVE = "0000";
/** An engine seat's time per move without clocks, unless the page says otherwise. */
const DEFAULT_MOVE_TIME_MS = 1000;
/** The shortest time per move an engine seat is given. */
const MIN_MOVE_TIME_MS = 10;

const $ = (selector) => document.querySelector(selector);

/** A request to the server, answering its body as text. */
async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { "X-Triskel-Token": TOKEN },
    body: method === "GET" ? undefined : (body ?? ""),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(text || `${method} ${path}: ${response.status}`);
  return text;
}

/** An engine process: lines in, lines out. */
class Engine {
  constructor(id, label) {
    this.id = id;
    this.label = label;
    this.next = 0;
    this.running = true;
    this.listeners = new Set();
    this.queue = Promise.resolve();
    this.poll();
  }

  /** Starts Triskel itself (empty command) or the program of `command`. */
  static async start(command, label) {
    const { id } = JSON.parse(await api("POST", "/engines", command));
    return new Engine(id, label);
  }

  async poll() {
    while (this.running) {
      let read;
      try {
        read = JSON.parse(await api("GET", `/engines/${this.id}/read?from=${this.next}`));
      } catch (error) {
        read = { next: this.next, lines: [], running: false };
      }
      this.next = read.next;
      for (const line of read.lines) for (const listen of [...this.listeners]) listen(line);
      if (!read.running) {
        this.running = false;
        for (const listen of [...this.listeners]) listen(null);
      }
    }
  }

  send(...lines) {
    return api("POST", `/engines/${this.id}/send`, lines.join("\n"));
  }

  /**
   * Sends `lines` and collects the engine's lines until one satisfies
   * `done`; one exchange at a time. `onLine` sees every line on the way.
   */
  ask(lines, done, onLine) {
    const exchange = this.queue.then(() => new Promise((resolve, reject) => {
      const seen = [];
      const listen = (line) => {
        if (line === null) {
          this.listeners.delete(listen);
          reject(new Error(`${this.label} stopped`));
          return;
        }
        seen.push(line);
        if (onLine) onLine(line);
        if (done(line)) {
          this.listeners.delete(listen);
          resolve(seen);
        }
      };
      this.listeners.add(listen);
      this.send(...lines).catch((error) => {
        this.listeners.delete(listen);
        reject(error);
      });
    }));
    this.queue = exchange.catch(() => {});
    return exchange;
  }

  close() {
    this.running = false;
    return api("POST", `/engines/${this.id}/close`).catch(() => {});
  }
}

/** The `info string error: ...` lines among `lines`, as one message. */
function errors(lines) {
  return lines.filter((l) => l.startsWith("info string error:")).map((l) => l.slice(19).trim()).join("; ");
}

/** An engine ready for games of `variant`: `uci`, options, `isready`. */
async function readyEngine(command, label, variant, options) {
  const engine = await Engine.start(command, label);
  const hello = await engine.ask(["uci"], (l) => l === "uciok");
  const names = hello.filter((l) => l.startsWith("option name ")).map((l) => l.slice(12).split(" type ")[0]);
  const settings = [];
  if (names.includes("UCI_Variant") && !(command && variant === "chess")) {
    settings.push(`setoption name UCI_Variant value ${variant}`);
  }
  for (const [name, value] of Object.entries(options)) {
    if (names.includes(name)) settings.push(`setoption name ${name} value ${value}`);
  }
  const answer = await engine.ask([...settings, "ucinewgame", "isready"], (l) => l === "readyok");
  const problem = errors(answer);
  if (problem) throw new Error(`${label}: ${problem}`);
  return engine;
}

/** The words after `key` in an `info` line, up to the next key word. */
function infoFields(line) {
  const words = line.split(" ");
  const fields = {};
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === "score") {
      fields.score = { kind: words[i + 1], value: Number(words[i + 2]) };
      i += 2;
      while (words[i + 1] === "lowerbound" || words[i + 1] === "upperbound") i++;
    } else if (w === "scores") {
      fields.scores = {};
      while (i + 3 < words.length && /^[a-z]$/.test(words[i + 1]) && words[i + 2] === "cp") {
        fields.scores[words[i + 1]] = Number(words[i + 3]);
        i += 3;
      }
    } else if (w === "pv") {
      fields.pv = words.slice(i + 1);
      break;
    } else if (w === "string") {
      break;
    } else if (i + 1 < words.length) {
      fields[w] = words[i + 1];
      i++;
    }
  }
  return fields;
}

function scoreText(score) {
  if (!score) return "";
  if (score.kind === "mate") return `M${score.value}`;
  const pawns = score.value / 100;
  return (pawns > 0 ? "+" : "") + pawns.toFixed(2);
}

function clockText(ms) {
  if (ms === null) return "–";
  const tenths = Math.max(0, Math.floor(ms / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor(tenths / 10) % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}.${tenths % 10}`;
}

/** The board: the game, its seats and clocks, and what the page shows. */
const board = {
  variant: "chess",
  referee: null,
  cells: new Set(),
  players: [],
  start: null,
  moves: [],
  history: [],
  current: null,
  seats: [],
  clocks: [],
  increment: 0,
  moveTime: DEFAULT_MOVE_TIME_MS,
  turnStarted: 0,
  generation: 0,
  selected: null,
  arrows: [],
  analysis: null,
  analysisLines: [],
  timeout: null,
  lastArrowDraw: 0,
};
window.triskel = board;

/** The `position` command's words for the board's game. */
function positionCommand() {
  const start = board.start === null ? "startpos" : `fen ${board.start}`;
  return board.moves.length ? `position ${start} moves ${board.moves.join(" ")}` : `position ${start}`;
}

/** A move's from and to cells and promotion letter, by the board's cell names. */
function splitMove(move) {
  for (let i = 1; i < move.length; i++) {
    const from = move.slice(0, i);
    if (!board.cells.has(from)) continue;
    const rest = move.slice(i);
    if (board.cells.has(rest)) return { from, to: rest, promotion: "" };
    const to = rest.slice(0, -1);
    if (board.cells.has(to)) return { from, to, promotion: rest.slice(-1) };
  }
  return null;
}

/** Reads the current position from the referee: its state and legal moves. */
async function inspect() {
  const ref = board.referee;
  const set = await ref.ask([positionCommand(), "isready"], (l) => l === "readyok");
  const problem = errors(set);
  if (problem) throw new Error(problem);
  const shown = await ref.ask(["d"], (l) => l.startsWith("In check:"));
  const field = (name) => (shown.find((l) => l.startsWith(`${name}: `)) ?? "").slice(name.length + 2);
  const perft = await ref.ask(["go perft 1"], (l) => l.startsWith("Nodes searched") || l.startsWith("info string"));
  const legal = perft.map((l) => l.match(/^(\S+): \d+$/)).filter(Boolean).map((m) => m[1]);
  const state = field("State");
  const over = state.startsWith("gameover") ? state.slice(9) : null;
  return {
    fen: field("Fen"),
    toMove: field("To move").charAt(0),
    state,
    over,
    legal,
  };
}

/** Draws the position, with the arrows of `board.arrows`. */
async function draw() {
  const arrows = board.arrows.filter((m) => m && m !== NO_MOVE).join(",");
  const words = [`render size ${BOARD_SIZE}`];
  if (arrows) words.push(`arrows ${arrows}`);
  const lines = await board.referee.ask([positionCommand(), words.join(" ")], (l) => l.startsWith("svg ") || l.startsWith("info string error"));
  const svg = lines.find((l) => l.startsWith("svg "));
  if (!svg) return;
  const area = $("#board");
  area.innerHTML = svg.slice(4);
  area.dataset.variant = board.variant;
  markSelection();
}

function markSelection() {
  for (const el of document.querySelectorAll("#board .cell.selected, #board .cell.target")) {
    el.classList.remove("selected", "target");
  }
  if (!board.selected) return;
  const cell = (name) => document.querySelector(`#board .cell[data-cell="${name}"]`);
  cell(board.selected)?.classList.add("selected");
  for (const move of movesFrom(board.selected)) cell(splitMove(move).to)?.classList.add("target");
}

function movesFrom(cell) {
  if (!board.current || !humanToMove()) return [];
  return board.current.legal.filter((m) => splitMove(m)?.from === cell);
}

function seatOf(letter) {
  return board.seats[board.players.findIndex((p) => p.letter === letter)];
}

/** Whether a click may move: a human's turn, or any turn while analysing. */
function humanToMove() {
  const current = board.current;
  if (!current || current.over || board.timeout) return false;
  return Boolean(board.analysis) || seatOf(current.toMove)?.kind === "human";
}

function setStatus(text, isError) {
  const status = $("#status");
  status.textContent = text;
  status.classList.toggle("error", Boolean(isError));
}

/** The name of player `letter`. */
function playerName(letter) {
  return board.players.find((p) => p.letter === letter)?.name ?? letter;
}

/** Shows whose turn it is or how the game ended. */
function showState() {
  const current = board.current;
  if (board.timeout) {
    setStatus(`${playerName(board.timeout)} loses on time`);
  } else if (current.over) {
    setStatus(`Game over: ${current.over}`);
  } else {
    const seat = seatOf(current.toMove);
    setStatus(`${playerName(current.toMove)} to move (${seat.kind === "human" ? "you" : seat.label})`);
  }
  $("#pass").disabled = !(humanToMove() && current.legal.includes(NO_MOVE));
  $("#position-text").value = current.fen;
  const list = $("#moves");
  list.innerHTML = "";
  board.moves.forEach((move, i) => {
    const item = document.createElement("li");
    item.textContent = `${board.history[i].toMove} ${move}`;
    list.appendChild(item);
  });
  list.scrollTop = list.scrollHeight;
  showSeats();
  // Last: a test that waits for the count finds everything else shown.
  $("#board").dataset.plies = String(board.moves.length);
}

/** The seats table: player, seat, clock, score. */
function showSeats() {
  const body = $("#seats tbody");
  if (body.children.length !== board.players.length) buildSeatRows();
  board.players.forEach((player, i) => {
    const row = body.children[i];
    row.classList.toggle("to-move", board.current?.toMove === player.letter && !board.current?.over);
    row.querySelector(".clock").textContent = clockText(shownClock(i));
    row.querySelector(".score").textContent = board.seats[i]?.score ?? "";
  });
}

function shownClock(i) {
  if (board.clocks[i] === undefined || board.clocks[i] === null) return null;
  let ms = board.clocks[i];
  if (clockRunning() && board.players[i].letter === board.current.toMove) ms -= performance.now() - board.turnStarted;
  return ms;
}

function clockRunning() {
  return board.current && !board.current.over && !board.timeout && !board.analysis && board.clocks.length > 0 && board.clocks[0] !== null;
}

/** The rows of the seats table, with each seat's choice. */
function buildSeatRows() {
  const body = $("#seats tbody");
  body.innerHTML = "";
  board.players.forEach((player, i) => {
    const row = document.createElement("tr");
    row.dataset.letter = player.letter;
    const name = document.createElement("td");
    name.innerHTML = `<span class="swatch" style="background:${player.fill}"></span>`;
    name.append(`${player.name} (${player.letter})`);
    const seat = document.createElement("td");
    seat.className = "seat-options";
    const kind = document.createElement("select");
    kind.className = "seat-kind";
    for (const [value, text] of [["human", "Human"], ["triskel", "Triskel"], ["external", "Other engine"]]) {
      kind.add(new Option(text, value));
    }
    kind.value = i === 0 ? "human" : "triskel";
    const algorithm = document.createElement("select");
    algorithm.className = "seat-algorithm";
    for (const a of ALGORITHMS) algorithm.add(new Option(a, a));
    algorithm.hidden = board.players.length < 3;
    const program = document.createElement("input");
    program.type = "text";
    program.className = "seat-program";
    program.placeholder = "/path/to/engine";
    const showChoice = () => {
      algorithm.hidden = kind.value !== "triskel" || board.players.length < 3;
      program.hidden = kind.value !== "external";
    };
    kind.addEventListener("change", showChoice);
    showChoice();
    seat.append(kind, algorithm, program);
    const clock = document.createElement("td");
    clock.className = "clock";
    const score = document.createElement("td");
    score.className = "score";
    row.append(name, seat, clock, score);
    body.appendChild(row);
  });
}

/** The seats as the table chooses them. */
function chosenSeats() {
  return [...$("#seats tbody").children].map((row) => ({
    kind: row.querySelector(".seat-kind").value,
    algorithm: row.querySelector(".seat-algorithm").value,
    program: row.querySelector(".seat-program").value.trim(),
  }));
}

/** Starts the referee for `variant` and reads its board. */
async function loadVariant(variant) {
  board.variant = variant;
  if (board.referee) board.referee.close();
  board.referee = await readyEngine("", "referee", variant, {});
  const answer = await board.referee.ask([`geometry size ${BOARD_SIZE}`], (l) => l.startsWith("geometry ") || l.startsWith("info string error"));
  const geometry = JSON.parse(answer.at(-1).slice(9));
  board.cells = new Set(geometry.cells.map((c) => c.name));
  board.players = geometry.players;
  $("#seats tbody").innerHTML = "";
  buildSeatRows();
}

/** Ends the game's engines (and an analysis), keeping the referee. */
async function closeSeats() {
  board.generation++;
  for (const seat of board.seats) if (seat.engine) seat.engine.close();
  board.seats = [];
  await stopAnalysis();
}

/** A new game from `board.start` with the seats the table chooses. */
async function newGame() {
  await closeSeats();
  const generation = board.generation;
  board.moves = [];
  board.history = [];
  board.timeout = null;
  board.selected = null;
  board.arrows = [];
  const minutes = Number($("#time-minutes").value);
  const timed = minutes > 0;
  board.clocks = board.players.map(() => (timed ? minutes * 60000 : null));
  board.increment = timed ? Math.round(Number($("#time-increment").value) * 1000) : 0;
  board.moveTime = Math.max(MIN_MOVE_TIME_MS, Math.round(Number($("#move-seconds").value) * 1000) || DEFAULT_MOVE_TIME_MS);
  const threads = Math.max(1, Math.floor(Number($("#threads").value) || 1));
  setStatus("Starting the engines…");
  const seats = [];
  for (const [i, choice] of chosenSeats().entries()) {
    const player = board.players[i];
    if (choice.kind === "human") {
      seats.push({ kind: "human", label: "human" });
      continue;
    }
    const command = choice.kind === "external" ? choice.program : "";
    if (choice.kind === "external" && !command) throw new Error(`${player.name}: name the engine's program`);
    const label = choice.kind === "external" ? command.split("/").pop() : `Triskel ${board.players.length > 2 ? choice.algorithm : ""}`.trim();
    const options = { Threads: threads };
    if (choice.kind === "triskel") options.SearchAlgorithm = choice.algorithm;
    const engine = await readyEngine(command, `${player.name}'s engine`, board.variant, options);
    seats.push({ kind: "engine", label, engine, score: "" });
  }
  if (generation !== board.generation) {
    for (const seat of seats) if (seat.engine) seat.engine.close();
    return;
  }
  board.seats = seats;
  await advance();
}

/** Reads and shows the position, then lets an engine seat move. */
async function advance() {
  const generation = board.generation;
  board.current = await inspect();
  if (generation !== board.generation) return;
  board.history[board.moves.length] = board.current;
  board.turnStarted = performance.now();
  board.selected = null;
  if (!board.analysis) board.arrows = [];
  await draw();
  showState();
  if (board.analysis) {
    await analyse();
  } else if (!board.current.over && seatOf(board.current.toMove)?.kind === "engine") {
    think(seatOf(board.current.toMove), generation);
  }
}

/** Plays `move` for whoever is to move, running the clocks. */
async function play(move) {
  const i = board.players.findIndex((p) => p.letter === board.current.toMove);
  if (clockRunning()) {
    board.clocks[i] -= performance.now() - board.turnStarted;
    board.clocks[i] += board.increment;
  }
  board.generation++;
  board.moves.push(move);
  await advance();
}

/** The `go` command of an engine seat: every player's clock, or the time per move without clocks. */
function goCommand() {
  if (board.clocks[0] === null) return `go movetime ${board.moveTime}`;
  const words = ["go"];
  board.players.forEach((p, i) => {
    words.push(`${p.letter}time ${Math.max(0, Math.round(shownClock(i)))}`, `${p.letter}inc ${board.increment}`);
  });
  return words.join(" ");
}

/** Lets the engine of `seat` move in the current position. */
async function think(seat, generation) {
  const mover = board.current.toMove;
  const onLine = (line) => {
    if (generation !== board.generation || !line.startsWith("info ") || line.includes(" currmove ")) return;
    const info = infoFields(line);
    if (!info.score && !info.pv) return;
    $("#thinking").textContent = `${seat.label}: depth ${info.depth ?? "?"} ${scoreText(info.score)} ${(info.pv ?? []).join(" ")}`;
    showScores(mover, info);
    if (info.pv && info.multipv !== undefined && info.multipv !== "1") return;
    if (info.pv) {
      board.arrows = info.pv.slice(0, PV_ARROWS);
      const now = performance.now();
      if (now - board.lastArrowDraw > ARROW_REDRAW_MS) {
        board.lastArrowDraw = now;
        draw();
      }
    }
  };
  let lines;
  try {
    lines = await seat.engine.ask([positionCommand(), goCommand()], (l) => l.startsWith("bestmove"), onLine);
  } catch (error) {
    if (generation === board.generation) setStatus(`${seat.label}: ${error.message}`, true);
    return;
  }
  if (generation !== board.generation) return;
  const move = lines.at(-1).split(" ")[1];
  if (!board.current.legal.includes(move)) {
    setStatus(`${seat.label} played an illegal move: ${move}`, true);
    return;
  }
  await play(move);
}

/** Puts the scores of an `info` line of `mover`'s engine beside the players. */
function showScores(mover, info) {
  if (info.scores) {
    board.players.forEach((p, i) => {
      if (board.seats[i] && info.scores[p.letter] !== undefined) {
        board.seats[i].score = scoreText({ kind: "cp", value: info.scores[p.letter] });
      }
    });
  } else if (info.score) {
    board.players.forEach((p, i) => {
      if (!board.seats[i]) return;
      const own = p.letter === mover;
      const score = own ? info.score : { kind: info.score.kind, value: -info.score.value };
      board.seats[i].score = scoreText(score);
    });
  }
  showSeats();
}

/** The clocks: shown anew, and a flag falls when one runs out. */
function tick() {
  if (!clockRunning()) return;
  showSeats();
  const i = board.players.findIndex((p) => p.letter === board.current.toMove);
  if (shownClock(i) <= 0) {
    board.clocks[i] = 0;
    board.timeout = board.current.toMove;
    board.generation++;
    const seat = board.seats[i];
    if (seat?.engine) seat.engine.send("stop");
    showState();
  }
}

/** A click on the board: select a piece, or move it to a highlighted cell. */
function onBoardClick(event) {
  const element = event.target.closest("[data-cell]");
  if (!element || !humanToMove()) return;
  const cell = element.dataset.cell;
  if (board.selected) {
    const moves = movesFrom(board.selected).filter((m) => splitMove(m).to === cell);
    if (moves.length === 1) {
      board.selected = null;
      play(moves[0]).catch(report);
      return;
    }
    if (moves.length > 1) {
      choosePromotion(moves);
      return;
    }
  }
  board.selected = cell !== board.selected && movesFrom(cell).length ? cell : null;
  markSelection();
}

/** Asks which piece a pawn promotes to. */
function choosePromotion(moves) {
  const box = $("#promotion");
  box.innerHTML = "";
  for (const move of moves) {
    const letter = splitMove(move).promotion;
    const button = document.createElement("button");
    button.textContent = PROMOTION_NAMES[letter] ?? letter;
    button.dataset.move = move;
    button.addEventListener("click", () => {
      box.hidden = true;
      board.selected = null;
      play(move).catch(report);
    });
    box.appendChild(button);
  }
  box.hidden = false;
}

/** Takes back the last move, and the engines' moves before it, to a human's turn. */
async function takeBack() {
  if (!board.moves.length) return;
  board.generation++;
  for (const seat of board.seats) if (seat.engine) seat.engine.send("stop");
  board.timeout = null;
  do {
    board.moves.pop();
  } while (board.moves.length && seatOf(board.history[board.moves.length].toMove)?.kind !== "human");
  board.history.length = board.moves.length;
  await advance();
}

/** Starts, or follows the position with, the analysis (infinite, MultiPV). */
async function analyse() {
  const generation = board.generation;
  if (!board.analysis) {
    const multipv = Math.max(1, Math.min(10, Math.floor(Number($("#multipv").value) || 1)));
    board.analysis = await readyEngine("", "analysis", board.variant, { MultiPV: multipv });
    $("#analyse").textContent = "Stop analysis";
    for (const seat of board.seats) if (seat.engine) seat.engine.send("stop");
    board.generation++;
  }
  const engine = board.analysis;
  if (engine.pending) {
    engine.send("stop");
    await engine.pending.catch(() => {});
  }
  if (board.current.over || engine !== board.analysis) return;
  board.analysisLines = [];
  engine.pending = engine.ask([positionCommand(), "go infinite"], (l) => l.startsWith("bestmove"), (line) => {
    // Lines still arriving from an analysis that was stopped are not shown.
    if (engine !== board.analysis || !line.startsWith("info ") || line.includes(" currmove ")) return;
    const info = infoFields(line);
    if (!info.pv) return;
    const k = Number(info.multipv ?? 1) - 1;
    board.analysisLines[k] = `${scoreText(info.score)} d${info.depth} ${info.pv.join(" ")}`;
    const list = $("#analysis");
    list.innerHTML = "";
    for (const text of board.analysisLines) {
      const item = document.createElement("li");
      item.textContent = text ?? "";
      list.appendChild(item);
    }
    board.arrows = board.analysisLines.map((t) => t?.split(" ")[2]);
    const now = performance.now();
    if (now - board.lastArrowDraw > ARROW_REDRAW_MS && generation <= board.generation) {
      board.lastArrowDraw = now;
      draw();
    }
  });
}

async function stopAnalysis() {
  if (!board.analysis) return;
  const engine = board.analysis;
  board.analysis = null;
  engine.close();
  $("#analyse").textContent = "Analyse";
  $("#analysis").innerHTML = "";
  board.arrows = [];
}

async function toggleAnalysis() {
  if (board.analysis) {
    await stopAnalysis();
    await advance();
  } else {
    await analyse();
  }
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (error) {
    return false;
  }
}

/** The game record (PGN, as `triskel match` writes it), from the server. */
async function gameRecord() {
  const names = board.seats.map((s) => s.label);
  const lines = [`variant ${board.variant}`, `seats ${names.join("|")}`, `moves ${board.moves.join(" ")}`];
  if (board.start !== null) lines.push(`start ${board.start}`);
  if (board.timeout) lines.push(`timeout ${board.timeout}`);
  return api("POST", "/record", lines.join("\n"));
}

/** A new game from `text` (the position format, or FEN in chess), if the referee takes it. */
async function setUp(text) {
  const start = text ? `fen ${text}` : "startpos";
  const answer = await board.referee.ask([`position ${start}`, "isready"], (l) => l === "readyok");
  const problem = errors(answer);
  if (problem) throw new Error(`Not a position: ${problem}`);
  board.start = text || null;
  await newGame();
}

function report(error) {
  setStatus(error.message, true);
}

async function main() {
  const select = $("#variant");
  for (const id of GAMES) select.add(new Option(id, id));
  const asked = new URLSearchParams(location.search).get("variant");
  if (GAMES.includes(asked)) select.value = asked;
  select.addEventListener("change", () => {
    board.start = null;
    closeSeats().then(() => loadVariant(select.value)).then(newGame).catch(report);
  });
  $("#new-game").addEventListener("click", () => newGame().catch(report));
  $("#take-back").addEventListener("click", () => takeBack().catch(report));
  $("#pass").addEventListener("click", () => {
    if (humanToMove() && board.current.legal.includes(NO_MOVE)) play(NO_MOVE).catch(report);
  });
  $("#analyse").addEventListener("click", () => toggleAnalysis().catch(report));
  $("#board").addEventListener("click", onBoardClick);
  $("#set-position").addEventListener("click", () => setUp($("#position-text").value.trim()).catch(report));
  $("#copy-position").addEventListener("click", async () => {
    const copied = await copyText(board.current?.fen ?? "");
    setStatus(copied ? "Position copied" : "Select the position's text to copy it");
  });
  $("#copy-record").addEventListener("click", async () => {
    try {
      const record = await gameRecord();
      $("#record-text").value = record;
      const copied = await copyText(record);
      setStatus(copied ? "Game record copied" : "The game record is below");
    } catch (error) {
      report(error);
    }
  });
  setInterval(tick, CLOCK_TICK_MS);
  await loadVariant(select.value);
  await newGame();
}

main().catch(report);
