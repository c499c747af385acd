/* Klub: a bot's profile page, the member's challenge (templates/_profile_challenge.html):
   when a live notice says the bot answered (accepted, declined, the partie started), the
   challenge is read again (GET /api/parties/{id}) and the page says what it answered, with
   its reason. */
"use strict";
(function () {
  const K = window.Klub;
  const box = document.getElementById("challenge");
  const status = document.getElementById("challenge-status");
  if (!box || !status || !box.dataset.partie) return;
  const partie = Number(box.dataset.partie);
  const bot = (box.dataset.bot || "").toLowerCase();
  async function readAgain() {
    const r = await fetch(`/api/parties/${partie}`, { headers: { Accept: "application/json" } }).catch(() => null);
    if (!r || !r.ok) return;
    const p = await r.json();
    const seat = (p.seats || []).find((s) => (s.name || "").toLowerCase() === bot);
    const answer = p.status === "running" || p.status === "finished" ? "running" : seat ? seat.answer : "";
    const d = status.dataset;
    status.dataset.answer = answer;
    status.textContent = answer === "running" ? d.textRunning
      : answer === "declined" ? (seat.decline_reason ? d.textReason.replace("{reason}", seat.decline_reason) : d.textDeclined)
      : d.textInvited;
    const link = box.querySelector(".challenge-table");
    if (link) link.hidden = answer !== "running";
  }
  document.addEventListener("klub:notice", (e) => { if (e.detail && e.detail.partie === partie) readAgain(); });
  // an answer that came before the page's socket was open: read again on its first frame
  document.addEventListener("klub:unread", () => { if (status.dataset.answer === "invited") readAgain(); });
  if (status.dataset.answer === "invited") readAgain();
  K.challenge = { readAgain };
})();
