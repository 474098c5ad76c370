// boardlab's board page: hand-written, no dependencies. The server sends the board as a
// structured view (cells, regions, last move, status, outcome) and the legal moves with
// their squares; this file draws it as SVG and turns clicks and keys into squares. It never
// writes notation: a move it sends is the text of a legal move the server named, picked by
// its squares (from the state's list, or from the server's `pick` for placement games).
'use strict';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const CELL = 40;
const MARGIN = 26;
const MIN_TAP = 32; // CSS px: the smallest square a finger hits reliably

const app = {
  games: [],        // the game table (GET /api/games)
  ws: null,
  game: null,       // id of the followed game
  tokens: [],       // this page's seat tokens
  state: null,      // the last `state` message
  sel: [],          // squares chosen so far of a multi-click move (indices)
  replay: null,     // {ply, view} while looking at an earlier position
  hint: null,       // the engine's suggestion
  engineText: '',
  analysis: {},     // ply -> score from an analysis
  cursor: 0,        // keyboard cursor square
  keyboard: false,  // the board was last used from the keyboard (the cursor shows)
  lastPly: -1,
  retry: null,
  resignArmed: false,
  flipped: false,   // the board seen from the second player's side (this page only)
};

// ---------- small helpers ----------

function el(tag, attrs, parent) {
  const e = tag.startsWith('svg:') ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  if (parent) parent.appendChild(e);
  return e;
}

function setMessage(text) { $('message').textContent = text || ''; }

function squareName(view, i) {
  return String.fromCharCode(97 + (i % view.width)) + (Math.floor(i / view.width) + 1);
}

function colourOf(owner) {
  const names = app.state ? app.state.names : ['Black', 'White'];
  const n = (names[owner] || '').toLowerCase();
  if (n === 'white') return 'white';
  if (n === 'black') return 'black';
  return owner === 0 ? 'black' : 'white';
}

function parseHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const game = p.get('game');
  return { game: game && /^\d+$/.test(game) ? Number(game) : null, tokens: p.getAll('t') };
}

function seatLink(id, token) {
  return `${location.origin}/#game=${id}` + (token ? `&t=${token}` : '');
}

async function api(path, options) {
  const r = await fetch(path, options);
  const body = await r.json().catch(() => ({ error: `server answered ${r.status}` }));
  if (!r.ok) throw new Error(body.error || `server answered ${r.status}`);
  return body;
}

// ---------- sound ----------

let audio = null;
function beep() {
  if (!$('sound').checked) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 660; g.gain.value = 0.08;
    o.connect(g); g.connect(audio.destination);
    o.start(); o.stop(audio.currentTime + 0.07);
  } catch (e) { /* no audio: silent */ }
}

// ---------- new game form ----------

function seatOptions(select, value) {
  select.innerHTML = '';
  for (const [v, label] of [
    ['human', 'a person here'], ['remote', 'a person elsewhere (link)'],
    ['lobby', 'a person from the lobby (open seat)'],
    ['random', 'random player'], ['baseline', 'article baseline'],
    ['engine:100', 'engine 100 ms'], ['engine:1000', 'engine 1 s'], ['engine:5000', 'engine 5 s'],
  ]) el('option', { value: v, text: label }, select);
  select.value = value;
}

function renderOptions() {
  const g = app.games.find((x) => x.id === $('game-select').value);
  const box = $('options');
  box.querySelectorAll('label').forEach((l) => l.remove());
  if (!g) return;
  for (const o of g.options) {
    const label = el('label', {}, box);
    label.append(o.key + ' ');
    let input;
    if (o.kind.type === 'int') {
      input = el('input', { type: 'number', min: o.kind.min, max: o.kind.max, step: o.kind.step, value: o.default, required: '' }, label);
    } else if (o.kind.type === 'int_or') {
      input = el('input', { type: 'text', value: o.default, required: '', size: 9 }, label);
      input.dataset.min = o.kind.min; input.dataset.max = o.kind.max; input.dataset.word = o.kind.word;
    } else if (o.kind.type === 'bool') {
      input = el('input', { type: 'checkbox' }, label);
      input.checked = o.default === 'true';
    } else {
      input = el('select', {}, label);
      for (const v of o.kind.values) el('option', { value: v, text: v }, input);
      input.value = o.default;
    }
    input.id = 'opt-' + o.key;
    input.dataset.key = o.key;
    input.dataset.kind = o.kind.type;
    el('span', { class: 'range', text: ' (' + o.range + ')' }, label);
  }
  $('seat0-name').textContent = g.players[0];
  $('seat1-name').textContent = g.players[1];
}

function buildSpec() {
  const id = $('game-select').value;
  const parts = [];
  for (const input of $('options').querySelectorAll('[data-key]')) {
    const key = input.dataset.key;
    if (input.dataset.kind === 'bool') { parts.push(`${key}=${input.checked}`); continue; }
    if (input.dataset.kind === 'int') {
      const v = input.value.trim();
      const min = Number(input.min), max = Number(input.max), step = Number(input.step) || 1;
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max || (Number(v) - min) % step !== 0) {
        throw new Error(`${key}: '${v}' is out of range: ${input.parentNode.querySelector('.range').textContent.trim()}`);
      }
      parts.push(`${key}=${v}`);
      continue;
    }
    if (input.dataset.kind === 'int_or') {
      const v = input.value.trim().toLowerCase();
      const ok = v === input.dataset.word
        || (/^\d+$/.test(v) && Number(v) >= Number(input.dataset.min) && Number(v) <= Number(input.dataset.max));
      if (!ok) throw new Error(`${key}: '${v}' is out of range: ${input.parentNode.querySelector('.range').textContent.trim()}`);
      parts.push(`${key}=${v}`);
      continue;
    }
    parts.push(`${key}=${input.value}`);
  }
  return parts.length ? `${id}:${parts.join(',')}` : id;
}

async function startGame(ev) {
  ev.preventDefault();
  $('setup-error').textContent = '';
  let spec;
  try { spec = buildSpec(); } catch (e) { $('setup-error').textContent = e.message; return; }
  const choice = [$('seat0').value, $('seat1').value];
  // A seat for the lobby is free: whoever takes it there gets its token.
  const seats = choice.map((c) => (c === 'remote' ? 'human' : c === 'lobby' ? 'free' : c));
  // The server reads the time control (and names what is wrong with one).
  const time = $('time-control').value.trim();
  let created;
  try {
    created = await api('/api/games', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ spec, seats, time }),
    });
  } catch (e) { $('setup-error').textContent = e.message; return; }
  // The creator's token rides along with this page's seats: it pauses the engines.
  const mine = [created.owner], remote = [];
  created.tokens.forEach((t, i) => {
    if (!t) return;
    if (choice[i] === 'remote') remote.push({ seat: i, token: t }); else mine.push(t);
  });
  localStorage.setItem('links-' + created.id, JSON.stringify(remote));
  openGame(created.id, mine);
}

// The form replaces the game: the old game's panel is closed (its connection too), so
// nothing under the form acts on a game. "Back to the game" reopens it.
function showSetup() {
  if (app.game !== null) app.back = { game: app.game, tokens: app.tokens };
  closeGame();
  $('records-form').hidden = true;
  $('setup').hidden = false;
  $('lobby').hidden = false;
  $('play').hidden = true;
  refreshLobby();
  $('back-btn').hidden = !app.back;
  if (app.back) $('back-btn').textContent = `Back to game ${app.back.game}`;
}

function closeGame() {
  if (app.ws) { app.ws.onclose = null; app.ws.close(); app.ws = null; }
  clearTimeout(app.retry);
  app.game = null; app.tokens = []; app.state = null; app.sel = []; app.replay = null;
  app.hint = null; app.engineText = '';
  $('board').innerHTML = '';
  setMessage('');
  history.replaceState(null, '', location.pathname);
}

// ---------- load ----------

async function loadFile(file, k) {
  setMessage('');
  $('setup-error').textContent = '';
  const text = await file.text();
  // An SGF record (a gomoku game from another program) opens through the server's codec.
  const sgf = /\.sgf$/i.test(file.name) || /^\s*\(\s*;/.test(text);
  try {
    const path = sgf ? '/api/sgf' : '/api/load' + (k ? `?game=${k}` : '');
    const created = await api(path, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: text });
    openGame(created.id, created.tokens.filter(Boolean));
    // A records file (selfplay --records) holds many games: offer the others.
    app.records = created.games_in_file > 1 ? file : null;
    $('records-form').hidden = !app.records;
    $('records-text').textContent = `This records file holds ${created.games_in_file} games; this is game ${created.game_in_file}. `;
    $('records-game').max = created.games_in_file;
  } catch (e) {
    const where = $('play').hidden ? $('setup-error') : $('message');
    where.textContent = `cannot load ${file.name}: ${e.message}`;
  }
}

// ---------- lobby ----------

// The games this browser holds seats in: [{id, tokens}], newest first, in localStorage
// so that closing the tab loses no seat.
const MY_GAMES = 'my-games';
const LOBBY_ROWS = 20; // most games shown in each list
const LOBBY_POLL_MS = 3000;
// How often the running clock is redrawn between the server's states.
const CLOCK_DRAW_MS = 100;

function myGames() {
  try {
    const v = JSON.parse(localStorage.getItem(MY_GAMES) || '[]');
    return Array.isArray(v) ? v.filter((g) => Number.isInteger(g.id) && Array.isArray(g.tokens)) : [];
  } catch (e) { return []; }
}

function rememberSeats(id, tokens) {
  if (!tokens.length) return;
  const list = myGames().filter((g) => g.id !== id);
  list.unshift({ id, tokens });
  localStorage.setItem(MY_GAMES, JSON.stringify(list.slice(0, 100)));
}

function describeGame(g) {
  const seat = (i) => `${g.names[i]}: ${g.labels[i]}`;
  const now = g.result || `${g.names[g.to_move]} to move`;
  const clock = g.time_control ? ` · clock ${g.time_control}` : '';
  return `${seat(0)}, ${seat(1)}${clock} · ${g.moves} ${g.moves === 1 ? 'move' : 'moves'} · ${now}`;
}

// One list of the lobby: a row per game with its buttons [label, class, action].
function fillLobby(id, rows, empty) {
  const ul = $(id);
  ul.innerHTML = '';
  if (!rows.length) { el('li', { class: 'none', text: empty }, ul); return; }
  for (const [g, buttons, extra] of rows.slice(0, LOBBY_ROWS)) {
    const li = el('li', { 'data-game': g.id }, ul);
    const what = el('span', { class: 'what' }, li);
    el('strong', { text: `Game ${g.id} · ${g.game}` }, what);
    what.append(` · ${describeGame(g)}${extra || ''}`);
    el('span', { class: 'spec', text: g.spec }, what);
    for (const [label, cls, action] of buttons) {
      el('button', { type: 'button', class: cls, text: label }, li).addEventListener('click', action);
    }
  }
}

async function refreshLobby() {
  if ($('lobby').hidden) return;
  let list;
  try { list = await api('/api/lobby'); } catch (e) { $('lobby-error').textContent = `cannot read the lobby: ${e.message}`; return; }
  if ($('lobby').hidden) return;
  $('lobby-error').textContent = '';
  list.sort((x, y) => y.id - x.id);
  const byId = new Map(list.map((g) => [g.id, g]));
  // A game gone from the server (expired and archived) leaves this browser's list.
  const all = myGames();
  const mine = all.filter((m) => byId.has(m.id));
  if (mine.length !== all.length) localStorage.setItem(MY_GAMES, JSON.stringify(mine));
  const mineIds = new Set(mine.map((m) => m.id));
  fillLobby('lobby-mine', mine.map((m) => {
    const g = byId.get(m.id);
    return [g, [[g.result ? 'Open' : 'Resume', 'resume', () => openGame(m.id, m.tokens)]]];
  }), 'none yet: start one with the form above, or take an open seat');
  const live = list.filter((g) => !g.result && !mineIds.has(g.id));
  fillLobby('lobby-open', live.filter((g) => g.seats.includes('free')).map((g) => [g,
    [0, 1].filter((i) => g.seats[i] === 'free').map((i) => [`Take ${g.names[i]}`, 'take', () => takeSeat(g.id, i)])]),
  'no open seat now');
  fillLobby('lobby-live', live.map((g) => [g, [['Watch', 'watch', () => openGame(g.id, [])]],
    ` · ${g.watchers} watching`]), 'no live game now');
}

async function takeSeat(id, seat) {
  try {
    const joined = await api(`/api/games/${id}/join`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ seat }),
    });
    openGame(id, [joined.token]);
  } catch (e) {
    $('lobby-error').textContent = `cannot take the seat: ${e.message}`;
    refreshLobby();
  }
}

// ---------- connection ----------

function openGame(id, tokens) {
  app.game = id;
  app.tokens = tokens;
  app.state = null;
  app.sel = []; app.replay = null; app.hint = null; app.analysis = {}; app.engineText = '';
  app.lastPly = -1;
  const hash = `game=${id}` + tokens.map((t) => `&t=${t}`).join('');
  history.replaceState(null, '', '#' + hash);
  $('setup').hidden = true;
  $('lobby').hidden = true;
  $('play').hidden = false;
  app.back = null;
  rememberSeats(id, tokens);
  setMessage('');
  connect();
}

function connect() {
  if (app.ws) { app.ws.onclose = null; app.ws.close(); }
  clearTimeout(app.retry);
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  app.ws = ws;
  ws.onopen = () => {
    setMessage('');
    ws.send(JSON.stringify({ type: 'open', game: app.game, tokens: app.tokens }));
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    if (app.ws !== ws) return;
    setMessage('connection lost: reconnecting…');
    app.retry = setTimeout(connect, 1000);
  };
}

function send(msg) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) { setMessage('not connected: reconnecting…'); return; }
  app.ws.send(JSON.stringify(msg));
}

function sendMove(text) {
  setMessage('');
  send({ type: 'move', move: text });
}

function onMessage(m) {
  switch (m.type) {
    case 'state': {
      const first = !app.state;
      if (app.state && m.moves.length !== app.state.moves.length) { app.hint = null; }
      if (!first && m.moves.length > app.lastPly) beep();
      app.state = m;
      // The server's clocks as of now: the running one is counted down from here.
      app.clockAt = performance.now();
      app.lastPly = m.moves.length;
      app.sel = [];
      if (m.thinking === null && app.engineText.startsWith('thinking')) app.engineText = '';
      setMessage('');
      render();
      // A board wider than a phone scrolls in its column: open it on the centre.
      if (first) { const col = $('board-col'); col.scrollLeft = (col.scrollWidth - col.clientWidth) / 2; }
      break;
    }
    case 'error': setMessage(m.message); app.sel = []; if (app.state) render(); break;
    case 'thinking': {
      const p = m.progress;
      app.engineText = `thinking… depth ${p.depth}, score ${p.score.text}, ${p.nodes} nodes\npv ${p.pv}`;
      $('engine').textContent = app.engineText;
      break;
    }
    case 'engine': {
      const a = m.answer;
      app.engineText = `${app.state ? app.state.names[m.seat] : 'engine'} played ${a.move}` +
        (a.score ? ` (depth ${a.depth}, score ${a.score.text})\npv ${a.pv}` : '');
      $('engine').textContent = app.engineText;
      break;
    }
    case 'hint': {
      app.hint = m.answer;
      $('engine').textContent = `hint: ${m.answer.move}` + (m.answer.score ? ` (score ${m.answer.score.text}, depth ${m.answer.depth})\npv ${m.answer.pv}` : '');
      app.engineText = $('engine').textContent;
      render();
      break;
    }
    case 'view': app.replay = { ply: m.ply, view: m.view }; app.sel = []; render(); break;
    case 'analysis':
      app.analysis[m.ply] = m.score;
      if (m.done) $('engine').textContent = 'analysis done';
      drawGraph();
      break;
    default: break;
  }
}

// ---------- drawing ----------

// Screen column and row (from the top) of board column `col`, row `row` (from the
// bottom): turned half round when the board is flipped.
function screenColRow(view, col, row) {
  return app.flipped ? [view.width - 1 - col, row] : [col, view.height - 1 - row];
}

function cellXY(view, i) {
  const [c, r] = screenColRow(view, i % view.width, Math.floor(i / view.width));
  return [MARGIN + c * CELL, MARGIN + r * CELL];
}

function centre(view, i) {
  const [x, y] = cellXY(view, i);
  return [x + CELL / 2, y + CELL / 2];
}

// Stones go on the intersections of a grid (gomoku, Connect6), as their players draw
// them; pieces go in squares.
function onPoints() {
  const g = app.state.game;
  return g === 'gomoku' || g === 'connect6';
}

function cellClass(view, i) {
  if (onPoints()) return 'point';
  if (app.state.game === 'amazons') {
    const col = i % view.width, row = Math.floor(i / view.width);
    return (col + row) % 2 === 0 ? 'dark' : 'light';
  }
  return 'plain';
}

// Star points of a go-style board: the fourth line from each edge (the third on boards
// under 13), the centre of an odd board, and the middles of the sides from 19 up.
function starPoints(n) {
  if (n < 7) return [];
  const e = n >= 13 ? 3 : 2, mid = (n - 1) / 2, lines = [e, n - 1 - e];
  const out = [];
  for (const c of lines) for (const r of lines) out.push([c, r]);
  if (n % 2 === 1) {
    out.push([mid, mid]);
    if (n >= 19) for (const c of lines) out.push([c, mid], [mid, c]);
  }
  return out;
}

// Legal moves with the squares the server names for them (never parsed from their
// notation here), for the clicked-so-far prefix.
function candidates(view) {
  const legal = app.state.legal || [];
  return legal.map((m) => ({ text: m.text, sq: m.squares }))
    .filter((m) => app.sel.every((s, k) => m.sq[k] === s));
}

function targets(view) {
  const st = app.state;
  if (app.replay || !st.your_turn) return [];
  if (st.legal === null) return [];
  const k = app.sel.length;
  const out = new Set();
  // At the first click placements are not marked (every empty square is one): only the
  // pieces that can move are.
  for (const m of candidates(view)) if (m.sq.length > k && !(k === 0 && m.sq.length === 1)) out.add(m.sq[k]);
  return [...out];
}

function render() {
  const st = app.state;
  if (!st) return;
  const view = app.replay ? app.replay.view : st.view;
  drawBoard(view);
  // banner
  const o = st.view.outcome;
  const banner = $('banner');
  if (o && !app.replay) {
    banner.hidden = false;
    banner.textContent = (o.winner === null ? 'Draw' : `${st.names[o.winner]} wins`) + ` — ${o.reason}`;
  } else banner.hidden = true;
  drawClocks();
  // turn and status
  const tm = st.view.to_move;
  const seat = st.seats[tm];
  let turn;
  if (o) turn = 'Game over';
  else if (st.your_turn) turn = `${st.names[tm]} to move (you)`;
  else if (seat.kind === 'engine') turn = `${st.names[tm]} to move (${seat.label})`;
  else if (!st.seats[0].yours && !st.seats[1].yours) turn = `${st.names[tm]} to move (you are watching)`;
  else turn = `${st.names[tm]} to move (waiting for the other player)`;
  if (view.stones_per_turn === 2 && !o) turn += ': place two stones';
  if (st.paused && !o) turn += ' (engines paused by the creator)';
  $('turn').textContent = turn;
  const ul = $('status');
  ul.innerHTML = '';
  el('li', { text: `${st.names[0]}: ${st.seats[0].label}${st.seats[0].yours ? ' (you)' : ''}; ${st.names[1]}: ${st.seats[1].label}${st.seats[1].yours ? ' (you)' : ''}` }, ul);
  for (const s of view.status) el('li', { text: `${s.label}: ${s.value}` }, ul);
  const lastPass = st.moves.length ? passAt(st.moves.length - 1) : undefined;
  if (lastPass && !app.replay) el('li', { text: `last move: ${st.names[lastPass.player]} passes` }, ul);
  el('li', { text: `game: ${st.spec}` }, ul);
  // pair bar (Connect6)
  const pairing = st.legal === null && view.stones_per_turn === 2 && st.your_turn && !app.replay;
  $('pair-bar').hidden = !(pairing && app.sel.length > 0);
  $('pair-text').textContent = app.sel.map((s) => squareName(view, s)).join(', ') +
    (app.sel.length < 2 ? ' — choose the second stone' : ' — confirm the pair');
  $('pair-confirm').disabled = app.sel.length !== 2;
  // controls
  $('undo-btn').disabled = !st.can_undo;
  // Between two remote people a takeback is asked of the opponent, not done.
  const mineSeats = [0, 1].filter((i) => st.seats[i].yours);
  const asks = mineSeats.length === 1 && st.seats[1 - mineSeats[0]].kind === 'human';
  $('undo-btn').textContent = asks ? 'Ask to take back' : 'Undo';
  // A rematch: offered to the players of a finished game; once made, each goes to it
  // with their own seat (a spectator watches it).
  const rm = st.rematch;
  $('rematch-btn').hidden = !(rm || st.can_rematch);
  $('rematch-btn').textContent = rm ? `Go to the rematch (game ${rm.id})` : 'Rematch (colours swapped)';
  $('flip-btn').setAttribute('aria-pressed', String(app.flipped));
  $('redo-btn').disabled = !st.can_redo;
  // The host's fair-play rule decides: between two remote people help is off unless
  // both turned it on; spectators analyse once the game is over.
  $('hint-btn').disabled = !st.can_hint;
  $('analyse-btn').disabled = !st.can_analyse;
  $('draw-btn').disabled = !st.can_offer_draw;
  $('pause-btn').hidden = !st.can_pause;
  $('pause-btn').textContent = st.paused ? 'Resume engines' : 'Pause engines';
  const mine = [0, 1].filter((i) => st.seats[i].yours);
  const remote = mine.length === 1 && st.seats[1 - mine[0]].kind === 'human';
  $('help-box').parentElement.hidden = !remote || !!o;
  if (remote) $('help-box').checked = st.seats[mine[0]].help;
  const offer = st.offer;
  $('offer-bar').hidden = !offer;
  if (offer) {
    const what = { takeback: 'a takeback', draw: 'a draw', rematch: 'a rematch (colours swapped)' }[offer.kind] || offer.kind;
    $('offer-text').textContent = offer.yours_to_answer
      ? `${st.names[offer.by]} asks for ${what}`
      : `${st.names[offer.by]} offered ${what}: waiting for the answer`;
    $('offer-accept').hidden = !offer.yours_to_answer;
    $('offer-decline').hidden = !offer.yours_to_answer;
  }
  $('resign-btn').disabled = !!o || !(st.seats[0].yours || st.seats[1].yours);
  $('move-input').disabled = !st.your_turn;
  $('save-btn').href = `/api/games/${st.id}/save`;
  $('sgf-btn').hidden = st.game !== 'gomoku';
  $('sgf-btn').href = `/api/games/${st.id}/sgf`;
  $('sgf-btn').setAttribute('download', `gomoku-${st.id}.sgf`);
  $('save-btn').setAttribute('download', `${st.game}-${st.id}.save`);
  $('engine').textContent = st.thinking !== null && !app.engineText ? 'thinking…' : app.engineText;
  // replay bar
  $('replay-bar').hidden = !app.replay;
  if (app.replay) $('replay-text').textContent = `Viewing the position after ${app.replay.ply} of ${st.moves.length} moves`;
  renderMoves();
  renderLinks();
  drawGraph();
  app.renderedAt = performance.now(); // the browser test measures click-to-redraw with it
}

function drawBoard(view) {
  const svg = $('board');
  const W = view.width * CELL + 2 * MARGIN, H = view.height * CELL + 2 * MARGIN;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  // Tap targets of at least 32 CSS px on every board: a board too wide for the screen
  // scrolls inside its column (the page itself never scrolls sideways).
  svg.style.minWidth = `${Math.ceil(W * MIN_TAP / CELL)}px`;
  svg.innerHTML = '';
  const st = app.state;
  const n = view.width * view.height;
  const points = onPoints();
  if (points) {
    // The wood, the grid through the squares' centres, the star points.
    el('svg:rect', { x: MARGIN, y: MARGIN, width: view.width * CELL, height: view.height * CELL, class: 'wood' }, svg);
    const lo = MARGIN + CELL / 2;
    for (let c = 0; c < view.width; c++) {
      const x = lo + c * CELL;
      el('svg:line', { x1: x, y1: lo, x2: x, y2: lo + (view.height - 1) * CELL, class: 'grid' }, svg);
    }
    for (let r = 0; r < view.height; r++) {
      const y = lo + r * CELL;
      el('svg:line', { x1: lo, y1: y, x2: lo + (view.width - 1) * CELL, y2: y, class: 'grid' }, svg);
    }
    if (view.width === view.height) {
      for (const [c, r] of starPoints(view.width)) {
        const [cx, cy] = centre(view, r * view.width + c);
        el('svg:circle', { cx, cy, r: 3.5, class: 'star' }, svg);
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const [x, y] = cellXY(view, i);
    const r = el('svg:rect', { x, y, width: CELL, height: CELL, class: 'cell ' + cellClass(view, i), 'data-sq': squareName(view, i) }, svg);
    r.addEventListener('click', () => onCell(i));
  }
  for (const reg of view.regions) {
    for (const i of reg.squares) {
      const [x, y] = cellXY(view, i);
      el('svg:rect', { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, class: 'zone' + reg.owner }, svg).appendChild(el('svg:title', { text: reg.label }));
    }
  }
  // coordinates: letters under and over the board, numbers left and right
  for (let c = 0; c < view.width; c++) {
    const x = MARGIN + screenColRow(view, c, 0)[0] * CELL + CELL / 2, ch = String.fromCharCode(97 + c);
    el('svg:text', { x, y: H - MARGIN / 2, class: 'coord', text: ch }, svg);
    el('svg:text', { x, y: MARGIN / 2, class: 'coord', text: ch }, svg);
  }
  for (let r = 0; r < view.height; r++) {
    const y = MARGIN + screenColRow(view, 0, r)[1] * CELL + CELL / 2;
    el('svg:text', { x: MARGIN / 2, y, class: 'coord', text: String(r + 1) }, svg);
    el('svg:text', { x: W - MARGIN / 2, y, class: 'coord', text: String(r + 1) }, svg);
  }
  const outcome = app.replay ? app.replay.view.outcome : view.outcome;
  if (outcome && outcome.line.length) {
    for (const i of outcome.line) {
      const [x, y] = cellXY(view, i);
      el('svg:rect', { x, y, width: CELL, height: CELL, class: 'win' }, svg);
    }
  }
  // While a piece's move is being built (an Amazons queen before its arrow), the piece
  // is drawn on the square it goes to and its old square is empty.
  const cells = view.cells.slice();
  const moving = !app.replay && st.legal !== null && app.sel.length >= 2 && cells[app.sel[0]] && !cells[app.sel[1]];
  if (moving) { cells[app.sel[1]] = cells[app.sel[0]]; cells[app.sel[0]] = null; }
  for (let i = 0; i < n; i++) {
    const c = cells[i];
    if (c) drawCell(svg, view, i, c, '');
  }
  if (outcome && outcome.line.length > 1) {
    const [x1, y1] = centre(view, outcome.line[0]);
    const [x2, y2] = centre(view, outcome.line[outcome.line.length - 1]);
    el('svg:line', { x1, y1, x2, y2, class: 'winline' }, svg);
  }
  // The last move: a red dot on a stone (as go-style boards mark it), a red outline on
  // the squares of a piece's move.
  for (const i of view.last) {
    const [x, y] = cellXY(view, i);
    if (points && cells[i]) el('svg:circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.12, class: 'last-dot' }, svg);
    else el('svg:rect', { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: 'last' }, svg);
  }
  for (const i of view.captured) {
    const [cx, cy] = centre(view, i);
    el('svg:circle', { cx, cy, r: CELL * 0.3, class: 'captured' }, svg);
  }
  if (!app.replay) {
    // the move being built
    const placing = st.legal === null;
    app.sel.forEach((i, k) => {
      if (placing) drawCell(svg, view, i, { type: 'piece', owner: view.to_move, kind: 'stone' }, 'pending');
      const [x, y] = cellXY(view, i);
      const from = moving && k === 0;
      el('svg:rect', { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, class: from ? 'selected from' : 'selected' }, svg);
    });
    // A target on a piece (a piece that can move) is a ring around it, leaving the
    // piece visible; on an empty square, a dot.
    for (const i of targets(view)) {
      const [cx, cy] = centre(view, i);
      if (cells[i]) el('svg:circle', { cx, cy, r: CELL * 0.47, class: 'target ring', 'data-target': squareName(view, i) }, svg);
      else el('svg:circle', { cx, cy, r: CELL * 0.14, class: 'target', 'data-target': squareName(view, i) }, svg);
    }
    if (app.hint) {
      for (const i of app.hint.squares) {
        const [x, y] = cellXY(view, i);
        el('svg:rect', { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, class: 'hint' }, svg);
      }
    }
  }
  drawCursor();
}

// The keyboard cursor, drawn while the board has the focus and was last used from the
// keyboard (a mouse click or tap shows none), under the last move's red outline and
// dashed so that the outline stays visible. Never redraws the board: a click that
// focuses it must land on the square it was pressed on.
function drawCursor() {
  const svg = $('board');
  svg.querySelectorAll('.cursor').forEach((e) => e.remove());
  if (!app.state || !app.keyboard || document.activeElement !== svg) return;
  const view = app.replay ? app.replay.view : app.state.view;
  const [x, y] = cellXY(view, app.cursor % (view.width * view.height));
  const cursor = el('svg:rect', { x: x + 0.5, y: y + 0.5, width: CELL - 1, height: CELL - 1, class: 'cursor' });
  svg.insertBefore(cursor, svg.querySelector('.last, .last-dot, .selected, .target, .hint'));
}

function drawCell(svg, view, i, c, extra) {
  const [cx, cy] = centre(view, i);
  if (c.type === 'marker') {
    const [x, y] = cellXY(view, i);
    el('svg:rect', { x: x + 6, y: y + 6, width: CELL - 12, height: CELL - 12, rx: 3, class: 'arrow-mark ' + extra, 'data-marker': c.kind }, svg);
    return;
  }
  const colour = colourOf(c.owner);
  el('svg:circle', { cx, cy, r: CELL * (c.kind === 'stone' ? 0.46 : 0.42), class: `stone-${colour} ${extra}`, 'data-piece': colour }, svg);
  if (c.kind === 'piece') {
    el('svg:circle', { cx, cy, r: CELL * 0.24, class: 'piece-mark ' + extra, stroke: colour === 'black' ? '#888' : '#999' }, svg);
  } else if (c.kind === 'queen') {
    el('svg:text', { x: cx, y: cy, class: 'queen-glyph ' + extra, fill: colour === 'black' ? '#eee' : '#222', text: '♛' }, svg);
  }
}

function renderMoves() {
  const st = app.state;
  const ol = $('moves');
  ol.innerHTML = '';
  const current = app.replay ? app.replay.ply : st.moves.length;
  const start = el('li', {}, ol);
  const b0 = el('button', { type: 'button', 'data-ply': 0, text: 'start' }, start);
  if (current === 0) b0.classList.add('current');
  b0.addEventListener('click', () => showPly(0));
  st.moves.forEach((mv, k) => {
    const li = el('li', {}, ol);
    const b = el('button', { type: 'button', 'data-ply': k + 1, text: `${k + 1}. ${moveLabel(k)}` }, li);
    if (isPass(k)) b.classList.add('pass');
    if (current === k + 1) b.classList.add('current');
    b.addEventListener('click', () => showPly(k + 1));
  });
  ol.scrollTop = ol.scrollHeight;
}

// A pass is shown as "White passes", never as its notation.
function passAt(k) {
  const p = app.state.view.passes;
  return p ? p.find((x) => x.index === k) : undefined;
}

function isPass(k) { return passAt(k) !== undefined; }

function moveLabel(k) {
  const pass = passAt(k);
  return pass ? `${app.state.names[pass.player]} passes` : app.state.moves[k];
}

function showPly(ply) {
  setMessage('');
  if (ply === app.state.moves.length) { app.replay = null; render(); return; }
  send({ type: 'view', ply });
}

function renderLinks() {
  const st = app.state;
  const box = $('links');
  box.innerHTML = '';
  let remote = [];
  try { remote = JSON.parse(localStorage.getItem('links-' + st.id) || '[]'); } catch (e) { remote = []; }
  for (const r of remote) {
    const p = el('p', {}, box);
    p.append(`Send this link to the person playing ${st.names[r.seat]}: `);
    el('input', { readonly: '', class: 'seat-link', 'data-seat': r.seat, value: seatLink(st.id, r.token) }, p);
  }
  const p = el('p', {}, box);
  p.append('Watch link (no seat): ');
  el('input', { readonly: '', id: 'watch-link', value: seatLink(st.id, null) }, p);
}

function drawGraph() {
  const st = app.state;
  if (!st) return;
  const svg = $('graph');
  svg.innerHTML = '';
  const W = 300, H = 120, n = Math.max(st.moves.length, 1);
  const points = {};
  for (const [ply, s] of st.evals) points[ply] = s;
  for (const [ply, s] of Object.entries(app.analysis)) points[ply] = s;
  el('svg:line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-axis' }, svg);
  const plies = Object.keys(points).map(Number).sort((a, b) => a - b);
  const xy = (ply, s) => [4 + (ply / n) * (W - 8), H / 2 - Math.tanh(s / 800) * (H / 2 - 6)];
  if (plies.length) {
    el('svg:polyline', { class: 'graph-line', points: plies.map((p) => xy(p, points[p]).join(',')).join(' ') }, svg);
    for (const p of plies) {
      const [cx, cy] = xy(p, points[p]);
      el('svg:circle', { cx, cy, r: 2, class: 'graph-dot' }, svg).appendChild(el('svg:title', { text: `ply ${p}: ${points[p]}` }));
    }
  }
  const cur = app.replay ? app.replay.ply : st.moves.length;
  const [x] = xy(cur, 0);
  el('svg:line', { x1: x, y1: 0, x2: x, y2: H, class: 'graph-now' }, svg);
}

// ---------- input ----------

function onCell(i) {
  const st = app.state;
  if (!st) return;
  app.cursor = i;
  if (app.replay) { setMessage('you are looking at an earlier position: "Back to the game" to play'); return; }
  if (st.view.outcome) { setMessage(`the game is over: ${st.view.outcome.reason}`); return; }
  if (!st.seats[0].yours && !st.seats[1].yours) {
    setMessage(`you are watching this game: ${st.names[st.view.to_move]} is to move`);
    return;
  }
  if (!st.your_turn) { setMessage(`not your turn: ${st.names[st.view.to_move]} is to move`); return; }
  const view = st.view;
  setMessage('');
  if (st.legal === null) {
    // Placement games: the server names the move of the clicked square; Connect6 pairs
    // are confirmed first.
    if (view.stones_per_turn !== 2) { pickMove([i]); return; }
    const k = app.sel.indexOf(i);
    if (k >= 0) { app.sel.splice(k, 1); render(); return; }
    if (view.cells[i]) { pickMove(app.sel.concat([i])); return; }
    if (app.sel.length >= 2) app.sel.shift();
    app.sel.push(i);
    render();
    return;
  }
  // Games with listed moves: placement, shift/step, queen-target-arrow.
  const k = app.sel.length;
  if (k > 0 && app.sel[k - 1] === i) { app.sel.pop(); render(); return; }
  const cands = candidates(view).filter((m) => m.sq[k] === i);
  const exact = cands.find((m) => m.sq.length === k + 1);
  if (exact) { app.sel = []; sendMove(exact.text); return; }
  if (cands.length) { app.sel.push(i); render(); return; }
  if (k === 1 && candidatesFrom(view, i)) { app.sel = [i]; render(); return; }
  // No legal move goes this way: the server says why.
  pickMove(app.sel.concat([i]));
}

// Asks the server which legal move `squares` name on this position and plays it, or
// shows why none does. Nothing is sent if the position moved on meanwhile.
async function pickMove(squares) {
  const game = app.game, ply = app.state.moves.length;
  app.sel = [];
  let picked;
  try {
    picked = await api(`/api/games/${game}/pick`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ squares, ply }),
    });
  } catch (e) {
    if (app.game === game) { setMessage(e.message); render(); }
    return;
  }
  if (app.game === game && app.state && app.state.moves.length === ply) sendMove(picked.text);
}

function candidatesFrom(view, i) {
  return (app.state.legal || []).some((m) => m.squares.length > 1 && m.squares[0] === i);
}

function backOut() {
  if (app.sel.length) { app.sel.pop(); render(); }
}

function onBoardKey(e) {
  const st = app.state;
  if (!st) return;
  const view = app.replay ? app.replay.view : st.view;
  const w = view.width, h = view.height;
  let col = app.cursor % w, row = Math.floor(app.cursor / w);
  const d = app.flipped ? -1 : 1; // arrows move on the screen, whichever way the board turns
  const clamp = (v, n) => Math.max(0, Math.min(n - 1, v));
  switch (e.key) {
    case 'ArrowLeft': col = clamp(col - d, w); break;
    case 'ArrowRight': col = clamp(col + d, w); break;
    case 'ArrowUp': row = clamp(row + d, h); break;
    case 'ArrowDown': row = clamp(row - d, h); break;
    case 'Enter': case ' ': e.preventDefault(); app.keyboard = true; onCell(app.cursor); return;
    case 'Escape': backOut(); return;
    default: return;
  }
  e.preventDefault();
  app.keyboard = true;
  app.cursor = row * w + col;
  drawCursor();
}

// ---------- records ----------

// The board as drawn, as a standalone SVG file: each element carries its computed colours
// (the page's stylesheet and colour scheme do not travel with the file).
function boardImage() {
  const svg = $('board');
  const copy = svg.cloneNode(true);
  const props = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-size',
    'font-family', 'text-anchor', 'dominant-baseline'];
  const from = svg.querySelectorAll('*'), to = copy.querySelectorAll('*');
  from.forEach((e, k) => {
    const cs = getComputedStyle(e);
    to[k].setAttribute('style', props.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';'));
    to[k].removeAttribute('class');
  });
  copy.querySelectorAll('.cursor').forEach((e) => e.remove());
  copy.removeAttribute('style');
  copy.removeAttribute('tabindex');
  copy.setAttribute('xmlns', SVGNS);
  const [, , w, h] = svg.getAttribute('viewBox').split(' ');
  copy.setAttribute('width', w);
  copy.setAttribute('height', h);
  const bg = el('svg:rect', { x: 0, y: 0, width: w, height: h, style: `fill:${getComputedStyle(document.body).backgroundColor}` });
  copy.insertBefore(bg, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

function downloadImage() {
  const st = app.state;
  if (!st) return;
  const url = URL.createObjectURL(new Blob([boardImage()], { type: 'image/svg+xml' }));
  const a = el('a', { href: url, download: `${st.game}-${st.id}-${st.moves.length}.svg` }, document.body);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// The move list as text: numbered moves as the list shows them, the spec first.
function movesText() {
  const st = app.state;
  return `${st.spec}\n` + st.moves.map((m, k) => `${k + 1}. ${moveLabel(k)}`).join('\n') + '\n';
}

async function copyMoves() {
  if (!app.state) return;
  const text = movesText();
  try {
    await navigator.clipboard.writeText(text);
    $('engine').textContent = `copied ${app.state.moves.length} moves`;
  } catch (e) {
    // No clipboard (a page not served from localhost or https): select the text instead.
    const area = el('textarea', { readonly: '', rows: 6, class: 'copy-area', text }, $('records-bar'));
    area.select();
    $('engine').textContent = 'the clipboard is not available here: the moves are selected, copy them';
  }
}

function armResign() {
  if (!app.resignArmed) {
    app.resignArmed = true;
    $('resign-btn').textContent = 'Really resign?';
    setTimeout(() => { app.resignArmed = false; $('resign-btn').textContent = 'Resign'; }, 4000);
    return;
  }
  app.resignArmed = false;
  $('resign-btn').textContent = 'Resign';
  send({ type: 'resign' });
}

// ---------- clocks ----------

// `m:ss`, with tenths in the last ten seconds (`0:07.3`), `h:mm:ss` from an hour.
function clockText(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `0:0${(Math.floor(t / 100) / 10).toFixed(1)}`;
  const s = Math.floor(t / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// Both clocks: the server's figures of the last state, the running one counted down
// locally since it came (each new state corrects them). The host decides a loss on time.
function drawClocks() {
  const st = app.state, box = $('clocks');
  const c = st && st.clock;
  box.hidden = !c;
  if (!c) return;
  const since = performance.now() - (app.clockAt || 0);
  for (const i of [0, 1]) {
    const left = c.left_ms[i] - (c.running === i ? since : 0);
    const span = $(`clock${i}`);
    span.replaceChildren();
    el('span', { class: 'who', text: `${st.names[i]} · ${c.control}` }, span);
    span.append(clockText(left));
    span.classList.toggle('running', c.running === i);
    span.classList.toggle('low', left < 10000);
  }
}

// ---------- start ----------

async function init() {
  $('sound').checked = localStorage.getItem('sound') === 'on';
  $('sound').addEventListener('change', () => localStorage.setItem('sound', $('sound').checked ? 'on' : 'off'));
  $('new-btn').addEventListener('click', showSetup);
  $('lobby-btn').addEventListener('click', () => { showSetup(); $('lobby').scrollIntoView(); });
  setInterval(refreshLobby, LOBBY_POLL_MS);
  setInterval(drawClocks, CLOCK_DRAW_MS);
  $('load-btn').addEventListener('click', () => $('load-file').click());
  $('load-file').addEventListener('change', (e) => { if (e.target.files[0]) loadFile(e.target.files[0]); e.target.value = ''; });
  $('setup-form').addEventListener('submit', startGame);
  $('records-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if (app.records) loadFile(app.records, Number($('records-game').value));
  });
  $('game-select').addEventListener('change', renderOptions);
  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const t = $('move-input').value.trim();
    if (t) { sendMove(t); $('move-input').value = ''; }
  });
  $('undo-btn').addEventListener('click', () => { app.replay = null; send({ type: 'undo' }); });
  $('redo-btn').addEventListener('click', () => send({ type: 'redo' }));
  $('hint-btn').addEventListener('click', () => { $('engine').textContent = 'hint: thinking…'; send({ type: 'hint' }); });
  $('resign-btn').addEventListener('click', armResign);
  $('image-btn').addEventListener('click', downloadImage);
  $('copy-btn').addEventListener('click', copyMoves);
  $('draw-btn').addEventListener('click', () => send({ type: 'draw' }));
  $('flip-btn').addEventListener('click', () => { app.flipped = !app.flipped; render(); });
  $('rematch-btn').addEventListener('click', () => {
    const rm = app.state && app.state.rematch;
    if (rm) openGame(rm.id, rm.tokens); else send({ type: 'rematch' });
  });
  $('pause-btn').addEventListener('click', () => send({ type: 'pause', on: !app.state.paused }));
  $('help-box').addEventListener('change', (e) => send({ type: 'help', on: e.target.checked }));
  $('offer-accept').addEventListener('click', () => send({ type: 'answer', accept: true }));
  $('offer-decline').addEventListener('click', () => send({ type: 'answer', accept: false }));
  $('analyse-btn').addEventListener('click', () => { app.analysis = {}; $('engine').textContent = 'analysing…'; send({ type: 'analyse' }); });
  $('live-btn').addEventListener('click', () => { app.replay = null; setMessage(''); render(); });
  $('back-btn').addEventListener('click', () => { if (app.back) openGame(app.back.game, app.back.tokens); });
  $('pair-confirm').addEventListener('click', () => { if (app.sel.length === 2) pickMove(app.sel.slice()); });
  $('pair-cancel').addEventListener('click', () => { app.sel = []; render(); });
  $('board').addEventListener('keydown', onBoardKey);
  $('board').addEventListener('pointerdown', () => { app.keyboard = false; drawCursor(); });
  // Focus by Tab shows the cursor; focus by a click or tap does not (:focus-visible).
  $('board').addEventListener('focus', (e) => { app.keyboard = e.target.matches(':focus-visible'); drawCursor(); });
  $('board').addEventListener('blur', drawCursor);
  document.addEventListener('keydown', (e) => {
    if (e.target === $('board')) return; // the board's own keys
    if (e.key === 'Escape') backOut();
    if (e.key === 'Enter' && document.activeElement === document.body && app.sel.length === 2 && !$('pair-bar').hidden) $('pair-confirm').click();
  });
  window.addEventListener('hashchange', () => {
    const h = parseHash();
    if (h.game !== null && (h.game !== app.game || h.tokens.join() !== app.tokens.join())) openGame(h.game, h.tokens);
  });
  try {
    app.games = await api('/api/games');
  } catch (e) { $('setup-error').textContent = e.message; }
  const sel = $('game-select');
  for (const g of app.games) el('option', { value: g.id, text: g.id }, sel);
  renderOptions();
  seatOptions($('seat0'), 'human');
  seatOptions($('seat1'), 'engine:1000');
  const h = parseHash();
  if (h.game !== null) openGame(h.game, h.tokens); else showSetup();
}

init();
