// A profile's page, and a seat's name at the table: a link to that page when the seat belongs to a
// profile (the view's `profile`, the profile's name when the seat was taken), else the name alone.

export const profileUrl = (name) => `/profile/${encodeURIComponent(name)}`;

export function seatName(seat) {
  if (!seat.profile) return document.createTextNode(seat.name);
  const link = document.createElement("a");
  link.className = "profile-link";
  link.href = profileUrl(seat.profile);
  link.dataset.profileLink = seat.profile;
  link.textContent = seat.name;
  return link;
}
