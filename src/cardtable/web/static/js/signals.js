// Turn signals: the tab's title always; a sound and a notification when it becomes the player's
// turn, if the player wants them (their own choice, kept in this browser), and the table's ♪ menu
// that sets them. `S` is the table page's state (table.js).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { pushItem } from "./push.js";
import { leaveItem } from "./leave.js";

const SIGNALS_KEY = "cardtable.signals";

function signalPrefs() {
  try { return Object.assign({ sound: false, notify: false }, JSON.parse(localStorage.getItem(SIGNALS_KEY) || "{}")); } catch (e) { return { sound: false, notify: false }; }
}

function setSignalPref(k, v) {
  const p = signalPrefs();
  p[k] = !!v;
  try { localStorage.setItem(SIGNALS_KEY, JSON.stringify(p)); } catch (e) { /* ignore */ }
}

let audio = null;
/** Two short soft tones (Web Audio: no sound file). */
function beep() {
  try {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    if (!audio) audio = new AC();
    if (audio.state === "suspended" && audio.resume) audio.resume();
    const t0 = audio.currentTime;
    [[660, 0], [880, 0.14]].forEach(([f, d]) => {
      const o = audio.createOscillator();
      const g = audio.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, t0 + d);
      g.gain.exponentialRampToValueAtTime(0.15, t0 + d + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + d + 0.12);
      o.connect(g).connect(audio.destination);
      o.start(t0 + d);
      o.stop(t0 + d + 0.13);
    });
  } catch (e) { /* no sound */ }
}

export function signalTurn(S, prev, st) {
  const code = S.code;
  const turn = !!(st.your_turn && st.status === "playing");
  const title = `${S.table ? t("game." + S.table.game) : ""} ${code} · cardtable`;
  document.title = turn ? `▶ ${t("table.title_turn")} · ${title}` : title;
  const fresh = turn && (!S.wasTurn || (prev && prev.index !== st.index && st.window && !(prev.window)));
  S.wasTurn = turn;
  if (!fresh) return;
  const prefs = signalPrefs();
  if (prefs.sound) beep();
  const away = document.visibilityState !== "visible" || !document.hasFocus();
  if (prefs.notify && away && typeof Notification !== "undefined" && Notification.permission === "granted") {
    try {
      const n = new Notification(t("table.notify_title"), { body: t("table.notify_body", { code }), tag: `cardtable-${code}` });
      n.onclick = () => { window.focus(); n.close(); };
    } catch (e) { /* not allowed here */ }
  }
}

export function signalsMenu(S, drawStatus) {
  const prefs = signalPrefs();
  const canNotify = typeof Notification !== "undefined";
  // open until the player closes it (its button, Escape, a click elsewhere): S.signalsOpen
  // carries it across the bar's rebuilds. The menu drawn last says whether it is open: its
  // toggle event comes a task after the click, so a rebuild between them (a game event) would
  // otherwise draw it as it was before the click.
  if (S.signalsEl) S.signalsOpen = S.signalsEl.open;
  S.signalsEl = h("details", { class: "signals", id: "signals", open: !!S.signalsOpen,
    ontoggle: (e) => { if (e.currentTarget.isConnected) S.signalsOpen = e.currentTarget.open; } },
    h("summary", { class: "btn btn-small icon-btn" + (prefs.sound || prefs.notify ? " is-on" : ""), id: "signals-btn", "aria-label": t("signals.title"), title: t("signals.title") },
      h("span", { "aria-hidden": "true" }, "♪")),
    h("div", { class: "signals-menu" },
      h("p", { class: "muted small" }, t("signals.hint")),
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "pref-sound", checked: prefs.sound, onchange: (e) => {
        setSignalPref("sound", e.target.checked);
        if (e.target.checked) beep();               // a gesture: the browser lets the page sound from now on
        S.signalsOpen = true;
        drawStatus();
      } }), " ", t("signals.sound")),
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "pref-notify", checked: prefs.notify, disabled: !canNotify, onchange: async (e) => {
        let on = e.target.checked;
        if (on && canNotify && Notification.permission !== "granted") {
          try { on = (await Notification.requestPermission()) === "granted"; } catch (err) { on = false; }
        }
        setSignalPref("notify", on);
        S.signalsOpen = true;
        drawStatus();
      } }), " ", t("signals.notify")),
      canNotify && Notification.permission === "denied" ? h("p", { class: "muted small" }, t("signals.denied")) : null,
      pushItem(S, drawStatus),
      leaveItem(S)));
  return S.signalsEl;
}

export function closeSignals(S, { focus = false } = {}) {
  S.signalsOpen = false;
  const d = document.getElementById("signals");
  if (d && d.open) d.open = false;
  if (focus) { const b = document.getElementById("signals-btn"); if (b) b.focus(); }
}
