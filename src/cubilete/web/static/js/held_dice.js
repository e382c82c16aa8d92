// The dice a player has tapped but not yet rolled (held dice, or dice chosen to set aside), kept in
// localStorage so that a reload, a language switch or closing and reopening the tab keeps them. They
// are kept for one seat at one event index of the game: once the game has moved on, they are stale and
// never applied. A finished game's are dropped, and any left for a week (a game abandoned) too.

const PREFIX = "cubilete.held.";
const KEEP_MS = 7 * 24 * 3600 * 1000;
const key = (gameId, seat) => `${PREFIX}${gameId}.${seat}`;

// The keys of the held dice kept in this browser, with what each holds ({ at, positions, saved }).
function kept() {
  const entries = [];
  for (let index = 0; index < localStorage.length; index += 1) {
    const name = localStorage.key(index);
    if (name.startsWith(PREFIX)) entries.push(name);
  }
  return entries.map((name) => {
    try {
      return [name, JSON.parse(localStorage.getItem(name))];
    } catch {
      return [name, null];
    }
  });
}

function forgetWhere(stale) {
  try {
    for (const [name, entry] of kept()) if (stale(name, entry)) localStorage.removeItem(name);
  } catch {
    // storage refused: nothing was kept either
  }
}

export function rememberHeld(gameId, seat, at, positions) {
  const now = Date.now();
  forgetWhere((_, entry) => !(now - entry?.saved < KEEP_MS));
  try {
    localStorage.setItem(key(gameId, seat), JSON.stringify({ at, positions: [...positions], saved: now }));
  } catch {
    // storage full or refused: the dice stay held on this page only
  }
}

// The positions remembered for this seat at this event index, or null.
export function recallHeld(gameId, seat, at, dice) {
  try {
    const entry = JSON.parse(localStorage.getItem(key(gameId, seat)));
    if (entry?.at !== at || !Array.isArray(entry.positions)) return null;
    return new Set(entry.positions.filter((position) => Number.isInteger(position) && position >= 0 && position < dice));
  } catch {
    return null;
  }
}

// The game is over: nothing of it is held any more.
export function forgetHeld(gameId) {
  forgetWhere((name) => name.startsWith(`${PREFIX}${gameId}.`));
}
