/* Klub: a bot's chat at the table (loaded where a bot account plays): each of its messages
   has a button that mutes the bot (PUT /api/bots/{name}/mute: the server leaves its
   messages out of every chat the member reads), then a note to read it again (DELETE). */
"use strict";
(function () {
  const K = window.Klub;
  const chat = () => K.table.chat;
  function mute(name, on) {
    fetch(`/api/bots/${encodeURIComponent(name)}/mute`, { method: on ? "PUT" : "DELETE" }).then((r) => {
      if (!r.ok) return;
      const { log, seen, load } = chat();
      if (!on) { seen.clear(); K.clear(log); load(); return; } // in order again, from the history
      for (const li of log.querySelectorAll("li[data-from]")) {
        if (li.dataset.from === name) { seen.delete(Number(li.dataset.id)); li.remove(); }
      }
      log.append(K.el("li.chat-muted", { dataset: { from: name } }, K.T("The chat of {name} is muted.", { name }), " ",
        K.el("button.btn.small.chat-unmute", { type: "button", onclick: () => mute(name, false) }, K.T("Unmute"))));
    });
  }
  K.botChat = (li) => {
    const name = li.dataset.from;
    li.append(K.el("button.btn.small.chat-mute", { type: "button", title: K.T("Mute the chat of {name}", { name }),
      onclick: () => mute(name, true) }, K.T("Mute")));
  };
  // the messages drawn before this script came
  for (const li of document.querySelectorAll("#chat-log li.chat-bot")) if (!li.querySelector(".chat-mute")) K.botChat(li);
})();
