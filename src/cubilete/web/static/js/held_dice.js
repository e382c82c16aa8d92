// The dice a player has tapped but not yet rolled (held dice, or dice chosen to set aside), kept in
// sessionStorage so that a reload or a language switch keeps them. They are kept for one seat at one
// event index of the game: once the game has moved on, they are stale and never applied.

const key = (gameId, seat) => `cubilete.held.${gameId}.${seat}`;

export function rememberHeld(gameId, seat, at, positions) {
  try {
    sessionStorage.setItem(key(gameId, seat), JSON.stringify({ at, positions: [...positions] }));
  } catch {
    // storage full or refused: the dice stay held on this page only
  }
}

// The positions remembered for this seat at this event index, or null.
export function recallHeld(gameId, seat, at, dice) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(key(gameId, seat)));
    if (kept?.at !== at || !Array.isArray(kept.positions)) return null;
    return new Set(kept.positions.filter((position) => Number.isInteger(position) && position >= 0 && position < dice));
  } catch {
    return null;
  }
}
