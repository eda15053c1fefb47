// The WebSocket connection of a table page: connects, reconnects by itself (with the events
// missed in between: since=N), and hands every server message to `onMessage`.
export class TableConnection {
  constructor(code, { token = null, lang = "en", onMessage, onStatus, onClose } = {}) {
    this.code = code;
    this.token = token;
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
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = new URLSearchParams();
    if (this.token) q.set("token", this.token);
    q.set("lang", this.lang);
    q.set("since", String(this.since));
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.code)}?${q}`;
  }

  connect() {
    if (this.closed) return;
    this.onStatus(this.opened ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.opened = true;
      this.onStatus("open");
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "event" && typeof msg.index === "number") {
        if (msg.index < this.since) return;          // already seen (a resync)
        this.since = msg.index + 1;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (ev.code === 4401 || ev.code === 4404) {
        this.onClose(ev.code);
        return;
      }
      this.onStatus("reconnecting");
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
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
    if (old) { old.onclose = null; old.close(); }
    clearTimeout(this.timer);
    this.connect();
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
    if (this.ws) { this.ws.onclose = null; this.ws.close(); this.ws = null; }
  }
}
