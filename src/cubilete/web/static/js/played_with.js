// The home page's "Played lately" (signed in): the profiles this one played with, the latest first, each
// linking to its page, with "Play again": the new-game form set up as the last game together, the
// friend's seat reserved for their profile (GET /api/profiles/me/played-with, web/profiles.py).

import { getJson, signedInProfile } from "./api.js";
import { gameName, t } from "./i18n.js";
import { profileUrl } from "./profile_link.js";

export async function drawPlayedWith(playAgain) {
  const section = document.querySelector("[data-played-with-section]");
  const partners = signedInProfile() ? await getJson("/api/profiles/me/played-with", { quiet: true }).catch(() => []) : [];
  section.querySelector("[data-played-with]").replaceChildren(
    ...partners.map((partner) => {
      const item = document.createElement("li");
      item.dataset.playedWith = partner.name;
      const link = document.createElement("a");
      link.href = profileUrl(partner.name);
      link.textContent = partner.name;
      const game = document.createElement("small");
      game.textContent = gameName(partner.game);
      const again = document.createElement("button");
      again.type = "button";
      again.className = "secondary";
      again.dataset.action = "play-again";
      again.textContent = t("Play again");
      again.setAttribute("aria-label", t("Play with {name} again", { name: partner.name }));
      again.addEventListener("click", () => playAgain(partner));
      item.append(link, game, again);
      return item;
    }),
  );
  section.hidden = partners.length === 0;
}
