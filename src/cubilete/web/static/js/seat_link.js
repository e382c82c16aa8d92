// Opening a seat's link on the game page: the seat becomes this browser's, and its secret leaves the address bar.

import { ApiError, getJson, postJson, rememberTokens, seatTokens } from "./api.js";
import { agreesToTable } from "./hints_agreement.js";
import { t } from "./i18n.js";

// A seat link gives this browser a seat, and its secret leaves the address bar. A friend's invite
// (#seat=1&invite=…) is claimed once: the claimant gets the seat's token, which nobody else ever sees, and
// a later opener watches and is told so. A seat's own link (#seat=1&token=…) moves a seat of the creating
// device here, unless the computer plays that seat now (handed over, or left). A seat already taken is
// said so before anything is asked: its opener watches. At a table that plays with hints the friend is
// told so first: taking the seat is agreeing, declining is watching (the link stays, to ask again).
// Answers the notice to show, if any.
export async function takeSeatFromLink(gameId) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const [seat, token, invite] = ["seat", "token", "invite"].map((name) => fragment.get(name));
  if (seat === null || (token === null && invite === null)) return null;
  const held = seatTokens(gameId)[seat];
  const known = token === null ? held !== undefined : held === token; // opened again on this browser
  const dropSecret = () => history.replaceState(null, "", location.pathname + location.search);
  const taken = t("This seat has been taken: you are watching");
  if (!known && (await alreadyTaken(gameId, seat, token !== null))) {
    dropSecret();
    return taken;
  }
  if (!known && !(await agreesToTable(gameId))) return null;
  if (known || token !== null) {
    rememberTokens(gameId, { [seat]: token ?? held });
    dropSecret();
    return null;
  }
  try {
    const claimed = await postJson(`/api/games/${gameId}/seats/${seat}/claim`, { invite });
    rememberTokens(gameId, { [seat]: claimed.token });
    dropSecret();
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status !== 0 && error.status < 500) dropSecret(); // else reloading the link tries again
    return error.code === "invite_claimed" ? taken : error.message;
  }
}

// Whether the seat is no longer the link's to give: the computer plays it (a seat's own link: its token
// acts no more), or someone holds it (an invite). Unknown (no answer) counts as not: the claim will tell.
async function alreadyTaken(gameId, seat, ownLink) {
  const held = (await getJson(`/api/games/${gameId}`).catch(() => null))?.seats[seat];
  return ownLink ? held?.kind === "bot" : held?.unclaimed === false;
}
