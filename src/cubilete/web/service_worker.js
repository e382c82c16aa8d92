// The service worker: keeps the app's shell (its pages, styles, scripts, icons and sounds) so that
// the app opens without a connection and says that playing needs one. Served at /sw.js by
// web/shell.py, which fills in VERSION (a digest of the shell's files: a new release is a new
// worker, whose cache replaces the old one) and SHELL (the addresses to keep).
//
// Everything is asked of the network first, so an online page is always the server's latest; the
// cache only answers when the network does not. The API (/api/..., the live WebSocket included)
// never goes through the cache: this worker does not even answer for it.

const VERSION = "__VERSION__";
const SHELL = __SHELL__;
const CACHE = `cubilete-${VERSION}`;
const HOME = "/";
const kept = new Set(SHELL);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("cubilete-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") event.respondWith(page(event, url));
  else if (kept.has(url.pathname)) event.respondWith(fresh(event, url.pathname));
});

// A file of the shell from the network (the copy kept is renewed), else the copy kept.
async function fresh(event, key) {
  try {
    return keep(event, key, await fetch(event.request));
  } catch (error) {
    const stored = await caches.match(key, { cacheName: CACHE });
    if (stored) return stored;
    throw error;
  }
}

// Answer with the response, and keep a copy (the worker lives until the copy is stored).
function keep(event, key, response) {
  if (response.ok) {
    const copy = response.clone();
    event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)));
  }
  return response;
}

// A page from the network, else the copy kept of that page, else the home page in the language
// asked for (?lang=, or the language cookie where the browser lets a worker read cookies), else as
// last seen. The page's script says that a connection is needed to play.
async function page(event, url) {
  const key = url.pathname + url.search;
  try {
    const response = await fetch(event.request);
    return kept.has(key) ? keep(event, key, response) : response;
  } catch (error) {
    const language = url.searchParams.get("lang") ?? (await self.cookieStore?.get("lang").catch(() => null))?.value;
    const home = language ? [`${HOME}?lang=${language}`, HOME] : [HOME];
    for (const fallback of key === HOME ? home : [key, ...home]) {
      const found = await caches.match(fallback, { cacheName: CACHE });
      if (found) return found;
    }
    throw error;
  }
}

// A push from the server (web/push/): its message is written already, in the reader's language
// ({kind, title, body, url, tag, game}); a newer one of the same game replaces the older (its tag).
self.addEventListener("push", (event) => {
  let message = null;
  try {
    message = event.data?.json() ?? null;
  } catch {
    message = null;
  }
  if (!message?.title) return;
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      data: { url: message.url, game: message.game },
      icon: "/static/icons/icon-192.png",
      badge: "/static/icons/icon-192.png",
      renotify: message.kind === "your_turn" || message.kind === "reminder",
    }),
  );
});

// A tap on the notification: the game's page, in a tab open on it already if there is one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? HOME, location.origin);
  event.waitUntil(openGame(url));
});

async function openGame(url) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).pathname === url.pathname);
  if (open) return open.focus();
  return self.clients.openWindow(url.href);
}
