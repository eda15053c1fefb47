// What this browser keeps about its seats and its player's name (localStorage): a seat's token
// per table code, the name last typed. Nothing here is a secret the server relies on.
// -- seats and tokens --------------------------------------------------------------------------
export function seatKey(code) { return `cardtable.seat.${code}`; }

export function loadSeat(code) {
  try { return JSON.parse(localStorage.getItem(seatKey(code)) || "null"); } catch (e) { return null; }
}

export function saveSeat(code, info) {
  try {
    localStorage.setItem(seatKey(code), JSON.stringify(Object.assign({ at: Date.now() }, info)));
  } catch (e) { /* ignore */ }
}

export function dropSeat(code) {
  try { localStorage.removeItem(seatKey(code)); } catch (e) { /* ignore */ }
}

export function mySeats() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith("cardtable.seat.")) {
        const v = JSON.parse(localStorage.getItem(k) || "null");
        if (v) out.push(Object.assign({ code: k.slice("cardtable.seat.".length) }, v));
      }
    }
  } catch (e) { /* ignore */ }
  return out.sort((a, b) => (b.at || 0) - (a.at || 0));
}


export function storedName() {
  try { return localStorage.getItem("cardtable.name") || ""; } catch (e) { return ""; }
}
export function storeName(n) {
  try { localStorage.setItem("cardtable.name", n); } catch (e) { /* ignore */ }
}
