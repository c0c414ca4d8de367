import escapeHtml from 'escape-html';

/**
 * `{cdn_url}/demo#<operator key>` outside production: a plain page with the widget embedded the way
 * docs/widget.md shows (the newest release), so whoever runs `npm start` can talk to the demo tenant's
 * operator at once. The key travels in the fragment, which never reaches a server or its logs.
 *
 * `questions` are what the page suggests asking (DEMO_QUESTIONS: those the demo help centre answers).
 * They are shown to type, not sent: the widget's interface has no command that sends a message.
 */
export function demoPage(questions: readonly string[]): string {
  const suggestions =
    questions.length === 0
      ? `<p>Ingest content into its knowledge base and ask about it.</p>`
      : `<p>Its knowledge base holds a demo help centre. Type one of these into the chat:</p>
  <ul id="suggested-questions">
${questions.map((question) => `    <li><q>${escapeHtml(question)}</q></li>`).join('\n')}
  </ul>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Widget demo</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; color: #1f2937; }
    code { background: #f3f4f6; padding: 0.1rem 0.3rem; border-radius: 4px; }
    #suggested-questions q { user-select: all; }
  </style>
  <script type="module" src="/latest/widget.js"></script>
  <script type="module">
    const operatorKey = decodeURIComponent(location.hash.slice(1));
    window.widget('on', 'error', (error) => (document.querySelector('#problem').textContent = error.message));
    window.widget('init', { operatorKey });
  </script>
</head>
<body>
  <h1>Widget demo</h1>
  <p>The chat widget of the newest release, talking to the operator whose key follows the <code>#</code>
  in this page's address.</p>
  ${suggestions}
  <p><button type="button" data-widget-open>Chat with us</button></p>
  <p id="problem" role="alert"></p>
</body>
</html>
`;
}
