// The replay's moves (replay.js): going to a step, switching the seat whose view is shown
// (keeping the step), autoplay, and the keys ← → (one step), PageUp / PageDown (ten),
// Home / End, Space (play / pause). `P` is the page (replay.js).
import { t } from "./i18n.js";
import { loadSeat, message } from "./replay-load.js";
import { show, fillLog } from "./replay-step.js";

const AUTOPLAY_MS = 900;

/** Shows step i (kept within the game). */
export function go(P, i, { fromSlider = false } = {}) {
  const { st } = P;
  if (!st.data) return;
  const last = st.data.actions;
  const n = Math.max(0, Math.min(last, Number.isFinite(i) ? i : 0));
  if (n === st.step && !fromSlider) return;
  st.step = n;
  show(P);
}

/** Shows seat `seat`'s view (null: the full view) at the same step. */
export async function switchSeat(P, seat) {
  const { st } = P;
  stopPlay(P);
  st.seat = seat;
  try {
    const data = await loadSeat(P, seat);
    if (!st.alive || st.seat !== seat) return;
    st.data = data;
    fillLog(P, data.steps.filter(Boolean));
    show(P);
  } catch (e) {
    message(P, t("replay.error", { msg: e.message }), { alert: true, retry: true });
  }
}

export function togglePlay(P) {
  const { st, ui } = P;
  if (st.timer) { stopPlay(P); return; }
  if (st.step >= st.data.actions) st.step = 0;
  st.timer = setInterval(() => {
    if (!st.alive || !P.root.isConnected) { stopPlay(P); return; }
    go(P, st.step + 1);
  }, AUTOPLAY_MS);
  ui.play.querySelector(".replay-btn-icon").textContent = "‖";
  ui.play.querySelector(".replay-btn-text").textContent = t("replay.pause");
  ui.play.setAttribute("aria-label", t("replay.pause"));
  ui.play.setAttribute("aria-pressed", "true");
}

export function stopPlay(P) {
  const { st, ui } = P;
  if (st.timer) clearInterval(st.timer);
  st.timer = null;
  if (ui && ui.play) {
    ui.play.querySelector(".replay-btn-icon").textContent = "▷";
    ui.play.querySelector(".replay-btn-text").textContent = t("replay.play");
    ui.play.setAttribute("aria-label", t("replay.play"));
    ui.play.setAttribute("aria-pressed", "false");
  }
}

/** The page's keys (not while typing in a field; the slider's own keys are the page's). */
export function onKey(P, ev) {
  const { st, ui } = P;
  if (!P.root.isConnected) { P.destroy(); return; }
  if (!st.data || !ui || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const tgt = ev.target;
  const tag = tgt && tgt.tagName;
  if (tag === "INPUT" && tgt !== ui.slider) return;
  if (tag === "TEXTAREA" || tag === "SELECT" || (tgt && tgt.isContentEditable)) return;
  const last = st.data.actions;
  let to = null;
  switch (ev.key) {
    case "ArrowRight": to = st.step + 1; break;
    case "ArrowLeft": to = st.step - 1; break;
    case "PageDown": to = st.step + 10; break;
    case "PageUp": to = st.step - 10; break;
    case "Home": to = 0; break;
    case "End": to = last; break;
    case " ":
      if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return;
      ev.preventDefault();
      togglePlay(P);
      return;
    default: return;
  }
  ev.preventDefault();
  if (st.timer) stopPlay(P);
  go(P, to);
}
