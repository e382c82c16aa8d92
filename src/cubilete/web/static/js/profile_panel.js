// The home page's Profile section (web/profiles.py): claim a name (its recovery code shown once), sign
// in with a recovery code or a passkey; once signed in, rename, add a passkey, sign out on this device
// or delete the profile. On every page load of a signed-in browser the profile's seats are merged into
// this browser's seats, so "my games" and the record follow the player to every device.

import {
  ApiError, deleteJson, forgetProfile, getJson, keepProfile, mergeProfileSeats, patchJson, postJson, signedInProfile,
} from "./api.js";
import { PASSWORD_REFUSALS, askPasswordIfNeeded, creationPassword, keepPassword } from "./creation_password.js";
import { t } from "./i18n.js";

const section = document.querySelector("[data-profile]");
const part = (name) => section.querySelector(`[data-profile-${name}]`);
const passkeysWork = Boolean(window.isSecureContext && window.PublicKeyCredential?.parseCreationOptionsFromJSON);

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

// Every action of the section: its refusal (or a passkey the browser did not give) is said in the section.
function act(selector, event, action) {
  section.querySelector(selector).addEventListener(event, async (happened) => {
    happened.preventDefault();
    part("error").hidden = true;
    try {
      await action();
    } catch (error) {
      if (error instanceof ApiError) say(error.message, true);
      else if (error instanceof DOMException) say(t("No passkey was used."), true);
      else throw error;
    }
  });
}

async function signedIn(answer) {
  keepProfile(answer);
  await mergeProfileSeats();
  location.reload(); // "my games" and the record now hold the profile's seats
}

function showRecoveryCode(secret) {
  part("out").hidden = true;
  part("code").hidden = false;
  part("code-shown").textContent = secret;
}

function confirmDeleting(name) {
  const dialog = part("confirm");
  dialog.querySelector("[data-confirm-text]").textContent = t(
    "The profile {name} is deleted on every device. Its games stay, under their names, on the devices that hold their seats.",
    { name },
  );
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
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
  showRecoveryCode(answer.secret);
});
act("[data-action='copy-recovery-code']", "click", async () => {
  await navigator.clipboard.writeText(part("code-shown").textContent);
  say(t("Copied."));
});
act("[data-action='recovery-code-kept']", "click", async () => {
  part("code").hidden = true;
  part("code-shown").textContent = "";
  draw();
});
act("[data-profile-recover]", "submit", async () => {
  const secret = part("recovery").value.trim();
  keepProfile({ id: null, name: null, secret });
  try {
    await signedIn({ ...(await getJson("/api/profiles/me")), secret });
  } catch (error) {
    forgetProfile();
    throw error;
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
act("[data-action='sign-out']", "click", async () => {
  forgetProfile();
  draw();
  say(t("Signed out on this device. Your recovery code or a passkey signs in again."));
});
act("[data-action='delete-profile']", "click", async () => {
  if (!(await confirmDeleting(signedInProfile().name))) return;
  await deleteJson("/api/profiles/me");
  forgetProfile();
  draw();
  say(t("The profile is deleted."));
});

draw();
