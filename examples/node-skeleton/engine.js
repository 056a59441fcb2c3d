#!/usr/bin/env node
// A minimal BAO BEI engine speaking protocol 2.1 (docs/protocol.md): the place to start an engine in
// JavaScript. Node.js 20, no npm dependencies.
//
// Transport: one JSON request per line on stdin, exactly one JSON reply per line on stdout, in order.
// Every reply echoes the request's "seq". stdout carries replies only: log to stderr (console.error),
// which the harness shows when something goes wrong.
//
// What it does today: the handshake, `setup` (it stores the canonical state it receives) and `state`
// (it returns that state). The game commands answer "unsupported", so baobei-conform skips every
// scenario that needs them instead of failing it. Replace those stubs one by one with a real game,
// then announce the optional capabilities ("events", "views", "legal_actions") you implement.
//
// Beyond the rules, the answers must match the observable contract exactly: spec/contract.yaml, on one
// page in docs/spec/contract.md. The comments marked CONTRACT below say where each of its points bites.
// To see a point in action: `baobei-conform trace --seed 7 --players 3` prints a reference game as NDJSON,
// and `baobei-conform trace --seed 7 --players 3 examples/node-skeleton` the first place this engine parts.

'use strict';

const readline = require('node:readline');

const PROTOCOL_VERSION = '2.1';
const ENGINE = { name: 'node-skeleton', version: '0.1.0', language: 'javascript' };
// Optional features this engine offers: any of "views", "legal_actions", "events". None yet.
const CAPABILITIES = [];

// --- the engine's memory --------------------------------------------------------------------------
const engine = {
  params: null, // the rule parameters of the handshake: catalog, hand sizes, thresholds, ...
  state: null, // the canonical state (spec/schemas/state.schema.json), as `setup` gave it
  overrides: null, // rule parameter overrides of the current position (e.g. {"threshold": {"3": 20}})
};

// --- replies ----------------------------------------------------------------------------------------
function ok(fields = {}) {
  return { ok: true, ...fields };
}

function error(code, message) {
  return { ok: false, error: { code, message } };
}

function unsupported(cmd) {
  return error('unsupported', `node-skeleton does not implement '${cmd}' yet`);
}

// A command that cannot be handled because its request is wrong: this is a reply, never a crash.
class BadRequest extends Error {}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// --- commands: each takes the request and returns the reply without its seq -----------------------
const COMMANDS = {
  hello(request) {
    // Same major version: we understand each other. Otherwise refuse; the harness will not go on.
    const major = String(request.protocol ?? '').split('.')[0];
    if (major !== PROTOCOL_VERSION.split('.')[0]) {
      return error('protocol_version', `node-skeleton speaks protocol ${PROTOCOL_VERSION}`);
    }
    if (!isObject(request.params)) throw new BadRequest('hello needs the rule parameters in "params"');
    engine.params = request.params;
    return ok({ engine: ENGINE, capabilities: CAPABILITIES });
  },

  setup(request) {
    // The exact position to continue from. A real engine converts the canonical state into its own
    // model here (and back in `state`); overrides apply to this position only.
    if (!isObject(request.state)) throw new BadRequest('setup needs a canonical state in "state"');
    if (request.params !== undefined && request.params !== null && !isObject(request.params)) {
      throw new BadRequest('"params" is an object of rule parameter overrides, or null');
    }
    engine.state = request.state;
    engine.overrides = request.params ?? null;
    return ok();
  },

  // CONTRACT (lists, docs/protocol.md section 5 "Orders and scopes"): the state is compared field by field, so
  // every list's order is part of the answer. zones, seen and a window's pending.players hold the players of
  // the round only (a decisive round: the tied players, not every seat); seen lists each card's players
  // ascending; a window's pending.players is every other player of the round, zero-card players included,
  // clockwise from the active player (the next player first); moved is sorted, and a Toco Toucan's card is in
  // it from the moment it is drawn, while its owner still chooses the slot (the place decision); a recycle's
  // pending.data.cards are sorted, a deal's are the box in catalog order; last_turns is clockwise from the
  // active player. pending.data has exactly the keys of its decision (section 6).
  state() {
    if (engine.state === null) throw new BadRequest('no game yet: send setup first');
    return ok({ state: engine.state });
  },

  // A new game of request.players seats (2..6), waiting for the first chance outcome.
  new_game: () => unsupported('new_game'),

  // Apply request.action ({"type": ..., fields}): reply {"ok": true, "events": [...]} or refuse it with
  // {"ok": false, "error": {"code": <a code of spec/errors.yaml>}}, leaving the state exactly as it was.
  //
  // CONTRACT (refusals, docs/protocol.md 3.3 "Which code: the precedence"): exactly one code is right, the
  // first row of the precedence that holds. Check the action's shape first (unknown type, a missing or extra
  // field, a field of another JSON type: malformed_action), then whether it answers the pending decision at all
  // (call_bao at any decision but end_turn: bao_not_allowed, never wrong_decision; any other action:
  // wrong_decision, between rounds too; nothing_pending only at game_over), then the player
  // (not_your_decision), then the decision's own checks in the table's order.
  //
  // CONTRACT (events, docs/protocol.md section 7): each event cites exactly the clause of its situation (the
  // events table gives one row per situation: discarded is 2.7.3 after keep, 2.7.4 for a direct discard, 2.8.4
  // after take_discard, 3.5.4 after a failed own-draw pluck). Every data field is compared, in order; also and
  // ruling are not. Some events stand for a decision that is never asked: when no player but the active one
  // holds a card, a discard emits window_closed citing B.3 and no window decision follows.
  apply: () => unsupported('apply'),

  // What player request.player may know: needs the "views" capability.
  //
  // CONTRACT (views, docs/protocol.md 3.5 and section 6): exactly the view fields of the table in 3.5; of the
  // pending decision's data a view keeps what its viewer has seen: the Shoebill's user sees the two cards
  // drawn (pending.data.cards), nobody sees a place decision's card nor the cards to shuffle.
  view: () => unsupported('view'),

  // Every legal action for the pending decision: needs the "legal_actions" capability.
  //
  // CONTRACT (legal_actions, docs/protocol.md 3.6): exactly what apply accepts, compared as a set; ordered
  // permutations are distinct actions, so list an initial peek of slots [2, 1] and of [1, 2], a blind swap
  // and a Macaw look of (a, b) and of (b, a), a double pluck both ways. deal and recycle list nothing;
  // simultaneous_plucks is never listed.
  legal_actions: () => unsupported('legal_actions'),

  stop: () => ok(),
};

// One request line -> { reply (with seq), stop }. Never throws: a bad line gets an error reply.
function handleLine(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    return { reply: { seq: null, ...error('engine_error', `the line is not JSON: ${err.message}`) }, stop: false };
  }
  if (!isObject(request)) {
    return { reply: { seq: null, ...error('engine_error', 'a request is a JSON object') }, stop: false };
  }
  const seq = request.seq ?? null; // echoed as received; the harness numbers its requests 1, 2, 3, ...
  if (!Object.hasOwn(COMMANDS, request.cmd)) {
    const name = JSON.stringify(request.cmd ?? null);
    return { reply: { seq, ...error('unsupported', `unknown command ${name}`) }, stop: false };
  }
  try {
    return { reply: { seq, ...COMMANDS[request.cmd](request) }, stop: request.cmd === 'stop' };
  } catch (err) {
    const message = err instanceof BadRequest ? err.message : `${err.name}: ${err.message}`;
    // stderr is the log: the harness keeps its tail and shows it when a scenario ends in an error.
    console.error(`node-skeleton: ${request.cmd} failed: ${err instanceof BadRequest ? message : err.stack}`);
    return { reply: { seq, ...error('engine_error', message) }, stop: false };
  }
}

// --- the loop: until "stop" or the end of stdin ----------------------------------------------------
function main() {
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  let stopping = false;
  input.on('line', (line) => {
    if (stopping || line.trim() === '') return;
    const { reply, stop } = handleLine(line);
    const text = JSON.stringify(reply) + '\n'; // one line per reply, nothing else on stdout
    if (!stop) {
      process.stdout.write(text); // synchronous on a pipe on Linux; nothing is held back
      return;
    }
    stopping = true;
    input.close();
    process.stdout.write(text, () => process.exit(0)); // exit once the last reply is out
  });
  // The end of stdin (the harness is gone) also ends the engine: with no more input to wait for,
  // Node exits by itself once the replies already written are out.
  input.on('close', () => {
    process.exitCode = 0;
  });
}

main();
