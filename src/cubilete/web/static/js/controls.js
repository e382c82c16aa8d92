// Controls that say why they cannot be used: aria-disabled rather than disabled keeps them focusable
// and tappable (a screen reader finds them), and a tap on one while it is disabled says the reason.

export function setUsable(control, usable, reason = null) {
  if (usable) {
    control.removeAttribute("aria-disabled");
    delete control.dataset.reason;
  } else {
    control.setAttribute("aria-disabled", "true");
    if (reason) control.dataset.reason = reason;
    else delete control.dataset.reason;
  }
}

export const isUsable = (control) => control.getAttribute("aria-disabled") !== "true";

// A tap runs use() when the control is usable, else gives explain() the reason (if any).
export function onUse(control, use, explain) {
  control.addEventListener("click", () => {
    if (isUsable(control)) use();
    else explain(control.dataset.reason ?? null);
  });
}
