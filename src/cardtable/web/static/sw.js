// The service worker (served as /sw.js: its scope is the whole site; server/http/push.py).
// It shows the server's "your move" alerts (Web Push, server/talk/push.py) while no page of the
// table is open, and opens the table when the alert is clicked. A message carries only
// {title, body, url, table, tag}: the table and its link, nothing of the game.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let m = {};
  try { m = event.data ? event.data.json() : {}; } catch (e) { m = {}; }
  const url = typeof m.url === "string" && /^\/t\/[A-Za-z0-9]{1,32}$/.test(m.url) ? m.url : "/";
  const text = (v) => (typeof v === "string" ? v.slice(0, 200) : "");
  event.waitUntil(self.registration.showNotification(text(m.title) || "cardtable", {
    body: text(m.body), tag: text(m.tag) || "cardtable", data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil((async () => {
    const wins = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const w of wins) {
      if (new URL(w.url).pathname === url && "focus" in w) return w.focus();
    }
    return self.clients.openWindow(url);
  })());
});
