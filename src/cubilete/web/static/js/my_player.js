// What this browser knows of its player, in localStorage: "my player name" (signed in, the profile's;
// else the name of the first seat created on this device, or the name last joined under; changeable on
// the home page), the names last written for each seat of the new-game form, and the seats it holds (the
// proofs a record is built from).

import { knownGames, seatTokens, signedInProfile } from "./api.js";

const MY_NAME_KEY = "cubilete.name";
const SEAT_NAMES_KEY = "cubilete.seat-names";

// Signed in, the player is the profile: the server names the profile's seats so (web/profiles.py).
export const profileName = () => signedInProfile()?.name || "";
export const myName = () => profileName() || (localStorage.getItem(MY_NAME_KEY) ?? "");

export function setMyName(name) {
  const trimmed = name.trim();
  if (trimmed) localStorage.setItem(MY_NAME_KEY, trimmed);
  else localStorage.removeItem(MY_NAME_KEY);
}

// The names of the last game created here, by seat (null for a bot's seat).
export function lastSeatNames() {
  try {
    const names = JSON.parse(localStorage.getItem(SEAT_NAMES_KEY));
    return Array.isArray(names) ? names : [];
  } catch {
    return [];
  }
}

export function rememberSeatNames(names) {
  localStorage.setItem(SEAT_NAMES_KEY, JSON.stringify(names));
}

export const playerUrl = (name) => `/player/${encodeURIComponent(name.trim())}`;

// The seats this browser holds, as the server's record asks for them ({ game, seat, token }), at most `limit`.
export function heldSeats(limit) {
  const seats = knownGames().flatMap((game) =>
    Object.entries(seatTokens(game))
      .filter(([seat, token]) => Number.isInteger(Number(seat)) && typeof token === "string")
      .map(([seat, token]) => ({ game, seat: Number(seat), token })),
  );
  return seats.slice(-limit);
}
