/** The inbox page's styles: plain CSS, served as `/agent/app.css`. */
export const agentPageCss = `
:root { color-scheme: light; --line: #e3e6ea; --muted: #68707a; --accent: #2457d6; --bg: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1d2127; background: var(--bg); }
[hidden] { display: none !important; }
.top { display: flex; align-items: center; gap: 16px; padding: 10px 20px; background: #fff; border-bottom: 1px solid var(--line); }
.top h1 { font-size: 17px; margin: 0; flex: 1; }
.sign-in, .signed-in { display: flex; align-items: center; gap: 8px; }
.sign-in input { width: 260px; }
input, textarea { font: inherit; padding: 6px 8px; border: 1px solid #c9ced6; border-radius: 6px; }
button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button:disabled { opacity: 0.45; cursor: default; }
button.secondary, button.quiet { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: #b42318; border-color: #b42318; }
.live { color: var(--muted); font-size: 12px; }
.live.on::before { content: '●'; color: #1a7f37; margin-right: 4px; }
.error { margin: 0; padding: 8px 20px; background: #fdecea; color: #8a1c12; border-bottom: 1px solid #f5c2bd; }
main { display: grid; grid-template-columns: 340px 1fr; height: calc(100vh - 52px); }
.list { border-right: 1px solid var(--line); background: #fff; overflow-y: auto; }
.list h2 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); margin: 14px 16px 6px; }
.list ul { list-style: none; margin: 0; padding: 0; }
.list li button { display: block; width: 100%; text-align: left; background: #fff; color: inherit; border: 0; border-bottom: 1px solid var(--line); border-radius: 0; padding: 10px 16px; }
.list li button:hover { background: #f3f6fc; }
.list li button[aria-current='true'] { background: #e9f0fe; box-shadow: inset 3px 0 var(--accent); }
.list li button[aria-current='true'] .badge { background: #fff; }
.row { display: flex; align-items: center; gap: 6px; }
.row .who { font-weight: 600; flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.when { color: var(--muted); font-size: 12px; }
.badges { display: flex; gap: 6px; margin-top: 4px; }
.badge { font-size: 11px; padding: 1px 7px; border-radius: 999px; border: 1px solid transparent; }
.badge.widget { background: #eef2ff; color: #3538cd; }
.badge.messaging { background: #e7f8ee; color: #157347; }
.badge.status-waiting_for_agent { background: #fff4e5; color: #a15c00; }
.badge.status-agent { background: #e9f0fe; color: var(--accent); }
.badge.status-ai { background: #f1f2f4; color: var(--muted); }
.badge.status-closed { background: #f1f2f4; color: var(--muted); border-color: var(--line); }
.badge.problem { background: #fdecea; color: #b42318; }
.muted { color: var(--muted); padding: 0 16px; }
.detail { display: flex; flex-direction: column; min-height: 0; }
.placeholder { align-items: center; justify-content: center; }
.detail-head { display: flex; justify-content: space-between; align-items: flex-start; gap: 12px; padding: 14px 20px; background: #fff; border-bottom: 1px solid var(--line); }
.detail-head h2 { margin: 0; font-size: 16px; }
.actions { display: flex; gap: 8px; }
.notice { margin: 0; padding: 8px 20px; background: #eef6ff; border-bottom: 1px solid var(--line); }
.notice.warn { background: #fff4e5; color: #7a4100; }
.notice.closed { background: #fdecea; color: #8a1c12; }
.transcript { list-style: none; margin: 0; padding: 16px 20px; overflow-y: auto; flex: 1; display: flex; flex-direction: column; gap: 10px; }
.message { max-width: 70%; padding: 8px 12px; border-radius: 10px; background: #fff; border: 1px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; }
.message .meta { display: block; font-size: 11px; color: var(--muted); margin-bottom: 2px; }
.message.visitor { align-self: flex-start; }
.message.ai { align-self: flex-start; background: #f7f7fb; }
.message.agent { align-self: flex-end; background: #e9f0fe; border-color: #c9d8fb; }
.message.system { align-self: center; text-align: center; background: transparent; border: 0; color: var(--muted); font-size: 12px; }
.reply { display: flex; gap: 8px; padding: 12px 20px; background: #fff; border-top: 1px solid var(--line); }
.reply textarea { flex: 1; resize: vertical; }
`;
