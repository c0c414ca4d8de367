/**
 * The agent inbox page. Static markup only: the script fills it in with `textContent`, so nothing a
 * customer writes is ever parsed as HTML. Script and styles are files of their own, so the page runs
 * under a strict Content-Security-Policy with no inline code.
 */
export const agentPageHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Agent inbox</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/agent/app.css" />
    <script type="module" src="/agent/app.js"></script>
  </head>
  <body>
    <header class="top">
      <h1>Agent inbox</h1>
      <form id="sign-in" class="sign-in" hidden>
        <label for="token">User token</label>
        <input id="token" type="password" autocomplete="off" required />
        <button type="submit">Sign in</button>
      </form>
      <div id="signed-in" class="signed-in" hidden>
        <span id="live" class="live">Connecting…</span>
        <button id="sign-out" type="button" class="quiet">Sign out</button>
      </div>
    </header>
    <p id="error" class="error" role="alert" hidden></p>
    <main id="main" hidden>
      <section class="list">
        <h2>Needs a person</h2>
        <p id="empty" class="muted">No one is waiting.</p>
        <ul id="conversations"></ul>
        <h2>With the AI</h2>
        <p id="empty-ai" class="muted">No conversation right now.</p>
        <ul id="with-ai"></ul>
      </section>
      <section id="placeholder" class="detail placeholder"><p class="muted">Select a conversation.</p></section>
      <section id="detail" class="detail" hidden>
        <div class="detail-head">
          <div>
            <h2 id="contact"></h2>
            <div id="badges" class="badges"></div>
          </div>
          <div class="actions">
            <button id="take-over" type="button">Take over</button>
            <button id="hand-back" type="button" class="secondary">Hand back to AI</button>
            <button id="close" type="button" class="danger">Close</button>
          </div>
        </div>
        <p id="window" class="notice" hidden></p>
        <p id="problem" class="notice warn" hidden></p>
        <ol id="transcript" class="transcript"></ol>
        <form id="reply" class="reply">
          <textarea id="reply-text" rows="3" maxlength="4096" placeholder="Write a reply…" aria-label="Reply"></textarea>
          <button id="send" type="submit">Send</button>
        </form>
      </section>
    </main>
  </body>
</html>
`;
