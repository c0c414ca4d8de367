import { DateTime } from 'luxon';

export const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof weekdays)[number];

/** One open stretch of a day, local wall time `HH:MM` (`to` may be `24:00`, the day's end). */
export interface OpenInterval {
  from: string;
  to: string;
}

/**
 * When a team answers: a weekly schedule of open intervals per weekday, in a time zone (IANA), with
 * holidays (local dates, closed all day). Daylight saving is the zone's: 9:00 stays 9:00 all year.
 */
export interface OfficeHours {
  timeZone: string;
  weekly: Partial<Record<Weekday, OpenInterval[]>>;
  holidays: string[];
}

/** How far ahead an opening is looked for: a schedule with none in a year is closed for good. */
const horizonDays = 370;

export function isTimeZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

/** The open intervals of the local day that `day` (any instant of it, in the zone) is, as instants. */
function openOn(hours: OfficeHours, day: DateTime): Array<{ start: number; end: number }> {
  if (hours.holidays.includes(day.toISODate()!)) return [];
  const intervals = hours.weekly[weekdays[day.weekday - 1]!] ?? [];
  const at = (time: string) => {
    const [hour, minute] = time.split(':').map(Number) as [number, number];
    return (hour === 24 ? day.startOf('day').plus({ days: 1 }) : day.set({ hour, minute, second: 0, millisecond: 0 })).toMillis();
  };
  return intervals
    .map((interval) => ({ start: at(interval.from), end: at(interval.to) }))
    .filter((interval) => interval.end > interval.start)
    .sort((a, b) => a.start - b.start);
}

/** The open intervals from the local day of `from` on, one day after another, as instants (ms). */
function* openIntervals(hours: OfficeHours, from: number): Generator<{ start: number; end: number }> {
  let day = DateTime.fromMillis(from, { zone: hours.timeZone }).startOf('day');
  for (let i = 0; i < horizonDays; i++, day = day.plus({ days: 1 })) {
    for (const interval of openOn(hours, day)) if (interval.end > from) yield interval;
  }
}

export function isOpen(hours: OfficeHours, at: Date): boolean {
  const ms = at.getTime();
  const first = openIntervals(hours, ms).next();
  return !first.done && first.value.start <= ms;
}

/** `at` itself when open, else the next moment the team opens; null when it never does within a year. */
export function nextOpening(hours: OfficeHours, at: Date): Date | null {
  const ms = at.getTime();
  const first = openIntervals(hours, ms).next();
  return first.done ? null : new Date(Math.max(first.value.start, ms));
}

/**
 * The moment `ms` of open time have passed since `from` (a business-hours deadline): open time is
 * counted, closed time skipped. Null when the schedule holds too little open time within a year.
 */
export function afterOpenTime(hours: OfficeHours, from: Date, ms: number): Date | null {
  let left = ms;
  for (const interval of openIntervals(hours, from.getTime())) {
    const start = Math.max(interval.start, from.getTime());
    if (interval.end - start >= left) return new Date(start + left);
    left -= interval.end - start;
  }
  return null;
}

/** Open time (ms) between two moments: what a report counts of a wait within office hours. */
export function openTimeBetween(hours: OfficeHours, from: Date, to: Date): number {
  let total = 0;
  for (const interval of openIntervals(hours, from.getTime())) {
    if (interval.start >= to.getTime()) break;
    total += Math.min(interval.end, to.getTime()) - Math.max(interval.start, from.getTime());
  }
  return total;
}

/** When the team is back, in words for the customer: the weekday and time in the team's zone, in their language. */
export function openingInWords(hours: OfficeHours, opening: Date, locale: string): string {
  return DateTime.fromJSDate(opening, { zone: hours.timeZone })
    .setLocale(locale)
    .toLocaleString({ weekday: 'long', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
}
