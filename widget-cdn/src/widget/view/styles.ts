/*
 * The widget's stylesheet, inside its shadow root. Page rules cannot reach the elements in there;
 * what can reach them is inheritance from the host element, which page rules do style. So the host
 * resets everything (`all: initial`) and sets what inherits (font, colour, the palette variables)
 * with !important: for the host, a shadow root's !important beats even the page's !important.
 * The AI notice's visibility is !important too, as a second lock on a label that must always show.
 *
 * color-mix() tints the accent for hovers, badges and focus rings; it is also the feature that sets
 * the browser floor (see browser-support.ts).
 */
export const styles = `
:host {
  all: initial !important;
  display: block !important;
  --accent: #4f46e5 !important;
  --text: #1f2328 !important;
  --muted: #5f6670 !important;
  --bubble: #f0f2f5 !important;
  --line: #e4e7eb !important;
  --tint: color-mix(in srgb, var(--accent) 12%, #fff) !important;
  font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif !important;
  color: var(--text) !important;
  -webkit-font-smoothing: antialiased !important;
}
*, ::before, ::after { box-sizing: border-box; }
[hidden] { display: none !important; }
button, textarea { font: inherit; color: inherit; margin: 0; }
button { cursor: pointer; border: 0; background: none; padding: 0; }
button:disabled { cursor: default; opacity: .45; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
svg { width: 22px; height: 22px; fill: currentColor; }
svg[data-stroke] { fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }

[data-el=launcher] {
  position: fixed; right: 20px; bottom: 20px; z-index: 2147483000;
  width: 56px; height: 56px; border-radius: 50%; display: grid; place-items: center;
  background: var(--accent); color: #fff;
  box-shadow: 0 6px 20px rgb(0 0 0 / .2), 0 1px 3px rgb(0 0 0 / .12);
  transition: transform .15s ease, background-color .15s ease;
}
[data-el=launcher]:hover { background: color-mix(in srgb, var(--accent) 85%, #000); transform: scale(1.05); }
[data-el=launcher] svg { grid-area: 1 / 1; width: 28px; height: 28px; }
[data-el=launcher][aria-expanded=true] [data-icon=chat], [data-el=launcher][aria-expanded=false] [data-icon=chevron] { display: none; }
[data-el=unread] {
  position: absolute; top: 1px; right: 1px; width: 14px; height: 14px;
  border-radius: 50%; background: #e5484d; border: 2px solid #fff;
}

[data-el=panel] {
  position: fixed; right: 20px; bottom: 88px; z-index: 2147483000;
  width: 380px; height: 560px; max-width: calc(100vw - 40px); max-height: calc(100vh - 108px);
  display: flex; flex-direction: column; overflow: hidden;
  background: #fff; border-radius: 16px;
  box-shadow: 0 12px 48px rgb(0 0 0 / .18), 0 2px 8px rgb(0 0 0 / .08);
  animation: kb-rise .18s ease-out;
}
@keyframes kb-rise { from { opacity: 0; transform: translateY(8px); } }
@media (max-width: 480px), (max-height: 560px) {
  [data-el=panel] { inset: 0; width: auto; height: auto; max-width: none; max-height: none; border-radius: 0; }
  [data-el=launcher][aria-expanded=true] { display: none; }
}

[data-el=header] { display: flex; align-items: center; gap: 12px; padding: 14px 10px 14px 18px; background: var(--accent); color: #fff; }
[data-el=heading] { flex: 1; min-width: 0; }
[data-el=title] { margin: 0; font-size: 16px; font-weight: 600; line-height: 1.3; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
[data-el=subtitle] { margin: 0; font-size: 12.5px; opacity: .85; }
[data-el=close], [data-el=history-toggle] { width: 36px; height: 36px; border-radius: 10px; display: grid; place-items: center; }
[data-el=close]:hover, [data-el=history-toggle]:hover, [aria-expanded=true][data-el=history-toggle] { background: color-mix(in srgb, #fff 18%, transparent); }

[data-el=history] { flex: 1; overflow-y: auto; margin: 0; padding: 10px 16px; list-style: none; }
[data-el=history] button, [data-el=restart] { width: 100%; display: grid; margin: 4px 0; padding: 8px 12px; text-align: start; border: 1px solid var(--line); border-radius: 10px; }
[data-el=history] :hover, [aria-current], [data-el=restart]:hover { background: var(--tint); }
[data-el=new], [data-el=restart] { color: var(--accent); font-weight: 600; }
[data-el=history] span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
[data-el=history] small { color: var(--muted); }
[data-el=header] :focus-visible { outline-color: #fff; }

[data-el=log] {
  flex: 1; overflow-y: auto; overscroll-behavior: contain;
  display: flex; flex-direction: column; gap: 12px; padding: 16px;
}
[data-el=log]:focus-visible { outline-offset: -2px; }
[data-el=message] { display: flex; flex-direction: column; align-items: flex-start; max-width: 85%; }
[data-el=bubble] {
  padding: 9px 13px; border-radius: 16px 16px 16px 4px;
  background: var(--bubble); font-size: 14.5px; overflow-wrap: anywhere;
}
[data-author=visitor] { align-self: flex-end; align-items: flex-end; }
[data-author=visitor] [data-el=bubble] { background: var(--accent); color: #fff; border-radius: 16px 16px 4px 16px; }
[data-author=visitor] [data-el=text], [data-author=agent] [data-el=text], [data-author=system] [data-el=text] { white-space: pre-wrap; }
[data-author=system] { align-self: center; max-width: 100%; text-align: center; }
[data-author=system] [data-el=bubble] { background: none; padding: 0 8px; color: var(--muted); font-size: 13px; }
[data-failed] [data-el=bubble] { opacity: .55; }
[data-el=author] { margin: 0 0 3px 4px; font-size: 12px; font-weight: 600; color: var(--muted); }
[data-el=text] p, [data-el=text] ul, [data-el=text] ol { margin: 0; }
[data-el=text] > * + * { margin-top: 8px; }
[data-el=text] ul, [data-el=text] ol { padding-left: 20px; }
[data-el=text] a, [data-el=citations] a { color: var(--accent); text-underline-offset: 2px; }
[data-el=text] code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; padding: 1px 4px; border-radius: 4px; background: color-mix(in srgb, currentColor 9%, transparent); }
[data-el=ref] { line-height: 0; font-size: 10.5px; font-weight: 600; margin-left: 1px; }
[data-el=ref] > * {
  display: inline-block; min-width: 16px; padding: 0 4px; border-radius: 8px;
  line-height: 16px; text-align: center; text-decoration: none; background: var(--tint); color: var(--accent);
}
[data-el=ref] a:hover { background: color-mix(in srgb, var(--accent) 24%, #fff); }
[data-el=citations] { margin-top: 8px; padding-top: 8px; border-top: 1px solid color-mix(in srgb, currentColor 12%, transparent); font-size: 13px; }
[data-el=citations-title] { margin: 0 0 2px; font-weight: 600; color: var(--muted); }
[data-el=citations] ol { margin: 0; padding-left: 20px; }
[data-el=ai-notice] {
  display: flex !important; visibility: visible !important; opacity: 1 !important;
  align-items: center; gap: 6px; margin: 4px 0 0 4px; font-size: 12px; color: var(--muted);
}
[data-el=ai-badge] { padding: 0 5px; border-radius: 4px; font-size: 10px; font-weight: 700; letter-spacing: .04em; line-height: 16px; background: var(--tint); color: var(--accent); }
[data-el=rate] { display: flex; align-items: center; gap: 2px; margin: 2px 0 0 2px; font-size: 12px; color: var(--muted); }
[data-el=rate] button, [data-el=survey] button { padding: 4px; border-radius: 8px; color: var(--muted); }
[data-el=rate] button:hover, [data-el=survey] button:hover, [aria-pressed=true] { background: var(--tint); color: var(--accent); }
[data-el=rate] svg { width: 16px; height: 16px; }
[data-rating=down] svg { transform: rotate(180deg); }
[data-el=thanks] { margin-left: 6px; }
[data-el=reason] { display: flex; gap: 6px; margin-top: 4px; }
[data-el=reason] input { flex: 1; min-width: 0; padding: 5px 9px; border: 1px solid var(--line); border-radius: 8px; font: inherit; font-size: 13px; }
[data-el=reason] button { padding: 0 10px; border-radius: 8px; background: var(--accent); color: #fff; font-size: 13px; }
[data-el=survey] { align-self: center; text-align: center; font-size: 13.5px; color: var(--muted); }
[data-el=survey] p { margin: 0 0 4px; }
[data-el=survey] button { min-width: 34px; margin: 0 2px; border: 1px solid var(--line); font-weight: 600; }
[data-streaming] [data-el=text]:empty::before { content: '•••'; letter-spacing: 3px; color: var(--muted); animation: kb-pulse 1s ease-in-out infinite alternate; }
@keyframes kb-pulse { from { opacity: .3; } }

[data-el=status] { margin: 0; padding: 0 16px 6px; font-size: 12.5px; color: var(--muted); }
[data-el=status]:empty { display: none; }
[data-el=footer] { padding: 10px 12px 12px; border-top: 1px solid var(--line); }
[data-el=handoff] { margin: 0 0 8px; padding: 5px 12px; border: 1px solid var(--line); border-radius: 999px; font-size: 13px; }
[data-el=handoff]:hover { background: var(--tint); border-color: color-mix(in srgb, var(--accent) 40%, #fff); }
[data-el=composer] {
  display: flex; align-items: flex-end; gap: 8px; padding: 5px 5px 5px 12px;
  border: 1px solid var(--line); border-radius: 14px; transition: border-color .15s, box-shadow .15s;
}
[data-el=composer]:focus-within { border-color: var(--accent); box-shadow: 0 0 0 3px color-mix(in srgb, var(--accent) 18%, transparent); }
[data-el=input] { flex: 1; min-height: 36px; max-height: 120px; padding: 7px 0; border: 0; outline: 0; resize: none; background: none; line-height: 1.4; }
[data-el=input]::placeholder { color: var(--muted); }
[data-el=send] { flex: none; width: 36px; height: 36px; border-radius: 10px; display: grid; place-items: center; background: var(--accent); color: #fff; }
[data-el=send]:hover:enabled { background: color-mix(in srgb, var(--accent) 85%, #000); }
[data-el=send] svg { width: 18px; height: 18px; }
[data-el=input-label] { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }

@media (prefers-reduced-motion: reduce) {
  *, ::before, ::after { animation: none !important; transition: none !important; }
}
`;
