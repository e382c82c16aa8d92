// ⚙'s links to the game, from the address other devices reach (the page's link, built by the server
// as for the invite page): the watch link, and on the device that created the game, the invitation of
// each friend's seat nobody has taken yet, to send again (copy, share, QR code), with the warning that no
// other device can open them when the server listens on this device only.

import { forgetInvites, seatInvites } from "./api.js";
import { page } from "./i18n.js";
import { inviteItem } from "./invite_item.js";

// `seats`: the game's seats as the latest view says (a seat `unclaimed` until its friend takes it).
export function showGameLinks(dialog, game, seats) {
  const watch = dialog.querySelector("[data-watch-link]");
  watch.href = page.link;
  watch.textContent = page.link;
  const kept = Object.entries(seatInvites(page.id));
  const waiting = kept.filter(([seat]) => seats[seat]?.unclaimed);
  if (waiting.length < kept.length) forgetInvites(page.id, Object.fromEntries(waiting)); // taken: no use sending
  dialog.querySelector("[data-seat-invites]").hidden = waiting.length === 0;
  dialog.querySelector("[data-this-device-only]").hidden = !page.this_device_only; // as the form warned
  dialog.querySelector("[data-invites]").replaceChildren(
    ...waiting.map(([seat, invite]) =>
      inviteItem({ seat: Number(seat), name: seats[seat].name, link: `${page.link}#seat=${seat}&invite=${invite}` }, game),
    ),
  );
}
