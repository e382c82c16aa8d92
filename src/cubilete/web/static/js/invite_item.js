// One friend's invitation to send: its link, with copy, share (where the device can) and a QR code.
// Shown on the invite page after the start, and in ⚙ until the friend takes the seat.

import { gameName, t } from "./i18n.js";

// `seat`: { seat, name, link } of a friend's seat; `game`: the game's id, named in the shared text.
export function inviteItem(seat, game) {
  const item = document.createElement("li");
  item.className = "invite";
  item.dataset.invite = String(seat.seat);
  const title = document.createElement("strong");
  title.textContent = t("Invitation for {name}", { name: seat.name });
  const link = document.createElement("a");
  link.href = seat.link;
  link.textContent = seat.link;
  link.dataset.inviteLink = "";
  link.dataset.seat = String(seat.seat);
  link.className = "invite-link";
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "secondary";
  copy.dataset.action = "copy-invite";
  copy.textContent = t("Copy the link");
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(seat.link);
      copy.textContent = t("Copied");
    } catch {
      getSelection().selectAllChildren(link); // no clipboard (plain http on the LAN): select it to copy by hand
    }
  });
  buttons.append(copy);
  if (navigator.share) {
    const share = document.createElement("button");
    share.type = "button";
    share.className = "secondary";
    share.dataset.action = "share-invite";
    share.textContent = t("Share");
    const text = t("Play {game} with me on cubilete", { game: gameName(game) });
    share.addEventListener("click", () => navigator.share({ title: "cubilete", text, url: seat.link }).catch(() => {}));
    buttons.append(share);
  }
  const code = document.createElement("img");
  code.className = "qr";
  code.dataset.qr = String(seat.seat);
  code.alt = t("QR code of the invitation for {name}", { name: seat.name });
  code.src = `/api/qr?text=${encodeURIComponent(seat.link)}`;
  item.append(title, link, buttons, code);
  return item;
}
