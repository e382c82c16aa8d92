// Five or six players on a phone leave the sheet no room for every column: the seat to move keeps
// its column, and so does one seat the player opens; the others collapse to their totals. Each
// seat's name is then a button that opens or closes its column. Wider screens show every column.

const COLLAPSING_FROM = 5;
const NARROW = matchMedia("(max-width: 899px)"); // as the desktop layout of app.css

export class SeatColumns {
  constructor(table, heads) {
    this.table = table;
    this.heads = heads;
    this.names = heads.map((th) => th.textContent);
    this.current = null;
    this.opened = null;
    this.active = heads.length >= COLLAPSING_FROM;
    if (!this.active) return;
    this.toggles = this.names.map((name, seat) => {
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
      else th.replaceChildren(this.names[seat]);
      this.toggles[seat].setAttribute("aria-expanded", String(open));
      th.classList.toggle("collapsed", !open);
      for (const cell of this.table.querySelectorAll(`td[data-player="${seat}"]`)) cell.classList.toggle("collapsed", !open);
    });
  }

  // A seat taken under a new name (from the open tables): its head and its button say it.
  rename(names) {
    this.names = [...names];
    this.toggles?.forEach((button, seat) => {
      button.textContent = names[seat];
    });
    if (this.active) this.show(this.current);
    else this.heads.forEach((th, seat) => th.replaceChildren(names[seat]));
  }

  toggle(seat) {
    this.opened = this.opened === seat ? null : seat;
    this.show(this.current);
  }
}
