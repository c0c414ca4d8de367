/*
 * A conversation's service-level clocks on the inbox page, served as `/agent/sla.js`: the badge of a
 * list row and of the open conversation's head ("SLA breached" in red once a target was breached,
 * else the time left to the earliest running target, amber under 15 minutes), and the tick that keeps
 * the time left current every 30 s. The badge carries its due time, so the tick reads no API.
 */

import type { ViewDeps } from './view-deps.js';

export type SlaMetric = 'firstResponse' | 'nextResponse' | 'resolution';

/** A summary's `sla` (api/schemas/agent.ts): its earliest due time (past: overdue) and the targets breached. */
export interface SlaState {
  dueAt: string | null;
  breached: SlaMetric[];
}

/** How often the time left is said again. */
export const slaTickMs = 30_000;
/** Under this much time left, the badge turns amber. */
const soonMs = 15 * 60_000;

const metricWords: Record<SlaMetric, string> = {
  firstResponse: 'first response',
  nextResponse: 'next response',
  resolution: 'resolution',
};

/** "12 min left", "2 h 5 min left", "3 d left"; a minute started counts whole. */
export function timeLeft(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 60) return `${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min left` : `${hours} h left`;
  return `${Math.floor(hours / 24)} d left`;
}

/** The badge's words, class and title for `sla` at `now`. */
function said(sla: SlaState, now: number): { text: string; kind: string; title: string } {
  if (sla.breached.length > 0)
    return {
      text: 'SLA breached',
      kind: 'breached',
      title: `Target breached: ${sla.breached.map((metric) => metricWords[metric] ?? metric).join(', ')}`,
    };
  const due = sla.dueAt ? Date.parse(sla.dueAt) : NaN;
  if (Number.isNaN(due)) return { text: 'SLA running', kind: 'running', title: 'A service-level target runs' };
  const left = due - now;
  const title = `Due ${new Date(due).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' })}`;
  if (left <= 0) return { text: 'Overdue', kind: 'breached', title };
  return { text: timeLeft(left), kind: left < soonMs ? 'soon' : 'running', title };
}

function paint(badge: HTMLElement, sla: SlaState, now: number) {
  const { text, kind, title } = said(sla, now);
  badge.textContent = text;
  badge.className = `badge sla ${kind}`;
  badge.title = title;
}

/** The badge of a conversation with a running target or a breach; null without (`sla` null or absent). */
export function slaBadge(el: ViewDeps['el'], sla: SlaState | null | undefined): HTMLSpanElement | null {
  if (!sla) return null;
  const badge = el('span');
  // What the tick reads to say the time left again.
  if (sla.dueAt) badge.dataset.dueAt = sla.dueAt;
  badge.dataset.breached = sla.breached.join(',');
  paint(badge, sla, Date.now());
  return badge;
}

/** Says the time left again on every SLA badge under `root`. */
export function tickSlaBadges(root: ParentNode): void {
  const now = Date.now();
  for (const badge of root.querySelectorAll<HTMLElement>('.badge.sla')) {
    const breached = (badge.dataset.breached ?? '').split(',').filter(Boolean) as SlaMetric[];
    paint(badge, { dueAt: badge.dataset.dueAt ?? null, breached }, now);
  }
}

/** Whether two summaries' clocks differ (the open conversation's head is drawn again then). */
export function slaChanged(a: SlaState | null | undefined, b: SlaState | null | undefined): boolean {
  return (a?.dueAt ?? null) !== (b?.dueAt ?? null) || (a?.breached ?? []).join(',') !== (b?.breached ?? []).join(',');
}
