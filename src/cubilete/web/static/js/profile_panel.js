// The home page's Profile section (web/profiles.py): claim a name (its recovery code shown once), sign
// in with a recovery code or a passkey; once signed in, rename, add a passkey, sign out on this device
// or delete the profile. On every page load of a signed-in browser the profile's seats are merged into
// this browser's seats, so "my games" and the record follow the player to every device; signing out
// forgets them on this device again. Every failure is said in our words, in the reader's language; a
// browser's own text (a DOMException's) goes to the console.

import {
  ApiError,
  deleteJson,
  forgetProfile,
  forgetSeat,
  getJson,
  keepProfile,
  mergeProfileSeats,
  patchJson,
  postJson,
  signedInProfile,
} from "./api.js";
import { PASSWORD_REFUSALS, askPasswordIfNeeded, creationPassword, keepPassword } from "./creation_password.js";
import { t, tn } from "./i18n.js";
import { forgetProfilePush } from "./push_opt_in.js";

const section = document.querySelector("[data-profile]");
const part = (name) => section.querySelector(`[data-profile-${name}]`);
const passkeysWork = Boolean(window.isSecureContext && window.PublicKeyCredential?.parseCreationOptionsFromJSON);

const CODE_GROUP = /.{1,4}/g; // the recovery code is shown in groups of four characters
let shownCode = null; // { secret, file }: the recovery code on screen, and its file's object URL
let redrawGames = () => {};

// The home page's list of games, drawn again once signing out has forgotten the profile's.
export function redrawGamesWith(drawGames) {
  redrawGames = drawGames;
}

// "Play with Beto again" (a profile page's link, /?with=Beto): the friend's seat to reserve, if signed in.
export function friendToPlayWith() {
  const name = new URLSearchParams(location.search).get("with")?.trim();
  return name && signedInProfile() ? name : null;
}

function say(text, isError = false) {
  const box = part(isError ? "error" : "note");
  box.textContent = text;
  box.hidden = false;
  part(isError ? "note" : "error").hidden = true;
}

function draw() {
  const profile = signedInProfile();
  part("out").hidden = Boolean(profile);
  part("in").hidden = !profile;
  for (const button of section.querySelectorAll("[data-needs-passkeys]")) button.hidden = !passkeysWork;
  if (!profile) return;
  const link = part("link");
  link.textContent = profile.name;
  link.href = `/profile/${encodeURIComponent(profile.name)}`;
}

// What a passkey ceremony's DOMException means, by its name (the browser's message is English).
const PASSKEY_FAILURES = {
  NotAllowedError: () => t("No passkey was used."), // cancelled, timed out, or refused by the player
  AbortError: () => t("No passkey was used."),
  InvalidStateError: () => t("This device already holds a passkey of this profile."),
  SecurityError: () => t("Passkeys need the app's usual secure address (https://)."),
  NotSupportedError: () => t("This device cannot make or use such a passkey."),
};

function passkeyFailure(error) {
  console.warn("passkey:", error.name, error.message);
  return (PASSKEY_FAILURES[error.name] ?? (() => t("The passkey did not work on this device: try again, or use your recovery code.")))();
}

// Every action of the section: its refusal (or a passkey the browser did not give) is said in the section.
function act(selector, event, action) {
  section.querySelector(selector).addEventListener(event, async (happened) => {
    happened.preventDefault();
    part("error").hidden = true;
    try {
      await action();
    } catch (error) {
      if (error instanceof ApiError) say(error.message, true);
      else if (error instanceof DOMException) say(passkeyFailure(error), true);
      else throw error;
    }
  });
}

async function signedIn(answer) {
  keepProfile(answer);
  await mergeProfileSeats();
  location.reload(); // "my games" and the record now hold the profile's seats
}

// The code in groups that wrap on a phone, with a file of it to download (its name and this server's address).
function showRecoveryCode({ name, secret }) {
  const text = `${t("Recovery code of the profile {name} on {server}:", { name, server: location.origin })}\n${secret}\n`;
  shownCode = { secret, file: URL.createObjectURL(new Blob([text], { type: "text/plain" })) };
  part("out").hidden = true;
  part("code").hidden = false;
  part("code-shown").replaceChildren(
    ...secret.match(CODE_GROUP).map((group) => Object.assign(document.createElement("span"), { textContent: group })),
  );
  section.querySelector("[data-action='download-recovery-code']").href = shownCode.file;
}

function forgetShownCode() {
  URL.revokeObjectURL(shownCode.file);
  shownCode = null;
  part("code").hidden = true;
  part("code-shown").replaceChildren();
}

// An action that cannot be undone, said first: answers whether the player confirmed it.
function confirmed({ title, text, button }) {
  const dialog = part("confirm");
  dialog.querySelector("[data-confirm-title]").textContent = title;
  dialog.querySelector("[data-confirm-text]").textContent = text;
  dialog.querySelector("[data-confirm-button]").textContent = button;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

function signingOutText(games) {
  return games === 0
    ? t("This device forgets your profile. Your recovery code or a passkey signs in again.")
    : tn(
        "This device forgets your profile, and {n} game of yours is no longer listed on it. Your recovery code or a passkey brings it back.",
        "This device forgets your profile, and {n} games of yours are no longer listed on it. Your recovery code or a passkey brings them back.",
        games,
      );
}

act("[data-profile-create]", "submit", async () => {
  let answer;
  try {
    answer = await postJson("/api/profiles", { name: part("name").value, creation_password: creationPassword() });
  } catch (error) {
    if (error instanceof ApiError && PASSWORD_REFUSALS.includes(error.code)) askPasswordIfNeeded(true);
    throw error;
  }
  keepPassword(creationPassword());
  keepProfile(answer);
  showRecoveryCode(answer);
});
act("[data-action='copy-recovery-code']", "click", async () => {
  try {
    await navigator.clipboard.writeText(shownCode.secret); // no clipboard at all on a plain http:// address
  } catch (error) {
    console.warn("copy:", error);
    say(t("This browser did not copy it: select the code, or download it as a file."), true);
    return;
  }
  say(t("Copied."));
});
act("[data-action='recovery-code-kept']", "click", async () => {
  forgetShownCode();
  draw();
});
act("[data-profile-recover]", "submit", async () => {
  const secret = part("recovery").value.replace(/\s+/g, ""); // as written down, in its groups
  keepProfile({ id: null, name: null, secret });
  try {
    await signedIn({ ...(await getJson("/api/profiles/me")), secret });
  } catch (error) {
    forgetProfile();
    if (!(error instanceof ApiError && error.status === 401)) throw error;
    say(t("This recovery code is not valid: check it and try again."), true);
  }
});
act("[data-action='passkey-sign-in']", "click", async () => {
  const options = await postJson("/api/passkeys/options");
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  await signedIn(await postJson("/api/passkeys/sign-in", { credential: credential.toJSON() }));
});
act("[data-profile-rename]", "submit", async () => {
  const renamed = await patchJson("/api/profiles/me", { name: part("new-name").value });
  keepProfile({ ...signedInProfile(), name: renamed.name });
  draw();
  say(t("Renamed."));
});
act("[data-action='add-passkey']", "click", async () => {
  const options = await postJson("/api/profiles/me/passkeys/options");
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  await postJson("/api/profiles/me/passkeys", { credential: credential.toJSON() });
  say(t("Passkey added: sign in with it on your other devices."));
});
// Signing out forgets the profile's seats on this device (its games leave the list, their tokens the
// browser) and takes this device's push subscription off the profile; the player is told so first.
act("[data-action='sign-out']", "click", async () => {
  const seats = await getJson("/api/profiles/me/seats");
  const games = new Set(seats.map((seat) => seat.game)).size;
  const title = t("Sign out on this device?");
  if (!(await confirmed({ title, text: signingOutText(games), button: t("Sign out") }))) return;
  await forgetProfilePush();
  for (const { game, seat } of seats) forgetSeat(game, seat);
  forgetProfile();
  draw();
  redrawGames();
  say(t("Signed out on this device. Your recovery code or a passkey signs in again."));
});
act("[data-action='delete-profile']", "click", async () => {
  const { name } = signedInProfile();
  const text = t(
    "The profile {name} is deleted on every device. Its games stay, under their names, on the devices that hold their seats.",
    { name },
  );
  if (!(await confirmed({ title: t("Delete the profile?"), text, button: t("Delete the profile") }))) return;
  await deleteJson("/api/profiles/me");
  forgetProfile();
  draw();
  say(t("The profile is deleted."));
});

draw();
