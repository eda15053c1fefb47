// The WebSocket connection of a table page: connects, reconnects by itself (with the events
// missed in between: since=N), and hands every server message to `onMessage`.
//
// A connection counts as lost when the socket closes (server gone, network reset), when the
// browser reports going offline, when a connection attempt does not open within `timeout`, or
// when nothing arrives for `heartbeat + timeout` ms although a ping was sent after `heartbeat`
// ms of silence (a socket that died silently: a laptop asleep, a network that swallows packets).
// Then it retries with backoff (0.3 s doubling up to 5 s), at once when the browser is back
// online or the page becomes visible again.
// A server process that shuts down (a rolling restart) sends {"type": "reconnect", "delay_ms"}
// and closes with 1012: the page connects again to the same URL after a random part of that
// delay (the load balancer sends it to another process), without the backoff.
// Status reported through onStatus: "connecting" (first attempt), "open", "reconnecting",
// "offline" (the browser says there is no network; retries go on).
// A refused or ended connection is not tried again: a bad token (4401), a ban or suspension
// (4403, after an `error` banned/suspended with its reason), no such table (4404), expired (4410).
// A seat's token never goes into the URL: the socket opens with ?auth=1 and its first message is
// {"type": "auth", "token": ...} (docs/protocol.md).
// Tests may set window.CARDTABLE_NET = {heartbeat, timeout} (ms) before the page loads.
const DEFAULTS = { heartbeat: 15000, timeout: 6000 };

export class TableConnection {
  constructor(code, { token = null, lang = "en", client = null, onMessage, onStatus, onClose } = {}) {
    this.code = code;
    this.token = token;
    this.client = client;      // the browser's client identity (a guest's mutes hold it)
    this.lang = lang;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onClose = onClose || (() => {});
    this.ws = null;
    this.since = 0;            // the index after the last event seen
    this.closed = false;
    this.retry = 0;
    this.timer = null;
    this.nextId = 1;
    this.opened = false;
    this.status = null;
    this.lastRecv = 0;
    this.lastPing = 0;
    this.attemptAt = 0;
    this.cfg = Object.assign({}, DEFAULTS, (typeof window !== "undefined" && window.CARDTABLE_NET) || {});
    this.watch = null;
    this.moving = null;        // ms to wait after the close a `reconnect` message announced
    this.onOffline = () => {
      if (this.closed) return;
      this.drop();
      this.setStatus("offline");
    };
    this.onOnline = () => { if (!this.closed && !this.isOpen()) this.reconnectNow(); };
    this.onVisible = () => {
      if (this.closed || document.visibilityState !== "visible") return;
      if (this.isOpen()) this.ping();              // verify it quickly after a sleep
      else this.reconnectNow();
    };
    if (typeof window !== "undefined") {
      window.addEventListener("offline", this.onOffline);
      window.addEventListener("online", this.onOnline);
      document.addEventListener("visibilitychange", this.onVisible);
    }
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = new URLSearchParams();
    if (this.token) q.set("auth", "1");
    q.set("lang", this.lang);
    q.set("since", String(this.since));
    if (this.client) q.set("client", this.client);
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.code)}?${q}`;
  }

  setStatus(st) {
    if (st === "reconnecting" && typeof navigator !== "undefined" && navigator.onLine === false) st = "offline";
    if (st === this.status) return;
    this.status = st;
    this.onStatus(st);
  }

  isOpen() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  /** `wanted`: a reconnect asked for (restart), not a lost connection. */
  connect(wanted = false) {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.setStatus(this.opened && !wanted ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.schedule();
      return;
    }
    this.ws = ws;
    this.attemptAt = Date.now();
    this.startWatch();
    ws.onopen = () => {
      if (this.ws !== ws) return;
      if (this.token) ws.send(JSON.stringify({ type: "auth", token: this.token }));
      this.retry = 0;
      this.opened = true;
      this.lastRecv = Date.now();
      this.lastPing = 0;
      this.setStatus("open");
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.lastRecv = Date.now();
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "event" && typeof msg.index === "number") {
        if (msg.index < this.since) return;          // already seen (a resync)
        this.since = msg.index + 1;
      }
      if (msg.type === "pong" && msg.id === this.pingId) return;     // our heartbeat
      if (msg.type === "reconnect") {                // the process restarts: come back soon
        this.moving = Math.random() * (Number(msg.delay_ms) || 1000);
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (ev.code === 4401 || ev.code === 4403 || ev.code === 4404 || ev.code === 4410) {
        this.stopWatch();
        this.onClose(ev.code);
        return;
      }
      this.setStatus("reconnecting");
      if (this.moving !== null || ev.code === 1012) {   // a restart: no backoff
        const wait = this.moving !== null ? this.moving : Math.random() * 1000;
        this.moving = null;
        this.retry = 0;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.connect(), wait);
        return;
      }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  /** Give up the current socket at once (without waiting for a closing handshake that may never
   * come) and try again later. */
  drop() {
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onopen = old.onmessage = old.onclose = old.onerror = null;
      try { old.close(); } catch (e) { /* ignore */ }
    }
    if (this.closed) return;
    this.setStatus("reconnecting");
    this.schedule();
  }

  reconnectNow() {
    const old = this.ws;
    this.ws = null;
    if (old) { old.onopen = old.onmessage = old.onclose = old.onerror = null; try { old.close(); } catch (e) { /* ignore */ } }
    this.retry = 0;
    this.connect();
  }

  ping() {
    if (!this.isOpen()) return;
    this.lastPing = Date.now();
    this.pingId = this.send({ type: "ping" });
  }

  startWatch() {
    if (this.watch) return;
    const tick = Math.max(100, Math.min(1000, Math.floor(this.cfg.heartbeat / 3)));
    this.watch = setInterval(() => this.check(), tick);
  }

  stopWatch() { clearInterval(this.watch); this.watch = null; }

  check() {
    if (this.closed || !this.ws) return;
    const now = Date.now();
    if (this.ws.readyState === WebSocket.CONNECTING) {
      if (now - this.attemptAt > this.cfg.timeout) this.drop();
      return;
    }
    if (this.ws.readyState !== WebSocket.OPEN) return;
    const quiet = now - this.lastRecv;
    if (quiet >= this.cfg.heartbeat + this.cfg.timeout && this.lastPing && now - this.lastPing >= this.cfg.timeout) {
      this.drop();                                   // silent: the socket is dead
    } else if (quiet >= this.cfg.heartbeat && (!this.lastPing || this.lastPing < this.lastRecv)) {
      this.ping();
    }
  }

  schedule() {
    clearTimeout(this.timer);
    const wait = Math.min(5000, 300 * Math.pow(2, this.retry++));
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** Reconnect now (e.g. with another language or token); `resetEvents` asks for every event again. */
  restart({ lang, token, resetEvents } = {}) {
    if (lang) this.lang = lang;
    if (token !== undefined) this.token = token;
    if (resetEvents) this.since = 0;
    const old = this.ws;
    this.ws = null;
    if (old) { old.onopen = old.onmessage = old.onclose = old.onerror = null; old.close(); }
    clearTimeout(this.timer);
    this.retry = 0;
    this.connect(true);
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify(Object.assign({ id }, obj)));
    return id;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopWatch();
    if (typeof window !== "undefined") {
      window.removeEventListener("offline", this.onOffline);
      window.removeEventListener("online", this.onOnline);
      document.removeEventListener("visibilitychange", this.onVisible);
    }
    if (this.ws) { this.ws.onclose = null; this.ws.close(); this.ws = null; }
  }
}
