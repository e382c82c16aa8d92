// Five or six players on a phone leave the sheet no room for every column: the seat to move keeps
// its column, and so does one seat the player opens; the others collapse to their totals. Each
// seat's name is then a button that opens or closes its column. Wider screens show every column. A
// head that is no button shows the seat's name, a link to its profile's page if a profile holds it.

import { seatName } from "./profile_link.js";

const COLLAPSING_FROM = 5;
const NARROW = matchMedia("(max-width: 899px)"); // as the desktop layout of app.css

export class SeatColumns {
  constructor(table, heads, seats) {
    this.table = table;
    this.heads = heads;
    this.seats = seats;
    this.current = null;
    this.opened = null;
    this.active = heads.length >= COLLAPSING_FROM;
    if (!this.active) return;
    this.toggles = seats.map(({ name }, seat) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "seat-toggle";
      button.dataset.seatToggle = String(seat);
      button.textContent = name;
      button.addEventListener("click", () => this.toggle(seat));
      return button;
    });
    NARROW.addEventListener("change", () => this.show(this.current));
  }

  // Collapse the columns of every seat but the one to move (null: none) and the opened one.
  show(current) {
    this.current = current;
    if (!this.active) return;
    const narrow = NARROW.matches;
    this.heads.forEach((th, seat) => {
      const open = !narrow || seat === current || seat === this.opened;
      // the seat to move always shows its column: its name is no button
      if (narrow && seat !== current) th.replaceChildren(this.toggles[seat]);
      else th.replaceChildren(seatName(this.seats[seat]));
      this.toggles[seat].setAttribute("aria-expanded", String(open));
      th.classList.toggle("collapsed", !open);
      for (const cell of this.table.querySelectorAll(`td[data-player="${seat}"]`)) cell.classList.toggle("collapsed", !open);
    });
  }

  // Every head drawn: `seats` as the view has them.
  draw(seats) {
    this.seats = seats;
    this.toggles?.forEach((button, seat) => {
      button.textContent = seats[seat].name;
    });
    if (this.active) this.show(this.current);
    else this.heads.forEach((th, seat) => th.replaceChildren(seatName(seats[seat])));
  }

  toggle(seat) {
    this.opened = this.opened === seat ? null : seat;
    this.show(this.current);
  }
}
