// Talking to the server: JSON requests, errors as exceptions, and "thinking…" while a request is slow.

import { lang, t } from "./i18n.js";
import { sentence } from "./messages.js";

// A refusal: the HTTP status, the refusal's code and parameters, and its text in the game's language
// (written for the middle of a sentence, so shown as a sentence: with a capital letter).
export class ApiError extends Error {
  constructor(status, message, code = null, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

let pending = 0;
let thinkingTimer = null;

function showThinking(on) {
  for (const element of document.querySelectorAll("[data-thinking]")) element.hidden = !on;
}

// A quiet request (the live bar's figures) is one the player is not waiting for: no "thinking…".
async function request(method, path, body, quiet = false) {
  if (!quiet) {
    pending += 1;
    thinkingTimer ??= setTimeout(() => showThinking(true), 300);
  }
  try {
    const url = new URL(path, location.origin);
    url.searchParams.set("lang", lang);
    const headers = body === undefined ? {} : { "Content-Type": "application/json" };
    const secret = signedInProfile()?.secret;
    if (secret) headers.Authorization = `Bearer ${secret}`;
    const proof = method === "GET" ? seatProof(url.pathname) : null;
    if (proof) headers["X-Cubilete-Seat"] = proof;
    const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      const refusal = data?.code ? data : { message: t("The server did not answer."), code: null, params: {} };
      throw new ApiError(response.status, sentence(refusal.message), refusal.code, refusal.params);
    }
    return data;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(0, t("The server did not answer."));
  } finally {
    if (!quiet) pending -= 1;
    if (pending === 0) {
      clearTimeout(thinkingTimer);
      thinkingTimer = null;
      showThinking(false);
    }
  }
}

// A read of a game this browser holds a seat in proves that seat (`X-Cubilete-Seat: seat:token`): a daily
// challenge is served only to its seat until its day ends (web/daily_secrecy.py); other games ignore it.
function seatProof(pathname) {
  const game = /^\/api\/games\/([^/]+)/.exec(pathname)?.[1];
  const [seat, token] = game ? (Object.entries(seatTokens(decodeURIComponent(game)))[0] ?? []) : [];
  return token ? `${seat}:${token}` : null;
}

export const getJson = (path, { quiet = false } = {}) => request("GET", path, undefined, quiet);
export const postJson = (path, body) => request("POST", path, body);
export const patchJson = (path, body) => request("PATCH", path, body);
export const putJson = (path, body) => request("PUT", path, body);
export const deleteJson = (path, body) => request("DELETE", path, body);

// The profile this browser is signed in to, if any: { id, name, secret } (the secret is this device's
// own, sent with every request as `Authorization: Bearer`; web/profiles.py).
const PROFILE_KEY = "cubilete-profile";

export function signedInProfile() {
  try {
    const profile = JSON.parse(localStorage.getItem(PROFILE_KEY));
    return typeof profile?.secret === "string" ? profile : null;
  } catch {
    return null;
  }
}

export function keepProfile({ id, name, secret }) {
  localStorage.setItem(PROFILE_KEY, JSON.stringify({ id, name, secret }));
}

export const forgetProfile = () => localStorage.removeItem(PROFILE_KEY);

// The profile's seats, kept here as this browser's own; a secret the server no longer knows is forgotten.
export async function mergeProfileSeats() {
  if (!signedInProfile()) return;
  try {
    for (const { game, seat, token } of await getJson("/api/profiles/me/seats", { quiet: true })) {
      rememberTokens(game, { [seat]: token });
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) forgetProfile();
  }
}

// The seats this browser plays in a game: { seat: token }, kept in localStorage. Only the seats
// played on this device (or claimed here from an invite): a friend's token is never sent to the creator.
const TOKENS_PREFIX = "cubilete.tokens.";
const tokensKey = (gameId) => `${TOKENS_PREFIX}${gameId}`;
// The invite codes of the friends' seats of a game this browser created: { seat: invite }, to share again.
const invitesKey = (gameId) => `cubilete.invites.${gameId}`;

// The games this browser holds a seat in (the server lists games to nobody).
export function knownGames() {
  const ids = [];
  for (let index = 0; index < localStorage.length; index += 1) {
    const key = localStorage.key(index);
    if (key.startsWith(TOKENS_PREFIX)) ids.push(key.slice(TOKENS_PREFIX.length));
  }
  return ids;
}

export function forgetGame(gameId) {
  localStorage.removeItem(tokensKey(gameId));
  localStorage.removeItem(invitesKey(gameId));
}

function stored(key) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? {};
  } catch {
    return {};
  }
}

export const seatTokens = (gameId) => stored(tokensKey(gameId));
export const seatInvites = (gameId) => stored(invitesKey(gameId));

export function forgetSeat(gameId, seat) {
  const tokens = seatTokens(gameId);
  delete tokens[seat];
  if (Object.keys(tokens).length === 0) forgetGame(gameId);
  else localStorage.setItem(tokensKey(gameId), JSON.stringify(tokens));
}

export function rememberTokens(gameId, tokens) {
  localStorage.setItem(tokensKey(gameId), JSON.stringify({ ...seatTokens(gameId), ...tokens }));
}

export function rememberInvites(gameId, invites) {
  if (Object.keys(invites).length) localStorage.setItem(invitesKey(gameId), JSON.stringify(invites));
}

// Keeps only `invites` of a game's invitations (the others' seats were taken).
export function forgetInvites(gameId, invites) {
  localStorage.removeItem(invitesKey(gameId));
  rememberInvites(gameId, invites);
}
